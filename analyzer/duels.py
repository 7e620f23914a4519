"""Unit-vs-unit duels: a joint outcome space shared by the exact and Monte Carlo engines.

A duel ends with a *winner* (0 draw / round cap, 1 side A, 2 side B) after some
number of *rounds* (1..max_rounds) with both sides' *remaining health*.  Each
system's duel kernel returns one integer, the index of that joint outcome in a
:class:`DuelSpace`; its exact engine (a finite Markov chain over health states)
returns the probability of every index.  The generic block runner then gives
integer counts over the same space, so every reported figure (win/draw rates,
expected rounds, expected remaining health) is computed the same way from
exact probabilities and from Monte Carlo counts, each with its standard error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.dice.mechanic import Estimate
from analyzer.dice.simulate import simulate_counts
from analyzer.errors import InputError
from analyzer.stats import mean_and_se, proportion_se

DRAW, WIN_A, WIN_B = 0, 1, 2
STARTS = ("melee", "range")
FIRST = ("a", "b", "alternate")
#: Largest starting distance of a duel in any system (cm, TILES, squares or Heroscape
#: spaces); a system may allow less (Heroscape: ``heroscape.duel.MAX_START_SPACES``).
MAX_DISTANCE = 10_000.0


@dataclass(frozen=True)
class DuelOptions:
    """How a duel starts: in base contact or at a distance, and who acts first.

    ``first`` names the side that takes the first activation of every round
    where the system lets a side choose; ``"alternate"`` plays half of the
    duels with A first and half with B first (the exact answer is the
    average of both), which removes first-mover bias from mirror duels.
    """

    start: str = "melee"
    distance: float = 0.0
    first: str = "alternate"
    max_rounds: int = 12

    def __post_init__(self) -> None:
        if self.start not in STARTS:
            raise InputError(f"--start must be one of {', '.join(STARTS)}")
        if self.first not in FIRST:
            raise InputError(f"--first must be one of {', '.join(FIRST)}")
        if not 0 <= self.distance <= MAX_DISTANCE:  # also rejects nan
            raise InputError(
                f"the starting distance must be a number from 0 to {MAX_DISTANCE:,.0f} "
                f"(got {self.distance})"
            )
        if not 1 <= self.max_rounds <= 100:
            raise InputError("the round cap must be between 1 and 100")


@dataclass(frozen=True)
class DuelSpace:
    """Index <-> (winner, rounds, health_a, health_b); the kernels use :meth:`strides`."""

    max_rounds: int
    health_a: int
    health_b: int

    @property
    def size(self) -> int:
        return 3 * self.max_rounds * (self.health_a + 1) * (self.health_b + 1)

    def strides(self) -> tuple[int, int, int]:
        """Multipliers of (winner, rounds - 1, health_a); health_b has stride 1."""
        hb = self.health_b + 1
        ha = (self.health_a + 1) * hb
        return self.max_rounds * ha, ha, hb

    def index(self, winner: int, rounds: int, health_a: int, health_b: int) -> int:
        s_w, s_r, s_a = self.strides()
        return winner * s_w + (rounds - 1) * s_r + health_a * s_a + health_b

    def decode(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Arrays (winner, rounds, health_a, health_b) for every index."""
        idx = np.arange(self.size)
        s_w, s_r, s_a = self.strides()
        return idx // s_w, (idx % s_w) // s_r + 1, (idx % s_r) // s_a, idx % s_a


@dataclass(frozen=True)
class DuelResult:
    """What ``analyzer duel`` reports; ``exact`` fields are None without a Markov answer."""

    system: str
    a: str
    b: str
    options: DuelOptions
    trials: int
    seed: int
    win_a: Estimate
    win_b: Estimate
    draw: Estimate
    rounds: Estimate
    health_a: Estimate
    health_b: Estimate
    max_health: tuple[int, int]
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "a": self.a,
            "b": self.b,
            "options": self.options.__dict__,
            "trials": self.trials,
            "seed": self.seed,
            "win_a": self.win_a.as_dict(),
            "win_b": self.win_b.as_dict(),
            "draw": self.draw.as_dict(),
            "rounds": self.rounds.as_dict(),
            "health_a": self.health_a.as_dict(),
            "health_b": self.health_b.as_dict(),
            "max_health": list(self.max_health),
            "notes": self.notes,
        }


