"""Shared wording helpers of the engines' trace renderers (``games/*/match/trace.py``)."""

from __future__ import annotations

from collections.abc import Sequence


def flag_tags(flags: int, labels: Sequence[tuple[int, str]], extra: Sequence[str] = ()) -> str:
    """``" [a, b]"``: the label of every bit of ``labels`` set in ``flags`` (in that
    order), then ``extra``; ``""`` when there are none."""
    tags = [label for bit, label in labels if flags & bit] + list(extra)
    return f" [{', '.join(tags)}]" if tags else ""
