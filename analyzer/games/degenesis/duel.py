"""Degenesis: Clan Wars duels: one card against another, exact Markov chain and Monte Carlo.

Rulebook: ``degenesis-clan-wars.txt``.  The sequence:

* Rounds ("Mission Gameplay: Rounds"): with a ROSTER of 1 OPERATIVE the HOSTILE
  hands out 3 EDGES per ROUND, so a ROUND is 3 TURNS.  Each TURN is an exchange:
  the side that acts first (``--first``) activates, then the other.  An
  OPERATIVE's activation is its TURN's ACTION PHASE, 2 ACTIONS ("Turns: Action
  Phase"); a LEGION's or CHAMPION's activation is 1 ACTION, the one EDGE the
  HOSTILE receives per TURN ("Turns: Reaction Phase": with 1 OPERATIVE the
  SCHEMING AREA stores 1 EDGE, so every EDGE is spent at once).  The rulebook's
  own order is OPERATIVE first (``--first`` naming the OPERATIVE); the other
  order stands for the HOSTILE spending a stored EDGE before the TURN.  Two
  OPERATIVES (or two HOSTILE units) follow the same pattern.
* Distance ("Movement"): 1-D, in TILES (BORDERS crossed); ``--start melee`` puts
  both on one TILE (DISTANCE 0), ``--start range`` at distance D puts them
  ``ceil(D)`` TILES apart.  A unit MOVES 2 plus SPEED +/-X, at least 1 ("Move", "Speed"), toward
  the other; nobody leaves the TILE of an ENEMY, so MOVE never triggers a
  SUCKER PUNCH and there is no terrain (no ELEVATION, HARD TERRAIN, LINE OF SIGHT).
* Attack ("Attack (Operative)", "Attack (Hostile)"): an OPERATIVE ROLLS its
  current side's POOL plus the HANDLING POOL of a WEAPON of that colour (or of a
  NEUTRAL one), or BARE HANDED in PRIMAL (RANGE 0, no HANDLING POOL); a LEGION or
  CHAMPION ROLLS its ATTACK POOL (a CHAMPION: that of its current STAGE).  The
  DIFFICULTY is the TARGET's DEFENSE (plus DEFENSE +/-X); a TARGET is WITHIN RANGE
  when the DISTANCE is at most the RANGE (plus RANGE +/-X).  A success WOUNDS;
  a BOTCH FLIPS the WEAPON used to its BOTCH face: unusable for the rest of the
  duel (its BOTCH TRAIT is not played) and its TRAITS lost ("Items").
* Wounds: an OPERATIVE FLIPS a POTENTIAL per WOUND, then DISCARDS FLESHWOUNDS
  (TRAUMA), DEAD with neither ("Potentials"); a LEGION dies at its first WOUND;
  a CHAMPION advances to its next STAGE per WOUND and dies WOUNDED on its last.
* SUCKER PUNCH ("Sucker Punch", "Dirty Fighting"): a RANGED ATTACK made on the
  TILE of an ENEMY grants that ENEMY an immediate FREE ATTACK, at most 1 per
  ROUND plus DIRTY FIGHTING +/-X.

Deterministic choices (the same integer rule in both engines, see :func:`decide`):

* Each ACTION: ATTACK with the available WEAPON (or BARE HANDS) WITHIN RANGE that
  has the highest chance to WOUND, minus, for a RANGED ATTACK that provokes a
  SUCKER PUNCH, the chance that the SUCKER PUNCH WOUNDS (ties: the first listed
  WEAPON, BARE HANDS last); else FLIP the DASHBOARD if the other side has an
  ATTACK WITHIN RANGE; else MOVE toward the ENEMY; else do nothing.
* An OPERATIVE starts ("Step 4: Field Setup": FOCUS or PRIMAL at will) on the
  side with an ATTACK WITHIN RANGE at the starting DISTANCE, if only one side has
  one, else on the side whose best ATTACK has the highest chance to WOUND the
  opponent's higher starting DEFENSE (ties: the higher DEFENSE, then FOCUS).
* WOUNDS FLIP POTENTIALS from the last listed to the first (list the POTENTIAL
  an OPERATIVE would keep longest first); a FLIPPED POTENTIAL's ABILITIES are lost.
* A SUCKER PUNCH uses the punching unit's available ATTACK WITHIN RANGE 0 with
  the highest chance to WOUND and provokes no SUCKER PUNCH itself.

Interpretations (named options of :func:`duel_model` where a reader may disagree):

* ``sucker_punch_first=True``: the SUCKER PUNCH ("immediate") is resolved before
  the RANGED ATTACK that provoked it; if it kills the attacker, the ATTACK is lost.
* ``ranged_hostiles_provoke=False``: a LEGION's or CHAMPION's ATTACK is never a
  RANGED ATTACK ("Keywords" defines RANGED ATTACKS by the WEAPON's KEYWORD, and
  the HOSTILE's units carry none); ``True`` counts it as RANGED when its RANGE is
  1 or more, so on the ENEMY's TILE it provokes a SUCKER PUNCH.
* ``turns_per_round=3``: TURNS per ROUND (3 EDGES for a 1-OPERATIVE ROSTER).
* Only PASSIVE TRAITS act, and of the "Abilities" only DEFENSE, SECURE, SUCCESS,
  SPEED, RANGE and DIRTY FIGHTING are simulated: DASHBOARD TRAITS of the current
  side, the shared TRAIT, face-up POTENTIALS and the LEGION / CHAMPION TRAITS
  apply to the unit and all its ATTACKS; an ITEM's TRAITS (and an ARMOR's
  DEFENSE) apply while it is operational and of the current side's colour or
  NEUTRAL, with its SECURE / SUCCESS / RANGE for ATTACKS made with that ITEM only.
  STUN WEAPONS (they do not WOUND) are never used; ACTIVE TRAITS, trait texts,
  AREA ATTACK, HIDDEN and the other ABILITIES, ARCANA, OVERCOMMITTING and
  "Playing It Safe" (always the full POOL) are not part of the duel.

The exact engine is a Markov chain over the state (DISTANCE, WOUNDS, side and
FLIPPED WEAPONS of each unit, SUCKER PUNCHES used this ROUND), stepped ACTION by
ACTION with the exact (SUCCESSES, BOTCH) distributions of
:func:`analyzer.games.degenesis.rolls.unbotched_successes`, then ROUND by ROUND
with a sparse transition matrix; the Monte Carlo kernel rolls the same ACTIONS
die by die with :func:`analyzer.games.degenesis.rolls._roll_once`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy import sparse

from analyzer.dice.simulate import trial_kernel
from analyzer.duels import DRAW, WIN_A, WIN_B, ActivationSummary, DuelModel, DuelOptions, DuelSpace
from analyzer.errors import InputError
from analyzer.games.degenesis import rolls, rules
from analyzer.games.degenesis.rolls import _encode_pool, _roll_once, unbotched_successes
from analyzer.games.degenesis.units import (
    AnyCard,
    Champion,
    Legion,
    Operative,
    Pool,
    Trait,
    _rating,
    health,
)

#: "Rounds": "1 OPERATIVE: 3 EDGES per OPERATIVE" -- TURNS per ROUND in a duel.
TURNS_PER_ROUND = 3
#: "Turns: Action Phase": an OPERATIVE "may take 2 ACTIONS".
OPERATIVE_ACTIONS = 2
#: "Turns: Reaction Phase": 1 EDGE per TURN, 1 ACTION per EDGE.
HOSTILE_ACTIONS = 1
#: "Move": "every unit MOVES 2"; "cannot be reduced to below 1".
DEFAULT_MOVE, MIN_MOVE = 2, 1
#: "Dirty Fighting": "By default, units may perform 1 SUCKER PUNCH per ROUND".
DEFAULT_SUCKER_PUNCHES = 1
#: Decisions compare chances as integers: probability * 2**40, rounded.
SCALE = float(1 << 40)
SIDES = ("focus", "primal")
#: ABILITIES the duel simulates.
SIMULATED = ("defense", "secure", "success", "speed", "range", "dirty_fighting")

# ACTION kinds returned by ``decide``.
PASS, ATTACK, FLIP, MOVE = 0, 1, 2, 3

# int64 params: header
_FIRST, _ROUNDS, _TURNS, _D0, _SW, _SR, _SA, _PUNCH_FIRST, _NDEF, _UNIT = range(10)
_HEADER = 12  # _UNIT, _UNIT + 1: offsets of the two unit blocks
# unit block
_HEALTH, _ACTIONS, _LEVELS, _NSIDES, _BITS, _K, _START, _STATS, _OPTS = range(9)
_UNIT_FIELDS = 9
# stats record per (level, side, flipped mask)
_DEF, _MOVE, _PUNCH = range(3)
_STAT_FIELDS = 3
# option record per (level, side, k)
_USABLE, _ITEM, _RANGE, _RANGED, _POOL, _Q = range(6)
_OPT_FIELDS = 6
# state vector: distance, wounds[2], side[2], flipped mask[2], sucker punches used[2]
_D, _W, _SIDE, _MASK, _USED = 0, 1, 3, 5, 7
_STATE = 9


# ------------------------------------------------------------------ profiles
@dataclass(frozen=True)
class Option:
    """One ATTACK a unit may make at one (level, side): a WEAPON, BARE HANDS or its ATTACK POOL."""

    label: str
    usable: bool
    item: int  # bit of the WEAPON in the FLIPPED mask, -1 if nothing can be FLIPPED
    range: int
    ranged: bool
    dice: dict[str, int]
    secure: int
    success: int


@dataclass
class Profile:
    """A card's duel data, by level (POTENTIALS FLIPPED / STAGE), side and FLIPPED WEAPONS."""

    name: str
    health: int
    actions: int
    levels: int
    sides: int
    bits: int
    stats: np.ndarray  # (levels, sides, 2**bits, 3): DEFENSE, MOVE, SUCKER PUNCHES
    options: list[list[list[Option]]]  # [level][side][k]
    notes: list[str]

    def level(self, wounds: int) -> int:
        return min(wounds, self.levels - 1)


