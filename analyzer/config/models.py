"""Base models shared by every system's unit cards, unit files and army lists.

All models reject unknown keys.  A card may list in ``sample`` the fields whose
values are sample data (not printed in the rulebook), so users can tell them
apart from the rulebook's own figures.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from analyzer.config.loader import Problems, load_model
from analyzer.config.yaml_io import ConfigError
from analyzer.errors import unknown_name


def _leaf_types(annotation: Any) -> set[Any]:
    """The scalar types an annotation admits (through unions, Annotated, lists, dicts)."""
    if annotation is Any or isinstance(annotation, TypeVar):
        return {Any}
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _leaf_types(typing.get_args(annotation)[0])
    if origin is typing.Literal:
        return {type(v) for v in typing.get_args(annotation)}
    if origin is not None or isinstance(annotation, types.UnionType):
        args = typing.get_args(annotation)
        if origin is dict and args:
            args = args[1:]  # keys are strings in YAML; values count
        return set().union(*(_leaf_types(a) for a in args)) if args else {Any}
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return set()  # a nested model checks its own fields
    return {annotation}


def _bool_locs(value: Any) -> list[tuple[int | str, ...]]:
    """Where ``value`` holds a boolean: ``()`` for itself, else the index/key path inside."""
    if isinstance(value, bool):
        return [()]
    if isinstance(value, list | tuple):
        return [(i, *loc) for i, v in enumerate(value) for loc in _bool_locs(v)]
    if isinstance(value, dict):
        return [(str(k), *loc) for k, v in value.items() for loc in _bool_locs(v)]
    return []


_NUMERIC_ONLY: dict[type[BaseModel], dict[str, str]] = {}


def _numeric_only(model: type[BaseModel]) -> dict[str, str]:
    """Input key -> field name of the fields holding numbers but no booleans."""
    if model not in _NUMERIC_ONLY:
        found: dict[str, str] = {}
        for name, info in model.model_fields.items():
            leaves = _leaf_types(info.annotation)
            if Any not in leaves and bool not in leaves and leaves & {int, float}:
                found[info.alias or name] = name
                found[name] = name
        _NUMERIC_ONLY[model] = found
    return _NUMERIC_ONLY[model]


class StrictModel(BaseModel):
    """A pydantic model that rejects unknown keys and is immutable.

    YAML's ``true``/``false`` are not numbers here: pydantic would read ``points: true``
    as 1, so every ``int``/``float`` field (also inside lists and dicts) of every card,
    list, scenario and spec model rejects a boolean, with the usual error location.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="wrap")
    @classmethod
    def _no_bool_for_numbers(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        if not isinstance(data, dict):
            return handler(data)
        numeric = _numeric_only(cls)
        errors = [
            InitErrorDetails(
                type=PydanticCustomError(
                    "bool_not_number", "expected a number, got a boolean (true/false)"
                ),
                loc=(key, *loc),
                input=value,
            )
            for key, value in data.items()
            if key in numeric
            for loc in _bool_locs(value)
        ]
        if not errors:
            return handler(data)
        try:  # the model's other problems too: a file's problems are reported all at once
            handler(data)
        except ValidationError as err:
            errors += [
                InitErrorDetails(
                    type=PydanticCustomError(e["type"], e["msg"]),
                    loc=e["loc"],
                    input=e["input"],
                )
                for e in err.errors(include_url=False)
            ]
        raise ValidationError.from_exception_data(cls.__name__, errors)


class CardBase(StrictModel):
    """Fields every unit card has."""

    name: str = Field(min_length=1)
    points: int = Field(ge=0)
    sample: list[str] = Field(
        default_factory=list, description="fields holding sample values, not rulebook figures"
    )

    @model_validator(mode="after")
    def _sample_fields_exist(self) -> CardBase:
        unknown = [f for f in self.sample if f not in type(self).model_fields]
        if unknown:
            raise ValueError(f"sample lists unknown field(s): {', '.join(unknown)}")
        return self


Card = TypeVar("Card", bound=CardBase)


class UnitFile(StrictModel, Generic[Card]):
    """A ``units.yaml`` file: the system's name, a note on the data's source, the cards."""

    system: str
    source: str | None = None
    units: list[Card] = Field(min_length=1)


#: Most copies of one card in an army list line (a bound: match engines size arrays by it).
MAX_COPIES = 100


class ListEntry(StrictModel):
    """One line of an army list: a unit card by name, optionally several copies."""

    unit: str = Field(min_length=1)
    count: int = Field(default=1, ge=1, le=MAX_COPIES)


class ArmyListBase(StrictModel):
    """Fields every army list has."""

    name: str = Field(min_length=1)
    system: str
    units: list[ListEntry] = Field(min_length=1)


def load_cards(path: str | Path, file_model: type[UnitFile[Any]], system: str) -> dict[str, Any]:
    """Load a unit file; cards by name.  Duplicate names and a wrong ``system`` are errors."""
    data, doc = load_model(path, file_model, system)
    problems = Problems(path, doc)
    if data.system != system:
        problems.add(["system"], f"expected {system!r}, found {data.system!r}")
    cards: dict[str, Any] = {}
    for i, card in enumerate(data.units):
        if card.name in cards:
            problems.add(["units", i, "name"], f"duplicate unit name {card.name!r}")
        cards[card.name] = card
    problems.raise_if_any()
    return cards


def load_army_list(
    path: str | Path, list_model: type[ArmyListBase], cards: dict[str, Any], system: str
) -> tuple[Any, Problems]:
    """Load an army list and check that it names known cards of this system.

    Returns the list and a :class:`Problems` collector for the system's own
    construction rules; call ``problems.raise_if_any()`` when they are checked.
    """
    army, doc = load_model(path, list_model, system)
    problems = Problems(path, doc)
    if army.system != system:
        problems.add(["system"], f"expected {system!r}, found {army.system!r}")
    for i, entry in enumerate(army.units):
        if entry.unit not in cards:
            problems.add(["units", i, "unit"], unknown_name("unit", entry.unit, cards))
    return army, problems


__all__ = [
    "ArmyListBase",
    "CardBase",
    "ConfigError",
    "ListEntry",
    "StrictModel",
    "UnitFile",
    "load_army_list",
    "load_cards",
]
