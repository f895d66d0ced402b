"""The plain-Python game interface: what a designer writes for the lab to play a game of theirs
(docs/adding-a-game.md, "The plain path"). No numba, no arrays: a state and its rules.

A game is a `PlainGame` (its name, its rule keys and presets, how a game starts) and a `State`
(one position: the seat to move, the legal actions, applying one, the end and the scores).
Chance is drawn from the `Chance` handed to `start` and `apply`, the lab's seeded stream, so a
game is a pure function of its ruleset, its players and its seed. `sim.plain.plug_in` makes
the game a plug-in: every command of the lab then plays it, with generic players (random,
greedy on the game's `value`, Monte Carlo tree search) as its skill ladder.

Hidden information: a state whose seats may not see everything writes `observation(seat)`
(everything the seat may see, comparable with ==) and `resample(seat, chance)` (a copy of the
state with what the seat cannot see drawn again, consistent with what it has seen). The
search players then plan on resampled states only, and `sim check` holds the two to each
other: a resampled state must look the same to the seat.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from sim.plain.chance import Chance
    from sim.rulesets import Ruleset, RulesetFamily

Action = Hashable  # any value the game compares with ==: a word, a number, a tuple


class State:
    """One position of a game; the designer's state derives from it.

    Required: the attribute `to_move` (the seat whose decision it is, 0-based) and
    `actions`, `apply`, `over`, `scores`. The rest have defaults."""

    to_move: int = 0

    def actions(self) -> Sequence[Action]:
        """The legal actions of the seat to move (never empty before the end)."""
        raise NotImplementedError

    def apply(self, action: Action, chance: Chance) -> None:
        """Play `action` for the seat to move, drawing any chance from `chance`; then set
        `to_move` to the seat whose decision comes next."""
        raise NotImplementedError

    def over(self) -> bool:
        """Whether the game has ended."""
        raise NotImplementedError

    def scores(self) -> Sequence[float]:
        """Each seat's score, higher is better, at any point of the game (the report follows
        how the scores went: who led, how close it was)."""
        raise NotImplementedError

    # --- optional ---------------------------------------------------------------------------

    def winners(self) -> Sequence[int]:
        """The seats that won a finished game (several share the win; none: nobody won). By
        default the seats with the highest score."""
        scores = list(self.scores())
        best = max(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    def outcome(self) -> str:
        """How the finished game ended: one of the game's `outcomes` (default "win")."""
        return "win"

    def copy(self) -> State:
        """An independent copy: playing on either leaves the other as it was. The default
        deep-copies; a state of a few lists is copied several times faster by hand, and the
        search players copy a state at every simulation."""
        return copy.deepcopy(self)

    def observation(self, seat: int) -> Hashable:
        """Everything `seat` may see, comparable with == (hidden information only)."""
        raise NotImplementedError

    def resample(self, seat: int, chance: Chance) -> State:
        """A copy with what `seat` cannot see drawn again from `chance`, consistent with what
        it has seen (hidden information only)."""
        raise NotImplementedError

    def value(self, seat: int) -> float:
        """A heuristic: the share of the win `seat` can expect from here, 0..1 (optional; the
        greedy player and the search players' evaluation use it)."""
        raise NotImplementedError

    def values(self) -> Sequence[float]:
        """Every seat's `value` at once, in seat order (optional, beside `value`): the search
        players judge every seat at each simulation, and a game whose seats' values share
        their work (a standing, a total) does it once here."""
        return [self.value(seat) for seat in range(len(self.scores()))]

    def describe(self, action: Action) -> str:
        """An action in words, as `sim play` prints it and scenario files name it."""
        return str(action)

    def show(self) -> str:
        """The position in a few lines for `sim play` (the scores are printed anyway)."""
        return ""

    def stats(self) -> Mapping[str, float]:
        """Numbers of a finished game to store per game (the same names in every game)."""
        return {}

    def seat_stats(self) -> Mapping[str, Sequence[float]]:
        """Numbers of a finished game to store per seat: name -> one value per seat."""
        return {}


def overrides(state: State, method: str) -> bool:
    """Whether the state's class writes `method` itself (an optional part of the interface)."""
    return getattr(type(state), method) is not getattr(State, method)


@functools.cache
def gives_value(game: PlainGame) -> bool:
    """Whether the game gives a heuristic (its state writes `value`), asked of a new game of
    its first preset at the fewest seats, once."""
    from sim.plain.chance import Chance

    rules = game.rulesets.load(game.rulesets.presets[0])
    return overrides(game.start(rules, min(game.player_counts), Chance(0)), "value")


class Strategy:
    """A player: `choose` returns one of the legal `actions` for the seat to move. A
    designer's own strategy derives from it; PARAMS names its parameters and their default
    numbers (the lab checks an experiment's values against them), read as `self.params`.

    A strategy is made for one seat of one game, and draws any randomness from the `chance`
    handed to `choose` (the seat's own stream), so a game replays from its seed. In a game
    with hidden information it reads `state.observation(self.seat)`, never the rest."""

    PARAMS: ClassVar[Mapping[str, float]] = {}

    def __init__(self, *, game: PlainGame, rules: Ruleset, seat: int,
                 params: Mapping[str, Any]) -> None:  # fmt: skip
        self.game, self.rules, self.seat, self.params = game, rules, seat, dict(params)

    def choose(self, state: State, actions: Sequence[Action], chance: Chance) -> Action:
        raise NotImplementedError


class PlainGame:
    """A game's description: its name, rule keys and presets (a `RulesetFamily`), how many
    play it and how a game starts. Optional: its own strategies, the demo lineup, the cap on
    decisions, what one scoring event is worth (the report's "close game"), the search's
    budget at the top of the ladder."""

    name: ClassVar[str]  # as experiments and --game name it, e.g. "no-thanks"
    title: ClassVar[str]
    rulesets: ClassVar[RulesetFamily]
    version: ClassVar[int] = 1  # bump it when the rules or the game's strategies change play
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    outcomes: ClassVar[tuple[str, ...]] = ("win",)  # what State.outcome returns
    strategies: ClassVar[Mapping[str, type[Strategy]]] = {}  # the game's own players
    demo_lineup: ClassVar[str | None] = None  # `sim play` without --strategies
    max_steps: ClassVar[int] = 100_000  # decisions after which a game is cut (outcome "cap")
    # the points one scoring event is worth (a game is close when first and second are at
    # most that far apart), and what it is in words; None: one point
    scoring_event: ClassVar[float | None] = None
    scoring_event_words: ClassVar[str] = "one point"
    search_budget: ClassVar[int] = 1000  # the search's simulations per decision at `master`

    def start(self, rules: Ruleset, players: int, chance: Chance) -> State:
        """A new game for `players` seats under `rules`, any shuffle drawn from `chance`."""
        raise NotImplementedError
