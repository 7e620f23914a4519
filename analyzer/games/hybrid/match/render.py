"""A PNG picture of a mission's board and the deployed warriors (matplotlib).

>>> from analyzer.games.hybrid.match.render import render_board
>>> render_board(setup, "reports/hybrid-board.png")
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from analyzer.games.hybrid.match import layout as L

#: Colours of the cell kinds (floor, wall, column, rockfall, door, locked door, Trapdoor).
COLOURS = ("#f4f1e8", "#3b3b3b", "#7a6a58", "#b59a6d", "#c0392b", "#6c1a12", "#2e86c1")
SIDE_COLOURS = ("#1f6fb2", "#b2361f")


def render_board(setup: Any, path: str | Path) -> Path:
    """Draw ``setup``'s board (``ENGINE.prepare``) with each warrior on his deployment
    square, an arrow for his facing, and the Objective counters; write a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Rectangle

    fi, mp, obj = setup.arrays[0], setup.arrays[1], setup.arrays[2]
    h, w = mp.shape
    fig, ax = plt.subplots(figsize=(max(4.0, w * 0.4), max(4.0, h * 0.4)))
    ax.imshow(mp, cmap=ListedColormap(COLOURS), vmin=0, vmax=len(COLOURS) - 1)
    ys, xs = np.nonzero(obj)
    ax.scatter(xs, ys, marker="*", s=160, c="#f1c40f", edgecolors="black", zorder=3)
    for i in range(fi.shape[0]):
        x, y, z = int(fi[i, L.F_X0]), int(fi[i, L.F_Y0]), int(fi[i, L.F_SIZE])
        side = int(fi[i, L.F_SIDE])
        ax.add_patch(
            Rectangle((x - 0.45, y - 0.45), z - 0.1, z - 0.1, color=SIDE_COLOURS[side], zorder=4)
        )
        f = int(fi[i, L.F_FACE0])
        cx, cy = x + (z - 1) / 2, y + (z - 1) / 2
        ax.arrow(cx, cy, 0.3 * L.DX[f], 0.3 * L.DY[f], head_width=0.2, color="white", zorder=5)
        ax.text(cx, cy + 0.05, str(i), ha="center", va="center", fontsize=6, color="white")
    ax.set_xticks(range(w))
    ax.set_yticks(range(h))
    ax.tick_params(labelsize=6)
    for k in range(0, max(w, h) + 1, 8):
        ax.axvline(k - 0.5, color="black", lw=1.5)
        ax.axhline(k - 0.5, color="black", lw=1.5)
    ax.set_title(f"{setup.scenario}: A blue, B red (squares x, y)", fontsize=9)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return out
