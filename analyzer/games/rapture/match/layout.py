"""Integer layout of the match state: column indices and enums shared by Python and numba.

Every number here is a plain module-level ``int`` (numba freezes them as
compile-time constants).  :mod:`trace` and :mod:`report` map the enums back to
words.  The rulebook is ``rapture.txt``; sections are cited where a constant
encodes a rule.

State arrays (one match; see :mod:`compile` for how they are filled):

* static, per model ``SI`` (int64) / ``SF`` (float64), per unit ``US`` (int64);
* dynamic, per model ``MF`` (x, y) / ``MI`` (int64), per unit ``UI`` (int64),
  globals ``G`` (int64) and ``GF`` (float64), terrain ``TER`` (float64), the
  generator state, the dice script and the trace buffer.
"""

from __future__ import annotations

from analyzer.games.rapture import rules

# ---------------------------------------------------------------- battlefield
#: "Measure the Battlefield": 90 x 90 cm, deployment zones 10 cm deep on opposite edges.
BOARD = 90.0
DEPLOY_DEPTH = 10.0
#: B2B tolerance: two bases (or a base and a terrain piece) closer than this touch.
CONTACT = 0.05
#: Gap left when a model is placed in contact (inside CONTACT).
TOUCH_GAP = 0.01
#: Gap kept to enemy models by moves that are not called as a charge (outside CONTACT).
KEEP_GAP = 0.1
#: Clearance of a path going around an allied base (state_nb.plan_move), beyond contact.
DETOUR_GAP = 0.05
#: "Formation": squad models at most 2 cm apart.
SQUAD_GAP = 2.0
#: "Small Obstacles": each crossed obstacle costs 5 cm of movement.
OBSTACLE_COST = 5.0
#: "Despair Marker": removed once the unit is 20 cm away from all opposing units.
DESPAIR_RANGE = 20.0
DESPAIR_MP = 2
#: "Radiation Marker": permanently -1 INI and -5 MOV.
RADIATION_INI = 1
RADIATION_MOV = 5
#: "Action: Retreat": costs 1 RP and 3 MP.
RETREAT_RP = 1
RETREAT_MP = 3
#: "End of the Game": one-time bonus for disabling 100 points or all units of a player.
BONUS_VP = 30
BONUS_POINTS = 100
LAST_ROUND = rules.LAST_ROUND
BLOCK_AT = rules.BLOCK_AT
SHELTER_BLOCK_AT = rules.SHELTER_BLOCK_AT
DODGE_AT = rules.DODGE_AT
REACTION_PENALTY = rules.REACTION_SKILL_PENALTY
COVER_OBSTACLE = rules.COVER_DEF_BONUS["obstacle"]
COVER_SHELTER = rules.COVER_DEF_BONUS["shelter"]
DIFFICULT_AT = rules.DIFFICULT_TERRAIN_AT
#: "Actions and Reactions" overview: round limits.
MOVE_LIMIT = 2
CC_LIMIT = 2
RANGED_LIMIT = 2
#: A skill worse than 6+ never hits.
NEVER = 7

# ------------------------------------------------------------------- enums
# unit types ("Your Battlegroup")
HERO, BAND, SQUAD, VEHICLE = 0, 1, 2, 3
UNIT_TYPE_NAMES = ("hero", "band", "squad", "vehicle")
# model roles
R_HERO, R_LEADER, R_APPRENTICE, R_SQUAD, R_VEHICLE = 0, 1, 2, 3, 4

# stats, in the order of ``units.Stat`` (bar effects and abilities name them)
ST_CCS, ST_MMS, ST_DEF, ST_INI, ST_MOV, ST_TEC, ST_ATT, ST_ROF, ST_AP, ST_RP = range(10)
N_STATS = 10
STAT_NAMES = ("ccs", "mms", "defense", "ini", "mov", "tec", "att", "rof", "ap", "rp")
#: Bar effect "stat" code of the Escape box.
EFFECT_ESCAPE = -1

# terrain kinds ("4. Terrain")
T_BUILDING, T_OBSTACLE, T_DIFFICULT, T_WATER, T_IMPASSABLE, T_TRANSPARENT = range(6)
TERRAIN_NAMES = ("building", "obstacle", "difficult", "water", "impassable", "transparent")
# terrain columns
TK, TX0, TY0, TX1, TY1, TBLOCK, TCOVER, TSOLID = range(8)
T_COLS = 8
MAX_TERRAIN = 24
#: models in one match, both sides (scratch lists are this long)
MAX_MODELS = 48