def _stats(defense: int, traits: list[Trait | None]) -> tuple[int, int, int]:
    """DEFENSE +/-X ("Defense"), MOVE 2 + SPEED, at least 1, SUCKER PUNCHES 1 + DIRTY FIGHTING."""
    return (
        max(defense + _rating(traits, "defense"), 0),
        max(DEFAULT_MOVE + _rating(traits, "speed"), MIN_MOVE),
        max(DEFAULT_SUCKER_PUNCHES + _rating(traits, "dirty_fighting"), 0),
    )


def _option(
    label: str,
    usable: bool,
    item: int,
    base_range: int,
    ranged: bool,
    pool: Pool,
    traits: list[Trait | None],
) -> Option:
    if pool.size() > rolls.MAX_DICE:
        raise InputError(f"{label}: a POOL may hold at most {rolls.MAX_DICE} dice")
    return Option(
        label=label,
        usable=usable,
        item=item,
        range=max(base_range + _rating(traits, "range"), rules.MIN_DISTANCE),
        ranged=ranged,
        dice=pool.dice(),
        secure=max(_rating(traits, "secure"), 0),
        success=_rating(traits, "success"),
    )


def _unsimulated(name: str, traits: list[Trait | None]) -> list[str]:
    notes = []
    for t in traits:
        if t is None:
            continue
        if t.active:
            notes.append(f"{name}: ACTIVE TRAIT {t.name} is not used in the duel")
        other = sorted(a for a in t.abilities if a not in SIMULATED)
        if other and not t.active:
            notes.append(f"{name}: {t.name}: {', '.join(other)} not simulated")
    return notes


