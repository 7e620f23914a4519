"""Render ``analyzer report`` of a command's folder and check what it says."""

from __future__ import annotations

from pathlib import Path


def rendered(folder: Path, *phrases: str, charts: tuple[str, ...] = ()) -> str:
    """The HTML report of ``folder``; each phrase and each chart (its caption) in it."""
    import html

    from analyzer.reporting.html import CAPTIONS, render_report

    for name in charts:
        assert (folder / "charts" / f"{name}.png").exists(), name
    text = html.unescape(render_report(folder, folder / "report.html").read_text("utf-8"))
    for phrase in (*phrases, *(CAPTIONS[name] for name in charts)):
        assert phrase in text, phrase
    return text
