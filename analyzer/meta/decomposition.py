"""Transitive and cyclic parts of a meta: the Hodge / Helmholtz decomposition.

The log-odds matrix ``L[i, j] = logit(score[i, j])`` is antisymmetric: a flow on the
complete graph of lists.  Its gradient part ``r_i - r_j`` is the best least-squares
rating fit (a Bradley-Terry-like rating; on a complete graph ``r_i`` is the row mean
of ``L``); the remainder ``C = L - (r_i - r_j)`` is divergence-free (every row sums to
0: rock-paper-scissors cycles).  The two parts are orthogonal, so their squared norms
add up to that of ``L`` and give the transitive and cyclic shares.  On a complete graph
the harmonic part is zero (Jiang, Lim, Yao & Ye 2011, "Statistical ranking and
combinatorial Hodge theory").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Scores are clipped to [CLIP, 1 - CLIP] before the logit (a 100% pair is finite).
CLIP = 1e-3


@dataclass(frozen=True)
class Decomposition:
    """``log_odds = ratings[:, None] - ratings[None, :] + cyclic``."""

    log_odds: np.ndarray
    ratings: np.ndarray
    cyclic: np.ndarray

    @property
    def transitive(self) -> np.ndarray:
        return self.ratings[:, None] - self.ratings[None, :]

    @property
    def cyclic_share(self) -> float:
        """``|C|^2 / |L|^2`` (0: a pure ranking; 1: pure rock-paper-scissors)."""
        total = float((self.log_odds**2).sum())
        return float((self.cyclic**2).sum()) / total if total > 0 else 0.0

    @property
    def transitive_share(self) -> float:
        total = float((self.log_odds**2).sum())
        return float((self.transitive**2).sum()) / total if total > 0 else 0.0


def log_odds(score: np.ndarray) -> np.ndarray:
    """Antisymmetric log-odds of a score matrix (diagonal 0)."""
    s = np.clip(np.asarray(score, dtype=float), CLIP, 1 - CLIP)
    logit = np.log(s / (1 - s))
    out = (logit - logit.T) / 2
    np.fill_diagonal(out, 0.0)
    return out


def decompose(score: np.ndarray) -> Decomposition:
    """Split ``logit(score)`` into least-squares ratings (mean 0) and the cyclic rest."""
    lo = log_odds(score)
    ratings = lo.mean(axis=1)
    cyclic = lo - (ratings[:, None] - ratings[None, :])
    return Decomposition(lo, ratings, cyclic)
