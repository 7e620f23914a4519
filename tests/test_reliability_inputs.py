"""Issue 21, sections 1 and 3: nothing a user types may exhaust the machine, and every bad
input is one line with exit code 2 (never a traceback), checked before any work."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from analyzer.config.loader import MAX_REPORTED, Problems
from analyzer.config.yaml_io import MAX_ALIAS_VALUES, MAX_FILE_BYTES, ConfigError, load_yaml
from analyzer.duels import MAX_DISTANCE, DuelOptions
from analyzer.errors import InputError
from analyzer.experiments.spec import MAX_CELLS, MAX_TRIALS, load_sweep
from analyzer.games.d20 import units as d20_units
from analyzer.games.degenesis import units as degenesis_units
from analyzer.games.heroscape import duel as heroscape_duel
from analyzer.games.heroscape import units as heroscape_units
from analyzer.paths import system_config
from tests.experiments.conftest import D20_DUEL, write_spec
from tests.test_roll_contract import run_cli

REPO = Path(__file__).resolve().parents[1]
D20_LISTS = REPO / "configs" / "d20" / "lists"
HEROSCAPE_FIELD = REPO / "configs" / "experiments" / "fields" / "heroscape_field.yaml"
HEROSCAPE_SPEC = REPO / "configs" / "experiments" / "heroscape_agent_cost.yaml"


def one_line_error(code: int, err: str, fragment: str) -> None:
    """Exit code 2, a single ``error:`` line holding ``fragment``, no traceback."""
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and fragment in lines[0], err


def copy_with(tmp_path: Path, source: Path, old: str, new: str, name: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


# ------------------------------------------------------------------ 1: distances
@pytest.mark.parametrize("distance", [float("nan"), float("inf"), -1.0, MAX_DISTANCE + 1, 1e9])
def test_duel_options_refuse_impossible_distances(distance):
    with pytest.raises(InputError, match="starting distance must be a number from 0 to"):
        DuelOptions(start="range", distance=distance)


@pytest.mark.parametrize("system", ["d20", "degenesis", "heroscape", "hybrid", "rapture"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e9"])
def test_every_system_refuses_nan_inf_and_huge_starts_in_one_line(system, value, capsys):
    code, _, err = run_cli(
        ["duel", system, "--a", "x", "--b", "y", "--start", f"range:{value}"], capsys
    )
    one_line_error(code, err, "--start range R")


def test_heroscape_bounds_the_distance_by_the_spaces_it_models(capsys):
    too_far = DuelOptions(start="range", distance=heroscape_units.MAX_SPACES + 1)
    with pytest.raises(InputError, match="starts at most 100 spaces apart"):
        heroscape_duel.start_distance(too_far)
    at_bound = DuelOptions(start="range", distance=heroscape_units.MAX_SPACES)
    assert heroscape_duel.start_distance(at_bound) == heroscape_units.MAX_SPACES
    code, _, err = run_cli(
        ["duel", "heroscape", "--a", "Gelryie Vanguards", "--b", "Agent SI-4X",
         "--start", "range:100000", "--trials", "10"],
        capsys,
    )  # fmt: skip
    one_line_error(code, err, "--start")


# ------------------------------------------------------------------ 1: YAML and file size
def test_an_alias_bomb_is_refused_at_once(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 9):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert path.stat().st_size < 600
    started = time.perf_counter()
    with pytest.raises(ConfigError, match=f"at most {MAX_ALIAS_VALUES:,} values may come from"):
        load_yaml(path)
    assert time.perf_counter() - started < 5


def test_a_few_aliases_stay_allowed(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("base: &b {defense: 3}\none: *b\ntwo: *b\n", encoding="utf-8")
    assert load_yaml(path) == {"base": {"defense": 3}, "one": {"defense": 3}, "two": {"defense": 3}}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("units: " + "[" * 20_000 + "]" * 20_000 + "\n", "nested too deeply"),
        ("units:\n" + "".join("  " * k + "- \n" for k in range(1, 80)), "nested too deeply"),
        ("name: a\x00b\n", "1: not YAML text: character #x0000 is not allowed"),
    ],
)
def test_deep_nesting_and_nul_bytes_are_one_config_error(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(ConfigError, match=message):
        load_yaml(path)
    assert time.perf_counter() - started < 5


def test_a_file_above_the_size_cap_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    with pytest.raises(ConfigError, match="file too large"):
        load_yaml(path)


def test_the_errors_reported_for_one_file_are_capped_and_the_rest_counted(tmp_path):
    problems = Problems(tmp_path / "f.yaml", None)
    for k in range(MAX_REPORTED + 7):
        problems.add([f"key{k}"], "wrong")
    with pytest.raises(ConfigError) as err:
        problems.raise_if_any()
    lines = str(err.value).splitlines()
    assert len(lines) == MAX_REPORTED + 1
    assert lines[-1].endswith("... and 7 more problems")


def test_a_list_with_thousands_of_bad_entries_prints_a_bounded_message(tmp_path, capsys):
    entries = "".join(f"  - {{unit: U{k}, count: 1, bad{k}: 1}}\n" for k in range(5000))
    path = tmp_path / "big_list.yaml"
    path.write_text(f"name: big\nsystem: d20\nunits:\n{entries}", encoding="utf-8")
    code, _, err = run_cli(
        ["compare", "d20", "--lists", str(path), str(D20_LISTS / "trooper_section.yaml"),
         "--matches", "2", "--out", str(tmp_path / "out")],
        capsys,
    )  # fmt: skip
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) <= MAX_REPORTED + 2
    assert "more problems" in err


# ------------------------------------------------------------------ 1: grid and trials
def test_a_grid_above_the_cell_cap_is_refused_before_planning(tmp_path):
    values = list(range(101))
    spec = D20_DUEL.replace(
        "  opponent: {kind: unit, role: b, values: [Trooper, Telekinesist]}",
        f"  power: {{kind: stat, unit: Telepath, field: power, values: {values}}}",
    ).replace("values: [17, 19], step: buff", f"values: {values}, step: buff")
    path = write_spec(tmp_path, spec)
    started = time.perf_counter()
    with pytest.raises(ConfigError, match=f"10,201 cells; a grid may have at most {MAX_CELLS:,}"):
        load_sweep(path)
    assert time.perf_counter() - started < 20


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("trials: 8192", "trials: 1000000000000000", "trials: Input should be less than"),
        ("seed: 11", "seed: 11\nprecision: {ci_half_width: 1.0e-300}", "ci_half_width"),
        ("seed: 11", "seed: 11\nprecision: {ci_half_width: .nan}", "ci_half_width"),
        ("seed: 11", "seed: 11\nprecision: {ci_half_width: 0.01, max_trials: 1.0e15}", "max_tr"),
    ],
)
def test_spec_trials_and_precision_are_bounded(tmp_path, old, new, message):
    path = write_spec(tmp_path, D20_DUEL.replace(old, new))
    with pytest.raises(ConfigError, match=message):
        load_sweep(path)
    assert MAX_TRIALS == 100_000_000


@pytest.mark.parametrize(
    ("option", "value", "fragment"),
    [
        ("--until-ci", "nan", "--until-ci must be a number"),
        ("--until-ci", "1e-300", "--until-ci must be a number"),
        ("--trials", str(10**12), "--trials must be between"),
        ("--worker-timeout", "nan", "--worker-timeout"),
        ("--chunk", "0", "--chunk must be between"),
    ],
)
def test_sweep_run_options_are_one_line(tmp_path, option, value, fragment, capsys):
    code, _, err = run_cli(
        ["sweep", str(HEROSCAPE_SPEC), option, value, "--out", str(tmp_path / "o")], capsys
    )
    one_line_error(code, err, fragment)


# ------------------------------------------------------------------ 1: card stats
@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("    life: 1\n", "    life: 100000\n", "life"),
        ("    figures: 3\n", "    figures: 1000\n", "figures"),
        ("    move: 5\n", "    move: 1000000\n", "move"),
        ("    range: 1\n", "    range: 1000000\n", "range"),
    ],
)
def test_heroscape_stats_that_size_arrays_are_bounded_in_the_card(tmp_path, old, new, field):
    path = copy_with(tmp_path, heroscape_units.UNITS_FILE, old, new, "units.yaml")
    with pytest.raises(ConfigError, match=rf"units\[0\]\.{field}: Input should be less than"):
        heroscape_units.load_units(path)


def test_degenesis_defense_is_bounded(tmp_path):
    source = system_config("degenesis", "units.yaml")
    text = source.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.strip().startswith("defense: "))
    path = copy_with(tmp_path, source, old, old.split(":")[0] + ": 1000000000", "units.yaml")
    with pytest.raises(ConfigError, match="defense: Input should be less than or equal to 40"):
        degenesis_units.load_units(path)


@pytest.mark.parametrize(
    ("count", "message"),
    [("true", "expected a number, got a boolean"), ("1000000", "less than or equal to 100")],
)
def test_army_list_counts_are_strict_bounded_integers(tmp_path, count, message):
    path = copy_with(
        tmp_path, D20_LISTS / "trooper_section.yaml", "count: 4", f"count: {count}", "list.yaml"
    )
    with pytest.raises(ConfigError, match=rf"units\[0\]\.count: .*{message}"):
        d20_units.load_list(path, d20_units.load_units())


# ------------------------------------------------------------------ 3: one line, exit 2
def test_a_file_of_another_system_is_said_once(tmp_path, capsys):
    heroscape_cards = str(heroscape_units.UNITS_FILE)
    code, _, err = run_cli(
        ["duel", "rapture", "--units", heroscape_cards, "--a", "x", "--b", "y"], capsys
    )
    one_line_error(code, err, "expected 'rapture', found 'heroscape' (a file of another system")


def _out_commands(out: Path) -> list[list[str]]:
    lists = [str(D20_LISTS / "chronos_strike_team.yaml"), str(D20_LISTS / "trooper_section.yaml")]
    return [
        ["value", "d20", "--trials", "64", "--out", str(out)],
        ["compare", "d20", "--lists", *lists, "--matches", "2", "--out", str(out)],
        ["sweep", str(HEROSCAPE_SPEC), "--out", str(out)],
        ["fair-cost", "heroscape", "--unit", "Agent SI-4X", "--field", str(HEROSCAPE_FIELD),
         "--out", str(out)],
    ]  # fmt: skip


@pytest.mark.parametrize("index", range(4), ids=["value", "compare", "sweep", "fair-cost"])
@pytest.mark.parametrize("where", ["under_a_file", "proc"])
def test_an_unwritable_output_folder_is_refused_before_the_work(tmp_path, where, index, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder", encoding="utf-8")
    out = blocker / "out" if where == "under_a_file" else Path("/proc/analyzer-out")
    started = time.perf_counter()
    code, _, err = run_cli(_out_commands(out)[index], capsys)
    one_line_error(code, err, f"--out {out}: cannot write there")
    assert time.perf_counter() - started < 20  # no duels or matches were run


def test_report_on_a_truncated_results_table_or_compare_json_is_one_line(tmp_path, capsys):
    sweep = tmp_path / "sweep"
    sweep.mkdir()
    (sweep / "results.parquet").write_bytes(b"PAR1" + bytes(50))
    code, _, err = run_cli(["report", str(sweep)], capsys)
    one_line_error(code, err, "results.parquet: cannot read it as a Parquet table")
    compare = tmp_path / "compare"
    compare.mkdir()
    (compare / "compare.json").write_text('{"names": ["a", ', encoding="utf-8")
    code, _, err = run_cli(["report", str(compare)], capsys)
    one_line_error(code, err, "compare.json: cannot read it as JSON")


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["fair-cost", "heroscape", "--unit", "Agent SI-4X", "--field", str(HEROSCAPE_FIELD),
          "--start", "range:nan"], "--start range R"),
        (["fair-cost", "heroscape", "--unit", "Agent SI-4X", "--field", str(HEROSCAPE_FIELD),
          "--max-rounds", "0"], "--max-rounds must be >= 1"),
        (["fair-cost", "heroscape", "--unit", "Agent SI-4X", "--field", str(HEROSCAPE_FIELD),
          "--low", "100", "--high", "10"], "--high must be above --low"),
        (["compare", "d20", "--lists", str(D20_LISTS / "chronos_strike_team.yaml"),
          str(D20_LISTS / "trooper_section.yaml"), "--threads", "0"], "--threads must be >= 1"),
        (["sweep", str(HEROSCAPE_SPEC), "--scheduler", "garbage"], "--scheduler must be a Dask"),
    ],
)  # fmt: skip
def test_the_issue_s_option_mistakes_are_one_line_before_any_work(argv, fragment, tmp_path, capsys):
    out = tmp_path / "out"
    code, _, err = run_cli([*argv, "--out", str(out)], capsys)
    one_line_error(code, err, fragment)
    assert not out.exists()  # nothing was started, not even an empty results folder


def test_a_sweep_of_one_system_on_another_s_cards_is_said_once(tmp_path, capsys):
    text = HEROSCAPE_SPEC.read_text(encoding="utf-8")
    text = text.replace("system: heroscape", "system: rapture").replace(
        "units: configs/heroscape/units.yaml", f"units: {heroscape_units.UNITS_FILE}"
    )
    spec = write_spec(tmp_path, text)
    code, _, err = run_cli(["sweep", str(spec), "--out", str(tmp_path / "out")], capsys)
    one_line_error(code, err, "system: expected 'rapture', found 'heroscape'")
