"""Load a profile: read YAML → resolve ``extends`` → merge → apply ``--set`` → validate
with JSON Schema (defaults filled, unknown keys rejected) → semantic checks → Profile.
"""

from __future__ import annotations

import copy
import difflib
import math
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import jsonschema

from paiqi_core import resources
from paiqi_core.cards import RANKS, SEVEN, card_text, parse_card
from paiqi_core.core.layout import TALLY_MOST, TALLY_SEATS
from paiqi_core.hooks import registry
from paiqi_core.pack import ALL_RANKS, Pack, line_of, rank_index, rank_range
from paiqi_core.profile.errors import Location, Path_, Problem, ProfileError, format_path
from paiqi_core.profile.model import Described, Origin, Profile, freeze
from paiqi_core.profile.yamlsrc import (
    Located,
    MalformedYAML,
    Surprise,
    YAMLWarning,
    load_located,
    not_text,
    surrogate_at,
)

SET_FILE = "--set"
BUILT_IN = "(built-in)"  # after a built-in profile's id, where a file name would be
META = ("id", "name", "description", "extends")  # about a profile, not rules of play
# (rule, values that need nothing, rule they need otherwise, the value it must have, or a
# tuple of the values it may have)
RULE_NEEDS: tuple[tuple[str, tuple[Any, ...], str, Any], ...] = (
    ("layout.ace_king", ("none",), "layout.ace", "low"),
    ("turn.pass_takes", ("none",), "turn.stuck", "pass"),
    ("turn.draw", ("none",), "turn.stuck", "pass"),
    ("turn.draw", ("none",), "deck.leftover", "stock"),
    # several decks: the copies of a suit lie stacked (the k-th copy of a card needs k
    # copies of every card back to the centre), with every card dealt
    ("deck.decks", (1,), "turn.stuck", "pass"),
    ("deck.decks", (1,), "turn.out_of_passes", "burst"),
    ("deck.decks", (1,), "deck.jokers", 0),
    ("deck.decks", (1,), "deck.leftover", "dealt"),
    ("deck.decks", (1,), "layout.ends", "open"),
    ("deck.decks", (1,), "layout.ace_king", "none"),
    ("scoring.losers", ("unranked",), "scoring.penalty", ("cards", "pips", "ranks")),
    # the last winner moves first in place of the opening's first mover: an opening that
    # names no card the first mover must play
    ("match.next_lead", ("opening",), "opening.method", ("first_seat", "sevens_out")),
    # what adds to a covering total where each player keeps its total
    ("scoring.base", (0,), "scoring.pay", "totals"),
    ("scoring.finishers", ([],), "scoring.pay", "totals"),
    ("scoring.finishers_collect", (False,), "scoring.pay", "totals"),
    ("scoring.spare_least", (False,), "scoring.pay", "totals"),
    ("scoring.all_covered_pay", ([0, 0],), "scoring.pay", "totals"),
    # Hoyle's penalties: a pass made when able (which a player who must play never makes);
    # a 7 held back pays the players dealt its 6 and 8, who hold them while it is held
    ("scoring.able_pass_cost", (0,), "turn.must_play", False),
    ("scoring.held_seven_pay", (0,), "turn.must_play", False),
    ("scoring.held_seven_pay", (0,), "deck.decks", 1),
    ("scoring.held_seven_pay", (0,), "turn.pass_takes", "none"),
    ("scoring.held_seven_pay", (0,), "turn.draw", "none"),
    # trumps take the places of cards of their rank, one card to a place, rows fixed at the
    # centre, and the last card dealt names them (no door card cut besides)
    ("layout.trumps", ("none",), "deck.jokers", 0),
    ("layout.trumps", ("none",), "deck.decks", 1),
    ("layout.trumps", ("none",), "layout.start", "centre"),
    ("layout.trumps", ("none",), "layout.rows", "together"),
    (
        "layout.trumps",
        ("none",),
        "opening.method",
        ("holder_leads", "first_seat", "sevens_out", "seven_holder"),
    ),
)
Locator = Callable[..., Location]


def _yaml(value: Any) -> str:
    """A value as a profile writes it: ``null`` for None."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _display(path: Path) -> str:
    """How a profile file is named in messages: a built-in by its id, ``doujue (built-in)``
    (its file lies wherever paiqi is installed, often deep inside site-packages: the name
    says what it is, and ``paiqi serve`` or the documentation shows its text), other files
    relative to the working directory when inside it."""
    resolved = path.resolve()
    if resolved.parent == resources.variants_dir().resolve():
        return f"{resolved.stem} {BUILT_IN}"
    try:
        return str(resolved.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def find_profile(ref: str, *, beside: Path | None = None) -> Path | None:
    """A profile file for ``ref``: a path, a file beside ``beside``, or a built-in id."""
    candidates: list[Path] = []
    base = beside.parent if beside else Path.cwd()
    p = Path(ref)
    if p.suffix in (".yaml", ".yml") or "/" in ref or "\\" in ref:
        candidates.append(p if p.is_absolute() else base / p)
    else:
        candidates += [base / f"{ref}.yaml", base / f"{ref}.yml"]
        builtin = resources.builtin_profiles().get(ref)
        if builtin:
            candidates.append(builtin)
    for c in candidates:
        try:
            if c.is_file():
                return c.resolve()
        except OSError:  # a name the system cannot look up (too long, ...): no such file
            continue
    return None


def _not_a_parent(ref: Any) -> str:
    shown = "null" if ref is None else str(ref).lower() if isinstance(ref, bool) else repr(ref)
    return (
        f"{shown} names no profile: extends takes a built-in id or a path to a profile file "
        "(e.g. extends: doujue)"
    )


def _no_profile(ref: str, beside: Path) -> str:
    close = difflib.get_close_matches(ref, list(resources.builtin_profiles()), n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return (
        f"no profile '{ref}': not a file beside {_display(beside)}, nor a built-in "
        f"profile ({hint}'paiqi list' shows them)"
    )


def _read(path: Path) -> Located:
    display = _display(path)
    try:
        text = read_text(path, display)
    except OSError as e:
        raise ProfileError([Problem(Location(display, 1, 1), (), f"cannot read: {e}")]) from None
    doc = load_located(text, display)
    if doc.data is None:
        doc.data = {}
    if not isinstance(doc.data, dict):
        raise ProfileError([Problem(doc.where(()), (), "a profile must be a mapping of rules")])
    return doc


def read_text(path: Path, display: str) -> str:
    """A file's text; bytes that are not UTF-8 are a ProfileError located at the first."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[: e.start].decode("utf-8", "replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        byte = data[e.start : e.start + 1].hex()
        raise ProfileError(
            [Problem(Location(display, line, col), (), f"not UTF-8 text: byte 0x{byte}")]
        ) from None


