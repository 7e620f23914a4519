"""Rapture profile cards and battlegroups (army lists).

Rulebook: ``rapture.txt``, sections "Your Battlegroup", "Profile Cards",
"Health Points / Morale Points", "Abilities", "Ranged Weapons" (card fields)
and "Assemble Your Battlegroups" (list rules).

Card fields (YAML keys, all lower case):

* ``type``: ``hero``, ``leader`` (band leader), ``apprentice``, ``squad`` or ``vehicle``;
* ``points``: an integer, or ``Ø`` (stored as ``points: 0`` plus ``null_points: true``:
  such a card "cannot be chosen for a battlegroup");
* ``faction``, ``mercenary`` (the "Mercenary" ability, as a flag);
* ``hp``, ``mp`` (optional), ``ap``, ``rp``, ``ccs``, ``mms``, ``defense`` (DEF; ``def`` is
  a Python keyword), ``ini``, ``mov`` (cm), ``tec``, ``att``, ``rof``;
* ``weapon``: ``{name, range}`` (range in cm), optional;
* ``base`` (diameter in mm, default 30), ``models`` (models per squad; 1 otherwise);
* ``leader`` (apprentices: the leader they belong to) and ``apprentices`` (leaders:
  the apprentices the leader's card allows; empty = not modelled);
* ``health_effects`` / ``morale_effects``: ``{box: N, effect: {stat: ccs, change: 1}}``
  (morale also ``effect: escape``).  ``box`` counts from the top of the bar, so
  box N takes hold once N boxes are marked.  ``change`` is the arithmetic change
  of the printed number (``ccs`` +1 turns 3+ into 4+, a penalty; ``att`` -1 is a
  penalty), not the card's "+ improves / - worsens" sign convention;
* ``abilities``: entries of the built-in catalogue :data:`CATALOGUE`
  (``damage_reduction`` with ``amount``; ``stat_bonus`` with ``stat`` and
  ``change``; ``extra_attacks`` with ``amount``), each optionally with the
  printed ``title`` and ``text``.  Any other ability needs ``narrative: true``:
  it is kept, ignored by the engine and listed by :func:`ignored_abilities`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from analyzer import paths
from analyzer.config.loader import Problems
from analyzer.config.models import (
    ArmyListBase,
    CardBase,
    StrictModel,
    UnitFile,
    load_army_list,
    load_cards,
)
from analyzer.config.yaml_io import load_yaml

SYSTEM = "rapture"
UNITS_FILE = paths.system_config(SYSTEM, "units.yaml")

UnitType = Literal["hero", "leader", "apprentice", "squad", "vehicle"]
Stat = Literal["ccs", "mms", "defense", "ini", "mov", "tec", "att", "rof", "ap", "rp"]
#: Stats whose *lower* value is better ("Profile Cards": CCS and MMS).
SKILL_STATS = ("ccs", "mms")
#: A skill worse than 6+ can never succeed on a d6.
NEVER = 7
#: Printed symbol of unselectable cards ("Your Battlegroup": units with "Ø" points).
NULL_POINTS = ("Ø", "ø", "∅")

#: The abilities the duel engine understands and the parameters each needs.
CATALOGUE: dict[str, tuple[str, ...]] = {
    # like "Scale Skin": received damage reduced by ``amount`` after blocks
    "damage_reduction": ("amount",),
    # flat change of a printed stat (same sign convention as health effects)
    "stat_bonus": ("stat", "change"),
    # +``amount`` ATT
    "extra_attacks": ("amount",),
}
_ABILITY_PARAMS = ("amount", "stat", "change")


class Weapon(StrictModel):
    """The weapon ("Ranged Weapons"): its name and its range in cm (printed in brackets)."""

    name: str = Field(min_length=1)
    range: float = Field(gt=0, le=1000)


class StatChange(StrictModel):
    """What a bar box triggers: a stat and the change of its printed number, or Escape."""

    stat: Stat | None = None
    change: int | None = None
    escape: bool = False

    @model_validator(mode="before")
    @classmethod
    def _escape_word(cls, data: Any) -> Any:
        if isinstance(data, str) and data.strip().lower() == "escape":
            return {"escape": True}
        return data

    @model_validator(mode="after")
    def _one_kind(self) -> StatChange:
        if self.escape:
            if self.stat is not None or self.change is not None:
                raise ValueError("an Escape effect has no stat or change")
        elif self.stat is None or self.change is None:
            raise ValueError("give either 'escape' or both 'stat' and 'change'")
        elif self.change == 0:
            raise ValueError("change must not be 0")
        return self


class BarEffect(StrictModel):
    """Marking box ``box`` (from the top) triggers ``effect`` ("Health Points / Morale Points")."""

    box: int = Field(ge=1)
    effect: StatChange


class Ability(StrictModel):
    """One ability: a catalogue entry with its parameters, or a narrative-only ability."""

    narrative: bool = False
    name: str = Field(min_length=1)
    title: str | None = None
    text: str | None = None
    amount: int | None = Field(default=None, ge=1, le=40)
    stat: Stat | None = None
    change: int | None = None

    @field_validator("name")
    @classmethod
    def _known(cls, name: str, info: ValidationInfo) -> str:
        if not info.data.get("narrative") and name not in CATALOGUE:
            raise ValueError(
                f"unknown ability {name!r} (the engine knows {', '.join(CATALOGUE)}; "
                "add 'narrative: true' to keep an ability the engine should ignore)"
            )
        return name

    @model_validator(mode="after")
    def _parameters(self) -> Ability:
        given = [p for p in _ABILITY_PARAMS if getattr(self, p) is not None]
        if self.narrative:
            if given:
                raise ValueError(f"a narrative ability takes no engine parameters ({given})")
            return self
        needed = CATALOGUE[self.name]
        missing = [p for p in needed if getattr(self, p) is None]
        extra = [p for p in given if p not in needed]
        if missing:
            raise ValueError(f"{self.name} needs {', '.join(missing)}")
        if extra:
            raise ValueError(f"{self.name} takes no {', '.join(extra)}")
        if self.change == 0:
            raise ValueError("change must not be 0")
        return self


class Card(CardBase):
    """A Rapture profile card (one hero, leader, apprentice, squad or vehicle)."""

    type: UnitType
    faction: str = Field(min_length=1)
    mercenary: bool = False
    null_points: bool = False
    models: int = Field(default=1, ge=1, le=20, validate_default=True)
    hp: int = Field(ge=1, le=60)
    mp: int | None = Field(default=None, ge=0, le=60)
    ap: int = Field(ge=0, le=10)
    rp: int = Field(ge=0, le=10)
    ccs: int = Field(ge=1, le=6)
    mms: int = Field(ge=1, le=6)
    defense: int = Field(ge=0, le=20)
    ini: int = Field(ge=0, le=20)
    mov: float = Field(ge=0, le=100)
    tec: int = Field(ge=0, le=20)
    att: int = Field(ge=0, le=20)
    rof: int = Field(ge=0, le=20)
    weapon: Weapon | None = None
    base: int = Field(default=30, ge=1, le=300)
    leader: str | None = Field(default=None, validate_default=True)
    apprentices: list[str] = Field(default_factory=list, validate_default=True)
    health_effects: list[BarEffect] = Field(default_factory=list)
    morale_effects: list[BarEffect] = Field(default_factory=list)
    abilities: list[Ability] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _null_points(cls, data: Any) -> Any:
        if isinstance(data, dict) and str(data.get("points", "")).strip() in NULL_POINTS:
            return {**data, "points": 0, "null_points": True}
        return data

    @field_validator("models")
    @classmethod
    def _models_fit_type(cls, models: int, info: ValidationInfo) -> int:
        kind = info.data.get("type")
        if kind == "squad" and models < 2:
            raise ValueError("a squad has at least 2 models")
        if kind is not None and kind != "squad" and models != 1:
            raise ValueError(f"a {kind} is a single model (models: 1)")
        return models

    @field_validator("leader")
    @classmethod
    def _leader_for_apprentices(cls, leader: str | None, info: ValidationInfo) -> str | None:
        kind = info.data.get("type")
        if kind == "apprentice" and not leader:
            raise ValueError("an apprentice names its leader")
        if kind is not None and kind != "apprentice" and leader is not None:
            raise ValueError("only apprentices name a leader")
        return leader

    @field_validator("apprentices")
    @classmethod
    def _apprentices_for_leaders(cls, names: list[str], info: ValidationInfo) -> list[str]:
        kind = info.data.get("type")
        if names and kind is not None and kind != "leader":
            raise ValueError("only a leader's card lists apprentices")
        return names

    @field_validator("weapon")
    @classmethod
    def _weapon_needs_rof(cls, weapon: Weapon | None, info: ValidationInfo) -> Weapon | None:
        if weapon is not None and info.data.get("rof") == 0:
            raise ValueError("a ranged weapon needs ROF >= 1")
        return weapon

    def ability_total(self, name: str) -> int:
        """Sum of ``amount`` over the card's engine abilities called ``name``."""
        return sum(a.amount or 0 for a in self.abilities if not a.narrative and a.name == name)


