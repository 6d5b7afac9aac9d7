"""Game records (JSON Lines) and their replay.

One JSON object per game: profile, options (overrides), the fingerprint of the rules (and,
for a profile that is not built-in, the resolved rules themselves), seed, players, hands as
dealt, door_card, every action and automatic event in order, and the result. ``replay``
re-runs a record through the engine and lists every disagreement.

Reading is defensive: a file is read as a stream of lines, each line bounded in size, and a
line that is not a record (not UTF-8, not JSON, a number JSON allows but a record cannot
hold, nested too deeply, against the schema, or contradicting itself) is reported at its
line and column while the other lines are still read.
"""

from __future__ import annotations

import errno
import io
import json
import math
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate, islice
from pathlib import Path
from typing import IO, Any, cast

import jsonschema

from paiqi_core import resources
from paiqi_core.actions import from_record, is_event, record_action
from paiqi_core.cards import alike_card, card_text, is_joker, parse_card
from paiqi_core.engine import Game, State
from paiqi_core.engine.game import game_of
from paiqi_core.games import game_for, overrides_key
from paiqi_core.hooks import registry
from paiqi_core.profile import Location, Problem, Profile, ProfileError, load_profile
from paiqi_core.profile.errors import Path_
from paiqi_core.profile.load import SET_FILE, load_resolved
from paiqi_core.profile.model import freeze
from paiqi_core.rules import rules_of
from paiqi_core.streams import GENERATOR, LEGACY

MAX_LINE_BYTES = 1 << 20  # a record line, by default: a real game is under 100 KB
MAX_DEPTH = 32  # nesting of arrays and objects (a record needs about 6)
MAX_DIGITS = 1000  # digits of an integer
MAX_PROBLEMS = 20  # schema problems reported for one line


# -- writing -------------------------------------------------------------------------------
def state_record(state: State) -> dict[str, Any]:
    """The record of a game (finished or not: ``result`` is None until it is over).

    A game of a built-in profile is named by its id and options; any other carries its
    resolved rules, so that it replays without the profile's file."""
    game = state.game
    profile = game.rules.profile
    record: dict[str, Any] = {
        "profile": game.id,
        "options": dict(game.rules.options),
        "fingerprint": profile.fingerprint,
        "seed": state.seed,
        **({"generator": state.generator} if state.seed is not None else {}),
        "players": game.players,
        "hands": [[card_text(c) for c in state.dealt_cards(s)] for s in range(game.players)],
        "door_card": None if state.door_card is None else card_text(state.door_card),
        **({} if state.lead is None else {"lead": state.lead}),
        "actions": [record_action(s, a) for s, a in state.log],
        "result": state.result().as_record() if state.over else None,
    }
    if not is_builtin(profile):
        record["rules"] = profile.resolved()
    return record


_BUILTIN: dict[str, bool] = {}  # fingerprint -> the built-in of that id gives those rules


def is_builtin(profile: Profile) -> bool:
    """Whether the built-in profile of this id, with this profile's overrides, has exactly
    its rules (so a record may name it by id and options alone)."""
    key = profile.fingerprint
    known = _BUILTIN.get(key)
    if known is None:
        path = resources.builtin_profiles().get(profile.id)
        known = False
        if path is not None:
            try:
                known = load_profile(str(path), dict(profile.overrides)).fingerprint == key
            except ProfileError:
                known = False
        _BUILTIN[key] = known
    return known


def rules_fingerprint(rules: Mapping[str, Any]) -> str:
    """The fingerprint of stored rules: what ``Profile.fingerprint`` gives for them."""
    return Profile(
        str(rules.get("id", "")), freeze(dict(rules)), {}, "", (), freeze({})
    ).fingerprint


class WriteFailed(OSError):
    """A file (or the output) that could not be written: the disk is full, the file is too
    large for its file system, a device failed. The message names it and says why."""

    def __str__(self) -> str:
        return str(self.strerror)


# errors of a write that are about the disk or device, not about the program
WRITE_ERRNOS = frozenset(
    e
    for e in (
        errno.ENOSPC,
        errno.EIO,
        errno.EFBIG,
        getattr(errno, "EDQUOT", None),
        errno.EROFS,
        errno.EPERM,
        errno.EACCES,
    )
    if e is not None
)


