"""Rapture duels: one unit against another, exact Markov chain and Monte Carlo kernel.

Rulebook: ``rapture.txt``.  The sequence follows "3. Gameplay":

* **Preparation phase** ("Fill up action points (AP) and reaction points (RP)"):
  both units refill AP and RP (values of their current health, see health
  effects below); unused points of the last round are lost ("Cleanup Phase").
* **Activation order** ("Determine order of activation"): both single-unit
  battlegroups have fewer than 100 points, so in round 1 the winner of the
  roll-off decides who activates first: that is ``--first``.  From round 2
  the higher combat value (the unit's INI) activates first; a tie is a d6
  roll-off (1/2 each).  Option ``order="fixed"`` instead gives the ``--first``
  side the first activation of every round.
* **Activation** ("Actions and Reactions"): the unit spends its AP, 1 AP per
  action, within the round limits (movement 2, close combat attack 2,
  ranged attack 2 per round), by this policy:

  1. a unit with a Shelter Marker first spends 1 AP on "Action: Get Up"
     (it can do nothing else while sheltered);
  2. in base contact ("Moving into Close Combat": no movement or shooting in
     close combat) it makes close combat attacks;
  3. out of contact, if it has a ranged weapon and the enemy is within its
     range, it makes ranged attacks;
  4. otherwise it moves toward the enemy ("Action: Movement Action"): a unit
     with a ranged weapon moves at most MOV and stops at its weapon's range
     (undershooting is allowed), so shooters never charge; a unit without one
     moves its full MOV and, when that reaches the enemy, moves into contact
     (a charge; the remaining movement is lost).
  The activation ends when AP run out or no allowed action is left.
* **Reactions** (one per action, "You may not perform a reaction to a reaction"):

  - *Countershot* ("Reaction: Countershot", 2 RP, MMS+1) against a charge,
    when the defender has a ranged weapon, 2 RP, no Shelter Marker and the
    charger is within its range when the movement is called.  It is always
    taken when possible (option ``countershot=False`` turns it off).  If it
    removes the charger, the charger never reaches contact.
  - *Dodge* (1 RP, TEC dice at 4+, each success removes one attack die) or
    *counterblow* (2 RP, CCS+1, after the attack, only if the defender
    survives) against a close combat attack.  Rule ``reaction="per-rp"``
    (default): for each option the exact *expected wound swing* is computed
    for the current health of both units: a dodge gains the drop in expected
    wounds received, a counterblow gains the expected wounds it deals (zero if
    the defender is removed by the attack).  The option with the highest gain
    per RP is taken if its gain is positive; ties go to the cheaper option.
    ``"total"`` compares the gains themselves; ``"dodge"``/``"counterblow"``
    take that reaction whenever affordable, ``"none"`` never reacts.
  - *Seek shelter* ("Reaction: Seek Shelter", 1 RP) against a ranged attack:
    taken when the unit has no Shelter Marker yet and the exact expected
    wounds it prevents over the ranged attacks the shooter can still make in
    this activation (this one included) reach ``shelter_threshold`` (default
    1 wound; None never shelters).  The marker gives +1 DEF and blocks on 4+
    against ranged attacks, halves DEF against close combat attacks, forbids
    all reactions, and stays until the unit's next activation (Get Up).

* **Health bar effects** take hold as soon as their box is marked (the next
  roll uses the new stats); effects on AP/RP count from the next preparation
  phase, effects on INI at the next order roll, effects on MOV at the next
  movement.  Stat bonuses and extra attacks of the ability catalogue apply
  always; ``damage_reduction`` lowers the wounds of every attack after blocks
  (Kyenar's "Scale Skin").

Simplifications (also in :attr:`DuelModel.notes`): one-dimensional distance in
cm, open ground (no cover other than Shelter Markers, no terrain); morale,
escape and retreat are left out (no morale damage arises in a duel without
abilities); bands are not modelled (a leader or an apprentice duels as a
single model); a squad's health is the sum of its models' HP, wounds fill
models in order with overflow carried to the next model, every attack or
countershot rolls ``models alive x ATT`` (or ROF) dice as one pooled attack
and every model counterblows; dodge and block dice are those of one model
(TEC, DEF).

Exact engine: a finite Markov chain over (round, activation, distance, AP and
RP left, actions used, Shelter Markers, health of A, health of B), with the
health pair held as a dense matrix per discrete context and each attack
applied as a transition tensor built from ``rolls.ATTACK.exact``.  It is
exact for both ``--start melee`` and ``--start range``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from numba import njit

from analyzer.dice.random_nb import roll_die
from analyzer.dice.simulate import trial_kernel
from analyzer.duels import DRAW, WIN_A, WIN_B, ActivationSummary, DuelModel, DuelOptions, DuelSpace
from analyzer.errors import InputError
from analyzer.games.rapture import rolls
from analyzer.games.rapture.units import Card, effective_stats, health, models_alive
from analyzer.games.rapture.units import ignored_abilities as _ignored

ORDERS = ("rules", "fixed")
REACTIONS = ("per-rp", "total", "dodge", "counterblow", "none")
#: Distances are integers in 1/100 cm (0.1 mm), so moves and ranges compare exactly.
DIST_UNIT = 100
#: Round limits ("Overview of Actions and Reactions"): movement, close combat, ranged: 2/round.
LIMIT = 2
_EPS = 1e-12

# Rows of the per-side stat table (one column per remaining health).
(
    F_ATT,
    F_ROF,
    F_HIT_MELEE,
    F_HIT_CB,
    F_HIT_RANGED,
    F_HIT_CS,
    F_BLK_MELEE,
    F_BAT_MELEE,
    F_BLK_MELEE_SH,
    F_BAT_MELEE_SH,
    F_BLK_RANGED,
    F_BAT_RANGED,
    F_BLK_RANGED_SH,
    F_BAT_RANGED_SH,
    F_TEC,
    F_MOV,
    F_INI,
    F_AP,
    F_RP,
) = range(19)
N_FIELDS = 19

# Attack kinds: attacker's dice and hit fields, defender's block dice and block-at fields.
K_MELEE, K_MELEE_SH, K_CB, K_RANGED, K_RANGED_SH, K_CS = range(6)
KINDS = np.array(
    [
        [F_ATT, F_HIT_MELEE, F_BLK_MELEE, F_BAT_MELEE],
        [F_ATT, F_HIT_MELEE, F_BLK_MELEE_SH, F_BAT_MELEE_SH],
        [F_ATT, F_HIT_CB, F_BLK_MELEE, F_BAT_MELEE],
        [F_ROF, F_HIT_RANGED, F_BLK_RANGED, F_BAT_RANGED],
        [F_ROF, F_HIT_RANGED, F_BLK_RANGED_SH, F_BAT_RANGED_SH],
        [F_ROF, F_HIT_CS, F_BLK_RANGED, F_BAT_RANGED],
    ],
    dtype=np.int64,
)

# Parameter vector header.
P_ROUNDS, P_A_FIRST, P_FIXED, P_HA, P_HB, P_SW, P_SR, P_SA, P_D0, P_ROW, P_RPD = range(11)
P_STATS, P_REACT, P_SHELTER = 11, 12, 14  # offsets: stats; react A, B; shelter A, B
P_SIDE = 16  # per side: has weapon, range, damage modifier, countershot allowed
SIDE_WORDS = 4
HEADER = P_SIDE + 2 * SIDE_WORDS


# ------------------------------------------------------------------ side data
@dataclass(frozen=True)
class _Side:
    """A card compiled into integer tables indexed by remaining health."""

    card: Card
    health: int
    table: np.ndarray  # (N_FIELDS, health + 1)
    has_weapon: bool
    range: int
    damage_mod: int


def _compile_side(card: Card) -> _Side:
    total = health(card)
    table = np.zeros((N_FIELDS, total + 1), dtype=np.int64)
    for h in range(total + 1):
        st = effective_stats(card, h)
        alive = models_alive(card, h)
        hits = {
            kind: rolls.attack_thresholds(
                {"kind": kind, "cover": "none", "skill": int(st[skill]), "defense": 0}
            )["hit_at"]
            for kind, skill in (
                ("melee", "ccs"),
                ("counterblow", "ccs"),
                ("ranged", "mms"),
                ("countershot", "mms"),
            )
        }
        blocks = {
            (kind, cover): rolls.attack_thresholds(
                {"kind": kind, "cover": cover, "skill": 1, "defense": int(st["defense"])}
            )
            for kind, cover in (
                ("melee", "none"),
                ("melee", "shelter"),
                ("ranged", "none"),
                ("ranged", "shelter"),
            )
        }
        col = table[:, h]
        col[F_ATT] = alive * int(st["att"])
        col[F_ROF] = alive * int(st["rof"]) if card.weapon is not None else 0
        col[F_HIT_MELEE] = hits["melee"]
        col[F_HIT_CB] = hits["counterblow"]
        col[F_HIT_RANGED] = hits["ranged"]
        col[F_HIT_CS] = hits["countershot"]
        for (blk, bat), key in (
            ((F_BLK_MELEE, F_BAT_MELEE), ("melee", "none")),
            ((F_BLK_MELEE_SH, F_BAT_MELEE_SH), ("melee", "shelter")),
            ((F_BLK_RANGED, F_BAT_RANGED), ("ranged", "none")),
            ((F_BLK_RANGED_SH, F_BAT_RANGED_SH), ("ranged", "shelter")),
        ):
            col[blk] = blocks[key]["block_dice"]
            col[bat] = blocks[key]["block_at"]
        col[F_TEC] = int(st["tec"])
        col[F_MOV] = round(st["mov"] * DIST_UNIT)
        col[F_INI] = int(st["ini"])
        col[F_AP] = int(st["ap"])
        col[F_RP] = int(st["rp"])
    weapon_range = round(card.weapon.range * DIST_UNIT) if card.weapon is not None else 0
    return _Side(
        card=card,
        health=total,
        table=table,
        has_weapon=card.weapon is not None,
        range=weapon_range,
        damage_mod=-card.ability_total("damage_reduction"),
    )


@cache
def _damage(dice: int, hit_at: int, dodge: int, block_dice: int, block_at: int, mod: int):
    """Exact wounds of one attack ("Battle and Handling Hits"), from ``rolls.ATTACK``."""
    dist = rolls.ATTACK.exact(
        {
            "dice": dice,
            "hit_at": hit_at,
            "dodge": dodge,
            "block_dice": block_dice,
            "block_at": block_at,
            "damage_mod": mod,
        }
    )
    return dist.outcomes, dist.probs


def _transition(att: _Side, dfn: _Side, kind: int, dodge: bool) -> np.ndarray:
    """``M[h_att, h_def, h_def_after]``: the defender's health after one attack."""
    dice_f, hit_f, blk_f, bat_f = (int(v) for v in KINDS[kind])
    m = np.zeros((att.health + 1, dfn.health + 1, dfn.health + 1))
    for ha in range(att.health + 1):
        for hd in range(dfn.health + 1):
            if ha == 0 or hd == 0:
                m[ha, hd, hd] = 1.0
                continue
            outcomes, probs = _damage(
                int(att.table[dice_f, ha]),
                int(att.table[hit_f, ha]),
                int(dfn.table[F_TEC, hd]) if dodge else 0,
                int(dfn.table[blk_f, hd]),
                int(dfn.table[bat_f, hd]),
                dfn.damage_mod,
            )
            np.add.at(m[ha, hd], np.maximum(hd - outcomes, 0), probs)
    return m


