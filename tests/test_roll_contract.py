"""Conformance of every mechanic of every system: CLI, JSON schema, threads, MC vs exact."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from analyzer.cli import main
from analyzer.dice.mechanic import analyze
from analyzer.games import SYSTEMS, get_mechanic, mechanics
from tests.mc_checks import assert_mc_matches_exact

ALL = [(system, name) for system in SYSTEMS for name in mechanics(system)]


def run_cli(argv, capsys):
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    code = 0
    try:
        main(argv)
    except SystemExit as stop:
        code = int(stop.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def cli_args(system, name):
    mech = get_mechanic(system, name)
    args = ["roll", system, name]
    for key, value in mech.example.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif value is not False:
            args += [flag, str(value)]
    return args


def test_every_system_has_mechanics_with_examples():
    for system in SYSTEMS:
        table = mechanics(system)
        assert table, system
        for mech in table.values():
            assert mech.system == system
            mech.prepare(mech.example)  # every example is a legal parameter set


@pytest.mark.parametrize(("system", "name"), ALL)
def test_json_output_schema(system, name, capsys):
    code, out, err = run_cli(
        [*cli_args(system, name), "--trials", "20000", "--seed", "3", "--format", "json"], capsys
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["system"] == system and doc["mechanic"] == name
    assert doc["trials"] == 20000 and doc["seed"] == 3
    mech = get_mechanic(system, name)
    for opt in mech.options:  # every parameter used is reported, defaults included
        assert opt.key in doc["params"]
    outcomes = [row["outcome"] for row in doc["distribution"]]
    assert outcomes == list(range(outcomes[0], outcomes[-1] + 1))
    assert sum(row["exact"] for row in doc["distribution"]) == pytest.approx(1, abs=1e-12)
    assert sum(row["mc"] for row in doc["distribution"]) == pytest.approx(1, abs=1e-12)
    for row in doc["distribution"]:
        assert set(row) == {"outcome", "exact", "mc", "se", "at_least_exact", "at_least_mc",
                            "at_least_se"}  # fmt: skip
        assert row["se"] >= 0
    assert set(doc["mean"]) == {"exact", "mc", "se"}
    for event in mech.events:
        assert set(doc[event]) == {"exact", "mc", "se"}


@pytest.mark.parametrize(("system", "name"), ALL)
def test_table_and_csv_output(system, name, capsys):
    code, out, _ = run_cli([*cli_args(system, name), "--trials", "0"], capsys)
    assert code == 0 and "exact" in out and "mean" in out
    code, out, _ = run_cli([*cli_args(system, name), "--trials", "1000", "--format", "csv"], capsys)
    lines = out.strip().splitlines()
    header = lines[0].split(",")
    assert code == 0 and header[:2] == ["system", "mechanic"]
    assert header[-5:] == ["quantity", "outcome", "exact", "mc", "se"]
    mech = get_mechanic(system, name)
    n_outcomes = len(mech.exact(mech.prepare(mech.example)).probs)
    rows = [line for line in lines[1:] if ",P(X=k)," in line]
    assert len(rows) == n_outcomes
    assert sum(",P(X>=k)," in line for line in lines) == n_outcomes
    assert len(lines) == 1 + 2 * n_outcomes + 1 + len(mech.events)  # + mean and events


@pytest.mark.parametrize(("system", "name"), ALL)
def test_monte_carlo_matches_exact_for_every_example(system, name):
    mech = get_mechanic(system, name)
    assert_mc_matches_exact(analyze(mech, mech.example, trials=150_000, seed=21))


@pytest.mark.parametrize(
    "argv",
    [
        [
            "roll",
            "rapture",
            "attack",
            "--dice",
            "3",
            "--skill",
            "3",
            "--defense",
            "1",
            "--bogus",
            "1",
        ],
        ["roll", "rapture", "attack", "--dice", "-2", "--skill", "3", "--defense", "1"],
        ["roll", "rapture", "attack", "--dice", "2", "--skill", "9", "--defense", "1"],
        ["roll", "rapture", "attack", "--dice", "2", "--skill", "3"],
        [
            "roll",
            "rapture",
            "attack",
            "--dice",
            "2",
            "--skill",
            "3",
            "--defense",
            "1",
            "--kind",
            "x",
        ],
        ["roll", "rapture", "attack", "--dice", "two", "--skill", "3", "--defense", "1"],
        [
            "roll",
            "rapture",
            "attack",
            "--dice",
            "2",
            "--skill",
            "3",
            "--defense",
            "1",
            "--trials",
            "-5",
        ],
        ["roll", "rapture", "nonsense"],
        ["roll", "chess", "attack"],
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(argv, capsys):
    code, out, err = run_cli(argv, capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "Traceback" not in err


_THREAD_SCRIPT = """
import json, sys
from analyzer.dice.mechanic import analyze
from analyzer.games import SYSTEMS, mechanics
out = {}
for system in SYSTEMS:
    for name, mech in mechanics(system).items():
        result = analyze(mech, mech.example, trials=300_000, seed=77)
        out[f"{system}/{name}"] = result.counts.tolist()
json.dump(out, sys.stdout)
"""


def _counts_with_threads(threads: int) -> dict:
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
    done = subprocess.run(
        [sys.executable, "-c", _THREAD_SCRIPT], env=env, check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout)


def test_same_seed_same_counts_for_one_and_two_threads():
    one, two = _counts_with_threads(1), _counts_with_threads(2)
    assert one.keys() == two.keys() and len(one) == len(ALL)
    assert one == two


def test_exact_engine_is_fast_for_forty_dice():
    # Not a timed assertion on the shared machine: a generous sanity bound only.
    mech = get_mechanic("rapture", "attack")
    params = mech.prepare({"dice": 40, "skill": 3, "defense": 40, "dodge": 40})
    start = time.perf_counter()
    dist = mech.exact(params)
    assert time.perf_counter() - start < 1.0
    assert dist.probs.sum() == pytest.approx(1, abs=1e-12)
    assert np.all(dist.probs >= 0)
