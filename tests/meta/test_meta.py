"""``analyzer meta``: posterior resampling, tables, findings, the CLI and the report."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.cli import main
from analyzer.errors import InputError
from analyzer.meta.analysis import PairCounts, analyze_meta, counts_from_pairs
from analyzer.reporting.html import build_report
from tests.experiments.fake_match import plug_in

REPO = Path(__file__).resolve().parents[2]
D20_LISTS = sorted((REPO / "configs" / "d20" / "lists").glob("*.yaml"))


def counts_of(score: np.ndarray, n: int) -> PairCounts:
    k = len(score)
    return PairCounts([f"L{i}" for i in range(k)], score * n * (1 - np.eye(k)),
                      np.full((k, k), float(n)) * (1 - np.eye(k)))  # fmt: skip


def test_rock_paper_scissors_with_many_matches():
    """A near-exact RPS-like matrix: every list in the support, weights near 1/3."""
    s = np.array([[0.5, 0.3, 0.7], [0.7, 0.5, 0.3], [0.3, 0.7, 0.5]])
    meta = analyze_meta(counts_of(s, 100_000), resamples=200, seed=1)
    table = meta.list_table().set_index("list")
    assert (table["support_probability"] == 1.0).all()
    assert (table["weight_ci_low"] < 1 / 3).all() and (table["weight_ci_high"] > 1 / 3).all()
    assert (table["weight_ci_high"] - table["weight_ci_low"] < 0.05).all()
    assert meta.decomposition.cyclic_share == pytest.approx(1.0)
    lo, hi = meta.cyclic_ci()
    assert 0.999 < lo <= hi <= 1.0


def test_a_clearly_weak_list_is_exploitable_and_out_of_the_support():
    s = np.array([[0.5, 0.3, 0.7, 0.8], [0.7, 0.5, 0.3, 0.8], [0.3, 0.7, 0.5, 0.8],
                  [0.2, 0.2, 0.2, 0.5]])  # fmt: skip
    meta = analyze_meta(counts_of(s, 2000), resamples=200, seed=2)
    table = meta.list_table().set_index("list")
    assert table.loc["L3", "support_probability"] == 0.0
    assert bool(table.loc["L3", "exploitable"])
    assert table.loc["L3", "score_vs_nash"] == pytest.approx(0.2)
    assert any("L3" in f and "Exploitable" in f for f in meta.summary()["findings"])


def test_few_matches_give_wide_intervals_and_same_seed_same_numbers():
    s = np.array([[0.5, 0.55, 0.45], [0.45, 0.5, 0.55], [0.55, 0.45, 0.5]])
    a = analyze_meta(counts_of(s, 20), resamples=300, seed=5)
    b = analyze_meta(counts_of(s, 20), resamples=300, seed=5)
    np.testing.assert_array_equal(a.weights, b.weights)
    support = a.support_probability()
    assert (support > 0.2).all() and (support < 1.0).all()


def test_counts_from_pairs_and_missing_pairs():
    pairs = [{"i": 0, "j": 1, "matches": 10, "a_wins": 6, "b_wins": 2, "draws": 2}]
    c = counts_from_pairs(["A", "B"], pairs)
    assert c.score[0, 1] == pytest.approx(0.7) and c.score[1, 0] == pytest.approx(0.3)
    with pytest.raises(InputError, match="no matches between A and C"):
        counts_from_pairs(["A", "B", "C"], pairs)


def test_cli_plays_the_round_robin_and_report(tmp_path, monkeypatch, capsys):
    plug_in(monkeypatch)
    out = tmp_path / "meta"
    args = ["meta", "d20", "--lists", *map(str, D20_LISTS), "--matches", "400",
            "--first", "alternate", "--resamples", "50", "--out", str(out)]  # fmt: skip
    main(args)
    text = capsys.readouterr().out
    assert "equilibrium support" in text and "Cyclic" in text
    for name in ("meta_lists.parquet", "meta_dynamics.csv", "meta.json", "compare.json",
                 "charts/meta_weights.png", "charts/meta_dynamics.png"):  # fmt: skip
        assert (out / name).exists(), name
    data = json.loads((out / "meta.json").read_text())
    assert sum(data["max_entropy_nash"].values()) == pytest.approx(1.0)
    # --from the same folder gives the same numbers (the pairings are stored)
    main(["meta", "--from", str(out), "--resamples", "50", "--format", "json"])
    again = json.loads(capsys.readouterr().out)
    assert again["max_entropy_nash"] == data["max_entropy_nash"]
    report = build_report(out)
    assert report.title == "Meta of army lists"
    assert any("Nash meta" in s.title for s in report.sections)
    assert any("equilibrium support" in f.text for f in report.findings)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["meta"], "give SYSTEM and at least two --lists"),
        (["meta", "--from", "nowhere"], "nowhere: no compare.json"),
        (["meta", "nosuch", "--lists", "a", "--lists", "b"], "nosuch: no match engine"),
        (["meta", "--from", "x", "--lists", "a"], "not both"),
        (["meta", "--from", "x", "--resamples", "3"], "--resamples must be between"),
    ],
)
def test_bad_input_is_one_line(args, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
