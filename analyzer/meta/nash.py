"""Nash equilibria of a symmetric zero-sum game given by a score matrix.

``score[i, j]`` is list ``i``'s expected score against ``j`` (wins + draws/2), so
``score[i, j] + score[j, i] = 1`` and the game's payoff is ``score - 1/2``
(antisymmetric, value 0).  An equilibrium mixture ``x`` scores at least 1/2 against
every pure list (no list beats it); a list that scores below 1/2 against ``x`` is
exploitable.  The equilibrium comes from one linear programme
(``scipy.optimize.linprog``); the maximum-entropy equilibrium (Nash averaging,
Balduzzi et al. 2018, "Re-evaluating evaluation") is the unique equilibrium of largest
entropy, so that adding a near-copy of a list splits its weight instead of moving it.
"""

from __future__ import annotations

import numpy as np

#: Weights below this are outside the support (LP solutions carry ~1e-12 noise).
SUPPORT_TOL = 1e-6


def payoff(score: np.ndarray) -> np.ndarray:
    """The antisymmetric payoff ``(score - score.T) / 2`` (``score - 1/2`` when exact)."""
    score = np.asarray(score, dtype=float)
    if score.ndim != 2 or score.shape[0] != score.shape[1]:
        raise ValueError(f"a score matrix is square (got shape {score.shape})")
    return (score - score.T) / 2


def nash_lp(score: np.ndarray) -> tuple[np.ndarray, float]:
    """An equilibrium mixture of the row player and the game's value (0 when symmetric).

    Maximise ``v`` subject to ``sum_i x_i A[i, j] >= v`` for every column ``j``,
    ``sum x = 1``, ``x >= 0`` (``A`` = :func:`payoff`).
    """
    from scipy.optimize import linprog

    a = payoff(score)
    k = a.shape[0]
    cost = np.zeros(k + 1)
    cost[-1] = -1.0  # maximise v
    upper = np.hstack([-a.T, np.ones((k, 1))])  # v - x.A[:, j] <= 0
    equal = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * k + [(None, None)]
    fit = linprog(cost, A_ub=upper, b_ub=np.zeros(k), A_eq=equal, b_eq=[1.0], bounds=bounds,
                  method="highs")  # fmt: skip
    if not fit.success:  # pragma: no cover - a finite matrix game always has a solution
        raise RuntimeError(f"linprog failed: {fit.message}")
    x = np.clip(fit.x[:k], 0.0, None)
    return x / x.sum(), float(fit.x[-1])


def nash_max_entropy(score: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """The equilibrium mixture of largest entropy (unique: the entropy is strictly concave).

    The equilibria are the polytope ``{x >= 0, sum x = 1, x.A[:, j] >= value}``; the
    entropy is maximised over it by SLSQP, started from the mean of the equilibria that
    maximise each list's weight (one LP per list), on the lists
    that some equilibrium uses (a list no equilibrium uses stays at 0).
    """
    from scipy.optimize import minimize

    a = payoff(score)
    k = a.shape[0]
    _, value = nash_lp(score)
    usable, vertices = _usable(a, value, tol)
    # the mean of equilibria is an equilibrium with every usable list in its support
    x0 = vertices.mean(axis=0)[usable]
    x0 /= x0.sum()
    cols = a[usable, :]

    def neg_entropy(x: np.ndarray) -> tuple[float, np.ndarray]:
        safe = np.clip(x, 1e-300, None)
        return float((safe * np.log(safe)).sum()), np.log(safe) + 1.0

    constraints = [
        {"type": "eq", "fun": lambda x: x.sum() - 1.0, "jac": lambda x: np.ones_like(x)},
        {"type": "ineq", "fun": lambda x: x @ cols - value + tol, "jac": lambda x: cols.T},
    ]
    fit = minimize(neg_entropy, x0, jac=True, bounds=[(0.0, 1.0)] * len(usable),
                   constraints=constraints, method="SLSQP",
                   options={"ftol": 1e-14, "maxiter": 500})  # fmt: skip
    x = np.zeros(k)
    x[usable] = np.clip(fit.x if fit.success else x0, 0.0, None)
    return x / x.sum()


def _usable(a: np.ndarray, value: float, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the lists in the support of some equilibrium, and one equilibrium per
    list (the one that maximises its weight: one LP per list)."""
    from scipy.optimize import linprog

    k = a.shape[0]
    used, vertices = [], []
    for i in range(k):
        cost = np.zeros(k)
        cost[i] = -1.0
        fit = linprog(cost, A_ub=-a.T, b_ub=np.full(k, -value + tol), A_eq=np.ones((1, k)),
                      b_eq=[1.0], bounds=[(0.0, None)] * k, method="highs")  # fmt: skip
        if fit.success:
            vertices.append(np.clip(fit.x, 0.0, None))
            if -fit.fun > SUPPORT_TOL:
                used.append(i)
    return np.array(used, dtype=int), np.array(vertices)


def payoffs_against(score: np.ndarray, mixture: np.ndarray) -> np.ndarray:
    """Each list's expected score against the mixture (< 1/2: exploitable by it)."""
    score = np.asarray(score, dtype=float).copy()
    np.fill_diagonal(score, 0.5)
    return score @ mixture


def support(mixture: np.ndarray) -> np.ndarray:
    """Boolean mask of the lists with positive equilibrium weight."""
    return np.asarray(mixture) > SUPPORT_TOL
