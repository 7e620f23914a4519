"""Robustness under two AI strengths: Kendall tau, verdict flips, the skill ladder."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.meta.analysis import PairCounts, analyze_meta
from analyzer.meta.robustness import compare_policies, kendall_tau, skill_ladder, verdicts
from tests.experiments import fake_match
from tests.meta.report_check import rendered

REPO = Path(__file__).resolve().parents[2]
D20_LISTS = sorted((REPO / "configs" / "d20" / "lists").glob("*.yaml"))


def counts_of(score: np.ndarray, n: int) -> PairCounts:
    k = len(score)
    off = 1 - np.eye(k)
    return PairCounts([f"L{i}" for i in range(k)], score * n * off, np.full((k, k), n) * off)


def ranking(strengths: list[float]) -> np.ndarray:
    s = np.array(strengths)
    return 1 / (1 + np.exp(-(s[:, None] - s[None, :])))


def test_kendall_tau():
    assert kendall_tau(np.array([1, 2, 3]), np.array([10, 20, 30])) == pytest.approx(1.0)
    assert kendall_tau(np.array([1, 2, 3]), np.array([3, 2, 1])) == pytest.approx(-1.0)


def test_same_ranking_no_flips_and_a_reversed_ranking_flips():
    weak = counts_of(ranking([1.0, 0.0, -1.0, -2.0]), 5000)
    same = counts_of(ranking([1.5, 0.2, -0.8, -2.5]), 5000)
    flipped = counts_of(ranking([-2.0, -1.0, 0.0, 1.0]), 5000)
    mw, ms, mf = (analyze_meta(c, resamples=100, seed=1) for c in (weak, same, flipped))
    r = compare_policies(("greedy", weak, mw), ("strong", same, ms), resamples=100)
    assert r.tau == pytest.approx(1.0) and r.tau_ci[0] > 0.6 and r.flips == []
    r = compare_policies(("greedy", weak, mw), ("strong", flipped, mf), resamples=100)
    assert r.tau == pytest.approx(-1.0) and r.tau_ci[1] < -0.6
    assert r.flips == ["L0", "L3"]  # the best list becomes exploitable and vice versa
    assert verdicts(mw) == ["in support", "exploitable", "exploitable", "exploitable"]


def exact_fake_score(a: int, b: int, bonus: int) -> float:
    """FakeEngine: A's score, first player alternating (one extra face for the first)."""
    total = 0.0
    for extra in (0, 1):
        faces = a + b + extra + bonus + 1
        total += ((a + extra + bonus) + 0.5) / faces / 2
    return total


def test_skill_ladder_against_exact_scores(monkeypatch):
    fake_match.plug_in(monkeypatch)
    engine = fake_match.ENGINE
    cards, _ = engine.load_cards(None)
    lists = [engine.load_list(p, cards) for p in D20_LISTS]
    ladder = skill_ladder("d20", cards, lists, ["random", "greedy"], "greedy", 2000, seed=4,
                          options={"first": "alternate"})  # fmt: skip
    pts = [fake_match._points(cards, x) for x in lists]
    pairs = [(i, j) for i in range(3) for j in range(3) if i != j]
    for policy, score, se in zip(ladder.policies, ladder.scores, ladder.se):
        bonus = 3 if policy == "greedy" else 0
        exact = np.mean([exact_fake_score(pts[i], pts[j], bonus) for i, j in pairs])
        assert abs(score - exact) < 5 * se, (policy, score, exact)
    skill, skill_se = ladder.skill()
    assert 0 < skill < 1 and skill_se > 0
    table = ladder.table()
    assert (table["ci_low"] < table["score_vs_greedy"]).all()


