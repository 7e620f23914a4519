"""Degenesis duels: Monte Carlo vs the exact Markov chain, symmetry, monotonicity, closed forms."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from analyzer.dice.simulate import simulate_counts
from analyzer.duels import DRAW, WIN_A, WIN_B, DuelModel, DuelOptions, DuelSpace, run_duel
from analyzer.games.degenesis import duel as D
from analyzer.games.degenesis import units as U
from analyzer.games.degenesis.rolls import unbotched_successes
from analyzer.games.degenesis.rules import load_dice
from analyzer.stats import chi_square_pvalue
from tests.mc_checks import CHI2_THRESHOLD, SE_TOLERANCE, binomial_agrees

CARDS = U.load_units(U.UNITS_FILE)
TRIALS = 100_000


def exact_of(model: DuelModel, a_first: bool) -> np.ndarray:
    """The exact joint distribution (this system always has one)."""
    probs = model.exact(a_first)
    assert probs is not None
    return probs


def card(name: str) -> Any:
    return CARDS[name]


def legion(name: str = "L", **stats: Any) -> U.Legion:
    data: dict[str, Any] = {
        "kind": "legion",
        "name": name,
        "points": 1,
        "rank": 1,
        "attack": {"white": 2, "black": 1},
        "defense": 2,
        "range": 0,
    }
    data.update(stats)
    return U.Legion.model_validate(data)


def modified(base: Any, **changes: Any) -> Any:
    """A copy of a card with some fields replaced (validated again)."""
    data = base.model_dump()
    data.update(changes)
    return type(base).model_validate(data)


# A brittle OPERATIVE: FATAL-heavy WEAPONS that BOTCH often, so FLIPPED WEAPONS,
# DASHBOARD FLIPS and SUCKER PUNCHES all happen.
BRITTLE = U.Operative.model_validate(
    {
        "kind": "operative",
        "name": "Brittle",
        "points": 20,
        "cult": "Scrappers",
        "focus": {"pool": {"white": 1}, "defense": 2},
        "primal": {"pool": {"black": 1}, "defense": 1},
        "potentials": [
            {"name": "A", "cult": "Scrappers", "abilities": {"defense": 1}},
            {"name": "B", "cult": "Clanners", "abilities": {"success": 1}},
        ],
        "items": [
            {
                "name": "Shotgun",
                "side": "focus",
                "attack": {"fatal": 2},
                "range": 2,
                "keywords": ["ranged"],
            },
            {
                "name": "Pipe",
                "side": "primal",
                "attack": {"fatal": 1, "white": 1},
                "range": 0,
                "keywords": ["melee"],
                "traits": [{"name": "Guard", "abilities": {"defense": 1}}],
            },
        ],
    }
)

PAIRINGS = [
    ("Echo", "Feuerbach", DuelOptions(start="range", distance=4), {}),
    ("Timur", "Feuerbach", DuelOptions(), {}),
    ("Pluto", "The Spider", DuelOptions(start="range", distance=5), {}),
    ("Brittle", "Echo", DuelOptions(start="range", distance=2), {}),
    ("Brittle", "Trapper", DuelOptions(), {"ranged_hostiles_provoke": True}),
    ("Feeder", "Brittle", DuelOptions(max_rounds=3), {"sucker_punch_first": False}),
    ("Swarmer", "Trapper", DuelOptions(start="range", distance=3), {}),
]


def _card(name: str) -> Any:
    return BRITTLE if name == "Brittle" else card(name)


@pytest.mark.parametrize("a,b,options,kwargs", PAIRINGS, ids=[f"{a}-{b}" for a, b, *_ in PAIRINGS])
def test_exact_sums_to_one(a: str, b: str, options: DuelOptions, kwargs: dict) -> None:
    model = D.duel_model(_card(a), _card(b), options, **kwargs)
    for a_first in (True, False):
        probs = exact_of(model, a_first)
        assert probs.shape == (model.space.size,)
        assert probs.min() >= 0
        assert abs(probs.sum() - 1) < 1e-12


@pytest.mark.parametrize("a,b,options,kwargs", PAIRINGS, ids=[f"{a}-{b}" for a, b, *_ in PAIRINGS])
def test_monte_carlo_matches_exact(a: str, b: str, options: DuelOptions, kwargs: dict) -> None:
    model = D.duel_model(_card(a), _card(b), options, **kwargs)
    for task, a_first in enumerate((True, False)):
        counts = simulate_counts(
            model.trial, model.params(a_first), 0, model.space.size - 1, TRIALS, 11, (task,)
        )
        exact = exact_of(model, a_first)
        assert np.all(counts[exact == 0] == 0), "MC produced an outcome the chain calls impossible"
        keep = exact * TRIALS >= 5  # lump the rare outcomes into one chi-square cell
        observed = np.append(counts[keep], counts[~keep].sum())
        expected = np.append(exact[keep], exact[~keep].sum())
        assert chi_square_pvalue(observed, expected) > CHI2_THRESHOLD
    result = run_duel("degenesis", a, b, options, model, TRIALS, 5)
    for est in (result.win_a, result.win_b, result.draw):
        assert est.exact is not None and est.mc is not None
        assert binomial_agrees(round(est.mc * TRIALS), TRIALS, est.exact)
    for est in (result.rounds, result.health_a, result.health_b):
        assert est.exact is not None and est.mc is not None and est.se is not None
        assert abs(est.mc - est.exact) <= SE_TOLERANCE * max(est.se, 1e-9)


def _chain_states(opponent: str, options: DuelOptions) -> set[tuple[int, ...]]:
    """The states the exact chain of Brittle against ``opponent`` acts from."""
    enc, _ = D._encode(BRITTLE, card(opponent), options, 3, True, False)
    chain = D.Chain(enc, enc.params(True))
    chain.solve(DuelSpace(12, enc.profiles[0].health, enc.profiles[1].health))
    return {st for _, st in chain._memo}


@pytest.mark.parametrize("opponent", ["Echo", "Pluto"])
def test_flips_botches_and_sucker_punches_happen(opponent: str) -> None:
    """The brittle OPERATIVE's chain reaches FLIPPED WEAPONS, both sides and SUCKER PUNCHES."""
    states = _chain_states(opponent, DuelOptions(start="range", distance=2))  # FOCUS start
    assert any(st[D._MASK] == 0b11 for st in states)  # both WEAPONS FLIPPED
    assert {st[D._SIDE] for st in states} == {0, 1}  # FOCUS and PRIMAL
    assert any(st[D._USED] > 0 for st in states)  # Brittle SUCKER PUNCHED a RANGED ATTACK
    punched_shotgun = any(st[D._USED + 1] > 0 for st in states)
    # Echo closes in only once its Stream Pistol is BOTCHED, and has no ATTACK to SUCKER
    # PUNCH with until it FLIPS to PRIMAL; by then Brittle's Shotgun (it wounds or
    # BOTCHES, never just misses) is FLIPPED or Echo is dead.  Pluto does punch it.  (Echo
    # "punched" it only through rounding residue taken for a miss: the bug this guards.)
    assert punched_shotgun == (opponent == "Pluto")


