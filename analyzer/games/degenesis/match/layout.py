"""Column indices, codes and constants of the Degenesis mission kernels (plain ints).

numba freezes module-level ints as constants, so the kernels index their plain arrays
with these names; ``compile.py``, ``trace.py`` and ``sandbox.py`` use the same names.
"""

from __future__ import annotations

#: Most TILES of a FIELD, units of a match-up, profile levels, attack options per profile.
MAX_TILES = 96
MAX_UNITS = 40
MAX_LEVELS = 8  # an OPERATIVE's POTENTIALS flipped 0..P (P <= 7), a CHAMPION's STAGES
ROWS = 2 * MAX_LEVELS  # profile rows per unit: (DASHBOARD side, level)
MAX_OPT = 8  # attack options per profile (WEAPONS, BARE HANDED, ATTACK TRAITS, FOCUS POOL)
MAX_ITEMS = 16  # ITEMS that may change hands in a mission (the ROSTER's WEAPONS)
MAX_MOVE = 5  # MOVE ratings tabulated (1..MAX_MOVE; higher ones are capped)
MAX_DEF = 16  # DEFENSE values tabulated for the greedy chances (higher: capped)
MAX_RANGE = 7  # longest RANGE of an attack option (the greedy ATTACK tables)
POOL_W = 23  # the roll vector of ``rolls._encode_pool``: 3 counts, limit, mod, 18 faces
P_LIMIT = 3  # its SECURE (BOTCH limit) entry
P_MOD = 4  # its SUCCESS +/-X entry

# ------------------------------------------------ UN: per unit, static
U_SIDE = 0  # 0 OPERATIVES (side A), 1 the HOSTILE (side B)
U_KIND = 1  # K_OPERATIVE, K_LEGION, K_CHAMPION
U_HEALTH = 2  # WOUNDS before DEAD (2 per POTENTIAL; 1; STAGES)
U_LEVELS = 3  # profile levels (POTENTIALS + 1; 1; STAGES)
U_POINTS = 4
U_VALUE = 5  # what killing it is worth to the greedy scores (points, x3 for a hunt target)
U_CONCEPT = 6  # the OPERATIVE's CONCEPT ARCANA (0..12), -1 none
U_CARD = 7  # which card (the index of its first unit): copies of a card share it
U_ITEMS = 8  # the ITEMS (bits of the ROSTER's item list) the OPERATIVE CARRIES at the start
U_USES = 9  # the ITEMS it has attack options for (its own and the others' it may use)
U_LOAD = 10  # ITEMS it CARRIES that never change hands (WORN ARMOR, ...): ENCUMBRANCE
U_BODY = 11  # its body's ENCUMBRANCE when DEAD: 2, or 3 with a WORN ARMOR ("Items")
U_COLS = 12
K_OPERATIVE, K_LEGION, K_CHAMPION = 0, 1, 2
KIND_NAMES = ("operative", "legion", "champion")

# ------------------------------------------------ PF: per (unit, side, level) profile
F_DEF = 0  # DEFENSE, DEFENSE +/-X and ARMOR included
F_MOVE = 1  # MOVE 2 + SPEED, at least 1
F_HIDDEN = 2  # HIDDEN +/-X of the unit (HARD TERRAIN adds 1 in the kernel)
F_PUNCH = 3  # SUCKER PUNCHES per ROUND: 1 + DIRTY FIGHTING
F_NOPT = 4  # attack options
F_SCOUT = 5  # option row holding the bare POOL (FOCUS side: SCOUT rolls), -1 none
F_FIX = 6  # ITEM bits an ACTION may FLIP back on this profile (BOTCH TRAITS, Jury-Rig)
F_CARRY = 7  # the ENCUMBRANCE LIMIT: 5 + CARRYING (OPERATIVES), 1 + CARRYING (CLANNERS)
F_HEAL = 8  # ACTIVE TRAIT heal_fleshwound WITHIN X (Patch Up: 0), -1 none
F_REVEAL = 9  # ACTIVE TRAIT reveal_threat WITHIN X (Data Stream: 3), -1 none
F_STUN_AT = 10  # ACTIVE TRAIT stun_enemy WITHIN X (Overload: 0), -1 none
F_VERDICT = 11  # ACTIVE TRAIT enemy_defense WITHIN X (Verdict: 2), -1 none
F_VERDICT_DEF = 12  # its DEFENSE penalty (Verdict: 1)
F_EXECUTE = 13  # ACTIVE TRAIT wounded_attack: its SUCCESS bonus (Execution: 2), 0 none
F_SNARE = 14  # ACTIVE TRAIT snare WITHIN X (the Trapper's Snare: 1), -1 none
F_HARROW = 15  # PASSIVE flip_operative WITHIN X before each ACTION (Harrowing: 2), -1 none
PF_COLS = 16

