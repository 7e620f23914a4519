"""Hybrid roll mechanics: exact vs brute force, Monte Carlo vs exact, rulebook examples.

The resolvers below are a literal, independent reading of ``hybrid.txt`` applied to
given die faces; they never call the exact engine.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from analyzer.dice.mechanic import Mechanic, analyze
from analyzer.errors import InputError
from analyzer.games.hybrid.rolls import MECHANICS
from tests.mc_checks import assert_matches_enumeration, assert_mc_matches_exact, enumerate_outcomes

D10 = tuple(range(1, 11))  # the 0 face counts as 10 ("Natural Roll")
NATURAL = MECHANICS["natural-roll"]
STRIKE = MECHANICS["strike"]
FIRE = MECHANICS["fire"]
ACTIVATION = MECHANICS["activation"]
ROCKFALL = MECHANICS["prison-rockfall"]
MC_TRIALS = 200_000


# --------------------------------------------------------------- resolvers
def natural(face: int, sl: int, duellist: int = 1) -> int:
    """Outcome of one die: 2 Perfect Success, 1 success, 0 failure, -1 Critical Failure."""
    if face == 10:  # "Critical Failure ... fails, regardless of any modifiers"
        return -1
    if face == 1 or face <= duellist:  # "Perfect Success" / "Duellist/X"
        return 2
    return 1 if face <= sl else 0


def natural_roll(faces: tuple[int, ...], sl: int, duellist: int = 1, mode: str = "one") -> int:
    """A Natural Roll from the rolled faces.

    ``mode``: "one" (one die), "best"/"worst" (2D10, one die chosen), "luck" (one die
    plus Luck's extra die), "best-luck" (2D10 plus Luck's extra die).
    """
    outcomes = [natural(f, sl, duellist) for f in faces]
    if mode == "one":
        return outcomes[0]
    if mode == "best":
        return max(outcomes)
    if mode == "worst":
        return min(outcomes)
    # Luck: "remove any one die and apply the result, however, you may not remove a
    # Critical Failure result"; the roller removes the die that leaves the best roll.
    keep_two = mode == "best-luck"
    results = []
    for i, removed in enumerate(outcomes):
        if removed == -1:
            continue
        rest = outcomes[:i] + outcomes[i + 1 :]
        results.append(max(rest) if keep_two else rest[0])
    return max(results) if results else -1


def strike(
    attack: tuple[int, ...],
    parry: tuple[int, ...] = (),
    counter: int | None = None,
    *,
    sl: int,
    duellist: int = 1,
    heroic: bool = False,
    parry_sl: int | None = None,
    novice: bool = False,
    counter_sl: int | None = None,
    counter_duellist: int = 1,
    unparryable_perfect: bool = False,
) -> int:
    """Wounds to the target (negative: to the attacker) of one strike, from the faces rolled.

    ``attack`` holds 1 die, or 2 for Master Strike (the attacker keeps the better one);
    ``parry`` holds the defender's 1 die, or 2 for Master Parry.
    """
    roll = max(natural(f, sl, duellist) for f in attack)
    base = 2 if heroic else 1  # "6 / Heroic Strike"
    if roll == -1:
        return -1 if novice else 0  # "2 / Novice Parry": attacker's Critical Failure
    if roll == 0:
        return 0
    wounds = base + 1 if roll == 2 else base  # a Perfect Success adds one wound
    if parry_sl is None or (roll == 2 and unparryable_perfect):
        return wounds
    defence = max(natural(f, parry_sl) for f in parry)  # no Duellist in Defensive Combat
    if defence <= 0:
        return wounds
    if novice and defence == 2:
        return -1  # "2 / Novice Parry": defender's Perfect Success
    if counter_sl is not None:  # "3 / Skilled Parry": a Basic Strike back
        assert counter is not None
        hit = natural(counter, counter_sl, counter_duellist)
        return -2 if hit == 2 else -1 if hit == 1 else 0
    return 0


def fire(
    shots: list[tuple[int, int]],
    *,
    sl: int,
    duellist: int = 1,
    keep_best_faces: list[tuple[int, int]] | None = None,
    parry_sl: int | None = None,
    heroic_parry: bool = False,
    unparryable_perfect: bool = False,
) -> int:
    """Total wounds of one or two shots; each shot is (attack face, parry face).

    With ``keep_best_faces`` each shot's attack is a Master Firing pair instead.
    """
    total = 0
    dodging = parry_sl is not None
    current_sl = parry_sl
    for i, (attack_face, parry_face) in enumerate(shots):
        attack = keep_best_faces[i] if keep_best_faces else (attack_face,)
        roll = max(natural(f, sl, duellist) for f in attack)
        if roll <= 0:
            continue
        wounds = 2 if roll == 2 else 1
        if dodging and not (roll == 2 and unparryable_perfect):
            assert current_sl is not None
            if natural(parry_face, current_sl) > 0:
                continue  # parried: "Basic Parry also applies when dodging a ranged attack"
        total += wounds
        # "if a warrior takes a wound while in Defensive Combat Mode ... this Mode is
        # immediately switched off, except for Heroic Defense"; SL = NV - wounds.
        if heroic_parry and current_sl is not None:
            current_sl -= wounds
        else:
            dodging = False
    return total


def activation_round(fa: int, fb: int, a: int, b: int, always: bool = False) -> str:
    """One Activation Roll (player rolls ``fa`` with ``a`` Action points, opponent ``fb``/``b``)."""
    if (fa == 1 and fb == 1) or (fa == 10 and fb == 10):
        return "restart"  # "rolled again, without taking Action points into account"
    if fa == 10:
        return "lose"  # "A player who rolls a 10 ... automatically fails"
    if fb == 10:
        return "win"
    if always and fa == 1:
        return "win"
    if always and fb == 1:
        return "lose"
    ra, rb = fa - a, fb - b  # "the player with the LOWER result wins"
    if ra != rb:
        return "win" if ra < rb else "lose"
    if fa == 1:
        return "win"  # natural 1 against the same result reached with Action points
    if fb == 1:
        return "lose"
    return "tie"


def activation_win(a: int, b: int, always: bool = False) -> Fraction:
    """Chance this player wins, solving the reroll loops with exact fractions."""

    def one_round(a: int, b: int) -> dict[str, Fraction]:
        counts = {"win": 0, "lose": 0, "tie": 0, "restart": 0}
        for fa in D10:
            for fb in D10:
                counts[activation_round(fa, fb, a, b, always)] += 1
        return {k: Fraction(v, 100) for k, v in counts.items()}

    plain = one_round(0, 0)
    # without Action points every repeat stays without them: q0 = win0 / (win0 + lose0)
    q0 = plain["win"] / (plain["win"] + plain["lose"])
    first = one_round(a, b)
    return (first["win"] + first["restart"] * q0) / (1 - first["tie"])


def rockfall_tile(face: int) -> int | None:
    """Heresiarch's Prison: tile 1..7, None for "roll again", 0 for nothing."""
    if face <= 7:
        return face
    if face in (8, 9):
        return None
    return 0


