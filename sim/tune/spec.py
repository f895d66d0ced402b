"""A tune file: an experiment (the keys of `sim run`, read by the experiment parser) plus
`tune:` (the knobs), `targets:` and `search:`; validated before any game is played, every
error naming the file, the line, the key and a fix.

    search:
      trials: 24          # candidates the search tries (duplicates reuse their games)
      games: [500, 2000]  # games per arm at each rung: every candidate starts on the first
      keep: 0.25          # the share of candidates that goes on to the next rung
      confirm: 3          # the best candidates replayed at the experiment's `games`
      sampler: auto       # auto | grid | tpe | nsga2
      objectives: combined   # combined (one score) | separate (one per objective: NSGA-II)
"""

from __future__ import annotations

import copy
import fnmatch
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.config.files import load_value, read_yaml
from sim.config.keys import flatten
from sim.errors import ConfigError
from sim.experiment import Experiment, parse_experiment
from sim.experiment.command_line import Override
from sim.experiment.command_line import pairs as command_line_pairs
from sim.experiment.reading import Reading
from sim.measures import UnknownMeasure, registry_for
from sim.stats.tolerances import resolve
from sim.tune.knobs import Knob, KnobError, parse_knob, rule_values, space_size
from sim.tune.targets import (
    COMBINE,
    TARGET_KEYS,
    Place,
    Target,
    at_level,
    parse_band,
    places,
)

TUNE_KEYS = ("tune", "targets", "search", "screen")  # screen: sim/tune/screen.py
OWN_SET = ("search", "screen")  # the tune's keys --set may set
NOT_IN_A_TUNE = {
    "precision": "A tune sets its own sizes: search.games for the rungs, games for the "
                 "confirmation.",
    "report": "A tune writes its own report.",
}  # fmt: skip
SCREEN_KEYS = ("keys", "step")
DEFAULT_STEP = 0.1  # screening: 10% of each value
SEARCH_KEYS = ("trials", "games", "keep", "confirm", "sampler", "objectives")
SAMPLERS = ("auto", "grid", "tpe", "nsga2")
OBJECTIVES = ("combined", "separate")
DEFAULT_TRIALS = 24
DEFAULT_KEEP = 0.25
DEFAULT_CONFIRM = 3
MIN_RUNG = 100


@dataclass(frozen=True)
class Search:
    trials: int
    rungs: tuple[int, ...]  # games per arm at each rung, rising
    keep: float
    confirm: int
    sampler: str
    objectives: str


@dataclass(frozen=True)
class Screen:
    """What `sim screen` moves: numeric rule keys, each by a relative step."""

    keys: tuple[str, ...]
    step: float


