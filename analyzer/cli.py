"""Command line: ``analyzer roll SYSTEM MECHANIC [options]`` and friends.

Commands parse arguments, call one library function and print.  Problems a
user can fix are printed as one line ``error: ...`` with exit code 2.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from analyzer.cli_options import SEED_HELP, format_option
from analyzer.dice.mechanic import Mechanic, Option, analyze
from analyzer.duels import FIRST, MAX_DISTANCE, DuelOptions
from analyzer.errors import AnalyzerError, InputError
from analyzer.games import SYSTEMS, match_systems, mechanics
from analyzer.outputs import writable_dir
from analyzer.progress import LazyBar

DEFAULT_TRIALS = 1_000_000
DEFAULT_SEED = 2026
FORMATS = ("table", "json", "csv")

#: Upper bound of every trial and match count option (memory and time grow with it);
#: the same as ``analyzer match --matches`` (``analyzer.match.runner.MAX_MATCHES``).
MAX_COUNT = 100_000_000
#: Distance of a bare ``--start range``.
DEFAULT_RANGE = 12.0
START_HELP = (
    "'melee', or 'range R' (also 'range:R', 'range=R', or two words: --start range R) "
    "with R the distance in the system's unit (cm, Heroscape spaces), 0 to 10,000; "
    "a bare 'range' starts at 12"
)


# ------------------------------------------------------------------ shared option checks
# Every command checks its options with these, before any work, so that the same mistake
# gets the same one-line message whichever command it is made in.
def check_at_least(value: float | None, option: str, low: float) -> None:
    """``value >= low`` (``None``: not given, nothing to check)."""
    if value is not None and value < low:
        raise InputError(f"{option} must be >= {low} (got {value})")


def check_between(value: int | None, option: str, low: int, high: int = MAX_COUNT) -> None:
    """``low <= value <= high``, in the style of ``--matches``'s message."""
    if value is not None and not low <= value <= high:
        raise InputError(f"{option} must be between {low:,} and {high:,} (got {value})")


#: Largest seed: results tables store it as a 64-bit signed integer (Parquet).
MAX_SEED = 2**63 - 1


def check_seed(seed: int | None) -> None:
    """``--seed``: 0 to 2**63 - 1 (checked before any work, on every command)."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise InputError(f"--seed must be between 0 and 2**63 - 1 (got {seed})")


_SCHEDULER = re.compile(
    r"^(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})/?$"
)


def check_scheduler(address: str | None) -> None:
    """``--scheduler``: a Dask scheduler address ``[tcp://]HOST:PORT`` (reachability is
    checked on connecting: ``cannot reach the Dask scheduler at ...``)."""
    if address is None:
        return
    found = _SCHEDULER.match(address)
    if not found or not 1 <= int(found.group(1)) <= 65535:
        raise InputError(
            f"--scheduler must be a Dask scheduler address like tcp://HOST:8786 (got {address!r})"
        )


def _click_option(opt: Option) -> click.Option:
    flag = f"--{opt.name}"
    if opt.kind is bool:
        return click.Option([flag], is_flag=True, default=False, help=opt.help)
    shown = "required" if opt.required else f"default {opt.default}"
    if isinstance(opt.kind, tuple):
        return click.Option(
            [flag], type=click.Choice(opt.kind), default=None, help=f"{opt.help} ({shown})"
        )
    return click.Option([flag], type=int, default=None, help=f"{opt.help} ({shown})")


def _roll_command(mechanic: Mechanic) -> click.Command:
    def run(trials: int, seed: int, output_format: str, **raw: Any) -> None:
        from analyzer.reporting.tables import roll_csv, roll_json, roll_table

        check_between(trials, "--trials", 0)
        check_seed(seed)
        given = {k: v for k, v in raw.items() if v is not None}
        result = analyze(mechanic, given, trials=trials, seed=seed)
        render = {"table": roll_table, "json": roll_json, "csv": roll_csv}[output_format]
        click.echo(render(result).rstrip("\n"))

    params: list[click.Parameter] = [_click_option(o) for o in mechanic.options]
    params += [
        click.Option(
            ["--trials"],
            type=int,
            default=DEFAULT_TRIALS,
            show_default=True,
            help="Monte Carlo trials (0: exact only; at most 100,000,000)",
        ),
        click.Option(
            ["--seed"], type=int, default=DEFAULT_SEED, show_default=True, help="random seed"
        ),
        click.Option(
            ["--format", "output_format"],
            type=click.Choice(FORMATS),
            default="table",
            show_default=True,
            help="output format",
        ),
    ]
    return click.Command(
        mechanic.name,
        callback=run,
        params=params,
        help=f"{mechanic.summary}\n\nRules: {mechanic.rules}",
        short_help=mechanic.summary,
    )


class _SystemGroup(click.Group):
    """Mechanics of one system, imported only when that system is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(mechanics(self.name or ""))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        table = mechanics(self.name or "")
        return _roll_command(table[cmd_name]) if cmd_name in table else None


