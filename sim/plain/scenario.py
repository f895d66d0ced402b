"""The scenario format of every plain-Python game (`sim scenario run|check`): a position, the
actions, what chance brings, the expected result. One rule per file:

    game: plain-pig
    name: "A roll of the bust face loses the turn total and ends the turn"
    ruleset: plain-pig            # optional (default: the game's first preset); rules: {..}
    players: 2                    # optional (default: the fewest the game takes)
    seed: 0                       # optional: the new game the position starts from
    position: {banked: [30, 12], turn_total: 9}    # optional: the state's fields, set as given
    actions: [roll, roll, hold]   # as the game describes them (`sim play` prints them so) ...
    # strategies: [hold, master]  # ... or the seats' players deciding
    chance: [5, 1]                # optional: what chance gives, in order (a die's face, a
                                  # number below n, the option picked, a shuffled order);
                                  # without it, the seed's own draws
    expect: {scores: [30, 12], to_move: 2, position: {turn_total: 0}}

The result names the actions made (`actions`), the `scores`, the `winners` and the seat
`to_move` (seats counted from 1), whether the game is `over`, the `legal` actions then, and
the `position` (the state's fields); `error` when the rules refuse an action. With
`strategies`, play stops at the end, where the chance runs out, or after `steps` decisions.
"""

from __future__ import annotations

from typing import Any

import yaml

from sim.config.fields import Field, coerce
from sim.plain.chance import Chance, RanOut, Scripted
from sim.plain.game import PlainGame, State
from sim.plain.players import Players
from sim.plugins.base import Scenarios, StrategySpec
from sim.scenarios import (
    ScenarioError,
    expectation_diff,
    read_expect,
    read_scenario,
    scenario_ruleset,
)

TOP_KEYS = ("name", "game", "source", "ruleset", "rules", "players", "seed", "position",
            "actions", "strategies", "chance", "steps", "expect")  # fmt: skip
EXPECT_KEYS = ("actions", "scores", "winners", "to_move", "over", "legal", "position", "error")
_COUNT = Field("int", min=0)


def scenarios(game: PlainGame, players: Players) -> Scenarios:
    def run_file(path: str) -> str:
        result = _run(game, players, path, read_scenario(path, TOP_KEYS))
        return yaml.safe_dump(result, sort_keys=False)

    def check_file(path: str) -> str:
        data = read_scenario(path, TOP_KEYS)
        expect = read_expect(data, path, EXPECT_KEYS)
        got = _run(game, players, path, data)
        return expectation_diff(expect, got, compare={"position": _fields_diff},
                                refused="an action was refused")  # fmt: skip

    return Scenarios(run_file=run_file, check_file=check_file)


def _run(game: PlainGame, players: Players, path: str, data: dict) -> dict:
    rules = scenario_ruleset(data, path, game.rulesets.load, game.rulesets.presets[0])
    n = coerce(Field("int", min=1), data.get("players", min(game.player_counts)), file=path,
               key="players")  # fmt: skip
    if n not in game.player_counts:
        raise ScenarioError(f"{game.title} is played by {game.player_counts}, not {n}",
                            file=path, key="players")  # fmt: skip
    seed = coerce(_COUNT, data.get("seed", 0), file=path, key="seed")
    state = game.start(rules, n, Chance(seed))
    _set_position(state, data.get("position") or {}, path)
    if "chance" in data and not isinstance(data["chance"], list):
        raise ScenarioError("expected a list of what chance gives", file=path, key="chance",
                            hint="For example [5, 1]: a die's faces, in order.")  # fmt: skip
    chance = Scripted(data["chance"]) if "chance" in data else Chance(seed)
    if ("actions" in data) == ("strategies" in data):
        raise ScenarioError("give either `actions` or `strategies`", file=path, key="actions")
    made: list[str] = []
    try:
        if "actions" in data:
            _play_actions(state, data["actions"], chance, made, path)
        else:
            steps = coerce(_COUNT, data.get("steps", game.max_steps), file=path, key="steps")
            _play_strategies(game, players, rules, state, data["strategies"], chance, seed,
                             steps, made, path)  # fmt: skip
    except Refused as refused:
        return {**_result(state, made), "error": str(refused)}
    except RanOut:
        pass  # the scripted chance ends here: the position reached is the result
    except ValueError as err:  # a scripted value the draw cannot give
        raise ScenarioError(str(err), file=path, key="chance") from None
    return _result(state, made)


