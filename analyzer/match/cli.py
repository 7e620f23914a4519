"""``analyzer match SYSTEM ...``: AI-vs-AI matches between two sides, for every engine.

The options common to every engine are declared here; an engine's own settings and rule
readings go through ``--opt KEY=VALUE`` (listed by ``analyzer match --help``), checked by
name and kind.  User errors are one line with exit code 2 (``AnalyzerError``).
"""

from __future__ import annotations

import click

from analyzer.cli_options import SEED_HELP, format_option
from analyzer.errors import InputError
from analyzer.games import match_systems
from analyzer.match.contract import MatchEngine, scenario_option, side_names, side_options
from analyzer.progress import progress_bar

#: Co-operative systems with a mission-difficulty report, and the module holding it
#: (``difficulty_report``, ``table``, ``fair_lines``).
DIFFICULTY_REPORTS: dict[str, str] = {"degenesis": "analyzer.games.degenesis.match.difficulty"}


def announce_compile(engine: MatchEngine) -> None:
    """Tell the user, before the wait, that the engine's kernels are about to compile."""
    if not engine.is_compiled():
        low, high = engine.compile_seconds()
        click.echo(
            f"compiling the {engine.system} match engine (once after installing or updating "
            f"it; {low}-{high} s on 2 cores)...",
            err=True,
        )


def side_files(engine: MatchEngine, given: dict[str, str | None]) -> tuple[str, str]:
    """The two side files from the flags the engine names (``side_options``): a flag of
    another engine, or a missing one, is a one-line error."""
    flags = side_options(engine)
    for name, value in given.items():
        if value is not None and name not in flags:
            raise InputError(
                f"{engine.system} takes its sides with --{flags[0]} and --{flags[1]} (not --{name})"
            )
    files = []
    for flag, what in zip(flags, side_names(engine), strict=True):
        value = given.get(flag)
        if value is None:
            raise InputError(f"missing --{flag} ({engine.system} side {what})")
        files.append(value)
    return files[0], files[1]


def scenario_of(engine: MatchEngine, scenario: str | None, mission: str | None) -> str | None:
    """The scenario named by ``--scenario`` or by the engine's own flag (``--mission``)."""
    if mission is not None and scenario_option(engine) != "mission":
        raise InputError(f"{engine.system} has no missions: give a scenario with --scenario")
    if mission is not None and scenario is not None:
        raise InputError("give either --mission or --scenario, not both")
    return mission if mission is not None else scenario


