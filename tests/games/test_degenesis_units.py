"""Degenesis cards and lists: bundled samples, malformed files, construction rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.config.yaml_io import ConfigError
from analyzer.games.degenesis import units as U
from analyzer.paths import system_config

LISTS = sorted(system_config("degenesis", "lists").glob("*.yaml"))

# A small valid card file; the line numbers below refer to it.
CARDS = """\
system: degenesis
units:
  - name: Op
    kind: operative
    points: 10
    cult: Spitalians
    focus:
      pool: {white: 2}
      defense: 2
    primal:
      pool: {white: 1, black: 1}
      defense: 1
    potentials:
      - name: P1
        cult: Spitalians
    items:
      - name: Gun
        side: focus
        attack: {white: 1}
        range: 2
        keywords: [ranged]
  - name: Leg
    kind: legion
    points: 3
    rank: 1
    attack: {white: 2}
    defense: 1
    range: 0
  - name: Champ
    kind: champion
    points: 9
    stages:
      - attack: {white: 2}
        defense: 2
        range: 0
"""


def _write(tmp_path: Path, text: str, name: str = "units.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _lines(err: pytest.ExceptionInfo[ConfigError]) -> list[str]:
    return str(err.value).splitlines()


def _replace(old: str, new: str) -> str:
    assert CARDS.count(old) == 1, old
    return CARDS.replace(old, new)


# ---------------------------------------------------------------- bundled
def test_bundled_units_load() -> None:
    cards = U.load_units(U.UNITS_FILE)
    assert {"Timur", "Pluto", "Echo", "Feuerbach", "Cackler", "The Spider"} <= set(cards)
    timur = cards["Timur"]
    assert isinstance(timur, U.Operative)
    assert timur.focus.defense == 2  # printed: "Timur, Focus, Defense 2"
    assert [p.name for p in timur.potentials] == ["Splaying", "Caregiver"]
    assert timur.focus.traits[0].name == "Patch Up" and timur.focus.traits[0].active
    assert "focus.defense" not in timur.sample and "focus.pool" in timur.sample
    cackler = cards["Cackler"]
    assert (
        isinstance(cackler, U.Legion) and cackler.defense == 3 and "defense" not in cackler.sample
    )
    spider = cards["The Spider"]
    assert isinstance(spider, U.Champion) and spider.stages[0].trait is not None
    assert spider.stages[0].trait.abilities == {"speed": 1}
    assert "Genetic SU" not in cards  # the SUs belong to the d20 rulebook, not this one


def test_health_per_rulebook() -> None:
    cards = U.load_units(U.UNITS_FILE)
    assert U.health(cards["Timur"]) == 4  # 2 POTENTIALS: DEAD at the 4th WOUND
    assert U.health(cards["Feuerbach"]) == 6
    assert U.health(cards["Cackler"]) == 1
    assert U.health(cards["The Spider"]) == 3


@pytest.mark.parametrize("path", LISTS, ids=[p.stem for p in LISTS])
def test_bundled_lists_load(path: Path) -> None:
    army = U.load_list(path, U.load_units(U.UNITS_FILE))
    assert army.system == "degenesis"


def test_at_least_two_rosters() -> None:
    cards = U.load_units(U.UNITS_FILE)
    rosters = [p for p in LISTS if U.load_list(p, cards).side == "roster"]
    assert len(rosters) >= 2


def test_small_file_loads(tmp_path: Path) -> None:
    cards = U.load_units(_write(tmp_path, CARDS))
    assert [U.health(c) for c in cards.values()] == [2, 1, 1]


# ------------------------------------------------------------- bad cards
BAD_CARDS = {
    "missing field": (
        _replace("    defense: 1\n    range: 0\n", "    range: 0\n"),
        22,
        "units[1].defense",
    ),
    "wrong type": (
        _replace("    defense: 1\n    range", "    defense: high\n    range"),
        27,
        "units[1].defense",
    ),
    "negative stat": (
        _replace("    defense: 1\n    range", "    defense: -1\n    range"),
        27,
        "units[1].defense",
    ),
    "negative dice": (
        _replace("pool: {white: 2}", "pool: {white: -2}"),
        8,
        "units[0].focus.pool.white",
    ),
    "unknown key": (_replace("    rank: 1\n", "    rank: 1\n    speed: 3\n"), 26, "units[1].speed"),
    "unknown ability": (
        _replace(
            "    range: 0\n  - name: Champ",
            "    range: 0\n    trait: {name: T, abilities: {flying: 1}}\n  - name: Champ",
        ),
        29,
        "units[1].trait.abilities",
    ),
    "unknown kind": (_replace("kind: legion", "kind: hero"), 22, "units[1]"),
    "missing kind": (_replace("    kind: legion\n", ""), 22, "units[1]"),
    "unknown cult": (
        _replace("    cult: Spitalians\n    focus", "    cult: Jedi\n    focus"),
        6,
        "units[0].cult",
    ),
    "unknown keyword": (
        _replace("keywords: [ranged]", "keywords: [laser]"),
        21,
        "units[0].items[0].keywords[0]",
    ),
    "weapon without range": (_replace("        range: 2\n", ""), 17, "units[0].items[0]"),
    "no potentials": (
        _replace(
            "    potentials:\n      - name: P1\n        cult: Spitalians\n", "    potentials: []\n"
        ),
        13,
        "units[0].potentials",
    ),
    "no stages": (
        _replace(
            "    stages:\n      - attack: {white: 2}\n        defense: 2\n        range: 0\n",
            "    stages: []\n",
        ),
        32,
        "units[2].stages",
    ),
    "potential of another cult": (
        _replace("        cult: Spitalians\n    items", "        cult: Judges\n    items"),
        15,
        "units[0].potentials[0].cult",
    ),
    "item of another cult": (
        _replace("        side: focus\n", "        cult: Palers\n        side: focus\n"),
        18,
        "units[0].items[0].cult",
    ),
    "two armors": (
        _replace(
            "        keywords: [ranged]\n",
            "        keywords: [ranged]\n"
            "      - {name: A1, side: focus, defense: 1, keywords: [armor]}\n"
            "      - {name: A2, side: focus, defense: 1, keywords: [armor]}\n",
        ),
        16,
        "units[0].items",
    ),
    "over the encumbrance limit": (
        _replace(
            "        keywords: [ranged]\n",
            "        keywords: [ranged]\n" + "      - {name: X, side: focus}\n" * 5,
        ),
        16,
        "units[0].items",
    ),
    "unknown sample field": (
        _replace("    points: 3\n", "    points: 3\n    sample: [speed]\n"),
        22,
        "units[1]",
    ),
    "duplicate name": (_replace("name: Champ", "name: Leg"), 29, "units[2].name"),
    "wrong system": (_replace("system: degenesis", "system: heroscape"), 1, "system"),
    "bad YAML syntax": (_replace("    rank: 1\n", "    rank: [1\n"), 26, None),
}


@pytest.mark.parametrize("case", list(BAD_CARDS), ids=list(BAD_CARDS))
def test_bad_cards(tmp_path: Path, case: str) -> None:
    text, line, field = BAD_CARDS[case]
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        U.load_units(path)
    prefix = f"{path}:{line}: " + (f"{field}: " if field else "YAML syntax error")
    assert any(ln.startswith(prefix) for ln in _lines(err)), (prefix, str(err.value))


def test_all_card_problems_at_once(tmp_path: Path) -> None:
    text = (
        CARDS.replace("    defense: 1\n    range", "    defense: -1\n    range")
        .replace("pool: {white: 2}", "pool: {white: many}")
        .replace("kind: champion", "kind: champion\n    color: red")
    )
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        U.load_units(path)
    assert _lines(err) == [
        f"{path}:8: units[0].focus.pool.white: Input should be a valid integer, unable to "
        "parse string as an integer",
        f"{path}:27: units[1].defense: Input should be greater than or equal to 0",
        f"{path}:31: units[2].color: unknown key",
    ]


def test_all_card_rule_problems_at_once(tmp_path: Path) -> None:
    text = (
        CARDS.replace("        cult: Spitalians\n    items", "        cult: Judges\n    items")
        .replace("        side: focus\n", "        cult: Palers\n        side: focus\n")
        .replace("name: Champ", "name: Leg")
    )
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        U.load_units(path)
    assert [ln.split(": ")[0] + ": " + ln.split(": ")[1] for ln in _lines(err)] == [
        f"{path}:15: units[0].potentials[0].cult",
        f"{path}:18: units[0].items[0].cult",
        f"{path}:30: units[2].name",
    ]


# ------------------------------------------------------------- bad lists
ROSTER = """\
name: L
system: degenesis
side: roster
units:
  - unit: Timur
  - unit: Echo
