"""No Thanks!, the card game of Thorsten Gimmler (Amigo 2004), for the balance lab (game.py)."""
