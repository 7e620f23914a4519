"""``analyzer build-list``: legality by the system's rules, racing, exhaustive vs local."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.meta.arena import Arena
from analyzer.meta.build import build_list, card_points, enumerate_keys, key_points
from tests.meta import stand_in
from tests.meta.report_check import rendered

REPO = Path(__file__).resolve().parents[2]
D20 = REPO / "configs" / "d20" / "lists"
TEMPLATE = D20 / "chronos_strike_team.yaml"  # max_points 100, max_figurines 5, max_copies 2


@pytest.fixture
def arena(monkeypatch):
    stand_in.plug_in(monkeypatch)
    return Arena("d20", options={"mode": 0})


def field_of(arena):
    cards, _ = arena.engine.load_cards(None)
    lists = [arena.engine.load_list(p, cards) for p in sorted(D20.glob("*.yaml"))]
    return cards, lists


def knapsack_best(cards, points):
    """The exact optimum: the legal d20 list of largest planted value (unique cards once,
    other cards at most twice, at most 5 figurines, within the points)."""
    costs = card_points(cards)
    best = (0, ())
    for key in enumerate_keys(costs, points, 0, 2):
        if any(c > 1 and cards[n].unique for n, c in key) or sum(c for _, c in key) > 5:
            continue
        best = max(best, (sum(stand_in.VALUES[n] * c for n, c in key), key))
    return best


def test_exhaustive_search_finds_the_planted_optimum(arena):
    cards, field = field_of(arena)
    result = build_list(arena, cards, field, np.ones(len(field)), template=TEMPLATE,
                        points=100, min_points=60, search="exhaustive", final=2048,
                        seed=3)  # fmt: skip
    value, _ = knapsack_best(cards, 100)
    top = result.best[0]
    # ties in value are ties in the game: compare values, not keys
    assert sum(stand_in.VALUES[n] * c for n, c in top.key) == value
    assert key_points(top.key, result.costs) <= 100
    table = result.table()
    assert table.loc[0, "ci_low"] <= table.loc[0, "score"] <= table.loc[0, "ci_high"]
    assert result.matches == arena.spent > 0
    # racing: far fewer matches than every legal list at the full count
    assert result.matches < 0.5 * result.legal * len(field) * 2048


def test_local_search_reaches_the_exhaustive_optimum_for_fewer_matches(monkeypatch):
    stand_in.plug_in(monkeypatch)
    runs = {}
    for search in ("exhaustive", "local"):
        arena = Arena("d20", options={"mode": 0})
        cards, field = field_of(arena)
        runs[search] = build_list(arena, cards, field, np.ones(len(field)),
                                  template=TEMPLATE, points=100, min_points=0, search=search,
                                  final=1024, seed=5)  # fmt: skip
    ex, loc = runs["exhaustive"], runs["local"]
    value = lambda key: sum(stand_in.VALUES[n] * c for n, c in key)  # noqa: E731
    assert value(loc.best[0].key) == value(ex.best[0].key) == knapsack_best(cards, 100)[0]
    assert loc.matches < ex.matches and loc.steps >= 1


def test_illegal_lists_are_never_candidates(arena):
    cards, field = field_of(arena)
    result = build_list(arena, cards, field[:1], np.ones(1), template=TEMPLATE, points=100,
                        min_points=90, search="exhaustive", keep=50, first=8, final=8)  # fmt: skip
    for c in result.best:
        assert sum(n for _, n in c.key) <= 5
        assert all(n == 1 for u, n in c.key if cards[u].unique)


def test_cli_counter_and_outputs(monkeypatch, tmp_path, capsys):
    from analyzer.cli import main

    stand_in.plug_in(monkeypatch)
    out = tmp_path / "build"
    main(["build-list", "d20", "--counter", str(D20 / "trooper_section.yaml"), "--points", "100",
          "--template", str(TEMPLATE), "--search", "local", "--first-matches", "16",
          "--final-matches", "256", "--out", str(out)])  # fmt: skip
    text = capsys.readouterr().out
    assert "matches spent" in text and "best list" in text
    for name in ("build_lists.parquet", "build_lists.csv", "build.json", "best_list.yaml"):
        assert (out / name).exists()
    # the best list is a valid list of the system
    cards, _ = stand_in.ENGINE.load_cards(None)
    built = stand_in.ENGINE.load_list(out / "best_list.yaml", cards)
    assert stand_in.cost(cards, built) <= 100
    best = json.loads((out / "build.json").read_text())["top"][0]
    rendered(
        out,
        "List builder (d20, at most 100 points)",
        f"The best list found is {best['list']}",
        "Best lists (score against the field",
        "matches spent",
        charts=("build_top",),
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--points", "100"], "exactly one of --field"),
        (["--points", "0", "--counter", "x.yaml"], "--points must be between"),
        (["--points", "100", "--counter", "nowhere.yaml"], "nowhere.yaml: no such army list"),
        (["--points", "100", "--nash", "nowhere"], "nowhere: no meta.json"),
    ],
)
def test_bad_input_is_one_line(args, message, capsys):
    from analyzer.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["build-list", "d20", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_field_from_a_meta_folder(monkeypatch, tmp_path, capsys):
    """``--nash``: the field is the meta's max-entropy mixture (its lists and weights)."""
    import json

    from analyzer.cli import main

    stand_in.plug_in(monkeypatch)
    lists = sorted(D20.glob("*.yaml"))
    meta_dir = tmp_path / "meta"
    main(["meta", "d20", "--lists", *map(str, lists), "--matches", "400", "--resamples", "20",
          "--out", str(meta_dir)])  # fmt: skip
    mix = json.loads((meta_dir / "meta.json").read_text())["max_entropy_nash"]
    out = tmp_path / "build"
    main(["build-list", "d20", "--nash", str(meta_dir), "--points", "100", "--template",
          str(TEMPLATE), "--search", "local", "--final-matches", "64",
          "--out", str(out)])  # fmt: skip
    field = json.loads((out / "build.json").read_text())["field"]
    assert len(field) == sum(w > 1e-6 for w in mix.values())
    assert sum(field.values()) == pytest.approx(1.0)
