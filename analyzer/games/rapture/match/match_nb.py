# mypy: ignore-errors
"""Whole matches: set-up ("2. Game Setup"), the game, records; the parallel block runner.

Randomness: match ``k`` belongs to block ``k // MATCH_BLOCK``; its generator is derived
from the block's state (``analyzer.rng.block_states``) and its index in the block with
splitmix64, so every match (and a ``--trace`` replay of it) is the same whatever the
number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from analyzer.games.rapture.match.calls_nb import (
    p_activate_lookahead,
    p_add_marker,
    p_after_action,
    p_candidates,
    p_choose_unit_lookahead,
    p_cleanup,
    p_close_combat,
    p_drive,
    p_end_of_game,
    p_finish_activation,
    p_lose_mp,
    p_move,
    p_preparation,
    p_ranged,
    p_retreat,
    p_setup_match,
    p_start_activation,
    p_wound,
)
from analyzer.games.rapture.match.context_nb import (
    ALLOCATING,
    INNER,
    JIT,
    K_G,
    K_GF,
    K_MF,
    K_MI,
    K_MIS,
    K_OPT,
    K_RNG,
    K_SCEN,
    K_SCRIPT,
    K_SF,
    K_SI,
    K_TAB,
    K_TER,
    K_TR,
    K_UI,
    K_US,
    K_WI,
    K_WS,
    _as_pointer,
    check_extents,
    new_context,
    register,
    xG,
    xGF,
    xMF,
    xMI,
    xMIS,
    xOPT,
    xRNG,
    xSCEN,
    xSCRIPT,
    xSF,
    xSI,
    xTER,
    xUI,
    xUS,
)
from analyzer.games.rapture.match.engine_nb import roll_off
from analyzer.games.rapture.match.geometry_nb import (
    die,
    line_of_fire,
    point_free_of_solids,
    uniform,
)
from analyzer.games.rapture.match.layout import (
    BOARD,
    C_COLS,
    DEPLOY_DEPTH,
    EV_COLS,
    EV_DEPLOY,
    EV_MISSION,
    EV_TERRAIN,
    G_ACTIONS,
    G_ACTIVATIONS,
    G_BONUS0,
    G_CARRIER0,
    G_CHECK,
    G_COLS,
    G_END,
    G_ENG_OK,
    G_FIRST1,
    G_FORCE_REACTION,
    G_MATCH,
    G_MIS0,
    G_MVP0,
    G_NEV,
    G_NT,
    G_NU0,
    G_PHASE,
    G_POINTS0,
    G_POL0,
    G_ROUND,
    G_STOPAFTER,
    G_SWAP,
    G_TARGET0,
    G_TRACE,
    G_VIOL,
    G_VP0,
    GEO_SLOT,
    GEO_SLOTS,
    GF_AREAX0,
    GF_AREAY0,
    GF_COLS,
    GF_OBJX0,
    GF_OBJY0,
    M_KIND,
    M_SHAPE,
    M_X,
    M_Y,
    MAX_CAND,
    MAX_TERRAIN,
    MF_COLS,
    MF_X,
    MF_Y,
    MI_ALIVE,
    MI_COLS,
    MI_CREDIT,
    MIS_CARRY,
    MIS_HOLD,
    MIS_TAKEOUT,
    O_FIRST_MODE,
    O_HAND0,
    O_HAND_N,
    O_MISSIONS,
    O_POLICY0,
    O_ROUND1_FIRST,
    O_SCENARIO,
    O_SWAP_EDGES,
    PH_PREP,
    SF_R,
    SQUAD,
    T_BUILDING,
    T_COLS,
    T_OBSTACLE,
    TBLOCK,
    TCOVER,
    TK,
    TOUCH_GAP,
    TSOLID,
    TX0,
    TX1,
    TY0,
    TY1,
    UI_COLS,
    UI_CREDIT,
    UI_DEALT,
    UI_ESC_CREDIT,
    UI_STATUS,
    UI_TAKEN,
    UI_VP,
    US_FIRST,
    US_N,
    US_POINTS,
    US_SIDE,
    US_TYPE,
    WI_SIZE,
    WS_GEO,
    WS_SIZE,
    X_FN,
)
from analyzer.games.rapture.match.policies_nb import sight_at
from analyzer.games.rapture.match.state_nb import (
    _own_edge_low,
    ev,
    forget_walks,
    lead_model,
    mm,
    refill,
    refresh_engaged,
    refresh_model,
    spot_free,
)
from analyzer.match.seeding_nb import seed_match  # shared by every match engine

#: Matches per logical block (fixed: results never depend on the thread count).
MATCH_BLOCK = 64
# record columns (one row per match)
(
    R_VP0,
    R_VP1,
    R_ROUNDS,
    R_END,
    R_FIRST1,
    R_MIS0,
    R_MIS1,
    R_SWAP,
    R_ACTIVATIONS,
    R_ACTIONS,
    R_VIOL,
    R_BONUS0,
    R_BONUS1,
    R_MVP0,
    R_MVP1,
) = range(15)
R_COLS = 16
# per unit and match
U_STATUS, U_VP, U_DEALT, U_TAKEN, U_CREDIT = range(5)
U_COLS = 5


@njit(**ALLOCATING)
def new_state(S, trace_rows):
    """Fresh arrays for one match (``D``), sized for the match-up."""
    SI = S[0]
    US = S[2]
    n = SI.shape[0]
    MF = np.zeros((n, MF_COLS))
    MI = np.zeros((n, MI_COLS), dtype=np.int64)
    UI = np.zeros((US.shape[0], UI_COLS), dtype=np.int64)
    G = np.zeros(G_COLS, dtype=np.int64)
    GF = np.zeros(GF_COLS)
    TER = np.zeros((MAX_TERRAIN, T_COLS))
    rng = np.zeros(6, dtype=np.uint64)
    script = np.zeros(2, dtype=np.int64)
    TR = np.zeros((max(trace_rows, 1), EV_COLS), dtype=np.int64)
    WS = np.zeros(WS_SIZE)
    WI = np.zeros(WI_SIZE, dtype=np.int64)
    return (MF, MI, UI, G, GF, TER, rng, script, TR, WS, WI)


@njit(**INNER)
def reset(X, k, trace, check):
    """Start-of-match values: every model on its card, every counter at zero."""
    SI = xSI(X)
    US = xUS(X)
    OPT = xOPT(X)
    MF = xMF(X)
    MI = xMI(X)
    UI = xUI(X)
    G = xG(X)
    MF[:] = -1000.0
    MI[:] = 0
    UI[:] = 0
    G[:] = 0
    xGF(X)[:] = 0.0
    xTER(X)[:] = 0.0
    forget_walks(X)
    for m in range(SI.shape[0]):
        MI[m, MI_ALIVE] = 1
        MI[m, MI_CREDIT] = -1
        refresh_model(X, m)
    for u in range(US.shape[0]):
        UI[u, UI_ESC_CREDIT] = -1
        UI[u, UI_CREDIT] = -1
        G[G_NU0 + US[u, US_SIDE]] += 1
        G[G_POINTS0 + US[u, US_SIDE]] += US[u, US_POINTS]
    G[G_MATCH] = k
    G[G_TRACE] = trace
    G[G_CHECK] = check
    G[G_POL0] = OPT[O_POLICY0]
    G[G_POL0 + 1] = OPT[O_POLICY0 + 1]
    G[G_CARRIER0] = -1
    G[G_CARRIER0 + 1] = -1
    G[G_TARGET0] = -1
    G[G_TARGET0 + 1] = -1
    G[G_STOPAFTER] = -1
    G[G_PHASE] = PH_PREP
    G[G_ROUND] = 0
    G[G_FORCE_REACTION] = -1
    xSCRIPT(X)[0] = 0
    xSCRIPT(X)[1] = 0


# ------------------------------------------------------------------ terrain
@njit(**INNER)
def _rect_gap(a0, a1, a2, a3, b0, b1, b2, b3):
    dx = max(b0 - a2, a0 - b2, 0.0)
    dy = max(b1 - a3, a1 - b3, 0.0)
    return np.sqrt(dx * dx + dy * dy)


@njit(**INNER)
def _spaced(TER, k, x0, y0, w, h, from_buildings, from_others):
    """A w x h piece at (x0, y0) keeps these gaps from the first ``k`` pieces."""
    for p in range(k):
        need = from_buildings if TER[p, TK] == T_BUILDING else from_others
        gap = _rect_gap(x0, y0, x0 + w, y0 + h, TER[p, TX0], TER[p, TY0], TER[p, TX1], TER[p, TY1])
        if gap < need:
            return False
    return True


@njit(**INNER)
def _set_piece(TER, k, kind, x0, y0, x1, y1):
    """A terrain piece with the rulebook's effects ("4. Terrain"): buildings block LoS and
    movement, small obstacles do neither; both give cover through obstacles."""
    TER[k, TK] = kind
    TER[k, TX0] = x0
    TER[k, TY0] = y0
    TER[k, TX1] = x1
    TER[k, TY1] = y1
    TER[k, TBLOCK] = 1.0 if kind == T_BUILDING else 0.0
    TER[k, TCOVER] = 1.0
    TER[k, TSOLID] = 1.0 if kind == T_BUILDING else 0.0


@njit(**ALLOCATING)
def generate_terrain(X):
    """ "Set Up the Terrain": 3-4 buildings and 5-6 small obstacles, none in a deployment
    zone, buildings at least 10 cm apart, spread over the battlefield (one building per
    quarter of the middle band, in random order).  Buildings are 10-20 cm rectangles;
    obstacles are walls (8-14 x 2 cm, either way round) or crates (4 x 4 cm), kept 4.5 cm
    from buildings and 3 cm from each other so that bases can pass between pieces."""
    TER = xTER(X)
    rng = xRNG(X)
    nb = 3 + (1 if die(rng, np.int64(2)) == 2 else 0)
    no = 5 + (1 if die(rng, np.int64(2)) == 2 else 0)
    lo = np.float64(DEPLOY_DEPTH)
    hi = np.float64(BOARD - DEPLOY_DEPTH)
    half = 0.5 * (hi - lo)
    order = np.arange(4)
    for i in range(3, 0, -1):
        j = die(rng, i + 1) - 1
        order[i], order[j] = order[j], order[i]
    k = np.int64(0)
    for i in range(nb):
        sector = order[i % 4]
        for _ in range(80):
            w = 10.0 + 10.0 * uniform(rng)
            h = 10.0 + 10.0 * uniform(rng)
            sx = (sector % 2) * 45.0
            sy = lo + (sector // 2) * half
            x0 = sx + uniform(rng) * (45.0 - w)
            y0 = sy + uniform(rng) * (half - h)
            if _spaced(TER, k, x0, y0, w, h, 10.0, 10.0):
                _set_piece(TER, k, np.int64(T_BUILDING), x0, y0, x0 + w, y0 + h)
                k += 1
                break
    for _i in range(no):
        for _ in range(80):
            shape = die(rng, np.int64(3))
            if shape == 1:
                w = np.float64(4.0)
                h = np.float64(4.0)
            else:
                w = 8.0 + 6.0 * uniform(rng)
                h = np.float64(2.0)
                if shape == 3:
                    w, h = h, w
            x0 = uniform(rng) * (BOARD - w)
            y0 = lo + uniform(rng) * (hi - lo - h)
            if _spaced(TER, k, x0, y0, w, h, 4.5, 3.0):
                _set_piece(TER, k, np.int64(T_OBSTACLE), x0, y0, x0 + w, y0 + h)
                k += 1
                break
    return k


@njit(**INNER)
def setup_terrain(X):
    SCEN = xSCEN(X)
    OPT = xOPT(X)
    G = xG(X)
    TER = xTER(X)
    nt = OPT[O_SCENARIO]
    if nt > 0:
        for p in range(nt):
            for c in range(T_COLS):
                TER[p, c] = SCEN[p, c]
    else:
        nt = generate_terrain(X)
    G[G_NT] = nt
    for p in range(nt):
        ev(
            X,
            EV_TERRAIN,
            -1,
            -1,
            -1,
            -1,
            -1,
            np.int64(TER[p, TK]),
            mm(TER[p, TX0]),
            mm(TER[p, TY0]),
            mm(TER[p, TX1]),
            mm(TER[p, TY1]),
            0,
        )


# ----------------------------------------------------------------- missions
@njit(**INNER)
def frame(X, side, x, y):
    """Owner's frame (y from the owner's edge) to battlefield coordinates."""
    if _own_edge_low(X, side):
        return x, y
    return BOARD - x, BOARD - y


@njit(**INNER)
def setup_missions(X):
    """ "Choose Your Missions": each player shuffles three mission cards and draws one;
    mission objectives are placed (objects moved to the nearest free spot off solid
    terrain, "try to place it at the nearest possible location"); a take-out target is the
    opponent's most expensive unit."""
    US = xUS(X)
    MIS = xMIS(X)
    OPT = xOPT(X)
    G = xG(X)
    GF = xGF(X)
    if OPT[O_MISSIONS] == 0:
        return
    for side in range(2):
        k = OPT[O_HAND0 + O_HAND_N * side + die(xRNG(X), np.int64(O_HAND_N)) - 1]
        G[G_MIS0 + side] = k
        ev(X, EV_MISSION, side, -1, -1, -1, -1, k, 0, 0, 0, 0, 0)
        kind = MIS[k, M_KIND]
        x, y = frame(X, side, MIS[k, M_X], MIS[k, M_Y])
        if kind == MIS_HOLD and MIS[k, M_SHAPE] == 0:
            GF[GF_AREAX0 + 2 * side] = x
            GF[GF_AREAY0 + 2 * side] = y
        elif kind == MIS_CARRY:
            px, py = _free_point(X, x, y)
            GF[GF_OBJX0 + 2 * side] = px
            GF[GF_OBJY0 + 2 * side] = py
            G[G_CARRIER0 + side] = -1
        elif kind == MIS_TAKEOUT:
            best = np.int64(-1)
            for u in range(US.shape[0]):
                if US[u, US_SIDE] != side and (best < 0 or US[u, US_POINTS] > US[best, US_POINTS]):
                    best = u
            G[G_TARGET0 + side] = best


