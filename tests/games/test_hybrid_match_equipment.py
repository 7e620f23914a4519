"""Hybrid match engine: Aura/X with the Aura of Vengeance and Mutation/X with Purulent
Excrescence ("Aura Cards", "Mutation Cards", "Errata"), on hand-built boards with
scripted D10s (exact outcomes), and the card draws at the start of a game."""

from __future__ import annotations

import math

from analyzer.games.hybrid.match import layout as L
from analyzer.games.hybrid.match.sandbox import Sandbox
from tests.games.test_hybrid_match_rules import (
    B_HYBRID,
    B_PEST,
    HYBRID,
    PEST,
    SENESCHAL,
    SNIPER,
    files,  # noqa: F401  (the module's fixture)
    setup_with,
)


def fresh(files, **opts) -> Sandbox:  # noqa: F811
    return Sandbox(setup_with(files, **opts))


def strike_line(box: Sandbox) -> str:
    return next(x for x in reversed(box.lines()) if " Strike at " in x)


def test_aura_of_vengeance_gives_plus_one_to_friends_striking_inside_it(files) -> None:  # noqa: F811
    """The Seneschal strikes at SL 5 (NV 4 + Combined Weapon 1); with the Sniper's Aura of
    Vengeance switched on and the target 3 squares from him (Aura/3) at SL 6: a 6 wounds.
    Four squares away, or the Aura held but not switched on: SL 5, the 6 misses."""
    box = fresh(files)
    box.place(SENESCHAL, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "south")
    box.place(SNIPER, 8, 4, "west")  # 3 squares east of the target
    box.give_aura(SNIPER)
    box.script([6])
    box.strike(SENESCHAL, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1
    assert "SL 6" in strike_line(box)
    box.place(SNIPER, 9, 4, "west")  # 4 squares: outside the zone
    box.script([6])
    box.strike(SENESCHAL, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1 and "SL 5" in strike_line(box)
    box.place(SNIPER, 8, 4, "west")
    box.give_aura(SNIPER, on=False)  # held, not switched on
    box.script([6])
    box.strike(SENESCHAL, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1 and "SL 5" in strike_line(box)


def test_aura_never_helps_its_bearer_nor_the_enemy(files) -> None:  # noqa: F811
    """The bearer striking inside his own Aura keeps his SL (NV 5 + 0 = 5); an enemy
    striking a warrior of the bearer's side inside it gets nothing either."""
    box = fresh(files)
    box.place(SNIPER, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "south")
    box.give_aura(SNIPER)
    box.script([6])
    box.strike(SNIPER, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 0 and "SL 5" in strike_line(box)
    box.script([9])  # B's Hybrid: NV 3 + Fused Weapons 2 = SL 5
    box.strike(B_HYBRID, SNIPER, 1)
    assert "SL 5" in strike_line(box)


def test_the_aura_is_switched_on_when_its_bearer_activates(files) -> None:  # noqa: F811
    box = fresh(files)
    box.place(SNIPER, 5, 14, "north")
    box.place(B_HYBRID, 5, 1, "south")
    box.give_aura(SNIPER, on=False)
    assert box.aura(SNIPER) == 1
    box.activate(SNIPER)
    assert box.aura(SNIPER) == 2
    assert any("switches on the Aura of Vengeance" in x for x in box.lines())


def test_cards_held_at_the_start_with_the_named_options(files) -> None:  # noqa: F811
    """aura=vengeance and mutation=purulent: the Aura bearer and each side with a
    Mutation/X warrior hold the printed card; none: nobody does."""
    box = fresh(files, aura="vengeance", mutation="purulent")
    box.equip()
    assert box.aura(SNIPER) == 1 and box.aura(SENESCHAL) == 0
    assert box.purulent_held(0) == 1 and box.purulent_held(1) == 1
    box = fresh(files, aura="none", mutation="none")
    box.equip()
    assert box.aura(SNIPER) == 0 and box.purulent_held(0) == 0


def test_deck_draws_hold_the_printed_card_one_time_in_three(files) -> None:  # noqa: F811
    """3 of the 9 cards drawn: the printed one is among them with probability 1/3 (within
    5 standard errors over 900 draws)."""
    box = fresh(files)
    n = 900
    aura = mutation = 0
    for _ in range(n):
        box.s[:, L.S_AURA] = 0
        box.g[L.G_PURULENT : L.G_PURULENT + 2] = 0
        box.equip()
        aura += box.aura(SNIPER)
        mutation += box.purulent_held(1)
    se = n * math.sqrt((1 / 3) * (2 / 3) / n)
    assert abs(aura - n / 3) < 5 * se
    assert abs(mutation - n / 3) < 5 * se


def test_purulent_excrescence_is_given_with_an_enemy_in_contact(files) -> None:  # noqa: F811
    """No enemy in base contact: the card stays in the hand.  With the Seneschal (NV 4)
    and a Pest (NV 1) touching him, the Hybrid mutates and the wound goes to the Pest
    (the fewest NV left), which dies; the card is given once only."""
    box = fresh(files)
    box.place(B_HYBRID, 5, 4, "south")
    box.give_purulent(1)
    box.mutate(B_HYBRID)
    assert box.purulent_held(1) == 1 and not box.mutant(B_HYBRID)
    box.place(SENESCHAL, 5, 5, "north")
    box.place(PEST, 6, 4, "west")
    box.mutate(B_HYBRID)
    assert box.mutant(B_HYBRID) and box.purulent_held(1) == 2
    assert not box.alive(PEST) and box.wounds(SENESCHAL) == 0
    assert int(box.s[PEST, L.S_SPRAYED]) == 1


def test_purulent_wound_on_the_host_option(files) -> None:  # noqa: F811
    box = fresh(files, purulent_wound="host")
    box.place(B_HYBRID, 5, 4, "south")
    box.place(SENESCHAL, 5, 5, "north")
    box.give_purulent(1)
    box.mutate(B_HYBRID)
    assert box.mutant(B_HYBRID) and box.wounds(B_HYBRID) == 1 and box.wounds(SENESCHAL) == 0


def test_striking_a_mutant_sprays_the_attacker_once(files) -> None:  # noqa: F811
    """The Seneschal wounds the mutated Hybrid (3 <= SL 5): his unmodified Natural Roll at
    SL 4 (NV 4) fails on a 7, a wound.  The next wound asks no roll (one NV per game)."""
    box = fresh(files)
    box.place(SENESCHAL, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "south")
    box.s[B_HYBRID, L.S_MUTANT] = 1
    box.script([3, 7])
    box.strike(SENESCHAL, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1 and box.wounds(SENESCHAL) == 1
    assert box.dice_used() == 2
    assert any("sprays A:Seneschal: D10 7 vs SL 4: failure" in x for x in box.lines())
    box.script([3])
    box.strike(SENESCHAL, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 2 and box.wounds(SENESCHAL) == 1 and box.dice_used() == 1


def test_spray_roll_passed_and_the_kill_wounds_automatically(files) -> None:  # noqa: F811
    """A 4 at SL 4 passes the roll.  The Hybrid (NV 3, two wounds) killed by A's Hybrid
    (SL 5): the attacker suffers a wound without a roll."""
    box = fresh(files)
    box.place(SENESCHAL, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "south")
    box.s[B_HYBRID, L.S_MUTANT] = 1
    box.script([3, 4])
    box.strike(SENESCHAL, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1 and box.wounds(SENESCHAL) == 0
    box.place(SENESCHAL, 12, 12, "north")
    box.place(HYBRID, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "south", wounds=2)
    box.script([2])
    box.strike(HYBRID, B_HYBRID, 1)
    assert not box.alive(B_HYBRID) and box.wounds(HYBRID) == 1 and box.dice_used() == 1
    assert any("(automatic)" in x for x in box.lines())


def test_a_mutant_pest_struck_is_not_special_without_the_mutation(files) -> None:  # noqa: F811
    """Without the Mutation the same strike asks no roll."""
    box = fresh(files)
    box.place(SENESCHAL, 5, 5, "north")
    box.place(B_PEST, 5, 4, "south")
    box.script([3])
    box.strike(SENESCHAL, B_PEST, 1)
    assert not box.alive(B_PEST) and box.wounds(SENESCHAL) == 0 and box.dice_used() == 1
