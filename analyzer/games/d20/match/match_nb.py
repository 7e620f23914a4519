"""The d20 skirmish match kernels: geometry, dice, attacks, movement, phases, policies.

Rulebook ``d20-skirmish.txt``; every rule function names its section.  All kernels take
plain arrays (columns in :mod:`analyzer.games.d20.match.layout`):

static  ``fi`` (int, per figurine), ``fr`` (float, radius and height), ``ter`` (set
        elements), ``sc`` (scenario and float options), ``op`` (int options), ``ecp``
        (expected CP lost per attack margin) and ``pge`` (P(CP lost >= c) per margin),
        both built from :func:`analyzer.games.d20.rolls.cp_lost`;
state   ``p`` (float positions and facing), ``s`` (int per figurine), ``g`` (int match
        state), ``dc`` (dice script: ``dc[0]`` scripted D20s in ``dc[1:]``), ``rng``
        (the match generator), ``ev`` (trace rows), ``wk`` (scratch candidates).
"""

# ruff: noqa: SIM102  (nested conditions kept readable in the kernels)
from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.core import types as nt
from numba.cpython.unsafe.numbers import trailing_zeros

from analyzer.dice import random_nb as _random
from analyzer.dice.random_nb import next_u64, roll_die
from analyzer.games.d20.match import layout as _layout
from analyzer.games.d20.match.layout import (
    E_ACTION,
    E_BLOW,
    E_DEPLOY,
    E_END,
    E_FACE,
    E_LAND,
    E_MOVE,
    E_REMOVED,
    E_RETREAT,
    E_ROLES,
    E_ROLLOFF,
    E_SHOT,
    E_THROW,
    E_TURN,
    END_ELIMINATION,
    END_OBJECTIVE,
    END_TURNS,
    F_CP,
    F_DEX,
    F_GUN,
    F_HTH,
    F_HTHPOW,
    F_IMPULSIVE,
    F_INT,
    F_MOVE,
    F_NGUN,
    F_PD,
    F_POINTS,
    F_POWER,
    F_SCOUT,
    F_SHOT,
    F_SIDE,
    FR_COLS,
    FX_COLS,
    G_ACT,
    G_ATTACKER,
    G_BLOWS,
    G_CHECK,
    G_COLS,
    G_COVERS,
    G_DPOS,
    G_EFFECTIVE,
    G_END,
    G_FIRST,
    G_HALF,
    G_HITS,
    G_MAXT,
    G_NEV,
    G_OBJDONE,
    G_PROGRESS,
    G_READYSHOTS,
    G_RETREATS,
    G_RETREATS_WON,
    G_ROLL,
    G_SHOTS,
    G_TRACE,
    G_TURN,
    G_VIOL,
    G_WINNER,
    IDLE_CAP,
    K_DIFFICULT,
    K_ELEMENT,
    K_TERMINAL,
    K_WATER,
    M_COVER,
    M_NORMAL,
    M_READY,
    M_STAY,
    M_WATCHFUL,
    MAX_FIG,
    O_ALL_WEAPONS,
    O_CLIMB_NEXT,
    O_FAILED_ACTS,
    O_FIRST,
    O_FORCED,
    O_IMP_ROUND,
    O_LOOK_DEPTH,
    O_LOOK_K,
    O_LOOK_ROLLOUTS,
    O_MAXTURNS,
    O_POL_A,
    O_READY,
    O_VIRUS_MIN,
    O_WINNER_STARTS,
    OB_DL,
    OB_R,
    OB_X,
    OB_Y,
    OFF_BOARD,
    P_COLS,
    P_FACE,
    P_FX,
    P_FY,
    P_SX,
    P_SY,
    P_X,
    P_Y,
    POL_GREEDY,
    POL_LOOKAHEAD,
    POL_RANDOM,
    R_BRAWL,
    R_HEIGHT,
    R_RADIUS,
    R_REACH,
    R_TALL,
    R_THROW,
    S_ACTED,
    S_ALIVE,
    S_BLOWS,
    S_CLIMB,
    S_COLS,
    S_COVER_DIST,
    S_CP,
    S_DEALT,
    S_DEPLOY,
    S_DEPTH_A,
    S_DEPTH_B,
    S_DONE,
    S_FAST,
    S_H,
    S_IDLE,
    S_LIMIT_RULE,
    S_MODE,
    S_NOBJ,
    S_NSIGHT,
    S_NTER,
    S_OBASE,
    S_OBJ,
    S_OBJ_DL,
    S_READY,
    S_REMOVED_TURN,
    S_SBASE,
    S_SHOTS,
    S_TAKE_COVER,
    S_TAKEN,
    S_TERM,
    S_TURNS,
    S_W,
    TALL_BITS,
)
from analyzer.match import seeding_nb as _seeding
from analyzer.match import trace_nb as _trace_rows
from analyzer.match.cache import refresh_kernel_cache
from analyzer.match.seeding_nb import seed_match, seed_rollout
from analyzer.match.trace_nb import append_event

# numba keys a cache on this file only: drop it when a file compiled in changes too.
refresh_kernel_cache(
    __file__,
    "d20-kernels.stamp",
    _layout.__file__,
    _random.__file__,
    _seeding.__file__,
    _trace_rows.__file__,
)

#: Options of every kernel but ``run_block`` (the entry, which allocates the scratch):
#: none allocates an array, so all are compiled without numba's runtime (``_nrt=False``:
#: no reference counting of their array arguments), and none is called from Python, so
#: they get no Python or C wrapper (less to compile).
INNER = {
    "cache": True,
    "_nrt": False,
    "no_cpython_wrapper": True,
    "no_cfunc_wrapper": True,
    "error_model": "numpy",
}
#: A kernel compiled only into its callers (numba inlines its body, typed there: no call,
#: whose argument passing, 7-9 words per array, costs more than a short kernel's work;
#: no signature, so no stand-alone copy is compiled).
INLINE = {**INNER, "inline": "always"}
# Argument types of the kernels (one compiled specialisation each: constant arguments at
# call sites would otherwise compile extra literal-typed copies of whole call trees).
i8 = nt.int64
f8 = nt.float64
b1 = nt.boolean
I1 = nt.int64[::1]
I2 = nt.int64[:, ::1]
I3 = nt.int64[:, :, ::1]
F1 = nt.float64[::1]
F2 = nt.float64[:, ::1]
U1 = nt.uint64[::1]

#: Stands within this gap (cm) are in contact ("stand to stand").
CONTACT = 0.2
#: Offset of the expected-CP tables: index = attack margin + MOFF.
MOFF = 60
MAXC = 12  # movement candidates per figurine
#: Rows of the scratch ``wk``: 0..MAXC-1 the candidates (9 columns: target x, y, mode,
#: budget, then ``keep_walk``'s), MAXC spare, SEEN ``best_move``'s sightlines.
SEEN = MAXC + 1
UNKNOWN = -2  # shoot's cover argument when the caller has not computed it
BIG = 1e9
SKIP = -2.0 * BIG  # ``best_move``'s worth of a candidate that is not a choice
# rule-test operations (sandbox.py, ``sandbox_op``)
OP_SHOT, OP_BLOW, OP_MOVE, OP_RETREAT, OP_MOVE_PHASE, OP_ACTION_PHASE = 1, 2, 3, 4, 5, 6
OP_SIGHT, OP_TAKE_COVER, OP_READY, OP_ROLLOFF, OP_CHECK = 7, 8, 9, 10, 11
OP_THROW, OP_BEST_ATTACK = 12, 13
#: ``best_attack``'s kind of a throw of object ``o``: THROW_KIND + o (1 shot, 2 blow)
THROW_KIND = 3


# =========================================================== dice and trace
@njit((U1, i8), **INNER)
def pick(rng, n):
    """A uniform choice in 0..n-1 (the random policy; never scripted).  The one call site
    of ``roll_die`` (an inline chain that numba would type again at every other site)."""
    if n <= 1:
        return 0
    return roll_die(rng, n) - 1


@njit((I1, I1, U1), **INNER)
def d20(g, dc, rng):
    """ "1. Starting a Game": "The D20 is used to simulate every action or shot"; the next
    scripted face while the dice script lasts (rule tests), else the match generator."""
    if g[G_DPOS] < dc[0]:
        g[G_DPOS] += 1
        return dc[g[G_DPOS]]
    return pick(rng, 20) + 1


@njit((f8,), **INNER)
def mm(x):
    return round(x * 10.0)


@njit((I1, I2, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8), **INNER)
def log(g, ev, kind, side, a, b, c, d, e, f, h, i, j):
    if g[G_TRACE] != 0 and g[G_ROLL] == 0:
        g[G_NEV] = append_event(ev, g[G_NEV], kind, g[G_TURN], side, a, b, c, d, e, f, h, i, j)


# =========================================================== expected CP
@njit((F1, i8, i8), **INNER)
def exp_cp(ecp, margin, cp):
    """Expected CP removed by ``margin + 1D20`` against PD ("3.2 Shots"), capped at ``cp``."""
    m = margin + MOFF
    if m < 0:
        return 0.0
    if m >= ecp.shape[0]:
        m = ecp.shape[0] - 1
    e = ecp[m]
    return e if e < cp else float(cp)


@njit((F2, i8, i8), **INNER)
def p_remove(pge, margin, cp):
    """P(CP lost >= cp): the figurine is removed ("3.2 Shots")."""
    m = margin + MOFF
    if m < 0:
        return 0.0
    if m >= pge.shape[0]:
        m = pge.shape[0] - 1
    c = cp if cp < pge.shape[1] else pge.shape[1] - 1
    return pge[m, c]


@njit((I2, F1, F2, i8, i8, i8), **INNER)
def attack_value(fi, ecp, pge, margin, j, cp):
    """Greedy worth of an attack on ``j``: expected CP plus half its points times P(removed)."""
    return exp_cp(ecp, margin, cp) + 0.5 * fi[j, F_POINTS] * p_remove(pge, margin, cp)


# =========================================================== geometry
@njit((f8, f8), **INNER)
def dist(dx, dy):
    """Length of (dx, dy): ``sqrt`` inline (glibc's ``hypot`` call was ~15% of greedy play;
    the two differ by at most an ulp, and coordinates stay far from overflow)."""
    return math.sqrt(dx * dx + dy * dy)


@njit((f8, f8, f8, f8, f8, f8, f8, f8), **INNER)
def seg_rect(x0, y0, x1, y1, ax0, ay0, ax1, ay1):
    """Parameters (t_in, t_out) in [0, 1] where segment crosses a rectangle (in > out: none)."""
    if min(x0, x1) > ax1 or max(x0, x1) < ax0 or min(y0, y1) > ay1 or max(y0, y1) < ay0:
        return 1.0, 0.0
    t0 = 0.0
    t1 = 1.0
    dx = x1 - x0
    dy = y1 - y0
    if abs(dx) < 1e-12:
        if x0 < ax0 or x0 > ax1:
            return 1.0, 0.0
    else:
        a = (ax0 - x0) / dx
        b = (ax1 - x0) / dx
        if a > b:
            a, b = b, a
        t0 = max(t0, a)
        t1 = min(t1, b)
        if t0 > t1:
            return 1.0, 0.0
    if abs(dy) < 1e-12:
        if y0 < ay0 or y0 > ay1:
            return 1.0, 0.0
    else:
        a = (ay0 - y0) / dy
        b = (ay1 - y0) / dy
        if a > b:
            a, b = b, a
        t0 = max(t0, a)
        t1 = min(t1, b)
        if t0 > t1:
            return 1.0, 0.0
    return t0, t1


@njit((F2, i8, f8, f8), **INNER)
def inside(ter, k, x, y):
    return ter[k, 0] <= x <= ter[k, 2] and ter[k, 1] <= y <= ter[k, 3]


@njit((f8, f8, f8, f8, f8, f8), **INNER)
def seg_point(x0, y0, x1, y1, px, py):
    """Distance from (px, py) to the segment."""
    dx = x1 - x0
    dy = y1 - y0
    ll = dx * dx + dy * dy
    t = 0.0
    if ll > 1e-12:
        t = ((px - x0) * dx + (py - y0) * dy) / ll
        t = min(1.0, max(0.0, t))
    ex = x0 + t * dx - px
    ey = y0 + t * dy - py
    return math.sqrt(ex * ex + ey * ey)


@njit((f8, f8, f8, f8, f8, f8, f8, f8), **INNER)
def crosses(ax, ay, bx, by, cx, cy, dx, dy):
    """Whether segments AB and CD intersect."""
    d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax)
    d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)
    d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx)
    return d1 * d2 < 0 and d3 * d4 < 0


@njit((f8, f8, f8), **INNER)
def overlaps(dx, dy, lim):
    """``dist(dx, dy) < lim``, without the square root when a coordinate alone reaches
    ``lim``."""
    if abs(dx) >= lim or abs(dy) >= lim:
        return False
    return dist(dx, dy) < lim


@njit((F2, F2, i8, i8), **INNER)
def gap(fr, p, i, j):
    """Edge-to-edge distance of two stands (Reach is measured edge to edge: "Field of vision")."""
    return dist(p[i, P_X] - p[j, P_X], p[i, P_Y] - p[j, P_Y]) - fr[i, R_RADIUS] - fr[j, R_RADIUS]


@njit((F2, F2, i8, i8), **INNER)
def in_contact(fr, p, i, j):
    """Stands within ``CONTACT``; the larger coordinate difference decides most pairs
    without ``hypot`` (hypot >= it, and the subtractions keep the order: same answer)."""
    far = max(abs(p[i, P_X] - p[j, P_X]), abs(p[i, P_Y] - p[j, P_Y]))
    if far - fr[i, R_RADIUS] - fr[j, R_RADIUS] > CONTACT:
        return False
    return gap(fr, p, i, j) <= CONTACT


@njit((I2, F2, F2, I2, i8), **INNER)
def in_hth(fi, fr, p, s, i):
    """ "3.3": a figurine in contact with an enemy is in a HtH."""
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != fi[i, F_SIDE] and in_contact(fr, p, i, j):
            return True
    return False