def _chain(path: Path) -> list[tuple[Path, Located]]:
    """The profile and its ancestors, child first; cycles and missing parents are errors.

    A profile extends at most one parent, so the chain is a path: a cycle is a parent met
    again, reported at the ``extends`` that closes it and named from that parent.
    """
    chain: list[tuple[Path, Located]] = []
    seen: dict[Path, int] = {}  # file -> its place in the chain
    current: Path | None = path
    while current is not None:
        doc = _read(current)
        seen[current] = len(chain)
        chain.append((current, doc))
        if "extends" not in doc.data:
            break
        ref = doc.data["extends"]
        where = doc.where(("extends",))
        if not isinstance(ref, str) or not ref.strip():
            raise ProfileError([Problem(where, ("extends",), _not_a_parent(ref))])
        parent = find_profile(ref, beside=current)
        if parent is None:
            raise ProfileError([Problem(where, ("extends",), _no_profile(ref, current))])
        if parent in seen:
            names = [_display(p) for p, _ in chain[seen[parent] :]] + [_display(parent)]
            raise ProfileError(
                [Problem(where, ("extends",), "extends cycle: " + " -> ".join(names))]
            )
        current = parent
    return chain


def _merge(
    target: dict[str, Any],
    source: Mapping[str, Any],
    origins: dict[Path_, Origin],
    keys: dict[Path_, Location],
    doc: Located,
    origin: Origin,
    path: Path_ = (),
) -> None:
    for key, value in source.items():
        p = (*path, key)
        keys[p] = doc.where(p, key=True)
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            origins[p] = Origin(origin.kind, doc.where(p), origin.profile)
            _merge(target[key], value, origins, keys, doc, origin, p)
        else:
            target[key] = copy.deepcopy(value)
            for sub, loc in _leaves(value, p, doc):
                origins[sub] = Origin(origin.kind, loc, origin.profile)
                keys.setdefault(sub, doc.where(sub, key=True))


def _leaves(value: Any, path: Path_, doc: Located) -> Iterator[tuple[Path_, Location]]:
    yield path, doc.where(path)
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k), doc)


def _override_key(key: str, line: int) -> tuple[Path_, list[Location]]:
    """A dotted ``--set`` key as a rule path, with the location of each of its parts; an
    empty part is a located error."""
    path: list[str] = []
    where: list[Location] = []
    start = 0
    for part in key.split("."):
        name = part.strip()
        col = start + (len(part) - len(part.lstrip())) + 1
        if not name:
            raise ProfileError(
                [
                    Problem(
                        Location(SET_FILE, line, col),
                        tuple(path),
                        f"'{key}' has an empty part: a rule is a dotted key such as scoring.stake",
                    )
                ]
            )
        path.append(name)
        where.append(Location(SET_FILE, line, col))
        start += len(part) + 1
    return tuple(path), where


def parse_override(text: str, index: int) -> tuple[Path_, Any, Location]:
    """``scoring.stake=2`` → (("scoring", "stake"), 2, location of the value)."""
    return _parse_override(text, index)[:3]


def _parse_override(
    text: str, index: int, surprises: list[Surprise] | None = None
) -> tuple[Path_, Any, Location, list[Location]]:
    """A ``--set KEY=VALUE``: the rule path, the value read as YAML (text that is not YAML
    is taken as a string), the value's location and the location of each part of the key."""
    key, sep, raw = text.partition("=")
    bad = surrogate_at(key)  # a byte of the command line that is not UTF-8 (the value is
    if bad is not None:  # read as YAML, which refuses it at its place in the rule)
        raise ProfileError([Problem(Location(SET_FILE, index, bad + 1), (), not_text(key))])
    if not sep or not key.strip():
        raise ProfileError(
            [
                Problem(
                    Location(SET_FILE, index, 1),
                    (),
                    f"'{text}' is not KEY=VALUE (e.g. scoring.stake=2)",
                )
            ]
        )
    path, parts = _override_key(key, index)
    where = Location(SET_FILE, index, len(key) + 2)
    try:
        read = load_located(raw, SET_FILE, line_offset=index - 1, col_offset=len(key) + 1)
        value = read.data
        if surprises is not None:
            surprises += [
                Surprise(
                    x.kind, Problem(x.problem.location, (*path, *x.problem.path), x.problem.message)
                )
                for x in read.surprises
            ]
    except MalformedYAML:
        value = raw
    except ProfileError as e:  # a value that cannot be read at all: located in the rule
        raise ProfileError(
            [Problem(p.location, (*path, *p.path), p.message) for p in e.problems]
        ) from None
    if value is None and not raw.strip():
        value = ""
    return path, value, where, parts


