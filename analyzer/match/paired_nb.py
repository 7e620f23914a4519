"""Paired comparison of rollout values (shared by the engines' stronger policies).

A lookahead policy plays each candidate move out over the same random streams (common
random numbers), so the gain of candidate ``j`` over the greedy choice (row 0) is best
judged from the per-rollout differences: their mean and its standard error.  Each engine
keeps its own acceptance rule (a margin in standard errors, a minimum gain) on top.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, _nrt=False)
def paired_gain_se(vals, j, nr):  # pragma: no cover - numba
    """Mean and standard error of ``vals[j, r] - vals[0, r]`` over rollouts ``r < nr``
    (two-pass; the standard error is 0 for a single rollout)."""
    mean = 0.0
    for r in range(nr):
        mean += vals[j, r] - vals[0, r]
    mean /= nr
    var = 0.0
    for r in range(nr):
        d = vals[j, r] - vals[0, r] - mean
        var += d * d
    se = np.sqrt(var / (nr - 1) / nr) if nr > 1 else 0.0
    return mean, se
