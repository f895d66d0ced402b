"""Plain-integer layout of the game: cell codes, the state array, the params array, actions.

The compiled engine works on flat numpy arrays (no Python objects per cell), so every field
is a named offset here. Change a layout and every reader follows; bump ENGINE_VERSION when
the behaviour of a game changes (golden traces are keyed by it).
"""

ENGINE_VERSION = 1

# --- board -------------------------------------------------------------------------------
MAX_COLS = 8
MAX_ROWS = 12
MAX_PLAYERS = 4

EMPTY = 0
# 1..5: a monster with that many eyes
SHIP_L = 6  # left half of an intact command ship
SHIP_R = 7  # right half of an intact command ship
SHIP_DAMAGED = 8  # a lone half
MINE = 9
FIGHTER = 10  # FIGHTER + seat

# Token kinds in reserves and the box: 1..5 monsters, KIND_SHIP a ship half (worth 10 points).
KIND_SHIP = 6
N_KINDS = 7  # index 0 unused

# --- player status and markers -----------------------------------------------------------
ACTIVE, DESTROYED, OUT = 0, 1, 2
PLAYER_STATUS_NAMES = ("active", "destroyed", "out")
NONE, HELD, USED = 0, 1, 2  # missile marker
CHARGED = 1  # power-up marker: NONE, CHARGED, USED

# --- game status -------------------------------------------------------------------------
RUNNING, VICTORY, STALL, RAID, CAP = 0, 1, 2, 3, 4
STATUS_NAMES = ("running", "victory", "stall", "raid", "cap")

# --- params (int64 array built from a Ruleset) -------------------------------------------
P_COLS = 0
P_ROWS = 1
P_START_ROWS = 2
P_MONSTERS = 3  # 5 slots: counts of 1..5-eye monsters
P_SHIPS = 8
P_SHIP_POINTS = 9
P_SETUP_HALVES_BOX = 10
P_HORIZONTAL_ONLY = 11
P_STEAL_HIGHEST = 12
P_MINE_ENABLED = 13
P_MINE_COL = 14  # 0-based
P_MINE_ROW_FIRST = 15  # 0-based
P_MINE_ROW_LAST = 16  # 0-based
P_MINE_STEP = 17
P_DESCENT_END_OF_TURN = 18
P_DESCENT_ON_MINE = 19
P_DESCENT_NEEDS_FULL_ROW = 20
P_DESTROYED_OUT = 21
P_REENTRY_COST = 22
P_RAID_ENTER_BOTTOM = 23
P_MISSILE_ENABLED = 24
P_MISSILE_COST = 25
P_UPGRADE_ENABLED = 26
P_UPGRADE_COST = 27
P_MAX_LEVEL = 28
P_POWER_ENABLED = 29
P_POWER_COST = 30
P_POWER_PERMANENT = 31
P_STALL_TURNS = 32
P_TURN_CAP = 33
P_EMPTY_FIGHTER_MISS = 34
P_RAID_ON_COLLISION = 35  # enter_bottom: a collision on entering the bottom row raids too
P_NO_ROOM_OUT = 36  # a destroyed fighter with no empty bottom cell: its player is out
P_VICTORY_AFTER_REFILL = 37  # an emptied board wins only if the end-of-turn refill is empty
N_PARAMS = 38

# --- state (int32 array) -----------------------------------------------------------------
S_BOARD = 0  # MAX_ROWS * MAX_COLS cells, index row * MAX_COLS + col, row 0 at the bottom
MAX_TOKENS = 192
S_PILE = S_BOARD + MAX_ROWS * MAX_COLS  # tokens, drawn from S_PILE_TOP up to S_PILE_LEN
S_PILE_TOP = S_PILE + MAX_TOKENS
S_PILE_LEN = S_PILE_TOP + 1
S_ASIDE_L = S_PILE_LEN + 1  # lone left halves waiting beside the board
S_ASIDE_R = S_ASIDE_L + 1
S_ASIDE_SHIPS = S_ASIDE_R + 1  # complete ships waiting for the next wave
S_BOX = S_ASIDE_SHIPS + 1  # N_KINDS counts of tokens in the box
S_COL_COUNT = S_BOX + N_KINDS  # invaders per column (kept incrementally)
S_INVADERS = S_COL_COUNT + MAX_COLS  # invaders on the board
S_MINE_ALIVE = S_INVADERS + 1
S_MINE_COL = S_MINE_ALIVE + 1
S_MINE_ROW = S_MINE_COL + 1
S_N_PLAYERS = S_MINE_ROW + 1
S_TO_MOVE = S_N_PLAYERS + 1
S_TURN = S_TO_MOVE + 1  # player turns played
S_ROUND = S_TURN + 1  # completed rounds (seat order wrapped)
S_STATUS = S_ROUND + 1
S_STALL_RUN = S_STATUS + 1  # consecutive shooting turns without a hit
S_EMPTIED = S_STALL_RUN + 1  # a column was emptied this turn (end-of-turn descent)
S_DESCENTS = S_EMPTIED + 1
S_REINFORCED = S_DESCENTS + 1  # tokens placed by reinforcements
S_PLAYERS = S_REINFORCED + 1

