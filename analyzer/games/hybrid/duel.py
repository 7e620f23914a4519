"""Hybrid duels: two warriors fight until one is eliminated or the round cap.

Rulebook ``hybrid.txt``.  The duel follows the game's own sequence:

* **Round** ("Activation", "Sequence of Play"): every Round each warrior activates once.
  With ``--first alternate`` the order comes from the Activation Roll made before every
  Round (``rolls.activation_trial``; no Action Cards, so each side wins it with
  probability 1/2) and its winner activates first (he "decides who will activate
  first"; the rule here: himself).  ``--first a`` / ``--first b`` fix the order instead:
  that side activates first in every Round.  ``activation="fixed"|"roll"`` overrides.
* **Activation** ("Choosing an Action Mode"): one Action Mode per turn; a warrior's
  Defensive Combat Mode ends when he activates and chooses again.
* **In base contact** the warrior chooses (rule below) one of: Offensive Combat at a
  Mastery Level he holds (1 Basic, 2 Novice: one wound ignored in the SL, 3 Skilled: a
  second strike after a strike that wounds, 4 Expert: +2, 5 Master: 2D10 keep the
  better, 6 Heroic: 2 wounds, 3 on a Perfect Success); Defensive Combat (he parries
  every attack until his next activation or until a wound switches the Mode off);
  Novice Firing from base contact ("Novice Firing ... even while in base contact");
  stepping back one square and firing (Basic, Master or Heroic Firing need "at least
  one free square between the shooter and his target"; "a warrior may move freely, even
  if he is in base contact"; "Retreating" facing the enemy costs 2 Movement per
  square); or Sacrifice/X (Moving Mode, Basic Move, in contact).
* **Out of contact** (a 1-D distance ``d`` = empty squares between the bases): a
  warrior who can fire ("Firing": a Firing level and a ranged weapon) fires when the
  target is within range (``d + 1 <= 8 + Eye of the Lynx/X``, "Sight Range"), after
  moving just enough to bring it in range if his Movement allows; otherwise a warrior
  whose Movement reaches the enemy moves into contact and then acts as in contact (a
  charge: "the warrior makes his usual Movement, and ... continues acting in one of
  the three remaining Action Modes"); otherwise he runs with Basic Move (Movement + 2,
  "Moving"), or - without a Moving level - walks his Movement and takes Defensive
  Combat.  A warrior with Sacrifice/X that can reach contact with Basic Move
  sacrifices himself there when the contact rule below would choose it ("At the end of
  a Basic Move").
* **Strikes and parries** use ``rolls`` exactly: SL = NV - wounds + Equipment
  modifier + Mastery Level effects ("Natural Roll" FAQ), Perfect Success adds a wound,
  Critical Failure fails, Duellist/X widens the Perfect Success of strikes, shots and
  counter-blows.  A defender in Defensive Combat chooses his parry level when attacked
  (1 Basic, 2 Novice: the attacker takes a wound on his Critical Failure or a Perfect
  Success parry, 3 Skilled: counter-blow, 4 Expert +2, 5 Master 2D10, 6 Heroic: he
  keeps parrying after a wound); only Basic and Heroic Parry work against firing.
* **Aptitudes** used: Combined Attack/X (once per Round, X per duel, fixed SL = the
  printed NV, one die, no parry), Brutish Strength/X (after an activation with a
  successful attack roll the enemy is knocked back X squares; no walls in 1-D, so no
  extra wounds), Duellist/X, Prestige/X (+X to every roll until the first wound), Eye
  of the Lynx/X (range), Velocity/X (-X to shots at him), Titan / large base (+1 to
  shots at him, not cumulative), Sacrifice/X.  Not modelled: Action, Event, Army,
  Aura and Mutation cards; Conviction (no leader in a duel); Frenzy (the duel ends at
  the first kill); Felon and Dorsal Protection (no rear attacks in 1-D); Infiltration,
  Skilled Firing ambushes and Moving levels 2-6 (they need a board).

**Choice rules** (deterministic, computed exactly from the roll distributions; "net"
means expected wounds dealt minus expected wounds taken, each capped by the health
left):

* *Parry level*: the level that minimises the attacker's net for the announced attack
  (the whole Skilled Strike or Heroic Firing action with one level); ties go to the
  lower level, so Heroic Parry is chosen only when its persistence pays.
* *Strike / firing level*: the level with the best net against that parry response.
* *Mode in contact*: each action's net, minus - for an attack - the best net the
  opponent's next attack could reach against an undefended warrior; Defensive Combat
  scores minus the best net the opponent's next attack reaches against the parry.
  Defensive Combat is offered only against an opponent who is not in Defensive Combat
  himself: waiting on a waiting opponent gains nothing in a duel, and without this
  rule two good parriers wait out the round cap (a stronger warrior would then win
  less often than a weaker one).  Sacrifice scores its wounds minus the warrior's
  health and is offered only when it eliminates the target (the duel is then a draw).
  Ties go to the earlier of: Offensive Combat (lower level first), Novice Firing,
  stepping back and firing, Defensive Combat, Sacrifice.

Interpretations (the first two also in the notes of every duel): a "hit" that allows
the Skilled Strike's second strike is a strike that wounds (not one that is parried);
the Combined Attack's fixed SL is not widened by Duellist/X ("no modifiers
whatsoever"); a warrior's Mastery Levels above 6 only keep level 6 available after
wounds; Basic Parry is never better than Novice Parry, so it is chosen only where they
tie; in base contact only Novice Firing may shoot (Basic Firing needs a free square,
Expert Firing a shooter "not in base contact"; Master and Heroic Firing are read the
same way), and Expert Firing is Basic Firing in 1-D; the Skilled Parry counter-blow is
not Offensive Combat Mode, so it never triggers Brutish Strength; a strike or shot
that eliminates a warrior ends the duel at once (the Combined Attack is then lost, as
the rule says).

The exact engine is a Markov chain over (wounds A, wounds B, Defensive Combat state of
each (off / on / Heroic Parry), Combined Attacks left, distance), advanced activation
by activation and Round by Round; the Monte Carlo kernel rolls every die and follows
the same choice tables, passed in its parameter vector.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from functools import cache

import numpy as np
from numba import njit

from analyzer.dice.simulate import trial_kernel
from analyzer.duels import ActivationSummary, DuelModel, DuelOptions, DuelSpace
from analyzer.errors import InputError
from analyzer.games.hybrid import rolls, rules
from analyzer.games.hybrid.units import Card, health

# ----------------------------------------------------------------- codes
#: Contact actions: 1..6 Offensive Combat at that Mastery Level, then these.
NOTHING = 0
FIRE_CONTACT = 12  # Novice Firing from base contact
STEP_BACK = 20  # STEP_BACK + kind: step back one square, then fire (kind 7, 8 or 9)
DEFEND = 30
SACRIFICE = 40
#: Attack kinds: 1..6 strikes at that OC level, then shots.
SHOT, MASTER_SHOT, HEROIC_SHOTS = 7, 8, 9
N_KINDS = 10
#: Defensive Combat state.
DC_OFF, DC_ON, DC_HEROIC = 0, 1, 2
#: Parry levels ("Defensive Combat").
BASIC_PARRY, NOVICE_PARRY, SKILLED_PARRY, EXPERT_PARRY, MASTER_PARRY, HEROIC_PARRY = range(1, 7)
#: Mastery Levels ("Action Modes").
NOVICE, SKILLED, EXPERT, MASTER, HEROIC = 2, 3, 4, 5, 6
EXPERT_BONUS = 2  # "Expert Strike" / "Expert Parry": +2 to the SL
TOP_LEVEL = 6
BASIC_MOVE_BONUS = 2  # "1 / Basic Move": +2 to Movement
#: "Retreating": every square crossed backward costs 1 extra point of Movement, so
#: stepping back one square while facing the enemy costs 2.
STEP_BACK_COST = 2

# ----------------------------------------------------------- param layout
H_SW, H_SR, H_SA, H_ROUNDS, H_ROLL, H_AFIRST, H_D0, H_W = range(8)
H_CONST, H_ROWS, H_PARRY, H_CONTACT, H_FIRE = range(8, 13)
N_HEADER = 13
C_NV, C_DUELLIST, C_COMBINED, C_BRUTISH, C_SACRIFICE, C_RANGE, C_MOVE_MODE, C_COMBINED_SL = range(8)
N_CONST = 8
R_OC, R_DC, R_F, R_MOVE, R_OC_SL, R_NOVICE_SL, R_DC_SL, R_FIRE_SL = range(8)
N_ROW = 8
N_ATTACK = 17  # rolls' strike/fire parameter vector
# duel state: wounds A, wounds B, DC state A, DC state B, Combined Attacks left A, B, distance
S_DC, S_CA, S_D = 2, 4, 6
N_STATE = 7

State = tuple[int, int, int, int, int, int, int]


# ------------------------------------------------------------ numba helpers
@njit(cache=True)
def _cst(p, side, col):  # pragma: no cover - numba
    return p[p[H_CONST] + side * N_CONST + col]


@njit(cache=True)
def _row(p, side, w, col):  # pragma: no cover - numba
    return p[p[H_ROWS] + (side * p[H_W] + w) * N_ROW + col]


@njit(cache=True)
def fill_attack(p, v, x, kind, wx, plevel, wy):  # pragma: no cover - numba
    """Write into ``v`` the ``rolls`` strike/shot vector of side ``x`` attacking side ``1 - x``.

    ``kind`` 1..6 is a strike at that Offensive Combat level ("Offensive Combat"), 7 a
    single shot, 8 Master Firing, 9 one shot of Heroic Firing ("Firing"); ``plevel`` the
    defender's parry level, 0 without a parry ("Defensive Combat").  Used by both engines.
    """
    y = 1 - x
    for i in range(v.shape[0]):
        v[i] = 0
    v[2] = _cst(p, x, C_DUELLIST)
    if kind <= TOP_LEVEL:
        v[0] = rules.MASTER_DICE if kind == MASTER else 1
        if kind == NOVICE:
            v[1] = _row(p, x, wx, R_NOVICE_SL)
        else:
            v[1] = _row(p, x, wx, R_OC_SL)
        if kind == EXPERT:
            v[1] += EXPERT_BONUS
        v[3] = rules.HEROIC_STRIKE_WOUNDS if kind == HEROIC else rules.STRIKE_WOUNDS
        v[15] = 1
    else:
        v[0] = rules.MASTER_DICE if kind == MASTER_SHOT else 1
        v[1] = _row(p, x, wx, R_FIRE_SL)
        v[3] = rules.STRIKE_WOUNDS
        v[15] = rules.HEROIC_FIRING_SHOTS if kind == HEROIC_SHOTS else 1
    v[4] = v[3] + rules.PERFECT_EXTRA_WOUNDS
    if plevel > 0:
        v[5] = 1
        v[6] = rules.MASTER_DICE if plevel == MASTER_PARRY else 1
        v[7] = _row(p, y, wy, R_DC_SL)
        if plevel == EXPERT_PARRY:
            v[7] += EXPERT_BONUS
        if plevel == NOVICE_PARRY:
            v[9] = rules.NOVICE_PARRY_WOUNDS
        if plevel == SKILLED_PARRY and _row(p, y, wy, R_OC) > 0:
            v[10] = 1
            v[11] = _row(p, y, wy, R_OC_SL)
            v[12] = _cst(p, y, C_DUELLIST)
            v[13] = rules.COUNTER_BLOW_WOUNDS
            v[14] = rules.COUNTER_BLOW_WOUNDS + rules.PERFECT_EXTRA_WOUNDS
        v[16] = 1 if plevel == HEROIC_PARRY else 0


@njit(cache=True)
def strike_flagged(state, v):  # pragma: no cover - numba
    """``rolls.attack_once`` that also reports whether the attack roll succeeded.

    Brutish Strength/X knocks the enemy back after a successful attack "even if the
    enemy manages to avoid taking a wound", so the duel needs that flag as well as the
    wounds (positive: to the defender, negative: to the attacker).
    """
    attack = rolls.classify(rolls.kept_face(state, v[0], 0, 0), v[1], v[2])
    if attack == -1:
        return -v[9], 0
    if attack == 0:
        return 0, 0
    wounds = v[4] if attack == 2 else v[3]
    if v[5] == 0:
        return wounds, 1
    parry = rolls.classify(rolls.kept_face(state, v[6], 0, 0), v[7], rules.PERFECT_FACE)
    if parry <= 0:
        return wounds, 1
    if parry == 2 and v[9] > 0:
        return -v[9], 1
    if v[10] == 1:
        counter = rolls.classify(rolls.roll_die(state, rules.DIE_SIDES), v[11], v[12])
        if counter == 2:
            return -v[14], 1
        if counter == 1:
            return -v[13], 1
    return 0, 1


@njit(cache=True)
def _alive(p, st, side):  # pragma: no cover - numba
    return st[side] < _cst(p, side, C_NV)


@njit(cache=True)
def _wound(p, st, side, wounds):  # pragma: no cover - numba
    """Wounds taken; a wound switches Defensive Combat off, except Heroic Parry."""
    st[side] = min(st[side] + wounds, _cst(p, side, C_NV))
    if st[S_DC + side] == DC_ON:
        st[S_DC + side] = DC_OFF


@njit(cache=True)
def _parry_level(p, st, y, kind, x):  # pragma: no cover - numba
    dc = st[S_DC + y]
    if dc == DC_OFF:
        return 0
    if dc == DC_HEROIC:
        return HEROIC_PARRY
    w = p[H_W]
    level = p[p[H_PARRY] + ((y * N_KINDS + kind) * w + st[y]) * w + st[x]]
    if level == HEROIC_PARRY:
        st[S_DC + y] = DC_HEROIC
    return level


@njit(cache=True)
def _strikes(state, p, st, v, x, kind):  # pragma: no cover - numba
    """The regular attack of an Offensive Combat action; returns 1 if an attack roll succeeded."""
    y = 1 - x
    level = _parry_level(p, st, y, kind, x)
    fill_attack(p, v, x, kind, st[x], level, st[y])
    value, hit = strike_flagged(state, v)
    if value > 0:
        _wound(p, st, y, value)
    elif value < 0:
        _wound(p, st, x, -value)
    if kind == SKILLED and value > 0 and _alive(p, st, y):
        level = _parry_level(p, st, y, kind, x)
        fill_attack(p, v, x, 1, st[x], level, st[y])
        value2, hit2 = strike_flagged(state, v)
        hit = max(hit, hit2)
        if value2 > 0:
            _wound(p, st, y, value2)
        elif value2 < 0:
            _wound(p, st, x, -value2)
    return hit


@njit(cache=True)
def _offensive(state, p, st, v, x, kind):  # pragma: no cover - numba
    """Offensive Combat: strike(s), the Combined Attack, then Brutish Strength."""
    y = 1 - x
    hit = _strikes(state, p, st, v, x, kind)
    if st[S_CA + x] > 0:
        st[S_CA + x] -= 1
        if _alive(p, st, x) and _alive(p, st, y):
            face = rolls.roll_die(state, rules.DIE_SIDES)
            code = rolls.classify(face, _cst(p, x, C_COMBINED_SL), rules.PERFECT_FACE)
            if code >= 1:
                hit = 1
                _wound(p, st, y, rules.STRIKE_WOUNDS + (code == 2) * rules.PERFECT_EXTRA_WOUNDS)
    if hit == 1 and _cst(p, x, C_BRUTISH) > 0 and _alive(p, st, x) and _alive(p, st, y):
        st[S_D] = _cst(p, x, C_BRUTISH)


@njit(cache=True)
def _fire(state, p, st, v, x, kind):  # pragma: no cover - numba
    """One shot, or Heroic Firing's two, each parried (Basic or Heroic Parry) or not."""
    y = 1 - x
    shots = rules.HEROIC_FIRING_SHOTS if kind == HEROIC_SHOTS else 1
    for _ in range(shots):
        if not _alive(p, st, y):
            break
        level = _parry_level(p, st, y, kind, x)
        fill_attack(p, v, x, kind, st[x], level, st[y])
        value = rolls.attack_once(state, v, v[5], v[7])
        if value > 0:
            _wound(p, st, y, value)


