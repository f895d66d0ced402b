"""Watch one game round by round: the board, where each token landed and what it hit, the
invaders' advance; as text for the terminal and as a self-contained HTML page to step
through. The game is played by the compiled functions the kernel uses, one turn at a time,
so the same seed gives the same game as `sim run`.
"""

from __future__ import annotations

import html
import json
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from sim.games.space_invaders import layout as L
from sim.games.space_invaders import position as P
from sim.plugins.base import Player, Watch

SEAT_COLOURS = ("#d62728", "#ff7f0e", "#2ca02c", "#1f77b4")  # red, orange, green, blue
ICON_MARK = {0: "", L.ICON_SHIELD: "S", L.ICON_TWO_HIT: "T", 3: "ST"}


@dataclass
class Frame:
    round: int
    seat: int | None  # None: setup, the advance and clean-up, the end
    title: str
    events: list[str]
    board: str
    cards: list[list[Any]]  # [cell, label, icon] of each card on the board
    launches: list[dict[str, Any]] = field(default_factory=list)
    planet: int = 0
    ufo: int = 0
    deck: int = 0
    status: str = "running"


@dataclass
class Watched:
    frames: list[Frame]
    geometry: dict[str, float]
    lineup: list[str]
    seats: int


def card_labels(p: np.ndarray) -> list[str]:
    """A card's label: speed, damage, then S (shield) or T (two hits)."""
    out = []
    for i in range(int(p[L.P_N_CARDS])):
        icon = int(p[L.P_CARD_ICON + i])
        out.append(f"{int(p[L.P_CARD_SPEED + i])}{int(p[L.P_CARD_DAMAGE + i])}{ICON_MARK[icon]}")
    return out


def play_recorded(ruleset, players: list[Player], seed: int, on_step=None):
    """Play a game turn by turn with the kernel's functions; `on_step(kind, s, p, w, log,
    first, seat)` is called after the setup, each turn and each round's end (log[first:]
    are the launches since the last call). Returns (s, p)."""
    from sim.games.space_invaders.chunks import Plan
    from sim.games.space_invaders.kernel import turn_function, workspace
    from sim.games.space_invaders.params import table_size, to_params
    from sim.games.space_invaders.rounds import end_round, new_game, next_round, turn_seat
    from sim.random_streams import seed_streams

    n_players = len(players)
    n = table_size(n_players, ruleset.values)
    plan = Plan(players)
    play_turn, policies = turn_function(plan.slots), plan.padded(plan.slots)
    seat_rows = [0] * n if n_players == 1 else list(range(n))
    p = to_params(ruleset.values, n_players)
    s, w, a, rng, scratch, crashed, script, log, _, _, scales = workspace(
        n, plan.params.shape[1], log_rows=4096
    )
    scales[:] = [plan.params[j, 0] for j in seat_rows]
    seed_streams(rng, np.uint64(seed))
    new_game(s, p, n, rng)
    if on_step:
        on_step("setup", s, p, w, log, 0, None)
    while s[L.S_STATUS] == L.RUNNING and next_round(s, p):
        for k in range(n):
            seat = int(turn_seat(s, k))
            first = int(w[L.W_LOG_N])
            j = seat_rows[seat]
            err = play_turn(s, p, w, a, rng, script, seat, policies, plan.which[j],
                            plan.params[j], scales[seat], scratch, log)  # fmt: skip
            if err != L.OK:
                raise RuntimeError(f"seat {seat} made an illegal decision: {L.ERROR_NAMES[err]}")
            if on_step:
                on_step("turn", s, p, w, log, first, seat)
            if s[L.S_ROUND_OVER]:
                break
        first = int(w[L.W_LOG_N])
        end_round(s, p, w, rng, script, scales, log, crashed)
        if on_step:
            on_step("end", s, p, w, log, first, None)
    return s, p


def watch_game(ruleset, players: list[Player], seed: int) -> Watch:
    """`sim play`: the game of `seed` as text and as a page to step through."""
    watched = watch(ruleset, players, seed)
    return Watch(text=transcript(watched), html=lambda title: page(watched, title))


def watch(ruleset, players: list[Player], seed: int) -> Watched:
    """Play the game of `seed` with players[k] in seat k and record every turn."""
    frames: list[Frame] = []
    labels: list[str] = []
    before: list[np.ndarray] = []

    def on_step(kind, s, p, w, log, first, seat):
        if not labels:
            labels.extend(card_labels(p))
        if kind == "setup":
            frames.append(_frame(s, labels, 0, None, "setup", [_setup_text(s)]))
        elif kind == "turn":
            launches = [_launch(row, labels, s) for row in log[first : int(w[L.W_LOG_N])]]
            events = [item["text"] for item in launches]
            events += _changes(before[-1], s, labels)
            title = f"round {int(s[L.S_ROUND])}: seat {seat + 1}"
            frames.append(_frame(s, labels, int(s[L.S_ROUND]), seat, title, events, launches))
        else:
            launches = [_launch(row, labels, s) for row in log[first : int(w[L.W_LOG_N])]]
            events = _round_end(before[-1], s) + [item["text"] for item in launches]
            title = f"round {int(s[L.S_ROUND])}: the invaders advance"
            if s[L.S_STATUS] != L.RUNNING:
                title = f"end: {L.STATUS_NAMES[int(s[L.S_STATUS])]}, score {int(s[L.S_SCORE])}"
            frames.append(_frame(s, labels, int(s[L.S_ROUND]), None, title, events, launches))
        before.append(s.copy())

    s, p = play_recorded(ruleset, players, seed, on_step)
    return Watched(frames, _geometry(p), [player.label for player in players], int(s[L.S_N_SEATS]))


