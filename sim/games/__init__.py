"""The games, one package each (guardians, space_invaders, alien_raid): the rules, the compiled
loop, the report sections and the measures of a game, and its plug-in object (plugin.py), the
one place where the lab, the rules and the game's players (strategies/<game>/) meet. What a
plug-in offers the lab, and how the lab finds it, is sim/plugins/."""
