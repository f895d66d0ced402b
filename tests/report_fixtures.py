"""Synthetic results folders for the report tests: Parquet parts and a manifest shaped like the
runner's (sim/storage layout), with known effects planted so the report must find them.

Games are drawn from uniforms indexed by the game number only, so game i looks alike in every
arm (common random numbers, as the runner's shared seeds give): paired comparisons work.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from sim.storage import encode, part_path, write_atomic, write_manifest

SEAT_STATS = (
    "level",
    "steals_made",
    "steals_suffered",
    "missiles_bought",
    "missiles_fired",
    "missile_points",
    "upgrades_bought",
    "power_ups_bought",
    "power_ups_used",
    "points_paid",
    "losses",
    "reentries",
    "mine_explosions",
    "shots",
    "hits",
    "turns_played",
)


@dataclass
class ArmSpec:
    name: str
    players: int = 4
    ruleset: str = "guardians"
    pool: tuple[str, ...] = ("greedy", "greedy", "greedy", "greedy")
    params: dict[str, Any] = field(default_factory=dict)
    raid: float = 0.3  # chance the invaders win
    turns: float = 60.0  # mean game length in turns
    seat_weight: tuple[float, ...] = ()  # relative chance each seat wins (default equal)
    strategy_weight: dict[str, float] = field(default_factory=dict)
    score_shift: dict[str, float] = field(default_factory=dict)
    # (strategy, stats dict of arrays per seat-game) -> extra per-seat columns
    stats: Callable[[str, np.ndarray], dict[str, np.ndarray]] | None = None
    overrides: list[list[Any]] = field(default_factory=list)
    ruleset_yaml: str = ""
    skill: str = ""  # the skill level (experiments with `skills:`); adds a `skill` column
    base_arm: str = ""


def _lineup(pool: tuple[str, ...], players: int, games: np.ndarray) -> np.ndarray:
    """Cyclic rotation: game g seats pool[(g + k) % len(pool)] in seat k."""
    m = len(pool)
    idx = (games[:, None] + np.arange(players)[None, :]) % m
    return np.array(pool, dtype=object)[idx]


def play(spec: ArmSpec, games: int, seed: int) -> tuple[dict, dict]:
    g = np.arange(games, dtype=np.int64)
    rng = np.random.default_rng(seed)
    u = rng.random((games, 8))  # shared across arms: the same game looks alike everywhere
    noise = rng.random((games, 4, 6))
    P = spec.players
    strat = _lineup(spec.pool, P, g)
    raid = u[:, 0] < spec.raid
    outcome = np.where(raid, "raid", np.where(u[:, 1] < 0.7, "victory", "stall")).astype(object)
    turns = np.maximum(5, np.round(spec.turns * (0.6 + 0.8 * u[:, 2]))).astype(np.int64)
    w = np.ones((games, P))
    if spec.seat_weight:
        w *= np.array(spec.seat_weight)[None, :P]
    for name, weight in spec.strategy_weight.items():
        w = np.where(strat == name, w * weight, w)
    cdf = np.cumsum(w, axis=1) / w.sum(axis=1, keepdims=True)
    winner = np.minimum((u[:, 3:4] > cdf).sum(axis=1), P - 1)
    tie = (u[:, 4] < 0.03) & ~raid
    second = (winner + 1) % P
    share = np.zeros((games, P))
    share[g, winner] = np.where(tie, 0.5, 1.0)
    share[g[tie], second[tie]] = 0.5
    share[raid] = 0.0
    base_score = 20 + 60 * noise[:, :P, 0]
    for name, shift in spec.score_shift.items():
        base_score = np.where(strat == name, base_score + shift, base_score)
    score = np.round(base_score + 25 * share).astype(np.int64)
    games_cols = {
        "arm": np.full(games, spec.name, dtype=object),
        "game": g,
        "seed": (g * 7919 + 13).astype(np.uint64),
        "players": np.full(games, P),
        "ruleset": np.full(games, spec.ruleset, dtype=object),
        **{
            k: np.full(games, v, dtype=object if isinstance(v, str) else None)
            for k, v in spec.params.items()
        },
        **({"skill": np.full(games, spec.skill, dtype=object)} if spec.skill else {}),
        "outcome": outcome,
        "turns": turns,
        "rounds": (turns + P - 1) // P,
        "descents": (turns // 5).astype(np.int64),
        "reinforced": np.zeros(games, np.int64),
        "winners_mask": np.zeros(games, np.int64),
        "pile_left": np.zeros(games, np.int64),
        "invaders_left": np.zeros(games, np.int64),
        "error": np.zeros(games, np.int64),
        "error_seat": np.zeros(games, np.int64),
    }
    n = games * P
    flat_strat = strat.reshape(-1)
    seats_cols: dict[str, Any] = {
        "arm": np.full(n, spec.name, dtype=object),
        "game": np.repeat(g, P),
        "seat": np.tile(np.arange(P), games),
        "players": np.full(n, P),
        "ruleset": np.full(n, spec.ruleset, dtype=object),
        **{
            k: np.full(n, v, dtype=object if isinstance(v, str) else None)
            for k, v in spec.params.items()
        },
        **({"skill": np.full(n, spec.skill, dtype=object)} if spec.skill else {}),
        "strategy": flat_strat,
        "score": score.reshape(-1),
        "win_share": share.reshape(-1),
        "status": np.full(n, "active", dtype=object),
    }
    for col in SEAT_STATS:
        seats_cols[col] = np.zeros(n, np.int64)
    if spec.stats is not None:
        r = noise[:, :P, 1:].reshape(n, -1)
        for name in set(flat_strat):
            mask = flat_strat == name
            for col, values in spec.stats(name, r[mask]).items():
                seats_cols[col][mask] = values
    for k in range(1, 6):
        seats_cols[f"reserve_{k}"] = np.zeros(n, np.int64)
        seats_cols[f"taken_{k}"] = np.zeros(n, np.int64)
    seats_cols["reserve_ship"] = np.zeros(n, np.int64)
    seats_cols["taken_ship"] = np.zeros(n, np.int64)
    return games_cols, seats_cols


def write_results(
    root: Path,
    name: str,
    arms: list[ArmSpec],
    *,
    games: int = 2000,
    report: tuple[str, ...] = (),
    baseline: str | None = None,
    seed: int = 7,
    chunk: int = 1000,
    param_columns: list[list[str]] | None = None,
) -> Path:
    """Write a results folder like `sim run` does (games/arm-XXX/part-*.parquet, manifest)."""
    root = Path(root)
    for index, spec in enumerate(arms):
        games_cols, seats_cols = play(spec, games, seed)
        for start in range(0, games, chunk):
            stop = min(start + chunk, games)
            sl = slice(start, stop)
            seat_sl = slice(start * spec.players, stop * spec.players)
            write_atomic(
                part_path(root, "games", index, start, stop),
                encode({k: v[sl] for k, v in games_cols.items()}),
                what="a planted part",
            )
            write_atomic(
                part_path(root, "seats", index, start, stop),
                encode({k: v[seat_sl] for k, v in seats_cols.items()}),
                what="a planted part",
            )
    if param_columns is None:
        keys = list(dict.fromkeys(k for a in arms for k in a.params))
        param_columns = [
            [k, "int" if all(isinstance(a.params.get(k), int) for a in arms) else "str"]
            for k in keys
        ]
    manifest = {
        "format": 1,
        "name": name,
        "status": "complete",
        "fingerprint": "synthetic",
        "experiment_file": f"experiments/{name}.yaml",
        "game": "guardians",
        "games_per_arm": games,
        "baseline": baseline,
        "report": list(report),
        "param_columns": param_columns,
        "seed": {"root": seed},
        "arms": [
            {
                "index": i,
                "name": a.name,
                "dir": f"arm-{i:03d}",
                "players": a.players,
                "ruleset": a.ruleset,
                "ruleset_ref": a.ruleset,
                "overrides": a.overrides,
                "ruleset_yaml": a.ruleset_yaml,
                "pool": list(a.pool),
                "rotate": "cyclic",
                "lineup": list(dict.fromkeys(a.pool)),
                "params": a.params,
                "games": games,
                "target": games,
                **({"skill": a.skill, "base_arm": a.base_arm} if a.skill else {}),
            }
            for i, a in enumerate(arms)
        ],
    }
    write_manifest(root, manifest)
    return root


# --- the five experiments, synthetic ---------------------------------------------------------


def first_player(root: Path, games: int = 3000) -> Path:
    arms = []
    for preset in ("guardians", "guardians-advanced"):
        for p in (2, 3, 4):
            weights = (1.6,) + (1.0,) * (p - 1) if preset == "guardians" else ()
            arms.append(
                ArmSpec(
                    f"players={p}, ruleset={preset}",
                    players=p,
                    ruleset=preset,
                    pool=("greedy", "cautious", "economist", "miner"),
                    seat_weight=weights,
                    raid=0.25 + 0.05 * p,
                )
            )
    return write_results(
        root, "first_player", arms, games=games, report=("first_player",), param_columns=[]
    )


def _miner_stats(name: str, r: np.ndarray) -> dict[str, np.ndarray]:
    if name != "miner":
        return {}
    return {"mine_explosions": (r[:, 0] * 3).astype(np.int64)}


def mine_value(root: Path, games: int = 3000) -> Path:
    arms = [
        ArmSpec(
            "mine", params={"mine.enabled": True, "seats": "greedy,greedy,greedy,greedy"}, raid=0.30
        ),
        ArmSpec(
            "no-mine",
            params={"mine.enabled": False, "seats": "greedy,greedy,greedy,greedy"},
            raid=0.36,
            turns=55,
        ),
        ArmSpec(
            "miner",
            pool=("miner", "greedy", "greedy", "greedy"),
            params={"mine.enabled": True, "seats": "miner,greedy,greedy,greedy"},
            raid=0.27,
            strategy_weight={"miner": 1.5},
            score_shift={"miner": 6},
            stats=_miner_stats,
        ),
    ]
    return write_results(
        root, "mine_value", arms, games=games, report=("mine_value",), baseline="mine"
    )


def _buyer(item: str, price: int) -> Callable[[str, np.ndarray], dict[str, np.ndarray]]:
    def stats(name: str, r: np.ndarray) -> dict[str, np.ndarray]:
        if name != "economist":
            return {}
        buys = r[:, 0] < max(0.1, 1.0 - price / 25)
        out: dict[str, np.ndarray] = {}
        if item == "missile":
            fired = buys & (r[:, 1] < 0.9)
            out["missiles_bought"] = buys.astype(np.int64)
            out["missiles_fired"] = fired.astype(np.int64)
            out["missile_points"] = np.where(fired, np.round(6 + 8 * r[:, 2]), 0).astype(np.int64)
        elif item == "upgrade":
            out["upgrades_bought"] = (buys * (1 + (r[:, 1] < 0.5))).astype(np.int64)
        else:
            out["power_ups_bought"] = buys.astype(np.int64)
            out["power_ups_used"] = (buys & (r[:, 1] < 0.8)).astype(np.int64)
        bought = next(v for k, v in out.items() if k.endswith("_bought"))
        out["points_paid"] = bought * price
        return out

    return stats


def _pricing_arms(
    item: str, prices: tuple[int, ...], break_even: float, raid: float, slope: float = 0.08
) -> list[ArmSpec]:
    key = {"missile": "missile.cost", "upgrade": "upgrade.cost", "power_up": "power_up.cost"}[item]
    arms = []
    for price in prices:
        boost = max(0.2, 1.0 + slope * (break_even - price))  # the uplift crosses 0 at break_even
        arms.append(
            ArmSpec(
                f"{key}={price}",
                pool=("economist", "cautious", "cautious", "cautious"),
                params={key: price},
                strategy_weight={"economist": boost},
                stats=_buyer(item, price),
                overrides=[[key, price]],
                ruleset="guardians-advanced" if item != "missile" else "guardians",
                raid=raid,
            )
        )
    return arms


def pricing(
    root: Path,
    item: str = "missile",
    games: int = 3000,
    prices: tuple[int, ...] = (4, 7, 10, 13, 16),
    *,
    break_even: float = 10,
    raid: float = 0.3,
) -> Path:
    arms = _pricing_arms(item, prices, break_even, raid)
    return write_results(root, f"{item}_cost", arms, games=games, report=(f"{item}_pricing",))


def at_levels(arms_of: Callable[[str], list[ArmSpec]], levels: tuple[str, ...]) -> list[ArmSpec]:
    """Every arm repeated at each skill level, as an experiment with `skills:` stores it."""
    return [
        replace(spec, name=f"{spec.name}@{level}", skill=level, base_arm=spec.name)
        for level in levels
        for spec in arms_of(level)
    ]


def pricing_by_skill(
    root: Path,
    break_even: dict[str, float],
    games: int = 2000,
    raid: float = 0.3,
    slope: float = 0.08,
) -> Path:
    """The missile price sweep at several skill levels, break-even planted per level; `slope`:
    how fast the buyer's advantage falls with the price (steeper: a sharper break-even)."""
    prices = (4, 7, 10, 13, 16)
    arms = at_levels(lambda lv: _pricing_arms("missile", prices, break_even[lv], raid, slope),
                     tuple(break_even))  # fmt: skip
    return write_results(root, "missile_cost", arms, games=games, report=("missile_pricing",))