# ------------------------------------------------------------------- helpers
def exact_of(mechanic: Mechanic, raw: dict[str, Any]) -> Any:
    return analyze(mechanic, raw, trials=0, seed=0)


def check_enumeration(mechanic: Mechanic, raw: dict[str, Any], brute: dict[int, Fraction]) -> None:
    result = exact_of(mechanic, raw)
    assert abs(result.exact.sum() - 1.0) < 1e-12
    assert_matches_enumeration(result.outcomes, result.exact, brute)


# ----------------------------------------------------------- natural roll
NATURAL_GRID = [
    (sl, duellist, mode)
    for sl in (-3, 0, 1, 2, 5, 9, 10, 14)
    for duellist in (1, 3)
    for mode in ("one", "best", "worst", "luck", "best-luck")
]


def _natural_raw(sl: int, duellist: int, mode: str) -> dict[str, Any]:
    return {
        "sl": sl,
        "duellist": duellist,
        "keep_best": mode in ("best", "best-luck"),
        "keep_worst": mode == "worst",
        "luck": mode in ("luck", "best-luck"),
    }


@pytest.mark.parametrize(("sl", "duellist", "mode"), NATURAL_GRID)
def test_natural_roll_matches_enumeration(sl: int, duellist: int, mode: str) -> None:
    n_dice = {"one": 1, "best": 2, "worst": 2, "luck": 2, "best-luck": 3}[mode]
    brute = enumerate_outcomes([D10] * n_dice, lambda f: natural_roll(f, sl, duellist, mode))
    check_enumeration(NATURAL, _natural_raw(sl, duellist, mode), brute)


