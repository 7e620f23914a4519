"""Aggregation of match records into a result: rates with Wilson CIs, margins, per-unit figures."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.match import match_nb as M
from analyzer.games.rapture.match.compile import Compiled
from analyzer.stats import mean_and_se, wilson_interval

if TYPE_CHECKING:
    from analyzer.games.rapture.match import Setup

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
    """Per-unit figures over all matches (``vp_per_point``: VP earned per point of cost)."""

    side: str
    name: str
    kind: str
    points: int
    survival: Rate
    escaped: Rate
    wounds_dealt: float
    wounds_taken: float
    vp_earned: float

    @property
    def vp_per_point(self) -> float:
        return self.vp_earned / self.points if self.points else float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "unit": self.name,
            "type": self.kind,
            "points": self.points,
            "survival": self.survival.to_dict(),
            "escaped": self.escaped.to_dict(),
            "wounds_dealt_mean": self.wounds_dealt,
            "wounds_taken_mean": self.wounds_taken,
            "vp_earned_mean": self.vp_earned,
            "vp_per_point": self.vp_per_point,
        }


@dataclass
class MatchResult:
    """Everything ``analyzer match`` reports about N matches between two battlegroups."""

    list_a: str
    list_b: str
    points: tuple[int, int]
    policy_a: str
    policy_b: str
    matches: int
    seed: int
    scenario: str
    options: dict[str, Any]
    a_wins: Rate
    draws: Rate
    b_wins: Rate
    vp_a_mean: float
    vp_b_mean: float
    margin_mean: float
    margin_se: float
    margin_quantiles: dict[str, float]
    rounds_mean: float
    rounds_counts: dict[int, int]
    end_reasons: dict[str, int]
    first_a: Rate
    first_player_wins: Rate
    first_player_loses: Rate
    bonus_a: Rate
    bonus_b: Rate
    missions: list[dict[str, Any]]
    units: list[UnitStats]
    activations_mean: float
    actions_mean: float
    violations: int
    provenance: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": "rapture",
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
            "victory_points": {
                "a_mean": self.vp_a_mean,
                "b_mean": self.vp_b_mean,
                "margin_mean": self.margin_mean,
                "margin_se": self.margin_se,
                "margin_quantiles": self.margin_quantiles,
            },
            "rounds": {"mean": self.rounds_mean, "counts": self.rounds_counts},
            "end_reasons": self.end_reasons,
            "first_activation": {
                "a_first": self.first_a.to_dict(),
                "first_player_wins": self.first_player_wins.to_dict(),
                "first_player_loses": self.first_player_loses.to_dict(),
            },
            "bonus_30": {"a": self.bonus_a.to_dict(), "b": self.bonus_b.to_dict()},
            "missions": self.missions,
            "units": [u.to_dict() for u in self.units],
            "activity": {
                "activations_mean": self.activations_mean,
                "actions_mean": self.actions_mean,
            },
            "invariant_violations": self.violations,
            "provenance": self.provenance,
            "notes": self.notes,
        }


def summarize(
    rec: np.ndarray,
    urec: np.ndarray,
    comp: Compiled,
    mission_names: list[str],
    *,
    policy_a: str,
    policy_b: str,
    seed: int,
    scenario: str,
    options: dict[str, Any],
    provenance: dict[str, str],
    notes: list[str],
) -> MatchResult:
    """Aggregate per-match records (``match_nb.R_*``, ``U_*``) into a :class:`MatchResult`."""
    n = rec.shape[0]
    vp_a = rec[:, M.R_VP0]
    vp_b = rec[:, M.R_VP1]
    margin = vp_a - vp_b
    a_win = int((margin > 0).sum())
    b_win = int((margin < 0).sum())
    draw = n - a_win - b_win
    values, counts = np.unique(margin, return_counts=True)
    m_mean, m_se = mean_and_se(values.astype(float), counts)
    quant = {f"q{int(q * 100):02d}": float(np.quantile(margin, q)) for q in QUANTILES}
    rounds = rec[:, M.R_ROUNDS]
    ends = np.bincount(rec[:, M.R_END], minlength=len(L.END_NAMES))
    first = rec[:, M.R_FIRST1]
    first_won = int(((first == 0) & (margin > 0)).sum() + ((first == 1) & (margin < 0)).sum())
    first_lost = int(((first == 0) & (margin < 0)).sum() + ((first == 1) & (margin > 0)).sum())
    missions = []
    for side, col, mvp in ((0, M.R_MIS0, M.R_MVP0), (1, M.R_MIS1, M.R_MVP1)):
        for k, name in enumerate(mission_names):
            drawn = rec[:, col] == k
            if drawn.any():
                missions.append(
                    {
                        "side": "AB"[side],
                        "mission": name,
                        "drawn": int(drawn.sum()),
                        "mission_vp_mean": float(rec[drawn, mvp].mean()),
                    }
                )
    units = []
    for info in comp.units:
        status = urec[:, info.index, M.U_STATUS]
        units.append(
            UnitStats(
                side="AB"[info.side],
                name=info.name,
                kind=info.kind,
                points=info.points,
                survival=Rate(int((status == 0).sum()), n),
                escaped=Rate(int((status == 2).sum()), n),
                wounds_dealt=float(urec[:, info.index, M.U_DEALT].mean()),
                wounds_taken=float(urec[:, info.index, M.U_TAKEN].mean()),
                vp_earned=float(urec[:, info.index, M.U_VP].mean()),
            )
        )
    return MatchResult(
        list_a=comp.list_names[0],
        list_b=comp.list_names[1],
        points=comp.list_points,
        policy_a=policy_a,
        policy_b=policy_b,
        matches=n,
        seed=seed,
        scenario=scenario,
        options=options,
        a_wins=Rate(a_win, n),
        draws=Rate(draw, n),
        b_wins=Rate(b_win, n),
        vp_a_mean=float(vp_a.mean()),
        vp_b_mean=float(vp_b.mean()),
        margin_mean=m_mean,
        margin_se=m_se,
        margin_quantiles=quant,
        rounds_mean=float(rounds.mean()),
        rounds_counts={int(r): int(c) for r, c in zip(*np.unique(rounds, return_counts=True))},
        end_reasons={name: int(c) for name, c in zip(L.END_NAMES, ends)},
        first_a=Rate(int((first == 0).sum()), n),
        first_player_wins=Rate(first_won, n),
        first_player_loses=Rate(first_lost, n),
        bonus_a=Rate(int(rec[:, M.R_BONUS0].sum()), n),
        bonus_b=Rate(int(rec[:, M.R_BONUS1].sum()), n),
        missions=missions,
        units=units,
        activations_mean=float(rec[:, M.R_ACTIVATIONS].mean()),
        actions_mean=float(rec[:, M.R_ACTIONS].mean()),
        violations=int(rec[:, M.R_VIOL].sum()),
        provenance=provenance,
        notes=notes,
    )


# ------------------------------------------------------------------ render
def _pct(rate: Rate) -> str:
    lo, hi = rate.ci95
    return f"{100 * rate.rate:5.1f}%  [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def _rows(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    out = [
        "  ".join(
            h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths))
        )
    ]
    out.append("  ".join("-" * w for w in widths))
    for r in rows:
        out.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))
            )
        )
    return "\n".join(out)


def _se(value: float, n: int) -> str:
    """A standard error, or ``–`` where there is none (fewer than two matches)."""
    return f"{value:.2f}" if n >= 2 and math.isfinite(value) else "–"


def render_table(res: MatchResult, traced: int | None = None) -> str:
    """The human-readable summary (``traced``: the match whose play-by-play precedes it)."""
    covered = f"matches {res.matches:,}"
    if traced is not None:
        covered += f" (matches 0..{res.matches - 1:,}, including match {traced} traced above)"
    lines = [
        f"rapture match: A {res.list_a} ({res.points[0]} pts, {res.policy_a}) vs "
        f"B {res.list_b} ({res.points[1]} pts, {res.policy_b})",
        f"{covered}  seed {res.seed}  terrain {res.scenario}",
        "",
        _rows(
            ["result", "rate  [95% CI]"],
            [
                ["A wins", _pct(res.a_wins)],
                ["draw", _pct(res.draws)],
                ["B wins", _pct(res.b_wins)],
            ],
        ),
        "",
        f"victory points: A {res.vp_a_mean:.1f}, B {res.vp_b_mean:.1f}; margin A-B "
        f"{res.margin_mean:+.2f} (se {_se(res.margin_se, res.matches)}); quantiles "
        + ", ".join(f"{k} {v:+.0f}" for k, v in res.margin_quantiles.items()),
        f"rounds played: mean {res.rounds_mean:.2f}; "
        + ", ".join(f"{r}: {c}" for r, c in res.rounds_counts.items()),
        "game ended: " + "; ".join(f"{k}: {v}" for k, v in res.end_reasons.items() if v),
        f"first activation (round 1): A first in {_pct(res.first_a)}; the first player won "
        f"{_pct(res.first_player_wins)}, lost {_pct(res.first_player_loses)}",
        f"30-point bonus: A {_pct(res.bonus_a)}, B {_pct(res.bonus_b)}",
    ]
    if res.missions:
        lines.append("")
        lines.append(
            _rows(
                ["mission", "side", "drawn", "mission VP"],
                [
                    [m["mission"], m["side"], str(m["drawn"]), f"{m['mission_vp_mean']:.1f}"]
                    for m in res.missions
                ],
            )
        )
    lines.append("")
    lines.append(
        _rows(
            [
                "unit",
                "side",
                "pts",
                "survival [95% CI]",
                "escaped",
                "wounds dealt",
                "wounds taken",
                "VP earned",
                "VP/pt",
            ],
            [
                [
                    u.name,
                    u.side,
                    str(u.points),
                    _pct(u.survival),
                    f"{100 * u.escaped.rate:.1f}%",
                    f"{u.wounds_dealt:.2f}",
                    f"{u.wounds_taken:.2f}",
                    f"{u.vp_earned:.2f}",
                    f"{u.vp_per_point:.3f}",
                ]
                for u in res.units
            ],
        )
    )
    lines.append("")
    lines.append(
        f"activations per match {res.activations_mean:.1f}, actions {res.actions_mean:.1f}"
    )
    for note in res.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def _finite(value: Any) -> Any:
    """``value`` with NaN and infinities as ``None`` (JSON has no NaN: ``null``)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def _trace_doc(trace: tuple[int, list[str]]) -> dict[str, Any]:
    return {"match": trace[0], "lines": list(trace[1])}


def render_json(res: MatchResult, trace: tuple[int, list[str]] | None = None) -> str:
    """The JSON document; with ``trace`` = (K, lines), the play-by-play of match K under
    ``trace`` (``{"match": K, "lines": [...]}``).  Undefined figures (an SE of one match)
    are ``null``."""
    doc = res.to_dict()
    if trace is not None:
        doc["trace"] = _trace_doc(trace)
    return json.dumps(_finite(doc), indent=2)


def trace_json(setup: Setup, trace: tuple[int, list[str]], seed: int) -> str:
    """The JSON document of a play-by-play alone (no summary: ``--trace K --matches N``
    with K >= N)."""
    comp = setup.comp
    doc = {
        "system": "rapture",
        "lists": {"a": comp.list_names[0], "b": comp.list_names[1]},
        "points": {"a": comp.list_points[0], "b": comp.list_points[1]},
        "policies": {"a": setup.options.policy_a, "b": setup.options.policy_b},
        "seed": seed,
        "scenario": setup.scenario_name,
        "trace": _trace_doc(trace),
    }
    return json.dumps(_finite(doc), indent=2)
