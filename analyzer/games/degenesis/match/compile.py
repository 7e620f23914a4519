"""Mission files, named options and the compilation of a mission match-up into plain arrays.

A mission (``configs/degenesis/missions/*.yaml``; the MISSION BOOKLET is not part of the
rulebook, so every bundled mission is designed here and says so) lays out the FIELD as
rows of TILE tokens: ``.`` is no TILE, otherwise the ELEVATION (0-3) followed by flags:
``h`` HARD TERRAIN, ``S`` a HOSTILE SPAWN POINT, ``X`` an EXIT POINT, ``O`` the OPERATIVE
SPAWN POINT (OSP), ``*`` an OBJECTIVE, ``C`` the CHAMPION's THREAT, and one ``T`` per
THREAT placed at FIELD SETUP.  TILES sharing a side are adjacent (one BORDER).

Everything the kernels need is computed here once ("The Field"): DISTANCES (BORDERS
crossed), LINE OF SIGHT (a straight line from any part of one TILE to any part of the
other crossing no OBSTACLE), and each MOVE action's reachable TILES with its path
("Movement", "Elevation", "Hard Terrain").  Attack chances for the greedy scores come
from :func:`analyzer.games.degenesis.duel.option_chances` (the exact rolls of
:mod:`analyzer.games.degenesis.rolls`).
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field

from analyzer import paths
from analyzer.analysis.duel import OptionKind, choice, flag, integer
from analyzer.config.loader import load_model
from analyzer.config.models import StrictModel
from analyzer.config.yaml_io import ConfigError
from analyzer.errors import InputError
from analyzer.games.degenesis.duel import (
    DEFAULT_MOVE,
    DEFAULT_SUCKER_PUNCHES,
    MIN_MOVE,
    _option,
    _pool_block,
    option_chances,
)
from analyzer.games.degenesis.match import layout as L
from analyzer.games.degenesis.rolls import MAX_DICE
from analyzer.games.degenesis.rules import load_dice
from analyzer.games.degenesis.units import (
    AnyCard,
    ArmyList,
    Champion,
    Item,
    Legion,
    Operative,
    Trait,
    _rating,
    health,
)
from analyzer.match.scenarios import bundled, scenario_file

MISSION_DIR = paths.system_config("degenesis", "missions")
DEFAULT_MISSION = "pipeline_extraction"
#: "Rounds": EDGES per OPERATIVE by ROSTER size (1: 3, 2: 2 each, 3-4: 1 each).
EDGES_BY_ROSTER = {1: 3, 2: 2, 3: 1, 4: 1}
#: "Hard Terrain": "while in HARD TERRAIN a unit is in cover, and receives HIDDEN +1".
HARD_HIDDEN = 1
#: "Elevation": "BORDERS with more than 1 difference in ELEVATION cannot be crossed".
MAX_CLIMB = 1
_TOKEN = re.compile(r"(\d)([hSXO*CT]*)")


class Mission(StrictModel):
    """A mission ("Missions"; the MISSION BOOKLET's OBJECTIVES and END conditions are
    designed here: ``kind`` extraction, hold or hunt)."""

    name: str = Field(min_length=1)
    designed: str = Field(min_length=1)  # who designed it (the booklet is not printed)
    description: str = ""
    kind: Literal["extraction", "hold", "hunt"]
    rounds: int = Field(ge=1, le=50)
    need: int | None = Field(default=None, ge=1, le=50)
    field: list[str] = Field(min_length=1, max_length=16)


def bundled_missions() -> list[str]:
    return bundled(MISSION_DIR)


def mission_path(name: str | Path | None) -> Path:
    """A bundled mission's name or a path (one-line :class:`InputError` if neither)."""
    return scenario_file(
        DEFAULT_MISSION if name is None else name, MISSION_DIR, what="degenesis mission"
    )


@dataclass
class Field_:
    """A parsed FIELD: TILES in reading order with their grid cells and flags."""

    cells: list[tuple[int, int]]
    fld: np.ndarray  # (T, FLD_COLS)
    rows: int
    cols: int


