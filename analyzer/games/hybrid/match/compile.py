"""Mission boards, named options and the compilation of a Hybrid match-up into arrays.

Mission files (``configs/hybrid/scenarios/*.yaml``) are checked by the pydantic model
:class:`Mission` through :func:`analyzer.config.loader.load_model`, so a problem prints
as ``path:line: field: message``.  Bundled missions are named by their file stem.

A board is drawn square by square (``map``: one string per row, characters in
:data:`layout.MAP_CHARS`); deployment zones are rectangles per side, each for a set of
Ranks ("Setup" FAQ: a Rank without a zone uses the zone of the next higher Rank; a full
zone spills onto adjacent squares).  A symmetric mission gives side A's zones only: B's
are A's turned half-way round the board's centre, so a mirror match is fair by
construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator

from analyzer import paths
from analyzer.analysis.duel import OptionKind, choice, flag, integer
from analyzer.config.loader import load_model
from analyzer.config.models import StrictModel
from analyzer.errors import InputError
from analyzer.games.hybrid import rolls
from analyzer.games.hybrid.match import layout as L
from analyzer.games.hybrid.units import ArmyList, Card
from analyzer.match.scenarios import bundled, scenario_file

SCENARIO_DIR = paths.system_config("hybrid", "scenarios")
DEFAULT_SCENARIO = "laboratory_skirmish"
FACINGS = {name: k for k, name in enumerate(L.FACING_NAMES)}


class Zone(StrictModel):
    """A deployment zone: the squares x0..x1, y0..y1 (inclusive) for these Ranks."""

    ranks: list[int] = Field(min_length=1)
    rect: tuple[int, int, int, int]


class Mission(StrictModel):
    name: str = Field(min_length=1)
    description: str = ""
    reconstructed: bool = True
    rounds: int = Field(default=10, ge=1, le=100)
    objectives_to_win: int = Field(default=0, ge=0, le=6)
    traps: int = Field(default=0, ge=0, le=20)  # Trap counters among the Event counters
    facing_a: Literal["north", "east", "south", "west"] = "north"
    symmetric: bool = True
    map: list[str] = Field(min_length=2)
    zones_a: list[Zone] = Field(min_length=1)
    zones_b: list[Zone] = Field(default_factory=list)
    not_modelled: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> Mission:
        width = len(self.map[0])
        if any(len(row) != width for row in self.map):
            raise ValueError("map: every row must have the same length")
        if not 2 <= width <= L.MAX_W or len(self.map) > L.MAX_H:
            raise ValueError(f"map: at most {L.MAX_W} x {L.MAX_H} squares")
        bad = sorted({c for row in self.map for c in row} - set(L.MAP_CHARS))
        if bad:
            raise ValueError(
                f"map: unknown square {bad[0]!r} (known: {''.join(sorted(L.MAP_CHARS))})"
            )
        if not self.symmetric and not self.zones_b:
            raise ValueError("zones_b: an asymmetric mission needs side B's zones")
        for name, zones in (("zones_a", self.zones_a), ("zones_b", self.zones_b)):
            for k, z in enumerate(zones):
                x0, y0, x1, y1 = z.rect
                if not (0 <= x0 <= x1 < width and 0 <= y0 <= y1 < len(self.map)):
                    raise ValueError(f"{name}[{k}].rect: {z.rect} is not on the board")
        return self

    @property
    def width(self) -> int:
        return len(self.map[0])

    @property
    def height(self) -> int:
        return len(self.map)


def bundled_scenarios() -> list[str]:
    return bundled(SCENARIO_DIR)


def scenario_path(name: str | Path | None) -> Path:
    """A bundled mission's name or a path (one-line :class:`InputError` if neither)."""
    return scenario_file(
        DEFAULT_SCENARIO if name is None else name, SCENARIO_DIR, what="hybrid mission"
    )


def load_scenario(name: str | Path | None) -> tuple[Mission, Path]:
    path = scenario_path(name)
    mission, _ = load_model(path, Mission)
    return mission, path


