"""Watch one game: every turn as a frame (the board, who did what, scores), as text or as a
self-contained HTML page to step through. The same seed always gives the same game."""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass

import numpy as np

from sim.games.guardians import layout as L
from sim.games.guardians.python_loop import PlayerFailure, play_one_in_python
from sim.games.guardians.session import GameSession
from sim.plugins.base import Player, Watch
from sim.watch_page import step_page

SEAT_LETTERS = "ABCD"
KIND_VALUES = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", L.KIND_SHIP: "ship part"}


@dataclass
class Frame:
    turn: int
    seat: int | None
    text: str  # what happened
    board: str
    scores: list[int]
    statuses: list[str]
    pile: int
    aside: list[str]
    status: str


def watch(ruleset, players: list[Player], seed: int) -> tuple[list[Frame], GameSession]:
    """Play the game of `seed` with players[k] in seat k and record every turn."""
    from sim.games.guardians.chunks import Plan, strategy_error

    plan = Plan(players)
    seats = [plan.seat(j) for j in range(len(players))]
    frames: list[Frame] = []
    before: list[np.ndarray] = []

    def on_setup(game: GameSession) -> None:
        frames.append(_frame(game, 0, None, "setup: fighters placed, the mine set"))
        before.append(game.s.copy())

    def on_turn(game: GameSession, seat: int, action: np.ndarray, error: str | None) -> None:
        text = f"refused: {error}" if error else describe(before[-1], game, seat)
        frames.append(_frame(game, len(frames), seat, text))
        before.append(game.s.copy())

    try:
        final, _ = play_one_in_python(ruleset, len(players), seats, seed, on_setup=on_setup,
                             on_turn=on_turn)  # fmt: skip
    except PlayerFailure as failure:
        error = strategy_error(failure, players[failure.seat].label, 0)
        error.message += f", seed {seed}, after {max(len(frames) - 1, 0)} turns"
        raise error from failure.error
    return frames, final


def watch_game(ruleset, players: list[Player], seed: int) -> Watch:
    """The game of `seed`, told turn by turn as text and as a page (`sim play`)."""
    frames, final = watch(ruleset, players, seed)
    return Watch(
        text=transcript(frames, players, final),
        html=lambda title: page(frames, players, final, title),
    )


def _frame(game: GameSession, turn: int, seat: int | None, text: str) -> Frame:
    return Frame(
        turn=turn,
        seat=seat,
        text=text,
        board=game.board_text(),
        scores=[game.score(k) for k in range(game.n_players)],
        statuses=[p["status"] for p in game.players()],
        pile=len(game.pile()),
        aside=game.aside(),
        status=game.status,
    )


def describe(before: np.ndarray, game: GameSession, seat: int) -> str:
    """What the turn just played did, read off the state before and after it."""
    after = game.s

    def was(field: int, k: int = seat) -> int:
        return int(before[L.S_PLAYERS + k * L.PL_SIZE + field])

    def now(field: int, k: int = seat) -> int:
        return int(after[L.S_PLAYERS + k * L.PL_SIZE + field])

    parts: list[str] = []
    if now(L.PL_REENTRIES) > was(L.PL_REENTRIES):
        parts.append(f"re-entered at column {now(L.PL_COL) + 1}")
    for name, field in (("a missile", L.PL_MISSILES_BOUGHT), ("an upgrade", L.PL_UPGRADES_BOUGHT),
                        ("a power-up", L.PL_POWER_UPS_BOUGHT)):  # fmt: skip
        if now(field) > was(field):
            parts.append(f"bought {name} for {now(L.PL_POINTS_PAID) - was(L.PL_POINTS_PAID)}")
    if now(L.PL_STATUS) == L.OUT and was(L.PL_STATUS) != L.OUT:
        parts.append("is out of the game")
    moved = (was(L.PL_COL), was(L.PL_ROW)) != (now(L.PL_COL), now(L.PL_ROW))
    if moved and now(L.PL_COL) >= 0 and was(L.PL_COL) >= 0:
        parts.append(f"moved to [{now(L.PL_COL) + 1}, {now(L.PL_ROW) + 1}]")
    if now(L.PL_POWER_UPS_USED) > was(L.PL_POWER_UPS_USED):
        parts.append("used the power-up")
    if now(L.PL_MISSILES_FIRED) > was(L.PL_MISSILES_FIRED):
        parts.append(f"fired the missile ({now(L.PL_MISSILE_POINTS) - was(L.PL_MISSILE_POINTS)}"
                     " points)")  # fmt: skip
    taken = [KIND_VALUES[k] for k in range(1, L.N_KINDS)
             for _ in range(now(L.PL_TAKEN + k) - was(L.PL_TAKEN + k))]  # fmt: skip
    if taken:
        parts.append("took " + ", ".join(taken))
    shots = now(L.PL_SHOTS) - was(L.PL_SHOTS)
    if shots and now(L.PL_HITS) == was(L.PL_HITS):
        parts.append("missed" if shots == 1 else f"missed {shots} shots")
    for victim in range(game.n_players):
        if now(L.PL_STEALS_SUFFERED, victim) > was(L.PL_STEALS_SUFFERED, victim):
            parts.append(f"shot {SEAT_LETTERS[victim]}'s fighter")
    descents = int(after[L.S_DESCENTS] - before[L.S_DESCENTS])
    if descents:
        placed = int(after[L.S_REINFORCED] - before[L.S_REINFORCED])
        parts.append(f"invaders descended{f' x{descents}' if descents > 1 else ''}, "
                     f"{placed} reinforcements")  # fmt: skip
    if before[L.S_MINE_ALIVE] and not after[L.S_MINE_ALIVE]:
        parts.append("the mine exploded")
    elif (before[L.S_MINE_COL], before[L.S_MINE_ROW]) != (after[L.S_MINE_COL], after[L.S_MINE_ROW]):
        parts.append(f"moved the mine to [{after[L.S_MINE_COL] + 1}, {after[L.S_MINE_ROW] + 1}]")
    for other in range(game.n_players):
        if now(L.PL_LOSSES, other) > was(L.PL_LOSSES, other):
            parts.append(f"{SEAT_LETTERS[other]}'s fighter was destroyed")
    if game.status != "running":
        parts.append(f"game over: {game.status}")
    return "; ".join(parts) or "stayed and shot nothing"


