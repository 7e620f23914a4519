"""Hybrid duels: Monte Carlo against the exact Markov chain, symmetry, monotonicity, rules."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
import pytest

from analyzer.dice.mechanic import Mechanic
from analyzer.dice.simulate import simulate_counts
from analyzer.duels import DRAW, WIN_A, WIN_B, DuelOptions, DuelResult, run_duel
from analyzer.errors import InputError
from analyzer.games.hybrid import duel as hd
from analyzer.games.hybrid import rolls
from analyzer.games.hybrid.units import Aptitude, Card, Equipment, load_units
from analyzer.stats import chi_square_pvalue
from tests.mc_checks import CHI2_THRESHOLD, SE_TOLERANCE

CARDS = load_units()
NAMES = list(CARDS)
TRIALS = 100_000
SEED = 20240611

# Test-only cards that reach every branch the sample data does not: Heroic Parry
# (DC >= 6), Master and Heroic Strike and Firing, Prestige, Duellist, Velocity, Titan.
PALADIN = Card(
    name="Paladin",
    points=30,
    rank=2,
    nv=5,
    oc=6,
    dc=7,
    f=5,
    mv=2,
    movement=5,
    equipment=[Equipment(name="Arbalest", offensive=1, defensive=1, firing=1, ranged=True)],
    aptitudes=[Aptitude(name="Prestige", value=1), Aptitude(name="Duellist", value=2)],
)
STALKER = Card(
    name="Stalker",
    points=30,
    rank=2,
    nv=4,
    oc=5,
    dc=6,
    f=6,
    mv=None,
    movement=4,
    base="large",
    equipment=[Equipment(name="Spines", offensive=2, firing=1, ranged=True)],
    aptitudes=[
        Aptitude(name="Velocity", value=1),
        Aptitude(name="Titan"),
        Aptitude(name="Combined Attack", value=2),
        Aptitude(name="Brutish Strength", value=1),
    ],
)
EXTRA = {"Paladin": PALADIN, "Stalker": STALKER}


def _card(name: str) -> Card:
    return EXTRA.get(name) or CARDS[name]


def _win(a: Card, b: Card, **options: object) -> float:
    model = hd.duel_model(a, b, DuelOptions(**options))  # type: ignore[arg-type]
    winner = model.space.decode()[0]
    exact = model.exact(True)
    assert exact is not None
    return float(exact[winner == WIN_A].sum())


def _assert_result_close(result: DuelResult) -> None:
    for name in ("win_a", "win_b", "draw", "rounds", "health_a", "health_b"):
        est = getattr(result, name)
        assert est.exact is not None and est.mc is not None and est.se is not None
        assert abs(est.mc - est.exact) <= SE_TOLERANCE * est.se + 1e-9, (name, est)


# ------------------------------------------------------------ MC vs exact
MC_CASES = [
    ("Hybrid", "Purifier", {}),
    ("Seneschal", "Aberration", {"first": "a"}),
    ("Venerable Ambrosius", "Hybrid", {"start": "range", "distance": 12, "first": "b"}),
    ("Pests of Flesh", "Hybrid", {"start": "range", "distance": 9, "first": "a"}),
    ("Aberration", "Purifier", {"start": "range", "distance": 6}),
    ("Paladin", "Stalker", {"max_rounds": 8}),
    ("Stalker", "Seneschal", {"start": "range", "distance": 14, "first": "a"}),
    ("Paladin", "Venerable Ambrosius", {"start": "range", "distance": 3, "first": "b"}),
]


@pytest.mark.parametrize(
    ("a", "b", "options"), MC_CASES, ids=[f"{a}-{b}-{o}" for a, b, o in MC_CASES]
)
def test_mc_matches_exact(a: str, b: str, options: dict) -> None:
    model = hd.duel_model(_card(a), _card(b), DuelOptions(**options))
    result = run_duel("hybrid", a, b, DuelOptions(**options), model, TRIALS, SEED)
    _assert_result_close(result)
    first = options.get("first", "alternate")
    for a_first in [True, False] if first == "alternate" else [first == "a"]:
        exact = model.exact(a_first)
        assert exact is not None
        counts = simulate_counts(
            model.trial, model.params(a_first), 0, model.space.size - 1, TRIALS // 2, SEED + 1
        )
        assert np.all(counts[exact == 0] == 0), "MC produced an impossible duel outcome"
        assert chi_square_pvalue(counts, exact) > CHI2_THRESHOLD


def test_exact_probabilities_sum_to_one() -> None:
    for (a, b), start in product(product(NAMES, NAMES), ("melee", "range")):
        model = hd.duel_model(CARDS[a], CARDS[b], DuelOptions(start=start, distance=10))
        for a_first in (True, False):
            exact = model.exact(a_first)
            assert exact is not None
            assert exact.min() >= 0.0
            assert abs(exact.sum() - 1.0) < 1e-12, (a, b, start, exact.sum())


# -------------------------------------------------------------- symmetry
@pytest.mark.parametrize("activation", ["roll", "fixed"])
@pytest.mark.parametrize("name", ["Hybrid", "Seneschal", "Paladin"])
def test_mirror_duel_is_even(name: str, activation: str) -> None:
    card = _card(name)
    options = DuelOptions(first="alternate")
    model = hd.duel_model(card, card, options, activation=activation)
    result = run_duel("hybrid", name, name, options, model, TRIALS, SEED)
    assert result.win_a.exact == pytest.approx(result.win_b.exact, abs=1e-12)
    _assert_result_close(result)
    # the joint law is symmetric: P(A wins, r, ha, hb) = P(B wins, r, hb, ha)
    space = model.space
    average = (model.exact(True) + model.exact(False)) / 2  # type: ignore[operator]
    health = range(card.nv + 1)
    for rounds, ha, hb in product(range(1, space.max_rounds + 1), health, health):
        win_a = average[space.index(WIN_A, rounds, ha, hb)]
        win_b = average[space.index(WIN_B, rounds, hb, ha)]
        assert win_a == pytest.approx(win_b, abs=1e-12)
        draw = average[space.index(DRAW, rounds, ha, hb)]
        assert draw == pytest.approx(average[space.index(DRAW, rounds, hb, ha)], abs=1e-12)


# --------------------------------------------------------- monotonicity
def _better(card: Card) -> Card:
    """Strictly better in every stat: NV, every Mastery Level, Movement, every modifier."""

    def up(level: int | None) -> int | None:
        return None if level is None else level + 1

    equipment = [
        e.model_copy(
            update={
                "offensive": e.offensive + 1,
                "defensive": e.defensive + 1,
                "firing": e.firing + 1,
            }
        )
        for e in card.equipment
    ]
    return card.model_copy(
        update={
            "nv": card.nv + 1,
            "oc": up(card.oc),
            "dc": up(card.dc),
            "f": up(card.f),
            "mv": up(card.mv),
            "movement": card.movement + 1,
            "equipment": equipment,
        }
    )


@pytest.mark.parametrize("name", NAMES)
def test_better_card_never_wins_less(name: str) -> None:
    card, better = CARDS[name], _better(CARDS[name])
    for foe in NAMES:
        for options in ({}, {"first": "b"}, {"start": "range", "distance": 12}):
            base = _win(card, CARDS[foe], **options)
            improved = _win(better, CARDS[foe], **options)
            assert improved >= base - 1e-12, (name, foe, options, base, improved)


# ------------------------------------------------------------ rule checks
def test_rulebook_success_levels() -> None:
    """ "Natural Roll": Seneschal with two wounds fires at Hybrid at SL 4 - 2 + 1 = 3;
    Hybrid strikes at 3 + 2 = 5 (Fused Weapons)."""
    duel = hd._Duel(CARDS["Seneschal"], CARDS["Hybrid"], DuelOptions(), "fixed")
    assert duel.row(0, 2, hd.R_FIRE_SL) == 3
    assert duel.row(1, 0, hd.R_OC_SL) == 5
    # "Action Modes": levels drop by 1 per wound, never below 1; "Movement and Wounds"
    assert [duel.row(1, w, hd.R_OC) for w in range(3)] == [4, 3, 2]
    assert [duel.row(1, w, hd.R_F) for w in range(3)] == [0, 0, 0]  # "-": cannot fire
    assert [duel.row(1, w, hd.R_MOVE) for w in range(3)] == [7, 6, 5]
    # Novice Strike ignores one wound
    assert duel.row(1, 2, hd.R_NOVICE_SL) == duel.row(1, 2, hd.R_OC_SL) + 1


def test_attack_vectors_are_the_rolls_mechanics() -> None:
    """The duel's strike and shot vectors are exactly what ``rolls``' mechanics encode.

    Paladin: OC SL 5 + 1 + Prestige 1 = 7, Firing SL 7 (Stalker's Titan +1 and Velocity/1
    -1 cancel), Duellist/2.  Stalker: DC SL 4, counter-blow (OC) SL 4 + 2 = 6.
    """
    duel = hd._Duel(PALADIN, STALKER, DuelOptions(), "fixed")
    strike, fire = rolls.STRIKE, rolls.FIRE
    cases: list[tuple[int, int, int, Mechanic, dict[str, Any]]] = [
        (
            hd.MASTER,
            hd.MASTER_PARRY,
            0,
            strike,
            {"sl": 7, "keep_best": True, "parry_keep_best": True},
        ),
        (hd.HEROIC, hd.SKILLED_PARRY, 0, strike, {"sl": 7, "heroic": True, "counter_sl": 6}),
        (hd.EXPERT, hd.NOVICE_PARRY, 0, strike, {"sl": 9, "novice_parry": True}),
        (1, hd.EXPERT_PARRY, 0, strike, {"sl": 7, "parry_sl": 6}),
        (hd.NOVICE, 0, 2, strike, {"sl": 5, "parry_sl": None}),  # 5 - 2 wounds + 1 + 1 ignored
        (
            hd.MASTER_SHOT,
            hd.HEROIC_PARRY,
            0,
            fire,
            {"sl": 7, "keep_best": True, "heroic_parry": True},
        ),
        (hd.HEROIC_SHOTS, hd.BASIC_PARRY, 0, fire, {"sl": 7, "heroic": True}),
    ]
    for kind, parry, wounds, mechanic, raw in cases:
        params = mechanic.prepare({"duellist": 2, "parry_sl": 4, **raw})
        expected = tuple(int(t) for t in mechanic.encode(params))
        assert duel._vec(0, kind, wounds, parry, 0) == expected, (kind, parry)


def test_strike_joint_marginal_is_rolls_attack_exact() -> None:
    duel = hd._Duel(PALADIN, STALKER, DuelOptions(), "fixed")
    for kind, parry, wa, wb in product(range(1, 7), range(7), range(3), range(3)):
        v = duel._vec(0, kind, wa, parry, wb)
        reference = rolls.attack_exact(np.array(v, dtype=np.int64), bool(v[5]), v[7])
        marginal: dict[int, float] = {}
        for wounds, _, q in hd._strike_joint(v):
            marginal[wounds] = marginal.get(wounds, 0.0) + q
        for wounds, q in zip(reference.outcomes, reference.probs):
            assert marginal.get(int(wounds), 0.0) == pytest.approx(q, abs=1e-15)


def test_activation_summary_by_hand() -> None:
    """Hybrid (SL 5) against Purifier (NV 3): Skilled Strike, two strikes when the first wounds.

    One strike: 2 wounds w.p. 1/10, 1 wound w.p. 4/10.  Expected wounds 0.6 + 0.5 * 0.6,
    minus the 4th wound that does not exist (2 + 2: 1/100) = 0.89; removed with 2 then >= 1
    (1/10 * 5/10) or 1 then 2 (4/10 * 1/10) = 0.09.
    """
    summary = hd.activation_summary(CARDS["Hybrid"], CARDS["Purifier"])
    assert summary.expected_wounds == pytest.approx(0.89, abs=1e-12)
    assert summary.kill_probability == pytest.approx(0.09, abs=1e-12)
    assert summary.target_health == 3
    # One health left: Expert Strike (SL 7) is best, and every success kills.
    pests = hd.activation_summary(CARDS["Hybrid"], CARDS["Pests of Flesh"])
    assert pests.expected_wounds == pytest.approx(0.7) and pests.kill_probability == 0.7


def test_combined_attack_by_hand() -> None:
    """Seneschal's Combined Attack: one die at the printed NV 4, no parry, after his strike."""
    duel = hd._Duel(CARDS["Seneschal"], CARDS["Aberration"], DuelOptions(), "fixed")
    st = duel._contact_state(0, 0, 0, hd.DC_ON, 1, 0)  # Aberration parries the strike
    outcome = duel.offensive(st, 0, 1)
    assert all(s[hd.S_CA] == 0 for s in outcome)  # used up
    strike = duel.offensive(duel._contact_state(0, 0, 0, hd.DC_ON, 0, 0), 0, 1)
    mean_with = sum(q * s[1] for s, q in outcome.items())
    mean_without = sum(q * s[1] for s, q in strike.items())
    # 1 wound on 2..4, 2 on a 1: 0.3 + 0.2 = 0.5 more (Aberration has 6 NV: never capped)
    assert mean_with - mean_without == pytest.approx(0.5, abs=1e-12)


