"""The Degenesis: Clan Wars mission kernels: dice, wounds, actions, phases, policies.

Rulebook ``degenesis-clan-wars.txt``; every rule function names its section.  All kernels
take the same plain arrays (columns in :mod:`analyzer.games.degenesis.match.layout`):

static  ``un`` (per unit), ``prof`` (per unit, DASHBOARD side and level: DEFENSE, MOVE,
        HIDDEN, SUCKER PUNCHES), ``opt`` (attack options with their roll vectors, the
        layout of ``rolls._encode_pool``), ``pw`` (their exact chances against each
        DEFENSE, from ``rolls.unbotched_successes``), ``fld`` (per TILE), ``dist``
        (DISTANCES), ``los`` (LINE OF SIGHT), ``mv`` (one MOVE's paths), ``ms`` (mission
        and options);
state   ``st`` (per unit), ``g`` (match), ``dc`` (dice script: ``dc[0]`` scripted die
        faces 1..6 in ``dc[1:]``), ``rng`` (the match generator), ``ev`` (trace rows).
"""

# ruff: noqa: SIM102  (nested conditions kept readable in the kernels)
from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import types as nt

from analyzer.dice.random_nb import next_u64, roll_die
from analyzer.games.degenesis.match.layout import (
    A_ABOMINATION,
    A_ADVENTURER,
    A_CONQUEROR,
    A_CREATOR,
    A_HEALER,
    A_HERETIC,
    A_HERMIT,
    A_MARTYR,
    A_MEDIATOR,
    A_MENTOR,
    A_RULER,
    A_SEEKER,
    A_TRADITIONALIST,
    ABOMINATION_BOTCHES,
    CREATOR_SUCCESS,
    DRAW_CONCEPT,
    DRAW_OVERCOMMIT,
    DRAW_SEEKER,
    E_AMBUSH,
    E_ARCANA,
    E_ATTACK,
    E_BOTCH,
    E_DISCARD,
    E_DRAW,
    E_DROP,
    E_END,
    E_EXIT,
    E_FIXED,
    E_FLIP,
    E_HEAL,
    E_HOLD,
    E_MOVE,
    E_OVERCOMMIT,
    E_PASS,
    E_PICKUP,
    E_REACT,
    E_REVEAL,
    E_ROUND,
    E_SCOUT,
    E_SETUP,
    E_SPAWN,
    E_STUNNED,
    E_TRADE,
    E_TRAIT,
    E_TURN,
    E_WOUND,
    END_DEPLETED,
    END_EXTRACTED,
    END_HELD,
    END_HUNTED,
    END_RETREAT,
    END_ROUNDS,
    F_CARRY,
    F_DEF,
    F_EXECUTE,
    F_FIX,
    F_HARROW,
    F_HEAL,
    F_HIDDEN,
    F_MOVE,
    F_NOPT,
    F_PUNCH,
    F_REVEAL,
    F_SCOUT,
    F_SNARE,
    F_STUN_AT,
    F_VERDICT,
    F_VERDICT_DEF,
    G_ACT,
    G_ADVENTURER,
    G_AMBUSHES,
    G_ARCANA,
    G_ATTACKS,
    G_BONUS,
    G_BONUS_U,
    G_BOTCHES,
    G_CHECK,
    G_CONQUEROR,
    G_DONE,
    G_DPOS,
    G_DRAWS,
    G_END,
    G_FIRST,
    G_GFLIP,
    G_HAND,
    G_HITS,
    G_ITEM_AT,
    G_KILLED,
    G_LOST,
    G_MEDIATOR,
    G_NEV,
    G_OVER,
    G_OVERCOMMITS,
    G_POOL,
    G_PUNCHES,
    G_REVEALS,
    G_ROLL,
    G_ROUND,
    G_SCOUTS,
    G_SPAWNS,
    G_STEP,
    G_STORED,
    G_STUNS,
    G_TRACE,
    G_VIOL,
    G_WINNER,
    HEAL_HEALER_FLIP,
    HEAL_HEALER_STAGE,
    HEAL_TRAIT,
    K_CHAMPION,
    K_LEGION,
    K_OPERATIVE,
    KIND_EXTRACT,
    KIND_HOLD,
    KIND_HUNT,
    M_AMBUSH_STOPS,
    M_ARCANA,
    M_AREA_ALLIES,
    M_CAP,
    M_EDGES,
    M_FIRST,
    M_FORCED,
    M_HIDDEN_ON_TILE,
    M_KIND,
    M_LOOK_DEPTH,
    M_LOOK_ROLLOUTS,
    M_NEED,
    M_NTILES,
    M_OVERCOMMIT,
    M_POL_A,
    M_PUNCH_FIRST,
    M_RETREAT,
    M_ROUNDS,
    M_TARGET,
    MAX_DEF,
    MAX_ITEMS,
    MAX_LEVELS,
    MAX_MOVE,
    MAX_OPT,
    MAX_RANGE,
    MAX_UNITS,
    MENTOR_SECURE,
    N_ARCANA,
    O_AREA,
    O_ITEM,
    O_POOL,
    O_RANGE,
    O_RANGED,
    O_STUN,
    O_TRAIT,
    O_USABLE,
    ON_DEAD,
    ON_FIELD,
    ON_LEFT,
    ON_RESERVE,
    OVER_SECURE,
    P_LIMIT,
    P_MOD,
    POL_GREEDY,
    POL_RANDOM,
    POL_STRONG,
    POOL_W,
    PW_BOTCH,
    PW_DIE,
    PW_SEC,
    ROWS,
    RULER_MOVE,
    S_ATTACKS,
    S_BODY,
    S_CARRIER,
    S_CARRY,
    S_DEALT,
    S_DEATHS,
    S_DEFMOD,
    S_EDGES,
    S_FLIPPED,
    S_HERMIT,
    S_KILLS,
    S_ON,
    S_PUNCH,
    S_REVEALED,
    S_SCORE,
    S_SIDE,
    S_SNARED,
    S_SPAWNS,
    S_STUN,
    S_TAKEN,
    S_TILE,
    S_TRAUMA,
    S_WOUNDS,
    T_CHAMP,
    T_EXIT,
    T_GOAL,
    T_HARD,
    T_OBJ,
    T_OSP,
    T_SPAWN,
    T_THREATS,
    TR_HARROW,
    TR_REVEAL,
    TR_SNARE,
    TR_STUN,
    TR_VERDICT,
    U_BODY,
    U_CARD,
    U_CONCEPT,
    U_HEALTH,
    U_ITEMS,
    U_KIND,
    U_LEVELS,
    U_LOAD,
    U_POINTS,
    U_SIDE,
    U_USES,
    U_VALUE,
)
from analyzer.games.degenesis.rolls import _roll_once
from analyzer.match.seeding_nb import seed_match, seed_rollout
from analyzer.match.trace_nb import append_event

