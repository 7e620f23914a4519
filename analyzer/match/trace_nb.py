"""The trace buffer's row writer, shared by the match engines' kernels.

A traced match writes one int64 row per event: kind, when (round or turn), side and nine
values whose meaning the engine's ``trace.py`` gives; rows beyond the buffer are dropped
(the renderer says the trace was cut).
"""

from __future__ import annotations

from numba import njit

#: Columns of a trace row: kind, when, side and nine values.
EVENT_COLUMNS = 12


@njit(cache=True, _nrt=False)
def append_event(ev, n, kind, when, side, a, b, c, d, e, f, h, i, j):  # pragma: no cover
    """Row ``n`` of ``ev`` set to the event when there is room; the new row count."""
    if n >= ev.shape[0]:
        return n
    ev[n, 0] = kind
    ev[n, 1] = when
    ev[n, 2] = side
    ev[n, 3] = a
    ev[n, 4] = b
    ev[n, 5] = c
    ev[n, 6] = d
    ev[n, 7] = e
    ev[n, 8] = f
    ev[n, 9] = h
    ev[n, 10] = i
    ev[n, 11] = j
    return n + 1