def what_if_by_skill(root: Path, raid_change: dict[str, float], games: int = 2000) -> Path:
    """The what-if at several skill levels: steal-highest changes the raid rate per level."""

    def arms(level: str) -> list[ArmSpec]:
        return [
            ArmSpec("baseline", params={"shot.steal": "lowest"}),
            ArmSpec("steal-highest", params={"shot.steal": "highest"},
                    raid=0.3 + raid_change[level]),
        ]  # fmt: skip

    return write_results(
        root, "what_if", at_levels(arms, tuple(raid_change)), games=games,
        report=("what_if",), baseline="baseline",
    )  # fmt: skip


def difficulty(root: Path, games: int = 800) -> Path:
    arms = []
    skill_base = {"novice": 0.35, "casual": 0.2, "expert": 0.08}
    for p in (2, 3, 4):
        for skill, base in skill_base.items():
            for rows in (3, 4, 5):
                raid = min(0.95, base + 0.03 * p + 0.12 * (rows - 3))
                arms.append(
                    ArmSpec(
                        f"players={p}, seats.all={skill}, board.start_rows={rows}",
                        players=p,
                        pool=(skill,),
                        params={"seats.all": skill, "board.start_rows": rows},
                        raid=raid,
                        turns=40 + 8 * rows,
                        overrides=[["board.start_rows", rows]],
                    )
                )
    return write_results(root, "difficulty", arms, games=games, report=("difficulty",))


