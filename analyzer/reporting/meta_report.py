"""The meta section of ``analyzer report`` (a folder written by ``analyzer meta``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd


def meta_section(folder: Path, report: Any) -> None:
    """Findings and the list table of ``meta.json`` / ``meta_lists.parquet`` (if present)."""
    from analyzer.reporting.html import Finding, Section

    path = folder / "meta.json"
    if not path.exists():
        return
    data = json.loads(path.read_text(encoding="utf-8"))
    table = pd.read_parquet(folder / "meta_lists.parquet")
    report.title = "Meta of army lists"
    report.provenance.setdefault("meta seed", str(data["seed"]))
    report.provenance.setdefault("posterior resamples", str(data["resamples"]))
    for text in data["findings"]:
        report.findings.append(Finding(text, flag="Exploitable" in text))
    report.sections.append(
        Section(
            "Nash meta (max-entropy equilibrium; intervals: 2.5-97.5% of posterior resamples)",
            ["list", "Nash (LP)", "max-entropy weight", "weight 95% interval",
             "in support", "score vs equilibrium [95%]", "Hodge rating (log-odds)",
             "replicator share"],
            [[str(r["list"]), f"{r['nash_weight']:.3f}", f"{r['max_entropy_weight']:.3f}",
              f"[{r['weight_ci_low']:.3f}, {r['weight_ci_high']:.3f}]",
              f"{r['support_probability']:.0%}",
              f"{r['score_vs_nash']:.3f} [{r['score_vs_nash_ci_low']:.3f}, "
              f"{r['score_vs_nash_ci_high']:.3f}]",
              f"{r['hodge_rating']:+.3f}", f"{r['replicator_share']:.3f}"]
             for r in table.to_dict("records")],
            note=f"cyclic share {data['cyclic_share']:.1%} (95% interval "
            f"{data['cyclic_share_ci95'][0]:.1%} to {data['cyclic_share_ci95'][1]:.1%})",
        )
    )  # fmt: skip


def meta_sections(folder: Path, report: Any) -> None:
    """Every section of the meta commands' folders (meta, build-list, balance, robustness)."""
    meta_section(folder, report)
    build_section(folder, report)
    balance_section(folder, report)
    robustness_section(folder, report)
    value_robustness_section(folder, report)
    fair_cost_robustness_section(folder, report)


def _read(folder: Path, name: str) -> dict[str, Any] | None:
    path = folder / name
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def build_section(folder: Path, report: Any) -> None:
    """``analyzer build-list``: the best lists found, with the search's cost in matches."""
    from analyzer.reporting.html import Finding, Section

    data = _read(folder, "build.json")
    if data is None:
        return
    report.title = f"List builder ({data['system']}, at most {data['points']} points)"
    report.provenance.setdefault("build seed", str(data["seed"]))
    report.provenance.setdefault("build policy", str(data["policy"]))
    top = data["top"]
    if top:
        best = top[0]
        report.findings.append(Finding(
            f"The best list found is {best['list']} ({best['points']} points): expected score "
            f"{best['score']:.3f} (95% CI {best['ci_low']:.3f} to {best['ci_high']:.3f}) "
            f"against the field of {len(data['field'])} list(s)."
        ))  # fmt: skip
    report.findings.append(Finding(
        f"{data['search']} search: {data['legal_lists_seen']:,} legal lists seen, "
        f"{data['lists_checked']:,} candidates checked, {data['matches']:,} matches spent."
    ))  # fmt: skip
    report.sections.append(Section(
        "Best lists (score against the field; 95% CI from the per-match scores)",
        ["rank", "list", "points", "score [95% CI]", "matches per opponent"],
        [[str(r["rank"]), str(r["list"]), str(r["points"]),
          f"{r['score']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]",
          str(r["matches_per_opponent"])] for r in top],
        text_columns=2,
        note="field weights: " + ", ".join(f"{Path(p).stem} {w:.2f}"
                                           for p, w in data["field"].items()),
    ))  # fmt: skip


