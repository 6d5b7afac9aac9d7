"""Parameter sweeps: one profile played with a rule set for every value of one rule (or
every point of a grid of several), on the same deals, stored as one run.

``--vary KEY=V1,V2,...`` names a rule and its values; each value is read and checked as
``--set KEY=V`` would be (YAML, the profile's schema and checks), and a problem is located
in the ``--vary`` text itself: ``--vary:1:19: turn.pass_limit: 0 is less than the minimum
of 1``. Values are split at commas outside brackets, so a list such as ``[4,1,2,3]`` is one
value. Each point of the sweep is a rule set of the run named after its values
(``turn.pass_limit=2``; ``turn.pass_limit=2, deck.jokers=1`` in a grid), with its fully
resolved rules stored as ``compare`` stores them. The first point is the baseline unless
``--baseline`` names another.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paiqi_core.profile import Location, Problem, Profile, ProfileError, load_profile
from paiqi_core.profile.load import META, SET_FILE, parse_override

VARY_FILE = "--vary"


class SweepError(Exception):
    """A sweep that cannot be played as asked; the message says why."""


GRID_SEPARATOR = ", "


@dataclass(frozen=True)
class Vary:
    """One ``--vary``: the rule, its values as written, and where each value starts."""

    index: int  # 1-based: the n-th --vary
    key: str  # as written (a dotted rule)
    values: tuple[str, ...]
    columns: tuple[int, ...]  # 1-based column of each value in the --vary text

    @property
    def rule(self) -> str:
        """The dotted rule, without stray spaces."""
        return ".".join(part.strip() for part in self.key.split("."))


def _problem(index: int, col: int, path: tuple[str, ...], message: str) -> ProfileError:
    return ProfileError([Problem(Location(VARY_FILE, index, col), path, message)])


def split_values(text: str) -> list[tuple[str, int]]:
    """``text`` split at commas outside brackets and quotes: (value, 0-based offset)."""
    out: list[tuple[str, int]] = []
    depth, quote, start = 0, "", 0
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth = max(depth - 1, 0)
        elif c == "," and depth == 0:
            out.append((text[start:i], start))
            start = i + 1
    out.append((text[start:], start))
    return out


def parse_vary(texts: Sequence[str]) -> list[Vary]:
    """Each ``--vary KEY=V1,V2,...``, checked for form (not yet against the profile)."""
    varies: list[Vary] = []
    seen: dict[str, int] = {}
    for index, text in enumerate(texts, start=1):
        key, sep, rest = text.partition("=")
        if not sep or not key.strip():
            raise _problem(
                index, 1, (), f"'{text}' is not KEY=V1,V2,... (e.g. turn.pass_limit=1,2,3)"
            )
        values: list[str] = []
        columns: list[int] = []
        for raw, offset in split_values(rest):
            value = raw.strip()
            col = len(key) + 2 + offset + (len(raw) - len(raw.lstrip()))
            if not value:
                raise _problem(
                    index, col, tuple(key.strip().split(".")),
                    "an empty value: give the values as KEY=V1,V2,... with no empty one",
                )  # fmt: skip
            values.append(value)
            columns.append(col)
        vary = Vary(index, key, tuple(values), tuple(columns))
        if vary.rule in seen:
            raise _problem(
                index, 1, tuple(vary.rule.split(".")),
                f"varied twice (--vary {seen[vary.rule]} and {index}): give its values once",
            )  # fmt: skip
        seen[vary.rule] = index
        varies.append(vary)
    if not varies:
        raise _problem(1, 1, (), "name a rule to vary: --vary KEY=V1,V2,...")
    return varies


def _override(vary: Vary, value: str) -> str:
    return f"{vary.key}={value}"


def _located(e: ProfileError, lines: Mapping[int, tuple[Vary, int]]) -> ProfileError:
    """``e`` with the problems of the overrides that stand for values (``--set`` lines in
    ``lines``: the vary and which value) located in the ``--vary`` text instead."""
    problems = []
    for p in e.problems:
        loc = p.location
        if loc.file == SET_FILE and loc.line in lines:
            vary, j = lines[loc.line]
            key_end = len(vary.key) + 1  # the '=' sign
            col = loc.col if loc.col <= key_end else vary.columns[j] + loc.col - key_end - 1
            loc = Location(VARY_FILE, vary.index, col)
        problems.append(Problem(loc, p.path, p.message, p.note))
    return ProfileError(problems)


def load_point(
    profile: str, sets: Sequence[str], varies: Sequence[Vary], choice: Sequence[int]
) -> Profile:
    """The rules of one point: ``profile`` with ``sets`` and the ``choice``-th value of each
    vary; problems with a value are located in its ``--vary``."""
    overrides = [*sets, *(_override(v, v.values[j]) for v, j in zip(varies, choice, strict=True))]
    lines = {len(sets) + 1 + i: (v, j) for i, (v, j) in enumerate(zip(varies, choice, strict=True))}
    try:
        return load_profile(profile, overrides)
    except ProfileError as e:
        raise _located(e, lines) from None


def point_name(varies: Sequence[Vary], choice: Sequence[int]) -> str:
    """The name of a point: ``turn.pass_limit=2`` (grid: joined by commas)."""
    return GRID_SEPARATOR.join(
        f"{v.rule}={v.values[j]}" for v, j in zip(varies, choice, strict=True)
    )


@dataclass(frozen=True)
class Sweep:
    """The points of a sweep, in order, with their rules, and the baseline point."""

    names: tuple[str, ...]
    rules: dict[str, Profile]
    baseline: str
    varies: tuple[Vary, ...]

    @property
    def vary(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each rule with its values as written (as a run stores them)."""
        return tuple((v.rule, v.values) for v in self.varies)


