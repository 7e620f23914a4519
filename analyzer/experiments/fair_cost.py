"""``analyzer fair-cost``: the points cost at which a unit is exactly as efficient as the field.

Criterion (duel value, as ``analyzer value``): the value per point of the unit
(expected opponent points removed in one-on-one duels against the field, per
own point) equals the *median* value per point of the field's units, each
measured against the rest of the field *and the unit at that cost*.  With
``f(c)`` = unit's value per point minus the field median when the unit costs
``c``, ``f`` decreases in ``c`` (a dearer unit is less efficient, and is a
richer prize for the others), so the fair cost is its root.

Method: bisection over integer costs on common random numbers.  Every cost
is evaluated on the same per-block seeds (the same stored blocks: a cost that
does not enter the duel kernels reuses them outright), so ``f`` is a fixed,
monotone function of the cost and the bisection cannot be misled by noise;
the root between the last two integer costs is interpolated linearly.  The
CI comes from the delete-one-block jackknife of that root (every quantity
recomputed without block ``b``, the root re-interpolated) with a Student-t
quantile.

Criterion (matches, when the field file names army ``lists``): the lists of the
field that hold the unit play those that do not (the unit's list as side A,
``first: alternate`` by default); ``f(c)`` = their mean score (wins + draws/2)
minus 1/2, and the fair cost is where the unit's lists win half their games.
The cost enters the game through victory points ("Victory Points": a disabled
unit is worth its cost) and the AI's targeting; on common random numbers ``f``
is a fixed function of the cost, but the AI's choices make it only roughly
monotone, so the bracket is where it changes sign.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from analyzer import paths
from analyzer.analysis.value import field_lists, load_field
from analyzer.errors import AnalyzerError, InputError, unknown_name
from analyzer.experiments.executor import make_executor
from analyzer.experiments.metrics import (
    CellPlan,
    CellState,
    DuelOptionsSection,
    MatchesMetric,
    MatchesSection,
    SweepContext,
    ValueMetric,
    ValueSection,
)
from analyzer.experiments.runner import BlockProgress, SweepRun, execute
from analyzer.experiments.spec import (
    Cell,
    SweepFile,
    SweepPlan,
    blocks_for,
    code_hash,
    rounding_note,
)
from analyzer.experiments.tasks import digest
from analyzer.experiments.variations import set_stat
from analyzer.games import system_module
from analyzer.outputs import atomic_write, atomic_write_text, writable_dir
from analyzer.provenance import data_hash, versions

MAX_COST = 100_000


@dataclass
class Evaluation:
    """``f`` at one cost (``gap``: the root is the fair cost) and the figures behind it."""

    cost: int
    gap: float
    detail: dict[str, float]
    run: SweepRun
    gap_se: float = math.nan  # delete-one-block jackknife SE of ``gap``


def cost_verdict(current: float, low: float, high: float) -> str:
    """Over- or undercosted when the current cost is outside the fair cost's 95% CI."""
    return "overcosted" if current > high else "undercosted" if current < low else "fair"


@dataclass
class FairCost:
    """The answer, its CI and the evaluations that led to it."""

    system: str
    unit: str
    current_cost: int
    fair_cost: float
    se: float
    ci_low: float
    ci_high: float
    bracket: tuple[int, int]
    evaluations: list[Evaluation]
    trials: int
    blocks: int
    seed: int
    rules_hash: str
    opponents: list[str]
    criterion: str = "value_per_point = field median"
    notes: list[str] = field(default_factory=list)
    field_file: str = ""
    criterion_words: str = ""

    def table(self) -> pd.DataFrame:
        """One tidy row with provenance."""
        return pd.DataFrame(
            [
                {
                    "system": self.system,
                    "unit": self.unit,
                    "criterion": self.criterion,
                    "current_cost": self.current_cost,
                    "fair_cost": self.fair_cost,
                    "se": self.se,
                    "ci_low": self.ci_low,
                    "ci_high": self.ci_high,
                    "bracket_low": self.bracket[0],
                    "bracket_high": self.bracket[1],
                    "n": self.trials,
                    "blocks": self.blocks,
                    "field": "; ".join(self.opponents),
                    "field_file": self.field_file,
                    "criterion_words": self.criterion_words,
                    "seed": self.seed,
                    "rules_hash": self.rules_hash,
                    "notes": "; ".join(self.notes),
                    **versions(),
                }
            ]
        )

    def trace(self) -> pd.DataFrame:
        """Every cost evaluated: the figures of the criterion and the gap."""
        return pd.DataFrame(
            [
                {"cost": e.cost, **e.detail, "gap": e.gap, "gap_se": e.gap_se}
                for e in sorted(self.evaluations, key=lambda e: e.cost)
            ]
        )

    def sentence(self) -> str:
        half = (self.ci_high - self.ci_low) / 2
        verdict = cost_verdict(self.current_cost, self.ci_low, self.ci_high)
        verdict = "fairly costed" if verdict == "fair" else verdict
        return (
            f"{self.unit}: fair cost {self.fair_cost:.1f} +/- {half:.1f} points "
            f"(95% CI {self.ci_low:.1f} to {self.ci_high:.1f}); it costs {self.current_cost} "
            f"now: {verdict} against this field"
        )

    def field_sentence(self) -> str:
        """What the answer is relative to: the field and the criterion, in words."""
        return (
            f"Field: {self.field_file} ({len(self.opponents)} entries: "
            f"{', '.join(self.opponents)}). Criterion: {self.criterion_words}."
        )