def _expected_wounds(m: np.ndarray) -> np.ndarray:
    """``E[h_def - h_def_after]`` for every (h_att, h_def)."""
    hd = np.arange(m.shape[1])
    return hd[None, :] - m @ np.arange(m.shape[2])


# ------------------------------------------------------------------ the model
class _Duel:
    """Everything both engines share: compiled sides, transition tensors, decision tables."""

    def __init__(
        self,
        a: Card,
        b: Card,
        options: DuelOptions,
        order: str,
        reaction: str,
        shelter_threshold: float | None,
        countershot: bool,
    ) -> None:
        if order not in ORDERS:
            raise InputError(f"order must be one of {', '.join(ORDERS)}")
        if reaction not in REACTIONS:
            raise InputError(f"reaction must be one of {', '.join(REACTIONS)}")
        self.options = options
        self.fixed = order == "fixed"
        self.reaction = reaction
        self.shelter_threshold = shelter_threshold
        self.countershot = countershot
        self.sides = (_compile_side(a), _compile_side(b))
        self.space = DuelSpace(options.max_rounds, self.sides[0].health, self.sides[1].health)
        self.d0 = round(options.distance * DIST_UNIT) if options.start == "range" else 0
        self.rpd = 1 + max(int(s.table[F_RP].max()) for s in self.sides)
        self.m: dict[tuple[int, int, bool], np.ndarray] = {}
        for x in (0, 1):
            att, dfn = self.sides[x], self.sides[1 - x]
            for kind in range(len(KINDS)):
                self.m[x, kind, False] = _transition(att, dfn, kind, False)
            self.m[x, K_MELEE, True] = _transition(att, dfn, K_MELEE, True)
        # decision tables of side y reacting to side x: [h_x, h_y, rp] and [h_x, h_y, shots]
        self.react = [self._react_table(1 - y, y) for y in (0, 1)]
        self.shelter = [self._shelter_table(1 - y, y) for y in (0, 1)]

    # ------------------------------------------------------- decision rules
    def _react_table(self, x: int, y: int) -> np.ndarray:
        """Reaction of ``y`` to a close combat attack of ``x``: 0 none, 1 dodge, 2 counterblow."""
        e_none = _expected_wounds(self.m[x, K_MELEE, False])
        gain_dodge = e_none - _expected_wounds(self.m[x, K_MELEE, True])
        cb_wounds = _expected_wounds(self.m[y, K_CB, False])  # [h_y after, h_x]
        gain_cb = np.einsum("xyc,cx->xy", self.m[x, K_MELEE, False][:, :, 1:], cb_wounds[1:])
        tec = self.sides[y].table[F_TEC][None, :]
        table = np.zeros((*e_none.shape, self.rpd), dtype=np.int64)
        for rp in range(self.rpd):
            choice = np.zeros(e_none.shape, dtype=np.int64)
            can_dodge = (rp >= 1) & (tec > 0)
            can_cb = rp >= 2
            if self.reaction == "dodge":
                choice[np.broadcast_to(can_dodge, choice.shape)] = 1
            elif self.reaction == "counterblow":
                choice[:] = 2 if can_cb else 0
            elif self.reaction in ("per-rp", "total"):
                cb_cost = 1.0 if self.reaction == "total" else 2.0  # dodge costs 1 RP
                score_d = np.where(can_dodge & (gain_dodge > _EPS), gain_dodge, -np.inf)
                score_c = np.where(can_cb & (gain_cb > _EPS), gain_cb / cb_cost, -np.inf)
                choice[np.isfinite(score_d) & (score_d >= score_c - _EPS)] = 1
                choice[np.isfinite(score_c) & (score_c > score_d + _EPS)] = 2
            table[:, :, rp] = choice
        return table

    def _shelter_table(self, x: int, y: int) -> np.ndarray:
        """1 where ``y`` seeks shelter against ``x`` with 1 or 2 shots left (index 1, 2)."""
        saved = _expected_wounds(self.m[x, K_RANGED, False]) - _expected_wounds(
            self.m[x, K_RANGED_SH, False]
        )
        table = np.zeros((*saved.shape, LIMIT + 1), dtype=np.int64)
        if self.shelter_threshold is not None:
            for n in range(1, LIMIT + 1):
                table[:, :, n] = saved * n >= self.shelter_threshold - _EPS
        return table

    # ------------------------------------------------------------- kernel
    def params(self, a_first: bool) -> np.ndarray:
        """The int64 vector of :func:`duel_trial`."""
        row = max(s.health for s in self.sides) + 1
        stats = np.zeros((2, N_FIELDS, row), dtype=np.int64)
        for s, side in enumerate(self.sides):
            stats[s, :, : side.health + 1] = side.table
        blocks = [stats.ravel()]
        blocks += [t.ravel() for t in (*self.react, *self.shelter)]
        header = np.zeros(HEADER, dtype=np.int64)
        s_w, s_r, s_a = self.space.strides()
        header[:P_STATS] = [
            self.options.max_rounds,
            int(a_first),
            int(self.fixed),
            self.sides[0].health,
            self.sides[1].health,
            s_w,
            s_r,
            s_a,
            self.d0,
            row,
            self.rpd,
        ]
        offset = HEADER
        for i, block in enumerate(blocks):
            header[P_STATS + i] = offset
            offset += block.size
        for s, side in enumerate(self.sides):
            header[P_SIDE + SIDE_WORDS * s : P_SIDE + SIDE_WORDS * (s + 1)] = [
                int(side.has_weapon),
                side.range,
                side.damage_mod,
                int(self.countershot),
            ]
        return np.concatenate([header, *blocks]).astype(np.int64)

    # -------------------------------------------------------------- exact
    def exact(self, a_first: bool) -> np.ndarray:
        """Exact probability of every outcome index (see the module docstring)."""
        out = np.zeros(self.space.size)
        start = np.zeros((self.sides[0].health + 1, self.sides[1].health + 1))
        start[-1, -1] = 1.0
        parts: dict[Any, np.ndarray] = {(self.d0, (0, 0)): start}
        tab = [side.table for side in self.sides]
        for rnd in range(1, self.options.max_rounds + 1):
            first_parts: list[dict[Any, np.ndarray]] = [{}, {}]
            for (d, sh), p in parts.items():
                for first, q in self._order(rnd, a_first, p, tab):
                    second = 1 - first
                    values = [
                        self._grid(first, tab[first][F_AP]),
                        self._grid(second, tab[second][F_RP]),
                        self._grid(second, tab[second][F_AP]),
                        self._grid(first, tab[first][F_RP]),
                    ]
                    for (ap_f, rp_s, ap_s, rp_f), part in _group(q, values):
                        _add(first_parts[first], (d, sh, ap_f, rp_s, (ap_s, rp_f)), part)
            new_parts: dict[Any, np.ndarray] = {}
            for first in (0, 1):
                if not first_parts[first]:
                    continue
                done = self._activation(first, first_parts[first], rnd, out)
                second_in: dict[Any, np.ndarray] = {}
                for (d, sh, (ap_s, rp_f)), p in done.items():
                    _add(second_in, (d, sh, ap_s, rp_f, None), p)
                for (d, sh, _), p in self._activation(1 - first, second_in, rnd, out).items():
                    _add(new_parts, (d, sh), p)
            parts = new_parts
        for p in parts.values():
            self._record(out, DRAW, self.options.max_rounds, p, np.ones(p.shape, dtype=bool))
        return out

    def _grid(self, side: int, values: np.ndarray) -> np.ndarray:
        """A per-health vector of ``side`` broadcast over the (h_A, h_B) grid."""
        shape = (self.sides[0].health + 1, self.sides[1].health + 1)
        return np.broadcast_to(values[:, None] if side == 0 else values[None, :], shape)

    def _order(self, rnd: int, a_first: bool, p: np.ndarray, tab: list[np.ndarray]):
        """Split ``p`` by the side activating first ("Determine order of activation")."""
        if rnd == 1 or self.fixed:
            return [(0 if a_first else 1, p)]
        ini_a = self._grid(0, tab[0][F_INI])
        ini_b = self._grid(1, tab[1][F_INI])
        tie = np.where(ini_a == ini_b, 0.5, 0.0)
        return [
            (0, p * (np.where(ini_a > ini_b, 1.0, 0.0) + tie)),
            (1, p * (np.where(ini_b > ini_a, 1.0, 0.0) + tie)),
        ]

    def _record(self, out: np.ndarray, winner: int, rnd: int, p: np.ndarray, mask) -> None:
        ha, hb = np.nonzero(mask & (p > 0))
        idx = [self.space.index(winner, rnd, int(i), int(j)) for i, j in zip(ha, hb)]
        np.add.at(out, idx, p[ha, hb])

    def _absorb(self, p: np.ndarray, rnd: int, out: np.ndarray) -> np.ndarray:
        """Move finished duels (a side at 0 health) to ``out``; return the rest."""
        if p[:, 0].any():
            self._record(out, WIN_A, rnd, p, _edge(p.shape, 1))
            p[:, 0] = 0.0
        if p[0, :].any():
            self._record(out, WIN_B, rnd, p, _edge(p.shape, 0))
            p[0, :] = 0.0
        return p

    def _strike(self, p: np.ndarray, s: int, kind: int, dodge: bool = False) -> np.ndarray:
        """Distribution after side ``s`` attacks the other side."""
        m = self.m[s, kind, dodge]
        if s == 0:
            return np.einsum("ab,abc->ac", p, m)
        return np.einsum("ab,bac->cb", p, m)

    def _table(self, tables: list[np.ndarray], y: int, k: int) -> np.ndarray:
        """Decision table of reactor ``y`` at last index ``k``, as an (h_A, h_B) grid."""
        t = tables[y][:, :, k]
        return t.T if y == 0 else t

    def _activation(
        self, x: int, parts: Mapping[Any, np.ndarray], rnd: int, out: np.ndarray
    ) -> dict[Any, np.ndarray]:
        """One activation of side ``x``; input keys (d, sh, ap, rp_y, carry)."""
        y = 1 - x
        me, other = self.sides[x], self.sides[y]
        done: dict[Any, np.ndarray] = {}
        work: dict[Any, np.ndarray] = {}
        for (d, sh, ap, rp, carry), p in parts.items():
            if sh[x]:  # "Action: Get Up" before anything else
                if ap == 0:
                    _add(done, (d, sh, carry), p)
                    continue
                sh, ap = _set(sh, x, 0), ap - 1
            _add(work, (d, sh, ap, rp, 0, 0, 0, carry), p)
        while work:
            nxt: dict[Any, np.ndarray] = {}
            for (d, sh, ap, rp, cc, ns, mv, carry), p in work.items():
                if ap == 0 or not p.any():
                    _add(done, (d, sh, carry), p)
                    continue
                if d == 0:  # "Action: Close Combat Attack"
                    if cc >= LIMIT:
                        _add(done, (d, sh, carry), p)
                        continue
                    if sh[y]:  # no reactions with a Shelter Marker
                        q = self._absorb(self._strike(p, x, K_MELEE_SH), rnd, out)
                        _add(nxt, (d, sh, ap - 1, rp, cc + 1, ns, mv, carry), q)
                        continue
                    choice = self._table(self.react, y, rp)
                    for r in (0, 1, 2):
                        q = p * (choice == r)
                        if not q.any():
                            continue
                        q = self._absorb(self._strike(q, x, K_MELEE, r == 1), rnd, out)
                        if r == 2:  # "Reaction: Counterblow", only if the defender survived
                            q = self._absorb(self._strike(q, y, K_CB), rnd, out)
                        _add(nxt, (d, sh, ap - 1, rp - r, cc + 1, ns, mv, carry), q)
                elif me.has_weapon and d <= me.range:  # "Action: Ranged Attack"
                    if ns >= LIMIT:
                        _add(done, (d, sh, carry), p)
                        continue
                    shots = min(ap, LIMIT - ns)
                    if not sh[y] and rp >= 1:
                        take = self._table(self.shelter, y, shots) == 1
                        q = self._absorb(self._strike(p * take, x, K_RANGED_SH), rnd, out)
                        _add(nxt, (d, _set(sh, y, 1), ap - 1, rp - 1, cc, ns + 1, mv, carry), q)
                        q = self._absorb(self._strike(p * ~take, x, K_RANGED), rnd, out)
                        _add(nxt, (d, sh, ap - 1, rp, cc, ns + 1, mv, carry), q)
                    else:
                        kind = K_RANGED_SH if sh[y] else K_RANGED
                        q = self._absorb(self._strike(p, x, kind), rnd, out)
                        _add(nxt, (d, sh, ap - 1, rp, cc, ns + 1, mv, carry), q)
                else:  # "Action: Movement Action"
                    if mv >= LIMIT:
                        _add(done, (d, sh, carry), p)
                        continue
                    movs = self._grid(x, me.table[F_MOV])
                    for (mov,), q in _group(p, [movs]):
                        step = min(mov, d - me.range) if me.has_weapon else mov
                        rp_after, d_after = rp, d - step
                        if step >= d:  # moving into close combat
                            d_after = 0
                            if (
                                self.countershot
                                and other.has_weapon
                                and not sh[y]
                                and rp >= 2
                                and d <= other.range
                            ):  # "Reaction: Countershot"
                                q = self._absorb(self._strike(q, y, K_CS), rnd, out)
                                rp_after = rp - 2
                        _add(nxt, (d_after, sh, ap - 1, rp_after, cc, ns, mv + 1, carry), q)
            work = nxt
        return done

    def activation_only(self) -> tuple[np.ndarray, np.ndarray]:
        """One activation of A in contact with fresh units: (out, alive parts summed)."""
        out = np.zeros(self.space.size)
        start = np.zeros((self.sides[0].health + 1, self.sides[1].health + 1))
        start[-1, -1] = 1.0
        a, b = self.sides
        key = (0, (0, 0), int(a.table[F_AP, -1]), int(b.table[F_RP, -1]), None)
        done = self._activation(0, {key: start}, 1, out)
        alive = sum(done.values(), np.zeros_like(start))
        return out, alive


