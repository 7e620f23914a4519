"""Degenesis: Clan Wars unit cards (OPERATIVES, LEGIONS, CHAMPIONS) and ROSTERS.

Rulebook: ``degenesis-clan-wars.txt``.  A card is one of three kinds, told
apart by its ``kind`` field (a pydantic discriminated union):

* ``operative`` -- "Dashboards": a FOCUS and a PRIMAL side, each with its POOL
  (WHITE/BLACK/FATAL dice), its DEFENSE and its TRAITS (the first ACTIVE, the
  second PASSIVE); the third TRAIT is "always shared between the FOCUS and
  PRIMAL sides" (``shared_trait``); the CULT and the CONCEPT (an ARCANA).
  "Potentials": at least one POTENTIAL (each of a CULT; CLANNER POTENTIALS
  for anyone); "Items": up to 5 ITEMS (ENCUMBRANCE LIMIT, CARRYING +/-X), each
  with its CULT, colour (FOCUS / PRIMAL / NEUTRAL), ATTACK value (the
  HANDLING POOL added to the user's POOL) and RANGE for WEAPONS (MELEE or
  RANGED KEYWORD), DEFENSE for ARMOR (only one ARMOR), TRAITS, KEYWORDS and
  the BOTCH TRAIT / BOTCH KEYWORDS of the BOTCH face.
* ``legion`` -- "Legion Board Breakdown": RANK, ATTACK POOL, DEFENSE, RANGE,
  the LEGION's TRAIT, the RANK's TRAIT and the CLAN TRAIT.
* ``champion`` -- "Champions": the BASE card (BASE TRAIT) and the STAGE cards,
  each with ATTACK POOL, DEFENSE, RANGE and a STAGE TRAIT.

A TRAIT ("Active Traits", "Abilities") has a name, whether it is ACTIVE, its
text and the ABILITIES it grants with their RATINGS (``{defense: 1}`` for
DEFENSE +1); ability names come from the rulebook's "Abilities" catalogue.

Health ("Potentials", "The Hostile", "Champions"): an OPERATIVE with P
POTENTIALS takes P WOUNDS flipping them to FLESHWOUNDS and P more as TRAUMA
before being DEAD (the Timur example: 2 POTENTIALS, DEAD at the 4th WOUND),
so 2P; a LEGION "can only withstand a single WOUND" (1); a CHAMPION one per
STAGE (wounded on its last STAGE it DIES).

``sample`` lists the fields whose values are sample data; besides top-level
field names it accepts dotted paths into the card, with list indices, e.g.
``focus.pool`` or ``items[0].attack``, so a card can mark a printed DEFENSE
as rulebook data and the POOL beside it as sample data.

ROSTERS ("Step 3: Roster Selection"): 1 to 4 OPERATIVES, each at most once,
from the UNLOCKED OPERATIVES.  HOSTILE FORCES ("The Hostile"): LEGIONS and
CHAMPIONS ("unique ... only appear once"), at most the MISSION's number of
units when ``hostile_forces`` is given.  The rulebook has no points: card
points are sample data and ``points_limit`` is an analyzer option.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, Field, field_validator, model_validator

from analyzer.config.loader import Problems, load_model, register_union_tags
from analyzer.config.models import (
    ArmyListBase,
    CardBase,
    StrictModel,
    UnitFile,
    load_army_list,
)
from analyzer.games.degenesis import rolls
from analyzer.paths import system_config

SYSTEM = "degenesis"
UNITS_FILE = system_config(SYSTEM, "units.yaml")

#: "Cults": the thirteen CULTS, as printed.
Cult = Literal[
    "Spitalians",
    "Palers",
    "Judges",
    "Neolibyans",
    "Jehammedans",
    "Chroniclers",
    "Clanners",
    "Scourgers",
    "Apocalyptics",
    "Hellvetics",
    "Scrappers",
    "Anubians",
    "Anabaptists",
]
CULTS = get_args(Cult)
#: "Potentials": "CLANNER POTENTIALS ... may be acquired and used by any OPERATIVE".
CLANNER_CULT = "Clanners"
#: "Abilities": the catalogue (names in snake case; RATING X, 1 for ABILITIES without one).
ABILITIES = (
    "area_attack",
    "carrying",
    "defense",
    "dirty_fighting",
    "displace",
    "hidden",
    "immune",
    "negate",
    "secure",
    "stealth",
    "stun",
    "speed",
    "success",
    "obscuring",
    "range",
)
#: "Keywords": MELEE and RANGED make an ITEM a WEAPON; ARMOR; PERMANENT.
KEYWORDS = ("melee", "ranged", "armor", "permanent")
Keyword = Literal["melee", "ranged", "armor", "permanent"]
#: "Items Color Code": FOCUS (black and gold), PRIMAL (red and black), NEUTRAL.
ItemSide = Literal["focus", "primal", "neutral"]
#: "Items": "OPERATIVES can CARRY up to 5 ITEMS, this is their ENCUMBRANCE LIMIT".
ENCUMBRANCE_LIMIT = 5
#: "Items": "Only one ARMOR may be CARRIED at a time".
MAX_ARMOR = 1
#: Bounds of DEFENSE values and ABILITY ratings (rulebook silent; printed cards use < 10):
#: the duel engine sizes its success-chance tables by the largest DEFENSE.
MAX_DEFENSE = 40
Rating = Annotated[int, Field(ge=-MAX_DEFENSE, le=MAX_DEFENSE)]
#: "Dashboards": TRAITS per side (the first ACTIVE, the second PASSIVE); the third is shared.
SIDE_TRAITS = 2
#: "Step 3: Roster Selection": "anywhere from 1 TO 4 OPERATIVES".
ROSTER_MIN, ROSTER_MAX = 1, 4
#: Health per POTENTIAL: one WOUND flips it to a FLESHWOUND, one more DISCARDS it (TRAUMA).
WOUNDS_PER_POTENTIAL = 2
#: "The Hostile": "LEGIONS can only withstand a single WOUND before they are killed".
LEGION_HEALTH = 1

register_union_tags("operative", "legion", "champion")


class Pool(StrictModel):
    """A POOL of dice ("Dice Rolls"): how many WHITE, BLACK and FATAL DICE."""

    white: int = Field(default=0, ge=0, le=rolls.MAX_DICE)
    black: int = Field(default=0, ge=0, le=rolls.MAX_DICE)
    fatal: int = Field(default=0, ge=0, le=rolls.MAX_DICE)

    def dice(self) -> dict[str, int]:
        return {"white": self.white, "black": self.black, "fatal": self.fatal}

    def size(self) -> int:
        return self.white + self.black + self.fatal

    def __add__(self, other: Pool) -> Pool:
        return Pool(
            white=self.white + other.white,
            black=self.black + other.black,
            fatal=self.fatal + other.fatal,
        )


def _check_abilities(value: dict[str, int]) -> dict[str, int]:
    """Ability names must come from the "Abilities" catalogue."""
    unknown = [k for k in value if k not in ABILITIES]
    if unknown:
        raise ValueError(
            f'unknown ability {unknown[0]!r} (the "Abilities" catalogue: {", ".join(ABILITIES)})'
        )
    return value


#: The TRAIT effects beyond the ABILITIES that the match engine plays (a TRAIT's ``text``
#: is free text): ``flip_this_item_back`` an ITEM's ACTIVE BOTCH TRAIT that FLIPS it back
#: (the sample Clogged Nozzle), ``flip_own_item_back`` an ACTIVE TRAIT that FLIPS one of
#: the OPERATIVE's ITEMS back (Jury-Rig), ``empty_handling_pool`` a PASSIVE BOTCH TRAIT
#: leaving the ITEM usable with its HANDLING POOL counted as empty (Bent Shaft),
#: ``pool_attack`` an ACTIVE DASHBOARD TRAIT that is a MELEE ATTACK with the side's POOL
#: and the TRAIT's ABILITIES (``area_attack``, ``stun``, ...: Scrap Storm);
#: ``heal_fleshwound`` an ACTIVE TRAIT FLIPPING back 1 FLESHWOUND of the OPERATIVE or of an
#: ALLY ``within`` X while UNOPPOSED (Patch Up), ``reveal_threat`` REVEALING a THREAT
#: ``within`` X (Data Stream), ``stun_enemy`` STUNNING an ENEMY ``within`` X (Overload),
#: ``enemy_defense`` an ENEMY ``within`` X takes the TRAIT's ``defense`` (negative) this ROUND
#: (Verdict), ``wounded_attack`` a MELEE ATTACK with the TRAIT's ``success`` against a
#: WOUNDED ENEMY (Execution), ``snare`` an OPERATIVE ``within`` X cannot MOVE this ROUND
#: (Snare), ``flip_operative`` a PASSIVE TRAIT FLIPPING an OPERATIVE ``within`` X before
#: each ACTION of the unit (Harrowing).
Effect = Literal[
    "flip_this_item_back",
    "flip_own_item_back",
    "empty_handling_pool",
    "pool_attack",
    "heal_fleshwound",
    "reveal_threat",
    "stun_enemy",
    "enemy_defense",
    "wounded_attack",
    "snare",
    "flip_operative",
]


class Trait(StrictModel):
    """A TRAIT ("Active Traits", "Abilities"): PASSIVE unless ``active``; ABILITIES with
    RATINGS; ``effect`` names what else the match engine plays of its text (``Effect``)."""

    name: str = Field(min_length=1)
    active: bool = False
    text: str = ""
    abilities: dict[str, Rating] = Field(default_factory=dict)
    effect: Effect | None = None
    within: int | None = Field(default=None, ge=0, le=20)  # the effect's WITHIN X

    @field_validator("abilities")
    @classmethod
    def _known_abilities(cls, value: dict[str, int]) -> dict[str, int]:
        return _check_abilities(value)

    def rating(self, ability: str) -> int:
        """The RATING of ``ability`` when the TRAIT always takes effect (PASSIVE), else 0."""
        return 0 if self.active else self.abilities.get(ability, 0)


def _rating(traits: list[Trait | None], ability: str) -> int:
    """ "Abilities": RATINGS are cumulative over every PASSIVE TRAIT."""
    return sum(t.rating(ability) for t in traits if t is not None)


class Side(StrictModel):
    """One DASHBOARD side ("Dashboards"): POOL, DEFENSE and up to 2 TRAITS."""

    pool: Pool
    defense: int = Field(ge=0, le=MAX_DEFENSE)
    traits: list[Trait] = Field(default_factory=list, max_length=SIDE_TRAITS)


class Potential(StrictModel):
    """A POTENTIAL card ("Potentials Breakdown"): CULT, name, effect (while face-up)."""

    name: str = Field(min_length=1)
    cult: Cult
    text: str = ""
    abilities: dict[str, Rating] = Field(default_factory=dict)

    @field_validator("abilities")
    @classmethod
    def _known_abilities(cls, value: dict[str, int]) -> dict[str, int]:
        return _check_abilities(value)

    def trait(self) -> Trait:
        """The POTENTIAL's effect as a PASSIVE TRAIT ("active as long as ... face-up")."""
        return Trait(name=self.name, text=self.text, abilities=self.abilities)


