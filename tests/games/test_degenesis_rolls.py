"""Degenesis: Clan Wars roll mechanics: brute force, Monte Carlo vs exact, rule examples, bad input.

The brute force below is a literal reading of "Dice Rolls", "Secure", "Overcommitting",
"Scout" and "Area Attack" applied to every combination of faces; the faces come from an
independent plain YAML parse of ``configs/degenesis/dice.yaml``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from ruamel.yaml import YAML

from analyzer.config.yaml_io import ConfigError
from analyzer.dice.mechanic import analyze
from analyzer.dice.simulate import simulate_counts
from analyzer.errors import InputError
from analyzer.games import get_mechanic
from analyzer.games.degenesis import rules
from analyzer.paths import system_config
from tests.mc_checks import assert_matches_enumeration, assert_mc_matches_exact, enumerate_outcomes

TYPES = ("white", "black", "fatal")
BOTCHED = -1


def yaml_faces() -> dict[str, list]:
    """The faces of the bundled dice file, read with a plain safe YAML parse."""
    data = YAML(typ="safe").load(system_config("degenesis", "dice.yaml").read_text())

    def face(f):
        if f == "botch":
            return "botch"
        return 0 if f == "blank" else f["successes"]

    return {t: [face(f) for f in data["dice"][t]] for t in TYPES}


FACES = yaml_faces()


# ------------------------------------------------------------ literal rules
def resolve(shown, secure=0, mod=0, added_botches=0):
    """One ROLL read literally from "Dice Rolls" and "Secure".

    ``shown`` lists the faces on the table ("botch" or a number of SUCCESSES).
    More BOTCHES (rolled plus added) than SECURES: the ROLL botches.  Otherwise the
    SECURED BOTCHES are BLANK, the SUCCESSES are summed and SUCCESS +/-X is added
    (never below 0).
    """
    botches = sum(1 for f in shown if f == "botch") + added_botches
    if botches > secure:
        return BOTCHED
    return max(sum(f for f in shown if f != "botch") + mod, 0)


def resolve_no_difficulty(shown, mod=0):
    """No DIFFICULTY ("Dice Rolls"): "BOTCHES simply count as a BLANK face"."""
    return max(sum(0 if f == "botch" else f for f in shown) + mod, 0)


def succeeded(outcome, difficulty):
    return outcome != BOTCHED and outcome >= difficulty


def wounded(outcome, defense, targets, threats, area, hidden):
    """Every target whose DEFENSE the total reaches is WOUNDED ("Attack", "Area Attack")."""
    if outcome == BOTCHED:
        return BOTCHED
    extra = hidden if area else 0
    hits = targets if outcome >= defense + extra else 0
    return hits + (threats if outcome >= defense + extra + 2 else 0)


def scouted(outcome, distance, hidden, threats):
    """Scout: DIFFICULTY = DISTANCE (HIDDEN-modified, >= 0); 1 THREAT + 1 per extra SUCCESS."""
    if outcome == BOTCHED:
        return BOTCHED
    difficulty = max(distance + hidden, 0)
    if outcome < difficulty:
        return 0
    found = 1 + outcome - difficulty
    return found if threats is None else min(found, threats)


def pool_faces(raw):
    """The dice rolled: the POOL plus an OVERCOMMITTED die ("Overcommitting")."""
    dice = []
    for t in TYPES:
        dice += [FACES[t]] * raw.get(t, 0)
    if raw.get("overcommit", "none") in TYPES:
        dice.append(FACES[raw["overcommit"]])
    return dice


def risk(raw):
    secure = raw.get("secure", 0) + (1 if raw.get("overcommit") == "secure" else 0)
    return {
        "secure": secure,
        "mod": raw.get("success_mod", 0),
        "added_botches": raw.get("added_botches", 0),
    }


def brute_force(raw, outcome_of_roll, failed):
    """Enumerate one ROLL, or two (a REROLL after a failure) when ``raw["reroll"]``."""
    dice = pool_faces(raw)
    n = len(dice)
    if not raw.get("reroll"):
        return enumerate_outcomes(dice, lambda f: outcome_of_roll(resolve(f, **risk(raw))))

    def twice(f):
        first = outcome_of_roll(resolve(f[:n], **risk(raw)))
        return outcome_of_roll(resolve(f[n:], **risk(raw))) if failed(first) else first

    return enumerate_outcomes(dice + dice, twice)


# ------------------------------------------------------------ rulebook examples
def test_rule_example_secure_turns_botch_into_blank():
    # "Secure": a SECURED ROLL treats up to X BOTCHES as BLANK; one more BOTCH botches.
    assert resolve(["botch", 3, 2], secure=1) == 5
    assert resolve(["botch", 3, 2], secure=0) == BOTCHED
    assert resolve(["botch", "botch", 4], secure=1) == BOTCHED
    # "Dice Rolls": any BOTCH face fails a ROLL with a DIFFICULTY, whatever its SUCCESSES
    assert not succeeded(resolve(["botch", 4, 4, 4]), 2)
    # ... but not a ROLL without DIFFICULTY
    assert resolve_no_difficulty(["botch", 4, 4, 4]) == 12


def test_rule_example_tarot_creator_mentor_abomination():
    # "Tarot Effects": I SUCCESS +3, II SECURE 3, XII adds 3 BOTCHES.
    assert resolve([1, 0], mod=rules.CREATOR_SUCCESS) == 4
    assert resolve(["botch", "botch", 2], secure=rules.MENTOR_SECURE) == 2
    assert resolve([2, 2], added_botches=rules.ABOMINATION_BOTCHES) == BOTCHED
    assert resolve([2, 2], secure=3, added_botches=rules.ABOMINATION_BOTCHES) == 4


def test_worked_example_area_attack_on_two_cacklers():
    # "Gameplay Example: Area Attack": Timur ROLLS 3 against two unREVEALED Cacklers
    # (DEFENSE 3); THREATS have +2 DEFENSE against AREA ATTACKS, so both survive.
    mech = get_mechanic("degenesis", "attack")
    p = mech.prepare({"white": 2, "defense": 3, "area": True, "targets": 0, "threats": 2})
    assert p["threat_defense"] == 5
    assert wounded(3, 3, targets=0, threats=2, area=True, hidden=0) == 0
    # revealed Cacklers would both have been WOUNDED by the same 3
    assert wounded(3, 3, targets=2, threats=0, area=True, hidden=0) == 2
    # Through both engines: a die whose every face shows 3 SUCCESSES rolls exactly 3.
    p["faces"] = {"white": [3] * 6, "black": ["botch"] + [1] * 5, "fatal": ["botch"] * 2 + [1] * 4}
    p["dice"] = {"white": 1, "black": 0, "fatal": 0}
    dist = mech.exact(p)
    assert dist.probs[dist.outcomes == 0] == pytest.approx(1.0, abs=1e-15)
    counts = simulate_counts(mech.trial, mech.encode(p), dist.lowest, dist.highest, 1000, 3)
    assert counts[dist.outcomes == 0] == 1000


def test_worked_example_scout_reveals_extra_threats():
    # "Scout": DIFFICULTY = DISTANCE; each SUCCESS above it REVEALS 1 more THREAT.
    assert scouted(4, distance=2, hidden=0, threats=None) == 3
    assert scouted(4, distance=2, hidden=0, threats=2) == 2
    assert scouted(1, distance=2, hidden=0, threats=None) == 0
    # HARD TERRAIN gives HIDDEN +1: the DISTANCE grows by 1 ("Hidden")
    assert scouted(2, distance=2, hidden=1, threats=None) == 0
    p = get_mechanic("degenesis", "scout").prepare({"white": 3, "distance": 1, "hidden": -3})
    assert p["difficulty"] == 0  # "A DISTANCE can never be less than 0"


def test_overcommit_adds_one_die_or_secure_and_feeds_the_opponent():
    mech = get_mechanic("degenesis", "check")
    p = mech.prepare({"white": 1, "black": 2, "difficulty": 3, "overcommit": "fatal"})
    assert p["dice"] == {"white": 1, "black": 2, "fatal": 1}
    assert p["opponent_draws_arcana"] == 1
    p = mech.prepare({"black": 2, "difficulty": 3, "secure": 1, "overcommit": "secure"})
    assert (p["secure_total"], p["botch_limit"]) == (2, 2)
    p = mech.prepare({"black": 2, "difficulty": 3, "secure": 1, "added_botches": 3})
    assert p["botch_limit"] == -2 and p["opponent_draws_arcana"] == 0


def test_faces_reported_in_params_are_the_config_faces():
    p = get_mechanic("degenesis", "check").prepare({"white": 1, "difficulty": 1})
    assert p["faces"] == FACES
    assert [sum(f == "botch" for f in FACES[t]) for t in TYPES] == [0, 1, 2]


# ------------------------------------------------------------ exact vs brute force
POOLS = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (2, 1, 1), (1, 2, 2), (0, 2, 3), (3, 0, 2)]
CHECK_VARIANTS: list[dict[str, Any]] = [
    {"difficulty": 0},
    {"difficulty": 3},
    {"difficulty": 4, "secure": 1},
    {"difficulty": 2, "success_mod": -2},
    {"difficulty": 5, "success_mod": 3, "secure": 2, "added_botches": 3},
    {"difficulty": 3, "overcommit": "fatal"},
    {"difficulty": 4, "overcommit": "secure", "added_botches": 1},
    {"difficulty": 6, "secure": 5},
]
CHECK_GRID = [
    {"white": w, "black": b, "fatal": f, **v} for (w, b, f) in POOLS for v in CHECK_VARIANTS
]


def _id(raw):
    return "-".join(f"{k[:3]}{v}" for k, v in raw.items())


@pytest.mark.parametrize("raw", CHECK_GRID, ids=_id)
def test_check_exact_matches_brute_force(raw):
    mech = get_mechanic("degenesis", "check")
    brute = brute_force(raw, lambda o: o, lambda o: not succeeded(o, raw["difficulty"]))
    dist = mech.exact(mech.prepare(raw))
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)
    assert dist.probs.sum() == pytest.approx(1.0, abs=1e-13)


REROLL_GRID = [
    {"white": 1, "black": 1, "difficulty": 2, "reroll": True},
    {"black": 1, "fatal": 1, "difficulty": 3, "secure": 1, "reroll": True},
    {"fatal": 2, "difficulty": 4, "success_mod": 1, "reroll": True, "overcommit": "white"},
]


@pytest.mark.parametrize("raw", REROLL_GRID, ids=_id)
def test_check_reroll_exact_matches_brute_force(raw):
    mech = get_mechanic("degenesis", "check")
    brute = brute_force(raw, lambda o: o, lambda o: not succeeded(o, raw["difficulty"]))
    dist = mech.exact(mech.prepare(raw))
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)


SUCCESSES_GRID = [
    {"white": w, "black": b, "fatal": f, **v}
    for (w, b, f) in POOLS
    for v in ({}, {"success_mod": -3}, {"success_mod": 2, "overcommit": "black"})
]


@pytest.mark.parametrize("raw", SUCCESSES_GRID, ids=_id)
def test_successes_exact_matches_brute_force(raw):
    mech = get_mechanic("degenesis", "successes")
    brute = enumerate_outcomes(
        pool_faces(raw), lambda f: resolve_no_difficulty(f, raw.get("success_mod", 0))
    )
    dist = mech.exact(mech.prepare(raw))
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)


ATTACK_GRID = [
    {"white": w, "black": b, "fatal": f, **v}
    for (w, b, f) in [(2, 1, 1), (0, 2, 2), (1, 0, 3)]
    for v in (
        {"defense": 3},
        {"defense": 0, "success_mod": -1},
        {"defense": 4, "secure": 1, "overcommit": "black"},
        {"defense": 3, "area": True, "targets": 2, "threats": 1},
        {"defense": 2, "area": True, "targets": 0, "threats": 3, "hidden": 1},
        {"defense": 4, "area": True, "targets": 1, "threats": 2, "hidden": -2, "secure": 2},
        {"defense": 3, "reroll": True},
        {"defense": 5, "area": True, "targets": 1, "threats": 1, "reroll": True},
    )
    if not (v.get("reroll") and w + b + f > 3)
] + [{"white": 1, "fatal": 2, "defense": 4, "reroll": True, "area": True, "threats": 1}]


@pytest.mark.parametrize("raw", ATTACK_GRID, ids=_id)
def test_attack_exact_matches_brute_force(raw):
    mech = get_mechanic("degenesis", "attack")
    args = {
        "defense": raw["defense"],
        "targets": raw.get("targets", 1),
        "threats": raw.get("threats", 0),
        "area": raw.get("area", False),
        "hidden": raw.get("hidden", 0),
    }
    brute = brute_force(raw, lambda o: wounded(o, **args), lambda w: w <= 0)
    dist = mech.exact(mech.prepare(raw))
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)


SCOUT_GRID = [
    {"white": w, "black": b, "fatal": f, **v}
    for (w, b, f) in [(2, 1, 1), (0, 2, 2), (3, 0, 2), (0, 0, 0)]
    for v in (
        {"distance": 0},
        {"distance": 2},
        {"distance": 3, "threats": 2},
        {"distance": 2, "hidden": 1, "secure": 1},
        {"distance": 1, "hidden": -2, "threats": 1, "success_mod": -1},
        {"distance": 30},
        {"distance": 30, "threats": 3},
    )
] + [
    {"white": 1, "black": 1, "distance": 2, "reroll": True},
    {"fatal": 2, "distance": 1, "threats": 2, "reroll": True, "secure": 1},
]


@pytest.mark.parametrize("raw", SCOUT_GRID, ids=_id)
def test_scout_exact_matches_brute_force(raw):
    mech = get_mechanic("degenesis", "scout")
    args = {
        "distance": raw["distance"],
        "hidden": raw.get("hidden", 0),
        "threats": raw.get("threats"),
    }
    brute = brute_force(raw, lambda o: scouted(o, **args), lambda r: r <= 0)
    dist = mech.exact(mech.prepare(raw))
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)


# ------------------------------------------------------------ large pools
def dp_roll(raw):
    """Die-by-die DP over (SUCCESSES, BOTCHES) without truncation, then the literal rules."""
    dice = pool_faces(raw)
    r = risk(raw)
    top = sum(max(f for f in d if f != "botch") for d in dice)
    table = np.zeros((top + 1, len(dice) + 1))
    table[0, 0] = 1.0
    for die in dice:
        new = np.zeros_like(table)
        for f in die:
            if f == "botch":
                new[:, 1:] += table[:, :-1] / 6
            else:
                new[f:, :] += table[: top + 1 - f, :] / 6
        table = new
    out: dict[int, float] = {}
    for s in range(top + 1):
        for b in range(len(dice) + 1):
            if table[s, b]:
                o = resolve(["botch"] * b + [s], **r)
                out[o] = out.get(o, 0.0) + table[s, b]
    return out


LARGE = [
    {"white": 13, "black": 13, "fatal": 14, "difficulty": 20, "secure": 3},
    {"black": 20, "fatal": 20, "difficulty": 30, "secure": 19, "success_mod": -4},
    {"white": 39, "difficulty": 20, "overcommit": "fatal", "added_botches": 1},
    {"fatal": 40, "difficulty": 60, "secure": 13},
    {"white": 5, "black": 30, "difficulty": 40, "secure": 40},
]


@pytest.mark.parametrize("raw", LARGE, ids=_id)
def test_check_large_pools_match_independent_dp(raw):
    mech = get_mechanic("degenesis", "check")
    dist = mech.exact(mech.prepare(raw))
    dp = dp_roll(raw)
    listed = dict(zip(dist.outcomes.tolist(), dist.probs.tolist(), strict=True))
    for outcome, p in dp.items():
        assert listed[outcome] == pytest.approx(p, abs=1e-12)
    assert sum(listed.values()) == pytest.approx(1.0, abs=1e-12)


def test_tiny_botch_probability_is_accurate():
    # 20 BLACK + 20 FATAL with SECURE 39: botches only if every die shows a BOTCH.
    mech = get_mechanic("degenesis", "check")
    dist = mech.exact(mech.prepare({"black": 20, "fatal": 20, "difficulty": 1, "secure": 39}))
    expected = (1 / 6) ** 20 * (2 / 6) ** 20
    assert dist.probs[0] == pytest.approx(expected, rel=1e-9)


def test_exact_is_fast_for_forty_dice():
    mech = get_mechanic("degenesis", "check")
    p = mech.prepare({"white": 13, "black": 13, "fatal": 14, "difficulty": 20, "secure": 3})
    mech.exact(p)
    runs = 50
    start = time.perf_counter()
    for _ in range(runs):
        mech.exact(p)
    # "well under 1 ms" on an idle core; generous margin for a shared machine
    assert (time.perf_counter() - start) / runs < 5e-3


# ------------------------------------------------------------ Monte Carlo vs exact
MC_CASES = [
    ("check", {"white": 2, "black": 2, "fatal": 1, "difficulty": 4, "secure": 1}),
    ("check", {"white": 6, "black": 6, "fatal": 6, "difficulty": 12, "success_mod": -2}),
    ("check", {"black": 3, "fatal": 3, "difficulty": 5, "overcommit": "secure", "reroll": True}),
    ("check", {"black": 2, "difficulty": 1, "secure": 1, "added_botches": 2}),
    ("check", {"white": 13, "black": 13, "fatal": 14, "difficulty": 25, "secure": 4}),
    ("successes", {"white": 3, "black": 2, "fatal": 2, "overcommit": "fatal"}),
    ("successes", {"fatal": 5, "success_mod": -3}),
    ("attack", {"white": 2, "black": 2, "defense": 3}),
    (
        "attack",
        {
            "black": 3,
            "fatal": 2,
            "defense": 4,
            "area": True,
            "targets": 2,
            "threats": 2,
            "hidden": 1,
            "secure": 1,
            "reroll": True,
        },
    ),
    ("scout", {"white": 3, "black": 1, "distance": 2}),
    ("scout", {"black": 2, "fatal": 2, "distance": 3, "hidden": 1, "threats": 3, "reroll": True}),
]


@pytest.mark.parametrize(
    ("name", "raw"), MC_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(MC_CASES)]
)
def test_monte_carlo_matches_exact(name, raw):
    # 40-dice pools have outcomes of probability ~1e-8, where one stray hit exceeds 5 SE
    # (about a 5% chance per run); the seed is fixed, so the result is reproducible.
    result = analyze(get_mechanic("degenesis", name), raw, trials=200_000, seed=23)
    assert_mc_matches_exact(result)
    for event in result.events.values():
        assert event.exact is not None and event.mc is not None and event.se is not None
        assert abs(event.mc - event.exact) <= 5 * max(event.se, 1e-9)


@pytest.mark.slow
def test_monte_carlo_matches_exact_large_run():
    raw = {"white": 4, "black": 4, "fatal": 4, "difficulty": 10, "secure": 1, "reroll": True}
    # see test_monte_carlo_matches_exact about ~1e-8 tail outcomes (seed 5 draws one)
    result = analyze(get_mechanic("degenesis", "check"), raw, trials=1_000_000, seed=7)
    assert_mc_matches_exact(result)


def test_events_follow_the_rules():
    raw = {"white": 1, "black": 1, "fatal": 1, "difficulty": 3, "secure": 0}
    result = analyze(get_mechanic("degenesis", "check"), raw, trials=0, seed=0)
    brute = brute_force(raw, lambda o: o, lambda o: False)
    p_success = sum(p for o, p in brute.items() if succeeded(o, 3))
    assert result.events["p_success"].exact == pytest.approx(float(p_success), abs=1e-12)
    assert result.events["p_botch"].exact == pytest.approx(float(brute[BOTCHED]), abs=1e-12)


# ------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("name", "raw", "message"),
    [
        ("check", {"white": 1}, "--difficulty is required"),
        ("check", {"white": 1, "difficulty": -1}, "--difficulty must be >= 0"),
        ("check", {"white": -1, "difficulty": 1}, "--white must be >= 0"),
        ("check", {"white": 41, "difficulty": 1}, "--white must be <= 40"),
        ("check", {"white": 20, "black": 21, "difficulty": 1}, "at most 40 dice"),
        ("check", {"white": 40, "difficulty": 1, "overcommit": "black"}, "OVERCOMMITTED"),
        ("check", {"white": 1, "difficulty": 1, "secure": -1}, "--secure must be >= 0"),
        ("check", {"white": 1, "difficulty": 1, "success_mod": 41}, "--success-mod must be <="),
        ("check", {"white": 1, "difficulty": 1, "added_botches": -3}, "--added-botches"),
        ("check", {"white": 1, "difficulty": 1, "colour": 1}, "unknown parameter"),
        ("successes", {"white": 1, "secure": 1}, "unknown parameter"),
        ("attack", {"white": 1, "defense": 2, "threats": 1}, "--threats needs --area"),
        ("attack", {"white": 1, "defense": 2, "targets": 2}, "--targets must be 1"),
        ("attack", {"white": 1, "defense": 2, "hidden": 1}, "--hidden needs --area"),
        ("attack", {"white": 1, "defense": 2, "area": True, "targets": 0}, "at least one target"),
        ("attack", {"white": 1, "defense": -2}, "--defense must be >= 0"),
        ("scout", {"white": 1, "distance": -1}, "--distance must be >= 0"),
        ("scout", {"white": 1, "distance": 1, "threats": 0}, "--threats must be >= 1"),
        ("scout", {"white": 1}, "--distance is required"),
    ],
)
def test_rejects_bad_input(name, raw, message):
    with pytest.raises(InputError, match=message):
        analyze(get_mechanic("degenesis", name), raw, trials=0, seed=0)


# ------------------------------------------------------------ dice config
GOOD = """\
dice:
  white: [blank, blank, {successes: 1}, {successes: 1}, {successes: 1}, {successes: 2}]
  black: [botch, blank, {successes: 1}, {successes: 2}, {successes: 2}, {successes: 3}]
  fatal: [botch, botch, {successes: 2}, {successes: 3}, {successes: 3}, {successes: 4}]
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "dice.yaml"
    path.write_text(text)
    return path


