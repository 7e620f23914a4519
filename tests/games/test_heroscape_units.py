"""Heroscape Army Cards and army lists: bundled samples, malformed files, construction rules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from analyzer.config.yaml_io import ConfigError
from analyzer.games.heroscape import units as u
from analyzer.paths import system_config

LISTS = sorted(system_config("heroscape", "lists").glob("*.yaml"))

# A valid unit file; the line numbers in the tables below refer to it.
CARDS = """\
system: heroscape
units:
  - name: Test Hero
    uniqueness: unique
    kind: hero
    figures: 1
    life: 4
    move: 5
    range: 1
    attack: 3
    defense: 3
    points: 80
    height: 5
    size: medium
    base: single
    species: Human
    class: Soldier
    personality: Valiant
    special_powers:
      - name: Nanite Shielding
      - name: Battle Cry
        narrative: true
    sample: [points, class]
  - name: Test Squad
    uniqueness: common
    kind: squad
    figures: 3
    life: 1
    move: 6
    range: 4
    attack: 2
    defense: 2
    points: 50
    height: 5
    size: medium
    species: Elf
    class: Archers
    personality: Wild
  - name: Test Giant
    uniqueness: uncommon
    kind: hero
    figures: 1
    life: 6
    move: 5
    range: 1
    attack: 5
    defense: 3
    points: 120
    height: 9
    size: huge
    base: double
    species: Giant
    class: Brute
    personality: Ferocious
