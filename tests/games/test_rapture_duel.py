"""Rapture duels: Monte Carlo against the exact Markov chain, symmetry, monotonicity, examples."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.dice import exact as ex
from analyzer.dice.simulate import simulate_counts
from analyzer.duels import DRAW, WIN_A, WIN_B, DuelOptions, run_duel
from analyzer.errors import InputError
from analyzer.games import get_mechanic
from analyzer.games.rapture import duel as du
from analyzer.games.rapture import units as u
from analyzer.stats import chi_square_pvalue
from tests.mc_checks import CHI2_THRESHOLD, SE_TOLERANCE

TRIALS = 150_000
MELEE = DuelOptions(start="melee")


@pytest.fixture(scope="module")
def cards() -> dict[str, u.Card]:
    return u.load_units()


def _win(model, probs, who=WIN_A) -> float:
    winner, _, _, _ = model.space.decode()
    return float(probs[winner == who].sum())


def _better(card: u.Card) -> u.Card:
    """Strictly better in every stat the card uses."""
    return card.model_copy(
        update={
            "ccs": max(card.ccs - 1, 1),
            "mms": max(card.mms - 1, 1),
            "defense": card.defense + 1,
            "ini": card.ini + 1,
            "mov": card.mov + 1,
            "tec": card.tec + 1,
            "att": card.att + 1,
            "rof": card.rof + 1 if card.weapon is not None else 0,
            "hp": card.hp + 1,
            "ap": card.ap + 1,
            "rp": card.rp + 1,
        }
    )


# ------------------------------------------------------- Monte Carlo vs exact
PAIRINGS = {
    # health effects on both sides, Scale Skin, dodge/counterblow choices
    "raziel-kyenar-melee": ("Raziel", "Kyenar", DuelOptions(start="melee"), True, {}),
    # a squad (pooled dice, models removed as health drops) against a hero
    "phalanx-hilde-melee": ("Phalanx", "Hilde", DuelOptions(start="melee"), False, {}),
    # approach, countershot, then close combat
    "noelle-kyenar-range": ("Noelle", "Kyenar", DuelOptions(start="range", distance=40), False, {}),
    # two shooters, Seek Shelter and Get Up, a squad losing models
    "leyra-railgun-range": (
        "Leyra",
        "Railgun Squad",
        DuelOptions(start="range", distance=50),
        True,
        {},
    ),
    # short-range shooters, fixed order and a forced reaction rule
    "seeiah-eleanor-fixed": (
        "Seeiah",
        "Eleanor",
        DuelOptions(start="range", distance=33.5, max_rounds=4),
        True,
        {"order": "fixed", "reaction": "dodge", "shelter_threshold": 0.5},
    ),
}


@pytest.mark.parametrize("a,b,options,a_first,kwargs", PAIRINGS.values(), ids=list(PAIRINGS.keys()))
def test_monte_carlo_matches_exact_joint_distribution(cards, a, b, options, a_first, kwargs):
    model = du.duel_model(cards[a], cards[b], options, **kwargs)
    probs = model.exact(a_first)
    assert probs is not None
    assert abs(probs.sum() - 1.0) < 1e-12 and probs.min() >= -1e-15
    counts = simulate_counts(
        model.trial, model.params(a_first), 0, model.space.size - 1, TRIALS, seed=11
    )
    assert chi_square_pvalue(counts, probs) > CHI2_THRESHOLD
    winner, rounds, ha, hb = model.space.decode()
    for mask in (winner == WIN_A, winner == WIN_B, winner == DRAW):
        p = float(probs[mask].sum())
        se = max(np.sqrt(p * (1 - p) / TRIALS), 1e-12)
        assert abs(counts[mask].sum() / TRIALS - p) <= SE_TOLERANCE * se + 1e-12
    for values in (rounds, ha, hb):
        mean = float(values @ probs)
        sd = np.sqrt(float((values - mean) ** 2 @ probs))
        assert abs(float(values @ counts) / TRIALS - mean) <= SE_TOLERANCE * sd / np.sqrt(TRIALS)


def test_run_duel_reports_exact_next_to_mc(cards):
    opts = DuelOptions(start="range", distance=30, first="alternate")
    model = du.duel_model(cards["Steve"], cards["Hilde"], opts)
    result = run_duel("rapture", "Steve", "Hilde", opts, model, 100_000, seed=5)
    for est in (result.win_a, result.win_b, result.rounds, result.health_a, result.health_b):
        assert est.exact is not None and est.mc is not None and est.se is not None
        assert abs(est.mc - est.exact) <= SE_TOLERANCE * max(est.se, 1e-9)
    assert any("morale" in note for note in result.notes)


# ----------------------------------------------------------------- symmetry
@pytest.mark.parametrize(
    "name,options",
    [("Raziel", MELEE), ("Leyra", DuelOptions(start="range", distance=30))],
    ids=["raziel-melee", "leyra-range"],
)
def test_mirror_duel_is_fair(cards, name, options):
    opts = DuelOptions(start=options.start, distance=options.distance, first="alternate")
    model = du.duel_model(cards[name], cards[name], opts)
    a_first, b_first = model.exact(True), model.exact(False)
    assert a_first is not None and b_first is not None
    # exact symmetry: swapping the sides and who goes first mirrors the joint distribution
    s = model.space
    winner, rounds, ha, hb = s.decode()
    swapped = np.where(winner == DRAW, DRAW, 3 - winner)  # WIN_A <-> WIN_B
    mirror = np.array(
        [s.index(int(w), int(r), int(b), int(a)) for w, r, a, b in zip(swapped, rounds, ha, hb)]
    )
    assert np.allclose(a_first, b_first[mirror], atol=1e-14)
    result = run_duel("rapture", name, name, opts, model, 100_000, seed=3)
    assert result.win_a.exact is not None and result.win_b.exact is not None
    assert abs(result.win_a.exact - result.win_b.exact) < 1e-12
    half = 0.5 * (1.0 - result.draw.exact)
    assert result.win_a.mc is not None and result.win_a.se is not None
    assert abs(result.win_a.mc - half) <= SE_TOLERANCE * result.win_a.se


# ------------------------------------------------------------- monotonicity
@pytest.mark.parametrize(
    "a,b,options",
    [
        ("Raziel", "Kyenar", MELEE),
        ("Hilde", "Raziel", MELEE),
        ("Phalanx", "Lincoln", MELEE),
        ("Noelle", "Kyenar", DuelOptions(start="range", distance=40)),
        ("Leyra", "Steve", DuelOptions(start="range", distance=45)),
        ("Railgun Squad", "Eleanor", DuelOptions(start="range", distance=30)),
    ],
)
def test_strictly_better_unit_never_wins_less(cards, a, b, options):
    for a_first in (True, False):
        plain = du.duel_model(cards[a], cards[b], options)
        better = du.duel_model(_better(cards[a]), cards[b], options)
        assert _win(better, better.exact(a_first)) >= _win(plain, plain.exact(a_first)) - 1e-12


# ------------------------------------------------------------ worked examples
def test_worked_examples_flow_into_the_duel_tables(cards):
    duel = du._Duel(cards["Raziel"], cards["Kyenar"], MELEE, "rules", "per-rp", 1.0, True)
    raziel, kyenar = duel.sides
    # "Action: Close Combat Attack": Raziel CCS 3+, 6 ATT; Kyenar DEF 1 blocks on 5+,
    # Scale Skin reduces the damage by 1
    assert (raziel.table[du.F_HIT_MELEE, -1], raziel.table[du.F_ATT, -1]) == (3, 6)
    assert (kyenar.table[du.F_BLK_MELEE, -1], kyenar.table[du.F_BAT_MELEE, -1]) == (1, 5)
    assert kyenar.damage_mod == -1 and raziel.damage_mod == 0
    # "Reaction: Counterblow": Hilde's CCS 3+ becomes 4+ against Raziel's DEF 3
    hilde = du._compile_side(cards["Hilde"])
    assert (hilde.table[du.F_HIT_CB, -1], hilde.table[du.F_ATT, -1]) == (4, 4)
    assert raziel.table[du.F_BLK_MELEE, -1] == 3
    # "Action: Ranged Attack": Leyra MMS 3+, ROF 4 against Lincoln's DEF 2
    leyra, lincoln = du._compile_side(cards["Leyra"]), du._compile_side(cards["Lincoln"])
    assert (leyra.table[du.F_HIT_RANGED, -1], leyra.table[du.F_ROF, -1]) == (3, 4)
    assert (lincoln.table[du.F_BLK_RANGED, -1], lincoln.table[du.F_BAT_RANGED, -1]) == (2, 5)
    # "Reaction: Countershot": Noelle's MMS 3+ becomes 4+
    assert du._compile_side(cards["Noelle"]).table[du.F_HIT_CS, -1] == 4


def test_scale_skin_reduces_each_attack_by_one(cards):
    attack = get_mechanic("rapture", "attack")
    with_skin = attack.exact(
        attack.prepare({"kind": "melee", "dice": 6, "skill": 3, "defense": 1, "damage_mod": -1})
    )
    duel = du._Duel(cards["Raziel"], cards["Kyenar"], MELEE, "rules", "none", None, True)
    # one close combat attack of a fresh Raziel on a fresh Kyenar (8 HP): the transition row
    row = duel.m[0, du.K_MELEE, False][10, 8]
    assert np.allclose(row[::-1][: with_skin.probs.size], with_skin.probs, atol=1e-15)
    # one activation: two attacks (round limit 2), Kyenar does not react
    summary = du.activation_summary(cards["Raziel"], cards["Kyenar"], reaction="none")
    two = ex.add(with_skin, with_skin)
    assert summary.target_health == 8
    assert summary.expected_wounds == pytest.approx(
        float(np.minimum(two.outcomes, 8) @ two.probs), abs=1e-12
    )
    assert summary.kill_probability == pytest.approx(two.prob(two.outcomes >= 8), abs=1e-12)
    # without Scale Skin every attack deals one wound more whenever it deals any
    bare = cards["Kyenar"].model_copy(update={"abilities": []})
    plain = du.activation_summary(cards["Raziel"], bare, reaction="none")
    assert plain.expected_wounds > summary.expected_wounds + 0.5


def test_activation_summary_with_reactions(cards):
    s = du.activation_summary(cards["Raziel"], cards["Kyenar"])
    assert 0.0 < s.expected_wounds < s.target_health == 8
    assert 0.0 <= s.kill_probability < 0.1
    squad = du.activation_summary(cards["Phalanx"], cards["Hilde"])
    assert squad.target_health == 8 and squad.expected_wounds > 0


# ----------------------------------------------------------- rule options
def test_countershot_helps_the_shooter(cards):
    opts = DuelOptions(start="range", distance=40)
    with_cs = du.duel_model(cards["Steve"], cards["Hilde"], opts)
    without = du.duel_model(cards["Steve"], cards["Hilde"], opts, countershot=False)
    assert _win(with_cs, with_cs.exact(True)) > _win(without, without.exact(True)) + 1e-6


def test_seek_shelter_is_used_and_matters(cards):
    opts = DuelOptions(start="range", distance=50)
    duel = du._Duel(cards["Leyra"], cards["Railgun Squad"], opts, "rules", "per-rp", 1.0, True)
    assert duel.shelter[1][:, :, 2].any()  # the squad shelters from Leyra's two shots
    never = du.duel_model(cards["Leyra"], cards["Railgun Squad"], opts, shelter_threshold=None)
    model = du.duel_model(cards["Leyra"], cards["Railgun Squad"], opts)
    assert not np.allclose(model.exact(True), never.exact(True))


def test_reaction_rules_differ_and_are_checked(cards):
    results = {
        rule: _win(m, m.exact(True))
        for rule in du.REACTIONS
        for m in [du.duel_model(cards["Hilde"], cards["Raziel"], MELEE, reaction=rule)]
    }
    assert len({round(v, 9) for v in results.values()}) > 2
    with pytest.raises(InputError):
        du.duel_model(cards["Hilde"], cards["Raziel"], MELEE, reaction="parry")
    with pytest.raises(InputError):
        du.duel_model(cards["Hilde"], cards["Raziel"], MELEE, order="random")


def test_initiative_decides_later_rounds(cards):
    # Raziel (INI 4) against Hilde (INI 3): with the rules order Hilde only goes first in round 1
    rules = du.duel_model(cards["Hilde"], cards["Raziel"], MELEE)
    fixed = du.duel_model(cards["Hilde"], cards["Raziel"], MELEE, order="fixed")
    assert _win(fixed, fixed.exact(True)) > _win(rules, rules.exact(True)) + 1e-6


def test_round_cap_gives_draws(cards):
    model = du.duel_model(cards["Raziel"], cards["Kyenar"], DuelOptions(max_rounds=1))
    probs = model.exact(True)
    assert abs(probs.sum() - 1.0) < 1e-12
    assert 0.5 < _win(model, probs, DRAW) < 1.0


def test_out_of_reach_is_a_draw(cards):
    frozen = cards["Hilde"].model_copy(update={"mov": 0})
    model = du.duel_model(frozen, frozen, DuelOptions(start="range", distance=10, max_rounds=3))
    probs = model.exact(True)
    assert _win(model, probs, DRAW) == pytest.approx(1.0)
