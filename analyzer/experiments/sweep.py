"""``analyzer sweep``: load a sweep file, run it, write its tables and charts."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from analyzer.experiments.aggregate import differences_table, monotonicity_table, results_table
from analyzer.experiments.charts import sweep_charts
from analyzer.experiments.executor import WORKER_TIMEOUT, DaskExecutor, SerialExecutor
from analyzer.experiments.runner import SweepRun, execute
from analyzer.experiments.spec import SweepPlan, load_sweep
from analyzer.outputs import atomic_write, atomic_write_bytes


@dataclass
class SweepOutcome:
    """Tables, files written and the run's statistics."""

    plan: SweepPlan
    run: SweepRun
    results: pd.DataFrame
    differences: pd.DataFrame
    monotonicity: pd.DataFrame
    files: dict[str, Path] = field(default_factory=dict)

    @property
    def flagged(self) -> pd.DataFrame:
        if self.monotonicity.empty:
            return self.monotonicity
        return self.monotonicity[self.monotonicity["flagged"]]


def default_out_dir(plan: SweepPlan) -> Path:
    return Path("reports") / f"sweep-{plan.name}"


def announce_compile_for(system: str, metric: object) -> None:
    """Before a run by matches, say that the engine compiles first (if it will)."""
    if metric == "matches":
        from analyzer.games import match_engine
        from analyzer.match.cli import announce_compile

        announce_compile(match_engine(system))


def run_sweep(
    spec_path: str | Path,
    out_dir: str | Path | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    trials: int | None = None,
    seed: int | None = None,
    until_ci: float | None = None,
    max_trials: int | None = None,
    charts: bool = True,
    progress: bool | None = None,
    executor: SerialExecutor | DaskExecutor | None = None,
    worker_timeout: float = WORKER_TIMEOUT,
) -> SweepOutcome:
    """Run (or resume) the sweep of ``spec_path`` into ``out_dir`` and write its outputs."""
    plan = load_sweep(spec_path)
    plan.set_run_options(trials=trials, seed=seed, until_ci=until_ci, max_trials=max_trials)
    out = Path(out_dir) if out_dir is not None else default_out_dir(plan)
    if progress is not False:
        announce_compile_for(plan.system, plan.spec.metric.get("kind"))
    run = execute(plan, out, workers, scheduler, chunk, progress, executor, worker_timeout)
    outcome = SweepOutcome(
        plan, run, results_table(run), differences_table(run), monotonicity_table(run)
    )
    outcome.files = write_outputs(outcome, out, charts)
    return outcome


def _write_table(table: pd.DataFrame, out: Path, stem: str) -> dict[str, Path]:
    parquet, csv = out / f"{stem}.parquet", out / f"{stem}.csv"
    atomic_write(parquet, lambda tmp: table.to_parquet(tmp, index=False))
    atomic_write_bytes(csv, table.to_csv(index=False).encode())
    return {f"{stem}_parquet": parquet, f"{stem}_csv": csv}


def write_outputs(outcome: SweepOutcome, out: Path, charts: bool = True) -> dict[str, Path]:
    """results / differences / monotonicity as Parquet and CSV, plus the charts."""
    files = _write_table(outcome.results, out, "results")
    files |= _write_table(outcome.differences, out, "differences")
    if not outcome.monotonicity.empty:
        files |= _write_table(outcome.monotonicity, out, "monotonicity")
    if charts:
        files |= sweep_charts(outcome.results, outcome.plan, out / "charts")
    return files


def summary_text(outcome: SweepOutcome) -> str:
    """Plain-text summary: the headline of every cell, the check, the run."""
    plan, run = outcome.plan, outcome.run
    quantity = plan.metric.quantities[0]
    rows = outcome.results[outcome.results["quantity"] == quantity]
    axes = [a.name for a in plan.axes]
    header = [*axes, "n", quantity, "± 95% CI", "exact"]
    lines = []
    for _, row in rows.iterrows():
        half = (row["ci_high"] - row["ci_low"]) / 2
        exact = "" if math.isnan(row["exact"]) else f"{row['exact']:.4f}"
        lines.append(
            [
                *(str(row[a]) for a in axes),
                str(row["n"]),
                f"{row['estimate']:.4f}",
                f"{half:.4f}",
                exact,
            ]
        )
    widths = [max(len(h), *(len(r[i]) for r in lines)) for i, h in enumerate(header)]
    out = [f"sweep {plan.name} ({plan.system}, metric {plan.metric.kind}, seed {plan.seed})"]
    out.append("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in lines]
    if plan.until_ci is not None:
        met = rows["target_met"].fillna(False).astype(bool)
        out.append(
            f"precision target (95% CI half-width <= {plan.until_ci:g}): "
            f"met by {int(met.sum())}/{len(rows)} cells "
            f"(trials per task: {int(rows['n'].min())}..{int(rows['n'].max())})"
        )
    flagged = outcome.flagged
    if outcome.monotonicity.empty:
        out.append("monotonicity: no buff/nerf axis to check")
    elif flagged.empty:
        out.append(f"monotonicity: {len(outcome.monotonicity)} steps checked, none flagged")
    else:
        out.append(f"monotonicity: {len(flagged)} of {len(outcome.monotonicity)} steps FLAGGED:")
        for _, row in flagged.iterrows():
            out.append(
                f"  {row['axis']} {row['from']} -> {row['to']} ({row['step']} of {row['unit']}): "
                f"{quantity} changed by {row['change']:+.4f} (SE {row['se']:.4f})"
            )
    out.append(
        f"blocks: {run.computed} computed, {run.reused} reused; {run.executor}; {run.elapsed:.1f} s"
    )
    out += [f"note: {n}" for n in [*plan.notes, *run.notes]]
    return "\n".join(out)
