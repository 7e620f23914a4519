"""Column indices, codes and constants of the Heroscape match kernels (plain ints).

numba freezes module-level ints as constants, so the kernels index their plain arrays
with these names; ``compile.py``, ``scenario.py``, ``trace.py`` and ``sandbox.py`` use
the same names.
"""

from __future__ import annotations

# ------------------------------------------------ HX: per hex (space), int64 (static)
H_LEVEL = 0  # level of the space's top (1 = one tile on the table)
H_TERRAIN = 1  # terrain code (T_*)
H_OBSTACLE = 2  # 0, else the obstacle's height in levels (wall, tree): never entered
H_GAP = 3  # 0, else an overhang's gap: figures taller than it cannot enter
H_ZONE = 4  # 0, 1 start zone of A, 2 start zone of B
H_ROW = 5
H_COL = 6
H_NB = 7  # the 6 neighbours at H_NB .. H_NB + 5 (-1 off the map)
H_ORDER_B = 13  # row k: the k-th space in side B's scan order (rows from B's edge)
H_RANK_B = 14  # the space's place in side B's scan order (row k: H_ORDER_B[H_RANK_B[k]] == k)
H_STEP = 15  # H_STEP + k: movement cost of walking onto neighbour k (1 + levels up; a
#  large number when there is none or it is an obstacle)
H_NGAP = 21  # H_NGAP + k: neighbour k's overhang gap (STEP_NONE: none), for reach
H_STOPS = 27  # the space's terrain: 1 molten lava, 2 stops a walker (TR_STOP), 4 water
HX_COLS = 28  # the scenario's columns; the kernels' copy (compile.py) has these too:
H_UP = 28  # 1 when a walker's step onto some neighbour costs more than 1 (uphill)
#  bit sets of spaces (bit b of word w: space 64 w + b; ``nw`` words each, nw = (spaces +
#  63) // 64), word w of set j at column H_BITS + j * nw + w: per space (j < HB_MAP) its
#  neighbours a walker enters for 1 (HB_STEP1) and all its neighbours (HB_ALL, flying);
#  in row 0 only, the battlefield's spaces of molten lava (HB_MOLTEN), of terrain that
#  stops a walker (HB_STOP, TR_STOP) and with an overhang (HB_GAP)
H_BITS = 29
HB_STEP1, HB_ALL, HB_MAP, HB_MOLTEN, HB_STOP, HB_GAP = 0, 1, 2, 2, 3, 4
HB_SETS = 5
STEP_NONE = 1 << 40

# ------------------------------------------------ TR: per terrain code, int64 (static)
TR_STOP = 0  # a single-space figure entering it must stop (water, molten lava)
TR_WATER = 1  # counts as water (Defend the Deep, Swim, falling into water)
TR_DEFENSE = 2  # Defense Value change (shadow +1, toxic land -1, toxic water -2)
TR_SHADOW = 3  # shadow: only Small, Medium and Large figures get the +1
TR_LAVA_FIELD = 4  # end of the round: 1 combat die, skull = 1 wound
TR_MOLTEN = 5  # entering ends the move; d20: 20 survives, else destroyed
TR_WELLSPRING = 6  # start of the round: heroes roll d20 (12+ heal 1, 1-2 take 2)
TR_COLS = 7
TERRAIN_NAMES = (
    "grass",
    "asphalt",
    "concrete",
    "water",
    "toxic water",
    "toxic land",
    "shadow",
    "lava field",
    "molten lava",
    "swamp water",
    "snow",
    "ice",
    "wood",
    "wellspring water",
    "rock",
    "sand",
)
#: One letter per terrain in scenario files, in TERRAIN_NAMES order.
TERRAIN_LETTERS = "gacwtxslmpniduor"

# ------------------------------------------------ FI: per figure, int64 (static)
F_SIDE = 0
F_CARD = 1  # Army Card (order markers go on cards)
F_LIFE = 2
F_MOVE = 3
F_RANGE = 4
F_ATTACK = 5
F_DEFENSE = 6
F_HEIGHT = 7
F_SIZE = 8  # 0 small, 1 medium, 2 large, 3 huge
F_DOUBLE = 9  # double-space figure
F_HCLASS = 10  # index of its height among the match's figure heights (line of sight)
F_POWERS = 11  # bit mask of P_* powers
F_SP_KIND = 12  # special attack: 0 none, 1 Explosion X, 2 Line X
F_SP_X = 13
F_SP_RANGE = 14
F_SP_ATTACK = 15
F_COLS = 16
SIZE_NAMES = ("small", "medium", "large", "huge")
SP_NONE, SP_EXPLOSION, SP_LINE = 0, 1, 2

