"""Rapture roll mechanics: attacks with reactions and cover, test rolls, falls.

Rulebook: ``rapture.txt``.  Each mechanic cites the sections it encodes.
"""

from __future__ import annotations

import numpy as np

from analyzer.dice import exact as ex
from analyzer.dice.mechanic import Mechanic, Option, Params
from analyzer.dice.random_nb import count_at_least, roll_die
from analyzer.dice.simulate import trial_kernel
from analyzer.errors import InputError
from analyzer.games.rapture import rules

ATTACK_KINDS = ("melee", "ranged", "counterblow", "countershot")
COVER_KINDS = ("none", "obstacle", "high-ground", "shelter")
#: Which cover applies to which attack ("Cover"; "Reaction: Seek Shelter").
ALLOWED_COVER = {
    "melee": ("none", "shelter"),
    "counterblow": ("none",),
    "ranged": COVER_KINDS,
    "countershot": ("none", "obstacle", "high-ground"),
}
MAX_DICE = 40
#: Why an attack kind cannot be dodged ("Reaction: Dodge"; "Actions and Reactions").
_NO_DODGE = {
    "ranged": 'a ranged attack cannot be dodged: "Reaction: Dodge" answers a close combat '
    'attack; against a ranged attack the reaction is "Reaction: Seek Shelter" '
    "(--cover shelter)",
    "counterblow": 'a counterblow is itself a reaction, and "You may not perform a reaction '
    'to a reaction" ("Actions and Reactions")',
    "countershot": 'a countershot is itself a reaction, and "You may not perform a reaction '
    'to a reaction" ("Actions and Reactions")',
}


# --------------------------------------------------------------------- attack
def _check_attack(p: Params) -> Params:
    kind, cover = p["kind"], p["cover"]
    if p["dodge"] and kind != "melee":
        raise InputError(f"--dodge only applies to melee attacks ({_NO_DODGE[kind]})")
    if cover not in ALLOWED_COVER[kind]:
        raise InputError(
            f"--cover {cover} does not apply to a {kind} attack "
            f"(allowed: {', '.join(ALLOWED_COVER[kind])})"
        )
    return p


def attack_thresholds(p: Params) -> dict[str, int]:
    """Hit threshold, effective DEF dice and block threshold of an attack.

    Rules: "Battle and Handling Hits" (hit on CCS/MMS, block on 5+),
    "Reaction: Countershot"/"Reaction: Counterblow" (skill worsened by 1),
    "Cover" (shelter > high ground > obstacles; shelter halves DEF in melee).
    """
    kind, cover = p["kind"], p["cover"]
    hit_at = p["skill"] + (
        rules.REACTION_SKILL_PENALTY if kind in ("counterblow", "countershot") else 0
    )
    defense = p["defense"]
    block_at = rules.BLOCK_AT
    if kind in ("ranged", "countershot"):
        defense += rules.COVER_DEF_BONUS[cover]
        if cover == "shelter":
            block_at = rules.SHELTER_BLOCK_AT
    elif cover == "shelter":
        defense //= 2
    return {"hit_at": hit_at, "block_dice": defense, "block_at": block_at}


def _attack_exact(p: Params) -> ex.Distribution:
    dodges = ex.successes(p["dodge"], 6, rules.DODGE_AT)
    hits = ex.mixture(dodges, lambda k: ex.successes(max(p["dice"] - k, 0), 6, p["hit_at"]))
    blocks = ex.successes(p["block_dice"], 6, p["block_at"])
    mod = p["damage_mod"]
    wounds = ex.subtract(hits, blocks).map(lambda d: np.maximum(np.maximum(d, 0) + mod, 0))
    return wounds.widen(0, p["dice"] + max(mod, 0))


def _attack_encode(p: Params) -> np.ndarray:
    return np.array(
        [p["dice"], p["hit_at"], p["dodge"], p["block_dice"], p["block_at"], p["damage_mod"]]
    )


