# mypy: ignore-errors
"""Top tier of the game loop: one action, one activation, the round/phase driver.

These functions call the heavy subsystems (candidate generation, the actions, the phases)
by address (``calls_nb``), so that each subsystem is compiled once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.games.rapture.match.calls_nb import (
    p_add_marker,
    p_after_action,
    p_candidates,
    p_choose_unit,
    p_cleanup,
    p_close_combat,
    p_end_of_game,
    p_move,
    p_preparation,
    p_ranged,
    p_remove_marker,
    p_retreat,
    p_start_activation,
)
from analyzer.games.rapture.match.context_nb import (
    INNER,
    xG,
    xMI,
    xMIS,
    xOPT,
    xRNG,
    xSI,
    xUI,
    xUS,
)
from analyzer.games.rapture.match.engine_nb import check_delivery
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
    C_ACTOR,
    C_KIND,
    C_TARGET,
    C_X,
    C_Y,
    END_ROUNDS,
    EV_EXTINGUISH,
    EV_GETUP,
    EV_NOACTION,
    EV_PICKUP,
    EV_ROUND,
    G_ACTIONS,
    G_ACTSIDE,
    G_CARRIER0,
    G_END,
    G_FIRST,
    G_MIS0,
    G_NEXTSIDE,
    G_OVER,
    G_PHASE,
    G_POL0,
    G_ROUND,
    M_PICKUP_AP,
    MI_AP,
    MI_RP,
    MK_ESCAPE,
    MK_FIRE,
    MK_SHELTER,
    O_MAX_ROUNDS,
    P_LOOKAHEAD,
    P_RANDOM,
    PH_ACT,
    PH_CLEAN,
    PH_DONE,
    PH_OVER,
    PH_PREP,
    SI_POOL,
    UI_CARRY,
    UI_MK,
    UI_STATUS,
    US_SIDE,
)
from analyzer.games.rapture.match.policies_nb import SCORE_BEST, pick
from analyzer.games.rapture.match.state_nb import can_activate, ev

MAX_ACTIONS_PER_ACTIVATION = 24


@njit(**INNER)
def policy_of(X, side):
    """The side's policy for greedy-level decisions (lookahead players react greedily)."""
    p = xG(X)[G_POL0 + side]
    return np.int64(1) if p == P_LOOKAHEAD else p


@njit(**INNER)
def do_action(X, u, C, i):
    """Perform candidate ``i`` of unit ``u``; returns True when the activation ends (retreat)."""
    SI = xSI(X)
    US = xUS(X)
    MIS = xMIS(X)
    MI = xMI(X)
    UI = xUI(X)
    G = xG(X)
    kind = np.int64(C[i, C_KIND])
    actor = np.int64(C[i, C_ACTOR])
    target = np.int64(C[i, C_TARGET])
    G[G_ACTIONS] += 1
    side = US[u, US_SIDE]
    if kind == A_MOVE:
        p_move(X, u, C[i, C_X], C[i, C_Y], np.bool_(False), np.int64(-1))
    elif kind == A_CHARGE:
        p_move(X, u, C[i, C_X], C[i, C_Y], np.bool_(True), target)
    elif kind == A_CC:
        p_close_combat(X, actor, target)
    elif kind == A_RANGED:
        p_ranged(X, actor, target)
    elif kind == A_RETREAT:
        p_retreat(X, u, C[i, C_X], C[i, C_Y])
        return True
    elif kind == A_GETUP:
        # "Action: Get Up": 1 AP, the Shelter Marker is removed
        MI[SI[actor, SI_POOL], MI_AP] -= 1
        ev(X, EV_GETUP, side, u, actor, -1, -1, 0, 0, 0, 0, 0, 0)
        p_remove_marker(X, u, np.int64(MK_SHELTER), np.int64(1))
    elif kind == A_EXTINGUISH:
        # "Action: Extinguish Fire": 1 RP, one Fire Marker off, a Shelter Marker on
        MI[SI[actor, SI_POOL], MI_RP] -= 1
        ev(X, EV_EXTINGUISH, side, u, actor, -1, -1, 0, 0, 0, 0, 0, 0)
        p_remove_marker(X, u, np.int64(MK_FIRE), np.int64(1))
        p_add_marker(X, u, np.int64(MK_SHELTER), np.int64(1), np.int64(-1))
    elif kind == A_PICKUP:
        # mission ability "Pick Up" (an object dropped before is picked up again for free)
        k = G[G_MIS0 + side]
        cost = np.int64(MIS[k, M_PICKUP_AP]) if G[G_CARRIER0 + side] == -1 else np.int64(0)
        MI[SI[actor, SI_POOL], MI_AP] -= cost
        G[G_CARRIER0 + side] = u
        UI[u, UI_CARRY] += 1
        ev(X, EV_PICKUP, side, u, actor, -1, -1, cost, 0, 0, 0, 0, 0)
        check_delivery(X, u)
    return False


