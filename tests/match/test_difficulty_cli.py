"""``analyzer difficulty SYSTEM``: the mission-difficulty report of a co-operative system
through the main command line (Degenesis), and its one-line errors."""

from __future__ import annotations

import json

import pytest

from tests.test_roll_contract import run_cli as run


def test_difficulty_writes_table_chart_and_json(tmp_path, capsys) -> None:
    argv = ["difficulty", "degenesis", "--out", str(tmp_path), "--matches", "16"]
    code, out, err = run([*argv, "--mission", "spider_hunt", "--step", "5"], capsys)
    assert code == 0, err
    assert "fair HOSTILE size (50% success) spider_hunt / " in out
    saved = json.loads((tmp_path / "difficulty.json").read_text())
    assert {c["mission"] for c in saved["cells"]} == {"spider_hunt"}
    assert all(c["n"] == 16 for c in saved["cells"])
    assert (tmp_path / "difficulty.png").read_bytes()[:4] == b"\x89PNG"


def test_python_m_entry_point_is_the_same_command(tmp_path, capsys) -> None:
    from analyzer.games.degenesis.match import difficulty

    with pytest.raises(SystemExit) as stop:
        difficulty.main([str(tmp_path), "--matches", "0"])
    assert stop.value.code == 2
    assert "--matches" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--mission", "no_such_mission"], "no_such_mission"),
        (["--step", "0"], "--step"),
        (["--roster", "missing_roster.yaml"], "missing_roster.yaml"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, extra, named) -> None:
    code, _, err = run(["difficulty", "degenesis", "--out", str(tmp_path), *extra], capsys)
    assert code == 2
    assert named in err and len(err.strip().splitlines()) == 1


def test_a_system_without_missions_is_refused(tmp_path, capsys) -> None:
    code, _, err = run(["difficulty", "rapture", "--out", str(tmp_path)], capsys)
    assert code == 2 and "degenesis" in err