# powers (bits of F_POWERS)
P_FLYING = 1
P_STEALTH = 2  # Stealth Flying (also has P_FLYING)
P_OBFUSCATION = 4
P_DEEP = 8  # Defend the Deep
P_SWIM = 16
P_DOUBLE_ATTACK = 32
P_NANITE = 64
P_NANOTOXIN = 128
P_GULLOX = 256
P_UNIQUE_HERO = 512  # may pick up Treasure Glyphs
P_BLOODCURSED = 1024
P_CHARGE = 2048  # Charge!!! (Dorim the Bulkhead Brawler; the reading in rules-choices)

# ------------------------------------------------ FR: per figure, float64 (static)
R_PPL = 0  # points per Life ("Scoring")
FR_COLS = 2  # points per Life; greedy's worth per Life as a target (Scoring, or even)

# ------------------------------------------------ CI: per Army Card, int64 (static)
C_SIDE = 0
C_ACTS = 1  # figures it moves and attacks with per turn (silhouettes of a Common card)
C_FIRST = 2  # first figure (figures of a card are consecutive)
C_NFIG = 3
CI_COLS = 4

# ------------------------------------------------ GL: per glyph, int64 (static)
GL_KIND = 0
GL_HEX = 1
GL_UP = 2  # 1 power side up, 0 symbol side up at the start
GL_COLS = 3
GLYPH_NAMES = (
    "Glyph of Astrid",
    "Glyph of Gerda",
    "Glyph of Dagmar",
    "Glyph of Ivor",
    "Glyph of Haukeland",
    "Brooch of Shielding",
    "Glyph of Brandar",
)
G_ASTRID, G_GERDA, G_DAGMAR, G_IVOR, G_HAUKELAND, G_BROOCH, G_BRANDAR = range(7)
#: Scenario-file keys of the glyphs, in GLYPH_NAMES order.
GLYPH_KEYS = ("astrid", "gerda", "dagmar", "ivor", "haukeland", "brooch", "brandar")
#: Permanent power glyphs, temporary power glyphs, treasure glyphs (by kind).
GLYPH_CLASS = (0, 0, 0, 0, 1, 2, 3)  # 0 permanent, 1 temporary, 2 treasure, 3 scenario marker

# ------------------------------------------------ OP: int64 options and scenario values
O_FIRST = 0  # 0 rules, 1 alternate, 2 a, 3 b
O_FORCED = 1  # -1, or the side forced to take round 1's first turn
O_POL_A = 2
O_POL_B = 3
O_ROUNDS = 4  # round limit
O_TIME_WINNER = 5  # at the round limit: -1 score by Life ("Scoring"), 0 A wins, 1 B wins
O_SIDES = 6  # combat die faces
O_SKULL = 7
O_SHIELD = 8
O_FALLING = 9  # falling damage on
O_LEAVE_DICE = 10  # dice of a leaving engagement attack
O_TRAPS = 11  # the scenario specifies traps
O_TRAP_WOUNDS = 12  # the scenario's trap: wounds to the figure
O_CHECK = 13
O_LOOK_K = 14  # strong policy: marker plans tried
O_LOOK_ROLLOUTS = 15
O_THREAT = 16  # greedy: threat weight, per mille
O_NHC = 17  # height classes
O_STRONG_MARGIN = 18  # strong policy: standard errors a plan must gain over greedy's, x 1000
O_THREAT_ALL = 19  # greedy: threat summed over every enemy card (1) or the worst card (0)
O_STRONG_DROP = 20  # strong policy: standard errors behind the leader that drop a plan, x 1000
O_TEMPO = 21  # greedy: the attacker's pursuit weight against a time victory, x 1000
O_HOLD = 22  # greedy: the time-victory side's holding weight, x 1000
O_STRONG_HORIZON = 23  # strong policy: rounds per rollout (this one included)
O_STRONG_END = 24  # strong policy: rollouts play to a time victory's round limit
O_CHARGE = 25  # Charge!!! modelled (1) or not (0)
O_LEVEL_LO = 26  # the battlefield's lowest level (greedy's bounds)
O_LEVEL_HI = 27  # ... and its highest
O_COLS = 28
POL_RANDOM, POL_GREEDY, POL_STRONG = 0, 1, 2
POLICY_NAMES = ("random", "greedy", "strong")
FIRST_MODES = ("rules", "alternate", "a", "b")