def test_impossible_outcomes_are_exactly_zero() -> None:
    """An outcome no total gives has probability 0.0, not rounding residue: the chain's
    branches (and so its states) must not depend on the CPU's summation order."""
    profile = D.profile(BRITTLE)
    shotgun = profile.options[0][0][0]  # FOCUS POOL + the Shotgun's 2 FATAL dice
    p_botch, p_success, p_failure = D.option_chances(shotgun, 4)
    assert p_botch > 0 and (p_success > 0).all()
    assert (p_failure == 0.0).all()  # succeeds or BOTCHES: never a plain failure
    assert np.allclose(p_botch + p_success + p_failure, 1.0, rtol=0, atol=1e-15)


@pytest.mark.parametrize("name", ["Feuerbach", "Cackler", "The Spider"])
def test_mirror_duel_is_symmetric(name: str) -> None:
    options = DuelOptions(first="alternate")
    model = D.duel_model(card(name), card(name), options)
    space = model.space
    first_a, first_b = exact_of(model, True), exact_of(model, False)
    winner, rounds, ha, hb = space.decode()
    for w, r, x, y, p in zip(winner, rounds, ha, hb, first_a):
        mirrored = {WIN_A: WIN_B, WIN_B: WIN_A, DRAW: DRAW}[int(w)]
        assert abs(first_b[space.index(mirrored, int(r), int(y), int(x))] - p) < 1e-12
    result = run_duel("degenesis", name, name, options, model, TRIALS, 3)
    assert result.win_a.exact == pytest.approx(result.win_b.exact, abs=1e-12)
    assert result.win_a.exact is not None and result.draw.exact is not None
    score = result.win_a.exact + result.draw.exact / 2
    assert score == pytest.approx(0.5, abs=1e-12)
    assert result.win_a.mc is not None and result.win_a.se is not None
    mc_score = result.win_a.mc + (result.draw.mc or 0.0) / 2
    assert abs(mc_score - 0.5) <= SE_TOLERANCE * result.win_a.se


