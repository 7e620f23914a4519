"""Sweeps in this process: correctness, chunking, CRN, precision target, resume, invalidation."""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import pandas as pd
import pytest

from analyzer.experiments.executor import SerialExecutor
from analyzer.experiments.runner import SweepInterrupted, execute
from analyzer.experiments.spec import load_sweep
from analyzer.experiments.store import BlockStore
from analyzer.stats import Z95
from tests.experiments.conftest import D20_DUEL, assert_same_table, serial, write_spec


def headline(outcome):
    table = outcome.results
    return table[table["quantity"] == outcome.plan.metric.quantities[0]].reset_index(drop=True)


def test_estimates_agree_with_the_exact_markov_answer(d20_spec, tmp_path):
    outcome = serial(d20_spec, tmp_path / "out")
    table = outcome.results.dropna(subset=["exact"])
    table = table[table["se"] > 0]
    assert len(table) >= 12
    z = (table["estimate"] - table["exact"]) / table["se"]
    assert z.abs().max() < 5, table[["quantity", "estimate", "exact", "se"]]
    assert set(outcome.results["n"]) == {8192} and set(outcome.results["blocks"]) == {16}
    # provenance on every row
    for column in ("seed", "rules_hash", "spec_hash", "analyzer_version", "numba_version"):
        assert outcome.results[column].notna().all()
    written = pd.read_csv(outcome.files["results_csv"])
    assert len(written) == len(outcome.results)
    assert_same_table(pd.read_parquet(outcome.files["results_parquet"]), outcome.results)


def test_table_is_bit_identical_for_any_chunking(d20_spec, tmp_path):
    one = serial(d20_spec, tmp_path / "c1", chunk=1)
    five = serial(d20_spec, tmp_path / "c5", chunk=5)
    auto = serial(d20_spec, tmp_path / "auto")
    assert_same_table(one.results, five.results)
    assert_same_table(one.results, auto.results)
    assert_same_table(one.differences, five.differences)
    assert one.run.computed == 4 * 16  # 4 distinct duels x 16 blocks


def test_common_random_numbers_pair_the_cells(tmp_path):
    spec = write_spec(
        tmp_path,
        """\
        name: crn
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          pd: {kind: stat, unit: Telepath, field: physical_defense, values: [17, 18]}
          points: {kind: stat, unit: Telepath, field: points, values: [16, 30]}
        trials: 16384
        block_size: 512
        """,
    )
    outcome = serial(spec, tmp_path / "out")
    diffs = outcome.differences[outcome.differences["quantity"] == "win_rate"]
    base = outcome.plan.cells[outcome.plan.baseline].params
    assert base == {"pd": 17, "points": 16}
    # a change that does not touch the duel: same blocks, exactly zero difference
    same = diffs[(diffs["pd"] == 17) & (diffs["points"] == 30)].iloc[0]
    assert same["difference"] == 0 and same["se_paired"] == 0
    # +1 physical defense: the paired SE is far below the unpaired one, and the
    # paired difference agrees with the exact difference of the Markov chains
    row = diffs[(diffs["pd"] == 18) & (diffs["points"] == 16)].iloc[0]
    res = outcome.results[outcome.results["quantity"] == "win_rate"]
    exact = res.set_index(["pd", "points"])["exact"]
    true_diff = exact[(18, 16)] - exact[(17, 16)]
    assert row["se_paired"] < 0.6 * row["se_unpaired"]
    assert abs(row["difference"] - true_diff) < 4 * row["se_paired"]
    assert row["ci_low"] < row["difference"] < row["ci_high"]


def test_paired_standard_error_is_calibrated_across_seeds(tmp_path):
    """The jackknife SE of a paired difference matches its spread over independent seeds."""
    spec = write_spec(
        tmp_path,
        """\
        name: crn-seeds
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          pd: {kind: stat, unit: Telepath, field: physical_defense, values: [17, 18]}
        trials: 4096
        block_size: 256
        exact: false
        """,
    )
    plan = load_sweep(spec)
    from analyzer.experiments.aggregate import differences_table

    diffs, ses = [], []
    for seed in range(40):
        plan.set_run_options(seed=seed)
        run = execute(plan, tmp_path / f"s{seed}", executor=SerialExecutor(), progress=False)
        table = differences_table(run)
        row = table[(table["quantity"] == "win_rate") & (table["pd"] == 18)].iloc[0]
        diffs.append(row["difference"])
        ses.append(row["se_paired"])
    spread = float(np.std(diffs, ddof=1))
    # 40 replicates: the SD estimate is within about +-35% with overwhelming probability
    assert 0.65 < float(np.mean(ses)) / spread < 1.5, (np.mean(ses), spread)