@njit(**INNER)
def _free_point(X, x, y):
    TER = xTER(X)
    nt = xG(X)[G_NT]
    if point_free_of_solids(TER, nt, x, y, np.float64(1.5)):
        return x, y
    for ring in range(1, 40):
        for a in range(16):
            ang = 2.0 * np.pi * a / 16
            px = x + ring * np.cos(ang)
            py = y + ring * np.sin(ang)
            if point_free_of_solids(TER, nt, px, py, np.float64(1.5)):
                return px, py
    return x, y


# --------------------------------------------------------------- deployment
@njit(**ALLOCATING)
def deploy(X):
    """ "Deploy Your Battlegroups": starting with the player with more units (ties: roll-off),
    players alternately place one unit in their 10 cm deployment zone (in list order, at a
    random free spot; apprentices B2B with their leader, squad models 1 cm apart), each
    side in its own frame (B's is A's turned 180 degrees)."""
    US = xUS(X)
    G = xG(X)
    n0 = G[G_NU0]
    n1 = G[G_NU0 + 1]
    side = 0 if n0 > n1 else 1
    if n0 == n1:
        side, _ = roll_off(X)
    nxt = np.zeros(2, dtype=np.int64)
    for _ in range(US.shape[0]):
        if nxt[side] >= G[G_NU0 + side]:
            side = 1 - side
        # the nxt[side]-th unit of this side
        c = np.int64(0)
        u = np.int64(-1)
        for v in range(US.shape[0]):
            if US[v, US_SIDE] == side:
                if c == nxt[side]:
                    u = v
                    break
                c += 1
        nxt[side] += 1
        _place_unit(X, u)
        side = 1 - side
    refresh_engaged(X)


