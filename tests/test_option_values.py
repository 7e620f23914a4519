"""``--opt KEY=VALUE``: every rule option has a declared kind and a bad value is one line.

Duel rule options of every system (``analyzer duel/value/fair-cost --opt``, a sweep's
``rules``) and Rapture match options (``analyzer match/compare --opt``, a sweep's
``metric.options``) go through :func:`analyzer.analysis.duel.check_options`.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import fields

import numpy as np
import pytest

from analyzer.analysis.duel import (
    DUEL_RULE_OPTIONS,
    check_options,
    check_rule_options,
    duel,
    integer,
    number,
    parse_rule_options,
)
from analyzer.config.yaml_io import ConfigError
from analyzer.duels import DuelOptions
from analyzer.errors import InputError
from analyzer.experiments.fair_cost import fair_cost
from analyzer.experiments.metrics import rule_option_names
from analyzer.experiments.spec import load_sweep
from analyzer.games import SYSTEMS, system_module
from analyzer.games.rapture import duel as rapture_duel
from analyzer.games.rapture.match.compile import (
    FIRST_MODES,
    MATCH_OPTION_KINDS,
    MatchOptions,
    match_options,
)
from tests.experiments.conftest import REPO, write_spec
from tests.test_roll_contract import run_cli

GREEDY = {"a": "greedy", "b": "greedy"}
LISTS = REPO / "configs" / "rapture" / "lists"


def opts(*pairs: str) -> dict:
    """What ``--opt`` makes of the words typed on the command line."""
    return parse_rule_options(pairs)


# ------------------------------------------------------------ declarations
@pytest.mark.parametrize("system", SYSTEMS)
def test_declared_rule_options_are_the_duel_model_keywords(system):
    model = system_module(system, "duel").duel_model
    keywords = {
        name: p.default
        for name, p in inspect.signature(model).parameters.items()
        if name not in ("a", "b", "options")
        and p.default is not p.empty
        and isinstance(p.default, bool | int | float | str | type(None))
    }
    assert list(DUEL_RULE_OPTIONS[system]) == list(keywords)
    assert rule_option_names(system) == tuple(keywords)
    for name, default in keywords.items():
        if default is not None:  # None: decided by the engine (d20 rules, hybrid --first)
            assert check_rule_options(system, {name: default}) == {name: default}


def test_rapture_choices_are_the_engine_s():
    kinds = DUEL_RULE_OPTIONS["rapture"]
    assert kinds["reaction"].choices == tuple(rapture_duel.REACTIONS)
    assert kinds["order"].choices == tuple(rapture_duel.ORDERS)


def test_every_match_option_is_declared_and_its_default_allowed():
    names = {f.name for f in fields(MatchOptions)} - {"policy_a", "policy_b", "hands"}
    assert set(MATCH_OPTION_KINDS) == names
    defaults = {f.name: f.default for f in fields(MatchOptions) if f.name in names}
    assert check_options("match option", MATCH_OPTION_KINDS, defaults) == defaults
    assert MATCH_OPTION_KINDS["first"].choices == FIRST_MODES


# --------------------------------------------------------- bad duel values
BAD_DUEL = [
    ("rapture", "shelter_threshold=abc", "a number >= 0 or none (got 'abc')"),
    ("rapture", "shelter_threshold=-1", "(got -1)"),
    ("rapture", "countershot=abc", "true or false (got 'abc')"),
    ("rapture", "countershot=none", "true or false (got none)"),
    ("rapture", "countershot=1", "(got 1)"),
    ("rapture", "reaction=parry", "one of per-rp, total, dodge, counterblow, none"),
    ("rapture", "reaction=1", "(got 1)"),
    ("rapture", "order=none", "one of rules, fixed (got none)"),
    ("hybrid", "activation=none", "one of roll, fixed (got none)"),
    ("hybrid", "activation=true", "(got true)"),
    ("degenesis", "turns_per_round=abc", "of type int, from 1 to 3 (got 'abc')"),
    ("degenesis", "turns_per_round=none", "(got none)"),
    ("degenesis", "turns_per_round=1.5", "(got 1.5)"),
    ("degenesis", "turns_per_round=0", "(got 0)"),
    ("degenesis", "turns_per_round=4", "(got 4)"),
    ("degenesis", "turns_per_round=true", "(got true)"),
    ("degenesis", "sucker_punch_first=abc", "true or false"),
    ("degenesis", "sucker_punch_first=none", "true or false"),
    ("degenesis", "ranged_hostiles_provoke=7", "true or false (got 7)"),
    ("d20", "all_weapons=abc", "true or false (got 'abc')"),
    ("d20", "shoot_in_hth=7", "true or false (got 7)"),
    ("d20", "dexterity_in_shot=none", "true or false (got none)"),
]


@pytest.mark.parametrize(("system", "pair", "message"), BAD_DUEL)
def test_bad_duel_option_value_is_an_input_error(system, pair, message):
    name = pair.partition("=")[0]
    with pytest.raises(InputError) as err:
        check_rule_options(system, opts(pair))
    assert f"{system} duel option {name} must be" in str(err.value)
    assert message in str(err.value)


def test_unknown_duel_option_lists_the_known_ones():
    with pytest.raises(InputError, match=r"unknown rapture duel option\(s\) foo \(known: "):
        check_rule_options("rapture", {"foo": 1})
    with pytest.raises(InputError, match=r"heroscape duel option\(s\) foo \(known: none\)"):
        check_rule_options("heroscape", {"foo": 1})


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rapture", "--a", "Raziel", "--b", "Kyenar", "--opt", "shelter_threshold=abc"],
         "shelter_threshold"),
        (["rapture", "--a", "Raziel", "--b", "Kyenar", "--opt", "countershot=none"],
         "countershot"),
        (["d20", "--a", "Chronos SU", "--b", "Genetic SU", "--opt", "all_weapons=7"],
         "all_weapons"),
    ],
)  # fmt: skip
def test_duel_cli_prints_one_line_and_exits_2(argv, message, capsys):
    code, out, err = run_cli(["duel", *argv, "--trials", "100"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_fair_cost_unknown_rule_option_is_an_input_error(tmp_path):
    field = REPO / "configs" / "experiments" / "fields" / "heroscape_field.yaml"
    with pytest.raises(InputError, match=r"unknown heroscape duel option\(s\) foo"):
        fair_cost("heroscape", "Agent SI-4X", field, rules={"foo": 1}, out_dir=tmp_path)


# ----------------------------------------------------------- 'none' values
def test_none_is_a_reaction_and_a_shelter_threshold():
    assert check_rule_options("rapture", opts("reaction=none")) == {"reaction": "none"}
    assert check_rule_options("rapture", opts("reaction=None")) == {"reaction": "none"}
    assert check_rule_options("rapture", opts("shelter_threshold=none")) == {
        "shelter_threshold": None
    }


def test_reaction_none_duel_is_the_never_react_duel():
    cli = duel("rapture", None, "Raziel", "Kyenar", DuelOptions(), 0, 1, opts("reaction=none"))
    api = duel("rapture", None, "Raziel", "Kyenar", DuelOptions(), 0, 1, {"reaction": "none"})
    default = duel("rapture", None, "Raziel", "Kyenar", DuelOptions(), 0, 1)
    assert cli.win_a.exact == api.win_a.exact and cli.win_b.exact == api.win_b.exact
    assert cli.win_a.exact != default.win_a.exact
    assert "rule option reaction='none'" in cli.notes


def test_own_escape_vp_none_is_accepted():
    options = match_options(GREEDY, opts("own_escape_vp=none"))
    assert options.own_escape_vp == "none"
    assert match_options(GREEDY, {"own_escape_vp": "none"}) == options


# -------------------------------------------------------- bad match values
BAD_MATCH = [
    ("own_escape_vp=abc", "one of opponent, none (got 'abc')"),
    ("band_ini=xyz", "one of sum, leader (got 'xyz')"),
    ("band_ini=none", "one of sum, leader (got none)"),
    ("round1_first=99", "one of -1, 0, 1 (got 99)"),
    ("round1_first=true", "one of -1, 0, 1 (got true)"),
    ("round1_first=0.0", "(got 0)"),
    ("first=none", "one of rules, alternate, random (got none)"),
    ("max_rounds=x", "of type int, from 1 to 20 (got 'x')"),
    ("max_rounds=0", "(got 0)"),
    ("max_rounds=21", "(got 21)"),
    ("lookahead_k=17", "of type int, from 1 to 16"),
    ("lookahead_depth=-1", "of type int, from 0 to 40"),
    ("lookahead_rollouts=0", "of type int, from 1 to 64"),
    ("base_counts=2", "true or false (got 2)"),
    ("swap_edges=none", "true or false (got none)"),
    ("missions=yes", "true or false (got 'yes')"),
]


@pytest.mark.parametrize(("pair", "message"), BAD_MATCH)
def test_bad_match_option_value_is_an_input_error(pair, message):
    name = pair.partition("=")[0]
    with pytest.raises(InputError) as err:
        match_options(GREEDY, opts(pair))
    assert f"match option {name} must be" in str(err.value) and message in str(err.value)


def test_unknown_match_option_and_scenario_key():
    with pytest.raises(InputError, match=r"unknown match option\(s\) bogus \(known: ") as err:
        match_options(GREEDY, {"bogus": 1})
    assert "scenario" not in str(err.value)  # it is given with --scenario, not --opt
    assert match_options(GREEDY, {"scenario": "river"}) == MatchOptions()


def test_match_cli_rejects_a_bad_value_in_one_line(capsys):
    argv = ["match", "rapture", "--list-a", str(LISTS / "angels_band.yaml"),
            "--list-b", str(LISTS / "icnun_hunters.yaml"), "--matches", "4",
            "--opt", "round1_first=99"]  # fmt: skip
    code, _, err = run_cli(argv, capsys)
    assert code == 2
    assert "error: rapture match option round1_first must be one of -1, 0, 1 (got 99)" in err


# ---------------------------------------------------- valid values unchanged
def test_valid_match_values_are_kept():
    chosen = opts(
        "first=alternate", "base_counts=false", "band_ini=leader", "own_escape_vp=opponent",
        "round1_first=1", "max_rounds=4", "lookahead_k=2", "swap_edges=false",
    )  # fmt: skip
    built = match_options({"a": "lookahead", "b": "random"}, chosen)
    assert built == MatchOptions(policy_a="lookahead", policy_b="random", **chosen)


@pytest.mark.parametrize(
    ("system", "pairs"),
    [
        ("rapture", ("order=fixed", "reaction=dodge", "shelter_threshold=2", "countershot=false")),
        ("rapture", ("shelter_threshold=0.5", "reaction=per-rp")),
        ("hybrid", ("activation=fixed",)),
        ("degenesis", ("turns_per_round=2", "sucker_punch_first=false")),
        ("degenesis", ("ranged_hostiles_provoke=true",)),
        ("d20", ("dexterity_in_shot=false", "shoot_in_hth=false", "all_weapons=true")),
    ],
)
def test_valid_duel_values_are_passed_through_unchanged(system, pairs):
    given = opts(*pairs)
    checked = check_rule_options(system, given)
    assert checked == given
    assert all(type(checked[k]) is type(v) for k, v in given.items())  # 2 stays an int


def test_valid_rapture_values_give_the_engine_s_duel():
    rules = {"reaction": "dodge", "shelter_threshold": 2, "countershot": False}
    cli = duel("rapture", None, "Raziel", "Kyenar", DuelOptions(), 0, 1, opts(
        "reaction=dodge", "shelter_threshold=2", "countershot=false"))  # fmt: skip
    cards = system_module("rapture", "units").load_units(
        REPO / "configs" / "rapture" / "units.yaml"
    )
    model = rapture_duel.duel_model(cards["Raziel"], cards["Kyenar"], DuelOptions(), **rules)
    space = model.space
    winner = space.decode()[0]
    exact = np.mean([model.exact(f)[winner == 1].sum() for f in (True, False)])
    assert cli.win_a.exact == pytest.approx(float(exact), abs=1e-12)


def test_number_and_integer_kinds():
    kinds = {"x": number(0, 1), "n": integer(low=2)}
    assert check_options("t option", kinds, {"x": 1, "n": 5}) == {"x": 1, "n": 5}
    for bad in ({"x": 1.5}, {"x": float("nan")}, {"x": True}, {"n": 1}, {"n": 2.0}):
        with pytest.raises(InputError, match=f"t option {next(iter(bad))} must be"):
            check_options("t option", kinds, bad)


# ------------------------------------------------------------------ sweeps
SWEEP = """\
name: x
system: rapture
metric:
  kind: duel
  a: Raziel
  b: Kyenar
  rules: RULES
