"""Heroscape roll mechanics: exact vs brute force, Monte Carlo vs exact, rulebook examples."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from analyzer.config.yaml_io import ConfigError
from analyzer.dice.mechanic import analyze
from analyzer.errors import InputError
from analyzer.games.heroscape import rolls
from tests.mc_checks import assert_matches_enumeration, assert_mc_matches_exact, enumerate_outcomes

M = rolls.MECHANICS
D20 = list(range(1, 21))
#: The standard combat die, written out face by face (independent of dice.yaml).
STANDARD_DIE = ["skull"] * 3 + ["shield"] * 2 + ["blank"]


# ------------------------------------------------------- literal resolvers
def dice_counts(
    attack: int,
    defense: int,
    height: str = "none",
    terrain: str = "none",
    extreme: bool = False,
    special: bool = False,
) -> tuple[int, int]:
    """Attack and defense dice, read off "Height Advantage", the terrain sections and
    "Resolving a Master Game Attack" (a special attack gets no height die; the defender does).
    """
    extra = 2 if extreme else 1
    if height == "attacker" and not special:
        attack += extra
    defense += {"none": 0, "shadow": 1, "toxic-land": -1, "toxic-water": -2}[terrain]
    defense = max(defense, 0)
    if height == "defender":
        defense += extra
    return attack, defense


def resolve_attack(
    attack_faces: Sequence[str],
    defense_faces: Sequence[str],
    reroll_face: str | None = None,
    auto_skulls: int = 0,
    auto_shields: int = 0,
    extra_wounds: int = 0,
) -> int:
    """Wounds of one attack whose dice showed the given faces ("Compare Results")."""
    faces = list(attack_faces)
    if reroll_face is not None:
        misses = [i for i, f in enumerate(faces) if f != "skull"]
        if misses:  # Gulløx Wing Render: re-roll 1 die that did not show a skull
            faces[misses[0]] = reroll_face
    skulls = faces.count("skull") + auto_skulls
    shields = list(defense_faces).count("shield") + auto_shields
    if skulls > shields:  # "For each skull not blocked by a shield, the defender takes 1 wound"
        return skulls - shields + extra_wounds
    return 0


def brute_attack(params: dict[str, Any], die: list[str]) -> dict:
    a, d = dice_counts(
        params["attack"],
        params["defense"],
        params.get("height", "none"),
        params.get("terrain", "none"),
        params.get("extreme_height", False),
        params.get("special", False),
    )
    reroll = params.get("reroll_one", False)
    dice = [die] * (a + d + (1 if reroll else 0))

    def outcome(combo: tuple[str, ...]) -> int:
        return resolve_attack(
            combo[:a],
            combo[a : a + d],
            combo[-1] if reroll else None,
            params.get("auto_skulls", 0),
            params.get("auto_shields", 0),
            params.get("extra_wounds", 0),
        )

    return enumerate_outcomes(dice, outcome)


def check_exact(name: str, params: dict[str, Any], brute: dict) -> None:
    result = analyze(M[name], params, trials=0, seed=0)
    assert abs(result.exact.sum() - 1.0) < 1e-12
    assert_matches_enumeration(result.outcomes, result.exact, brute)


# ------------------------------------------------------------------- attack
ATTACK_GRID = [
    {"attack": 0, "defense": 0},
    {"attack": 1, "defense": 0},
    {"attack": 0, "defense": 2},
    {"attack": 2, "defense": 1},
    {"attack": 3, "defense": 2},
    {"attack": 2, "defense": 2, "height": "attacker"},
    {"attack": 2, "defense": 2, "height": "defender"},
    {"attack": 1, "defense": 1, "height": "attacker", "extreme_height": True},
    {"attack": 1, "defense": 2, "height": "defender", "extreme_height": True},
    {"attack": 2, "defense": 2, "terrain": "shadow"},
    {"attack": 2, "defense": 2, "terrain": "toxic-land"},
    {"attack": 2, "defense": 3, "terrain": "toxic-water"},
    {"attack": 2, "defense": 1, "terrain": "toxic-water", "height": "defender"},
    {"attack": 3, "defense": 1, "auto_shields": 1},
    {"attack": 1, "defense": 1, "auto_shields": 3},
    {"attack": 2, "defense": 2, "height": "attacker", "special": True},
    {"attack": 2, "defense": 1, "height": "defender", "special": True},
    {"attack": 2, "defense": 2, "auto_skulls": 1},
    {"attack": 2, "defense": 2, "reroll_one": True},
    {"attack": 0, "defense": 1, "reroll_one": True},
    {"attack": 3, "defense": 1, "reroll_one": True, "extra_wounds": 2},
    {"attack": 2, "defense": 2, "extra_wounds": 1, "auto_shields": 1},
]


@pytest.mark.parametrize("params", ATTACK_GRID)
def test_attack_exact_matches_enumeration(params: dict[str, Any]) -> None:
    check_exact("attack", params, brute_attack(params, STANDARD_DIE))


def test_attack_reports_dice_and_faces() -> None:
    p = M["attack"].prepare(
        {"attack": 3, "defense": 1, "terrain": "toxic-water", "height": "defender"}
    )
    assert p["combat_die"] == {"skull": 3, "shield": 2, "blank": 1}
    assert (p["attack_dice"], p["defense_value"], p["defense_dice"]) == (3, 0, 1)


def test_rulebook_attack_examples() -> None:
    """ "Master Game Attack Examples": SI-4X vs Cainak, then Cainak returns fire."""
    # SI-4X: Attack 2, no height; Cainak: Defense 3 with height advantage -> 4 dice.
    p = M["attack"].prepare({"attack": 2, "defense": 3, "height": "defender"})
    assert (p["attack_dice"], p["defense_dice"]) == (2, 4)
    assert dice_counts(2, 3, "defender") == (2, 4)
    # "2 skulls for the attacker" against "2 shields for the defender": no wounds.
    assert resolve_attack(["skull", "skull"], ["shield", "shield", "blank", "skull"]) == 0
    # Cainak: Attack 4 + height = 5 dice; SI-4X: Defense 5 + shadow (Obfuscation Matrix) = 6.
    p = M["attack"].prepare({"attack": 4, "defense": 5, "height": "attacker", "terrain": "shadow"})
    assert (p["attack_dice"], p["defense_dice"]) == (5, 6)
    # "3 skulls" against "2 shields": 1 wound.
    attack = ["skull", "skull", "skull", "shield", "blank"]
    defense = ["shield", "shield", "skull", "skull", "blank", "blank"]
    assert resolve_attack(attack, defense) == 1
    # The exact engine gives the first exchange a positive chance of exactly 0 wounds.
    res = analyze(M["attack"], {"attack": 2, "defense": 3, "height": "defender"}, 0, 0)
    assert 0 < res.exact[0] < 1


MC_ATTACKS = [
    ({"attack": 4, "defense": 3}, 11),
    ({"attack": 6, "defense": 4, "height": "attacker", "terrain": "shadow"}, 12),
    (
        {"attack": 5, "defense": 5, "height": "defender", "auto_shields": 1, "reroll_one": True},
        13,
    ),
    ({"attack": 3, "defense": 2, "auto_skulls": 1, "extra_wounds": 2}, 14),
    ({"attack": 12, "defense": 9, "height": "attacker", "extreme_height": True}, 15),
]


@pytest.mark.parametrize(("params", "seed"), MC_ATTACKS)
def test_attack_mc_matches_exact(params: dict[str, Any], seed: int) -> None:
    result = analyze(M["attack"], params, trials=200_000, seed=seed)
    assert_mc_matches_exact(result)
    assert result.events["p_wound"].exact == pytest.approx(1.0 - result.exact[0], abs=1e-12)


def test_attack_40_dice_is_exact_and_normalised() -> None:
    result = analyze(M["attack"], {"attack": 40, "defense": 40, "height": "attacker"}, 0, 0)
    assert abs(result.exact.sum() - 1.0) < 1e-12
    assert result.outcomes[-1] == 41


# ---------------------------------------------------------- custom die data
def write_die(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "dice.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def test_attack_uses_the_die_in_the_config(tmp_path: Path, monkeypatch: Any) -> None:
    path = write_die(tmp_path, "# test die\ncombat_die:\n  skull: 1\n  shield: 3\n  blank: 2\n")
    monkeypatch.setattr(rolls, "DICE_FILE", path)
    die = ["skull"] + ["shield"] * 3 + ["blank"] * 2
    params = {"attack": 3, "defense": 2, "auto_shields": 1, "reroll_one": True}
    check_exact("attack", params, brute_attack(params, die))
    result = analyze(M["attack"], {"attack": 6, "defense": 3}, trials=200_000, seed=21)
    assert result.params["combat_die"] == {"skull": 1, "shield": 3, "blank": 2}
    assert_mc_matches_exact(result)
    lava = analyze(M["lava-field"], {}, trials=200_000, seed=22)
    assert lava.exact[1] == pytest.approx(1 / 6, abs=1e-12)
    assert_mc_matches_exact(lava)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ("other: 1\n", ":1: combat_die: missing"),
        ("combat_die: 6\n", ":1: combat_die: must be a mapping"),
        ("combat_die:\n  skull: 3\n  shield: 2\n", "combat_die.blank: missing"),
        ("combat_die:\n  skull: 3\n  shield: 2\n  blank: 1\n  star: 1\n", ":5: combat_die.star"),
        ("combat_die:\n  skull: -1\n  shield: 2\n  blank: 1\n", ":2: combat_die.skull"),
        ("combat_die:\n  skull: 3\n  shield: two\n  blank: 1\n", ":3: combat_die.shield"),
        ("combat_die:\n  skull: 0\n  shield: 0\n  blank: 0\n", "needs 1..1024 faces"),
        ("combat_die: [\n", "YAML syntax error"),
    ],
)
def test_bad_dice_config(tmp_path: Path, monkeypatch: Any, body: str, fragment: str) -> None:
    path = write_die(tmp_path, body)
    monkeypatch.setattr(rolls, "DICE_FILE", path)
    with pytest.raises(ConfigError) as err:
        M["attack"].prepare({"attack": 2, "defense": 2})
    assert fragment in str(err.value)
    assert str(path) in str(err.value)


def test_bundled_config_is_the_standard_die() -> None:
    assert rolls.load_combat_die() == {"skull": 3, "shield": 2, "blank": 1}


# -------------------------------------------------------------- d20 rolls
@pytest.mark.parametrize("at_least", [1, 2, 5, 10, 16, 20])
@pytest.mark.parametrize("lodin", [False, True])
def test_d20_exact_matches_enumeration(at_least: int, lodin: bool) -> None:
    brute = enumerate_outcomes([D20], lambda c: int(c[0] + (1 if lodin else 0) >= at_least))
    check_exact("d20", {"at_least": at_least, "lodin": lodin}, brute)


@pytest.mark.parametrize("bonus,enemy", [(0, 0), (8, 0), (0, 9), (1, 0), (19, 0), (25, 3)])
def test_initiative_exact_matches_enumeration(bonus: int, enemy: int) -> None:
    """Ties reroll, so only untied pairs decide: P = wins / (wins + losses)."""
    wins = sum(a + bonus > b + enemy for a in D20 for b in D20)
    losses = sum(a + bonus < b + enemy for a in D20 for b in D20)
    p = Fraction(wins, wins + losses)
    brute = {k: v for k, v in {1: p, 0: 1 - p}.items() if v}
    check_exact("initiative", {"bonus": bonus, "enemy_bonus": enemy}, brute)


def test_lava_field_matches_enumeration() -> None:
    check_exact("lava-field", {}, enumerate_outcomes([STANDARD_DIE], lambda c: c[0] == "skull"))


def thin_ice(die: int, height: int, lodin: bool) -> int:
    """ "Thin Ice": a result <= height cracks (1 wound); a result of 1 is 2 wounds."""
    result = die + (1 if lodin else 0)
    if result == 1:
        return 2
    return 1 if result <= height else 0


@pytest.mark.parametrize("height", [1, 2, 5, 19, 20, 25])
@pytest.mark.parametrize("lodin", [False, True])
def test_thin_ice_exact_matches_enumeration(height: int, lodin: bool) -> None:
    brute = enumerate_outcomes([D20], lambda c: thin_ice(c[0], height, lodin))
    check_exact("thin-ice", {"height": height, "lodin": lodin}, brute)


def wellspring(die: int, lodin: bool) -> int:
    result = die + (1 if lodin else 0)
    if result >= 12:
        return -1
    return 2 if result in (1, 2) else 0


@pytest.mark.parametrize("lodin", [False, True])
def test_wellspring_exact_matches_enumeration(lodin: bool) -> None:
    check_exact(
        "wellspring", {"lodin": lodin}, enumerate_outcomes([D20], lambda c: wellspring(c[0], lodin))
    )


def scarab(die: int, wounds: int, lodin: bool) -> int:
    """1-15 ignores 1 of the wounds, 16 or higher ignores all of them."""
    return 0 if die + (1 if lodin else 0) >= 16 else wounds - 1


@pytest.mark.parametrize("wounds", [1, 2, 5])
@pytest.mark.parametrize("lodin", [False, True])
def test_scarab_exact_matches_enumeration(wounds: int, lodin: bool) -> None:
    brute = enumerate_outcomes([D20], lambda c: scarab(c[0], wounds, lodin))
    check_exact("scarab", {"wounds": wounds, "lodin": lodin}, brute)


def vial_dropped(die: int, wounds: int, lodin: bool) -> int:
    """Subtract 5 per wound, to a maximum of minus 20; 5 or less drops the vial."""
    result = die + (1 if lodin else 0) - min(5 * wounds, 20)
    return int(result <= 5)


@pytest.mark.parametrize("wounds", [1, 2, 3, 4, 7])
@pytest.mark.parametrize("lodin", [False, True])
def test_vial_drop_exact_matches_enumeration(wounds: int, lodin: bool) -> None:
    brute = enumerate_outcomes([D20], lambda c: vial_dropped(c[0], wounds, lodin))
    check_exact("vial-drop", {"wounds": wounds, "lodin": lodin}, brute)


MC_SIMPLE = [
    ("d20", {"at_least": 16}, 31),
    ("d20", {"at_least": 20, "lodin": True}, 32),
    ("initiative", {"bonus": 8}, 33),
    ("initiative", {"bonus": 1, "enemy_bonus": 9}, 34),
    ("lava-field", {}, 35),
    ("thin-ice", {"height": 5}, 36),
    ("thin-ice", {"height": 12, "lodin": True}, 37),
    ("wellspring", {}, 38),
    ("scarab", {"wounds": 3}, 39),
    ("vial-drop", {"wounds": 2}, 40),
    ("vial-drop", {"wounds": 1, "lodin": True}, 41),
]


@pytest.mark.parametrize(("name", "params", "seed"), MC_SIMPLE)
def test_simple_rolls_mc_matches_exact(name: str, params: dict[str, Any], seed: int) -> None:
    assert_mc_matches_exact(analyze(M[name], params, trials=200_000, seed=seed))


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("name", "params", "fragment"),
    [
        ("attack", {"attack": 41, "defense": 2}, "--attack must be <= 40"),
        ("attack", {"attack": 2, "defense": -1}, "--defense must be >= 0"),
        ("attack", {"defense": 2}, "--attack is required"),
        ("attack", {"attack": 2, "defense": 2, "terrain": "lava"}, "--terrain must be one of"),
        ("attack", {"attack": 2, "defense": 2, "height": "both"}, "--height must be one of"),
        ("attack", {"attack": 2, "defense": 2, "auto_shields": -1}, "--auto-shields must be >= 0"),
        ("attack", {"attack": 2, "defense": 2, "extreme_height": True}, "--extreme-height"),
        ("attack", {"attack": 2, "defense": 2, "special": True, "auto_skulls": 1}, "normal"),
        ("attack", {"attack": 2, "defense": 2, "special": True, "reroll_one": True}, "normal"),
        ("attack", {"attack": 2, "defense": 2, "special": True, "extra_wounds": 2}, "normal"),
        ("attack", {"attack": 2, "defense": 2, "range": 3}, "unknown parameter"),
        ("d20", {"at_least": 0}, "--at-least must be >= 1"),
        ("d20", {"at_least": 21}, "--at-least must be <= 20"),
        ("d20", {}, "--at-least is required"),
        ("initiative", {"bonus": -1}, "--bonus must be >= 0"),
        ("thin-ice", {"height": 0}, "--height must be >= 1"),
        ("scarab", {"wounds": 0}, "--wounds must be >= 1"),
        ("vial-drop", {"wounds": 0}, "--wounds must be >= 1"),
    ],
)
def test_bad_input(name: str, params: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InputError) as err:
        analyze(M[name], params, trials=10, seed=1)
    assert fragment in str(err.value)


def test_special_attack_ignores_attacker_height_only() -> None:
    normal = M["attack"].prepare({"attack": 3, "defense": 3, "height": "attacker"})
    special = M["attack"].prepare(
        {"attack": 3, "defense": 3, "height": "attacker", "special": True}
    )
    assert (normal["attack_dice"], special["attack_dice"]) == (4, 3)
    defended = M["attack"].prepare(
        {"attack": 3, "defense": 3, "height": "defender", "special": True}
    )
    assert defended["defense_dice"] == 4
