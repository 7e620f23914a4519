"""d20 skirmish duels: two figurines fight until one is killed or the round cap.

Rulebook ``d20-skirmish.txt``.  Sequence ("3. The Game's Turns and Phases"): each
player's Turn is a movement phase then an action/shooting phase (HtH included).
The players take their Turns one after the other ("Ready to shoot position":
a figure may shoot "during the opponent's movement phase", so each player has
his own phases); a duel *round* is one Turn of each side.  "Who starts ?" is
thrown once per game, so the side chosen by ``DuelOptions.first`` plays first
in every round (the note gives the chance that A wins that throw, with +1 per
infiltration/precognition character).

Attacks ("3.2 Shots", "3.3 Hand to Hand combat", via :mod:`analyzer.games.d20.rolls`):
a shot is Shot skill + Dexterity + weapon Power + 1D20, a HtH attack is HtH skill
+ Force (if printed) + weapon Power + 1D20; a result above the target's Physical
Defense removes the difference in Constitution Points (CP).  The figurine is killed
when its last CP is lost.  Damage is applied at once, so a figurine killed in the
first Turn of a round does not act in that round.

Deterministic choices (documented interpretations, see :class:`DuelRules`):

* *In contact* (``--start melee``, or once a move closes the distance to 0) the
  figures stay in contact (retreat is not modelled) and each action is the
  figure's best contact attack by expected CP lost against this opponent: a HtH
  weapon, a shooting weapon used as a club (Power 1, "3.3" NOTA BENE), bare hands
  (Power 0, when the card lists no weapon) or, because "Figurines involved in HtH
  may shoot at each other", a shot with a gun (never a grenade: "impossible to
  throw a grenade in HtH").  Ties go to the HtH attack, then to card order.
* *At a distance* (``--start range``, 1-D, cm): a figure whose best contact attack
  beats every shot it has (expected CP lost; a figure without gun is one) is a
  *brawler*: it moves its full Movement toward the enemy and, if that reaches
  contact, attacks in HtH in its action phase, else shoots if a gun now reaches.
  Any other figure is a *shooter*: if a gun reaches it stands and shoots, else it
  moves toward the enemy but stops at its longest Reach ("The Reach is the
  maximum distance to which a weapon can shoot"), then shoots if it can.  At a
  distance a figure fires its best weapon in reach (expected CP lost).
* Not modelled (no 1-D meaning or not a duel matter): terrain, cover, rear arcs,
  watchful movement, ready-to-shoot, retreat, synergy, objects.  "Automatic fire"
  has no rule text in the rulebook and has no effect.

Because the movement choices depend only on the two cards, the distance in every
Turn is fixed in advance (:func:`schedule`); the exact engine is then a Markov
chain over (round, CP of A, CP of B), and the Monte Carlo kernel plays the same
schedule die by die with :func:`analyzer.games.d20.rolls.versus_defense_trial`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, lru_cache

import numpy as np

from analyzer.dice import exact as ex
from analyzer.dice.simulate import trial_kernel
from analyzer.duels import DRAW, WIN_A, WIN_B, ActivationSummary, DuelModel, DuelOptions, DuelSpace
from analyzer.games.d20 import rolls
from analyzer.games.d20 import rules as d20_rules
from analyzer.games.d20.rolls import versus_defense_trial
from analyzer.games.d20.units import FIRST_PLAYER_CHARACTERISTICS, Card, Weapon, health

#: Power of a figure fighting bare-handed (no weapon at all on its card).  The
#: rulebook is silent; a gun used as a club already has only Power 1 ("3.3").
UNARMED_POWER = 0
#: Params header: rounds, health A, health B, three strides, slot width.
_HEADER = 7


@dataclass(frozen=True)
class DuelRules:
    """Interpretations a user may want to change (defaults: the natural reading).

    ``dexterity_in_shot``: "3.2 Shots" says shooting "combine[s] Skill, Dexterity, and
    the Power of the weapon", so a shot adds the card's Dexterity to its Shot skill
    (as ``rolls.SHOT`` does); set False if a card's printed Shot already includes it.
    ``shoot_in_hth``: "Figurines involved in HtH may shoot at each other": guns are
    allowed among the contact attacks.
    ``all_weapons``: the Maïnomaï example ("They can use their guns AND their hand to
    hand combat weapons") and "A figurine with two weapons cannot shoot at more than
    one target" could mean that a figure uses every weapon in one action phase; when
    True, at a distance every gun in reach fires and in contact the best HtH attack
    is made plus one shot with every gun (no grenade).  Default False: one attack.
    """

    dexterity_in_shot: bool = True
    shoot_in_hth: bool = True
    all_weapons: bool = False


DEFAULT_RULES = DuelRules()


@dataclass(frozen=True)
class Attack:
    """One attack roll: ``total + 1D20`` against ``defense``."""

    label: str
    total: int
    defense: int

    def damage(self) -> ex.Distribution:
        """CP lost ("3.2 Shots": the difference when higher than the PD, else 0)."""
        return rolls.cp_lost(self.total, self.defense)

    def expected(self) -> float:
        return self.damage().mean()


def shot(attacker: Card, weapon: Weapon, defender: Card, how: DuelRules) -> Attack:
    """A shot with ``weapon`` ("3.2 Shots"; totals from :data:`rolls.SHOT`)."""
    p = rolls.SHOT.prepare(
        {
            "skill": attacker.skill.shot,
            "dexterity": attacker.dexterity if how.dexterity_in_shot else 0,
            "power": weapon.power,
            "defense": defender.physical_defense,
        }
    )
    return Attack(f"shot: {weapon.name}", p["attack_total"], p["effective_defense"])


def hth(attacker: Card, power: int, label: str, defender: Card) -> Attack:
    """A HtH attack with a weapon of ``power`` ("3.3"; totals from :data:`rolls.MELEE`)."""
    p = rolls.MELEE.prepare(
        {
            "skill": attacker.skill.hth,
            "force": attacker.force or 0,
            "power": power,
            "defense": defender.physical_defense,
        }
    )
    return Attack(f"HtH: {label}", p["attack_total"], p["effective_defense"])


def _best(attacks: list[Attack]) -> Attack:
    """Highest expected CP lost; the first listed wins ties."""
    return max(attacks, key=lambda a: (a.expected(), -attacks.index(a)))


def hth_attacks(attacker: Card, defender: Card) -> list[Attack]:
    """Every HtH attack: HtH weapons, guns as clubs (Power 1), or bare hands."""
    attacks = [hth(attacker, w.power, w.name, defender) for w in attacker.hth_weapons]
    attacks += [
        hth(attacker, d20_rules.IMPROVISED_HTH_POWER, f"{w.name} as a club", defender)
        for w in attacker.shooting_weapons
    ]
    return attacks or [hth(attacker, UNARMED_POWER, "bare hands", defender)]


def contact_action(attacker: Card, defender: Card, how: DuelRules = DEFAULT_RULES) -> list[Attack]:
    """The attacks of one action phase in contact (see the module docstring)."""
    melee = _best(hth_attacks(attacker, defender))
    guns = [shot(attacker, w, defender, how) for w in attacker.shooting_weapons if not w.is_grenade]
    if not how.shoot_in_hth or not guns:
        return [melee]
    if how.all_weapons:
        return [melee, *guns]
    return [_best([melee, *guns])]


def ranged_action(
    attacker: Card, defender: Card, distance: float, how: DuelRules = DEFAULT_RULES
) -> list[Attack]:
    """The shots of one action phase at ``distance`` cm (empty when no gun reaches)."""
    guns = [
        shot(attacker, w, defender, how)
        for w in attacker.shooting_weapons
        if w.range_cm >= distance
    ]
    if not guns or how.all_weapons:
        return guns
    return [_best(guns)]


def _expected(attacks: list[Attack]) -> float:
    return sum(a.expected() for a in attacks)


def is_brawler(attacker: Card, defender: Card, how: DuelRules = DEFAULT_RULES) -> bool:
    """Closes to contact: its contact action beats every shot it can make at a distance."""
    if not attacker.shooting_weapons:
        return True
    best_ranged = _expected(ranged_action(attacker, defender, 0.0, how))
    return _expected(contact_action(attacker, defender, how)) > best_ranged


@dataclass(frozen=True)
class Slot:
    """One Turn: the acting side (0 A, 1 B), its attacks and the distance after moving."""

    side: int
    attacks: tuple[Attack, ...]
    distance: float


def schedule(
    a: Card, b: Card, options: DuelOptions, a_first: bool, how: DuelRules = DEFAULT_RULES
) -> list[tuple[Slot, Slot]]:
    """The two Turns of every round: movement then action phase of each side in turn."""
    cards = (a, b)
    distance = 0.0 if options.start == "melee" else float(options.distance)
    brawler = (is_brawler(a, b, how), is_brawler(b, a, how))
    reach = tuple(max((w.range_cm for w in c.shooting_weapons), default=0) for c in cards)
    order = (0, 1) if a_first else (1, 0)
    rounds: list[tuple[Slot, Slot]] = []
    for _ in range(options.max_rounds):
        turns = []
        for side in order:
            me, enemy = cards[side], cards[1 - side]
            if distance > 0:  # "3.1 Movements"
                if brawler[side]:
                    distance = max(distance - me.movement, 0.0)
                elif reach[side] < distance:
                    distance = max(distance - me.movement, float(reach[side]))
            if distance <= 0:
                attacks = contact_action(me, enemy, how)
            else:
                attacks = ranged_action(me, enemy, distance, how)
            turns.append(Slot(side, tuple(attacks), distance))
        rounds.append((turns[0], turns[1]))
    return rounds


@lru_cache(maxsize=4096)
def _damage(attacks: tuple[Attack, ...]) -> np.ndarray:
    """Exact CP lost by the target in one action phase (sum of independent attacks)."""
    dist = ex.point(0)
    for attack in attacks:
        dist = ex.add(dist, attack.damage())
    return dist.widen(0, dist.highest).probs


def _hit(alive: np.ndarray, damage: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Apply one action phase to the health on the last axis of ``alive``.

    Returns the surviving mass (target still has CP >= 1) and the mass killed per
    row (remaining CP of the other side).
    """
    top = alive.shape[1] - 1
    after = damage[0] * alive
    for d in range(1, min(damage.size, top + 1)):
        if damage[d]:
            after[:, 1 : top + 1 - d] += damage[d] * alive[:, 1 + d :]
    padded = np.zeros(max(damage.size, top + 1))
    padded[: damage.size] = damage
    at_least = np.cumsum(padded[::-1])[::-1]  # at_least[h] = P(damage >= h)
    killed = alive[:, 1:] @ at_least[1 : top + 1]
    return after, killed


def exact_outcome(space: DuelSpace, rounds: list[tuple[Slot, Slot]]) -> np.ndarray:
    """Probability of every index of ``space``: Markov chain over (round, CP A, CP B)."""
    out = np.zeros((3, space.max_rounds, space.health_a + 1, space.health_b + 1))
    alive = np.zeros((space.health_a + 1, space.health_b + 1))
    alive[space.health_a, space.health_b] = 1.0
    for r, turns in enumerate(rounds):
        for slot in turns:
            if not slot.attacks:
                continue
            damage = _damage(slot.attacks)
            if slot.side == 0:
                alive, killed = _hit(alive, damage)
                out[WIN_A, r, :, 0] += killed
            else:
                after, killed = _hit(alive.T, damage)
                alive = after.T
                out[WIN_B, r, 0, :] += killed
    out[DRAW, space.max_rounds - 1] += alive
    return out.reshape(-1)


def encode(space: DuelSpace, rounds: list[tuple[Slot, Slot]]) -> np.ndarray:
    """Params of :func:`duel_trial`: header, then per Turn: side, n, (total, PD) * width."""
    width = max((len(s.attacks) for turns in rounds for s in turns), default=0)
    slot_size = 2 + 2 * width
    params = np.zeros(_HEADER + 2 * len(rounds) * slot_size, dtype=np.int64)
    params[:_HEADER] = (space.max_rounds, space.health_a, space.health_b, *space.strides(), width)
    for i, slot in enumerate(s for turns in rounds for s in turns):
        base = _HEADER + i * slot_size
        params[base] = slot.side
        params[base + 1] = len(slot.attacks)
        for k, attack in enumerate(slot.attacks):
            params[base + 2 + 2 * k] = attack.total
            params[base + 3 + 2 * k] = attack.defense
    return params


@trial_kernel
def duel_trial(state, p):  # pragma: no cover - numba
    """One duel, Turn by Turn, following the encoded schedule; returns the DuelSpace index."""
    n_rounds = p[0]
    health_a = p[1]
    health_b = p[2]
    s_w = p[3]
    s_r = p[4]
    s_a = p[5]
    slot_size = 2 + 2 * p[6]
    for r in range(n_rounds):
        for s in range(2):
            base = _HEADER + (2 * r + s) * slot_size
            for k in range(p[base + 1]):
                off = base + 2 + 2 * k
                lost = versus_defense_trial(state, p[off : off + 2])
                if p[base] == 0:
                    health_b -= lost
                    if health_b <= 0:
                        return WIN_A * s_w + r * s_r + health_a * s_a
                else:
                    health_a -= lost
                    if health_a <= 0:
                        return WIN_B * s_w + r * s_r + health_b
    return DRAW * s_w + (n_rounds - 1) * s_r + health_a * s_a + health_b


def first_player_chance(a: Card, b: Card) -> float:
    """ "Who starts ?" (``rolls.FIRST_PLAYER``): chance that A's player chooses who starts."""
    bonus = [int(any(s in FIRST_PLAYER_CHARACTERISTICS for s in c.special)) for c in (a, b)]
    p = rolls.FIRST_PLAYER.prepare({"characters": bonus[0], "enemy_characters": bonus[1]})
    return float(rolls.FIRST_PLAYER.exact(p).probs[1])


def _describe(a: Card, b: Card, options: DuelOptions, rounds: list[tuple[Slot, Slot]]) -> str:
    if options.start == "melee":
        return "the figures start in contact"
    names = (a.name, b.name)
    for r, turns in enumerate(rounds):
        for slot in turns:
            if slot.distance <= 0:
                return f"contact in round {r + 1} ({names[slot.side]} closes)"
    return "the figures never reach contact within the round cap"


def duel_model(
    a: Card,
    b: Card,
    options: DuelOptions,
    how: DuelRules = DEFAULT_RULES,
    *,
    dexterity_in_shot: bool | None = None,
    shoot_in_hth: bool | None = None,
    all_weapons: bool | None = None,
) -> DuelModel:
    """Duel of ``a`` against ``b``; exact Markov chain and Monte Carlo kernel."""
    overrides = {
        "dexterity_in_shot": dexterity_in_shot,
        "shoot_in_hth": shoot_in_hth,
        "all_weapons": all_weapons,
    }
    how = replace(how, **{k: v for k, v in overrides.items() if v is not None})
    space = DuelSpace(options.max_rounds, health(a), health(b))

    @cache
    def rounds(a_first: bool) -> list[tuple[Slot, Slot]]:
        return schedule(a, b, options, a_first, how)

    def params(a_first: bool) -> np.ndarray:
        return encode(space, rounds(a_first))

    def exact(a_first: bool) -> np.ndarray:
        return exact_outcome(space, rounds(a_first))

    notes = [
        f"'Who starts ?': {a.name}'s player wins the throw with p = "
        f"{first_player_chance(a, b):.4f}",
        f"A first: {_describe(a, b, options, rounds(True))}; "
        f"B first: {_describe(a, b, options, rounds(False))}",
    ]
    for card, enemy in ((a, b), (b, a)):
        melee = ", ".join(x.label for x in contact_action(card, enemy, how))
        notes.append(
            f"{card.name}: {'brawler' if is_brawler(card, enemy, how) else 'shooter'}; "
            f"in contact: {melee}"
        )
    return DuelModel(space=space, trial=duel_trial, params=params, exact=exact, notes=notes)


def activation_summary(
    attacker: Card, defender: Card, how: DuelRules = DEFAULT_RULES
) -> ActivationSummary:
    """Exact effect of one action phase of ``attacker`` in contact with a fresh ``defender``.

    ``expected_wounds`` counts the CP actually removed (capped at the defender's CP).
    """
    damage = _damage(tuple(contact_action(attacker, defender, how)))
    target = health(defender)
    wounds = np.minimum(np.arange(damage.size), target)
    return ActivationSummary(
        expected_wounds=float(wounds @ damage),
        kill_probability=float(damage[target:].sum()),
        target_health=target,
    )
