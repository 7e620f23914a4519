"""Each engine's numba cache is dropped when, and only when, its own sources change."""

from __future__ import annotations

from pathlib import Path

from analyzer.games import match_engine, match_systems
from analyzer.match.cache import refresh_cache, refresh_kernel_cache


def test_refresh_drops_only_this_engines_cache_and_only_on_a_change(tmp_path: Path) -> None:
    src = tmp_path / "rules_nb.py"
    src.write_text("x = 1\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    mine = cache / "rules_nb.f-1.py311.nbi"
    other = cache / "other.stamp"
    for path in (mine, other):
        path.write_text("cached")
    assert refresh_cache(cache, "a.sha256", [src])  # first stamp: nothing known yet
    mine.write_text("cached")
    assert not refresh_cache(cache, "a.sha256", [src]) and mine.exists()
    src.write_text("x = 2\n")
    assert refresh_cache(cache, "a.sha256", [src])
    assert not mine.exists() and other.exists()


def test_a_kernel_module_cache_drops_when_a_file_it_compiles_in_changes(tmp_path: Path) -> None:
    """numba keys a cache on the kernel's own file: a changed layout constant must drop it."""
    kernel = tmp_path / "match_nb.py"
    layout = tmp_path / "layout.py"
    kernel.write_text("def f(): ...\n")
    layout.write_text("S_HP = 3\n")
    cached = tmp_path / "__pycache__" / "match_nb.f-1.py311.nbi"
    refresh_kernel_cache(str(kernel), "k.stamp", str(layout), None)
    cached.write_text("cached")
    assert not refresh_kernel_cache(str(kernel), "k.stamp", str(layout)) and cached.exists()
    layout.write_text("S_HP = 4\n")
    assert refresh_kernel_cache(str(kernel), "k.stamp", str(layout)) and not cached.exists()


def test_no_engine_depends_on_another_engines_files() -> None:
    """Editing one engine must not recompile another: no engine's sources (which key
    its stored results and, for Rapture, its cache stamp) lie in another's package."""
    folders = {s: {p.parent for p in match_engine(s).kernel_sources()} for s in match_systems()}
    for system, own in folders.items():
        for other, theirs in folders.items():
            if other != system:
                assert not own & theirs, (system, other)
    from analyzer.games.rapture.match import kernels

    for path in kernels._sources():  # Rapture's own files, dice kernels, shared kernels
        shared_kernel = "analyzer/match/" in path.as_posix() and path.name.endswith("_nb.py")
        assert shared_kernel or any(
            part in path.as_posix() for part in ("games/rapture/", "analyzer/dice/")
        ), path
