"""Plain-number layout of Space Invaders: cells, card icons, powers, the int32 state array, the
float64 params array, the float64 action array and the float64 work array.

Every field is a named offset here (the compiled code works on flat arrays). Change a layout
and every reader follows; bump ENGINE_VERSION when a game's behaviour changes (golden traces
are keyed by it). Line numbers in comments refer to the rulebook
(docs/games/space_invaders/rules.md).
"""

ENGINE_VERSION = 4  # 4: the level-3 extra hit is not optional (line 436; powers.extra_hit)

# --- the board: 5 columns x 4 rows of invader spaces (line 106) ---------------------------
COLS = 5
ROWS = 4
N_CELLS = COLS * ROWS  # cell = row * COLS + col; row 0 is the top row (next to the UFO)
MAX_SEATS = 4
MAX_CARDS = 96  # catalog cards the params can hold (the printed game has 60, line 19)
TRACK_MAX = 20  # both health tracks run 0..20 (line 109)

# card icons (lines 376-386): bit flags
ICON_SHIELD = 1
ICON_TWO_HIT = 2

# --- player-card powers (lines 396-436); 0 is a plain token ------------------------------
PLAIN = 0
CALLED_SHOT, SHORT_WAVE, ADJACENT_INSTEAD, UFO_RELAUNCH = 1, 2, 3, 4  # level 1
RELAUNCH, PIERCE, UFO_FROM_LANDING, LONG_WAVE = 5, 6, 7, 8  # level 2
HEAL, UFO_THREE_TRIES, EXTRA_ADJACENT = 9, 10, 11  # level 3
POWER_NAMES = (
    "plain",
    "called_shot",
    "short_wave",
    "adjacent_instead",
    "ufo_relaunch",
    "relaunch",
    "pierce",
    "ufo_from_landing",
    "long_wave",
    "heal",
    "ufo_three_tries",
    "extra_adjacent",
)
POWER_LEVEL = (0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3)
HEAL_POINTS = 2  # health a UFO hit with the heal power restores (line 434)
UFO_TRIES = 3  # launches of a declared three-tries token, for one UFO hit (line 435)
LEVELS = 3
CARDS_PER_LEVEL = 4  # 12 player cards, 4 of each level (line 59)

# --- random streams (sim.random_streams): 0 shuffles, 1 + seat draws that seat's launches --
SHUFFLE = 0
STRATEGY = 1 + MAX_SEATS  # + seat: that seat's strategy's own draws, apart from its launches
STREAMS = 1 + 2 * MAX_SEATS

# --- where a launch lands ---------------------------------------------------------------
ON_CARDS, IN_UFO, IN_PLANET, MISS, OUT, VOID = 1, 2, 3, 4, 5, 6
LANDING_NAMES = ("", "cards", "ufo", "planet", "miss", "out", "void")

# --- game status ------------------------------------------------------------------------
RUNNING, VICTORY, PLANET_DESTROYED, UFO_SURVIVED, CAP = 0, 1, 2, 3, 4
STATUS_NAMES = ("running", "victory", "planet_destroyed", "ufo_survived", "cap")

# --- decision points (S_PHASE): what the seat to act must decide --------------------------
PH_CHOOSE = 0  # pick the next active token, its aim and the shooter's place
PH_REAIM = 1  # aim the same token again (planet area, a power's re-launch)
PH_RELAUNCH_Q = 2  # level-2 re-launch power: use it on this landing?
PH_RESOLVE = 3  # redirect / extra / blast-wave choices for the turn's tokens
PH_DONE = 4  # the turn is over
PH_OPTION = 5  # an optional action the rules offer now (S_OPTION): take it?

# why a token is aimed again (S_REASON)
WHY_PLANET, WHY_RELAUNCH, WHY_THREE_TRIES, WHY_UFO_CHAIN = 1, 2, 3, 4

# the optional actions ("can", "may") a PH_OPTION asks about (S_OPTION); the record S_CUR is
# the token it concerns
OPT_PLANET_RELAUNCH = 1  # launch again a token that landed in the planet area (line 206)
OPT_UFO_RELAUNCH = 2  # the level-1 bonus re-launch after a UFO hit (line 413)
OPT_HEAL = 3  # the level-3 heal after a UFO hit (line 434)
OPT_BONUS_SHOT = 4  # a bonus shot at the UFO: called shot (line 410), from the landing (419)
OPTION_NAMES = ("", "planet_relaunch", "ufo_relaunch", "heal", "bonus_shot")