# markers ("Status Effects and Status Markers")
MK_SHELTER, MK_ESCAPE, MK_POISON, MK_FIRE, MK_RADIATION, MK_DESPAIR, MK_LOADING = range(7)
N_MARKERS = 7
MARKER_NAMES = ("shelter", "escape", "poison", "fire", "radiation", "despair", "loading")

# actions (policy candidates) and reactions
A_END, A_MOVE, A_CHARGE, A_CC, A_RANGED, A_RETREAT, A_GETUP, A_EXTINGUISH, A_PICKUP = range(9)
ACTION_NAMES = (
    "end",
    "move",
    "charge",
    "close combat attack",
    "ranged attack",
    "retreat",
    "get up",
    "extinguish fire",
    "pick up object",
)
RE_NONE, RE_COUNTERSHOT, RE_DODGE, RE_COUNTERBLOW, RE_SHELTER = range(5)
REACTION_NAMES = ("none", "countershot", "dodge", "counterblow", "seek shelter")

# policies
P_RANDOM, P_GREEDY, P_LOOKAHEAD = 0, 1, 2
POLICY_NAMES = ("random", "greedy", "lookahead")

# end reasons
END_ROUNDS, END_WIPEOUT_A, END_WIPEOUT_B, END_BOTH = 0, 1, 2, 3
END_NAMES = (
    "rounds played out",
    "side A has no operational units",
    "side B has no operational units",
    "neither side has operational units",
)

# mission kinds (missions.yaml)
MIS_HOLD, MIS_CARRY, MIS_TAKEOUT = 0, 1, 2
MISSION_KIND_NAMES = ("hold_area", "carry_object", "take_out")
# mission columns (coordinates in the owner's frame: y measured from the owner's edge)
(
    M_KIND,
    M_SHAPE,  # 0 circle (M_X, M_Y, M_R), 1 rectangle (M_X, M_Y, M_X1, M_Y1)
    M_X,
    M_Y,
    M_R,
    M_X1,
    M_Y1,
    M_VP,
    M_WHEN,  # 0 preparation phase, 1 cleanup phase
    M_FROM_ROUND,
    M_CONTESTED,  # 1: no VP while an opposing unit touches the area
    M_ZONE_DEPTH,  # carry: the delivery zone is the owner's first M_ZONE_DEPTH cm
    M_PICKUP_AP,
    M_TARGET_RULE,  # take out: 0 the opponent's most expensive unit
    M_OBJ_SIZE,
) = range(15)
M_COLS = 15

# ------------------------------------------------------------ static arrays
# SI: per model, int64
(
    SI_UNIT,
    SI_SIDE,
    SI_ROLE,
    SI_POOL,  # row holding AP/RP/round limits: the model itself, or the squad's first model
    SI_HP,
    SI_CCS,
    SI_MMS,
    SI_DEF,
    SI_INI,
    SI_MOV,
    SI_TEC,
    SI_ATT,
    SI_ROF,
    SI_AP,
    SI_RP,
    SI_DMGRED,
    SI_WEAPON,
    SI_POINTS,  # VP for this model alone (apprentices; 0 for squad models)
    SI_MARKERS,  # 1 if status markers affect this model (not apprentices)
    SI_ONHIT_MK,  # marker inflicted by this model's wounding attacks (-1 none)
    SI_ONHIT_N,
    SI_LOAD_DICE,  # extra attack dice while the unit has a Loading Marker
    SI_NHE,  # number of health bar effects
    SI_HE,  # first of MAX_EFFECTS * 3 columns: box, stat, change
) = range(24)
MAX_EFFECTS = 4
SI_COLS = SI_HE + 3 * MAX_EFFECTS
# SF: per model, float64 (SF_VPH: the unit's points per health point, for AI scoring)
SF_R, SF_RANGE, SF_VPH = 0, 1, 2
SF_COLS = 3
# US: per unit, int64
(
    US_SIDE,
    US_TYPE,
    US_FIRST,
    US_N,
    US_LEAD,
    US_POINTS,  # VP for the whole unit (a band: leader plus listed apprentices)
    US_MP,
    US_NME,
    US_ME,  # first of MAX_EFFECTS * 3 columns: box, stat (EFFECT_ESCAPE), change
) = range(9)
#: the model ranges of the unit's own side and of the opposing side (models are numbered
#: side by side, unit by unit: each side's models are one contiguous range), so that loops
#: over one side's models visit only those, in the same order as a filtered loop over all
US_OWN_LO = US_ME + 3 * MAX_EFFECTS
US_OWN_HI = US_OWN_LO + 1
US_OPP_LO = US_OWN_LO + 2
US_OPP_HI = US_OWN_LO + 3
US_COLS = US_OWN_LO + 4