def _apply_override(
    data: dict[str, Any],
    path: Path_,
    value: Any,
    where: Location,
    origins: dict[Path_, Origin],
    keys: dict[Path_, Location],
    parts: Sequence[Location] = (),
) -> None:
    if path[0] == "extends":
        raise ProfileError(
            [
                Problem(
                    parts[0] if parts else where,
                    ("extends",),
                    "--set cannot change the profile a profile extends: name that profile "
                    "instead (e.g. paiqi explain pagat --set ...)",
                )
            ]
        )
    node = data
    for i, part in enumerate(path[:-1]):
        if i < len(parts):
            keys.setdefault(path[: i + 1], parts[i])
        child = node.setdefault(str(part), {})
        if not isinstance(child, dict):
            raise ProfileError([Problem(where, path[: i + 1], "is not a section of rules")])
        node = child
    node[str(path[-1])] = value
    keys[path] = parts[-1] if parts else where
    origins[path] = Origin("set", where)


def _is_integer(checker: Any, instance: Any) -> bool:
    """JSON Schema's ``integer``, strictly: an int, never a float such as 4.0 (nor a bool)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _is_number(checker: Any, instance: Any) -> bool:
    """JSON Schema's ``number``, finite: no NaN and no infinity."""
    if isinstance(instance, float):
        return math.isfinite(instance)
    return _is_integer(checker, instance)


_STRICT = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"integer": _is_integer, "number": _is_number}
    ),
)


class _DefaultFiller:
    """A strict draft 2020-12 validator that fills ``default`` values as it validates."""

    def __init__(self) -> None:
        base = _STRICT
        original = base.VALIDATORS["properties"]

        def properties(
            validator: Any, props: Mapping[str, Any], instance: Any, schema: Mapping[str, Any]
        ) -> Iterator[Any]:
            if isinstance(instance, dict):
                for name, sub in props.items():
                    if "default" in sub and name not in instance:
                        instance[name] = copy.deepcopy(sub["default"])
            yield from original(validator, props, instance, schema)

        self.cls = jsonschema.validators.extend(base, {"properties": properties})


_FILLER = _DefaultFiller()


def _origin_locator(
    origins: Mapping[Path_, Origin], keys: Mapping[Path_, Location], fallback: Location
) -> Locator:
    def where(path: Path_, key: bool = False) -> Location:
        if key and path in keys:
            return keys[path]
        p = tuple(path)
        while p:
            o = origins.get(p)
            if o is not None and o.location is not None:
                return o.location
            p = p[:-1]
        return fallback

    return where


