"""Degenesis: Clan Wars roll mechanics: checks, attacks, scouting, rolls without difficulty.

Rulebook: ``degenesis-clan-wars.txt``.  Each mechanic cites the sections it encodes.

Every ROLL is a POOL of WHITE, BLACK and FATAL DICE ("Dice Rolls").  Each face
is BLANK, a number of SUCCESSES, or a BOTCH; the faces are read from
``configs/degenesis/dice.yaml`` (sample data: the rulebook does not print
them) and reported in the JSON params as ``faces``.  A ROLL *botches* when it
shows more BOTCHES than its SECURE rating ("Dice Rolls", "Secure"); SECURED
BOTCHES count as BLANK.  Otherwise its result is the sum of SUCCESSES plus any
SUCCESS +/-X.

Interpretations where the rulebook is silent (also in each docstring):

* A botched ROLL fails whatever its SUCCESSES and modifiers ("instead of
  causing a ROLL to fail immediately"), so the SUCCESS +/-X bonus does not
  rescue it; outcomes encode the botch as ``-1``.
* SUCCESS penalties cannot push the total below 0 (a count of SUCCESSES).
  Consequently a DIFFICULTY 0 ROLL succeeds unless it botches.
* BOTCHES added after the ROLL (XII The Abomination) count against SECURE
  like rolled BOTCHES ("If the result of a ROLL contains more BOTCHES than
  the sum of SECURES affecting it").
* OVERCOMMITTING is one choice per ROLL: one extra die of any type, or
  SECURE 1; the opposing ARCANA draw is reported, it does not change the roll.
* ``--reroll`` models an effect that "calls for a REROLL" used when the first
  ROLL failed (the rulebook does not say when REROLLS are granted): the whole
  POOL is rolled again with the same bonuses and penalties, the second result
  stands.

Exact engine: each die type's ``n`` dice have a joint (SUCCESSES, BOTCHES)
distribution ``C(n, j) b^j q^(n-j)`` (``q`` the non-BOTCH faces, ``b`` the
BOTCH chance; a BOTCH face carries no SUCCESSES); the types are convolved
jointly with the BOTCH axis truncated at the SECURE limit, and the last type
is folded in through prefix sums over its BOTCH count -- the secure rule.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from analyzer.dice import exact as ex
from analyzer.dice.mechanic import Mechanic, Option, Params
from analyzer.dice.random_nb import roll_die
from analyzer.dice.simulate import trial_kernel
from analyzer.errors import InputError
from analyzer.games.degenesis import rules

#: Largest POOL (all dice, including an OVERCOMMITTED one) the analyzer accepts.
MAX_DICE = 40
#: Largest SUCCESS +/-X, SECURE X and added BOTCHES accepted.
MAX_MODIFIER = 40
#: Largest DIFFICULTY / DEFENSE / DISTANCE accepted (above every possible total).
MAX_DIFFICULTY = 200
#: Largest HIDDEN +/-X accepted.
MAX_HIDDEN = 10
#: "Overcommitting": nothing, one extra die of a type, or SECURE 1.
OVERCOMMIT = ("none", *rules.DIE_TYPES, "secure")

# Layout of the int64 params vector shared by every kernel (see ``_encode_pool``).
_N = 0  # counts of white, black, fatal dice: p[0], p[1], p[2]
_LIMIT = 3  # botched when the BOTCH faces (plus added BOTCHES) exceed this
_MOD = 4  # SUCCESS +/-X
_FACES = 5  # 3 x 6 faces: SUCCESSES, or rules.BOTCH
_TYPES = len(rules.DIE_TYPES)
_EXTRA = _FACES + _TYPES * rules.DIE_FACES  # mechanic-specific params


# ------------------------------------------------------------- shared roll
def _faces(p: Params) -> dict[str, tuple[int, ...]]:
    """The faces reported in params (``"botch"`` or SUCCESSES) as integers."""
    return {
        t: tuple(rules.BOTCH if f == "botch" else int(f) for f in p["faces"][t])
        for t in rules.DIE_TYPES
    }


def _botchable(p: Params) -> int:
    """How many dice of the POOL have a BOTCH face (the most BOTCHES a ROLL can show)."""
    faces = _faces(p)
    return sum(p["dice"][t] for t in rules.DIE_TYPES if rules.BOTCH in faces[t])


def max_total(p: Params) -> int:
    """Highest possible total: every die on its best face, plus SUCCESS +/-X, at least 0."""
    faces = _faces(p)
    best = sum(p["dice"][t] * max(faces[t]) for t in rules.DIE_TYPES)
    return max(best + p["success_mod"], 0)


def _check_pool(p: Params) -> Params:
    extra = 1 if p["overcommit"] in rules.DIE_TYPES else 0
    total = sum(p[t] for t in rules.DIE_TYPES) + extra
    if total > MAX_DICE:
        raise InputError(
            f"a POOL may hold at most {MAX_DICE} dice (got {total}"
            + (" including the OVERCOMMITTED die)" if extra else ")")
        )
    return p


def pool_params(p: Params) -> Params:
    """Dice actually rolled, SECURE total, BOTCH limit, highest total, faces used.

    Rules: "Overcommitting" (one more die, or SECURE 1; the opposing side draws
    1 ARCANA), "Secure" (ratings add up), "Tarot Effects" XII (added BOTCHES),
    "Dice Rolls" (SUCCESS +/-X applied to the sum; a total is never below 0).
    """
    faces = rules.load_dice()
    over = p["overcommit"]
    out: Params = {
        "dice": {t: p[t] + (rules.OVERCOMMIT_DICE if over == t else 0) for t in rules.DIE_TYPES},
        "opponent_draws_arcana": rules.OVERCOMMIT_ARCANA if over != "none" else 0,
        "faces": {
            t: ["botch" if f == rules.BOTCH else f for f in faces[t]] for t in rules.DIE_TYPES
        },
    }
    out["max_total"] = max_total({**p, **out})
    if "secure" in p:
        secure = p["secure"] + (rules.OVERCOMMIT_SECURE if over == "secure" else 0)
        out["secure_total"] = secure
        out["botch_limit"] = secure - p["added_botches"]
    return out


def _split_faces(faces: tuple[int, ...]) -> tuple[np.ndarray, float]:
    """``(q, b)``: ``q[s]`` chance of a non-BOTCH face with ``s`` SUCCESSES; ``b`` of a BOTCH."""
    values = np.array([f for f in faces if f != rules.BOTCH], dtype=np.int64)
    q = np.bincount(values, minlength=1) / len(faces)
    return q, 1.0 - values.size / len(faces)


def _power(q: np.ndarray, k: int) -> np.ndarray:
    """``q`` convolved with itself ``k`` times (binary exponentiation)."""
    result = np.ones(1)
    while k:
        if k & 1:
            result = np.convolve(result, q)
        k >>= 1
        if k:
            q = np.convolve(q, q)
    return result


def _botch_rows(faces: tuple[int, ...], n: int, rows: int) -> np.ndarray:
    """``out[j, s]``: chance that ``n`` such dice show ``j`` BOTCHES and ``s`` SUCCESSES.

    Only ``j < rows`` is listed.  A die shows at most one BOTCH and a BOTCH face
    has no SUCCESSES ("Dice Rolls"), so the joint law is ``C(n, j) b^j q^(n-j)``.
    """
    q, b = _split_faces(faces)
    last = min(n, rows - 1) if b > 0 else 0
    out = np.zeros((last + 1, n * (q.size - 1) + 1))
    power = _power(q, n - last)
    for j in range(last, -1, -1):  # power == q^(n-j)
        out[j, : power.size] = comb(n, j) * b**j * power
        if j:
            power = np.convolve(power, q)
    return out


def unbotched_successes(
    faces: dict[str, tuple[int, ...]], dice: dict[str, int], limit: int
) -> np.ndarray:
    """``probs[s]``: chance the SUCCESSES sum to ``s`` and the ROLL does not botch.

    Botching means more than ``limit`` BOTCH faces ("Secure": SECURED BOTCHES
    count as BLANK); the array sums to ``1 - P(botch)``.  The joint
    (BOTCHES, SUCCESSES) distribution of the die types is convolved in 2-D
    with the BOTCH axis truncated at ``limit``; the last type is folded in
    through prefix sums over its BOTCH count, which applies the secure rule.
    """
    if limit < 0:
        return np.zeros(1)
    types = [t for t in rules.DIE_TYPES if dice[t] > 0]
    botchable = sum(dice[t] for t in types if rules.BOTCH in faces[t])
    if limit >= botchable:  # no ROLL can botch: every BOTCH face counts as BLANK
        total = np.ones(1)
        for t in types:
            q, b = _split_faces(faces[t])
            q[0] += b
            total = np.convolve(total, _power(q, dice[t]))
        return total
    joint = np.ones((1, 1))  # joint[m, s]: m BOTCHES (m <= limit), s SUCCESSES so far
    for t in types[:-1]:
        rows = _botch_rows(faces[t], dice[t], limit + 1)
        n_rows = min(joint.shape[0] + rows.shape[0] - 1, limit + 1)
        folded = np.zeros((n_rows, joint.shape[1] + rows.shape[1] - 1))
        for i in range(joint.shape[0]):
            for j in range(min(rows.shape[0], n_rows - i)):
                folded[i + j] += np.convolve(joint[i], rows[j])
        joint = folded
    at_most = np.cumsum(_botch_rows(faces[types[-1]], dice[types[-1]], limit + 1), axis=0)
    out = np.zeros(joint.shape[1] + at_most.shape[1] - 1)
    for m in range(joint.shape[0]):
        out += np.convolve(joint[m], at_most[min(limit - m, at_most.shape[0] - 1)])
    return out


def botch_probability(faces: dict[str, tuple[int, ...]], dice: dict[str, int], limit: int) -> float:
    """Chance of more than ``limit`` BOTCH faces: a sum of binomial BOTCH counts ("Secure")."""
    counts = ex.point(0)
    for t in rules.DIE_TYPES:
        counts = ex.add(counts, ex.binomial(dice[t], _split_faces(faces[t])[1]))
    return float(counts.probs[max(limit + 1, 0) :].sum())


def _totals(p: Params, limit: int) -> tuple[float, ex.Distribution]:
    """P(botch) and the unbotched part of the clamped total (SUCCESSES + mod, >= 0)."""
    faces = _faces(p)
    probs = unbotched_successes(faces, p["dice"], limit)
    p_botch = botch_probability(faces, p["dice"], limit)
    totals = np.maximum(np.arange(probs.size) + p["success_mod"], 0)
    return p_botch, ex.Distribution(
        0, np.bincount(totals, weights=probs, minlength=max_total(p) + 1)
    )


def _roll_dist(p: Params) -> ex.Distribution:
    """Outcome of one ROLL: ``-1`` botch, else the clamped total ("Dice Rolls", "Secure")."""
    p_botch, totals = _totals(p, p["botch_limit"])
    return ex.Distribution(-1, np.concatenate(([p_botch], totals.probs)))


def _reroll_failures(dist: ex.Distribution, success: np.ndarray) -> ex.Distribution:
    """A REROLL used on a failure ("Dice Rolls"): the second ROLL's outcome stands."""
    p_fail = float(dist.probs[~success].sum())
    return ex.Distribution(dist.lowest, np.where(success, dist.probs, 0.0) + p_fail * dist.probs)


