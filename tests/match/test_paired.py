"""The shared paired-gain statistic of the stronger policies (analyzer/match/paired_nb.py)."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.match.paired_nb import paired_gain_se


def test_paired_gain_matches_numpy() -> None:
    rng = np.random.default_rng(7)
    vals = rng.normal(size=(4, 9))
    for j in range(4):
        d = vals[j] - vals[0]
        mean, se = paired_gain_se(vals, j, 9)
        assert mean == pytest.approx(d.mean(), abs=1e-12)
        assert se == pytest.approx(d.std(ddof=1) / np.sqrt(9), abs=1e-12)


def test_paired_gain_uses_only_the_first_rollouts() -> None:
    vals = np.array([[0.0, 0.0, 100.0], [1.0, 3.0, -50.0]])
    mean, se = paired_gain_se(vals, 1, 2)
    assert mean == pytest.approx(2.0)
    assert se == pytest.approx(1.0)


def test_one_rollout_has_no_standard_error() -> None:
    vals = np.array([[1.0], [4.0]])
    assert paired_gain_se(vals, 1, 1) == (3.0, 0.0)
