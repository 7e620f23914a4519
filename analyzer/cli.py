"""Command line: ``analyzer roll SYSTEM MECHANIC [options]`` and friends.

Commands parse arguments, call one library function and print.  Problems a
user can fix are printed as one line ``error: ...`` with exit code 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from analyzer.dice.mechanic import Mechanic, Option, analyze
from analyzer.errors import AnalyzerError
from analyzer.games import SYSTEMS, mechanics
from analyzer.reporting.tables import roll_csv, roll_json, roll_table

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


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point: one-line errors, exit code 2 for bad input."""
    try:
        cli.main(args=list(argv) if argv is not None else None, standalone_mode=False)
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


if __name__ == "__main__":
    main()
