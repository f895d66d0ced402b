"""Golden files of every game: trace hashes of whole games (a hash of the state after every
turn, from the plug-in's `simulate_chunk(..., trace=True)`), readable playthroughs (`sim play`'s
text), the first turn in which a game differs from its recording, and the check that the
compiled code plays the same games as its plain-Python execution (NUMBA_DISABLE_JIT=1).

What each game records is data, `GOLDENS` below; tests/test_games.py checks every game's
files. Re-write a game's files only when a change of behaviour is intended (and bump the
plug-in's `version`): `python -m tests.goldens GAME` (`--add`: record only what is missing,
a new strategy's games, and leave the rest as recorded).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from sim.plugins import get_game
from sim.plugins.base import StrategySpec, watch

ROOT = Path(__file__).resolve().parents[1]


def folder(package: str) -> Path:
    """Where a game's golden files live: tests/golden/<package>/."""
    return ROOT / "tests" / "golden" / package


@dataclass(frozen=True)
class Table:
    """A ruleset (a preset and rule overrides) and a number of players."""

    preset: str
    players: int
    rules: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class Golden:
    """What a game's golden files record: `case(key)` is the table and the strategy (in every
    seat) of a recorded trace, `keys()` every key recorded, `playthroughs()` each playthrough
    file's table and lineup (seed 0), `turn` how a playthrough starts a turn; `probe` a table
    and lineup played compiled and as plain Python. `header` is written into traces.json."""

    game: str
    package: str
    seeds: range
    case: Callable[[str], tuple[Table, str]]
    keys: Callable[[], list[str]]
    playthroughs: Callable[[], dict[str, tuple[Table, list[str]]]]
    turn: str
    probe: tuple[tuple[Table, ...], tuple[str, ...], int]  # tables, lineup, games
    header: Mapping = field(default_factory=dict)

    @property
    def traces_file(self) -> Path:
        return folder(self.package) / "traces.json"

    def playthrough_file(self, stem: str) -> Path:
        return folder(self.package) / "playthroughs" / f"{stem}.txt"

    def ruleset(self, table: Table):
        return get_game(self.game).load_ruleset(table.preset, dict(table.rules))

    def traces(self, keys: list[str] | None = None) -> dict[str, dict[str, int]]:
        """{key: {seed: hash}} for `keys` (default: every key)."""
        out = {}
        for key in keys or self.keys():
            table, strategy = self.case(key)
            out[key] = trace_hashes(self.game, self.ruleset(table), table.players, strategy,
                                    self.seeds)  # fmt: skip
        return out

    def played(self, stem: str) -> str:
        """The playthrough `stem`, played now."""
        table, lineup = self.playthroughs()[stem]
        return playthrough(self.game, self.ruleset(table), lineup, seed=0)

    def write(self, *, add: bool = False) -> None:
        """Record the traces and playthroughs (`add`: only those not recorded yet)."""
        doc = json.loads(self.traces_file.read_text()) if add else None
        if doc is None:
            doc = {"engine_version": get_game(self.game).version, **self.header,
                   "traces": self.traces()}  # fmt: skip
        else:
            missing = [key for key in self.keys() if key not in doc["traces"]]
            doc["traces"].update(self.traces(missing) if missing else {})
        self.traces_file.write_text(json.dumps(doc, indent=1) + "\n")
        for stem in self.playthroughs():
            path = self.playthrough_file(stem)
            path.parent.mkdir(exist_ok=True)
            if not (add and path.exists()):
                path.write_text(self.played(stem))


def _guardians() -> Golden:
    """Every preset x built-in strategy and ladder level: 12 four-player games; per preset x
    built-in, one two-player game of the strategy against itself."""
    from strategies.guardians.registry import BUILTIN

    game = get_game("guardians")

    def case(key: str) -> tuple[Table, str]:
        preset, name = key.split("/")
        return Table(preset, 4), name

    return Golden(
        game="guardians",
        package="guardians",
        seeds=range(12),
        case=case,
        keys=lambda: [f"{p}/{n}" for p in game.presets for n in game.strategy_names()],
        playthroughs=lambda: {
            f"{p}-{n}": (Table(p, 2), [n, n]) for p in game.presets for n in BUILTIN
        },  # fmt: skip
        turn="turn ",
        probe=(tuple(Table(p, 3) for p in game.presets), ("random", "greedy"), 4),
        header={"players": 4},
    )


# Space Invaders: one level-1 token each and six level-3 ones: from the first reinforcement on,
# every token added is level 3 (the heal and three-tries decisions,
# tests/games/space_invaders/test_strategy_powers)
LEVEL3_EARLY = {
    "tokens.per_level": [1, 0, 6],
    "tokens.start_active": 1,
    "tokens.start_active_2p": 1,
}
INVADERS_CASES = {  # name -> (players, rule overrides)
    "standard-2p": (2, {}),
    "elite-4p-child": (4, {"setup.level": "elite", "dexterity.skill": "child"}),
    "solo-3-hands": (1, {"setup.solo_hands": 3, "setup.level": "expert"}),
    "level3-2p": (2, LEVEL3_EARLY),
}


def _space_invaders() -> Golden:
    """Each ladder level on the cases above, 8 games each; per level, one two-player Standard
    game."""
    game = get_game("space-invaders")

    def case(key: str) -> tuple[Table, str]:
        name, strategy = key.split("/")
        players, rules = INVADERS_CASES[name]
        return Table("space-invaders", players, rules), strategy

    return Golden(
        game="space-invaders",
        package="space_invaders",
        seeds=range(8),
        case=case,
        keys=lambda: [f"{c}/{n}" for c in INVADERS_CASES for n in game.skills],
        playthroughs=lambda: {n: (Table("space-invaders", 2), [n, n]) for n in game.skills},
        turn="--- ",
        probe=((Table("space-invaders", 3, {"setup.level": "expert"}),), game.skills, 2),
    )