class CardFile(UnitFile[Card]):
    """``configs/rapture/units.yaml``."""


class ArmyList(ArmyListBase):
    """A battlegroup: ``points_limit`` (default 100) and optionally its ``faction``.

    Without ``faction`` the battlegroup's faction is the one shared by its
    non-mercenary units.
    """

    points_limit: int = Field(default=100, ge=1)
    faction: str | None = None


# ------------------------------------------------------------------ loading
def load_units(path: str | Path = UNITS_FILE) -> dict[str, Card]:
    """Load and check a unit file; every problem of the file in one :class:`ConfigError`.

    Besides the card models, checks bar effects against the bar lengths and that
    leaders and apprentices name each other consistently.
    """
    cards: dict[str, Card] = load_cards(path, CardFile, SYSTEM)
    doc = load_yaml(path)
    problems = Problems(path, doc)
    for i, card in enumerate(_cards_in_order(doc, cards)):
        _check_card(card, i, cards, problems)
    problems.raise_if_any()
    return cards


def _cards_in_order(doc: Any, cards: Mapping[str, Card]) -> list[Card]:
    return [cards[str(entry["name"])] for entry in doc["units"]]


def _check_card(card: Card, i: int, cards: Mapping[str, Card], problems: Problems) -> None:
    for j, effect in enumerate(card.health_effects):
        loc: list[str | int] = ["units", i, "health_effects", j]
        if card.type == "squad":
            problems.add(loc, "health bar effects of squads are not supported")
        elif effect.box > card.hp:
            problems.add([*loc, "box"], f"box {effect.box} is beyond the {card.hp} HP boxes")
        if effect.effect.escape:
            problems.add([*loc, "effect"], "Escape belongs on the morale bar")
    for j, effect in enumerate(card.morale_effects):
        loc = ["units", i, "morale_effects", j]
        if card.mp is None:
            problems.add(loc, "morale effects need an 'mp' value")
        elif effect.box > card.mp:
            problems.add([*loc, "box"], f"box {effect.box} is beyond the {card.mp} MP boxes")
    if card.leader is not None:
        leader = cards.get(card.leader)
        if leader is None or leader.type != "leader":
            problems.add(["units", i, "leader"], f"{card.leader!r} is not a leader card")
        elif leader.apprentices and card.name not in leader.apprentices:
            problems.add(
                ["units", i, "leader"], f"{leader.name}'s card does not list {card.name!r}"
            )
    for j, name in enumerate(card.apprentices):
        other = cards.get(name)
        if other is None or other.type != "apprentice":
            problems.add(["units", i, "apprentices", j], f"{name!r} is not an apprentice card")
        elif other.leader != card.name:
            problems.add(
                ["units", i, "apprentices", j], f"{name} names {other.leader!r} as its leader"
            )


