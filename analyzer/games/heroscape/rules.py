"""Heroscape rule constants, each citing its rulebook section (``heroscape.txt``).

The combat die's faces are not printed in the rulebook; they are sample data in
``configs/heroscape/dice.yaml`` (see :func:`analyzer.games.heroscape.rolls.load_combat_die`).
"""

from __future__ import annotations

#: "Gather Your Components": the 20-sided die (initiative, special powers, Glyphs, terrain).
D20_SIDES = 20
#: "Gather Your Components": combat dice roll skulls (attack) and shields (defense);
#: the third kind of face is blank.  These are the keys of ``dice.yaml``'s ``combat_die``.
COMBAT_DIE_FACES = ("skull", "shield", "blank")
#: "Resolving a Master Game Attack": the Attack/Defense Values on Army Cards are dice counts.
MAX_DICE = 40

#: "Height Advantage": the figure with height advantage rolls 1 additional die,
#: attacking with a normal attack or defending against an attack from a figure.
HEIGHT_ADVANTAGE_DICE = 1
#: "Height Advantage": more than 10 levels above the other base: 2 additional dice instead.
EXTREME_HEIGHT_ADVANTAGE_DICE = 2
EXTREME_HEIGHT_LEVELS = 10

#: "Shadow" / "Toxic Land" / "Toxic Water" (Terrain; also the Battlefield Key): change
#: to the Defense Value of a figure on that space.  Shadow: Small, Medium or Large figures
#: only.  A double-space figure on both toxic land and toxic water subtracts only 2.
TERRAIN_DEFENSE = {"none": 0, "shadow": 1, "toxic-land": -1, "toxic-water": -2}

#: "Nanite Shielding (Tech)": flip the Glyph to add 1 automatic shield to the defense roll.
NANITE_SHIELDING_SHIELDS = 1
#: "Bloodcursed Blade": add 1 skull to a normal attack against an adjacent figure.
BLOODCURSED_BLADE_SKULLS = 1
#: "Nanotoxin Coating (Tech)": 1 additional wound after inflicting 1 or more wounds.
NANOTOXIN_EXTRA_WOUNDS = 1
#: "Whetstone of Venom (Poison)": 2 additional wounds if the target takes at least 1 wound.
WHETSTONE_EXTRA_WOUNDS = 2

#: "2. Roll For Initiative": highest d20 has the Initiative; ties reroll.
#: "Glyph of Dagmar (Initiative +8)": add 8 to the initiative roll.
DAGMAR_INITIATIVE_BONUS = 8
#: "Glyph of Lodin (Lucky 20-Sider)": whenever you roll the 20-sided die, you may add 1.
LODIN_BONUS = 1

#: d20 rolls of the form "roll X or higher", by name and section:
D20_CHECKS = {
    #: "Molten Lava": a 20 survives, 1-19 is destroyed.
    "molten-lava-survival": 20,
    #: "Glyph of Mitonsoul (Massive Curse)": 1 destroyed, 2 or higher safe.
    "mitonsoul-safe": 2,
    #: "Glyph of Nilrend (Negation)": 5-20 negates the chosen Unique Army Card.
    "nilrend-negation": 5,
    #: "Glyph of Oreld (Intercept Order)": 10-20 removes a random unrevealed Order Marker.
    "oreld-intercept": 10,
    #: "Treasure Glyph Traps": 6 or higher does not set off the trap.
    "trap-avoided": 6,
    #: "Bolt of the Witherwood (Enchanted Shot)": 16 or higher destroys the chosen figure.
    "witherwood-bolt": 16,
}

#: "Lava Field": at the end of the round roll 1 combat die; a skull is 1 wound.
#: "Cooling Lava": starting a turn on cooling lava, roll 1 attack die; a skull is 1 wound.
LAVA_FIELD_WOUNDS = 1

#: "Thin Ice": a d20 result equal to or lower than the figure's height is 1 wound;
#: a result of 1 is 2 wounds.
THIN_ICE_WOUNDS = 1
THIN_ICE_DOUBLE_RESULT = 1
THIN_ICE_DOUBLE_WOUNDS = 2

#: "Wellspring Water": 12 or higher removes 1 Wound Marker, 1 or 2 deals 2 wounds.
WELLSPRING_HEAL_AT = 12
WELLSPRING_HURT_AT_MOST = 2
WELLSPRING_WOUNDS = 2

#: "Scarab of Invulnerability (Ignore Wounds)": 1-15 ignores 1 wound, 16+ ignores all.
SCARAB_ALL_AT = 16

#: Scenario 2 "Mission Critical", Veteran "Oops!": subtract 5 per wound (at most 20)
#: from the d20; a result of 5 or less drops the Nanite Vial.
VIAL_PENALTY_PER_WOUND = 5
VIAL_MAX_PENALTY = 20
VIAL_DROP_AT_MOST = 5
