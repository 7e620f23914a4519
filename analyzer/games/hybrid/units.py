"""Hybrid warrior profiles and army lists (rulebook ``hybrid.txt``).

A profile card ("Warrior Profiles") carries the Natural Value (NV), the Mastery Level
printed next to each of the four Action Modes ("Action Modes": Offensive Combat OC,
Defensive Combat DC, Firing F, Moving Mv; a dash "-" means the Mode is not available),
the Movement ("Movement"), the Equipment with its modifiers to the Success Level per
Mode ("Equipment"), the Aptitudes with their /X value ("Aptitudes"), the Rank
("Ranking"), the base size ("Base") and the side (Griffin or Scorpion).

Army construction ("Missions"): the sum of the Ranks may not exceed the mission's Rank
Total, two Rank 0 warriors counting as 1, and the number of warriors may not exceed the
mission's Total Number of Warriors; the rulebook's example uses 8 and 8, the defaults
here.  Further checks, each a reading of the rulebook:

* each army has ten Activation counters ("Activation counters ... numbered from 1 to
  10"), so no mission can field more than ten warriors of one side;
* a Champion card stands for one unique figurine ("Warrior Profiles": a card is
  "either a Champion with his own unique figurine, or several ordinary warriors"), so a
  Champion appears at most once;
* a list fights for one side ("Army Cards are intended solely for one's own army";
  Aura Cards belong to the Griffins, Mutation Cards to the Scorpions): every card with
  a printed faction must match the list's ``faction`` (or, without one, each other).

Interpretations: a lone Rank 0 warrior counts 1/2 towards the Rank Total (the rule
says only that two of them count as 1), so three Rank 0 warriors count 1.5.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

from analyzer.config.models import (
    ArmyListBase,
    CardBase,
    StrictModel,
    UnitFile,
    load_army_list,
    load_cards,
)
from analyzer.games.hybrid import rules
from analyzer.paths import system_config

SYSTEM = "hybrid"
UNITS_FILE = system_config(SYSTEM, "units.yaml")

#: "Missions" example: "Rank Total 8, Total Number of Warriors 8" (each mission sets its own).
DEFAULT_RANK_TOTAL = 8
DEFAULT_MAX_WARRIORS = 8
#: "Activation counters": "numbered from 1 to 10, and each army has its own set".
ACTIVATION_COUNTERS = 10
#: "Ranking": "A warrior's Rank can be 0, 1, 2, 3, or 4."
MAX_RANK = 4
#: "Missions": "two Rank 0 warriors count as 1".
RANK_ZERO_WEIGHT = Fraction(1, 2)
#: "Action Modes": six named Mastery Levels; a printed number may exceed 6.
LEVEL_NAMES = {
    "basic": 1,
    "novice": 2,
    "skilled": 3,
    "expert": 4,
    "master": 5,
    "heroic": 6,
}
#: Highest printed level accepted (the card number "can exceed 6": valour in reserve).
MAX_LEVEL = 20
#: "Sight Range": 8 squares; "The range of ranged weapons is treated the same way."
SIGHT_RANGE = 8

#: Aptitudes of the rulebook ("Aptitudes"): canonical name -> whether it carries a /X value.
APTITUDES: dict[str, bool] = {
    "Combined Attack": True,
    "Aura": True,
    "Puny": False,
    "Conviction": True,
    "Duellist": True,
    "Felon": True,
    "Frenzy": True,
    "Brutish Strength": True,
    "Mutation": True,
    "Eye of the Lynx": True,
    "Infiltration": True,
    "Prestige": True,
    "Dorsal Protection": True,
    "Sacrifice": True,
    "Armour-Piercing Shot": True,
    "Titan": False,
    "Velocity": True,
}
_APTITUDE_KEYS = {re.sub(r"[\s_-]+", " ", k.lower()): k for k in APTITUDES}
_APTITUDE_KEYS["armor piercing shot"] = "Armour-Piercing Shot"


def _parse_level(value: Any) -> Any:
    """A printed Mastery Level: a number, a level name, or "-" / null for a dash."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("-", "", "none"):
            return None
        if text in LEVEL_NAMES:
            return LEVEL_NAMES[text]
    return value


