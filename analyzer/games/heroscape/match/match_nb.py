"""The Heroscape match kernels: dice, geometry, attacks, movement, glyphs, rounds, policies.

Rulebook ``heroscape.txt``; every rule function names its section.  The kernels take
two tuples of plain arrays (columns in :mod:`analyzer.games.heroscape.match.layout`):

``st`` (static)  ``hx`` spaces, ``dist`` spaces between spaces, ``los`` line of sight
                 per height pair, target space and viewer space, ``tr`` terrain rules,
                 ``fi`` figures, ``fr`` points per Life, ``ci`` Army Cards, ``gl``
                 glyphs, ``ew[0, a, d]`` expected wounds and ``ew[k, a, d]``
                 P(wounds >= k) of ``a`` attack against ``d`` defense dice (from
                 ``rolls.ATTACK``), ``op`` options;
``m`` (a match)  ``s`` figures, ``occ`` figure on each space (-1 none), ``gs`` glyphs,
                 ``g`` match values, ``mk`` order markers (``mk[side, 0..3]`` the cards
                 of 1, 2, 3 and X), ``dc`` dice script (``dc[0]`` scripted dice in
                 ``dc[1:]``), ``rng`` the generator, ``ev`` trace rows, ``wk`` scratch, ``wf``
                 float scratch.
"""

# ruff: noqa: SIM102, SIM109, SIM110, RUF046  (numba: no generators; int(round()) is needed)
from __future__ import annotations

import numpy as np
from numba import njit
from numba import types as nt
from numba.cpython.unsafe.numbers import trailing_zeros

from analyzer.dice.random_nb import next_u64, roll_die
from analyzer.games.heroscape.match.layout import (
    C_ACTS,
    C_FIRST,
    C_NFIG,
    C_SIDE,
    E_ATTACK,
    E_CHARGE,
    E_DEPLOY,
    E_DESTROYED,
    E_END,
    E_FALL,
    E_GLYPH,
    E_INIT,
    E_LAVA,
    E_LEAVE,
    E_MARKERS,
    E_MOVE,
    E_NOFIG,
    E_TURN,
    E_WELL,
    END_ELIMINATION,
    END_ROUNDS,
    END_SCENARIO,
    F_ATTACK,
    F_CARD,
    F_DEFENSE,
    F_DOUBLE,
    F_HCLASS,
    F_HEIGHT,
    F_LIFE,
    F_MOVE,
    F_POWERS,
    F_RANGE,
    F_SIDE,
    F_SIZE,
    F_SP_ATTACK,
    F_SP_KIND,
    F_SP_RANGE,
    F_SP_X,
    G_ACT,
    G_ASTRID,
    G_ATTACKS,
    G_BROOCH,
    G_CHARGE,
    G_CHECK,
    G_COLS,
    G_DAGMAR,
    G_DPOS,
    G_END,
    G_FALLS,
    G_FIRST,
    G_GERDA,
    G_GLYPHS,
    G_HAUKELAND,
    G_INIT,
    G_IVOR,
    G_LEAVE,
    G_NEV,
    G_ROLL,
    G_ROUND,
    G_TRACE,
    G_TRAPS,
    G_TURNS,
    G_VIOL,
    G_WINNER,
    GL_HEX,
    GL_KIND,
    GL_UP,
    GS_CARRIER,
    GS_HEX,
    GS_UP,
    H_BITS,
    H_GAP,
    H_LEVEL,
    H_NB,
    H_NGAP,
    H_OBSTACLE,
    H_ORDER_B,
    H_RANK_B,
    H_STEP,
    H_STOPS,
    H_TERRAIN,
    H_UP,
    H_ZONE,
    HB_ALL,
    HB_GAP,
    HB_MOLTEN,
    HB_STEP1,
    HB_STOP,
    O_CHARGE,
    O_FALLING,
    O_FIRST,
    O_FORCED,
    O_HOLD,
    O_LEAVE_DICE,
    O_LEVEL_HI,
    O_LEVEL_LO,
    O_LOOK_K,
    O_LOOK_ROLLOUTS,
    O_NHC,
    O_POL_A,
    O_ROUNDS,
    O_SHIELD,
    O_SIDES,
    O_SKULL,
    O_STRONG_DROP,
    O_STRONG_END,
    O_STRONG_HORIZON,
    O_STRONG_MARGIN,
    O_TEMPO,
    O_THREAT,
    O_THREAT_ALL,
    O_TIME_WINNER,
    O_TRAP_WOUNDS,
    O_TRAPS,
    P_BLOODCURSED,
    P_CHARGE,
    P_DEEP,
    P_DOUBLE_ATTACK,
    P_FLYING,
    P_GULLOX,
    P_NANITE,
    P_NANOTOXIN,
    P_OBFUSCATION,
    P_STEALTH,
    P_SWIM,
    P_UNIQUE_HERO,
    POL_GREEDY,
    POL_RANDOM,
    POL_STRONG,
    S_ACTIVE,
    S_ALIVE,
    S_ATTACKS,
    S_DEALT,
    S_HEX,
    S_NANITE,
    S_NANOTOX,
    S_ROUND_OUT,
    S_SCORE,
    S_TAIL,
    S_TAKEN,
    S_TREASURE,
    S_WOUNDS,
    SP_EXPLOSION,
    SP_LINE,
    TR_DEFENSE,
    TR_LAVA_FIELD,
    TR_MOLTEN,
    TR_SHADOW,
    TR_STOP,
    TR_WATER,
    TR_WELLSPRING,
    WF_BOUND,
    WF_SCORE,
    WF_VAL,
    WF_WORTH,
    WF_WS,
    WK_ROWS,
)
from analyzer.match.paired_nb import paired_gain_se
from analyzer.match.seeding_nb import seed_match, seed_rollout
from analyzer.match.trace_nb import append_event

#: numba types of the two tuples: helpers that callers pass literal ints get explicit
#: argument types (else numba compiles a copy per combination of literals: 23 of ``log``).
I64, BOOL = nt.int64, nt.boolean
I1, I2 = nt.int64[::1], nt.int64[:, ::1]
ST = nt.Tuple(
    (
        I2,
        nt.int16[:, ::1],
        nt.uint8[:, :, ::1],
        I2,
        I2,
        nt.float64[:, ::1],
        I2,
        I2,
        nt.float64[:, :, ::1],
        I1,
    )
)
MT = nt.Tuple((I2, I1, I2, I1, I2, I1, nt.uint64[::1], I2, I2, nt.float64[:, ::1]))
#: Helpers that never allocate are compiled with ``_nrt=False``: no atomic reference
#: counting of the array tuples on every call (it took ~35% of greedy play time).
BIG = 1 << 30
#: Weight of an attack (or a threat) that needs a move first, against one in range now.
NEXT_TURN = 0.6
NEG = -1.0e18
#: Rollouts per plan between the strong policy's checks for plans far behind the leader.
STRONG_BATCH = 8
#: wk rows: movement cost, predecessor, path, figures that made a leaving attack, order,
#: leaving engagement attacks on the way
W_COST, W_PREV, W_PATH, W_LEFT, W_ORDER, W_EXPOSE, W_MASK = 0, 1, 2, 3, 4, 5, 6
#: ... and greedy's per-activation enemy values (:func:`foe_context`), by figure
W_FOE, W_FRANGE, W_FATTACK, W_FDEF_LOW, W_FDEF_HIGH, W_FLEVEL, W_FADJ = 7, 8, 9, 10, 11, 12, 13
W_FDIST = 14  # spaces from the space being scored
#: ... the enemies' figure numbers in order (:func:`foe_context` returns how many), 1 on
#: the spaces holding a Glyph (while greedy scores them), each space's distance to the
#: other start zone (set once per block, :func:`front_distances`); :func:`reach`'s lists
W_FLIST, W_GMARK, W_FRONT, W_SEEN, W_LEVEL = 15, 16, 17, 18, 19
#: ... and, by enemy figure, the line-of-sight table row of the moving figure looking at
#: it, and its Move + Range (:func:`foe_context`)
W_FROW, W_FREACH = 20, 21
#: ... and, in the order of ``wk[W_FLIST]``, the enemies' spaces (second space, -1 none)
W_FHEX, W_FTAIL = 22, 23
#: ... 1 on the spaces holding a Power Glyph while :func:`reach` runs (:func:`stops_on`)
W_GSTOP = 24
#: ... greedy's candidate spaces of a move in scan order, those scored in full, each
#: space's nearest enemy (:func:`choose_destination`)
W_CAND, W_SCORED, W_NEAR = 25, 26, 27
#: ... :func:`reach_bits`' sets of ``nw`` words: the spaces a walker cannot enter, where it
#: stops, the spaces reached; and :func:`walk_prev`'s spaces on the cheapest paths
W_BITS = 28
assert W_BITS + 1 == WK_ROWS
#: Margin of greedy's exact search below the best worth found (:func:`choose_destination`)
SLACK = 1e-7
#: run_block operation codes (the sandbox's rule tests use the same compiled entry)
OP_BLOCK, OP_ATTACK, OP_MOVE, OP_REACH, OP_TURN, OP_ROUND, OP_INIT, OP_CHECK = range(8)
OP_SPECIAL, OP_END_ROUND, OP_MARKERS, OP_SCORE, OP_DEFENSE, OP_TARGET = 8, 9, 10, 11, 12, 13


# =========================================================== dice and trace
@njit([(MT, I64)], cache=True, _nrt=False)
def die(m, sides):
    """One die: the next scripted face while the dice script lasts (rule tests), else the
    match generator ("Gather Your Components": combat dice and the 20-sided die)."""
    g, dc, rng = m[3], m[5], m[6]
    if g[G_DPOS] < dc[0]:
        g[G_DPOS] += 1
        return dc[g[G_DPOS]]
    return roll_die(rng, sides)


@njit([(ST, MT, I64)], cache=True, _nrt=False)
def skulls(st, m, n):
    """Skulls among ``n`` combat dice ("Roll Attack Dice")."""
    op = st[9]
    k = 0
    for _ in range(n):
        if die(m, op[O_SIDES]) <= op[O_SKULL]:
            k += 1
    return k


@njit([(ST, MT, I64)], cache=True, _nrt=False)
def shields(st, m, n):
    """Shields among ``n`` combat dice ("Roll Defense Dice")."""
    op = st[9]
    k = 0
    for _ in range(n):
        f = die(m, op[O_SIDES])
        if op[O_SKULL] < f <= op[O_SKULL] + op[O_SHIELD]:
            k += 1
    return k


@njit([(MT, I64)], cache=True, _nrt=False)
def pick(m, n):
    """A uniform choice in 0..n-1 (the random policy; never scripted)."""
    if n <= 1:
        return 0
    return roll_die(m[6], n) - 1


@njit([(MT, *(I64,) * 11)], cache=True, _nrt=False)
def log(m, kind, side, a, b, c, d, e, f, h, i, j):
    g, ev = m[3], m[7]
    if g[G_TRACE] != 0 and g[G_ROLL] == 0:
        g[G_NEV] = append_event(ev, g[G_NEV], kind, g[G_ROUND], side, a, b, c, d, e, f, h, i, j)


# =========================================================== geometry
@njit(cache=True, _nrt=False)
def scan(hx, side, idx):
    """The ``idx``-th space in ``side``'s scan order (B scans from its own edge)."""
    return idx if side == 0 else hx[idx, H_ORDER_B]


@njit([(ST, MT, I64, I64)], cache=True, _nrt=False)
def dist_to(st, m, h, j):
    """Spaces from space ``h`` to figure ``j`` (its closest space, "Determining Range and
    Line of Sight to a Double-Space Figure")."""
    dist, s = st[1], m[0]
    d = dist[h, s[j, S_HEX]]
    t = s[j, S_TAIL]
    if t >= 0 and dist[h, t] < d:
        d = dist[h, t]
    return d


@njit([(ST, MT, I64, I64)], cache=True, _nrt=False)
def fig_dist(st, m, i, j):
    s = m[0]
    d = dist_to(st, m, s[i, S_HEX], j)
    t = s[i, S_TAIL]
    if t >= 0:
        d2 = dist_to(st, m, t, j)
        if d2 < d:
            d = d2
    return d


@njit(cache=True, _nrt=False)
def sees(st, m, i, hi, j):
    """Line of sight from figure ``i`` standing on ``hi`` to any space of ``j``
    ("Line of Sight": Target Point to Hit Zone, tables from ``scenario.sight_tables``)."""
    los, fi, op, s = st[2], st[4], st[9], m[0]
    row = fi[i, F_HCLASS] * op[O_NHC] + fi[j, F_HCLASS]
    if los[row, s[j, S_HEX], hi] != 0:  # los[pair, target space, viewer space]
        return True
    t = s[j, S_TAIL]
    return t >= 0 and los[row, t, hi] != 0


@njit([(ST, MT, I64)], cache=True, _nrt=False)
def level_of(st, m, i):
    return st[0][m[0][i, S_HEX], H_LEVEL]


@njit(cache=True, _nrt=False)
def engaged(st, m, i):
    fi, s = st[4], m[0]
    for k in range(fi.shape[0]):
        if s[k, S_ALIVE] == 1 and fi[k, F_SIDE] != fi[i, F_SIDE] and fig_dist(st, m, i, k) == 1:
            return True
    return False


