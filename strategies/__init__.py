"""Heuristic players, one package per game, one file per strategy."""
