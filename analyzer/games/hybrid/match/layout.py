"""Column indices, codes and constants of the Hybrid match kernels (plain ints).

numba freezes module-level ints as constants, so the kernels index their plain arrays
with these names; ``compile.py``, ``trace.py`` and ``sandbox.py`` use the same names.
Coordinates are squares: ``x`` the column (east), ``y`` the row (south); a figurine's
``x, y`` is the north-west square of its base (a large base covers 2 x 2 squares).
"""

from __future__ import annotations

MAX_FIG = 20  # ten Activation counters per army ("Activation counters")
MAX_W = 40
MAX_H = 40

# ------------------------------------------------ facings (N, E, S, W)
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
FACING_NAMES = ("north", "east", "south", "west")

# ------------------------------------------------ cell kinds of the board (MP array)
C_FLOOR = 0
C_WALL = 1
C_COLUMN = 2
C_ROCKFALL = 3
C_DOOR = 4  # a closed door (opened by a warrior facing it)
C_LOCKED = 5  # a locked door: a wall until the mission unlocks it
C_TRAPDOOR = 6  # an open Trapdoor
CELL_NAMES = ("floor", "wall", "column", "rockfall", "door", "locked door", "trapdoor")
#: Map characters of the scenario files and the cell kind each stands for.
MAP_CHARS = {
    ".": C_FLOOR,
    "#": C_WALL,
    "O": C_COLUMN,
    "R": C_ROCKFALL,
    "D": C_DOOR,
    "L": C_LOCKED,
    "T": C_TRAPDOOR,
    "*": C_FLOOR,  # an Objective counter on a floor square
    "E": C_FLOOR,  # an Event counter (some of them Traps: the mission's ``traps``)
}

# ------------------------------------------------ FI: per figurine, int64 (static)
F_SIDE = 0
F_NV = 1
F_OC = 2  # printed Mastery Levels (0: the dash "-")
F_DC = 3
F_F = 4  # 0 also when the warrior has no ranged weapon
F_MV = 5
F_MOVE = 6  # Movement, squares
F_SIZE = 7  # 1 standard, 2 large (2 x 2 squares)
F_RANK = 8
F_OMOD = 9  # Equipment modifiers to the SL
F_DMOD = 10
F_FMOD = 11
F_COMBINED = 12  # Aptitudes: X (1 for those without X), 0 when absent
F_AURA = 13
F_PUNY = 14
F_CONVICTION = 15
F_DUELLIST = 16
F_FELON = 17
F_FRENZY = 18
F_BRUTISH = 19
F_MUTATION = 20
F_LYNX = 21
F_INFILTRATION = 22
F_PRESTIGE = 23
F_DORSAL = 24
F_SACRIFICE = 25
F_APS = 26
F_TITAN = 27
F_VELOCITY = 28
F_POINTS = 29
F_X0 = 30  # deployment square and facing
F_Y0 = 31
F_FACE0 = 32
F_LEADER = 33  # Conviction: index of the side's leader (Aura), -1 none
FI_COLS = 34