def summarize(
    system: str,
    a: str,
    b: str,
    options: DuelOptions,
    space: DuelSpace,
    exact: np.ndarray | None,
    counts: np.ndarray | None,
    trials: int,
    seed: int,
    notes: list[str] | None = None,
) -> DuelResult:
    """Win/draw probabilities, expected rounds and remaining health from the joint outcome."""
    winner, rounds, health_a, health_b = space.decode()

    def event(mask: np.ndarray) -> Estimate:
        ex = float(exact[mask].sum()) if exact is not None else None
        if counts is None:
            return Estimate(ex, None, None)
        hits = int(counts[mask].sum())
        return Estimate(ex, hits / trials, float(proportion_se(hits, trials)))

    def mean(values: np.ndarray) -> Estimate:
        ex = float(values @ exact) if exact is not None else None
        if counts is None:
            return Estimate(ex, None, None)
        m, se = mean_and_se(values.astype(float), counts)
        return Estimate(ex, m, se)

    return DuelResult(
        system=system,
        a=a,
        b=b,
        options=options,
        trials=trials,
        seed=seed,
        win_a=event(winner == WIN_A),
        win_b=event(winner == WIN_B),
        draw=event(winner == DRAW),
        rounds=mean(rounds),
        health_a=mean(health_a),
        health_b=mean(health_b),
        max_health=(space.health_a, space.health_b),
        notes=list(notes or []),
    )


@dataclass(frozen=True)
class ActivationSummary:
    """Exact effect of one activation of ``attacker`` on a fresh ``defender``."""

    expected_wounds: float
    kill_probability: float
    target_health: int


@dataclass
class DuelModel:
    """What a system supplies for one pairing: the space, the kernel and its exact engine.

    ``params(a_first)`` is the int64 vector of the duel trial kernel when side A
    (``a_first=True``) or side B takes the first activation; ``exact(a_first)``
    the probability of every index of ``space`` (None where there is no
    finite Markov chain).
    """

    space: DuelSpace
    trial: Any
    params: Callable[[bool], np.ndarray]
    exact: Callable[[bool], np.ndarray | None]
    notes: list[str] = field(default_factory=list)


def run_duel(
    system: str,
    a: str,
    b: str,
    options: DuelOptions,
    model: DuelModel,
    trials: int,
    seed: int,
    task: tuple[int, ...] = (),
) -> DuelResult:
    """Exact and Monte Carlo duel outcome; ``first="alternate"`` splits the trials evenly.

    ``task`` names this duel among others of the same seed (e.g. a value table's
    pairings): its blocks are seeded from ``(seed, *task, half, block)``.
    """
    if trials < 0:
        raise InputError(f"--trials must be >= 0 (got {trials})")
    firsts = {"a": [(True, trials)], "b": [(False, trials)]}.get(
        options.first, [(True, trials - trials // 2), (False, trials // 2)]
    )
    space = model.space
    counts = np.zeros(space.size, dtype=np.int64)
    exact: np.ndarray | None = np.zeros(space.size)
    for half, (a_first, n) in enumerate(firsts):
        if n:
            counts += simulate_counts(
                model.trial, model.params(a_first), 0, space.size - 1, n, seed, (*task, half)
            )
        part = model.exact(a_first)
        if part is None or exact is None:
            exact = None
        else:
            exact += part / len(firsts)
    return summarize(
        system, a, b, options, space, exact, counts if trials else None, trials, seed, model.notes
    )
