"""Sweep files: validation errors with file and line, variations, grid expansion."""

from __future__ import annotations

import pytest

from analyzer.analysis.duel import load_units
from analyzer.config.yaml_io import ConfigError
from analyzer.experiments import variations as var
from analyzer.experiments.cli import main
from analyzer.experiments.spec import load_sweep
from analyzer.experiments.tasks import task_id
from tests.experiments.conftest import REPO, write_spec


def errors(tmp_path, text):
    path = write_spec(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_sweep(path)
    return path, str(err.value).splitlines()


BAD_FILES = [
    (  # unknown top-level key, and a wrong type
        """\
        name: x
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        trials: many
        colour: blue
        """,
        [":4: trials: Input should be a valid integer", ":5: colour: unknown key"],
    ),
    (  # unknown metric kind
        """\
        name: x
        system: d20
        metric: {kind: poker}
        """,
        [":3: metric.kind: must be one of duel, value, matches (got 'poker')"],
    ),
    (  # missing key of the metric section
        """\
        name: x
        system: d20
        metric:
          kind: duel
          a: Telepath
        """,
        [":3: metric.b: Field required"],
    ),
    (  # unknown unit in the metric, unknown system
        """\
        name: x
        system: warhammer
        metric: {kind: duel, a: Telepath, b: Trooper}
        """,
        [":2: system: unknown system 'warhammer'"],
    ),
    (  # a stat value the card model rejects, reported at the value's line
        """\
        name: x
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          pd:
            kind: stat
            unit: Telepath
            field: physical_defense
            values:
              - 17
              - -3
        """,
        [":11: grid.pd.values[1]: physical_defense: Input should be greater than or equal to 0"],
    ),
    (  # unknown field and unknown unit of stat axes
        """\
        name: x
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          a: {kind: stat, unit: Telepath, field: charisma, values: [1]}
          b: {kind: stat, unit: Nobody, field: power, values: [1]}
        """,
        [
            ":5: grid.a.field: Card has no field 'charisma'",
            ":6: grid.b.unit: unknown unit 'Nobody'",
        ],
    ),
    (  # policies are for matches; option names are checked; unit roles too
        """\
        name: x
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          p: {kind: policy, role: a, values: [greedy]}
          o: {kind: option, option: weather, values: [rain]}
          u: {kind: unit, role: c, values: [Brute]}
        """,
        [
            ":5: grid.p.role: metric 'duel' has no policy role 'a' (roles: none)",
            ":6: grid.o.option: metric 'duel' has no option 'weather'",
            ":7: grid.u.role: metric 'duel' has no unit role 'c' (roles: a, b)",
        ],
    ),
    (  # bad option value, unknown unit value, odd block size, bad baseline
        """\
        name: x
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          rounds: {kind: option, option: max_rounds, values: [12, 0]}
          opp: {kind: unit, role: b, values: [Brute, Nobody]}
        block_size: 511
        """,
        [
            ":7: block_size: must be even",
            ":5: grid.rounds.values[1]: Input should be greater than or equal to 1",
            ":6: grid.opp.values[1]: unknown unit 'Nobody'",
        ],
    ),
    (  # baseline value not on the axis; keys an axis kind does not use
        """\
        name: x
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          pd: {kind: stat, unit: Telepath, field: physical_defense, values: [17, 18], role: a}
        """,
        [":5: grid.pd.role: not used by a stat axis"],
    ),
    (
        """\
        name: x
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          pd: {kind: stat, unit: Telepath, field: physical_defense, values: [17, 18]}
        baseline: {pd: 20}
        """,
        [":6: baseline.pd: 20 is not one of the axis values"],
    ),
    (  # a missing list file
        """\
        name: x
        system: d20
        metric: {kind: value, unit: Telepath, field_list: lists/nowhere.yaml}
        """,
        [":3: metric: file not found: lists/nowhere.yaml"],
    ),
    (  # YAML syntax error
        """\
        name: x
        system: d20
        metric: {kind: duel, a: Telepath
        """,
        [":4: YAML syntax error"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), BAD_FILES)
def test_bad_sweep_files_report_every_problem_with_its_line(tmp_path, text, expected):
    path, lines = errors(tmp_path, text)
    for want in expected:
        assert any(line.startswith(str(path)) and want in line for line in lines), (want, lines)


def test_cli_prints_one_line_per_problem_and_exits_2(tmp_path, capsys):
    path = write_spec(tmp_path, BAD_FILES[0][0])
    with pytest.raises(SystemExit) as done:
        main([str(path), "--workers", "0", "--out", str(tmp_path / "out")])
    assert done.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith(f"error: {path}:4: trials:") and err[1].startswith(f"{path}:5:")
    assert "Traceback" not in "\n".join(err)


def test_stat_variations_copy_and_revalidate_cards():
    cards = load_units("d20")
    telepath = cards["Telepath"]
    pistol = var.set_stat(telepath, "weapons.Pistol.power", 9)
    assert var.get_field(pistol, "weapons.1.power") == 9 and telepath.weapons[1].power == 4
    assert var.set_stat(telepath, "skill.hth", -2, mode="add").skill.hth == telepath.skill.hth - 2
    assert var.set_stat(telepath, "points", 20).points == 20
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        var.set_stat(telepath, "power", -1)
    with pytest.raises(ValueError, match="no item named"):
        var.set_stat(telepath, "weapons.Sword.power", 3)


def test_ability_variations_on_and_off():
    hero = load_units("heroscape")
    agent = hero["Agent SI-4X"]
    assert var.has_ability(agent, "Obfuscation Matrix")
    off = var.set_ability(agent, "Obfuscation Matrix", False)
    assert not var.has_ability(off, "Obfuscation Matrix") and var.has_ability(
        agent, "Obfuscation Matrix"
    )
    assert (
        var.set_ability(off, "Obfuscation Matrix", True).special_powers[-1].name
        == "Obfuscation Matrix"
    )
    with pytest.raises(ValueError, match="Unique Hero"):  # the card's own rules still apply
        var.set_ability(hero["Gelryie Vanguards"], "Nanite Shielding", True)
    d20 = load_units("d20")["Trooper"]
    assert var.set_ability(d20, "precognition", True).special == ["precognition"]


def test_grid_expands_to_cells_with_baseline_and_shared_tasks(tmp_path):
    path = write_spec(
        tmp_path,
        """\
        name: x
        system: d20
        metric: {kind: value, unit: Telepath, field: [Trooper, Brute]}
        grid:
          points: {kind: stat, unit: Telepath, field: points, values: [12, 16, 20], step: nerf}
          pd: {kind: stat, unit: Telepath, field: physical_defense, values: [17, 18]}
        baseline: {points: 16, pd: 18}
        """,
    )
    plan = load_sweep(path)
    assert [c.params for c in plan.cells[:2]] == [
        {"points": 12, "pd": 17},
        {"points": 12, "pd": 18},
    ]
    assert plan.cells[plan.baseline].params == {"points": 16, "pd": 18}
    # the points cost does not enter the duel kernel: 2 opponents x 2 defenses = 4 tasks
    tasks = {task_id(t, plan.code_hash) for c in plan.cells for t in c.plan.tasks}
    assert len(plan.cells) == 6 and len(tasks) == 4


def test_bundled_sample_sweep_is_valid():
    for path in sorted((REPO / "configs" / "experiments").glob("*.yaml")):
        plan = load_sweep(path)
        assert plan.cells and plan.metric.kind in ("duel", "value", "matches")
