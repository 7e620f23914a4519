"""Rapture rule constants, each citing its rulebook section (``rapture.txt``)."""

from __future__ import annotations

#: "Blocking Hits": block rolls succeed on 5+.
BLOCK_AT = 5
#: "1. Cover through Shelter Marker": a Shelter Marker improves block rolls to 4+.
SHELTER_BLOCK_AT = 4
#: "Reaction: Dodge": dodge rolls succeed on 4+, each removes one attack die.
DODGE_AT = 4
#: "Reaction: Countershot" / "Reaction: Counterblow": MMS / CCS worsen by 1.
REACTION_SKILL_PENALTY = 1
#: "Cover": DEF bonus against ranged attacks and countershots, by cover kind.
COVER_DEF_BONUS = {"none": 0, "obstacle": 2, "high-ground": 1, "shelter": 1}
#: "Test Rolls / Ascension": difficulty (d6 at least) by round; round 6+ is 1+.
ASCENSION_DIFFICULTY = {2: 4, 3: 3, 4: 2, 5: 1, 6: 1}
#: "End of the Game": the game lasts 6 rounds.
LAST_ROUND = 6
#: "Action: Jump Down": a fall higher than half MOV deals 3 hits, reduced by TEC.
JUMP_DOWN_HITS = 3
#: "Difficult Terrain": 1D6 at 5+, improved by TEC.
DIFFICULT_TERRAIN_AT = 5
