# mypy: ignore-errors
"""The match context ``X``: one small int64 array with the address and shape of every array.

Every kernel function takes ``X`` and rebuilds the views it needs (``xMI(X)`` etc.).  Numba
passes tuples of arrays by value and reference-counts every array a function receives; with
the 18 arrays of a match that cost more than the rules themselves.  The views built here
carry no meminfo (no reference counting) and ``X`` is a single 1-D array.  The owners of the
memory (the arrays from Python and those allocated by ``match_nb.run_block``) stay alive for
as long as ``X`` is used.

Static arrays: SI, SF, US (models/units, see ``layout``), MIS (missions), TAB (exact wound
tables), OPT (options), SCEN (scenario terrain).  Per match: MF, MI, UI, G, GF, TER, the
generator state RNG, the dice SCRIPT, the trace buffer TR and the scratch arrays WS, WI.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import carray, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from analyzer.games.rapture.match import layout as L

(
    K_SI,
    K_SF,
    K_US,
    K_MIS,
    K_TAB,
    K_OPT,
    K_SCEN,
    K_MF,
    K_MI,
    K_UI,
    K_G,
    K_GF,
    K_TER,
    K_RNG,
    K_SCRIPT,
    K_TR,
    K_WS,
    K_WI,
) = range(18)
N_ARRAYS = 18
SLOT = 8  # address, then up to 6 extents
X_SIZE = L.X_SIZE  # arrays, then the function addresses (layout.X_FN)
assert SLOT * N_ARRAYS <= L.X_FN
#: arrays of one match's state (copied by ``copy_state``)
STATE_KEYS = (K_MF, K_MI, K_UI, K_G, K_GF, K_TER, K_RNG, K_SCRIPT)

#: numba options of the engine's kernels, named once (``error_model="numpy"`` was measured
#: twice against the default: no gain, and the default raises on a division by zero)
JIT: dict[str, Any] = {"cache": True}
#: kernels called only from other kernels (no wrapper for Python or C callers)
INNER = {**JIT, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
#: the subsystems called by address through the function table (``calls_nb``)
BY_ADDRESS = {**JIT, "no_cpython_wrapper": True}
#: small helpers inlined into their callers by numba
INLINE = {**JIT, "inline": "always"}


@intrinsic
def _as_pointer(typingctx, addr):
    """An integer address as a ``void*`` (for ``carray``)."""
    sig = types.voidptr(types.int64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


@njit(**INNER)
def new_context():
    """A zeroed context array and its meminfo-free view (every function the view is passed
    to would otherwise reference-count it); the owner must outlive the view."""
    owner = np.zeros(X_SIZE, dtype=np.int64)
    return owner, carray(_as_pointer(owner.ctypes.data), (X_SIZE,), np.int64)


@njit(**INNER)
def register(X, k, a):
    """Record array ``a`` (C-contiguous) in slot ``k`` of ``X``."""
    b = SLOT * k
    X[b] = a.ctypes.data
    for i in range(a.ndim):
        X[b + 1 + i] = a.shape[i]


@njit(**INNER)
def _i1(X, k):
    b = SLOT * k
    return carray(_as_pointer(X[b]), (X[b + 1],), np.int64)


@njit(**INNER)
def _i2(X, k):
    b = SLOT * k
    return carray(_as_pointer(X[b]), (X[b + 1], X[b + 2]), np.int64)


@njit(**INNER)
def _f1(X, k):
    b = SLOT * k
    return carray(_as_pointer(X[b]), (X[b + 1],), np.float64)


@njit(**INNER)
def _f2(X, k):
    b = SLOT * k
    return carray(_as_pointer(X[b]), (X[b + 1], X[b + 2]), np.float64)


@njit(**INNER)
def xSI(X):
    return _i2(X, K_SI)


@njit(**INNER)
def xSF(X):
    return _f2(X, K_SF)


@njit(**INNER)
def xUS(X):
    return _i2(X, K_US)


@njit(**INNER)
def xMIS(X):
    return _f2(X, K_MIS)


@njit(**INNER)
def xTAB(X):
    b = SLOT * K_TAB
    return carray(
        _as_pointer(X[b]),
        (X[b + 1], X[b + 2], X[b + 3], X[b + 4], X[b + 5], X[b + 6]),
        np.float64,
    )


@njit(**INNER)
def xOPT(X):
    return _i1(X, K_OPT)


@njit(**INNER)
def xSCEN(X):
    return _f2(X, K_SCEN)


@njit(**INNER)
def xMF(X):
    return _f2(X, K_MF)


@njit(**INNER)
def xMI(X):
    return _i2(X, K_MI)


@njit(**INNER)
def xUI(X):
    return _i2(X, K_UI)


@njit(**INNER)
def xG(X):
    return _i1(X, K_G)


@njit(**INNER)
def xGF(X):
    return _f1(X, K_GF)


@njit(**INNER)
def xTER(X):
    return _f2(X, K_TER)


@njit(**INNER)
def xRNG(X):
    b = SLOT * K_RNG
    return carray(_as_pointer(X[b]), (X[b + 1],), np.uint64)


@njit(**INNER)
def xSCRIPT(X):
    return _i1(X, K_SCRIPT)


@njit(**INNER)
def xTR(X):
    return _i2(X, K_TR)


@njit(**INNER)
def xWS(X):
    return _f1(X, K_WS)


@njit(**INNER)
def xWI(X):
    return _i1(X, K_WI)


@njit(**INNER)
def copy_state(X, X2):
    """Copy one match's state from ``X`` into the arrays of ``X2`` (lookahead rollouts)."""
    xMF(X2)[:] = xMF(X)
    xMI(X2)[:] = xMI(X)
    xUI(X2)[:] = xUI(X)
    xG(X2)[:] = xG(X)
    xGF(X2)[:] = xGF(X)
    xTER(X2)[:] = xTER(X)
    xRNG(X2)[:] = xRNG(X)
    xSCRIPT(X2)[:] = xSCRIPT(X)
