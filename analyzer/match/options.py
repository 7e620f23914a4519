"""Named match options: checked by name and kind for every engine, one-line errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from analyzer.analysis.duel import check_options
from analyzer.errors import InputError
from analyzer.match.contract import (
    DEFAULT_SIDE_NAMES,
    MatchEngine,
    side_names,
    side_policies,
)

#: The option that picks a scenario / terrain file (given with ``--scenario``).
SCENARIO_KEY = "scenario"


def check_match_options(engine: MatchEngine, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` checked against ``engine.option_kinds``: the values to use, or one
    :class:`InputError` naming the option, the value and what it may be.

    ``scenario`` is not an option (``--scenario`` gives it); its key passes unchecked
    and is left out of the result.
    """
    return check_options(
        f"{engine.system} match option", engine.option_kinds, options, also_known=(SCENARIO_KEY,)
    )


def check_policy(
    engine: MatchEngine, name: Any, what: str = "policy", side: int | None = None
) -> str:
    """A policy name of ``engine`` (one-line error listing the known ones); with ``side``
    (0 A, 1 B) one of that side's policies (:func:`analyzer.match.contract.side_policies`)."""
    known = engine.policies if side is None else side_policies(engine, side)
    if name not in known:
        named = side is not None and side_names(engine) != DEFAULT_SIDE_NAMES
        whose = f"{side_names(engine)[side]} " if named and side is not None else ""
        raise InputError(
            f"unknown {engine.system} {whose}{what} {name!r} (known: {', '.join(known)})"
        )
    return str(name)