def _encode_pool(p: Params, limit: int, extra: list[int]) -> np.ndarray:
    faces = _faces(p)
    head = [p["dice"][t] for t in rules.DIE_TYPES] + [limit, p["success_mod"]]
    return np.array(head + [f for t in rules.DIE_TYPES for f in faces[t]] + extra, dtype=np.int64)


@njit(cache=True, inline="always")
def _roll_once(state, p):  # pragma: no cover - numba
    """One ROLL of the POOL in ``p``: -1 if it botches, else max(SUCCESSES + mod, 0)."""
    total = 0
    botches = 0
    for t in range(_TYPES):
        for _ in range(p[_N + t]):
            face = p[_FACES + rules.DIE_FACES * t + roll_die(state, rules.DIE_FACES) - 1]
            if face == rules.BOTCH:
                botches += 1
            else:
                total += face
    if botches > p[_LIMIT]:
        return -1
    return max(total + p[_MOD], 0)


def _pool_options(overcommit: tuple[str, ...] = OVERCOMMIT) -> tuple[Option, ...]:
    dice = tuple(
        Option(t, int, f"{t.upper()} DICE in the POOL", default=0, minimum=0, maximum=MAX_DICE)
        for t in rules.DIE_TYPES
    )
    return (
        *dice,
        Option(
            "success-mod",
            int,
            f"SUCCESS +/-X added to the total (I The Creator: +{rules.CREATOR_SUCCESS})",
            default=0,
            minimum=-MAX_MODIFIER,
            maximum=MAX_MODIFIER,
        ),
        Option(
            "overcommit",
            overcommit,
            "OVERCOMMIT: add 1 die of a type, or SECURE 1 (the opponent draws 1 ARCANA)",
            default="none",
        ),
    )