i8 = nt.int64
f8 = nt.float64
b1 = nt.boolean
I1 = nt.int64[::1]
I2 = nt.int64[:, ::1]
F2 = nt.float64[:, ::1]
U1 = nt.uint64[::1]
#: The arrays every rule kernel takes, in this order (one compiled specialisation each).
#: Kernels that never allocate are compiled with ``_nrt=False`` (no atomic reference
#: counting of the arrays on each call: docs/match-framework.md, "Fast kernels"); only
#: the rollout policy and the entry kernels allocate.  Only the entry kernels (``run_block``,
#: ``run_block_strong``, ``sandbox_op``) are called from Python: the others get no Python or C
#: wrapper (less to compile).
KERNEL = {"cache": True, "_nrt": False, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
ALLOCATING = {"cache": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
#: Thin levels between the entry kernel and the TURN / REACTION kernels are inlined at
#: numba's IR level (no signature, never compiled alone): each compiled level links its
#: callees' code and has LLVM optimise the whole again (docs/engines/heroscape.md).
THIN = {**KERNEL, "inline": "always"}
CTX = (I2, I2, I2, F2, I2, I2, I2, I2, I1, I2, I1, I1, U1, I2)

STUN_DEFENSE = 2  # "Stun": "receives DEFENSE -2"
THREAT_AREA = 2  # "Threats": DEFENSE +2 against AREA ATTACKS
MAXC = 160  # candidate actions per decision
BIG = 1e9
TIE = 1e-12  # greedy values this close are equal (``choose`` draws among them)
# candidate kinds
C_PASS, C_MOVE, C_ATTACK, C_AREA, C_SCOUT, C_FLIP, C_EXIT, C_SPAWN, C_FIX = range(9)
C_PICKUP, C_TRADE, C_DROP, C_DISCARD, C_HEAL, C_REVEAL = 9, 10, 11, 12, 13, 14
C_STUN, C_VERDICT, C_EXECUTE, C_SNARE = 15, 16, 17, 18
# rule-test operations (sandbox.py)
OP_BLOCK, OP_ATTACK, OP_MOVE, OP_SCOUT, OP_SPAWN, OP_EXIT, OP_AREA = 0, 1, 2, 3, 4, 5, 6
OP_TURN, OP_REACT, OP_ROUND, OP_CHECK, OP_AMBUSH, OP_SEEK = 7, 8, 9, 10, 11, 12
OP_BEGIN = 13  # the start of an OPERATIVE's TURN (X, IV, VI) without its ACTIONS
OP_PLAY = 100  # OP_PLAY + a candidate kind C_*: ``play`` that candidate (operands a, b, c)


# =========================================================== dice and trace
@njit((I1, I1, U1), **KERNEL)
def die(g, dc, rng):
    """One die face 1..6: the next scripted face while the script lasts, else the generator."""
    if g[G_DPOS] < dc[0]:
        g[G_DPOS] += 1
        return dc[g[G_DPOS]]
    return int(roll_die(rng, 6))


@njit((U1, i8), **KERNEL)
def pick(rng, n):
    """A uniform choice in 0..n-1 (the random policy; never scripted)."""
    if n <= 1:
        return 0
    return int(roll_die(rng, n)) - 1


@njit((I1, I2, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8), **KERNEL)
def log(g, ev, kind, side, a, b, c, d, e, f, h, i, j):
    if g[G_TRACE] != 0 and g[G_ROLL] == 0:
        g[G_NEV] = append_event(ev, g[G_NEV], kind, g[G_ROUND], side, a, b, c, d, e, f, h, i, j)


@njit((I1, I1, i8), **KERNEL)
def policy(ms, g, side):
    """The policy of ``side`` (greedy for both inside a rollout)."""
    if g[G_ROLL] != 0:
        return POL_GREEDY
    return ms[M_POL_A + side]


# =========================================================== unit state
@njit((I2, I2, i8), **KERNEL)
def prow(un, st, u):
    """The profile row of ``u`` now: its DASHBOARD side and level (POTENTIALS FLIPPED or
    CHAMPION STAGE): S_WOUNDS counts 1 per FLESHWOUND and 2 per TRAUMA, so the POTENTIALS
    face-down are S_WOUNDS - S_TRAUMA (a FLESHWOUND FLIPPED back after TRAUMA shows a
    POTENTIAL again: Patch Up, VI The Healer)."""
    lv = min(st[u, S_WOUNDS] - st[u, S_TRAUMA], un[u, U_LEVELS] - 1)
    side = st[u, S_SIDE] if un[u, U_KIND] == K_OPERATIVE else 0
    return u * ROWS + side * MAX_LEVELS + lv


@njit((I2, I2, I2, I2, i8, b1), **KERNEL)
def defense(un, prof, fld, st, u, area):
    """DEFENSE of ``u`` ("Attack", "Defense", "Stun": -2); against an AREA ATTACK plus its
    HIDDEN +/-X (HARD TERRAIN: HIDDEN +1) and +2 for a THREAT ("Area Attack", "Threats")."""
    d = prof[prow(un, st, u), F_DEF] - st[u, S_DEFMOD]  # Verdict: DEFENSE -X this ROUND
    if st[u, S_STUN] == 1:
        d -= STUN_DEFENSE
    if area:
        d += prof[prow(un, st, u), F_HIDDEN] + fld[st[u, S_TILE], T_HARD]
        if un[u, U_SIDE] == 1 and st[u, S_REVEALED] == 0:
            d += THREAT_AREA
    return max(d, 0)


@njit((I2, I2, I2, I2, i8), **KERNEL)
def hidden(un, prof, fld, st, u):
    """HIDDEN +/-X of ``u``: its ABILITY plus 1 in HARD TERRAIN ("Hidden", "Hard Terrain")."""
    return prof[prow(un, st, u), F_HIDDEN] + fld[st[u, S_TILE], T_HARD]


@njit((I1, i8, i8), **KERNEL)
def target_distance(ms, d, hid):
    """ "Hidden": the DISTANCE to a TARGET with HIDDEN +/-X "is modified by X" and "can never
    be less than 0"; on the attacker's own TILE (DISTANCE 0) it stays 0 unless
    ``hidden_on_tile`` (cover is against ATTACKS from outside the TILE: an AMBUSH must be
    able to TARGET the OPERATIVES sharing the THREAT's TILE, "Ambush")."""
    if d == 0 and ms[M_HIDDEN_ON_TILE] == 0:
        return 0
    return max(d + hid, 0)


@njit((I2, I2, I2, i8, i8), **KERNEL)
def usable(un, opt, st, u, row):
    """Option ``row`` may be used: its colour matches the side and its ITEM is CARRIED and
    operational."""
    if opt[row, O_USABLE] == 0:
        return False
    item = opt[row, O_ITEM]
    return item < 0 or ((st[u, S_CARRY] >> item) & 1 == 1 and (st[u, S_FLIPPED] >> item) & 1 == 0)


@njit((F2, i8, i8), **KERNEL)
def chance(pw, row, d):
    """P(the ROLL of option ``row`` reaches DEFENSE ``d``) (exact, from ``rolls``)."""
    if d > MAX_DEF:
        return 0.0
    return pw[row, max(d, 0)]


@njit((I2, I2, i8, i8), **KERNEL)
def count_on(un, st, side, tile):
    """Units of ``side`` on the FIELD on ``tile``."""
    n = 0
    for v in range(st.shape[0]):
        if st[v, S_ON] == ON_FIELD and st[v, S_TILE] == tile and un[v, U_SIDE] == side:
            n += 1
    return n


@njit((I2, I2, i8, i8), **KERNEL)
def threats_on(un, st, tile, exclude):
    """THREAT tokens (unREVEALED HOSTILE units) on ``tile``."""
    n = 0
    for v in range(st.shape[0]):
        if v != exclude and st[v, S_ON] == ON_FIELD and st[v, S_TILE] == tile:
            if un[v, U_SIDE] == 1 and st[v, S_REVEALED] == 0:
                n += 1
    return n


# =========================================================== the tarot and ROLLS
#: The SEEKER's wish list of each side, best first (the ARCANA the AIs play).
SEEK_ORDER = (
    (A_HEALER, A_MENTOR, A_CREATOR, A_TRADITIONALIST, A_ABOMINATION),
    (A_ABOMINATION, A_HEALER, A_TRADITIONALIST, A_MENTOR, A_CREATOR),
)


@njit((I1, i8, i8), **KERNEL)
def holds(g, side, card):
    """``side`` has ARCANA ``card`` in its hand."""
    return (g[G_HAND + side] >> card) & 1 == 1


@njit((I1, I1, U1, i8), **KERNEL)
def wants(ms, g, rng, side):
    """``side`` plays an ARCANA that turns the outcome its way: greedy always, random
    half the time."""
    return policy(ms, g, side) != POL_RANDOM or pick(rng, 2) == 0


@njit((I1, I2, U1, i8, i8), **KERNEL)
def draw(g, ev, rng, side, why):
    """ "The Tarot": ``side`` DRAWS 1 ARCANA from the APOCALYPTIC TAROT (every card in no
    hand); "if the APOCALYPTIC TAROT is ever completely emptied", no effect."""
    deck = ((1 << N_ARCANA) - 1) & ~(g[G_HAND] | g[G_HAND + 1])
    n = 0
    for card in range(N_ARCANA):
        n += (deck >> card) & 1
    if n == 0:
        log(g, ev, E_DRAW, side, -1, why, 0, 0, 0, 0, 0, 0, 0)
        return -1
    j = pick(rng, n)
    for card in range(N_ARCANA):
        if (deck >> card) & 1 == 1:
            if j == 0:
                g[G_HAND + side] |= 1 << card
                g[G_DRAWS] += 1
                log(g, ev, E_DRAW, side, card, why, 0, 0, 0, 0, 0, 0, 0)
                return card
            j -= 1
    return -1


@njit((I1, I1, I2, U1, i8, i8, i8), **KERNEL)
def play_arcana(ms, g, ev, rng, side, card, u):
    """ "The Tarot": ``side`` plays ``card`` (no ACTION; back into the deck once resolved);
    the other side may answer with "VII – The Traditionalist: After an ARCANA is played,
    NEGATE it".  Returns whether the effect resolves."""
    g[G_HAND + side] &= ~(1 << card)
    g[G_ARCANA] += 1
    other = 1 - side
    negated = holds(g, other, A_TRADITIONALIST) and wants(ms, g, rng, other)
    if negated:
        g[G_HAND + other] &= ~(1 << A_TRADITIONALIST)
        g[G_ARCANA] += 1
    log(g, ev, E_ARCANA, side, card, u, int(negated), 0, 0, 0, 0, 0, 0)
    return not negated


@njit((I2, I1, I1, I2, U1), **KERNEL)
def deal_concepts(un, ms, g, ev, rng):
    """ "Field Setup": every OPERATIVE is dealt the ARCANA of its CONCEPT; of two sharing
    one, the later in the ROSTER DRAWS instead."""
    if ms[M_ARCANA] == 0:
        return
    for u in range(un.shape[0]):
        c = un[u, U_CONCEPT]
        if un[u, U_SIDE] != 0 or c < 0 or c >= N_ARCANA:
            continue
        if holds(g, 0, c):
            draw(g, ev, rng, 0, DRAW_CONCEPT)
        else:
            g[G_HAND] |= 1 << c
            log(g, ev, E_DRAW, 0, c, DRAW_CONCEPT, 0, 0, 0, 0, 0, 0, 0)


@njit((I1, I1, I2, U1), **KERNEL)
def seek(ms, g, ev, rng):
    """ "V – The Seeker: Choose an ARCANA then DRAW it": at the start of a ROUND a side
    holding it fetches the first card of its wish list still in the deck."""
    for side in range(2):
        if ms[M_ARCANA] == 0 or not holds(g, side, A_SEEKER):
            continue
        for card in SEEK_ORDER[side]:
            if holds(g, 0, card) or holds(g, 1, card) or not wants(ms, g, rng, side):
                continue
            if play_arcana(ms, g, ev, rng, side, A_SEEKER, -1):
                g[G_HAND + side] |= 1 << card
                g[G_DRAWS] += 1
                log(g, ev, E_DRAW, side, card, DRAW_SEEKER, 0, 0, 0, 0, 0, 0, 0)
            break


@njit((I1, I2, U1), **KERNEL)
def settle_overcommit(g, ev, rng):
    """ "Overcommitting": the opposing side DRAWS 1 ARCANA "after the ROLL has been fully
    resolved" (its ARCANA, WOUNDS and STUNS)."""
    if g[G_OVER] > 0:
        side = g[G_OVER] - 1
        g[G_OVER] = 0
        draw(g, ev, rng, side, DRAW_OVERCOMMIT)


@njit((I2, I2, i8), **KERNEL)
def precious(un, st, v):
    """A WOUND on ``v`` is worth an ARCANA: it would kill an OPERATIVE, or it is a
    CHAMPION's (VI The Healer, IX The Hermit)."""
    lethal = st[v, S_WOUNDS] + 1 >= un[v, U_HEALTH]
    return un[v, U_KIND] == K_CHAMPION or (un[v, U_KIND] == K_OPERATIVE and lethal)


@njit((I1, I1, I2, U1, i8, i8, i8, i8), **KERNEL)
def round_arcana(ms, g, ev, rng, side, flag, arcana, u):
    """Whether a ROUND-long ARCANA of ``side`` is in force: played this ROUND (``g[flag +
    side]``), or played now by ``u``'s side if it holds the card and wants to."""
    if g[flag + side] == 1:
        return True
    if ms[M_ARCANA] == 1 and holds(g, side, arcana) and wants(ms, g, rng, side):
        if play_arcana(ms, g, ev, rng, side, arcana, u):
            g[flag + side] = 1
            return True
    return False


@njit((I2, I1, I1, I2, U1, i8), **KERNEL)
def mediated(un, ms, g, ev, rng, v):
    """ "VIII – The Mediator: You and your ALLIES cannot be ATTACKED during AMBUSHES or
    SUCKER PUNCHES this ROUND": ``v``'s side played it this ROUND, or plays it now (on the
    first such FREE ATTACK on one of its units)."""
    return round_arcana(ms, g, ev, rng, un[v, U_SIDE], G_MEDIATOR, A_MEDIATOR, v)


@njit((I2, I1, I2, I1, I2, U1, i8), **KERNEL)
def hermit(un, ms, st, g, ev, rng, v):
    """ "IX – The Hermit: You or an ALLY cannot be ATTACKED from outside their TILE this
    ROUND": played on such an ATTACK on a unit worth it (``precious``), the ATTACK lost."""
    if st[v, S_HERMIT] == 1:
        return True
    side = un[v, U_SIDE]
    if ms[M_ARCANA] == 1 and holds(g, side, A_HERMIT) and precious(un, st, v):
        if wants(ms, g, rng, side) and play_arcana(ms, g, ev, rng, side, A_HERMIT, v):
            st[v, S_HERMIT] = 1
            return True
    return False


@njit((*CTX, i8, i8, i8), **KERNEL)
def overcommit(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, row, diff):
    """ "Overcommitting": before a ROLL against DIFFICULTY ``diff`` the AI of ``u`` adds 1
    DIE to the POOL copy or gains SECURE 1 (greedy: when the ROLL is an even chance,
    15%..65%, the DIE with the fewest BOTCH faces, then the most SUCCESSES, unless SECURE 1
    gives the higher exact chance, ``PW_DIE`` / ``PW_SEC``; random: one time in four, any
    DIE or SECURE 1); ``settle_overcommit`` then lets the other side DRAW."""
    side = un[u, U_SIDE]
    if ms[M_OVERCOMMIT] == 0 or diff < 0:
        return
    kind = -1
    if policy(ms, g, side) == POL_RANDOM:
        if pick(rng, 4) == 0:
            kind = pick(rng, 4)
    else:
        p = chance(pw, row, diff)
        if 0.15 <= p <= 0.65:
            best = -BIG
            for t in range(3):
                worth = 0.0
                for f in range(6):
                    face = g[G_POOL + 5 + 6 * t + f]
                    worth += face if face >= 0 else -100.0
                if worth > best:
                    best = worth
                    kind = t
            d = min(max(diff, 0), MAX_DEF)
            if pw[row, PW_SEC + d] > pw[row, PW_DIE + d] + 1e-12:
                kind = OVER_SECURE
    if kind == OVER_SECURE:
        g[G_POOL + 3] += 1  # the POOL vector's SECURE (``rolls._encode_pool``: its limit)
    if kind >= 0:
        if kind != OVER_SECURE:
            g[G_POOL + kind] += 1
        g[G_OVER] = 2 - side
        g[G_OVERCOMMITS] += 1
        log(g, ev, E_OVERCOMMIT, side, u, kind, 0, 0, 0, 0, 0, 0, 0)


@njit((*CTX, i8, i8, i8), **KERNEL)
def roll(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, row, diff):
    """ "Dice Rolls", "Secure", "Success": one ROLL by ``u`` of option ``row``'s POOL vector
    (the layout of ``rolls._encode_pool``, copied to the scratch ``g[G_POOL:]``): -1 if it
    BOTCHES, else max(SUCCESSES + SUCCESS +/-X, 0).  Unscripted and without the tarot it is
    ``rolls._roll_once`` itself; otherwise the same dice one by one (the same draws), so the
    ARCANA played "After a ROLL" can change it: the roller's II The Mentor (SECURE 3) or
    I The Creator (SUCCESS +3) when that turns a failure against ``diff`` (>= 0) into a
    success, the other side's XII The Abomination (3 BOTCHES) when that turns a success
    into a BOTCH ("Tarot Effects"); an OVERCOMMIT first ("Overcommitting")."""
    for i in range(POOL_W):
        g[G_POOL + i] = opt[row, O_POOL + i]
    if g[G_BONUS_U] == u + 1:  # Execution: SUCCESS +X on this ATTACK
        g[G_POOL + P_MOD] += g[G_BONUS]
    p = g[G_POOL : G_POOL + POOL_W]
    overcommit(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, row, diff)
    if g[G_DPOS] >= dc[0] and ms[M_ARCANA] == 0:
        return int(_roll_once(rng, p))
    total = p[P_MOD]
    botches = 0
    for t in range(3):
        for _ in range(p[t]):
            face = p[5 + 6 * t + die(g, dc, rng) - 1]
            if face < 0:
                botches += 1
            else:
                total += face
    limit = p[P_LIMIT]
    if ms[M_ARCANA] == 1 and diff >= 0:
        side = un[u, U_SIDE]
        if botches > limit or total < diff:
            if botches <= limit + MENTOR_SECURE and total >= diff and holds(g, side, A_MENTOR):
                if wants(ms, g, rng, side) and play_arcana(ms, g, ev, rng, side, A_MENTOR, u):
                    limit += MENTOR_SECURE
            elif botches <= limit and total + CREATOR_SUCCESS >= diff:
                if holds(g, side, A_CREATOR) and wants(ms, g, rng, side):
                    if play_arcana(ms, g, ev, rng, side, A_CREATOR, u):
                        total += CREATOR_SUCCESS
        elif holds(g, 1 - side, A_ABOMINATION) and wants(ms, g, rng, 1 - side):
            if play_arcana(ms, g, ev, rng, 1 - side, A_ABOMINATION, u):
                botches += ABOMINATION_BOTCHES
                if botches > limit and botches <= limit + MENTOR_SECURE:
                    if holds(g, side, A_MENTOR) and wants(ms, g, rng, side):
                        if play_arcana(ms, g, ev, rng, side, A_MENTOR, u):
                            limit += MENTOR_SECURE
    if botches > limit:
        return -1
    return max(total, 0)


# =========================================================== mission end
@njit(CTX, **KERNEL)
def check_end(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev):
    """ "Mission End", "Failure": the mission's OBJECTIVE done, or the ROSTER depleted."""
    if g[G_END] >= 0:
        return
    kind = ms[M_KIND]
    if kind == KIND_HUNT and st[ms[M_TARGET], S_ON] == ON_DEAD:
        g[G_END] = END_HUNTED
    elif kind == KIND_EXTRACT and g[G_DONE] >= ms[M_NEED]:
        g[G_END] = END_EXTRACTED
    elif kind == KIND_HOLD and g[G_DONE] >= ms[M_NEED]:
        g[G_END] = END_HELD
    else:
        on = 0
        for v in range(un.shape[0]):
            if un[v, U_SIDE] == 0 and st[v, S_ON] == ON_FIELD:
                on += 1
        if on == 0:
            g[G_END] = END_DEPLETED
    if g[G_END] >= 0:
        g[G_WINNER] = 1 if g[G_END] <= END_HUNTED else 2


# =========================================================== ITEMS
@njit((i8,), **KERNEL)
def popcount(m):
    n = 0
    while m > 0:
        n += m & 1
        m >>= 1
    return n


@njit((I2, I2, i8), **KERNEL)
def load(un, st, u):
    """ "Carrying": what ``u`` CARRIES against its ENCUMBRANCE LIMIT: its ITEMS (those that
    never change hands included) and a DEAD comrade's body (2 ITEMS, 3 with WORN ARMOR)."""
    n = un[u, U_LOAD] + popcount(st[u, S_CARRY])
    if st[u, S_BODY] > 0:
        n += un[st[u, S_BODY] - 1, U_BODY]
    return n


@njit((I1, i8), **KERNEL)
def ground(g, tile):
    """The UNCARRIED ITEMS lying on ``tile`` (bits of the ROSTER's item list)."""
    m = 0
    for i in range(MAX_ITEMS):
        if g[G_ITEM_AT + i] == tile:
            m |= 1 << i
    return m


@njit((I1, I2, i8, i8), **KERNEL)
def put_down(g, st, u, i):
    """ITEM ``i`` leaves ``u``'s hands for its TILE, keeping its face ("Drop": "The ITEMS
    maintain their current face orientation")."""
    g[G_ITEM_AT + i] = st[u, S_TILE]
    if (st[u, S_FLIPPED] >> i) & 1 == 1:
        g[G_GFLIP] |= 1 << i
    st[u, S_CARRY] &= ~(1 << i)
    st[u, S_FLIPPED] &= ~(1 << i)


@njit((I1, I2, i8, i8, i8), **KERNEL)
def hand_over(g, st, u, w, i):
    """ITEM ``i`` goes from ``u``'s hands to ``w``'s, with its face ("Trade")."""
    st[w, S_CARRY] |= 1 << i
    st[w, S_FLIPPED] |= st[u, S_FLIPPED] & (1 << i)
    st[u, S_CARRY] &= ~(1 << i)
    st[u, S_FLIPPED] &= ~(1 << i)


@njit((I2, I2, I1, I2, i8), **KERNEL)
def drop_all(un, st, g, ev, u):
    """ "Items": "When an OPERATIVE DIES, all of their ITEMS are DROPPED on their TILE" (a
    WORN ARMOR is not: it never changes hands here), and a body it CARRIED with them."""
    for i in range(MAX_ITEMS):
        if (st[u, S_CARRY] >> i) & 1 == 1:
            put_down(g, st, u, i)
            log(g, ev, E_DROP, 0, u, i, -1, st[u, S_TILE], 0, 0, 0, 0, 0)
    if st[u, S_BODY] > 0:
        b = st[u, S_BODY] - 1
        st[b, S_CARRIER] = 0
        st[u, S_BODY] = 0
        log(g, ev, E_DROP, 0, u, -1, b, st[u, S_TILE], 0, 0, 0, 0, 0)


@njit((I2, I2, I2, F2, I2, i8, i8, i8, i8, i8), **KERNEL)
def best_chance(un, prof, opt, pw, st, u, pr, carry, flips, d):
    """The best chance against DEFENSE ``d`` of ``u``'s single-TARGET ATTACK options of
    profile ``pr`` if it CARRIED the ITEMS ``carry`` (those in ``flips`` BOTCHED): what an
    ITEM is worth to it (PICK UP, TRADE)."""
    best = 0.0
    for k in range(prof[pr, F_NOPT]):
        row = pr * MAX_OPT + k
        if opt[row, O_USABLE] == 0 or opt[row, O_AREA] == 1 or opt[row, O_STUN] == 1:
            continue
        if opt[row, O_TRAIT] == 1:
            continue
        item = opt[row, O_ITEM]
        if item >= 0 and ((carry >> item) & 1 == 0 or (flips >> item) & 1 == 1):
            continue
        best = max(best, chance(pw, row, d))
    return best


# =========================================================== wounds
@njit((*CTX, i8, i8), **KERNEL)
def wound(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, src, v):
    """ "Potentials" / "The Hostile" / "Champions": an OPERATIVE FLIPS a POTENTIAL per WOUND
    (then DISCARDS FLESHWOUNDS: TRAUMA) and is DEAD with neither; a LEGION dies at its
    first WOUND and returns to the LEGION RESERVE; a CHAMPION steps to its next STAGE and
    DIES WOUNDED on its last.  "Items": "When an OPERATIVE DIES, all of their ITEMS are
    DROPPED on their TILE" (``drop_all``; WORN ARMOR stays on the WEARER).
    "VI – The Healer: ... NEGATE a WOUND": played on a WOUND that would kill an OPERATIVE,
    or on any WOUND of a CHAMPION."""
    vside = un[v, U_SIDE]
    if ms[M_ARCANA] == 1 and holds(g, vside, A_HEALER):
        if precious(un, st, v) and wants(ms, g, rng, vside):
            if play_arcana(ms, g, ev, rng, vside, A_HEALER, v):
                return
    st[src, S_DEALT] += 1
    st[v, S_TAKEN] += 1
    kind = un[v, U_KIND]
    state = 0
    if kind == K_LEGION:
        st[v, S_ON] = ON_RESERVE
        st[v, S_TILE] = -1
        st[v, S_REVEALED] = 0
        st[v, S_DEATHS] += 1
        st[src, S_KILLS] += 1
        g[G_KILLED] += 1
        state = 3
    else:
        if kind == K_OPERATIVE and st[v, S_WOUNDS] - st[v, S_TRAUMA] >= un[v, U_LEVELS] - 1:
            st[v, S_TRAUMA] += 1  # no POTENTIAL left to FLIP: a FLESHWOUND is DISCARDED
        st[v, S_WOUNDS] += 1
        if st[v, S_WOUNDS] >= un[v, U_HEALTH]:
            st[v, S_ON] = ON_DEAD
            st[v, S_DEATHS] += 1
            st[v, S_EDGES] = 0
            st[src, S_KILLS] += 1
            if kind == K_OPERATIVE:
                g[G_LOST] += 1
                st[src, S_SCORE] += 1
                drop_all(un, st, g, ev, v)
            else:
                g[G_KILLED] += 1
                if v == ms[M_TARGET]:
                    st[src, S_SCORE] += 1
                    g[G_DONE] += 1
            state = 1
        elif kind == K_CHAMPION:
            state = 2
    log(g, ev, E_WOUND, un[v, U_SIDE], v, st[v, S_WOUNDS], un[v, U_HEALTH], state, src,
        0, 0, 0, 0)  # fmt: skip
    check_end(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)


@njit((I1, I2, I2, i8, i8), **KERNEL)
def reveal(g, ev, st, v, by):
    """ "Threats": the THREAT token is FLIPPED and replaced by its MODEL."""
    if st[v, S_REVEALED] == 0:
        st[v, S_REVEALED] = 1
        g[G_REVEALS] += 1
        log(g, ev, E_REVEAL, 1, v, st[v, S_TILE], by, 0, 0, 0, 0, 0, 0)


# =========================================================== attacks
@njit((*CTX, i8, i8), **KERNEL)
def best_option(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, v):
    """The option of ``u`` with the best chance to WOUND ``v`` on its own TILE (SUCKER
    PUNCHES, AMBUSHES): RANGE >= 0 fits, STUN options only when nothing WOUNDS; an ACTIVE
    TRAIT's ATTACK needs an ACTION ("Active Traits"), so it is no FREE ATTACK."""
    pr = prow(un, st, u)
    d = defense(un, prof, fld, st, v, False)
    best = -1
    bp = -1.0
    for k in range(prof[pr, F_NOPT]):
        row = pr * MAX_OPT + k
        if usable(un, opt, st, u, row) and opt[row, O_AREA] == 0 and opt[row, O_TRAIT] == 0:
            p = chance(pw, row, d) * (0.2 if opt[row, O_STUN] == 1 else 1.0)
            if p > bp:
                bp = p
                best = k
    return best


@njit((I2, I2, I2, I2, I2, I2, I1, I2, i8, i8, i8), **KERNEL)
def in_reach(un, prof, opt, fld, dist, los, ms, st, u, row, v):
    """``v`` is a valid single TARGET of option ``row`` of ``u``: REVEALED if HOSTILE
    ("Threats"), WITHIN RANGE (the DISTANCE changed by HIDDEN: ``target_distance``,
    "Range") and in LINE OF SIGHT."""
    if st[v, S_ON] != ON_FIELD or un[v, U_SIDE] == un[u, U_SIDE]:
        return False
    if un[v, U_SIDE] == 1 and st[v, S_REVEALED] == 0:
        return False
    a = st[u, S_TILE]
    b = st[v, S_TILE]
    if st[v, S_HERMIT] == 1 and a != b:  # IX The Hermit
        return False
    d = target_distance(ms, dist[a, b], hidden(un, prof, fld, st, v))
    return d <= opt[row, O_RANGE] and los[a, b] == 1


@njit((I2, I2, I2, I2, I2, I2, I1, I2, I1, I2, U1, i8, i8, i8, i8), **KERNEL)
def martyr(un, prof, opt, fld, dist, los, ms, st, g, ev, rng, u, row, v, total):
    """ "III – The Martyr: After an ATTACK is ROLLED against you or an ALLY, change the
    TARGET; the TARGET must be valid and cannot be an ENEMY": played by ``v``'s side when
    the ROLL ``total`` of ``u``'s option ``row`` would WOUND ``v`` and that WOUND is worth
    an ARCANA (``precious``), onto the ALLY it would miss (else the first it would WOUND
    without killing it), a valid TARGET of the ATTACK (``in_reach``).  Returns the TARGET."""
    side = un[v, U_SIDE]
    if ms[M_ARCANA] == 0 or not holds(g, side, A_MARTYR) or not precious(un, st, v):
        return v
    best = -1
    for w in range(un.shape[0]):
        if w == v or un[w, U_SIDE] != side:
            continue
        if not in_reach(un, prof, opt, fld, dist, los, ms, st, u, row, w):
            continue
        if total < defense(un, prof, fld, st, w, False):
            best = w
            break
        if best < 0 and not precious(un, st, w):
            best = w
    if best < 0 or not wants(ms, g, rng, side):
        return v
    if play_arcana(ms, g, ev, rng, side, A_MARTYR, best):
        return best
    return v


@njit((*CTX, i8, i8, i8, i8), **KERNEL)
def resolve(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, k, v, tile):
    """ "Attack (Operative)" / "Attack (Hostile)": ROLL option ``k`` of ``u`` against the
    DEFENSE of ``v`` (``v`` < 0: an AREA ATTACK on ``tile``: one ROLL against every unit
    there, "Area Attack").  A success WOUNDS, or STUNS with a STUN ITEM ("Stun"); a BOTCH
    FLIPS the ITEM used to its BOTCH face ("Dice Rolls").  A THREAT that ATTACKS is
    REVEALED ("Threats").  The ARCANA played on the ROLL weigh it against the TARGET's
    DEFENSE (an AREA ATTACK: the lowest of the ENEMIES there)."""
    row = prow(un, st, u) * MAX_OPT + k
    side = un[u, U_SIDE]
    diff = -1
    for w in range(un.shape[0]):
        if w == v or (v < 0 and un[w, U_SIDE] != side and st[w, S_ON] == ON_FIELD):
            if st[w, S_TILE] == tile or w == v:
                d = defense(un, prof, fld, st, w, v < 0)
                if diff < 0 or d < diff:
                    diff = d
    total = roll(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, row, diff)
    g[G_ATTACKS] += 1
    st[u, S_ATTACKS] += 1
    if side == 1:
        reveal(g, ev, st, u, 1)
    if total < 0:
        g[G_BOTCHES] += 1
        if opt[row, O_ITEM] >= 0:
            st[u, S_FLIPPED] |= 1 << opt[row, O_ITEM]
            log(g, ev, E_BOTCH, side, u, k, 0, 0, 0, 0, 0, 0, 0)
    stun = opt[row, O_STUN] == 1
    if v >= 0 and not stun and total >= defense(un, prof, fld, st, v, False):
        v = martyr(un, prof, opt, fld, dist, los, ms, st, g, ev, rng, u, row, v, total)
    n = un.shape[0]
    for w in range(n):
        if v >= 0 and w != v:
            continue
        if v < 0:
            if w == u or st[w, S_ON] != ON_FIELD or st[w, S_TILE] != tile:
                continue
            if st[w, S_HERMIT] == 1 and st[u, S_TILE] != tile:
                continue
            if un[w, U_SIDE] == side and ms[M_AREA_ALLIES] == 0:
                continue
        d = defense(un, prof, fld, st, w, v < 0)
        hit = total >= d
        log(g, ev, E_ATTACK, side, u, w, tile, k, total, d, int(hit), int(v < 0), 0)
        if hit:
            g[G_HITS] += 1
            if stun:
                st[w, S_STUN] = 1
                g[G_STUNS] += 1
                log(g, ev, E_STUNNED, un[w, U_SIDE], w, 0, 0, 0, 0, 0, 0, 0, 0)
            else:
                wound(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, w)
    settle_overcommit(g, ev, rng)
    return total


@njit((*CTX, i8, i8, i8, i8), **KERNEL)
def free_attack(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, k, v, tile):
    """A FREE ATTACK (a SUCKER PUNCH, an AMBUSH's ATTACK): one ATTACK on ``v``, twice while
    XI The Conqueror is in force for ``u``'s side ("ATTACK twice for each ATTACK this
    ROUND": it is played on an ATTACK ACTION, ``conquers``; the second only while ``u``,
    its TARGET and its option are still there)."""
    resolve(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, k, v, tile)
    if g[G_CONQUEROR + un[u, U_SIDE]] == 0 or g[G_END] >= 0:
        return
    if st[u, S_ON] != ON_FIELD or st[u, S_STUN] == 1:
        return
    if st[v, S_ON] != ON_FIELD or st[v, S_TILE] != tile:
        return
    if usable(un, opt, st, u, prow(un, st, u) * MAX_OPT + k):
        resolve(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, k, v, tile)


@njit((*CTX, i8, i8), **KERNEL)
def sucker_punches(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, tile):
    """ "Sucker Punch": every ENEMY on ``tile`` makes an immediate FREE ATTACK on ``u`` (once
    per ROUND, plus DIRTY FIGHTING +/-X); a STUNNED unit takes no ACTIONS ("Stun")."""
    side = un[u, U_SIDE]
    for e in range(un.shape[0]):
        if st[u, S_ON] != ON_FIELD or g[G_END] >= 0:
            return
        if un[e, U_SIDE] == side or st[e, S_ON] != ON_FIELD or st[e, S_TILE] != tile:
            continue
        if st[e, S_STUN] == 1 or st[e, S_PUNCH] >= prof[prow(un, st, e), F_PUNCH]:
            continue
        k = best_option(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, e, u)
        if k < 0:
            continue
        if mediated(un, ms, g, ev, rng, u):
            return
        st[e, S_PUNCH] += 1
        g[G_PUNCHES] += 1
        free_attack(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, e, k, u, tile)


@njit((*CTX, i8, i8, i8, i8), **KERNEL)
def attack_once(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, k, v, tile):
    """One ATTACK: a RANGED ATTACK from a TILE with ENEMIES grants them SUCKER
    PUNCHES ("Sucker Punch"), resolved first (``punch_first``; if ``u`` is removed the
    ATTACK is lost) or after it.  An ATTACK from outside the TARGET's TILE may meet
    IX The Hermit (``hermit``): it is lost."""
    row = prow(un, st, u) * MAX_OPT + k
    here = st[u, S_TILE]
    if v >= 0 and here != tile and hermit(un, ms, st, g, ev, rng, v):
        return
    provoke = opt[row, O_RANGED] == 1 and count_on(un, st, 1 - un[u, U_SIDE], here) > 0
    if provoke and ms[M_PUNCH_FIRST] == 1:
        sucker_punches(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, here)
        if st[u, S_ON] != ON_FIELD or g[G_END] >= 0:
            return
    resolve(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, k, v, tile)
    if provoke and ms[M_PUNCH_FIRST] == 0 and g[G_END] < 0:
        sucker_punches(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, here)


@njit((I2, I1, I1, I2, U1, i8), **KERNEL)
def conquers(un, ms, g, ev, rng, u):
    """ "XI – The Conqueror: You or an ALLY may ATTACK twice for each ATTACK this ROUND":
    ``u``'s side played it this ROUND, or plays it now, on its first ATTACK ACTION of the
    ROUND (the FREE ATTACKS after it are doubled too, ``free_attack``)."""
    return round_arcana(ms, g, ev, rng, un[u, U_SIDE], G_CONQUEROR, A_CONQUEROR, u)


@njit((*CTX, i8, i8, i8, i8), **KERNEL)
def attack(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, k, v, tile):
    """An ATTACK ACTION (``attack_once``), twice under XI The Conqueror (``conquers``; the
    second only while ``u``, its TARGET and its ITEM are still there)."""
    times = 2 if conquers(un, ms, g, ev, rng, u) else 1
    for _ in range(times):
        if g[G_END] >= 0 or st[u, S_ON] != ON_FIELD or st[u, S_STUN] == 1:
            return
        if v >= 0 and (st[v, S_ON] != ON_FIELD or st[v, S_TILE] != tile):
            return
        if not usable(un, opt, st, u, prow(un, st, u) * MAX_OPT + k):  # BOTCHED: FLIPPED
            return
        attack_once(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, k, v, tile)


@njit((*CTX, i8), **KERNEL)
def harrow(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, h):
    """A PASSIVE ``flip_operative`` TRAIT (the Spider's Harrowing: "Before any ACTION by the
    Spider, FLIP an OPERATIVE WITHIN 2"), before each ACTION of ``h`` (its REACTION PHASE
    ACTIONS and an AMBUSH's FREE ACTION; a SUCKER PUNCH is a FREE ATTACK granted, not an
    ACTION taken).  Mandatory ("all game effects are mandatory"): the HOSTILE FLIPS the
    OPERATIVE WITHIN X whose best ATTACK against DEFENSE 2 loses most by it (greedy; ties at
    random), any of them (random)."""
    x = prof[prow(un, st, h), F_HARROW]
    if x < 0 or st[h, S_ON] != ON_FIELD:
        return
    here = st[h, S_TILE]
    best = -1
    bv = -BIG
    ties = 0
    for v in range(un.shape[0]):
        if un[v, U_SIDE] != 0 or st[v, S_ON] != ON_FIELD or dist[here, st[v, S_TILE]] > x:
            continue
        val = 0.0
        if policy(ms, g, 1) != POL_RANDOM:
            pr = prow(un, st, v)
            other = pr + (MAX_LEVELS if st[v, S_SIDE] == 0 else -MAX_LEVELS)
            fl = st[v, S_FLIPPED]
            val = best_chance(un, prof, opt, pw, st, v, pr, st[v, S_CARRY], fl, 2)
            val -= best_chance(un, prof, opt, pw, st, v, other, st[v, S_CARRY], fl, 2)
        if val > bv + TIE:
            bv = val
            best = v
            ties = 1
        elif val >= bv - TIE:
            ties += 1
            if pick(rng, ties) == 0:
                best = v
    if best < 0:
        return
    st[best, S_SIDE] = 1 - st[best, S_SIDE]
    log(g, ev, E_TRAIT, 1, h, TR_HARROW, best, st[best, S_SIDE], 0, 0, 0, 0, 0)


# =========================================================== ambushes and moves
@njit((*CTX, i8, i8), **KERNEL)
def ambush(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, tile, op):
    """ "Ambush": every THREAT sharing ``tile`` with an OPERATIVE is REVEALED and takes an
    immediate FREE ACTION: an ATTACK on the OPERATIVE ``op`` that triggered it."""
    for h in range(un.shape[0]):
        if g[G_END] >= 0 or st[op, S_ON] != ON_FIELD:
            return
        if un[h, U_SIDE] != 1 or st[h, S_ON] != ON_FIELD or st[h, S_TILE] != tile:
            continue
        if st[h, S_REVEALED] == 1:
            continue
        reveal(g, ev, st, h, 2)
        g[G_AMBUSHES] += 1
        log(g, ev, E_AMBUSH, 1, h, op, tile, 0, 0, 0, 0, 0, 0)
        if st[h, S_STUN] == 1 or mediated(un, ms, g, ev, rng, op):
            continue
        harrow(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, h)
        k = best_option(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, h, op)
        if k >= 0:
            free_attack(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, h, k, op,
                        tile)  # fmt: skip


@njit(CTX, **KERNEL)
def ambush_all(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev):
    """ "Ambush" at the end of an ACTION: every TILE where an OPERATIVE and a THREAT meet."""
    for op in range(un.shape[0]):
        if un[op, U_SIDE] == 0 and st[op, S_ON] == ON_FIELD:
            if threats_on(un, st, st[op, S_TILE], -1) > 0:
                ambush(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev,
                       st[op, S_TILE], op)  # fmt: skip


@njit((I2, I1, i8, i8, i8, i8), **KERNEL)
def path_base(mv, ms, start, dest, budget, pen):
    """The row block of ``mv`` for one MOVE of ``budget`` (with terrain penalties or not),
    or -1 when ``dest`` is out of reach of ``start`` (or is ``start``)."""
    n = ms[M_NTILES]
    m = min(max(budget, 1), MAX_MOVE)
    base = (pen * MAX_MOVE + m - 1) * n
    if mv[base + start, dest] < 0 or dest == start:
        return -1
    return base


@njit((I1, i8, i8), **KERNEL)
def reach_row(ms, m, start):
    """The row of ``mv`` listing the TILES one MOVE ``m`` (terrain penalties counted)
    reaches from ``start``: their number, then the TILES in index order (``start`` not
    included; ``compile.move_table``)."""
    return (2 * MAX_MOVE + min(max(m, 1), MAX_MOVE) - 1) * ms[M_NTILES] + start


@njit((I2, i8, i8, i8), **KERNEL)
def path_len(mv, base, start, dest):
    """BORDERS crossed by the cheapest one-MOVE path from ``start`` to ``dest``."""
    k = 0
    t = dest
    while t != start and k < mv.shape[1]:
        k += 1
        t = mv[base + start, t]
    return k


@njit((I2, i8, i8, i8, i8), **KERNEL)
def path_tile(mv, base, start, dest, back):
    """The TILE ``back`` steps before ``dest`` on that path (``back`` 0: ``dest``)."""
    t = dest
    for _ in range(back):
        t = mv[base + start, t]
    return t


@njit((I2, I2, I2, i8), **KERNEL)
def move_rating(un, prof, st, u):
    """ "Move", "Speed": MOVE 2 + SPEED +/-X, at least 1 (tabulated up to MAX_MOVE)."""
    return min(max(prof[prow(un, st, u), F_MOVE], 1), MAX_MOVE)


@njit((*CTX, i8, i8, i8, i8), **KERNEL)
def move_by(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, dest, rating, pen):
    """``u`` MOVES to ``dest`` along the cheapest path of a MOVE ``rating`` (MOVE PENALTIES
    counted if ``pen``): SUCKER PUNCHES on leaving a TILE with ENEMIES, AMBUSHES on
    entering a THREAT's TILE (``move``; IV The Ruler's MOVE of an ENEMY, ``ruler``)."""
    start = st[u, S_TILE]
    base = path_base(mv, ms, start, dest, rating, pen)
    if base < 0:
        return
    steps = path_len(mv, base, start, dest)
    origin = start
    side = un[u, U_SIDE]
    for i in range(steps - 1, -1, -1):
        here = st[u, S_TILE]
        nxt = path_tile(mv, base, origin, dest, i)
        if count_on(un, st, 1 - side, here) > 0:
            sucker_punches(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, here)
            if st[u, S_ON] != ON_FIELD or g[G_END] >= 0:
                return
        st[u, S_TILE] = nxt
        if st[u, S_BODY] > 0:  # a CARRIED body goes along ("Items")
            st[st[u, S_BODY] - 1, S_TILE] = nxt
        if side == 0 and threats_on(un, st, nxt, -1) > 0:
            log(g, ev, E_MOVE, side, u, start, nxt, steps - i, 0, 0, 0, 0, 0)
            ambush(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, nxt, u)
            if ms[M_AMBUSH_STOPS] == 1 or st[u, S_ON] != ON_FIELD or g[G_END] >= 0:
                return
            start = nxt
    log(g, ev, E_MOVE, side, u, start, st[u, S_TILE], steps, 0, 0, 0, 0, 0)


@njit((*CTX, i8, i8), **KERNEL)
def move(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, dest):
    """A MOVE ACTION ("Move", "Movement", "Elevation", "Hard Terrain") along the cheapest
    path: leaving a TILE with ENEMIES grants them SUCKER PUNCHES; an OPERATIVE entering a
    THREAT's TILE is AMBUSHED there ("Ambush", "during any MOVE"; ``ambush_stops_move``).
    "0 – The Adventurer: You and your ALLIES ignore MOVE PENALTIES this ROUND": the
    cheapest path without them while the unit's side has it in force."""
    if st[u, S_SNARED] == 1:  # Snare: "cannot MOVE this ROUND"
        return
    pen = 0 if g[G_ADVENTURER + un[u, U_SIDE]] == 1 else 1
    rating = move_rating(un, prof, st, u)
    move_by(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, dest, rating, pen)


@njit((*CTX, i8), **KERNEL)
def leave_field(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u):
    """ "Exit Points": a MOVE ACTION on an EXIT POINT leaves the FIELD (SUCKER PUNCHES as
    normal); an extracted OPERATIVE counts for the extraction.  "Retreat": leaving by the
    EXIT POINT at the OSP (an extraction's own EXIT POINT elsewhere) is a RETREAT: "the
    MISSION ends in failure" at once.  Snared: no (it is a MOVE ACTION)."""
    if st[u, S_SNARED] == 1:
        return
    here = st[u, S_TILE]
    if count_on(un, st, 1 - un[u, U_SIDE], here) > 0:
        sucker_punches(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, here)
        if st[u, S_ON] != ON_FIELD or g[G_END] >= 0:
            return
    st[u, S_ON] = ON_LEFT
    st[u, S_EDGES] = 0
    if st[u, S_BODY] > 0:  # a CARRIED body leaves the FIELD with it
        st[st[u, S_BODY] - 1, S_TILE] = -1
    if fld[here, T_OSP] == 1:
        log(g, ev, E_EXIT, un[u, U_SIDE], u, here, 1, 0, 0, 0, 0, 0, 0)
        g[G_END] = END_RETREAT
        g[G_WINNER] = 2
        return
    g[G_DONE] += 1
    st[u, S_SCORE] += 1
    log(g, ev, E_EXIT, un[u, U_SIDE], u, here, 0, 0, 0, 0, 0, 0, 0)
    check_end(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)


@njit((*CTX, i8, i8), **KERNEL)
def scout(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, tile):
    """ "Scout": in FOCUS and UNOPPOSED, ROLL FOCUS against the DISTANCE to a TILE in LINE OF
    SIGHT (THREATS in HARD TERRAIN: HIDDEN +1); success REVEALS 1 THREAT there, plus 1 per
    SUCCESS above the DIFFICULTY."""
    row = prof[prow(un, st, u), F_SCOUT]
    diff = max(dist[st[u, S_TILE], tile] + fld[tile, T_HARD], 0)
    total = roll(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, row, diff)
    g[G_SCOUTS] += 1
    found = 0
    if total >= diff:
        found = 1 + total - diff
    shown = 0
    while shown < found:  # the THREAT TOKENS look alike: each REVEAL takes one at random
        left = threats_on(un, st, tile, -1)
        if left == 0:
            break
        j = pick(rng, left)
        for v in range(un.shape[0]):
            if un[v, U_SIDE] == 1 and st[v, S_ON] == ON_FIELD and st[v, S_TILE] == tile:
                if st[v, S_REVEALED] == 0:
                    if j == 0:
                        reveal(g, ev, st, v, 0)
                        break
                    j -= 1
        shown += 1
    log(g, ev, E_SCOUT, 0, u, tile, total, diff, shown, 0, 0, 0, 0)
    settle_overcommit(g, ev, rng)


# =========================================================== ITEM ACTIONS and ACTIVE TRAITS
@njit((*CTX, i8), **KERNEL)
def provoked(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u):
    """ "Pick Up" / "Trade": the ACTION "grants all ENEMIES on their TILE a SUCKER PUNCH",
    resolved first (``punch_first``); False when ``u`` is gone or the mission over."""
    here = st[u, S_TILE]
    if count_on(un, st, 1 - un[u, U_SIDE], here) > 0:
        sucker_punches(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, here)
    return st[u, S_ON] == ON_FIELD and g[G_END] < 0


@njit((*CTX, i8, i8, i8), **KERNEL)
def pick_up(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, mask, body):
    """ "Pick Up": ``u`` takes the UNCARRIED ITEMS ``mask`` of its TILE, in item order while
    its ENCUMBRANCE LIMIT allows ("OPERATIVES cannot PICK UP an ITEM that would take them
    over"), or (``body`` >= 0) the body of a DEAD comrade there ("OPERATIVES can CARRY the
    bodies of DEAD comrades": 2 ITEMS, 3 with a WORN ARMOR; one body at a time here)."""
    if not provoked(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u):
        return
    here = st[u, S_TILE]
    cap = prof[prow(un, st, u), F_CARRY]
    took = 0
    for i in range(MAX_ITEMS):
        if (mask >> i) & 1 == 1 and g[G_ITEM_AT + i] == here and load(un, st, u) < cap:
            g[G_ITEM_AT + i] = -1
            st[u, S_CARRY] |= 1 << i
            if (g[G_GFLIP] >> i) & 1 == 1:
                st[u, S_FLIPPED] |= 1 << i
                g[G_GFLIP] &= ~(1 << i)
            took |= 1 << i
    got = -1
    if body >= 0 and un[body, U_SIDE] == 0 and st[body, S_ON] == ON_DEAD:
        if st[body, S_CARRIER] == 0 and st[body, S_TILE] == here and st[u, S_BODY] == 0:
            if load(un, st, u) + un[body, U_BODY] <= cap:
                st[body, S_CARRIER] = u + 1
                st[u, S_BODY] = body + 1
                got = body
    log(g, ev, E_PICKUP, un[u, U_SIDE], u, took, got, here, 0, 0, 0, 0, 0)


@njit((*CTX, i8, i8), **KERNEL)
def discard(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, h, i):
    """ "Pick Up": "CLANNERS instead PICK UP, DISCARD, or FLIP 1 UNCARRIED ITEM": the
    HOSTILE's unit ``h`` DISCARDS ITEM ``i`` of its TILE (to the SCAVENGING DECK: out of the
    mission), after the SUCKER PUNCHES of the OPERATIVES there.  (The AI never PICKS UP or
    FLIPS: a CLANNER cannot use an OPERATIVE's ITEM, and DISCARDING denies it best.)"""
    if not provoked(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, h):
        return
    if g[G_ITEM_AT + i] != st[h, S_TILE]:
        return
    g[G_ITEM_AT + i] = -2
    g[G_GFLIP] &= ~(1 << i)
    log(g, ev, E_DISCARD, 1, h, i, st[h, S_TILE], 0, 0, 0, 0, 0, 0)


@njit((*CTX, i8, i8, i8), **KERNEL)
def trade(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, w, i):
    """ "Trade": with a willing partner ``w`` on its TILE (an ALLIED OPERATIVE), ``u`` gives
    ITEM ``i`` if it CARRIES it, else takes it from ``w`` (one ITEM per ACTION here; the
    rule allows any number); "if they receive an ITEM above this maximum it is automatically
    DROPPED on their TILE".  SUCKER PUNCHES on ``u`` first."""
    if not provoked(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u):
        return
    if st[w, S_ON] != ON_FIELD or st[w, S_TILE] != st[u, S_TILE] or un[w, U_SIDE] != 0:
        return
    give = (st[u, S_CARRY] >> i) & 1 == 1
    a = u if give else w
    b = w if give else u
    if (st[a, S_CARRY] >> i) & 1 == 0:
        return
    hand_over(g, st, a, b, i)
    log(g, ev, E_TRADE, 0, u, w, i, int(give), 0, 0, 0, 0, 0)
    if load(un, st, b) > prof[prow(un, st, b), F_CARRY]:
        put_down(g, st, b, i)
        log(g, ev, E_DROP, 0, b, i, -1, st[b, S_TILE], 0, 0, 0, 0, 0)


@njit((I2, I1, I2, I2, i8, i8), **KERNEL)
def drop(un, g, ev, st, u, i):
    """ "Drop" (a FREE ACTION): ``u`` puts ITEM ``i`` (-1: the body it CARRIES) on its TILE."""
    if i >= 0 and (st[u, S_CARRY] >> i) & 1 == 1:
        put_down(g, st, u, i)
        log(g, ev, E_DROP, 0, u, i, -1, st[u, S_TILE], 0, 0, 0, 0, 0)
    elif i < 0 and st[u, S_BODY] > 0:
        b = st[u, S_BODY] - 1
        st[b, S_CARRIER] = 0
        st[u, S_BODY] = 0
        log(g, ev, E_DROP, 0, u, -1, b, st[u, S_TILE], 0, 0, 0, 0, 0)


@njit((I2, I2, i8), **KERNEL)
def fleshwounds(un, st, v):
    """FLESHWOUNDS of OPERATIVE ``v`` (its POTENTIALS FLIPPED and not DISCARDED)."""
    if un[v, U_KIND] != K_OPERATIVE or st[v, S_ON] != ON_FIELD:
        return 0
    return st[v, S_WOUNDS] - 2 * st[v, S_TRAUMA]


@njit((*CTX, i8, i8), **KERNEL)
def patch_up(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, w):
    """An ACTIVE ``heal_fleshwound`` TRAIT (Patch Up: "If Timur is UNOPPOSED, FLIP 1 of his
    FLESHWOUNDS or that of an ALLY on his TILE"): one FLESHWOUND of ``w`` (``u`` or an ALLY
    WITHIN X) back to its POTENTIAL."""
    x = prof[prow(un, st, u), F_HEAL]
    here = st[u, S_TILE]
    if x < 0 or count_on(un, st, 1, here) > 0 or fleshwounds(un, st, w) <= 0:
        return
    if dist[here, st[w, S_TILE]] > x:
        return
    st[w, S_WOUNDS] -= 1
    log(g, ev, E_HEAL, 0, u, w, HEAL_TRAIT, st[w, S_WOUNDS], 0, 0, 0, 0, 0)


@njit((I2, I2, I1, I2, U1, i8, i8), **KERNEL)
def reveal_one(un, st, g, ev, rng, tile, by):
    """REVEAL one THREAT token of ``tile``, drawn at random (the tokens look alike)."""
    left = threats_on(un, st, tile, -1)
    if left == 0:
        return False
    j = pick(rng, left)
    for v in range(un.shape[0]):
        if un[v, U_SIDE] == 1 and st[v, S_ON] == ON_FIELD and st[v, S_TILE] == tile:
            if st[v, S_REVEALED] == 0:
                if j == 0:
                    reveal(g, ev, st, v, by)
                    return True
                j -= 1
    return False


@njit((*CTX, i8, i8, i8), **KERNEL)
def use_trait(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, kind, x):
    """The ACTIVE TRAITS without a ROLL ("Active Traits": the ACTION is spent on the TRAIT):
    ``reveal_threat`` (Data Stream: "REVEAL a THREAT WITHIN 3"; no LINE OF SIGHT named) on
    TILE ``x``, ``stun_enemy`` (Overload: "STUN an ENEMY on Echo's TILE": "Stun", no
    ACTIONS and DEFENSE -2 for the ROUND) on unit ``x``, ``enemy_defense`` (Verdict: "An
    ENEMY WITHIN 2 takes DEFENSE -1 this ROUND", cumulative as RATINGS are) on ``x``,
    ``snare`` (the Trapper's Snare: "An OPERATIVE WITHIN 1 cannot MOVE this ROUND") on
    ``x``; a THREAT using a TRAIT is REVEALED by it."""
    pr = prow(un, st, u)
    here = st[u, S_TILE]
    side = un[u, U_SIDE]
    if kind == C_REVEAL:
        if prof[pr, F_REVEAL] >= 0 and dist[here, x] <= prof[pr, F_REVEAL]:
            log(g, ev, E_TRAIT, side, u, TR_REVEAL, x, 0, 0, 0, 0, 0, 0)
            reveal_one(un, st, g, ev, rng, x, 4)
        return
    if st[x, S_ON] != ON_FIELD or un[x, U_SIDE] == side:
        return
    d = dist[here, st[x, S_TILE]]
    if kind == C_STUN and prof[pr, F_STUN_AT] >= 0 and d <= prof[pr, F_STUN_AT]:
        log(g, ev, E_TRAIT, side, u, TR_STUN, x, 0, 0, 0, 0, 0, 0)
        st[x, S_STUN] = 1
        g[G_STUNS] += 1
        log(g, ev, E_STUNNED, un[x, U_SIDE], x, 0, 0, 0, 0, 0, 0, 0, 0)
    elif kind == C_VERDICT and prof[pr, F_VERDICT] >= 0 and d <= prof[pr, F_VERDICT]:
        st[x, S_DEFMOD] += prof[pr, F_VERDICT_DEF]
        log(g, ev, E_TRAIT, side, u, TR_VERDICT, x, st[x, S_DEFMOD], 0, 0, 0, 0, 0)
    elif kind == C_SNARE and prof[pr, F_SNARE] >= 0 and d <= prof[pr, F_SNARE]:
        if side == 1:
            reveal(g, ev, st, u, 4)
        st[x, S_SNARED] = 1
        log(g, ev, E_TRAIT, side, u, TR_SNARE, x, 0, 0, 0, 0, 0, 0)


@njit((*CTX, i8, i8), **KERNEL)
def spawn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, h, tile):
    """ "Spawn": a THREAT from the reserve (a LEGION back in the LEGION RESERVE, or a unit
    not yet on the FIELD) placed at a SPAWN POINT."""
    st[h, S_ON] = ON_FIELD
    st[h, S_TILE] = tile
    st[h, S_REVEALED] = 0
    st[h, S_WOUNDS] = 0
    st[h, S_STUN] = 0
    st[h, S_SPAWNS] += 1
    g[G_SPAWNS] += 1
    log(g, ev, E_SPAWN, 1, h, tile, 0, 0, 0, 0, 0, 0, 0)


# =========================================================== greedy values
@njit((I2, I2, i8), **KERNEL)
def wound_value(un, st, v):
    """What one WOUND on ``v`` is worth: its value per WOUND, doubled for the killing one."""
    left = un[v, U_HEALTH] - st[v, S_WOUNDS]
    if un[v, U_KIND] == K_LEGION:
        left = 1
    per = un[v, U_VALUE] / un[v, U_HEALTH] if un[v, U_KIND] != K_LEGION else un[v, U_VALUE]
    return per * (2.0 if left <= 1 else 1.0)


#: Columns of the per-decision survey (``survey``): one row per ENEMY on the FIELD.
V_ID, V_TILE, V_TARGET, V_DEF, V_HID, V_WV, V_REACH, V_HARM = 0, 1, 2, 3, 4, 5, 6, 7
V_PH = 8  # the HOSTILE unit deciding: its chance x value of a WOUND on this one
#: Then two ATTACK tables (``attack_table``): per TARGET, the best value of one ATTACK at
#: each DISTANCE 0..MAX_RANGE, for the unit's profile (``V_OWN``) and the other DASHBOARD
#: side's (``V_OTHER``, for a FLIP).
V_OWN = 9
V_OTHER = V_OWN + MAX_RANGE + 1
V_COLS = V_OTHER + MAX_RANGE + 1
#: Rows of the per-block scratch ``cand``: MAXC candidates, the survey (MAX_UNITS), then
#: the row ``KEEP`` of the candidate list being built: (unused), the best value offered so
#: far, 1.0 when only the best and its ties are kept (``offer_from``).
KEEP = MAXC + MAX_UNITS
#: The row of the survey (``sv = cand[MAXC:]``) after ``KEEP``: a THREAT token's expected
#: harm by reach (``survey``).
HIDDEN_HARM = MAX_UNITS + 1
CAND_ROWS = KEEP + 2


@njit((I2, I2, I2, F2, I2, i8, i8), **KERNEL)
def unseen(un, prof, opt, pw, st, h, my_def):
    """``h`` could be under a THREAT token as far as the OPERATIVES know: a HOSTILE unit
    not seen on the FIELD (a THREAT token, or in the reserve: it may SPAWN) and not DEAD.
    Returns its chance to WOUND DEFENSE ``my_def`` with its first option (-1: not)."""
    if un[h, U_SIDE] != 1 or st[h, S_ON] == ON_DEAD or st[h, S_ON] == ON_LEFT:
        return -1.0
    if st[h, S_ON] == ON_FIELD and st[h, S_REVEALED] == 1:
        return -1.0
    return chance(pw, prow(un, st, h) * MAX_OPT, my_def)


@njit((*CTX, F2, i8), **KERNEL)
def survey(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, sv, u):
    """Once per decision of ``u``: each ENEMY on the FIELD, its TILE, whether it may be
    TARGETED (REVEALED), its DEFENSE, HIDDEN and value per WOUND, how far it threatens
    (MOVE + RANGE) and its chance to WOUND ``u``.  One row per ENEMY, in unit order;
    returns their number.  The OPERATIVES do not see through THREAT tokens ("Threats":
    the tokens look alike): a THREAT's harm is the expectation over the units it could be
    (``unseen``, uniform), in the row ``HIDDEN_HARM`` of ``sv``: at index ``r`` the mean
    over them of (chance to WOUND ``u``) x (MOVE + RANGE >= r); its own row's ``V_REACH``
    and ``V_HARM`` are not read (``harm``)."""
    my_def = prof[prow(un, st, u), F_DEF]
    hh = sv[HIDDEN_HARM]
    for r in range(V_COLS):
        hh[r] = 0.0
    if un[u, U_SIDE] == 0:
        cnt = 0
        for h in range(un.shape[0]):
            p = unseen(un, prof, opt, pw, st, h, my_def)
            if p < 0.0:
                continue
            cnt += 1
            pr = prow(un, st, h)
            r = min(prof[pr, F_MOVE] + opt[pr * MAX_OPT, O_RANGE], V_COLS - 1)
            for d in range(r + 1):
                hh[d] += p
        for r in range(V_COLS):
            hh[r] /= max(cnt, 1)
    ne = 0
    for v in range(un.shape[0]):
        if st[v, S_ON] != ON_FIELD or un[v, U_SIDE] == un[u, U_SIDE]:
            continue
        pr = prow(un, st, v)
        sv[ne, V_ID] = v
        sv[ne, V_TILE] = st[v, S_TILE]
        revealed = not (un[v, U_SIDE] == 1 and st[v, S_REVEALED] == 0)
        sv[ne, V_TARGET] = 1.0 if revealed else 0.0
        sv[ne, V_DEF] = defense(un, prof, fld, st, v, False)
        sv[ne, V_HID] = hidden(un, prof, fld, st, v)
        sv[ne, V_WV] = wound_value(un, st, v)
        sv[ne, V_REACH] = prof[pr, F_MOVE] + opt[pr * MAX_OPT, O_RANGE] if revealed else -1.0
        sv[ne, V_HARM] = chance(pw, pr * MAX_OPT, my_def) if revealed else 0.0
        ne += 1
    return ne


@njit((I2, I2, F2, F2, i8, i8, i8, i8, f8), **KERNEL)
def attack_table(prof, opt, pw, sv, n, pr, flipped, col, pen):
    """Per surveyed TARGET, the best expected value of one ATTACK with the options of
    profile ``pr`` (STUN and AREA options and FLIPPED ITEMS left out; a RANGED one less
    ``pen``, the SUCKER PUNCHES it provokes) at each DISTANCE 0..MAX_RANGE, into columns
    ``col``.. of ``sv`` (0 for a THREAT token).  Returns the longest RANGE of those options
    (-1: none), so ``prospect`` is one look-up per TARGET."""
    reach = -1
    nopt = prof[pr, F_NOPT]
    for v in range(n):
        for d in range(MAX_RANGE + 1):
            sv[v, col + d] = 0.0
    for k in range(nopt):
        row = pr * MAX_OPT + k
        if opt[row, O_USABLE] == 0 or opt[row, O_STUN] == 1 or opt[row, O_AREA] == 1:
            continue
        item = opt[row, O_ITEM]
        if item >= 0 and (flipped >> item) & 1 != 0:
            continue
        r = opt[row, O_RANGE]
        reach = max(reach, r)
        for v in range(n):
            if sv[v, V_TARGET] != 1.0:
                continue
            val = chance(pw, row, int(sv[v, V_DEF])) * sv[v, V_WV]
            if opt[row, O_RANGED] == 1:
                val -= pen
            for d in range(r + 1):
                sv[v, col + d] = max(sv[v, col + d], val)
    return reach


@njit((I2, I2, I1, F2, i8, i8, i8, i8), **KERNEL)
def prospect(dist, los, ms, sv, n, col, reach, tile):
    """The best expected value of one ATTACK from ``tile`` on a surveyed TARGET, from the
    ATTACK table in columns ``col``.. (``attack_table``; its longest RANGE ``reach``)."""
    best = 0.0
    for v in range(n):
        if sv[v, V_TARGET] != 1.0:
            continue
        t = int(sv[v, V_TILE])
        if los[tile, t] == 0:
            continue
        d = target_distance(ms, dist[tile, t], int(sv[v, V_HID]))
        if d <= reach:
            best = max(best, sv[v, col + d])
    return best


@njit((I2, I2, F2, i8, i8, i8), **KERNEL)
def harm(dist, fld, sv, n, tile, my_hidden):
    """Expected WOUNDS on a unit standing on ``tile`` from the surveyed ENEMIES that could
    reach and ATTACK it with one MOVE and one ATTACK (HIDDEN shortens their reach); a
    THREAT token by the expectation over what it could be (``survey``)."""
    total = 0.0
    hid = my_hidden + fld[tile, T_HARD]
    for v in range(n):
        d = dist[int(sv[v, V_TILE]), tile]
        if sv[v, V_TARGET] != 1.0:
            r = max(d + hid, 0)
            if r < V_COLS:
                total += sv[HIDDEN_HARM, r]
        elif d <= sv[v, V_REACH] - hid:
            total += sv[v, V_HARM]
    return total


@njit((I2, I2, I2, F2, I2, I2, i8, i8), **KERNEL)
def token_area_value(un, prof, opt, pw, fld, st, row, w):
    """The OPERATIVES' expected value of AREA ATTACK option ``row`` on the THREAT token
    ``w``: the mean over the units it could be (``unseen``) of the chance against their
    DEFENSE + HIDDEN + HARD TERRAIN + 2 ("Area Attack", "Threats"; STUN -2 as the token's)
    times their value per WOUND."""
    tot = 0.0
    cnt = 0
    tile = st[w, S_TILE]
    for h in range(un.shape[0]):
        if unseen(un, prof, opt, pw, st, h, 0) < 0.0:
            continue
        pr = prow(un, st, h)
        d = prof[pr, F_DEF] + prof[pr, F_HIDDEN] + fld[tile, T_HARD] + THREAT_AREA
        if st[w, S_STUN] == 1:
            d -= STUN_DEFENSE
        tot += chance(pw, row, max(d, 0)) * wound_value(un, st, h)
        cnt += 1
    return tot / max(cnt, 1)


@njit((*CTX, i8), **KERNEL)
def goal_tile(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u):
    """Where the OPERATIVES head: the hunt's target where it is on the FIELD (its THREAT
    token is the CHAMPION's, placed on its nest: "Field Setup"), else its nest, else -1
    (the FIELD's goal DISTANCES, ``T_GOAL``)."""
    if ms[M_KIND] != KIND_HUNT:
        return -1
    t = ms[M_TARGET]
    if st[t, S_ON] == ON_FIELD:
        return st[t, S_TILE]
    for x in range(ms[M_NTILES]):
        if fld[x, T_CHAMP] == 1:
            return x
    for x in range(ms[M_NTILES]):
        if fld[x, T_SPAWN] == 1:
            return x
    return 0


@njit((I2, I2, I2, I2, I2, I1, F2, i8, i8, i8, i8, i8, i8), **KERNEL)
def op_tile_value(un, prof, fld, dist, los, ms, sv, ne, u, pr, reach, tile, goal):
    """Greedy worth of ``u`` (profile ``pr``, its ATTACK table in ``V_OWN``) standing on
    ``tile``: nearer the goal, an ATTACK in prospect, less expected harm (scaled by its
    value per WOUND)."""
    gd = dist[tile, goal] if goal >= 0 else fld[tile, T_GOAL]
    v = -3.0 * gd
    if ms[M_KIND] == KIND_HOLD and fld[tile, T_OBJ] == 1:
        v += 4.0
    v += 0.7 * prospect(dist, los, ms, sv, ne, V_OWN, reach, tile)
    per = un[u, U_POINTS] / un[u, U_HEALTH]
    v -= 0.8 * per * harm(dist, fld, sv, ne, tile, prof[pr, F_HIDDEN])
    return v


# =========================================================== candidates
@njit((F2, b1), **KERNEL)
def offer_from(cand, prune):
    """Start a candidate list.  ``prune`` (a greedy choice, ``choose``): a candidate is kept
    only if it comes within ``TIE`` of the best offered so far, so the list holds every
    candidate ``choose`` may pick from the full list (the best and its ties) and the greedy
    plays the same; past MAXC candidates kept (unpruned: offered) the rest are dropped."""
    cand[KEEP, 1] = -np.inf
    cand[KEEP, 2] = 1.0 if prune else 0.0


@njit((F2, f8), **KERNEL)
def hopeless(cand, bound):
    """While pruning: a candidate worth at most ``bound`` cannot be the choice
    (``offer_from``): it falls short of the best offered before it by more than ``TIE``,
    or it is below 0 by more (the OPERATIVE's PASS is worth 0; a HOSTILE's best at or
    below 0 is not played)."""
    if cand[KEEP, 2] != 1.0:
        return False
    return bound < cand[KEEP, 1] - TIE or bound < -1e-9


@njit((F2, i8, i8, i8, i8, i8, f8), **KERNEL)
def add(cand, n, kind, a, b, c, value):
    """Offer a candidate (``offer_from``); returns the candidates kept."""
    if n >= MAXC:
        return n
    if cand[KEEP, 2] == 1.0:
        if value < cand[KEEP, 1] - TIE:
            return n
        cand[KEEP, 1] = max(cand[KEEP, 1], value)
    cand[n, 0] = kind
    cand[n, 1] = a
    cand[n, 2] = b
    cand[n, 3] = c
    cand[n, 4] = value
    return n + 1


@njit((*CTX, F2, i8, i8, f8), **KERNEL)
def item_candidates(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, n, u,
                    punch):  # fmt: skip
    """PICK UP, TRADE and DROP candidates of OPERATIVE ``u`` ("Pick Up", "Trade", "Drop";
    ``punch``: the SUCKER PUNCHES the first two provoke).  Greedy: a PICK UP takes every
    ITEM of the TILE it has an option for, within its ENCUMBRANCE LIMIT, worth 3 x the gain
    of its best chance against DEFENSE 2 + 0.2 per ITEM (a spare for a BOTCH); a TRADE
    (one ITEM) 3 x the receiver's gain less the giver's loss.  A body (no mission here
    rewards one) and a DROP (a FREE ACTION) are only drawn by the random OPERATIVES."""
    fast = policy(ms, g, 0) == POL_RANDOM
    here = st[u, S_TILE]
    pr = prow(un, st, u)
    cap = prof[pr, F_CARRY]
    have = load(un, st, u)
    lying = ground(g, here)
    flips = st[u, S_FLIPPED] | g[G_GFLIP]
    if lying != 0 and have < cap:
        mask = 0
        room = cap - have
        for i in range(MAX_ITEMS):
            if (lying >> i) & 1 == 1 and room > 0 and (fast or (un[u, U_USES] >> i) & 1 == 1):
                mask |= 1 << i
                room -= 1
        if mask != 0:
            val = 0.0
            if not fast:
                carry = st[u, S_CARRY]
                now = best_chance(un, prof, opt, pw, st, u, pr, carry, flips, 2)
                more = best_chance(un, prof, opt, pw, st, u, pr, carry | mask, flips, 2)
                val = 3.0 * (more - now) + 0.2 * popcount(mask) - punch - 0.05
            n = add(cand, n, C_PICKUP, u, mask, -1, val)
    for w in range(un.shape[0]):
        if un[w, U_SIDE] != 0 or w == u:
            continue
        if fast and st[w, S_ON] == ON_DEAD and st[w, S_TILE] == here and st[w, S_CARRIER] == 0:
            if st[u, S_BODY] == 0 and have + un[w, U_BODY] <= cap:
                n = add(cand, n, C_PICKUP, u, 0, w, 0.0)
        if st[w, S_ON] != ON_FIELD or st[w, S_TILE] != here:
            continue
        pw_ = prow(un, st, w)
        wcap = prof[pw_, F_CARRY]
        wload = load(un, st, w)
        fl = flips | st[w, S_FLIPPED]
        now_u = -1.0  # each side's best chance now, once per partner (when needed)
        now_w = -1.0
        for i in range(MAX_ITEMS):
            bit = 1 << i
            mine = (st[u, S_CARRY] >> i) & 1 == 1
            theirs = (st[w, S_CARRY] >> i) & 1 == 1
            if not (mine or theirs):
                continue
            if (mine and wload >= wcap) or (theirs and have >= cap):
                continue
            if fast:
                n = add(cand, n, C_TRADE, u, w, i, 0.0)
                continue
            a, ra = (u, pr) if mine else (w, pw_)  # the giver
            b, rb = (w, pw_) if mine else (u, pr)  # the receiver
            if (un[b, U_USES] >> i) & 1 == 0:
                continue
            if now_u < 0.0:
                now_u = best_chance(un, prof, opt, pw, st, u, pr, st[u, S_CARRY], fl, 2)
                now_w = best_chance(un, prof, opt, pw, st, w, pw_, st[w, S_CARRY], fl, 2)
            now_b = now_w if mine else now_u
            now_a = now_u if mine else now_w
            if hopeless(cand, 3.0 * (1.0 - now_b) - punch - 0.05):  # a bound on the value
                continue
            gain = best_chance(un, prof, opt, pw, st, b, rb, st[b, S_CARRY] | bit, fl, 2) - now_b
            if hopeless(cand, 3.0 * gain - punch - 0.05):
                continue
            loss = now_a - best_chance(un, prof, opt, pw, st, a, ra, st[a, S_CARRY] & ~bit, fl, 2)
            n = add(cand, n, C_TRADE, u, w, i, 3.0 * (gain - loss) - punch - 0.05)
    if fast:
        for i in range(MAX_ITEMS):
            if (st[u, S_CARRY] >> i) & 1 == 1:
                n = add(cand, n, C_DROP, u, i, 0, 0.0)
        if st[u, S_BODY] > 0:
            n = add(cand, n, C_DROP, u, -1, 0, 0.0)
    return n


@njit((*CTX, F2, i8, i8, i8), **KERNEL)
def trait_candidates(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, n, u,
                     goal):  # fmt: skip
    """The ACTIVE TRAITS of ``u``'s DASHBOARD side ("Active Traits"): Patch Up (worth 0.6
    of the healed OPERATIVE's value per WOUND, +0.5 of it when the next WOUND would kill),
    Data Stream (1.2 per TILE, +2 on the hunt's goal: a sure REVEAL, where a SCOUT is
    worth its chance x (0.8 + 0.4 per token)), Overload (like a STUN ATTACK that cannot
    miss, plus half the chance the ENEMY WOUNDS ``u``), Verdict (0.7 x the gain of the
    best ATTACK on the ENEMY of ``u`` with an ACTION left and of each ALLY holding an EDGE)
    and Execution (an ATTACK on a WOUNDED ENEMY with SUCCESS +X: the chance against
    DEFENSE - X)."""
    here = st[u, S_TILE]
    pr = prow(un, st, u)
    fast = policy(ms, g, 0) == POL_RANDOM
    opposed = count_on(un, st, 1, here) > 0
    x = prof[pr, F_HEAL]
    if x >= 0 and not opposed:
        for w in range(un.shape[0]):
            if fleshwounds(un, st, w) <= 0 or dist[here, st[w, S_TILE]] > x:
                continue
            per = un[w, U_POINTS] / un[w, U_HEALTH]
            val = 0.6 * per + (0.5 * per if st[w, S_WOUNDS] + 2 >= un[w, U_HEALTH] else 0.0)
            n = add(cand, n, C_HEAL, u, w, 0, val)
    x = prof[pr, F_REVEAL]
    if x >= 0:  # the TILES WITHIN X holding THREAT tokens, in TILE order
        m0 = 0
        m1 = 0
        for v in range(un.shape[0]):
            if un[v, U_SIDE] == 1 and st[v, S_ON] == ON_FIELD and st[v, S_REVEALED] == 0:
                t = st[v, S_TILE]
                if dist[here, t] <= x:
                    if t < 63:
                        m0 |= 1 << t
                    else:
                        m1 |= 1 << (t - 63)
        for t in range(ms[M_NTILES]):
            bits = m0 if t < 63 else m1
            if (bits >> (t if t < 63 else t - 63)) & 1 == 1:
                n = add(cand, n, C_REVEAL, u, t, 0, 1.2 + (2.0 if t == goal else 0.0))
    xs = prof[pr, F_STUN_AT]
    xv = prof[pr, F_VERDICT]
    bonus = prof[pr, F_EXECUTE]
    if xs < 0 and xv < 0 and bonus <= 0:
        return n
    my_def = defense(un, prof, fld, st, u, False)
    for v in range(un.shape[0]):
        if un[v, U_SIDE] != 1 or st[v, S_ON] != ON_FIELD or st[v, S_REVEALED] == 0:
            continue
        d = dist[here, st[v, S_TILE]]
        wv = wound_value(un, st, v)
        if xs >= 0 and d <= xs and st[v, S_STUN] == 0:
            val = 0.0
            if not fast:
                per = un[u, U_POINTS] / un[u, U_HEALTH]
                val = 0.3 * wv + 0.5 * chance(pw, prow(un, st, v) * MAX_OPT, my_def) * per
            n = add(cand, n, C_STUN, u, v, 0, val)
        if xv >= 0 and d <= xv:
            val = 0.0
            if not fast:
                dv = defense(un, prof, fld, st, v, False)
                cut = prof[pr, F_VERDICT_DEF]
                for w in range(un.shape[0]):
                    if un[w, U_SIDE] != 0 or st[w, S_ON] != ON_FIELD:
                        continue
                    if (w == u and g[G_STEP] != 0) or (w != u and st[w, S_EDGES] == 0):
                        continue
                    rw = prow(un, st, w)
                    best = 0.0
                    for k in range(prof[rw, F_NOPT]):
                        row = rw * MAX_OPT + k
                        if not usable(un, opt, st, w, row) or opt[row, O_AREA] == 1:
                            continue
                        if in_reach(un, prof, opt, fld, dist, los, ms, st, w, row, v):
                            best = max(best, chance(pw, row, dv - cut) - chance(pw, row, dv))
                    val += best * wv
                val *= 0.7
            n = add(cand, n, C_VERDICT, u, v, 0, val - 0.05)
        if bonus > 0 and st[v, S_WOUNDS] > 0:
            dv = defense(un, prof, fld, st, v, False)
            for k in range(prof[pr, F_NOPT]):
                row = pr * MAX_OPT + k
                if not usable(un, opt, st, u, row) or opt[row, O_AREA] == 1:
                    continue
                if opt[row, O_RANGED] == 1 or opt[row, O_TRAIT] == 1 or opt[row, O_STUN] == 1:
                    continue
                if in_reach(un, prof, opt, fld, dist, los, ms, st, u, row, v):
                    bcost = pw[row, PW_BOTCH] * 0.5 if opt[row, O_ITEM] >= 0 else 0.0
                    p = chance(pw, row, dv - bonus)
                    n = add(cand, n, C_EXECUTE, u, k, v, p * wv - bcost)
    return n


@njit((*CTX, F2, i8), **KERNEL)
def op_candidates(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, u):
    """The ACTIONS ``u`` may take now with their greedy values ("Operative Actions"); a
    greedy choice keeps only what may be chosen (``offer_from``)."""
    offer_from(cand, policy(ms, g, 0) == POL_GREEDY)
    n = add(cand, 0, C_PASS, u, 0, 0, 0.0)
    here = st[u, S_TILE]
    side = st[u, S_SIDE]
    pr = prow(un, st, u)
    goal = goal_tile(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u)
    sv = cand[MAXC:]  # the survey's scratch rows
    fast = policy(ms, g, 0) == POL_RANDOM  # a random choice needs no values
    ne = survey(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, sv, u)
    base = 0.0
    reach = -1
    if not fast:
        gone = st[u, S_FLIPPED] | ~st[u, S_CARRY]  # ITEMS not CARRIED or FLIPPED
        reach = attack_table(prof, opt, pw, sv, ne, pr, gone, V_OWN, 0.0)
        base = op_tile_value(un, prof, fld, dist, los, ms, sv, ne, u, pr, reach, here, goal)
    opposed = count_on(un, st, 1, here) > 0
    per = un[u, U_POINTS] / un[u, U_HEALTH]
    # ATTACKS ("Attack (Operative)") and AREA ATTACKS ("Area Attack")
    risk = 0.0
    if opposed:
        for e in range(un.shape[0]):
            if un[e, U_SIDE] == 1 and st[e, S_ON] == ON_FIELD and st[e, S_TILE] == here:
                if st[e, S_PUNCH] < prof[prow(un, st, e), F_PUNCH] and st[e, S_STUN] == 0:
                    risk += chance(pw, prow(un, st, e) * MAX_OPT, prof[pr, F_DEF]) * per
    now = 0.0  # the best single-TARGET ATTACK here (its SUCKER PUNCHES counted), for a FLIP
    for k in range(prof[pr, F_NOPT]):
        row = pr * MAX_OPT + k
        if not usable(un, opt, st, u, row):
            continue
        pen = risk if opt[row, O_RANGED] == 1 else 0.0
        bcost = pw[row, PW_BOTCH] * 0.5 if opt[row, O_ITEM] >= 0 else 0.0
        if opt[row, O_AREA] == 1:
            for e in range(ne):  # the TILES holding ENEMIES, each once
                t = int(sv[e, V_TILE])
                seen = False
                for e2 in range(e):
                    if int(sv[e2, V_TILE]) == t:
                        seen = True
                if seen or dist[here, t] > opt[row, O_RANGE] or los[here, t] == 0:
                    continue
                val = 0.0
                hits = 0
                for w in range(un.shape[0]):
                    if w == u or st[w, S_ON] != ON_FIELD or st[w, S_TILE] != t:
                        continue
                    if un[w, U_SIDE] == 0 and ms[M_AREA_ALLIES] == 0:
                        continue
                    if un[w, U_SIDE] == 1 and st[w, S_REVEALED] == 0:
                        val += token_area_value(un, prof, opt, pw, fld, st, row, w)
                        hits += 1
                        continue
                    p = chance(pw, row, defense(un, prof, fld, st, w, True))
                    wv = wound_value(un, st, w)
                    if un[w, U_SIDE] == 1:
                        val += p * wv
                        hits += 1
                    else:
                        val -= 1.5 * p * wv
                if hits > 0:
                    n = add(cand, n, C_AREA, u, k, t, val - pen - bcost)
            continue
        for i in range(ne):
            v = int(sv[i, V_ID])
            if in_reach(un, prof, opt, fld, dist, los, ms, st, u, row, v):
                p = chance(pw, row, defense(un, prof, fld, st, v, False))
                wv = wound_value(un, st, v)
                if opt[row, O_STUN] == 1:
                    wv *= 0.3 if st[v, S_STUN] == 0 else 0.0
                else:
                    now = max(now, p * wv - pen)
                n = add(cand, n, C_ATTACK, u, k, v, p * wv - pen - bcost)
    # MOVES
    reach_list = reach_row(ms, move_rating(un, prof, st, u), here)
    leave = 0.0
    if opposed:
        leave = 1.5 * risk
    best_attack = 0.0  # no tile's prospect exceeds the best of the ATTACK table
    for i in range(ne):
        best_attack = max(best_attack, sv[i, V_OWN])
    snared = st[u, S_SNARED] == 1  # Snare: no MOVE (nor an EXIT, a MOVE ACTION) this ROUND
    for j in range(0 if snared else mv[reach_list, 0]):
        t = mv[reach_list, 1 + j]
        val = 0.0
        if not fast:
            # op_tile_value without its harm, with the best prospect: a bound on it
            gd = dist[t, goal] if goal >= 0 else fld[t, T_GOAL]
            bound = -3.0 * gd
            if ms[M_KIND] == KIND_HOLD and fld[t, T_OBJ] == 1:
                bound += 4.0
            bound += 0.7 * best_attack
            if hopeless(cand, bound - base - leave):
                continue
            val = op_tile_value(un, prof, fld, dist, los, ms, sv, ne, u, pr, reach, t, goal)
        n = add(cand, n, C_MOVE, u, t, 0, val - base - leave)
    # 0 The Adventurer: the TILES only a MOVE without MOVE PENALTIES reaches (in force this
    # ROUND, or held: the MOVE plays it first, ``play``)
    free = g[G_ADVENTURER] == 1
    if not snared and (free or (ms[M_ARCANA] == 1 and holds(g, 0, A_ADVENTURER))):
        nt_ = ms[M_NTILES]
        m = move_rating(un, prof, st, u)
        for t in range(nt_):
            if t == here or mv[(m - 1) * nt_ + here, t] < 0:
                continue
            if mv[(MAX_MOVE + m - 1) * nt_ + here, t] >= 0:
                continue  # reached with the penalties too (above)
            val = 0.0
            if not fast:
                val = op_tile_value(un, prof, fld, dist, los, ms, sv, ne, u, pr, reach, t, goal)
            n = add(cand, n, C_MOVE, u, t, 0 if free else 1, val - base - leave)
    # EXIT ("Exit Points"): the mission's EXIT POINT (the OSP's would be a RETREAT)
    if ms[M_KIND] == KIND_EXTRACT and fld[here, T_EXIT] == 1 and fld[here, T_OSP] == 0:
        if not snared:
            n = add(cand, n, C_EXIT, u, here, 0, 50.0 - leave)
    # RETREAT ("Retreat"): by the OSP, the mission fails; a single mission has no later
    # MISSION to save the OPERATIVES for, so the greedy value is a failure's (never taken)
    if ms[M_RETREAT] == 1 and fld[here, T_OSP] == 1 and not snared:
        n = add(cand, n, C_EXIT, u, here, 0, -100.0)
    # SCOUT ("Scout"): FOCUS, UNOPPOSED, a TILE in LINE OF SIGHT with THREATS
    if side == 0 and not opposed and prof[pr, F_SCOUT] >= 0:
        srow = prof[pr, F_SCOUT]
        for e in range(ne):  # the TILES holding THREATS, each once
            if sv[e, V_TARGET] == 1.0:
                continue
            t = int(sv[e, V_TILE])
            seen = False
            for e2 in range(e):
                if sv[e2, V_TARGET] == 0.0 and int(sv[e2, V_TILE]) == t:
                    seen = True
            if seen or los[here, t] == 0:
                continue
            nthreat = threats_on(un, st, t, -1)
            p = chance(pw, srow, dist[here, t] + fld[t, T_HARD])
            val = p * (0.8 + 0.4 * nthreat)
            if goal >= 0 and t == goal:
                val += 2.0 * p
            n = add(cand, n, C_SCOUT, u, t, 0, val)
    # FLIP ("Flip"): worth it when the ATTACKS left after it on the other side beat the
    # ATTACKS this side could make with the same ACTIONS (either side's RANGED ATTACKS
    # less the SUCKER PUNCHES they provoke here); never as the last ACTION of a
    # TURN while OPPOSED (the ENEMY strikes before the next TURN)
    gain = 0.0
    if not fast:
        other_pr = pr + (MAX_LEVELS if side == 0 else -MAX_LEVELS)
        gone = st[u, S_FLIPPED] | ~st[u, S_CARRY]
        far = attack_table(prof, opt, pw, sv, ne, other_pr, gone, V_OTHER, risk)
        other = prospect(dist, los, ms, sv, ne, V_OTHER, far, here)
        if g[G_STEP] == 0:
            gain = 0.6 * (other - 2.0 * now)
        elif opposed:
            gain = -1.0
        else:
            gain = 0.3 * other - 0.6 * now
    n = add(cand, n, C_FLIP, u, 1 - side, 0, gain - 0.05)
    # a BOTCH TRAIT or ACTIVE TRAIT that FLIPS an ITEM back ("Items Breakdown": "how the
    # ITEM can be returned to the operational side"; "Active Traits": an ACTION), for the
    # BOTCHED ITEMS of ``F_FIX``: worth the best ATTACK the ITEM would make from here (on a
    # surveyed TARGET in RANGE and LINE OF SIGHT), x0.9 with an ACTION left to make it, x0.5
    # for the next TURN, +0.5 when no other ITEM of this side is operational
    fix = st[u, S_FLIPPED] & prof[pr, F_FIX]
    if fix != 0:
        armed = 0
        for k in range(prof[pr, F_NOPT]):
            if opt[pr * MAX_OPT + k, O_ITEM] >= 0 and usable(un, opt, st, u, pr * MAX_OPT + k):
                armed += 1
        for k in range(prof[pr, F_NOPT]):
            row = pr * MAX_OPT + k
            item = opt[row, O_ITEM]
            if item < 0 or (fix >> item) & 1 == 0:
                continue
            val = 0.0
            if not fast:
                for e in range(ne):
                    t = int(sv[e, V_TILE])
                    d = target_distance(ms, dist[here, t], int(sv[e, V_HID]))
                    if sv[e, V_TARGET] == 1.0 and los[here, t] == 1 and d <= opt[row, O_RANGE]:
                        val = max(val, chance(pw, row, int(sv[e, V_DEF])) * sv[e, V_WV])
                val *= 0.9 if g[G_STEP] == 0 else 0.5
                val += 0.5 if armed == 0 else 0.0
            n = add(cand, n, C_FIX, u, item, 0, val - 0.05)
    n = item_candidates(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, n,
                        u, 1.5 * risk)  # fmt: skip
    n = trait_candidates(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand,
                         n, u, goal)  # fmt: skip
    return n


@njit((I2, I2, I1, F2, i8, i8, i8, i8, i8, f8, f8), **KERNEL)
def host_move_bound(dist, mv, ms, sv, ne, reach_list, here, revealed, reach, risk, best_here):
    """A bound on the value of every MOVE candidate of a HOSTILE unit on ``here`` (the loop
    in ``host_candidates``): no MOVE ends nearer an OPERATIVE than its DISTANCE from
    ``here`` less the farthest TILE the MOVE reaches (triangle inequality), and LINE OF
    SIGHT is ignored."""
    far = 0
    for j in range(mv[reach_list, 0]):
        far = max(far, dist[here, mv[reach_list, 1 + j]])
    bound = 0.0
    near = 99
    for v in range(ne):
        closest = dist[here, int(sv[v, V_TILE])] - far
        near = min(near, closest)
        if closest <= 0 and revealed == 0:
            bound = max(bound, sv[v, V_PH])
        elif closest <= 0 or closest + int(sv[v, V_HID]) <= reach:
            bound = max(bound, 0.5 * sv[v, V_PH])
    if ms[M_KIND] == KIND_HOLD:
        bound += 0.6
    bound -= 0.15 * max(near, 0)
    bound -= risk
    return bound - 0.5 * best_here


@njit((I2, I2, I2, I1, F2, i8, i8, i8, i8), **KERNEL)
def host_tile_value(fld, dist, los, ms, sv, ne, revealed, reach, t):
    """Greedy worth of a HOSTILE unit (its ATTACK's RANGE ``reach``) MOVING to ``t``: a
    THREAT onto an OPERATIVE (an AMBUSH), else an ATTACK in prospect at half, an OBJECTIVE
    of a hold, less 0.15 per BORDER to the nearest OPERATIVE."""
    val = 0.0
    near = 99
    for v in range(ne):
        vt = int(sv[v, V_TILE])
        dv = dist[t, vt]
        near = min(near, dv)
        p = sv[v, V_PH]
        if dv == 0 and revealed == 0:
            val = max(val, p)
        elif target_distance(ms, dv, int(sv[v, V_HID])) <= reach and los[t, vt] == 1:
            val = max(val, 0.5 * p)
    if ms[M_KIND] == KIND_HOLD and fld[t, T_OBJ] == 1:
        val += 0.6
    return val - 0.15 * near


@njit((*CTX, F2, i8, i8), **KERNEL)
def host_extra(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, n, ne):
    """The HOSTILE's other ACTIONS, after the survey of ``host_candidates`` (``cand[MAXC:]``,
    ``ne`` rows; its ``V_PH`` from the last unit): a Snare ("An OPERATIVE WITHIN 1 cannot
    MOVE this ROUND") on an OPERATIVE still holding EDGES (greedy: 0.3 + 1.2 / (1 + its
    BORDERS to its goal); 0.1 on a held OBJECTIVE); a CLANNER DISCARDING an ITEM of its TILE
    ("Pick Up"; 0.5 when a living OPERATIVE could use it); a MOVE only 0 The Adventurer
    makes possible (held, or in force this ROUND: no MOVE PENALTIES)."""
    fast = policy(ms, g, 1) == POL_RANDOM
    sv = cand[MAXC:]
    nt_ = ms[M_NTILES]
    free = g[G_ADVENTURER + 1] == 1
    adv = free or (ms[M_ARCANA] == 1 and holds(g, 1, A_ADVENTURER))
    goal = goal_tile(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, 0)
    lying_any = False  # any ITEM on the FIELD at all
    for i in range(MAX_ITEMS):
        lying_any = lying_any or g[G_ITEM_AT + i] >= 0
    for h in range(un.shape[0]):
        if un[h, U_SIDE] != 1 or st[h, S_ON] != ON_FIELD or st[h, S_STUN] == 1:
            continue
        pr = prow(un, st, h)
        here = st[h, S_TILE]
        risk = 0.5 * un[h, U_VALUE] if count_on(un, st, 0, here) > 0 else 0.0
        x = prof[pr, F_SNARE]
        if x >= 0:
            for v in range(un.shape[0]):
                if un[v, U_SIDE] != 0 or st[v, S_ON] != ON_FIELD or st[v, S_SNARED] == 1:
                    continue
                if st[v, S_EDGES] == 0 or dist[here, st[v, S_TILE]] > x:
                    continue
                t = st[v, S_TILE]
                gd = dist[t, goal] if goal >= 0 else fld[t, T_GOAL]
                val = 0.3 + 1.2 / (1.0 + gd)
                if ms[M_KIND] == KIND_HOLD and fld[t, T_OBJ] == 1:
                    val = 0.1
                n = add(cand, n, C_SNARE, h, v, 0, 0.0 if fast else val)
        lying = ground(g, here) if lying_any else 0
        for i in range(MAX_ITEMS if lying != 0 else 0):
            if (lying >> i) & 1 == 0:
                continue
            val = 0.05
            for v in range(un.shape[0]):
                if un[v, U_SIDE] == 0 and st[v, S_ON] == ON_FIELD and (un[v, U_USES] >> i) & 1:
                    val = 0.5
            n = add(cand, n, C_DISCARD, h, i, 0, 0.0 if fast else val - risk)
        if adv:
            m = move_rating(un, prof, st, h)
            row = pr * MAX_OPT
            for v in range(ne):
                sv[v, V_PH] = chance(pw, row, int(sv[v, V_DEF])) * sv[v, V_WV]
            best_here = 0.0
            for i in range(ne):
                v = int(sv[i, V_ID])
                if in_reach(un, prof, opt, fld, dist, los, ms, st, h, row, v):
                    best_here = max(best_here, sv[i, V_PH])
            for t in range(nt_):
                if t == here or mv[(m - 1) * nt_ + here, t] < 0:
                    continue
                if mv[(MAX_MOVE + m - 1) * nt_ + here, t] >= 0:
                    continue  # reached with the penalties too (``host_candidates``)
                val = 0.0
                if not fast:
                    val = host_tile_value(fld, dist, los, ms, sv, ne, st[h, S_REVEALED],
                                          opt[row, O_RANGE], t)  # fmt: skip
                n = add(cand, n, C_MOVE, h, t, 0 if free else 1, val - risk - 0.5 * best_here)
    return n


@njit((*CTX, F2), **KERNEL)
def host_candidates(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand):
    """The HOSTILE's ACTIONS for one EDGE with their greedy values ("Hostile Actions",
    "Spawn"): ATTACK, MOVE (a THREAT moving onto an OPERATIVE AMBUSHES it), SPAWN; a greedy
    choice keeps only what may be chosen (``offer_from``)."""
    offer_from(cand, policy(ms, g, 1) == POL_GREEDY)
    n = 0
    sv = cand[MAXC:]  # the survey's scratch rows
    fast = policy(ms, g, 1) == POL_RANDOM  # a random choice needs no values
    surveyed = False
    ne = 0
    nt_ = ms[M_NTILES]
    for h in range(un.shape[0]):
        if un[h, U_SIDE] != 1 or st[h, S_ON] != ON_FIELD or st[h, S_STUN] == 1:
            continue
        pr = prow(un, st, h)
        row = pr * MAX_OPT
        here = st[h, S_TILE]
        if not surveyed:  # what the HOSTILE sees of the OPERATIVES (the same for all)
            ne = survey(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, sv, h)
            surveyed = True
        best_here = 0.0
        for i in range(ne):
            v = int(sv[i, V_ID])
            if in_reach(un, prof, opt, fld, dist, los, ms, st, h, row, v):
                p = chance(pw, row, defense(un, prof, fld, st, v, False))
                val = p * wound_value(un, st, v)
                best_here = max(best_here, val)
                n = add(cand, n, C_ATTACK, h, 0, v, val)
        reach_list = reach_row(ms, move_rating(un, prof, st, h), here)
        risk = 0.0
        if count_on(un, st, 0, here) > 0:
            risk = 0.5 * un[h, U_VALUE]
        if fast:
            for j in range(mv[reach_list, 0]):
                n = add(cand, n, C_MOVE, h, mv[reach_list, 1 + j], 0, 0.0)
            continue
        for v in range(ne):
            sv[v, V_PH] = chance(pw, row, int(sv[v, V_DEF])) * sv[v, V_WV]
        if hopeless(cand, host_move_bound(dist, mv, ms, sv, ne, reach_list, here,
                                          st[h, S_REVEALED], opt[row, O_RANGE], risk,
                                          best_here)):  # fmt: skip
            continue
        for j in range(mv[reach_list, 0]):
            t = mv[reach_list, 1 + j]
            val = host_tile_value(fld, dist, los, ms, sv, ne, st[h, S_REVEALED],
                                  opt[row, O_RANGE], t)  # fmt: skip
            n = add(cand, n, C_MOVE, h, t, 0, val - risk - 0.5 * best_here)
    n = host_extra(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, n, ne)
    # SPAWN one reserve unit per card (the first of its copies in the reserve)
    spawns = 3 * MAX_MOVE * nt_  # the row of ``mv`` listing the SPAWN POINTS
    for h in range(un.shape[0]):
        if un[h, U_SIDE] != 1 or st[h, S_ON] != ON_RESERVE:
            continue
        if h > 0 and un[h - 1, U_CARD] == un[h, U_CARD] and st[h - 1, S_ON] == ON_RESERVE:
            continue
        for j in range(mv[spawns, 0]):
            t = mv[spawns, 1 + j]
            near = 99
            val = 0.3
            for v in range(un.shape[0]):
                if un[v, U_SIDE] == 0 and st[v, S_ON] == ON_FIELD:
                    near = min(near, dist[t, st[v, S_TILE]])
                    if dist[t, st[v, S_TILE]] == 0:
                        p = chance(pw, h * ROWS * MAX_OPT, defense(un, prof, fld, st, v, False))
                        val += p * wound_value(un, st, v)  # fmt: skip
            n = add(cand, n, C_SPAWN, h, t, 0, val + 0.1 * max(6 - near, 0))
    return n


@njit((*CTX, F2, i8, i8, b1), **KERNEL)
def choose(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, n, pol, hostile):
    """The candidate to play: the best (greedy; candidates within ``TIE`` of it are ties,
    one taken uniformly at random, so the order of the lists never decides), a uniform one
    (random), or -1 when the HOSTILE's best is not worth an EDGE (greedy keeps it stored)."""
    if n == 0:
        return -1
    if pol == POL_RANDOM:
        return pick(rng, n)
    top = cand[0, 4]
    for c in range(1, n):
        top = max(top, cand[c, 4])
    if hostile and top <= 0.0:
        return -1
    ties = 0
    for c in range(n):
        if cand[c, 4] >= top - TIE:
            ties += 1
    j = pick(rng, ties)
    for c in range(n):
        if cand[c, 4] >= top - TIE:
            if j == 0:
                return c
            j -= 1
    return -1


@njit((*CTX, F2, i8), **KERNEL)
def play(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, c):
    """Carry out candidate ``c``, then the AMBUSHES at the end of the ACTION (a HOSTILE
    unit's ACTION is preceded by its Harrowing, ``harrow``)."""
    kind = int(cand[c, 0])
    a = int(cand[c, 1])
    b = int(cand[c, 2])
    x = int(cand[c, 3])
    if un[a, U_SIDE] == 1 and kind != C_SPAWN and kind != C_PASS:
        harrow(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a)
    if kind == C_MOVE:
        if x == 1:  # a MOVE only 0 The Adventurer makes possible: play it (it may not come)
            round_arcana(ms, g, ev, rng, un[a, U_SIDE], G_ADVENTURER, A_ADVENTURER, a)
        move(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b)
    elif kind == C_ATTACK:
        attack(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b, x,
               st[x, S_TILE])  # fmt: skip
    elif kind == C_AREA:
        attack(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b, -1, x)
    elif kind == C_SCOUT:
        scout(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b)
    elif kind == C_FLIP:
        st[a, S_SIDE] = b
        log(g, ev, E_FLIP, 0, a, b, 0, 0, 0, 0, 0, 0, 0)
    elif kind == C_EXIT:
        leave_field(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a)
    elif kind == C_SPAWN:
        spawn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b)
    elif kind == C_FIX:
        st[a, S_FLIPPED] &= ~(1 << b)
        log(g, ev, E_FIXED, 0, a, b, 0, 0, 0, 0, 0, 0, 0)
    elif kind == C_PICKUP:
        pick_up(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b, x)
    elif kind == C_TRADE:
        trade(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b, x)
    elif kind == C_DROP:
        drop(un, g, ev, st, a, b)
    elif kind == C_DISCARD:
        discard(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b)
    elif kind == C_HEAL:
        patch_up(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b)
    elif kind in (C_REVEAL, C_STUN, C_VERDICT, C_SNARE):
        use_trait(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, kind, b)
    elif kind == C_EXECUTE:  # Execution: a MELEE ATTACK with SUCCESS +X on a WOUNDED ENEMY
        pr = prow(un, st, a)
        if prof[pr, F_EXECUTE] > 0 and st[x, S_WOUNDS] > 0 and opt[pr * MAX_OPT + b, O_RANGED] == 0:
            g[G_BONUS] = prof[pr, F_EXECUTE]
            g[G_BONUS_U] = a + 1
            attack(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b, x,
                   st[x, S_TILE])  # fmt: skip
            g[G_BONUS_U] = 0
    else:
        log(g, ev, E_PASS, un[a, U_SIDE], a, 0, 0, 0, 0, 0, 0, 0, 0)
    if g[G_END] < 0:
        ambush_all(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)


