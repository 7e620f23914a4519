"""Sweep files (``configs/experiments/*.yaml``): load, validate, expand into cells.

A sweep file names a system, its unit cards, a metric and a grid of
variations; every combination of one value per axis is a *cell*.  Example::

    name: agent-cost
    system: heroscape
    units: configs/heroscape/units.yaml      # default: the bundled cards
    metric:
      kind: value                            # duel | value | matches
      unit: Agent SI-4X
      field: [Cainak, Private Eye, Scarlett, Bok-Bur-Na]
    grid:
      points:  {kind: stat, unit: Agent SI-4X, field: points, values: [20, 25, 30], step: nerf}
      defense: {kind: stat, unit: Agent SI-4X, field: defense, values: [4, 5, 6], step: buff}
    trials: 16384          # per task and cell, rounded up to whole blocks (at least 2)
    block_size: 2048
    seed: 2026
    precision: {ci_half_width: 0.02, max_trials: 262144}   # optional (--until-ci)

Axis kinds (``kind``):

* ``stat``: ``unit``, ``field`` (any card field, dotted for nested ones:
  ``weapons.0.power`` or ``weapons.Pistol.power``), ``values``; ``mode: add``
  makes the values shifts of the card's own value.  Points are ``field: points``.
* ``ability``: ``unit``, ``ability`` (a name), ``values`` (default ``[false,
  true]``); optional ``field`` (the list holding abilities) and ``item`` (the
  other keys of the entry when switched on).
* ``unit``: ``role`` (e.g. ``a``/``b`` of a duel, ``unit`` of value), ``values``: unit names.
* ``list``: ``role`` (``field`` of value, ``a``/``b`` of matches), ``values``: army list files.
* ``policy``: ``role``, ``values``: AI policy names (matches only).
* ``option``: ``option``, ``values``: a duel option (``start``, ``distance``,
  ``first``, ``max_rounds``) or one of the system's duel rule options (the
  ``--opt`` of ``analyzer duel``, e.g. Rapture's ``reaction``: the duel's
  policy), or an option of the match engine.

Trials (``trials``, ``--trials``) run in whole blocks of ``block_size``, at
least two blocks per task and cell (the SEs and the paired differences are
computed between blocks): 8,192 trials with ``block_size: 8192`` run 16,384,
and a note says so.  ``precision.max_trials`` (``--max-trials``) is a hard cap
on the trials per task and cell (rounded down to whole blocks), with or without
a precision target; a cap below two blocks is an error.

Metric sections: ``duel`` (``a``, ``b``, ``options``, ``rules``), ``value``
(``unit``, ``field`` names or ``field_list`` army list, default every other
unit; ``options``, ``rules``), ``matches`` (``a``, ``b`` army list files,
``policies: {a: ..., b: ...}``, ``options``); see
:mod:`analyzer.experiments.metrics`.  ``trials`` are per task (one duel
pairing, one match-up) and cell; ``exact: false`` skips the exact values.

``step: buff`` (or ``nerf``) on a stat or ability axis says each step along
``values`` is a pure buff (nerf) of ``unit``: the monotonicity check flags any
step after which that unit did worse beyond noise.  ``baseline`` picks the cell
that paired differences are measured against (default: the first value of
every axis).

Every problem is reported as ``path:line: field: message`` (all at once).
Relative paths are looked up from the current folder, then the sweep file's
folder, then the project root (where the bundled ``configs/`` live).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from analyzer import paths
from analyzer.config.loader import Problems, load_model
from analyzer.config.models import StrictModel
from analyzer.errors import AnalyzerError, InputError, unknown_name
from analyzer.experiments import variations as var
from analyzer.experiments.metrics import METRICS, CellPlan, CellState, Metric, SweepContext
from analyzer.experiments.tasks import digest
from analyzer.games import SYSTEMS, system_module
from analyzer.provenance import data_hash

AxisKind = Literal["stat", "ability", "unit", "list", "policy", "option"]
#: Table columns an axis may not be called.
RESERVED = frozenset(
    {
        "sweep",
        "system",
        "metric",
        "cell",
        "quantity",
        "n",
        "blocks",
        "trials",
        "estimate",
        "se",
        "ci_low",
        "ci_high",
        "exact",
        "seed",
        "target_met",
        "cell_hash",
        "rules_hash",
        "spec_hash",
        "block_size",
    }
)
#: Most cells of a grid (each runs its own duels or matches; a bigger grid is a typo).
MAX_CELLS = 10_000
#: Most trials per task and cell (``trials``, ``precision.max_trials``, ``--trials``):
#: the same bound as every other count option (``analyzer.cli.MAX_COUNT``).
MAX_TRIALS = 100_000_000
#: Smallest ``ci_half_width`` / ``--until-ci``: narrower needs more than MAX_TRIALS anyway.
MIN_CI_HALF_WIDTH = 1e-6
#: Fewest blocks per cell: the paired-difference SE needs several blocks.
MIN_BLOCKS = 2
#: Default cap of ``--until-ci``: this many times the cell's initial trials.
DEFAULT_CAP_FACTOR = 64


class AxisSpec(StrictModel):
    """One axis of the grid (see the module docstring for the keys of each kind)."""

    kind: AxisKind
    values: list[Any] | None = Field(default=None, min_length=1)
    unit: str | None = None
    field: str | None = None
    ability: str | None = None
    item: dict[str, Any] | None = None
    role: str | None = None
    option: str | None = None
    mode: Literal["set", "add"] = "set"
    step: Literal["buff", "nerf"] | None = None


class PrecisionSpec(StrictModel):
    """Adaptive trials: add blocks until the 95% CI half-width is at most ``ci_half_width``."""

    ci_half_width: float = Field(ge=MIN_CI_HALF_WIDTH, allow_inf_nan=False)
    max_trials: int | None = Field(default=None, ge=1, le=MAX_TRIALS)


class ChartsSpec(StrictModel):
    """Which axes the charts use (default: the first two axes of the grid)."""

    heatmap: list[str] | None = Field(default=None, min_length=2, max_length=2)
    line: str | None = None
    hue: str | None = None
    quantity: str | None = None


class SweepFile(StrictModel):
    """A ``configs/experiments/*.yaml`` file."""

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    description: str | None = None
    system: str
    units: str | None = None
    metric: dict[str, Any]
    grid: dict[str, AxisSpec] = Field(default_factory=dict)
    baseline: dict[str, Any] = Field(default_factory=dict)
    trials: int = Field(
        default=16384, ge=1, le=MAX_TRIALS, description="trials per task and cell (minimum)"
    )
    block_size: int = Field(default=2048, ge=2, le=1 << 22)
    seed: int = Field(default=2026, ge=0, le=2**63 - 1)
    precision: PrecisionSpec | None = None
    exact: bool = Field(default=True, description="add exact values where the system has them")
    alpha: float = Field(default=0.05, gt=0, lt=1, description="monotonicity check level")
    charts: ChartsSpec = Field(default_factory=ChartsSpec)


@dataclass
class Axis:
    """A validated axis: the values as applied and as shown in the table."""

    name: str
    spec: AxisSpec
    values: list[Any]
    labels: list[Any]


@dataclass
class Cell:
    """One combination of axis values and how to measure it."""

    index: int
    params: dict[str, Any]
    plan: CellPlan
    key: str = ""


@dataclass
class SweepPlan:
    """A loaded sweep: everything needed to run it and to name its blocks."""

    path: Path
    spec: SweepFile
    metric: Metric
    axes: list[Axis]
    cells: list[Cell]
    baseline: int
    inputs: list[Path]
    rules_hash: str
    code_hash: str
    spec_hash: str
    seed: int
    block_size: int
    initial_blocks: int
    until_ci: float | None = None
    cap_blocks: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def system(self) -> str:
        return self.spec.system

    def set_run_options(
        self,
        trials: int | None = None,
        seed: int | None = None,
        until_ci: float | None = None,
        max_trials: int | None = None,
    ) -> None:
        """Command-line overrides of the file's trials, seed and precision target.

        Trials are per task and cell and run in whole blocks of ``block_size``, at least
        :data:`MIN_BLOCKS` (the SEs and paired differences are computed between blocks):
        the asked number is rounded up, and a note says so.  ``max_trials``
        (``--max-trials``, else the file's ``precision.max_trials``) is a hard cap on the
        trials per task and cell, with or without ``--until-ci``; below the smallest run
        (``MIN_BLOCKS`` blocks) it is an error.  Without it, ``--until-ci`` stops at
        :data:`DEFAULT_CAP_FACTOR` times the initial trials.
        """
        if trials is not None and trials < 1:
            raise AnalyzerError(f"--trials must be >= 1 (got {trials})")
        if max_trials is not None and max_trials < 1:
            raise AnalyzerError(f"--max-trials must be >= 1 (got {max_trials})")
        if seed is not None:
            if not 0 <= seed <= 2**63 - 1:
                raise AnalyzerError(f"--seed must be between 0 and 2**63 - 1 (got {seed})")
            self.seed = seed
        precision = self.spec.precision
        if until_ci is not None:
            if not MIN_CI_HALF_WIDTH <= until_ci < math.inf:  # also rejects nan
                raise InputError(
                    f"--until-ci must be a number >= {MIN_CI_HALF_WIDTH:g} (got {until_ci})"
                )
            self.until_ci = until_ci
        elif precision is not None:
            self.until_ci = precision.ci_half_width
        asked, source = (trials, "--trials") if trials is not None else (self.spec.trials, "trials")
        self.initial_blocks = blocks_for(asked, self.block_size)
        self.notes = []
        size = self.block_size
        cap, cap_source = max_trials, "--max-trials"
        if cap is None and precision is not None and precision.max_trials is not None:
            cap, cap_source = precision.max_trials, "precision.max_trials"
        if cap is not None:
            cap_blocks = cap // size
            if cap_blocks < MIN_BLOCKS:
                raise AnalyzerError(
                    f"{cap_source} {cap:,} is below the smallest run: {MIN_BLOCKS} blocks of "
                    f"{size:,} = {MIN_BLOCKS * size:,} trials per task and cell (the SE needs "
                    f"{MIN_BLOCKS} blocks); raise it or lower block_size in the sweep file"
                )
            if cap_blocks < self.initial_blocks:
                self.notes.append(
                    f"trials per task and cell capped at {cap_blocks * size:,} by {cap_source} "
                    f"{cap:,} ({source} asked {asked:,})"
                )
                self.initial_blocks = cap_blocks
            elif cap_blocks * size != cap and self.until_ci is not None:
                self.notes.append(
                    f"{cap_source} {cap:,} rounded down to whole blocks: at most "
                    f"{cap_blocks * size:,} trials per task and cell"
                )
            self.cap_blocks = cap_blocks
        else:
            self.cap_blocks = self.initial_blocks * DEFAULT_CAP_FACTOR
        if not self.notes and self.initial_blocks * size != asked:
            self.notes.append(rounding_note(asked, source, self.initial_blocks, size))

    @property
    def initial_trials(self) -> int:
        """Trials per task and cell of the first pass (whole blocks)."""
        return self.initial_blocks * self.block_size


def rounding_note(asked: int, source: str, blocks: int, block_size: int) -> str:
    """Why the trials run differ from the trials asked (whole blocks, at least two)."""
    why = (
        f"at least {MIN_BLOCKS} blocks: the SE is computed between blocks"
        if blocks == MIN_BLOCKS and asked <= (MIN_BLOCKS - 1) * block_size
        else "whole blocks"
    )
    return (
        f"{source} {asked:,} rounded up to {blocks * block_size:,} per task "
        f"({blocks} blocks of {block_size:,}; {why})"
    )


def blocks_for(trials: int, block_size: int) -> int:
    return max(MIN_BLOCKS, math.ceil(trials / block_size))


def find_file(text: str, spec_dir: Path) -> Path:
    """A relative path from the current folder, the sweep file's folder or the project root."""
    path = Path(text).expanduser()
    candidates = (
        [path] if path.is_absolute() else [path, spec_dir / path, paths.PROJECT_ROOT / path]
    )
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise ValueError(f"file not found: {text}")


CORE_CODE = ("rng.py", "dice/random_nb.py", "dice/simulate.py", "duels.py", "experiments/tasks.py")


def code_hash(system: str) -> str:
    """Hash of the code that produces block counts: the system package and the core kernels."""
    import numba

    root = Path(__file__).resolve().parent.parent
    files = [root / f for f in CORE_CODE]
    files += sorted((root / "match").glob("*.py"))  # the shared match framework
    files += sorted((root / "games" / system).rglob("*.py"))
    parts = [numba.__version__]
    for f in files:
        parts.append(f"{f.relative_to(root)}:{digest(f.read_bytes().decode('utf-8', 'replace'))}")
    return digest(parts)


def load_sweep(path: str | Path) -> SweepPlan:
    """Load and validate a sweep file and expand its grid; ConfigError lists every problem."""
    path = Path(path)
    spec, doc = load_model(path, SweepFile)
    problems = Problems(path, doc)
    plan = _build(path, spec, doc, problems)
    problems.raise_if_any()
    assert plan is not None
    return plan


def _build(path: Path, spec: SweepFile, doc: Any, problems: Problems) -> SweepPlan | None:
    if spec.system not in SYSTEMS:
        problems.add(["system"], f"unknown system {spec.system!r} (one of {', '.join(SYSTEMS)})")
        return None
    spec_dir = path.resolve().parent
    try:
        units_path = (
            find_file(spec.units, spec_dir)
            if spec.units
            else paths.system_config(spec.system, "units.yaml")
        )
    except ValueError as err:
        problems.add(["units"], str(err))
        return None
    cards = dict(system_module(spec.system, "units").load_units(units_path))
    if spec.block_size % 2:
        problems.add(["block_size"], "must be even (duels alternate who acts first)")

    def lookup(text: str) -> Path:
        return find_file(text, spec_dir)

    ctx = SweepContext(spec.system, cards, spec.block_size, lookup, [units_path])
    metric = _metric(spec, ctx, problems)
    if metric is None:
        return None
    try:
        base = metric.base_state()
    except (ValueError, AnalyzerError) as err:
        problems.add(["metric"], str(err))
        return None
    axes = [_axis(name, axis, metric, base, problems) for name, axis in spec.grid.items()]
    if problems.lines:
        return None
    valid = [a for a in axes if a is not None]
    baseline = _baseline(spec, valid, problems)
    n_cells = math.prod(len(a.values) for a in valid)
    if n_cells > MAX_CELLS:
        problems.add(["grid"], f"{n_cells:,} cells; a grid may have at most {MAX_CELLS:,}")
        return None
    cells = _cells(metric, base, valid, problems)
    if problems.lines or baseline is None:
        return None
    code = code_hash(spec.system)
    for cell in cells:
        cell.key = digest([t.identity() for t in cell.plan.tasks])
    inputs = list(dict.fromkeys(ctx.inputs))
    rules = data_hash(*inputs, system=spec.system)
    spec_hash = digest(spec.model_dump(mode="json"))
    plan = SweepPlan(
        path=path,
        spec=spec,
        metric=metric,
        axes=valid,
        cells=cells,
        baseline=baseline,
        inputs=inputs,
        rules_hash=rules,
        code_hash=code,
        spec_hash=spec_hash,
        seed=spec.seed,
        block_size=spec.block_size,
        initial_blocks=blocks_for(spec.trials, spec.block_size),
    )
    _check_charts(spec, valid, metric, problems)
    try:
        plan.set_run_options()
    except AnalyzerError as err:
        problems.add(["precision", "max_trials"], str(err).removeprefix("precision.max_trials "))
    return plan


def _metric(spec: SweepFile, ctx: SweepContext, problems: Problems) -> Metric | None:
    kind = spec.metric.get("kind")
    if kind not in METRICS:
        problems.add(["metric", "kind"], f"must be one of {', '.join(METRICS)} (got {kind!r})")
        return None
    cls = METRICS[kind]
    try:
        section = cls.section.model_validate(spec.metric)
    except ValidationError as err:
        for item in err.errors(include_url=False):
            msg = "unknown key" if item["type"] == "extra_forbidden" else item["msg"]
            problems.add(["metric", *item["loc"]], msg)
        return None
    try:
        return cls(ctx, section)
    except (ValueError, AnalyzerError) as err:
        problems.add(["metric"], str(err))
        return None


def _need(axis: AxisSpec, keys: Sequence[str], loc: list[Any], problems: Problems) -> bool:
    ok = True
    for key in keys:
        if getattr(axis, key) is None:
            problems.add(loc, f"a {axis.kind} axis needs '{key}'")
            ok = False
    allowed = {"kind", "values", "step", *keys}
    allowed |= {"stat": {"mode"}, "ability": {"field", "item"}}.get(axis.kind, set())
    for key in ("unit", "field", "ability", "item", "role", "option", "step"):
        if key not in allowed and getattr(axis, key) is not None:
            problems.add([*loc, key], f"not used by a {axis.kind} axis")
            ok = False
    if axis.mode != "set" and axis.kind != "stat":
        problems.add([*loc, "mode"], f"not used by a {axis.kind} axis")
    if axis.step is not None and axis.kind not in ("stat", "ability"):
        problems.add([*loc, "step"], "only stat and ability axes can be buffs")
        ok = False
    return ok


def _axis(
    name: str, axis: AxisSpec, metric: Metric, base: CellState, problems: Problems
) -> Axis | None:
    loc: list[Any] = ["grid", name]
    if name in RESERVED or not name.isidentifier():
        problems.add(loc, "axis names must be identifiers other than the table's own columns")
        return None
    keys = {
        "stat": ("unit", "field"),
        "ability": ("unit", "ability"),
        "unit": ("role",),
        "list": ("role",),
        "policy": ("role",),
        "option": ("option",),
    }[axis.kind]
    if not _need(axis, keys, loc, problems):
        return None
    values = axis.values
    if values is None:
        if axis.kind != "ability":
            problems.add(loc, f"a {axis.kind} axis needs 'values'")
            return None
        values = [False, True]
    if axis.unit is not None and axis.unit not in base.cards:
        problems.add([*loc, "unit"], unknown_name("unit", axis.unit, base.cards))
        return None
    roles = {
        "unit": metric.unit_roles,
        "list": metric.list_roles,
        "policy": metric.policy_roles,
    }.get(axis.kind)
    if roles is not None and axis.role not in roles:
        have = ", ".join(roles) if roles else "none"
        problems.add(
            [*loc, "role"],
            f"metric {metric.kind!r} has no {axis.kind} role {axis.role!r} (roles: {have})",
        )
        return None
    if axis.kind == "option" and not metric.open_options and axis.option not in metric.option_names:
        have = ", ".join(metric.option_names) or "none"
        problems.add(
            [*loc, "option"],
            f"metric {metric.kind!r} has no option {axis.option!r} (options: {have})",
        )
        return None
    if axis.kind == "stat":
        try:
            var.get_field(base.cards[str(axis.unit)], str(axis.field))
        except (ValueError, IndexError) as err:
            problems.add([*loc, "field"], str(err))
            return None
    applied: list[Any] = []
    labels: list[Any] = []
    for i, value in enumerate(values):
        try:
            if axis.kind == "ability":
                value = var.as_switch(value)
            state = base.copy()
            applied_value = apply(axis, value, metric, state)
            if axis.kind == "option":
                metric.check_options(state.options)
        except (ValueError, AnalyzerError) as err:
            problems.add([*loc, "values", i], str(err))
            continue
        applied.append(applied_value)
        labels.append(value)
    if len(applied) != len(values):
        return None
    if len({repr(v) for v in labels}) != len(labels):
        problems.add([*loc, "values"], "values must be distinct")
        return None
    if len({type(v) for v in labels}) > 1:
        labels = [str(v) for v in labels]
    return Axis(name, axis, applied, labels)


def apply(axis: AxisSpec, value: Any, metric: Metric, state: CellState) -> Any:
    """Apply one axis value to ``state`` in place; return the value as applied."""
    if axis.kind == "stat":
        unit = str(axis.unit)
        state.cards[unit] = var.set_stat(state.cards[unit], str(axis.field), value, axis.mode)
        return value
    if axis.kind == "ability":
        unit = str(axis.unit)
        on = var.as_switch(value)
        state.cards[unit] = var.set_ability(
            state.cards[unit], str(axis.ability), on, axis.field, axis.item
        )
        return on
    if axis.kind in ("unit", "list"):
        role_value = metric.role_value(axis.kind, str(axis.role), value)
        state.roles[str(axis.role)] = role_value
        return role_value
    if axis.kind == "policy":
        state.policies[str(axis.role)] = metric.role_value("policy", str(axis.role), value)
        return value
    state.options[str(axis.option)] = value
    return value


def _apply_applied(axis: Axis, index: int, metric: Metric, state: CellState) -> None:
    """Apply the ``index``-th value of a validated axis (lists are not reloaded)."""
    spec, value = axis.spec, axis.values[index]
    if spec.kind in ("unit", "list"):
        state.roles[str(spec.role)] = value
    elif spec.kind == "policy":
        state.policies[str(spec.role)] = value
    else:
        apply(spec, value, metric, state)


def _baseline(spec: SweepFile, axes: list[Axis], problems: Problems) -> int | None:
    names = [a.name for a in axes]
    index = 0
    ok = True
    for key in spec.baseline:
        if key not in names:
            problems.add(["baseline", key], f"not an axis of the grid ({', '.join(names)})")
            ok = False
    for axis in axes:
        position = 0
        if axis.name in spec.baseline:
            want = spec.baseline[axis.name]
            matches = [i for i, v in enumerate(axis.labels) if v == want or str(v) == str(want)]
            if not matches:
                problems.add(["baseline", axis.name], f"{want!r} is not one of the axis values")
                ok = False
                continue
            position = matches[0]
        index = index * len(axis.values) + position
    return index if ok else None


def _cells(metric: Metric, base: CellState, axes: list[Axis], problems: Problems) -> list[Cell]:
    cells: list[Cell] = []
    shape = [range(len(a.values)) for a in axes]
    for index, combo in enumerate(itertools.product(*shape)):
        state = base.copy()
        params = {a.name: a.labels[i] for a, i in zip(axes, combo)}
        try:
            for axis, i in zip(axes, combo):
                _apply_applied(axis, i, metric, state)
            plan = metric.plan(state)
        except (ValueError, AnalyzerError) as err:
            where = ", ".join(f"{k}={v}" for k, v in params.items()) or "the base cell"
            problems.add(["grid"] if axes else ["metric"], f"cell {where}: {err}")
            continue
        cells.append(Cell(index, params, plan))
    return cells


def _check_charts(spec: SweepFile, axes: list[Axis], metric: Metric, problems: Problems) -> None:
    names = {a.name for a in axes}
    chosen = [*(spec.charts.heatmap or []), spec.charts.line, spec.charts.hue]
    for key in chosen:
        if key is not None and key not in names:
            problems.add(["charts"], f"{key!r} is not an axis of the grid")
    if spec.charts.quantity is not None and spec.charts.quantity not in metric.quantities:
        problems.add(
            ["charts", "quantity"],
            f"metric {metric.kind!r} measures {', '.join(metric.quantities)}",
        )
