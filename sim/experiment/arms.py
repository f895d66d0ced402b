"""Expansion of an experiment into arms: one arm per sweep combination, one per entry of
`arms` (each on top of the top-level settings), or the single arm `default`.

An arm's settings are its ruleset (a preset or file, the rule overrides of the file, the sweep
and the command line, in that order), its number of players and its lineup (seats, or a pool
with a rotation; sim/experiment/lineups.py seats them at tables). The `skills` key repeats every
arm at each level (sim/experiment/skills.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sim.experiment import checks, sweep
from sim.experiment.checks import RuleGroup, SeatEntry, show
from sim.experiment.lineups import build_lineup
from sim.experiment.model import ARM_KEYS, Arm
from sim.experiment.reading import KeyPath, Reading
from sim.plugins.base import StrategySpec, player_counts


def expand(p: Reading) -> list[Arm]:
    """The experiment's arms (without the `skills` repetition)."""
    if "arms" in p.data:
        return _named_arms(p)
    base = _settings(p, p.data, ())
    grids = sweep.sweep_grids(p)
    if not grids:
        return [_make_arm(p, 0, "default", base, {})]
    arms: list[Arm] = []
    choices: list[dict[str, Any]] = []
    seen: dict[str, KeyPath] = {}
    for where, grid in grids:
        for name, chosen in sweep.combinations(grid):
            if name in seen:
                raise p.fail(f"two arms of the sweep are named '{name}'", where,
                             f"The grids at {seen[name]} and {where} both give it.")  # fmt: skip
            seen[name] = where
            arms.append(_make_arm(p, len(arms), name, base, chosen, where))
            choices.append(chosen)
    columns = sweep.column_keys(grids)  # every arm holds every column, once all are valid
    return [replace(arm, params=sweep.arm_params(columns, chosen, arm.ruleset, arm.pool))
            for arm, chosen in zip(arms, choices, strict=True)]  # fmt: skip


def _settings(p: Reading, d: Mapping[str, Any], path: KeyPath) -> dict[str, Any]:
    """Settings given at this level (top or one arm), validated where context-free."""
    out: dict[str, Any] = {}
    if "ruleset" in d:
        out["ruleset"] = (d["ruleset"], (*path, "ruleset"))
    if "rules" in d:
        rules_path = (*path, "rules")
        out["rules"] = [RuleGroup(rules_path, checks.rule_pairs(p, d["rules"], rules_path))]
    if "players" in d:
        out["players"] = (d["players"], (*path, "players"))
    if "seats" in d and "pool" in d:
        raise p.fail(
            "give either seats (one per player) or a pool to rotate, not both",
            (*path, "pool"),
        )
    if "seats" in d:
        out["seats"] = ("seats", checks.seat_entries(p, d["seats"], (*path, "seats")))
    if "pool" in d:
        out["seats"] = ("pool", checks.seat_entries(p, d["pool"], (*path, "pool")))
    if "rotate" in d:
        out["rotate"] = checks.rotate(p, d["rotate"], (*path, "rotate"))
    return out


def _named_arms(p: Reading) -> list[Arm]:
    value = p.data["arms"]
    if not isinstance(value, list) or not value:
        raise p.fail(
            f"expected a list of arms, got {show(value)}",
            ("arms",),
            "For example arms: [{name: baseline}, {name: x, rules: {shot.steal: highest}}].",
        )
    base = _settings(p, p.data, ())
    arms: list[Arm] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(value):
        path: KeyPath = ("arms", i)
        if not isinstance(item, Mapping):
            raise p.fail(f"expected a mapping with a name, got {show(item)}", path)
        for key in item:
            if key not in ARM_KEYS:
                raise p.unknown(key, ARM_KEYS, path)
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise p.fail("every arm needs a name", (*path, "name"), "For example name: baseline.")
        if name in seen:
            raise p.fail(
                f"duplicate arm name '{name}' (also arms[{seen[name]}])",
                (*path, "name"),
                "Give every arm its own name.",
            )
        seen[name] = i
        own = _settings(p, item, path)
        merged = {**base, **own}
        merged["rules"] = base.get("rules", []) + own.get("rules", [])
        arms.append(_make_arm(p, i, name, merged, {}))
    return arms


def _make_arm(
    p: Reading,
    index: int,
    name: str,
    settings: Mapping[str, Any],
    chosen: Mapping[str, Any],
    where: KeyPath = ("sweep",),
) -> Arm:
    """One arm from its settings and the values the sweep's grid at `where` chose for it
    (its parameter columns are the sweep's, filled by `expand`)."""
    players = _players(p, settings, chosen, where)
    ref, ref_path = _ruleset_ref(p, settings, chosen, where)
    groups: list[RuleGroup] = list(settings.get("rules", []))
    for k, v in sweep.rule_choices(chosen):
        groups.append(RuleGroup(where, [(k, v)]))
    if p.cli_rules:
        groups.append(RuleGroup((), list(p.cli_rules), cli=True))
    ruleset = checks.load_rules(p, ref, ref_path, groups)
    kind, entries, rotate = _seats(p, settings, chosen, players, where)
    pool = tuple(e.spec for e in entries)
    lineup, tables = build_lineup(pool, players, rotate)
    return Arm(
        index=index,
        name=name,
        ruleset_ref=ref,
        overrides=tuple(pair for group in groups for pair in group.pairs),
        ruleset=ruleset,
        players=players,
        pool=pool,
        rotate=rotate,
        lineup=lineup,
        tables=tuple(tuple(int(x) for x in row) for row in tables),
    )