def schema_errors(
    data: Any, schema: Mapping[str, Any], where: Locator, *, fill_defaults: bool = True
) -> list[Problem]:
    """Every schema violation of ``data``, located with ``where(path, key)``: one problem
    per value. Numbers must be finite, anywhere in ``data``; ``integer`` takes ints only
    (4.0 is not an integer)."""
    problems = [
        Problem(where(path), path, f"{value!r} is not a finite number")
        for path, value in _non_finite(data)
    ]
    problems += [Problem(where(path), path, not_text(text)) for path, text in _not_text(data)]
    seen = {p.path for p in problems}
    cls = _FILLER.cls if fill_defaults else _STRICT
    validator = cls(schema)
    for error in validator.iter_errors(data):
        path = tuple(error.absolute_path)
        if not isinstance(error.instance, dict | list):
            if path in seen:
                continue  # one problem per value: the first the schema finds
            seen.add(path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = list(error.schema.get("properties", {}))
            for extra in sorted(set(error.instance) - set(allowed), key=str):
                close = difflib.get_close_matches(str(extra), allowed, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                known = f" (known: {', '.join(allowed)})" if not close else ""
                problems.append(
                    Problem(
                        where((*path, extra), key=True), (*path, extra), f"unknown key{hint}{known}"
                    )
                )
            continue
        if error.validator == "unevaluatedProperties" and isinstance(error.instance, dict):
            for extra in re.findall(r"'([^']+)'", error.message.split("(")[-1]):
                problems.append(
                    Problem(where((*path, extra), key=True), (*path, extra), "unknown key")
                )
            continue
        alternatives = error.schema.get(error.validator) if error.validator == "oneOf" else None
        if alternatives and all(set(a) == {"required"} for a in alternatives):
            names = [k for a in alternatives for k in a["required"]]
            given = [k for k in names if isinstance(error.instance, dict) and k in error.instance]
            message = f"needs exactly one of {', '.join(names)}" + (
                f" (has {', '.join(given)})" if given else ""
            )
            problems.append(Problem(where(path), path, message))
            continue
        if error.validator in ("anyOf", "oneOf") and "x-expected" in error.schema:
            expected = error.schema["x-expected"]
            problems.append(Problem(where(path), path, f"{error.instance!r} is not {expected}"))
            continue
        best = jsonschema.exceptions.best_match([error])
        message = best.message
        if best.validator == "enum" and _same_as_text(best.validator_value):
            # a value that may be given as a number or as its text (a rank: 9 or "9"): each once
            choices = list(dict.fromkeys(str(v) for v in best.validator_value))
            message = f"{best.instance!r} is not one of {', '.join(choices)}"
        elif best.validator == "pattern" and "x-expected" in best.schema:
            message = f"{best.instance!r} is not {best.schema['x-expected']}"
        elif (
            best.validator == "type"
            and isinstance(best.instance, float)
            and best.instance.is_integer()
            and "integer" in _types(best.validator_value)
        ):
            message = f"{best.instance!r} is not an integer (write {int(best.instance)})"
        problems.append(Problem(where(path), path, message))
    return problems


def _same_as_text(values: list[Any]) -> bool:
    """Whether an enum lists some values twice, as a number and as its text."""
    return len({str(v) for v in values}) < len(values)


def _types(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _not_text(value: Any, path: Path_ = ()) -> Iterator[tuple[Path_, str]]:
    """Every string (value or key) of ``value`` holding half of a surrogate pair, with its
    path (a key's at the mapping that holds it: the key itself cannot be shown)."""
    if isinstance(value, str) and surrogate_at(value) is not None:
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str) and surrogate_at(k) is not None:
                yield path, k
            else:
                yield from _not_text(v, (*path, k))
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from _not_text(v, (*path, i))


def _non_finite(value: Any, path: Path_ = ()) -> Iterator[tuple[Path_, float]]:
    """Every NaN or infinity in ``value``, with its path."""
    if isinstance(value, float) and not math.isfinite(value):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _non_finite(v, (*path, k))
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from _non_finite(v, (*path, i))


def _semantic_errors(
    data: Mapping[str, Any],
    origins: Mapping[Path_, Origin],
    keys: Mapping[Path_, Location],
    fallback: Location,
) -> list[Problem]:
    problems: list[Problem] = []

    def where(path: Path_) -> Location:
        o = origins.get(path)
        return o.location if o and o.location else keys.get(path, fallback)

    nearness = ("default", "parent", "profile", "set")  # later: closer to the user

    def given(path: Path_) -> int:
        o = origins.get(path)
        return nearness.index(o.kind) if o is not None else 0

    for rule, allowed, needs, value in RULE_NEEDS:
        section, key = rule.split(".")
        s2, k2 = needs.split(".")
        values = value if isinstance(value, tuple) else (value,)
        if data[section][key] not in allowed and data[s2][k2] not in values:
            # located at the rule the user gave last (the first named on a tie)
            path = max(((section, key), (s2, k2)), key=given)
            problems.append(
                Problem(
                    where(path),
                    path,
                    ("" if path == (section, key) else f"{rule} ")
                    + f"{_yaml(data[section][key])} needs {needs}: "
                    f"{' or '.join(map(_yaml, values))} (this profile has "
                    f"{_yaml(data[s2][k2])})",
                )
            )
    problems += _pack_errors(data, where, given)
    if not problems:
        problems += _centre_pick_errors(data, where, fallback)
    problems += _tally_errors(data, where, given)
    problems += _block_errors(data, where, given)
    turn = data["turn"]
    if data["layout"]["ends"] == "cut" and turn["stuck"] == "pass" and turn["pass_limit"] is None:
        problems.append(
            Problem(
                where(("layout", "ends")),
                ("layout", "ends"),
                "cut rows strand cards that can never be played: with unlimited passes the game "
                "could never end (set turn.pass_limit, or turn.stuck: cover)",
            )
        )
    if data["opening"]["method"] == "first_seat" and turn["stuck"] == "cover":
        path = max((("opening", "method"), ("turn", "stuck")), key=given)
        problems.append(
            Problem(
                where(path),
                path,
                "opening.method first_seat with turn.stuck cover would make the player at the "
                "dealer's left cover a card on the first turn whenever they hold no 7, which no "
                "table plays: take opening.method seven_holder (the first player holding a 7 "
                "moves first)",
            )
        )
    for slot, dotted in registry.SLOTS.items():
        section, key = dotted.split(".")
        name = data[section][key]
        known = registry.hooks(slot)
        if name not in known:
            problems.append(
                Problem(where((section, key)), (section, key), registry.unknown_message(slot, name))
            )
            continue
        hook = known[name]
        params_of_slot = {p for h in known.values() for p in h.params}
        for param in data[section]:
            o = origins.get((section, param))
            if (
                param in params_of_slot
                and param not in hook.params
                and o is not None
                and o.kind in ("profile", "set")
            ):
                problems.append(
                    Problem(
                        where((section, param)),
                        (section, param),
                        f"not a rule of {section} {key} '{name}' "
                        f"(it reads: {', '.join(hook.params) or 'nothing'})",
                    )
                )
        for need, value in hook.requires.items():
            s, k = need.split(".")
            if data[s][k] != value:
                problems.append(
                    Problem(
                        where((section, key)),
                        (section, key),
                        f"{section} {key} '{name}' needs {need}: {value} (this profile has "
                        f"{data[s][k]})",
                    )
                )
    return problems


def pack_ranks(data: Mapping[str, Any]) -> list[int]:
    """The ranks of a resolved profile's pack, along the rows' line (rank indices)."""
    text, ace = data["deck"]["ranks"], data["layout"]["ace"]
    ranks = ALL_RANKS if text is None else rank_range(text, ace)
    return [r for r in line_of(ace) if ranks >> r & 1]


def with_centre(data: Mapping[str, Any], rank: int) -> dict[str, Any]:
    """Resolved rules ``data`` with ``rank`` as the centre (``match.next_centre``): the
    opening card follows the centre where it is a centre card (D7 becomes D9), and the
    match's other games are no concern of this one."""
    out = copy.deepcopy(dict(data))
    old = rank_index(str(out["layout"]["centre"]))
    out["layout"]["centre"] = RANKS[rank] if rank in (0, 10, 11, 12) else rank + 1
    card = parse_card(out["opening"]["card"])
    if card % 13 == old:
        out["opening"]["card"] = card_text(13 * (card // 13) + rank)
    return out


def _centre_pick_errors(
    data: Mapping[str, Any], where: Callable[[Path_], Location], fallback: Location
) -> list[Problem]:
    """With ``match.next_centre: last_picks`` every rank of the pack may be a game's
    centre: the first rank whose rules cannot be played is a problem naming both rules."""
    if data["match"]["next_centre"] == "fixed":
        return []
    for rank in pack_ranks(data):
        trial = with_centre(data, rank)
        trial["match"]["next_centre"] = "fixed"
        problems = _semantic_errors(trial, {}, {}, fallback)
        if problems:
            return [
                Problem(
                    where(("match", "next_centre")),
                    ("match", "next_centre"),
                    f"last_picks lets the last player pick any rank of the pack as the centre, "
                    f"and with layout.centre: {RANKS[rank]}: {problems[0].message}",
                )
            ]
    return []


def _block_errors(
    data: Mapping[str, Any], where: Callable[[Path_], Location], given: Callable[[Path_], int]
) -> list[Problem]:
    """A turn's block of cards (``turn.lay`` blocks) against the rules its reading does not
    cover, each a problem naming both rules, located at the one the user gave last."""
    turn, layout, deck = data["turn"], data["layout"], data["deck"]
    if turn.get("lay", "single") != "blocks":
        return []
    lay: Path_ = ("turn", "lay")
    clashes: list[tuple[Path_, str]] = []
    if int(deck["jokers"]):
        clashes.append(
            (
                ("deck", "jokers"),
                "a joker move lays two cards at once, which no block reads: take deck.jokers 0",
            )
        )
    if int(deck["decks"]) > 1:
        clashes.append(
            (
                ("deck", "decks"),
                "with several decks a run's copies lie in stacked rows: take deck.decks 1",
            )
        )
    if layout["start"] == "any":
        clashes.append(
            (
                ("layout", "start"),
                "layout.start any begins rows anywhere, and a block's run "
                "is read from the centre: take layout.start centre",
            )
        )
    if layout["rows"] == "one_at_a_time":
        clashes.append(
            (
                ("layout", "rows"),
                "layout.rows one_at_a_time lets one row grow at a time, and "
                "a block lays several suits: take layout.rows together",
            )
        )
    if turn["extra_after_end"] != "none":
        clashes.append(
            (
                ("turn", "extra_after_end"),
                f"turn.extra_after_end {turn['extra_after_end']} "
                "gives a play of its own after a card that ends its line, in the middle of a "
                "block: take turn.extra_after_end none",
            )
        )
    if layout.get("trumps", "none") != "none":
        clashes.append(
            (
                ("layout", "trumps"),
                "a trump takes the place of another suit's card, which a block's run of "
                "places does not read: take layout.trumps none",
            )
        )
    if turn["stuck"] not in ("cover", "pass"):
        clashes.append(
            (
                ("turn", "stuck"),
                f"the stuck rule '{turn['stuck']}' is a plugin, which is "
                "not asked between a block's cards: take turn.stuck cover or pass",
            )
        )
    problems = []
    for other, why in clashes:
        path = max((lay, other), key=given)
        message = "turn.lay blocks lays several cards a turn, and " + why
        problems.append(Problem(where(path), path, message))
    return problems


def _tally_errors(
    data: Mapping[str, Any], where: Callable[[Path_], Location], given: Callable[[Path_], int]
) -> list[Problem]:
    """Hoyle's penalties count each seat's passes made when able in the core's small
    counters (``layout.TALLY``): at most ``TALLY_SEATS`` players, and no more passes a seat
    than a counter holds (the pass limit, or the stall rule's bound on a game)."""
    scoring, turn = data["scoring"], data["turn"]
    named = [k for k in ("able_pass_cost", "held_seven_pay") if scoring.get(k)]
    if scoring.get("method") != "chips" or not named:
        return []
    problems: list[Problem] = []
    rule: Path_ = ("scoring", named[0])
    players = data["players"]
    if isinstance(players, int) and players > TALLY_SEATS:
        path = max((rule, ("players",)), key=given)
        problems.append(
            Problem(
                where(path),
                path,
                f"scoring.{named[0]} counts the passes of {TALLY_SEATS} players at most "
                f"(players: {players})",
            )
        )
    limit = turn["pass_limit"]
    stall = data["ending"]["stall"]
    rounds = 10 if stall == "auto" else stall
    deck = data["deck"]
    cards = 52 * int(deck["decks"]) + int(deck["jokers"])
    most = (
        limit
        if isinstance(limit, int)
        else rounds * (cards + 1)
        if isinstance(rounds, int)
        else None
    )
    if most is not None and most > TALLY_MOST:
        others: tuple[Path_, ...] = (("turn", "pass_limit"),)
        if not isinstance(limit, int):  # the stall rule's bound grows with the pack
            others = (("ending", "stall"), ("deck", "decks"), ("deck", "jokers"))
        other = "turn.pass_limit" if isinstance(limit, int) else "ending.stall"
        path = max((rule, *others), key=given)
        problems.append(
            Problem(
                where(path),
                path,
                f"scoring.{named[0]} counts up to {TALLY_MOST} passes a player, and "
                f"{other} {limit if isinstance(limit, int) else stall} lets a "
                f"player pass up to {most} times in a game of {cards} cards: take a smaller "
                "value",
            )
        )
    if scoring.get("held_seven_pay") and data["layout"]["ace"] == "high":
        centre = rank_index(str(data["layout"]["centre"]))
        if centre in (0, 1, 12):  # A, 2 or K: a neighbour across the ace
            path = max((("scoring", "held_seven_pay"), ("layout", "centre")), key=given)
            problems.append(
                Problem(
                    where(path),
                    path,
                    "scoring.held_seven_pay pays the holders of the centre's neighbours, "
                    f"and with layout.ace high the centre {data['layout']['centre']} "
                    "(layout.centre) has the ace beside it or none: take layout.ace low",
                )
            )
    return problems


def _pack_errors(
    data: Mapping[str, Any], where: Callable[[Path_], Location], given: Callable[[Path_], int]
) -> list[Problem]:
    """The pack's rules against each other and against the rules that read it: a range of
    ranks along the line (two ranks at least), a card for every player, a centre inside it,
    an opening card in the pack, and no rule that needs every rank (wrap, tunnel) or a
    centre away from the ends (cut rows). A problem between two rules is located at the one
    the user gave last (``given``: 3 for ``--set``, 2 for the profile, 1 for a parent, 0
    for a default), the first named on a tie."""
    layout, opening = data["layout"], data["opening"]
    ranks_text, ace = data["deck"]["ranks"], layout["ace"]
    problems: list[Problem] = []

    def problem(path: Path_, message: str, *other: Path_) -> None:
        path = max((path, *other), key=given)
        problems.append(Problem(where(path), path, message))

    ranks = ALL_RANKS
    if ranks_text is not None:
        try:
            ranks = rank_range(ranks_text, ace)
        except ValueError as e:
            problem(("deck", "ranks"), f"{e} (layout.ace)")
            return problems
    centre_text = str(layout["centre"])
    centre = rank_index(centre_text)
    if not ranks >> centre & 1:
        problem(
            ("layout", "centre"),
            f"the centre rank {centre_text} (layout.centre) is not in the pack (deck.ranks: "
            f"{ranks_text})",
            ("deck", "ranks"),
        )
        return problems
    pack = Pack(ranks, centre, int(data["deck"]["jokers"]), int(data["deck"]["decks"]))
    players = data["players"]
    if isinstance(players, int) and pack.size < players:
        problem(
            ("players",),
            f"{players} players and a pack of {pack.size} cards (deck.ranks: {ranks_text}): "
            "every player must be dealt a card",
            ("deck", "ranks"),
        )
    if layout["ace_king"] != "none" and not pack.whole:
        problem(
            ("layout", "ace_king"),
            f"layout.ace_king {layout['ace_king']} joins the ace and the king: it needs every "
            f"rank (this profile has deck.ranks: {ranks_text})",
            ("deck", "ranks"),
        )
    leftover = data["deck"]["leftover"]
    if leftover != "dealt" and pack.jokers:
        lies = "face up" if leftover == "face_up" else "face down in the stock"
        problem(
            ("deck", "leftover"),
            f"deck.leftover {leftover} lays the cards dealt to no seat {lies}, and jokers "
            f"are dealt to players only: take deck.jokers 0 (this profile has "
            f"{pack.jokers}) or deck.leftover dealt",
            ("deck", "jokers"),
        )
    method = data["opening"]["method"]
    if leftover == "stock" and method in ("holder_leads", "door_card"):
        needs = "the 7 of the door card's suit" if method == "door_card" else "its card"
        problem(
            ("opening", "method"),
            f"opening.method {method} opens with {needs} from a player's hand, and "
            "deck.leftover stock may leave that card face down in the stock: take "
            "opening.method first_seat or sevens_out, or deck.leftover dealt or face_up",
            ("deck", "leftover"),
        )
    hand = data["deck"]["hand"]
    if isinstance(hand, int) and isinstance(players, int):
        size = pack.size
        if hand * players > size:
            problem(
                ("deck", "hand"),
                f"deck.hand deals {hand} cards to each of {players} players: "
                f"{hand * players} cards, and the pack has {size}",
                ("players",),
            )
        elif leftover == "dealt" and hand * players < size:
            problem(
                ("deck", "hand"),
                f"deck.hand deals {hand} cards to each of {players} players and leaves "
                f"{size - hand * players} of the {size}: say where they lie with "
                "deck.leftover stock (face down) or face_up",
                ("deck", "leftover"),
            )
    if pack.decks > 1 and layout["sides"] == "both_first":
        problem(
            ("layout", "sides"),
            "layout.sides both_first lets a row grow past the centre's neighbours once both "
            "are down in that row, and with several decks (deck.decks: "
            f"{pack.decks}) the copies of a suit lie in rows of their own that the engine "
            "keeps stacked: take layout.sides either, high_first or low_first, or deck.decks 1",
            ("deck", "decks"),
        )
    line = [r for r in line_of(ace) if ranks >> r & 1]
    if layout["ends"] == "cut" and centre in (line[0], line[-1]):
        problem(
            ("layout", "ends"),
            f"layout.ends cut closes a row at either end of its line, and the centre "
            f"{centre_text} (layout.centre) is one: every row would close with its first card",
            ("layout", "centre"),
            ("deck", "ranks"),
        )
    _row_start_errors(data, problem, line, centre)
    method, card_text_ = opening["method"], opening["card"]
    if method in ("holder_leads", "sevens_out"):
        card = parse_card(card_text_)
        if method == "holder_leads" and card % 13 != centre and layout["start"] != "any":
            centres = ", ".join(card_text(c) for c in pack.centre_cards)
            centres = centres.rsplit(", ", 1)[0] + " or " + card_text(pack.centre_cards[-1])
            named = f" (layout.centre: {centre_text})" if centre != SEVEN else ""
            problem(
                ("opening", "card"),
                ("" if centre == SEVEN else "opening.card ")
                + f"{card_text_!r} is not a {centre_text} ({centres}): with opening method "
                f"holder_leads the game opens with this card, and only a {centre_text} starts "
                f"a row{named}",
                ("layout", "centre"),
            )
        elif not pack.suited >> card & 1:
            problem(
                ("opening", "card"),
                f"{card_text_} is not in the pack (deck.ranks: {ranks_text}): nobody would hold it",
                ("deck", "ranks"),
            )
    return problems


def _row_start_errors(
    data: Mapping[str, Any], problem: Callable[..., None], line: list[int], centre: int
) -> None:
    """Rows that grow only upwards (``layout.sides`` up) or begin with any card
    (``layout.start`` any) against the rules that cannot go with them, each reported
    through ``problem`` (the rule given last, the other named)."""
    layout, turn, deck = data["layout"], data["turn"], data["deck"]
    wrap = layout["ace_king"] == "wrap"
    take_wrap = "layout.ace_king wrap" + (" with layout.ace low" if layout["ace"] == "high" else "")
    if layout["sides"] == "up" and layout["ace_king"] == "tunnel":
        problem(
            ("layout", "sides"),
            "layout.sides up grows each row upwards only, and layout.ace_king tunnel plays "
            "a row's other side from its far end: take layout.ace_king wrap or none",
            ("layout", "ace_king"),
        )
    elif layout["sides"] == "up" and not wrap and centre != line[0] and layout["start"] != "any":
        problem(
            ("layout", "sides"),
            f"layout.sides up grows each row upwards from its {RANKS[centre]} only, so the "
            f"ranks below it could never be played: take {take_wrap} (rows go on from K to "
            f"A), or a centre at the low end of the line ({RANKS[line[0]]})",
            ("layout", "ace_king"),
            ("layout", "centre"),
        )
    if layout["start"] != "any":
        return
    if not wrap:
        problem(
            ("layout", "start"),
            "layout.start any lets any card begin a row, and a row begun at a middle rank "
            f"could never reach both ends of its line: take {take_wrap} (rows go on from K "
            f"to A; this profile has layout.ace_king {layout['ace_king']})",
            ("layout", "ace_king"),
        )
    if layout["sides"] not in ("up", "either"):
        problem(
            ("layout", "start"),
            f"layout.start any begins a row with any card, and layout.sides {layout['sides']} "
            "orders the sides of a 7: take layout.sides up or either",
            ("layout", "sides"),
        )
    if int(deck["jokers"]):
        problem(
            ("layout", "start"),
            "layout.start any begins a row with any card, and a joker stands in for a card "
            "of a row whose centre is fixed: take deck.jokers 0",
            ("deck", "jokers"),
        )
    if int(deck["decks"]) > 1:
        problem(
            ("layout", "start"),
            "layout.start any begins a row with any card, and with several decks each copy "
            "of a suit would need a first card of its own: take deck.decks 1",
            ("deck", "decks"),
        )
    bursts = (
        turn["stuck"] == "pass"
        and turn["pass_limit"] is not None
        and turn["out_of_passes"] == "burst"
    )
    if bursts:
        problem(
            ("layout", "start"),
            "layout.start any reads a row's first card from the row, and a burst lays a "
            "hand's cards in rows that no card has begun: take turn.out_of_passes cover or "
            "no turn.pass_limit",
            ("turn", "out_of_passes"),
        )


def load_profile(ref: str | Path, overrides: Sequence[str] | Mapping[str, Any] = ()) -> Profile:
    """Load, merge, validate and freeze a profile; raises ProfileError with every problem."""
    ref_text = str(ref)
    path = find_profile(ref_text)
    if path is None:
        known = ", ".join(resources.builtin_profiles())
        raise ProfileError(
            [
                Problem(
                    Location(ref_text, 1, 1),
                    (),
                    f"no such profile file or built-in profile (built-ins: {known})",
                )
            ]
        )
    chain = _chain(path)
    display = _display(path)
    data: dict[str, Any] = {}
    origins: dict[Path_, Origin] = {}
    keys: dict[Path_, Location] = {}
    described: tuple[str, int, dict[str, Any]] | None = None  # author, its depth, its rules
    for depth, (p, doc) in reversed(list(enumerate(chain))):
        pid = str(doc.data.get("id", p.stem))
        origin = Origin("profile" if depth == 0 else "parent", None, pid)
        _merge(data, doc.data, origins, keys, doc, origin)
        if "description" in doc.data:
            described = (pid, depth, copy.deepcopy(data))
    top = chain[0][1].data
    top_id = str(top.get("id", path.stem))
    data["id"] = top_id
    if "id" not in top:  # named after its file
        origins[("id",)] = Origin("profile", Location(display, 1, 1), top_id)
    data.pop("extends", None)
    applied: dict[str, Any] = {}
    surprises = [x for _, doc in chain for x in doc.surprises]
    for opath, value, where, parts in _overrides(overrides, surprises):
        _apply_override(data, opath, value, where, origins, keys, parts)
        applied[".".join(map(str, opath))] = value
    fallback = Location(display, 1, 1)
    schema = registry.extend_schema(resources.schema("profile"))
    _warn_of(surprises, schema)
    problems = schema_errors(data, schema, _origin_locator(origins, keys, fallback))
    if not problems:
        problems = _semantic_errors(data, origins, keys, fallback)
    if problems:
        chained = ""
        if len(chain) > 1:
            chained = "extends chain: " + " -> ".join(_display(p) for p, _ in chain)
        from_file = "id" not in top and "id" not in applied
        raise ProfileError(
            [
                Problem(
                    p.location,
                    p.path,
                    p.message,
                    "a profile without id: is named after its file"
                    if from_file and p.path == ("id",)
                    else chained
                    if p.location.file != fallback.file and p.location.file != SET_FILE
                    else "",
                )
                for p in problems
            ]
        )
    for path_ in _all_paths(data):
        origins.setdefault(path_, Origin("default"))
    return Profile(
        id=data["id"],
        data=freeze(data),
        origins=freeze_origins(origins),
        source=display,
        chain=(data["id"], *(str(d.data.get("id", p.stem)) for p, d in chain[1:])),
        overrides=freeze(applied),
        described=_described(described, data, schema, bool(applied)),
    )


def _warn_of(surprises: Sequence[Surprise], schema: Mapping[str, Any]) -> None:
    """Warn (YAMLWarning) of each value read unlike it looks, unless the rule takes what
    it was read as: yes/no for a rule that is true or false, text for a rule of text."""
    for x in surprises:
        types = _types_at(schema, x.problem.path)
        if x.kind == "boolean" and "boolean" in types:
            continue
        if x.kind == "text" and types == {"string"}:
            continue
        warnings.warn(YAMLWarning(x.problem), stacklevel=3)


def _types_at(schema: Mapping[str, Any], path: Path_) -> set[str]:
    """The JSON types the schema allows at ``path`` (empty when it names no rule)."""
    sub: Any = schema
    for part in path:
        if not isinstance(sub, Mapping):
            return set()
        sub = sub.get("items") if isinstance(part, int) else sub.get("properties", {}).get(part)
    if not isinstance(sub, Mapping):
        return set()
    kind = sub.get("type", [])
    return {kind} if isinstance(kind, str) else set(kind)


def _described(
    author: tuple[str, int, dict[str, Any]] | None,
    data: Mapping[str, Any],
    schema: Mapping[str, Any],
    overridden: bool,
) -> Described | None:
    """Who wrote the profile's description, and the rules in effect that differ from that
    profile's own (none when the profile wrote it and nothing was overridden)."""
    if author is None:
        return None
    by, depth, rules = author
    if depth == 0 and not overridden:
        return Described(by)
    for _ in _FILLER.cls(schema).iter_errors(rules):
        pass  # fills the defaults of the author's rules
    missing = object()
    differs = []
    for path_ in _all_paths(data):
        if path_[0] in META or isinstance(_at(data, path_), dict):
            continue
        if _at(data, path_) != _at(rules, path_, missing):
            differs.append(format_path(path_))
    return Described(by, tuple(differs))


def _at(data: Any, path: Path_, missing: Any = None) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return missing
        data = data[part]
    return data


def freeze_origins(origins: Mapping[Path_, Origin]) -> Mapping[Path_, Origin]:
    """The origins of a loaded profile, as stored on it."""
    return dict(origins)


def load_resolved(
    data: Mapping[str, Any],
    *,
    source: str,
    chain: Sequence[str] = (),
    overrides: Mapping[str, Any] | None = None,
) -> Profile:
    """A profile from rules already resolved (``Profile.resolved()``, as a run or a record
    stores them), validated again against the schema and the registered hooks: stored rules
    that this installation cannot play (a hook no longer installed, a changed schema) are a
    ProfileError located at ``source``."""
    if not isinstance(data, Mapping) or not isinstance(data.get("id"), str):
        raise ProfileError([Problem(Location(source, 1, 1), (), "stored rules are not a profile")])
    resolved = copy.deepcopy(dict(data))
    origins = {path: Origin("default") for path in _all_paths(resolved)}  # nothing to flag
    fallback = Location(source, 1, 1)
    schema = registry.extend_schema(resources.schema("profile"))
    problems = schema_errors(resolved, schema, lambda path, key=False: fallback)
    if not problems:
        problems = _semantic_errors(resolved, origins, {}, fallback)
    if problems:
        raise ProfileError(problems)
    return Profile(
        id=resolved["id"],
        data=freeze(resolved),
        origins=origins,
        source=source,
        chain=tuple(chain) or (resolved["id"],),
        overrides=freeze(dict(overrides or {})),
    )


def _overrides(
    overrides: Sequence[str] | Mapping[str, Any], surprises: list[Surprise] | None = None
) -> Iterable[tuple[Path_, Any, Location, list[Location]]]:
    if isinstance(overrides, Mapping):
        for i, (k, v) in enumerate(overrides.items(), start=1):
            path, parts = _override_key(str(k), i)
            yield path, v, Location(SET_FILE, i, len(str(k)) + 2), parts
    else:
        for i, text in enumerate(overrides, start=1):
            yield _parse_override(text, i, surprises)


def _all_paths(value: Any, path: Path_ = ()) -> Iterator[Path_]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield (*path, k)
            yield from _all_paths(v, (*path, k))