def _edge(shape: tuple[int, ...], axis: int) -> np.ndarray:
    mask = np.zeros(shape, dtype=bool)
    if axis == 0:
        mask[0, 1:] = True
    else:
        mask[1:, 0] = True
    return mask


def _set(sh: tuple[int, int], side: int, value: int) -> tuple[int, int]:
    return (value, sh[1]) if side == 0 else (sh[0], value)


def _add(parts: dict[Any, np.ndarray], key: Any, p: np.ndarray) -> None:
    if key in parts:
        parts[key] = parts[key] + p
    else:
        parts[key] = p


def _group(p: np.ndarray, values: list[np.ndarray]):
    """Split ``p`` by the joint value of per-cell integer arrays; yields (values, part)."""
    live = p > 0
    if not live.any():
        return
    stacked = np.stack([np.asarray(v)[live] for v in values], axis=1)
    combos = np.unique(stacked, axis=0)
    if len(combos) == 1:
        yield tuple(int(v) for v in combos[0]), p
        return
    for combo in combos:
        mask = np.ones(p.shape, dtype=bool)
        for v, c in zip(values, combo):
            mask &= np.asarray(v) == c
        yield tuple(int(v) for v in combo), p * mask


# ------------------------------------------------------------------ kernel
@njit(cache=True)
def _stat(p, s, field, h):  # pragma: no cover - numba
    return p[p[P_STATS] + (s * N_FIELDS + field) * p[P_ROW] + h]


