"""Pig, the jeopardy dice game, written against the lab's plain-Python interface (game.py)."""
