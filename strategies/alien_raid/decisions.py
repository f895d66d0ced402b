"""The decisions value, planner and strong share; they differ only in how they expect the
other captains to attack (the contest model filled before planning).

Parameters (indices into the strategy's vector, after the three probes): the worth of an
attack point, of a ship and of a station per turn (shopping.py), the contest chance and
power of the value strategy's simple model, the weight of a ship lost, the worth of a
compensation card, the weight of a task's first reward per matching city card, the worth of
an extra fuel card; then the optional steps (docs/games/alien_raid/strategies.md): keep a
bonus-humans card received in a battle until the next buying phase (`hold_bonus`, 1; 0 cashes
it at once) and repay credits as soon as the humans cover them (`repay_early`, 0: only at the
end).
"""

from sim.games.alien_raid import layout as L
from sim.jit import jit
from strategies.alien_raid.common import fuel_card_total, me, plan_fuel, use_fuel_cards
from strategies.alien_raid.plan import fill_values, own_hand, programme, read_plan
from strategies.alien_raid.probes import PROBE_PARAMS
from strategies.alien_raid.shopping import (
    decide_cash,
    decide_credit,
    decide_redraw,
    decide_repay,
    shop,
)
from strategies.alien_raid.tactics import (
    decide_army,
    decide_boost,
    decide_fight,
    decide_lose,
    decide_reward,
    decide_scan,
    decide_transfer,
    decide_trophy,
)

BASE_PARAMS: dict[str, float] = {
    **PROBE_PARAMS,
    "attack_worth": 1500.0,
    "ship_worth": 6000.0,
    "station_worth": 6000.0,
    "contest": 0.3,
    "opp_power": 9.0,
    "loss_weight": 1.0,
    "comp_value": 8000.0,
    "task_weight": 0.0,
    "card_worth": 15000.0,
    "hold_bonus": 1.0,
    "repay_early": 0.0,
}
# the parameters' places in a strategy's vector (the shopping ones: shopping.py; a strategy
# adding its own puts them after these: sampling.py)
CONTEST, OPP_POWER, LOSS_WEIGHT, COMP_VALUE, TASK_WEIGHT, CARD_WORTH, HOLD_BONUS, REPAY_EARLY = (
    list(BASE_PARAMS).index(name)
    for name in ("contest", "opp_power", "loss_weight", "comp_value", "task_weight", "card_worth",
                 "hold_bonus", "repay_early")
)  # fmt: skip


@jit
def common_policy(phase, obs, p, sp, a, scratch, fscratch):
    """Every decision but planning, the transfers after the reveal included: a captain who
    paid for a transferring ship or a tractor station uses it. Returns whether it handled
    the phase."""
    if phase == L.PH_STATION_TRANSFER or phase == L.PH_SHIP_TRANSFER:
        decide_transfer(phase, obs, p, scratch, a)
    elif phase == L.PH_REDRAW:
        decide_redraw(obs, p, sp, a)
    elif phase == L.PH_CREDIT:
        decide_credit(obs, p, sp, a)
    elif phase == L.PH_BUY:
        shop(obs, p, sp, a, obs[me(obs, L.OP_HUMANS)])
    elif phase == L.PH_FIGHT:
        decide_fight(obs, p, scratch, fscratch, a, sp[LOSS_WEIGHT], sp[COMP_VALUE],
                     sp[TASK_WEIGHT])  # fmt: skip
    elif phase == L.PH_BOOST:
        decide_boost(obs, p, scratch, a)
    elif phase == L.PH_LOSE_SHIP:
        decide_lose(obs, p, a)
    elif phase == L.PH_TROPHY:
        decide_trophy(obs, p, a)
    elif phase == L.PH_REWARD:
        decide_reward(obs, p, scratch, fscratch, a)
    elif phase == L.PH_SCAN:
        decide_scan(obs, p, scratch, a)
    elif phase == L.PH_ARMY:
        decide_army(obs, p, scratch, a)
    elif phase == L.PH_CASH:
        decide_cash(obs, p, a, sp[HOLD_BONUS])
    elif phase == L.PH_REPAY:
        decide_repay(obs, p, a, sp[REPAY_EARLY])
    else:
        return False
    return True


@jit
def plan_with_contest(obs, p, sp, a, scratch, fscratch):
    """Plan against the contest model already in fscratch; extra fuel cards are used when
    the better plan they allow gains more than the cards are worth. One programme with the
    most fuel serves the plans with less (plan.programme)."""
    n = own_hand(obs, scratch)
    extra = fuel_card_total(obs, p)
    fuel = obs[L.O_FUEL] + max(extra, 0)  # the most fuel a plan below may use
    fill_values(obs, p, scratch, fscratch, n, sp[COMP_VALUE], sp[TASK_WEIGHT], False, fuel)
    last = programme(obs, scratch, fscratch, n, fuel)
    value = read_plan(obs, scratch, fscratch, n, obs[L.O_FUEL], a, last)
    if extra == 0:
        return
    for i in range(L.MAX_HAND):
        a[L.A_TARGET + i] = -1
    more = read_plan(obs, scratch, fscratch, n, obs[L.O_FUEL] + extra, a, last)
    need = plan_fuel(obs, p, a) - obs[L.O_FUEL]
    cards = use_fuel_cards(obs, p, a, need)
    if need > 0 and more - value <= sp[CARD_WORTH] * cards:
        for i in range(L.MAX_HAND):
            a[L.A_TARGET + i] = -1
        for k in range(p[L.P_N_COMP_MODELS]):
            a[L.A_FUEL_CARDS + k] = 0
        read_plan(obs, scratch, fscratch, n, obs[L.O_FUEL], a, last)