@njit(**INNER)
def _in_zone(X, side, y, r):
    if _own_edge_low(X, side):
        return y - r >= 0.0 and y + r <= DEPLOY_DEPTH
    return y - r >= BOARD - DEPLOY_DEPTH and y + r <= BOARD


@njit(**INNER)
def _place_unit(X, u):
    SF = xSF(X)
    US = xUS(X)
    MF = xMF(X)
    rng = xRNG(X)
    side = US[u, US_SIDE]
    first = US[u, US_FIRST]
    n = US[u, US_N]
    lead = lead_model(X, u)
    r = SF[lead, SF_R]
    low = _own_edge_low(X, side)
    # every position is drawn in the side's own frame (x from its left, y from its own
    # edge); the side at y = 90 sees the board turned 180 degrees, so that both sides
    # deploy point-symmetrically
    f = np.float64(1.0) if low else np.float64(-1.0)
    gap = 1.0 if US[u, US_TYPE] == SQUAD else TOUCH_GAP
    for attempt in range(400):
        x = r + uniform(rng) * (BOARD - 2 * r)
        y = np.float64(0.5 * DEPLOY_DEPTH)
        if attempt > 200:
            y += (uniform(rng) - 0.5) * (DEPLOY_DEPTH - 2 * r)
        if not low:
            x = BOARD - x
            y = BOARD - y
        if not _in_zone(X, side, y, r) or not spot_free(X, lead, x, y):
            continue
        MF[lead, MF_X] = x
        MF[lead, MF_Y] = y
        ok = np.bool_(True)
        placed_prev = lead
        for m in range(first, first + n):
            if m == lead:
                continue
            rm = SF[m, SF_R]
            anchor = lead if US[u, US_TYPE] != SQUAD else placed_prev
            found = np.bool_(False)
            # try sideways first (the zone is only 10 cm deep)
            for sgn in (1.0, -1.0):
                for dy in (0.0, 2.0, -2.0, 3.5, -3.5):
                    dd = SF[anchor, SF_R] + rm + gap
                    if abs(dy) >= dd:
                        continue
                    dx = np.sqrt(dd * dd - dy * dy) * sgn
                    px = MF[anchor, MF_X] + f * dx
                    py = MF[anchor, MF_Y] + f * dy
                    if _in_zone(X, side, py, rm) and spot_free(X, m, px, py):
                        MF[m, MF_X] = px
                        MF[m, MF_Y] = py
                        found = np.bool_(True)
                        break
                if found:
                    break
            if not found:
                ok = np.bool_(False)
                break
            placed_prev = m
        if ok:
            ev(X, EV_DEPLOY, side, u, lead, -1, -1, mm(x), mm(y), 0, 0, 0, 0)
            return
        for m in range(first, first + n):
            MF[m, MF_X] = -1000.0 - 10.0 * m
            MF[m, MF_Y] = -1000.0


