# mypy: ignore-errors
"""The match context ``X``: one small int64 array with the address and shape of every array.

Every kernel function takes ``X`` and rebuilds the views it needs (``xMI(X)`` etc.).  Numba
passes tuples of arrays by value and reference-counts every array a function receives; with
the 18 arrays of a match that cost more than the rules themselves.  The views built here
carry no meminfo and ``X`` is a single 1-D array.  The owners of the memory (the arrays from
Python and those allocated by ``match_nb.run_block``) stay alive for as long as ``X`` is used.

Even views without meminfo cost a call into numba's runtime each time a function creates
or drops one (numba cannot know they own nothing), so the kernels are compiled without the
runtime (``INNER``, ``BY_ADDRESS``: ``_nrt=False``) and the views are intrinsics built in
place.  Such a kernel cannot allocate, copy arrays or return an array it did not receive
(numba refuses to compile it, so a mistake shows at once); the few that allocate are
``ALLOCATING``.

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
from numba.np.arrayobj import populate_array

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
#: arrays of one match's state (copied by ``copy_state``; all with 8-byte items)
STATE_KEYS = (K_MF, K_MI, K_UI, K_G, K_GF, K_TER, K_RNG, K_SCRIPT)

#: numba options of the engine's kernels, named once (``error_model="numpy"`` was measured
#: twice against the default: no gain, and the default raises on a division by zero)
JIT: dict[str, Any] = {"cache": True}
#: kernels that allocate arrays, called only from other kernels (no wrapper for Python or
#: C callers); ``_nrt`` is set explicitly because numba passes a caller's ``_nrt=False`` on
#: to every callee that does not set it
ALLOCATING = {**JIT, "no_cpython_wrapper": True, "no_cfunc_wrapper": True, "_nrt": True}
#: every other kernel: compiled without numba's runtime (``_nrt=False``), so without the
#: reference counting numba would otherwise do on every array view of the context (the
#: views own no memory); such a kernel must not allocate, nor keep an allocated array
INNER = {**ALLOCATING, "_nrt": False}
#: the subsystems called by address through the function table (``calls_nb``)
BY_ADDRESS = {**JIT, "no_cpython_wrapper": True, "_nrt": False}
#: small helpers inlined into their callers by numba
INLINE = {**JIT, "inline": "always"}


@intrinsic
def _as_pointer(typingctx, addr):
    """An integer address as a ``void*`` (for ``carray``)."""
    sig = types.voidptr(types.int64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


@njit(**ALLOCATING)
def new_context():
    """A zeroed context array and its meminfo-free view (every function the view is passed
    to would otherwise reference-count it); the owner must outlive the view."""
    owner = np.zeros(X_SIZE, dtype=np.int64)
    return owner, carray(_as_pointer(owner.ctypes.data), (X_SIZE,), np.int64)


@njit(**INNER)
def register(X, k, a):
    """Record array ``a`` (C-contiguous) in slot ``k`` of ``X`` (``k`` an int64, not a
    literal, so that numba compiles one version per array type, not per slot)."""
    b = SLOT * k
    X[b] = a.ctypes.data
    for i in range(a.ndim):
        X[b + 1 + i] = a.shape[i]


#: extents fixed by the layout, per array slot (-1: read from ``X``); compiled into the views
#: as constants, so that indexing multiplies by constant strides, and checked by
#: :func:`check_extents` when a context is made
FIXED = np.full((N_ARRAYS, 6), -1, dtype=np.int64)


def _view(k, dtype, ndim, fixed=()):
    """An intrinsic ``view(X)``: the C-contiguous array registered in slot ``k`` of ``X``,
    built in place from its address and extents, owning no memory (no meminfo).  An
    intrinsic rather than a function, so that kernels compiled without numba's runtime
    may use it (they may not return arrays they did not receive).  ``fixed``: the last
    extents, when the layout fixes them (constants in the compiled code).

    The address and extents are read with LLVM's ``invariant.load``: numba emits no alias
    information, so without it every store into any array would force every view of the
    inlined helpers to be read from ``X`` again.  This holds because the slots of ``X`` are
    written only by :func:`register`, in ``match_nb.make_context``, before any view of that
    context is built, and never change afterwards."""
    array_type = types.Array(dtype, ndim, "C")
    for d, extent in enumerate(fixed):
        FIXED[k, ndim - len(fixed) + d] = extent

    @intrinsic
    def view(typingctx, X):
        def codegen(context, builder, signature, args):
            (x_type,) = signature.args
            x = context.make_array(x_type)(context, builder, args[0])

            def slot(i):
                at = context.get_constant(types.intp, SLOT * k + i)
                value = builder.load(builder.gep(x.data, [at]))
                value.set_metadata("invariant.load", builder.module.add_metadata([]))
                return value

            item = context.get_data_type(dtype)
            itemsize = context.get_constant(types.intp, context.get_abi_sizeof(item))
            shape = [
                slot(1 + d) if FIXED[k, d] < 0 else context.get_constant(types.intp, FIXED[k, d])
                for d in range(ndim)
            ]
            strides = [itemsize] * ndim
            for d in range(ndim - 2, -1, -1):
                strides[d] = builder.mul(strides[d + 1], shape[d + 1])
            out = context.make_array(array_type)(context, builder)
            populate_array(
                out,
                data=builder.inttoptr(slot(0), item.as_pointer()),
                shape=shape,
                strides=strides,
                itemsize=itemsize,
                meminfo=None,
            )
            return out._getvalue()

        return array_type(X), codegen

    return view


xSI = _view(K_SI, types.int64, 2, (L.SI_COLS,))
xSF = _view(K_SF, types.float64, 2, (L.SF_COLS,))
xUS = _view(K_US, types.int64, 2, (L.US_COLS,))
xMIS = _view(K_MIS, types.float64, 2, (L.M_COLS,))
xTAB = _view(K_TAB, types.float64, 6, (L.MAX_DICE + 1, 8, L.MAX_BLOCK + 1, 2, 2, L.MAX_DICE + 2))
xOPT = _view(K_OPT, types.int64, 1)
xSCEN = _view(K_SCEN, types.float64, 2, (L.MAX_TERRAIN, L.T_COLS))
xMF = _view(K_MF, types.float64, 2, (L.MF_COLS,))
xMI = _view(K_MI, types.int64, 2, (L.MI_COLS,))
xUI = _view(K_UI, types.int64, 2, (L.UI_COLS,))
xG = _view(K_G, types.int64, 1)
xGF = _view(K_GF, types.float64, 1)
xTER = _view(K_TER, types.float64, 2, (L.MAX_TERRAIN, L.T_COLS))
xRNG = _view(K_RNG, types.uint64, 1)
xSCRIPT = _view(K_SCRIPT, types.int64, 1)
xTR = _view(K_TR, types.int64, 2, (L.EV_COLS,))
xWS = _view(K_WS, types.float64, 1)
xWI = _view(K_WI, types.int64, 1)


def span(k, dtype, base=0, step=1):
    """An intrinsic ``span(X, i, n)``: ``view(X)[s : s + n]`` with ``s = base + step * i`` of
    the 1-D array in slot ``k``, built in place like :func:`_view` (no bounds check: the
    callers keep ``s + n`` within the layout's block).  An intrinsic rather than a function
    inlined by numba, which would type the body again at every call site."""
    array_type = types.Array(dtype, 1, "C")

    @intrinsic
    def view_span(typingctx, X, i, n):
        def codegen(context, builder, signature, args):
            x_type = signature.args[0]
            x = context.make_array(x_type)(context, builder, args[0])
            at = context.get_constant(types.intp, SLOT * k)
            address = builder.load(builder.gep(x.data, [at]))
            address.set_metadata("invariant.load", builder.module.add_metadata([]))
            item = context.get_data_type(dtype)
            itemsize = context.get_constant(types.intp, context.get_abi_sizeof(item))
            start = builder.add(
                context.get_constant(types.intp, base),
                builder.mul(context.get_constant(types.intp, step), args[1]),
            )
            data = builder.gep(builder.inttoptr(address, item.as_pointer()), [start])
            out = context.make_array(array_type)(context, builder)
            populate_array(
                out, data=data, shape=[args[2]], strides=[itemsize], itemsize=itemsize, meminfo=None
            )
            return out._getvalue()

        return array_type(X, types.intp, types.intp), codegen

    return view_span


@njit(**INNER)
def check_extents(X):
    """Every registered array has the extents the views were compiled with (``FIXED``)."""
    for k in range(N_ARRAYS):
        for d in range(6):
            if FIXED[k, d] >= 0 and X[SLOT * k + 1 + d] != FIXED[k, d]:
                raise ValueError("match context: an array does not have its layout's shape")


@njit(**ALLOCATING)
def copy_state(X, X2):
    """Copy one match's state from ``X`` into the arrays of ``X2`` (lookahead rollouts): the
    arrays of ``STATE_KEYS`` word by word (all have 8-byte items and the same extents in
    both contexts).  A loop over raw words rather than eight slice assignments, whose
    broadcasting code LLVM would optimise again in every function that calls this one."""
    for k in STATE_KEYS:
        b = SLOT * k
        n = X[b + 1]
        if k != K_G and k != K_GF and k != K_RNG and k != K_SCRIPT:
            n *= X[b + 2]  # the 2-D arrays
        src = carray(_as_pointer(X[b]), (n,), np.int64)
        dst = carray(_as_pointer(X2[b]), (n,), np.int64)
        for i in range(n):
            dst[i] = src[i]
