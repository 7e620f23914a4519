"""A stand-in match engine with the contract of ``metric: matches`` (see MatchEngine).

List A wins a "match" with probability points(A) / (points(A) + points(B)) (a
die with that many faces), the first activator gets one extra face; a tie
face is a draw.  With ``options: {cheap_wins: 1}`` the cheaper list is the
favourite instead: A wins with probability points(B) / (points(A) + points(B))
and never draws (a fair-cost search then has the exact root points(A) =
points(B)).  Enough to check the plug-in without the real engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.dice.random_nb import roll_die
from analyzer.dice.simulate import trial_kernel

POLICIES = ("random", "greedy")


@trial_kernel
def match_trial(state, p):  # pragma: no cover - numba
    a, b, a_first, bonus = p[0], p[1], p[2], p[3]
    if p[4] == 1:
        return 1 if roll_die(state, a + b) <= b else 2
    extra = 1 if a_first == 1 else 0
    face = roll_die(state, a + b + extra + 1)
    if face <= a + extra + bonus:
        return 1
    if face <= a + b + extra:
        return 2
    return 0


@dataclass
class Model:
    points_a: int
    points_b: int
    bonus: int
    cheap_wins: int = 0
    trial: Any = match_trial
    n_outcomes: int = 3
    winner_stride: int = 1

    def params(self, a_first: bool) -> np.ndarray:
        return np.array(
            [self.points_a, self.points_b, int(a_first), self.bonus, self.cheap_wins],
            dtype=np.int64,
        )


def _points(cards: dict[str, Any], army: Any) -> int:
    return sum(cards[e.unit].points * e.count for e in army.units)


def match_model(cards, list_a, list_b, policies, options) -> Model:
    bonus = 3 if policies.get("a") == "greedy" else 0
    return Model(
        _points(cards, list_a),
        _points(cards, list_b),
        bonus + options.get("bonus", 0),
        options.get("cheap_wins", 0),
    )
