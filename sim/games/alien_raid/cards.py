"""What the cards say, as compiled queries on the params array: a ship's attack in a group
at a city, fuel limits, credit conditions, what a task counts. The engine and the strategies'
predictions call these same functions (one rule, one place). Rulings:
docs/games/alien_raid/rules.md.
"""

import numpy as np

from sim.games.alien_raid import layout as L
from sim.jit import jit, jit_inline


@jit_inline
def mf(p, m, field):
    """Field M_* of model m."""
    return p[L.P_MODELS + m * L.MODEL_SIZE + field]


@jit_inline
def cf(p, c, field):
    """Field CT_* of city c."""
    return p[L.P_CITIES + c * L.CITY_SIZE + field]


@jit_inline
def is_station(p, m):
    return m >= 0 and mf(p, m, L.M_KIND) == L.STATION


@jit
def usable_station(p, stations, used, effect):
    """Slot of an unused station with that effect among stations[:MAX_STATIONS] (flags in
    `used`), or -1: stations are used once per turn (line 150). The rules pass the state's
    slots, a strategy its observation's."""
    for i in range(L.MAX_STATIONS):
        m = stations[i]
        if m >= 0 and used[i] == 0 and mf(p, m, L.M_EFFECT) == effect:
            return i
    return -1


@jit
def fuel_limit(p, turn):
    """The Alliance's fuel limit of `turn` (1-based): 4, 5, ... up to fuel.max (lines 88, 228)."""
    f = p[L.P_FUEL_START] + p[L.P_FUEL_STEP] * (turn - 1)
    return min(f, p[L.P_FUEL_MAX])


@jit
def station_fuel(p, stations, n):
    """Fuel added every turn by the stations held (effect "+N fuel")."""
    extra = 0
    for i in range(n):
        m = stations[i]
        if m >= 0 and mf(p, m, L.M_EFFECT) == L.ST_FUEL:
            extra += mf(p, m, L.M_EFFECT_VALUE)
    return extra


@jit_inline
def city_condition(p, cond, arg, city):
    """Whether a condition about the city holds (any other condition holds here)."""
    if cond == L.C_CITY_TYPE:
        return cf(p, city, L.CT_TYPE) == arg
    if cond == L.C_CITY_NOT_TYPE:
        return cf(p, city, L.CT_TYPE) != arg
    if cond == L.C_CITY_REGION:
        return cf(p, city, L.CT_REGION) == arg
    if cond == L.C_CITY_NOT_REGION:
        return cf(p, city, L.CT_REGION) != arg
    if cond == L.C_CITY_DECK:
        return cf(p, city, L.CT_DECK) == arg
    return True


@jit_inline
def class_bit(p, m):
    """Model m's ship class as a bit (0 for a station, which has none)."""
    c = mf(p, m, L.M_CLASS)
    return np.int64(1) << c if c >= 0 else np.int64(0)


@jit_inline
def companions(classes, twice, bit):
    """The classes of a ship's companions, as bits: those of its group (`classes`, group_classes)
    but its own class `bit` unless another ship of the group has it too (`twice`)."""
    return twice | (classes & ~bit)


@jit_inline
def group_classes(p, group, n):
    """The classes of group[:n] as bits, and those held by two ships or more (companions)."""
    classes, twice = np.int64(0), np.int64(0)
    for i in range(n):
        bit = class_bit(p, group[i])
        twice |= classes & bit
        classes |= bit
    return classes, twice


@jit_inline  # pasted into _model_attack: the plans ask it for every group
def condition_holds(p, cond, arg, city, others, n, vs_army):
    """Whether a trait condition holds for a ship attacking `city` in a group of n ships whose
    other ships' classes are the bits `others` (companions; vs_army: fighting an army in a
    catch, else a battle between captains or none)."""
    if group_condition(cond):
        return companions_hold(cond, arg, others, n)
    return setting_holds(p, cond, arg, city, vs_army)