"""


def _line(text: str, start: int, old: str, new: str | None) -> str:
    """Replace the first line at or after line ``start`` (1-based) that contains ``old``."""
    lines = text.splitlines()
    for i in range(start - 1, len(lines)):
        if old in lines[i]:
            if new is None:
                del lines[i]
            else:
                lines[i] = lines[i].replace(old, new)
            return "\n".join(lines) + "\n"
    raise AssertionError(f"{old!r} not found after line {start}")


def write(tmp_path: Path, text: str, name: str = "file.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_lines(func: Callable[[], object]) -> list[str]:
    with pytest.raises(ConfigError) as err:
        func()
    return str(err.value).splitlines()


# ----------------------------------------------------------- bundled files
def test_bundled_units_load() -> None:
    cards = u.load_units(u.UNITS_FILE)
    for name in (
        "Gelryie Vanguards",
        "Agent SI-4X",
        "Cainak, Private Eye",
        "Dorim the Bulkhead Brawler",
        "Elites of Ullar",
    ):
        assert name in cards
    # values printed in the rulebook
    gel = cards["Gelryie Vanguards"]
    assert (gel.move, gel.range, gel.attack, gel.defense, gel.points) == (5, 1, 3, 2, 65)
    assert (gel.uniqueness, gel.kind, gel.size, gel.height) == ("common", "squad", "medium", 5)
    assert (gel.affiliation, gel.species, gel.card_class, gel.personality) == (
        "Vydar",
        "Gelryie",
        "Vanguard",
        "Fierce",
    )
    agent = cards["Agent SI-4X"]
    assert (agent.range, agent.attack, agent.defense, agent.life) == (5, 2, 5, 3)
    assert agent.has(u.OBFUSCATION_MATRIX)
    cainak = cards["Cainak, Private Eye"]
    assert (cainak.range, cainak.attack, cainak.defense) == (5, 4, 3)
    dorim = cards["Dorim the Bulkhead Brawler"]
    assert (dorim.points, dorim.life, u.health(dorim)) == (100, 5, 5)
    elites = cards["Elites of Ullar"]
    assert (elites.figures, elites.life, elites.points, u.health(elites)) == (3, 2, 105, 6)
    # sample fields are labelled, printed ones are not
    assert "points" not in gel.sample and "figures" in gel.sample
    assert "class" in agent.sample and "attack" not in agent.sample


def test_scoring_examples_life_worth() -> None:
    """ "Scoring": Dorim 100 points / 5 Life = 20 per Life; Elites 105 / 6 = 17.5."""
    cards = u.load_units(u.UNITS_FILE)
    dorim, elites = cards["Dorim the Bulkhead Brawler"], cards["Elites of Ullar"]
    assert dorim.points / u.health(dorim) == 20
    assert elites.points / u.health(elites) == 17.5


@pytest.mark.parametrize("path", LISTS, ids=[p.stem for p in LISTS])
def test_bundled_lists_are_legal(path: Path) -> None:
    cards = u.load_units(u.UNITS_FILE)
    army = u.load_list(path, cards)
    points, figures, spaces = u.army_totals(army, cards)
    assert points <= army.points_cap
    assert army.max_figures is None or figures <= army.max_figures
    assert army.max_spaces is None or spaces <= army.max_spaces


def test_at_least_two_bundled_lists() -> None:
    assert len(LISTS) >= 2


def test_valid_template_loads(tmp_path: Path) -> None:
    cards = u.load_units(write(tmp_path, CARDS))
    assert list(cards) == ["Test Hero", "Test Squad", "Test Giant"]
    assert cards["Test Hero"].has(u.NANITE_SHIELDING)
    assert not cards["Test Hero"].has("Battle Cry")  # narrative powers have no effect
    assert cards["Test Squad"].base == "single"  # default base


# -------------------------------------------------------------- bad cards
BAD_CARDS = [
    ("missing field", (4, "uniqueness: unique", None), "file.yaml:3: units[0].uniqueness: Field"),
    ("wrong type", (10, "attack: 3", "attack: three"), "file.yaml:10: units[0].attack: Input"),
    ("negative stat", (11, "defense: 3", "defense: -1"), "file.yaml:11: units[0].defense: Input"),
    ("zero life", (7, "life: 4", "life: 0"), "file.yaml:7: units[0].life: Input"),
    ("negative points", (33, "points: 50", "points: -5"), "file.yaml:33: units[1].points: Input"),
    (
        "unknown key",
        (15, "base: single", "bsae: single"),
        "file.yaml:15: units[0].bsae: unknown key",
    ),
    ("bad choice", (14, "size: medium", "size: tiny"), "file.yaml:14: units[0].size: Input"),
    (
        "unknown power",
        (20, "Nanite Shielding", "Nanite Shielding 2"),
        "file.yaml:20: units[0].special_powers[0].name: unknown special power",
    ),
    (
        "unknown sample field",
        (23, "[points, class]", "[points, klass]"),
        "file.yaml:3: units[0]: sample lists unknown field(s): klass",
    ),
    (
        "hero with 2 figures",
        (6, "figures: 1", "figures: 2"),
        "file.yaml:3: units[0]: a Hero card features a single figure",
    ),
    (
        "squad with 1 figure",
        (27, "figures: 3", "figures: 1"),
        "file.yaml:24: units[1]: a Squad card features 2 or more figures",
    ),
    (
        "Nanite Shielding on a large figure",
        (14, "size: medium", "size: large"),
        "file.yaml:3: units[0]: Nanite Shielding: only Small or Medium",
    ),
    (
        "Treasure Glyph on an uncommon hero",
        (4, "uniqueness: unique", "uniqueness: uncommon"),
        "file.yaml:3: units[0]: Nanite Shielding: only Unique Hero",
    ),
    (
        "duplicate name",
        (24, "name: Test Squad", "name: Test Hero"),
        "file.yaml:24: units[1].name: duplicate unit name 'Test Hero'",
    ),
    ("wrong system", (1, "system: heroscape", "system: rapture"), "file.yaml:1: system: expected"),
    ("bad YAML", (10, "attack: 3", "attack: [3"), "file.yaml:11: YAML syntax error"),
]


@pytest.mark.parametrize(
    ("edit", "prefix"), [c[1:] for c in BAD_CARDS], ids=[c[0] for c in BAD_CARDS]
)
def test_bad_card_reports_file_line_field(
    tmp_path: Path, edit: tuple[int, str, str | None], prefix: str
) -> None:
    path = write(tmp_path, _line(CARDS, *edit))
    lines = error_lines(lambda: u.load_units(path))
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{tmp_path}/{prefix}"), lines[0]


def test_all_card_problems_reported_at_once(tmp_path: Path) -> None:
    text = _line(CARDS, 10, "attack: 3", "attack: three")
    text = _line(text, 15, "base: single", "bsae: single")
    text = _line(text, 32, "species: Elf", None)
    lines = error_lines(lambda: u.load_units(write(tmp_path, text)))
    assert len(lines) == 3, lines
    assert any(x.startswith(f"{tmp_path}/file.yaml:10: units[0].attack:") for x in lines)
    assert any(x.startswith(f"{tmp_path}/file.yaml:15: units[0].bsae: unknown key") for x in lines)
    assert any(x.startswith(f"{tmp_path}/file.yaml:24: units[1].species: Field") for x in lines)


def test_empty_file(tmp_path: Path) -> None:
    lines = error_lines(lambda: u.load_units(write(tmp_path, "")))
    assert lines == [f"{tmp_path}/file.yaml:1: (document): file is empty"]


# -------------------------------------------------------------- army lists
LIST = """\
name: Test Army
system: heroscape
points_cap: 400
max_figures: 6
max_spaces: 7
units:
  - unit: Test Hero
  - unit: Test Squad
    count: 1
  - unit: Test Giant
