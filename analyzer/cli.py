"""Command line: ``analyzer roll SYSTEM MECHANIC [options]`` and friends.

Commands parse arguments, call one library function and print.  Problems a
user can fix are printed as one line ``error: ...`` with exit code 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from analyzer.dice.mechanic import Mechanic, Option, analyze
from analyzer.duels import FIRST, DuelOptions
from analyzer.errors import AnalyzerError, InputError
from analyzer.games import SYSTEMS, mechanics

DEFAULT_TRIALS = 1_000_000
DEFAULT_SEED = 2026
FORMATS = ("table", "json", "csv")


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
            help="Monte Carlo trials (0: exact only)",
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


def _parse_start(text: str) -> tuple[str, float]:
    """``melee`` | ``range`` | ``range:R`` (``--start range R`` is folded into this form)."""
    kind, _, distance = text.partition(":")
    if kind == "melee" and not distance:
        return "melee", 0.0
    if kind == "range":
        try:
            return "range", float(distance) if distance else 12.0
        except ValueError:
            pass
    raise InputError(f"--start must be 'melee' or 'range R' (got {text!r})")


def _duel_options(start: str, first: str, max_rounds: int) -> DuelOptions:
    kind, distance = _parse_start(start)
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
        if window[:2] == ["--start", "range"] and len(window) == 3 and _is_number(window[2]):
            out += ["--start", f"range:{window[2]}"]
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


_START_OPTION = click.option(
    "--start",
    default="melee",
    show_default=True,
    help="'melee' or 'range R' (R in the system's distance unit: cm, Heroscape spaces)",
)
_FIRST_OPTION = click.option(
    "--first",
    type=click.Choice(FIRST),
    default="alternate",
    show_default=True,
    help="who takes the first activation",
)
_MAX_ROUNDS_OPTION = click.option(
    "--max-rounds", type=int, default=12, show_default=True, help="round cap (draw)"
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
@click.option("--trials", type=int, default=100_000, show_default=True)
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True)
@click.option("--format", "output_format", type=click.Choice(("table", "json")), default="table")
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
    from analyzer.reporting.tables import duel_json, duel_table

    options = _duel_options(start, first, max_rounds)
    rules = parse_rule_options(rule_opts)
    result = run_named_duel(system, units_file, a, b, options, trials, seed, rules)
    click.echo(duel_json(result) if output_format == "json" else duel_table(result))


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
@click.option("--trials", type=int, default=20_000, show_default=True, help="trials per duel")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True)
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
) -> None:
    """Point-efficiency table of every unit against a field, with unit value charts."""
    from analyzer.analysis.duel import parse_rule_options
    from analyzer.reporting.tables import value_summary_table
    from analyzer.reporting.value_report import run_value_report

    out = Path(out_dir) if out_dir else Path("reports") / f"value-{system}"
    progress = _progress_line if sys.stderr.isatty() else None
    summary, written = run_value_report(
        system,
        units_file,
        field_file,
        out,
        trials,
        seed,
        progress=progress,
        options=_duel_options(start, first, max_rounds),
        rule_options=parse_rule_options(rule_opts),
    )
    click.echo(value_summary_table(summary))
    for label, path in written.items():
        click.echo(f"{label}: {path}")


@cli.command()
@_system_argument()
@_UNITS_OPTION
@click.option(
    "--lists",
    "lists",
    required=True,
    multiple=True,
    type=click.Path(dir_okay=False),
    help="army list files (repeat --lists, or give several after one --lists)",
)
@click.option("--matches", type=int, default=2000, show_default=True, help="matches per pair")
@click.option("--policy", default="greedy", show_default=True, help="AI policy of both players")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True)
@click.option(
    "--first",
    type=click.Choice(("rules", "alternate", "random")),
    default="rules",
    show_default=True,
    help="first activation of round 1 (the engine's rules, alternate by match, random)",
)
@click.option("--scenario", default=None, help="terrain scenario (default: generated per match)")
@click.option("--opt", "match_opts", multiple=True, metavar="KEY=VALUE", help="match option")
@click.option("--threads", type=int, default=None, help="threads (results do not depend on it)")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="folder for tables, charts and finished pairings (default: reports/compare-SYSTEM)",
)
@click.option("--format", "output_format", type=click.Choice(("table", "json")), default="table")
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

    Finished pairings are kept in the output folder: an interrupted run resumes."""
    import json

    from analyzer.analysis.compare import compare_lists, comparison_table, write_comparison
    from analyzer.analysis.duel import parse_rule_options

    out = Path(out_dir) if out_dir else Path("reports") / f"compare-{system}"
    if system == "rapture":
        from analyzer.games.rapture.match.cli import announce_compile

        announce_compile()
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
        progress=_progress_line if sys.stderr.isatty() else None,
    )
    written = write_comparison(result, out)
    if sys.stderr.isatty():
        click.echo("", err=True)
    if output_format == "json":
        click.echo(json.dumps(result.to_dict(), indent=2))
        return
    click.echo(comparison_table(result))
    for label, path in written.items():
        click.echo(f"{label}: {path}")


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


def _progress_line(message: str) -> None:
    """Overwrite one status line on the terminal."""
    click.echo(f"\r\033[K{message}", err=True, nl=False)


def run_click(command: click.Command, argv: Sequence[str]) -> None:
    """Run a click command with the CLI's error handling: one-line errors, exit code 2."""
    try:
        command.main(args=list(argv), standalone_mode=False)
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


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point: one-line errors, exit code 2 for bad input."""
    args = list(argv) if argv is not None else sys.argv[1:]
    run_click(cli, _fold_start_distance(args))


def _register_batch_commands() -> None:
    from analyzer.experiments.cli import fair_cost, sweep
    from analyzer.games.rapture.match.cli import match

    cli.add_command(match)
    cli.add_command(sweep)
    cli.add_command(fair_cost)


_register_batch_commands()

if __name__ == "__main__":
    main()
