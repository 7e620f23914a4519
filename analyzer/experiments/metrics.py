"""Sweep metrics: what one cell of a sweep measures, as tasks plus an estimator.

A metric turns the state of a cell (the varied cards, the units or lists in
each role, the policies and options) into a :class:`CellPlan`: the tasks to
simulate (see :mod:`analyzer.experiments.tasks`) and how to turn their pooled
block counts into estimates with standard errors.  The executor only sees
tasks and counts, so a new metric plugs in without touching it:
:func:`register_metric` adds one under a name usable as ``metric.kind``.

Metrics here:

* ``duel``: two named units of any system; win rate of A (also B's win rate,
  draws, score = win + draw/2 and the first-activation edge).
* ``value``: one unit against a field; value per point = expected opponent
  points removed in a one-on-one duel per own point (as ``analyzer value``).
* ``matches``: army list A against list B with the system's match engine (any engine
  of the registry, :func:`analyzer.games.match_engine`, through
  :func:`analyzer.match.sweep.match_model`).

Common random numbers: the task at position ``j`` of a cell (the duel of
the A/B pair, the duel against the ``j``-th opponent) gets stream ``(j,)`` in
every cell, so every cell reuses the same per-block seeds.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field

from analyzer.analysis.duel import check_rule_options, rule_option_kinds
from analyzer.config.models import StrictModel
from analyzer.duels import FIRST, STARTS, DuelOptions, DuelSpace
from analyzer.errors import AnalyzerError, InputError
from analyzer.experiments.tasks import KernelTask, canonical_json, function_name
from analyzer.games import system_module


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate and its standard error."""

    estimate: float
    se: float


@dataclass
class CellState:
    """A cell before it is measured: the cards after variations, roles, policies, options."""

    cards: dict[str, Any]
    roles: dict[str, Any]
    policies: dict[str, str]
    options: dict[str, Any]

    def copy(self) -> CellState:
        return CellState(
            dict(self.cards), dict(self.roles), dict(self.policies), dict(self.options)
        )


class CellPlan(ABC):
    """The tasks of one cell and how their pooled counts become estimates."""

    #: Names of the estimated quantities; the first is the headline (charts, checks).
    quantities: ClassVar[tuple[str, ...]]

    @property
    @abstractmethod
    def tasks(self) -> tuple[Any, ...]:
        """The tasks whose blocks this cell needs (every task gets the same blocks)."""

    @abstractmethod
    def estimate(self, sums: Sequence[np.ndarray]) -> dict[str, Estimate]:
        """Every quantity from the counts of each task summed over the cell's blocks."""

    def exact(self) -> dict[str, float] | None:
        """Exact values where the system has them (None otherwise)."""
        return None

    @abstractmethod
    def direction(self, unit: str) -> int:
        """+1 if a pure buff of ``unit`` should raise the headline, -1 lower it, 0 unknown."""


# ---------------------------------------------------------------------------- duels


def _rates(s: np.ndarray) -> tuple[int, int, int]:
    """(trials, wins of A, wins of B) from a kernel task's record."""
    return int(s[0] + s[3]), int(s[1] + s[4]), int(s[2] + s[5])


def _proportion(k: int, n: int) -> Estimate:
    if n == 0:
        return Estimate(math.nan, math.nan)
    p = k / n
    return Estimate(p, math.sqrt(p * (1 - p) / n))


def _score(n: int, wa: int, wb: int) -> Estimate:
    """Win + draw/2 = (1 + P(A) - P(B)) / 2 with its multinomial standard error."""
    if n == 0:
        return Estimate(math.nan, math.nan)
    pa, pb = wa / n, wb / n
    var = (pa + pb - (pa - pb) ** 2) / (4 * n)
    return Estimate(0.5 * (1 + pa - pb), math.sqrt(max(var, 0.0)))


@dataclass
class DuelPairing:
    """One duel model shipped as a task, with its exact answer computed on demand."""

    task: KernelTask
    exact_fn: Callable[[bool], np.ndarray | None]
    space: DuelSpace
    _exact: tuple[float, float] | None = field(default=None, init=False)
    _done: bool = field(default=False, init=False)

    def exact(self) -> tuple[float, float] | None:
        """Exact (P(A wins), P(B wins)), averaged over the first-activation orders."""
        if not self._done:
            self._done = True
            winner = self.space.decode()[0]
            pa = pb = 0.0
            for a_first in self.task.firsts:
                probs = self.exact_fn(a_first)
                if probs is None:
                    return None
                pa += float(probs[winner == 1].sum()) / len(self.task.firsts)
                pb += float(probs[winner == 2].sum()) / len(self.task.firsts)
            self._exact = (pa, pb)
        return self._exact


