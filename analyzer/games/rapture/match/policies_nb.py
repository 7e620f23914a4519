# mypy: ignore-errors
"""AI policies for Rapture matches: candidate actions, greedy scoring, reactions, unit choice.

A policy is an integer (``layout.P_*``).  At each decision the engine enumerates the legal
candidate actions of the active unit into a small buffer ``C`` (kind, actor, target,
destination, score) with :func:`candidates`; ``random`` picks one uniformly, ``greedy``
picks the best one-step score.  The lookahead policy (``lookahead_nb``) re-scores the
best greedy candidates by simulated continuations.

Greedy scores are in victory-point units.  Attacks use the exact wound tails ``TAB``
(``TAB[n, hit_at, block_dice, block_at is 5+, 0, w] = P(wounds >= w)`` and their sums,
from the exact engine, see ``compile.wound_tables``): the expected value of an attack is
``ALPHA * points-per-HP * E[min(wounds, HP left)] + P(kill) * (VP of the kill)`` where the
VP of a kill includes the unit's points when it is disabled, the 30-point bonus when it
would be reached and a take-out mission target.  Moves are scored by the change of a
position value: attack opportunities from the destination minus the expected damage the
opposing units can deal there (their reach, line of sight and cover), plus mission terms.
Reactions are taken when their expected gain beats their RP cost.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from analyzer.games.rapture.match.calls_nb import (
    p_prepare_values,
    p_value_at,
    p_walk,
)
from analyzer.games.rapture.match.context_nb import (
    BY_ADDRESS,
    INLINE,
    INNER,
    xG,
    xGF,
    xMF,
    xMI,
    xMIS,
    xOPT,
    xRNG,
    xSF,
    xSI,
    xTAB,
    xTER,
    xUI,
    xUS,
    xWI,
    xWS,
)
from analyzer.games.rapture.match.geometry_nb import (
    bases_within,
    circle_rect_gap,
    die,
    edge_distance,
    side_models,
    sight,
)
from analyzer.games.rapture.match.layout import (
    A_CC,
    A_CHARGE,
    A_END,
    A_EXTINGUISH,
    A_GETUP,
    A_MOVE,
    A_PICKUP,
    A_RANGED,
    A_RETREAT,
    BAND,
    BOARD,
    BONUS_POINTS,
    BONUS_VP,
    C_ACTOR,
    C_KIND,
    C_SCORE,
    C_TARGET,
    C_X,
    C_Y,
    CC_LIMIT,
    CONTACT,
    DEC_BUDGET,
    DEC_CLOSEST,
    DEC_ESCAPING,
    DEC_LEAD,
    DEC_POOL,
    DEC_R,
    DEC_RANGE,
    DEC_UNIT,
    G_ACTIVATIONS,
    G_BONUS0,
    G_CARRIER0,
    G_DIS0,
    G_DONE0,
    G_MIS0,
    G_MOVES,
    G_NT,
    G_POINTS0,
    G_ROUND,
    G_TARGET0,
    G_VP0,
    GF_AREAX0,
    GF_AREAY0,
    GF_OBJX0,
    GF_OBJY0,
    KEY_G,
    M_KIND,
    M_OBJ_SIZE,
    M_PICKUP_AP,
    M_R,
    M_SHAPE,
    M_VP,
    M_X,
    M_X1,
    M_Y,
    M_Y1,
    M_ZONE_DEPTH,
    MAX_BLOCK,
    MAX_CAND,
    MAX_DICE,
    MF_X,
    MF_Y,
    MI_ALIVE,
    MI_AP,
    MI_CC,
    MI_CS,
    MI_ENG,
    MI_MOVES,
    MI_RANGED,
    MI_RP,
    MI_WOUNDS,
    MIS_CARRY,
    MIS_HOLD,
    MIS_TAKEOUT,
    MK_ESCAPE,
    MK_FIRE,
    MK_SHELTER,
    MOVE_LIMIT,
    N_MARKERS,
    O_AI_CARRY0,
    O_AI_FAST0,
    O_AI_PRESS,
    O_AI_TEMPO,
    O_AI_THREAT,
    O_AI_WINCAP,
    O_AI_WINPROB0,
    O_AI_WOUNDKILL0,
    O_MAX_ROUNDS,
    O_MISSIONS,
    P_RANDOM,
    RANGED_LIMIT,
    RE_COUNTERBLOW,
    RE_DODGE,
    RE_NONE,
    REACH_COLS,
    REACH_SLOTS,
    REACTION_PENALTY,
    SF_R,
    SF_RANGE,
    SF_VPH,
    SI_HP,
    SI_MARKERS,
    SI_POINTS,
    SI_POOL,
    SI_SIDE,
    SI_UNIT,
    SI_WEAPON,
    SQUAD,
    ST_ATT,
    ST_CCS,
    ST_MMS,
    ST_ROF,
    ST_TEC,
    T_BUILDING,
    T_OBSTACLE,
    T_WATER,
    TCOVER,
    TK,
    TX0,
    TX1,
    TY0,
    TY1,
    UI_ACT,
    UI_ENG,
    UI_MK,
    UI_MPLOST,
    UI_STATUS,
    US_FIRST,
    US_MP,
    US_N,
    US_OPP_HI,
    US_OPP_LO,
    US_POINTS,
    US_SIDE,
    US_TYPE,
    WI_FOES,
    WI_MEMBERS,
    WI_TGT,
    WI_URGE,
    WS_DECIDE,
    WS_GEO,
    WS_REACH,
    WS_REACH_KEY,
    WS_REACH_N,
    WS_REACH_WX,
    WS_REACH_WY,
    WS_THREAT_REACH,
    WS_TVAL,
    WS_W,
    WS_WKEY,
)
from analyzer.games.rapture.match.state_nb import (
    block_for,
    can_activate,
    in_water,
    lead_model,
    move_budget,
    own_edge_y,
    plan_move,
    unit_points_alive,
)

#: Value of one wound as a fraction of the target's points per HP (kills are worth VP).
ALPHA = 0.5
#: Weight of attack opportunities from a position.
OPP_W = 0.8
#: Small cost of moving at all (prefer standing still when nothing changes).
MOVE_COST = 0.05
#: Value of one reaction point (reactions must beat it).
RP_COST = 0.4
#: ``candidates`` mode: score only what the greedy choice needs (moves pruned by a bound).
SCORE_BEST = 2
#: greedy_search=lazy: a second advance within 10 degrees of the first is not listed
PARALLEL_COS = 0.985
#: Margins of that bound: cm beyond the move budget a walk could end (none is known), and
#: VP for rounding.
WS_SLACK = 0.5
BOUND_EPS = 1e-6
#: ``greedy_win_prob``: spread (SD) of the final VP margin per VP still in play, at the
#: start of the game (it shrinks with the square root of the share of rounds left)
WIN_SPREAD = 0.15
#: ``greedy_win_prob``: the least share of its VP a gain keeps when the game looks decided
#: (so that a side far behind or far ahead still plays for VP)
WIN_FLOOR = 0.2
SQRT_2PI = math.sqrt(2.0 * math.pi)


# -------------------------------------------------------------- exact tables
@njit(**INLINE)
def tail(TAB, n, h, d, at, w):
    """P(wounds >= w): ``n`` dice hitting on ``h``+ against ``d`` block dice at ``at``+."""
    if w <= 0:
        return 1.0
    if n <= 0 or w > MAX_DICE:
        return 0.0
    n = min(n, MAX_DICE)
    d = min(max(d, 0), MAX_BLOCK)
    h = min(max(h, 1), 7)
    return TAB[n, h, d, 0 if at <= 4 else 1, 0, w]


@njit(**INLINE)
def capped_mean(TAB, n, h, d, at, red, cap):
    """E[min(max(W - red, 0), cap)]: expected wounds after a damage reduction, capped."""
    if n <= 0 or cap <= 0:
        return 0.0
    n = min(n, MAX_DICE)
    d = min(max(d, 0), MAX_BLOCK)
    h = min(max(h, 1), 7)
    b = 0 if at <= 4 else 1
    hi = min(cap + red, MAX_DICE + 1)
    lo = min(red, MAX_DICE + 1)
    return TAB[n, h, d, b, 1, hi] - TAB[n, h, d, b, 1, lo]


@njit(**INLINE)
def kill_value(X, t, side):
    """Victory points ``side`` gains at once when model ``t`` is removed."""
    return kill_value_cap(X, t, side, decisive_vp(X, side) if wincap(X) else 0.0)


@njit(**INLINE)
def wincap(X):
    """Greedy caps kill and wound values at the VP that can still decide (``O_AI_WINCAP``)."""
    return xOPT(X)[O_AI_WINCAP] == 1


@njit(**INLINE)
def kill_value_cap(X, t, side, cap):
    """:func:`kill_value` with ``cap`` = :func:`decisive_vp` for ``side`` known (read only
    with ``O_AI_WINCAP``), so a decision valuing many models computes it once."""
    SI = xSI(X)
    US = xUS(X)
    MIS = xMIS(X)
    MI = xMI(X)
    G = xG(X)
    u = SI[t, SI_UNIT]
    vp = np.float64(0.0)
    disables = np.bool_(True)
    if US[u, US_TYPE] == SQUAD:
        left = np.int64(0)
        f = US[u, US_FIRST]
        for m in range(f, f + US[u, US_N]):
            left += MI[m, MI_ALIVE]
        disables = left <= 1
        if disables:
            vp = float(US[u, US_POINTS])
    elif SI[t, SI_POINTS] > 0 and US[u, US_TYPE] == BAND and t != lead_model(X, u):
        vp = float(SI[t, SI_POINTS])
        disables = np.bool_(False)
    else:
        vp = float(unit_points_alive(X, u))
    if disables and pressing(X):
        vp += carrier_denial(X, u, side)
    if vp > 0.0:
        if G[G_BONUS0 + side] == 0 and G[G_DIS0 + side] < BONUS_POINTS <= G[G_DIS0 + side] + vp:
            vp += BONUS_VP
        k = G[G_MIS0 + side]
        if G[G_TARGET0 + side] == u and MIS[k, M_KIND] == MIS_TAKEOUT and G[G_DONE0 + side] == 0:
            vp += MIS[k, M_VP]
        if wincap(X):
            vp = min(vp, cap)
        if win_prob_on(X, side):
            vp = win_value(X, side, vp)
    return vp


@njit(**INLINE)
def pressing(X):
    """Greedy presses the attack (``O_AI_PRESS``, option ``greedy_press``)."""
    return xOPT(X)[O_AI_PRESS] == 1


@njit(**INNER)
def carrier_denial(X, u, side):
    """Half the VP of the opposing mission when unit u carries the opposing side's object
    ("Supply Run"): disabling it drops the object, which must then be picked up again
    (for free, so the mission is delayed, not lost)."""
    G = xG(X)
    o = 1 - side
    k = G[G_MIS0 + o]
    MIS = xMIS(X)
    if G[G_CARRIER0 + o] == u and G[G_DONE0 + o] == 0 and MIS[k, M_KIND] == MIS_CARRY:
        return 0.5 * MIS[k, M_VP]
    return 0.0


@njit(**INNER)
def decisive_vp(X, side):
    """The most victory points that can still change the result for ``side`` ("End of the
    Game": the side with more VP wins): what the opponent can still score at most (side's
    points not yet credited to it, its 30-point bonus, its mission's VP) minus side's lead,
    plus one.  VP beyond it win nothing more, so greedy values a kill (and a wound, see
    :func:`vph_of`) at most this much (``O_AI_WINCAP``)."""
    G = xG(X)
    o = 1 - side
    lead = G[G_VP0 + side] - G[G_VP0 + o]
    return max(float(vp_still_open(X, o) - lead + 1), 1.0)


@njit(**INLINE)
def vp_still_open(X, side):
    """The most VP ``side`` can still score: the opposing list points not yet credited to
    it, its 30-point bonus, its mission's VP ("Victory Points", "Missions")."""
    G = xG(X)
    o = 1 - side
    left = G[G_POINTS0 + o] - G[G_DIS0 + side]
    if G[G_BONUS0 + side] == 0:
        left += BONUS_VP
    if xOPT(X)[O_MISSIONS] == 1 and G[G_DONE0 + side] == 0:
        left += xMIS(X)[G[G_MIS0 + side], M_VP]
    return left


@njit(**INLINE)
def win_prob_on(X, side):
    """Greedy of ``side`` scores VP by the chance of winning (``O_AI_WINPROB0 + side``,
    option ``greedy_win_prob``)."""
    return xOPT(X)[O_AI_WINPROB0 + side] == 1


@njit(**INNER)
def win_outlook(X, side):
    """``side``'s VP lead and the spread (SD) of the final margin around it ("End of the
    Game": more VP wins): ``WIN_SPREAD`` x the VP still in play for both sides x the
    square root of the share of rounds left, this one included (the tempo: the same lead
    weighs more as the rounds and the VP still to score run out)."""
    G = xG(X)
    OPT = xOPT(X)
    lead = float(G[G_VP0 + side] - G[G_VP0 + 1 - side])
    open_vp = float(vp_still_open(X, side) + vp_still_open(X, 1 - side))
    rounds = max(OPT[O_MAX_ROUNDS], 1)
    left = min(max(rounds - G[G_ROUND] + 1, 1), rounds)
    return lead, max(WIN_SPREAD * open_vp * math.sqrt(left / rounds), 1.0)


@njit(**INLINE)
def _phi(z):
    return 0.5 * (1.0 + math.erf(z * 0.7071067811865476))


@njit(**INNER)
def win_value(X, side, vp):
    """``vp`` gained now by ``side``, scored by the chance of winning it adds under a
    normal approximation of the final margin (:func:`win_outlook`), scaled so that a small
    gain at an even score counts its VP (sd x sqrt(2 pi) x the gain in P(win)); at least
    ``WIN_FLOOR`` x ``vp``."""
    lead, sd = win_outlook(X, side)
    v = sd * SQRT_2PI * (_phi((lead + vp) / sd) - _phi(lead / sd))
    return max(v, WIN_FLOOR * vp)


@njit(**INNER)
def win_slope(X, side):
    """The value of one more VP for ``side`` under :func:`win_value` (the density of the
    final margin at an even result, relative to its peak), at least ``WIN_FLOOR``."""
    lead, sd = win_outlook(X, side)
    z = lead / sd
    return max(math.exp(-0.5 * z * z), WIN_FLOOR)


@njit(**INLINE)
def vph_of(X, t, cap):
    """Greedy's value of one wound on model t (its points per HP), scaled down when its
    unit is worth more than the ``cap`` VP that can still decide the game."""
    vph = xSF(X)[t, SF_VPH]
    if xOPT(X)[O_AI_WINCAP] == 1:
        pts = xUS(X)[xSI(X)[t, SI_UNIT], US_POINTS]
        if pts > cap:
            vph *= cap / pts
    side = 1 - xSI(X)[t, SI_SIDE]
    if win_prob_on(X, side):
        vph *= win_slope(X, side)
    return vph


@njit(**INLINE)
def last_round(X):
    """The last round is being played and the tempo terms are on (``O_AI_TEMPO``): no
    attack of a later activation counts, and units that have acted threaten nothing."""
    return xOPT(X)[O_AI_TEMPO] == 1 and xG(X)[G_ROUND] >= xOPT(X)[O_MAX_ROUNDS]


@njit(**INLINE)
def threat_weight(X):
    """Weight of the damage opposing units can deal at a position (``O_AI_THREAT``, %)."""
    return 0.01 * xOPT(X)[O_AI_THREAT]


@njit(**INNER)
def attack_value(X, n, h, t, ranged, cover, side):
    """Expected value (VP units) and kill chance of ``n`` dice hitting on ``h``+ at model t."""
    if n <= 0 or xMI(X)[t, MI_ALIVE] == 0:
        return 0.0, 0.0
    cap = decisive_vp(X, side)
    vph = vph_of(X, t, cap)
    return attack_value_kv(X, n, h, t, ranged, cover, kill_value_cap(X, t, side, cap), vph)


@njit(**INLINE)
def attack_value_kv(X, n, h, t, ranged, cover, kv, vph):
    """:func:`attack_value` with the kill's value ``kv`` (``kill_value``) and the value of
    a wound ``vph`` known."""
    SI = xSI(X)
    TAB = xTAB(X)
    MI = xMI(X)
    if n <= 0 or MI[t, MI_ALIVE] == 0:
        return 0.0, 0.0
    dfn, at, red = block_for(X, t, ranged, cover)
    left = SI[t, SI_HP] - MI[t, MI_WOUNDS]
    wk = wound_kill(X, 1 - SI[t, SI_SIDE])
    return _value_on(TAB, n, h, dfn, at, red, left, vph, kv, wk)


@njit(**INLINE)
def wound_kill(X, side):
    """Greedy of ``side`` values wounds through kill probability (``O_AI_WOUNDKILL0 +
    side``, option ``greedy_wound_kill``)."""
    return xOPT(X)[O_AI_WOUNDKILL0 + side] == 1


@njit(**INLINE)
def _value_on(TAB, n, h, dfn, at, red, left, vph, kv, wk):
    """:func:`attack_value_kv` on a model with ``left`` HP, its block values known: half
    the value of the wounds (``ALPHA``) plus the kill chance times the kill's VP.  The
    wounds are worth their points per HP ``vph`` each, or with ``wk`` (option
    ``greedy_wound_kill``) through the kill chance they add (:func:`_kill_gain`)."""
    pk = tail(TAB, n, h, dfn, at, left + red)
    if not wk:
        return ALPHA * vph * capped_mean(TAB, n, h, dfn, at, red, left) + pk * kv, pk
    return ALPHA * vph * left * _kill_gain(TAB, n, h, dfn, at, red, left) + pk * kv, pk


@njit(**INNER)
def _kill_gain(TAB, n, h, dfn, at, red, left):
    """``greedy_wound_kill``: how much an attack raises the chance that the model (``left``
    HP) is killed by the attacks like it that it takes on average to kill it: E[p(left -
    W)] - p(left), p(r) the chance that those further attacks deal r wounds (p(0) = 1).
    The further attacks are pooled into one roll (their dice, block dice and damage
    reductions added up; fewer attacks where the pool would exceed the exact tables).
    With a linear p(r) = 1 - r/left this is the expected wounds per HP left, the linear
    reading."""
    if n <= 0 or left <= 0:
        return 0.0
    mean = capped_mean(TAB, n, h, dfn, at, red, MAX_DICE)
    if mean < 1e-9:
        return 0.0
    more = max(np.int64(math.ceil(left / mean)) - 1, 1)
    more = min(more, MAX_DICE // n)  # within the tables: a shorter horizon beyond them
    if dfn > 0:
        more = max(min(more, MAX_BLOCK // dfn), 1)
    nr = min(n * more, MAX_DICE)
    dr = min(dfn * more, MAX_BLOCK)
    rr = red * more
    gain = tail(TAB, n, h, dfn, at, left + red)  # the kill: p(0) = 1
    above = np.float64(1.0)  # P(W - red >= w)
    for w in range(left):
        nxt = tail(TAB, n, h, dfn, at, w + 1 + red)
        gain += (above - nxt) * tail(TAB, nr, h, dr, at, left - w + rr)
        above = nxt
    return gain - tail(TAB, nr, h, dr, at, left + rr)


# ---------------------------------------------------------------- helpers
@njit(**INNER)
def _add(C, n, kind, actor, target, x, y, score):
    if n >= MAX_CAND:
        return n
    C[n, C_KIND] = kind
    C[n, C_ACTOR] = actor
    C[n, C_TARGET] = target
    C[n, C_X] = x
    C[n, C_Y] = y
    C[n, C_SCORE] = score
    return n + 1


@njit(**INNER)
def actor_blocked(X, m):
    """ "Reaction: Seek Shelter": a unit with a Shelter Marker may only Get Up (the marker
    sits on the leader of a band; apprentices act freely)."""
    SI = xSI(X)
    UI = xUI(X)
    return SI[m, SI_MARKERS] == 1 and UI[SI[m, SI_UNIT], UI_MK + MK_SHELTER] > 0


@njit(**INNER)
def squad_members(X, u, out):
    """Living models of unit ``u`` into ``out``; returns how many."""
    US = xUS(X)
    MI = xMI(X)
    k = np.int64(0)
    f = US[u, US_FIRST]
    for m in range(f, f + US[u, US_N]):
        if MI[m, MI_ALIVE] == 1:
            out[k] = m
            k += 1
    return k


@njit(**INLINE)
def sight_at(X, a, b, ax, ay, bx, by, nlines):
    """``geometry_nb.sight`` in this match: model ``a`` standing at (ax, ay) to model ``b``
    at (bx, by); -1 no LoS, 0 visible, 1 visible in cover."""
    return sight(X, a, b, ax, ay, bx, by, nlines)


@njit(**INLINE)
def can_shoot(X, m, t, x, y):
    """Model m standing at (x, y) may shoot model t: weapon, range, LoS, neither in close
    combat, not swimming ("Action: Ranged Attack", "Bodies of Water").  Returns the cover
    (0/1) or -1."""
    SI = xSI(X)
    SF = xSF(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    if SI[m, SI_WEAPON] == 0 or MI[t, MI_ALIVE] == 0:
        return -1
    if UI[SI[t, SI_UNIT], UI_ENG] == 1 or UI[SI[t, SI_UNIT], UI_STATUS] != 0:
        return -1
    tx = MF[t, MF_X]
    ty = MF[t, MF_Y]
    if edge_distance(x, y, SF[m, SF_R], tx, ty, SF[t, SF_R]) > SF[m, SF_RANGE]:
        return -1
    if in_water(X, x, y):
        return -1
    return sight_at(X, m, t, x, y, tx, ty, np.int64(3))


# -------------------------------------------------------------- positions
@njit(**INNER)
def closest_to_objective(X, u):
    """Unit u is the own unit closest to its mission's area (hold) or to the object lying on
    the ground (carry): only that unit is drawn to it.  The same for every position scored in
    one decision, so :func:`prepare_values` keeps it in ``WS_DECIDE``."""
    SF = xSF(X)
    US = xUS(X)
    MIS = xMIS(X)
    MF = xMF(X)
    UI = xUI(X)
    G = xG(X)
    GF = xGF(X)
    side = US[u, US_SIDE]
    lead = lead_model(X, u)
    if lead < 0:
        return False
    kind = MIS[G[G_MIS0 + side], M_KIND]
    press = pressing(X)
    if kind == MIS_HOLD:
        mine = min(area_gap(X, side, MF[lead, MF_X], MF[lead, MF_Y], SF[lead, SF_R]), 1e9)
        for v in range(US.shape[0]):
            if v == u or US[v, US_SIDE] != side or UI[v, UI_STATUS] != 0:
                continue
            if press and _tied_up(X, v):
                continue
            lv = lead_model(X, v)
            if lv >= 0 and area_gap(X, side, MF[lv, MF_X], MF[lv, MF_Y], SF[lv, SF_R]) < mine:
                return False
        return True
    if kind == MIS_CARRY:
        ox = GF[GF_OBJX0 + 2 * side]
        oy = GF[GF_OBJY0 + 2 * side]
        dme = math.sqrt((MF[lead, MF_X] - ox) ** 2 + (MF[lead, MF_Y] - oy) ** 2)
        for v in range(US.shape[0]):
            if v == u or US[v, US_SIDE] != side or UI[v, UI_STATUS] != 0:
                continue
            if press and _tied_up(X, v):
                continue
            lv = lead_model(X, v)
            if lv >= 0 and math.sqrt((MF[lv, MF_X] - ox) ** 2 + (MF[lv, MF_Y] - oy) ** 2) < dme:
                return False
        return True
    return False


@njit(**INLINE)
def paced_carry(X, side):
    """Greedy of ``side`` paces its carry mission (``O_AI_CARRY0 + side``, option
    ``greedy_carry``, in %; 0: the fixed pulls before it)."""
    return xOPT(X)[O_AI_CARRY0 + side] > 0


@njit(**INLINE)
def home_gap(X, side, k, y, r):
    """cm a model of radius r at height y still has to move to touch the side's delivery
    zone (the first ``M_ZONE_DEPTH`` cm from its own edge) for mission k."""
    return max(abs(y - own_edge_y(X, side)) - r - xMIS(X)[k, M_ZONE_DEPTH], 0.0)


@njit(**INLINE)
def carry_left(X, side, k, x, y, r, carrying):
    """The carry trip still to make from (x, y): home when ``carrying``, else to B2B with
    the object and from there home."""
    if carrying:
        return home_gap(X, side, k, y, r)
    ox = xGF(X)[GF_OBJX0 + 2 * side]
    oy = xGF(X)[GF_OBJY0 + 2 * side]
    fetch = math.sqrt((x - ox) ** 2 + (y - oy) ** 2) - r - 0.5 * xMIS(X)[k, M_OBJ_SIZE]
    return max(fetch, 0.0) + home_gap(X, side, k, oy, r)


@njit(**INLINE)
def carry_slope(X, side, k, r):
    """VP per cm of the carry trip: the ``greedy_carry`` share of the mission's VP over the
    whole trip from the zone to the object and back."""
    oy = xGF(X)[GF_OBJY0 + 2 * side]
    share = 0.01 * xOPT(X)[O_AI_CARRY0 + side]
    return share * xMIS(X)[k, M_VP] / max(2.0 * home_gap(X, side, k, oy, r), 1.0)


@njit(**INNER)
def carry_reach(X, u, carrying):
    """cm unit u can still move in this game, as of now: the moves left in this round and
    ``MOVE_LIMIT`` in each later round ("Round Limits"), one move fewer for the pick-up
    (its AP) when not ``carrying``; a trip longer than this cannot be finished."""
    lead = lead_model(X, u)
    pl = xSI(X)[lead, SI_POOL]
    later = max(xOPT(X)[O_MAX_ROUNDS] - xG(X)[G_ROUND], 0)
    moves = MOVE_LIMIT - xMI(X)[pl, MI_MOVES] + MOVE_LIMIT * later - (0 if carrying else 1)
    return max(move_budget(X, lead, np.bool_(False)), 1.0) * max(moves, 0)


@njit(**INLINE)
def _tied_up(X, v):
    """Unit v is tied in close combat or escaping: it will not go for an objective soon."""
    UI = xUI(X)
    return UI[v, UI_ENG] == 1 or UI[v, UI_MK + MK_ESCAPE] > 0


@njit(**INNER)
def objective_at(X, u, x, y, slack):
    """Mission terms of a position for unit u (VP units); after :func:`prepare_values` for u
    (its constants: whether u is the unit closest to the objective, escaping allies).

    With ``slack`` > 0: an upper bound of the terms at every point within ``slack`` cm of
    (x, y) (each distance is 1-Lipschitz in the position and counted ``slack`` shorter;
    ``slack`` 0 gives the terms themselves, bit for bit)."""
    SF = xSF(X)
    US = xUS(X)
    MIS = xMIS(X)
    MF = xMF(X)
    UI = xUI(X)
    G = xG(X)
    GF = xGF(X)
    OPT = xOPT(X)
    WS = xWS(X)
    if OPT[O_MISSIONS] == 0:
        return 0.0
    side = US[u, US_SIDE]
    lead = lead_model(X, u)
    if lead < 0:
        return 0.0
    r = SF[lead, SF_R]
    k = G[G_MIS0 + side]
    kind = MIS[k, M_KIND]
    value = np.float64(0.0)
    closest = WS[WS_DECIDE + DEC_CLOSEST] == 1.0
    if kind == MIS_HOLD:
        # only the own unit closest to the area cares
        if closest:
            gap = area_gap(X, side, x, y, r) - slack
            if gap <= CONTACT:
                value += 0.5 * MIS[k, M_VP]
            else:
                value -= 0.15 * gap
    elif kind == MIS_CARRY and G[G_DONE0 + side] == 0:
        carrier = G[G_CARRIER0 + side]
        if paced_carry(X, side) and (carrier == u or (carrier < 0 and closest)):
            left = max(carry_left(X, side, k, x, y, r, carrier == u) - slack, 0.0)
            value -= carry_slope(X, side, k, r) * min(left, carry_reach(X, u, carrier == u))
        elif G[G_CARRIER0 + side] == u:
            edge = own_edge_y(X, side)
            dist = max(abs(y - edge) - r - MIS[k, M_ZONE_DEPTH] - slack, 0.0)
            value -= 0.3 * dist
        elif G[G_CARRIER0 + side] < 0 and closest:
            ox = GF[GF_OBJX0 + 2 * side]
            oy = GF[GF_OBJY0 + 2 * side]
            value -= 0.2 * max(math.sqrt((x - ox) ** 2 + (y - oy) ** 2) - r - slack, 0.0)
    # rescue escaping allies (prepare_values counted them)
    if WS[WS_DECIDE + DEC_ESCAPING] == 0.0:
        return value
    for v in range(US.shape[0]):
        if v == u or US[v, US_SIDE] != side or UI[v, UI_STATUS] != 0:
            continue
        if UI[v, UI_MK + MK_ESCAPE] == 0:
            continue
        lv = lead_model(X, v)
        if lv < 0:
            continue
        d = edge_distance(x, y, r, MF[lv, MF_X], MF[lv, MF_Y], SF[lv, SF_R]) - slack
        value += 0.5 * unit_points_alive(X, v) if d <= CONTACT else -0.05 * d
    return value


@njit(**INLINE)
def area_gap(X, side, x, y, r):
    """Distance from a base at (x, y) to ``side``'s mission area (<= CONTACT: touching)."""
    MIS = xMIS(X)
    GF = xGF(X)
    G = xG(X)
    k = G[G_MIS0 + side]
    if MIS[k, M_SHAPE] == 0:  # circle: absolute centre in GF, radius in the mission row
        cx = GF[GF_AREAX0 + 2 * side]
        cy = GF[GF_AREAY0 + 2 * side]
        return math.sqrt((x - cx) ** 2 + (y - cy) ** 2) - r - MIS[k, M_R]
    x0, y0, x1, y1 = area_rect(X, side)
    return circle_rect_gap(x, y, r, x0, y0, x1, y1)


@njit(**INNER)
def area_rect(X, side):
    """Absolute rectangle of a rectangular mission area (owner's frame mirrored)."""
    MIS = xMIS(X)
    G = xG(X)
    k = G[G_MIS0 + side]
    ax0 = MIS[k, M_X]
    ay0 = MIS[k, M_Y]
    ax1 = MIS[k, M_X1]
    ay1 = MIS[k, M_Y1]
    if own_edge_y(X, side) == 0.0:
        return ax0, ay0, ax1, ay1
    return BOARD - ax1, BOARD - ay1, BOARD - ax0, BOARD - ay0


# W: per-decision values, one row per model (see prepare_values)
W_CC, W_RNG, W_RNG_COVER, W_THR_RNG, W_THR_CC, W_THR_RNG_COVER, W_REACH = 0, 1, 2, 3, 4, 5, 6
W_COLS = 7
#: Discount of attacks one activation away (``GAMMA``) and its decay with distance.
GAMMA = 0.75
DECAY = 1.0 / GAMMA - 1.0
#: Weight of attacks possible in a later activation.
FUT_W = 1.0
#: Extra value of a target at contact over one a whole activation away (``greedy_press``).
PRESS_SLOPE = 0.2


@njit(**INNER)
def _gpow(activations, press):
    """Discount of an attack ``activations`` activations away: 1 / (1 + DECAY * a), at least
    one activation (continuous, so every step towards a target counts).  With ``press``
    (:func:`pressing`) a target within one activation is worth up to ``PRESS_SLOPE`` more
    the closer it is, so that closing in still counts there."""
    if press and activations < 1.0:
        return GAMMA * (1.0 + PRESS_SLOPE * (1.0 - activations))
    return 1.0 / (1.0 + DECAY * max(activations, 1.0))


@njit(**INLINE)
def list_foes(X, side, at):
    """The opposing models in play for ``side`` (living, their unit on the field), in index
    order, into ``WI[at + 1 ...]`` with their number in ``WI[at]``; returns that number."""
    SI = xSI(X)
    MI = xMI(X)
    UI = xUI(X)
    WI = xWI(X)
    n = np.int64(0)
    lo, hi = side_models(X, 1 - side)
    for t in range(lo, hi):
        if MI[t, MI_ALIVE] == 1 and UI[SI[t, SI_UNIT], UI_STATUS] == 0:
            n += 1
            WI[at + n] = t
    WI[at] = n
    return n


@njit(**INNER)
def _values_key(X, u):
    """Whether the rows of ``W`` still hold for unit ``u``'s decision: the same unit and
    activation, and the same wounds and living models, unit statuses, activation flags,
    markers and VP terms as when they were computed (``WS_WKEY``: the values themselves,
    compared one by one, so a change is never missed); then stores the current ones."""
    MI = xMI(X)
    UI = xUI(X)
    G = xG(X)
    WS = xWS(X)
    nm, nu = MI.shape[0], UI.shape[0]
    if WS_WKEY + 2 + nm + nu * (1 + N_MARKERS) + len(KEY_G) > WS_GEO:
        WS[WS_WKEY] = -1.0  # no room for the snapshot: never keep the rows
        return False
    if WS[WS_WKEY] == u and WS[WS_WKEY + 1] == G[G_ACTIVATIONS]:
        # compare only, up to the first difference (nothing to store when all are the same)
        same = True
        k = WS_WKEY + 2
        for m in range(nm):
            if WS[k] != 2 * MI[m, MI_WOUNDS] + MI[m, MI_ALIVE]:  # alive is 0 or 1
                same = False
                break
            k += 1
        if same:
            for w in range(nu):
                if WS[k] != 2 * UI[w, UI_STATUS] + UI[w, UI_ACT]:  # activated is 0 or 1
                    same = False
                    break
                k += 1
                for j in range(N_MARKERS):
                    if WS[k] != UI[w, UI_MK + j]:
                        same = False
                        break
                    k += 1
                if not same:
                    break
        if same:
            for j in KEY_G:
                if WS[k] != G[j]:
                    same = False
                    break
                k += 1
        if same:
            return True
    WS[WS_WKEY] = u
    WS[WS_WKEY + 1] = G[G_ACTIVATIONS]
    k = WS_WKEY + 2
    for m in range(nm):
        WS[k] = 2 * MI[m, MI_WOUNDS] + MI[m, MI_ALIVE]
        k += 1
    for w in range(nu):
        WS[k] = 2 * UI[w, UI_STATUS] + UI[w, UI_ACT]
        k += 1
        for j in range(N_MARKERS):
            WS[k] = UI[w, UI_MK + j]
            k += 1
    for j in KEY_G:
        WS[k] = G[j]
        k += 1
    return False


@njit(**INNER)
def prepare_values(X, u, W):
    """Per opposing model: the value of unit u's close combat / ranged attacks on it (with and
    without cover) and the value of its attacks on u's lead model (threat).

    The rows are kept from the unit's previous decision in the same activation when no
    wound, casualty, marker, status or VP term changed since (:func:`_values_key`: the
    rows depend on nothing else that an action changes; the decision's constants are
    computed again, the unit may have moved)."""
    SI = xSI(X)
    US = xUS(X)
    MI = xMI(X)
    UI = xUI(X)
    SF = xSF(X)
    side = US[u, US_SIDE]
    lead = lead_model(X, u)
    WS = xWS(X)
    WS[WS_DECIDE + DEC_UNIT] = u + 1
    WS[WS_DECIDE + DEC_CLOSEST] = 1.0 if closest_to_objective(X, u) else 0.0
    WS[WS_DECIDE + DEC_LEAD] = lead
    WS[WS_DECIDE + DEC_R] = SF[lead, SF_R]
    WS[WS_DECIDE + DEC_POOL] = SI[lead, SI_POOL]
    WS[WS_DECIDE + DEC_RANGE] = SF[lead, SF_RANGE] if _unit_has_weapon(X, u) else -1.0
    WS[WS_DECIDE + DEC_BUDGET] = max(move_budget(X, lead, np.bool_(False)), 1.0)
    escaping = np.int64(0)
    for v in range(US.shape[0]):
        if v != u and US[v, US_SIDE] == side and UI[v, UI_STATUS] == 0:
            escaping += UI[v, UI_MK + MK_ESCAPE] > 0
    WS[WS_DECIDE + DEC_ESCAPING] = escaping
    # only the rows of the opposing models in play are read (value_at, value_bound and the
    # heading values loop over WI_FOES): each is written whole below
    nfoes = list_foes(X, side, WI_FOES)
    if _values_key(X, u):
        return  # the rows of this unit's previous decision still hold
    att = np.int64(0)
    rof = np.int64(0)
    f = US[u, US_FIRST]
    for m in range(f, f + US[u, US_N]):
        if MI[m, MI_ALIVE] == 1:
            att += MI[m, MI_CS + ST_ATT]
            if SI[m, SI_WEAPON] == 1:
                rof += MI[m, MI_CS + ST_ROF]
    cap_l = decisive_vp(X, 1 - side)
    kv_l = kill_value_cap(X, lead, 1 - side, cap_l)  # the value of each threat's kill
    # the lead's block values against each kind of threat (the same for every threat)
    TAB = xTAB(X)
    hp_l = SI[lead, SI_HP] - MI[lead, MI_WOUNDS]
    vph_l = vph_of(X, lead, cap_l)
    cap = decisive_vp(X, side)
    acted_fac = 0.0 if last_round(X) else 0.5
    d_cc, at_cc, red_cc = block_for(X, lead, np.bool_(False), np.int64(0))
    d_rn, at_rn, red_rn = block_for(X, lead, np.bool_(True), np.int64(0))
    d_rc, at_rc, red_rc = block_for(X, lead, np.bool_(True), np.int64(1))
    h_cc = MI[lead, MI_CS + ST_CCS]
    h_rng = MI[lead, MI_CS + ST_MMS]
    wk = wound_kill(X, side)
    wk_l = wound_kill(X, 1 - side)
    # each row is computed into locals and stored at the end (numba emits no alias
    # information: a store into W would make every value read before it be read again)
    for t in xWI(X)[WI_FOES + 1 : WI_FOES + 1 + nfoes]:
        kv = kill_value_cap(X, t, side, cap)
        hp_t = SI[t, SI_HP] - MI[t, MI_WOUNDS]
        vph_t = vph_of(X, t, cap)
        w_cc = np.float64(0.0)
        w_rng = np.float64(0.0)
        w_rng_cover = np.float64(0.0)
        if att > 0:
            dfn, at, red = block_for(X, t, np.bool_(False), np.int64(0))
            w_cc, _ = _value_on(TAB, att, h_cc, dfn, at, red, hp_t, vph_t, kv, wk)
        if rof > 0:
            dfn, at, red = block_for(X, t, np.bool_(True), np.int64(0))
            w_rng, _ = _value_on(TAB, rof, h_rng, dfn, at, red, hp_t, vph_t, kv, wk)
            dfn, at, red = block_for(X, t, np.bool_(True), np.int64(1))
            w_rng_cover, _ = _value_on(TAB, rof, h_rng, dfn, at, red, hp_t, vph_t, kv, wk)
        W[t, W_CC] = w_cc
        W[t, W_RNG] = w_rng
        W[t, W_RNG_COVER] = w_rng_cover
        if actor_blocked(X, t) or UI[SI[t, SI_UNIT], UI_MK + MK_ESCAPE] > 0:
            W[t, W_REACH] = 0.0
            W[t, W_THR_CC] = 0.0
            W[t, W_THR_RNG] = 0.0
            W[t, W_THR_RNG_COVER] = 0.0
            continue
        fac = acted_fac if UI[SI[t, SI_UNIT], UI_ACT] == 1 else 1.0
        reach = move_budget(X, t, np.bool_(False))
        att_t = MI[t, MI_CS + ST_ATT]
        v = np.float64(0.0)
        if att_t > 0:
            v, _ = _value_on(
                TAB, att_t, MI[t, MI_CS + ST_CCS], d_cc, at_cc, red_cc, hp_l, vph_l, kv_l, wk_l
            )
        thr_cc = v * fac
        thr_rng = np.float64(0.0)
        thr_rng_cover = np.float64(0.0)
        if SI[t, SI_WEAPON] == 1:
            rof_t = MI[t, MI_CS + ST_ROF]
            mms_t = MI[t, MI_CS + ST_MMS]
            if rof_t > 0:
                v, _ = _value_on(TAB, rof_t, mms_t, d_rn, at_rn, red_rn, hp_l, vph_l, kv_l, wk_l)
                thr_rng = v * fac
                v, _ = _value_on(TAB, rof_t, mms_t, d_rc, at_rc, red_rc, hp_l, vph_l, kv_l, wk_l)
                thr_rng_cover = v * fac
        W[t, W_REACH] = reach
        W[t, W_THR_CC] = thr_cc
        W[t, W_THR_RNG] = thr_rng
        W[t, W_THR_RNG_COVER] = thr_rng_cover


@njit(**INLINE)
def _decision(X, ap_left):
    """The decision's constants :func:`prepare_values` left in ``WS_DECIDE`` (the lead
    model, its base radius, the unit's weapon range and the move budget), and the close
    combat and ranged attacks ``ap_left`` AP still allow this round ("Round Limits")."""
    D = xWS(X)[WS_DECIDE : WS_DECIDE + DEC_ESCAPING]
    pl = np.int64(D[DEC_POOL])
    cc_left = min(ap_left, CC_LIMIT - xMI(X)[pl, MI_CC])
    rng_left = min(ap_left, RANGED_LIMIT - xMI(X)[pl, MI_RANGED])
    return np.int64(D[DEC_LEAD]), D[DEC_R], D[DEC_RANGE], D[DEC_BUDGET], cc_left, rng_left


@njit(**INNER)
def value_at(X, u, W, x, y, ap_left, moves_left, contact):
    """Greedy value of unit u's lead model standing at (x, y) with ``ap_left`` AP.

    ``OPP_W`` x the best attack still possible in this activation (ranged with line of
    sight and cover from here; close combat with ``contact`` or a charge within one move)
    + ``FUT_W`` x the best attack discounted by ``GAMMA`` per further activation needed to
    reach it (none in the last round, :func:`last_round`) + mission terms - the threat
    weight x the opposing attacks that can reach the spot (shooters: range plus two moves,
    with line of sight and cover when already in range; fighters: two moves).  A shooter
    standing in water may not shoot ("Bodies of Water"): from there its shots count only
    as attacks of a later activation.  ``W``, the decision's constants and its opposing
    models are those :func:`prepare_values` left for unit u, with no model moved or hurt
    since.
    """
    SI = xSI(X)
    SF = xSF(X)
    MF = xMF(X)
    UI = xUI(X)
    WI = xWI(X)
    lead, r, rng_range, budget, cc_left, rng_left = _decision(X, ap_left)
    imm = 0.0
    fut = 0.0
    threat = 0.0
    press = pressing(X)
    dry = rng_range >= 0.0 and not in_water(X, x, y)
    # line of sight is checked for the two best targets in range and the three most
    # dangerous shooters in range only; other shooters count at 3/4 (cover unknown)
    s1 = np.int64(-1)
    s2 = np.int64(-1)
    h1 = np.int64(-1)
    h2 = np.int64(-1)
    h3 = np.int64(-1)
    for t in WI[WI_FOES + 1 : WI_FOES + 1 + WI[WI_FOES]]:
        tu = SI[t, SI_UNIT]
        d = edge_distance(x, y, r, MF[t, MF_X], MF[t, MF_Y], SF[t, SF_R])
        # own attacks
        ev = W[t, W_CC]
        if ev > 0.0:
            if t == contact:
                imm = max(imm, ev * max(cc_left, 0))
            elif d <= budget and moves_left >= 1 and ap_left >= 2:
                imm = max(imm, 0.7 * ev * min(cc_left, ap_left - 1))
            else:
                fut = max(fut, ev * _gpow(d / (2.0 * budget), press))
        if rng_range >= 0.0 and W[t, W_RNG] > 0.0 and UI[tu, UI_ENG] == 0:
            if d <= rng_range and rng_left > 0 and contact < 0 and dry:
                fut = max(fut, W[t, W_RNG] * GAMMA)
                if s1 < 0 or W[t, W_RNG] > W[s1, W_RNG]:
                    s2 = s1
                    s1 = t
                elif s2 < 0 or W[t, W_RNG] > W[s2, W_RNG]:
                    s2 = t
            else:
                fut = max(fut, W[t, W_RNG] * _gpow(max(d - rng_range, 0.0) / (2.0 * budget), press))
        # their attacks (one move, then the attack)
        reach = W[t, W_REACH]
        v = W[t, W_THR_RNG]
        if v > 0.0 and d <= SF[t, SF_RANGE] + reach:
            if d <= SF[t, SF_RANGE]:
                threat += 0.75 * v
                if h1 < 0 or v > W[h1, W_THR_RNG]:
                    h3 = h2
                    h2 = h1
                    h1 = t
                elif h2 < 0 or v > W[h2, W_THR_RNG]:
                    h3 = h2
                    h2 = t
                elif h3 < 0 or v > W[h3, W_THR_RNG]:
                    h3 = t
            else:
                threat += 0.5 * v
        elif d <= reach:
            threat += W[t, W_THR_CC]
    for k in range(2):
        t = s1 if k == 0 else s2
        if t < 0:
            continue
        c = sight_at(X, lead, t, x, y, MF[t, MF_X], MF[t, MF_Y], np.int64(1))
        if c >= 0:
            imm = max(imm, (W[t, W_RNG_COVER] if c == 1 else W[t, W_RNG]) * rng_left)
            break
    for k in range(3):
        t = h1 if k == 0 else (h2 if k == 1 else h3)
        if t < 0:
            continue
        c = sight_at(X, t, lead, MF[t, MF_X], MF[t, MF_Y], x, y, np.int64(1))
        threat -= 0.75 * W[t, W_THR_RNG]
        if c == 0:
            threat += W[t, W_THR_RNG]
        elif c == 1:
            threat += W[t, W_THR_RNG_COVER]
    if last_round(X):
        fut = 0.0
    total = OPP_W * imm + FUT_W * fut + objective_at(X, u, x, y, 0.0) - threat_weight(X) * threat
    return total, imm, threat


@njit(**INNER)
def value_bound(X, u, W, x, y, ap_left, moves_left, slack):
    """Upper bounds of :func:`value_at` with ``ap_left`` AP and ``moves_left`` moves at
    every point within ``slack`` cm of (x, y): for a move (no ``contact``) and for a charge
    (any ``contact``).  Each attack counts at its best where some point of the disc allows
    it (no line of sight or cover needed), the mission terms at their bound
    (:func:`objective_at`), and only the threat that reaches the whole disc: fighters whose
    reach covers it, shooters out of range everywhere but within range plus reach (every
    other threat term is never negative).  A move whose bound cannot beat a candidate
    already listed need not be walked."""
    SI = xSI(X)
    SF = xSF(X)
    MF = xMF(X)
    UI = xUI(X)
    _, r, rng_range, budget, cc_left, rng_left = _decision(X, ap_left)
    cc_left = max(cc_left, 0)
    rng_left = max(rng_left, 0)
    closing = moves_left >= 1 and ap_left >= 2  # a charge next, then an attack
    imm = 0.0  # a move's
    imm_cc = 0.0  # a charge's close combat attack on the model it touches
    fut = 0.0
    threat = 0.0
    press = pressing(X)
    foes = xWI(X)[WI_FOES + 1 : WI_FOES + 1 + xWI(X)[WI_FOES]]  # from prepare_values
    for t in foes:
        d0 = edge_distance(x, y, r, MF[t, MF_X], MF[t, MF_Y], SF[t, SF_R])
        d = d0 - slack
        far = d0 + slack
        ev = W[t, W_CC]
        if ev > 0.0:
            imm_cc = max(imm_cc, ev * cc_left)
            if closing and d <= budget:
                imm = max(imm, 0.7 * ev * min(cc_left, ap_left - 1))
            fut = max(fut, ev * _gpow(d / (2.0 * budget), press))
        ev = W[t, W_RNG]
        if rng_range >= 0.0 and ev > 0.0 and UI[SI[t, SI_UNIT], UI_ENG] == 0:
            if d <= rng_range and rng_left > 0:
                imm = max(imm, max(ev, W[t, W_RNG_COVER]) * rng_left)
            fut = max(fut, ev * max(GAMMA, _gpow(max(d - rng_range, 0.0) / (2.0 * budget), press)))
        reach = W[t, W_REACH]
        v = W[t, W_THR_RNG]
        if v > 0.0:
            if d > SF[t, SF_RANGE] and far <= SF[t, SF_RANGE] + reach:
                threat += 0.5 * v
        elif far <= reach:
            threat += W[t, W_THR_CC]
    if last_round(X):
        fut = 0.0
    rest = FUT_W * fut + objective_at(X, u, x, y, slack) - threat_weight(X) * threat
    return OPP_W * imm + rest, OPP_W * max(imm, imm_cc) + rest


@njit(**INLINE)
def _beaten(C, n, floor):
    """Some candidate listed in ``C[:n]`` scores at least ``floor``."""
    for i in range(n):  # noqa: SIM110 (no generators in numba kernels)
        if C[i, C_SCORE] >= floor:
            return True
    return False


@njit(**INNER)
def _unit_has_weapon(X, u):
    SI = xSI(X)
    US = xUS(X)
    MI = xMI(X)
    f = US[u, US_FIRST]
    for m in range(f, f + US[u, US_N]):  # noqa: SIM110 (no generators in numba kernels)
        if MI[m, MI_ALIVE] == 1 and SI[m, SI_WEAPON] == 1:
            return True
    return False


@njit(**INNER)
def reach_point(X, lead, gx, gy, charge):
    """Where the lead model gets moving towards (gx, gy): the planned path walked without
    dice (``state_nb.walk`` in dry mode: other models, terrain costs), and the path length.
    With ``charge`` also the opposing model it would touch (-1: none).

    The answer depends only on where the living models stand, the model, the goal, the
    mode and the budget: the answers are kept while no model moves (``G_MOVES``), so the
    decision after an attack does not plan and walk the same moves again."""
    G = xG(X)
    WS = xWS(X)
    budget = move_budget(X, lead, np.bool_(False))
    mode = np.int64(1) if charge else np.int64(0)
    if WS[WS_REACH_KEY] != G[G_MOVES]:
        WS[WS_REACH_KEY] = G[G_MOVES]
        WS[WS_REACH_N] = 0.0
    nk = np.int64(WS[WS_REACH_N])
    for k in range(nk):
        q = WS_REACH + k * REACH_COLS
        if (
            WS[q] == lead
            and WS[q + 1] == gx
            and WS[q + 2] == gy
            and WS[q + 3] == mode
            and WS[q + 4] == budget
        ):
            return WS[q + 5], WS[q + 6], WS[q + 7], np.int64(WS[q + 8])
    wx = WS[WS_REACH_WX : WS_REACH_WX + 100]
    wy = WS[WS_REACH_WY : WS_REACH_WY + 100]
    nw, length = plan_move(X, lead, gx, gy, wx, wy)
    ex, ey, contact, _, _, _ = p_walk(X, lead, wx, wy, nw, budget, mode, np.bool_(True))
    if nk < REACH_SLOTS:
        q = WS_REACH + nk * REACH_COLS
        WS[q] = lead
        WS[q + 1] = gx
        WS[q + 2] = gy
        WS[q + 3] = mode
        WS[q + 4] = budget
        WS[q + 5] = ex
        WS[q + 6] = ey
        WS[q + 7] = length
        WS[q + 8] = contact
        WS[WS_REACH_N] = nk + 1
    return ex, ey, length, contact


@njit(**BY_ADDRESS)
def candidates(X, u, C, mode):
    """Legal actions of unit ``u`` into ``C``: ``mode`` 0 unscored (random), 1 each with its
    greedy score, 2 (``SCORE_BEST``) only as many scored as the greedy choice needs: a move
    or charge whose upper bound (:func:`value_bound`) cannot beat a candidate already
    listed is left out, so the best score (first on ties, :func:`pick`) is the same as with
    mode 1.

    Always includes END (score 0).  Per actor (band models and heroes act singly, a squad
    acts as a whole through its first model's row): close combat attacks on models in B2B,
    ranged attacks on visible models in range.  For the unit: moves (towards each opposing
    unit, into range, behind cover, to mission objectives, to escaping allies, away),
    charges on reachable opposing models, retreat, get up, extinguish fire, pick up.
    Greedy's search (``greedy_search``, per side ``O_AI_FAST0``): ``full`` lists the
    positions behind the first two cover pieces within reach (in terrain order) and an
    advance towards each of the two targets; ``nearest`` the position behind the nearest
    cover piece only; ``lazy`` (the default) as ``nearest``, but the cover position only
    where some opposing attack reaches the lead (``value_at``'s threat), no advance towards
    the second target when both lie beyond reach within 10 degrees of each other (its
    charge stays), and in mode 2 each move scored at the end of its straight line within
    the move budget, walked and scored again only while it is the best listed (so the
    choice is no longer exactly mode 1's); ``fast`` the first cover piece only and no
    advance towards the second target (its charge stays).
    """
    SI = xSI(X)
    SF = xSF(X)
    US = xUS(X)
    MIS = xMIS(X)
    OPT = xOPT(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    G = xG(X)
    GF = xGF(X)
    TER = xTER(X)
    greedy = mode != 0
    n = _add(
        C,
        np.int64(0),
        np.int64(A_END),
        np.int64(-1),
        np.int64(-1),
        np.float64(0.0),
        np.float64(0.0),
        np.float64(0.0),
    )
    lead = lead_model(X, u)
    if lead < 0 or UI[u, UI_STATUS] != 0:
        return n
    side = US[u, US_SIDE]
    # greedy_search (O_AI_FAST0): 0 full (the first two cover pieces within reach, an
    # advance towards each of the two targets), 1 fast (the first cover piece, the first
    # target only), 2 nearest (the nearest cover piece, both targets), 3 lazy (the default:
    # nearest's, the cover position only where a threat reaches the lead, no second
    # advance along the first, and in mode SCORE_BEST moves scored at their straight
    # line's end and walked only while the best)
    search = OPT[O_AI_FAST0 + side] if greedy else np.int64(0)
    fast = search == 1
    one_cover = search != 0
    nearest_cover = search >= 2
    lazy_search = search == 3
    lazy = lazy_search and mode == SCORE_BEST
    pl = SI[lead, SI_POOL]
    nmod = SI.shape[0]
    engaged = UI[u, UI_ENG] == 1
    squad = US[u, US_TYPE] == SQUAD
    members = xWI(X)[WI_MEMBERS : WI_MEMBERS + US[u, US_N]]
    nmem = squad_members(X, u, members)
    # ---- get up / extinguish fire
    if actor_blocked(X, lead) and MI[pl, MI_AP] >= 1:
        score = np.float64(0.0)
        if greedy:
            score = 0.6 if MI[pl, MI_AP] >= 2 else 0.1
            if engaged:
                score += 1.0
        n = _add(
            C, n, np.int64(A_GETUP), lead, np.int64(-1), np.float64(0.0), np.float64(0.0), score
        )
    if UI[u, UI_MK + MK_FIRE] > 0 and not actor_blocked(X, lead) and MI[pl, MI_RP] >= 1:
        score = np.float64(0.0)
        if greedy:
            score = ALPHA * SF[lead, SF_VPH] * UI[u, UI_MK + MK_FIRE] - 0.8
        n = _add(
            C,
            n,
            np.int64(A_EXTINGUISH),
            lead,
            np.int64(-1),
            np.float64(0.0),
            np.float64(0.0),
            score,
        )
    # ---- attacks
    for ai in range(nmem):
        a = members[ai]
        if squad and ai > 0:
            break
        pa = SI[a, SI_POOL]
        if actor_blocked(X, a) or MI[pa, MI_AP] < 1:
            continue
        # close combat
        if engaged and MI[pa, MI_CC] < CC_LIMIT:
            for t in range(US[u, US_OPP_LO], US[u, US_OPP_HI]):
                if MI[t, MI_ALIVE] == 0:
                    continue
                dice = np.int64(0)
                for bi in range(nmem):
                    b = members[bi]
                    if (squad or b == a) and _touch(X, b, t):
                        dice += MI[b, MI_CS + ST_ATT]
                if dice == 0:
                    continue
                score = np.float64(0.0)
                if greedy:
                    score = _cc_score(X, a, t, dice, side)
                n = _add(C, n, np.int64(A_CC), a, t, np.float64(0.0), np.float64(0.0), score)
        # ranged: can_shoot's tests, those of the shooter (weapon, not swimming) once per
        # member and those of the target once per target
        if not engaged and MI[pa, MI_RANGED] < RANGED_LIMIT:
            able = np.int64(0)  # bit bi: member bi may shoot
            for bi in range(nmem):
                b = members[bi]
                if (
                    (squad or b == a)
                    and SI[b, SI_WEAPON] == 1
                    and not in_water(X, MF[b, MF_X], MF[b, MF_Y])
                ):
                    able |= np.int64(1) << bi
            if able == 0:
                continue
            for t in range(US[u, US_OPP_LO], US[u, US_OPP_HI]):
                if MI[t, MI_ALIVE] == 0:
                    continue
                tu = SI[t, SI_UNIT]
                if UI[tu, UI_ENG] == 1 or UI[tu, UI_STATUS] != 0:
                    continue
                tx = MF[t, MF_X]
                ty = MF[t, MF_Y]
                dice = np.int64(0)
                cov = np.int64(-1)
                for bi in range(nmem):
                    if not (able >> bi) & 1:
                        continue
                    b = members[bi]
                    bx = MF[b, MF_X]
                    by = MF[b, MF_Y]
                    if edge_distance(bx, by, SF[b, SF_R], tx, ty, SF[t, SF_R]) > SF[b, SF_RANGE]:
                        continue
                    c = sight_at(X, b, t, bx, by, tx, ty, np.int64(3))
                    if c >= 0:
                        dice += MI[b, MI_CS + ST_ROF]
                        if cov < 0:
                            cov = c
                if dice == 0:
                    continue
                score = np.float64(0.0)
                if greedy:
                    score = _ranged_score(X, a, t, dice, cov, side)
                n = _add(C, n, np.int64(A_RANGED), a, t, np.float64(0.0), np.float64(0.0), score)
    # ---- movement
    if MI[pl, MI_AP] < 1 or actor_blocked(X, lead):
        return _retreat(X, u, C, n, greedy)
    if engaged:
        return _retreat(X, u, C, n, greedy)
    n = _pickup(X, u, C, n, greedy)
    if MI[pl, MI_MOVES] >= MOVE_LIMIT:
        return n
    x0 = MF[lead, MF_X]
    y0 = MF[lead, MF_Y]
    r = SF[lead, SF_R]
    budget = move_budget(X, lead, np.bool_(False))
    ap = MI[pl, MI_AP]
    moves_left = MOVE_LIMIT - MI[pl, MI_MOVES]
    here = 0.0
    floor = np.inf  # a move scores below this (mode SCORE_BEST)
    floor_charge = np.inf  # and a charge
    W = xWS(X)[WS_W : WS_W + nmod * W_COLS].reshape((nmod, W_COLS))
    here_threat = 1.0
    if greedy:
        p_prepare_values(X, u, W)
        here, _, here_threat = p_value_at(X, u, W, x0, y0, ap, moves_left, np.int64(-1))
        if mode == SCORE_BEST:
            slack = WS_SLACK + xWS(X)[WS_DECIDE + DEC_BUDGET]
            ub, ub_charge = value_bound(X, u, W, x0, y0, ap - 1, moves_left - 1, slack)
            floor = ub - here - MOVE_COST + BOUND_EPS
            floor_charge = ub_charge - here - MOVE_COST + BOUND_EPS
            if _beaten(C, n, floor_charge):
                return n  # no move or charge can beat what is listed (floor <= floor_charge)
    cx, cy = _enemy_centroid(X, side)
    shooter = _unit_has_weapon(X, u) and SF[lead, SF_RANGE] > 0.0
    # targets: the two best opposing models (greedy) or every opposing unit's closest (random)
    tgt = xWI(X)[WI_TGT : WI_TGT + US.shape[0]]
    tgt[:] = -1
    nt_ = np.int64(0)
    if greedy:
        # the value of heading for each opposing model, then the best two (distinct units)
        press = pressing(X)
        tv = xWS(X)[WS_TVAL : WS_TVAL + nmod]
        foes = xWI(X)[WI_FOES + 1 : WI_FOES + 1 + xWI(X)[WI_FOES]]  # from prepare_values
        for t in foes:
            d = edge_distance(x0, y0, r, MF[t, MF_X], MF[t, MF_Y], SF[t, SF_R])
            tv[t] = max(
                W[t, W_CC] * _gpow(d / (2.0 * max(budget, 1.0)), press),
                W[t, W_RNG]
                * _gpow(max(d - SF[lead, SF_RANGE], 0.0) / (2.0 * max(budget, 1.0)), press),
            )
        for _k in range(2):
            best = np.int64(-1)
            bv = 0.0
            for t in foes:
                if nt_ > 0 and SI[t, SI_UNIT] == SI[tgt[0], SI_UNIT]:
                    continue
                v = tv[t]
                if v > bv:
                    bv = v
                    best = t
            if best < 0:
                break
            tgt[nt_] = best
            nt_ += 1
    else:
        for e in range(US.shape[0]):
            if US[e, US_SIDE] == side or UI[e, UI_STATUS] != 0:
                continue
            best = np.int64(-1)
            bd = 1e30
            ef = US[e, US_FIRST]
            for t in range(ef, ef + US[e, US_N]):
                if MI[t, MI_ALIVE] == 1:
                    d = (MF[t, MF_X] - x0) ** 2 + (MF[t, MF_Y] - y0) ** 2
                    if d < bd:
                        bd = d
                        best = t
            if best >= 0:
                tgt[nt_] = best
                nt_ += 1
    ux0 = 0.0
    uy0 = 0.0
    far0 = False
    for j in range(nt_):
        t = tgt[j]
        tx = MF[t, MF_X]
        ty = MF[t, MF_Y]
        dist = math.sqrt((tx - x0) ** 2 + (ty - y0) ** 2)
        if dist < 1e-9:
            continue
        ux = (tx - x0) / dist
        uy = (ty - y0) / dist
        cr = r + SF[t, SF_R] + 0.005
        gd = edge_distance(x0, y0, r, tx, ty, SF[t, SF_R])
        # charge ("Moving into Close Combat"), if the path is short enough
        if gd <= budget + 0.5 and UI[SI[t, SI_UNIT], UI_MK + MK_ESCAPE] == 0:
            gx = tx - ux * cr
            gy = ty - uy * cr
            if greedy and _beaten(C, n, floor_charge):
                pass  # no charge can beat what is listed
            elif greedy:
                ex, ey, _, contact = reach_point(X, lead, gx, gy, np.bool_(True))
                if contact >= 0:
                    t = contact
                    score, _, _ = p_value_at(X, u, W, ex, ey, ap - 1, moves_left - 1, t)
                    score -= here
                    score -= _countershot_risk(X, u, lead, t)
                    n = _add(C, n, np.int64(A_CHARGE), lead, t, gx, gy, score - MOVE_COST)
            else:
                n = _add(C, n, np.int64(A_CHARGE), lead, t, gx, gy, np.float64(0.0))
        # advance: into range (shooters) or towards the model
        if fast and j > 0:
            continue
        stop = cr + 0.5
        if shooter:
            stop = max(stop, cr + SF[lead, SF_RANGE] - 1.0)
        far = dist - stop >= budget + 1.0
        if j == 0:
            ux0 = ux
            uy0 = uy
            far0 = far
        elif lazy_search and far and far0 and ux * ux0 + uy * uy0 >= PARALLEL_COS:
            continue  # both beyond reach within 10 degrees: the walks end close together
        if dist > stop + 0.5:
            gx, gy = tx - ux * stop, ty - uy * stop
            n = _move(X, u, C, n, W, gx, gy, greedy, here, ap, moves_left, floor, lazy)
    # out of the water: a shooter may not shoot from a body of water ("Bodies of Water")
    if greedy and shooter and in_water(X, x0, y0):
        n = _leave_water(X, u, C, n, W, x0, y0, r, here, ap, moves_left, floor, lazy)
    # behind cover: the far side of the closest cover pieces, seen from the opposing centroid
    nc = np.int64(0)
    if lazy_search and here_threat <= 0.0:
        nc = np.int64(2)  # no cover position where no opposing attack reaches the lead
    elif nearest_cover:
        bp = np.int64(-1)
        bd2 = (budget + 8.0) ** 2
        for p in range(G[G_NT]):
            k = TER[p, TK]
            if TER[p, TCOVER] < 0.5 or (k != T_OBSTACLE and k != T_BUILDING):
                continue
            px = 0.5 * (TER[p, TX0] + TER[p, TX1])
            py = 0.5 * (TER[p, TY0] + TER[p, TY1])
            d2 = (px - x0) ** 2 + (py - y0) ** 2
            if d2 <= bd2:
                bd2 = d2
                bp = p
        nc = np.int64(2)  # the loop below is skipped
        if bp >= 0:
            ok, gx, gy = _cover_spot(TER, bp, cx, cy, r)
            if ok:
                n = _move(X, u, C, n, W, gx, gy, greedy, here, ap, moves_left, floor, lazy)
    for p in range(G[G_NT] if nc == 0 else 0):
        k = TER[p, TK]
        if TER[p, TCOVER] < 0.5 or (k != T_OBSTACLE and k != T_BUILDING):
            continue
        px = 0.5 * (TER[p, TX0] + TER[p, TX1])
        py = 0.5 * (TER[p, TY0] + TER[p, TY1])
        if (px - x0) ** 2 + (py - y0) ** 2 > (budget + 8.0) ** 2:
            continue
        ok, gx, gy = _cover_spot(TER, p, cx, cy, r)
        if not ok:
            continue
        n = _move(X, u, C, n, W, gx, gy, greedy, here, ap, moves_left, floor, lazy)
        nc += 1
        if nc >= 2 or one_cover:
            break
    # mission objective
    if OPT[O_MISSIONS] == 1:
        k = G[G_MIS0 + side]
        if MIS[k, M_KIND] == MIS_HOLD:
            gx, gy = _area_point(X, side)
            n = _move(X, u, C, n, W, gx, gy, greedy, here, ap, moves_left, floor, lazy)
        elif MIS[k, M_KIND] == MIS_CARRY and G[G_DONE0 + side] == 0:
            if G[G_CARRIER0 + side] == u:
                gy = own_edge_y(X, side)
                gy = gy + r + 1.0 if gy == 0.0 else gy - r - 1.0
                n = _move(X, u, C, n, W, x0, gy, greedy, here, ap, moves_left, floor, lazy)
            elif G[G_CARRIER0 + side] < 0:
                ox = GF[GF_OBJX0 + 2 * side]
                oy = GF[GF_OBJY0 + 2 * side]
                dd = math.sqrt((ox - x0) ** 2 + (oy - y0) ** 2)
                if dd > 1e-9:
                    back = r + 0.5 * MIS[k, M_OBJ_SIZE]
                    gx, gy = ox - (ox - x0) / dd * back, oy - (oy - y0) / dd * back
                    n = _move(X, u, C, n, W, gx, gy, greedy, here, ap, moves_left, floor, lazy)
    # escaping allies (rescue)
    for v in range(US.shape[0]):
        if v == u or US[v, US_SIDE] != side or UI[v, UI_STATUS] != 0:
            continue
        if UI[v, UI_MK + MK_ESCAPE] == 0:
            continue
        lv = lead_model(X, v)
        if lv >= 0:
            n = _move(
                X, u, C, n, W, MF[lv, MF_X], MF[lv, MF_Y], greedy, here, ap, moves_left, floor, lazy
            )
    if not greedy:
        # away from the opposing centroid, and a random destination within reach
        dx = x0 - cx
        dy = y0 - cy
        dd = math.sqrt(dx * dx + dy * dy)
        if dd > 1e-9:
            gx, gy = x0 + dx / dd * budget, y0 + dy / dd * budget
            n = _move(X, u, C, n, W, gx, gy, greedy, here, ap, moves_left, floor, lazy)
        ang = 2.0 * math.pi * (die(xRNG(X), np.int64(360)) - 1) / 360.0
        dist = budget * die(xRNG(X), np.int64(100)) / 100.0
        n = _add(
            C,
            n,
            np.int64(A_MOVE),
            lead,
            np.int64(-1),
            x0 + dist * math.cos(ang),
            y0 + dist * math.sin(ang),
            np.float64(0.0),
        )
    if lazy:
        # greedy_search=lazy: walk the best move scored unwalked (target -2) and score it
        # again where the walk ends (dropped if it does not move), until the best listed
        # candidate is a walked one; pick() then takes it
        while True:
            best = np.int64(0)
            for i in range(1, n):
                if C[i, C_SCORE] > C[best, C_SCORE]:
                    best = i
            if C[best, C_TARGET] != -2:
                break
            C[best, C_TARGET] = -1
            gx = C[best, C_X]
            gy = C[best, C_Y]
            ex, ey, _, _ = reach_point(X, lead, gx, gy, np.bool_(False))
            if (ex - x0) ** 2 + (ey - y0) ** 2 < 0.25:
                C[best, C_SCORE] = -np.inf
                continue
            # the walk ended where _move scored it (the same bits from the same formula):
            # its score stands (value_at depends only on the point and the state)
            f = min(
                1.0, xWS(X)[WS_DECIDE + DEC_BUDGET] / math.sqrt((gx - x0) ** 2 + (gy - y0) ** 2)
            )
            if ex == x0 + (gx - x0) * f and ey == y0 + (gy - y0) * f:
                continue
            score, _, _ = p_value_at(X, u, W, ex, ey, ap - 1, moves_left - 1, np.int64(-1))
            C[best, C_SCORE] = score - (here + MOVE_COST)  # rounded as in _move
    return n


@njit(**INNER)
def _cover_spot(TER, p, cx, cy, r):
    """The far side of cover piece ``p`` seen from (cx, cy) (the opposing centroid): the
    point where a stand of radius ``r`` stands clear of it (+ 0.2 cm) on the line from
    (cx, cy) through its centre; (False, 0, 0) when (cx, cy) is at its centre."""
    px = 0.5 * (TER[p, TX0] + TER[p, TX1])
    py = 0.5 * (TER[p, TY0] + TER[p, TY1])
    dx = px - cx
    dy = py - cy
    dd = math.sqrt(dx * dx + dy * dy)
    if dd < 1e-9:
        return False, 0.0, 0.0
    dx /= dd
    dy /= dd
    hx = 0.5 * (TER[p, TX1] - TER[p, TX0]) + r + 0.2
    hy = 0.5 * (TER[p, TY1] - TER[p, TY0]) + r + 0.2
    sc = min(hx / max(abs(dx), 1e-9), hy / max(abs(dy), 1e-9))
    return True, px + dx * sc, py + dy * sc


@njit(**INNER)
def _move(X, u, C, n, W, gx, gy, greedy, here, ap, moves_left, floor, lazy):
    """A move candidate towards (gx, gy), scored by the change of the position value; left
    out when a candidate listed scores at least ``floor`` (its score's bound)."""
    SF = xSF(X)
    MF = xMF(X)
    lead = lead_model(X, u)
    r = SF[lead, SF_R]
    gx = min(max(gx, r + 0.01), BOARD - r - 0.01)
    gy = min(max(gy, r + 0.01), BOARD - r - 0.01)
    if not greedy:
        return _add(C, n, np.int64(A_MOVE), lead, np.int64(-1), gx, gy, np.float64(0.0))
    if _beaten(C, n, floor):
        return n
    if lazy:
        # greedy_search=lazy: scored at the end of the straight line within the budget (no
        # walk); candidates() walks it (target -1) only while it is the best listed
        x0 = MF[lead, MF_X]
        y0 = MF[lead, MF_Y]
        dd = math.sqrt((gx - x0) ** 2 + (gy - y0) ** 2)
        if dd < 0.5:
            return n
        f = min(1.0, xWS(X)[WS_DECIDE + DEC_BUDGET] / dd)
        ex = x0 + (gx - x0) * f
        ey = y0 + (gy - y0) * f
        score, _, _ = p_value_at(X, u, W, ex, ey, ap - 1, moves_left - 1, np.int64(-1))
        score -= here + MOVE_COST
        return _add(C, n, np.int64(A_MOVE), lead, np.int64(-2), gx, gy, score)
    ex, ey, _, _ = reach_point(X, lead, gx, gy, np.bool_(False))
    if (ex - MF[lead, MF_X]) ** 2 + (ey - MF[lead, MF_Y]) ** 2 < 0.25:
        return n
    score, _, _ = p_value_at(X, u, W, ex, ey, ap - 1, moves_left - 1, np.int64(-1))
    score -= here + MOVE_COST
    return _add(C, n, np.int64(A_MOVE), lead, np.int64(-1), gx, gy, score)


@njit(**INNER)
def _leave_water(X, u, C, n, W, x0, y0, r, here, ap, moves_left, floor, lazy):
    """Move candidates out of the water pieces under (x0, y0): straight to each of their
    four edges, just past it."""
    TER = xTER(X)
    for p in range(xG(X)[G_NT]):
        if TER[p, TK] != T_WATER or not (TER[p, TX0] < x0 < TER[p, TX1]):
            continue
        if not (TER[p, TY0] < y0 < TER[p, TY1]):
            continue
        for k in range(4):
            gx = x0 if k >= 2 else (TER[p, TX0] - 0.2 if k == 0 else TER[p, TX1] + 0.2)
            gy = y0 if k < 2 else (TER[p, TY0] - 0.2 if k == 2 else TER[p, TY1] + 0.2)
            n = _move(X, u, C, n, W, gx, gy, np.bool_(True), here, ap, moves_left, floor, lazy)
    return n


@njit(**INNER)
def _countershot_risk(X, u, lead, t):
    """Expected value of the countershots the charged unit can fire at the charging model."""
    SI = xSI(X)
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    side = US[u, US_SIDE]
    cu = SI[t, SI_UNIT]
    if UI[cu, UI_ENG] == 1:
        return 0.0
    risk = 0.0
    cf = US[cu, US_FIRST]
    for m in range(cf, cf + US[cu, US_N]):
        if MI[m, MI_ALIVE] == 0 or SI[m, SI_WEAPON] == 0 or actor_blocked(X, m):
            continue
        if MI[SI[m, SI_POOL], MI_RP] < 2:
            continue
        if (
            edge_distance(
                MF[m, MF_X],
                MF[m, MF_Y],
                SF[m, SF_R],
                MF[lead, MF_X],
                MF[lead, MF_Y],
                SF[lead, SF_R],
            )
            > SF[m, SF_RANGE]
        ):
            continue
        v, _ = attack_value(
            X,
            MI[m, MI_CS + ST_ROF],
            MI[m, MI_CS + ST_MMS] + REACTION_PENALTY,
            lead,
            np.bool_(True),
            np.int64(0),
            1 - side,
        )
        risk += v
    return risk


@njit(**INNER)
def _touch(X, a, b):
    return bases_within(xMF(X), xSF(X), a, b, CONTACT)


@njit(**INNER)
def _enemy_centroid(X, side):
    MF = xMF(X)
    MI = xMI(X)
    sx = np.float64(0.0)
    sy = np.float64(0.0)
    k = np.int64(0)
    lo, hi = side_models(X, 1 - side)
    for m in range(lo, hi):
        if MI[m, MI_ALIVE] == 1:
            sx += MF[m, MF_X]
            sy += MF[m, MF_Y]
            k += 1
    if k == 0:
        return BOARD / 2, BOARD / 2
    return sx / k, sy / k


@njit(**INNER)
def _area_point(X, side):
    MIS = xMIS(X)
    GF = xGF(X)
    G = xG(X)
    k = G[G_MIS0 + side]
    if MIS[k, M_SHAPE] == 0:
        return GF[GF_AREAX0 + 2 * side], GF[GF_AREAY0 + 2 * side]
    x0, y0, x1, y1 = area_rect(X, side)
    return 0.5 * (x0 + x1), 0.5 * (y0 + y1)


@njit(**INNER)
def _cc_score(X, a, t, dice, side):
    """Close combat attack: expected value minus the expected counterblow and dodge; with
    :func:`pressing` plus the kill chance times the strike the target would deal to the
    attacker in its own activation (half when it has acted, as it strikes only next
    round; none then in the last round)."""
    SI = xSI(X)
    MI = xMI(X)
    UI = xUI(X)
    tp = SI[t, SI_POOL]
    if not actor_blocked(X, t) and MI[tp, MI_RP] >= 1:
        dice -= MI[t, MI_CS + ST_TEC] // 2  # expected dodge successes (4+)
    v, pk = attack_value(X, dice, MI[a, MI_CS + ST_CCS], t, np.bool_(False), np.int64(0), side)
    if not actor_blocked(X, t) and MI[tp, MI_RP] >= 2:
        cb, _ = attack_value(
            X,
            MI[t, MI_CS + ST_ATT],
            MI[t, MI_CS + ST_CCS] + REACTION_PENALTY,
            a,
            np.bool_(False),
            np.int64(0),
            1 - side,
        )
        v -= (1.0 - pk) * cb * 0.5
    if pressing(X) and not actor_blocked(X, t):
        fac = 1.0 if UI[SI[t, SI_UNIT], UI_ACT] == 0 else (0.0 if last_round(X) else 0.5)
        if fac > 0.0:
            strike, _ = attack_value(
                X, MI[t, MI_CS + ST_ATT], MI[t, MI_CS + ST_CCS], a, np.bool_(False), np.int64(0),
                1 - side,
            )  # fmt: skip
            v += pk * fac * strike
    return v + 0.01


@njit(**INNER)
def _ranged_score(X, a, t, dice, cover, side):
    """Ranged attack: expected value, assuming the target seeks shelter when that helps it."""
    SI = xSI(X)
    MI = xMI(X)
    UI = xUI(X)
    h = MI[a, MI_CS + ST_MMS]
    v, _ = attack_value(X, dice, h, t, np.bool_(True), cover, side)
    tu = SI[t, SI_UNIT]
    if (
        SI[t, SI_MARKERS] == 1
        and UI[tu, UI_MK + MK_SHELTER] == 0
        and UI[tu, UI_MK + MK_ESCAPE] == 0
        and MI[SI[t, SI_POOL], MI_RP] >= 1
    ):
        UI[tu, UI_MK + MK_SHELTER] = 1
        vs, _ = attack_value(X, dice, h, t, np.bool_(True), cover, side)
        UI[tu, UI_MK + MK_SHELTER] = 0
        v = min(v, vs + 0.3)
    return v + 0.01


@njit(**INNER)
def _retreat(X, u, C, n, greedy):
    """ "Action: Retreat": tied in close combat, 1 RP (and 3 MP), half MOV straight away."""
    SI = xSI(X)
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    if UI[u, UI_ENG] == 0 or US[u, US_MP] <= 0:
        return n
    lead = lead_model(X, u)
    if lead < 0 or actor_blocked(X, lead) or MI[SI[lead, SI_POOL], MI_RP] < 1:
        return n
    side = US[u, US_SIDE]
    sx = np.float64(0.0)
    sy = np.float64(0.0)
    k = np.int64(0)
    incoming = np.float64(0.0)
    for t in range(US[u, US_OPP_LO], US[u, US_OPP_HI]):
        if MI[t, MI_ALIVE] == 0 or MI[t, MI_ENG] == 0:
            continue
        if (
            edge_distance(
                MF[t, MF_X],
                MF[t, MF_Y],
                SF[t, SF_R],
                MF[lead, MF_X],
                MF[lead, MF_Y],
                SF[lead, SF_R],
            )
            <= CONTACT + 0.5
        ):
            sx += MF[t, MF_X]
            sy += MF[t, MF_Y]
            k += 1
            if greedy:
                v, _ = attack_value(
                    X,
                    MI[t, MI_CS + ST_ATT],
                    MI[t, MI_CS + ST_CCS],
                    lead,
                    np.bool_(False),
                    np.int64(0),
                    1 - side,
                )
                incoming += 2.0 * v
    if k == 0:
        return n
    dx = MF[lead, MF_X] - sx / k
    dy = MF[lead, MF_Y] - sy / k
    dd = math.sqrt(dx * dx + dy * dy)
    if dd < 1e-9:
        dx = np.float64(0.0)
        dy = 1.0 if own_edge_y(X, side) > 0.0 else -1.0
    else:
        dx /= dd
        dy /= dd
    score = np.float64(0.0)
    if greedy:
        left = US[u, US_MP] - UI[u, UI_MPLOST]
        score = threat_weight(X) * incoming - 3.0
        if left <= 3:
            score -= float(unit_points_alive(X, u))  # the retreat would break the unit
    return _add(C, n, np.int64(A_RETREAT), lead, np.int64(-1), dx, dy, score)


@njit(**INNER)
def _pickup(X, u, C, n, greedy):
    """Mission ability: pick up the own object in B2B (apprentices may not)."""
    SF = xSF(X)
    US = xUS(X)
    MIS = xMIS(X)
    MF = xMF(X)
    MI = xMI(X)
    G = xG(X)
    GF = xGF(X)
    if xOPT(X)[O_MISSIONS] == 0:
        return n
    side = US[u, US_SIDE]
    k = G[G_MIS0 + side]
    if MIS[k, M_KIND] != MIS_CARRY or G[G_DONE0 + side] == 1 or G[G_CARRIER0 + side] >= 0:
        return n
    lead = lead_model(X, u)
    cost = np.int64(MIS[k, M_PICKUP_AP]) if G[G_CARRIER0 + side] == -1 else 0
    if MI[xSI(X)[lead, SI_POOL], MI_AP] < cost:
        return n
    ox = GF[GF_OBJX0 + 2 * side]
    oy = GF[GF_OBJY0 + 2 * side]
    d = math.sqrt((MF[lead, MF_X] - ox) ** 2 + (MF[lead, MF_Y] - oy) ** 2)
    if d - SF[lead, SF_R] - 0.5 * MIS[k, M_OBJ_SIZE] > CONTACT + 0.5:
        return n
    score = 0.5 * MIS[k, M_VP] if greedy else 0.0
    if greedy and paced_carry(X, side):
        # worth its AP only if the object can still be brought home in time
        r = SF[lead, SF_R]
        if carry_left(X, side, k, MF[lead, MF_X], MF[lead, MF_Y], r, True) > carry_reach(
            X, u, np.bool_(True)
        ):
            score = 0.0
    return _add(
        C, n, np.int64(A_PICKUP), lead, np.int64(-1), np.float64(0.0), np.float64(0.0), score
    )


# --------------------------------------------------------------- choosing
@njit(**INNER)
def pick(C, n, policy, rng):
    """Index of the chosen candidate: uniform (random) or the best score (greedy)."""
    if policy == P_RANDOM:
        return die(rng, n) - 1
    best = np.int64(0)
    for i in range(1, n):
        if C[i, C_SCORE] > C[best, C_SCORE]:
            best = i
    return best


@njit(**INLINE)
def _kill_value_kept(X, kv, t, side, cap):
    """``kv[t]``, the :func:`kill_value` of model t for ``side``, computed on first use
    (kill values are never negative: -1 marks one not computed yet)."""
    if kv[t] < 0.0:
        kv[t] = kill_value_cap(X, t, side, cap)
    return kv[t]


@njit(**INNER)
def unit_urgency(X, u, kv, foes, reach, cap):
    """Greedy order of activation: units in close combat first (by the value of their
    attack), then units with a target in range (by the value of the shot), then units in
    reach of opposing units (so they act before the threat does).  ``kv``: the value of
    killing each model (:func:`kill_value` for u's side, -1 until first needed);
    ``foes``: the opposing models in play; ``reach``: how far each of them threatens
    (move budget plus weapon range);
    ``cap``: :func:`decisive_vp` for u's side."""
    SI = xSI(X)
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    lead = lead_model(X, u)
    if lead < 0:
        return -1e9
    dice = np.int64(0)
    shots = np.int64(0)
    f = US[u, US_FIRST]
    for m in range(f, f + US[u, US_N]):
        if MI[m, MI_ALIVE] == 1:
            dice += MI[m, MI_CS + ST_ATT]
            if SI[m, SI_WEAPON] == 1:
                shots += MI[m, MI_CS + ST_ROF]
    best = 0.0
    threatened = 0.0
    x = MF[lead, MF_X]
    y = MF[lead, MF_Y]
    r = SF[lead, SF_R]
    for t in foes:
        d = edge_distance(x, y, r, MF[t, MF_X], MF[t, MF_Y], SF[t, SF_R])
        if UI[u, UI_ENG] == 1:
            if d <= CONTACT:
                v, _ = attack_value_kv(
                    X,
                    dice,
                    MI[lead, MI_CS + ST_CCS],
                    t,
                    np.bool_(False),
                    np.int64(0),
                    _kill_value_kept(X, kv, t, US[u, US_SIDE], cap),
                    vph_of(X, t, cap),
                )
                best = max(best, 100.0 + v)
        elif shots > 0 and d <= SF[lead, SF_RANGE] and UI[SI[t, SI_UNIT], UI_ENG] == 0:
            v, _ = attack_value_kv(
                X,
                shots,
                MI[lead, MI_CS + ST_MMS],
                t,
                np.bool_(True),
                np.int64(0),
                _kill_value_kept(X, kv, t, US[u, US_SIDE], cap),
                vph_of(X, t, cap),
            )
            best = max(best, 50.0 + v)
        if d <= reach[t]:
            threatened += 1.0
    return best + threatened


@njit(**BY_ADDRESS)
def choose_unit(X, side, policy):
    """The unit to activate: uniform (random) or the most urgent (greedy, lookahead)."""
    rng = xRNG(X)
    US = xUS(X)
    count = np.int64(0)
    for u in range(US.shape[0]):
        if can_activate(X, u, side):
            count += 1
    if count == 0:
        return -1
    if policy == P_RANDOM:
        k = die(rng, count) - 1
        for u in range(US.shape[0]):
            if can_activate(X, u, side):
                if k == 0:
                    return u
                k -= 1
    best = np.int64(-1)
    bv = np.float64(-1e30)
    if count == 1:  # the only unit left to activate (no urgency to compare)
        for u in range(US.shape[0]):
            if can_activate(X, u, side):
                return u
    SI = xSI(X)
    SF = xSF(X)
    # the same for every unit: the opposing models in play, their kill values (computed
    # when first needed, -1 until then) and how far they threaten
    kv = xWS(X)[WS_TVAL : WS_TVAL + SI.shape[0]]
    reach = xWS(X)[WS_THREAT_REACH : WS_THREAT_REACH + SI.shape[0]]
    nfoes = list_foes(X, side, WI_URGE)
    foes = xWI(X)[WI_URGE + 1 : WI_URGE + 1 + nfoes]
    cap = decisive_vp(X, side)
    for t in foes:
        kv[t] = -1.0
        reach[t] = move_budget(X, t, np.bool_(False))
        if SI[t, SI_WEAPON] == 1:
            reach[t] += SF[t, SF_RANGE]
    for u in range(US.shape[0]):
        if can_activate(X, u, side):
            v = unit_urgency(X, u, kv, foes, reach, cap)
            if v > bv:
                bv = v
                best = u
    return best


# -------------------------------------------------------------- reactions
@njit(**INNER)
def want_countershot(X, cu, shooters, ns, target, policy, rng):
    """ "Reaction: Countershot" against a charge: random (half the time), or greedy when the
    expected value of the shots beats their RP."""
    if ns == 0:
        return False
    if policy == P_RANDOM:
        return die(rng, np.int64(2)) == 1
    SI = xSI(X)
    MI = xMI(X)
    side = SI[shooters[0], SI_SIDE]
    total = np.float64(0.0)
    for i in range(ns):
        m = shooters[i]
        v, _ = attack_value(
            X,
            MI[m, MI_CS + ST_ROF],
            MI[m, MI_CS + ST_MMS] + REACTION_PENALTY,
            target,
            np.bool_(True),
            np.int64(0),
            side,
        )
        total += v
    return total > 2.0 * RP_COST * ns


@njit(**INNER)
def cc_reaction(X, reactor, attacker, target, dice, can_dodge, can_cb, policy, rng):
    """Reaction to a close combat attack: none, "Dodge" (1 RP) or "Counterblow" (2 RP)."""
    if not can_dodge and not can_cb:
        return RE_NONE
    if policy == P_RANDOM:
        k = die(rng, 1 + (1 if can_dodge else 0) + (1 if can_cb else 0)) - 1
        if k == 0:
            return RE_NONE
        if k == 1 and can_dodge:
            return RE_DODGE
        return RE_COUNTERBLOW
    SI = xSI(X)
    MI = xMI(X)
    side = SI[attacker, SI_SIDE]
    h = MI[attacker, MI_CS + ST_CCS]
    base, pk = attack_value(X, dice, h, target, np.bool_(False), np.int64(0), side)
    best = np.int64(RE_NONE)
    gain_best = np.float64(0.0)
    if can_dodge:
        tec = MI[reactor, MI_CS + ST_TEC]
        exp = np.float64(0.0)
        coef = np.float64(1.0)  # binomial coefficient C(tec, k)
        for k in range(tec + 1):
            p = coef / 2.0**tec
            coef = coef * (tec - k) / (k + 1)
            v, _ = attack_value(X, dice - k, h, target, np.bool_(False), np.int64(0), side)
            exp += p * v
        g = base - exp - RP_COST
        if g > gain_best:
            gain_best = g
            best = np.int64(RE_DODGE)
    if can_cb:
        cb, _ = attack_value(
            X,
            MI[reactor, MI_CS + ST_ATT],
            MI[reactor, MI_CS + ST_CCS] + REACTION_PENALTY,
            attacker,
            np.bool_(False),
            np.int64(0),
            1 - side,
        )
        g = (1.0 - pk) * cb - 2.0 * RP_COST
        if g > gain_best:
            gain_best = g
            best = np.int64(RE_COUNTERBLOW)
    return best


@njit(**INNER)
def want_shelter(X, tu, target, shooter, dice, cover, policy, rng):
    """ "Reaction: Seek Shelter": random (half the time), or greedy when the expected value
    saved beats 1 RP and the AP needed to get up again."""
    if policy == P_RANDOM:
        return die(rng, np.int64(2)) == 1
    SI = xSI(X)
    MI = xMI(X)
    UI = xUI(X)
    if SI[target, SI_MARKERS] == 0:
        return False  # the marker would sit on the leader and not protect this apprentice
    side = SI[shooter, SI_SIDE]
    h = MI[shooter, MI_CS + ST_MMS]
    v0, _ = attack_value(X, dice, h, target, np.bool_(True), cover, side)
    UI[tu, UI_MK + MK_SHELTER] = 1
    v1, _ = attack_value(X, dice, h, target, np.bool_(True), cover, side)
    UI[tu, UI_MK + MK_SHELTER] = 0
    cost = RP_COST + (1.0 if UI[tu, UI_ACT] == 0 else 0.5)
    return v0 - v1 > cost
