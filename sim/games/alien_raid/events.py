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

    def describe(self, row: np.ndarray) -> str:
        code, turn, seat, space, v1, v2, v3, v4 = (int(x) for x in row)
        if code == L.EV_CITY:
            self.dealt[(turn, space)] = v1
        who, where = self.who(seat), self.city(turn, space)
        text = _TEXTS.get(code)
        if text is not None:
            return text.format(
                who=who, where=where, turn=turn, space=space + 1, v1=v1, v2=v2, v3=v3, v4=v4,
                ship=self.model(v1), ship2=self.model(v2),
            )  # fmt: skip
        if code == L.EV_TRANSFER:
            by = f" by {self.who(v3)}'s station" if v3 >= 0 else ""
            return f"{who}'s {self.model(v4)} moves from {where} to {self.city(turn, v1)}{by}"
        if code == L.EV_BOOST:
            what = (
                "rage card" if v1 == 100 + L.CP_ATTACK else L.STATION_EFFECT_NAMES[v1] + " station"
            )
            target = "" if v2 < 0 else f" on {self.who(v2)}'s ship in slot {v3 + 1}"
            return f"{who} plays a {what}{target}"
        if code == L.EV_LOSE:
            card = self.n.comps[v2] if v2 >= 0 else "none left"
            return f"{who} loses {self.model(v1)} and takes a compensation card ({card})"
        if code == L.EV_CATCH:
            armies = ", ".join(self.army(a) for a in (v1, v2, v3) if a >= 0)
            return f"{who} catches in {where}: {armies}"
        if code == L.EV_SCAN:
            return f"{who}'s scanner discards {self.army(v1)}"
        if code == L.EV_HOLD:
            return f"{who} keeps {v1} bonus-humans card{'s' if v1 > 1 else ''}"
        if code == L.EV_REFUSED:
            at = f" at {where}" if space >= 0 else ""
            return f"{who}'s decision{at} is refused: {L.ERROR_NAMES[v1]}"
        if code == L.EV_TASK:
            place = "first" if v3 == 1 else "second"
            return f"{who} takes {v2:,} humans for task {self.n.tasks[v1]} ({place}, {v4} cities)"
        return ""


# The sentence of each event that needs no more than a template: `who` the captain, `where`
# the city (or its space), `space` the space counted from 1, `ship` and `ship2` the models v1
# and v2 name; the other events are composed in Narrator.describe.
_TEXTS: dict[int, str] = {
    L.EV_TURN: "turn {turn}: fuel limit {v1}",
    L.EV_OFFER: "{who} draws {ship}, {ship2}",
    L.EV_REDRAW: "{who} shows two stations, discards them and draws again",
    L.EV_CREDIT: "{who} takes a credit: {v1:,} humans",
    L.EV_BUY: "{who} buys {ship} for {v2:,} humans",
    L.EV_DISCARD: "{who} discards {ship} to make room",
    L.EV_CITY: "space {space}: {where}",
    L.EV_ATTACK: "{who} attacks {where} (attack {v2})",
    L.EV_SENDS: "{who} sends {ship} ({v2}) to {where}",
    L.EV_UNCONTESTED: "{who} conquers {where} unopposed",
    L.EV_NO_ATTACK: "nobody attacks {where}: discarded",
    L.EV_RETREAT: "{who} retreats from {where}",
    L.EV_FIGHT: "{who} fights for {where}",
    L.EV_ROLL: "{who} rolls {v2}: {v1} + {v2} = {v3}",
    L.EV_TOTAL: "{who} totals {v1} at {where}",
    L.EV_TIE: "tie at {v1} for {where}: the leaders roll again",
    L.EV_WIN: "{who} wins {where} with {v1}",
    L.EV_TROPHY: "{who} takes {where} as a trophy",
    L.EV_RAID: "{who} raids {where}: +{v1:,} humans",
    L.EV_ARMY: "{who} fights an army of {v1}: {v2} + {v3} = {v4}",
    L.EV_ARMY_WIN: "{who} beats the army of {v1}",
    L.EV_ARMY_LOSS: "{who} loses to the army and loses {ship}: {where} is discarded",
    L.EV_ARMY_RETREAT: "{who} retreats before the army of {v1}: {where} is discarded",
    L.EV_CATCH_DONE: "{who} catches {v1:,} humans in {where}",
    L.EV_COMP_HUMANS: "{who} gains {v1:,} bonus humans",
    L.EV_REPAY: "{who} repays {v1:,} humans",
    L.EV_END: "{who} ends with {v1:,} humans",
}