def parse_field(path: Path, mission: Mission) -> Field_:
    """The TILES of ``mission.field`` (one-line errors naming the row and the token)."""
    cells: list[tuple[int, int]] = []
    rows: list[list[int]] = []
    grid = [row.split() for row in mission.field]
    cols = max(len(r) for r in grid)
    for r, tokens in enumerate(grid):
        for c, tok in enumerate(tokens):
            if tok == ".":
                continue
            m = _TOKEN.fullmatch(tok)
            if not m:
                raise ConfigError(
                    f"{path}: field[{r}]: token {tok!r} is not '.' or an ELEVATION digit "
                    "followed by flags h S X O * C T"
                )
            flags = m[2]
            cells.append((r, c))
            rows.append(
                [
                    int(m[1]),
                    int("h" in flags),
                    int("S" in flags),
                    int("X" in flags or "O" in flags),
                    int("O" in flags),
                    int("*" in flags),
                    flags.count("T"),
                    int("C" in flags),
                    0,
                ]
            )
    if not cells or len(cells) > L.MAX_TILES:
        raise ConfigError(f"{path}: field: 1 to {L.MAX_TILES} TILES (got {len(cells)})")
    fld = np.array(rows, dtype=np.int64)
    for col, what in ((L.T_OSP, "O (the OPERATIVE SPAWN POINT)"),):
        if fld[:, col].sum() != 1:
            raise ConfigError(f"{path}: field: exactly one {what} (got {fld[:, col].sum()})")
    if fld[:, L.T_SPAWN].sum() == 0:
        raise ConfigError(f"{path}: field: at least one S (a HOSTILE SPAWN POINT)")
    if mission.kind == "extraction" and (fld[:, L.T_EXIT] - fld[:, L.T_OSP]).sum() == 0:
        raise ConfigError(f"{path}: field: an extraction needs an X (EXIT POINT)")
    if mission.kind == "hold" and fld[:, L.T_OBJ].sum() == 0:
        raise ConfigError(f"{path}: field: a hold mission needs an * (OBJECTIVE)")
    if fld[:, L.T_CHAMP].sum() > 1:
        raise ConfigError(f"{path}: field: at most one C (the CHAMPION's THREAT)")
    return Field_(cells, fld, len(grid), cols)


def neighbours(cells: list[tuple[int, int]]) -> list[list[int]]:
    """TILES sharing a BORDER (a side of the grid cell)."""
    index = {cell: i for i, cell in enumerate(cells)}
    out = []
    for r, c in cells:
        near = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]
        out.append([index[n] for n in near if n in index])
    return out


def distances(nbr: list[list[int]]) -> np.ndarray:
    """DISTANCE: BORDERS crossed between two TILES ("Movement": WITHIN X), by breadth-first
    search over every BORDER (cliffs included: DISTANCE is not a MOVE)."""
    n = len(nbr)
    out = np.full((n, n), 99, dtype=np.int64)
    for a in range(n):
        out[a, a] = 0
        frontier = [a]
        while frontier:
            nxt = []
            for t in frontier:
                for u in nbr[t]:
                    if out[a, u] > out[a, t] + 1:
                        out[a, u] = out[a, t] + 1
                        nxt.append(u)
            frontier = nxt
    return out


def entry_cost(fld: np.ndarray, src: int, dst: int, penalties: bool) -> int:
    """MOVE spent entering ``dst`` from ``src``: 1, +1 climbing to a HIGHER TILE
    ("Elevation"), +1 into HARD TERRAIN ("Hard Terrain"); -1 across a cliff."""
    rise = int(fld[dst, L.T_ELEV] - fld[src, L.T_ELEV])
    if abs(rise) > MAX_CLIMB:
        return -1
    if not penalties:
        return 1
    return 1 + int(rise > 0) + int(fld[dst, L.T_HARD])


def move_table(fld: np.ndarray, nbr: list[list[int]]) -> np.ndarray:
    """``mv[(pen * MAX_MOVE + m - 1) * T + a, b]``: the TILE before ``b`` on the cheapest
    path of one MOVE ``m`` from ``a`` (``a`` for ``b == a``), -1 if out of reach.

    "Move": a MOVE is never below 1, "no matter how many penalties": the first BORDER
    always fits (the Movement Example's third MOVE climbs into a HIGHER HARD TERRAIN TILE
    with MOVE 2); further BORDERS while the penalties summed fit in ``m`` (its second
    MOVE cannot climb after one flat BORDER).  ``pen`` 0: penalties ignored (0 The
    Adventurer, IV The Ruler).  Ties: fewer BORDERS, then the lower TILE index.

    Then lists for the kernels' loops: row ``(2 * MAX_MOVE + m - 1) * T + a``: how many
    TILES one MOVE ``m`` (penalties counted) reaches from ``a``, then those TILES in
    index order (``a`` left out); row ``3 * MAX_MOVE * T``: the SPAWN POINTS likewise.
    """
    n = len(nbr)
    mv = np.full((3 * L.MAX_MOVE * n + 1, n), -1, dtype=np.int64)
    for pen in (0, 1):
        for m in range(1, L.MAX_MOVE + 1):
            for a in range(n):
                row = (pen * L.MAX_MOVE + m - 1) * n + a
                best: dict[int, tuple[int, int]] = {a: (0, 0)}
                mv[row, a] = a
                heap = [(0, 0, a)]
                while heap:
                    cost, hops, t = heapq.heappop(heap)
                    if best.get(t, (99, 99)) < (cost, hops):
                        continue
                    for u in nbr[t]:
                        step = entry_cost(fld, t, u, bool(pen))
                        if step < 0:
                            continue
                        total = min(step, m) if t == a else cost + step
                        if total > m:
                            continue
                        key = (total, hops + 1)
                        if key < best.get(u, (99, 99)):
                            best[u] = key
                            mv[row, u] = t
                            heapq.heappush(heap, (total, hops + 1, u))
    for m in range(1, L.MAX_MOVE + 1):
        for a in range(n):
            dests = [b for b in range(n) if b != a and mv[(L.MAX_MOVE + m - 1) * n + a, b] >= 0]
            _write_list(mv[(2 * L.MAX_MOVE + m - 1) * n + a], dests)
    _write_list(mv[3 * L.MAX_MOVE * n], [t for t in range(n) if fld[t, L.T_SPAWN]])
    return mv