@njit(cache=True)
def _act(state, p, st, v, x, code):  # pragma: no cover - numba
    """Carry out a contact action code (module docstring)."""
    y = 1 - x
    if 1 <= code <= TOP_LEVEL:
        _offensive(state, p, st, v, x, code)
    elif code == FIRE_CONTACT:
        _fire(state, p, st, v, x, SHOT)
    elif STEP_BACK < code < DEFEND:
        st[S_D] = 1
        _fire(state, p, st, v, x, code - STEP_BACK)
    elif code == DEFEND:
        st[S_DC + x] = DC_ON
    elif code == SACRIFICE:
        st[x] = _cst(p, x, C_NV)
        _wound(p, st, y, _cst(p, x, C_SACRIFICE))


@njit(cache=True)
def _contact_code(p, st, x):  # pragma: no cover - numba
    """The contact choice table's action for side ``x`` in state ``st``."""
    y = 1 - x
    w = p[H_W]
    index = ((((x * w + st[x]) * w + st[y]) * 3 + st[S_DC + y]) * 2 + min(st[S_CA + x], 1)) * 2
    return p[p[H_CONTACT] + index + min(st[S_CA + y], 1)]


@njit(cache=True)
def _activate(state, p, st, v, x):  # pragma: no cover - numba
    """One warrior's turn ("Activation", "Choosing an Action Mode")."""
    y = 1 - x
    w = p[H_W]
    st[S_DC + x] = DC_OFF
    wx = st[x]
    d = st[S_D]
    if d > 0:
        move = _row(p, x, wx, R_MOVE)
        reach = _cst(p, x, C_RANGE)
        if _row(p, x, wx, R_F) > 0 and d + 1 - reach <= move:
            if d + 1 > reach:
                st[S_D] = reach - 1
            kind = p[p[H_FIRE] + ((x * w + wx) * w + st[y]) * 3 + st[S_DC + y]]
            _fire(state, p, st, v, x, kind)
            return
        if move < d:
            if _cst(p, x, C_MOVE_MODE) > 0:
                if d <= move + BASIC_MOVE_BONUS and _contact_code(p, st, x) == SACRIFICE:
                    st[S_D] = 0
                    _act(state, p, st, v, x, SACRIFICE)
                else:
                    st[S_D] = max(d - move - BASIC_MOVE_BONUS, 0)
            else:
                st[S_D] = d - move
                if _row(p, x, wx, R_DC) > 0:
                    st[S_DC + x] = DC_ON
            return
        st[S_D] = 0
    _act(state, p, st, v, x, _contact_code(p, st, x))


