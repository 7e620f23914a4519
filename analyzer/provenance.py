"""Provenance carried by every output row: versions and a hash of the data used."""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

import numba
import numpy as np

RULES_DIR = Path(__file__).resolve().parent / "games"


def package_version() -> str:
    try:
        return metadata.version("analyzer")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0+unknown"


def versions() -> dict[str, str]:
    """Versions of the package and the numeric libraries that produce the numbers."""
    return {
        "analyzer_version": package_version(),
        "numpy_version": np.__version__,
        "numba_version": numba.__version__,
    }


def data_hash(*paths: str | Path, system: str | None = None) -> str:
    """Short SHA-256 over the given data files and (optionally) the system's rules code."""
    digest = hashlib.sha256()
    files = [Path(p) for p in paths]
    if system is not None:
        files += sorted((RULES_DIR / system).glob("*.py"))
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