def test_brutish_strength_knocks_back_after_a_successful_roll() -> None:
    """Aberration's Basic Strike at SL 6 + 1 = 7 succeeds 7 times in 10, parried or not."""
    duel = hd._Duel(CARDS["Aberration"], CARDS["Seneschal"], DuelOptions(), "fixed")
    for dc in (hd.DC_OFF, hd.DC_ON):
        outcome = duel.offensive(duel._contact_state(0, 0, 0, dc, 0, 0), 0, 1)
        pushed = sum(q for s, q in outcome.items() if s[hd.S_D] == 2)
        assert pushed == pytest.approx(0.7, abs=1e-12)


def test_heroic_parry_keeps_parrying_after_a_wound() -> None:
    duel = hd._Duel(STALKER, PALADIN, DuelOptions(), "fixed")
    st = duel._contact_state(0, 0, 0, hd.DC_ON, 0, 0)
    for parry, dc_after_wound in ((hd.HEROIC_PARRY, hd.DC_HEROIC), (hd.BASIC_PARRY, hd.DC_OFF)):
        for q, s, _ in duel.strikes(st, 0, hd.SKILLED, parry):
            if q > 0 and s[1] > 0:
                assert s[hd.S_DC + 1] == dc_after_wound


def test_skilled_strike_second_strike_against_heroic_parry() -> None:
    """Independent enumeration of two strikes at SL a against a Heroic Parry at SL d - wounds."""
    duel = hd._Duel(STALKER, PALADIN, DuelOptions(), "fixed")
    a_sl, d_sl = duel.row(0, 0, hd.R_OC_SL), duel.row(1, 0, hd.R_DC_SL)
    nv = PALADIN.nv

    def natural(face: int, sl: int, perfect: int = 1) -> int:
        return -1 if face == 10 else 2 if face <= perfect else 1 if face <= sl else 0

    def strike(att: int, par: int, sl: int) -> int:
        code = natural(att, a_sl)
        if code <= 0 or natural(par, sl) > 0:
            return 0
        return 2 if code == 2 else 1

    expected = Fraction(0)
    faces = range(1, 11)
    for a1, p1, a2, p2 in product(faces, faces, faces, faces):
        first = strike(a1, p1, d_sl)
        # Prestige/1 is lost with the first wound: the Heroic Parry SL drops by 1 more
        second = strike(a2, p2, d_sl - first - 1) if first else 0
        expected += Fraction(min(first + second, nv), 10**4)
    outcome = duel.strikes(duel._contact_state(0, 0, 0, hd.DC_ON, 0, 0), 0, hd.SKILLED, 6)
    assert sum(q * s[1] for q, s, _ in outcome) == pytest.approx(float(expected), abs=1e-12)