@njit([(ST, MT, I64, I64)], cache=True, _nrt=False)
def glyph_held(st, m, side, kind):
    """Whether ``side`` has a figure standing on a Glyph of ``kind`` ("Permanent Power
    Glyphs": in effect for as long as a figure is standing on it)."""
    fi, gl, gs, occ = st[4], st[7], m[2], m[1]
    for q in range(gl.shape[0]):
        if gl[q, GL_KIND] == kind and gs[q, GS_HEX] >= 0:
            f = occ[gs[q, GS_HEX]]
            if f >= 0 and fi[f, F_SIDE] == side:
                return True
    return False


@njit(cache=True, _nrt=False)
def reach_range(st, m, i):
    """Range Value, +4 with the Glyph of Ivor for a Range of 4 or more."""
    fi = st[4]
    r = fi[i, F_RANGE]
    if r >= 4 and glyph_held(st, m, fi[i, F_SIDE], G_IVOR):
        r += 4
    return r


@njit(cache=True, _nrt=False)
def height_dice(la, lb):
    """Dice of height advantage of a base on level ``la`` over one on ``lb``
    ("Height Advantage": 1, or 2 when more than 10 levels above)."""
    if la - lb > 10:
        return 2
    if la > lb:
        return 1
    return 0


@njit(cache=True, _nrt=False)
def defense_pair(st, j, h, t, gerda):
    """:func:`defense_on` of ``j`` against an attacker without and with height advantage,
    in one pass (the two differ only by Defend the Deep)."""
    hx, tr, fi = st[0], st[3], st[4]
    v = fi[j, F_DEFENSE]
    ta = hx[h, H_TERRAIN]
    shadow = tr[ta, TR_SHADOW]
    water = tr[ta, TR_WATER]
    neg = min(tr[ta, TR_DEFENSE], 0)
    if t >= 0:
        tb = hx[t, H_TERRAIN]
        shadow = max(shadow, tr[tb, TR_SHADOW])
        water = max(water, tr[tb, TR_WATER])
        neg = min(neg, tr[tb, TR_DEFENSE])
    if (fi[j, F_POWERS] & P_OBFUSCATION) != 0:
        shadow = 1
    if shadow != 0 and fi[j, F_SIZE] <= 2:
        v += 1
    v += neg
    if gerda:
        v += 1
    deep = (fi[j, F_POWERS] & P_DEEP) != 0
    low = v + 2 if deep and water != 0 else v
    high = v + 2 if deep else v
    return max(low, 0), max(high, 0)


@njit([(ST, I64, I64, I64, BOOL, BOOL)], cache=True, _nrt=False)
def defense_on(st, j, h, t, gerda, attacker_higher):
    """:func:`defense_value` of ``j`` on ``h`` and ``t`` (-1: none) with the Glyph of Gerda
    held by its side or not (``gerda``)."""
    low, high = defense_pair(st, j, h, t, gerda)
    return high if attacker_higher else low


@njit([(ST, MT, I64, I64, BOOL)], cache=True, _nrt=False)
def defense_value(st, m, j, h, attacker_higher):
    """Defense Value of ``j`` on space ``h`` (and its tail): "Shadow" +1 (Small, Medium,
    Large; Obfuscation Matrix counts as being on shadow), "Toxic Land" -1 / "Toxic Water"
    -2 (both: -2), Defend the Deep +2 (water, or an attacker with height advantage),
    Glyph of Gerda +1; never below 0."""
    s = m[0]
    t = s[j, S_TAIL] if h == s[j, S_HEX] else -1
    gerda = glyph_held(st, m, st[4][j, F_SIDE], G_GERDA)
    return defense_on(st, j, h, t, gerda, attacker_higher)


@njit(cache=True, _nrt=False)
def attack_value(st, m, i):
    """Attack Value of ``i`` for a normal attack: + Glyph of Astrid, + 1 while its side's
    Charge!!! is in effect (:func:`charge_after_move`)."""
    fi = st[4]
    a = fi[i, F_ATTACK] + m[3][G_CHARGE + fi[i, F_SIDE]]
    if glyph_held(st, m, fi[i, F_SIDE], G_ASTRID):
        a += 1
    return a


@njit([(ST, MT, I64, I64, I64)], cache=True, _nrt=False)
def normal_dice(st, m, i, hi, j):
    """(attack dice, defense dice) of a normal attack of ``i`` standing on ``hi`` on ``j``
    ("Resolving a Master Game Attack", "Height Advantage")."""
    hx, s = st[0], m[0]
    li = hx[hi, H_LEVEL]
    lj = level_of(st, m, j)
    a = attack_value(st, m, i) + height_dice(li, lj)
    d = defense_value(st, m, j, s[j, S_HEX], li > lj) + height_dice(lj, li)
    return a, d


@njit(cache=True, _nrt=False)
def expected(st, a, d, left):
    """(expected wounds capped at ``left``, P(wounds >= left)) from the exact tables."""
    ew = st[8]  # ew[0, a, d] expected wounds, ew[k, a, d] P(wounds >= k)
    n = ew.shape[1] - 1
    a = min(a, n)
    d = min(d, n)
    e = ew[0, a, d]
    k = min(max(left, 1), ew.shape[0] - 1)
    return min(e, float(left)), ew[k, a, d]


# =========================================================== wounds and destruction
@njit([(ST, MT, I64)], cache=True, _nrt=False)
def destroy(st, m, j):
    """ "Destroying Figures"; a carried Treasure Glyph is placed on the space the figure
    last occupied unless a Glyph is already there ("Treasure Glyphs")."""
    s, occ, gs, g = m[0], m[1], m[2], m[3]
    s[j, S_ALIVE] = 0
    s[j, S_ROUND_OUT] = g[G_ROUND]
    h = s[j, S_HEX]
    if s[j, S_TREASURE] > 0:
        q = s[j, S_TREASURE] - 1
        s[j, S_TREASURE] = 0
        gs[q, GS_CARRIER] = -1
        gs[q, GS_UP] = 1
        taken = False
        for r in range(gs.shape[0]):
            if gs[r, GS_HEX] == h:
                taken = True
        gs[q, GS_HEX] = -1 if taken else h
    if h >= 0 and occ[h] == j:
        occ[h] = -1
    t = s[j, S_TAIL]
    if t >= 0 and occ[t] == j:
        occ[t] = -1
    log(m, E_DESTROYED, st[4][j, F_SIDE], j, 0, 0, 0, 0, 0, 0, 0, 0)


@njit([(ST, MT, I64, I64, I64)], cache=True, _nrt=False)
def wound(st, m, j, w, by):
    """``w`` wounds to ``j`` (by figure ``by``, or -1); destroyed at its Life Value."""
    fi, fr, s = st[4], st[5], m[0]
    if w <= 0 or s[j, S_ALIVE] == 0:
        return
    took = min(w, fi[j, F_LIFE] - s[j, S_WOUNDS])
    s[j, S_WOUNDS] += took
    s[j, S_TAKEN] += took
    if by >= 0 and fi[by, F_SIDE] != fi[j, F_SIDE]:
        s[by, S_DEALT] += took
        s[by, S_SCORE] += int(round(took * fr[j, 0]))
    if s[j, S_WOUNDS] >= fi[j, F_LIFE]:
        destroy(st, m, j)


# =========================================================== attacks
@njit([(ST, MT, I64, I64)], cache=True, _nrt=False)
def normal_attack(st, m, i, j):
    """One normal attack ("Resolving a Master Game Attack") with Gulløx Wing Render (re-roll
    1 non-skull die, adjacent), Bloodcursed Blade (+1 skull, adjacent), Nanite Shielding
    (1 automatic shield, flipped before the first defense roll of the round) and
    Nanotoxin Coating (+1 wound after wounding an adjacent figure, once a round)."""
    fi, op, s, g = st[4], st[9], m[0], m[3]
    a, d = normal_dice(st, m, i, s[i, S_HEX], j)
    adjacent = fig_dist(st, m, i, j) == 1
    sk = skulls(st, m, a)
    pw = fi[i, F_POWERS]
    if adjacent and (pw & P_GULLOX) != 0 and sk < a:
        if die(m, op[O_SIDES]) <= op[O_SKULL]:
            sk += 1
    if adjacent and (pw & P_BLOODCURSED) != 0:
        sk += 1
    auto = 0
    if (fi[j, F_POWERS] & P_NANITE) != 0 and s[j, S_NANITE] == 0 and a > 0:
        s[j, S_NANITE] = 1
        auto = 1
    sh = shields(st, m, d) + auto
    w = max(sk - sh, 0)
    if w > 0 and adjacent and (pw & P_NANOTOXIN) != 0 and s[i, S_NANOTOX] == 0:
        s[i, S_NANOTOX] = 1
        w += 1
    g[G_ATTACKS] += 1
    s[i, S_ATTACKS] += 1
    log(m, E_ATTACK, fi[i, F_SIDE], i, j, a, d, sk, sh, w, 0, auto)
    wound(st, m, j, w, i)


@njit(cache=True, _nrt=False)
def defend_special(st, m, i, j, sk):
    """One affected figure's defense against a special attack's skulls: it rolls its
    extra dice (height advantage, terrain) even against a special attack."""
    fi, s = st[4], m[0]
    li = level_of(st, m, i)
    lj = level_of(st, m, j)
    d = defense_value(st, m, j, s[j, S_HEX], li > lj) + height_dice(lj, li)
    auto = 0
    if (fi[j, F_POWERS] & P_NANITE) != 0 and s[j, S_NANITE] == 0:
        s[j, S_NANITE] = 1
        auto = 1
    sh = shields(st, m, d) + auto
    w = max(sk - sh, 0)
    log(m, E_ATTACK, fi[i, F_SIDE], i, j, fi[i, F_SP_ATTACK], d, sk, sh, w, 1, auto)
    wound(st, m, j, w, i)


@njit([(ST, MT, I64, I64, I64, I1)], cache=True)
def affected(st, m, i, j, line_dir, out):
    """Figures affected by ``i``'s special attack into ``out`` (count returned):
    "Explosion X": the target, then every figure within X spaces of it (friend, foe,
    the attacker too); "Line X": X spaces in a straight line from a space next to the
    attacker in direction ``line_dir``, each figure there in line of sight, closest first."""
    hx, fi, s, occ = st[0], st[4], m[0], m[1]
    n = 0
    if fi[i, F_SP_KIND] == SP_EXPLOSION:
        out[0] = j
        n = 1
        for k in range(fi.shape[0]):
            if k != j and s[k, S_ALIVE] == 1 and fig_dist(st, m, k, j) <= fi[i, F_SP_X]:
                out[n] = k
                n += 1
        return n
    h = s[i, S_HEX]
    for _ in range(fi[i, F_SP_X]):
        h = hx[h, H_NB + line_dir]
        if h < 0:
            break
        k = occ[h]
        if k >= 0 and k != i and s[k, S_ALIVE] == 1:
            seen = False
            for q in range(n):
                if out[q] == k:
                    seen = True
            if not seen and (fig_dist(st, m, i, k) == 1 or sees(st, m, i, s[i, S_HEX], k)):
                out[n] = k
                n += 1
    return n


@njit([(ST, MT, I64, I64, I64)], cache=True)
def special_attack(st, m, i, j, line_dir):
    """A special attack (Explosion X on target ``j``, or Line X along ``line_dir``):
    attack dice rolled once, not modified ("Special Attacks"); affected figures defend
    separately in order; all still defend if the attacker is destroyed."""
    fi, s, g = st[4], m[0], m[3]
    out = np.empty(fi.shape[0], np.int64)
    n = affected(st, m, i, j, line_dir, out)
    sk = skulls(st, m, fi[i, F_SP_ATTACK])
    g[G_ATTACKS] += 1
    s[i, S_ATTACKS] += 1
    for q in range(n):
        if s[out[q], S_ALIVE] == 1:
            defend_special(st, m, i, out[q], sk)


@njit(cache=True, _nrt=False)
def can_target(st, m, i, j, rng_value):
    """ "Engagement": an engaged figure targets only figures it is engaged with (no line of
    sight needed); else "Range" (spaces, levels not counted) and line of sight."""
    return can_target_eng(st, m, i, j, rng_value, engaged(st, m, i))


@njit(cache=True, _nrt=False)
def can_target_eng(st, m, i, j, rng_value, eng):
    """:func:`can_target` with ``eng`` = ``engaged(st, m, i)`` (the same for every target)."""
    fi, s = st[4], m[0]
    if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == fi[i, F_SIDE]:
        return False
    d = fig_dist(st, m, i, j)
    if eng:
        return d == 1
    if d > rng_value:
        return False
    if sees(st, m, i, s[i, S_HEX], j):
        return True
    t = s[i, S_TAIL]
    return t >= 0 and sees(st, m, i, t, j)


# =========================================================== movement
@njit(cache=True, _nrt=False)
def stops_on(st, m, i, h, prev):
    """Whether a walking figure that entered ``h`` must end its move there: "Water"
    (Swim: no; a double-space figure only on its 2nd adjacent water space), "Molten
    Lava", a Power Glyph ("Power Glyphs": it must stop there)."""
    hx, fi = st[0], st[4]
    f = hx[h, H_STOPS]  # the terrain's TR_MOLTEN, TR_STOP and TR_WATER as bits
    if (f & 1) != 0:
        return True
    if (f & 2) != 0 and (fi[i, F_POWERS] & P_SWIM) == 0:
        if fi[i, F_DOUBLE] == 0:
            return True
        p = prev[h]
        if p >= 0 and (hx[p, H_STOPS] & 4) != 0:
            return True
    return m[8][W_GSTOP, h] != 0  # a Power Glyph (marked by reach)


