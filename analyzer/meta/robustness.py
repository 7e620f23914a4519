"""Does a balance conclusion survive a stronger AI?  Two round robins, one per policy.

- Rankings: the lists' least-squares ratings (:mod:`analyzer.meta.decomposition`)
  under the weak and the strong policy, and Kendall's tau between them with a 95%
  interval from posterior resamples of both score matrices (each pair's score drawn
  from its Beta posterior, as in :mod:`analyzer.meta.analysis`).
- Verdicts: a list's verdict under a policy is "in the Nash support" (max-entropy
  equilibrium weight > 0), "exploitable" (its whole 95% interval of score against the
  equilibrium below 1/2) or "neither"; a verdict flips when it differs between policies.
- Skill ladder: a player of each policy (random, the weak one, the strong one) plays
  every ordered pair of lists as side A against the weak policy as side B, on the same
  seeds; ``w_P`` is its mean score and the skill score ``1 - w_random / w_strong``
  (0: the AI's play does not matter; towards 1: the game rewards play).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analyzer.experiments.fair_cost import cost_verdict
from analyzer.meta.analysis import Meta, PairCounts
from analyzer.meta.arena import Arena, pairing_seed
from analyzer.meta.decomposition import decompose
from analyzer.meta.nash import SUPPORT_TOL
from analyzer.stats import Z95


def kendall_tau(a: np.ndarray, b: np.ndarray) -> float:
    """Kendall's tau-b of two rankings (scipy.stats.kendalltau)."""
    from scipy.stats import kendalltau

    tau = kendalltau(a, b).statistic
    return float(tau) if np.isfinite(tau) else 0.0


def verdicts(meta: Meta) -> list[str]:
    """Each list's verdict: in the Nash support, exploitable, or neither."""
    lo_hi = np.quantile(meta.payoffs, 0.975, axis=0)
    out = []
    for w, hi in zip(meta.max_entropy, lo_hi):
        out.append("in support" if w > SUPPORT_TOL else "exploitable" if hi < 0.5 else "neither")
    return out


@dataclass
class Robustness:
    """The comparison of two policies' metas."""

    names: list[str]
    policies: tuple[str, str]
    ratings: tuple[np.ndarray, np.ndarray]
    tau: float
    tau_ci: tuple[float, float]
    verdicts: tuple[list[str], list[str]]

    @property
    def flips(self) -> list[str]:
        return [n for n, a, b in zip(self.names, *self.verdicts) if a != b]

    def table(self) -> pd.DataFrame:
        weak, strong = self.policies
        rank = [pd.Series(r).rank(ascending=False, method="min").astype(int) for r in self.ratings]
        return pd.DataFrame({
            "list": self.names,
            f"rating_{weak}": self.ratings[0], f"rating_{strong}": self.ratings[1],
            f"rank_{weak}": rank[0], f"rank_{strong}": rank[1],
            f"verdict_{weak}": self.verdicts[0], f"verdict_{strong}": self.verdicts[1],
            "flips": [a != b for a, b in zip(*self.verdicts)],
        })  # fmt: skip


def compare_policies(
    weak: tuple[str, PairCounts, Meta],
    strong: tuple[str, PairCounts, Meta],
    resamples: int = 1000,
    seed: int = 2026,
) -> Robustness:
    """Kendall's tau (with its posterior interval) and verdict flips between two metas
    of the same lists."""
    (pw, cw, mw), (ps, cs, ms) = weak, strong
    if cw.names != cs.names:
        raise ValueError("the two round robins must hold the same lists in the same order")
    rw, rs = decompose(cw.score).ratings, decompose(cs.score).ratings
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(22,)))
    taus = [kendall_tau(decompose(cw.resample(rng)).ratings, decompose(cs.resample(rng)).ratings)
            for _ in range(resamples)]  # fmt: skip
    lo, hi = np.quantile(taus, [0.025, 0.975])
    return Robustness(cw.names, (pw, ps), (rw, rs), kendall_tau(rw, rs), (float(lo), float(hi)),
                      (verdicts(mw), verdicts(ms)))  # fmt: skip


