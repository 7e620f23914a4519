"""Point efficiency: every unit against a reference field of opponents.

For each unit ``u`` and opponent ``v`` of the field the table holds, one row per metric:

* ``wounds_dealt_per_activation``: exact expected wounds of one activation of ``u``
  against a fresh ``v`` in contact (the system's ``activation_summary``);
* ``wounds_dealt_per_point``: the same divided by the points of ``u``;
* ``wounds_taken_per_activation``: exact expected wounds of one activation of ``v`` on ``u``;
* ``kill_probability``: probability that one activation of ``u`` removes a fresh ``v``;
* ``duel_win_rate``, ``duel_draw_rate``: the duel (Monte Carlo estimate, exact
  Markov answer alongside), first activation alternated;
* ``duel_score``: win rate plus half the draw rate.

Per unit, against the whole field (``opponent = "(field)"``):

* the field means of the metrics above;
* ``value_index``: expected opponent points removed in a one-on-one duel,
  ``mean_v score(u, v) * points(v)``;
* ``value_per_point``: ``value_index / points(u)``, the headline figure;
* ``fair_cost``: the cost at which ``u``'s value per point would equal the
  field median, ``value_index(u) / median_w value_per_point(w)``.

The ``method`` column says how a row was obtained: ``exact`` (from the exact roll and
Markov-chain distributions: ``n`` 0 and SE 0 by construction) or ``monte carlo``.

Standard errors of the aggregates propagate the duels' independent Monte
Carlo errors; exact metrics have SE 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pydantic import Field

from analyzer.analysis.duel import duel_cards
from analyzer.config.loader import Problems, load_model
from analyzer.config.models import StrictModel
from analyzer.duels import DuelOptions, DuelResult
from analyzer.errors import unknown_name
from analyzer.games import system_module
from analyzer.outputs import write_table
from analyzer.provenance import data_hash, versions
from analyzer.stats import Z95

FIELD = "(field)"
COLUMNS = [
    "system",
    "unit",
    "opponent",
    "metric",
    "method",
    "n",
    "estimate",
    "se",
    "ci_low",
    "ci_high",
    "exact",
    "seed",
]


class FieldFile(StrictModel):
    """``--field FIELD.yaml``: the opponents every unit is measured against.

    ``opponents`` are unit names (duels, value per point); ``lists`` are army list files
    (matches: ``analyzer fair-cost`` plays the lists holding the unit against the others).
    """

    system: str
    opponents: list[str] = Field(default_factory=list)
    lists: list[str] = Field(default_factory=list)


def _load_field_file(path: str | Path, system: str) -> tuple[FieldFile, Problems]:
    """The field file, its ``system`` checked, and ``opponents`` and ``lists`` not both given."""
    data, doc = load_model(path, FieldFile)
    problems = Problems(path, doc)
    if data.system != system:
        problems.add(["system"], f"expected {system!r}, found {data.system!r}")
    if data.opponents and data.lists:
        problems.add(
            ["lists"],
            "give either 'opponents' (unit names: duel value) or 'lists' (army list files: "
            "matches), not both",
        )
    return data, problems


def load_field(path: str | Path, cards: dict[str, Any], system: str) -> list[str]:
    """Opponent names from a field file, each checked against the cards."""
    data, problems = _load_field_file(path, system)
    for i, name in enumerate(data.opponents):
        if name not in cards:
            problems.add(["opponents", i], unknown_name("unit", name, cards))
    if not data.opponents and not data.lists:
        problems.add(["opponents"], "names no opponent units (this use needs unit names)")
    elif not data.opponents:
        problems.add(
            ["lists"], "names army lists, but this use needs unit names ('opponents: [...]')"
        )
    problems.raise_if_any()
    return list(data.opponents)


def field_lists(path: str | Path, system: str) -> list[Path] | None:
    """The army list files of a field file (None if it names none), each found on disk.

    Relative paths are looked up from the current folder, the field file's folder and the
    project root.
    """
    from analyzer.experiments.spec import find_file

    data, problems = _load_field_file(path, system)
    found: list[Path] = []
    for i, text in enumerate(data.lists):
        try:
            found.append(find_file(text, Path(path).parent))
        except ValueError as err:
            problems.add(["lists", i], str(err))
    problems.raise_if_any()
    return found or None


def _row(
    unit: str, opponent: str, metric: str, estimate: float, se: float, n: int, exact: float | None
) -> dict[str, Any]:
    return {
        "unit": unit,
        "opponent": opponent,
        "metric": metric,
        # exact metrics (expected wounds, kill chances) have no trials: n 0, SE 0
        "method": "exact" if n == 0 else "monte carlo",
        "n": n,
        "estimate": estimate,
        "se": se,
        "ci_low": estimate - Z95 * se,
        "ci_high": estimate + Z95 * se,
        "exact": exact,
    }


def _duel_rows(unit: str, opponent: str, result: DuelResult, as_a: bool) -> list[dict[str, Any]]:
    win, lose = (result.win_a, result.win_b) if as_a else (result.win_b, result.win_a)
    draw = result.draw
    rows = []
    for metric, est in (("duel_win_rate", win), ("duel_draw_rate", draw)):
        value = est.mc if est.mc is not None else est.exact
        rows.append(
            _row(
                unit,
                opponent,
                metric,
                float(value or 0.0),
                float(est.se or 0.0),
                result.trials,
                est.exact,
            )
        )
    # score = win + draw / 2 = (1 + win - lose) / 2; its SE from the multinomial
    n = max(result.trials, 1)
    if win.mc is not None and lose.mc is not None:
        score = 0.5 * (1 + win.mc - lose.mc)
        var = (win.mc + lose.mc - (win.mc - lose.mc) ** 2) / 4 / n
        se = math.sqrt(max(var, 0.0))
    else:
        score, se = 0.5 * (1 + (win.exact or 0) - (lose.exact or 0)), 0.0
    exact = None
    if win.exact is not None and lose.exact is not None:
        exact = 0.5 * (1 + win.exact - lose.exact)
    rows.append(_row(unit, opponent, "duel_score", score, se, result.trials, exact))
    return rows


def value_table(
    system: str,
    cards: dict[str, Any],
    field: Sequence[str] | None,
    trials: int,
    seed: int,
    options: DuelOptions | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    rule_options: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """The tidy point-efficiency table (see the module docstring for the metrics).

    ``progress(done, total, label)`` is called after each duel."""
    options = options or DuelOptions()
    duel_module = system_module(system, "duel")
    # units without a points cost (Rapture's "Ø") have no value per point: opponents only
    names = [u for u in cards if cards[u].points > 0]
    opponents = {u: [v for v in (field or list(cards)) if v != u] for u in names}
    pairs = sorted({_pair(u, v) for u in names for v in opponents[u]})
    duels: dict[tuple[str, str], DuelResult] = {}
    for i, (u, v) in enumerate(pairs):
        # one task per unordered pair: its position in the sorted pair list
        duels[(u, v)] = duel_cards(
            system, cards[u], cards[v], options, trials, seed, rule_options, task=(i,)
        )
        if progress:
            progress(i + 1, len(pairs), f"{u} vs {v}")
    rows: list[dict[str, Any]] = []
    for u in names:
        points_u = cards[u].points
        for v in opponents[u]:
            dealt = duel_module.activation_summary(cards[u], cards[v])
            taken = duel_module.activation_summary(cards[v], cards[u])
            rows.append(
                _row(
                    u,
                    v,
                    "wounds_dealt_per_activation",
                    dealt.expected_wounds,
                    0.0,
                    0,
                    dealt.expected_wounds,
                )
            )
            per_point = dealt.expected_wounds / points_u if points_u else float("nan")
            rows.append(_row(u, v, "wounds_dealt_per_point", per_point, 0.0, 0, per_point))
            rows.append(
                _row(
                    u,
                    v,
                    "wounds_taken_per_activation",
                    taken.expected_wounds,
                    0.0,
                    0,
                    taken.expected_wounds,
                )
            )
            rows.append(
                _row(
                    u, v, "kill_probability", dealt.kill_probability, 0.0, 0, dealt.kill_probability
                )
            )
            key = _pair(u, v)
            rows += _duel_rows(u, v, duels[key], as_a=(key[0] == u))
    table = pd.DataFrame(rows)
    table = pd.concat([table, _field_rows(table, cards)], ignore_index=True)
    table.insert(0, "system", system)
    table["seed"] = seed
    return table.assign(**versions())


def _pair(u: str, v: str) -> tuple[str, str]:
    """The unordered pair (u, v) in a canonical order: one duel serves both directions."""
    return (u, v) if u <= v else (v, u)


def _field_rows(pairs: pd.DataFrame, cards: dict[str, Any]) -> pd.DataFrame:
    """Per-unit aggregates over the field, value index and fair cost."""
    rows: list[dict[str, Any]] = []
    value: dict[str, tuple[float, float, float | None]] = {}
    for unit_key, group in pairs.groupby("unit", sort=False):
        unit = str(unit_key)
        for metric, g in group.groupby("metric", sort=False):
            k = len(g)
            se = float(np.sqrt((g["se"] ** 2).sum()) / k)
            exact = None if g["exact"].isna().any() else float(g["exact"].mean())
            rows.append(
                _row(
                    unit,
                    FIELD,
                    str(metric),
                    float(g["estimate"].mean()),
                    se,
                    int(g["n"].sum()),
                    exact,
                )
            )
        score = group[group["metric"] == "duel_score"]
        pts = np.array([cards[v].points for v in score["opponent"]], dtype=float)
        k = len(score)
        idx = float((score["estimate"].to_numpy() * pts).sum() / k)
        idx_se = float(np.sqrt(((score["se"].to_numpy() * pts) ** 2).sum()) / k)
        idx_exact = None
        if not score["exact"].isna().any():
            idx_exact = float((score["exact"].to_numpy(dtype=float) * pts).sum() / k)
        n = int(score["n"].sum())
        rows.append(_row(unit, FIELD, "value_index", idx, idx_se, n, idx_exact))
        own = cards[unit].points
        vpp = idx / own if own else float("nan")
        vpp_se = idx_se / own if own else float("nan")
        vpp_exact = idx_exact / own if (own and idx_exact is not None) else None
        rows.append(_row(unit, FIELD, "value_per_point", vpp, vpp_se, n, vpp_exact))
        value[unit] = (idx, idx_se, vpp)
    median_vpp = float(np.nanmedian([v[2] for v in value.values()]))
    for unit, (idx, idx_se, _) in value.items():
        fair = idx / median_vpp if median_vpp > 0 else float("nan")
        fair_se = idx_se / median_vpp if median_vpp > 0 else float("nan")
        rows.append(_row(unit, FIELD, "fair_cost", fair, fair_se, 0, None))
    return pd.DataFrame(rows)


#: How ``value`` prices a unit, in words (printed under its table and in its report).
VALUE_CRITERION = (
    "fair cost = the unit's value index divided by the field's median value per point, "
    "all at today's costs (one evaluation; `analyzer fair-cost` instead re-measures the "
    "whole field at each candidate cost, against the field file it is given, so the two "
    "answers differ when their fields differ)"
)


def field_description(
    units_path: Path, field_file: str | Path | None, field: Sequence[str] | None
) -> str:
    """Which opponents a value table measured every unit against, in words."""
    if field_file is None:
        return f"every other unit of {units_path}"
    return f"the {len(field or [])} opponents of {field_file} ({', '.join(field or [])})"


def unit_summary(table: pd.DataFrame, cards: dict[str, Any]) -> pd.DataFrame:
    """One row per unit: points and the field-level metrics (estimate and SE), best first."""
    field_rows = table[table["opponent"] == FIELD]
    wide = field_rows.pivot(index="unit", columns="metric", values="estimate")
    se = field_rows.pivot(index="unit", columns="metric", values="se").add_suffix("_se")
    out = wide.join(se)
    out.insert(0, "points", [cards[u].points for u in out.index])
    return out.sort_values("value_per_point", ascending=False)


def write_outputs(
    table: pd.DataFrame, out_dir: Path, inputs: Sequence[Path], system: str
) -> dict[str, Path]:
    """Parquet and CSV of the tidy table (with the data hash) into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    table = table.assign(rules_hash=data_hash(*inputs, system=system))
    paths = {"parquet": out_dir / "value.parquet", "csv": out_dir / "value.csv"}
    write_table(table, paths["parquet"])
    write_table(table, paths["csv"])
    return paths
