"""``analyzer meta``: the Nash meta of a round robin, with its uncertainty.

From the pair counts of a round robin (``analyzer compare``'s ``compare.json``, or a
round robin played here through :func:`analyzer.analysis.compare.compare_lists`):

- the score matrix (wins + draws/2) as a symmetric zero-sum game; an equilibrium by
  linear programming and the maximum-entropy equilibrium (:mod:`analyzer.meta.nash`);
  each list's score against the equilibrium (< 1/2: exploitable);
- the uncertainty: every pair's score is drawn from its posterior, Beta(points + 1/2,
  n - points + 1/2) (Jeffreys prior; points = wins + draws/2), the equilibrium re-solved,
  giving each list's probability of being in the support and a 95% interval on its
  weight (2.5% and 97.5% quantiles of the resamples);
- the transitive and cyclic shares of the log-odds matrix
  (:mod:`analyzer.meta.decomposition`), with the same resamples for their interval;
- replicator dynamics from the uniform field (:mod:`analyzer.meta.replicator`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import InputError
from analyzer.meta.decomposition import Decomposition, decompose
from analyzer.meta.nash import (
    SUPPORT_TOL,
    nash_lp,
    nash_max_entropy,
    payoffs_against,
)
from analyzer.meta.replicator import replicator

#: Beta prior of a pair's score: Jeffreys.
PRIOR = 0.5


@dataclass(frozen=True)
class PairCounts:
    """Points (wins + draws/2) of ``i`` against ``j`` and the matches they played, as
    matrices: ``points[i, j] + points[j, i] = games[i, j]``."""

    names: list[str]
    points: np.ndarray
    games: np.ndarray

    @property
    def score(self) -> np.ndarray:
        """The observed score matrix (diagonal 1/2)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            s = np.where(self.games > 0, self.points / np.where(self.games > 0, self.games, 1), 0.5)
        np.fill_diagonal(s, 0.5)
        return s

    def resample(self, rng: np.random.Generator) -> np.ndarray:
        """One score matrix drawn from the pairs' Beta posteriors."""
        k = len(self.names)
        s = np.full((k, k), 0.5)
        iu, ju = np.triu_indices(k, 1)
        p = rng.beta(self.points[iu, ju] + PRIOR, self.points[ju, iu] + PRIOR)
        s[iu, ju], s[ju, iu] = p, 1 - p
        return s


def counts_from_pairs(names: list[str], pairs: list[dict[str, Any]]) -> PairCounts:
    """Pair counts from ``compare.json``'s ``pairs`` (``i`` played side A against ``j``)."""
    k = len(names)
    points = np.zeros((k, k))
    games = np.zeros((k, k))
    for p in pairs:
        i, j = int(p["i"]), int(p["j"])
        points[i, j] += p["a_wins"] + 0.5 * p["draws"]
        points[j, i] += p["b_wins"] + 0.5 * p["draws"]
        games[i, j] += p["matches"]
        games[j, i] += p["matches"]
    missing = [(names[i], names[j]) for i in range(k) for j in range(i + 1, k) if not games[i, j]]
    if missing:
        raise InputError(f"no matches between {missing[0][0]} and {missing[0][1]}")
    return PairCounts(names, points, games)


