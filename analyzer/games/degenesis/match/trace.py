"""Play-by-play lines of a Degenesis mission trace, in the rulebook's words."""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.degenesis.match import layout as L

SIDES = ("OPERATIVE", "HOSTILE")
DASHBOARD = ("FOCUS", "PRIMAL")
REVEALED_BY = ("SCOUTING", "ATTACKING", "an AMBUSH", "an AREA ATTACK", "an ACTIVE TRAIT")
HEALED_BY = ("an ACTIVE TRAIT", "VI The Healer (a FLESHWOUND)", "VI The Healer (a STAGE)")
TRAITS = ("REVEALS a THREAT on", "STUNS", "lowers the DEFENSE of", "SNARES",
          "FLIPS (Harrowing)", "EXECUTES")  # fmt: skip
DRAWN_FOR = ("a CONCEPT", "the other side's OVERCOMMIT", "V The Seeker")
DICE = ("WHITE", "BLACK", "FATAL")


def tile_name(comp: Any, t: int) -> str:
    """A TILE as ``r<row>c<col>`` (its grid cell in the mission file)."""
    if t < 0:
        return "off the FIELD"
    r, c = comp.tables.field.cells[t]
    return f"r{r}c{c}"


def item_name(comp: Any, i: int) -> str:
    """ITEM ``i`` of the ROSTER's item list (its name and first CARRIER)."""
    names = getattr(comp, "item_names", [])
    return names[i] if 0 <= i < len(names) else f"ITEM {i}"


