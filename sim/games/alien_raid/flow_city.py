"""A city on the board, from left to right (rulebook line 90): nobody attacks it, one captain
conquers it, or the attackers retreat or fight; the losers' ships and compensation cards; then
the reward, a raid or a catch against 1-3 army cards (lines 104-122, 275-295)."""

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.cards import beats_army, catch_humans, cf, group_attack, raid_humans
from sim.games.alien_raid.decide import again, decide, decide_into
from sim.games.alien_raid.fighting import (
    clear_catch,
    clear_fight,
    fighter_total,
    give_compensation,
)
from sim.games.alien_raid.flow_fight import (
    battle,
    boost_round,
    lose_one_ship,
    retreat_or_fight,
    take_city,
)
from sim.games.alien_raid.options import apply_cash, bonus_held
from sim.games.alien_raid.planning import attackers, group_of, unused_station, use_station
from sim.games.alien_raid.state import (
    draw_army,
    emit,
    pl,
    recording,
    refused,
    roll_2d6,
    touched,
)
from sim.jit import jit, jit_inline

NOBODY = -1
CAUGHT, RETREATED, LOST = 0, 1, 2  # how a reward's catch ended (a raid counts as caught)


@jit_inline  # small: pasted (as a call numba compiled it once per mix of argument types)
def only_seat(s, mask):
    for seat in range(s[L.S_N_PLAYERS]):
        if mask == 1 << seat:
            return seat
    return NOBODY


@jit_inline  # pasted into play_turn, its one caller: LLVM compiles its rules once less
def resolve_city(s, p, rng, ctx, log, space):
    city = s[L.S_BOARD + space]
    mask = attackers(s, space)
    if mask == 0:  # "Humans are lucky this time" (line 94)
        s[L.S_CITIES_DISCARDED] += 1
        emit(log, s, L.EV_NO_ATTACK, -1, space, city, 0, 0, 0)
        return L.OK
    winner = only_seat(s, mask)
    if winner >= 0:  # line 92: conquered without a battle
        emit(log, s, L.EV_UNCONTESTED, winner, space, city, 0, 0, 0)
        s[pl(winner, L.PL_CONQUESTS)] += 1
        return reward(s, p, rng, ctx, log, space, winner, winner)
    fighters = retreat_or_fight(s, p, rng, ctx, log, space, mask)
    if s[L.S_ERROR] != L.OK:
        return s[L.S_ERROR]
    winner = only_seat(s, fighters)
    holder = winner
    if winner < 0:
        winner = battle(s, p, rng, ctx, log, space, fighters)
        if winner < 0:
            return s[L.S_ERROR]
        holder = aftermath(s, p, rng, ctx, log, space, fighters, winner)
        if s[L.S_ERROR] != L.OK:
            return s[L.S_ERROR]
    s[pl(winner, L.PL_CONQUESTS)] += 1
    err = reward(s, p, rng, ctx, log, space, winner, holder)
    clear_fight(s, -1, -1)  # the battle is over (a catch clears its own): nobody fights now
    return err


@jit
def loser_at(s, p, fighters, winner, i):
    """The i-th loser of the battle: in seat order (ruling: lines 100 and 192 are silent on
    the order), or under battle.losers_order weakest_first in the order the captains decided
    to fight (line 252: the weakest first). -1 past the last."""
    n = s[L.S_N_PLAYERS]
    k = 0
    for j in range(n):
        for seat in range(n):
            if not (fighters >> seat) & 1 or seat == winner:
                continue
            if p[L.P_LOSERS_WEAKEST_FIRST] and s[L.S_F_RANK + seat] != j:
                continue
            if not p[L.P_LOSERS_WEAKEST_FIRST] and seat != j:
                continue
            if k == i:
                return seat
            k += 1
    return -1


@jit
def aftermath(s, p, rng, ctx, log, space, fighters, winner):
    """Each loser gives up a ship and takes a compensation card (line 100), a bonus-humans
    card may be cashed at once (line 192); losers may play "take the city" (line 194;
    several: a roll-off). Returns who takes the city card."""
    for i in range(L.MAX_PLAYERS):
        seat = loser_at(s, p, fighters, winner, i)
        if seat < 0:
            break
        s[L.S_F_IN + seat] = 1  # the loser's ships of this fight, for the choice
        lost = lose_one_ship(s, p, rng, ctx, log, seat)
        if lost == -2:
            return NOBODY
        card = give_compensation(s, p, rng, seat, log)
        emit(log, s, L.EV_LOSE, seat, space, lost, card, 0, 0)
        usable = card >= 0 and bonus_held(s, p, seat, card) > 0  # line 192: at once
        if usable and offer_cash(s, p, rng, ctx, log, seat, space) != L.OK:
            return NOBODY
    return trophy(s, p, rng, ctx, log, space, fighters, winner)