class Refused(Exception):
    """The rules refused an action (not offered, or applying it failed)."""


def _set_position(state: State, position: Any, path: str) -> None:
    if not isinstance(position, dict):
        raise ScenarioError("expected a mapping of the state's fields", file=path,
                            key="position")  # fmt: skip
    fields = _fields(state)
    for key, value in position.items():
        if key not in fields:
            raise ScenarioError(f"the state has no field {key!r}", file=path,
                                key=f"position.{key}",
                                hint=f"Fields: {', '.join(fields)}.")  # fmt: skip
        current = getattr(state, key)
        setattr(state, key, tuple(value) if isinstance(current, tuple) else value)


def _fields(state: State) -> list[str]:
    return [k for k in vars(state) if not k.startswith("_")]


def _play_actions(state: State, actions: Any, chance: Chance, made: list[str],
                  path: str) -> None:  # fmt: skip
    if not isinstance(actions, list):
        raise ScenarioError("expected a list of actions", file=path, key="actions")
    for written in actions:
        if state.over():
            raise Refused(f"the game is over before {written!r}")
        legal = {state.describe(a): a for a in state.actions()}
        if str(written) not in legal:
            raise Refused(f"{written!r} is not a legal action here (legal: "
                          f"{', '.join(legal)})")  # fmt: skip
        _apply(state, legal[str(written)], chance, made)


def _play_strategies(game, players, rules, state, specs, chance, seed, steps, made, path):
    if not isinstance(specs, list) or len(specs) != len(state.scores()):
        raise ScenarioError("expected one strategy per seat", file=path, key="strategies")
    seats = []
    for seat, entry in enumerate(specs):
        spec = _spec(entry)
        player, _ = players.resolve(spec, source=path)
        seats.append((player.make(game, rules, seat), Chance(seed, 1 + seat)))
    while not state.over() and len(made) < steps:
        actions = state.actions()
        strategy, own = seats[state.to_move]
        action = strategy.choose(state, actions, own) if len(actions) > 1 else actions[0]
        _apply(state, action, chance, made)


def _spec(entry: Any) -> StrategySpec:
    if isinstance(entry, dict) and "name" in entry:
        return StrategySpec(str(entry["name"]),
                            tuple((k, v) for k, v in entry.items() if k != "name"))  # fmt: skip
    return StrategySpec(str(entry))


def _apply(state: State, action: Any, chance: Chance, made: list[str]) -> None:
    said = state.describe(action)
    twin = state.copy()
    try:
        state.apply(action, chance)
    except (RanOut, ValueError):
        _restore(state, twin)  # the position before the action that needed more chance
        raise
    except Exception as err:  # noqa: BLE001 - the rules refusing an action
        raise Refused(f"{said!r} was refused: {err}") from None
    made.append(said)


def _restore(state: State, twin: State) -> None:
    if hasattr(state, "__dict__"):  # a state of slots keeps what the action changed
        vars(state).update(vars(twin))


def _result(state: State, made: list[str]) -> dict[str, Any]:
    over = state.over()
    return {
        "actions": made,
        "scores": [_plain(s) for s in state.scores()],
        "winners": [seat + 1 for seat in state.winners()] if over else [],
        "to_move": None if over else state.to_move + 1,
        "over": over,
        "legal": [] if over else [state.describe(a) for a in state.actions()],
        "position": {key: _plain(getattr(state, key)) for key in _fields(state)},
    }


def _plain(value: Any) -> Any:
    """A value as YAML writes and reads it: tuples as lists, whole floats as ints."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _fields_diff(want: Any, have: Any) -> list[str]:
    if not isinstance(want, dict):
        return [f"  position: expected a mapping of fields, got {want!r}"]
    lines = []
    for key, value in want.items():
        got = (have or {}).get(key, "(no such field)")
        if _plain(value) != got:
            lines.append(f"  position.{key}: expected {value!r}, got {got!r}")
    return lines