def _write_list(row: np.ndarray, items: list[int]) -> None:
    """A count and then the items, into one row of ``mv``."""
    row[0] = len(items)
    row[1 : 1 + len(items)] = items


def line_of_sight(field_: Field_) -> np.ndarray:
    """``los[a, b]``: a straight line from some part of ``a`` to some part of ``b`` crosses no
    OBSTACLE ("Line of Sight": a TILE higher than both, or the absence of TILES).

    Parts of a TILE: its centre and four points 0.1 inside its corners; a line is sampled
    every 0.05 TILE width (a grid cell is 1 x 1)."""
    n = len(field_.cells)
    elev = np.full((field_.rows + 2, field_.cols + 2), np.inf)
    for i, (r, c) in enumerate(field_.cells):
        elev[r + 1, c + 1] = field_.fld[i, L.T_ELEV]
    offs = np.array([[0.5, 0.5], [0.1, 0.1], [0.1, 0.9], [0.9, 0.1], [0.9, 0.9]])
    pts = np.array([[r + 1 + dy, c + 1 + dx] for r, c in field_.cells for dy, dx in offs])
    pts = pts.reshape(n, len(offs), 2)
    los = np.eye(n, dtype=np.int64)
    for a in range(n):
        for b in range(a + 1, n):
            p0 = pts[a][:, None, :]
            p1 = pts[b][None, :, :]
            length = float(np.hypot(*(pts[b, 0] - pts[a, 0])))
            steps = max(int(length / 0.05), 2)
            t = np.linspace(0.0, 1.0, steps)[None, None, :, None]
            line = p0[:, :, None, :] + (p1 - p0)[:, :, None, :] * t
            cells = np.floor(line).astype(np.int64)
            heights = elev[cells[..., 0], cells[..., 1]]
            top = max(field_.fld[a, L.T_ELEV], field_.fld[b, L.T_ELEV])
            clear = ~(heights > top).any(axis=2)
            los[a, b] = los[b, a] = int(clear.any())
    return los


@dataclass
class FieldTables:
    """What the kernels take of a FIELD."""

    field: Field_
    nbr: list[list[int]]
    dist: np.ndarray
    los: np.ndarray
    mv: np.ndarray


@functools.lru_cache(maxsize=16)
def _field_tables(path: str, stamp: float) -> tuple[Mission, FieldTables]:
    mission, _ = load_model(Path(path), Mission)
    f = parse_field(Path(path), mission)
    nbr = neighbours(f.cells)
    dist = distances(nbr)
    goal = f.fld[:, L.T_OBJ] if mission.kind == "hold" else f.fld[:, L.T_EXIT] - f.fld[:, L.T_OSP]
    if mission.kind == "hunt" or not goal.any():
        f.fld[:, L.T_GOAL] = 0
    else:
        f.fld[:, L.T_GOAL] = dist[:, goal > 0].min(axis=1)
    return mission, FieldTables(f, nbr, dist, line_of_sight(f), move_table(f.fld, nbr))


def load_mission(name: str | Path | None) -> tuple[Mission, FieldTables, Path]:
    """A mission and its FIELD tables (cached per file and modification time)."""
    path = mission_path(name)
    mission, tables = _field_tables(str(path.resolve()), path.stat().st_mtime)
    return mission, tables, path


