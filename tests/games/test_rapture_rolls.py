"""Rapture roll mechanics: brute force, Monte Carlo vs exact, worked examples, bad input."""

from __future__ import annotations

import itertools

import pytest

from analyzer.dice.mechanic import analyze
from analyzer.errors import InputError
from analyzer.games import get_mechanic
from tests.mc_checks import assert_matches_enumeration, assert_mc_matches_exact, enumerate_outcomes

D6 = range(1, 7)


def resolve_attack(dodge_faces, hit_faces, block_faces, hit_at, block_at, damage_mod=0):
    """Literal reading of "Battle and Handling Hits" for given faces.

    Each dodge success (4+) cancels one attack die; we drop the *last* dice of
    the hit roll, which is equivalent since all dice are exchangeable.
    """
    removed = sum(f >= 4 for f in dodge_faces)
    kept = hit_faces[: max(len(hit_faces) - removed, 0)]
    hits = sum(f >= hit_at for f in kept)
    blocks = sum(f >= block_at for f in block_faces)
    return max(max(hits - blocks, 0) + damage_mod, 0)


def test_worked_example_raziel_attacks_kyenar_with_scale_skin():
    # "Action: Close Combat Attack": 6 2 1 5 3 3 at 3+ is 4 hits, Kyenar blocks with a 5,
    # 3 damage, Scale Skin -1: 2 wounds.
    assert resolve_attack((), (6, 2, 1, 5, 3, 3), (5,), hit_at=3, block_at=5, damage_mod=-1) == 2


def test_worked_example_hilde_counterblow():
    # "Reaction: Counterblow": Hilde's CCS 3+ becomes 4+, rolls 4 4 2 1 (2 hits),
    # Raziel's DEF 3 rolls 5 2 1 (1 block): 1 wound.
    params = get_mechanic("rapture", "attack").prepare(
        {"kind": "counterblow", "dice": 4, "skill": 3, "defense": 3}
    )
    assert params["hit_at"] == 4
    assert resolve_attack((), (4, 4, 2, 1), (5, 2, 1), params["hit_at"], params["block_at"]) == 1


def test_worked_example_leyra_shoots_lincoln():
    # "Action: Ranged Attack": MMS 3+, ROF 4, 5 4 1 3 (3 hits); DEF 2 rolls 5 1: 2 wounds.
    params = get_mechanic("rapture", "attack").prepare(
        {"kind": "ranged", "dice": 4, "skill": 3, "defense": 2}
    )
    assert (params["hit_at"], params["block_dice"], params["block_at"]) == (3, 2, 5)
    assert resolve_attack((), (5, 4, 1, 3), (5, 1), params["hit_at"], params["block_at"]) == 2


def test_worked_example_noelle_countershot_threshold():
    # "Reaction: Countershot": Noelle's MMS 3+ becomes 4+.
    params = get_mechanic("rapture", "attack").prepare(
        {"kind": "countershot", "dice": 2, "skill": 3, "defense": 1}
    )
    assert params["hit_at"] == 4


def test_worked_example_noelle_jumps_down():
    # "Action: Jump Down": 3 hits reduced by TEC 1 to 2, DEF 1 rolls a 5: 1 wound.
    mech = get_mechanic("rapture", "jump-down")
    params = mech.prepare({"tec": 1, "defense": 1})
    assert params["hits"] == 2
    dist = mech.exact(params)
    # one block die: 5+ blocks one of the two hits
    assert dist.probs[1] == pytest.approx(1 / 3, abs=1e-15)
    assert dist.probs[2] == pytest.approx(2 / 3, abs=1e-15)


def test_worked_example_eleanor_difficult_terrain():
    # "Difficult Terrain" example A: 5+ improved by TEC 2 to 3+.
    params = get_mechanic("rapture", "terrain").prepare({"tec": 2})
    assert params["roll_at_least"] == 3