# ----------------------------------------------------------- dynamic arrays
MF_X, MF_Y = 0, 1
MF_COLS = 2
(
    MI_ALIVE,
    MI_WOUNDS,
    MI_AP,
    MI_RP,
    MI_MOVES,
    MI_CC,
    MI_RANGED,
    MI_ENG,  # number of opposing models in B2B
    MI_WATER,  # 1: the model stands in a body of water
    MI_DEALT,
    MI_TAKEN,
    MI_CREDIT,  # side credited with this model's victory points (-1: none yet)
    MI_CS,  # current stats (N_STATS columns from here)
) = range(13)
MI_COLS = MI_CS + N_STATS
(
    UI_STATUS,  # 0 on the battlefield, 1 casualty, 2 escaped
    UI_ACT,  # activated this round
    UI_ACTS,  # activations this round (invariant check)
    UI_MPLOST,
    UI_DESPMP,  # MP lost through Despair Markers
    UI_ENG,  # tied in close combat
    UI_ESC_CREDIT,  # side credited with this unit's escape (-1 nobody)
    UI_CARRY,  # mission objects carried
    UI_VP,  # victory points earned by this unit
    UI_DEALT,  # wounds dealt by this unit
    UI_TAKEN,
    UI_CREDIT,  # side credited with disabling this unit (-1 nobody / not disabled)
    UI_END,  # activation ended (retreat)
    UI_MK,  # marker counts (N_MARKERS columns from here)
) = range(14)
UI_COLS = UI_MK + N_MARKERS

(
    G_ROUND,
    G_VP0,
    G_VP1,
    G_BONUS0,
    G_BONUS1,
    G_DIS0,  # points disabled by side 0
    G_DIS1,
    G_MVP0,  # mission victory points of side 0
    G_MVP1,
    G_FIRST,  # side with the first activation this round
    G_FIRST1,  # side with the first activation in round 1
    G_END,  # end reason
    G_OVER,  # 1 once the game is over
    G_NT,  # terrain pieces
    G_MIS0,  # mission index of side 0
    G_MIS1,
    G_SWAP,  # 1: side 0 deploys at the top edge (y = 90)
    G_TRACE,  # 1: record events
    G_NEV,  # events recorded
    G_VIOL,  # invariant violations found
    G_CHECK,  # 1: check invariants after every action
    G_ACTIVATIONS,
    G_ACTIONS,
    G_CARRIER0,  # unit carrying side 0's object (-1: on the ground)
    G_CARRIER1,
    G_DONE0,  # side 0's mission completed (carry / take out)
    G_DONE1,
    G_TARGET0,  # take out: side 0's target unit (an opposing unit)
    G_TARGET1,
    G_MATCH,
    G_ROLLOUT,  # 1 inside a lookahead rollout
    G_NU0,  # units of side 0
    G_NU1,
    G_ACTSIDE,  # side whose activation is running
    G_POL0,  # policies
    G_POL1,
    G_STOPAFTER,  # rollouts: stop after this many more activations (-1: never)
    G_POINTS0,  # list points of side 0
    G_POINTS1,
    G_PHASE,  # next step of the game driver (PH_*)
    G_NEXTSIDE,  # side whose turn it is to activate
    G_FORCE_REACTION,  # rule tests: the reaction every affected unit takes when legal (-1: AI)
    G_ENG_OK,  # 1: the engagement flags are up to date (no model moved or fell since)
    G_MOVES,  # models moved, placed or removed so far (keys the walk's neighbour lists)
) = range(44)
G_COLS = 44
#: the VP terms greedy's attack values depend on (policies_nb._values_key)
KEY_G = (G_VP0, G_VP1, G_MVP0, G_MVP1, G_DIS0, G_DIS1, G_CARRIER0, G_CARRIER1)
PH_PREP, PH_ACT, PH_CLEAN, PH_OVER, PH_DONE = 0, 1, 2, 3, 4
(GF_OBJX0, GF_OBJY0, GF_OBJX1, GF_OBJY1, GF_AREAX0, GF_AREAY0, GF_AREAX1, GF_AREAY1) = range(8)
GF_COLS = 8

