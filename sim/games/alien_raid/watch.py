"""Watch one alien-raid game: every turn as a frame (what happened, then every captain's humans,
ships, stations, cards and cities), as text or as a self-contained HTML page to step through.
The same seed always gives the same game (the game of that seed in a run)."""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass

import numpy as np

from sim.games.alien_raid import layout as L
from sim.games.alien_raid.events import Narrator
from sim.games.alien_raid.params import Names, names, to_params
from sim.plugins.base import Player, Watch
from sim.watch_page import step_page


@dataclass
class Frame:
    turn: int  # 0: the setup; games.turns + 1: the end of the game
    title: str
    events: list[str]
    captains: list[dict]


@dataclass
class Watched:
    """A watched game: its frames, as text (`.text`) and as a page (`.html(title)`)."""

    lineup: list[str]
    frames: list[Frame]
    winners: list[int]

    @property
    def text(self) -> str:
        out = ["captains: " + ", ".join(f"{k}={s}" for k, s in enumerate(self.lineup))]
        for frame in self.frames:
            out.append(f"\n== {frame.title} ==")
            out += [f"  {line}" for line in frame.events]
            for k, c in enumerate(frame.captains):
                out.append(
                    f"  [{k}] {c['humans']:>9,} humans | ships: {', '.join(c['ships']) or '-'}"
                    f" | stations: {', '.join(c['stations']) or '-'} | cards: "
                    f"{', '.join(c['cards']) or '-'} | cities: {len(c['cities'])}"
                    f"{' | credits: ' + str(c['credits']) if c['credits'] else ''}"
                )
        won = ", ".join(f"{k} ({self.lineup[k]})" for k in self.winners)
        out.append(f"\nwinner{'s' if len(self.winners) > 1 else ''}: {won}")
        return "\n".join(out) + "\n"

    def html(self, title: str) -> str:
        won = html.escape(", ".join(f"{k} ({self.lineup[k]})" for k in self.winners))
        return step_page(title=title, style=_STYLE, summary=f"<b>Winner:</b> {won}",
                         first="setup", body=_BODY, draw=_DRAW,
                         frames=[asdict(f) for f in self.frames],
                         names=[f"{k} = {s}" for k, s in enumerate(self.lineup)])  # fmt: skip


def watch_game(ruleset, players: list[Player], seed: int) -> Watch:
    """The plug-in's `watch`: the game of `seed`, as text and as a page to step through."""
    watched = watch(ruleset, players, seed)
    return Watch(text=watched.text, html=watched.html)


def watch(ruleset, players: list[Player], seed: int) -> Watched:
    """Play the game of `seed` with players[k] in seat k, turn by turn, recording each turn."""
    from sim.games.alien_raid.chunks import Plan
    from sim.games.alien_raid.decide import make_ctx
    from sim.games.alien_raid.flow import play_turn
    from sim.games.alien_raid.kernel import PLAY_TURN_TYPES, compiled
    from sim.games.alien_raid.ruleset import check_players
    from sim.games.alien_raid.scoring import end_game, winners_mask
    from sim.games.alien_raid.state import new_game
    from sim.random_streams import seed_streams

    n = len(players)
    check_players(ruleset, n)
    p = to_params(ruleset.values)
    plan = Plan(players)
    ctx = make_ctx(plan.policies, plan.params.shape[1])
    ctx[0][:n] = plan.which
    ctx[1][:n, : plan.params.shape[1]] = plan.params
    turn_of = compiled(play_turn, PLAY_TURN_TYPES)
    s = np.zeros(L.STATE_SIZE, np.int32)
    rng = np.zeros(L.STREAMS, np.uint64)
    log = np.zeros((L.MAX_EVENTS + 1, L.EV_SIZE), np.int32)
    seed_streams(rng, seed)
    new_game(s, p, n, rng)
    card_names = names(ruleset.values)
    labels = [player.label for player in players]
    narrator = Narrator(
        card_names,
        [f"{k} ({labels[k]})" for k in range(n)],
        [int(p[L.P_ARMY_ATTACK + a]) for a in range(len(card_names.armies))],
    )
    tasks = ", ".join(card_names.tasks[t] for t in s[L.S_TASKS : L.S_TASKS + s[L.S_N_TASKS]])
    frames = [Frame(0, "setup", [f"tasks: {tasks}"], _captains(s, card_names, n))]
    while s[L.S_TURN] <= p[L.P_TURNS] and s[L.S_ERROR] == L.OK:
        turn, start = int(s[L.S_TURN]), int(log[0, 0])
        turn_of(s, p, rng, ctx, log)
        frames.append(
            Frame(turn, f"turn {turn}", _lines(narrator, log, start), _captains(s, card_names, n))
        )
    if s[L.S_ERROR] != L.OK:
        seat = int(s[L.S_ERROR_SEAT])
        frames[-1].events.append(f"refused: {L.ERROR_NAMES[s[L.S_ERROR]]} (seat {seat})")
        return Watched(labels, frames, [])
    start = int(log[0, 0])
    end_game(s, p, log)
    frames.append(
        Frame(
            int(p[L.P_TURNS]) + 1,
            "end of the game: tasks and credits",
            _lines(narrator, log, start),
            _captains(s, card_names, n),
        )
    )
    mask = winners_mask(s, p)
    return Watched(labels, frames, [k for k in range(n) if mask >> k & 1])