# ------------------------------------------------ OPT: per attack option (rows of prof*MAX_OPT)
O_USABLE = 0
O_ITEM = 1  # the ITEM's bit in the FLIPPED mask, -1 none (BARE HANDED, ATTACK POOL)
O_RANGE = 2
O_RANGED = 3  # a RANGED ATTACK (provokes SUCKER PUNCHES on the attacker's TILE)
O_AREA = 4  # an AREA ATTACK (TARGETS a TILE)
O_STUN = 5  # STUNS instead of WOUNDING
O_TRAIT = 6  # an ACTIVE TRAIT's ATTACK (pool_attack): needs an ACTION, never a FREE ATTACK
O_POOL = 7  # POOL_W entries: the roll vector
OPT_COLS = O_POOL + POOL_W
# PW: per option row, P(success) against DEFENSE 0..MAX_DEF, then P(BOTCH)
PW_BOTCH = MAX_DEF + 1
PW_DIE = MAX_DEF + 2  # MAX_DEF + 1 entries: the chances with the OVERCOMMIT DIE added
PW_SEC = PW_DIE + MAX_DEF + 1  # MAX_DEF + 1 entries: the chances with SECURE 1 more
PW_COLS = PW_SEC + MAX_DEF + 1
OVER_SECURE = 3  # the OVERCOMMIT "Gain SECURE 1" (0..2: a WHITE, BLACK, FATAL DIE added)

# ------------------------------------------------ FLD: per TILE, static
T_ELEV = 0
T_HARD = 1  # HARD TERRAIN: MOVE -1 to enter, HIDDEN +1
T_SPAWN = 2  # a HOSTILE SPAWN POINT
T_EXIT = 3  # an EXIT POINT (the mission's; the OSP is one too, for a RETREAT)
T_OSP = 4  # the OPERATIVE SPAWN POINT
T_OBJ = 5  # an OBJECTIVE
T_THREATS = 6  # THREATS placed here at FIELD SETUP
T_CHAMP = 7  # the CHAMPION's THREAT is placed here at FIELD SETUP
T_GOAL = 8  # DISTANCE to the nearest goal TILE of the mission (exit / objective)
FLD_COLS = 9