# options (int64), set by the Python API
(
    O_POLICY0,
    O_POLICY1,
    O_LA_K,
    O_LA_DEPTH,
    O_LA_ROLLOUTS,
    O_FIRST_MODE,  # 0 rulebook (combat value, d6 ties), 1 alternate, 2 random
    O_BASE_COUNTS,  # 1: "the size of the base counts to the travelled distance"
    O_LOF_ODD,  # 1: the model in the line of fire takes the odd hits (1st, 3rd, ...)
    O_OWN_ESCAPE_VP,  # 1: VP for a self-inflicted escape go to the opponent, 0: nobody
    O_CHECK,
    O_SCENARIO,  # number of fixed terrain pieces (0: generate per match)
    O_SWAP_EDGES,  # 1: odd matches swap deployment edges
    O_MISSIONS,  # 1: play missions
    O_BAND_INI,  # 0: a band's INI is the sum of its models' INI, 1: the leader's only
    O_MAX_ROUNDS,
    O_TERRAIN_CHECK_WATER,  # reserved
    O_SLOW_TRACE,  # reserved
    O_FIRST_CHOICE,  # how a chooser (<100 points) decides: 0 take the first activation
    O_ROUND1_FIRST,  # forced first side in round 1 (-1: by the rules)
    O_HAND0,  # first of 3 mission indices per side (O_HAND0 .. O_HAND0 + 5)
) = range(20)
O_HAND_N = 3
#: greedy scoring settings (after the mission hands, O_HAND0 .. O_HAND0 + 5)
O_AI_THREAT = O_HAND0 + 2 * O_HAND_N  # weight of the opposing threat at a position, in %
O_AI_WINCAP = O_AI_THREAT + 1  # 1: VP count only up to what can still decide the game
O_AI_TEMPO = O_AI_WINCAP + 1  # 1: no value for attacks after the last round
O_AI_PRESS = O_AI_TEMPO + 1  # 1: value removing threats and carriers, closing in
#: per side (side 0, side 1): % weight of the paced carry pull (0: the fixed pulls before it)
O_AI_CARRY0 = O_AI_PRESS + 1
#: per side: 1: greedy scores VP through the chance of winning (normal approximation)
O_AI_WINPROB0 = O_AI_CARRY0 + 2
#: per side: 1: greedy values wounds through the kill chance they add (not per HP)
O_AI_WOUNDKILL0 = O_AI_WINPROB0 + 2
#: per side: greedy's search: 0 full, 1 fast (fewer move candidates scored), 2 nearest
#: (the nearest cover piece only), 3 lazy (nearest's, fewer, moves walked while best;
#: the default)
O_AI_FAST0 = O_AI_WOUNDKILL0 + 2
O_COLS = O_AI_FAST0 + 2

# ------------------------------------------------------------------ trace
(
    EV_ROUND,  # a: round
    EV_ORDER,  # side first; a: combat value side 0, b: side 1, c: roll-off (-1 none)
    EV_ACTIVATE,
    EV_MOVE,  # a,b: from x,y (mm); c,d: to x,y; e: cm travelled budget used (mm)
    EV_CHARGE,  # tunit/tmodel: contacted
    EV_ATTACK,  # a: kind (A_CC/A_RANGED/countershot/counterblow), b: dice, c: hit_at,
    # d: hits, e: faces (packed), f: target model
    EV_BLOCK,  # model blocking; a: dice, b: block_at, c: blocks, d: faces, e: cover
    EV_WOUND,  # model; a: wounds, b: hp left
    EV_CASUALTY,  # model removed
    EV_DISABLED,  # unit; a: credited side, b: victory points
    EV_REACTION,  # unit reacting; a: reaction, b: RP paid
    EV_DODGE,  # a: dice, b: successes, c: faces
    EV_LOF,  # model in the line of fire; a: hits to it, b: hits to the target
    EV_MARKER,  # unit; a: marker, b: +1 gained / -1 lost, c: count now
    EV_ESCAPE_MOVE,  # unit; a,b: to x,y (mm), c: escaped
    EV_RESCUE,  # unit rescued; a: rescuer unit
    EV_VP,  # side; a: amount, b: reason (0 unit, 1 bonus, 2 mission, 3 escape at end)
    EV_RETREAT,
    EV_GETUP,
    EV_EXTINGUISH,
    EV_PICKUP,
    EV_DELIVER,
    EV_END,  # a: reason, b: vp side 0, c: vp side 1
    EV_DEPLOY,  # unit; a,b: x,y (mm)
    EV_TERRAIN,  # a: kind, b..e: x0,y0,x1,y1 (mm)
    EV_MISSION,  # side; a: mission index
    EV_WATER,  # model; a: die, b: wound
    EV_DIFFICULT,  # model; a: die, b: needed, c: passed
    EV_POISON,  # unit loses 1 AP
    EV_FIRE,  # unit; a: damage
    EV_FORMATION,  # model put back into formation / engaged
    EV_PHASE,  # a: 0 preparation, 1 activation, 2 cleanup
    EV_MORALE,  # unit; a: MP lost, b: MP lost in total
    EV_EFFECT,  # model or unit; a: stat, b: change
    EV_NOACTION,  # unit ends its activation
    EV_FIRSTCHOICE,  # side that chose; a: chosen first side
) = range(36)
EV_COLS = 13  # code, round, side, unit, model, tunit, tmodel, a, b, c, d, e, f