@pytest.mark.parametrize(
    ("sl", "duellist", "mode", "seed"),
    [
        (3, 1, "one", 11),
        (6, 2, "best", 12),
        (4, 1, "worst", 13),
        (5, 1, "luck", 14),
        (7, 3, "best-luck", 15),
        (-2, 1, "one", 16),
    ],
)
def test_natural_roll_mc_matches_exact(sl: int, duellist: int, mode: str, seed: int) -> None:
    assert_mc_matches_exact(analyze(NATURAL, _natural_raw(sl, duellist, mode), MC_TRIALS, seed))


# ------------------------------------------------------------------ strike
STRIKE_GRID: list[dict[str, Any]] = [
    {"sl": 4},
    {"sl": 0},
    {"sl": 12},
    {"sl": 5, "keep_best": True},
    {"sl": 5, "heroic": True},
    {"sl": 3, "duellist": 3},
    {"sl": 2, "duellist": 4, "heroic": True},
    {"sl": 5, "parry_sl": 4},
    {"sl": 6, "keep_best": True, "duellist": 2, "parry_sl": 5},
    {"sl": 5, "heroic": True, "parry_sl": 3, "parry_keep_best": True},
    {"sl": 4, "parry_sl": 6, "novice_parry": True},
    {"sl": 7, "keep_best": True, "parry_sl": 2, "novice_parry": True},
    {"sl": 5, "heroic": True, "parry_sl": 5, "counter_sl": 4},
    {"sl": 6, "duellist": 2, "parry_sl": 4, "counter_sl": 7, "counter_duellist": 3},
    {"sl": 5, "parry_sl": 5, "unparryable_perfect": True},
    {"sl": 3, "duellist": 3, "parry_sl": 8, "parry_keep_best": True, "unparryable_perfect": True},
    {"sl": 4, "heroic": True, "parry_sl": -2, "novice_parry": True, "unparryable_perfect": True},
]


def _strike_brute(raw: dict[str, Any]) -> dict[int, Fraction]:
    attack_dice = 2 if raw.get("keep_best") else 1
    parry_dice = 0 if raw.get("parry_sl") is None else 2 if raw.get("parry_keep_best") else 1
    counter_dice = 1 if raw.get("counter_sl") is not None else 0
    kwargs = {
        "sl": raw["sl"],
        "duellist": raw.get("duellist", 1),
        "heroic": raw.get("heroic", False),
        "parry_sl": raw.get("parry_sl"),
        "novice": raw.get("novice_parry", False),
        "counter_sl": raw.get("counter_sl"),
        "counter_duellist": raw.get("counter_duellist", 1),
        "unparryable_perfect": raw.get("unparryable_perfect", False),
    }

    def outcome(faces: tuple[int, ...]) -> int:
        attack = faces[:attack_dice]
        parry = faces[attack_dice : attack_dice + parry_dice]
        counter = faces[-1] if counter_dice else None
        return strike(attack, parry, counter, **kwargs)

    return enumerate_outcomes([D10] * (attack_dice + parry_dice + counter_dice), outcome)


@pytest.mark.parametrize("raw", STRIKE_GRID)
def test_strike_matches_enumeration(raw: dict[str, Any]) -> None:
    check_enumeration(STRIKE, raw, _strike_brute(raw))


@pytest.mark.parametrize(
    ("raw", "seed"),
    [(STRIKE_GRID[i], 100 + i) for i in (0, 3, 4, 6, 9, 11, 13, 15)],
)
def test_strike_mc_matches_exact(raw: dict[str, Any], seed: int) -> None:
    assert_mc_matches_exact(analyze(STRIKE, raw, MC_TRIALS, seed))


def test_strike_events() -> None:
    result = exact_of(STRIKE, {"sl": 4, "parry_sl": 6, "novice_parry": True})
    brute = _strike_brute({"sl": 4, "parry_sl": 6, "novice_parry": True})
    assert (
        abs(result.events["p_wound"].exact - float(sum(p for o, p in brute.items() if o > 0)))
        < 1e-12
    )
    wounded_attacker = float(sum(p for o, p in brute.items() if o < 0))
    assert abs(result.events["p_attacker_wounded"].exact - wounded_attacker) < 1e-12
    # a Critical Failure (0.1) or a successful attack (0.4) met by a Perfect Success (0.1)
    assert abs(wounded_attacker - (0.1 + 0.4 * 0.1)) < 1e-12


