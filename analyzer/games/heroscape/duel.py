"""Heroscape duels: one Army Card against another, Master Game rules, exact and Monte Carlo.

Rulebook: ``heroscape.txt``.  The sequence ("The Battle Begins!"):

* A round is 3 Player Turns for each player, alternating ("3. Take Player Turns").  With
  one Army Card per side, all 3 numbered Order Markers go on that card ("1. Place Order
  Markers"), so each side activates its card 3 times per round.  The side that has the
  Initiative ("2. Roll For Initiative") takes the first Player Turn of every round;
  the duel fixes it with ``--first a|b`` (``alternate`` plays half the duels each way).
* A turn: "Move Figures", then "Attack with Figures".  Distance is 1-D, counted in
  spaces; adjacent figures are 1 space apart (``--start melee``), ``--start range
  --distance D`` starts them ``ceil(D)`` spaces apart (at least 1).  A card whose
  Range reaches the enemy does not move; otherwise it moves up to its Move Value toward
  the enemy, stopping as soon as the enemy is within its Range (adjacent at the
  closest: figures cannot share a space).  A card with a power that works only
  against adjacent figures (Bloodcursed Blade, Gulløx Wing Render, Nanotoxin
  Coating) always moves toward adjacency, attacking from Range on the way.  Nobody
  retreats, so leaving-engagement attacks never happen; a ranged card that is engaged
  attacks the figure it is engaged with ("Engagement").  A Range 1 card attacks only
  adjacent figures ("Range").
* Attack ("Resolving a Master Game Attack"): every figure on the card attacks
  separately (a Squad attacks with each living figure, at most the number on the card:
  "Attack with Figures"); attack dice = Attack Value, defense dice = Defense Value;
  each skull not blocked by a shield is 1 wound.  Height advantage is not used.
* "Destroying Figures": a figure with Wound Markers equal to its Life Value is
  destroyed.  Wounds beyond the targeted figure's remaining Life are lost (they do
  not carry over to another figure of a Squad).  Target choice: every attack targets
  the most wounded enemy figure (focus fire), so at most one figure of a Squad is
  wounded and a card's state is its total remaining Life.
* "Check Victory Conditions" at the end of every Player Turn: a side whose last figure
  is destroyed loses; after ``max_rounds`` rounds the duel is a draw.

Special powers (:data:`analyzer.games.heroscape.units.POWER_CATALOGUE`) and the
deterministic choices made for them:

* Obfuscation Matrix: the figure counts as being on a shadow space, +1 Defense Value
  ("Shadow"; Small, Medium or Large figures only).
* Defend the Deep, Flying, Stealth Flying: no effect (no terrain, water spaces or
  height advantage in a 1-D duel; nobody leaves an engagement).
* Double Attack: each figure makes one additional normal attack after attacking.
* Nanite Shielding: once per round, used before the first defense roll of the round
  against an attack roll that shows at least 1 skull (the defender sees the attack
  dice before rolling defense dice; a 0-skull roll cannot wound anyway).
* Nanotoxin Coating: once per round, used the first time a normal attack against an
  adjacent figure inflicts 1 or more wounds and the extra wound is not wasted (the
  target figure survives the attack's own wounds).
* Bloodcursed Blade: +1 skull on a normal attack against an adjacent figure; at the
  end of the Hero's turn it takes 1 wound if no figure took a wound during that turn
  (including turns it could not attack).
* Gulløx Wing Render: against an adjacent figure, re-roll 1 attack die that did not
  show a skull (always used when a die missed).
* Giant Hunter Stone: +1 Attack and Defense Value against Large or Huge figures.
  Glyph powers are assumed to be power-side up (usable) at the start of the duel.

The exact engine is a Markov chain over (distance, once-per-round flags of both
sides, remaining Life of A, remaining Life of B) stepped attack by attack with the
exact wound distributions of :data:`analyzer.games.heroscape.rolls.ATTACK`; the
Monte Carlo kernel plays the same sequence die by die with the same helpers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from analyzer.dice.mechanic import Params
from analyzer.dice.simulate import trial_kernel
from analyzer.duels import DRAW, WIN_A, WIN_B, ActivationSummary, DuelModel, DuelOptions, DuelSpace
from analyzer.errors import InputError
from analyzer.games.heroscape import rolls, rules
from analyzer.games.heroscape import units as u
from analyzer.games.heroscape.rolls import attack_trial, count_between
from analyzer.games.heroscape.units import Card, health

ATTACK = rolls.MECHANICS["attack"]
#: "3. Take Player Turns": each player takes 3 Player Turns per round.
TURNS_PER_PLAYER = 3
#: "Range": adjacent figures are 1 space apart; a Range 1 figure attacks only them.
ADJACENT = 1
LARGE_OR_HUGE = ("large", "huge")
#: "Shadow": only Small, Medium or Large figures add 1 to their Defense Value.
SHADOW_SIZES = ("small", "medium", "large")
#: Powers that work only in a normal attack against an adjacent figure.
ADJACENT_POWERS = (u.BLOODCURSED_BLADE, u.GULLOX_WING_RENDER, u.NANOTOXIN_COATING)

# Flag bits of a side within a round (reset at the end of every round: Tech Glyphs
# "At the end of the round, flip this Glyph power-side up").
SHIELD_USED = 1
TOXIN_USED = 2

# Kernel parameter layout.
HEADER = 6  # max_rounds, stride winner, stride rounds, stride health_a, first side, distance
ROLL = 10  # rolls.attack_trial encoding of the attack dice alone (9 ints) + defense dice
SIDE = 10 + 2 * ROLL
(
    S_LIFE,
    S_FIGURES,
    S_MOVE,
    S_RANGE,
    S_ATTACKS,
    S_HEALTH,
    S_SHIELD,
    S_TOXIN,
    S_BLADE,
    S_STOP,
    S_ROLL_FAR,
) = range(11)
S_ROLL_ADJ = S_ROLL_FAR + ROLL


# --------------------------------------------------------------------- sides
@dataclass(frozen=True)
class Side:
    """What the duel needs to know of a card (as attacker) facing a given opponent."""

    card: Card
    health: int
    life: int
    figures: int
    move: int
    range: int
    attacks_per_figure: int
    shield: bool  # Nanite Shielding (used when this side defends)
    toxin: bool  # Nanotoxin Coating
    blade: bool  # Bloodcursed Blade
    stop: int  # the distance it moves to: its Range, or 1 to reach adjacency

    @classmethod
    def of(cls, card: Card) -> Side:
        return cls(
            card=card,
            health=health(card),
            life=card.life,
            figures=card.figures,
            move=card.move,
            range=card.range,
            attacks_per_figure=2 if card.has(u.DOUBLE_ATTACK) else 1,
            shield=card.has(u.NANITE_SHIELDING),
            toxin=card.has(u.NANOTOXIN_COATING),
            blade=card.has(u.BLOODCURSED_BLADE),
            stop=ADJACENT if any(card.has(p) for p in ADJACENT_POWERS) else card.range,
        )

    def attackers(self, remaining: np.ndarray | int) -> Any:
        """Attacks per turn with ``remaining`` Life: living figures (at most the card's
        figures, "Attack with Figures") times the attacks each figure makes."""
        alive = (np.asarray(remaining) + self.life - 1) // self.life
        return np.minimum(alive, self.figures) * self.attacks_per_figure

    def step(self, distance: int) -> int:
        """Distance after this side's move: up to its Move Value toward :attr:`stop`."""
        if distance <= self.stop:
            return distance
        return max(distance - self.move, self.stop)