def rule_option_names(system: str) -> tuple[str, ...]:
    """The system's duel rule options (as ``analyzer duel --opt KEY=VALUE``, e.g. Rapture's
    ``reaction``): the keys of :data:`analyzer.analysis.duel.DUEL_RULE_OPTIONS`."""
    return tuple(rule_option_kinds(system))


class DuelModels:
    """Builds (and memoises) duel models of a system into kernel tasks."""

    def __init__(self, system: str, block_size: int) -> None:
        try:
            system_module(system, "duel")
        except ImportError:
            raise AnalyzerError(f"the {system} duel engine is not available yet") from None
        self.system = system
        self.block_size = block_size
        self.rule_names = rule_option_names(system)
        self._cache: dict[str, DuelPairing] = {}

    def pairing(
        self,
        a: Any,
        b: Any,
        options: DuelOptions,
        stream: tuple[int, ...],
        rules: dict[str, Any] | None = None,
    ) -> DuelPairing:
        rules = dict(rules or {})
        key = canonical_json(
            [a.model_dump(mode="json"), b.model_dump(mode="json"), options.__dict__, stream, rules]
        )
        if key not in self._cache:
            checked = check_rule_options(self.system, rules)
            model = system_module(self.system, "duel").duel_model(a, b, options, **checked)
            firsts = {"a": (True,), "b": (False,)}.get(options.first, (True, False))
            task = KernelTask(
                system=self.system,
                trial=function_name(model.trial),
                firsts=firsts,
                params=tuple(tuple(int(x) for x in model.params(f)) for f in firsts),
                n_outcomes=model.space.size,
                winner_stride=model.space.strides()[0],
                stream=stream,
                block_size=self.block_size,
                label=f"{a.name} vs {b.name}",
            )
            self._cache[key] = DuelPairing(task, model.exact, model.space)
        return self._cache[key]


class DuelOptionsSection(StrictModel):
    """How duels start (see ``analyzer duel``)."""

    start: Literal["melee", "range"] = "melee"
    distance: float = Field(default=0.0, ge=0)
    first: Literal["a", "b", "alternate"] = "alternate"
    max_rounds: int = Field(default=12, ge=1, le=100)


DUEL_OPTION_NAMES = ("start", "distance", "first", "max_rounds")
assert set(DUEL_OPTION_NAMES) == set(DuelOptionsSection.model_fields)
assert set(STARTS) == {"melee", "range"} and set(FIRST) == {"a", "b", "alternate"}


def duel_options(options: dict[str, Any]) -> DuelOptions:
    """Validated :class:`DuelOptions` from a cell's option values (rule options left out)."""
    try:
        section = DuelOptionsSection.model_validate(
            {k: v for k, v in options.items() if k in DUEL_OPTION_NAMES}
        )
    except Exception as err:  # pydantic ValidationError: keep the first message
        errors = getattr(err, "errors", None)
        message = errors(include_url=False)[0]["msg"] if errors else str(err)
        raise InputError(message) from None
    data = section.model_dump()
    if data["start"] == "range" and data["distance"] == 0:
        data["distance"] = 12.0
    return DuelOptions(**data)


class DuelCell(CellPlan):
    quantities = ("win_rate", "loss_rate", "draw_rate", "score", "first_edge")

    def __init__(self, pairing: DuelPairing, a: str, b: str) -> None:
        self.pairing = pairing
        self.a, self.b = a, b

    @property
    def tasks(self) -> tuple[Any, ...]:
        return (self.pairing.task,)

    def estimate(self, sums: Sequence[np.ndarray]) -> dict[str, Estimate]:
        s = sums[0]
        n, wa, wb = _rates(s)
        out = {
            "win_rate": _proportion(wa, n),
            "loss_rate": _proportion(wb, n),
            "draw_rate": _proportion(n - wa - wb, n),
            "score": _score(n, wa, wb),
        }
        if s[0] and s[3]:
            first, second = _proportion(int(s[1]), int(s[0])), _proportion(int(s[4]), int(s[3]))
            out["first_edge"] = Estimate(
                first.estimate - second.estimate, math.hypot(first.se, second.se)
            )
        else:
            out["first_edge"] = Estimate(math.nan, math.nan)
        return out

    def exact(self) -> dict[str, float] | None:
        ex = self.pairing.exact()
        if ex is None:
            return None
        pa, pb = ex
        return {
            "win_rate": pa,
            "loss_rate": pb,
            "draw_rate": 1 - pa - pb,
            "score": 0.5 * (1 + pa - pb),
        }

    def direction(self, unit: str) -> int:
        if self.a == self.b:
            return 0
        return 1 if unit == self.a else -1 if unit == self.b else 0