def _lines(narrator: Narrator, log: np.ndarray, start: int) -> list[str]:
    rows = log[start + 1 : int(log[0, 0]) + 1]
    return [t for t in (narrator.describe(row) for row in rows) if t]


def _captains(s: np.ndarray, n: Names, players: int) -> list[dict]:
    def pl(seat: int, field: int) -> int:
        return L.S_PLAYERS + seat * L.PL_SIZE + field

    out = []
    for k in range(players):
        hand = s[pl(k, L.PL_HAND) : pl(k, L.PL_HAND) + L.MAX_HAND]
        stations = s[pl(k, L.PL_STATIONS) : pl(k, L.PL_STATIONS) + L.MAX_STATIONS]
        cards = [
            c
            for i, c in enumerate(n.comps)
            for _ in range(s[pl(k, L.PL_COMPS + i)] + s[pl(k, L.PL_COMPS_NEW + i)])
        ]
        won = s[pl(k, L.PL_WON) : pl(k, L.PL_WON) + s[pl(k, L.PL_N_WON)]]
        out.append(
            {
                "humans": int(s[pl(k, L.PL_HUMANS)]),
                "credits": int(s[pl(k, L.PL_CREDITS)]),
                "ships": [n.models[m] for m in hand if m >= 0],
                "stations": [n.models[m] for m in stations if m >= 0],
                "cards": cards,
                "cities": [n.city_titles[c] for c in won],
            }
        )
    return out


_STYLE = """\
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1100px; }
table { border-collapse: collapse; margin: 1em 0; font-size: .95em; }
td, th { border-bottom: 1px solid #ccc; padding: .3em .7em; text-align: left; vertical-align: top; }
th { background: #f2f4f8; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
#events { background: #f7f7f7; padding: .6em 1em; border-radius: 4px; white-space: pre-line; }
"""
_BODY = '<h2 id="title"></h2><div id="events"></div><div id="table"></div>'
_DRAW = """document.getElementById("names").textContent = "Captains: " + names.join(", ");
function cell(tr, text, cls) { const td = tr.insertCell(); td.textContent = text;
  if (cls) td.className = cls; }
function show() {
  const f = frames[i];
  document.getElementById("where").textContent = (i + 1) + " / " + frames.length;
  document.getElementById("title").textContent = f.title;
  document.getElementById("events").textContent = f.events.join("\\n") || "-";
  const t = document.createElement("table");
  const h = t.createTHead().insertRow();
  ["captain", "humans", "credits", "ships", "stations", "cards", "cities"].forEach(x => {
    const th = document.createElement("th"); th.textContent = x; h.appendChild(th); });
  f.captains.forEach((c, k) => { const tr = t.insertRow(); cell(tr, names[k]);
    cell(tr, c.humans.toLocaleString(), "num"); cell(tr, c.credits, "num");
    cell(tr, c.ships.join(", ")); cell(tr, c.stations.join(", "));
    cell(tr, c.cards.join(", ")); cell(tr, c.cities.join(", ")); });
  document.getElementById("table").replaceChildren(t);
}
"""