class Item(StrictModel):
    """An ITEM card ("Items Breakdown").

    ``attack`` is the ATTACK value, the HANDLING POOL added to the user's POOL,
    and ``range`` the RANGE: both only on WEAPONS (MELEE or RANGED KEYWORD);
    ``defense`` only on ARMOR.  ``side`` is the card colour ("Items Color
    Code").  ``botch_trait`` and ``botch_keywords`` are on the BOTCH face.
    """

    name: str = Field(min_length=1)
    cult: Cult | None = None
    side: ItemSide
    attack: Pool | None = None
    range: int | None = Field(default=None, ge=0)
    defense: int | None = Field(default=None, ge=0, le=MAX_DEFENSE)
    traits: list[Trait] = Field(default_factory=list)
    keywords: list[Keyword] = Field(default_factory=list)
    botch_trait: Trait | None = None
    botch_keywords: list[str] = Field(default_factory=list)

    @property
    def is_weapon(self) -> bool:
        """ "Keywords": "Items with the MELEE or RANGED KEYWORD are WEAPONS"."""
        return "melee" in self.keywords or "ranged" in self.keywords

    @property
    def is_armor(self) -> bool:
        return "armor" in self.keywords

    @model_validator(mode="after")
    def _weapon_fields(self) -> Item:
        problems = []
        if self.is_weapon:
            missing = [f for f in ("attack", "range") if getattr(self, f) is None]
            if missing:
                problems.append(f"a WEAPON (MELEE or RANGED) needs {' and '.join(missing)}")
        else:
            extra = [f for f in ("attack", "range") if getattr(self, f) is not None]
            if extra:
                problems.append(f"{' and '.join(extra)} only on a WEAPON (MELEE or RANGED keyword)")
        if self.is_armor and self.defense is None:
            problems.append("an ARMOR needs defense")
        if not self.is_armor and self.defense is not None:
            problems.append("defense only on an ARMOR (armor keyword)")
        if problems:
            raise ValueError("; ".join(problems))
        return self