def attack_params(attacker: Card, defender: Card, adjacent: bool, auto_shields: int = 0) -> Params:
    """Prepared :data:`ATTACK` parameters of one normal attack of ``attacker``.

    Giant Hunter Stone adds 1 to the Attack/Defense Value against Large or Huge
    figures; Obfuscation Matrix is the "shadow" terrain of the defender; Bloodcursed
    Blade (+1 skull) and Gulløx Wing Render (re-roll) need an adjacent target.
    """
    attack = attacker.attack + int(
        attacker.has(u.GIANT_HUNTER_STONE) and defender.size in LARGE_OR_HUGE
    )
    defense = defender.defense + int(
        defender.has(u.GIANT_HUNTER_STONE) and attacker.size in LARGE_OR_HUGE
    )
    shadow = defender.has(u.OBFUSCATION_MATRIX) and defender.size in SHADOW_SIZES
    return ATTACK.prepare(
        {
            "attack": attack,
            "defense": defense,
            "terrain": "shadow" if shadow else "none",
            "auto_shields": auto_shields,
            "auto_skulls": rules.BLOODCURSED_BLADE_SKULLS
            if adjacent and attacker.has(u.BLOODCURSED_BLADE)
            else 0,
            "reroll_one": adjacent and attacker.has(u.GULLOX_WING_RENDER),
        }
    )