def write_failed(error: OSError, what: str) -> WriteFailed:
    """``error`` of writing ``what`` as a WriteFailed: "cannot write WHAT: REASON"."""
    reason = error.strerror or str(error)
    failed = WriteFailed(error.errno, f"cannot write {what}: {reason}")
    failed.filename = what
    return failed


class RecordWriter(io.TextIOBase):
    """A records file written whole lines at a time.

    Text is gathered and written up to its last complete line, in chunks of about 64 KB
    (and on ``flush`` and ``close``). If a write fails (a full disk), the file is cut back
    to the end of its last whole line, so that every line in it is a whole record, and
    WriteFailed is raised, naming the file."""

    CHUNK = 1 << 16

    def __init__(self, path: Path | str, raw: io.RawIOBase | None = None) -> None:
        self.path = str(path)
        self._raw = raw if raw is not None else io.FileIO(self.path, "w")
        self._pending = bytearray()
        self._written = 0  # bytes in the file: whole lines only

    def write(self, text: str) -> int:
        """Take ``text``; write the whole lines gathered once they reach a chunk."""
        self._pending += text.encode("utf-8")
        if len(self._pending) >= self.CHUNK:
            self._write_lines()
        return len(text)

    def _write_lines(self) -> None:
        end = self._pending.rfind(b"\n") + 1
        if not end:
            return
        data = bytes(self._pending[:end])
        done = 0
        try:
            while done < end:
                n = self._raw.write(data[done:])
                if not n:
                    raise OSError(errno.EIO, "the file took no more bytes")
                done += n
        except OSError as e:
            # the last whole line ends the file (/dev/full, not a regular file, kept nothing)
            with suppress(OSError):
                self._raw.truncate(self._written)
                self._raw.seek(self._written)
            self._pending.clear()
            raise write_failed(e, self.path) from None
        self._written += end
        del self._pending[:end]

    def flush(self) -> None:
        """Write every whole line gathered so far."""
        self._write_lines()

    def close(self) -> None:
        """Write what is gathered (a last line without its newline ends it) and close."""
        if self.closed:
            return
        try:
            if self._pending and not self._pending.endswith(b"\n"):
                self._pending += b"\n"
            self._write_lines()
        finally:
            self._raw.close()

    @property
    def closed(self) -> bool:
        """Whether the file is closed."""
        raw = getattr(self, "_raw", None)  # None: the file could not be opened
        return raw is None or bool(raw.closed)

    def writable(self) -> bool:
        """A records file is written."""
        return True


def open_records(path: Path | str) -> IO[str]:
    """A records file to write, whole lines at a time (OSError if it cannot be opened)."""
    return cast(IO[str], RecordWriter(path))


# -- reading -------------------------------------------------------------------------------
@dataclass(frozen=True)
class RecordLine:
    """One record of a file and its line number."""

    line: int
    data: dict[str, Any]


class _Refused(ValueError):
    """A JSON literal a record cannot hold (raised from the parser's hooks)."""

    def __init__(self, literal: str, message: str) -> None:
        super().__init__(message)
        self.literal = literal
        self.message = message


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _Refused(
            text, f"an integer of {digits:,} digits (a record's integers have at most {MAX_DIGITS})"
        )
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(text, f"{text[:40]} is out of the range of numbers (it reads as {value})")
    return value


def _parse_constant(text: str) -> float:
    raise _Refused(text, f"{text} is not a number a record may hold (JSON has no NaN or Infinity)")


# a string, or the rest of the line after an unclosed quote: no scan ever backtracks
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"?'
_STRING_RE = re.compile(_STRING)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET = re.compile(rf'(?>[^"\[\]{{}}]+|{_STRING})*+([\[\]{{}}])')  # the next one
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_LITERAL = re.compile(
    rf"{_STRING}|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|NaN|-?Infinity"
)
_LONE_SURROGATE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


