"""Heroscape duels: exact Markov chain vs Monte Carlo, symmetry, monotonicity, activations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from analyzer.dice.simulate import simulate_counts
from analyzer.duels import DRAW, WIN_A, WIN_B, DuelOptions, DuelResult, run_duel
from analyzer.games.heroscape import duel as hd
from analyzer.games.heroscape import units as u
from analyzer.games.heroscape.rolls import ATTACK
from analyzer.stats import chi_square_pvalue
from tests.mc_checks import CHI2_THRESHOLD, SE_TOLERANCE

TRIALS = 120_000
CARDS = u.load_units(u.UNITS_FILE)


def card(bundled: str, **changes: Any) -> u.Card:
    """A bundled card, optionally with some fields changed (and re-validated)."""
    base = CARDS[bundled]
    if not changes:
        return base
    data = base.model_dump(by_alias=True)
    data.update(changes)
    return u.Card.model_validate(data)


def power(name: str) -> dict[str, Any]:
    return {"name": name, "narrative": False, "text": None}


#: A Unique Hero carrying Bloodcursed Blade and the Giant Hunter Stone.
BLADE = card(
    "Dorim the Bulkhead Brawler",
    name="Blade Bearer",
    special_powers=[power(u.BLOODCURSED_BLADE), power(u.GIANT_HUNTER_STONE)],
)

#: Double Attack with Bloodcursed Blade and Nanotoxin Coating (wounds tracked over 2 attacks).
CURSED_QUEEN = card(
    "Queen Maladrix the Conqueror",
    name="Cursed Queen",
    special_powers=[
        power(u.DOUBLE_ATTACK),
        power(u.BLOODCURSED_BLADE),
        power(u.NANOTOXIN_COATING),
    ],
)
#: Nanite Shielding and the Giant Hunter Stone against a Huge figure.
HUNTER = card(
    "Destro",
    name="Giant Hunter",
    special_powers=[power(u.NANITE_SHIELDING), power(u.GIANT_HUNTER_STONE)],
)

PAIRINGS = [
    ("melee", CARDS["Dorim the Bulkhead Brawler"], CARDS["Feral Troll"], DuelOptions()),
    ("powers", CARDS["Destro"], CARDS["Nishi Souta"], DuelOptions(first="a")),
    (
        "squad vs double attack",
        CARDS["Elites of Ullar"],
        CARDS["Queen Maladrix the Conqueror"],
        DuelOptions(start="range", distance=9.5, first="b"),
    ),
    (
        "shadow vs squad",
        CARDS["Agent SI-4X"],
        CARDS["Ranoc Vipers"],
        DuelOptions(start="range", distance=12, max_rounds=3),
    ),
    (
        "blade and giant hunter",
        BLADE,
        CARDS["Halushia, Scion of the Wild"],
        DuelOptions(start="range", distance=6),
    ),
    ("squads", CARDS["Gelryie Vanguards"], CARDS["Elites of Ullar"], DuelOptions(max_rounds=2)),
    (
        "toxin and shield vs squad",
        CARDS["Destro"],
        CARDS["Elites of Ullar"],
        DuelOptions(start="range", distance=7),
    ),
    ("cursed double attack", CURSED_QUEEN, HUNTER, DuelOptions(start="range", distance=9)),
]


def run(a: u.Card, b: u.Card, options: DuelOptions, trials: int = TRIALS, seed: int = 7):
    model = hd.duel_model(a, b, options)
    return model, run_duel("heroscape", a.name, b.name, options, model, trials, seed)


def assert_close(result: DuelResult) -> None:
    for est in (result.win_a, result.win_b, result.draw, result.rounds, result.health_a):
        assert est.exact is not None and est.mc is not None and est.se is not None
        assert abs(est.mc - est.exact) <= SE_TOLERANCE * max(est.se, 1e-9), est


@pytest.mark.parametrize(
    ("a", "b", "options"), [p[1:] for p in PAIRINGS], ids=[p[0] for p in PAIRINGS]
)
def test_mc_matches_exact_markov_chain(a: u.Card, b: u.Card, options: DuelOptions) -> None:
    model, result = run(a, b, options)
    assert_close(result)
    # the whole joint outcome: chi-square of the counts of one first player vs exact
    first = options.first != "b"
    exact = model.exact(first)
    assert exact is not None

    counts = simulate_counts(
        model.trial, model.params(first), 0, model.space.size - 1, TRIALS, seed=3
    )
    assert np.all(counts[exact == 0] == 0), "MC produced an impossible outcome"
    assert chi_square_pvalue(counts, exact) > CHI2_THRESHOLD


@pytest.mark.parametrize(
    ("a", "b", "options"), [p[1:] for p in PAIRINGS], ids=[p[0] for p in PAIRINGS]
)
@pytest.mark.parametrize("a_first", [True, False])
def test_exact_probabilities_sum_to_one(
    a: u.Card, b: u.Card, options: DuelOptions, a_first: bool
) -> None:
    model = hd.duel_model(a, b, options)
    probs = model.exact(a_first)
    assert probs is not None and probs.shape == (model.space.size,)
    assert probs.min() >= -1e-15
    assert abs(probs.sum() - 1.0) < 1e-12
    winner, rounds, ha, hb = model.space.decode()
    # a winner's opponent has no Life left, the winner has some; draws only at the cap
    assert probs[(winner == WIN_A) & ((hb != 0) | (ha == 0))].sum() < 1e-15
    assert probs[(winner == WIN_B) & ((ha != 0) | (hb == 0))].sum() < 1e-15
    assert probs[(winner == DRAW) & (rounds != options.max_rounds)].sum() < 1e-15


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("Dorim the Bulkhead Brawler", DuelOptions()),
        ("Elites of Ullar", DuelOptions(start="range", distance=8)),
        ("Destro", DuelOptions(max_rounds=2)),
    ],
)
def test_mirror_duel_is_even(name: str, options: DuelOptions) -> None:
    a = CARDS[name]
    b = card(name, name=f"{name} (copy)")
    model, result = run(a, b, options)
    assert result.win_a.exact == pytest.approx(result.win_b.exact, abs=1e-12)
    # exactly symmetric: A first is B first with the sides swapped
    space = model.space
    pa, pb = model.exact(True), model.exact(False)
    assert pa is not None and pb is not None
    grid_a = pa.reshape(3, space.max_rounds, space.health_a + 1, space.health_b + 1)
    grid_b = pb.reshape(3, space.max_rounds, space.health_a + 1, space.health_b + 1)
    swapped = grid_b[[DRAW, WIN_B, WIN_A]].transpose(0, 1, 3, 2)
    np.testing.assert_allclose(grid_a, swapped, atol=1e-14)
    # Monte Carlo: A and B equally likely to win (alternating first player)
    decided = result.win_a.mc + result.win_b.mc
    se = result.win_a.se
    assert abs(result.win_a.mc - decided / 2) <= SE_TOLERANCE * se


IMPROVEMENTS = [
    {"attack": 1},
    {"defense": 1},
    {"life": 1},
    {"move": 2},
    {"range": 3},
    {"attack": 1, "defense": 1, "life": 1, "move": 1, "range": 1},
]


@pytest.mark.parametrize("better", IMPROVEMENTS, ids=lambda d: "+".join(d))
@pytest.mark.parametrize("name", ["Scarlett", "Gelryie Vanguards", "Nishi Souta", "Destro"])
def test_better_stats_never_lower_win_rate(better: dict[str, int], name: str) -> None:
    base = CARDS[name]
    improved = card(name, **{k: getattr(base, k) + v for k, v in better.items()})
    for opponent in ("Feral Troll", "Elites of Ullar", "Destro", "Cainak, Private Eye"):
        for options in (
            DuelOptions(first="a"),
            DuelOptions(first="b"),
            DuelOptions(start="range", distance=10, first="b"),
        ):
            if opponent == name:
                continue
            w_old = _win_rate(base, CARDS[opponent], options)
            w_new = _win_rate(improved, CARDS[opponent], options)
            assert w_new >= w_old - 1e-12, (opponent, options, w_old, w_new)


def _win_rate(a: u.Card, b: u.Card, options: DuelOptions) -> float:
    """Exact probability that ``a`` wins (``options.first`` is "a" or "b")."""
    model = hd.duel_model(a, b, options)
    probs = model.exact(options.first == "a")
    assert probs is not None
    winner = model.space.decode()[0]
    return float(probs[winner == WIN_A].sum())


# ------------------------------------------------------------- activations
def _attack_pmf(a: u.Card, b: u.Card) -> np.ndarray:
    dist = ATTACK.exact(hd.attack_params(a, b, adjacent=True))
    return dist.widen(0, dist.highest).probs


def test_activation_of_a_hero_is_one_attack() -> None:
    dorim, troll = CARDS["Dorim the Bulkhead Brawler"], CARDS["Feral Troll"]
    pmf = _attack_pmf(dorim, troll)
    w = np.arange(pmf.size)
    summary = hd.activation_summary(dorim, troll)
    assert summary.target_health == 5
    assert summary.expected_wounds == pytest.approx(float(np.minimum(w, 5) @ pmf), abs=1e-12)
    assert summary.kill_probability == pytest.approx(float(pmf[w >= 5].sum()), abs=1e-12)


def test_activation_of_a_squad_attacks_with_each_figure() -> None:
    """3 Elites attack a Hero separately: wounds add up, capped at its Life."""
    elites, dorim = CARDS["Elites of Ullar"], CARDS["Dorim the Bulkhead Brawler"]
    pmf = _attack_pmf(elites, dorim)
    total = np.convolve(np.convolve(pmf, pmf), pmf)
    w = np.arange(total.size)
    summary = hd.activation_summary(elites, dorim)
    assert summary.expected_wounds == pytest.approx(float(np.minimum(w, 5) @ total), abs=1e-12)
    assert summary.kill_probability == pytest.approx(float(total[w >= 5].sum()), abs=1e-12)


def test_activation_against_a_squad_wastes_excess_wounds() -> None:
    """A Hero's single attack removes at most 1 Life-1 figure ("Destroying Figures")."""
    dorim, vanguards = CARDS["Dorim the Bulkhead Brawler"], CARDS["Gelryie Vanguards"]
    pmf = _attack_pmf(dorim, vanguards)
    summary = hd.activation_summary(dorim, vanguards)
    assert summary.target_health == 3
    assert summary.expected_wounds == pytest.approx(1 - pmf[0], abs=1e-12)
    assert summary.kill_probability == 0.0