def _skulls_params(attacker: Card, defender: Card, adjacent: bool) -> Params:
    """The same attack with no defense dice: its outcome is the number of skulls."""
    p = dict(attack_params(attacker, defender, adjacent))
    return ATTACK.prepare(
        {
            "attack": p["attack"],
            "defense": 0,
            "auto_skulls": p["auto_skulls"],
            "reroll_one": p["reroll_one"],
        }
    )


def _roll_block(attacker: Card, defender: Card, adjacent: bool) -> np.ndarray:
    """Kernel encoding: rolls.attack_trial params of the skull roll, then defense dice."""
    skulls = ATTACK.encode(_skulls_params(attacker, defender, adjacent))
    full = attack_params(attacker, defender, adjacent)
    return np.concatenate([skulls, [full["defense_dice"]]]).astype(np.int64)


def attack_outcomes(
    attacker: Card, defender: Card, adjacent: bool, shield_available: bool
) -> list[tuple[bool, int, float]]:
    """Exact outcomes (shield used, wounds before Nanotoxin, probability) of one attack.

    With Nanite Shielding available the defender uses it when the attack dice show at
    least 1 skull: P(not used) = P(0 skulls), which always means 0 wounds.
    """
    plain = ATTACK.exact(attack_params(attacker, defender, adjacent))
    if not shield_available:
        return [(False, int(w), float(q)) for w, q in zip(plain.outcomes, plain.probs) if q > 0]
    shielded = ATTACK.exact(
        attack_params(attacker, defender, adjacent, rules.NANITE_SHIELDING_SHIELDS)
    )
    skulls = ATTACK.exact(_skulls_params(attacker, defender, adjacent))
    p_none = float(skulls.probs[0]) if skulls.lowest == 0 else 0.0
    out = [(False, 0, p_none)] if p_none > 0 else []
    for w, q in zip(shielded.outcomes, shielded.probs):
        q = float(q) - (p_none if w == 0 else 0.0)
        if q > 1e-300:
            out.append((True, int(w), q))
    return out


# -------------------------------------------------------------- Monte Carlo
@njit(cache=True)
def _attack_roll(state, p, off, shield_available):  # pragma: no cover - numba
    """One attack: skulls via rolls.attack_trial (no defense dice), then defense dice.

    Returns (wounds, shield used).  Nanite Shielding is used on a roll with a skull.
    """
    skulls = attack_trial(state, p[off : off + 9])
    shields = count_between(state, p[off + 9], p[off], p[off + 1] + 1, p[off + 1] + p[off + 2])
    used = 0
    if shield_available and skulls > 0:
        used = 1
        shields += 1
    return max(skulls - shields, 0), used


