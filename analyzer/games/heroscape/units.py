"""Heroscape Army Cards (Master Game side) and army lists.

Rulebook: ``heroscape.txt``.  A card holds every field of "Army Cards (Master Game
Side)": affiliation, name, species, uniqueness, Hero / Squad, class, personality,
size, height, special powers, plus the values printed on the card (Life, Move,
Range, Attack, Defense, Points; see the Gelryie Vanguards example card), the
number of figures on the card and the base (single or double-space, "Double-Space
Figures").

Special powers are listed by name.  The duel engine understands the powers of
:data:`POWER_CATALOGUE`; any other power must be marked ``narrative: true`` (its text
is kept for reference and has no effect in the analyses), so a misspelt engine
power is reported instead of being silently ignored.

Army construction ("Choose Your Army", "Army Cards (Master Game Side)" -> Uniqueness):
the scenario dictates the points cap and optionally the maximum number of figures
and of spaces (``points_cap``, ``max_figures``, ``max_spaces`` in the list file; the
rulebook prints no standard format, so ``points_cap`` is required); a Unique card at
most once; Uncommon and Common cards any number of times.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from analyzer.config.models import (
    ArmyListBase,
    CardBase,
    StrictModel,
    UnitFile,
    load_army_list,
    load_cards,
)
from analyzer.paths import system_config

SYSTEM = "heroscape"
UNITS_FILE = system_config(SYSTEM, "units.yaml")

Uniqueness = Literal["unique", "uncommon", "common"]
Kind = Literal["hero", "squad"]
Size = Literal["small", "medium", "large", "huge"]
Base = Literal["single", "double"]

#: "Double-Space Figures": a double-space figure occupies 2 spaces.
SPACES_PER_FIGURE = {"single": 1, "double": 2}
#: Farthest distance in a duel, in spaces (start, Move, Range): the exact chain holds every
#: distance on the way, so memory grows with it; maps are a few dozen spaces across.
MAX_SPACES = 100

# Names of the special powers the duel engine understands.
OBFUSCATION_MATRIX = "Obfuscation Matrix"
DEFEND_THE_DEEP = "Defend the Deep"
DOUBLE_ATTACK = "Double Attack"
NANITE_SHIELDING = "Nanite Shielding"
NANOTOXIN_COATING = "Nanotoxin Coating"
BLOODCURSED_BLADE = "Bloodcursed Blade"
GULLOX_WING_RENDER = "Gulløx Wing Render"
GIANT_HUNTER_STONE = "Giant Hunter Stone"
FLYING = "Flying"
STEALTH_FLYING = "Stealth Flying"

#: Special powers with an effect the engine models, and where the rulebook defines them.
POWER_CATALOGUE: dict[str, str] = {
    OBFUSCATION_MATRIX: (
        '"Master Game Attack Examples" (Agent SI-4X counts as being on a shadow space) and '
        '"Shadow": +1 Defense Value for a Small, Medium or Large figure'
    ),
    DEFEND_THE_DEEP: (
        "Gelryie Vanguards card: +2 Defense Value on a water space or against an attacker "
        "with height advantage (never applies in a duel: no water, no height advantage)"
    ),
    DOUBLE_ATTACK: '"Simultaneous Effects" (Queen Maladrix): an additional normal attack',
    NANITE_SHIELDING: '"Tech Glyphs": 1 automatic shield on a defense roll, once per round',
    NANOTOXIN_COATING: (
        '"Tech Glyphs": 1 additional wound after wounding an adjacent figure with a normal '
        "attack, once per round"
    ),
    BLOODCURSED_BLADE: (
        '"Permanent Treasure Glyphs": +1 skull on a normal attack against an adjacent figure; '
        "1 wound to the Hero at the end of its turn if no figure took a wound"
    ),
    GULLOX_WING_RENDER: (
        '"Permanent Treasure Glyphs": re-roll 1 attack die that did not show a skull '
        "(normal attack against an adjacent figure)"
    ),
    GIANT_HUNTER_STONE: (
        '"Permanent Treasure Glyphs": +1 Attack and Defense Value against Large or Huge figures'
    ),
    FLYING: '"Special Power Keywords" -> "Flying" (no effect in a 1-D duel without terrain)',
    STEALTH_FLYING: (
        '"Special Power Keywords" -> "Stealth Flying" (no effect in a 1-D duel without terrain)'
    ),
}
#: Catalogue powers that never change a duel (documented in the duel notes).
DUEL_INERT_POWERS = frozenset({DEFEND_THE_DEEP, FLYING, STEALTH_FLYING})

#: "Treasure Glyphs": only Unique Hero figures can pick up or activate a Treasure Glyph
#: (Tech Glyphs are a subset of permanent Treasure Glyphs).
TREASURE_GLYPH_POWERS = frozenset(
    {NANITE_SHIELDING, NANOTOXIN_COATING, BLOODCURSED_BLADE, GULLOX_WING_RENDER, GIANT_HUNTER_STONE}
)
#: "Nanite Shielding" / "Jump Pack": only Small or Medium figures may use this ability.
SMALL_OR_MEDIUM_POWERS = frozenset({NANITE_SHIELDING})


class SpecialPower(StrictModel):
    """One special power: a catalogue name, or any name with ``narrative: true``."""

    narrative: bool = Field(
        default=False, description="text-only power: kept for reference, no engine effect"
    )
    text: str | None = None
    name: str = Field(min_length=1)

    @field_validator("name")
    @classmethod
    def _known(cls, name: str, info: ValidationInfo) -> str:
        if not info.data.get("narrative", False) and name not in POWER_CATALOGUE:
            known = ", ".join(POWER_CATALOGUE)
            raise ValueError(
                f"unknown special power {name!r} (the engine knows: {known}); "
                "mark text-only powers with narrative: true"
            )
        return name


class Card(CardBase):
    """A Heroscape Army Card, Master Game side ("Army Cards (Master Game Side)")."""

    affiliation: str | None = Field(default=None, description="Valkyrie General / organization")
    uniqueness: Uniqueness
    kind: Kind
    # Bounds (rulebook silent; printed cards stay far below): figures x life sizes the
    # duel engine's health states, squared, and move/range its distances.
    figures: int = Field(ge=1, le=10, description="figures on the card (silhouettes for a Squad)")
    life: int = Field(ge=1, le=20, description="Life Value of each figure")
    move: int = Field(ge=0, le=MAX_SPACES)
    range: int = Field(ge=1, le=MAX_SPACES, description="Range Value; 1: adjacent only")
    attack: int = Field(ge=0, le=40)
    defense: int = Field(ge=0, le=40)
    height: int = Field(ge=0, le=100, description="levels tall")
    size: Size
    base: Base = "single"
    species: str = Field(min_length=1)
    card_class: str = Field(alias="class", min_length=1)
    personality: str = Field(min_length=1)
    special_powers: list[SpecialPower] = Field(default_factory=list)

    @model_validator(mode="after")
    def _sample_fields_exist(self) -> Card:
        """``sample`` names fields as written in the YAML (``class``, not ``card_class``)."""
        names = {f.alias or n for n, f in type(self).model_fields.items()}
        unknown = [f for f in self.sample if f not in names]
        if unknown:
            raise ValueError(f"sample lists unknown field(s): {', '.join(unknown)}")
        return self

    @model_validator(mode="after")
    def _card_rules(self) -> Card:
        # "Army Cards (Master Game Side)" -> Hero / Squad
        if self.kind == "hero" and self.figures != 1:
            raise ValueError("a Hero card features a single figure (figures: 1)")
        if self.kind == "squad" and self.figures < 2:
            raise ValueError("a Squad card features 2 or more figures")
        for power in self.special_powers:
            if power.narrative:
                continue
            if power.name in TREASURE_GLYPH_POWERS and (
                self.kind != "hero" or self.uniqueness != "unique"
            ):
                raise ValueError(
                    f"{power.name}: only Unique Hero figures can carry a Treasure Glyph"
                )
            if power.name in SMALL_OR_MEDIUM_POWERS and self.size not in ("small", "medium"):
                raise ValueError(f"{power.name}: only Small or Medium figures may use this ability")
        return self

    def has(self, power: str) -> bool:
        """True if the card has the engine power ``power`` (narrative entries do not count)."""
        return any(p.name == power and not p.narrative for p in self.special_powers)


class CardFile(UnitFile[Card]):
    """``configs/heroscape/units.yaml``."""


class ArmyList(ArmyListBase):
    """An army: the scenario's caps ("Choose Your Army") and the chosen Army Cards."""

    points_cap: int = Field(ge=1, description="maximum points value of the Army (scenario)")
    max_figures: int | None = Field(default=None, ge=1, description="scenario's figure cap")
    max_spaces: int | None = Field(default=None, ge=1, description="scenario's space cap")