# ------------------------------------------------------------------------- options
OPTION_KINDS: dict[str, OptionKind] = {
    "first": choice(*L.FIRST_MODES),
    "max_rounds": integer(0, 50),
    "punch_first": flag(),
    "ranged_hostiles_provoke": flag(),
    "ambush_stops_move": flag(),
    "area_hits_allies": flag(),
    "rollouts": integer(1, 16),
    "rollout_depth": integer(1, 12),
    "check_invariants": flag(),
    "arcana": flag(),
    "overcommit": flag(),
    "hidden_on_tile": flag(),
    "retreat": flag(),
}
OPTION_DEFAULTS: dict[str, Any] = {
    "first": "rules",
    "max_rounds": 0,
    "punch_first": True,
    "ranged_hostiles_provoke": False,
    "ambush_stops_move": True,
    "area_hits_allies": True,
    "rollouts": 4,
    "rollout_depth": 3,
    "check_invariants": False,
    "arcana": True,
    "overcommit": True,
    "hidden_on_tile": False,
    "retreat": True,
}
OPTION_HELP: dict[str, str] = {
    "first": "round 1: rules (an OPERATIVE's TURN first), alternate, operatives, hostile "
    "(the HOSTILE reacts first with a full SCHEMING AREA: a variant, not a rule)",
    "max_rounds": "ROUND limit (0: the mission's)",
    "punch_first": "a SUCKER PUNCH resolves before the MOVE / RANGED ATTACK that provoked it",
    "ranged_hostiles_provoke": "a LEGION's / CHAMPION's ATTACK with RANGE >= 1 is RANGED "
    "(provokes SUCKER PUNCHES on its TILE)",
    "ambush_stops_move": "an AMBUSH during a MOVE ends that MOVE on the THREAT's TILE",
    "area_hits_allies": "an AREA ATTACK also WOUNDS the attacker's ALLIES on the TILE",
    "rollouts": "rollout policy: rollouts per candidate ACTION (common random numbers)",
    "rollout_depth": "rollout policy: TURNS played greedily after the candidate",
    "check_invariants": "run the invariant checker after every TURN",
    "arcana": "play the APOCALYPTIC TAROT (CONCEPT ARCANA dealt; I, II, V-IX, XII played)",
    "overcommit": "the AIs may OVERCOMMIT (+1 DIE; the other side DRAWS 1 ARCANA)",
    "hidden_on_tile": "HIDDEN also modifies DISTANCE 0: a unit in HARD TERRAIN cannot be "
    "TARGETED by a RANGE 0 ATTACK from its own TILE (the literal reading)",
    "retreat": "an OPERATIVE on the OSP may leave the FIELD by it: a RETREAT, the MISSION "
    "ends in failure (only the random OPERATIVES take it)",
}


def full_options(options: dict[str, Any]) -> dict[str, Any]:
    out = dict(OPTION_DEFAULTS)
    out.update(options)
    return out


# ------------------------------------------------------------------------- profiles
@dataclass
class Compiled:
    """The compiled match-up's names, for traces and reports."""

    names: list[str]
    option_names: list[list[str]]  # per unit: option labels by index
    mission: Mission
    mission_file: Path
    tables: FieldTables
    notes: list[str] = field(default_factory=list)
    item_names: list[str] = field(default_factory=list)  # the ROSTER's item list (its bits)


ROMAN = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")


def concept_index(card: Operative) -> int:
    """The CONCEPT's ARCANA number (``"III The Martyr"`` -> 3), -1 for none or unprinted."""
    if not card.concept:
        return -1
    head = card.concept.split()[0]
    return ROMAN.index(head) if head in ROMAN else -1


def overcommit_die() -> str:
    """The DIE type the AIs add when they OVERCOMMIT a DIE (``match_nb.overcommit``): the
    fewest BOTCH faces, then the most SUCCESSES (a BOTCH face counts -100)."""
    faces = load_dice()
    worth = {t: sum(f if f >= 0 else -100 for f in faces[t]) for t in ("white", "black", "fatal")}
    return max(worth, key=lambda t: (worth[t], -list(worth).index(t)))


def _overcommitted(o: Any) -> tuple[Any, Any]:
    """Option ``o`` with the OVERCOMMIT DIE added (``o`` itself when the POOL is full) and
    with SECURE 1 more ("Overcommitting")."""
    die = overcommit_die()
    dice = dict(o.dice)
    dice[die] = dice.get(die, 0) + 1
    more = dataclasses.replace(o, dice=dice) if sum(dice.values()) <= MAX_DICE else o
    return more, dataclasses.replace(o, secure=o.secure + 1)


def _write_option(
    opt: np.ndarray, pw: np.ndarray, row: int, o: Any, area: bool, stun: bool, trait: bool = False
) -> None:
    succ = option_chances(o, L.MAX_DEF + 1)
    more, secure = _overcommitted(o)
    pw[row, L.PW_DIE : L.PW_DIE + L.MAX_DEF + 1] = option_chances(more, L.MAX_DEF + 1)[1]
    pw[row, L.PW_SEC : L.PW_SEC + L.MAX_DEF + 1] = option_chances(secure, L.MAX_DEF + 1)[1]
    opt[row, L.O_USABLE] = int(o.usable)
    opt[row, L.O_ITEM] = o.item
    opt[row, L.O_RANGE] = o.range
    opt[row, L.O_RANGED] = int(o.ranged)
    opt[row, L.O_AREA] = int(area)
    opt[row, L.O_STUN] = int(stun)
    opt[row, L.O_TRAIT] = int(trait)
    opt[row, L.O_POOL : L.O_POOL + L.POOL_W] = _pool_block(o)
    pw[row, : L.MAX_DEF + 1] = succ[1]
    pw[row, L.PW_BOTCH] = succ[0]


