"""Play-by-play lines of a d20 match trace, in the rulebook's words."""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.d20.match import layout as L
from analyzer.match.trace_text import flag_tags

SIDES = ("A", "B")
COVER = ("no cover", "slight cover", "intermediate cover", "heavy cover")
STOPS = (
    "",
    " (stopped in difficult terrain)",
    " (stopped at the foot of {e}: climbs next turn)",
    " (climbed over {e})",
)


def figure_names(setup: Any) -> list[str]:
    names = []
    seen: dict[tuple[int, str], int] = {}
    for u in setup.units:
        key = (u.side, u.name)
        seen[key] = seen.get(key, 0) + 1
    count: dict[tuple[int, str], int] = {}
    for u in setup.units:
        key = (u.side, u.name)
        count[key] = count.get(key, 0) + 1
        suffix = f" #{count[key]}" if seen[key] > 1 else ""
        names.append(f"{SIDES[u.side]}:{u.name}{suffix}")
    return names


def _article(name: str) -> str:
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _outcome(damage: int, flags: int) -> str:
    """A shot's or a throw's result and its modifiers (``E_SHOT`` / ``E_THROW`` flags: 1 in
    the back, 2 retreating, 4 ready-to-shoot reaction, 8 x the cover grade)."""
    cov = flags >> 3
    tag = flag_tags(
        flags,
        ((4, "ready to shoot reaction"), (1, "in the back +1"), (2, "retreating: Skill halved")),
        [f"{COVER[cov]} +{cov} PD"] if cov else [],
    )
    return (f"hit, {damage} CP lost" if damage > 0 else "missed") + tag


def _cm(v: int) -> str:
    return f"{v / 10:.1f}"


def render(setup: Any, events: np.ndarray) -> list[str]:
    comp = setup.extra
    names = figure_names(setup)
    lines: list[str] = []
    attacker = -1
    retreating: dict[int, str] = {}  # figure -> how, after a won retreat test: its next move
    for row in events:
        kind, turn, side = int(row[0]), int(row[1]), int(row[2])
        a, b, c, d, e, f, h, i, j = (int(x) for x in row[3:12])
        if kind == L.E_ROLES:
            attacker = a
            lines.append(
                f"Roles (D20 {b} vs {c}): {SIDES[a]} is the Attacker, {SIDES[1 - a]} the Defender"
            )
        elif kind == L.E_ROLLOFF:
            lines.append(
                f"Who starts ? A throws {a}, B throws {b} (D20 + infiltration/precognition): "
                f"{SIDES[c]} wins and {SIDES[d]} starts"
            )
        elif kind == L.E_DEPLOY:
            lines.append(f"Deployment: {names[a]} at ({_cm(b)}, {_cm(c)}) cm")
        elif kind == L.E_TURN:
            lines.append(f"--- Turn {turn}: {SIDES[side]}'s movement phase")
        elif kind == L.E_MOVE:
            mode = L.MODE_NAMES[b]
            if a in retreating:  # the kernel moves a retreating figurine as a normal move
                mode = retreating.pop(a)
            if b == L.M_READY:
                lines.append(
                    f"  {names[a]} takes the ready to shoot position at ({_cm(c)}, {_cm(d)})"
                )
                continue
            el = comp.ter_names[i] if 0 <= i < len(comp.ter_names) else "an element"
            stop = STOPS[h].format(e=el)
            lines.append(
                f"  {names[a]}: {mode} from ({_cm(c)}, {_cm(d)}) to ({_cm(e)}, {_cm(f)}) cm{stop}"
            )
        elif kind == L.E_SHOT:
            gun = comp.guns[a][c] if c < len(comp.guns[a]) else "gun"
            lines.append(
                f"  {names[a]} shoots {names[b]} with {gun}: D20 {d}, total {e} vs PD {f}: "
                f"{_outcome(h, i)}"
            )
        elif kind == L.E_THROW:
            obj = comp.object_names[c] if c < len(comp.object_names) else "object"
            lines.append(
                f"  {names[a]} throws {_article(obj)} (DL {j}) at {names[b]}: D20 {d}, total {e} "
                f"vs PD {f}: {_outcome(h, i)}"
            )
        elif kind == L.E_LAND:
            obj = comp.object_names[a] if a < len(comp.object_names) else "object"
            lines.append(f"    the {obj} lands at ({_cm(b)}, {_cm(c)}) cm")
        elif kind == L.E_BLOW:
            tag = flag_tags(i, ((1, "in the back +1"),), [f"synergy +{j}"] if j else [])
            res = f"hit, {h} CP lost" if h > 0 else "missed"
            lines.append(
                f"  {names[a]} strikes {names[b]} in HtH (Power {c}): D20 {d}, total {e} vs "
                f"PD {f}: {res}{tag}"
            )
        elif kind == L.E_REMOVED:
            lines.append(f"  {names[a]} is killed and taken out of the game")
        elif kind == L.E_FACE:
            lines.append(f"  {names[a]} turns to face {names[b]}")
        elif kind == L.E_RETREAT:
            how = "flees (Movement + 5 cm)" if f == 0 else "backs away shooting (half Movement)"
            res = "succeeds" if e else "fails"
            if e:
                retreating[a] = "flees" if f == 0 else "backs away"
            lines.append(
                f"  {names[a]} tries to leave the HtH ({how}): retreat test {c} vs {d} "
                f"({names[b]}): {res}"
            )
        elif kind == L.E_ACTION:
            lines.append(
                f"  Effective action: {a} figurine(s) led by {names[b]} insert the virus: "
                f"turn {c} of {d}"
            )
        elif kind == L.E_END:
            reason = L.END_REASONS[a]
            win = "a draw" if b == 0 else f"{SIDES[b - 1]} wins"
            if a == L.END_OBJECTIVE and attacker >= 0:
                reason = f"objective (the Attacker {SIDES[attacker]} inserted the virus)"
            lines.append(
                f"=== End after turn {turn}: {reason}; {win} (CP-weighted points left A {c}, B {d})"
            )
    return lines