_RISK_OPTIONS = (
    Option(
        "secure",
        int,
        f"SECURE X: BOTCHES ignored (II The Mentor: SECURE {rules.MENTOR_SECURE})",
        default=0,
        minimum=0,
        maximum=MAX_MODIFIER,
    ),
    Option(
        "added-botches",
        int,
        f"BOTCHES added after the ROLL (XII The Abomination: {rules.ABOMINATION_BOTCHES})",
        default=0,
        minimum=0,
        maximum=MAX_MODIFIER,
    ),
    Option("reroll", bool, "REROLL the whole POOL once if the ROLL fails", default=False),
)


# ------------------------------------------------------------------- check
def _check_exact(p: Params) -> ex.Distribution:
    """Success iff total >= DIFFICULTY and no BOTCH ("Dice Rolls"); outcome -1 = BOTCH.

    The DIFFICULTY is at least 0 (a DEFENSE or a DISTANCE); SUCCESS +/-X is added
    to an unbotched sum and the total is kept >= 0, so DIFFICULTY 0 always
    succeeds unless the ROLL botches.  ``--reroll``: the whole POOL is rolled once
    more after a failure (BOTCH or short), with the same modifiers.
    """
    dist = _roll_dist(p)
    if p["reroll"]:
        dist = _reroll_failures(dist, dist.outcomes >= p["difficulty"])
    return dist