def _resolve_sample(card: BaseModel, path: str) -> bool:
    """Does the dotted ``path`` (``focus.pool``, ``items[0].attack``) name a field of ``card``?"""
    node: Any = card
    for part in path.split("."):
        match = re.fullmatch(r"([A-Za-z_]\w*)((?:\[\d+\])*)", part)
        if not match or not isinstance(node, BaseModel) or match[1] not in type(node).model_fields:
            return False
        node = getattr(node, match[1])
        for index in re.findall(r"\[(\d+)\]", match[2]):
            if not isinstance(node, list) or int(index) >= len(node):
                return False
            node = node[int(index)]
    return True


class _Card(CardBase):
    """Common part of the three kinds: ``sample`` may name nested fields."""

    @model_validator(mode="after")
    def _sample_fields_exist(self) -> _Card:  # replaces CardBase's check
        unknown = [f for f in self.sample if not _resolve_sample(self, f)]
        if unknown:
            raise ValueError(f"sample lists unknown field(s): {', '.join(unknown)}")
        return self


class Operative(_Card):
    """An OPERATIVE: DASHBOARD sides, shared TRAIT, CULT, CONCEPT, POTENTIALS and ITEMS."""

    kind: Literal["operative"]
    cult: Cult
    concept: str | None = None
    focus: Side
    primal: Side
    shared_trait: Trait | None = None
    potentials: list[Potential] = Field(min_length=1)
    items: list[Item] = Field(default_factory=list)

    def problems(self) -> list[tuple[list[str | int], str]]:
        """Construction rules of the card ("Potentials", "Items"), as (loc, message)."""
        out: list[tuple[list[str | int], str]] = []
        for i, pot in enumerate(self.potentials):
            if pot.cult not in (self.cult, CLANNER_CULT):
                out.append(
                    (
                        ["potentials", i, "cult"],
                        f"a {pot.cult} POTENTIAL on a {self.cult} OPERATIVE (only OPERATIVES "
                        "who share its CULT may use it; CLANNER POTENTIALS are for anyone)",
                    )
                )
        for i, item in enumerate(self.items):
            if item.cult is not None and item.cult != self.cult:
                out.append(
                    (
                        ["items", i, "cult"],
                        f"a {item.cult} ITEM on a {self.cult} OPERATIVE (ITEMS may only be used "
                        "by OPERATIVES who share its CULT)",
                    )
                )
        limit = ENCUMBRANCE_LIMIT + _rating(self.passive_traits(), "carrying")
        if len(self.items) > limit:
            out.append((["items"], f"{len(self.items)} ITEMS exceed the ENCUMBRANCE LIMIT {limit}"))
        if sum(item.is_armor for item in self.items) > MAX_ARMOR:
            out.append((["items"], "only one ARMOR may be CARRIED at a time"))
        return out

    def side(self, name: str) -> Side:
        return self.focus if name == "focus" else self.primal

    def passive_traits(self) -> list[Trait | None]:
        """TRAITS that hold on both sides: the shared TRAIT and the POTENTIALS."""
        return [self.shared_trait, *(p.trait() for p in self.potentials)]


