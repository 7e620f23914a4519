"""The sweep engine is system-agnostic: a small duel and value sweep for every system."""

from __future__ import annotations

import importlib

import pytest

from analyzer.analysis.duel import load_units
from analyzer.games import SYSTEMS
from tests.experiments.conftest import assert_same_table, serial, write_spec


def _ready(system: str) -> bool:
    try:
        importlib.import_module(f"analyzer.games.{system}.duel")
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("system", SYSTEMS)
def test_duel_and_value_sweeps_for_every_system(system, tmp_path):
    if not _ready(system):
        pytest.skip(f"{system} has no duel engine yet")
    cards = load_units(system)
    names = [n for n, c in cards.items() if c.points > 0][:3]
    a, b, c = names[0], names[1], names[-1]
    costs = [cards[a].points, cards[a].points + 5]
    spec = write_spec(
        tmp_path,
        f"""\
        name: {system}-conformance
        system: {system}
        metric: {{kind: value, unit: "{a}", field: ["{b}", "{c}"]}}
        grid:
          points: {{kind: stat, unit: "{a}", field: points, values: {costs}, step: nerf}}
          opponent: {{kind: unit, role: unit, values: ["{a}", "{b}"]}}
        trials: 2048
        block_size: 512
        """,
    )
    one = serial(spec, tmp_path / "one", chunk=1)
    two = serial(spec, tmp_path / "two", chunk=3)
    assert_same_table(one.results, two.results)
    table = one.results.dropna(subset=["exact"])
    table = table[table["se"] > 0]
    assert (((table["estimate"] - table["exact"]) / table["se"]).abs() < 5).all()
    assert not one.flagged.any().any()
