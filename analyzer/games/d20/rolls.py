"""d20 skirmish roll mechanics: shots, hand to hand, thrown objects, retreat and first player.

Rulebook: ``d20-skirmish.txt``.  Each mechanic cites the sections it encodes.
Every attack is one D20 added to the attacker's values and compared with the
target's Physical Defense (PD): a result higher than the PD hits and the
difference is the number of Constitution Points (CP) lost.  The rulebook has no
special case for a natural 20 or a natural 1, so none is applied.
"""

from __future__ import annotations

import numpy as np

from analyzer.dice import exact as ex
from analyzer.dice.mechanic import Mechanic, Option, Params
from analyzer.dice.random_nb import roll_die
from analyzer.dice.simulate import trial_kernel
from analyzer.errors import InputError
from analyzer.games.d20 import rules

COVER_KINDS = tuple(rules.COVER_PD_BONUS)
#: Upper bound of any characteristic, weapon Power, Difficulty Level or Physical Defense.
MAX_VALUE = 100
D20_FACES = np.arange(1, rules.D20_SIDES + 1)


def _value(name: str, help_text: str, required: bool = True) -> Option:
    return Option(
        name,
        int,
        help_text,
        default=None if required else 0,
        required=required,
        minimum=0,
        maximum=MAX_VALUE,
    )


# ----------------------------------------------------------- attacks vs PD
def cp_lost(attack: int, defense: int) -> ex.Distribution:
    """CP lost when ``attack + 1D20`` is compared with ``defense`` ("3.2 Shots").

    Higher than the PD hits and the difference is the CP lost; equal or lower misses.
    """
    total = attack + D20_FACES
    lost = np.where(total > defense, total - defense, 0)
    dist = ex.one_die(lost)
    return dist.widen(0, max(attack + rules.D20_SIDES - defense, 0))


def _cp_exact(p: Params) -> ex.Distribution:
    return cp_lost(p["attack_total"], p["effective_defense"])


def _cp_encode(p: Params) -> np.ndarray:
    return np.array([p["attack_total"], p["effective_defense"]])


@trial_kernel
def versus_defense_trial(state, p):  # pragma: no cover - numba
    """p[0] + 1D20 against PD p[1]: the difference if higher, else 0."""
    total = p[0] + roll_die(state, rules.D20_SIDES)
    return total - p[1] if total > p[1] else 0


def _defense(p: Params) -> int:
    """PD plus cover ("Cover") and watchful movement ("Types of movement for the SUs")."""
    cover = rules.COVER_PD_BONUS[p.get("cover", "none")]
    return p["defense"] + cover + (rules.WATCHFUL_PD_BONUS if p["watchful"] else 0)


def _rear(p: Params) -> int:
    """ "Shooting in the back" / "Attacks in the back": +1 to the attack."""
    return rules.REAR_BONUS if p["rear"] else 0


COVER = Option("cover", COVER_KINDS, "target's cover: +0/+1/+2/+3 PD", default="none")
REAR = Option("rear", bool, "attack begun in the target's rear arc (+1)", default=False)
WATCHFUL = Option(
    "watchful", bool, "target made a watchful movement this turn (+1 PD)", default=False
)
EVENTS = {"p_hit": lambda p, o: o > 0}

# ---------------------------------------------------------------------- shot
SHOT_OPTIONS = (
    _value("skill", "shooter's Skill (the Shot value)"),
    _value("dexterity", "Dexterity, if the card lists it apart from Skill", required=False),
    _value("power", "weapon's Power"),
    _value("defense", "target's Physical Defense (PD)"),
    COVER,
    REAR,
    WATCHFUL,
    Option(
        "retreating",
        bool,
        "shooting while retreating from a HtH: Skill halved, rounded up",
        default=False,
    ),
)


def _check_shot(p: Params) -> Params:
    return p