@njit(cache=True, _nrt=False)
def reach(st, m, i):
    """Movement costs from ``i``'s space into ``wk[W_COST]`` ("Normal Movement": 1 per
    space plus 1 per level up; down costs 1; "Obstacles" never entered; "Overhangs": not
    through a gap lower than the figure; enemies block, friends may be passed; "Flying":
    1 per space over anything) and the spaces reached, as a bit set in the side's scan
    order, into ``wk[W_SEEN]`` (what greedy's :func:`choose_destination` scores).
    Predecessors (``wk[W_PREV]``) are found for every space of a double-space figure
    (its tail and water stops depend on them, :func:`reach_scan`); a single-space
    figure's costs come from bit sets (:func:`reach_bits`) and its path only when it
    moves (:func:`walk_prev`)."""
    if st[4][i, F_DOUBLE] != 0:
        return reach_scan(st, m, i)
    return reach_bits(st, m, i)


@njit(cache=True, _nrt=False)
def reach_bits(st, m, i):
    """:func:`reach` of a single-space figure, level by level of cost from bit sets: the
    spaces of cost c + 1 are the union of the 1-cost neighbour sets (``HB_STEP1``; flying:
    ``HB_ALL``) of the spaces of cost c it may go on from (not where it must stop,
    :func:`stops_on`), less the spaces reached before and those it cannot enter; steps up
    (``H_UP``) add their spaces to later levels one by one.  ``wk[W_LEVEL]`` keeps the
    spaces of each cost (for :func:`walk_prev`)."""
    hx, fi, gl, s, occ, gs, wk = st[0], st[4], st[7], m[0], m[1], m[2], m[8]
    nh = hx.shape[0]
    nw = (nh + 63) >> 6
    cost = wk[W_COST]
    for h in range(nh):
        cost[h] = BIG
    side = fi[i, F_SIDE]
    move = fi[i, F_MOVE]
    fly = (fi[i, F_POWERS] & P_FLYING) != 0
    start = s[i, S_HEX]
    one = np.int64(1)
    # sets[w]: not entered (enemies, low overhangs); sets[nw + w]: stops; sets[2 nw + w]: reached
    sets = wk[W_BITS]
    for q in range(3 * nw):
        sets[q] = 0
    if not fly:
        for k in range(fi.shape[0]):
            if fi[k, F_SIDE] != side:
                for t in (s[k, S_HEX], s[k, S_TAIL]):
                    if t >= 0 and occ[t] == k:
                        sets[t >> 6] |= one << np.int64(t & 63)
        height = fi[i, F_HEIGHT]
        swim = (fi[i, F_POWERS] & P_SWIM) != 0
        for w in range(nw):
            x = hx[0, H_BITS + HB_GAP * nw + w]
            while x != 0:
                t = (w << 6) + trailing_zeros(x)
                x &= x - 1
                if height > hx[t, H_GAP]:
                    sets[w] |= one << np.int64(t & 63)
            y = hx[0, H_BITS + HB_MOLTEN * nw + w]
            if not swim:
                y |= hx[0, H_BITS + HB_STOP * nw + w]
            sets[nw + w] = y
        for q in range(gl.shape[0]):  # "Power Glyphs": a walker must stop there
            t = gs[q, GS_HEX]
            if t >= 0 and gl[q, GL_KIND] <= G_HAUKELAND:
                sets[nw + (t >> 6)] |= one << np.int64(t & 63)
    lv = wk[W_LEVEL]  # lv[c * nw + w]: the spaces of cost c
    for q in range((move + 1) * nw):
        lv[q] = 0
    lv[start >> 6] = one << np.int64(start & 63)
    sets[2 * nw + (start >> 6)] = lv[start >> 6]
    col = H_BITS + (HB_ALL if fly else HB_STEP1) * nw
    for c in range(move):
        b = c * nw
        for w in range(nw):
            x = lv[b + w]
            if c > 0 and not fly:
                x &= ~sets[nw + w]
            while x != 0:
                h = (w << 6) + trailing_zeros(x)
                x &= x - 1
                for v in range(nw):
                    lv[b + nw + v] |= hx[h, col + v]
                if not fly and hx[h, H_UP] != 0:
                    for k in range(6):
                        step = hx[h, H_STEP + k]
                        if step > 1 and c + step <= move:
                            n = hx[h, H_NB + k]
                            lv[(c + step) * nw + (n >> 6)] |= one << np.int64(n & 63)
        for w in range(nw):  # cost c + 1: not reached before, entered
            x = lv[b + nw + w] & ~sets[2 * nw + w]
            if not fly:
                x &= ~sets[w]
            lv[b + nw + w] = x
            sets[2 * nw + w] |= x
    got = wk[W_SEEN]  # got[side * nw + w]: by number (A) or by rank in B's scan order
    for q in range(2 * nw):
        got[q] = 0
    for c in range(move + 1):
        for w in range(nw):
            x = lv[c * nw + w]
            while x != 0:
                h = (w << 6) + trailing_zeros(x)
                x &= x - 1
                cost[h] = c
                if side != 0:
                    rk = hx[h, H_RANK_B]
                    got[nw + (rk >> 6)] |= one << np.int64(rk & 63)
    if side == 0:
        for w in range(nw):
            got[w] = sets[2 * nw + w]
    return start


@njit(cache=True, _nrt=False)
def walk_prev(st, m, i, h):
    """``wk[W_PREV]`` on the way of single-space walker ``i`` to ``h`` (after
    :func:`reach_bits`), as :func:`reach_scan` finds it: of the spaces one step back on
    a cheapest path (``wk[W_BITS]`` from ``3 nw``: every space on one), the one whose path
    so far leaves the fewest engagements (``wk[W_EXPOSE]``), then the cheapest, then the
    lowest number (the order :func:`reach_scan` expands them in)."""
    hx, fi, s, wk = st[0], st[4], m[0], m[8]
    nh = hx.shape[0]
    nw = (nh + 63) >> 6
    cost, prev, expose, mask = wk[W_COST], wk[W_PREV], wk[W_EXPOSE], wk[W_MASK]
    lv, sets = wk[W_LEVEL], wk[W_BITS]
    start = s[i, S_HEX]
    side = fi[i, F_SIDE]
    one = np.int64(1)
    for q in range(nh):
        mask[q] = 0
    for k in range(min(fi.shape[0], 63)):
        if s[k, S_ALIVE] == 1 and fi[k, F_SIDE] != side:
            for t in (s[k, S_HEX], s[k, S_TAIL]):
                if t >= 0:
                    for q in range(6):
                        n = hx[t, H_NB + q]
                        if n >= 0:
                            mask[n] |= one << np.int64(k)
    a0 = 3 * nw
    for w in range(nw):
        sets[a0 + w] = 0
    sets[a0 + (h >> 6)] = one << np.int64(h & 63)
    top = cost[h]
    expose[start] = 0
    # pass 0 back: the spaces one step before, on a cheapest path (levels top .. 1);
    # pass 1 forward over those, in reach_scan's order (levels 1 .. top)
    for o in range(2 * top):
        back = o < top
        c = top - o if back else o - top + 1
        for w in range(nw):
            x = sets[a0 + w] & lv[c * nw + w]
            while x != 0:
                a = (w << 6) + trailing_zeros(x)
                x &= x - 1
                la = hx[a, H_LEVEL]
                ma = mask[a]
                be = BIG
                bc = BIG
                bg = -1
                for k in range(6):
                    g = hx[a, H_NB + k]
                    if g < 0:
                        continue
                    cg = cost[g]
                    if cg + 1 + max(la - hx[g, H_LEVEL], 0) != c:
                        continue
                    bit = one << np.int64(g & 63)
                    if back:
                        if g == start or (sets[nw + (g >> 6)] & bit) == 0:  # not a stop
                            sets[a0 + (g >> 6)] |= bit
                        continue
                    if (sets[a0 + (g >> 6)] & bit) == 0:
                        continue
                    e = expose[g] + bits(mask[g] & ~ma)
                    if e < be or (e == be and (cg < bc or (cg == bc and g < bg))):
                        be = e
                        bc = cg
                        bg = g
                if not back:
                    prev[a] = bg
                    expose[a] = be


@njit(cache=True, _nrt=False)
def reach_scan(st, m, i):
    """:func:`reach` by expanding each space reached (and ``wk[W_PREV]``: of the cheapest
    ways in, the first found that leaves the fewest engagements, ``wk[W_EXPOSE]``)."""
    hx, fi, gl, s, occ, gs, wk = st[0], st[4], st[7], m[0], m[1], m[2], m[8]
    nh = hx.shape[0]
    nw = (nh + 63) >> 6
    cost = wk[W_COST]
    prev = wk[W_PREV]
    expose = wk[W_EXPOSE]
    mask = wk[W_MASK]
    for h in range(nh):
        cost[h] = BIG
        prev[h] = -1
        expose[h] = 0
        mask[h] = 0
    for k in range(min(fi.shape[0], 63)):
        if s[k, S_ALIVE] == 1 and fi[k, F_SIDE] != fi[i, F_SIDE]:
            for t in (s[k, S_HEX], s[k, S_TAIL]):
                if t >= 0:
                    for q in range(6):
                        n = hx[t, H_NB + q]
                        if n >= 0:
                            mask[n] |= np.int64(1) << np.int64(k)
    move = fi[i, F_MOVE]
    # lv[c * nw + w]: bit b set while space 64 w + b has cost c (c <= move), so each cost
    # level is expanded in ascending space order, as a full scan of the spaces would
    lv = wk[W_LEVEL]
    side = fi[i, F_SIDE]
    # got[side * nw + w]: the spaces reached, by number (A) or by rank in B's scan order
    got = wk[W_SEEN]
    for q in range((move + 1) * nw):
        lv[q] = 0
    for q in range(2 * nw):
        got[q] = 0
    start = s[i, S_HEX]
    cost[start] = 0
    lv[start >> 6] |= np.int64(1) << np.int64(start & 63)
    rk = start if side == 0 else hx[start, H_RANK_B]
    got[side * nw + (rk >> 6)] |= np.int64(1) << np.int64(rk & 63)
    fly = (fi[i, F_POWERS] & P_FLYING) != 0
    height = fi[i, F_HEIGHT]
    gstop = wk[W_GSTOP]  # "Power Glyphs": a walker must stop there (stops_on)
    for q in range(gl.shape[0]):
        if gs[q, GS_HEX] >= 0 and gl[q, GL_KIND] <= G_HAUKELAND:
            gstop[gs[q, GS_HEX]] = 1
    for c in range(move):  # no space gets cost c while cost c is expanded (steps >= 1)
        for w in range(nw):
            x = lv[c * nw + w]
            while x != 0:
                h = (w << 6) + trailing_zeros(x)
                x &= x - 1
                if h != start and not fly and stops_on(st, m, i, h, prev):
                    continue
                for k in range(6):
                    n = hx[h, H_NB + k]
                    if n < 0:
                        continue
                    # the cost first (most neighbours already have a lower one), then
                    # the walker's other checks (obstacles: H_STEP is STEP_NONE)
                    nc = c + (1 if fly else hx[h, H_STEP + k])
                    old = cost[n]
                    if nc > move or nc > old:
                        continue
                    if not fly:
                        if height > hx[h, H_NGAP + k]:  # an overhang's gap (H_GAP)
                            continue
                        o = occ[n]
                        if o >= 0 and fi[o, F_SIDE] != side:
                            continue
                    ex = expose[h]
                    if not fly:
                        ex += bits(mask[h] & ~mask[n])
                    if nc < old or ex < expose[n]:
                        bit = np.int64(1) << np.int64(n & 63)
                        if old == BIG:
                            rk = n if side == 0 else hx[n, H_RANK_B]
                            got[side * nw + (rk >> 6)] |= np.int64(1) << np.int64(rk & 63)
                        elif old != nc:
                            lv[old * nw + (n >> 6)] &= ~bit
                        lv[nc * nw + (n >> 6)] |= bit
                        cost[n] = nc
                        prev[n] = h
                        expose[n] = ex
    for q in range(gl.shape[0]):
        if gs[q, GS_HEX] >= 0:
            gstop[gs[q, GS_HEX]] = 0
    return start


@njit(cache=True, _nrt=False)
def bits(x):
    """Set bits of ``x`` (enemies whose engagement a step leaves)."""
    n = 0
    while x != 0:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, _nrt=False)
def tail_for(st, m, i, h):
    """The second space of double-space ``i`` ending on ``h``: the space its leading end
    just left ("Double-Space Figures"), which must be on the same level; -1 if none."""
    hx, s, occ, wk = st[0], m[0], m[1], m[8]
    if h == s[i, S_HEX]:
        return s[i, S_TAIL]
    t = wk[W_PREV, h]
    if t < 0 or hx[t, H_LEVEL] != hx[h, H_LEVEL] or hx[t, H_OBSTACLE] > 0:
        return -1
    if occ[t] >= 0 and occ[t] != i:
        return -1
    fi = st[4]
    if hx[t, H_GAP] > 0 and fi[i, F_HEIGHT] > hx[t, H_GAP]:
        return -1
    return t


