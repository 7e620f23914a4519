"""Scenario files, named options and the compilation of a d20 match-up into plain arrays.

Scenario files (``configs/d20/scenarios/*.yaml``) are checked by the pydantic model
:class:`Scenario` through :func:`analyzer.config.loader.load_model`, so a problem prints
as ``path:line: field: message``.  Bundled scenarios are named by their file stem.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field

from analyzer import paths
from analyzer.analysis.duel import OptionKind, choice, flag, integer, number
from analyzer.config.loader import load_model
from analyzer.config.models import StrictModel
from analyzer.errors import InputError
from analyzer.games.d20 import rolls, rules
from analyzer.games.d20.match import layout as L
from analyzer.games.d20.units import (
    FIRST_PLAYER_CHARACTERISTICS,
    ArmyList,
    Card,
    deployment_distance,
    health,
    squad_cards,
)
from analyzer.match.scenarios import bundled, scenario_file

SCENARIO_DIR = paths.system_config("d20", "scenarios")
DEFAULT_SCENARIO = "border_skirmish"
Cover = Literal["none", "slight", "intermediate", "heavy"]


class Table(StrictModel):
    width: float = Field(gt=0, le=1000)
    height: float = Field(gt=0, le=1000)


class Deployment(StrictModel):
    """ "2. Deployment": from a border or an angle; the distance defaults to twice the
    squad's fastest Movement (``None``)."""

    kind: Literal["border", "corner"] = "border"
    distance: float | None = Field(default=None, gt=0)


class Element(StrictModel):
    """An axis-aligned set element or zone: lower-left corner (x, y), size (w, d) in cm."""

    name: str = Field(min_length=1)
    x: float
    y: float
    w: float = Field(gt=0)
    d: float = Field(gt=0)
    height: float = Field(default=0.0, ge=0)
    cover: Cover = "none"
    kind: Literal["element", "difficult", "water"] = "element"


class Terminal(StrictModel):
    """The computer of "Inserting a virus" (an element of the set)."""

    x: float
    y: float
    w: float = Field(gt=0)
    d: float = Field(gt=0)
    height: float = Field(default=2.0, ge=0)
    cover: Cover = "slight"


class Throwable(StrictModel):
    """A small loose object that can be thrown ("3.6 Acting on objects", "Throwing
    Objects"): its centre (x, y), its Difficulty Level and the size (cm across) of its round
    footprint.  It neither blocks sight nor gives cover nor hinders movement."""

    name: str = Field(min_length=1)
    x: float
    y: float
    dl: int = Field(ge=1, le=100)
    size: float = Field(default=3.0, gt=0, le=20)


class Objective(StrictModel):
    kind: Literal["elimination", "virus"] = "elimination"
    dl: int = Field(default=15, ge=1, le=100)
    terminal: Terminal | None = None


