"""From stored blocks to tables: results, paired differences, the monotonicity check.

* :func:`results_table`: the tidy table, one row per cell and quantity, with
  the cell's parameters, ``n`` (trials per task), ``blocks``, ``trials``
  (all tasks), the estimate, its SE and 95% CI, the exact value where the
  system has one, whether a precision target was met, the seed and provenance
  (versions, rules hash, spec hash, cell hash).
* :func:`differences_table`: every cell minus the baseline cell.  Cells share
  their per-block seeds (common random numbers), so the difference is
  *paired*: its SE is the delete-one-block jackknife over the blocks both
  cells have (blocks are independent replicates; for a quantity linear in the
  counts this is the batch-means SE), with a Student-t CI.  The unpaired SE
  (as if the cells were independent, on the same blocks) is shown beside it.
* :func:`monotonicity_table`: for every step along an axis marked ``step:
  buff`` / ``nerf``, the paired change of the headline quantity, oriented so
  that a pure buff should not make it negative; a step is flagged when it is
  negative beyond noise (one-sided t test at level ``alpha``, Bonferroni over
  all the steps checked).  A step whose two cells are identical in every block
  (the change did not matter) has difference 0 and is never flagged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analyzer.experiments.metrics import CellPlan, Estimate
from analyzer.experiments.runner import SweepRun
from analyzer.provenance import versions
from analyzer.stats import Z95


def _t_quantile(p: float, df: int) -> float:
    from scipy import stats

    return float(stats.t.ppf(p, df)) if df > 0 else math.inf


def _estimates(plan: CellPlan, counts: Sequence[np.ndarray], blocks: int) -> dict[str, Estimate]:
    return plan.estimate([c[:blocks].sum(axis=0) for c in counts])


def results_table(run: SweepRun) -> pd.DataFrame:
    """The tidy results table (see the module docstring)."""
    plan = run.plan
    rows: list[dict[str, Any]] = []
    provenance = versions()
    for cell in plan.cells:
        counts = run.counts(cell.index)
        blocks = run.targets[cell.index]
        estimates = _estimates(cell.plan, counts, blocks)
        exact = cell.plan.exact() if plan.spec.exact else None
        n = blocks * plan.block_size
        for quantity in plan.metric.quantities:
            est = estimates[quantity]
            rows.append(
                {
                    "sweep": plan.name,
                    "system": plan.system,
                    "metric": plan.metric.kind,
                    "cell": cell.index,
                    **cell.params,
                    "quantity": quantity,
                    "n": n,
                    "blocks": blocks,
                    "trials": n * len(cell.plan.tasks),
                    "estimate": est.estimate,
                    "se": est.se,
                    "ci_low": est.estimate - Z95 * est.se,
                    "ci_high": est.estimate + Z95 * est.se,
                    "exact": (exact or {}).get(quantity, math.nan),
                    "target_met": run.target_met[cell.index],
                    "seed": plan.seed,
                    "block_size": plan.block_size,
                    "cell_hash": cell.key,
                    "spec_hash": plan.spec_hash,
                    "rules_hash": plan.rules_hash,
                    **provenance,
                }
            )
    table = pd.DataFrame(rows)
    table["exact"] = table["exact"].astype(float)
    table["target_met"] = table["target_met"].astype("boolean")
    return table


def paired_difference(
    plan_a: CellPlan,
    counts_a: Sequence[np.ndarray],
    plan_b: CellPlan,
    counts_b: Sequence[np.ndarray],
    blocks: int,
) -> dict[str, tuple[float, float]]:
    """Per quantity: (A - B, jackknife SE) over blocks ``0 .. blocks - 1`` of both cells."""
    ca = [c[:blocks] for c in counts_a]
    cb = [c[:blocks] for c in counts_b]
    ta = [c.sum(axis=0) for c in ca]
    tb = [c.sum(axis=0) for c in cb]
    full_a, full_b = plan_a.estimate(ta), plan_b.estimate(tb)
    out: dict[str, tuple[float, float]] = {}
    leave_out: list[dict[str, float]] = []
    for b in range(blocks):
        ea = plan_a.estimate([t - c[b] for t, c in zip(ta, ca)])
        eb = plan_b.estimate([t - c[b] for t, c in zip(tb, cb)])
        leave_out.append({q: ea[q].estimate - eb[q].estimate for q in ea})
    for q in full_a:
        diff = full_a[q].estimate - full_b[q].estimate
        if blocks < 2:
            out[q] = (diff, math.nan)
            continue
        d = np.array([row[q] for row in leave_out])
        if np.isnan(d).any() or math.isnan(diff):
            out[q] = (diff, math.nan)
            continue
        se = math.sqrt((blocks - 1) / blocks * float(((d - d.mean()) ** 2).sum()))
        out[q] = (diff, se)
    return out


def differences_table(run: SweepRun) -> pd.DataFrame:
    """Every cell minus the baseline cell, paired (common random numbers)."""
    plan = run.plan
    base = plan.cells[plan.baseline]
    base_counts = run.counts(base.index)
    rows: list[dict[str, Any]] = []
    for cell in plan.cells:
        counts = run.counts(cell.index)
        blocks = min(run.targets[cell.index], run.targets[base.index])
        own = _estimates(cell.plan, counts, blocks)
        base_est = _estimates(base.plan, base_counts, blocks)
        paired = paired_difference(cell.plan, counts, base.plan, base_counts, blocks)
        t = _t_quantile(0.975, blocks - 1)
        for q in plan.metric.quantities:
            diff, se = paired[q]
            rows.append(
                {
                    "sweep": plan.name,
                    "cell": cell.index,
                    **cell.params,
                    "baseline_cell": base.index,
                    "quantity": q,
                    "blocks": blocks,
                    "difference": diff,
                    "se_paired": se,
                    "ci_low": diff - t * se,
                    "ci_high": diff + t * se,
                    "se_unpaired": math.hypot(own[q].se, base_est[q].se),
                    "seed": plan.seed,
                }
            )
    return pd.DataFrame(rows)


def monotonicity_table(run: SweepRun) -> pd.DataFrame:
    """Steps along buff/nerf axes, the paired change of the headline and the flags."""
    plan = run.plan
    quantity = plan.metric.quantities[0]
    sizes = [len(a.values) for a in plan.axes]
    strides = [int(np.prod(sizes[k + 1 :])) for k in range(len(sizes))]
    steps: list[dict[str, Any]] = []
    for k, axis in enumerate(plan.axes):
        if axis.spec.step is None:
            continue
        sign = 1 if axis.spec.step == "buff" else -1
        for cell in plan.cells:
            position = (cell.index // strides[k]) % sizes[k]
            if position + 1 >= sizes[k]:
                continue
            after = plan.cells[cell.index + strides[k]]
            unit = str(axis.spec.unit)
            orientation = sign * cell.plan.direction(unit)
            if orientation == 0 or orientation != sign * after.plan.direction(unit):
                continue
            blocks = min(run.targets[cell.index], run.targets[after.index])
            diff, se = paired_difference(
                after.plan, run.counts(after.index), cell.plan, run.counts(cell.index), blocks
            )[quantity]
            steps.append(
                {
                    **cell.params,
                    "axis": axis.name,
                    "unit": unit,
                    "step": axis.spec.step,
                    "from": cell.params[axis.name],
                    "to": after.params[axis.name],
                    "cell_from": cell.index,
                    "cell_to": after.index,
                    "quantity": quantity,
                    "blocks": blocks,
                    "change": orientation * diff,
                    "se": se,
                }
            )
    table = pd.DataFrame(steps)
    if table.empty:
        return table
    m = len(table)
    thresholds = [_t_quantile(1 - plan.spec.alpha / m, int(b) - 1) for b in table["blocks"]]
    table["threshold_z"] = thresholds
    z = table["change"] / table["se"].where(table["se"] > 0)
    table["z"] = z
    worse = table["change"] < 0
    table["flagged"] = worse & ((table["se"] == 0) | (z < -table["threshold_z"]))
    return table
