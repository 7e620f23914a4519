"""Hand-built positions for rule tests: place warriors, script the D10s, run one operation.

>>> box = Sandbox(setup)                 # a prepared Hybrid match-up (``ENGINE.prepare``)
>>> box.place(0, 5, 5, "north")          # warrior 0 (record order) on square (5, 5)
>>> box.place(5, 5, 4, "south")
>>> box.script([3, 8])                   # the next D10 faces, in rolling order
>>> box.strike(0, 5, level=1)
>>> box.wounds(5), box.lines()

Every operation runs the engine's own kernels through ``match_nb.sandbox_op`` (its
operation codes: the match runner's kernels behind an entry point of their own, so that a
match run does not compile the operations).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from analyzer.games.hybrid.match import layout as L
from analyzer.games.hybrid.match import trace as T
from analyzer.games.hybrid.match.engine import work_rows, work_state

FACING = {name: k for k, name in enumerate(L.FACING_NAMES)}
MODES = {"none": L.M_NONE, "oc": L.M_OC, "dc": L.M_DC, "fire": L.M_FIRE, "move": L.M_MOVE}
POLICIES = {name: k for k, name in enumerate(L.POLICY_NAMES)}


class Sandbox:
    """One match state (every warrior off the board until placed)."""

    def __init__(self, setup: Any, trace_rows: int = 4000) -> None:
        self.setup = setup
        self.arrays = tuple(a.copy() for a in setup.arrays)
        fi, mp = self.arrays[0], self.arrays[1]
        self.s, self.g, self.cell, self.occ, self.seq, self.dc, self.rng = work_state(fi, mp)
        obj = self.arrays[2]
        self.cell[:, :] = np.where(obj == 1, 2, np.where(obj == 3, 4, 0))
        self.s[:, L.S_CA_ROUND] = -1
        self.s[:, L.S_APS_ROUND] = -1
        self.g[L.G_END] = -1
        self.g[L.G_ROUND] = 1
        self.g[L.G_TRACE] = 1
        self.rng[:] = np.array([12345, 67890, 1, 2, 0, 0], dtype=np.uint64)
        self.ev = np.zeros((trace_rows, L.EV_COLS), dtype=np.int64)
        self.wk = work_rows(mp)

    # ---------------------------------------------------------------- state
    def place(
        self,
        i: int,
        x: int,
        y: int,
        facing: str = "north",
        wounds: int = 0,
        mode: str = "none",
        level: int = 0,
    ) -> None:
        """Put warrior ``i`` with its base's north-west square on (x, y)."""
        z = int(self.arrays[0][i, L.F_SIZE])
        self.occ[self.occ == i + 1] = 0
        self.s[i, L.S_ALIVE] = 1
        self.s[i, L.S_X] = x
        self.s[i, L.S_Y] = y
        self.s[i, L.S_FACE] = FACING[facing]
        self.s[i, L.S_WOUNDS] = wounds
        self.s[i, L.S_MODE] = MODES[mode]
        self.s[i, L.S_LEVEL] = level
        self.occ[y : y + z, x : x + z] = i + 1

    def script(self, faces: Sequence[int]) -> None:
        self.dc = np.array([len(faces), *faces], dtype=np.int64)
        self.g[L.G_DPOS] = 0

    def option(self, column: int, value: int) -> None:
        self.arrays[3][column] = value

    def wounds(self, i: int) -> int:
        return int(self.s[i, L.S_WOUNDS])

    def alive(self, i: int) -> bool:
        return bool(self.s[i, L.S_ALIVE])

    def pos(self, i: int) -> tuple[int, int]:
        return int(self.s[i, L.S_X]), int(self.s[i, L.S_Y])

    def facing(self, i: int) -> str:
        return L.FACING_NAMES[int(self.s[i, L.S_FACE])]

    def mode(self, i: int) -> int:
        return int(self.s[i, L.S_MODE])

    def dice_used(self) -> int:
        return int(self.g[L.G_DPOS])

    # ---------------------------------------------------------------- operations
    def _op(self, code: int, a: int = 0, b: int = 0, c: int = 0) -> int:
        from analyzer.games.hybrid.match import match_nb as M

        fi, mp, obj, sc, tab = self.arrays
        return int(
            M.sandbox_op(
                fi,
                mp,
                obj,
                sc,
                tab,
                self.s,
                self.g,
                self.cell,
                self.occ,
                self.seq,
                self.dc,
                self.rng,
                self.ev,
                self.wk,
                int(code),
                int(a),
                int(b),
                int(c),
            )
        )

    def _state(self, x: int, y: int, facing: str) -> int:
        from analyzer.games.hybrid.match import match_nb as M

        w = int(self.arrays[3][L.S_W])
        return ((y * w + x) * 4 + FACING[facing]) * M.NFLAG

    def strike(self, i: int, j: int, level: int = 1, combined: bool = False) -> None:
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_STRIKE, i, j, level + (10 if combined else 0))

    def fire(self, i: int, j: int, level: int = 1) -> None:
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_FIRE, i, j, level)

    def cost(self, i: int, x: int, y: int, facing: str, moving: int = 0) -> int:
        """Least Movement for ``i`` to stand on (x, y) facing ``facing`` (-1: unreachable)."""
        from analyzer.games.hybrid.match import match_nb as M

        return self._op(M.OP_COST, i, self._state(x, y, facing), moving)

    def move(self, i: int, x: int, y: int, facing: str, moving: int = 0, target: int = -1) -> int:
        """Walk ``i`` there in Moving Mode level ``moving`` (0 none, 1 Basic ... 6 Heroic
        Move; Skilled and Expert Move against ``target``); the cost, -1 if out of reach."""
        from analyzer.games.hybrid.match import match_nb as M

        return self._op(M.OP_MOVE, i, self._state(x, y, facing), moving + 8 * (target + 1))

    def end_of_round_moves(self) -> None:
        """The end of the Round's Heroic Moves (in ``seq`` order)."""
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_DASH)

    def stopped(self, i: int) -> int:
        """0, or 3/4 for a victim of Skilled/Expert Move this Round."""
        return int(self.s[i, L.S_STOPPED])

    def sight(self, i: int, j: int, fov: bool = True, through: bool = True) -> int:
        """-1 if ``i`` does not see ``j``, else rockfall squares + 100 x warriors in the way."""
        from analyzer.games.hybrid.match import match_nb as M

        return self._op(M.OP_SIGHT, i, j, 2 * int(fov) + int(through))

    def knock_back(self, i: int, j: int) -> None:
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_KNOCK, i, j)

    def sacrifice(self, i: int, j: int) -> None:
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_SACRIFICE, i, j)

    def ambush(self, i: int) -> int:
        """Declare Skilled Firing for ``i`` where he stands: his counter number, 0 if
        the conditions fail ("3 / Skilled Firing")."""
        from analyzer.games.hybrid.match import match_nb as M

        return self._op(M.OP_AMBUSH, i)

    def ambush_spot(self, i: int, anywhere: bool = False) -> int:
        """Greedy's worth x 1000 of an ambush by ``i`` where he stands (``ambush_seek``),
        or (``anywhere``) the square-blind worth without it."""
        from analyzer.games.hybrid.match import match_nb as M

        return self._op(M.OP_SPOT, i, int(anywhere))

    def in_ambush(self, i: int) -> int:
        return int(self.s[i, L.S_AMBUSH])

    def close_doors(self, i: int, left: int) -> int:
        """Greedy's door closing for ``i`` with ``left`` Movement left: doors closed."""
        from analyzer.games.hybrid.match import match_nb as M

        return self._op(M.OP_CLOSE, i, left)

    def door_open(self, x: int, y: int) -> bool:
        return int(self.cell[y, x]) in (1, 3)

    def deal(self) -> None:
        """ "Dealing" the Action Cards (the match generator draws them)."""
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_DEAL)

    def hand(self, side: int) -> list[int]:
        """``side``'s Action Cards by points 0..4 (counts)."""
        return [int(self.g[L.G_HAND + 5 * side + v]) for v in range(5)]

    def give(self, side: int, *points: int) -> None:
        """Set ``side``'s hand to these cards."""
        for v in range(5):
            self.g[L.G_HAND + 5 * side + v] = 0
        for v in points:
            self.g[L.G_HAND + 5 * side + v] += 1

    def equip(self) -> None:
        """ "Aura Cards" and "Mutation Cards" dealt as at the start of a game (the match
        generator draws them)."""
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_EQUIP)

    def aura(self, i: int) -> int:
        """0, 1 the Aura of Vengeance held, 2 switched on."""
        return int(self.s[i, L.S_AURA])

    def give_aura(self, i: int, on: bool = True) -> None:
        self.s[i, L.S_AURA] = 2 if on else 1

    def purulent_held(self, side: int) -> int:
        """Purulent Excrescence of ``side``: 0 not held, 1 held, 2 given."""
        return int(self.g[L.G_PURULENT + side])

    def give_purulent(self, side: int) -> None:
        self.g[L.G_PURULENT + side] = 1

    def mutate(self, i: int) -> None:
        """Give ``i`` the side's Purulent Excrescence if an enemy touches him."""
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_MUTATE, i)

    def mutant(self, i: int) -> bool:
        return bool(self.s[i, L.S_MUTANT])

    def event_counter(self, i: int) -> None:
        """``i`` ends his turn where he stands: an Event counter there may be activated."""
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_EVENT, i)

    def infiltration_moves(self) -> None:
        """The end of the Round's Infiltration/X moves (in ``seq`` order)."""
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_INFILTRATE)

    def activate(self, i: int, policy: str = "greedy") -> None:
        from analyzer.games.hybrid.match import match_nb as M

        self._op(M.OP_ACTIVATE, i, POLICIES[policy])

    def play_round(self) -> None:
        from analyzer.games.hybrid.match import match_nb as M

        self.g[L.G_ROUND] -= 1  # the Round operation starts the next Round
        self._op(M.OP_ROUND)

    def violations(self) -> int:
        from analyzer.games.hybrid.match import match_nb as M

        return self._op(M.OP_CHECK)

    def events(self) -> np.ndarray:
        return self.ev[: self.g[L.G_NEV]]

    def lines(self) -> list[str]:
        return T.render(self.setup, self.events())