def _alien_raid() -> Golden:
    """Each ladder captain in every seat at 2 and 4 players, 6 games each; per captain, one
    three-captain game."""
    game = get_game("alien-raid")

    def case(key: str) -> tuple[Table, str]:
        name, players = key.split("/")
        return Table("alien-raid", int(players)), name

    return Golden(
        game="alien-raid",
        package="alien_raid",
        seeds=range(6),
        case=case,
        keys=lambda: [f"{n}/{players}" for n in game.skills for players in (2, 4)],
        playthroughs=lambda: {n: (Table("alien-raid", 3), [n] * 3) for n in game.skills},
        turn="== ",
        probe=((Table("alien-raid", 5),), game.skills, 2),
    )


GOLDENS: dict[str, Callable[[], Golden]] = {
    "guardians": _guardians,
    "space-invaders": _space_invaders,
    "alien-raid": _alien_raid,
}


def trace_hashes(game: str, ruleset, players: int, strategy: str, seeds) -> dict[str, int]:
    """{seed: trace hash} of the games of `seeds`, `strategy` in every seat."""
    plugin = get_game(game)
    seeds = np.array(list(seeds))
    seats = np.zeros((len(seeds), players), np.int64)
    chunk = plugin.simulate_chunk(ruleset, players, [StrategySpec(strategy)], seats, seeds,
                              trace=True)  # fmt: skip
    assert not chunk.errors, chunk.errors
    hashes = [int(h) for h in chunk.games["trace_hash"]]
    return dict(zip(map(str, seeds), hashes, strict=True))


def playthrough(game: str, ruleset, lineup: list[str], seed: int = 0) -> str:
    """One game told turn by turn, as `sim play` prints it."""
    return watch(get_game(game), ruleset, [StrategySpec(name) for name in lineup], seed).text


def check_traces(golden: Golden) -> None:
    """Every recorded trace of the game played again and unchanged; a bumped version of the
    game says to regenerate the file instead."""
    doc = json.loads(golden.traces_file.read_text())
    version = get_game(golden.game).version
    assert doc["engine_version"] == version, "the game's version was bumped: regenerate goldens"
    now = golden.traces(list(doc["traces"]))
    for key, recorded in doc["traces"].items():
        assert now.get(key) == recorded, f"{key}: games differ from the golden traces"


def check_playthrough(label: str, recorded: str, now: str, turn: str) -> None:
    """Fail with the first turn that differs when a game no longer plays as recorded."""
    if now != recorded:
        pytest.fail(f"{label}: the game differs from its golden playthrough\n"
                    + first_difference(recorded, now, turn))  # fmt: skip


def first_difference(recorded: str, now: str, turn: str) -> str:
    """The first block (a turn: a line starting with `turn`) that differs, as recorded and as
    played; `turn` is how the game's playthrough starts a turn ('turn ', '--- ')."""
    old, new = recorded.split(f"\n{turn}"), now.split(f"\n{turn}")
    for k, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            return f"recorded:\n{turn}{a}\nnow:\n{turn}{b}" if k else f"recorded:\n{a}\nnow:\n{b}"
    return f"the game is {len(new) - 1} turns long, recorded {len(old) - 1}"


def probe(code: str, *, disable_jit: bool) -> object:
    """Run `code` (it prints JSON last) in a new process, compiled or as plain Python; the
    JSON it printed."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable_jit else "0", PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


# the start of a probe: warnings off (the generators' uint64 arithmetic wraps on purpose)
PROBE_HEAD = """
import json, warnings, numpy as np
warnings.simplefilter("ignore")
np.seterr(all="ignore")
from sim.plugins import get_game
from sim.plugins.base import StrategySpec
"""


# a probe's head that records every function numba compiles in `compiled` (inside
# `event.install_listener("numba:compile", Compiles())`)
COMPILES_HEAD = (
    PROBE_HEAD
    + """
from numba.core import event
compiled = []
class Compiles(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev):
        pass
"""
)


def probe_code(golden: Golden) -> str:
    """A probe that plays the golden's probe tables (its lineup alternating seats, with
    trace hashes) and prints the hashes."""
    tables, lineup, games = golden.probe
    described = [(t.preset, dict(t.rules), t.players) for t in tables]
    return (
        PROBE_HEAD
        + f"""
game = get_game({golden.game!r})
lineup = [StrategySpec(name) for name in {list(lineup)!r}]
out = []
for preset, rules, players in {described!r}:
    seats = (np.arange(players)[None, :] + np.arange({games})[:, None]) % len(lineup)
    ch = game.simulate_chunk(game.load_ruleset(preset, rules), players, lineup, seats,
                         np.arange({games}), trace=True)
    out.append([int(h) for h in ch.games["trace_hash"]])
print(json.dumps(out))
"""
    )


if __name__ == "__main__":
    names = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(names) != 1 or names[0] not in GOLDENS:
        sys.exit(f"usage: python -m tests.goldens {{{','.join(GOLDENS)}}} [--add]")
    golden = GOLDENS[names[0]]()
    golden.write(add="--add" in sys.argv)
    print(f"wrote {golden.traces_file} and {golden.traces_file.parent / 'playthroughs'}/")
