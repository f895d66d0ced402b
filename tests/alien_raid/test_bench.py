"""bench_rows() measures whole games per pool (a few games here: the figures are not tested)."""

from sim.games.alien_raid.bench import POOLS, bench_rows


def test_bench_rows_are_well_formed():
    rows = bench_rows(games=40, repeats=1, pools=("naive pool", "strong"))
    assert [row["pool"] for row in rows] == ["naive pool", "strong"]
    assert rows[0]["strategy"] == "+".join(POOLS["naive pool"])
    assert all(row["games_per_s_per_core"] > 0 and row["players"] == 4 for row in rows)
    assert rows[1]["games"] == 20  # slow pools play a share of the games (at least 20)