class ValueCell(CellPlan):
    quantities = ("value_per_point", "value_index", "score", "win_rate")

    def __init__(
        self,
        unit: str,
        points: float,
        opponents: list[tuple[str, float, float]],
        pairings: list[DuelPairing],
    ) -> None:
        self.unit = unit
        self.points = points
        self.names = [o[0] for o in opponents]
        total = sum(o[1] for o in opponents)
        self.weights = np.array([o[1] / total for o in opponents])
        self.opp_points = np.array([o[2] for o in opponents], dtype=float)
        self.pairings = pairings

    @property
    def tasks(self) -> tuple[Any, ...]:
        return tuple(p.task for p in self.pairings)

    def _combine(self, scores: Sequence[Estimate], wins: Sequence[Estimate]) -> dict[str, Estimate]:
        sc = np.array([s.estimate for s in scores])
        sc_se = np.array([s.se for s in scores])
        w, pts = self.weights, self.opp_points
        index = float(np.sum(w * pts * sc))
        index_se = float(np.sqrt(np.sum((w * pts * sc_se) ** 2)))
        return {
            "value_per_point": Estimate(index / self.points, index_se / self.points),
            "value_index": Estimate(index, index_se),
            "score": Estimate(float(np.sum(w * sc)), float(np.sqrt(np.sum((w * sc_se) ** 2)))),
            "win_rate": Estimate(
                float(np.sum(w * [x.estimate for x in wins])),
                float(np.sqrt(np.sum((w * [x.se for x in wins]) ** 2))),
            ),
        }

    def estimate(self, sums: Sequence[np.ndarray]) -> dict[str, Estimate]:
        rates = [_rates(s) for s in sums]
        return self._combine([_score(*r) for r in rates], [_proportion(r[1], r[0]) for r in rates])

    def exact(self) -> dict[str, float] | None:
        exacts = [p.exact() for p in self.pairings]
        if any(e is None for e in exacts):
            return None
        scores = [Estimate(0.5 * (1 + e[0] - e[1]), 0.0) for e in exacts if e is not None]
        wins = [Estimate(e[0], 0.0) for e in exacts if e is not None]
        return {k: v.estimate for k, v in self._combine(scores, wins).items()}

    def direction(self, unit: str) -> int:
        if unit == self.unit:
            return 1
        return -1 if unit in self.names else 0


# ---------------------------------------------------------------------------- metrics


@dataclass
class SweepContext:
    """What metrics need from the sweep: system, base cards, file lookup, block size."""

    system: str
    cards: dict[str, Any]
    block_size: int
    find_file: Callable[[str], Path]
    inputs: list[Path] = field(default_factory=list)

    def load_list(self, text: str) -> Any:
        """A validated army list of the system (its path is recorded as an input)."""
        path = self.find_file(text)
        self.inputs.append(path)
        return system_module(self.system, "units").load_list(path, self.cards)


