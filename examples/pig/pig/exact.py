"""Exact first-player win probabilities, by value iteration (strategies/values.py), to hold the
simulated figures against: `python -m pig.exact [FIRST SECOND] [--ruleset R] [--set KEY=V]`.

Without strategies it prints the two pairs the published figures are about (Neller & Presser
2004): optimal against optimal, and hold at 20 against hold at 20.
"""

from __future__ import annotations

import argparse

from pig.plugin import GAME
from pig.policy import table_for
from pig.ruleset import Rules, load_ruleset
from pig.strategies.values import first_player_wins
from sim.errors import SimError
from sim.plugins.base import StrategySpec

PAPER_PAIRS = (("optimal", "optimal"), ("steady", "steady"))  # steady: hold at 20


def first_player_rate(ruleset, first: str, second: str) -> float:
    """The probability that `first`, moving first, beats `second` under `ruleset`."""
    rules = Rules.of(ruleset)
    players = GAME.ready([StrategySpec(first), StrategySpec(second)])
    tables = [table_for(player, rules) for player in players]
    return first_player_wins(rules, *tables)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pig.exact", description=__doc__)
    parser.add_argument("strategies", nargs="*", help="FIRST SECOND (default: the paper's pairs)")
    parser.add_argument("--ruleset", default="pig")
    parser.add_argument("--set", dest="overrides", action="append", default=[])
    args = parser.parse_args(argv)
    if len(args.strategies) not in (0, 2):
        parser.error("name two strategies, the first player's and the second's")
    pairs = [tuple(args.strategies)] if args.strategies else PAPER_PAIRS
    try:
        ruleset = load_ruleset(args.ruleset, args.overrides)
        for first, second in pairs:
            rate = first_player_rate(ruleset, first, second)
            print(f"{ruleset.name}: {first} (first) against {second}: "
                  f"the first player wins {rate:.6f}")  # fmt: skip
    except SimError as err:
        parser.exit(2, f"error: {err}\n")


if __name__ == "__main__":
    main()
