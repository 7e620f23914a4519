"""``analyzer fair-cost``: bisection on common random numbers, CI, consistency with sweeps."""

from __future__ import annotations

import itertools

import pytest

from analyzer.config.yaml_io import ConfigError
from analyzer.errors import AnalyzerError, InputError
from analyzer.experiments.cli import fair_cost_main
from analyzer.experiments.fair_cost import _ValueCriterion, _vpp, fair_cost
from analyzer.experiments.runner import execute
from analyzer.paths import system_config
from tests.experiments.conftest import serial, write_spec

FIELD = """\
system: d20
opponents: [Trooper, Brute, Telekinesist, Chronos SU]
"""
SMALL = {"trials": 4096, "block_size": 512, "seed": 3, "workers": 0}


@pytest.fixture
def field(tmp_path):
    return write_spec(tmp_path, FIELD, "field.yaml")


def test_fair_cost_brackets_the_root_with_a_ci(field, tmp_path):
    result = fair_cost("d20", "Telepath", field, out_dir=tmp_path / "fc", **SMALL)
    lo, hi = result.bracket
    gaps = {e.cost: e.gap for e in result.evaluations}
    assert hi == lo + 1 and gaps[lo] > 0 >= gaps[hi]
    assert lo <= result.fair_cost <= hi
    assert result.se > 0 and result.ci_low < result.fair_cost < result.ci_high
    assert (tmp_path / "fc" / "fair_cost.csv").exists()
    assert "Telepath: fair cost" in result.sentence()

    # the gap is a fixed, decreasing function of the cost on common random numbers
    problem = _ValueCriterion(
        "d20", system_config("d20", "units.yaml"), field, "Telepath", 4096, 3, 512, {}, {}
    )
    costs = range(max(1, lo - 2), hi + 3)
    brute = []
    for cost in costs:
        run = execute(
            problem.plan(cost), tmp_path / "fc" / "blocks-store", progress=False, workers=0
        )
        assert run.computed == 0  # the same blocks as the bisection's: cost is not in the kernel
        others = sorted(_vpp(run, i) for i in range(1, len(run.plan.cells)))
        brute.append(_vpp(run, 0) - (others[1] + others[2]) / 2)
    assert all(a > b for a, b in itertools.pairwise(brute))
    assert brute[costs.index(lo)] == gaps[lo] and brute[costs.index(hi)] == gaps[hi]

    again = fair_cost("d20", "Telepath", field, out_dir=tmp_path / "fc", **SMALL)
    assert again.fair_cost == result.fair_cost and again.se == result.se
    assert all(e.run.computed == 0 for e in again.evaluations)


def test_unit_value_matches_a_value_sweep_on_the_same_seeds(field, tmp_path):
    result = fair_cost("d20", "Telepath", field, out_dir=tmp_path / "fc", **SMALL)
    lo, hi = result.bracket
    spec = write_spec(
        tmp_path,
        f"""\
        name: check
        system: d20
        metric: {{kind: value, unit: Telepath, field: [Trooper, Brute, Telekinesist, Chronos SU]}}
        grid:
          points: {{kind: stat, unit: Telepath, field: points, values: [{lo}, {hi}]}}
        trials: 4096
        block_size: 512
        seed: 3
        """,
    )
    sweep = serial(spec, tmp_path / "sweep").results
    vpp = sweep[sweep["quantity"] == "value_per_point"].set_index("points")["estimate"]
    trace = result.trace().set_index("cost")["unit_value_per_point"]
    assert vpp[lo] == trace[lo] and vpp[hi] == trace[hi]


def test_fair_cost_errors(field, tmp_path, capsys):
    with pytest.raises(AnalyzerError, match="already past its fair cost"):
        fair_cost("d20", "Telepath", field, low=60, out_dir=tmp_path, **SMALL)
    small = write_spec(tmp_path, "system: d20\nopponents: [Telepath, Brute]\n", "small.yaml")
    with pytest.raises(InputError, match="at least 2 units"):
        fair_cost("d20", "Telepath", small, out_dir=tmp_path, **SMALL)
    with pytest.raises(SystemExit) as done:
        fair_cost_main(["d20", "--unit", "Nobody", "--field", str(field), "--workers", "0"])
    assert done.value.code == 2
    assert capsys.readouterr().err.startswith("error: ")


LISTS_FIELD = """\
system: rapture
lists:
  - configs/rapture/lists/icnun_raiders.yaml
  - configs/rapture/lists/angels_vanguard.yaml
  - configs/rapture/lists/survivors_patrol.yaml
"""


def test_fair_cost_by_matches_brackets_a_half_score(tmp_path):
    """Lists in the field: Kyenar's list (Icnun Raiders) against the other two."""
    field = write_spec(tmp_path, LISTS_FIELD, "lists.yaml")
    small = {"trials": 512, "block_size": 128, "seed": 3, "workers": 0}
    result = fair_cost("rapture", "Kyenar", field, low=10, high=80, out_dir=tmp_path, **small)
    assert result.criterion.startswith("score of the unit's lists")
    assert result.opponents == ["Angels Vanguard", "Survivor Patrol"]
    lo, hi = result.bracket
    gaps = {e.cost: e.gap for e in result.evaluations}
    assert hi == lo + 1 and gaps[lo] > 0 >= gaps[hi]
    assert result.ci_low < result.fair_cost < result.ci_high
    trace = result.trace().set_index("cost")
    scores = trace[[c for c in trace.columns if c.startswith("score ")]]
    assert (abs(scores.mean(axis=1) - 0.5 - trace["gap"]) < 1e-12).all()
    # the cost enters through victory points: the cheap end scores higher than the dear end
    assert trace["mean_score"][10] > trace["mean_score"][80]


def test_fair_cost_by_matches_needs_lists_on_both_sides(tmp_path):
    field = write_spec(tmp_path, LISTS_FIELD, "lists.yaml")
    with pytest.raises(InputError, match="no list of the field holds 'Mira'"):
        fair_cost("rapture", "Mira", field, out_dir=tmp_path, workers=0)
    bad = write_spec(tmp_path, "system: rapture\nlists: [nowhere.yaml]\n", "bad.yaml")
    with pytest.raises(ConfigError, match=r"bad.yaml:2: lists\[0\]: file not found"):
        fair_cost("rapture", "Kyenar", bad, out_dir=tmp_path, workers=0)