def load_list(path: str | Path, cards: dict[str, Card]) -> ArmyList:
    """Load a battlegroup and check "Assemble Your Battlegroups"; all problems at once.

    Rules: total points within ``points_limit``; no card with Ø points; a squad
    at most twice, every other unit once; a single faction (mercenaries of
    other factions allowed) and mercenaries of other factions at most 50% of
    the battlegroup's points (its total cost); apprentices only with their leader.
    """
    army, problems = load_army_list(path, ArmyList, cards, SYSTEM)
    known = [(i, e, cards[e.unit]) for i, e in enumerate(army.units) if e.unit in cards]
    total = sum(card.points * e.count for _, e, card in known)

    copies: dict[str, int] = {}
    for i, entry, card in known:
        if card.null_points:
            problems.add(["units", i, "unit"], f"{card.name} has Ø points and cannot be chosen")
        allowed = 2 if card.type == "squad" else 1
        what = "a squad at most twice" if allowed == 2 else "a unit at most once"
        before = copies.get(card.name, 0)
        copies[card.name] = before + entry.count
        if entry.count > allowed:
            problems.add(["units", i, "count"], f"{card.name}: {what} per battlegroup")
        elif before + entry.count > allowed:
            problems.add(
                ["units", i, "unit"],
                f"{card.name} is listed again: {what} per battlegroup",
            )

    faction = army.faction or _main_faction(c for _, _, c in known)
    merc_points = 0
    for i, entry, card in known:
        if faction is None or card.faction == faction:
            continue
        if card.mercenary:
            merc_points += card.points * entry.count
        else:
            problems.add(
                ["units", i, "unit"],
                f"{card.name} ({card.faction}) is neither of the faction {faction} nor a mercenary",
            )
    if total > army.points_limit:
        problems.add(["units"], f"the units cost {total} points, over the {army.points_limit}")
    if 2 * merc_points > total:
        problems.add(
            ["units"],
            f"mercenaries of other factions cost {merc_points} of {total} points (over 50%)",
        )

    listed = {card.name for _, _, card in known}
    for i, _, card in known:
        if card.type == "apprentice" and card.leader not in listed:
            problems.add(
                ["units", i, "unit"], f"apprentice {card.name} needs its leader {card.leader}"
            )
    problems.raise_if_any()
    return army


