"""Column indices, codes and constants of the d20 match kernels (plain ints and floats).

numba freezes module-level ints as constants, so the kernels index their plain arrays
with these names; ``compile.py``, ``trace.py`` and ``sandbox.py`` use the same names.
"""

from __future__ import annotations

MAX_FIG = 16
MAX_GUN = 3

# ------------------------------------------------ FI: per figurine, int64 (static)
F_SIDE = 0
F_MOVE = 1  # Movement, cm ("3.1 Movements")
F_SHOT = 2  # Shot skill ("3.2 Shots")
F_DEX = 3  # Dexterity added to shots (0 when the option dexterity_in_shot is off)
F_HTH = 4  # HtH skill + Force ("3.3 Hand to Hand combat")
F_PD = 5  # Physical Defense
F_CP = 6  # Constitution Points
F_LARGE = 7  # large stand ("outsize creature")
F_IMPULSIVE = 8  # impulsiveness ("Automatic movements")
F_INT = 9  # Intelligence ("Inserting a virus")
F_POWER = 10  # figurine's Power ("Acting on objects")
F_HTHPOW = 11  # best HtH Power: HtH weapon, else 1 (gun as a club), else 0
F_NGUN = 12
F_POINTS = 13
F_SCOUT = 14  # infiltration or precognition ("Who starts ?")
F_GUN = 15  # gun g: reach at F_GUN + 3g, Power at + 1, grenade at + 2
FI_COLS = F_GUN + 3 * MAX_GUN

# ------------------------------------------------ FR: per figurine, float64 (static)
R_RADIUS = 0
R_HEIGHT = 1
FR_COLS = 2
# tabulated by run_block once per block into its copy of FR (static for the match-up):
R_REACH = 2  # longest Reach of the figurine's guns (-1: none), as max_reach(..., False)
R_BRAWL = 3  # R_BRAWL + j: 1.0 when it does more in HtH than with a gun at j (hth_better)
#: bits k < 52 (exact in a float64): element k is too high for the figurine to climb over
#: (at least half its Movement; ``walk`` stops at its foot), by ``tabulate``
R_TALL = R_BRAWL + MAX_FIG
#: the longest throw of the figurine (Power - DL of the lightest object it can lift; -1:
#: none, or no objects in the scenario), by ``tabulate`` ("Throwing Objects")
R_THROW = R_TALL + 1
FX_COLS = R_THROW + 1
TALL_BITS = 52

# ------------------------------------------------ TER: per set element, float64
T_X0 = 0
T_Y0 = 1
T_X1 = 2
T_Y1 = 3
T_H = 4  # height, cm
T_COVER = 5  # PD bonus: 0 none, 1 slight, 2 intermediate, 3 heavy ("Cover")
T_KIND = 6
T_COLS = 7
K_ELEMENT = 0  # a set element: crossed as difficult terrain or climbed
K_DIFFICULT = 1  # a difficult terrain zone
K_WATER = 2  # water: straight line, halved
K_TERMINAL = 3  # the scenario's computer (an element the virus is inserted into)
KIND_NAMES = ("element", "difficult", "water", "terminal")

# ------------------------------------------------ SC: scenario and float options
S_W = 0
S_H = 1
S_DEPLOY = 2  # 0 border, 1 corner
S_DEPTH_A = 3
S_DEPTH_B = 4
S_OBJ = 5  # 0 elimination, 1 insert a virus
S_OBJ_DL = 6
S_TURNS = 7  # the scenario's turn limit
S_LIMIT_RULE = 8  # at the turn limit: 0 CP-weighted points, 1 the defender wins
S_COVER_DIST = 9  # cover counts when the crossing is within this of the target (cm)
S_TAKE_COVER = 10  # take cover: extra distance and radius (5 cm)
S_TERM = 11  # row of the terminal in TER (-1 none)
S_NTER = 12
# TER rows S_SBASE .. S_SBASE + S_NSIGHT - 1 (after the elements, ``compile.py``): the
# elements a sightline can meet (neither difficult terrain nor water, with a cover grade
# or higher than the lowest stand), highest first (``sight``)
S_SBASE = 13
S_NSIGHT = 14
#: greedy_search of side A (side B: S_FAST + 1): 1 fast (``best_move`` walks a candidate
#: only once its straight-line worth leads; the default), 0 full (every candidate walked)
S_FAST = 15
#: throwable objects ("3.6 Acting on objects", "Throwing Objects"): their static rows in TER
#: from S_OBASE (OB_* columns), S_NOBJ of them; their positions are rows n .. n + S_NOBJ - 1
#: of the state ``p`` (after the n figurines; ``s`` has as many rows, unused for objects)
S_OBASE = 17
S_NOBJ = 18
SC_COLS = 19
MAX_OBJ = 32
OB_X = 0  # where the object lies at the start of a match
OB_Y = 1
OB_R = 2  # radius of its round footprint (size / 2)
OB_DL = 3  # Difficulty Level ("The Difficulty Levels of Objects")

