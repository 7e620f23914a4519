"""Inline random number generation for numba kernels.

The generator is xoshiro256** (Blackman & Vigna), kept in a small ``uint64``
array so that any kernel can carry it around as a plain argument:

``state[0:4]``  the xoshiro256** state words,
``state[4]``    a buffered 63-bit random word,
``state[5]``    how many unused 21-bit chunks remain in ``state[4]``.

Dice are drawn from 21-bit chunks (three per 64-bit word) with Lemire's
multiply-shift method and a rejection step, so every face is exactly
equally likely (the rejection fires with probability below 1e-5).
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

STATE_WORDS = 6
_CHUNK_BITS = 21
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
def _next_chunk(state):
    """Return 21 fresh random bits (as int64)."""
    if state[5] == 0:
        state[4] = next_u64(state)
        state[5] = uint64(3)
    word = state[4]
    state[4] = word >> uint64(_CHUNK_BITS)
    state[5] -= uint64(1)
    return np.int64(word & uint64(_CHUNK_MASK))


@njit(cache=True, inline="always")
def roll_die(state, sides):
    """One fair die with faces 1..sides (sides <= 1024), exactly uniform."""
    threshold = (1 << _CHUNK_BITS) % sides
    while True:
        m = _next_chunk(state) * sides
        if (m & _CHUNK_MASK) >= threshold:
            return (m >> _CHUNK_BITS) + 1


@njit(cache=True, inline="always")
def count_at_least(state, n_dice, sides, target):
    """Roll ``n_dice`` dice with ``sides`` faces, count those showing >= target."""
    hits = 0
    for _ in range(n_dice):
        if roll_die(state, sides) >= target:
            hits += 1
    return hits


@njit(cache=True, inline="always")
def count_at_most(state, n_dice, sides, target):
    """Roll ``n_dice`` dice with ``sides`` faces, count those showing <= target."""
    hits = 0
    for _ in range(n_dice):
        if roll_die(state, sides) <= target:
            hits += 1
    return hits


def seeded_state(words: np.ndarray) -> np.ndarray:
    """Build a generator state from four seed words (never the all-zero state)."""
    state = np.zeros(STATE_WORDS, dtype=np.uint64)
    state[:4] = words
    if not state[:4].any():
        state[0] = 1
    return state