# ------------------------------------------------ MS: mission and int options
M_KIND = 0  # MISSION_KINDS
M_ROUNDS = 1  # ROUND limit
M_NEED = 2  # extraction: OPERATIVES to extract; hold: objective-ROUNDS to hold
M_CAP = 3  # SCHEMING AREA: EDGES stored at most (the ROSTER size)
M_EDGES = 4  # EDGES per OPERATIVE per ROUND
M_ROSTER = 5
M_POL_A = 6
M_POL_B = 7
M_FIRST = 8  # 0 rules, 1 alternate, 2 operatives, 3 hostile
M_FORCED = 9  # -1, or the side forced to start (prepare's first_side)
M_NTILES = 10
M_TARGET = 11  # hunt: the CHAMPION's unit index, -1 none
M_PUNCH_FIRST = 12  # a SUCKER PUNCH resolves before what provoked it
M_RANGED_PROVOKE = 13  # a HOSTILE ATTACK with RANGE >= 1 is a RANGED ATTACK
M_AMBUSH_STOPS = 14  # an AMBUSH ends the MOVE that triggered it
M_AREA_ALLIES = 15  # AREA ATTACKS also hit ALLIES on the TILE
M_CHECK = 16
M_LOOK_ROLLOUTS = 17  # strong policy: rollouts per candidate
M_LOOK_DEPTH = 18  # strong policy: TURNS played after the candidate
M_HAS_EXIT = 19
M_ARCANA = 20  # the APOCALYPTIC TAROT is played (hands dealt, ARCANA drawn and played)
M_OVERCOMMIT = 21  # the AIs may OVERCOMMIT (the other side DRAWS 1 ARCANA)
M_HIDDEN_ON_TILE = 22  # HIDDEN also lengthens DISTANCE 0 (a TARGET on the attacker's TILE)
M_RETREAT = 23  # an OPERATIVE may RETREAT by the OSP (the mission fails)
MS_COLS = 24
MISSION_KINDS = ("extraction", "hold", "hunt")
KIND_EXTRACT, KIND_HOLD, KIND_HUNT = 0, 1, 2
POL_RANDOM, POL_GREEDY, POL_STRONG = 0, 1, 2
POLICY_NAMES = ("random", "greedy", "rollout")
FIRST_MODES = ("rules", "alternate", "operatives", "hostile")

# ------------------------------------------------ ST: per unit, state
S_ON = 0  # ON_RESERVE, ON_FIELD, ON_DEAD, ON_LEFT
S_TILE = 1
S_REVEALED = 2  # a HOSTILE unit shown as a MODEL (0: a THREAT token)
S_WOUNDS = 3
S_SIDE = 4  # DASHBOARD side: 0 FOCUS, 1 PRIMAL
S_STUN = 5  # STUNNED this ROUND (no ACTIONS, DEFENSE -2)
S_PUNCH = 6  # SUCKER PUNCHES made this ROUND
S_EDGES = 7  # EDGES still held this ROUND (OPERATIVES)
S_FLIPPED = 8  # ITEMS on their BOTCH face (bit mask of option items)
S_DEALT = 9
S_TAKEN = 10
S_KILLS = 11
S_DEATHS = 12
S_SPAWNS = 13
S_ATTACKS = 14
S_SCORE = 15  # objectives done by an OPERATIVE; OPERATIVES killed by a HOSTILE unit
S_HERMIT = 16  # IX The Hermit: not ATTACKED from outside its TILE this ROUND
S_CARRY = 17  # ITEMS CARRIED (bits of the ROSTER's item list; S_FLIPPED: their BOTCH faces)
S_TRAUMA = 18  # FLESHWOUNDS DISCARDED (S_WOUNDS counts 1 per FLESHWOUND + 2 per TRAUMA)
S_BODY = 19  # 1 + the DEAD OPERATIVE whose body this one CARRIES, 0 none
S_CARRIER = 20  # a DEAD OPERATIVE's body: 1 + the OPERATIVE CARRYING it, 0 none
S_DEFMOD = 21  # DEFENSE penalty this ROUND (Verdict)
S_SNARED = 22  # cannot MOVE this ROUND (Snare)
S_COLS = 23
ON_RESERVE, ON_FIELD, ON_DEAD, ON_LEFT = 0, 1, 2, 3

