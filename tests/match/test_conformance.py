"""Conformance of every registered match engine to the shared contract.

Nothing here names a system: each engine gets these checks by being in the registry
(:data:`analyzer.games.MATCH_ENGINES`), played on its bundled sample sides
(:func:`analyzer.match.contract.sample_sides`), given with the engine's own flags.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.cli import main
from analyzer.games import match_engine, match_systems
from analyzer.match import contract as C
from analyzer.match import prepare, trace_match
from analyzer.match.runner import match_pieces, run_records, trace_events
from analyzer.stats import wilson_interval
from tests.test_roll_contract import run_cli

SYSTEMS = match_systems()


def sample_lists(system: str) -> tuple[Path, Path]:
    return C.sample_sides(match_engine(system))


def side_args(system: str, a: Path, b: Path) -> list[str]:
    flag_a, flag_b = C.side_options(match_engine(system))
    return [f"--{flag_a}", str(a), f"--{flag_b}", str(b)]


def base_args(system: str) -> list[str]:
    return ["match", system, *side_args(system, *sample_lists(system))]


def setup_of(system: str, policies: tuple[str, str] = ("greedy", "greedy"), mirror=False, **kw):
    a, b = sample_lists(system)
    return prepare(system, a, a if mirror else b, policies=policies, options=kw)


def seat_score(rec: np.ndarray, seat: int) -> float:
    """Wins of ``seat`` (0 A, 1 B) plus half the draws."""
    winner = rec[:, C.R_WINNER]
    return float((winner == seat + 1).sum() + 0.5 * (winner == 0).sum())


@pytest.mark.parametrize("system", SYSTEMS)
def test_engine_declares_the_contract(system: str) -> None:
    engine = match_engine(system)
    C.check_engine(engine)
    setup = setup_of(system)
    assert setup.system == system and len(setup.units) > 0
    assert {u.side for u in setup.units} == {0, 1}
    assert all(isinstance(a, np.ndarray) for a in setup.arrays)
    assert all(path.is_file() for path in engine.kernel_sources())


@pytest.mark.parametrize("system", SYSTEMS)
def test_same_seed_same_records_for_any_thread_count(system: str) -> None:
    engine = match_engine(system)
    setup = setup_of(system, ("greedy", "random"))
    n = 2 * engine.match_block + 37 if engine.match_block < 200 else 300
    a, ua = run_records(engine, setup, n, seed=5, threads=1)
    b, ub = run_records(engine, setup, n, seed=5, threads=2)
    c, _ = run_records(engine, setup, n, seed=6, threads=2)
    assert np.array_equal(a, b) and np.array_equal(ua, ub)
    assert not np.array_equal(a, c)
    assert set(np.unique(a[:, C.R_WINNER])) <= {0, 1, 2}
    assert np.all(a[:, C.R_END] < len(engine.end_reasons)) and np.all(a[:, C.R_END] >= 0)
    assert np.all(a[:, C.R_ROUNDS] >= 1) and np.all(a[:, C.R_ACTIVATIONS] > 0)


def test_pieces_cover_each_match_once() -> None:
    assert match_pieces(300, 64, 1) == [(b, 64 * b, min(64, 300 - 64 * b)) for b in range(5)]
    pieces = match_pieces(70, 64, 2)
    assert len(pieces) >= 8 and sum(n for _, _, n in pieces) == 70
    assert all(first // 64 == b and (first + n - 1) // 64 == b for b, first, n in pieces)


@pytest.mark.parametrize("system", SYSTEMS)
def test_trace_replays_a_match_and_ends_in_its_record(system: str) -> None:
    engine = match_engine(system)
    setup = setup_of(system)
    rec, urec = run_records(engine, setup, 40, seed=9, threads=2)
    for k in (0, 23, 39):
        events, row, urow = trace_events(engine, setup, k, seed=9)
        assert len(events) > 0
        same = [c for c in range(rec.shape[1]) if c != C.R_VIOLATIONS]
        assert np.array_equal(row[same], rec[k, same]), k
        assert row[C.R_VIOLATIONS] == 0
        assert np.array_equal(urow, urec[k]), k
    lines = trace_match(system, setup, 23, seed=9)
    assert len(lines) > 5 and lines == trace_match(system, setup, 23, seed=9)


@pytest.mark.parametrize("system", SYSTEMS)
def test_random_and_greedy_matches_keep_the_invariants(system: str) -> None:
    engine = match_engine(system)
    for policies, n in ((("random", "random"), 2000), (("greedy", "greedy"), 1000)):
        setup = setup_of(system, policies)
        rec, urec = run_records(engine, setup, n, seed=11, threads=2, check=True)
        assert rec[:, C.R_VIOLATIONS].sum() == 0, policies
        status = urec[:, :, C.U_STATUS]
        assert np.all((status >= 0) & (status <= 2))
        assert np.all(urec[:, :, C.U_DEALT] >= 0) and np.all(urec[:, :, C.U_TAKEN] >= 0)


@pytest.mark.parametrize("system", SYSTEMS)
def test_mirror_match_with_fixed_edges_and_first_alternated_is_even(system: str) -> None:
    """A mirror match with each side always on its own deployment edge and the first
    player alternated: side A scores 0.5 within its 95% CI and the mean score margin is 0
    within 5 SE (swapping edges between matches would hide a deployment bias)."""
    engine = match_engine(system)
    if not C.is_symmetric(engine):
        pytest.skip("asymmetric sides (a roster against a hostile force): no mirror match")
    fixed = C.fixed_edge_options(engine)
    setup = setup_of(system, mirror=True, first="alternate", **fixed)
    n = 3000
    rec, _ = run_records(engine, setup, n, seed=2026, threads=2)
    assert np.array_equal(rec[:, C.R_FIRST], np.arange(n) % 2)
    lo, hi = wilson_interval(seat_score(rec, 0), n)
    assert lo <= 0.5 <= hi, seat_score(rec, 0) / n
    margin = (rec[:, C.R_SCORE_A] - rec[:, C.R_SCORE_B]).astype(float)
    assert abs(margin.mean()) <= 5 * margin.std(ddof=1) / np.sqrt(n), margin.mean()


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("seat", [0, 1])
def test_greedy_beats_random(system: str, seat: int) -> None:
    engine = match_engine(system)
    if not C.is_symmetric(engine):
        pytest.skip("asymmetric sides: see test_greedy_beats_random_in_an_asymmetric_game")
    policies = ("greedy", "random") if seat == 0 else ("random", "greedy")
    setup = setup_of(system, policies, mirror=True, first="alternate")
    rec, _ = run_records(engine, setup, 600, seed=17, threads=2)
    winner = rec[:, C.R_WINNER]
    score = float((winner == seat + 1).sum() + 0.5 * (winner == 0).sum())
    lo, _ = wilson_interval(score, len(winner))
    assert lo > 0.6, score / len(winner)


@pytest.mark.parametrize("system", [s for s in SYSTEMS if not C.is_symmetric(match_engine(s))])
@pytest.mark.parametrize("seat", [0, 1])
def test_greedy_beats_random_in_an_asymmetric_game(system: str, seat: int) -> None:
    """Against a greedy opponent, either side scores more (95% CIs apart) playing greedy
    than playing random (an asymmetric game has no mirror match to play instead)."""
    engine = match_engine(system)
    n = 1500
    weak = ("random", "greedy") if seat == 0 else ("greedy", "random")
    base, _ = run_records(engine, setup_of(system, weak), n, seed=17, threads=2)
    rec, _ = run_records(engine, setup_of(system, ("greedy", "greedy")), n, seed=17, threads=2)
    _, hi_base = wilson_interval(seat_score(base, seat), n)
    lo, _ = wilson_interval(seat_score(rec, seat), n)
    assert lo > hi_base, (seat_score(base, seat) / n, seat_score(rec, seat) / n)


@pytest.mark.parametrize("system", SYSTEMS)
def test_json_document_and_table(system: str, capsys) -> None:
    main([*base_args(system), "--matches", "64", "--seed", "5", "--format", "json",
          "--first", "alternate"])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["system"] == system and data["matches"] == 64 and data["seed"] == 5
    results = data["results"]
    assert sum(results[k]["count"] for k in ("a_wins", "draws", "b_wins")) == 64
    for rate in results.values():
        lo, hi = rate["ci95"]
        assert lo <= rate["rate"] <= hi
    assert data["options"]["first"] == "alternate"
    assert data["first_player"]["a_first"]["count"] == 32
    assert data["invariant_violations"] == 0
    assert sum(data["end_reasons"].values()) == 64
    q = data["score"]["margin_quantiles"]
    assert q["q05"] <= q["q50"] <= q["q95"]
    main([*base_args(system), "--matches", "8", "--trace", "3"])
    out = capsys.readouterr().out
    a_wins = C.outcome_names(match_engine(system))[1]
    assert a_wins in out and "survival" in out and "including match 3" in out
    setup = setup_of(system)
    lines = "\n".join(trace_match(system, setup, 3, 2026))
    assert out.startswith(lines)
    # with --matches <= K the summary is of match K alone, after the same play-by-play
    main([*base_args(system), "--matches", "1", "--trace", "3"])
    alone = capsys.readouterr().out
    assert alone.startswith(lines) and "match 3 alone" in alone
    main([*base_args(system), "--matches", "1", "--trace", "3", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    rec, _ = run_records(match_engine(system), setup, 4, seed=2026, threads=1)
    winner = int(rec[3, C.R_WINNER])
    assert doc["matches"] == 1 and doc["trace"]["match"] == 3
    assert doc["results"][["draws", "a_wins", "b_wins"][winner]]["count"] == 1


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--opt", "bogus=1"], "match option(s) bogus"),
        (["--first", "whenever"], "first must be one of"),
        (["--opt", "scenario=x"], "--scenario"),
        (["--policy-a", "clever"], "clever"),
        (["--scenario", "nowhere"], "nowhere"),
        (["--matches", "0"], "--matches"),
        (["--seed", "-1"], "--seed"),
        (["--threads", "0"], "--threads"),
        (["--trace", "-2"], "--trace"),
    ],
)
def test_bad_input_is_one_line_exit_2(system: str, extra, message, capsys) -> None:
    flag = C.scenario_option(match_engine(system))  # the engine's own scenario flag
    extra = [x.replace("scenario", flag) for x in extra]
    message = message.replace("scenario", flag)
    code, _, err = run_cli([*base_args(system), "--matches", "4", *extra], capsys)
    assert code == 2, err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("system", SYSTEMS)
def test_bad_list_file_is_one_line(system: str, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"name: broken\nsystem: {system}\nunits:\n  - unit: No Such Unit\n")
    a, b = sample_lists(system)
    for args in (side_args(system, bad, b), side_args(system, a, bad)):
        code, _, err = run_cli(["match", system, *args], capsys)
        assert code == 2 and "bad.yaml" in err and "Traceback" not in err


@pytest.mark.parametrize("system", SYSTEMS)
def test_sides_are_given_with_the_engines_flags(system: str, capsys) -> None:
    engine = match_engine(system)
    flags = C.side_options(engine)
    other = ("roster", "hostile") if flags == C.DEFAULT_SIDE_OPTIONS else C.DEFAULT_SIDE_OPTIONS
    a, b = sample_lists(system)
    code, _, err = run_cli(["match", system, f"--{other[0]}", str(a), f"--{flags[1]}", str(b)],
                           capsys)  # fmt: skip
    assert code == 2 and f"--{flags[0]}" in err and err.count("\n") == 1
    code, _, err = run_cli(["match", system, f"--{flags[1]}", str(b)], capsys)
    assert code == 2 and f"missing --{flags[0]}" in err and err.count("\n") == 1


def test_a_system_without_an_engine_names_those_with_one(capsys, monkeypatch) -> None:
    from analyzer import games
    from analyzer.errors import InputError

    registered = dict(games.MATCH_ENGINES)
    kept = dict(list(registered.items())[:1])  # a registry where one system has an engine
    monkeypatch.setattr(games, "MATCH_ENGINES", kept)
    missing = next(s for s in games.SYSTEMS if s not in kept)
    with pytest.raises(InputError, match=r"no match engine yet \(available: " + next(iter(kept))):
        match_engine(missing)
    with pytest.raises(InputError, match="unknown system 'nonsense'"):
        match_engine("nonsense")
    monkeypatch.setattr(games, "MATCH_ENGINES", registered)
    code, _, err = run_cli(["compare", "nonsense", "--lists", "x.yaml"], capsys)
    assert code == 2 and "nonsense" in err


@pytest.mark.parametrize("system", SYSTEMS)
def test_cold_start_is_announced_only_when_the_cache_lacks_the_kernels(system: str, capsys):
    from analyzer.match.cli import announce_compile

    engine = match_engine(system)
    main([*base_args(system), "--matches", "2"])
    assert "compiling" not in capsys.readouterr().err
    assert engine.is_compiled()
    announce_compile(engine)
    assert capsys.readouterr().err == ""
