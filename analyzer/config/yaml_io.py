"""YAML 1.2 loading (ruamel.yaml) with errors that name the file and line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError

from analyzer.errors import AnalyzerError, InputError

#: Largest config file read (bytes): the bundled ones are ~10 kB; a bigger file is a mistake
#: and would take minutes and gigabytes to validate.
MAX_FILE_BYTES = 1_000_000
#: Values that YAML aliases (``*name``) may add to a document beyond its own nodes
#: (a few-hundred-byte "alias bomb" would otherwise expand to hundreds of millions).
MAX_ALIAS_VALUES = 10_000
#: Deepest nesting of lists and mappings in a config file (the bundled ones use < 10).
MAX_DEPTH = 64

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
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise ConfigError(f"{path}: cannot read file: {err.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ConfigError(
            f"{path}: file too large (more than {MAX_FILE_BYTES:,} bytes); "
            "config files are small YAML text"
        )
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
    """Parse a YAML file into ruamel's round-trip objects (they keep line numbers).

    Bounded: at most :data:`MAX_FILE_BYTES`, nesting :data:`MAX_DEPTH` deep, and
    :data:`MAX_ALIAS_VALUES` values added by aliases; any YAML error is one ConfigError.
    """
    path = Path(path)
    text = read_text(path)
    if _flow_depth(text) > MAX_DEPTH:  # ruamel's scanner is quadratic in this depth
        raise ConfigError(f"{path}: nested too deeply (at most {MAX_DEPTH} levels)")
    try:
        doc = YAML(typ="rt").load(text)
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark is not None else 0
        raise ConfigError(f"{path}:{line}: YAML syntax error: {err.problem}") from None
    except ReaderError as err:  # a NUL or other control character
        line = text.count("\n", 0, err.position) + 1
        raise ConfigError(
            f"{path}:{line}: not YAML text: character #x{err.character:04x} is not allowed"
        ) from None
    except YAMLError as err:
        raise ConfigError(f"{path}: YAML error: {' '.join(str(err).split())}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply (at most {MAX_DEPTH} levels)") from None
    _check_size(path, doc)
    return doc


_QUOTED_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|(?:^|(?<=\s))#[^\n]*', re.M)


def _flow_depth(text: str) -> int:
    """Deepest nesting of flow brackets ``[`` / ``{`` outside quotes and comments."""
    depth = deepest = 0
    for found in re.finditer(r"[\[{\]}]", _QUOTED_OR_COMMENT.sub("", text)):
        depth += 1 if found.group() in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _check_size(path: Path, doc: Any) -> None:
    """Refuse a document nested deeper than :data:`MAX_DEPTH` or whose
    aliases expand it by more than :data:`MAX_ALIAS_VALUES` values (an "alias bomb").

    Each list and mapping is sized once (memoised by identity), so this costs the
    document's own size, not its expanded size."""
    expanded: dict[int, int] = {}  # id(container) -> values in it once fully expanded
    own = 0  # values written in the file (each aliased container counted once)

    def size(node: Any, depth: int) -> int:
        nonlocal own
        if not isinstance(node, dict | list):
            return 1
        key = id(node)
        if key in expanded:
            return expanded[key]
        if depth > MAX_DEPTH:
            raise ConfigError(f"{path}: nested too deeply (at most {MAX_DEPTH} levels)")
        children = list(node.values() if isinstance(node, dict) else node)
        own += 1 + sum(not isinstance(child, dict | list) for child in children)
        expanded[key] = 1 + sum(size(child, depth + 1) for child in children)
        return expanded[key]

    total = size(doc, 0)
    if total - own > MAX_ALIAS_VALUES:
        raise ConfigError(
            f"{path}: YAML aliases expand the file to {total:,} values; "
            f"at most {MAX_ALIAS_VALUES:,} values may come from aliases"
        )
