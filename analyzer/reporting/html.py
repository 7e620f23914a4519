"""``analyzer report``: one self-contained HTML page from a results folder.

The folder may hold the output of ``analyzer sweep`` (``results.parquet``,
``differences.parquet``, ``monotonicity.parquet``, ``charts/*.png``), of
``analyzer value`` (``value.parquet``, ``summary.csv``, ``*.png``) and of
``analyzer fair-cost`` (``fair_cost*.parquet``, ``fair_cost_trace.csv``) and of
``analyzer compare`` (``compare.json``); every table found becomes a section,
every PNG is embedded (base64), and plain-language findings are written from
the numbers with their 95% confidence intervals.

Every ``±`` on the page is the half-width of a 95% confidence interval (column
headers and findings say so, as :data:`PM`); standard errors appear only in
columns named ``se``.
"""

from __future__ import annotations

import base64
import datetime as dt
import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from jinja2 import Environment, PackageLoader, select_autoescape

from analyzer.errors import InputError
from analyzer.outputs import read_csv, read_json, read_parquet
from analyzer.stats import Z95

# columns of the sweep results table that are not swept parameters
_RESULT_COLUMNS = {
    "sweep", "system", "metric", "cell", "quantity", "n", "blocks", "trials", "estimate", "se",
    "ci_low", "ci_high", "exact", "target_met", "seed", "block_size", "cell_hash", "spec_hash",
    "rules_hash", "analyzer_version", "numpy_version", "numba_version",
}  # fmt: skip
_PROVENANCE = ("seed", "block_size", "spec_hash", "rules_hash", "analyzer_version",
               "numpy_version", "numba_version")  # fmt: skip


#: What every ``a ± b`` of the report means (the text tables of ``analyzer value`` and
#: ``analyzer sweep`` use the same convention).
PM = "± 95% CI"


@dataclass
class Finding:
    text: str
    flag: bool = False


@dataclass
class Section:
    title: str
    columns: list[str]
    rows: list[list[str]]
    text_columns: int = 1
    note: str = ""


@dataclass
class Report:
    title: str
    findings: list[Finding] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    charts: list[dict[str, str]] = field(default_factory=list)
    provenance: dict[str, str] = field(default_factory=dict)


def _pm(estimate: float, se: float, digits: int = 3) -> str:
    """``estimate ± half-width of the 95% CI`` (from the SE, normal approximation)."""
    if se is None or (isinstance(se, float) and math.isnan(se)) or se == 0:
        return f"{estimate:.{digits}f}"
    return f"{estimate:.{digits}f} ± {Z95 * se:.{digits}f}"


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.4g}"
    return str(value)


def _sweep_section(folder: Path, report: Report) -> None:
    path = folder / "results.parquet"
    if not path.exists():
        return
    table = read_parquet(path)
    axes = [c for c in table.columns if c not in _RESULT_COLUMNS]
    first = table.iloc[0]
    report.title = f"Balance sweep {first['sweep']} ({first['system']}, metric {first['metric']})"
    for key in _PROVENANCE:
        if key in table:
            report.provenance[key] = str(first[key])
    report.provenance["cells"] = str(table["cell"].nunique())
    report.provenance["swept parameters"] = ", ".join(axes) or "none"
    quantity = str(first["quantity"])
    head = table[table["quantity"] == quantity]
    columns = [*axes, f"{quantity} {PM}", "exact", "n"]
    rows = [
        [
            *(_fmt(r[a]) for a in axes),
            _pm(r["estimate"], r["se"], 4),
            _fmt(float(r["exact"])),
            str(r["n"]),
        ]
        for _, r in head.iterrows()
    ]
    others = sorted(set(table["quantity"]) - {quantity})
    note = f"Other quantities ({', '.join(others)}) are in results.csv." if others else ""
    report.sections.append(
        Section(f"Sweep results: {quantity}", columns, rows, text_columns=len(axes), note=note)
    )
    ranked = head.sort_values("estimate")
    best, worst = ranked.iloc[-1], ranked.iloc[0]
    words = quantity_words(quantity)
    report.findings.append(
        Finding(
            f"{words.capitalize()} is highest with {_where(best, axes)}: "
            f"{_pm(best['estimate'], best['se'])}, and lowest with {_where(worst, axes)}: "
            f"{_pm(worst['estimate'], worst['se'])} (± is the 95% CI; {len(head)} variations)."
        )
    )
    _monotonicity(folder, report, quantity)
    _differences(folder, report, axes, quantity)


