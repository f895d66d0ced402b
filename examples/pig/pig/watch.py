"""Watch one game of Pig (`sim play --game pig`): every turn's rolls and what they did, as text
or as a page to step through. The game of a seed is the game of that seed in a run."""

from __future__ import annotations

from pig import rules as R
from pig.dice import Dice
from pig.game import play_turn
from pig.policy import table_for
from pig.ruleset import Rules
from sim.plugins.base import Player, Watch
from sim.watch_page import turns_page


def watch_game(ruleset, players: list[Player], seed: int) -> Watch:
    rules = Rules.of(ruleset)
    tables = [table_for(player, rules) for player in players]
    names = [f"seat {k + 1}={player.label}" for k, player in enumerate(players)]
    state, dice, frames = R.new_game(rules, log=True), Dice(seed), []
    while not R.over(state, rules):
        seat, seen = state.to_move, len(state.log)
        play_turn(state, rules, tables[seat], dice)
        frames.append({"title": f"turn {state.turns}: seat {seat + 1} ({players[seat].label})",
                       "lines": state.log[seen:], "scores": list(state.scores)})  # fmt: skip
    end = _ending(state, players)
    text = [f"players: {', '.join(names)}", f"goal {rules.goal}, seat 2 starts with "
            f"{rules.head_start}"]  # fmt: skip
    for frame in frames:
        text.append(frame["title"])
        text += [f"  {line}" for line in frame["lines"]]
        text.append(f"  scores {frame['scores'][0]}-{frame['scores'][1]}")
    text.append(end)
    return Watch(
        text="\n".join(text) + "\n", html=lambda title: turns_page(title, names, frames, end)
    )


def _ending(state: R.State, players: list[Player]) -> str:
    score = f"{state.scores[0]}-{state.scores[1]} after {state.turns} turns"
    if state.winner is None:
        return f"{R.outcome(state)}: nobody won ({score})"
    return f"winner: seat {state.winner + 1} ({players[state.winner].label}), {score}"