class Scenario(StrictModel):
    name: str = Field(min_length=1)
    description: str = ""
    table: Table
    deployment: Deployment = Deployment()
    turn_limit: int = Field(default=8, ge=1, le=100)
    at_turn_limit: Literal["points", "defender"] = "points"
    objective: Objective = Objective()
    symmetric: bool = True
    elements: list[Element] = Field(default_factory=list, max_length=40)
    objects: list[Throwable] = Field(default_factory=list, max_length=L.MAX_OBJ // 2)


def bundled_scenarios() -> list[str]:
    return bundled(SCENARIO_DIR)


def scenario_path(name: str | Path | None) -> Path:
    """A bundled scenario's name or a path (one-line :class:`InputError` if neither)."""
    return scenario_file(
        DEFAULT_SCENARIO if name is None else name, SCENARIO_DIR, what="d20 scenario"
    )


def load_scenario(name: str | Path | None) -> tuple[Scenario, Path]:
    path = scenario_path(name)
    scen, _ = load_model(path, Scenario)
    if scen.objective.kind == "virus" and scen.objective.terminal is None:
        raise InputError(f"{path}: objective: a virus objective needs a terminal")
    w, h = scen.table.width, scen.table.height
    for k, o in enumerate(scen.objects):
        r = o.size / 2
        for field, v, top in (("x", o.x, w), ("y", o.y, h)):
            if not r <= v <= top - r:
                raise InputError(
                    f"{path}: objects[{k}] ({o.name}).{field}: {v:g} puts the object off the "
                    f"table (its centre must be within {r:g}..{top - r:g} cm)"
                )
    return scen, path


# ------------------------------------------------------------------------- options
OPTION_KINDS: dict[str, OptionKind] = {
    "first": choice(*L.FIRST_MODES),
    "max_turns": integer(0, 100),
    "winner_starts": flag(),
    "ready_trigger": choice("enter", "move"),
    "failed_retreat_acts": flag(),
    "all_weapons": flag(),
    "dexterity_in_shot": flag(),
    "virus_min_turns": integer(0, 20),
    "climb_next": choice("must", "may"),
    "impulsive_blocked": choice("round", "wait"),
    "cover_distance": number(0, 100),
    "take_cover_distance": number(0, 50),
    "standard_radius": number(0.5, 10),
    "large_radius": number(0.5, 10),
    "lookahead_k": integer(1, 4),
    "lookahead_depth": integer(1, 12),
    "lookahead_rollouts": integer(1, 32),
    "check_invariants": flag(),
    "greedy_search": choice("fast", "full"),
}
OPTION_DEFAULTS: dict[str, Any] = {
    "first": "rules",
    "max_turns": 0,
    "winner_starts": True,
    "ready_trigger": "enter",
    "failed_retreat_acts": True,
    "all_weapons": False,
    "dexterity_in_shot": True,
    "virus_min_turns": 1,
    "climb_next": "must",
    "impulsive_blocked": "round",
    "cover_distance": 5.0,
    "take_cover_distance": 5.0,
    "standard_radius": 1.25,
    "large_radius": 2.5,
    "lookahead_k": 4,
    "lookahead_depth": 4,
    "lookahead_rollouts": 12,
    "check_invariants": False,
    "greedy_search": "fast",
}
OPTION_HELP: dict[str, str] = {
    "first": "who takes turn 1 first: rules (Who starts ? roll-off), alternate, a, b",
    "max_turns": "game turns before the turn limit (0: the scenario's turn limit)",
    "winner_starts": "the Who starts ? winner chooses to start (false: lets the other start)",
    "ready_trigger": "ready to shoot fires at the first enemy that enters range and sight "
    "(enter) or that moves within it (move)",
    "failed_retreat_acts": "a figurine failing its retreat test may still fight this phase",
    "all_weapons": "a figurine fires every gun in Reach at its one target (false: the best gun)",
    "dexterity_in_shot": "a shot adds Dexterity to the Shot skill (3.2 Shots)",
    "virus_min_turns": "least number of turns of an effective action when Intelligence >= DL",
    "climb_next": "a figurine stopped at the foot of an element climbs it at its next turn "
    "(must), or may move otherwise (may)",
    "impulsive_blocked": "an impulsive move that would stay 0 cm at the foot of an element (its "
    "climb cannot land) climbs to a side landing or goes round by a corner (round), or "
    "stays there (wait)",
    "cover_distance": "an element lower than the target gives cover within this many cm of it",
    "take_cover_distance": "take cover: the extra move and the radius around the arrival (cm)",
    "standard_radius": "radius (cm) of a standard round stand",
    "large_radius": "radius (cm) of a large stand (outsize creature)",
    "lookahead_k": "lookahead: plans tried per turn (balanced, aggressive, cautious, hold)",
    "lookahead_depth": "lookahead: player turns played greedily after the plan's turn",
    "lookahead_rollouts": "lookahead: rollouts per plan (common random numbers)",
    "check_invariants": "run the invariant checker after every phase",
    "greedy_search": "greedy: fast (a candidate move scored at its straight line's end, walked "
    "only once it leads: ~1.1x, as strong) or full (every candidate walked before it is scored)",
}
#: Height (cm) of a figurine for sightlines: standard and large stands (a named choice).
STANDARD_HEIGHT = 3.0
LARGE_HEIGHT = 6.0


def full_options(options: dict[str, Any]) -> dict[str, Any]:
    out = dict(OPTION_DEFAULTS)
    out.update(options)
    return out


# ------------------------------------------------------------------------- compile
@dataclass
class Compiled:
    cards: list[Card]
    sides: list[int]
    scenario: Scenario
    scenario_file: Path
    terminal_row: int
    ter_names: list[str]
    guns: list[list[str]]
    object_names: list[str]
    object_dls: list[int]


def _tables() -> tuple[np.ndarray, np.ndarray, int]:
    """Expected CP lost and P(CP lost >= c) per attack margin, from ``rolls.cp_lost``."""
    moff = 60
    ncp = 64
    ecp = np.zeros(2 * moff + 1)
    pge = np.zeros((2 * moff + 1, ncp))
    for idx in range(2 * moff + 1):
        margin = idx - moff
        dist = rolls.cp_lost(margin, 0) if margin >= 0 else rolls.cp_lost(0, -margin)
        probs = dist.probs
        vals = dist.outcomes
        ecp[idx] = float(vals @ probs)
        tail = np.cumsum(probs[::-1])[::-1]
        for c in range(ncp):
            pge[idx, c] = float(tail[c - dist.lowest]) if 0 <= c - dist.lowest < tail.size else 0.0
    return ecp, pge, moff


_TABLES: tuple[np.ndarray, np.ndarray, int] | None = None


def tables() -> tuple[np.ndarray, np.ndarray]:
    global _TABLES
    if _TABLES is None:
        _TABLES = _tables()
    return _TABLES[0], _TABLES[1]


def _cover(kind: str) -> int:
    return rules.COVER_PD_BONUS[kind]


def _elements(scen: Scenario) -> tuple[list[list[float]], list[str], int]:
    w, h = scen.table.width, scen.table.height
    rows: list[list[float]] = []
    names: list[str] = []
    kinds = {"element": L.K_ELEMENT, "difficult": L.K_DIFFICULT, "water": L.K_WATER}
    for e in scen.elements:
        box = [e.x, e.y, e.x + e.w, e.y + e.d]
        boxes = [box]
        if scen.symmetric:
            boxes.append([w - box[2], h - box[3], w - box[0], h - box[1]])
        for b in boxes:
            rows.append([*b, e.height, float(_cover(e.cover)), float(kinds[e.kind])])
            names.append(e.name)
    term = -1
    t = scen.objective.terminal
    if scen.objective.kind == "virus" and t is not None:
        term = len(rows)
        rows.append(
            [t.x, t.y, t.x + t.w, t.y + t.d, t.height, float(_cover(t.cover)), float(L.K_TERMINAL)]
        )
        names.append("terminal")
    return rows, names, term


def _objects(scen: Scenario) -> tuple[list[list[float]], list[str]]:
    """Throwable objects (``OB_*`` rows of TER), point-symmetric copies when the scenario is."""
    w, h = scen.table.width, scen.table.height
    rows: list[list[float]] = []
    names: list[str] = []
    for o in scen.objects:
        spots = [(o.x, o.y)]
        if scen.symmetric:
            spots.append((w - o.x, h - o.y))
        for x, y in spots:
            row = [0.0] * L.T_COLS
            row[L.OB_X], row[L.OB_Y], row[L.OB_R], row[L.OB_DL] = x, y, o.size / 2, float(o.dl)
            rows.append(row)
            names.append(o.name)
    return rows, names


def compile_arrays(
    cards: dict[str, Card],
    lists: tuple[ArmyList, ArmyList],
    policies: tuple[int, int],
    options: dict[str, Any],
    scen: Scenario,
    scen_file: Path,
    first_side: int | None,
) -> tuple[tuple[np.ndarray, ...], Compiled]:
    figs: list[Card] = []
    sides: list[int] = []
    for side, army in enumerate(lists):
        for card in squad_cards(army, cards):
            figs.append(card)
            sides.append(side)
    if len(figs) > L.MAX_FIG:
        raise InputError(f"a d20 match takes at most {L.MAX_FIG} figurines (got {len(figs)})")
    n = len(figs)
    fi = np.zeros((n, L.FI_COLS), dtype=np.int64)
    fr = np.zeros((n, L.FR_COLS))
    guns: list[list[str]] = []
    for i, (c, side) in enumerate(zip(figs, sides, strict=True)):
        if health(c) > 63:
            raise InputError(f"{c.name}: at most 63 Constitution Points in a d20 match")
        large = "large stand" in c.special
        shooting = c.shooting_weapons[: L.MAX_GUN]
        hth_pow = max((w.power for w in c.hth_weapons), default=-1)
        if hth_pow < 0:
            hth_pow = rules.IMPROVISED_HTH_POWER if shooting else 0
        fi[i, L.F_SIDE] = side
        fi[i, L.F_MOVE] = c.movement
        fi[i, L.F_SHOT] = c.skill.shot
        fi[i, L.F_DEX] = c.dexterity if options["dexterity_in_shot"] else 0
        fi[i, L.F_HTH] = c.skill.hth + (c.force or 0)
        fi[i, L.F_PD] = c.physical_defense
        fi[i, L.F_CP] = health(c)
        fi[i, L.F_LARGE] = int(large)
        fi[i, L.F_IMPULSIVE] = int("impulsiveness" in c.special)
        fi[i, L.F_INT] = c.intelligence
        fi[i, L.F_POWER] = c.power
        fi[i, L.F_HTHPOW] = hth_pow
        fi[i, L.F_NGUN] = len(shooting)
        fi[i, L.F_POINTS] = c.points
        fi[i, L.F_SCOUT] = int(any(s in FIRST_PLAYER_CHARACTERISTICS for s in c.special))
        for g, w in enumerate(shooting):
            fi[i, L.F_GUN + 3 * g] = w.range_cm
            fi[i, L.F_GUN + 3 * g + 1] = w.power
            fi[i, L.F_GUN + 3 * g + 2] = int(w.is_grenade)
        guns.append([w.name for w in shooting])
        fr[i, L.R_RADIUS] = options["large_radius"] if large else options["standard_radius"]
        fr[i, L.R_HEIGHT] = LARGE_HEIGHT if large else STANDARD_HEIGHT
    rows, names, term = _elements(scen)
    # after the elements, those a sightline can meet, highest first (``sight``): an element
    # of difficult terrain or water neither blocks nor covers, nor one without a cover
    # grade no higher than every stand; the answer does not hang on their order
    low = float(fr[:, L.R_HEIGHT].min()) if len(fr) else 0.0
    seen = [
        r
        for r in rows
        if r[L.T_KIND] not in (L.K_DIFFICULT, L.K_WATER) and (r[L.T_COVER] > 0 or r[L.T_H] > low)
    ]
    seen.sort(key=lambda r: -r[L.T_H])  # stable: equally high ones in their order
    base = max(len(rows), 1)
    orows, onames = _objects(scen)
    ter = np.zeros((base + len(seen) + len(orows), L.T_COLS))
    for k, row in enumerate(rows):
        ter[k] = row
    for k, row in enumerate(seen):
        ter[base + k] = row
    for k, row in enumerate(orows):
        ter[base + len(seen) + k] = row
    sc = np.zeros(L.SC_COLS)
    sc[L.S_W] = scen.table.width
    sc[L.S_H] = scen.table.height
    sc[L.S_DEPLOY] = 1 if scen.deployment.kind == "corner" else 0
    for side, army in enumerate(lists):
        depth = scen.deployment.distance
        if depth is None or army.deployment_distance is not None:
            depth = deployment_distance(army, cards)
        sc[L.S_DEPTH_A + side] = min(depth, scen.table.height / 2 - 1, scen.table.width / 2 - 1)
    sc[L.S_OBJ] = 1 if scen.objective.kind == "virus" else 0
    sc[L.S_OBJ_DL] = scen.objective.dl
    sc[L.S_TURNS] = scen.turn_limit
    sc[L.S_LIMIT_RULE] = 1 if scen.at_turn_limit == "defender" else 0
    sc[L.S_COVER_DIST] = options["cover_distance"]
    sc[L.S_TAKE_COVER] = options["take_cover_distance"]
    sc[L.S_TERM] = term
    sc[L.S_NTER] = len(rows)
    sc[L.S_SBASE] = base
    sc[L.S_NSIGHT] = len(seen)
    sc[L.S_FAST : L.S_FAST + 2] = 1.0 if options["greedy_search"] == "fast" else 0.0
    sc[L.S_OBASE] = base + len(seen)
    sc[L.S_NOBJ] = len(orows)
    op = np.zeros(L.OP_COLS, dtype=np.int64)
    op[L.O_FIRST] = L.FIRST_MODES.index(options["first"])
    op[L.O_FORCED] = -1 if first_side is None else int(first_side)
    op[L.O_MAXTURNS] = options["max_turns"]
    op[L.O_POL_A] = policies[0]
    op[L.O_POL_B] = policies[1]
    op[L.O_READY] = 1 if options["ready_trigger"] == "move" else 0
    op[L.O_WINNER_STARTS] = int(options["winner_starts"])
    op[L.O_FAILED_ACTS] = int(options["failed_retreat_acts"])
    op[L.O_ALL_WEAPONS] = int(options["all_weapons"])
    op[L.O_LOOK_K] = options["lookahead_k"]
    op[L.O_LOOK_DEPTH] = options["lookahead_depth"]
    op[L.O_LOOK_ROLLOUTS] = options["lookahead_rollouts"]
    op[L.O_VIRUS_MIN] = options["virus_min_turns"]
    op[L.O_CLIMB_NEXT] = 1 if options["climb_next"] == "must" else 0
    op[L.O_IMP_ROUND] = 1 if options["impulsive_blocked"] == "round" else 0
    op[L.O_CHECK] = int(options["check_invariants"])
    ecp, pge = tables()
    dls = [int(r[L.OB_DL]) for r in orows]
    comp = Compiled(figs, sides, scen, scen_file, term, names, guns, onames, dls)
    return (fi, fr, ter, sc, op, ecp, pge), comp
