"""Charts of a meta: equilibrium weights with their intervals, replicator dynamics."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd


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
