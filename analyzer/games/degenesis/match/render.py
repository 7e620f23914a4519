"""A mission's FIELD as a PNG: TILES shaded by ELEVATION, HARD TERRAIN hatched, cliffs as
dashed red BORDERS ("Elevation"), and the SPAWN POINTS, EXIT POINTS, OSP, OBJECTIVES and
THREATS of the field setup.

Run: ``python -m analyzer.games.degenesis.match.render MISSION OUT.png`` (MISSION: a
bundled name or a file).
"""

from __future__ import annotations

import sys
from pathlib import Path

from analyzer.games.degenesis.match import compile as C
from analyzer.games.degenesis.match import layout as L

MARKS = (
    (L.T_SPAWN, "S", "spawn point"),
    (L.T_OBJ, "*", "objective"),
    (L.T_CHAMP, "C", "champion's threat"),
)


def render_field(mission_name: str | Path, out: str | Path) -> Path:
    """Draw the FIELD of ``mission_name`` to ``out`` (PNG); returns the path written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    mission, tables, _ = C.load_mission(mission_name)
    f = tables.field
    fig, ax = plt.subplots(figsize=(1.0 + 0.9 * f.cols, 1.2 + 0.9 * f.rows))
    cmap = plt.get_cmap("YlOrBr")
    for i, (r, c) in enumerate(f.cells):
        row = f.fld[i]
        shade = cmap(0.15 + 0.25 * int(row[L.T_ELEV]))
        hatch = "//" if row[L.T_HARD] else None
        ax.add_patch(Rectangle((c, -r - 1), 1, 1, facecolor=shade, edgecolor="grey", hatch=hatch))
        labels = [f"{int(row[L.T_ELEV])}"]
        labels += [mark for col, mark, _ in MARKS if row[col]]
        if row[L.T_OSP]:
            labels.append("OSP")
        elif row[L.T_EXIT]:
            labels.append("X")
        labels += ["T"] * int(row[L.T_THREATS])
        ax.text(c + 0.5, -r - 0.5, " ".join(labels), ha="center", va="center", fontsize=8)
    for a, near in enumerate(tables.nbr):
        for b in near:
            if b > a and abs(int(f.fld[a, L.T_ELEV] - f.fld[b, L.T_ELEV])) > C.MAX_CLIMB:
                (ra, ca), (rb, cb) = f.cells[a], f.cells[b]
                if ra == rb:
                    x = max(ca, cb)
                    ax.plot([x, x], [-ra - 1, -ra], "r--", lw=2)
                else:
                    y = -max(ra, rb)
                    ax.plot([ca, ca + 1], [y, y], "r--", lw=2)
    ax.set_xlim(-0.1, f.cols + 0.1)
    ax.set_ylim(-f.rows - 0.1, 0.1)
    ax.set_aspect("equal")
    ax.axis("off")
    key = "ELEVATION digits, // HARD TERRAIN, red dashes cliffs, S spawn, X exit, * objective"
    ax.set_title(f"{mission.name} ({mission.kind}; designed here)\n{key}, T threat", fontsize=8)
    out = Path(out)
    fig.savefig(out, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> None:
    """``MISSION OUT.png``: render, print the file written; bad input is one line, exit 2."""
    from analyzer.errors import AnalyzerError

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m analyzer.games.degenesis.match.render MISSION OUT.png",
              file=sys.stderr)  # fmt: skip
        raise SystemExit(2)
    try:
        print(render_field(args[0], args[1]))
    except AnalyzerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":  # pragma: no cover - command line
    main()
