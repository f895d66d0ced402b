"""One seat's scripted turn in a Space Invaders scenario: the answers its token entries give
at each decision of the engine (docs/games/space_invaders/scenarios.md).

A turn is a list of token entries, in launch order; entry k answers for the turn's k-th
token: which token (`level`, `called`, `three_tries`) when the engine asks for the next one,
the level-2 re-launch (`relaunch`), each optional action the rules offer it (`planet_relaunch`,
`ufo_relaunch`, `heal`, `bonus_shot`: yes by default; a list answers each offer in turn) and
the resolution choices (`redirect`, `extra`, `wave`). `try:` lists decisions made before the
entry's own that the engine must refuse, each with the refusal it expects (`refused:`); the
turn then goes on. A turn that lists fewer tokens than the seat has active asks the engine to
end the turn early, which it refuses (`unlaunched`, line 192).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np

from sim.games.space_invaders import layout as L
from sim.games.space_invaders import position as P
from sim.games.space_invaders.engine import begin_turn, step
from sim.scenarios import ScenarioError


class Scenario(Protocol):
    """What a scripted turn reads of the scenario it plays (scenario.Scenario)."""

    path: str
    s: np.ndarray  # the state
    p: np.ndarray  # the params
    script: np.ndarray  # the scripted landings

    def cell(self, value: Any, where: str) -> int: ...


OPTION_KEYS = L.OPTION_NAMES[1:]  # planet_relaunch, ufo_relaunch, heal, bonus_shot
CHOOSE_KEYS = ("level", "called", "three_tries", "end_turn")
RESOLVE_KEYS = ("redirect", "extra", "wave")
TOKEN_KEYS = (
    "level",
    "land",
    "relaunch",
    "called",
    "three_tries",
    "redirect",
    "extra",
    "wave",
    "bonus",
    *OPTION_KEYS,
    "try",
)
ATTEMPT_KEYS = (*CHOOSE_KEYS, *RESOLVE_KEYS, "refused")


class ScriptedTurn:
    """Plays one seat's turn from its token entries; `refusals` collects the refusals the
    entries' `try:` expected and got."""

    def __init__(self, scenario: Scenario, seat: int, tokens: list[dict[str, Any]],
                 refusals: list[str]) -> None:  # fmt: skip
        self.sc = scenario
        self.seat = seat
        self.tokens = tokens
        self.refusals = refusals
        self.offers: dict[tuple[int, int], int] = {}  # (record, option) -> times offered
        self.tried: set[str] = set()  # the attempts made, by their key

    def take(self, w, a, rng, scale, log) -> str | None:
        """The turn, decision by decision; None, or the refusal (or the expectation of one
        missed) that stopped it."""
        s, seat = self.sc.s, self.seat
        begin_turn(s, seat)
        chosen = 0
        while s[L.S_PHASE] != L.PH_DONE:
            phase = int(s[L.S_PHASE])
            if phase == L.PH_CHOOSE and chosen < len(self.tokens):
                for attempt in self._attempts(self.tokens[chosen], CHOOSE_KEYS):
                    self._fresh(a)
                    self._choose(attempt, a)
                    missed = self._refused(attempt, w, a, rng, scale, log)
                    if missed:
                        return missed
            elif phase == L.PH_RESOLVE:
                for t in range(int(s[L.S_TOKENS])):
                    for attempt in self._attempts(self.tokens[t], RESOLVE_KEYS):
                        self._fresh(a)
                        self._resolve_all(a, t, attempt)
                        missed = self._refused(attempt, w, a, rng, scale, log)
                        if missed:
                            return missed
            self._fresh(a)
            if phase == L.PH_CHOOSE:
                if chosen < len(self.tokens):
                    self._choose(self.tokens[chosen], a)
                else:
                    a[L.A_LEVEL] = 0  # end the turn with tokens left: refused (line 192)
                chosen += 1
            elif phase == L.PH_RELAUNCH_Q:
                a[L.A_YES] = bool(self._token().get("relaunch", False))
            elif phase == L.PH_OPTION:
                a[L.A_TAKE] = self._take(int(s[L.S_CUR]), int(s[L.S_OPTION]))
            elif phase == L.PH_RESOLVE:
                self._resolve_all(a, -1, {})
            err = step(s, self.sc.p, w, a, rng, self.sc.script, scale[seat], log)
            if err != L.OK:
                return L.ERROR_NAMES[err]
        if chosen < len(self.tokens):
            raise ScenarioError(
                f"the turn lists {len(self.tokens)} tokens; seat {seat} launched {chosen}",
                file=self.sc.path,
                key=self._key(),
            )
        for token in self.tokens:
            for attempt in token.get("try") or []:
                if attempt["_where"] not in self.tried:
                    return f"the engine never asked for the decision tried at {attempt['_where']}"
        return None

    # --- the answers ------------------------------------------------------------------------

    def _fresh(self, a: np.ndarray) -> None:
        p = self.sc.p
        a[:] = 0.0
        a[L.A_CALLED] = -1.0
        a[L.A_TAKE] = 1.0
        a[L.A_RES :] = -1.0
        a[L.A_AIM_X], a[L.A_AIM_Y] = p[L.P_BOARD_W] / 2, p[L.P_BOARD_H] / 2
        a[L.A_SHOOTER_X] = p[L.P_BOARD_W] / 2

    def _token(self) -> Mapping[str, Any]:
        return self.tokens[int(self.sc.s[L.S_CUR])]

    def _choose(self, token: Mapping[str, Any], a: np.ndarray) -> None:
        if token.get("end_turn"):
            a[L.A_LEVEL] = 0
            return
        s = self.sc.s
        left = [int(s[L.S_PLAYERS + self.seat * L.PL_SIZE + L.PL_LEFT + k]) for k in range(3)]
        a[L.A_LEVEL] = token.get("level", next((k + 1 for k in range(3) if left[k]), 1))
        if "called" in token:
            a[L.A_CALLED] = self.sc.cell(token["called"], token["_where"] + ".called")
        a[L.A_THREE] = bool(token.get("three_tries", False))

    def _take(self, record: int, option: int) -> bool:
        """The entry's answer to the n-th offer of `option` for its token (yes by default)."""
        name = L.OPTION_NAMES[option]
        n = self.offers.get((record, option), 0)
        self.offers[(record, option)] = n + 1
        answer = self.tokens[record].get(name, True)
        if isinstance(answer, list):
            answer = answer[n] if n < len(answer) else True
        return bool(answer)

    def _resolve_all(self, a: np.ndarray, tried: int, attempt: Mapping[str, Any]) -> None:
        """Every token's resolution choices; record `tried` takes the attempt's instead."""
        for t in range(int(self.sc.s[L.S_TOKENS])):
            self._resolve(t, attempt if t == tried else self.tokens[t], self.tokens[t], a)

    def _resolve(self, t: int, choices: Mapping[str, Any], token: Mapping[str, Any],
                 a: np.ndarray) -> None:  # fmt: skip
        base = L.A_RES + t * L.RES_SIZE
        where = token["_where"]
        redirect = choices.get("redirect") or {}
        if not isinstance(redirect, Mapping):
            raise ScenarioError(
                "must map landed cells to cells", file=self.sc.path, key=f"{where}.redirect"
            )
        mask = int(self.sc.s[L.S_TK + t * L.TK_SIZE + L.TK_CELLS])
        slot = 0
        for cell in range(L.N_CELLS):
            if (mask >> cell) & 1:
                target = redirect.get(P.cell_name(cell))
                if target is not None and slot < 4:
                    a[base + L.RES_REDIRECT + slot] = self.sc.cell(target, f"{where}.redirect")
                slot += 1
        if "extra" in choices:
            a[base + L.RES_EXTRA] = self.sc.cell(choices["extra"], f"{where}.extra")
        if "wave" in choices:
            a[base + L.RES_WAVE] = self.sc.cell(choices["wave"], f"{where}.wave")

    # --- refusals ---------------------------------------------------------------------------

    def _attempts(self, token: Mapping[str, Any], kind: tuple[str, ...]) -> list[dict]:
        """The entry's `try:` attempts at this kind of decision (choosing or resolving)."""
        return [x for x in token.get("try") or [] if any(k in x for k in kind)]

    def _refused(self, attempt: Mapping[str, Any], w, a, rng, scale, log) -> str | None:
        """Submit an attempt the engine must refuse; None when it did as expected."""
        want = attempt["refused"]
        self.tried.add(attempt["_where"])
        err = step(self.sc.s, self.sc.p, w, a, rng, self.sc.script, scale[self.seat], log)
        if err == L.OK:
            return f"accepted a decision expected to be refused ({want}) at {attempt['_where']}"
        got = L.ERROR_NAMES[err]
        if got != want:
            return f"{got} (expected the refusal {want} at {attempt['_where']})"
        self.refusals.append(got)
        return None

    def _key(self) -> str:
        return self.tokens[0]["_where"].rsplit("[", 1)[0] if self.tokens else "turns"