def load_compare(folder: str | Path) -> tuple[PairCounts, dict[str, Any]]:
    """The pair counts and settings of a compare folder (``compare.json``)."""
    path = Path(folder) / "compare.json"
    if not path.is_file():
        raise InputError(f"{folder}: no compare.json (run analyzer compare --out {folder})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        counts = counts_from_pairs(list(data["lists"]), list(data["pairs"]))
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
        raise InputError(f"{path}: not a compare.json ({type(err).__name__}: {err})") from None
    settings = {k: data.get(k) for k in ("matches_per_pair", "seed", "policy", "options", "files")}
    return counts, settings


@dataclass
class Meta:
    """The meta of one round robin (see the module docstring)."""

    counts: PairCounts
    nash: np.ndarray
    max_entropy: np.ndarray
    payoff: np.ndarray
    decomposition: Decomposition
    dynamics: np.ndarray
    weights: np.ndarray  # resamples x lists: the equilibrium (LP) of each resample
    payoffs: np.ndarray  # resamples x lists: each list's score against it
    cyclic_shares: np.ndarray
    seed: int
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return self.counts.names

    def support_probability(self) -> np.ndarray:
        return (self.weights > SUPPORT_TOL).mean(axis=0)

    def list_table(self) -> pd.DataFrame:
        """One row per list: equilibrium weights, support probability, payoff, rating."""
        w_lo, w_hi = np.quantile(self.weights, [0.025, 0.975], axis=0)
        p_lo, p_hi = np.quantile(self.payoffs, [0.025, 0.975], axis=0)
        final = self.dynamics[-1]
        table = pd.DataFrame(
            {
                "list": self.names,
                "nash_weight": self.nash,
                "max_entropy_weight": self.max_entropy,
                "weight_mean": self.weights.mean(axis=0),
                "weight_ci_low": w_lo,
                "weight_ci_high": w_hi,
                "support_probability": self.support_probability(),
                "score_vs_nash": self.payoff,
                "score_vs_nash_ci_low": p_lo,
                "score_vs_nash_ci_high": p_hi,
                "exploitable": p_hi < 0.5,
                "hodge_rating": self.decomposition.ratings,
                "replicator_share": final,
                "resamples": len(self.weights),
                "seed": self.seed,
            }
        )
        return table.sort_values("max_entropy_weight", ascending=False, ignore_index=True)

    def dynamics_table(self) -> pd.DataFrame:
        """Field shares by generation (long form)."""
        steps, k = self.dynamics.shape
        return pd.DataFrame(
            {
                "generation": np.repeat(np.arange(steps), k),
                "list": np.tile(self.names, steps),
                "share": self.dynamics.ravel(),
            }
        )

    def cyclic_ci(self) -> tuple[float, float]:
        lo, hi = np.quantile(self.cyclic_shares, [0.025, 0.975])
        return float(lo), float(hi)

    def summary(self) -> dict[str, Any]:
        lo, hi = self.cyclic_ci()
        return {
            "lists": self.names,
            "resamples": len(self.weights),
            "seed": self.seed,
            "cyclic_share": self.decomposition.cyclic_share,
            "cyclic_share_ci95": [lo, hi],
            "transitive_share": self.decomposition.transitive_share,
            "nash": dict(zip(self.names, map(float, self.nash))),
            "max_entropy_nash": dict(zip(self.names, map(float, self.max_entropy))),
            "score_matrix": self.counts.score.tolist(),
            "settings": self.settings,
            "findings": findings(self),
        }


def analyze_meta(
    counts: PairCounts,
    *,
    resamples: int = 1000,
    seed: int = 2026,
    generations: int = 200,
    settings: dict[str, Any] | None = None,
) -> Meta:
    """Equilibria, their posterior uncertainty, decomposition and dynamics of ``counts``."""
    if len(counts.names) < 2:
        raise InputError("a meta needs at least two lists")
    if resamples < 10:
        raise InputError(f"--resamples must be >= 10 (got {resamples})")
    score = counts.score
    nash, _ = nash_lp(score)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    weights = np.empty((resamples, len(counts.names)))
    payoffs = np.empty_like(weights)
    cyclic = np.empty(resamples)
    for r in range(resamples):
        drawn = counts.resample(rng)
        weights[r], _ = nash_lp(drawn)
        payoffs[r] = payoffs_against(drawn, weights[r])
        cyclic[r] = decompose(drawn).cyclic_share
    max_entropy = nash_max_entropy(score)
    return Meta(
        counts=counts,
        nash=nash,
        max_entropy=max_entropy,
        payoff=payoffs_against(score, max_entropy),
        decomposition=decompose(score),
        dynamics=replicator(score, generations),
        weights=weights,
        payoffs=payoffs,
        cyclic_shares=cyclic,
        seed=seed,
        settings=dict(settings or {}),
    )


def findings(meta: Meta) -> list[str]:
    """Plain-language findings, each with its uncertainty."""
    table = meta.list_table()
    out = []
    for r in table.to_dict("records"):
        prob = r["support_probability"]
        if r["max_entropy_weight"] > SUPPORT_TOL or prob >= 0.05:
            out.append(
                f"{r['list']} is in the equilibrium support in {prob:.0%} of resamples; its "
                f"equilibrium weight is {r['max_entropy_weight']:.2f} (95% interval "
                f"{r['weight_ci_low']:.2f} to {r['weight_ci_high']:.2f})."
            )
    exploitable = [r["list"] for r in table.to_dict("records") if r["exploitable"]]
    if exploitable:
        out.append(
            "Exploitable (score against the equilibrium below 1/2, whole 95% interval): "
            + ", ".join(exploitable) + "."
        )  # fmt: skip
    lo, hi = meta.cyclic_ci()
    share = meta.decomposition.cyclic_share
    kind = (
        "mostly a ranking: a best list exists"
        if hi < 0.25
        else "strongly cyclic: no list is best against every field"
        if lo > 0.5
        else "partly cyclic"
    )
    out.append(
        f"Cyclic (rock-paper-scissors) share of the log-odds: {share:.1%} (95% interval "
        f"{lo:.1%} to {hi:.1%}); the meta is {kind}."
    )
    final = meta.dynamics[-1]
    lead = int(np.argmax(final))
    out.append(
        f"If players copy winners (replicator dynamics from a uniform field), after "
        f"{len(meta.dynamics) - 1} generations {meta.names[lead]} holds {final[lead]:.0%} "
        "of the field."
    )
    return out


def meta_table(meta: Meta) -> str:
    """The readable summary: lists, weights, support probabilities, findings."""
    from analyzer.reporting.tables import render_rows

    rows = [
        [str(r["list"]), f"{r['nash_weight']:.3f}", f"{r['max_entropy_weight']:.3f}",
         f"[{r['weight_ci_low']:.3f}, {r['weight_ci_high']:.3f}]",
         f"{r['support_probability']:.0%}",
         f"{r['score_vs_nash']:.3f} [{r['score_vs_nash_ci_low']:.3f}, "
         f"{r['score_vs_nash_ci_high']:.3f}]", f"{r['hodge_rating']:+.3f}",
         f"{r['replicator_share']:.3f}"]
        for r in meta.list_table().to_dict("records")
    ]  # fmt: skip
    header = ["list", "Nash (LP)", "max-ent Nash", "weight 95% interval", "in support",
              "score vs Nash [95%]", "rating", "replicator"]  # fmt: skip
    lines = [
        f"meta of {len(meta.names)} lists, {len(meta.weights):,} posterior resamples, "
        f"seed {meta.seed}",
        render_rows(header, rows),
        "",
        *meta.summary()["findings"],
    ]
    return "\n".join(lines)


def write_meta(meta: Meta, out: str | Path) -> dict[str, Path]:
    """Tables (Parquet, CSV), ``meta.json`` and charts of a meta in ``out``."""
    from analyzer.meta.charts import dynamics_chart, weights_chart

    out = Path(out)
    (out / "charts").mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for label, table in (("lists", meta.list_table()), ("dynamics", meta.dynamics_table())):
        table.to_parquet(out / f"meta_{label}.parquet", index=False)
        table.to_csv(out / f"meta_{label}.csv", index=False)
        written[f"{label}_csv"] = out / f"meta_{label}.csv"
    from analyzer.match.report import finite

    (out / "meta.json").write_text(json.dumps(finite(meta.summary()), indent=2), encoding="utf-8")
    written["json"] = out / "meta.json"
    written["weights"] = weights_chart(
        meta.list_table(), out / "charts" / "meta_weights.png", "Nash meta of the lists"
    )
    written["dynamics"] = dynamics_chart(
        meta.names, meta.dynamics, out / "charts" / "meta_dynamics.png",
        "Replicator dynamics from a uniform field",
    )  # fmt: skip
    return written
