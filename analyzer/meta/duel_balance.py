"""``analyzer balance --criterion duels``: costs at which every unit's value per point is fair.

Value per point as ``analyzer value`` computes it (:mod:`analyzer.analysis.value`): unit
``u``'s value index is ``idx_u = mean_{v in opp(u)} s(u, v) c_v`` (``s`` the duel score,
wins + draws/2; ``opp(u)`` the field, by default every other card) and its value per
point ``vpp_u = idx_u / c_u``.  Every unit is fair when all ``vpp_u`` are equal:
``A c = lambda c`` with ``A[u, v] = s(u, v) / |opp(u)|``, the Perron vector of ``A``
(a positive matrix: one root up to the scale).  Cards without a cost (Rapture's "Ø")
are opponents only.

No system's duel reads a point cost, so the duels are played once, on ``value``'s
seeds (the same duels as ``analyzer value --seed``), and every cost table is scored on
them: common random numbers at no extra cost.

Damped fixed point: ``log c_u += damping * log(vpp_u / m)``, ``m`` the median value per
point (``value``'s fair-cost reference), the total of the priced costs kept, every cost
within ``current / max_factor .. current * max_factor``, iterated to convergence; the
costs are then rounded to the point granularity.  With ``fewest_changes`` only the ``n``
largest misfits ``|log(vpp_u / m)|`` (at the current costs) move, ``n = 1, 2, ...`` until
every unit's ``|vpp_u / m - 1|`` is within ``tolerance`` after rounding (no rescaling:
the unchanged cards fix the scale).  The 95% interval of a cost: 2.5..97.5% of the
unrounded roots over resamples of the duel scores (each duel's score drawn from a normal
of its Monte Carlo SE; ``s(v, u) = 1 - s(u, v)`` kept).  Validation: the duels replayed
on fresh seeds (seed + 1), current and proposed costs scored on them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analyzer.analysis.value import FIELD
from analyzer.errors import InputError
from analyzer.meta.balance import round_to

#: Largest step of the fixed point, and its convergence threshold (in log cost).
MAX_STEPS = 10_000
CONVERGED = 1e-10


@dataclass
class DuelField:
    """Every priced unit's duel scores against its opponents (cost independent)."""

    units: list[str]
    costs: np.ndarray  # current costs of ``units``
    scores: np.ndarray  # scores[u, v]: duel score of units[u] against units[v] (0 elsewhere)
    se: np.ndarray
    opponents: np.ndarray  # |opp(u)|, the cost-free opponents counted

    @classmethod
    def from_value_table(cls, table: pd.DataFrame, cards: Mapping[str, Any]) -> DuelField:
        """The ``duel_score`` rows of :func:`analyzer.analysis.value.value_table`."""
        if table.empty:  # no unit with a cost
            table = pd.DataFrame(columns=["unit", "opponent", "metric", "estimate", "se"])
        rows = table[(table["metric"] == "duel_score") & (table["opponent"] != FIELD)]
        units = sorted({str(u) for u in rows["unit"]})
        if len(units) < 2:
            raise InputError("balance --criterion duels needs at least two units with a cost")
        index = {u: i for i, u in enumerate(units)}
        n = len(units)
        scores, se, count = np.zeros((n, n)), np.zeros((n, n)), np.zeros(n)
        for r in rows.itertuples(index=False):
            u = index[str(r.unit)]
            count[u] += 1
            if str(r.opponent) in index:  # a cost-free opponent adds nothing to the index
                scores[u, index[str(r.opponent)]] = float(r.estimate)  # type: ignore[arg-type]
                se[u, index[str(r.opponent)]] = float(r.se)  # type: ignore[arg-type]
        costs = np.array([float(cards[u].points) for u in units])
        return cls(units, costs, scores, se, count)

    def matrix(self, scores: np.ndarray | None = None) -> np.ndarray:
        """``A[u, v] = s(u, v) / |opp(u)|``: ``A @ c`` is the value index."""
        return (self.scores if scores is None else scores) / self.opponents[:, None]

    def resample(self, rng: np.random.Generator) -> np.ndarray:
        """Scores with each duel redrawn from its normal (one draw serves both sides)."""
        z = np.triu(rng.standard_normal(self.scores.shape), 1)
        z = z - z.T
        return np.clip(self.scores + self.se * z, 0.0, 1.0) * (self.se > 0) + self.scores * (
            self.se == 0
        )


def duel_field(system: str, cards: Mapping[str, Any], field: Sequence[str] | None, trials: int,
               seed: int, options: Any, rule_options: Mapping[str, Any] | None,
               progress: Callable[[int, int, str], None] | None = None) -> DuelField:  # fmt: skip
    """``analyzer value``'s duels (same seeds) as a :class:`DuelField`."""
    from analyzer.analysis.value import value_table

    table = value_table(system, dict(cards), field, trials, seed, options, progress, rule_options)
    return DuelField.from_value_table(table, cards)


@dataclass
class Fairness:
    """Value per point of every unit under one cost table."""

    costs: np.ndarray
    vpp: np.ndarray

    @property
    def relative(self) -> np.ndarray:
        """``vpp_u / median - 1`` (0: the unit is fairly priced)."""
        return self.vpp / float(np.median(self.vpp)) - 1.0

    @property
    def worst(self) -> float:
        """Largest relative misfit ``max |vpp_u / median - 1|``."""
        return float(np.max(np.abs(self.relative)))

    @property
    def spread(self) -> float:
        """Coefficient of variation of the value per point (SD / mean)."""
        return float(np.std(self.vpp) / np.mean(self.vpp))