def _win(a: Any, b: Any, options: DuelOptions) -> float:
    model = D.duel_model(a, b, options)
    win = model.space.decode()[0] == WIN_A
    return float((exact_of(model, True)[win].sum() + exact_of(model, False)[win].sum()) / 2)


def _better_operative(base: U.Operative) -> U.Operative:
    """One more WHITE die on both sides, DEFENSE +1, RANGE +1 and SPEED +1, one more POTENTIAL."""
    data = base.model_dump()
    for side in ("focus", "primal"):
        data[side]["pool"]["white"] += 1
        data[side]["defense"] += 1
    for item in data["items"]:
        if item["range"] is not None:
            item["range"] += 1
    data["shared_trait"] = {"name": "Better", "abilities": {"speed": 1}}
    data["potentials"].append({"name": "Extra", "cult": base.cult})
    return U.Operative.model_validate(data)


@pytest.mark.parametrize(
    "options", [DuelOptions(), DuelOptions(start="range", distance=4)], ids=["melee", "range"]
)
def test_monotonicity(options: DuelOptions) -> None:
    """A unit strictly better in every stat never wins less often (exact engine)."""
    base = legion()
    better = legion(
        attack={"white": 3, "black": 1},
        defense=3,
        range=1,
        trait={"name": "Fast", "abilities": {"speed": 1}},
    )
    opponents = [card("Timur"), card("Cackler"), card("The Spider"), legion("M", range=2)]
    for opp in opponents:
        assert _win(better, opp, options) >= _win(base, opp, options) - 1e-12
    spider = card("The Spider")
    stronger = modified(
        spider,
        stages=[
            {
                **s.model_dump(),
                "attack": {**s.attack.model_dump(), "white": s.attack.white + 1},
                "defense": s.defense + 1,
            }
            for s in spider.stages
        ],
    )
    for opp in (card("Echo"), card("Feeder")):
        assert _win(stronger, opp, options) >= _win(spider, opp, options) - 1e-12
    for name in ("Timur", "Echo"):
        op = card(name)
        for opp in (card("Pluto"), card("Feeder"), card("The Spider")):
            assert _win(_better_operative(op), opp, options) >= _win(op, opp, options) - 1e-12


def _p_wound(dice: dict[str, int], defense: int, secure: int = 0, success: int = 0) -> float:
    probs = unbotched_successes(load_dice(), dice, secure)
    totals = np.maximum(np.arange(probs.size) + success, 0)
    return float(probs[totals >= defense].sum())


