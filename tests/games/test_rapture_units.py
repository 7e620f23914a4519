"""Rapture cards and battlegroups: bundled samples load, malformed files report file:line: field."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer import paths
from analyzer.config.yaml_io import ConfigError
from analyzer.games.rapture import units as u

LISTS = sorted(paths.system_config("rapture", "lists").glob("*.yaml"))

CARD = """\
system: rapture
units:
  - name: Alpha
    type: hero
    faction: Angels
    points: 20
    hp: 8
    ap: 3
    rp: 2
    ccs: 4
    mms: 4
    defense: 2
    ini: 3
    mov: 12
    tec: 1
    att: 3
    rof: 0
"""

ARMY = """\
name: Test
system: rapture
units:
  - unit: Raziel
  - unit: Hilde
"""


#: Figures the rulebook prints for each sample unit (see the header of units.yaml).
PRINTED = {
    "Raziel": ["type", "ccs", "att", "defense"],
    "Kyenar": ["defense", "abilities"],
    "Hilde": ["ccs", "att"],
    "Noelle": ["type", "mms", "tec", "defense", "mov"],
    "Leyra": ["type", "mms", "rof"],
    "Lincoln": ["defense"],
    "Eleanor": ["mov", "tec"],
    "Phalanx": ["type", "models"],
    "Railgun Squad": ["type"],
    "Danai": ["type"],
}


@pytest.fixture(scope="module")
def cards() -> dict[str, u.Card]:
    return u.load_units()


def _write(tmp_path: Path, text: str, name: str = "file.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _lines(err: pytest.ExceptionInfo[ConfigError], path: Path) -> list[str]:
    return [line.removeprefix(f"{path}:") for line in str(err.value).splitlines()]


# ---------------------------------------------------------------- samples
def test_bundled_units_load_with_rulebook_figures(cards):
    assert {"Raziel", "Kyenar", "Hilde", "Noelle", "Leyra", "Lincoln", "Eleanor"} <= set(cards)
    raziel, kyenar, hilde = cards["Raziel"], cards["Kyenar"], cards["Hilde"]
    assert (raziel.ccs, raziel.att, raziel.defense) == (3, 6, 3)
    assert kyenar.defense == 1 and kyenar.ability_total("damage_reduction") == 1
    assert (hilde.ccs, hilde.att) == (3, 4)
    noelle, leyra = cards["Noelle"], cards["Leyra"]
    assert (noelle.mms, noelle.tec, noelle.defense, noelle.mov) == (3, 1, 1, 15)
    assert noelle.weapon is not None
    assert (leyra.mms, leyra.rof) == (3, 4) and leyra.weapon is not None
    assert cards["Lincoln"].defense == 2
    assert (cards["Eleanor"].mov, cards["Eleanor"].tec) == (15, 2)
    assert cards["Phalanx"].models == 3 and u.health(cards["Phalanx"]) == 9
    assert cards["Spawnling"].null_points
    for name, fields in PRINTED.items():  # rulebook figures are never marked as sample values
        assert not set(fields) & set(cards[name].sample), name


def test_ignored_abilities_are_reported(cards):
    messages = u.ignored_abilities(cards)
    assert any(m.startswith("Raziel: ability 'Flying'") for m in messages)
    assert not any("Scale Skin" in m for m in messages)


def test_effective_stats_apply_health_effects_and_abilities(cards):
    raziel = cards["Raziel"]
    assert u.effective_stats(raziel, 10)["ccs"] == 3
    assert u.effective_stats(raziel, 4)["ccs"] == 3  # box 7 not yet marked
    assert u.effective_stats(raziel, 3)["ccs"] == 4  # 7 boxes marked: CCS 3+ -> 4+
    assert u.effective_stats(cards["Lincoln"], 8)["att"] == 4  # stat_bonus +1 ATT
    assert u.effective_stats(cards["Eleanor"], 7)["att"] == 4  # extra_attacks +1
    assert u.models_alive(cards["Phalanx"], 7) == 3 and u.models_alive(cards["Phalanx"], 6) == 2


@pytest.mark.parametrize("path", LISTS, ids=[p.stem for p in LISTS])
def test_bundled_lists_are_legal(cards, path):
    army = u.load_list(path, cards)
    total = sum(cards[e.unit].points * e.count for e in army.units)
    assert 80 <= total <= army.points_limit == 100


def test_at_least_two_lists_per_faction(cards):
    factions: dict[str, int] = {}
    for path in LISTS:
        army = u.load_list(path, cards)
        faction = army.faction or u._main_faction(cards[e.unit] for e in army.units)
        factions[str(faction)] = factions.get(str(faction), 0) + 1
    assert len(factions) == 3 and min(factions.values()) >= 2


# ------------------------------------------------------------- bad cards
ABILITIES = "    abilities:\n"
BAD_CARDS = {
    "missing field": (CARD.replace("    hp: 8\n", ""), ["3: units[0].hp: Field required"]),
    "wrong type": (
        CARD.replace("hp: 8", "hp: eight"),
        ["7: units[0].hp: Input should be a valid integer"],
    ),
    "negative stat": (
        CARD.replace("defense: 2", "defense: -1"),
        ["12: units[0].defense: Input should be greater than or equal to 0"],
    ),
    "skill out of range": (
        CARD.replace("ccs: 4", "ccs: 7"),
        ["10: units[0].ccs: Input should be less than or equal to 6"],
    ),
    "unknown key": (CARD + "    colour: red\n", ["18: units[0].colour: unknown key"]),
    "unknown ability": (
        CARD + ABILITIES + "      - {name: Teleport}\n",
        ["19: units[0].abilities[0].name: unknown ability 'Teleport'"],
    ),
    "ability without parameter": (
        CARD + ABILITIES + "      - {name: damage_reduction}\n",
        ["19: units[0].abilities[0]: damage_reduction needs amount"],
    ),
    "bad type": (
        CARD.replace("type: hero", "type: dragon"),
        ["4: units[0].type: Input should be 'hero', 'leader', 'apprentice', 'squad' or 'vehicle'"],
    ),
    "squad of one": (
        CARD.replace("type: hero", "type: squad"),
        ["3: units[0].models: a squad has at least 2 models"],
    ),
    "apprentice without leader": (
        CARD.replace("type: hero", "type: apprentice"),
        ["3: units[0].leader: an apprentice names its leader"],
    ),
    "box beyond the bar": (
        CARD + "    health_effects:\n      - {box: 9, effect: {stat: ccs, change: 1}}\n",
        ["19: units[0].health_effects[0].box: box 9 is beyond the 8 HP boxes"],
    ),
    "escape on the health bar": (
        CARD + "    health_effects:\n      - {box: 2, effect: escape}\n",
        ["19: units[0].health_effects[0].effect: Escape belongs on the morale bar"],
    ),
    "unknown sample field": (
        CARD + "    sample: [colour]\n",
        ["3: units[0]: sample lists unknown field(s): colour"],
    ),
    "duplicate name": (
        CARD + CARD.split("units:\n", 1)[1],
        ["18: units[1].name: duplicate unit name 'Alpha'"],
    ),
    "bad yaml": (CARD.replace("hp: 8", "hp: [8"), ["8: YAML syntax error"]),
}


@pytest.mark.parametrize("text,expected", BAD_CARDS.values(), ids=BAD_CARDS.keys())
def test_malformed_card_files(tmp_path, text, expected):
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        u.load_units(path)
    lines = _lines(err, path)
    assert len(lines) == len(expected), lines
    for line, prefix in zip(lines, expected):
        assert line.startswith(prefix), (line, prefix)


def test_null_points_and_narrative_abilities_are_accepted(tmp_path):
    text = CARD.replace("points: 20", "points: Ø") + ABILITIES
    text += "      - {name: Teleport, narrative: true}\n"
    card = u.load_units(_write(tmp_path, text))["Alpha"]
    assert card.null_points and card.points == 0
    assert u.ignored_abilities([card]) == [
        "Alpha: ability 'Teleport' is narrative only and ignored by the engine"
    ]


def test_all_card_problems_reported_at_once(tmp_path):
    text = CARD.replace("defense: 2", "defense: -1").replace("hp: 8", "hp: x")
    path = _write(tmp_path, text + "    colour: red\n")
    with pytest.raises(ConfigError) as err:
        u.load_units(path)
    lines = _lines(err, path)
    assert [line.split(":")[0] for line in lines] == ["7", "12", "18"]
    assert [line.split(": ")[1] for line in lines] == [
        "units[0].hp",
        "units[0].defense",
        "units[0].colour",
    ]


# ------------------------------------------------------------- bad lists
def _army(*entries: str, header: str = "name: Test\nsystem: rapture\n") -> str:
    return header + "units:\n" + "".join(f"  - {e}\n" for e in entries)


BAD_LISTS = {
    "over points": (
        _army(*(f"unit: {n}" for n in ("Raziel", "Hilde", "Seeiah", "Phalanx", "Danai"))),
        ["3: units: the units cost 114 points, over the 100"],
    ),
    "lower points limit": (
        "points_limit: 50\n" + ARMY,
        ["4: units: the units cost 54 points, over the 50"],
    ),
    "duplicate unique unit": (
        _army("unit: Raziel", "unit: Raziel"),
        ["5: units[1].unit: Raziel is listed again: a unit at most once per battlegroup"],
    ),
    "too many copies of a squad": (
        _army("unit: Phalanx\n    count: 3"),
        ["5: units[0].count: Phalanx: a squad at most twice per battlegroup"],
    ),
    "hero count two": (
        _army("{unit: Hilde, count: 2}"),
        ["4: units[0].count: Hilde: a unit at most once per battlegroup"],
    ),
    "unknown unit": (_army("unit: Gabriel"), ["4: units[0].unit: unknown unit 'Gabriel'"]),
    "null points": (
        _army("unit: Kyenar", "unit: Spawnling"),
        ["5: units[1].unit: Spawnling has Ø points and cannot be chosen"],
    ),
    "second faction": (
        _army("unit: Raziel", "unit: Kyenar"),
        ["5: units[1].unit: Kyenar (Icnun) is neither of the faction Angels nor a mercenary"],
    ),
    "declared faction": (
        "faction: Icnun\n" + ARMY,
        [
            "5: units[0].unit: Raziel (Angels) is neither of the faction Icnun",
            "6: units[1].unit: Hilde (Angels) is neither of the faction Icnun",
        ],
    ),
    "mercenaries over half": (
        _army("unit: Seeiah", "unit: Lincoln", "unit: Eleanor"),
        ["3: units: mercenaries of other factions cost 40 of 58 points (over 50%)"],
    ),
    "apprentice without leader": (
        _army("unit: Raziel", "unit: Ishan"),
        ["5: units[1].unit: apprentice Ishan needs its leader Danai"],
    ),
    "missing name": (
        _army("unit: Raziel", header="system: rapture\n"),
        ["1: name: Field required"],
    ),
    "count zero": (
        _army("{unit: Raziel, count: 0}"),
        ["4: units[0].count: Input should be greater than or equal to 1"],
    ),
    "unknown key": (ARMY + "colour: red\n", ["6: colour: unknown key"]),
    "wrong system": (
        ARMY.replace("system: rapture", "system: heroscape"),
        ["2: system: expected 'rapture', found 'heroscape'"],
    ),
    "bad yaml": (ARMY.replace("unit: Hilde", "unit: [Hilde"), ["6: YAML syntax error"]),
}


@pytest.mark.parametrize("text,expected", BAD_LISTS.values(), ids=BAD_LISTS.keys())
def test_malformed_lists(tmp_path, cards, text, expected):
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        u.load_list(path, cards)
    lines = _lines(err, path)
    assert len(lines) == len(expected), lines
    for line, prefix in zip(lines, expected):
        assert line.startswith(prefix), (line, prefix)


def test_all_list_problems_reported_at_once(tmp_path, cards):
    path = _write(tmp_path, _army("unit: Gabriel", "unit: Raziel", "unit: Raziel", "unit: Ishan"))
    with pytest.raises(ConfigError) as err:
        u.load_list(path, cards)
    lines = _lines(err, path)
    assert [line.split(": ")[0:2] for line in lines] == [
        ["4", "units[0].unit"],
        ["6", "units[2].unit"],
        ["7", "units[3].unit"],
    ]


def test_leader_apprentice_consistency(tmp_path):
    leader = CARD.replace("type: hero", "type: leader") + "    apprentices: [Beta]\n"
    pupil = (
        CARD.split("units:\n", 1)[1]
        .replace("Alpha", "Gamma")
        .replace("type: hero", "type: apprentice\n    leader: Alpha")
    )
    path = _write(tmp_path, leader + pupil)
    with pytest.raises(ConfigError) as err:
        u.load_units(path)
    lines = _lines(err, path)
    assert lines == [
        "18: units[0].apprentices[0]: 'Beta' is not an apprentice card",
        "21: units[1].leader: Alpha's card does not list 'Gamma'",
    ]
