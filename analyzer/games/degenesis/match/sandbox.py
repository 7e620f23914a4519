"""Hand-built mission states for rule tests: place units, script the dice, run one operation.

>>> box = Sandbox(setup)          # a prepared Degenesis match-up (``ENGINE.prepare``)
>>> box.place(0, (2, 0))          # unit 0 (record order) on the TILE of grid cell r2c0
>>> box.place(4, (2, 1), revealed=True)
>>> box.script([3, 1, 6])         # the next die faces (1..6), in rolling order
>>> box.attack(0, 0, 4)           # unit 0 ATTACKS unit 4 with its option 0
>>> box.wounds(4), box.lines()

Every operation runs the engine's own kernels through ``match_nb.sandbox_op`` (the rule
tests' entry kernel: the same compiled rule kernels as the match runner).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from analyzer.games.degenesis.match import layout as L
from analyzer.games.degenesis.match import trace as T
from analyzer.games.degenesis.match.engine import ENGINE


class Sandbox:
    """One mission state (every unit off the FIELD, in the reserve, until placed)."""

    def __init__(self, setup: Any, trace_rows: int = 4000) -> None:
        self.setup = setup
        self.arrays = tuple(a.copy() for a in setup.arrays)
        n = self.arrays[0].shape[0]
        self.st, self.g, self.dc, self.rng = ENGINE.state_arrays(n)
        self.st[:, L.S_TILE] = -1
        self.g[L.G_END] = -1
        self.g[L.G_ROUND] = 1
        self.g[L.G_TRACE] = 1
        self.rng[:4] = np.array([12345, 67890, 1, 2], dtype=np.uint64)
        self.g[L.G_ITEM_AT : L.G_ITEM_AT + L.MAX_ITEMS] = -1
        self.ev = np.zeros((trace_rows, L.EV_COLS), dtype=np.int64)
        self.cells = setup.extra.tables.field.cells

    # ---------------------------------------------------------------- state
    def tile(self, cell: tuple[int, int]) -> int:
        """The TILE index of grid cell (row, column)."""
        return self.cells.index(tuple(cell))

    def place(
        self,
        u: int,
        cell: tuple[int, int],
        revealed: bool = False,
        side: str = "focus",
        wounds: int = 0,
        edges: int = 0,
    ) -> None:
        """Put unit ``u`` on the FIELD at ``cell`` (a HOSTILE unit as a THREAT unless
        ``revealed``; an OPERATIVE on its ``side`` of the DASHBOARD)."""
        self.st[u, L.S_ON] = L.ON_FIELD
        self.st[u, L.S_TILE] = self.tile(cell)
        self.st[u, L.S_REVEALED] = int(revealed)
        self.st[u, L.S_SIDE] = 0 if side == "focus" else 1
        self.st[u, L.S_WOUNDS] = wounds
        self.st[u, L.S_EDGES] = edges
        if self.arrays[0][u, L.U_SIDE] == 0:  # its own ITEMS (the ROSTER's item list)
            self.st[u, L.S_CARRY] = self.arrays[0][u, L.U_ITEMS]

    def script(self, faces: Sequence[int]) -> None:
        """The next die faces (1..6, the face's position in ``dice.yaml``), in rolling order:
        a POOL rolls its WHITE dice, then BLACK, then FATAL."""
        self.dc = np.array([len(faces), *faces], dtype=np.int64)
        self.g[L.G_DPOS] = 0

    def hand(self, side: int, cards: Sequence[int]) -> None:
        """Give ``side`` (0 OPERATIVES, 1 HOSTILE) exactly these ARCANA (0..12)."""
        self.g[L.G_HAND + side] = sum(1 << c for c in cards)

    def holding(self, side: int) -> list[int]:
        """The ARCANA in ``side``'s hand."""
        return [c for c in range(L.N_ARCANA) if (int(self.g[L.G_HAND + side]) >> c) & 1]

    def set_option(self, column: int, value: int) -> None:
        self.arrays[-1][column] = value

    def carry(self, u: int) -> int:
        """The ITEMS ``u`` CARRIES (bits of the ROSTER's item list, ``setup.extra.item_names``)."""
        return int(self.st[u, L.S_CARRY])

    def item_at(self, i: int) -> tuple[int, int] | int | None:
        """Where ITEM ``i`` lies: a grid cell, None when CARRIED, -2 when DISCARDED."""
        t = int(self.g[L.G_ITEM_AT + i])
        return self.cells[t] if t >= 0 else (None if t == -1 else t)

    def item(self, name: str) -> int:
        """The bit of the ITEM called ``name`` (the first, in ROSTER order)."""
        return next(i for i, n in enumerate(self.setup.extra.item_names) if n.startswith(name))

    def play(self, kind: int, a: int, b: int = 0, c: int = 0) -> None:
        """Carry out one candidate ACTION of kind ``match_nb.C_*`` with operands ``a, b, c``
        (``match_nb.play``: Harrowing before a HOSTILE unit's ACTION, AMBUSHES after)."""
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_PLAY + kind, a, b, c)

    def begin(self, u: int) -> None:
        """The start of ``u``'s TURN (an EDGE spent; X, IV and VI as the AIs play them)."""
        from analyzer.games.degenesis.match import match_nb as M

        self.st[u, L.S_EDGES] = max(self.st[u, L.S_EDGES], 1)
        self._op(M.OP_BEGIN, u)

    def dice_used(self) -> int:
        return int(self.g[L.G_DPOS])

    def at(self, u: int) -> tuple[int, int] | None:
        t = int(self.st[u, L.S_TILE])
        return None if t < 0 else self.cells[t]

    def on(self, u: int) -> int:
        return int(self.st[u, L.S_ON])

    def wounds(self, u: int) -> int:
        return int(self.st[u, L.S_WOUNDS])

    def revealed(self, u: int) -> bool:
        return bool(self.st[u, L.S_REVEALED])

    def stunned(self, u: int) -> bool:
        return bool(self.st[u, L.S_STUN])

    def flipped(self, u: int) -> int:
        return int(self.st[u, L.S_FLIPPED])

    def stat(self, column: int) -> int:
        return int(self.g[column])

    # ---------------------------------------------------------------- operations
    def _op(self, code: int, a: int = 0, b: int = 0, c: int = 0) -> int:
        M = ENGINE.kernels()
        return int(
            M.sandbox_op(*self.arrays, self.st, self.g, self.dc, self.rng, self.ev, int(code),
                         int(a), int(b), int(c))
        )  # fmt: skip

    def attack(self, u: int, k: int, v: int) -> None:
        """``u`` ATTACKS ``v`` with its option ``k`` (an ACTION: SUCKER PUNCHES included)."""
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_ATTACK, u, k, v)

    def area(self, u: int, k: int, cell: tuple[int, int]) -> None:
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_AREA, u, k, self.tile(cell))

    def move(self, u: int, cell: tuple[int, int]) -> None:
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_MOVE, u, self.tile(cell))

    def scout(self, u: int, cell: tuple[int, int]) -> None:
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_SCOUT, u, self.tile(cell))

    def spawn(self, h: int, cell: tuple[int, int]) -> None:
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_SPAWN, h, self.tile(cell))

    def leave(self, u: int) -> None:
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_EXIT, u)

    def turn(self, u: int) -> None:
        """One OPERATIVE TURN by its side's policy (2 ACTIONS)."""
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_TURN, u)

    def react(self) -> None:
        """One REACTION PHASE (the EDGE handed back is stored first)."""
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_REACT)

    def round(self) -> None:
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_ROUND)

    def ambushes(self) -> None:
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_AMBUSH)

    def seek(self) -> None:
        """The start of a ROUND's V The Seeker (each side holding it may play it)."""
        from analyzer.games.degenesis.match import match_nb as M

        self._op(M.OP_SEEK)

    def violations(self) -> int:
        from analyzer.games.degenesis.match import match_nb as M

        return self._op(M.OP_CHECK)

    def events(self) -> np.ndarray:
        return self.ev[: self.g[L.G_NEV]]

    def lines(self) -> list[str]:
        return T.render(self.setup, self.events())
