"""Output formats: z-scores against exact values, cumulative odds, tidy CSV, value JSON."""

from __future__ import annotations

import csv
import io
import json

import pytest

from analyzer.dice.mechanic import mc_z
from analyzer.reporting.tables import Z_FLAG, agreement_line
from tests.test_roll_contract import run_cli


def test_z_is_the_distance_in_standard_errors() -> None:
    assert mc_z(0.5, 0.52, 0.01) == pytest.approx(2.0)
    assert mc_z(None, 0.5, 0.1) is None and mc_z(0.5, None, None) is None
    assert mc_z(0.0, 0.0, 0.0) == 0.0
    assert mc_z(2e-4, 0.0, 0.0) is None  # too rare to be seen: no usable SE


def test_agreement_line_names_a_real_disagreement() -> None:
    assert "agrees" in agreement_line([("a", 1.0), ("b", -2.5), ("c", None)])
    line = agreement_line([("a", 1.0), ("wins", Z_FLAG + 0.5)])
    assert "wins" in line and "differs" in line and "+4.5 SE" in line
    assert agreement_line([("a", None)]) == ""


def test_roll_table_shows_cumulative_odds_and_the_check(capsys) -> None:
    args = ["roll", "heroscape", "attack", "--attack", "3", "--defense", "1", "--trials", "4000"]
    code, out, _ = run_cli(args, capsys)
    assert code == 0 and "at least: exact" in out and "check: Monte Carlo agrees" in out
    first = next(line for line in out.splitlines() if line.strip().startswith("0 "))
    assert first.split()[5] == "1.000000"  # P(X >= 0) = 1


def test_roll_csv_keeps_parameters_events_and_cumulative_rows(capsys) -> None:
    args = ["roll", "heroscape", "attack", "--attack", "3", "--defense", "1", "--trials", "500"]
    code, out, _ = run_cli([*args, "--format", "csv"], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and {row["attack"] for row in rows} == {"3"}
    kinds = {row["quantity"] for row in rows}
    assert {"P(X=k)", "P(X>=k)", "mean", "p_wound"} <= kinds
    cumulative = [float(r["exact"]) for r in rows if r["quantity"] == "P(X>=k)"]
    exact = [float(r["exact"]) for r in rows if r["quantity"] == "P(X=k)"]
    assert cumulative == pytest.approx([sum(exact[k:]) for k in range(len(exact))])


def test_duel_csv_is_tidy(capsys) -> None:
    args = ["duel", "d20", "--a", "Brute", "--b", "Trooper", "--trials", "1000", "--format", "csv"]
    code, out, _ = run_cli(args, capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["quantity"] for r in rows][:3] == ["win_a", "win_b", "draw"]
    win_a, win_b = (float(rows[i]["exact"]) for i in (0, 1))
    assert win_a + win_b + float(rows[2]["exact"]) == pytest.approx(1.0)


def test_value_json_has_cis_per_unit(capsys, tmp_path) -> None:
    args = ["value", "d20", "--trials", "500", "--out", str(tmp_path), "--format", "json"]
    code, out, _ = run_cli(args, capsys)
    doc = json.loads(out)
    assert code == 0 and doc["files"]
    unit = doc["units"][0]["value_per_point"]
    low, high = unit["ci95"]
    assert low < unit["estimate"] < high and unit["se"] > 0
