"""A lineup as a compiled game loop takes it: the loop calls each seat's policy through a
function pointer, so it needs the lineup's distinct policies once each and, per lineup entry,
which of them and with what parameters. Written once for every game with such a loop."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sim.compiling import Unit
from sim.plugins.base import Player


class PolicyTable:
    """`policies`: the distinct compiled policies of a lineup's ready players (the framework
    resolved them: sim.plugins.base.PackageParts.ready), in first-seen order; `which[j]`: player
    j's policy; `params[j]`: its parameters, zero-padded to the widest. A player whose
    strategy is not `compiled` (a plain-Python one) gets its parameters but no policy."""

    def __init__(self, players: Sequence[Player]) -> None:
        self.players = list(players)
        width = max((len(p.params) for p in self.players), default=1)
        self.params = np.zeros((len(self.players), width), np.float64)
        self.which = np.zeros(len(self.players), np.int64)
        self.strategies: list = []  # the first strategy of each distinct policy
        for j, player in enumerate(self.players):
            strategy = player.strategy
            self.params[j, : len(player.params)] = player.params
            if not strategy.compiled:
                continue
            if strategy.policy not in self.policies:
                self.strategies.append(strategy)
            self.which[j] = self.policies.index(strategy.policy)

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
        as given). A policy that builds on others of the lineup (`strategy.builds_on`: it
        calls their compiled code) names their units first: it compiles after them and loads
        what they compiled, where it would compile it again alongside them."""
        units = {s.policy_source: Unit(*s.policy_source, signature) for s in self.strategies}
        builds_on = {s.policy_source: s.builds_on for s in self.strategies}

        def after(source: tuple[str, str]) -> list[Unit]:
            bases = [base for base in builds_on[source] if base in units]
            return [*(unit for base in bases for unit in after(base)), units[source]]

        return [list(dict.fromkeys(after(source))) for source in units]
