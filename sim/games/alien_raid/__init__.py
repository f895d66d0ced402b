"""The alien-raid card game (rulebook 002): captains buy ships, raid Earth's cities, fight each
other with dice and chase the Alliance's tasks. Light on purpose: the plug-in object lives in
plugin.py and imports the compiled rules only when a game is played."""