#: Plain words for the quantities sweeps measure (column names elsewhere).
QUANTITY_WORDS = {
    "value_per_point": "value per point",
    "value_index": "value index (opponent points removed per duel)",
    "fair_cost": "fair cost",
    "duel_score": "duel score (wins + draws/2)",
    "duel_win_rate": "duel win rate",
    "win_a": "the win rate of A",
    "score_a": "the score of A (wins + draws/2)",
    "kill_probability": "the probability to remove the target in one activation",
}


def quantity_words(quantity: str) -> str:
    return QUANTITY_WORDS.get(quantity, quantity.replace("_", " "))


def _where(row: Any, axes: list[str]) -> str:
    """``points 20 and defense 6``."""
    parts = [f"{a.replace('_', ' ')} {row[a]}" for a in axes]
    return " and ".join(parts) if parts else "the only variation"


def _monotonicity(folder: Path, report: Report, quantity: str) -> None:
    path = folder / "monotonicity.parquet"
    if not path.exists():
        return
    table = read_parquet(path)
    flagged = table[table["flagged"]]
    if flagged.empty:
        report.findings.append(
            Finding(f"Monotonicity: all {len(table)} buff/nerf steps behave as expected.")
        )
    for _, r in flagged.iterrows():
        report.findings.append(
            Finding(
                f"Monotonicity check: {r['axis']} {r['from']} -> {r['to']} ({r['step']} of "
                f"{r['unit']}) changed {quantity} by {r['change']:+.4f} (SE {r['se']:.4f}), "
                "the wrong way beyond noise.",
                flag=True,
            )
        )
    report.sections.append(
        Section(
            "Monotonicity check",
            [str(c) for c in table.columns],
            [[_fmt(v) for v in row] for row in table.itertuples(index=False)],
            text_columns=1,
        )
    )


def _differences(folder: Path, report: Report, axes: list[str], quantity: str) -> None:
    """The headline's paired differences against the baseline, and the clear effects."""
    path = folder / "differences.parquet"
    if not path.exists():
        return
    table = read_parquet(path)
    table = table[(table["quantity"] == quantity) & (table["cell"] != table["baseline_cell"])]
    if table.empty:
        return
    columns = [*axes, "difference", "ci_low", "ci_high", "se_paired", "se_unpaired", "blocks"]
    report.sections.append(
        Section(
            f"Paired differences of {quantity} against the baseline (common random numbers)",
            columns,
            [[_fmt(r[c]) for c in columns] for r in table.to_dict("records")],
            text_columns=len(axes) or 1,
            note="Other quantities are in differences.csv. se_unpaired is what independent "
            "seeds would have given.",
        )
    )
    base = table.iloc[0]["baseline_cell"]
    results = read_parquet(folder / "results.parquet")
    baseline = results[(results["cell"] == base) & (results["quantity"] == quantity)].iloc[0]
    where = ", ".join(f"{a} = {baseline[a]}" for a in axes)
    clear = table[(table["ci_low"] > 0) | (table["ci_high"] < 0)].to_dict("records")
    # one-parameter changes first, then the largest effects
    clear.sort(key=lambda r: (sum(r[a] != baseline[a] for a in axes), -abs(r["difference"])))
    for r in clear[:3]:
        changed = ", ".join(f"{a} = {r[a]}" for a in axes if r[a] != baseline[a])
        report.findings.append(
            Finding(
                f"{changed} instead of the baseline ({where}: {quantity} "
                f"{baseline['estimate']:.3f}) changes {quantity} by {r['difference']:+.3f} "
                f"[{r['ci_low']:+.3f}, {r['ci_high']:+.3f}] (paired, same seeds)."
            )
        )


def _value_section(folder: Path, report: Report) -> None:
    path = folder / "summary.csv"
    if not path.exists() or not (folder / "value.parquet").exists():
        return
    summary = read_csv(path, index_col=0)
    table = read_parquet(folder / "value.parquet")
    first = table.iloc[0]
    if report.title.startswith("Results"):
        report.title = f"Unit value report ({first['system']})"
    for key in ("seed", "rules_hash", "analyzer_version", "numpy_version", "numba_version"):
        report.provenance.setdefault(key, str(first[key]))
    columns = [
        "unit",
        "points",
        f"value per point {PM}",
        f"fair cost {PM}",
        f"duel score {PM}",
        "kill p",
    ]
    rows = [
        [
            str(u),
            str(int(r["points"])),
            _pm(r["value_per_point"], r["value_per_point_se"]),
            _pm(r["fair_cost"], r["fair_cost_se"], 1),
            _pm(r["duel_score"], r["duel_score_se"]),
            f"{r['kill_probability']:.3f}",
        ]
        for u, r in summary.iterrows()
    ]
    report.sections.append(Section("Unit value against the field", columns, rows))
    if "field" in table:
        from analyzer.analysis.value import VALUE_CRITERION

        report.findings.append(Finding(f"Field: {first['field']}. Criterion: {VALUE_CRITERION}."))
    for unit, r in summary.iterrows():
        gap = r["fair_cost"] - r["points"]
        half = Z95 * r["fair_cost_se"]
        if abs(gap) > max(2 * half, 0.1 * r["points"]):
            verdict = "under-costed" if gap > 0 else "over-costed"
            report.findings.append(
                Finding(
                    f"{unit} at {int(r['points'])} points has value per point "
                    f"{_pm(r['value_per_point'], r['value_per_point_se'])}; fair cost "
                    f"{r['fair_cost']:.1f} ± {half:.1f}: {verdict} (all ± are 95% CIs)."
                )
            )


