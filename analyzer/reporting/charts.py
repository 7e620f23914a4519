"""Unit value charts (matplotlib, written as PNG files)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

from analyzer.outputs import save_figure

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analyzer.analysis.value import FIELD
from analyzer.stats import Z95


def value_per_point_chart(summary: pd.DataFrame, path: Path, title: str) -> Path:
    """Horizontal bars of value per point with 95% error bars, best unit on top."""
    data = summary.sort_values("value_per_point")
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(data) + 1.6))
    y = np.arange(len(data))
    ax.barh(
        y,
        data["value_per_point"],
        xerr=Z95 * data["value_per_point_se"],
        color="#4C72B0",
        ecolor="black",
        capsize=4,
    )
    median = float(data["value_per_point"].median())
    ax.axvline(median, color="#C44E52", linestyle="--", label=f"field median {median:.2f}")
    ax.set_yticks(y, [f"{u} ({p} pts)" for u, p in zip(data.index, data["points"])])
    ax.set_xlabel(
        "value per point (opponent points removed per own point, duels); error bars: 95% CI"
    )
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
    return path


def _rate_matrix(
    values: np.ndarray,
    labels: list[list[str]],
    names: list[str],
    axes: tuple[str, str, str],
    cell_size: tuple[float, float],
    path: Path,
    title: str,
) -> Path:
    """A square matrix of rates in [0, 1] (red below 1/2, blue above), each cell labelled.

    ``axes``: the x label, the y label and the colour bar's label.
    """
    k = len(names)
    fig, ax = plt.subplots(
        figsize=(cell_size[0] * k + 3, cell_size[1] * k + 2), layout="constrained"
    )
    image = ax.imshow(values, cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            if labels[i][j]:
                dark = abs(float(values[i, j]) - 0.5) > 0.3
                ax.text(j, i, labels[i][j], ha="center", va="center", fontsize=8,
                        color="white" if dark else "black")  # fmt: skip
    ax.set_xticks(range(k), names, rotation=45 if k > 3 else 30, ha="right")
    ax.set_yticks(range(k), names)
    ax.set_xlabel(axes[0])
    ax.set_ylabel(axes[1])
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label=axes[2])
    save_figure(fig, path)
    plt.close(fig)
    return path


def duel_heatmap(table: pd.DataFrame, path: Path, title: str) -> Path:
    """Duel win rate of the row unit (attacker) against the column unit (defender)."""
    rows = table[(table["metric"] == "duel_win_rate") & (table["opponent"] != FIELD)]
    grid = rows.pivot(index="unit", columns="opponent", values="estimate")
    names = sorted(set(grid.index) | set(grid.columns))
    values = grid.reindex(index=names, columns=names).to_numpy(dtype=float)
    labels = [["" if np.isnan(v) else f"{v:.2f}" for v in row] for row in values]
    axes = ("defender", "attacker", "duel win rate of the attacker")
    return _rate_matrix(values, labels, names, axes, (1.0, 0.8), path, title)


def cost_value_scatter(summary: pd.DataFrame, path: Path, title: str) -> Path:
    """Points cost vs value index with 95% error bars and the fair-cost line."""
    fig, ax = plt.subplots(figsize=(8, 6))
    ax.errorbar(
        summary["points"],
        summary["value_index"],
        yerr=Z95 * summary["value_index_se"],
        fmt="o",
        color="#4C72B0",
        ecolor="black",
        capsize=4,
    )
    labels = [
        ax.text(row["points"], row["value_index"], str(unit), fontsize=9)
        for unit, row in summary.iterrows()
    ]
    median = float(summary["value_per_point"].median())
    xs = np.linspace(0, summary["points"].max() * 1.1, 50)
    ax.plot(
        xs,
        median * xs,
        color="#C44E52",
        linestyle="--",
        label=f"fair cost: value = {median:.2f} x points",
    )
    ax.set_xlabel("points cost")
    ax.set_ylabel("value index (opponent points removed per duel)")
    ax.text(
        0.99,
        0.01,
        "error bars: 95% CI (hidden by the marker when smaller)",
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        fontsize=8,
        color="gray",
    )
    ax.set_title(title)
    ax.legend(loc="upper left")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    place_labels(ax, labels, summary["points"], summary["value_index"])
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
    return path


def place_labels(ax, labels, x, y) -> None:
    """Move point labels apart so that none overlaps another or a marker (adjustText),
    with a thin line back to its point where it had to move far."""
    from adjustText import adjust_text

    adjust_text(
        labels,
        x=np.asarray(x, dtype=float),
        y=np.asarray(y, dtype=float),
        ax=ax,
        arrowprops={"arrowstyle": "-", "color": "grey", "lw": 0.5},
    )


def labels_overlap(fig, labels) -> bool:
    """Whether any two of the text ``labels`` overlap on the drawn figure (for tests)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [label.get_window_extent(renderer) for label in labels]
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def fair_cost_chart(result, path: Path) -> Path:
    """The fair-cost search: the gap at each cost evaluated (95% error bars, jackknife over
    blocks), zero where the unit is fairly priced, the fair cost with its CI, the current cost."""
    trace = result.trace()
    fig, ax = plt.subplots(figsize=(8, 5), layout="constrained")
    half = Z95 * trace["gap_se"].fillna(0.0)
    ax.errorbar(trace["cost"], trace["gap"], yerr=half, fmt="o", color="#4C72B0", capsize=4,
                label="gap at a cost evaluated (95% CI)")  # fmt: skip
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.axvspan(result.ci_low, result.ci_high, color="#55A868", alpha=0.25,
               label=f"fair cost {result.fair_cost:.1f} [{result.ci_low:.1f}, "
               f"{result.ci_high:.1f}] (95% CI)")  # fmt: skip
    ax.axvline(result.fair_cost, color="#55A868")
    ax.axvline(result.current_cost, color="#C44E52", linestyle="--",
               label=f"current cost {result.current_cost}")  # fmt: skip
    ax.set_xlabel("points cost of " + result.unit)
    ax.set_ylabel("gap: criterion minus its target (0 = fair)")
    ax.set_title(f"Fair cost of {result.unit}: bisection on common random numbers")
    ax.legend(loc="upper right", fontsize=8)
    save_figure(fig, path)
    plt.close(fig)
    return path


