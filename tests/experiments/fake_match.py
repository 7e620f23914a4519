"""A stand-in match engine with the contract of :mod:`analyzer.match.contract`.

List A wins a "match" with probability points(A) / (points(A) + points(B)) (a die with
that many faces), the first player gets one extra face; a tie face is a draw.  With
``options: {cheap_wins: 1}`` the cheaper list is the favourite instead: A wins with
probability points(B) / (points(A) + points(B)) and never draws (a fair-cost search then
has the exact root points(A) = points(B)).  A greedy A gets 3 more faces.  Enough to check
the consumers of matches without a real engine (plug it in with :func:`plug_in`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
from numba import njit

from analyzer.analysis.duel import choice, integer
from analyzer.dice.random_nb import roll_die
from analyzer.games.d20 import units as d20_units
from analyzer.match import contract as C
from analyzer.match.seeding_nb import seed_match
from analyzer.match.sides import ArmyListSides

BLOCK = 256


@njit(cache=True, nogil=True)
def _run(p, state, first, count, rec):  # pragma: no cover - numba
    rng = np.zeros(6, dtype=np.uint64)
    a, b, bonus, cheap, forced = p[0], p[1], p[2], p[3], p[4]
    for i in range(count):
        k = first + i
        seed_match(rng, state, k % BLOCK)
        a_first = (k % 2 == 0) if forced < 0 else forced == 0
        if cheap == 1:
            winner = 1 if roll_die(rng, a + b) <= b else 2
        else:
            extra = 1 if a_first else 0
            face = roll_die(rng, a + b + extra + bonus + 1)
            winner = 1 if face <= a + extra + bonus else (2 if face <= a + b + extra + bonus else 0)
        rec[i, C.R_WINNER] = winner
        rec[i, C.R_FIRST] = 0 if a_first else 1
        rec[i, C.R_ROUNDS] = 1
        rec[i, C.R_ACTIVATIONS] = 1


def _points(cards: Mapping[str, Any], army: Any) -> int:
    return sum(cards[e.unit].points * e.count for e in army.units)


class FakeEngine(ArmyListSides):
    system = "d20"
    policies = ("random", "greedy")
    default_policy = "greedy"
    first_modes = ("rules", "alternate", "a", "b")
    option_kinds: ClassVar[dict[str, Any]] = {
        "first": choice(*first_modes),
        "bonus": integer(0, 10),
        "cheap_wins": integer(0, 1),
    }
    option_help: ClassVar[dict[str, str]] = {
        "first": "who starts",
        "bonus": "extra faces for A",
        "cheap_wins": "the cheaper list is the favourite",
    }
    end_reasons = ("done",)
    score_name = "points"
    damage_name = "hits"
    record_extras: tuple[str, ...] = ()
    unit_extras: tuple[str, ...] = ()
    match_block = BLOCK
    side_kind = "squad list"
    units_module: ClassVar[ModuleType] = d20_units

    def prepare(self, cards, lists, *, policies, options, scenario=None, first_side=None):
        bonus = (3 if policies[0] == "greedy" else 0) + options.get("bonus", 0)
        forced = {"a": 0, "b": 1}.get(options.get("first", "alternate"), -1)
        forced = forced if first_side is None else first_side
        p = np.array([_points(cards, lists[0]), _points(cards, lists[1]), bonus,
                      options.get("cheap_wins", 0), forced], dtype=np.int64)  # fmt: skip
        units = [C.UnitInfo(s, e.unit, "SU", cards[e.unit].points)
                 for s, army in enumerate(lists) for e in army.units]  # fmt: skip
        return C.Setup("d20", (p,), units, (lists[0].name, lists[1].name),
                       (_points(cards, lists[0]), _points(cards, lists[1])), policies,
                       dict(options), "none")  # fmt: skip

    def kernel_sources(self) -> list[Path]:
        return [Path(__file__)]

    def run_block(self, arrays, state, first, count, rec, urec, check, events) -> int:
        _run(arrays[0], state, first, count, rec)
        return 0

    def is_compiled(self) -> bool:
        return True

    def compile_seconds(self) -> tuple[int, int]:
        return (1, 2)

    def trace_buffer(self) -> np.ndarray:
        return np.zeros((1, 1), dtype=np.int64)

    def render_trace(self, setup, events) -> list[str]:
        return []

    def report_extras(self, setup, rec, urec) -> dict[str, Any]:
        return {}

    def render_extras(self, extras) -> list[str]:
        return []


ENGINE = FakeEngine()


def plug_in(monkeypatch: Any) -> None:
    """Make this stand-in the d20 match engine for one test."""
    from analyzer.games import MATCH_ENGINES

    monkeypatch.setitem(MATCH_ENGINES, "d20", __name__)
