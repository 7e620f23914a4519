"""The match-engine contract: what every system's AI-vs-AI match engine provides.

In the spirit of OpenSpiel's Game/State, split at the boundary numba needs: the Python
side (:class:`MatchEngine`) loads and checks the two sides, compiles them into plain
arrays (:class:`Setup`) and names what the kernels write; the numba side plays blocks
of matches from those arrays and a generator state, writing one fixed-width record per
match and per unit.  Everything that consumes matches (``analyzer match SYSTEM``,
``compare``, ``fair-cost`` by lists, sweeps with ``metric: matches``, ``report``, the
notebooks) talks to an engine only through this contract and the shared code of
:mod:`analyzer.match` (runner, summary, trace, sweep model, CLI options).

Records
-------
Every match writes one int64 row of ``N_STANDARD + len(engine.record_extras)`` columns:
the standard columns below, then the engine's own (named by ``record_extras``).  Every
unit (in :attr:`Setup.units` order) writes one int64 row of ``N_UNIT_STANDARD +
len(engine.unit_extras)`` columns.

Randomness
----------
Match ``k`` of a run with seed ``s`` is played from generator state
``analyzer.rng.block_states(s, ., (MATCH_TASK,))[k // engine.match_block]`` advanced
to match ``k`` by the kernel (the engine decides how: Rapture and d20 jump the
xoshiro stream by the match's index within its block), so a record depends only on
``(seed, k)``, never on threads or on how a run was cut into pieces, and
``--trace K`` replays match ``K`` exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

import numpy as np

from analyzer.analysis.duel import OptionKind

#: Task key of match simulations in ``analyzer.rng.block_states`` (other tasks use others).
MATCH_TASK = 4

# ---------------------------------------------------------------- standard record columns
#: 0 draw, 1 side A won, 2 side B won.
R_WINNER = 0
#: Score of each side (victory points, remaining points of Life, objectives: the
#: engine's own measure, named by ``MatchEngine.score_name``).
R_SCORE_A = 1
R_SCORE_B = 2
#: The side (0 A, 1 B) that took the first turn / activation of round 1.
R_FIRST = 3
#: Rounds (game turns) played.
R_ROUNDS = 4
#: Why the match ended: an index into ``MatchEngine.end_reasons``.
R_END = 5
#: Activations (figure / unit activations) played, both sides.
R_ACTIVATIONS = 6
#: Invariant violations found by the checker (0 unless checking is on, and 0 then too).
R_VIOLATIONS = 7
N_STANDARD = 8
STANDARD_COLUMNS = (
    "winner",
    "score_a",
    "score_b",
    "first",
    "rounds",
    "end",
    "activations",
    "violations",
)

# ------------------------------------------------------------------ standard unit columns
#: 0 in play at the end, 1 removed (killed, destroyed, routed), 2 left the table by the
#: rules (escaped, extracted): counted as neither.
U_STATUS = 0
#: Damage dealt to enemy units and damage taken (wounds, CP, Life: the engine's unit).
U_DEALT = 1
U_TAKEN = 2
#: Score (VP) earned by the unit.
U_SCORE = 3
N_UNIT_STANDARD = 4
UNIT_STANDARD_COLUMNS = ("status", "dealt", "taken", "score")
STATUS_IN_PLAY, STATUS_REMOVED, STATUS_LEFT = 0, 1, 2


@dataclass(frozen=True)
class UnitInfo:
    """One unit (or figurine) of a prepared match-up, in record order."""

    side: int  # 0 A, 1 B
    name: str
    kind: str  # the card's type ("hero", "squad", "SU", ...)
    points: int


@dataclass
class Setup:
    """A prepared match-up: everything a block of matches needs, compiled.

    ``arrays`` are what the kernels take (plain int64 / float64 arrays; everything that
    changes a result must be in them: a sweep ships them to Dask workers alone).
    """

    system: str
    arrays: tuple[np.ndarray, ...]
    units: list[UnitInfo]
    list_names: tuple[str, str]
    points: tuple[int, int]
    policies: tuple[str, str]
    options: dict[str, Any]  # the checked named options (reported with the results)
    scenario: str
    data_files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extra: Any = None  # the engine's own compiled data (trace names, report extras)


@dataclass
class Sides:
    """The two loaded sides of a match-up and the files they came from."""

    cards: Mapping[str, Any]
    lists: tuple[Any, Any]
    files: list[Path]


@runtime_checkable
class MatchEngine(Protocol):
    """A system's match engine (registered in :mod:`analyzer.games`; see the module doc).

    Attributes
    ----------
    system:
        The system's name (``"rapture"``, ``"d20"``).
    policies:
        AI policy names, weakest first (``random`` first); ``default_policy`` is one.
    first_modes:
        Values of the ``first`` option (who takes round 1's first turn); every engine
        has ``"rules"`` (the rulebook's roll-off, the default) and ``"alternate"`` (A in
        even matches, B in odd ones).
    option_kinds:
        The named options (``--opt KEY=VALUE``, a sweep's ``metric.options``), ``first``
        included, each with its :class:`OptionKind`; checked by
        :func:`analyzer.match.options.check_match_options`.
    option_help:
        One line per option for ``--help`` and the docs.
    end_reasons:
        Names of the ``R_END`` codes.
    score_name:
        What ``R_SCORE_*`` counts (``"VP"``, ``"CP left"``).
    damage_name:
        What ``U_DEALT`` / ``U_TAKEN`` count (``"wounds"``, ``"CP"``).
    record_extras, unit_extras:
        Names of the engine's record columns after the standard ones.
    match_block:
        Matches per seeded block (a block's generator state is the stream of its matches).
    side_kind:
        What a side is, for messages and ``--help`` (``"army list"``).
    """

    system: str
    policies: tuple[str, ...]
    default_policy: str
    first_modes: tuple[str, ...]
    option_kinds: Mapping[str, OptionKind]
    option_help: Mapping[str, str]
    end_reasons: tuple[str, ...]
    score_name: str
    damage_name: str
    record_extras: tuple[str, ...]
    unit_extras: tuple[str, ...]
    match_block: int
    side_kind: str

    def load_sides(self, side_a: str | Path, side_b: str | Path, units: str | Path | None) -> Sides:
        """Load and validate the two sides (one-line ``InputError``/``ConfigError``s)."""
        ...

    def load_list(self, path: str | Path, cards: Mapping[str, Any]) -> Any:
        """One side's list loaded against ``cards`` (compare and sweeps load lists one by one)."""
        ...

    def load_cards(self, units: str | Path | None) -> tuple[Mapping[str, Any], Path]:
        """The cards by name and the file they came from (``None``: the bundled sample)."""
        ...

    def prepare(
        self,
        cards: Mapping[str, Any],
        lists: tuple[Any, Any],
        *,
        policies: tuple[str, str],
        options: Mapping[str, Any],
        scenario: str | None = None,
        first_side: int | None = None,
    ) -> Setup:
        """Compile a match-up.  ``options`` are already checked; ``first_side`` (0 A, 1 B)
        forces who takes round 1's first turn (sweeps and mirror tests), overriding
        ``options["first"]``."""
        ...

    def kernel_sources(self) -> list[Path]:
        """The engine's source files (their contents key stored results and caches)."""
        ...

    def run_block(
        self,
        arrays: tuple[np.ndarray, ...],
        state: np.ndarray,
        first: int,
        count: int,
        rec: np.ndarray,
        urec: np.ndarray,
        check: bool,
        events: np.ndarray | None,
    ) -> int:
        """Play matches ``first .. first + count - 1`` of the block whose generator state
        is ``state``, writing match ``first + i``'s record to ``rec[i]`` and its unit
        records to ``urec[i]`` (both have ``count`` rows).  ``check``: run the invariant
        checker (problems counted in ``R_VIOLATIONS``).  ``events``: a trace buffer from
        :meth:`trace_buffer` (``count`` is then 1), or ``None``; returns the number of
        events written (0 without a buffer).  Releases the GIL (runs on worker threads)."""
        ...

    def is_compiled(self) -> bool:
        """Whether the kernels load from numba's cache (else the first call compiles)."""
        ...

    def compile_seconds(self) -> tuple[int, int]:
        """A cold compile's duration on 2 cores (low, high), for the "compiling" line."""
        ...

    def render_trace(self, setup: Setup, events: np.ndarray) -> list[str]:
        """A trace buffer as readable play-by-play lines (the rulebook's words)."""
        ...

    def trace_buffer(self) -> np.ndarray:
        """A fresh (zeroed) event buffer large enough for one match."""
        ...

    def report_extras(self, setup: Setup, rec: np.ndarray, urec: np.ndarray) -> dict[str, Any]:
        """Engine-specific summary figures (JSON-ready) beyond the standard ones."""
        ...

    def render_extras(self, extras: Mapping[str, Any]) -> list[str]:
        """``report_extras`` as lines of the text summary."""
        ...


# ------------------------------------------------------- optional members, with defaults
#: Optional contract members an engine may declare (added after Rapture and d20; the
#: shared code reads them through the accessors below, so an engine without them keeps
#: the defaults).  :class:`EngineDefaults` holds the same defaults for engines that
#: inherit it.
DEFAULT_SIDE_NAMES = ("A", "B")
DEFAULT_SIDE_OPTIONS = ("list-a", "list-b")
DEFAULT_SCENARIO_OPTION = "scenario"
DEFAULT_OUTCOME_NAMES = ("draw", "A wins", "B wins")


class EngineDefaults:
    """Defaults of the optional contract members (an engine may inherit or override them).

    ``side_names``: what side A and side B are (``("operatives", "hostile")``);
    ``side_options``: the ``analyzer match`` flags that give the two sides, without
    dashes (``("roster", "hostile")``); ``scenario_option``: the flag that names the
    scenario (``"mission"``); ``outcome_names``: the names of the ``R_WINNER`` codes 0,
    1, 2 (``("draw", "mission success", "mission failure")``); ``symmetric``: whether
    one side's file may stand on either side (a mirror match means something);
    ``side_policies``: the policies of each side (asymmetric games); ``sample_sides``:
    the bundled sample files of side A and side B (conformance tests, ``--help``);
    ``fixed_edge_options``: the named options that keep side A on its own deployment
    edge in every match (empty when the engine never moves a side: a mirror match with
    them tests deployment for a bias that swapping edges would average away).
    """

    side_names: tuple[str, str] = DEFAULT_SIDE_NAMES
    side_options: tuple[str, str] = DEFAULT_SIDE_OPTIONS
    scenario_option: str = DEFAULT_SCENARIO_OPTION
    outcome_names: tuple[str, str, str] = DEFAULT_OUTCOME_NAMES
    symmetric: bool = True
    fixed_edge_options: Mapping[str, Any] = MappingProxyType({})


def side_names(engine: Any) -> tuple[str, str]:
    """The names of side A and side B (default ``("A", "B")``)."""
    return tuple(getattr(engine, "side_names", DEFAULT_SIDE_NAMES))


def side_options(engine: Any) -> tuple[str, str]:
    """The CLI flags (without ``--``) giving side A and side B (default list-a, list-b)."""
    return tuple(getattr(engine, "side_options", DEFAULT_SIDE_OPTIONS))


def scenario_option(engine: Any) -> str:
    """The CLI flag (without ``--``) naming the scenario (default ``scenario``)."""
    return str(getattr(engine, "scenario_option", DEFAULT_SCENARIO_OPTION))


def outcome_names(engine: Any) -> tuple[str, str, str]:
    """Names of the winner codes 0, 1, 2 (default draw, A wins, B wins)."""
    return tuple(getattr(engine, "outcome_names", DEFAULT_OUTCOME_NAMES))


def is_symmetric(engine: Any) -> bool:
    """Whether a side's file may play either side (mirror matches); default True."""
    return bool(getattr(engine, "symmetric", True))


def fixed_edge_options(engine: Any) -> dict[str, Any]:
    """The options that keep each side on its own edge in every match (default none)."""
    return dict(getattr(engine, "fixed_edge_options", {}))


def side_policies(engine: Any, side: int) -> tuple[str, ...]:
    """The policies side ``side`` (0 A, 1 B) may use (default: all of ``engine.policies``)."""
    per_side = getattr(engine, "side_policies", None)
    return tuple(per_side[side]) if per_side is not None else tuple(engine.policies)


def sample_sides(engine: Any) -> tuple[Path, Path]:
    """The bundled sample files of side A and side B: the engine's ``sample_sides()``,
    else the first two files of ``configs/<system>/lists``."""
    own = getattr(engine, "sample_sides", None)
    if callable(own):
        a, b = own()
        return Path(a), Path(b)
    from analyzer import paths

    lists = sorted(paths.system_config(engine.system, "lists").glob("*.yaml"))
    return lists[0], lists[1]


def record_width(engine: MatchEngine) -> int:
    """Columns of one match record of ``engine``."""
    return N_STANDARD + len(engine.record_extras)


def unit_width(engine: MatchEngine) -> int:
    """Columns of one unit record of ``engine``."""
    return N_UNIT_STANDARD + len(engine.unit_extras)


def check_engine(engine: MatchEngine) -> None:
    """Static checks every engine passes (the conformance tests call it)."""
    assert isinstance(engine, MatchEngine), f"{engine!r} does not implement MatchEngine"
    assert engine.policies[0] == "random" and engine.default_policy in engine.policies
    assert {"rules", "alternate"} <= set(engine.first_modes)
    assert "first" in engine.option_kinds
    assert set(engine.option_help) == set(engine.option_kinds)
    assert engine.end_reasons and engine.match_block >= 1
    assert len(side_names(engine)) == 2 and len(set(side_options(engine))) == 2
    assert len(outcome_names(engine)) == 3
    for side in (0, 1):
        own = side_policies(engine, side)
        assert own and set(own) <= set(engine.policies) and own[0] == "random"
    assert all(path.is_file() for path in sample_sides(engine))
