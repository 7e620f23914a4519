"""Any match engine as a sweep metric (``metric: {kind: matches}``).

:func:`match_model` turns a cell's cards (after variations), its two lists, policies and
options into one int64 parameter vector: the engine's registry index, then the
compiled match-up's arrays packed exactly (float arrays bit-cast), so the vector is the
task's identity and a Dask worker rebuilds the match-up from it alone.

Randomness: sweep block ``b`` of a task is cut into sub-blocks of ``engine.match_block``
matches; sub-block ``j`` is seeded from ``SeedSequence(seed, spawn_key=(*task, b, j))``.
Counts therefore depend only on (seed, task, block), never on workers or chunks, and
every cell of a sweep reuses the same per-match seeds (common random numbers).

An outcome is ``2 * winner + (B took the first turn)`` with winner 0 (draw), 1 (A),
2 (B), so ``winner_stride = 2`` and the first-player edge stays visible.
"""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.match import contract as C
from analyzer.match.options import SCENARIO_KEY, check_match_options, check_policy

N_OUTCOMES = 6
WINNER_STRIDE = 2
# Dtype codes of packed arrays; float64 and int64 keep the codes 1 and 2 they always had,
# so the vectors (task identities) of int64/float64-only engines do not change.
_DTYPES = (
    np.dtype(np.void),  # 0: unused
    np.dtype(np.float64),
    np.dtype(np.int64),
    np.dtype(np.int32),
    np.dtype(np.int16),
    np.dtype(np.int8),
    np.dtype(np.uint64),
    np.dtype(np.uint32),
    np.dtype(np.uint16),
    np.dtype(np.uint8),
    np.dtype(np.bool_),
    np.dtype(np.float32),
)
_CODE = {dtype: code for code, dtype in enumerate(_DTYPES) if code}


