"""Plain-text and CSV renderings of roll results."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.dice.mechanic import Estimate, RollResult, mc_z
from analyzer.duels import DuelResult
from analyzer.stats import Z95

if TYPE_CHECKING:
    import pandas as pd


def _fmt(value: float | None, digits: int = 6) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _fmt_z(z: float | None) -> str:
    return "-" if z is None else f"{z:+.1f}"


def _estimate_row(label: str, est: Estimate) -> list[str]:
    return [label, _fmt(est.exact), _fmt(est.mc), _fmt(est.se), _fmt_z(est.z)]


#: The |z| beyond which a Monte Carlo row is flagged against its exact value.
Z_FLAG = 4.0


def agreement_line(rows: list[tuple[str, float | None]]) -> str:
    """One line saying whether Monte Carlo agrees with the exact values, by z-score.

    ``rows`` are (label, z) pairs; rows without both values are left out.  With n rows
    of honest estimates, the largest |z| is usually below about 2 + sqrt(log n); a row
    beyond ``Z_FLAG`` SEs is named (for a correct engine that happens about 1 in 16,000
    rows).
    """
    scored = [(label, z) for label, z in rows if z is not None]
    if not scored:
        return ""
    label, worst = max(scored, key=lambda item: abs(item[1]))
    if abs(worst) <= Z_FLAG:
        return (
            f"\ncheck: Monte Carlo agrees with the exact values (largest |z| {abs(worst):.1f} "
            f"SE over {len(scored)} rows; z = (MC - exact) / SE)"
        )
    return (
        f"\ncheck: {label}: Monte Carlo differs from the exact value by {worst:+.1f} SE "
        f"(more than {Z_FLAG:g}: a real disagreement, please report it)"
    )


def render_rows(header: list[str], rows: list[list[str]]) -> str:
    """Right-aligned text table with a header rule."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(h.rjust(w) for h, w in zip(header, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(lines)


def roll_table(result: RollResult) -> str:
    """Readable table: one line per outcome, then the mean and any events."""
    params = " ".join(f"{k}={v}" for k, v in result.params.items())
    title = f"{result.system} {result.mechanic}: {params}"
    sub = f"trials {result.trials:,}  seed {result.seed}" if result.trials else "exact only"
    dist = result.distribution()
    rows = [
        [str(row["outcome"]), _fmt(row["exact"]), _fmt(row["mc"]), _fmt(row["se"]),
         _fmt_z(mc_z(row["exact"], row["mc"], row["se"])),
         _fmt(row["at_least_exact"]), _fmt(row["at_least_mc"])]
        for row in dist
    ]  # fmt: skip
    estimates = [("mean", result.mean), *result.events.items()]
    rows += [[*_estimate_row(name, est), "", ""] for name, est in estimates]
    header = ["outcome", "exact", "monte carlo", "se", "z", "at least: exact", "monte carlo"]
    checks = [
        (f"outcome {row['outcome']}", mc_z(row["exact"], row["mc"], row["se"])) for row in dist
    ]
    checks += [(name, est.z) for name, est in estimates]
    table = render_rows(header, rows)
    return f"{title}\n{sub}\n{table}{agreement_line(checks)}"


def roll_csv(result: RollResult) -> str:
    """Tidy CSV: one row per outcome (``P(X = k)``, then ``P(X >= k)``), the mean and each
    event, every row carrying the mechanic's parameters, trials and seed."""
    buffer = io.StringIO()
    context = {"system": result.system, "mechanic": result.mechanic, **result.params}
    context.update(trials=result.trials, seed=result.seed)
    fields = [*context, "quantity", "outcome", "exact", "mc", "se"]
    writer = csv.DictWriter(buffer, fieldnames=fields)
    writer.writeheader()

    def write(quantity: str, outcome: object, exact: object, mc: object, se: object) -> None:
        row = {**context, "quantity": quantity, "outcome": outcome, "exact": exact, "mc": mc}
        row["se"] = se
        writer.writerow({k: "" if v is None else v for k, v in row.items()})

    for row in result.distribution():
        write("P(X=k)", row["outcome"], row["exact"], row["mc"], row["se"])
    for row in result.distribution():
        write(
            "P(X>=k)", row["outcome"], row["at_least_exact"], row["at_least_mc"], row["at_least_se"]
        )
    for name, est in [("mean", result.mean), *result.events.items()]:
        write(name, "", est.exact, est.mc, est.se)
    return buffer.getvalue()


def roll_json(result: RollResult) -> str:
    """The JSON document of one roll analysis."""
    return json.dumps(result.to_dict(), indent=2)


