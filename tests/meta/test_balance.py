"""``analyzer balance``: the joint fixed point recovers planted fair costs (stand-in)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from analyzer.meta.arena import Arena
from analyzer.meta.balance import Field, balance, round_to
from tests.meta import stand_in
from tests.meta.report_check import rendered

LISTS = [["Chronos SU"], ["Genetic SU"], ["Telepath"], ["Telekinesist"], ["Maïnomaï"],
         ["Avatara Hallucination"], ["Trooper"], ["Brute"], ["Trooper", "Brute"],
         ["Telepath", "Telekinesist", "Trooper"]]  # fmt: skip


def write_lists(folder: Path) -> list[Path]:
    paths = []
    for i, units in enumerate(LISTS):
        doc = {"name": " + ".join(units), "system": "d20", "max_figurines": 5,
               "units": [{"unit": u} for u in units]}  # fmt: skip
        paths.append(folder / f"list{i}.yaml")
        paths[-1].write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return paths


@pytest.fixture
def fld(monkeypatch, tmp_path):
    stand_in.plug_in(monkeypatch)
    arena = Arena("d20", options={"mode": 1})
    cards, _ = arena.engine.load_cards(None)
    lists = [arena.engine.load_list(p, cards) for p in write_lists(tmp_path)]
    return Field(arena, cards, lists, matches=4000, seed=9)


def planted(fld: Field) -> dict[str, float]:
    """The known root: costs proportional to the hidden values, same total as now."""
    total = sum(fld.cards[u].points for u in fld.units)
    scale = total / sum(stand_in.VALUES[u] for u in fld.units)
    return {u: stand_in.VALUES[u] * scale for u in fld.units}


def test_recovers_the_planted_fair_costs(fld):
    result = balance(fld, damping=0.5, iterations=25)
    root = planted(fld)
    table = result.cost_table().set_index("unit")
    for u, c in root.items():
        assert abs(table.loc[u, "proposed_cost"] - c) <= 1.5, (u, c)
    assert result.validation.worst < 0.03 < result.validation_current.worst
    assert result.validation.spread < 0.5 * result.validation_current.spread
    assert result.matches == fld.arena.spent
    # the planted root itself (rounded) is as fair as the proposal, within noise
    rounded = fld.evaluate({u: round_to(c, 1) for u, c in root.items()})
    assert rounded.worst < 0.03


def test_fewest_changes_moves_the_largest_misfits_first(fld):
    result = balance(fld, damping=0.5, iterations=15, fewest_changes=True, tolerance=0.06)
    table = result.cost_table()
    changed = table[table["change"] != 0]["unit"].tolist()
    assert set(changed) <= set(result.free)
    assert len(result.free) < len(fld.units)
    assert result.proposed.worst <= 0.06
    start_gaps = np.abs(fld.misfit(result.current)[0])
    # the free units are those with the largest misfits at the current costs
    assert min(start_gaps[fld.units.index(u)] for u in result.free) >= max(
        (start_gaps[i] for i, u in enumerate(fld.units) if u not in result.free), default=0
    )


def test_granularity_and_bad_damping(fld):
    assert round_to(23.0, 5) == 25 and round_to(1.0, 5) == 5
    result = balance(fld, iterations=6, granularity=5)
    assert all(c % 5 == 0 for c in result.proposed.costs.values())
    assert result.proposed.worst < result.current.worst
    from analyzer.errors import InputError

    with pytest.raises(InputError, match="--damping"):
        balance(fld, damping=0)


def test_cli(monkeypatch, tmp_path, capsys):
    from analyzer.cli import main

    stand_in.plug_in(monkeypatch)
    paths = write_lists(tmp_path)
    out = tmp_path / "balance"
    main(["balance", "d20", "--lists", *map(str, paths[:4]), "--matches", "500",
          "--iterations", "5", "--opt", "mode=1", "--out", str(out)])  # fmt: skip
    text = capsys.readouterr().out
    assert "joint balance of 4 units over 4 lists" in text and "validation" in text
    for name in ("balance_costs.parquet", "balance_lists.csv", "balance_history.csv",
                 "balance.json"):  # fmt: skip
        assert (out / name).exists()
    rendered(
        out,
        "Joint balance of d20 by matches",
        "On fresh seeds the spread of the list",
        "Proposed point costs",
        "List scores against the field",
        charts=("balance_costs", "balance_fairness"),
    )
    with pytest.raises(SystemExit) as exit_info:
        main(["balance", "d20", "--lists", str(paths[0]), "--lists", str(paths[0])])
    assert exit_info.value.code == 2
    assert "given twice" in capsys.readouterr().err
