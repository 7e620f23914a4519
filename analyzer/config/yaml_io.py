"""YAML 1.2 loading (ruamel.yaml) with errors that name the file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError

from analyzer.errors import AnalyzerError


class ConfigError(AnalyzerError):
    """A problem in a config file, formatted as ``path:line: field: message`` lines."""


def load_yaml(path: str | Path) -> Any:
    """Parse a YAML file into ruamel's round-trip objects (they keep line numbers)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"{path}: cannot read file: {err.strerror}") from None
    try:
        return YAML(typ="rt").load(text)
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark is not None else 0
        raise ConfigError(f"{path}:{line}: YAML syntax error: {err.problem}") from None