def _operative(card: Operative) -> Profile:
    stuns = [i for i, it in enumerate(card.items) if any("stun" in t.abilities for t in it.traits)]
    weapons = [i for i, it in enumerate(card.items) if it.is_weapon and i not in stuns]
    bit = {item: b for b, item in enumerate(weapons)}
    n_pot = len(card.potentials)
    levels, bits = n_pot + 1, len(weapons)
    stats = np.zeros((levels, 2, 1 << bits, _STAT_FIELDS), dtype=np.int64)
    options: list[list[list[Option]]] = []
    for level in range(levels):
        face_up = [p.trait() for p in card.potentials[: n_pot - level]]
        per_side = []
        for s, side_name in enumerate(SIDES):
            side = card.side(side_name)
            unit_traits: list[Trait | None] = [card.shared_trait, *face_up, *side.traits]
            for mask in range(1 << bits):
                item_traits: list[Trait | None] = []
                armor = 0
                for i, it in enumerate(card.items):
                    if it.side not in (side_name, "neutral"):
                        continue
                    if i in bit and (mask >> bit[i]) & 1:
                        continue  # FLIPPED to its BOTCH face
                    item_traits += it.traits
                    if it.is_armor and it.defense is not None:
                        armor += it.defense  # "Items Breakdown" 4B
                stats[level, s, mask] = _stats(side.defense + armor, unit_traits + item_traits)
            opts = []
            for i in weapons:
                it = card.items[i]
                assert it.attack is not None and it.range is not None
                opts.append(
                    _option(
                        it.name,
                        it.side in (side_name, "neutral"),
                        bit[i],
                        it.range,
                        "ranged" in it.keywords,
                        side.pool + it.attack,
                        [*unit_traits, *it.traits],
                    )
                )
            # "Attack (Operative)": BARE HANDED in PRIMAL, RANGE 0, no HANDLING POOL
            opts.append(_option("BARE HANDED", s == 1, -1, 0, False, side.pool, unit_traits))
            per_side.append(opts)
        options.append(per_side)
    notes = _unsimulated(card.name, [card.shared_trait, *card.focus.traits, *card.primal.traits])
    notes += _unsimulated(card.name, [p.trait() for p in card.potentials])
    for i in stuns:
        notes.append(f"{card.name}: {card.items[i].name} STUNS (no WOUND): not used")
    for i, it in enumerate(card.items):
        if i not in stuns:
            notes += _unsimulated(f"{card.name}: {it.name}", list(it.traits))
    return Profile(
        card.name, health(card), OPERATIVE_ACTIONS, levels, 2, bits, stats, options, notes
    )


