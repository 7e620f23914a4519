"""Blocks of matches on worker threads, for any engine (same records for any thread count).

Match ``k`` of a run with seed ``s`` belongs to block ``k // engine.match_block``, whose
generator state is ``block_states(s, ., (MATCH_TASK,))``; the engine seeds the match from
that state and ``k``'s index in the block, so a record depends only on ``(s, k)``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from analyzer.errors import InputError
from analyzer.match.contract import MATCH_TASK, MatchEngine, Setup, record_width, unit_width
from analyzer.rng import block_states

MAX_MATCHES = 100_000_000


def check_counts(matches: int, seed: int) -> None:
    """``--matches`` and ``--seed`` within bounds (one-line errors)."""
    if not 1 <= matches <= MAX_MATCHES:
        raise InputError(f"--matches must be between 1 and {MAX_MATCHES:,} (got {matches})")
    if not 0 <= seed <= 2**63 - 1:
        raise InputError(f"--seed must be between 0 and 2**63 - 1 (got {seed})")


def default_threads() -> int:
    """Worker threads: ``NUMBA_NUM_THREADS`` (numba's setting, by default the CPU count)."""
    return max(int(getattr(numba.config, "NUMBA_NUM_THREADS", os.cpu_count() or 1)), 1)


def match_pieces(matches: int, block: int, workers: int) -> list[tuple[int, int, int]]:
    """The runs of matches handed to the worker threads: (block, first match, count).

    Whole blocks of ``block`` matches, unless there are fewer than four blocks per
    worker: then the blocks are cut into pieces so that every worker has work (a few
    hundred lookahead matches take minutes).  A match's random stream depends only on its
    block and its index, so the cut never changes a result.
    """
    n_blocks = (matches + block - 1) // block
    size = block
    if workers > 1 and n_blocks < 4 * workers:
        size = max(1, -(-matches // (4 * workers)))
    pieces = []
    for b in range(n_blocks):
        end = min((b + 1) * block, matches)
        for first in range(b * block, end, size):
            pieces.append((b, first, min(size, end - first)))
    return pieces


def run_records(
    engine: MatchEngine,
    setup: Setup,
    matches: int,
    seed: int,
    threads: int | None = None,
    check: bool = False,
    progress: Callable[[int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Play ``matches`` matches: the match records and the unit records (contract layout).

    ``check`` (or the option ``check_invariants``, where an engine has it) runs the
    invariant checker; ``progress(n)`` is called as each run of ``n`` matches finishes.
    """
    check_counts(matches, seed)
    check = check or bool(setup.options.get("check_invariants", False))
    n_blocks = (matches + engine.match_block - 1) // engine.match_block
    states = block_states(seed, n_blocks, (MATCH_TASK,))
    rec = np.zeros((matches, record_width(engine)), dtype=np.int64)
    urec = np.zeros((matches, len(setup.units), unit_width(engine)), dtype=np.int64)
    workers = threads if threads is not None else default_threads()
    pieces = match_pieces(matches, engine.match_block, workers)

    def play(piece: tuple[int, int, int]) -> None:
        b, first, count = piece
        rows = slice(first, first + count)
        engine.run_block(setup.arrays, states[b], first, count, rec[rows], urec[rows], check, None)
        if progress is not None:
            progress(count)

    if workers <= 1 or len(pieces) == 1:
        for piece in pieces:
            play(piece)
    else:
        with ThreadPoolExecutor(max_workers=min(workers, len(pieces))) as pool:
            list(pool.map(play, pieces))
    return rec, urec


def trace_events(
    engine: MatchEngine, setup: Setup, k: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The events of match ``k`` (as played in any run with this seed), its match record
    and its unit records."""
    if k < 0:
        raise InputError(f"--trace must be >= 0 (got {k})")
    check_counts(k + 1, seed)
    b = k // engine.match_block
    state = block_states(seed, 1, (MATCH_TASK,), first_block=b)[0]
    events = engine.trace_buffer()
    rec = np.zeros((1, record_width(engine)), dtype=np.int64)
    urec = np.zeros((1, len(setup.units), unit_width(engine)), dtype=np.int64)
    n = engine.run_block(setup.arrays, state, k, 1, rec, urec, True, events)
    return events[:n], rec[0], urec[0]
