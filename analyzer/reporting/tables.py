"""Plain-text and CSV renderings of roll results."""

from __future__ import annotations

import csv
import io
import json

from analyzer.dice.mechanic import Estimate, RollResult


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
