"""Hand-built positions for rule tests: place models, script dice, force reactions, act.

>>> box = Sandbox(setup)                     # a compiled match-up (see ``prepare``)
>>> box.place("A", "Raziel", 45, 40); box.place("B", "Kyenar", 45, 44.5)
>>> box.start()                              # stats, contacts, AP/RP as in a new round
>>> box.script([6, 6, 2, 1])                 # the next dice, in rolling order
>>> box.force("counterblow")                 # every affected unit takes this reaction
>>> box.close_combat("A", "Raziel", "B", "Kyenar")
>>> box.hp("B", "Kyenar"), box.lines()       # state and the play-by-play

Everything runs through the engine's own functions (``match_nb.run_op``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.match import match_nb as M
from analyzer.games.rapture.match import trace as T


class Sandbox:
    """One match state on which single engine operations are run."""

    def __init__(self, setup: Any, trace_rows: int = 5000) -> None:
        from analyzer.games.rapture.match import kernels

        self.setup = setup
        self.S = setup.S
        self.FN = kernels.function_table()
        comp = setup.comp
        n = comp.SI.shape[0]
        self.MF = np.zeros((n, L.MF_COLS))
        self.MI = np.zeros((n, L.MI_COLS), dtype=np.int64)
        self.UI = np.zeros((comp.US.shape[0], L.UI_COLS), dtype=np.int64)
        self.G = np.zeros(L.G_COLS, dtype=np.int64)
        self.GF = np.zeros(L.GF_COLS)
        self.TER = np.zeros((L.MAX_TERRAIN, L.T_COLS))
        self.rng = np.zeros(6, dtype=np.uint64)
        self.rng[0] = 12345
        self.rng[1] = 67890
        self.script_buf = np.zeros(2 + 512, dtype=np.int64)
        self.TR = np.zeros((trace_rows, L.EV_COLS), dtype=np.int64)
        self.WS = np.zeros(L.WS_SIZE)
        self.WI = np.zeros(L.WI_SIZE, dtype=np.int64)
        self.C = np.zeros((L.MAX_CAND, L.C_COLS))
        self.op(M.OP_RESET, 1, 1)
        self.G[L.G_FORCE_REACTION] = -1
        self.G[L.G_ROUND] = 1
        self.G[L.G_NEV] = 0

    # ------------------------------------------------------------- plumbing
    def op(
        self,
        code: int,
        a0: int = 0,
        a1: int = 0,
        a2: int = 0,
        a3: int = 0,
        f0: float = 0.0,
        f1: float = 0.0,
    ) -> int:
        return int(
            M.run_op(
                self.S,
                self.FN,
                self.MF,
                self.MI,
                self.UI,
                self.G,
                self.GF,
                self.TER,
                self.rng,
                self.script_buf,
                self.TR,
                self.WS,
                self.WI,
                self.C,
                code,
                a0,
                a1,
                a2,
                a3,
                float(f0),
                float(f1),
            )
        )

    def unit(self, side: str, name: str) -> int:
        for info in self.setup.comp.units:
            if "AB"[info.side] == side and info.name == name:
                return info.index
        raise KeyError(f"no unit {name} on side {side}")

    def model(self, side: str, name: str, k: int = 0) -> int:
        u = self.unit(side, name)
        return int(self.setup.comp.US[u, L.US_FIRST]) + k

    # ------------------------------------------------------------- building
    def place(self, side: str, name: str, x: float, y: float, k: int = 0) -> None:
        m = self.model(side, name, k)
        self.MF[m] = (x, y)

    def remove(self, side: str, name: str) -> None:
        """Take a whole unit off the table before the test starts (not a casualty)."""
        u = self.unit(side, name)
        first = int(self.setup.comp.US[u, L.US_FIRST])
        for m in range(first, first + int(self.setup.comp.US[u, L.US_N])):
            self.MI[m, L.MI_ALIVE] = 0
            self.MF[m] = (-1000.0 - 10 * m, -1000.0)
        self.UI[u, L.UI_STATUS] = 1

    def terrain(self, pieces: Sequence[tuple[str, float, float, float, float]]) -> None:
        """Pieces ``(kind, x, y, w, h)`` with the rulebook's default effects."""
        for i, (kind, x, y, w, h) in enumerate(pieces):
            k = L.TERRAIN_NAMES.index(kind)
            blocks = k == L.T_BUILDING
            solid = k in (L.T_BUILDING, L.T_IMPASSABLE)
            self.TER[i] = (
                k,
                x,
                y,
                x + w,
                y + h,
                float(blocks),
                float(k != L.T_WATER),
                float(solid),
            )
        self.G[L.G_NT] = len(pieces)

    def start(self) -> None:
        """Current stats, contacts and a fresh round's AP/RP and round limits."""
        self.op(M.OP_REFRESH)

    def script(self, faces: Sequence[int]) -> None:
        """The next dice rolled, in order (then the generator takes over)."""
        self.script_buf[0] = 0
        self.script_buf[1] = len(faces)
        self.script_buf[2 : 2 + len(faces)] = faces

    def dice_left(self) -> int:
        return int(self.script_buf[1] - self.script_buf[0])

    def force(self, reaction: str | None) -> None:
        self.G[L.G_FORCE_REACTION] = -1 if reaction is None else L.REACTION_NAMES.index(reaction)

    def policies(self, a: str, b: str) -> None:
        self.G[L.G_POL0] = L.POLICY_NAMES.index(a)
        self.G[L.G_POL0 + 1] = L.POLICY_NAMES.index(b)

    # --------------------------------------------------------------- actions
    def move(self, side: str, name: str, x: float, y: float) -> None:
        self.op(M.OP_MOVE, self.unit(side, name), f0=x, f1=y)

    def charge(self, side: str, name: str, x: float, y: float) -> None:
        self.op(M.OP_CHARGE, self.unit(side, name), -1, f0=x, f1=y)

    def close_combat(
        self, side: str, name: str, tside: str, tname: str, k: int = 0, tk: int = 0
    ) -> None:
        self.op(M.OP_CC, self.model(side, name, k), self.model(tside, tname, tk))

    def ranged(self, side: str, name: str, tside: str, tname: str, k: int = 0, tk: int = 0) -> None:
        self.op(M.OP_RANGED, self.model(side, name, k), self.model(tside, tname, tk))

    def retreat(self, side: str, name: str, dx: float, dy: float) -> None:
        self.op(M.OP_RETREAT, self.unit(side, name), f0=dx, f1=dy)

    def lose_mp(self, side: str, name: str, amount: int, credit: int) -> None:
        self.op(M.OP_LOSE_MP, self.unit(side, name), amount, credit)

    def marker(self, side: str, name: str, marker: str, n: int = 1, credit: int = -1) -> None:
        self.op(M.OP_MARKER, self.unit(side, name), L.MARKER_NAMES.index(marker), n, credit)

    def activate(self, side: str, name: str, policy: str = "greedy") -> None:
        self.op(M.OP_ACTIVATE, self.unit(side, name), L.POLICY_NAMES.index(policy))

    def sight(self, side: str, name: str, tside: str, tname: str) -> int:
        return self.op(M.OP_SIGHT, self.model(side, name), self.model(tside, tname))

    def line_of_fire(self, side: str, name: str, tside: str, tname: str) -> int:
        return self.op(M.OP_LOF, self.model(side, name), self.model(tside, tname))

    def preparation(self) -> None:
        self.op(M.OP_PREP)

    def cleanup(self) -> None:
        self.op(M.OP_CLEANUP)

    def end(self) -> None:
        self.op(M.OP_END)

    def after_action(self) -> None:
        self.op(M.OP_AFTER)

    # ----------------------------------------------------------------- state
    def hp(self, side: str, name: str, k: int = 0) -> int:
        m = self.model(side, name, k)
        if self.MI[m, L.MI_ALIVE] == 0:
            return 0
        return int(self.setup.comp.SI[m, L.SI_HP] - self.MI[m, L.MI_WOUNDS])

    def alive(self, side: str, name: str, k: int = 0) -> bool:
        return bool(self.MI[self.model(side, name, k), L.MI_ALIVE])

    def pos(self, side: str, name: str, k: int = 0) -> tuple[float, float]:
        m = self.model(side, name, k)
        return float(self.MF[m, 0]), float(self.MF[m, 1])

    def pool(self, side: str, name: str, k: int = 0) -> int:
        return int(self.setup.comp.SI[self.model(side, name, k), L.SI_POOL])

    def ap(self, side: str, name: str, k: int = 0) -> int:
        return int(self.MI[self.pool(side, name, k), L.MI_AP])

    def rp(self, side: str, name: str, k: int = 0) -> int:
        return int(self.MI[self.pool(side, name, k), L.MI_RP])

    def markers(self, side: str, name: str, marker: str) -> int:
        return int(self.UI[self.unit(side, name), L.UI_MK + L.MARKER_NAMES.index(marker)])

    def mp_lost(self, side: str, name: str) -> int:
        return int(self.UI[self.unit(side, name), L.UI_MPLOST])

    def status(self, side: str, name: str) -> int:
        return int(self.UI[self.unit(side, name), L.UI_STATUS])

    def vp(self, side: str) -> int:
        return int(self.G[L.G_VP0 + "AB".index(side)])

    def stat(self, side: str, name: str, stat: str, k: int = 0) -> int:
        return int(self.MI[self.model(side, name, k), L.MI_CS + L.STAT_NAMES.index(stat)])

    def events(self) -> np.ndarray:
        return self.TR[: int(self.G[L.G_NEV])]

    def events_of(self, code: int) -> np.ndarray:
        ev = self.events()
        return ev[ev[:, 0] == code]

    def lines(self) -> list[str]:
        comp = self.setup.comp
        namer = T.Namer(
            [u.name for u in comp.units],
            comp.model_names,
            [u.side for u in comp.units],
            [int(u) for u in comp.SI[:, L.SI_UNIT]],
            self.setup.mission_names,
        )
        return T.render(self.events(), namer)
