"""What the tune's model (sim/tune/region.py) is fitted to: every candidate the study played, at
the most games it reached (the confirmation's for the confirmed ones), each target at each
place as block sums of its per-game columns, read from the candidates' results folders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import optuna

from sim.measures import Contrast, Ratio, read_arm, registry_for
from sim.stored_arm import StoredArm
from sim.tune.confirm import Confirmed
from sim.tune.evaluate import candidate_folder
from sim.tune.journal import rung_evaluations
from sim.tune.region import Located, Objective, Played, block_size, block_sums, locate
from sim.tune.search import FINISHED, candidate_key
from sim.tune.spec import Tune
from sim.tune.targets import places

BOOT_SEED = 7_919  # added to the root seed: the model's bootstrap draws


def objectives_of(tune: Tune) -> list[Objective]:
    """Every target at every place, in the order the evaluation measures them."""
    out = []
    for arm in tune.places:
        for i, t in enumerate(tune.targets):
            if arm in places(t, tune.places):
                out.append(Objective(i, arm.arm, t.low, t.high, t.tolerance, t.combine))
    return out


def modelled(tune: Tune) -> str | None:
    """Why the model cannot be fitted to this tune (None when it can): every target must be a
    ratio of per-game sums or a difference of two."""
    registry = registry_for(tune.experiment.game)
    for arm in tune.places:
        for t in tune.targets:
            m = registry.get(t.measure_at(arm.level))
            if not isinstance(m, Ratio | Contrast):
                return f"{m.name} is not a ratio of per-game sums (a quantile?)"
    return None


def played_games(study: optuna.Study, tune: Tune, confirmed: Sequence[Confirmed]
                 ) -> dict[str, tuple[dict[str, Any], int]]:  # fmt: skip
    """candidate key -> (values, games per arm it played), the confirmed at full size."""
    out: dict[str, tuple[dict[str, Any], int]] = {}
    for t in study.get_trials(deepcopy=False, states=FINISHED):
        rungs = rung_evaluations(t)
        if not rungs:
            continue
        values = {k.name: t.params[k.name] for k in tune.knobs}
        key = candidate_key(values)
        out[key] = (values, max(max(rungs), out.get(key, (None, 0))[1]))
    for c in confirmed:
        out[candidate_key(c.values)] = (dict(c.values), tune.games)
    return out


Sums = dict[tuple[str, int, int], list[np.ndarray]]  # (candidate, games, block) -> _sums


def locate_tune(tune: Tune, study: optuna.Study, confirmed: Sequence[Confirmed], *, root: Path,
                prefer: Mapping[str, Any] | None = None, alternatives: int = 2,
                read: Sums | None = None) -> Located | None:  # fmt: skip
    """The model fitted to every candidate played, centred on the best confirmed one. `read`
    keeps each candidate's block sums for the next fit (a recommendation fits the model
    several times, between confirmations that add candidates): each candidate's games are
    read once at each size it reached."""
    if modelled(tune) is not None or not confirmed:
        return None
    games = played_games(study, tune, confirmed)
    block = block_size([n for _, n in games.values()])
    objectives = objectives_of(tune)
    keys = list(games)
    read = {} if read is None else read
    played = []
    for values, n in games.values():
        key = (candidate_key(values), n, block)
        if key not in read:
            read[key] = _sums(tune, root, values, n, block)
        played.append(Played(values, n, read[key]))
    index = [keys.index(candidate_key(c.values)) for c in confirmed]
    return locate(tune.knobs, objectives, played, centre=confirmed[0].values, confirmed=index,
                  prefer=prefer, alternatives=alternatives,
                  seed=tune.experiment.seed + BOOT_SEED)  # fmt: skip


def _sums(tune: Tune, root: Path, values: Mapping[str, Any], games: int,
          block: int) -> list[np.ndarray]:  # fmt: skip
    """Per objective (objectives_of's order): the block sums of its per-game columns."""
    folder = candidate_folder(root, values)
    registry = registry_for(tune.experiment.game)
    out = []
    for arm in tune.places:
        wanted = [t for t in tune.targets if arm in places(t, tune.places)]
        if not wanted:
            continue
        chosen = [registry.get(t.measure_at(arm.level)) for t in wanted]
        first = read_arm(folder, arm.arm, chosen).first(games)
        for m in chosen:
            out.append(block_sums(_columns(m, first, games), games, block))
    return out


def _columns(measure: Ratio | Contrast, arm: StoredArm, games: int) -> np.ndarray:
    """float[columns, games]: x, w (a ratio) or x1, w1, x0, w0 (a contrast), 0 where a game
    counts nothing."""
    if isinstance(measure, Contrast):
        frame, names = measure.per_game(arm), ("x1", "w1", "x0", "w0")
    else:
        frame, names = measure.units(arm), ("x", "w")
    out = np.zeros((len(names), games))
    at = frame["game"].to_numpy()
    for i, name in enumerate(names):
        out[i, at] = frame[name].cast(float).fill_null(0.0).to_numpy()
    return out