@click.group()
@click.version_option(package_name="analyzer")
def cli() -> None:
    """Balance and probability analyzer for tabletop skirmish wargames."""


@cli.group()
def roll() -> None:
    """Exact and Monte Carlo distribution of one dice mechanic: roll SYSTEM MECHANIC."""


for _system in SYSTEMS:
    roll.add_command(_SystemGroup(_system, help=f"{_system} dice mechanics"))


_START = re.compile(r"^\s*(melee|range)\s*(?:[\s:=]\s*(\S+))?\s*$")


def parse_start(text: str) -> tuple[str, float]:
    """``--start``: ``melee`` | ``range`` | ``range R`` | ``range:R`` | ``range=R`` ->
    (kind, distance); the argv form ``--start range R`` is folded into ``range:R``."""
    found = _START.match(text)
    if found is None or (found.group(1) == "melee" and found.group(2) is not None):
        raise InputError(f"--start must be 'melee' or 'range R' (got {text!r})")
    if found.group(1) == "melee":
        return "melee", 0.0
    if found.group(2) is None:
        return "range", DEFAULT_RANGE
    try:
        distance = float(found.group(2))
    except ValueError:
        distance = math.nan
    if not 0 <= distance <= MAX_DISTANCE:  # also rejects nan
        raise InputError(
            f"--start range R: R must be a number from 0 to {MAX_DISTANCE:,.0f} "
            f"(got {found.group(2)!r})"
        )
    return "range", distance


def _duel_options(start: str, first: str, max_rounds: int) -> DuelOptions:
    check_between(max_rounds, "--max-rounds", 1, 100)
    kind, distance = parse_start(start)
    return DuelOptions(start=kind, distance=distance, first=first, max_rounds=max_rounds)


def _fold_start_distance(argv: list[str]) -> list[str]:
    """Let users type ``--start range 12`` and ``--lists A.yaml B.yaml C.yaml``."""
    out: list[str] = []
    i = 0
    in_lists = False
    while i < len(argv):
        if argv[i] == "--lists":
            in_lists = True
        elif argv[i].startswith("-"):
            in_lists = False
        elif in_lists and out and out[-1] != "--lists":
            out.append("--lists")
        window = argv[i : i + 3]
        if window[:1] == ["--start"] and len(window) == 3 and _is_number(window[2]):
            out += ["--start", f"{window[1]} {window[2]}"]  # parse_start judges the word
            i += 3
        else:
            out.append(argv[i])
            i += 1
    return out


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _system_argument() -> Any:
    return click.argument("system", type=click.Choice(SYSTEMS))


_UNITS_OPTION = click.option(
    "--units",
    "units_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="unit cards (default: configs/SYSTEM/units.yaml)",
)
_RULE_OPTION = click.option(
    "--opt",
    "rule_opts",
    multiple=True,
    metavar="KEY=VALUE",
    help="system duel rule option, repeatable (e.g. reaction=dodge); an unknown key lists them",
)


_START_OPTION = click.option("--start", default="melee", show_default=True, help=START_HELP)
_FIRST_OPTION = click.option(
    "--first",
    type=click.Choice(FIRST),
    default="alternate",
    show_default=True,
    help="who takes the first activation",
)
_MAX_ROUNDS_OPTION = click.option(
    "--max-rounds", type=int, default=12, show_default=True, help="round cap (draw), 1 to 100"
)


@cli.command()
@_system_argument()
@_UNITS_OPTION
@click.option("--a", "a", required=True, help="name of unit A")
@click.option("--b", "b", required=True, help="name of unit B")
@_START_OPTION
@_FIRST_OPTION
@_MAX_ROUNDS_OPTION
@_RULE_OPTION
@click.option(
    "--trials",
    type=int,
    default=100_000,
    show_default=True,
    help="Monte Carlo trials (0: exact only; at most 100,000,000)",
)
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help=SEED_HELP)
@format_option("table", "json", "csv")
def duel(
    system: str,
    units_file: str | None,
    a: str,
    b: str,
    start: str,
    first: str,
    max_rounds: int,
    rule_opts: tuple[str, ...],
    trials: int,
    seed: int,
    output_format: str,
) -> None:
    """Two units fight until one is removed: win/draw rates, rounds, health (exact and MC)."""
    from analyzer.analysis.duel import duel as run_named_duel
    from analyzer.analysis.duel import parse_rule_options
    from analyzer.reporting.tables import duel_csv, duel_json, duel_table

    check_between(trials, "--trials", 0)
    check_seed(seed)
    options = _duel_options(start, first, max_rounds)
    rules = parse_rule_options(rule_opts)
    result = run_named_duel(system, units_file, a, b, options, trials, seed, rules)
    render = {"table": duel_table, "json": duel_json, "csv": duel_csv}[output_format]
    click.echo(render(result).rstrip("\n"))