@njit(cache=True, _nrt=False)
def can_end(st, m, i, h):
    """A legal end of ``i``'s move on ``h`` ("Fitting Onto a Space": a free space, both
    spaces of a double-space figure on one level)."""
    hx, fi, s, occ, wk = st[0], st[4], m[0], m[1], m[8]
    if wk[W_COST, h] > fi[i, F_MOVE] or hx[h, H_OBSTACLE] > 0:
        return False
    if hx[h, H_GAP] > 0 and fi[i, F_HEIGHT] > hx[h, H_GAP]:
        return False
    if occ[h] >= 0 and occ[h] != i:
        return False
    if fi[i, F_DOUBLE] == 1 and tail_for(st, m, i, h) < 0:
        return False
    return h == s[i, S_HEX] or wk[W_COST, h] > 0


@njit(cache=True, _nrt=False)
def leaving_attack(st, m, k, i):
    """A leaving engagement attack of ``k`` on ``i`` (reading: ``leaving_dice`` combat dice,
    each skull 1 wound, no defense roll)."""
    fi, op, g = st[4], st[9], m[3]
    sk = skulls(st, m, op[O_LEAVE_DICE])
    g[G_LEAVE] += 1
    log(m, E_LEAVE, fi[k, F_SIDE], k, i, sk, sk, 0, 0, 0, 0, 0)
    wound(st, m, i, sk, k)


@njit(cache=True, _nrt=False)
def disengage_safe(st, m, i):
    """Never attacked when leaving an engagement: Brooch of Shielding carried."""
    gl, s = st[7], m[0]
    q = s[i, S_TREASURE] - 1
    return q >= 0 and gl[q, GL_KIND] == G_BROOCH


@njit(cache=True, _nrt=False)
def adjacent_hexes(st, m, k, a, b):
    """Whether figure ``k`` is adjacent to a figure on spaces ``a`` (and ``b``)."""
    d = dist_to(st, m, a, k)
    if b >= 0:
        d = min(d, dist_to(st, m, b, k))
    return d == 1


@njit(cache=True, _nrt=False)
def move_to(st, m, i, h):
    """Move ``i`` (after ``reach``) to ``h`` along its path: leaving engagement attacks
    from each enemy it stops being adjacent to ("Flying": all engaged enemies when it
    starts to fly, "Stealth Flying": none), falling damage on big drops, then landing
    (Molten Lava, Glyphs)."""
    hx, fi, op, s, occ, wk = st[0], st[4], st[9], m[0], m[1], m[8]
    start = s[i, S_HEX]
    side = fi[i, F_SIDE]
    if h == start:
        log(m, E_MOVE, side, i, start, start, 0, 0, 0, 0, 0, 0)
        return
    nf = fi.shape[0]
    for k in range(nf):
        wk[W_LEFT, k] = 0
    fly = (fi[i, F_POWERS] & P_FLYING) != 0
    safe = disengage_safe(st, m, i)
    n = 0
    if not fly:
        if fi[i, F_DOUBLE] == 0:
            walk_prev(st, m, i, h)
        x = h
        while x != start and x >= 0:
            wk[W_PATH, n] = x
            n += 1
            x = wk[W_PREV, x]
    if fly:
        if (fi[i, F_POWERS] & P_STEALTH) == 0 and not safe:
            for k in range(nf):
                if s[k, S_ALIVE] == 1 and fi[k, F_SIDE] != side and fig_dist(st, m, i, k) == 1:
                    leaving_attack(st, m, k, i)
    else:
        a = start
        ta = s[i, S_TAIL]
        for q in range(n - 1, -1, -1):
            b = wk[W_PATH, q]
            tb = a if fi[i, F_DOUBLE] == 1 else -1
            if not safe:
                for k in range(nf):
                    if s[k, S_ALIVE] == 1 and fi[k, F_SIDE] != side and wk[W_LEFT, k] == 0:
                        if adjacent_hexes(st, m, k, a, ta) and not adjacent_hexes(st, m, k, b, tb):
                            wk[W_LEFT, k] = 1
                            leaving_attack(st, m, k, i)
                if s[i, S_ALIVE] == 0:
                    return
            drop = hx[a, H_LEVEL] - hx[b, H_LEVEL]
            if op[O_FALLING] != 0 and drop >= fi[i, F_HEIGHT]:
                fall(st, m, i, b, drop)
                if s[i, S_ALIVE] == 0:
                    return
            a = b
            ta = tb
    if s[i, S_ALIVE] == 0:
        return
    tail = tail_for(st, m, i, h) if fi[i, F_DOUBLE] == 1 else -1
    occ[start] = -1
    if s[i, S_TAIL] >= 0:
        occ[s[i, S_TAIL]] = -1
    s[i, S_HEX] = h
    s[i, S_TAIL] = tail
    occ[h] = i
    if tail >= 0:
        occ[tail] = i
    log(m, E_MOVE, side, i, start, h, wk[W_COST, h], 1 if fly else 0, tail, 0, 0, 0)
    land(st, m, i, h)


@njit(cache=True, _nrt=False)
def fall(st, m, i, b, drop):
    """Falling damage (reading; the rulebook names it without its text): a drop of at
    least the figure's height rolls 1 combat die, from height + 10 levels 2 dice, each
    skull 1 wound; landing in water (not swamp water) prevents it ("Swamp Water")."""
    hx, tr, fi, g = st[0], st[3], st[4], m[3]
    te = hx[b, H_TERRAIN]
    if tr[te, TR_STOP] != 0 and tr[te, TR_WATER] != 0:
        return
    dice = 2 if drop >= fi[i, F_HEIGHT] + 10 else 1
    sk = skulls(st, m, dice)
    g[G_FALLS] += 1
    log(m, E_FALL, fi[i, F_SIDE], i, drop, sk, sk, 0, 0, 0, 0, 0)
    wound(st, m, i, sk, -1)


@njit(cache=True, _nrt=False)
def heal_side(st, m, side, amount, skip):
    """Remove up to ``amount`` Wound Markers from ``side``'s figures, the most points per
    Life first ("Glyph of Haukeland"); returns the markers removed."""
    fi, fr, s = st[4], st[5], m[0]
    done = 0
    while done < amount:
        best = -1
        for k in range(fi.shape[0]):
            if k != skip and s[k, S_ALIVE] == 1 and fi[k, F_SIDE] == side and s[k, S_WOUNDS] > 0:
                if best < 0 or fr[k, 0] > fr[best, 0]:
                    best = k
        if best < 0:
            break
        s[best, S_WOUNDS] -= 1
        done += 1
    return done


@njit(cache=True, _nrt=False)
def land(st, m, i, h):
    """Effects of ending a move on ``h``: "Molten Lava" (d20: 20 survives), Power Glyphs
    (turned power side up; Haukeland heals 3 and is removed), Treasure Glyphs (a Unique
    Hero picks it up; symbol side up with traps: d20 1-5 sets off the trap)."""
    hx, tr, fi, gl, op, s, gs, g = st[0], st[3], st[4], st[7], st[9], m[0], m[2], m[3]
    side = fi[i, F_SIDE]
    if tr[hx[h, H_TERRAIN], TR_MOLTEN] != 0:
        r = die(m, 20)
        log(m, E_LAVA, side, i, r, 1, 0, 0, 0, 0, 0, 0)
        if r < 20:
            destroy(st, m, i)
            return
    for q in range(gl.shape[0]):
        if gs[q, GS_HEX] != h and not (gs[q, GS_HEX] >= 0 and gs[q, GS_HEX] == s[i, S_TAIL]):
            continue
        kind = gl[q, GL_KIND]
        if kind <= G_IVOR:
            gs[q, GS_UP] = 1
            g[G_GLYPHS] += 1
            log(m, E_GLYPH, side, i, q, 0, 0, 0, 0, 0, 0, 0)
        elif kind == G_HAUKELAND:
            gs[q, GS_UP] = 1
            healed = heal_side(st, m, side, 3, -1)
            gs[q, GS_HEX] = -1
            g[G_GLYPHS] += 1
            log(m, E_GLYPH, side, i, q, 3, healed, 0, 0, 0, 0, 0)
        elif kind == G_BROOCH and (fi[i, F_POWERS] & P_UNIQUE_HERO) != 0:
            if gs[q, GS_UP] == 0 and op[O_TRAPS] != 0:
                r = die(m, 20)
                if r <= 5:
                    g[G_TRAPS] += 1
                    log(m, E_GLYPH, side, i, q, 2, r, 0, 0, 0, 0, 0)
                    wound(st, m, i, op[O_TRAP_WOUNDS], -1)
                    if s[i, S_ALIVE] == 0:
                        return
                    continue
            if s[i, S_TREASURE] == 0:
                gs[q, GS_UP] = 1
                gs[q, GS_HEX] = -1
                gs[q, GS_CARRIER] = i
                s[i, S_TREASURE] = q + 1
                g[G_GLYPHS] += 1
                log(m, E_GLYPH, side, i, q, 1, 0, 0, 0, 0, 0, 0)


# =========================================================== greedy evaluation
@njit(cache=True, _nrt=False)
def target_worth(st, m, j, e, pk):
    """Worth of expected wounds ``e`` and kill chance ``pk`` on ``j`` (its worth per Life
    as a target, ``fr[j, 1]``: points per Life, or even against a time victory)."""
    fi, fr = st[4], st[5]
    return fr[j, 1] * (e + 0.5 * pk * fi[j, F_LIFE])


@njit(cache=True, _nrt=False)
def foe_context(st, m, i):
    """What greedy's move choice needs of ``i``'s enemies that does not depend on where
    ``i`` ends its move, once per activation into ``wk`` (rows ``W_FOE`` ..): alive
    enemy, Range (Ivor), Attack (Astrid), Defense against an attacker not higher /
    higher, level, and whether ``i`` is adjacent to it now; the enemies in figure order
    in ``wk[W_FLIST]`` (their count returned)."""
    fi, op, s, g, wk = st[4], st[9], m[0], m[3], m[8]
    side = fi[i, F_SIDE]
    # reach_range, attack_value and defense_value of each enemy, with the enemy side's
    # Glyphs of Ivor, Astrid and Gerda looked up once
    other = 1 - side
    ivor = glyph_held(st, m, other, G_IVOR)
    astrid = glyph_held(st, m, other, G_ASTRID)
    gerda = glyph_held(st, m, other, G_GERDA)
    n = 0
    for k in range(fi.shape[0]):
        foe = s[k, S_ALIVE] == 1 and fi[k, F_SIDE] != side
        wk[W_FOE, k] = 1 if foe else 0
        if not foe:
            continue
        wk[W_FLIST, n] = k
        wk[W_FHEX, n] = s[k, S_HEX]
        wk[W_FTAIL, n] = s[k, S_TAIL]
        n += 1
        r = fi[k, F_RANGE]
        wk[W_FRANGE, k] = r + 4 if r >= 4 and ivor else r
        a = fi[k, F_ATTACK] + g[G_CHARGE + other]
        wk[W_FATTACK, k] = a + 1 if astrid else a
        low, high = defense_pair(st, k, s[k, S_HEX], s[k, S_TAIL], gerda)
        wk[W_FDEF_LOW, k] = low
        wk[W_FDEF_HIGH, k] = high
        wk[W_FROW, k] = fi[i, F_HCLASS] * op[O_NHC] + fi[k, F_HCLASS]
        wk[W_FREACH, k] = fi[k, F_MOVE] + wk[W_FRANGE, k]
        wk[W_FLEVEL, k] = level_of(st, m, k)
        wk[W_FADJ, k] = 1 if fig_dist(st, m, i, k) == 1 else 0
    return n


@njit(cache=True, _nrt=False)
def relation(li, lj):
    """The height relation of a base on level ``li`` to one on ``lj`` (``height_dice`` both
    ways): 0 more than 10 levels higher, 1 higher, 2 level, 3 lower, 4 more than 10 lower."""
    dl = li - lj
    if dl > 10:
        return 0
    if dl > 0:
        return 1
    if dl == 0:
        return 2
    if dl >= -10:
        return 3
    return 4


@njit(cache=True, _nrt=False)
def foe_worths(st, m, i, atk, nfoe):
    """Greedy worth of a normal attack of ``i`` (Attack ``atk``) on each of the ``nfoe``
    enemies of :func:`foe_context` from each height relation (:func:`relation`) into
    ``wf[relation, enemy]``: what :func:`best_attack_from` looks up per space."""
    fi, s, wk, wf = st[4], m[0], m[8], m[9]
    for q in range(nfoe):
        j = wk[W_FLIST, q]
        left = fi[j, F_LIFE] - s[j, S_WOUNDS]
        for r in range(5):
            li = 11 if r == 0 else (1 if r == 1 else 0)
            lj = 1 if r == 3 else (11 if r == 4 else 0)
            a = atk + height_dice(li, lj)
            dd = wk[W_FDEF_HIGH if li > lj else W_FDEF_LOW, j] + height_dice(lj, li)
            e, pk = expected(st, a, dd, left)
            wf[r, j] = target_worth(st, m, j, e, pk)