@trial_kernel
def duel_trial(state, p):  # pragma: no cover - numba
    """One duel, die by die; returns its index in the ``DuelSpace`` (strides in ``p``)."""
    st = np.zeros(N_STATE, dtype=np.int64)
    v = np.zeros(N_ATTACK, dtype=np.int64)
    roll = np.zeros(3, dtype=np.int64)  # Activation Roll without Action points
    st[S_CA] = _cst(p, 0, C_COMBINED)
    st[S_CA + 1] = _cst(p, 1, C_COMBINED)
    st[S_D] = p[H_D0]
    nv_a = _cst(p, 0, C_NV)
    nv_b = _cst(p, 1, C_NV)
    rounds = p[H_ROUNDS]
    for r in range(1, rounds + 1):
        if p[H_ROLL] == 1:
            first = 0 if rolls.activation_trial(state, roll) == 1 else 1
        else:
            first = 0 if p[H_AFIRST] == 1 else 1
        for k in range(2):
            x = first if k == 0 else 1 - first
            _activate(state, p, st, v, x)
            a_out = st[0] >= nv_a
            b_out = st[1] >= nv_b
            if a_out or b_out:
                winner = 0 if (a_out and b_out) else (2 if a_out else 1)
                return (
                    winner * p[H_SW] + (r - 1) * p[H_SR] + (nv_a - st[0]) * p[H_SA] + (nv_b - st[1])
                )
    return (rounds - 1) * p[H_SR] + (nv_a - st[0]) * p[H_SA] + (nv_b - st[1])