def load_units(path: str | Path) -> dict[str, Card]:
    """Validated cards by name; every problem of the file in one ConfigError."""
    return load_cards(path, CardFile, SYSTEM)


def army_totals(army: ArmyList, cards: Mapping[str, Card]) -> tuple[int, int, int]:
    """(points, figures, spaces) of the known cards of ``army``."""
    points = figures = spaces = 0
    for entry in army.units:
        card = cards.get(entry.unit)
        if card is None:
            continue
        points += card.points * entry.count
        figures += card.figures * entry.count
        spaces += card.figures * SPACES_PER_FIGURE[card.base] * entry.count
    return points, figures, spaces


def load_list(path: str | Path, cards: Mapping[str, Card]) -> ArmyList:
    """Load an army list and enforce the construction rules; all problems at once.

    * "Choose Your Army": the points value of the Army must not exceed ``points_cap``.
      The rulebook says an Army with more figures (or spaces) than the scenario allows
      must set figures aside before the game; a list file names the Army that plays,
      so a list over ``max_figures`` / ``max_spaces`` is reported as a problem.
    * Uniqueness: no two Unique Army Cards with the same name (over all entries,
      counting ``count``); Uncommon and Common cards may be chosen any number of times.
    """
    army, problems = load_army_list(path, ArmyList, dict(cards), SYSTEM)
    seen: dict[str, int] = {}
    for i, entry in enumerate(army.units):
        card = cards.get(entry.unit)
        if card is None or card.uniqueness != "unique":
            continue
        if entry.unit in seen:
            problems.add(
                ["units", i, "unit"],
                f"Unique card {entry.unit!r} is already in the army (units[{seen[entry.unit]}]); "
                "an Army cannot have 2 Unique Army Cards with the same name",
            )
        elif entry.count > 1:
            problems.add(
                ["units", i, "count"],
                f"Unique card {entry.unit!r} chosen {entry.count} times; "
                "an Army cannot have 2 Unique Army Cards with the same name",
            )
        seen.setdefault(entry.unit, i)
    points, figures, spaces = army_totals(army, cards)
    if points > army.points_cap:
        problems.add(
            ["points_cap"], f"the army costs {points} points, over the cap of {army.points_cap}"
        )
    if army.max_figures is not None and figures > army.max_figures:
        problems.add(
            ["max_figures"],
            f"the army has {figures} figures, over the maximum of {army.max_figures} "
            "(set figures aside: list only the cards that take part)",
        )
    if army.max_spaces is not None and spaces > army.max_spaces:
        problems.add(
            ["max_spaces"],
            f"the army occupies {spaces} spaces, over the maximum of {army.max_spaces} "
            "(set figures aside: list only the cards that take part)",
        )
    problems.raise_if_any()
    return army


def health(card: Card) -> int:
    """Total Life of the card's figures ("Scoring": the Life an Army Card represents)."""
    return card.figures * card.life
