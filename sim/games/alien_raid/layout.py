"""Plain-integer layout of the alien-raid game: the params array (rules and the card catalog),
the state array, a captain's observation, the action array, decision phases and refusals.

The compiled rules work on flat numpy arrays, so every field is a named offset here. Offsets
are handed out in order by `_Block`, so a field is added by one line. Bump ENGINE_VERSION when
the behaviour of a game changes (golden traces are keyed by it).
"""

ENGINE_VERSION = 4  # 4: a battle's fight fields are cleared once its city is resolved


class _Block:
    """Hands out consecutive offsets: `f(n)` reserves n words and returns the first."""

    def __init__(self) -> None:
        self.size = 0

    def __call__(self, n: int = 1) -> int:
        start = self.size
        self.size += n
        return start


# --- sizes -------------------------------------------------------------------------------
MAX_PLAYERS = 5
MAX_HAND = 6  # ship slots (the rulebook's limit, 5, is hand.ships)
MAX_STATIONS = 3  # station slots (the rulebook's limit, 2, is hand.stations)
MAX_BOARD = 6  # city spaces (6 cities in a 5-player game; 6 attack tokens per captain)
MAX_MODELS = 32  # ship and station models of the catalog
MAX_TRAITS = 4  # attack traits per ship model
MAX_CONDS = 2  # conditions per trait
MAX_CITIES = 96
MAX_ARMY_MODELS = 12
MAX_ARMY_CARDS = 64
MAX_COMP_MODELS = 8
MAX_COMP_CARDS = 64
MAX_TASK_MODELS = 16
MAX_TASKS = 6  # tasks in play
MAX_REGIONS = 10
MAX_TYPES = 6
MAX_CLASSES = 8
MAX_SHIP_CARDS = 192  # both coloured decks together
MAX_DRAWN = 2  # ship cards offered per turn
MAX_CATCH = 3  # army cards per catch ("x1".."x3")
MAX_DICE = 96  # fixed dice of a scenario
MAX_WON = 64  # city cards a captain can hold
MAX_TURN = 21  # the turn after the last of the longest game (game.turns at most 20)

# --- random streams (sim/random_streams.py) ----------------------------------------------
GAME_STREAM = 0  # decks, dice, coin flips; captain k's strategy draws from stream 1 + k
# and keeps a second stream, 1 + k + STRATEGY_COINS, for coins apart from its play
STRATEGY_COINS = 1 + MAX_PLAYERS
STREAMS = 1 + MAX_PLAYERS + 1 + MAX_PLAYERS  # the game, five captains, one spare, five coins

# --- codes -------------------------------------------------------------------------------
SHIP, STATION = 0, 1  # model kinds
DECK_START, DECK_BLUE, DECK_RED = 0, 1, 2
DECK_NAMES = ("start", "blue", "red")

# trait conditions (a trait adds its value when all its conditions hold)
(
    C_NONE,
    C_CITY_TYPE,
    C_CITY_NOT_TYPE,
    C_CITY_REGION,
    C_CITY_NOT_REGION,
    C_WITH,
    C_WITHOUT,
    C_ALONE,
    C_VS_ARMY,
    C_VS_CAPTAIN,
    C_GROUP_AT_LEAST,
    C_CITY_DECK,
) = range(12)

# station effects
(
    ST_NONE,
    ST_BOOST,  # once per turn: +v attack to one of your ships in a fight
    ST_JAM,  # once per turn: one enemy ship's attack bonuses are off
    ST_TRANSFER,  # once per turn, after the reveal: move one enemy ship to another city
    ST_WEAKEN,  # once per turn: -v attack to every enemy ship in a fight
    ST_SCAN,  # once per turn: discard one army card drawn for a catch
    ST_FUEL,  # every turn: +v fuel
) = range(7)
STATION_EFFECT_NAMES = ("none", "boost", "jam", "transfer", "weaken", "scan", "fuel")

# compensation card effects
CP_FUEL, CP_HUMANS, CP_TROPHY, CP_ATTACK = 1, 2, 3, 4

# when credits are repaid (credit.repay_when): by the end, when the captain chooses (line 184:
# "until the end of the game"); only at the end; as soon as the humans cover one
REPAY_END, REPAY_EARLIEST, REPAY_CHOICE = 0, 1, 2