def _hostile(card: Legion | Champion, ranged_provoke: bool) -> Profile:
    if isinstance(card, Legion):
        stages = [(card.attack, card.defense, card.range, card.traits())]
        all_traits = card.traits()
    else:
        stages = [(s.attack, s.defense, s.range, [card.base_trait, s.trait]) for s in card.stages]
        all_traits = [card.base_trait, *(s.trait for s in card.stages)]
    levels = len(stages)
    stats = np.zeros((levels, 1, 1, _STAT_FIELDS), dtype=np.int64)
    options = []
    for level, (pool, defense, reach, traits) in enumerate(stages):
        stats[level, 0, 0] = _stats(defense, traits)
        label = "ATTACK POOL" if levels == 1 else f"STAGE {level + 1} ATTACK POOL"
        ranged = ranged_provoke and reach >= 1
        options.append([[_option(label, True, -1, reach, ranged, pool, traits)]])
    notes = _unsimulated(card.name, all_traits)
    return Profile(card.name, health(card), HOSTILE_ACTIONS, levels, 1, 0, stats, options, notes)


def profile(card: AnyCard, ranged_hostiles_provoke: bool = False) -> Profile:
    """The duel data of a card (see the module docstring for what is simulated)."""
    if isinstance(card, Operative):
        return _operative(card)
    return _hostile(card, ranged_hostiles_provoke)


def option_chances(option: Option, n_def: int) -> tuple[float, np.ndarray, np.ndarray]:
    """``(P(BOTCH), P(success), P(failure))`` of an ATTACK, the last two for DEFENSE
    0..n_def-1 ("Dice Rolls", "Secure").

    A ROLL botches with more BOTCHES than its SECURE; otherwise its total is the
    SUCCESSES plus SUCCESS +/-X, never below 0, and succeeds when it reaches the
    DEFENSE (the conventions of :mod:`analyzer.games.degenesis.rolls`).  Each outcome
    is summed from the totals that give it, never found as one minus the others: a
    difference leaves rounding residue (5.6e-17) where an outcome is impossible, and
    whether it does depends on the CPU's summation order, so the exact chain would
    grow branches on one machine that another does not have.
    """
    faces = rules.load_dice()
    probs = unbotched_successes(faces, option.dice, option.secure)
    totals = np.maximum(np.arange(probs.size) + option.success, 0)
    reach = totals[None, :] >= np.arange(n_def)[:, None]
    p_success = np.where(reach, probs[None, :], 0.0).sum(axis=1)
    p_failure = np.where(reach, 0.0, probs[None, :]).sum(axis=1)
    return max(1.0 - float(probs.sum()), 0.0), p_success, p_failure


# ------------------------------------------------------------------- params
def _pool_block(option: Option) -> list[int]:
    faces = rules.load_dice()
    p = {
        "dice": option.dice,
        "success_mod": option.success,
        "faces": {t: ["botch" if f == rules.BOTCH else f for f in faces[t]] for t in faces},
    }
    return [int(v) for v in _encode_pool(p, option.secure, [])]


def start_distance(options: DuelOptions) -> int:
    """``--start melee``: one TILE (0); ``--start range``: ``ceil(distance)`` TILES."""
    return 0 if options.start == "melee" else math.ceil(options.distance - 1e-9)


