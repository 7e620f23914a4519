"""Registry of the game systems: one package per rulebook in ``../shared/rules/``.

Each ``analyzer/games/<system>/rolls.py`` defines ``MECHANICS``, a dict of
:class:`analyzer.dice.mechanic.Mechanic` by name.
"""

from __future__ import annotations

import importlib

from analyzer.dice.mechanic import Mechanic
from analyzer.errors import InputError

#: The supported systems, in the order the CLI lists them.
SYSTEMS: tuple[str, ...] = ("rapture", "heroscape", "hybrid", "degenesis", "d20")


def mechanics(system: str) -> dict[str, Mechanic]:
    """The roll mechanics of ``system`` by name."""
    if system not in SYSTEMS:
        raise InputError(f"unknown system {system!r}; choose one of {', '.join(SYSTEMS)}")
    module = importlib.import_module(f"analyzer.games.{system}.rolls")
    return dict(module.MECHANICS)


def get_mechanic(system: str, name: str) -> Mechanic:
    """One mechanic of one system."""
    table = mechanics(system)
    if name not in table:
        raise InputError(f"unknown {system} mechanic {name!r}; choose one of {', '.join(table)}")
    return table[name]