@njit((I2, F2, F2, F1, F2, I2, f8, f8, i8, i8, i8, f8, f8), **INNER)
def sight(fi, fr, ter, sc, p, s, ax, ay, side, ia, it, tx, ty):
    """Sightline from (ax, ay) (figurine ``ia`` of ``side``) to ``it`` standing at (tx, ty):
    the cover bonus to its PD (0..3), or -1 when the axis is interrupted.

    "Field of vision": the axis between the stands is interrupted by a friendly figurine
    or an object larger (higher) than the target; "Two figurines placed stand to stand
    interrupt the sightline on a figurine with the same size stand located behind them".
    "Cover": a lower element crossed within ``S_COVER_DIST`` of the target gives its
    grade (slight +1, intermediate +2, heavy +3).  An element the shooter or the target
    stands on neither blocks nor covers.
    """
    rt = fr[it, R_RADIUS]
    ht = fr[it, R_HEIGHT]
    d = -1.0  # the axis' length, computed when a cover needs it
    cover = 0
    b = int(sc[S_SBASE])
    for k in range(b, b + int(sc[S_NSIGHT])):
        # the elements that can block or cover (``compile.py``: the answer does not hang
        # on their order), the axis' box first (it leaves out most of them)
        tin, tout = seg_rect(ax, ay, tx, ty, ter[k, 0], ter[k, 1], ter[k, 2], ter[k, 3])
        if tin > tout:
            continue
        if inside(ter, k, ax, ay) or inside(ter, k, tx, ty):
            continue
        if ter[k, 4] > ht:
            return -1
        if d < 0.0:
            d = dist(tx - ax, ty - ay)
        if (1.0 - tout) * d <= sc[S_COVER_DIST] + rt:
            c = int(ter[k, 5])
            if c > cover:
                cover = c
    n = fi.shape[0]
    bx0 = min(ax, tx) - 2.0 * rt - CONTACT
    bx1 = max(ax, tx) + 2.0 * rt + CONTACT
    by0 = min(ay, ty) - 2.0 * rt - CONTACT
    by1 = max(ay, ty) + 2.0 * rt + CONTACT
    for m in range(n):
        # outside the axis' box grown by r_m + 2 rt + CONTACT: farther than that from it
        # (tested first: a removed figurine, off the board, is outside too)
        rm = fr[m, R_RADIUS]
        pmx = p[m, P_X]
        pmy = p[m, P_Y]
        if pmx < bx0 - rm or pmx > bx1 + rm or pmy < by0 - rm or pmy > by1 + rm:
            continue
        if m in (ia, it) or s[m, S_ALIVE] == 0:
            continue
        dm = seg_point(ax, ay, tx, ty, pmx, pmy)
        if dm < fr[m, R_RADIUS] and fi[m, F_SIDE] == side:
            return -1
        if fr[m, R_RADIUS] < rt or dm >= fr[m, R_RADIUS] + 2.0 * rt + CONTACT:
            continue
        # every other stand q, before m too: the pair (m, q) is looked at from whichever
        # of the two is near the axis (``q > m`` only missed a pair whose lower index was
        # the far one: a sightline that hung on the figurines' order)
        for q in range(n):
            if q == m or q in (ia, it) or s[q, S_ALIVE] == 0 or fr[q, R_RADIUS] < rt:
                continue
            if not in_contact(fr, p, m, q):
                continue
            dq = seg_point(ax, ay, tx, ty, p[q, P_X], p[q, P_Y])
            if (
                dm < fr[m, R_RADIUS]
                or dq < fr[q, R_RADIUS]
                or crosses(ax, ay, tx, ty, p[m, P_X], p[m, P_Y], p[q, P_X], p[q, P_Y])
            ):
                return -1
    return cover


#: ``sight`` compiled into ``best_move`` (its loop over the candidate-enemy pairs makes
#: most of the calls; each passes six arrays, 7-9 words apiece).
sight_in = njit(**INLINE)(sight.py_func)


@njit((F2, i8, f8, f8, f8), **INNER)
def in_front(p, i, x, y, r):
    """ "Field of vision": a figurine sees in a 180 degree arc to the front (the
    prolongation of the arc included: a stand touching the front half-plane)."""
    return (x - p[i, P_X]) * p[i, P_FX] + (y - p[i, P_Y]) * p[i, P_FY] >= -r


@njit((F2, i8, f8, f8), **INNER)
def rear(p, j, ax, ay):
    """ "Shooting in the back": the attack begins in the target's rear arc."""
    return (ax - p[j, P_X]) * p[j, P_FX] + (ay - p[j, P_Y]) * p[j, P_FY] < -1e-9


@njit((F2, i8, f8), **INNER)
def set_face(p, i, a):
    """Facing ``a`` radians, with its cosine and sine (read by ``in_front`` and ``rear``)."""
    p[i, P_FACE] = a
    p[i, P_FX] = math.cos(a)
    p[i, P_FY] = math.sin(a)


@njit((F2, i8, f8, f8), **INNER)
def face(p, i, x, y):
    if abs(x - p[i, P_X]) + abs(y - p[i, P_Y]) > 1e-9:
        set_face(p, i, math.atan2(y - p[i, P_Y], x - p[i, P_X]))


@njit((I2, i8, b1), **INNER)
def max_reach(fi, i, in_melee):
    r = -1
    for w in range(fi[i, F_NGUN]):
        if in_melee and fi[i, F_GUN + 3 * w + 2] == 1:
            continue
        r = max(r, fi[i, F_GUN + 3 * w])
    return r


@njit((I2, F2, F2, I2, i8, i8, b1), **INNER)
def targetable(fi, fr, p, s, i, j, melee):
    """Whether ``j`` may be shot at by ``i`` as far as HtH goes ("3.3", "Weapons"):
    a figurine in HtH shoots only those it is in contact with; a figurine in a HtH it
    is not part of can be targeted only if its stand is larger than every protagonist's.
    ``melee``: whether ``i`` is in a HtH (``in_hth``)."""
    if melee:
        return in_contact(fr, p, i, j)
    for m in range(fi.shape[0]):
        if s[m, S_ALIVE] == 1 and fi[m, F_SIDE] != fi[j, F_SIDE] and in_contact(fr, p, j, m):
            if fr[m, R_RADIUS] >= fr[j, R_RADIUS]:
                return False
    return True


@njit((I2, F2, F2, F1, F2, I2, i8, i8, f8, i8), **INNER)
def shoot_hth_sight(fi, fr, ter, sc, p, s, i, j, d, mel):
    """``can_shoot`` past its cheap tests (``d``: the gap): HtH, then the sightline.
    ``mel``: whether ``i`` is in a HtH (``in_hth``; -1: not known, computed here)."""
    melee = in_hth(fi, fr, p, s, i) if mel < 0 else mel == 1
    if melee and d > max_reach(fi, i, melee):
        return -1
    if not targetable(fi, fr, p, s, i, j, melee):
        return -1
    return sight(
        fi, fr, ter, sc, p, s, p[i, P_X], p[i, P_Y], fi[i, F_SIDE], i, j, p[j, P_X], p[j, P_Y]
    )


@njit(**INLINE)
def can_shoot_in(fi, fr, ter, sc, p, s, i, j, mel):
    """Cover of ``j`` if ``i`` may shoot it now (front arc, Reach, HtH, sightline), else -1.
    Compiled into its two busiest callers (``best_attack``, ``move_figure``): the cheap
    tests reject ~80% of the pairs, which then cost no call."""
    if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
        return -1
    # the cheap tests first (all must pass): the longest Reach, the front arc, then HtH
    d = gap(fr, p, i, j)
    if d > fr[i, R_REACH]:
        return -1
    if not in_front(p, i, p[j, P_X], p[j, P_Y], fr[j, R_RADIUS]):
        return -1
    return shoot_hth_sight(fi, fr, ter, sc, p, s, i, j, d, mel)


@njit((I2, F2, F2, F1, F2, I2, i8, i8), **INNER)
def can_shoot(fi, fr, ter, sc, p, s, i, j):
    """``can_shoot_in`` as a call (its other callers)."""
    return can_shoot_in(fi, fr, ter, sc, p, s, i, j, np.int64(-1))


# =========================================================== damage and attacks
@njit((I2, I2, I1), **INNER)
def remove_check(fi, s, g):
    """Victory by elimination: a side with no figurine left loses."""
    alive_a = 0
    alive_b = 0
    for m in range(fi.shape[0]):
        if s[m, S_ALIVE] == 1:
            if fi[m, F_SIDE] == 0:
                alive_a += 1
            else:
                alive_b += 1
    if g[G_END] < 0 and (alive_a == 0 or alive_b == 0):
        g[G_END] = END_ELIMINATION
        g[G_WINNER] = 0 if alive_a == alive_b else (1 if alive_b == 0 else 2)


@njit((I2, F2, I2, I1, I2, i8, i8, i8), **INNER)
def damage(fi, p, s, g, ev, i, j, dmg):
    """ "3.2 Shots": the CP lost are noted; at the last CP the figurine is killed and taken
    out of the game (removed from the board)."""
    lost = min(dmg, s[j, S_CP])
    s[j, S_CP] -= lost
    s[i, S_DEALT] += lost
    s[j, S_TAKEN] += lost
    if s[j, S_CP] == 0:
        s[j, S_ALIVE] = 0
        s[j, S_READY] = 0
        s[j, S_REMOVED_TURN] = g[G_TURN]
        p[j, P_X] = OFF_BOARD
        p[j, P_Y] = OFF_BOARD
        log(g, ev, E_REMOVED, fi[j, F_SIDE], j, i, 0, 0, 0, 0, 0, 0, 0)
        remove_check(fi, s, g)


@njit((I2, I2, i8, i8, i8, i8, b1, b1), **INNER)
def shot_margin(fi, s, i, w, j, cover, back, halved):
    """Attack total minus PD, without the D20 ("3.2 Shots": Shot + Dexterity + weapon
    Power + 1D20 against PD; "Shooting in the back" +1; "Cover"; watchful +1 PD;
    "Leaving a HtH": Skill halved, rounded up)."""
    skill = fi[i, F_SHOT]
    if halved:
        skill = (skill + 1) // 2
    att = skill + fi[i, F_DEX] + fi[i, F_GUN + 3 * w + 1] + (1 if back else 0)
    pd = fi[j, F_PD] + cover + (1 if s[j, S_MODE] == M_WATCHFUL else 0)
    return att, pd


@njit(**INLINE)
def best_gun(fi, ecp, s, i, j, dist, cover, back, halved, melee):
    """The gun in Reach with the highest expected CP (-1 none) and its value."""
    best = -1
    bv = -1.0
    for w in range(fi[i, F_NGUN]):
        if fi[i, F_GUN + 3 * w] < dist or (melee and fi[i, F_GUN + 3 * w + 2] == 1):
            continue
        att, pd = shot_margin(fi, s, i, w, j, cover, back, halved)
        v = exp_cp(ecp, att - pd, s[j, S_CP])
        if v > bv:
            bv = v
            best = w
    return best, bv


@njit((I2, I1, I1, U1, i8, i8, i8), **INNER)
def shot_roll(s, g, dc, rng, i, att, pd):
    """ "3.2 Shots": the D20 of a shot (or a throw, "considered as a Shot") by ``i`` with
    ``att`` against ``pd``, counted, and the CP it removes ("higher": the difference):
    (D20, damage)."""
    r = d20(g, dc, rng)
    dmg = att + r - pd if att + r > pd else 0
    g[G_SHOTS] += 1
    s[i, S_SHOTS] += 1
    s[i, S_ACTED] = 1
    if dmg > 0:
        g[G_HITS] += 1
    return r, dmg


@njit((I2, F2, F2, F1, I1, F1, F2, I2, I1, I1, U1, I2, i8, i8, b1, i8, i8), **INNER)
def shoot(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, j, halved, flags, cover):
    """One Shot phase of ``i`` at its one target ``j`` ("3.2 Shots"; "A figurine with two
    weapons cannot shoot at more than one target during the same Phase": the best gun in
    Reach, or every gun in Reach with the option ``all_weapons``).  ``cover``: the
    caller's ``can_shoot(i, j)`` on this state, or ``UNKNOWN`` (computed here)."""
    if cover == UNKNOWN:
        cover = can_shoot(fi, fr, ter, sc, p, s, i, j)
    if cover < 0:
        return
    back = rear(p, j, p[i, P_SX], p[i, P_SY])
    dist = gap(fr, p, i, j)
    melee = in_hth(fi, fr, p, s, i)
    w0, _ = best_gun(fi, ecp, s, i, j, dist, cover, back, halved, melee)
    for w in range(fi[i, F_NGUN]):
        if s[j, S_ALIVE] == 0:
            return
        if op[O_ALL_WEAPONS] == 0 and w != w0:
            continue
        if fi[i, F_GUN + 3 * w] < dist or (melee and fi[i, F_GUN + 3 * w + 2] == 1):
            continue
        att, pd = shot_margin(fi, s, i, w, j, cover, back, halved)
        r, dmg = shot_roll(s, g, dc, rng, i, att, pd)
        fl = flags + (1 if back else 0) + (2 if halved else 0) + 8 * cover
        log(g, ev, E_SHOT, fi[i, F_SIDE], i, j, w, r, att + r, pd, dmg, fl, 0)
        if dmg > 0:
            damage(fi, p, s, g, ev, i, j, dmg)


@njit((I2, F2, F2, I2, i8, i8), **INNER)
def synergy(fi, fr, p, s, i, j):
    """ "Synergy in Hand to Hand combat": +1 per friendly stand in contact with both the
    fighter and his opponent, up to +3."""
    n = 0
    for m in range(fi.shape[0]):
        if m != i and s[m, S_ALIVE] == 1 and fi[m, F_SIDE] == fi[i, F_SIDE]:
            if in_contact(fr, p, m, i) and in_contact(fr, p, m, j):
                n += 1
    return min(n, 3)


@njit((I2, F2, F2, I2, i8, i8), **INNER)
def blow_margin(fi, fr, p, s, i, j):
    """ "3.3 Hand to Hand combat": HtH skill + Force + weapon Power (a gun as a club: 1)
    + synergy + 1 in the back ("Attacks in the back") + 1D20 against PD (+1 watchful)."""
    back = rear(p, j, p[i, P_SX], p[i, P_SY])
    syn = synergy(fi, fr, p, s, i, j)
    att = fi[i, F_HTH] + fi[i, F_HTHPOW] + syn + (1 if back else 0)
    pd = fi[j, F_PD] + (1 if s[j, S_MODE] == M_WATCHFUL else 0)
    return att, pd, back, syn


@njit((I2, F2, F2, I2, I1, I1, U1, I2, i8, i8), **INNER)
def blow(fi, fr, p, s, g, dc, rng, ev, i, j):
    """One HtH attack; after an attack in the back the opponents face each other
    ("Attacks in the back": the defender turns to face his attacker)."""
    att, pd, back, syn = blow_margin(fi, fr, p, s, i, j)
    r = d20(g, dc, rng)
    dmg = att + r - pd if att + r > pd else 0
    g[G_BLOWS] += 1
    s[i, S_BLOWS] += 1
    s[i, S_ACTED] = 1
    log(
        g,
        ev,
        E_BLOW,
        fi[i, F_SIDE],
        i,
        j,
        fi[i, F_HTHPOW],
        r,
        att + r,
        pd,
        dmg,
        1 if back else 0,
        syn,
    )
    if dmg > 0:
        damage(fi, p, s, g, ev, i, j, dmg)
    if back and s[j, S_ALIVE] == 1:
        face(p, j, p[i, P_X], p[i, P_Y])
        face(p, i, p[j, P_X], p[j, P_Y])
        log(g, ev, E_FACE, fi[j, F_SIDE], j, i, 0, 0, 0, 0, 0, 0, 0)


# =========================================================== throwing objects
@njit((I2, F2, F2, F1, F2, i8, f8, f8, i8, f8), **INNER)
def unthrowable(fi, fr, ter, sc, p, i, x, y, o, d):
    """0 if ``i`` standing at (x, y) may throw object ``o`` at a target ``d`` cm away edge
    to edge ("Throwing Objects"), else why not: -2 its Power is below the DL ("requiring a
    minimum Power of" the DL), -4 ``d`` is beyond Power - DL ("The maximum throwing
    distance"), -3 its stand does not touch the object (within ``CONTACT``)."""
    row = int(sc[S_OBASE]) + o
    dl = ter[row, OB_DL]
    pw = fi[i, F_POWER]
    if dl > pw:
        return -2
    if d > pw - dl:
        return -4
    n = fi.shape[0]
    lim = fr[i, R_RADIUS] + ter[row, OB_R] + CONTACT
    return 0 if overlaps(x - p[n + o, P_X], y - p[n + o, P_Y], lim + 1e-9) else -3


@njit((I2, F2, F2, F1, F1, F2, F2, I2, i8, f8, f8, i8, f8, i8, i8), **INNER)
def throw_value(fi, fr, ter, sc, ecp, pge, p, s, i, x, y, j, d, cov, back):
    """ "Throwing Objects": the best greedy worth of a throw by ``i`` standing at (x, y) at
    ``j`` (gap ``d``, cover ``cov``, ``back`` the rear bonus) and the object thrown (-1:
    none), of the objects it may throw (``unthrowable``); damage DL + Power + 1D20
    against PD."""
    ob = int(sc[S_OBASE])
    pw = fi[i, F_POWER]
    pd = fi[j, F_PD] + cov + (1 if s[j, S_MODE] == M_WATCHFUL else 0)
    bv = -1.0
    bo = -1
    for o in range(int(sc[S_NOBJ])):
        if unthrowable(fi, fr, ter, sc, p, i, x, y, o, d) != 0:
            continue
        dl = int(ter[ob + o, OB_DL])
        v = attack_value(fi, ecp, pge, dl + pw + back - pd, j, s[j, S_CP])
        if v > bv:
            bv = v
            bo = o
    return bv, bo