@njit(cache=True, _nrt=False, inline="always")
def best_attack_from(st, m, i, h, atk, rv, nfoe, near):
    """Greedy worth of ``i``'s best normal attack from space ``h`` (Attack ``atk``, Range
    ``rv``; the ``nfoe`` enemies from :func:`foe_context`, their distances from ``h`` in
    ``wk[W_FDIST]``, the nearest ``near``: engaged when 1) as ``normal_dice`` and
    "Engagement" say, and of its best attack next turn on an enemy it cannot attack now
    but could reach (within Move + Range)."""
    hx, los, fi, s, wk, wf = st[0], st[2], st[4], m[0], m[8], m[9]
    eng = near == 1
    li = hx[h, H_LEVEL]
    reach_next = fi[i, F_MOVE] + rv
    best = 0.0
    nxt = 0.0
    for q in range(nfoe):
        j = wk[W_FLIST, q]
        d = wk[W_FDIST, j]
        if eng:
            now = d == 1
        elif d > rv:
            now = False
        elif d == 1:
            now = True
        else:  # sees(st, m, i, h, j) with its table row from foe_context
            r, t = wk[W_FROW, j], s[j, S_TAIL]
            now = los[r, s[j, S_HEX], h] != 0 or (t >= 0 and los[r, t, h] != 0)
        if not now and d > reach_next:
            continue
        v = wf[relation(li, wk[W_FLEVEL, j]), j]
        if now:
            if v > best:
                best = v
        elif v > nxt:
            nxt = v
    return best, nxt


@njit(cache=True, _nrt=False)
def threat_on(st, m, i, h, nfoe, gerda):
    """Expected worth the enemies could take from ``i`` on ``h`` next turn (enemies that
    can reach it: in range now, or within Move + Range; values from :func:`foe_context`;
    ``gerda``: ``i``'s side holds the Glyph of Gerda).
    "Take Army Card Turns": the enemy's next Player Turn moves the figures of one Army
    Card, so the threat is that of the enemy card that could take the most
    (``threat_cards`` = next; all: the sum over every enemy card)."""
    hx, fi, fr, s, op, wk = st[0], st[4], st[5], m[0], st[9], m[8]
    li = hx[h, H_LEVEL]
    left = fi[i, F_LIFE] - s[i, S_WOUNDS]
    t = s[i, S_TAIL] if h == s[i, S_HEX] else -1  # if it stood on h (own tail ignored)
    d_low, d_high = defense_pair(st, i, h, t, gerda)
    tot = 0.0
    top = 0.0
    card = -1
    for q in range(nfoe):  # a card's figures are consecutive rows
        k = wk[W_FLIST, q]
        if fi[k, F_CARD] != card:
            top = max(top, tot)
            tot = 0.0 if op[O_THREAT_ALL] == 0 else tot
            card = fi[k, F_CARD]
        d = wk[W_FDIST, k]
        if d > wk[W_FREACH, k]:  # Move + Range
            continue
        rk = wk[W_FRANGE, k]
        lk = wk[W_FLEVEL, k]
        a = wk[W_FATTACK, k] + height_dice(lk, li)
        dd = (d_high if lk > li else d_low) + height_dice(li, lk)
        e, _ = expected(st, a, dd, left)
        w = 1.0 if d <= rk else NEXT_TURN
        tot += w * e * fr[i, 0]
    return max(top, tot)


@njit(cache=True, _nrt=False)
def glyph_worth(st, m, i, h):
    """Greedy worth of standing on ``h`` for its Glyph (glyph grabbing)."""
    fi, fr, gl, s, gs = st[4], st[5], st[7], m[0], m[2]
    side = fi[i, F_SIDE]
    v = 0.0
    for q in range(gl.shape[0]):
        if gs[q, GS_HEX] != h:
            continue
        kind = gl[q, GL_KIND]
        if kind == G_ASTRID or kind == G_GERDA:
            v += 8.0
        elif kind == G_DAGMAR:
            v += 3.0
        elif kind == G_IVOR:
            for k in range(fi.shape[0]):
                if s[k, S_ALIVE] == 1 and fi[k, F_SIDE] == side and fi[k, F_RANGE] >= 4:
                    v += 3.0
        elif kind == G_HAUKELAND:
            n = 0
            for k in range(fi.shape[0]):
                if s[k, S_ALIVE] == 1 and fi[k, F_SIDE] == side:
                    n += s[k, S_WOUNDS]
            v += min(n, 3) * fr[i, 0]
        elif kind == G_BROOCH and (fi[i, F_POWERS] & P_UNIQUE_HERO) != 0:
            v += 4.0
    return v


@njit(cache=True, _nrt=False, inline="always")
def position_worth(st, m, i, h, start, threat_w, nxt_w, cw, atk, rv, nfoe, gerda, near, gv, bv):
    """Greedy worth of ending ``i``'s move on ``h``: its best attack, minus weighted threat
    (``threat_w``), plus its weighted best attack next turn (``nxt_w`` x ``NEXT_TURN``, as
    the threat counts enemies that must move first), minus leaving-engagement and terrain
    risks, plus glyphs (``gv``: :func:`glyph_worth`), height and closing in (``cw`` per
    space beyond Range from the ``near``-est enemy; weights from :func:`greedy_weights`)
    (after :func:`foe_context` and :func:`foe_distances` from ``h``; ``atk``, ``rv``:
    ``i``'s Attack and Range).  ``NEG`` when the worth cannot exceed ``bv`` + 1e-9: the
    same sum without its (never positive) threat and risk terms is at most that (an
    exact bound: float sums are monotone), so those terms are not computed."""
    hx, tr, fi, fr, op, s, wk = st[0], st[3], st[4], st[5], st[9], m[0], m[8]
    best, nxt = best_attack_from(st, m, i, h, atk, rv, nfoe, near)
    level = 0.3 * hx[h, H_LEVEL]
    ahead = nxt_w * (NEXT_TURN * nxt)
    closing = cw * max(near - rv, 0) if near < BIG else 0.0
    bound = best + gv
    bound += level
    bound += ahead
    if near < BIG:
        bound -= closing
    if bound <= bv + 1e-9:
        return NEG
    v = best
    v -= threat_w * threat_on(st, m, i, h, nfoe, gerda)
    v += gv
    v += level
    v += ahead
    pskull = op[O_SKULL] / op[O_SIDES]
    te = hx[h, H_TERRAIN]
    left = fi[i, F_LIFE] - s[i, S_WOUNDS]
    if tr[te, TR_MOLTEN] != 0:
        v -= 0.95 * fr[i, 0] * left * 2.0
    if tr[te, TR_LAVA_FIELD] != 0:
        v -= pskull * fr[i, 0]
    if h != start and not disengage_safe(st, m, i):
        fly = (fi[i, F_POWERS] & P_FLYING) != 0
        stealth = (fi[i, F_POWERS] & P_STEALTH) != 0
        for q in range(nfoe):
            k = wk[W_FLIST, q]
            if wk[W_FADJ, k] == 1:
                if (fly and not stealth) or (not fly and wk[W_FDIST, k] != 1):
                    v -= op[O_LEAVE_DICE] * pskull * fr[i, 0]
    if near < BIG:
        v -= closing
    return v


@njit(cache=True, _nrt=False)
def choose_destination(st, m, i, pol):
    """Where ``i`` ends its move: random (uniform over legal ends) or the greedy best.

    Greedy's best is the space an in-order scan finds (the start space, then the spaces
    reached in the side's scan order; a space replaces the best so far when its worth is
    greater by more than 1e-9), found with fewer full scores: the candidate with the
    largest first bound (:func:`candidates`) is scored first, then the others in scan
    order, each skipped when a bound of its worth is below the best worth found less
    ``SLACK``; the scan's rule is applied to the worths computed, in scan order.  That is
    the scan's choice when every space's worth (or bound) below the best less ``SLACK``,
    plus 1e-9, is below the lowest worth within ``SLACK`` of the best (the scan's best so
    far is then one of those from the first of them on); when not (near ties), the
    candidates are scanned again with the plain rule."""
    hx, gs, op, wk, wf = st[0], m[2], st[9], m[8], m[9]
    start = reach(st, m, i)
    nh = hx.shape[0]
    if pol == POL_RANDOM:
        n = 0
        for h in range(nh):
            if can_end(st, m, i, h):
                n += 1
        k = pick(m, n)
        for h in range(nh):
            if can_end(st, m, i, h):
                if k == 0:
                    return h
                k -= 1
        return start
    nfoe = foe_context(st, m, i)
    side = st[4][i, F_SIDE]
    gerda = glyph_held(st, m, side, G_GERDA)
    for q in range(gs.shape[0]):
        if gs[q, GS_HEX] >= 0:
            wk[W_GMARK, gs[q, GS_HEX]] = 1
    atk = attack_value(st, m, i)
    rv = reach_range(st, m, i)
    top = attack_ceiling(st, m, i, atk)
    foe_worths(st, m, i, atk, nfoe)
    nxt_w = op[O_THREAT] / 1000.0
    threat_w, cw = greedy_weights(st, m, i, top)
    cap = worth_cap(st, m, nfoe)
    n, first = candidates(st, m, i, start, nfoe, rv, cap, nxt_w, cw)
    cand, scored, bnd, val = wk[W_CAND], wk[W_SCORED], wf[WF_BOUND], wf[WF_SCORE]
    best = start
    bv = NEG
    top_v = NEG  # the best worth found
    ub = NEG  # the largest bound of a space skipped
    ns = 0
    exact = True
    while True:
        for r in range(-1 if exact else 0, n):
            k = first if r < 0 else r
            if exact and r == first:
                v = val[k]  # scored first
            else:
                b = bnd[k]
                if exact:
                    if b < top_v - SLACK:
                        ub = max(ub, b)
                        continue
                    floor = top_v - 2.0 * SLACK if top_v > NEG else NEG
                else:
                    if b <= bv + 1e-9:
                        continue
                    floor = bv
                h = cand[k]
                near = foe_distances(st, m, h, nfoe)
                gv = glyph_worth(st, m, i, h) if wk[W_GMARK, h] != 0 else 0.0
                v = position_worth(st, m, i, h, start, threat_w, nxt_w, cw, atk, rv, nfoe,
                                   gerda, near, gv, floor)  # fmt: skip
                if exact:
                    if v == NEG:
                        ub = max(ub, floor + 1e-9)
                        continue
                    val[k] = v
                    scored[ns] = k
                    ns += 1
                    top_v = max(top_v, v)
                    if r < 0:
                        continue
            if v > bv + 1e-9:
                bv = v
                best = cand[k]
        if not exact:
            break
        low = top_v  # the lowest worth within SLACK of the best
        for q in range(ns):
            v = val[scored[q]]
            if v >= top_v - SLACK:
                low = min(low, v)
            else:
                ub = max(ub, v)
        if ub + 1e-9 < low:
            break
        exact = False  # near ties: the plain scan
        best = start
        bv = NEG
    for q in range(gs.shape[0]):
        if gs[q, GS_HEX] >= 0:
            wk[W_GMARK, gs[q, GS_HEX]] = 0
    return best


@njit(cache=True, _nrt=False)
def candidates(st, m, i, start, nfoe, rv, cap, nxt_w, cw):
    """The legal ends of ``i``'s move (after :func:`reach`): the start space, then the
    spaces reached in the side's scan order (from :func:`reach`'s bit sets; the other
    spaces cannot end the move), into ``wk[W_CAND]``, a bound of each one's worth into
    ``wf[WF_BOUND]``: :func:`position_worth`'s own bound (the worth without its never
    positive threat and risk terms) with ``cap`` (:func:`worth_cap`) for the attacks.
    Returns their count and the candidate with the largest bound (of those, the farthest
    from the enemy within Range ``rv``; the first in scan order)."""
    hx, dist, wk, wf = st[0], st[1], m[8], m[9]
    side = st[4][i, F_SIDE]
    nh = hx.shape[0]
    nw = (nh + 63) >> 6
    got = wk[W_SEEN]
    cand, near, bnd = wk[W_CAND], wk[W_NEAR], wf[WF_BOUND]
    # every space's nearest enemy (foe_distances' minimum), row by row of ``dist``
    for h in range(nh):
        near[h] = BIG
    for q in range(2 * nfoe):
        t = wk[W_FHEX, q >> 1] if (q & 1) == 0 else wk[W_FTAIL, q >> 1]
        if t >= 0:
            row = dist[t]
            for h in range(nh):
                near[h] = min(near[h], row[h])
    n = 0
    first = 0
    fb = NEG
    fd = -1
    w = -1
    x = np.int64(0)
    h = start
    while True:
        if w >= 0:
            while x == 0 and w < nw:
                x = got[side * nw + w]
                w += 1
            if x == 0:
                break
            r = ((w - 1) << 6) + trailing_zeros(x)
            x &= x - 1
            h = r if side == 0 else hx[r, H_ORDER_B]
            if h == start or not can_end(st, m, i, h):
                continue
        else:
            w = 0
        d = near[h]
        gv = glyph_worth(st, m, i, h) if wk[W_GMARK, h] != 0 else 0.0
        b = (cap if d <= rv else 0.0) + gv
        b += 0.3 * hx[h, H_LEVEL]
        b += nxt_w * (NEXT_TURN * cap)
        if d < BIG:
            b -= cw * max(d - rv, 0)
        cand[n] = h
        bnd[n] = b
        dd = d if d <= rv else -1
        if b > fb or (b == fb and dd > fd):
            fb = b
            fd = dd
            first = n
        n += 1
    return n, first


