"""Sweep charts (matplotlib, PNG): a heatmap over two axes, lines over one axis.

Both show the headline quantity (or the one chosen in the sweep file) with its
95% CI: the heatmap prints ``estimate ± half-width`` in every cell, the line
chart draws a CI band around each line.  Axes not on the chart are held at
the baseline cell's values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

from analyzer.outputs import save_figure

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analyzer.experiments.spec import SweepPlan


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def _slice(table: pd.DataFrame, plan: SweepPlan, keep: set[str], quantity: str) -> pd.DataFrame:
    """Rows of ``quantity`` with every axis outside ``keep`` at its baseline value."""
    base = plan.cells[plan.baseline].params
    rows = table[table["quantity"] == quantity]
    for axis in plan.axes:
        if axis.name not in keep:
            rows = rows[rows[axis.name] == base[axis.name]]
    return rows


def _subtitle(plan: SweepPlan, keep: set[str]) -> str:
    base = plan.cells[plan.baseline].params
    fixed = [f"{a.name}={base[a.name]}" for a in plan.axes if a.name not in keep]
    return ("at " + ", ".join(fixed)) if fixed else ""


def heatmap(
    table: pd.DataFrame, plan: SweepPlan, x: str, y: str, quantity: str, path: Path
) -> Path:
    """Estimate of ``quantity`` over axes ``x`` (columns) and ``y`` (rows), CI in each cell."""
    rows = _slice(table, plan, {x, y}, quantity)
    xs = next(a.labels for a in plan.axes if a.name == x)
    ys = next(a.labels for a in plan.axes if a.name == y)
    grid = np.full((len(ys), len(xs)), np.nan)
    half = np.full_like(grid, np.nan)
    for _, row in rows.iterrows():
        i, j = ys.index(row[y]), xs.index(row[x])
        grid[i, j] = row["estimate"]
        half[i, j] = (row["ci_high"] - row["ci_low"]) / 2
    fig, ax = plt.subplots(figsize=(1.3 * len(xs) + 3, 0.8 * len(ys) + 2.2))
    finite = grid[np.isfinite(grid)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    image = ax.imshow(grid, cmap="viridis", aspect="auto", vmin=lo, vmax=hi if hi > lo else lo + 1)
    mid = (lo + hi) / 2
    for i in range(len(ys)):
        for j in range(len(xs)):
            if np.isfinite(grid[i, j]):
                ax.text(
                    j,
                    i,
                    f"{grid[i, j]:.3f}\n±{half[i, j]:.3f}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="black" if grid[i, j] > mid else "white",
                )
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_yticks(range(len(ys)), [str(v) for v in ys])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    sub = _subtitle(plan, {x, y})
    ax.set_title(f"{plan.name}: {quantity} (±95% CI)" + (f"\n{sub}" if sub else ""))
    fig.colorbar(image, ax=ax, label=quantity)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)
    return path


def line_chart(
    table: pd.DataFrame, plan: SweepPlan, x: str, hue: str | None, quantity: str, path: Path
) -> Path:
    """Estimate of ``quantity`` along axis ``x``, one line per value of ``hue``, 95% CI bands."""
    keep = {x} | ({hue} if hue else set())
    rows = _slice(table, plan, keep, quantity)
    xs = next(a.labels for a in plan.axes if a.name == x)
    numeric = _numeric(xs)
    fig, ax = plt.subplots(figsize=(8, 5))
    groups = [(None, rows)] if hue is None else list(rows.groupby(hue, sort=False))
    for label, group in groups:
        group = group.set_index(x).reindex(xs)
        pos = np.asarray(xs, dtype=float) if numeric else np.arange(len(xs), dtype=float)
        line = ax.plot(
            pos, group["estimate"], marker="o", label=None if hue is None else f"{hue}={label!s}"
        )[0]
        ax.fill_between(
            pos,
            group["ci_low"].astype(float),
            group["ci_high"].astype(float),
            color=line.get_color(),
            alpha=0.2,
        )
    if not numeric:
        ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_xlabel(x)
    ax.set_ylabel(f"{quantity} (95% CI band)")
    sub = _subtitle(plan, keep)
    ax.set_title(f"{plan.name}: {quantity} along {x}" + (f"\n{sub}" if sub else ""))
    if hue is not None:
        ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)
    return path


def sweep_charts(table: pd.DataFrame, plan: SweepPlan, out_dir: Path) -> dict[str, Path]:
    """The sweep's charts into ``out_dir``: heatmap (>= 2 axes) and line chart (>= 1 axis)."""
    charts = plan.spec.charts
    quantity = charts.quantity or plan.metric.quantities[0]
    names = [a.name for a in plan.axes]
    written: dict[str, Path] = {}
    if not names:
        return written
    out_dir.mkdir(parents=True, exist_ok=True)
    pair = charts.heatmap or (names[:2] if len(names) >= 2 else None)
    if pair:
        written["heatmap"] = heatmap(
            table, plan, pair[0], pair[1], quantity, out_dir / f"heatmap_{pair[0]}_{pair[1]}.png"
        )
    x = charts.line or names[0]
    hue = charts.hue or next((n for n in names if n != x), None)
    written["lines"] = line_chart(table, plan, x, hue, quantity, out_dir / f"lines_{x}.png")
    return written