@njit((I2, F2, F2, F1, F1, F2, F2, I2, i8, i8, U1, i8, i8, i8, f8, i8), **INNER)
def throw_choice(fi, fr, ter, sc, ecp, pge, p, s, i, pol, rng, bk, bt, bc, bv, cnt):
    """``best_attack``'s throws ("Throwing Objects": "considered as a Shot"): a target in
    the front arc, not in a HtH it could not be shot in, with a sightline (its cover
    counts), within Power - DL of ``i`` (not in a HtH itself: no throw in HtH, as for
    grenades), by an object ``i`` touches.  Greedy keeps the best of (``bk``, ``bt``,
    ``bc``) worth ``bv`` and the throws; random draws uniformly over the ``cnt`` choices
    so far and every (target, object) throw."""
    n = fi.shape[0]
    side = fi[i, F_SIDE]
    ob = int(sc[S_OBASE])
    pw = fi[i, F_POWER]
    x = p[i, P_X]
    y = p[i, P_Y]
    for j in range(n):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == side:
            continue
        d = gap(fr, p, i, j)
        if d > fr[i, R_THROW] or not in_front(p, i, p[j, P_X], p[j, P_Y], fr[j, R_RADIUS]):
            continue
        if not targetable(fi, fr, p, s, i, j, False):
            continue
        cov = sight(fi, fr, ter, sc, p, s, x, y, side, i, j, p[j, P_X], p[j, P_Y])
        if cov < 0:
            continue
        back = 1 if rear(p, j, p[i, P_SX], p[i, P_SY]) else 0
        pd = fi[j, F_PD] + cov + (1 if s[j, S_MODE] == M_WATCHFUL else 0)
        for o in range(int(sc[S_NOBJ])):
            if unthrowable(fi, fr, ter, sc, p, i, x, y, o, d) != 0:
                continue
            dl = int(ter[ob + o, OB_DL])
            cnt += 1
            if pol == POL_RANDOM:
                if pick(rng, cnt) == 0:
                    bk = THROW_KIND + o
                    bt = j
                    bc = cov
            else:
                v = attack_value(fi, ecp, pge, dl + pw + back - pd, j, s[j, S_CP])
                if v > bv:
                    bv = v
                    bk = THROW_KIND + o
                    bt = j
                    bc = cov
    return bk, bt, bc


@njit((I2, F2, F2, F1, F2, I2, I1, I1, U1, I2, i8, i8, i8, i8), **INNER)
def throw(fi, fr, ter, sc, p, s, g, dc, rng, ev, i, j, o, cover):
    """ "Throwing Objects": ``i`` throws object ``o`` at ``j`` (``cover``: ``j``'s, from the
    sightline), "considered as a Shot": Object's DL + Figurine's Power + 1D20 (+1 in the
    back, "Shooting in the back") against the PD (+ cover, + 1 watchful); higher hits for
    the difference in CP.  The object lands beside the target, on the thrower's side of
    its stand (hit or miss), and lies there to be thrown again."""
    n = fi.shape[0]
    ob = int(sc[S_OBASE])
    dl = int(ter[ob + o, OB_DL])
    back = rear(p, j, p[i, P_SX], p[i, P_SY])
    att = dl + fi[i, F_POWER] + (1 if back else 0)
    pd = fi[j, F_PD] + cover + (1 if s[j, S_MODE] == M_WATCHFUL else 0)
    r, dmg = shot_roll(s, g, dc, rng, i, att, pd)
    fl = (1 if back else 0) + 8 * cover
    log(g, ev, E_THROW, fi[i, F_SIDE], i, j, o, r, att + r, pd, dmg, fl, dl)
    dx = p[i, P_X] - p[j, P_X]
    dy = p[i, P_Y] - p[j, P_Y]
    dl2 = max(dist(dx, dy), 1e-9)
    ro = ter[ob + o, OB_R]
    off = fr[j, R_RADIUS] + ro + 0.05
    lx = min(max(p[j, P_X] + dx / dl2 * off, ro), sc[S_W] - ro)
    ly = min(max(p[j, P_Y] + dy / dl2 * off, ro), sc[S_H] - ro)
    p[n + o, P_X] = lx
    p[n + o, P_Y] = ly
    log(g, ev, E_LAND, fi[i, F_SIDE], o, mm(lx), mm(ly), 0, 0, 0, 0, 0, 0)
    if dmg > 0:
        damage(fi, p, s, g, ev, i, j, dmg)


@njit((I2, F2, F2, F1, F2, I2, i8, i8, i8), **INNER)
def can_throw(fi, fr, ter, sc, p, s, i, j, o):
    """The cover of ``j`` if ``i`` may throw object ``o`` at it now (the tests of
    ``throw_choice``), else a reason: -1 in HtH (no throw in HtH), -2, -3, -4 those of
    ``unthrowable``, -5 not in the front arc, in a HtH or out of sight (the rule tests'
    ``sandbox_op``)."""
    if in_hth(fi, fr, p, s, i):
        return -1
    why = unthrowable(fi, fr, ter, sc, p, i, p[i, P_X], p[i, P_Y], o, gap(fr, p, i, j))
    if why < 0:
        return why
    if not in_front(p, i, p[j, P_X], p[j, P_Y], fr[j, R_RADIUS]):
        return -5
    if not targetable(fi, fr, p, s, i, j, False):
        return -5
    x, y = p[i, P_X], p[i, P_Y]
    cov = sight(fi, fr, ter, sc, p, s, x, y, fi[i, F_SIDE], i, j, p[j, P_X], p[j, P_Y])
    return -5 if cov < 0 else cov


# =========================================================== movement
#: Elements from this row on have no bit in a ``near_path`` mask (always looked at).
MASK_BITS = 62
#: The bits of a ``near_path`` mask from TALL_BITS on (``R_TALL`` does not hold them).
TALL_HIGH = ~((1 << TALL_BITS) - 1)


@njit((i8, i8, i8), **INNER)
def next_near(mask, k, nter):
    """The first element after ``k`` in the ``near_path`` mask (``nter``: none left)."""
    k += 1
    if k >= MASK_BITS:
        return k
    m = mask >> k
    if m == 0:
        return nter
    return min(k + trailing_zeros(m), MASK_BITS)


@njit((I2, F2, i8, i8, i8, f8, f8), **INNER)
def slow_at(fi, ter, nter, mask, i, x, y):
    """Difficult terrain at (x, y) for ``i``: a difficult zone, water, or an element low
    enough to climb over ("3.1 Movements": elements gone around or climbed over "become
    difficult terrain"; "To move through water ... its movement is divided by two").
    ``nter``: the elements looked at (rows 0..nter-1), of them only those in ``mask``."""
    k = -1
    while True:
        k = next_near(mask, k, nter)
        if k >= nter:
            break
        kind = ter[k, 6]
        if (kind in (K_ELEMENT, K_TERMINAL)) and 2.0 * ter[k, 4] >= fi[i, F_MOVE]:
            continue
        if inside(ter, k, x, y):
            return True
    return False


@njit((F2, F1, f8, f8, f8, f8, f8), **INNER)
def near_path(ter, sc, x0, y0, x1, y1, grow):
    """Bit ``k``: element ``k``'s box grown by ``grow`` meets the bounding box of the
    segment (x0, y0)-(x1, y1) (an element without its bit can neither stop, slow nor be
    climbed on it: ``walk`` skips it); 0 when no element can."""
    bx0 = min(x0, x1) - grow
    bx1 = max(x0, x1) + grow
    by0 = min(y0, y1) - grow
    by1 = max(y0, y1) + grow
    mask = 0
    for k in range(int(sc[S_NTER])):
        if ter[k, 0] <= bx1 and ter[k, 2] >= bx0 and ter[k, 1] <= by1 and ter[k, 3] >= by0:
            mask |= 1 << min(k, MASK_BITS)
    return mask


@njit((F2, F1, i8, f8, f8, f8, f8, f8, f8), **INNER)
def climb_end(ter, sc, k, r, x0, y0, tx, ty, ln):
    """Where the climb of element ``k`` from its foot toward (tx, ty) ends, as a fraction
    of the move (may pass 1, the target): the stand clear of the element's box on the far
    side ("climbs it at its next turn": the climb carries the figurine over it, however short
    the move asked); 0 when that landing is off the table."""
    ux = (tx - x0) / ln
    uy = (ty - y0) / ln
    far = (ter[k, 2] - ter[k, 0]) + (ter[k, 3] - ter[k, 1]) + 2.0 * r + ln
    tin, tout = seg_rect(
        x0,
        y0,
        x0 + ux * far,
        y0 + uy * far,
        ter[k, 0] - r,
        ter[k, 1] - r,
        ter[k, 2] + r,
        ter[k, 3] + r,
    )
    d = tout * far + 0.05
    ex = x0 + ux * d
    ey = y0 + uy * d
    if tin > tout or ex < r or ex > sc[S_W] - r or ey < r or ey > sc[S_H] - r:
        return 0.0
    return d / ln


@njit((I2, F2, F1, i8, i8, f8, f8, f8, f8, f8, f8), **INNER)
def landing_clear(fi, ter, sc, i, kc, r, x0, y0, tx, ty, tl):
    """Whether the climb of element ``kc`` by ``i`` (radius ``r``) from (x0, y0) toward
    (tx, ty), landing at fraction ``tl`` of the move (``climb_end``), meets no second
    element too high to climb over: none whose box the climb's line enters before the
    landing, none that the landed stand would overlap ("3.1 Movements": one element is
    climbed per turn).  Every element is looked at (the landing may lie beyond the
    move's target, outside the ``near_path`` mask)."""
    ex = x0 + (tx - x0) * tl
    ey = y0 + (ty - y0) * tl
    for k in range(int(sc[S_NTER])):
        kind = ter[k, 6]
        if k == kc or (kind != K_ELEMENT and kind != K_TERMINAL):
            continue
        if 2.0 * ter[k, 4] < fi[i, F_MOVE] or inside(ter, k, x0, y0):
            continue
        if ter[k, 0] - r < ex < ter[k, 2] + r and ter[k, 1] - r < ey < ter[k, 3] + r:
            return False
        tin, tout = seg_rect(x0, y0, ex, ey, ter[k, 0], ter[k, 1], ter[k, 2], ter[k, 3])
        if tin < tout:
            return False
    return True


@njit(**INLINE)
def move_line(fr, sc, p, i, tx, ty):
    """A move of ``i`` toward (tx, ty): its radius, the target kept on the table (the stand
    inside it), the start and the line's length."""
    r = fr[i, R_RADIUS]
    tx = min(max(tx, r), sc[S_W] - r)
    ty = min(max(ty, r), sc[S_H] - r)
    x0 = p[i, P_X]
    y0 = p[i, P_Y]
    return r, tx, ty, x0, y0, dist(tx - x0, ty - y0)


@njit((I2, F2, F2, F1, F2, I2, i8, f8, f8, f8), **INNER)
def walk(fi, fr, ter, sc, p, s, i, tx, ty, budget):
    """Where a straight move of ``i`` toward (tx, ty) with ``budget`` cm ends: (x, y, stop,
    element).  "Difficult terrain": movement inside is halved and a figurine that cannot
    cross stops inside.  Climbing: an element at least half the figurine's Movement
    high stops it at its foot ("stop code 2"); a figurine that starts at the foot of the
    element it stopped at climbs it this turn, which ends its move on the far side (3),
    however short the move asked (``climb_end``); if that landing is taken or off the
    table it stays at the foot, still to climb (2).  The stand ends inside the table and
    never overlaps another stand: it backs off along its path (then stop code 0)."""
    r, tx, ty, x0, y0, ln = move_line(fr, sc, p, i, tx, ty)
    if ln < 1e-6 or budget <= 0.0:
        return x0, y0, 0, -1
    nter = int(sc[S_NTER])
    tlim = 1.0
    stop = 0
    elem = -1
    kc = -1
    tc = 0.0
    # the elements near the move (the others cannot act on it: skipped, same answer); none:
    # the loop below walks the whole segment at full speed (a cost of ln, else
    # budget / (1.0 * ln))
    mask = near_path(ter, sc, x0, y0, tx, ty, r + 0.2)
    if mask == 0:
        nter = 0
    # of them, the elements it may stop at the foot of (``R_TALL``; those from TALL_BITS
    # on are all looked at), and those that may slow it
    tall = int(fr[i, R_TALL])
    k = -1
    while True:
        k = next_near(mask & (tall | TALL_HIGH), k, nter)
        if k >= nter:
            break
        kind = ter[k, 6]
        if (kind != K_ELEMENT and kind != K_TERMINAL) or 2.0 * ter[k, 4] < fi[i, F_MOVE]:
            continue
        if inside(ter, k, x0, y0):
            continue
        a0 = ter[k, 0] - r
        a1 = ter[k, 1] - r
        a2 = ter[k, 2] + r
        a3 = ter[k, 3] + r
        if a0 - 0.1 < x0 < a2 + 0.1 and a1 - 0.1 < y0 < a3 + 0.1:
            # at the foot: the centre entering the element is climbing it
            tin, tout = seg_rect(x0, y0, tx, ty, ter[k, 0], ter[k, 1], ter[k, 2], ter[k, 3])
            if tin > tout or tin >= tlim:
                continue
            if s[i, S_CLIMB] == k + 1:
                kc = k  # its pending climb: decided below, once the nearest stop is known
                tc = tin
                continue
            tlim = max(0.0, tin - 0.01 / ln)
            stop = 2
            elem = k
            continue
        tin, tout = seg_rect(x0, y0, tx, ty, a0, a1, a2, a3)
        if tin > tout or tin >= tlim:
            continue
        tlim = max(0.0, tin - 0.01 / ln)
        stop = 2
        elem = k
    if kc >= 0 and tc < tlim:
        tl = climb_end(ter, sc, kc, r, x0, y0, tx, ty, ln)
        if tl <= 0.0 or not landing_clear(fi, ter, sc, i, kc, r, x0, y0, tx, ty, tl):
            # no landing beyond it (off the table, or on or across a second element too
            # high to climb over): still at its foot, it climbs at a later turn
            return x0, y0, 2, kc
        tlim = tl
        stop = 3
        elem = kc
    t = 0.0
    if stop == 3:
        t = tlim
    else:
        left = budget
        while t < tlim - 1e-12:
            tn = tlim
            k = -1
            while True:
                k = next_near(mask, k, nter)
                if k >= nter:
                    break
                tin, tout = seg_rect(x0, y0, tx, ty, ter[k, 0], ter[k, 1], ter[k, 2], ter[k, 3])
                if tin <= tout:
                    if t + 1e-9 < tin < tn:
                        tn = tin
                    if t + 1e-9 < tout < tn:
                        tn = tout
            tm = 0.5 * (t + tn)
            slow = slow_at(fi, ter, nter, mask & ~tall, i, x0 + (tx - x0) * tm, y0 + (ty - y0) * tm)
            mult = 2.0 if slow else 1.0
            cost = (tn - t) * ln * mult
            if cost <= left:
                left -= cost
                t = tn
            else:
                t += left / (mult * ln)
                stop = 1 if mult > 1.0 else 0
                elem = -1
                break
        if stop == 2 and t < tlim - 1e-9:
            stop = 0
            elem = -1
    t_end = t
    for _ in range(80):
        x = x0 + (tx - x0) * t
        y = y0 + (ty - y0) * t
        ok = True
        for m in range(fi.shape[0]):
            if m != i and s[m, S_ALIVE] == 1:
                if overlaps(x - p[m, P_X], y - p[m, P_Y], r + fr[m, R_RADIUS] - 1e-6):
                    ok = False
                    break
        if ok and t >= t_end:
            return x, y, stop, elem
        if t <= 0.0 or stop == 3:
            # a climb whose landing is taken does not happen: it stays at the foot, still
            # to climb (backing off would leave it on the near side or on the element)
            return x0, y0, 2 if stop >= 2 else 0, elem if stop >= 2 else -1
        if ok:
            return x, y, 0, -1  # backed off from a stand: short of the foot or the stop
        t = max(0.0, t - 0.25 / ln)
    return x0, y0, 0, -1


