"""The Hybrid match kernels: board, movement, strikes, parries, firing, rounds, policies.

Rulebook ``hybrid.txt``; every rule function names its section.  All kernels take plain
arrays (columns in :mod:`analyzer.games.hybrid.match.layout`):

static  ``fi`` (int, per warrior), ``mp`` (board cell kinds, rows y, columns x),
        ``obj`` (Objective counters per square, 1 where one lies), ``sc`` (scenario and
        options), ``tab`` (Natural Roll class probabilities, from ``rolls.class_probs``);
state   ``s`` (int per warrior), ``g`` (match), ``cell`` (door and counter state per
        square: the board as play changed it), ``occ`` (warrior + 1 on each square),
        ``seq`` (the two secret Activation Sequences), ``dc`` (dice script: ``dc[0]``
        scripted D10 faces in ``dc[1:]``), ``rng`` (the match generator), ``ev`` (trace
        rows), ``wk`` (movement search scratch), ``plan`` (a decided activation).

Secrecy of the Activation Sequence: a side's policy reads ``seq`` of its own side only
(``side_order`` writes it, ``next_in_sequence`` reads it for the side that activates);
every other decision reads the public state alone.
"""

# ruff: noqa: SIM102, SIM103, SIM108, SIM109, SIM114  (kernel conditions kept explicit)
from __future__ import annotations

import numpy as np
from numba import njit, types

from analyzer.dice import random_nb as _random
from analyzer.dice.random_nb import next_u64, roll_die
from analyzer.games.hybrid import rolls as _rolls
from analyzer.games.hybrid import rules as _rules
from analyzer.games.hybrid.match import layout as _layout
from analyzer.games.hybrid.match.layout import (
    C_COLUMN,
    C_DOOR,
    C_LOCKED,
    C_ROCKFALL,
    C_TRAPDOOR,
    C_WALL,
    E_ACTIVATE,
    E_AMBUSH,
    E_AMBUSH_END,
    E_AURA,
    E_CARD,
    E_DASH,
    E_DEFEND,
    E_DOOR,
    E_END,
    E_EVENT,
    E_INFILTRATE,
    E_INTERCEPT,
    E_KNOCK,
    E_MOVE,
    E_MUTATION,
    E_OBJECTIVE,
    E_PARRY,
    E_REMOVED,
    E_ROLL,
    E_SACRIFICE,
    E_SEQ,
    E_SHOT,
    E_STRIKE,
    E_TRAP,
    E_WOUND,
    END_ELIMINATION,
    END_OBJECTIVES,
    END_ROUNDS,
    F_APS,
    F_AURA,
    F_BRUTISH,
    F_COMBINED,
    F_CONVICTION,
    F_DC,
    F_DMOD,
    F_DORSAL,
    F_DUELLIST,
    F_F,
    F_FACE0,
    F_FELON,
    F_FMOD,
    F_FRENZY,
    F_INFILTRATION,
    F_LEADER,
    F_LYNX,
    F_MOVE,
    F_MUTATION,
    F_MV,
    F_NV,
    F_OC,
    F_OMOD,
    F_POINTS,
    F_PRESTIGE,
    F_PUNY,
    F_RANK,
    F_SACRIFICE,
    F_SIDE,
    F_SIZE,
    F_TITAN,
    F_VELOCITY,
    F_X0,
    F_Y0,
    G_ACT,
    G_AMBUSH_NO,
    G_AMBUSHES,
    G_BOTTOM,
    G_CARDS,
    G_CHECK,
    G_COMBINED,
    G_COUNTERS,
    G_DECK,
    G_DPOS,
    G_END,
    G_EV_LAST,
    G_EV_LEFT,
    G_EVENT_CARDS,
    G_FIRST,
    G_FIRST1,
    G_HAND,
    G_KNOCKS,
    G_NAMBUSH,
    G_NEV,
    G_OBJ_A,
    G_PARRIES,
    G_PENDING,
    G_PERFECT,
    G_PURULENT,
    G_ROLL,
    G_ROUND,
    G_SACRIFICES,
    G_SHOTS,
    G_STRIKES,
    G_TRACE,
    G_TRAPS_LEFT,
    G_VIOL,
    G_WINNER,
    M_DC,
    M_FIRE,
    M_MOVE,
    M_NONE,
    M_OC,
    POL_GREEDY,
    POL_RANDOM,
    POL_STRONG,
    S_ALIVE,
    S_AMBUSH,
    S_AMBUSH_SEEK,
    S_APS_ROUND,
    S_AURA,
    S_AURA_MODE,
    S_CA_ROUND,
    S_CA_USED,
    S_CARDS,
    S_CLOSE_DOORS,
    S_DEALT,
    S_DONE,
    S_EVENT_SEEK,
    S_EVENT_WORTH,
    S_FACE,
    S_FIRST,
    S_FORCED,
    S_GREEDY_FAST,
    S_H,
    S_INFIL_LOST,
    S_KILLS,
    S_LEVEL,
    S_LOOK_DEPTH,
    S_LOOK_K,
    S_LOOK_MARGIN,
    S_LOOK_ORDER,
    S_LOOK_ROLLOUTS,
    S_MODE,
    S_MOVE_LEVELS,
    S_MUTANT,
    S_MUTATION_MODE,
    S_OBJ_NEED,
    S_PERFECT_PARRY,
    S_POL_A,
    S_PRESTIGE_LOST,
    S_PURULENT_HOST,
    S_REMOVED_ROUND,
    S_ROUNDS,
    S_SCORE,
    S_SHOTS,
    S_SKILLED_FIRING,
    S_SKILLED_HIT,
    S_SPRAYED,
    S_STOPPED,
    S_STRIKES,
    S_TAKEN,
    S_TRAPS,
    S_W,
    S_WINNER_CHOOSES,
    S_WOUNDS,
    S_X,
    S_Y,
)
from analyzer.games.hybrid.rolls import classify
from analyzer.match import paired_nb as _paired
from analyzer.match import seeding_nb as _seeding
from analyzer.match import trace_nb as _trace_rows
from analyzer.match.cache import refresh_kernel_cache
from analyzer.match.paired_nb import paired_gain_se
from analyzer.match.seeding_nb import seed_match, splitmix
from analyzer.match.trace_nb import append_event

# numba keys a cache on this file only: drop it when a file compiled in changes too.
refresh_kernel_cache(
    __file__,
    "hybrid-kernels.stamp",
    _layout.__file__,
    _random.__file__,
    _rolls.__file__,
    _rules.__file__,
    _seeding.__file__,
    _paired.__file__,
    _trace_rows.__file__,
)

#: Kernels that never allocate are compiled with ``_nrt=False`` (no atomic reference
#: counting of their array arguments); those that allocate or copy arrays keep it
#: (side_order, round_play, strong_activate, strong_order, guessed_sequences, playout,
#: run_block, sandbox_op).  Kernels with one call site on a match's path (random_plan,
#: heroic_dash, infiltrate, strong_order, rollout, heroic_moves, infiltration_moves,
#: strong_activate, round_play) and the small hubs activate and playout are inlined by
#: numba (``inline="always"``): each kernel compiled on its own has the code of its whole
#: call tree optimised again by LLVM.
DX = np.array([0, 1, 0, -1], dtype=np.int64)
DY = np.array([-1, 0, 1, 0], dtype=np.int64)


def _step_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per facing, the eight steps of :func:`reach` ("Movement of Your Warriors"):
    forward, the two forward diagonals, the two sides, back, the two back diagonals,
    their absolute directions (index in ``ABS_STEPS``) and base costs (1, 1, 1, 2, ...)."""
    sdx = np.zeros((4, 8), dtype=np.int64)
    sdy = np.zeros((4, 8), dtype=np.int64)
    sdir = np.zeros((4, 8), dtype=np.int64)
    for f in range(4):
        r, left = (f + 1) % 4, (f + 3) % 4
        steps = (
            (DX[f], DY[f]),
            (DX[f] + DX[r], DY[f] + DY[r]),
            (DX[f] + DX[left], DY[f] + DY[left]),
            (DX[r], DY[r]),
            (DX[left], DY[left]),
            (-DX[f], -DY[f]),
            (-DX[f] + DX[r], -DY[f] + DY[r]),
            (-DX[f] + DX[left], -DY[f] + DY[left]),
        )
        for m, (ddx, ddy) in enumerate(steps):
            sdx[f, m] = ddx
            sdy[f, m] = ddy
            sdir[f, m] = ABS_STEPS.index((int(ddx), int(ddy)))
    return sdx, sdy, sdir, np.array([1, 1, 1, 2, 2, 2, 2, 2], dtype=np.int64)


#: The eight absolute steps (dx, dy), clockwise from north: the columns of W_STEP.
ABS_STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
ABS_DX = np.array([d[0] for d in ABS_STEPS], dtype=np.int64)
ABS_DY = np.array([d[1] for d in ABS_STEPS], dtype=np.int64)
STEP_DX, STEP_DY, STEP_DIR, STEP_COST = _step_table()
#: Sight Range: 8 squares ("Sight Range"); Conviction reaches 8 squares ("Conviction/X").
SIGHT = 8
CONVICTION_RANGE = 8
BIG = 1 << 30
#: The index of a single bit b set in an int64: BIT_AT[((b * DE_BRUIJN) >> 58) & 63].
DE_BRUIJN = np.int64(0x03F79D71B4CB0A89)
BIT_AT = np.zeros(64, dtype=np.int64)
for _k in range(64):
    BIT_AT[(((1 << _k) * 0x03F79D71B4CB0A89) % (1 << 64)) >> 58] = _k
#: Scalar arguments passed as int64, never as literals: numba compiles a separate copy
#: of a kernel's whole call tree for each literal value it is called with.
ZERO = np.int64(0)
ONE = np.int64(1)
NO = np.bool_(False)
YES = np.bool_(True)
SPRAY = np.int64(7)  # the wound cause of Purulent Excrescence (trace CAUSES)
EV_STRIKE = np.int64(E_STRIKE)
EV_SHOT = np.int64(E_SHOT)
GREEDY = np.int64(POL_GREEDY)
COL_OC, COL_DC, COL_F, COL_MV = np.int64(F_OC), np.int64(F_DC), np.int64(F_F), np.int64(F_MV)
SIDE_A, SIDE_B = np.int64(0), np.int64(1)
NO_PARENT = np.int64(-1)
NEG = np.int64(-1)  # -1 where a variable starts as 'none' (a literal -1 would be
# typed Literal[int](-1) first and compile every kernel it is passed to a second time)
NFLAG = 4  # movement search flags: bit 0 the free turn used, bit 1 crossed a friend
# plan[] columns: what an activation does
P_KIND, P_LEVEL, P_DEST, P_TARGET, P_SCORE_X1000 = 0, 1, 2, 3, 4
K_NOTHING, K_STRIKE, K_FIRE, K_DEFEND, K_MOVE, K_SACRIFICE, K_OBJECTIVE = 0, 1, 2, 3, 4, 5, 6
K_AMBUSH = 7  # Skilled Firing: move, then go into ambush
PLAN_COLS = 6
MAXPLANS = 256
MAXCAND = 32  # strong: candidate plans (one per kind and target)
# work rows of wk (each NS = W * H * 16 long): search and board scratch
W_DIST, W_PAR, W_TOUCH, W_EC, W_FIELD, W_ENTER, W_BUCKET = 0, 1, 2, 3, 4, 5, 6
MAXB = 48
W_PATH = W_BUCKET + MAXB - 1
W_STEP = W_BUCKET + MAXB  # per anchor and absolute step (see anchor_steps), then a flag
W_QUEUE = W_STEP + 1  # the walking-distance field's queue
W_FIRE = W_QUEUE + 1  # fire values per target, level and rockfall (float64 bits): fire_table
W_NOVICE = W_FIRE + 1  # Novice Move: least cost and its state per anchor (plans_for)
W_ENEMY = W_NOVICE + 1  # the enemies' bases for toward_enemy and danger (enemy_table)
W_ROWS = W_ENEMY + 1
FIRE_ROCK = 8  # rockfall squares on a line that the fire-value table covers
#: W_STEP bits: terrain and squeeze cost (0..3), a closed door, a friend crossed, contact
ST_DOOR, ST_FRIEND, ST_CONTACT = 4, 8, 16
# rule-test operations (sandbox.py)
OP_BLOCK, OP_STRIKE, OP_FIRE, OP_MOVE, OP_ACTIVATE, OP_ROUND = 0, 1, 2, 3, 4, 5
OP_SIGHT, OP_CHECK, OP_COST, OP_KNOCK, OP_SACRIFICE, OP_DASH = 6, 7, 8, 9, 10, 11
OP_AMBUSH, OP_INFILTRATE, OP_CLOSE, OP_DEAL, OP_EVENT = 12, 13, 14, 15, 16
OP_EQUIP, OP_MUTATE, OP_SPOT = 17, 18, 19
#: Greedy's worth of keeping one Action point in the hand (a card is played when its
#: points raise the expected worth of the roll by more than this per point).
CARD_KEEP = 0.12


# =========================================================== dice and trace
@njit(cache=True, error_model="numpy", _nrt=False)
def d10(g, dc, rng):
    """ "Natural Roll": one D10 whose 0 face counts as 10; the next scripted face while
    the dice script lasts (rule tests), else the match generator."""
    if g[G_DPOS] < dc[0]:
        g[G_DPOS] += 1
        return dc[g[G_DPOS]]
    return roll_die(rng, 10)


@njit(cache=True, error_model="numpy", _nrt=False)
def roll_kept(g, dc, rng, ndice):
    """ "Rolling Two Dice (2D10)": roll ``ndice`` D10 and keep the best (lowest) face."""
    best = 10
    for _ in range(ndice):
        f = d10(g, dc, rng)
        if f < best:
            best = f
    return best


@njit(cache=True, error_model="numpy", _nrt=False)
def pick(rng, n):
    """A uniform choice in 0..n-1 (the random policy; never scripted)."""
    if n <= 1:
        return 0
    return roll_die(rng, n) - 1


#: Explicit signatures for the small kernels called with many literal combinations: one
#: compiled copy each (numba would compile one per combination of literal arguments).
I64 = types.int64
LOG_SIG = types.void(I64[::1], I64[:, ::1], *([I64] * 11))
ADD_PLAN_SIG = I64(I64[:, ::1], I64, I64, I64, I64, I64, types.float64)


@njit(LOG_SIG, cache=True, error_model="numpy", _nrt=False)
def log(g, ev, kind, side, a, b, c, d, e, f, h, i, j):
    """One trace row (kind, Round, side, nine values) when the match is traced."""
    if g[G_TRACE] != 0 and g[G_ROLL] == 0:
        g[G_NEV] = append_event(ev, g[G_NEV], kind, g[G_ROUND], side, a, b, c, d, e, f, h, i, j)


@njit(cache=True, error_model="numpy", _nrt=False)
def probs(tab, ndice, sl, pam):
    """P(Perfect Success), P(success), P(failure), P(Critical Failure) of a Natural Roll
    (from ``rolls.class_probs``; SL <= 1 behaves as 1 and SL >= 9 as 9)."""
    k = sl
    if k < 1:
        k = 1
    if k > 9:
        k = 9
    p = pam if pam <= 9 else 9
    if p < 1:
        p = 1
    row = tab[ndice - 1, k, p]
    return row[0], row[1], row[2], row[3]


# =========================================================== board geometry
@njit(cache=True, error_model="numpy", _nrt=False)
def inside(sc, x, y):
    return 0 <= x < sc[S_W] and 0 <= y < sc[S_H]


@njit(cache=True, error_model="numpy", _nrt=False)
def blocks_move(mp, cell, x, y):
    """Walls, columns, locked doors stop movement ("Forbidden Movements"); a closed door
    too, unless opened on the way (``cell`` holds 1 for an opened door)."""
    k = mp[y, x]
    if k == C_WALL or k == C_COLUMN or k == C_LOCKED:
        return True
    return False


@njit(cache=True, error_model="numpy", _nrt=False)
def blocks_sight(mp, cell, x, y):
    """Walls, columns and closed doors block the line of sight; rockfall and Trapdoors do
    not ("Column and Rockfall counters", "Jumping over a Trapdoor")."""
    k = mp[y, x]
    if k == C_WALL or k == C_COLUMN or k == C_LOCKED:
        return True
    return k == C_DOOR and cell[y, x] == 0


@njit(cache=True, error_model="numpy", _nrt=False)
def touching_at(x0, y0, z0, x1, y1, z1):
    """Base contact: bases touching edge to edge, never only at the corners ("Base")."""
    xo = x0 <= x1 + z1 - 1 and x1 <= x0 + z0 - 1
    yo = y0 <= y1 + z1 - 1 and y1 <= y0 + z0 - 1
    if xo and (y1 == y0 + z0 or y0 == y1 + z1):
        return True
    if yo and (x1 == x0 + z0 or x0 == x1 + z1):
        return True
    return False


@njit(cache=True, error_model="numpy", _nrt=False)
def side_toward(x0, y0, z0, x1, y1, z1):
    """The side (facing index) of base 0 that base 1 touches, -1 if not in contact."""
    xo = x0 <= x1 + z1 - 1 and x1 <= x0 + z0 - 1
    yo = y0 <= y1 + z1 - 1 and y1 <= y0 + z0 - 1
    if xo and y1 + z1 == y0:
        return 0
    if yo and x1 == x0 + z0:
        return 1
    if xo and y1 == y0 + z0:
        return 2
    if yo and x1 + z1 == x0:
        return 3
    return -1


@njit(cache=True, error_model="numpy", _nrt=False)
def touching(fi, s, i, j):
    return touching_at(s[i, S_X], s[i, S_Y], fi[i, F_SIZE], s[j, S_X], s[j, S_Y], fi[j, F_SIZE])


@njit(cache=True, error_model="numpy", _nrt=False)
def side_of(fi, s, i, j):
    return side_toward(s[i, S_X], s[i, S_Y], fi[i, F_SIZE], s[j, S_X], s[j, S_Y], fi[j, F_SIZE])


@njit(cache=True, error_model="numpy", _nrt=False)
def from_rear(fi, s, target, attacker):
    """ "Offensive Combat": the attacker stands at the target's rear edge."""
    d = side_of(fi, s, target, attacker)
    return d >= 0 and d == (s[target, S_FACE] + 2) % 4


@njit(cache=True, error_model="numpy", _nrt=False)
def in_enemy_contact(fi, s, i):
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != fi[i, F_SIDE] and touching(fi, s, i, j):
            return True
    return False


@njit(cache=True, error_model="numpy", _nrt=False)
def chebyshev(fi, s, i, j):
    """Squares between two bases counted like an Aura's square zone ("Aura/X")."""
    zi = fi[i, F_SIZE]
    zj = fi[j, F_SIZE]
    dx = max(0, max(s[j, S_X] - (s[i, S_X] + zi - 1), s[i, S_X] - (s[j, S_X] + zj - 1)))
    dy = max(0, max(s[j, S_Y] - (s[i, S_Y] + zi - 1), s[i, S_Y] - (s[j, S_Y] + zj - 1)))
    return max(dx, dy)


@njit(cache=True, error_model="numpy", _nrt=False)
def put(fi, s, occ, i, x, y):
    z = fi[i, F_SIZE]
    for yy in range(s[i, S_Y], s[i, S_Y] + z):
        for xx in range(s[i, S_X], s[i, S_X] + z):
            if 0 <= yy < occ.shape[0] and 0 <= xx < occ.shape[1] and occ[yy, xx] == i + 1:
                occ[yy, xx] = 0
    s[i, S_X] = x
    s[i, S_Y] = y
    if s[i, S_ALIVE] == 1:
        for yy in range(y, y + z):
            for xx in range(x, x + z):
                occ[yy, xx] = i + 1


# =========================================================== line of sight
@njit(cache=True, error_model="numpy", _nrt=False)
def line(fi, mp, cell, occ, sc, ax, ay, bx, by, shooter, target, mode):
    """Squares crossed from square a's centre to square b's centre (grid traversal).

    Returns -1 if a wall, column or closed door blocks the line (two obstacles placed
    diagonally block it too: "Angles of Vision and Dead Angles" Note), else rockfall
    squares crossed + 100 x warriors in the way.  A Puny warrior hides only a Puny
    target ("Puny").  ``mode`` 1: the figures in the way are counted, 0: ignored.
    The stated line-of-sight rule replaces the rulebook's dead-angle cases
    (docs/rules-choices.md, "Hybrid matches")."""
    x = ax
    y = ay
    dx = bx - ax
    dy = by - ay
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    adx = abs(dx)
    ady = abs(dy)
    rock = 0
    figs = 0
    # in units of 1 / (2 adx ady): crossings of vertical lines at odd multiples of ady
    tx = ady  # next vertical grid line (scaled)
    ty = adx
    tpuny = fi[target, F_PUNY] if target >= 0 else 0
    last = -1
    while True:
        if adx == 0 and ady == 0:
            break
        if adx > 0 and (ady == 0 or tx < ty):
            x += sx
            tx += 2 * ady
        elif ady > 0 and (adx == 0 or ty < tx):
            y += sy
            ty += 2 * adx
        else:
            # through a corner: the two squares beside it
            c1 = blocks_sight(mp, cell, x + sx, y)
            c2 = blocks_sight(mp, cell, x, y + sy)
            if c1 and c2:
                return -1
            x += sx
            y += sy
            tx += 2 * ady
            ty += 2 * adx
        if x == bx and y == by:
            break
        if blocks_sight(mp, cell, x, y):
            return -1
        if mp[y, x] == C_ROCKFALL:
            rock += 1
        o = occ[y, x] - 1
        if mode == 1 and o >= 0 and o != shooter and o != target and o != last:
            if fi[o, F_PUNY] == 0 or tpuny == 1:
                figs += 1
                last = o
                if fi[o, F_SIZE] == 2 or fi[o, F_TITAN] == 1:
                    figs += 10  # a Titan or a large base hides a normal target wholly
    return rock + 100 * figs


@njit(cache=True, error_model="numpy", _nrt=False)
def in_fov(fi, s, i, tx, ty):
    """ "Angles of Vision": the 90-degree field of vision in front of warrior ``i``."""
    z = fi[i, F_SIZE]
    f = s[i, S_FACE]
    # doubled coordinates: centre of i's base and of square (tx, ty)
    cx = 2 * s[i, S_X] + z
    cy = 2 * s[i, S_Y] + z
    vx = 2 * tx + 1 - cx
    vy = 2 * ty + 1 - cy
    fwd = vx * DX[f] + vy * DY[f]
    lat = vx * DY[f] - vy * DX[f]
    return fwd > 0 and abs(lat) <= fwd