def balance_section(folder: Path, report: Any) -> None:
    """``analyzer balance``: proposed costs, and the fairness before and after."""
    from analyzer.reporting.html import Finding, Section

    data = _read(folder, "balance.json")
    if data is None:
        return
    duels = data.get("criterion") == "duels"
    report.title = f"Joint balance of {data['system']} by {'duels' if duels else 'matches'}"
    report.provenance.setdefault("balance seed", str(data["seed"]))
    spread, worst = data["spread"], data["worst"]
    what = "value per point (SD / mean)" if duels else "list scores (SD)"
    fmt = "{:.1%}" if duels else "{:.3f}"
    changed = [c for c in data["costs"] if c["proposed_cost"] != c["current_cost"]]
    report.findings.append(Finding(
        f"{len(changed)} of {len(data['costs'])} costs change. On fresh seeds the spread of "
        f"the {what} goes from {fmt.format(spread['validation_current'])} to "
        f"{fmt.format(spread['validation_proposed'])}, the largest misfit from "
        f"{fmt.format(worst['validation_current'])} to "
        f"{fmt.format(worst['validation_proposed'])}."
    ))  # fmt: skip
    bound = [c["unit"] for c in data["costs"] if c.get("at_bound")]
    if bound:
        report.findings.append(Finding(
            f"At the --max-factor bound ({data['max_factor']:g}x), still misfit: "
            f"{', '.join(bound)}.", flag=True))  # fmt: skip
    if duels:
        columns = ["unit", "now", "proposed", "fair cost [95% CI]", "vpp / median - 1 now",
                   "proposed"]  # fmt: skip
        rows = [[str(c["unit"]), str(c["current_cost"]), str(c["proposed_cost"]),
                 f"{c['fair_cost']:.1f} [{c['ci_low']:.1f}, {c['ci_high']:.1f}]",
                 f"{c['misfit_current']:+.1%}", f"{c['misfit_proposed']:+.1%}"]
                for c in data["costs"]]  # fmt: skip
        note = "interval: 2.5-97.5% of the roots over resamples of the duel scores"
    else:
        columns = ["unit", "now", "proposed", "95% interval (linearised)", "misfit now"]
        rows = [[str(c["unit"]), str(c["current_cost"]), str(c["proposed_cost"]),
                 f"[{c['ci_low']:.1f}, {c['ci_high']:.1f}]", f"{c['misfit_now']:+.3f}"]
                for c in data["costs"]]  # fmt: skip
        note = "misfit: weighted mean of (list score - 1/2) over the lists holding the unit"
    report.sections.append(Section("Proposed point costs", columns, rows, note=note))
    if not duels:
        report.sections.append(Section(
            "List scores against the field (1/2: fair)",
            ["list", "now", "proposed", "validation now", "validation proposed"],
            [[str(r["list"]), f"{r['score_current']:.3f}", f"{r['score_proposed']:.3f}",
              f"{r['validation_current']:.3f}", f"{r['validation_proposed']:.3f}"]
             for r in data["lists"]],
        ))  # fmt: skip


def _tau_finding(data: dict[str, Any], what: str, verdicts: str) -> Any:
    """``what`` under both policies: Kendall tau with its interval, and the flips."""
    from analyzer.reporting.html import Finding

    weak, strong = data["policies"]
    lo, hi = data["kendall_tau_ci95"]
    flips = data["flips"]
    return Finding(
        f"{what} under {weak} and under {strong}: Kendall tau {data['kendall_tau']:+.2f} "
        f"(95% interval {lo:+.2f} to {hi:+.2f}); "
        + (f"{verdicts} that flip: {', '.join(flips)}." if flips else f"no {verdicts} flip."),
        flag=bool(flips) or lo < 0,
    )