def _compare_section(folder: Path, report: Report) -> None:
    path = folder / "compare.json"
    if not path.exists():
        return
    data = read_json(path)
    ratings = read_parquet(folder / "compare_ratings.parquet")
    pairs = read_parquet(folder / "compare_pairs.parquet")
    if report.title.startswith("Results"):
        report.title = "Army list comparison"
    report.provenance.setdefault("seed", str(data["seed"]))
    report.provenance.setdefault("policy", str(data["policy"]))
    report.provenance.setdefault("matches per pair", str(data["matches_per_pair"]))
    report.sections.append(
        Section(
            "Bradley-Terry ratings (Elo scale, 95% CI)",
            ["list", f"strength (log-odds) {PM}", f"Elo {PM}"],
            [[str(r["list"]), _pm(r["strength"], r["se"]), f"{r['elo']:+.0f} ± {r['elo_ci95']:.0f}"]
             for r in ratings.to_dict("records")],
        )
    )  # fmt: skip
    report.sections.append(
        Section(
            "Score of each list against each opponent (wins + draws/2, 95% Wilson CI)",
            ["list", "opponent", "matches", "wins", "draws", "losses", "score [95% Wilson CI]",
             f"VP margin {PM}"],
            [[str(r["list"]), str(r["opponent"]), str(r["matches"]), str(r["wins"]),
              str(r["draws"]), str(r["losses"]),
              f"{r['score']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]",
              _pm(r["vp_margin_mean"], r["vp_margin_se"], 1)]
             for r in pairs.to_dict("records")],
            text_columns=2,
        )
    )  # fmt: skip
    best = ratings.iloc[0]
    worst = pairs[pairs["list"] == best["list"]].sort_values("score").iloc[0]
    report.findings.append(
        Finding(
            f"{best['list']} is rated strongest ({best['elo']:+.0f} ± {best['elo_ci95']:.0f} "
            f"Elo, {PM}); its hardest opponent is {worst['opponent']}, against which it scores "
            f"{worst['score']:.0%} [{worst['ci_low']:.0%}, {worst['ci_high']:.0%}]."
        )
    )
    first = data["first_activation"]
    if first["decided"]:
        lo, hi = first["ci95"]
        biased = not lo <= 0.5 <= hi
        report.findings.append(
            Finding(
                f"The player with the first activation won {first['rate']:.1%} "
                f"[{lo:.1%}, {hi:.1%}] of {first['decided']:,} decided matches"
                + ("; the first activation is an advantage beyond noise." if biased else "."),
                flag=biased,
            )
        )


def _rate(doc: Mapping[str, Any]) -> str:
    lo, hi = doc["ci95"]
    return f"{doc['rate']:.1%} [{lo:.1%}, {hi:.1%}]"