def check_token(token: Any, where: str, path: str) -> dict[str, Any]:
    """A token entry with its keys, attempts and option answers checked."""
    from sim.config.files import check_keys

    check_keys(token, TOKEN_KEYS, file=path, where=f"{where}.", error=ScenarioError)
    _check_level(token, where, path)
    for name in OPTION_KEYS:
        answer = token.get(name, True)
        items = answer if isinstance(answer, list) else [answer]
        if not all(isinstance(x, bool) for x in items):
            raise ScenarioError("must be yes/no or a list of them (one per offer)",
                                file=path, key=f"{where}.{name}")  # fmt: skip
    attempts = token.get("try") or []
    if not isinstance(attempts, list):
        raise ScenarioError("must be a list of refused decisions", file=path, key=f"{where}.try")
    checked = []
    for i, attempt in enumerate(attempts):
        key = f"{where}.try[{i}]"
        check_keys(attempt, ATTEMPT_KEYS, file=path, where=f"{key}.", error=ScenarioError)
        _check_level(attempt, key, path)
        if attempt.get("refused") not in L.ERROR_NAMES[1:]:
            raise ScenarioError(
                "must name the refusal the engine gives",
                file=path,
                key=f"{key}.refused",
                hint=", ".join(L.ERROR_NAMES[1:]),
            )
        choose = any(k in attempt for k in CHOOSE_KEYS)
        if choose == any(k in attempt for k in RESOLVE_KEYS):
            raise ScenarioError(
                "an attempt is either a choice of token or resolution choices",
                file=path,
                key=key,
                hint=f"{', '.join(CHOOSE_KEYS)} | {', '.join(RESOLVE_KEYS)}",
            )
        checked.append({**attempt, "_where": key})
    return {**token, "try": checked, "_where": where}


def _check_level(entry: dict[str, Any], where: str, path: str) -> None:
    level = entry.get("level", 1)
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= L.LEVELS:
        raise ScenarioError(f"must be a token level 1..{L.LEVELS}", file=path, key=f"{where}.level")
