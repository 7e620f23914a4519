"""d20 skirmish cards and squads: bundled samples load, malformed files report file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.config.yaml_io import ConfigError
from analyzer.games.d20 import units

LISTS = sorted((units.UNITS_FILE.parent / "lists").glob("*.yaml"))

CARD_LINES = [
    "system: d20",  # 1
    "units:",  # 2
    "  - name: Tester",  # 3
    "    skill: {shot: 3, hth: 4}",  # 4
    "    power: 8",  # 5
    "    dexterity: 5",  # 6
    "    intelligence: 5",  # 7
    "    physical_defense: 18",  # 8
    "    constitution: 14",  # 9
    "    movement: 12",  # 10
    "    weapons:",  # 11
    "      - {name: Rifle, reach: 50, power: 5, special: [automatic fire]}",  # 12
    "      - {name: Knife, reach: HtH, power: 2}",  # 13
    "    special: [infiltration]",  # 14
    "    points: 15",  # 15
    "    sample: [points]",  # 16
]

LIST_CARDS = """\
system: d20
units:
  - {name: Alpha, skill: {shot: 3, hth: 3}, power: 7, dexterity: 5, intelligence: 5,
     physical_defense: 18, constitution: 14, movement: 12, points: 10}
  - {name: Beta, skill: {shot: 4, hth: 4}, power: 8, dexterity: 6, intelligence: 5,
     physical_defense: 19, constitution: 18, movement: 12, points: 20}
  - {name: Hero, skill: {shot: 5, hth: 6}, power: 9, dexterity: 7, intelligence: 8,
     physical_defense: 20, constitution: 24, movement: 14, points: 30, unique: true,
     special: [precognition]}
