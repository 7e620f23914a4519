"""``analyzer balance``: all point costs at once, so that every list of a field is fair.

``fair-cost`` prices one unit against a fixed field; here every priced unit moves at
once.  Criterion (matches): each list of the field plays every other (one pairing per
pair, the first list as side A, on common random numbers: a pairing's seed never
changes, so a change of score is the costs' doing, not the dice's); list ``L``'s score
``s_L`` is its mean score (wins + draws/2) over its pairings, and it is fair at 1/2.
A unit's misfit ``g_u`` is the mean of ``s_L - 1/2`` over the lists holding it,
weighted by the share of the list's points it makes up.

Damped fixed point: ``log c_u <- log c_u + damping * 4 * g_u`` (4 is the slope of the
logit at 1/2: a list at 0.6 has log-odds 0.4), the total cost of the priced units kept
constant (the scale of points is a convention), every cost rounded to the system's
point granularity before it is played (a table played before is not replayed: on
common random numbers it scores the same); after ``iterations`` steps the table with
the smallest largest misfit ``max_L |s_L - 1/2|`` wins.  With ``fewest_changes`` only
the ``n`` largest misfits (at the current costs) may change, ``n = 1, 2, ...`` until
the largest misfit is within ``tolerance`` (no rescaling then: the unchanged cards fix the scale).

The lists are held fixed (not rebuilt under the new costs): the field is the designer's
set of lists, and a list that goes over its cap is kept.  Every cost stays within
``current / max_factor .. current * max_factor`` (default 2): in a game where a cost
only enters through victory points and the AI's targeting, an unbounded fixed point can
pour the whole roster's points into one card.  The 95% interval of a proposed cost is
linearised: the fair cost one undamped step from the proposal estimates, with the
unit's residual misfit at either end of its 95% interval (``1.96 SE`` of the weighted
mean of list scores); where the proposal sits at a bound, the interval may exclude it.
A validation run replays the proposed costs on fresh seeds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import InputError
from analyzer.experiments.variations import set_stat
from analyzer.meta.arena import Arena, pairing_seed
from analyzer.meta.build import card_points
from analyzer.stats import Z95

#: Slope of the logit at 1/2 (log-odds per unit of score).
LOGIT_SLOPE = 4.0


@dataclass
class Evaluation:
    """The field under one cost table: each list's score and its standard error."""

    costs: dict[str, int]
    scores: np.ndarray
    se: np.ndarray

    @property
    def worst(self) -> float:
        """Largest misfit of a list, ``max |s_L - 1/2|``."""
        return float(np.max(np.abs(self.scores - 0.5)))

    @property
    def spread(self) -> float:
        """Standard deviation of the list scores (0: every list equally strong)."""
        return float(np.std(self.scores))


class Field:
    """A fixed field of lists played round robin under any cost table."""

    def __init__(self, arena: Arena, cards: Mapping[str, Any], lists: Sequence[Any],
                 matches: int, seed: int):  # fmt: skip
        if len(lists) < 2:
            raise InputError("balance needs at least two army lists")
        self.arena, self.cards, self.lists = arena, dict(cards), list(lists)
        self.matches, self.seed = matches, seed
        self.pairs = [(i, j) for i in range(len(lists)) for j in range(i + 1, len(lists))]
        held = {e.unit for army in lists for e in army.units}
        self.units = sorted(u for u in card_points(cards) if u in held)

    def share(self, costs: Mapping[str, int]) -> np.ndarray:
        """``share[u, L]``: the part of list ``L``'s points that unit ``u`` makes up."""
        out = np.zeros((len(self.units), len(self.lists)))
        for li, army in enumerate(self.lists):
            total = sum(costs.get(e.unit, 0) * e.count for e in army.units) or 1
            for e in army.units:
                if e.unit in self.units:
                    out[self.units.index(e.unit), li] += costs[e.unit] * e.count / total
        return out

    def evaluate(self, costs: Mapping[str, int], seed: int | None = None) -> Evaluation:
        """Every pairing under ``costs`` (same seeds for every table unless ``seed``)."""
        cards = {n: set_stat(c, "points", costs[n]) if n in costs else c
                 for n, c in self.cards.items()}  # fmt: skip
        base = self.seed if seed is None else seed
        jobs = [(self.arena.setup(cards, self.lists[i], self.lists[j]), pairing_seed(base, p))
                for p, (i, j) in enumerate(self.pairs)]  # fmt: skip
        played = self.arena.scores(jobs, 0, self.matches)
        k = len(self.lists)
        total, var = np.zeros(k), np.zeros(k)
        for (i, j), s in zip(self.pairs, played):
            m, v = float(s.mean()), float(s.var(ddof=1)) / len(s) if len(s) > 1 else 0.25
            total[i] += m
            total[j] += 1 - m
            var[i] += v
            var[j] += v
        return Evaluation(dict(costs), total / (k - 1), np.sqrt(var) / (k - 1))

    def misfit(self, ev: Evaluation) -> tuple[np.ndarray, np.ndarray]:
        """Each unit's weighted mean of ``s_L - 1/2`` over its lists, and its SE."""
        w = self.share(ev.costs)
        w = w / w.sum(axis=1, keepdims=True)
        return w @ (ev.scores - 0.5), np.sqrt((w**2) @ (ev.se**2))


def round_to(value: float, granularity: int) -> int:
    """``value`` rounded to a multiple of ``granularity`` (at least one step)."""
    return max(granularity, round(value / granularity) * granularity)