class _Criterion:
    """The cells of one cost and the gap ``f`` computed from their runs."""

    criterion: str
    field: list[str]

    def __init__(
        self, system: str, units_path: Path, field_path: Path, unit: str, trials: int,
        seed: int, block_size: int,
    ) -> None:  # fmt: skip
        units = system_module(system, "units")
        self.cards = dict(units.load_units(units_path))
        if unit not in self.cards:
            raise InputError(f"{units_path}: {unknown_name('unit', unit, self.cards)}")
        self.system, self.unit, self.seed = system, unit, seed
        self.block_size = block_size
        self.blocks = blocks_for(trials, block_size)
        self.trials = trials
        #: the trials run differ from the trials asked (whole blocks, at least two)
        self.trials_note = (
            rounding_note(trials, "--trials", self.blocks, block_size)
            if self.blocks * block_size != trials
            else None
        )
        self.ctx = SweepContext(system, self.cards, block_size, lambda t: Path(t), [units_path])
        self.inputs = [units_path, field_path]
        self.code_hash = code_hash(system)

    def finish(self, metric: Any, section: Any, extra_inputs: Sequence[Path] = ()) -> None:
        """Set the metric and the run's identity (spec, hashes) once the field is known."""
        self.metric = metric
        self.inputs = [*self.inputs, *extra_inputs]
        self.rules_hash = data_hash(*self.inputs, system=self.system)
        self.spec = SweepFile(
            name=re.sub(r"[^A-Za-z0-9_.-]+", "-", f"fair-cost-{self.unit}").strip("-"),
            system=self.system,
            units=str(self.inputs[0]),
            metric=section.model_dump(mode="json"),
            trials=self.trials,
            block_size=self.block_size,
            seed=self.seed,
            exact=False,
        )

    def cells(self, cost: int) -> list[tuple[str, CellPlan]]:
        """(label, plan) of every cell at ``cost``."""
        raise NotImplementedError

    def gap(self, run: SweepRun, drop: int | None = None) -> float:
        """``f`` from the run of one cost (without block ``drop``: jackknife)."""
        raise NotImplementedError

    def detail(self, run: SweepRun) -> dict[str, float]:
        """The figures behind the gap (a row of the trace)."""
        raise NotImplementedError

    def max_cost(self, current: int) -> int:
        """Where the upward search for the bracket gives up."""
        return MAX_COST

    def state(self, cost: int) -> CellState:
        state = self.metric.base_state()
        state.cards[self.unit] = set_stat(state.cards[self.unit], "points", cost)
        return state

    def plan(self, cost: int) -> SweepPlan:
        cells = [
            Cell(i, {"cost": cost, "unit": label}, plan,
                 digest([t.identity() for t in plan.tasks]))
            for i, (label, plan) in enumerate(self.cells(cost))
        ]  # fmt: skip
        plan = SweepPlan(
            path=Path(self.inputs[1]),
            spec=self.spec,
            metric=self.metric,
            axes=[],
            cells=cells,
            baseline=0,
            inputs=self.inputs,
            rules_hash=self.rules_hash,
            code_hash=self.code_hash,
            spec_hash=digest([self.spec.model_dump(mode="json"), cost]),
            seed=self.seed,
            block_size=self.block_size,
            initial_blocks=self.blocks,
        )
        plan.set_run_options()
        return plan