@njit(cache=True)
def _strike_nb(state, p, buf, s, kind, h, dodge):  # pragma: no cover - numba
    """Side ``s`` attacks the other side with ``rolls.attack_trial``; returns its new health."""
    t = 1 - s
    buf[0] = _stat(p, s, KINDS[kind, 0], h[s])
    buf[1] = _stat(p, s, KINDS[kind, 1], h[s])
    buf[2] = dodge
    buf[3] = _stat(p, t, KINDS[kind, 2], h[t])
    buf[4] = _stat(p, t, KINDS[kind, 3], h[t])
    buf[5] = p[P_SIDE + SIDE_WORDS * t + 2]
    h[t] = max(h[t] - rolls.attack_trial(state, buf), 0)
    return h[t]


@njit(cache=True)
def _activation_nb(state, p, buf, x, h, sh, rp, ap, d):  # pragma: no cover - numba
    """One activation of side ``x`` (policy of the module docstring); returns the distance."""
    y = 1 - x
    has_weapon = p[P_SIDE + SIDE_WORDS * x]
    reach = p[P_SIDE + SIDE_WORDS * x + 1]
    if sh[x] == 1:
        if ap == 0:
            return d
        sh[x] = 0
        ap -= 1
    cc = 0
    ns = 0
    mv = 0
    hy1 = p[P_HA + y] + 1
    while ap > 0:
        if d == 0:
            if cc >= LIMIT:
                break
            ap -= 1
            cc += 1
            if sh[y] == 1:
                if _strike_nb(state, p, buf, x, K_MELEE_SH, h, 0) == 0:
                    return d
                continue
            r = p[p[P_REACT + y] + (h[x] * hy1 + h[y]) * p[P_RPD] + rp[y]]
            rp[y] -= r
            dodge = _stat(p, y, F_TEC, h[y]) if r == 1 else 0
            if _strike_nb(state, p, buf, x, K_MELEE, h, dodge) == 0:
                return d
            if r == 2 and _strike_nb(state, p, buf, y, K_CB, h, 0) == 0:
                return d
        elif has_weapon == 1 and d <= reach:
            if ns >= LIMIT:
                break
            shots = min(ap, LIMIT - ns)
            ap -= 1
            ns += 1
            seek = p[p[P_SHELTER + y] + (h[x] * hy1 + h[y]) * (LIMIT + 1) + shots]
            if sh[y] == 0 and rp[y] >= 1 and seek == 1:
                rp[y] -= 1
                sh[y] = 1
            kind = K_RANGED_SH if sh[y] == 1 else K_RANGED
            if _strike_nb(state, p, buf, x, kind, h, 0) == 0:
                return d
        else:
            if mv >= LIMIT:
                break
            ap -= 1
            mv += 1
            step = _stat(p, x, F_MOV, h[x])
            if has_weapon == 1:
                step = min(step, d - reach)
            if step >= d:
                other = P_SIDE + SIDE_WORDS * y
                allowed = p[other + 3] == 1 and p[other] == 1 and d <= p[other + 1]
                if allowed and sh[y] == 0 and rp[y] >= 2:
                    rp[y] -= 2
                    if _strike_nb(state, p, buf, y, K_CS, h, 0) == 0:
                        return d
                d = 0
            else:
                d -= step
    return d


