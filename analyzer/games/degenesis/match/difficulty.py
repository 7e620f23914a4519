"""Mission difficulty: success rate with a 95% CI per mission x ROSTER x HOSTILE FORCES, as
a table and a chart, and the "fair" HOSTILE force size (the fair-cost form of a
co-operative game: the number of HOSTILE units at which a ROSTER succeeds 50% of the time).

Run: ``analyzer difficulty degenesis --out OUT_DIR [--matches N]
[--seed S] [--mission M ...] [--roster R.yaml ...] [--hostile H.yaml] [--step K]``
(default: the bundled missions, rosters and hostile forces).  Every cell uses the same
seed (common random numbers).  The force of size k is the HOSTILE list scaled to k units
with its mix kept (``scaled``: CHAMPIONS first, nested sizes, list order kept); the fair size is
interpolated linearly where the success rate crosses 50% (``None`` when it never does),
its 95% CI where the cells' pointwise 95% Wilson bounds cross 50% (open-ended, ``None``,
when a bound never does within the sizes played).  Writes ``difficulty.txt``,
``difficulty.png`` and ``difficulty.json``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from analyzer.games.degenesis.match import compile as C
from analyzer.games.degenesis.match.engine import ENGINE
from analyzer.match.options import check_match_options
from analyzer.match.runner import run_records
from analyzer.outputs import atomic_write, atomic_write_json, atomic_write_text, writable_dir
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


def scaled(hostile: Any, k: int, cards: Any) -> Any:
    """The HOSTILE list scaled to ``k`` units with its mix kept: CHAMPIONS first (a hunt
    needs one), then one unit at a time to the entry furthest below its share of the
    full list (largest ``count / (taken + 1)``, ties in list order: the D'Hondt divisor
    rule, so the force of ``k + 1`` units is the force of ``k`` and one unit more), the
    entries kept in list order (the order of the units changes the greedy HOSTILE's
    play: its ties go to the first unit)."""
    champions = [e for e in hostile.units if cards[e.unit].kind == "champion"]
    others = [e for e in hostile.units if cards[e.unit].kind != "champion"]
    counts: dict[int, int] = {}  # list entry (by identity) -> units taken
    left = k
    for e in champions:
        if left > 0:
            counts[id(e)] = min(e.count, left)
            left -= counts[id(e)]
    taken = [0] * len(others)
    for _ in range(max(left, 0)):
        if not others:
            break
        i = max(range(len(others)), key=lambda j: (others[j].count / (taken[j] + 1), -j))
        taken[i] += 1
    counts.update({id(e): c for e, c in zip(others, taken, strict=True) if c > 0})
    kept = [e.model_copy(update={"count": counts[id(e)]}) for e in hostile.units if id(e) in counts]
    return hostile.model_copy(update={"units": kept, "name": f"{hostile.name} ({k} units)"})


#: How a force of ``k`` units is made from the HOSTILE list (``difficulty_report(grow=)``).
FORCE_SIZES: dict[str, Callable[[Any, int, Any], Any]] = {"mix": scaled, "first": truncated}


def crossing(points: list[tuple[int, float]]) -> float | None:
    """The first size where ``value`` falls from >= 50% to below it (linear interpolation)."""
    for (ua, a), (ub, b) in pairwise(sorted(points)):
        if a >= 0.5 > b:
            return ua + (a - 0.5) / (a - b) * (ub - ua)
    return None


def fair_size(cells: list[Cell]) -> float | None:
    """The force size where the success rate crosses 50% (linear interpolation)."""
    return crossing([(c.units, c.rate) for c in cells])


def fair_size_ci(cells: list[Cell]) -> tuple[float | None, float | None]:
    """95% CI of the fair size: where the lower and the upper pointwise Wilson bounds of
    the success rate cross 50% (``None``: that bound does not cross within the sizes)."""
    low = crossing([(c.units, c.ci95[0]) for c in cells])
    high = crossing([(c.units, c.ci95[1]) for c in cells])
    return low, high


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
    atomic_write(out, lambda tmp: fig.savefig(tmp, dpi=110, format="png", bbox_inches="tight"))
    plt.close(fig)
    return out


def _no_progress(total: int) -> Any:
    """A progress bar that reports nothing."""
    from tqdm import tqdm

    return tqdm(total=total, disable=True)


def difficulty_report(
    out_dir: Path,
    n: int = 400,
    seed: int = 2026,
    missions: list[str] | None = None,
    rosters: list[Path] | None = None,
    hostile: Path | None = None,
    step: int = 2,
    progress: Callable[[int], Any] | None = None,
    grow: str = "mix",
) -> dict[str, Any]:
    """Rosters x missions (default: all bundled) against growing slices (``step`` units
    apart) of a HOSTILE force (default: the sample one).  ``progress(total)`` (e.g.
    :func:`analyzer.progress.progress_bar`) makes a context manager whose ``update(n)`` is
    told of every ``n`` missions played.  ``grow``: how a force of k units is made
    (``FORCE_SIZES``: "mix" the whole force scaled, "first" its first k units)."""
    out_dir = writable_dir(out_dir, "OUT")
    cards, _ = ENGINE.load_cards(None)
    lists = system_config("degenesis", "lists")
    roster_files = rosters or sorted(lists.glob("*roster*.yaml"))
    roster_lists = [ENGINE.load_list(p, cards) for p in roster_files]
    force = ENGINE.load_list(hostile or ENGINE.sample_sides()[1], cards)
    total = sum(e.count for e in force.units)
    cells = []
    fair: dict[str, dict[str, Any]] = {}
    missions = missions or C.bundled_missions()
    sizes = range(step, total + 1, step)
    bar = (progress or _no_progress)(n * len(sizes) * len(missions) * len(roster_lists))
    with bar:
        for mission in missions:
            for roster in roster_lists:
                own = []
                for k in sizes:
                    force_k = FORCE_SIZES[grow](force, k, cards)
                    own.append(success_cell(cards, roster, force_k, mission, n, seed))
                    bar.update(n)
                cells += own
                fair[f"{mission} / {roster.name}"] = {
                    "fair_size": fair_size(own),
                    "ci95": list(fair_size_ci(own)),
                }
    atomic_write_text(out_dir / "difficulty.txt", table(cells) + "\n" + fair_lines(fair) + "\n")
    chart(cells, out_dir / "difficulty.png")
    rows = [{**c.__dict__, "rate": c.rate, "ci95": list(c.ci95)} for c in cells]
    atomic_write_json(out_dir / "difficulty.json", {"cells": rows, "fair": fair}, indent=1)
    return {"cells": cells, "fair_size": fair}


def _fmt(x: float | None) -> str:
    return "none" if x is None else f"{x:.2f}"


def fair_lines(fair: dict[str, dict[str, Any]]) -> str:
    """One line per mission x roster: the fair HOSTILE size and its 95% CI."""
    return "\n".join(
        f"fair HOSTILE size (50% success) {key}: {_fmt(v['fair_size'])} "
        f"[95% CI {_fmt(v['ci95'][0])}, {_fmt(v['ci95'][1])}]"
        for key, v in fair.items()
    )


def main(argv: list[str] | None = None) -> None:
    """``python -m ...difficulty OUT [options]``: the same as ``analyzer difficulty
    degenesis --out OUT [options]``."""
    from analyzer.cli import main as analyzer_main

    args = sys.argv[1:] if argv is None else list(argv)
    if args and not args[0].startswith("-"):
        args = ["--out", *args]
    analyzer_main(["difficulty", "degenesis", *args])


if __name__ == "__main__":  # pragma: no cover - command line
    main()