@njit(cache=True, error_model="numpy", _nrt=False)
def sight(fi, mp, cell, occ, s, sc, i, j, fov, through):
    """Whether ``i`` sees ``j`` ("Sight Range", "Angles of Vision and Dead Angles").

    -1 not seen, else the best (lowest) value of :func:`line` over the squares of j's
    base (seeing one square of a large base is enough: "Firing" FAQ).  ``fov``: only
    within i's field of vision; ``through``: count warriors in the way (else ignore)."""
    rng_ = SIGHT + fi[i, F_LYNX]
    if chebyshev(fi, s, i, j) > rng_:
        return -1
    zi = fi[i, F_SIZE]
    zj = fi[j, F_SIZE]
    best = -1
    for ty in range(s[j, S_Y], s[j, S_Y] + zj):
        for tx in range(s[j, S_X], s[j, S_X] + zj):
            if fov == 1 and not in_fov(fi, s, i, tx, ty):
                continue
            for ay in range(s[i, S_Y], s[i, S_Y] + zi):
                for ax in range(s[i, S_X], s[i, S_X] + zi):
                    v = line(fi, mp, cell, occ, sc, ax, ay, tx, ty, i, j, through)
                    if v >= 0 and (best < 0 or v < best):
                        best = v
    return best


# =========================================================== characteristics
@njit(cache=True, error_model="numpy", _nrt=False)
def level_now(fi, s, i, col):
    """ "Action Modes": every wound lowers each Mode's level by 1, never below 1; 0 dash."""
    lv = fi[i, col]
    if lv == 0:
        return 0
    lv -= s[i, S_WOUNDS]
    return lv if lv >= 1 else 1


@njit(cache=True, error_model="numpy", _nrt=False)
def movement_now(fi, s, i):
    """ "Movement and Wounds": each wound lowers Movement by 1, down to 0."""
    m = fi[i, F_MOVE] - s[i, S_WOUNDS]
    return m if m > 0 else 0


@njit(cache=True, error_model="numpy", _nrt=False)
def base_sl(fi, s, i):
    """SL = NV - wounds ("Natural Roll" FAQ), + Prestige/X until wounded ("Prestige/X"),
    - 2 for a victim of Expert Move ("4 / Expert Move")."""
    sl = fi[i, F_NV] - s[i, S_WOUNDS]
    if fi[i, F_PRESTIGE] > 0 and s[i, S_PRESTIGE_LOST] == 0:
        sl += fi[i, F_PRESTIGE]
    if s[i, S_STOPPED] == 4:
        sl -= 2
    return sl


@njit(cache=True, error_model="numpy", _nrt=False)
def melee_bonus(fi, s, i):
    """Offensive and Defensive Combat bonuses: Conviction/X within 8 squares of a living
    leader ("Conviction/X"), Frenzy/X per melee kill ("Frenzy/X")."""
    b = fi[i, F_FRENZY] * s[i, S_KILLS]
    ld = fi[i, F_LEADER]
    if fi[i, F_CONVICTION] > 0 and ld >= 0 and s[ld, S_ALIVE] == 1:
        if chebyshev(fi, s, i, ld) <= CONVICTION_RANGE:
            b += fi[i, F_CONVICTION]
    return b


@njit(cache=True, error_model="numpy", _nrt=False)
def vengeance(fi, s, i, j):
    """ "Aura/X" with the Aura of Vengeance (its corrected third sentence, "Aura Cards"):
    +1 in Offensive Combat to a warrior striking an enemy who stands in the square zone of
    X squares (walls do not stop it) round a living friendly bearer whose Aura is switched
    on; never to the bearer himself ("the effect does not affect the Aura's own bearer")."""
    for b in range(fi.shape[0]):
        if s[b, S_AURA] == 2 and b != i and s[b, S_ALIVE] == 1:
            if fi[b, F_SIDE] == fi[i, F_SIDE] and chebyshev(fi, s, b, j) <= fi[b, F_AURA]:
                return 1
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def evasion(s, j):
    """ "5 / Master Move": -2 to the SL of enemies striking or firing at ``j`` while he is
    in Master Move (until his next activation)."""
    return 2 if s[j, S_MODE] == M_MOVE and s[j, S_LEVEL] == 5 else 0


@njit(cache=True, error_model="numpy", _nrt=False)
def strike_sl(fi, s, i, j, level, rear):
    """Offensive Combat SL of ``i`` striking ``j`` at Mastery ``level`` ("Offensive Combat":
    rear +1; "2 / Novice Strike": one wound ignored; "4 / Expert Strike": +2;
    "Felon/X": +X from the rear; "Dorsal Protection/X": no rear +1, -X instead;
    "5 / Master Move": -2 against a warrior in Master Move; the Aura of Vengeance +1)."""
    sl = base_sl(fi, s, i) + fi[i, F_OMOD] + melee_bonus(fi, s, i) - evasion(s, j)
    sl += vengeance(fi, s, i, j)
    if rear:
        if fi[j, F_DORSAL] > 0:
            sl -= fi[j, F_DORSAL]
        else:
            sl += 1
        sl += fi[i, F_FELON]
    if level == 2 and s[i, S_WOUNDS] > 0:
        sl += 1
    if level == 4:
        sl += 2
    return sl


@njit(cache=True, error_model="numpy", _nrt=False)
def parry_sl(fi, s, j, level):
    """Defensive Combat SL of ``j`` at ``level`` ("4 / Expert Parry": +2)."""
    sl = base_sl(fi, s, j) + fi[j, F_DMOD] + melee_bonus(fi, s, j)
    if level == 4:
        sl += 2
    return sl


@njit(cache=True, error_model="numpy", _nrt=False)
def shot_mod(fi, j):
    """ "Firing": +1 against a large base or a Titan (not both, "Titan"); "Velocity/X": -X."""
    m = 0
    if fi[j, F_SIZE] == 2 or fi[j, F_TITAN] == 1:
        m = 1
    return m - fi[j, F_VELOCITY]


@njit(cache=True, error_model="numpy", _nrt=False)
def fire_sl(fi, s, i, j, rock):
    """Firing SL: NV - wounds + weapon, target size, Velocity, -1 per rockfall square,
    -2 against a warrior in Master Move ("5 / Master Move")."""
    return base_sl(fi, s, i) + fi[i, F_FMOD] + shot_mod(fi, j) - rock - evasion(s, j)


@njit(cache=True, error_model="numpy", _nrt=False)
def pam_of(fi, i):
    """ "Duellist/X": a Perfect Success on any result <= X (Offensive Combat, Firing)."""
    return fi[i, F_DUELLIST] if fi[i, F_DUELLIST] > 1 else 1


# =========================================================== wounds and removal
@njit(cache=True, error_model="numpy", _nrt=False)
def wound(fi, s, g, occ, ev, j, n, by, cause):
    """ "Natural Value": a wound lowers NV by 1; at 0 the warrior is eliminated.  A wound
    switches Defensive Combat Mode off, except a Heroic Parry ("Defensive Combat"), and
    ends Prestige ("Prestige/X").  Frenzy counts the enemy's own melee kills."""
    if n <= 0 or s[j, S_ALIVE] == 0:
        return
    left = fi[j, F_NV] - s[j, S_WOUNDS]
    take = n if n < left else left
    s[j, S_WOUNDS] += take
    s[j, S_TAKEN] += take
    s[j, S_PRESTIGE_LOST] = 1
    if by >= 0 and fi[by, F_SIDE] != fi[j, F_SIDE]:
        s[by, S_DEALT] += take
    if s[j, S_MODE] == M_DC and s[j, S_LEVEL] != 6:
        s[j, S_MODE] = M_NONE
    if s[j, S_AMBUSH] > 0:
        leave_ambush(fi, s, g, ev, j, np.int64(2))
    log(g, ev, E_WOUND, fi[j, F_SIDE], j, take, fi[j, F_NV] - s[j, S_WOUNDS], cause, by, 0, 0, 0, 0)
    if s[j, S_WOUNDS] >= fi[j, F_NV]:
        s[j, S_ALIVE] = 0
        put(fi, s, occ, j, s[j, S_X], s[j, S_Y])  # clears its squares
        s[j, S_REMOVED_ROUND] = g[G_ROUND]
        log(g, ev, E_REMOVED, fi[j, F_SIDE], j, 0, 0, 0, 0, 0, 0, 0, 0)
        if by >= 0 and (cause == 0 or cause == 2) and fi[by, F_SIDE] != fi[j, F_SIDE]:
            s[by, S_KILLS] += 1
        if by >= 0 and fi[by, F_SIDE] != fi[j, F_SIDE]:
            g[G_PENDING + fi[j, F_SIDE]] += 1  # "Cards drawn during the game"


@njit(cache=True, error_model="numpy", _nrt=False)
def spray_wound(fi, s, g, occ, ev, j, by):
    """A Purulent Excrescence wound on ``by`` (at most one per warrior and game)."""
    s[by, S_SPRAYED] = 1
    wound(fi, s, g, occ, ev, by, ONE, j, SPRAY)


@njit(cache=True, error_model="numpy", _nrt=False)
def purulent(fi, s, g, occ, dc, rng, ev, j, by, before, offensive):
    """Purulent Excrescence (the players' clarified text, "Mutation Cards") after a
    base-to-base attack of ``by`` on the mutated ``j`` (``before``: j's wounds before it):
    killed by it, the attacker automatically suffers a wound; wounded by a strike in
    Offensive Combat (``offensive``), the attacker makes an unmodified Natural Roll
    (SL NV - wounds) or suffers a wound.  A warrior loses one NV at most to it per game."""
    if s[j, S_MUTANT] == 0 or s[j, S_WOUNDS] <= before or by < 0:
        return
    if s[by, S_ALIVE] == 0 or s[by, S_SPRAYED] == 1:
        return
    if s[j, S_ALIVE] == 0:
        log(g, ev, E_MUTATION, fi[j, F_SIDE], j, 2, by, 0, 0, 2, 0, 0, 0)
        spray_wound(fi, s, g, occ, ev, j, by)
    elif offensive:
        face = d10(g, dc, rng)
        sl = fi[by, F_NV] - s[by, S_WOUNDS]
        res = classify(face, sl, ONE)
        log(g, ev, E_MUTATION, fi[j, F_SIDE], j, 2, by, face, sl, res, 0, 0, 0)
        if res <= 0:
            spray_wound(fi, s, g, occ, ev, j, by)


