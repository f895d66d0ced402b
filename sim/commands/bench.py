"""What `sim bench` does, behind the thin command in sim/cli.py: measure a game (sim.bench),
print the table (or the JSON) and write the figures of a full run."""

from __future__ import annotations

import json
from pathlib import Path

import typer


def bench_command(*, quick: bool, as_json: bool, presets: str, strategies: str,
                  out: str | None, game: str | None, games: int | None = None) -> None:  # fmt: skip
    from sim.bench import run_bench, table
    from sim.plugins import game_for

    chosen = [p for p in presets.split(",") if p]
    plugin = game_for(game, chosen[0] if chosen else None, key="--presets")
    result = run_bench(plugin.name, quick=quick, presets=chosen, games=games,
                       strategies=[s for s in strategies.split(",") if s])  # fmt: skip
    out = out or f"bench/results-{plugin.name}.json"
    if as_json:
        typer.echo(json.dumps(result.as_dict(), indent=1))
        return
    typer.echo(table(result))
    if not quick:
        from sim.faults import keeping, writing

        with keeping(lambda: "the figures, printed above"), writing("the bench's figures", out):
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            Path(out).write_text(json.dumps(result.as_dict(), indent=1) + "\n")
        typer.echo(f"figures written to {out}")