"""
HOSTILE = """\
name: H
system: degenesis
side: hostile
hostile_forces: 4
units:
  - unit: Cackler
    count: 2
  - unit: The Spider
"""
FIVE = "".join(f"  - unit: Op{i}\n" for i in range(5))

BAD_LISTS = {
    "unknown unit": (ROSTER.replace("unit: Echo", "unit: Echoo"), 6, "units[1].unit"),
    "legion in a roster": (ROSTER.replace("unit: Echo", "unit: Cackler"), 6, "units[1].unit"),
    "too many copies of an operative": (ROSTER + "    count: 2\n", 7, "units[1].count"),
    "duplicate operative": (ROSTER + "  - unit: Timur\n", 7, "units[2].unit"),
    "empty roster": (ROSTER.replace("  - unit: Timur\n  - unit: Echo\n", "  []\n"), 4, "units"),
    "over points": (
        ROSTER.replace("side: roster\n", "side: roster\npoints_limit: 40\n"),
        5,
        "units",
    ),
    "not unlocked": (
        ROSTER.replace("side: roster\n", "side: roster\nunlocked: [Timur]\n"),
        7,
        "units[1].unit",
    ),
    "unknown unlocked name": (
        ROSTER.replace("side: roster\n", "side: roster\nunlocked: [Timur, Echo, Bob]\n"),
        4,
        "unlocked[2]",
    ),
    "unknown key": (ROSTER.replace("side: roster\n", "side: roster\nfaction: x\n"), 4, "faction"),
    "wrong side": (ROSTER.replace("side: roster", "side: both"), 3, "side"),
    "zero count": (ROSTER + "    count: 0\n", 7, "units[1].count"),
    "operative in hostile forces": (
        HOSTILE.replace("unit: Cackler", "unit: Timur"),
        6,
        "units[0].unit",
    ),
    "champion twice": (HOSTILE + "    count: 2\n", 9, "units[1].count"),
    "over the hostile forces": (
        HOSTILE.replace("hostile_forces: 4", "hostile_forces: 2"),
        5,
        "units",
    ),
    "bad YAML syntax": (ROSTER.replace("unit: Echo", "unit: [Echo"), 7, None),
}


@pytest.mark.parametrize("case", list(BAD_LISTS), ids=list(BAD_LISTS))
def test_bad_lists(tmp_path: Path, case: str) -> None:
    text, line, field = BAD_LISTS[case]
    path = _write(tmp_path, text, "list.yaml")
    with pytest.raises(ConfigError) as err:
        U.load_list(path, U.load_units(U.UNITS_FILE))
    prefix = f"{path}:{line}: " + (f"{field}: " if field else "YAML syntax error")
    assert any(ln.startswith(prefix) for ln in _lines(err)), (prefix, str(err.value))


def test_roster_of_five(tmp_path: Path) -> None:
    op = CARDS.split("  - name: Leg")[0].split("units:\n")[1]
    cards_text = "system: degenesis\nunits:\n" + "".join(
        op.replace("name: Op", f"name: Op{i}") for i in range(5)
    )
    cards = U.load_units(_write(tmp_path, cards_text))
    path = _write(tmp_path, f"name: L\nsystem: degenesis\nunits:\n{FIVE}", "list.yaml")
    with pytest.raises(ConfigError) as err:
        U.load_list(path, cards)
    assert _lines(err) == [f"{path}:3: units: a ROSTER has 1 to 4 OPERATIVES (got 5)"]


def test_all_list_problems_at_once(tmp_path: Path) -> None:
    text = ROSTER.replace("unit: Echo", "unit: Cackler") + "  - unit: Timur\n  - unit: Nobody\n"
    path = _write(tmp_path, text, "list.yaml")
    with pytest.raises(ConfigError) as err:
        U.load_list(path, U.load_units(U.UNITS_FILE))
    assert [ln.split(": ")[0] + ": " + ln.split(": ")[1] for ln in _lines(err)] == [
        f"{path}:6: units[1].unit",
        f"{path}:7: units[2].unit",
        f"{path}:8: units[3].unit",
    ]
