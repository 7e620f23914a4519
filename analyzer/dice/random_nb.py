"""Inline random number generation for numba kernels.

The generator is xoshiro256** (Blackman & Vigna), kept in a small ``uint64``
array so that any kernel can carry it around as a plain argument:

``state[0:4]``  the xoshiro256** state words,
``state[4]``    a buffered random word,
``state[5]``    how many unused 16-bit chunks remain in ``state[4]``.

Single dice are drawn from 16-bit chunks (four per 64-bit word) with
Lemire's multiply-shift method and a rejection step; success pools
(``count_at_least`` / ``count_at_most``) compare four 15-bit lanes of a word at
once.  Both are exact: every face is equally likely (rejection removes the
few values that would bias a face, for a d6 with probability below 1e-4).
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
def _step(s0, s1, s2, s3):
    """One xoshiro256** step on the four state words: (output, s0, s1, s2, s3)."""
    result = _rotl(s1 * uint64(5), 7) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance xoshiro256** and return the next 64-bit word."""
    result, state[0], state[1], state[2], state[3] = _step(state[0], state[1], state[2], state[3])
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


_LOW15 = uint64(0x7FFF7FFF7FFF7FFF)
_HIGH = uint64(0x8000800080008000)
_ONES = uint64(0x0001000100010001)
_ALL = uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def _lane_high_bits(k):
    """Bit 15 of each of the first ``k`` (1..4) 16-bit lanes."""
    return _HIGH & (_ALL >> uint64(64 - 16 * k))


@njit(cache=True, inline="always")
def _count_lanes_at_least(state, n_dice, sides, cut):
    """Dice (of ``sides`` faces) whose lane value is >= ``cut``, four dice per random word.

    Each die is one 15-bit lane ``v`` of a word, uniform on ``[0, width * sides)``
    after rejection (``width = 32768 // sides``); its face is ``v // width + 1``.
    Comparing all four lanes at once (SWAR: add ``0x8000 - cut`` to every lane and
    read bit 15) counts the dice without a branch per die.  A word in which any
    used lane falls in the rejected top range is redrawn whole, which keeps the
    used lanes independent and exactly uniform.
    """
    limit = (32768 // sides) * sides
    add_cut = uint64(0x8000 - cut) * _ONES
    add_limit = uint64(0x8000 - limit) * _ONES
    hits = 0
    remaining = n_dice
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]  # kept in registers
    while remaining > 0:
        take = min(remaining, 4)
        high = _lane_high_bits(take)
        word, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
        lanes = word & _LOW15
        if ((lanes + add_limit) & high) != uint64(0):
            continue  # a used lane was in the rejected range: draw a fresh word
        found = ((lanes + add_cut) & high) >> uint64(15)
        hits += int((found * _ONES) >> uint64(48))
        remaining -= take
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return hits


@njit(cache=True, inline="always")
def count_at_least(state, n_dice, sides, target):
    """Roll ``n_dice`` dice with ``sides`` faces (<= 4096), count those showing >= target."""
    faces_below = max(min(target - 1, sides), 0)
    return _count_lanes_at_least(state, n_dice, sides, (32768 // sides) * faces_below)


@njit(cache=True, inline="always")
def count_at_most(state, n_dice, sides, target):
    """Roll ``n_dice`` dice with ``sides`` faces (<= 4096), count those showing <= target."""
    faces_up_to = max(min(target, sides), 0)
    return n_dice - _count_lanes_at_least(state, n_dice, sides, (32768 // sides) * faces_up_to)


def seeded_state(words: np.ndarray) -> np.ndarray:
    """Build a generator state from four seed words (never the all-zero state)."""
    state = np.zeros(STATE_WORDS, dtype=np.uint64)
    state[:4] = words
    if not state[:4].any():
        state[0] = 1
    return state