def score_matrix_chart(pairs: pd.DataFrame, path: Path, title: str) -> Path:
    """Score (wins + draws/2) of the row list against the column list, with 95% CIs."""
    names = list(dict.fromkeys([*pairs["list"], *pairs["opponent"]]))
    k = len(names)
    values = np.full((k, k), np.nan)
    labels = [["" for _ in range(k)] for _ in range(k)]
    for r in pairs.to_dict("records"):
        i, j = names.index(r["list"]), names.index(r["opponent"])
        values[i, j] = r["score"]
        labels[i][j] = f"{r['score']:.2f}\n[{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
    axes = ("opponent", "list", "score of the row list (95% Wilson CI)")
    return _rate_matrix(values, labels, names, axes, (1.6, 1.1), path, title)


def rating_chart(ratings: pd.DataFrame, path: Path, title: str) -> Path:
    """Bradley-Terry ratings on the Elo scale with 95% error bars, strongest on top."""
    data = ratings.sort_values("elo")
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(data) + 1.6), layout="constrained")
    y = np.arange(len(data))
    ax.errorbar(data["elo"], y, xerr=data["elo_ci95"], fmt="o", color="#4C72B0", capsize=4)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(y, list(data["list"]))
    ax.set_xlabel("Bradley-Terry rating, Elo scale (0 = average of the lists)")
    ax.set_title(title)
    save_figure(fig, path)
    plt.close(fig)
    return path
