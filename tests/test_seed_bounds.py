"""Every command takes the same seeds: 0 to 2**63 - 1, checked before any work."""

from __future__ import annotations

import pytest

from tests.test_roll_contract import run_cli

RAPTURE = "configs/rapture/lists"
COMMANDS = {
    "roll": ["roll", "d20", "shot", "--trials", "100"],
    "duel": ["duel", "d20", "--a", "Trooper", "--b", "Brute", "--trials", "100"],
    "value": ["value", "d20", "--trials", "100"],
    "match": ["match", "d20", "--list-a", "configs/d20/lists/trooper_section.yaml",
              "--list-b", "configs/d20/lists/genetic_hunters.yaml", "--matches", "4"],
    "compare": ["compare", "rapture", "--lists", f"{RAPTURE}/angels_band.yaml",
                f"{RAPTURE}/icnun_hunters.yaml", "--matches", "4"],
    "fair-cost": ["fair-cost", "heroscape", "--unit", "Agent SI-4X", "--field",
                  "configs/experiments/fields/heroscape_field.yaml"],
    "sweep": ["sweep", "configs/experiments/heroscape_agent_cost.yaml", "--workers", "0"],
}  # fmt: skip


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("seed", [-1, 2**63])
def test_out_of_range_seed_is_one_line_before_any_work(command, seed, tmp_path, capsys):
    argv = [*COMMANDS[command], "--seed", str(seed)]
    if command in ("value", "compare", "fair-cost", "sweep"):
        argv += ["--out", str(tmp_path / "out")]
    code, _, err = run_cli(argv, capsys)
    assert code == 2, err
    assert "--seed must be between 0 and 2**63 - 1" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()  # nothing was computed or written