def test_dice_loader_reads_faces(tmp_path):
    faces = rules.load_dice(_write(tmp_path, GOOD.replace("{successes: 4}", "{successes: 7}")))
    assert faces["white"] == (0, 0, 1, 1, 1, 2)
    assert faces["black"] == (rules.BOTCH, 0, 1, 2, 2, 3)
    assert faces["fatal"] == (rules.BOTCH, rules.BOTCH, 2, 3, 3, 7)


def test_bundled_dice_file_is_labelled_sample_data():
    text = system_config("degenesis", "dice.yaml").read_text()
    assert "SAMPLE DATA" in text
    assert rules.load_dice() == {
        t: tuple(-1 if f == "botch" else f for f in FACES[t]) for t in TYPES
    }


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (("white: [blank, blank,", "white: [botch, blank,"), ":2: dice.white: must have 0 botch"),
        (("black: [botch, blank,", "black: [blank, blank,"), ":3: dice.black: must have 1 botch"),
        (("fatal: [botch, botch,", "fatal: [botch, blank,"), ":4: dice.fatal: must have 2 botch"),
        ((", {successes: 2}]\n  black", "]\n  black"), ":2: dice.white: must have 6 faces (got 5)"),
        (("{successes: 3}]", "{successes: -3}]"), ":3: dice.black[5].successes: must be >= 0"),
        (("{successes: 4}]", "{successes: 2.5}]"), ":4: dice.fatal[5].successes: must be an int"),
        (("{successes: 4}]", "{successes: true}]"), ":4: dice.fatal[5].successes: must be an int"),
        (("[blank, blank,", "[blnk, blank,"), ":2: dice.white[0]: unknown face 'blnk'"),
        (("{successes: 4}]", "{sucesses: 4}]"), ":4: dice.fatal[5]: unknown key(s)"),
        (("  fatal: [", "  red: ["), ":4: dice.red: unknown die"),
        (("dice:", "dice_faces:"), ":1: dice: missing top-level"),
        ((GOOD.splitlines()[1], "  white: {successes: 1}"), ":2: dice.white: must be a list"),
    ],
)
def test_dice_loader_rejects_bad_files(tmp_path, edit, where):
    old, new = edit
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(ConfigError) as err:
        rules.load_dice(path)
    assert str(err.value).startswith(str(path))
    assert where in str(err.value)


def test_dice_loader_reports_missing_die(tmp_path):
    path = _write(tmp_path, "\n".join(GOOD.splitlines()[:3]) + "\n")
    with pytest.raises(ConfigError, match=r":1: dice.fatal: missing die"):
        rules.load_dice(path)
