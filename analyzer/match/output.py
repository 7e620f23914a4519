"""``analyzer match --out DIR``: the matches as tidy tables and the summary as JSON.

* ``matches.parquet`` / ``matches.csv``: one row per match ``k`` (the standard record
  columns of :mod:`analyzer.match.contract`, then the engine's own), with the winner
  and end reason also in words;
* ``units.parquet`` / ``units.csv``: one row per match and unit (side, name, type,
  points, then the standard unit columns and the engine's own);
* ``match.json``: the summary document of ``--format json`` (rates with Wilson CIs,
  per-unit figures, provenance).

``analyzer report DIR`` renders such a folder.  Every file is written temp-then-rename.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.match import contract as C
from analyzer.match.report import MatchResult, render_json
from analyzer.outputs import atomic_write_text, read_json, write_table

#: The summary document's file name (``analyzer report`` looks for it).
SUMMARY_FILE = "match.json"


def match_table(engine: C.MatchEngine, result: MatchResult, rec: np.ndarray) -> pd.DataFrame:
    """One row per match: ``match``, the standard columns, the engine's columns."""
    names = [*C.STANDARD_COLUMNS, *engine.record_extras]
    table = pd.DataFrame(rec[:, : len(names)], columns=names)
    table.insert(0, "match", np.arange(len(table)))
    outcomes = {0: result.outcome_names[0], 1: result.outcome_names[1], 2: result.outcome_names[2]}
    table.insert(2, "result", table["winner"].map(outcomes))
    table.insert(8, "end_reason", table["end"].map(dict(enumerate(engine.end_reasons))))
    return table


def unit_table(engine: C.MatchEngine, setup: C.Setup, urec: np.ndarray) -> pd.DataFrame:
    """One row per match and unit (in :attr:`Setup.units` order)."""
    n, units = urec.shape[0], len(setup.units)
    names = [*C.UNIT_STANDARD_COLUMNS, *engine.unit_extras]
    table = pd.DataFrame(
        urec[:, :units, : len(names)].reshape(n * units, len(names)), columns=names
    )
    info = pd.DataFrame(
        [("AB"[u.side], u.name, u.kind, u.points) for u in setup.units],
        columns=["side", "unit", "type", "points"],
    )
    front = pd.concat([info] * n, ignore_index=True)
    front.insert(0, "match", np.repeat(np.arange(n), units))
    return pd.concat([front, table], axis=1)


def write_match_folder(
    engine: C.MatchEngine,
    setup: C.Setup,
    result: MatchResult,
    rec: np.ndarray,
    urec: np.ndarray,
    out: str | Path,
) -> dict[str, Path]:
    """Write the tables and the summary into ``out``; the files by label."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for label, table in (
        ("matches", match_table(engine, result, rec)),
        ("units", unit_table(engine, setup, urec)),
    ):
        written[f"{label} (parquet)"] = write_table(table, out / f"{label}.parquet")
        written[f"{label} (csv)"] = write_table(table, out / f"{label}.csv")
    written["summary"] = atomic_write_text(out / SUMMARY_FILE, render_json(result) + "\n")
    return written


def read_summary(folder: Path) -> dict | None:
    """The summary document of a match folder, or None if there is none (a damaged one is
    one :class:`InputError` line)."""
    path = folder / SUMMARY_FILE
    return read_json(path) if path.exists() else None