# =========================================================== turns and rounds
@njit((I2, I2, I2, F2, I1, I2, I1, I2, U1, i8), **KERNEL)
def heretic(un, prof, opt, pw, ms, st, g, ev, rng, u):
    """ "X – The Heretic: FLIP an ITEM", at the start of OPERATIVE ``u``'s TURN: the
    OPERATIVES FLIP its first BOTCHED WEAPON back to its operational face; else the HOSTILE
    FLIPS its best operational WEAPON of its DASHBOARD side (the best chance against
    DEFENSE 2) to the BOTCH face."""
    if ms[M_ARCANA] == 0:
        return
    pr = prow(un, st, u)
    fixed = -1
    best = -1
    bp = -1.0
    for k in range(prof[pr, F_NOPT]):
        row = pr * MAX_OPT + k
        item = opt[row, O_ITEM]
        if item < 0 or opt[row, O_USABLE] == 0 or (st[u, S_CARRY] >> item) & 1 == 0:
            continue
        if (st[u, S_FLIPPED] >> item) & 1 == 1:
            if fixed < 0:
                fixed = item
        elif chance(pw, row, 2) > bp:
            bp = chance(pw, row, 2)
            best = item
    if fixed >= 0 and holds(g, 0, A_HERETIC) and wants(ms, g, rng, 0):
        if play_arcana(ms, g, ev, rng, 0, A_HERETIC, u):
            st[u, S_FLIPPED] &= ~(1 << fixed)
    elif best >= 0 and holds(g, 1, A_HERETIC) and wants(ms, g, rng, 1):
        if play_arcana(ms, g, ev, rng, 1, A_HERETIC, u):
            st[u, S_FLIPPED] |= 1 << best