def _frame(s, labels, rnd, seat, title, events, launches=()) -> Frame:
    cards = [[c, labels[int(s[L.S_BOARD + c]) - 1]] for c in range(L.N_CELLS) if s[L.S_BOARD + c]]
    return Frame(
        rnd,
        seat,
        title,
        list(events),
        P.board_text(s, labels),
        cards,
        list(launches),
        int(s[L.S_PLANET]),
        int(s[L.S_UFO]),
        int(s[L.S_DECK_LEN] - s[L.S_DECK_TOP]),
        L.STATUS_NAMES[int(s[L.S_STATUS])],
    )


def _setup_text(s) -> str:
    powers = "; ".join(
        f"seat {k + 1}: " + ", ".join(P.seat_info(s, k)["powers"])
        for k in range(int(s[L.S_N_SEATS]))
    )
    return f"planet {int(s[L.S_PLANET])}, UFO {int(s[L.S_UFO])}; powers: {powers}"


def _launch(row, labels, s) -> dict[str, Any]:
    kind = int(row[L.LOG_KIND])
    seat = int(row[L.LOG_SEAT])
    result = L.LANDING_NAMES[int(row[L.LOG_RESULT])]
    cells = int(row[L.LOG_CELLS])
    on = [P.cell_name(c) for c in range(L.N_CELLS) if (cells >> c) & 1]
    what = {1: f"level-{int(row[L.LOG_LEVEL])} token", 2: "bonus shot", 3: "assault token"}[kind]
    where = (
        f"on {'+'.join(on)}"
        if on
        else {"ufo": "in the UFO", "planet": "in the planet area", "miss": "off the cards"}.get(
            result, result
        )
    )
    text = (
        f"seat {seat + 1} {what} aimed at ({row[L.LOG_AIM_X]:.0f}, {row[L.LOG_AIM_Y]:.0f}) "
        f"landed at ({row[L.LOG_X]:.0f}, {row[L.LOG_Y]:.0f}) {where}"
    )
    return {
        "seat": seat,
        "x": float(row[L.LOG_X]),
        "y": float(row[L.LOG_Y]),
        "ax": float(row[L.LOG_AIM_X]),
        "ay": float(row[L.LOG_AIM_Y]),
        "result": result,
        "text": text,
    }


def _changes(old, s, labels) -> list[str]:
    gone = [
        f"{labels[int(old[L.S_BOARD + c]) - 1]} at {P.cell_name(c)}"
        for c in range(L.N_CELLS)
        if old[L.S_BOARD + c] and not s[L.S_BOARD + c]
    ]
    out = [f"destroyed: {', '.join(gone)}"] if gone else []
    waiting = P.hits_text(s)
    if waiting:
        out.append("hits waiting: " + ", ".join(f"{k} x{v}" for k, v in waiting.items()))
    if s[L.S_UFO] != old[L.S_UFO]:
        out.append(f"UFO {int(old[L.S_UFO])} -> {int(s[L.S_UFO])}")
    if s[L.S_PLANET] != old[L.S_PLANET]:
        out.append(f"planet {int(old[L.S_PLANET])} -> {int(s[L.S_PLANET])} (heal)")
    return out


def _round_end(old, s) -> list[str]:
    out = []
    damage = int(s[L.S_DAMAGE] - old[L.S_DAMAGE])
    crashed = int(s[L.S_CRASHED] - old[L.S_CRASHED])
    returned = int(s[L.S_RETURNED] - old[L.S_RETURNED])
    if returned:
        out.append(f"{returned} invader(s) reached the planet: {damage} damage, back in the deck")
    if crashed:
        out.append(f"last round: {crashed} invader(s) crashed for double damage ({damage})")
    added = int(s[L.S_REINFORCED] - old[L.S_REINFORCED])
    if added:
        out.append(f"reinforcements: {added} new token(s)")
    if s[L.S_LAST_ROUND] and not old[L.S_LAST_ROUND]:
        out.append("6 or fewer invaders: the next round is the last")
    if s[L.S_ASSAULT] and not old[L.S_ASSAULT]:
        out.append(f"final assault: {int(s[L.S_ASSAULT_HITS])} UFO hit(s)")
    return out or ["nothing reached the planet"]


