"""``analyzer compare``: round robin, ratings, stored pairings and resume, report, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.analysis import compare as cmp
from analyzer.cli import main
from analyzer.errors import InputError
from analyzer.reporting.html import build_report

LISTS = Path(__file__).resolve().parents[1] / "configs" / "rapture" / "lists"
THREE = [LISTS / f for f in ("angels_vanguard.yaml", "icnun_raiders.yaml", "survivors_patrol.yaml")]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("compare")


@pytest.fixture(scope="module")
def result(folder):
    return cmp.compare_lists("rapture", THREE, 96, 3, out_dir=folder)


def test_round_robin_counts_add_up(result):
    assert len(result.pairs) == 3
    for p in result.pairs:
        assert p.a_wins + p.b_wins + p.draws == p.matches == 96
        assert p.first_wins + p.first_losses == p.a_wins + p.b_wins
    for i in range(3):
        for j in range(3):
            if i != j:
                assert result.score(i, j)[0] + result.score(j, i)[0] == pytest.approx(1)
    table = result.pair_table()
    assert len(table) == 6
    assert (table.wins + table.draws + table.losses == table.matches).all()
    assert ((table.ci_low <= table.score) & (table.score <= table.ci_high)).all()


def test_ratings_order_follows_the_scores(result):
    """Bradley-Terry strengths rank lists as their total scores do (centred at 0)."""
    totals = [sum(result.score(i, j)[0] for j in range(3) if j != i) for i in range(3)]
    assert np.argsort(totals).tolist() == np.argsort(result.strength).tolist()
    assert abs(result.strength.sum()) < 1e-9
    assert (result.strength_se > 0).all()


def test_finished_pairings_are_reused_and_changes_replay(result, folder, monkeypatch):
    played = []
    real = cmp._play_pair

    def spy(engine, i, j, run):
        played.append((i, j))
        return real(engine, i, j, run)

    monkeypatch.setattr(cmp, "_play_pair", spy)
    again = cmp.compare_lists("rapture", THREE, 96, 3, out_dir=folder)
    assert played == []
    assert again.to_dict() == result.to_dict()
    # a different seed is a different run: every pairing is played
    cmp.compare_lists("rapture", THREE[:2], 96, 4, out_dir=folder)
    assert played == [(0, 1)]


def test_outputs_and_report(result, folder):
    written = cmp.write_comparison(result, folder)
    assert all(Path(p).exists() for p in written.values())
    report = build_report(folder)
    assert report.title == "Army list comparison"
    assert any("rated strongest" in f.text for f in report.findings)
    assert {c["file"] for c in report.charts} >= {"compare_matrix.png", "compare_ratings.png"}


def test_bad_input_is_a_clear_error(tmp_path, monkeypatch):
    from analyzer import games

    with pytest.raises(InputError, match="at least two"):
        cmp.compare_lists("rapture", THREE[:1], 10, 1)
    with pytest.raises(InputError, match="no such army list"):
        cmp.compare_lists("rapture", [THREE[0], tmp_path / "missing.yaml"], 10, 1)
    hybrid = Path(__file__).resolve().parents[1] / "configs" / "hybrid" / "lists"
    with monkeypatch.context() as patch:  # a registry in which hybrid has no engine yet
        patch.setattr(games, "MATCH_ENGINES", {"rapture": games.MATCH_ENGINES["rapture"]})
        with pytest.raises(InputError, match=r"hybrid: no match engine yet \(available: rapture"):
            cmp.compare_lists("hybrid", sorted(hybrid.glob("*.yaml"))[:2], 10, 1)
    with pytest.raises(InputError, match=r"unknown rapture match option\(s\)"):
        cmp.compare_lists("rapture", THREE[:2], 10, 1, options={"bogus": 1})


def test_cli_json(tmp_path, capsys):
    """``--lists A B`` (several files after one option) and JSON output."""
    main(["compare", "rapture", "--lists", *map(str, THREE[:2]), "--matches", "32",
          "--first", "alternate", "--out", str(tmp_path), "--format", "json"])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["lists"] == ["Angels Vanguard", "Icnun Raiders"]
    assert data["options"]["first"] == "alternate"
    assert data["pairs"][0]["matches"] == 32
    assert (tmp_path / "compare_pairs.parquet").exists()
