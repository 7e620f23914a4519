"""Play-by-play lines of a Hybrid match trace, in the rulebook's words."""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.hybrid.match import layout as L
from analyzer.match.trace_text import flag_tags

SIDES = ("A", "B")
RESULTS = {2: "Perfect Success", 1: "success", 0: "failure", -1: "Critical Failure"}
CAUSES = (
    "strike",
    "shot",
    "knock-back",
    "Sacrifice",
    "Trapdoor",
    "Novice Parry",
    "Trap",
    "Purulent Excrescence",
)


def figure_names(setup: Any) -> list[str]:
    total: dict[tuple[int, str], int] = {}
    for u in setup.units:
        total[(u.side, u.name)] = total.get((u.side, u.name), 0) + 1
    seen: dict[tuple[int, str], int] = {}
    names = []
    for u in setup.units:
        key = (u.side, u.name)
        seen[key] = seen.get(key, 0) + 1
        suffix = f" #{seen[key]}" if total[key] > 1 else ""
        names.append(f"{SIDES[u.side]}:{u.name}{suffix}")
    return names


def render(setup: Any, events: np.ndarray) -> list[str]:
    names = figure_names(setup)
    lines: list[str] = []
    for row in events:
        kind, rnd, side = int(row[0]), int(row[1]), int(row[2])
        a, b, c, d, e, f, h, i, j = (int(x) for x in row[3:12])
        if kind == L.E_ROLL:
            lines.append(
                f"=== Round {rnd}: Activation Roll A {a}, B {b}: {SIDES[c]} wins, "
                f"{SIDES[d]} activates first"
            )
        elif kind == L.E_SEQ:
            order = [names[k] for k in (b, c, d, e, f, h, i, j)[:a] if k >= 0]
            more = " ..." if a > 8 else ""
            lines.append(f"  {SIDES[side]}'s secret Activation Sequence: {', '.join(order)}{more}")
        elif kind == L.E_ACTIVATE:
            level = f" ({L.LEVEL_NAMES[c]} Move)" if b == L.M_MOVE and c > 0 else ""
            lines.append(f"- {names[a]} activates: {L.MODE_NAMES[b]}{level}")
        elif kind == L.E_MOVE:
            lines.append(
                f"    {names[a]} moves from ({b}, {c}) to ({d}, {e}), facing {L.FACING_NAMES[f]}"
            )
        elif kind == L.E_DOOR:
            what = "closes" if d == 1 else "opens"
            lines.append(f"    {names[a]} {what} the door at ({b}, {c})")
        elif kind == L.E_TRAP:
            lines.append(f"    {names[a]} jumps the Trapdoor: D10 {b} vs SL {c}: {RESULTS[d]}")
        elif kind == L.E_INTERCEPT:
            lines.append(
                f"    {names[b]}'s {L.LEVEL_NAMES[c]} Move stops {names[a]} for the Round"
                + (" (-2 to his Natural Rolls)" if c == 4 else "")
            )
        elif kind == L.E_DASH:
            lines.append(f"    Heroic Move: {names[a]} moves on at the end of the Round")
        elif kind == L.E_AMBUSH:
            lines.append(f"    {names[a]} goes into ambush (Skilled Firing counter #{b})")
        elif kind == L.E_AMBUSH_END:
            lines.append(f"    {names[a]} leaves Skilled Firing ({L.AMBUSH_END_NAMES[b]})")
        elif kind == L.E_INFILTRATE:
            lines.append(f"    Infiltration/{b}: {names[a]} moves at the end of the Round")
        elif kind == L.E_CARD:
            who = names[a] if a >= 0 else SIDES[side]
            lines.append(
                f"    {who}: Action Card ({b} point(s)) {L.CARD_ROLES[c]}; {d} in the hand"
            )
        elif kind == L.E_EVENT:
            if d == 1:
                lines.append(
                    f"    {names[a]} activates the Event counter at ({b}, {c}): a Trap! "
                    f"D10 {e} vs SL {f}: {RESULTS[h]}"
                )
            else:
                lines.append(
                    f"    {names[a]} activates the Event counter at ({b}, {c}): an Event Card"
                )
        elif kind == L.E_AURA:
            what = "draws the Aura of Vengeance (Aura Card)" if b == 1 else "switches on"
            lines.append(f"    {names[a]} {what}" + (" the Aura of Vengeance" if b == 2 else ""))
        elif kind == L.E_MUTATION:
            who = names[a] if a >= 0 else f"{SIDES[side]}"
            text = f"    {who} {L.MUTATION_ROLES[b]}"
            if b == 1:
                text += f" (the wound on {names[c]})"
            elif b == 2:
                roll = f": D10 {d} vs SL {e}: {RESULTS[f]}" if d > 0 else " (automatic)"
                text += f" {names[c]}{roll}"
            lines.append(text)
        elif kind == L.E_STRIKE:
            what = f"{L.LEVEL_NAMES[c]} Strike" if c > 0 else "Combined Attack"
            if i & 4:
                what = "counter-blow (Basic Strike)"
            tag = flag_tags(i, ((1, "from the rear"), (2, "second strike")))
            lines.append(
                f"    {names[a]} {what} at {names[b]}: D10 {d} vs SL {e}: {RESULTS[f]}{tag}"
            )
        elif kind == L.E_PARRY:
            lines.append(
                f"    {names[a]} {L.LEVEL_NAMES[c]} Parry: D10 {d} vs SL {e}: {RESULTS[f]}"
            )
        elif kind == L.E_SHOT:
            tag = flag_tags(i, ((1, "second shot"), (2, "Armour-Piercing Shot"), (4, "ambush")))
            lines.append(
                f"    {names[a]} {L.LEVEL_NAMES[c]} Firing at {names[b]}: D10 {d} vs SL {e}: "
                f"{RESULTS[f]}{tag}"
            )
        elif kind == L.E_WOUND:
            lines.append(f"    {names[a]} takes {b} wound(s) ({CAUSES[d]}): NV {c} left")
        elif kind == L.E_REMOVED:
            lines.append(f"    {names[a]} is eliminated")
        elif kind == L.E_KNOCK:
            lines.append(
                f"    Brutish Strength: {names[a]} flies {c} square(s) to ({e}, {f}), "
                f"{d} square(s) short"
            )
        elif kind == L.E_SACRIFICE:
            lines.append(f"    {names[a]} sacrifices itself against {names[b]} ({c} wound(s))")
        elif kind == L.E_OBJECTIVE:
            lines.append(
                f"    {names[a]} carries out the Objective at ({b}, {c}) ({SIDES[side]}: {d})"
            )
        elif kind == L.E_DEFEND:
            lines.append(f"    {names[a]} stands in Defensive Combat Mode")
        elif kind == L.E_END:
            win = "a draw" if b == 0 else f"{SIDES[b - 1]} wins"
            lines.append(
                f"=== End in Round {rnd}: {L.END_REASONS[a]}; {win} (NV left A {c}, B {d})"
            )
    return lines
