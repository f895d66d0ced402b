"""Where a report's numbers come from, read off the results folder's manifest: the experiment
file and every override given on the command line (`--set`, `--games`, `--seed`), the games per
arm, the root seed, the rules every arm plays, the code that played them (the lab's commit and
version, the game's rules version).

``header(results)`` gives the page header's lines; ``differences(a, b)`` what differs between
two runs, which a comparison page opens with."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sim.report.data import Results

COMMIT_DIGITS = 12  # a commit's name as shown (the footer and the CSV keep it whole)


@dataclass(frozen=True)
class Difference:
    """One fact of two runs that differs: what, and its value in run A and in run B."""

    what: str
    a: str
    b: str


def overrides(results: Results) -> list[str]:
    """The command line's overrides as `KEY=VALUE` (`--set KEY=VALUE`; `--games N` is
    `games=N`), in the order given."""
    out = []
    for pair in results.manifest.get("cli_overrides") or []:
        if isinstance(pair, list | tuple) and len(pair) == 2:
            out.append(f"{pair[0]}={_value(pair[1])}")
    return out


def _value(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v)


def root_seed(results: Results) -> str:
    seed = results.manifest.get("seed", {})
    seed = seed.get("root") if isinstance(seed, dict) else seed
    return "unknown" if seed is None else str(seed)


def code(results: Results) -> str:
    """'lab 0.1.0 at commit 96850561ca9d, guardians rules version 1'."""
    m = results.manifest
    parts = [f"lab {m.get('package_version') or 'unknown'}"]
    commit = m.get("git_commit")
    if commit:
        name, dirty = str(commit).removesuffix("-dirty"), str(commit).endswith("-dirty")
        parts[0] += f" at commit {name[:COMMIT_DIGITS]}" + (" (with local changes)" if dirty
                                                            else "")  # fmt: skip
    version = (m.get("effective") or {}).get("game_version")
    if version is not None:
        parts.append(f"{results.game} rules version {version}")
    return ", ".join(parts)


def games_per_arm(results: Results) -> str:
    """'2,000 per arm, 14 arms (28,000 games)'; a run whose arms differ gives the range."""
    counts = dict(results.games.group_by("arm", maintain_order=True).len().iter_rows())
    per_arm = [int(counts.get(arm.name, 0)) for arm in results.arms]
    if not per_arm:
        return "no arms"
    lo, hi = min(per_arm), max(per_arm)
    each = f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"
    arms = f"{len(per_arm)} arm" + ("s" if len(per_arm) != 1 else "")
    text = f"{each} games per arm, {arms} ({results.total_games:,} games)"
    empty = [arm.name for arm, n in zip(results.arms, per_arm, strict=True) if n == 0]
    if empty:
        text += f"; no games in {', '.join(repr(n) for n in empty)}"
    return text


def _arm_entries(results: Results) -> list[dict[str, Any]]:
    return [e for e in results.manifest.get("arms") or [] if isinstance(e, dict)]


def rules(results: Results) -> str:
    """The presets the arms start from and the rule overrides every arm shares, e.g.
    'guardians, with mine.step=2 in every arm'."""
    entries = _arm_entries(results)
    presets = list(dict.fromkeys(str(e.get("ruleset")) for e in entries if e.get("ruleset")))
    text = ", ".join(presets) or "unknown"
    shared = _shared_overrides(entries)
    if shared:
        text += f", with {', '.join(shared)} in every arm"
    return text


def _shared_overrides(entries: Sequence[dict[str, Any]]) -> list[str]:
    """`KEY=VALUE` for every rule override all the arms give alike (a sweep's key varies)."""
    each = [[f"{p[0]}={_value(p[1])}" for p in e.get("overrides") or [] if len(p) == 2]
            for e in entries]  # fmt: skip
    return [o for o in each[0] if all(o in other for other in each[1:])] if each else []


def header(results: Results) -> list[str]:
    """The header's provenance lines (HTML): the experiment and its overrides; the games, the
    seed and the code."""
    e = html.escape
    m = results.manifest
    file = m.get("experiment_file")
    source = f"Experiment file <code>{e(str(file))}</code>" if file else "No experiment file"
    sets = overrides(results)
    source += (
        " with " + " ".join(f"<code>--set {e(s)}</code>" for s in sets)
        if sets
        else ", no command-line overrides"
    )
    source += f"; rules {e(rules(results))}"
    if results.baseline:
        source += f"; baseline arm <b>{e(results.baseline)}</b>"
    run = (
        f"{e(games_per_arm(results))}; root seed {e(root_seed(results))}; "
        f"code: {e(code(results))}; results <code>{e(str(results.root))}</code>"
    )
    return [source + ".", run + "."]


# --- two runs ------------------------------------------------------------------------------


def _lineups(results: Results) -> dict[str, str]:
    return {str(e.get("name")): ", ".join(map(str, e.get("lineup") or []))
            for e in _arm_entries(results)}  # fmt: skip


def _own_rules(results: Results) -> dict[str, str]:
    """Each arm's own rule overrides (those every arm shares are said once)."""
    entries = _arm_entries(results)
    shared = set(_shared_overrides(entries))
    out = {}
    for e in entries:
        own = [o for p in e.get("overrides") or [] if (o := f"{p[0]}={_value(p[1])}") not in shared]
        out[str(e.get("name"))] = ", ".join(own) or "none of its own"
    return out


def _fingerprints(results: Results) -> dict[str, str]:
    return {str(e.get("name")): str(e.get("ruleset_fingerprint")) for e in _arm_entries(results)}


def _by_arm(what: str, a: dict[str, str], b: dict[str, str]) -> list[Difference]:
    """One row per change shared by the arms both runs have: 'lineup of arms x, y and 3
    more' (the arms of one run alone are said once, by `_arm_sets`)."""
    both = [arm for arm in a if arm in b]
    changed: dict[tuple[str, str], list[str]] = {}
    for arm in both:
        if a[arm] != b[arm]:
            changed.setdefault((a[arm], b[arm]), []).append(arm)
    return [Difference(f"{what} of {_arms(arms, len(both))}", va, vb)
            for (va, vb), arms in changed.items()]  # fmt: skip


def _arm_sets(a: Results, b: Results) -> list[Difference]:
    """The arms only one run has."""
    na, nb = [x.name for x in a.arms], [x.name for x in b.arms]
    only_a, only_b = [n for n in na if n not in nb], [n for n in nb if n not in na]
    if not only_a and not only_b:
        return []
    return [Difference("arms of one run only", ", ".join(only_a) or "none",
                       ", ".join(only_b) or "none")]  # fmt: skip


def _arms(names: list[str], total: int) -> str:
    if len(names) == total and total > 1:
        return "every arm"
    if len(names) == 1:
        return f"arm {names[0]}"
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return f"arms {shown}"


def differences(a: Results, b: Results) -> list[Difference]:
    """What differs between two runs: the experiment and its overrides, the rules and the
    lineup of each arm, the games per arm, the root seed, the code. Empty when nothing does."""
    first = (
        ("experiment", lambda r: f"{r.name} ({r.manifest.get('experiment_file') or 'no file'})"),
        ("command-line overrides", lambda r: " ".join(overrides(r)) or "none"),
    )
    last = (("games", games_per_arm), ("root seed", root_seed), ("code", code))
    out = _facts(first, a, b) + _arm_sets(a, b)
    said = _facts((("rules", rules),), a, b)
    said += _by_arm("rule overrides", _own_rules(a), _own_rules(b))
    if not said:  # the same settings: a rule that differs all the same is the preset's own
        said = _by_arm("rules played (fingerprint)", _fingerprints(a), _fingerprints(b))
    out += said
    out += _by_arm("lineup", _lineups(a), _lineups(b))
    out += _facts(last, a, b)
    return out


def _facts(facts, a: Results, b: Results) -> list[Difference]:
    return [Difference(what, fa, fb) for what, fact in facts
            if (fa := fact(a)) != (fb := fact(b))]  # fmt: skip