def render(setup: Any, events: np.ndarray) -> list[str]:
    comp = setup.extra
    names = comp.names
    lines: list[str] = []
    for row in events:
        kind, rnd = int(row[0]), int(row[1])
        a, b, c, d, e, f, h, i, _ = (int(x) for x in row[3:12])
        if kind == L.E_SETUP:
            if int(row[2]) == 0:
                lines.append(
                    f"Field setup: {names[a]} at the OSP {tile_name(comp, b)} in {DASHBOARD[d]}"
                )
            else:
                lines.append(f"Field setup: a THREAT ({names[a]}) on {tile_name(comp, b)}")
        elif kind == L.E_ROUND:
            lines.append(f"=== ROUND {rnd}: {a} EDGE(S) per OPERATIVE; the HOSTILE has {b} stored")
        elif kind == L.E_TURN:
            lines.append(f"--- {names[a]}'s TURN ({b} EDGE(S) left)")
        elif kind == L.E_MOVE:
            lines.append(
                f"  {names[a]} MOVES from {tile_name(comp, b)} to {tile_name(comp, c)} "
                f"({d} BORDER(S))"
            )
        elif kind == L.E_ATTACK:
            label = comp.option_names[a][d] if d < len(comp.option_names[a]) else "ATTACK"
            roll = "BOTCH" if e < 0 else f"{e} SUCCESSES"
            what = "AREA ATTACK on " + tile_name(comp, c) + ", " if i else ""
            outcome = "hit" if h else "no effect"
            lines.append(
                f"  {names[a]} ATTACKS {names[b]} ({what}{label}): {roll} vs DEFENSE {f} "
                f"-> {outcome}"
            )
        elif kind == L.E_WOUND:
            state = (
                "WOUNDED",
                "DIES",
                "steps to its next STAGE",
                "DIES: back to the LEGION RESERVE",
            )
            count = "" if d == 3 else f" ({b}/{c} WOUNDS)"
            lines.append(f"  {names[a]} {state[d]}{count}")
        elif kind == L.E_AMBUSH:
            lines.append(f"  AMBUSH! {names[a]} springs on {names[b]} at {tile_name(comp, c)}")
        elif kind == L.E_REVEAL:
            lines.append(
                f"  THREAT REVEALED by {REVEALED_BY[c]}: {names[a]} on {tile_name(comp, b)}"
            )
        elif kind == L.E_SPAWN:
            lines.append(f"  the HOSTILE SPAWNS a THREAT ({names[a]}) at {tile_name(comp, b)}")
        elif kind == L.E_SCOUT:
            roll = "BOTCH" if c < 0 else f"{c}"
            lines.append(
                f"  {names[a]} SCOUTS {tile_name(comp, b)}: {roll} vs DIFFICULTY {d}, "
                f"{e} THREAT(S) REVEALED"
            )
        elif kind == L.E_FLIP:
            lines.append(f"  {names[a]} FLIPS to {DASHBOARD[b]}")
        elif kind == L.E_REACT:
            lines.append(f"  REACTION PHASE: {a} EDGE(S) stored, {b} spent")
        elif kind == L.E_EXIT:
            how = "RETREATS by the OSP" if c == 1 else "leaves the FIELD by the EXIT POINT"
            lines.append(f"  {names[a]} {how} {tile_name(comp, b)}")
        elif kind == L.E_HOLD:
            lines.append(f"  OBJECTIVE {tile_name(comp, a)} held ({b} objective-ROUND(S))")
        elif kind == L.E_STUNNED:
            lines.append(f"  {names[a]} is STUNNED (no ACTIONS this ROUND, DEFENSE -2)")
        elif kind == L.E_BOTCH:
            lines.append(f"  {names[a]}'s {comp.option_names[a][b]} FLIPS to its BOTCH face")
        elif kind == L.E_FIXED:
            lines.append(f"  {names[a]} FLIPS {item_name(comp, b)} back (an ACTION)")
        elif kind == L.E_PICKUP:
            took = [item_name(comp, j) for j in range(L.MAX_ITEMS) if (b >> j) & 1]
            if c >= 0:
                took.append(f"the body of {names[c]}")
            lines.append(f"  {names[a]} PICKS UP {', '.join(took) or 'nothing'}")
        elif kind == L.E_TRADE:
            how = "gives" if d else "takes"
            to = "to" if d else "from"
            lines.append(f"  {names[a]} TRADES: {how} {item_name(comp, c)} {to} {names[b]}")
        elif kind == L.E_DROP:
            what = item_name(comp, b) if b >= 0 else f"the body of {names[c]}"
            lines.append(f"  {names[a]} DROPS {what} on {tile_name(comp, d)}")
        elif kind == L.E_DISCARD:
            lines.append(f"  {names[a]} DISCARDS {item_name(comp, b)} on {tile_name(comp, c)}")
        elif kind == L.E_HEAL:
            what = "a STAGE" if c == L.HEAL_HEALER_STAGE else "a FLESHWOUND"
            lines.append(
                f"  {names[a]} FLIPS back {what} of {names[b]} by {HEALED_BY[c]} (now {d} WOUNDS)"
            )
        elif kind == L.E_TRAIT:
            target = tile_name(comp, c) if b == L.TR_REVEAL else names[c]
            how = "before its ACTION, a PASSIVE TRAIT" if b == L.TR_HARROW else "an ACTIVE TRAIT"
            lines.append(f"  {names[a]} {TRAITS[b]} {target} ({how})")
        elif kind == L.E_PASS:
            lines.append(f"  {names[a]} takes no ACTION")
        elif kind == L.E_ARCANA:
            on = f" on {names[b]}" if b >= 0 else ""
            negated = " -> NEGATED by VII The Traditionalist" if c else ""
            lines.append(f"  the {SIDES[int(row[2])]}S play {L.ARCANA_NAMES[a]}{on}{negated}")
        elif kind == L.E_DRAW:
            card = L.ARCANA_NAMES[a] if a >= 0 else "nothing (the APOCALYPTIC TAROT is empty)"
            lines.append(f"  the {SIDES[int(row[2])]}S take {card} (for {DRAWN_FOR[b]})")
        elif kind == L.E_OVERCOMMIT:
            what = "SECURE 1" if b == L.OVER_SECURE else f"+1 {DICE[b]} DIE"
            lines.append(f"  {names[a]} OVERCOMMITS: {what}")
        elif kind == L.E_END:
            reason = L.END_REASONS[a] if 0 <= a < len(L.END_REASONS) else "?"
            lines.append(
                f"MISSION END after ROUND {rnd}: {reason}; objectives done {c}, OPERATIVES lost {d}"
            )
    return lines