@cli.command()
@_system_argument()
@_UNITS_OPTION
@click.option(
    "--field",
    "field_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="opponents file (default: every other unit)",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="output folder (default: reports/value-SYSTEM)",
)
@_START_OPTION
@_FIRST_OPTION
@_MAX_ROUNDS_OPTION
@_RULE_OPTION
@click.option(
    "--trials",
    type=int,
    default=20_000,
    show_default=True,
    help="trials per duel (at most 100,000,000)",
)
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help=SEED_HELP)
@format_option(
    "table", "json", help="table: readable text; json: the per-unit summary with SEs and 95% CIs"
)
def value(
    system: str,
    units_file: str | None,
    field_file: str | None,
    out_dir: str | None,
    start: str,
    first: str,
    max_rounds: int,
    rule_opts: tuple[str, ...],
    trials: int,
    seed: int,
    output_format: str,
) -> None:
    """Point-efficiency table of every unit against a field, with unit value charts."""
    from analyzer.analysis.duel import parse_rule_options
    from analyzer.reporting.tables import value_summary_json, value_summary_table
    from analyzer.reporting.value_report import run_value_report

    check_between(trials, "--trials", 0)
    check_seed(seed)
    options = _duel_options(start, first, max_rounds)
    out = writable_dir(Path(out_dir) if out_dir else Path("reports") / f"value-{system}")
    with LazyBar("duel", desc=f"value {system}") as bar:
        summary, written = run_value_report(
            system,
            units_file,
            field_file,
            out,
            trials,
            seed,
            progress=bar.step,
            options=options,
            rule_options=parse_rule_options(rule_opts),
        )
    if output_format == "json":
        click.echo(value_summary_json(summary, written))
        return
    click.echo(value_summary_table(summary))
    for label, path in written.items():
        click.echo(f"{label}: {path}")


@cli.command()
@click.argument("system", type=click.Choice(match_systems()), metavar="SYSTEM")
@_UNITS_OPTION
@click.option(
    "--lists",
    "lists",
    required=True,
    multiple=True,
    type=click.Path(dir_okay=False),
    help="army list files (repeat --lists, or give several after one --lists)",
)
@click.option(
    "--matches",
    type=int,
    default=2000,
    show_default=True,
    help="matches per pair (at most 100,000,000)",
)
@click.option(
    "--policy",
    default="greedy",
    show_default=True,
    help="AI policy of both players (see analyzer match --help)",
)
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help=SEED_HELP)
@click.option(
    "--first",
    default="rules",
    show_default=True,
    help="who takes round 1's first turn: rules (the rulebook's), alternate (by match), "
    "or an engine's other modes",
)
@click.option("--scenario", default=None, help="scenario name or file (default: the engine's)")
@click.option("--opt", "match_opts", multiple=True, metavar="KEY=VALUE", help="match option")
@click.option(
    "--threads",
    type=int,
    default=None,
    help="worker threads, >= 1 (default: NUMBA_NUM_THREADS); results do not depend on it",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="folder for tables, charts and finished pairings (default: reports/compare-SYSTEM)",
)
@format_option("table", "json")
def compare(
    system: str,
    units_file: str | None,
    lists: tuple[str, ...],
    matches: int,
    policy: str,
    seed: int,
    first: str,
    scenario: str | None,
    match_opts: tuple[str, ...],
    threads: int | None,
    out_dir: str | None,
    output_format: str,
) -> None:
    """Round robin of army lists: win-rate matrix with CIs, Bradley-Terry ratings, charts.

    SYSTEM: one with a match engine (see analyzer match --help).  Finished pairings are
    kept in the output folder: an interrupted run resumes."""
    import json

    from analyzer.analysis.compare import compare_lists, comparison_table, write_comparison
    from analyzer.analysis.duel import parse_rule_options

    check_between(matches, "--matches", 1)
    check_seed(seed)
    check_at_least(threads, "--threads", 1)
    _check_distinct(lists)
    out = writable_dir(Path(out_dir) if out_dir else Path("reports") / f"compare-{system}")
    from analyzer.games import match_engine
    from analyzer.match.cli import announce_compile

    announce_compile(match_engine(system))
    n_pairs = len(lists) * (len(lists) - 1) // 2
    with LazyBar("match", n_pairs * matches, f"compare {system}") as bar:
        result = compare_lists(
            system,
            list(lists),
            matches,
            seed,
            units_file,
            policy,
            options={"first": first, **parse_rule_options(match_opts)},
            scenario=scenario,
            threads=threads,
            out_dir=out,
            progress=bar.update,
            pairing=bar.describe,
        )
    written = write_comparison(result, out)
    if output_format == "json":
        click.echo(json.dumps(result.to_dict(), indent=2))
        return
    click.echo(comparison_table(result))
    for label, path in written.items():
        click.echo(f"{label}: {path}")