@trial_kernel
def attack_trial(state, p):  # pragma: no cover - numba
    """One attack: dodge roll, hit roll, block roll, damage modifier."""
    dice = p[0] - count_at_least(state, p[2], 6, rules.DODGE_AT)
    hits = count_at_least(state, max(dice, 0), 6, p[1])
    blocks = count_at_least(state, p[3], 6, p[4])
    return max(max(hits - blocks, 0) + p[5], 0)


ATTACK = Mechanic(
    system="rapture",
    name="attack",
    summary="Wounds from a close combat attack, ranged attack, counterblow or countershot.",
    rules='"Battle and Handling Hits", "Reaction: Dodge/Counterblow/Countershot", "Cover"',
    options=(
        Option("kind", ATTACK_KINDS, "attack type", default="melee"),
        Option("dice", int, "attack dice (ATT or ROF)", required=True, minimum=0, maximum=MAX_DICE),
        Option(
            "skill", int, "CCS or MMS: hit on a d6 >= skill", required=True, minimum=1, maximum=6
        ),
        Option(
            "defense",
            int,
            "defender's DEF (block dice at 5+)",
            required=True,
            minimum=0,
            maximum=MAX_DICE,
        ),
        Option(
            "dodge",
            int,
            "defender's TEC when it dodges (melee only)",
            default=0,
            minimum=0,
            maximum=MAX_DICE,
        ),
        Option("cover", COVER_KINDS, "defender's cover", default="none"),
        Option(
            "damage-mod",
            int,
            "damage modifier after blocks (Scale Skin: -1)",
            default=0,
            minimum=-MAX_DICE,
            maximum=MAX_DICE,
        ),
    ),
    check=_check_attack,
    extra_params=attack_thresholds,
    exact=_attack_exact,
    encode=_attack_encode,
    trial=attack_trial,
    events={"p_wound": lambda p, o: o > 0},
    example={"kind": "melee", "dice": 6, "skill": 3, "defense": 2, "dodge": 2},
)


# ------------------------------------------------------------------ ascension
def _ascension_table(p: Params) -> list[int]:
    first = max(p["from_round"], 2)
    return [
        rules.ASCENSION_DIFFICULTY[r] if r >= first else 7 for r in range(2, rules.LAST_ROUND + 1)
    ]


def _ascension_exact(p: Params) -> ex.Distribution:
    chances = [ex.face_probability(6, t) for t in _ascension_table(p)]
    return ex.geometric_rounds(chances, first_round=2)


@trial_kernel
def ascension_trial(state, p):  # pragma: no cover - numba
    """Roll each round from round 2 at the round's difficulty until a success."""
    for i in range(p.shape[0]):
        if roll_die(state, 6) >= p[i]:
            return i + 2
    return p.shape[0] + 2


ASCENSION = Mechanic(
    system="rapture",
    name="ascension",
    summary="Round in which an ascension succeeds (7: not within the game).",
    rules='"Test Rolls: Ascension" (difficulty 4+/3+/2+/1+ from round 2)',
    options=(
        Option(
            "from-round",
            int,
            "round in which the ascension is triggered",
            default=2,
            minimum=1,
            maximum=rules.LAST_ROUND,
        ),
    ),
    exact=_ascension_exact,
    encode=lambda p: np.array(_ascension_table(p)),
    trial=ascension_trial,
    example={"from_round": 2},
    extra_params=lambda p: {"difficulty_by_round": dict(zip(range(2, 7), _ascension_table(p)))},
)


# ------------------------------------------------------------- morale / fate
def _morale_exact(p: Params) -> ex.Distribution:
    return ex.binomial(1, min(max(p["mp"] - 1, 0), 6) / 6)


@trial_kernel
def morale_trial(state, p):  # pragma: no cover - numba
    """Pass when the d6 is lower than the current MP."""
    return 1 if roll_die(state, 6) < p[0] else 0


MORALE = Mechanic(
    system="rapture",
    name="morale",
    summary="Morale test: 1 pass, 0 fail.",
    rules='"Test Rolls: Morale Test" (pass if 1D6 < current MP)',
    options=(Option("mp", int, "current morale points", required=True, minimum=0, maximum=99),),
    exact=_morale_exact,
    encode=lambda p: np.array([p["mp"]]),
    trial=morale_trial,
    example={"mp": 4},
)