class Encoded:
    """The params vector of a pairing plus the float chances the exact engine uses."""

    def __init__(
        self,
        profiles: tuple[Profile, Profile],
        space: DuelSpace,
        distance: int,
        turns: int,
        punch_first: bool,
    ) -> None:
        self.profiles = profiles
        n_def = int(max(pr.stats[..., _DEF].max() for pr in profiles)) + 1
        chances: list[dict[tuple[int, int, int], tuple[float, np.ndarray, np.ndarray]]]
        chances = [{}, {}]
        header = [0] * _HEADER
        header[_ROUNDS] = space.max_rounds
        header[_TURNS] = turns
        header[_D0] = distance
        header[_SW], header[_SR], header[_SA] = space.strides()
        header[_PUNCH_FIRST] = int(punch_first)
        header[_NDEF] = n_def
        body: list[int] = []
        for who, pr in enumerate(profiles):
            unit = _HEADER + len(body)
            header[_UNIT + who] = unit
            block = [0] * _UNIT_FIELDS
            body += block
            block[_HEALTH], block[_ACTIONS], block[_LEVELS] = pr.health, pr.actions, pr.levels
            block[_NSIDES], block[_BITS] = pr.sides, pr.bits
            block[_K] = len(pr.options[0][0])
            block[_STATS] = _HEADER + len(body)
            body += [int(v) for v in pr.stats.reshape(-1)]
            block[_OPTS] = _HEADER + len(body)
            records_at = len(body)
            body += [0] * (pr.levels * pr.sides * block[_K] * _OPT_FIELDS)
            for level in range(pr.levels):
                for s in range(pr.sides):
                    for k, opt in enumerate(pr.options[level][s]):
                        chances[who][(level, s, k)] = option_chances(opt, n_def)
                        rec = records_at + ((level * pr.sides + s) * block[_K] + k) * _OPT_FIELDS
                        body[rec + _USABLE] = int(opt.usable)
                        body[rec + _ITEM] = opt.item
                        body[rec + _RANGE] = opt.range if opt.usable else -1
                        body[rec + _RANGED] = int(opt.ranged)
                        body[rec + _POOL] = _HEADER + len(body)
                        body += _pool_block(opt)
                        body[rec + _Q] = _HEADER + len(body)
                        p_success = chances[who][(level, s, k)][1]
                        body += [round(float(v) * SCALE) for v in p_success]
            body[unit - _HEADER : unit - _HEADER + _UNIT_FIELDS] = block
        self.chances = chances
        self.n_def = n_def
        self.base = np.array(header + body, dtype=np.int64)
        for who, pr in enumerate(profiles):
            self.base[self.base[_UNIT + who] + _START] = self._start_side(who, pr)

    def _start_side(self, who: int, pr: Profile) -> int:
        """ "Step 4: Field Setup": the side whose best ATTACK best WOUNDS the opponent.

        ATTACKS WITHIN RANGE at the starting DISTANCE count first (all ATTACKS when
        neither side has one); the opponent's DEFENSE is its higher one at the start.
        """
        if pr.sides == 1:
            return 0
        other = self.profiles[1 - who]
        target = int(other.stats[0, :, 0, _DEF].max())
        distance = int(self.base[_D0])
        best = []
        for s in range(2):
            qs = [
                (o.range >= distance, round(float(self.chances[who][(0, s, k)][1][target]) * SCALE))
                for k, o in enumerate(pr.options[0][s])
                if o.usable
            ]
            best.append((*max(qs, default=(False, -1)), int(pr.stats[0, s, 0, _DEF]), -s))
        return 0 if best[0] >= best[1] else 1

    def params(self, a_first: bool) -> np.ndarray:
        p = self.base.copy()
        p[_FIRST] = 0 if a_first else 1
        return p


# -------------------------------------------------------------- numba rules
@njit(cache=True)
def _level(p, unit, wounds):  # pragma: no cover - numba
    cap = p[unit + _LEVELS] - 1
    return wounds if wounds < cap else cap


@njit(cache=True)
def _stat(p, st, who, field):  # pragma: no cover - numba
    """DEFENSE / MOVE / SUCKER PUNCHES of unit ``who`` in state ``st``."""
    unit = p[_UNIT + who]
    level = _level(p, unit, st[_W + who])
    row = (level * p[unit + _NSIDES] + st[_SIDE + who]) * (1 << p[unit + _BITS]) + st[_MASK + who]
    return p[p[unit + _STATS] + row * _STAT_FIELDS + field]


@njit(cache=True)
def _opt(p, st, who, side, k):  # pragma: no cover - numba
    """Offset of the option record ``k`` of unit ``who`` on ``side`` at its current level."""
    unit = p[_UNIT + who]
    level = _level(p, unit, st[_W + who])
    return p[unit + _OPTS] + ((level * p[unit + _NSIDES] + side) * p[unit + _K] + k) * _OPT_FIELDS


@njit(cache=True)
def _available(p, st, who, o, distance):  # pragma: no cover - numba
    """Usable on this side, WEAPON not FLIPPED, TARGET WITHIN RANGE."""
    if p[o + _USABLE] == 0:
        return False
    item = p[o + _ITEM]
    if item >= 0 and (st[_MASK + who] >> item) & 1:
        return False
    return p[o + _RANGE] >= distance


@njit(cache=True)
def _chance(p, o, defense):  # pragma: no cover - numba
    """Quantised chance that option ``o`` WOUNDS a TARGET of this DEFENSE."""
    return p[p[o + _Q] + defense]


@njit(cache=True)
def _punch(p, st, who):  # pragma: no cover - numba
    """SUCKER PUNCH option of ``who`` (-1: none left this ROUND or no ATTACK WITHIN RANGE 0)."""
    if st[_USED + who] >= _stat(p, st, who, _PUNCH):
        return -1
    target_def = _stat(p, st, 1 - who, _DEF)
    best = -1
    best_q = -1
    for k in range(p[p[_UNIT + who] + _K]):
        o = _opt(p, st, who, st[_SIDE + who], k)
        if _available(p, st, who, o, 0):
            q = _chance(p, o, target_def)
            if q > best_q:
                best = k
                best_q = q
    return best


