"""``analyzer compare``: a round robin of army lists, win-rate matrix and ratings.

Every pair of lists plays ``matches`` AI-vs-AI matches (the system's match
engine; first activation as the engine's options say).  The report holds the
win rate of each row list against each column list with its 95% Wilson
interval (draws count as half a win), Bradley-Terry ratings with standard
errors (also on the Elo scale, 400 / ln 10 per unit of log-odds) and the
first-activation advantage over all matches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import InputError
from analyzer.games import system_module
from analyzer.stats import Z95, bradley_terry, wilson_interval

ELO_PER_LOGIT = 400 / math.log(10)


@dataclass
class Comparison:
    names: list[str]
    wins: np.ndarray  # wins[i, j]: matches list i won against list j
    draws: np.ndarray
    strength: np.ndarray
    strength_se: np.ndarray
    first_player_wins: int
    decided: int
    matches: int
    seed: int
    policy: str

    def score(self, i: int, j: int) -> tuple[float, float, float]:
        """Win rate of list i against j (draws half) and its 95% Wilson interval."""
        n = self.wins[i, j] + self.wins[j, i] + self.draws[i, j]
        points = self.wins[i, j] + 0.5 * self.draws[i, j]
        lo, hi = wilson_interval(float(points), int(n))
        return points / n, lo, hi

    def to_dict(self) -> dict[str, Any]:
        k = len(self.names)
        lo, hi = wilson_interval(self.first_player_wins, self.decided)
        return {
            "lists": self.names,
            "matches_per_pair": self.matches,
            "seed": self.seed,
            "policy": self.policy,
            "win_rate": [
                [None if i == j else dict(zip(("rate", "ci_low", "ci_high"), self.score(i, j)))
                 for j in range(k)]
                for i in range(k)
            ],
            "ratings": [
                {"list": name, "strength": float(s), "se": float(se),
                 "elo": float(s * ELO_PER_LOGIT), "elo_ci95": float(Z95 * se * ELO_PER_LOGIT)}
                for name, s, se in zip(self.names, self.strength, self.strength_se)
            ],
            "first_activation": {
                "wins": self.first_player_wins, "decided": self.decided,
                "rate": self.first_player_wins / self.decided if self.decided else None,
                "ci95": [lo, hi],
            },
        }  # fmt: skip


def _pair_seed(seed: int, pair: int) -> int:
    """An independent seed for each pairing, derived from the run's seed."""
    return int(np.random.SeedSequence(seed, spawn_key=(pair,)).generate_state(1)[0])


def compare_lists(
    system: str,
    lists: list[str | Path],
    matches: int,
    seed: int,
    units: str | Path | None = None,
    policy: str = "greedy",
) -> Comparison:
    """Round robin of ``lists`` (at least two) under the system's match engine."""
    if len(lists) < 2:
        raise InputError("compare needs at least two army lists")
    try:
        engine = system_module(system, "match")
    except ModuleNotFoundError:
        raise InputError(f"{system}: no match engine yet (available: rapture)") from None
    k = len(lists)
    wins = np.zeros((k, k))
    draws = np.zeros((k, k))
    first_wins = decided = 0
    pair = 0
    for i in range(k):
        for j in range(i + 1, k):
            options = engine.MatchOptions(policy_a=policy, policy_b=policy)
            result = engine.play_matches(
                lists[i], lists[j], units=units, matches=matches, seed=_pair_seed(seed, pair),
                options=options,
            )  # fmt: skip
            wins[i, j], wins[j, i] = result.a_wins.count, result.b_wins.count
            draws[i, j] = draws[j, i] = result.draws.count
            first_wins += result.first_player_wins.count
            decided += result.first_player_wins.n
            pair += 1
    strength, se = bradley_terry(wins, draws)
    names = [Path(p).stem for p in lists]
    return Comparison(names, wins, draws, strength, se, first_wins, decided, matches, seed, policy)


def comparison_table(result: Comparison) -> str:
    """Readable win-rate matrix, ratings and first-activation advantage."""
    from analyzer.reporting.tables import render_rows

    k = len(result.names)
    rows = []
    for i in range(k):
        cells = [result.names[i]]
        for j in range(k):
            if i == j:
                cells.append("-")
            else:
                rate, lo, hi = result.score(i, j)
                cells.append(f"{rate:.3f} [{lo:.3f}, {hi:.3f}]")
        rows.append(cells)
    matrix = render_rows(["row vs column", *result.names], rows)
    order = np.argsort(-result.strength)
    ratings = render_rows(
        ["list", "Bradley-Terry", "Elo", "±95%"],
        [[result.names[i], f"{result.strength[i]:+.3f} ± {Z95 * result.strength_se[i]:.3f}",
          f"{result.strength[i] * ELO_PER_LOGIT:+.0f}",
          f"{Z95 * result.strength_se[i] * ELO_PER_LOGIT:.0f}"] for i in order],
    )  # fmt: skip
    first = result.to_dict()["first_activation"]
    lo, hi = first["ci95"]
    rate = first["rate"] if first["rate"] is not None else float("nan")
    return (
        f"round robin: {result.matches:,} matches per pair, policy {result.policy}, "
        f"seed {result.seed}\n{matrix}\n\n{ratings}\n\nfirst activation wins "
        f"{rate:.3f} [{lo:.3f}, {hi:.3f}] of {first['decided']:,} decided matches"
    )
