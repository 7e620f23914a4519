"""``analyzer value``: the point-efficiency table, its files and the unit value charts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from analyzer.analysis.duel import default_units_file, load_units
from analyzer.analysis.value import (
    field_description,
    load_field,
    unit_summary,
    value_table,
    write_outputs,
)
from analyzer.duels import DuelOptions
from analyzer.outputs import write_table
from analyzer.reporting.charts import cost_value_scatter, duel_heatmap, value_per_point_chart


def run_value_report(
    system: str,
    units_file: str | None,
    field_file: str | None,
    out_dir: Path,
    trials: int,
    seed: int,
    progress: Callable[[int, int, str], None] | None = None,
    options: DuelOptions | None = None,
    rule_options: Mapping[str, Any] | None = None,
) -> tuple[pd.DataFrame, dict[str, Path]]:
    """Compute the value table, write Parquet/CSV and three PNG charts; return the summary."""
    units_path = Path(units_file) if units_file else default_units_file(system)
    cards = load_units(system, units_path)
    field = load_field(field_file, cards, system) if field_file else None
    table = value_table(
        system,
        cards,
        field,
        trials,
        seed,
        progress=progress,
        options=options,
        rule_options=rule_options,
    )
    inputs = [units_path] + ([Path(field_file)] if field_file else [])
    table = table.assign(field=field_description(units_path, field_file, field))
    written = write_outputs(table, out_dir, inputs, system)
    summary = unit_summary(table, cards)
    summary.attrs["field"] = str(table["field"].iloc[0])
    write_table(summary, out_dir / "summary.csv", index=True)
    label = f"{system}: value against the field ({trials:,} duels per pairing)"
    written["value_per_point"] = value_per_point_chart(
        summary, out_dir / "value_per_point.png", label
    )
    written["duel_heatmap"] = duel_heatmap(table, out_dir / "duel_heatmap.png", f"{system}: duels")
    written["cost_vs_value"] = cost_value_scatter(
        summary, out_dir / "cost_vs_value.png", f"{system}: cost vs value"
    )
    written["summary"] = out_dir / "summary.csv"
    return summary, written