def robustness_section(folder: Path, report: Any) -> None:
    """``analyzer robustness``: do the rankings and verdicts survive a stronger AI?"""
    from analyzer.reporting.html import Finding, Section
    from analyzer.stats import Z95

    data = _read(folder, "robustness.json")
    if data is None:
        return
    weak, strong = data["policies"]
    report.title = f"Robustness of {data['system']} under {weak} and {strong}"
    report.findings.append(_tau_finding(data, "The list ranking", "verdicts"))
    if "skill_score" in data:
        s = data["skill_score"]
        report.findings.append(Finding(
            f"Skill score 1 - w_random / w_{strong} = {s['value']:.3f} ± {Z95 * s['se']:.3f} "
            "(0: play does not matter; towards 1: the game rewards play)."))  # fmt: skip
        report.sections.append(Section(
            f"Skill ladder (side A's policy against {weak}; 95% CI)",
            ["policy", "score", "95% CI", "matches per ordered pair"],
            [[str(r["policy"]), f"{r[f'score_vs_{weak}']:.3f}",
              f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]", str(r["matches_per_pair"])]
             for r in data["ladder"]],
        ))  # fmt: skip
    report.sections.append(Section(
        "Ratings (least-squares log-odds), ranks and verdicts under both policies",
        ["list", f"rating {weak}", f"rating {strong}", f"rank {weak}", f"rank {strong}",
         f"verdict {weak}", f"verdict {strong}"],
        [[str(r["list"]), f"{r[f'rating_{weak}']:+.3f}", f"{r[f'rating_{strong}']:+.3f}",
          str(r[f"rank_{weak}"]), str(r[f"rank_{strong}"]), str(r[f"verdict_{weak}"]),
          str(r[f"verdict_{strong}"])] for r in data["lists"]],
    ))  # fmt: skip


def value_robustness_section(folder: Path, report: Any) -> None:
    """``analyzer robustness --check value``: value per point under two duel policies."""
    from analyzer.reporting.html import Finding, Section

    data = _read(folder, "robustness_value.json")
    if data is None:
        return
    report.title = f"Robustness of {data['system']}'s value per point"
    if not data["policy_dependence"]:
        report.findings.append(Finding(data["message"] + "."))
        report.sections.append(
            Section(
                "Value per point under two duel policies",
                ["system", "result"],
                [[str(data["system"]), "not rerun: no policy"]],
            )
        )
        return
    weak, strong = data["policies"]
    report.findings.append(_tau_finding(data, "The ranking of value per point", "cost verdicts"))
    report.sections.append(Section(
        f"Value per point and cost verdicts under {weak} and {strong}",
        ["unit", f"vpp {weak}", f"vpp {strong}", f"verdict {weak}", f"verdict {strong}"],
        [[str(r["unit"]), f"{r[f'rating_{weak}']:.4f}", f"{r[f'rating_{strong}']:.4f}",
          str(r[f"verdict_{weak}"]), str(r[f"verdict_{strong}"])] for r in data["units"]],
        note="verdict: the current cost outside the 95% CI of value's fair cost",
    ))  # fmt: skip


def fair_cost_robustness_section(folder: Path, report: Any) -> None:
    """``analyzer robustness --check fair-cost``: one unit's fair cost under two policies."""
    from analyzer.reporting.html import Finding, Section

    data = _read(folder, "robustness_fair_cost.json")
    if data is None:
        return
    weak, strong = data["policies"]
    report.title = f"Robustness of {data['unit']}'s fair cost ({data['system']})"
    flips = data["verdict_flips"]
    report.findings.append(Finding(
        f"{data['unit']}'s verdict {'flips' if flips else 'survives'} between {weak} and "
        f"{strong}: " + "; ".join(f"{r['policy']} {r['verdict']}" for r in data["rows"]) + ".",
        flag=flips,
    ))  # fmt: skip
    report.sections.append(Section(
        f"Fair cost of {data['unit']} by lists under each policy",
        ["policy", "current cost", "fair cost", "95% CI", "verdict"],
        [[str(r["policy"]), str(r["current_cost"]), f"{r['fair_cost']:.1f}",
          f"[{r['ci_low']:.1f}, {r['ci_high']:.1f}]", str(r["verdict"])]
         for r in data["rows"]],
    ))  # fmt: skip