@trial_kernel
def duel_trial(state, p):  # pragma: no cover - numba
    """One duel, die by die; returns the index of (winner, rounds, health A, health B)."""
    buf = np.zeros(6, dtype=np.int64)
    h = np.zeros(2, dtype=np.int64)
    h[0] = p[P_HA]
    h[1] = p[P_HB]
    sh = np.zeros(2, dtype=np.int64)
    rp = np.zeros(2, dtype=np.int64)
    ap = np.zeros(2, dtype=np.int64)
    d = p[P_D0]
    rounds = p[P_ROUNDS]
    for rnd in range(1, rounds + 1):
        for s in range(2):
            ap[s] = _stat(p, s, F_AP, h[s])
            rp[s] = _stat(p, s, F_RP, h[s])
        if rnd == 1 or p[P_FIXED] == 1:
            first = 0 if p[P_A_FIRST] == 1 else 1
        else:
            ini_a = _stat(p, 0, F_INI, h[0])
            ini_b = _stat(p, 1, F_INI, h[1])
            if ini_a != ini_b:
                first = 0 if ini_a > ini_b else 1
            else:
                roll_a = roll_die(state, 6)
                roll_b = roll_die(state, 6)
                while roll_a == roll_b:
                    roll_a = roll_die(state, 6)
                    roll_b = roll_die(state, 6)
                first = 0 if roll_a > roll_b else 1
        for k in range(2):
            x = first if k == 0 else 1 - first
            d = _activation_nb(state, p, buf, x, h, sh, rp, ap[x], d)
            if h[0] == 0 or h[1] == 0:
                winner = WIN_A if h[1] == 0 else WIN_B
                return winner * p[P_SW] + (rnd - 1) * p[P_SR] + h[0] * p[P_SA] + h[1]
    return DRAW * p[P_SW] + (rounds - 1) * p[P_SR] + h[0] * p[P_SA] + h[1]