@jit
def offer_cash(s, p, rng, ctx, log, seat, space):
    """The captain may cash the bonus-humans cards held now (line 192: usable at once)."""
    a = ctx[4]
    while True:
        decide(ctx, s, p, rng, seat, L.PH_CASH, space)
        err = apply_cash(s, p, seat, a, log)
        if not again(ctx, s, seat, err, log):
            break
    refused(s, err, seat)
    return err


@jit
def trophy_card(s, p, seat):
    """A usable "take the city" card of the seat, or -1."""
    for k in range(L.MAX_COMP_MODELS):
        if s[pl(seat, L.PL_COMPS + k)] > 0 and p[L.P_COMP_EFFECT + k] == L.CP_TROPHY:
            return k
    return -1


@jit
def trophy(s, p, rng, ctx, log, space, fighters, winner):
    acts = ctx[5]
    n = s[L.S_N_PLAYERS]
    played = 0
    for seat in range(n):
        if (fighters >> seat) & 1 and seat != winner and trophy_card(s, p, seat) >= 0:
            decide_into(ctx, s, p, rng, seat, L.PH_TROPHY, space)
            if acts[seat, L.A_YES]:
                played |= 1 << seat
    if played == 0:
        return winner
    for seat in range(n):
        if (played >> seat) & 1:
            k = trophy_card(s, p, seat)
            touched(s, seat)
            s[pl(seat, L.PL_COMPS + k)] -= 1
            s[L.S_COMP_DISCARD + k] += 1
    while only_seat(s, played) < 0:  # the dice decide between several (line 194)
        best, leaders = -1, 0
        for seat in range(n):
            if (played >> seat) & 1:
                r = roll_2d6(s, rng)
                if r > best:
                    best, leaders = r, 1 << seat
                elif r == best:
                    leaders |= 1 << seat
        played = leaders
    holder = only_seat(s, played)
    s[pl(holder, L.PL_TROPHIES_TAKEN)] += 1
    emit(log, s, L.EV_TROPHY, holder, space, s[L.S_BOARD + space], 0, 0, 0)
    return holder


@jit_inline  # small: pasted into its two callers, the raid and the won catch
def credit_reward(s, log, space, seat, humans, count, tally, event):
    """A raid's or a won catch's humans go to the captain: its humans, its count of that kind
    of reward (`count`: PL_RAIDS, PL_CATCHES_WON), the humans that kind brought it (`tally`)
    and the log's `event`."""
    touched(s, seat)
    s[pl(seat, L.PL_HUMANS)] += humans
    s[pl(seat, count)] += 1
    s[pl(seat, tally)] += humans
    emit(log, s, event, seat, space, humans, 0, 0, 0)


@jit
def reward(s, p, rng, ctx, log, space, winner, holder):
    """Raid (sure humans) or catch (more humans against armies); the city card goes to the
    winner, or to the loser who played "take the city" (`holder`)."""
    a, buf, slots = ctx[4], ctx[9], ctx[10]
    city = s[L.S_BOARD + space]
    decide(ctx, s, p, rng, winner, L.PH_REWARD, space)
    catching = a[L.A_YES] != 0
    probe = a[L.A_PROBE] != 0 and s[pl(winner, L.PL_RP_ARMIES)] < 0
    before, lost_before = s[pl(winner, L.PL_HUMANS)], s[pl(winner, L.PL_SHIPS_LOST)]
    if probe:
        k = group_of(s, winner, space, buf, slots)
        s[pl(winner, L.PL_RP_ARMIES)] = cf(p, city, L.CT_ARMIES)
        s[pl(winner, L.PL_RP_FLEET)] = group_attack(p, buf, k, city, True)
        s[pl(winner, L.PL_RP_RAID)] = raid_humans(p, city)
        s[pl(winner, L.PL_RP_CATCH)] = catch_humans(p, city)
        s[pl(winner, L.PL_RP_CHOICE)] = catching
        s[pl(winner, L.PL_RP_TURN)] = s[L.S_TURN]
    outcome = CAUGHT
    if not catching:
        humans = raid_humans(p, city)
        credit_reward(s, log, space, winner, humans, L.PL_RAIDS, L.PL_RAID_HUMANS, L.EV_RAID)
    else:
        outcome = catch(s, p, rng, ctx, log, space, winner)
        if s[L.S_ERROR] != L.OK:
            return s[L.S_ERROR]
    if probe:
        s[pl(winner, L.PL_RP_HUMANS)] = s[pl(winner, L.PL_HUMANS)] - before
        s[pl(winner, L.PL_RP_LOST)] = s[pl(winner, L.PL_SHIPS_LOST)] - lost_before
    if holder != winner:
        take_city(s, holder, city)
    elif outcome == CAUGHT or (outcome == LOST and p[L.P_LOST_CATCH_KEEPS]):
        take_city(s, winner, city)  # line 120 (line 104 under reward.lost_catch_card kept)
    else:
        s[L.S_CITIES_DISCARDED] += 1  # a retreat discards it (line 293)
    return L.OK