# ------------------------------------------------------------------------- options
#: ``moving_levels`` values: the index is the bit mask of sides (1 A, 2 B).
MOVING_LEVELS = ("none", "a", "b", "both")
AURA_MODES = ("none", "deck", "vengeance")
MUTATION_MODES = ("none", "deck", "purulent")
PURULENT_WOUNDS = ("enemy", "host")
OPTION_KINDS: dict[str, OptionKind] = {
    "first": choice(*L.FIRST_MODES),
    "rounds": integer(0, 100),
    "winner_starts": flag(),
    "skilled_strike_needs_wound": flag(),
    "perfect_parryable": flag(),
    "lookahead_k": integer(1, 12),
    "lookahead_depth": integer(1, 30),
    "lookahead_rollouts": integer(1, 32),
    "lookahead_margin": integer(0, 100),
    "lookahead_order": flag(),
    "moving_levels": choice(*MOVING_LEVELS),
    "skilled_firing": flag(),
    "close_doors": flag(),
    "action_cards": flag(),
    "event_worth": integer(0, 50),
    "aura": choice(*AURA_MODES),
    "mutation": choice(*MUTATION_MODES),
    "purulent_wound": choice(*PURULENT_WOUNDS),
    "ambush_seek": choice(*MOVING_LEVELS),
    "event_seek": choice(*MOVING_LEVELS),
    "greedy_fast": choice(*MOVING_LEVELS),
    "check_invariants": flag(),
}
OPTION_DEFAULTS: dict[str, Any] = {
    "first": "rules",
    "rounds": 0,
    "winner_starts": True,
    "skilled_strike_needs_wound": True,
    "perfect_parryable": True,
    "lookahead_k": 8,
    "lookahead_depth": 10,
    "lookahead_rollouts": 16,
    "lookahead_margin": 5,
    "lookahead_order": True,
    "moving_levels": "both",
    "skilled_firing": True,
    "close_doors": True,
    "action_cards": False,
    "event_worth": 3,
    "aura": "deck",
    "mutation": "deck",
    "purulent_wound": "enemy",
    "ambush_seek": "none",
    "event_seek": "none",
    "greedy_fast": "both",
    "check_invariants": False,
}
OPTION_HELP: dict[str, str] = {
    "first": "who activates first in Round 1: rules (Activation Roll), alternate, a, b",
    "rounds": "Rounds before the game ends in a draw (0: the mission's)",
    "winner_starts": "the Activation Roll winner activates first (false: lets the other)",
    "skilled_strike_needs_wound": "Skilled Strike's second strike needs a wound (false: a "
    "successful roll, even parried)",
    "perfect_parryable": "a Perfect Success strike or shot can be parried (false: house rule)",
    "lookahead_k": "strong: plans tried per activation (the best of each kind and target)",
    "lookahead_depth": "strong: greedy activations played after the plan (this Round)",
    "lookahead_rollouts": "strong: rollouts per plan (common random numbers)",
    "lookahead_margin": "strong: another plan replaces greedy's if its mean paired rollout "
    "gain exceeds this many tenths of its standard error",
    "lookahead_order": "strong: choose the Activation Sequence each Round by rollouts of the "
    "Round (false: greedy's order)",
    "moving_levels": "which sides' greedy plans also weigh Moving Mode's Novice to Heroic "
    "Move: both, a, b, none (Basic Move only)",
    "skilled_firing": "the policies weigh Skilled Firing ambushes (false: never declared, "
    "the former play)",
    "close_doors": "greedy spends Movement left closing an open door beside him that hides "
    "him from an enemy shooter (false: doors are never closed, the former play)",
    "action_cards": "play with the Action Cards (25 cards of 0 to 4 Action points, 5 of "
    "each; a hand of 4, one redraw to 3; a card per warrior destroyed by the enemy; "
    "Hindrances); their printed-nowhere texts are not modelled",
    "event_worth": "greedy's worth of an Event Card drawn from an Event counter, in tenths "
    "of a wound (their texts are not printed: no effect of their own)",
    "aura": "Aura Cards: deck (3 of 9 drawn per Aura/X warrior; the Aura of Vengeance, the "
    "one card printed, kept if drawn and switched on), vengeance (always held), none",
    "mutation": "Mutation Cards: deck (3 of 9 drawn; Purulent Excrescence, the one card "
    "printed, kept if drawn), purulent (always held), none",
    "purulent_wound": "who takes Purulent Excrescence's wound when it is applied: enemy (an "
    "enemy in base contact) or host (the mutated warrior)",
    "ambush_seek": "which sides' greedy values a Skilled Firing ambush by its square (an "
    "enemy able to walk into view ahead of him): both, a, b, none (the same worth anywhere)",
    "event_seek": "which sides' greedy values ending a turn on an Event counter it may "
    "activate (its event_worth less the Trap's risk): both, a, b, none",
    "greedy_fast": "which sides' greedy plans on a lower bound of the Movement costs (the "
    "walking distance) and checks only the chosen plan by an exact search (A*), taking the "
    "next plan if it is out of reach: both (default), a, b, none (the exact greedy: the exact "
    "search of every state, the records before 2026-12-04); a strong side always plans and "
    "plays its rollouts with the exact greedy",
    "check_invariants": "run the invariant checker after every activation",
}