# per-player block
PL_RESERVE = 0  # N_KINDS counts (index 0 unused)
PL_STATUS = PL_RESERVE + N_KINDS
PL_LEVEL = PL_STATUS + 1
PL_MISSILE = PL_LEVEL + 1
PL_POWER = PL_MISSILE + 1
PL_COL = PL_POWER + 1
PL_ROW = PL_COL + 1
# statistics
PL_TAKEN = PL_ROW + 1  # N_KINDS counts of tokens taken by shots and missiles
(
    PL_STEALS_MADE,
    PL_STEALS_SUFFERED,
    PL_MISSILES_BOUGHT,
    PL_MISSILES_FIRED,
    PL_MISSILE_POINTS,
    PL_UPGRADES_BOUGHT,
    PL_POWER_UPS_BOUGHT,
    PL_POWER_UPS_USED,
    PL_POINTS_PAID,
    PL_LOSSES,
    PL_REENTRIES,
    PL_MINE_EXPLOSIONS,
    PL_SHOTS,
    PL_HITS,
    PL_TURNS,
    PL_SIZE,  # the block's size: one past the last field
) = range(PL_TAKEN + N_KINDS, PL_TAKEN + N_KINDS + 16)

# An index derived from the board, kept in step by every write (engine.set_cell): bit r of
# word c is set when cell (c, r) holds anything. It makes "first object up a column" one
# table lookup. It is not part of the game: trace hashes stop before it (HASHED_SIZE).
S_OCCUPIED = S_PLAYERS + MAX_PLAYERS * PL_SIZE
HASHED_SIZE = S_OCCUPIED
STATE_SIZE = S_OCCUPIED + MAX_COLS

# --- actions (int32 array): one whole turn --------------------------------------------
A_REENTER_COL = 0  # 0-based bottom-row column for a destroyed fighter; -1 declines
A_BUY = 1  # BUY_NONE, BUY_MISSILE, BUY_UPGRADE, BUY_POWER_UP
A_PAY_EXPLICIT = 2  # 1: A_PAY holds the tokens to pay; 0: the cheapest way
A_PAY = 3  # N_KINDS counts (index 0 unused)
A_DEST_COL = A_PAY + N_KINDS  # destination (the current cell to stay)
A_DEST_ROW = A_DEST_COL + 1
A_PU_COL = A_DEST_ROW + 1  # power-up cell; -1 for none
A_PU_ROW = A_PU_COL + 1
A_MISSILE = A_PU_ROW + 1  # 1: the first shot is the missile
A_MINE = A_MISSILE + 1  # 1: move the mine
A_MINE_ROW = A_MINE + 1  # 0-based re-entry row when the mine wraps; -1 none
ACTION_SIZE = A_MINE_ROW + 1

BUY_NONE, BUY_MISSILE, BUY_UPGRADE, BUY_POWER_UP = 0, 1, 2, 3
BUY_NAMES = ("none", "missile", "upgrade", "power_up")

# --- refusals: the rule a refused turn breaks --------------------------------------------
OK = 0
ERROR_NAMES = (
    "ok",
    "game_over",  # the game has ended
    "player_out",  # the seat to move is out of the game
    "reenter_not_destroyed",  # re-entry given for a fighter on the board
    "reenter_cell",  # re-entry cell is not an empty bottom-row cell
    "move_off_board",
    "move_not_straight",  # destination not on one of the allowed lines
    "move_blocked",  # the path or the destination is not empty
    "buy_disabled",  # the ruleset has no such purchase
    "buy_limit",  # missile held/used, power-up held/used, top level reached
    "cannot_pay",  # reserve worth less than the price
    "pay_invalid",  # named tokens not in the reserve or worth less than the price
    "buy_takes_turn",  # a purchase turn cannot also move, shoot or move the mine
    "missile_none",  # no missile held
    "missile_no_invader",  # the first object up the column is not an invader
    "missile_row_fighter",  # another fighter is in the missile's row
    "power_up_none",  # no charged power-up
    "power_up_cell",  # power-up cell not on the move's path
    "mine_none",  # no mine on the board
    "mine_into_fighter",
    "mine_reenter_row",  # wrap without a valid mine-space row
    "place_cell",  # setup: fighter placed off an empty bottom-row cell
    "mine_start_cell",  # setup: mine placed off a free mine space
    "census",  # checking mode: a token was lost or duplicated (an engine bug)
)
(
    _OK,
    E_GAME_OVER,
    E_PLAYER_OUT,
    E_REENTER_NOT_DESTROYED,
    E_REENTER_CELL,
    E_MOVE_OFF_BOARD,
    E_MOVE_NOT_STRAIGHT,
    E_MOVE_BLOCKED,
    E_BUY_DISABLED,
    E_BUY_LIMIT,
    E_CANNOT_PAY,
    E_PAY_INVALID,
    E_BUY_TAKES_TURN,
    E_MISSILE_NONE,
    E_MISSILE_NO_INVADER,
    E_MISSILE_ROW_FIGHTER,
    E_POWER_UP_NONE,
    E_POWER_UP_CELL,
    E_MINE_NONE,
    E_MINE_INTO_FIGHTER,
    E_MINE_REENTER_ROW,
    E_PLACE_CELL,
    E_MINE_START_CELL,
    E_CENSUS,
) = range(len(ERROR_NAMES))
