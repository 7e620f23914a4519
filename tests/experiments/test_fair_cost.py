"""``analyzer fair-cost``: bisection on common random numbers, CI, consistency with sweeps."""

from __future__ import annotations

import itertools

import pytest

from analyzer.analysis.value import field_lists
from analyzer.config.yaml_io import ConfigError
from analyzer.errors import AnalyzerError, InputError
from analyzer.experiments.cli import fair_cost_main
from analyzer.experiments.fair_cost import _MatchCriterion, _ValueCriterion, _vpp, fair_cost
from analyzer.experiments.runner import execute
from analyzer.games.d20.units import load_units
from analyzer.paths import system_config
from tests.experiments import fake_match
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


def test_fair_cost_by_matches_finds_the_exact_root_of_a_stand_in(tmp_path, monkeypatch):
    """Stand-in engine where the cheaper list is the favourite: P(A wins) = pts B / (A + B).

    Trooper section (4 Troopers + Brute) against the Genetic hunters: the lists score 1/2
    exactly where both cost the same, at Trooper = (hunters - Brute) / 4 points.
    """
    fake_match.plug_in(monkeypatch)
    field = write_spec(
        tmp_path,
        "system: d20\nlists: [configs/d20/lists/trooper_section.yaml, "
        "configs/d20/lists/genetic_hunters.yaml]\n",
        "lists.yaml",
    )
    result = fair_cost(
        "d20", "Trooper", field, out_dir=tmp_path / "fc", options={"cheap_wins": 1}, **SMALL
    )
    cards = load_units(system_config("d20", "units.yaml"))
    hunters = sum(cards[u].points for u in ("Maïnomaï", "Genetic SU", "Brute"))
    root = (hunters - cards["Brute"].points) / 4
    assert result.criterion.startswith("score of the unit's lists")
    assert result.opponents == ["Genetic hunters"]
    lo, hi = result.bracket
    gaps = {e.cost: e.gap for e in result.evaluations}
    assert hi == lo + 1 and gaps[lo] > 0 >= gaps[hi]
    assert lo - 1 <= root <= hi + 1
    assert result.ci_low - 1 < root < result.ci_high + 1
    trace = result.trace().set_index("cost")
    assert (abs(trace["mean_score"] - 0.5 - trace["gap"]) < 1e-12).all()


def test_match_criterion_on_rapture_lists(tmp_path):
    """The real engine: Kyenar's list against the two lists without him, one cost."""
    field = write_spec(tmp_path, LISTS_FIELD, "lists.yaml")
    problem = _MatchCriterion(
        "rapture", system_config("rapture", "units.yaml"), field, "Kyenar", 256, 3, 128,
        field_lists(field, "rapture"), {}, "greedy",
    )  # fmt: skip
    assert problem.field == ["Angels Vanguard", "Survivor Patrol"]
    run = execute(problem.plan(26), tmp_path / "store", progress=False, workers=0)
    detail = problem.detail(run)
    scores = [v for k, v in detail.items() if k.startswith("score ")]
    assert len(scores) == 2 and all(0 <= v <= 1 for v in scores)
    assert problem.gap(run) == pytest.approx(sum(scores) / 2 - 0.5)
    # another cost is another plan with other cards: its blocks are new
    assert execute(problem.plan(40), tmp_path / "store", progress=False, workers=0).computed


def test_fair_cost_by_matches_needs_lists_on_both_sides(tmp_path):
    field = write_spec(tmp_path, LISTS_FIELD, "lists.yaml")
    with pytest.raises(InputError, match="no list of the field holds 'Mira'"):
        fair_cost("rapture", "Mira", field, out_dir=tmp_path, workers=0)
    bad = write_spec(tmp_path, "system: rapture\nlists: [nowhere.yaml]\n", "bad.yaml")
    with pytest.raises(ConfigError, match=r"bad.yaml:2: lists\[0\]: file not found"):
        fair_cost("rapture", "Kyenar", bad, out_dir=tmp_path, workers=0)