def _too_deep(text: str) -> int | None:
    """The column where ``text`` nests arrays and objects deeper than MAX_DEPTH, if it
    does (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    brackets = _NOT_BRACKET.sub("", _STRING_RE.sub("", text))
    depths = list(accumulate(map(_STEP.__getitem__, brackets)))
    if max(depths, default=0) <= MAX_DEPTH:
        return None
    k = depths.index(MAX_DEPTH + 1)  # the bracket that opens one level too many
    return next(islice(_BRACKET.finditer(text), k, None)).start(1) + 1


def _column_of(text: str, literal: str) -> int:
    """The column of the first ``literal`` outside strings (1 if not found)."""
    for m in _LITERAL.finditer(text):
        if m.group() == literal:
            return m.start() + 1
    return 1


def _has_lone_surrogate(value: Any) -> bool:
    """Whether a string in ``value`` (keys included) holds half of a surrogate pair."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(v, dict):
            stack.extend(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def _line_problem(file: str, line: int, col: int, message: str) -> ProfileError:
    return ProfileError([Problem(Location(file, line, col), (), message)])


def parse_line(text: str, file: str, line: int) -> Any:
    """The JSON value of one line of a record file; ProfileError, located at the line and
    column, for text that is not JSON or that a record cannot hold: NaN, Infinity, numbers
    out of range, integers of more than MAX_DIGITS digits, nesting deeper than MAX_DEPTH,
    a lone half of a surrogate pair."""
    col = _too_deep(text)
    if col is not None:
        message = f"nested more than {MAX_DEPTH} deep (a record needs about 6)"
        raise _line_problem(file, line, col, message)
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as e:
        raise _line_problem(file, line, e.colno, f"not JSON: {e.msg}") from None
    except _Refused as e:
        raise _line_problem(file, line, _column_of(text, e.literal), e.message) from None
    except RecursionError:  # not reached with MAX_DEPTH well under the recursion limit
        raise _line_problem(file, line, 1, "nested too deeply") from None
    if "\\u" in text and _LONE_SURROGATE.search(text) and _has_lone_surrogate(data):
        m = _LONE_SURROGATE.search(text)
        raise _line_problem(
            file,
            line,
            m.start() + 1 if m else 1,
            "a string holds half of a surrogate pair (\\ud800-\\udfff alone): not Unicode text",
        )
    return data


_VALID_ITEMS: dict[tuple[int, Any], bool] = {}  # (items schema, item key) -> valid
_ITEM_SCHEMAS: dict[int, Any] = {}  # the schemas of those ids, kept alive
_VALID_ITEMS_LIMIT = 1 << 16


def _item_key(item: Any) -> Any:
    """A key that tells a scalar, or an object of scalars, from every other (types included:
    1, 1.0 and true differ); None for anything else."""
    if isinstance(item, str | int | float | bool) or item is None:
        return (type(item), item)
    if isinstance(item, dict) and all(
        isinstance(v, str | int | float | bool) or v is None for v in item.values()
    ):
        return tuple(sorted((k, type(v), v) for k, v in item.items()))
    return None


def _strict_validator() -> type[jsonschema.Draft202012Validator]:
    """Draft 2020-12 where an integer is a JSON integer (not 4.0); where an array or object
    over its size bound is reported by maxItems or maxProperties alone, its members not
    checked one by one; and where an array item met before and found valid (the same card,
    the same action) is not checked again."""
    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _, v: isinstance(v, int) and not isinstance(v, bool)
    )
    original = base.VALIDATORS

    def bounded(keyword: str, bound: str, kind: str) -> Any:
        check = original[keyword]

        def validate(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
            if validator.is_type(instance, kind) and len(instance) > schema.get(bound, math.inf):
                return
            yield from check(validator, value, instance, schema)

        return validate

    def items(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not validator.is_type(instance, "array") or "prefixItems" in schema or value is False:
            yield from original["items"](validator, value, instance, schema)
            return
        if len(instance) > schema.get("maxItems", math.inf):
            return
        for index, item in enumerate(instance):
            key = _item_key(item)
            if key is not None and (id(value), key) in _VALID_ITEMS:
                continue
            errors = list(validator.descend(item, value, path=index))
            if not errors and key is not None and len(_VALID_ITEMS) < _VALID_ITEMS_LIMIT:
                _ITEM_SCHEMAS[id(value)] = value
                _VALID_ITEMS[id(value), key] = True
            yield from errors

    def size(kind: str, members: str) -> Any:
        def validate(validator: Any, bound: int, instance: Any, schema: Any) -> Iterator[Any]:
            if validator.is_type(instance, kind) and len(instance) > bound:
                yield jsonschema.ValidationError(f"{len(instance):,} {members}: at most {bound:,}")

        return validate

    overrides = {
        "maxItems": size("array", "items"),
        "maxProperties": size("object", "keys"),
        "maxLength": size("string", "characters"),
        "items": items,
        "properties": bounded("properties", "maxProperties", "object"),
        "propertyNames": bounded("propertyNames", "maxProperties", "object"),
        "additionalProperties": bounded("additionalProperties", "maxProperties", "object"),
    }
    return jsonschema.validators.extend(base, overrides, type_checker=checker)


_VALIDATOR: jsonschema.Draft202012Validator | None = None


def _validator() -> jsonschema.Draft202012Validator:
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = _strict_validator()(resources.schema("record"))
    return _VALIDATOR


def _brief(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def _schema_problems(data: Any, where: Location) -> list[Problem]:
    """The schema problems of a record (at most MAX_PROBLEMS), in words."""
    problems: list[Problem] = []
    for error in _validator().iter_errors(data):
        path = tuple(error.absolute_path)
        kind, value, instance = error.validator, error.validator_value, error.instance
        if kind == "not" and isinstance(instance, dict) and list(value) == ["required"]:
            key = value["required"][0]  # a key this kind of entry never has
            what = f"a {instance['type']} entry" if isinstance(instance.get("type"), str) else "it"
            problems.append(Problem(where, (*path, key), f"not allowed: {what} names no {key}"))
            continue
        if kind == "additionalProperties" and isinstance(instance, dict):
            known = list(error.schema.get("properties", {}))
            for extra in sorted(set(instance) - set(known), key=str):
                problems.append(
                    Problem(where, (*path, extra), f"unknown key (known: {', '.join(known)})")
                )
            continue
        if kind in ("maxItems", "maxProperties", "maxLength", "required", "dependentRequired"):
            message = error.message
        elif kind == "pattern" and "x-expected" in error.schema:
            message = f"{_brief(instance)} is not {error.schema['x-expected']}"
        elif kind == "type":
            message = f"{_brief(instance)} is not of type {' or '.join(map(repr, _listed(value)))}"
        elif kind == "enum":
            message = f"{_brief(instance)} is not one of {', '.join(map(repr, value))}"
        else:
            message = error.message.replace(repr(instance), _brief(instance), 1)
        problems.append(Problem(where, path, message))
        if len(problems) >= MAX_PROBLEMS:
            problems.append(Problem(where, (), f"(only the first {MAX_PROBLEMS} problems shown)"))
            break
    return problems


def _listed(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _consistency_problems(data: Mapping[str, Any], where: Location) -> list[Problem]:
    """What a schema-valid record says against itself: hands, seats and results for another
    number of players; stored rules that are not those of its profile or fingerprint."""
    n = data["players"]
    problems: list[Problem] = []
    if len(data["hands"]) != n:
        problems.append(
            Problem(where, ("hands",), f"{len(data['hands'])} hands for {n} players (one a seat)")
        )
    for i, entry in enumerate(data["actions"]):
        if entry["seat"] >= n:
            problems.append(
                Problem(
                    where,
                    ("actions", i, "seat"),
                    f"seat {entry['seat']} in a game of {n} players (seats 0 to {n - 1})",
                )
            )
            break
    for key, value in (data.get("result") or {}).items():
        if isinstance(value, list) and len(value) != n:
            problems.append(
                Problem(
                    where, ("result", key), f"{len(value)} entries for {n} players (one a seat)"
                )
            )
    rules = data.get("rules")
    if rules is not None:
        if rules["id"] != data["profile"]:
            problems.append(
                Problem(
                    where,
                    ("rules", "id"),
                    f"the stored rules are of profile '{rules['id']}', the record names "
                    f"'{data['profile']}'",
                )
            )
        if rules_fingerprint(rules) != data["fingerprint"]:
            problems.append(
                Problem(
                    where,
                    ("fingerprint",),
                    "does not match the stored rules (were they edited after the game?)",
                )
            )
    return problems


def check_record(data: Any, file: str, line: int) -> list[Problem]:
    """Every problem of a parsed line as a record (schema, then consistency); [] if none."""
    where = Location(file, line, 1)
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "true or false", type(None): "null"}
        what = kind.get(type(data), "a number")
        return [Problem(where, (), f"a record is a JSON object {{...}}; this line holds {what}")]
    return _schema_problems(data, where) or _consistency_problems(data, where)


def _skip_line(f: Any) -> int:
    """Read past the rest of a line without keeping it; the bytes skipped."""
    skipped = 0
    while True:
        chunk = f.readline(1 << 16)
        skipped += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            return skipped


def read_records(
    path: Path, *, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[RecordLine | ProfileError]:
    """Records of a JSON Lines file, read as a stream; a line that is not a record yields
    its located error, and so does a file that cannot be read or holds no record."""
    file = str(path)
    found = False
    try:
        with open(path, "rb") as f:
            number = 0
            while True:
                raw = f.readline(max_line_bytes + 2)  # room for the bound and CR LF
                if not raw:
                    break
                number += 1
                content = raw.rstrip(b"\r\n")
                if len(content) > max_line_bytes:
                    size = len(raw) + (0 if raw.endswith(b"\n") else _skip_line(f))
                    found = True
                    yield _line_problem(
                        file,
                        number,
                        1,
                        f"a line of {size:,} bytes: a record line is at most {max_line_bytes:,} "
                        "(a game's record is far smaller; replay --max-line-bytes raises it)",
                    )
                    continue
                if number == 1 and content.startswith(b"\xef\xbb\xbf"):
                    content = content[3:]  # a UTF-8 byte order mark
                try:
                    text = content.decode("utf-8")
                except UnicodeDecodeError as e:
                    found = True
                    col = len(content[: e.start].decode("utf-8")) + 1
                    byte = content[e.start : e.start + 1].hex()
                    yield _line_problem(
                        file, number, col, f"not UTF-8 text: byte 0x{byte} ({e.reason})"
                    )
                    continue
                if not text.strip():
                    continue
                found = True
                try:
                    data = parse_line(text, file, number)
                except ProfileError as e:
                    yield e
                    continue
                problems = check_record(data, file, number)
                if problems:
                    yield ProfileError(problems)
                    continue
                yield RecordLine(number, data)
    except OSError as e:
        yield _line_problem(file, 1, 1, f"cannot read: {e.strerror or e}")
        return
    if not found:
        yield _line_problem(file, 1, 1, "no records: the file is empty or holds only blank lines")


# -- the game of a record ------------------------------------------------------------------
_STORED: dict[tuple[str, str, tuple[int, ...]], Game] = {}  # the games of stored rules
_STORED_LIMIT = 64


def record_game(record: Mapping[str, Any], where: Location | None = None) -> Game:
    """The compiled game a record was played under: its stored rules, else the built-in
    profile it names, with its options. A record that names anything else is refused (its
    ``profile`` is never opened as a file). ProfileError, located at ``where``, if it cannot
    be had."""
    where = where or Location("<record>", 1, 1)
    options = dict(record.get("options") or {})
    rules = record.get("rules")
    try:
        if rules is not None:
            key = (rules_fingerprint(rules), overrides_key(options), _hooks_of(rules))
            game = _STORED.get(key)
            if game is None:
                profile = load_resolved(rules, source="rules", overrides=options)
                if len(_STORED) >= _STORED_LIMIT:
                    _STORED.clear()
                game = _STORED[key] = game_of(rules_of(profile))
            return game
        ref = str(record["profile"])
        builtin = resources.builtin_profiles().get(ref)
        if builtin is None:  # never a file: a record is data, not a path to open
            raise ProfileError(
                [
                    Problem(
                        where,
                        ("profile",),
                        f"{_brief(ref)} is not a built-in profile (built-ins: "
                        f"{', '.join(resources.builtin_profiles())}), and the record carries "
                        "no rules (records of other profiles store them)",
                    )
                ]
            )
        return game_for(str(builtin), options)
    except ProfileError as e:
        raise _relocated(e, where, options, stored=rules is not None) from None


def _hooks_of(rules: Mapping[str, Any]) -> tuple[int, ...]:
    """Which registered hooks the stored rules name (a hook registered anew, or no longer,
    loads the rules anew)."""
    found = []
    for slot, dotted in registry.SLOTS.items():
        section, key = dotted.split(".")
        part = rules.get(section)
        name = part.get(key) if isinstance(part, Mapping) else None
        found.append(id(registry.hooks(slot).get(name)) if isinstance(name, str) else 0)
    return tuple(found)


def _relocated(
    error: ProfileError, where: Location, options: Mapping[str, Any], *, stored: bool
) -> ProfileError:
    """A profile's problems as problems of the record at ``where``: those of the stored
    rules under ``rules``, those of an override under ``options``."""
    problems = []
    for p in error.problems:
        if p.location == where:
            problems.append(p)
            continue
        dotted = ".".join(map(str, p.path))
        path: Path_
        note = p.note
        if stored:
            path = ("rules", *p.path)
        elif p.location.file == SET_FILE and dotted in options:
            path = ("options", dotted)
        else:
            path = p.path or ("profile",)
            note = "; ".join(x for x in (f"at {p.location}", note) if x)
        problems.append(Problem(where, path, p.message, note))
    return ProfileError(problems)


# -- replay --------------------------------------------------------------------------------
def deal_problems(game: Game, hands: Sequence[Sequence[int]]) -> list[str]:
    """How ``hands`` (card numbers by seat) fail to be a deal of ``game``: every card of its
    deck once (but the cards dealt to no seat: face up, or the stock), in hands of the sizes
    dealing one at a time from seat 0 gives; [] if they are one."""
    deck = game.deck
    in_deck = Counter(map(alike_card, deck))  # the jokers are alike
    held: dict[int, list[int]] = {}
    for seat, hand in enumerate(hands):
        for c in hand:
            held.setdefault(alike_card(c), []).append(seat)
    problems = []
    for c in sorted(held):
        seats = held[c]
        if len(seats) > in_deck[c] > 0:
            where = (
                f"to seat {seats[0]}"
                if len(set(seats)) == 1
                else "to seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"
            )
            times = "twice" if len(seats) == 2 else f"{len(seats)} times"
            problems.append(f"hands: {card_text(c)} is dealt {times}, {where}")
            if in_deck[c] > 1:
                problems[-1] += f" (the deck has {in_deck[c]})"
    extra = [c for c in sorted(held) if c not in in_deck]
    if extra:
        problems.append(
            f"hands: {', '.join(card_text(c) for c in extra)} not in the deck of {game.id} "
            f"({_deck_words(deck)})"
        )
    missing = [c for c in sorted(in_deck) if len(held.get(c, ())) < in_deck[c]]
    if missing and game.dealt == len(deck):  # (else the rest lie face up, or in the stock)
        problems.append(
            f"hands: {', '.join(card_text(c) for c in missing)} of the deck "
            f"({_deck_words(deck)}) dealt to no seat"
        )
    if problems:
        return problems
    n = len(hands)
    sizes = [len(range(seat, game.dealt, n)) for seat in range(n)]
    wrong = [seat for seat in range(n) if len(hands[seat]) != sizes[seat]]
    if wrong:
        got = ", ".join(f"seat {s} holds {len(hands[s])}" for s in wrong)
        rest = len(deck) - game.dealt
        lie = "in the stock" if game.rules.leftover == "stock" else "face up"
        elsewhere = f" (the other {rest} {lie})" if rest else ""
        problems.append(
            f"hands: {got}; dealing {game.dealt} cards one at a time from seat 0 gives "
            + ", ".join(map(str, sizes))
            + elsewhere
        )
    return problems


def _alike(hand: Sequence[int]) -> list[int]:
    """A hand's cards in order, every joker as the first (the jokers are alike)."""
    return sorted(map(alike_card, hand))


def _deck_words(deck: Sequence[int]) -> str:
    jokers = sum(map(is_joker, deck))
    return f"{len(deck)} cards, " + (
        "no joker" if not jokers else f"{jokers} joker" + ("s" if jokers > 1 else "")
    )


def _door_problems(
    game: Game, door: int | None, seed: int | None, generator: str = GENERATOR
) -> list[str]:
    uses = game.uses_door_card
    if door is not None and not uses:
        return [f"door_card: the record has {card_text(door)}; {game.id} cuts no door card"]
    if door is not None and is_joker(door):
        return ["door_card: the joker is never the door card (a cut joker is cut again)"]
    if uses and door is None and seed is None:
        return [f"door_card: the record has none; {game.id} cuts a door card before play"]
    if seed is not None and door is not None and door != game.door_card_of(seed, generator):
        cut = game.door_card_of(seed, generator)
        return [
            f"door_card: not the door card of seed {seed} "
            f"({card_text(cut) if cut is not None else 'none is cut'})"
        ]
    return []


def replay(record: Mapping[str, Any], game: Game | None = None) -> list[str]:
    """Re-run a record (under ``game``, or the game it was played under); the list of
    disagreements (empty when it replays exactly)."""
    game = game or record_game(record)
    problems = _replay(record, game)
    then = record.get("fingerprint")
    if problems and then and "rules" not in record and then != game.rules.fingerprint:
        problems.append(
            f"note: the rules of {game.id} have changed since this record was written "
            f"(fingerprint {then[:12]} then, {game.rules.fingerprint[:12]} now)"
        )
    return problems


def _replay(record: Mapping[str, Any], game: Game) -> list[str]:
    if record["players"] != game.players:
        return [f"players: record has {record['players']}, profile {game.id} has {game.players}"]
    hands = [[parse_card(c) for c in hand] for hand in record["hands"]]
    if len(hands) != game.players:
        return [f"hands: {len(hands)} hands for {game.players} players"]
    problems = deal_problems(game, hands)
    if problems:
        return problems
    seed = record.get("seed")
    generator = record.get("generator", LEGACY)  # records without one were dealt by it
    if seed is not None and [_alike(h) for h in hands] != list(
        map(_alike, game.deal(seed, generator))
    ):
        problems.append(f"hands: not the deal of seed {seed}")
    door = parse_card(record["door_card"]) if record.get("door_card") else None
    door_problems = _door_problems(game, door, seed, generator)
    if (door is not None and is_joker(door)) or (door is None and door_problems):
        return problems + door_problems  # no game can start
    problems += door_problems
    lead = record.get("lead")
    if lead is not None and not 0 <= lead < game.players:
        return [*problems, f"lead: no seat {lead} among {game.players} players"]
    state = game.new_state(seed=seed, hands=hands, door_card=door, generator=generator, lead=lead)
    for i, entry in enumerate(record["actions"]):
        action = from_record(entry)
        if is_event(action):
            if i >= len(state.log) or state.log[i] != (entry["seat"], action):
                problems.append(
                    f"actions[{i}]: the record has an event the engine did not "
                    f"produce here: {entry}"
                )
                return problems
            continue
        if len(state.log) != i:
            problems.append(
                f"actions[{i}]: the engine logged {record_action(*state.log[i])} "
                "here, which the record lacks"
            )
            return problems
        reason = state.why_illegal(action, entry["seat"])
        if reason is not None:
            problems.append(
                f"actions[{i}] ({entry['seat']} {entry['type']} "
                f"{entry.get('card', '')}): {reason}".replace(" )", ")")
            )
            return problems
        state.apply_unchecked(action)
    if len(state.log) > len(record["actions"]):
        extra = record_action(*state.log[len(record["actions"])])
        problems.append(
            f"actions[{len(record['actions'])}]: the engine logged {extra} here, "
            "which the record lacks"
        )
        return problems
    if not state.over:
        problems.append("the actions end before the game is over")
        return problems
    expected = record.get("result")
    actual = state.result().as_record()
    if expected is None:
        problems.append(f"result: the record has none; the game is over and gives {actual}")
    else:
        for key, want in expected.items():
            got = actual.get(key)
            if key == "money":
                same = _amounts(want) == _amounts(got or [])
            elif key == "house":  # the engine leaves out a house of 0
                same = _amounts([want]) == _amounts([got or 0])
            else:
                same = want == got
            if not same:
                problems.append(f"result.{key}: record says {want}, the engine gives {got}")
    return problems


def _amounts(values: Sequence[int | str]) -> list[Fraction]:
    """Amounts of money (integers or "a/b") as exact fractions."""
    return [Fraction(str(x)) for x in values]