@jit_inline
def companions_hold(cond, arg, others, n):
    """Whether a condition on the ship's companions (group_condition) holds in a group of n
    ships whose other ships' classes are the bits `others`."""
    if cond == L.C_WITH or cond == L.C_WITHOUT:
        found = 0 <= arg < L.MAX_CLASSES and (others >> arg) & 1 == 1
        return found if cond == L.C_WITH else not found
    if cond == L.C_ALONE:
        return n == 1
    return n >= arg  # C_GROUP_AT_LEAST


@jit_inline
def setting_holds(p, cond, arg, city, vs_army):
    """Whether a condition that does not look at the companions holds: none, the foe (vs_army:
    an army in a catch, else a captain or none), the city."""
    if cond == L.C_NONE:
        return True
    if cond == L.C_VS_ARMY:
        return vs_army
    if cond == L.C_VS_CAPTAIN:
        return not vs_army
    return city_condition(p, cond, arg, city)


@jit_inline
def group_condition(cond):
    """Whether a trait condition looks at the ship's companions (condition_holds)."""
    return (
        cond == L.C_WITH or cond == L.C_WITHOUT or cond == L.C_ALONE or cond == L.C_GROUP_AT_LEAST
    )


@jit_inline
def foe_condition(cond):
    """Whether a trait condition looks at whom the ship fights, an army or a captain."""
    return cond == L.C_VS_ARMY or cond == L.C_VS_CAPTAIN


@jit_inline
def trait_condition(p, m, t, c):
    """Condition c of model m's trait t: (condition, argument)."""
    base = L.P_MODELS + m * L.MODEL_SIZE + L.M_TRAITS + t * L.TRAIT_SIZE
    return p[base + 1 + 2 * c], p[base + 2 + 2 * c]


@jit
def depends_on_group(p, m):
    """Whether model m's attack depends on the group it flies with: a trait of it has a
    condition on its companions or the group's size. Otherwise it adds the same attack to
    every group at a city (ship_attack)."""
    return _has_condition(p, m, True)


@jit
def depends_on_foe(p, m):
    """Whether model m's attack depends on whom it fights: a trait of it has a condition on
    the foe. Otherwise it adds the same attack against an army and against a captain."""
    return _has_condition(p, m, False)


@jit
def _has_condition(p, m, on_group):
    """Whether a trait of model m has a condition on its companions (on_group, group_condition)
    or on its foe (foe_condition)."""
    for t in range(mf(p, m, L.M_N_TRAITS)):
        for c in range(L.MAX_CONDS):
            cond = trait_condition(p, m, t, c)[0]
            if group_condition(cond) if on_group else foe_condition(cond):
                return True
    return False


@jit_inline
def ship_attack(p, group, n, me, city, vs_army, jammed):
    """Attack of ship group[me] flying with group[:n] (model_attack)."""
    classes, twice = group_classes(p, group, n)
    others = companions(classes, twice, class_bit(p, group[me]))
    return model_attack(p, group[me], city, others, n, vs_army, jammed)


@jit_inline
def model_attack(p, m, city, others, n, vs_army, jammed):
    """Attack of a ship of model m in a group of n ships whose other ships' classes are the
    bits `others` (companions): printed attack plus every trait whose conditions hold. A
    jammed ship's bonuses (positive traits) are off (the Paris example). Never below 0.
    Pasted into its callers, it widens the arguments for `_model_attack`: a literal (0, False)
    or an int32 read is a type of its own, and numba would compile the attack, with its
    pasted conditions, once per mix."""
    return _model_attack(p, np.int64(m), np.int64(city), np.int64(others), np.int64(n),
                         bool(vs_army), bool(jammed))  # fmt: skip


@jit
def _model_attack(p, m, city, others, n, vs_army, jammed):
    total = mf(p, m, L.M_ATTACK)
    for t in range(mf(p, m, L.M_N_TRAITS)):
        base = L.P_MODELS + m * L.MODEL_SIZE + L.M_TRAITS + t * L.TRAIT_SIZE
        value = p[base]
        if jammed and value > 0:
            continue
        holds = True
        for k in range(L.MAX_CONDS):
            if not condition_holds(
                p, p[base + 1 + 2 * k], p[base + 2 + 2 * k], city, others, n, vs_army
            ):
                holds = False
                break
        if holds:
            total += value
    return max(total, 0)


