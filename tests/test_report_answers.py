"""Reports answer their question: field and criterion named, findings first, real captions."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import pandas as pd

from analyzer.reporting.charts import labels_overlap, place_labels
from analyzer.reporting.html import caption_of, render_report
from tests.test_roll_contract import run_cli

FIELD = "configs/experiments/fields/heroscape_field.yaml"


def test_fair_cost_names_field_and_criterion_and_draws_its_search(tmp_path, capsys) -> None:
    out = tmp_path / "fc"
    args = ["fair-cost", "heroscape", "--unit", "Agent SI-4X", "--field", FIELD]
    code, text, _ = run_cli(
        [*args, "--trials", "8192", "--workers", "0", "--out", str(out)], capsys
    )
    assert (
        code == 0 and f"Field: {FIELD}" in text and "Criterion: the unit's value per point" in text
    )
    trace = pd.read_csv(out / "fair_cost_trace.csv")
    assert (trace["gap_se"] > 0).all()  # every cost evaluated has its jackknife SE
    assert (out / "fair_cost.png").stat().st_size > 10_000
    html = render_report(out, out / "report.html").read_text(encoding="utf-8")
    assert "<h1>Fair cost of Agent SI-4X (heroscape)</h1>" in html
    assert "No result tables" not in html and "Criterion: the unit&#39;s value per point" in html
    assert "The fair-cost search: the gap" in html  # the chart's caption, not its file name
    # findings, then charts, then the tables
    assert html.index("Findings") < html.index("<figure>") < html.index('class="tables"')


def test_value_names_its_field_and_how_it_prices(tmp_path, capsys) -> None:
    code, text, _ = run_cli(["value", "d20", "--trials", "300", "--out", str(tmp_path)], capsys)
    assert code == 0 and "field: every other unit of" in text and "criterion: fair cost =" in text
    table = pd.read_csv(tmp_path / "value.csv")
    assert set(table.loc[table["n"] == 0, "method"]) == {"exact"}  # n 0 rows say they are exact
    assert set(table.loc[table["n"] > 0, "method"]) == {"monte carlo"}
    html = render_report(tmp_path, tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Field: every other unit of" in html
    assert re.search(r'<div class="scroll"><table>', html)


def test_chart_captions_say_what_the_error_bars_are(tmp_path) -> None:
    assert "95% CI" in caption_of(tmp_path / "value_per_point.png")
    assert caption_of(tmp_path / "lines_points.png").endswith("(points)")
    assert caption_of(tmp_path / "unknown_chart.png") == "unknown chart"


def test_crowded_point_labels_are_moved_apart() -> None:
    fig, ax = plt.subplots(figsize=(6, 4))
    x = [65, 70, 75, 80, 70.5]  # the heroscape sample's crowded middle, at chart scale
    y = [29.8, 29.3, 28.9, 31.8, 29.0]
    ax.set_xlim(0, 190)
    ax.set_ylim(0, 80)
    ax.plot(x, y, "o")
    names = ["Gelryie Vanguards", "Ranoc Vipers", "Bok-Bur-Na", "Nishi Souta", "Feral Troll"]
    labels = [ax.text(a, b, name, fontsize=9) for a, b, name in zip(x, y, names, strict=True)]
    assert labels_overlap(fig, labels)  # as placed at their points they collide
    place_labels(ax, labels, x, y)
    assert not labels_overlap(fig, labels)
    plt.close(fig)
