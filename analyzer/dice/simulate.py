"""Run a per-trial numba function over seeded blocks, in parallel, into counts.

A *trial function* is an ``@njit`` function compiled for :data:`TRIAL_SIGNATURE`,
``trial(state, params) -> int``: it plays one roll with the generator ``state``
(see :mod:`analyzer.dice.random_nb`) and the integer parameter vector
``params`` and returns the integer outcome.  :func:`simulate_counts` runs it
over blocks seeded by :mod:`analyzer.rng`; per-block counts are integers and
are summed, so totals are identical for any number of threads.

The block runner takes the trial as a first-class function (a typed function
pointer), which keeps one cached compiled runner for every mechanic.
"""

from __future__ import annotations

import functools
from typing import Any

import numba
import numpy as np
from numba import njit, prange, types

from analyzer.rng import block_sizes, block_states

#: Signature every trial function is compiled for.
TRIAL_SIGNATURE = types.int64(types.uint64[::1], types.int64[::1])

_TRIAL_TYPE = types.FunctionType(TRIAL_SIGNATURE)
_RUNNER_SIGNATURE = types.int64[:, ::1](
    _TRIAL_TYPE, types.uint64[:, ::1], types.int64[::1], types.int64[::1], types.int64, types.int64
)


def trial_kernel(func: Any) -> Any:
    """Decorator: a cached numba trial function, compiled for ``TRIAL_SIGNATURE`` on first use."""
    return njit(cache=True)(func)


def run_blocks(trial, states, sizes, params, lowest, n_outcomes):  # pragma: no cover - numba
    """Counts per block of ``trial`` outcomes minus ``lowest`` (last column: strays)."""
    n_blocks = sizes.shape[0]
    counts = np.zeros((n_blocks, n_outcomes + 1), dtype=np.int64)
    for b in prange(n_blocks):
        state = states[b].copy()
        for _ in range(sizes[b]):
            k = trial(state, params) - lowest
            if k < 0 or k >= n_outcomes:
                k = n_outcomes  # out of range: counted in the last column, rejected below
            counts[b, k] += 1
    return counts


@functools.cache
def _runner() -> Any:
    """The compiled block runner, built (or loaded from cache) on first use only."""
    return njit(_RUNNER_SIGNATURE, cache=True, parallel=True)(run_blocks)


def simulate_counts(
    trial: Any,
    params: np.ndarray,
    lowest: int,
    highest: int,
    trials: int,
    seed: int,
    task: tuple[int, ...] = (),
) -> np.ndarray:
    """Counts of each outcome ``lowest..highest`` over ``trials`` simulated rolls."""
    sizes = block_sizes(trials)
    if sizes.size == 0:
        return np.zeros(highest - lowest + 1, dtype=np.int64)
    blocks = simulate_block_counts(trial, params, lowest, highest, seed, task, 0, sizes)
    return np.asarray(blocks.sum(axis=0), dtype=np.int64)


def simulate_block_counts(
    trial: Any,
    params: np.ndarray,
    lowest: int,
    highest: int,
    seed: int,
    task: tuple[int, ...],
    first_block: int,
    sizes: np.ndarray,
) -> np.ndarray:
    """Per-block counts (``len(sizes) x outcomes``) for blocks ``first_block, first_block+1, ...``.

    Block ``b`` always gets the same generator state whatever the other blocks
    in the call, so work can be split into any chunks (sweeps store one file
    per block) and summed to the same totals as :func:`simulate_counts`.
    """
    n_outcomes = highest - lowest + 1
    sizes = np.ascontiguousarray(sizes, dtype=np.int64)
    states = block_states(seed, sizes.size, task, first_block=first_block)
    trial.compile(TRIAL_SIGNATURE)  # no-op once compiled; loads from the numba cache
    threads = numba.get_num_threads()
    numba.set_num_threads(max(1, min(threads, sizes.size)))  # no idle threads to wake
    try:
        counts = _runner()(
            trial, states, sizes, np.ascontiguousarray(params, dtype=np.int64), lowest, n_outcomes
        )
    finally:
        numba.set_num_threads(threads)
    if counts[:, -1].any():
        raise RuntimeError(
            f"trial kernel returned {counts[:, -1].sum()} outcomes outside {lowest}..{highest}"
        )
    return np.asarray(counts[:, :-1], dtype=np.int64)
