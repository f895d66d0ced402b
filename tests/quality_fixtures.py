"""Planted results folders for the quality section: games whose skill, luck and trajectories are
known because they are made so, written like `sim run` writes them (Guardians' columns).

Each arm is a function game index -> the game: who sits where, who wins, every seat's score at
the fractions of the game and at its end. Game i is drawn from a generator seeded by i alone,
so a deal looks alike in every arm (common random numbers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sim.storage import encode, part_path, write_atomic, write_manifest

FRACTIONS = ("score_third", "score_half", "score_two_thirds", "score_before_last_round")


@dataclass
class Game:
    seats: list[str]
    winner: int | None  # the winning seat; None: nobody won (a raid)
    scores: np.ndarray  # [seat, point]: third, half, two thirds, before the last round, end


@dataclass
class Arm:
    name: str
    play: Callable[[int, np.random.Generator], Game]
    pool: list[str] = field(default_factory=list)
    tables: list[list[int]] | None = None  # None: one seating of the pool, no rotation
    rules: dict[str, Any] = field(default_factory=dict)  # rule keys the arm changes (a what-if)


def write(root: Path, name: str, arms: list[Arm], *, games: int, baseline: str | None = None,
          report: tuple[str, ...] = ("quality",), tolerances: dict | None = None
          ) -> Path:  # fmt: skip
    root = Path(root)
    entries = []
    for index, arm in enumerate(arms):
        rows = [arm.play(g, np.random.default_rng([7, g])) for g in range(games)]
        players = len(rows[0].seats)
        for table, data in (("games", _games(arm, rows)), ("seats", _seats(arm, rows))):
            write_atomic(part_path(root, table, index, 0, games), encode(data), what="a part")
        lineup = list(dict.fromkeys(arm.pool))
        tables = arm.tables or [[lineup.index(s) for s in arm.pool[:players]]]
        entries.append({
            "index": index, "name": arm.name, "dir": f"arm-{index:03d}", "players": players,
            "ruleset": "guardians", "ruleset_ref": "guardians", "overrides": sorted(arm.rules),
            "ruleset_values": arm.rules,
            "pool": arm.pool, "rotate": "none" if arm.tables is None else "cyclic",
            "lineup": lineup, "tables": tables, "params": {}, "games": games,
            "target": games,
        })  # fmt: skip
    write_manifest(root, {
        "format": 1, "name": name, "status": "complete", "fingerprint": "planted",
        "game": "guardians", "games_per_arm": games, "baseline": baseline,
        "report": list(report), "param_columns": [], "seed": {"root": 7}, "arms": entries,
        "tolerances": tolerances or {},
    })  # fmt: skip
    return root


def _games(arm: Arm, rows: list[Game]) -> dict[str, Any]:
    n = len(rows)
    return {
        "arm": np.full(n, arm.name, dtype=object),
        "game": np.arange(n),
        "seed": np.arange(n, dtype=np.uint64),
        "players": np.array([len(r.seats) for r in rows]),
        "ruleset": np.full(n, "guardians", dtype=object),
        "outcome": np.array(["raid" if r.winner is None else "victory" for r in rows], object),
        "turns": np.array([40 + int(r.scores[:, -1].sum()) % 20 for r in rows]),
        "rounds": np.array([10 + int(r.scores[:, -1].sum()) % 5 for r in rows]),
        "lead_changes": np.array([int(r.scores[0, -1]) % 4 for r in rows]),
        "error": np.zeros(n, np.int64),
        "error_seat": np.zeros(n, np.int64),
    }


def _seats(arm: Arm, rows: list[Game]) -> dict[str, Any]:
    names = ("arm", "game", "seat", "players", "ruleset", "strategy", "score", "win_share",
             "status", *FRACTIONS, "no_choice_turns", "turns_played")  # fmt: skip
    out: dict[str, list] = {k: [] for k in names}
    for g, r in enumerate(rows):
        for k, label in enumerate(r.seats):
            out["arm"].append(arm.name)
            out["game"].append(g)
            out["seat"].append(k)
            out["players"].append(len(r.seats))
            out["ruleset"].append("guardians")
            out["strategy"].append(label)
            out["score"].append(int(r.scores[k, -1]))
            out["win_share"].append(1.0 if r.winner == k else 0.0)
            out["status"].append("active")
            for i, col in enumerate(FRACTIONS):
                out[col].append(int(r.scores[k, i]))
            out["no_choice_turns"].append(1 if k == 0 else 0)
            out["turns_played"].append(10)
    return {k: np.array(v, dtype=object if isinstance(v[0], str) else None) for k, v in out.items()}


# --- games -------------------------------------------------------------------------------


def rising(rng: np.random.Generator, order: list[int]) -> np.ndarray:
    """Scores that rise over the game with the seats ranked `order` (best first) at every point
    from a third on; distinct, so there is always a single leader and a single last."""
    p = len(order)
    rank = np.empty(p)
    rank[order] = np.arange(p)[::-1]  # the best gets the highest
    base = (rank + 1) * 10 + rng.integers(0, 5, p) * 0.1
    return np.round(np.outer(base, [1, 2, 3, 3.5, 4]) + rng.integers(0, 3, (p, 5)) * 0)


def coin_flip(labels: Callable[[int], list[str]], raid: float = 0.2):
    """Pure luck: the winner is a uniformly random seat, whoever sits there; scores follow it."""

    def play(g: int, rng: np.random.Generator) -> Game:
        seats = labels(g)
        p = len(seats)
        winner = None if rng.random() < raid else int(rng.integers(0, p))
        order = list(rng.permutation(p))
        if winner is not None:
            order.remove(winner)
            order.insert(0, winner)
        return Game(seats, winner, rising(rng, order))

    return play


def ladder_labels(pool: list[str], players: int) -> Callable[[int], list[str]]:
    """Game g seats pool[(g + k) mod len(pool)] in seat k (a rotated pool)."""
    return lambda g: [pool[(g + k) % len(pool)] for k in range(players)]


def strongest_wins(labels: Callable[[int], list[str]], pool: list[str]):
    """Pure skill: the seat holding the strongest level at the table (latest in `pool`) wins."""

    def play(g: int, rng: np.random.Generator) -> Game:
        seats = labels(g)
        order = sorted(range(len(seats)), key=lambda k: -pool.index(seats[k]))
        return Game(seats, order[0], rising(rng, order))

    return play


def runaway(g: int, rng: np.random.Generator) -> Game:
    """The leader from a third on always wins (scores keep one order all game)."""
    order = list(rng.permutation(4))
    return Game(["club"] * 4, order[0], rising(rng, order))


def comeback_of(label: str):
    """The last at half time always wins: it trails until two thirds, then leads at the end
    of the game (it took the lead in the last round)."""

    def play(g: int, rng: np.random.Generator) -> Game:
        order = list(rng.permutation(4))
        scores = rising(rng, order)
        last = order[-1]
        scores[last, 4] = scores[:, 4].max() + 5  # the end: first
        return Game([label] * 4, last, scores)

    return play


# --- whole folders ---------------------------------------------------------------------------

POOL = ["novice", "casual", "club", "strong", "master"]
TABLES = [[(r + k) % 5 for k in range(4)] for r in range(5)]


def pure_luck(root: Path, games: int = 1500, tolerances: dict | None = None) -> Path:
    """A game of pure luck: a ladder whose winner is a coin flip, four arms replaying each deal
    with the seats rotated (every seat `random`, so each replay is the same game), an even
    table; `tolerances` as an experiment's key overrides the report's."""
    ladder = coin_flip(ladder_labels(POOL, 4))
    same_deal = coin_flip(lambda g: ["random"] * 4)
    arms = [Arm("ladder", ladder, POOL, TABLES),
            *(Arm(f"seat {r + 1}", same_deal, ["random"] * 4) for r in range(4)),
            Arm("even", same_deal, ["random"] * 4)]  # fmt: skip
    return write(root, "luck", arms, games=games, tolerances=tolerances)


def pure_skill(root: Path, games: int = 1000) -> Path:
    """A ladder the strongest player at the table always wins."""
    ladder = strongest_wins(ladder_labels(POOL, 4), POOL)
    return write(root, "skill", [Arm("ladder", ladder, POOL, TABLES)], games=games)