# ------------------------------------------------ SC: scenario and options, int64
S_W = 0
S_H = 1
S_ROUNDS = 2
S_OBJ_NEED = 3  # objectives a side must carry out to win (0: elimination only)
S_FIRST = 4  # 0 rules, 1 alternate, 2 a, 3 b
S_FORCED = 5  # -1, or the side forced to start round 1
S_POL_A = 6
S_POL_B = 7
S_CHECK = 8
S_LOOK_K = 9
S_LOOK_DEPTH = 10
S_LOOK_ROLLOUTS = 11
S_SKILLED_HIT = 12  # Skilled Strike: 1 the second strike needs a wound, 0 a success
S_PERFECT_PARRY = 13  # 1 a Perfect Success strike can be parried
S_NOBJ = 14
S_WINNER_CHOOSES = 15  # 1 the Activation Roll winner starts, 0 he lets the other start
S_LOOK_MARGIN = 16  # strong: a plan's paired gain must exceed this / 10 standard errors
S_LOOK_ORDER = 17  # strong: 1 searches its Activation Sequence each Round
S_MOVE_LEVELS = 18  # sides (bit 0 A, bit 1 B) whose plans weigh Moving Mode levels 2-6
S_SKILLED_FIRING = 19  # 1: the policies weigh Skilled Firing ambushes
S_CLOSE_DOORS = 20  # 1: greedy closes doors beside him that hide him from shooters
S_CARDS = 21  # 1: Action Cards are played
S_TRAPS = 22  # Trap counters mixed among the Event counters
S_EVENT_WORTH = 23  # greedy's worth of an Event Card drawn, tenths of a wound
S_AURA_MODE = 24  # Aura Cards: 0 none, 1 the deck (3 drawn per bearer), 2 Vengeance held
S_MUTATION_MODE = 25  # Mutation Cards: 0 none, 1 the deck (3 drawn), 2 Purulent held
S_PURULENT_HOST = 26  # Purulent Excrescence's wound on application: 0 an enemy, 1 the host
S_AMBUSH_SEEK = 27  # sides (bit 0 A, bit 1 B) whose greedy values an ambush by its square
S_EVENT_SEEK = 28  # sides whose greedy walks to Event counters for their worth
S_GREEDY_FAST = 29  # sides whose greedy plans on the walking-distance estimate (greedy_fast)
SC_COLS = 30
POL_RANDOM, POL_GREEDY, POL_STRONG = 0, 1, 2
POLICY_NAMES = ("random", "greedy", "strong")
FIRST_MODES = ("rules", "alternate", "a", "b")

# ------------------------------------------------ S: per figurine, int64 (state)
S_ALIVE = 0
S_X = 1
S_Y = 2
S_FACE = 3
S_WOUNDS = 4
S_MODE = 5  # Action Mode of the last activation
S_LEVEL = 6  # its Mastery Level (Moving Mode), or 6 when locked in Heroic Parry
S_DONE = 7  # activated this Round
S_STOPPED = 8  # 0, 3 Skilled Move victim, 4 Expert Move victim (-2 to Natural Rolls)
S_CA_USED = 9  # Combined Attacks used this game
S_CA_ROUND = 10  # the Round of the last Combined Attack
S_KILLS = 11  # melee kills (Frenzy)
S_PRESTIGE_LOST = 12
S_APS_ROUND = 13  # the Round of the last Armour-Piercing Shot
S_DEALT = 14
S_TAKEN = 15
S_SCORE = 16  # objectives carried out
S_STRIKES = 17
S_SHOTS = 18
S_REMOVED_ROUND = 19
S_INFIL_LOST = 20  # Infiltration/X lost (seen by an enemy)
S_AMBUSH = 21  # the Skilled Firing counter's number while in ambush (0: none)
S_AURA = 22  # Aura of Vengeance: 0 not held, 1 held (switched off), 2 switched on
S_MUTANT = 23  # 1: mutated by Purulent Excrescence (the Mutation Card given to him)
S_SPRAYED = 24  # 1: has lost his one NV point to Purulent Excrescence
S_COLS = 25
M_NONE, M_OC, M_DC, M_FIRE, M_MOVE = 0, 1, 2, 3, 4
MODE_NAMES = ("no mode", "Offensive Combat", "Defensive Combat", "Firing", "Moving")
LEVEL_NAMES = ("", "Basic", "Novice", "Skilled", "Expert", "Master", "Heroic")

# ------------------------------------------------ G: int64 match state
G_ROUND = 0
G_FIRST = 1  # who activated first this Round
G_FIRST1 = 2  # who activated first in Round 1
G_ACT = 3
G_VIOL = 4
G_END = 5  # -1 playing, else the end reason
G_WINNER = 6
G_NEV = 7
G_TRACE = 8
G_DPOS = 9  # dice script position
G_ROLL = 10  # 1 inside a rollout (no trace)
G_CHECK = 11
G_OBJ_A = 12
G_OBJ_B = 13
G_STRIKES = 14
G_SHOTS = 15
G_PARRIES = 16
G_KNOCKS = 17
G_SACRIFICES = 18
G_COUNTERS = 19
G_COMBINED = 20
G_PERFECT = 21
G_NAMBUSH = 22  # warriors in Skilled Firing now
G_AMBUSH_NO = 23  # Skilled Firing counters handed out so far (the last number)
G_AMBUSHES = 24  # ambush shots fired
G_DECK = 25  # Action Cards left in the deck by Action points 0..4 (5 columns)
G_BOTTOM = 30  # cards put back under the deck (a rejected hand), drawn after the rest
G_HAND = 35  # the hands: side A's cards by points 0..4, then side B's (10 columns)
G_PENDING = 45  # cards owed to side A, side B (a warrior destroyed by the enemy)
G_CARDS = 47  # Action Cards played
G_EV_LEFT = 48  # Event counters left face down, of which Traps
G_TRAPS_LEFT = 49
G_EV_LAST = 50  # the side (1 A, 2 B) that activated the last Event counter, 0 none
G_EVENT_CARDS = 51  # Event Cards drawn by side A, side B (2 columns)
G_PURULENT = 53  # Purulent Excrescence of side A, side B: 0 not held, 1 held, 2 given
G_COLS = 55