@njit(cache=True)
def decide(p, st, me):  # pragma: no cover - numba
    """The ACTION of unit ``me``: (kind, option, SUCKER PUNCH option of the ENEMY or -1)."""
    opp = 1 - me
    distance = st[_D]
    side = st[_SIDE + me]
    n_opts = p[p[_UNIT + me] + _K]
    opp_def = _stat(p, st, opp, _DEF)
    pk = -1
    risk = 0
    if distance == 0:
        pk = _punch(p, st, opp)
        if pk >= 0:
            risk = _chance(p, _opt(p, st, opp, st[_SIDE + opp], pk), _stat(p, st, me, _DEF))
    best = -1
    best_score = np.int64(-(1 << 62))
    best_ranged = 0
    for k in range(n_opts):
        o = _opt(p, st, me, side, k)
        if not _available(p, st, me, o, distance):
            continue
        score = _chance(p, o, opp_def)
        if p[o + _RANGED] != 0 and pk >= 0:
            score -= risk
        if score > best_score:
            best = k
            best_score = score
            best_ranged = p[o + _RANGED]
    if best >= 0:
        return ATTACK, best, pk if best_ranged != 0 else -1
    if p[p[_UNIT + me] + _NSIDES] == 2:
        for k in range(n_opts):
            if _available(p, st, me, _opt(p, st, me, 1 - side, k), distance):
                return FLIP, -1, -1
    if distance > 0:
        return MOVE, -1, -1
    return PASS, -1, -1


@njit(cache=True)
def _mc_roll(state, p, st, who, k):  # pragma: no cover - numba
    """``who`` ATTACKS the other with option ``k``: 2 kills, 1 WOUNDS, 0 not (BOTCH FLIPS)."""
    o = _opt(p, st, who, st[_SIDE + who], k)
    target = 1 - who
    total = _roll_once(state, p[p[o + _POOL] :])
    if total < 0:
        if p[o + _ITEM] >= 0:
            st[_MASK + who] |= 1 << p[o + _ITEM]
        return 0
    if total < _stat(p, st, target, _DEF):
        return 0
    st[_W + target] += 1
    return 2 if st[_W + target] >= p[p[_UNIT + target] + _HEALTH] else 1


@njit(cache=True)
def _mc_action(state, p, st, me):  # pragma: no cover - numba
    """One ACTION of ``me``; returns the winner (1 A, 2 B) or 0."""
    kind, k, pk = decide(p, st, me)
    opp = 1 - me
    if kind == ATTACK:
        if pk >= 0 and p[_PUNCH_FIRST] != 0:
            st[_USED + opp] += 1
            if _mc_roll(state, p, st, opp, pk) == 2:
                return opp + 1
        if _mc_roll(state, p, st, me, k) == 2:
            return me + 1
        if pk >= 0 and p[_PUNCH_FIRST] == 0:
            st[_USED + opp] += 1
            if _mc_roll(state, p, st, opp, pk) == 2:
                return opp + 1
    elif kind == FLIP:
        st[_SIDE + me] = 1 - st[_SIDE + me]
    elif kind == MOVE:
        st[_D] = max(st[_D] - _stat(p, st, me, _MOVE), 0)
    return 0


@njit(cache=True)
def _index(p, st, winner, rounds):  # pragma: no cover - numba
    left_a = p[p[_UNIT] + _HEALTH] - st[_W]
    left_b = p[p[_UNIT + 1] + _HEALTH] - st[_W + 1]
    return winner * p[_SW] + (rounds - 1) * p[_SR] + left_a * p[_SA] + left_b


@trial_kernel
def duel_trial(state, p):  # pragma: no cover - numba
    """One duel ACTION by ACTION, die by die; the index of its outcome in the DuelSpace."""
    st = np.zeros(_STATE, dtype=np.int64)
    st[_D] = p[_D0]
    st[_SIDE] = p[p[_UNIT] + _START]
    st[_SIDE + 1] = p[p[_UNIT + 1] + _START]
    first = p[_FIRST]
    for r in range(1, p[_ROUNDS] + 1):
        st[_USED] = 0
        st[_USED + 1] = 0
        for _ in range(p[_TURNS]):
            for j in range(2):
                me = first if j == 0 else 1 - first
                for _a in range(p[p[_UNIT + me] + _ACTIONS]):
                    winner = _mc_action(state, p, st, me)
                    if winner != 0:
                        return _index(p, st, winner, r)
    return _index(p, st, 0, p[_ROUNDS])


# ------------------------------------------------------------- exact engine
State = tuple[int, ...]
Branch = tuple[float, State, int]  # probability, state, winner (0: fight goes on)


