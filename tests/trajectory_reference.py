"""The trajectory columns worked out the slow, obvious way (plain Python, the definitions of
sim/plugins/trajectory.py read literally), to check the compiled loops against."""

from __future__ import annotations


def leader(scores: list[int]) -> int | None:
    top = max(scores)
    holders = [k for k, v in enumerate(scores) if v == top]
    return holders[0] if len(holders) == 1 else None


def summary(rows: list[list[int]]) -> dict:
    """rows[t]: every seat's score after step t, a round of the table (rows[0]: the start).
    Returns lead_changes and, per seat, score_third, score_half, score_two_thirds and
    score_before_last_round (lists)."""
    steps = len(rows) - 1
    changes, last = 0, None
    for t in range(1, steps + 1):
        now = leader(rows[t])
        if now is None:
            continue
        if last is not None and now != last:
            changes += 1
        last = now
    before = steps - 1 if steps else 0  # the last step is the last round
    return {
        "lead_changes": changes,
        "score_third": rows[steps // 3],
        "score_half": rows[steps // 2],
        "score_two_thirds": rows[2 * steps // 3],
        "score_before_last_round": rows[before],
    }


SEAT_COLUMNS = ("score_third", "score_half", "score_two_thirds", "score_before_last_round")


def assert_matches(chunk_games: dict, chunk_seats: dict, game: int, players: int, ref: dict):
    """The chunk's trajectory columns of `game` equal the reference's."""
    assert int(chunk_games["lead_changes"][game]) == ref["lead_changes"], game
    for column in SEAT_COLUMNS:
        got = [int(chunk_seats[column][game * players + k]) for k in range(players)]
        assert got == list(ref[column]), (game, column)
