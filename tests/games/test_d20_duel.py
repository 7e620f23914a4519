"""d20 skirmish duels: Monte Carlo against the exact Markov chain, symmetry, monotonicity."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.dice.simulate import simulate_counts
from analyzer.duels import DRAW, WIN_A, WIN_B, DuelModel, DuelOptions, run_duel
from analyzer.games.d20 import duel, units
from analyzer.games.d20.units import Card
from analyzer.stats import chi_square_pvalue
from tests.mc_checks import CHI2_THRESHOLD, SE_TOLERANCE

TRIALS = 100_000


@pytest.fixture(scope="module")
def cards() -> dict[str, Card]:
    return units.load_units()


def within(estimate, tolerance: float = SE_TOLERANCE) -> bool:
    assert estimate.exact is not None and estimate.mc is not None and estimate.se is not None
    return abs(estimate.mc - estimate.exact) <= tolerance * max(estimate.se, 1e-9) + 1e-12


PAIRINGS = [
    ("Chronos SU", "Genetic SU", DuelOptions(start="melee", first="alternate"), duel.DuelRules()),
    ("Maïnomaï", "Trooper", DuelOptions(start="range", distance=60, first="a"), duel.DuelRules()),
    (
        "Telepath",
        "Telekinesist",
        DuelOptions(start="range", distance=40, first="b", max_rounds=4),
        duel.DuelRules(),
    ),
    (
        "Avatara Hallucination",
        "Brute",
        DuelOptions(start="range", distance=45.5, first="alternate"),
        duel.DuelRules(all_weapons=True, dexterity_in_shot=False),
    ),
]


@pytest.mark.parametrize(("a", "b", "options", "how"), PAIRINGS, ids=[p[0] for p in PAIRINGS])
def test_mc_matches_exact(cards, a, b, options, how) -> None:
    model = duel.duel_model(cards[a], cards[b], options, how)
    result = run_duel("d20", a, b, options, model, TRIALS, seed=11)
    for name in ("win_a", "win_b", "draw", "rounds", "health_a", "health_b"):
        assert within(getattr(result, name)), (name, getattr(result, name))
    # raw joint counts against the exact joint distribution, one starting side at a time
    for a_first in (True, False):
        exact = model.exact(a_first)
        assert exact is not None
        counts = simulate_counts(
            model.trial, model.params(a_first), 0, model.space.size - 1, TRIALS // 2, seed=5
        )
        assert np.all(counts[exact == 0] == 0), "MC produced an impossible outcome"
        assert chi_square_pvalue(counts, exact) > CHI2_THRESHOLD


@pytest.mark.parametrize("first", ["a", "b", "alternate"])
@pytest.mark.parametrize("start", [("melee", 0.0), ("range", 70.0)])
def test_exact_sums_to_one(cards, first, start) -> None:
    names = list(cards)
    options = DuelOptions(start=start[0], distance=start[1], first=first, max_rounds=6)
    for a in names[::2]:
        for b in names[1::2]:
            model = duel.duel_model(cards[a], cards[b], options)
            for a_first in (True, False):
                probs = model.exact(a_first)
                assert probs is not None
                assert probs.shape == (model.space.size,)
                assert np.all(probs >= -1e-15)
                assert abs(probs.sum() - 1.0) < 1e-12


def test_mirror_alternate_is_fair(cards) -> None:
    card = cards["Chronos SU"]
    options = DuelOptions(start="range", distance=80, first="alternate")
    model = duel.duel_model(card, card, options)
    exact = exact_avg(model)
    winner, rounds, ha, hb = model.space.decode()
    # the exact engine is symmetric outcome by outcome: A and B swapped
    s_w, s_r, s_a = model.space.strides()
    swapped = np.where(winner == DRAW, DRAW, 3 - winner) * s_w + (rounds - 1) * s_r + hb * s_a + ha
    assert np.allclose(exact, exact[swapped], rtol=0, atol=1e-15)
    result = run_duel("d20", "A", "A'", options, model, 2 * TRIALS, seed=3)
    win_a, win_b, draw = result.win_a, result.win_b, result.draw
    assert win_a.exact is not None and win_a.mc is not None and win_a.se is not None
    assert draw.exact is not None and win_a.exact == pytest.approx(win_b.exact, abs=1e-14)
    decisive = 1.0 - draw.exact
    assert win_a.exact == pytest.approx(decisive / 2, abs=1e-14)
    assert within(win_a) and within(win_b)
    assert abs(win_a.mc - decisive / 2) <= SE_TOLERANCE * win_a.se


def improved(card: Card) -> Card:
    """A copy strictly better in every stat (weapons too)."""
    weapons = [
        w.model_copy(
            update={"power": w.power + 1, "reach": w.reach if w.is_hth else w.range_cm + 5}
        )
        for w in card.weapons
    ]
    return card.model_copy(
        update={
            "name": card.name + "+",
            "skill": card.skill.model_copy(
                update={"shot": card.skill.shot + 1, "hth": card.skill.hth + 1}
            ),
            "power": card.power + 1,
            "dexterity": card.dexterity + 1,
            "intelligence": card.intelligence + 1,
            "physical_defense": card.physical_defense + 1,
            "constitution": card.constitution + 2,
            "movement": card.movement + 2,
            "force": 1 if card.force is None else card.force + 1,
            "weapons": weapons,
        }
    )


def exact_avg(model: DuelModel) -> np.ndarray:
    """The exact joint outcome with the first Turn alternating (``first="alternate"``)."""
    first, second = model.exact(True), model.exact(False)
    assert first is not None and second is not None
    return (first + second) / 2


def win_rate(a: Card, b: Card, options: DuelOptions) -> float:
    model = duel.duel_model(a, b, options)
    exact = exact_avg(model)
    return float(exact[model.space.decode()[0] == WIN_A].sum())


@pytest.mark.parametrize("start", [("melee", 0.0), ("range", 50.0)])
def test_better_card_never_wins_less(cards, start) -> None:
    options = DuelOptions(start=start[0], distance=start[1], max_rounds=8)
    for name in ("Chronos SU", "Telepath", "Maïnomaï", "Brute"):
        base, better = cards[name], improved(cards[name])
        for enemy in cards.values():
            assert win_rate(better, enemy, options) >= win_rate(base, enemy, options) - 1e-12, (
                name,
                enemy.name,
            )


def brute_force_activation(attacker: Card, defender: Card) -> tuple[float, float]:
    """One contact attack, D20 face by face ("3.2 Shots" / "3.3"), best by expected CP."""
    options = []
    for w in attacker.weapons:
        if w.is_hth:
            options.append(attacker.skill.hth + (attacker.force or 0) + w.power)
        else:
            options.append(attacker.skill.hth + (attacker.force or 0) + 1)  # club
            options.append(attacker.skill.shot + attacker.dexterity + w.power)
    pd, cp = defender.physical_defense, defender.constitution
    best = max(options, key=lambda t: sum(max(t + d - pd, 0) for d in range(1, 21)))
    lost = [max(best + d - pd, 0) for d in range(1, 21)]
    return sum(min(x, cp) for x in lost) / 20, sum(x >= cp for x in lost) / 20


def test_activation_summary(cards) -> None:
    for a in cards.values():
        for b in cards.values():
            summary = duel.activation_summary(a, b)
            wounds, kill = brute_force_activation(a, b)
            assert summary.target_health == b.constitution
            assert summary.expected_wounds == pytest.approx(wounds, abs=1e-12)
            assert summary.kill_probability == pytest.approx(kill, abs=1e-12)


def test_schedule_follows_the_approach_rule(cards) -> None:
    shooter, brawler = cards["Chronos SU"], cards["Maïnomaï"]
    assert not duel.is_brawler(shooter, brawler) and duel.is_brawler(brawler, shooter)
    options = DuelOptions(start="range", distance=72, max_rounds=4)
    rounds = duel.schedule(shooter, brawler, options, a_first=True)
    # the shooter moves 12 cm to its rifle's 60 cm and fires; the Maïnomaï (15 cm) closes,
    # firing its 40 cm cannon once in reach
    assert [s.distance for turn in rounds for s in turn] == [60, 45, 45, 30, 30, 15, 15, 0]
    assert [len(s.attacks) for turn in rounds for s in turn] == [1, 0, 1, 1, 1, 1, 1, 1]
    assert rounds[3][1].attacks[0].label == "HtH: Great blades"
    melee = duel.schedule(shooter, brawler, DuelOptions(start="melee"), a_first=False)
    assert all(s.distance == 0 and s.attacks for turn in melee for s in turn)
    assert melee[0][0].side == 1


def test_round_cap_draws_and_notes(cards) -> None:
    options = DuelOptions(start="range", distance=500, max_rounds=2)
    model = duel.duel_model(cards["Telepath"], cards["Brute"], options)
    exact = model.exact(True)
    assert exact is not None
    assert exact[model.space.index(DRAW, 2, 14, 20)] == pytest.approx(1.0)
    assert any("never reach contact" in note for note in model.notes)
    result = run_duel("d20", "Telepath", "Brute", options, model, 1000, seed=1)
    assert result.draw.mc == 1.0 and result.win_b.exact == 0.0 and WIN_B == 2


def test_who_starts_note(cards) -> None:
    # "Who starts ?": +1 for the Telepath's precognition, a draw is thrown again
    p = duel.first_player_chance(cards["Telepath"], cards["Trooper"])
    faces = np.arange(1, 21)
    higher = np.mean(faces[:, None] + 1 > faces[None, :])
    lower = np.mean(faces[:, None] + 1 < faces[None, :])
    assert p == pytest.approx(higher / (higher + lower), abs=1e-12)