@njit((F2, F2, i8, i8, f8, f8, f8, f8), **INNER)
def detour(fr, ter, i, k, x0, y0, tx, ty):
    """A corner of element ``k`` to go around it ("Characters can go around ... elements of
    the set"): the corner of the stand-inflated rectangle with the shortest way through."""
    m = fr[i, R_RADIUS] + 0.4
    bx = x0
    by = y0
    bd = BIG
    for c in range(4):
        cx = ter[k, 0] - m if c % 2 == 0 else ter[k, 2] + m
        cy = ter[k, 1] - m if c // 2 == 0 else ter[k, 3] + m
        tin, tout = seg_rect(x0, y0, cx, cy, ter[k, 0], ter[k, 1], ter[k, 2], ter[k, 3])
        if tin <= tout:
            continue
        d = dist(cx - x0, cy - y0) + dist(tx - cx, ty - cy)
        if d < bd:
            bd = d
            bx = cx
            by = cy
    return bx, by


@njit((I2, F2, F2, F1, I1, F1, F2, I2, I1, I1, U1, I2, i8, f8, f8, i8, i8, i8, b1), **INNER)
def move_to(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, x, y, stop, elem, mode, react):
    """Put ``i`` where its walk ended, (x, y) with ``walk``'s stop code and element, then
    the opponent's ready-to-shoot figurines react ("Ready to shoot position": "able to
    shoot during the opponent's movement phase if an enemy figurine passes within range";
    "He can only shoot at the first target coming into his sights"): a ready figurine
    fires at this mover if it now has it in range and sight and (option ``ready_trigger``
    = enter) did not before the move."""
    n = fi.shape[0]
    before = 0
    if react:
        for q in range(n):
            if s[q, S_READY] == 1 and s[q, S_ALIVE] == 1 and fi[q, F_SIDE] != fi[i, F_SIDE]:
                if can_shoot(fi, fr, ter, sc, p, s, q, i) >= 0:
                    before |= 1 << q
    x0 = p[i, P_X]
    y0 = p[i, P_Y]
    p[i, P_X] = x
    p[i, P_Y] = y
    if abs(x - x0) + abs(y - y0) > 1e-9:
        set_face(p, i, math.atan2(y - y0, x - x0))
    s[i, S_CLIMB] = elem + 1 if stop == 2 else 0
    log(g, ev, E_MOVE, fi[i, F_SIDE], i, mode, mm(x0), mm(y0), mm(x), mm(y), stop, elem, 0)
    if not react:
        return
    for q in range(n):
        if s[i, S_ALIVE] == 0 or g[G_END] >= 0:
            return
        if s[q, S_READY] == 1 and s[q, S_ALIVE] == 1 and fi[q, F_SIDE] != fi[i, F_SIDE]:
            cv = can_shoot(fi, fr, ter, sc, p, s, q, i)
            if cv >= 0:
                if op[O_READY] == 1 or (before >> q) & 1 == 0:
                    s[q, S_READY] = 0
                    g[G_READYSHOTS] += 1
                    shoot(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, q, i, False, 4, cv)


@njit(**INLINE)
def do_move(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, tx, ty, budget, mode, react):
    """Move ``i`` toward (tx, ty) with ``budget`` cm (``walk``, then ``move_to``)."""
    x, y, stop, elem = walk(fi, fr, ter, sc, p, s, i, tx, ty, budget)
    move_to(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, x, y, stop, elem, mode, react)


@njit(**INLINE)
def move_along(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, ux, uy, dist, budget, react):
    """A normal move of ``i`` ``dist`` cm along the unit direction (ux, uy) (``do_move``)."""
    tx = p[i, P_X] + ux * dist
    ty = p[i, P_Y] + uy * dist
    do_move(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, tx, ty, budget, M_NORMAL, react)


# =========================================================== greedy evaluation
@njit((I2, F1, i8, i8), **INNER)
def hth_better(fi, ecp, i, j):
    """Whether ``i`` does more in HtH than with its best gun against a fresh ``j``."""
    hv = exp_cp(ecp, fi[i, F_HTH] + fi[i, F_HTHPOW] - fi[j, F_PD], 1000)
    gv = 0.0
    for w in range(fi[i, F_NGUN]):
        v = exp_cp(ecp, fi[i, F_SHOT] + fi[i, F_DEX] + fi[i, F_GUN + 3 * w + 1] - fi[j, F_PD], 1000)
        gv = max(gv, v)
    return hv > gv


@njit(**INLINE)
def gun_threat(fi, ecp, s, j, i, cov, watch, dist):
    """Expected CP of the best shot of ``j``'s guns with Reach >= ``dist`` at ``i`` behind
    ``cov`` (watchful: +``watch`` PD; "3.2 Shots", "Cover")."""
    best = 0.0
    for w in range(fi[j, F_NGUN]):
        if fi[j, F_GUN + 3 * w] >= dist:
            m = fi[j, F_SHOT] + fi[j, F_DEX] + fi[j, F_GUN + 3 * w + 1]
            best = max(best, exp_cp(ecp, m - fi[i, F_PD] - cov - watch, s[i, S_CP]))
    return best


@njit((I2, F2, F2, F1, F1, F2, I2, i8, f8, f8, i8), **INNER)
def threat_now(fi, fr, ter, sc, ecp, p, s, i, x, y, watch):
    """Expected CP the enemies could shoot into ``i`` at (x, y) from where they stand."""
    t = 0.0
    side = fi[i, F_SIDE]
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == side:
            continue
        rj = int(fr[j, R_REACH])
        dx = x - p[j, P_X]
        dy = y - p[j, P_Y]
        if max(abs(dx), abs(dy)) - fr[i, R_RADIUS] - fr[j, R_RADIUS] > rj:
            continue  # out of Reach already by one coordinate (hypot is never smaller)
        d = dist(dx, dy) - fr[i, R_RADIUS] - fr[j, R_RADIUS]
        if d > rj:
            continue
        cov = sight(fi, fr, ter, sc, p, s, p[j, P_X], p[j, P_Y], fi[j, F_SIDE], j, i, x, y)
        if cov < 0:
            continue
        t += gun_threat(fi, ecp, s, j, i, cov, watch, d)
    return t


@njit((F2, F2, F1, F2, i8), **INNER)
def near_terminal(fr, ter, sc, p, i):
    k = int(sc[S_TERM])
    dx = max(ter[k, 0] - p[i, P_X], 0.0, p[i, P_X] - ter[k, 2])
    dy = max(ter[k, 1] - p[i, P_Y], 0.0, p[i, P_Y] - ter[k, 3])
    return dist(dx, dy) <= fr[i, R_RADIUS] + 1.0


@njit((I2, F2, F2, F1, I1, F2, I2, I1, i8), **INNER)
def virus_pull(fi, fr, ter, sc, op, p, s, g, i):
    """The greedy weight (0 or 1) of the computer for ``i`` ("3.5 Effective Actions",
    inserting a virus; the work counts one turn per action phase and the turns needed
    follow the workers of that phase).  0 unless ``i`` is an Attacker and the virus can
    still be in by the turn limit with every living Attacker helping.  Then 1 for a
    first worker (it gathers the turns of work), and for a helper (up to three: "Action
    Synergy on objects") once the turns of work still needed with every helper are
    within its own way there (turns of Movement) + 2: the helpers must be there on the
    phase the work ends; until then they fight (``effective_action``)."""
    side = fi[i, F_SIDE]
    if sc[S_OBJ] != 1 or side != g[G_ATTACKER]:
        return 0.0
    alive = 0
    best = -1
    there = 0
    lead = True  # no other figurine in front of the computer would lead the work
    for q in range(fi.shape[0]):
        if s[q, S_ALIVE] == 0 or fi[q, F_SIDE] != side:
            continue
        alive += 1
        best = max(best, fi[q, F_INT])
        if q != i and near_terminal(fr, ter, sc, p, q):
            there += 1
            if fi[q, F_INT] > fi[i, F_INT] or (fi[q, F_INT] == fi[i, F_INT] and q < i):
                lead = False
    left = g[G_MAXT] - g[G_TURN] + 1  # action phases left, this one included
    need = max(int(sc[S_OBJ_DL]) - best - min(alive - 1, 3), op[O_VIRUS_MIN])
    if g[G_PROGRESS] + left < need:
        return 0.0
    if there == 0 or (lead and near_terminal(fr, ter, sc, p, i)):
        return 1.0  # the first worker, or the lead of the work
    if there >= 4:
        return 0.0
    k = int(sc[S_TERM])
    dx = max(ter[k, 0] - p[i, P_X], 0.0, p[i, P_X] - ter[k, 2])
    dy = max(ter[k, 1] - p[i, P_Y], 0.0, p[i, P_Y] - ter[k, 3])
    way = int(dist(dx, dy) / max(fi[i, F_MOVE], 1))
    return 1.0 if need - g[G_PROGRESS] <= way + 2 else 0.0


@njit((F2, i8, f8, f8, i8, i8), **INNER)
def keep_walk(wk, k, x, y, stop, elem):
    """Candidate ``k``'s move ends at (x, y) with ``walk``'s stop code and element."""
    wk[k, 4] = x
    wk[k, 5] = y
    wk[k, 6] = 1.0
    wk[k, 7] = stop
    wk[k, 8] = elem


@njit((F2, i8, f8, f8, i8, f8), **INNER)
def add_cand(wk, n, x, y, mode, budget):
    if n >= MAXC:
        return n
    wk[n, 0] = x
    wk[n, 1] = y
    wk[n, 2] = mode
    wk[n, 3] = budget
    wk[n, 6] = 0.0  # 1: wk[n, 4:9] already holds where the move ends (keep_walk)
    return n + 1


@njit((I2, F2, F2, F1, F2, I2, F2, i8, i8, f8, f8, f8), **INNER)
def add_walked(fi, fr, ter, sc, p, s, wk, i, n, tx, ty, mv):
    """A normal move of ``i`` toward (tx, ty) as candidate ``n``, its walk kept; if the walk
    stops at the foot of an element, a second candidate rounds it by a corner
    (``detour``).  Returns the candidates and where the walk ended, with its stop code."""
    n0 = n
    n = add_cand(wk, n, tx, ty, M_NORMAL, mv)
    ex, ey, stop, elem = walk(fi, fr, ter, sc, p, s, i, tx, ty, mv)
    if n > n0:
        keep_walk(wk, n0, ex, ey, stop, elem)
    if stop == 2:
        qx, qy = detour(fr, ter, i, elem, p[i, P_X], p[i, P_Y], tx, ty)
        n = add_cand(wk, n, qx, qy, M_NORMAL, mv)
    return n, ex, ey, stop


@njit(**INLINE)
def line_end(fr, sc, p, i, tx, ty, budget):
    """Where a move of ``i`` toward (tx, ty) with ``budget`` cm would end on a bare table:
    ``walk``'s target kept on the table, then at most ``budget`` along the straight line
    (no terrain, no stands: greedy_search fast's estimate before a walk)."""
    _, tx, ty, x0, y0, ln = move_line(fr, sc, p, i, tx, ty)
    if ln < 1e-6 or budget <= 0.0:
        return x0, y0
    f = min(1.0, budget / ln)
    return x0 + (tx - x0) * f, y0 + (ty - y0) * f