@njit(**INNER)
def finish_activation(X, u, policy, C):
    """The actions of an activation with the random or greedy policy ("Activation Phase":
    actions in any order until the unit stops, has nothing left or retreats)."""
    UI = xUI(X)
    G = xG(X)
    for _ in range(MAX_ACTIONS_PER_ACTIVATION):
        if UI[u, UI_STATUS] != 0 or G[G_OVER] == 1 or UI[u, UI_MK + MK_ESCAPE] > 0:
            break
        n = p_candidates(X, u, C, np.int64(0 if policy == P_RANDOM else SCORE_BEST))
        i = pick(C, n, policy, xRNG(X))
        if np.int64(C[i, C_KIND]) == A_END:
            ev(X, EV_NOACTION, xUS(X)[u, US_SIDE], u, -1, -1, -1, 0, 0, 0, 0, 0, 0)
            break
        ended = do_action(X, u, C, i)
        p_after_action(X)
        if ended:
            break


@njit(**INNER)
def drive(X, C, max_activations, stop_at_lookahead):
    """Play the game on from its current step (``G_PHASE``) with the random/greedy policies.

    Rounds run "Preparation Phase", "Activation Phase" (alternating activations; a side
    without units left to activate passes, the other goes on), "Cleanup Phase"; the game
    ends after the last round or once a side has no operational units ("End of the Game").
    Returns a unit when a lookahead player must activate it (``stop_at_lookahead``; the
    caller activates it and calls again), else -1 once the game is over or after
    ``max_activations`` activations (-1: no limit; lookahead rollouts).
    """
    OPT = xOPT(X)
    G = xG(X)
    acts = np.int64(0)
    while True:
        ph = G[G_PHASE]
        if ph == PH_PREP:
            if G[G_ROUND] >= OPT[O_MAX_ROUNDS]:
                G[G_PHASE] = PH_OVER
                continue
            G[G_ROUND] += 1
            ev(X, EV_ROUND, -1, -1, -1, -1, -1, G[G_ROUND], 0, 0, 0, 0, 0)
            p_preparation(X)
            G[G_NEXTSIDE] = G[G_FIRST]
            G[G_PHASE] = PH_CLEAN if G[G_OVER] == 1 else PH_ACT
        elif ph == PH_ACT:
            if G[G_OVER] == 1:
                G[G_PHASE] = PH_CLEAN
                continue
            side = G[G_NEXTSIDE]
            if not _side_can_activate(X, side):
                side = 1 - side
                if not _side_can_activate(X, side):
                    G[G_PHASE] = PH_CLEAN
                    continue
            if max_activations >= 0 and acts >= max_activations:
                return np.int64(-1)
            pol = G[G_POL0 + side]
            u = p_choose_unit(X, side, policy_of(X, side))
            G[G_NEXTSIDE] = 1 - side
            G[G_ACTSIDE] = side
            acts += 1
            if stop_at_lookahead and pol == P_LOOKAHEAD:
                return u
            p_start_activation(X, u)
            finish_activation(X, u, policy_of(X, side), C)
        elif ph == PH_CLEAN:
            p_cleanup(X)
            if G[G_OVER] == 1 or G[G_ROUND] >= OPT[O_MAX_ROUNDS]:
                G[G_PHASE] = PH_OVER
            else:
                G[G_PHASE] = PH_PREP
        elif ph == PH_OVER:
            if G[G_OVER] == 0:
                G[G_OVER] = 1
                G[G_END] = END_ROUNDS
            p_end_of_game(X)
            G[G_PHASE] = PH_DONE
            return np.int64(-1)
        else:
            return np.int64(-1)


@njit(**INNER)
def _side_can_activate(X, side):
    """ "Activation Phase": a unit not yet activated this round and without Escape Marker."""
    for u in range(xUS(X).shape[0]):  # noqa: SIM110 (no generators in numba kernels)
        if can_activate(X, u, side):
            return True
    return False
