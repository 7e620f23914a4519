"""Finding a match's scenario (map, board, mission) file: a path or a bundled name.

Every engine ships its scenarios as ``configs/<system>/<folder>/*.yaml`` and takes
``--scenario`` as either a bundled name or a file.  A value that looks like a path (ends
in ``.yaml``/``.yml`` or holds a slash) must name an existing file, and the error says so
instead of listing the bundled names.
"""

from __future__ import annotations

import os
from pathlib import Path

from analyzer.errors import InputError


def bundled(folder: Path) -> list[str]:
    """The names (file stems) of the scenarios bundled in ``folder``."""
    return sorted(p.stem for p in folder.glob("*.yaml") if p.is_file())


def scenario_file(name: str | Path, folder: Path, *, what: str = "scenario") -> Path:
    """The file of ``name`` (a path, or a bundled name in ``folder``); a one-line
    :class:`InputError` naming the bundled ``what``\\ s when there is none."""
    text = str(name)
    path = Path(text).expanduser()
    if path.suffix in (".yaml", ".yml") or any(sep in text for sep in {"/", os.sep}):
        if path.is_file():
            return path
        why = "is a folder, not a file" if path.is_dir() else "does not exist"
        raise InputError(f"{what} file {text} {why}")
    candidate = folder / f"{text}.yaml"
    if candidate.is_file():
        return candidate
    raise InputError(
        f"unknown {what} {text!r} (a .yaml file, or one of: {', '.join(bundled(folder))})"
    )