# -------------------------------------------------------------------- fire
FIRE_GRID: list[dict[str, Any]] = [
    {"sl": 5},
    {"sl": 6, "keep_best": True, "duellist": 2},
    {"sl": 6, "parry_sl": 4},
    {"sl": 4, "heroic": True},
    {"sl": 6, "heroic": True, "parry_sl": 5},
    {"sl": 7, "heroic": True, "duellist": 3, "parry_sl": 6, "heroic_parry": True},
    {"sl": 5, "heroic": True, "parry_sl": 2, "heroic_parry": True, "unparryable_perfect": True},
    {"sl": 8, "keep_best": True, "parry_sl": 7, "unparryable_perfect": True},
]


def _fire_brute(raw: dict[str, Any]) -> dict[int, Fraction]:
    shots = 2 if raw.get("heroic") else 1
    master = bool(raw.get("keep_best"))
    kwargs = {
        "sl": raw["sl"],
        "duellist": raw.get("duellist", 1),
        "parry_sl": raw.get("parry_sl"),
        "heroic_parry": raw.get("heroic_parry", False),
        "unparryable_perfect": raw.get("unparryable_perfect", False),
    }
    per_shot = 3 if master else 2  # attack die (+ Master Firing die), parry die

    def outcome(faces: tuple[int, ...]) -> int:
        chunks = [faces[i * per_shot : (i + 1) * per_shot] for i in range(shots)]
        pairs = [(c[0], c[-1]) for c in chunks]
        best = [(c[0], c[1]) for c in chunks] if master else None
        return fire(pairs, keep_best_faces=best, **kwargs)

    return enumerate_outcomes([D10] * (per_shot * shots), outcome)


@pytest.mark.parametrize("raw", FIRE_GRID)
def test_fire_matches_enumeration(raw: dict[str, Any]) -> None:
    check_enumeration(FIRE, raw, _fire_brute(raw))


@pytest.mark.parametrize(("raw", "seed"), [(FIRE_GRID[i], 200 + i) for i in (1, 4, 5, 6)])
def test_fire_mc_matches_exact(raw: dict[str, Any], seed: int) -> None:
    assert_mc_matches_exact(analyze(FIRE, raw, MC_TRIALS, seed))


# -------------------------------------------------------------- activation
ACTIVATION_GRID = [
    (a, b, always)
    for a, b in ((0, 0), (1, 0), (0, 2), (3, 1), (4, 4), (9, 0), (0, 12))
    for always in (False, True)
]


@pytest.mark.parametrize(("a", "b", "always"), ACTIVATION_GRID)
def test_activation_matches_brute_force(a: int, b: int, always: bool) -> None:
    win = activation_win(a, b, always)
    raw = {"points": a, "opponent_points": b, "perfect_always_wins": always}
    check_enumeration(ACTIVATION, raw, {1: win, 0: 1 - win})


@pytest.mark.parametrize(
    ("a", "b", "always", "seed"),
    [(0, 0, False, 301), (2, 1, False, 302), (0, 3, True, 303), (5, 0, False, 304)],
)
def test_activation_mc_matches_exact(a: int, b: int, always: bool, seed: int) -> None:
    raw = {"points": a, "opponent_points": b, "perfect_always_wins": always}
    assert_mc_matches_exact(analyze(ACTIVATION, raw, MC_TRIALS, seed))


def test_activation_without_points_is_fair() -> None:
    assert activation_win(0, 0) == Fraction(1, 2)
    assert abs(exact_of(ACTIVATION, {}).events["p_win"].exact - 0.5) < 1e-15


# ---------------------------------------------------------------- rockfall
def test_prison_rockfall_matches_brute_force() -> None:
    tiles = {f: rockfall_tile(f) for f in D10}
    settled = [t for t in tiles.values() if t is not None]  # a reroll repeats the same die
    brute = {t: Fraction(settled.count(t), len(settled)) for t in set(settled)}
    check_enumeration(ROCKFALL, {}, brute)


def test_prison_rockfall_mc_matches_exact() -> None:
    assert_mc_matches_exact(analyze(ROCKFALL, {}, MC_TRIALS, 401))


# ---------------------------------------------------- rulebook worked examples
def test_example_purifier_nv3_needs_1_to_3() -> None:
    """ "Natural Roll": Purifier, NV 3, needs 1, 2 or 3."""
    assert [f for f in D10 if natural_roll((f,), 3) > 0] == [1, 2, 3]
    assert abs(exact_of(NATURAL, {"sl": 3}).events["p_success"].exact - 0.3) < 1e-12


