"""AI-vs-AI matches for every system with a match engine: the public Python API.

>>> from analyzer.match import play_matches
>>> result = play_matches("rapture", "configs/rapture/lists/angels_vanguard.yaml",
...                       "configs/rapture/lists/icnun_hunters.yaml", matches=2000)
>>> result.a_wins.rate, result.a_wins.ci95

An engine implements :class:`analyzer.match.contract.MatchEngine`; the registry
(:func:`analyzer.games.match_engine`) names the systems that have one.  This package
holds what every engine shares: option checks, the threaded block runner, the summary
(:class:`MatchResult`), the trace, the sweep model and the ``analyzer match`` command.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from analyzer import provenance
from analyzer.match.contract import MatchEngine, Setup
from analyzer.match.options import check_match_options, check_policy
from analyzer.match.report import MatchResult, summarize
from analyzer.match.runner import run_records, trace_events

__all__ = [
    "MatchEngine",
    "MatchResult",
    "Setup",
    "engine_of",
    "play_matches",
    "prepare",
    "result_of",
    "run_records",
    "trace_match",
]


def engine_of(system: str) -> MatchEngine:
    """The registered match engine of ``system`` (one-line error naming those that exist)."""
    from analyzer.games import match_engine

    return match_engine(system)


def framework_sources() -> list[Path]:
    """The shared framework's source files (they count in the code hash of stored results)."""
    return sorted(Path(__file__).resolve().parent.glob("*.py"))


def prepare(
    system: str,
    list_a: str | Path,
    list_b: str | Path,
    *,
    units: str | Path | None = None,
    policies: tuple[str, str] = ("greedy", "greedy"),
    options: Mapping[str, Any] | None = None,
    scenario: str | None = None,
    first_side: int | None = None,
) -> Setup:
    """Load and check the two sides, the policies and the options; compile the match-up."""
    engine = engine_of(system)
    pols = (check_policy(engine, policies[0], side=0), check_policy(engine, policies[1], side=1))
    checked = check_match_options(engine, options or {})
    sides = engine.load_sides(list_a, list_b, units)
    setup = engine.prepare(
        sides.cards,
        sides.lists,
        policies=pols,
        options=checked,
        scenario=scenario,
        first_side=first_side,
    )
    setup.data_files[:0] = sides.files
    return setup


def result_of(system: str, setup: Setup, rec: Any, urec: Any, seed: int) -> MatchResult:
    """The summary of records played from ``setup``, with provenance (data and code hash)."""
    engine = engine_of(system)
    files = [*setup.data_files, *engine.kernel_sources(), *framework_sources()]
    prov = {**provenance.versions(), "data_hash": provenance.data_hash(*files, system=system)}
    return summarize(engine, setup, rec, urec, seed=seed, provenance=prov)


def play_matches(
    system: str,
    list_a: str | Path,
    list_b: str | Path,
    *,
    units: str | Path | None = None,
    matches: int = 1000,
    seed: int = 2026,
    policies: tuple[str, str] = ("greedy", "greedy"),
    options: Mapping[str, Any] | None = None,
    scenario: str | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> MatchResult:
    """Play ``matches`` AI-vs-AI matches between two sides and aggregate them."""
    setup = prepare(
        system, list_a, list_b, units=units, policies=policies, options=options, scenario=scenario
    )
    rec, urec = run_records(engine_of(system), setup, matches, seed, threads, progress=progress)
    return result_of(system, setup, rec, urec, seed)


def trace_match(system: str, setup: Setup, k: int, seed: int) -> list[str]:
    """A readable play-by-play of match ``k`` (as played in any run with this seed)."""
    engine = engine_of(system)
    events, _, _ = trace_events(engine, setup, k, seed)
    return engine.render_trace(setup, events)
