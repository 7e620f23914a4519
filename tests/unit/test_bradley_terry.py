"""Bradley-Terry ratings recover known strengths, with honest standard errors."""

from __future__ import annotations

import numpy as np

from analyzer.stats import bradley_terry


def simulate_round_robin(strengths, games, rng):
    n = len(strengths)
    wins = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            p = 1 / (1 + np.exp(strengths[j] - strengths[i]))
            w = rng.binomial(games, p)
            wins[i, j], wins[j, i] = w, games - w
    return wins


def test_recovers_known_strengths_within_standard_errors():
    truth = np.array([0.8, 0.2, -0.1, -0.9])
    wins = simulate_round_robin(truth, 4000, np.random.default_rng(3))
    s, se = bradley_terry(wins)
    assert abs(s.sum()) < 1e-9
    assert np.all(np.abs(s - (truth - truth.mean())) < 5 * se)
    assert np.all(se > 0) and np.all(se < 0.05)


def test_standard_errors_match_the_spread_over_replications():
    truth = np.array([0.5, 0.0, -0.5])
    rng = np.random.default_rng(11)
    fits = [bradley_terry(simulate_round_robin(truth, 500, rng)) for _ in range(200)]
    spread = np.std([f[0] for f in fits], axis=0)
    reported = np.mean([f[1] for f in fits], axis=0)
    assert np.all(np.abs(spread / reported - 1) < 0.25)


def test_draws_count_half_for_each_side():
    wins = np.array([[0, 10], [10, 0]])
    draws = np.array([[0, 30], [30, 0]])
    s, _ = bradley_terry(wins, draws)
    assert np.allclose(s, 0, atol=1e-6)
    s, _ = bradley_terry(np.array([[0, 30], [10, 0]]), draws)
    assert s[0] > s[1]
