"""Exact outcome distributions by enumeration and convolution.

A :class:`Distribution` is a probability vector over a contiguous range of
integer outcomes.  The helpers here build the distributions every dice
mechanic is made of (success counts, custom faces, keep-best, sums) and
combine them (conditioning, differences, clamps), all in float64 with
rounding error far below 1e-12 for the pool sizes a table sees (<= 40 dice).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import comb

import numpy as np

_MAX_DICE = 128
_BINOMIAL = np.array(
    [[float(comb(n, k)) for k in range(_MAX_DICE + 1)] for n in range(_MAX_DICE + 1)]
)
_K = np.arange(_MAX_DICE + 1, dtype=float)


@dataclass(frozen=True)
class Distribution:
    """Probabilities ``probs[i]`` of the outcomes ``lowest + i``."""

    lowest: int
    probs: np.ndarray

    @property
    def outcomes(self) -> np.ndarray:
        """The outcome values, ``lowest .. highest``."""
        return np.arange(self.lowest, self.lowest + self.probs.size, dtype=np.int64)

    @property
    def highest(self) -> int:
        return self.lowest + self.probs.size - 1

    def mean(self) -> float:
        return float(self.outcomes @ self.probs)

    def prob(self, mask: np.ndarray) -> float:
        """Probability of the outcomes selected by a boolean mask."""
        return float(self.probs[mask].sum())

    def map(self, func: Callable[[np.ndarray], np.ndarray]) -> Distribution:
        """Distribution of ``func(outcome)`` (``func`` is vectorised, integer-valued)."""
        return from_samples(np.asarray(func(self.outcomes), dtype=np.int64), self.probs)

    def widen(self, lowest: int, highest: int) -> Distribution:
        """Same distribution, listed over ``lowest..highest`` (zeros where impossible)."""
        if lowest > self.lowest or highest < self.highest:
            raise ValueError("widen() cannot drop possible outcomes")
        probs = np.zeros(highest - lowest + 1)
        start = self.lowest - lowest
        probs[start : start + self.probs.size] = self.probs
        return Distribution(lowest, probs)


def from_samples(values: np.ndarray, weights: np.ndarray) -> Distribution:
    """Distribution of integer ``values`` carrying probability ``weights``."""
    lowest = int(values.min())
    probs = np.bincount(values - lowest, weights=weights)
    return Distribution(lowest, probs)


def one_die(values: np.ndarray) -> Distribution:
    """Distribution of ``values[face - 1]`` for one fair die (counts divided once, no drift)."""
    counts = from_samples(np.asarray(values, dtype=np.int64), np.ones(len(values)))
    return Distribution(counts.lowest, counts.probs / len(values))


def point(value: int) -> Distribution:
    """A certain outcome."""
    return Distribution(value, np.ones(1))


def binomial(n: int, p: float) -> Distribution:
    """Number of successes among ``n`` independent trials of probability ``p``."""
    if not 0 <= n <= _MAX_DICE:
        raise ValueError(f"number of dice must be between 0 and {_MAX_DICE}")
    probs = _BINOMIAL[n, : n + 1] * np.power(p, _K[: n + 1]) * np.power(1.0 - p, _K[n::-1])
    return Distribution(0, probs)


def face_probability(sides: int, at_least: int) -> float:
    """Chance that one fair die with ``sides`` faces shows ``at_least`` or more."""
    return min(max(sides - at_least + 1, 0), sides) / sides


def successes(n_dice: int, sides: int, at_least: int) -> Distribution:
    """Number of dice showing ``at_least`` or more among ``n_dice`` fair dice."""
    return binomial(n_dice, face_probability(sides, at_least))


def add(a: Distribution, b: Distribution) -> Distribution:
    """Distribution of the sum of two independent outcomes."""
    return Distribution(a.lowest + b.lowest, np.convolve(a.probs, b.probs))


def subtract(a: Distribution, b: Distribution) -> Distribution:
    """Distribution of ``a - b`` for independent outcomes."""
    return add(a, Distribution(-b.highest, b.probs[::-1].copy()))


def pool(face_counts: np.ndarray, n_dice: int) -> Distribution:
    """Sum of ``n_dice`` dice whose face values are listed (with repeats) in ``face_counts``.

    ``face_counts`` is the list of the die's face values, e.g. ``[0, 0, 1, 1, 1, 2]``.
    """
    faces = np.asarray(face_counts, dtype=np.int64)
    one = from_samples(faces, np.full(faces.size, 1.0 / faces.size))
    total = point(0)
    for _ in range(n_dice):
        total = add(total, one)
    return total


def mixture(weights: Distribution, conditional: Callable[[int], Distribution]) -> Distribution:
    """Law of total probability: ``sum_k P(K = k) * conditional(k)``."""
    first = weights.lowest
    parts = [(w, conditional(first + i)) for i, w in enumerate(weights.probs.tolist()) if w > 0]
    lowest = min(d.lowest for _, d in parts)
    highest = max(d.highest for _, d in parts)
    probs = np.zeros(highest - lowest + 1)
    for w, d in parts:
        probs[d.lowest - lowest : d.highest - lowest + 1] += w * d.probs
    return Distribution(lowest, probs)


def geometric_rounds(success_by_round: list[float], first_round: int) -> Distribution:
    """Round of the first success; round ``first_round + i`` succeeds w.p. ``success_by_round[i]``.

    The outcome ``first_round + len(success_by_round)`` means "never".
    """
    probs = np.zeros(len(success_by_round) + 1)
    still_failing = 1.0
    for i, p in enumerate(success_by_round):
        probs[i] = still_failing * p
        still_failing *= 1.0 - p
    probs[-1] = still_failing
    return Distribution(first_round, probs)
