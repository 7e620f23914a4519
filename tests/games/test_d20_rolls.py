"""d20 skirmish roll mechanics: exact vs brute force, Monte Carlo vs exact, rulebook examples."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from analyzer.dice.mechanic import analyze
from analyzer.errors import InputError
from analyzer.games.d20 import rolls
from tests.mc_checks import assert_matches_enumeration, assert_mc_matches_exact, enumerate_outcomes

M = rolls.MECHANICS
D20 = list(range(1, 21))
COVER = {"none": 0, "slight": 1, "intermediate": 2, "heavy": 3}


# ------------------------------------------------------- literal resolvers
def resolve(result: int, physical_defense: int) -> int:
    """ "3.2 Shots": higher than the PD hits for the difference; lower or equal misses."""
    if result > physical_defense:
        return result - physical_defense
    return 0


def shot(die: int, p: dict[str, Any]) -> int:
    """Shot + Weapon's Power + 1D20 (+1 from the rear) against PD + cover (+1 watchful)."""
    skill = p["skill"]
    if p.get("retreating"):
        skill = (skill + 1) // 2  # "divided by two (rounded off at the higher figure)"
    result = skill + p.get("dexterity", 0) + p["power"] + die + (1 if p.get("rear") else 0)
    pd = p["defense"] + COVER[p.get("cover", "none")] + (1 if p.get("watchful") else 0)
    return resolve(result, pd)


def melee(die: int, p: dict[str, Any]) -> int:
    """Skill + Force + Weapon's Power + 1D20 (+synergy up to 3, +1 rear) against PD."""
    synergy = min(p.get("synergy", 0), 3)
    result = p["skill"] + p.get("force", 0) + p["power"] + die + synergy
    result += 1 if p.get("rear") else 0
    return resolve(result, p["defense"] + (1 if p.get("watchful") else 0))


def throw(die: int, p: dict[str, Any]) -> int:
    """Object's DL + Figurine's Power + 1D20 against PD (a Shot: cover and rear apply)."""
    result = p["dl"] + p["power"] + die + (1 if p.get("rear") else 0)
    pd = p["defense"] + COVER[p.get("cover", "none")] + (1 if p.get("watchful") else 0)
    return resolve(result, pd)


def check_exact(name: str, params: dict[str, Any], brute: dict) -> None:
    result = analyze(M[name], params, trials=0, seed=0)
    assert abs(result.exact.sum() - 1.0) < 1e-12
    assert_matches_enumeration(result.outcomes, result.exact, brute)


# ---------------------------------------------------------------- attacks
SHOT_GRID = [
    {"skill": 0, "power": 0, "defense": 0},
    {"skill": 0, "power": 0, "defense": 30},
    {"skill": 5, "power": 7, "defense": 18},
    {"skill": 5, "power": 7, "defense": 10},
    {"skill": 5, "dexterity": 3, "power": 7, "defense": 18, "cover": "slight"},
    {"skill": 6, "power": 7, "defense": 16, "cover": "intermediate", "rear": True},
    {"skill": 6, "power": 7, "defense": 16, "cover": "heavy", "watchful": True},
    {"skill": 7, "power": 7, "defense": 14, "retreating": True},
    {"skill": 8, "power": 2, "defense": 40, "retreating": True, "rear": True},
    {"skill": 100, "power": 100, "defense": 0},
]


@pytest.mark.parametrize("params", SHOT_GRID)
def test_shot_exact_matches_enumeration(params: dict[str, Any]) -> None:
    check_exact("shot", params, enumerate_outcomes([D20], lambda c: shot(c[0], params)))


MELEE_GRID = [
    {"skill": 5, "power": 6, "defense": 15},
    {"skill": 5, "force": 4, "power": 6, "defense": 22, "rear": True},
    {"skill": 3, "power": 1, "defense": 12, "synergy": 1},
    {"skill": 3, "power": 1, "defense": 12, "synergy": 3},
    {"skill": 3, "power": 1, "defense": 12, "synergy": 7},
    {"skill": 3, "power": 1, "defense": 12, "synergy": 2, "watchful": True, "rear": True},
    {"skill": 0, "power": 0, "defense": 25},
]


@pytest.mark.parametrize("params", MELEE_GRID)
def test_melee_exact_matches_enumeration(params: dict[str, Any]) -> None:
    check_exact("melee", params, enumerate_outcomes([D20], lambda c: melee(c[0], params)))


THROW_GRID = [
    {"dl": 5, "power": 9, "defense": 15},
    {"dl": 10, "power": 12, "defense": 30, "cover": "heavy"},
    {"dl": 15, "power": 16, "defense": 20, "rear": True, "watchful": True},
]


@pytest.mark.parametrize("params", THROW_GRID)
def test_throw_exact_matches_enumeration(params: dict[str, Any]) -> None:
    check_exact("throw", params, enumerate_outcomes([D20], lambda c: throw(c[0], params)))


