"""Exception types for problems a user can fix; the CLI prints them as one line."""

from __future__ import annotations


class AnalyzerError(Exception):
    """Base class: a problem with the user's input, printed without a traceback."""


class InputError(AnalyzerError, ValueError):
    """An impossible value or a combination the rules do not allow."""