@njit(cache=True, error_model="numpy", _nrt=False)
def deal_equipment(fi, sc, s, g, rng, ev):
    """ "Aura Cards" and "Mutation Cards" at the start of the game.  Aura: 3 of the 9
    cards drawn for each warrior with Aura/X (2 kept): the Aura of Vengeance, the one
    card whose effect is printed, is kept by the bearer who drew it (option ``aura``:
    deck; vengeance: the side's first bearer holds it; none).  Mutation: the Scorpion
    player draws 3 of the 9 (2 kept) if he has a Mutation/X warrior: Purulent
    Excrescence, the one card printed, is kept if drawn (``mutation``: deck; purulent:
    always held; none).  The other cards' texts are not printed: no effect."""
    n = fi.shape[0]
    for side in range(2):
        if sc[S_AURA_MODE] > 0:
            nb = 0
            for i in range(n):
                if fi[i, F_SIDE] == side and fi[i, F_AURA] > 0:
                    nb += 1
            if nb > 0:
                m = 0 if sc[S_AURA_MODE] == 2 else pick(rng, np.int64(9)) // 3
                k = 0
                for i in range(n):
                    if fi[i, F_SIDE] == side and fi[i, F_AURA] > 0:
                        if k == m:
                            s[i, S_AURA] = 1
                            log(g, ev, E_AURA, side, i, 1, 0, 0, 0, 0, 0, 0, 0)
                        k += 1
        if sc[S_MUTATION_MODE] > 0:
            has = False
            for i in range(n):
                if fi[i, F_SIDE] == side and fi[i, F_MUTATION] > 0:
                    has = True
            if has and (sc[S_MUTATION_MODE] == 2 or pick(rng, np.int64(3)) == 0):
                g[G_PURULENT + side] = 1
                log(g, ev, E_MUTATION, side, -1, 0, -1, 0, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def mutate(fi, sc, s, g, occ, ev, i):
    """ "Mutation Cards": Purulent Excrescence is given to a Mutation/X warrior on one of
    his Activations (here: the first that ends with an enemy in base contact with him).
    Its wound on application goes to the enemy in contact with the fewest NV left
    (option ``purulent_wound=enemy``, counted as his one NV lost to it) or to the host
    (``host``)."""
    side = fi[i, F_SIDE]
    if g[G_PURULENT + side] != 1 or fi[i, F_MUTATION] == 0 or s[i, S_ALIVE] == 0:
        return
    t = NEG
    best = 99
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != side and touching(fi, s, i, j):
            left = fi[j, F_NV] - s[j, S_WOUNDS]
            if left < best:
                best = left
                t = j
    if t < 0:
        return
    g[G_PURULENT + side] = 2
    s[i, S_MUTANT] = 1
    if sc[S_PURULENT_HOST] == 1:
        log(g, ev, E_MUTATION, side, i, 1, i, 0, 0, 0, 0, 0, 0)
        wound(fi, s, g, occ, ev, i, ONE, np.int64(-1), SPRAY)
    else:
        log(g, ev, E_MUTATION, side, i, 1, t, 0, 0, 0, 0, 0, 0)
        spray_wound(fi, s, g, occ, ev, i, t)


# =========================================================== strikes and parries
@njit(cache=True, error_model="numpy", _nrt=False)
def parry_levels(fi, s, j, vs_fire):
    """Mastery Levels of Defensive Combat ``j`` may choose now (bit mask of 1..6).

    Locked in Heroic Parry: 6 only ("6 / Heroic Parry").  Against firing only Basic and
    Heroic Parry apply (the others "apply only in base contact")."""
    if s[j, S_ALIVE] == 0 or s[j, S_MODE] != M_DC:
        return 0
    if s[j, S_LEVEL] == 6:
        return 1 << 6
    top = level_now(fi, s, j, COL_DC)
    if top > 6:
        top = 6
    m = 0
    for lv in range(1, top + 1):
        if vs_fire and lv != 1 and lv != 6:
            continue
        m |= 1 << lv
    return m


@njit(cache=True, error_model="numpy", _nrt=False)
def exp_attack(fi, s, tab, sc, i, j, asl, andice, wounds, pmask, vs_fire):
    """Expected wounds to the target and to the attacker of one strike or shot when the
    defender answers with his best parry level (the greedy defender's choice); returns
    (wounds to target, wounds to attacker, best parry level or 0)."""
    pp, ps, _pf, pc = probs(tab, andice, asl, pam_of(fi, i))
    best_t = pp * (wounds + 1) + ps * wounds
    best_a = 0.0
    best_lv = 0
    if pmask == 0:
        return best_t, best_a, 0
    best_v = 1e9
    for lv in range(1, 7):
        if (pmask >> lv) & 1 == 0:
            continue
        qp, qs, _qf, _qc = probs(tab, 2 if lv == 5 else 1, parry_sl(fi, s, j, lv), ONE)
        parried = qp + qs
        et = pp * (wounds + 1) * (1.0 if (sc[S_PERFECT_PARRY] == 0) else 1.0 - parried)
        et += ps * wounds * (1.0 - parried)
        ea = 0.0
        if lv == 2:
            ea = pc + (pp + ps) * qp
        elif lv == 3 and fi[j, F_OC] > 0:
            cp, cs, _cf, _cc = probs(tab, ONE, strike_sl(fi, s, j, i, ONE, NO), pam_of(fi, j))
            ea = (pp * (1.0 if sc[S_PERFECT_PARRY] == 1 else 0.0) + ps) * parried * (2 * cp + cs)
        v = et - 0.8 * ea
        if v < best_v:
            best_v = v
            best_t = et
            best_a = ea
            best_lv = lv
    return best_t, best_a, best_lv


@njit(cache=True, error_model="numpy", _nrt=False)
def choose_parry(fi, s, tab, sc, rng, i, j, asl, andice, wounds, vs_fire, pol):
    """The defender's Mastery Level, announced in answer to the attacker's ("Defensive
    Combat"): random among the legal ones, or the greedy best; 0 when he cannot parry."""
    pmask = parry_levels(fi, s, j, vs_fire)
    if pmask == 0:
        return 0
    if pol == POL_RANDOM:
        n = 0
        for lv in range(1, 7):
            if (pmask >> lv) & 1:
                n += 1
        k = pick(rng, np.int64(n))
        for lv in range(1, 7):
            if (pmask >> lv) & 1:
                if k == 0:
                    return lv
                k -= 1
    _et, _ea, lv = exp_attack(fi, s, tab, sc, i, j, asl, andice, wounds, pmask, vs_fire)
    return lv


@njit(cache=True, error_model="numpy", _nrt=False)
def hand_size(g, side):
    n = 0
    for v in range(5):
        n += g[G_HAND + 5 * side + v]
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def hand_points(g, side):
    n = 0
    for v in range(5):
        n += v * g[G_HAND + 5 * side + v]
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def draw_card(g, rng, side):
    """One Action Card into ``side``'s hand (the deck as counts by points, drawn at
    random: a shuffled deck; the cards put back under it come last); its points, or -1
    once the deck is spent ("Cards drawn during the game")."""
    base = G_DECK
    n = 0
    for v in range(5):
        n += g[G_DECK + v]
    if n == 0:
        base = G_BOTTOM
        for v in range(5):
            n += g[G_BOTTOM + v]
    if n == 0:
        return -1
    r = pick(rng, np.int64(n))
    for v in range(5):
        if r < g[base + v]:
            g[base + v] -= 1
            g[G_HAND + 5 * side + v] += 1
            return v
        r -= g[base + v]
    return -1


@njit(cache=True, error_model="numpy", _nrt=False)
def deal_cards(g, rng, ev):
    """ "Dealing": 25 Action Cards (their values are not printed: 5 of each of 0..4
    points), four to each player; a player may put his hand under the deck and draw
    three instead (the policies do when it holds fewer than 6 points, the mean of 3)."""
    for v in range(5):
        g[G_DECK + v] = 5
        g[G_BOTTOM + v] = 0
        g[G_HAND + v] = 0
        g[G_HAND + 5 + v] = 0
    for side in range(2):
        for _ in range(4):
            draw_card(g, rng, side)
    for side in range(2):
        log(g, ev, E_CARD, side, -1, hand_points(g, side), 4, 4, 0, 0, 0, 0, 0)
        if hand_points(g, side) < 6:
            for v in range(5):
                g[G_BOTTOM + v] += g[G_HAND + 5 * side + v]
                g[G_HAND + 5 * side + v] = 0
            for _ in range(3):
                draw_card(g, rng, side)
            log(g, ev, E_CARD, side, -1, hand_points(g, side), 5, 3, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def draw_owed(g, rng, ev):
    """The cards owed for warriors destroyed by the enemy (:func:`wound`), drawn."""
    for side in range(2):
        while g[G_PENDING + side] > 0:
            g[G_PENDING + side] -= 1
            v = draw_card(g, rng, side)
            if v >= 0:
                log(g, ev, E_CARD, side, -1, v, 3, hand_size(g, side), 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def roll_worth(fi, s, tab, sc, i, j, asl, andice, wounds, vs_fire):
    """Greedy's worth for the attacker of one strike or shot at SL ``asl``: expected
    wounds dealt less 0.8 x those taken back, each weighted by the victim's points."""
    pmask = parry_levels(fi, s, j, vs_fire)
    et, ea, _lv = exp_attack(fi, s, tab, sc, i, j, asl, andice, wounds, pmask, vs_fire)
    return et * (1.0 + fi[j, F_POINTS] / 20.0) - 0.8 * ea * (1.0 + fi[i, F_POINTS] / 20.0)


@njit(cache=True, error_model="numpy", _nrt=False)
def best_card(fi, s, tab, sc, g, side, i, j, asl, andice, wounds, vs_fire, sign):
    """The card of ``side``'s hand (points 1..4) whose points, added (``sign`` 1, the
    attacker) or taken (-1, a Hindrance) from the SL, gain ``side`` the most over
    ``CARD_KEEP`` per point; -1 if none gains."""
    base = roll_worth(fi, s, tab, sc, i, j, asl, andice, wounds, vs_fire)
    best = 0.0
    bv = -1
    for v in range(1, 5):
        if g[G_HAND + 5 * side + v] == 0:
            continue
        d = roll_worth(fi, s, tab, sc, i, j, asl + sign * v, andice, wounds, vs_fire) - base
        gain = d * sign - CARD_KEEP * v
        if gain > best + 1e-12:
            best = gain
            bv = v
    return bv


@njit(cache=True, error_model="numpy", _nrt=False)
def use_card(g, ev, side, fig, v, role):
    g[G_HAND + 5 * side + v] -= 1
    g[G_CARDS] += 1
    log(g, ev, E_CARD, side, fig, v, role, hand_size(g, side), 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def play_cards(fi, s, tab, sc, g, rng, ev, i, j, asl, andice, wounds, vs_fire, amb):
    """ "Action Cards" for one Natural Roll of the active warrior ``i`` against ``j``
    (played for their Action points; the rulebook prints none of their texts): the
    attacker plays his best card by :func:`best_card` (or a 0 card, to keep the right
    to answer a Hindrance), the opponent one card as a Hindrance, then the attacker,
    if he played first, one more against it (not for an ambush shot, ``amb``).  Action
    points raise (a Hindrance lowers) the SL; the Mastery Level chosen stays.  The
    random policy plays none.  Returns the SL."""
    draw_owed(g, rng, ev)
    side = fi[i, F_SIDE]
    other = 1 - side
    act = g[G_ROLL] == 1 or policy_of(sc, fi, i) != POL_RANDOM
    hind = g[G_ROLL] == 1 or policy_of(sc, fi, j) != POL_RANDOM
    played = False
    if act:
        v = best_card(fi, s, tab, sc, g, side, i, j, asl, andice, wounds, vs_fire, ONE)
        if v > 0:
            use_card(g, ev, side, i, v, ZERO)
            asl += v
            played = True
        elif not amb and g[G_HAND + 5 * side] > 0 and hand_size(g, side) > g[G_HAND + 5 * side]:
            use_card(g, ev, side, i, ZERO, ZERO)
            played = True
    if hind:
        h = best_card(fi, s, tab, sc, g, other, i, j, asl, andice, wounds, vs_fire, -ONE)
        if h > 0:
            use_card(g, ev, other, j, h, ONE)
            asl -= h
            if played and not amb:
                r = best_card(fi, s, tab, sc, g, side, i, j, asl, andice, wounds, vs_fire, ONE)
                if r > 0:
                    use_card(g, ev, side, i, r, np.int64(2))
                    asl += r
    return asl


@njit(cache=True, error_model="numpy", _nrt=False)
def event_value(fi, sc, tab, s, g, i):
    """Greedy's worth of activating an Event counter: ``event_worth`` tenths of a wound
    for an Event Card, less the chance of a Trap's wound (a Natural Roll at SL + 3
    failed) weighted like his plans (1 + points / 20)."""
    pp, ps, _pf, _pc = probs(tab, ONE, base_sl(fi, s, i) + 3, ONE)
    p_trap = g[G_TRAPS_LEFT] / g[G_EV_LEFT]
    worth = sc[S_EVENT_WORTH] / 10.0 * (1.0 - p_trap)
    return worth - p_trap * (1.0 - pp - ps) * (1.0 + fi[i, F_POINTS] / 20.0)


@njit(cache=True, error_model="numpy", _nrt=False)
def event_under(sc, cell, z, x, y):
    """Whether a base of ``z`` squares on anchor (x, y) covers a face-down Event counter."""
    for yy in range(y, y + z):
        for xx in range(x, x + z):
            if cell[yy, xx] == 4 or cell[yy, xx] == 5:
                return True
    return False


@njit(cache=True, error_model="numpy", _nrt=False)
def event_counter(fi, sc, tab, s, g, occ, cell, dc, rng, ev, i):
    """ "Event counters": a warrior ending his turn on one may activate it, unless his
    side activated the last one (the sides alternate); flipped, it is a Trap ("Trap
    counters": a Natural Roll at SL + 3 without Action Cards, an unavoidable wound on a
    failure) or an Event Card is drawn (the rulebook prints their texts only in part:
    no effect is modelled); the counter is removed.  Greedy activates it when
    ``event_worth`` of a card beats the chance of a Trap's wound; random half the time."""
    if s[i, S_ALIVE] == 0 or g[G_EV_LEFT] <= 0:
        return
    side = fi[i, F_SIDE]
    if g[G_EV_LAST] == side + 1:
        return
    w = sc[S_W]
    z = fi[i, F_SIZE]
    c = -1
    for yy in range(s[i, S_Y], s[i, S_Y] + z):
        for xx in range(s[i, S_X], s[i, S_X] + z):
            if c < 0 and (cell[yy, xx] == 4 or cell[yy, xx] == 5):
                c = yy * w + xx
    if c < 0:
        return
    sl = base_sl(fi, s, i) + 3
    worth = event_value(fi, sc, tab, s, g, i)
    if g[G_ROLL] == 0 and policy_of(sc, fi, i) == POL_RANDOM:
        if pick(rng, np.int64(2)) == 1:
            return
    elif worth <= 0.0:
        return
    y = c // w
    x = c % w
    trap = cell[y, x] == 5
    cell[y, x] = 0
    g[G_EV_LEFT] -= 1
    g[G_EV_LAST] = side + 1
    if trap:
        g[G_TRAPS_LEFT] -= 1
        face = d10(g, dc, rng)
        res = classify(face, sl, ONE)
        log(g, ev, E_EVENT, side, i, x, y, 1, face, sl, res, 0, 0)
        if res <= 0:
            wound(fi, s, g, occ, ev, i, ONE, np.int64(-1), np.int64(6))
    else:
        g[G_EVENT_CARDS + side] += 1
        log(g, ev, E_EVENT, side, i, x, y, 0, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def place_traps(sc, g, cell, rng):
    """ "Trap counters": the mission's Traps mixed at random among the Event counters
    (``cell`` 4 an Event counter, 5 a Trap)."""
    n = 0
    for yy in range(cell.shape[0]):
        for xx in range(cell.shape[1]):
            if cell[yy, xx] == 4:
                n += 1
    g[G_EV_LEFT] = n
    g[G_TRAPS_LEFT] = 0
    for _ in range(sc[S_TRAPS]):
        if g[G_TRAPS_LEFT] >= n:
            break
        r = pick(rng, np.int64(n - g[G_TRAPS_LEFT]))
        for yy in range(cell.shape[0]):
            for xx in range(cell.shape[1]):
                if cell[yy, xx] == 4:
                    if r == 0:
                        cell[yy, xx] = 5
                    r -= 1
        g[G_TRAPS_LEFT] += 1


@njit(cache=True, error_model="numpy", _nrt=False)
def policy_of(sc, fi, i):
    return sc[S_POL_A + fi[i, F_SIDE]]


@njit(cache=True, error_model="numpy", _nrt=False)
def attack_roll(
    fi, sc, tab, s, g, occ, dc, rng, ev, i, j, asl, andice, wounds, vs_fire, kind, level, flags
):
    """One strike or shot and its parry ("Offensive Combat", "Defensive Combat", "Firing",
    "Perfect Success and Critical Failure"), the mechanics of ``rolls.attack_once``:
    attack Natural Roll; on a success the defender in Defensive Combat rolls his parry;
    Novice Parry wounds the attacker on his Critical Failure or a Perfect Success parry;
    Skilled Parry answers with a Basic Strike.  Returns the attack roll's outcome code."""
    if sc[S_CARDS] == 1:
        # no cards for a second strike, a counter-blow, a Combined Attack or the
        # Armour-Piercing Shot's second target; one only for an ambush shot
        free = (flags & 14) == 0 if kind == EV_STRIKE else (flags & 2) == 0
        if free:
            amb = kind == EV_SHOT and (flags & 4) != 0
            asl = play_cards(fi, s, tab, sc, g, rng, ev, i, j, asl, andice, wounds, vs_fire, amb)
    pol_d = policy_of(sc, fi, j) if g[G_ROLL] == 0 else POL_GREEDY
    plv = 0
    if (flags & 1) == 0 or vs_fire:  # no parry against a strike from the rear
        plv = choose_parry(fi, s, tab, sc, rng, i, j, asl, andice, wounds, vs_fire, pol_d)
    if plv == 6:
        s[j, S_LEVEL] = 6  # locked in Heroic Parry until his next activation
    face = roll_kept(g, dc, rng, andice)
    res = classify(face, asl, pam_of(fi, i))
    dealt = 0
    if res == 2:
        g[G_PERFECT] += 1
    if res >= 1:
        dealt = wounds + (1 if res == 2 else 0)
    log(g, ev, kind, fi[i, F_SIDE], i, j, level, face, asl, res, dealt, flags, 0)
    if res == -1:
        if plv == 2:
            wound(fi, s, g, occ, ev, i, ONE, j, np.int64(5))
        return res
    if res == 0:
        return res
    if plv > 0 and (res == 1 or sc[S_PERFECT_PARRY] == 1):
        psl = parry_sl(fi, s, j, plv)
        pface = roll_kept(g, dc, rng, 2 if plv == 5 else 1)
        pres = classify(pface, psl, ONE)
        log(g, ev, E_PARRY, fi[j, F_SIDE], j, i, plv, pface, psl, pres, 0, 0, 0)
        if pres >= 1:
            g[G_PARRIES] += 1
            if plv == 2 and pres == 2:
                wound(fi, s, g, occ, ev, i, ONE, j, np.int64(5))
            elif plv == 3 and fi[j, F_OC] > 0:
                g[G_COUNTERS] += 1
                csl = strike_sl(fi, s, j, i, ONE, NO)
                cface = d10(g, dc, rng)
                cres = classify(cface, csl, pam_of(fi, j))
                cw = 0
                if cres >= 1:
                    cw = 1 + (1 if cres == 2 else 0)
                log(g, ev, E_STRIKE, fi[j, F_SIDE], j, i, 1, cface, csl, cres, cw, 4, 0)
                cb = s[i, S_WOUNDS]
                wound(fi, s, g, occ, ev, i, cw, j, ZERO)
                purulent(fi, s, g, occ, dc, rng, ev, i, j, cb, NO)
            return res
    if kind == E_SHOT:
        wound(fi, s, g, occ, ev, j, dealt, i, ONE)
    else:
        before = s[j, S_WOUNDS]
        wound(fi, s, g, occ, ev, j, dealt, i, ZERO)
        purulent(fi, s, g, occ, dc, rng, ev, j, i, before, YES)
    return res


@njit(cache=True, error_model="numpy", _nrt=False)
def knock_back(fi, mp, cell, sc, s, g, occ, ev, i, j):
    """ "Brutish Strength/X": the enemy flies X squares straight away from the attacker,
    without turning; one wound per square he could not fly through (walls, warriors,
    closed doors, the board's edge); pushed onto rockfall or an open Trapdoor: a wound
    ("Rockfall", "Jumping over a Trapdoor"; a Titan ignores rockfall)."""
    d = side_of(fi, s, i, j)
    if d < 0:
        return
    x = s[j, S_X]
    y = s[j, S_Y]
    z = fi[j, F_SIZE]
    flown = 0
    n = fi[i, F_BRUTISH]
    extra = 0
    for _ in range(n):
        nx = x + DX[d]
        ny = y + DY[d]
        ok = True
        for yy in range(ny, ny + z):
            for xx in range(nx, nx + z):
                if not inside(sc, xx, yy) or blocks_sight(mp, cell, xx, yy):
                    ok = False
                elif occ[yy, xx] != 0 and occ[yy, xx] != j + 1:
                    ok = False
        if not ok:
            break
        put(fi, s, occ, j, nx, ny)
        x = nx
        y = ny
        flown += 1
        for yy in range(ny, ny + z):
            for xx in range(nx, nx + z):
                k = mp[yy, xx]
                if (k == C_ROCKFALL and fi[j, F_TITAN] == 0) or k == C_TRAPDOOR:
                    extra += 1
    g[G_KNOCKS] += 1
    if flown > 0 and s[j, S_AMBUSH] > 0:
        leave_ambush(fi, s, g, ev, j, ONE)
    log(g, ev, E_KNOCK, fi[j, F_SIDE], j, i, flown, n - flown, x, y, 0, 0, 0)
    wound(fi, s, g, occ, ev, j, n - flown + extra, i, np.int64(2))


@njit(cache=True, error_model="numpy", _nrt=False)
def strike_action(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, i, j, level, combined):
    """Offensive Combat against ``j`` in front contact, Mastery ``level`` 1..6 ("Offensive
    Combat"): "3 / Skilled Strike" a second strike after a hit, "5 / Master Strike" 2D10,
    "6 / Heroic Strike" two wounds; then "Combined Attack/X" (one die against the printed
    NV, not parried, once per Round) and "Brutish Strength/X" (once, after all strikes,
    even if parried)."""
    rear = from_rear(fi, s, j, i)
    wounds = 2 if level == 6 else 1
    nd = 2 if level == 5 else 1
    hit_any = False
    n_strikes = 2 if level == 3 else 1
    if combined:
        s[i, S_CA_USED] += 1
        s[i, S_CA_ROUND] = g[G_ROUND]
    for k in range(n_strikes):
        if s[j, S_ALIVE] == 0 or s[i, S_ALIVE] == 0:
            break
        before = s[j, S_WOUNDS]
        asl = strike_sl(fi, s, i, j, level, rear)
        s[i, S_STRIKES] += 1
        g[G_STRIKES] += 1
        res = attack_roll(
            fi, sc, tab, s, g, occ, dc, rng, ev, i, j, asl, nd, wounds, NO, EV_STRIKE, level,
            (1 if rear else 0) | (2 if k == 1 else 0),
        )  # fmt: skip
        if res >= 1:
            hit_any = True
        hit = s[j, S_WOUNDS] > before if sc[S_SKILLED_HIT] == 1 else res >= 1
        if not hit:
            break
    if combined and s[j, S_ALIVE] == 1 and s[i, S_ALIVE] == 1:
        g[G_COMBINED] += 1
        face = d10(g, dc, rng)
        csl = fi[i, F_NV] - evasion(s, j)
        res = classify(face, csl, ONE)
        cw = 0
        if res >= 1:
            cw = 1 + (1 if res == 2 else 0)
        log(g, ev, E_STRIKE, fi[i, F_SIDE], i, j, 0, face, csl, res, cw, 8, 0)
        before = s[j, S_WOUNDS]
        wound(fi, s, g, occ, ev, j, cw, i, ZERO)
        purulent(fi, s, g, occ, dc, rng, ev, j, i, before, YES)
    if hit_any and fi[i, F_BRUTISH] > 0 and s[j, S_ALIVE] == 1 and s[i, S_ALIVE] == 1:
        knock_back(fi, mp, cell, sc, s, g, occ, ev, i, j)


@njit(cache=True, error_model="numpy", _nrt=False)
def can_combine(fi, s, g, i):
    """ "Combined Attack/X": X per game, once per Round."""
    return fi[i, F_COMBINED] > s[i, S_CA_USED] and s[i, S_CA_ROUND] != g[G_ROUND]


@njit(cache=True, error_model="numpy", _nrt=False)
def strike_value(fi, s, tab, sc, g, i, j, level, rear):
    """Greedy worth of a strike: expected wounds dealt (a kill counts the target's
    remaining NV twice) minus the wounds its parry may return."""
    wounds = 2 if level == 6 else 1
    nd = 2 if level == 5 else 1
    asl = strike_sl(fi, s, i, j, level, rear)
    pmask = 0 if rear else parry_levels(fi, s, j, NO)
    et, ea, _lv = exp_attack(fi, s, tab, sc, i, j, asl, nd, wounds, pmask, NO)
    if level == 3:
        et *= 1.0 + 0.6 * min(et, 1.0)
    if can_combine(fi, s, g, i):
        pp, ps, _pf, _pc = probs(tab, ONE, fi[i, F_NV] - evasion(s, j), ONE)
        et += 2 * pp + ps
    left = fi[j, F_NV] - s[j, S_WOUNDS]
    if et > left:
        et = float(left)
    kill = et / left
    return et * (1.0 + fi[j, F_POINTS] / 20.0) + kill * left - 1.5 * ea


@njit(cache=True, error_model="numpy", _nrt=False)
def best_strike_level(fi, s, tab, sc, g, i, j, rear):
    top = level_now(fi, s, i, COL_OC)
    if top > 6:
        top = 6
    bl = 0
    bv = -1e9
    for lv in range(1, top + 1):
        v = strike_value(fi, s, tab, sc, g, i, j, lv, rear)
        if v > bv + 1e-12:
            bv = v
            bl = lv
    return bl, bv


# =========================================================== firing
@njit(cache=True, error_model="numpy", _nrt=False)
def fire_ok(fi, mp, cell, occ, s, sc, i, j, level):
    """The rockfall squares on the line if ``i`` may fire at ``j`` at ``level``, else -1.

    "1 / Basic Firing" (and Master, Heroic): target in the field of vision and on a direct
    line of sight, at least one free square between; "2 / Novice Firing": any direction,
    even in base contact; "4 / Expert Firing": past one warrior in the way (not a Puny
    target, not a normal one behind a Titan or a large base), the shooter not in contact
    with an enemy; a friend in the way blocks every other level ("Firing" FAQ)."""
    if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
        return -1
    contact = touching(fi, s, i, j)
    if level == 2:
        v = sight(fi, mp, cell, occ, s, sc, i, j, ZERO, ONE)
        if v < 0 or v >= 100:
            return -1
        return v
    if contact:
        return -1
    if chebyshev(fi, s, i, j) < 1:
        return -1
    v = sight(fi, mp, cell, occ, s, sc, i, j, ONE, ONE)
    if v < 0:
        return -1
    if level == 4:
        if in_enemy_contact(fi, s, i):
            return -1
        if v >= 200:
            return -1
        return v % 100
    if v >= 100:
        return -1
    return v


@njit(cache=True, error_model="numpy", _nrt=False)
def fire_value(fi, s, tab, sc, i, j, level, rock, shots):
    fsl = fire_sl(fi, s, i, j, rock)
    nd = 2 if level == 5 else 1
    pmask = parry_levels(fi, s, j, YES)
    et, _ea, _lv = exp_attack(fi, s, tab, sc, i, j, fsl, nd, ONE, pmask, YES)
    et *= shots
    left = fi[j, F_NV] - s[j, S_WOUNDS]
    if et > left:
        et = float(left)
    return et * (1.0 + fi[j, F_POINTS] / 20.0) + (et / left) * left


@njit(cache=True, error_model="numpy", _nrt=False)
def shoot(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, i, j, level, flags):
    """One shot of ``i`` at ``j`` ("Firing"); "Armour-Piercing Shot/X" goes on to a second
    warrior up to X squares behind the first, once per Round (not through a Titan, nor a
    first target in Defensive Combat unless his back is to the shooter)."""
    rock = fire_ok(fi, mp, cell, occ, s, sc, i, j, level)
    if rock < 0:
        return
    fsl = fire_sl(fi, s, i, j, rock)
    s[i, S_SHOTS] += 1
    g[G_SHOTS] += 1
    dc_first = s[j, S_MODE] == M_DC
    attack_roll(
        fi, sc, tab, s, g, occ, dc, rng, ev, i, j, fsl, 2 if level == 5 else 1, ONE, YES, EV_SHOT,
        level, flags,
    )  # fmt: skip
    if fi[i, F_APS] > 0 and s[i, S_APS_ROUND] != g[G_ROUND] and fi[j, F_TITAN] == 0 and flags == 0:
        back = s[j, S_ALIVE] == 1 and not in_fov(fi, s, j, s[i, S_X], s[i, S_Y])
        if not dc_first or back:
            best = NEG
            for k in range(fi.shape[0]):
                if k == j or s[k, S_ALIVE] == 0 or fi[k, F_SIDE] == fi[i, F_SIDE]:
                    continue
                if chebyshev(fi, s, j, k) > fi[i, F_APS]:
                    continue
                if chebyshev(fi, s, i, k) <= chebyshev(fi, s, i, j):
                    continue
                v = sight(fi, mp, cell, occ, s, sc, i, k, ONE, ONE)
                if v >= 100 and v < 200:  # the first victim is the one in the way
                    best = k
                    break
            if best >= 0:
                s[i, S_APS_ROUND] = g[G_ROUND]
                rock2 = sight(fi, mp, cell, occ, s, sc, i, best, ONE, ZERO)
                fsl2 = fire_sl(fi, s, i, best, rock2 if rock2 > 0 else 0)
                s[i, S_SHOTS] += 1
                g[G_SHOTS] += 1
                attack_roll(
                    fi, sc, tab, s, g, occ, dc, rng, ev, i, best, fsl2, ONE, ONE, YES, EV_SHOT,
                    level, np.int64(2),
                )  # fmt: skip


@njit(cache=True, error_model="numpy", _nrt=False)
def leave_ambush(fi, s, g, ev, i, why):
    """Skilled Firing ends for ``i`` and his counter is removed ("3 / Skilled Firing":
    he moves, chooses another Mastery Level, takes a wound, an enemy ends his movement in
    base contact with him, or his ambush shot fails to kill); ``why`` names the cause."""
    if s[i, S_AMBUSH] == 0:
        return
    s[i, S_AMBUSH] = 0
    g[G_NAMBUSH] -= 1
    if s[i, S_MODE] == M_FIRE:
        s[i, S_MODE] = M_NONE
    log(g, ev, E_AMBUSH_END, fi[i, F_SIDE], i, why, 0, 0, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def ambush_ok(fi, mp, cell, occ, s, sc, i):
    """Whether ``i`` may choose Skilled Firing where he stands ("3 / Skilled Firing": no
    opponent on his line of sight, i.e. in his field of vision with no warrior in the
    way, as for Expert Move; none in base contact; Firing level 3 or more now)."""
    if fi[i, F_F] == 0 or level_now(fi, s, i, COL_F) < 3 or in_enemy_contact(fi, s, i):
        return False
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
            continue
        v = sight(fi, mp, cell, occ, s, sc, i, j, ONE, ONE)
        if 0 <= v < 100:
            return False
    return True


@njit(cache=True, error_model="numpy", _nrt=False)
def go_into_ambush(fi, mp, cell, occ, s, sc, g, ev, i):
    """Declare Skilled Firing after the movement (FAQ: the level is announced after
    it): the next numbered counter; nothing if the conditions fail there."""
    if not ambush_ok(fi, mp, cell, occ, s, sc, i):
        return
    g[G_AMBUSH_NO] += 1
    g[G_NAMBUSH] += 1
    s[i, S_AMBUSH] = g[G_AMBUSH_NO]
    s[i, S_MODE] = M_FIRE
    s[i, S_LEVEL] = 3
    log(g, ev, E_AMBUSH, fi[i, F_SIDE], i, g[G_AMBUSH_NO], 0, 0, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def enemy_ambushers(fi, s, j):
    """Whether an enemy of ``j`` is in Skilled Firing."""
    for k in range(fi.shape[0]):
        if s[k, S_AMBUSH] > 0 and s[k, S_ALIVE] == 1 and fi[k, F_SIDE] != fi[j, F_SIDE]:
            return True
    return False


@njit(cache=True, error_model="numpy", _nrt=False)
def ambushers_seeing(fi, mp, cell, occ, s, sc, j):
    """Bit mask of ``j``'s enemies in Skilled Firing who could fire at him now (Basic
    Firing's conditions, :func:`fire_ok` level 1: field of vision, a direct line of
    sight, a free square between)."""
    m = 0
    for k in range(fi.shape[0]):
        if s[k, S_AMBUSH] > 0 and s[k, S_ALIVE] == 1 and fi[k, F_SIDE] != fi[j, F_SIDE]:
            if fire_ok(fi, mp, cell, occ, s, sc, k, j, ONE) >= 0:
                m |= 1 << k
    return m


@njit(cache=True, error_model="numpy", _nrt=False)
def ambush(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, j, before):
    """ "3 / Skilled Firing": ``j`` comes into the field of vision of enemies in ambush
    (they see him now, not on his previous square: mask ``before``).  The one with the
    lowest counter number fires first (one D10 at his Firing SL); a kill keeps him in
    ambush and the others hold their fire; otherwise he leaves Skilled Firing and the
    next fires at the same target.  Returns the mask of those who see ``j`` now."""
    now = ambushers_seeing(fi, mp, cell, occ, s, sc, j)
    new = now & ~before
    while new != 0 and s[j, S_ALIVE] == 1:
        k = NEG
        for c in range(fi.shape[0]):
            if (new >> c) & 1 == 1 and (k < 0 or s[c, S_AMBUSH] < s[k, S_AMBUSH]):
                k = c
        new &= ~(1 << k)
        rock = fire_ok(fi, mp, cell, occ, s, sc, k, j, ONE)
        if rock < 0 or s[k, S_AMBUSH] == 0:
            continue
        fsl = fire_sl(fi, s, k, j, rock)
        s[k, S_SHOTS] += 1
        g[G_SHOTS] += 1
        g[G_AMBUSHES] += 1
        attack_roll(
            fi, sc, tab, s, g, occ, dc, rng, ev, k, j, fsl, ONE, ONE, YES, EV_SHOT,
            np.int64(3), np.int64(4),
        )  # fmt: skip
        if s[j, S_ALIVE] == 1:
            leave_ambush(fi, s, g, ev, k, ZERO)
    return now


@njit(cache=True, error_model="numpy", _nrt=False)
def may_walk_into_view(fi, s, i, j):
    """Whether ``j`` is a living enemy of ``i`` within sight range plus his Movement."""
    if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
        return False
    return chebyshev(fi, s, i, j) <= SIGHT + fi[i, F_LYNX] + movement_now(fi, s, j)


@njit(cache=True, error_model="numpy", _nrt=False)
def ambush_worth(fi, s, tab, sc, wk, i):
    """Greedy's worth of an ambush by ``i``: 0.4 x his best Basic Firing value at an
    enemy who could walk into view (within sight range plus the enemy's Movement)."""
    best = 0.0
    for j in range(fi.shape[0]):
        if not may_walk_into_view(fi, s, i, j):
            continue
        v = fire_table(fi, s, tab, sc, wk, i, j, ONE, ZERO)
        if v > best:
            best = v
    return 0.4 * best


@njit(cache=True, error_model="numpy", _nrt=False)
def ambush_spot(fi, s, tab, sc, wk, i, worth):
    """Greedy's worth of an ambush where ``i`` now stands (option ``ambush_seek``): the
    square-blind ``worth`` (:func:`ambush_worth`) raised by the share of the enemies
    within sight range plus their Movement of this square who stand ahead of him (in the
    directions of his 90-degree field of vision, whatever the range), up to twice it:
    the squares enemies will walk into view of are sought."""
    near = 0
    ahead = 0
    for j in range(fi.shape[0]):
        if not may_walk_into_view(fi, s, i, j):
            continue
        near += 1
        seen = False
        for yy in range(s[j, S_Y], s[j, S_Y] + fi[j, F_SIZE]):
            for xx in range(s[j, S_X], s[j, S_X] + fi[j, F_SIZE]):
                if in_fov(fi, s, i, xx, yy):
                    seen = True
        if seen:
            ahead += 1
    if near == 0:
        return worth
    return worth * (1.0 + ahead / near)


@njit(cache=True, error_model="numpy", _nrt=False)
def keep_ambush(fi, s, i):
    """The policies keep a counter into the next Round (the warrior then leaves the
    Activation Sequence, "3 / Skilled Firing") while an enemy stands within sight range
    plus his Movement and the side has another warrior able to act."""
    near = False
    other = False
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or j == i:
            continue
        if fi[j, F_SIDE] == fi[i, F_SIDE]:
            if s[j, S_AMBUSH] == 0:
                other = True
        elif chebyshev(fi, s, i, j) <= SIGHT + fi[i, F_LYNX] + movement_now(fi, s, j):
            near = True
    return near and other


@njit(cache=True, error_model="numpy", _nrt=False)
def clear_fire_table(fi, wk):
    """Forget the fire values of :func:`fire_table` (the state they were computed in
    changed: a new activation, or a shot was fired)."""
    fv = wk[W_FIRE].view(np.float64)
    for k in range(fi.shape[0] * 7 * FIRE_ROCK):
        fv[k] = -1.0


@njit(cache=True, error_model="numpy", _nrt=False)
def fire_table(fi, s, tab, sc, wk, i, j, lv, rock):
    """:func:`fire_value` of ``i`` at ``j``, memoised per (target, level, rockfall) for one
    state: it does not depend on where ``i`` stands, so a search over his destinations
    computes it once (the table is reset by :func:`clear_fire_table`)."""
    shots = 2 if lv == 6 else 1
    if rock >= FIRE_ROCK:
        return fire_value(fi, s, tab, sc, i, j, lv, rock, shots)
    fv = wk[W_FIRE].view(np.float64)
    k = (j * 7 + lv) * FIRE_ROCK + rock
    if fv[k] < 0.0:
        fv[k] = fire_value(fi, s, tab, sc, i, j, lv, rock, shots)
    return fv[k]


@njit(cache=True, error_model="numpy", _nrt=False)
def best_fire(fi, mp, cell, occ, s, sc, tab, wk, i):
    """The best (level, target, value) for ``i`` firing from where he stands now (the
    conditions of :func:`fire_ok`, from one or two sightlines per enemy; the values
    from :func:`fire_table`)."""
    top = level_now(fi, s, i, COL_F)
    if top > 6:
        top = 6
    bl = 0
    bj = -1
    bv = 0.0
    if top == 0:
        return bl, bj, bv
    engaged = in_enemy_contact(fi, s, i)
    reach_ = SIGHT + fi[i, F_LYNX]
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
            continue
        if chebyshev(fi, s, i, j) > reach_:
            continue
        # no sightline needed if even a shot without rockfall could not beat the best
        # (values only fall with rockfall: a lower SL)
        bound = 0.0
        for lv in (6, 5, 4, 2, 1):
            if lv <= top:
                bound = max(bound, fire_table(fi, s, tab, sc, wk, i, j, np.int64(lv), ZERO))
        if bound <= bv + 1e-12:
            continue
        contact = touching(fi, s, i, j)
        v1 = -1 if contact else sight(fi, mp, cell, occ, s, sc, i, j, ONE, ONE)
        for lv in (6, 5, 4, 2, 1):
            if lv > top:
                continue
            rock = NEG
            if lv == 2:
                if v1 >= 0 and v1 < 100:
                    rock = v1
                else:
                    v0 = sight(fi, mp, cell, occ, s, sc, i, j, ZERO, ONE)
                    if v0 >= 0 and v0 < 100:
                        rock = v0
            elif lv == 4:
                if not engaged and v1 >= 0 and v1 < 200:
                    rock = v1 % 100
            elif v1 >= 0 and v1 < 100:
                rock = v1
            if rock < 0:
                continue
            v = fire_table(fi, s, tab, sc, wk, i, j, np.int64(lv), rock)
            if v > bv + 1e-12:
                bv = v
                bl = lv
                bj = j
    return bl, bj, bv


# =========================================================== movement
@njit(cache=True, error_model="numpy", _nrt=False)
def mark_contacts(fi, s, sc, wk, i):
    """W_TOUCH: squares edge-adjacent to an enemy base; W_EC: anchors where i's base would
    be in base contact with an enemy."""
    w = sc[S_W]
    h = sc[S_H]
    for c in range(w * h):
        wk[W_TOUCH, c] = 0
        wk[W_EC, c] = 0
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
            continue
        z = fi[j, F_SIZE]
        for k in range(z):
            for x, y in (
                (s[j, S_X] + k, s[j, S_Y] - 1),
                (s[j, S_X] + k, s[j, S_Y] + z),
                (s[j, S_X] - 1, s[j, S_Y] + k),
                (s[j, S_X] + z, s[j, S_Y] + k),
            ):
                if 0 <= x < w and 0 <= y < h:
                    wk[W_TOUCH, y * w + x] = 1
    z = fi[i, F_SIZE]
    for y in range(h - z + 1):
        for x in range(w - z + 1):
            t = 0
            for yy in range(y, y + z):
                for xx in range(x, x + z):
                    t |= wk[W_TOUCH, yy * w + xx]
            wk[W_EC, y * w + x] = t


@njit(cache=True, error_model="numpy", _nrt=False)
def square_class(fi, s, occ, i, x, y, novice):
    """What stands on (x, y) for ``i``'s movement: 0 free or itself, 1 a friend he may
    cross ("Moving over friendly figurines": not in contact with an enemy), 2 blocked,
    3 an enemy he shoves aside ("2 / Novice Move": not one in Defensive Combat, not a
    Titan on a large base unless he is one)."""
    o = occ[y, x] - 1
    if o < 0 or o == i:
        return 0
    if fi[o, F_SIDE] == fi[i, F_SIDE]:
        return 2 if in_enemy_contact(fi, s, o) else 1
    if novice == 1 and s[o, S_MODE] != M_DC:
        if fi[o, F_TITAN] == 1 and fi[o, F_SIZE] == 2 and fi[i, F_TITAN] == 0:
            return 2
        return 3
    return 2


@njit(cache=True, error_model="numpy", _nrt=False)
def mark_enter(fi, mp, cell, sc, s, occ, wk, i, novice):
    """W_ENTER per anchor: -1 if i's base cannot stand there on the way, else the extra
    terrain cost + 4 if it holds a closed door + 8 if it crosses a friend: walls, columns
    and locked doors stop him ("Forbidden Movements"), so do the warriors
    :func:`square_class` calls blocked; rockfall +1 ("Rockfall": not for Velocity or
    Titans), an open Trapdoor +1 to jump ("Jumping over a Trapdoor"; Velocity crosses
    freely), a closed door never by a Puny warrior ("Opening and closing doors"; its cost
    is the search's, :func:`reach`).  One pass over the squares (W_QUEUE: -1 blocked, else
    1 rockfall, 2 Trapdoor, 4 closed door, 8 friend), then one over the anchors."""
    w = sc[S_W]
    h = sc[S_H]
    z = fi[i, F_SIZE]
    enter = wk[W_ENTER]
    sq = wk[W_QUEUE]  # the walking-distance field's queue, free during the search
    for y in range(h):
        for x in range(w):
            k = mp[y, x]
            v = 0
            if blocks_move(mp, cell, x, y):
                v = -1
            else:
                if k == C_DOOR and cell[y, x] == 0:
                    v = 4
                elif k == C_ROCKFALL:
                    v = 1
                elif k == C_TRAPDOOR:
                    v = 2
                if occ[y, x] > 0:
                    c = square_class(fi, s, occ, i, x, y, novice)
                    if c == 2:
                        v = -1
                    elif c == 1:
                        v |= 8
            sq[y * w + x] = v
    rock_cost = 1 if fi[i, F_VELOCITY] == 0 and fi[i, F_TITAN] == 0 else 0
    trap_cost = 1 if fi[i, F_VELOCITY] == 0 else 0
    puny = fi[i, F_PUNY]
    for y in range(h):
        for x in range(w):
            a = y * w + x
            if z == 1:  # most bases: the anchor's own square
                v = sq[a]
            elif x + z > w or y + z > h:
                enter[a] = -1
                continue
            else:
                v = 0
                for yy in range(y, y + z):
                    for xx in range(x, x + z):
                        c = sq[yy * w + xx]
                        if c < 0 or v < 0:
                            v = -1
                        else:
                            v |= c
            if v < 0 or ((v & 4) and puny == 1):
                enter[a] = -1
                continue
            enter[a] = (rock_cost if v & 1 else 0) + (trap_cost if v & 2 else 0) + (v & 12)


@njit(cache=True, error_model="numpy", _nrt=False)
def end_ok(fi, mp, s, occ, i, x, y):
    """A warrior cannot end his movement on another warrior, on rockfall (unless a Titan)
    or, by choice, on an open Trapdoor ("Forbidden Movements", "Rockfall")."""
    z = fi[i, F_SIZE]
    for yy in range(y, y + z):
        for xx in range(x, x + z):
            o = occ[yy, xx] - 1
            if o >= 0 and o != i:
                return False
            k = mp[yy, xx]
            if k == C_ROCKFALL and fi[i, F_TITAN] == 0:
                return False
            if k == C_TRAPDOOR:
                return False
    return True


@njit(cache=True, error_model="numpy", _nrt=False)
def sidx(w, x, y, f, fl):
    return ((y * w + x) * 4 + f) * NFLAG + fl


@njit(cache=True, error_model="numpy", _nrt=False)
def push(dist, par, bucket, nb, st, cost, p):
    if cost < dist[st]:
        dist[st] = cost
        par[st] = p
        bucket[cost, nb[cost]] = st
        nb[cost] += 1


@njit(cache=True, error_model="numpy", _nrt=False)
def anchor_steps(fi, sc, wk, i, a):
    """W_STEP[8 a + d]: -1 if i's base cannot step from anchor ``a`` in absolute direction
    ``d`` (off the board, an obstacle, a Titan's diagonal, a squeeze between two
    obstacles: "Movement of Your Warriors"), else the extra cost (rockfall, Trapdoor, +1
    diagonally past one obstacle unless Puny) + ST_DOOR, ST_FRIEND (the entry holds a
    closed door, crosses a friend) + ST_CONTACT (it is in base contact with an enemy).
    Built from W_ENTER and W_EC when :func:`reach` first leaves the anchor, it spares the
    search the geometry."""
    w = sc[S_W]
    h = sc[S_H]
    z = fi[i, F_SIZE]
    titan = fi[i, F_TITAN]
    puny = fi[i, F_PUNY]
    enter = wk[W_ENTER]
    ec = wk[W_EC]
    step = wk[W_STEP]
    x = a % w
    y = a // w
    for d in range(8):
        ddx = ABS_DX[d]
        ddy = ABS_DY[d]
        nx = x + ddx
        ny = y + ddy
        k = 8 * a + d
        step[k] = -1
        diag = ddx != 0 and ddy != 0
        if diag and titan == 1:
            continue
        if nx < 0 or ny < 0 or nx + z > w or ny + z > h:
            continue
        na = ny * w + nx
        e = enter[na]
        if e < 0:
            continue
        extra = e & 3
        if diag:
            e1 = enter[y * w + nx]
            e2 = enter[ny * w + x]
            b1_ = e1 < 0 or ((e1 >> 2) & 1) == 1
            b2_ = e2 < 0 or ((e2 >> 2) & 1) == 1
            if b1_ and b2_:
                continue  # no squeezing between two obstacles
            if (b1_ or b2_) and puny == 0:
                extra += 1
        v = extra
        if (e >> 2) & 1:
            v |= ST_DOOR
        if (e >> 3) & 1:
            v |= ST_FRIEND
        if ec[na] == 1:
            v |= ST_CONTACT
        step[k] = v


@njit(cache=True, error_model="numpy", _nrt=False)
def reach(fi, mp, cell, sc, s, occ, wk, nb, i, budget, moving_mode, novice):
    """Cheapest Movement to every (square, facing) within ``budget`` ("Movement of Your
    Warriors", "Special Movements"): a square forward costs 1, diagonally forward 1 (2
    past a corner, a door or a base, not for a Puny warrior; never for a Titan), a
    side-step or a retreat 2 (and 3 diagonally back); the first 90-degree turn is free,
    every later one costs 1 (a Titan turns freely once per square), an about-face 1.  A
    warrior crosses friends not in contact with an enemy, but not to enter contact, nor
    once in contact ("Moving over friendly figurines" and its Comment).  A closed door is
    entered only facing it, never by a Puny warrior, +1 to open it ("Opening and closing
    doors": free in Moving Mode, a Titan smashes it).

    A bucket queue over states ``(anchor * 4 + facing) * NFLAG + flags`` (costs are small
    ints); the steps' geometry comes from :func:`anchor_steps`, once per anchor left.
    The least cost pushed per anchor is kept as the steps are pushed (:func:`least_cost_at`).

    A state is not expanded when one of the same anchor and facing with a subset of its
    flags was taken before it (at no higher cost: the queue is in cost order): every step
    or turn open to it is open to that one at no higher cost and with no more flags, so
    what it would push is either pushed already at no higher cost (its push fails, as a
    later push at an equal cost does) or is dominated the same way in turn.  The costs
    and parents of every state :func:`cost_to` can choose (the fewest flags at the least
    cost) and the order the others are taken in are those of the full search."""
    w = sc[S_W]
    na_ = w * sc[S_H]
    ns = na_ * 4 * NFLAG
    dist = wk[W_DIST].view(np.int32)  # int32: half the cache lines (states < 2**31)
    par = wk[W_PAR].view(np.int32)
    closed = dist[ns : 2 * ns]  # 1 once the state is taken (the row's other half)
    bucket = wk[W_BUCKET : W_BUCKET + MAXB]
    ec = wk[W_EC]
    step = wk[W_STEP]
    done = step[8 * na_ : 9 * na_]  # 1 once the anchor's steps are built
    least = step[10 * na_ : 11 * na_]  # the least cost pushed per anchor (least_cost_at)
    clear_search(wk, nb, ns, na_, budget)
    for c in range(na_):
        least[c] = BIG
    mark_contacts(fi, s, sc, wk, i)
    mark_enter(fi, mp, cell, sc, s, occ, wk, i, novice)
    st0 = sidx(w, s[i, S_X], s[i, S_Y], s[i, S_FACE], ZERO)
    push(dist, par, bucket, nb, st0, ZERO, NO_PARENT)
    least[st0 // (NFLAG * 4)] = 0
    titan = fi[i, F_TITAN]
    puny = fi[i, F_PUNY]
    door_extra = 1 if (moving_mode == 0 and titan == 0) else 0
    delta = step[9 * na_ : 9 * na_ + 8]  # the anchor index step of each absolute direction
    for d in range(8):
        delta[d] = ABS_DX[d] + w * ABS_DY[d]
    for cost in range(budget + 1):
        q = 0
        while q < nb[cost]:
            st = bucket[cost, q]
            q += 1
            if dist[st] != cost:
                continue
            fl = st & (NFLAG - 1)
            if cost == budget and (fl & 1):
                continue  # no turn or step left to it (nor to those it would dominate)
            b0 = st - fl  # flags 0 of the same anchor and facing
            if fl != 0 and (closed[b0] == 1 or (fl == 3 and (closed[b0 + 1] or closed[b0 + 2]))):
                continue  # dominated: a state with fewer flags was taken first (below)
            closed[st] = 1
            f = (st // NFLAG) & 3
            a = st // (NFLAG * 4)
            # turns
            tc = 1 if (fl & 1) else 0
            c2 = cost + tc
            if c2 <= budget:
                push(dist, par, bucket, nb, (a * 4 + ((f + 1) & 3)) * NFLAG + (fl | 1), c2, st)
                push(dist, par, bucket, nb, (a * 4 + ((f + 3) & 3)) * NFLAG + (fl | 1), c2, st)
            if cost + 1 > budget:
                continue  # every step costs at least 1
            push(dist, par, bucket, nb, (a * 4 + ((f + 2) & 3)) * NFLAG + (fl | 1), cost + 1, st)
            if done[a] == 0:
                anchor_steps(fi, sc, wk, i, a)
                done[a] = 1
            in_contact = ec[a] == 1
            nfl0 = fl & 2 if titan == 1 else fl  # a Titan's free turn comes back each square
            # eight steps: forward, two forward diagonals, two sides, back, two back diagonals
            # (base cost 1 for the first three, 2 for the others)
            nm = 8 if cost + 2 <= budget else 3
            row = 8 * a
            for m in range(nm):
                d = STEP_DIR[f, m]
                e = step[row + d]
                if e < 0:
                    continue
                c2 = cost + (1 if m < 3 else 2) + (e & 3)
                nfl = nfl0
                if e > 3:  # a door, a friend or contact (else the common step)
                    if e & ST_DOOR:
                        if puny == 1 or m != 0:
                            continue
                        c2 += door_extra
                    if e & ST_FRIEND:
                        if in_contact:
                            continue
                        nfl |= 2
                    if (nfl & 2) and (e & ST_CONTACT):
                        continue  # never across a friend into contact
                if c2 <= budget:
                    a2 = a + delta[d]
                    st2 = (a2 * 4 + f) * NFLAG + nfl
                    if c2 < dist[st2]:
                        push(dist, par, bucket, nb, st2, c2, st)
                        if c2 < least[a2]:
                            least[a2] = c2


@njit(cache=True, error_model="numpy", _nrt=False)
def cost_to(wk, w, x, y, f):
    """Least cost found by :func:`reach` to stand on anchor (x, y) facing ``f`` (after
    :func:`estimate`: its lower bound, and the state with flags 0)."""
    nn = wk.shape[1]
    if wk[W_NOVICE, nn - 1] == 1:
        e = wk[W_NOVICE, y * w + x]
        if e < BIG and f == wk[W_NOVICE, nn - 2]:
            e += 1
        return e, sidx(w, x, y, f, ZERO)
    dist = wk[W_DIST].view(np.int32)
    best = BIG
    bst = -1
    for fl in range(NFLAG):
        st = sidx(w, x, y, f, fl)
        if dist[st] < best:
            best = np.int64(dist[st])
            bst = st
    return best, bst


@njit(cache=True, error_model="numpy", _nrt=False)
def least_cost_at(wk, w, x, y):
    """Least cost found by :func:`reach` to stand on anchor (x, y), any facing (the least
    of its states' costs: :func:`reach` keeps it per anchor as it pushes the steps; a turn
    costs no less than the state it turns from)."""
    na_ = wk.shape[1] // (4 * NFLAG)
    return wk[W_STEP, 10 * na_ + y * w + x]


@njit(cache=True, error_model="numpy", _nrt=False)
def follow(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, i, dest, moving_mode):
    """Walk ``i`` along the path :func:`reach` found to state ``dest``: doors on the way
    open ("Opening and closing doors"), each open Trapdoor is jumped with a Natural Roll
    or costs a wound ("Jumping over a Trapdoor"); a wound ends the walk there."""
    w = sc[S_W]
    n = 0
    st = dest
    path = wk[W_PATH]  # the search's last bucket row, free once it is done
    while st >= 0 and n < 256:
        path[n] = st
        n += 1
        st = np.int64(wk[W_PAR].view(np.int32)[st])
    x0 = s[i, S_X]
    y0 = s[i, S_Y]
    z = fi[i, F_SIZE]
    lx = x0
    ly = y0
    amb = g[G_NAMBUSH] > 0 and enemy_ambushers(fi, s, i)
    seen = ambushers_seeing(fi, mp, cell, occ, s, sc, i) if amb else 0
    for k in range(n - 1, -1, -1):
        st = path[k]
        f = (st // NFLAG) % 4
        a = st // (NFLAG * 4)
        x = a % w
        y = a // w
        s[i, S_FACE] = f
        if x == lx and y == ly:
            continue
        trap = False
        for yy in range(y, y + z):
            for xx in range(x, x + z):
                if mp[yy, xx] == C_DOOR and cell[yy, xx] == 0:
                    cell[yy, xx] = 3 if fi[i, F_TITAN] == 1 else 1  # 3: smashed
                    log(g, ev, E_DOOR, fi[i, F_SIDE], i, xx, yy, 0, 0, 0, 0, 0, 0)
                if mp[yy, xx] == C_TRAPDOOR:
                    trap = True
        if trap and fi[i, F_VELOCITY] == 0:
            sl = base_sl(fi, s, i)
            face = d10(g, dc, rng)
            res = classify(face, sl, ONE)
            log(g, ev, E_TRAP, fi[i, F_SIDE], i, face, sl, res, 0, 0, 0, 0, 0)
            if res <= 0:
                wound(fi, s, g, occ, ev, i, ONE, np.int64(-1), np.int64(4))
                break  # he falls in and climbs back out where he came from
        lx = x
        ly = y
        if amb:  # "3 / Skilled Firing": does he come into an ambusher's view here?
            s[i, S_X] = x
            s[i, S_Y] = y
            seen = ambush(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, i, seen)
            s[i, S_X] = x0
            s[i, S_Y] = y0
            if s[i, S_ALIVE] == 0:
                put(fi, s, occ, i, x, y)  # clears the squares he left
                break
    if s[i, S_ALIVE] == 1 and end_ok(fi, mp, s, occ, i, lx, ly):
        put(fi, s, occ, i, lx, ly)
        if amb and (lx != x0 or ly != y0):
            for k in range(fi.shape[0]):  # an enemy ends his movement in contact
                if s[k, S_AMBUSH] > 0 and fi[k, F_SIDE] != fi[i, F_SIDE]:
                    if touching(fi, s, i, k):
                        leave_ambush(fi, s, g, ev, k, np.int64(3))
    log(g, ev, E_MOVE, fi[i, F_SIDE], i, x0, y0, s[i, S_X], s[i, S_Y], s[i, S_FACE], 0, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def move_budget(fi, s, i, lv):
    """Movement for a walk in Moving Mode level ``lv`` (0 none): "1 / Basic Move" +2."""
    return movement_now(fi, s, i) + (2 if lv == 1 else 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def can_intercept(fi, mp, cell, occ, s, sc, i, j, lv):
    """Whether ``i``'s Skilled (``lv`` 3) or Expert Move (4) may stop ``j``: not a Titan on
    a large base, not already in contact at the declaration, and for Expert Move on
    ``i``'s line of sight then (field of vision, no warrior in the way)."""
    if j < 0 or s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
        return False
    if fi[j, F_TITAN] == 1 and fi[j, F_SIZE] == 2:
        return False
    if touching(fi, s, i, j):
        return False
    if lv == 4:
        v = sight(fi, mp, cell, occ, s, sc, i, j, ONE, ONE)
        return 0 <= v < 100
    return lv == 3


@njit(cache=True, error_model="numpy", _nrt=False)
def walk_in_mode(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, i, dest, lv, j):
    """Moving Mode at level ``lv`` ("Moving", declared before the first step) along the
    path :func:`reach` found to ``dest``: doors open freely; "3 / Skilled Move" and
    "4 / Expert Move" stop ``j`` for the rest of the Round if ``i`` moved at least one
    square and ends in base contact with him (Expert: -2 to his Natural Rolls too)."""
    x0 = s[i, S_X]
    y0 = s[i, S_Y]
    hinder = (lv == 3 or lv == 4) and can_intercept(fi, mp, cell, occ, s, sc, i, j, lv)
    follow(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, i, dest, ONE)
    if not hinder or s[i, S_ALIVE] == 0 or s[j, S_ALIVE] == 0:
        return
    if (s[i, S_X] != x0 or s[i, S_Y] != y0) and touching(fi, s, i, j):
        if s[j, S_STOPPED] < lv:
            s[j, S_STOPPED] = lv
        log(g, ev, E_INTERCEPT, fi[j, F_SIDE], j, i, lv, 0, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def field(fi, mp, cell, sc, s, wk, i, goal):
    """W_FIELD: walking distance (squares, around walls) from every square to the goal:
    ``goal`` 0 squares next to an enemy, 1 the Objective counters left.

    A breadth-first search on rows of bits (W_QUEUE: the squares free to walk, the last
    ring, the next one and those reached, ``h`` rows each; boards are at most
    ``layout.MAX_W`` < 63 squares wide): every ring is one shift and mask per row."""
    w = sc[S_W]
    h = sc[S_H]
    q = wk[W_QUEUE]
    fd = wk[W_FIELD]
    for c in range(w * h):
        fd[c] = BIG
    ring = 0
    for y in range(h):
        free = 0
        src = 0
        for x in range(w):
            if not blocks_move(mp, cell, x, y):
                free |= 1 << x
                if wk[W_TOUCH, y * w + x] == 1 if goal == 0 else cell[y, x] == 2:
                    src |= 1 << x
                    fd[y * w + x] = 0
        q[y] = free
        q[h + y] = src
        q[3 * h + y] = src
        ring |= src
    d = 0
    while ring != 0:
        d += 1
        ring = 0
        for y in range(h):
            c = q[h + y]
            m = (c << 1) | (c >> 1)
            if y > 0:
                m |= q[h + y - 1]
            if y < h - 1:
                m |= q[h + y + 1]
            m &= q[y] & ~q[3 * h + y]
            q[2 * h + y] = m
            ring |= m
        for y in range(h):
            m = q[2 * h + y]
            q[h + y] = m
            q[3 * h + y] |= m
            while m != 0:
                low = m & -m
                fd[y * w + BIT_AT[((low * DE_BRUIJN) >> 58) & 63]] = d
                m ^= low


@njit(cache=True, error_model="numpy", _nrt=False)
def field_at(fi, sc, wk, i, x, y):
    w = sc[S_W]
    z = fi[i, F_SIZE]
    best = BIG
    for yy in range(y, y + z):
        for xx in range(x, x + z):
            v = wk[W_FIELD, yy * w + xx]
            if v < best:
                best = v
    return best


# =========================================================== doors
@njit(cache=True, error_model="numpy", _nrt=False)
def closable(fi, mp, cell, occ, s, sc, i, x, y):
    """Whether ``i`` may close the door on square (x, y) ("Opening and closing doors": a
    door opened, not smashed by a Titan, nothing on it, beside or in front of him)."""
    if not inside(sc, x, y) or mp[y, x] != C_DOOR or cell[y, x] != 1 or occ[y, x] != 0:
        return False
    return touching_at(s[i, S_X], s[i, S_Y], fi[i, F_SIZE], x, y, ONE)


@njit(cache=True, error_model="numpy", _nrt=False)
def set_door(mp, cell, sc, x, y, v):
    """Open (1) or close (0) the door on (x, y) with the door square beside it (a
    double door is closed whole)."""
    cell[y, x] = v
    for d in range(4):
        nx = x + DX[d]
        ny = y + DY[d]
        if inside(sc, nx, ny) and mp[ny, nx] == C_DOOR and cell[ny, nx] == 1 - v:
            cell[ny, nx] = v


@njit(cache=True, error_model="numpy", _nrt=False)
def shooters_seeing(fi, mp, cell, occ, s, sc, i):
    """The enemy shooters with a line of sight to ``i`` (any direction: Novice Firing)."""
    n = 0
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != fi[i, F_SIDE] and fi[j, F_F] > 0:
            v = sight(fi, mp, cell, occ, s, sc, j, i, ZERO, ONE)
            if 0 <= v < 100:
                n += 1
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def close_doors(fi, mp, cell, occ, s, sc, g, ev, i, left):
    """ "Opening and closing doors" (1 Movement each): greedy closes an open door beside
    him when it hides him from an enemy shooter, while Movement is left; the count."""
    if left < 1 or fi[i, F_PUNY] == 1 or s[i, S_ALIVE] == 0:
        return 0
    z = fi[i, F_SIZE]
    n = 0
    for y in range(s[i, S_Y] - 1, s[i, S_Y] + z + 1):
        for x in range(s[i, S_X] - 1, s[i, S_X] + z + 1):
            if n >= left or not closable(fi, mp, cell, occ, s, sc, i, x, y):
                continue
            seen = shooters_seeing(fi, mp, cell, occ, s, sc, i)
            if seen == 0:
                return n
            set_door(mp, cell, sc, x, y, ZERO)
            if shooters_seeing(fi, mp, cell, occ, s, sc, i) < seen:
                n += 1
                log(g, ev, E_DOOR, fi[i, F_SIDE], i, x, y, 1, 0, 0, 0, 0, 0)
            else:
                set_door(mp, cell, sc, x, y, ONE)
    return n


# =========================================================== objectives
@njit(cache=True, error_model="numpy", _nrt=False)
def counter_under(fi, sc, cell, s, i):
    """A square of i's base holding an Objective counter (-1 none)."""
    w = sc[S_W]
    z = fi[i, F_SIZE]
    for yy in range(s[i, S_Y], s[i, S_Y] + z):
        for xx in range(s[i, S_X], s[i, S_X] + z):
            if cell[yy, xx] == 2:
                return yy * w + xx
    return -1


@njit(cache=True, error_model="numpy", _nrt=False)
def carry_out(fi, sc, cell, s, g, ev, i):
    """ "Scenario Objectives": a warrior of Rank 1+ ending his turn on an Objective
    counter carries it out; the counter is removed."""
    if sc[S_OBJ_NEED] == 0 or fi[i, F_RANK] < 1 or s[i, S_ALIVE] == 0:
        return
    c = counter_under(fi, sc, cell, s, i)
    if c < 0:
        return
    w = sc[S_W]
    cell[c // w, c % w] = 0
    side = fi[i, F_SIDE]
    g[G_OBJ_A + side] += 1
    s[i, S_SCORE] += 1
    log(g, ev, E_OBJECTIVE, side, i, c % w, c // w, g[G_OBJ_A + side], 0, 0, 0, 0, 0)


# =========================================================== decisions
@njit(ADD_PLAN_SIG, cache=True, error_model="numpy", _nrt=False)
def add_plan(plans, npl, kind, level, dest, target, value):
    """Record a plan (the worst one replaced once ``MAXPLANS`` are held); the new count."""
    if npl >= MAXPLANS:
        # replace the worst when full
        worst = 0
        for k in range(1, MAXPLANS):
            if plans[k, P_SCORE_X1000] < plans[worst, P_SCORE_X1000]:
                worst = k
        if plans[worst, P_SCORE_X1000] >= int(value * 1000):
            return npl
        npl = worst
        plans[npl, P_KIND] = kind
        plans[npl, P_LEVEL] = level
        plans[npl, P_DEST] = dest
        plans[npl, P_TARGET] = target
        plans[npl, P_SCORE_X1000] = int(value * 1000)
        return MAXPLANS
    plans[npl, P_KIND] = kind
    plans[npl, P_LEVEL] = level
    plans[npl, P_DEST] = dest
    plans[npl, P_TARGET] = target
    plans[npl, P_SCORE_X1000] = int(value * 1000)
    return npl + 1


@njit(cache=True, error_model="numpy", _nrt=False)
def enemy_table(fi, s, wk, i):
    """W_ENEMY, read by :func:`toward_enemy` and :func:`danger` for ``i`` while the
    enemies stand still (one activation's choice): at 0 the count of living enemies, then
    each one's base centre doubled (2 x + size, 2 y + size); at 1 + 2 n (n warriors) the
    count of those who could still come into contact (yet to activate, Offensive Combat),
    then each one's base edges x0, x1, y0, y1 and his Movement + 1."""
    e = wk[W_ENEMY]
    at = 2 + 2 * fi.shape[0]
    n = 0
    m = 0
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
            continue
        zj = fi[j, F_SIZE]
        e[1 + 2 * n] = 2 * s[j, S_X] + zj
        e[2 + 2 * n] = 2 * s[j, S_Y] + zj
        n += 1
        if s[j, S_DONE] == 0 and fi[j, F_OC] > 0:
            k = at + 5 * m
            e[k] = s[j, S_X]
            e[k + 1] = s[j, S_X] + zj - 1
            e[k + 2] = s[j, S_Y]
            e[k + 3] = s[j, S_Y] + zj - 1
            e[k + 4] = movement_now(fi, s, j) + 1
            m += 1
    e[0] = n
    e[at - 1] = m


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def danger(fi, wk, i, x, y):
    """A crude threat of standing at (x, y): the enemies that could reach contact (base
    distance at most their Movement + 1; :func:`enemy_table`)."""
    e = wk[W_ENEMY]
    at = 2 + 2 * fi.shape[0]
    z = fi[i, F_SIZE]
    t = 0
    for k in range(at, at + 5 * e[at - 1], 5):
        dx = max(0, max(e[k] - (x + z - 1), x - e[k + 1]))
        dy = max(0, max(e[k + 2] - (y + z - 1), y - e[k + 3]))
        if max(dx, dy) <= e[k + 4]:
            t += 1
    return float(t)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def toward_enemy(fi, s, wk, i, x, y):
    """The facing from anchor (x, y) toward the nearest living enemy (base centres,
    :func:`enemy_table`; the first of equals in warrior order)."""
    e = wk[W_ENEMY]
    z = fi[i, F_SIZE]
    best = BIG
    bf = s[i, S_FACE]
    for k in range(1, 1 + 2 * e[0], 2):
        vx = e[k] - 2 * x - z
        vy = e[k + 1] - 2 * y - z
        d = max(abs(vx), abs(vy))
        if d < best:
            best = d
            if abs(vx) >= abs(vy):
                bf = 1 if vx > 0 else 3
            else:
                bf = 2 if vy > 0 else 0
    return bf


@njit(cache=True, error_model="numpy", _nrt=False)
def front_anchor(fi, s, z, j, f, k):
    """The anchor of a base of size ``z`` facing ``f`` whose front edge touches ``j``'s
    base, ``k`` squares along it (``-(z - 1) <= k < j``'s size)."""
    zj = fi[j, F_SIZE]
    if f == 0:
        return s[j, S_X] + k, s[j, S_Y] + zj
    if f == 2:
        return s[j, S_X] + k, s[j, S_Y] - z
    if f == 1:
        return s[j, S_X] - z, s[j, S_Y] + k
    return s[j, S_X] + zj, s[j, S_Y] + k


@njit(cache=True, error_model="numpy", _nrt=False)
def contact_anchor(fi, mp, s, occ, sc, wk, i, j, f, k, mv, here):
    """Anchor ``k`` of :func:`front_anchor` (i facing ``f``, his front edge on ``j``'s
    base) if :func:`reach` found it within ``mv`` and i may end his move there; (x, y,
    state), state -1 if not.  ``here``: where i stands counts, at no cost (he turns to
    face a foe already in contact, "Offensive Combat"), else it is left out."""
    w = sc[S_W]
    z = fi[i, F_SIZE]
    ax, ay = front_anchor(fi, s, z, j, f, k)
    at = ax == s[i, S_X] and ay == s[i, S_Y]
    if ax < 0 or ay < 0 or ax + z > w or ay + z > sc[S_H] or (at and not here):
        return ax, ay, -1
    if side_toward(ax, ay, z, s[j, S_X], s[j, S_Y], fi[j, F_SIZE]) != f:
        return ax, ay, -1
    c, st = cost_to(wk, w, ax, ay, f)
    if at:
        c = 0
        st = sidx(w, ax, ay, f, ZERO)
    if c > mv or not end_ok(fi, mp, s, occ, i, ax, ay):
        return ax, ay, -1
    return ax, ay, st


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def facing_state(fi, s, wk, w, i, x, y, budget):
    """The state :func:`reach` found on anchor (x, y): facing the nearest enemy if that
    fits in ``budget``, else the cheapest facing that does; (cost, state, facing or -1)."""
    ft = toward_enemy(fi, s, wk, i, x, y)
    c, st = cost_to(wk, w, x, y, ft)
    fbest = ft
    if c > budget:
        fbest = -1
        for t in range(4):  # from the side's own north (B's board is turned round)
            f = (t + 2 * fi[i, F_SIDE]) % 4
            cf, stf = cost_to(wk, w, x, y, f)
            if cf <= budget and cf < c:
                c = cf
                st = stf
                fbest = f
    return c, st, fbest


@njit(cache=True, error_model="numpy", _nrt=False)
def progress(fi, sc, wk, i, x, y, here):
    """Walking distance from anchor (x, y) to the goal of :func:`field` and greedy's worth
    of the squares gained from ``here`` (0.12 each)."""
    dist = field_at(fi, sc, wk, i, x, y)
    if dist < BIG and here < BIG:
        return dist, 0.12 * (here - dist)
    return dist, 0.0


@njit(cache=True, error_model="numpy", _nrt=False)
def shove_near(fi, s, i, mv):
    """Whether an enemy ``i``'s Novice Move could shove aside stands within ``mv`` squares
    ("2 / Novice Move": not one in Defensive Combat, nor a Titan on a large base)."""
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE] or s[j, S_MODE] == M_DC:
            continue
        if fi[j, F_TITAN] == 1 and fi[j, F_SIZE] == 2 and fi[i, F_TITAN] == 0:
            continue
        if chebyshev(fi, s, i, j) <= mv:
            return True
    return False


@njit(cache=True, error_model="numpy", _nrt=False)
def intercept_value(fi, s, tab, sc, g, i, j, lv):
    """Greedy worth of stopping ``j`` by Skilled or Expert Move ("3 / Skilled Move",
    "4 / Expert Move"): 0.3 x his worth if he has yet to move this Round, and for Expert
    Move the fall of his best strike at ``i`` under the -2."""
    v = 0.0
    if s[j, S_DONE] == 1:
        return v
    if movement_now(fi, s, j) > 0:
        v += 0.3 * (1.0 + fi[j, F_POINTS] / 20.0)
    if lv == 4 and fi[j, F_OC] > 0:
        _l, v0 = best_strike_level(fi, s, tab, sc, g, j, i, NO)
        old = s[j, S_STOPPED]
        s[j, S_STOPPED] = 4
        _l, v1 = best_strike_level(fi, s, tab, sc, g, j, i, NO)
        s[j, S_STOPPED] = old
        if v0 > v1:
            v += v0 - v1
    return v


@njit(cache=True, error_model="numpy", _nrt=False)
def novice_search(fi, mp, cell, sc, s, occ, wk, nb, i, mv):
    """Novice Move's own search ("Moving": it shoves through enemies): the cost and state
    of each anchor square within ``mv`` into ``wk[W_NOVICE]`` (BIG where none)."""
    w = sc[S_W]
    h = sc[S_H]
    z = fi[i, F_SIZE]
    reach(fi, mp, cell, sc, s, occ, wk, nb, i, mv, ONE, ONE)
    for y in range(h - z + 1):
        for x in range(w - z + 1):
            c, st, fn = BIG, -1, -1  # facing_state's answer where no facing is in reach
            if least_cost_at(wk, w, x, y) <= mv:
                c, st, fn = facing_state(fi, s, wk, w, i, x, y, mv)
            wk[W_NOVICE, 2 * (y * w + x)] = c if fn >= 0 else BIG
            wk[W_NOVICE, 2 * (y * w + x) + 1] = st


@njit(cache=True, error_model="numpy", _nrt=False)
def clear_search(wk, nb, ns, na_, budget):
    """Make the search rows ready for a new search to ``budget`` (as :func:`reach` does):
    only the states the last search pushed are reset when it told so (``nb[MAXB - 1]``)."""
    dist = wk[W_DIST].view(np.int32)
    closed = dist[ns : 2 * ns]
    bucket = wk[W_BUCKET : W_BUCKET + MAXB]
    step = wk[W_STEP]
    if nb[MAXB - 1] == 1:
        for c in range(MAXB - 1):
            for q in range(nb[c]):
                dist[bucket[c, q]] = BIG
                closed[bucket[c, q]] = 0
    else:
        for k in range(ns):
            dist[k] = BIG
            closed[k] = 0
    for c in range(MAXB):
        nb[c] = 0
    nb[MAXB - 1] = 1 if budget < MAXB - 1 else 0
    for c in range(na_):
        step[8 * na_ + c] = 0  # anchor_steps not built
    wk[W_NOVICE, wk.shape[1] - 1] = 0  # the costs are the search's (cost_to)


@njit(cache=True, error_model="numpy", _nrt=False)
def estimate(fi, mp, cell, sc, s, occ, wk, nb, i, budget):
    """Greedy's fast search (option ``greedy_fast``): instead of :func:`reach`'s costs, a
    lower bound of them, the walking distance in steps of ``i``'s base from where he
    stands to every anchor within ``budget`` (eight neighbours, the anchors his base may
    stand on, :func:`mark_enter`; the squeeze past two obstacles, the extra costs and the
    facing costs left out but facing about's 1: each of them only adds to the cost), in
    W_NOVICE (flagged at its end) and the least-cost row, where :func:`cost_to` and
    :func:`least_cost_at` read it until the next search.
    A breadth-first search on rows of bits (W_QUEUE), as :func:`field`.  The plan chosen on
    it is then checked by :func:`astar` (:func:`fast_choice`)."""
    w = sc[S_W]
    h = sc[S_H]
    na_ = w * h
    mark_contacts(fi, s, sc, wk, i)
    mark_enter(fi, mp, cell, sc, s, occ, wk, i, ZERO)
    est = wk[W_NOVICE]  # (Novice Move is not weighed with the estimate)
    least = wk[W_STEP, 10 * na_ : 11 * na_]
    for c in range(na_):
        est[c] = BIG
        least[c] = BIG
    enter = wk[W_ENTER]
    ec = wk[W_EC]
    # W_QUEUE, h rows each: 0 free, 1 friend, 2 contact, 3 extra 1, 4 extra 2, 5 obstacle
    # (for diagonals, as anchor_steps: none stands on it, or a closed door); no friend
    # crossed: 6 ring, 7 touched, 8 due in one ring, 9 in two; a friend crossed (he may
    # not enter contact then, "Moving over friendly figurines"): 10-13; 14-19 the rings'
    # steps (no friend crossed, the same from anchors not in contact, a friend crossed),
    # each at cost 1 and at 2 (diagonally past one obstacle)
    q = wk[W_QUEUE]
    door = 1 if fi[i, F_TITAN] == 0 else 0  # opening a door (not in Moving Mode)
    titan = fi[i, F_TITAN]
    puny = fi[i, F_PUNY]
    for y in range(h):
        free = 0
        fr = 0
        con = 0
        x1 = 0
        x2 = 0
        ob = 0
        for x in range(w):  # (without branches: -1 has every bit set)
            e = enter[y * w + x]
            ok = 1 - ((e >> 63) & 1)  # 1: his base may stand there
            ob |= ((e >> 2) & 1) << x
            free |= ok << x
            fr |= (((e >> 3) & 1) & ok) << x
            con |= (ec[y * w + x] & ok) << x
            extra = ((e & 3) + door * ((e >> 2) & 1)) * ok
            x1 |= np.int64(extra == 1) << x
            x2 |= np.int64(extra >= 2) << x
        q[y] = free
        q[h + y] = fr
        q[2 * h + y] = con
        q[3 * h + y] = x1
        q[4 * h + y] = x2
        q[5 * h + y] = ob
        for r in range(6, 14):
            q[r * h + y] = 0
    x0 = s[i, S_X]
    y0 = s[i, S_Y]
    back = (s[i, S_FACE] + 2) & 3  # facing about costs 1 at least (steps never turn)
    if titan == 1:
        back = -1  # (a Titan turns freely once per square)
    est[est.shape[0] - 2] = back
    est[est.shape[0] - 1] = 1  # cost_to reads the estimate
    q[6 * h + y0] = 1 << x0
    q[7 * h + y0] = 1 << x0
    live = 1
    d = 0
    while True:
        lo = max(0, y0 - d)  # ring d lies within d rows of the start
        hi = min(h - 1, y0 + d)
        for y in range(lo, hi + 1):  # the anchors of ring d (either layer): cost d
            m = q[6 * h + y] | q[10 * h + y]
            while m != 0:
                low = m & -m
                a = y * w + BIT_AT[((low * DE_BRUIJN) >> 58) & 63]
                if est[a] == BIG:
                    least[a] = d
                    est[a] = d
                m ^= low
        d += 1
        if d > budget or live == 0:
            break
        live = 0
        lo = max(0, y0 - d)
        hi = min(h - 1, y0 + d)
        for y in range(lo, hi + 1):  # the steps into row y out of the rings (rows y, y +- 1)
            ob = q[5 * h + y]
            fr = q[h + y]
            a = q[6 * h + y]
            b = q[10 * h + y]
            cn = (a << 1) | (a >> 1)  # no friend crossed: at cost 1, 2 (past one obstacle)
            dn = 0
            cf = (b << 1) | (b >> 1)  # a friend crossed
            dfr = 0
            cc = 0  # no friend crossed, out of anchors not in contact (into a friend)
            dc = 0
            if fr != 0:
                a &= ~q[2 * h + y]
                cc = (a << 1) | (a >> 1)
            if y > 0:
                v1, v2, v3, v4, v5, v6 = rows_in(q, h, y - 1, ob, fr, titan)
                cn |= v1
                dn |= v2
                cf |= v3
                dfr |= v4
                cc |= v5
                dc |= v6
            if y < h - 1:
                v1, v2, v3, v4, v5, v6 = rows_in(q, h, y + 1, ob, fr, titan)
                cn |= v1
                dn |= v2
                cf |= v3
                dfr |= v4
                cc |= v5
                dc |= v6
            if puny == 1:  # (no extra cost diagonally past an obstacle)
                cn |= dn
                cf |= dfr
                cc |= dc
                dn = 0
                dfr = 0
                dc = 0
            q[14 * h + y] = cn
            q[15 * h + y] = dn
            q[16 * h + y] = cc
            q[17 * h + y] = dc
            q[18 * h + y] = cf
            q[19 * h + y] = dfr
        for y in range(lo, hi + 1):  # entered at cost 1 + its extra: due now, in 1 or 2
            free = q[y]
            fr = q[h + y]
            con = q[2 * h + y]
            x1 = q[3 * h + y]
            x2 = q[4 * h + y]
            x0_ = ~(x1 | x2)
            tn = q[7 * h + y]
            cn = q[14 * h + y] & free & ~fr & ~tn
            dn = q[15 * h + y] & free & ~fr & ~tn & ~cn
            seen = tn | q[11 * h + y] | cn  # touched at no higher cost (not dn: one more)
            cf = ((q[16 * h + y] & fr) | (q[18 * h + y] & free)) & ~con & ~seen
            df = ((q[17 * h + y] & fr) | (q[19 * h + y] & free)) & ~con & ~seen & ~dn & ~cf
            q[7 * h + y] = tn | cn | dn  # no friend crossed
            now = (cn & x0_) | q[8 * h + y]
            q[8 * h + y] = (cn & x1) | (dn & x0_) | q[9 * h + y]
            q[9 * h + y] = (cn & x2) | (dn & ~x0_)
            q[6 * h + y] = now
            live |= now | q[8 * h + y] | q[9 * h + y]
            q[11 * h + y] |= cf | df  # a friend crossed
            now = (cf & x0_) | q[12 * h + y]
            q[12 * h + y] = (cf & x1) | (df & x0_) | q[13 * h + y]
            q[13 * h + y] = (cf & x2) | (df & ~x0_)
            q[10 * h + y] = now
            live |= now | q[12 * h + y] | q[13 * h + y]


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def rows_in(q, h, ys, ob, fr, titan):
    """:func:`estimate`'s steps into a row (obstacles ``ob``, friends ``fr``) out of the
    rings of the row ``ys`` above or below it: up or down, and diagonally unless both
    squares beside the diagonal hold an obstacle (at cost 2 if one does); for the layer
    without a friend crossed, the one with, and the first one's anchors not in contact."""
    a = q[6 * h + ys]
    b = q[10 * h + ys]
    cn = a
    dn = 0
    cf = b
    dfr = 0
    cc = 0
    dc = 0
    oy = q[5 * h + ys]
    ol = oy | (ob << 1)  # obstacles beside a step up or down and right
    xl = oy ^ (ob << 1)  # exactly one of them
    orr = oy | (ob >> 1)  # the same, left
    xr = oy ^ (ob >> 1)
    if titan == 0:  # (a Titan never steps diagonally)
        cn |= ((a << 1) & ~ol) | ((a >> 1) & ~orr)
        dn = ((a << 1) & xl) | ((a >> 1) & xr)
        if b != 0:
            cf |= ((b << 1) & ~ol) | ((b >> 1) & ~orr)
            dfr = ((b << 1) & xl) | ((b >> 1) & xr)
    if fr != 0:
        a &= ~q[2 * h + ys]
        cc = a
        if titan == 0:
            cc |= ((a << 1) & ~ol) | ((a >> 1) & ~orr)
            dc = ((a << 1) & xl) | ((a >> 1) & xr)
    return cn, dn, cf, dfr, cc, dc


@njit(cache=True, error_model="numpy", _nrt=False)
def astar(fi, sc, s, wk, nb, i, goal, limit):
    """The exact least cost of ``i``'s Movement to anchor and facing of state ``goal`` if
    it is at most ``limit``, and the state reached (flags): :func:`reach`'s search (the
    same steps, turns, costs and dominance), its bucket queue ordered by the cost plus the
    Chebyshev distance from the anchor to the goal's (no step moves a base by more than a
    square, none costs less than 1, a turn does not move it: a lower bound that never
    falls by more than a step's cost, so the first state of the goal's anchor and facing
    taken has its least cost); states whose bound passes ``limit`` are not pushed.  Its
    parents are a cheapest path for :func:`follow`, not always :func:`reach`'s (which of
    equal-cost paths is found first).  Reads W_ENTER and W_EC as :func:`estimate` made
    them.  (BIG, -1) if the goal costs more than ``limit``."""
    w = sc[S_W]
    na_ = w * sc[S_H]
    ns = na_ * 4 * NFLAG
    clear_search(wk, nb, ns, na_, limit)
    dist = wk[W_DIST].view(np.int32)
    par = wk[W_PAR].view(np.int32)
    closed = dist[ns : 2 * ns]
    bucket = wk[W_BUCKET : W_BUCKET + MAXB]
    ec = wk[W_EC]
    step = wk[W_STEP]
    done = step[8 * na_ : 9 * na_]
    ta = goal // (NFLAG * 4)
    tf = (goal // NFLAG) & 3
    tx = ta % w
    ty = ta // w
    x0 = s[i, S_X]
    y0 = s[i, S_Y]
    titan = fi[i, F_TITAN]
    h0 = max(abs(x0 - tx), abs(y0 - ty))
    if titan == 0 and s[i, S_FACE] == ((tf + 2) & 3):
        h0 += 1  # (facing about costs 1 at least)
    if h0 > limit:
        return BIG, NEG
    st0 = sidx(w, x0, y0, s[i, S_FACE], ZERO)
    dist[st0] = 0
    par[st0] = NO_PARENT
    bucket[h0, 0] = st0
    nb[h0] = 1
    puny = fi[i, F_PUNY]
    door_extra = 1 if titan == 0 else 0
    cheb = step[11 * na_ : 12 * na_]  # the Chebyshev distance of every anchor to the goal's
    for y in range(sc[S_H]):
        dy = abs(y - ty)
        for x in range(w):
            cheb[y * w + x] = max(abs(x - tx), dy)
    delta = step[9 * na_ : 9 * na_ + 8]  # the anchor index step of each direction
    for d in range(8):
        delta[d] = ABS_DX[d] + w * ABS_DY[d]
    for fc in range(h0, limit + 1):
        q = 0
        while q < nb[fc]:
            st = bucket[fc, q]
            q += 1
            a = st // (NFLAG * 4)
            f = (st // NFLAG) & 3
            fl = st & (NFLAG - 1)
            hc = cheb[a]  # the anchor's part of the bound
            hh = hc
            if f != tf and titan == 0 and ((fl & 1) or f == ((tf + 2) & 3)):
                hh += 1  # a turn left to pay (steps never turn)
            cost = fc - hh
            if dist[st] != cost:
                continue
            if a == ta and f == tf:
                return np.int64(cost), np.int64(st)
            if cost == limit and (fl & 1):
                continue
            b0 = st - fl
            if fl != 0 and (closed[b0] == 1 or (fl == 3 and (closed[b0 + 1] or closed[b0 + 2]))):
                continue
            closed[st] = 1
            tc = 1 if (fl & 1) else 0
            for t in (1, 3, 2):  # turns: a quarter either way, then about
                f2 = (f + t) & 3
                c2 = cost + (1 if t == 2 else tc)
                k = c2 + hc + (1 if f2 != tf and titan == 0 else 0)  # (free turn used)
                if k <= limit:
                    st2 = (a * 4 + f2) * NFLAG + (fl | 1)
                    if c2 < dist[st2]:
                        dist[st2] = c2
                        par[st2] = st
                        bucket[k, nb[k]] = st2
                        nb[k] += 1
            if cost + 1 > limit:
                continue
            if done[a] == 0:
                anchor_steps(fi, sc, wk, i, a)
                done[a] = 1
            in_contact = ec[a] == 1
            nfl0 = fl & 2 if titan == 1 else fl
            nm = 8 if cost + 2 <= limit else 3
            row = 8 * a
            for m in range(nm):
                d = STEP_DIR[f, m]
                e = step[row + d]
                if e < 0:
                    continue
                c2 = cost + (1 if m < 3 else 2) + (e & 3)
                nfl = nfl0
                if e > 3:
                    if e & ST_DOOR:
                        if puny == 1 or m != 0:
                            continue
                        c2 += door_extra
                    if e & ST_FRIEND:
                        if in_contact:
                            continue
                        nfl |= 2
                    if (nfl & 2) and (e & ST_CONTACT):
                        continue
                a2 = a + delta[d]
                k = c2 + cheb[a2] + (hh - hc)  # (facing unchanged)
                if k <= limit:
                    st2 = (a2 * 4 + f) * NFLAG + nfl
                    if c2 < dist[st2]:
                        dist[st2] = c2
                        par[st2] = st
                        bucket[k, nb[k]] = st2
                        nb[k] += 1
    return BIG, NEG


@njit(cache=True, error_model="numpy", _nrt=False)
def fast_choice(fi, sc, s, wk, nb, plans, npl, i):
    """Greedy's choice on :func:`estimate`'s costs (option ``greedy_fast``): the best plan
    (:func:`best_plan`) whose destination :func:`astar` reaches within the plan's
    Movement (Basic Move, Sacrifice and an Objective: the budget; the other Modes: the
    Movement), its destination set to the state found (an Objective's Moving Mode by its
    exact cost); a plan out of reach is dropped and the next best tried, three at most;
    -1 if none was reached (greedy's exact choice then)."""
    w = sc[S_W]
    mv = movement_now(fi, s, i)
    if s[i, S_STOPPED] > 0:
        mv = 0
    budget = mv + (2 if level_now(fi, s, i, COL_MV) >= 1 else 0)
    if s[i, S_STOPPED] > 0:
        budget = 0
    a0 = s[i, S_Y] * w + s[i, S_X]
    for _t in range(3):
        k = best_plan(fi, sc, plans, npl, i)
        kind = plans[k, P_KIND]
        if plans[k, P_SCORE_X1000] == -BIG:
            return NEG
        dest = plans[k, P_DEST]
        a = dest // (NFLAG * 4)
        if kind == K_NOTHING or (kind == K_STRIKE and a == a0):
            return k  # no Movement (a strike from where he stands turns him only)
        far = (kind == K_MOVE and plans[k, P_LEVEL] == 1) or kind == K_SACRIFICE
        limit = budget if far or kind == K_OBJECTIVE else mv
        c, st = astar(fi, sc, s, wk, nb, i, dest, limit)
        if st >= 0:
            plans[k, P_DEST] = st
            if kind == K_OBJECTIVE:
                plans[k, P_LEVEL] = 1 if c > mv else 0
            return k
        plans[k, P_SCORE_X1000] = -BIG
    return NEG


@njit(cache=True, error_model="numpy", _nrt=False)
def plans_for(fi, mp, cell, sc, tab, s, g, occ, wk, nb, plans, i, prune, fast):
    """Every activation the greedy policy considers for ``i``, each with its worth.

    ``prune`` (greedy's own choice, :func:`best_plan` of the list): a Firing or ambush plan
    whose upper bound scores below the best plan so far is not evaluated (no sightlines):
    it could not be chosen, so the choice is the same (random and strong use every plan);
    so are the Novice Move plans (no Novice search) and the Basic Move plans past the
    Movement (the search goes no further than it) when their bound, the progress to the
    goal from where he stands, is below it, and every anchor whose plans' bound (its
    progress plus the most any kind of plan adds to it) is below the best so far.  Only
    plans that score below the best are left out, so greedy's choice is that of the full
    list (unless more than ``MAXPLANS`` plans tie for the best score).

    ``fast`` (option ``greedy_fast``, with ``prune``): the costs are :func:`estimate`'s lower
    bounds, to the budget, no Novice Move plans; :func:`fast_choice` checks the choice."""
    w = sc[S_W]
    h = sc[S_H]
    z = fi[i, F_SIZE]
    npl = 0
    enemy_table(fi, s, wk, i)
    mv = movement_now(fi, s, i)
    if s[i, S_STOPPED] > 0:
        mv = 0
    mvl = level_now(fi, s, i, COL_MV)
    budget = mv + (2 if mvl >= 1 else 0)
    if s[i, S_STOPPED] > 0:
        budget = 0
    # Moving Mode's levels 2-6 ("Moving"); a victim of Skilled or Expert Move has none
    ml = (sc[S_MOVE_LEVELS] >> fi[i, F_SIDE]) & 1 == 1 and s[i, S_STOPPED] == 0 and mv > 0
    novice = ml and mvl >= 2 and not fast and shove_near(fi, s, i, mv)
    goal = 1 if sc[S_OBJ_NEED] > 0 and fi[i, F_RANK] >= 1 else 0
    # prune: the costs past the Movement serve only Basic Move plans here (no Objective,
    # no Sacrifice); the search goes no further than mv until they are known to be worth
    # it (below): ``lim`` is the cost up to which its states are those of the full search
    cut = prune and goal == 0 and fi[i, F_SACRIFICE] == 0 and budget > mv
    lim = mv if cut else budget
    if novice and not prune:  # its own search first (execute follows the last one's paths)
        novice_search(fi, mp, cell, sc, s, occ, wk, nb, i, mv)
    if fast:
        estimate(fi, mp, cell, sc, s, occ, wk, nb, i, budget)
    else:
        reach(fi, mp, cell, sc, s, occ, wk, nb, i, lim, ZERO, ZERO)
    clear_fire_table(fi, wk)
    amb_w = 0.0
    if sc[S_SKILLED_FIRING] == 1 and fi[i, F_F] > 0 and level_now(fi, s, i, COL_F) >= 3:
        amb_w = ambush_worth(fi, s, tab, sc, wk, i)
    seek_amb = amb_w > 0.0 and (sc[S_AMBUSH_SEEK] >> fi[i, F_SIDE]) & 1 == 1
    ev_w = 0.0  # Event counters sought (option event_seek): worth of ending on one
    if g[G_EV_LEFT] > 0 and g[G_EV_LAST] != fi[i, F_SIDE] + 1:
        if (sc[S_EVENT_SEEK] >> fi[i, F_SIDE]) & 1 == 1:
            ev_w = event_value(fi, sc, tab, s, g, i)
    field(fi, mp, cell, sc, s, wk, i, goal)
    here = field_at(fi, sc, wk, i, s[i, S_X], s[i, S_Y])
    x0 = s[i, S_X]
    y0 = s[i, S_Y]
    f0 = s[i, S_FACE]
    # melee: a base in front contact with an enemy
    if fi[i, F_OC] > 0:
        for j in range(fi.shape[0]):
            if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
                continue
            for f in range(4):
                for k in range(-(z - 1), fi[j, F_SIZE]):  # anchors whose front touches j
                    ax, ay, st = contact_anchor(fi, mp, s, occ, sc, wk, i, j, f, k, mv, YES)
                    if st < 0:
                        continue
                    # position the warrior to evaluate, then restore
                    s[i, S_X] = ax
                    s[i, S_Y] = ay
                    s[i, S_FACE] = f
                    rear = from_rear(fi, s, j, i)
                    lv, v = best_strike_level(fi, s, tab, sc, g, i, j, rear)
                    v -= 0.15 * danger(fi, wk, i, ax, ay)
                    s[i, S_X] = x0
                    s[i, S_Y] = y0
                    s[i, S_FACE] = f0
                    if lv > 0:
                        npl = add_plan(plans, npl, K_STRIKE, lv, st, j, v + 0.01)
    # Skilled and Expert Move: into front contact with an enemy to stop him
    if ml and mvl >= 3:
        for j in range(fi.shape[0]):
            lv = 4 if mvl >= 4 and can_intercept(fi, mp, cell, occ, s, sc, i, j, np.int64(4)) else 3
            if not can_intercept(fi, mp, cell, occ, s, sc, i, j, lv):
                continue
            gain = intercept_value(fi, s, tab, sc, g, i, j, lv)
            if gain <= 0.0:
                continue
            bv = -1e9
            bst = -1
            for f in range(4):
                for k in range(-(z - 1), fi[j, F_SIZE]):
                    ax, ay, st = contact_anchor(fi, mp, s, occ, sc, wk, i, j, f, k, mv, NO)
                    if st < 0:
                        continue
                    _d, prog = progress(fi, sc, wk, i, ax, ay, here)
                    v = gain + prog - 0.1 * danger(fi, wk, i, ax, ay)
                    if v > bv:
                        bv = v
                        bst = st
            if bst >= 0:
                npl = add_plan(plans, npl, K_MOVE, lv, bst, j, bv)
    # sacrifice: Basic Move into contact, then explode ("Sacrifice/X")
    if fi[i, F_SACRIFICE] > 0 and mvl >= 1 and s[i, S_STOPPED] != 4:
        for j in range(fi.shape[0]):
            if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
                continue
            left = fi[j, F_NV] - s[j, S_WOUNDS]
            xw = fi[i, F_SACRIFICE] if fi[i, F_SACRIFICE] < left else left
            v = xw * (1.0 + fi[j, F_POINTS] / 20.0) + (left if xw >= left else 0)
            v -= (fi[i, F_NV] - s[i, S_WOUNDS]) * (1.0 + fi[i, F_POINTS] / 20.0) * 1.2
            if v <= 0:
                continue
            best = BIG
            bst = -1
            zj = fi[j, F_SIZE]  # the anchors touching j lie within z of his base
            for y in range(max(0, s[j, S_Y] - z), min(h - z, s[j, S_Y] + zj) + 1):
                for x in range(max(0, s[j, S_X] - z), min(w - z, s[j, S_X] + zj) + 1):
                    if not touching_at(x, y, z, s[j, S_X], s[j, S_Y], zj):
                        continue
                    for f in range(4):
                        c, st = cost_to(wk, w, x, y, f)
                        if c < best and end_ok(fi, mp, s, occ, i, x, y):
                            best = c
                            bst = st
            if bst >= 0 and best <= budget:
                npl = add_plan(plans, npl, K_SACRIFICE, 1, bst, j, v)
    # firing, defending and moving: every reachable anchor, facing the nearest enemy
    can_fire = fi[i, F_F] > 0
    bi = -BIG  # prune: the best score x 1000 so far, and the best any shot of i can score
    fire_ub = 0.0
    if prune:
        for k in range(npl):
            if plans[k, P_SCORE_X1000] > bi:
                bi = plans[k, P_SCORE_X1000]
        top = level_now(fi, s, i, COL_F) if can_fire else 0
        for j in range(fi.shape[0] if top > 0 else 0):  # the best any shot can score:
            # fire_table's values do not depend on where i stands, fall with rockfall
            if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
                continue
            for lv in (6, 5, 4, 2, 1):
                if lv <= top:
                    fv = fire_table(fi, s, tab, sc, wk, i, j, np.int64(lv), ZERO)
                    fire_ub = max(fire_ub, fv)
        # a Basic Move plan past the Movement scores at most its progress, 0.12 x here:
        # if that could beat the best so far, the search is made again to the budget
        if cut and (ev_w > 0.0 or int((0.12 * here if here < BIG else 0.0) * 1000) >= bi):
            if not fast:  # (the estimate went to the budget)
                reach(fi, mp, cell, sc, s, occ, wk, nb, i, budget, ZERO, ZERO)
            lim = budget
        # a Novice Move plan scores at most its progress, 0.12 x here (progress)
        if novice and int((0.12 * here if here < BIG else 0.0) * 1000) < bi:
            novice = False
    if novice and prune:  # greedy: the Novice search now, then the plain one again
        novice_search(fi, mp, cell, sc, s, occ, wk, nb, i, mv)
        reach(fi, mp, cell, sc, s, occ, wk, nb, i, budget, ZERO, ZERO)
        lim = budget
    # prune: no plan of an anchor scores more than its progress plus ``extra`` (each kind's
    # worth beyond the progress: a shot at most fire_ub, an ambush at most twice amb_w,
    # danger at most the count of enemies who could come into contact), so an anchor
    # whose bound is below the best so far gives no plan that could be chosen
    dgmax = float(wk[W_ENEMY, 1 + 2 * fi.shape[0]])
    extra = fire_ub if can_fire else 0.0
    if amb_w > 0.0:
        extra = max(extra, 2.0 * amb_w if seek_amb else amb_w)
    if fi[i, F_DC] > 0:
        extra = max(extra, 0.05 * dgmax)
    if ml and mvl >= 5:
        extra = max(extra, 0.04 * dgmax)
        if mvl >= 6:
            extra = max(extra, 0.06 * (fi[i, F_NV] - s[i, S_WOUNDS]))
    # lim = mv < budget: the anchors past mv and those whose facing toward the enemy costs
    # more than mv (it costs at most mv + 1 <= budget: a turn from a facing within mv) would
    # only give Basic Move plans past the Movement, which score below bi (above): left out
    for y in range(h - z + 1):
        for x in range(w - z + 1):
            near = least_cost_at(wk, w, x, y) <= lim
            if not (near or novice) or not end_ok(fi, mp, s, occ, i, x, y):
                continue
            if novice:  # squares only Novice Move reaches within the Movement
                a = y * w + x
                if wk[W_NOVICE, 2 * a] <= mv and least_cost_at(wk, w, x, y) > mv:
                    _d, prog = progress(fi, sc, wk, i, x, y, here)
                    dg = danger(fi, wk, i, x, y)
                    v = prog - 0.1 * dg
                    npl = add_plan(plans, npl, K_MOVE, 2, wk[W_NOVICE, 2 * a + 1], -1, v)
                    bi = max(bi, int(v * 1000))
                if not near:
                    continue
            dist, prog = progress(fi, sc, wk, i, x, y, here)
            on_ev = ev_w > 0.0 and event_under(sc, cell, z, x, y)
            if prune and not (goal == 1 and dist == 0):
                if int(((prog + ev_w if on_ev else prog) + extra) * 1000) < bi:
                    continue
            c, st, fbest = facing_state(fi, s, wk, w, i, x, y, budget if lim == budget else BIG)
            if fbest < 0 or c > lim:
                continue
            if goal == 1 and dist == 0:
                v = 50.0 - 0.1 * c
                npl = add_plan(plans, npl, K_OBJECTIVE, 1 if c > mv else 0, st, -1, v)
                bi = max(bi, int(v * 1000))
            dg = danger(fi, wk, i, x, y)
            if on_ev:
                prog += ev_w  # every plan ending on the counter may activate it
            if c <= mv:
                if can_fire and (not prune or int((fire_ub + prog - 0.1 * dg) * 1000) >= bi):
                    s[i, S_X] = x
                    s[i, S_Y] = y
                    s[i, S_FACE] = fbest
                    lv, j, v = best_fire(fi, mp, cell, occ, s, sc, tab, wk, i)
                    s[i, S_X] = x0
                    s[i, S_Y] = y0
                    s[i, S_FACE] = f0
                    if lv > 0:
                        v = v + prog - 0.1 * dg
                        npl = add_plan(plans, npl, K_FIRE, lv, st, j, v)
                        bi = max(bi, int(v * 1000))
                skip = prune and not seek_amb and int((amb_w + prog - 0.1 * dg) * 1000) < bi
                if amb_w > 0.0 and not skip:  # Skilled Firing: an ambush, no enemy in sight
                    s[i, S_X] = x
                    s[i, S_Y] = y
                    s[i, S_FACE] = fbest
                    ok = ambush_ok(fi, mp, cell, occ, s, sc, i)
                    aw = ambush_spot(fi, s, tab, sc, wk, i, amb_w) if ok and seek_amb else amb_w
                    s[i, S_X] = x0
                    s[i, S_Y] = y0
                    s[i, S_FACE] = f0
                    if ok and aw > 0.0:
                        v = aw + prog - 0.1 * dg
                        npl = add_plan(plans, npl, K_AMBUSH, 3, st, -1, v)
                        bi = max(bi, int(v * 1000))
                if fi[i, F_DC] > 0:
                    v = prog + 0.05 * dg
                    npl = add_plan(plans, npl, K_DEFEND, 0, st, -1, v)
                    bi = max(bi, int(v * 1000))
            else:
                v = prog - 0.1 * dg
                npl = add_plan(plans, npl, K_MOVE, 1, st, -1, v)
                bi = max(bi, int(v * 1000))
            if ml and mvl >= 5 and c <= mv and (x != x0 or y != y0):
                # Master Move: -2 to those who strike or fire at him; Heroic Move: a further
                # current-NV squares at the Round's end (half their worth: it comes later)
                v5 = prog + 0.04 * dg
                v6 = prog - 0.1 * dg + 0.06 * (fi[i, F_NV] - s[i, S_WOUNDS]) if mvl >= 6 else -1e9
                v = max(v5, v6)
                npl = add_plan(plans, npl, K_MOVE, 6 if v6 > v5 else 5, st, -1, v)
                bi = max(bi, int(v * 1000))
    if npl == 0:
        npl = add_plan(plans, npl, K_NOTHING, 0, sidx(w, x0, y0, f0, ZERO), -1, 0.0)
    return npl


@njit(cache=True, error_model="numpy", _nrt=False)
def plan_rank(fi, sc, plans, i, k):
    """Where plan ``k``'s destination comes in the scan of the board seen from ``i``'s
    side (side B's turned half-way round), facing included: equal scores go to the
    lowest rank, so mirror positions on a mirror board choose mirror plans."""
    w = sc[S_W]
    z = fi[i, F_SIZE]
    dest = plans[k, P_DEST]
    a = dest // (NFLAG * 4)
    f = (dest // NFLAG) % 4
    x = a % w
    y = a // w
    if fi[i, F_SIDE] == 1:
        x = w - z - x
        y = sc[S_H] - z - y
        f = (f + 2) % 4
    return (y * w + x) * 4 + f


@njit(cache=True, error_model="numpy", _nrt=False)
def plan_better(fi, sc, plans, i, k, b):
    """Plan ``k`` beats plan ``b``: a higher score, or the same and a lower
    :func:`plan_rank`."""
    if plans[k, P_SCORE_X1000] != plans[b, P_SCORE_X1000]:
        return plans[k, P_SCORE_X1000] > plans[b, P_SCORE_X1000]
    return plan_rank(fi, sc, plans, i, k) < plan_rank(fi, sc, plans, i, b)


@njit(cache=True, error_model="numpy", _nrt=False)
def best_plan(fi, sc, plans, npl, i):
    b = ZERO
    for k in range(1, npl):
        if plan_better(fi, sc, plans, i, k, b):
            b = k
    return b


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def random_plan(fi, mp, cell, sc, tab, s, g, occ, wk, nb, plans, rng, i):
    """The random policy: a uniformly chosen legal activation among the considered ones."""
    npl = plans_for(fi, mp, cell, sc, tab, s, g, occ, wk, nb, plans, i, NO, NO)
    k = pick(rng, np.int64(npl))
    if plans[k, P_KIND] == K_STRIKE:
        top = level_now(fi, s, i, COL_OC)
        plans[k, P_LEVEL] = 1 + pick(rng, np.int64(top if top < 6 else 6))
    return k


@njit(cache=True, error_model="numpy", _nrt=False)
def execute(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, plans, k, i):
    """Carry out plan ``k`` of warrior ``i`` ("Choosing an Action Mode": Moving Mode is
    declared with its level before the first step, the other Modes' level after it)."""
    kind = plans[k, P_KIND]
    lv = plans[k, P_LEVEL]
    dest = plans[k, P_DEST]
    j = plans[k, P_TARGET]
    side = fi[i, F_SIDE]
    w = sc[S_W]
    moving = kind == K_MOVE or kind == K_SACRIFICE or (kind == K_OBJECTIVE and lv == 1)
    mode = M_MOVE if moving else M_NONE
    if kind == K_STRIKE:
        mode = M_OC
    elif kind == K_FIRE or kind == K_AMBUSH:
        mode = M_FIRE
    elif kind == K_DEFEND:
        mode = M_DC
    s[i, S_MODE] = mode
    s[i, S_LEVEL] = (lv if kind == K_MOVE else 1) if moving else 0
    log(g, ev, E_ACTIVATE, side, i, mode, s[i, S_LEVEL], 0, 0, 0, 0, 0, 0)
    a = dest // (NFLAG * 4)
    x = a % w
    y = a // w
    f = (dest // NFLAG) % 4
    x0 = s[i, S_X]
    y0 = s[i, S_Y]
    f0 = s[i, S_FACE]
    if kind == K_STRIKE and x == s[i, S_X] and y == s[i, S_Y]:
        s[i, S_FACE] = f  # turns to face a foe already in contact ("Offensive Combat")
    elif x != s[i, S_X] or y != s[i, S_Y] or f != s[i, S_FACE]:
        if kind == K_MOVE and lv >= 2:
            if lv == 2:  # the Novice Move search again (plans_for ended with the plain one)
                reach(fi, mp, cell, sc, s, occ, wk, nb, i, movement_now(fi, s, i), ONE, ONE)
            walk_in_mode(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, i, dest, lv, j)
        else:
            follow(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, i, dest, 1 if moving else 0)
    if s[i, S_ALIVE] == 0:
        return
    if sc[S_CLOSE_DOORS] == 1 and (kind == K_DEFEND or kind == K_AMBUSH or kind == K_MOVE):
        if s[i, S_STOPPED] == 0 and (kind != K_MOVE or lv <= 1):
            left = move_budget(fi, s, i, lv if kind == K_MOVE else 0)
            if x != x0 or y != y0 or f != f0:
                left -= cost_to(wk, w, x, y, f)[0]
            close_doors(fi, mp, cell, occ, s, sc, g, ev, i, left)
    if kind == K_STRIKE:
        if j >= 0 and s[j, S_ALIVE] == 1 and side_of(fi, s, i, j) == s[i, S_FACE]:
            comb = can_combine(fi, s, g, i)
            strike_action(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, i, j, lv, comb)
    elif kind == K_FIRE:
        shots = 2 if lv == 6 else 1
        for sh in range(shots):
            clear_fire_table(fi, wk)
            _bl, bj, _bv = best_fire(fi, mp, cell, occ, s, sc, tab, wk, i)
            keep = sh == 0 and j >= 0 and fire_ok(fi, mp, cell, occ, s, sc, i, j, lv) >= 0
            tj = j if keep else bj
            if tj < 0 or fire_ok(fi, mp, cell, occ, s, sc, i, tj, lv) < 0:
                break
            shoot(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, i, tj, lv, 1 if sh == 1 else 0)
    elif kind == K_AMBUSH:
        go_into_ambush(fi, mp, cell, occ, s, sc, g, ev, i)
    elif kind == K_DEFEND:
        log(g, ev, E_DEFEND, side, i, 0, 0, 0, 0, 0, 0, 0, 0)
    elif kind == K_SACRIFICE:
        sacrifice(fi, s, g, occ, ev, i, j)
    if g[G_PURULENT + side] == 1 and fi[i, F_MUTATION] > 0:
        mutate(fi, sc, s, g, occ, ev, i)
        if s[i, S_ALIVE] == 0:
            return
    carry_out(fi, sc, cell, s, g, ev, i)
    if g[G_EV_LEFT] > 0:
        event_counter(fi, sc, tab, s, g, occ, cell, dc, rng, ev, i)


@njit(cache=True, error_model="numpy", _nrt=False)
def sacrifice(fi, s, g, occ, ev, i, j):
    """ "Sacrifice/X": in Moving Mode (Basic Move) and in base contact with the enemy
    ``j``, the creature explodes: it is removed and ``j`` takes X wounds (no parry); no
    Action Card, no First Blood."""
    if j < 0 or s[j, S_ALIVE] == 0 or not touching(fi, s, i, j):
        return
    g[G_SACRIFICES] += 1
    log(g, ev, E_SACRIFICE, fi[i, F_SIDE], i, j, fi[i, F_SACRIFICE], 0, 0, 0, 0, 0, 0)
    left = fi[i, F_NV] - s[i, S_WOUNDS]
    wound(fi, s, g, occ, ev, i, left, np.int64(-1), np.int64(3))
    wound(fi, s, g, occ, ev, j, fi[i, F_SACRIFICE], i, np.int64(3))


# =========================================================== rounds
@njit(cache=True, error_model="numpy")
def side_order(fi, mp, cell, sc, s, seq, rng, side, pol, row):
    """ "Activation": the side's secret Activation Sequence for this Round, from the public
    state only, into ``seq[row]``: random, or (greedy, strong) warriors nearest the enemy
    first.  Row ``side`` holds the sequence played, row ``2 + side`` the guess of it that
    the strong enemy makes at the Round's start (greedy's rule, public positions)."""
    n = 0
    keys = np.empty(fi.shape[0], dtype=np.float64)
    for i in range(fi.shape[0]):
        seq[row, i] = -1
    for i in range(fi.shape[0]):
        if fi[i, F_SIDE] == side and s[i, S_ALIVE] == 1:
            seq[row, n] = i
            if pol == POL_RANDOM:
                keys[n] = float(next_u64(rng) >> np.uint64(11))
            else:
                near = 1e9
                for j in range(fi.shape[0]):
                    if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != side:
                        d = float(chebyshev(fi, s, i, j))
                        if d < near:
                            near = d
                keys[n] = near - 0.01 * fi[i, F_NV] + 0.0001 * i
            n += 1
    # insertion sort by key
    for a in range(1, n):
        k = keys[a]
        v = seq[row, a]
        b = a - 1
        while b >= 0 and keys[b] > k:
            keys[b + 1] = keys[b]
            seq[row, b + 1] = seq[row, b]
            b -= 1
        keys[b + 1] = k
        seq[row, b + 1] = v
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def activation_roll(g, dc, rng):
    """ "Activation": each player rolls a D10, the lower result wins; equal: roll again."""
    while True:
        a = d10(g, dc, rng)
        b = d10(g, dc, rng)
        if a != b:
            return (0 if a < b else 1), a, b


@njit(cache=True, error_model="numpy", _nrt=False)
def next_in_sequence(s, seq, side, pos):
    """The next living, not yet activated warrior of ``side``'s sequence from ``pos``: a
    warrior destroyed before acting is replaced by the next ("Activation" FAQ)."""
    p = pos
    while p < seq.shape[1] and seq[side, p] >= 0:
        i = seq[side, p]
        if s[i, S_ALIVE] == 1 and s[i, S_DONE] == 0:
            return i, p
        p += 1
    return -1, p


@njit(cache=True, error_model="numpy", _nrt=False)
def alive_count(fi, s, side):
    n = 0
    for i in range(fi.shape[0]):
        if fi[i, F_SIDE] == side and s[i, S_ALIVE] == 1:
            n += 1
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def nv_left(fi, s, side):
    t = 0
    for i in range(fi.shape[0]):
        if fi[i, F_SIDE] == side and s[i, S_ALIVE] == 1:
            t += fi[i, F_NV] - s[i, S_WOUNDS]
    return t


@njit(cache=True, error_model="numpy", _nrt=False)
def check_end(fi, sc, s, g):
    """ "End of Game": the side that carried out all its objectives wins (elimination of
    the enemy is every mission's objective here); both eliminated: a draw."""
    if g[G_END] >= 0:
        return
    a = alive_count(fi, s, SIDE_A)
    b = alive_count(fi, s, SIDE_B)
    need = sc[S_OBJ_NEED]
    if need > 0:
        oa = g[G_OBJ_A] >= need
        ob = g[G_OBJ_A + 1] >= need
        if oa or ob:
            g[G_END] = END_OBJECTIVES
            g[G_WINNER] = 0 if (oa and ob) else (1 if oa else 2)
            return
    if a == 0 or b == 0:
        g[G_END] = END_ELIMINATION
        g[G_WINNER] = 0 if a == b else (1 if a > 0 else 2)


@njit(cache=True, error_model="numpy", _nrt=False)
def begin_turn(fi, s, g, ev, i):
    """The start of an Activation: the previous Mode ends ("Defensive Combat": until the
    next activation), Skilled Firing is left; a bearer switches his Aura on ("Aura/X":
    declared when he is activated; the policies always keep the Aura of Vengeance on)."""
    s[i, S_DONE] = 1
    g[G_ACT] += 1
    leave_ambush(fi, s, g, ev, i, np.int64(4))
    s[i, S_MODE] = M_NONE
    s[i, S_LEVEL] = 0
    if s[i, S_AURA] == 1:
        s[i, S_AURA] = 2
        log(g, ev, E_AURA, fi[i, F_SIDE], i, 2, 0, 0, 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def activate(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, plans, i, pol):
    """One warrior's turn: his previous Mode ends ("Defensive Combat": until the next
    activation), the policy chooses, the plan is carried out.  ``greedy_fast`` applies to
    a greedy side only: the strong policy ranks the exact greedy's plans, so its own
    warriors play the exact greedy in its rollouts too (one greedy for the plan list and
    the rollouts), while the rollouts' greedy enemy plays as that side's policy does."""
    begin_turn(fi, s, g, ev, i)
    if pol == POL_RANDOM:
        k = random_plan(fi, mp, cell, sc, tab, s, g, occ, wk, nb, plans, rng, i)
    else:
        k = NEG
        side = fi[i, F_SIDE]
        fast = (sc[S_GREEDY_FAST] >> side) & 1 == 1 and sc[S_POL_A + side] != POL_STRONG
        if pol == POL_GREEDY and fast:
            npl = plans_for(fi, mp, cell, sc, tab, s, g, occ, wk, nb, plans, i, YES, YES)
            k = fast_choice(fi, sc, s, wk, nb, plans, npl, i)
        if k < 0:
            npl = plans_for(fi, mp, cell, sc, tab, s, g, occ, wk, nb, plans, i, YES, NO)
            k = best_plan(fi, sc, plans, npl, i)
    execute(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, plans, k, i)
    reveal(fi, mp, cell, occ, s, sc)
    check_end(fi, sc, s, g)


@njit(cache=True, error_model="numpy", _nrt=False)
def nv_margin(fi, s, side):
    """Rollout score: points-weighted NV left, own minus enemy's."""
    t = 0.0
    for i in range(fi.shape[0]):
        if s[i, S_ALIVE] == 1:
            v = (fi[i, F_NV] - s[i, S_WOUNDS]) * (1.0 + fi[i, F_POINTS] / 20.0) + 2.0
            t += v if fi[i, F_SIDE] == side else -v
    return t


@njit(cache=True, error_model="numpy", _nrt=False)
def rollout_score(fi, s, g, side):
    """A rollout's worth for ``side``: :func:`nv_margin`, + 10 per Objective carried out
    more than the enemy ("Scenario Objectives"), + or - 100 for a game won or lost."""
    v = nv_margin(fi, s, side) + 10.0 * (g[G_OBJ_A + side] - g[G_OBJ_A + 1 - side])
    if g[G_END] >= 0 and g[G_WINNER] > 0:
        v += 100.0 if g[G_WINNER] == side + 1 else -100.0
    return v


@njit(cache=True, error_model="numpy", inline="always")
def round_play(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, plans):
    """ "Game Round": Activation Roll, the two secret sequences, alternating activations."""
    g[G_ROUND] += 1
    for i in range(fi.shape[0]):
        s[i, S_DONE] = 0
    if g[G_NAMBUSH] > 0:  # "3 / Skilled Firing": a counter kept leaves the sequence
        for i in range(fi.shape[0]):
            if s[i, S_AMBUSH] > 0:
                if keep_ambush(fi, s, i):
                    s[i, S_DONE] = 1
                else:
                    leave_ambush(fi, s, g, ev, i, np.int64(4))
    win, ra, rb = activation_roll(g, dc, rng)
    first = win if sc[S_WINNER_CHOOSES] == 1 else 1 - win
    if g[G_ROUND] == 1:
        if sc[S_FORCED] >= 0:
            first = sc[S_FORCED]
        elif sc[S_FIRST] == 1:
            first = g[G_FIRST1]
        elif sc[S_FIRST] == 2:
            first = 0
        elif sc[S_FIRST] == 3:
            first = 1
        g[G_FIRST1] = first
    g[G_FIRST] = first
    log(g, ev, E_ROLL, 0, ra, rb, win, first, 0, 0, 0, 0, 0)
    guess = sc[S_POL_A] == POL_STRONG or sc[S_POL_A + 1] == POL_STRONG
    for side in range(2):
        side_order(fi, mp, cell, sc, s, seq, rng, side, sc[S_POL_A + side], side)
        if guess:
            side_order(fi, mp, cell, sc, s, seq, rng, side, GREEDY, 2 + side)
    for side in range(2):
        if sc[S_POL_A + side] == POL_STRONG and sc[S_LOOK_ORDER] == 1:
            strong_order(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, plans, side)
        n = alive_count(fi, s, np.int64(side))
        log(
            g, ev, E_SEQ, side, n, seq[side, 0], seq[side, 1], seq[side, 2], seq[side, 3],
            seq[side, 4], seq[side, 5], seq[side, 6], seq[side, 7],
        )  # fmt: skip
    pos = np.zeros(2, dtype=np.int64)
    side = first
    while g[G_END] < 0:
        i, p = next_in_sequence(s, seq, side, pos[side])
        if i < 0:
            o, _po = next_in_sequence(s, seq, 1 - side, pos[1 - side])
            if o < 0:
                break
            side = 1 - side
            continue
        pos[side] = p + 1
        pol = sc[S_POL_A + side]
        if g[G_ROLL] == 1:
            pol = POL_GREEDY
        if pol == POL_STRONG:
            strong_activate(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, plans, i)
        else:
            activate(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, plans, i, pol)
        if g[G_CHECK] == 1:
            check(fi, mp, sc, s, g, occ)
        side = 1 - side
    if g[G_END] < 0:
        heroic_moves(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, first)
        infiltration_moves(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, first)
    # end of Round: Skilled and Expert Move stops last for the rest of the Round
    for i in range(fi.shape[0]):
        s[i, S_STOPPED] = 0
    if g[G_END] < 0 and g[G_ROUND] >= sc[S_ROUNDS]:
        g[G_END] = END_ROUNDS
        g[G_WINNER] = 0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def heroic_moves(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, first):
    """ "6 / Heroic Move" at the end of the Round: each warrior in Heroic Move not stopped
    by Skilled or Expert Move moves again, in Activation Sequence order, the side that
    activated first leading (:func:`heroic_dash`)."""
    for k in range(seq.shape[1]):
        for t in range(2):
            side = first if t == 0 else 1 - first
            i = seq[side, k]
            if i < 0 or s[i, S_ALIVE] == 0 or s[i, S_STOPPED] > 0:
                continue
            if s[i, S_MODE] == M_MOVE and s[i, S_LEVEL] == 6:
                heroic_dash(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, i)


@njit(cache=True, error_model="numpy", _nrt=False)
def goal_state(fi, mp, cell, sc, s, occ, wk, i, budget):
    """After :func:`reach`: the state of the square within ``budget`` nearest greedy's
    goal (:func:`field`), facing the nearest enemy where it can; -1 if none is nearer
    than where ``i`` stands (equal: the cheaper)."""
    w = sc[S_W]
    z = fi[i, F_SIZE]
    goal = 1 if sc[S_OBJ_NEED] > 0 and fi[i, F_RANK] >= 1 else 0
    enemy_table(fi, s, wk, i)
    field(fi, mp, cell, sc, s, wk, i, goal)
    best = field_at(fi, sc, wk, i, s[i, S_X], s[i, S_Y])
    bc = 0
    bst = -1
    for y in range(sc[S_H] - z + 1):
        for x in range(w - z + 1):
            if least_cost_at(wk, w, x, y) > budget or not end_ok(fi, mp, s, occ, i, x, y):
                continue
            c, st, f = facing_state(fi, s, wk, w, i, x, y, budget)
            d = field_at(fi, sc, wk, i, x, y)
            if f >= 0 and (d < best or (d == best and bst >= 0 and c < bc)):
                best = d
                bc = c
                bst = st
    return bst


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def heroic_dash(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, i):
    """Heroic Move's further movement of current-NV squares (still in Moving Mode: doors
    free), to the reachable square nearest greedy's goal (:func:`goal_state`); none if
    no square is nearer."""
    budget = fi[i, F_NV] - s[i, S_WOUNDS]
    reach(fi, mp, cell, sc, s, occ, wk, nb, i, budget, ONE, ZERO)
    bst = goal_state(fi, mp, cell, sc, s, occ, wk, i, budget)
    if bst >= 0:
        log(g, ev, E_DASH, fi[i, F_SIDE], i, 0, 0, 0, 0, 0, 0, 0, 0)
        follow(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, i, bst, ONE)


@njit(cache=True, error_model="numpy", _nrt=False)
def reveal(fi, mp, cell, occ, s, sc):
    """ "Infiltration/X" is lost for the rest of the game as soon as the warrior comes
    within an enemy's line of sight (field of vision, no warrior in the way) or base
    contact (the FAQ: contact gives the enemy a line of sight)."""
    for i in range(fi.shape[0]):
        if fi[i, F_INFILTRATION] == 0 or s[i, S_INFIL_LOST] == 1 or s[i, S_ALIVE] == 0:
            continue
        if in_enemy_contact(fi, s, i):
            s[i, S_INFIL_LOST] = 1
            continue
        for j in range(fi.shape[0]):
            if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != fi[i, F_SIDE]:
                v = sight(fi, mp, cell, occ, s, sc, j, i, ONE, ONE)
                if 0 <= v < 100:
                    s[i, S_INFIL_LOST] = 1
                    break


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def infiltration_moves(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, first):
    """ "Infiltration/X" at the end of every Round, in the Round's Activation Sequence
    order (the side that activated first leading), after the Heroic Moves: each warrior
    with the Aptitude still unseen, not stopped and not in ambush (:func:`infiltrate`)."""
    for k in range(seq.shape[1]):
        for t in range(2):
            side = first if t == 0 else 1 - first
            i = seq[side, k]
            if i < 0 or g[G_END] >= 0 or s[i, S_ALIVE] == 0 or fi[i, F_INFILTRATION] == 0:
                continue
            if s[i, S_INFIL_LOST] == 1 or s[i, S_STOPPED] > 0 or s[i, S_AMBUSH] > 0:
                continue
            infiltrate(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, i)
            reveal(fi, mp, cell, occ, s, sc)
            check_end(fi, sc, s, g)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def infiltrate(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, i):
    """One "Infiltration/X" move of X squares, in the state of the warrior's activation:
    in Offensive Combat into front contact with the enemy greedy strikes best (then the
    strike: the Aptitude is lost, the FAQ), in Moving Mode doors open freely; otherwise
    toward greedy's goal (:func:`goal_state`)."""
    xb = fi[i, F_INFILTRATION]
    mm = ONE if s[i, S_MODE] == M_MOVE else ZERO
    z = fi[i, F_SIZE]
    reach(fi, mp, cell, sc, s, occ, wk, nb, i, xb, mm, ZERO)
    log(g, ev, E_INFILTRATE, fi[i, F_SIDE], i, xb, 0, 0, 0, 0, 0, 0, 0)
    if s[i, S_MODE] == M_OC and fi[i, F_OC] > 0:
        x0 = s[i, S_X]
        y0 = s[i, S_Y]
        f0 = s[i, S_FACE]
        bv = 0.0
        bst = NEG
        bj = NEG
        blv = ZERO
        for j in range(fi.shape[0]):
            if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
                continue
            for f in range(4):
                for k in range(-(z - 1), fi[j, F_SIZE]):
                    ax, ay, st = contact_anchor(fi, mp, s, occ, sc, wk, i, j, f, k, xb, NO)
                    if st < 0:
                        continue
                    s[i, S_X] = ax
                    s[i, S_Y] = ay
                    s[i, S_FACE] = f
                    rear = from_rear(fi, s, j, i)
                    lv, v = best_strike_level(fi, s, tab, sc, g, i, j, rear)
                    s[i, S_X] = x0
                    s[i, S_Y] = y0
                    s[i, S_FACE] = f0
                    if lv > 0 and v > bv:
                        bv = v
                        bst = st
                        bj = j
                        blv = lv
        if bst >= 0:
            follow(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, i, bst, mm)
            if s[i, S_ALIVE] == 1 and s[bj, S_ALIVE] == 1:
                if side_of(fi, s, i, bj) == s[i, S_FACE]:
                    comb = can_combine(fi, s, g, i)
                    strike_action(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, i, bj, blv, comb)
            s[i, S_INFIL_LOST] = 1
            return
    bst = goal_state(fi, mp, cell, sc, s, occ, wk, i, xb)
    if bst >= 0:
        follow(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, i, bst, mm)


@njit(cache=True, error_model="numpy", _nrt=False)
def stream(rng, base, r, i, rnd):
    """Common random numbers: reseed ``rng`` for rollout ``r``'s activation of warrior
    ``i`` in Round ``rnd`` (the same stream whichever plan the rollout started with)."""
    key = np.uint64(((rnd * 64 + i) * 64 + r) * 4 + 1)
    for w_ in range(4):
        rng[w_] = splitmix(base ^ splitmix(key + np.uint64(w_)))
    rng[4] = 0
    rng[5] = 0


@njit(cache=True, error_model="numpy", _nrt=False)
def paired_gain(mean, se, margin):
    """The strong policy's test on a paired gain (:func:`paired_gain_se`): the mean less
    ``margin`` / 10 standard errors, or -1 when the mean gain is not positive."""
    if mean <= 0.0:
        return -1.0
    return mean - margin / 10.0 * se


@njit(cache=True, error_model="numpy", _nrt=False)
def best_paired(values, nc, margin):
    """The candidate (row of ``values[c, r]``, rollout ``r`` of candidate ``c``; row 0 is
    greedy's choice) with the largest :func:`paired_gain` over row 0, or 0 when none has
    a positive one."""
    nr = values.shape[1]
    best_gain = 0.0
    bc = 0
    for c in range(1, nc):
        mean, se = paired_gain_se(values, c, nr)
        gain = paired_gain(mean, se, margin)
        if gain > best_gain:
            best_gain = gain
            bc = c
    return bc


@njit(cache=True, error_model="numpy", _nrt=False)
def copy_into(dst, src):
    """``dst[:, :] = src`` by loops (a slice assignment compiles numba's broadcasting and
    its formatted errors)."""
    for r in range(src.shape[0]):
        for c in range(src.shape[1]):
            dst[r, c] = src[r, c]


@njit(cache=True, error_model="numpy", inline="always")
def playout(
    fi, mp, cell, sc, tab, s, g, occ, seq2, dc, ev, wk, nb, s2, g2, cell2, occ2, rng2,
    plans2, side, i, plan, turn, depth, base, r,
):  # fmt: skip
    """One rollout of the strong policy from the real state (copied into ``s2``...):
    warrior ``i`` carries out ``plan`` (none when ``i`` < 0), then :func:`rollout` plays
    on from ``turn``; the points-weighted NV margin for ``side`` at its end."""
    copy_into(s2, s)
    copy_into(cell2, cell)
    copy_into(occ2, occ)
    for k in range(g.shape[0]):
        g2[k] = g[k]
    g2[G_ROLL] = 1
    g2[G_DPOS] = dc[0]  # no scripted dice in a rollout
    if i >= 0:
        stream(rng2, base, r, i, g[G_ROUND])
        plans_for(fi, mp, cell2, sc, tab, s2, g2, occ2, wk, nb, plans2, i, NO, NO)
        execute(fi, mp, cell2, sc, tab, s2, g2, occ2, dc, rng2, ev, wk, nb, plans2, plan, i)
        check_end(fi, sc, s2, g2)
    rollout(fi, mp, cell2, sc, tab, s2, g2, occ2, seq2, dc, rng2, ev, wk, nb, plans2, turn,
            depth, base, r)  # fmt: skip
    return rollout_score(fi, s2, g2, side)


@njit(cache=True, error_model="numpy", inline="always")
def strong_activate(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, plans, i):
    """The strong policy: the greedy plans ranked, the best plan of each kind and target
    (up to ``lookahead_k`` of them, best first) each played out ``lookahead_rollouts`` times:
    this activation, then up to ``lookahead_depth`` greedy activations of both sides in
    this Round (the enemy's order as guessed at the Round's start from the public state,
    never read), scored by the points-weighted NV margin.  Common random numbers: each
    warrior's activation in rollout ``r`` draws from one stream whatever the plan
    (:func:`stream`).  Another plan replaces greedy's only if it passes
    :func:`paired_gain` (``lookahead_margin``)."""
    begin_turn(fi, s, g, ev, i)
    npl = plans_for(fi, mp, cell, sc, tab, s, g, occ, wk, nb, plans, i, NO, NO)
    side = fi[i, F_SIDE]
    cand = np.full(MAXCAND, -1, dtype=np.int64)
    nc = 0
    for k in range(npl):  # the best plan of each kind and target
        same = -1
        for c in range(nc):
            if plans[cand[c], P_KIND] == plans[k, P_KIND]:
                if plans[cand[c], P_TARGET] == plans[k, P_TARGET]:
                    same = c
        if same >= 0:
            if plan_better(fi, sc, plans, i, k, cand[same]):
                cand[same] = k
        elif nc < MAXCAND:
            cand[nc] = k
            nc += 1
    for a in range(1, nc):
        v = cand[a]
        b = a - 1
        while b >= 0 and plan_better(fi, sc, plans, i, v, cand[b]):
            cand[b + 1] = cand[b]
            b -= 1
        cand[b + 1] = v
    if nc > sc[S_LOOK_K]:
        nc = sc[S_LOOK_K]
    best = cand[0]
    if nc > 1:
        nr = sc[S_LOOK_ROLLOUTS]
        seq2 = guessed_sequences(seq, side)
        s2, g2, cell2, occ2, plans2, rng2 = rollout_scratch(s, g, cell, occ, plans, rng)
        values = np.zeros((nc, nr), dtype=np.float64)
        base = next_u64(rng)
        for c in range(nc):
            for r in range(nr):
                values[c, r] = playout(
                    fi, mp, cell, sc, tab, s, g, occ, seq2, dc, ev, wk, nb, s2, g2, cell2,
                    occ2, rng2, plans2, side, i, cand[c], 1 - side, sc[S_LOOK_DEPTH], base,
                    np.int64(r),
                )  # fmt: skip
        best = cand[best_paired(values, nc, sc[S_LOOK_MARGIN])]
        plans_for(fi, mp, cell, sc, tab, s, g, occ, wk, nb, plans, i, NO, NO)
    execute(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, plans, best, i)
    reveal(fi, mp, cell, occ, s, sc)
    check_end(fi, sc, s, g)


@njit(cache=True, error_model="numpy")
def rollout_scratch(s, g, cell, occ, plans, rng):
    """Scratch copies of the match state for a strong policy's rollouts (each rollout
    refills them from the real state, which it never touches)."""
    return s.copy(), g.copy(), cell.copy(), occ.copy(), plans.copy(), rng.copy()


@njit(cache=True, error_model="numpy")
def guessed_sequences(seq, side):
    """The two sequences a rollout of ``side``'s strong policy plays: its own, and the
    enemy's as guessed at the Round's start (``seq[2 + enemy]``), never the enemy's own."""
    seq2 = np.full((2, seq.shape[1]), -1, dtype=np.int64)
    other = 1 - side
    for k in range(seq.shape[1]):
        seq2[side, k] = seq[side, k]
        seq2[other, k] = seq[2 + other, k]
    return seq2


@njit(cache=True, error_model="numpy", inline="always")
def strong_order(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, plans, side):
    """The strong policy's secret Activation Sequence ("Activation"): greedy's order
    (nearest the enemy first) or a variant with one warrior moved to the front, whichever
    rollouts of the whole Round score best (greedy activations of both sides from the
    Round's first activation, the enemy's order guessed; :func:`paired_gain`)."""
    n = 0
    while n < seq.shape[1] and seq[side, n] >= 0:
        n += 1
    if n < 2:
        return
    nr = sc[S_LOOK_ROLLOUTS]
    seq2 = guessed_sequences(seq, side)
    greedy_order = seq2[side].copy()
    s2, g2, cell2, occ2, plans2, rng2 = rollout_scratch(s, g, cell, occ, plans, rng)
    values = np.zeros((n, nr), dtype=np.float64)
    base = next_u64(rng)
    for c in range(n):
        front_first(seq2, side, greedy_order, n, c)
        for r in range(nr):
            values[c, r] = playout(
                fi, mp, cell, sc, tab, s, g, occ, seq2, dc, ev, wk, nb, s2, g2, cell2, occ2,
                rng2, plans2, side, np.int64(-1), ZERO, g[G_FIRST], np.int64(2 * fi.shape[0]),
                base, np.int64(r),
            )  # fmt: skip
    front_first(seq, side, greedy_order, n, np.int64(best_paired(values, n, sc[S_LOOK_MARGIN])))


@njit(cache=True, error_model="numpy", _nrt=False)
def front_first(seq, side, order, n, c):
    """``seq[side]`` := ``order`` with its warrior ``c`` moved to the front."""
    seq[side, 0] = order[c]
    k = 1
    for p in range(n):
        if p != c:
            seq[side, k] = order[p]
            k += 1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def rollout(fi, mp, cell, sc, tab, s, g, occ, seq2, dc, rng, ev, wk, nb, plans, turn, depth,
            base, r):  # fmt: skip
    """The rest of a lookahead: up to ``depth`` greedy activations of this Round,
    alternating from side ``turn``, of the warriors not yet activated in ``seq2``'s
    orders (:func:`guessed_sequences`), each on its :func:`stream`."""
    pos0 = ZERO
    pos1 = ZERO
    for _ in range(depth):
        if g[G_END] >= 0:
            break
        i, p = next_in_sequence(s, seq2, turn, pos0 if turn == 0 else pos1)
        if i < 0:
            turn = 1 - turn
            i, p = next_in_sequence(s, seq2, turn, pos0 if turn == 0 else pos1)
            if i < 0:
                break
        if turn == 0:
            pos0 = p + 1
        else:
            pos1 = p + 1
        stream(rng, base, r, i, g[G_ROUND])
        activate(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, plans, i, GREEDY)
        turn = 1 - turn


@njit(cache=True, error_model="numpy", _nrt=False)
def check(fi, mp, sc, s, g, occ):
    """Invariants: wounds within NV, the living on the board on passable squares, one
    warrior per square, the occupancy grid matching the positions."""
    w = sc[S_W]
    h = sc[S_H]
    cnt = 0
    for i in range(fi.shape[0]):
        if s[i, S_WOUNDS] < 0 or s[i, S_WOUNDS] > fi[i, F_NV]:
            g[G_VIOL] += 1
        if (s[i, S_ALIVE] == 1) != (s[i, S_WOUNDS] < fi[i, F_NV]):
            g[G_VIOL] += 1
        if s[i, S_ALIVE] == 0:
            continue
        z = fi[i, F_SIZE]
        for yy in range(s[i, S_Y], s[i, S_Y] + z):
            for xx in range(s[i, S_X], s[i, S_X] + z):
                if not (0 <= xx < w and 0 <= yy < h):
                    g[G_VIOL] += 1
                    continue
                if occ[yy, xx] != i + 1:
                    g[G_VIOL] += 1
                k = mp[yy, xx]
                if k == C_WALL or k == C_COLUMN or k == C_LOCKED:
                    g[G_VIOL] += 1
                cnt += 1
    n = 0
    for yy in range(h):
        for xx in range(w):
            if occ[yy, xx] != 0:
                n += 1
    if n != cnt:
        g[G_VIOL] += 1


# =========================================================== matches
@njit(cache=True, error_model="numpy", _nrt=False)
def setup_match(fi, mp, obj, sc, s, g, cell, occ, k):
    """A new match: warriors on their deployment squares ("Setup"), doors closed,
    Objective counters in place."""
    s[:, :] = 0
    occ[:, :] = 0
    for yy in range(mp.shape[0]):
        for xx in range(mp.shape[1]):
            cell[yy, xx] = 2 if obj[yy, xx] == 1 else (4 if obj[yy, xx] == 3 else 0)
    trace = g[G_TRACE]
    chk = g[G_CHECK]
    g[:] = 0
    g[G_TRACE] = trace
    g[G_CHECK] = chk
    g[G_END] = -1
    g[G_FIRST1] = k % 2
    for i in range(fi.shape[0]):
        s[i, S_ALIVE] = 1
        s[i, S_FACE] = fi[i, F_FACE0]
        s[i, S_CA_ROUND] = -1
        s[i, S_APS_ROUND] = -1
        put(fi, s, occ, i, fi[i, F_X0], fi[i, F_Y0])


@njit(cache=True, error_model="numpy", _nrt=False)
def write_record(fi, s, g, rec, urec, row):
    rec[row, 0] = g[G_WINNER]
    rec[row, 1] = nv_left(fi, s, SIDE_A)
    rec[row, 2] = nv_left(fi, s, SIDE_B)
    rec[row, 3] = g[G_FIRST1]
    rec[row, 4] = g[G_ROUND]
    rec[row, 5] = g[G_END]
    rec[row, 6] = g[G_ACT]
    rec[row, 7] = g[G_VIOL]
    for c in range(10):
        rec[row, 8 + c] = g[G_OBJ_A + c]
    for i in range(fi.shape[0]):
        urec[row, i, 0] = 0 if s[i, S_ALIVE] == 1 else 1
        urec[row, i, 1] = s[i, S_DEALT]
        urec[row, i, 2] = s[i, S_TAKEN]
        urec[row, i, 3] = s[i, S_SCORE]
        urec[row, i, 4] = s[i, S_STRIKES]
        urec[row, i, 5] = s[i, S_SHOTS]
        urec[row, i, 6] = s[i, S_REMOVED_ROUND]


@njit(cache=True, error_model="numpy")
def sandbox_op(fi, mp, obj, sc, tab, s, g, cell, occ, seq, dc, rng, ev, wk, code, a, b, c):
    """The rule tests' entry kernel (``sandbox.py``): one engine operation ``code``
    (``OP_*``) with arguments ``a``, ``b``, ``c`` on the hand-built state."""
    nb = np.zeros(MAXB, dtype=np.int64)
    plans = np.zeros((MAXPLANS, PLAN_COLS), dtype=np.int64)
    w = sc[S_W]
    if code == OP_STRIKE:
        strike_action(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, a, b, c % 10, c >= 10)
    elif code == OP_FIRE:
        shoot(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, a, b, c, ZERO)
        return 0
    elif code == OP_MOVE:
        # walk a to anchor-facing b (its flag-0 state index) in Moving Mode level
        # c % 8 (0 none), Skilled or Expert Move against warrior c // 8 - 1
        lv = c % 8
        mvb = move_budget(fi, s, a, lv)
        reach(
            fi,
            mp,
            cell,
            sc,
            s,
            occ,
            wk,
            nb,
            a,
            mvb,
            1 if lv >= 1 else 0,
            1 if lv == 2 else 0,
        )
        tx = (b // (NFLAG * 4)) % w
        ty = b // (NFLAG * 4 * w)
        cst, st = cost_to(wk, w, tx, ty, (b // NFLAG) % 4)
        if cst >= BIG or not end_ok(fi, mp, s, occ, a, tx, ty):
            return -1
        if lv == 0:
            follow(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, a, st, ZERO)
            return cst
        s[a, S_MODE] = M_MOVE
        s[a, S_LEVEL] = lv
        walk_in_mode(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, a, st, lv, c // 8 - 1)
        return cst
    elif code == OP_COST:
        reach(
            fi, mp, cell, sc, s, occ, wk, nb, a, np.int64(40), np.int64(1 if c >= 1 else 0),
            np.int64(1 if c == 2 else 0))  # fmt: skip
        tx = (b // (NFLAG * 4)) % w
        ty = b // (NFLAG * 4 * w)
        cst, st = cost_to(wk, w, tx, ty, (b // NFLAG) % 4)
        return cst if cst < BIG and end_ok(fi, mp, s, occ, a, tx, ty) else -1
    elif code == OP_ACTIVATE:
        if b == POL_STRONG:
            strong_activate(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, plans, a)
        else:
            activate(fi, mp, cell, sc, tab, s, g, occ, dc, rng, ev, wk, nb, plans, a, b)
    elif code == OP_DASH:
        heroic_moves(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, g[G_FIRST])
    elif code == OP_ROUND:
        round_play(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, plans)
    elif code == OP_SIGHT:
        return sight(fi, mp, cell, occ, s, sc, a, b, c // 2, c % 2)
    elif code == OP_CHECK:
        g[G_VIOL] = 0
        check(fi, mp, sc, s, g, occ)
        return g[G_VIOL]
    elif code == OP_KNOCK:
        knock_back(fi, mp, cell, sc, s, g, occ, ev, a, b)
    elif code == OP_SACRIFICE:
        sacrifice(fi, s, g, occ, ev, a, b)
    elif code == OP_AMBUSH:
        go_into_ambush(fi, mp, cell, occ, s, sc, g, ev, a)
        return s[a, S_AMBUSH]
    elif code == OP_DEAL:
        deal_cards(g, rng, ev)
    elif code == OP_EQUIP:
        deal_equipment(fi, sc, s, g, rng, ev)
    elif code == OP_SPOT:  # greedy's ambush worth x 1000 where a stands
        clear_fire_table(fi, wk)
        v = ambush_worth(fi, s, tab, sc, wk, a)
        if b == 0:
            v = ambush_spot(fi, s, tab, sc, wk, a, v)
        return np.int64(v * 1000.0 + 0.5)
    elif code == OP_MUTATE:
        mutate(fi, sc, s, g, occ, ev, a)
    elif code == OP_EVENT:
        event_counter(fi, sc, tab, s, g, occ, cell, dc, rng, ev, a)
    elif code == OP_CLOSE:
        return close_doors(fi, mp, cell, occ, s, sc, g, ev, a, b)
    elif code == OP_INFILTRATE:
        infiltration_moves(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, g[G_FIRST])
    return 0


@njit(cache=True, error_model="numpy", nogil=True)
def run_block(
    fi, mp, obj, sc, tab, s, g, cell, occ, seq, dc, rng, ev, wk, state, block, first, count,
    rec, urec, trace, chk,
):  # fmt: skip
    """The match runner's entry kernel: play matches ``first .. first + count - 1`` into
    ``rec`` and ``urec``; match ``k`` is seeded from the block state and ``k % block``
    (``analyzer.match.seeding_nb.seed_match``).  Returns the trace rows written.  The rule
    tests' operations have their own entry, :func:`sandbox_op`, so that a match run never
    compiles them."""
    nb = np.zeros(MAXB, dtype=np.int64)
    plans = np.zeros((MAXPLANS, PLAN_COLS), dtype=np.int64)
    for kk in range(count):
        k = first + kk
        seed_match(rng, state, k % block)
        g[G_TRACE] = 1 if trace else 0
        g[G_CHECK] = 1 if chk else 0
        setup_match(fi, mp, obj, sc, s, g, cell, occ, k)
        place_traps(sc, g, cell, rng)
        if sc[S_CARDS] == 1:
            deal_cards(g, rng, ev)
        if sc[S_AURA_MODE] > 0 or sc[S_MUTATION_MODE] > 0:
            deal_equipment(fi, sc, s, g, rng, ev)
        if g[G_CHECK]:
            check(fi, mp, sc, s, g, occ)
        while g[G_END] < 0:
            round_play(fi, mp, cell, sc, tab, s, g, occ, seq, dc, rng, ev, wk, nb, plans)
        log(
            g,
            ev,
            E_END,
            0,
            g[G_END],
            g[G_WINNER],
            nv_left(fi, s, SIDE_A),
            nv_left(fi, s, SIDE_B),
            0,
            0,
            0,
            0,
            0,
        )
        row = kk if rec.shape[0] == count else k
        write_record(fi, s, g, rec, urec, row)
    return g[G_NEV] if trace else 0