# ------------------------------------------------------------ exact helpers
@cache
def _strike_joint(v: tuple[int, ...]) -> tuple[tuple[int, int, float], ...]:
    """Exact law of :func:`strike_flagged`: (wounds, attack succeeded, probability).

    Built from ``rolls.kept_face_probs`` / ``rolls.class_probs``; its wound marginal is
    ``rolls.attack_exact`` (checked by the tests).
    """
    out: dict[tuple[int, int], float] = defaultdict(float)
    att = rolls.class_probs(rolls.kept_face_probs(v[0]), v[1], v[2])
    out[-v[9], 0] += att[rolls.CRITICAL]
    out[0, 0] += att[rolls.FAILURE]
    parry = rolls.class_probs(rolls.kept_face_probs(max(v[6], 1)), v[7], rules.PERFECT_FACE)
    counter = rolls.class_probs(rolls.kept_face_probs(1), v[11], max(v[12], 1))
    for code, wounds in ((rolls.PERFECT, v[4]), (rolls.SUCCESS, v[3])):
        mass = att[code]
        if not v[5]:
            out[wounds, 1] += mass
            continue
        out[wounds, 1] += mass * (parry[rolls.FAILURE] + parry[rolls.CRITICAL])
        parried = mass * (parry[rolls.PERFECT] + parry[rolls.SUCCESS])
        if v[9]:
            out[-v[9], 1] += mass * parry[rolls.PERFECT]
            out[0, 1] += mass * parry[rolls.SUCCESS]
        elif v[10]:
            out[-v[14], 1] += parried * counter[rolls.PERFECT]
            out[-v[13], 1] += parried * counter[rolls.SUCCESS]
            out[0, 1] += parried * (counter[rolls.FAILURE] + counter[rolls.CRITICAL])
        else:
            out[0, 1] += parried
    return tuple((w, h, q) for (w, h), q in out.items() if q > 0)