# policy candidates: one row per candidate action (float64)
C_KIND, C_ACTOR, C_TARGET, C_X, C_Y, C_SCORE = range(6)
C_COLS = 6
MAX_CAND = 96

# tables: exact wound tails, see compile.wound_tables
MAX_DICE = 30
MAX_BLOCK = 16

# functions called by address (see calls_nb.py and kernels.py)
(
    F_CANDIDATES,
    F_MOVE,
    F_CC,
    F_RANGED,
    F_RETREAT,
    F_PREP,
    F_CLEANUP,
    F_END,
    F_CHOOSE,
    F_START,
    F_AFTER,
    F_ADD_MARKER,
    F_REMOVE_MARKER,
    F_MOVE_UNIT,
    F_STRIKE,
    F_WALK,
    F_WOUND,
    F_ESCAPE,
    F_FORMATION,
    F_DRIVE,
    F_FINISH,
    F_LOOKAHEAD,
    F_CHOOSE_LOOKAHEAD,
    F_SETUP,
    F_LOSE_MP,
    F_PREPARE,
    F_VALUE_AT,
) = range(27)
N_F = 27
#: function addresses start at this slot of the context X (after 18 arrays x 8 slots)
X_FN = 144
X_SIZE = X_FN + 32

# scratch regions of D[9] (WS, float64) and D[10] (WI, int64): fixed per function, so no
# allocation happens in the hot loops (none of these functions is re-entered while its
# region is in use)
#: path-planning cache (``geometry_nb.plan_path``), one slot per base radius, filled once per
#: match (terrain never changes during a match): the solid pieces grown by the radius, the
#: free corners of the grown pieces, the shortest paths between all corners (Floyd-Warshall
#: over the corner pairs that see each other), and the shortest paths from the last start
#: point to every corner (the moves scored for one decision, and the move then made, all
#: start at the same point);
#: ``GEO_SLOTS`` radii per context and a scratch slot
WS_GEO = 2048
GEO_MAXC = 4 * MAX_TERRAIN
GEO_HEAD = 4  # match key + 1, radius, corners, solid pieces
GEO_CX = GEO_HEAD
GEO_CY = GEO_CX + GEO_MAXC
GEO_SOLID = GEO_CY + GEO_MAXC  # x0, y0, x1, y1 per solid piece, grown
#: the last start point (x, y, number of nodes settled), then per node (0 the start, 2.. the
#: corners; 1 is the goal, unused): distance from the start, previous node, settling order
GEO_START = GEO_SOLID + 4 * MAX_TERRAIN
GEO_SDIST = GEO_START + 3  # start x, y, corners reached from it
GEO_SFIRST = GEO_SDIST + GEO_MAXC  # first corner of the path to each corner
GEO_SORDER = GEO_SFIRST + GEO_MAXC  # corners reached, nearest first
GEO_NEXT = GEO_SORDER + GEO_MAXC  # all corner pairs: next corner on the shortest path
GEO_DIST = GEO_NEXT + GEO_MAXC * GEO_MAXC  # all corner pairs: shortest path length
GEO_SLOT = GEO_DIST + GEO_MAXC * GEO_MAXC
GEO_SLOTS = 4
#: state_nb.refresh_engaged: 1.0 when it holds a snapshot (-1: none), then per model its
#: life, x and y at the last refresh (the contacts in WI_ENG_MASK / WI_ENG_CNT are theirs)
WS_ENG = WS_GEO + (GEO_SLOTS + 1) * GEO_SLOT
WS_SIZE = WS_ENG + 1 + 3 * MAX_MODELS
WI_SIZE = 2048
WS_WALK_T, WS_PLAN, WS_MOVE_WX, WS_MOVE_WY, WS_REACH_WX, WS_REACH_WY, WS_RETREAT, WS_W = (
    0,
    64,
    400,
    500,
    600,
    700,
    800,
    1024,
)
#: per-decision constants of the unit deciding (policies_nb.prepare_values): its unit + 1,
#: whether it is the own unit closest to the mission's area or object, its lead model, the
#: lead's base radius, the lead's action pool model, the unit's weapon range (-1: no
#: weapon), the lead's move budget (at least 1 cm) and the number of own units in play
#: with an Escape Marker
#: state_nb.plan_move: the detour around an allied base (8 x, then 8 y)
WS_DETOUR = 808
assert WS_RETREAT + 2 <= WS_DETOUR and WS_DETOUR + 16 <= WS_W
WS_DECIDE = 1400
DEC_UNIT, DEC_CLOSEST, DEC_LEAD, DEC_R, DEC_POOL, DEC_RANGE, DEC_BUDGET, DEC_ESCAPING = range(8)
WS_TVAL = 1408  # per opposing model: heading values (candidates), kill values (choose_unit)
#: state_nb.walk: the models and pieces within reach of a start point (WI_NEAR: their
#: counts, then the models, then the pieces), for the key in WS_NEAR_KEY (model, x, y,
#: budget, G_MOVES; model -1: none)
WS_NEAR_KEY = 1460
#: state_nb._unoverlap: the unit whose models were all found free, and the G_MOVES then
#: (-1: none)
WS_UNOVERLAP_KEY = 1466
#: policies_nb.reach_point: the dry walks of the greedy's move candidates while no model
#: moves (the decision after an attack scores mostly the same moves): the G_MOVES they
#: hold for (-1: none), their number, then per walk the model, goal x, goal y, mode and
#: budget, and the end x, end y, path length and contact model
WS_REACH_KEY = 1470
WS_REACH_N = 1471
WS_REACH = 1472
REACH_SLOTS = 16
REACH_COLS = 9
assert WS_REACH + REACH_SLOTS * REACH_COLS <= WS_GEO
#: state_nb.find_spot: the squared distance of each of its 24 spots to the preferred point
WS_SPOT = WS_REACH + REACH_SLOTS * REACH_COLS
WI_NEAR = 1700
#: policies_nb.prepare_values: the opposing models in play (living, their unit on the field)
#: of the unit deciding: their number, then their indices in order
WI_FOES = 1800
#: policies_nb.choose_unit: the opposing models in play, as in WI_FOES, and per model how
#: far it threatens (move budget plus weapon range) in WS_THREAT_REACH
WI_URGE = 1850
WS_THREAT_REACH = 1700
#: policies_nb.prepare_values: what the rows of W were computed for (unit, activation,
#: then each model's wounds and life, each unit's status, activation flag and markers,
#: and the ``KEY_G`` VP terms; unit -1: none), so that the next decision of the same
#: activation with none of them changed keeps them (to ``WS_GEO``; a match-up too large
#: for it never keeps them)
WS_WKEY = 1760
WKEY_COLS = 2
assert WI_NEAR + 2 + MAX_MODELS + MAX_TERRAIN <= WI_FOES
assert WI_FOES + 1 + MAX_MODELS <= WI_URGE and WI_URGE + 1 + MAX_MODELS <= WI_SIZE
assert WS_SPOT + 24 <= WS_THREAT_REACH
assert WS_THREAT_REACH + MAX_MODELS <= WS_WKEY and WS_WKEY + WKEY_COLS <= WS_GEO
WI_WALK_K, WI_WALK_FAILED, WI_MEMBERS, WI_TGT = 0, 64, 400, 448
#: refresh_engaged: per model the bit mask of the opposing models it touches, and their number
WI_ENG_MASK, WI_ENG_CNT = 512, 576
#: engine_nb attack actions: 21 scratch lists of up to 48 models
WI_ATK, WI_ATK_N = 640, 48
