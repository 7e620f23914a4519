"""Match records -> :class:`MatchResult`: W/D/L with Wilson CIs, score margin, rounds,
end reasons, the first-player edge and per-unit figures, for any engine.

The standard record columns (:mod:`analyzer.match.contract`) give everything here; an
engine adds its own figures through ``report_extras`` / ``render_extras``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyzer.match import contract as C
from analyzer.stats import mean_and_se, wilson_interval

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% Wilson interval."""

    count: int
    n: int

    @property
    def rate(self) -> float:
        return self.count / self.n if self.n else float("nan")

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.count, self.n)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.ci95
        return {"rate": self.rate, "ci95": [lo, hi], "count": self.count, "n": self.n}


@dataclass(frozen=True)
class UnitStats:
    """Per-unit figures over all matches (``score_per_point``: score earned per point)."""

    side: str
    name: str
    kind: str
    points: int
    survival: Rate
    left_table: Rate
    dealt: float
    taken: float
    score: float

    @property
    def score_per_point(self) -> float:
        return self.score / self.points if self.points else float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "unit": self.name,
            "type": self.kind,
            "points": self.points,
            "survival": self.survival.to_dict(),
            "left_table": self.left_table.to_dict(),
            "dealt_mean": self.dealt,
            "taken_mean": self.taken,
            "score_mean": self.score,
            "score_per_point": self.score_per_point,
        }


@dataclass
class MatchResult:
    """Everything ``analyzer match SYSTEM`` reports about N matches between two sides."""

    system: str
    list_a: str
    list_b: str
    points: tuple[int, int]
    policy_a: str
    policy_b: str
    matches: int
    seed: int
    scenario: str
    options: dict[str, Any]
    score_name: str
    damage_name: str
    a_wins: Rate
    draws: Rate
    b_wins: Rate
    score_a_mean: float
    score_b_mean: float
    margin_mean: float
    margin_se: float
    margin_quantiles: dict[str, float]
    rounds_mean: float
    rounds_counts: dict[int, int]
    end_reasons: dict[str, int]
    first_a: Rate
    first_player_wins: Rate
    first_player_loses: Rate
    units: list[UnitStats]
    activations_mean: float
    violations: int
    extras: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    side_names: tuple[str, str] = C.DEFAULT_SIDE_NAMES
    outcome_names: tuple[str, str, str] = C.DEFAULT_OUTCOME_NAMES

    @property
    def score(self) -> float:
        """Side A's score: wins + draws / 2, over all matches."""
        return (self.a_wins.count + 0.5 * self.draws.count) / self.matches

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "lists": {"a": self.list_a, "b": self.list_b},
            "points": {"a": self.points[0], "b": self.points[1]},
            "policies": {"a": self.policy_a, "b": self.policy_b},
            "matches": self.matches,
            "seed": self.seed,
            "scenario": self.scenario,
            "options": self.options,
            "results": {
                "a_wins": self.a_wins.to_dict(),
                "draws": self.draws.to_dict(),
                "b_wins": self.b_wins.to_dict(),
            },
            "score": {
                "name": self.score_name,
                "a_mean": self.score_a_mean,
                "b_mean": self.score_b_mean,
                "margin_mean": self.margin_mean,
                "margin_se": self.margin_se,
                "margin_quantiles": self.margin_quantiles,
            },
            "rounds": {"mean": self.rounds_mean, "counts": self.rounds_counts},
            "end_reasons": self.end_reasons,
            "first_player": {
                "a_first": self.first_a.to_dict(),
                "first_player_wins": self.first_player_wins.to_dict(),
                "first_player_loses": self.first_player_loses.to_dict(),
            },
            "units": [u.to_dict() for u in self.units],
            "damage_name": self.damage_name,
            "activations_mean": self.activations_mean,
            "invariant_violations": self.violations,
            "extras": self.extras,
            "provenance": self.provenance,
            "notes": self.notes,
            "side_names": {"a": self.side_names[0], "b": self.side_names[1]},
            "outcome_names": {
                "draws": self.outcome_names[0],
                "a_wins": self.outcome_names[1],
                "b_wins": self.outcome_names[2],
            },
        }


