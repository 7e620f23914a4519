"""Duels between two unit cards of any system, by name, from a units file."""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
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


def parse_rule_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``["reaction=dodge", "countershot=false"]`` -> keyword arguments of ``duel_model``.

    Values become ``True``/``False``/``None``, integers or floats where they read so.
    """
    parsed: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--opt takes KEY=VALUE (got {pair!r})")
        parsed[key.strip().replace("-", "_")] = _typed(text.strip())
    return parsed


def _typed(text: str) -> Any:
    words = {"true": True, "false": False, "none": None}
    if text.lower() in words:
        return words[text.lower()]
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def duel_cards(
    system: str,
    a: Any,
    b: Any,
    options: DuelOptions,
    trials: int,
    seed: int,
    rule_options: Mapping[str, Any] | None = None,
    task: tuple[int, ...] = (),
) -> DuelResult:
    """Duel two already-loaded cards; ``rule_options`` go to the system's ``duel_model``."""
    duel_model = system_module(system, "duel").duel_model
    allowed = [  # keyword parameters with plain default values are user-settable rules
        name
        for name, p in inspect.signature(duel_model).parameters.items()
        if name not in ("a", "b", "options")
        and p.default is not p.empty
        and isinstance(p.default, bool | int | float | str | type(None))
    ]
    unknown = sorted(set(rule_options or {}) - set(allowed))
    if unknown:
        choices = ", ".join(allowed) or "none"
        raise InputError(f"unknown {system} duel option(s) {unknown}; options: {choices}")
    model = duel_model(a, b, options, **(rule_options or {}))
    notes = [f"rule option {k}={v!r}" for k, v in (rule_options or {}).items()]
    model.notes = notes + list(model.notes)
    return run_duel(system, a.name, b.name, options, model, trials, seed, task)


def duel(
    system: str,
    units_file: str | Path | None,
    a: str,
    b: str,
    options: DuelOptions,
    trials: int,
    seed: int,
    rule_options: Mapping[str, Any] | None = None,
) -> DuelResult:
    """``analyzer duel``: load the cards, run the exact and Monte Carlo duel."""
    path = units_file or default_units_file(system)
    cards = load_units(system, path)
    return duel_cards(
        system, pick(cards, a, path), pick(cards, b, path), options, trials, seed, rule_options
    )