@trial_kernel
def check_trial(state, p):  # pragma: no cover - numba
    """One ROLL; with a REROLL, roll again once if it botched or fell short."""
    outcome = _roll_once(state, p)
    if p[_EXTRA + 1] != 0 and (outcome < 0 or outcome < p[_EXTRA]):
        outcome = _roll_once(state, p)
    return outcome


CHECK = Mechanic(
    system="degenesis",
    name="check",
    summary="A ROLL against a DIFFICULTY: the SUCCESS total, or -1 for a BOTCH.",
    rules='"Dice Rolls", "Secure", "Success", "Overcommitting", "Tarot Effects" (I, II, XII)',
    options=(
        *_pool_options(),
        Option(
            "difficulty",
            int,
            "DIFFICULTY (e.g. the DEFENSE of the TARGET)",
            required=True,
            minimum=0,
            maximum=MAX_DIFFICULTY,
        ),
        *_RISK_OPTIONS,
    ),
    check=_check_pool,
    extra_params=pool_params,
    exact=_check_exact,
    encode=lambda p: _encode_pool(p, p["botch_limit"], [p["difficulty"], int(p["reroll"])]),
    trial=check_trial,
    example={"white": 2, "black": 2, "fatal": 1, "difficulty": 4, "secure": 1},
    events={
        "p_success": lambda p, o: o >= p["difficulty"],
        "p_botch": lambda p, o: o == -1,
    },
)


# --------------------------------------------------------------- successes
def _successes_exact(p: Params) -> ex.Distribution:
    """The SUCCESS total of a ROLL without DIFFICULTY.

    "Dice Rolls": "Some ROLLS may not have a set DIFFICULTY ... BOTCHES simply count
    as a BLANK face", so SECURE and added BOTCHES do not apply (no such options) and
    OVERCOMMITTING can only add a die.  SUCCESS +/-X still applies, total >= 0.
    """
    return _totals(p, _botchable(p))[1]


@trial_kernel
def successes_trial(state, p):  # pragma: no cover - numba
    """One ROLL whose BOTCHES count as BLANK (the BOTCH limit is the POOL size)."""
    return _roll_once(state, p)


SUCCESSES = Mechanic(
    system="degenesis",
    name="successes",
    summary="A ROLL without DIFFICULTY: the SUCCESS total (BOTCHES count as BLANK).",
    rules='"Dice Rolls" (ROLLS without a set DIFFICULTY), "Success", "Overcommitting"',
    options=_pool_options(("none", *rules.DIE_TYPES)),
    check=_check_pool,
    extra_params=pool_params,
    exact=_successes_exact,
    encode=lambda p: _encode_pool(p, _botchable(p), []),
    trial=successes_trial,
    example={"white": 2, "black": 1, "fatal": 1},
)