ATTACK_GRID = [
    {
        "kind": kind,
        "dice": dice,
        "skill": skill,
        "defense": defense,
        "dodge": dodge,
        "cover": cover,
        "damage_mod": mod,
    }
    for kind, cover, dodge in [
        ("melee", "none", 0),
        ("melee", "none", 2),
        ("melee", "shelter", 1),
        ("ranged", "none", 0),
        ("ranged", "obstacle", 0),
        ("ranged", "high-ground", 0),
        ("ranged", "shelter", 0),
        ("countershot", "obstacle", 0),
        ("counterblow", "none", 0),
    ]
    for dice, skill, defense, mod in [(3, 3, 1, 0), (2, 5, 2, -1), (3, 2, 1, 1)]
]


@pytest.mark.parametrize("raw", ATTACK_GRID, ids=lambda r: "-".join(str(v) for v in r.values()))
def test_attack_exact_matches_brute_force(raw):
    mech = get_mechanic("rapture", "attack")
    p = mech.prepare(raw)
    # literal rules, independent of attack_thresholds()
    bonus = {"none": 0, "obstacle": 2, "high-ground": 1, "shelter": 1}[raw["cover"]]
    ranged = raw["kind"] in ("ranged", "countershot")
    hit_at = raw["skill"] + (1 if raw["kind"] in ("counterblow", "countershot") else 0)
    defense = raw["defense"] + bonus if ranged else raw["defense"]
    if raw["cover"] == "shelter" and not ranged:
        defense = raw["defense"] // 2
    block_at = 4 if (raw["cover"] == "shelter" and ranged) else 5
    n_dodge, n_hit = raw["dodge"], raw["dice"]
    dice = [D6] * (n_dodge + n_hit + defense)
    brute = enumerate_outcomes(
        dice,
        lambda f: resolve_attack(
            f[:n_dodge],
            f[n_dodge : n_dodge + n_hit],
            f[n_dodge + n_hit :],
            hit_at,
            block_at,
            raw["damage_mod"],
        ),
    )
    dist = mech.exact(p)
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)


@pytest.mark.parametrize("from_round", [1, 2, 3, 5, 6])
def test_ascension_exact_matches_brute_force(from_round):
    table = {2: 4, 3: 3, 4: 2, 5: 1, 6: 1}  # "Test Rolls: Ascension"
    rounds = [r for r in range(2, 7) if r >= max(from_round, 2)]

    def first_success(faces):
        for r, face in zip(rounds, faces):
            if face >= table[r]:
                return r
        return 7

    brute = enumerate_outcomes([D6] * len(rounds), first_success)
    mech = get_mechanic("rapture", "ascension")
    dist = mech.exact(mech.prepare({"from_round": from_round}))
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)


@pytest.mark.parametrize("mp", [0, 1, 3, 6, 7, 12])
def test_morale_exact_matches_brute_force(mp):
    brute = enumerate_outcomes([D6], lambda f: int(f[0] < mp))
    mech = get_mechanic("rapture", "morale")
    dist = mech.exact(mech.prepare({"mp": mp}))
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)


def test_fate_exact_matches_brute_force():
    brute = enumerate_outcomes([D6, D6], lambda f: int(f[1] > f[0] or f[1] == 6))
    mech = get_mechanic("rapture", "fate")
    dist = mech.exact(mech.prepare({}))
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)


@pytest.mark.parametrize(("tec", "defense", "mod"), [(0, 0, 0), (1, 2, 0), (2, 3, -1), (4, 1, 1)])
def test_jump_down_exact_matches_brute_force(tec, defense, mod):
    hits = max(3 - tec, 0)
    brute = enumerate_outcomes(
        [D6] * defense, lambda f: max(max(hits - sum(x >= 5 for x in f), 0) + mod, 0)
    )
    mech = get_mechanic("rapture", "jump-down")
    dist = mech.exact(mech.prepare({"tec": tec, "defense": defense, "damage_mod": mod}))
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)


