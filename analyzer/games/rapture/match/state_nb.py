# mypy: ignore-errors
"""Match state operations: dice, wounds and casualties, victory points, morale, markers, movement.

Every rule lives in exactly one function here or in :mod:`engine_nb`, with the rulebook
section (``rapture.txt``) it encodes.  Every function takes the match context ``X``
(:mod:`context_nb`: the static arrays SI, SF, US, MIS, TAB, OPT, SCEN of the match-up and
the state MF, MI, UI, G, GF, TER, RNG, SCRIPT, TR of one match; columns in :mod:`layout`).
Literal arguments are wrapped in ``np.int64``/``np.float64``/``np.bool_``: numba compiles a
separate version of a function for every literal value it is called with.

The dice ``SCRIPT`` is ``[next, length, faces...]``: while ``next < length`` dice come from
the script (rule tests), then from the generator ``RNG``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from analyzer.dice.random_nb import roll_die
from analyzer.games.rapture.match.calls_nb import (
    p_escape_move,
    p_move_unit,
    p_remove_marker,
    p_restore_formation,
    p_walk,
    p_wound,
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
    xSCRIPT,
    xSF,
    xSI,
    xTER,
    xTR,
    xUI,
    xUS,
    xWI,
    xWS,
)
from analyzer.games.rapture.match.geometry_nb import (
    bases_within,
    circle_rect_gap,
    edge_distance,
    first_contact,
    plan_path,
    point_free_of_solids,
    seg_rect,
    side_models,
)
from analyzer.games.rapture.match.layout import (
    BAND,
    BLOCK_AT,
    BOARD,
    BONUS_POINTS,
    BONUS_VP,
    CONTACT,
    COVER_OBSTACLE,
    COVER_SHELTER,
    DESPAIR_MP,
    DESPAIR_RANGE,
    DETOUR_GAP,
    DIFFICULT_AT,
    EFFECT_ESCAPE,
    EV_CASUALTY,
    EV_COLS,
    EV_DIFFICULT,
    EV_DISABLED,
    EV_EFFECT,
    EV_ESCAPE_MOVE,
    EV_FORMATION,
    EV_MARKER,
    EV_MORALE,
    EV_RESCUE,
    EV_VP,
    EV_WATER,
    EV_WOUND,
    G_BONUS0,
    G_CARRIER0,
    G_DIS0,
    G_DONE0,
    G_ENG_OK,
    G_MIS0,
    G_MOVES,
    G_MVP0,
    G_NEV,
    G_NT,
    G_ROUND,
    G_SWAP,
    G_TARGET0,
    G_TRACE,
    G_VP0,
    GF_OBJX0,
    GF_OBJY0,
    KEEP_GAP,
    M_KIND,
    M_VP,
    MAX_MODELS,
    MF_X,
    MF_Y,
    MI_ALIVE,
    MI_AP,
    MI_CC,
    MI_CREDIT,
    MI_CS,
    MI_ENG,
    MI_MOVES,
    MI_RANGED,
    MI_RP,
    MI_TAKEN,
    MI_WATER,
    MI_WOUNDS,
    MIS_TAKEOUT,
    MK_DESPAIR,
    MK_ESCAPE,
    MK_RADIATION,
    MK_SHELTER,
    N_STATS,
    NEVER,
    O_BASE_COUNTS,
    O_MISSIONS,
    O_OWN_ESCAPE_VP,
    OBSTACLE_COST,
    R_APPRENTICE,
    RADIATION_INI,
    RADIATION_MOV,
    SF_R,
    SHELTER_BLOCK_AT,
    SI_CCS,
    SI_DMGRED,
    SI_HE,
    SI_HP,
    SI_MARKERS,
    SI_MOV,
    SI_NHE,
    SI_POINTS,
    SI_POOL,
    SI_ROLE,
    SI_SIDE,
    SI_UNIT,
    SQUAD,
    SQUAD_GAP,
    ST_AP,
    ST_CCS,
    ST_DEF,
    ST_INI,
    ST_MMS,
    ST_MOV,
    ST_RP,
    ST_TEC,
    T_DIFFICULT,
    T_OBSTACLE,
    T_WATER,
    TK,
    TOUCH_GAP,
    TSOLID,
    TX0,
    TX1,
    TY0,
    TY1,
    UI_ACT,
    UI_CARRY,
    UI_CREDIT,
    UI_DEALT,
    UI_DESPMP,
    UI_ENG,
    UI_ESC_CREDIT,
    UI_MK,
    UI_MPLOST,
    UI_STATUS,
    UI_TAKEN,
    UI_VP,
    US_FIRST,
    US_LEAD,
    US_ME,
    US_MP,
    US_N,
    US_NME,
    US_OPP_HI,
    US_OPP_LO,
    US_OWN_HI,
    US_OWN_LO,
    US_POINTS,
    US_SIDE,
    US_TYPE,
    WI_ENG_CNT,
    WI_ENG_MASK,
    WI_NEAR,
    WI_WALK_FAILED,
    WI_WALK_K,
    WS_DETOUR,
    WS_ENG,
    WS_MOVE_WX,
    WS_MOVE_WY,
    WS_NEAR_KEY,
    WS_REACH_KEY,
    WS_SPOT,
    WS_UNOVERLAP_KEY,
    WS_WALK_T,
    WS_WKEY,
)

OFFBOARD = -1000.0


# ------------------------------------------------------------------- dice
@njit(**INNER)
def d6(X):
    """One six-sided die: the next scripted face, else the match generator."""
    script = xSCRIPT(X)
    p = script[0]
    if p < script[1]:
        script[0] = p + 1
        return script[2 + p]
    return roll_die(xRNG(X), np.int64(6))


@njit(**INNER)
def pool(X, n, at):
    """Successes among ``n`` d6 at ``at``+, and the faces packed in base 8 (first 21 dice).

    Dice are always rolled one by one with ``roll_die`` (through :func:`d6`), traced or not:
    ``count_at_least`` draws a different sequence from the same generator state, and a
    ``--trace`` replay must play exactly the same game as the batch run.
    """
    if n <= 0:
        return np.int64(0), np.int64(0)
    cnt = np.int64(0)
    packed = np.int64(0)
    for i in range(n):
        f = d6(X)
        if f >= at:
            cnt += 1
        if i < 21:
            packed = packed * 8 + f
    return cnt, packed


@njit(**INNER)
def ev(X, code, side, unit, model, tunit, tmodel, a, b, c, d, e, f):
    """Append one event to the trace buffer (only while tracing).  Not inlined by numba,
    which would type the body again at each of its fifty call sites; compiled once for
    int64 fields (``kernels``)."""
    G = xG(X)
    if G[G_TRACE] == 0:
        return
    TR = xTR(X)
    k = G[G_NEV]
    if k >= TR.shape[0]:
        return
    TR[k, 0] = code
    TR[k, 1] = G[G_ROUND]
    TR[k, 2] = side
    TR[k, 3] = unit
    TR[k, 4] = model
    TR[k, 5] = tunit
    TR[k, 6] = tmodel
    TR[k, 7] = a
    TR[k, 8] = b
    TR[k, 9] = c
    TR[k, 10] = d
    TR[k, 11] = e
    if EV_COLS > 12:
        TR[k, 12] = f
    G[G_NEV] = k + 1


@njit(**INNER)
def mm(x):
    """Centimetres as integer millimetres (trace events)."""
    return np.int64(round(x * 10.0))


# ------------------------------------------------------------------ stats
@njit(**INNER)
def refresh_model(X, m):
    """Current stats of model ``m``: card (with abilities) plus triggered bar effects.

    "Health Points / Morale Points": an effect takes hold once its box is marked and effects
    add up; morale effects apply to the models the morale bar belongs to (not apprentices,
    which have none).  "Radiation Marker": -1 INI and -5 MOV.  "Profile Cards": no stat
    drops below 0; CCS/MMS stay within 1..7 (7: never succeeds).  MOV is kept in mm.
    """
    SI = xSI(X)
    US = xUS(X)
    MI = xMI(X)
    UI = xUI(X)
    u = SI[m, SI_UNIT]
    for s in range(N_STATS):  # SI_CCS .. SI_RP follow the stat order
        MI[m, MI_CS + s] = SI[m, SI_CCS + s]
    wounds = MI[m, MI_WOUNDS]
    for k in range(SI[m, SI_NHE]):
        box = SI[m, SI_HE + 3 * k]
        if wounds >= box:
            stat = SI[m, SI_HE + 3 * k + 1]
            change = SI[m, SI_HE + 3 * k + 2]
            MI[m, MI_CS + stat] += change * (10 if stat == ST_MOV else 1)
    if SI[m, SI_MARKERS] == 1:
        lost = UI[u, UI_MPLOST]
        for k in range(US[u, US_NME]):
            box = US[u, US_ME + 3 * k]
            stat = US[u, US_ME + 3 * k + 1]
            if stat != EFFECT_ESCAPE and lost >= box:
                MI[m, MI_CS + stat] += US[u, US_ME + 3 * k + 2] * (10 if stat == ST_MOV else 1)
        if UI[u, UI_MK + MK_RADIATION] > 0:
            MI[m, MI_CS + ST_INI] -= RADIATION_INI
            MI[m, MI_CS + ST_MOV] -= RADIATION_MOV * 10
    for s in range(N_STATS):
        if s in (ST_CCS, ST_MMS):
            MI[m, MI_CS + s] = min(max(MI[m, MI_CS + s], 1), NEVER)
        elif MI[m, MI_CS + s] < 0:
            MI[m, MI_CS + s] = 0


@njit(**INNER)
def refresh_unit(X, u):
    US = xUS(X)
    MI = xMI(X)
    first = US[u, US_FIRST]
    for m in range(first, first + US[u, US_N]):
        if MI[m, MI_ALIVE] == 1:
            refresh_model(X, m)


@njit(**INNER)
def lead_model(X, u):
    """The model that moves first: the leader of a band, the first living model of a squad."""
    US = xUS(X)
    MI = xMI(X)
    if US[u, US_TYPE] == SQUAD:
        first = US[u, US_FIRST]
        for m in range(first, first + US[u, US_N]):
            if MI[m, MI_ALIVE] == 1:
                return m
        return -1
    m = US[u, US_LEAD]
    return m if MI[m, MI_ALIVE] == 1 else -1


@njit(**INNER)
def on_field(X, u):
    return xUI(X)[u, UI_STATUS] == 0


@njit(**INNER)
def operational(X, u):
    """ "Combat Value": on the battlefield and without an Escape Marker."""
    UI = xUI(X)
    return UI[u, UI_STATUS] == 0 and UI[u, UI_MK + MK_ESCAPE] == 0


@njit(**INLINE)
def can_activate(X, u, side):
    """ "Activation Phase": a unit of ``side`` on the battlefield, not yet activated this
    round and without an Escape Marker."""
    UI = xUI(X)
    return (
        xUS(X)[u, US_SIDE] == side
        and UI[u, UI_STATUS] == 0
        and UI[u, UI_ACT] == 0
        and UI[u, UI_MK + MK_ESCAPE] == 0
    )


@njit(**INNER)
def unit_ini(X, u, leader_only):
    """A unit's INI for the combat value (a band: sum of its models' INI, or the leader's)."""
    US = xUS(X)
    MI = xMI(X)
    first = US[u, US_FIRST]
    if US[u, US_TYPE] == SQUAD:
        lm = lead_model(X, u)
        return MI[lm, MI_CS + ST_INI] if lm >= 0 else 0
    total = np.int64(0)
    for m in range(first, first + US[u, US_N]):
        if MI[m, MI_ALIVE] == 1:
            if leader_only == 1 and m != US[u, US_LEAD]:
                continue
            total += MI[m, MI_CS + ST_INI]
    return total


