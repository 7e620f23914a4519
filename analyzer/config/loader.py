"""Validated loading of user-edited YAML: every problem as ``path:line: field: message``.

``load_model(path, Model)`` parses a YAML 1.2 file with ruamel.yaml (which
keeps line numbers), validates it with a pydantic v2 model (unknown keys
rejected by the models) and raises one :class:`ConfigError` listing *all*
problems of the file, each on its own line.  Semantic checks done after
validation (army-list rules, duplicates) report through :class:`Problems`
with the same format.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from analyzer.config.yaml_io import ConfigError, load_yaml

Model = TypeVar("Model", bound=BaseModel)
#: Problems of one file printed at most; the rest are counted ("... and 12 more problems").
MAX_REPORTED = 20
Loc = Sequence[str | int]


def field_path(loc: Loc) -> str:
    """``("units", 3, "defense")`` -> ``units[3].defense``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "(document)"


def line_of(doc: Any, loc: Loc) -> int:
    """1-based line of the deepest node of ``loc`` found in the ruamel document."""
    line = 1
    node = doc
    for part in loc:
        if isinstance(node, CommentedMap) and part in node:
            line = node.lc.key(part)[0] + 1
            node = node[part]
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node):
            line = node.lc.item(part)[0] + 1
            node = node[part]
        else:
            break
    return line


def to_plain(node: Any) -> Any:
    """ruamel round-trip objects -> plain dicts, lists and scalars."""
    if isinstance(node, dict):
        return {str(k): to_plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_plain(v) for v in node]
    return node


class Problems:
    """Collects ``path:line: field: message`` lines for one file."""

    def __init__(self, path: str | Path, doc: Any) -> None:
        self.path = str(path)
        self.doc = doc
        self._found: list[tuple[int, str]] = []

    @property
    def lines(self) -> list[str]:
        """The problems in file order (stable for problems on the same line)."""
        return [text for _, text in sorted(self._found, key=lambda item: item[0])]

    def add(self, loc: Loc, message: str) -> None:
        line = line_of(self.doc, loc)
        self._found.append((line, f"{self.path}:{line}: {field_path(loc)}: {message}"))

    def add_validation_error(self, error: ValidationError) -> None:
        for item in error.errors(include_url=False):
            loc = [p for p in item["loc"] if not _is_union_tag(p)]
            message = item["msg"].removeprefix("Value error, ")
            if item["type"] == "extra_forbidden":
                message = "unknown key"
            self.add(loc, message)

    def raise_if_any(self) -> None:
        """Raise one ConfigError: the first :data:`MAX_REPORTED` problems and how many more."""
        lines = self.lines
        if len(lines) > MAX_REPORTED:
            more = len(lines) - MAX_REPORTED
            lines = [*lines[:MAX_REPORTED], f"{self.path}: ... and {more:,} more problems"]
        if lines:
            raise ConfigError("\n".join(lines))


def _is_union_tag(part: Any) -> bool:
    # pydantic adds the tag of a discriminated union / function validator to loc
    return isinstance(part, str) and (part.startswith("function-") or part in _UNION_TAGS)


_UNION_TAGS: set[str] = set()


def register_union_tags(*tags: str) -> None:
    """Names that pydantic inserts in error locations for tagged unions (hidden in messages)."""
    _UNION_TAGS.update(tags)


def load_model(
    path: str | Path, model: type[Model], system: str | None = None
) -> tuple[Model, Any]:
    """Parse and validate ``path``; return the model and the raw ruamel document.

    Raises :class:`ConfigError` with every problem of the file, one per line.  With
    ``system``, an invalid file whose ``system:`` names another system gets that one
    line rather than a complaint about each of its fields.
    """
    doc = load_yaml(path)
    problems = Problems(path, doc)
    if doc is None:
        problems.add([], "file is empty")
        problems.raise_if_any()
    try:
        value = model.model_validate(to_plain(doc))
    except ValidationError as err:
        found = doc.get("system") if isinstance(doc, dict) else None
        if system is not None and isinstance(found, str) and found != system:
            problems.add(
                ["system"],
                f"expected {system!r}, found {found!r} (a file of another system; "
                "its fields are not checked)",
            )
        else:
            problems.add_validation_error(err)
        problems.raise_if_any()
        raise  # unreachable: a ValidationError always has at least one problem
    return value, doc