def shot_values(p: Params) -> Params:
    """Attack total (without the D20) and effective PD of a shot.

    Rules: "3.2 Shots" (Shot + Weapon's Power + 1D20 against PD; "Shooting actions
    combine Skill, Dexterity, and the Power of the weapon"), "Leaving a HtH" (Skill
    divided by two, rounded up), "Shooting in the back", "Cover", watchful movement.
    """
    skill = p["skill"]
    if p["retreating"]:
        skill = -(-skill // rules.RETREAT_SKILL_DIVISOR)
    return {
        "effective_skill": skill,
        "attack_total": skill + p["dexterity"] + p["power"] + _rear(p),
        "effective_defense": _defense(p),
    }


SHOT = Mechanic(
    system="d20",
    name="shot",
    example={"skill": 4, "power": 3, "defense": 12, "cover": "slight"},
    summary="Constitution Points lost to a shot (0 on a miss).",
    rules=(
        '"3.2 Shots", "Shooting in the back", "Cover", "Types of movement for the SUs" '
        '(watchful), "Leaving a HtH" (halved Skill)'
    ),
    options=SHOT_OPTIONS,
    check=_check_shot,
    extra_params=shot_values,
    exact=_cp_exact,
    encode=_cp_encode,
    trial=versus_defense_trial,
    events=EVENTS,
)

# --------------------------------------------------------------------- melee
MELEE_OPTIONS = (
    _value("skill", "fighter's Skill (or the card's HtH value)"),
    _value("force", "Force, if the card lists it apart from Skill", required=False),
    _value("power", "HtH weapon's Power (a shooting weapon used as a club: 1)"),
    _value("defense", "opponent's Physical Defense (PD)"),
    REAR,
    Option(
        "synergy",
        int,
        "friendly stands in contact with both fighters (+1 each, bonus capped at +3)",
        default=0,
        minimum=0,
    ),
    WATCHFUL,
)


def melee_values(p: Params) -> Params:
    """Attack total (without the D20) and effective PD of a hand to hand attack.

    Rules: "3.3 Hand to Hand combat" (Skill + Force + Weapon's Power + 1D20 against PD),
    "Synergy in Hand to Hand combat" (+1 per supporting friend, "up to a maximum bonus
    of +3": more friends are allowed but add nothing), "Attacks in the back".
    """
    synergy = min(p["synergy"] * rules.SYNERGY_PER_FRIEND, rules.SYNERGY_MAX_BONUS)
    return {
        "synergy_bonus": synergy,
        "attack_total": p["skill"] + p["force"] + p["power"] + synergy + _rear(p),
        "effective_defense": _defense(p),
    }


MELEE = Mechanic(
    system="d20",
    name="melee",
    example={"skill": 4, "power": 3, "defense": 12, "synergy": 1},
    summary="Constitution Points lost to a hand to hand attack (0 on a miss).",
    rules='"3.3 Hand to Hand combat", "Synergy in Hand to Hand combat", "Attacks in the back"',
    options=MELEE_OPTIONS,
    extra_params=melee_values,
    exact=_cp_exact,
    encode=_cp_encode,
    trial=versus_defense_trial,
    events=EVENTS,
)

# --------------------------------------------------------------------- throw
THROW_OPTIONS = (
    Option(
        "dl",
        int,
        "object's Difficulty Level (5 furniture, 10 crates, 15 tree trunks)",
        required=True,
        minimum=1,
        maximum=MAX_VALUE,
    ),
    _value("power", "thrower's Power"),
    _value("defense", "target's Physical Defense (PD)"),
    COVER,
    REAR,
    WATCHFUL,
)


def _check_throw(p: Params) -> Params:
    if p["power"] <= p["dl"]:
        raise InputError(
            f"--power {p['power']} cannot throw a DL {p['dl']} object: the maximum throwing "
            "distance is Power - DL, which must be above 0"
        )
    return p


def throw_values(p: Params) -> Params:
    """Attack total (without the D20), effective PD and range of a thrown object.

    Rules: "Throwing Objects" (considered as a Shot: distance up to Power - DL; damage
    DL + Power + 1D20 against PD), so "Cover" and "Shooting in the back" apply too.
    """
    return {
        "max_distance": p["power"] - p["dl"],
        "attack_total": p["dl"] + p["power"] + _rear(p),
        "effective_defense": _defense(p),
    }


THROW = Mechanic(
    system="d20",
    name="throw",
    example={"dl": 5, "power": 8, "defense": 12},
    summary="Constitution Points lost to a thrown object (0 on a miss).",
    rules='"Throwing Objects", "The Difficulty Levels of Objects", "Cover", "Shooting in the back"',
    options=THROW_OPTIONS,
    check=_check_throw,
    extra_params=throw_values,
    exact=_cp_exact,
    encode=_cp_encode,
    trial=versus_defense_trial,
    events=EVENTS,
)


# ------------------------------------------------------------ opposed rolls
def _opposed(mine: int, theirs: int) -> tuple[float, float]:
    """P(mine + D20 > theirs + D20) and P(mine + D20 < theirs + D20)."""
    a = D20_FACES[:, None] + mine
    b = D20_FACES[None, :] + theirs
    return float(np.mean(a > b)), float(np.mean(a < b))


def _retreat_exact(p: Params) -> ex.Distribution:
    win, _ = _opposed(p["hth"], p["enemy_hth"])
    return ex.binomial(1, win)


@trial_kernel
def retreat_trial(state, p):  # pragma: no cover - numba
    """HtH p[0] + D20 against HtH p[1] + D20: 1 only if strictly higher."""
    mine = p[0] + roll_die(state, rules.D20_SIDES)
    theirs = p[1] + roll_die(state, rules.D20_SIDES)
    return 1 if mine > theirs else 0


RETREAT = Mechanic(
    system="d20",
    name="retreat",
    example={"hth": 4, "enemy_hth": 5},
    summary="Retreat test to leave a HtH: 1 if HtH + D20 beats the enemy's (a draw fails).",
    rules='"Leaving a HtH" ("If the test succeeds (the result is higher)")',
    options=(
        _value("hth", "retreating figure's HtH value"),
        _value("enemy-hth", "HtH value of the enemy figure chosen by its owner"),
    ),
    exact=_retreat_exact,
    encode=lambda p: np.array([p["hth"], p["enemy_hth"]]),
    trial=retreat_trial,
)


def _first_bonuses(p: Params) -> Params:
    per = rules.FIRST_PLAYER_BONUS_PER_CHARACTER
    return {"bonus": per * p["characters"], "enemy_bonus": per * p["enemy_characters"]}


def _first_exact(p: Params) -> ex.Distribution:
    """A draw is thrown again: P(choose) = P(higher) / (P(higher) + P(lower))."""
    win, lose = _opposed(p["bonus"], p["enemy_bonus"])
    return ex.binomial(1, win / (win + lose))


@trial_kernel
def first_player_trial(state, p):  # pragma: no cover - numba
    """Both players throw D20 + bonus until the results differ; 1 if the first is higher."""
    while True:
        mine = p[0] + roll_die(state, rules.D20_SIDES)
        theirs = p[1] + roll_die(state, rules.D20_SIDES)
        if mine != theirs:
            return 1 if mine > theirs else 0


FIRST_PLAYER = Mechanic(
    system="d20",
    name="first-player",
    example={"characters": 1},
    summary="Who starts: 1 if your D20 is highest and you choose whether to start.",
    rules='"Who starts ?" (+1 per infiltration or precognition character; a draw is rethrown)',
    options=(
        _value("characters", "your characters with infiltration or precognition", required=False),
        _value("enemy-characters", "the opponent's such characters", required=False),
    ),
    extra_params=_first_bonuses,
    exact=_first_exact,
    encode=lambda p: np.array([p["bonus"], p["enemy_bonus"]]),
    trial=first_player_trial,
)

MECHANICS = {m.name: m for m in (SHOT, MELEE, THROW, RETREAT, FIRST_PLAYER)}