def _effects(prof: np.ndarray, prow: int, traits: list[Trait | None], carry: int) -> None:
    """The profile's TRAIT effects (``units.Effect``): the WITHIN X of each ACTIVE one (or
    of the PASSIVE ``flip_operative``), Verdict's DEFENSE penalty, Execution's SUCCESS
    bonus; and the ENCUMBRANCE LIMIT ``carry`` + CARRYING ("Carrying")."""
    prof[prow, L.F_CARRY] = max(carry + _rating(traits, "carrying"), 0)
    cols = {"heal_fleshwound": L.F_HEAL, "reveal_threat": L.F_REVEAL, "stun_enemy": L.F_STUN_AT,
            "enemy_defense": L.F_VERDICT, "snare": L.F_SNARE}  # fmt: skip
    for col in (*cols.values(), L.F_HARROW):
        prof[prow, col] = -1
    prof[prow, L.F_VERDICT_DEF] = 0
    prof[prow, L.F_EXECUTE] = 0
    for t in traits:
        if t is None or t.effect is None:
            continue
        if t.active and t.effect in cols:
            prof[prow, cols[t.effect]] = t.within or 0
            if t.effect == "enemy_defense":
                prof[prow, L.F_VERDICT_DEF] = max(-t.abilities.get("defense", -1), 0)
        elif t.active and t.effect == "wounded_attack":
            prof[prow, L.F_EXECUTE] = max(t.abilities.get("success", 0), 0)
        elif not t.active and t.effect == "flip_operative":
            prof[prow, L.F_HARROW] = t.within or 0


def _stats(defense: int, traits: list[Trait | None]) -> list[int]:
    """DEFENSE +/-X, MOVE 2 + SPEED (at least 1), HIDDEN +/-X, 1 + DIRTY FIGHTING."""
    return [
        max(defense + _rating(traits, "defense"), 0),
        max(DEFAULT_MOVE + _rating(traits, "speed"), MIN_MOVE),
        _rating(traits, "hidden"),
        max(DEFAULT_SUCKER_PUNCHES + _rating(traits, "dirty_fighting"), 0),
    ]


def _has(traits: list[Trait], ability: str) -> bool:
    return any(ability in t.abilities and not t.active for t in traits)