@dataclass
class BalanceResult:
    """The proposed costs, the search and the validation."""

    units: list[str]
    current: Evaluation
    proposed: Evaluation
    validation: Evaluation
    validation_current: Evaluation
    gaps: np.ndarray
    gap_se: np.ndarray
    damping: float
    granularity: int
    history: list[Evaluation] = field(default_factory=list)
    free: list[str] = field(default_factory=list)
    matches: int = 0
    names: list[str] = field(default_factory=list)

    def cost_table(self) -> pd.DataFrame:
        rows = []
        for u, gap, se in zip(self.units, self.gaps, self.gap_se):
            c = self.proposed.costs[u]
            lo = c * math.exp(LOGIT_SLOPE * (gap - Z95 * se))
            hi = c * math.exp(LOGIT_SLOPE * (gap + Z95 * se))
            rows.append({
                "unit": u, "current_cost": self.current.costs[u], "proposed_cost": c,
                "change": c - self.current.costs[u], "ci_low": lo, "ci_high": hi,
                "misfit_now": gap, "misfit_se": se, "free": u in self.free,
            })  # fmt: skip
        return pd.DataFrame(rows)

    def list_table(self) -> pd.DataFrame:
        return pd.DataFrame({
            "list": self.names,
            "score_current": self.current.scores, "score_proposed": self.proposed.scores,
            "validation_current": self.validation_current.scores,
            "validation_proposed": self.validation.scores,
            "validation_se": self.validation.se,
        })  # fmt: skip

    def history_table(self) -> pd.DataFrame:
        return pd.DataFrame([{"iteration": i, "worst_misfit": e.worst, "spread": e.spread,
                              **{f"cost {u}": e.costs[u] for u in self.units}}
                             for i, e in enumerate(self.history)])  # fmt: skip


def balance(
    fld: Field,
    *,
    damping: float = 0.5,
    iterations: int = 20,
    granularity: int = 1,
    fewest_changes: bool = False,
    tolerance: float = 0.05,
    max_factor: float = 2.0,
    validation_seed: int | None = None,
    status: Callable[[str], None] | None = None,
) -> BalanceResult:
    """Joint costs of the field's units (see the module docstring)."""
    if not 0 < damping <= 2:
        raise InputError(f"--damping must be in (0, 2] (got {damping})")
    if max_factor <= 1:
        raise InputError(f"--max-factor must be > 1 (got {max_factor})")
    current = {u: int(fld.cards[u].points) for u in fld.units}
    start = fld.evaluate(current)
    gaps, _ = fld.misfit(start)
    history = [start]
    if fewest_changes:
        order = [fld.units[i] for i in np.argsort(-np.abs(gaps), kind="stable")]
        best = start
        free: list[str] = []
        for n in range(1, len(order) + 1):
            free = order[:n]
            best = _fixed_point(fld, start, free, False, damping, iterations, granularity,
                                max_factor, history, status)  # fmt: skip
            if best.worst <= tolerance:
                break
    else:
        free = list(fld.units)
        best = _fixed_point(fld, start, free, True, damping, iterations, granularity,
                            max_factor, history, status)  # fmt: skip
    final_gaps, final_se = fld.misfit(best)
    vseed = validation_seed if validation_seed is not None else fld.seed + 1
    if status:
        status("validation on fresh seeds")
    return BalanceResult(
        units=fld.units, current=start, proposed=best,
        validation=fld.evaluate(best.costs, vseed),
        validation_current=fld.evaluate(current, vseed), gaps=final_gaps, gap_se=final_se,
        damping=damping, granularity=granularity, history=history, free=free,
        matches=fld.arena.spent, names=[getattr(a, "name", str(i)) for i, a in
                                        enumerate(fld.lists)],
    )  # fmt: skip


def _fixed_point(fld: Field, start: Evaluation, free: list[str], rescale: bool,
                 damping: float, iterations: int, granularity: int, max_factor: float,
                 history: list[Evaluation],
                 status: Callable[[str], None] | None) -> Evaluation:  # fmt: skip
    """Damped iteration of the free units' costs from ``start``; the best iterate."""
    log_c = {u: math.log(c) for u, c in start.costs.items()}
    total = sum(start.costs[u] for u in free)
    ev, best = start, start
    known = {tuple(sorted(start.costs.items())): start}
    for it in range(iterations):
        gaps, _ = fld.misfit(ev)
        for u, g in zip(fld.units, gaps):
            if u in free:
                log_c[u] += damping * LOGIT_SLOPE * g
        raw = {u: math.exp(v) for u, v in log_c.items()}
        if rescale:
            scale = total / sum(raw[u] for u in free)
            raw = {u: v * scale if u in free else v for u, v in raw.items()}
        low, high = math.log(max_factor), math.log(max_factor)
        raw = {u: min(max(v, start.costs[u] * math.exp(-low)), start.costs[u] * math.exp(high))
               for u, v in raw.items()}  # fmt: skip
        log_c = {u: math.log(v) for u, v in raw.items()}
        costs = {u: round_to(raw[u], granularity) if u in free else start.costs[u]
                 for u in fld.units}  # fmt: skip
        key = tuple(sorted(costs.items()))
        if key not in known:  # a table played before is the same on common random numbers
            known[key] = fld.evaluate(costs)
            history.append(known[key])
        ev = known[key]
        if status:
            status(f"iteration {it + 1}: largest misfit {ev.worst:.3f}")
        if ev.worst < best.worst:
            best = ev
    return best
