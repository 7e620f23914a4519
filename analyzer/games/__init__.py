"""Registry of the game systems: one package per rulebook in ``../shared/rules/``.

Each system package has the same parts:

* ``rules.py``: rule constants, each citing its rulebook section;
* ``rolls.py``: ``MECHANICS``, the dice mechanics (:class:`analyzer.dice.mechanic.Mechanic`);
* ``units.py``: the card and army-list models, ``load_units`` and ``load_list``;
* ``duel.py``: ``duel_model`` (a :class:`analyzer.duels.DuelModel` for two cards) and
  ``activation_summary`` (exact effect of one activation);
* ``match/`` (where the system has one): its match engine, an object ``ENGINE`` that
  implements :class:`analyzer.match.contract.MatchEngine`, listed in :data:`MATCH_ENGINES`.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from analyzer.dice.mechanic import Mechanic
from analyzer.errors import InputError

if TYPE_CHECKING:
    from analyzer.match.contract import MatchEngine

#: The supported systems, in the order the CLI lists them.
SYSTEMS: tuple[str, ...] = ("rapture", "heroscape", "hybrid", "degenesis", "d20")


def mechanics(system: str) -> dict[str, Mechanic]:
    """The roll mechanics of ``system`` by name."""
    if system not in SYSTEMS:
        raise InputError(f"unknown system {system!r}; choose one of {', '.join(SYSTEMS)}")
    module = importlib.import_module(f"analyzer.games.{system}.rolls")
    return dict(module.MECHANICS)


def system_module(system: str, part: str) -> ModuleType:
    """A part of a system package: ``rolls``, ``units`` or ``duel``."""
    if system not in SYSTEMS:
        raise InputError(f"unknown system {system!r}; choose one of {', '.join(SYSTEMS)}")
    return importlib.import_module(f"analyzer.games.{system}.{part}")


def get_mechanic(system: str, name: str) -> Mechanic:
    """One mechanic of one system."""
    table = mechanics(system)
    if name not in table:
        raise InputError(f"unknown {system} mechanic {name!r}; choose one of {', '.join(table)}")
    return table[name]


#: The systems with a match engine and the module holding each one's ``ENGINE`` (the
#: order is part of a sweep task's identity: append, never reorder).
MATCH_ENGINES: dict[str, str] = {
    "rapture": "analyzer.games.rapture.match.engine",
    "d20": "analyzer.games.d20.match.engine",
    "heroscape": "analyzer.games.heroscape.match.engine",
    "hybrid": "analyzer.games.hybrid.match.engine",
    "degenesis": "analyzer.games.degenesis.match.engine",
}


def match_systems() -> tuple[str, ...]:
    """The systems that have a match engine."""
    return tuple(MATCH_ENGINES)


def match_engine(system: str) -> MatchEngine:
    """The match engine of ``system``; one-line error naming the systems that have one."""
    if system not in MATCH_ENGINES:
        known = ", ".join(MATCH_ENGINES)
        if system in SYSTEMS:
            raise InputError(f"{system}: no match engine yet (available: {known})")
        raise InputError(f"unknown system {system!r}; systems with a match engine: {known}")
    engine: MatchEngine = importlib.import_module(MATCH_ENGINES[system]).ENGINE
    return engine