def test_double_attack_attacks_twice() -> None:
    queen, dorim = CARDS["Queen Maladrix the Conqueror"], CARDS["Dorim the Bulkhead Brawler"]
    pmf = _attack_pmf(queen, dorim)
    total = np.convolve(pmf, pmf)
    w = np.arange(total.size)
    summary = hd.activation_summary(queen, dorim)
    assert summary.expected_wounds == pytest.approx(float(np.minimum(w, 5) @ total), abs=1e-12)


# ------------------------------------------------ rulebook examples, powers
def test_cainak_attacks_agent_si4x_example() -> None:
    """ "Master Game Attack Examples" without the height die: Cainak rolls 4 attack dice,
    SI-4X rolls 6 defense dice (Defense 5 + Obfuscation Matrix counting as shadow)."""
    p = hd.attack_params(CARDS["Cainak, Private Eye"], CARDS["Agent SI-4X"], adjacent=False)
    assert (p["attack_dice"], p["defense_dice"]) == (4, 6)
    p = hd.attack_params(CARDS["Agent SI-4X"], CARDS["Cainak, Private Eye"], adjacent=False)
    assert (p["attack_dice"], p["defense_dice"]) == (2, 3)


def test_giant_hunter_stone_and_blade() -> None:
    halushia = CARDS["Halushia, Scion of the Wild"]  # Large
    p = hd.attack_params(BLADE, halushia, adjacent=True)
    assert (p["attack_dice"], p["auto_skulls"], p["defense_dice"]) == (5, 1, 4)
    p = hd.attack_params(halushia, BLADE, adjacent=True)
    assert p["defense_dice"] == BLADE.defense + 1
    p = hd.attack_params(BLADE, halushia, adjacent=False)
    assert p["auto_skulls"] == 0