def transcript(frames: list[Frame], players: list[Player], final: GameSession) -> str:
    names = ", ".join(f"{SEAT_LETTERS[k]}={player.label}" for k, player in enumerate(players))
    out = [f"players: {names}"]
    for frame in frames:
        who = "" if frame.seat is None else f"{SEAT_LETTERS[frame.seat]}: "
        scores = "  ".join(f"{SEAT_LETTERS[k]} {s}" for k, s in enumerate(frame.scores))
        out.append(f"\nturn {frame.turn}  {who}{frame.text}")
        out.append(_grid(frame.board))
        out.append(f"scores: {scores}   pile: {frame.pile}   aside: {frame.aside or '-'}")
    winners = ", ".join(SEAT_LETTERS[k] for k in final.winners()) or "nobody"
    out.append(f"\noutcome: {final.status} after {final.counter(L.S_TURN)} turns; "
               f"winners: {winners}")  # fmt: skip
    return "\n".join(out) + "\n"


def _grid(board: str) -> str:
    rows = board.strip("\n").split("\n")
    n = len(rows)
    lines = [f"{n - i:>3} | {row}" for i, row in enumerate(rows)]
    width = len(rows[0].split())
    lines.append("    +" + "-" * (2 * width))
    lines.append("      " + " ".join(str(c + 1) for c in range(width)))
    return "\n".join(lines)


def page(frames: list[Frame], players: list[Player], final: GameSession, title: str) -> str:
    """A self-contained page: every frame, stepped with buttons or the arrow keys."""
    winners = ", ".join(SEAT_LETTERS[k] for k in final.winners()) or "nobody"
    summary = html.escape(f"{final.status} after {final.counter(L.S_TURN)} turns; winners: "
                          f"{winners}")  # fmt: skip
    names = [f"{SEAT_LETTERS[k]} = {p.label}" for k, p in enumerate(players)]
    return step_page(title=title, style=_STYLE, summary=f"<b>Outcome:</b> {summary}",
                     first="start", body=_BODY, draw=_DRAW, frames=[asdict(f) for f in frames],
                     names=names)  # fmt: skip


_STYLE = """\
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table.board { border-collapse: collapse; margin: 1em 0; }
table.board td { width: 2.2em; height: 2.2em; text-align: center; border: 1px solid #bbb;
  font-weight: bold; }
td.m1,td.m2,td.m3,td.m4,td.m5 { background: #f6d6d6; } td.ship { background: #d6dcf6; }
td.fighter { background: #d6f6da; } td.mine { background: #eee; }
td.label { border: none; color: #888; font-weight: normal; }
#text { min-height: 3em; font-size: 1.1em; }
"""
_BODY = '<p id="text"></p><div id="board"></div><p id="scores"></p>'
_DRAW = """const letters = "ABCD";
document.getElementById("names").textContent = "Players: " + names.join(", ");
function cls(ch) {
  if ("12345".includes(ch)) return "m" + ch;
  if ("[]S".includes(ch)) return "ship";
  if ("ABCD".includes(ch)) return "fighter";
  if (ch === "M") return "mine";
  return "";
}
function show() {
  const f = frames[i];
  const who = f.seat === null ? "" : letters[f.seat] + ": ";
  document.getElementById("where").textContent = "turn " + f.turn + " of " +
    (frames.length - 1);
  document.getElementById("text").textContent = who + f.text;
  const rows = f.board.trim().split("\\n");
  const table = document.createElement("table");
  table.className = "board";
  rows.forEach((row, r) => {
    const tr = table.insertRow();
    const label = tr.insertCell(); label.className = "label";
    label.textContent = rows.length - r;
    row.split(" ").forEach(ch => {
      const td = tr.insertCell(); td.className = cls(ch);
      td.textContent = ch === "." ? "" : ch;
    });
  });
  const board = document.getElementById("board");
  board.replaceChildren(table);
  document.getElementById("scores").textContent = "Scores: " + f.scores.map((s, k) =>
    letters[k] + " " + s + " (" + f.statuses[k] + ")").join(", ") + ". Pile: " + f.pile +
    ". Beside the board: " + (f.aside.join(" ") || "-") + ".";
}
"""