@njit(**INNER)
def combat_value(X, side, leader_only):
    """ "Combat Value": sum of the INI of a side's operational units."""
    US = xUS(X)
    total = np.int64(0)
    for u in range(US.shape[0]):
        if US[u, US_SIDE] == side and operational(X, u):
            total += unit_ini(X, u, leader_only)
    return total


# ---------------------------------------------------------- victory points
@njit(**INNER)
def award_vp(X, side, amount, reason, unit):
    """Victory points to ``side`` (0 unit disabled, 1 bonus, 2 mission, 3 escape at the end)."""
    G = xG(X)
    if side < 0 or amount == 0:
        return
    G[G_VP0 + side] += amount
    if reason == 2:
        G[G_MVP0 + side] += amount
    if unit >= 0:
        xUI(X)[unit, UI_VP] += amount
    ev(X, EV_VP, side, unit, -1, -1, -1, amount, reason, G[G_VP0 + side], 0, 0, 0)


@njit(**INNER)
def credit_disabled(X, side, points, unit, victim):
    """ "Disabled units": point costs as victory points; "Bonus": 30 VP once for 100 points or
    all units of the opposing player."""
    OPT = xOPT(X)
    G = xG(X)
    if side < 0:
        return
    award_vp(X, side, points, np.int64(0), unit)
    G[G_DIS0 + side] += points
    # take out mission: the side's named target
    if OPT[O_MISSIONS] == 1 and victim >= 0 and G[G_TARGET0 + side] == victim:
        MIS = xMIS(X)
        k = G[G_MIS0 + side]
        if MIS[k, M_KIND] == MIS_TAKEOUT and G[G_DONE0 + side] == 0:
            G[G_DONE0 + side] = 1
            award_vp(X, side, np.int64(MIS[k, M_VP]), np.int64(2), unit)
    check_bonus(X, side)


@njit(**INNER)
def check_bonus(X, side):
    US = xUS(X)
    G = xG(X)
    if G[G_BONUS0 + side] == 1:
        return
    all_gone = np.bool_(True)
    for v in range(US.shape[0]):
        if US[v, US_SIDE] != side and xUI(X)[v, UI_STATUS] == 0:
            all_gone = np.bool_(False)
            break
    if G[G_DIS0 + side] >= BONUS_POINTS or all_gone:
        G[G_BONUS0 + side] = 1
        award_vp(X, side, np.int64(BONUS_VP), np.int64(1), np.int64(-1))


# --------------------------------------------------------------- casualties
@njit(**INNER)
def drop_objects(X, u, x, y):
    """ "Object": carried objects stay where the unit's last model was removed."""
    UI = xUI(X)
    G = xG(X)
    GF = xGF(X)
    if UI[u, UI_CARRY] == 0:
        return
    for s in range(2):
        if G[G_CARRIER0 + s] == u:
            G[G_CARRIER0 + s] = -2  # dropped: picking it up again costs no AP
            GF[GF_OBJX0 + 2 * s] = x
            GF[GF_OBJY0 + 2 * s] = y
    UI[u, UI_CARRY] = 0


@njit(**INNER)
def _take_off(X, m, credit_side):
    MF = xMF(X)
    MI = xMI(X)
    mark_moved(X)
    MI[m, MI_CREDIT] = credit_side
    MI[m, MI_ALIVE] = 0
    MI[m, MI_ENG] = 0
    MF[m, MF_X] = OFFBOARD - 10.0 * m
    MF[m, MF_Y] = OFFBOARD


