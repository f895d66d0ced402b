"""Every Space Invaders rule key: its type, range, meaning and the engine's params slot it is
read from (docs/games/space_invaders/rules.md gives the rulebook line and the reading behind each),
and the checks across keys.

Three groups of keys are filled from data files unless a ruleset sets them (ruleset.py):
`geometry.*` from the geometry file `geometry.file`, the `dexterity.*` numbers from the skill
preset `dexterity.skill` (rulesets/dexterity-presets.yaml), `catalog.digest` from
`catalog.file`. Keys without a slot reach the engine through params.py (the numbers that
depend on the player count, the data files' arrays, values the engine reads scaled).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sim.config.fields import Field, Schema
from sim.games.space_invaders import layout as L
from sim.rulesets import switch as _flag

LEVELS = ("training", "standard", "expert", "elite")
DEXTERITIES = ("child", "casual", "practised", "custom")  # the presets of `dexterity.skill`


def _deck(doc: str, plain: str) -> Field:
    """A row of the difficulty chart: invader cards by level."""
    return Field("int_list", min=1, max=L.MAX_CARDS, length=4, doc=doc, plain=plain)


def _health(doc: str, plain: str) -> Field:
    """A row of the difficulty chart: health by level."""
    return Field("int_list", min=1, max=L.TRACK_MAX, length=4, doc=doc, plain=plain)


# Each key with its plain name (how a report, a tune or a compare page says it in a sentence;
# the key itself stays in tables).
RULE_SCHEMA: Schema = {
    "setup.level": Field("choice", choices=LEVELS, slot=L.P_LEVEL,
                         doc="difficulty level (lines 134-167)", plain="the level"),
    "setup.deck_size": Field("int", min=0, max=L.MAX_CARDS,
                             doc="invader cards; 0 = from the chart (chart.deck_*p at the level)",
                             plain="the invader deck"),
    "setup.planet_health": Field("int", min=0, max=L.TRACK_MAX,
                                 doc="0 = from the chart (chart.planet_health at the level); "
                                 "else this many (variant, line 469)", plain="the planet's health"),
    "setup.ufo_health": Field("int", min=0, max=L.TRACK_MAX,
                              doc="0 = from the chart (chart.ufo_*p at the level); else this "
                              "many (variant, line 469)", plain="the UFO's health"),
    "setup.rows": Field("int", min=3, max=L.ROWS, slot=L.P_ROWS,
                        doc="4, or 3: the top row removed (line 468)", plain="the board's rows"),
    "setup.solo_hands": Field("int", min=2, max=L.MAX_SEATS,
                              doc="hands of a 1-player game (line 102)",
                              plain="a solo game's hands"),
    "chart.deck_2p": _deck("deck by level, 2 players (line 135)", "the 2-player deck chart"),
    "chart.deck_3p": _deck("3 players (line 136)", "the 3-player deck chart"),
    "chart.deck_4p": _deck("4 players (line 137)", "the 4-player deck chart"),
    "chart.planet_health": _health("by level (line 160)", "the planet health chart"),
    "chart.ufo_2p": _health("UFO health by level, 2 players (165)", "the 2-player UFO chart"),
    "chart.ufo_3p": _health("3 players (line 166)", "the 3-player UFO chart"),
    "chart.ufo_4p": _health("4 players (line 167)", "the 4-player UFO chart"),
    "tokens.per_level": Field("int_list", min=0, max=7, length=L.LEVELS, slot=L.P_PER_LEVEL,
                              doc="on the cards (114)", plain="tokens per level"),
    "tokens.start_active": Field("int", min=1, max=7, doc="active level-1 tokens (line 116)",
                                 plain="the starting active tokens"),
    "tokens.start_active_2p": Field("int", min=1, max=7, doc="in a 2-player game (line 122)",
                                    plain="a 2-player game's starting tokens"),
    "launch.planet_relaunch": _flag(L.P_PLANET_RELAUNCH,
                                    "re-launch from the planet area (206, 467)",
                                    plain="re-launch from the planet"),
    "launch.planet_streak": Field("int", min=1, max=10, slot=L.P_PLANET_STREAK,
                                  doc="planet landings in a row (206)",
                                  plain="planet landings in a row"),
    "hit.rule": _flag(L.P_HIT_CENTER, "on a card (line 218)", ("overlap", "center"), "center",
                      plain="what counts as a hit"),
    "two_hit.second_hit": _flag(L.P_TWO_HIT_OTHERS, "lines 223 and 386",
                                ("any_token", "other_player"), "other_player",
                                plain="a two-hit invader's second hit"),
    "reinforcements.enabled": _flag(L.P_REINFORCE, "explosion icons send tokens (line 288)",
                                    plain="reinforcements"),
    "reinforcements.each_icon": _flag(L.P_REINF_ONCE, "an icon reached again after a heal",
                                      ("every_time", "once"), "once", plain="a reached icon"),
    "last_round.at_most": Field("int", min=0, max=L.N_CELLS, slot=L.P_LAST_AT,
                                doc="invaders left (line 308)",
                                plain="the invaders left for a last round"),
    "last_round.damage_multiplier": Field("int", min=1, max=5, slot=L.P_LAST_MULT,
                                          doc="line 310", plain="the last round's damage"),
    "last_round.crashed_score": _flag(L.P_CRASH_SCORES,
                                      "crashed icon invaders score (312, 369)",
                                      plain="crashed invaders' scores"),
    "final_assault.tokens": _flag(L.P_FINAL_UNLAUNCHED, "after an early end (322, 330)",
                                  ("all_active", "unlaunched"), "unlaunched",
                                  plain="the final assault's tokens"),
    "final_assault.order": _flag(L.P_ASSAULT_ROTATION, "a player's tokens in a row (line 330)",
                                 ("block", "rotation"), "rotation",
                                 plain="the final assault's order"),
    "final_assault.ufo_damage": Field("int", min=0, max=40, slot=L.P_UFO_ATTACK,
                                      doc="line 333", plain="the UFO's attack"),
    "powers.called_shot_success": _flag(L.P_CALLED_DESTROYED, "lines 410 and 222",
                                        ("landed", "destroyed"), "destroyed",
                                        plain="a called shot"),
    "powers.bonus_shot_hits_invaders": _flag(L.P_BONUS_HITS,
                                             "bonus shots at the UFO (410, 419)",
                                             plain="bonus shots at invaders"),
    "powers.ufo_relaunch": _flag(L.P_UFO_CHAIN, "line 413", ("chain", "once"), "chain",
                                 plain="the UFO re-launch"),
    "powers.long_wave": _flag(L.P_LONG_DESTROYS, "line 424", ("hit", "destroy"), "destroy",
                              plain="the long blast wave"),
    "powers.heal_cap": _flag(L.P_HEAL_TO_START, "line 434", ("track", "start"), "start",
                             plain="the heal's cap"),
    "powers.extra_hit": _flag(L.P_EXTRA_MAY, "line 436", ("must", "may"), "may",
                              plain="the extra hit"),
    "powers.dead_ufo_counts": _flag(L.P_DEAD_UFO_HITS,
                                    "a destroyed UFO can be attacked (335, 368)",
                                    plain="attacks on a destroyed UFO"),
    # the engine reads the power's id (its index here: POWER_NAMES with none for plain, 0)
    "powers.plain": Field("choice", choices=("none", *L.POWER_NAMES[1:]), slot=L.P_PLAIN_POWER,
                          doc="this power plays as a plain token", plain="the plain power"),
    "dexterity.skill": Field("choice", choices=DEXTERITIES, doc="preset of the numbers below",
                             plain="the dexterity"),
    "dexterity.spread_mm": Field("float", min=0, max=500, doc="sd across the shot at 300 mm",
                                 plain="the shot spread"),
    "dexterity.length_ratio": Field("float", min=0.1, max=10, slot=L.P_LENGTH_RATIO,
                                    doc="sd along / sd across", plain="the shot's length ratio"),
    "dexterity.floor_mm": Field("float", min=0, max=100, slot=L.P_FLOOR,
                                doc="sd at zero distance", plain="the spread floor"),
    "dexterity.bias_mm": Field("float", min=-300, max=300, doc="mean error along, at 300 mm",
                               plain="the shot bias"),
    "dexterity.wild_pct": Field("float", min=0, max=100, doc="chance of a wild shot (%)",
                                plain="wild shots"),
    "catalog.file": Field("str", doc="invader deck: a shipped name (default, fast, ...) or path",
                          plain="the invader catalog"),
    "catalog.digest": Field("str", doc="filled: content hash of the catalog file",
                            plain="the catalog's digest"),
    "geometry.file": Field("str", doc="measurements: a shipped name (default, ...) or a path",
                           plain="the board measurements"),
    "end.round_cap": Field("int", min=10, max=10000, slot=L.P_ROUND_CAP,
                           doc="safety net: outcome `cap`", plain="the round cap"),
}  # fmt: skip
DEXTERITY_KEYS = ("spread_mm", "length_ratio", "floor_mm", "bias_mm", "wild_pct")
DEXTERITY_SCHEMA: Schema = {key: RULE_SCHEMA[f"dexterity.{key}"] for key in DEXTERITY_KEYS}


def _mm(low: float, high: float, doc: str, slot: int | None = None, *, plain: str) -> Field:
    return Field("float", min=low, max=high, doc=doc, slot=slot, plain=plain)


# the keys of a geometry file; in a ruleset, each is `geometry.<key>`
GEOMETRY_SCHEMA: Schema = {
    "card_width_mm": _mm(10, 300, "invader card width", L.P_CARD_W, plain="a card's width"),
    "card_height_mm": _mm(10, 300, "invader card height", L.P_CARD_H, plain="a card's height"),
    "gap_x_mm": _mm(0, 200, "gap between spaces, across", plain="the gap across"),
    "gap_y_mm": _mm(0, 200, "gap between spaces, up", plain="the gap up"),
    "grid_left_mm": _mm(0, 1000, "board's left edge to column 1", L.P_GRID_X0,
                        plain="the grid's left edge"),
    "board_width_mm": _mm(50, 3000, "board width", L.P_BOARD_W, plain="the board's width"),
    "planet_depth_mm": _mm(0, 1000, "bottom edge to the dotted line", L.P_PLANET_LINE,
                           plain="the planet area's depth"),
    "planet_gap_mm": _mm(0, 1000, "dotted line to the bottom row", plain="the planet gap"),
    "top_margin_mm": _mm(0, 1000, "top row to the board's top edge", plain="the top margin"),
    "token_diameter_mm": _mm(1, 200, "blast token", plain="the token's diameter"),
    "ufo_width_mm": _mm(1, 1000, "UFO opening width", plain="the UFO opening's width"),
    "ufo_depth_mm": _mm(1, 1000, "UFO opening depth", plain="the UFO opening's depth"),
    "ufo_gap_mm": _mm(0, 1000, "board's top edge to the opening", plain="the UFO gap"),
    "shooter_y_mm": _mm(-1000, 5000, "launch point, from the board's bottom edge",
                        L.P_SHOOTER_Y, plain="the launch point"),
    "wave_short_mm": _mm(0, 1000, "short blast wave", L.P_WAVE_SHORT, plain="the short blast wave"),
    "wave_long_mm": _mm(0, 1000, "long blast wave", L.P_WAVE_LONG, plain="the long blast wave"),
    "wild_margin_mm": _mm(0, 2000, "wild shots: margin around the board", L.P_WILD_MARGIN,
                          plain="the wild shots' margin"),
    "explosions_2p": Field("int_list", min=1, max=L.TRACK_MAX,
                           doc="explosion icons, 2-player side",
                           plain="the 2-player explosion icons"),
    "explosions_3_4p": Field("int_list", min=1, max=L.TRACK_MAX,
                             doc="explosion icons, 3-4 player side",
                             plain="the 3-4 player explosion icons"),
}  # fmt: skip

SCHEMA: Schema = {
    **RULE_SCHEMA,
    **{f"geometry.{key}": field for key, field in GEOMETRY_SCHEMA.items()},
}
# filled from the data files when a ruleset does not set them
FILLED = (
    "catalog.digest",
    *(f"dexterity.{key}" for key in DEXTERITY_KEYS),
    *(f"geometry.{key}" for key in GEOMETRY_SCHEMA),
)


def cross_key_problems(v: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], str]]:
    """(keys involved, message) for every rule broken by a combination of keys."""
    width = v["geometry.grid_left_mm"] + 5 * v["geometry.card_width_mm"]
    width += 4 * v["geometry.gap_x_mm"]
    if width > v["geometry.board_width_mm"]:
        yield (
            ("geometry.board_width_mm", "geometry.card_width_mm", "geometry.grid_left_mm"),
            f"the five columns end at {width:g} mm, beyond geometry.board_width_mm "
            f"({v['geometry.board_width_mm']:g})",
        )
    if v["geometry.shooter_y_mm"] > v["geometry.planet_depth_mm"]:
        yield (
            ("geometry.shooter_y_mm", "geometry.planet_depth_mm"),
            "the shooter must stay below the planet area's top line (line 202)",
        )
    if v["tokens.start_active"] > v["tokens.per_level"][0]:
        yield (("tokens.start_active", "tokens.per_level"),
               "more active level-1 tokens than level-1 tokens (line 116)")  # fmt: skip
    if v["tokens.start_active_2p"] > v["tokens.per_level"][0]:
        yield (("tokens.start_active_2p", "tokens.per_level"),
               "more active level-1 tokens than level-1 tokens (line 122)")  # fmt: skip