def duel_table(result: DuelResult) -> str:
    """Readable duel summary: exact (Markov chain) next to Monte Carlo with SE."""
    opt = result.options
    start = "in contact" if opt.start == "melee" else f"{opt.distance:g} apart"
    title = f"{result.system} duel: {result.a} (A) vs {result.b} (B), {start}, first: {opt.first}"
    sub = f"trials {result.trials:,}  seed {result.seed}  round cap {opt.max_rounds}"
    rows = [
        _estimate_row(f"{result.a} wins", result.win_a),
        _estimate_row(f"{result.b} wins", result.win_b),
        _estimate_row("draw / round cap", result.draw),
        _estimate_row("rounds", result.rounds),
        _estimate_row(f"{result.a} health left (of {result.max_health[0]})", result.health_a),
        _estimate_row(f"{result.b} health left (of {result.max_health[1]})", result.health_b),
    ]
    notes = "".join(f"\nnote: {n}" for n in result.notes)
    check = agreement_line([(row[0], z) for row, z in zip(rows, _duel_z(result))])
    table = render_rows(["", "exact", "monte carlo", "se", "z"], rows)
    return f"{title}\n{sub}\n{table}{check}{notes}"


def _duel_z(result: DuelResult) -> list[float | None]:
    estimates = (result.win_a, result.win_b, result.draw, result.rounds)
    return [est.z for est in (*estimates, result.health_a, result.health_b)]


def duel_csv(result: DuelResult) -> str:
    """Tidy CSV of one duel: one row per quantity with exact, MC, SE and z, plus the setup."""
    buffer = io.StringIO()
    opt = result.options
    context: dict[str, object] = {"system": result.system, "a": result.a, "b": result.b}
    context.update(start=opt.start)
    context.update(distance=opt.distance, first=opt.first, max_rounds=opt.max_rounds)
    context.update(trials=result.trials, seed=result.seed)
    writer = csv.DictWriter(buffer, fieldnames=[*context, "quantity", "exact", "mc", "se", "z"])
    writer.writeheader()
    quantities = {"win_a": result.win_a, "win_b": result.win_b, "draw": result.draw}
    quantities.update(rounds=result.rounds, health_a=result.health_a, health_b=result.health_b)
    for name, est in quantities.items():
        row = {**context, "quantity": name, **est.as_dict(), "z": est.z}
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return buffer.getvalue()


def duel_json(result: DuelResult) -> str:
    """The JSON document of one duel."""
    return json.dumps(result.to_dict(), indent=2)


VALUE_COLUMNS = (
    ("value_per_point", "value/pt"),
    ("value_index", "value"),
    ("fair_cost", "fair cost"),
    ("duel_score", "duel score"),
    ("kill_probability", "kill p"),
    ("wounds_dealt_per_activation", "wounds dealt"),
    ("wounds_taken_per_activation", "wounds taken"),
)


def value_summary_table(summary: pd.DataFrame) -> str:
    """One line per unit, best value per point first: ``estimate ± 95% CI`` for each metric.

    The ``±`` is the half-width of the 95% confidence interval (1.96 SE), as in the HTML
    report of ``analyzer report``; a legend under the table says so.  Exact metrics
    (SE 0) are printed without ``±``.
    """
    header = ["unit", "points"] + [label for _, label in VALUE_COLUMNS]
    rows = []
    for unit, row in summary.iterrows():
        cells = [str(unit), str(int(row["points"]))]
        for metric, _ in VALUE_COLUMNS:
            se = float(row[f"{metric}_se"])
            text = f"{row[metric]:.3f}"
            cells.append(f"{text} ± {Z95 * se:.2g}" if se > 0 else text)
        rows.append(cells)
    text = f"{render_rows(header, rows)}\n{VALUE_LEGEND}"
    if "field" in summary.attrs:
        from analyzer.analysis.value import VALUE_CRITERION

        text += f"\nfield: {summary.attrs['field']}\ncriterion: {VALUE_CRITERION}"
    return text


def value_summary_json(summary: pd.DataFrame, written: Mapping[str, Path]) -> str:
    """``value --format json``: one record per unit (estimate, SE, 95% CI per metric)."""
    units = []
    for unit, row in summary.iterrows():
        record: dict[str, object] = {"unit": str(unit), "points": int(row["points"])}
        for metric, _ in VALUE_COLUMNS:
            est, se = float(row[metric]), float(row[f"{metric}_se"])
            ci = [est - Z95 * se, est + Z95 * se]
            record[metric] = {"estimate": est, "se": se, "ci95": ci, "exact": se == 0}
        units.append(record)
    files = {label: str(path) for label, path in written.items()}
    return json.dumps({"units": units, "files": files}, indent=2)


#: The legend printed under the value table.
VALUE_LEGEND = "± : half-width of the 95% CI (1.96 SE; the SEs are in value.csv / summary.csv)"
