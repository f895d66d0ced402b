"""The contract of a plain-Python game, checked at every step of many games (`sim check`).

Each game is the game `sim play` plays for its seed (the same loop, sim/plain/play.py); the
checks draw their own randomness from a stream of their own, so they never change the game.
After every decision:

- the actions offered are all accepted: each is applied to a copy without an error (at most
  `ACTIONS_TRIED` of them, picked evenly);
- a copy is faithful and independent: equal to the state when made, unchanged when the
  state is played on to the end, and playing the copy on leaves the state as it was;
- with hidden information, no seat is shown what it may not see: for every seat, a state
  resampled for it (what it cannot see drawn again) looks the same to it, offers it the same
  actions when it is to move, and leaves the state as it was;
- a finished game names winners among its seats and one score per seat;
- a state that writes `values` (every seat's heuristic at once) gives each seat's `value`.

And of the whole game: it ends within the game's cap, and played again from its seed it makes
the same decisions through the same states.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Sequence
from typing import Any

from sim.contract.findings import Contract, Failure, replay_command
from sim.errors import StrategyError
from sim.plain.chance import Chance
from sim.plain.game import PlainGame, State, overrides
from sim.plain.play import Played, play
from sim.plugins.base import StrategySpec

ACTIONS_TRIED = 8  # offered actions applied to a copy at each step, at most
PLAYED_ON = 5  # random steps a copy is played on, to see that the state stays as it was
VALUES_TOLERANCE = 1e-9  # values() against value(seat): the same sums in another order
PROBE_STREAM = 1000  # the checks' own stream of a game's seed (the seats use 1 + seat)


class Broken(Exception):
    """The contract failed at `step` (from 1; 0: at the start)."""

    def __init__(self, step: int, message: str) -> None:
        super().__init__(message)
        self.step = step


def check_plain(plugin: Any, game: PlainGame, *, games: int, seed: int,
                lineup: Sequence[str]) -> Contract:  # fmt: skip
    ruleset = plugin.load_ruleset(plugin.presets[0])
    players = [plugin.resolve(StrategySpec(name))[0] for name in lineup]
    contract = Contract(plugin.name, games, len(lineup), tuple(lineup))
    hidden = resampled = valued = decisions = longest = 0
    for s in range(seed, seed + games):
        try:
            first, trail, stats = _checked_game(game, ruleset, players, lineup, s)
            again, trail_again, _ = _checked_game(game, ruleset, players, lineup, s,
                                                  checks=False)  # fmt: skip
            _same(trail, trail_again)
            if first.capped:
                raise Broken(first.steps, f"the game did not end within its cap of "
                                          f"{game.max_steps:,} decisions")  # fmt: skip
        except Broken as broken:
            contract.failures.append(Failure(s, broken.step, str(broken),
                                             replay_command(plugin.name, lineup, s)))  # fmt: skip
            continue
        hidden, resampled, valued = hidden + stats[0], resampled + stats[1], valued + stats[2]
        decisions, longest = decisions + first.steps, max(longest, first.steps)
    contract.passed += _held(game, contract, decisions, longest)
    if hidden:
        contract.passed.append(f"no seat is shown what it may not see ({hidden:,} resampled "
                               f"states looked the same to their seat; {resampled:,} of them "
                               "differed elsewhere)")  # fmt: skip
    elif not contract.failures:
        contract.unchecked.append("what a seat may see: the game hides nothing (its state "
                                  "writes no observation and resample)")  # fmt: skip
    if valued:
        contract.passed.append(f"values() gives every seat's value(seat) ({valued:,} states)")
    return contract


def _held(game: PlainGame, contract: Contract, decisions: int, longest: int) -> list[str]:
    ok = contract.games - len({f.seed for f in contract.failures})
    if not ok:
        return []
    return [f"every game ends within its cap of {game.max_steps:,} decisions ({ok} games, "
            f"{decisions / ok:.1f} decisions on average, {longest} at most)",
            "a game played again from its seed makes the same decisions through the same "
            "states",
            "every action offered is accepted by the rules",
            "a copy is faithful and independent: playing either leaves the other as it was",
            "a finished game names its winners among its seats and one score per seat"]  # fmt: skip


Trail = list[tuple[int, Any, bytes]]  # per step: the seat, its action, the state after it


Checked = tuple[Played, Trail, tuple[int, int, int]]  # (resampled, of them different, valued)


def _checked_game(game: PlainGame, ruleset: Any, players: list, lineup: Sequence[str],
                  seed: int, *, checks: bool = True) -> Checked:  # fmt: skip
    """The game of `seed` (as `sim play` plays it), each step checked; (the game, its trail
    of (seat, action, fingerprint) per step, (states resampled, of them different, states
    whose `values` were checked))."""
    n = len(lineup)
    strategies = [player.make(game, ruleset, seat) for seat, player in enumerate(players)]
    probe = Chance(seed, PROBE_STREAM)
    trail: Trail = []
    copies: list[tuple[int, State, bytes]] = []
    counts = [0, 0, 0]

    def step(number: int, seat: int, action: Any, state: State) -> None:
        snapshot = fingerprint(state)
        trail.append((seat, action, snapshot))
        if not checks:
            return
        if state.over():
            _finished(state, n, number)
        else:
            _actions_accepted(state, snapshot, number, probe)
        _copy_is_faithful(state, snapshot, number, copies, probe)
        if overrides(state, "resample"):
            _hides(state, snapshot, n, number, probe, counts)
        if overrides(state, "values"):
            _values_agree(state, n, number)
            counts[2] += 1

    try:
        played = play(game, ruleset, strategies, seed, labels=list(lineup), watch=step)
    except StrategyError as err:
        raise Broken(len(trail) + 1, err.message.split(": ", 1)[-1]) from None
    for number, twin, made in copies:
        if fingerprint(twin) != made:
            raise Broken(number, "a copy made at this step changed when the game was played "
                                 "on: it shares something with the state (copy)")  # fmt: skip
    return played, trail, (counts[0], counts[1], counts[2])


def fingerprint(state: State) -> bytes:
    """The state's contents, to compare (its pickle; its repr where it does not pickle)."""
    try:
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - any state: a repr still tells most differences
        return repr(vars(state) if hasattr(state, "__dict__") else state).encode()


