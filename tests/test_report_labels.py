"""`analyzer report` on fair-cost folders, missing folders, and what every ``±`` means."""

from __future__ import annotations

import pandas as pd
import pytest

from analyzer.errors import InputError
from analyzer.experiments.fair_cost import fair_cost
from analyzer.reporting.html import PM, build_report, render_report
from analyzer.reporting.tables import VALUE_LEGEND, value_summary_table
from analyzer.stats import Z95
from tests.experiments.conftest import write_spec


@pytest.fixture(scope="module")
def fair_cost_folder(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fc")
    field = write_spec(tmp, "system: d20\nopponents: [Trooper, Brute, Telekinesist]\n", "f.yaml")
    out = tmp / "fc"
    result = fair_cost(
        "d20", "Telepath", field, trials=256, block_size=256, seed=4, workers=0, out_dir=out
    )
    return out, result


def test_fair_cost_folder_has_findings_and_provenance(fair_cost_folder, tmp_path):
    out, result = fair_cost_folder
    report = build_report(out)
    assert report.title == "Fair cost of Telepath (d20)"
    texts = [f.text for f in report.findings]
    assert texts[0].startswith(
        f"Telepath costs {result.current_cost} points; its fair cost against this field is "
        f"{result.fair_cost:.1f} [{result.ci_low:.1f}, {result.ci_high:.1f}] (95% CI): "
    )
    assert any("rounded up to 512" in t for t in texts)
    assert report.provenance["seed"] == "4"
    assert report.provenance["n"] == "512" and report.provenance["blocks"] == "2"
    assert report.provenance["fair cost field"] == "Trooper; Brute; Telekinesist"
    assert {"rules_hash", "analyzer_version", "numba_version"} <= set(report.provenance)
    titles = [s.title for s in report.sections]
    assert titles == ["Fair cost search (fair_cost)", "Costs evaluated by the search"]
    assert "fair cost [95% CI]" in report.sections[0].columns
    html = render_report(out, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "No result tables were found" not in html
    assert "fair cost against this field" in html and "rules_hash" in html


def test_report_of_a_missing_folder_says_it_does_not_exist(tmp_path):
    with pytest.raises(InputError, match=r"nonexist: folder does not exist$"):
        build_report(tmp_path / "nonexist")
    file = tmp_path / "file.txt"
    file.write_text("x")
    with pytest.raises(InputError, match="is a file, not a results folder"):
        build_report(file)


def _summary() -> pd.DataFrame:
    metrics = [
        "value_per_point", "value_index", "fair_cost", "duel_score", "kill_probability",
        "wounds_dealt_per_activation", "wounds_taken_per_activation",
    ]  # fmt: skip
    row: dict[str, float] = {"points": 20.0}
    for m in metrics:
        row[m], row[f"{m}_se"] = 0.5, 0.0
    row["value_per_point"], row["value_per_point_se"] = 0.677, 0.009
    row["fair_cost"], row["fair_cost_se"] = 21.0, 0.5
    row["duel_score"], row["duel_score_se"] = 0.6, 0.01
    return pd.DataFrame([row], index=pd.Index(["Unit"], name="unit"))


def test_value_table_pm_is_the_95_ci_and_says_so():
    text = value_summary_table(_summary())
    assert f"0.677 ± {Z95 * 0.009:.2g}" in text  # 0.018, as in the HTML report
    assert "0.677 ± 0.009" not in text
    assert text.endswith(VALUE_LEGEND) and "95% CI" in VALUE_LEGEND


def test_every_pm_of_a_value_report_is_labelled(tmp_path):
    from analyzer.reporting.value_report import run_value_report

    run_value_report("d20", None, None, tmp_path, trials=500, seed=1)
    report = build_report(tmp_path)
    section = report.sections[0]
    for j, column in enumerate(section.columns):
        if any("±" in row[j] for row in section.rows):
            assert column.endswith(PM), column
    assert PM == "± 95% CI"
    assert all("95% CI" in f.text for f in report.findings if "±" in f.text)


def test_sweep_summary_labels_its_pm(tmp_path):
    from analyzer.experiments.sweep import summary_text
    from tests.experiments.conftest import serial

    spec = write_spec(
        tmp_path,
        """\
        name: s
        system: d20
        metric: {kind: duel, a: Telepath, b: Trooper}
        grid:
          opponent: {kind: unit, role: b, values: [Trooper, Brute]}
        trials: 512
        block_size: 256
        exact: false
        """,
    )
    text = summary_text(serial(spec, tmp_path / "out"))
    assert "± 95% CI" in text.splitlines()[1]
    report = build_report(tmp_path / "out")
    assert report.sections[0].columns[1] == "win_rate ± 95% CI"
    assert all("95% CI" in f.text for f in report.findings if "±" in f.text)
