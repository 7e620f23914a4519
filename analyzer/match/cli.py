"""``analyzer match SYSTEM ...``: AI-vs-AI matches between two sides, for every engine.

The options common to every engine are declared here; an engine's own settings and rule
readings go through ``--opt KEY=VALUE`` (listed by ``analyzer match --help``), checked by
name and kind.  User errors are one line with exit code 2 (``AnalyzerError``).
"""

from __future__ import annotations

import sys
from typing import Any

import click

from analyzer.errors import InputError
from analyzer.games import match_systems
from analyzer.match.contract import MatchEngine


def announce_compile(engine: MatchEngine) -> None:
    """Tell the user, before the wait, that the engine's kernels are about to compile."""
    if not engine.is_compiled():
        low, high = engine.compile_seconds()
        click.echo(
            f"compiling the {engine.system} match engine (once after installing or updating "
            f"it; {low}-{high} s on 2 cores)...",
            err=True,
        )


def progress_bar(total: int, unit: str) -> Any:
    """A tqdm bar on a terminal (count, rate, ETA); a periodic status line otherwise."""
    from tqdm import tqdm

    tty = sys.stderr.isatty()
    return tqdm(
        total=total,
        unit=unit,
        unit_scale=True,
        file=sys.stderr,
        leave=False,
        mininterval=0.5 if tty else 30.0,
        ncols=None if tty else 100,
        disable=total < 2,
    )


def _options_epilog() -> str:
    from analyzer.games import match_engine

    parts = []
    for system in match_systems():
        engine = match_engine(system)
        lines = [f"{system}: policies {', '.join(engine.policies)}; --opt:"]
        for name, kind in engine.option_kinds.items():
            lines.append(f"  {name} ({kind.allowed()}): {engine.option_help[name]}")
        parts.append("\n".join(lines))
    return "\b\n" + "\n\n\b\n".join(parts)


class _MatchCommand(click.Command):
    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_paragraph()
        formatter.write_text("Engines, their policies and options:")
        for line in _options_epilog().splitlines():
            formatter.write(line.replace("\b", "") + "\n")


@click.command("match", cls=_MatchCommand)
@click.argument("system", type=click.Choice(match_systems()))
@click.option(
    "--units",
    "units_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="unit cards (default: configs/SYSTEM/units.yaml)",
)
@click.option(
    "--list-a",
    "list_a",
    required=True,
    type=click.Path(dir_okay=False),
    help="side A (an army list file)",
)
@click.option(
    "--list-b",
    "list_b",
    required=True,
    type=click.Path(dir_okay=False),
    help="side B (an army list file)",
)
@click.option("--policy-a", default=None, help="AI of side A (default: the engine's greedy)")
@click.option("--policy-b", default=None, help="AI of side B (default: the engine's greedy)")
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
    help="a scenario name in configs/SYSTEM/scenarios or a .yaml file "
    "(default: the engine's own; Rapture generates terrain per match)",
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
    default="rules",
    show_default=True,
    help="who takes round 1's first turn: rules (the rulebook's roll-off), alternate "
    "(A in even matches, B in odd ones), or an engine's other modes",
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
    help="an engine's rule reading or setting (see below), e.g. max_rounds=4",
)
def match(
    system: str,
    units_file: str | None,
    list_a: str,
    list_b: str,
    policy_a: str | None,
    policy_b: str | None,
    matches: int,
    scenario: str | None,
    seed: int,
    output_format: str,
    trace_k: int | None,
    first: str,
    threads: int | None,
    rule_options: tuple[str, ...],
) -> None:
    """AI-vs-AI matches between two sides: win/draw/loss rates with 95% CIs, score
    margins, rounds, end reasons, the first-player edge and per-unit figures."""
    from analyzer.analysis.duel import parse_rule_options
    from analyzer.cli import MAX_COUNT, check_at_least, check_between, check_seed
    from analyzer.match import engine_of, prepare, result_of
    from analyzer.match.report import render_json, render_table
    from analyzer.match.runner import run_records, trace_events

    check_between(matches, "--matches", 1)
    check_between(trace_k, "--trace", 0, MAX_COUNT - 1)
    check_seed(seed)
    check_at_least(threads, "--threads", 1)
    engine = engine_of(system)
    chosen = {"first": first, **parse_rule_options(rule_options)}
    if "scenario" in chosen:
        raise InputError("give the scenario with --scenario, not --opt scenario=...")
    policies = (policy_a or engine.default_policy, policy_b or engine.default_policy)
    setup = prepare(
        system,
        list_a,
        list_b,
        units=units_file,
        policies=policies,
        options=chosen,
        scenario=scenario,
    )
    announce_compile(engine)
    trace: tuple[int, list[str]] | None = None
    alone = trace_k is not None and trace_k >= matches
    if trace_k is not None:
        events, row, urow = trace_events(engine, setup, trace_k, seed)
        trace = (trace_k, engine.render_trace(setup, events))
        if output_format != "json":
            click.echo("\n".join(trace[1]))
            click.echo("")
    if alone:  # matches 0..N-1 would not include match K: summarize match K itself
        assert trace_k is not None
        click.echo(
            f"note: the summary is of match {trace_k} alone (use --matches {trace_k + 1} or "
            f"more for matches 0..{trace_k} with match {trace_k} among them)",
            err=True,
        )
        rec, urec = row[None, :], urow[None, :, :]
    else:
        with progress_bar(matches, "match") as bar:
            rec, urec = run_records(engine, setup, matches, seed, threads, progress=bar.update)
    result = result_of(system, setup, rec, urec, seed)
    if output_format == "json":
        click.echo(render_json(result, trace))
    else:
        traced = None if trace is None else trace[0]
        click.echo(render_table(engine, result, traced, only_traced=alone))
