"""Matches between in-memory army lists on common random numbers, in any range of match
indices, for the list builder and the joint balance.

Match ``k`` of a pairing with seed ``s`` is played exactly as in
:func:`analyzer.match.runner.run_records` (block ``k // match_block`` of
``block_states(s, ., (MATCH_TASK,))``), so matches ``0..n-1`` can be extended to
``0..m-1`` later without replaying them, and two candidates facing the same opponent
with the same seed see the same dice (common random numbers): their difference is far
less noisy than two independent runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.match import contract as C
from analyzer.match.options import check_match_options, check_policy
from analyzer.match.runner import default_threads
from analyzer.rng import block_states

#: Score of side A by the record's winner column (0 draw, 1 A, 2 B).
SCORE_OF_WINNER = np.array([0.5, 1.0, 0.0])


def pairing_seed(seed: int, opponent: int) -> int:
    """The seed of every pairing against opponent ``opponent`` (the same for every
    candidate: common random numbers)."""
    return int(np.random.SeedSequence(seed, spawn_key=(20, opponent)).generate_state(1)[0])


@dataclass
class Arena:
    """One engine, policies and options; plays side A against side B and counts matches."""

    system: str
    policies: tuple[str, str] = ("greedy", "greedy")
    options: Mapping[str, Any] = field(default_factory=dict)
    scenario: str | None = None
    threads: int | None = None
    progress: Callable[[int], None] | None = None
    spent: int = 0

    def __post_init__(self) -> None:
        from analyzer.games import match_engine

        self.engine = match_engine(self.system)
        check_policy(self.engine, self.policies[0])
        check_policy(self.engine, self.policies[1])
        self.options = check_match_options(self.engine, dict(self.options))

    def setup(self, cards: Mapping[str, Any], side_a: Any, side_b: Any) -> C.Setup:
        """The compiled match-up of two loaded lists under ``cards``."""
        return self.engine.prepare(cards, (side_a, side_b), policies=self.policies,
                                   options=self.options, scenario=self.scenario)  # fmt: skip

    def scores(
        self, jobs: Sequence[tuple[C.Setup, int]], start: int, stop: int
    ) -> list[np.ndarray]:
        """Side A's score (1 win, 1/2 draw, 0 loss) in matches ``start..stop-1`` of each
        (setup, seed) job, on worker threads (same numbers for any thread count)."""
        if stop <= start:
            return [np.zeros(0) for _ in jobs]
        block = self.engine.match_block
        b0, b1 = start // block, (stop - 1) // block
        out = []
        pieces = []
        for setup, seed in jobs:
            states = block_states(seed, b1 - b0 + 1, (C.MATCH_TASK,), first_block=b0)
            rec = np.zeros((stop - start, C.record_width(self.engine)), dtype=np.int64)
            urec = np.zeros((stop - start, len(setup.units), C.unit_width(self.engine)),
                            dtype=np.int64)  # fmt: skip
            out.append(rec)
            for b in range(b0, b1 + 1):
                lo, hi = max(start, b * block), min(stop, (b + 1) * block)
                rows = slice(lo - start, hi - start)
                pieces.append((setup, states[b - b0], lo, hi - lo, rec[rows], urec[rows]))

        def play(piece: tuple[Any, ...]) -> None:
            setup, state, first, count, rec, urec = piece
            self.engine.run_block(setup.arrays, state, first, count, rec, urec, False, None)
            if self.progress is not None:
                self.progress(count)

        workers = self.threads if self.threads is not None else default_threads()
        if workers <= 1 or len(pieces) == 1:
            for piece in pieces:
                play(piece)
        else:
            with ThreadPoolExecutor(max_workers=min(workers, len(pieces))) as pool:
                list(pool.map(play, pieces))
        self.spent += len(jobs) * (stop - start)
        return [SCORE_OF_WINNER[rec[:, C.R_WINNER]] for rec in out]