def test_example_seneschal_firing_sl() -> None:
    """FAQ: Seneschal, 2 wounds, +1 Combined Weapon: SL = 4 - 2 + 1 = 3."""
    assert [f for f in D10 if natural_roll((f,), 4 - 2 + 1) > 0] == [1, 2, 3]


def test_example_hybrid_sword_and_rear_attack() -> None:
    """Examples 1 and 2: Hybrid strikes at 3+2 = 5, from the rear at 3+2+1 = 6."""
    assert [f for f in D10 if strike((f,), sl=3 + 2) > 0] == [1, 2, 3, 4, 5]
    assert [f for f in D10 if strike((f,), sl=3 + 2 + 1) > 0] == [1, 2, 3, 4, 5, 6]
    assert abs(exact_of(STRIKE, {"sl": 6}).events["p_wound"].exact - 0.6) < 1e-12


def test_example_sl_ten_fails_only_on_critical() -> None:
    """ "NV is 5, and who also has a +5 modifier ... if he rolls a 10 ... total failure"."""
    assert [natural_roll((f,), 10) for f in D10] == [2] + [1] * 8 + [-1]
    result = exact_of(NATURAL, {"sl": 5 + 5})
    assert result.events["p_critical"].exact == pytest.approx(0.1, abs=1e-12)
    assert result.events["p_success"].exact == pytest.approx(0.9, abs=1e-12)
    assert result.params["effective_sl"] == 9


def test_example_perfect_success_always_succeeds() -> None:
    """ "even a badly wounded warrior": a 1 succeeds at any SL, and wounds twice when firing."""
    assert natural_roll((1,), -4) == 2
    assert fire([(1, 10)], sl=-4) == 2
    assert exact_of(FIRE, {"sl": -4}).exact.tolist() == pytest.approx([0.9, 0.0, 0.1], abs=1e-12)


def test_example_duellist_two() -> None:
    """Duellist/2: a Perfect Success on a 1 or a 2 (two wounds)."""
    assert [strike((f,), sl=5, duellist=2) for f in D10] == [2, 2, 1, 1, 1, 0, 0, 0, 0, 0]
    dist = exact_of(STRIKE, {"sl": 5, "duellist": 2}).exact.tolist()
    assert dist == pytest.approx([0.5, 0.3, 0.2], abs=1e-12)


def test_example_heroic_strike() -> None:
    """Heroic Strike: two wounds on a success, three on a Perfect Success."""
    assert strike((4,), sl=5, heroic=True) == 2
    assert strike((1,), sl=5, heroic=True) == 3
    assert strike((6,), sl=5, heroic=True) == 0


def test_example_skorize_skilled_strike() -> None:
    """FAQ (Infiltration): a Perfect Success (2 wounds) and a plain hit (1) make 3."""
    assert strike((1,), sl=4) + strike((3,), sl=4) == 3


def test_example_combined_attack_seneschal() -> None:
    """FAQ (Combined Attack): one die against Seneschal's printed NV 4, 2 wounds on a 1."""
    dist = exact_of(STRIKE, {"sl": 4}).exact.tolist()
    assert dist == pytest.approx([0.6, 0.3, 0.1], abs=1e-12)


def test_example_master_strike_chooses_either_die() -> None:
    """Master Strike: "free to choose which die's result he wants to use"."""
    assert strike((10, 2), sl=5) == 1
    assert strike((7, 1), sl=5) == 2
    assert strike((10, 10), sl=5, parry_sl=5, novice=True, parry=(3,)) == -1


def test_example_novice_parry() -> None:
    """Novice Parry: the attacker's Critical Failure, or a Perfect Success parry, wounds him."""
    assert strike((10,), (5,), sl=5, parry_sl=5, novice=True) == -1
    assert strike((3,), (1,), sl=5, parry_sl=5, novice=True) == -1
    assert strike((3,), (2,), sl=5, parry_sl=5, novice=True) == 0
    assert strike((1,), (1,), sl=5, parry_sl=5, novice=True) == -1


def test_example_luck_keeps_a_critical_failure() -> None:
    """Luck: "you may not remove a Critical Failure result"."""
    assert natural_roll((10, 3), 5, mode="luck") == -1
    assert natural_roll((7, 3), 5, mode="luck") == 1
    assert natural_roll((10, 7, 3), 5, mode="best-luck") == 1
    assert natural_roll((10, 10, 3), 5, mode="best-luck") == -1
    result = exact_of(NATURAL, {"sl": 5, "luck": True})
    assert result.events["p_critical"].exact == pytest.approx(0.19, abs=1e-12)