# --- params (float64 array built from a ruleset: schema.py's slots, then params.py) -------
P_LEVEL = 0  # setup.level: 0 training .. 3 elite
P_ROWS = 1  # rows in play: 4, or 3 (variant, line 468)
P_DECK = 2  # cards in the invader deck
P_PLANET_START = 3
P_UFO_START = 4
P_START_ACTIVE = 5  # active level-1 tokens at setup (lines 116, 122)
P_PER_LEVEL = 6  # 3 slots: tokens per level on the player cards (line 114)
P_PLANET_RELAUNCH = 9  # re-launch from the planet area (line 206; variant line 467)
P_PLANET_STREAK = 10  # consecutive planet landings that end a token's turn (line 206)
P_LAST_AT = 11  # the last round starts with this many invaders or fewer (line 308)
P_LAST_MULT = 12  # damage multiplier of the last round (line 310)
P_UFO_ATTACK = 13  # damage when the UFO survives the final assault (line 333)
P_HIT_CENTER = 14  # 1: a token hits a card only if its centre is on it
P_TWO_HIT_OTHERS = 15  # 1: a two-hit invader needs hits of two different players
P_REINF_ONCE = 16  # 1: each explosion icon sends reinforcements once a game
P_REINFORCE = 17  # 0: no reinforcements at all
P_FINAL_UNLAUNCHED = 18  # 1: a round ended early leaves only unlaunched tokens for the assault
P_BONUS_HITS = 19  # 1: bonus shots at the UFO also hit invaders they land on
P_UFO_CHAIN = 20  # 1: the level-1 UFO re-launch repeats on every UFO hit
P_LONG_DESTROYS = 21  # 1: the long blast wave destroys outright
P_HEAL_TO_START = 22  # 1: healing stops at the starting health (else the track's top)
P_DEAD_UFO_HITS = 23  # 1: a destroyed UFO can still be "attacked" (heal, re-launch)
P_CRASH_SCORES = 24  # 1: invaders crashing in the last round score as destroyed
P_CALLED_DESTROYED = 25  # 1: a called shot succeeds only if the invader is destroyed
P_PLAIN_POWER = 26  # a power id played as a plain token (power uplift); 0 none
P_SCRIPTED = 27  # 1: landings come from the script (scenarios), not from dexterity
P_ROUND_CAP = 28
P_SEATS_SOLO = 29  # hands one person plays in a 1-player game (0 otherwise)
# geometry (mm; x to the right from the board's left edge, y up from its bottom edge)
P_GRID_X0 = 30  # left edge of column 0
P_PITCH_X = 31
P_CARD_W = 32
P_GRID_Y0 = 33  # bottom edge of the bottom row
P_PITCH_Y = 34
P_CARD_H = 35
P_PLANET_LINE = 36  # top of the dotted section (line 107, 206)
P_TOKEN_R = 37
P_UFO_X0 = 38
P_UFO_X1 = 39
P_UFO_Y0 = 40
P_UFO_Y1 = 41
P_SHOOTER_Y = 42
P_BOARD_W = 43
P_BOARD_H = 44
P_WAVE_SHORT = 45
P_WAVE_LONG = 46
# dexterity
P_SPREAD = 47  # lateral sd per mm of distance (spread_mm / DEX_REF_MM)
P_FLOOR = 48  # sd at zero distance (mm)
P_LENGTH_RATIO = 49  # sd along the shot / sd across it
P_BIAS = 50  # mean error along the shot per mm of distance (negative: short)
P_WILD = 51  # chance of a wild shot (uniform over the wild area)
P_WILD_MARGIN = 52  # the wild area: the board plus this margin all round
# a rule read after the geometry and dexterity blocks were laid out
P_ASSAULT_ROTATION = 53  # 1: the final assault goes round, one token a turn (line 330)
P_EXTRA_MAY = 54  # 1: the level-3 extra hit may be left out (line 436 reads "choose one")
# card and power data
P_EXPLOSION = 55  # TRACK_MAX + 1 flags: an explosion icon on this health space
P_POWER_DECK = P_EXPLOSION + TRACK_MAX + 1  # LEVELS x CARDS_PER_LEVEL power ids
P_N_CARDS = P_POWER_DECK + LEVELS * CARDS_PER_LEVEL
P_CARD_SPEED = P_N_CARDS + 1
P_CARD_DAMAGE = P_CARD_SPEED + MAX_CARDS
P_CARD_ICON = P_CARD_DAMAGE + MAX_CARDS
N_PARAMS = P_CARD_ICON + MAX_CARDS

DEX_REF_MM = 300.0  # the distance at which dexterity.spread_mm is the lateral sd

