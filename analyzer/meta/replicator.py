"""Replicator dynamics of a field of lists: what the field becomes if players copy winners.

Discrete-time replicator (Taylor & Jonker 1978; Weibull, "Evolutionary Game Theory"
ch. 3): each list's share grows in proportion to its expected score against the
current field, ``x_i' = x_i (S x)_i / (x' S x)``, starting from the uniform field.
Scores are positive (0..1), so shares stay a distribution; lists that score below the
field's average shrink.
"""

from __future__ import annotations

import numpy as np


def replicator(score: np.ndarray, steps: int = 200, start: np.ndarray | None = None) -> np.ndarray:
    """Field shares after 0..``steps`` generations: an array of shape (steps + 1, k)."""
    s = np.asarray(score, dtype=float).copy()
    np.fill_diagonal(s, 0.5)
    k = s.shape[0]
    x = np.full(k, 1.0 / k) if start is None else np.asarray(start, dtype=float)
    path = np.empty((steps + 1, k))
    path[0] = x
    for t in range(1, steps + 1):
        fitness = s @ x
        x = x * fitness / float(x @ fitness)
        path[t] = x
    return path