#: A Mastery Level as printed: 1.. (None for the dash "-": Mode not available).
Level = Annotated[Annotated[int, Field(ge=1, le=MAX_LEVEL)] | None, BeforeValidator(_parse_level)]


class Equipment(StrictModel):
    """One item of the "Equipment" line: its modifiers to the SL in each Mode.

    ``ranged``: the item is a ranged weapon ("Firing": "Only a warrior armed with a
    ranged weapon, and who has a positive Firing Mode value ... can fire").
    """

    name: str = Field(min_length=1)
    offensive: int = Field(default=0, ge=-10, le=10)
    defensive: int = Field(default=0, ge=-10, le=10)
    firing: int = Field(default=0, ge=-10, le=10)
    ranged: bool = False


class Aptitude(StrictModel):
    """An Aptitude, written as on the card: ``"Duellist/2"``, ``"Titan"``."""

    name: str
    value: int | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            name, sep, x = data.partition("/")
            key = re.sub(r"[\s_-]+", " ", name.strip().lower())
            if key not in _APTITUDE_KEYS:
                raise ValueError(
                    f"unknown aptitude {name.strip()!r}; known: {', '.join(sorted(APTITUDES))}"
                )
            canonical = _APTITUDE_KEYS[key]
            if not sep:
                return {"name": canonical, "value": None}
            try:
                return {"name": canonical, "value": int(x)}
            except ValueError:
                raise ValueError(f"{canonical}/X needs an integer X, got {x!r}") from None
        return data

    @model_validator(mode="after")
    def _check(self) -> Aptitude:
        if self.name not in APTITUDES:
            raise ValueError(f"unknown aptitude {self.name!r}")
        if APTITUDES[self.name] and self.value is None:
            raise ValueError(f"{self.name} needs a value: {self.name}/X")
        if not APTITUDES[self.name] and self.value is not None:
            raise ValueError(f"{self.name} takes no /X value")
        if self.value is not None and self.value < 1:
            raise ValueError(f"{self.name}/X needs X >= 1")
        if self.name == "Duellist" and self.value is not None and self.value > rules.DUELLIST_MAX:
            raise ValueError(
                f"Duellist/X needs X <= {rules.DUELLIST_MAX} (10 is a Critical Failure)"
            )
        return self

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name}/{self.value}"


class Card(CardBase):
    """A Hybrid profile card (see the module docstring for the fields' rulebook sections)."""

    faction: str | None = Field(default=None, min_length=1)
    rank: int = Field(ge=0, le=MAX_RANK)
    champion: bool = False
    nv: int = Field(ge=1, le=20, description="Natural Value: SL base and wounds")
    oc: Level = Field(description="Offensive Combat Mastery Level (None: dash)")
    dc: Level = Field(description="Defensive Combat Mastery Level (None: dash)")
    f: Level = Field(description="Firing Mastery Level (None: dash)")
    mv: Level = Field(description="Moving Mastery Level (None: dash)")
    movement: int = Field(ge=0, le=30, description="squares per turn")
    base: Literal["standard", "cavalry", "large"] = "standard"
    equipment: list[Equipment] = Field(default_factory=list)
    aptitudes: list[Aptitude] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique_aptitudes(self) -> Card:
        names = [a.name for a in self.aptitudes]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"aptitude listed twice: {', '.join(twice)}")
        return self

    # ---------------------------------------------------------------- helpers
    def aptitude(self, name: str) -> int:
        """X of ``name``/X (1 for an Aptitude without X), 0 when the card lacks it."""
        for a in self.aptitudes:
            if a.name == name:
                return a.value if a.value is not None else 1
        return 0

    def modifier(self, mode: Literal["offensive", "defensive", "firing"]) -> int:
        """Sum of the Equipment modifiers to the SL in one Mode ("Equipment")."""
        return sum(getattr(e, mode) for e in self.equipment)

    @property
    def has_ranged_weapon(self) -> bool:
        return any(e.ranged for e in self.equipment)

    @property
    def can_fire(self) -> bool:
        """A Firing level and a ranged weapon ("Firing")."""
        return self.f is not None and self.has_ranged_weapon

    @property
    def firing_range(self) -> int:
        """Squares a shot reaches: the sight range plus Eye of the Lynx/X ("Sight Range")."""
        return SIGHT_RANGE + self.aptitude("Eye of the Lynx") if self.can_fire else 0

    @property
    def shot_modifier(self) -> int:
        """Modifier to the SL of anyone firing at this warrior.

        "Firing": +1 against a large base; "Titan": +1 (not added to the large-base
        bonus); "Velocity/X": -X.
        """
        big = 1 if (self.base == "large" or self.aptitude("Titan")) else 0
        return big - self.aptitude("Velocity")


