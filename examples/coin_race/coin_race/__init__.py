"""Coin race: a toy game that shows how a game plugs into the balance lab."""
