"""Reading user files: encodings, YAML booleans in number fields, field files, sweep
trials and the messages of a few user errors (scenario paths, dodging a ranged attack)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from analyzer.analysis.value import field_lists, load_field
from analyzer.config.yaml_io import ConfigError, load_yaml, read_text
from analyzer.errors import AnalyzerError, InputError
from analyzer.experiments.fair_cost import fair_cost
from analyzer.experiments.spec import load_sweep
from analyzer.games.heroscape import units as heroscape_units
from analyzer.games.rapture import units as rapture_units
from analyzer.paths import system_config
from tests.experiments.conftest import serial, write_spec
from tests.test_roll_contract import run_cli

RAPTURE_UNITS = system_config("rapture", "units.yaml")


def _copy(tmp_path: Path, source: Path, old: str, new: str, name: str = "units.yaml") -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


# ------------------------------------------------------------------ 1: not UTF-8
@pytest.mark.parametrize(
    ("prefix", "why"),
    [(b"\xff\xfe", "UTF-16 LE byte-order mark"), (b"# caf\xe9\n", "byte 0xe9 at line 1")],
)
def test_a_file_that_is_not_utf8_is_an_input_error_naming_it(tmp_path, prefix, why):
    path = tmp_path / "units.yaml"
    path.write_bytes(prefix + RAPTURE_UNITS.read_bytes())
    for read in (read_text, load_yaml, rapture_units.load_units):
        with pytest.raises(InputError) as err:
            read(path)
        assert str(err.value).startswith(f"{path}: not UTF-8 text (")
        assert why in str(err.value)
        assert isinstance(err.value, ConfigError)


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "units.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + RAPTURE_UNITS.read_bytes())
    assert "Raziel" in rapture_units.load_units(path)


@pytest.mark.parametrize("command", [["duel", "rapture", "--a", "Raziel", "--b", "Kyenar"]])
def test_cli_prints_one_line_for_a_utf16_units_file(tmp_path, capsys, command):
    path = tmp_path / "x.yaml"
    path.write_bytes(b"\xff\xfe" + RAPTURE_UNITS.read_bytes())
    code, _, err = run_cli([*command, "--units", str(path), "--trials", "0"], capsys)
    assert code == 2
    assert err.startswith(f"error: {path}: not UTF-8 text (") and err.count("\n") == 1
    assert "Traceback" not in err and "UnicodeDecodeError" not in err


def test_other_config_reads_share_the_check(tmp_path):
    spec = tmp_path / "sweep.yaml"
    spec.write_bytes(b"\xff\xfename: x\n")
    with pytest.raises(InputError, match="not UTF-8 text"):
        load_sweep(spec)
    field = tmp_path / "field.yaml"
    field.write_bytes("system: d20\nopponents: [Trooper]\n".encode("utf-16"))
    with pytest.raises(InputError, match="not UTF-8 text"):
        field_lists(field, "d20")


# ------------------------------------------------------- 2: booleans are not numbers
def test_points_true_is_rejected_with_file_and_line(tmp_path):
    path = _copy(tmp_path, RAPTURE_UNITS, "points: 30", "points: true")
    line = path.read_text().splitlines().index("    points: true") + 1
    with pytest.raises(ConfigError) as err:
        rapture_units.load_units(path)
    assert f"{path}:{line}: units[0].points: expected a number, got a boolean" in str(err.value)


def test_booleans_rejected_in_int_and_float_fields_of_cards_lists_and_specs(tmp_path):
    heroscape = system_config("heroscape", "units.yaml")
    text = heroscape.read_text(encoding="utf-8")
    defense = next(line for line in text.splitlines() if "defense:" in line)
    path = _copy(tmp_path, heroscape, defense, defense.split(":")[0] + ": false")
    with pytest.raises(ConfigError, match=r"defense: expected a number, got a boolean"):
        heroscape_units.load_units(path)

    cards = rapture_units.load_units()
    army = _copy(
        tmp_path,
        system_config("rapture", "lists/icnun_hunters.yaml"),
        "count: 2",
        "count: true",
        "list.yaml",
    )
    with pytest.raises(ConfigError, match=r"units\[\d\]\.count: expected a number"):
        rapture_units.load_list(army, cards)

    spec = write_spec(
        tmp_path,
        """\
        name: b
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        trials: true
        alpha: false
        precision: {ci_half_width: true}
        """,
    )
    with pytest.raises(ConfigError) as err:
        load_sweep(spec)
    lines = str(err.value).splitlines()
    assert f"{spec}:4: trials: expected a number, got a boolean (true/false)" in lines
    assert f"{spec}:5: alpha: expected a number, got a boolean (true/false)" in lines
    assert any(line.startswith(f"{spec}:6: precision.ci_half_width: expected") for line in lines)


def test_booleans_stay_valid_where_the_field_is_a_switch(tmp_path):
    spec = write_spec(
        tmp_path,
        """\
        name: b
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        exact: false
        """,
    )
    assert load_sweep(spec).spec.exact is False


# ----------------------------------------------- 3: no pydantic serializer warning
def test_a_word_for_a_number_in_a_grid_is_one_error_without_warnings(tmp_path, capsys):
    spec = write_spec(
        tmp_path,
        """\
        name: w
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          points: {kind: stat, unit: Telepath, field: points, values: [10, four]}
        """,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ConfigError, match=r":5: grid\.points\.values\[1\]: points: "):
            load_sweep(spec)
    code, _, err = run_cli(["sweep", str(spec), "--workers", "0"], capsys)
    assert code == 2 and err.count("\n") == 1 and "Warning" not in err


# ------------------------------------------------- 8: opponents and lists together
def test_a_field_file_with_opponents_and_lists_is_rejected(tmp_path):
    path = write_spec(
        tmp_path, "system: d20\nopponents: [Trooper]\nlists: [x.yaml]\n", "field.yaml"
    )
    cards = dict(load_units_d20())
    for load in (lambda: load_field(path, cards, "d20"), lambda: field_lists(path, "d20")):
        with pytest.raises(ConfigError) as err:
            load()
        assert f"{path}:3: lists: give either 'opponents'" in str(err.value)
        assert "not both" in str(err.value)


def load_units_d20():
    from analyzer.games.d20.units import load_units

    return load_units()


# ---------------------------------------------------------- 7: trials and blocks
SWEEP = """\
name: blocks
system: d20
metric: {kind: duel, a: Telepath, b: Trooper}
grid:
  opponent: {kind: unit, role: b, values: [Trooper, Brute]}
