"""Standard errors and confidence intervals for Monte Carlo estimates."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def proportion_se(successes: np.ndarray | int, n: int) -> np.ndarray:
    """Standard error of the sample proportion ``successes / n``."""
    p = np.asarray(successes, dtype=float) / n
    return np.sqrt(p * (1.0 - p) / n)


def mean_and_se(values: np.ndarray, counts: np.ndarray) -> tuple[float, float]:
    """Sample mean and its standard error from a table of value counts."""
    n = int(counts.sum())
    mean = float(values @ counts) / n
    if n < 2:
        return mean, float("nan")
    var = float(((values - mean) ** 2) @ counts) / (n - 1)
    return mean, math.sqrt(var / n)


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def chi_square_pvalue(counts: np.ndarray, probs: np.ndarray, min_expected: float = 5.0) -> float:
    """Goodness-of-fit p-value of observed ``counts`` against exact ``probs``.

    Outcomes with expected count below ``min_expected`` are pooled into one cell;
    an observation in a cell of probability zero gives p = 0.
    """
    counts = np.asarray(counts, dtype=float)
    n = counts.sum()
    expected = n * np.asarray(probs, dtype=float)
    if np.any(counts[expected == 0] > 0):
        return 0.0
    small = expected < min_expected
    obs = list(counts[~small])
    exp = list(expected[~small])
    if small.any() and expected[small].sum() > 0:
        obs.append(counts[small].sum())
        exp.append(expected[small].sum())
    if len(obs) < 2:
        return 1.0
    from scipy import stats  # imported here: scipy.stats costs ~0.5 s at start-up

    return float(stats.chisquare(obs, exp).pvalue)
