"""Exception types for problems a user can fix; the CLI prints them as one line."""

from __future__ import annotations

from collections.abc import Iterable


class AnalyzerError(Exception):
    """Base class: a problem with the user's input, printed without a traceback."""


class InputError(AnalyzerError, ValueError):
    """An impossible value or a combination the rules do not allow."""


def unknown_name(kind: str, name: object, known: Iterable[str]) -> str:
    """``unknown unit 'Agent SI-4'; did you mean 'Agent SI-4X'? (units: 'A'; 'B, C')``.

    The known names are quoted and separated by semicolons, since some contain commas
    ("Cainak, Private Eye"); the suggestions are the closest by :mod:`difflib`.
    """
    import difflib

    names = list(known)
    text = f"unknown {kind} {name!r}"
    close = difflib.get_close_matches(str(name), names, n=2, cutoff=0.6)
    if close:
        text += f"; did you mean {' or '.join(map(repr, close))}?"
    return text + f" ({kind}s: {'; '.join(map(repr, names))})"
