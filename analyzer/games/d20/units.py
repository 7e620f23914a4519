"""d20 skirmish figurine cards and squad lists (rulebook ``d20-skirmish.txt``).

The rulebook prints no figurine card in full and no points, so the bundled
``configs/d20/units.yaml`` is sample data (see its header): every card lists in
``sample`` the fields that are not rulebook figures.

Card fields (from the rulebook's rules, which name what a card carries):

* ``skill``: the printed Shot and HtH skills ("3.2 Shots": "Shot + Weapon's power +
  1 D20"; "3.3 Hand to Hand combat": "Skill + Force + Weapon's Power + 1D20");
* ``power``, ``dexterity``, ``intelligence`` ("An Action can be performed through
  Dexterity, Power, Intelligence, or Skill"; "The Difficulty Levels of Objects");
* ``physical_defense`` (PD, "Dφ"), ``constitution`` (Constitution Points, CP: "When
  the last CP square is blacked out, the figurine is considered to be killed");
* ``movement`` in cm ("3.1 Movements": "indicated in centimeters on its card");
* ``force``: only where the card prints it apart from the HtH skill ("3.3");
* ``weapons``: name, Reach (a distance in cm, or ``HtH``), Power and special rules
  ("Weapons": "described in the charts according to its name, Reach and Power.
  Weapons may be subject to specific rules");
* ``special``: special characteristics named by the rulebook (infiltration,
  precognition: "Who starts ?"; impulsiveness: "Automatic movements"; large stand:
  an "outsize creature" in "Weapons" / "3.3 Hand to Hand combat");
* ``unique`` (sample field, not in the rulebook): a named character a squad may
  field only once.

Squad construction ("1. Starting a Game", "2. Deployment"): "The players choose
their scenario before forming their squads"; the rulebook itself prints no squad
size, character count or points limit, so those scenario limits are list fields
whose default (None) is the rulebook's: no limit.  A list may also name its
scenario, its role (Attacker/Defender, thrown for in "1. Starting a Game") and a
scenario's deployment distance (default: "twice the Movement of the squad's
fastest figurine", :func:`deployment_distance`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, PlainValidator

from analyzer import paths
from analyzer.config.models import (
    ArmyListBase,
    CardBase,
    StrictModel,
    UnitFile,
    load_army_list,
    load_cards,
)
from analyzer.games.d20 import rules

SYSTEM = "d20"
UNITS_FILE = paths.system_config(SYSTEM, "units.yaml")

#: Reach of a hand to hand weapon as printed in the weapon charts ("Psy soul | HtH | 6").
HTH = "HtH"
#: Weapon special rules the rulebook names.  "Automatic fire" is printed on the
#: Nyx-type rifle without a rule text (no effect in the duel); "grenade": "it is
#: however impossible to throw a grenade in HtH" ("Weapons").
WeaponRule = Literal["automatic fire", "grenade"]
#: Special characteristics the rulebook names (see the module docstring).  Adding
#: one a scenario or card introduces is a one-line change here.
Characteristic = Literal["infiltration", "precognition", "impulsiveness", "large stand"]
WEAPON_RULES: tuple[str, ...] = get_args(WeaponRule)
CHARACTERISTICS: tuple[str, ...] = get_args(Characteristic)
#: "Who starts ?": characteristics giving +1 to the player's D20.
FIRST_PLAYER_CHARACTERISTICS = ("infiltration", "precognition")

Stat = Annotated[int, Field(ge=0, le=100)]


def _reach(value: Any) -> int | str:
    """A Reach is a distance in cm (an integer >= 0) or ``HtH`` (case-insensitive)."""
    if isinstance(value, str) and value.strip().lower() == HTH.lower():
        return HTH
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ValueError(f"reach must be a distance in cm (an integer >= 0) or {HTH!r}")


Reach = Annotated[int | str, PlainValidator(_reach)]


class Skill(StrictModel):
    """The printed Shot and HtH skills."""

    shot: Stat
    hth: Stat


class Weapon(StrictModel):
    """One line of a weapon chart: name, Reach, Power, special rules ("Weapons")."""

    name: str = Field(min_length=1)
    reach: Reach
    power: Stat
    special: list[WeaponRule] = Field(default_factory=list)

    @property
    def is_hth(self) -> bool:
        """A hand to hand weapon (Reach ``HtH``)."""
        return self.reach == HTH

    @property
    def range_cm(self) -> int:
        """Maximum shooting distance ("The Reach is the maximum distance to which a weapon
        can shoot"); 0 for a HtH weapon."""
        return 0 if isinstance(self.reach, str) else self.reach

    @property
    def is_grenade(self) -> bool:
        return "grenade" in self.special


class Card(CardBase):
    """A d20 skirmish figurine card."""

    faction: str | None = None
    skill: Skill
    power: Stat
    dexterity: Stat
    intelligence: Stat
    physical_defense: Stat
    constitution: int = Field(ge=1, le=500)
    movement: Stat
    force: Stat | None = None
    weapons: list[Weapon] = Field(default_factory=list)
    special: list[Characteristic] = Field(default_factory=list)
    unique: bool = False

    @property
    def hth_weapons(self) -> list[Weapon]:
        return [w for w in self.weapons if w.is_hth]

    @property
    def shooting_weapons(self) -> list[Weapon]:
        return [w for w in self.weapons if not w.is_hth]


class CardFile(UnitFile[Card]):
    """``configs/d20/units.yaml``."""


class ArmyList(ArmyListBase):
    """A squad, with the scenario's limits (None: the rulebook sets no limit)."""

    scenario: str | None = None
    role: Literal["attacker", "defender"] | None = None
    max_points: int | None = Field(default=None, ge=0)
    min_figurines: int | None = Field(default=None, ge=1)
    max_figurines: int | None = Field(default=None, ge=1)
    max_copies: int | None = Field(default=None, ge=1)
    deployment_distance: int | None = Field(default=None, ge=0)


def load_units(path: str | Path = UNITS_FILE) -> dict[str, Card]:
    """Cards by name; every problem of the file in one :class:`ConfigError`."""
    return load_cards(path, CardFile, SYSTEM)


def load_list(path: str | Path, cards: dict[str, Card]) -> ArmyList:
    """Load a squad and check the scenario's construction limits, all problems at once.

    Checks: known cards (shared loader); total points <= ``max_points``; number of
    figurines within ``min_figurines``..``max_figurines``; copies of one card <=
    ``max_copies``; a ``unique`` card at most once.
    """
    army, problems = load_army_list(path, ArmyList, cards, SYSTEM)
    known = [(i, e) for i, e in enumerate(army.units) if e.unit in cards]
    points = sum(cards[e.unit].points * e.count for _, e in known)
    figurines = sum(e.count for e in army.units)
    if army.max_points is not None and points > army.max_points:
        problems.add(
            ["max_points"], f"squad costs {points} points, over the limit of {army.max_points}"
        )
    if army.max_figurines is not None and figurines > army.max_figurines:
        problems.add(
            ["max_figurines"],
            f"squad has {figurines} figurines, over the limit of {army.max_figurines}",
        )
    if army.min_figurines is not None and figurines < army.min_figurines:
        problems.add(
            ["min_figurines"],
            f"squad has {figurines} figurines, under the minimum of {army.min_figurines}",
        )
    copies: dict[str, int] = {}
    for i, entry in known:
        before = copies.get(entry.unit, 0)
        copies[entry.unit] = before + entry.count
        if cards[entry.unit].unique and copies[entry.unit] > 1:
            problems.add(
                ["units", i, "count" if before == 0 else "unit"],
                f"{entry.unit!r} is unique: at most one per squad",
            )
        elif army.max_copies is not None and before <= army.max_copies < copies[entry.unit]:
            problems.add(
                ["units", i, "count"],
                f"{copies[entry.unit]} copies of {entry.unit!r}, over the limit of "
                f"{army.max_copies}",
            )
    problems.raise_if_any()
    return army


def health(card: Card) -> int:
    """Constitution Points: the figurine is killed when its last CP is lost ("3.2 Shots")."""
    return card.constitution


def squad_cards(army: ArmyList, cards: dict[str, Card]) -> list[Card]:
    """One card per figurine of the squad."""
    return [cards[e.unit] for e in army.units for _ in range(e.count)]


def deployment_distance(army: ArmyList, cards: dict[str, Card]) -> int:
    """ "2. Deployment": twice the Movement of the squad's fastest figurine, unless the
    scenario (the list's ``deployment_distance``) specifies otherwise."""
    if army.deployment_distance is not None:
        return army.deployment_distance
    return 2 * max(c.movement for c in squad_cards(army, cards))


def first_player_bonus(army: ArmyList, cards: dict[str, Card]) -> int:
    """ "Who starts ?": +1 per character with an infiltration or precognition ability."""
    return rules.FIRST_PLAYER_BONUS_PER_CHARACTER * sum(
        any(s in FIRST_PLAYER_CHARACTERISTICS for s in c.special) for c in squad_cards(army, cards)
    )
