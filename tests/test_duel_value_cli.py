"""`analyzer duel` and `analyzer value` end to end (on the d20 sample cards: fast duels)."""

from __future__ import annotations

import json

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest

from analyzer.analysis.duel import load_units
from analyzer.analysis.value import FIELD, value_table
from tests.test_roll_contract import run_cli


def test_duel_json_reports_exact_and_mc_with_se(capsys):
    code, out, err = run_cli(
        [
            "duel",
            "d20",
            "--a",
            "Chronos SU",
            "--b",
            "Genetic SU",
            "--trials",
            "40000",
            "--seed",
            "5",
            "--format",
            "json",
        ],
        capsys,
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["trials"] == 40000 and doc["options"]["first"] == "alternate"
    total_exact = doc["win_a"]["exact"] + doc["win_b"]["exact"] + doc["draw"]["exact"]
    assert total_exact == pytest.approx(1, abs=1e-9)
    for key in ("win_a", "win_b", "draw", "rounds", "health_a", "health_b"):
        est = doc[key]
        assert abs(est["mc"] - est["exact"]) <= 5 * est["se"] + 1e-9, key


def test_duel_start_range_distance_is_parsed(capsys):
    code, out, _ = run_cli(
        [
            "duel",
            "d20",
            "--a",
            "Telepath",
            "--b",
            "Trooper",
            "--start",
            "range",
            "40",
            "--trials",
            "1000",
            "--format",
            "json",
        ],
        capsys,
    )
    assert code == 0
    assert json.loads(out)["options"] == {
        "start": "range",
        "distance": 40.0,
        "first": "alternate",
        "max_rounds": 12,
    }


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["duel", "d20", "--a", "Nobody", "--b", "Trooper"], "unknown unit 'Nobody'"),
        (["duel", "d20", "--a", "Telepath", "--b", "Trooper", "--start", "far"], "--start"),
        (["duel", "d20", "--a", "Telepath", "--b", "Trooper", "--first", "c"], "--first"),
        (
            ["duel", "d20", "--a", "Telepath", "--b", "Trooper", "--start", "ranged", "12"],
            "--start must be 'melee' or 'range R' (got 'ranged 12')",
        ),
        (  # a near miss is named, and names with commas stay readable
            ["duel", "heroscape", "--a", "Agent SI-4", "--b", "Scarlett"],
            "did you mean 'Agent SI-4X'? (units: 'Gelryie Vanguards'; 'Agent SI-4X'; "
            "'Cainak, Private Eye';",
        ),
    ],
)
def test_duel_bad_input_is_one_line(argv, fragment, capsys):
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err


def test_bad_units_file_lists_every_problem(tmp_path, capsys):
    path = tmp_path / "units.yaml"
    path.write_text("system: d20\nunits:\n  - name: X\n    points: -3\n    bogus: 1\n")
    code, _, err = run_cli(["duel", "d20", "--units", str(path), "--a", "X", "--b", "X"], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) >= 2
    assert all(line.startswith(f"error: {path}:") or line.startswith(f"{path}:") for line in lines)
    assert any(":4: units[0].points:" in line for line in lines)
    assert any(":5: units[0].bogus: unknown key" in line for line in lines)


def test_value_table_is_tidy_and_consistent():
    cards = load_units("d20")
    names = ["Chronos SU", "Genetic SU", "Trooper"]
    subset = {n: cards[n] for n in names}
    table = value_table("d20", subset, None, trials=4000, seed=3)
    assert {
        "system",
        "unit",
        "opponent",
        "metric",
        "n",
        "estimate",
        "se",
        "ci_low",
        "ci_high",
        "exact",
        "seed",
        "analyzer_version",
        "numba_version",
        "numpy_version",
    } <= set(table)
    pairs = table[table["opponent"] != FIELD]
    assert len(pairs) == 3 * 2 * 7  # units x opponents x metrics
    win = pairs[pairs["metric"] == "duel_win_rate"].set_index(["unit", "opponent"])["estimate"]
    draw = pairs[pairs["metric"] == "duel_draw_rate"].set_index(["unit", "opponent"])["estimate"]
    for u in names:
        for v in names:
            if u != v:  # one duel serves both directions
                assert win[(u, v)] + win[(v, u)] + draw[(u, v)] == pytest.approx(1, abs=1e-12)
    vpp = table[(table["opponent"] == FIELD) & (table["metric"] == "value_per_point")]
    vidx = table[(table["opponent"] == FIELD) & (table["metric"] == "value_index")]
    for u in names:
        got = vpp[vpp["unit"] == u]["estimate"].item()
        assert got == pytest.approx(vidx[vidx["unit"] == u]["estimate"].item() / cards[u].points)
    assert (table["ci_low"] <= table["estimate"]).all() and (
        table["estimate"] <= table["ci_high"]
    ).all()


def test_value_command_writes_table_and_charts(tmp_path, capsys):
    field = tmp_path / "field.yaml"
    field.write_text("system: d20\nopponents: [Trooper, Telepath]\n")
    code, out, err = run_cli(
        ["value", "d20", "--field", str(field), "--out", str(tmp_path / "o"), "--trials", "2000"],
        capsys,
    )
    assert code == 0, err
    assert "value/pt" in out
    table = pd.read_parquet(tmp_path / "o" / "value.parquet")
    assert set(table["rules_hash"]) and table["rules_hash"].str.len().eq(16).all()
    assert set(table[table["opponent"] != FIELD]["opponent"]) == {"Trooper", "Telepath"}
    for chart in ("value_per_point.png", "duel_heatmap.png", "cost_vs_value.png"):
        image = mpimg.imread(tmp_path / "o" / chart)
        assert image.shape[0] > 200 and image.shape[1] > 200 and np.std(image) > 0


def test_value_field_file_with_unknown_unit(tmp_path, capsys):
    field = tmp_path / "field.yaml"
    field.write_text("system: d20\nopponents:\n  - Trooper\n  - Nobody\n")
    code, _, err = run_cli(["value", "d20", "--field", str(field), "--out", str(tmp_path)], capsys)
    assert code == 2 and f"{field}:4: opponents[1]: unknown unit 'Nobody'" in err