def full_options(options: dict[str, Any]) -> dict[str, Any]:
    out = dict(OPTION_DEFAULTS)
    out.update(options)
    return out


# ------------------------------------------------------------------------- tables
_TABLE: np.ndarray | None = None


def class_table() -> np.ndarray:
    """``tab[dice - 1, SL, X, c]``: P(Perfect Success, success, failure, Critical Failure)
    of a Natural Roll with 1 or 2 dice (the best kept), SL 0..9 and Duellist/X 0..9, from
    :func:`analyzer.games.hybrid.rolls.class_probs`."""
    global _TABLE
    if _TABLE is None:
        tab = np.zeros((2, 10, 10, 4))
        codes = (rolls.PERFECT, rolls.SUCCESS, rolls.FAILURE, rolls.CRITICAL)
        for nd in (1, 2):
            faces = rolls.kept_face_probs(nd)
            for sl in range(10):
                for pam in range(10):
                    got = rolls.class_probs(faces, max(sl, 1), max(pam, 1))
                    tab[nd - 1, sl, pam] = [got[c] for c in codes]
        _TABLE = tab
    return _TABLE


# ------------------------------------------------------------------------- compile
@dataclass
class Compiled:
    cards: list[Card]
    sides: list[int]
    mission: Mission
    mission_file: Path


def board(mission: Mission) -> tuple[np.ndarray, np.ndarray]:
    """Cell kinds (rows y, columns x) and the Objective counters of a mission's map."""
    mp = np.array([[L.MAP_CHARS[c] for c in row] for row in mission.map], dtype=np.int64)
    obj = np.array(
        [[1 if c == "*" else 3 if c == "E" else 0 for c in row] for row in mission.map],
        dtype=np.int64,
    )
    return mp, obj


def _zone_for(zones: list[Zone], rank: int) -> list[Zone]:
    """The zones of ``rank``, else those of the next higher Rank that has one (FAQ)."""
    for r in range(rank, 5):
        found = [z for z in zones if r in z.ranks]
        if found:
            return found
    return list(zones)


def _deploy(
    cards: list[Card], zones: list[Zone], mp: np.ndarray, taken: np.ndarray, where: str
) -> list[tuple[int, int]]:
    """Anchors for ``cards`` (list order) in ``zones``: higher Ranks first, each on the
    zone square nearest the board's centre that his base fits on; a full zone spills
    onto the nearest free squares next to it ("Setup" FAQ)."""
    h, w = mp.shape
    cy, cx = (h - 1) / 2, (w - 1) / 2
    order = sorted(range(len(cards)), key=lambda k: (-cards[k].rank, k))
    out: list[tuple[int, int]] = [(0, 0)] * len(cards)

    def fits(x: int, y: int, z: int) -> bool:
        if x < 0 or y < 0 or x + z > w or y + z > h:
            return False
        block = mp[y : y + z, x : x + z]
        return bool(np.all(block == L.C_FLOOR) and not taken[y : y + z, x : x + z].any())

    for k in order:
        card = cards[k]
        z = 2 if card.base == "large" else 1
        cells = []
        for zone in _zone_for(zones, card.rank):
            x0, y0, x1, y1 = zone.rect
            cells += [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]
        spill = sorted(
            {
                (x + dx, y + dy)
                for x, y in cells
                for dx in range(-z, 2)
                for dy in range(-z, 2)
                if (x + dx, y + dy) not in cells
            }
        )

        def nearest(pool: list[tuple[int, int]], z: int = z) -> tuple[int, int] | None:
            fit = [(x, y) for x, y in pool if fits(x, y, z)]
            if not fit:
                return None
            return min(fit, key=lambda p: (abs(p[1] + (z - 1) / 2 - cy) + abs(p[0] - cx), p))

        spot = nearest(cells) or nearest(spill)
        if spot is None:
            raise InputError(f"{where}: no room to deploy {card.name} (zones full)")
        x, y = spot
        taken[y : y + z, x : x + z] = True
        out[k] = (x, y)
    return out