@njit((I2, F2, F2, F1, F1, F2, F2, I2, I1, F2, i8, i8, i8, i8, f8), **INNER)
def best_move(fi, fr, ter, sc, ecp, pge, p, s, g, wk, i, n, climb, posture, pull):
    """The best of the ``n`` candidate moves of ``i`` in ``wk`` (``candidates``; when
    ``climb`` > 0 only those that climb), by the greedy worth of ending the move at (x, y)
    in its mode: the best attack (exact expected CP and removal chance from the roll
    tables) minus the weighted threat of the enemies next turn (cover and watchful
    counted), plus approach (weighted up by the turns begun idle, ``S_IDLE``) and
    objective terms (one kernel for all the candidates: a call per candidate, with its
    ten arrays, cost ~4% of greedy play).  ``posture`` 0 balanced, 1 aggressive,
    2 cautious, 3 hold (the lookahead's plans).  ``wk[SEEN, j]``: the sightline from
    enemy ``j`` to where ``i`` stands now (``UNKNOWN`` until computed): the candidates
    that end there (stay, ready to shoot, a blocked move) share it.  ``pull``: the
    Attacker's weight of the computer (``virus_pull``)."""
    side = fi[i, F_SIDE]
    ri = fr[i, R_RADIUS]
    reach = int(fr[i, R_REACH])
    tw = 0.5  # weight of the threat and of the approach (balanced)
    aw = 0.12
    if posture == 1:
        tw = 0.15
        aw = 0.3
    elif posture == 2:
        tw = 1.2
        aw = 0.05
    elif posture == 3:  # hold: out of the enemies' reach, no approach
        tw = 3.0
        aw = 0.0
    foes = 0  # bit j: enemy j is in play (the same for every candidate)
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != side:
            foes |= 1 << j

    # greedy_search fast: a candidate not yet walked is scored at its straight line's end
    # (``line_end``); once all are scored, the best is walked if it was not, and scored
    # again where its walk ends if that is elsewhere, until the best has been walked
    # (full: each is walked first).  ``wk[k, 9]``: the worth of candidate k (``SKIP``: not
    # a choice).
    lazy = sc[S_FAST + side] == 1.0 and climb == 0
    c = 0
    nxt = 0
    redo = -1
    while True:
        if redo >= 0:
            k = redo
            redo = -1
        elif nxt < n:
            k = nxt
            nxt += 1
        else:
            # the best worth, the first of near ties in candidate order
            bv = -BIG
            c = 0
            for q in range(n):
                if wk[q, 9] > bv + 1e-9:
                    bv = wk[q, 9]
                    c = q
            if wk[c, 6] == 1.0:
                break
            ex = wk[c, 4]
            ey = wk[c, 5]
            x, y, stop, elem = walk(fi, fr, ter, sc, p, s, i, wk[c, 0], wk[c, 1], wk[c, 3])
            keep_walk(wk, c, x, y, stop, elem)
            if x == ex and y == ey:
                break  # nothing in its way: the walk ends at the estimate, same worth
            redo = c
            continue
        wk[k, 9] = SKIP
        if wk[k, 6] == 1.0:
            x = wk[k, 4]
            y = wk[k, 5]
        elif wk[k, 3] <= 0.0:  # stay, ready to shoot: ``walk`` with no budget stays
            x = p[i, P_X]
            y = p[i, P_Y]
            keep_walk(wk, k, x, y, 0, -1)
        elif lazy:
            x, y = line_end(fr, sc, p, i, wk[k, 0], wk[k, 1], wk[k, 3])
            wk[k, 4] = x
            wk[k, 5] = y
        else:
            x, y, stop, elem = walk(fi, fr, ter, sc, p, s, i, wk[k, 0], wk[k, 1], wk[k, 3])
            keep_walk(wk, k, x, y, stop, elem)
        if climb > 0 and wk[k, 7] != 3.0:
            continue
        dup = False
        for q in range(k):
            if climb > 0 and wk[q, 7] != 3.0:
                continue
            if wk[q, 2] == wk[k, 2] and abs(wk[q, 4] - x) + abs(wk[q, 5] - y) < 0.3:
                dup = True
                break
        if dup:
            continue
        mode = int(wk[k, 2])
        here = x == p[i, P_X] and y == p[i, P_Y]
        watch = 1 if mode == M_WATCHFUL else 0
        off = 0.0
        ready_off = 0.0
        threat = 0.0
        near = BIG
        rest = foes
        while rest != 0:  # the enemies in play, in their order
            j = trailing_zeros(rest)
            rest &= rest - 1
            d = dist(x - p[j, P_X], y - p[j, P_Y]) - ri - fr[j, R_RADIUS]
            brawl = fr[i, R_BRAWL + j] > 0.5 or reach < 0
            want = d if brawl else d - reach
            if want < near:
                near = want
            rj = int(fr[j, R_REACH])
            mvj = fi[j, F_MOVE]
            if d <= CONTACT:
                syn = 0
                m = fi[i, F_HTH] + fi[i, F_HTHPOW] + syn - fi[j, F_PD]
                off = max(off, attack_value(fi, ecp, pge, m, j, s[j, S_CP]))
                mj = fi[j, F_HTH] + fi[j, F_HTHPOW] - fi[i, F_PD] - watch
                threat += exp_cp(ecp, mj, s[i, S_CP])
                continue
            if d > max(reach, 0) + mvj + 1.0 and d > rj + mvj:
                continue
            brawler = (
                d <= mvj + CONTACT
                and fi[j, F_HTH] + fi[j, F_HTHPOW] > 0
                and (fr[j, R_BRAWL + i] > 0.5 or rj < 0)
            )
            # the sightline only where a term below uses it (same values, fewer checks)
            cov = -1
            if (
                (d <= reach and mode != M_READY and mode != M_COVER)
                or (mode == M_READY and reach < d <= reach + mvj)
                or (not brawler and d <= rj + 0.5 * mvj)
                or d <= fr[i, R_THROW]
            ):
                if here and wk[SEEN, j] != UNKNOWN:
                    cov = int(wk[SEEN, j])
                else:
                    cov = sight_in(
                        fi, fr, ter, sc, p, s, p[j, P_X], p[j, P_Y], fi[j, F_SIDE], j, i, x, y
                    )
                    if here:
                        wk[SEEN, j] = cov
            if cov >= 0 and d <= reach and mode != M_READY and mode != M_COVER:
                w, _ = best_gun(fi, ecp, s, i, j, d, cov, False, False, False)
                if w >= 0:
                    a, pd = shot_margin(fi, s, i, w, j, cov, False, False)
                    off = max(off, attack_value(fi, ecp, pge, a - pd, j, s[j, S_CP]))
            if cov >= 0 and d <= fr[i, R_THROW] and mode != M_READY and mode != M_COVER:
                tv, _ = throw_value(fi, fr, ter, sc, ecp, pge, p, s, i, x, y, j, d, cov, 0)
                off = max(off, tv)
            if cov >= 0 and mode == M_READY and reach < d <= reach + mvj:
                w, _ = best_gun(fi, ecp, s, i, j, 0.0, cov, False, False, False)
                a, pd = shot_margin(fi, s, i, w, j, cov, False, False)
                ready_off = max(ready_off, 0.5 * attack_value(fi, ecp, pge, a - pd, j, s[j, S_CP]))
            if brawler:
                mj = fi[j, F_HTH] + fi[j, F_HTHPOW] - fi[i, F_PD] - watch
                threat += 0.7 * exp_cp(ecp, mj, s[i, S_CP])
            elif cov >= 0 and d <= rj + 0.5 * mvj:
                best = gun_threat(fi, ecp, s, j, i, cov, watch, -BIG)
                threat += best * (1.0 if d <= rj else 0.6)
        v = off + ready_off - tw * threat
        if off <= 0.0 and near < BIG:
            # the approach weighs more with every turn the figurine has begun idle (no shot,
            # blow or work since its previous turn): none stays out of reach for the game
            urge = max(s[i, S_IDLE], 1)
            v -= aw * urge * max(near, 0.0)
        if sc[S_OBJ] == 1:
            kt = int(sc[S_TERM])
            dx = max(ter[kt, 0] - x, 0.0, x - ter[kt, 2])
            dy = max(ter[kt, 1] - y, 0.0, y - ter[kt, 3])
            dt = dist(dx, dy) - ri
            if side == g[G_ATTACKER]:
                # in front of it the figurine works instead of acting: its attack is not made
                v += pull * (12.0 - off if dt <= 1.0 else -0.5 * dt)
            else:
                v -= 0.04 * max(dt - 15.0, 0.0)
        wk[k, 9] = v
    return c


@njit((I2, F2, F2, F1, F2, I2, F2, i8, i8, i8), **INNER)
def object_cand(fi, fr, ter, sc, p, s, wk, i, n, j):
    """A move of ``i`` into contact with the throwable object (Power above its DL) that it
    can reach this move and that lies nearest to enemy ``j``, on the object's side toward
    ``j`` (``candidates``; "Throwing Objects")."""
    nf = fi.shape[0]
    ob = int(sc[S_OBASE])
    x = p[i, P_X]
    y = p[i, P_Y]
    ri = fr[i, R_RADIUS]
    mv = float(fi[i, F_MOVE])
    best = -1
    bd = BIG
    for o in range(int(sc[S_NOBJ])):
        if int(ter[ob + o, OB_DL]) >= fi[i, F_POWER]:
            continue
        ox = p[nf + o, P_X]
        oy = p[nf + o, P_Y]
        if dist(ox - x, oy - y) > mv + ri + ter[ob + o, OB_R]:
            continue
        dj = dist(ox - p[j, P_X], oy - p[j, P_Y])
        if dj < bd:
            bd = dj
            best = o
    if best < 0:
        return n
    ox = p[nf + best, P_X]
    oy = p[nf + best, P_Y]
    ux = p[j, P_X] - ox
    uy = p[j, P_Y] - oy
    ul = max(dist(ux, uy), 1e-9)
    off = ri + ter[ob + best, OB_R] + 0.1
    return add_cand(wk, n, ox + ux / ul * off, oy + uy / ul * off, M_NORMAL, mv)


@njit((I2, F2, F2, F1, F2, I2, I1, F2, U1, i8, i8), **INNER)
def candidates(fi, fr, ter, sc, p, s, g, wk, rng, i, pol):
    """A fixed small set of moves ("3.1 Movements", "Types of movement for the SUs"): stay,
    ready to shoot, toward the best target (to Reach, or into contact), watchful toward it,
    charge the nearest enemy, behind the two nearest covers from the enemies, to the
    terminal (objective scenario), and for the random policy one random direction."""
    x = p[i, P_X]
    y = p[i, P_Y]
    mv = float(fi[i, F_MOVE])
    side = fi[i, F_SIDE]
    ri = fr[i, R_RADIUS]
    reach = int(fr[i, R_REACH])
    n = 0
    n = add_cand(wk, n, x, y, M_STAY, 0.0)
    if reach > 0:
        n = add_cand(wk, n, x, y, M_READY, 0.0)
    best = -1
    bv = -BIG
    nearest = -1
    nd = BIG
    cx = 0.0
    cy = 0.0
    ne = 0
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == side:
            continue
        cx += p[j, P_X]
        cy += p[j, P_Y]
        ne += 1
        d = gap(fr, p, i, j)
        if d < nd:
            nd = d
            nearest = j
        v = -d + 2.0 * (fi[j, F_POINTS] / max(s[j, S_CP], 1))
        if v > bv:
            bv = v
            best = j
    if ne == 0:
        return n
    cx /= ne
    cy /= ne
    for which in range(2):
        j = best if which == 0 else nearest
        if which == 1 and nearest == best:
            continue
        d = gap(fr, p, i, j)
        dx = p[j, P_X] - x
        dy = p[j, P_Y] - y
        dl = dist(dx, dy)
        if dl < 1e-9:
            continue
        brawl = fr[i, R_BRAWL + j] > 0.5 or reach < 0
        stand = dl - (ri + fr[j, R_RADIUS] + 0.05)
        if not brawl and which == 0:
            stand = max(0.0, d - (reach - 1.0))
        if stand > 0.5:  # no token moves (a watchful movement in place is not one)
            tx = x + dx / dl * stand
            ty = y + dy / dl * stand
            n, _, _, _ = add_walked(fi, fr, ter, sc, p, s, wk, i, n, tx, ty, mv)
            if which == 0:
                n = add_cand(wk, n, x + dx / dl * stand, y + dy / dl * stand, M_WATCHFUL, 0.5 * mv)
    # covers: the far side of the two nearest elements from the enemies (one pass: the
    # nearest, then the nearest of the others; ties to the first element)
    k1 = -1
    d1 = BIG
    k2 = -1
    d2 = BIG
    for k in range(int(sc[S_NTER])):
        if ter[k, 6] == K_DIFFICULT or ter[k, 6] == K_WATER:
            continue
        if ter[k, 5] <= 0 and ter[k, 4] <= fr[i, R_HEIGHT]:
            continue
        dk = dist(0.5 * (ter[k, 0] + ter[k, 2]) - x, 0.5 * (ter[k, 1] + ter[k, 3]) - y)
        if dk < d1:
            k2 = k1
            d2 = d1
            k1 = k
            d1 = dk
        elif dk < d2:
            k2 = k
            d2 = dk
    for rep in range(2):
        kb = k1 if rep == 0 else k2
        kd = d1 if rep == 0 else d2
        if kb < 0 or kd > 2.0 * mv + 20.0:
            break
        mx = 0.5 * (ter[kb, 0] + ter[kb, 2])
        my = 0.5 * (ter[kb, 1] + ter[kb, 3])
        ux = mx - cx
        uy = my - cy
        ul = dist(ux, uy)
        if ul < 1e-9:
            continue
        ux /= ul
        uy /= ul
        hw = 0.5 * (ter[kb, 2] - ter[kb, 0])
        hh = 0.5 * (ter[kb, 3] - ter[kb, 1])
        ext = min(hw / max(abs(ux), 1e-9), hh / max(abs(uy), 1e-9)) + ri + 0.1
        n = add_cand(wk, n, mx + ux * ext, my + uy * ext, M_NORMAL, mv)
    if sc[S_OBJ] == 1 and side == g[G_ATTACKER]:
        k = int(sc[S_TERM])
        px = min(max(x, ter[k, 0]), ter[k, 2])
        py = min(max(y, ter[k, 1]), ter[k, 3])
        dx = px - x
        dy = py - y
        dl = dist(dx, dy)
        if dl > ri + 0.5:
            tx = x + dx / dl * (dl - ri - 0.3)
            ty = y + dy / dl * (dl - ri - 0.3)
            n, ex, ey, stop = add_walked(fi, fr, ter, sc, p, s, wk, i, n, tx, ty, mv)
            if stop != 2 and dist(ex - tx, ey - ty) > 0.5 and dl - ri - 0.3 <= mv:
                # its spot in front of the computer is taken: the nearest free one of
                # eight around it (corners and sides, stand 0.3 cm off)
                bd = BIG
                bx = tx
                by = ty
                m = ri + 0.3
                for q in range(8):
                    if q < 4:
                        qx = ter[k, 0] - m if q % 2 == 0 else ter[k, 2] + m
                        qy = ter[k, 1] - m if q // 2 == 0 else ter[k, 3] + m
                    else:
                        qx = 0.5 * (ter[k, 0] + ter[k, 2])
                        qy = 0.5 * (ter[k, 1] + ter[k, 3])
                        if q == 4:
                            qx = ter[k, 0] - m
                        elif q == 5:
                            qx = ter[k, 2] + m
                        elif q == 6:
                            qy = ter[k, 1] - m
                        else:
                            qy = ter[k, 3] + m
                    free = True
                    for j in range(fi.shape[0]):
                        if j != i and s[j, S_ALIVE] == 1:
                            if overlaps(qx - p[j, P_X], qy - p[j, P_Y], ri + fr[j, R_RADIUS]):
                                free = False
                                break
                    dq = dist(qx - x, qy - y)
                    if free and dq < bd:
                        bd = dq
                        bx = qx
                        by = qy
                if bd < BIG:
                    n = add_cand(wk, n, bx, by, M_NORMAL, mv)
    if fr[i, R_THROW] >= 0.0 and n <= MAXC - 4:
        n = object_cand(fi, fr, ter, sc, p, s, wk, i, n, nearest)
    if pol == POL_RANDOM:
        a = pick(rng, 360) * math.pi / 180.0
        n = add_cand(wk, n, x + math.cos(a) * mv, y + math.sin(a) * mv, M_NORMAL, mv)
    return n


@njit((I2, F2, F2, F1, F1, F2, F2, I2, i8, i8, U1), **INNER)
def aim(fi, fr, ter, sc, ecp, pge, p, s, i, pol, rng):
    """Facing at the end of the move: toward the most valuable target in Reach and sight
    (greedy), else the nearest enemy ("keeps facing toward threats"); the random policy
    faces a random enemy.  Returns the greedy target in Reach and sight (-1: none)."""
    side = fi[i, F_SIDE]
    best = -1
    bv = -BIG
    ne = 0
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == side:
            continue
        ne += 1
        d = gap(fr, p, i, j)
        v = -d
        if d <= int(fr[i, R_REACH]):
            cov = sight(
                fi, fr, ter, sc, p, s, p[i, P_X], p[i, P_Y], side, i, j, p[j, P_X], p[j, P_Y]
            )
            if cov >= 0:
                w, _ = best_gun(fi, ecp, s, i, j, d, cov, False, False, False)
                if w >= 0:
                    a, pd = shot_margin(fi, s, i, w, j, cov, False, False)
                    v = 1000.0 + attack_value(fi, ecp, pge, a - pd, j, s[j, S_CP])
        if d <= fr[i, R_THROW]:
            cov = sight(
                fi, fr, ter, sc, p, s, p[i, P_X], p[i, P_Y], side, i, j, p[j, P_X], p[j, P_Y]
            )
            if cov >= 0:
                tv, o = throw_value(fi, fr, ter, sc, ecp, pge, p, s, i, p[i, P_X], p[i, P_Y],
                                    j, d, cov, 0)  # fmt: skip
                if o >= 0:
                    v = max(v, 1000.0 + tv)
        if v > bv:
            bv = v
            best = j
    if ne == 0:
        return -1
    if pol == POL_RANDOM:
        k = pick(rng, ne)
        for j in range(fi.shape[0]):
            if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != side:
                if k == 0:
                    best = j
                    break
                k -= 1
    face(p, i, p[best, P_X], p[best, P_Y])
    return best if bv >= 1000.0 and pol != POL_RANDOM else -1


