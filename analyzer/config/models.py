"""Base models shared by every system's unit cards, unit files and army lists.

All models reject unknown keys.  A card may list in ``sample`` the fields whose
values are sample data (not printed in the rulebook), so users can tell them
apart from the rulebook's own figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from analyzer.config.loader import Problems, load_model
from analyzer.config.yaml_io import ConfigError


class StrictModel(BaseModel):
    """A pydantic model that rejects unknown keys and is immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


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


class ListEntry(StrictModel):
    """One line of an army list: a unit card by name, optionally several copies."""

    unit: str = Field(min_length=1)
    count: int = Field(default=1, ge=1)


class ArmyListBase(StrictModel):
    """Fields every army list has."""

    name: str = Field(min_length=1)
    system: str
    units: list[ListEntry] = Field(min_length=1)


def load_cards(path: str | Path, file_model: type[UnitFile[Any]], system: str) -> dict[str, Any]:
    """Load a unit file; cards by name.  Duplicate names and a wrong ``system`` are errors."""
    data, doc = load_model(path, file_model)
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
    army, doc = load_model(path, list_model)
    problems = Problems(path, doc)
    if army.system != system:
        problems.add(["system"], f"expected {system!r}, found {army.system!r}")
    for i, entry in enumerate(army.units):
        if entry.unit not in cards:
            problems.add(["units", i, "unit"], f"unknown unit {entry.unit!r}")
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
