"""Compile cards, army lists, scenarios, missions and options into the engine's flat arrays.

Nothing here plays: it validates input (one-line :class:`analyzer.errors.InputError` or the
loader's ``path:line: field: message`` errors) and fills the integer/float arrays laid out
in :mod:`layout`.  The kernels see only these arrays.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator

from analyzer import paths
from analyzer.analysis.duel import OptionKind, check_options, choice, flag, integer
from analyzer.config.loader import Problems, load_model
from analyzer.config.models import StrictModel
from analyzer.dice import exact as ex
from analyzer.errors import InputError
from analyzer.games.rapture import units as rapture_units
from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.units import ArmyList, Card

SCENARIO_DIR = paths.system_config("rapture", "scenarios")
MISSIONS_FILE = paths.system_config("rapture", "missions.yaml")

FIRST_MODES = ("rules", "alternate", "random")
POLICIES = L.POLICY_NAMES


# -------------------------------------------------------------------- options
@dataclass(frozen=True)
class MatchOptions:
    """Players, readings of the rulebook where players might disagree, and engine switches.

    * ``first``: who takes the first activation of round 1: ``rules`` ("Determine order of
      activation": combat value, d6 on ties; a battlegroup under 100 points chooses),
      ``alternate`` (A in even matches, B in odd ones) or ``random``.
    * ``base_counts``: "During a movement action the size of the base of the activated
      model counts to the travelled distance": ``False`` (default) reads it as the base
      travelling with the model, so its centre goes the full MOV (the reading under which
      the rulebook's worked movement examples come out as printed); ``True``: the base
      diameter comes off the MOV of a movement action.
    * ``lof_odd_to_interposer``: "odd hits for the model located in the LoF": the 1st, 3rd,
      ... hit goes to the model in the way (default); ``False``: the 2nd, 4th, ...
    * ``own_escape_vp``: who scores a unit whose own retreat erased its last MP:
      ``opponent`` (default) or ``none``.
    * ``band_ini``: a band's INI in the combat value: ``sum`` of its models' cards (default)
      or the ``leader``'s.
    * ``swap_edges``: odd matches swap the deployment edges (removes any edge bias of a
      hand-made scenario).
    * ``chooser_goes_first``: a player entitled to choose the first activation takes it.
    * ``greedy_threat``: greedy's weight of the damage opposing units can deal at a
      position, in percent of its VP value.
    * ``greedy_win_cap``: greedy values VP only up to what can still change the result
      (a kill or wound of a unit worth more counts as that much).
    * ``greedy_tempo``: in the last round greedy gives no value to attacks of a later
      activation and no threat to opposing units that have acted.
    * ``greedy_press``: greedy presses the attack: a close combat attack is also worth the
      strike it may prevent, killing the opposing carrier half the mission it denies,
      a step closer to a target within two moves still counts, and a unit tied in close
      combat leaves the objective to the next closest unit.
    * ``greedy_carry``: greedy paces a carry mission (Supply Run), in %: each cm of the
      trip still to make (to the object, then home) costs that share of the mission's VP
      over the whole trip, up to what the moves of the rounds left allow (a trip that
      cannot be finished pulls no further), and a pick-up that cannot be delivered in
      time is not worth an AP.  0: the former fixed pulls (0.2 VP/cm to the object, 0.3
      home).
    * ``greedy_win_prob``: greedy scores the VP of a kill (and a wound) by the chance of
      winning it adds: a normal approximation of the final VP margin around today's, its
      spread shrinking with the VP still in play (units, bonus, missions) and the rounds
      left (tempo), scaled so that a small gain at an even score counts its VP.
    * ``greedy_wound_kill``: greedy values wounds through kill probability: the gain in
      the chance that a second attack like this one kills the model, times the model's
      points left, in place of the linear points per HP.
    * ``greedy_search``: ``lazy`` (the default since 2026-12-08) is ``nearest``'s list
      with the cover position only where an opposing attack reaches the lead and no
      second advance along the first (both beyond reach, within 10 degrees), each move
      scored at its straight line's end and walked (then scored again) only while it is
      the best candidate: about 1.09x fewer instructions per activation than
      ``nearest`` and as strong (0.501 [0.492, 0.510] against it over 12,000 mirror
      matches).  ``nearest`` (the default for a few hours of 2026-12-08) scores the
      position behind the nearest cover piece within reach only; ``full`` (the default
      before) behind the first two in terrain order; both advance towards the two best
      targets. ``nearest`` is about 1.07x faster per match than ``full`` and as strong
      (0.499 [0.490, 0.508] and 0.496 [0.487, 0.505] against it over 12,000 mirror
      matches each).  ``fast`` scores fewer: the first cover piece only and an advance towards
      the best target only (the second target is still charged when within reach):
      about 1.16x faster than ``full`` and about two points weaker (0.48 over 8,400
      mirror matches).
    """

    policy_a: str = "greedy"
    policy_b: str = "greedy"
    lookahead_k: int = 3
    lookahead_depth: int = 10
    lookahead_rollouts: int = 8
    first: str = "rules"
    base_counts: bool = False
    lof_odd_to_interposer: bool = True
    own_escape_vp: Literal["opponent", "none"] = "opponent"
    band_ini: Literal["sum", "leader"] = "sum"
    max_rounds: int = L.LAST_ROUND
    swap_edges: bool = True
    missions: bool = True
    chooser_goes_first: bool = True
    greedy_threat: int = 15
    greedy_win_cap: bool = True
    greedy_tempo: bool = True
    greedy_press: bool = True
    greedy_carry: int = 150
    greedy_win_prob: bool = False
    greedy_wound_kill: bool = False
    greedy_search: Literal["fast", "full", "nearest", "lazy"] = "lazy"
    check_invariants: bool = False
    round1_first: int = -1
    hands: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def __post_init__(self) -> None:
        for label, pol in (("--policy-a", self.policy_a), ("--policy-b", self.policy_b)):
            if pol not in POLICIES:
                raise InputError(f"{label} must be one of {', '.join(POLICIES)} (got {pol!r})")
        if self.first not in FIRST_MODES:
            raise InputError(f"first activation must be one of {', '.join(FIRST_MODES)}")
        if not 1 <= self.max_rounds <= 20:
            raise InputError("the number of rounds must be between 1 and 20")
        if not 1 <= self.lookahead_k <= 16 or not 0 <= self.lookahead_depth <= 40:
            raise InputError("lookahead: k must be 1..16 and depth 0..40")
        if not 1 <= self.lookahead_rollouts <= 64:
            raise InputError("lookahead: rollouts must be 1..64")
        if not 0 <= self.greedy_threat <= 100:
            raise InputError("greedy_threat must be between 0 and 100 (percent)")


#: What each option of :class:`MatchOptions` (``--opt KEY=VALUE``, a sweep's
#: ``metric.options``) may be: all its fields but the policies and the mission hands.
MATCH_OPTION_KINDS: dict[str, OptionKind] = {
    "lookahead_k": integer(1, 16),
    "lookahead_depth": integer(0, 40),
    "lookahead_rollouts": integer(1, 64),
    "first": choice(*FIRST_MODES),
    "base_counts": flag(),
    "lof_odd_to_interposer": flag(),
    "own_escape_vp": choice("opponent", "none"),
    "band_ini": choice("sum", "leader"),
    "max_rounds": integer(1, 20),
    "swap_edges": flag(),
    "missions": flag(),
    "chooser_goes_first": flag(),
    "greedy_threat": integer(0, 100),
    "greedy_win_cap": flag(),
    "greedy_tempo": flag(),
    "greedy_press": flag(),
    "greedy_carry": integer(0, 300),
    "greedy_win_prob": flag(),
    "greedy_wound_kill": flag(),
    "greedy_search": choice("fast", "full", "nearest", "lazy"),
    "check_invariants": flag(),
    # side forced to take the first activation of round 1: -1 by the rules, 0 A, 1 B
    "round1_first": choice(-1, 0, 1),
}
_NOT_OPTIONS = {"policy_a", "policy_b", "hands"}  # set by the CLI / API, not by --opt
assert set(MATCH_OPTION_KINDS) == {f.name for f in fields(MatchOptions)} - _NOT_OPTIONS


#: ``greedy_search`` by its value in ``OPT[O_AI_FAST0 + side]``
SEARCHES = ("full", "fast", "nearest", "lazy")


def options_array(opt: MatchOptions, hands: np.ndarray, n_scenario: int) -> np.ndarray:
    o = np.zeros(L.O_COLS, dtype=np.int64)
    o[L.O_POLICY0] = POLICIES.index(opt.policy_a)
    o[L.O_POLICY1] = POLICIES.index(opt.policy_b)
    o[L.O_LA_K] = opt.lookahead_k
    o[L.O_LA_DEPTH] = opt.lookahead_depth
    o[L.O_LA_ROLLOUTS] = opt.lookahead_rollouts
    o[L.O_FIRST_MODE] = FIRST_MODES.index(opt.first)
    o[L.O_BASE_COUNTS] = int(opt.base_counts)
    o[L.O_LOF_ODD] = int(opt.lof_odd_to_interposer)
    o[L.O_OWN_ESCAPE_VP] = int(opt.own_escape_vp == "opponent")
    o[L.O_CHECK] = int(opt.check_invariants)
    o[L.O_SCENARIO] = n_scenario
    o[L.O_SWAP_EDGES] = int(opt.swap_edges)
    o[L.O_MISSIONS] = int(opt.missions)
    o[L.O_HAND0 : L.O_HAND0 + 2 * L.O_HAND_N] = hands.reshape(-1)
    o[L.O_BAND_INI] = int(opt.band_ini == "leader")
    o[L.O_MAX_ROUNDS] = opt.max_rounds
    o[L.O_FIRST_CHOICE] = 0 if opt.chooser_goes_first else 1
    o[L.O_ROUND1_FIRST] = opt.round1_first
    o[L.O_AI_THREAT] = opt.greedy_threat
    o[L.O_AI_WINCAP] = int(opt.greedy_win_cap)
    o[L.O_AI_TEMPO] = int(opt.greedy_tempo)
    o[L.O_AI_PRESS] = int(opt.greedy_press)
    o[L.O_AI_CARRY0 : L.O_AI_CARRY0 + 2] = opt.greedy_carry  # the same for both sides
    o[L.O_AI_WINPROB0 : L.O_AI_WINPROB0 + 2] = int(opt.greedy_win_prob)
    o[L.O_AI_WOUNDKILL0 : L.O_AI_WOUNDKILL0 + 2] = int(opt.greedy_wound_kill)
    o[L.O_AI_FAST0 : L.O_AI_FAST0 + 2] = SEARCHES.index(opt.greedy_search)
    return o


#: the option naming the terrain (not a :class:`MatchOptions` field)
SCENARIO_KEY = "scenario"


def match_options(policies: dict[str, str], options: dict[str, Any]) -> MatchOptions:
    """:class:`MatchOptions` from policies by side (``a``, ``b``) and named options
    (a sweep's ``metric.options``, ``analyzer match/compare --opt``): names and values
    checked against :data:`MATCH_OPTION_KINDS` (one-line :class:`InputError`)."""
    chosen = check_options("match option", MATCH_OPTION_KINDS, options, also_known=(SCENARIO_KEY,))
    return MatchOptions(
        policy_a=policies.get("a", "greedy"), policy_b=policies.get("b", "greedy"), **chosen
    )


# ---------------------------------------------------------------- exact tables
@functools.cache
def wound_tables() -> np.ndarray:
    """Exact wound tables ``T[n, h, d, b, kind, w]`` for greedy scoring.

    n attack dice hitting on h+ (h = 7: never), d block dice at 4+ (b = 0) or 5+ (b = 1),
    wounds W = max(hits - blocks, 0); ``kind`` 0: ``P(W >= w)``; ``kind`` 1:
    ``sum_{j=1..w} P(W >= j)``, so that ``E[min(W - r, k)]`` for a damage reduction r is a
    difference of two entries.  Built from the exact engine (``analyzer.dice.exact``:
    ``successes`` and ``subtract``), the same distributions ``analyzer roll rapture attack``
    reports.
    """
    width = L.MAX_DICE + 2
    table = np.zeros((L.MAX_DICE + 1, 8, L.MAX_BLOCK + 1, 2, 2, width))
    blocks = {
        (d, b): ex.successes(d, 6, at)
        for d in range(L.MAX_BLOCK + 1)
        for b, at in enumerate((L.SHELTER_BLOCK_AT, L.BLOCK_AT))
    }
    for n in range(L.MAX_DICE + 1):
        for h in range(1, 8):
            hits = ex.successes(n, 6, h)
            for (d, b), blk in blocks.items():
                diff = ex.subtract(hits, blk)
                probs = np.zeros(width)
                for value, p in zip(diff.outcomes, diff.probs):
                    probs[max(int(value), 0)] += p
                tail = np.cumsum(probs[::-1])[::-1]
                table[n, h, d, b, 0] = tail
                cum = np.cumsum(tail)
                table[n, h, d, b, 1, 1:] = cum[1:] - tail[0]
    return table


# ------------------------------------------------------------------- scenarios
class Piece(StrictModel):
    """A terrain piece: an axis-aligned rectangle (cm) and its category ("4. Terrain")."""

    kind: Literal["building", "obstacle", "difficult", "water", "impassable", "transparent"]
    x: float = Field(ge=0, le=L.BOARD)
    y: float = Field(ge=0, le=L.BOARD)
    w: float = Field(gt=0, le=L.BOARD)
    h: float = Field(gt=0, le=L.BOARD)
    blocks_los: bool | None = None
    cover: bool | None = None
    name: str | None = None

    @model_validator(mode="after")
    def _inside(self) -> Piece:
        if self.x + self.w > L.BOARD + 1e-9 or self.y + self.h > L.BOARD + 1e-9:
            raise ValueError("the piece reaches beyond the 90 x 90 cm battlefield")
        return self


class Scenario(StrictModel):
    """``configs/rapture/scenarios/*.yaml``: a hand-made terrain layout."""

    name: str = Field(min_length=1)
    system: Literal["rapture"] = "rapture"
    description: str | None = None
    pieces: list[Piece] = Field(min_length=1, max_length=L.MAX_TERRAIN)


def load_scenario(path: str | Path) -> tuple[Scenario, np.ndarray]:
    """Load a scenario; the terrain array (rows as in ``layout``).  Rule checks: no piece in
    a deployment zone ("Terrain pieces may not be placed in a deployment zone"), buildings
    at least 10 cm apart."""
    scenario, doc = load_model(path, Scenario)
    problems = Problems(path, doc)
    ter = np.zeros((L.MAX_TERRAIN, L.T_COLS))
    for i, piece in enumerate(scenario.pieces):
        kind = L.TERRAIN_NAMES.index(piece.kind)
        x0, y0, x1, y1 = piece.x, piece.y, piece.x + piece.w, piece.y + piece.h
        if y0 < L.DEPLOY_DEPTH or y1 > L.BOARD - L.DEPLOY_DEPTH:
            problems.add(["pieces", i, "y"], "terrain may not be placed in a deployment zone")
        blocks = piece.blocks_los if piece.blocks_los is not None else kind == L.T_BUILDING
        cover = piece.cover if piece.cover is not None else kind != L.T_WATER
        solid = kind in (L.T_BUILDING, L.T_IMPASSABLE)
        ter[i] = (kind, x0, y0, x1, y1, float(blocks), float(cover), float(solid))
    buildings = [i for i, p in enumerate(scenario.pieces) if p.kind == "building"]
    for a in buildings:
        for b in buildings:
            if a < b and _rect_gap(ter[a], ter[b]) < 10.0:
                problems.add(["pieces", b], f"buildings {a} and {b} are closer than 10 cm")
    problems.raise_if_any()
    return scenario, ter


def _rect_gap(a: np.ndarray, b: np.ndarray) -> float:
    dx = max(b[L.TX0] - a[L.TX1], a[L.TX0] - b[L.TX1], 0.0)
    dy = max(b[L.TY0] - a[L.TY1], a[L.TY0] - b[L.TY1], 0.0)
    return float(np.hypot(dx, dy))


# -------------------------------------------------------------------- missions
class Area(StrictModel):
    """A mission area in the owner's frame (x across, y from the owner's edge)."""

    shape: Literal["circle", "rect"]
    x: float = Field(ge=0, le=L.BOARD)
    y: float = Field(ge=0, le=L.BOARD)
    radius: float | None = Field(default=None, gt=0)
    x1: float | None = Field(default=None, ge=0, le=L.BOARD)
    y1: float | None = Field(default=None, ge=0, le=L.BOARD)

    @model_validator(mode="after")
    def _shape_fields(self) -> Area:
        if self.shape == "circle" and self.radius is None:
            raise ValueError("a circle area needs a radius")
        if self.shape == "rect" and (self.x1 is None or self.y1 is None):
            raise ValueError("a rect area needs x1 and y1 (the opposite corner)")
        return self


class MissionObject(StrictModel):
    x: float = Field(ge=0, le=L.BOARD)
    y: float = Field(ge=0, le=L.BOARD)
    size: float = Field(default=3.0, gt=0, le=20)


class Mission(StrictModel):
    """One mission card as data (missions.yaml)."""

    name: str = Field(min_length=1)
    kind: Literal["hold_area", "carry_object", "take_out"]
    text: str | None = None
    vp: int = Field(ge=0, le=500)
    area: Area | None = None
    when: Literal["preparation", "cleanup"] = "preparation"
    from_round: int = Field(default=2, ge=1, le=20)
    contested: bool = False
    object: MissionObject | None = None
    zone_depth: float = Field(default=L.DEPLOY_DEPTH, gt=0, le=L.BOARD)
    pickup_ap: int = Field(default=1, ge=0, le=5)
    target: Literal["most_points"] = "most_points"

    @model_validator(mode="after")
    def _kind_fields(self) -> Mission:
        if self.kind == "hold_area" and self.area is None:
            raise ValueError("a hold_area mission needs an area")
        if self.kind == "carry_object" and self.object is None:
            raise ValueError("a carry_object mission needs an object")
        return self


class MissionFile(StrictModel):
    system: Literal["rapture"] = "rapture"
    source: str | None = None
    missions: list[Mission] = Field(min_length=3)
    hand: list[str] = Field(min_length=3, max_length=3)


def load_missions(path: str | Path = MISSIONS_FILE) -> tuple[MissionFile, np.ndarray]:
    """Load the mission cards; the mission array (rows as in ``layout``)."""
    data, doc = load_model(path, MissionFile)
    problems = Problems(path, doc)
    names = [m.name for m in data.missions]
    for i, name in enumerate(data.hand):
        if name not in names:
            problems.add(["hand", i], f"unknown mission {name!r}")
    problems.raise_if_any()
    mis = np.zeros((len(data.missions), L.M_COLS))
    for i, m in enumerate(data.missions):
        row = mis[i]
        row[L.M_KIND] = L.MISSION_KIND_NAMES.index(m.kind)
        row[L.M_VP] = m.vp
        row[L.M_WHEN] = 0 if m.when == "preparation" else 1
        row[L.M_FROM_ROUND] = m.from_round
        row[L.M_CONTESTED] = float(m.contested)
        row[L.M_ZONE_DEPTH] = m.zone_depth
        row[L.M_PICKUP_AP] = m.pickup_ap
        if m.area is not None:
            row[L.M_SHAPE] = 0 if m.area.shape == "circle" else 1
            row[L.M_X], row[L.M_Y] = m.area.x, m.area.y
            row[L.M_R] = m.area.radius or 0.0
            row[L.M_X1] = m.area.x1 or 0.0
            row[L.M_Y1] = m.area.y1 or 0.0
        if m.object is not None:
            row[L.M_X], row[L.M_Y] = m.object.x, m.object.y
            row[L.M_OBJ_SIZE] = m.object.size
    return data, mis


def mission_hands(data: MissionFile, hands: Sequence[Sequence[str]] | None) -> np.ndarray:
    """Each player's three mission cards as indices (default: the file's ``hand``)."""
    names = [m.name for m in data.missions]
    chosen = hands if hands is not None else (data.hand, data.hand)
    out = np.zeros((2, L.O_HAND_N), dtype=np.int64)
    for s, hand in enumerate(chosen):
        if len(hand) != L.O_HAND_N:
            raise InputError("each player chooses exactly 3 mission cards")
        for j, name in enumerate(hand):
            if name not in names:
                raise InputError(f"unknown mission {name!r} (known: {', '.join(names)})")
            out[s, j] = names.index(name)
    return out


# ------------------------------------------------------------------ army lists
@dataclass
class UnitInfo:
    """One unit of a match-up, for reports and traces."""

    index: int
    side: int
    name: str
    kind: str
    points: int
    models: list[str] = field(default_factory=list)


@dataclass
class Compiled:
    """The static arrays of a match-up and the names behind them."""

    SI: np.ndarray
    SF: np.ndarray
    US: np.ndarray
    units: list[UnitInfo]
    model_names: list[str]
    list_names: tuple[str, str]
    list_points: tuple[int, int]
    ignored: list[str]


def expand_list(army: ArmyList, cards: Mapping[str, Card]) -> list[list[Card]]:
    """Units of a battlegroup: each a list of cards (a band: leader then its apprentices)."""
    entries: list[list[Card]] = []
    leaders: dict[str, list[Card]] = {}
    for entry in army.units:
        card = cards[entry.unit]
        if card.type == "apprentice":
            continue
        for _ in range(entry.count):
            unit = [card]
            entries.append(unit)
            if card.type == "leader":
                leaders[card.name] = unit
    for entry in army.units:
        card = cards[entry.unit]
        if card.type == "apprentice":
            assert card.leader is not None
            for _ in range(entry.count):
                leaders[card.leader].append(card)
    return entries


def _stats(card: Card) -> dict[str, float]:
    return rapture_units.effective_stats(card, rapture_units.health(card))


def compile_matchup(
    cards: Mapping[str, Card],
    lists: tuple[ArmyList, ArmyList],
    on_hit_markers: Mapping[str, tuple[str, int]] | None = None,
    load_dice: Mapping[str, int] | None = None,
) -> Compiled:
    """Flat arrays for the two battlegroups (side 0 = list A, side 1 = list B).

    ``on_hit_markers`` ({card: (marker, count)}) and ``load_dice`` ({card: dice}) give
    cards the marker effects the unit-card catalogue does not describe yet.
    """
    on_hit_markers = on_hit_markers or {}
    load_dice = load_dice or {}
    si_rows: list[np.ndarray] = []
    sf_rows: list[list[float]] = []
    us_rows: list[np.ndarray] = []
    infos: list[UnitInfo] = []
    model_names: list[str] = []
    points: list[int] = []
    for side, army in enumerate(lists):
        total = 0
        for unit_cards in expand_list(army, cards):
            u = len(us_rows)
            lead = unit_cards[0]
            kind = {"hero": L.HERO, "leader": L.BAND, "squad": L.SQUAD, "vehicle": L.VEHICLE}[
                lead.type
            ]
            first = len(si_rows)
            models: list[tuple[Card, int]] = []
            if kind == L.SQUAD:
                models = [(lead, L.R_SQUAD)] * lead.models
            else:
                role = {L.HERO: L.R_HERO, L.BAND: L.R_LEADER, L.VEHICLE: L.R_VEHICLE}[kind]
                models = [(lead, role)] + [(c, L.R_APPRENTICE) for c in unit_cards[1:]]
            unit_points = sum(c.points for c in unit_cards)
            total += unit_points
            unit_hp = sum(c.hp for c, _ in models)
            info = UnitInfo(u, side, lead.name, L.UNIT_TYPE_NAMES[kind], unit_points)
            for j, (card, role) in enumerate(models):
                m = len(si_rows)
                row = np.zeros(L.SI_COLS, dtype=np.int64)
                stats = _stats(card)
                row[L.SI_UNIT] = u
                row[L.SI_SIDE] = side
                row[L.SI_ROLE] = role
                row[L.SI_POOL] = first if kind == L.SQUAD else m
                row[L.SI_HP] = card.hp
                for s, name in enumerate(L.STAT_NAMES):
                    value = stats[name]
                    row[L.SI_CCS + s] = round(value * 10) if name == "mov" else int(value)
                row[L.SI_DMGRED] = card.ability_total("damage_reduction")
                row[L.SI_WEAPON] = int(card.weapon is not None and stats["rof"] > 0)
                row[L.SI_POINTS] = 0 if kind == L.SQUAD else card.points
                row[L.SI_MARKERS] = int(role != L.R_APPRENTICE)
                row[L.SI_ONHIT_MK] = -1
                if card.name in on_hit_markers:
                    marker, count = on_hit_markers[card.name]
                    if marker not in L.MARKER_NAMES:
                        raise InputError(f"unknown marker {marker!r}")
                    row[L.SI_ONHIT_MK] = L.MARKER_NAMES.index(marker)
                    row[L.SI_ONHIT_N] = count
                row[L.SI_LOAD_DICE] = load_dice.get(card.name, 0)
                effects = card.health_effects
                if len(effects) > L.MAX_EFFECTS:
                    raise InputError(f"{card.name}: at most {L.MAX_EFFECTS} health bar effects")
                row[L.SI_NHE] = len(effects)
                for k, eff in enumerate(effects):
                    assert eff.effect.stat is not None and eff.effect.change is not None
                    row[L.SI_HE + 3 * k] = eff.box
                    row[L.SI_HE + 3 * k + 1] = L.STAT_NAMES.index(eff.effect.stat)
                    row[L.SI_HE + 3 * k + 2] = eff.effect.change
                si_rows.append(row)
                if kind == L.SQUAD:
                    vph = unit_points / unit_hp
                elif role == L.R_LEADER:
                    vph = unit_points / card.hp
                else:
                    vph = card.points / card.hp
                rng = card.weapon.range if card.weapon is not None else 0.0
                sf_rows.append([card.base / 20.0, rng, vph])
                label = card.name if kind != L.SQUAD else f"{card.name} #{j + 1}"
                model_names.append(label)
                info.models.append(label)
            us = np.zeros(L.US_COLS, dtype=np.int64)
            us[L.US_SIDE] = side
            us[L.US_TYPE] = kind
            us[L.US_FIRST] = first
            us[L.US_N] = len(models)
            us[L.US_LEAD] = first
            us[L.US_POINTS] = unit_points
            us[L.US_MP] = lead.mp or 0
            effects_m = lead.morale_effects
            if len(effects_m) > L.MAX_EFFECTS:
                raise InputError(f"{lead.name}: at most {L.MAX_EFFECTS} morale bar effects")
            us[L.US_NME] = len(effects_m)
            for k, eff in enumerate(effects_m):
                us[L.US_ME + 3 * k] = eff.box
                if eff.effect.escape:
                    us[L.US_ME + 3 * k + 1] = L.EFFECT_ESCAPE
                else:
                    assert eff.effect.stat is not None and eff.effect.change is not None
                    us[L.US_ME + 3 * k + 1] = L.STAT_NAMES.index(eff.effect.stat)
                    us[L.US_ME + 3 * k + 2] = eff.effect.change
            us_rows.append(us)
            infos.append(info)
        points.append(total)
    if len(si_rows) > L.MAX_MODELS:
        names = " and ".join(army.name for army in lists)
        raise InputError(
            f"{names}: {len(si_rows)} models in all; the match engine takes at most {L.MAX_MODELS}"
        )
    # each side's models are one contiguous range (sides, units and models in order)
    lo_hi = []
    for side in range(2):
        ms = [m for m, row in enumerate(si_rows) if row[L.SI_SIDE] == side]
        lo_hi.append((ms[0], ms[-1] + 1) if ms else (0, 0))
        assert ms == list(range(*lo_hi[side]))
    for us in us_rows:
        own = int(us[L.US_SIDE])
        us[L.US_OWN_LO], us[L.US_OWN_HI] = lo_hi[own]
        us[L.US_OPP_LO], us[L.US_OPP_HI] = lo_hi[1 - own]
    used = {c.name for army in lists for e in army.units for c in [cards[e.unit]]}
    ignored = rapture_units.ignored_abilities([cards[n] for n in sorted(used)])
    return Compiled(
        SI=np.ascontiguousarray(np.array(si_rows, dtype=np.int64)),
        SF=np.ascontiguousarray(np.array(sf_rows, dtype=np.float64)),
        US=np.ascontiguousarray(np.array(us_rows, dtype=np.int64)),
        units=infos,
        model_names=model_names,
        list_names=(lists[0].name, lists[1].name),
        list_points=(points[0], points[1]),
        ignored=ignored,
    )


def static_tuple(
    comp: Compiled, missions: np.ndarray, options: np.ndarray, scenario: np.ndarray
) -> tuple[np.ndarray, ...]:
    """``S = (SI, SF, US, MIS, TAB, OPT, SCEN)`` for the kernels."""
    return (
        comp.SI,
        comp.SF,
        comp.US,
        np.ascontiguousarray(missions, dtype=np.float64),
        wound_tables(),
        np.ascontiguousarray(options, dtype=np.int64),
        np.ascontiguousarray(scenario, dtype=np.float64),
    )