grid:
  r: {kind: option, option: reaction, values: [VALUES]}
trials: 1024
block_size: 512
"""


def sweep_errors(tmp_path, rules: str, values: str) -> list[str]:
    path = write_spec(tmp_path, SWEEP.replace("RULES", rules).replace("VALUES", values))
    with pytest.raises(ConfigError) as err:
        load_sweep(path)
    return str(err.value).splitlines()


def test_sweep_checks_rule_option_values(tmp_path):
    lines = sweep_errors(tmp_path, "{countershot: 7}", "dodge, none")
    assert any("metric: rapture duel option countershot must be true or false" in x for x in lines)
    lines = sweep_errors(tmp_path, "{}", "dodge, parry")
    assert any("grid.r.values[1]: rapture duel option reaction must be one of" in x for x in lines)


def test_sweep_accepts_none_and_null_reactions(tmp_path):
    text = SWEEP.replace("RULES", "{shelter_threshold: null}").replace("VALUES", "none, dodge")
    plan = load_sweep(write_spec(tmp_path, text))
    assert len(plan.cells) == 2


def test_bundled_sweep_specs_still_load():
    for spec in sorted((REPO / "configs" / "experiments").glob("*.yaml")):
        assert load_sweep(spec).cells, spec


def test_match_json_echoes_the_checked_value(capsys):
    argv = ["match", "rapture", "--list-a", str(LISTS / "angels_band.yaml"),
            "--list-b", str(LISTS / "icnun_hunters.yaml"), "--matches", "4",
            "--format", "json", "--opt", "own_escape_vp=none"]  # fmt: skip
    code, out, err = run_cli(argv, capsys)
    assert code == 0, err
    assert json.loads(out)["options"]["own_escape_vp"] == "none"