@njit(cache=True, _nrt=False)
def worth_cap(st, m, nfoe):
    """The largest worth :func:`best_attack_from` can give (now or next turn) from a space
    of the battlefield: the largest of the enemies' :func:`foe_worths` over the height
    relations its levels (``O_LEVEL_LO`` .. ``O_LEVEL_HI``) have to them."""
    op, wk, wf = st[9], m[8], m[9]
    cap = 0.0
    for q in range(nfoe):
        j = wk[W_FLIST, q]
        lj = wk[W_FLEVEL, j]
        for r in range(relation(op[O_LEVEL_HI], lj), relation(op[O_LEVEL_LO], lj) + 1):
            cap = max(cap, wf[r, j])
    return cap


@njit(cache=True, _nrt=False)
def greedy_weights(st, m, i, top):
    """Greedy's threat and closing-in weights for ``i`` (``top``: its best attack worth,
    :func:`attack_ceiling`).  Normally ``threat`` and 0.6 per space.  In a scenario won by
    one side at the round limit (Rumble at the Rift: COBRA at the end of Round 5) the
    other side must destroy every enemy figure in time: its pursuit per space is 0.6 +
    ``tempo`` x ``top`` / Move (a Move of spaces is a turn of attacks lost) and its threat
    weight shrinks with the rounds left after this one (0 in the last round: nothing is
    saved for later); the side the round limit favours holds: threat x (1 + ``hold``),
    closing-in 0.6 x (1 - ``hold``)."""
    fi, op, g = st[4], st[9], m[3]
    threat_w = op[O_THREAT] / 1000.0
    cw = 0.6
    tw = op[O_TIME_WINNER]
    if tw < 0:
        return threat_w, cw
    if fi[i, F_SIDE] == tw:
        hold = op[O_HOLD] / 1000.0
        return threat_w * (1.0 + hold), cw * (1.0 - hold)
    tempo = op[O_TEMPO] / 1000.0
    if tempo <= 0.0:
        return threat_w, cw
    after = max(op[O_ROUNDS] - g[G_ROUND], 0)
    threat_w *= after / max(op[O_ROUNDS] - 1, 1)
    cw += tempo * top / max(fi[i, F_MOVE], 1)
    return threat_w, cw


@njit(cache=True, _nrt=False)
def foe_distances(st, m, h, nfoe):
    """Spaces from ``h`` to each of the ``nfoe`` enemies into ``wk[W_FDIST]`` (after
    :func:`foe_context`); returns the nearest (``BIG``: none)."""
    dist, wk = st[1], m[8]
    near = BIG
    for q in range(nfoe):
        k = wk[W_FLIST, q]
        # dist_to(st, m, h, k) read from k's rows (``dist`` is symmetric): the spaces scored
        # for one move look up the same few rows
        d = dist[wk[W_FHEX, q], h]
        t = wk[W_FTAIL, q]
        if t >= 0 and dist[t, h] < d:
            d = dist[t, h]
        wk[W_FDIST, k] = d
        if d < near:
            near = d
    return near


@njit(cache=True, _nrt=False)
def attack_ceiling(st, m, i, atk):
    """At least either worth of :func:`best_attack_from` from any space: each enemy with the most
    attack dice (+2 height) against its least Defense, plus a margin (the expected-wound
    tables rise with attack dice and fall with defense dice)."""
    fi, s, wk = st[4], m[0], m[8]
    top = 0.0
    for j in range(fi.shape[0]):
        if wk[W_FOE, j] == 1:
            dd = min(wk[W_FDEF_LOW, j], wk[W_FDEF_HIGH, j])
            e, pk = expected(st, atk + 2, dd, fi[j, F_LIFE] - s[j, S_WOUNDS])
            top = max(top, target_worth(st, m, j, e, pk))
    return top + 1e-6


@njit([(ST, MT, I64, I64, I64)], cache=True)
def special_worth(st, m, i, j, line_dir):
    """Greedy worth of a special attack: enemies' expected worth lost minus friends'."""
    fi, s = st[4], m[0]
    out = np.empty(fi.shape[0], np.int64)
    n = affected(st, m, i, j, line_dir, out)
    li = level_of(st, m, i)
    v = 0.0
    for q in range(n):
        k = out[q]
        lk = level_of(st, m, k)
        d = defense_value(st, m, k, s[k, S_HEX], li > lk) + height_dice(lk, li)
        e, pk = expected(st, fi[i, F_SP_ATTACK], d, fi[k, F_LIFE] - s[k, S_WOUNDS])
        w = target_worth(st, m, k, e, pk)
        v += w if fi[k, F_SIDE] != fi[i, F_SIDE] else -w
    return v


@njit(cache=True, _nrt=False)
def attack_with(st, m, i, pol):
    """``i``'s attack, if it can make one ("Attack with Figures"): random picks a legal
    target uniformly; greedy the best worth over normal targets and special attacks."""
    fi, s = st[4], m[0]
    nf = fi.shape[0]
    rv = reach_range(st, m, i)
    eng = engaged(st, m, i)  # nothing changes until the attack: once for every target
    sp = fi[i, F_SP_KIND]
    n = 0
    best = -1
    bv = 0.0
    for j in range(nf):
        if can_target_eng(st, m, i, j, rv, eng):
            n += 1
            if pol != POL_RANDOM:
                a, d = normal_dice(st, m, i, s[i, S_HEX], j)
                e, pk = expected(st, a, d, fi[j, F_LIFE] - s[j, S_WOUNDS])
                v = target_worth(st, m, j, e, pk)
                if best < 0 or v > bv:
                    bv = v
                    best = j
    if n == 0 and sp == 0:
        return False
    if pol == POL_RANDOM:
        if n == 0:
            return False
        k = pick(m, n)
        for j in range(nf):
            if can_target_eng(st, m, i, j, rv, eng):
                if k == 0:
                    normal_attack(st, m, i, j)
                    return True
                k -= 1
        return False
    sp_target = -1
    sp_dir = -1
    if sp == SP_EXPLOSION:
        for j in range(nf):
            if can_target_eng(st, m, i, j, fi[i, F_SP_RANGE], eng):
                v = special_worth(st, m, i, j, 0)
                if v > bv + 1e-9:
                    bv = v
                    sp_target = j
    elif sp == SP_LINE:
        for dr in range(6):
            v = special_worth(st, m, i, -1, dr)
            if v > bv + 1e-9:
                bv = v
                sp_dir = dr
    if sp_target >= 0 or sp_dir >= 0:
        special_attack(st, m, i, sp_target, max(sp_dir, 0))
        return True
    if best >= 0:
        normal_attack(st, m, i, best)
        return True
    return False


# =========================================================== turns and rounds
@njit(cache=True, _nrt=False)
def charge_after_move(st, m, i, h0):
    """Charge!!! (Dorim the Bulkhead Brawler; the card text is not printed, reading in
    docs/rules-choices.md): triggered when ``i`` moved from ``h0`` and ends its move
    engaged with an enemy figure it was not adjacent to on ``h0``; then, as "Destroyed
    Figures" says, it is "in effect after it's triggered and until the next time his
    controlling player reveals an Order Marker, even if Dorim is destroyed": every
    normal attack of a friendly figure rolls 1 more attack die (:func:`attack_value`)."""
    fi, op, s, g = st[4], st[9], m[0], m[3]
    if op[O_CHARGE] == 0 or (fi[i, F_POWERS] & P_CHARGE) == 0:
        return
    if s[i, S_ALIVE] == 0 or s[i, S_HEX] == h0:
        return
    side = fi[i, F_SIDE]
    for k in range(fi.shape[0]):
        if s[k, S_ALIVE] == 1 and fi[k, F_SIDE] != side and fig_dist(st, m, i, k) == 1:
            if dist_to(st, m, h0, k) > 1:
                if g[G_CHARGE + side] == 0:
                    log(m, E_CHARGE, side, i, k, 0, 0, 0, 0, 0, 0, 0)
                g[G_CHARGE + side] = 1
                return


@njit(cache=True, _nrt=False)
def figure_worth(st, m, i):
    """Greedy worth of activating ``i`` now: its best attack within Move + Range."""
    fi, s = st[4], m[0]
    side = fi[i, F_SIDE]
    rv = reach_range(st, m, i)
    best = 1.0
    for j in range(fi.shape[0]):
        if s[j, S_ALIVE] == 0 or fi[j, F_SIDE] == side:
            continue
        d = fig_dist(st, m, i, j)
        a, dd = normal_dice(st, m, i, s[i, S_HEX], j)
        e, pk = expected(st, a, dd, fi[j, F_LIFE] - s[j, S_WOUNDS])
        w = target_worth(st, m, j, e, pk)
        if d > fi[i, F_MOVE] + rv:
            w *= 0.25
        if w > best:
            best = w
    return best


@njit(cache=True, _nrt=False)
def card_turn(st, m, c, pol):
    """One Army Card turn ("Take Army Card Turns"): move up to the card's figures
    (silhouettes of a Common card), each chosen figure activated; then attack with the
    activated figures (Double Attack: an additional normal attack)."""
    fi, ci, s, g, wk, wf = st[4], st[6], m[0], m[3], m[8], m[9]
    first = ci[c, C_FIRST]
    nfig = ci[c, C_NFIG]
    order = wk[W_ORDER]
    n = 0
    for q in range(nfig):
        i = first + q
        if s[i, S_ALIVE] == 1:
            order[n] = i
            n += 1
    acts = min(ci[c, C_ACTS], n)
    if pol == POL_RANDOM:
        for q in range(acts):
            r = q + pick(m, n - q)
            tmp = order[q]
            order[q] = order[r]
            order[r] = tmp
    elif acts < n:
        for q in range(n):  # each figure's worth once (nothing changes while choosing)
            wf[WF_WORTH, order[q]] = figure_worth(st, m, order[q])
        for q in range(acts):
            bq = q
            bv = wf[WF_WORTH, order[q]]
            for r in range(q + 1, n):
                v = wf[WF_WORTH, order[r]]
                if v > bv:
                    bv = v
                    bq = r
            tmp = order[q]
            order[q] = order[bq]
            order[bq] = tmp
    for q in range(acts):
        i = order[q]
        if s[i, S_ALIVE] == 0:
            continue
        s[i, S_ACTIVE] = 1
        g[G_ACT] += 1
        h = choose_destination(st, m, i, pol)
        h0 = s[i, S_HEX]
        move_to(st, m, i, h)
        charge_after_move(st, m, i, h0)
    for q in range(acts):
        i = order[q]
        if s[i, S_ALIVE] == 0:
            continue
        if attack_with(st, m, i, pol) and (fi[i, F_POWERS] & P_DOUBLE_ATTACK) != 0:
            if s[i, S_ALIVE] == 1:
                attack_with(st, m, i, pol)
    for q in range(acts):
        s[order[q], S_ACTIVE] = 0


@njit([(ST, MT, I64)], cache=True, _nrt=False)
def alive_count(st, m, side):
    fi, s = st[4], m[0]
    n = 0
    for i in range(fi.shape[0]):
        if s[i, S_ALIVE] == 1 and fi[i, F_SIDE] == side:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def card_alive(st, m, c):
    ci, s = st[6], m[0]
    for q in range(ci[c, C_NFIG]):
        if s[ci[c, C_FIRST] + q, S_ALIVE] == 1:
            return True
    return False


@njit([(ST, MT, I64)], cache=True, _nrt=False)
def score(st, m, side):
    """ "Scoring": points per Life of each Army Card x remaining Life on the battlefield."""
    fi, fr, s = st[4], st[5], m[0]
    tot = 0.0
    for i in range(fi.shape[0]):
        if s[i, S_ALIVE] == 1 and fi[i, F_SIDE] == side:
            tot += fr[i, 0] * (fi[i, F_LIFE] - s[i, S_WOUNDS])
    return tot


@njit(cache=True, _nrt=False)
def check_victory(st, m):
    """ "Check Victory Conditions" after every Player Turn: the only player with figures
    on the battlefield wins; neither: a draw."""
    g = m[3]
    a = alive_count(st, m, 0)
    b = alive_count(st, m, 1)
    if a > 0 and b > 0:
        return False
    g[G_END] = END_ELIMINATION
    g[G_WINNER] = 0 if a == 0 and b == 0 else (1 if a > 0 else 2)
    return True


@njit(cache=True, _nrt=False)
def top_sum(ws, n, k):
    """Sum of the ``k`` largest of ``ws[:n]``, largest first (``ws`` is reordered): what
    ``np.sort(ws[:n])[::-1][:k].sum()`` gives, without compiling a sort."""
    tot = 0.0
    for r in range(min(k, n)):
        b = r
        for q in range(r + 1, n):
            if ws[q] > ws[b]:
                b = q
        tmp = ws[r]
        ws[r] = ws[b]
        ws[b] = tmp
        tot += ws[r]
    return tot


