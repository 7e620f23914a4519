"""Hand-built positions for rule tests: place figurines, script the D20s, run one operation.

>>> box = Sandbox(setup)               # a prepared d20 match-up (``ENGINE.prepare``)
>>> box.place(0, 50, 40, facing=90)    # figurine 0 (record order) at (50, 40) cm facing +y
>>> box.place(4, 50, 70, facing=-90)
>>> box.script([12])                   # the next D20 results, in rolling order
>>> box.shoot(0, 4)
>>> box.cp(4), box.lines()

Every operation runs the engine's own kernels through ``match_nb.sandbox_op`` (its
operation codes: the kernels the match runner's ``run_block`` calls).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from analyzer.games.d20.match import layout as L
from analyzer.games.d20.match import trace as T

MODES = {"normal": L.M_NORMAL, "watchful": L.M_WATCHFUL, "ready": L.M_READY}
POLICIES = {"random": L.POL_RANDOM, "greedy": L.POL_GREEDY}


class Sandbox:
    """One match state (every figurine off the table until placed)."""

    def __init__(self, setup: Any, trace_rows: int = 2000) -> None:
        self.setup = setup
        self.arrays = tuple(a.copy() for a in setup.arrays)
        fi, ter, sc = self.arrays[0], self.arrays[2], self.arrays[3]
        n = fi.shape[0]
        self.n = n
        self.nobj = int(sc[L.S_NOBJ])
        self.p = np.zeros((n + self.nobj, L.P_COLS))
        self.p[:, L.P_X] = L.OFF_BOARD
        self.p[:, L.P_Y] = L.OFF_BOARD
        ob = int(sc[L.S_OBASE])
        for o in range(self.nobj):  # the throwable objects where the scenario puts them
            self.p[n + o, L.P_X] = ter[ob + o, L.OB_X]
            self.p[n + o, L.P_Y] = ter[ob + o, L.OB_Y]
        self.s = np.zeros((n + self.nobj, L.S_COLS), dtype=np.int64)
        self.g = np.zeros(L.G_COLS, dtype=np.int64)
        self.g[L.G_END] = -1
        self.g[L.G_TURN] = 1
        op, sc = self.arrays[4], self.arrays[3]
        self.g[L.G_MAXT] = op[L.O_MAXTURNS] if op[L.O_MAXTURNS] > 0 else int(sc[L.S_TURNS])
        self.g[L.G_TRACE] = 1
        self.dc = np.zeros(1, dtype=np.int64)
        self.rng = np.array([12345, 67890, 1, 2, 0, 0], dtype=np.uint64)
        self.ev = np.zeros((trace_rows, L.EV_COLS), dtype=np.int64)

    # ---------------------------------------------------------------- state
    def place(
        self,
        i: int,
        x: float,
        y: float,
        facing: float = 90.0,
        cp: int | None = None,
        mode: str | None = None,
    ) -> None:
        """Put figurine ``i`` at (x, y) cm facing ``facing`` degrees (0 = +x, 90 = +y)."""
        fi = self.arrays[0]
        self.p[i, L.P_X] = self.p[i, L.P_SX] = x
        self.p[i, L.P_Y] = self.p[i, L.P_SY] = y
        self.p[i, L.P_FACE] = math.radians(facing)
        self.p[i, L.P_FX] = math.cos(self.p[i, L.P_FACE])
        self.p[i, L.P_FY] = math.sin(self.p[i, L.P_FACE])
        self.s[i, L.S_ALIVE] = 1
        self.s[i, L.S_CP] = fi[i, L.F_CP] if cp is None else cp
        if mode is not None:
            self.s[i, L.S_MODE] = MODES[mode]
            if mode == "ready":
                self.s[i, L.S_READY] = 1
                self.s[i, L.S_DONE] = 1

    def place_object(self, o: int, x: float, y: float) -> None:
        """Put throwable object ``o`` (scenario order, symmetric copies after each) at (x, y)."""
        self.p[self.n + o, L.P_X] = x
        self.p[self.n + o, L.P_Y] = y

    def object_pos(self, o: int) -> tuple[float, float]:
        return float(self.p[self.n + o, L.P_X]), float(self.p[self.n + o, L.P_Y])

    def start_from(self, i: int, x: float, y: float) -> None:
        """Where ``i`` began its turn (for attacks in the back)."""
        self.p[i, L.P_SX] = x
        self.p[i, L.P_SY] = y

    def script(self, faces: Sequence[int]) -> None:
        self.dc = np.array([len(faces), *faces], dtype=np.int64)
        self.g[L.G_DPOS] = 0

    def option(self, column: int, value: int) -> None:
        self.arrays[4][column] = value

    def set_attacker(self, side: int) -> None:
        self.g[L.G_ATTACKER] = side

    def cp(self, i: int) -> int:
        return int(self.s[i, L.S_CP])

    def alive(self, i: int) -> bool:
        return bool(self.s[i, L.S_ALIVE])

    def pos(self, i: int) -> tuple[float, float]:
        return float(self.p[i, L.P_X]), float(self.p[i, L.P_Y])

    def facing(self, i: int) -> float:
        return math.degrees(float(self.p[i, L.P_FACE]))

    def dice_used(self) -> int:
        return int(self.g[L.G_DPOS])

    # ---------------------------------------------------------------- operations
    def _op(
        self, code: int, a: int = 0, b: int = 0, c: int = 0, x: float = 0.0, y: float = 0.0
    ) -> float:
        from analyzer.games.d20.match import match_nb as M

        fi, fr, ter, sc, op, ecp, pge = self.arrays
        return float(
            M.sandbox_op(
                fi,
                fr,
                ter,
                sc,
                op,
                ecp,
                pge,
                self.p,
                self.s,
                self.g,
                self.dc,
                self.rng,
                self.ev,
                int(code),
                int(a),
                int(b),
                int(c),
                float(x),
                float(y),
            )
        )

    def shoot(self, i: int, j: int, halved: bool = False) -> None:
        from analyzer.games.d20.match import match_nb as M

        self._op(M.OP_SHOT, i, j, int(halved))

    def blow(self, i: int, j: int) -> None:
        from analyzer.games.d20.match import match_nb as M

        self._op(M.OP_BLOW, i, j)

    def move(self, i: int, x: float, y: float, mode: str = "normal") -> None:
        from analyzer.games.d20.match import match_nb as M

        self._op(M.OP_MOVE, i, MODES[mode], 0, x, y)

    def retreat(self, i: int, kind: int = 0, enemy_policy: str = "greedy") -> bool:
        from analyzer.games.d20.match import match_nb as M

        return self._op(M.OP_RETREAT, i, kind, POLICIES[enemy_policy]) > 0.5

    def movement_phase(self, side: int, policy: str = "greedy") -> None:
        from analyzer.games.d20.match import match_nb as M

        self._op(M.OP_MOVE_PHASE, side, 0, POLICIES[policy])

    def action_phase(self, side: int, policy: str = "greedy") -> None:
        from analyzer.games.d20.match import match_nb as M

        self._op(M.OP_ACTION_PHASE, side, 0, POLICIES[policy])

    def throw(self, i: int, j: int, o: int) -> int:
        """``i`` throws object ``o`` at ``j`` if it may: 1; else why not (``can_throw``: -1 in
        HtH, -2 Power below the DL, -3 not touching it, -4 too far, -5 arc, HtH or sight)."""
        from analyzer.games.d20.match import match_nb as M

        return int(self._op(M.OP_THROW, i, j, o))

    def best_attack(self, i: int, policy: str = "greedy") -> tuple[int, int, int]:
        """``best_attack``: (kind: 0 none, 1 shot, 2 blow, 3 + o throw of object o, target,
        cover)."""
        from analyzer.games.d20.match import match_nb as M

        v = int(self._op(M.OP_BEST_ATTACK, i, 0, POLICIES[policy]))
        return v // 10000, (v // 100) % 100 - 1, v % 100 - 1

    def sight(self, i: int, j: int) -> int:
        """Cover bonus of ``j`` if ``i`` may shoot it now, else -1."""
        from analyzer.games.d20.match import match_nb as M

        return int(self._op(M.OP_SIGHT, i, j))

    def take_cover(self, i: int) -> bool:
        from analyzer.games.d20.match import match_nb as M

        return self._op(M.OP_TAKE_COVER, i) > 0.5

    def rolloff(self) -> tuple[int, int, int]:
        """Who starts ?: (winner side, A's total, B's total)."""
        from analyzer.games.d20.match import match_nb as M

        v = int(self._op(M.OP_ROLLOFF))
        return v // 10000, (v // 100) % 100, v % 100

    def violations(self) -> int:
        from analyzer.games.d20.match import match_nb as M

        return int(self._op(M.OP_CHECK))

    def events(self) -> np.ndarray:
        return self.ev[: self.g[L.G_NEV]]

    def lines(self) -> list[str]:
        return T.render(self.setup, self.events())