@njit((I2, F2, F2, F1, I1, F1, F2, I2, I1, I1, U1, I2, i8, b1), **INNER)
def take_cover(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, commit):
    """ "Take cover": after a normal move, a figurine under an immediate and obvious threat
    (an enemy with it in Reach and sight) may run up to ``S_TAKE_COVER`` (5) cm more to a
    point within 5 cm of its arrival point that objectively improves its protection (a
    cover or a blocked sightline lowers the expected CP the enemies can shoot into it).
    This ends its turn.  Returns whether it took cover (``commit``: move it)."""
    x = p[i, P_X]
    y = p[i, P_Y]
    t0 = threat_now(fi, fr, ter, sc, ecp, p, s, i, x, y, 0)
    if t0 <= 0.0:
        return False
    ri = fr[i, R_RADIUS]
    lim = sc[S_TAKE_COVER]
    bx = 0.0
    by = 0.0
    bt = t0 - 1e-6
    bd = BIG
    found = False
    for k in range(int(sc[S_NTER])):
        kind = ter[k, 6]
        if kind in (K_DIFFICULT, K_WATER):
            continue
        if ter[k, 5] <= 0 and ter[k, 4] <= fr[i, R_HEIGHT]:
            continue
        e0 = ter[k, 0] - ri - 0.1
        e1 = ter[k, 1] - ri - 0.1
        e2 = ter[k, 2] + ri + 0.1
        e3 = ter[k, 3] + ri + 0.1
        if max(e0 - x, 0.0, x - e2) + max(e1 - y, 0.0, y - e3) > lim + 1.0:
            continue
        for q in range(25):
            if q < 4:
                qx = e0 if q % 2 == 0 else e2
                qy = e1 if q // 2 == 0 else e3
            elif q < 24:
                u = 0.1 + 0.2 * ((q - 4) % 5)
                edge = (q - 4) // 5
                if edge == 0:
                    qx = e0 + u * (e2 - e0)
                    qy = e1
                elif edge == 1:
                    qx = e0 + u * (e2 - e0)
                    qy = e3
                elif edge == 2:
                    qx = e0
                    qy = e1 + u * (e3 - e1)
                else:
                    qx = e2
                    qy = e1 + u * (e3 - e1)
            else:
                qx = min(max(x, e0), e2)
                qy = min(max(y, e1), e3)
                if e0 < x < e2 and e1 < y < e3:
                    continue
            if abs(qx - x) > lim or abs(qy - y) > lim or dist(qx - x, qy - y) > lim:
                continue
            wx, wy, _, _ = walk(fi, fr, ter, sc, p, s, i, qx, qy, lim)
            if dist(wx - qx, wy - qy) > 0.05:
                continue
            t = threat_now(fi, fr, ter, sc, ecp, p, s, i, wx, wy, 0)
            dd = dist(wx - x, wy - y)
            # ties go to the nearest point (independent of the enumeration order, so
            # that the two point-symmetric deployment frames play alike)
            if t < bt - 1e-9 or (found and t <= bt + 1e-9 and dd < bd - 1e-9):
                bt = t
                bd = dd
                bx = wx
                by = wy
                found = True
    if found and commit:
        do_move(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, bx, by, lim, M_COVER, True)
        s[i, S_MODE] = M_COVER
        s[i, S_DONE] = 1
        g[G_COVERS] += 1
    return found


@njit((F2, F2, F2, i8, i8, f8), **INNER)
def climb_across(fr, ter, p, i, k, mv):
    """The three targets of a climb of element ``k`` by ``i`` from the side of it that
    ``i`` stands at: straight across (``mv`` cm on), and the two landings one stand's width
    (plus 0.4 cm) to either side of the straight one (``climb_cands``, ``impulsive_move``)."""
    x = p[i, P_X]
    y = p[i, P_Y]
    r = fr[i, R_RADIUS]
    side_step = 2.0 * r + 0.4
    ox = max(ter[k, 0] - x, 0.0, x - ter[k, 2])
    oy = max(ter[k, 1] - y, 0.0, y - ter[k, 3])
    if oy >= ox:
        up = y < ter[k, 1]
        land = ter[k, 3] + r + 0.1 if up else ter[k, 1] - r - 0.1
        return x, y + (mv if up else -mv), x - side_step, land, x + side_step, land
    right = x < ter[k, 0]
    land = ter[k, 2] + r + 0.1 if right else ter[k, 0] - r - 0.1
    return x + (mv if right else -mv), y, land, y - side_step, land, y + side_step


@njit((I2, F2, F2, F1, F2, I2, F2, i8, i8), **INNER)
def climb_cands(fi, fr, ter, sc, p, s, wk, i, n):
    """For a figurine at the foot of the element it stopped at (``S_CLIMB``), which "climbs
    it at its next turn" ("3.1 Movements", option ``climb_next`` = must): three more
    candidates across the element (from the side it stands at): straight across, and to
    the two landings one stand's width (plus 0.4 cm) to either side of the straight one,
    so that a stand on the straight landing (e.g. a figurine at the opposite foot, itself
    waiting to climb) does not keep it at the foot; and the walk of every candidate
    (``keep_walk``: stop code 3 for those that climb it)."""
    k = s[i, S_CLIMB] - 1
    x = p[i, P_X]
    y = p[i, P_Y]
    mv = float(fi[i, F_MOVE])
    ax, ay, bx, by, cx, cy = climb_across(fr, ter, p, i, k, mv)
    n = add_cand(wk, n, ax, ay, M_NORMAL, mv)
    n = add_cand(wk, n, bx, by, M_NORMAL, mv)
    n = add_cand(wk, n, cx, cy, M_NORMAL, mv)
    for q in range(n):
        if wk[q, 6] != 1.0 and wk[q, 3] <= 0.0:  # no budget: ``walk`` stays
            keep_walk(wk, q, x, y, 0, -1)
        elif wk[q, 6] != 1.0:
            ex, ey, stop, elem = walk(fi, fr, ter, sc, p, s, i, wk[q, 0], wk[q, 1], wk[q, 3])
            keep_walk(wk, q, ex, ey, stop, elem)
    return n


@njit((I2, F2, F2, F1, I1, F1, F2, I2, I1, I1, U1, I2, i8), **INNER)
def impulsive_move(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i):
    """ "Automatic movements": an impulsive figurine moves first, its full Movement straight
    at the nearest enemy (into contact if it reaches; an element too high to climb over
    stops it at its foot, "3.1 Movements", and it climbs it at its next turn).  A move of
    0 cm at the foot of an element (its climb cannot land: the landing taken by a stand,
    off the table or on a second high element; or a high element right in front of it)
    is not made: of the climbs to the two landings to either side of the straight one
    (``climb_across``, when that element is its pending climb) and the way round the
    element by a corner (``detour``), the move ending nearest the enemy is made; it stays
    at the foot only if none of them moves it (option ``impulsive_blocked`` = round; wait:
    it stays, the behaviour before)."""
    nd = BIG
    jn = -1
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != fi[i, F_SIDE]:
            d = gap(fr, p, i, j)
            if d < nd:
                nd = d
                jn = j
    if jn < 0:
        return
    x0 = p[i, P_X]
    y0 = p[i, P_Y]
    dx = p[jn, P_X] - x0
    dy = p[jn, P_Y] - y0
    dl = dist(dx, dy)
    st = dl - fr[i, R_RADIUS] - fr[jn, R_RADIUS] - 0.05
    s[i, S_MODE] = M_NORMAL
    mv = float(fi[i, F_MOVE])
    x, y, stop, elem = walk(fi, fr, ter, sc, p, s, i, x0 + dx / dl * st, y0 + dy / dl * st, mv)
    if stop == 2 and x == x0 and y == y0 and op[O_IMP_ROUND] == 1:
        k = elem
        bd = BIG
        for q in range(3):
            if q < 2:
                if s[i, S_CLIMB] != k + 1:
                    continue
                _, _, bx, by, cx, cy = climb_across(fr, ter, p, i, k, mv)
                tx = bx if q == 0 else cx
                ty = by if q == 0 else cy
            else:
                tx, ty = detour(fr, ter, i, k, x0, y0, p[jn, P_X], p[jn, P_Y])
            ex, ey, es, ee = walk(fi, fr, ter, sc, p, s, i, tx, ty, mv)
            if ex == x0 and ey == y0:
                continue
            de = dist(ex - p[jn, P_X], ey - p[jn, P_Y])
            if de < bd:
                bd = de
                x = ex
                y = ey
                stop = es
                elem = ee
    move_to(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, x, y, stop, elem, M_NORMAL, True)


@njit(**INLINE)
def choose_move(fi, fr, ter, sc, op, ecp, pge, p, s, g, rng, wk, i, pol, posture):
    """The candidate move ``i`` takes (its row in ``wk``, ``candidates``): random, or the
    best by ``best_move``; a figurine that must climb this turn (``climb_cands``) picks among
    the candidates that climb."""
    n = candidates(fi, fr, ter, sc, p, s, g, wk, rng, i, pol)
    for j in range(fi.shape[0]):
        wk[SEEN, j] = UNKNOWN
    climb = 0  # the candidates that climb, when the figurine must climb this turn
    if op[O_CLIMB_NEXT] == 1 and s[i, S_CLIMB] > 0:
        n = climb_cands(fi, fr, ter, sc, p, s, wk, i, n)
        for k in range(n):
            if wk[k, 7] == 3.0:
                climb += 1
    c = 0
    if pol == POL_RANDOM:
        if climb > 0:
            q = pick(rng, climb)
            for k in range(n):
                if wk[k, 7] == 3.0:
                    if q == 0:
                        c = k
                        break
                    q -= 1
        else:
            c = pick(rng, n)
        return c
    pull = virus_pull(fi, fr, ter, sc, op, p, s, g, i)
    return best_move(fi, fr, ter, sc, ecp, pge, p, s, g, wk, i, n, climb, posture, pull)


@njit((I2, F2, F2, I2, i8, i8), **INNER)
def may_shoot_seen(fi, fr, p, s, i, j):
    """``can_shoot(i, j) >= 0`` when the sightline from ``i`` to ``j`` is known to be clear
    (``aim`` drew it on these positions; turning to face does not change it): the other
    tests of ``can_shoot_in`` and ``shoot_hth_sight``, in their order."""
    if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
        return False
    d = gap(fr, p, i, j)
    if d > fr[i, R_REACH]:
        return False
    if not in_front(p, i, p[j, P_X], p[j, P_Y], fr[j, R_RADIUS]):
        return False
    melee = in_hth(fi, fr, p, s, i)
    if melee and d > max_reach(fi, i, melee):
        return False
    return targetable(fi, fr, p, s, i, j, melee)


@njit(**INLINE)
def wants_cover(fi, fr, ter, sc, ecp, p, s, rng, i, pol, aimed):
    """Whether ``i``, after a normal move, takes cover (random: one time in four; greedy:
    when it has no target it may shoot, is not in HtH and the enemies threaten at least a
    fifth of its CP).  ``aimed``: ``aim``'s target, in Reach and sight (tried first: it
    usually may be shot; its sightline is not drawn again)."""
    if pol == POL_RANDOM:
        return pick(rng, 4) == 0
    if aimed >= 0 and may_shoot_seen(fi, fr, p, s, i, aimed):
        return False
    if aimed >= 0 and gap(fr, p, i, aimed) <= fr[i, R_THROW]:
        return False  # it has a throw (``aim``: in sight)
    melee = in_hth(fi, fr, p, s, i)
    mel = np.int64(1 if melee else 0)
    for j in range(fi.shape[0]):
        if can_shoot_in(fi, fr, ter, sc, p, s, i, j, mel) >= 0:
            return False
    if melee:
        return False
    return threat_now(fi, fr, ter, sc, ecp, p, s, i, p[i, P_X], p[i, P_Y], 0) >= 0.2 * s[i, S_CP]


@njit((I2, F2, F2, F1, I1, F1, F2, F2, I2, I1, I1, U1, I2, F2, i8, i8, i8), **INNER)
def move_figure(fi, fr, ter, sc, op, ecp, pge, p, s, g, dc, rng, ev, wk, i, pol, posture):
    """The movement of one figurine ("3.1 Movements"): a figurine in HtH does not move (it
    leaves by a retreat, "Leaving a HtH"); an impulsive one moves first, automatically
    (``impulsive_move``); the others pick a candidate by policy (``choose_move``), then may
    take cover (``wants_cover``, ``take_cover``)."""
    if s[i, S_ALIVE] == 0 or g[G_END] >= 0:
        return
    if in_hth(fi, fr, p, s, i):
        s[i, S_MODE] = M_STAY
        return
    if fi[i, F_IMPULSIVE] == 1:
        impulsive_move(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i)
        return
    c = choose_move(fi, fr, ter, sc, op, ecp, pge, p, s, g, rng, wk, i, pol, posture)
    mode = int(wk[c, 2])
    s[i, S_MODE] = mode
    if mode == M_READY:
        s[i, S_READY] = 1
        s[i, S_DONE] = 1
        aim(fi, fr, ter, sc, ecp, pge, p, s, i, pol, rng)
        x = mm(p[i, P_X])
        y = mm(p[i, P_Y])
        log(g, ev, E_MOVE, fi[i, F_SIDE], i, M_READY, x, y, x, y, 0, -1, 0)
        return
    if mode != M_STAY:
        if wk[c, 6] != 1.0:
            x, y, stop, elem = walk(fi, fr, ter, sc, p, s, i, wk[c, 0], wk[c, 1], wk[c, 3])
            keep_walk(wk, c, x, y, stop, elem)
        x = wk[c, 4]
        y = wk[c, 5]
        stop = int(wk[c, 7])
        elem = int(wk[c, 8])
        move_to(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, x, y, stop, elem, mode, True)
        if s[i, S_ALIVE] == 0 or g[G_END] >= 0:
            return
    aimed = aim(fi, fr, ter, sc, ecp, pge, p, s, i, pol, rng)
    if mode == M_NORMAL and wants_cover(fi, fr, ter, sc, ecp, p, s, rng, i, pol, aimed):
        take_cover(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, True)


# =========================================================== action phase
@njit((I2, F2, F2, F1, I1, F1, F2, F2, I2, I1, I1, U1, I2, i8, i8, i8), **INNER)
def retreat(fi, fr, ter, sc, op, ecp, pge, p, s, g, dc, rng, ev, i, kind, pol_enemy):
    """ "Leaving a HtH": HtH + D20 of the retreating figurine against HtH + D20 of one enemy
    of the HtH chosen by its owner (greedy: the best in HtH; random: any); higher succeeds.
    kind 0: normal Movement in a straight line + 5 cm, no shot; kind 1: half the Movement
    backing away (difficult terrain) and one shot with Skill halved (rounded up) at a
    figurine of the HtH just left.  Returns whether it succeeded."""
    side = fi[i, F_SIDE]
    e = -1
    eb = -1
    cnt = 0
    cx = 0.0
    cy = 0.0
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != side and in_contact(fr, p, i, j):
            cnt += 1
            cx += p[j, P_X]
            cy += p[j, P_Y]
            if fi[j, F_HTH] > eb:
                eb = fi[j, F_HTH]
                e = j
    if cnt == 0:
        return True
    cx /= cnt
    cy /= cnt
    if pol_enemy == POL_RANDOM:
        k = pick(rng, cnt)
        for j in range(fi.shape[0]):
            if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != side and in_contact(fr, p, i, j):
                if k == 0:
                    e = j
                    break
                k -= 1
    a = fi[i, F_HTH] + d20(g, dc, rng)
    b = fi[e, F_HTH] + d20(g, dc, rng)
    g[G_RETREATS] += 1
    ok = a > b
    log(g, ev, E_RETREAT, side, i, e, a, b, 1 if ok else 0, kind, 0, 0, 0)
    if not ok:
        return False
    g[G_RETREATS_WON] += 1
    dx = p[i, P_X] - cx
    dy = p[i, P_Y] - cy
    dl = max(dist(dx, dy), 1e-9)
    mv = float(fi[i, F_MOVE])
    budget = mv + 5.0 if kind == 0 else 0.5 * mv
    move_along(
        fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, dx / dl, dy / dl, budget, budget, False
    )
    s[i, S_DONE] = 1
    if kind == 1:
        face(p, i, cx, cy)
        best = -1
        bv = -1.0
        for j in range(fi.shape[0]):
            if (
                s[j, S_ALIVE] == 1
                and fi[j, F_SIDE] != side
                and (
                    dist(p[j, P_X] - cx, p[j, P_Y] - cy) < 8.0
                    and can_shoot(fi, fr, ter, sc, p, s, i, j) >= 0
                )
            ):
                v = float(s[j, S_CP]) * -1.0 + 100.0
                if v > bv:
                    bv = v
                    best = j
        if best >= 0:
            shoot(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, best, True, 0, UNKNOWN)
    else:
        face(p, i, p[i, P_X] + dx, p[i, P_Y] + dy)
    return True


