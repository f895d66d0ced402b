"""Executable Pig scenarios (`sim scenario check`): a position, the moves or the players and
the dice, the expected result. The format (README.md, "Scenarios"):

    game: pig
    name: "A roll of the bust face loses the turn total and ends the turn"
    ruleset: pig                  # optional (default pig); rules: {key: value} overrides it
    scores: [30, 12]              # optional: banked points (default: a new game's)
    to_move: 1                    # optional: the seat to move, 1 or 2 (default 1)
    turn_total: 0                 # optional: a turn in progress
    moves: [roll 5, roll 6, roll 1]        # the moves, in order ...
    # players: [{name: hold, at: 20}, optimal]   # ... or players deciding, with
    # dice: [4, 6, 3]                            # the faces they roll, in order
    expect: {scores: [30, 12], to_move: 2, turn_total: 0, winner: null}

With `players`, each decision is the player's, and play stops at a decision to roll when the
dice have run out. The result lists every move made (`moves`), the scores, the seat to move,
the turn total, the winner (a seat, or null) and `error` for a move the rules refuse.
"""

from __future__ import annotations

from typing import Any

import yaml

from pig import rules as R
from pig.game import wants_roll
from pig.plugin import GAME
from pig.policy import table_for
from pig.ruleset import Rules, load_ruleset
from sim.config.fields import Field, coerce
from sim.plugins.base import Player, Scenarios, StrategySpec
from sim.scenarios import (
    ScenarioError,
    expectation_diff,
    read_expect,
    read_scenario,
    scenario_ruleset,
)

TOP_KEYS = ("name", "game", "source", "ruleset", "rules", "scores", "to_move", "turn_total",
            "moves", "players", "dice", "expect")  # fmt: skip
EXPECT_KEYS = ("moves", "scores", "to_move", "turn_total", "winner", "error")
_SEAT = Field("int", min=1, max=2)
_COUNT = Field("int", min=0)
_FACES = Field("int_list", min=1)


def scenarios() -> Scenarios:
    return Scenarios(run_file=run_file, check_file=check_file)


def run_file(path: str) -> str:
    return yaml.safe_dump(_run(path, read_scenario(path, TOP_KEYS)), sort_keys=False)


def check_file(path: str) -> str:
    data = read_scenario(path, TOP_KEYS)
    expect = read_expect(data, path, EXPECT_KEYS)
    return expectation_diff(expect, _run(path, data), refused="a move was refused")


def _run(path: str, data: dict[str, Any]) -> dict[str, Any]:
    rules = Rules.of(scenario_ruleset(data, path, load_ruleset, "pig"))
    state = R.new_game(rules)
    if "scores" in data:  # a position of play: nobody has banked the goal yet
        scores = Field("int_list", min=0, max=rules.goal - 1, length=2)
        state.scores = coerce(scores, data["scores"], file=path, key="scores")
    state.to_move = coerce(_SEAT, data.get("to_move", 1), file=path, key="to_move") - 1
    state.turn_total = coerce(_COUNT, data.get("turn_total", 0), file=path, key="turn_total")
    if ("moves" in data) == ("players" in data):
        raise ScenarioError("give either `moves` or `players` (with `dice`)", file=path,
                            key="moves")  # fmt: skip
    made: list[str] = []
    try:
        if "moves" in data:
            _play_moves(path, data["moves"], state, rules, made)
        else:
            _play_players(path, data, state, rules, made)
    except R.IllegalMove as refused:
        return {**_result(state, made), "error": str(refused)}
    return _result(state, made)


def _play_moves(path: str, moves: Any, state: R.State, rules: Rules, made: list[str]) -> None:
    if not isinstance(moves, list):
        raise ScenarioError("expected a list of moves", file=path, key="moves",
                            hint="For example [roll 4, roll 6, hold].")  # fmt: skip
    for n, move in enumerate(moves):
        word, _, face = str(move).partition(" ")
        if word == "hold" and not face:
            made.append("hold")
            R.hold(state, rules)
        elif word == "roll" and face.isdigit() and 1 <= int(face) <= rules.faces:
            made.append(f"roll {face}")
            R.roll(state, rules, int(face))
        else:
            hint = f"A move is `hold` or `roll N` (N in 1..{rules.faces})."
            raise ScenarioError(f"move {n + 1} is {move!r}", file=path, key="moves", hint=hint)


def _play_players(path: str, data: dict[str, Any], state: R.State, rules: Rules,
                  made: list[str]) -> None:  # fmt: skip
    players = data["players"]
    if not isinstance(players, list) or len(players) != 2:
        raise ScenarioError("expected two players", file=path, key="players",
                            hint="For example [{name: hold, at: 20}, optimal].")  # fmt: skip
    tables = [table_for(_player(path, p), rules) for p in players]
    dice = coerce(_FACES, data.get("dice", []), file=path, key="dice")
    if any(face > rules.faces for face in dice):
        raise ScenarioError(f"a face above {rules.faces}", file=path, key="dice")
    while not R.over(state, rules):
        if not wants_roll(state, rules, tables[state.to_move]):
            made.append("hold")
            R.hold(state, rules)
        elif dice:
            made.append(f"roll {dice[0]}")
            R.roll(state, rules, dice.pop(0))
        else:
            return  # the player would roll: the scenario's dice end here


def _player(path: str, entry: Any) -> Player:
    if isinstance(entry, dict) and "name" in entry:
        params = tuple((k, v) for k, v in entry.items() if k != "name")
        spec = StrategySpec(str(entry["name"]), params)
    else:
        spec = StrategySpec(str(entry))
    return Player(spec, *GAME.resolve(spec, source=path))  # a ConfigError naming the file


def _result(state: R.State, made: list[str]) -> dict[str, Any]:
    winner = None if state.winner is None else state.winner + 1
    return {"moves": made, "scores": list(state.scores), "to_move": state.to_move + 1,
            "turn_total": state.turn_total, "winner": winner}  # fmt: skip