# --- state (int32 array) ----------------------------------------------------------------
S_BOARD = 0  # N_CELLS: card index + 1, 0 for an empty space
S_HITS = S_BOARD + N_CELLS  # hits on each card this round (waiting tokens, lines 223-224)
S_HIT_SEATS = S_HITS + N_CELLS  # bit k: seat k hit it this round
S_PIERCED = S_HIT_SEATS + N_CELLS  # a piercing (level-2) token hit it this round
S_DECK = S_PIERCED + N_CELLS  # MAX_CARDS card indices; the deck is S_DECK[top:len]
S_DECK_TOP = S_DECK + MAX_CARDS
S_DECK_LEN = S_DECK_TOP + 1
S_PLANET = S_DECK_LEN + 1
S_UFO = S_PLANET + 1
S_N_SEATS = S_UFO + 1
S_ROUND = S_N_SEATS + 1  # rounds begun
S_START_SEAT = S_ROUND + 1  # holder of the turn token
S_STATUS = S_START_SEAT + 1
S_LAST_ROUND = S_STATUS + 1  # this round is the last before the final assault
S_ROUND_OVER = S_LAST_ROUND + 1  # the last invader fell mid-round (line 322)
S_ICONS_USED = S_ROUND_OVER + 1  # bit h: the icon at health h sent reinforcements
S_PENDING_REINF = S_ICONS_USED + 1  # tokens each player takes at clean-up
S_TURNS = S_PENDING_REINF + 1
S_UFO_HITS = S_TURNS + 1  # hits that counted (score, line 368)
S_BONUS_KILLS = S_UFO_HITS + 1  # shield or two-hit invaders destroyed (line 369)
S_DESTROYED = S_BONUS_KILLS + 1
S_CRASHED = S_DESTROYED + 1  # destroyed by crashing in the last round
S_RETURNED = S_CRASHED + 1  # invaders shuffled back after damaging the planet
S_DAMAGE = S_RETURNED + 1  # planet damage taken
S_HEALED = S_DAMAGE + 1
S_REINFORCED = S_HEALED + 1  # tokens added by reinforcements, all players
S_LAUNCHES = S_REINFORCED + 1
S_ASSAULT = S_LAUNCHES + 1  # 1 once the final assault was played
S_ASSAULT_HITS = S_ASSAULT + 1
S_SCORE = S_ASSAULT_HITS + 1
S_PLAYERS = S_SCORE + 1

# per-seat block
PL_POWER = 0  # LEVELS power ids (index level - 1)
PL_ACTIVE = PL_POWER + LEVELS  # active tokens per level (above the player cards)
PL_CARD = PL_ACTIVE + LEVELS  # tokens still on the player card per level
PL_LEFT = PL_CARD + LEVELS  # active tokens not launched yet this round
PL_LAUNCHES = PL_LEFT + LEVELS  # every launch, re-launches and bonus shots included
PL_PLANET_RELAUNCHES = PL_LAUNCHES + 1
PL_POWER_RELAUNCHES = PL_PLANET_RELAUNCHES + 1
PL_LANDED = PL_POWER_RELAUNCHES + 1  # tokens that ended on invader cards
PL_KILLS = PL_LANDED + 1  # invaders destroyed when this seat resolved
PL_UFO_HITS = PL_KILLS + 1
PL_MISSES = PL_UFO_HITS + 1
PL_WAVES = PL_MISSES + 1
PL_BONUS_SHOTS = PL_WAVES + 1
PL_REDIRECTS = PL_BONUS_SHOTS + 1
PL_EXTRAS = PL_REDIRECTS + 1
PL_HEALED = PL_EXTRAS + 1
PL_PLANET_STAYS = PL_HEALED + 1  # planet-area re-launches declined (the token stays there)
PL_DECLINED = PL_PLANET_STAYS + 1  # the other optional actions declined
PL_SIZE = PL_DECLINED + 1