def test_until_ci_adds_blocks_until_the_target_and_reports_trials(tmp_path):
    spec = write_spec(
        tmp_path,
        """\
        name: until
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          opponent: {kind: unit, role: b, values: [Trooper, Brute]}
        trials: 512
        block_size: 256
        """,
    )
    goal = 0.02
    one = serial(spec, tmp_path / "a", until_ci=goal, chunk=1)
    three = serial(spec, tmp_path / "b", until_ci=goal, chunk=3)
    assert_same_table(one.results, three.results)
    rows = headline(one)
    half = Z95 * rows["se"]
    assert (half <= goal).all() and rows["target_met"].all()
    # a cell near 50% needs more trials than a lopsided one, and each stopped soon after the goal
    n = rows.set_index("opponent")["n"]
    assert n["Trooper"] > n["Brute"] > 512
    for _, row in rows.iterrows():
        p = row["estimate"]
        needed = p * (1 - p) * (Z95 / goal) ** 2
        assert row["n"] < 4 * needed + 2 * 256

    capped = serial(spec, tmp_path / "c", until_ci=0.001, max_trials=2048)
    rows = headline(capped)
    assert (rows["n"] == 2048).all() and not rows["target_met"].any()


def test_interrupted_run_resumes_without_recomputing(d20_spec, tmp_path):
    class StopAfter(SerialExecutor):
        def __init__(self, jobs):
            super().__init__()
            self.left = jobs

        def next_completed(self, stop=None):
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
            return super().next_completed(stop)

    from analyzer.experiments.sweep import run_sweep

    out = tmp_path / "out"
    with pytest.raises(SweepInterrupted, match="resume"):
        run_sweep(d20_spec, out, executor=StopAfter(5), chunk=2, charts=False, progress=False)
    saved = {p.stem for p in (out / "blocks").glob("*.parquet")}
    assert len(saved) == 10
    # a torn block (crash while writing) and a leftover temporary file
    torn = out / "blocks" / sorted(saved)[0]
    torn.with_suffix(".parquet").write_bytes(b"PAR1 torn")
    (out / "blocks" / ".x.parquet.123.tmp").write_bytes(b"junk")
    with (out / "manifest.jsonl").open("a") as f:
        f.write('{"block": "trunc')  # torn manifest line
    resumed = serial(d20_spec, out)
    assert resumed.run.computed == 64 - 10 + 1 and resumed.run.reused == 9
    fresh = serial(d20_spec, tmp_path / "fresh")
    assert_same_table(resumed.results, fresh.results)
    entries = BlockStore(out).manifest()
    names = [e["block"] for e in entries]
    assert len(names) == len(set(names)) == 64
    assert {p.stem for p in (out / "blocks").glob("*.parquet")} == set(names)
    runs = json.loads((out / "sweep.json").read_text())["runs"]
    assert [r["status"] for r in runs] == ["interrupted", "finished"]


def test_changed_spec_or_rules_never_reuse_stale_blocks(d20_spec, tmp_path):
    out = tmp_path / "out"
    first = serial(d20_spec, out)
    assert first.run.computed == 64
    again = serial(d20_spec, out)
    assert again.run.computed == 0 and again.run.reused == 64
    assert_same_table(first.results, again.results)

    # one axis value changed: only the two new duels (pd 20 x 2 opponents) are computed
    changed = write_spec(
        tmp_path, D20_DUEL.replace("values: [17, 19]", "values: [17, 20]"), "b.yaml"
    )
    second = serial(changed, out)
    assert second.run.computed == 32 and second.run.reused == 32
    assert_same_table(
        second.results.drop(columns="spec_hash"),
        serial(changed, tmp_path / "f").results.drop(columns="spec_hash"),
    )

    # a different seed or block size: every block is new
    assert serial(d20_spec, out, seed=12).run.computed == 64
    resized = write_spec(
        tmp_path, D20_DUEL.replace("block_size: 512", "block_size: 1024"), "c.yaml"
    )
    assert serial(resized, out).run.computed == 32

    # the units file edited: the duels of the edited card are recomputed, the others reused
    units = tmp_path / "units.yaml"
    from analyzer.paths import system_config

    text = system_config("d20", "units.yaml").read_text(encoding="utf-8")
    start = text.index("- name: Telekinesist")
    end = text.index("physical_defense:", start)
    units.write_text(
        text[:end] + text[end:].replace("physical_defense: 17", "physical_defense: 18", 1)
    )
    edited = write_spec(tmp_path, D20_DUEL + f"units: {units}\n", "d.yaml")
    run = serial(edited, out)
    assert run.run.computed == 32 and run.run.reused == 32
    assert run.results["rules_hash"].iloc[0] != first.results["rules_hash"].iloc[0]

    # new kernel code: a different code hash gives new block ids for everything
    plan = load_sweep(d20_spec)
    plan.code_hash = "0" * 32
    rerun = execute(plan, out, executor=SerialExecutor(), progress=False)
    assert rerun.computed == 64