class Legion(_Card):
    """A LEGION ("Legion Board Breakdown"): RANK, ATTACK POOL, DEFENSE, RANGE, TRAITS."""

    kind: Literal["legion"]
    clan: str = "Cockroach"
    rank: int = Field(ge=1, le=10)
    attack: Pool
    defense: int = Field(ge=0, le=MAX_DEFENSE)
    range: int = Field(ge=0)
    trait: Trait | None = None
    rank_trait: Trait | None = None
    clan_trait: Trait | None = None

    def traits(self) -> list[Trait | None]:
        return [self.trait, self.rank_trait, self.clan_trait]


class Stage(StrictModel):
    """A STAGE card ("Stage Card Breakdown"): ATTACK POOL, DEFENSE, RANGE, STAGE TRAIT."""

    label: str | None = None
    attack: Pool
    defense: int = Field(ge=0, le=MAX_DEFENSE)
    range: int = Field(ge=0)
    trait: Trait | None = None


class Champion(_Card):
    """A CHAMPION ("Champions"): the BASE TRAIT and its STAGES in the order they are reached."""

    kind: Literal["champion"]
    clan: str = "Cockroach"
    base_trait: Trait | None = None
    stages: list[Stage] = Field(min_length=1)


Card = Annotated[Operative | Legion | Champion, Field(discriminator="kind")]
AnyCard = Operative | Legion | Champion


class CardFile(UnitFile[Card]):
    """``configs/degenesis/units.yaml``."""


class ArmyList(ArmyListBase):
    """A ROSTER of OPERATIVES (``side: roster``) or the HOSTILE FORCES (``side: hostile``).

    ``unlocked``: the UNLOCKED OPERATIVES a ROSTER must be built from (no check
    when omitted).  ``hostile_forces``: the MISSION's total number of HOSTILE
    units ("HOSTILE FORCES section").  ``points_limit``: an analyzer option
    (the rulebook has no points; card points are sample data).
    """

    side: Literal["roster", "hostile"] = "roster"
    unlocked: list[str] | None = None
    hostile_forces: int | None = Field(default=None, ge=1)
    points_limit: int | None = Field(default=None, ge=0)