def _copy_is_faithful(state: State, snapshot: bytes, number: int, copies: list,
                      probe: Chance) -> None:  # fmt: skip
    twin = state.copy()
    if twin is state or fingerprint(twin) != snapshot:
        raise Broken(number, "copy() does not give an equal, separate state")
    copies.append((number, twin, snapshot))
    other = state.copy()
    for _ in range(PLAYED_ON):
        if other.over():
            break
        actions = other.actions()
        _accepted(other, actions[probe.below(len(actions))], number, probe)
    if fingerprint(state) != snapshot:
        raise Broken(number, "playing on a copy changed the state it was copied from (copy)")


def _finished(state: State, players: int, number: int) -> None:
    scores, winners = list(state.scores()), list(state.winners())
    if len(scores) != players:
        raise Broken(number, f"scores() gives {len(scores)} scores for {players} seats")
    if not all(isinstance(w, int) and 0 <= w < players for w in winners):
        raise Broken(number, f"winners() names {winners}, not seats 0..{players - 1}")


def _values_agree(state: State, players: int, number: int) -> None:
    """`values()` is `value(seat)` for every seat, in seat order (to rounding)."""
    together, each = list(state.values()), [state.value(seat) for seat in range(players)]
    if len(together) != players or not all(
        math.isclose(a, b, rel_tol=VALUES_TOLERANCE, abs_tol=VALUES_TOLERANCE)
        for a, b in zip(together, each, strict=True)
    ):
        raise Broken(number, f"values() gives {together}, not each seat's value(seat): {each}")


def _actions_accepted(state: State, snapshot: bytes, number: int, probe: Chance) -> None:
    actions = list(state.actions())
    if not actions:
        raise Broken(number, "no action is offered before the end")
    stride = max(1, len(actions) // ACTIONS_TRIED)
    for action in actions[::stride][:ACTIONS_TRIED]:
        _accepted(state.copy(), action, number, probe)
    if fingerprint(state) != snapshot:
        raise Broken(number, "applying an action to a copy changed the state (copy)")


def _accepted(state: State, action: Any, number: int, probe: Chance) -> None:
    """Apply an offered action to `state` (a copy), which the rules must accept."""
    said = state.describe(action)
    try:
        state.apply(action, probe)
    except Exception as err:  # noqa: BLE001 - the designer's rules refusing what they offer
        raise Broken(number, f"the rules offer {said!r} and then refuse it "
                             f"({type(err).__name__}: {err})") from None  # fmt: skip


def _hides(state: State, snapshot: bytes, players: int, number: int, probe: Chance,
           counts: list[int]) -> None:  # fmt: skip
    for seat in range(players):
        seen = state.observation(seat)
        other = state.resample(seat, probe)
        if fingerprint(state) != snapshot:
            raise Broken(number, f"resample({seat}) changed the state it resampled")
        counts[0] += 1
        counts[1] += fingerprint(other) != snapshot
        if other.observation(seat) != seen:
            raise Broken(number, f"seat {seat + 1}'s observation changes when only what it "
                                 f"cannot see is drawn again: it shows the seat something "
                                 f"hidden, or resample changes what the seat has seen "
                                 f"(was {seen!r}, now {other.observation(seat)!r})")  # fmt: skip
        moving = not state.over() and seat == state.to_move
        if moving and list(other.actions()) != list(state.actions()):
            raise Broken(number, f"seat {seat + 1}'s legal actions depend on what it cannot "
                                 "see: a resampled state offers it others")  # fmt: skip


def _same(first: list, again: list) -> None:
    for number, (one, two) in enumerate(zip(first, again, strict=False), start=1):
        if one[:2] != two[:2]:
            raise Broken(number, f"played again from its seed, seat {two[0] + 1} chose "
                                 f"{two[1]!r} where it had chosen {one[1]!r}: the game or a "
                                 "strategy draws from outside its seed")  # fmt: skip
        if one[2] != two[2]:
            message = "the same decisions led to another state: the rules draw from outside"
            raise Broken(number, f"played again from its seed, {message} their chance")
    if len(first) != len(again):
        raise Broken(min(len(first), len(again)) + 1, "played again from its seed, the game "
                     "took another number of decisions")  # fmt: skip