@njit((I2, F2, F2, F1, F1, F2, F2, I2, i8, i8, U1), **INNER)
def best_attack(fi, fr, ter, sc, ecp, pge, p, s, i, pol, rng):
    """The action of ``i``: (kind, target, cover) with kind 1 a shot (``cover``: the
    target's, as ``can_shoot``), 2 a HtH blow, 0 none.  Greedy: the highest value
    (expected CP + removal chance: focus fire); random: any."""
    side = fi[i, F_SIDE]
    melee = in_hth(fi, fr, p, s, i)
    mel = np.int64(1 if melee else 0)
    bk = 0
    bt = -1
    bc = -1
    bv = -BIG
    cnt = 0
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == side:
            continue
        for kind in range(1, 3):
            v = -BIG
            cov = -1
            if kind == 2:
                if not in_contact(fr, p, i, j):
                    continue
                a, pd, _, _ = blow_margin(fi, fr, p, s, i, j)
                v = attack_value(fi, ecp, pge, a - pd, j, s[j, S_CP])
            else:
                cov = can_shoot_in(fi, fr, ter, sc, p, s, i, j, mel)
                if cov < 0:
                    continue
                back = rear(p, j, p[i, P_SX], p[i, P_SY])
                w, _ = best_gun(fi, ecp, s, i, j, gap(fr, p, i, j), cov, back, False, melee)
                if w < 0:
                    continue
                a, pd = shot_margin(fi, s, i, w, j, cov, back, False)
                v = attack_value(fi, ecp, pge, a - pd, j, s[j, S_CP])
            cnt += 1
            if pol == POL_RANDOM:
                if pick(rng, cnt) == 0:
                    bk = kind
                    bt = j
                    bc = cov
            elif v > bv:
                bv = v
                bk = kind
                bt = j
                bc = cov
    if fr[i, R_THROW] >= 0.0 and not melee:
        bk, bt, bc = throw_choice(fi, fr, ter, sc, ecp, pge, p, s, i, pol, rng, bk, bt, bc, bv, cnt)
    return bk, bt, bc


@njit((I2, F2, F2, F1, I1, F2, I2, I1, I2, U1, i8, i8), **INNER)
def effective_action(fi, fr, ter, sc, op, p, s, g, ev, rng, side, pol):
    """ "3.5 Effective Actions", inserting a virus: the attacker's figurines in front of the
    computer (stand within 1 cm of it), not in HtH, work instead of shooting; the best
    Intelligence leads and each helper adds +1 ("Action Synergy on objects", up to +3).
    The number of turns is DL - Intelligence (at least ``virus_min_turns``); one turn of
    work is counted per action phase; when done, the attacker completes the objective."""
    if sc[S_OBJ] != 1 or side != g[G_ATTACKER]:
        return
    workers = 0
    lead = -1
    li = -1
    alive = 0
    best = -1
    able = 0  # bit q: figurine q may work
    for i in range(fi.shape[0]):
        if s[i, S_ALIVE] == 0 or fi[i, F_SIDE] != side:
            continue
        alive += 1
        best = max(best, fi[i, F_INT])
        if s[i, S_DONE] == 1 or not near_terminal(fr, ter, sc, p, i) or in_hth(fi, fr, p, s, i):
            continue
        if pol == POL_RANDOM and pick(rng, 2) == 0:
            continue
        able |= 1 << i
    if pol != POL_RANDOM:
        # greedy: no work when the virus cannot be in by the turn limit even with every
        # living Attacker helping (they fight instead); the best Intelligence leads,
        # alone (the turns of work count whoever works), with helpers only on the phase
        # they end the work (the fewest that do, up to three)
        least = max(int(sc[S_OBJ_DL]) - best - min(alive - 1, 3), op[O_VIRUS_MIN])
        if g[G_PROGRESS] + g[G_MAXT] - g[G_TURN] + 1 < least:
            return
        cnt = 0
        for i in range(fi.shape[0]):
            cnt += (able >> i) & 1
        keep = 0
        for h in range(4):
            b = -1
            for i in range(fi.shape[0]):
                if (able >> i) & 1 == 1 and (keep >> i) & 1 == 0:
                    if b < 0 or fi[i, F_INT] > fi[b, F_INT]:
                        b = i
            if b < 0:
                break
            if h == 0:
                li = fi[b, F_INT]
            elif g[G_PROGRESS] + 1 < max(int(sc[S_OBJ_DL]) - li - min(cnt - 1, 3), op[O_VIRUS_MIN]):
                break  # even every helper there cannot end it this phase: they fight
            keep |= 1 << b
            if g[G_PROGRESS] + 1 >= max(int(sc[S_OBJ_DL]) - li - h, op[O_VIRUS_MIN]):
                break  # enough helpers to end the work this phase
        able = keep
        li = -1
    for i in range(fi.shape[0]):
        if (able >> i) & 1 == 0:
            continue
        workers += 1
        s[i, S_DONE] = 1
        s[i, S_ACTED] = 1
        if fi[i, F_INT] > li:
            li = fi[i, F_INT]
            lead = i
    if workers == 0:
        return
    need = max(int(sc[S_OBJ_DL]) - li - min(workers - 1, 3), op[O_VIRUS_MIN])
    g[G_PROGRESS] += 1
    g[G_EFFECTIVE] += 1
    log(g, ev, E_ACTION, side, workers, lead, g[G_PROGRESS], need, 0, 0, 0, 0, 0)
    if g[G_PROGRESS] >= need and g[G_END] < 0:
        g[G_OBJDONE] = 1
        g[G_END] = END_OBJECTIVE
        g[G_WINNER] = side + 1


@njit((I2, F2, F2, F1, I1, F1, F2, F2, I2, I1, I1, U1, I2, i8, i8, i8), **INNER)
def action_phase(fi, fr, ter, sc, op, ecp, pge, p, s, g, dc, rng, ev, side, pol, pol_other):
    """ "3. The Game's Turns and Phases", action/shooting phase: retreats first ("Leaving a
    HtH": "performed before all other Actions/Shots"), then the effective action on the
    objective, then each figurine's one shot or HtH blow in squad order."""
    n = fi.shape[0]
    for i in range(n):
        if s[i, S_ALIVE] == 0 or fi[i, F_SIDE] != side or s[i, S_DONE] == 1 or g[G_END] >= 0:
            continue
        if not in_hth(fi, fr, p, s, i):
            continue
        want = -1
        if pol == POL_RANDOM:
            r = pick(rng, 4)
            want = r if r < 2 else -1
        else:
            ein = 0.0
            for j in range(n):
                if s[j, S_ALIVE] == 1 and fi[j, F_SIDE] != side and in_contact(fr, p, i, j):
                    a, pd, _, _ = blow_margin(fi, fr, p, s, j, i)
                    ein += exp_cp(ecp, a - pd, s[i, S_CP])
            k, t, _ = best_attack(fi, fr, ter, sc, ecp, pge, p, s, i, POL_GREEDY, rng)
            eout = 0.0
            if k == 2:
                a, pd, _, _ = blow_margin(fi, fr, p, s, i, t)
                eout = exp_cp(ecp, a - pd, s[t, S_CP])
            if ein > 1.5 * eout + 2.0 and int(fr[i, R_REACH]) > 0:
                want = 1
        if want >= 0:
            ok = retreat(fi, fr, ter, sc, op, ecp, pge, p, s, g, dc, rng, ev, i, want, pol_other)
            if not ok and op[O_FAILED_ACTS] == 0:
                s[i, S_DONE] = 1
    effective_action(fi, fr, ter, sc, op, p, s, g, ev, rng, side, pol)
    for i in range(n):
        if g[G_END] >= 0:
            return
        if s[i, S_ALIVE] == 0 or fi[i, F_SIDE] != side or s[i, S_DONE] == 1:
            continue
        k, t, cv = best_attack(fi, fr, ter, sc, ecp, pge, p, s, i, pol, rng)
        if k == 1:
            shoot(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, i, t, False, 0, cv)
        elif k == 2:
            blow(fi, fr, p, s, g, dc, rng, ev, i, t)
        elif k >= THROW_KIND:
            throw(fi, fr, ter, sc, p, s, g, dc, rng, ev, i, t, k - THROW_KIND, cv)


# =========================================================== turns and the match
@njit((I2, F2, F2, F1, F2, I2, I1), **INNER)
def check(fi, fr, ter, sc, p, s, g):
    """Invariant checker: CP within [0, max], removed figurines at 0 CP and off the board,
    figurines in play inside the table, no two stands overlapping, objects on the table."""
    n = fi.shape[0]
    bad = 0
    for i in range(n):
        if s[i, S_CP] < 0 or s[i, S_CP] > fi[i, F_CP]:
            bad += 1
        if s[i, S_ALIVE] == 0:
            if s[i, S_CP] != 0 or p[i, P_X] != OFF_BOARD:
                bad += 1
            continue
        r = fr[i, R_RADIUS]
        if s[i, S_CP] < 1:
            bad += 1
        if p[i, P_X] < r - 1e-6 or p[i, P_X] > sc[S_W] - r + 1e-6:
            bad += 1
        if p[i, P_Y] < r - 1e-6 or p[i, P_Y] > sc[S_H] - r + 1e-6:
            bad += 1
        for j in range(i + 1, n):
            if s[j, S_ALIVE] == 1:
                dd = dist(p[i, P_X] - p[j, P_X], p[i, P_Y] - p[j, P_Y])
                if dd < r + fr[j, R_RADIUS] - 1e-4:
                    bad += 1
    ob = int(sc[S_OBASE])
    for o in range(int(sc[S_NOBJ])):
        x = p[n + o, P_X]
        y = p[n + o, P_Y]
        ro = ter[ob + o, OB_R]
        if x < ro - 1e-6 or x > sc[S_W] - ro + 1e-6 or y < ro - 1e-6 or y > sc[S_H] - ro + 1e-6:
            bad += 1
    g[G_VIOL] += bad


@njit((I1, I1, i8), **INNER)
def policy(op, g, side):
    pol = op[O_POL_A + side]
    if g[G_ROLL] != 0:
        return POL_GREEDY
    return pol


