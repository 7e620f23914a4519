"""Hybrid roll mechanics: Natural Rolls, strikes and parries, firing, Activation Roll.

Rulebook: ``hybrid.txt``.  Each mechanic cites the sections it encodes.

Every Hybrid test is a *Natural Roll* ("Natural Roll"): one D10 (the 0 face counts as
10) that succeeds on a result <= the Success Level (SL).  A 1 is a Perfect Success and
always succeeds; a 10 is a Critical Failure and always fails ("Perfect Success and
Critical Failure").  With Duellist/X the Perfect Success covers every result <= X in
Offensive Combat and Firing Mode ("Aptitudes: Duellist/X").  When a rule rolls 2D10
the roller keeps one of the two dice ("Rolling Two Dice (2D10)"); since a lower face is
never worse for the roller, keeping the best die means keeping the lowest face.
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
from analyzer.games.hybrid import rules

#: Natural Roll outcome codes (the ``natural-roll`` outcome).
PERFECT, SUCCESS, FAILURE, CRITICAL = 2, 1, 0, -1
FACES = np.arange(1, rules.DIE_SIDES + 1)


# ------------------------------------------------------------ natural roll core
def kept_face_probs(n_dice: int, worst: bool = False, luck: bool = False) -> np.ndarray:
    """``P(kept face = k)`` for ``k = 1..10`` when ``n_dice`` D10 are rolled and one is kept.

    The roller keeps the lowest face ("Rolling Two Dice (2D10)"), or the highest with
    ``worst``.  With ``luck`` (Event card "Luck") one more die is rolled and any one
    die may be removed except a Critical Failure: the kept face is a 10 when at least
    ``n_dice`` dice show 10, otherwise the lowest of the other dice.
    """
    k = FACES.astype(float)
    sides = float(rules.DIE_SIDES)
    if luck:
        total = n_dice + rules.LUCK_EXTRA_DICE
        probs = np.zeros(rules.DIE_SIDES)
        ordinary = k[:-1]  # faces 1..9; t dice show 10, the other total - t dice are 1..9
        for tens in range(n_dice):
            rest = total - tens
            lowest = ((sides - ordinary) ** rest - (sides - 1 - ordinary) ** rest) / sides**rest
            probs[:-1] += comb(total, tens) * (1 / sides) ** tens * lowest
        probs[-1] = 1.0 - probs[:-1].sum()
        return probs
    if worst:
        return (k**n_dice - (k - 1) ** n_dice) / sides**n_dice
    return ((sides + 1 - k) ** n_dice - (sides - k) ** n_dice) / sides**n_dice


def face_classes(sl: int, perfect_at_most: int) -> np.ndarray:
    """Natural Roll outcome code of each face 1..10 ("Perfect Success and Critical Failure")."""
    face = FACES
    return np.where(
        face == rules.CRITICAL_FACE,
        CRITICAL,
        np.where(face <= perfect_at_most, PERFECT, np.where(face <= sl, SUCCESS, FAILURE)),
    )


def class_probs(face_probs: np.ndarray, sl: int, perfect_at_most: int) -> dict[int, float]:
    """Probability of each Natural Roll outcome code for a kept-face distribution."""
    codes = face_classes(sl, perfect_at_most)
    return {c: float(face_probs[codes == c].sum()) for c in (PERFECT, SUCCESS, FAILURE, CRITICAL)}


def effective_sl(sl: int, perfect_at_most: int = rules.PERFECT_FACE) -> int:
    """Highest face that succeeds: faces 1..this succeed, the others fail."""
    return max(min(sl, rules.HIGHEST_ORDINARY_FACE), perfect_at_most)


@njit(cache=True, inline="always")
def kept_face(state, n_dice, worst, luck):  # pragma: no cover - numba
    """Roll ``n_dice`` D10 (one more with Luck) and return the face the roller keeps."""
    rolled = n_dice + luck
    tens = 0
    lowest = rules.CRITICAL_FACE
    highest = 0
    for _ in range(rolled):
        face = roll_die(state, rules.DIE_SIDES)
        if face == rules.CRITICAL_FACE:
            tens += 1
        elif face < lowest:
            lowest = face
        if face > highest:
            highest = face
    if luck == 1:
        return rules.CRITICAL_FACE if tens >= n_dice else lowest
    if worst == 1:
        return highest
    return lowest  # stays 10 only when every die shows 10


@njit(cache=True, inline="always")
def classify(face, sl, perfect_at_most):  # pragma: no cover - numba
    """Natural Roll outcome code of one kept face."""
    if face == rules.CRITICAL_FACE:
        return -1
    if face <= perfect_at_most:
        return 2
    if face <= sl:
        return 1
    return 0


def _sl_option(name: str, help_text: str, required: bool = False) -> Option:
    return Option(
        name, int, help_text, required=required, minimum=rules.MIN_SL, maximum=rules.MAX_SL
    )


def _duellist_option(name: str, help_text: str) -> Option:
    return Option(
        name, int, help_text, default=1, minimum=rules.DUELLIST_MIN, maximum=rules.DUELLIST_MAX
    )


# ---------------------------------------------------------------- natural roll
# The generic test ("Natural Roll"): outcome 2 Perfect Success, 1 success, 0 failure,
# -1 Critical Failure (the rulebook gives the Critical Failure its own effects: Novice
# Parry, Luck, The Clones' Fury, the Activation Roll).  A Trap is this roll at SL + 3
# ("Trap counters"), a Trapdoor jump and Purulent Excrescence are plain Natural Rolls.
# Interpretations: --keep-worst is no rulebook rule (a what-if); Luck with 2D10 rolls
# three dice, removes one die that is not a Critical Failure and keeps the better of the
# other two, so it ends on a Critical Failure only when two dice show 10.
def _check_natural(p: Params) -> Params:
    if p["keep_best"] and p["keep_worst"]:
        raise InputError("--keep-best and --keep-worst exclude each other (one die is kept)")
    if p["luck"] and p["keep_worst"]:
        raise InputError(
            "--luck lets the roller remove a die of his choice; it is not defined with --keep-worst"
        )
    return p


def _natural_dice(p: Params) -> int:
    return rules.MASTER_DICE if p["keep_best"] or p["keep_worst"] else 1


def _natural_extra(p: Params) -> Params:
    return {
        "dice_rolled": _natural_dice(p) + (rules.LUCK_EXTRA_DICE if p["luck"] else 0),
        "effective_sl": effective_sl(p["sl"], p["duellist"]),
        "perfect_at_most": p["duellist"],
    }


def _natural_exact(p: Params) -> ex.Distribution:
    faces = kept_face_probs(_natural_dice(p), p["keep_worst"], p["luck"])
    probs = class_probs(faces, p["sl"], p["duellist"])
    return ex.Distribution(CRITICAL, np.array([probs[c] for c in range(CRITICAL, PERFECT + 1)]))


def _natural_encode(p: Params) -> np.ndarray:
    return np.array(
        [_natural_dice(p), int(p["keep_worst"]), int(p["luck"]), p["sl"], p["duellist"]]
    )


@trial_kernel
def natural_trial(state, p):  # pragma: no cover - numba
    """One Natural Roll: kept face, then its outcome code."""
    return classify(kept_face(state, p[0], p[1], p[2]), p[3], p[4])


NATURAL_ROLL = Mechanic(
    system="hybrid",
    name="natural-roll",
    example={"sl": 6},
    summary=(
        "Natural Roll test: 2 Perfect Success, 1 success, 0 failure, -1 Critical Failure "
        "(also traps at SL+3, Trapdoor jumps, Purulent Excrescence)."
    ),
    rules=(
        '"Natural Roll", "Perfect Success and Critical Failure", "Rolling Two Dice (2D10)", '
        '"Aptitudes: Duellist/X", Event card "Luck"'
    ),
    options=(
        _sl_option("sl", "Success Level: NV - wounds +/- modifiers", required=True),
        Option(
            "keep-best", bool, "roll 2D10 and keep the better die (Master levels)", default=False
        ),
        Option(
            "keep-worst",
            bool,
            "roll 2D10 and keep the worse die (not a rulebook rule; what-if)",
            default=False,
        ),
        _duellist_option("duellist", "Duellist/X: Perfect Success on <= X (OC or Firing rolls)"),
        Option(
            "luck",
            bool,
            'Event card "Luck": one more die, remove any die but a Critical Failure',
            default=False,
        ),
    ),
    check=_check_natural,
    extra_params=_natural_extra,
    exact=_natural_exact,
    encode=_natural_encode,
    trial=natural_trial,
    events={
        "p_success": lambda p, o: o >= SUCCESS,
        "p_perfect": lambda p, o: o == PERFECT,
        "p_critical": lambda p, o: o == CRITICAL,
    },
)


# -------------------------------------------------------------- strike / fire
# Rules and interpretations ("Offensive Combat", "Defensive Combat", "Perfect Success
# and Critical Failure", "Aptitudes: Duellist/X"):
# * A strike or shot wounds once, twice with Heroic Strike; a Perfect Success adds one.
# * Master and Heroic Strike (Firing) are two Mastery Levels and one action uses one
#   level ("Action Modes"), so --keep-best with --heroic is refused; likewise Novice,
#   Skilled and Master Parry exclude each other.  Expert levels (+2), Novice Strike (one
#   wound ignored), rear attacks, Action points, Conviction... are folded into the SL.
# * The parry is rolled only after a successful attack ("Once the opponent has succeeded
#   at his attack roll"); a successful parry avoids every wound, the Perfect Success's
#   extra wound and Heroic Strike's included.  Nothing exempts a Perfect Success strike
#   (the Combined Attack states its exception explicitly), so it can be parried by
#   default; --unparryable-perfect is the house rule of players who read "automatically
#   counted as successful" as unstoppable.  Rear attacks cannot be parried: omit --parry-sl.
# * Duellist/X applies "in Offensive Combat Mode or Firing Mode", i.e. to the attacker,
#   never to the parry (Defensive Combat); the Skilled Parry counter-blow is struck "as
#   though he were in Offensive Combat Mode", so the defender's Duellist applies to it.
# * A Perfect Success parry matters only with Novice Parry (the attacker takes a wound,
#   outcome -1, as on his own Critical Failure, which needs no parry roll).  The Skilled
#   Parry counter-blow is a Basic Strike (1 wound, 2 on a Perfect Success; outcome -1/-2)
#   that the attacker, who is in Offensive Combat Mode, cannot parry.
# * Against firing only Basic Parry and Heroic Parry apply (the others "apply only in base
#   contact").  With Heroic Firing both shots hit this target; a wound switches Defensive
#   Combat Mode off, so Basic Parry cannot stop the second shot, while Heroic Parry goes
#   on parrying at its SL lowered by the wounds taken (SL = NV - wounds).  Wounds are not
#   capped by the target's remaining NV.
# Parameter vector shared by the strike and fire kernels.
_ATT_DICE, _ATT_SL, _ATT_PERFECT, _WOUNDS, _PERFECT_WOUNDS = 0, 1, 2, 3, 4
_PARRY, _PARRY_DICE, _PARRY_SL, _UNPARRYABLE_PERFECT, _NOVICE_WOUNDS = 5, 6, 7, 8, 9
_COUNTER, _COUNTER_SL, _COUNTER_PERFECT, _COUNTER_WOUNDS, _COUNTER_PERFECT_WOUNDS = (
    10,
    11,
    12,
    13,
    14,
)
_SHOTS, _HEROIC_PARRY = 15, 16
_N_ATTACK_PARAMS = 17


@njit(cache=True, inline="always")
def attack_once(state, p, parry_on, parry_sl):  # pragma: no cover - numba
    """One strike or shot; positive: wounds to the target, negative: wounds to the attacker.

    Attack Natural Roll (kept face of 1 or 2 dice), then - if it succeeded and the
    defender is parrying - the defender's Natural Roll; a successful parry cancels every
    wound.  Novice Parry wounds the attacker on his Critical Failure or on a Perfect
    Success parry; Skilled Parry answers a successful parry with a Basic Strike.
    """
    attack = classify(kept_face(state, p[0], 0, 0), p[1], p[2])
    if attack == -1:
        return -p[9]
    if attack == 0:
        return 0
    wounds = p[4] if attack == 2 else p[3]
    if parry_on == 0 or (attack == 2 and p[8] == 1):
        return wounds
    parry = classify(kept_face(state, p[6], 0, 0), parry_sl, rules.PERFECT_FACE)
    if parry <= 0:
        return wounds
    if parry == 2 and p[9] > 0:
        return -p[9]
    if p[10] == 1:
        counter = classify(roll_die(state, rules.DIE_SIDES), p[11], p[12])
        if counter == 2:
            return -p[14]
        if counter == 1:
            return -p[13]
    return 0


def _attack_vector(p: Params, shots: int = 1, heroic_parry: bool = False) -> np.ndarray:
    """Encode a strike or shot (keys absent from ``p`` mean the feature is off)."""
    v = np.zeros(_N_ATTACK_PARAMS, dtype=np.int64)
    v[_ATT_DICE] = rules.MASTER_DICE if p["keep_best"] else 1
    v[_ATT_SL] = p["sl"]
    v[_ATT_PERFECT] = p["duellist"]
    v[_WOUNDS] = p["wounds"]
    v[_PERFECT_WOUNDS] = p["perfect_wounds"]
    if p["parry_sl"] is not None:
        v[_PARRY] = 1
        v[_PARRY_DICE] = rules.MASTER_DICE if p.get("parry_keep_best") else 1
        v[_PARRY_SL] = p["parry_sl"]
        v[_UNPARRYABLE_PERFECT] = int(p["unparryable_perfect"])
        v[_NOVICE_WOUNDS] = rules.NOVICE_PARRY_WOUNDS if p.get("novice_parry") else 0
        if p.get("counter_sl") is not None:
            v[_COUNTER] = 1
            v[_COUNTER_SL] = p["counter_sl"]
            v[_COUNTER_PERFECT] = p["counter_duellist"]
            v[_COUNTER_WOUNDS] = rules.COUNTER_BLOW_WOUNDS
            v[_COUNTER_PERFECT_WOUNDS] = rules.COUNTER_BLOW_WOUNDS + rules.PERFECT_EXTRA_WOUNDS
    v[_SHOTS] = shots
    v[_HEROIC_PARRY] = int(heroic_parry)
    return v


def attack_exact(v: np.ndarray, parry_on: bool, parry_sl: int) -> ex.Distribution:
    """Exact distribution of :func:`attack_once` for the parameter vector ``v``."""
    values: list[int] = []
    weights: list[float] = []

    def add(value: int, weight: float) -> None:
        values.append(int(value))
        weights.append(weight)

    att = class_probs(kept_face_probs(int(v[_ATT_DICE])), int(v[_ATT_SL]), int(v[_ATT_PERFECT]))
    add(-v[_NOVICE_WOUNDS], att[CRITICAL])
    add(0, att[FAILURE])
    parry = class_probs(kept_face_probs(int(v[_PARRY_DICE]) or 1), parry_sl, rules.PERFECT_FACE)
    counter = class_probs(kept_face_probs(1), int(v[_COUNTER_SL]), max(int(v[_COUNTER_PERFECT]), 1))
    for code, wounds in ((PERFECT, v[_PERFECT_WOUNDS]), (SUCCESS, v[_WOUNDS])):
        mass = att[code]
        if not parry_on or (code == PERFECT and v[_UNPARRYABLE_PERFECT]):
            add(wounds, mass)
            continue
        add(wounds, mass * (parry[FAILURE] + parry[CRITICAL]))
        if v[_NOVICE_WOUNDS]:
            add(-v[_NOVICE_WOUNDS], mass * parry[PERFECT])
            add(0, mass * parry[SUCCESS])
        elif v[_COUNTER]:
            parried = mass * (parry[PERFECT] + parry[SUCCESS])
            add(-v[_COUNTER_PERFECT_WOUNDS], parried * counter[PERFECT])
            add(-v[_COUNTER_WOUNDS], parried * counter[SUCCESS])
            add(0, parried * (counter[FAILURE] + counter[CRITICAL]))
        else:
            add(0, mass * (parry[PERFECT] + parry[SUCCESS]))
    return ex.from_samples(np.array(values, dtype=np.int64), np.array(weights))


def _attack_extra(p: Params) -> Params:
    extra: Params = {
        "attack_dice": rules.MASTER_DICE if p["keep_best"] else 1,
        "effective_sl": effective_sl(p["sl"], p["duellist"]),
        "perfect_at_most": p["duellist"],
        "wounds": p["wounds"],
        "perfect_wounds": p["perfect_wounds"],
    }
    if p["parry_sl"] is not None:
        extra["parry_dice"] = rules.MASTER_DICE if p.get("parry_keep_best") else 1
        extra["parry_effective_sl"] = effective_sl(p["parry_sl"])
    if p.get("counter_sl") is not None:
        extra["counter_effective_sl"] = effective_sl(p["counter_sl"], p["counter_duellist"])
    return extra


def _check_strike(p: Params) -> Params:
    if p["keep_best"] and p["heroic"]:
        raise InputError(
            "--keep-best (Master Strike) and --heroic (Heroic Strike) are two Mastery Levels; "
            "a strike uses one"
        )
    if p["parry_sl"] is None:
        for key in ("parry_keep_best", "novice_parry", "counter_sl", "unparryable_perfect"):
            if p[key] not in (None, False):
                raise InputError(f"--{key.replace('_', '-')} needs --parry-sl")
    levels = [
        name
        for name, on in (
            ("--parry-keep-best (Master Parry)", p["parry_keep_best"]),
            ("--novice-parry (Novice Parry)", p["novice_parry"]),
            ("--counter-sl (Skilled Parry)", p["counter_sl"] is not None),
        )
        if on
    ]
    if len(levels) > 1:
        raise InputError(f"{' and '.join(levels)} are different Mastery Levels; a parry uses one")
    if p["counter_duellist"] != 1 and p["counter_sl"] is None:
        raise InputError("--counter-duellist needs --counter-sl")
    wounds = rules.HEROIC_STRIKE_WOUNDS if p["heroic"] else rules.STRIKE_WOUNDS
    return {**p, "wounds": wounds, "perfect_wounds": wounds + rules.PERFECT_EXTRA_WOUNDS}


def _strike_range(p: Params) -> tuple[int, int]:
    lowest = 0
    if p["novice_parry"]:
        lowest = -rules.NOVICE_PARRY_WOUNDS
    if p["counter_sl"] is not None:
        lowest = -(rules.COUNTER_BLOW_WOUNDS + rules.PERFECT_EXTRA_WOUNDS)
    return lowest, p["perfect_wounds"]


def _strike_exact(p: Params) -> ex.Distribution:
    v = _attack_vector(p)
    parry_sl = p["parry_sl"] if p["parry_sl"] is not None else 0
    return attack_exact(v, p["parry_sl"] is not None, parry_sl).widen(*_strike_range(p))


@trial_kernel
def strike_trial(state, p):  # pragma: no cover - numba
    """One close combat strike against a (possibly) parrying defender."""
    return attack_once(state, p, p[5], p[7])


STRIKE = Mechanic(
    system="hybrid",
    name="strike",
    example={"sl": 6, "parry_sl": 5},
    summary=(
        "Wounds from one close combat strike (negative: wounds the attacker takes from "
        "Novice Parry or a Skilled Parry counter-blow)."
    ),
    rules=(
        '"Offensive Combat" (Master/Heroic Strike), "Defensive Combat" (Basic/Novice/Skilled/'
        'Master Parry), "Perfect Success and Critical Failure", "Aptitudes: Duellist/X"'
    ),
    options=(
        _sl_option("sl", "attacker's Success Level in Offensive Combat", required=True),
        Option("keep-best", bool, "Master Strike: roll 2D10, keep the better die", default=False),
        _duellist_option("duellist", "attacker's Duellist/X: Perfect Success on <= X"),
        Option("heroic", bool, "Heroic Strike: 2 wounds, 3 on a Perfect Success", default=False),
        _sl_option("parry-sl", "defender in Defensive Combat: his parry Success Level"),
        Option("parry-keep-best", bool, "Master Parry: defender rolls 2D10", default=False),
        Option(
            "novice-parry",
            bool,
            "Novice Parry: attacker's Critical Failure or a Perfect Success parry wounds him",
            default=False,
        ),
        _sl_option("counter-sl", "Skilled Parry: counter-blow (Basic Strike) Success Level"),
        _duellist_option("counter-duellist", "defender's Duellist/X for his counter-blow"),
        Option(
            "unparryable-perfect",
            bool,
            "house rule: a Perfect Success strike cannot be parried",
            default=False,
        ),
    ),
    check=_check_strike,
    extra_params=_attack_extra,
    exact=_strike_exact,
    encode=_attack_vector,
    trial=strike_trial,
    events={
        "p_wound": lambda p, o: o > 0,
        "p_attacker_wounded": lambda p, o: o < 0,
    },
)


# ------------------------------------------------------------------------ fire
def _check_fire(p: Params) -> Params:
    if p["keep_best"] and p["heroic"]:
        raise InputError(
            "--keep-best (Master Firing) and --heroic (Heroic Firing) are two Mastery Levels; "
            "a shot uses one"
        )
    if p["parry_sl"] is None:
        for key in ("heroic_parry", "unparryable_perfect"):
            if p[key]:
                raise InputError(f"--{key.replace('_', '-')} needs --parry-sl")
    return {
        **p,
        "wounds": rules.STRIKE_WOUNDS,
        "perfect_wounds": rules.STRIKE_WOUNDS + rules.PERFECT_EXTRA_WOUNDS,
        "shots": rules.HEROIC_FIRING_SHOTS if p["heroic"] else 1,
    }


def _fire_encode(p: Params) -> np.ndarray:
    return _attack_vector(p, shots=p["shots"], heroic_parry=p["heroic_parry"])


def _fire_exact(p: Params) -> ex.Distribution:
    v = _fire_encode(p)
    memo: dict[tuple[bool, int], ex.Distribution] = {}

    def one_shot(parry_on: bool, parry_sl: int) -> ex.Distribution:
        if (parry_on, parry_sl) not in memo:
            memo[parry_on, parry_sl] = attack_exact(v, parry_on, parry_sl)
        return memo[parry_on, parry_sl]

    def shots_left(n: int, parry_on: bool, parry_sl: int) -> ex.Distribution:
        first = one_shot(parry_on, parry_sl)
        if n == 1:
            return first

        def after(wounds: int) -> ex.Distribution:
            if wounds == 0:
                rest = shots_left(n - 1, parry_on, parry_sl)
            elif p["heroic_parry"]:  # still parrying, with the SL his new wounds leave
                rest = shots_left(n - 1, parry_on, parry_sl - wounds)
            else:  # a wound switches Defensive Combat Mode off
                rest = shots_left(n - 1, False, parry_sl)
            return ex.add(ex.point(wounds), rest)

        return ex.mixture(first, after)

    parry_sl = p["parry_sl"] if p["parry_sl"] is not None else 0
    dist = shots_left(p["shots"], p["parry_sl"] is not None, parry_sl)
    return dist.widen(0, p["shots"] * p["perfect_wounds"])


@trial_kernel
def fire_trial(state, p):  # pragma: no cover - numba
    """One or two shots (Heroic Firing) at one target that may parry (dodge) each shot."""
    total = 0
    parry_on = p[5]
    parry_sl = p[7]
    for _ in range(p[15]):
        wounds = attack_once(state, p, parry_on, parry_sl)
        if wounds > 0:
            total += wounds
            if p[16] == 1:
                parry_sl -= wounds
            else:
                parry_on = 0
    return total


FIRE = Mechanic(
    system="hybrid",
    name="fire",
    example={"sl": 6, "heroic": True},
    summary="Wounds from a Firing action (one shot, or two with Heroic Firing) at one target.",
    rules=(
        '"Firing" (Master/Heroic Firing), "Defensive Combat" (Basic and Heroic Parry against '
        'firing), "Perfect Success and Critical Failure", "Aptitudes: Duellist/X"'
    ),
    options=(
        _sl_option("sl", "shooter's Success Level in Firing Mode", required=True),
        Option("keep-best", bool, "Master Firing: roll 2D10, keep the better die", default=False),
        _duellist_option("duellist", "shooter's Duellist/X: Perfect Success on <= X"),
        Option("heroic", bool, "Heroic Firing: two shots, here both at this target", default=False),
        _sl_option("parry-sl", "target in Defensive Combat: his parry (dodge) Success Level"),
        Option(
            "heroic-parry",
            bool,
            "Heroic Parry: keeps parrying after a wound (at his lowered SL)",
            default=False,
        ),
        Option(
            "unparryable-perfect",
            bool,
            "house rule: a Perfect Success shot cannot be parried",
            default=False,
        ),
    ),
    check=_check_fire,
    extra_params=_attack_extra,
    exact=_fire_exact,
    encode=_fire_encode,
    trial=fire_trial,
    events={"p_wound": lambda p, o: o > 0},
)


# ------------------------------------------------------------- activation roll
# "Activation", "Using Action Cards on the Activation Roll": each player rolls a D10 and
# the LOWER result wins; Action points lower one's own result (only from Round 2).
# Both Perfect Successes or both Critical Failures: rolled again without Action points
# (and so on for every later repeat).  A single Critical Failure loses whatever the
# Action points.  Equal results: a natural 1 wins against the same result reached with
# Action points, otherwise the roll is repeated with the same Action points (the cards
# stay played until the roll is settled).  Interpretation: a result lowered below 1
# beats a natural 1, since the rulebook's exception covers only "the same result";
# --perfect-always-wins lets a natural 1 beat any modified result instead.
def activation_round(a: int, b: int, perfect_always_wins: bool) -> dict[str, float]:
    """One Activation Roll of this player (``a`` Action points) against the opponent's (``b``).

    Returns the probabilities that this player wins, that the opponent wins, that the
    roll is a plain tie (rolled again with the same Action points) and that both rolled
    a Perfect Success or both a Critical Failure (rolled again without Action points).
    """
    fa, fb = np.meshgrid(FACES, FACES, indexing="ij")
    both = ((fa == rules.PERFECT_FACE) & (fb == rules.PERFECT_FACE)) | (
        (fa == rules.CRITICAL_FACE) & (fb == rules.CRITICAL_FACE)
    )
    open_ = ~both
    a_crit = open_ & (fa == rules.CRITICAL_FACE)
    b_crit = open_ & (fb == rules.CRITICAL_FACE) & ~a_crit
    open_ &= ~(a_crit | b_crit)
    a_wins = b_crit.copy()
    b_wins = a_crit.copy()
    if perfect_always_wins:
        a_wins |= open_ & (fa == rules.PERFECT_FACE)
        b_wins |= open_ & (fb == rules.PERFECT_FACE)
        open_ &= (fa != rules.PERFECT_FACE) & (fb != rules.PERFECT_FACE)
    ra, rb = fa - a, fb - b
    a_wins |= open_ & ((ra < rb) | ((ra == rb) & (fa == rules.PERFECT_FACE)))
    b_wins |= open_ & ((rb < ra) | ((ra == rb) & (fb == rules.PERFECT_FACE)))
    tie = open_ & ~a_wins & ~b_wins
    n = float(fa.size)
    return {
        "win": a_wins.sum() / n,
        "lose": b_wins.sum() / n,
        "tie": tie.sum() / n,
        "restart": both.sum() / n,
    }


def _activation_exact(p: Params) -> ex.Distribution:
    always = p["perfect_always_wins"]
    plain = activation_round(0, 0, always)
    q_plain = plain["win"] / (plain["win"] + plain["lose"])
    first = activation_round(p["points"], p["opponent_points"], always)
    q = (first["win"] + first["restart"] * q_plain) / (1.0 - first["tie"])
    return ex.Distribution(0, np.array([1.0 - q, q]))


@trial_kernel
def activation_trial(state, p):  # pragma: no cover - numba
    """Activation Roll: D10 each, lower (after Action points) wins; 1 this player, 0 opponent."""
    a = p[0]
    b = p[1]
    while True:
        fa = roll_die(state, rules.DIE_SIDES)
        fb = roll_die(state, rules.DIE_SIDES)
        if (fa == rules.PERFECT_FACE and fb == rules.PERFECT_FACE) or (
            fa == rules.CRITICAL_FACE and fb == rules.CRITICAL_FACE
        ):
            a = 0
            b = 0
            continue
        if fa == rules.CRITICAL_FACE:
            return 0
        if fb == rules.CRITICAL_FACE:
            return 1
        if p[2] == 1:
            if fa == rules.PERFECT_FACE:
                return 1
            if fb == rules.PERFECT_FACE:
                return 0
        ra = fa - a
        rb = fb - b
        if ra < rb:
            return 1
        if rb < ra:
            return 0
        if fa == rules.PERFECT_FACE:
            return 1
        if fb == rules.PERFECT_FACE:
            return 0


ACTIVATION = Mechanic(
    system="hybrid",
    name="activation",
    example={"points": 1},
    summary="Activation Roll: 1 this player wins (chooses who activates first), 0 the opponent.",
    rules='"Activation", "Using Action Cards on the Activation Roll"',
    options=(
        Option(
            "points",
            int,
            "Action points this player spends to lower his roll (from Round 2)",
            default=0,
            minimum=0,
            maximum=rules.MAX_ACTION_POINTS,
        ),
        Option(
            "opponent-points",
            int,
            "Action points the opponent spends",
            default=0,
            minimum=0,
            maximum=rules.MAX_ACTION_POINTS,
        ),
        Option(
            "perfect-always-wins",
            bool,
            "a natural 1 beats any modified result (default: only a tie with one)",
            default=False,
        ),
    ),
    exact=_activation_exact,
    encode=lambda p: np.array([p["points"], p["opponent_points"], int(p["perfect_always_wins"])]),
    trial=activation_trial,
    events={"p_win": lambda p, o: o == 1},
)


# ------------------------------------------------------- Heresiarch's Prison
def _rockfall_exact(p: Params) -> ex.Distribution:
    kept = [f for f in FACES if f not in rules.PRISON_REROLL_FACES]
    tiles = [int(f) if f <= rules.PRISON_TILES else rules.PRISON_NOTHING for f in kept]
    dist = ex.from_samples(np.array(tiles, dtype=np.int64), np.full(len(kept), 1.0 / len(kept)))
    return dist.widen(rules.PRISON_NOTHING, rules.PRISON_TILES)


@trial_kernel
def rockfall_trial(state, p):  # pragma: no cover - numba
    """1D10: faces 1..p[0] name a tile, p[1]..p[2] are rolled again, others: nothing (0)."""
    while True:
        face = roll_die(state, rules.DIE_SIDES)
        if p[1] <= face <= p[2]:
            continue
        return face if face <= p[0] else rules.PRISON_NOTHING


PRISON_ROCKFALL = Mechanic(
    system="hybrid",
    name="prison-rockfall",
    example={},
    summary="The Heresiarch's Prison: tile 1..7 where rocks fall this turn, 0 nothing.",
    rules='Corrections: "Page 38, The Heresiarch\'s Prison" (1-7 tile, 8-9 reroll, 10 nothing)',
    options=(),
    exact=_rockfall_exact,
    encode=lambda p: np.array(
        [rules.PRISON_TILES, min(rules.PRISON_REROLL_FACES), max(rules.PRISON_REROLL_FACES)]
    ),
    trial=rockfall_trial,
    events={"p_rockfall": lambda p, o: o > 0},
)

MECHANICS = {m.name: m for m in (NATURAL_ROLL, STRIKE, FIRE, ACTIVATION, PRISON_ROCKFALL)}