@pytest.mark.parametrize("tec", [0, 1, 2, 3, 4, 9])
def test_terrain_exact_matches_brute_force(tec):
    brute = enumerate_outcomes([D6], lambda f: int(f[0] >= 5 - tec))
    mech = get_mechanic("rapture", "terrain")
    dist = mech.exact(mech.prepare({"tec": tec}))
    assert_matches_enumeration(dist.outcomes, dist.probs, brute)


MC_CASES = [
    ("attack", {"kind": "melee", "dice": 6, "skill": 3, "defense": 2, "dodge": 2}),
    ("attack", {"kind": "ranged", "dice": 4, "skill": 4, "defense": 1, "cover": "shelter"}),
    ("attack", {"kind": "countershot", "dice": 5, "skill": 3, "defense": 2, "cover": "obstacle"}),
    ("attack", {"kind": "melee", "dice": 12, "skill": 2, "defense": 4, "damage_mod": -1}),
    ("ascension", {"from_round": 3}),
    ("morale", {"mp": 4}),
    ("fate", {}),
    ("jump-down", {"tec": 0, "defense": 2}),
    ("terrain", {"tec": 1}),
]


@pytest.mark.parametrize(
    ("name", "raw"), MC_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(MC_CASES)]
)
def test_monte_carlo_matches_exact(name, raw):
    result = analyze(get_mechanic("rapture", name), raw, trials=200_000, seed=11)
    assert_mc_matches_exact(result)


@pytest.mark.slow
def test_monte_carlo_matches_exact_large_run():
    raw = {"kind": "melee", "dice": 8, "skill": 4, "defense": 3, "dodge": 3, "cover": "shelter"}
    result = analyze(get_mechanic("rapture", "attack"), raw, trials=5_000_000, seed=5)
    assert_mc_matches_exact(result)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            {"kind": "ranged", "dice": 3, "skill": 3, "defense": 1, "dodge": 1},
            "only applies to melee",
        ),
        (
            {"kind": "melee", "dice": 3, "skill": 3, "defense": 1, "cover": "obstacle"},
            "does not apply",
        ),
        (
            {"kind": "countershot", "dice": 3, "skill": 3, "defense": 1, "cover": "shelter"},
            "does not apply",
        ),
        (
            {"kind": "counterblow", "dice": 3, "skill": 3, "defense": 1, "cover": "shelter"},
            "does not apply",
        ),
        ({"kind": "melee", "dice": -1, "skill": 3, "defense": 1}, "--dice must be >= 0"),
        ({"kind": "melee", "dice": 3, "skill": 7, "defense": 1}, "--skill must be <= 6"),
        ({"kind": "melee", "dice": 3, "skill": 0, "defense": 1}, "--skill must be >= 1"),
        ({"kind": "melee", "skill": 3, "defense": 1}, "--dice is required"),
    ],
)
def test_attack_rejects_bad_input(raw, message):
    with pytest.raises(InputError, match=message):
        analyze(get_mechanic("rapture", "attack"), raw, trials=0, seed=0)


def test_every_allowed_cover_combination_is_accepted():
    mech = get_mechanic("rapture", "attack")
    allowed = {("melee", "none"), ("melee", "shelter"), ("counterblow", "none")}
    allowed |= {("ranged", c) for c in ("none", "obstacle", "high-ground", "shelter")}
    allowed |= {("countershot", c) for c in ("none", "obstacle", "high-ground")}
    kinds = ("melee", "ranged", "counterblow", "countershot")
    covers = ("none", "obstacle", "high-ground", "shelter")
    for kind, cover in itertools.product(kinds, covers):
        raw = {"kind": kind, "dice": 2, "skill": 3, "defense": 1, "cover": cover}
        if (kind, cover) in allowed:
            mech.prepare(raw)
        else:
            with pytest.raises(InputError):
                mech.prepare(raw)
