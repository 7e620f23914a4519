"""numba cache handling for match engines: drop an engine's cache when its sources change.

numba keys a cached function on its own file only, so a change in a module it calls (or
in a constant it imports) would leave stale machine code.  Each engine keeps a stamp
(a hash over all the files its kernels depend on) in its ``__pycache__`` and drops only
its own cache files when the stamp changes: editing one engine never recompiles another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

DEFAULT_PATTERNS = ("*_nb.*.nbi", "*_nb.*.nbc")

#: The sources hashed into each stamp refreshed in this process (stamp file -> sources):
#: the conformance tests check that every module an engine's kernels import is among them.
STAMPED: dict[Path, tuple[Path, ...]] = {}


def refresh_cache(
    cache_dir: Path,
    stamp_name: str,
    sources: Iterable[Path],
    patterns: Sequence[str] = DEFAULT_PATTERNS,
) -> bool:
    """Drop the cache files matching ``patterns`` in ``cache_dir`` when the hash of
    ``sources`` differs from the stamp ``stamp_name``; returns whether it dropped them."""
    sources = tuple(Path(p).resolve() for p in sources)
    STAMPED[(cache_dir / stamp_name).resolve()] = sources
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    stamp_file = cache_dir / stamp_name
    stamp = digest.hexdigest()
    try:
        if stamp_file.read_text() == stamp:
            return False
    except OSError:
        pass
    if cache_dir.is_dir():
        for pattern in patterns:
            for path in cache_dir.glob(pattern):
                path.unlink(missing_ok=True)
    try:
        cache_dir.mkdir(exist_ok=True)
        stamp_file.write_text(stamp)
    except OSError:  # a read-only installation: numba falls back to its own cache rules
        pass
    return True


def refresh_kernel_cache(kernel_file: str, stamp_name: str, *depends_on: str | None) -> bool:
    """For a kernel module to call at its top, before its first ``@njit``: drop its
    package's numba cache when the module itself or a file it compiles in (``depends_on``:
    the ``__file__`` of its layout constants, shared kernels...) changed."""
    here = Path(kernel_file)
    sources = [here, *(Path(f) for f in depends_on if f)]
    return refresh_cache(here.parent / "__pycache__", stamp_name, sources)