# --- params (int64) ----------------------------------------------------------------------
_p = _Block()
P_TURNS = _p()
P_START_HUMANS = _p()
P_RED_FROM_TURN = _p()
P_CITIES_PER_TURN = _p(MAX_PLAYERS + 1)  # by number of players
P_TASKS_PER_PLAYERS = _p(MAX_PLAYERS + 1)
P_FUEL_START = _p()
P_FUEL_STEP = _p()
P_FUEL_MAX = _p()
P_HAND_SHIPS = _p()
P_HAND_STATIONS = _p()
P_BUY_MAX = _p()
P_REDRAW = _p()  # 0 off, 1 once per turn, 2 as long as both cards are stations
P_CREDIT_AMOUNT = _p()
P_CREDIT_REPAY = _p()
P_CREDIT_HUMANS = _p()
P_CREDIT_SHIPS = _p()
P_CREDIT_INCLUSIVE = _p()  # 1: "no more than" (<=), 0: "less than" (<)
P_CREDIT_CARDS = _p()  # credits in the whole game, 0 = unlimited
P_CREDIT_REPAY_WHEN = _p()  # REPAY_*: when a credit may or must be repaid (line 184)
P_COMP_NEXT_TURN_ONLY = _p()
P_BONUS_AT_ONCE = _p()  # 1: a bonus-humans card is cashed when received (else when chosen)
P_TASK_FIRST = _p()
P_TASK_SECOND = _p()
P_TASK_HALF_EACH = _p()
P_TASK_ZERO_COUNTS = _p()
P_ROUND_TO = _p()
P_TIE_MOST_CITIES = _p()
P_LOSERS_WEAKEST_FIRST = _p()  # 1: a battle's losers lose and draw in the decision order
P_EQUAL_BY_SEAT = _p()  # 1: of equal attack powers the earlier seat decides first (else a coin)
P_BOOST_ANYONE = _p()  # 1: every captain in a fight may play a station or card (else behind)
P_JAM_BOOSTS = _p()  # 1: a jammed ship's boosts are off too (else its printed bonuses only)
P_LOST_CATCH_KEEPS = _p()  # 1: a catch lost to an army keeps the city card (line 104)
# the catalog
P_N_MODELS = _p()
P_N_CITIES = _p()
P_N_ARMY_MODELS = _p()
P_N_COMP_MODELS = _p()
P_N_TASK_MODELS = _p()
P_N_REGIONS = _p()
P_N_TYPES = _p()
P_N_CLASSES = _p()

# one ship or station model
_m = _Block()
M_KIND = _m()
M_CLASS = _m()
M_DECK = _m()
M_COUNT = _m()
M_PRICE = _m()
M_ATTACK = _m()
M_FUEL = _m()
M_INVULNERABLE = _m()
M_TRANSFER = _m()  # the ship may move to another city after the reveal
M_EFFECT = _m()  # stations: ST_*
M_EFFECT_VALUE = _m()
M_N_TRAITS = _m()
TRAIT_SIZE = 1 + 2 * MAX_CONDS  # value, then (condition, argument) pairs
M_TRAITS = _m(MAX_TRAITS * TRAIT_SIZE)
MODEL_SIZE = _m.size
P_MODELS = _p(MAX_MODELS * MODEL_SIZE)

_c = _Block()
CT_REGION = _c()
CT_TYPE = _c()
CT_RAID = _c()
CT_CATCH = _c()
CT_ARMIES = _c()
CT_MIN_PLAYERS = _c()
CT_DECK = _c()
CITY_SIZE = _c.size
P_CITIES = _p(MAX_CITIES * CITY_SIZE)

P_ARMY_COUNT = _p(MAX_ARMY_MODELS)
P_ARMY_ATTACK = _p(MAX_ARMY_MODELS)
P_COMP_COUNT = _p(MAX_COMP_MODELS)
P_COMP_EFFECT = _p(MAX_COMP_MODELS)
P_COMP_VALUE = _p(MAX_COMP_MODELS)
P_TASK_COND = _p(MAX_TASK_MODELS)
P_TASK_ARG = _p(MAX_TASK_MODELS)
P_TASK_MIN_PLAYERS = _p(MAX_TASK_MODELS)
N_PARAMS = _p.size

# --- state (int32) -----------------------------------------------------------------------
RUNNING, OVER = 0, 1

