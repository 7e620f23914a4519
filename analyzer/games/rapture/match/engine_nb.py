# mypy: ignore-errors
"""The Rapture game loop: actions with reactions, activations and the three phases of a round.

Rulebook ``rapture.txt``, "3. Gameplay" to "End of the Game".  Context ``X`` as in
:mod:`state_nb`.  Reaction decisions come from :mod:`policies_nb` with the reacting side's
policy (lookahead players react greedily).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from analyzer.games.rapture.match.calls_nb import (
    p_add_marker,
    p_escape_move,
    p_move_unit,
    p_remove_marker,
    p_restore_formation,
    p_strike,
    p_walk,
    p_wound,
)
from analyzer.games.rapture.match.context_nb import (
    BY_ADDRESS,
    INNER,
    K_WI,
    span,
    xG,
    xMF,
    xMI,
    xMIS,
    xOPT,
    xRNG,
    xSF,
    xSI,
    xUI,
    xUS,
    xWS,
)
from analyzer.games.rapture.match.geometry_nb import (
    edge_distance,
    line_of_fire,
)
from analyzer.games.rapture.match.layout import (
    A_CC,
    A_RANGED,
    BOARD,
    CC_LIMIT,
    CONTACT,
    DODGE_AT,
    END_BOTH,
    END_WIPEOUT_A,
    END_WIPEOUT_B,
    EV_ACTIVATE,
    EV_ATTACK,
    EV_BLOCK,
    EV_CHARGE,
    EV_DELIVER,
    EV_DODGE,
    EV_END,
    EV_FIRE,
    EV_FIRSTCHOICE,
    EV_LOF,
    EV_MOVE,
    EV_ORDER,
    EV_PHASE,
    EV_POISON,
    EV_REACTION,
    EV_RETREAT,
    G_ACTIVATIONS,
    G_BONUS0,
    G_CARRIER0,
    G_CHECK,
    G_DONE0,
    G_END,
    G_FIRST,
    G_FIRST1,
    G_FORCE_REACTION,
    G_MATCH,
    G_MIS0,
    G_MVP0,
    G_OVER,
    G_POINTS0,
    G_POL0,
    G_ROUND,
    G_VIOL,
    G_VP0,
    M_CONTESTED,
    M_FROM_ROUND,
    M_KIND,
    M_VP,
    M_WHEN,
    M_ZONE_DEPTH,
    MF_X,
    MF_Y,
    MI_ALIVE,
    MI_AP,
    MI_CC,
    MI_CREDIT,
    MI_CS,
    MI_MOVES,
    MI_RANGED,
    MI_RP,
    MI_WATER,
    MI_WOUNDS,
    MIS_HOLD,
    MK_ESCAPE,
    MK_FIRE,
    MK_LOADING,
    MK_POISON,
    MK_SHELTER,
    MOVE_LIMIT,
    O_BAND_INI,
    O_FIRST_CHOICE,
    O_FIRST_MODE,
    O_LOF_ODD,
    O_MISSIONS,
    O_ROUND1_FIRST,
    P_LOOKAHEAD,
    P_RANDOM,
    RANGED_LIMIT,
    RE_COUNTERBLOW,
    RE_COUNTERSHOT,
    RE_DODGE,
    RE_NONE,
    RE_SHELTER,
    REACTION_PENALTY,
    RETREAT_MP,
    RETREAT_RP,
    SF_R,
    SF_RANGE,
    SI_DMGRED,
    SI_HP,
    SI_LOAD_DICE,
    SI_ONHIT_MK,
    SI_ONHIT_N,
    SI_POINTS,
    SI_POOL,
    SI_SIDE,
    SI_UNIT,
    SI_WEAPON,
    SQUAD,
    ST_ATT,
    ST_CCS,
    ST_MMS,
    ST_MOV,
    ST_ROF,
    ST_TEC,
    UI_ACT,
    UI_ACTS,
    UI_CARRY,
    UI_CREDIT,
    UI_ENG,
    UI_ESC_CREDIT,
    UI_MK,
    UI_STATUS,
    US_FIRST,
    US_N,
    US_POINTS,
    US_SIDE,
    US_TYPE,
    WI_ATK,
    WI_ATK_N,
    WS_RETREAT,
)
from analyzer.games.rapture.match.policies_nb import (
    actor_blocked,
    area_gap,
    can_shoot,
    cc_reaction,
    sight_at,
    want_countershot,
    want_shelter,
)
from analyzer.games.rapture.match.state_nb import (
    award_vp,
    block_for,
    check_despair,
    check_rescue,
    combat_value,
    d6,
    damage_unit,
    disable_unit,
    ev,
    in_contact,
    in_own_zone,
    in_water,
    lead_model,
    lose_mp,
    mm,
    operational,
    pool,
    refill,
    refresh_engaged,
    self_credit,
    unit_ini,
    water_roll,
)

MAX_ACTIONS_PER_ACTIVATION = 24


# ------------------------------------------------------------------ attacks
@njit(**INNER)
def strike(X, kind, attackers, na, t, dodged, cover, lof):
    """One attack roll of ``na`` models (combined dice) at model ``t``.

    "Battle and Handling Hits": XD6 at CCS (close combat) or MMS (ranged), X = ATT / ROF
    summed over the attacking models ("Roll all hit rolls of models having the same target
    model as a single attack"); "Reaction: Dodge" removes ``dodged`` dice; counterblows and
    countershots worsen the skill by 1.  "Getting into the Line of Fire": with a model
    ``lof`` in the way, even hits go to the target and odd hits to that model (option
    ``O_LOF_ODD``: the 1st, 3rd, ... hit).  Blocks via :func:`state_nb.block_for`, then
    damage reduction ("Scale Skin"), then wounds.  A Loading Marker of the attacking unit
    adds the card's extra dice and is removed.  Returns the wounds dealt to ``t``.
    """
    SI = xSI(X)
    OPT = xOPT(X)
    MI = xMI(X)
    UI = xUI(X)
    a0 = attackers[0]
    side = SI[a0, SI_SIDE]
    au = SI[a0, SI_UNIT]
    ranged = kind == A_RANGED or kind == RE_COUNTERSHOT + 100
    dice = np.int64(0)
    for i in range(na):
        a = attackers[i]
        dice += MI[a, MI_CS + (ST_ROF if ranged else ST_ATT)]
    if UI[au, UI_MK + MK_LOADING] > 0 and kind in (A_RANGED, A_CC):
        dice += SI[a0, SI_LOAD_DICE]
    dice = max(dice - dodged, 0)
    hit_at = MI[a0, MI_CS + (ST_MMS if ranged else ST_CCS)]
    if kind >= 100:  # reactions: counterblow (100 + RE_COUNTERBLOW), countershot
        hit_at += REACTION_PENALTY
    hits, faces = pool(X, dice, hit_at)
    ev(X, EV_ATTACK, side, au, a0, SI[t, SI_UNIT], t, kind, dice, hit_at, hits, faces, na)
    to_target = hits
    if lof >= 0 and hits > 0:
        to_lof = (hits + 1) // 2 if OPT[O_LOF_ODD] == 1 else hits // 2
        to_target = hits - to_lof
        ev(
            X,
            EV_LOF,
            SI[lof, SI_SIDE],
            SI[lof, SI_UNIT],
            lof,
            SI[t, SI_UNIT],
            t,
            to_lof,
            to_target,
            0,
            0,
            0,
            0,
        )
        if to_lof > 0:
            MF = xMF(X)
            c2 = sight_at(
                X, a0, lof, MF[a0, MF_X], MF[a0, MF_Y], MF[lof, MF_X], MF[lof, MF_Y], np.int64(3)
            )
            _block_and_wound(X, lof, to_lof, np.bool_(True), 1 if c2 == 1 else 0, side, au, a0)
    w = _block_and_wound(X, t, to_target, ranged, cover, side, au, a0)
    return w


@njit(**INNER)
def _block_and_wound(X, t, hits, ranged, cover, side, au, a0):
    SI = xSI(X)
    MI = xMI(X)
    if MI[t, MI_ALIVE] == 0:
        return 0
    dfn, at, red = block_for(X, t, ranged, cover)
    blocks, faces = pool(X, dfn, at) if hits > 0 else (0, 0)
    ev(X, EV_BLOCK, SI[t, SI_SIDE], SI[t, SI_UNIT], t, au, a0, dfn, at, blocks, faces, cover, red)
    w = max(max(hits - blocks, 0) - red, 0)
    if w > 0:
        p_wound(X, t, w, side, au)
        mk = SI[a0, SI_ONHIT_MK]
        if mk >= 0 and xUI(X)[SI[t, SI_UNIT], UI_STATUS] == 0:
            p_add_marker(X, SI[t, SI_UNIT], mk, SI[a0, SI_ONHIT_N], side)
    return w


@njit(**INNER)
def _forced_cc(X, can_dodge, can_cb):
    """A reaction to a close combat attack forced by a rule test (-1: let the AI decide)."""
    forced = xG(X)[G_FORCE_REACTION]
    if forced < 0:
        return np.int64(-1)
    if forced == RE_DODGE and can_dodge:
        return np.int64(RE_DODGE)
    if forced == RE_COUNTERBLOW and can_cb:
        return np.int64(RE_COUNTERBLOW)
    return np.int64(RE_NONE)


@njit(**INNER)
def _policy(X, side):
    p = xG(X)[G_POL0 + side]
    return 1 if p == P_LOOKAHEAD else p


@njit(**INNER)
def _reaction_order(X, units, nu):
    """ "Actions and Reactions": affected units react in descending order of combat value."""
    for a in range(1, nu):
        v = units[a]
        key = _unit_cv(X, v)
        b = a - 1
        while b >= 0 and _unit_cv(X, units[b]) < key:
            units[b + 1] = units[b]
            b -= 1
        units[b + 1] = v


@njit(**INNER)
def _unit_cv(X, u):
    return unit_ini(X, u, xOPT(X)[O_BAND_INI])


#: ``_scratch(X, k, n)``: scratch list ``k`` (``n`` <= 48 entries) of the attack actions,
#: ``xWI(X)[WI_ATK + WI_ATK_N * k :][:n]`` (no allocation per attack; each list belongs to
#: one function, none is re-entered)
_scratch = span(K_WI, types.int64, WI_ATK, WI_ATK_N)


@njit(**INNER)
def _pay_attack(X, actor, limit_col):
    """An attack action: 1 AP from the actor's pool and one use of the round limit in
    ``limit_col`` (close combat or ranged); returns the actor's unit and side."""
    SI = xSI(X)
    MI = xMI(X)
    u = SI[actor, SI_UNIT]
    pr = SI[actor, SI_POOL]
    MI[pr, MI_AP] -= 1
    MI[pr, limit_col] += 1
    return u, xUS(X)[u, US_SIDE]


@njit(**INNER)
def _affected_units(X, targets, n, units):
    """The units of the ``n`` target models, each once, into ``units`` in the order in which
    they react ("Actions and Reactions"); returns how many."""
    SI = xSI(X)
    nu = np.int64(0)
    for i in range(n):
        tu = SI[targets[i], SI_UNIT]
        seen = np.bool_(False)
        for j in range(nu):
            if units[j] == tu:
                seen = np.bool_(True)
        if not seen:
            units[nu] = tu
            nu += 1
    _reaction_order(X, units, nu)
    return nu


@njit(**INNER)
def _group_of(models, targets, done, i, n, group):
    """The models (from ``i`` on, not yet ``done``) aiming at ``targets[i]``, into ``group``
    (one roll per target model); marks them done and returns how many."""
    t = targets[i]
    ng = np.int64(0)
    for k in range(i, n):
        if not done[k] and targets[k] == t:
            group[ng] = models[k]
            ng += 1
            done[k] = True
    return ng


@njit(**BY_ADDRESS)
def do_close_combat(X, actor, target):
    """ "Action: Close Combat Attack" (1 AP, 2/round) with "Dodge" and "Counterblow".

    A hero or band model attacks the target alone ("Band: Each model of the band has to
    spend their own costs"); a squad attacks the target unit with every model in B2B with
    it, each at the declared target if it touches it, else at the model of that unit it
    touches with the fewest HP left ("Squad: Models of your squad may attack different
    models of a target unit with which they are B2B"), dice combined per target model; a
    squad model touching only other units does not attack.  Each affected unit may choose
    one reaction: a dodge (TEC dice at 4+, each removes one attack die) or a counterblow
    (CCS+1, after the attack, only by models that survive it: the attacked model of a band,
    the models of a squad in B2B with an attacking model).
    """
    SI = xSI(X)
    US = xUS(X)
    MI = xMI(X)
    UI = xUI(X)
    u, side = _pay_attack(X, actor, np.int64(MI_CC))
    n = SI.shape[0]
    tu0 = SI[target, SI_UNIT]
    # attacking models and their targets
    att = _scratch(X, 0, US[u, US_N])
    tgt = _scratch(X, 1, US[u, US_N])
    na = np.int64(0)
    first = US[u, US_FIRST]
    for m in range(first, first + US[u, US_N]):
        if MI[m, MI_ALIVE] == 0:
            continue
        if US[u, US_TYPE] != SQUAD and m != actor:
            continue
        if in_contact(X, m, target):
            att[na] = m
            tgt[na] = target
            na += 1
        elif US[u, US_TYPE] == SQUAD:
            best = np.int64(-1)
            for t in range(n):
                if MI[t, MI_ALIVE] == 1 and SI[t, SI_UNIT] == tu0 and in_contact(X, m, t):
                    left_t = SI[t, SI_HP] - MI[t, MI_WOUNDS]
                    if best < 0 or left_t < SI[best, SI_HP] - MI[best, MI_WOUNDS]:
                        best = t
            if best >= 0:
                att[na] = m
                tgt[na] = best
                na += 1
    if na == 0:
        return
    # affected units and their reactions
    units = _scratch(X, 2, na)
    nu = _affected_units(X, tgt, na, units)
    reaction = _scratch(X, 3, nu)
    reactor = _scratch(X, 4, nu)
    dodged = _scratch(X, 5, nu)
    reaction[:] = 0
    reactor[:] = -1
    dodged[:] = 0
    for j in range(nu):
        tu = units[j]
        # the reacting model: the attacked model (band, hero), the squad's pool
        tm = np.int64(-1)
        dice = np.int64(0)
        for i in range(na):
            if SI[tgt[i], SI_UNIT] == tu:
                if tm < 0:
                    tm = tgt[i]
                dice += MI[att[i], MI_CS + ST_ATT]
        if actor_blocked(X, tm):
            continue
        rp_row = SI[tm, SI_POOL]
        can_dodge = MI[rp_row, MI_RP] >= 1
        can_cb = MI[rp_row, MI_RP] >= 2 and MI[tm, MI_CS + ST_ATT] > 0
        r = _forced_cc(X, can_dodge, can_cb)
        if r < 0:
            r = cc_reaction(
                X, tm, att[0], tm, dice, can_dodge, can_cb, _policy(X, 1 - side), xRNG(X)
            )
        if r == RE_NONE:
            continue
        cost = 1 if r == RE_DODGE else 2
        MI[rp_row, MI_RP] -= cost
        reaction[j] = r
        reactor[j] = tm
        ev(X, EV_REACTION, 1 - side, tu, tm, u, actor, r, cost, 0, 0, 0, 0)
        if r == RE_DODGE:
            tec = MI[tm, MI_CS + ST_TEC]
            k, faces = pool(X, tec, np.int64(DODGE_AT))
            dodged[j] = k
            ev(X, EV_DODGE, 1 - side, tu, tm, u, actor, tec, k, faces, 0, 0, 0)
    # the attacks, one roll per target model
    group = _scratch(X, 6, na)
    done = _scratch(X, 7, na)
    done[:] = 0
    for i in range(na):
        if done[i]:
            continue
        t = tgt[i]
        ng = _group_of(att, tgt, done, i, na, group)
        dd = np.int64(0)
        for j in range(nu):
            if units[j] == SI[t, SI_UNIT]:
                dd = dodged[j]
                dodged[j] = 0  # a dodge weakens this attack once
        p_strike(X, np.int64(A_CC), group, ng, t, dd, np.int64(0), np.int64(-1))
    if UI[u, UI_MK + MK_LOADING] > 0:
        p_remove_marker(X, u, np.int64(MK_LOADING), np.int64(1))
    # counterblows by survivors
    one = _scratch(X, 8, 1)
    for j in range(nu):
        if reaction[j] != RE_COUNTERBLOW:
            continue
        tu = units[j]
        if UI[tu, UI_STATUS] != 0:
            continue
        if US[tu, US_TYPE] == SQUAD:
            cb = _scratch(X, 9, US[tu, US_N])
            cbt = _scratch(X, 10, US[tu, US_N])
            nc = np.int64(0)
            tf = US[tu, US_FIRST]
            for m in range(tf, tf + US[tu, US_N]):
                if MI[m, MI_ALIVE] == 0:
                    continue
                for i in range(na):
                    if MI[att[i], MI_ALIVE] == 1 and in_contact(X, m, att[i]):
                        cb[nc] = m
                        cbt[nc] = att[i]
                        nc += 1
                        break
            used = _scratch(X, 11, nc)
            used[:] = 0
            for i in range(nc):
                if used[i]:
                    continue
                t = cbt[i]
                g2 = _scratch(X, 12, nc)
                ng2 = _group_of(cb, cbt, used, i, nc, g2)
                p_strike(
                    X,
                    np.int64(100 + RE_COUNTERBLOW),
                    g2,
                    ng2,
                    t,
                    np.int64(0),
                    np.int64(0),
                    np.int64(-1),
                )
        else:
            m = reactor[j]
            if MI[m, MI_ALIVE] == 0:
                continue
            t = np.int64(-1)
            for i in range(na):
                if MI[att[i], MI_ALIVE] == 1 and in_contact(X, m, att[i]):
                    t = att[i]
                    break
            if t >= 0:
                one[0] = m
                p_strike(
                    X,
                    np.int64(100 + RE_COUNTERBLOW),
                    one,
                    np.int64(1),
                    t,
                    np.int64(0),
                    np.int64(0),
                    np.int64(-1),
                )


@njit(**BY_ADDRESS)
def do_ranged(X, actor, target):
    """ "Action: Ranged Attack" (1 AP, 2/round) with "Reaction: Seek Shelter".

    A hero or band model shoots alone; a squad shoots the target unit with every model that
    can (range, LoS, not swimming), at the declared target where it can, else at the closest
    model of that unit it can shoot ("Squad: Models of your squad may attack different
    models of a target band or squad"), never at another unit; dice combined per target
    model, cover and line of fire taken from the first shooter of each roll.  Each affected
    unit in range may seek shelter (1 RP, Shelter Marker) before the hit rolls.
    """
    SI = xSI(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    G = xG(X)
    u, side = _pay_attack(X, actor, np.int64(MI_RANGED))
    n = SI.shape[0]
    tu0 = SI[target, SI_UNIT]
    sh = _scratch(X, 13, US[u, US_N])
    tg = _scratch(X, 14, US[u, US_N])
    cv = _scratch(X, 15, US[u, US_N])
    ns = np.int64(0)
    first = US[u, US_FIRST]
    for m in range(first, first + US[u, US_N]):
        if MI[m, MI_ALIVE] == 0 or (US[u, US_TYPE] != SQUAD and m != actor):
            continue
        c = can_shoot(X, m, target, MF[m, MF_X], MF[m, MF_Y])
        t = target
        if c < 0 and US[u, US_TYPE] == SQUAD:
            bd = np.float64(1e30)
            t = np.int64(-1)
            for o in range(n):
                if MI[o, MI_ALIVE] == 0 or SI[o, SI_UNIT] != tu0:
                    continue
                co = can_shoot(X, m, o, MF[m, MF_X], MF[m, MF_Y])
                if co < 0:
                    continue
                d = (MF[o, MF_X] - MF[m, MF_X]) ** 2 + (MF[o, MF_Y] - MF[m, MF_Y]) ** 2
                if d < bd:
                    bd = d
                    t = o
                    c = co
        if t < 0 or c < 0:
            continue
        sh[ns] = m
        tg[ns] = t
        cv[ns] = c
        ns += 1
    if ns == 0:
        return
    # seek shelter, per affected unit
    units = _scratch(X, 16, ns)
    nu = _affected_units(X, tg, ns, units)
    for j in range(nu):
        tu = units[j]
        lead = lead_model(X, tu)
        if lead < 0 or UI[tu, UI_MK + MK_SHELTER] > 0 or UI[tu, UI_MK + MK_ESCAPE] > 0:
            continue
        if MI[SI[lead, SI_POOL], MI_RP] < 1:
            continue
        tm = np.int64(-1)
        dice = np.int64(0)
        cov = np.int64(0)
        shooter = np.int64(-1)
        for i in range(ns):
            if SI[tg[i], SI_UNIT] == tu:
                if tm < 0:
                    tm = tg[i]
                    cov = cv[i]
                    shooter = sh[i]
                dice += MI[sh[i], MI_CS + ST_ROF]
        forced = xG(X)[G_FORCE_REACTION]
        if forced == RE_SHELTER or (
            forced < 0
            and want_shelter(X, tu, tm, shooter, dice, cov, _policy(X, 1 - side), xRNG(X))
        ):
            MI[SI[lead, SI_POOL], MI_RP] -= 1
            ev(X, EV_REACTION, 1 - side, tu, lead, u, actor, RE_SHELTER, 1, 0, 0, 0, 0)
            p_add_marker(X, tu, np.int64(MK_SHELTER), np.int64(1), np.int64(-1))
    group = _scratch(X, 17, ns)
    done = _scratch(X, 18, ns)
    done[:] = 0
    for i in range(ns):
        if done[i]:
            continue
        t = tg[i]
        ng = _group_of(sh, tg, done, i, ns, group)
        lof = line_of_fire(MF, MI, SI, xSF(X), n, sh[i], t, np.int64(3))
        p_strike(X, np.int64(A_RANGED), group[:ng], ng, t, np.int64(0), cv[i], lof)
    if UI[u, UI_MK + MK_LOADING] > 0:
        p_remove_marker(X, u, np.int64(MK_LOADING), np.int64(1))
    _ = G


@njit(**INNER)
def countershots(X, u, contact):
    """ "Reaction: Countershot" against unit ``u`` charging into model ``contact``'s unit.

    Called before the charger moves.  Every model of the charged unit with a ranged weapon,
    the RP (2; a squad pays once) and the charger's lead model in range and LoS may shoot it
    with MMS+1 (a squad's shots are one roll).  Returns True if the charger's unit survives.
    """
    SI = xSI(X)
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    cu = SI[contact, SI_UNIT]
    side = US[u, US_SIDE]
    target = lead_model(X, u)
    if target < 0 or UI[cu, UI_ENG] == 1 or UI[cu, UI_STATUS] != 0:
        return True
    sh = _scratch(X, 19, US[cu, US_N])
    ns = np.int64(0)
    cf = US[cu, US_FIRST]
    squad = US[cu, US_TYPE] == SQUAD
    if squad and MI[SI[cf, SI_POOL], MI_RP] < 2:
        return True
    for m in range(cf, cf + US[cu, US_N]):
        if MI[m, MI_ALIVE] == 0 or SI[m, SI_WEAPON] == 0 or actor_blocked(X, m):
            continue
        if not squad and MI[m, MI_RP] < 2:
            continue
        if in_water(X, MF[m, MF_X], MF[m, MF_Y]):
            continue
        if (
            edge_distance(
                MF[m, MF_X],
                MF[m, MF_Y],
                SF[m, SF_R],
                MF[target, MF_X],
                MF[target, MF_Y],
                SF[target, SF_R],
            )
            > SF[m, SF_RANGE]
        ):
            continue
        tx = MF[target, MF_X]
        ty = MF[target, MF_Y]
        if sight_at(X, m, target, MF[m, MF_X], MF[m, MF_Y], tx, ty, np.int64(3)) < 0:
            continue
        sh[ns] = m
        ns += 1
    if ns == 0:
        return True
    forced = xG(X)[G_FORCE_REACTION]
    if forced >= 0 and forced != RE_COUNTERSHOT:
        return True
    if forced < 0 and not want_countershot(X, cu, sh, ns, target, _policy(X, 1 - side), xRNG(X)):
        return True
    # pay first: "the reaction points of all called reactions lapse"
    if squad:
        MI[SI[cf, SI_POOL], MI_RP] -= 2
    else:
        for i in range(ns):
            MI[sh[i], MI_RP] -= 2
    ev(X, EV_REACTION, 1 - side, cu, sh[0], u, target, RE_COUNTERSHOT, 2, ns, 0, 0, 0)
    one = _scratch(X, 20, 1)
    for i in range(ns):
        if UI[u, UI_STATUS] != 0:
            break
        t = lead_model(X, u)
        if t < 0:
            break
        c = sight_at(
            X, sh[i], t, MF[sh[i], MF_X], MF[sh[i], MF_Y], MF[t, MF_X], MF[t, MF_Y], np.int64(3)
        )
        if squad:
            p_strike(
                X,
                np.int64(100 + RE_COUNTERSHOT),
                sh[:ns],
                ns,
                t,
                np.int64(0),
                1 if c == 1 else 0,
                np.int64(-1),
            )
            break
        one[0] = sh[i]
        p_strike(
            X,
            np.int64(100 + RE_COUNTERSHOT),
            one,
            np.int64(1),
            t,
            np.int64(0),
            1 if c == 1 else 0,
            np.int64(-1),
        )
    return UI[u, UI_STATUS] == 0


@njit(**BY_ADDRESS)
def do_move(X, u, gx, gy, charge, target):
    """ "Action: Movement Action" (1 AP paid by the leader / the squad, 2/round).

    A charge (a move called into B2B) first lets the unit it would contact countershoot
    ("Reaction: Countershot"), then moves; the move ends at the first opposing base touched
    ("Moving into Close Combat").  Afterwards: rescue of escaping allies, mission objects.
    """
    SI = xSI(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    lead = lead_model(X, u)
    if lead < 0:
        return
    side = US[u, US_SIDE]
    pr = SI[lead, SI_POOL]
    MI[pr, MI_AP] -= 1
    MI[pr, MI_MOVES] += 1
    sx = MF[lead, MF_X]
    sy = MF[lead, MF_Y]
    mode = np.int64(0)
    if charge:
        mode = np.int64(1)
        contact, _, _, _ = p_move_unit(X, u, gx, gy, np.int64(1), np.bool_(True))
        ev(
            X,
            EV_CHARGE,
            side,
            u,
            lead,
            SI[contact, SI_UNIT] if contact >= 0 else -1,
            contact,
            mm(gx),
            mm(gy),
            target,
            0,
            0,
            0,
        )
        if contact >= 0 and not countershots(X, u, contact):
            return
        lead = lead_model(X, u)
        if lead < 0:
            return
        sx = MF[lead, MF_X]
        sy = MF[lead, MF_Y]
    contact, x, y, _ = p_move_unit(X, u, gx, gy, mode, np.bool_(False))
    ev(
        X,
        EV_MOVE,
        side,
        u,
        lead,
        SI[contact, SI_UNIT] if contact >= 0 else -1,
        contact,
        mm(sx),
        mm(sy),
        mm(x),
        mm(y),
        mm(math.sqrt((x - sx) ** 2 + (y - sy) ** 2)),
        charge,
    )
    after_move(X, u)


@njit(**INNER)
def after_move(X, u):
    """Water rolls of the models that moved through water, rescue, mission delivery."""
    US = xUS(X)
    MI = xMI(X)
    first = US[u, US_FIRST]
    for m in range(first, first + US[u, US_N]):
        if MI[m, MI_ALIVE] == 1 and MI[m, MI_WATER] == 1:
            MI[m, MI_WATER] = 0
            water_roll(X, m)
        else:
            MI[m, MI_WATER] = 0
    if xUI(X)[u, UI_STATUS] != 0:
        return
    check_rescue(X, u)
    check_delivery(X, u)


@njit(**BY_ADDRESS)
def do_retreat(X, u, dx, dy):
    """ "Action: Retreat": 1 RP and 3 MP (fewer if fewer are left), half MOV (rounded down)
    in a straight line; the activation ends.  An Escape box marked by it gives the Escape
    Marker after the retreat."""
    SI = xSI(X)
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    lead = lead_model(X, u)
    side = US[u, US_SIDE]
    MI[SI[lead, SI_POOL], MI_RP] -= RETREAT_RP
    # "halved MOV (rounded down)": whole cm, whatever the base (not a movement action)
    budget = np.float64((MI[lead, MI_CS + ST_MOV] // 10) // 2)
    sx = MF[lead, MF_X]
    sy = MF[lead, MF_Y]
    gx = sx + dx * budget
    gy = sy + dy * budget
    r = SF[lead, SF_R]
    gx = min(max(gx, r), BOARD - r)
    gy = min(max(gy, r), BOARD - r)
    wx = xWS(X)[WS_RETREAT : WS_RETREAT + 1]
    wy = xWS(X)[WS_RETREAT + 1 : WS_RETREAT + 2]
    wx[0] = gx
    wy[0] = gy
    x, y, _, _, wet, _ = p_walk(X, lead, wx, wy, np.int64(1), budget, np.int64(0), np.bool_(False))
    if wet:
        MI[lead, MI_WATER] = 1
    ev(X, EV_RETREAT, side, u, lead, -1, -1, mm(sx), mm(sy), mm(x), mm(y), 0, 0)
    p_restore_formation(X, u, np.bool_(False))
    refresh_engaged(X)
    after_move(X, u)
    if xUI(X)[u, UI_STATUS] == 0:
        lose_mp(X, u, np.int64(RETREAT_MP), self_credit(X, u))


@njit(**INNER)
def check_delivery(X, u):
    """Carry mission: the carrier's base touches the owner's delivery zone -> mission VP."""
    SF = xSF(X)
    US = xUS(X)
    MIS = xMIS(X)
    MF = xMF(X)
    G = xG(X)
    if xOPT(X)[O_MISSIONS] == 0:
        return
    side = US[u, US_SIDE]
    if G[G_CARRIER0 + side] != u or G[G_DONE0 + side] == 1:
        return
    k = G[G_MIS0 + side]
    lead = lead_model(X, u)
    if lead < 0:
        return
    if in_own_zone(X, side, MF[lead, MF_Y], SF[lead, SF_R], MIS[k, M_ZONE_DEPTH]):
        G[G_DONE0 + side] = 1
        G[G_CARRIER0 + side] = -3
        xUI(X)[u, UI_CARRY] = 0
        ev(X, EV_DELIVER, side, u, lead, -1, -1, np.int64(MIS[k, M_VP]), 0, 0, 0, 0, 0)
        award_vp(X, side, np.int64(MIS[k, M_VP]), np.int64(2), u)


@njit(**BY_ADDRESS)
def after_action(X):
    """Markers and end checks after every action."""
    refresh_engaged(X)
    check_despair(X)
    if xG(X)[G_CHECK] == 1:
        check_invariants(X)
    check_wipeout(X)


@njit(**INNER)
def check_wipeout(X):
    """ "End of the Game": a player without operational units ends the game."""
    G = xG(X)
    a = _has_operational(X, np.int64(0))
    b = _has_operational(X, np.int64(1))
    if a and b:
        return False
    if G[G_OVER] == 0:
        G[G_OVER] = 1
        G[G_END] = END_BOTH if (not a and not b) else (END_WIPEOUT_A if not a else END_WIPEOUT_B)
    return True


@njit(**INNER)
def _has_operational(X, side):
    US = xUS(X)
    for u in range(US.shape[0]):  # noqa: SIM110 (no generators in numba kernels)
        if US[u, US_SIDE] == side and operational(X, u):
            return True
    return False


@njit(**INNER)
def check_invariants(X):
    """Count violations: negative AP/RP, round limits, double activations, overlapping bases,
    living models of removed units, victory points that do not add up."""
    SI = xSI(X)
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    G = xG(X)
    bad = np.int64(0)
    n = SI.shape[0]
    for m in range(n):
        if SI[m, SI_POOL] == m:
            if MI[m, MI_AP] < 0 or MI[m, MI_RP] < 0:
                bad += 1
            if (
                MI[m, MI_MOVES] > MOVE_LIMIT
                or MI[m, MI_CC] > CC_LIMIT
                or MI[m, MI_RANGED] > RANGED_LIMIT
            ):
                bad += 1
        if MI[m, MI_ALIVE] == 1:
            if UI[SI[m, SI_UNIT], UI_STATUS] != 0:
                bad += 1
            if MI[m, MI_WOUNDS] >= SI[m, SI_HP]:
                bad += 1
            for o in range(m + 1, n):
                if MI[o, MI_ALIVE] == 1:
                    d = edge_distance(
                        MF[m, MF_X], MF[m, MF_Y], SF[m, SF_R], MF[o, MF_X], MF[o, MF_Y], SF[o, SF_R]
                    )
                    if d < -1e-4:
                        bad += 1
    for u in range(US.shape[0]):
        if UI[u, UI_ACTS] > 1:
            bad += 1
        if UI[u, UI_STATUS] != 0:
            f = US[u, US_FIRST]
            for m in range(f, f + US[u, US_N]):
                if MI[m, MI_ALIVE] == 1:
                    bad += 1
    # victory points add up, recounted from the casualties' credits ("End of the Game")
    for s in range(2):
        total = 30 * G[G_BONUS0 + s] + G[G_MVP0 + s]
        for m in range(n):
            if SI[m, SI_SIDE] != s and MI[m, MI_CREDIT] == s:
                total += SI[m, SI_POINTS]
        for u in range(US.shape[0]):
            if (
                US[u, US_SIDE] != s
                and US[u, US_TYPE] == SQUAD
                and UI[u, UI_STATUS] != 0
                and UI[u, UI_CREDIT] == s
            ):
                total += US[u, US_POINTS]
        if total != G[G_VP0 + s]:
            bad += 1
    G[G_VIOL] += bad


# ------------------------------------------------------------- activation
@njit(**BY_ADDRESS)
def start_activation(X, u):
    """Start of an activation: "Poison Marker" (-1 AP, one marker off), "Bodies of Water"
    (roll again while still in water), "Engaging" at the beginning of the activation."""
    SI = xSI(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    G = xG(X)
    side = US[u, US_SIDE]
    UI[u, UI_ACT] = 1
    UI[u, UI_ACTS] += 1
    G[G_ACTIVATIONS] += 1
    ev(X, EV_ACTIVATE, side, u, -1, -1, -1, 0, 0, 0, 0, 0, 0)
    lead = lead_model(X, u)
    if UI[u, UI_MK + MK_POISON] > 0 and lead >= 0:
        pr = SI[lead, SI_POOL]
        if MI[pr, MI_AP] > 0:
            MI[pr, MI_AP] -= 1
        ev(X, EV_POISON, side, u, lead, -1, -1, 0, 0, 0, 0, 0, 0)
        p_remove_marker(X, u, np.int64(MK_POISON), np.int64(1))
    first = US[u, US_FIRST]
    for m in range(first, first + US[u, US_N]):
        if MI[m, MI_ALIVE] == 1 and in_water(X, MF[m, MF_X], MF[m, MF_Y]):
            water_roll(X, m)
    if UI[u, UI_STATUS] == 0 and UI[u, UI_ENG] == 1:
        p_restore_formation(X, u, np.bool_(True))


@njit(**INNER)
def mission_vp(X, when):
    """Mission VP counted in a phase: "hold an area" (a hero, leader or squad of the owner
    touching the area; optionally only when no opposing unit touches it)."""
    SI = xSI(X)
    SF = xSF(X)
    MIS = xMIS(X)
    MF = xMF(X)
    MI = xMI(X)
    G = xG(X)
    if xOPT(X)[O_MISSIONS] == 0:
        return
    for side in range(2):
        k = G[G_MIS0 + side]
        if MIS[k, M_KIND] != MIS_HOLD or MIS[k, M_WHEN] != when:
            continue
        if G[G_ROUND] < MIS[k, M_FROM_ROUND]:
            continue
        own = np.bool_(False)
        other = np.bool_(False)
        for m in range(SI.shape[0]):
            if MI[m, MI_ALIVE] == 0:
                continue
            u = SI[m, SI_UNIT]
            if not operational(X, u):
                continue
            if area_gap(X, side, MF[m, MF_X], MF[m, MF_Y], SF[m, SF_R]) > CONTACT:
                continue
            if SI[m, SI_SIDE] == side:
                if SI[m, 2] != 2:  # SI_ROLE != R_APPRENTICE: "Apprentices may not interact"
                    own = np.bool_(True)
            else:
                other = np.bool_(True)
        if own and not (MIS[k, M_CONTESTED] > 0.5 and other):
            award_vp(X, side, np.int64(MIS[k, M_VP]), np.int64(2), np.int64(-1))


@njit(**BY_ADDRESS)
def preparation(X):
    """ "Preparation Phase" in the rulebook's order: victory points, formation, AP/RP,
    escape movements, ascension (no card in the catalogue triggers one), activation order."""
    US = xUS(X)
    OPT = xOPT(X)
    UI = xUI(X)
    G = xG(X)
    ev(X, EV_PHASE, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0)
    mission_vp(X, np.int64(0))
    for u in range(US.shape[0]):
        if UI[u, UI_STATUS] == 0:
            p_restore_formation(X, u, np.bool_(False))
    refill(X)
    for u in range(US.shape[0]):
        UI[u, UI_ACT] = 0
        UI[u, UI_ACTS] = 0
    for u in range(US.shape[0]):
        if UI[u, UI_STATUS] == 0 and UI[u, UI_MK + MK_ESCAPE] > 0:
            p_escape_move(X, u)
    refresh_engaged(X)
    check_despair(X)
    # "Determine order of activation"
    lo = OPT[O_BAND_INI]
    c0 = combat_value(X, np.int64(0), lo)
    c1 = combat_value(X, np.int64(1), lo)
    first = 0 if c0 > c1 else 1
    roll = np.int64(-1)
    if c0 == c1:
        first, roll = roll_off(X)
    if G[G_ROUND] == 1:
        first, roll = first_in_round_one(X, first, roll)
        G[G_FIRST1] = first
    G[G_FIRST] = first
    ev(X, EV_ORDER, first, -1, -1, -1, -1, c0, c1, roll, 0, 0, 0)
    check_wipeout(X)


@njit(**INNER)
def roll_off(X):
    """1D6 each, the higher roll goes first, ties roll again.  Returns (winner, packed)."""
    while True:
        a = d6(X)
        b = d6(X)
        if a != b:
            return (0 if a > b else 1), a * 10 + b


@njit(**INNER)
def first_in_round_one(X, first, roll):
    """Round 1: "If one of your battlegroups starts the game with less than 100 points, the
    player commanding that battlegroup gets to determine who gets to do the first
    activation" (both under 100: a roll-off decides who chooses).  Options: alternate by
    match, random, or a forced side."""
    OPT = xOPT(X)
    G = xG(X)
    mode = OPT[O_FIRST_MODE]
    if OPT[O_ROUND1_FIRST] >= 0:
        return OPT[O_ROUND1_FIRST], roll
    if mode == 1:
        return G[G_MATCH] % 2, roll
    if mode == 2:
        return d6(X) % 2, roll
    under0 = G[G_POINTS0] < 100
    under1 = G[G_POINTS0 + 1] < 100
    if not under0 and not under1:
        return first, roll
    chooser = 0 if under0 else 1
    if under0 and under1:
        chooser, roll = roll_off(X)
    pol = G[G_POL0 + chooser]
    if pol == P_RANDOM:
        choice = chooser if d6(X) <= 3 else 1 - chooser
    else:
        choice = chooser if OPT[O_FIRST_CHOICE] == 0 else 1 - chooser
    ev(X, EV_FIRSTCHOICE, chooser, -1, -1, -1, -1, choice, 0, 0, 0, 0, 0)
    return choice, roll


@njit(**INNER)
def can_activate(X, u):
    UI = xUI(X)
    return UI[u, UI_STATUS] == 0 and UI[u, UI_ACT] == 0 and UI[u, UI_MK + MK_ESCAPE] == 0


@njit(**INNER)
def side_can_activate(X, side):
    US = xUS(X)
    for u in range(US.shape[0]):  # noqa: SIM110 (no generators in numba kernels)
        if US[u, US_SIDE] == side and can_activate(X, u):
            return True
    return False


@njit(**BY_ADDRESS)
def cleanup(X):
    """ "Cleanup Phase": victory points, status effects (Fire Markers: damage equal to their
    number, then one is removed), unused AP/RP lost, engaging."""
    SI = xSI(X)
    US = xUS(X)
    MI = xMI(X)
    UI = xUI(X)
    ev(X, EV_PHASE, -1, -1, -1, -1, -1, 2, 0, 0, 0, 0, 0)
    mission_vp(X, np.int64(1))
    for u in range(US.shape[0]):
        if UI[u, UI_STATUS] != 0 or UI[u, UI_MK + MK_FIRE] == 0:
            continue
        fire = UI[u, UI_MK + MK_FIRE]
        lead = lead_model(X, u)
        ev(X, EV_FIRE, US[u, US_SIDE], u, lead, -1, -1, fire, 0, 0, 0, 0, 0)
        damage_unit(X, u, fire, 1 - US[u, US_SIDE], SI[lead, SI_DMGRED] if lead >= 0 else 0)
        if UI[u, UI_STATUS] == 0:
            p_remove_marker(X, u, np.int64(MK_FIRE), np.int64(1))
    for m in range(SI.shape[0]):
        if SI[m, SI_POOL] == m:
            MI[m, MI_AP] = 0
            MI[m, MI_RP] = 0
    for u in range(US.shape[0]):
        if UI[u, UI_STATUS] == 0 and UI[u, UI_ENG] == 1:
            p_restore_formation(X, u, np.bool_(True))
    refresh_engaged(X)
    check_wipeout(X)


@njit(**BY_ADDRESS)
def end_of_game(X):
    """ "End of the Game": units with an Escape Marker count as casualties (VP to the side
    that erased their last MP); the side with more VP wins."""
    US = xUS(X)
    UI = xUI(X)
    G = xG(X)
    for u in range(US.shape[0]):
        if UI[u, UI_STATUS] == 0 and UI[u, UI_MK + MK_ESCAPE] > 0:
            disable_unit(X, u, UI[u, UI_ESC_CREDIT], np.int64(-1), np.int64(1))
    ev(X, EV_END, -1, -1, -1, -1, -1, G[G_END], G[G_VP0], G[G_VP0 + 1], 0, 0, 0)