@njit((*CTX, i8), **KERNEL)
def ruler(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u):
    """ "IV – The Ruler: MOVE an ENEMY 3 TILES ignoring MOVE PENALTIES", played by the
    HOSTILE at the start of OPERATIVE ``u``'s TURN: a MOVE 3 without MOVE PENALTIES of
    ``u`` to the TILE it reaches farthest from its goal (its goal TILE, else the mission's
    distance to the nearest goal: an extraction's EXIT POINTS; a THREAT's TILE counts 2 BORDERS
    farther: the OPERATIVE is AMBUSHED there), when that is at least 2 BORDERS more than
    now; SUCKER PUNCHES and AMBUSHES as on any MOVE."""
    if ms[M_ARCANA] == 0 or not holds(g, 1, A_RULER) or st[u, S_ON] != ON_FIELD:
        return
    if st[u, S_SNARED] == 1:  # Snare: it "cannot MOVE this ROUND"
        return
    goal = goal_tile(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u)
    here = st[u, S_TILE]
    nt_ = ms[M_NTILES]
    best = -1
    bv = (dist[here, goal] if goal >= 0 else fld[here, T_GOAL]) + 1.5
    for t in range(nt_):
        if t == here or mv[(RULER_MOVE - 1) * nt_ + here, t] < 0:
            continue
        val = dist[t, goal] if goal >= 0 else fld[t, T_GOAL]
        val += 2.0 if threats_on(un, st, t, -1) > 0 else 0.0
        if val > bv:
            bv = val
            best = t
    if best < 0 or not wants(ms, g, rng, 1):
        return
    if play_arcana(ms, g, ev, rng, 1, A_RULER, u):
        move_by(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u, best,
                RULER_MOVE, 0)  # fmt: skip


