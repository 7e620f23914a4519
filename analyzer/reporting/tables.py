"""Plain-text and CSV renderings of roll results."""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING

from analyzer.dice.mechanic import Estimate, RollResult
from analyzer.duels import DuelResult
from analyzer.stats import Z95

if TYPE_CHECKING:
    import pandas as pd


def _fmt(value: float | None, digits: int = 6) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _estimate_row(label: str, est: Estimate) -> list[str]:
    return [label, _fmt(est.exact), _fmt(est.mc), _fmt(est.se)]


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
    rows = [
        [str(row["outcome"]), _fmt(row["exact"]), _fmt(row["mc"]), _fmt(row["se"])]
        for row in result.distribution()
    ]
    rows.append(_estimate_row("mean", result.mean))
    rows += [_estimate_row(name, est) for name, est in result.events.items()]
    table = render_rows(["outcome", "exact", "monte carlo", "se"], rows)
    return f"{title}\n{sub}\n{table}"


def roll_csv(result: RollResult) -> str:
    """CSV of the distribution: outcome, exact, mc, se."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["outcome", "exact", "mc", "se"])
    writer.writeheader()
    for row in result.distribution():
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
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
    return f"{title}\n{sub}\n{render_rows(['', 'exact', 'monte carlo', 'se'], rows)}{notes}"


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
    return f"{render_rows(header, rows)}\n{VALUE_LEGEND}"


#: The legend printed under the value table.
VALUE_LEGEND = "± : half-width of the 95% CI (1.96 SE; the SEs are in value.csv / summary.csv)"