@njit([(ST, MT, I64, I64)], cache=True)
def place_markers(st, m, side, pol):
    """ "Place Order Markers": 1, 2, 3 and the decoy X on the side's own Army Cards.
    Random: uniform over cards with figures; greedy: by the worth of each card's turn,
    halved for each marker already on it (public information only)."""
    ci, s, mk, wf = st[6], m[0], m[4], m[9]
    nc = ci.shape[0]
    val = wf[WF_VAL]  # by card (fewer cards than figures)
    ws = wf[WF_WS]
    n = 0
    for c in range(nc):
        if ci[c, C_SIDE] != side or not card_alive(st, m, c):
            val[c] = -1.0
            continue
        n += 1
        if pol == POL_RANDOM:
            val[c] = 1.0
            continue
        for q in range(ci[c, C_NFIG]):
            i = ci[c, C_FIRST] + q
            ws[q] = figure_worth(st, m, i) if s[i, S_ALIVE] == 1 else 0.0
        val[c] = top_sum(ws, ci[c, C_NFIG], ci[c, C_ACTS])
    if n == 0:
        for q in range(4):
            mk[side, q] = -1
        return
    for q in range(3):
        if pol == POL_RANDOM:
            k = pick(m, n)
            for c in range(nc):
                if val[c] >= 0:
                    if k == 0:
                        mk[side, q] = c
                        break
                    k -= 1
        else:
            best = -1
            for c in range(nc):
                if val[c] >= 0 and (best < 0 or val[c] > val[best]):
                    best = c
            mk[side, q] = best
            val[best] *= 0.5
    k = pick(m, n)
    for c in range(nc):
        if val[c] >= 0:
            if k == 0:
                mk[side, 3] = c
                break
            k -= 1


@njit(cache=True, _nrt=False)
def initiative(st, m):
    """ "Roll For Initiative": each player rolls the d20 (+8 with the Glyph of Dagmar), the
    highest takes the first Player Turn, ties reroll.  Returns the side."""
    rerolls = 0
    ba = 8 if glyph_held(st, m, 0, G_DAGMAR) else 0
    bb = 8 if glyph_held(st, m, 1, G_DAGMAR) else 0
    while True:
        ra = die(m, 20) + ba
        rb = die(m, 20) + bb
        if ra != rb:
            w = 0 if ra > rb else 1
            log(m, E_INIT, w, ra, rb, w, rerolls, ba, bb, 0, 0, 0)
            return w
        rerolls += 1


@njit(cache=True, _nrt=False)
def start_of_round(st, m):
    """ "Wellspring Water": at the beginning of each round each Hero on it may roll the d20
    (12+ removes 1 Wound Marker, 1-2 deals 2 wounds); reading: only wounded Heroes roll."""
    hx, tr, fi, ci, s = st[0], st[3], st[4], st[6], m[0]
    for i in range(fi.shape[0]):
        if s[i, S_ALIVE] == 0 or s[i, S_WOUNDS] == 0 or ci[fi[i, F_CARD], C_NFIG] != 1:
            continue
        if tr[hx[s[i, S_HEX], H_TERRAIN], TR_WELLSPRING] == 0:
            continue
        r = die(m, 20)
        if r >= 12:
            s[i, S_WOUNDS] -= 1
            log(m, E_WELL, fi[i, F_SIDE], i, r, -1, 0, 0, 0, 0, 0, 0)
        elif r <= 2:
            log(m, E_WELL, fi[i, F_SIDE], i, r, 2, 0, 0, 0, 0, 0, 0)
            wound(st, m, i, 2, -1)


@njit(cache=True, _nrt=False)
def end_of_round(st, m):
    """ "4. End the Round": "Lava Field" (each figure on it rolls 1 combat die, a skull is 1
    wound); Tech Glyphs flip back power side up; then victory and the round limit."""
    hx, tr, fi, op, s, g = st[0], st[3], st[4], st[9], m[0], m[3]
    for i in range(fi.shape[0]):
        s[i, S_NANITE] = 0
        s[i, S_NANOTOX] = 0
        if s[i, S_ALIVE] == 0:
            continue
        on = tr[hx[s[i, S_HEX], H_TERRAIN], TR_LAVA_FIELD]
        if s[i, S_TAIL] >= 0:
            on = max(on, tr[hx[s[i, S_TAIL], H_TERRAIN], TR_LAVA_FIELD])
        if on != 0:
            sk = skulls(st, m, 1)
            log(m, E_LAVA, fi[i, F_SIDE], i, sk, 0, 0, 0, 0, 0, 0, 0)
            wound(st, m, i, sk, -1)
    if g[G_END] < 0 and check_victory(st, m):
        return
    if g[G_END] < 0 and g[G_ROUND] >= op[O_ROUNDS]:
        if op[O_TIME_WINNER] >= 0:
            g[G_END] = END_SCENARIO
            g[G_WINNER] = op[O_TIME_WINNER] + 1
        else:
            g[G_END] = END_ROUNDS
            a = score(st, m, 0)
            b = score(st, m, 1)
            g[G_WINNER] = 0 if abs(a - b) < 1e-9 else (1 if a > b else 2)