@njit((I2, I2, I2, F2, I1, I2, I1, I2, U1, i8), **KERNEL)
def healer_flip(un, prof, opt, pw, ms, st, g, ev, rng, u):
    """ "VI – The Healer: Flip a FLESHWOUND", played by the OPERATIVES at the start of
    ``u``'s TURN when one of its FLESHWOUNDS FLIPPED back shows a POTENTIAL that changes
    its profile (a higher DEFENSE or a better ATTACK against DEFENSE 2); otherwise the card
    is kept to NEGATE a WOUND that would kill (``wound``: the same health)."""
    if ms[M_ARCANA] == 0 or not holds(g, 0, A_HEALER) or fleshwounds(un, st, u) <= 0:
        return
    pr = prow(un, st, u)
    if pr % MAX_LEVELS == 0:
        return
    up = pr - 1
    fl = st[u, S_FLIPPED]
    c = st[u, S_CARRY]
    better = prof[up, F_DEF] > prof[pr, F_DEF]
    if (
        best_chance(un, prof, opt, pw, st, u, up, c, fl, 2)
        > best_chance(un, prof, opt, pw, st, u, pr, c, fl, 2) + 1e-9
    ):
        better = True  # fmt: skip
    if better and wants(ms, g, rng, 0) and play_arcana(ms, g, ev, rng, 0, A_HEALER, u):
        st[u, S_WOUNDS] -= 1
        log(g, ev, E_HEAL, 0, u, u, HEAL_HEALER_FLIP, st[u, S_WOUNDS], 0, 0, 0, 0, 0)


