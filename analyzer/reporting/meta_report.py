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
