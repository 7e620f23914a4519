"""``metric: matches`` runs any engine with the MatchEngine contract, executor unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.config.yaml_io import ConfigError
from analyzer.experiments.spec import load_sweep
from analyzer.match.sweep import unpack_arrays
from tests.experiments import fake_match
from tests.experiments.conftest import serial, write_spec

SPEC = """\
name: matches
system: d20
metric:
  kind: matches
  a: configs/d20/lists/trooper_section.yaml
  b: configs/d20/lists/genetic_hunters.yaml
  policies: {b: random}
grid:
  brute: {kind: stat, unit: Trooper, field: points, values: [15, 25], step: buff}
  policy: {kind: policy, role: a, values: [random, greedy]}
  bonus: {kind: option, option: bonus, values: [0]}
  side_b:
    kind: list
    role: b
    values: [configs/d20/lists/genetic_hunters.yaml, configs/d20/lists/chronos_strike_team.yaml]
trials: 4096
block_size: 512
"""


def test_matches_metric_without_an_engine_is_a_clear_error(tmp_path, monkeypatch):
    from analyzer.games import MATCH_ENGINES

    monkeypatch.delitem(MATCH_ENGINES, "d20")
    with pytest.raises(ConfigError, match=r"d20: no match engine yet \(available: rapture"):
        load_sweep(write_spec(tmp_path, SPEC))


def test_matches_metric_runs_a_plugged_in_engine(tmp_path, monkeypatch):
    fake_match.plug_in(monkeypatch)
    outcome = serial(write_spec(tmp_path, SPEC), tmp_path / "out")
    table = outcome.results[outcome.results["quantity"] == "win_rate"]
    assert len(table) == 8
    # the stand-in's exact win rate of list A, against the estimate
    cards = outcome.plan.metric.ctx.cards
    for cell in outcome.plan.cells:
        task = cell.plan.tasks[0]
        assert len(task.params) == 1  # first alternates match by match inside the engine
        a, b, bonus, _, _ = unpack_arrays(np.asarray(task.params[0][2:]))[0]
        # half the matches with A first (one more face), half with B first
        exact = sum((a + x + bonus) / (a + b + x + bonus + 1) for x in (0, 1)) / 2
        row = table[table["cell"] == cell.index].iloc[0]
        assert abs(row["estimate"] - exact) < 5 * row["se"]
    assert cards["Trooper"].points not in (None, 0)
    # buffing Trooper's points raises list A's chance in this stand-in: nothing flagged;
    # against the Chronos strike team (which fields Troopers too) it is no pure buff
    checks = outcome.monotonicity
    assert len(checks) == 2 and (checks["change"] > 0).all() and not checks["flagged"].any()
    assert set(checks["side_b"]) == {"configs/d20/lists/genetic_hunters.yaml"}
    with pytest.raises(ConfigError, match="unknown policy 'clever'"):
        bad = SPEC.replace("[random, greedy]", "[random, clever]")
        load_sweep(write_spec(tmp_path, bad, "bad.yaml"))
