"""The Rapture match engine as a sweep metric (``metric: {kind: matches}``).

:func:`match_model` follows :class:`analyzer.experiments.metrics.MatchEngine`: a cell's
cards (after variations), its two army lists, policies and options become one int64
parameter vector that carries the whole compiled match-up (float arrays bit-cast), so the
vector is the task's identity and a Dask worker rebuilds the match-up from it alone.

Randomness: sweep block ``b`` of a task is cut into sub-blocks of ``MATCH_BLOCK`` matches;
sub-block ``j`` is seeded from ``SeedSequence(seed, spawn_key=(*task, b, j))``.  Counts
therefore depend only on (seed, task, block), never on workers or chunks, and every cell
of a sweep reuses the same per-match seeds (common random numbers).

An outcome is ``2 * winner + (B took the first activation)`` with winner 0 (draw), 1 (A),
2 (B), so ``winner_stride = 2`` and the first-activation edge stays visible.
"""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.match import match_nb as M
from analyzer.games.rapture.match.compile import SCENARIO_KEY, match_options

N_OUTCOMES = 6
WINNER_STRIDE = 2
_FLOAT, _INT = 1, 2


def pack_arrays(arrays: tuple[np.ndarray, ...]) -> np.ndarray:
    """One int64 vector holding ``arrays`` (int64 or float64, any shape), exactly."""
    head: list[int] = [len(arrays)]
    body: list[np.ndarray] = []
    for a in arrays:
        a = np.ascontiguousarray(a)
        if a.dtype == np.float64:
            head.append(_FLOAT)
        elif a.dtype == np.int64:
            head.append(_INT)
        else:
            raise TypeError(f"cannot pack an array of {a.dtype}")
        head += [a.ndim, *a.shape]
        body.append(a.reshape(-1).view(np.int64))
    return np.concatenate([np.asarray(head, dtype=np.int64), *body])


def unpack_arrays(vector: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays of :func:`pack_arrays` (copies, C-contiguous)."""
    vector = np.asarray(vector, dtype=np.int64)
    n = int(vector[0])
    pos = 1
    specs = []
    for _ in range(n):
        kind, ndim = int(vector[pos]), int(vector[pos + 1])
        shape = tuple(int(x) for x in vector[pos + 2 : pos + 2 + ndim])
        specs.append((kind, shape))
        pos += 2 + ndim
    out = []
    for kind, shape in specs:
        size = int(np.prod(shape, dtype=np.int64))
        chunk = vector[pos : pos + size].copy()
        pos += size
        out.append((chunk.view(np.float64) if kind == _FLOAT else chunk).reshape(shape))
    if pos != len(vector):
        raise ValueError("malformed match parameter vector")
    return tuple(out)


@dataclass(frozen=True)
class MatchModel:
    """One cell's match-up for the sweep executor (see the module docstring).

    With ``first: alternate`` the task plays half of every block with A taking the first
    activation of round 1 and half with B (``firsts = (True, False)``), which gives the
    sweep's ``first_edge``; otherwise the engine decides as its ``first`` option says.
    """

    vectors: dict[bool, np.ndarray]
    trial: Any = M.run_block
    n_outcomes: int = N_OUTCOMES
    winner_stride: int = WINNER_STRIDE
    runner: str = f"{__name__}:run_sweep_blocks"

    @property
    def firsts(self) -> tuple[bool, ...]:
        return tuple(self.vectors)

    def params(self, a_first: bool) -> np.ndarray:
        return self.vectors[a_first]


def match_model(
    cards: dict[str, Any],
    list_a: Any,
    list_b: Any,
    policies: dict[str, str],
    options: dict[str, Any],
) -> MatchModel:
    """The :class:`MatchModel` of list A against list B (the ``MatchEngine`` contract)."""
    from analyzer.games.rapture.match import prepare_loaded

    base = match_options(policies, options)
    if base.first == "alternate":
        variants = {True: replace(base, round1_first=0), False: replace(base, round1_first=1)}
    else:
        variants = {True: base}
    vectors = {}
    for a_first, opts in variants.items():
        setup = prepare_loaded(
            cards, (list_a, list_b), scenario=options.get(SCENARIO_KEY), options=opts
        )
        vectors[a_first] = pack_arrays(setup.S)
    return MatchModel(vectors)


@functools.lru_cache(maxsize=8)
def _static(vector_bytes: bytes) -> tuple[np.ndarray, ...]:
    """The match-up of a packed vector, unpacked once per process."""
    return unpack_arrays(np.frombuffer(vector_bytes, dtype=np.int64))


def run_sweep_blocks(
    vector: np.ndarray, seed: int, task: tuple[int, ...], first_block: int, sizes: np.ndarray
) -> np.ndarray:
    """Outcome counts (``len(sizes) x N_OUTCOMES``) of sweep blocks ``first_block ..``.

    The sub-blocks run on ``numba.get_num_threads()`` Python threads (the block runner
    releases the GIL); each writes its own rows, so the counts do not depend on them.
    """
    import numba

    from analyzer.games.rapture.match import kernels
    from analyzer.rng import block_states

    raw = np.ascontiguousarray(vector, dtype=np.int64).tobytes()
    S = _static(raw)
    table = kernels.function_table()
    runner = kernels.block_runner()
    n_units = S[2].shape[0]
    sizes = np.asarray(sizes, dtype=np.int64)
    recs = [np.zeros((int(size), M.R_COLS), dtype=np.int64) for size in sizes]
    jobs = []
    for i, size in enumerate(sizes):
        n_sub = (int(size) + M.MATCH_BLOCK - 1) // M.MATCH_BLOCK
        states = block_states(seed, n_sub, (*task, first_block + i))
        for j in range(n_sub):
            first = j * M.MATCH_BLOCK
            jobs.append((recs[i], states[j], first, min(M.MATCH_BLOCK, int(size) - first)))

    def play(job: tuple[np.ndarray, np.ndarray, int, int]) -> None:
        rec, state, first, count = job
        urec = np.zeros((rec.shape[0], n_units, M.U_COLS), dtype=np.int64)
        trace = np.zeros((1, L.EV_COLS), dtype=np.int64)
        runner(S, table, state, first, count, rec, urec, 0, trace, 0)

    threads = max(1, min(int(numba.get_num_threads()), len(jobs)))
    if threads == 1:
        for job in jobs:
            play(job)
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(play, jobs))
    counts = np.zeros((len(sizes), N_OUTCOMES), dtype=np.int64)
    for i, rec in enumerate(recs):
        vp_a, vp_b = rec[:, M.R_VP0], rec[:, M.R_VP1]
        winner = np.where(vp_a > vp_b, 1, np.where(vp_b > vp_a, 2, 0))
        outcome = WINNER_STRIDE * winner + (rec[:, M.R_FIRST1] != 0)
        counts[i] = np.bincount(outcome, minlength=N_OUTCOMES)
    return counts