def test_sacrifice_eliminates_a_last_wound() -> None:
    """A Pest of Flesh that reaches a warrior with one NV left blows up: both are out.

    Against a Hybrid with NV 1 striking scores 0.2 - 0.5 (his Expert Strike reply),
    defending -0.45, sacrificing 1 - 1 = 0.
    """
    victim = CARDS["Hybrid"].model_copy(update={"nv": 1})
    model = hd.duel_model(
        CARDS["Pests of Flesh"], victim, DuelOptions(start="range", distance=10, first="a")
    )
    exact = model.exact(True)
    assert exact is not None
    assert exact[model.space.index(DRAW, 1, 0, 0)] == pytest.approx(1.0)


def test_approach_takes_time() -> None:
    """20 squares apart, two Hybrids (Movement 7, Basic Move +2) cannot fight in Round 1."""
    model = hd.duel_model(
        CARDS["Hybrid"], CARDS["Hybrid"], DuelOptions(start="range", distance=20, first="a")
    )
    _, rounds, _, _ = model.space.decode()
    exact = model.exact(True)
    assert exact is not None
    assert exact[rounds == 1].sum() == 0.0
    assert exact[rounds == 2].sum() > 0.0


def test_round_cap_is_a_draw() -> None:
    model = hd.duel_model(CARDS["Aberration"], CARDS["Seneschal"], DuelOptions(max_rounds=1))
    winner, rounds, _, _ = model.space.decode()
    exact = model.exact(True)
    assert exact is not None
    assert exact[(winner == DRAW) & (rounds != 1)].sum() == 0.0
    assert exact[winner == DRAW].sum() > 0.5


def test_bad_activation_rule() -> None:
    with pytest.raises(InputError):
        hd.duel_model(CARDS["Hybrid"], CARDS["Hybrid"], DuelOptions(), activation="coin")


def test_notes_name_the_order_rule() -> None:
    model = hd.duel_model(CARDS["Hybrid"], CARDS["Purifier"], DuelOptions(first="a"))
    assert any("--first" in n for n in model.notes)
    model = hd.duel_model(CARDS["Hybrid"], CARDS["Purifier"], DuelOptions())
    assert any("Activation Roll" in n for n in model.notes)
