"""Heroscape match-ups compiled into the plain arrays the kernels take.

Armies ("Choose Your Army"): every Unique or Uncommon card chosen is its own Army Card
(one figure; order markers go on it); a Common card chosen several times is one Army
Card for all its figures, activating up to its silhouettes per turn.  Figures of one
Army Card are consecutive in the arrays (and in the unit records).

Special powers are recognised by name (:data:`MATCH_POWERS`); a special attack is a
power whose text reads ``Range R. Attack A. Explosion X.`` or ``... Line X.``
("Special Attack Keywords").  Every other power is listed as not modelled.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.analysis.duel import OptionKind, choice, flag, integer, number
from analyzer.errors import InputError
from analyzer.games.heroscape import rolls
from analyzer.games.heroscape import units as hu
from analyzer.games.heroscape.match import layout as L
from analyzer.games.heroscape.match import scenario as S

#: Powers the match engine models, by card name, and their bits.
MATCH_POWERS: dict[str, int] = {
    hu.FLYING: L.P_FLYING,
    hu.STEALTH_FLYING: L.P_FLYING | L.P_STEALTH,
    hu.OBFUSCATION_MATRIX: L.P_OBFUSCATION,
    hu.DEFEND_THE_DEEP: L.P_DEEP,
    "Swim": L.P_SWIM,
    hu.DOUBLE_ATTACK: L.P_DOUBLE_ATTACK,
    hu.NANITE_SHIELDING: L.P_NANITE,
    hu.NANOTOXIN_COATING: L.P_NANOTOXIN,
    hu.GULLOX_WING_RENDER: L.P_GULLOX,
    hu.BLOODCURSED_BLADE: L.P_BLOODCURSED,
    "Charge!!!": L.P_CHARGE,
}
SPECIAL_ATTACK = re.compile(r"Range (\d+)\. Attack (\d+)\. (Explosion|Line) (\d+)")
#: Attack and defense dice covered by the expected-wound tables (more are capped).
MAX_TABLE_DICE = 16
#: P(wounds >= k) is tabled for k = 1 .. MAX_TABLE_WOUNDS.
MAX_TABLE_WOUNDS = 8

OPTION_KINDS: dict[str, OptionKind] = {
    "first": choice(*L.FIRST_MODES),
    "rounds": integer(0, 100),
    "falling": flag(),
    "leaving_dice": integer(0, 5),
    "threat": number(0, 3),
    "threat_cards": choice("next", "all"),
    "strong_plans": integer(1, 6),
    "strong_rollouts": integer(1, 64),
    "strong_margin": number(0, 5),
    "strong_drop": number(0, 10),
    "tempo": number(0, 3),
    "hold": number(0, 3),
    "strong_horizon": integer(1, 20),
    "strong_to_end": flag(),
    "charge": flag(),
    "even_targets": flag(),
    "check_invariants": flag(),
}
OPTION_HELP: dict[str, str] = {
    "first": "who takes round 1's first turn: rules (initiative roll), alternate, a, b "
    "(later rounds always roll for initiative)",
    "rounds": "round limit (0: the scenario's)",
    "falling": "falling damage (a drop of at least the figure's height: 1 combat die, "
    "skull = 1 wound; 2 dice from height + 10)",
    "leaving_dice": "combat dice of a leaving engagement attack (each skull 1 wound, no defense)",
    "threat": "greedy: weight of the enemy's expected wounds on a space against its value",
    "threat_cards": "greedy: the threat on a space counts the one enemy Army Card whose "
    "figures could take the most (next: the enemy's next Player Turn moves one card) or "
    "every enemy card (all)",
    "strong_plans": "strong policy: order-marker plans tried each round",
    "strong_rollouts": "strong policy: rollouts per plan (common random numbers)",
    "strong_margin": "strong policy: a plan replaces greedy's markers only when its paired "
    "mean gain over greedy's plan exceeds this many standard errors (0: the best mean)",
    "strong_drop": "strong policy: after each batch of 8 rollouts, a plan (not greedy's) whose "
    "paired mean is this many standard errors below the leader's gets no more rollouts "
    "(0: every plan gets all rollouts)",
    "tempo": "greedy, in a scenario won by one side at the round limit: the other side's "
    "pursuit (per space beyond Range: 0.6 + tempo x its best attack worth / Move; threat "
    "weight x the rounds left after this one / the rounds after the first; 0: off)",
    "hold": "greedy, in a scenario won by one side at the round limit: that side holds "
    "(threat weight x (1 + hold), closing-in weight 0.6 x (1 - hold), below 0 it draws "
    "away; 0: off)",
    "strong_horizon": "strong policy: rounds played per rollout (this one included)",
    "strong_to_end": "strong policy: in a scenario won by one side at the round limit, "
    "rollouts play on to the round limit (its victory seen exactly)",
    "charge": "model Charge!!! (reading: docs/rules-choices.md; false: listed as not modelled)",
    "even_targets": "greedy, in a scenario won by one side at the round limit: every Life of "
    "that side's figures is worth the same as a target (its points / its Life: all must be "
    "destroyed in time), not its card's points per Life",
    "check_invariants": "check the state after every player turn",
}
OPTION_DEFAULTS: dict[str, Any] = {
    "first": "rules",
    "rounds": 0,
    "falling": True,
    "leaving_dice": 1,
    "threat": 0.3,
    "threat_cards": "next",
    "strong_plans": 6,
    "strong_rollouts": 32,
    "strong_margin": 0.0,
    "strong_drop": 0.0,
    "tempo": 1.0,
    "hold": 1.0,
    "strong_horizon": 2,
    "strong_to_end": True,
    "charge": True,
    "even_targets": True,
    "check_invariants": False,
}


def full_options(options: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(OPTION_DEFAULTS)
    out.update(options)
    return out


@dataclass
class Compiled:
    """What the trace, the report and the sandbox need besides the arrays."""

    scenario: S.Scenario
    fig_names: list[str]
    fig_sides: list[int]
    fig_kinds: list[str]
    card_names: list[str]
    heights: tuple[int, ...]
    unmodelled: list[str]


@functools.lru_cache(maxsize=4)
def wound_tables(sides: int, skull: int, shield: int) -> np.ndarray:
    """``ew[a, d, 0]`` expected wounds of ``a`` attack dice against ``d`` defense dice and
    ``ew[a, d, k]`` P(wounds >= k), from the exact attack of ``rolls.ATTACK``."""
    die = {"skull": skull, "shield": shield, "blank": sides - skull - shield}
    n = MAX_TABLE_DICE + 1
    ew = np.zeros((n, n, MAX_TABLE_WOUNDS + 1))
    for a in range(n):
        for d in range(n):
            dist = rolls.ATTACK.exact(
                {
                    "combat_die": die,
                    "attack_dice": a,
                    "defense_dice": d,
                    "reroll_one": False,
                    "auto_skulls": 0,
                    "auto_shields": 0,
                    "extra_wounds": 0,
                }
            )
            ew[a, d, 0] = dist.mean()
            tail = np.cumsum(dist.probs[::-1])[::-1]
            for k in range(1, MAX_TABLE_WOUNDS + 1):
                idx = k - dist.lowest
                ew[a, d, k] = float(tail[idx]) if 0 <= idx < tail.size else 0.0
    return ew


def target_worths(
    ppl: np.ndarray, fi: np.ndarray, time_winner: int, opts: Mapping[str, Any]
) -> np.ndarray:
    """``fr``: points per Life ("Scoring") and greedy's worth per Life of a figure as a
    target: the same, except in a scenario won by one side at the round limit with
    ``even_targets``, where that side's figures all count its points / its Life."""
    fr = np.column_stack([ppl, ppl]).astype(np.float64)
    if time_winner >= 0 and opts["even_targets"]:
        own = fi[:, L.F_SIDE] == time_winner
        life = fi[own, L.F_LIFE].astype(np.float64)
        if life.sum() > 0:
            fr[own, 1] = float((ppl[own] * life).sum() / life.sum())
    return np.ascontiguousarray(fr)