class Metric(ABC):
    """A kind of measurement; ``section`` validates the spec's ``metric:`` mapping.

    Roles are the named slots the grid can vary: ``unit_roles`` take a unit
    name (``kind: unit`` axes), ``list_roles`` an army list file (``kind:
    list``), ``policy_roles`` an AI policy (``kind: policy``); ``option_names``
    the options a ``kind: option`` axis may set.
    """

    kind: ClassVar[str]
    section: ClassVar[type[StrictModel]]
    unit_roles: ClassVar[tuple[str, ...]] = ()
    list_roles: ClassVar[tuple[str, ...]] = ()
    policy_roles: ClassVar[tuple[str, ...]] = ()
    option_names: tuple[str, ...] = ()
    #: True: any option name is passed on (the engine checks its own options).
    open_options: ClassVar[bool] = False
    cell_type: ClassVar[type[CellPlan]]

    def __init__(self, ctx: SweepContext, section: Any) -> None:
        self.ctx = ctx
        self.spec = section

    @property
    def quantities(self) -> tuple[str, ...]:
        return self.cell_type.quantities

    @abstractmethod
    def base_state(self) -> CellState:
        """The state of the unvaried sweep (raises ValueError/AnalyzerError on bad names)."""

    def role_value(self, kind: str, role: str, value: Any) -> Any:
        """What an axis of ``kind`` puts in ``role`` (a unit name, a loaded list...)."""
        if kind == "unit":
            if value not in self.ctx.cards:
                raise ValueError(f"unknown unit {value!r}")
            return value
        if kind == "list":
            return self.ctx.load_list(str(value))
        return value

    def check_options(self, options: dict[str, Any]) -> None:  # noqa: B027 - optional hook
        """Raise ValueError / InputError if the options are invalid (default: any accepted)."""

    @abstractmethod
    def plan(self, state: CellState) -> CellPlan:
        """The tasks and estimator of a cell."""


class DuelSection(StrictModel):
    kind: Literal["duel"]
    a: str = Field(min_length=1, description="unit A (the win rate is A's)")
    b: str = Field(min_length=1)
    options: DuelOptionsSection = Field(default_factory=DuelOptionsSection)
    rules: dict[str, Any] = Field(
        default_factory=dict, description="the system's duel rule options (as duel --opt)"
    )


class DuelBasedMetric(Metric):
    """Metrics made of duels: options are the duel's and the system's rule options."""

    def __init__(self, ctx: SweepContext, section: Any) -> None:
        super().__init__(ctx, section)
        self.models = DuelModels(ctx.system, ctx.block_size)
        self.option_names = DUEL_OPTION_NAMES + self.models.rule_names
        check_rule_options(ctx.system, section.rules)  # InputError on a bad name or value

    def base_options(self) -> dict[str, Any]:
        return {**self.spec.options.model_dump(), **self.spec.rules}

    def check_options(self, options: dict[str, Any]) -> None:
        duel_options(options)
        check_rule_options(self.ctx.system, self.rules(options))

    def rules(self, options: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in options.items() if k in self.models.rule_names}


class DuelMetric(DuelBasedMetric):
    kind = "duel"
    section = DuelSection
    unit_roles = ("a", "b")
    cell_type = DuelCell

    def base_state(self) -> CellState:
        roles = {r: self.role_value("unit", r, getattr(self.spec, r)) for r in self.unit_roles}
        return CellState(dict(self.ctx.cards), roles, {}, self.base_options())

    def plan(self, state: CellState) -> CellPlan:
        a, b = state.roles["a"], state.roles["b"]
        options = duel_options(state.options)
        rules = self.rules(state.options)
        pairing = self.models.pairing(state.cards[a], state.cards[b], options, (0,), rules)
        return DuelCell(pairing, a, b)


class ValueSection(StrictModel):
    kind: Literal["value"]
    unit: str = Field(min_length=1, description="the unit whose value per point is measured")
    field: list[str] | None = Field(default=None, description="opponents (default: all others)")
    field_list: str | None = Field(default=None, description="army list file giving the field")
    options: DuelOptionsSection = Field(default_factory=DuelOptionsSection)
    rules: dict[str, Any] = Field(
        default_factory=dict, description="the system's duel rule options (as duel --opt)"
    )