def pack_arrays(arrays: tuple[np.ndarray, ...]) -> np.ndarray:
    """One int64 vector holding ``arrays`` exactly (any shape; the dtypes of ``_DTYPES``).

    Each array's bytes are padded to a multiple of 8, so small dtypes (e.g. int8 sight
    tables) cost their own size, not 8 bytes per element.
    """
    head: list[int] = [len(arrays)]
    body: list[np.ndarray] = []
    for a in arrays:
        a = np.ascontiguousarray(a)
        code = _CODE.get(a.dtype)
        if code is None:
            raise TypeError(f"cannot pack an array of {a.dtype}")
        head += [code, a.ndim, *a.shape]
        raw = a.reshape(-1).view(np.uint8)
        padded = np.zeros(-(-raw.size // 8) * 8, dtype=np.uint8)
        padded[: raw.size] = raw
        body.append(padded.view(np.int64))
    return np.concatenate([np.asarray(head, dtype=np.int64), *body])


def unpack_arrays(vector: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays of :func:`pack_arrays` (copies, C-contiguous, their own dtypes)."""
    vector = np.asarray(vector, dtype=np.int64)
    n = int(vector[0])
    pos = 1
    specs = []
    for _ in range(n):
        kind, ndim = int(vector[pos]), int(vector[pos + 1])
        if not 0 < kind < len(_DTYPES):
            raise ValueError("malformed match parameter vector")
        shape = tuple(int(x) for x in vector[pos + 2 : pos + 2 + ndim])
        specs.append((_DTYPES[kind], shape))
        pos += 2 + ndim
    out = []
    for dtype, shape in specs:
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        words = -(-nbytes // 8)
        if pos + words > len(vector):
            raise ValueError("malformed match parameter vector")
        chunk = vector[pos : pos + words].copy().view(np.uint8)[:nbytes]
        pos += words
        out.append(chunk.view(dtype).reshape(shape).copy())
    if pos != len(vector):
        raise ValueError("malformed match parameter vector")
    return tuple(out)


@dataclass(frozen=True)
class MatchModel:
    """One cell's match-up for the sweep executor (see the module docstring).

    With ``first: alternate`` the task plays half of every block with A taking the first
    turn of round 1 and half with B (``firsts = (True, False)``), which gives the sweep's
    ``first_edge``; otherwise the engine decides as its ``first`` option says.
    """

    vectors: dict[bool, np.ndarray]
    n_outcomes: int = N_OUTCOMES
    winner_stride: int = WINNER_STRIDE
    runner: str = f"{__name__}:run_sweep_blocks"
    trial: str = f"{__name__}:run_sweep_blocks"

    @property
    def firsts(self) -> tuple[bool, ...]:
        return tuple(self.vectors)

    def params(self, a_first: bool) -> np.ndarray:
        return self.vectors[a_first]


def match_model(
    system: str,
    cards: dict[str, Any],
    list_a: Any,
    list_b: Any,
    policies: dict[str, str],
    options: dict[str, Any],
) -> MatchModel:
    """The :class:`MatchModel` of list A against list B under ``system``'s engine."""
    from analyzer.games import MATCH_ENGINES, match_engine

    engine = match_engine(system)
    pols = tuple(
        check_policy(engine, policies.get(r, engine.default_policy), side=i)
        for i, r in enumerate("ab")
    )
    checked = check_match_options(engine, options)
    firsts = {True: 0, False: 1} if checked.get("first") == "alternate" else {True: None}
    index = list(MATCH_ENGINES).index(system)
    vectors = {}
    for a_first, side in firsts.items():
        setup = engine.prepare(
            cards,
            (list_a, list_b),
            policies=(pols[0], pols[1]),
            options=checked,
            scenario=options.get(SCENARIO_KEY),
            first_side=side,
        )
        head = np.array([index, len(setup.units)], dtype=np.int64)
        vectors[a_first] = np.concatenate([head, pack_arrays(setup.arrays)])
    return MatchModel(vectors)


@functools.lru_cache(maxsize=8)
def _static(vector_bytes: bytes) -> tuple[C.MatchEngine, int, tuple[np.ndarray, ...]]:
    """The engine, unit count and arrays of a packed vector, unpacked once per process."""
    from analyzer.games import MATCH_ENGINES, match_engine

    vector = np.frombuffer(vector_bytes, dtype=np.int64)
    engine = match_engine(list(MATCH_ENGINES)[int(vector[0])])
    return engine, int(vector[1]), unpack_arrays(vector[2:])


def run_sweep_blocks(
    vector: np.ndarray, seed: int, task: tuple[int, ...], first_block: int, sizes: np.ndarray
) -> np.ndarray:
    """Outcome counts (``len(sizes) x N_OUTCOMES``) of sweep blocks ``first_block ..``.

    The sub-blocks run on ``numba.get_num_threads()`` Python threads (the block runners
    release the GIL); each writes its own rows, so the counts do not depend on them.
    """
    import numba

    from analyzer.rng import block_states

    engine, n_units, arrays = _static(np.ascontiguousarray(vector, dtype=np.int64).tobytes())
    block = engine.match_block
    sizes = np.asarray(sizes, dtype=np.int64)
    width, uwidth = C.record_width(engine), C.unit_width(engine)
    recs = [np.zeros((int(size), width), dtype=np.int64) for size in sizes]
    jobs = []
    for i, size in enumerate(sizes):
        n_sub = (int(size) + block - 1) // block
        states = block_states(seed, n_sub, (*task, first_block + i))
        for j in range(n_sub):
            first = j * block
            jobs.append((recs[i], states[j], first, min(block, int(size) - first)))

    def play(job: tuple[np.ndarray, np.ndarray, int, int]) -> None:
        rec, state, first, count = job
        urec = np.zeros((count, n_units, uwidth), dtype=np.int64)
        engine.run_block(arrays, state, first, count, rec[first : first + count], urec, False, None)

    threads = max(1, min(int(numba.get_num_threads()), len(jobs)))
    if threads == 1:
        for job in jobs:
            play(job)
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(play, jobs))
    counts = np.zeros((len(sizes), N_OUTCOMES), dtype=np.int64)
    for i, rec in enumerate(recs):
        outcome = WINNER_STRIDE * rec[:, C.R_WINNER] + (rec[:, C.R_FIRST] != 0)
        counts[i] = np.bincount(outcome, minlength=N_OUTCOMES)
    return counts
