"""Space Invaders (Buffalo Games 2021): a cooperative dexterity game, as a game plug-in.

Light on purpose: importing the package loads nothing compiled. The plug-in object lives in
`plugin.py`; the rules in `engine.py` (turns), `board.py` (geometry and hits), `advance.py`
(the invaders' march) on the state laid out in `layout.py`.
"""