@njit(cache=True, _nrt=False, inline="always")
def turns_of_round(st, m, from_turn):
    """Player Turns ``from_turn`` .. 5 of the round (alternating from the Initiative
    side: reveal that side's marker, take that Army Card's turn), a victory check after
    each; then the end of the round."""
    op, g, mk = st[9], m[3], m[4]
    for t in range(from_turn, 6):
        side = g[G_INIT] if t % 2 == 0 else 1 - g[G_INIT]
        pol = op[O_POL_A + side]
        if g[G_ROLL] != 0 or pol == POL_STRONG:
            pol = POL_GREEDY
        # a Player Turn: reveal the marker and take that Army Card's turn
        c = mk[side, t // 2]
        g[G_TURNS] += 1
        g[G_CHARGE + side] = 0  # revealing an Order Marker ends Charge!!!
        if c < 0 or not card_alive(st, m, c):
            log(m, E_NOFIG, side, t // 2 + 1, c, 0, 0, 0, 0, 0, 0, 0)
        else:
            log(m, E_TURN, side, t // 2 + 1, c, 0, 0, 0, 0, 0, 0, 0)
            card_turn(st, m, c, pol)
        if check_victory(st, m):
            return
        if g[G_CHECK] != 0:
            check(st, m)
    end_of_round(st, m)


@njit(cache=True, _nrt=False)
def log_markers(m, side):
    mk = m[4]
    log(m, E_MARKERS, side, mk[side, 0], mk[side, 1], mk[side, 2], mk[side, 3], 0, 0, 0, 0, 0)


@njit(cache=True)
def copy_match(m, m2):
    """Copy the match state ``m`` into ``m2`` (a rollout's working copy)."""
    copy2(m[0], m2[0])
    copy1(m[1], m2[1])
    copy2(m[2], m2[2])
    copy1(m[3], m2[3])
    copy2(m[4], m2[4])


@njit([(I1, I1)], cache=True, _nrt=False)
def copy1(a, b):
    """``b[:] = a`` by a loop (slice assignment compiles numba's broadcasting)."""
    for q in range(a.shape[0]):
        b[q] = a[q]


@njit([(I2, I2)], cache=True, _nrt=False)
def copy2(a, b):
    """``b[:, :] = a`` by a loop."""
    for q in range(a.shape[0]):
        for r in range(a.shape[1]):
            b[q, r] = a[q, r]


@njit(cache=True)
def strong_markers(st, m, m2, side):
    """The strong policy's order markers: each of ``strong_plans`` plans (greedy, then the
    best card on all 3 markers, the 2nd best card first, ...) is played out to the end of
    this round and the next by greedy play on copies, the opponent's markers placed by
    greedy from the public state (never read), ``strong_rollouts`` times with common
    random numbers, in batches of ``STRONG_BATCH`` after which plans far behind stop
    (:func:`drop_behind`, ``strong_drop``); among the rest a plan replaces greedy's by
    :func:`paired_best` on the points-of-Life margins (``strong_margin`` standard errors)."""
    ci, op, mk = st[6], st[9], m[4]
    place_markers(st, m, side, POL_GREEDY)
    greedy = np.empty(4, np.int64)
    for q in range(4):
        greedy[q] = mk[side, q]
    nc = ci.shape[0]
    cards = np.empty(nc, np.int64)
    n = 0
    for c in range(nc):
        if ci[c, C_SIDE] == side and card_alive(st, m, c):
            cards[n] = c
            n += 1
    if n <= 1:
        return
    plans = np.empty((op[O_LOOK_K], 4), np.int64)
    np_ = 0
    for p in range(op[O_LOOK_K]):
        plan = np.empty(4, np.int64)
        for q in range(4):
            plan[q] = greedy[q]
        if p == 1:
            plan[1] = plan[0]
            plan[2] = plan[0]
        elif p >= 2:
            alt = cards[(p - 2) % n]
            if alt == plan[0]:
                alt = cards[(p - 1) % n]
            plan[0] = alt
        for q in range(4):
            plans[np_, q] = plan[q]
        np_ += 1
    base = next_u64(m[6])
    rounds = op[O_STRONG_HORIZON]
    if op[O_STRONG_END] != 0 and op[O_TIME_WINNER] >= 0:
        rounds = max(rounds, op[O_ROUNDS] - m[3][G_ROUND] + 1)
    nr = op[O_LOOK_ROLLOUTS]
    drop = op[O_STRONG_DROP] / 1000.0
    vals = np.zeros((np_, nr))
    alive = np.ones(np_, np.bool_)
    for r0 in range(0, nr, STRONG_BATCH):
        r1 = min(r0 + STRONG_BATCH, nr)
        for p in range(np_):
            if alive[p]:
                for r in range(r0, r1):
                    vals[p, r] = rollout_plan(st, m, m2, side, plans, p, base, r, rounds)
        if drop > 0.0 and r1 < nr:
            drop_behind(vals, alive, r1, drop)
    keep = np.empty(np_, np.int64)
    nk = 0
    for p in range(np_):
        if alive[p]:
            keep[nk] = p
            nk += 1
    kept = np.empty((nk, nr))
    for q in range(nk):
        for r in range(nr):
            kept[q, r] = vals[keep[q], r]
    best = keep[paired_best(kept, op[O_STRONG_MARGIN] / 1000.0)]
    for q in range(4):
        mk[side, q] = plans[best, q]


@njit(cache=True)
def drop_behind(vals, alive, nr, drop):
    """Racing the plans: after ``nr`` rollouts, a plan other than greedy's (row 0) whose
    paired mean is more than ``drop`` standard errors below the leader's gets no more
    rollouts (:func:`~analyzer.match.paired_nb.paired_gain_se`)."""
    lead = 0
    for p in range(vals.shape[0]):
        if alive[p] and vals[p, :nr].mean() > vals[lead, :nr].mean():
            lead = p
    pair = np.empty((2, nr))
    for r in range(nr):
        pair[0, r] = vals[lead, r]
    for p in range(1, vals.shape[0]):
        if alive[p] and p != lead:
            for r in range(nr):
                pair[1, r] = vals[p, r]
            mean, se = paired_gain_se(pair, 1, nr)
            if mean + drop * se < 0.0:
                alive[p] = False


@njit(cache=True, inline="always")
def rollout_plan(st, m, m2, side, plans, p, base, r, rounds):
    """One rollout of the strong policy's marker plan ``plans[p]``: on a copy, the
    opponent's markers placed by greedy, this round and the next ``rounds`` - 1 played
    by greedy for both sides with the random streams of rollout ``r`` (common to every
    plan); its :func:`rollout_value`.  Inlined into its one caller: a kernel of its own
    re-optimised the whole game below it once more at every cold compile."""
    other = 1 - side
    copy_match(m, m2)
    g2, rng2 = m2[3], m2[6]
    g2[G_ROLL] = 1
    g2[G_DPOS] = m2[5][0]
    seed_rollout(rng2, base, r)
    for rd in range(rounds):
        if rd == 0:
            for q in range(4):
                m2[4][side, q] = plans[p, q]
            place_markers(st, m2, other, POL_GREEDY)
        else:  # the next rounds: greedy markers and play for both
            if g2[G_END] >= 0:
                break
            g2[G_ROUND] += 1
            start_of_round(st, m2)
            if check_victory(st, m2):
                break
            for s2 in range(2):
                place_markers(st, m2, s2, POL_GREEDY)
        g2[G_INIT] = initiative(st, m2)
        turns_of_round(st, m2, 0)
    return rollout_value(st, m2, side)


@njit(cache=True)
def paired_best(vals, margin):
    """The plan (row of ``vals``: its rollouts' values, common random numbers per
    column) whose mean gain over plan 0 (greedy's) is the largest, among the plans whose
    paired gain (:func:`~analyzer.match.paired_nb.paired_gain_se`) exceeds ``margin``
    standard errors (the winner's curse: the best of a few noisy means is biased
    upward); 0 when none does."""
    np_, nr = vals.shape
    best = 0
    top = 0.0
    for p in range(1, np_):
        mean, se = paired_gain_se(vals, p, nr)
        if mean > 1e-9 + margin * se and mean > top + 1e-9:
            top = mean
            best = p
    return best


@njit(cache=True)
def rollout_value(st, m, side):
    """Points-of-Life margin of ``side`` (+-500 for a win or a loss)."""
    g = m[3]
    v = score(st, m, side) - score(st, m, 1 - side)
    if g[G_END] >= 0:
        if g[G_WINNER] == side + 1:
            v += 500.0
        elif g[G_WINNER] == 2 - side:
            v -= 500.0
    return v


@njit(cache=True, inline="always")
def play_round(st, m, m2):
    """One round ("The Battle Begins!"): Wellspring, "Place Order Markers", "Roll For
    Initiative" (round 1 with ``first`` other than rules: the chosen side), 6 Player
    Turns, "End the Round".  The strong policy's markers by its rollouts on ``m2``
    (:func:`run_block_strong` only; :func:`play_round_plain` for the other policies)."""
    op, g = st[9], m[3]
    start_of_round(st, m)
    if check_victory(st, m):
        return
    for side in range(2):  # the strong policy plays greedy inside rollouts
        pol = op[O_POL_A + side]
        if pol == POL_STRONG and g[G_ROLL] == 0:
            strong_markers(st, m, m2, side)
        else:
            place_markers(st, m, side, POL_GREEDY if pol == POL_STRONG else pol)
        log_markers(m, side)
    initiative_and_turns(st, m)


@njit(cache=True, inline="always")
def play_round_plain(st, m):
    """:func:`play_round` when no side plays the strong policy (:func:`run_block`): the
    rollouts' code is not compiled into the plain entry."""
    op = st[9]
    start_of_round(st, m)
    if check_victory(st, m):
        return
    for side in range(2):
        pol = op[O_POL_A + side]
        place_markers(st, m, side, POL_GREEDY if pol == POL_STRONG else pol)
        log_markers(m, side)
    initiative_and_turns(st, m)


@njit(cache=True, inline="always")
def initiative_and_turns(st, m):
    """ "Roll For Initiative" (round 1 with ``first`` other than rules: the chosen side),
    then the round's Player Turns."""
    op, g = st[9], m[3]
    if g[G_ROUND] == 1 and (op[O_FORCED] >= 0 or op[O_FIRST] != 0):
        g[G_INIT] = g[G_FIRST]
    else:
        g[G_INIT] = initiative(st, m)
        if g[G_ROUND] == 1:
            g[G_FIRST] = g[G_INIT]
    turns_of_round(st, m, 0)


@njit(cache=True)
def check(st, m):
    """Invariants: occupancy matches the figures, Life not exceeded, legal spaces, both
    spaces of a double-space figure adjacent and on one level, carried glyphs."""
    hx, dist, fi, s, occ, gs, g = st[0], st[1], st[4], m[0], m[1], m[2], m[3]
    bad = 0
    for h in range(hx.shape[0]):
        f = occ[h]
        if f >= 0 and (s[f, S_ALIVE] == 0 or (s[f, S_HEX] != h and s[f, S_TAIL] != h)):
            bad += 1
    for i in range(fi.shape[0]):
        if s[i, S_ALIVE] == 0:
            continue
        h = s[i, S_HEX]
        if h < 0 or occ[h] != i or hx[h, H_OBSTACLE] > 0 or s[i, S_WOUNDS] >= fi[i, F_LIFE]:
            bad += 1
            continue
        t = s[i, S_TAIL]
        if fi[i, F_DOUBLE] == 1:
            if t < 0 or occ[t] != i or dist[h, t] != 1 or hx[t, H_LEVEL] != hx[h, H_LEVEL]:
                bad += 1
        elif t >= 0:
            bad += 1
        q = s[i, S_TREASURE] - 1
        if q >= 0 and gs[q, GS_CARRIER] != i:
            bad += 1
    g[G_VIOL] += bad


@njit(cache=True)
def deploy(st, m, side, pol):
    """Set-up: the side's figures placed in its start zone ("Pick a Scenario and Map"),
    in card order on the free start spaces nearest the enemy zone (greedy; distances from
    :func:`front_distances`) or at random;
    a double-space figure takes a free neighbouring start space on the same level."""
    hx, fi, s, occ = st[0], st[4], m[0], m[1]
    nh = hx.shape[0]
    zone = side + 1
    for i in range(fi.shape[0]):
        if fi[i, F_SIDE] != side:
            continue
        k = 0
        if pol == POL_RANDOM:
            n = 0
            for h in range(nh):
                if hx[h, H_ZONE] == zone and occ[h] < 0 and free_tail(st, m, i, h) != -2:
                    n += 1
            k = pick(m, n)
        chosen = -1
        best = BIG
        for idx in range(nh):
            h = scan(hx, side, idx)
            if hx[h, H_ZONE] == zone and occ[h] < 0 and free_tail(st, m, i, h) != -2:
                if pol == POL_RANDOM:
                    if k == 0:
                        chosen = h
                        break
                    k -= 1
                else:
                    d = m[8][W_FRONT, h]
                    if d < best:
                        best = d
                        chosen = h
        s[i, S_ALIVE] = 1
        s[i, S_HEX] = chosen
        occ[chosen] = i
        t = free_tail(st, m, i, chosen)
        s[i, S_TAIL] = t
        if t >= 0:
            occ[t] = i
        log(m, E_DEPLOY, side, i, chosen, t, 0, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def free_tail(st, m, i, h):
    """The start space of ``i``'s second half next to ``h`` (-1 single-space; -2 none)."""
    hx, fi, occ = st[0], st[4], m[1]
    if fi[i, F_DOUBLE] == 0:
        return -1
    for k in range(6):
        t = hx[h, H_NB + k]
        if t >= 0 and hx[t, H_ZONE] == hx[h, H_ZONE] and occ[t] < 0:
            if hx[t, H_LEVEL] == hx[h, H_LEVEL]:
                return t
    return -2


@njit(cache=True, _nrt=False)
def front_distances(st, m):
    """Spaces from each start space to the nearest space of the other start zone, into
    ``wk[W_FRONT]`` (greedy's set-up, :func:`deploy`)."""
    hx, dist, wk = st[0], st[1], m[8]
    nh = hx.shape[0]
    for h in range(nh):
        zone = hx[h, H_ZONE]
        best = BIG
        if zone != 0:
            for k in range(nh):
                if hx[k, H_ZONE] != 0 and hx[k, H_ZONE] != zone and dist[h, k] < best:
                    best = dist[h, k]
        wk[W_FRONT, h] = best


@njit(cache=True)
def setup_match(st, m, k):
    """A new match: figures placed, glyphs on their spaces, who takes round 1's first turn
    (``first``: rules = initiative roll, alternate = A in even matches)."""
    gl, op, s, occ, gs, g = st[7], st[9], m[0], m[1], m[2], m[3]
    for i in range(s.shape[0]):
        for q in range(s.shape[1]):
            s[i, q] = 0
        s[i, S_HEX] = -1
        s[i, S_TAIL] = -1
    for h in range(occ.shape[0]):
        occ[h] = -1
    for q in range(gl.shape[0]):
        gs[q, GS_HEX] = gl[q, GL_HEX]
        gs[q, GS_UP] = gl[q, GL_UP]
        gs[q, GS_CARRIER] = -1
    trace = g[G_TRACE]
    chk = g[G_CHECK]
    for q in range(g.shape[0]):
        g[q] = 0
    g[G_TRACE] = trace
    g[G_CHECK] = chk
    g[G_END] = -1
    g[G_ROUND] = 1
    mode = op[O_FIRST]
    if op[O_FORCED] >= 0:
        g[G_FIRST] = op[O_FORCED]
    elif mode == 1:
        g[G_FIRST] = k % 2
    elif mode == 2:
        g[G_FIRST] = 0
    elif mode == 3:
        g[G_FIRST] = 1
    for side in range(2):
        deploy(st, m, side, op[O_POL_A + side])


@njit(cache=True)
def write_record(st, m, rec, urec, row):
    fi, s, g = st[4], m[0], m[3]
    rec[row, 0] = g[G_WINNER]
    rec[row, 1] = int(round(score(st, m, 0)))
    rec[row, 2] = int(round(score(st, m, 1)))
    rec[row, 3] = g[G_FIRST]
    rec[row, 4] = g[G_ROUND]
    rec[row, 5] = g[G_END]
    rec[row, 6] = g[G_ACT]
    rec[row, 7] = g[G_VIOL]
    rec[row, 8] = g[G_ATTACKS]
    rec[row, 9] = g[G_LEAVE]
    rec[row, 10] = g[G_FALLS]
    rec[row, 11] = g[G_GLYPHS]
    rec[row, 12] = g[G_TURNS]
    rec[row, 13] = g[G_TRAPS]
    for i in range(fi.shape[0]):
        urec[row, i, 0] = 0 if s[i, S_ALIVE] == 1 else 1
        urec[row, i, 1] = s[i, S_DEALT]
        urec[row, i, 2] = s[i, S_TAKEN]
        urec[row, i, 3] = s[i, S_SCORE]
        urec[row, i, 4] = s[i, S_ATTACKS]
        urec[row, i, 5] = s[i, S_ROUND_OUT]


@njit(cache=True, nogil=True)
def begin_match(st, m, state, block, k, trace, chk):
    """Match ``k`` seeded from the block state and ``k % block``
    (``analyzer.match.seeding_nb.seed_match``), set up, its trace and checks switched."""
    g = m[3]
    seed_match(m[6], state, k % block)
    g[G_TRACE] = 1 if trace else 0
    g[G_CHECK] = 1 if chk else 0
    g[G_NEV] = 0
    setup_match(st, m, k)
    if g[G_CHECK] != 0:
        check(st, m)


@njit(cache=True, nogil=True)
def end_match(st, m, rec, urec, row):
    """The end event of a finished match (each side's score x 10) and its records in
    ``rec`` and ``urec`` row ``row``."""
    g = m[3]
    log(
        m, E_END, 0, g[G_END], g[G_WINNER], int(round(10 * score(st, m, 0))),
        int(round(10 * score(st, m, 1))), 0, 0, 0, 0, 0,
    )  # fmt: skip
    write_record(st, m, rec, urec, row)


@njit(cache=True, nogil=True)
def run_block(st, m, state, block, first, count, rec, urec, trace, chk, code, a, b, c):
    """The entry kernel of matches without a strong side: play matches ``first .. first +
    count - 1`` into ``rec`` and ``urec``; match ``k`` is seeded from the block state and
    ``k % block`` (``analyzer.match.seeding_nb.seed_match``).  Returns the trace rows
    written.  The arguments are those of :func:`run_block_strong` (``code`` must be
    ``OP_BLOCK``; ``a, b, c`` unused), which the strong policy and the rule tests use: a
    greedy or random run never compiles the rollouts, and this kernel inlines one round."""
    g = m[3]
    front_distances(st, m)
    for kk in range(count):
        k = first + kk
        begin_match(st, m, state, block, k, trace, chk)
        while g[G_END] < 0:
            play_round_plain(st, m)
            if g[G_END] < 0:
                g[G_ROUND] += 1
        end_match(st, m, rec, urec, kk if rec.shape[0] == count else k)
    return g[G_NEV] if trace else 0


@njit(cache=True, nogil=True)
def run_block_strong(st, m, state, block, first, count, rec, urec, trace, chk, code, a, b, c):
    """The entry kernel of the strong policy and of the rule tests.

    ``code`` 0 (``OP_BLOCK``): as :func:`run_block`.  Other codes: one engine operation on
    the hand-built match ``m`` (``sandbox.py``) with the operands ``a, b, c``."""
    s, occ, gs, g, mk, dc, rng, ev, wk, wf = m
    m2 = (
        s.copy(), occ.copy(), gs.copy(), np.zeros(G_COLS, np.int64), mk.copy(), dc, rng.copy(),
        ev, np.zeros_like(wk), np.zeros_like(wf),
    )  # fmt: skip
    if code == OP_BLOCK:
        front_distances(st, m)
        for kk in range(count):
            k = first + kk
            begin_match(st, m, state, block, k, trace, chk)
            while g[G_END] < 0:
                play_round(st, m, m2)
                if g[G_END] < 0:
                    g[G_ROUND] += 1
            end_match(st, m, rec, urec, kk if rec.shape[0] == count else k)
        return g[G_NEV] if trace else 0
    # the sandbox's operations (rule tests on hand-built positions)
    if code == OP_ATTACK:
        normal_attack(st, m, a, b)
    elif code == OP_SPECIAL:
        special_attack(st, m, a, b, c)
    elif code == OP_MOVE:
        reach(st, m, a)
        if not can_end(st, m, a, b):
            return -1
        h0 = s[a, S_HEX]
        move_to(st, m, a, b)
        charge_after_move(st, m, a, h0)
    elif code == OP_REACH:
        reach(st, m, a)
        return wk[W_COST, b] if can_end(st, m, a, b) else -1
    elif code == OP_TURN:
        card_turn(st, m, b, c)
    elif code == OP_ROUND:
        play_round(st, m, m2)
    elif code == OP_INIT:
        return initiative(st, m)
    elif code == OP_CHECK:
        g[G_VIOL] = 0
        check(st, m)
        return g[G_VIOL]
    elif code == OP_END_ROUND:
        end_of_round(st, m)
    elif code == OP_MARKERS:
        if c == POL_STRONG:
            strong_markers(st, m, m2, a)
        else:
            place_markers(st, m, a, c)
        log_markers(m, a)
    elif code == OP_SCORE:
        return int(round(10 * score(st, m, a)))
    elif code == OP_TARGET:
        return 1 if can_target(st, m, a, b, reach_range(st, m, a)) else 0
    elif code == OP_DEFENSE:
        return defense_value(st, m, a, m[0][a, S_HEX], b == 1)
    return 0