@trial_kernel
def duel_trial(state, p):  # pragma: no cover - numba
    """One duel; returns the DuelSpace index (strides in p[1:4])."""
    max_rounds = p[0]
    dist = p[5]
    hp = np.empty(2, dtype=np.int64)
    hp[0] = p[HEADER + S_HEALTH]
    hp[1] = p[HEADER + SIDE + S_HEALTH]
    flags = np.zeros(2, dtype=np.int64)
    for rnd in range(1, max_rounds + 1):
        flags[0] = 0
        flags[1] = 0
        for t in range(2 * TURNS_PER_PLAYER):
            x = p[4] if t % 2 == 0 else 1 - p[4]
            y = 1 - x
            bx = HEADER + x * SIDE
            by = HEADER + y * SIDE
            reach = p[bx + S_RANGE]
            stop = p[bx + S_STOP]
            if dist > stop:
                dist = max(dist - p[bx + S_MOVE], stop)
            wounded = False
            if dist <= reach:
                life_x = p[bx + S_LIFE]
                n = min((hp[x] + life_x - 1) // life_x, p[bx + S_FIGURES]) * p[bx + S_ATTACKS]
                off = bx + (S_ROLL_ADJ if dist == ADJACENT else S_ROLL_FAR)
                life_y = p[by + S_LIFE]
                for _ in range(n):
                    avail = p[by + S_SHIELD] != 0 and (flags[y] & SHIELD_USED) == 0
                    w, used = _attack_roll(state, p, off, avail)
                    if used:
                        flags[y] |= SHIELD_USED
                    left = (hp[y] - 1) % life_y + 1
                    if (
                        w > 0
                        and w < left
                        and dist == ADJACENT
                        and p[bx + S_TOXIN] != 0
                        and (flags[x] & TOXIN_USED) == 0
                    ):
                        w += 1
                        flags[x] |= TOXIN_USED
                    w = min(w, left)
                    if w > 0:
                        wounded = True
                        hp[y] -= w
                    if hp[y] == 0:
                        break
            if p[bx + S_BLADE] != 0 and not wounded:
                hp[x] -= 1
            if hp[y] == 0 or hp[x] == 0:
                winner = 1 + x if hp[y] == 0 else 1 + y
                return winner * p[1] + (rnd - 1) * p[2] + hp[0] * p[3] + hp[1]
    return (max_rounds - 1) * p[2] + hp[0] * p[3] + hp[1]


# ------------------------------------------------------------------- exact
class _Role:
    """One side as the active card: its transition matrices against the other side."""

    def __init__(self, me: Side, other: Side, distances: list[int]) -> None:
        self.me = me
        self.other = other
        self.fx = 4 if (me.shield or me.toxin) else 1
        self.fy = 4 if (other.shield or other.toxin) else 1
        self.move_to = np.array([distances.index(me.step(d)) for d in distances])
        self.in_range = [i for i, d in enumerate(distances) if d <= me.range]
        self.adjacent = {i: distances[i] == ADJACENT for i in self.in_range}
        hy = other.health
        self.mats: dict[tuple[bool, int, int], list[tuple[int, int, np.ndarray]]] = {}
        for adj in sorted(set(self.adjacent.values())):
            cache: dict[bool, list[tuple[bool, int, float]]] = {}
            for fx in range(self.fx):
                for fy in range(self.fy):
                    shield = other.shield and not fy & SHIELD_USED
                    toxin = me.toxin and adj and not fx & TOXIN_USED
                    if shield not in cache:
                        cache[shield] = attack_outcomes(me.card, other.card, adj, shield)
                    mats: dict[tuple[int, int], np.ndarray] = {}
                    for used, w, q in cache[shield]:
                        fy2 = fy | SHIELD_USED if used else fy
                        for h in range(1, hy + 1):
                            left = (h - 1) % other.life + 1
                            extra = int(toxin and 0 < w < left)
                            fx2 = fx | TOXIN_USED if extra else fx
                            m = mats.setdefault((fx2, fy2), np.zeros((hy + 1, hy + 1)))
                            m[h, h - min(w + extra, left)] += q
                    self.mats[(adj, fx, fy)] = [(a, b, m) for (a, b), m in mats.items()]

    def turn(self, t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One Player Turn of this side on ``t`` (distance, my flags, their flags, my Life,
        their Life); returns the new tensor and the probability mass, by (my Life, their
        Life), of the states where I won and where I lost during the turn."""
        me = self.me
        hx, hy = t.shape[3], t.shape[4]
        moved = np.zeros_like(t)
        for i, j in enumerate(self.move_to):
            moved[j] += t[i]
        u_ = np.zeros((*t.shape[:3], 2, hx, hy))  # axis 3: a figure took a wound this turn
        u_[:, :, :, 0] = moved
        won = np.zeros((hx, hy))
        lost = np.zeros((hx, hy))
        attackers = me.attackers(np.arange(hx))
        for k in range(int(attackers.max(initial=0))):
            active = attackers > k
            active[0] = False
            if not active.any():
                break
            new = u_.copy()
            for i in self.in_range:
                new[i][..., active, :] = 0.0
            for i in self.in_range:
                adj = self.adjacent[i]
                for fx in range(self.fx):
                    for fy in range(self.fy):
                        src0 = u_[i, fx, fy, 0][active]
                        src1 = u_[i, fx, fy, 1][active]
                        if not (src0.any() or src1.any()):
                            continue
                        for fx2, fy2, m in self.mats[(adj, fx, fy)]:
                            dst = new[i, fx2, fy2]
                            if me.blade:
                                diag = np.diag(m)
                                dst[0][active] += src0 * diag
                                dst[1][active] += src0 @ (m - np.diag(diag)) + src1 @ m
                            else:
                                dst[0][active] += src0 @ m + src1 @ m
            u_ = new
            won[:, 0] += u_[..., 0].sum(axis=(0, 1, 2, 3))
            u_[..., 0] = 0.0
        if me.blade:  # "Bloodcursed Blade": 1 wound if no figure took a wound this turn
            out = u_[:, :, :, 1].copy()
            out[..., :-1, :] += u_[:, :, :, 0, 1:, :]
            lost[0, :] += out[..., 0, :].sum(axis=(0, 1, 2))
            out[..., 0, :] = 0.0
        else:
            out = u_[:, :, :, 0] + u_[:, :, :, 1]
        return out, won, lost


class _Chain:
    """The exact duel: a Markov chain stepped Player Turn by Player Turn."""

    def __init__(self, a: Card, b: Card, start: int) -> None:
        self.a, self.b = Side.of(a), Side.of(b)
        distances = {start}
        frontier = [start]
        while frontier:  # every distance the two move rules can reach
            d = frontier.pop()
            for side in (self.a, self.b):
                n = side.step(d)
                if n not in distances:
                    distances.add(n)
                    frontier.append(n)
        self.distances = sorted(distances)
        self.start = self.distances.index(start)
        self.role_a = _Role(self.a, self.b, self.distances)
        self.role_b = _Role(self.b, self.a, self.distances)

    def fresh(self) -> np.ndarray:
        t = np.zeros(
            (
                len(self.distances),
                self.role_a.fx,
                self.role_b.fx,
                self.a.health + 1,
                self.b.health + 1,
            )
        )
        t[self.start, 0, 0, self.a.health, self.b.health] = 1.0
        return t

    def turn(self, t: np.ndarray, a_active: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One Player Turn; returns (tensor, mass where A won, mass where B won)."""
        if a_active:
            return self.role_a.turn(t)
        t2, won, lost = self.role_b.turn(t.transpose(0, 2, 1, 4, 3))
        return np.ascontiguousarray(t2.transpose(0, 2, 1, 4, 3)), lost.T, won.T

    def run(self, max_rounds: int, a_first: bool) -> np.ndarray:
        """Probabilities over (winner, round - 1, Life of A, Life of B), C order."""
        out = np.zeros((3, max_rounds, self.a.health + 1, self.b.health + 1))
        t = self.fresh()
        for rnd in range(max_rounds):
            reset = t.sum(axis=(1, 2))  # end of the round: Tech Glyphs power-side up
            t = np.zeros_like(t)
            t[:, 0, 0] = reset
            for k in range(2 * TURNS_PER_PLAYER):
                t, won_a, won_b = self.turn(t, a_first == (k % 2 == 0))
                out[WIN_A, rnd] += won_a
                out[WIN_B, rnd] += won_b
        out[DRAW, max_rounds - 1] += t.sum(axis=(0, 1, 2))
        return out


# ------------------------------------------------------------------ public
def start_distance(options: DuelOptions) -> int:
    """Spaces between the cards at the start: 1 (adjacent) for melee, else ceil(distance),
    at most :data:`analyzer.games.heroscape.units.MAX_SPACES`."""
    if options.start == "melee":
        return ADJACENT
    if options.distance > u.MAX_SPACES:
        raise InputError(
            f"--start range R: a Heroscape duel starts at most {u.MAX_SPACES} spaces "
            f"apart (got {options.distance:g})"
        )
    return max(ADJACENT, math.ceil(options.distance))


def _side_params(me: Card, other: Card) -> list[int]:
    s = Side.of(me)
    head = [
        s.life,
        s.figures,
        s.move,
        s.range,
        s.attacks_per_figure,
        s.health,
        int(s.shield),
        int(s.toxin),
        int(s.blade),
        s.stop,
    ]
    far = _roll_block(me, other, adjacent=False)
    adj = _roll_block(me, other, adjacent=True)
    return head + [int(v) for v in far] + [int(v) for v in adj]


def _notes(a: Card, b: Card, options: DuelOptions) -> list[str]:
    notes = [
        "3 Player Turns per player per round, alternating; the side with the Initiative "
        "(--first) takes the first turn of every round",
        "each figure attacks separately; attacks focus on the most wounded enemy figure; "
        "height advantage not used",
    ]
    if options.start == "range":
        notes.append(
            f"start {start_distance(options)} spaces apart; a card out of Range moves up to "
            "its Move Value until the enemy is in Range (cards with adjacent-only powers "
            "move to adjacency); nobody retreats"
        )
    for card in (a, b):
        for power in card.special_powers:
            if power.narrative:
                notes.append(f"{card.name}: {power.name} is narrative (no effect in the duel)")
            elif power.name in u.DUEL_INERT_POWERS:
                notes.append(
                    f"{card.name}: {power.name} has no effect in the duel (no terrain, "
                    "water or height advantage)"
                )
            elif power.name == u.OBFUSCATION_MATRIX and card.size not in SHADOW_SIZES:
                notes.append(f"{card.name}: Obfuscation Matrix gives Huge figures no shadow bonus")
    return notes


def duel_model(a: Card, b: Card, options: DuelOptions) -> DuelModel:
    """Exact Markov chain and Monte Carlo kernel of ``a`` against ``b``."""
    space = DuelSpace(options.max_rounds, health(a), health(b))
    start = start_distance(options)
    chain = _Chain(a, b, start)
    sides = _side_params(a, b) + _side_params(b, a)
    strides = space.strides()

    def params(a_first: bool) -> np.ndarray:
        head = [options.max_rounds, *strides, 0 if a_first else 1, start]
        return np.array(head + sides, dtype=np.int64)

    def exact(a_first: bool) -> np.ndarray:
        return chain.run(options.max_rounds, a_first).reshape(-1)

    return DuelModel(
        space=space, trial=duel_trial, params=params, exact=exact, notes=_notes(a, b, options)
    )


def activation_summary(attacker: Card, defender: Card) -> ActivationSummary:
    """Exact effect of one Player Turn of ``attacker`` on a fresh adjacent ``defender``.

    All the attacker's figures attack (its best attack is its normal attack: the
    engine knows no special attacks), with the same choices as in the duel.
    """
    chain = _Chain(attacker, defender, ADJACENT)
    t, won, _ = chain.turn(chain.fresh(), a_active=True)
    full = health(defender)
    left = t.sum(axis=(0, 1, 2, 3))  # by defender Life
    killed = float(won.sum())
    expected_left = float(left @ np.arange(full + 1))
    # won holds the mass with the defender at 0 Life; the attacker cannot lose its own turn
    # except to Bloodcursed Blade, which needs a turn without wounds (defender untouched).
    lost_mass = 1.0 - killed - float(left.sum())
    expected_left += lost_mass * full
    return ActivationSummary(
        expected_wounds=full - expected_left,
        kill_probability=killed,
        target_health=full,
    )