def summarize(
    engine: C.MatchEngine,
    setup: C.Setup,
    rec: np.ndarray,
    urec: np.ndarray,
    *,
    seed: int,
    provenance: dict[str, str],
) -> MatchResult:
    """Aggregate records of the contract layout into a :class:`MatchResult`."""
    n = rec.shape[0]
    winner = rec[:, C.R_WINNER]
    score_a, score_b = rec[:, C.R_SCORE_A], rec[:, C.R_SCORE_B]
    margin = score_a - score_b
    a_win, b_win = int((winner == 1).sum()), int((winner == 2).sum())
    values, counts = np.unique(margin, return_counts=True)
    m_mean, m_se = mean_and_se(values.astype(float), counts)
    quant = {f"q{int(q * 100):02d}": float(np.quantile(margin, q)) for q in QUANTILES}
    rounds = rec[:, C.R_ROUNDS]
    ends = np.bincount(rec[:, C.R_END], minlength=len(engine.end_reasons))
    first = rec[:, C.R_FIRST]
    first_won = int(((first == 0) & (winner == 1)).sum() + ((first == 1) & (winner == 2)).sum())
    first_lost = int(((first == 0) & (winner == 2)).sum() + ((first == 1) & (winner == 1)).sum())
    units = []
    for u, info in enumerate(setup.units):
        status = urec[:, u, C.U_STATUS]
        units.append(
            UnitStats(
                side="AB"[info.side],
                name=info.name,
                kind=info.kind,
                points=info.points,
                survival=Rate(int((status == C.STATUS_IN_PLAY).sum()), n),
                left_table=Rate(int((status == C.STATUS_LEFT).sum()), n),
                dealt=float(urec[:, u, C.U_DEALT].mean()),
                taken=float(urec[:, u, C.U_TAKEN].mean()),
                score=float(urec[:, u, C.U_SCORE].mean()),
            )
        )
    return MatchResult(
        system=engine.system,
        list_a=setup.list_names[0],
        list_b=setup.list_names[1],
        points=setup.points,
        policy_a=setup.policies[0],
        policy_b=setup.policies[1],
        matches=n,
        seed=seed,
        scenario=setup.scenario,
        options=dict(setup.options),
        score_name=engine.score_name,
        damage_name=engine.damage_name,
        a_wins=Rate(a_win, n),
        draws=Rate(n - a_win - b_win, n),
        b_wins=Rate(b_win, n),
        score_a_mean=float(score_a.mean()),
        score_b_mean=float(score_b.mean()),
        margin_mean=m_mean,
        margin_se=m_se,
        margin_quantiles=quant,
        rounds_mean=float(rounds.mean()),
        rounds_counts={int(r): int(c) for r, c in zip(*np.unique(rounds, return_counts=True))},
        end_reasons={name: int(c) for name, c in zip(engine.end_reasons, ends)},
        first_a=Rate(int((first == 0).sum()), n),
        first_player_wins=Rate(first_won, n),
        first_player_loses=Rate(first_lost, n),
        units=units,
        activations_mean=float(rec[:, C.R_ACTIVATIONS].mean()),
        violations=int(rec[:, C.R_VIOLATIONS].sum()),
        extras=engine.report_extras(setup, rec, urec),
        provenance=provenance,
        notes=list(setup.notes),
        side_names=C.side_names(engine),
        outcome_names=C.outcome_names(engine),
    )