# ------------------------------------------------------------------ public API
NOTES = [
    "1-D distance on open ground: no terrain or cover except Shelter Markers",
    "morale, escape and retreat are not modelled",
    "squads: health is the sum of model HP, wounds overflow to the next model, "
    "all living models attack as one pooled roll and all counterblow",
    "round 1: --first activates first (both sides under 100 points decide by roll-off); "
    "later rounds: higher INI first, ties by a d6 roll-off",
]


def duel_model(
    a: Card,
    b: Card,
    options: DuelOptions,
    *,
    order: str = "rules",
    reaction: str = "per-rp",
    shelter_threshold: float | None = 1.0,
    countershot: bool = True,
) -> DuelModel:
    """Duel of card ``a`` against card ``b`` (see the module docstring for the rules used)."""
    duel = _Duel(a, b, options, order, reaction, shelter_threshold, countershot)
    notes = [*NOTES, f"reaction rule {reaction!r}, shelter threshold {shelter_threshold}"]
    notes += _ignored([a, b] if a.name != b.name else [a])
    return DuelModel(
        space=duel.space, trial=duel_trial, params=duel.params, exact=duel.exact, notes=notes
    )


def activation_summary(
    attacker: Card, defender: Card, *, reaction: str = "per-rp"
) -> ActivationSummary:
    """Exact effect of one activation of ``attacker`` in contact with a fresh ``defender``.

    In contact the only attack is the close combat attack ("Battle and Handling
    Hits": no ranged attacks in close combat): up to two of them (round limit,
    AP permitting), with the defender's reactions chosen by ``reaction``; a
    counterblow that removes the attacker ends the activation.
    """
    duel = _Duel(
        attacker, defender, DuelOptions(start="melee", max_rounds=1), "rules", reaction, 1.0, True
    )
    out, alive = duel.activation_only()
    _, _, _, hb = duel.space.decode()
    target = duel.sides[1].health
    dist = np.bincount(hb, weights=out, minlength=target + 1) + alive.sum(axis=0)
    expected = target - float(np.arange(target + 1) @ dist)
    return ActivationSummary(
        expected_wounds=expected, kill_probability=float(dist[0]), target_health=target
    )


__all__ = ["REACTIONS", "activation_summary", "duel_model", "duel_trial"]