def _match_section(folder: Path, report: Report) -> None:
    """``analyzer match --out``: outcome rates with Wilson CIs, first player, units."""
    from analyzer.match.output import read_summary

    doc = read_summary(folder)
    if doc is None:
        return
    sides = doc.get("side_names") or {"a": "A", "b": "B"}
    lists = doc["lists"]
    report.title = f"{doc['system']} matches: {lists['a']} vs {lists['b']}"
    results, n = doc["results"], doc["matches"]
    words = doc.get("outcome_names") or {"a_wins": "A wins", "draws": "draws", "b_wins": "B wins"}
    report.findings.append(
        Finding(
            f"Over {n:,} matches ({doc['policies']['a']} vs {doc['policies']['b']}): "
            f"{words['a_wins']} {_rate(results['a_wins'])}, {words['draws']} "
            f"{_rate(results['draws'])}, {words['b_wins']} {_rate(results['b_wins'])} "
            "(95% Wilson CIs)."
        )
    )
    score = doc["score"]
    if score.get("margin_se") is not None:
        report.findings.append(
            Finding(
                f"{score['name']} margin ({sides['a']} minus {sides['b']}): "
                f"{_pm(score['margin_mean'], score['margin_se'], 2)} ({PM})."
            )
        )
    first = doc["first_player"]["first_player_wins"]
    if first["n"]:
        lo, hi = first["ci95"]
        report.findings.append(
            Finding(
                f"The side that moved first won {_rate(first)} of the matches.",
                flag=not lo <= 0.5 <= hi and results["draws"]["rate"] < 0.5,
            )
        )
    report.provenance.setdefault("seed", str(doc["seed"]))
    report.provenance.setdefault("scenario", str(doc["scenario"]))
    report.provenance.setdefault(
        "options", ", ".join(f"{k}={v}" for k, v in doc["options"].items())
    )
    for key, value in (doc.get("provenance") or {}).items():
        report.provenance.setdefault(key, str(value))
    report.sections.append(
        Section(
            f"Units ({doc['damage_name']} dealt and taken per match; 95% Wilson CI)",
            ["side", "unit", "type", "points", "survives [95% CI]", "dealt", "taken",
             f"{score['name']} per point"],
            [[u["side"], str(u["unit"]), str(u["type"]), str(u["points"]),
              _rate(u["survival"]), f"{u['dealt_mean']:.2f}", f"{u['taken_mean']:.2f}",
              "" if u["score_per_point"] is None else f"{u['score_per_point']:.3f}"]
             for u in doc["units"]],
            text_columns=3,
        )
    )  # fmt: skip
    ends = doc["end_reasons"]
    report.sections.append(
        Section(
            "How the matches ended",
            ["end", "matches", "share"],
            [[str(k), f"{v:,}", f"{v / n:.1%}"] for k, v in ends.items()],
            note="Per-match and per-unit rows: matches.csv and units.csv in this folder.",
        )
    )


_FAIR_COST_PROVENANCE = ("seed", "n", "blocks", "rules_hash", "analyzer_version",
                         "numpy_version", "numba_version")  # fmt: skip


def _fair_cost_section(folder: Path, report: Report) -> None:
    """``analyzer fair-cost``: the answer with its CI, the verdict, the costs evaluated."""
    for path in sorted(folder.glob("fair_cost*.parquet")):
        table = read_parquet(path)
        if table.empty:
            continue
        first = table.iloc[0]
        if report.title.startswith("Results"):
            units = ", ".join(dict.fromkeys(str(u) for u in table["unit"]))
            report.title = f"Fair cost of {units} ({first['system']})"
        for key in _FAIR_COST_PROVENANCE:
            if key in table:
                report.provenance.setdefault(key, str(first[key]))
        for key in ("criterion", "field"):
            if key in table:
                report.provenance.setdefault(f"fair cost {key}", str(first[key]))
        columns = ["unit", "criterion", "current cost", "fair cost [95% CI]", "se", "bracket", "n"]
        rows = [
            [
                str(r["unit"]),
                str(r["criterion"]),
                str(r["current_cost"]),
                f"{r['fair_cost']:.1f} [{r['ci_low']:.1f}, {r['ci_high']:.1f}]",
                f"{r['se']:.2f}",
                f"{r['bracket_low']}..{r['bracket_high']}",
                str(r["n"]),
            ]
            for r in table.to_dict("records")
        ]
        report.sections.append(
            Section(
                f"Fair cost search ({path.stem})",
                columns,
                rows,
                text_columns=2,
                note="95% CI: delete-one-block jackknife of the root, Student-t quantile; "
                "n: trials per task (duels per pairing or matches per pair of lists).",
            )
        )
        for r in table.to_dict("records"):
            report.findings.append(Finding(_fair_cost_finding(r)))
            if r.get("criterion_words"):
                report.findings.append(
                    Finding(
                        f"Field: {r.get('field_file') or 'the field file'} ({r['field']}). "
                        f"Criterion: {r['criterion_words']}."
                    )
                )
            for note in str(r.get("notes") or "").split("; "):
                if note:  # a gap that rose with the cost is a warning; rounding is not
                    warn = "not monotone" in note
                    report.findings.append(Finding(f"{r['unit']}: {note}.", flag=warn))
    trace = folder / "fair_cost_trace.csv"
    if trace.exists():
        costs = pd.read_csv(trace)
        report.sections.append(
            Section(
                "Costs evaluated by the search",
                [str(c) for c in costs.columns],
                [[_fmt(v) for v in row] for row in costs.itertuples(index=False)],
                text_columns=0,
                note="gap: the criterion minus its target; the fair cost is where it crosses 0.",
            )
        )


