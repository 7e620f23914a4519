"""Contract members shared by engines whose kernels live in one package.

An engine of this shape keeps its rules in ``analyzer/games/<system>/match/`` with the
block kernel ``match_nb.run_block`` and a trace renderer ``trace.render``; it names its
measured cold compile and its trace-buffer rows, and inherits the rest.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from analyzer.match.contract import N_STANDARD, Setup, UnitInfo
from analyzer.match.trace_nb import EVENT_COLUMNS


class PackageKernels:
    """``kernel_sources``, ``is_compiled``, ``compile_seconds``, ``trace_buffer`` and
    ``render_trace`` of :class:`~analyzer.match.contract.MatchEngine` for a kernel package:
    the folder of the engine's own module, with ``match_nb.py`` and ``trace.py`` in it."""

    #: Measured cold compile (seconds, on the shared 2-core machine): quiet and busy.
    cold_compile: ClassVar[tuple[int, int]]
    #: Rows of the trace buffer of one match (columns: :data:`EVENT_COLUMNS`).
    trace_rows: ClassVar[int] = 6000

    @property
    def package_dir(self) -> Path:
        """The engine's package folder (its ``*.py`` count in the code hash of results)."""
        return Path(str(sys.modules[type(self).__module__].__file__)).resolve().parent

    def kernel_sources(self) -> list[Path]:
        return sorted(self.package_dir.glob("*.py"))

    def is_compiled(self) -> bool:
        return any((self.package_dir / "__pycache__").glob("match_nb.run_block*.nbi"))

    def compile_seconds(self) -> tuple[int, int]:
        return self.cold_compile

    def trace_buffer(self) -> np.ndarray:
        return np.zeros((self.trace_rows, EVENT_COLUMNS), dtype=np.int64)

    def render_trace(self, setup: Setup, events: np.ndarray) -> list[str]:
        package = type(self).__module__.rsplit(".", 1)[0]
        return list(importlib.import_module(f"{package}.trace").render(setup, events))


def points_by_side(units: list[UnitInfo]) -> tuple[int, int]:
    """The points of side A's units and of side B's."""
    return (
        sum(u.points for u in units if u.side == 0),
        sum(u.points for u in units if u.side == 1),
    )


def extras_means(
    record_extras: tuple[str, ...], rec: np.ndarray, names: tuple[str, ...] | None = None
) -> dict[str, Any]:
    """Per-match means of the engine's record columns ``names`` (default: all of them)."""
    col = {name: N_STANDARD + i for i, name in enumerate(record_extras)}
    return {name: float(rec[:, col[name]].mean()) for name in (names or record_extras)}
