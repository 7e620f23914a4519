"""Balance sweeps: sweep files -> cells -> tasks -> blocks (serial or Dask) -> tables.

* :mod:`~analyzer.experiments.spec`: sweep files, validated and expanded into cells;
* :mod:`~analyzer.experiments.metrics`: what a cell measures (duel, value, matches);
* :mod:`~analyzer.experiments.tasks`: tasks, block identity, the function workers run;
* :mod:`~analyzer.experiments.executor`: serial or Dask execution;
* :mod:`~analyzer.experiments.store`: one Parquet file per finished block, manifest;
* :mod:`~analyzer.experiments.runner`: scheduling, adaptive precision, resume;
* :mod:`~analyzer.experiments.aggregate`: results, paired differences, monotonicity;
* :mod:`~analyzer.experiments.charts`: heatmap and line charts;
* :mod:`~analyzer.experiments.fair_cost`: the fair-cost solver (bisection on CRN);
* :mod:`~analyzer.experiments.cli`: the ``sweep`` and ``fair-cost`` click commands.

The names below are imported on first use, so Dask workers (which only need
:mod:`~analyzer.experiments.tasks`) do not pay for pandas and matplotlib.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "METRICS": "analyzer.experiments.metrics",
    "Metric": "analyzer.experiments.metrics",
    "register_metric": "analyzer.experiments.metrics",
    "SweepPlan": "analyzer.experiments.spec",
    "load_sweep": "analyzer.experiments.spec",
    "SweepOutcome": "analyzer.experiments.sweep",
    "run_sweep": "analyzer.experiments.sweep",
    "fair_cost": "analyzer.experiments.fair_cost",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'analyzer.experiments' has no attribute {name!r}")
