"""Trace events of one Heroscape match as play-by-play lines in the rulebook's words."""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.heroscape.match import layout as L


def space(comp: Any, h: int) -> str:
    """A space as ``r<row>c<col>`` with its level (``L2``)."""
    hx = comp.scenario.hx
    if h < 0:
        return "off the battlefield"
    return f"r{hx[h, L.H_ROW]}c{hx[h, L.H_COL]} (level {hx[h, L.H_LEVEL]})"


def render(setup: Any, events: np.ndarray) -> list[str]:
    """Readable lines for ``events`` (rows of ``layout.EV_COLS``)."""
    comp = setup.extra
    sides = ("A", "B")

    def fig(i: int) -> str:
        return f"{sides[comp.fig_sides[i]]}:{comp.fig_names[i]}#{i}"

    def card(c: int) -> str:
        return comp.card_names[c] if c >= 0 else "-"

    lines = [
        f"battlefield: {comp.scenario.name} ({comp.scenario.layout}), {comp.scenario.n_hex} spaces"
    ]
    for row in events:
        kind, rnd, side = int(row[0]), int(row[1]), int(row[2])
        v = [int(x) for x in row[3:]]
        who = sides[side]
        if kind == L.E_MARKERS:
            lines.append(
                f"round {rnd}: {who} places order markers (hidden): 1 on {card(v[0])}, "
                f"2 on {card(v[1])}, 3 on {card(v[2])}, X on {card(v[3])}"
            )
        elif kind == L.E_INIT:
            bonus = f" (+{v[4]} / +{v[5]} Dagmar)" if v[4] or v[5] else ""
            lines.append(
                f"round {rnd}: initiative A {v[0]} vs B {v[1]}{bonus}, {v[3]} tie reroll(s): "
                f"{sides[v[2]]} takes the first player turn"
            )
        elif kind == L.E_TURN:
            lines.append(f"round {rnd}: {who} reveals order marker {v[0]} on {card(v[1])}")
        elif kind == L.E_NOFIG:
            lines.append(
                f"round {rnd}: {who} reveals order marker {v[0]} on {card(v[1])}: "
                "no figure left, no turn"
            )
        elif kind == L.E_MOVE:
            if v[1] == v[2]:
                lines.append(f"  {fig(v[0])} is activated and stays on {space(comp, v[1])}")
            else:
                how = "flies" if v[4] else "moves"
                lines.append(
                    f"  {fig(v[0])} {how} {space(comp, v[1])} -> {space(comp, v[2])} "
                    f"({v[3]} spaces of movement)"
                )
        elif kind == L.E_LEAVE:
            lines.append(
                f"  leaving engagement attack by {fig(v[0])} on {fig(v[1])}: "
                f"{v[2]} skull(s), {v[3]} wound(s)"
            )
        elif kind == L.E_FALL:
            lines.append(f"  {fig(v[0])} falls {v[1]} levels: {v[2]} skull(s), {v[3]} wound(s)")
        elif kind == L.E_ATTACK:
            what = "special attack" if v[7] else "attacks"
            auto = " + 1 Nanite Shielding" if v[8] else ""
            lines.append(
                f"  {fig(v[0])} {what} {fig(v[1])}: {v[2]} attack dice, {v[3]} defense dice; "
                f"{v[4]} skull(s) vs {v[5] - v[8]} shield(s){auto}: {v[6]} wound(s)"
            )
        elif kind == L.E_CHARGE:
            lines.append(
                f"  {fig(v[0])} charges {fig(v[1])}: Charge!!! in effect (+1 attack die to "
                "friendly normal attacks until the next Order Marker of this side)"
            )
        elif kind == L.E_DESTROYED:
            lines.append(f"  {fig(v[0])} is destroyed")
        elif kind == L.E_GLYPH:
            name = L.GLYPH_NAMES[int(comp.scenario.glyphs[v[1], L.GL_KIND])]
            text = (
                "activates",
                "picks up",
                f"sets off the trap of (d20 = {v[3]})",
                f"heals {v[3]} wound(s) with",
            )[v[2]]
            lines.append(f"  {fig(v[0])} {text} the {name}")
        elif kind == L.E_LAVA:
            if v[2]:
                fate = "survives" if v[1] == 20 else "is destroyed"
                lines.append(f"  {fig(v[0])} enters molten lava: d20 = {v[1]}, {fate}")
            else:
                lines.append(
                    f"end of round {rnd}: {fig(v[0])} on a lava field rolls {v[1]} skull(s)"
                )
        elif kind == L.E_DEPLOY:
            lines.append(f"set-up: {fig(v[0])} is placed on {space(comp, v[1])}")
        elif kind == L.E_WELL:
            lines.append(f"start of round {rnd}: {fig(v[0])} on wellspring water rolls {v[1]}")
        elif kind == L.E_END:
            reason = L.END_REASONS[v[0]]
            result = ("a draw", "A wins", "B wins")[v[1]]
            lines.append(
                f"end after round {rnd}: {reason}, {result}; points of Life left "
                f"A {v[2] / 10:.1f}, B {v[3] / 10:.1f}"
            )
    return lines
