"""YAML 1.2 loading (ruamel.yaml) with errors that name the file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError

from analyzer.errors import AnalyzerError, InputError

#: Byte-order marks of encodings a text editor may have saved a file in instead of UTF-8.
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32 LE"),
    (b"\x00\x00\xfe\xff", "UTF-32 BE"),
    (b"\xff\xfe", "UTF-16 LE"),
    (b"\xfe\xff", "UTF-16 BE"),
)


class ConfigError(AnalyzerError):
    """A problem in a config file, formatted as ``path:line: field: message`` lines."""


class NotTextError(ConfigError, InputError):
    """A config file that cannot be decoded as UTF-8 text."""


def read_text(path: str | Path) -> str:
    """The UTF-8 text of a user's file (a UTF-8 byte-order mark is dropped).

    Every config read (unit cards, army lists, scenarios, missions, dice, sweep specs,
    fields) goes through here: a missing or unreadable file raises :class:`ConfigError`,
    bytes that are not UTF-8 raise :class:`NotTextError` (an :class:`InputError`) saying
    ``PATH: not UTF-8 text (...)``, never a ``UnicodeDecodeError``.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ConfigError(f"{path}: cannot read file: {err.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        bom = next((name for mark, name in _BOMS if data.startswith(mark)), None)
        line = data.count(b"\n", 0, err.start) + 1
        why = (
            f"it starts with a {bom} byte-order mark; save it as UTF-8"
            if bom
            else f"byte 0x{data[err.start]:02x} at line {line}, offset {err.start}"
        )
        raise NotTextError(f"{path}: not UTF-8 text ({why})") from None


def load_yaml(path: str | Path) -> Any:
    """Parse a YAML file into ruamel's round-trip objects (they keep line numbers)."""
    path = Path(path)
    text = read_text(path)
    try:
        return YAML(typ="rt").load(text)
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark is not None else 0
        raise ConfigError(f"{path}:{line}: YAML syntax error: {err.problem}") from None