END_ELIMINATION, END_OBJECTIVES, END_ROUNDS = 0, 1, 2
END_REASONS = ("elimination", "objectives", "round limit")
RECORD_EXTRAS = (
    "objectives_a",
    "objectives_b",
    "strikes",
    "shots",
    "parries",
    "knock_backs",
    "sacrifices",
    "counter_blows",
    "combined_attacks",
    "perfect_successes",
)
UNIT_EXTRAS = ("strikes", "shots", "round_removed")

# ------------------------------------------------ events (trace rows, int64)
EV_COLS = 12  # kind, round, side, then 9 values
E_ROLL = 1  # a's die, b's die, winner, starter
E_SEQ = 2  # side, then up to 8 figurines in order (-1 past the end)
E_ACTIVATE = 3  # fig, mode, level (Moving Mode), order number
E_MOVE = 4  # fig, x0, y0, x1, y1, facing, cost, budget
E_STRIKE = 5  # fig, target, level, face, SL, result, wounds, flags
#   (flags: 1 rear, 2 second strike, 4 counter-blow, 8 Combined Attack)
E_PARRY = 6  # fig (defender), attacker, level, face, SL, result
E_SHOT = 7  # fig, target, level, face, SL, result, wounds, flags (1 second shot, 2 AP shot)
E_WOUND = 8  # fig, wounds taken, NV left, cause, by
#   (causes: 0 strike, 1 shot, 2 knock-back, 3 sacrifice, 4 trapdoor, 5 novice parry)
E_REMOVED = 9  # fig
E_KNOCK = 10  # fig (victim), by, squares flown, squares missed, x, y
E_SACRIFICE = 11  # fig, target, wounds
E_OBJECTIVE = 12  # fig, x, y, total for the side
E_DEFEND = 13  # fig takes Defensive Combat Mode
E_END = 14  # reason, winner, score a, score b
E_DOOR = 15  # fig, x, y, 1 when closed (else opened)
E_TRAP = 17  # fig, face, SL, result
E_INTERCEPT = 18  # fig (victim), by, level (3 Skilled Move, 4 Expert Move)
E_DASH = 19  # fig, x0, y0, x1, y1, facing: Heroic Move's end-of-Round movement
E_AMBUSH = 20  # fig, counter number: Skilled Firing declared
E_AMBUSH_END = 21  # fig, reason (AMBUSH_END_NAMES)
E_INFILTRATE = 22  # fig, budget: Infiltration/X's end-of-Round move
E_CARD = 23  # fig, Action points, role (CARD_ROLES), cards left in the hand
CARD_ROLES = (
    "played",
    "played as a Hindrance",
    "played against the Hindrance",
    "drawn",
    "dealt (hand of 4, points)",
    "hand rejected, 3 drawn (points)",
)
E_EVENT = 24  # fig, x, y, 1 Trap / 0 Event Card, then for a Trap: face, SL, result
E_AURA = 25  # fig, 1 the Aura of Vengeance drawn / 2 switched on
E_MUTATION = 26  # fig, role (MUTATION_ROLES), target, face, SL, result
MUTATION_ROLES = (
    "draws Purulent Excrescence (Mutation Card)",
    "mutates: Purulent Excrescence",
    "sprays",
)
AMBUSH_END_NAMES = (
    "missed",
    "moved",
    "wounded",
    "an enemy in base contact",
    "activated",
)