def test_legion_duel_closed_form() -> None:
    """1 ACTION each, 3 TURNS per ROUND: A wins at its k-th ATTACK with pA ((1-pA)(1-pB))^(k-1)."""
    a = legion("A", attack={"white": 2, "black": 1}, defense=2)
    b = legion("B", attack={"white": 1, "fatal": 1}, defense=3)
    pa = _p_wound({"white": 2, "black": 1, "fatal": 0}, 3)
    pb = _p_wound({"white": 1, "black": 0, "fatal": 1}, 2)
    model = D.duel_model(a, b, DuelOptions(max_rounds=4))
    exact = exact_of(model, True)
    miss = (1 - pa) * (1 - pb)
    for r in range(1, 5):
        turns = range(3 * (r - 1), 3 * r)
        a_wins = sum(pa * miss**k for k in turns)
        b_wins = sum((1 - pa) * pb * miss**k for k in turns)
        assert exact[model.space.index(WIN_A, r, 1, 0)] == pytest.approx(a_wins, abs=1e-14)
        assert exact[model.space.index(WIN_B, r, 0, 1)] == pytest.approx(b_wins, abs=1e-14)
    assert exact[model.space.index(DRAW, 4, 1, 1)] == pytest.approx(miss**12, abs=1e-14)


def test_approach_by_move() -> None:
    """DISTANCE 5, MOVE 2 (SPEED +1: 3): A moves to 2, B (MOVE 2) closes to 0, then A strikes."""
    a = legion("A", trait={"name": "Fast", "abilities": {"speed": 1}})
    b = legion("B", attack={"white": 0}, defense=0)
    model = D.duel_model(a, b, DuelOptions(start="range", distance=5, max_rounds=1))
    exact = exact_of(model, True)
    p = _p_wound({"white": 2, "black": 1, "fatal": 0}, 0)  # DEFENSE 0: fails only on a BOTCH
    # ACTIONS: A move (5 -> 2), B move (2 -> 0), A attack, B attack (0 dice: always 0 < 2),
    # A attack, B attack: A has 2 attacks in the ROUND.
    assert exact[model.space.index(WIN_A, 1, 1, 0)] == pytest.approx(1 - (1 - p) ** 2, abs=1e-14)


def test_activation_summary_bare_handed() -> None:
    """Two BARE HANDED ATTACKS (no WEAPON to FLIP): kill 1 - (1-p)^2 on a 1-WOUND LEGION."""
    op = modified(BRITTLE, name="Fists", items=[])
    target = legion(defense=1)
    summary = D.activation_summary(op, target)
    p = _p_wound({"white": 0, "black": 1, "fatal": 0}, 1, success=1)  # PRIMAL, SUCCESS +1
    assert summary.target_health == 1
    assert summary.kill_probability == pytest.approx(1 - (1 - p) ** 2, abs=1e-14)
    assert summary.expected_wounds == pytest.approx(summary.kill_probability, abs=1e-14)


def test_activation_summary_legion() -> None:
    summary = D.activation_summary(card("Feeder"), card("Timur"))
    p = _p_wound({"white": 2, "black": 1, "fatal": 0}, 1)  # Timur starts in PRIMAL: DEFENSE 1
    assert summary.expected_wounds == pytest.approx(p, abs=1e-14)
    assert summary.kill_probability == 0.0
    assert summary.target_health == 4


def test_start_side_and_notes() -> None:
    model = D.duel_model(card("Timur"), card("Echo"), DuelOptions(start="range", distance=3))
    assert any("Timur starts in FOCUS" in n for n in model.notes)  # Fungicide Rifle reaches 3
    model = D.duel_model(card("Timur"), card("Cackler"), DuelOptions())
    assert any("Timur starts in PRIMAL" in n for n in model.notes)
    assert any("Patch Up" in n for n in model.notes)
