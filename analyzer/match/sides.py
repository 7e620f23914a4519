"""Loading the two sides of a match-up when each side is an army list of one card file.

Engines whose sides are two army lists of the system's cards (Rapture, d20, and the
contract's default) inherit :class:`ArmyListSides` and name their ``units`` module (the
system's ``units.py``: ``UNITS_FILE``, ``load_units``, ``load_list``).  A system whose
sides differ (Degenesis: a roster against a hostile force) writes its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from analyzer.match.contract import Sides


class ArmyListSides:
    """``load_cards`` / ``load_list`` / ``load_sides`` of :class:`MatchEngine` from a
    system's ``units`` module."""

    units_module: ClassVar[ModuleType]

    def load_cards(self, units: str | Path | None) -> tuple[Mapping[str, Any], Path]:
        """The cards by name and their file (``None``: the bundled sample cards)."""
        path = Path(units) if units is not None else Path(self.units_module.UNITS_FILE)
        return self.units_module.load_units(path), path

    def load_list(self, path: str | Path, cards: Mapping[str, Any]) -> Any:
        """One army list, validated against ``cards``."""
        return self.units_module.load_list(path, dict(cards))

    def load_sides(self, side_a: str | Path, side_b: str | Path, units: str | Path | None) -> Sides:
        """Both sides and the files they came from (cards, list A, list B)."""
        cards, path = self.load_cards(units)
        lists = (self.load_list(side_a, cards), self.load_list(side_b, cards))
        return Sides(cards, lists, [path, Path(side_a), Path(side_b)])