def _fair_cost_finding(r: Mapping[Hashable, Any]) -> str:
    current, low, high = r["current_cost"], r["ci_low"], r["ci_high"]
    if current > high:
        verdict = "over-costed"
    elif current < low:
        verdict = "under-costed"
    else:
        verdict = "fairly costed (the current cost is inside the 95% CI)"
    return (
        f"{r['unit']} costs {current} points; its fair cost against this field is "
        f"{r['fair_cost']:.1f} [{low:.1f}, {high:.1f}] (95% CI): {verdict}."
    )


#: Captions of the charts the commands write, by file name (``*`` matches the rest).
CAPTIONS = {
    "value_per_point": "Value per point of each unit against the field (opponent points "
    "removed per own point in one-on-one duels); error bars: 95% CI.",
    "duel_heatmap": "Duel win rate of the row unit (attacker) against the column unit.",
    "cost_vs_value": "Points cost against value index; on the dashed line a unit is worth "
    "its cost at the field's median value per point (above: under-costed, below: "
    "over-costed); error bars: 95% CI.",
    "fair_cost": "The fair-cost search: the gap (criterion minus target) at every cost "
    "evaluated with 95% error bars; the fair cost is where it crosses 0 (green: its 95% "
    "CI), the dashed line is the current cost.",
    "compare_matrix": "Score (wins + draws/2) of the row list against the column list, "
    "with 95% Wilson CIs.",
    "compare_ratings": "Bradley-Terry ratings of the lists on the Elo scale, 95% error bars.",
    "heatmap_*": "The headline quantity over two swept parameters (one cell per variation).",
    "lines_*": "The headline quantity along one swept parameter, one line per value of the "
    "other; error bars: 95% CI.",
    "meta_weights": "Max-entropy Nash weight of each list; bars: 2.5-97.5% of the posterior "
    "resamples.",
    "meta_dynamics": "Replicator dynamics from a uniform field: each list's share by generation.",
    "build_top": "Best lists found: expected score against the field; error bars: 95% CI.",
    "balance_costs": "Point costs now (red) and proposed (green).",
    "balance_fairness": "The balance criterion now and under the proposed costs, on fresh "
    "seeds (dashed: fair).",
    "robustness_ratings": "Each list's rating under the weak policy (x) and the strong one "
    "(y); on the dashed line the two agree.",
    "robustness_ladder": "Skill ladder: score of each policy as side A against the weak "
    "policy; error bars: 95% CI.",
}


def caption_of(path: Path) -> str:
    """A chart's caption: what it shows and what its error bars mean."""
    stem = path.stem
    if stem in CAPTIONS:
        return CAPTIONS[stem]
    for key, text in CAPTIONS.items():
        if key.endswith("*") and stem.startswith(key[:-1]):
            detail = stem[len(key) - 1 :].replace("_", " and ")
            return f"{text} ({detail})"
    return stem.replace("_", " ")


def _charts(folder: Path, report: Report) -> None:
    for path in sorted(folder.rglob("*.png")):
        caption = caption_of(path)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        report.charts.append({"caption": caption, "data": data, "file": str(path.name)})


def build_report(folder: str | Path) -> Report:
    """Collect tables, findings and charts from a results folder."""
    folder = Path(folder)
    if not folder.exists():
        raise InputError(f"{folder}: folder does not exist")
    if not folder.is_dir():
        raise InputError(f"{folder}: is a file, not a results folder")
    report = Report(title=f"Results in {folder}")
    _sweep_section(folder, report)
    _value_section(folder, report)
    _fair_cost_section(folder, report)
    _compare_section(folder, report)
    _match_section(folder, report)
    from analyzer.reporting.meta_report import meta_sections

    meta_sections(folder, report)
    _charts(folder, report)
    if not report.sections and not report.charts:
        raise InputError(
            f"{folder}: no results (results.parquet, value.parquet, compare.json, charts) found"
        )
    return report


def render_report(folder: str | Path, out: str | Path) -> Path:
    """Write the self-contained HTML report of ``folder`` to ``out``."""
    report = build_report(folder)
    env = Environment(
        loader=PackageLoader("analyzer.reporting", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
    )
    html = env.get_template("report.html.j2").render(
        title=report.title,
        findings=report.findings,
        sections=report.sections,
        charts=report.charts,
        provenance=report.provenance,
        source=str(folder),
        generated=dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    )
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(out)
    return out