_s = _Block()
S_N_PLAYERS = _s()
S_TURN = _s()  # 1-based; the turn being played
S_STATUS = _s()
S_ERROR = _s()  # the refusal that stopped the game (E_*), OK while it runs
S_ERROR_SEAT = _s()
S_FUEL = _s()  # this turn's fuel limit
S_N_BOARD = _s()  # city spaces this turn
S_CREDITS_LEFT = _s()  # credit cards left (when limited)
S_FIRST_TIE = _s()  # coin flips for equal attack powers (stats)
# ship decks: blue cards, then red cards; each colour drawn from its own top
S_SHIPS = _s(2 * MAX_SHIP_CARDS)  # as dealt, then room for a refilled deck
S_BLUE_TOP = _s()
S_BLUE_END = _s()
S_RED_TOP = _s()
S_RED_END = _s()
S_SHIP_DISCARD = _s(MAX_MODELS)  # discarded ship cards by model (face up, public)
S_SHIP_ASIDE = _s(MAX_MODELS)  # blue cards left when the red deck takes over
# cities: one deck, blue cards on red cards
S_CITY_DECK = _s(MAX_CITIES)
S_CITY_TOP = _s()
S_CITY_END = _s()
S_BOARD = _s(MAX_BOARD)  # city id per space this turn, -1 once resolved or empty
S_BOARD_DEALT = _s(MAX_BOARD)  # city id dealt to each space this turn (for the log)
S_CITIES_DISCARDED = _s()
# armies and compensations: decks of model ids, discard piles by model
S_ARMY_DECK = _s(MAX_ARMY_CARDS)
S_ARMY_TOP = _s()
S_ARMY_END = _s()
S_ARMY_DISCARD = _s(MAX_ARMY_MODELS)
S_COMP_DECK = _s(MAX_COMP_CARDS)
S_COMP_TOP = _s()
S_COMP_END = _s()
S_COMP_DISCARD = _s(MAX_COMP_MODELS)
S_TASKS = _s(MAX_TASKS)  # task model ids in play
S_N_TASKS = _s()
# fixed dice (scenarios): consumed in order before the random dice
S_DICE_N = _s()
S_DICE_POS = _s()
S_DICE_SHORT = _s()  # a die was needed after the fixed ones ran out
S_DICE = _s(MAX_DICE)
# the fight in progress (a battle between captains, or a captain against an army)
S_F_CITY = _s()  # board space
S_F_ARMY = _s()  # army attack, or -1 in a battle between captains
S_F_IN = _s(MAX_PLAYERS)  # 1 while the captain fights
S_F_ROLL = _s(MAX_PLAYERS)
S_F_BOOST = _s(MAX_PLAYERS * MAX_HAND)  # station / card attack added per ship
S_F_JAMMED = _s(MAX_PLAYERS)  # bit per ship slot: printed bonuses off
S_F_WEAKEN = _s(MAX_PLAYERS)  # attack taken from each of the captain's ships
S_F_CATCH = _s(MAX_CATCH)  # army cards drawn for the catch in progress
S_F_N_CATCH = _s()
S_F_ARMY_INDEX = _s()  # the army card being fought
S_F_RANK = _s(MAX_PLAYERS)  # a battle's attackers in the order they decided (0 first)
S_PLAYERS = _s()  # first player block (must stay last of the shared part)