def _geometry(p) -> dict[str, float]:
    keys = (
        "GRID_X0",
        "PITCH_X",
        "CARD_W",
        "GRID_Y0",
        "PITCH_Y",
        "CARD_H",
        "PLANET_LINE",
        "TOKEN_R",
        "UFO_X0",
        "UFO_X1",
        "UFO_Y0",
        "UFO_Y1",
        "SHOOTER_Y",
        "BOARD_W",
        "BOARD_H",
    )
    return {k.lower(): float(p[getattr(L, f"P_{k}")]) for k in keys}


def transcript(watched: Watched) -> str:
    lines = [f"seats: {', '.join(watched.lineup)} ({watched.seats} hand(s))"]
    for f in watched.frames:
        lines.append(f"--- {f.title} --- planet {f.planet}, UFO {f.ufo}, deck {f.deck}")
        lines += [f"  {e}" for e in f.events]
        lines += [f"    {row}" for row in f.board.rstrip("\n").splitlines()]
    return "\n".join(lines) + "\n"


def page(watched: Watched, title: str) -> str:
    """A self-contained page: the board drawn to scale, each frame's landings, step buttons."""
    data = json.dumps(
        {
            "frames": [asdict(f) for f in watched.frames],
            "g": watched.geometry,
            "colours": SEAT_COLOURS,
        }
    )
    return _PAGE.replace("__TITLE__", html.escape(title)).replace("__DATA__", data)


_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>__TITLE__</title>
<style>body{font:14px system-ui,sans-serif;margin:16px;color:#1d2430}
#wrap{display:flex;gap:20px}svg{border:1px solid #ccc;background:#0b1020}
.ev{white-space:pre-wrap;max-width:560px}button{font-size:14px;margin-right:6px}</style>
</head><body><h1>__TITLE__</h1><p><button id="prev">&larr; prev</button>
<button id="next">next &rarr;</button><span id="pos"></span></p><div id="wrap">
<svg id="board"></svg><div><h3 id="ft"></h3><div id="st"></div><div class="ev" id="ev"></div>
</div></div><script>
const D=__DATA__, g=D.g; let i=0; const sv=document.getElementById('board');
const top=g.ufo_y1+20, bot=Math.min(g.shooter_y,0)-20, W=g.board_w, H=top-bot, k=560/H;
sv.setAttribute('width',W*k+40); sv.setAttribute('height',H*k);
const X=x=>20+x*k, Y=y=>(top-y)*k;
function rect(x0,y0,w,h,fill,stroke){return `<rect x="${X(x0)}" y="${Y(y0+h)}" width="${w*k}"
 height="${h*k}" fill="${fill}" stroke="${stroke||'none'}"/>`}
function draw(){const f=D.frames[i]; let s=rect(0,0,W,g.board_h,'#1b2440','#556');
 s+=rect(0,0,W,g.planet_line,'#2d4a2d'); s+=rect(g.ufo_x0,g.ufo_y0,g.ufo_x1-g.ufo_x0,
 g.ufo_y1-g.ufo_y0,'#5a2a5a','#c8c');
 for(let c=0;c<20;c++){const r=Math.floor(c/5),col=c%5,x0=g.grid_x0+col*g.pitch_x,
  y0=g.grid_y0+(3-r)*g.pitch_y; s+=rect(x0,y0,g.card_w,g.card_h,'none','#445');}
 for(const [c,lab] of f.cards){const r=Math.floor(c/5),col=c%5,x0=g.grid_x0+col*g.pitch_x,
  y0=g.grid_y0+(3-r)*g.pitch_y; s+=rect(x0,y0,g.card_w,g.card_h,'#c9d3e6','#fff');
  s+=`<text x="${X(x0+g.card_w/2)}" y="${Y(y0+g.card_h/2)}" text-anchor="middle"
   font-size="14">${lab}</text>`;}
 for(const t of f.launches){const col=D.colours[t.seat%4];
  s+=`<line x1="${X(t.ax)}" y1="${Y(t.ay)}" x2="${X(t.x)}" y2="${Y(t.y)}" stroke="${col}"
   stroke-dasharray="3,3"/><circle cx="${X(t.x)}" cy="${Y(t.y)}" r="${g.token_r*k}"
   fill="${col}" stroke="#fff"/>`;}
 sv.innerHTML=s; document.getElementById('ft').textContent=f.title;
 document.getElementById('st').textContent=`planet ${f.planet}, UFO ${f.ufo}, deck ${f.deck}`;
 document.getElementById('ev').textContent=f.events.join('\\n');
 document.getElementById('pos').textContent=` frame ${i+1} of ${D.frames.length}`;}
document.getElementById('prev').onclick=()=>{if(i>0){i--;draw();}};
document.getElementById('next').onclick=()=>{if(i<D.frames.length-1){i++;draw();}};
document.onkeydown=e=>{if(e.key==='ArrowRight')document.getElementById('next').click();
 if(e.key==='ArrowLeft')document.getElementById('prev').click();}; draw();
</script></body></html>
"""
