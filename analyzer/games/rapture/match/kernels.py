"""Compiled entry points of the match engine.

Each subsystem listed in ``calls_nb.SIGS`` is compiled once for its signature (or loaded
from numba's on-disk cache) and its JIT address handed to the kernels in the context ``X``;
the block runner is compiled for an explicit signature with ``nogil`` so that blocks of
matches run on Python threads.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit, types
from numba.experimental.function_type import _get_jit_address

from analyzer.dice import random_nb
from analyzer.games.rapture.match import (
    driver_nb,
    engine_nb,
    lookahead_nb,
    match_nb,
    policies_nb,
    state_nb,
)
from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.match.calls_nb import SIGS
from analyzer.games.rapture.match.context_nb import JIT
from analyzer.match import paired_nb, seeding_nb
from analyzer.match.cache import refresh_cache as shared_refresh

I1 = types.int64[::1]
I2 = types.int64[:, ::1]
I3 = types.Array(types.int64, 3, "C")
F1 = types.float64[::1]
F2 = types.float64[:, ::1]
U1 = types.uint64[::1]
TAB = types.Array(types.float64, 6, "C")
#: ``S = (SI, SF, US, MIS, TAB, OPT, SCEN)``
S_T = types.Tuple((I2, F2, I2, F2, TAB, I1, F2))
_i = types.int64

#: the functions called by address, by ``layout.F_*``
FUNCTIONS: dict[int, Any] = {
    L.F_CANDIDATES: policies_nb.candidates,
    L.F_MOVE: engine_nb.do_move,
    L.F_CC: engine_nb.do_close_combat,
    L.F_RANGED: engine_nb.do_ranged,
    L.F_RETREAT: engine_nb.do_retreat,
    L.F_PREP: engine_nb.preparation,
    L.F_CLEANUP: engine_nb.cleanup,
    L.F_END: engine_nb.end_of_game,
    L.F_CHOOSE: policies_nb.choose_unit,
    L.F_START: engine_nb.start_activation,
    L.F_AFTER: engine_nb.after_action,
    L.F_ADD_MARKER: state_nb.add_marker,
    L.F_REMOVE_MARKER: state_nb.remove_marker,
    L.F_MOVE_UNIT: state_nb.move_unit,
    L.F_STRIKE: engine_nb.strike,
    L.F_WALK: state_nb.walk,
    L.F_WOUND: state_nb.wound_model,
    L.F_ESCAPE: state_nb.escape_move,
    L.F_FORMATION: state_nb.restore_formation,
    L.F_DRIVE: driver_nb.drive,
    L.F_FINISH: driver_nb.finish_activation,
    L.F_LOOKAHEAD: lookahead_nb.activate_lookahead,
    L.F_CHOOSE_LOOKAHEAD: lookahead_nb.choose_unit_lookahead,
    L.F_SETUP: match_nb.setup_match,
    L.F_LOSE_MP: state_nb.lose_mp,
    L.F_PREPARE: policies_nb.prepare_values,
    L.F_VALUE_AT: policies_nb.value_at,
}
assert sorted(FUNCTIONS) == list(range(L.N_F)) == sorted(SIGS)

RUN_BLOCK_SIG = _i(S_T, I1, U1, _i, _i, I2, I3, _i, I2, _i)

HERE = Path(__file__).resolve().parent
CACHE_DIR = HERE / "__pycache__"
STAMP = CACHE_DIR / "rapture_match_sources.sha256"


def _sources() -> list[Path]:
    """The files the compiled code depends on (the numba modules, the layout constants, this
    module, the shared kernels it compiles in); the Python-only modules of the package may
    change without a recompile."""
    own = [*sorted(HERE.glob("*_nb.py")), HERE / "layout.py", HERE / "kernels.py"]
    shared = [Path(str(m.__file__)) for m in (random_nb, seeding_nb, paired_nb)]
    return [*own, *shared, HERE.parent / "rules.py"]


def refresh_cache() -> None:
    """Drop the engine's numba cache when any engine source changed
    (:func:`analyzer.match.cache.refresh_cache`)."""
    patterns = ("*_nb.*.nbi", "*_nb.*.nbc", "kernels.*.nbi", "kernels.*.nbc")
    shared_refresh(CACHE_DIR, STAMP.name, _sources(), patterns)


refresh_cache()

#: ``state_nb.ev`` (a trace event: the context and twelve integer fields) is called at about
#: fifty sites, mostly with constants; numba compiles a function once per pattern of literal
#: arguments, so ``ev`` is compiled once for int64 fields and closed to further versions
#: (its callers then convert their constants).  Only after :func:`refresh_cache`.
state_nb.ev.compile(types.none(I1, *([_i] * 12)))
state_nb.ev.disable_compile()


@functools.cache
def function_table() -> np.ndarray:
    """JIT addresses of the functions called by address (compiled or loaded from the cache)."""
    addresses = np.zeros(L.N_F, dtype=np.int64)
    for k, dispatcher in FUNCTIONS.items():
        dispatcher.compile(SIGS[k])
        addresses[k] = _get_jit_address(dispatcher, SIGS[k])
    return addresses


@functools.cache
def block_runner() -> Any:
    """``match_nb.run_block`` compiled for ``RUN_BLOCK_SIG``, releasing the GIL."""
    return njit(RUN_BLOCK_SIG, nogil=True, **JIT)(match_nb.run_block)