def operative_rows(
    card: Operative,
    u: int,
    prof,
    opt,
    pw,
    own_ids: list[int] | None = None,
    foreign: list[tuple[int, Item]] | None = None,
) -> tuple[list[str], int]:
    """Profiles of an OPERATIVE by DASHBOARD side and POTENTIALS FLIPPED ("Dashboards",
    "Potentials", "Items", "Attack (Operative)"): the POTENTIALS FLIP from the last listed.
    Options: its WEAPONS, BARE HANDED, its ATTACK TRAITS, then the other OPERATIVES'
    WEAPONS it may use once it CARRIES them (``foreign``: their CULT, "Items Breakdown";
    while there is room in MAX_OPT), the FOCUS POOL last.  Each WEAPON's option names the
    ITEM by its bit in the ROSTER's item list (``own_ids``).  Returns the option labels and
    the bits of the ITEMS it has options for."""
    weapons = [i for i, it in enumerate(card.items) if it.is_weapon]
    own_ids = list(range(len(weapons))) if own_ids is None else own_ids
    # ACTIVE TRAITS that are ATTACKS ("Active Traits": an ACTION; ``pool_attack``)
    moves = [
        (name, t)
        for name in ("focus", "primal")
        for t in card.side(name).traits
        if t.active and t.effect == "pool_attack"
    ]
    if len(weapons) + len(moves) + 2 > L.MAX_OPT:
        raise InputError(
            f"{card.name}: at most {L.MAX_OPT - 2} WEAPONS and ATTACK TRAITS in a mission"
        )
    room = L.MAX_OPT - (len(weapons) + len(moves) + 2)
    foreign = (foreign or [])[: max(room, 0)]
    n_pot = len(card.potentials)
    if n_pot + 1 > L.MAX_LEVELS:
        raise InputError(f"{card.name}: at most {L.MAX_LEVELS - 1} POTENTIALS in a mission")
    labels = [card.items[i].name for i in weapons] + ["BARE HANDED"]
    labels += [t.name for _, t in moves] + [it.name for _, it in foreign] + ["FOCUS POOL"]
    for level in range(n_pot + 1):
        face_up = [p.trait() for p in card.potentials[: n_pot - level]]
        for s, side_name in enumerate(("focus", "primal")):
            side = card.side(side_name)
            unit_traits: list[Trait | None] = [card.shared_trait, *face_up, *side.traits]
            colour = [it for it in card.items if it.side in (side_name, "neutral")]
            armor = sum(it.defense or 0 for it in colour if it.is_armor)
            item_traits: list[Trait | None] = [t for it in colour for t in it.traits]
            prow = u * L.ROWS + s * L.MAX_LEVELS + level
            prof[prow, : L.F_NOPT] = _stats(side.defense + armor, unit_traits + item_traits)
            prof[prow, L.F_NOPT] = len(weapons) + 1 + len(moves) + len(foreign)
            _effects(prof, prow, unit_traits + item_traits, L.OPERATIVE_CARRY)
            base = prow * L.MAX_OPT
            for k, i in enumerate(weapons):
                it = card.items[i]
                assert it.attack is not None and it.range is not None
                o = _option(
                    it.name,
                    it.side in (side_name, "neutral"),
                    own_ids[k],
                    it.range,
                    "ranged" in it.keywords,
                    side.pool + it.attack,
                    [*unit_traits, *it.traits],
                )
                _write_option(opt, pw, base + k, o, _has(it.traits, "area_attack"),
                              _has(it.traits, "stun"))  # fmt: skip
            bare = _option("BARE HANDED", s == 1, -1, 0, False, side.pool, unit_traits)
            _write_option(opt, pw, base + len(weapons), bare, False, False)
            for j, (owner, t) in enumerate(moves):  # a MELEE ATTACK with this side's POOL
                o = _option(t.name, owner == side_name, -1, 0, False, side.pool, unit_traits)
                _write_option(opt, pw, base + len(weapons) + 1 + j, o,
                              "area_attack" in t.abilities, "stun" in t.abilities,
                              True)  # fmt: skip
            for j, (gid, it) in enumerate(foreign):  # another OPERATIVE's WEAPON, once CARRIED
                assert it.attack is not None and it.range is not None
                o = _option(it.name, it.side in (side_name, "neutral"), gid, it.range,
                            "ranged" in it.keywords, side.pool + it.attack,
                            [*unit_traits, *it.traits])  # fmt: skip
                _write_option(opt, pw, base + len(weapons) + 1 + len(moves) + j, o,
                              _has(it.traits, "area_attack"), _has(it.traits, "stun"))  # fmt: skip
            srow = base + len(weapons) + 1 + len(moves) + len(foreign)
            scout = _option("FOCUS POOL", s == 0, -1, 0, False, side.pool, unit_traits)
            _write_option(opt, pw, srow, scout, False, False)
            prof[prow, L.F_SCOUT] = srow if s == 0 else -1
            prof[prow, L.F_FIX] = _fixes(card, weapons, side_name, own_ids, foreign)
    uses = sum(1 << b for b in own_ids) | sum(1 << gid for gid, _ in foreign)
    return labels, uses


def _fixes(
    card: Operative,
    weapons: list[int],
    side_name: str,
    own_ids: list[int],
    foreign: list[tuple[int, Item]],
) -> int:
    """The ITEM bits an ACTION may FLIP back on this DASHBOARD side: an ITEM's ACTIVE BOTCH
    TRAIT ``flip_this_item_back`` while its colour matches the side (no benefit from an ITEM
    off its side, "Items"), every WEAPON by an ACTIVE side TRAIT ``flip_own_item_back``."""
    mask = 0
    for k, i in enumerate(weapons):
        it = card.items[i]
        bt = it.botch_trait
        if bt is not None and bt.active and bt.effect == "flip_this_item_back":
            mask |= (1 << own_ids[k]) if it.side in (side_name, "neutral") else 0
    if any(t.active and t.effect == "flip_own_item_back" for t in card.side(side_name).traits):
        for b in [*own_ids, *(gid for gid, _ in foreign)]:
            mask |= 1 << b
    return mask


def _bare_handed_alike(it: Item) -> bool:
    """A BOTCHED WEAPON whose HANDLING POOL counts as empty (``empty_handling_pool``) is a
    BARE HANDED ATTACK when it is a PRIMAL MELEE WEAPON of RANGE 0 without TRAITS: the
    engine plays it so (the BARE HANDED option), else the TRAIT is not modelled."""
    return it.side == "primal" and "melee" in it.keywords and it.range == 0 and not it.traits


