"""Readable play-by-play from the engine's integer events (``--trace K``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analyzer.games.rapture.match import layout as L

SIDE = ("A", "B")
VP_REASONS = ("unit disabled", "bonus", "mission", "escape marker at the end")


def faces(packed: int, n: int) -> str:
    """Dice faces packed in base 8 by ``state_nb.pool`` (first 21 dice)."""
    shown = min(n, 21)
    out = []
    for _ in range(shown):
        out.append(packed % 8)
        packed //= 8
    text = " ".join(str(f) for f in reversed(out))
    return text + (" ..." if n > shown else "")


def _cm(v: int) -> str:
    return f"{v / 10:.1f}"


class Namer:
    """Names of units and models for trace lines."""

    def __init__(
        self,
        unit_names: Sequence[str],
        model_names: Sequence[str],
        unit_sides: Sequence[int],
        model_units: Sequence[int],
        mission_names: Sequence[str],
    ) -> None:
        self.units = list(unit_names)
        self.models = list(model_names)
        self.unit_sides = list(unit_sides)
        self.model_units = list(model_units)
        self.missions = list(mission_names)

    def unit(self, u: int) -> str:
        if u < 0 or u >= len(self.units):
            return "-"
        return f"{SIDE[self.unit_sides[u]]}:{self.units[u]}"

    def model(self, m: int) -> str:
        if m < 0 or m >= len(self.models):
            return "-"
        u = self.model_units[m]
        return f"{SIDE[self.unit_sides[u]]}:{self.models[m]}"


def render(events: np.ndarray, names: Namer) -> list[str]:
    """One line per event."""
    lines: list[str] = []
    for row in events:
        code, rnd, side, unit, model, tunit, tmodel, a, b, c, d, e, f = (int(x) for x in row)
        text = _line(code, side, unit, model, tunit, tmodel, a, b, c, d, e, f, names)
        if text is not None:
            lines.append(f"[r{rnd}] {text}" if rnd > 0 else text)
    return lines


def _line(
    code: int,
    side: int,
    unit: int,
    model: int,
    tunit: int,
    tmodel: int,
    a: int,
    b: int,
    c: int,
    d: int,
    e: int,
    f: int,
    n: Namer,
) -> str | None:
    s = SIDE[side] if side in (0, 1) else "-"
    if code == L.EV_TERRAIN:
        return f"terrain: {L.TERRAIN_NAMES[a]} x {_cm(b)}-{_cm(d)}, y {_cm(c)}-{_cm(e)}"
    if code == L.EV_MISSION:
        return f"mission of {s}: {n.missions[a] if 0 <= a < len(n.missions) else a}"
    if code == L.EV_DEPLOY:
        return f"deploy {n.unit(unit)} at ({_cm(a)}, {_cm(b)})"
    if code == L.EV_ROUND:
        return f"=== round {a} ==="
    if code == L.EV_PHASE:
        return ("-- preparation phase --", "-- activation phase --", "-- cleanup phase --")[a]
    if code == L.EV_ORDER:
        roll = f", roll-off {c // 10} vs {c % 10}" if c >= 0 else ""
        return f"combat value A {a}, B {b}{roll}: {s} activates first"
    if code == L.EV_FIRSTCHOICE:
        return f"{s} (under 100 points) chooses who activates first: {SIDE[a]}"
    if code == L.EV_ACTIVATE:
        return f"activate {n.unit(unit)}"
    if code == L.EV_NOACTION:
        return f"  {n.unit(unit)} ends its activation"
    if code == L.EV_MOVE:
        what = "charge" if f == 1 else "move"
        contact = f", B2B with {n.model(tmodel)}" if tmodel >= 0 else ""
        return (
            f"  {what}: {n.model(model)} ({_cm(a)}, {_cm(b)}) -> ({_cm(c)}, {_cm(d)}), "
            f"{_cm(e)} cm{contact}"
        )
    if code == L.EV_CHARGE:
        into = n.model(tmodel) if tmodel >= 0 else "nothing in reach"
        return f"  {n.unit(unit)} calls a charge into {into}"
    if code == L.EV_ATTACK:
        kind = {
            L.A_CC: "close combat attack",
            L.A_RANGED: "ranged attack",
            100 + L.RE_COUNTERBLOW: "counterblow",
            100 + L.RE_COUNTERSHOT: "countershot",
        }
        who = n.model(model) + (f" (+{f - 1} models)" if f > 1 else "")
        return (
            f"  {kind.get(a, a)}: {who} -> {n.model(tmodel)}: {b} dice at {c}+ "
            f"[{faces(e, b)}] = {d} hits"
        )
    if code == L.EV_LOF:
        return f"  line of fire: {n.model(model)} takes {a} hit(s), the target {b}"
    if code == L.EV_BLOCK:
        cover = " (cover)" if e == 1 else ""
        red = f", damage -{f}" if f > 0 else ""
        return (
            f"  block: {n.model(model)} {a} dice at {b}+{cover} [{faces(d, a)}] = {c} blocked{red}"
        )
    if code == L.EV_WOUND:
        return f"  {n.model(model)} takes {a} wound(s), {b} HP left"
    if code == L.EV_CASUALTY:
        how = " (escaped)" if a == 1 else ""
        return f"  casualty: {n.model(model)} removed{how}"
    if code == L.EV_DISABLED:
        who = n.model(model) if model >= 0 else n.unit(unit)
        credit = f"{SIDE[a]} scores {b} VP" if a in (0, 1) else "nobody scores"
        return f"  {who} disabled: {credit}"
    if code == L.EV_REACTION:
        return f"  reaction: {n.unit(unit)} ({n.model(model)}) {L.REACTION_NAMES[a]}, {b} RP"
    if code == L.EV_DODGE:
        return f"  dodge: {a} dice at 4+ [{faces(c, a)}] = {b} attack dice removed"
    if code == L.EV_MARKER:
        verb = f"gains {a_}" if (a_ := b) > 0 else f"loses {-b}"
        return f"  {n.unit(unit)} {verb} {L.MARKER_NAMES[a]} marker(s), {c} now"
    if code == L.EV_ESCAPE_MOVE:
        gone = ", leaves the battlefield" if c == 1 else ""
        return f"  escape movement: {n.unit(unit)} to ({_cm(a)}, {_cm(b)}){gone}"
    if code == L.EV_RESCUE:
        return f"  rescue: {n.unit(unit)} rescued by {n.unit(a)}"
    if code == L.EV_VP:
        reason = VP_REASONS[b] if 0 <= b < len(VP_REASONS) else b
        return f"  {s} +{a} VP ({reason}), {c} in total"
    if code == L.EV_RETREAT:
        return f"  retreat: {n.model(model)} ({_cm(a)}, {_cm(b)}) -> ({_cm(c)}, {_cm(d)})"
    if code == L.EV_GETUP:
        return f"  {n.unit(unit)} gets up"
    if code == L.EV_EXTINGUISH:
        return f"  {n.unit(unit)} extinguishes a fire"
    if code == L.EV_PICKUP:
        return f"  {n.unit(unit)} picks up the mission object ({a} AP)"
    if code == L.EV_DELIVER:
        return f"  {n.unit(unit)} delivers the mission object: +{a} VP"
    if code == L.EV_END:
        return f"=== end: {L.END_NAMES[a]}; victory points A {b}, B {c} ==="
    if code == L.EV_WATER:
        return f"  water: {n.model(model)} rolls {a}" + (", 1 wound" if b else "")
    if code == L.EV_DIFFICULT:
        ok = "passes" if c else "fails (distance counts double)"
        return f"  difficult terrain: {n.model(model)} rolls {a}, needs {b}+: {ok}"
    if code == L.EV_POISON:
        return f"  poison: {n.unit(unit)} loses 1 AP"
    if code == L.EV_FIRE:
        return f"  fire: {n.unit(unit)} takes {a} damage"
    if code == L.EV_FORMATION:
        what = "engages" if c == 1 else "back into formation"
        return f"  formation: {n.model(model)} {what} at ({_cm(a)}, {_cm(b)})"
    if code == L.EV_MORALE:
        return f"  {n.unit(unit)} loses {a} MP ({b} of {c} marked)"
    if code == L.EV_EFFECT:
        who = n.model(model) if model >= 0 else n.unit(unit)
        if 0 <= a < len(L.STAT_NAMES):
            return f"  bar effect (box {c}): {who} {L.STAT_NAMES[a]} {b:+d}"
        return None
    return f"  event {code} {(side, unit, model, tunit, tmodel, a, b, c, d, e, f)}"
