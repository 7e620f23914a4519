"""`analyzer report`: a self-contained HTML page, checked in headless Chromium."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pytest

from analyzer.reporting.html import build_report, render_report
from analyzer.reporting.value_report import run_value_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars",
]  # fmt: skip


@pytest.fixture(scope="module")
def value_folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("value")
    run_value_report("d20", None, None, out, trials=2000, seed=1)
    return out


def test_report_collects_tables_findings_and_charts(value_folder):
    report = build_report(value_folder)
    assert report.title == "Unit value report (d20)"
    assert [s.title for s in report.sections] == ["Unit value against the field"]
    assert len(report.sections[0].rows) == 8
    assert len(report.charts) == 3
    assert report.provenance["seed"] == "1"
    assert all("fair cost" in f.text for f in report.findings)


def test_report_of_an_empty_folder_is_a_clear_error(tmp_path):
    from analyzer.errors import InputError

    with pytest.raises(InputError, match="no results"):
        build_report(tmp_path)


def _chromium(args: list[str], user_data: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={user_data}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is installed by .ci/run")
def test_report_renders_in_headless_chromium(value_folder, tmp_path):
    page = render_report(value_folder, tmp_path / "report.html")
    url = page.resolve().as_uri()
    dom = _chromium(["--virtual-time-budget=5000", "--dump-dom", url], tmp_path / "profile1")
    assert dom.returncode == 0, dom.stderr[-2000:]
    total = re.search(r'data-images-total="(\d+)"', dom.stdout)
    decoded = re.search(r'data-images-decoded="(\d+)"', dom.stdout)
    assert total and decoded, "the page did not finish loading"
    assert int(total.group(1)) == 3 and decoded.group(1) == total.group(1)
    assert "Unit value against the field" in dom.stdout

    shot = tmp_path / "report.png"
    done = _chromium(
        [f"--screenshot={shot}", "--window-size=1200,2400", "--virtual-time-budget=5000", url],
        tmp_path / "profile2",
    )
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    image = mpimg.imread(shot)
    assert image.shape[:2] == (2400, 1200) and float(np.std(image)) > 0.01