def load_units(path: str | Path) -> dict[str, AnyCard]:
    """Cards by name; every problem of the file at once as ``path:line: field: message``.

    Schema problems (pydantic) come first; when the file is well formed, the
    cards' own construction rules (CULTS of POTENTIALS and ITEMS, ENCUMBRANCE,
    one ARMOR), duplicate names and the ``system`` are reported together.
    """
    data, doc = load_model(path, CardFile, SYSTEM)
    problems = Problems(path, doc)
    if data.system != SYSTEM:
        problems.add(["system"], f"expected {SYSTEM!r}, found {data.system!r}")
    cards: dict[str, AnyCard] = {}
    for i, card in enumerate(data.units):
        if card.name in cards:
            problems.add(["units", i, "name"], f"duplicate unit name {card.name!r}")
        cards[card.name] = card
        if isinstance(card, Operative):
            for loc, message in card.problems():
                problems.add(["units", i, *loc], message)
    problems.raise_if_any()
    return cards


def load_list(path: str | Path, cards: Mapping[str, AnyCard]) -> ArmyList:
    """Load a ROSTER or HOSTILE FORCES list and check the construction rules (all at once)."""
    army, problems = load_army_list(path, ArmyList, dict(cards), SYSTEM)
    known = [(i, e, cards[e.unit]) for i, e in enumerate(army.units) if e.unit in cards]
    seen: dict[str, int] = {}
    for i, entry, _card in known:
        if entry.unit in seen:
            problems.add(
                ["units", i, "unit"],
                f"{entry.unit!r} is already listed at units[{seen[entry.unit]}]",
            )
        seen.setdefault(entry.unit, i)
    if army.side == "roster":
        for i, entry, card in known:
            if card.kind != "operative":
                problems.add(
                    ["units", i, "unit"],
                    f"{entry.unit!r} is a {card.kind.upper()}: a ROSTER holds only OPERATIVES "
                    '("Step 3: Roster Selection")',
                )
            elif entry.count > 1:
                problems.add(
                    ["units", i, "count"],
                    f"an OPERATIVE is one individual: at most 1 {entry.unit!r} (got {entry.count})",
                )
        total = sum(e.count for _, e, c in known if c.kind == "operative")
        if not ROSTER_MIN <= total <= ROSTER_MAX:
            problems.add(
                ["units"],
                f"a ROSTER has {ROSTER_MIN} to {ROSTER_MAX} OPERATIVES (got {total})",
            )
        if army.unlocked is not None:
            for j, name in enumerate(army.unlocked):
                if name not in cards or cards[name].kind != "operative":
                    problems.add(["unlocked", j], f"{name!r} is not an OPERATIVE of the units file")
            for i, entry, card in known:
                if card.kind == "operative" and entry.unit not in army.unlocked:
                    problems.add(
                        ["units", i, "unit"],
                        f"{entry.unit!r} is not UNLOCKED (a ROSTER is built from UNLOCKED "
                        "OPERATIVES)",
                    )
        if army.hostile_forces is not None:
            problems.add(["hostile_forces"], "only a HOSTILE list has hostile_forces")
    else:
        for i, entry, card in known:
            if card.kind == "operative":
                problems.add(
                    ["units", i, "unit"],
                    f"{entry.unit!r} is an OPERATIVE: HOSTILE FORCES are LEGIONS and CHAMPIONS",
                )
            elif card.kind == "champion" and entry.count > 1:
                problems.add(
                    ["units", i, "count"],
                    f"a CHAMPION is unique and appears once: at most 1 {entry.unit!r} "
                    f"(got {entry.count})",
                )
        if army.unlocked is not None:
            problems.add(["unlocked"], "only a ROSTER has unlocked OPERATIVES")
        total = sum(e.count for _, e, _ in known)
        if army.hostile_forces is not None and total > army.hostile_forces:
            problems.add(
                ["units"],
                f"{total} units exceed the MISSION's HOSTILE FORCES of {army.hostile_forces}",
            )
    if army.points_limit is not None:
        points = sum(card.points * e.count for _, e, card in known)
        if points > army.points_limit:
            problems.add(["units"], f"{points} points exceed the points limit {army.points_limit}")
    problems.raise_if_any()
    return army


def health(card: AnyCard) -> int:
    """WOUNDS the card takes before it is removed ("Potentials", "The Hostile", "Champions")."""
    if card.kind == "operative":
        return WOUNDS_PER_POTENTIAL * len(card.potentials)
    if card.kind == "legion":
        return LEGION_HEALTH
    return len(card.stages)