@dataclass
class Ladder:
    """Mean score of each policy's player against the reference policy."""

    reference: str
    policies: list[str]
    scores: list[float]
    se: list[float]
    matches: int

    def skill(self) -> tuple[float, float]:
        """``1 - w_random / w_strong`` and its SE (delta method, the two independent
        up to common random numbers, which makes this conservative)."""
        wr, ws = self.scores[0], self.scores[-1]
        sr, ss = self.se[0], self.se[-1]
        value = 1 - wr / ws
        se = float(np.hypot(sr / ws, wr * ss / ws**2))
        return value, se

    def table(self) -> pd.DataFrame:
        return pd.DataFrame({
            "policy": self.policies, "score_vs_" + self.reference: self.scores, "se": self.se,
            "ci_low": [s - Z95 * e for s, e in zip(self.scores, self.se)],
            "ci_high": [s + Z95 * e for s, e in zip(self.scores, self.se)],
            "matches_per_pair": self.matches,
        })  # fmt: skip


def skill_ladder(
    system: str,
    cards: Any,
    lists: Sequence[Any],
    policies: Sequence[str],
    reference: str,
    matches: int,
    seed: int,
    options: dict[str, Any] | None = None,
    threads: int | None = None,
    progress: Any = None,
) -> Ladder:
    """Each policy as side A against ``reference`` as side B over every ordered pair of
    lists (the same seeds for every policy: common random numbers)."""
    pairs = [(i, j) for i in range(len(lists)) for j in range(len(lists)) if i != j]
    scores, ses = [], []
    for policy in policies:
        arena = Arena(system, (policy, reference), options or {}, threads=threads,
                      progress=progress)  # fmt: skip
        jobs = [(arena.setup(cards, lists[i], lists[j]), pairing_seed(seed, p))
                for p, (i, j) in enumerate(pairs)]  # fmt: skip
        played = np.concatenate(arena.scores(jobs, 0, matches))
        scores.append(float(played.mean()))
        ses.append(float(played.std(ddof=1) / np.sqrt(len(played))))
    return Ladder(reference, list(policies), scores, ses, matches)


#: Duel decision rules that act as a weaker and a stronger player in ``value``'s duels
#: (duel rule options).  Rapture's defender picks its reaction: always dodge, or the
#: reaction of the highest exact expected wound swing per RP ("per-rp", the default).
#: The other systems' duels follow fixed rules: ``value`` has no policy to vary there.
DUEL_POLICIES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "rapture": ({"reaction": "dodge"}, {"reaction": "per-rp"}),
}


def policy_label(options: dict[str, Any]) -> str:
    """``{"reaction": "dodge"}`` -> ``"reaction=dodge"``."""
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def value_robustness(tables: tuple[pd.DataFrame, pd.DataFrame], cards: dict[str, Any],
                     labels: tuple[str, str], resamples: int, seed: int
                     ) -> Robustness:  # fmt: skip
    """``value`` under two duel policies: Kendall tau of the value-per-point rankings (95%
    interval: each unit's value per point redrawn from its normal, both tables), and each
    unit's verdict (its cost against its fair cost's 95% CI) under both."""
    from analyzer.analysis.value import unit_summary

    weak, strong = (unit_summary(t, cards).sort_index() for t in tables)
    rng = np.random.default_rng(seed)
    vpp = [s["value_per_point"].to_numpy() for s in (weak, strong)]
    se = [s["value_per_point_se"].to_numpy() for s in (weak, strong)]
    taus = [kendall_tau(vpp[0] + se[0] * rng.standard_normal(len(vpp[0])),
                        vpp[1] + se[1] * rng.standard_normal(len(vpp[1])))
            for _ in range(resamples)]  # fmt: skip
    lo, hi = np.quantile(taus, [0.025, 0.975])
    verdict = tuple(
        [cost_verdict(p, f - Z95 * e, f + Z95 * e)
         for p, f, e in zip(s["points"], s["fair_cost"], s["fair_cost_se"])]
        for s in (weak, strong)
    )  # fmt: skip
    return Robustness(list(weak.index), labels, (vpp[0], vpp[1]), kendall_tau(vpp[0], vpp[1]),
                      (float(lo), float(hi)), (verdict[0], verdict[1]))  # fmt: skip