def _main_faction(cards: Iterable[Card]) -> str | None:
    """The faction of the first non-mercenary unit (else of the first unit)."""
    listed = list(cards)
    for card in listed:
        if not card.mercenary:
            return card.faction
    return listed[0].faction if listed else None


# -------------------------------------------------------------- unit values
def health(card: Card) -> int:
    """Health the duel counts: HP per model times the number of models."""
    return card.hp * card.models


def models_alive(card: Card, remaining: int) -> int:
    """Models still standing with ``remaining`` health (wounds fill models one by one)."""
    return 0 if remaining <= 0 else math.ceil(remaining / card.hp)


def effective_stats(card: Card, remaining: int) -> dict[str, float]:
    """Printed stats plus ``stat_bonus``/``extra_attacks`` and the triggered health effects.

    "Health Points / Morale Points": an effect takes hold once its box is
    marked, effects add up.  "Profile Cards": no stat drops below 0; CCS/MMS
    are kept within 1..7 (7: never hits).
    """
    stats: dict[str, float] = {
        s: float(getattr(card, s))
        for s in ("ccs", "mms", "defense", "ini", "mov", "tec", "att", "rof", "ap", "rp")
    }
    for ability in card.abilities:
        if ability.narrative:
            continue
        if ability.name == "stat_bonus":
            assert ability.stat is not None and ability.change is not None
            stats[ability.stat] += ability.change
        elif ability.name == "extra_attacks":
            stats["att"] += ability.amount or 0
    wounds = health(card) - remaining
    for effect in card.health_effects:
        if effect.box <= wounds and effect.effect.stat is not None:
            stats[effect.effect.stat] += effect.effect.change or 0
    for stat, value in stats.items():
        stats[stat] = min(max(value, 1), NEVER) if stat in SKILL_STATS else max(value, 0)
    return stats


def ignored_abilities(cards: Mapping[str, Card] | Iterable[Card]) -> list[str]:
    """One message per narrative ability (kept on the card, ignored by the engine)."""
    listed = cards.values() if isinstance(cards, Mapping) else cards
    return [
        f"{card.name}: ability {a.title or a.name!r} is narrative only and ignored by the engine"
        for card in listed
        for a in card.abilities
        if a.narrative
    ]
