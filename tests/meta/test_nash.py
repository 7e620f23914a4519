"""Nash equilibria of score matrices: exact known equilibria, max-entropy, properties."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.meta.nash import nash_lp, nash_max_entropy, payoffs_against, support

RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])


def test_rock_paper_scissors_is_uniform():
    for solve in (lambda s: nash_lp(s)[0], nash_max_entropy):
        np.testing.assert_allclose(solve(RPS), [1 / 3] * 3, atol=1e-7)
    assert nash_lp(RPS)[1] == pytest.approx(0.0, abs=1e-9)


def test_a_dominated_list_gets_no_weight():
    """RPS plus a fourth list that scores 0.4 against each of them."""
    s = np.full((4, 4), 0.5)
    s[:3, :3] = RPS
    s[3, :3], s[:3, 3] = 0.4, 0.6
    for x in (nash_lp(s)[0], nash_max_entropy(s)):
        np.testing.assert_allclose(x, [1 / 3, 1 / 3, 1 / 3, 0.0], atol=1e-7)
    assert payoffs_against(s, nash_max_entropy(s))[3] == pytest.approx(0.4)


def test_a_three_by_three_with_a_known_mixed_solution():
    """Payoff A = [[0, 1, -2], [-1, 0, 3], [2, -3, 0]] / 8: A' x = 0 at x = (3, 2, 1) / 6."""
    a = np.array([[0, 1, -2], [-1, 0, 3], [2, -3, 0]]) / 8
    x, value = nash_lp(0.5 + a)
    np.testing.assert_allclose(x, [1 / 2, 1 / 3, 1 / 6], atol=1e-7)
    np.testing.assert_allclose(nash_max_entropy(0.5 + a), [1 / 2, 1 / 3, 1 / 6], atol=1e-6)
    assert value == pytest.approx(0.0, abs=1e-9)


def test_a_dominant_list_is_a_pure_equilibrium():
    s = np.array([[0.5, 0.7, 0.9], [0.3, 0.5, 0.6], [0.1, 0.4, 0.5]])
    np.testing.assert_allclose(nash_lp(s)[0], [1, 0, 0], atol=1e-9)
    assert support(nash_max_entropy(s)).tolist() == [True, False, False]


def test_max_entropy_splits_a_duplicated_list():
    """Rock twice: the LP may put all of rock's 1/3 on one copy; Nash averaging splits it."""
    s = np.full((4, 4), 0.5)
    idx = [0, 0, 1, 2]
    for i in range(4):
        for j in range(4):
            s[i, j] = RPS[idx[i], idx[j]]
    np.testing.assert_allclose(nash_max_entropy(s), [1 / 6, 1 / 6, 1 / 3, 1 / 3], atol=1e-6)


@pytest.mark.parametrize("seed", range(20))
def test_no_pure_list_beats_the_equilibrium(seed):
    """Random score matrices: the equilibrium scores 1/2 against itself and at least 1/2
    against every pure list (each list scores <= 1/2 against it)."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 9))
    s = np.full((k, k), 0.5)
    iu = np.triu_indices(k, 1)
    s[iu] = rng.uniform(0.05, 0.95, size=len(iu[0]))
    s.T[iu] = 1 - s[iu]
    for x in (nash_lp(s)[0], nash_max_entropy(s)):
        assert x.min() >= 0 and x.sum() == pytest.approx(1.0)
        assert x @ s @ x == pytest.approx(0.5, abs=1e-9)
        assert payoffs_against(s, x).max() <= 0.5 + 1e-6
        # the lists in the support score exactly 1/2 against it
        np.testing.assert_allclose(payoffs_against(s, x)[x > 1e-4], 0.5, atol=1e-5)


def test_a_non_square_matrix_is_refused():
    with pytest.raises(ValueError, match="square"):
        nash_lp(np.zeros((2, 3)))