def hostile_rows(card: Legion | Champion, u: int, ranged: bool, prof, opt, pw) -> list[str]:
    """Profiles of a LEGION (one) or a CHAMPION (one per STAGE): ATTACK POOL, DEFENSE, RANGE
    ("Legion Board Breakdown", "Stage Card Breakdown")."""
    if isinstance(card, Legion):
        stages = [(card.attack, card.defense, card.range, card.traits())]
    else:
        stages = [(s.attack, s.defense, s.range, [card.base_trait, s.trait]) for s in card.stages]
    if len(stages) > L.MAX_LEVELS:
        raise InputError(f"{card.name}: at most {L.MAX_LEVELS} STAGES in a mission")
    for level, (pool, defense, reach, traits) in enumerate(stages):
        prow = u * L.ROWS + level
        prof[prow, : L.F_NOPT] = _stats(defense, traits)
        prof[prow, L.F_NOPT] = 1
        prof[prow, L.F_SCOUT] = -1
        _effects(prof, prow, traits, L.CLANNER_CARRY)
        o = _option("ATTACK POOL", True, -1, reach, ranged and reach >= 1, pool, traits)
        present = [t for t in traits if t is not None]
        _write_option(opt, pw, prow * L.MAX_OPT, o, _has(present, "area_attack"),
                      _has(present, "stun"))  # fmt: skip
    return ["ATTACK POOL"]


def _played_botch(it: Item) -> bool:
    """The BOTCH TRAIT of ``it`` is played (or absent): FLIP back by an ACTION, or an empty
    HANDLING POOL that is BARE HANDED's ATTACK (``_bare_handed_alike``)."""
    bt = it.botch_trait
    if bt is None:
        return True
    if bt.effect == "flip_this_item_back":
        return bt.active
    return bt.effect == "empty_handling_pool" and not bt.active and _bare_handed_alike(it)


def not_modelled(card: AnyCard) -> list[str]:
    """TRAITS whose text the engine does not play (ACTIVE TRAITS, text-only effects)."""
    traits: list[Trait | None]
    if isinstance(card, Operative):
        traits = [card.shared_trait, *card.focus.traits, *card.primal.traits]
        traits += [p.trait() for p in card.potentials]
        traits += [t for it in card.items for t in it.traits]
        traits += [it.botch_trait for it in card.items if not _played_botch(it)]
    elif isinstance(card, Legion):
        traits = list(card.traits())
    else:
        traits = [card.base_trait, *(s.trait for s in card.stages)]
    played = {"defense", "speed", "hidden", "dirty_fighting", "secure", "success", "range",
              "area_attack", "stun", "carrying"}  # fmt: skip
    active_effects = ("flip_this_item_back", "flip_own_item_back", "pool_attack",
                      "heal_fleshwound", "reveal_threat", "stun_enemy", "enemy_defense",
                      "wounded_attack", "snare")  # fmt: skip
    out = []
    for t in traits:
        if t is None:
            continue
        if t.effect in active_effects and t.active:
            continue
        if t.effect == "flip_operative" and not t.active:
            continue
        if t.active or not t.abilities or set(t.abilities) - played:
            out.append(f"{card.name}: {t.name}")
    return out


