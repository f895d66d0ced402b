"""The event log of a game as sentences (sim play, scenarios). A log row is
(code, turn, seat, space, v1, v2, v3, v4); layout.EV_* says what each value means."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.params import Names


class Narrator:
    """Turns log rows into sentences, naming captains, cards and cities."""

    def __init__(
        self,
        names: Names,
        captains: Sequence[str],
        army_attack: Sequence[int],
        dealt: dict[tuple[int, int], int] | None = None,
    ) -> None:
        self.n = names
        self.captains = list(captains)
        self.army_attack = list(army_attack)
        self.dealt = dealt if dealt is not None else {}  # (turn, space) -> city

    def who(self, seat: int) -> str:
        return self.captains[seat] if 0 <= seat < len(self.captains) else f"captain {seat + 1}"

    def model(self, m: int) -> str:
        return self.n.models[m] if 0 <= m < len(self.n.models) else "nothing"

    def city(self, turn: int, space: int) -> str:
        c = self.dealt.get((turn, space), -1)
        return self.n.city_titles[c] if c >= 0 else f"space {space + 1}"

    def army(self, a: int) -> str:
        return f"{self.n.armies[a]} ({self.army_attack[a]})" if a >= 0 else "-"

    def lines(self, log: np.ndarray) -> list[str]:
        out = []
        for row in log[1 : int(log[0, 0]) + 1]:
            text = self.describe(row)
            if text:
                out.append(text)
        return out

    def describe(self, row: np.ndarray) -> str:  # noqa: C901 - one case per event code
        code, turn, seat, space, v1, v2, v3, v4 = (int(x) for x in row)
        if code == L.EV_CITY:
            self.dealt[(turn, space)] = v1
        who, where = self.who(seat), self.city(turn, space)
        if code == L.EV_TURN:
            return f"turn {turn}: fuel limit {v1}"
        if code == L.EV_OFFER:
            return f"{who} draws {self.model(v1)}, {self.model(v2)}"
        if code == L.EV_REDRAW:
            return f"{who} shows two stations, discards them and draws again"
        if code == L.EV_CREDIT:
            return f"{who} takes a credit: {v1:,} humans"
        if code == L.EV_BUY:
            return f"{who} buys {self.model(v1)} for {v2:,} humans"
        if code == L.EV_DISCARD:
            return f"{who} discards {self.model(v1)} to make room"
        if code == L.EV_CITY:
            return f"space {space + 1}: {where}"
        if code == L.EV_ATTACK:
            return f"{who} attacks {where} (attack {v2})"
        if code == L.EV_SENDS:
            return f"{who} sends {self.model(v1)} ({v2}) to {where}"
        if code == L.EV_TRANSFER:
            by = f" by {self.who(v3)}'s station" if v3 >= 0 else ""
            return f"{who}'s {self.model(v4)} moves from {where} to {self.city(turn, v1)}{by}"
        if code == L.EV_UNCONTESTED:
            return f"{who} conquers {where} unopposed"
        if code == L.EV_NO_ATTACK:
            return f"nobody attacks {where}: discarded"
        if code == L.EV_RETREAT:
            return f"{who} retreats from {where}"
        if code == L.EV_FIGHT:
            return f"{who} fights for {where}"
        if code == L.EV_ROLL:
            return f"{who} rolls {v2}: {v1} + {v2} = {v3}"
        if code == L.EV_BOOST:
            what = (
                "rage card" if v1 == 100 + L.CP_ATTACK else L.STATION_EFFECT_NAMES[v1] + " station"
            )
            target = "" if v2 < 0 else f" on {self.who(v2)}'s ship in slot {v3 + 1}"
            return f"{who} plays a {what}{target}"
        if code == L.EV_TOTAL:
            return f"{who} totals {v1} at {where}"
        if code == L.EV_TIE:
            return f"tie at {v1} for {where}: the leaders roll again"
        if code == L.EV_WIN:
            return f"{who} wins {where} with {v1}"
        if code == L.EV_LOSE:
            card = self.n.comps[v2] if v2 >= 0 else "none left"
            return f"{who} loses {self.model(v1)} and takes a compensation card ({card})"
        if code == L.EV_TROPHY:
            return f"{who} takes {where} as a trophy"
        if code == L.EV_RAID:
            return f"{who} raids {where}: +{v1:,} humans"
        if code == L.EV_CATCH:
            armies = ", ".join(self.army(a) for a in (v1, v2, v3) if a >= 0)
            return f"{who} catches in {where}: {armies}"
        if code == L.EV_SCAN:
            return f"{who}'s scanner discards {self.army(v1)}"
        if code == L.EV_ARMY:
            return f"{who} fights an army of {v1}: {v2} + {v3} = {v4}"
        if code == L.EV_ARMY_WIN:
            return f"{who} beats the army of {v1}"
        if code == L.EV_ARMY_LOSS:
            return f"{who} loses to the army and loses {self.model(v1)}: {where} is discarded"
        if code == L.EV_ARMY_RETREAT:
            return f"{who} retreats before the army of {v1}: {where} is discarded"
        if code == L.EV_CATCH_DONE:
            return f"{who} catches {v1:,} humans in {where}"
        if code == L.EV_COMP_HUMANS:
            return f"{who} gains {v1:,} bonus humans"
        if code == L.EV_REPAY:
            return f"{who} repays {v1:,} humans"
        if code == L.EV_HOLD:
            return f"{who} keeps {v1} bonus-humans card{'s' if v1 > 1 else ''}"
        if code == L.EV_REFUSED:
            at = f" at {where}" if space >= 0 else ""
            return f"{who}'s decision{at} is refused: {L.ERROR_NAMES[v1]}"
        if code == L.EV_TASK:
            place = "first" if v3 == 1 else "second"
            return f"{who} takes {v2:,} humans for task {self.n.tasks[v1]} ({place}, {v4} cities)"
        if code == L.EV_END:
            return f"{who} ends with {v1:,} humans"
        return ""