def _powers(card: hu.Card) -> tuple[int, list[int], list[str]]:
    """(power bits, special attack [kind, x, range, attack], names not modelled)."""
    bits = 0
    special = [L.SP_NONE, 0, 0, 0]
    missing = []
    for power in card.special_powers:
        m = SPECIAL_ATTACK.search(power.text or "")
        if power.name in MATCH_POWERS:
            bits |= MATCH_POWERS[power.name]
        elif m is not None and special[0] == L.SP_NONE:
            kind = L.SP_EXPLOSION if m.group(3) == "Explosion" else L.SP_LINE
            special = [kind, int(m.group(4)), int(m.group(1)), int(m.group(2))]
        else:
            missing.append(power.name)
    if card.kind == "hero" and card.uniqueness == "unique":
        bits |= L.P_UNIQUE_HERO
    return bits, special, missing


def compile_arrays(
    cards: Mapping[str, hu.Card],
    lists: tuple[hu.ArmyList, hu.ArmyList],
    policies: tuple[int, int],
    opts: Mapping[str, Any],
    scen: S.Scenario,
    first_side: int | None,
) -> tuple[tuple[np.ndarray, ...], Compiled]:
    """The static arrays ``(hx, dist, los, tr, fi, fr, ci, gl, ew, op)`` of a match-up
    (``dist`` as int16, ``los`` as uint8, every other integer array int64)."""
    fig_rows: list[list[int]] = []
    ppl: list[float] = []
    card_rows: list[list[int]] = []
    fig_names: list[str] = []
    fig_sides: list[int] = []
    fig_kinds: list[str] = []
    card_names: list[str] = []
    unmodelled: list[str] = []
    for side, army in enumerate(lists):
        merged: dict[str, int] = {}
        entries: list[tuple[hu.Card, int]] = []
        for entry in army.units:
            card = cards[entry.unit]
            if card.uniqueness == "common":
                if card.name not in merged:
                    merged[card.name] = len(entries)
                    entries.append((card, 0))
                k = merged[card.name]
                entries[k] = (card, entries[k][1] + entry.count)
            else:
                entries.extend((card, 1) for _ in range(entry.count))
        for card, copies in entries:
            bits, special, missing = _powers(card)
            if bits & L.P_CHARGE and not opts["charge"]:
                bits &= ~L.P_CHARGE
                missing.append("Charge!!!")
            unmodelled.extend(f"{card.name}: {name}" for name in missing)
            n_fig = card.figures * copies
            card_rows.append([side, card.figures, len(fig_rows), n_fig])
            card_names.append(card.name)
            for _ in range(n_fig):
                fig_rows.append(
                    [
                        side,
                        len(card_rows) - 1,
                        card.life,
                        card.move,
                        card.range,
                        card.attack,
                        card.defense,
                        card.height,
                        L.SIZE_NAMES.index(card.size),
                        1 if card.base == "double" else 0,
                        0,
                        bits,
                        *special,
                    ]
                )
                ppl.append(card.points / hu.health(card))
                fig_names.append(card.name)
                fig_sides.append(side)
                fig_kinds.append(card.kind)
    fi = np.array(fig_rows, dtype=np.int64)
    heights = tuple(sorted({int(h) for h in fi[:, L.F_HEIGHT]}))
    fi[:, L.F_HCLASS] = [heights.index(int(h)) for h in fi[:, L.F_HEIGHT]]
    for side in (0, 1):
        need = int(sum((1 + fi[i, L.F_DOUBLE]) for i in range(len(fi)) if fi[i, L.F_SIDE] == side))
        zone = int(np.sum(scen.hx[:, L.H_ZONE] == side + 1))
        if need > zone:
            raise InputError(
                f"{scen.path}: the start zone of side {'AB'[side]} has {zone} spaces; "
                f"{lists[side].name} needs {need}"
            )
    die = rolls.load_combat_die()
    sides = sum(die.values())
    op = np.zeros(L.O_COLS, dtype=np.int64)
    op[L.O_FIRST] = L.FIRST_MODES.index(opts["first"])
    op[L.O_FORCED] = -1 if first_side is None else int(first_side)
    op[L.O_POL_A], op[L.O_POL_B] = policies
    op[L.O_ROUNDS] = int(opts["rounds"]) or scen.rounds
    op[L.O_TIME_WINNER] = scen.time_winner
    op[L.O_SIDES], op[L.O_SKULL], op[L.O_SHIELD] = sides, die["skull"], die["shield"]
    op[L.O_FALLING] = int(bool(opts["falling"]))
    op[L.O_LEAVE_DICE] = int(opts["leaving_dice"])
    op[L.O_TRAPS] = int(scen.traps)
    op[L.O_TRAP_WOUNDS] = scen.trap_wounds
    op[L.O_CHECK] = int(bool(opts["check_invariants"]))
    op[L.O_LOOK_K] = int(opts["strong_plans"])
    op[L.O_LOOK_ROLLOUTS] = int(opts["strong_rollouts"])
    op[L.O_THREAT] = round(float(opts["threat"]) * 1000)
    op[L.O_THREAT_ALL] = int(opts["threat_cards"] == "all")
    op[L.O_STRONG_MARGIN] = round(float(opts["strong_margin"]) * 1000)
    op[L.O_STRONG_DROP] = round(float(opts["strong_drop"]) * 1000)
    op[L.O_NHC] = len(heights)
    op[L.O_TEMPO] = round(float(opts["tempo"]) * 1000)
    op[L.O_HOLD] = round(float(opts["hold"]) * 1000)
    op[L.O_STRONG_HORIZON] = int(opts["strong_horizon"])
    op[L.O_STRONG_END] = int(bool(opts["strong_to_end"]))
    op[L.O_CHARGE] = int(bool(opts["charge"]))
    op[L.O_LEVEL_LO] = int(scen.hx[:, L.H_LEVEL].min())
    op[L.O_LEVEL_HI] = int(scen.hx[:, L.H_LEVEL].max())
    arrays = (
        S.kernel_hx(scen.hx),  # with reach's bit sets
        # int16 (a quarter of int64's cache): greedy reads whole rows per activation
        S.distances(scen.hx).astype(np.int16),
        # 0 / 1 as uint8 (1/8 of the cache), by [height pair, target space, viewer space]:
        # greedy looks from many spaces at one enemy, so its look-ups are consecutive bytes
        np.ascontiguousarray(S.sight_tables(scen.hx, heights).transpose(0, 2, 1)).astype(np.uint8),
        S.terrain_table(),
        fi,
        target_worths(np.array(ppl, dtype=np.float64), fi, scen.time_winner, opts),
        np.array(card_rows, dtype=np.int64),
        scen.glyphs.copy(),
        # by [k, a, d]: greedy reads the expected wounds (k = 0) of many dice pairs, 2.3 KB
        np.ascontiguousarray(wound_tables(sides, die["skull"], die["shield"]).transpose(2, 0, 1)),
        op,
    )
    comp = Compiled(
        scenario=scen,
        fig_names=fig_names,
        fig_sides=fig_sides,
        fig_kinds=fig_kinds,
        card_names=card_names,
        heights=heights,
        unmodelled=sorted(set(unmodelled)),
    )
    return arrays, comp
