"""Playtest records from Python: the lab's players fitted to a group's games, as `sim playtest
fit` does, and its answers as frames and figures a notebook shows.

    fitted = lab.playtest_fit("examples/playtest/guardians.csv", "guardians",
                              out="results/playtest", games=400)
    fitted = lab.open_fit("results/playtest")     # or a fit written before
    fitted.skills()                               # one row per group: estimate, low, high
    fitted.facts("tuesday")                       # every fact's verdict and figures
    fitted.players()                              # named players on the knob
    fitted.figure("playtest_tuesday_likelihood")  # a report figure (`figures()` names them)
    fitted.report()                               # DIR/report/index.html
    fitted.level("tuesday")                       # the group's level, for an experiment's
                                                  # `skills:` ({fit: DIR/fit.yaml, group: ...})
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import polars as pl
import yaml

from sim.errors import SimError
from sim.lab import html
from sim.lab.folder import to_pandas
from sim.stats.interval_columns import columns


def playtest_fit(
    records: str | os.PathLike[str], game: str, *, out: str | os.PathLike[str], **options: Any
) -> PlaytestFit:
    """Fit the records (sim.playtest.fit.fit's options: fmt, name, group, games, seed, jobs,
    progress, players) and build the report; the fit's folder."""
    from sim.playtest.fit import fit
    from sim.playtest.report import build

    fit(records, game, out=out, **options)
    build(out)
    return PlaytestFit(out)


def open_fit(folder: str | os.PathLike[str]) -> PlaytestFit:
    """A fit `sim playtest fit` wrote."""
    return PlaytestFit(folder)


class PlaytestFit:
    """A fit's folder: fit.yaml read, its answers as polars (or pandas) frames."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.path = Path(folder)
        file = self.path / "fit.yaml"
        try:
            self.data: dict[str, Any] = yaml.safe_load(file.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            raise SimError(
                "no fit here",
                file=file,
                hint="sim playtest fit FILE --game G --out DIR writes one.",
            ) from None
        if not isinstance(self.data, dict) or not isinstance(self.data.get("groups"), dict):
            raise SimError("not a fit written by sim playtest fit", file=file)

    def __repr__(self) -> str:
        return f"PlaytestFit({str(self.path)!r})"

    @property
    def groups(self) -> list[str]:
        return list(self.data["groups"])

    def _group(self, group: str | None) -> list[tuple[str, dict]]:
        found = self.data["groups"]
        if group is None:
            return list(found.items())
        if group not in found:
            raise SimError(
                f"no group named '{group}'", file=self.path, hint=f"Groups: {', '.join(found)}."
            )
        return [(group, found[group])]

    def skills(self, *, pandas: bool = False):
        """One row per group: games, the skill with its 95% interval, where it lies on the
        ladder, the discrete settings fitted with it."""
        rows = [
            {
                "group": g,
                "games": a["games"],
                **{k: a["skill"][k] for k in ("estimate", "low", "high")},
                "on_ladder": a.get("on_ladder") or a.get("level"),
                "rules": ", ".join(f"{k} {v}" for k, v in (a.get("rules") or {}).items()),
            }
            for g, a in self._group(None)
        ]
        return _frame(rows, pandas)

    def facts(self, group: str | None = None, *, pandas: bool = False):
        """One row per fact and figure: its verdict, the records' and the lab's values with
        their 95% intervals, the games that would settle it, the sentence."""
        rows = []
        for g, answer in self._group(group):
            for fact, found in answer["facts"].items():
                for f in found["figures"]:
                    rows.append(
                        {
                            "group": g,
                            "fact": fact,
                            "verdict": found["verdict"],
                            "measure": f["measure"],
                            **_side_columns(f, "real"),
                            **_side_columns(f, "simulated"),
                            "games_to_settle": found.get("games_to_settle"),
                            "sentence": found["sentence"],
                        }
                    )
        return _frame(rows, pandas)

    def players(self, group: str | None = None, *, pandas: bool = False):
        """One row per named player: games, the skill with its 95% interval, the rating."""
        rows = [
            {
                "group": g,
                "player": p,
                "games": r["games"],
                **{k: r["skill"][k] for k in ("estimate", "low", "high")},
                "rating": (r.get("rating") or {}).get("theta"),
                "rating_se": (r.get("rating") or {}).get("se"),
            }
            for g, a in self._group(group)
            for p, r in (a.get("players") or {}).items()
        ]
        return _frame(rows, pandas)

    def sentences(self, group: str | None = None) -> list[str]:
        """The answers in words, verdict first."""
        return [s for _, a in self._group(group) for s in a["sentences"]]

    def level(self, group: str | None = None, player: str | None = None) -> dict[str, str]:
        """The entry an experiment's `skills:` (or, with a player, a seat) takes for this fit:
        `{fit: DIR/fit.yaml, group: ...}`."""
        (name, answer), *_ = self._group(group)
        entry = {"fit": str(self.path / "fit.yaml"), "group": name}
        if player is not None:
            if player not in (answer.get("players") or {}):
                raise SimError(f"no named player '{player}' in group '{name}'", file=self.path)
            entry["player"] = player
        return entry

    def figures(self) -> dict[str, Any]:
        """Every figure of the report, by name, as matplotlib Figures."""
        from sim.playtest.report import sections
        from sim.report.plots import kept

        with kept():
            built = sections(self.path)
        return {f.name: f.drawn for s in built for f in s.figures() if f.drawn is not None}

    def figure(self, name: str) -> Any:
        drawn = self.figures()
        if name not in drawn:
            raise SimError(
                f"the report has no figure '{name}'",
                file=self.path,
                hint=f"Figures: {', '.join(drawn)}.",
            )
        return drawn[name]

    def report(self, out: str | os.PathLike[str] | None = None) -> Path:
        """Build the report (default DIR/report); the path of index.html."""
        from sim.playtest.report import build

        return build(self.path, out)

    def _repr_html_(self) -> str:
        facts = html.facts(
            [
                ("game", self.data["title"]),
                ("records", self.data["records"]),
                ("groups", ", ".join(f"{g} ({a['games']} games)" for g, a in self._group(None))),
                ("the lab's games", f"{self.data['simulated']['games']:,} per candidate and table"),
            ]
        )
        rows = self.skills().to_dicts()
        return html.panel(
            f"Playtest fit: {self.path}", " ".join(self.sentences()[:1]), facts, html.table(rows)
        )


def _side_columns(figure: dict, side: str) -> dict[str, Any]:
    """One side ("real" or "simulated") of a fact's figure as its value and interval columns."""
    value = figure[side]
    return columns(side, value["value"], value["low"], value["high"])


def _frame(rows: list[dict], pandas: bool):
    frame = pl.DataFrame(rows)
    return to_pandas(frame) if pandas else frame
