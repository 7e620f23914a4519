"""``analyzer match rapture``: table, JSON keys, trace, options and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.cli import main

LISTS = Path(__file__).resolve().parents[1] / "configs" / "rapture" / "lists"
BASE = ["match", "rapture", "--list-a", str(LISTS / "angels_vanguard.yaml"),
        "--list-b", str(LISTS / "icnun_raiders.yaml")]  # fmt: skip


def test_json_document(capsys):
    main([*BASE, "--matches", "64", "--seed", "5", "--format", "json", "--first", "alternate"])
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] == 64 and data["seed"] == 5
    results = data["results"]
    counts = [results[k]["count"] for k in ("a_wins", "draws", "b_wins")]
    assert sum(counts) == 64
    for rate in results.values():
        lo, hi = rate["ci95"]
        assert lo <= rate["rate"] <= hi
    assert data["options"]["first"] == "alternate"
    # alternate: A takes the first activation of round 1 in exactly half the matches
    assert data["first_activation"]["a_first"]["count"] == 32
    assert data["invariant_violations"] == 0
    assert {u["unit"] for u in data["units"]} >= {"Raziel", "Kyenar"}


def test_same_seed_same_numbers_for_any_thread_count(capsys):
    outputs = []
    for threads in ("1", "2"):
        main([*BASE, "--matches", "130", "--threads", threads, "--format", "json"])
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0]["results"] == outputs[1]["results"]
    assert outputs[0]["units"] == outputs[1]["units"]


def test_table_and_trace(capsys):
    main([*BASE, "--matches", "8", "--trace", "3"])
    out = capsys.readouterr().out
    assert "=== round 1 ===" in out and "activate " in out
    assert "A wins" in out and "survival" in out
    # the trace of match 3 is the same when played alone
    main([*BASE, "--matches", "1", "--trace", "3"])
    alone = capsys.readouterr().out
    assert out.split("\n\n")[0] == alone.split("\n\n")[0]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--opt", "bogus=1"], "unknown match option(s) bogus"),
        (["--opt", "max_rounds=x"], "max_rounds must be of type int"),
        (["--opt", "scenario=river"], "--scenario"),
        (["--policy-a", "clever"], "clever"),
        (["--scenario", "nowhere"], "nowhere"),
        (["--matches", "0"], "--matches"),
    ],
)
def test_bad_input_is_one_line_exit_2(extra, message, capsys):
    with pytest.raises(SystemExit) as done:
        main([*BASE, "--matches", "4", *extra])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") <= 3


def test_cold_start_is_announced_only_when_the_cache_lacks_an_entry_point(capsys, monkeypatch):
    from analyzer.games.rapture.match import cli as match_cli
    from analyzer.games.rapture.match.kernels import FUNCTIONS

    main([*BASE, "--matches", "2"])  # the engine is now in numba's cache
    assert "compiling" not in capsys.readouterr().err
    assert not match_cli.cold_start()
    cache_file = next(iter(FUNCTIONS.values()))._cache._cache_file
    monkeypatch.setattr(cache_file, "_index_path", "/nonexistent/index.nbi")
    assert match_cli.cold_start()
    match_cli.announce_compile()
    assert "compiling the Rapture match engine" in capsys.readouterr().err