# ------------------------------------------------ G: match state
G_ROUND = 0
G_STORED = 1  # EDGES in the SCHEMING AREA
G_END = 2  # -1 playing, else the end reason
G_WINNER = 3
G_FIRST = 4
G_NEV = 5
G_TRACE = 6
G_DPOS = 7  # dice script position
G_ROLL = 8  # 1 inside a rollout (no trace, greedy for both)
G_ACT = 9  # TURNS and HOSTILE ACTIONS played
G_VIOL = 10
G_CHECK = 11
G_DONE = 12  # objectives done (extracted OPERATIVES, objective-ROUNDS held, target killed)
G_LOST = 13  # OPERATIVES lost (DEAD)
G_KILLED = 14  # HOSTILE units killed
G_ATTACKS = 15
G_HITS = 16
G_PUNCHES = 17
G_AMBUSHES = 18
G_SPAWNS = 19
G_SCOUTS = 20
G_REVEALS = 21
G_STUNS = 22
G_BOTCHES = 23
G_STEP = 24  # the ACTION of the OPERATIVE's TURN being decided (0 first, 1 second)
G_HAND = 25  # 2 entries: each side's hand of ARCANA (bit k: ARCANA k); the deck holds the rest
G_ARCANA = 27  # ARCANA played (NEGATED ones included)
G_DRAWS = 28  # ARCANA drawn
G_OVERCOMMITS = 29
G_OVER = 30  # 1 + the side DRAWING for the OVERCOMMIT of the ROLL being resolved, else 0
G_MEDIATOR = 31  # 2 entries: VIII The Mediator played by the side this ROUND
G_CONQUEROR = 33  # 2 entries: XI The Conqueror played by the side this ROUND
G_ADVENTURER = 35  # 2 entries: 0 The Adventurer played by the side this ROUND
G_POOL = 37  # POOL_W entries: scratch copy of the POOL being ROLLED (no allocation)
G_BONUS = G_POOL + POOL_W  # SUCCESS +X on the ROLLS of unit G_BONUS + 1 - 1 (Execution)
G_BONUS_U = G_BONUS + 1  # 1 + that unit, 0 none
G_GFLIP = G_BONUS + 2  # BOTCH faces of the ITEMS lying on the FIELD (bits of the item list)
G_ITEM_AT = G_BONUS + 3  # MAX_ITEMS entries: the TILE an UNCARRIED ITEM lies on, -1 CARRIED
#                          (or not in the mission), -2 DISCARDED by a CLANNER
G_COLS = G_ITEM_AT + MAX_ITEMS

END_EXTRACTED, END_HELD, END_HUNTED, END_DEPLETED, END_ROUNDS, END_RETREAT = 0, 1, 2, 3, 4, 5
END_REASONS = (
    "success: extracted",
    "success: objective held",
    "success: target killed",
    "failure: roster depleted",
    "failure: round limit",
    "failure: retreat",
)
RECORD_EXTRAS = (
    "objectives_done",
    "operatives_lost",
    "hostile_killed",
    "attacks",
    "hits",
    "sucker_punches",
    "ambushes",
    "spawns",
    "scouts",
    "reveals",
    "stuns",
    "botches",
)
UNIT_EXTRAS = ("kills", "deaths", "spawns", "attacks")