def test_nanite_shielding_outcomes_split_on_skulls() -> None:
    nishi, destro = CARDS["Nishi Souta"], CARDS["Destro"]
    used = hd.attack_outcomes(nishi, destro, adjacent=True, shield_available=True)
    plain = hd.attack_outcomes(nishi, destro, adjacent=True, shield_available=False)
    assert sum(q for _, _, q in used) == pytest.approx(1.0, abs=1e-14)
    # not used only on a roll without skulls (Gulløx re-roll included): (1/2)^4 * 1/2
    assert [q for flag, _, q in used if not flag] == [pytest.approx(0.5**5)]
    mean_used = sum(w * q for _, w, q in used)
    mean_plain = sum(w * q for _, w, q in plain)
    assert mean_used < mean_plain


def test_blade_bearer_that_cannot_reach_wounds_itself() -> None:
    """Bloodcursed Blade: 1 wound at the end of every turn without a wound dealt."""
    stuck = card("Dorim the Bulkhead Brawler", name="Stuck", move=0, special_powers=[])
    blade = card(
        "Dorim the Bulkhead Brawler",
        name="Cursed",
        move=0,
        special_powers=[power(u.BLOODCURSED_BLADE)],
    )
    options = DuelOptions(start="range", distance=5, first="a")
    _, result = run(blade, stuck, options, trials=2000)
    # 5 Life, 3 turns per round: destroyed by its own blade on its 5th turn (round 2)
    assert result.win_b.exact == pytest.approx(1.0)
    assert result.rounds.exact == pytest.approx(2.0)
    assert result.win_b.mc == 1.0


def test_no_reach_is_a_draw_at_the_cap() -> None:
    a = card("Dorim the Bulkhead Brawler", name="A", move=0)
    b = card("Feral Troll", name="B", move=0)
    _, result = run(a, b, DuelOptions(start="range", distance=3, max_rounds=4), trials=1000)
    assert result.draw.exact == pytest.approx(1.0) and result.draw.mc == 1.0
    assert result.rounds.exact == pytest.approx(4.0)


def test_start_distance() -> None:
    assert hd.start_distance(DuelOptions()) == 1
    assert hd.start_distance(DuelOptions(start="range", distance=0)) == 1
    assert hd.start_distance(DuelOptions(start="range", distance=4.2)) == 5


def test_notes_mention_inert_and_narrative_powers() -> None:
    model = hd.duel_model(
        CARDS["Gelryie Vanguards"], CARDS["Dorim the Bulkhead Brawler"], DuelOptions()
    )
    text = "\n".join(model.notes)
    assert "Defend the Deep has no effect" in text
    assert "Charge!!! is narrative" in text
