"""d20 skirmish rule constants, each citing its rulebook section (``d20-skirmish.txt``)."""

from __future__ import annotations

#: "1. Starting a Game": "The D20 is used to simulate every action or shot in the game."
D20_SIDES = 20
#: "Who starts ?": +1 to the D20 per character with an infiltration or precognition
#: ability; the highest result chooses; a draw is thrown again.
FIRST_PLAYER_BONUS_PER_CHARACTER = 1

#: "Cover": bonus to the target's Physical Defense (slight +1, intermediate +2, heavy +3).
COVER_PD_BONUS = {"none": 0, "slight": 1, "intermediate": 2, "heavy": 3}
#: "Shooting in the back" / "Attacks in the back": the attacker gains a +1 bonus.
REAR_BONUS = 1
#: "Types of movement for the SUs": watchful movement gains +1 in evasion (+1 PD).
WATCHFUL_PD_BONUS = 1
#: "Leaving a HtH": shooting while retreating, Skill is divided by two, rounded up.
RETREAT_SKILL_DIVISOR = 2

#: "3.3 Hand to Hand combat" (NOTA BENE): a shooting weapon used at close quarters
#: (butt strike, gun as a club) has a Power of 1.
IMPROVISED_HTH_POWER = 1
#: "Synergy in Hand to Hand combat": +1 per friendly stand in contact with both the
#: fighter and the opponent, up to a maximum bonus of +3.
SYNERGY_PER_FRIEND = 1
SYNERGY_MAX_BONUS = 3

#: "The Difficulty Levels of Objects": DL 5 (furniture), 10 (crates), 15 (tree trunks);
#: scenarios may give other values.  "Throwing Objects": the maximum throwing distance
#: is Power - DL; damage is DL + Power + 1D20 against Physical Defense.
OBJECT_DIFFICULTY_LEVELS = (5, 10, 15)
