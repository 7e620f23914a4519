"""The inline generator, the block seeding and the parallel runner."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from analyzer.dice import exact as ex
from analyzer.dice.random_nb import count_at_least, count_at_most, roll_die, seeded_state
from analyzer.dice.simulate import simulate_counts, trial_kernel
from analyzer.rng import BLOCK_SIZE, block_sizes, block_states
from analyzer.stats import chi_square_pvalue


@njit(cache=True)
def _faces(seed_words, sides, n):
    state = seeded_state_nb(seed_words)
    out = np.zeros(sides + 1, dtype=np.int64)
    for _ in range(n):
        out[roll_die(state, sides)] += 1
    return out


@njit(cache=True)
def seeded_state_nb(words):
    state = np.zeros(6, dtype=np.uint64)
    state[:4] = words
    return state


@pytest.mark.parametrize("sides", [2, 3, 6, 8, 10, 12, 20, 100])
def test_roll_die_is_uniform(sides):
    counts = _faces(np.array([11, 22, 33, 44], dtype=np.uint64), sides, 600_000)
    assert counts[0] == 0
    assert chi_square_pvalue(counts[1:], np.full(sides, 1 / sides)) > 1e-4


@njit(cache=True)
def _pool_counts(words, n_dice, sides, target, at_most, trials):
    state = seeded_state_nb(words)
    out = np.zeros(n_dice + 1, dtype=np.int64)
    for _ in range(trials):
        if at_most:
            out[count_at_most(state, n_dice, sides, target)] += 1
        else:
            out[count_at_least(state, n_dice, sides, target)] += 1
    return out


@pytest.mark.parametrize(
    ("n_dice", "sides", "target", "at_most"),
    [
        (5, 6, 3, False),
        (3, 6, 5, False),
        (4, 10, 7, True),
        (2, 20, 15, False),
        (3, 6, 7, False),
        (3, 6, 1, False),
        (3, 6, 0, True),
    ],
)
def test_success_pools_follow_the_binomial(n_dice, sides, target, at_most):
    counts = _pool_counts(
        np.array([5, 6, 7, 8], dtype=np.uint64), n_dice, sides, target, at_most, 300_000
    )
    p = min(max(target, 0), sides) / sides if at_most else ex.face_probability(sides, target)
    exact = ex.binomial(n_dice, p).probs
    assert np.all(counts[exact == 0] == 0)
    assert chi_square_pvalue(counts, exact) > 1e-4


def test_seeded_state_is_never_all_zero():
    state = seeded_state(np.zeros(4, dtype=np.uint64))
    assert state[:4].any()


def test_block_sizes_cover_the_trials_with_fixed_blocks():
    sizes = block_sizes(3 * BLOCK_SIZE + 17)
    assert sizes.tolist() == [BLOCK_SIZE] * 3 + [17]
    assert block_sizes(0).size == 0
    with pytest.raises(ValueError):
        block_sizes(-1)


def test_block_states_depend_on_seed_task_and_block_only():
    a = block_states(7, 5)
    assert np.array_equal(a[2:], block_states(7, 3, first_block=2))
    assert not np.array_equal(a, block_states(8, 5))
    assert not np.array_equal(a, block_states(7, 5, task=(1,)))
    assert len({tuple(row) for row in a}) == 5


@trial_kernel
def _coin_trial(state, p):  # pragma: no cover - numba
    return count_at_least(state, p[0], 2, 2)


def test_simulate_counts_is_reproducible_and_sums_to_trials():
    params = np.array([3])
    a = simulate_counts(_coin_trial, params, 0, 3, 200_003, seed=9)
    b = simulate_counts(_coin_trial, params, 0, 3, 200_003, seed=9)
    c = simulate_counts(_coin_trial, params, 0, 3, 200_003, seed=10)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    assert a.sum() == 200_003
    assert chi_square_pvalue(a, ex.binomial(3, 0.5).probs) > 1e-4


def test_simulate_counts_rejects_outcomes_outside_the_declared_range():
    with pytest.raises(RuntimeError, match="outside"):
        simulate_counts(_coin_trial, np.array([3]), 0, 1, 1000, seed=1)


def test_block_counts_in_any_chunking_sum_to_the_same_totals():
    from analyzer.dice.simulate import simulate_block_counts

    params = np.array([4])
    total = simulate_counts(_coin_trial, params, 0, 4, 3 * BLOCK_SIZE + 5, seed=4)
    sizes = block_sizes(3 * BLOCK_SIZE + 5)
    parts = [
        simulate_block_counts(_coin_trial, params, 0, 4, 4, (), 0, sizes[:1]),
        simulate_block_counts(_coin_trial, params, 0, 4, 4, (), 1, sizes[1:]),
    ]
    assert np.array_equal(np.vstack(parts).sum(axis=0), total)