# the turn in progress (not hashed): decision cursor and the records of launched tokens
S_TURN = S_PLAYERS + MAX_SEATS * PL_SIZE
HASHED_SIZE = S_TURN
S_SEAT = S_TURN  # seat playing
S_PHASE = S_SEAT + 1
S_TOKENS = S_PHASE + 1  # records this turn
S_CUR = S_TOKENS + 1  # record of the token in flight
S_STREAK = S_CUR + 1  # its consecutive planet landings
S_TRIES = S_STREAK + 1  # re-launches its power still allows
S_REASON = S_TRIES + 1  # WHY_* of a PH_REAIM
S_SCRIPT_POS = S_REASON + 1  # next scripted landing (scenarios, P_SCRIPTED)
S_TURN_LANDED = S_SCRIPT_POS + 1  # cells this turn's tokens are on (a strategy's memory)
S_OPTION = S_TURN_LANDED + 1  # OPT_* a PH_OPTION asks about
S_KILLED = S_OPTION + 1  # cells the turn's resolution destroyed (called shots, line 410)
S_BONUS_TAKEN = S_KILLED + 1  # 1 once a called shot's bonus shot was taken this turn
MAX_TOKENS = 8  # records per turn (7 tokens a player, line 59, and one to spare)
S_TK = S_BONUS_TAKEN + 1
TK_LEVEL, TK_POWER, TK_CALLED, TK_THREE, TK_CELLS, TK_RESULT = 0, 1, 2, 3, 4, 5
TK_SIZE = 6
STATE_SIZE = S_TK + MAX_TOKENS * TK_SIZE

# --- work array (float64): landing points and the last launch -----------------------------
W_X = 0  # MAX_TOKENS landing x of each record
W_Y = W_X + MAX_TOKENS
W_AIM_X = W_Y + MAX_TOKENS  # the last launch: aim, shooter, landing
W_AIM_Y = W_AIM_X + 1
W_SHOOTER_X = W_AIM_Y + 1
W_SHOOTER_Y = W_SHOOTER_X + 1
W_LAND_X = W_SHOOTER_Y + 1
W_LAND_Y = W_LAND_X + 1
W_LOG_N = W_LAND_Y + 1  # rows written to the launch log (watch)
WORK_SIZE = W_LOG_N + 1

# --- launch log (float64 rows; only when the caller passes a log with rows) ---------------
LOG_KIND, LOG_SEAT, LOG_LEVEL, LOG_AIM_X, LOG_AIM_Y, LOG_SHOOTER_X, LOG_SHOOTER_Y = range(7)
LOG_X, LOG_Y, LOG_RESULT, LOG_CELLS, LOG_ROUND = 7, 8, 9, 10, 11
LOG_SIZE = 12
KIND_LAUNCH, KIND_BONUS, KIND_ASSAULT = 1, 2, 3

# --- the action (float64 array) a decision fills -------------------------------------------
A_LEVEL = 0  # PH_CHOOSE: level 1-3 of the token to launch; 0 ends the turn (refused: line 192)
A_AIM_X = 1  # PH_CHOOSE / PH_REAIM: aim point (mm)
A_AIM_Y = 2
A_SHOOTER_X = 3  # the shooter's place along the board's bottom edge (mm)
A_CALLED = 4  # PH_CHOOSE: the called invader's cell (called shot), -1 none
A_THREE = 5  # PH_CHOOSE: 1 declares the three-tries power (line 435)
A_YES = 6  # PH_RELAUNCH_Q: 1 re-launches
A_TAKE = 7  # PH_OPTION: 1 takes the optional action (the default), 0 declines it
A_RES = 8  # PH_RESOLVE: per record RES_SIZE slots (-1 = default)
RES_REDIRECT = 0  # 4 slots: the card each landed-on card's hit goes to, in cell order
RES_EXTRA = 4  # the extra adjacent invader
RES_WAVE = 5  # the card a blast wave reaches
RES_SIZE = 6
ACTION_SIZE = A_RES + MAX_TOKENS * RES_SIZE

# --- refusals: the rule a refused decision breaks -----------------------------------------
OK = 0
ERROR_NAMES = (
    "ok",
    "game_over",
    "no_token",  # no active token of that level left to launch this round
    "aim",  # aim or shooter not a finite number
    "shooter",  # the shooter crosses the striped line or leaves the board's width
    "called",  # the called cell holds no invader, or the token has no called shot
    "three_tries",  # declared without the power or with a target other than the UFO
    "redirect",  # not the landed-on card nor an orthogonal neighbour holding an invader
    "extra",  # not an invader next to a landed-on card, or none chosen where one is (line 436)
    "wave",  # no wave power, a token on a card, or the card is out of reach
    "script",  # a scenario ran out of scripted landings
    "phase",  # the engine was stepped in a finished turn
    "unlaunched",  # the turn ended with active tokens not launched (line 192)
)
(
    _OK,
    E_GAME_OVER,
    E_NO_TOKEN,
    E_AIM,
    E_SHOOTER,
    E_CALLED,
    E_THREE_TRIES,
    E_REDIRECT,
    E_EXTRA,
    E_WAVE,
    E_SCRIPT,
    E_PHASE,
    E_UNLAUNCHED,
) = range(len(ERROR_NAMES))
