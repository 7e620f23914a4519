"""A stand-in match engine with planted unit values, for the builder and the balance.

Every card has a hidden value (:data:`VALUES`, invented).  With ``mode: 0`` list A wins
with probability V(A) / (V(A) + V(B)), V the sum of the values of its units (the best
list is the knapsack optimum of the values); with ``mode: 1`` the value is weighed
against the cost, A wins with probability r(A) / (r(A) + r(B)), r = V / points, so
every list scores 1/2 against every other exactly when each card costs a fixed multiple
of its value (the planted fair costs).  Never a draw.  Registered as the d20 engine
with :func:`plug_in`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numba import njit

from analyzer.analysis.duel import integer
from analyzer.dice.random_nb import roll_die
from analyzer.match import contract as C
from analyzer.match.seeding_nb import seed_match
from tests.experiments import fake_match

BLOCK = 256
#: Hidden values of the d20 sample cards (stand-in data).
VALUES = {"Chronos SU": 40, "Genetic SU": 24, "Telepath": 20, "Telekinesist": 18,
          "Maïnomaï": 60, "Avatara Hallucination": 30, "Trooper": 12, "Brute": 26}  # fmt: skip


@njit(cache=True, nogil=True)
def _run(p, state, first, count, rec):  # pragma: no cover - numba
    rng = np.zeros(6, dtype=np.uint64)
    va, vb, ca, cb, mode = p[0], p[1], p[2], p[3], p[4]
    wa, wb = (va, vb) if mode == 0 else (va * cb, vb * ca)
    for i in range(count):
        k = first + i
        seed_match(rng, state, k % BLOCK)
        rec[i, C.R_WINNER] = 1 if roll_die(rng, wa + wb) <= wa else 2
        rec[i, C.R_FIRST] = k % 2
        rec[i, C.R_ROUNDS] = 1
        rec[i, C.R_ACTIVATIONS] = 1


def value(army: Any) -> int:
    return sum(VALUES[e.unit] * e.count for e in army.units)


def cost(cards: Any, army: Any) -> int:
    return sum(cards[e.unit].points * e.count for e in army.units)


class StandIn(fake_match.FakeEngine):
    option_kinds: ClassVar[dict[str, Any]] = {
        **fake_match.FakeEngine.option_kinds, "mode": integer(0, 1)}  # fmt: skip
    option_help: ClassVar[dict[str, str]] = {
        **fake_match.FakeEngine.option_help, "mode": "0: values; 1: value per point"}  # fmt: skip
    match_block = BLOCK

    def prepare(self, cards, lists, *, policies, options, scenario=None, first_side=None):
        a, b = lists
        p = np.array([value(a), value(b), cost(cards, a), cost(cards, b),
                      options.get("mode", 0)], dtype=np.int64)  # fmt: skip
        units = [C.UnitInfo(s, e.unit, "SU", cards[e.unit].points)
                 for s, army in enumerate(lists) for e in army.units]  # fmt: skip
        return C.Setup("d20", (p,), units, (a.name, b.name), (cost(cards, a), cost(cards, b)),
                       policies, dict(options), "none")  # fmt: skip

    def run_block(self, arrays, state, first, count, rec, urec, check, events) -> int:
        _run(arrays[0], state, first, count, rec)
        return 0


ENGINE = StandIn()


def plug_in(monkeypatch: Any) -> None:
    """Make this stand-in the d20 match engine for one test."""
    from analyzer.games import MATCH_ENGINES

    monkeypatch.setitem(MATCH_ENGINES, "d20", __name__)
