"""Options shared by every command (no command is registered here, so any CLI module
may import it)."""

from __future__ import annotations

from typing import Any

import click

#: ``--seed`` / ``--format`` help, the same on every command.
SEED_HELP = "random seed, 0 to 2**63-1: the same seed gives the same numbers"
FORMAT_HELP = "table: readable text; json: one JSON document (csv: tidy rows, where offered)"


def format_option(*choices: str, help: str = FORMAT_HELP) -> Any:
    """``--format`` (into ``output_format``), ``table`` by default."""
    return click.option(
        "--format", "output_format", type=click.Choice(choices), default="table",
        show_default=True, help=help,
    )  # fmt: skip
