"""Hodge decomposition (planted transitive + cyclic parts) and replicator dynamics."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.meta.decomposition import decompose
from analyzer.meta.replicator import replicator


def planted(ratings: np.ndarray, cycle: float) -> np.ndarray:
    """The score matrix whose log-odds are ``r_i - r_j`` plus ``cycle`` times a
    rock-paper-scissors flow on lists 0, 1, 2 (divergence-free)."""
    k = len(ratings)
    lo = ratings[:, None] - ratings[None, :]
    c = np.zeros((k, k))
    for i, j in ((0, 1), (1, 2), (2, 0)):
        c[i, j], c[j, i] = cycle, -cycle
    return 1 / (1 + np.exp(-(lo + c))), c


def test_recovers_a_planted_transitive_and_cyclic_matrix():
    r = np.array([0.8, -0.2, 0.3, -0.9, 0.0])
    score, c = planted(r, 0.6)
    d = decompose(score)
    np.testing.assert_allclose(d.ratings, r - r.mean(), atol=1e-9)
    np.testing.assert_allclose(d.cyclic, c, atol=1e-9)
    share = (c**2).sum() / ((r[:, None] - r[None, :] + c) ** 2).sum()
    assert d.cyclic_share == pytest.approx(share)
    assert d.cyclic_share + d.transitive_share == pytest.approx(1.0)


def test_pure_ranking_and_pure_cycle():
    score, _ = planted(np.array([1.0, 0.0, -1.0]), 0.0)
    assert decompose(score).cyclic_share == pytest.approx(0.0, abs=1e-12)
    score, _ = planted(np.zeros(3), 1.0)
    assert decompose(score).cyclic_share == pytest.approx(1.0)


def test_replicator_dynamics():
    dominant = np.array([[0.5, 0.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.4, 0.5]])
    path = replicator(dominant, 300)
    assert path.shape == (301, 3)
    np.testing.assert_allclose(path.sum(axis=1), 1.0)
    assert path[-1, 0] > 0.99 and np.all(np.diff(path[:, 0]) > -1e-12)
    rps = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
    np.testing.assert_allclose(replicator(rps, 50)[-1], [1 / 3] * 3)  # the uniform is a rest point