def test_monotonicity_flags_a_buff_that_hurts(tmp_path):
    spec = write_spec(
        tmp_path,
        """\
        name: mono
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          # listed from high to low: each "buff" step actually lowers the defense
          pd:
            {kind: stat, unit: Telepath, field: physical_defense, values: [19, 17, 15], step: buff}
          # buffing the opponent must lower A's win rate: a nerf of Trooper, oriented correctly
          trooper_pd:
            {kind: stat, unit: Trooper, field: physical_defense, values: [16, 18], step: buff}
        trials: 4096
        block_size: 256
        """,
    )
    outcome = serial(spec, tmp_path / "out")
    table = outcome.monotonicity
    assert len(table) == 2 * 2 + 3
    wrong = table[table["axis"] == "pd"]
    right = table[table["axis"] == "trooper_pd"]
    assert wrong["flagged"].all() and (wrong["change"] < 0).all()
    assert not right["flagged"].any() and (right["change"] > 0).all()
    assert len(outcome.flagged) == 4


def test_value_metric_matches_the_duels_it_is_made_of(tmp_path):
    spec = write_spec(
        tmp_path,
        """\
        name: value
        system: d20
        metric: {kind: value, unit: Telepath, field: [Trooper, Brute, Trooper]}
        grid:
          points: {kind: stat, unit: Telepath, field: points, values: [16, 32], step: nerf}
        trials: 4096
        block_size: 512
        """,
    )
    outcome = serial(spec, tmp_path / "out")
    table = outcome.results.set_index(["points", "quantity"])
    # half the points, double the value per point, from the very same duels
    assert table.loc[(16, "value_index"), "estimate"] == table.loc[(32, "value_index"), "estimate"]
    ratio = (
        table.loc[(16, "value_per_point"), "estimate"]
        / table.loc[(32, "value_per_point"), "estimate"]
    )
    assert ratio == pytest.approx(2.0, rel=1e-12)
    for q in ("value_per_point", "value_index", "score", "win_rate"):
        est, se, ex = table.loc[(16, q), ["estimate", "se", "exact"]]
        assert abs(est - ex) < 5 * se
    assert not outcome.flagged.any().any()
    assert math.isfinite(table.loc[(16, "value_per_point"), "se"])


def test_copying_a_results_folder_keeps_it_resumable(d20_spec, tmp_path):
    out = tmp_path / "out"
    serial(d20_spec, out)
    shutil.copytree(out, tmp_path / "copy")
    assert serial(d20_spec, tmp_path / "copy").run.computed == 0


def test_value_field_from_swapped_army_lists_weights_by_count(tmp_path):
    spec = write_spec(
        tmp_path,
        """\
        name: lists
        system: d20
        metric: {kind: value, unit: Telepath, field_list: configs/d20/lists/trooper_section.yaml}
        grid:
          field:
            kind: list
            role: field
            values: [configs/d20/lists/trooper_section.yaml, configs/d20/lists/genetic_hunters.yaml]
        trials: 1024
        block_size: 512
        """,
    )
    outcome = serial(spec, tmp_path / "out")
    exact = outcome.results.set_index(["field", "quantity"])["exact"]
    duels = serial(
        write_spec(
            tmp_path,
            """\
            name: duels
            system: d20
            metric: {kind: duel, a: Telepath, b: Trooper}
            grid:
              b: {kind: unit, role: b, values: [Trooper, Brute]}
            trials: 1024
            block_size: 512
            """,
            "duels.yaml",
        ),
        tmp_path / "duels",
    ).results
    score = duels[duels["quantity"] == "score"].set_index("b")["exact"]
    cards = outcome.plan.metric.ctx.cards
    # trooper_section: 4 Troopers and 1 Brute
    index = (
        4 * score["Trooper"] * cards["Trooper"].points + score["Brute"] * cards["Brute"].points
    ) / 5
    key = ("configs/d20/lists/trooper_section.yaml", "value_index")
    assert exact[key] == pytest.approx(index, rel=1e-12)
    assert exact[("configs/d20/lists/genetic_hunters.yaml", "value_index")] != exact[key]