@njit(**INNER)
def disable_unit(X, u, credit_side, credit_unit, escaped):
    """Remove a whole unit ("Casualties"; escaped units: "Escape and Rescue") and credit VP."""
    SI = xSI(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    if UI[u, UI_STATUS] != 0:
        return
    first = US[u, US_FIRST]
    points = US[u, US_POINTS] if US[u, US_TYPE] == SQUAD else 0
    lx = np.float64(-1.0)
    ly = np.float64(-1.0)
    for m in range(first, first + US[u, US_N]):
        if MI[m, MI_ALIVE] == 1:
            if US[u, US_TYPE] != SQUAD:
                points += SI[m, SI_POINTS]
            lx = MF[m, MF_X]
            ly = MF[m, MF_Y]
            _take_off(X, m, credit_side)
            ev(X, EV_CASUALTY, US[u, US_SIDE], u, m, -1, -1, escaped, 0, 0, 0, 0, 0)
    if lx >= 0.0:
        drop_objects(X, u, lx, ly)
    UI[u, UI_STATUS] = 2 if escaped == 1 else 1
    UI[u, UI_ENG] = 0
    UI[u, UI_CREDIT] = credit_side
    for k in range(7):
        UI[u, UI_MK + k] = 0
    ev(X, EV_DISABLED, US[u, US_SIDE], u, -1, -1, -1, credit_side, points, escaped, 0, 0, 0)
    credit_disabled(X, credit_side, points, credit_unit, u)
    refresh_engaged(X)


@njit(**INNER)
def remove_model(X, m, credit_side, credit_unit):
    """ "Casualties": a model whose last HP box is marked is removed.  A band's leader takes
    the band with it; an apprentice alone is worth its own points; a squad (and its points)
    is disabled with its last model."""
    SI = xSI(X)
    US = xUS(X)
    MI = xMI(X)
    u = SI[m, SI_UNIT]
    role = SI[m, SI_ROLE]
    if role == R_APPRENTICE:
        _take_off(X, m, credit_side)
        ev(X, EV_CASUALTY, SI[m, SI_SIDE], u, m, -1, -1, 0, 0, 0, 0, 0, 0)
        credit_disabled(X, credit_side, SI[m, SI_POINTS], credit_unit, np.int64(-1))
        ev(X, EV_DISABLED, SI[m, SI_SIDE], u, m, -1, -1, credit_side, SI[m, SI_POINTS], 0, 0, 0, 0)
        refresh_engaged(X)
        return
    if US[u, US_TYPE] == SQUAD:
        left = np.int64(0)
        first = US[u, US_FIRST]
        for k in range(first, first + US[u, US_N]):
            if k != m and MI[k, MI_ALIVE] == 1:
                left += 1
        if left > 0:
            _take_off(X, m, np.int64(-1))
            ev(X, EV_CASUALTY, SI[m, SI_SIDE], u, m, -1, -1, 0, 0, 0, 0, 0, 0)
            refresh_engaged(X)
            return
    disable_unit(
        X, u, credit_side, credit_unit, np.int64(0)
    )  # hero, vehicle, leader, last squad model


@njit(**INNER)
def wound_model(X, m, w, credit_side, credit_unit):
    """Mark ``w`` HP boxes of model ``m`` ("Health Points"); returns 1 when it is removed."""
    SI = xSI(X)
    MI = xMI(X)
    UI = xUI(X)
    if w <= 0 or MI[m, MI_ALIVE] == 0:
        return 0
    hp = SI[m, SI_HP]
    w = min(w, hp - MI[m, MI_WOUNDS])
    MI[m, MI_WOUNDS] += w
    MI[m, MI_TAKEN] += w
    u = SI[m, SI_UNIT]
    UI[u, UI_TAKEN] += w
    if credit_unit >= 0:
        UI[credit_unit, UI_DEALT] += w
    ev(X, EV_WOUND, SI[m, SI_SIDE], u, m, credit_unit, -1, w, hp - MI[m, MI_WOUNDS], 0, 0, 0, 0)
    if MI[m, MI_WOUNDS] >= hp:
        remove_model(X, m, credit_side, credit_unit)
        return 1
    refresh_model(X, m)
    for k in range(SI[m, SI_NHE]):
        box = SI[m, SI_HE + 3 * k]
        if MI[m, MI_WOUNDS] >= box > MI[m, MI_WOUNDS] - w:
            ev(
                X,
                EV_EFFECT,
                SI[m, SI_SIDE],
                u,
                m,
                -1,
                -1,
                SI[m, SI_HE + 3 * k + 1],
                SI[m, SI_HE + 3 * k + 2],
                box,
                0,
                0,
                0,
            )
    return 0


@njit(**INNER)
def damage_unit(X, u, amount, credit_side, dmg_red):
    """Damage to a unit as a whole (Fire Markers): its lead model, spilling over in a squad."""
    US = xUS(X)
    MI = xMI(X)
    left = max(amount - dmg_red, 0)
    first = US[u, US_FIRST]
    while left > 0 and xUI(X)[u, UI_STATUS] == 0:
        target = np.int64(-1)
        if US[u, US_TYPE] == SQUAD:
            for m in range(first, first + US[u, US_N]):
                if MI[m, MI_ALIVE] == 1:
                    target = m
                    break
        else:
            target = lead_model(X, u)
        if target < 0:
            break
        room = xSI(X)[target, SI_HP] - MI[target, MI_WOUNDS]
        w = min(room, left)
        p_wound(X, target, w, credit_side, np.int64(-1))
        left -= w
        if US[u, US_TYPE] != SQUAD:
            break


# ------------------------------------------------------------------ morale
@njit(**INNER)
def lose_mp(X, u, amount, credit_side):
    """Mark ``amount`` MP boxes ("Health Points / Morale Points"); the Escape box gives the
    Escape Marker and the escape movement.  ``credit_side`` erased the MP (VP on escape)."""
    US = xUS(X)
    UI = xUI(X)
    mp = US[u, US_MP]
    if mp <= 0 or amount <= 0 or UI[u, UI_STATUS] != 0:
        return
    before = UI[u, UI_MPLOST]
    after = min(mp, before + amount)
    UI[u, UI_MPLOST] = after
    ev(X, EV_MORALE, US[u, US_SIDE], u, -1, -1, -1, after - before, after, mp, 0, 0, 0)
    escape = np.bool_(False)
    for k in range(US[u, US_NME]):
        box = US[u, US_ME + 3 * k]
        if before < box <= after:
            stat = US[u, US_ME + 3 * k + 1]
            if stat == EFFECT_ESCAPE:
                escape = np.bool_(True)
            else:
                ev(
                    X,
                    EV_EFFECT,
                    US[u, US_SIDE],
                    u,
                    -1,
                    -1,
                    -1,
                    stat,
                    US[u, US_ME + 3 * k + 2],
                    box,
                    1,
                    0,
                    0,
                )
    refresh_unit(X, u)
    if escape and UI[u, UI_MK + MK_ESCAPE] == 0:
        give_escape(X, u, credit_side)


@njit(**INNER)
def restore_mp(X, u, amount):
    """Restore MP; "The Escape Marker is removed as soon as the unit restores at least 1 MP"."""
    US = xUS(X)
    UI = xUI(X)
    if amount <= 0 or UI[u, UI_STATUS] != 0:
        return
    before = UI[u, UI_MPLOST]
    after = max(before - amount, 0)
    UI[u, UI_MPLOST] = after
    if before > after:
        ev(
            X,
            EV_MORALE,
            US[u, US_SIDE],
            u,
            -1,
            -1,
            -1,
            after - before,
            after,
            US[u, US_MP],
            0,
            0,
            0,
        )
        refresh_unit(X, u)
        if UI[u, UI_MK + MK_ESCAPE] > 0:
            UI[u, UI_MK + MK_ESCAPE] = 0
            UI[u, UI_ESC_CREDIT] = -1
            ev(X, EV_MARKER, US[u, US_SIDE], u, -1, -1, -1, MK_ESCAPE, -1, 0, 0, 0, 0)


@njit(**INNER)
def give_escape(X, u, credit_side):
    """ "Escape and Rescue": Escape Marker, Shelter Marker removed, objects dropped, and the
    escape movement at once (even out of close combat)."""
    US = xUS(X)
    UI = xUI(X)
    UI[u, UI_MK + MK_ESCAPE] = 1
    UI[u, UI_ESC_CREDIT] = credit_side
    ev(X, EV_MARKER, US[u, US_SIDE], u, -1, -1, -1, MK_ESCAPE, 1, 1, credit_side, 0, 0)
    if UI[u, UI_MK + MK_SHELTER] > 0:
        UI[u, UI_MK + MK_SHELTER] = 0
        ev(X, EV_MARKER, US[u, US_SIDE], u, -1, -1, -1, MK_SHELTER, -1, 0, 0, 0, 0)
    p_escape_move(X, u)


@njit(**INNER)
def self_credit(X, u):
    """Side credited when a unit's own action erased its last MP (retreat)."""
    OPT = xOPT(X)
    return 1 - xUS(X)[u, US_SIDE] if OPT[O_OWN_ESCAPE_VP] == 1 else -1


# ----------------------------------------------------------------- markers
@njit(**BY_ADDRESS)
def add_marker(X, u, kind, n, credit_side):
    """ "Status Effects and Status Markers" (bands: on the leader only; squads: per unit)."""
    US = xUS(X)
    UI = xUI(X)
    if UI[u, UI_STATUS] != 0 or n <= 0:
        return
    col = UI_MK + kind
    if kind == MK_SHELTER:
        if UI[u, UI_MK + MK_ESCAPE] > 0 or UI[u, col] > 0:
            return  # "Units with an Escape Marker may not receive Shelter Markers"; max 1
        UI[u, col] = 1
    elif kind == MK_ESCAPE:
        if UI[u, col] == 0:
            give_escape(X, u, credit_side)
        return
    elif kind == MK_RADIATION:
        if UI[u, col] > 0:
            return
        UI[u, col] = 1
        refresh_unit(X, u)
    elif kind == MK_DESPAIR:
        UI[u, col] += n
        ev(X, EV_MARKER, US[u, US_SIDE], u, -1, -1, -1, kind, n, UI[u, col], 0, 0, 0)
        for _ in range(n):
            before = UI[u, UI_MPLOST]
            lose_mp(X, u, np.int64(DESPAIR_MP), credit_side)
            UI[u, UI_DESPMP] += UI[u, UI_MPLOST] - before
        return
    elif kind == 6:  # Loading: at most one
        UI[u, col] = 1
    else:
        UI[u, col] += n
    ev(X, EV_MARKER, US[u, US_SIDE], u, -1, -1, -1, kind, n, UI[u, col], 0, 0, 0)


@njit(**BY_ADDRESS)
def remove_marker(X, u, kind, n):
    UI = xUI(X)
    col = UI_MK + kind
    take = min(n, UI[u, col])
    if take <= 0:
        return
    UI[u, col] -= take
    ev(X, EV_MARKER, xUS(X)[u, US_SIDE], u, -1, -1, -1, kind, -take, UI[u, col], 0, 0, 0)
    if kind == MK_RADIATION:
        refresh_unit(X, u)


@njit(**INNER)
def check_despair(X):
    """ "Despair Marker": removed (and its MP restored) once the unit is 20 cm from all
    opposing units."""
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    for u in range(US.shape[0]):
        if UI[u, UI_STATUS] != 0 or UI[u, UI_MK + MK_DESPAIR] == 0:
            continue
        near = np.bool_(False)
        first = US[u, US_FIRST]
        for m in range(first, first + US[u, US_N]):
            if MI[m, MI_ALIVE] == 0:
                continue
            for o in range(US[u, US_OPP_LO], US[u, US_OPP_HI]):
                if MI[o, MI_ALIVE] == 0:
                    continue
                if (
                    edge_distance(
                        MF[m, MF_X], MF[m, MF_Y], SF[m, SF_R], MF[o, MF_X], MF[o, MF_Y], SF[o, SF_R]
                    )
                    < DESPAIR_RANGE
                ):
                    near = np.bool_(True)
                    break
            if near:
                break
        if not near:
            p_remove_marker(X, u, np.int64(MK_DESPAIR), UI[u, UI_MK + MK_DESPAIR])
            back = UI[u, UI_DESPMP]
            UI[u, UI_DESPMP] = 0
            restore_mp(X, u, back)


# ------------------------------------------------------------- engagement
@njit(**INNER)
def mark_moved(X):
    """A model moved, was placed or removed: the engagement flags need a refresh, and the
    walk's neighbour lists are out of date."""
    G = xG(X)
    G[G_ENG_OK] = 0
    G[G_MOVES] += 1


@njit(**INNER)
def forget_walks(X):
    """Drop the walk's neighbour lists, the greedy's remembered dry walks and its kept
    attack values (``WS_WKEY``) (a new match, a rollout's copied state, a hand-built
    position): their key, ``G_MOVES``, is only unique
    within one line of play."""
    WS = xWS(X)
    WS[WS_NEAR_KEY] = -1.0
    WS[WS_REACH_KEY] = -1.0
    WS[WS_UNOVERLAP_KEY] = -1.0
    WS[WS_WKEY] = -1.0
    WS[WS_ENG] = -1.0


@njit(**INLINE)
def _neighbours(X, m, x, y, budget):
    """The other living models and the terrain pieces a move of model ``m`` from (x, y) of
    at most ``budget`` cm can touch or cross, in index order: a model's centre never gets
    farther than ``budget`` from the start, so anything farther than that plus the contact
    distance (plus 1 mm, far above rounding) plays no part in :func:`walk`.  Kept for the
    next walk from the same point while no model moves (the moves scored for one decision
    all start there)."""
    SI = xSI(X)
    SF = xSF(X)
    MF = xMF(X)
    MI = xMI(X)
    G = xG(X)
    TER = xTER(X)
    WS = xWS(X)
    WI = xWI(X)
    key = WS[WS_NEAR_KEY : WS_NEAR_KEY + 5]
    if key[0] == m and key[1] == x and key[2] == y and key[3] == budget and key[4] == G[G_MOVES]:
        return
    r = SF[m, SF_R]
    nm = np.int64(0)
    for o in range(SI.shape[0]):
        if o == m or MI[o, MI_ALIVE] == 0:
            continue
        reach = budget + r + SF[o, SF_R] + max(TOUCH_GAP, KEEP_GAP) + 0.1
        if (MF[o, MF_X] - x) ** 2 + (MF[o, MF_Y] - y) ** 2 <= reach * reach:
            WI[WI_NEAR + 2 + nm] = o
            nm += 1
    npc = np.int64(0)
    for p in range(G[G_NT]):
        # the walk tests the centre against solid pieces grown by r (a rectangle, so its
        # corners reach r * sqrt(2) out) and against the other pieces as they are
        grow = r if TER[p, TSOLID] > 0.5 else 0.0
        x0 = TER[p, TX0] - grow
        y0 = TER[p, TY0] - grow
        x1 = TER[p, TX1] + grow
        y1 = TER[p, TY1] + grow
        if circle_rect_gap(x, y, budget + 0.1, x0, y0, x1, y1) <= 0.0:
            WI[WI_NEAR + 2 + MAX_MODELS + npc] = p
            npc += 1
    WI[WI_NEAR] = nm
    WI[WI_NEAR + 1] = npc
    key[0] = m
    key[1] = x
    key[2] = y
    key[3] = budget
    key[4] = G[G_MOVES]


@njit(**INNER)
def refresh_engaged(X):
    """ "Battle and Handling Hits": units count as in close combat when B2B with an opposing
    unit.  Counts opposing contacts per model and flags units.

    Engagement depends only on where the living models stand: every write of a position or
    a removal clears ``G_ENG_OK`` (:func:`mark_moved`), and a refresh with nothing changed
    since the last one returns at once.  The contacts of each model are kept as a bit mask
    of the opposing models it touches (``WI_ENG_MASK``), for the positions and lives of the
    last refresh (``WS_ENG``): a refresh tests again only the pairs with a model that moved,
    fell or came back since (compared by value, so nothing is missed), the other pairs'
    answers are the same."""
    G = xG(X)
    if G[G_ENG_OK] == 1:
        return
    G[G_ENG_OK] = 1
    SI = xSI(X)
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    WS = xWS(X)
    WI = xWI(X)
    n = SI.shape[0]
    mask = WI[WI_ENG_MASK : WI_ENG_MASK + n]
    cnt = WI[WI_ENG_CNT : WI_ENG_CNT + n]
    snap = WS[WS_ENG + 1 : WS_ENG + 1 + 3 * n]
    if WS[WS_ENG] != 1.0:  # no snapshot (a new match, a copied state): every model is new
        WS[WS_ENG] = 1.0
        for m in range(n):
            mask[m] = 0
            cnt[m] = 0
            snap[3 * m] = -1.0  # never a life value: the model is tested below
    for m in range(n):
        alive = MI[m, MI_ALIVE]
        x = MF[m, MF_X]
        y = MF[m, MF_Y]
        q = 3 * m
        if snap[q] == alive and (alive == 0 or (snap[q + 1] == x and snap[q + 2] == y)):
            continue
        snap[q] = alive
        snap[q + 1] = x
        snap[q + 2] = y
        new = np.int64(0)
        if alive == 1:
            side = SI[m, SI_SIDE]
            for o in range(n):
                if MI[o, MI_ALIVE] == 0 or SI[o, SI_SIDE] == side:
                    continue
                if bases_within(MF, SF, min(m, o), max(m, o), CONTACT):
                    new |= np.int64(1) << o
        diff = new ^ mask[m]
        if diff == 0:
            continue
        mask[m] = new
        for o in range(n):
            bit = np.int64(1) << o
            if diff & bit:
                if new & bit:
                    mask[o] |= np.int64(1) << m
                    cnt[o] += 1
                    cnt[m] += 1
                else:
                    mask[o] &= ~(np.int64(1) << m)
                    cnt[o] -= 1
                    cnt[m] -= 1
    for u in range(US.shape[0]):
        UI[u, UI_ENG] = 0
    for m in range(n):
        MI[m, MI_ENG] = cnt[m]
        if cnt[m] > 0:
            UI[SI[m, SI_UNIT], UI_ENG] = 1


@njit(**INNER)
def in_contact(X, a, b):
    """Models ``a`` and ``b`` are B2B."""
    return bases_within(xMF(X), xSF(X), a, b, CONTACT)


# --------------------------------------------------------------- placement
@njit(**INNER)
def spot_free(X, m, x, y):
    """A base of model ``m`` fits at (x, y): on the battlefield, off solid terrain, no overlap."""
    SI = xSI(X)
    SF = xSF(X)
    MF = xMF(X)
    MI = xMI(X)
    G = xG(X)
    r = SF[m, SF_R]
    if not point_free_of_solids(xTER(X), G[G_NT], x, y, r):
        return False
    for o in range(SI.shape[0]):
        if o == m or MI[o, MI_ALIVE] == 0:
            continue
        dx = MF[o, MF_X] - x
        dy = MF[o, MF_Y] - y
        rr = r + SF[o, SF_R] - 1e-6
        if dx * dx + dy * dy < rr * rr:
            return False
    return True


#: the angles :func:`find_spot` tries, as cosines and sines (the same libm values the loop
#: computed at every call before)
SPOT_STEPS = 24
_SPOT_COS = np.array([math.cos(2.0 * math.pi * k / SPOT_STEPS) for k in range(SPOT_STEPS)])
_SPOT_SIN = np.array([math.sin(2.0 * math.pi * k / SPOT_STEPS) for k in range(SPOT_STEPS)])


@njit(**INNER)
def find_spot(X, m, cx, cy, dist, px, py, nx, ny, nd, avoid_side):
    """Best free spot for model ``m`` on the circle of radius ``dist`` around (cx, cy).

    Preference: closest to (px, py).  If ``nd`` > 0 the spot must also lie within ``nd``
    (centre distance) of (nx, ny).  Spots closer than ``KEEP_GAP`` to a model of
    ``avoid_side`` (-1: none) are refused (no accidental close combat).
    Returns (found, x, y).
    """
    SF = xSF(X)
    MF = xMF(X)
    MI = xMI(X)
    r = SF[m, SF_R]
    # the spots in order of distance to (px, py), the first on ties, as the loop over the
    # angles keeping the closest free one found: the first free one is the answer
    D = xWS(X)[WS_SPOT : WS_SPOT + SPOT_STEPS]
    for k in range(SPOT_STEPS):
        x = cx + dist * _SPOT_COS[k]
        y = cy + dist * _SPOT_SIN[k]
        if nd > 0.0 and (x - nx) ** 2 + (y - ny) ** 2 > nd * nd:
            D[k] = np.inf
        else:
            D[k] = (x - px) ** 2 + (y - py) ** 2
    for _ in range(SPOT_STEPS):
        kb = np.int64(-1)
        bd = np.float64(1e30)
        for k in range(SPOT_STEPS):
            if D[k] < bd:
                bd = D[k]
                kb = k
        if kb < 0:
            break
        D[kb] = np.inf
        x = cx + dist * _SPOT_COS[kb]
        y = cy + dist * _SPOT_SIN[kb]
        if not spot_free(X, m, x, y):
            continue
        if avoid_side >= 0:
            bad = np.bool_(False)
            lo, hi = side_models(X, avoid_side)
            for o in range(lo, hi):
                if o == m or MI[o, MI_ALIVE] == 0:
                    continue
                if edge_distance(x, y, r, MF[o, MF_X], MF[o, MF_Y], SF[o, SF_R]) < KEEP_GAP:
                    bad = np.bool_(True)
                    break
            if bad:
                continue
        return np.bool_(True), x, y
    return np.bool_(False), np.float64(0.0), np.float64(0.0)


@njit(**INNER)
def spot_near(X, m, cx, cy, dist, px, py, avoid_side):
    """:func:`find_spot` without the second distance limit."""
    zero = np.float64(0.0)
    return find_spot(X, m, cx, cy, dist, px, py, zero, zero, zero, avoid_side)


@njit(**INNER)
def place(X, m, x, y):
    MF = xMF(X)
    mark_moved(X)
    MF[m, MF_X] = x
    MF[m, MF_Y] = y


@njit(**INNER)
def squad_coherent(X, m):
    """ "Formation" (squads): within 2 cm of another living model of the squad."""
    SI = xSI(X)
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    u = SI[m, SI_UNIT]
    first = US[u, US_FIRST]
    alone = np.bool_(True)
    for o in range(first, first + US[u, US_N]):
        if o == m or MI[o, MI_ALIVE] == 0:
            continue
        alone = np.bool_(False)
        if bases_within(MF, SF, m, o, SQUAD_GAP):
            return True
    return alone


@njit(**INNER)
def restore_formation(X, u, engaging):
    """ "Formation": apprentices B2B with their leader, squad models within 2 cm.

    ``engaging``: a model of a unit tied in close combat that touches no opposing model is
    moved into B2B with one if a free spot exists ("Engaging"; apprentices only where they
    still touch their leader).  Models that cannot be placed stay where they are.
    """
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    if UI[u, UI_STATUS] != 0:
        return
    side = US[u, US_SIDE]
    first = US[u, US_FIRST]
    lead = lead_model(X, u)
    if lead < 0:
        return
    for m in range(first, first + US[u, US_N]):
        if MI[m, MI_ALIVE] == 0 or m == lead:
            continue
        r = SF[m, SF_R]
        if engaging and UI[u, UI_ENG] == 1 and MI[m, MI_ENG] == 0:
            # the closest opposing model in contact with this unit
            done = np.bool_(False)
            best = np.float64(1e30)
            target = np.int64(-1)
            for o in range(US[u, US_OPP_LO], US[u, US_OPP_HI]):
                if MI[o, MI_ALIVE] == 0 or MI[o, MI_ENG] == 0:
                    continue
                touching_unit = np.bool_(False)
                for k in range(first, first + US[u, US_N]):
                    if MI[k, MI_ALIVE] == 1 and in_contact(X, k, o):
                        touching_unit = np.bool_(True)
                        break
                if not touching_unit:
                    continue
                d = (MF[o, MF_X] - MF[m, MF_X]) ** 2 + (MF[o, MF_Y] - MF[m, MF_Y]) ** 2
                if d < best:
                    best = d
                    target = o
            if target >= 0:
                dist = r + SF[target, SF_R] + TOUCH_GAP
                if US[u, US_TYPE] == BAND:
                    found, x, y = _touch_both(X, m, target, lead)
                else:
                    found, x, y = find_spot(
                        X,
                        m,
                        MF[target, MF_X],
                        MF[target, MF_Y],
                        dist,
                        MF[m, MF_X],
                        MF[m, MF_Y],
                        MF[lead, MF_X],
                        MF[lead, MF_Y],
                        np.float64(30.0),
                        np.int64(-1),
                    )
                if found:
                    place(X, m, x, y)
                    ev(X, EV_FORMATION, side, u, m, -1, target, mm(x), mm(y), 1, 0, 0, 0)
                    refresh_engaged(X)
                    done = np.bool_(True)
            if done:
                continue
        if US[u, US_TYPE] == BAND:
            if in_contact(X, m, lead):
                continue
            dist = r + SF[lead, SF_R] + TOUCH_GAP
            found, x, y = spot_near(
                X, m, MF[lead, MF_X], MF[lead, MF_Y], dist, MF[m, MF_X], MF[m, MF_Y], 1 - side
            )
            if not found:
                found, x, y = spot_near(
                    X,
                    m,
                    MF[lead, MF_X],
                    MF[lead, MF_Y],
                    dist,
                    MF[m, MF_X],
                    MF[m, MF_Y],
                    np.int64(-1),
                )
        elif US[u, US_TYPE] == SQUAD:
            if squad_coherent(X, m):
                continue
            dist = r + SF[lead, SF_R] + 1.0
            found, x, y = spot_near(
                X, m, MF[lead, MF_X], MF[lead, MF_Y], dist, MF[m, MF_X], MF[m, MF_Y], 1 - side
            )
            if not found:
                found, x, y = _near_squad(X, m, u, side)
        else:
            continue
        if found:
            place(X, m, x, y)
            ev(X, EV_FORMATION, side, u, m, -1, -1, mm(x), mm(y), 0, 0, 0, 0)
    _unoverlap(X, u)
    refresh_engaged(X)


@njit(**INNER)
def _near_squad(X, m, u, side):
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    first = US[u, US_FIRST]
    for o in range(first, first + US[u, US_N]):
        if o == m or MI[o, MI_ALIVE] == 0:
            continue
        for extra in (1.0, 1.9):
            found, x, y = spot_near(
                X,
                m,
                MF[o, MF_X],
                MF[o, MF_Y],
                SF[m, SF_R] + SF[o, SF_R] + extra,
                MF[m, MF_X],
                MF[m, MF_Y],
                1 - side,
            )
            if found:
                return True, x, y
    return False, 0.0, 0.0


@njit(**INNER)
def _touch_both(X, m, a, b):
    """A free spot for ``m`` touching both models ``a`` and ``b`` (circle intersections)."""
    SF = xSF(X)
    MF = xMF(X)
    r = SF[m, SF_R]
    ra = SF[a, SF_R] + r + TOUCH_GAP
    rb = SF[b, SF_R] + r + TOUCH_GAP
    ax = MF[a, MF_X]
    ay = MF[a, MF_Y]
    bx = MF[b, MF_X]
    by = MF[b, MF_Y]
    dx = bx - ax
    dy = by - ay
    d = math.sqrt(dx * dx + dy * dy)
    if d < 1e-9 or d > ra + rb or d < abs(ra - rb):
        return False, 0.0, 0.0
    t = (ra * ra - rb * rb + d * d) / (2.0 * d)
    h2 = ra * ra - t * t
    if h2 < 0.0:
        return False, 0.0, 0.0
    h = math.sqrt(h2)
    mx = ax + t * dx / d
    my = ay + t * dy / d
    best = np.float64(1e30)
    ox = np.float64(0.0)
    oy = np.float64(0.0)
    found = np.bool_(False)
    for sgn in (-1.0, 1.0):
        x = mx + sgn * h * (-dy / d)
        y = my + sgn * h * (dx / d)
        if not spot_free(X, m, x, y):
            continue
        dd = (x - MF[m, MF_X]) ** 2 + (y - MF[m, MF_Y]) ** 2
        if dd < best:
            best = dd
            ox = x
            oy = y
            found = np.bool_(True)
    return found, ox, oy


# ---------------------------------------------------------------- movement
@njit(**INNER)
def in_water(X, x, y):
    """The model's centre is in a body of water (read as "50% or more of the base")."""
    TER = xTER(X)
    for p in range(xG(X)[G_NT]):
        if (
            TER[p, TK] == T_WATER
            and TER[p, TX0] < x < TER[p, TX1]
            and TER[p, TY0] < y < TER[p, TY1]
        ):
            return True
    return False


@njit(**INNER)
def move_budget(X, m, unmodified):
    """Centimetres the model's centre may travel in one movement.

    "Measure Properly!": "During a movement action the size of the base of the activated
    model counts to the travelled distance" -- read by default (``O_BASE_COUNTS`` 0) as
    the centre travelling the full MOV, the reading that reproduces the rulebook's worked
    movement examples (Eleanor's water and difficult terrain); with ``O_BASE_COUNTS`` 1
    the base diameter is taken off the MOV of a movement action.  ``unmodified``: an
    escape movement, "performed with the unit's unmodified movement value (MOV)": the
    card's MOV, never reduced by the base.
    """
    SI = xSI(X)
    SF = xSF(X)
    OPT = xOPT(X)
    if unmodified:
        return SI[m, SI_MOV] / 10.0
    budget = xMI(X)[m, MI_CS + ST_MOV] / 10.0  # in mm
    if OPT[O_BASE_COUNTS] == 1:
        budget -= 2.0 * SF[m, SF_R]
    return max(budget, 0.0)


@njit(**INLINE)
def clear_of_box(ox, oy, rr, lo_x, hi_x, lo_y, hi_y):
    """A base of radius ``rr`` at (ox, oy) lies clear of the box (by a margin far above
    rounding): it cannot touch a segment inside the box."""
    return (
        ox + rr + 1e-6 < lo_x
        or ox - rr - 1e-6 > hi_x
        or oy + rr + 1e-6 < lo_y
        or oy - rr - 1e-6 > hi_y
    )


@njit(**INNER)
def walk(X, m, wx, wy, n, budget, mode, dry):
    """Move model ``m`` along a planned polyline, paying terrain costs ("4. Terrain").

    ``mode`` 0: an ordinary move, stopping short of every model of another unit
    (``KEEP_GAP`` from opposing ones, in contact with allied ones; the models of its own
    unit do not block, they are put back into formation afterwards); 1: a charge, ending
    B2B with the first opposing model touched ("Moving into Close Combat"); 2: an escape
    movement, which may leave the battlefield ("Edge of the battlefield ... Yes, if the
    unit is escaping").
    ``dry``: plan only (difficult terrain tests pass, nothing changes).

    Terrain, measured on the centre's path: small obstacles cost 5 cm each crossed;
    difficult terrain needs 1D6 at 5+ improved by TEC per piece, else the distance inside
    counts double; entering water halves the remaining movement once, starting in water
    halves the whole move; solid pieces stop the move (paths go around them).
    Returns (x, y, contact model or -1, escaped, wet, travelled).
    """
    SI = xSI(X)
    SF = xSF(X)
    MF = xMF(X)
    MI = xMI(X)
    TER = xTER(X)
    side = SI[m, SI_SIDE]
    own_unit = SI[m, SI_UNIT]
    r = SF[m, SF_R]
    x = MF[m, MF_X]
    y = MF[m, MF_Y]
    tec = MI[m, MI_CS + ST_TEC]
    left = budget
    wet = np.bool_(False)
    halved = np.bool_(False)
    # difficult pieces failed (all 0 between walks: a walk clears what it set)
    failed = xWI(X)[WI_WALK_FAILED : WI_WALK_FAILED + 32]
    nfailed = np.int64(0)  # failed pieces the centre is in: distance counts double
    _neighbours(X, m, x, y, budget)
    WI = xWI(X)
    near_m = WI[WI_NEAR + 2 : WI_NEAR + 2 + WI[WI_NEAR]]
    near_p = WI[WI_NEAR + 2 + MAX_MODELS : WI_NEAR + 2 + MAX_MODELS + WI[WI_NEAR + 1]]
    for p in near_p:
        if TER[p, TX0] < x < TER[p, TX1] and TER[p, TY0] < y < TER[p, TY1]:
            if TER[p, TK] == T_WATER and not halved:
                left *= 0.5
                halved = np.bool_(True)
                wet = np.bool_(True)
            elif TER[p, TK] == T_DIFFICULT and not dry:
                failed[p] = 0 if _difficult_test(X, m, side, tec) else 1
                nfailed += failed[p]
    contact = np.int64(-1)
    escaped = np.bool_(False)
    travelled = np.float64(0.0)
    own_low = _own_edge_low(X, side)
    ev_t = xWS(X)[WS_WALK_T : WS_WALK_T + 64]
    ev_k = xWI(X)[WI_WALK_K : WI_WALK_K + 64]  # piece index * 2 + (0 enter, 1 exit)
    for i in range(n):
        tx = wx[i]
        ty = wy[i]
        vx = tx - x
        vy = ty - y
        seg = math.sqrt(vx * vx + vy * vy)
        if seg < 1e-9:
            continue
        # first model contact on this segment
        t_stop = np.float64(2.0)
        c_model = np.int64(-1)
        lo_x = min(x, tx)
        hi_x = max(x, tx)
        lo_y = min(y, ty)
        hi_y = max(y, ty)
        for o in near_m:
            if SI[o, SI_UNIT] == own_unit:
                # its own unit's models are brought back into formation afterwards ("You
                # first move your leader. Afterwards you have to bring the apprentices in
                # formation"; a squad moves as a formation): they do not block
                continue
            enemy = SI[o, SI_SIDE] != side
            gap = np.float64(TOUCH_GAP)
            if enemy and mode != 1:
                gap = np.float64(KEEP_GAP)
            rr = r + SF[o, SF_R] + gap
            ox = MF[o, MF_X]
            oy = MF[o, MF_Y]
            if clear_of_box(ox, oy, rr, lo_x, hi_x, lo_y, hi_y):
                continue
            t = first_contact(x, y, vx, vy, ox, oy, rr)
            if t < t_stop:
                t_stop = t
                c_model = o
        # solid pieces, and the terrain entries and exits (sorted below): one pass
        ne = np.int64(0)
        for p in near_p:
            if TER[p, TSOLID] >= 0.5:
                t0, t1 = seg_rect(
                    x, y, tx, ty, TER[p, TX0] - r, TER[p, TY0] - r, TER[p, TX1] + r, TER[p, TY1] + r
                )
                if t1 - t0 > 1e-9 and t0 < t_stop:
                    t_stop = max(t0 - 1e-6, 0.0)
                    c_model = np.int64(-1)
            k = TER[p, TK]
            if k != T_OBSTACLE and k != T_DIFFICULT and k != T_WATER:
                continue
            t0, t1 = seg_rect(x, y, tx, ty, TER[p, TX0], TER[p, TY0], TER[p, TX1], TER[p, TY1])
            if t1 - t0 <= 1e-9:
                continue
            if t0 > 1e-9:
                ev_t[ne] = t0
                ev_k[ne] = 2 * p
                ne += 1
            if k == T_DIFFICULT and t1 < 1.0:
                ev_t[ne] = t1
                ev_k[ne] = 2 * p + 1
                ne += 1
        # battlefield edge
        t_edge = np.float64(2.0)
        edge_escape = np.bool_(False)
        if vx < 0.0:
            t_edge = min(t_edge, (r - x) / vx)
        elif vx > 0.0:
            t_edge = min(t_edge, (BOARD - r - x) / vx)
        if vy < 0.0:
            te = (r - y) / vy
            if te < t_edge:
                t_edge = te
                edge_escape = own_low
        elif vy > 0.0:
            te = (BOARD - r - y) / vy
            if te < t_edge:
                t_edge = te
                edge_escape = not own_low
        if t_edge < t_stop:
            t_stop = max(t_edge, 0.0)
            c_model = -2 if (mode == 2 and edge_escape) else -1
        for a in range(1, ne):  # insertion sort of the terrain entries and exits
            tv = ev_t[a]
            kv = ev_k[a]
            b = a - 1
            while b >= 0 and ev_t[b] > tv:
                ev_t[b + 1] = ev_t[b]
                ev_k[b + 1] = ev_k[b]
                b -= 1
            ev_t[b + 1] = tv
            ev_k[b + 1] = kv
        t_end = min(t_stop, 1.0)
        cur = np.float64(0.0)
        stopped = np.bool_(False)
        for e in range(ne + 1):
            te = ev_t[e] if e < ne else t_end
            if te > t_end:
                te = t_end
            mult = np.float64(2.0) if nfailed > 0 else np.float64(1.0)
            cost = (te - cur) * seg * mult
            if cost > left:
                cur += left / (seg * mult)
                travelled += left / mult
                left = np.float64(0.0)
                stopped = np.bool_(True)
                break
            left -= cost
            travelled += (te - cur) * seg
            cur = te
            if e == ne or te >= t_end:
                break
            p = ev_k[e] // 2
            kind = TER[p, TK]
            if ev_k[e] % 2 == 1:
                nfailed -= failed[p]
                failed[p] = 0
            elif kind == T_OBSTACLE:
                if left < OBSTACLE_COST:
                    cur = max(cur - 1e-4, 0.0)
                    left = np.float64(0.0)
                    stopped = np.bool_(True)
                    break
                left -= OBSTACLE_COST
            elif kind == T_WATER:
                wet = np.bool_(True)
                if not halved:
                    left *= 0.5
                    halved = np.bool_(True)
            elif kind == T_DIFFICULT and not dry:
                nfailed -= failed[p]
                failed[p] = 0 if _difficult_test(X, m, side, tec) else 1
                nfailed += failed[p]
        x = x + vx * cur
        y = y + vy * cur
        if stopped:
            break
        if t_stop <= 1.0:
            if c_model == -2 and left > 0.0:
                escaped = np.bool_(True)
            elif c_model >= 0 and mode == 1 and SI[c_model, SI_SIDE] != side:
                contact = c_model
            break
    if not dry:
        for p in near_p:
            failed[p] = 0
        mark_moved(X)
        MF[m, MF_X] = x
        MF[m, MF_Y] = y
        if in_water(X, x, y):
            wet = np.bool_(True)
    return x, y, contact, escaped, wet, travelled


@njit(**INNER)
def _difficult_test(X, m, side, tec):
    """ "Difficult Terrain": 1D6 at 5+, improved by the unit's TEC (1+ at best)."""
    need = max(DIFFICULT_AT - tec, 1)
    die = d6(X)
    ok = die >= need
    ev(X, EV_DIFFICULT, side, -1, m, -1, -1, die, need, 1 if ok else 0, 0, 0, 0)
    return ok


@njit(**INNER)
def _own_edge_low(X, side):
    """True when ``side``'s own edge is y = 0."""
    swap = xG(X)[G_SWAP]
    return (side == 0) != (swap == 1)


@njit(**INNER)
def own_edge_y(X, side):
    return 0.0 if _own_edge_low(X, side) else BOARD


@njit(**INNER)
def in_own_zone(X, side, y, r, depth):
    """The base touches the side's first ``depth`` cm (deployment zone for 10)."""
    if _own_edge_low(X, side):
        return y - r <= depth
    return y + r >= BOARD - depth


@njit(**INNER)
def water_roll(X, m):
    """ "Bodies of Water": 1D6 after moving (or activating) in water; on a 1, 1 wound."""
    SI = xSI(X)
    die = d6(X)
    ev(
        X,
        EV_WATER,
        SI[m, SI_SIDE],
        SI[m, SI_UNIT],
        m,
        -1,
        -1,
        die,
        1 if die == 1 else 0,
        0,
        0,
        0,
        0,
    )
    if die == 1:
        p_wound(X, m, np.int64(1), np.int64(-1), np.int64(-1))


@njit(**INNER)
def plan_move(X, m, gx, gy, wx, wy):
    """The path of model ``m`` towards (gx, gy): :func:`plan_path` around solid pieces, then
    around the first allied model of another unit that blocks its first leg ("Movement
    does not have to be performed in a straight line"; models cannot be moved through).

    The detour follows the octagon circumscribed about the ally's base grown by the
    model's radius (its edges never touch it), turning towards the leg's end the shorter
    way (counter-clockwise on a tie), until the end is in clear view.  No detour when the
    leg's end itself is at the ally.  Returns (waypoints, length) like :func:`plan_path`.
    """
    SI = xSI(X)
    SF = xSF(X)
    MF = xMF(X)
    MI = xMI(X)
    US = xUS(X)
    x = MF[m, MF_X]
    y = MF[m, MF_Y]
    r = SF[m, SF_R]
    nw, length = plan_path(X, x, y, gx, gy, r, wx, wy)
    if nw + 8 > wx.shape[0]:
        return nw, length
    tx = wx[0]
    ty = wy[0]
    vx = tx - x
    vy = ty - y
    if vx * vx + vy * vy < 1e-12:
        return nw, length
    unit = SI[m, SI_UNIT]
    best = np.float64(2.0)
    b = np.int64(-1)
    lo_x = min(x, tx)
    hi_x = max(x, tx)
    lo_y = min(y, ty)
    hi_y = max(y, ty)
    # the allies of other units: the side's models before and after the unit's own
    mf = US[unit, US_FIRST]
    mn = US[unit, US_N]
    for k in range(US[unit, US_OWN_LO], US[unit, US_OWN_HI] - mn):
        o = k if k < mf else k + mn
        if MI[o, MI_ALIVE] == 0:
            continue
        rr = r + SF[o, SF_R] + TOUCH_GAP
        ox = MF[o, MF_X]
        oy = MF[o, MF_Y]
        if clear_of_box(ox, oy, rr, lo_x, hi_x, lo_y, hi_y):
            continue  # first_contact would return 2.0
        t = first_contact(x, y, vx, vy, ox, oy, rr)
        if t < best:
            best = t
            b = o
    if b < 0:
        return nw, length
    cx = MF[b, MF_X]
    cy = MF[b, MF_Y]
    rad = r + SF[b, SF_R] + TOUCH_GAP + DETOUR_GAP
    if (tx - cx) ** 2 + (ty - cy) ** 2 <= rad * rad:
        return nw, length
    ths = math.atan2(y - cy, x - cx)
    cross = (x - cx) * (ty - cy) - (y - cy) * (tx - cx)
    sgn = np.float64(-1.0) if cross < 0.0 else np.float64(1.0)
    rv = rad / math.cos(math.pi / 8.0)
    dx_ = xWS(X)[WS_DETOUR : WS_DETOUR + 8]
    dy_ = xWS(X)[WS_DETOUR + 8 : WS_DETOUR + 16]
    nd = np.int64(0)
    px = x
    py = y
    for k in range(8):
        th = ths + sgn * (math.pi / 8.0 + k * math.pi / 4.0)
        px = cx + rv * math.cos(th)
        py = cy + rv * math.sin(th)
        dx_[nd] = px
        dy_[nd] = py
        nd += 1
        if first_contact(px, py, tx - px, ty - py, cx, cy, rad - 0.01) > 1.0:
            break
    for i in range(nw - 1, -1, -1):
        wx[i + nd] = wx[i]
        wy[i + nd] = wy[i]
    total = np.float64(0.0)
    px = x
    py = y
    for i in range(nd):
        wx[i] = dx_[i]
        wy[i] = dy_[i]
    for i in range(nw + nd):
        total += math.sqrt((wx[i] - px) ** 2 + (wy[i] - py) ** 2)
        px = wx[i]
        py = wy[i]
    return nw + nd, total


@njit(**INNER)
def _unoverlap(X, u):
    """A model of unit ``u`` left on another base (a move passes through its own unit's
    models) goes to the nearest free spot, nearest its lead model among equals."""
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    side = US[u, US_SIDE]
    lead = lead_model(X, u)
    if lead < 0:
        return
    # every model of u was found free and no model has moved since (G_MOVES): nothing to do
    # (a squad's move ends with two passes, in restore_formation and after it)
    WS = xWS(X)
    G = xG(X)
    if WS[WS_UNOVERLAP_KEY] == u and WS[WS_UNOVERLAP_KEY + 1] == G[G_MOVES]:
        return
    all_free = np.bool_(True)
    first = US[u, US_FIRST]
    for m in range(first, first + US[u, US_N]):
        if MI[m, MI_ALIVE] == 0:
            continue
        x = MF[m, MF_X]
        y = MF[m, MF_Y]
        if spot_free(X, m, x, y):
            continue
        found = np.bool_(False)
        for d in (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 9.0):
            found, px, py = spot_near(
                X, m, x, y, d * SF[m, SF_R] / 1.5, MF[lead, MF_X], MF[lead, MF_Y], 1 - side
            )
            if found:
                place(X, m, px, py)
                ev(X, EV_FORMATION, side, u, m, -1, -1, mm(px), mm(py), 0, 0, 0, 0)
                break
        if not found:
            all_free = np.bool_(False)
    if all_free:  # a spot found is free of every model, so the earlier ones stay free
        WS[WS_UNOVERLAP_KEY] = u
        WS[WS_UNOVERLAP_KEY + 1] = G[G_MOVES]


@njit(**INNER)
def move_unit(X, u, gx, gy, mode, dry):
    """One movement of a unit towards (gx, gy); returns (contact model, x, y of the lead).

    "Action: Movement Action": a band moves its leader and puts the apprentices back in
    B2B with it (on a charge, where possible also B2B with the opposing models); a squad
    moves every model separately by the same offset and then restores its 2 cm formation;
    on a charge the other squad models engage models of the contacted unit within reach
    ("Characteristics when moving into close combat with a squad").
    ``mode`` as in :func:`walk`; an escape movement uses the unmodified MOV.
    """
    SI = xSI(X)
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    side = US[u, US_SIDE]
    lead = lead_model(X, u)
    if lead < 0:
        return -1, 0.0, 0.0, False
    wx = xWS(X)[WS_MOVE_WX : WS_MOVE_WX + 100]
    wy = xWS(X)[WS_MOVE_WY : WS_MOVE_WY + 100]
    sx = MF[lead, MF_X]
    sy = MF[lead, MF_Y]
    r = SF[lead, SF_R]
    nw, _ = plan_move(X, lead, gx, gy, wx, wy)
    budget = move_budget(X, lead, mode == 2)
    x, y, contact, escaped, wet, _ = p_walk(X, lead, wx, wy, nw, budget, mode, dry)
    if dry:
        return contact, x, y, escaped
    moved_x = x - sx
    moved_y = y - sy
    first = US[u, US_FIRST]
    n = US[u, US_N]
    if wet:
        MI[lead, MI_WATER] = 1
    if US[u, US_TYPE] == SQUAD:
        for m in range(first, first + n):
            if m == lead or MI[m, MI_ALIVE] == 0:
                continue
            ox = MF[m, MF_X]
            oy = MF[m, MF_Y]
            placed = np.bool_(False)
            if contact >= 0:
                cu = SI[contact, SI_UNIT]
                cf = US[cu, US_FIRST]
                best = np.float64(1e30)
                bx = np.float64(0.0)
                by = np.float64(0.0)
                mb = move_budget(X, m, np.bool_(False))
                for o in range(cf, cf + US[cu, US_N]):
                    if MI[o, MI_ALIVE] == 0:
                        continue
                    found, px, py = find_spot(
                        X,
                        m,
                        MF[o, MF_X],
                        MF[o, MF_Y],
                        SF[m, SF_R] + SF[o, SF_R] + TOUCH_GAP,
                        ox,
                        oy,
                        ox,
                        oy,
                        mb,
                        np.int64(-1),
                    )
                    if found:
                        d = (px - ox) ** 2 + (py - oy) ** 2
                        if d < best:
                            best = d
                            bx = px
                            by = py
                if best < 1e29:
                    place(X, m, bx, by)
                    placed = np.bool_(True)
            if not placed:
                mw, _ = plan_move(X, m, ox + moved_x, oy + moved_y, wx, wy)
                fmode = 1 if mode == 1 else (2 if mode == 2 else 0)
                _, _, _, _, fwet, _ = p_walk(
                    X, m, wx, wy, mw, move_budget(X, m, mode == 2), fmode, np.bool_(False)
                )
                if fwet:
                    MI[m, MI_WATER] = 1
        refresh_engaged(X)
        p_restore_formation(X, u, np.bool_(False))
        _unoverlap(X, u)
    elif US[u, US_TYPE] == BAND:
        refresh_engaged(X)
        for m in range(first, first + n):
            if m == lead or MI[m, MI_ALIVE] == 0:
                continue
            ox = MF[m, MF_X] + moved_x
            oy = MF[m, MF_Y] + moved_y
            found = np.bool_(False)
            if contact >= 0:
                found, px, py = _touch_both(X, m, contact, lead)
            if not found:
                found, px, py = spot_near(
                    X,
                    m,
                    x,
                    y,
                    SF[m, SF_R] + r + TOUCH_GAP,
                    ox,
                    oy,
                    -1 if contact >= 0 else 1 - side,
                )
            if found:
                place(X, m, px, py)
        _unoverlap(X, u)
    refresh_engaged(X)
    return contact, x, y, escaped


@njit(**INNER)
def escape_move(X, u):
    """ "Escape and Rescue": the escape movement, with the unmodified MOV, straight towards
    the own edge; costs 1 AP if available, does not count towards the round limit.  A unit
    passing the edge is removed as a casualty, its VP to the side that erased its last MP."""
    US = xUS(X)
    MI = xMI(X)
    UI = xUI(X)
    side = US[u, US_SIDE]
    lead = lead_model(X, u)
    if lead < 0:
        return
    pool_row = xSI(X)[lead, SI_POOL]
    if MI[pool_row, MI_AP] > 0:
        MI[pool_row, MI_AP] -= 1
    MF = xMF(X)
    lx = MF[lead, MF_X]
    ly = MF[lead, MF_Y]
    drop_objects(X, u, lx, ly)
    gy = -5.0 if _own_edge_low(X, side) else BOARD + 5.0
    _, x, y, escaped = p_move_unit(X, u, lx, gy, np.int64(2), np.bool_(False))
    ev(X, EV_ESCAPE_MOVE, side, u, lead, -1, -1, mm(x), mm(y), 1 if escaped else 0, 0, 0, 0)
    if escaped:
        disable_unit(X, u, UI[u, UI_ESC_CREDIT], np.int64(-1), np.int64(1))


@njit(**INNER)
def check_rescue(X, mover_unit):
    """ "Rescue": an allied unit ending a movement action B2B with an escaping unit; the
    escaping unit regains 1 MP and loses its Escape Marker."""
    US = xUS(X)
    MI = xMI(X)
    UI = xUI(X)
    side = US[mover_unit, US_SIDE]
    f = US[mover_unit, US_FIRST]
    for v in range(US.shape[0]):
        if v == mover_unit or US[v, US_SIDE] != side or UI[v, UI_STATUS] != 0:
            continue
        if UI[v, UI_MK + MK_ESCAPE] == 0:
            continue
        touching = np.bool_(False)
        vf = US[v, US_FIRST]
        for a in range(f, f + US[mover_unit, US_N]):
            if MI[a, MI_ALIVE] == 0:
                continue
            for b in range(vf, vf + US[v, US_N]):
                if MI[b, MI_ALIVE] == 1 and in_contact(X, a, b):
                    touching = np.bool_(True)
                    break
            if touching:
                break
        if touching:
            ev(X, EV_RESCUE, side, v, -1, mover_unit, -1, mover_unit, 0, 0, 0, 0, 0)
            restore_mp(X, v, np.int64(1))


@njit(**INNER)
def refill(X):
    """ "Fill up action points (AP) and reaction points (RP)" and reset round limits."""
    SI = xSI(X)
    MI = xMI(X)
    for m in range(SI.shape[0]):
        if SI[m, SI_POOL] != m:
            continue
        MI[m, MI_AP] = MI[m, MI_CS + ST_AP]
        MI[m, MI_RP] = MI[m, MI_CS + ST_RP]
        MI[m, MI_MOVES] = 0
        MI[m, MI_CC] = 0
        MI[m, MI_RANGED] = 0


@njit(**INNER)
def touches_rect(x, y, r, x0, y0, x1, y1):
    return circle_rect_gap(x, y, r, x0, y0, x1, y1) <= CONTACT


@njit(**INLINE)
def unit_points_alive(X, u):
    """Victory points the unit would still give if disabled now."""
    SI = xSI(X)
    US = xUS(X)
    MI = xMI(X)
    if xUI(X)[u, UI_STATUS] != 0:
        return 0
    if US[u, US_TYPE] == SQUAD:
        return US[u, US_POINTS]
    total = np.int64(0)
    first = US[u, US_FIRST]
    for m in range(first, first + US[u, US_N]):
        if MI[m, MI_ALIVE] == 1:
            total += SI[m, SI_POINTS]
    return total


@njit(**INNER)
def block_for(X, t, ranged, cover):
    """Block dice, block threshold and damage reduction for hits on model ``t``.

    "Blocking Hits": DEF dice at 5+.  "Cover" (kinds not cumulative, first that applies):
    a Shelter Marker gives +1 DEF and blocks at 4+ against ranged attacks and halves DEF
    (rounded down) in close combat; otherwise cover through obstacles gives +2 DEF against
    ranged attacks.  (High ground does not arise: every model stands on the ground level.)
    Shelter Markers do not protect apprentices ("Only the leader can be affected by status
    effects").  Same thresholds as ``rolls.attack_thresholds``.
    """
    SI = xSI(X)
    MI = xMI(X)
    UI = xUI(X)
    u = SI[t, SI_UNIT]
    dfn = MI[t, MI_CS + ST_DEF]
    at = np.int64(BLOCK_AT)
    sheltered = SI[t, SI_MARKERS] == 1 and UI[u, UI_MK + MK_SHELTER] > 0
    if ranged:
        if sheltered:
            dfn += COVER_SHELTER
            at = np.int64(SHELTER_BLOCK_AT)
        elif cover:
            dfn += COVER_OBSTACLE
    elif sheltered:
        dfn //= 2
    return dfn, at, SI[t, SI_DMGRED]
