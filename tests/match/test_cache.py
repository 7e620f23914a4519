"""Each engine's numba cache is dropped when, and only when, its own sources change."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from analyzer.games import match_engine, match_systems
from analyzer.match import play_matches
from analyzer.match.cache import STAMPED, refresh_cache, refresh_kernel_cache
from analyzer.match.contract import sample_sides


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


ROOT = Path(__file__).resolve().parents[2]


def module_file(name: str) -> Path | None:
    """The source file of module ``analyzer.x.y`` in this checkout, if it is a module."""
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path.resolve()
    return None


def analyzer_imports(path: Path) -> set[Path]:
    """The files of the ``analyzer.*`` modules that ``path`` imports (``from analyzer.x
    import y`` counts ``analyzer.x.y`` when that is a module, else ``analyzer.x``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names if a.name.startswith("analyzer.")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("analyzer"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                names.add(sub if module_file(sub) else str(node.module))
    return {f for f in map(module_file, names) if f is not None}


@pytest.mark.parametrize("system", match_systems())
def test_every_module_an_engines_kernels_import_is_in_its_cache_stamp(system: str) -> None:
    """numba keys a cache on the kernel's own file, so each file a kernel module compiles
    in (layout constants, dice kernels, the framework's shared kernels) must be hashed
    into the engine's cache stamp, or an edit of it leaves stale machine code."""
    engine = match_engine(system)
    side_a, side_b = sample_sides(engine)
    play_matches(system, side_a, side_b, matches=1)  # imports the kernels: stamps refreshed
    package = Path(str(sys.modules[type(engine).__module__].__file__)).resolve().parent
    stamped = {p for stamp, srcs in STAMPED.items() if stamp.parent.parent == package for p in srcs}
    kernels = sorted(package.glob("*_nb.py"))
    assert kernels and stamped, system
    not_compiled_in = {ROOT / "analyzer/match/cache.py"}
    for kernel in kernels:
        assert kernel.resolve() in stamped, kernel.name
        for file in analyzer_imports(kernel) - not_compiled_in:
            assert file in stamped, f"{kernel.name} imports {file.name}, not in the stamp"