# ------------------------------------------------------------------ attack
def _check_attack(p: Params) -> Params:
    p = _check_pool(p)
    if not p["area"]:
        if p["threats"]:
            raise InputError(
                "--threats needs --area: until REVEALED, a THREAT cannot be the TARGET of an "
                "ATTACK (only an AREA ATTACK on its TILE hits it)"
            )
        if p["targets"] != 1:
            raise InputError("--targets must be 1 without --area (an ATTACK has one TARGET)")
        if p["hidden"]:
            raise InputError(
                "--hidden needs --area: HIDDEN only changes DEFENSE against AREA ATTACKS "
                "(otherwise it changes the DISTANCE, not the ROLL)"
            )
    elif p["targets"] + p["threats"] == 0:
        raise InputError("an AREA ATTACK needs at least one target: give --targets or --threats")
    return p


def attack_params(p: Params) -> Params:
    """Pool params plus the DEFENSE each kind of target has against this ATTACK.

    Rules: "Attack (Operative)"/"Attack (Hostile)" (DIFFICULTY = DEFENSE),
    "Area Attack" (one ROLL for every target on the TILE; THREATS DEFENSE +2;
    HIDDEN +/-X adds to DEFENSE), "Threats".
    """
    hidden = p["hidden"] if p["area"] else 0
    return {
        **pool_params(p),
        "target_defense": p["defense"] + hidden,
        "threat_defense": p["defense"] + hidden + rules.THREAT_AREA_DEFENSE,
    }


def _attack_exact(p: Params) -> ex.Distribution:
    """Targets WOUNDED: every target whose DEFENSE the total reaches ("Attack"); -1 = BOTCH.

    Interpretations: an AREA ATTACK's REVEALED targets share one DEFENSE (run
    once per DEFENSE value otherwise) and its THREATS stand for units of that
    same DEFENSE (+2 as THREATS); HIDDEN +/-X applies to every target on the
    TILE (e.g. HARD TERRAIN); a DEFENSE pushed below 0 (STUN, DEFENSE -X) is
    given as 0, which is equivalent.  ``--reroll`` rerolls when nobody is
    WOUNDED (a BOTCH, or a total below every DEFENSE).
    """
    n, m = p["targets"], p["threats"]

    def wounded(o: np.ndarray) -> np.ndarray:
        hit = n * (o >= p["target_defense"]) + m * (o >= p["threat_defense"])
        return np.where(o < 0, -1, hit)

    dist = _roll_dist(p).map(wounded).widen(-1, n + m)
    if p["reroll"]:
        dist = _reroll_failures(dist, dist.outcomes > 0)
    return dist


@trial_kernel
def attack_trial(state, p):  # pragma: no cover - numba
    """One ATTACK ROLL against every target; REROLL once if nobody was WOUNDED."""
    wounded = -1
    for attempt in range(2):
        if attempt == 1 and (p[_EXTRA + 4] == 0 or wounded > 0):
            break
        outcome = _roll_once(state, p)
        if outcome < 0:
            wounded = -1
        else:
            wounded = 0
            if outcome >= p[_EXTRA + 1]:
                wounded += p[_EXTRA]
            if outcome >= p[_EXTRA + 3]:
                wounded += p[_EXTRA + 2]
    return wounded


def _attack_encode(p: Params) -> np.ndarray:
    extra = [p["targets"], p["target_defense"], p["threats"], p["threat_defense"], int(p["reroll"])]
    return _encode_pool(p, p["botch_limit"], extra)


ATTACK = Mechanic(
    system="degenesis",
    name="attack",
    summary="Targets WOUNDED by one ATTACK ROLL (-1: BOTCH), single target or AREA ATTACK.",
    rules='"Attack (Operative)", "Attack (Hostile)", "Area Attack", "Hidden", "Threats", '
    '"Dice Rolls", "Secure", "Overcommitting"',
    options=(
        *_pool_options(),
        Option(
            "defense",
            int,
            "DEFENSE of the TARGET(S), all bonuses included",
            required=True,
            minimum=0,
            maximum=MAX_DIFFICULTY,
        ),
        Option("area", bool, "AREA ATTACK: one ROLL against every unit on the TILE", default=False),
        Option(
            "targets",
            int,
            "REVEALED units on the TILE with this DEFENSE (AREA ATTACK)",
            default=1,
            minimum=0,
            maximum=MAX_DICE,
        ),
        Option(
            "threats",
            int,
            "unREVEALED THREATS on the TILE (DEFENSE +2, AREA ATTACK only)",
            default=0,
            minimum=0,
            maximum=MAX_DICE,
        ),
        Option(
            "hidden",
            int,
            "HIDDEN +/-X of the targets: DEFENSE +/-X against AREA ATTACKS",
            default=0,
            minimum=-MAX_HIDDEN,
            maximum=MAX_HIDDEN,
        ),
        *_RISK_OPTIONS,
    ),
    check=_check_attack,
    extra_params=attack_params,
    exact=_attack_exact,
    encode=_attack_encode,
    trial=attack_trial,
    example={"white": 2, "black": 2, "defense": 3, "area": True, "threats": 2},
    events={
        "p_wound": lambda p, o: o > 0,
        "p_all_wounded": lambda p, o: o == p["targets"] + p["threats"],
        "p_botch": lambda p, o: o == -1,
    },
)