class Chain:
    """Exact Markov chain over duel states, ACTION by ACTION (see the module docstring)."""

    def __init__(self, enc: Encoded, params: np.ndarray) -> None:
        self.enc = enc
        self.p = params
        self.health = (enc.profiles[0].health, enc.profiles[1].health)
        self._memo: dict[tuple[int, State], list[Branch]] = {}

    def start(self) -> State:
        st = [0] * _STATE
        st[_D] = int(self.p[_D0])
        for who in range(2):
            st[_SIDE + who] = int(self.p[self.p[_UNIT + who] + _START])
        return tuple(st)

    def _roll(self, branches: list[Branch], who: int, k: int) -> list[Branch]:
        """Expand every live branch by one ATTACK of ``who`` with option ``k``."""
        out: list[Branch] = []
        target = 1 - who
        for prob, st, winner in branches:
            if winner:
                out.append((prob, st, winner))
                continue
            arr = np.array(st, dtype=np.int64)
            pr = self.enc.profiles[who]
            level = pr.level(st[_W + who])
            p_botch, p_success, p_failure = self.enc.chances[who][(level, st[_SIDE + who], k)]
            defense = int(_stat(self.p, arr, target, _DEF))
            p_hit, p_miss = float(p_success[defense]), float(p_failure[defense])
            if p_botch > 0:
                item = pr.options[level][st[_SIDE + who]][k].item
                botched = list(st)
                if item >= 0:
                    botched[_MASK + who] |= 1 << item
                out.append((prob * p_botch, tuple(botched), 0))
            if p_miss > 0:
                out.append((prob * p_miss, st, 0))
            if p_hit > 0:
                hit = list(st)
                hit[_W + target] += 1
                dead = hit[_W + target] >= self.health[target]
                out.append((prob * p_hit, tuple(hit), who + 1 if dead else 0))
        return out

    def action(self, me: int, st: State) -> list[Branch]:
        """Outcomes of one ACTION of ``me`` from ``st`` (memoised)."""
        key = (me, st)
        if key in self._memo:
            return self._memo[key]
        kind, k, pk = decide(self.p, np.array(st, dtype=np.int64), me)
        opp = 1 - me
        branches: list[Branch] = [(1.0, st, 0)]
        if kind == ATTACK:
            punch_first = bool(self.p[_PUNCH_FIRST])

            def punch(bs: list[Branch]) -> list[Branch]:
                slot = _USED + opp
                used = [(q, (*s[:slot], s[slot] + 1, *s[slot + 1 :]), w) for q, s, w in bs]
                return self._roll(used, opp, pk)

            if pk >= 0 and punch_first:
                branches = punch(branches)
            branches = self._roll(branches, me, k)
            if pk >= 0 and not punch_first:
                live = [b for b in branches if not b[2]]
                branches = [b for b in branches if b[2]] + punch(live)
        elif kind == FLIP:
            s = list(st)
            s[_SIDE + me] = 1 - s[_SIDE + me]
            branches = [(1.0, tuple(s), 0)]
        elif kind == MOVE:
            s = list(st)
            s[_D] = max(s[_D] - int(_stat(self.p, np.array(st, dtype=np.int64), me, _MOVE)), 0)
            branches = [(1.0, tuple(s), 0)]
        self._memo[key] = branches
        return branches

    def run(self, order: list[int], start: dict[State, float]) -> tuple[dict, dict[State, float]]:
        """Propagate a distribution through ACTIONS by ``order``.

        Returns the finished mass by (winner, wounds A, wounds B) and the live states.
        """
        done: dict[tuple[int, int, int], float] = defaultdict(float)
        live = dict(start)
        for me in order:
            nxt: dict[State, float] = defaultdict(float)
            for st, mass in live.items():
                for q, s, winner in self.action(me, st):
                    if winner:
                        done[(winner, s[_W], s[_W + 1])] += mass * q
                    else:
                        nxt[s] += mass * q
            live = nxt
        return done, live

    def round_order(self) -> list[int]:
        first = int(self.p[_FIRST])
        acts = [int(self.p[self.p[_UNIT + who] + _ACTIONS]) for who in range(2)]
        turn = [first] * acts[first] + [1 - first] * acts[1 - first]
        return turn * int(self.p[_TURNS])

    def solve(self, space: DuelSpace) -> np.ndarray:
        """Exact probability of every DuelSpace index: ROUND transition matrices, then powers."""
        order = self.round_order()
        start = self.start()
        index = {start: 0}
        queue = [start]
        rows: list[tuple[dict, dict[State, float]]] = []
        while len(rows) < len(queue):
            st = queue[len(rows)]
            done, live = self.run(order, {st: 1.0})
            nxt: dict[State, float] = defaultdict(float)
            for s, mass in live.items():
                s0 = (*s[:_USED], 0, 0)  # SUCKER PUNCHES are counted per ROUND
                nxt[s0] += mass
                if s0 not in index:
                    index[s0] = len(queue)
                    queue.append(s0)
            rows.append((done, nxt))
        n = len(queue)
        ha, hb = self.health
        n_end = 3 * (ha + 1) * (hb + 1)
        m_rows, m_cols, m_vals, t_rows, t_cols, t_vals = [], [], [], [], [], []
        for i, (done, nxt) in enumerate(rows):
            for s, mass in nxt.items():
                m_rows.append(i)
                m_cols.append(index[s])
                m_vals.append(mass)
            for (winner, wa, wb), mass in done.items():
                t_rows.append(i)
                t_cols.append((winner * (ha + 1) + ha - wa) * (hb + 1) + hb - wb)
                t_vals.append(mass)
        step = sparse.csr_matrix((m_vals, (m_rows, m_cols)), shape=(n, n))
        ends = sparse.csr_matrix((t_vals, (t_rows, t_cols)), shape=(n, n_end))
        out = np.zeros(space.size)
        v = np.zeros(n)
        v[0] = 1.0
        for r in range(1, space.max_rounds + 1):
            finished = ends.T @ v
            for winner in (WIN_A, WIN_B):
                block = finished[winner * (ha + 1) * (hb + 1) : (winner + 1) * (ha + 1) * (hb + 1)]
                at = space.index(winner, r, 0, 0)
                out[at : at + block.size] += block
            v = step.T @ v
        for st, i in index.items():
            if v[i] > 0:
                out[space.index(DRAW, space.max_rounds, ha - st[_W], hb - st[_W + 1])] += v[i]
        return out


