"""The coin race's plug-in object: what `sim` needs to play, watch, check and report the game.

`sim` finds it through the entry point in pyproject.toml (`sim.games: coin-race`).
"""

from __future__ import annotations

import html
from pathlib import Path

import numpy as np
import yaml

from coin_race import rules
from coin_race.strategies import SKILLS, STRATEGIES
from sim.config.fields import Field
from sim.config.words import did_you_mean
from sim.errors import ConfigError
from sim.plugins.base import QUALITY_SECTION, Chunk, Scenarios, StrategySpec, Watch
from sim.rulesets import RulesetFamily
from sim.watch_page import step_page

RULESETS = RulesetFamily(
    schema={
        "race.length": Field(
            "int", min=1, max=100, doc="squares to the finish", plain="the track's length"
        ),
        "race.dash_gain": Field(
            "int", min=0, max=10, doc="squares a lucky dash moves", plain="a dash's gain"
        ),
        "race.turn_cap": Field(
            "int", min=1, max=10_000, doc="safety net: outcome `cap`", plain="the turn cap"
        ),
    },
    presets=("race", "sprint"),
    folder=Path(__file__).resolve().parent / "rulesets",
)


class CoinRace:
    name = "coin-race"
    title = "Coin race"
    version = 1
    presets = RULESETS.presets
    player_counts = (2, 3, 4)
    outcomes = rules.OUTCOMES
    skills = SKILLS
    demo_lineup = "steady,bold"
    report_sections = QUALITY_SECTION  # the lab's "Is it a good game?" (docs/reports.md)

    def load_ruleset(self, name_or_path, overrides=(), *, source="--set"):
        return RULESETS.load(name_or_path, overrides, source=source)

    def strategy_names(self) -> tuple[str, ...]:
        return tuple(STRATEGIES)

    def check_strategy(self, spec: StrategySpec, *, source: str) -> StrategySpec:
        if spec.name not in STRATEGIES:
            raise ConfigError(
                f"unknown strategy {spec.name!r}",
                file=source,
                key="strategy",
                hint=did_you_mean(spec.name, list(STRATEGIES), otherwise="steady or bold"),
            )
        if spec.params:
            raise ConfigError(f"{spec.name} takes no parameters", file=source, key="strategy")
        return spec

    def simulate_chunk(self, ruleset, n_players, lineup, seat_lineup, seeds) -> Chunk:
        games, seats = {"outcome": [], "turns": []}, {k: [] for k in _SEAT_COLUMNS}
        for g, seed in enumerate(seeds):
            players = [lineup[j] for j in seat_lineup[g]]
            state = _play(ruleset, players, np.random.default_rng(int(seed)))
            games["outcome"].append(rules.outcome(state))
            games["turns"].append(state.turns)
            for k, spec in enumerate(players):
                won = state.winner == k
                seats["seat"].append(k)
                seats["strategy"].append(spec.label)
                seats["score"].append(state.positions[k])
                seats["win_share"].append(1.0 if won else 0.0)
                seats["dashes"].append(state.dashes[k])
        return Chunk(
            games={k: np.asarray(v) for k, v in games.items()},
            seats={k: np.asarray(v) for k, v in seats.items()},
        )

    def watch(self, ruleset, lineup, seed) -> Watch:
        state = _play(ruleset, lineup, np.random.default_rng(seed))
        names = [f"seat {k + 1}={s.label}" for k, s in enumerate(lineup)]
        end = f"winner: seat {state.winner + 1}" if state.winner is not None else "nobody finished"
        text = "\n".join([f"players: {', '.join(names)}", *state.log,
                          f"{rules.outcome(state)}; {end}"])  # fmt: skip
        return Watch(text=text + "\n", html=lambda title: step_page(
            title=title, style="", summary=html.escape(end), first="first move",
            body='<p id="move"></p>', draw=_DRAW, frames=state.log, names=names,
        ))  # fmt: skip

    def scenarios(self) -> Scenarios:
        return Scenarios(run_file=_run_scenario, check_file=_check_scenario)

    def report(self):
        from coin_race.report import REPORT

        return REPORT


_DRAW = """function show() {
  document.getElementById("names").textContent = names.join(", ");
  document.getElementById("where").textContent = `move ${i + 1} of ${frames.length}`;
  document.getElementById("move").textContent = frames[i];
}
"""
_SEAT_COLUMNS = ("seat", "strategy", "score", "win_share", "dashes")


def _play(ruleset, lineup, rng) -> rules.State:
    state = rules.new_game(len(lineup))
    while not rules.over(state, ruleset):
        seat = state.to_move
        rules.move(state, ruleset, STRATEGIES[lineup[seat].name](state, seat), rng)
    return state


class _Coins:
    """A scenario's coins, in the order they are flipped (heads: a draw below one half)."""

    def __init__(self, coins: list[str]) -> None:
        self.coins = list(coins)

    def random(self) -> float:
        return 0.0 if self.coins.pop(0) == "heads" else 0.9


def _run_scenario(path: str) -> str:
    data = yaml.safe_load(Path(path).read_text())
    ruleset = RULESETS.load(data.get("ruleset", "race"))
    state = rules.new_game(len(data["positions"]))
    state.positions = list(data["positions"])
    state.to_move = data.get("to_move", 0)
    for m in data.get("moves", []):
        rules.move(state, ruleset, m["choice"], _Coins(m["coins"]))
    winner = None if state.winner is None else state.winner + 1
    return yaml.safe_dump({"positions": state.positions, "winner": winner}, sort_keys=False)


def _check_scenario(path: str) -> str:
    got = yaml.safe_load(_run_scenario(path))
    want = yaml.safe_load(Path(path).read_text()).get("expect", {})
    return "\n".join(
        f"{k}: expected {v}, got {got.get(k)}" for k, v in want.items() if got.get(k) != v
    )


GAME = CoinRace()
