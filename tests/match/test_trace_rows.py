"""The shared trace-row writer of the engines' kernels (analyzer/match/trace_nb.py)."""

from __future__ import annotations

import numpy as np

from analyzer.match.trace_nb import append_event


def test_rows_are_written_in_order_and_dropped_when_the_buffer_is_full() -> None:
    ev = np.zeros((2, 12), dtype=np.int64)
    n = append_event(ev, 0, 5, 1, 0, *range(10, 19))
    n = append_event(ev, n, 6, 2, 1, *range(20, 29))
    assert n == 2
    assert ev[0].tolist() == [5, 1, 0, *range(10, 19)]
    assert ev[1].tolist() == [6, 2, 1, *range(20, 29)]
    assert append_event(ev, n, 7, 3, 0, *range(9)) == 2
    assert ev[1].tolist() == [6, 2, 1, *range(20, 29)]
