"""Hybrid rule constants, each citing its rulebook section (``hybrid.txt``)."""

from __future__ import annotations

#: "Natural Roll": one D10 whose 0 face counts as 10, the highest result.
DIE_SIDES = 10
#: "Perfect Success and Critical Failure": a 1 is a Perfect Success (always succeeds).
PERFECT_FACE = 1
#: "Perfect Success and Critical Failure": a 10 (the 0 face) is a Critical Failure
#: (always fails, "regardless of any modifiers").
CRITICAL_FACE = 10
#: Highest face a Success Level can still separate from a success: with SL >= 9 only the
#: Critical Failure fails ("a warrior whose NV is 5, and who also has a +5 modifier,
#: stays within his Success Level no matter what he rolls").
HIGHEST_ORDINARY_FACE = CRITICAL_FACE - 1
#: "Natural Roll" FAQ: SL = NV - wounds +/- modifiers, so an SL can leave 1..10.  These
#: bounds are far beyond any printed profile plus modifiers; every SL <= 1 behaves as 1
#: (only a Perfect Success succeeds) and every SL >= 9 as 9.
MIN_SL = -10
MAX_SL = 20
#: "Rolling Two Dice (2D10)", "5 / Master Strike", "5 / Master Parry", "5 / Master
#: Firing": roll two dice and choose the result of only one of them.
MASTER_DICE = 2
#: "Offensive Combat": a successful strike inflicts one wound.
STRIKE_WOUNDS = 1
#: "6 / Heroic Strike": a successful Natural Roll inflicts two wounds instead of one.
HEROIC_STRIKE_WOUNDS = 2
#: "Perfect Success and Critical Failure" (Note and FAQ): a Perfect Success in melee or
#: firing inflicts one additional wound ("6 / Heroic Strike": 3 wounds instead of 2).
PERFECT_EXTRA_WOUNDS = 1
#: "Aptitudes: Duellist/X": a Perfect Success occurs on any result <= X in Offensive
#: Combat or Firing Mode.  X = 1 is the plain rule; X = 10 would collide with the
#: Critical Failure, so the largest meaningful X is 9.
DUELLIST_MIN = 1
DUELLIST_MAX = CRITICAL_FACE - 1
#: "2 / Novice Parry": the attacker takes a wound when he rolls a Critical Failure on
#: his attack or the defender rolls a Perfect Success on his parry.
NOVICE_PARRY_WOUNDS = 1
#: "3 / Skilled Parry": a successful parry allows an immediate Basic Strike (one wound,
#: two on a Perfect Success).
COUNTER_BLOW_WOUNDS = STRIKE_WOUNDS
#: "6 / Heroic Firing": the shooter fires twice in the Round.
HEROIC_FIRING_SHOTS = 2
#: Event card "Luck" (Card Text Corrections): add one additional die to the roll, then
#: remove any one die, but never a Critical Failure.
LUCK_EXTRA_DICE = 1
#: "Using Action Cards on the Activation Roll": Action Cards are made of 0..4 Action
#: points and several may be played; 20 points is more than a hand can hold.
MAX_ACTION_POINTS = 20
#: Corrections, "Page 38, The Heresiarch's Prison": on 1D10 "1".."7" rocks fall on
#: that tile, on "8" or "9" the die is rolled again, on a "10" nothing happens.
PRISON_TILES = 7
PRISON_REROLL_FACES = (8, 9)
PRISON_NOTHING = 0
