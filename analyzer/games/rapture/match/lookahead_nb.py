# mypy: ignore-errors
"""The lookahead policy: greedy candidates re-scored by simulated continuations.

For each decision of a lookahead player's activation, the best ``O_LA_K`` greedy
candidates by greedy score (the greedy choice first; "end the activation" only when it is
among them) are each played out ``O_LA_ROLLOUTS`` times on a copy of the state: the
candidate, the rest of the activation and the next ``O_LA_DEPTH`` activations of both sides
with the greedy policy (crossing round boundaries with the normal phases).  The candidate
with the best mean evaluation (victory-point margin plus half the value still standing) is
played.  All candidates share the same forked random streams (common random numbers),
drawn from one word of the match generator, so matches stay deterministic per seed.

(A separate module from ``policies_nb`` because rollouts call the engine, which itself
calls the greedy policy; numba modules cannot import each other in a cycle.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.dice.random_nb import next_u64
from analyzer.games.rapture.match.calls_nb import (
    p_after_action,
    p_candidates,
    p_drive,
    p_finish_activation,
    p_prepare_values,
    p_start_activation,
    p_value_at,
)
from analyzer.games.rapture.match.context_nb import (
    ALLOCATING,
    INNER,
    copy_state,
    xG,
    xMF,
    xMI,
    xOPT,
    xRNG,
    xSI,
    xUI,
    xUS,
    xWS,
)
from analyzer.games.rapture.match.driver_nb import do_action
from analyzer.games.rapture.match.layout import (
    A_END,
    C_KIND,
    C_SCORE,
    G_OVER,
    G_POL0,
    G_ROLLOUT,
    G_TRACE,
    G_VP0,
    MF_X,
    MF_Y,
    MI_ALIVE,
    MI_WOUNDS,
    MK_ESCAPE,
    O_LA_DEPTH,
    O_LA_K,
    O_LA_ROLLOUTS,
    P_GREEDY,
    SI_HP,
    SI_POINTS,
    SQUAD,
    UI_ACT,
    UI_ESC_CREDIT,
    UI_MK,
    UI_STATUS,
    US_FIRST,
    US_N,
    US_POINTS,
    US_SIDE,
    US_TYPE,
    WS_W,
)
from analyzer.games.rapture.match.policies_nb import W_COLS
from analyzer.games.rapture.match.state_nb import forget_walks, lead_model
from analyzer.match.paired_nb import paired_gain_se

#: Weight of the points still standing (scaled by health) in the evaluation.
LA_ALPHA = 0.5
#: Weight of the greedy position values in the evaluation.
LEAF_W = 1.0
#: A candidate replaces the greedy choice when its mean paired gain over the rollouts is at
#: least MIN_GAIN victory points and Z_GAIN standard errors.
MIN_GAIN = 0.5
Z_GAIN = 1.5
MAX_STEPS = 24


@njit(**INNER)
def splitmix(x):
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(**INNER)
def evaluate(X, side):
    """Value of a rollout's end for ``side``: the victory-point margin, plus ``LA_ALPHA``
    times the points still standing (each model weighted by its health left; units with an
    Escape Marker count as lost), plus ``LEAF_W`` times the greedy position values
    (``policies_nb.value_at``: attacks in reach, threats, mission terms) of its units minus
    those of the opposing units, so that progress beyond the horizon still counts."""
    SI = xSI(X)
    US = xUS(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    G = xG(X)
    value = float(G[G_VP0 + side] - G[G_VP0 + 1 - side])
    W = xWS(X)[WS_W : WS_W + SI.shape[0] * W_COLS].reshape((SI.shape[0], W_COLS))
    for u in range(US.shape[0]):
        if UI[u, UI_STATUS] != 0:
            continue
        sign = 1.0 if US[u, US_SIDE] == side else -1.0
        if UI[u, UI_MK + MK_ESCAPE] > 0:
            credit = UI[u, UI_ESC_CREDIT]
            pts = float(US[u, US_POINTS])
            if credit == side:
                value += pts
            elif credit >= 0:
                value -= pts
            continue
        f = US[u, US_FIRST]
        worth = 0.0
        for m in range(f, f + US[u, US_N]):
            if MI[m, MI_ALIVE] == 0:
                continue
            health = (SI[m, SI_HP] - MI[m, MI_WOUNDS]) / SI[m, SI_HP]
            if US[u, US_TYPE] == SQUAD:
                worth += health * US[u, US_POINTS] / US[u, US_N]
            else:
                worth += health * SI[m, SI_POINTS]
        value += sign * LA_ALPHA * worth
        lead = lead_model(X, u)
        if lead >= 0:
            p_prepare_values(X, u, W)
            pv, _, _ = p_value_at(
                X, u, W, MF[lead, MF_X], MF[lead, MF_Y], np.int64(2), np.int64(1), np.int64(-1)
            )
            value += sign * LEAF_W * pv
    return value


@njit(**INNER)
def fork(X, X2, seed, r):
    """Rollout ``r``: the state of ``X`` copied into ``X2``, untraced, both sides greedy, with
    the ``r``-th random stream forked from ``seed`` (common to all candidates)."""
    copy_state(X, X2)
    forget_walks(X2)
    G2 = xG(X2)
    G2[G_TRACE] = 0
    G2[G_ROLLOUT] = 1
    G2[G_POL0] = P_GREEDY
    G2[G_POL0 + 1] = P_GREEDY
    rng2 = xRNG(X2)
    base = splitmix(seed + np.uint64(r))
    for w in range(4):
        rng2[w] = splitmix(base + np.uint64(w))
    rng2[4] = 0
    rng2[5] = 0


@njit(**INNER)
def clear_winner(vals, n, rollouts):
    """Row of ``vals`` to play: 0 (the greedy choice) unless another row beats it by a clear
    margin, paired over the same random streams (mean gain above ``MIN_GAIN`` and
    ``Z_GAIN`` standard errors, from the shared ``paired_gain_se``; the largest such gain
    wins)."""
    pick = np.int64(0)
    gain = np.float64(0.0)
    for j in range(1, n):
        mean, se = paired_gain_se(vals, j, rollouts)
        if mean > MIN_GAIN and mean > Z_GAIN * se and mean > gain:
            gain = mean
            pick = j
    return pick


@njit(**ALLOCATING)
def activate_lookahead(X, u, C, C2, X2):
    """One activation of unit ``u`` played by the lookahead policy."""
    OPT = xOPT(X)
    US = xUS(X)
    UI = xUI(X)
    G = xG(X)
    side = US[u, US_SIDE]
    k_best = max(OPT[O_LA_K], 1)
    depth = OPT[O_LA_DEPTH]
    rollouts = max(OPT[O_LA_ROLLOUTS], 1)
    p_start_activation(X, u)
    chosen = np.empty(k_best, dtype=np.int64)
    vals = np.empty((k_best, rollouts))
    for _ in range(MAX_STEPS):
        if UI[u, UI_STATUS] != 0 or G[G_OVER] == 1 or UI[u, UI_MK + MK_ESCAPE] > 0:
            break
        n = p_candidates(X, u, C, np.int64(1))  # every candidate scored
        if n <= 1:
            break
        # the greedy choice first, then the next best k-1 candidates by greedy score
        nc = np.int64(0)
        for _k in range(k_best):
            best = np.int64(-1)
            for i in range(n):
                taken = np.bool_(False)
                for j in range(nc):
                    if chosen[j] == i:
                        taken = np.bool_(True)
                if taken:
                    continue
                if best < 0 or C[i, C_SCORE] > C[best, C_SCORE]:
                    best = i
            if best < 0:
                break
            chosen[nc] = best
            nc += 1
        seed = next_u64(xRNG(X))
        for j in range(nc):
            i = chosen[j]
            for r in range(rollouts):
                fork(X, X2, seed, r)
                ended = np.bool_(False)
                if np.int64(C[i, C_KIND]) != A_END:
                    ended = do_action(X2, u, C, i)
                    p_after_action(X2)
                if not ended and np.int64(C[i, C_KIND]) != A_END:
                    p_finish_activation(X2, u, np.int64(P_GREEDY), C2)
                p_drive(X2, C2, depth, np.bool_(False))
                vals[j, r] = evaluate(X2, side)
        # keep the greedy choice unless another candidate is better by a clear margin
        pick = chosen[clear_winner(vals, nc, rollouts)]
        if np.int64(C[pick, C_KIND]) == A_END:
            break
        ended = do_action(X, u, C, pick)
        p_after_action(X)
        if ended:
            break


@njit(**ALLOCATING)
def choose_unit_lookahead(X, u_greedy, C2, X2):
    """The unit a lookahead player activates: the greedy choice, unless another unit that
    may still be activated does clearly better when its activation (played greedily) and
    the next ``O_LA_DEPTH`` activations are rolled out (same rule as for actions)."""
    OPT = xOPT(X)
    US = xUS(X)
    UI = xUI(X)
    side = US[u_greedy, US_SIDE]
    depth = OPT[O_LA_DEPTH]
    rollouts = max(OPT[O_LA_ROLLOUTS], 1)
    n_units = US.shape[0]
    units = np.empty(n_units, dtype=np.int64)
    nu = np.int64(1)
    units[0] = u_greedy
    for v in range(n_units):
        if (
            v != u_greedy
            and US[v, US_SIDE] == side
            and UI[v, UI_STATUS] == 0
            and UI[v, UI_ACT] == 0
            and UI[v, UI_MK + MK_ESCAPE] == 0
        ):
            units[nu] = v
            nu += 1
    if nu == 1:
        return u_greedy
    vals = np.empty((nu, rollouts))
    seed = next_u64(xRNG(X))
    for j in range(nu):
        v = units[j]
        for r in range(rollouts):
            fork(X, X2, seed, r)
            p_start_activation(X2, v)
            p_finish_activation(X2, v, np.int64(P_GREEDY), C2)
            p_drive(X2, C2, depth, np.bool_(False))
            vals[j, r] = evaluate(X2, side)
    return units[clear_winner(vals, nu, rollouts)]