def test_example_activation_roll() -> None:
    """Activation Roll: a natural 1 beats a 1 reached with Action points; a 10 always loses."""
    assert activation_round(1, 3, 0, 2) == "win"
    assert activation_round(3, 1, 2, 0) == "lose"
    assert activation_round(10, 9, 9, 0) == "lose"
    assert activation_round(1, 1, 3, 0) == "restart"
    assert activation_round(4, 6, 0, 2) == "tie"
    assert activation_win(20, 0) > activation_win(3, 0) > activation_win(0, 0)


def test_example_prison_rockfall() -> None:
    """Heresiarch's Prison: 1-7 names a tile, 8 or 9 is rolled again, 10 is nothing."""
    assert [rockfall_tile(f) for f in D10] == [1, 2, 3, 4, 5, 6, 7, None, None, 0]
    assert exact_of(ROCKFALL, {}).exact.tolist() == pytest.approx([1 / 8] * 8, abs=1e-12)


def test_parried_perfect_strike_loses_every_wound() -> None:
    """ "if it succeeds, the enemy attack is parried": Perfect and Heroic wounds included."""
    assert strike((1,), (2,), sl=5, heroic=True, parry_sl=4) == 0
    assert strike((1,), (2,), sl=5, heroic=True, parry_sl=4, unparryable_perfect=True) == 3
    parried = exact_of(STRIKE, {"sl": 5, "heroic": True, "parry_sl": 4})
    unparryable = exact_of(
        STRIKE, {"sl": 5, "heroic": True, "parry_sl": 4, "unparryable_perfect": True}
    )
    assert parried.exact[-1] == pytest.approx(0.1 * 0.6, abs=1e-12)
    assert unparryable.exact[-1] == pytest.approx(0.1, abs=1e-12)


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("mechanic", "raw"),
    [
        (NATURAL, {}),
        (NATURAL, {"sl": 21}),
        (NATURAL, {"sl": -11}),
        (NATURAL, {"sl": 5, "duellist": 0}),
        (NATURAL, {"sl": 5, "duellist": 10}),
        (NATURAL, {"sl": 5, "keep_best": True, "keep_worst": True}),
        (NATURAL, {"sl": 5, "keep_worst": True, "luck": True}),
        (NATURAL, {"sl": 5, "heroic": True}),
        (STRIKE, {"sl": 5, "keep_best": True, "heroic": True}),
        (STRIKE, {"sl": 5, "parry_keep_best": True}),
        (STRIKE, {"sl": 5, "novice_parry": True}),
        (STRIKE, {"sl": 5, "counter_sl": 4}),
        (STRIKE, {"sl": 5, "unparryable_perfect": True}),
        (STRIKE, {"sl": 5, "parry_sl": 4, "parry_keep_best": True, "novice_parry": True}),
        (STRIKE, {"sl": 5, "parry_sl": 4, "novice_parry": True, "counter_sl": 4}),
        (STRIKE, {"sl": 5, "parry_sl": 4, "parry_keep_best": True, "counter_sl": 4}),
        (STRIKE, {"sl": 5, "parry_sl": 4, "counter_duellist": 2}),
        (STRIKE, {"sl": 5, "parry_sl": 4, "counter_sl": 4, "counter_duellist": 10}),
        (STRIKE, {"sl": 5, "parry_sl": 21}),
        (FIRE, {"sl": 5, "keep_best": True, "heroic": True}),
        (FIRE, {"sl": 5, "heroic_parry": True}),
        (FIRE, {"sl": 5, "unparryable_perfect": True}),
        (FIRE, {"sl": 5, "parry_sl": 4, "novice_parry": True}),
        (ACTIVATION, {"points": -1}),
        (ACTIVATION, {"opponent_points": 21}),
    ],
)
def test_bad_input_raises(mechanic: Mechanic, raw: dict[str, Any]) -> None:
    with pytest.raises(InputError):
        analyze(mechanic, raw, trials=10, seed=0)


def test_registry() -> None:
    assert set(MECHANICS) == {"natural-roll", "strike", "fire", "activation", "prison-rockfall"}
    for name, mechanic in MECHANICS.items():
        assert mechanic.name == name and mechanic.system == "hybrid"