# ------------------------------------------------------------------- scout
def scout_params(p: Params) -> Params:
    """Pool params plus the DIFFICULTY: the DISTANCE, changed by HIDDEN, never below 0.

    Rules: "Scout" (DIFFICULTY = DISTANCE to the TILE), "Hidden" (DISTANCE
    modified by X when TARGETING HIDDEN units; a DISTANCE is never below 0).
    """
    return {
        **pool_params(p),
        "difficulty": max(p["distance"] + p["hidden"], rules.MIN_DISTANCE),
    }


def _scout_top(p: Params) -> int:
    if p["threats"] is not None:
        return int(p["threats"])
    return max(max_total(p) - p["difficulty"] + rules.SCOUT_FIRST_REVEAL, 0)


def _scout_exact(p: Params) -> ex.Distribution:
    """THREATS REVEALED ("Scout"): 0 failed, -1 BOTCH, else 1 + SUCCESSES above DIFFICULTY.

    Interpretations: HIDDEN +/-X of the THREATS on the TILE changes the DISTANCE
    ("Hidden"; "Line of Sight" calls the scouted TILE a TARGET); the reveals are
    capped by ``--threats`` when it is given; ``--reroll`` rerolls a failed or
    botched SCOUT ROLL.
    """
    d = p["difficulty"]
    cap = _scout_top(p)

    def revealed(o: np.ndarray) -> np.ndarray:
        found = np.minimum(o - d + rules.SCOUT_FIRST_REVEAL, cap)
        return np.where(o < 0, -1, np.where(o < d, 0, found))

    dist = _roll_dist(p).map(revealed).widen(-1, cap)
    if p["reroll"]:
        dist = _reroll_failures(dist, dist.outcomes > 0)
    return dist


@trial_kernel
def scout_trial(state, p):  # pragma: no cover - numba
    """SCOUT ROLL: THREATS REVEALED (capped), 0 on a failure, -1 on a BOTCH."""
    revealed = -1
    for attempt in range(2):
        if attempt == 1 and (p[_EXTRA + 2] == 0 or revealed > 0):
            break
        outcome = _roll_once(state, p)
        if outcome < 0:
            revealed = -1
        elif outcome < p[_EXTRA]:
            revealed = 0
        else:
            revealed = min(outcome - p[_EXTRA] + rules.SCOUT_FIRST_REVEAL, p[_EXTRA + 1])
    return revealed


SCOUT = Mechanic(
    system="degenesis",
    name="scout",
    summary="THREATS REVEALED by a SCOUT ROLL (0: failed, -1: BOTCH).",
    rules='"Scout", "Hidden", "Dice Rolls", "Secure", "Overcommitting"',
    options=(
        *_pool_options(),
        Option(
            "distance",
            int,
            "DISTANCE to the chosen TILE (the DIFFICULTY)",
            required=True,
            minimum=0,
            maximum=MAX_DIFFICULTY,
        ),
        Option(
            "hidden",
            int,
            "HIDDEN +/-X of the THREATS: DISTANCE +/-X (e.g. HARD TERRAIN +1)",
            default=0,
            minimum=-MAX_HIDDEN,
            maximum=MAX_HIDDEN,
        ),
        Option(
            "threats",
            int,
            "THREAT TOKENS on the TILE (caps the reveals; omit: no cap)",
            default=None,
            minimum=1,
            maximum=MAX_DICE,
        ),
        *_RISK_OPTIONS,
    ),
    check=_check_pool,
    extra_params=scout_params,
    exact=_scout_exact,
    encode=lambda p: _encode_pool(
        p, p["botch_limit"], [p["difficulty"], _scout_top(p), int(p["reroll"])]
    ),
    trial=scout_trial,
    example={"white": 3, "black": 1, "distance": 2, "threats": 3},
    events={
        "p_success": lambda p, o: o > 0,
        "p_botch": lambda p, o: o == -1,
    },
)

MECHANICS = {m.name: m for m in (CHECK, ATTACK, SCOUT, SUCCESSES)}