def test_rulebook_shot_and_weapon_examples() -> None:
    """ "3.2 Shots" with the "Weapons" chart: a Nyx-type automatic rifle has Power 7."""
    # Shot 5 + Power 7 + a D20 of 10 = 22 against PD 18: hit, 4 CP lost.
    assert shot(10, {"skill": 5, "power": 7, "defense": 18}) == 4
    # "lower than or equal to the PD ... missed": 5 + 7 + 6 = 18 against 18.
    assert shot(6, {"skill": 5, "power": 7, "defense": 18}) == 0
    # "Shooting in the back": Gen SU 1 (rear arc) gets + 1 on his shots, Gen SU 2 does not.
    front = M["shot"].prepare({"skill": 5, "power": 7, "defense": 18})
    rear = M["shot"].prepare({"skill": 5, "power": 7, "defense": 18, "rear": True})
    assert rear["attack_total"] - front["attack_total"] == 1
    # A Psy soul (HtH, Power 6); a gun used as a club has Power 1 ("3.3" NOTA BENE).
    for power, mean in ((6, Fraction(136, 20)), (1, Fraction(66, 20))):
        params = {"skill": 5, "power": power, "defense": 15}
        assert sum(Fraction(melee(d, params), 20) for d in D20) == mean
        assert analyze(M["melee"], params, 0, 0).mean.exact == pytest.approx(float(mean))
    # The exact engine puts the printed example's 4 CP at 1/20 (the D20 must show 10).
    res = analyze(M["shot"], {"skill": 5, "power": 7, "defense": 18}, 0, 0)
    assert res.exact[list(res.outcomes).index(4)] == pytest.approx(1 / 20, abs=1e-15)


def test_synergy_is_capped_at_three() -> None:
    three = M["melee"].prepare({"skill": 3, "power": 1, "defense": 12, "synergy": 3})
    five = M["melee"].prepare({"skill": 3, "power": 1, "defense": 12, "synergy": 5})
    assert five["synergy_bonus"] == three["synergy_bonus"] == 3
    assert five["attack_total"] == three["attack_total"]


def test_retreating_halves_skill_rounded_up() -> None:
    p = M["shot"].prepare({"skill": 7, "power": 0, "defense": 0, "retreating": True})
    assert p["effective_skill"] == 4


MC_ATTACKS = [
    ("shot", {"skill": 5, "power": 7, "defense": 18, "cover": "slight"}, 51),
    ("shot", {"skill": 9, "power": 7, "defense": 12, "rear": True, "retreating": True}, 52),
    ("melee", {"skill": 5, "force": 4, "power": 6, "defense": 20, "synergy": 4}, 53),
    ("melee", {"skill": 2, "power": 1, "defense": 30, "watchful": True}, 54),
    ("throw", {"dl": 10, "power": 14, "defense": 28, "cover": "intermediate"}, 55),
]


@pytest.mark.parametrize(("name", "params", "seed"), MC_ATTACKS)
def test_attacks_mc_matches_exact(name: str, params: dict[str, Any], seed: int) -> None:
    result = analyze(M[name], params, trials=200_000, seed=seed)
    assert_mc_matches_exact(result)
    assert result.events["p_hit"].exact == pytest.approx(1.0 - result.exact[0], abs=1e-12)


# ------------------------------------------------------------ opposed rolls
@pytest.mark.parametrize(("hth", "enemy"), [(0, 0), (5, 7), (12, 3), (0, 19), (0, 25), (30, 0)])
def test_retreat_exact_matches_enumeration(hth: int, enemy: int) -> None:
    """ "If the test succeeds (the result is higher)": a draw does not retreat."""
    brute = enumerate_outcomes([D20, D20], lambda c: int(hth + c[0] > enemy + c[1]))
    check_exact("retreat", {"hth": hth, "enemy_hth": enemy}, brute)


@pytest.mark.parametrize(("mine", "theirs"), [(0, 0), (2, 0), (0, 3), (1, 1), (25, 0)])
def test_first_player_exact_matches_enumeration(mine: int, theirs: int) -> None:
    """A draw is thrown again, so P = (higher pairs) / (higher + lower pairs)."""
    higher = sum(a + mine > b + theirs for a in D20 for b in D20)
    lower = sum(a + mine < b + theirs for a in D20 for b in D20)
    p = Fraction(higher, higher + lower)
    brute = {k: v for k, v in {1: p, 0: 1 - p}.items() if v}
    check_exact("first-player", {"characters": mine, "enemy_characters": theirs}, brute)


MC_OPPOSED = [
    ("retreat", {"hth": 5, "enemy_hth": 7}, 61),
    ("retreat", {"hth": 14, "enemy_hth": 9}, 62),
    ("first-player", {"characters": 2}, 63),
    ("first-player", {"characters": 1, "enemy_characters": 4}, 64),
]


@pytest.mark.parametrize(("name", "params", "seed"), MC_OPPOSED)
def test_opposed_mc_matches_exact(name: str, params: dict[str, Any], seed: int) -> None:
    assert_mc_matches_exact(analyze(M[name], params, trials=200_000, seed=seed))


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("name", "params", "fragment"),
    [
        ("shot", {"skill": -1, "power": 7, "defense": 10}, "--skill must be >= 0"),
        ("shot", {"skill": 5, "power": 101, "defense": 10}, "--power must be <= 100"),
        ("shot", {"skill": 5, "power": 7}, "--defense is required"),
        ("shot", {"skill": 5, "power": 7, "defense": 10, "cover": "total"}, "--cover must be"),
        ("shot", {"skill": 5, "power": 7, "defense": 10, "synergy": 1}, "unknown parameter"),
        ("melee", {"skill": 5, "power": 6, "defense": 10, "synergy": -1}, "--synergy must be >= 0"),
        ("melee", {"skill": 5, "power": 6, "defense": 10, "cover": "slight"}, "unknown parameter"),
        ("throw", {"dl": 10, "power": 10, "defense": 10}, "maximum throwing distance"),
        ("throw", {"dl": 15, "power": 9, "defense": 10}, "cannot throw a DL 15"),
        ("throw", {"dl": 0, "power": 9, "defense": 10}, "--dl must be >= 1"),
        ("retreat", {"hth": 5}, "--enemy-hth is required"),
        ("first-player", {"characters": -2}, "--characters must be >= 0"),
    ],
)
def test_bad_input(name: str, params: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InputError) as err:
        analyze(M[name], params, trials=10, seed=1)
    assert fragment in str(err.value)
