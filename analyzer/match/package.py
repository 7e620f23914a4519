"""Contract members shared by engines whose kernels live in one package.

An engine of this shape keeps its rules in ``analyzer/games/<system>/match/`` with the
block kernel ``match_nb.run_block`` and a trace renderer ``trace.render``; it names the
package, its measured cold compile and its trace-buffer shape, and inherits the rest.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from analyzer.match.contract import N_STANDARD, Setup, UnitInfo


class PackageKernels:
    """``kernel_sources``, ``is_compiled``, ``compile_seconds``, ``trace_buffer`` and
    ``render_trace`` of :class:`~analyzer.match.contract.MatchEngine` for a kernel package."""

    #: The engine's package folder (its ``*.py`` count in the code hash of results).
    package_dir: ClassVar[Path]
    #: Measured cold compile (seconds, on the shared 2-core machine): quiet and busy.
    cold_compile: ClassVar[tuple[int, int]]
    #: Columns and rows of the trace buffer of one match.
    trace_columns: ClassVar[int]
    trace_rows: ClassVar[int] = 6000
    #: The module whose ``render(setup, events)`` writes the play-by-play.
    trace_module: ClassVar[ModuleType]

    def kernel_sources(self) -> list[Path]:
        return sorted(self.package_dir.glob("*.py"))

    def is_compiled(self) -> bool:
        return any((self.package_dir / "__pycache__").glob("match_nb.run_block*.nbi"))

    def compile_seconds(self) -> tuple[int, int]:
        return self.cold_compile

    def trace_buffer(self) -> np.ndarray:
        return np.zeros((self.trace_rows, self.trace_columns), dtype=np.int64)

    def render_trace(self, setup: Setup, events: np.ndarray) -> list[str]:
        return list(self.trace_module.render(setup, events))


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
