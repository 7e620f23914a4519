"""``analyzer match rapture ...``: AI-vs-AI matches between two battlegroups.

Register with ``cli.add_command(match)``.  User errors raise
:class:`analyzer.errors.AnalyzerError` subclasses (one line, exit code 2 at the CLI edge).
"""

from __future__ import annotations

from pathlib import Path

import click

from analyzer.errors import InputError
from analyzer.games.rapture.match.compile import FIRST_MODES, POLICIES

SYSTEMS = ("rapture",)


def cold_start() -> bool:
    """Whether numba's cache lacks an entry point of the match engine, so that the first
    match compiles it (about a minute on two cores)."""
    from analyzer.games.rapture.match.kernels import FUNCTIONS

    try:
        indexes = [Path(d._cache._cache_file._index_path) for d in FUNCTIONS.values()]
    except AttributeError:  # numba's cache internals changed: assume warm, say nothing
        return False
    return not all(path.exists() for path in indexes)


def announce_compile() -> None:
    """Tell the user, before the wait, that the engine is about to be compiled."""
    if cold_start():
        click.echo(
            "compiling the Rapture match engine (once after installing or updating it, "
            "about a minute)...",
            err=True,
        )


@click.command("match")
@click.argument("system", type=click.Choice(SYSTEMS))
@click.option(
    "--units",
    "units_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="unit cards (default: configs/rapture/units.yaml)",
)
@click.option(
    "--list-a",
    "list_a",
    required=True,
    type=click.Path(dir_okay=False),
    help="battlegroup of side A",
)
@click.option(
    "--list-b",
    "list_b",
    required=True,
    type=click.Path(dir_okay=False),
    help="battlegroup of side B",
)
@click.option("--policy-a", type=click.Choice(POLICIES), default="greedy", show_default=True)
@click.option("--policy-b", type=click.Choice(POLICIES), default="greedy", show_default=True)
@click.option(
    "--matches",
    type=int,
    default=2000,
    show_default=True,
    help="matches played and summarized: 0..N-1 (at most 100,000,000)",
)
@click.option(
    "--scenario",
    default=None,
    help="terrain: a scenario name in configs/rapture/scenarios or a .yaml file "
    "(default: generated per match by the setup rules)",
)
@click.option("--seed", type=int, default=2026, show_default=True)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(("table", "json")),
    default="table",
    show_default=True,
)
@click.option(
    "--trace",
    "trace_k",
    type=int,
    default=None,
    metavar="K",
    help="play-by-play of match K (K >= 0) first; the summary of matches 0..N-1 follows "
    "only if it includes K (--matches > K), so '--trace K --matches 1' prints the "
    "play-by-play alone; with --format json the lines are the document's 'trace'",
)
@click.option(
    "--first",
    type=click.Choice(FIRST_MODES),
    default="rules",
    show_default=True,
    help="first activation in round 1: by the rules, alternating, or random",
)
@click.option(
    "--threads",
    type=int,
    default=None,
    help="worker threads, >= 1 (default: NUMBA_NUM_THREADS); results do not depend on it",
)
@click.option(
    "--opt",
    "--option",
    "rule_options",
    multiple=True,
    metavar="KEY=VALUE",
    help="rule reading or engine setting (a MatchOptions field), e.g. base_counts=false",
)
def match(
    system: str,
    units_file: str | None,
    list_a: str,
    list_b: str,
    policy_a: str,
    policy_b: str,
    matches: int,
    scenario: str | None,
    seed: int,
    output_format: str,
    trace_k: int | None,
    first: str,
    threads: int | None,
    rule_options: tuple[str, ...],
) -> None:
    """AI-vs-AI matches between two battlegroups: win/draw/loss rates with 95% CIs,
    victory-point margins, rounds, end reasons, first-activation advantage, per-unit figures."""
    from analyzer.analysis.duel import parse_rule_options
    from analyzer.cli import MAX_COUNT, check_at_least, check_between, check_seed
    from analyzer.games.rapture.match import play_matches, prepare, trace_match
    from analyzer.games.rapture.match.compile import match_options
    from analyzer.games.rapture.match.report import render_json, render_table, trace_json

    check_between(matches, "--matches", 1)
    check_between(trace_k, "--trace", 0, MAX_COUNT - 1)
    check_seed(seed)
    check_at_least(threads, "--threads", 1)
    chosen = {"first": first, **parse_rule_options(rule_options)}
    if "scenario" in chosen:
        raise InputError("give the terrain with --scenario, not --opt scenario=...")
    options = match_options({"a": policy_a, "b": policy_b}, chosen)
    announce_compile()
    trace: tuple[int, list[str]] | None = None
    if trace_k is not None:
        setup = prepare(list_a, list_b, units=units_file, scenario=scenario, options=options)
        trace = (trace_k, trace_match(setup, trace_k, seed))
        if trace_k >= matches:  # the summary of matches 0..N-1 would not include match K
            click.echo(
                f"note: only the play-by-play of match {trace_k} is printed: the summary "
                f"covers matches 0..{matches - 1:,} (use --matches {trace_k + 1} or more "
                "for one that includes it)",
                err=True,
            )
            if output_format == "json":
                click.echo(trace_json(setup, trace, seed))
            else:
                click.echo("\n".join(trace[1]))
            return
        if output_format != "json":
            click.echo("\n".join(trace[1]))
            click.echo("")
    result = play_matches(
        list_a,
        list_b,
        units=units_file,
        matches=matches,
        seed=seed,
        scenario=scenario,
        options=options,
        threads=threads,
    )
    if output_format == "json":
        click.echo(render_json(result, trace))
    else:
        click.echo(render_table(result, None if trace is None else trace[0]))
    _ = system