def _options_epilog() -> str:
    from analyzer.games import match_engine

    parts = []
    for system in match_systems():
        engine = match_engine(system)
        flags = " ".join(f"--{f} FILE" for f in side_options(engine))
        lines = [f"{system} ({flags}): policies {', '.join(engine.policies)}; --opt:"]
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
    default=None,
    type=click.Path(dir_okay=False),
    help="side A (an army list file); required unless the engine names its sides otherwise",
)
@click.option(
    "--list-b",
    "list_b",
    default=None,
    type=click.Path(dir_okay=False),
    help="side B (an army list file)",
)
@click.option(
    "--roster",
    "roster",
    default=None,
    type=click.Path(dir_okay=False),
    help="side A of a co-operative engine (degenesis): the ROSTER of OPERATIVES",
)
@click.option(
    "--hostile",
    "hostile",
    default=None,
    type=click.Path(dir_okay=False),
    help="side B of a co-operative engine (degenesis): the HOSTILE FORCES",
)
@click.option(
    "--mission",
    "mission",
    default=None,
    help="the mission of a co-operative engine (degenesis): a name in "
    "configs/SYSTEM/missions or a .yaml file (its --scenario)",
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
@click.option("--seed", type=int, default=2026, show_default=True, help=SEED_HELP)
@format_option("table", "json")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="also write the matches and units as tables (Parquet, CSV) and the summary as "
    "match.json into this folder (analyzer report renders it)",
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
    list_a: str | None,
    list_b: str | None,
    roster: str | None,
    hostile: str | None,
    mission: str | None,
    policy_a: str | None,
    policy_b: str | None,
    matches: int,
    scenario: str | None,
    seed: int,
    output_format: str,
    out_dir: str | None,
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
    from analyzer.outputs import writable_dir

    check_between(matches, "--matches", 1)
    check_between(trace_k, "--trace", 0, MAX_COUNT - 1)
    check_seed(seed)
    check_at_least(threads, "--threads", 1)
    if out_dir is not None:
        writable_dir(out_dir)  # before the work
    engine = engine_of(system)
    given = {"list-a": list_a, "list-b": list_b, "roster": roster, "hostile": hostile}
    side_a, side_b = side_files(engine, given)
    scenario = scenario_of(engine, scenario, mission)
    chosen = {"first": first, **parse_rule_options(rule_options)}
    flag = scenario_option(engine)
    if "scenario" in chosen or flag in chosen:
        raise InputError(f"give the {flag} with --{flag}, not --opt {flag}=...")
    policies = (policy_a or engine.default_policy, policy_b or engine.default_policy)
    setup = prepare(
        system,
        side_a,
        side_b,
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
        with progress_bar(matches, "match", f"match {system}") as bar:
            rec, urec = run_records(engine, setup, matches, seed, threads, progress=bar.update)
    result = result_of(system, setup, rec, urec, seed)
    if out_dir is not None:
        from analyzer.match.output import write_match_folder

        for label, path in write_match_folder(engine, setup, result, rec, urec, out_dir).items():
            click.echo(f"{label}: {path}", err=True)
    if output_format == "json":
        click.echo(render_json(result, trace))
    else:
        traced = None if trace is None else trace[0]
        click.echo(render_table(engine, result, traced, only_traced=alone))


@click.command("difficulty")
@click.argument("system", type=click.Choice(tuple(DIFFICULTY_REPORTS)), metavar="SYSTEM")
@click.option("--out", "out_dir", required=True, help="folder for the table, chart and JSON")
@click.option(
    "--matches", type=int, default=400, show_default=True, help="missions per cell (greedy sides)"
)
@click.option("--seed", type=int, default=2026, show_default=True, help=SEED_HELP)
@click.option(
    "--mission", "missions", multiple=True, help="a mission (repeatable; default: all bundled)"
)
@click.option(
    "--roster", "rosters", multiple=True, help="a ROSTER file (repeatable; default: the samples)"
)
@click.option("--hostile", default=None, help="the HOSTILE FORCES file to slice (default: sample)")
@click.option(
    "--step", type=int, default=2, show_default=True, help="HOSTILE units between force sizes"
)
def difficulty(
    system: str,
    out_dir: str,
    matches: int,
    seed: int,
    missions: tuple[str, ...],
    rosters: tuple[str, ...],
    hostile: str | None,
    step: int,
) -> None:
    """Mission difficulty of a co-operative system: success rate with a 95% CI per
    mission x roster x hostile force size, and the force size at which a roster succeeds
    50% of the time (the fair-cost form of a mission)."""
    import importlib
    from pathlib import Path

    from analyzer.cli import check_between, check_seed
    from analyzer.games import match_engine

    check_between(matches, "--matches", 1)
    check_between(step, "--step", 1)
    check_seed(seed)
    report = importlib.import_module(DIFFICULTY_REPORTS[system])
    announce_compile(match_engine(system))
    result = report.difficulty_report(
        Path(out_dir),
        matches,
        seed,
        list(missions) or None,
        [Path(r) for r in rosters] or None,
        None if hostile is None else Path(hostile),
        step,
        progress=lambda total: progress_bar(total, "mission", f"difficulty {system}"),
    )
    click.echo(report.table(result["cells"]))
    click.echo(report.fair_lines(result["fair_size"]))
    for name in ("difficulty.txt", "difficulty.png", "difficulty.json"):
        click.echo(f"wrote {Path(out_dir) / name}", err=True)
