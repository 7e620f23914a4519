"""Duels between two unit cards of any system, by name, from a units file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from analyzer.duels import DuelOptions, DuelResult, run_duel
from analyzer.errors import InputError
from analyzer.games import system_module
from analyzer.paths import system_config


def default_units_file(system: str) -> Path:
    """The bundled sample cards of a system."""
    return system_config(system, "units.yaml")


def load_units(system: str, path: str | Path | None = None) -> dict[str, Any]:
    """Validated unit cards by name (raises ConfigError listing every problem)."""
    units = system_module(system, "units")
    return dict(units.load_units(path or default_units_file(system)))


def pick(cards: dict[str, Any], name: str, path: str | Path) -> Any:
    """The card called ``name`` or a one-line error naming the file and the choices."""
    if name not in cards:
        raise InputError(f"{path}: no unit named {name!r} (units: {', '.join(cards)})")
    return cards[name]


def duel_cards(
    system: str, a: Any, b: Any, options: DuelOptions, trials: int, seed: int
) -> DuelResult:
    """Duel two already-loaded cards."""
    model = system_module(system, "duel").duel_model(a, b, options)
    return run_duel(system, a.name, b.name, options, model, trials, seed)


def duel(
    system: str,
    units_file: str | Path | None,
    a: str,
    b: str,
    options: DuelOptions,
    trials: int,
    seed: int,
) -> DuelResult:
    """``analyzer duel``: load the cards, run the exact and Monte Carlo duel."""
    path = units_file or default_units_file(system)
    cards = load_units(system, path)
    return duel_cards(system, pick(cards, a, path), pick(cards, b, path), options, trials, seed)