@njit((I2, I1, F2, I2, I1, I2, i8), **INNER)
def begin_turn(fi, op, p, s, g, ev, side):
    """The start of one player's Turn (``run_block`` plays the rest: his movement phase,
    automatic movements first, then his action/shooting phase, "3. The Game's Turns and
    Phases"): watchful and ready to shoot last until the figurine's next turn, which starts
    here.  Returns the policies of the side and of its opponent this turn."""
    pol = policy(op, g, side)
    pol_other = policy(op, g, 1 - side)
    if pol == POL_LOOKAHEAD:
        pol = POL_GREEDY
    if pol_other == POL_LOOKAHEAD:
        pol_other = POL_GREEDY
    log(g, ev, E_TURN, side, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    for i in range(fi.shape[0]):
        if fi[i, F_SIDE] == side and s[i, S_ALIVE] == 1:
            s[i, S_MODE] = M_NORMAL
            s[i, S_READY] = 0
            s[i, S_DONE] = 0
            s[i, S_IDLE] = 0 if s[i, S_ACTED] == 1 else min(s[i, S_IDLE] + 1, IDLE_CAP)
            s[i, S_ACTED] = 0
            p[i, P_SX] = p[i, P_X]
            p[i, P_SY] = p[i, P_Y]
            g[G_ACT] += 1
    return pol, pol_other


@njit((I2, I2, i8), **INNER)
def unit_weighted(fi, s, i):
    """The figurine's CP-weighted points left: points x CP left / CP of the card."""
    if s[i, S_ALIVE] == 0:
        return 0.0
    return fi[i, F_POINTS] * s[i, S_CP] / fi[i, F_CP]


@njit((I2, I2, i8), **INNER)
def weighted(fi, s, side):
    """CP-weighted points left of a side: its figurines' (``unit_weighted``), summed."""
    t = 0.0
    for i in range(fi.shape[0]):
        if fi[i, F_SIDE] == side:
            t += unit_weighted(fi, s, i)
    return t


@njit((I2, F1, I2, I1), **INNER)
def end_turn_limit(fi, sc, s, g):
    """The turn limit: the scenario's rule (defender wins, or CP-weighted points left:
    the higher wins, equal is a draw)."""
    g[G_END] = END_TURNS
    if sc[S_LIMIT_RULE] == 1:
        g[G_WINNER] = g[G_ATTACKER] ^ 1
        g[G_WINNER] += 1
        return
    a = weighted(fi, s, 0)
    b = weighted(fi, s, 1)
    g[G_WINNER] = 0 if abs(a - b) < 1e-9 else (1 if a > b else 2)


@njit((I2, F1, I2, I1), **INNER)
def next_half(fi, sc, s, g):
    if g[G_END] >= 0:
        return
    if g[G_HALF] == 0:
        g[G_HALF] = 1
    else:
        g[G_HALF] = 0
        if g[G_TURN] >= g[G_MAXT]:
            end_turn_limit(fi, sc, s, g)
        else:
            g[G_TURN] += 1


@njit((I2, F1, I2, I1, i8), **INNER)
def rollout_score(fi, sc, s, g, side):
    v = weighted(fi, s, side) - weighted(fi, s, 1 - side)
    if g[G_END] >= 0 and g[G_WINNER] != 0:
        v += 200.0 if g[G_WINNER] == side + 1 else -200.0
    if sc[S_OBJ] == 1:
        v += (8.0 if g[G_ATTACKER] == side else -8.0) * g[G_PROGRESS]
    return v


@njit((I2, I1, I1, U1, b1), **INNER)
def rolloff(fi, g, dc, rng, bonus):
    """Both players throw the D20 (+ ``bonus``: "Who starts ?" +1 per infiltration or
    precognition figurine), a draw is thrown again; returns the winner and the totals."""
    ba = 0
    bb = 0
    if bonus:
        for i in range(fi.shape[0]):
            if fi[i, F_SCOUT] == 1:
                if fi[i, F_SIDE] == 0:
                    ba += 1
                else:
                    bb += 1
    while True:
        a = d20(g, dc, rng) + ba
        b = d20(g, dc, rng) + bb
        if a != b:
            return (0 if a > b else 1), a, b


@njit((I2, F2, F2, F1, F2, I2, I1, U1, I2, i8, i8), **INNER)
def deploy(fi, fr, ter, sc, p, s, g, rng, ev, side, pol):
    """ "2. Deployment": from the side's border (a band) or corner (a square) to the
    deployment distance; side B's frame is side A's turned through 180 degrees (point
    symmetric).  Greedy spreads the squad evenly at mid-depth; random places uniformly."""
    w = sc[S_W]
    h = sc[S_H]
    depth = sc[S_DEPTH_A] if side == 0 else sc[S_DEPTH_B]
    fwd = sc[S_OBJ] == 1 and side == g[G_ATTACKER] and pol != POL_RANDOM
    idx = 0
    cnt = 0
    for i in range(fi.shape[0]):
        if fi[i, F_SIDE] == side:
            cnt += 1
    for i in range(fi.shape[0]):
        if fi[i, F_SIDE] != side:
            continue
        r = fr[i, R_RADIUS]
        ok = False
        x = 0.0
        y = 0.0
        for tries in range(60):
            if pol == POL_RANDOM or tries >= 20:
                u = (pick(rng, 1000) + 0.5) / 1000.0
                v = (pick(rng, 1000) + 0.5) / 1000.0
            else:
                u = (idx + 0.5) / cnt
                v = 0.5 - 0.08 * tries if tries % 2 == 0 else 0.5 + 0.08 * tries
                v = min(max(v, 0.05), 0.95)
            if fwd and tries < 20:
                # the Attacker of an objective scenario deploys at the front of its zone
                # (its far corner), toward the objective: spaced 5.6 cm along both edges
                o = 5.6 * ((idx + 1) // 2)
                x = depth - r - 3.0 * tries - (o if idx % 2 == 1 else 0.0)
                y = depth - r - 3.0 * tries - (o if idx % 2 == 0 else 0.0)
                if sc[S_DEPLOY] == 0:
                    x = r + u * (w - 2 * r)
                    y = depth - r - 3.0 * tries
                x = max(x, r)
                y = max(y, r)
            elif sc[S_DEPLOY] == 0:
                x = r + u * (w - 2 * r)
                y = r + v * max(depth - 2 * r, 0.0)
            else:
                if pol != POL_RANDOM and tries < 20:
                    x = r + u * 0.8 * depth
                    y = r + (1.0 - u) * 0.8 * depth * v * 2.0 * 0.6
                else:
                    x = r + u * max(depth - 2 * r, 0.0)
                    y = r + v * max(depth - 2 * r, 0.0)
            if side == 1:
                x = w - x
                y = h - y
            ok = True
            for k in range(int(sc[S_NTER])):
                if ter[k, 6] != K_DIFFICULT and ter[k, 6] != K_WATER:
                    if ter[k, 0] - r < x < ter[k, 2] + r and ter[k, 1] - r < y < ter[k, 3] + r:
                        ok = False
            for m in range(fi.shape[0]):
                if m != i and s[m, S_ALIVE] == 1:
                    if overlaps(x - p[m, P_X], y - p[m, P_Y], r + fr[m, R_RADIUS] + 0.5):
                        ok = False
            if ok:
                break
        idx += 1
        p[i, P_X] = x
        p[i, P_Y] = y
        set_face(p, i, 0.5 * math.pi if side == 0 else -0.5 * math.pi)
        s[i, S_ALIVE] = 1
        log(g, ev, E_DEPLOY, side, i, mm(x), mm(y), 0, 0, 0, 0, 0, 0)


@njit((I2, F2, F2, F1, I1, F2, I2, I1, I1, U1, I2, i8), **INNER)
def setup_match(fi, fr, ter, sc, op, p, s, g, dc, rng, ev, k):
    """A new match: roles by D20 ("1. Starting a Game"), who starts ("Who starts ?"),
    deployment of both squads."""
    n = fi.shape[0]
    for i in range(n):
        for c in range(P_COLS):
            p[i, c] = 0.0
        for c in range(S_COLS):
            s[i, c] = 0
        s[i, S_CP] = fi[i, F_CP]
        s[i, S_REMOVED_TURN] = 0
        p[i, P_X] = OFF_BOARD
        p[i, P_Y] = OFF_BOARD
    ob = int(sc[S_OBASE])
    for o in range(int(sc[S_NOBJ])):  # the throwable objects where the scenario puts them
        p[n + o, P_X] = ter[ob + o, OB_X]
        p[n + o, P_Y] = ter[ob + o, OB_Y]
    trace = g[G_TRACE]
    chk = g[G_CHECK]
    for c in range(G_COLS):
        g[c] = 0
    g[G_TRACE] = trace
    g[G_CHECK] = chk
    g[G_END] = -1
    g[G_TURN] = 1
    g[G_MAXT] = op[O_MAXTURNS] if op[O_MAXTURNS] > 0 else int(sc[S_TURNS])
    att, ra, rb = rolloff(fi, g, dc, rng, False)
    g[G_ATTACKER] = att
    log(g, ev, E_ROLES, 0, att, ra, rb, 0, 0, 0, 0, 0, 0)
    mode = op[O_FIRST]
    if op[O_FORCED] >= 0:
        first = op[O_FORCED]
    elif mode == 1:
        first = k % 2
    elif mode == 2:
        first = 0
    elif mode == 3:
        first = 1
    else:
        win, ra, rb = rolloff(fi, g, dc, rng, True)
        first = win if op[O_WINNER_STARTS] == 1 else 1 - win
        log(g, ev, E_ROLLOFF, 0, ra, rb, win, first, 0, 0, 0, 0, 0)
    g[G_FIRST] = first
    for side in range(2):
        deploy(fi, fr, ter, sc, p, s, g, rng, ev, side, op[O_POL_A + side])
    for i in range(n):
        p[i, P_SX] = p[i, P_X]
        p[i, P_SY] = p[i, P_Y]


@njit((I2, I2, I1, I2, I3, i8), **INNER)
def write_record(fi, s, g, rec, urec, row):
    rec[row, 0] = g[G_WINNER]
    rec[row, 1] = int(weighted(fi, s, 0))
    rec[row, 2] = int(weighted(fi, s, 1))
    rec[row, 3] = g[G_FIRST]
    rec[row, 4] = g[G_TURN]
    rec[row, 5] = g[G_END]
    rec[row, 6] = g[G_ACT]
    rec[row, 7] = g[G_VIOL]
    rec[row, 8] = g[G_ATTACKER]
    rec[row, 9] = g[G_OBJDONE]
    rec[row, 10] = g[G_SHOTS]
    rec[row, 11] = g[G_HITS]
    rec[row, 12] = g[G_BLOWS]
    rec[row, 13] = g[G_READYSHOTS]
    rec[row, 14] = g[G_RETREATS]
    rec[row, 15] = g[G_RETREATS_WON]
    rec[row, 16] = g[G_COVERS]
    rec[row, 17] = g[G_EFFECTIVE]
    for i in range(fi.shape[0]):
        urec[row, i, 0] = 0 if s[i, S_ALIVE] == 1 else 1
        urec[row, i, 1] = s[i, S_DEALT]
        urec[row, i, 2] = s[i, S_TAKEN]
        urec[row, i, 3] = int(unit_weighted(fi, s, i))
        urec[row, i, 4] = s[i, S_SHOTS]
        urec[row, i, 5] = s[i, S_BLOWS]
        urec[row, i, 6] = s[i, S_REMOVED_TURN]


@njit((F2, I2, I1, F2, I2, I1), **INNER)
def copy_state(p, s, g, p2, s2, g2):
    """The match state into the lookahead's copies, element by element (no slice
    assignment: numba compiles its shape checks and their formatted error messages)."""
    for i in range(p.shape[0]):
        for c in range(P_COLS):
            p2[i, c] = p[i, c]
        for c in range(S_COLS):
            s2[i, c] = s[i, c]
    for c in range(G_COLS):
        g2[c] = g[c]


@njit((I2, F1, F2, F2, F1, F2), **INNER)
def tabulate(fi, ecp, fr, ter, sc, fx):
    """``fx``: ``fr`` and the match-up's static tables (``R_REACH``, ``R_BRAWL``,
    ``R_TALL``), once per block instead of once per candidate move."""
    nter = int(sc[S_NTER])
    n = fi.shape[0]
    for i in range(n):
        for c in range(FR_COLS):
            fx[i, c] = fr[i, c]
        fx[i, R_REACH] = max_reach(fi, i, False)
        for j in range(n):
            fx[i, R_BRAWL + j] = 1.0 if hth_better(fi, ecp, i, j) else 0.0
        tall = 0.0
        for k in range(min(nter, TALL_BITS)):
            kind = ter[k, 6]
            if (kind in (K_ELEMENT, K_TERMINAL)) and 2.0 * ter[k, 4] >= fi[i, F_MOVE]:
                tall += float(1 << k)
        fx[i, R_TALL] = tall
        # the longest throw: Power - DL of the lightest object it can lift (-1: none)
        far = -1.0
        ob = int(sc[S_OBASE])
        for o in range(int(sc[S_NOBJ])):
            dl = ter[ob + o, OB_DL]
            if dl <= fi[i, F_POWER]:
                far = max(far, fi[i, F_POWER] - dl)
        fx[i, R_THROW] = far


@njit(cache=True, error_model="numpy")
def sandbox_op(fi, fr, ter, sc, op, ecp, pge, p, s, g, dc, rng, ev, code, a, b, c, x, y):
    """The rule tests' entry kernel (``sandbox.py``): one engine operation ``code``
    (``OP_SHOT`` ...) on the hand-built state ``p .. ev`` with the operands ``a, b, c, x,
    y``; returns its result (0.0 when it has none).  Its own entry, so that the match
    runner's ``run_block`` compiles none of this dispatch."""
    wk = np.zeros((SEEN + 1, MAX_FIG))
    fx = np.zeros((fi.shape[0], FX_COLS))
    tabulate(fi, ecp, fr, ter, sc, fx)
    fr = fx
    if code == OP_SHOT:
        shoot(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, a, b, c == 1, 0, UNKNOWN)
    elif code == OP_BLOW:
        blow(fi, fr, p, s, g, dc, rng, ev, a, b)
    elif code == OP_MOVE:
        budget = float(fi[a, F_MOVE]) * (0.5 if b == M_WATCHFUL else 1.0)
        s[a, S_MODE] = b
        do_move(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, a, x, y, budget, b, True)
    elif code == OP_RETREAT:
        return 1.0 if retreat(fi, fr, ter, sc, op, ecp, pge, p, s, g, dc, rng, ev, a, b, c) else 0.0
    elif code == OP_MOVE_PHASE:
        for i in range(fi.shape[0]):
            if fi[i, F_SIDE] == a:
                move_figure(fi, fr, ter, sc, op, ecp, pge, p, s, g, dc, rng, ev, wk, i, c, 0)
    elif code == OP_ACTION_PHASE:
        action_phase(fi, fr, ter, sc, op, ecp, pge, p, s, g, dc, rng, ev, a, c, c)
    elif code == OP_SIGHT:
        return float(can_shoot(fi, fr, ter, sc, p, s, a, b))
    elif code == OP_TAKE_COVER:
        return 1.0 if take_cover(fi, fr, ter, sc, op, ecp, p, s, g, dc, rng, ev, a, True) else 0.0
    elif code == OP_ROLLOFF:
        w, ra, rb = rolloff(fi, g, dc, rng, True)
        return float(w * 10000 + ra * 100 + rb)
    elif code == OP_THROW:
        cv = can_throw(fi, fr, ter, sc, p, s, a, b, c)
        if cv < 0:
            return float(cv)
        throw(fi, fr, ter, sc, p, s, g, dc, rng, ev, a, b, c, cv)
        return 1.0
    elif code == OP_BEST_ATTACK:
        k, t, cv = best_attack(fi, fr, ter, sc, ecp, pge, p, s, a, c, rng)
        return float(k * 10000 + (t + 1) * 100 + cv + 1)
    elif code == OP_CHECK:
        g[G_VIOL] = 0
        check(fi, fr, ter, sc, p, s, g)
        return float(g[G_VIOL])
    return 0.0


@njit(cache=True, nogil=True, error_model="numpy")
def run_block(
    fi, fr, ter, sc, op, ecp, pge, p, s, g, dc, rng, ev, state, block, first, count, rec, urec,
    trace, chk,
):  # fmt: skip
    """The match runner's entry kernel: play matches ``first .. first + count - 1`` into
    ``rec`` and ``urec`` on the state arrays ``p .. rng``; match ``k`` is seeded from the
    block state and ``k % block`` (``analyzer.match.seeding_nb.seed_match``).  Returns the
    trace rows written (``trace``), else 0.

    A match: set-up, then player turns until the end.  The lookahead policy (at the start
    of each of its turns) tries each of its ``lookahead_k`` plans (greedy balanced,
    aggressive, cautious, hold) on copies of the state: this turn with that plan, then the next
    ``lookahead_depth`` player turns greedily for both sides with forked generators
    (common random numbers over the plans, ``lookahead_rollouts`` each), and keeps the
    plan with the best mean CP-weighted margin (ties: the plain greedy plan)."""
    wk = np.zeros((SEEN + 1, MAX_FIG))
    fx = np.zeros((fi.shape[0], FX_COLS))
    tabulate(fi, ecp, fr, ter, sc, fx)
    fr = fx
    n = fi.shape[0]
    p2 = np.zeros((p.shape[0], P_COLS))  # the figurines, then the throwable objects
    s2 = np.zeros((s.shape[0], S_COLS), np.int64)
    g2 = np.zeros(G_COLS, np.int64)
    rng2 = np.zeros(6, np.uint64)
    for kk in range(count):
        k = first + kk
        seed_match(rng, state, k % block)
        g[G_TRACE] = 1 if trace else 0
        g[G_CHECK] = 1 if chk else 0
        setup_match(fi, fr, ter, sc, op, p, s, g, dc, rng, ev, k)
        if g[G_CHECK]:
            check(fi, fr, ter, sc, p, s, g)
        while g[G_END] < 0:
            side = g[G_FIRST] if g[G_HALF] == 0 else 1 - g[G_FIRST]
            # the lookahead's rollouts and then the real turn, in one loop with one copy of
            # the player turn (compiled once into this kernel): plan ``post``, rollout ``r``,
            # player turn ``h`` of the rollout on the copies; ``post == nplan``: the turn
            posture = 0
            nplan = 0
            base = np.uint64(0)
            if op[O_POL_A + side] == POL_LOOKAHEAD:
                nplan = op[O_LOOK_K]
                base = next_u64(rng)
            bv = -BIG
            post = 0
            r = 0
            h = 0
            tot = 0.0
            while True:
                roll = post < nplan
                if roll and r >= op[O_LOOK_ROLLOUTS]:
                    if tot > bv + 1e-9:
                        bv = tot
                        posture = post
                    post += 1
                    r = 0
                    tot = 0.0
                    continue
                if roll and h == 0:
                    copy_state(p, s, g, p2, s2, g2)
                    g2[G_ROLL] = 1
                    g2[G_DPOS] = dc[0]
                    seed_rollout(rng2, base, r)
                elif roll and (h > op[O_LOOK_DEPTH] or g2[G_END] >= 0):
                    tot += rollout_score(fi, sc, s2, g2, side)
                    r += 1
                    h = 0
                    continue
                pa, sa, ga, ra = p, s, g, rng
                sd = side
                pp = posture
                if roll:
                    pa, sa, ga, ra = p2, s2, g2, rng2
                    pp = post if h == 0 else 0
                    if h > 0:
                        sd = g2[G_FIRST] if g2[G_HALF] == 0 else 1 - g2[G_FIRST]
                # one player's Turn: ``begin_turn``, his movement phase (automatic movements
                # first), then his action/shooting phase, written out here (as an inlined
                # function, its fourteen array arguments cost NRT reference counts)
                pol, pol_other = begin_turn(fi, op, pa, sa, ga, ev, sd)
                for auto in range(2):
                    for i in range(n):
                        if fi[i, F_SIDE] == sd and fi[i, F_IMPULSIVE] == 1 - auto:
                            move_figure(
                                fi, fr, ter, sc, op, ecp, pge, pa, sa, ga, dc, ra, ev, wk,
                                i, pol, pp,
                            )  # fmt: skip
                if ga[G_CHECK]:
                    check(fi, fr, ter, sc, pa, sa, ga)
                if ga[G_END] < 0:
                    action_phase(
                        fi, fr, ter, sc, op, ecp, pge, pa, sa, ga, dc, ra, ev, sd, pol, pol_other
                    )
                if ga[G_CHECK]:
                    check(fi, fr, ter, sc, pa, sa, ga)
                next_half(fi, sc, sa, ga)
                if not roll:
                    break
                h += 1
        wa = weighted(fi, s, 0)
        wb = weighted(fi, s, 1)
        log(g, ev, E_END, 0, g[G_END], g[G_WINNER], int(wa), int(wb), 0, 0, 0, 0, 0)
        row = kk if rec.shape[0] == count else k
        write_record(fi, s, g, rec, urec, row)
    return float(g[G_NEV]) if trace else 0.0