def compile_arrays(
    cards: dict[str, Card],
    lists: tuple[ArmyList, ArmyList],
    policies: tuple[int, int],
    options: dict[str, Any],
    mission: Mission,
    mission_file: Path,
    first_side: int | None,
) -> tuple[tuple[np.ndarray, ...], Compiled]:
    """The static arrays of a match-up: ``fi``, ``mp``, ``obj``, ``sc``, ``tab``."""
    figs: list[Card] = []
    sides: list[int] = []
    for side, army in enumerate(lists):
        for entry in army.units:
            for _ in range(entry.count):
                figs.append(cards[entry.unit])
                sides.append(side)
    if len(figs) > L.MAX_FIG:
        raise InputError(f"a hybrid match takes at most {L.MAX_FIG} warriors (got {len(figs)})")
    mp, obj = board(mission)
    h, w = mp.shape
    fi = np.zeros((len(figs), L.FI_COLS), dtype=np.int64)
    taken = np.zeros((h, w), dtype=bool)
    face_a = FACINGS[mission.facing_a]
    for side in (0, 1):
        idx = [k for k, s in enumerate(sides) if s == side]
        mine = [figs[k] for k in idx]
        where = f"{mission_file}: side {'AB'[side]}"
        if side == 1 and mission.symmetric:
            # deploy in A's frame on the board turned half-way round, then turn back
            turned = taken[::-1, ::-1].copy()
            spots = _deploy(mine, mission.zones_a, mp[::-1, ::-1], turned, where)
            taken |= turned[::-1, ::-1]
            zsz = [2 if c.base == "large" else 1 for c in mine]
            spots = [(w - z - x, h - z - y) for (x, y), z in zip(spots, zsz, strict=True)]
            facing = (face_a + 2) % 4
        else:
            zones = mission.zones_a if side == 0 else mission.zones_b
            spots = _deploy(mine, zones, mp, taken, where)
            facing = face_a if side == 0 else (face_a + 2) % 4
        for k, (x, y) in zip(idx, spots, strict=True):
            fi[k, L.F_X0] = x
            fi[k, L.F_Y0] = y
            fi[k, L.F_FACE0] = facing
    for k, (c, side) in enumerate(zip(figs, sides, strict=True)):
        fi[k, L.F_SIDE] = side
        fi[k, L.F_NV] = c.nv
        fi[k, L.F_OC] = c.oc or 0
        fi[k, L.F_DC] = c.dc or 0
        fi[k, L.F_F] = (c.f or 0) if c.can_fire else 0
        fi[k, L.F_MV] = c.mv or 0
        fi[k, L.F_MOVE] = c.movement
        fi[k, L.F_SIZE] = 2 if c.base == "large" else 1
        fi[k, L.F_RANK] = c.rank
        fi[k, L.F_OMOD] = c.modifier("offensive")
        fi[k, L.F_DMOD] = c.modifier("defensive")
        fi[k, L.F_FMOD] = c.modifier("firing")
        for col, name in APTITUDE_COLUMNS:
            fi[k, col] = c.aptitude(name)
        fi[k, L.F_POINTS] = c.points
        fi[k, L.F_LEADER] = -1
    for side in (0, 1):
        auras = [k for k in range(len(figs)) if sides[k] == side and figs[k].aptitude("Aura")]
        if auras:
            # "Conviction/X": the highest Aura, then Rank, then NV commands
            leader = max(
                auras, key=lambda k: (figs[k].aptitude("Aura"), figs[k].rank, figs[k].nv, -k)
            )
            for k in range(len(figs)):
                if sides[k] == side and k != leader:
                    fi[k, L.F_LEADER] = leader
    sc = np.zeros(L.SC_COLS, dtype=np.int64)
    sc[L.S_W] = w
    sc[L.S_H] = h
    sc[L.S_ROUNDS] = options["rounds"] or mission.rounds
    sc[L.S_OBJ_NEED] = mission.objectives_to_win
    sc[L.S_FIRST] = L.FIRST_MODES.index(options["first"])
    sc[L.S_FORCED] = -1 if first_side is None else int(first_side)
    sc[L.S_POL_A] = policies[0]
    sc[L.S_POL_B] = policies[1]
    sc[L.S_CHECK] = int(options["check_invariants"])
    sc[L.S_LOOK_K] = options["lookahead_k"]
    sc[L.S_LOOK_DEPTH] = options["lookahead_depth"]
    sc[L.S_LOOK_ROLLOUTS] = options["lookahead_rollouts"]
    sc[L.S_LOOK_MARGIN] = options["lookahead_margin"]
    sc[L.S_LOOK_ORDER] = int(options["lookahead_order"])
    sc[L.S_MOVE_LEVELS] = MOVING_LEVELS.index(options["moving_levels"])
    sc[L.S_SKILLED_FIRING] = int(options["skilled_firing"])
    sc[L.S_CLOSE_DOORS] = int(options["close_doors"])
    sc[L.S_SKILLED_HIT] = int(options["skilled_strike_needs_wound"])
    sc[L.S_PERFECT_PARRY] = int(options["perfect_parryable"])
    sc[L.S_NOBJ] = int((obj == 1).sum())
    sc[L.S_CARDS] = int(options["action_cards"])
    sc[L.S_TRAPS] = min(mission.traps, int((obj == 3).sum()))
    sc[L.S_EVENT_WORTH] = options["event_worth"]
    sc[L.S_AURA_MODE] = AURA_MODES.index(options["aura"])
    sc[L.S_MUTATION_MODE] = MUTATION_MODES.index(options["mutation"])
    sc[L.S_PURULENT_HOST] = PURULENT_WOUNDS.index(options["purulent_wound"])
    sc[L.S_AMBUSH_SEEK] = MOVING_LEVELS.index(options["ambush_seek"])
    sc[L.S_EVENT_SEEK] = MOVING_LEVELS.index(options["event_seek"])
    sc[L.S_GREEDY_FAST] = MOVING_LEVELS.index(options["greedy_fast"])
    sc[L.S_WINNER_CHOOSES] = int(options["winner_starts"])
    comp = Compiled(figs, sides, mission, mission_file)
    return (fi, mp, obj, sc, class_table()), comp


#: The Aptitude columns of ``fi`` and the card's Aptitude names ("Aptitudes").
APTITUDE_COLUMNS = (
    (L.F_COMBINED, "Combined Attack"),
    (L.F_AURA, "Aura"),
    (L.F_PUNY, "Puny"),
    (L.F_CONVICTION, "Conviction"),
    (L.F_DUELLIST, "Duellist"),
    (L.F_FELON, "Felon"),
    (L.F_FRENZY, "Frenzy"),
    (L.F_BRUTISH, "Brutish Strength"),
    (L.F_MUTATION, "Mutation"),
    (L.F_LYNX, "Eye of the Lynx"),
    (L.F_INFILTRATION, "Infiltration"),
    (L.F_PRESTIGE, "Prestige"),
    (L.F_DORSAL, "Dorsal Protection"),
    (L.F_SACRIFICE, "Sacrifice"),
    (L.F_APS, "Armour-Piercing Shot"),
    (L.F_TITAN, "Titan"),
    (L.F_VELOCITY, "Velocity"),
)