# per-player block
_pl = _Block()
PL_HUMANS = _pl()
PL_CREDITS = _pl()  # credits not yet repaid
PL_HAND = _pl(MAX_HAND)  # ship model per slot, -1 empty
PL_KNOWN = _pl(MAX_HAND)  # 1 once the ship has been revealed in an attack (public)
PL_BOUGHT_TURN = _pl(MAX_HAND)  # turn the ship was bought (0: starting ship)
PL_STATIONS = _pl(MAX_STATIONS)  # station model per slot, -1 empty
PL_STATION_USED = _pl(MAX_STATIONS)
PL_COMPS = _pl(MAX_COMP_MODELS)  # compensation cards usable now, by model
PL_COMPS_NEW = _pl(MAX_COMP_MODELS)  # received this turn: usable from the next turn
PL_WON = _pl(MAX_WON)  # city cards held (trophies)
PL_N_WON = _pl()
PL_TARGET = _pl(MAX_HAND)  # board space each ship attacks this turn, -1 none
PL_DRAWN = _pl(MAX_DRAWN)  # ship cards offered this turn, -1 none
PL_REDRAWS = _pl()
PL_SPENT_TURN = _pl()  # humans paid for ships this turn (public: the humans track moved)
PL_SHIPS_BOUGHT_TURN = _pl()  # ships bought this turn (public: the cards not bought are shown)
# statistics
PL_BOUGHT = _pl(MAX_MODELS)
PL_OFFERED = _pl(MAX_MODELS)
PL_SPENT = _pl()
PL_CREDITS_TAKEN = _pl()
PL_REPAID = _pl()
PL_ATTACKS = _pl()  # cities attacked
PL_CONQUESTS = _pl()  # cities won (uncontested or by battle), before the reward
PL_BATTLES = _pl()
PL_BATTLES_WON = _pl()
PL_RETREATS = _pl()
PL_SHIPS_LOST = _pl()
PL_COMPS_RECEIVED = _pl()
PL_RAIDS = _pl()
PL_RAID_HUMANS = _pl()
PL_CATCHES = _pl()
PL_CATCHES_WON = _pl()
PL_CATCH_HUMANS = _pl()
PL_CATCH_RETREATS = _pl()
PL_ARMY_LOSSES = _pl()
PL_STATIONS_USED = _pl()
PL_COMP_HUMANS = _pl()
PL_TROPHIES_TAKEN = _pl()
PL_BONUS_HELD = _pl()  # bonus-humans cards kept when they could have been cashed (per offer)
PL_REPAID_EARLY = _pl()  # credits repaid before the end of the game
PL_TRANSFERS = _pl()
PL_HUMANS_PLAY = _pl()  # humans after the tenth turn, before tasks and repayment
PL_TASK_HUMANS = _pl()
PL_TASKS_FIRST = _pl()
PL_TASKS_SECOND = _pl()
# randomised decisions recorded for the reports (see strategies/alien_raid/probes.py)
PL_PROBE_CARD = _pl()  # model offered, -1 none
PL_PROBE_BOUGHT = _pl()
PL_PROBE_TURN = _pl()
PL_PROBE_PRICE = _pl()
PL_RP_ARMIES = _pl()  # reward probe: army cards of the city, -1 none
PL_RP_FLEET = _pl()  # the group's attack against armies
PL_RP_RAID = _pl()
PL_RP_CATCH = _pl()
PL_RP_CHOICE = _pl()  # 0 raid, 1 catch
PL_RP_HUMANS = _pl()  # humans the reward brought
PL_RP_LOST = _pl()  # ships lost in it
PL_RP_TURN = _pl()
PL_CP_TURN = _pl()  # credit probe: turn of the first eligible buy phase, 0 none
PL_CP_TOOK = _pl()
PL_SIZE = _pl.size

# Bookkeeping after the game's words (not hashed, not the game's): what the rules keep
# between decisions instead of working it out again, each made anew where the rules change
# what it is made from (state.touched and the fight's changes)
S_OBSERVED = S_PLAYERS + MAX_PLAYERS * PL_SIZE  # bit k: captain k's part of the last
# observation is current (observe.observe_kept)
S_F_KEPT = S_OBSERVED + 1  # bit k: S_F_SHIPS[k] is current (fighting.fighter_total)
S_F_SHIPS = S_F_KEPT + 1  # per captain: the attack in the fight without the dice
S_CHECKING = S_F_SHIPS + MAX_PLAYERS  # 1: checking mode (the traced kernel, scenarios)
# compares every kept figure with one made anew; a difference stops the game with E_KEPT
STATE_SIZE = S_CHECKING + 1

# --- observation (int32): what one captain may see ----------------------------------------
_o = _Block()
O_SEAT = _o()
O_N_PLAYERS = _o()
O_TURN = _o()
O_PHASE = _o()
O_FUEL = _o()
O_N_BOARD = _o()
O_CITY = _o()  # the board space a battle/reward/army decision is about, -1 none
O_BOARD = _o(MAX_BOARD)  # city id per space (-1 resolved or empty)
O_TASKS = _o(MAX_TASKS)
O_N_TASKS = _o()
O_CREDITS_LEFT = _o()
O_SHIP_DISCARD = _o(MAX_MODELS)
O_ARMY_DISCARD = _o(MAX_ARMY_MODELS)
O_ARMY_LEFT = _o()  # cards left in the armies deck
O_DRAWN = _o(MAX_DRAWN)  # own offered cards this turn
O_REDRAWS = _o()
O_OWN_COMPS = _o(MAX_COMP_MODELS)
O_OWN_COMPS_NEW = _o(MAX_COMP_MODELS)
O_PROBES = _o()  # bit 0 buy probe recorded, bit 1 reward probe, bit 2 credit probe
# the fight in progress (public): army attack or -1, per captain: in, roll, total
O_F_ARMY = _o()
O_F_IN = _o(MAX_PLAYERS)
O_F_TOTAL = _o(MAX_PLAYERS)  # attack power + dice + boosts (dice 0 before the roll)
O_F_ROLL = _o(MAX_PLAYERS)
O_F_CATCH = _o(MAX_CATCH)
O_F_N_CATCH = _o()
O_F_ARMY_INDEX = _o()  # the army card about to be fought
O_DECIDED = _o(MAX_PLAYERS)  # fight-or-retreat so far: 0 undecided, 1 fight, 2 retreat
O_PLAYERS = _o()

