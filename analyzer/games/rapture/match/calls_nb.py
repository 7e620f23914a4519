# mypy: ignore-errors
"""Calls by address between engine subsystems (no linking, no re-optimisation).

A direct call between numba functions links the callee's whole code into the caller's
module and optimises it again, at every level of the call graph; for a game engine that
multiplies the cold compile time.  The heavy subsystems are therefore compiled once each
(``kernels.TABLE``) and called through their addresses, which ``match_nb.run_block`` stores
in the context ``X`` (slots ``X_FN + F_*``).  ``_pointer_call(sig)`` builds an intrinsic
that calls an address with numba's own calling convention (what numba does for first-class
functions with a known JIT address), without Python objects or the GIL.
"""

from __future__ import annotations

from typing import Any

from numba import njit, types
from numba.extending import intrinsic

from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.match.context_nb import INNER

I1 = types.int64[::1]
F1 = types.float64[::1]
F2 = types.float64[:, ::1]
_i = types.int64
_f = types.float64
_b = types.boolean
_n = types.none

#: signatures of the functions called by address (``X`` is the context array)
SIGS: dict[int, Any] = {
    L.F_CANDIDATES: _i(I1, _i, F2, _i),
    L.F_MOVE: _n(I1, _i, _f, _f, _b, _i),
    L.F_CC: _n(I1, _i, _i),
    L.F_RANGED: _n(I1, _i, _i),
    L.F_RETREAT: _n(I1, _i, _f, _f),
    L.F_PREP: _n(I1),
    L.F_CLEANUP: _n(I1),
    L.F_END: _n(I1),
    L.F_CHOOSE: _i(I1, _i, _i),
    L.F_START: _n(I1, _i),
    L.F_AFTER: _n(I1),
    L.F_ADD_MARKER: _n(I1, _i, _i, _i, _i),
    L.F_REMOVE_MARKER: _n(I1, _i, _i, _i),
    L.F_MOVE_UNIT: types.Tuple((_i, _f, _f, _b))(I1, _i, _f, _f, _i, _b),
    L.F_STRIKE: _i(I1, _i, I1, _i, _i, _i, _i, _i),
    L.F_WALK: types.Tuple((_f, _f, _i, _b, _b, _f))(I1, _i, F1, F1, _i, _f, _i, _b),
    L.F_WOUND: _i(I1, _i, _i, _i, _i),
    L.F_ESCAPE: _n(I1, _i),
    L.F_FORMATION: _n(I1, _i, _b),
    L.F_DRIVE: _i(I1, F2, _i, _b),
    L.F_FINISH: _n(I1, _i, _i, F2),
    L.F_LOOKAHEAD: _n(I1, _i, F2, F2, I1),
    L.F_CHOOSE_LOOKAHEAD: _i(I1, _i, F2, I1),
    L.F_SETUP: _n(I1),
    L.F_LOSE_MP: _n(I1, _i, _i, _i),
    L.F_PREPARE: _n(I1, _i, F2),
    L.F_VALUE_AT: types.UniTuple(_f, 3)(I1, _i, F2, _f, _f, _i, _i, _i),
}


def _pointer_call(fsig: Any) -> Any:
    """An intrinsic ``call(addr, a0, a1, ...)`` calling the function at ``addr`` typed ``fsig``.

    (Intrinsics need a fixed number of parameters, so the typing function is generated for
    the signature's arity.)
    """
    names = ", ".join(f"a{i}" for i in range(len(fsig.args)))
    source = f"def call(typingctx, addr, {names}):\n    return _typing()\n"

    def _typing() -> Any:
        sig = fsig.return_type(types.int64, *fsig.args)

        def codegen(context: Any, builder: Any, signature: Any, llargs: Any) -> Any:
            fnty = context.call_conv.get_function_type(fsig.return_type, fsig.args)
            fptr = builder.inttoptr(llargs[0], fnty.as_pointer())
            _, res = context.call_conv.call_function(
                builder, fptr, fsig.return_type, fsig.args, llargs[1:]
            )
            return res

        return sig, codegen

    scope: dict[str, Any] = {"_typing": _typing}
    exec(source, scope)
    return intrinsic(scope["call"])


_call = {k: _pointer_call(sig) for k, sig in SIGS.items()}
_c_candidates = _call[L.F_CANDIDATES]
_c_move = _call[L.F_MOVE]
_c_cc = _call[L.F_CC]
_c_ranged = _call[L.F_RANGED]
_c_retreat = _call[L.F_RETREAT]
_c_prep = _call[L.F_PREP]
_c_cleanup = _call[L.F_CLEANUP]
_c_end = _call[L.F_END]
_c_choose = _call[L.F_CHOOSE]
_c_start = _call[L.F_START]
_c_after = _call[L.F_AFTER]
_c_add_marker = _call[L.F_ADD_MARKER]
_c_remove_marker = _call[L.F_REMOVE_MARKER]
_c_move_unit = _call[L.F_MOVE_UNIT]
_c_strike = _call[L.F_STRIKE]
_c_walk = _call[L.F_WALK]
_c_wound = _call[L.F_WOUND]
_c_escape = _call[L.F_ESCAPE]
_c_formation = _call[L.F_FORMATION]
_c_drive = _call[L.F_DRIVE]
_c_finish = _call[L.F_FINISH]
_c_lookahead = _call[L.F_LOOKAHEAD]
_c_choose_lookahead = _call[L.F_CHOOSE_LOOKAHEAD]
_c_setup = _call[L.F_SETUP]
_c_lose_mp = _call[L.F_LOSE_MP]
_c_prepare = _call[L.F_PREPARE]
_c_value_at = _call[L.F_VALUE_AT]