@cache
def _shot_exact(v: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """Exact law of ``rolls.attack_once`` for one shot (``rolls.attack_exact``)."""
    dist = rolls.attack_exact(np.array(v, dtype=np.int64), bool(v[5]), v[7])
    return tuple((int(k), float(q)) for k, q in zip(dist.outcomes, dist.probs) if q > 0)


def _merge(branches: Iterable[tuple[float, State]]) -> dict[State, float]:
    out: dict[State, float] = defaultdict(float)
    for q, s in branches:
        out[s] += q
    return dict(out)


# ------------------------------------------------------------------- engine
class _Duel:
    """Parameters, choice tables and the exact chain for one pairing."""

    def __init__(self, a: Card, b: Card, options: DuelOptions, activation: str) -> None:
        self.cards = (a, b)
        self.options = options
        self.roll = activation == "roll"
        self.space = DuelSpace(options.max_rounds, health(a), health(b))
        self.nv = (health(a), health(b))
        self.w = max(self.nv)
        self.d0 = math.ceil(options.distance) if options.start == "range" else 0
        w = self.w
        sizes = [N_CONST * 2, N_ROW * 2 * w, 2 * N_KINDS * w * w, 2 * w * w * 12, 2 * w * w * 3]
        offsets = np.cumsum([N_HEADER, *sizes[:-1]])
        p = np.zeros(N_HEADER + sum(sizes), dtype=np.int64)
        p[H_SW : H_SA + 1] = self.space.strides()
        p[H_ROUNDS] = options.max_rounds
        p[H_ROLL] = int(self.roll)
        p[H_D0] = self.d0
        p[H_W] = w
        p[H_CONST : H_FIRE + 1] = offsets
        self.p = p
        for side in (0, 1):
            self._fill_side(side)
        self._activations: dict[tuple[State, int], dict[State, float]] = {}
        self._rounds: dict[tuple[State, int], tuple[dict, dict]] = {}
        self._exact: dict[bool | None, np.ndarray] = {}
        self._best_active = cache(self._best_active_uncached)
        self._fill_tables()

    # ---------------------------------------------------------- stats
    def _fill_side(self, side: int) -> None:
        card, foe = self.cards[side], self.cards[1 - side]
        p = self.p
        base = p[H_CONST] + side * N_CONST
        p[base + C_NV] = card.nv
        p[base + C_DUELLIST] = max(card.aptitude("Duellist"), rules.PERFECT_FACE)
        p[base + C_COMBINED] = card.aptitude("Combined Attack")
        p[base + C_BRUTISH] = card.aptitude("Brutish Strength")
        p[base + C_SACRIFICE] = card.aptitude("Sacrifice")
        p[base + C_RANGE] = card.firing_range
        p[base + C_MOVE_MODE] = int(card.mv is not None)
        p[base + C_COMBINED_SL] = card.nv  # "the starting NV printed on the profile card"
        prestige = card.aptitude("Prestige")
        for wounds in range(card.nv):
            row = p[H_ROWS] + (side * self.w + wounds) * N_ROW
            bonus = prestige if wounds == 0 else 0  # "lost as soon as he takes a wound"
            nv_now = card.nv - wounds  # "SL = NV - current number of wounds +/- modifiers"
            p[row + R_OC] = _level(card.oc, wounds)
            p[row + R_DC] = _level(card.dc, wounds)
            p[row + R_F] = _level(card.f, wounds) if card.can_fire else 0
            p[row + R_MOVE] = max(card.movement - wounds, 0)  # "Movement and Wounds"
            p[row + R_OC_SL] = nv_now + card.modifier("offensive") + bonus
            p[row + R_NOVICE_SL] = p[row + R_OC_SL] + min(wounds, 1)  # one wound ignored
            p[row + R_DC_SL] = nv_now + card.modifier("defensive") + bonus
            p[row + R_FIRE_SL] = nv_now + card.modifier("firing") + bonus + foe.shot_modifier

    def row(self, side: int, wounds: int, col: int) -> int:
        return int(self.p[self.p[H_ROWS] + (side * self.w + wounds) * N_ROW + col])

    def const(self, side: int, col: int) -> int:
        return int(self.p[self.p[H_CONST] + side * N_CONST + col])

    def _vec(self, x: int, kind: int, wx: int, plevel: int, wy: int) -> tuple[int, ...]:
        v = np.zeros(N_ATTACK, dtype=np.int64)
        fill_attack(self.p, v, x, kind, wx, plevel, wy)
        return tuple(int(t) for t in v)

    # -------------------------------------------------- exact actions
    def _parry(self, s: list[int], y: int, kind: int, x: int, override: int | None) -> int:
        dc = s[S_DC + y]
        if dc == DC_OFF:
            return 0
        if dc == DC_HEROIC:
            return HEROIC_PARRY
        level = override if override is not None else self.parry_table[y, kind, s[y], s[x]]
        if level == HEROIC_PARRY:
            s[S_DC + y] = DC_HEROIC
        return int(level)

    def _wound(self, s: list[int], side: int, wounds: int) -> None:
        s[side] = min(s[side] + wounds, self.nv[side])
        if s[S_DC + side] == DC_ON:
            s[S_DC + side] = DC_OFF

    def _apply(self, s: list[int], x: int, value: int) -> None:
        if value > 0:
            self._wound(s, 1 - x, value)
        elif value < 0:
            self._wound(s, x, -value)

    def _alive(self, s: list[int] | State, side: int) -> bool:
        return s[side] < self.nv[side]

    def strikes(
        self, st: State, x: int, kind: int, override: int | None = None
    ) -> list[tuple[float, State, int]]:
        """Exact :func:`_strikes`: (probability, state, attack roll succeeded)."""
        y = 1 - x
        s = list(st)
        level = self._parry(s, y, kind, x, override)
        out: list[tuple[float, State, int]] = []
        for value, hit, q in _strike_joint(self._vec(x, kind, s[x], level, s[y])):
            s1 = s.copy()
            self._apply(s1, x, value)
            if kind == SKILLED and value > 0 and self._alive(s1, y):
                level2 = self._parry(s1, y, kind, x, override)
                for value2, hit2, q2 in _strike_joint(self._vec(x, 1, s1[x], level2, s1[y])):
                    s2 = s1.copy()
                    self._apply(s2, x, value2)
                    out.append((q * q2, _state(s2), max(hit, hit2)))
            else:
                out.append((q, _state(s1), hit))
        return out

    def offensive(self, st: State, x: int, kind: int) -> dict[State, float]:
        """Exact :func:`_offensive`."""
        y = 1 - x
        combined = rolls.class_probs(
            rolls.kept_face_probs(1), self.const(x, C_COMBINED_SL), rules.PERFECT_FACE
        )
        out: list[tuple[float, State]] = []
        for q, s0, hit in self.strikes(st, x, kind):
            branches = [(q, list(s0), hit)]
            if s0[S_CA + x] > 0:
                s = list(s0)
                s[S_CA + x] -= 1
                branches = [(q, s, hit)]
                if self._alive(s, x) and self._alive(s, y):
                    branches = []
                    for code, wounds in ((rolls.PERFECT, 2), (rolls.SUCCESS, 1)):
                        s1 = s.copy()
                        self._wound(s1, y, wounds)
                        branches.append((q * combined[code], s1, 1))
                    miss = combined[rolls.FAILURE] + combined[rolls.CRITICAL]
                    branches.append((q * miss, s, hit))
            for qb, s, h in branches:
                if qb <= 0:
                    continue
                brutish = self.const(x, C_BRUTISH)
                if h and brutish and self._alive(s, x) and self._alive(s, y):
                    s = s.copy()
                    s[S_D] = brutish
                out.append((qb, _state(s)))
        return _merge(out)

    def fire(self, st: State, x: int, kind: int, override: int | None = None) -> dict[State, float]:
        """Exact :func:`_fire`."""
        y = 1 - x
        shots = rules.HEROIC_FIRING_SHOTS if kind == HEROIC_SHOTS else 1
        current: list[tuple[float, list[int]]] = [(1.0, list(st))]
        for _ in range(shots):
            nxt: list[tuple[float, list[int]]] = []
            for q, s in current:
                if not self._alive(s, y):
                    nxt.append((q, s))
                    continue
                s = s.copy()
                level = self._parry(s, y, kind, x, override)
                for value, q2 in _shot_exact(self._vec(x, kind, s[x], level, s[y])):
                    s1 = s.copy()
                    self._apply(s1, x, value)
                    nxt.append((q * q2, s1))
            current = nxt
        return _merge((q, _state(s)) for q, s in current)

    def act(self, st: State, x: int, code: int) -> dict[State, float]:
        """Exact :func:`_act`."""
        y = 1 - x
        if 1 <= code <= TOP_LEVEL:
            return self.offensive(st, x, code)
        if code == FIRE_CONTACT:
            return self.fire(st, x, SHOT)
        if STEP_BACK < code < DEFEND:
            s = list(st)
            s[S_D] = 1
            return self.fire(_state(s), x, code - STEP_BACK)
        s = list(st)
        if code == DEFEND:
            s[S_DC + x] = DC_ON
        elif code == SACRIFICE:
            s[x] = self.nv[x]
            self._wound(s, y, self.const(x, C_SACRIFICE))
        return {_state(s): 1.0}

    def activate(self, st: State, x: int) -> dict[State, float]:
        """Exact :func:`_activate` (cached)."""
        key = (st, x)
        if key not in self._activations:
            self._activations[key] = self._activate(st, x)
        return self._activations[key]

    def _activate(self, st: State, x: int) -> dict[State, float]:
        y = 1 - x
        s = list(st)
        s[S_DC + x] = DC_OFF
        wx, d = s[x], s[S_D]
        if d > 0:
            move = self.row(x, wx, R_MOVE)
            reach = self.const(x, C_RANGE)
            if self.row(x, wx, R_F) > 0 and d + 1 - reach <= move:
                if d + 1 > reach:
                    s[S_D] = reach - 1
                return self.fire(_state(s), x, int(self.fire_table[x, wx, s[y], s[S_DC + y]]))
            if move < d:
                if self.const(x, C_MOVE_MODE):
                    if d <= move + BASIC_MOVE_BONUS and self._contact_code(s, x) == SACRIFICE:
                        s[S_D] = 0
                        return self.act(_state(s), x, SACRIFICE)
                    s[S_D] = max(d - move - BASIC_MOVE_BONUS, 0)
                else:
                    s[S_D] = d - move
                    if self.row(x, wx, R_DC) > 0:
                        s[S_DC + x] = DC_ON
                return {_state(s): 1.0}
            s[S_D] = 0
        return self.act(_state(s), x, self._contact_code(s, x))

    def _contact_code(self, s: list[int], x: int) -> int:
        y = 1 - x
        flags = min(s[S_CA + x], 1), min(s[S_CA + y], 1)
        return int(self.contact_table[x, s[x], s[y], s[S_DC + y], flags[0], flags[1]])

    # ---------------------------------------------------- choice rules
    def _net(self, st: State, x: int, outcome: dict[State, float]) -> float:
        y = 1 - x
        return sum(q * ((s[y] - st[y]) - (s[x] - st[x])) for s, q in outcome.items())

    def _contact_state(self, x: int, wx: int, wy: int, dcy: int, cax: int, cay: int) -> State:
        s = [0] * N_STATE
        s[x], s[1 - x] = wx, wy
        s[S_DC + 1 - x] = dcy
        s[S_CA + x], s[S_CA + 1 - x] = cax, cay
        return _state(s)

    def _parry_choices(self, y: int, wy: int, kind: int) -> list[int]:
        top = min(self.row(y, wy, R_DC), TOP_LEVEL)
        if kind <= TOP_LEVEL:
            return list(range(1, top + 1))
        return [BASIC_PARRY] + ([HEROIC_PARRY] if top >= HEROIC_PARRY else [])

    def _attack_kinds(self, x: int, wx: int, contact: bool) -> list[int]:
        """Codes of the attacks side ``x`` can make (in contact, or kinds at range)."""
        codes: list[int] = []
        if contact:
            codes += list(range(1, min(self.row(x, wx, R_OC), TOP_LEVEL) + 1))
        f = self.row(x, wx, R_F)
        if f > 0:
            kinds = [SHOT] + ([MASTER_SHOT] if f >= MASTER else [])
            kinds += [HEROIC_SHOTS] if f >= HEROIC else []
            if not contact:
                return kinds
            if f >= NOVICE:
                codes.append(FIRE_CONTACT)
            if self.row(x, wx, R_MOVE) >= STEP_BACK_COST:
                codes += [STEP_BACK + k for k in kinds]
        return codes

    def _fill_tables(self) -> None:
        w = self.w
        self.parry_table = np.ones((2, N_KINDS, w, w), dtype=np.int64)
        self.fire_table = np.full((2, w, w, 3), SHOT, dtype=np.int64)
        self.contact_table = np.zeros((2, w, w, 3, 2, 2), dtype=np.int64)
        for y in (0, 1):
            x = 1 - y
            for wy in range(self.nv[y]):
                if self.row(y, wy, R_DC) == 0:
                    continue
                for wx in range(self.nv[x]):
                    for kind in self._attack_kinds(x, wx, True) + self._attack_kinds(x, wx, False):
                        if kind >= N_KINDS:
                            continue
                        self.parry_table[y, kind, wy, wx] = self._best_parry(y, kind, wy, wx)
        for x in (0, 1):
            y = 1 - x
            dcs = self._dc_states(y)
            for wx in range(self.nv[x]):
                for wy in range(self.nv[y]):
                    for dcy in dcs:
                        if self.row(x, wx, R_F) > 0:
                            self.fire_table[x, wx, wy, dcy] = self._best_fire(x, wx, wy, dcy)
                        for cax in range(min(self.const(x, C_COMBINED), 1) + 1):
                            for cay in range(min(self.const(y, C_COMBINED), 1) + 1):
                                choice = self._best_contact(x, wx, wy, dcy, cax, cay)
                                self.contact_table[x, wx, wy, dcy, cax, cay] = choice
        p = self.p
        p[p[H_PARRY] : p[H_CONTACT]] = self.parry_table.ravel()
        p[p[H_CONTACT] : p[H_FIRE]] = self.contact_table.ravel()
        p[p[H_FIRE] :] = self.fire_table.ravel()

    def _dc_states(self, side: int) -> list[int]:
        top = self.row(side, 0, R_DC)
        return [DC_OFF] + ([DC_ON] if top else []) + ([DC_HEROIC] if top >= HEROIC else [])

    def _best_parry(self, y: int, kind: int, wy: int, wx: int) -> int:
        x = 1 - y
        st = self._contact_state(x, wx, wy, DC_ON, 0, 0)
        best, best_net = BASIC_PARRY, math.inf
        for level in self._parry_choices(y, wy, kind):
            if kind <= TOP_LEVEL:
                outcome = _merge((q, s) for q, s, _ in self.strikes(st, x, kind, level))
            else:
                outcome = self.fire(st, x, kind, level)
            net = self._net(st, x, outcome)
            if net < best_net - 1e-12:
                best, best_net = level, net
        return best

    def _best_fire(self, x: int, wx: int, wy: int, dcy: int) -> int:
        st = self._contact_state(x, wx, wy, dcy, 0, 0)
        best, best_net = SHOT, -math.inf
        for kind in self._attack_kinds(x, wx, False):
            net = self._net(st, x, self.fire(st, x, kind))
            if net > best_net + 1e-12:
                best, best_net = kind, net
        return best

    def _best_active_uncached(self, x: int, wx: int, wy: int, dcy: int, cax: int) -> float:
        """Best net of an attack by ``x`` in contact (0 when he has none)."""
        st = self._contact_state(x, wx, wy, dcy, cax, 0)
        nets = [self._net(st, x, self.act(st, x, c)) for c in self._attack_kinds(x, wx, True)]
        return max(nets, default=0.0)

    def _best_contact(self, x: int, wx: int, wy: int, dcy: int, cax: int, cay: int) -> int:
        y = 1 - x
        st = self._contact_state(x, wx, wy, dcy, cax, cay)
        reply = max(self._best_active(y, wy, wx, DC_OFF, cay), 0.0)
        best, best_net = NOTHING, -math.inf
        for code in self._attack_kinds(x, wx, True):
            net = self._net(st, x, self.act(st, x, code)) - reply
            if net > best_net + 1e-12:
                best, best_net = code, net
        if self.row(x, wx, R_DC) > 0 and dcy == DC_OFF:
            net = -self._best_active(y, wy, wx, DC_ON, cay)
            if net > best_net + 1e-12:
                best, best_net = DEFEND, net
        sacrifice = self.const(x, C_SACRIFICE)
        left = self.nv[y] - wy
        if self.const(x, C_MOVE_MODE) and sacrifice >= left:
            net = float(left - (self.nv[x] - wx))
            if net > best_net + 1e-12:
                best = SACRIFICE
        return best

    # ------------------------------------------------------- the chain
    def params(self, a_first: bool) -> np.ndarray:
        p = self.p.copy()
        p[H_AFIRST] = int(a_first)
        return p

    def exact(self, a_first: bool) -> np.ndarray:
        """Probability of every index of the space: the chain, Round by Round."""
        key = None if self.roll else a_first  # the Activation Roll ignores a_first
        if key not in self._exact:
            self._exact[key] = self._chain(a_first)
        return self._exact[key].copy()

    def _chain(self, a_first: bool) -> np.ndarray:
        space = self.space
        probs = np.zeros(space.size)
        if self.roll:
            q = float(rolls.ACTIVATION.exact(rolls.ACTIVATION.prepare({})).probs[1])
            firsts = [(0, q), (1, 1.0 - q)]
        else:
            firsts = [(0 if a_first else 1, 1.0)]
        start = [0] * N_STATE
        start[S_CA], start[S_CA + 1] = self.const(0, C_COMBINED), self.const(1, C_COMBINED)
        start[S_D] = self.d0
        current: dict[State, float] = {_state(start): 1.0}
        for r in range(1, space.max_rounds + 1):
            nxt: dict[State, float] = defaultdict(float)
            for st, mass in current.items():
                for first, q_first in firsts:
                    ends, survivors = self._round(st, first)
                    for (winner, ha, hb), q in ends.items():
                        probs[space.index(winner, r, ha, hb)] += mass * q_first * q
                    for s, q in survivors.items():
                        nxt[s] += mass * q_first * q
            current = nxt
        for st, mass in current.items():
            probs[space.index(0, space.max_rounds, self.nv[0] - st[0], self.nv[1] - st[1])] += mass
        return probs

    def _round(
        self, st: State, first: int
    ) -> tuple[dict[tuple[int, int, int], float], dict[State, float]]:
        key = (st, first)
        if key not in self._rounds:
            ends: dict[tuple[int, int, int], float] = defaultdict(float)
            survivors: dict[State, float] = defaultdict(float)
            current = {st: 1.0}
            for x in (first, 1 - first):
                nxt: dict[State, float] = defaultdict(float)
                for s, q in current.items():
                    for s1, q1 in self.activate(s, x).items():
                        a_out, b_out = s1[0] >= self.nv[0], s1[1] >= self.nv[1]
                        if a_out or b_out:
                            winner = 0 if (a_out and b_out) else (2 if a_out else 1)
                            ends[winner, self.nv[0] - s1[0], self.nv[1] - s1[1]] += q * q1
                        else:
                            nxt[s1] += q * q1
                current = nxt
            survivors.update(current)
            self._rounds[key] = (dict(ends), dict(survivors))
        return self._rounds[key]


def _state(s: list[int]) -> State:
    return (s[0], s[1], s[2], s[3], s[4], s[5], s[6])


def _level(printed: int | None, wounds: int) -> int:
    """Mastery Level left after wounds: -1 per wound, never below 1; 0 for a dash."""
    if printed is None:
        return 0
    return max(printed - wounds, 1)


# ---------------------------------------------------------------- contract
def _notes(duel: _Duel) -> list[str]:
    a, b = duel.cards
    notes = [
        "order: Activation Roll every Round, the winner activates first"
        if duel.roll
        else "order: the --first side activates first in every Round",
        "contact choice: best expected wound balance (parry levels and mode rule in "
        "analyzer.games.hybrid.duel)",
        "Skilled Strike's second strike follows a strike that wounds; Combined Attack "
        "rolls one die at the printed NV",
        "not modelled: Action/Event/Army/Aura/Mutation cards, Conviction, Frenzy, rear "
        "attacks, Infiltration, Skilled Firing ambushes, Moving levels 2-6",
    ]
    if duel.d0:
        notes.append(f"start: {duel.d0} empty squares between the bases (1-D)")
    for card in (a, b):
        if card.can_fire:
            notes.append(f"{card.name} fires up to {card.firing_range} squares")
    return notes


def duel_model(a: Card, b: Card, options: DuelOptions, activation: str | None = None) -> DuelModel:
    """The Hybrid duel of ``a`` against ``b`` (module docstring).

    ``activation``: ``"roll"`` (an Activation Roll before every Round) or ``"fixed"``
    (the side given by ``run_duel`` activates first every Round); by default the roll
    with ``--first alternate`` and fixed with ``--first a`` / ``--first b``.
    """
    if activation is None:
        activation = "roll" if options.first == "alternate" else "fixed"
    if activation not in ("roll", "fixed"):
        raise InputError(f"activation must be 'roll' or 'fixed' (got {activation!r})")
    duel = _Duel(a, b, options, activation)
    return DuelModel(
        space=duel.space,
        trial=duel_trial,
        params=duel.params,
        exact=duel.exact,
        notes=_notes(duel),
    )


def activation_summary(
    attacker: Card, defender: Card, defending: bool = False
) -> ActivationSummary:
    """Exact effect of the attacker's best attack in contact on a fresh defender.

    The best attack is the one with the highest expected wound balance (the duel's rule);
    ``defending``: the defender is in Defensive Combat Mode and parries (his duel rule).
    Combined Attack is used when the attacker has it.
    """
    duel = _Duel(attacker, defender, DuelOptions(first="a"), "fixed")
    dcy = DC_ON if defending and defender.dc is not None else DC_OFF
    st = duel._contact_state(0, 0, 0, dcy, min(duel.const(0, C_COMBINED), 1), 0)
    best: dict[State, float] = {st: 1.0}
    best_net = -math.inf
    for code in duel._attack_kinds(0, 0, True):
        outcome = duel.act(st, 0, code)
        net = duel._net(st, 0, outcome)
        if net > best_net + 1e-12:
            best, best_net = outcome, net
    wounds = sum(q * s[1] for s, q in best.items())
    kill = sum(q for s, q in best.items() if s[1] >= duel.nv[1])
    return ActivationSummary(
        expected_wounds=float(wounds), kill_probability=float(kill), target_health=health(defender)
    )


__all__ = ["activation_summary", "duel_model", "duel_trial", "fill_attack", "strike_flagged"]