#: rows of the kernels' int64 scratch ``wk`` (``match_nb.W_*``), each max(spaces, figures) long
WK_ROWS = 29
#: rows of the float scratch ``wf`` (by figure, max(spaces, figures) long): greedy's worth
#: of attacking an enemy from each of the 5 height relations (:func:`match_nb.foe_worths`),
#: of activating it, the worth of each Army Card's turn and of its figures
#: (:func:`match_nb.place_markers`); by candidate space of a move (in scan order), its
#: first bound and its worth (:func:`match_nb.choose_destination`)
WF_WORTH, WF_VAL, WF_WS, WF_BOUND, WF_SCORE = 5, 6, 7, 8, 9
WF_ROWS = 10

# ------------------------------------------------ S: per figure, int64 (match state)
S_ALIVE = 0
S_HEX = 1  # -1 off the battlefield
S_TAIL = 2  # second space of a double-space figure, else -1
S_WOUNDS = 3
S_DEALT = 4
S_TAKEN = 5
S_SCORE = 6  # wounds dealt, x points per Life of the wounded figure (rounded)
S_ACTIVE = 7  # activated this Army Card turn
S_NANITE = 8  # Nanite Shielding flipped this round
S_NANOTOX = 9  # Nanotoxin Coating flipped this round
S_TREASURE = 10  # treasure glyph carried + 1, else 0
S_ATTACKS = 11
S_ROUND_OUT = 12  # round it was destroyed in
S_COLS = 13

# ------------------------------------------------ GS: per glyph, int64 (match state)
GS_HEX = 0  # -1 off the battlefield (carried or removed)
GS_UP = 1
GS_CARRIER = 2  # -1, else the figure carrying it
GS_COLS = 3

# ------------------------------------------------ G: int64 match state
G_ROUND = 0
G_FIRST = 1  # who took round 1's first turn
G_INIT = 2  # who has the Initiative this round
G_ACT = 3  # figure activations
G_VIOL = 4
G_END = 5  # -1 playing, else the end reason
G_WINNER = 6
G_NEV = 7
G_TRACE = 8
G_DPOS = 9  # dice script position
G_CHECK = 10
G_ROLL = 11  # 1 inside a rollout (no trace)
G_ATTACKS = 12
G_LEAVE = 13  # leaving engagement attacks
G_FALLS = 14
G_GLYPHS = 15  # glyphs activated or picked up
G_TURNS = 16  # player turns played
G_TRAPS = 17
G_KILLER = 18  # scratch
G_CHARGE = 19  # Charge!!! in effect for side A (G_CHARGE) / side B (G_CHARGE + 1)
G_COLS = 21

END_ELIMINATION, END_ROUNDS, END_SCENARIO = 0, 1, 2
END_REASONS = ("elimination", "round limit (scoring)", "scenario victory at the round limit")
RECORD_EXTRAS = ("attacks", "leaving_attacks", "falls", "glyphs", "player_turns", "traps")
UNIT_EXTRAS = ("attacks", "round_destroyed")

# ------------------------------------------------ events (trace rows, int64)
EV_COLS = 12  # kind, round, side, then 9 values
E_MARKERS = 1  # card of 1, 2, 3, X
E_INIT = 2  # roll a, roll b, winner, rerolls, bonus a, bonus b
E_TURN = 3  # marker number, card
E_MOVE = 4  # fig, from, to, spaces, flying
E_LEAVE = 5  # attacker, fig, skulls, wounds
E_FALL = 6  # fig, levels, skulls, wounds
E_ATTACK = 7  # fig, target, attack dice, defense dice, skulls, shields, wounds, special
E_DESTROYED = 8  # fig
E_GLYPH = 9  # fig, glyph, what (0 activated, 1 picked up, 2 trap, 3 healed), amount
E_LAVA = 10  # fig, skulls (end of round), or d20 (molten, value 2 = 1)
E_END = 11  # reason, winner, score a x10, score b x10
E_NOFIG = 12  # marker number, card (no figure left)
E_WELL = 13  # fig, d20, change
E_DEPLOY = 14  # fig, space, tail space (-1 none)
E_CHARGE = 15  # fig (Charge!!! triggered), enemy charged
