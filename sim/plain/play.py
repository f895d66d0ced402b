"""One game of a plain-Python game: its state driven by the seats' strategies, the dice from
the game's seed (stream 0), each seat's randomness from its own stream (1 + seat). What
`simulate_chunk` stores, `sim play` tells and `sim check` checks is this one loop.

Besides the end, the loop records how the game went, the same way for every game: a *turn*
is a run of decisions by one seat (it ends when another seat is to move), a *round* is as
many turns as there are seats, and every seat's score is kept at the start and after each
round (the last round perhaps cut short by the end): the lab's trajectory columns
(sim/plugins/trajectory.py) are read from those rows (`course`). A turn in which every decision
had a single legal action is a turn without a real choice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sim.errors import StrategyError
from sim.plain.chance import Chance
from sim.plain.game import Action, PlainGame, State, Strategy
from sim.plugins.trajectory import FRACTIONS, SCORE_AT, SCORE_BEFORE_LAST_ROUND

CAP = "cap"  # the outcome of a game cut at the game's `max_steps` decisions


@dataclass
class Played:
    """A finished (or cut) game and how it went."""

    state: State
    players: int
    steps: int = 0  # decisions made (a single legal action counts too)
    turns: int = 0
    capped: bool = False
    decisions: list[int] = field(default_factory=list)  # per seat
    turns_played: list[int] = field(default_factory=list)
    no_choice: list[int] = field(default_factory=list)  # turns with no real choice, per seat
    rows: list[list[float]] = field(default_factory=list)  # scores at the start, per round

    @property
    def outcome(self) -> str:
        return CAP if self.capped else self.state.outcome()

    @property
    def winners(self) -> list[int]:
        return [] if self.capped else list(self.state.winners())

    @property
    def scores(self) -> list[float]:
        return [float(s) for s in self.state.scores()]


# (step, seat, action, the state after it) for a watched game; first (0, -1, None, the
# state at the start)
Step = Callable[[int, int, Action, State], None]


def play(game: PlainGame, rules: Any, strategies: Sequence[Strategy], seed: int, *,
         labels: Sequence[str] = (), watch: Step | None = None) -> Played:  # fmt: skip
    """The game of `seed`, seat k played by strategies[k]. A strategy that fails or answers
    with an action the rules do not offer, and rules that fail, raise a StrategyError naming
    the seat, the step and what went wrong (labels name the strategies)."""
    players = len(strategies)
    chance = Chance(seed)
    state = _rules(lambda: game.start(rules, players, chance), -1, 0, "start")
    seats: list[Chance | None] = [None] * players
    played = Played(state, players, decisions=[0] * players, turns_played=[0] * players,
                    no_choice=[0] * players, rows=[_scores(state)])  # fmt: skip
    chose, decisions, cap, seat = False, played.decisions, game.max_steps, -1
    if watch is not None:
        watch(0, -1, None, state)
    while not state.over():
        if played.steps == cap:
            played.capped = True
            break
        seat = state.to_move
        actions = state.actions()
        if len(actions) > 1:
            own = seats[seat]
            if own is None:  # made when the seat first has a choice
                own = seats[seat] = Chance(seed, 1 + seat)
            action = _choice(strategies[seat], state, actions, own, played.steps, labels)
            chose = True
        elif actions:
            action = actions[0]
        else:
            raise _failure(f"the rules offer seat {seat + 1} no action before the end", seat,
                           played.steps)  # fmt: skip
        try:
            state.apply(action, chance)
        except Exception as err:  # noqa: BLE001 - the designer's rules: say where they failed
            said = _said(state, action)
            raise _failure(f"the rules raised {type(err).__name__} applying {said!r}: {err}",
                           seat, played.steps) from None  # fmt: skip
        played.steps += 1
        decisions[seat] += 1
        if watch is not None:
            watch(played.steps, seat, action, state)
        if state.to_move != seat:
            _end_turn(played, seat, chose)
            chose, seat = False, -1
    if played.steps and seat >= 0:
        _end_turn(played, seat, chose)  # the game ended inside a turn
    if played.turns % players:
        played.rows.append(_scores(state))  # the last round, cut short
    return played


def _end_turn(played: Played, seat: int, chose: bool) -> None:
    played.turns += 1
    played.turns_played[seat] += 1
    played.no_choice[seat] += not chose
    if played.turns % played.players == 0:
        played.rows.append(_scores(played.state))


def _scores(state: State) -> list[float]:
    return [float(s) for s in state.scores()]


def _choice(strategy: Strategy, state: State, actions: Sequence[Action], chance: Chance,
            step: int, labels: Sequence[str]) -> Action:  # fmt: skip
    seat = state.to_move
    try:
        action = strategy.choose(state, actions, chance)
    except Exception as err:  # noqa: BLE001 - a designer's strategy: say where it failed
        raise _failure(f"the strategy raised {type(err).__name__}: {err}", seat, step,
                       labels) from None  # fmt: skip
    if action not in actions:
        offered = ", ".join(_said(state, a) for a in actions)
        raise _failure(f"the strategy chose {action!r}, not a legal action (legal: {offered})",
                       seat, step, labels)  # fmt: skip
    return action


def _rules(make: Callable[[], State], seat: int, step: int, what: str) -> State:
    try:
        return make()
    except Exception as err:  # noqa: BLE001 - the designer's rules: say where they failed
        raise _failure(f"the rules raised {type(err).__name__} at the {what}: {err}", seat,
                       step) from None  # fmt: skip


def _said(state: State, action: Action) -> str:
    try:
        return state.describe(action)
    except Exception:  # noqa: BLE001 - a message about a failure must not fail itself
        return repr(action)


def _failure(message: str, seat: int, step: int, labels: Sequence[str] = ()) -> StrategyError:
    who = labels[seat] if 0 <= seat < len(labels) else ""
    place = f"seat {seat + 1}" + (f" ({who})" if who else "") if seat >= 0 else "the game"
    return StrategyError(f"{place} at step {step + 1}: {message}", strategy=who, game=0,
                         seat=seat, hint="Fix the game's rules or the strategy.")  # fmt: skip


def course(played: Played) -> tuple[int, dict[str, list[float]]]:
    """How the game went, the lab's trajectory columns: (lead_changes, {per-seat column:
    one value per seat}) from the rows of scores (a step is a round)."""
    rows = played.rows
    steps = len(rows) - 1
    at = {SCORE_AT[name]: rows[steps * num // den] for name, num, den in FRACTIONS}
    at[SCORE_BEFORE_LAST_ROUND] = rows[max(steps - 1, 0)]
    return _lead_changes(rows[1:]), at


def _lead_changes(rows: list[list[float]]) -> int:
    """How often the strict leader after a round differs from the last one seen (a tie at
    the top neither counts nor forgets who led)."""
    changes, last = 0, None
    for row in rows:
        top = max(row)
        leaders = [seat for seat, score in enumerate(row) if score == top]
        if len(leaders) > 1:
            continue
        changes += last is not None and leaders[0] != last
        last = leaders[0]
    return changes