def test_cli(monkeypatch, tmp_path, capsys):
    from analyzer.cli import main

    fake_match.plug_in(monkeypatch)
    out = tmp_path / "rob"
    main(["robustness", "d20", "--lists", *map(str, D20_LISTS), "--weak", "random",
          "--strong", "greedy", "--matches", "200", "--strong-matches", "200",
          "--ladder-matches", "50", "--resamples", "50", "--first", "alternate",
          "--out", str(out)])  # fmt: skip
    text = capsys.readouterr().out
    assert "Kendall tau" in text and "skill score" in text
    data = json.loads((out / "robustness.json").read_text())
    assert data["policies"] == ["random", "greedy"] and "skill_score" in data
    assert (out / "meta-greedy" / "meta.json").exists()
    rendered(
        out,
        "Robustness of d20 under random and greedy",
        "Kendall tau",
        "Skill score",
        "Skill ladder (side A's policy against random",
        "verdict greedy",
        charts=("robustness_ratings", "robustness_ladder"),
    )
    with pytest.raises(SystemExit):
        main(["robustness", "d20", "--strong", "bogus", "--lists", str(D20_LISTS[0])])
    assert "bogus" in capsys.readouterr().err


def test_value_without_a_duel_policy_says_so(tmp_path, capsys):
    from analyzer.cli import main

    main(["robustness", "d20", "--check", "value", "--out", str(tmp_path)])
    assert "no policy dependence" in capsys.readouterr().out
    data = json.loads((tmp_path / "robustness_value.json").read_text())
    assert data["policy_dependence"] is False
    assert rendered(tmp_path, "no policy dependence")


def test_value_under_two_duel_rules(tmp_path, capsys):
    from analyzer.cli import main

    main(["robustness", "d20", "--check", "value", "--trials", "300", "--weak-opt",
          "shoot_in_hth=false", "--strong-opt", "shoot_in_hth=true", "--out",
          str(tmp_path)])  # fmt: skip
    assert "Kendall tau" in capsys.readouterr().out
    data = json.loads((tmp_path / "robustness_value.json").read_text())
    lo, hi = data["kendall_tau_ci95"]
    assert -1 <= lo <= hi <= 1 and data["policies"] == ["shoot_in_hth=False", "shoot_in_hth=True"]
    assert len(data["units"]) >= 2
    rendered(tmp_path, "value per point under shoot_in_hth=False and under shoot_in_hth=True")


def test_value_robustness_of_identical_tables_is_perfect():
    from analyzer.analysis.duel import load_units
    from analyzer.analysis.value import value_table
    from analyzer.meta.robustness import value_robustness

    cards = load_units("d20")
    table = value_table("d20", cards, None, 200, 5)
    result = value_robustness((table, table), cards, ("a", "b"), 100, 1)
    assert result.tau == pytest.approx(1.0) and result.flips == []
    assert result.tau_ci[1] == pytest.approx(1.0)


def test_fair_cost_under_two_policies(monkeypatch, tmp_path, capsys):
    from analyzer.cli import main

    fake_match.plug_in(monkeypatch)
    field = tmp_path / "field.yaml"
    field.write_text("system: d20\nlists: [configs/d20/lists/trooper_section.yaml, "
                     "configs/d20/lists/genetic_hunters.yaml]\n")  # fmt: skip
    out = tmp_path / "rob"
    main(["robustness", "d20", "--check", "fair-cost", "--unit", "Trooper", "--field",
          str(field), "--weak", "random", "--strong", "greedy", "--trials", "512",
          "--opt", "cheap_wins=1", "--out", str(out)])  # fmt: skip
    text = capsys.readouterr().out
    assert "Trooper under random" in text and "the verdict survives" in text
    data = json.loads((out / "robustness_fair_cost.json").read_text())
    weak, strong = data["rows"]
    # cheap_wins: the policy does not enter the stand-in, so both searches agree exactly
    assert weak["fair_cost"] == strong["fair_cost"] and data["verdict_flips"] is False
    assert weak["ci_low"] < weak["fair_cost"] < weak["ci_high"]
    rendered(out, "Trooper", "survives")
    with pytest.raises(SystemExit) as exit_info:
        main(["robustness", "d20", "--check", "fair-cost", "--unit", "Trooper"])
    assert exit_info.value.code == 2
    assert "needs --unit and --field" in capsys.readouterr().err