def _check_distinct(lists: Sequence[str]) -> None:
    """``compare --lists``: each army list file once (a list against itself is no pairing)."""
    seen: dict[Path, str] = {}
    for name in lists:
        key = Path(name).resolve()
        if key in seen:
            raise InputError(
                f"--lists: {name} is given twice"
                + (f" (also as {seen[key]})" if seen[key] != name else "")
                + "; give each army list once"
            )
        seen[key] = name


@cli.command()
@click.argument("results_dir", type=click.Path(file_okay=False))
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="HTML file (default: RESULTS_DIR/report.html)",
)
def report(results_dir: str, out_file: str | None) -> None:
    """One self-contained HTML report (tables, charts, findings) of a results folder."""
    from analyzer.reporting.html import render_report

    out = Path(out_file) if out_file else Path(results_dir) / "report.html"
    click.echo(f"report: {render_report(results_dir, out)}")


def run_click(command: click.Command, argv: Sequence[str]) -> None:
    """Run a click command with the CLI's error handling: one-line errors, exit code 2."""
    try:
        command.main(args=_fold_start_distance(list(argv)), standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as bare:  # ``analyzer`` alone: its help
        click.echo(bare.ctx.get_help() if bare.ctx else str(bare))
        sys.exit(0)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.UsageError as err:
        click.echo(f"error: {err.format_message()}", err=True)
        sys.exit(2)
    except click.Abort:
        click.echo("error: aborted", err=True)
        sys.exit(130)
    except AnalyzerError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
    except OSError as err:  # e.g. a full disk while writing a chart: one line, work kept
        where = f"{err.filename}: " if err.filename else ""
        click.echo(f"error: {where}{err.strerror or err}", err=True)
        sys.exit(2)


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point: one-line errors, exit code 2 for bad input."""
    args = list(argv) if argv is not None else sys.argv[1:]
    run_click(cli, args)


def _register_batch_commands() -> None:
    from analyzer.experiments.cli import fair_cost, sweep
    from analyzer.match.cli import difficulty, match
    from analyzer.meta.cli import balance_command, build_list_command, meta, robustness_command

    cli.add_command(match)
    cli.add_command(difficulty)
    cli.add_command(meta)
    cli.add_command(build_list_command)
    cli.add_command(balance_command)
    cli.add_command(robustness_command)
    cli.add_command(sweep)
    cli.add_command(fair_cost)


_register_batch_commands()

#: An example or two per command, shown at the end of its ``--help``.
EXAMPLES = {
    "roll": ["analyzer roll heroscape attack --attack 4 --defense 2 --height attacker"],
    "duel": [
        'analyzer duel heroscape --a "Agent SI-4X" --b "Ranoc Vipers" --start range 6',
        "analyzer duel rapture --a Kyenar --b Raziel --trials 200000 --format json",
    ],
    "value": ["analyzer value d20 --out reports/value-d20"],
    "match": [
        "analyzer match rapture --list-a configs/rapture/lists/angels_vanguard.yaml "
        "--list-b configs/rapture/lists/survivors_patrol.yaml --matches 5000",
        "analyzer match d20 --list-a A.yaml --list-b B.yaml --matches 1 --trace 7",
    ],
    "compare": ["analyzer compare rapture --lists configs/rapture/lists/*.yaml --matches 2000"],
    "sweep": ["analyzer sweep configs/experiments/heroscape_agent_cost.yaml --workers 0"],
    "fair-cost": [
        'analyzer fair-cost heroscape --unit "Agent SI-4X" '
        "--field configs/experiments/fields/heroscape_field.yaml"
    ],
    "report": ["analyzer report reports/value-d20"],
    "difficulty": ["analyzer difficulty degenesis --out reports/degenesis-difficulty"],
}


def _add_examples() -> None:
    for name, lines in EXAMPLES.items():
        if name in cli.commands:
            text = "\n".join(f"  {line}" for line in lines)
            cli.commands[name].epilog = f"\b\nExamples:\n{text}"


_add_examples()

if __name__ == "__main__":
    main()