class ValueMetric(DuelBasedMetric):
    kind = "value"
    section = ValueSection
    unit_roles = ("unit",)
    list_roles = ("field",)
    cell_type = ValueCell

    def role_value(self, kind: str, role: str, value: Any) -> Any:
        if kind == "list":
            army = self.ctx.load_list(str(value))
            return [(e.unit, float(e.count)) for e in army.units]
        return super().role_value(kind, role, value)

    def base_state(self) -> CellState:
        unit = self.role_value("unit", "unit", self.spec.unit)
        if self.spec.field is not None and self.spec.field_list is not None:
            raise ValueError("give either 'field' or 'field_list'")
        if self.spec.field_list is not None:
            opponents = self.role_value("list", "field", self.spec.field_list)
        elif self.spec.field is not None:
            opponents = [(self.role_value("unit", "field", v), 1.0) for v in self.spec.field]
        else:
            opponents = [(v, 1.0) for v in self.ctx.cards if v != unit]
        roles = {"unit": unit, "field": opponents}
        return CellState(dict(self.ctx.cards), roles, {}, self.base_options())

    def plan(self, state: CellState) -> CellPlan:
        unit = state.roles["unit"]
        weights: dict[str, float] = {}
        for name, weight in state.roles["field"]:
            if name != unit:
                weights[name] = weights.get(name, 0.0) + weight
        if not weights:
            raise ValueError(f"the field has no opponent other than {unit!r}")
        points = state.cards[unit].points
        if not points:
            raise ValueError(f"{unit!r} costs 0 points: value per point is undefined")
        options = duel_options(state.options)
        rules = self.rules(state.options)
        opponents = [(v, w, float(state.cards[v].points)) for v, w in weights.items()]
        pairings = [
            self.models.pairing(state.cards[unit], state.cards[v], options, (j,), rules)
            for j, (v, _, _) in enumerate(opponents)
        ]
        return ValueCell(unit, float(points), opponents, pairings)


# ---------------------------------------------------------------------------- matches


class MatchesSection(StrictModel):
    kind: Literal["matches"]
    a: str = Field(min_length=1, description="army list file of side A")
    b: str = Field(min_length=1, description="army list file of side B")
    policies: dict[Literal["a", "b"], str] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)


class MatchCell(DuelCell):
    """A match between two lists reports like a duel (win rate of list A)."""

    def __init__(self, task: KernelTask, units_a: set[str], units_b: set[str]) -> None:
        self.task = task
        self.units_a, self.units_b = units_a, units_b

    @property
    def tasks(self) -> tuple[Any, ...]:
        return (self.task,)

    def exact(self) -> dict[str, float] | None:
        return None

    def direction(self, unit: str) -> int:
        a, b = unit in self.units_a, unit in self.units_b
        return 0 if a == b else 1 if a else -1


class MatchesMetric(Metric):
    kind = "matches"
    section = MatchesSection
    list_roles = ("a", "b")
    policy_roles = ("a", "b")
    cell_type = MatchCell
    open_options = True

    def engine(self) -> Any:
        """The system's match engine (:class:`analyzer.match.contract.MatchEngine`)."""
        from analyzer.games import match_engine

        try:
            return match_engine(self.ctx.system)
        except InputError as err:
            raise AnalyzerError(f"metric 'matches': {err}") from None

    def base_state(self) -> CellState:
        self.engine()
        roles = {r: self.role_value("list", r, getattr(self.spec, r)) for r in self.list_roles}
        policies = {r: self.check_policy(p) for r, p in self.spec.policies.items()}
        return CellState(dict(self.ctx.cards), roles, policies, dict(self.spec.options))

    def role_value(self, kind: str, role: str, value: Any) -> Any:
        if kind == "policy":
            return self.check_policy(value)
        return super().role_value(kind, role, value)

    def check_policy(self, name: Any) -> str:
        known = self.engine().policies
        if name not in known:
            raise ValueError(f"unknown policy {name!r} (known: {', '.join(map(str, known))})")
        return str(name)

    def plan(self, state: CellState) -> CellPlan:
        list_a, list_b = state.roles["a"], state.roles["b"]
        from analyzer.match.sweep import match_model

        model = match_model(
            self.ctx.system, state.cards, list_a, list_b, dict(state.policies), dict(state.options)
        )
        firsts = model.firsts
        task = KernelTask(
            system=self.ctx.system,
            trial=model.trial,
            firsts=firsts,
            params=tuple(tuple(int(x) for x in model.params(f)) for f in firsts),
            n_outcomes=int(model.n_outcomes),
            winner_stride=int(model.winner_stride),
            stream=(0,),
            block_size=self.ctx.block_size,
            runner=model.runner,
            label=f"{list_a.name} vs {list_b.name}",
        )
        return MatchCell(task, {e.unit for e in list_a.units}, {e.unit for e in list_b.units})


METRICS: dict[str, type[Metric]] = {}


def register_metric(metric: type[Metric]) -> type[Metric]:
    """Make ``metric`` available as ``metric: {kind: <metric.kind>}`` (usable as a decorator)."""
    METRICS[metric.kind] = metric
    return metric


for _metric in (DuelMetric, ValueMetric, MatchesMetric):
    register_metric(_metric)
