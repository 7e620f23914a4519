"""Hybrid profile cards and army lists: bundled samples, malformed files, construction rules."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.config.yaml_io import ConfigError
from analyzer.games.hybrid.units import (
    UNITS_FILE,
    ArmyList,
    Card,
    health,
    load_list,
    load_units,
    rank_total,
)
from analyzer.paths import system_config

LISTS = sorted(system_config("hybrid", "lists").glob("*.yaml"))

# ----------------------------------------------------------------- samples


def test_bundled_units_load() -> None:
    cards = load_units(UNITS_FILE)
    assert set(cards) == {
        "Hybrid",
        "Purifier",
        "Seneschal",
        "Aberration",
        "Pests of Flesh",
        "Venerable Ambrosius",
    }
    for card in cards.values():
        assert isinstance(card, Card)
        assert health(card) == card.nv


def test_bundled_units_keep_the_rulebook_figures() -> None:
    """Every figure the rulebook prints is used as printed and not marked as sample."""
    c = load_units()
    hybrid = c["Hybrid"]
    assert (hybrid.nv, hybrid.oc, hybrid.rank, hybrid.faction) == (3, 4, 1, "Scorpion")
    assert hybrid.modifier("offensive") == 2  # Fused Weapons: 3 + 2 = 5 ("Equipment")
    assert hybrid.aptitude("Mutation") == 1
    assert not {"nv", "oc", "rank", "equipment", "aptitudes"} & set(hybrid.sample)
    assert c["Purifier"].nv == 3 and c["Purifier"].can_fire
    seneschal = c["Seneschal"]
    assert seneschal.nv == 4 and seneschal.aptitude("Combined Attack") == 3
    assert seneschal.modifier("firing") == 1 and seneschal.can_fire
    aberration = c["Aberration"]
    assert aberration.f is None and not aberration.can_fire
    assert aberration.aptitude("Brutish Strength") == 2 and aberration.rank == 3
    assert aberration.base == "large" and aberration.shot_modifier == 1
    pests = c["Pests of Flesh"]
    assert pests.rank == 0 and pests.aptitude("Sacrifice") == 1
    ambrosius = c["Venerable Ambrosius"]
    assert ambrosius.aptitude("Eye of the Lynx") == 2 and ambrosius.firing_range == 10
    assert ambrosius.champion


@pytest.mark.parametrize("path", LISTS, ids=lambda p: p.stem)
def test_bundled_lists_are_legal(path: Path) -> None:
    cards = load_units()
    army = load_list(path, cards)
    assert isinstance(army, ArmyList)
    assert rank_total(army, cards) <= army.rank_total
    assert sum(e.count for e in army.units) <= army.max_warriors


def test_at_least_two_bundled_lists() -> None:
    assert len(LISTS) >= 2


def test_rulebook_rank_total_example() -> None:
    """ "Missions": Aberration (3) + three Hybrids (1 each) + four Pests (two count as 1) = 8."""
    cards = load_units()
    army = load_list(system_config("hybrid", "lists/scorpion-example.yaml"), cards)
    assert rank_total(army, cards) == 8
    assert sum(e.count for e in army.units) == 8


# --------------------------------------------------------- malformed cards
UNITS = """\
system: hybrid
units:
  - name: Hybrid
    points: 12
    faction: Scorpion
    rank: 1
    nv: 3
    oc: 4
    dc: 2
    f: "-"
    mv: 3
    movement: 7
    equipment:
      - {name: Fused Weapons, offensive: 2}
    aptitudes: [Mutation/1]
  - name: Seneschal
    points: 28
    faction: Griffin
    rank: 2
    nv: 4
    oc: master
    dc: 4
    f: 3
    mv: 4
    movement: 7
    equipment:
      - {name: Combined Weapon, firing: 1, ranged: true}
    aptitudes: [Combined Attack/3]