"""


@pytest.fixture
def cards(tmp_path: Path) -> dict[str, u.Card]:
    return u.load_units(write(tmp_path, CARDS, "cards.yaml"))


def test_valid_list(tmp_path: Path, cards: dict[str, u.Card]) -> None:
    army = u.load_list(write(tmp_path, LIST), cards)
    assert u.army_totals(army, cards) == (250, 5, 6)


def test_common_and_uncommon_may_repeat(tmp_path: Path, cards: dict[str, u.Card]) -> None:
    text = LIST.replace("count: 1", "count: 2").replace("points_cap: 400", "points_cap: 500")
    text = text.replace("max_figures: 6", "max_figures: 12").replace(
        "max_spaces: 7", "max_spaces: 12"
    )
    text += "  - unit: Test Giant\n"  # Uncommon: any number of copies
    army = u.load_list(write(tmp_path, text), cards)
    assert u.army_totals(army, cards) == (420, 9, 11)


BAD_LISTS = [
    (
        "over points",
        (3, "points_cap: 400", "points_cap: 200"),
        "file.yaml:3: points_cap: the army costs 250 points, over the cap of 200",
    ),
    (
        "over figures",
        (4, "max_figures: 6", "max_figures: 4"),
        "file.yaml:4: max_figures: the army has 5 figures, over the maximum of 4",
    ),
    (
        "over spaces",
        (5, "max_spaces: 7", "max_spaces: 5"),
        "file.yaml:5: max_spaces: the army occupies 6 spaces, over the maximum of 5",
    ),
    (
        "unique card twice",
        (10, "unit: Test Giant", "unit: Test Hero"),
        "file.yaml:10: units[2].unit: Unique card 'Test Hero' is already in the army",
    ),
    (
        "unique card with count 2",
        (7, "- unit: Test Hero", "- {unit: Test Hero, count: 2}"),
        "file.yaml:7: units[0].count: Unique card 'Test Hero' chosen 2 times",
    ),
    (
        "unknown unit",
        (8, "unit: Test Squad", "unit: Test Squid"),
        "file.yaml:8: units[1].unit: unknown unit 'Test Squid'",
    ),
    ("missing points cap", (3, "points_cap: 400", None), "file.yaml:1: points_cap: Field"),
    ("zero count", (9, "count: 1", "count: 0"), "file.yaml:9: units[1].count: Input"),
    ("unknown key", (4, "max_figures: 6", "max_figure: 6"), "file.yaml:4: max_figure: unknown key"),
    ("wrong type", (3, "points_cap: 400", "points_cap: lots"), "file.yaml:3: points_cap: Input"),
    ("wrong system", (2, "system: heroscape", "system: d20"), "file.yaml:2: system: expected"),
    ("bad YAML", (9, "count: 1", "count: : 1"), "file.yaml:9: YAML syntax error"),
]


@pytest.mark.parametrize(
    ("edit", "prefix"), [c[1:] for c in BAD_LISTS], ids=[c[0] for c in BAD_LISTS]
)
def test_bad_list_reports_file_line_field(
    tmp_path: Path, cards: dict[str, u.Card], edit: tuple[int, str, str | None], prefix: str
) -> None:
    path = write(tmp_path, _line(LIST, *edit))
    lines = error_lines(lambda: u.load_list(path, cards))
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{tmp_path}/{prefix}"), lines[0]


def test_all_list_problems_reported_at_once(tmp_path: Path, cards: dict[str, u.Card]) -> None:
    text = _line(LIST, 3, "points_cap: 400", "points_cap: 100")
    text = _line(text, 8, "unit: Test Squad", "unit: Nobody")
    text = _line(text, 10, "unit: Test Giant", "unit: Test Hero")
    lines = error_lines(lambda: u.load_list(write(tmp_path, text), cards))
    assert len(lines) == 3, lines
    for prefix in (
        "file.yaml:8: units[1].unit: unknown unit 'Nobody'",
        "file.yaml:10: units[2].unit: Unique card",
        "file.yaml:3: points_cap: the army costs 160 points",
    ):
        assert any(line.startswith(f"{tmp_path}/{prefix}") for line in lines), (prefix, lines)
