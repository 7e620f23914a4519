"""Charts of a meta: equilibrium weights with their intervals, replicator dynamics."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from numpy.typing import ArrayLike


def weights_chart(table: pd.DataFrame, path: Path, title: str) -> Path:
    """Max-entropy equilibrium weight of each list, with the resamples' 95% interval."""
    data = table.sort_values("max_entropy_weight")
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(data) + 1.6))
    y = np.arange(len(data))
    low = np.clip(data["max_entropy_weight"] - data["weight_ci_low"], 0, None)
    high = np.clip(data["weight_ci_high"] - data["max_entropy_weight"], 0, None)
    ax.barh(y, data["max_entropy_weight"], xerr=[low, high], color="#4C72B0", ecolor="black",
            capsize=4)  # fmt: skip
    labels = [f"{n} (support {p:.0%})" for n, p in zip(data["list"], data["support_probability"])]
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1)
    ax.set_xlabel("equilibrium weight (max-entropy Nash; bars: 95% interval of resamples)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def dynamics_chart(names: list[str], shares: np.ndarray, path: Path, title: str) -> Path:
    """Field share of each list over the generations of the replicator dynamics."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.stackplot(np.arange(len(shares)), shares.T, labels=names, alpha=0.85)
    ax.set_xlim(0, len(shares) - 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("generation (players copy winners)")
    ax.set_ylabel("share of the field")
    ax.set_title(title)
    ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _save(fig: Any, ax: Any, path: Path, title: str) -> Path:
    ax.set_title(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def interval_chart(labels: Iterable[str], values: ArrayLike, low: ArrayLike,
                   high: ArrayLike, path: Path, title: str, xlabel: str,
                   reference: float | None = None) -> Path:  # fmt: skip
    """One horizontal bar per label with its 95% interval (and a dashed reference line)."""
    v, lo, hi = np.asarray(values, float), np.asarray(low, float), np.asarray(high, float)
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(v) + 1.6))
    y = np.arange(len(v))
    ax.barh(y, v, xerr=[np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)], color="#4C72B0",
            ecolor="black", capsize=4)  # fmt: skip
    if reference is not None:
        ax.axvline(reference, color="grey", linestyle="--")
    ax.set_yticks(y, list(labels))
    ax.set_xlabel(xlabel)
    return _save(fig, ax, path, title)


def before_after_chart(labels: Iterable[str], before: ArrayLike, after: ArrayLike,
                       path: Path, title: str, xlabel: str,
                       reference: float | None = None) -> Path:  # fmt: skip
    """Paired horizontal bars: each label's value now and under the proposal."""
    labels = list(labels)
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(labels) + 1.6))
    y = np.arange(len(labels))
    ax.barh(y - 0.2, before, height=0.4, color="#C44E52", label="now")
    ax.barh(y + 0.2, after, height=0.4, color="#55A868", label="proposed")
    if reference is not None:
        ax.axvline(reference, color="grey", linestyle="--")
    ax.set_yticks(y, list(labels))
    ax.set_xlabel(xlabel)
    ax.legend(fontsize="small")
    return _save(fig, ax, path, title)


def ratings_chart(names: Iterable[str], weak: ArrayLike, strong: ArrayLike,
                  path: Path, title: str, policies: tuple[str, str]) -> Path:  # fmt: skip
    """Each list's rating under the weak policy against its rating under the strong one."""
    fig, ax = plt.subplots(figsize=(6.5, 5.5))
    weak, strong = np.asarray(weak, float), np.asarray(strong, float)
    ax.scatter(weak, strong, color="#4C72B0")
    for n, x, y in zip(names, weak, strong):
        ax.annotate(n, (x, y), fontsize="small", xytext=(3, 3), textcoords="offset points")
    both = np.concatenate([weak, strong])
    ax.plot([both.min(), both.max()], [both.min(), both.max()], "--", color="grey")
    ax.set_xlabel(f"rating under {policies[0]} (log-odds)")
    ax.set_ylabel(f"rating under {policies[1]} (log-odds)")
    return _save(fig, ax, path, title)


def balance_charts(out: Path, title: str, costs: pd.DataFrame, labels: Iterable[str],
                   before: ArrayLike, after: ArrayLike, xlabel: str,
                   reference: float) -> None:  # fmt: skip
    """``balance``'s two charts: the costs now and proposed, and the criterion before/after."""
    before_after_chart(list(costs["unit"]), list(costs["current_cost"]),
                       list(costs["proposed_cost"]), out / "charts" / "balance_costs.png",
                       f"{title}: point costs", "points")  # fmt: skip
    before_after_chart(labels, before, after, out / "charts" / "balance_fairness.png",
                       f"{title}: validation on fresh seeds", xlabel, reference)  # fmt: skip
