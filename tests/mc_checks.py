"""Shared assertions: Monte Carlo against exact, brute-force enumeration of faces."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from analyzer.dice.mechanic import RollResult
from analyzer.stats import chi_square_pvalue

#: Tolerance in standard errors for each MC probability vs its exact value.
SE_TOLERANCE = 5.0
#: Chi-square p-value below which the MC histogram is rejected.
CHI2_THRESHOLD = 1e-4


def assert_mc_matches_exact(result: RollResult) -> None:
    """Every outcome's MC frequency agrees with its exact probability; the mean too.

    Outcomes with enough expected variance (n p (1-p) >= 25) must lie within 5 SE
    (SE from the exact p); rarer outcomes use the exact two-sided binomial tail
    at the same 5-sigma level (p-value > 5.7e-7).  Plus a chi-square test.
    """
    assert result.counts is not None and result.trials > 0
    n = result.trials
    p_exact = result.exact
    counts = result.counts
    assert np.all(counts[p_exact == 0] == 0), "MC produced an impossible outcome"
    for outcome, k, p in zip(result.outcomes, counts, p_exact):
        assert binomial_agrees(int(k), n, float(p)), f"outcome {outcome}: {k} of {n} vs exact p={p}"
    assert result.mean.mc is not None and result.mean.se is not None
    assert result.mean.exact is not None
    assert abs(result.mean.mc - result.mean.exact) <= SE_TOLERANCE * max(result.mean.se, 1e-12)
    assert chi_square_pvalue(counts, p_exact) > CHI2_THRESHOLD


FIVE_SIGMA_TWO_SIDED = 5.7e-7


def binomial_agrees(k: int, n: int, p: float) -> bool:
    """Is ``k`` successes in ``n`` trials consistent with probability ``p`` (5-sigma level)?"""
    if n * p * (1 - p) >= 25:
        return abs(k / n - p) <= SE_TOLERANCE * np.sqrt(p * (1 - p) / n) + 1e-12
    from scipy import stats

    tail = min(stats.binom.cdf(k, n, p), stats.binom.sf(k - 1, n, p))
    return bool(2 * tail > FIVE_SIGMA_TWO_SIDED)


def enumerate_outcomes(
    dice: Sequence[Sequence[Any]], outcome: Callable[[tuple[Any, ...]], int]
) -> dict[int, Fraction]:
    """Exact distribution by brute force over every combination of equally likely faces.

    ``dice`` lists each die's faces; ``outcome`` maps one combination to an outcome.
    """
    total = 1
    for faces in dice:
        total *= len(faces)
    dist: dict[int, Fraction] = {}
    for combo in itertools.product(*dice):
        key = int(outcome(combo))
        dist[key] = dist.get(key, Fraction(0)) + Fraction(1, total)
    return dist


def assert_matches_enumeration(
    result_outcomes: np.ndarray, probs: np.ndarray, brute: dict[int, Fraction]
) -> None:
    """Exact engine equals a brute-force enumeration to 1e-12, outcome by outcome."""
    listed = {int(o): float(p) for o, p in zip(result_outcomes, probs)}
    for outcome, p in brute.items():
        assert outcome in listed, f"outcome {outcome} missing from the exact distribution"
        assert abs(listed[outcome] - float(p)) < 1e-12, (outcome, listed[outcome], float(p))
    for outcome, q in listed.items():
        if outcome not in brute:
            assert q < 1e-15, f"outcome {outcome} has probability {q} but is impossible"