FN = L.X_FN


@njit(**INNER)
def p_candidates(X, u, C, mode):
    return _c_candidates(X[FN + L.F_CANDIDATES], X, u, C, mode)


@njit(**INNER)
def p_move(X, u, gx, gy, charge, target):
    _c_move(X[FN + L.F_MOVE], X, u, gx, gy, charge, target)


@njit(**INNER)
def p_close_combat(X, actor, target):
    _c_cc(X[FN + L.F_CC], X, actor, target)


@njit(**INNER)
def p_ranged(X, actor, target):
    _c_ranged(X[FN + L.F_RANGED], X, actor, target)


@njit(**INNER)
def p_retreat(X, u, dx, dy):
    _c_retreat(X[FN + L.F_RETREAT], X, u, dx, dy)


@njit(**INNER)
def p_preparation(X):
    _c_prep(X[FN + L.F_PREP], X)


@njit(**INNER)
def p_cleanup(X):
    _c_cleanup(X[FN + L.F_CLEANUP], X)


@njit(**INNER)
def p_end_of_game(X):
    _c_end(X[FN + L.F_END], X)


@njit(**INNER)
def p_choose_unit(X, side, policy):
    return _c_choose(X[FN + L.F_CHOOSE], X, side, policy)


@njit(**INNER)
def p_start_activation(X, u):
    _c_start(X[FN + L.F_START], X, u)


@njit(**INNER)
def p_after_action(X):
    _c_after(X[FN + L.F_AFTER], X)


@njit(**INNER)
def p_add_marker(X, u, kind, n, credit_side):
    _c_add_marker(X[FN + L.F_ADD_MARKER], X, u, kind, n, credit_side)


@njit(**INNER)
def p_remove_marker(X, u, kind, n):
    _c_remove_marker(X[FN + L.F_REMOVE_MARKER], X, u, kind, n)


@njit(**INNER)
def p_move_unit(X, u, gx, gy, mode, dry):
    return _c_move_unit(X[FN + L.F_MOVE_UNIT], X, u, gx, gy, mode, dry)


@njit(**INNER)
def p_strike(X, kind, attackers, na, t, dodged, cover, lof):
    return _c_strike(X[FN + L.F_STRIKE], X, kind, attackers, na, t, dodged, cover, lof)


@njit(**INNER)
def p_walk(X, m, wx, wy, n, budget, mode, dry):
    return _c_walk(X[FN + L.F_WALK], X, m, wx, wy, n, budget, mode, dry)


@njit(**INNER)
def p_wound(X, m, w, credit_side, credit_unit):
    return _c_wound(X[FN + L.F_WOUND], X, m, w, credit_side, credit_unit)


@njit(**INNER)
def p_escape_move(X, u):
    _c_escape(X[FN + L.F_ESCAPE], X, u)


@njit(**INNER)
def p_restore_formation(X, u, engaging):
    _c_formation(X[FN + L.F_FORMATION], X, u, engaging)


@njit(**INNER)
def p_drive(X, C, max_activations, stop_at_lookahead):
    return _c_drive(X[FN + L.F_DRIVE], X, C, max_activations, stop_at_lookahead)


@njit(**INNER)
def p_finish_activation(X, u, policy, C):
    _c_finish(X[FN + L.F_FINISH], X, u, policy, C)


@njit(**INNER)
def p_activate_lookahead(X, u, C, C2, X2):
    _c_lookahead(X[FN + L.F_LOOKAHEAD], X, u, C, C2, X2)


@njit(**INNER)
def p_choose_unit_lookahead(X, u, C2, X2):
    return _c_choose_lookahead(X[FN + L.F_CHOOSE_LOOKAHEAD], X, u, C2, X2)


@njit(**INNER)
def p_setup_match(X):
    _c_setup(X[FN + L.F_SETUP], X)


@njit(**INNER)
def p_lose_mp(X, u, amount, credit_side):
    _c_lose_mp(X[FN + L.F_LOSE_MP], X, u, amount, credit_side)


@njit(**INNER)
def p_prepare_values(X, u, W):
    _c_prepare(X[FN + L.F_PREPARE], X, u, W)


@njit(**INNER)
def p_value_at(X, u, W, x, y, ap_left, moves_left, contact):
    return _c_value_at(X[FN + L.F_VALUE_AT], X, u, W, x, y, ap_left, moves_left, contact)