trials: 512
block_size: 512
exact: false
"""


def test_trials_below_two_blocks_are_rounded_up_and_said(tmp_path):
    spec = write_spec(tmp_path, SWEEP)
    plan = load_sweep(spec)
    plan.set_run_options(trials=512)
    assert plan.initial_trials == 1024
    assert plan.notes == [
        "--trials 512 rounded up to 1,024 per task (2 blocks of 512; at least 2 blocks: "
        "the SE is computed between blocks)"
    ]
    outcome = serial(spec, tmp_path / "out", trials=512)
    assert (outcome.results["n"] == 1024).all()
    from analyzer.experiments.sweep import summary_text

    assert "note: --trials 512 rounded up to 1,024" in summary_text(outcome)


def test_max_trials_is_a_hard_cap_and_below_two_blocks_an_error(tmp_path):
    spec = write_spec(tmp_path, SWEEP)
    plan = load_sweep(spec)
    with pytest.raises(AnalyzerError, match=r"--max-trials 512 is below the smallest run: 2"):
        plan.set_run_options(trials=512, max_trials=512)
    plan.set_run_options(trials=4096, max_trials=2000)  # rounded down to whole blocks
    assert plan.initial_trials == 1536 and plan.cap_blocks == 3
    assert "capped at 1,536 by --max-trials 2,000" in plan.notes[0]
    plan.set_run_options(trials=1024)
    assert plan.initial_trials == 1024 and plan.notes == []

    bad = write_spec(
        tmp_path, SWEEP + "precision: {ci_half_width: 0.01, max_trials: 600}\n", "bad.yaml"
    )
    with pytest.raises(ConfigError, match=r"bad.yaml:9: precision.max_trials: 600 is below"):
        load_sweep(bad)


def test_fair_cost_notes_the_rounding_of_its_trials(tmp_path):
    field = write_spec(
        tmp_path, "system: d20\nopponents: [Trooper, Brute, Telekinesist]\n", "f.yaml"
    )
    result = fair_cost(
        "d20", "Telepath", field, trials=256, block_size=256, workers=0, out_dir=tmp_path / "fc"
    )
    assert result.trials == 512 and result.blocks == 2
    assert result.notes[0].startswith("--trials 256 rounded up to 512 per task (2 blocks")
    assert "rounded up" in result.table()["notes"].iloc[0]


# ------------------------------------------------------------------ 6: messages
# (scenario files of every engine: tests/match/test_scenarios.py)


def test_dodging_a_ranged_attack_cites_the_reactions(capsys):
    base = ["roll", "rapture", "attack", "--dice", "3", "--skill", "3", "--defense", "1"]
    code, _, err = run_cli([*base, "--kind", "ranged", "--dodge", "2"], capsys)
    assert code == 2
    assert '"Reaction: Dodge" answers a close combat attack' in err
    assert '"Reaction: Seek Shelter"' in err and "reaction to a reaction" not in err
    code, _, err = run_cli([*base, "--kind", "countershot", "--dodge", "2"], capsys)
    assert code == 2 and "You may not perform a reaction to a reaction" in err