def _estimate(run: SweepRun, cell: int, quantity: str, drop: int | None = None) -> float:
    """A cell's estimate of ``quantity`` (without block ``drop``)."""
    counts = run.counts(cell)
    sums = [c.sum(axis=0) - (c[drop] if drop is not None else 0) for c in counts]
    return run.plan.cells[cell].plan.estimate(sums)[quantity].estimate


class _ValueCriterion(_Criterion):
    """Cells of one cost: the unit against the field, each field unit against the rest."""

    criterion = "value_per_point = field median"
    criterion_words = (
        "the unit's value per point (expected opponent points removed in one-on-one duels "
        "against the field's units, per own point) equals the median value per point of "
        "the field's units, each measured against the rest of the field and the unit at "
        "that cost"
    )

    def __init__(self, system: str, units_path: Path, field_path: Path, unit: str,
                 trials: int, seed: int, block_size: int, options: dict[str, Any],
                 rules: dict[str, Any]) -> None:  # fmt: skip
        super().__init__(system, units_path, field_path, unit, trials, seed, block_size)
        self.field = [v for v in load_field(field_path, self.cards, system) if v != unit]
        if len(self.field) < 2:
            raise InputError(f"{field_path}: the field needs at least 2 units other than {unit!r}")
        section = ValueSection(
            kind="value",
            unit=unit,
            field=self.field,
            options=DuelOptionsSection.model_validate(options),
            rules=rules,
        )
        self.finish(ValueMetric(self.ctx, section), section)

    def cells(self, cost: int) -> list[tuple[str, CellPlan]]:
        state = self.state(cost)
        plans = [self.metric.plan(state)]
        pool = [self.unit, *self.field]
        for w in self.field:
            other = CellState(
                state.cards,
                {"unit": w, "field": [(v, 1.0) for v in pool if v != w]},
                {},
                state.options,
            )
            plans.append(self.metric.plan(other))
        return list(zip([self.unit, *self.field], plans))

    def gap(self, run: SweepRun, drop: int | None = None) -> float:
        unit = _vpp(run, 0, drop)
        others = [_vpp(run, i, drop) for i in range(1, len(run.plan.cells))]
        return unit - float(np.median(others))

    def detail(self, run: SweepRun) -> dict[str, float]:
        others = [_vpp(run, i) for i in range(1, len(run.plan.cells))]
        return {
            "unit_value_per_point": _vpp(run, 0),
            "field_median_value_per_point": float(np.median(others)),
        }


def _vpp(run: SweepRun, cell: int, drop: int | None = None) -> float:
    return _estimate(run, cell, "value_per_point", drop)


class _MatchCriterion(_Criterion):
    """Cells of one cost: every field list holding the unit against every other list."""

    criterion = "score of the unit's lists against the field = 1/2"
    criterion_words = (
        "the field's army lists that hold the unit score half their matches (wins + "
        "draws/2) against the lists that do not, in full AI-vs-AI matches"
    )

    def __init__(self, system: str, units_path: Path, field_path: Path, unit: str,
                 trials: int, seed: int, block_size: int, lists: list[Path],
                 options: dict[str, Any], policy: str) -> None:  # fmt: skip
        super().__init__(system, units_path, field_path, unit, trials, seed, block_size)
        loaded = [(path, self.ctx.load_list(str(path))) for path in lists]
        self.own = [(p, a) for p, a in loaded if any(e.unit == unit for e in a.units)]
        self.others = [(p, a) for p, a in loaded if all(e.unit != unit for e in a.units)]
        if not self.own:
            raise InputError(f"{field_path}: no list of the field holds {unit!r}")
        if not self.others:
            raise InputError(f"{field_path}: every list of the field holds {unit!r}")
        self.field = [a.name for _, a in self.others]
        self.options = {"first": "alternate", **options}
        self.policies: dict[Literal["a", "b"], str] = {"a": policy, "b": policy}
        section = MatchesSection(
            kind="matches", a=str(self.own[0][0]), b=str(self.others[0][0]),
            policies=self.policies, options=self.options,
        )  # fmt: skip
        self.finish(MatchesMetric(self.ctx, section), section, lists)

    def cells(self, cost: int) -> list[tuple[str, CellPlan]]:
        cards = self.state(cost).cards
        policies = {str(k): v for k, v in self.policies.items()}
        return [
            (f"{a.name} vs {b.name}",
             self.metric.plan(CellState(cards, {"a": a, "b": b}, policies, self.options)))
            for _, a in self.own
            for _, b in self.others
        ]  # fmt: skip

    def max_cost(self, current: int) -> int:
        """Matches: 16 x the current cost (beyond it the unit is a decoy the AI chases)."""
        return 16 * max(current, 1)

    def _scores(self, run: SweepRun, drop: int | None = None) -> list[float]:
        return [_estimate(run, i, "score", drop) for i in range(len(run.plan.cells))]

    def gap(self, run: SweepRun, drop: int | None = None) -> float:
        return float(np.mean(self._scores(run, drop))) - 0.5

    def detail(self, run: SweepRun) -> dict[str, float]:
        scores = self._scores(run)
        labels = [c.params["unit"] for c in run.plan.cells]
        return {"mean_score": float(np.mean(scores)),
                **{f"score {label}": v for label, v in zip(labels, scores)}}  # fmt: skip


