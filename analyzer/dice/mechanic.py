"""The contract of a roll mechanic and the function that analyses one.

Every game system lists its mechanics as :class:`Mechanic` objects in
``analyzer/games/<system>/rolls.py``.  A mechanic declares its options (which
become ``analyzer roll SYSTEM MECHANIC`` flags), validates them, computes the
exact distribution, encodes its parameters for the numba trial kernel, and
may name events (e.g. ``p_success``) whose probability is reported too.
:func:`analyze` runs both engines side by side and returns a :class:`RollResult`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.dice.exact import Distribution
from analyzer.dice.simulate import simulate_counts
from analyzer.errors import InputError
from analyzer.stats import mean_and_se, proportion_se

Params = dict[str, Any]


@dataclass(frozen=True)
class Option:
    """One parameter of a mechanic (a CLI flag ``--name``).

    ``kind`` is ``int``, ``bool`` (an on/off flag) or a tuple of allowed strings.
    ``default=None`` with ``required=True`` means the user must give it.
    """

    name: str
    kind: type | tuple[str, ...]
    help: str
    default: Any = None
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None

    @property
    def key(self) -> str:
        """The Python/JSON name of the parameter (dashes become underscores)."""
        return self.name.replace("-", "_")


@dataclass(frozen=True)
class Mechanic:
    """A dice mechanic: exact distribution plus Monte Carlo trial kernel."""

    system: str
    name: str
    summary: str
    rules: str
    options: tuple[Option, ...]
    exact: Callable[[Params], Distribution]
    encode: Callable[[Params], np.ndarray]
    trial: Any
    check: Callable[[Params], Params] | None = None
    events: Mapping[str, Callable[[Params, np.ndarray], np.ndarray]] = field(default_factory=dict)
    extra_params: Callable[[Params], Params] | None = None
    #: A typical parameter set (CLI docs, smoke tests, thread-independence tests).
    example: Mapping[str, Any] = field(default_factory=dict)

    def prepare(self, raw: Mapping[str, Any]) -> Params:
        """Fill defaults, check bounds and rule combinations; return every parameter used."""
        params: Params = {}
        for opt in self.options:
            value = raw.get(opt.key, opt.default)
            if opt.kind is bool and value is None:
                value = False
            if value is None:
                if opt.required:
                    raise InputError(f"{self.system} {self.name}: --{opt.name} is required")
            elif isinstance(opt.kind, tuple):
                if value not in opt.kind:
                    allowed = ", ".join(opt.kind)
                    raise InputError(f"--{opt.name} must be one of {allowed} (got {value!r})")
            elif opt.kind is bool:
                if not isinstance(value, bool):
                    raise InputError(f"--{opt.name} is an on/off flag (got {value!r})")
            elif isinstance(value, bool) or not isinstance(value, int):
                raise InputError(f"--{opt.name} must be an integer (got {value!r})")
            elif opt.minimum is not None and value < opt.minimum:
                raise InputError(f"--{opt.name} must be >= {opt.minimum} (got {value})")
            elif opt.maximum is not None and value > opt.maximum:
                raise InputError(f"--{opt.name} must be <= {opt.maximum} (got {value})")
            params[opt.key] = value
        unknown = set(raw) - set(params)
        if unknown:
            raise InputError(f"{self.system} {self.name}: unknown parameter(s) {sorted(unknown)}")
        if self.check is not None:
            params = self.check(params)
        if self.extra_params is not None:
            params = {**params, **self.extra_params(params)}
        return params


@dataclass(frozen=True)
class Estimate:
    """An exact value (None where no closed form exists) next to its MC estimate and SE."""

    exact: float | None
    mc: float | None
    se: float | None

    def as_dict(self) -> dict[str, float | None]:
        return {"exact": self.exact, "mc": self.mc, "se": self.se}

    @property
    def z(self) -> float | None:
        """How many SEs the MC estimate lies from the exact value (None if either is missing)."""
        return mc_z(self.exact, self.mc, self.se)


def mc_z(exact: float | None, mc: float | None, se: float | None) -> float | None:
    """``(mc - exact) / se``: how far Monte Carlo lies from the exact value, in SEs.

    None without both values, or when the sample has no spread (SE 0) and the two still
    differ: an event too rare to have been seen (exact 2e-10, MC 0) has no usable SE.
    """
    if exact is None or mc is None or se is None:
        return None
    if se == 0:
        return 0.0 if abs(mc - exact) <= 1e-9 * max(1.0, abs(exact)) else None
    return (mc - exact) / se


@dataclass(frozen=True)
class RollResult:
    """Everything ``analyzer roll`` reports for one mechanic and parameter set."""

    system: str
    mechanic: str
    params: Params
    trials: int
    seed: int
    outcomes: np.ndarray
    exact: np.ndarray
    counts: np.ndarray | None
    mean: Estimate
    events: dict[str, Estimate]

    def distribution(self) -> list[dict[str, Any]]:
        """One row per possible outcome: exact probability, MC estimate and its SE."""
        rows = []
        for i, outcome in enumerate(self.outcomes):
            row: dict[str, Any] = {"outcome": int(outcome), "exact": float(self.exact[i])}
            row.update(self._estimate(self.counts[i] if self.counts is not None else None))
            tail = self.counts[i:].sum() if self.counts is not None else None
            at_least = self._estimate(tail)
            row["at_least_exact"] = float(self.exact[i:].sum())
            row.update({f"at_least_{key}": value for key, value in at_least.items()})
            rows.append(row)
        return rows

    def _estimate(self, count: Any) -> dict[str, float | None]:
        """MC share and SE of ``count`` hits (None, None without a Monte Carlo run)."""
        if count is None:
            return {"mc": None, "se": None}
        return {
            "mc": float(count) / self.trials,
            "se": float(proportion_se(int(count), self.trials)),
        }

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``analyzer roll --format json``."""
        doc: dict[str, Any] = {
            "system": self.system,
            "mechanic": self.mechanic,
            "params": self.params,
            "trials": self.trials,
            "seed": self.seed,
            "distribution": self.distribution(),
            "mean": self.mean.as_dict(),
        }
        for name, est in self.events.items():
            doc[name] = est.as_dict()
        return doc