# -------------------------------------------------------------------- match
@njit(**INNER)
def swap_of(OPT, k):
    """1 when match ``k`` swaps the deployment edges (``swap_edges``): odd matches; with
    ``first=alternate`` (the first player alternates by match parity, unless a sweep forces
    it) every second pair of matches, so that each 4 matches play all four (first player,
    edge) pairings."""
    if OPT[O_SWAP_EDGES] != 1:
        return np.int64(0)
    if OPT[O_FIRST_MODE] == 1 and OPT[O_ROUND1_FIRST] < 0:
        return (k // 2) % 2
    return k % 2


@njit(**INNER)
def play_match(X, C, C2, X2, k, trace, check):
    """One whole match (set-up, rounds, end), with the match generator already seeded."""
    OPT = xOPT(X)
    G = xG(X)
    reset(X, k, trace, check)
    G[G_SWAP] = swap_of(OPT, k)
    p_setup_match(X)
    while True:
        u = p_drive(X, C, np.int64(-1), np.bool_(True))
        if u < 0:
            break
        u = p_choose_unit_lookahead(X, u, C2, X2)
        p_activate_lookahead(X, u, C, C2, X2)


@njit(**INNER)
def setup_match(X):
    """ "2. Game Setup": terrain, missions and deployment."""
    setup_terrain(X)
    setup_missions(X)
    deploy(X)


@njit(**INNER)
def record(X, REC, UREC, row):
    US = xUS(X)
    UI = xUI(X)
    G = xG(X)
    REC[row, R_VP0] = G[G_VP0]
    REC[row, R_VP1] = G[G_VP0 + 1]
    REC[row, R_ROUNDS] = G[G_ROUND]
    REC[row, R_END] = G[G_END]
    REC[row, R_FIRST1] = G[G_FIRST1]
    REC[row, R_MIS0] = G[G_MIS0]
    REC[row, R_MIS1] = G[G_MIS0 + 1]
    REC[row, R_SWAP] = G[G_SWAP]
    REC[row, R_ACTIVATIONS] = G[G_ACTIVATIONS]
    REC[row, R_ACTIONS] = G[G_ACTIONS]
    REC[row, R_VIOL] = G[G_VIOL]
    REC[row, R_BONUS0] = G[G_BONUS0]
    REC[row, R_BONUS1] = G[G_BONUS0 + 1]
    REC[row, R_MVP0] = G[G_MVP0]
    REC[row, R_MVP1] = G[G_MVP0 + 1]
    for u in range(US.shape[0]):
        UREC[row, u, U_STATUS] = UI[u, UI_STATUS]
        UREC[row, u, U_VP] = UI[u, UI_VP]
        UREC[row, u, U_DEALT] = UI[u, UI_DEALT]
        UREC[row, u, U_TAKEN] = UI[u, UI_TAKEN]
        UREC[row, u, U_CREDIT] = UI[u, UI_CREDIT]


@njit(**INNER)
def make_context(S, D, FN, X):
    """Fill context ``X`` with the static arrays ``S``, the match arrays ``D`` and the
    function addresses ``FN``."""
    for i in range(FN.shape[0]):
        X[X_FN + i] = FN[i]
    register(X, np.int64(K_SI), S[0])
    register(X, np.int64(K_SF), S[1])
    register(X, np.int64(K_US), S[2])
    register(X, np.int64(K_MIS), S[3])
    register(X, np.int64(K_TAB), S[4])
    register(X, np.int64(K_OPT), S[5])
    register(X, np.int64(K_SCEN), S[6])
    register(X, np.int64(K_MF), D[0])
    register(X, np.int64(K_MI), D[1])
    register(X, np.int64(K_UI), D[2])
    register(X, np.int64(K_G), D[3])
    register(X, np.int64(K_GF), D[4])
    register(X, np.int64(K_TER), D[5])
    register(X, np.int64(K_RNG), D[6])
    register(X, np.int64(K_SCRIPT), D[7])
    register(X, np.int64(K_TR), D[8])
    register(X, np.int64(K_WS), D[9])
    register(X, np.int64(K_WI), D[10])
    check_extents(X)


@njit(**ALLOCATING)
def candidate_view(C0):
    """Candidate buffer as a meminfo-free view (see ``context_nb``)."""
    return carray(_as_pointer(C0.ctypes.data), C0.shape, np.float64)


def run_block(S, FN, state, first, count, REC, UREC, check, TR, trace):  # pragma: no cover
    """Play matches ``first .. first + count - 1`` of one block (rows ``0 .. count - 1``).

    Compiled by :mod:`kernels` with an explicit signature, ``nogil`` (blocks run on Python
    threads).  ``state`` is the block's generator state; match ``k`` is seeded from it and
    ``k % MATCH_BLOCK``.  With ``trace`` the events go to ``TR``; returns their number.
    """
    D0 = new_state(S, np.int64(1))
    D1 = (D0[0], D0[1], D0[2], D0[3], D0[4], D0[5], D0[6], D0[7], TR, D0[9], D0[10])
    D2 = new_state(S, np.int64(1))
    C0 = np.zeros((MAX_CAND, C_COLS))
    C20 = np.zeros((MAX_CAND, C_COLS))
    X0, X = new_context()
    X20, X2 = new_context()
    make_context(S, D1, FN, X)
    make_context(S, D2, FN, X2)
    C = candidate_view(C0)
    C2 = candidate_view(C20)
    for k in range(first, first + count):
        seed_match(xRNG(X), state, k % MATCH_BLOCK)
        play_match(X, C, C2, X2, k, trace, check)
        record(X, REC, UREC, k - first)
    events = xG(X)[G_NEV]
    # keep the owners of the memory alive until here
    keep = D1[0][0, 0] + D2[0][0, 0] + C0[0, 0] + C20[0, 0] + S[1][0, 0] + X0[0] + X20[0]
    return events + np.int64(0 * keep)


# ------------------------------------------------------------------ sandbox
(
    OP_RESET,
    OP_REFRESH,
    OP_MOVE,
    OP_CHARGE,
    OP_CC,
    OP_RANGED,
    OP_RETREAT,
    OP_LOSE_MP,
    OP_MARKER,
    OP_PREP,
    OP_CLEANUP,
    OP_END,
    OP_SIGHT,
    OP_ACTIVATE,
    OP_AFTER,
    OP_WOUND,
    OP_PLAY,
    OP_CANDIDATES,
    OP_LOF,
) = range(19)


@njit(**JIT)
def run_op(S, FN, MF, MI, UI, G, GF, TER, rng, script, TR, WS, WI, C, op, a0, a1, a2, a3, f0, f1):
    """One engine operation on a hand-built position (rule tests; see ``sandbox.py``)."""
    D = (MF, MI, UI, G, GF, TER, rng, script, TR, WS, WI)
    X0, X = new_context()
    make_context(S, D, FN, X)
    CV = candidate_view(C)
    for s in range(GEO_SLOTS):  # the terrain may have changed since the last operation
        WS[WS_GEO + s * GEO_SLOT] = 0.0
    G[G_ENG_OK] = 0  # and the models may have been placed by hand
    forget_walks(X)
    out = np.int64(0)
    if op == OP_RESET:
        reset(X, np.int64(0), a0, a1)
    elif op == OP_REFRESH:
        for m in range(xSI(X).shape[0]):
            if xMI(X)[m, 0] == 1:
                refresh_model(X, m)
        refresh_engaged(X)
        refill(X)
    elif op == OP_MOVE:
        p_move(X, a0, f0, f1, np.bool_(False), np.int64(-1))
    elif op == OP_CHARGE:
        p_move(X, a0, f0, f1, np.bool_(True), a1)
    elif op == OP_CC:
        p_close_combat(X, a0, a1)
    elif op == OP_RANGED:
        p_ranged(X, a0, a1)
    elif op == OP_RETREAT:
        p_retreat(X, a0, f0, f1)
    elif op == OP_LOSE_MP:
        p_lose_mp(X, a0, a1, a2)
    elif op == OP_MARKER:
        p_add_marker(X, a0, a1, a2, a3)
    elif op == OP_PREP:
        p_preparation(X)
    elif op == OP_CLEANUP:
        p_cleanup(X)
    elif op == OP_END:
        p_end_of_game(X)
    elif op == OP_SIGHT:
        MFv = xMF(X)
        out = sight_at(X, a0, a1, MFv[a0, 0], MFv[a0, 1], MFv[a1, 0], MFv[a1, 1], np.int64(3))
    elif op == OP_ACTIVATE:
        p_start_activation(X, a0)
        p_finish_activation(X, a0, a1, CV)
    elif op == OP_AFTER:
        p_after_action(X)
    elif op == OP_WOUND:
        out = p_wound(X, a0, a1, a2, a3)
    elif op == OP_PLAY:
        p_drive(X, CV, np.int64(-1), np.bool_(False))
    elif op == OP_CANDIDATES:
        out = p_candidates(X, a0, CV, a1)
    elif op == OP_LOF:
        out = line_of_fire(xMF(X), xMI(X), xSI(X), xSF(X), xSI(X).shape[0], a0, a1, np.int64(3))
    return out + np.int64(0 * (MF[0, 0] + C[0, 0] + S[1][0, 0] + X0[0]))