def fair_cost(
    system: str,
    unit: str,
    field_file: str | Path,
    units_file: str | Path | None = None,
    *,
    trials: int | None = None,
    seed: int = 2026,
    block_size: int | None = None,
    low: int | None = None,
    high: int | None = None,
    options: dict[str, Any] | None = None,
    rules: dict[str, Any] | None = None,
    policy: str = "greedy",
    out_dir: str | Path | None = None,
    workers: int | None = 0,
    scheduler: str | None = None,
    progress: bool | None = None,
) -> FairCost:
    """Fair cost of ``unit`` against the field of ``field_file`` (see the module docstring).

    A field file naming army ``lists`` selects the matches criterion (``policy``, match
    ``options``); otherwise the duel-value criterion (duel ``options``, ``rules``).
    Defaults: 65,536 duels in blocks of 4,096, or 4,096 matches in blocks of 256.
    ``trials`` run in whole blocks, at least two (the jackknife CI is computed between
    blocks): 2,048 duels in blocks of 4,096 run 8,192, and ``notes`` says so.
    """
    units_path = Path(units_file) if units_file else paths.system_config(system, "units.yaml")
    lists = field_lists(field_file, system)
    trials = trials if trials is not None else (4096 if lists else 65_536)
    block_size = block_size if block_size is not None else (256 if lists else 4096)
    if trials < 1:
        raise InputError(f"--trials must be >= 1 (got {trials})")
    if block_size < 2 or block_size % 2:
        raise InputError(f"--block-size must be an even number >= 2 (got {block_size})")
    problem: _Criterion
    if lists:
        problem = _MatchCriterion(
            system, units_path, Path(field_file), unit, trials, seed, block_size, lists,
            dict(options or {}), policy,
        )  # fmt: skip
    else:
        problem = _ValueCriterion(
            system, units_path, Path(field_file), unit, trials, seed, block_size,
            dict(options or {}), dict(rules or {}),
        )  # fmt: skip
    current = int(problem.cards[unit].points)
    out = writable_dir(Path(out_dir) if out_dir else Path("reports") / f"{problem.spec.name}")
    executor = make_executor(workers, scheduler)
    evaluations: dict[int, Evaluation] = {}
    if lists and progress is not False:
        from analyzer.experiments.sweep import announce_compile_for

        announce_compile_for(system, "matches")
    bar = BlockProgress(progress, f"fair-cost {unit}")

    def evaluate(cost: int) -> Evaluation:
        if cost not in evaluations:
            bar.describe(f"fair-cost {unit}: cost {cost} ({len(evaluations)} costs evaluated)")
            plan = problem.plan(cost)
            run = execute(plan, out / "blocks-store", executor=executor, progress=bar)
            replicates = np.array([problem.gap(run, b) for b in range(problem.blocks)])
            evaluations[cost] = Evaluation(
                cost, problem.gap(run), problem.detail(run), run, _jackknife_se(replicates)
            )
        return evaluations[cost]

    try:
        try:
            lo, hi = _bracket(evaluate, current, low, high, problem.max_cost(current))
        except AnalyzerError as err:
            tried = ", ".join(f"{c}: {evaluations[c].gap:+.4f}" for c in sorted(evaluations))
            raise AnalyzerError(f"{err} (gap by cost: {tried})") from None
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if evaluate(mid).gap > 0:
                lo = mid
            else:
                hi = mid
    finally:
        bar.close()
        executor.close()
    e_lo, e_hi = evaluations[lo], evaluations[hi]
    root = _interpolate(lo, e_lo.gap, e_hi.gap)
    blocks = problem.blocks
    replicates = np.array(
        [
            _interpolate(lo, problem.gap(e_lo.run, b), problem.gap(e_hi.run, b))
            for b in range(blocks)
        ]
    )
    se = _jackknife_se(replicates)
    from scipy import stats

    t = float(stats.t.ppf(0.975, blocks - 1))
    result = FairCost(
        system=system,
        unit=unit,
        current_cost=current,
        fair_cost=root,
        se=se,
        ci_low=root - t * se,
        ci_high=root + t * se,
        bracket=(lo, hi),
        evaluations=list(evaluations.values()),
        trials=blocks * block_size,
        blocks=blocks,
        seed=seed,
        rules_hash=problem.rules_hash,
        opponents=problem.field,
        criterion=problem.criterion,
        field_file=str(field_file),
        criterion_words=problem.criterion_words,
        notes=[
            *([problem.trials_note] if problem.trials_note else []),
            *_monotonicity_notes(list(evaluations.values())),
        ],
    )
    _write(result, out)
    return result