def fairness(matrix: np.ndarray, costs: np.ndarray) -> Fairness:
    """Value per point of ``costs`` on the duel matrix."""
    return Fairness(costs, (matrix @ costs) / costs)


def fixed_point(matrix: np.ndarray, start: np.ndarray, free: np.ndarray, *, rescale: bool,
                damping: float, max_factor: float) -> np.ndarray:  # fmt: skip
    """Damped iteration of the ``free`` costs (boolean mask) to convergence, unrounded."""
    log_c, low, high = np.log(start), np.log(start / max_factor), np.log(start * max_factor)
    total = float(start[free].sum())
    for _ in range(MAX_STEPS):
        c = np.exp(log_c)
        vpp = np.maximum((matrix @ c) / c, 1e-12)  # a unit that never scores: at its bound
        step = np.where(free, damping * np.log(vpp / np.median(vpp)), 0.0)
        new = log_c + step
        if rescale:
            new[free] += math.log(total / float(np.exp(new[free]).sum()))
        new = np.clip(new, low, high)
        done = float(np.max(np.abs(new - log_c))) < CONVERGED
        log_c = new
        if done:
            break
    return np.exp(log_c)


def _rounded(costs: np.ndarray, start: np.ndarray, free: np.ndarray, granularity: int
             ) -> np.ndarray:  # fmt: skip
    return np.array([float(round_to(c, granularity)) if f else s
                     for c, s, f in zip(costs, start, free)])  # fmt: skip


@dataclass
class DuelBalance:
    """The proposed costs, their intervals and the validation."""

    field: DuelField
    current: Fairness
    proposed: Fairness
    root: np.ndarray  # unrounded fixed point
    ci: np.ndarray  # (2, units): 2.5% and 97.5% of the resampled roots
    validation_current: Fairness
    validation: Fairness
    free: list[str]
    granularity: int
    max_factor: float

    def cost_table(self) -> pd.DataFrame:
        f = self.field
        return pd.DataFrame({
            "unit": f.units, "current_cost": f.costs.astype(int),
            "proposed_cost": self.proposed.costs.astype(int),
            "change": (self.proposed.costs - f.costs).astype(int), "fair_cost": self.root,
            "ci_low": self.ci[0], "ci_high": self.ci[1],
            "vpp_current": self.current.vpp, "vpp_proposed": self.proposed.vpp,
            "misfit_current": self.current.relative, "misfit_proposed": self.proposed.relative,
            "validation_vpp_current": self.validation_current.vpp,
            "validation_vpp_proposed": self.validation.vpp,
            "free": [u in self.free for u in f.units], "at_bound": self.at_bound(),
        })  # fmt: skip

    def at_bound(self) -> np.ndarray:
        """Units whose root sits at ``current / max_factor`` or ``current * max_factor``."""
        ratio = np.abs(np.log(self.root / self.field.costs))
        return np.isclose(ratio, math.log(self.max_factor), rtol=0, atol=1e-6)

    def summary(self) -> dict[str, Any]:
        named = (("current", self.current), ("proposed", self.proposed),
                 ("validation_current", self.validation_current),
                 ("validation_proposed", self.validation))  # fmt: skip
        return {"spread": {k: e.spread for k, e in named},
                "worst": {k: e.worst for k, e in named}, "free": self.free}  # fmt: skip


def balance_duels(
    fld: DuelField,
    validation: DuelField,
    *,
    damping: float = 0.5,
    granularity: int = 1,
    fewest_changes: bool = False,
    tolerance: float = 0.05,
    max_factor: float = 2.0,
    resamples: int = 1000,
    seed: int = 0,
    status: Callable[[str], None] | None = None,
) -> DuelBalance:
    """Joint costs at which every unit's value per point is fair (module docstring)."""
    if not 0 < damping <= 1:
        raise InputError(f"--damping must be in (0, 1] for duels (got {damping})")
    if max_factor <= 1:
        raise InputError(f"--max-factor must be > 1 (got {max_factor})")
    if validation.units != fld.units:
        raise InputError("the validation duels hold other units")
    matrix, start = fld.matrix(), fld.costs
    current = fairness(matrix, start)
    if fewest_changes:
        order = np.argsort(-np.abs(np.log1p(current.relative)), kind="stable")
        sizes: Sequence[int] = range(1, len(order) + 1)
    else:
        order, sizes = np.arange(len(start)), [len(start)]
    for n in sizes:
        free = np.zeros(len(start), dtype=bool)
        free[order[:n]] = True
        root = fixed_point(matrix, start, free, rescale=not fewest_changes, damping=damping,
                           max_factor=max_factor)  # fmt: skip
        proposed = fairness(matrix, _rounded(root, start, free, granularity))
        if status:
            status(f"{n} unit(s) free: largest misfit {proposed.worst:.1%}")
        if not fewest_changes or proposed.worst <= tolerance:
            break
    rng = np.random.default_rng(seed)
    roots = np.array([
        fixed_point(fld.matrix(fld.resample(rng)), start, free, rescale=not fewest_changes,
                    damping=damping, max_factor=max_factor)
        for _ in range(resamples)
    ])  # fmt: skip
    ci = np.quantile(roots, [0.025, 0.975], axis=0) if resamples else np.vstack([root, root])
    check = validation.matrix()
    return DuelBalance(
        fld, current, proposed, root, ci, fairness(check, start),
        fairness(check, proposed.costs), [u for u, f in zip(fld.units, free) if f], granularity,
        max_factor,
    )  # fmt: skip
