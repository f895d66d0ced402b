"""A catalog's ship models (every model but the stations), read from the params in plain
Python: a test module that lists them at import compiles nothing (every module is collected
while the suite's engines compile; tests/test_marks.py). test_attack checks it against
cards.is_station."""

from sim.games.alien_raid import layout as L


def ship_models(p) -> list[int]:
    kind = L.P_MODELS + L.M_KIND
    return [m for m in range(p[L.P_N_MODELS]) if p[kind + m * L.MODEL_SIZE] != L.STATION]