def plays_as(profile: Profile) -> str:
    """The rules of ``profile`` as they play: its resolved rules without what only names or
    describes it (``META``), with every whole number written one way (``1.0`` is ``1``).
    Two profiles with the same text play and score alike, however their values were
    written."""
    rules = {k: v for k, v in profile.resolved().items() if k not in META}
    return json.dumps(_one_way(rules), sort_keys=True, ensure_ascii=False, default=str)


def _one_way(value: Any) -> Any:
    """``value`` with whole floats as ints, in dicts and lists too."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _one_way(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_one_way(v) for v in value]
    return value


def sweep_points(
    profile: str, sets: Sequence[str], texts: Sequence[str], baseline: str | None
) -> Sweep:
    """Check the ``--vary`` texts against ``profile`` (with ``sets``) and build every point
    of the sweep; ProfileError located in ``--vary`` for a bad rule or value,
    SweepError (with the message to show) for a sweep that cannot be played as asked."""
    varies = parse_vary(texts)
    set_rules = {".".join(p.strip() for p in s.partition("=")[0].split(".")) for s in sets}
    for v in varies:
        if v.rule in set_rules:
            raise _problem(
                v.index, 1, tuple(v.rule.split(".")),
                "also given by --set: give it once, with --vary to vary it",
            )  # fmt: skip
        if v.rule.split(".")[0] in META:
            raise _problem(
                v.index, 1, tuple(v.rule.split(".")),
                "names or describes the profile and changes nothing in play or scoring: "
                "vary a rule of play",
            )  # fmt: skip
    # each value alone first, so that a problem is told of the value that has it
    for v in varies:
        seen: dict[str, int] = {}
        for j, value in enumerate(v.values):
            plays = plays_as(load_point(profile, sets, [v], [j]))
            if plays in seen:
                first = v.values[seen[plays]]
                raise _problem(
                    v.index, v.columns[j], tuple(v.rule.split(".")),
                    f"{value} gives the same rules as {first}: give each value once",
                )  # fmt: skip
            seen[plays] = j
    names: list[str] = []
    rules: dict[str, Profile] = {}
    players: dict[str, int] = {}
    for choice in itertools.product(*(range(len(v.values)) for v in varies)):
        name = point_name(varies, choice)
        rules[name] = load_point(profile, sets, varies, choice)
        players[name] = int(rules[name].get("players"))
        names.append(name)
    if len(names) < 2:
        v = varies[0]
        raise _problem(v.index, v.columns[0], tuple(v.rule.split(".")),
                       "a sweep needs two values or more")  # fmt: skip
    if len(set(players.values())) > 1:
        counts = ", ".join(f"{n}: {k}" for n, k in players.items())
        raise SweepError(
            f"sweep: the values seat different numbers of players ({counts}); the same deals "
            "need the same table: sweep one number of players at a time"
        )
    base = names[0] if baseline is None else _baseline(varies, names, baseline)
    return Sweep(tuple(names), rules, base, tuple(varies))


def _baseline(varies: Sequence[Vary], names: Sequence[str], text: str) -> str:
    """The point named by ``--baseline``: one value per varied rule, in their order."""
    given = [value.strip() for value, _ in split_values(text)]
    if len(given) != len(varies):
        rules = ", ".join(v.rule for v in varies)
        raise SweepError(
            f"--baseline {text}: give one value of each varied rule, in order ({rules})"
        )
    choice = []
    for v, value in zip(varies, given, strict=True):
        wanted = _value(v, value)
        matches = [j for j, candidate in enumerate(v.values) if _value(v, candidate) == wanted]
        if not matches:
            raise SweepError(
                f"--baseline {text}: {value} is not one of the values of {v.rule} "
                f"({', '.join(v.values)})"
            )
        choice.append(matches[0])
    return point_name(varies, choice)


def _value(v: Vary, text: str) -> Any:
    """A value as ``--set`` reads it (YAML), to match ``--baseline 3`` with ``3``."""
    try:
        return repr(parse_override(_override(v, text), 1)[1])
    except ProfileError:
        return text


def point_values(spec: Any) -> dict[str, dict[str, str]]:
    """Each point's values by rule, from a stored sweep's spec."""
    out: dict[str, dict[str, str]] = {}
    vary = spec.vary
    for choice in itertools.product(*(range(len(values)) for _, values in vary)):
        values = {rule: vals[j] for (rule, vals), j in zip(vary, choice, strict=True)}
        name = GRID_SEPARATOR.join(f"{r}={v}" for r, v in values.items())
        out[name] = values
    return out


def sweep_report(store: Any, run_id: str, spec: Any) -> dict[str, Any]:
    """The report of a stored sweep as data: every point's values, the design measures of
    each with their differences from the baseline, the skill gap and the deal share when
    played, and ``measures``: one row per measure across the points."""
    import json

    from paiqi_core.runs.design import design_report, measure_rows
    from paiqi_core.runs.skill import skill_report
    from paiqi_core.runs.summary import _objectives, decks_differ

    objectives = _objectives(store, run_id)
    out: dict[str, Any] = {
        "run": run_id,
        "command": "sweep",
        "spec": json.loads(spec.to_json()),
        "profile": spec.sweep,
        "vary": [{"rule": rule, "values": list(values)} for rule, values in spec.vary],
        "baseline": spec.base,
        "points": point_values(spec),
        "deals_differ": decks_differ(store, run_id, spec),
        "design": design_report(store, run_id, spec),
    }
    skill = skill_report(store, run_id, spec, objectives)
    if skill is not None:
        out["skill"] = skill
    out["measures"] = measure_rows(out, spec.profiles)
    return out