class CardFile(UnitFile[Card]):
    """``configs/hybrid/units.yaml``."""


class ArmyList(ArmyListBase):
    """A Hybrid combat group for one mission: the mission's two caps and the side."""

    faction: str | None = Field(default=None, min_length=1)
    rank_total: int = Field(default=DEFAULT_RANK_TOTAL, ge=0)
    max_warriors: int = Field(default=DEFAULT_MAX_WARRIORS, ge=1, le=ACTIVATION_COUNTERS)


def load_units(path: str | Path = UNITS_FILE) -> dict[str, Card]:
    """Profile cards by name; every problem of the file is reported at once."""
    return load_cards(path, CardFile, SYSTEM)


def rank_total(army: ArmyList, cards: dict[str, Card]) -> Fraction:
    """Rank Total of a list: ranks summed, each Rank 0 warrior counting 1/2 ("Missions")."""
    total = Fraction(0)
    for entry in army.units:
        card = cards.get(entry.unit)
        if card is not None:
            total += entry.count * (card.rank if card.rank else RANK_ZERO_WEIGHT)
    return total


def _fmt(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def load_list(path: str | Path, cards: dict[str, Card]) -> ArmyList:
    """Load an army list and enforce the construction rules (module docstring)."""
    army, problems = load_army_list(path, ArmyList, cards, SYSTEM)
    total = rank_total(army, cards)
    if total > army.rank_total:
        problems.add(
            ["units"],
            f"Rank Total {_fmt(total)} exceeds the mission's {army.rank_total} "
            "(two Rank 0 warriors count as 1)",
        )
    warriors = sum(e.count for e in army.units)
    if warriors > army.max_warriors:
        problems.add(
            ["units"], f"{warriors} warriors exceed the mission's Total of {army.max_warriors}"
        )
    seen: dict[str, int] = {}
    faction = army.faction
    for i, entry in enumerate(army.units):
        card = cards.get(entry.unit)
        if card is None:
            continue
        if card.champion:
            if entry.count > 1:
                problems.add(
                    ["units", i, "count"],
                    f"{card.name} is a Champion (a unique figurine): at most 1, got {entry.count}",
                )
            if card.name in seen:
                problems.add(
                    ["units", i, "unit"],
                    f"{card.name} is a Champion (a unique figurine) and is already "
                    f"listed in units[{seen[card.name]}]",
                )
            seen.setdefault(card.name, i)
        if card.faction is not None:
            if faction is None:
                faction = card.faction
            elif card.faction != faction:
                where = "the list's faction" if army.faction else "the other warriors"
                problems.add(
                    ["units", i, "unit"],
                    f"{card.name} fights for {card.faction}, not {faction} ({where})",
                )
    problems.raise_if_any()
    return army


def health(card: Card) -> int:
    """Wounds a warrior takes before he is eliminated: his NV ("Natural Value")."""
    return card.nv


__all__ = [
    "APTITUDES",
    "UNITS_FILE",
    "Aptitude",
    "ArmyList",
    "Card",
    "CardFile",
    "Equipment",
    "health",
    "load_list",
    "load_units",
    "rank_total",
]