# ------------------------------------------------ events (trace rows, int64)
EV_COLS = 12  # kind, round, side, then 9 values
E_SETUP = 1  # unit, tile, revealed, side (DASHBOARD)
E_ROUND = 2  # edges per operative, stored
E_TURN = 3  # unit, edges left
E_MOVE = 4  # unit, from, to, path length
E_ATTACK = 5  # unit, target (-1 tile), tile, option, total (-1 botch), defense, hit, free kind
E_WOUND = 6  # unit, wounds, health, state (0 wounded, 1 dead/killed, 2 stage, 3 returned)
E_AMBUSH = 7  # threat unit, operative
E_REVEAL = 8  # unit, tile, by (0 scout, 1 attack, 2 ambush, 3 area)
E_SPAWN = 9  # unit, tile
E_SCOUT = 10  # unit, tile, total, difficulty, revealed
E_FLIP = 11  # unit, new side
E_REACT = 12  # stored edges at the start of the reaction phase, spent
E_EXIT = 13  # unit, tile
E_HOLD = 14  # tile, held total
E_END = 15  # reason, winner, done, lost
E_STUNNED = 16  # unit
E_BOTCH = 19  # unit, item option
E_PASS = 20  # unit (no useful ACTION)
E_ARCANA = 21  # card, unit concerned (-1 none), negated
E_DRAW = 22  # card (-1: the deck is empty), why (DRAW_*)
E_OVERCOMMIT = 23  # unit, die type added (0 white, 1 black, 2 fatal)
E_FIXED = 24  # unit, item FLIPPED back by an ACTION (``F_FIX``; the ROSTER's item list)
E_PICKUP = 25  # unit, item mask (0: a body), body unit, tile
E_TRADE = 26  # unit, partner, item, 1 given / 0 taken
E_DROP = 27  # unit, item (-1: a body), body unit, tile
E_DISCARD = 28  # HOSTILE unit, item, tile
E_HEAL = 29  # unit, OPERATIVE or CHAMPION healed, how (HEAL_*), wounds now
E_TRAIT = 30  # unit, which (TR_*), target unit or tile

# ------------------------------------------------ the APOCALYPTIC TAROT ("Tarot Effects")
ARCANA_NAMES = (
    "0 The Adventurer",
    "I The Creator",
    "II The Mentor",
    "III The Martyr",
    "IV The Ruler",
    "V The Seeker",
    "VI The Healer",
    "VII The Traditionalist",
    "VIII The Mediator",
    "IX The Hermit",
    "X The Heretic",
    "XI The Conqueror",
    "XII The Abomination",
)
N_ARCANA = 13  # the deck: the 13 printed ARCANA (the other 9 of the 22 print no effect)
A_ADVENTURER, A_MARTYR, A_RULER = 0, 3, 4
RULER_MOVE = 3  # IV The Ruler: "MOVE an ENEMY 3 TILES"
A_CREATOR, A_MENTOR, A_SEEKER, A_HEALER, A_TRADITIONALIST = 1, 2, 5, 6, 7
A_MEDIATOR, A_HERMIT, A_HERETIC, A_CONQUEROR, A_ABOMINATION = 8, 9, 10, 11, 12
#: the ARCANA the AIs play; the others are dealt, drawn and held, never played
ARCANA_PLAYED = (
    A_ADVENTURER,
    A_CREATOR,
    A_MENTOR,
    A_SEEKER,
    A_MARTYR,
    A_RULER,
    A_HEALER,
    A_TRADITIONALIST,
    A_MEDIATOR,
    A_HERMIT,
    A_HERETIC,
    A_CONQUEROR,
    A_ABOMINATION,
)
CREATOR_SUCCESS = 3  # "I – The Creator: After a ROLL, SUCCESS +3."
MENTOR_SECURE = 3  # "II – The Mentor: After a ROLL, SECURE 3."
ABOMINATION_BOTCHES = 3  # "XII – The Abomination: After a ROLL, add 3 BOTCHES."
DRAW_CONCEPT, DRAW_OVERCOMMIT, DRAW_SEEKER = 0, 1, 2
HEAL_TRAIT, HEAL_HEALER_FLIP, HEAL_HEALER_STAGE = 0, 1, 2  # E_HEAL: Patch Up, VI's two modes
TR_REVEAL, TR_STUN, TR_VERDICT, TR_SNARE, TR_HARROW, TR_EXECUTE = 0, 1, 2, 3, 4, 5  # E_TRAIT
OPERATIVE_CARRY = 5  # "Carrying": "By default, OPERATIVES may CARRY 5 ITEMS"
CLANNER_CARRY = 1  # "CLANNERS may CARRY 1 ITEM"
BODY_LOAD, BODY_ARMOR_LOAD = 2, 3  # a DEAD comrade's body: 2 ITEMS, 3 with a WORN ARMOR