@njit((I2, I1, I2, I1, I2, U1), **KERNEL)
def healer_stage(un, ms, st, g, ev, rng):
    """ "VI – The Healer: ... revert a CHAMPION to its previous STAGE", played by the HOSTILE
    at the start of a REACTION PHASE on a CHAMPION in its last STAGE (one WOUND from
    DEATH); otherwise the card is kept to NEGATE a WOUND on a CHAMPION (``wound``)."""
    if ms[M_ARCANA] == 0 or not holds(g, 1, A_HEALER):
        return
    for h in range(un.shape[0]):
        if un[h, U_KIND] != K_CHAMPION or st[h, S_ON] != ON_FIELD or st[h, S_WOUNDS] == 0:
            continue
        if st[h, S_WOUNDS] + 1 < un[h, U_HEALTH]:
            continue
        if wants(ms, g, rng, 1) and play_arcana(ms, g, ev, rng, 1, A_HEALER, h):
            st[h, S_WOUNDS] -= 1
            log(g, ev, E_HEAL, 1, h, h, HEAL_HEALER_STAGE, st[h, S_WOUNDS], 0, 0, 0, 0, 0)
        return


@njit((*CTX, i8), **KERNEL)
def ruler_ops(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u):
    """ "IV – The Ruler: MOVE an ENEMY 3 TILES ignoring MOVE PENALTIES", played by the
    OPERATIVES at the start of ``u``'s TURN on the ENEMY on ``u``'s TILE likeliest to WOUND
    it (else, on a hold, one standing on an OBJECTIVE): a MOVE 3 without penalties to the
    TILE farthest from the nearest OPERATIVE (an OBJECTIVE counts 2 BORDERS nearer), when
    that is at least 2 BORDERS farther than now; leaving a TILE with OPERATIVES grants their
    SUCKER PUNCHES, as any MOVE (``move_by``)."""
    if ms[M_ARCANA] == 0 or not holds(g, 0, A_RULER) or st[u, S_ON] != ON_FIELD:
        return
    here = st[u, S_TILE]
    nt_ = ms[M_NTILES]
    hold = ms[M_KIND] == KIND_HOLD
    best = -1
    bp = 0.0
    my_def = defense(un, prof, fld, st, u, False)
    for e in range(un.shape[0]):
        if un[e, U_SIDE] != 1 or st[e, S_ON] != ON_FIELD:
            continue
        t = st[e, S_TILE]
        p = 0.0
        if t == here:
            p = 1.0 + chance(pw, prow(un, st, e) * MAX_OPT, my_def)
        elif hold and fld[t, T_OBJ] == 1:
            p = 0.5
        if p > bp:
            bp = p
            best = e
    if best < 0:
        return
    start = st[best, S_TILE]
    dest = -1
    bv = -BIG
    for t in range(nt_):
        if t != start and mv[(RULER_MOVE - 1) * nt_ + start, t] < 0:
            continue
        near = 99
        for v in range(un.shape[0]):
            if un[v, U_SIDE] == 0 and st[v, S_ON] == ON_FIELD:
                near = min(near, dist[t, st[v, S_TILE]])
        val = near - (2.0 if hold and fld[t, T_OBJ] == 1 else 0.0)
        if t == start:
            val += 2.0  # the TILE it stands on: 2 BORDERS more needed
        if val > bv:
            bv = val
            dest = t
    if dest < 0 or dest == start or not wants(ms, g, rng, 0):
        return
    if play_arcana(ms, g, ev, rng, 0, A_RULER, best):
        move_by(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, best, dest,
                RULER_MOVE, 0)  # fmt: skip


