"""Duels between two unit cards of any system, by name, from a units file."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from analyzer.duels import DuelOptions, DuelResult, run_duel
from analyzer.errors import InputError, unknown_name
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
        raise InputError(f"{path}: {unknown_name('unit', name, cards)}")
    return cards[name]


def parse_rule_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``["reaction=dodge", "countershot=false"]`` -> keyword arguments of ``duel_model``.

    Values become ``True``/``False``/``None``, integers or floats where they read so;
    :func:`check_options` then checks them against the option's :class:`OptionKind`
    (and turns ``None`` back into ``"none"`` where that is one of the choices).
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


# ------------------------------------------------------------- option values
@dataclass(frozen=True)
class OptionKind:
    """The values one named option takes (``--opt KEY=VALUE``, a sweep's options).

    ``kind`` is ``"bool"`` (true/false), ``"int"`` or ``"float"`` (a number from ``low``
    to ``high``, either bound may be open) or ``"choice"`` (one of ``choices``).  A
    number option with ``none=True`` also takes ``none`` (``None``); a choice option
    whose choices hold the word ``"none"`` takes ``None`` as that word.  Build them
    with :func:`flag`, :func:`integer`, :func:`number` and :func:`choice`.
    """

    kind: Literal["bool", "int", "float", "choice"]
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()
    none: bool = False

    def allowed(self) -> str:
        """What the option takes, for error messages and docs."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(_shown(c, quote=False) for c in self.choices)
        noun = "of type int," if self.kind == "int" else "a number"
        if self.low is not None and self.high is not None:
            text = f"{noun} from {_shown(self.low)} to {_shown(self.high)}"
        elif self.low is not None:
            text = f"{noun} >= {_shown(self.low)}"
        elif self.high is not None:
            text = f"{noun} <= {_shown(self.high)}"
        else:
            text = noun
        return text + (" or none" if self.none else "")

    def check(self, value: Any) -> tuple[bool, Any]:
        """(whether ``value`` is allowed, the value to use)."""
        if self.kind == "choice":
            if value is None and "none" in self.choices:
                return True, "none"
            same = [c for c in self.choices if type(c) is type(value) and c == value]
            return bool(same), value
        if value is None:
            return self.none, None
        if self.kind == "bool":
            return isinstance(value, bool), value
        numeric = (int,) if self.kind == "int" else (int, float)
        if isinstance(value, bool) or not isinstance(value, numeric) or math.isnan(value):
            return False, value
        low_ok = self.low is None or value >= self.low
        return low_ok and (self.high is None or value <= self.high), value


def flag() -> OptionKind:
    """A true/false option."""
    return OptionKind("bool")


def integer(low: int | None = None, high: int | None = None) -> OptionKind:
    """A whole number from ``low`` to ``high`` (inclusive; ``None``: open)."""
    return OptionKind("int", low, high)


def number(low: float | None = None, high: float | None = None, none: bool = False) -> OptionKind:
    """A number (int or float) from ``low`` to ``high``; ``none=True`` also takes ``none``."""
    return OptionKind("float", low, high, none=none)


def choice(*choices: Any) -> OptionKind:
    """One of ``choices`` (compared with their type: ``1`` is not ``"1"`` nor ``True``)."""
    return OptionKind("choice", choices=choices)


def _shown(value: Any, quote: bool = True) -> str:
    """A value as the user writes it: ``none``, ``true``, ``3``, ``'abc'``."""
    if value is None or isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if quote and isinstance(value, str) else str(value)


def check_options(
    what: str,
    kinds: Mapping[str, OptionKind],
    values: Mapping[str, Any],
    also_known: Sequence[str] = (),
) -> dict[str, Any]:
    """``values`` checked against ``kinds``: the values to use (``None`` -> ``"none"``
    for a choice that holds it), or one :class:`InputError` naming the option, the value
    and what is allowed, e.g. ``match option round1_first must be one of -1, 0, 1 (got 99)``.

    ``what`` names the options in messages (``"match option"``, ``"rapture duel option"``);
    names in ``also_known`` pass unchecked (and are left out of the result).
    """
    unknown = sorted(set(values) - set(kinds) - set(also_known))
    if unknown:
        known = ", ".join(sorted(kinds)) or "none"  # ``also_known`` have their own flags
        raise InputError(f"unknown {what}(s) {', '.join(unknown)} (known: {known})")
    checked: dict[str, Any] = {}
    for name, value in values.items():
        if name not in kinds:
            continue
        ok, used = kinds[name].check(value)
        if not ok:
            raise InputError(f"{what} {name} must be {kinds[name].allowed()} (got {_shown(value)})")
        checked[name] = used
    return checked


#: The rule options of each system's ``duel_model`` (its keyword parameters with plain
#: defaults; a test checks that the two agree).  See each ``duel.py`` docstring.
DUEL_RULE_OPTIONS: dict[str, dict[str, OptionKind]] = {
    "rapture": {
        # "Determine order of activation": by INI from round 2 (rules) or --first always
        "order": choice("rules", "fixed"),
        "reaction": choice("per-rp", "total", "dodge", "counterblow", "none"),
        # expected wounds a Seek Shelter must prevent; none: never shelter
        "shelter_threshold": number(low=0, none=True),
        "countershot": flag(),
    },
    "heroscape": {},
    # Activation Roll every Round or the --first side always (default: by --first)
    "hybrid": {"activation": choice("roll", "fixed")},
    "degenesis": {
        # EDGES per OPERATIVE in a ROUND: 3, 2 or 1 for a roster of 1, 2 or 3-4 OPERATIVES
        "turns_per_round": integer(1, 3),
        "sucker_punch_first": flag(),
        "ranged_hostiles_provoke": flag(),
    },
    "d20": {"dexterity_in_shot": flag(), "shoot_in_hth": flag(), "all_weapons": flag()},
}


def rule_option_kinds(system: str) -> dict[str, OptionKind]:
    """The duel rule options of ``system`` (raises InputError for an unknown system)."""
    if system not in DUEL_RULE_OPTIONS:
        raise InputError(f"unknown system {system!r}; choose one of {', '.join(DUEL_RULE_OPTIONS)}")
    return DUEL_RULE_OPTIONS[system]


def check_rule_options(system: str, values: Mapping[str, Any] | None) -> dict[str, Any]:
    """Checked duel rule options of ``system`` (``analyzer duel --opt``, sweep ``rules``)."""
    return check_options(f"{system} duel option", rule_option_kinds(system), values or {})


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
    rules = check_rule_options(system, rule_options)
    model = system_module(system, "duel").duel_model(a, b, options, **rules)
    notes = [f"rule option {k}={v!r}" for k, v in rules.items()]
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
