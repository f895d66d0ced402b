"""A lineup as a compiled game loop takes it: the loop calls each seat's policy through a
function pointer, so it needs the lineup's distinct policies once each and, per lineup entry,
which of them and with what parameters. Written once for every game with such a loop."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sim.compiling import Unit
from sim.games.base import StrategySpec


class PolicyTable:
    """`policies`: the distinct compiled policies of a lineup, in first-seen order; `which[j]`:
    lineup entry j's policy; `params[j]`: its parameters, zero-padded to the widest. A game
    gives `resolve` (a spec -> (strategy, parameter vector)); an entry whose strategy is not
    `compiled` (a plain-Python one) gets its parameters but no policy."""

    def __init__(self, lineup: Sequence[StrategySpec]) -> None:
        self.lineup = list(lineup)
        self.resolved = [self.resolve(spec) for spec in self.lineup]
        width = max((len(vector) for _, vector in self.resolved), default=1)
        self.params = np.zeros((len(self.lineup), width), np.float64)
        self.which = np.zeros(len(self.lineup), np.int64)
        self.strategies: list = []  # the first strategy of each distinct policy
        for j, (strategy, vector) in enumerate(self.resolved):
            self.params[j, : len(vector)] = vector
            if not strategy.compiled:
                continue
            if strategy.policy not in self.policies:
                self.strategies.append(strategy)
            self.which[j] = self.policies.index(strategy.policy)

    @staticmethod
    def resolve(spec: StrategySpec) -> tuple[Any, np.ndarray]:
        raise NotImplementedError("a game's PolicyTable gives resolve(spec)")

    @property
    def policies(self) -> tuple:
        return tuple(strategy.policy for strategy in self.strategies)

    def padded(self, slots: int) -> tuple:
        """The policies padded to a loop compiled for `slots` of them (the padding is never
        called: no entry's `which` points at it)."""
        return self.policies + (self.policies[0],) * (slots - len(self.policies))

    def policy_jobs(self, signature: Any) -> list[list[Unit]]:
        """Each policy as a `sim.compiling` job of its own, compiled for `signature`: the
        whole signature, return type included, when the loop calls through a pointer (that
        call asks the cache for exactly that key, and numba keys cached code by the signature
        as given)."""
        return [[Unit(*strategy.policy_source, signature)] for strategy in self.strategies]