def _monotonicity_notes(evaluations: list[Evaluation]) -> list[str]:
    """A warning where the gap rose with the cost (the bisection assumes it falls)."""
    ordered = sorted(evaluations, key=lambda e: e.cost)
    rises = [f"{a.cost}->{b.cost}" for a, b in itertools.pairwise(ordered) if b.gap > a.gap]
    if not rises:
        return []
    return [
        f"the gap rose with the cost at {', '.join(rises)}: the criterion is not monotone "
        "in the cost here (the AI's choices depend on it), so other roots may exist"
    ]


def _jackknife_se(replicates: np.ndarray) -> float:
    """SE from delete-one-block replicates: ``sqrt((B - 1) / B * sum((r - mean(r))^2))``."""
    blocks = len(replicates)
    return math.sqrt((blocks - 1) / blocks * float(((replicates - replicates.mean()) ** 2).sum()))


def _interpolate(lo: int, gap_lo: float, gap_hi: float) -> float:
    """Root of the line through (lo, gap_lo) and (lo + 1, gap_hi)."""
    if gap_lo == gap_hi:
        return lo + 0.5
    return lo + gap_lo / (gap_lo - gap_hi)


def _bracket(
    evaluate: Callable[[int], Evaluation],
    current: int,
    low: int | None,
    high: int | None,
    max_cost: int = MAX_COST,
) -> tuple[int, int]:
    """Integer costs ``lo < hi`` with gap(lo) > 0 >= gap(hi), searched from the current cost."""
    if low is not None and low < 1:
        raise InputError(f"--low must be >= 1 (got {low})")
    if low is not None and high is not None and high <= low:
        raise InputError("--high must be above --low")
    if low is not None and evaluate(low).gap <= 0:
        raise AnalyzerError(f"at --low {low} points the unit is already past its fair cost")
    if high is not None and evaluate(high).gap > 0:
        raise AnalyzerError(f"at --high {high} points the unit is still below its fair cost")
    lo, hi = low, high
    if lo is None and hi is None:
        start = max(1, current)
        if evaluate(start).gap > 0:
            lo = start
        else:
            hi = start
    if lo is None:  # gap(hi) <= 0: halve the cost until the unit is above the median
        assert hi is not None
        while True:
            cost = max(1, hi // 2)
            if cost == hi:
                raise AnalyzerError(
                    "even at 1 point the unit is past its fair cost (it is worth less than 1 point"
                    " against this field)"
                )
            if evaluate(cost).gap > 0:
                lo = cost
                break
            hi = cost
    if hi is None:  # gap(lo) > 0: double the cost until the unit is below the median
        while True:
            cost = lo * 2
            if cost > max_cost:
                raise AnalyzerError(f"the unit stays below its fair cost up to {max_cost} points")
            if evaluate(cost).gap <= 0:
                hi = cost
                break
            lo = cost
    return lo, hi


def _write(result: FairCost, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    table, trace = result.table(), result.trace()
    atomic_write(out / "fair_cost.parquet", lambda tmp: table.to_parquet(tmp, index=False))
    atomic_write_text(out / "fair_cost.csv", table.to_csv(index=False))
    atomic_write_text(out / "fair_cost_trace.csv", trace.to_csv(index=False))
    from analyzer.reporting.charts import fair_cost_chart

    fair_cost_chart(result, out / "fair_cost.png")