"""


def _write(tmp_path: Path, text: str, name: str = "units.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _problems(exc: pytest.ExceptionInfo[ConfigError], path: Path) -> list[str]:
    """The ``line: field: message`` part of each problem line of ``path``."""
    lines = str(exc.value).splitlines()
    assert all(line.startswith(f"{path}:") for line in lines), lines
    return [line[len(str(path)) + 1 :] for line in lines]


def _assert_problems(problems: list[str], expected: list[tuple[int, str, str]]) -> None:
    """One problem per expected (line, field path, message fragment), in any order."""
    assert len(problems) == len(expected), problems
    left = list(problems)
    for line, field, fragment in expected:
        match = [p for p in left if p.startswith(f"{line}: {field}: ") and fragment in p]
        assert match, (line, field, fragment, problems)
        left.remove(match[0])


CARD_CASES = [
    # (id, old text, new text, [(line, field path, message fragment)])
    ("missing-field", "    nv: 3\n", "", [(3, "units[0].nv", "Field required")]),
    ("wrong-type", "    oc: 4\n", "    oc: four\n", [(8, "units[0].oc", "valid integer")]),
    (
        "negative-stat",
        "    movement: 7\n",
        "    movement: -2\n",
        [(12, "units[0].movement", "greater than or equal to 0")],
    ),
    ("zero-nv", "    nv: 3\n", "    nv: 0\n", [(7, "units[0].nv", "greater than or equal to 1")]),
    (
        "zero-level",
        "    dc: 2\n",
        "    dc: 0\n",
        [(9, "units[0].dc", "greater than or equal to 1")],
    ),
    (
        "rank-too-high",
        "    rank: 1\n",
        "    rank: 5\n",
        [(6, "units[0].rank", "less than or equal to 4")],
    ),
    (
        "unknown-key",
        "    mv: 3\n",
        "    mv: 3\n    armour: 2\n",
        [(12, "units[0].armour", "unknown key")],
    ),
    (
        "unknown-aptitude",
        "[Mutation/1]",
        "[Mutation/1, Flying/2]",
        [(15, "units[0].aptitudes[1]", "unknown aptitude 'Flying'")],
    ),
    (
        "aptitude-without-x",
        "[Combined Attack/3]",
        "[Combined Attack]",
        [(28, "units[1].aptitudes[0]", "needs a value")],
    ),
    (
        "aptitude-bad-x",
        "[Combined Attack/3]",
        "[Combined Attack/many]",
        [(28, "units[1].aptitudes[0]", "integer X")],
    ),
    ("duellist-10", "[Mutation/1]", "[Duellist/10]", [(15, "units[0].aptitudes[0]", "<= 9")]),
    (
        "bad-base",
        "    movement: 7\n",
        "    movement: 7\n    base: huge\n",
        [(13, "units[0].base", "")],
    ),
    (
        "equipment-unknown-key",
        "{name: Fused Weapons, offensive: 2}",
        "{name: Fused Weapons, offense: 2}",
        [(14, "units[0].equipment[0].offense", "unknown key")],
    ),
    (
        "duplicate-name",
        "  - name: Seneschal\n",
        "  - name: Hybrid\n",
        [(16, "units[1].name", "duplicate")],
    ),
    ("wrong-system", "system: hybrid\n", "system: rapture\n", [(1, "system", "expected 'hybrid'")]),
    (
        "sample-unknown-field",
        "    aptitudes: [Mutation/1]\n",
        "    aptitudes: [Mutation/1]\n    sample: [nv, wings]\n",
        [(3, "units[0]", "sample lists unknown field(s): wings")],
    ),
    (
        "negative-points",
        "    points: 12\n",
        "    points: -1\n",
        [(4, "units[0].points", "greater than or equal to 0")],
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "expected"), [c[1:] for c in CARD_CASES], ids=[c[0] for c in CARD_CASES]
)
def test_malformed_cards(
    tmp_path: Path, old: str, new: str, expected: list[tuple[int, str, str]]
) -> None:
    path = _write(tmp_path, _edit(UNITS, old, new))
    with pytest.raises(ConfigError) as exc:
        load_units(path)
    _assert_problems(_problems(exc, path), expected)


def test_card_yaml_syntax_error(tmp_path: Path) -> None:
    path = _write(tmp_path, _edit(UNITS, "    nv: 3\n", "    nv: [3\n"))
    with pytest.raises(ConfigError) as exc:
        load_units(path)
    assert str(exc.value).startswith(f"{path}:8: YAML syntax error")


def test_every_card_problem_reported_at_once(tmp_path: Path) -> None:
    text = _edit(UNITS, "    nv: 3\n", "    nv: -3\n")
    text = _edit(text, "[Combined Attack/3]", "[Combined Attack/3, Wings]")
    text = _edit(text, "    f: 3\n", "    f: often\n")
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as exc:
        load_units(path)
    problems = _problems(exc, path)
    assert sorted(p.split(": ")[0:2] for p in problems) == [
        ["23", "units[1].f"],
        ["28", "units[1].aptitudes[1]"],
        ["7", "units[0].nv"],
    ]


def test_levels_accept_names_and_dashes(tmp_path: Path) -> None:
    cards = load_units(_write(tmp_path, UNITS))
    assert cards["Seneschal"].oc == 5  # "master"
    assert cards["Hybrid"].f is None  # "-": the Mode is not available


# --------------------------------------------------------- malformed lists
LIST = """\
name: Test group
system: hybrid
faction: Scorpion
rank_total: 8
max_warriors: 8
units:
  - unit: Aberration
  - unit: Hybrid
    count: 3
  - unit: Pests of Flesh
    count: 4