@njit(**THIN)
def begin_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u):
    """ "Turns": the OPERATIVE spends an EDGE for a TURN."""
    st[u, S_EDGES] -= 1
    g[G_ACT] += 1
    log(g, ev, E_TURN, 0, u, st[u, S_EDGES], 0, 0, 0, 0, 0, 0, 0)
    heretic(un, prof, opt, pw, ms, st, g, ev, rng, u)
    ruler(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u)
    if g[G_END] < 0 and st[u, S_ON] == ON_FIELD:
        healer_flip(un, prof, opt, pw, ms, st, g, ev, rng, u)
        ruler_ops(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u)


@njit((I2, I1, i8), **KERNEL)
def can_act(st, g, u):
    """``u`` may take an ACTION: the mission goes on, it is on the FIELD, not STUNNED."""
    return g[G_END] < 0 and st[u, S_ON] == ON_FIELD and st[u, S_STUN] == 0


@njit(**THIN)
def actions_from(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, u, step):
    """The ACTIONS ``step`` .. 1 of ``u``'s TURN, random or greedy, while it can act.  A DROP
    is a FREE ACTION ("Actions"): it leaves the ACTION to take (one FREE ACTION per ACTION
    here)."""
    i = step
    free = False
    while i < 2:
        if not can_act(st, g, u):
            return
        g[G_STEP] = i
        n = op_candidates(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, u)
        c = choose(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, n,
                   policy(ms, g, 0), False)  # fmt: skip
        dropped = c >= 0 and int(cand[c, 0]) == C_DROP
        play(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, c)
        if dropped and not free:
            free = True
            continue
        free = False
        i += 1


@njit(**THIN)
def op_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, u):
    """ "Turns: Action Phase": up to 2 ACTIONS (none when STUNNED: "Stun"); random or greedy
    (the rollout policy plays greedy here: its own TURNS are ``strong_op_turn``)."""
    begin_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u)
    actions_from(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, u, 0)


@njit((I1, I1), **KERNEL)
def store_edge(ms, g):
    """ "Turns: Reaction Phase": the EDGE handed back is stored, at most the ROSTER size."""
    g[G_STORED] = min(g[G_STORED] + 1, ms[M_CAP])
    return g[G_STORED]


