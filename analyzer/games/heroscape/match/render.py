"""PNG maps of Heroscape battlefields: spaces by terrain and level, start zones, glyphs,
and (from a ``--trace`` of one match) where the figures stood after a Player Turn or at
the end.

Run: ``python -m analyzer.games.heroscape.match.render SCENARIO OUT.png
[--list-a A.yaml --list-b B.yaml --trace K --seed S --turn T]`` (``--turn``: where the
figures stood after the match's Player Turn T, 0 = as placed).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.games.heroscape.match import layout as L
from analyzer.games.heroscape.match import scenario as S

COLOURS = {
    "grass": "#7fb069",
    "asphalt": "#555555",
    "concrete": "#b8b8b8",
    "water": "#4a90d9",
    "toxic water": "#5fd35f",
    "toxic land": "#c0392b",
    "shadow": "#2c3e70",
    "lava field": "#e67e22",
    "molten lava": "#ff3300",
    "swamp water": "#5d7b4f",
    "snow": "#f4f6f7",
    "ice": "#d6eaf8",
    "wood": "#a0522d",
    "wellspring water": "#76d7ea",
    "rock": "#8d7b68",
    "sand": "#e9d8a6",
}


def positions_at(events: np.ndarray, n_fig: int, turn: int | None = None) -> dict[int, int]:
    """Space of each figure of a traced match after Player Turn ``turn`` (counted over the
    match from 1; 0: as placed at set-up; None: at the end), by replaying the placements
    and moves; destroyed figures are gone."""
    where: dict[int, int] = {}
    turns = 0
    for row in events:
        kind = int(row[0])
        if kind in (L.E_TURN, L.E_NOFIG):
            if turn is not None and turns == turn:
                break
            turns += 1
        elif kind == L.E_DEPLOY:
            where[int(row[3])] = int(row[4])
        elif kind == L.E_MOVE:
            where[int(row[3])] = int(row[5])
        elif kind == L.E_DESTROYED:
            where[int(row[3])] = -1
    return {i: h for i, h in where.items() if h >= 0 and i < n_fig}


def final_positions(events: np.ndarray, n_fig: int) -> dict[int, int]:
    """Space of each figure at the end of a traced match (moves replayed; destroyed gone)."""
    return positions_at(events, n_fig)


def render(
    scen: S.Scenario,
    out: str | Path,
    figures: dict[int, int] | None = None,
    labels: list[str] | None = None,
    sides: list[int] | None = None,
    note: str = "",
) -> Path:
    """Draw ``scen`` (and figures on spaces ``figures[i]``) into the PNG ``out``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import RegularPolygon

    hx = scen.hx
    xy = S.centres(hx)
    fig, ax = plt.subplots(figsize=(1.0 + 0.6 * xy[:, 0].max(), 1.0 + 0.6 * xy[:, 1].max()))
    radius = 1 / math.sqrt(3)
    for h in range(hx.shape[0]):
        terrain = L.TERRAIN_NAMES[int(hx[h, L.H_TERRAIN])]
        zone = int(hx[h, L.H_ZONE])
        edge = {0: "black", 1: "#1f5fbf", 2: "#bf1f1f"}[zone]
        ax.add_patch(
            RegularPolygon(
                (xy[h, 0], xy[h, 1]), 6, radius=radius, facecolor=COLOURS[terrain],
                edgecolor=edge, linewidth=2.5 if zone else 0.6,
            )
        )  # fmt: skip
        text = str(int(hx[h, L.H_LEVEL]))
        if hx[h, L.H_OBSTACLE] > 0:
            text += f"\nW{int(hx[h, L.H_OBSTACLE])}"
        if hx[h, L.H_GAP] > 0:
            text += f"\n^{int(hx[h, L.H_GAP])}"
        ax.text(xy[h, 0], xy[h, 1] + 0.25, text, ha="center", va="center", fontsize=6)
    for kind, h, _up in scen.glyphs:
        name = L.GLYPH_KEYS[int(kind)]
        ax.text(xy[h, 0], xy[h, 1] - 0.2, name[:4].upper(), ha="center", fontsize=6,
                color="gold", weight="bold")  # fmt: skip
    for i, h in (figures or {}).items():
        colour = "#1f5fbf" if (sides or [0] * (i + 1))[i] == 0 else "#bf1f1f"
        ax.plot(xy[h, 0], xy[h, 1], "o", color=colour, markersize=9, markeredgecolor="white")
        if labels:
            ax.text(xy[h, 0], xy[h, 1] - 0.35, labels[i][:10], ha="center", fontsize=5)
    ax.set_xlim(-1, xy[:, 0].max() + 1)
    ax.set_ylim(xy[:, 1].max() + 1, -1)
    ax.set_aspect("equal")
    ax.axis("off")
    title = f"{scen.name} (start zones: A blue, B red; numbers: levels)"
    ax.set_title(f"{title}{note}", fontsize=8)
    out = Path(out)
    fig.savefig(out, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("out")
    parser.add_argument("--list-a")
    parser.add_argument("--list-b")
    parser.add_argument("--trace", type=int)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--turn", type=int, help="figures after this Player Turn (0: set-up; default: the end)"
    )
    args = parser.parse_args(argv)
    scen = S.load_scenario(args.scenario)
    figures = labels = sides = None
    note = ""
    if args.trace is not None and args.list_a and args.list_b:
        from analyzer.games.heroscape.match.engine import ENGINE
        from analyzer.match.runner import trace_events

        loaded: Any = ENGINE.load_sides(args.list_a, args.list_b, None)
        setup = ENGINE.prepare(
            loaded.cards, loaded.lists, policies=("greedy", "greedy"), options={},
            scenario=args.scenario,
        )  # fmt: skip
        events, _, _ = trace_events(ENGINE, setup, args.trace, args.seed)
        comp = setup.extra
        figures = positions_at(events, len(comp.fig_names), args.turn)
        labels, sides = comp.fig_names, comp.fig_sides
        when = "the end" if args.turn is None else f"Player Turn {args.turn}"
        note = f"\nmatch {args.trace}, seed {args.seed}: figures after {when}"
    print(render(scen, args.out, figures, labels, sides, note))


if __name__ == "__main__":
    main()