@jit
def catch(s, p, rng, ctx, log, space, seat):
    """Draw the city's army cards; fight each army in turn or retreat before it; a lost
    fight costs a ship and the catch (lines 116-122, 283-295). Returns CAUGHT, RETREATED or
    LOST."""
    a = ctx[4]
    city = s[L.S_BOARD + space]
    s[pl(seat, L.PL_CATCHES)] += 1
    clear_catch(s)
    k = cf(p, city, L.CT_ARMIES)
    for i in range(min(k, L.MAX_CATCH)):
        s[L.S_F_CATCH + i] = draw_army(s, rng)
    s[L.S_F_N_CATCH] = k
    emit(log, s, L.EV_CATCH, seat, space, s[L.S_F_CATCH], s[L.S_F_CATCH + 1], s[L.S_F_CATCH + 2], 0)
    if not scan(s, p, rng, ctx, log, space, seat):
        return RETREATED
    outcome = CAUGHT
    for i in range(L.MAX_CATCH):
        card = s[L.S_F_CATCH + i]
        if card < 0 or p[L.P_ARMY_ATTACK + card] == 0:
            continue
        army = p[L.P_ARMY_ATTACK + card]
        s[L.S_F_ARMY_INDEX] = i
        clear_fight(s, space, army)
        s[L.S_F_IN + seat] = 1
        decide(ctx, s, p, rng, seat, L.PH_ARMY, space)
        if a[L.A_YES] == 0:  # retreat before the fight (line 293): ships kept, city discarded
            s[pl(seat, L.PL_CATCH_RETREATS)] += 1
            emit(log, s, L.EV_ARMY_RETREAT, seat, space, army, 0, 0, 0)
            outcome = RETREATED
            break
        if not army_fight(s, p, rng, ctx, log, space, seat, army):
            outcome = LOST
            break
    for i in range(L.MAX_CATCH):
        if s[L.S_F_CATCH + i] >= 0:
            s[L.S_ARMY_DISCARD + s[L.S_F_CATCH + i]] += 1
    clear_catch(s)
    s[L.S_F_ARMY_INDEX] = -1
    clear_fight(s, -1, -1)
    if outcome == CAUGHT and s[L.S_ERROR] == L.OK:
        humans = catch_humans(p, city)
        credit_reward(s, log, space, seat, humans, L.PL_CATCHES_WON, L.PL_CATCH_HUMANS,
                      L.EV_CATCH_DONE)  # fmt: skip
    return outcome


@jit
def army_fight(s, p, rng, ctx, log, space, seat, army):
    """Attack plus 2d6 against the army's attack; equal or greater wins (line 289)."""
    buf, slots, totals = ctx[9], ctx[10], ctx[11]
    fleet = fighter_total(s, p, seat, buf, slots) if recording(log) else 0  # for the log
    s[L.S_F_ROLL + seat] = roll_2d6(s, rng)
    if not boost_round(s, p, rng, ctx, log, army):
        return False
    total = totals[seat]  # boost_round's, the fight unchanged since
    emit(log, s, L.EV_ARMY, seat, space, army, fleet, s[L.S_F_ROLL + seat], total)
    if beats_army(total, army):
        emit(log, s, L.EV_ARMY_WIN, seat, space, army, 0, 0, 0)
        return True
    s[pl(seat, L.PL_ARMY_LOSSES)] += 1
    lost = lose_one_ship(s, p, rng, ctx, log, seat)
    emit(log, s, L.EV_ARMY_LOSS, seat, space, lost, 0, 0, 0)
    return False


@jit
def check_scan(s, slot, a):
    """The scanner named is the captain's unused one, the army card one drawn."""
    if a[L.A_USE] != slot:
        return L.E_STATION_USE
    i = a[L.A_T_CITY]
    if i < 0 or i >= L.MAX_CATCH or s[L.S_F_CATCH + i] < 0:
        return L.E_SCAN_CARD
    return L.OK


@jit
def scan(s, p, rng, ctx, log, space, seat):
    """A scanner station discards one drawn army card before the fights. False on a refusal."""
    a = ctx[4]
    slot = unused_station(s, p, seat, L.ST_SCAN)
    armies = 0
    for i in range(L.MAX_CATCH):
        card = s[L.S_F_CATCH + i]
        armies += card >= 0 and p[L.P_ARMY_ATTACK + card] > 0
    if slot < 0 or armies == 0:
        return True
    while True:
        decide(ctx, s, p, rng, seat, L.PH_SCAN, space)
        if a[L.A_USE] < 0:
            return True
        err = check_scan(s, slot, a)
        if not again(ctx, s, seat, err, log):
            break
    if refused(s, err, seat):
        return False
    i = a[L.A_T_CITY]
    use_station(s, seat, slot)
    card = s[L.S_F_CATCH + i]
    s[L.S_ARMY_DISCARD + card] += 1
    s[L.S_F_CATCH + i] = -1
    emit(log, s, L.EV_SCAN, seat, space, card, 0, 0, 0)
    return True