# ------------------------------------------------------------------ public
def _encode(
    a: AnyCard,
    b: AnyCard,
    options: DuelOptions,
    turns_per_round: int,
    sucker_punch_first: bool,
    ranged_hostiles_provoke: bool,
) -> tuple[Encoded, DuelSpace]:
    if turns_per_round < 1:
        raise InputError("turns_per_round must be >= 1")
    pa = profile(a, ranged_hostiles_provoke)
    pb = profile(b, ranged_hostiles_provoke)
    space = DuelSpace(options.max_rounds, pa.health, pb.health)
    enc = Encoded((pa, pb), space, start_distance(options), turns_per_round, sucker_punch_first)
    return enc, space


def duel_model(
    a: AnyCard,
    b: AnyCard,
    options: DuelOptions,
    turns_per_round: int = TURNS_PER_ROUND,
    sucker_punch_first: bool = True,
    ranged_hostiles_provoke: bool = False,
) -> DuelModel:
    """Two cards fight until one is removed or the ROUND cap (see the module docstring)."""
    enc, space = _encode(
        a, b, options, turns_per_round, sucker_punch_first, ranged_hostiles_provoke
    )
    cache: dict[bool, np.ndarray] = {}

    def exact(a_first: bool) -> np.ndarray:
        if a_first not in cache:
            cache[a_first] = Chain(enc, enc.params(a_first)).solve(space)
        return cache[a_first]

    notes = [
        f"a ROUND is {turns_per_round} TURNS; per TURN an OPERATIVE takes "
        f"{OPERATIVE_ACTIONS} ACTIONS, a LEGION or CHAMPION {HOSTILE_ACTIONS}",
        f"start: DISTANCE {start_distance(options)} TILES; "
        f"{enc.profiles[0].name} starts in {_side_name(enc, 0)}, "
        f"{enc.profiles[1].name} in {_side_name(enc, 1)}",
        "SUCKER PUNCH " + ("before" if sucker_punch_first else "after") + " the RANGED ATTACK",
    ]
    notes += enc.profiles[0].notes + enc.profiles[1].notes
    return DuelModel(space=space, trial=duel_trial, params=enc.params, exact=exact, notes=notes)


def _side_name(enc: Encoded, who: int) -> str:
    if enc.profiles[who].sides == 1:
        return "its only profile"
    return SIDES[int(enc.base[enc.base[_UNIT + who] + _START])].upper()


def activation_summary(attacker: AnyCard, defender: AnyCard) -> ActivationSummary:
    """Exact WOUNDS dealt by one activation (a TURN's ACTIONS / one EDGE) on the same TILE.

    The attacker starts fresh on its chosen side, the defender fresh; SUCKER
    PUNCHES provoked by RANGED ATTACKS are resolved (they may end the activation).
    """
    enc, _ = _encode(attacker, defender, DuelOptions(max_rounds=1), TURNS_PER_ROUND, True, False)
    chain = Chain(enc, enc.params(True))
    order = [0] * enc.profiles[0].actions
    done, live = chain.run(order, {chain.start(): 1.0})
    expected = 0.0
    kill = 0.0
    for (winner, _wa, wb), mass in done.items():
        expected += wb * mass
        if winner == WIN_A:
            kill += mass
    for st, mass in live.items():
        expected += st[_W + 1] * mass
    return ActivationSummary(expected, kill, enc.profiles[1].health)