# per captain (every captain; the hidden parts of others are -1)
_op = _Block()
OP_HUMANS = _op()
OP_CREDITS = _op()
OP_N_SHIPS = _op()
OP_HAND = _op(MAX_HAND)  # model, -1 unknown or empty (see OP_SLOT_USED)
OP_SLOT_USED = _op(MAX_HAND)
OP_BOUGHT_TURN = _op(MAX_HAND)
OP_STATIONS = _op(MAX_STATIONS)
OP_STATION_USED = _op(MAX_STATIONS)
OP_N_COMPS = _op()
OP_N_WON = _op()
OP_REGIONS = _op(MAX_REGIONS)  # city cards held by region
OP_TYPES = _op(MAX_TYPES)
OP_TARGET = _op(MAX_HAND)  # after the reveal: board space per ship slot, -1 none
OP_SPENT_TURN = _op()
OP_SHIPS_BOUGHT_TURN = _op()
OBS_PLAYER_SIZE = _op.size
OBS_SIZE = O_PLAYERS + MAX_PLAYERS * OBS_PLAYER_SIZE

# --- decisions ---------------------------------------------------------------------------
(
    PH_REDRAW,  # both offered cards are stations: show them and draw two more?
    PH_CREDIT,  # how many credits to take before buying (asked when one may be taken)
    PH_BUY,  # credits, then which offered cards to buy (and what to discard for room)
    PH_PLAN,  # each ship's target space; extra fuel cards
    PH_STATION_TRANSFER,  # after the reveal: move an enemy ship with a station
    PH_SHIP_TRANSFER,  # after the reveal: move own transferring ships
    PH_FIGHT,  # fight for the contested city or retreat
    PH_BOOST,  # after the roll: use a station or an attack card
    PH_LOSE_SHIP,  # which ship of the fight is destroyed
    PH_TROPHY,  # a loser may play "take the city"
    PH_REWARD,  # raid or catch
    PH_SCAN,  # discard one drawn army card with a station
    PH_ARMY,  # fight the next army or retreat
    PH_CASH,  # cash bonus-humans cards now (line 192: usable at once)?
    PH_REPAY,  # repay credits now (line 184: "until the end of the game")?
) = range(15)

# --- actions (int32) ---------------------------------------------------------------------
_a = _Block()
A_YES = _a()  # redraw / fight (1) or retreat (0) / catch (1) or raid (0) / play trophy
A_CREDITS = _a()  # credits to take (credit phase)
A_BUY = _a(MAX_DRAWN)  # 1: buy offered card i
A_ROOM = _a(MAX_DRAWN)  # slot to discard to make room for card i, -1 none
A_TARGET = _a(MAX_HAND)  # board space per ship slot, -1 stays home (plan, ship transfer)
A_FUEL_CARDS = _a(MAX_COMP_MODELS)  # fuel cards to discard, by model
A_USE = _a()  # station slot (boost/transfer/scan) or -1; for boosts see A_USE_CARD
A_USE_CARD = _a()  # compensation model used as a boost, -1 none
A_T_PLAYER = _a()  # target captain
A_T_SLOT = _a()  # target ship slot (own ship for boosts, enemy for jam/transfer)
A_T_CITY = _a()  # destination space of a transfer; army card index of a scan
A_SLOT = _a()  # ship to lose
A_CASH = _a(MAX_COMP_MODELS)  # bonus-humans cards to cash, by model (default: every one held)
A_REPAY = _a()  # credits to repay now (default 0)
A_PROBE = _a()  # a randomised decision: buy probe 1 + offered index; reward probe 1
ACTION_SIZE = _a.size