RESIDUAL = 1 + 2 * L.MAX_CONDS  # a trait left to the companions: value, (condition, arg) x 2


@jit
def setting_attack(p, m, city, vs_army, left):
    """Model m's attack at `city` against that foe as far as the setting (not the companions)
    decides it, unjammed: returns the printed attack plus every trait that holds there and
    does not look at the companions, and how many traits are left to them; `left` gets each
    of those, RESIDUAL words: its value and its conditions on the companions (C_NONE where a
    condition held in the setting). Traits whose setting conditions fail are dropped. A ship
    of model m in a group then attacks with residual_attack (as model_attack)."""
    total, count = mf(p, m, L.M_ATTACK), 0
    for t in range(mf(p, m, L.M_N_TRAITS)):
        base = L.P_MODELS + m * L.MODEL_SIZE + L.M_TRAITS + t * L.TRAIT_SIZE
        holds, companions = True, False
        for k in range(L.MAX_CONDS):
            cond, arg = p[base + 1 + 2 * k], p[base + 2 + 2 * k]
            if group_condition(cond):
                companions = True
            elif not setting_holds(p, cond, arg, city, vs_army):
                holds = False
        if not holds:
            continue
        if not companions:
            total += p[base]
            continue
        at = count * RESIDUAL
        left[at] = p[base]
        for k in range(L.MAX_CONDS):
            cond, arg = p[base + 1 + 2 * k], p[base + 2 + 2 * k]
            left[at + 1 + 2 * k] = cond if group_condition(cond) else L.C_NONE
            left[at + 2 + 2 * k] = arg
        count += 1
    return total, count


@jit_inline
def residual_attack(total, left, start, count, others, n):
    """The attack of a ship in a group of n ships whose other ships' classes are the bits
    `others`, from its setting_attack `total` and the `count` traits it left to the
    companions (at left[start:])."""
    for i in range(count):
        at = start + i * RESIDUAL
        holds = True
        for k in range(L.MAX_CONDS):
            cond = left[at + 1 + 2 * k]
            if cond != L.C_NONE and not companions_hold(cond, left[at + 2 + 2 * k], others, n):
                holds = False
        if holds:
            total += left[at]
    return max(total, 0)


@jit
def group_attack(p, group, n, city, vs_army):
    """The group's attack power at `city`: the sum of its ships' attacks (line 250)."""
    classes, twice = group_classes(p, group, n)
    total = 0
    for i in range(n):
        others = companions(classes, twice, class_bit(p, group[i]))
        total += model_attack(p, group[i], city, others, n, vs_army, False)
    return total


@jit
def group_fuel(p, group, n):
    total = 0
    for i in range(n):
        total += mf(p, group[i], L.M_FUEL)
    return total


@jit
def destroyable(p, m):
    """Whether a ship can be destroyed (invulnerable ships never are: FAQ lines 373-379)."""
    return m >= 0 and mf(p, m, L.M_INVULNERABLE) == 0


@jit
def credit_allowed(p, humans, ships):
    """Credit conditions: fewer than 50,000 humans and fewer than 2 ships (line 184); with
    credit.condition no_more_than, at most those (line 186)."""
    if p[L.P_CREDIT_INCLUSIVE]:
        return humans <= p[L.P_CREDIT_HUMANS] and ships <= p[L.P_CREDIT_SHIPS]
    return humans < p[L.P_CREDIT_HUMANS] and ships < p[L.P_CREDIT_SHIPS]


@jit
def task_counts_city(p, task, city):
    """Whether city card `city` counts for task model `task`."""
    return city_condition(p, p[L.P_TASK_COND + task], p[L.P_TASK_ARG + task], city)


@jit
def price(p, m):
    return mf(p, m, L.M_PRICE)


@jit
def raid_humans(p, city):
    return cf(p, city, L.CT_RAID)


@jit
def catch_humans(p, city):
    return cf(p, city, L.CT_CATCH)


@jit
def beats_army(total, army):
    """A captain beats an army with a total (attack + dice) equal or greater (line 289)."""
    return total >= army