"""

LIST_LINES = [
    "name: Test squad",  # 1
    "system: d20",  # 2
    "max_points: 100",  # 3
    "max_figurines: 5",  # 4
    "max_copies: 2",  # 5
    "units:",  # 6
    "  - unit: Alpha",  # 7
    "  - unit: Beta",  # 8
    "    count: 2",  # 9
]


def edit(lines: list[str], changes: dict[int, str | None], extra: tuple[str, ...] = ()) -> str:
    """Replace (text) or delete (None) 1-based lines, then append ``extra`` lines."""
    out = []
    for number, line in enumerate(lines, start=1):
        new = changes.get(number, line)
        if new is not None:
            out.append(new)
    return "\n".join([*out, *extra]) + "\n"


def problems(err: pytest.ExceptionInfo[ConfigError], path: Path) -> list[str]:
    lines = str(err.value).splitlines()
    assert all(line.startswith(f"{path}:") for line in lines), lines
    return [line[len(str(path)) + 1 :] for line in lines]


@pytest.fixture(scope="module")
def list_cards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, units.Card]:
    path = tmp_path_factory.mktemp("cards") / "units.yaml"
    path.write_text(LIST_CARDS, encoding="utf-8")
    return units.load_units(path)


# ------------------------------------------------------------ bundled samples
def test_bundled_units_load() -> None:
    cards = units.load_units()
    assert {"Chronos SU", "Genetic SU", "Telepath", "Maïnomaï", "Avatara Hallucination"} <= set(
        cards
    )
    for card in cards.values():
        assert units.health(card) == card.constitution >= 1
        assert "points" in card.sample  # the rulebook has no points
    # rulebook figures: the weapons chart and the P9 Telepath moving 10 cm
    rifle = next(w for w in cards["Chronos SU"].weapons if w.name == "Nyx-type automatic rifle")
    assert (rifle.reach, rifle.power, rifle.special) == (60, 7, ["automatic fire"])
    psy = next(w for w in cards["Telepath"].weapons if w.name == "Psy soul")
    assert psy.is_hth and psy.power == 6
    assert (cards["Telepath"].power, cards["Telepath"].movement) == (9, 10)
    assert {"power", "movement"}.isdisjoint(cards["Telepath"].sample)
    assert cards["Chronos SU"].movement > cards["Telepath"].movement
    assert "large stand" in cards["Maïnomaï"].special


def test_bundled_lists_load() -> None:
    cards = units.load_units()
    assert len(LISTS) >= 2
    for path in LISTS:
        army = units.load_list(path, cards)
        assert army.system == "d20"
        if army.max_points is not None:
            assert sum(cards[e.unit].points * e.count for e in army.units) <= army.max_points


def test_deployment_and_first_player_bonus(list_cards: dict[str, units.Card], tmp_path) -> None:
    path = tmp_path / "squad.yaml"
    path.write_text(edit(LIST_LINES, {8: "  - unit: Hero", 9: None}), encoding="utf-8")
    army = units.load_list(path, list_cards)
    assert units.deployment_distance(army, list_cards) == 28  # twice the fastest (14 cm)
    assert units.first_player_bonus(army, list_cards) == 1  # the precognition Hero
    path.write_text(edit(LIST_LINES, {}, ("deployment_distance: 40",)), encoding="utf-8")
    assert units.deployment_distance(units.load_list(path, list_cards), list_cards) == 40


# ---------------------------------------------------------- malformed cards
CARD_CASES = [
    ("missing field", {5: None}, (), ["3: units[0].power: Field required"]),
    (
        "wrong type",
        {9: "    constitution: many"},
        (),
        ["9: units[0].constitution: Input should be a valid integer"],
    ),
    (
        "negative stat",
        {8: "    physical_defense: -1"},
        (),
        ["8: units[0].physical_defense: Input should be greater than or equal to 0"],
    ),
    ("zero CP", {9: "    constitution: 0"}, (), ["9: units[0].constitution: Input should be"]),
    ("unknown key", {}, ("    armour: 3",), ["17: units[0].armour: unknown key"]),
    (
        "unknown characteristic",
        {14: "    special: [telepathy]"},
        (),
        ["14: units[0].special[0]: Input should be"],
    ),
    (
        "unknown weapon rule",
        {13: "      - {name: Knife, reach: HtH, power: 2, special: [poison]}"},
        (),
        ["13: units[0].weapons[1].special[0]: Input should be"],
    ),
    (
        "bad reach",
        {12: "      - {name: Rifle, reach: far, power: 5}"},
        (),
        ["12: units[0].weapons[0].reach: reach must be a distance"],
    ),
    (
        "weapon missing power",
        {13: "      - {name: Knife, reach: HtH}"},
        (),
        ["13: units[0].weapons[1].power: Field required"],
    ),
    (
        "sample names an unknown field",
        {16: "    sample: [armour]"},
        (),
        ["3: units[0]: sample lists unknown field(s): armour"],
    ),
    ("wrong system", {1: "system: heroscape"}, (), ["1: system: expected 'd20'"]),
    (
        "duplicate name",
        {},
        tuple(CARD_LINES[2:]),
        ["17: units[1].name: duplicate unit name 'Tester'"],
    ),
    ("bad YAML syntax", {4: "    skill: {shot: 3, hth: 4"}, (), ["5: YAML syntax error"]),
    (
        "three problems",
        {5: None, 8: "    physical_defense: -2", 14: "    special: [flying]"},
        (),
        [
            "3: units[0].power: Field required",
            "7: units[0].physical_defense: Input should be greater than or equal to 0",
            "13: units[0].special[0]: Input should be",
        ],
    ),
]


@pytest.mark.parametrize(
    ("changes", "extra", "expected"),
    [c[1:] for c in CARD_CASES],
    ids=[c[0] for c in CARD_CASES],
)
def test_malformed_cards(tmp_path, changes, extra, expected) -> None:
    path = tmp_path / "units.yaml"
    path.write_text(edit(CARD_LINES, changes, extra), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        units.load_units(path)
    found = problems(err, path)
    assert len(found) == len(expected), found
    for line, prefix in zip(found, expected):
        assert line.startswith(prefix), (line, prefix)


def test_valid_card_file_loads(tmp_path) -> None:
    path = tmp_path / "units.yaml"
    path.write_text(edit(CARD_LINES, {}), encoding="utf-8")
    card = units.load_units(path)["Tester"]
    assert card.weapons[1].reach == units.HTH and card.weapons[0].range_cm == 50
    assert card.force is None and not card.unique


# ---------------------------------------------------------- malformed lists
LIST_CASES = [
    (
        "over points",
        {3: "max_points: 40"},
        (),
        ["3: max_points: squad costs 50 points, over the limit of 40"],
    ),
    ("unknown unit", {7: "  - unit: Ghost"}, (), ["7: units[0].unit: unknown unit 'Ghost'"]),
    (
        "too many copies",
        {9: "    count: 3"},
        (),
        ["9: units[1].count: 3 copies of 'Beta', over the limit of 2"],
    ),
    (
        "too many copies over two entries",
        {},
        ("  - unit: Beta",),
        ["10: units[2].count: 3 copies of 'Beta', over the limit of 2"],
    ),
    (
        "unique twice in one entry",
        {8: "  - unit: Hero"},
        (),
        ["9: units[1].count: 'Hero' is unique: at most one per squad"],
    ),
    (
        "unique in two entries",
        {7: "  - unit: Hero", 8: "  - unit: Hero", 9: None},
        (),
        ["8: units[1].unit: 'Hero' is unique: at most one per squad"],
    ),
    (
        "too many figurines",
        {4: "max_figurines: 2"},
        (),
        ["4: max_figurines: squad has 3 figurines, over the limit of 2"],
    ),
    (
        "too few figurines",
        {},
        ("min_figurines: 4",),
        ["10: min_figurines: squad has 3 figurines, under the minimum of 4"],
    ),
    ("count zero", {9: "    count: 0"}, (), ["9: units[1].count: Input should be greater"]),
    ("unknown key", {}, ("colour: red",), ["10: colour: unknown key"]),
    ("bad role", {}, ("role: invader",), ["10: role: Input should be 'attacker' or 'defender'"]),
    ("wrong system", {2: "system: rapture"}, (), ["2: system: expected 'd20'"]),
    ("missing units", {6: None, 7: None, 8: None, 9: None}, (), ["1: units: Field required"]),
    ("bad YAML syntax", {8: "  - unit: [Beta"}, (), ["9: YAML syntax error"]),
    (
        "three problems",
        {3: "max_points: 10", 7: "  - unit: Ghost", 9: "    count: 3"},
        (),
        [  # problems come in file order; the unknown unit costs nothing
            "3: max_points: squad costs 60 points, over the limit of 10",
            "7: units[0].unit: unknown unit 'Ghost'",
            "9: units[1].count: 3 copies of 'Beta', over the limit of 2",
        ],
    ),
]


@pytest.mark.parametrize(
    ("changes", "extra", "expected"),
    [c[1:] for c in LIST_CASES],
    ids=[c[0] for c in LIST_CASES],
)
def test_malformed_lists(tmp_path, list_cards, changes, extra, expected) -> None:
    path = tmp_path / "squad.yaml"
    path.write_text(edit(LIST_LINES, changes, extra), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        units.load_list(path, list_cards)
    found = problems(err, path)
    assert len(found) == len(expected), found
    for line, prefix in zip(found, expected):
        assert line.startswith(prefix), (line, prefix)


def test_valid_list_loads(tmp_path, list_cards) -> None:
    path = tmp_path / "squad.yaml"
    path.write_text(edit(LIST_LINES, {}), encoding="utf-8")
    army = units.load_list(path, list_cards)
    assert [(e.unit, e.count) for e in army.units] == [("Alpha", 1), ("Beta", 2)]
    assert army.min_figurines is None and army.role is None