@njit(**THIN)
def spend_edges(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand):
    """The HOSTILE's ACTIONS of a REACTION PHASE, random or greedy, one stored EDGE each."""
    while g[G_STORED] > 0 and g[G_END] < 0:
        n = host_candidates(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
        c = choose(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, n,
                   policy(ms, g, 1), True)  # fmt: skip
        if c < 0:
            break
        g[G_STORED] -= 1
        g[G_ACT] += 1
        play(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, c)


@njit(**THIN)
def reaction(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand):
    """ "Turns: Reaction Phase": the EDGE is stored (at most the ROSTER size; the excess is
    DISCARDED), then the HOSTILE DISCARDS stored EDGES for ACTIONS while it likes."""
    start = store_edge(ms, g)
    healer_stage(un, ms, st, g, ev, rng)
    spend_edges(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
    log(g, ev, E_REACT, 1, start, start - g[G_STORED], 0, 0, 0, 0, 0, 0, 0)


@njit((I2, I2, I1, U1, i8), **KERNEL)
def next_operative(un, st, g, rng, pol):
    """Who takes the next TURN ("Rounds": the OPERATIVES use their EDGES in any order):
    greedy the one holding most EDGES (ties: roster order), random any holder."""
    best = -1
    cnt = 0
    for u in range(un.shape[0]):
        if un[u, U_SIDE] == 0 and st[u, S_ON] == ON_FIELD and st[u, S_EDGES] > 0:
            cnt += 1
            if best < 0 or st[u, S_EDGES] > st[best, S_EDGES]:
                best = u
    if best < 0 or pol != POL_RANDOM:
        return best
    j = pick(rng, cnt)
    for u in range(un.shape[0]):
        if un[u, U_SIDE] == 0 and st[u, S_ON] == ON_FIELD and st[u, S_EDGES] > 0:
            if j == 0:
                return u
            j -= 1
    return best


@njit(CTX, **KERNEL)
def start_round(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev):
    """ "Rounds": single-ROUND effects end (STUN, SUCKER PUNCHES used) and each OPERATIVE on
    the FIELD is handed its EDGES (by the ROSTER size at the start of the mission)."""
    g[G_ROUND] += 1
    g[G_MEDIATOR] = 0
    g[G_MEDIATOR + 1] = 0
    g[G_CONQUEROR] = 0
    g[G_CONQUEROR + 1] = 0
    g[G_ADVENTURER] = 0
    g[G_ADVENTURER + 1] = 0
    for u in range(un.shape[0]):
        st[u, S_STUN] = 0
        st[u, S_PUNCH] = 0
        st[u, S_HERMIT] = 0
        st[u, S_DEFMOD] = 0
        st[u, S_SNARED] = 0
        if un[u, U_SIDE] == 0 and st[u, S_ON] == ON_FIELD:
            st[u, S_EDGES] = ms[M_EDGES]
    log(g, ev, E_ROUND, 0, ms[M_EDGES], g[G_STORED], 0, 0, 0, 0, 0, 0, 0)
    seek(ms, g, ev, rng)


@njit(CTX, **KERNEL)
def end_round(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev):
    """End of a ROUND: a hold mission counts each OBJECTIVE held by an UNOPPOSED OPERATIVE;
    the ROUND limit ends the mission in failure."""
    if g[G_END] >= 0:
        return
    if ms[M_KIND] == KIND_HOLD:
        for t in range(ms[M_NTILES]):
            if fld[t, T_OBJ] == 1 and count_on(un, st, 0, t) > 0 and count_on(un, st, 1, t) == 0:
                g[G_DONE] += 1
                for u in range(un.shape[0]):
                    if un[u, U_SIDE] == 0 and st[u, S_ON] == ON_FIELD and st[u, S_TILE] == t:
                        st[u, S_SCORE] += 1
                        break
                log(g, ev, E_HOLD, 0, t, g[G_DONE], 0, 0, 0, 0, 0, 0, 0)
        check_end(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)
    if g[G_END] < 0 and g[G_ROUND] >= ms[M_ROUNDS]:
        g[G_END] = END_ROUNDS
        g[G_WINNER] = 2


@njit(CTX, **KERNEL)
def check(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev):
    """Invariants: WOUNDS within health, units on the FIELD on a TILE and others off it,
    EDGES within bounds, REVEALED only on the FIELD, OPERATIVES never in the reserve."""
    nt_ = ms[M_NTILES]
    bad = 0
    for u in range(un.shape[0]):
        if st[u, S_WOUNDS] < 0 or st[u, S_WOUNDS] > un[u, U_HEALTH]:
            bad += 1
        if st[u, S_ON] == ON_FIELD:
            if st[u, S_TILE] < 0 or st[u, S_TILE] >= nt_:
                bad += 1
        elif st[u, S_ON] == ON_RESERVE:
            if st[u, S_TILE] != -1 or st[u, S_REVEALED] != 0 or un[u, U_SIDE] == 0:
                bad += 1
        if st[u, S_EDGES] < 0 or st[u, S_EDGES] > ms[M_EDGES]:
            bad += 1
        if un[u, U_SIDE] == 0 and st[u, S_ON] == ON_DEAD and st[u, S_WOUNDS] != un[u, U_HEALTH]:
            bad += 1
        if un[u, U_KIND] == K_LEGION and st[u, S_ON] == ON_DEAD:
            bad += 1
    if g[G_STORED] < 0 or g[G_STORED] > ms[M_CAP]:
        bad += 1
    held = 0
    for u in range(un.shape[0]):  # an ITEM in one place: one CARRIER, or on the FIELD
        if held & st[u, S_CARRY] != 0 or st[u, S_FLIPPED] & ~st[u, S_CARRY] != 0:
            bad += 1
        held |= st[u, S_CARRY]
        if st[u, S_WOUNDS] < 2 * st[u, S_TRAUMA]:
            bad += 1
    for i in range(MAX_ITEMS):
        if g[G_ITEM_AT + i] >= 0 and (held >> i) & 1 == 1:
            bad += 1
    if g[G_HAND] & g[G_HAND + 1] != 0 or (g[G_HAND] | g[G_HAND + 1]) >> N_ARCANA != 0:
        bad += 1
    g[G_VIOL] += bad


# =========================================================== rollout policy
@njit((*CTX, i8), **KERNEL)
def progress(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, side):
    """A rollout's score for ``side``: the mission's outcome first, then objectives done,
    OPERATIVES lost, HOSTILE units killed and, while the mission goes on, WOUNDS on the
    hunt's target and on the OPERATIVES and how far these are from their goal (more as
    the ROUND limit nears)."""
    v = 10.0 * g[G_DONE] - 6.0 * g[G_LOST] + 1.0 * g[G_KILLED]
    if g[G_END] >= 0:
        v += 100.0 if g[G_WINNER] == 1 else -100.0
    else:
        goal = goal_tile(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, 0)
        # a BORDER from the goal weighs more as the ROUND limit nears (0.5 x limit / ROUNDS
        # left: 0.5 in ROUND 1, 2.5 in the last of 5)
        far = 0.5 * ms[M_ROUNDS] / max(ms[M_ROUNDS] - g[G_ROUND] + 1, 1)
        for u in range(un.shape[0]):
            if un[u, U_SIDE] == 0 and st[u, S_ON] == ON_FIELD:
                t = st[u, S_TILE]
                v -= 1.5 * st[u, S_WOUNDS] + far * (dist[t, goal] if goal >= 0 else fld[t, T_GOAL])
        if ms[M_TARGET] >= 0:
            v += 3.0 * st[ms[M_TARGET], S_WOUNDS]
    return v if side == 0 else -v


@njit(**ALLOCATING)
def rollout_choice(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, n, side):
    """The rollout policy: the 3 best greedy candidates (equal values taken in a random
    order drawn with the match generator; and, for the HOSTILE, keeping the EDGE) each
    played on copies of the state, then ``rollout_depth`` TURNS and their REACTION PHASES
    greedily for both sides, ``rollouts`` times with forked generators shared by the
    candidates (common random numbers); the best mean score wins."""
    if n == 0:
        return -1
    order = np.arange(n)  # equal values in a random order (like ``choose``'s ties)
    for i in range(n - 1, 0, -1):
        j = pick(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    top = np.full(3, -1, dtype=np.int64)
    for c in order:
        for j in range(3):
            if top[j] < 0 or cand[c, 4] > cand[top[j], 4] + 1e-12:
                for q in range(2, j, -1):
                    top[q] = top[q - 1]
                top[j] = c
                break
    base = next_u64(rng)
    st2 = st.copy()
    g2 = g.copy()
    rng2 = rng.copy()
    cand2 = np.zeros_like(cand)
    best = top[0]
    bv = -BIG
    n_try = 4 if side == 1 else 3
    for j in range(n_try):
        c = top[j] if j < 3 else -1
        if j < 3 and c < 0:
            continue
        tot = 0.0
        for r in range(ms[M_LOOK_ROLLOUTS]):
            st2[:, :] = st
            g2[:] = g
            g2[G_ROLL] = 1
            g2[G_DPOS] = dc[0]
            seed_rollout(rng2, base, r)
            if c >= 0:
                play(un, prof, opt, pw, fld, dist, los, mv, ms, st2, g2, dc, rng2, ev, cand, c)
                if side == 1:
                    g2[G_STORED] -= 1
            if side == 0:  # the rest of this TURN, then its REACTION PHASE
                u = int(cand[c, 1])
                actions_from(un, prof, opt, pw, fld, dist, los, mv, ms, st2, g2, dc, rng2, ev,
                             cand2, u, g[G_STEP] + 1)  # fmt: skip
                if g2[G_END] < 0:
                    reaction(un, prof, opt, pw, fld, dist, los, mv, ms, st2, g2, dc, rng2, ev,
                             cand2)  # fmt: skip
            elif c >= 0:  # the rest of this REACTION PHASE
                spend_edges(un, prof, opt, pw, fld, dist, los, mv, ms, st2, g2, dc, rng2, ev, cand2)
            for _ in range(ms[M_LOOK_DEPTH]):
                if g2[G_END] >= 0:
                    break
                u = next_operative(un, st2, g2, rng2, POL_GREEDY)
                if u < 0:
                    end_round(un, prof, opt, pw, fld, dist, los, mv, ms, st2, g2, dc, rng2, ev)
                    if g2[G_END] >= 0:
                        break
                    start_round(un, prof, opt, pw, fld, dist, los, mv, ms, st2, g2, dc, rng2, ev)
                    continue
                op_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st2, g2, dc, rng2, ev, cand2, u)
                if g2[G_END] < 0:
                    reaction(un, prof, opt, pw, fld, dist, los, mv, ms, st2, g2, dc, rng2, ev,
                             cand2)  # fmt: skip
            tot += progress(un, prof, opt, pw, fld, dist, los, mv, ms, st2, g2, dc, rng2, ev, side)
        if tot > bv + 1e-9:
            bv = tot
            best = c
    return best


@njit(**ALLOCATING)
def strong_op_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, u):
    """An OPERATIVE's TURN under the rollout policy (each ACTION by ``rollout_choice``)."""
    begin_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, u)
    for i in range(2):
        if not can_act(st, g, u):
            return
        g[G_STEP] = i
        n = op_candidates(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, u)
        c = rollout_choice(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand,
                           n, 0)  # fmt: skip
        play(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, c)


@njit(**ALLOCATING)
def strong_reaction(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand):
    """A REACTION PHASE under the rollout policy (each EDGE by ``rollout_choice``, which may
    keep it stored)."""
    start = store_edge(ms, g)
    healer_stage(un, ms, st, g, ev, rng)
    while g[G_STORED] > 0 and g[G_END] < 0:
        n = host_candidates(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
        c = rollout_choice(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand,
                           n, 1)  # fmt: skip
        if c < 0:
            break
        g[G_STORED] -= 1
        g[G_ACT] += 1
        play(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, c)
    log(g, ev, E_REACT, 1, start, start - g[G_STORED], 0, 0, 0, 0, 0, 0, 0)


@njit(**THIN)
def react_checked(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand):
    """After a TURN: the invariants (``check_invariants``), the REACTION PHASE (random or
    greedy), the invariants again."""
    if g[G_CHECK]:
        check(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)
    if g[G_END] < 0:
        reaction(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
    if g[G_CHECK]:
        check(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)


@njit(**THIN)
def play_round(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand):
    """One ROUND: TURNS (each followed by its REACTION PHASE) until no EDGES are left; both
    sides random or greedy (``play_round_strong`` when a side plays the rollout policy)."""
    start_round(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)
    while g[G_END] < 0:
        u = next_operative(un, st, g, rng, policy(ms, g, 0))
        if u < 0:
            break
        op_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, u)
        react_checked(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
    end_round(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)


@njit(**ALLOCATING)
def play_round_strong(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand):
    """``play_round`` with the rollout policy on either side (compiled only when a match
    plays it: ``run_block_strong``)."""
    start_round(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)
    while g[G_END] < 0:
        u = next_operative(un, st, g, rng, policy(ms, g, 0))
        if u < 0:
            break
        if policy(ms, g, 0) == POL_STRONG:
            strong_op_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, u)
        else:
            op_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, u)
        if policy(ms, g, 1) != POL_STRONG:
            react_checked(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
            continue
        if g[G_CHECK]:
            check(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)
        if g[G_END] < 0:
            strong_reaction(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
        if g[G_CHECK]:
            check(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)
    end_round(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)


# =========================================================== set-up, checks, records
@njit((*CTX, i8), **KERNEL)
def setup_match(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, k):
    """ "Step 4: Field Setup": the OPERATIVES at the OSP, each on the DASHBOARD side of its
    choice (greedy: the side with the better ATTACK against a DEFENSE 2; random: either);
    the THREATS placed (unit for unit at random, the CHAMPION on its nest); the first
    ROUND (``first``: the HOSTILE may react first with a full SCHEMING AREA: a variant)."""
    n = un.shape[0]
    st[:, :] = 0
    for u in range(n):
        st[u, S_TILE] = -1
    trace = g[G_TRACE]
    chk = g[G_CHECK]
    g[:] = 0
    g[G_TRACE] = trace
    g[G_CHECK] = chk
    g[G_END] = -1
    for i in range(MAX_ITEMS):
        g[G_ITEM_AT + i] = -1
    nt_ = ms[M_NTILES]
    osp = 0
    for t in range(nt_):
        if fld[t, T_OSP] == 1:
            osp = t
    for u in range(n):
        if un[u, U_SIDE] != 0:
            continue
        st[u, S_ON] = ON_FIELD
        st[u, S_TILE] = osp
        st[u, S_CARRY] = un[u, U_ITEMS]
        side = 0
        if ms[M_POL_A] == POL_RANDOM:
            side = pick(rng, 2)
        else:
            bv = -1.0
            for s in range(2):
                pr = u * ROWS + s * MAX_LEVELS
                for kk in range(prof[pr, F_NOPT]):
                    row = pr * MAX_OPT + kk
                    if usable(un, opt, st, u, row) and opt[row, O_STUN] == 0:
                        p = chance(pw, row, 2) * (1.0 + 0.3 * min(opt[row, O_RANGE], 3))
                        if p > bv + 1e-12:
                            bv = p
                            side = s
        st[u, S_SIDE] = side
        log(g, ev, E_SETUP, 0, u, osp, 1, side, 0, 0, 0, 0, 0)
    champ = ms[M_TARGET]
    for t in range(nt_):
        if fld[t, T_CHAMP] == 1:
            for h in range(n):
                if un[h, U_KIND] == K_CHAMPION and st[h, S_ON] == ON_RESERVE:
                    champ = h
                    break
            if champ >= 0:
                st[champ, S_ON] = ON_FIELD
                st[champ, S_TILE] = t
                log(g, ev, E_SETUP, 1, champ, t, 0, 0, 0, 0, 0, 0, 0)
    for t in range(nt_):
        for _ in range(fld[t, T_THREATS]):
            cnt = 0
            for h in range(n):
                if un[h, U_KIND] == K_LEGION and st[h, S_ON] == ON_RESERVE:
                    cnt += 1
            if cnt == 0:
                break
            j = pick(rng, cnt)
            for h in range(n):
                if un[h, U_KIND] == K_LEGION and st[h, S_ON] == ON_RESERVE:
                    if j == 0:
                        st[h, S_ON] = ON_FIELD
                        st[h, S_TILE] = t
                        log(g, ev, E_SETUP, 1, h, t, 0, 0, 0, 0, 0, 0, 0)
                        break
                    j -= 1
    deal_concepts(un, ms, g, ev, rng)
    mode = ms[M_FIRST]
    if ms[M_FORCED] >= 0:
        first = ms[M_FORCED]
    elif mode == 1:
        first = k % 2
    elif mode == 3:
        first = 1
    else:
        first = 0
    g[G_FIRST] = first


@njit((I2, I2, I1, I2, nt.int64[:, :, ::1], i8), **KERNEL)
def write_record(un, st, g, rec, urec, row):
    rec[row, 0] = g[G_WINNER]
    rec[row, 1] = g[G_DONE]
    rec[row, 2] = g[G_LOST]
    rec[row, 3] = g[G_FIRST]
    rec[row, 4] = g[G_ROUND]
    rec[row, 5] = g[G_END]
    rec[row, 6] = g[G_ACT]
    rec[row, 7] = g[G_VIOL]
    rec[row, 8] = g[G_DONE]
    rec[row, 9] = g[G_LOST]
    rec[row, 10] = g[G_KILLED]
    rec[row, 11] = g[G_ATTACKS]
    rec[row, 12] = g[G_HITS]
    rec[row, 13] = g[G_PUNCHES]
    rec[row, 14] = g[G_AMBUSHES]
    rec[row, 15] = g[G_SPAWNS]
    rec[row, 16] = g[G_SCOUTS]
    rec[row, 17] = g[G_REVEALS]
    rec[row, 18] = g[G_STUNS]
    rec[row, 19] = g[G_BOTCHES]
    for u in range(un.shape[0]):
        on = st[u, S_ON]
        status = 0
        if on == ON_DEAD:
            status = 1
        elif on == ON_LEFT:
            status = 2
        urec[row, u, 0] = status
        urec[row, u, 1] = st[u, S_DEALT]
        urec[row, u, 2] = st[u, S_TAKEN]
        urec[row, u, 3] = st[u, S_SCORE]
        urec[row, u, 4] = st[u, S_KILLS]
        urec[row, u, 5] = st[u, S_DEATHS]
        urec[row, u, 6] = st[u, S_SPAWNS]
        urec[row, u, 7] = st[u, S_ATTACKS]


@njit(**THIN)
def begin_match(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, state, block,
                k, trace, chk):  # fmt: skip
    """Match ``k``: seeded from the block state and ``k % block``
    (``analyzer.match.seeding_nb.seed_match``), set up, and the HOSTILE's first REACTION
    PHASE when it starts (``first``)."""
    seed_match(rng, state, k % block)
    g[G_TRACE] = 1 if trace else 0
    g[G_CHECK] = 1 if chk else 0
    setup_match(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, k)
    if g[G_FIRST] == 1:
        g[G_STORED] = ms[M_CAP] - 1
        reaction(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)


@njit(**THIN)
def end_match(un, st, g, ev, rec, urec, kk, first, count):
    """The mission's end in the trace and its records (row ``kk`` of a block's records, or
    ``first + kk`` of the whole run's)."""
    log(g, ev, E_END, 0, g[G_END], g[G_WINNER], g[G_DONE], g[G_LOST], 0, 0, 0, 0, 0)
    row = kk if rec.shape[0] == count else first + kk
    write_record(un, st, g, rec, urec, row)


@njit(cache=True, nogil=True)
def sandbox_op(
    un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, code, a, b, c
):  # fmt: skip
    """The rule tests' entry kernel (``sandbox.py``): one rule operation ``code`` on the
    hand-built state ``st``, ``g`` with the operands ``a, b, c``.  Its own entry, so that a
    match run never compiles it (nor ``run_block`` the inlined TURN and REACTION levels a
    second time)."""
    cand = np.zeros((CAND_ROWS, V_COLS))
    if code == OP_ATTACK:
        attack(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b, c,
               st[c, S_TILE])  # fmt: skip
    elif code == OP_AREA:
        attack(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b, -1, c)
    elif code == OP_MOVE:
        move(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b)
    elif code == OP_SCOUT:
        scout(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b)
    elif code == OP_SPAWN:
        spawn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a, b)
    elif code == OP_EXIT:
        leave_field(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a)
    elif code == OP_TURN:
        st[a, S_EDGES] = max(st[a, S_EDGES], 1)
        op_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, a)
    elif code == OP_REACT:
        reaction(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
    elif code == OP_ROUND:
        play_round(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
    elif code == OP_CHECK:
        g[G_VIOL] = 0
        check(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)
        return g[G_VIOL]
    elif code == OP_AMBUSH:
        ambush_all(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev)
    elif code == OP_SEEK:
        seek(ms, g, ev, rng)
    elif code == OP_BEGIN:
        begin_turn(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, a)
    elif code >= OP_PLAY:
        cand[0, 0] = code - OP_PLAY
        cand[0, 1] = a
        cand[0, 2] = b
        cand[0, 3] = c
        play(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, 0)
    return 0


@njit(cache=True, nogil=True)
def run_block(
    un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, state, block, first, count,
    rec, urec, trace, chk,
):  # fmt: skip
    """The match runner's entry kernel: play matches ``first .. first + count - 1`` into
    ``rec`` / ``urec``; match ``k`` is seeded from the block state and ``k % block``
    (``analyzer.match.seeding_nb.seed_match``).  Returns the trace rows written
    (``trace``), else 0.  (``run_block_strong`` when a side plays the rollout policy,
    ``sandbox_op`` for the rule tests.)"""
    cand = np.zeros((CAND_ROWS, V_COLS))
    for kk in range(count):
        begin_match(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, state,
                    block, first + kk, trace, chk)  # fmt: skip
        while g[G_END] < 0:
            play_round(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
        end_match(un, st, g, ev, rec, urec, kk, first, count)
    return g[G_NEV] if trace else 0


@njit(cache=True, nogil=True)
def run_block_strong(
    un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, state, block, first, count,
    rec, urec, trace, chk,
):  # fmt: skip
    """``run_block``'s matches when a side plays the rollout policy (a separate entry, so
    that the rollout kernels compile only when they are played)."""
    cand = np.zeros((CAND_ROWS, V_COLS))
    for kk in range(count):
        begin_match(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand, state,
                    block, first + kk, trace, chk)  # fmt: skip
        while g[G_END] < 0:
            play_round_strong(un, prof, opt, pw, fld, dist, los, mv, ms, st, g, dc, rng, ev, cand)
        end_match(un, st, g, ev, rec, urec, kk, first, count)
    return g[G_NEV] if trace else 0
