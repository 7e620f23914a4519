"""Seeding of one match from its block's generator state (shared by every match engine).

Match ``k`` of a block is seeded from the block's state words and ``k``'s index in the
block through splitmix64, so its random stream depends only on (seed, block, index):
the same for any thread count, piece size or trace replay.  Every engine, Rapture's
included, calls this one function.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def splitmix(x):  # pragma: no cover - numba
    """splitmix64's output function of ``x`` (a uint64)."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def seed_match(rng, block_state, index):  # pragma: no cover - numba
    """Set ``rng`` (a ``random_nb`` state) for match ``index`` of the block ``block_state``."""
    for w in range(4):
        rng[w] = splitmix(block_state[w] ^ splitmix(np.uint64(index) * np.uint64(4) + np.uint64(w)))
    if rng[0] == 0 and rng[1] == 0 and rng[2] == 0 and rng[3] == 0:
        rng[0] = 1
    rng[4] = 0
    rng[5] = 0


@njit(cache=True, inline="always")
def seed_rollout(rng, base, r):  # pragma: no cover - numba
    """Set ``rng`` for rollout ``r`` of a lookahead decision keyed by ``base`` (a uint64):
    every candidate the decision compares replays the same streams (common random numbers)."""
    for w in range(4):
        rng[w] = splitmix(base ^ splitmix(np.uint64(r * 4 + w + 1)))
    rng[4] = 0
    rng[5] = 0
