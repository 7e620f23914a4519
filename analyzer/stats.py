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


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
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


def bradley_terry(
    wins: np.ndarray, draws: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Bradley-Terry strengths and their standard errors from a win matrix.

    ``wins[i, j]`` counts games ``i`` won against ``j``; ``draws[i, j]`` (symmetric)
    counts draws, scored as half a win for each side.  Strengths are log-odds,
    centred to mean 0 (``P(i beats j) = 1 / (1 + exp(s_j - s_i))``); the SEs come
    from the inverse observed Fisher information, transformed to the centred scale.
    """
    from scipy.optimize import minimize

    score = np.asarray(wins, dtype=float).copy()
    if draws is not None:
        score += 0.5 * np.asarray(draws, dtype=float)
    n = score.shape[0]
    games = score + score.T

    def negative_log_likelihood(free: np.ndarray) -> tuple[float, np.ndarray]:
        s = np.concatenate([[0.0], free])
        diff = s[:, None] - s[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        value = -float((score * np.log(np.clip(p, 1e-300, None))).sum())
        grad = -(score - games * p).sum(axis=1)
        return value, grad[1:]

    fit = minimize(negative_log_likelihood, np.zeros(n - 1), jac=True, method="BFGS")
    s = np.concatenate([[0.0], fit.x])
    p = 1.0 / (1.0 + np.exp(-(s[:, None] - s[None, :])))
    info = games * p * (1 - p)  # Fisher information of the log-odds strengths
    fisher = np.diag(info.sum(axis=1)) - info
    cov = np.zeros((n, n))
    cov[1:, 1:] = np.linalg.pinv(fisher[1:, 1:])
    centre = np.eye(n) - 1.0 / n
    cov = centre @ cov @ centre.T
    return s - s.mean(), np.sqrt(np.clip(np.diag(cov), 0, None))