def what_if(root: Path, games: int = 3000) -> Path:
    arms = [
        ArmSpec("baseline", params={"shot.steal": "lowest", "mine.step": 1}),
        ArmSpec(
            "steal-highest", params={"shot.steal": "highest", "mine.step": 1}, raid=0.36, turns=66
        ),
        ArmSpec("mine-two-cells", params={"shot.steal": "lowest", "mine.step": 2}),
    ]
    return write_results(
        root, "what_if", arms, games=games, report=("what_if",), baseline="baseline"
    )


# --- reading a built page ------------------------------------------------------------------------


def answer_rows(report: Path) -> dict[str, list[list[str]]]:
    """question key -> the cells of each row of its small table (where, [measure,] value,
    interval[, verdict]) from a page's Answers block."""
    page = (Path(report) / "index.html").read_text()
    block = page.split('<section id="answers">', 1)[1].split("</section>", 1)[0]
    out = {}
    for key, body in re.findall(r'<div class="qa" data-question="([^"]+)">(.*?)</div>', block):
        table = re.search(r'<table class="answer-rows">.*?<tbody>(.*?)</tbody>', body)
        rows = re.findall(r"<tr>(.*?)</tr>", table[1]) if table else []
        out[key] = [[html.unescape(re.sub(r"<[^>]+>", "", c))
                     for c in re.findall(r"<td[^>]*>(.*?)</td>", r)] for r in rows]  # fmt: skip
    return out


def answers(report: Path) -> dict[str, tuple[str, str, str]]:
    """question key -> (kind, answer text, quality text) from a page's Answers block."""
    page = (Path(report) / "index.html").read_text()
    block = page.split('<section id="answers">', 1)[1].split("</section>", 1)[0]
    out = {}
    for key, body in re.findall(r'<div class="qa" data-question="([^"]+)">(.*?)</div>', block):
        kind, text = re.search(r'<p class="answer (\w+)">(.*?)</p>', body).groups()
        quality = re.search(r'<p class="quality[^"]*">(.*?)</p>', body)
        plain = [
            html.unescape(re.sub(r"<[^>]+>", "", t)) for t in (text, quality[1] if quality else "")
        ]
        out[key] = (kind, *plain)
    return out
