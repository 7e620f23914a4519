"""Inline random number generation for numba kernels.

The generator is xoshiro256** (Blackman & Vigna), kept in a small ``uint64``
array so that any kernel can carry it around as a plain argument:

``state[0:4]``  the xoshiro256** state words,
``state[4]``    a buffered random word,
``state[5]``    how many unused 16-bit chunks remain in ``state[4]``.

Dice are drawn from 16-bit chunks (four per 64-bit word) with Lemire's
multiply-shift method and a rejection step, so every face is exactly
equally likely (for a d6 the rejection fires with probability 6e-5).
Pool helpers keep the buffer in registers while they roll.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

STATE_WORDS = 6
_CHUNK_BITS = 16
_CHUNKS_PER_WORD = 4
_CHUNK_MASK = (1 << _CHUNK_BITS) - 1


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance xoshiro256** and return the next 64-bit word."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * uint64(5), 7) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit(cache=True, inline="always")
def _draw(state, word, left, sides):
    """One die from the buffered ``word``; returns (m, word, left) with face = (m >> 16) + 1.

    Lemire's multiply-shift on a 16-bit chunk ``v``: ``m = v * sides``, whose
    high part is the face minus one.  The few chunks whose low part falls
    under ``2**16 mod sides`` are rejected, so every face is exactly equally likely.
    """
    threshold = (1 << _CHUNK_BITS) % sides
    while True:
        if left == 0:
            word = next_u64(state)
            left = _CHUNKS_PER_WORD
        m = np.int64(word & uint64(_CHUNK_MASK)) * sides
        word = word >> uint64(_CHUNK_BITS)
        left -= 1
        if (m & _CHUNK_MASK) >= threshold:
            return m, word, left


@njit(cache=True, inline="always")
def roll_die(state, sides):
    """One fair die with faces 1..sides (sides <= 4096), exactly uniform."""
    m, word, left = _draw(state, state[4], np.int64(state[5]), sides)
    state[4] = word
    state[5] = uint64(left)
    return (m >> _CHUNK_BITS) + 1


@njit(cache=True, inline="always")
def count_at_least(state, n_dice, sides, target):
    """Roll ``n_dice`` dice with ``sides`` faces, count those showing >= target."""
    word = state[4]
    left = np.int64(state[5])
    bound = np.int64(target - 1) << _CHUNK_BITS  # face >= target  <=>  m >= bound
    hits = 0
    for _ in range(n_dice):
        m, word, left = _draw(state, word, left, sides)
        hits += m >= bound
    state[4] = word
    state[5] = uint64(left)
    return hits


@njit(cache=True, inline="always")
def count_at_most(state, n_dice, sides, target):
    """Roll ``n_dice`` dice with ``sides`` faces, count those showing <= target."""
    word = state[4]
    left = np.int64(state[5])
    bound = np.int64(target) << _CHUNK_BITS  # face <= target  <=>  m < bound
    hits = 0
    for _ in range(n_dice):
        m, word, left = _draw(state, word, left, sides)
        hits += m < bound
    state[4] = word
    state[5] = uint64(left)
    return hits


def seeded_state(words: np.ndarray) -> np.ndarray:
    """Build a generator state from four seed words (never the all-zero state)."""
    state = np.zeros(STATE_WORDS, dtype=np.uint64)
    state[:4] = words
    if not state[:4].any():
        state[0] = 1
    return state