# --- refusals ----------------------------------------------------------------------------
OK = 0
ERROR_NAMES = (
    "ok",
    "redraw_not_allowed",  # redraw without two stations, or no redraw left
    "credit_condition",  # a credit while the conditions do not hold
    "credit_cards",  # no credit card left
    "cannot_pay",  # the purchase costs more than the humans held
    "buy_card",  # a card that was not offered
    "hand_full",  # no room for the ship or station
    "room_slot",  # the slot given to make room is empty, or room was not needed
    "station_twice",  # a second station of the same kind
    "plan_slot",  # a target for an empty slot
    "plan_space",  # a target off the board
    "fuel",  # the ships sent need more fuel than the limit and the cards give
    "fuel_cards",  # more fuel cards than held, or not fuel cards
    "station_use",  # a station that is absent, used, or of another effect
    "transfer_target",  # a transfer of a ship that does not attack, or to its own space
    "boost_target",  # a boost on a ship not in the fight
    "card_use",  # a compensation card not held, not usable now, or of another effect
    "lose_slot",  # the ship to lose did not fight or cannot be destroyed
    "scan_card",  # the army card to discard is not one drawn
    "census",  # checking mode: a card was lost or duplicated (an engine bug)
    "cash",  # more bonus-humans cards cashed than held, or not bonus-humans cards
    "repay",  # more credits repaid than open, or than the humans cover
    "kept",  # checking mode: a kept observation or attack differed from one made anew (a bug)
)
(
    _OK,
    E_REDRAW,
    E_CREDIT_CONDITION,
    E_CREDIT_CARDS,
    E_CANNOT_PAY,
    E_BUY_CARD,
    E_HAND_FULL,
    E_ROOM_SLOT,
    E_STATION_TWICE,
    E_PLAN_SLOT,
    E_PLAN_SPACE,
    E_FUEL,
    E_FUEL_CARDS,
    E_STATION_USE,
    E_TRANSFER_TARGET,
    E_BOOST_TARGET,
    E_CARD_USE,
    E_LOSE_SLOT,
    E_SCAN_CARD,
    E_CENSUS,
    E_CASH,
    E_REPAY,
    E_KEPT,
) = range(len(ERROR_NAMES))

# --- the event log (watch, scenarios) ----------------------------------------------------
EV_SIZE = 8  # code, turn, seat, space, v1, v2, v3, v4
(
    EV_TURN,  # fuel
    EV_OFFER,  # v1, v2: offered models
    EV_REDRAW,
    EV_CREDIT,  # v1 humans after
    EV_BUY,  # v1 model, v2 price
    EV_DISCARD,  # v1 model (to make room)
    EV_CITY,  # space, v1 city
    EV_ATTACK,  # space, v1 ships mask, v2 attack power, v3 fuel cards used
    EV_TRANSFER,  # space -> v1 space, v2 slot, v3 by seat (station) or -1, v4 model
    EV_UNCONTESTED,  # space
    EV_NO_ATTACK,  # space: the city is discarded
    EV_RETREAT,  # space
    EV_FIGHT,  # space
    EV_ROLL,  # space, v1 attack power, v2 dice, v3 total
    EV_BOOST,  # space, v1 kind (ST_* or 100 + CP_*), v2 target seat, v3 target slot, v4 total
    EV_TIE,  # space: the leaders roll again
    EV_WIN,  # space
    EV_LOSE,  # space, v1 model destroyed or -1, v2 compensation model
    EV_TROPHY,  # space, v1 city
    EV_RAID,  # space, v1 humans
    EV_CATCH,  # space, v1..v3 army models drawn (-1 none)
    EV_SCAN,  # space, v1 army model discarded
    EV_ARMY,  # space, v1 army attack, v2 fleet attack, v3 dice, v4 total
    EV_ARMY_WIN,  # space
    EV_ARMY_LOSS,  # space, v1 model destroyed or -1
    EV_ARMY_RETREAT,  # space
    EV_CATCH_DONE,  # space, v1 humans
    EV_COMP_HUMANS,  # v1 humans
    EV_REPAY,  # v1 humans repaid
    EV_TASK,  # v1 task, v2 humans, v3 place (1, 2), v4 cities counted
    EV_END,  # v1 final humans
    EV_TOTAL,  # space, v1 total after the stations and cards
    EV_SENDS,  # space, v1 model, v2 the ship's attack there
    EV_REFUSED,  # space: a decision refused as the scenario expected, v1 the refusal
    EV_HOLD,  # v1 bonus-humans cards kept (not cashed)
) = range(35)
MAX_EVENTS = 4096