@trial_kernel
def fate_trial(state, p):  # pragma: no cover - numba
    """Two d6: pass if the second is higher, or is a 6."""
    first = roll_die(state, 6)
    second = roll_die(state, 6)
    return 1 if second > first or second == 6 else 0


def _fate_exact(p: Params) -> ex.Distribution:
    first, second = np.meshgrid(np.arange(1, 7), np.arange(1, 7))
    passed = (second > first) | (second == 6)
    return ex.binomial(1, passed.mean())


FATE = Mechanic(
    system="rapture",
    name="fate",
    summary="Fate test: 1 pass, 0 fail.",
    rules='"Test Rolls: Fate Test" (second d6 higher than the first, or a 6)',
    options=(),
    exact=_fate_exact,
    encode=lambda p: np.zeros(1, dtype=np.int64),
    trial=fate_trial,
)


# ----------------------------------------------------------- jump / terrain
def _jump_hits(p: Params) -> Params:
    return {"hits": max(rules.JUMP_DOWN_HITS - p["tec"], 0)}


def _jump_exact(p: Params) -> ex.Distribution:
    blocks = ex.successes(p["defense"], 6, rules.BLOCK_AT)
    damage = ex.subtract(ex.point(p["hits"]), blocks).map(lambda d: np.maximum(d, 0))
    return damage.map(lambda d: np.maximum(d + p["damage_mod"], 0)).widen(
        0, rules.JUMP_DOWN_HITS + max(p["damage_mod"], 0)
    )


@trial_kernel
def jump_down_trial(state, p):  # pragma: no cover - numba
    """Fixed hits, then a block roll at 5+, then the damage modifier."""
    blocks = count_at_least(state, p[1], 6, rules.BLOCK_AT)
    return max(max(p[0] - blocks, 0) + p[2], 0)


JUMP_DOWN = Mechanic(
    system="rapture",
    name="jump-down",
    summary="Wounds from a fall higher than half MOV: 3 hits reduced by TEC, then blocked.",
    rules='"Action: Jump Down", "Blocking Hits"',
    options=(
        Option("tec", int, "the model's TEC", required=True, minimum=0, maximum=MAX_DICE),
        Option("defense", int, "the model's DEF", required=True, minimum=0, maximum=MAX_DICE),
        Option(
            "damage-mod",
            int,
            "damage modifier after blocks",
            default=0,
            minimum=-MAX_DICE,
            maximum=MAX_DICE,
        ),
    ),
    extra_params=_jump_hits,
    exact=_jump_exact,
    encode=lambda p: np.array([p["hits"], p["defense"], p["damage_mod"]]),
    trial=jump_down_trial,
    example={"tec": 1, "defense": 1},
)


def _terrain_target(p: Params) -> Params:
    return {"roll_at_least": max(rules.DIFFICULT_TERRAIN_AT - p["tec"], 1)}


@trial_kernel
def at_least_trial(state, p):  # pragma: no cover - numba
    """One die with p[0] sides: 1 if it shows at least p[1]."""
    return 1 if roll_die(state, p[0]) >= p[1] else 0


TERRAIN = Mechanic(
    system="rapture",
    name="terrain",
    summary="Difficult terrain test: 1 pass, 0 fail (distance doubled on a fail).",
    rules='"Difficult Terrain" (1D6 at 5+, improved by TEC)',
    options=(Option("tec", int, "the unit's TEC", required=True, minimum=0, maximum=MAX_DICE),),
    extra_params=_terrain_target,
    exact=lambda p: ex.successes(1, 6, p["roll_at_least"]),
    encode=lambda p: np.array([6, p["roll_at_least"]]),
    trial=at_least_trial,
    example={"tec": 2},
)

MECHANICS = {m.name: m for m in (ATTACK, ASCENSION, MORALE, FATE, JUMP_DOWN, TERRAIN)}