def compile_arrays(
    cards: dict[str, AnyCard],
    lists: tuple[ArmyList, ArmyList],
    pols: tuple[int, int],
    opts: dict[str, Any],
    mission: Mission,
    tables: FieldTables,
    mission_file: Path,
    first_side: int | None,
) -> tuple[tuple[np.ndarray, ...], Compiled, list[tuple[int, AnyCard]]]:
    """The kernels' arrays: ``un, prof, opt, pw, fld, dist, los, mv, ms``."""
    roster, hostile = lists
    units: list[tuple[int, AnyCard]] = []
    for side, army in ((0, roster), (1, hostile)):
        for entry in army.units:
            units += [(side, cards[entry.unit])] * entry.count
    n = len(units)
    if n > L.MAX_UNITS:
        raise InputError(f"at most {L.MAX_UNITS} units in a mission (got {n})")
    n_ops = sum(1 for s, _ in units if s == 0)
    un = np.zeros((n, L.U_COLS), dtype=np.int64)
    prof = np.zeros((n * L.ROWS, L.PF_COLS), dtype=np.int64)
    opt = np.zeros((n * L.ROWS * L.MAX_OPT, L.OPT_COLS), dtype=np.int64)
    pw = np.zeros((n * L.ROWS * L.MAX_OPT, L.PW_COLS))
    labels: list[list[str]] = []
    target = -1
    notes: list[str] = []
    # the ITEMS that change hands ("Pick Up", "Trade", "Drop"): every WEAPON of the ROSTER,
    # one bit each (WORN ARMOR never leaves its WEARER; other ITEMS stay with their card)
    items = [(u, it) for u, (s, c) in enumerate(units) if isinstance(c, Operative)
             for it in c.items if it.is_weapon]  # fmt: skip
    if len(items) > L.MAX_ITEMS:
        raise InputError(f"at most {L.MAX_ITEMS} WEAPONS in a ROSTER (got {len(items)})")
    item_names = [f"{it.name} ({units[w][1].name})" for w, it in items]
    for u, (side, card) in enumerate(units):
        kind = {"operative": L.K_OPERATIVE, "legion": L.K_LEGION}.get(card.kind, L.K_CHAMPION)
        extra = [0, 0, 0, 0]
        if isinstance(card, Operative):
            own = [b for b, (w, _) in enumerate(items) if w == u]
            foreign = [(b, it) for b, (w, it) in enumerate(items)
                       if w != u and it.cult in (None, card.cult)]  # fmt: skip
            lab, uses = operative_rows(card, u, prof, opt, pw, own, foreign)
            labels.append(lab)
            worn = any(it.is_armor for it in card.items)
            fixed = sum(1 for it in card.items if not it.is_weapon)
            extra = [sum(1 << b for b in own), uses, fixed,
                     L.BODY_ARMOR_LOAD if worn else L.BODY_LOAD]  # fmt: skip
            levels, concept = len(card.potentials) + 1, concept_index(card)
        else:
            ranged = bool(opts["ranged_hostiles_provoke"])
            labels.append(hostile_rows(card, u, ranged, prof, opt, pw))
            levels = len(card.stages) if isinstance(card, Champion) else 1
            concept = -1
            if isinstance(card, Champion) and target < 0:
                target = u
        value = card.points * (3 if mission.kind == "hunt" and u == target else 1)
        first = next(i for i, (_, c) in enumerate(units) if c.name == card.name)
        un[u] = [side, kind, health(card), levels, card.points, max(value, 1), concept, first,
                 *extra]  # fmt: skip
        for note in not_modelled(card):
            if note not in notes:
                notes.append(note)
    far = np.flatnonzero(opt[:, L.O_RANGE] > L.MAX_RANGE)
    if far.size:
        card = units[int(far[0]) // (L.ROWS * L.MAX_OPT)][1]
        raise InputError(f"{card.name}: RANGE at most {L.MAX_RANGE} in a mission")
    fld = tables.field.fld.copy()
    if mission.kind == "hunt" and target < 0:
        raise InputError(f"{mission_file}: a hunt mission needs a CHAMPION in the HOSTILE FORCES")
    rounds = int(opts["max_rounds"]) or mission.rounds
    need = mission.need
    if need is None:
        need = (n_ops + 1) // 2 if mission.kind == "extraction" else 3
    ms = np.zeros(L.MS_COLS, dtype=np.int64)
    ms[L.M_KIND] = L.MISSION_KINDS.index(mission.kind)
    ms[L.M_ROUNDS] = rounds
    ms[L.M_NEED] = min(need, n_ops) if mission.kind == "extraction" else need
    ms[L.M_CAP] = n_ops
    ms[L.M_EDGES] = EDGES_BY_ROSTER[n_ops]
    ms[L.M_ROSTER] = n_ops
    ms[L.M_POL_A], ms[L.M_POL_B] = pols
    ms[L.M_FIRST] = L.FIRST_MODES.index(opts["first"])
    ms[L.M_FORCED] = -1 if first_side is None else first_side
    ms[L.M_NTILES] = len(tables.nbr)
    ms[L.M_TARGET] = target if mission.kind == "hunt" else -1
    ms[L.M_PUNCH_FIRST] = int(opts["punch_first"])
    ms[L.M_RANGED_PROVOKE] = int(opts["ranged_hostiles_provoke"])
    ms[L.M_AMBUSH_STOPS] = int(opts["ambush_stops_move"])
    ms[L.M_AREA_ALLIES] = int(opts["area_hits_allies"])
    ms[L.M_CHECK] = int(opts["check_invariants"])
    ms[L.M_LOOK_ROLLOUTS] = int(opts["rollouts"])
    ms[L.M_LOOK_DEPTH] = int(opts["rollout_depth"])
    ms[L.M_HAS_EXIT] = int((fld[:, L.T_EXIT] - fld[:, L.T_OSP]).sum() > 0)
    ms[L.M_ARCANA] = int(opts["arcana"])
    ms[L.M_OVERCOMMIT] = int(opts["arcana"] and opts["overcommit"])
    ms[L.M_HIDDEN_ON_TILE] = int(opts["hidden_on_tile"])
    ms[L.M_RETREAT] = int(opts["retreat"])
    arrays = (un, prof, opt, pw, fld, tables.dist, tables.los, tables.mv, ms)
    names = []
    seen: dict[str, int] = {}
    total = {c.name: sum(1 for _, d in units if d.name == c.name) for _, c in units}
    for _, card in units:
        seen[card.name] = seen.get(card.name, 0) + 1
        names.append(card.name + (f" #{seen[card.name]}" if total[card.name] > 1 else ""))
    comp = Compiled(names, labels, mission, mission_file, tables, notes, item_names)
    return arrays, comp, units
