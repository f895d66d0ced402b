"""`sim play` for a plain-Python game: one game told turn by turn, every decision as the game
describes it (`State.describe`) and what came of it (`State.show`), the scores after each
turn, the end; as text and as a page to step through. The game of a seed is the game of that
seed in a run (the same loop, play.py)."""

from __future__ import annotations

from typing import Any

from sim.plain.game import Action, PlainGame, State
from sim.plain.play import Played, play
from sim.plain.players import Players, make_players
from sim.plugins.base import StrategySpec, Watch
from sim.watch_page import turns_page


def watch_game(game: PlainGame, players: Players, ruleset: Any, lineup: list[StrategySpec],
               seed: int) -> Watch:  # fmt: skip
    labels = [spec.label for spec in lineup]
    made = make_players(players, lineup)
    strategies = [player.make(game, ruleset, seat) for seat, player in enumerate(made)]
    frames: list[dict[str, Any]] = []
    turn: dict[str, Any] = {}

    def step(number: int, seat: int, action: Action, state: State) -> None:
        nonlocal turn
        if number == 0:  # the start
            return
        if not turn:
            title = f"turn {len(frames) + 1}: seat {seat + 1} ({labels[seat]})"
            turn = {"title": title, "lines": []}
        shown = _lines(state)
        said = f"{state.describe(action)}" + (f" -> {shown[0]}" if shown else "")
        turn["lines"] += [said, *shown[1:]]
        if state.to_move != seat or state.over():
            turn["scores"] = [_number(s) for s in state.scores()]
            frames.append(turn)
            turn = {}

    played = play(game, ruleset, strategies, seed, labels=labels, watch=step)
    if turn:  # cut by the cap inside a turn
        turn["scores"] = [_number(s) for s in played.state.scores()]
        frames.append(turn)
    names = [f"seat {k + 1}={label}" for k, label in enumerate(labels)]
    end = ending(played, labels)
    text = [f"players: {', '.join(names)}"]
    for frame in frames:
        text.append(frame["title"])
        text += [f"  {line}" for line in frame["lines"]]
        text.append("  scores " + " ".join(str(s) for s in frame["scores"]))
    text.append(end)
    return Watch(
        text="\n".join(text) + "\n", html=lambda title: turns_page(title, names, frames, end)
    )


def ending(played: Played, labels: list[str]) -> str:
    """How the game ended, in one line."""
    scores = " ".join(str(_number(s)) for s in played.scores)
    length = f"scores {scores} after {played.turns} turns"
    if not played.winners:
        return f"{played.outcome}: nobody won ({length})"
    who = " and ".join(f"seat {k + 1} ({labels[k]})" for k in played.winners)
    return f"{played.outcome}: {'winners' if len(played.winners) > 1 else 'winner'} {who}, {length}"


def _lines(state: State) -> list[str]:
    shown = state.show()
    return [line for line in str(shown).splitlines() if line.strip()] if shown else []


def _number(value: Any) -> int | float:
    return int(value) if float(value).is_integer() else round(float(value), 3)
