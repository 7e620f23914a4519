"""``analyzer match --out``: tidy per-match and per-unit tables, the summary, its report."""

from __future__ import annotations

import json

import pandas as pd

from analyzer import paths
from analyzer.games import match_engine
from analyzer.match import prepare, result_of
from analyzer.match.output import write_match_folder
from analyzer.match.runner import run_records
from analyzer.reporting.html import render_report


def test_match_folder_tables_agree_with_the_summary_and_render(tmp_path) -> None:
    lists = sorted(paths.system_config("d20", "lists").glob("*.yaml"))
    setup = prepare("d20", lists[0], lists[1], policies=("greedy", "random"), options={})
    engine = match_engine("d20")
    rec, urec = run_records(engine, setup, 60, 11)
    result = result_of("d20", setup, rec, urec, 11)
    written = write_match_folder(engine, setup, result, rec, urec, tmp_path)
    matches = pd.read_parquet(tmp_path / "matches.parquet")
    units = pd.read_csv(tmp_path / "units.csv")
    doc = json.loads((tmp_path / "match.json").read_text())
    assert len(matches) == 60 and list(matches["match"]) == list(range(60))
    assert int((matches["winner"] == 1).sum()) == doc["results"]["a_wins"]["count"]
    assert set(matches["end_reason"]) <= set(engine.end_reasons)
    assert len(units) == 60 * len(setup.units)
    first = units.iloc[0 :: len(setup.units)]  # unit 0 of every match
    survived = (first["status"] == 0).mean()
    assert abs(survived - doc["units"][0]["survival"]["rate"]) < 1e-12
    assert written["summary"].name == "match.json"
    html = render_report(tmp_path, tmp_path / "report.html").read_text(encoding="utf-8")
    assert "d20 matches:" in html and "95% Wilson CIs" in html and "How the matches ended" in html


def test_match_out_writes_the_folder_and_a_bad_folder_is_one_line(tmp_path, capsys) -> None:
    from tests.test_roll_contract import run_cli

    lists = sorted(paths.system_config("d20", "lists").glob("*.yaml"))
    args = ["match", "d20", "--list-a", str(lists[0]), "--list-b", str(lists[1]), "--matches", "20"]
    code, _, err = run_cli([*args, "--out", str(tmp_path / "m")], capsys)
    assert code == 0 and "match.json" in err
    assert len(pd.read_csv(tmp_path / "m" / "matches.csv")) == 20
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run_cli([*args, "--out", str(blocker / "m")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--out" in err