def _players(
    p: Reading, settings: Mapping[str, Any], chosen: Mapping[str, Any], where: KeyPath
) -> int:
    if "players" in chosen:
        return checks.players(p, chosen["players"], (*where, "players"))
    if "players" in settings:
        return checks.players(p, *settings["players"])
    assert p.game is not None
    counts = player_counts(p.game)
    return 4 if 4 in counts else max(counts)


def _ruleset_ref(
    p: Reading, settings: Mapping[str, Any], chosen: Mapping[str, Any], where: KeyPath
) -> tuple[str, KeyPath]:
    """The arm's preset or ruleset file, and the key that names it."""
    if "ruleset" in chosen:
        value, path = chosen["ruleset"], (*where, "ruleset")
    elif "ruleset" in settings:
        value, path = settings["ruleset"]
    else:
        assert p.game is not None
        value, path = p.game.presets[0], ("ruleset",)
    return checks.ruleset_ref(p, value, path), path


def _seats(
    p: Reading,
    settings: Mapping[str, Any],
    chosen: Mapping[str, Any],
    players: int,
    where: KeyPath,
) -> tuple[str, list[SeatEntry], str]:
    """(seats or pool, the checked entries with the sweep's choices, the rotation)."""
    kind, entries = settings.get("seats", ("seats", None))
    if entries is None:
        raise p.fail(
            "no strategies given",
            ("seats",),
            "Add seats: [greedy, greedy, greedy, greedy] (one per player) or a pool.",
        )
    entries = list(entries)
    rotate = settings.get("rotate", "cyclic" if kind == "pool" else "none")
    seats_path = entries[0].path[:-1]
    if len(entries) == 1 and kind == "seats":
        entries = [SeatEntry(entries[0].spec, entries[0].path, entries[0].cli)] * players
    param_paths = _swept_seats(p, entries, chosen, where)
    for t, entry in enumerate(entries):
        checks.check_entry(p, entry, param_paths.get(t))
    if kind == "seats" and len(entries) != players:
        blame = (*where, "players") if "players" in chosen else seats_path
        raise p.fail(
            f"{len(entries)} seats for {players} players",
            blame,
            "List one strategy per player (or a single one for every seat), "
            "or use a pool with rotate.",
        )
    if kind == "pool" and len(entries) < players:
        raise p.fail(
            f"a pool of {len(entries)} strategies cannot fill {players} seats",
            seats_path,
            "Add strategies to the pool, or list the seats instead.",
        )
    if kind == "pool" and rotate == "none":
        rotate = "cyclic"
    return kind, entries, rotate


def _swept_seats(
    p: Reading, entries: list[SeatEntry], chosen: Mapping[str, Any], where: KeyPath
) -> dict[int, dict[str, KeyPath]]:
    """Put the sweep's `seats.*` choices into the entries (in place); returns the sweep key
    of each swept parameter, per entry, for the strategy check's errors."""
    param_paths: dict[int, dict[str, KeyPath]] = {}
    for key, value in chosen.items():
        m = sweep.SEAT_KEY_RE.match(key)
        if not m:
            continue
        which, param = m.group(1), m.group(2)
        targets = range(len(entries)) if which == "all" else [int(which)]
        for t in targets:
            if t >= len(entries):
                raise p.fail(
                    f"there is no seat entry {t} (the lineup has {len(entries)})",
                    (*where, key),
                )
            spec = entries[t].spec
            if param:
                params = dict(spec.params)
                params[param] = value
                spec = StrategySpec(spec.name, tuple(sorted(params.items())))
                param_paths.setdefault(t, {})[param] = (*where, key)
                entries[t] = SeatEntry(spec, entries[t].path, entries[t].cli)
            elif isinstance(value, Mapping):  # {name: club, shop: 1}: on top of the entry's
                named = checks.seat_entry(p, value, (*where, key)).spec
                params = {**dict(spec.params), **dict(named.params)}
                spec = StrategySpec(named.name, tuple(sorted(params.items())))
                entries[t] = SeatEntry(spec, (*where, key))
            else:
                if not isinstance(value, str):
                    raise p.fail(
                        f"expected a strategy name or {{name: ..., parameter: value}}, got "
                        f"{show(value)}",
                        (*where, key),
                    )
                entries[t] = SeatEntry(StrategySpec(value, spec.params), (*where, key))
    return param_paths
