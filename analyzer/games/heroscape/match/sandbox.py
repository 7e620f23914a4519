"""Hand-built positions for rule tests: place figures, script the dice, run one operation.

>>> box = Sandbox(setup)              # a prepared Heroscape match-up (``ENGINE.prepare``)
>>> box.place(0, 2, 3)                # figure 0 (record order) on row 2, column 3
>>> box.place(1, 2, 4)
>>> box.script([1, 2, 6, 4])          # the next dice (combat die faces 1..6, d20 1..20)
>>> box.attack(0, 1)
>>> box.wounds(1), box.lines()

With the sample die (``dice.yaml``: 3 skulls, 2 shields, 1 blank) faces 1-3 are skulls,
4-5 shields and 6 blank.  Every operation runs the engine's own kernels through
``match_nb.run_block_strong`` (its operation codes: the entry kernel of the strong policy).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from analyzer.games.heroscape.match import layout as L
from analyzer.games.heroscape.match import trace as T
from analyzer.games.heroscape.match.engine import ENGINE, kernels

SKULL, SHIELD, BLANK = 1, 4, 6
POLICIES = {name: i for i, name in enumerate(L.POLICY_NAMES)}


class Sandbox:
    """One match state (every figure off the battlefield until placed)."""

    def __init__(self, setup: Any, trace_rows: int = 4000) -> None:
        self.setup = setup
        self.arrays = tuple(a.copy() for a in setup.arrays)
        self.ev = np.zeros((trace_rows, L.EV_COLS), dtype=np.int64)
        self.m = ENGINE.match_state(self.arrays, self.ev)
        s, _, gs, g = self.m[0], self.m[1], self.m[2], self.m[3]
        s[:, L.S_HEX] = -1
        s[:, L.S_TAIL] = -1
        gl = self.arrays[7]
        gs[:, L.GS_HEX] = gl[:, L.GL_HEX]
        gs[:, L.GS_UP] = gl[:, L.GL_UP]
        gs[:, L.GS_CARRIER] = -1
        g[L.G_END] = -1
        g[L.G_ROUND] = 1
        g[L.G_TRACE] = 1
        self.m[6][:4] = np.array([12345, 67890, 1, 2], dtype=np.uint64)

    # ---------------------------------------------------------------- state
    @property
    def s(self) -> np.ndarray:
        return self.m[0]

    def hex_at(self, row: int, col: int) -> int:
        hx = self.arrays[0]
        hit = np.flatnonzero((hx[:, L.H_ROW] == row) & (hx[:, L.H_COL] == col))
        if hit.size == 0:
            raise ValueError(f"no space at row {row}, column {col}")
        return int(hit[0])

    def place(self, i: int, row: int, col: int, tail: tuple[int, int] | None = None) -> None:
        """Put figure ``i`` on (row, col); a double-space figure's other half on ``tail``."""
        h = self.hex_at(row, col)
        self.s[i, L.S_ALIVE] = 1
        self.s[i, L.S_HEX] = h
        self.m[1][h] = i
        if tail is not None:
            t = self.hex_at(*tail)
            self.s[i, L.S_TAIL] = t
            self.m[1][t] = i

    def script(self, faces: Sequence[int]) -> None:
        """The next dice, in rolling order (combat dice and d20s alike)."""
        dc = np.array([len(faces), *faces], dtype=np.int64)
        self.m = (*self.m[:5], dc, *self.m[6:])
        self.m[3][L.G_DPOS] = 0

    def dice_left(self) -> int:
        return int(self.m[5][0] - self.m[3][L.G_DPOS])

    def wounds(self, i: int) -> int:
        return int(self.s[i, L.S_WOUNDS])

    def alive(self, i: int) -> bool:
        return bool(self.s[i, L.S_ALIVE])

    def where(self, i: int) -> tuple[int, int]:
        hx = self.arrays[0]
        h = int(self.s[i, L.S_HEX])
        return int(hx[h, L.H_ROW]), int(hx[h, L.H_COL])

    # ---------------------------------------------------------------- operations
    def _op(self, code: int, a: int = 0, b: int = 0, c: int = 0) -> int:
        M = kernels()
        rec = np.zeros((1, 1), dtype=np.int64)
        urec = np.zeros((1, 1, 1), dtype=np.int64)
        state = np.zeros(4, dtype=np.uint64)
        return int(
            M.run_block_strong(
                tuple(self.arrays), self.m, state, 1, 0, 1, rec, urec, True, False, code, a, b, c
            )
        )

    def attack(self, i: int, j: int) -> None:
        """A normal attack of ``i`` on ``j``."""
        self._op(kernels().OP_ATTACK, i, j)

    def special(self, i: int, j: int, direction: int = 0) -> None:
        """``i``'s special attack on ``j`` (Explosion) or along ``direction`` (Line)."""
        self._op(kernels().OP_SPECIAL, i, j, direction)

    def move(self, i: int, row: int, col: int) -> bool:
        """Move ``i`` to (row, col) if it can end its move there."""
        return self._op(kernels().OP_MOVE, i, self.hex_at(row, col)) >= 0

    def cost(self, i: int, row: int, col: int) -> int:
        """Spaces of movement ``i`` needs to end on (row, col); -1 if it cannot."""
        return self._op(kernels().OP_REACH, i, self.hex_at(row, col))

    def turn(self, card: int, policy: str = "greedy") -> None:
        """An Army Card turn of ``card`` by ``policy``."""
        self._op(kernels().OP_TURN, 0, card, POLICIES[policy])

    def can_target(self, i: int, j: int) -> bool:
        """Whether ``i`` may attack ``j`` now (engagement, Range, line of sight)."""
        return self._op(kernels().OP_TARGET, i, j) == 1

    def initiative(self) -> int:
        return self._op(kernels().OP_INIT)

    def end_round(self) -> None:
        self._op(kernels().OP_END_ROUND)

    def markers(self, side: int, policy: str = "greedy") -> list[int]:
        self._op(kernels().OP_MARKERS, side, 0, POLICIES[policy])
        return [int(c) for c in self.m[4][side]]

    def defense(self, j: int, attacker_higher: bool = False) -> int:
        return self._op(kernels().OP_DEFENSE, j, int(attacker_higher))

    def score(self, side: int) -> float:
        return self._op(kernels().OP_SCORE, side) / 10

    def violations(self) -> int:
        return self._op(kernels().OP_CHECK)

    def events(self) -> np.ndarray:
        return self.ev[: int(self.m[3][L.G_NEV])]

    def lines(self) -> list[str]:
        return T.render(self.setup, self.events())[1:]
