"""Mission difficulty: success rate with a 95% CI per mission x ROSTER x HOSTILE FORCES, as
a table and a chart, and the "fair" HOSTILE force size (the fair-cost form of a
co-operative game: the number of HOSTILE units at which a ROSTER succeeds 50% of the time).

Run: ``python -m analyzer.games.degenesis.match.difficulty OUT_DIR [MATCHES]`` (the bundled
missions, rosters and hostile forces).  Every cell uses the same seed (common random
numbers).  The force of size k is the first k units of the HOSTILE list (its
CHAMPIONS first, then the others in list order); the fair size is interpolated
linearly where the success rate crosses 50% (``None`` when it never does).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from analyzer.games.degenesis.match import compile as C
from analyzer.games.degenesis.match.engine import ENGINE
from analyzer.match.options import check_match_options
from analyzer.match.runner import run_records
from analyzer.paths import system_config
from analyzer.stats import wilson_interval


@dataclass(frozen=True)
class Cell:
    mission: str
    roster: str
    hostile: str
    units: int  # HOSTILE units in the force
    successes: int
    n: int

    @property
    def rate(self) -> float:
        return self.successes / self.n

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.successes, self.n)


def success_cell(cards: Any, roster: Any, hostile: Any, mission: str, n: int, seed: int) -> Cell:
    """Greedy against greedy: mission successes in ``n`` missions."""
    setup = ENGINE.prepare(cards, (roster, hostile), policies=("greedy", "greedy"),
                           options=check_match_options(ENGINE, {}), scenario=mission)  # fmt: skip
    rec, _ = run_records(ENGINE, setup, n, seed)
    units = sum(e.count for e in hostile.units)
    return Cell(mission, roster.name, hostile.name, units, int((rec[:, 0] == 1).sum()), n)


def truncated(hostile: Any, k: int, cards: Any) -> Any:
    """The first ``k`` units of a HOSTILE list, CHAMPIONS first (a hunt needs one), then
    the others in list order (counts expanded)."""
    entries = []
    left = k
    ordered = sorted(hostile.units, key=lambda e: cards[e.unit].kind != "champion")
    for e in ordered:
        if left <= 0:
            break
        entries.append(e.model_copy(update={"count": min(e.count, left)}))
        left -= entries[-1].count
    return hostile.model_copy(update={"units": entries, "name": f"{hostile.name} ({k} units)"})


def fair_size(cells: list[Cell]) -> float | None:
    """The force size where the success rate crosses 50% (linear interpolation)."""
    cells = sorted(cells, key=lambda c: c.units)
    for a, b in pairwise(cells):
        if a.rate >= 0.5 > b.rate:
            return a.units + (a.rate - 0.5) / (a.rate - b.rate) * (b.units - a.units)
    return None


def table(cells: list[Cell]) -> str:
    lines = [f"{'mission':22s} {'roster':26s} {'hostile':24s} {'units':>5s}  success [95% CI]"]
    for c in cells:
        lo, hi = c.ci95
        lines.append(f"{c.mission:22s} {c.roster:26s} {c.hostile:24s} {c.units:5d}  "
                     f"{100 * c.rate:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]")  # fmt: skip
    return "\n".join(lines)


def chart(cells: list[Cell], out: Path) -> Path:
    """Success rate with its 95% CI against the HOSTILE force size, one line per mission x
    ROSTER."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for key in sorted({(c.mission, c.roster) for c in cells}):
        own = sorted((c for c in cells if (c.mission, c.roster) == key), key=lambda c: c.units)
        x = [c.units for c in own]
        y = [c.rate for c in own]
        err = [
            [max(c.rate - c.ci95[0], 0.0) for c in own],
            [max(c.ci95[1] - c.rate, 0.0) for c in own],
        ]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=f"{key[0]}, {key[1]}")
    ax.axhline(0.5, color="grey", ls=":")
    ax.set_xlabel("HOSTILE units")
    ax.set_ylabel("mission success (greedy vs greedy)")
    ax.legend(fontsize=6)
    fig.savefig(out, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return out


def difficulty_report(out_dir: Path, n: int = 400, seed: int = 2026) -> dict[str, Any]:
    """The bundled rosters x missions against growing slices of the bundled HOSTILE force."""
    out_dir.mkdir(parents=True, exist_ok=True)
    cards, _ = ENGINE.load_cards(None)
    lists = system_config("degenesis", "lists")
    rosters = [ENGINE.load_list(p, cards) for p in sorted(lists.glob("*roster*.yaml"))]
    hostile = ENGINE.load_list(ENGINE.sample_sides()[1], cards)
    total = sum(e.count for e in hostile.units)
    cells = []
    fair: dict[str, float | None] = {}
    for mission in C.bundled_missions():
        for roster in rosters:
            own = []
            for k in range(2, total + 1, 2):
                own.append(
                    success_cell(cards, roster, truncated(hostile, k, cards), mission, n, seed)
                )
            cells += own
            fair[f"{mission} / {roster.name}"] = fair_size(own)
    (out_dir / "difficulty.txt").write_text(table(cells) + "\n")
    chart(cells, out_dir / "difficulty.png")
    return {"cells": cells, "fair_size": fair}


if __name__ == "__main__":  # pragma: no cover - command line
    result = difficulty_report(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 400)
    print(table(result["cells"]))
    for key, size in result["fair_size"].items():
        print(f"fair HOSTILE size (50% success) {key}: {size if size is None else round(size, 2)}")