def analyze(mechanic: Mechanic, raw: Mapping[str, Any], trials: int, seed: int) -> RollResult:
    """Exact distribution and (if ``trials > 0``) Monte Carlo estimate of one mechanic."""
    if trials < 0:
        raise InputError(f"--trials must be >= 0 (got {trials})")
    if not 0 <= seed <= 2**63 - 1:
        raise InputError(f"--seed must be between 0 and 2**63 - 1 (got {seed})")
    params = mechanic.prepare(raw)
    dist = mechanic.exact(params)
    outcomes = dist.outcomes
    counts = None
    mean = Estimate(dist.mean(), None, None)
    if trials > 0:
        counts = simulate_counts(
            mechanic.trial, mechanic.encode(params), dist.lowest, dist.highest, trials, seed
        )
        mc_mean, mc_se = mean_and_se(outcomes, counts)
        mean = Estimate(dist.mean(), mc_mean, mc_se)
    events = {}
    for name, select in mechanic.events.items():
        mask = np.asarray(select(params, outcomes), dtype=bool)
        if counts is None:
            events[name] = Estimate(dist.prob(mask), None, None)
        else:
            hits = int(counts[mask].sum())
            events[name] = Estimate(
                dist.prob(mask), hits / trials, float(proportion_se(hits, trials))
            )
    return RollResult(
        system=mechanic.system,
        mechanic=mechanic.name,
        params=params,
        trials=trials,
        seed=seed,
        outcomes=outcomes,
        exact=dist.probs,
        counts=counts,
        mean=mean,
        events=events,
    )