@dataclass(frozen=True)
class Tune:
    experiment: Experiment  # the experiment as written (validated)
    data: dict[str, Any]  # its keys, for the candidates' experiments
    overrides: tuple[Override, ...]  # --set, --games, --seed: (key, value, option)
    knobs: tuple[Knob, ...]
    targets: tuple[Target, ...]
    search: Search
    places: tuple[Place, ...]  # every arm (at every level) of the experiment
    base_values: Mapping[str, Any]  # the list keys' values the knobs' elements change
    screen: Screen
    file: str | None = None
    text: str = ""

    @property
    def name(self) -> str:
        return self.experiment.name

    @property
    def games(self) -> int:
        """Games per arm of the confirmation (the experiment's `games`)."""
        return self.experiment.games

    def rules(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The rule overrides a candidate's knob values make."""
        return rule_values(self.knobs, values, self.base_values)

    def candidate(self, values: Mapping[str, Any]) -> Experiment:
        """The experiment of one candidate: the file's, with the knobs' values as rules."""
        data = copy.deepcopy(self.data)
        data["rules"] = {**flatten(data.get("rules") or {}, file=self.file),
                         **self.rules(values)}  # fmt: skip
        return parse_experiment(data, file=self.file, text=self.text, overrides=self.overrides)

    def fingerprint(self) -> str:
        """What decides the search's trials (not their number nor the confirmation)."""
        what = {
            "experiment": self.experiment.fingerprint(),
            "knobs": [repr(k) for k in self.knobs],
            "targets": [repr(t) for t in self.targets],
            "search": [self.search.rungs, self.search.keep, self.search.sampler,
                       self.search.objectives],
        }  # fmt: skip
        canonical = json.dumps(what, sort_keys=True, default=str)
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def load_tune(path: str | Path, overrides: Sequence[str] = (), *, games: int | None = None,
              seed: int | None = None, trials: int | None = None,
              needs_knobs: bool = True) -> Tune:  # fmt: skip
    """Read and validate a tune file (`--set`, `--games`, `--seed`, `--trials` applied);
    screening (`needs_knobs=False`) needs no `tune:`."""
    path = Path(path)
    data = read_yaml(path)
    text = path.read_text(encoding="utf-8")
    return parse_tune(data, file=str(path), text=text,
                      overrides=command_line_pairs(overrides, games=games, seed=seed),
                      trials=trials, needs_knobs=needs_knobs)  # fmt: skip


def parse_tune(data: Mapping[str, Any], *, file: str | None = None, text: str = "",
               overrides: Sequence[Override] = (), trials: int | None = None,
               needs_knobs: bool = True) -> Tune:  # fmt: skip
    """Validate a tune given as a mapping (the content of a tune file); `--set search.KEY=V`
    and `--set screen.KEY=V` set the tune's own keys, the others the experiment's."""
    data, overrides, cli_paths = _own_overrides(data, overrides)
    where = _Where(data, file, text, cli_paths)
    experiment_data = {k: v for k, v in data.items() if k not in TUNE_KEYS}
    for key, why in NOT_IN_A_TUNE.items():
        if key in experiment_data:
            raise where.fail(f"{key} is not a key of a tune", (key,), why)
    if "targets" not in data:
        raise where.fail("a tune needs targets", (), "Add targets: [{measure: ..., value: ...}].")
    if needs_knobs and "tune" not in data:
        raise where.fail("a tune needs knobs", (),
                         "Add tune: {missile.cost: {low: 6, high: 20}}.")  # fmt: skip
    exp = parse_experiment(experiment_data, file=file, text=text, overrides=list(overrides))
    arms = tuple(Place(a.name, a.base_arm or a.name, a.skill) for a in exp.arms)
    knobs = _knobs(where, data.get("tune") or {}, exp, experiment_data, overrides)
    base_values = {k.key: exp.arms[0].ruleset.values[k.key] for k in knobs if k.index is not None}
    targets = _targets(where, data["targets"], exp, arms)
    search = _search(where, data.get("search") or {}, exp, knobs, trials)
    screen = _screen(where, data.get("screen") or {}, exp, knobs)
    tune = Tune(exp, experiment_data, tuple(overrides), knobs, targets, search, arms,
                base_values, screen, file, text)  # fmt: skip
    _check_ends(where, tune)
    return tune


# --- where a key is written -----------------------------------------------------------------


class _Where:
    """Errors placed as the experiment parser places them: the file, the line, the key (or
    --set, for a key the command line set)."""

    def __init__(self, data: Mapping[str, Any], file: str | None, text: str,
                 cli_paths: Sequence[tuple] = ()) -> None:  # fmt: skip
        origin = {tuple(path): "--set" for path in cli_paths}
        self._reading = Reading(dict(data), file=file, text=text, origin=origin)

    def fail(self, message: str, path: tuple, hint: str | None = None) -> ConfigError:
        return self._reading.fail(message, path, hint)


def _own_overrides(data: Mapping[str, Any], overrides: Sequence[Override]
                   ) -> tuple[dict[str, Any], list[Override], list[tuple]]:  # fmt: skip
    """(the data with the command line's search.* and screen.* keys set, the other
    overrides, the paths the command line set)."""
    out = copy.deepcopy(dict(data))
    rest, paths = [], []
    for key, raw, option in overrides:
        head, _, sub_key = key.partition(".")
        if head not in OWN_SET or not sub_key:
            rest.append((key, raw, option))
            continue
        section = out.get(head)
        out[head] = section = dict(section) if isinstance(section, Mapping) else {}
        section[sub_key] = load_value(raw) if isinstance(raw, str) else raw
        paths.append((head, sub_key))
    return out, rest, paths


# --- knobs ------------------------------------------------------------------------------------


def _knobs(where: _Where, spec: Any, exp: Experiment, data: Mapping[str, Any],
           overrides: Sequence[Override]) -> tuple[Knob, ...]:  # fmt: skip
    if not isinstance(spec, Mapping):
        raise where.fail("expected a mapping of rule keys to ranges or choices", ("tune",),
                         "For example tune: {missile.cost: {low: 6, high: 20}}.")  # fmt: skip
    values = exp.arms[0].ruleset.values
    fixed = _fixed_elsewhere(data, overrides)
    knobs = []
    for name, knob_spec in spec.items():
        name = str(name)
        path = ("tune", name)
        key = name.split("[")[0]
        if key not in values:
            preset = exp.arms[0].ruleset_name
            raise where.fail(f"{key} is not a rule key of {preset}", path,
                             f"`sim rules show {preset}` lists them.")  # fmt: skip
        if key in fixed:
            raise where.fail(f"{key} is a knob, but {fixed[key]} sets it too", path,
                             "A knob's value comes from the search: remove the other.")  # fmt: skip
        for arm in exp.arms[1:]:
            if name.endswith("]") and arm.ruleset.values.get(key) != values[key]:
                raise where.fail(f"the arms start {key} from different lists", path,
                                 "Give the list once, in the top-level rules.")  # fmt: skip
        try:
            knobs.append(parse_knob(name, knob_spec, values[key]))
        except KnobError as err:
            raise where.fail(err.message, path, err.hint or None) from None
    if len({k.name for k in knobs}) != len(knobs):
        raise where.fail("a knob is given twice", ("tune",))
    return tuple(knobs)


def _fixed_elsewhere(data: Mapping[str, Any], overrides: Sequence[Override]
                     ) -> dict[str, str]:  # fmt: skip
    """Rule keys a knob may not be: set by an arm, swept, or set on the command line."""
    out: dict[str, str] = {}
    for key, _, _ in overrides:
        out.setdefault(_rule_key(key), "--set")
    sweep = data.get("sweep")
    if isinstance(sweep, Mapping):
        for key in flatten(sweep):
            out.setdefault(_rule_key(key), "the sweep")
    for i, arm in enumerate(data.get("arms") or []):
        if isinstance(arm, Mapping) and isinstance(arm.get("rules"), Mapping):
            for key in flatten(arm["rules"]):
                out.setdefault(_rule_key(key), f"arms[{i}].rules")
    return out


def _rule_key(key: str) -> str:
    return key[len("rules.") :] if key.startswith("rules.") else key


def _check_ends(where: _Where, tune: Tune) -> None:
    """Every knob's ends (or choices), each with the other knobs as the experiment has
    them, must be rules the game accepts."""
    current = {k.name: _current(tune, k) for k in tune.knobs}
    for knob in tune.knobs:
        tried = list(knob.choices) if knob.kind == "choice" else [knob.low, knob.high]
        if knob.kind == "int":
            tried = [int(v) for v in tried]
        for value in tried:
            try:
                tune.candidate({**current, knob.name: value})
            except ConfigError as err:
                raise where.fail(f"{value!r} is not a value the rules accept: {err.message}",
                                 ("tune", knob.name), err.hint) from None  # fmt: skip


def _current(tune: Tune, knob: Knob) -> Any:
    value = tune.experiment.arms[0].ruleset.values[knob.key]
    return value[knob.index] if knob.index is not None else value


# --- targets ----------------------------------------------------------------------------------


def _targets(where: _Where, spec: Any, exp: Experiment, arms: tuple[Place, ...]
             ) -> tuple[Target, ...]:  # fmt: skip
    if isinstance(spec, Mapping):
        spec = [spec]
    if not isinstance(spec, list) or not spec:
        raise where.fail("expected a list of targets", ("targets",), "For example targets: "
                         "[{measure: raid_rate, band: [0.2, 0.3]}].")  # fmt: skip
    registry = registry_for(exp.game)
    share_default = resolve(dict(exp.tolerances))["target_share"].value
    levels = tuple(dict.fromkeys(p.level for p in arms if p.level))
    bases = tuple(dict.fromkeys(p.base_arm for p in arms))
    out = []
    for i, item in enumerate(spec):
        path = ("targets", i)
        if not isinstance(item, Mapping):
            raise where.fail("expected a mapping: measure, value or band, tolerance ...", path)
        for key in item:
            if key not in TARGET_KEYS:
                raise where.fail("unknown key", (*path, str(key)),
                                 f"A target has {', '.join(TARGET_KEYS)}.")  # fmt: skip
        if not isinstance(item.get("measure"), str) or not item["measure"]:
            raise where.fail("a target needs a measure", (*path, "measure"),
                             "A name from the game's registry, e.g. raid_rate.")  # fmt: skip
        try:
            low, high = parse_band(item)
        except ValueError as err:
            raise where.fail(str(err), (*path, "band" if "band" in item else "value"),
                             "For example value: 0 or band: [0.2, 0.3].") from None  # fmt: skip
        skills = _names(where, item.get("skills"), levels, (*path, "skills"), "skill level")
        chosen = _names(where, item.get("arms"), bases, (*path, "arms"), "arm")
        combine = item.get("combine", "worst")
        if combine not in COMBINE:
            raise where.fail(f"unknown way to combine: {combine!r}", (*path, "combine"),
                             "worst (one objective over every place) or each (one per "
                             "place).")  # fmt: skip
        measure = _measure(where, registry, item["measure"], skills or levels, path)
        tolerance = _tolerance(where, item, measure.unit, path, share_default)
        target = Target(item["measure"], low, high, tolerance, measure.unit, measure.label,
                        skills, chosen, combine, str(item.get("name") or ""))  # fmt: skip
        if not places(target, arms):
            raise where.fail("this target is measured nowhere", path,
                             "Check its arms and skills against the experiment's.")  # fmt: skip
        out.append(target)
    return tuple(out)


def _names(where: _Where, value: Any, known: tuple[str, ...], path: tuple, what: str
           ) -> tuple[str, ...]:  # fmt: skip
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise where.fail(f"expected a list of {what} names", path)
    for v in value:
        if v not in known:
            have = ", ".join(known) if known else "none (the experiment has no `skills`)"
            raise where.fail(f"unknown {what} {v!r}", path, f"The experiment's: {have}.")
    return tuple(value)


def _measure(where: _Where, registry: Any, name: str, levels: Sequence[str], path: tuple):
    """The measure (at every level it is asked at); the first level's stands for its unit."""
    found = []
    for level in levels or [None]:
        try:
            found.append(registry.get(at_level(name, level)))
        except UnknownMeasure as err:
            raise where.fail(err.message, (*path, "measure"), err.hint) from None
    return found[0]


def _tolerance(where: _Where, item: Mapping[str, Any], unit: str, path: tuple,
               share_default: float) -> float:  # fmt: skip
    """The target's own tolerance; a share's default is the `target_share` tolerance (the
    experiment's `tolerances` key, else sim/stats/tolerances.py's)."""
    if "tolerance" not in item:
        if unit == "share":
            return share_default
        raise where.fail("this measure is not a share: give its tolerance", (*path, "tolerance"),
                         "How close counts as met, in the measure's units, e.g. "
                         "tolerance: 2.")  # fmt: skip
    tol = item["tolerance"]
    if isinstance(tol, bool) or not isinstance(tol, int | float) or tol <= 0:
        raise where.fail(f"expected a positive number, got {tol!r}", (*path, "tolerance"))
    return float(tol)


# --- search -----------------------------------------------------------------------------------


def _search(where: _Where, spec: Any, exp: Experiment, knobs: Sequence[Knob],
            trials: int | None) -> Search:  # fmt: skip
    if not isinstance(spec, Mapping):
        raise where.fail("expected a mapping", ("search",), f"Keys: {', '.join(SEARCH_KEYS)}.")
    for key in spec:
        if key not in SEARCH_KEYS:
            raise where.fail("unknown key", ("search", str(key)),
                             f"search has {', '.join(SEARCH_KEYS)}.")  # fmt: skip
    n = trials if trials is not None else spec.get("trials", DEFAULT_TRIALS)
    n = _positive_int(where, n, ("search", "trials"))
    size = space_size(knobs)
    rungs = spec.get("games", _default_rungs(exp.games))
    if isinstance(rungs, int):
        rungs = [rungs]
    if not isinstance(rungs, list) or not rungs:
        raise where.fail("expected a list of games per arm, rising", ("search", "games"),
                         "For example games: [500, 2000].")  # fmt: skip
    rungs = [_positive_int(where, g, ("search", "games")) for g in rungs]
    if rungs != sorted(set(rungs)) or rungs[-1] > exp.games:
        raise where.fail(f"the rungs must rise and stay at most games ({exp.games:,})",
                         ("search", "games"), "For example games: [500, 2000].")  # fmt: skip
    keep = spec.get("keep", DEFAULT_KEEP)
    if isinstance(keep, bool) or not isinstance(keep, int | float) or not 0 < keep <= 1:
        raise where.fail(f"expected a share in (0, 1], got {keep!r}", ("search", "keep"))
    confirm = _positive_int(where, spec.get("confirm", DEFAULT_CONFIRM), ("search", "confirm"))
    sampler = spec.get("sampler", "auto")
    if sampler not in SAMPLERS:
        raise where.fail(f"unknown sampler {sampler!r}", ("search", "sampler"),
                         f"One of {', '.join(SAMPLERS)}.")  # fmt: skip
    if sampler == "grid" and size == float("inf"):
        raise where.fail("a grid needs every knob to have a step or choices",
                         ("search", "sampler"), "Give each float knob a step.")  # fmt: skip
    objectives = spec.get("objectives", "combined")
    if objectives not in OBJECTIVES:
        raise where.fail(f"unknown objectives {objectives!r}", ("search", "objectives"),
                         "combined (one score) or separate (one objective each).")  # fmt: skip
    return Search(n, tuple(rungs), float(keep), confirm, sampler, objectives)


def _screen(where: _Where, spec: Any, exp: Experiment, knobs: Sequence[Knob]) -> Screen:
    """The keys `sim screen` moves: the patterns of screen.keys, else the knobs' keys, else
    every numeric rule key."""
    if not isinstance(spec, Mapping):
        raise where.fail("expected a mapping", ("screen",),
                         "For example screen: {keys: [missile.cost], step: 0.1}.")  # fmt: skip
    for key in spec:
        if key not in SCREEN_KEYS:
            raise where.fail("unknown key", ("screen", str(key)),
                             f"screen has {', '.join(SCREEN_KEYS)}.")  # fmt: skip
    step = spec.get("step", DEFAULT_STEP)
    if isinstance(step, bool) or not isinstance(step, int | float) or step <= 0:
        raise where.fail(f"expected a positive share, got {step!r}", ("screen", "step"),
                         "For example step: 0.1 (10% of each value).")  # fmt: skip
    values = exp.arms[0].ruleset.values
    numeric = [k for k, v in values.items()
               if isinstance(v, int | float) and not isinstance(v, bool)]  # fmt: skip
    patterns = spec.get("keys")
    if patterns is None:
        plain = [k.key for k in knobs if k.numeric and k.index is None]
        return Screen(tuple(plain or numeric), float(step))
    if isinstance(patterns, str):
        patterns = [patterns]
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        raise where.fail("expected a list of rule keys or patterns", ("screen", "keys"))
    chosen = [k for k in numeric if any(fnmatch.fnmatchcase(k, p) for p in patterns)]
    if not chosen:
        raise where.fail("names no numeric rule key", ("screen", "keys"),
                         "Keys or patterns such as missile.cost or "
                         "'catalog.ships.*.price'.")  # fmt: skip
    return Screen(tuple(chosen), float(step))


def _default_rungs(games: int) -> list[int]:
    """A sixteenth and a quarter of the confirmation's games (at least MIN_RUNG)."""
    return sorted({max(min(MIN_RUNG, games), games // 16), max(min(MIN_RUNG, games), games // 4)})


def _positive_int(where: _Where, value: Any, path: tuple) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise where.fail(f"expected a positive whole number, got {value!r}", path)
    return value