# ------------------------------------------------------------------ render
def pct(rate: Rate) -> str:
    """``rate`` as a percentage with its 95% Wilson interval."""
    lo, hi = rate.ci95
    return f"{100 * rate.rate:5.1f}%  [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def rows_table(header: list[str], rows: list[list[str]]) -> str:
    """A plain-text table: first column left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))
        )

    return "\n".join([line(header), "  ".join("-" * w for w in widths), *map(line, rows)])


def _se(value: float, n: int) -> str:
    """A standard error, or ``–`` where there is none (fewer than two matches)."""
    return f"{value:.2f}" if n >= 2 and math.isfinite(value) else "–"


def render_table(
    engine: C.MatchEngine, res: MatchResult, traced: int | None = None, only_traced: bool = False
) -> str:
    """The human-readable summary (``traced``: the match whose play-by-play precedes it;
    ``only_traced``: the summary is of that match alone)."""
    covered = f"matches {res.matches:,}"
    if only_traced:
        covered = f"match {traced} alone (traced above)"
    elif traced is not None:
        covered += f" (matches 0..{res.matches - 1:,}, including match {traced} traced above)"
    score = res.score_name
    name_a, name_b = res.side_names
    if (name_a, name_b) != C.DEFAULT_SIDE_NAMES:
        name_a, name_b = f"A ({name_a})", f"B ({name_b})"
    draw, a_won, b_won = res.outcome_names
    lines = [
        f"{res.system} match: {name_a} {res.list_a} ({res.points[0]} pts, {res.policy_a}) vs "
        f"{name_b} {res.list_b} ({res.points[1]} pts, {res.policy_b})",
        f"{covered}  seed {res.seed}  {C.scenario_option(engine)} {res.scenario}",
        "",
        rows_table(
            ["result", "rate  [95% CI]"],
            [[a_won, pct(res.a_wins)], [draw, pct(res.draws)], [b_won, pct(res.b_wins)]],
        ),
        "",
        f"{score}: A {res.score_a_mean:.1f}, B {res.score_b_mean:.1f}; margin A-B "
        f"{res.margin_mean:+.2f} (se {_se(res.margin_se, res.matches)}); quantiles "
        + ", ".join(f"{k} {v:+.0f}" for k, v in res.margin_quantiles.items()),
        f"rounds played: mean {res.rounds_mean:.2f}; "
        + ", ".join(f"{r}: {c}" for r, c in res.rounds_counts.items()),
        "game ended: " + "; ".join(f"{k}: {v}" for k, v in res.end_reasons.items() if v),
        f"first player (round 1): A first in {pct(res.first_a)}; the first player won "
        f"{pct(res.first_player_wins)}, lost {pct(res.first_player_loses)}",
    ]
    extra = engine.render_extras(res.extras)
    if extra:
        lines += ["", *extra]
    left = any(u.left_table.count for u in res.units)
    header = ["unit", "side", "pts", "survival [95% CI]"] + (["left table"] if left else [])
    header += [f"{res.damage_name} dealt", f"{res.damage_name} taken", score, f"{score}/pt"]
    rows = []
    for u in res.units:
        row = [u.name, u.side, str(u.points), pct(u.survival)]
        row += [f"{100 * u.left_table.rate:.1f}%"] if left else []
        row += [f"{u.dealt:.2f}", f"{u.taken:.2f}", f"{u.score:.2f}", f"{u.score_per_point:.3f}"]
        rows.append(row)
    lines += ["", rows_table(header, rows), "", f"activations per match {res.activations_mean:.1f}"]
    if res.violations:
        lines.append(f"WARNING: {res.violations} invariant violations")
    lines += [f"note: {note}" for note in res.notes]
    return "\n".join(lines)


def finite(value: Any) -> Any:
    """``value`` with NaN and infinities as ``None`` (JSON has no NaN: ``null``)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def _trace_doc(trace: tuple[int, list[str]]) -> dict[str, Any]:
    return {"match": trace[0], "lines": list(trace[1])}


def render_json(res: MatchResult, trace: tuple[int, list[str]] | None = None) -> str:
    """The JSON document; with ``trace`` = (K, lines), the play-by-play of match K under
    ``trace`` (``{"match": K, "lines": [...]}``).  Undefined figures are ``null``."""
    doc = res.to_dict()
    if trace is not None:
        doc["trace"] = _trace_doc(trace)
    return json.dumps(finite(doc), indent=2)
