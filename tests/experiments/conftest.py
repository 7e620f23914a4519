"""Helpers for the sweep tests: small d20 / heroscape sweep files in a temporary folder."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd
import pytest

from analyzer.experiments.executor import SerialExecutor
from analyzer.experiments.sweep import SweepOutcome, run_sweep

REPO = Path(__file__).resolve().parents[2]

#: d20 duel, Telepath (A) against Trooper, over Telepath's physical defense and the opponent.
D20_DUEL = """\
name: d20-duel
system: d20
metric: {kind: duel, a: Telepath, b: Trooper}
grid:
  pd: {kind: stat, unit: Telepath, field: physical_defense, values: [17, 19], step: buff}
  opponent: {kind: unit, role: b, values: [Trooper, Telekinesist]}
trials: 8192
block_size: 512
seed: 11
"""


def write_spec(folder: Path, text: str, name: str = "sweep.yaml") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def serial(spec: Path, out: Path, **options) -> SweepOutcome:
    """Run a sweep in this process, without charts or progress bar."""
    options.setdefault("charts", False)
    return run_sweep(spec, out, executor=SerialExecutor(), progress=False, **options)


def assert_same_table(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Bit-identical tables (every float compared exactly)."""
    pd.testing.assert_frame_equal(
        a.reset_index(drop=True), b.reset_index(drop=True), check_exact=True
    )


@pytest.fixture
def d20_spec(tmp_path: Path) -> Path:
    return write_spec(tmp_path, D20_DUEL)