# ------------------------------------------------ OP: int64 options
O_FIRST = 0  # 0 rules, 1 alternate, 2 a, 3 b
O_FORCED = 1  # -1, or the side forced to start (prepare's first_side)
O_MAXTURNS = 2
O_POL_A = 3
O_POL_B = 4
O_READY = 5  # 0 an enemy entering range and sight, 1 any enemy moving within it
O_WINNER_STARTS = 6  # 1 the roll-off winner starts, 0 he lets the other start
O_FAILED_ACTS = 7  # a figure failing its retreat test may still attack
O_ALL_WEAPONS = 8  # every gun in reach fires at the one target
O_LOOK_K = 9
O_LOOK_DEPTH = 10
O_LOOK_ROLLOUTS = 11
O_VIRUS_MIN = 12  # minimum turns of an effective action
O_CHECK = 13
O_CLIMB_NEXT = 14  # 1: a figurine stopped at the foot of an element climbs it next turn
O_IMP_ROUND = 15  # 1: an impulsive move of 0 cm at a foot climbs beside or goes round
OP_COLS = 16
POL_RANDOM, POL_GREEDY, POL_LOOKAHEAD = 0, 1, 2
POLICY_NAMES = ("random", "greedy", "lookahead")
FIRST_MODES = ("rules", "alternate", "a", "b")

# ------------------------------------------------ P: per figurine, float64 (state)
P_X = 0
P_Y = 1
P_FACE = 2  # facing, radians
P_SX = 3  # position at the start of its turn ("Shooting in the back")
P_SY = 4
P_FX = 5  # cos and sin of the facing (set with it: the arc tests read them)
P_FY = 6
P_COLS = 7
OFF_BOARD = -1000.0

# ------------------------------------------------ S: per figurine, int64 (state)
S_ALIVE = 0
S_CP = 1
S_MODE = 2  # movement type this turn
S_READY = 3  # ready to shoot and not yet fired
S_CLIMB = 4  # element + 1 it stopped at the foot of (climbs next turn)
S_DEALT = 5
S_TAKEN = 6
S_SHOTS = 7
S_BLOWS = 8
S_DONE = 9  # turn ended (took cover, fled, ready, effective action)
S_REMOVED_TURN = 10
S_ACTED = 11  # shot, struck or worked on the objective since its side's last turn began
S_IDLE = 12  # own turns in a row begun without such an action (the greedy AI's urgency)
S_COLS = 13
#: S_IDLE counts at most this many turns
IDLE_CAP = 4
M_NORMAL, M_WATCHFUL, M_READY, M_COVER, M_STAY = 0, 1, 2, 3, 4
MODE_NAMES = ("normal movement", "watchful movement", "ready to shoot", "take cover", "stays")

# ------------------------------------------------ G: int64 match state
G_TURN = 0
G_HALF = 1
G_FIRST = 2
G_ACT = 3
G_VIOL = 4
G_ATTACKER = 5
G_PROGRESS = 6
G_END = 7  # -1 playing, else the end reason
G_WINNER = 8
G_NEV = 9
G_TRACE = 10
G_DPOS = 11  # dice script position
G_ROLL = 12  # 1 inside a lookahead rollout (greedy for both, no trace)
G_MAXT = 13
G_SHOTS = 14
G_HITS = 15
G_BLOWS = 16
G_READYSHOTS = 17
G_RETREATS = 18
G_RETREATS_WON = 19
G_COVERS = 20
G_EFFECTIVE = 21
G_OBJDONE = 22
G_CHECK = 23
G_COLS = 24

END_ELIMINATION, END_OBJECTIVE, END_TURNS = 0, 1, 2
END_REASONS = ("elimination", "objective", "turn limit")
RECORD_EXTRAS = (
    "attacker",
    "objective_done",
    "shots",
    "hits",
    "blows",
    "ready_shots",
    "retreat_tests",
    "retreats_won",
    "take_covers",
    "effective_actions",
)
UNIT_EXTRAS = ("shots", "blows", "turn_removed")

# ------------------------------------------------ events (trace rows, int64)
EV_COLS = 12  # kind, turn, side, then 9 values; coordinates in mm
E_ROLLOFF = 1  # a, b (D20 + bonus), winner, starter
E_ROLES = 2  # attacker side, roll a, roll b
E_DEPLOY = 3  # fig, x, y
E_TURN = 4  # side
E_MOVE = 5  # fig, mode, x0, y0, x1, y1, stop (0 none, 1 difficult, 2 foot, 3 climbed)
E_SHOT = 6  # fig, target, gun, d20, total, pd, damage, flags (1 rear, 2 halved, 4 ready)
E_BLOW = 7  # fig, target, power, d20, total, pd, damage, flags (1 rear), synergy
E_REMOVED = 8  # fig
E_RETREAT = 9  # fig, enemy, my total, their total, success, kind
E_ACTION = 10  # workers, leader, progress, needed
E_END = 11  # reason, winner, score a, score b
E_FACE = 12  # fig turns to face fig
E_NOACT = 13  # fig, reason
E_THROW = 14  # fig, target, object, d20, total, pd, damage, flags (1 rear, 8 x cover), dl
E_LAND = 15  # object, x, y (where a thrown object lands)
