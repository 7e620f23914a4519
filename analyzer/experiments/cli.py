"""Click commands ``sweep`` and ``fair-cost`` (registered by ``analyzer.cli``).

``analyzer sweep SPEC.yaml [--workers N | --scheduler tcp://HOST:PORT] [--until-ci W]``
and ``analyzer fair-cost SYSTEM --unit NAME --field FIELD.yaml``; also runnable
as ``python -m analyzer.experiments SPEC.yaml``.
"""

from __future__ import annotations

import json
import math
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click
from pydantic import ValidationError

from analyzer.cli_options import SEED_HELP, format_option
from analyzer.errors import InputError
from analyzer.experiments.executor import WORKER_TIMEOUT
from analyzer.games import SYSTEMS


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM stops a sweep like Ctrl-C: finished blocks are kept, the run can resume."""

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not in the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


_PROGRESS_OPTION = click.option(
    "--progress/--no-progress",
    default=None,
    help="--progress: a bar even off a terminal; --no-progress: silent "
    "(default: a bar on a terminal, a status line every 30 s otherwise)",
)


@click.command()
@click.argument("spec", type=click.Path(dir_okay=False))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="results folder (default: reports/sweep-NAME); rerun into it to resume",
)
@click.option(
    "--workers",
    type=int,
    default=None,
    help="N: an embedded local Dask cluster of N worker processes; 0 (default without "
    "--scheduler or Dask config): serial, in this process, faster on one machine",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="tcp://HOST:PORT",
    help="run on this Dask scheduler (default: Dask's scheduler-address config, else serial)",
)
@click.option("--chunk", type=int, default=None, help="blocks per Dask task (default: automatic)")
@click.option(
    "--worker-timeout",
    type=float,
    default=WORKER_TIMEOUT,
    show_default=True,
    help="seconds to wait for a worker to join --scheduler",
)
@click.option(
    "--trials",
    type=int,
    default=None,
    help="trials per task and cell, 1 to 100,000,000 (default: file)",
)
@click.option("--seed", type=int, default=None, help="random seed (default: file)")
@click.option(
    "--until-ci",
    type=float,
    default=None,
    metavar="W",
    help="add blocks to each cell until its 95% CI half-width is <= W",
)
@click.option(
    "--max-trials", type=int, default=None, help="cap of --until-ci, trials per task and cell"
)
@click.option("--no-charts", is_flag=True, default=False, help="skip the PNG charts")
@_PROGRESS_OPTION
@format_option(
    "table", "json", "csv", help="what to print: summary table, or the results table as JSON / CSV"
)
def sweep(
    spec: str,
    out_dir: str | None,
    workers: int | None,
    scheduler: str | None,
    chunk: int | None,
    worker_timeout: float,
    trials: int | None,
    seed: int | None,
    until_ci: float | None,
    max_trials: int | None,
    no_charts: bool,
    progress: bool | None,
    output_format: str,
) -> None:
    """Balance sweep: a grid of variations, measured on Dask with resume (SPEC: sweep file)."""
    from analyzer.cli import check_between, check_scheduler, check_seed
    from analyzer.experiments.runner import SweepInterrupted
    from analyzer.experiments.sweep import run_sweep, summary_text

    check_between(trials, "--trials", 1)
    check_between(max_trials, "--max-trials", 1)
    check_seed(seed)
    check_scheduler(scheduler)
    check_between(chunk, "--chunk", 1)
    if not 0 < worker_timeout < math.inf:  # also rejects nan
        raise InputError(f"--worker-timeout must be a number of seconds > 0 (got {worker_timeout})")
    try:
        with _sigterm_as_interrupt():
            outcome = run_sweep(
                spec,
                out_dir,
                workers=workers,
                scheduler=scheduler,
                chunk=chunk,
                worker_timeout=worker_timeout,
                trials=trials,
                seed=seed,
                until_ci=until_ci,
                max_trials=max_trials,
                charts=not no_charts,
                progress=progress,
            )
    except SweepInterrupted as stop:
        click.echo(str(stop), err=True)
        raise click.Abort() from None
    if output_format == "json":
        click.echo(json.dumps(json.loads(outcome.results.to_json(orient="records")), indent=1))
    elif output_format == "csv":
        click.echo(outcome.results.to_csv(index=False).rstrip("\n"))
    else:
        click.echo(summary_text(outcome))
        for label, path in outcome.files.items():
            click.echo(f"{label}: {path}")


@click.command("fair-cost")
@click.argument("system", type=click.Choice(SYSTEMS))
@click.option(
    "--units",
    "units_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="unit cards (default: configs/SYSTEM/units.yaml)",
)
@click.option("--unit", required=True, help="the unit whose fair cost is sought")
@click.option(
    "--field",
    "field_file",
    type=click.Path(dir_okay=False),
    required=True,
    help="field file: opponents: [unit names] (duel value) or lists: [army list files] (matches)",
)
@click.option(
    "--trials",
    type=int,
    default=None,
    help="duels per pairing (default 65,536) or matches per pair of lists (default 4,096); "
    "at most 100,000,000",
)
@click.option("--seed", type=int, default=2026, show_default=True, help=SEED_HELP)
@click.option("--block-size", type=int, default=None, help="default 4,096 duels or 256 matches")
@click.option(
    "--low", type=int, default=None, help="lowest cost to search, >= 1 (default: automatic)"
)
@click.option("--high", type=int, default=None, help="highest cost to search, above --low")
@click.option(
    "--start",
    default="melee",
    show_default=True,
    help="duels: 'melee', or 'range R' (also 'range:R', 'range=R', or two words: --start "
    "range R) with R the distance in the system's unit (cm, Heroscape spaces), 0 to 10,000; "
    "a bare 'range' starts at 12",
)
@click.option(
    "--first",
    type=click.Choice(("a", "b", "alternate")),
    default="alternate",
    show_default=True,
    help="duels: who takes the first activation (a, b, or alternating by trial)",
)
@click.option(
    "--max-rounds",
    type=int,
    default=None,
    help="round cap, >= 1 (default: 12 for duels, at most 100; the rules' 6 for matches)",
)
@click.option(
    "--policy",
    default="greedy",
    show_default=True,
    help="matches: AI of both sides",
)
@click.option(
    "--opt", "rule_opts", multiple=True, metavar="KEY=VALUE", help="duel rule or match option"
)
@click.option("--workers", type=int, default=None, help="Dask workers (0: serial)")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="Dask scheduler address")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="results folder (default: reports/fair-cost-UNIT)",
)
@_PROGRESS_OPTION
@format_option("table", "json", "csv")
def fair_cost(
    system: str,
    units_file: str | None,
    unit: str,
    field_file: str,
    trials: int | None,
    seed: int,
    block_size: int | None,
    low: int | None,
    high: int | None,
    start: str,
    first: str,
    max_rounds: int | None,
    policy: str,
    rule_opts: tuple[str, ...],
    workers: int | None,
    scheduler: str | None,
    out_dir: str | None,
    progress: bool | None,
    output_format: str,
) -> None:
    """Points cost at which UNIT is fairly priced against a field (bisection on CRN).

    With unit names in the field: where its duel value per point equals the field median.
    With army lists: where the lists holding UNIT win half their matches against the rest.
    """
    from analyzer.analysis.duel import parse_rule_options
    from analyzer.analysis.value import field_lists
    from analyzer.cli import check_at_least, check_between, check_scheduler, check_seed, parse_start
    from analyzer.experiments.fair_cost import fair_cost as solve

    check_between(trials, "--trials", 1)
    check_seed(seed)
    check_at_least(low, "--low", 1)
    check_at_least(high, "--high", 1)
    if low is not None and high is not None and high <= low:
        raise InputError(f"--high must be above --low (got --low {low}, --high {high})")
    check_at_least(max_rounds, "--max-rounds", 1)
    check_scheduler(scheduler)
    extra = parse_rule_options(rule_opts)
    if field_lists(field_file, system):
        first_option: dict[str, Any] = (
            {"first": "alternate"} if first == "alternate" else {"round1_first": "ab".index(first)}
        )
        rounds = {"max_rounds": max_rounds} if max_rounds is not None else {}
        options: dict[str, Any] = {**first_option, **rounds, **extra}
        rules: dict[str, Any] = {}
    else:
        check_between(max_rounds, "--max-rounds", 1, 100)
        kind, distance = parse_start(start)
        rounds = {"max_rounds": max_rounds if max_rounds is not None else 12}
        options = {"start": kind, **({"distance": distance} if kind == "range" else {})}
        options, rules = {**options, "first": first, **rounds}, extra
    try:
        result = solve(
            system,
            unit,
            field_file,
            units_file,
            trials=trials,
            seed=seed,
            block_size=block_size,
            low=low,
            high=high,
            options=options,
            rules=rules,
            policy=policy,
            out_dir=out_dir,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
        )
    except ValidationError as err:  # a value a settings model refused: name the option
        raise InputError(_validation_message(err)) from None
    table = result.table()
    if output_format == "json":
        click.echo(json.dumps(json.loads(table.to_json(orient="records"))[0], indent=1))
    elif output_format == "csv":
        click.echo(table.to_csv(index=False).rstrip("\n"))
    else:
        click.echo(result.sentence())
        click.echo(result.field_sentence())
        for note in result.notes:
            click.echo(f"note: {note}")
        click.echo(result.trace().to_string(index=False, float_format=lambda v: f"{v:.4f}"))


#: Settings-model fields (pydantic) -> the fair-cost option that sets them.
_FIELD_OPTIONS = {
    "seed": "--seed",
    "trials": "--trials",
    "block_size": "--block-size",
    "max_rounds": "--max-rounds",
    "distance": "--start",
    "start": "--start",
    "first": "--first",
}


def _validation_message(err: ValidationError) -> str:
    """One line from pydantic's first complaint, naming the option rather than the field."""
    first = err.errors()[0]
    field = str(first["loc"][-1]) if first["loc"] else ""
    name = _FIELD_OPTIONS.get(field, field or "option")
    return f"{name}: {first['msg'].lower()} (got {first.get('input')!r})"


def _run(command: click.Command, argv: Sequence[str] | None) -> None:
    from analyzer.cli import run_click

    run_click(command, list(argv) if argv is not None else sys.argv[1:])


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m analyzer.experiments``: the sweep command with the CLI's error handling."""
    _run(sweep, argv)


def fair_cost_main(argv: Sequence[str] | None = None) -> None:
    """The ``fair-cost`` command with the CLI's error handling (for scripts and tests)."""
    _run(fair_cost, argv)