"""

LIST_CASES = [
    (
        "over-rank-total",
        "rank_total: 8\n",
        "rank_total: 7\n",
        [(6, "units", "Rank Total 8 exceeds the mission's 7")],
    ),
    (
        "too-many-warriors",
        "max_warriors: 8\n",
        "max_warriors: 7\n",
        [(6, "units", "8 warriors exceed the mission's Total of 7")],
    ),
    (
        "champion-twice-count",
        "  - unit: Aberration\n",
        "  - unit: Aberration\n    count: 2\n",
        [
            (6, "units", "Rank Total 11 exceeds"),
            (6, "units", "9 warriors exceed"),
            (8, "units[0].count", "Champion (a unique figurine): at most 1, got 2"),
        ],
    ),
    (
        "champion-twice-entry",
        "    count: 4\n",
        "    count: 2\n  - unit: Aberration\n",
        [
            (6, "units", "Rank Total 10 exceeds"),
            (12, "units[3].unit", "already listed in units[0]"),
        ],
    ),
    (
        "unknown-unit",
        "  - unit: Hybrid\n",
        "  - unit: Gorgon\n",
        [(8, "units[1].unit", "unknown unit 'Gorgon'")],
    ),
    (
        "wrong-faction",
        "  - unit: Hybrid\n    count: 3\n",
        "  - unit: Purifier\n    count: 3\n",
        [(8, "units[1].unit", "Purifier fights for Griffin, not Scorpion")],
    ),
    (
        "too-many-counters",
        "max_warriors: 8\n",
        "max_warriors: 11\n",
        [(5, "max_warriors", "less than or equal to 10")],
    ),
    (
        "zero-count",
        "    count: 3\n",
        "    count: 0\n",
        [(9, "units[1].count", "greater than or equal to 1")],
    ),
    (
        "negative-cap",
        "rank_total: 8\n",
        "rank_total: -1\n",
        [(4, "rank_total", "greater than or equal to 0")],
    ),
    (
        "unknown-key",
        "name: Test group\n",
        "name: Test group\npoints: 100\n",
        [(2, "points", "unknown key")],
    ),
    ("wrong-system", "system: hybrid\n", "system: d20\n", [(2, "system", "expected 'hybrid'")]),
    (
        "empty-list",
        "units:\n  - unit: Aberration\n  - unit: Hybrid\n    count: 3\n"
        "  - unit: Pests of Flesh\n    count: 4\n",
        "units: []\n",
        [(6, "units", "at least 1 item")],
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "expected"), [c[1:] for c in LIST_CASES], ids=[c[0] for c in LIST_CASES]
)
def test_malformed_lists(
    tmp_path: Path, old: str, new: str, expected: list[tuple[int, str, str]]
) -> None:
    path = _write(tmp_path, _edit(LIST, old, new), "list.yaml")
    with pytest.raises(ConfigError) as exc:
        load_list(path, load_units())
    _assert_problems(_problems(exc, path), expected)


def test_list_yaml_syntax_error(tmp_path: Path) -> None:
    path = _write(tmp_path, _edit(LIST, "  - unit: Hybrid\n", "  - unit: [Hybrid\n"), "list.yaml")
    with pytest.raises(ConfigError) as exc:
        load_list(path, load_units())
    assert str(exc.value).startswith(f"{path}:")
    assert "YAML syntax error" in str(exc.value)


def test_every_list_problem_reported_at_once(tmp_path: Path) -> None:
    text = _edit(LIST, "  - unit: Hybrid\n", "  - unit: Gorgon\n")
    text = _edit(text, "max_warriors: 8\n", "max_warriors: 5\n")
    text = _edit(text, "  - unit: Aberration\n", "  - unit: Aberration\n    count: 2\n")
    path = _write(tmp_path, text, "list.yaml")
    with pytest.raises(ConfigError) as exc:
        load_list(path, load_units())
    problems = _problems(exc, path)
    assert sorted(p.split(": ")[0:2] for p in problems) == [
        ["6", "units"],
        ["8", "units[0].count"],
        ["9", "units[1].unit"],
    ]


def test_lone_rank_zero_counts_half(tmp_path: Path) -> None:
    """Two Rank 0 warriors count as 1, so three count 1.5 (interpretation)."""
    cards = load_units()
    text = (
        "name: Pests\nsystem: hybrid\nrank_total: 1\n"
        "units:\n  - unit: Pests of Flesh\n    count: 3\n"
    )
    path = _write(tmp_path, text, "list.yaml")
    with pytest.raises(ConfigError) as exc:
        load_list(path, cards)
    assert str(exc.value) == (
        f"{path}:4: units: Rank Total 1.5 exceeds the mission's 1 (two Rank 0 warriors count as 1)"
    )
    army = load_list(_write(tmp_path, text.replace("count: 3", "count: 2"), "ok.yaml"), cards)
    assert rank_total(army, cards) == Fraction(1)


def test_list_without_faction_needs_one_side(tmp_path: Path) -> None:
    text = "name: Mixed\nsystem: hybrid\nunits:\n  - unit: Hybrid\n  - unit: Purifier\n"
    path = _write(tmp_path, text, "list.yaml")
    with pytest.raises(ConfigError) as exc:
        load_list(path, load_units())
    assert str(exc.value).startswith(f"{path}:5: units[1].unit: Purifier fights for Griffin")
