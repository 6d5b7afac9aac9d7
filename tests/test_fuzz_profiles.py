"""Fuzzing the profile language: whatever a rule author writes is either a profile that
plays, or a ProfileError whose every problem is located (file, line >= 1, col >= 1).

Two fuzzers share the built-in profiles as material:

- the text fuzzer breaks the YAML text itself (control characters, bytes that are not
  UTF-8, brackets, tags, anchors, cut and doubled lines, and --set overrides of any text):
  many cheap examples, each loaded and compiled;
- the rules fuzzer mutates the rules (drops keys, swaps values between keys, sets wrong
  types, edge and huge numbers, NaN and infinities, control characters, nesting, values of
  other profiles, any valid value of the schema), writes them as a profile file (sometimes
  extending a built-in or another written file, sometimes with --set), and plays every
  valid result: 20 games stored as run rows, a session and, for rank points, a match.

The examples are the same on every run (derandomized) so the suite stays stable; set
PAIQI_FUZZ_EXAMPLES to run more, with fresh randomness, when hunting.
"""

from __future__ import annotations

import copy
import itertools
import math
import os
import re
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from paiqi_core import resources
from paiqi_core.cards import card_text
from paiqi_core.cli import main
from paiqi_core.engine import Game
from paiqi_core.hooks import registry
from paiqi_core.profile import Profile, ProfileError, load_profile
from paiqi_core.profile.explain import explain_text
from paiqi_core.profile.load import RULE_NEEDS
from paiqi_core.profile.ranges import range_notes
from paiqi_core.runs.batch import game_rows
from paiqi_core.runs.block import encode_rows
from paiqi_core.runs.store import RunSpec, Store
from paiqi_core.simulate import simulate_matches, simulate_sessions
from paiqi_core.testing import money_changes_hands

HUNTING = "PAIQI_FUZZ_EXAMPLES" in os.environ
TEXT_EXAMPLES = int(os.environ.get("PAIQI_FUZZ_EXAMPLES", "2000"))
RULE_EXAMPLES = max(TEXT_EXAMPLES // 5, 1)
SECONDS_TO_PLAY = 10.0  # 20 games, a session and a match of any valid profile

BUILTINS = resources.builtin_profiles()
TEXTS = {pid: path.read_bytes() for pid, path in BUILTINS.items()}
WRITTEN = {pid: yaml.safe_load(text) for pid, text in TEXTS.items()}  # with extends:
SCHEMA = registry.extend_schema(resources.schema("profile"))
SLOT_OF = {dotted: slot for slot, dotted in registry.SLOTS.items()}
CARDS = [card_text(c) for c in range(52)]


def standalone(rules: dict[str, Any]) -> dict[str, Any]:
    """Resolved rules as a profile file may write them: without the parameters that the
    chosen hooks do not read (a profile that sets one is refused)."""
    for slot, dotted in registry.SLOTS.items():
        section, key = dotted.split(".")
        if not isinstance(rules.get(section), dict):
            continue
        chosen = registry.hooks(slot).get(rules[section].get(key))
        reads = set(chosen.params) if chosen else set()
        for hook in registry.hooks(slot).values():
            for param in set(hook.params) - reads:
                rules[section].pop(param, None)
    return rules


RESOLVED = {pid: standalone(load_profile(pid).resolved()) for pid in BUILTINS}  # no extends


def _leaves(schema: Mapping[str, Any], path: tuple[str, ...] = ()) -> Iterator[Any]:
    for key, sub in schema.get("properties", {}).items():
        here = (*path, key)
        if sub.get("type") == "object" and "properties" in sub:
            yield from _leaves(sub, here)
        else:
            yield here, sub


LEAVES = dict(_leaves(SCHEMA))
RULES = [p for p in LEAVES if p[0] not in ("id", "name", "description", "extends")]
SECTIONS = [(k,) for k, sub in SCHEMA["properties"].items() if sub.get("type") == "object"]

# -- values ------------------------------------------------------------------------------
EDGE_NUMBERS = [
    0, 1, -1, 2, 3, 4, 5, 7, 8, 9, 13, 52, 99, 100, 101, 1000, 1001, 10_000, 10_001,
    1_000_000, 1_000_001, 10**12, 10**12 + 1, 2**31, 2**53 + 1, 2**63, -(2**63), 10**19,
    10**400, 0.0, -0.0, 0.5, 4.0, 1e-300, 5e-324, 1e300, 9999.999, 10000.5,
    math.nan, math.inf, -math.inf,
]  # fmt: skip
TEXTS_OF_NOTE = [
    "", " ", "S7", "H7", "HK", "DA", "X1", "S11", "joker", "none", "null", "~", "yes",
    "low", "high", "cut", "wrap", "tunnel", "burst", "heads", "difference", "doujue",
    "pagat", "fuzz", "../fuzz.yaml", "\x00", "\x1b[2J", "a\tb", "\u2028", "七並べ", "a" * 300,
]  # fmt: skip
HOOK_NAMES = sorted({n for slot in registry.SLOTS for n in registry.hooks(slot)})


def weird_values(depth: int = 2) -> st.SearchStrategy[Any]:
    """Values of every kind a rule should not take (and some that it may)."""
    scalars = st.one_of(
        st.sampled_from(EDGE_NUMBERS),
        st.sampled_from(TEXTS_OF_NOTE + HOOK_NAMES),
        st.booleans(),
        st.none(),
        st.integers(),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=12),
    )
    if depth == 0:
        return scalars
    inner = weird_values(depth - 1)
    return st.one_of(
        scalars,
        st.lists(inner, max_size=5),
        st.dictionaries(
            st.sampled_from(["a", "method", "stake", "1", "players"]), inner, max_size=3
        ),
        st.integers(0, 60).map(_nested),
    )


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def valid_values(path: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """Values the schema allows at ``path`` (edges and defaults first)."""
    sub = LEAVES[path]
    if ".".join(path) in SLOT_OF:
        return st.sampled_from(sorted(registry.hooks(SLOT_OF[".".join(path)])))
    if "enum" in sub:
        return st.sampled_from(sub["enum"])
    types = sub.get("type", [])
    types = [types] if isinstance(types, str) else types
    options: list[st.SearchStrategy[Any]] = []
    if "null" in types:
        options.append(st.none())
    if "integer" in types:
        lo, hi = sub.get("minimum", -1000), sub.get("maximum", 1000)
        small = [v for v in (lo, lo + 1, 2, 3, 5, hi) if lo <= v <= hi]
        options += [st.sampled_from(small), st.integers(lo, min(hi, lo + 20))]
    if "number" in types:
        lo, hi = sub.get("minimum", sub.get("exclusiveMinimum", 0)), sub.get("maximum", 1)
        exclusive = "exclusiveMinimum" in sub
        options.append(
            st.floats(lo, hi, exclude_min=exclusive, allow_nan=False, allow_subnormal=True)
        )
        options.append(st.sampled_from([v for v in (0.5, 1, 2, hi) if lo < v <= hi]))
    if "boolean" in types:
        options.append(st.booleans())
    if "string" in types and path == ("opening", "card"):
        options.append(st.sampled_from(CARDS))
    if "array" in types:
        items = sub["items"]
        lo, hi = items.get("minimum", -5), items.get("maximum", 5)
        size = {"min_size": sub.get("minItems", 0), "max_size": sub.get("maxItems", 8)}
        ints = st.one_of(st.sampled_from([lo, 0, 1, hi]), st.integers(lo, hi))
        options.append(st.lists(ints, **size))
    return st.one_of(options) if options else st.just(sub.get("default"))


# -- writing and loading a profile -------------------------------------------------------
def _set(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    node = doc
    for part in path[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[path[-1]] = value


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        if not isinstance(doc, dict) or part not in doc:
            return None
        doc = doc[part]
    return doc


def _paths(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.append((*path, k))
            out += _paths(v, (*path, k))
    return out


def _drop(doc: dict[str, Any], path: tuple[Any, ...]) -> None:
    node = _get(doc, path[:-1]) if len(path) > 1 else doc
    if isinstance(node, dict):
        node.pop(path[-1], None)


def unread(doc: dict[str, Any], base: dict[str, Any]) -> set[tuple[str, ...]]:
    """The parameters that the hooks ``doc`` chooses (or inherits from ``base``) do not
    read: a profile that sets one is refused."""
    out = set()
    for slot, dotted in registry.SLOTS.items():
        section, key = dotted.split(".")
        name = _get(doc, (section, key)) or _get(base, (section, key))
        hooks = registry.hooks(slot)
        reads = set(hooks[name].params) if name in hooks else set()
        out |= {(section, p) for h in hooks.values() for p in h.params if p not in reads}
    return out


def mutate(data: st.DataObject, doc: dict[str, Any], base: dict[str, Any], hostile: bool) -> None:
    """Apply a few random mutations to a profile's rules, in place: of every kind when
    ``hostile``, else only valid values at rules the chosen hooks read."""
    kinds = ["valid", "valid", "valid", "other", "drop", "swap", "weird", "unknown"]
    for _ in range(data.draw(st.integers(0, 5), label="mutations")):
        kind = data.draw(st.sampled_from(kinds if hostile else ["valid", "valid", "other"]))
        existing = _paths(doc)
        if not hostile:
            path = data.draw(st.sampled_from(sorted(set(RULES) - unread(doc, base))))
            value = data.draw(valid_values(path)) if kind == "valid" else None
            if kind == "other":  # the value another built-in profile has
                other = RESOLVED[data.draw(st.sampled_from(sorted(BUILTINS)))]
                value = copy.deepcopy(_get(other, path))
                if value is None and "null" not in str(LEAVES[path].get("type")):
                    value = data.draw(valid_values(path))
            _set(doc, path, value)
        elif kind == "valid":
            path = data.draw(st.sampled_from(RULES))
            _set(doc, path, data.draw(valid_values(path)))
        elif kind == "other":  # the value another built-in profile has
            path = data.draw(st.sampled_from(RULES))
            _set(
                doc,
                path,
                copy.deepcopy(_get(RESOLVED[data.draw(st.sampled_from(list(BUILTINS)))], path)),
            )
        elif kind == "drop" and existing:
            _drop(doc, data.draw(st.sampled_from(existing)))
        elif kind == "swap" and existing:
            a, b = data.draw(st.sampled_from(existing)), data.draw(st.sampled_from(existing))
            va, vb = copy.deepcopy(_get(doc, a)), copy.deepcopy(_get(doc, b))
            if a[: len(b)] != b and b[: len(a)] != a:  # neither inside the other
                _set(doc, a, vb)
                _set(doc, b, va)
        elif kind == "weird":
            path = data.draw(st.sampled_from(RULES + SECTIONS + [("id",), ("name",), ("extends",)]))
            _set(doc, path, data.draw(weird_values()))
        elif kind == "unknown":
            section = data.draw(st.sampled_from([(), *SECTIONS]))
            key = data.draw(st.sampled_from(["stak", "players ", "Players", "7", "ends", "x.y"]))
            _set(doc, (*section, key), data.draw(weird_values(0)))


def plausible(doc: dict[str, Any], base: dict[str, Any]) -> None:
    """Drop the parameters that ``doc``'s hooks do not read (after a hook changed)."""
    for path in unread(doc, base):
        _drop(doc, path)


def dump(doc: Any) -> str:
    """A profile as YAML text (NaN and infinities as .nan and .inf)."""
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=1 << 16)


def override(path: tuple[str, ...], value: Any) -> str:
    """``--set KEY=VALUE`` text for a value."""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1 << 16)
    return ".".join(path) + "=" + text.removesuffix("\n...\n").strip()


def located(e: ProfileError) -> None:
    """Every problem of a ProfileError says where: a file, a line and a column from 1."""
    assert e.problems
    for p in e.problems:
        assert p.location.file, p
        assert p.location.line >= 1 and p.location.col >= 1, p
        assert str(p)


def count(what: str) -> None:
    """Count an outcome in the fuzzers' statistics (pytest --hypothesis-show-statistics)."""
    if currently_in_test_context():
        event(what)


def load(path: Path | str, overrides: Any = ()) -> tuple[Profile, Game] | None:
    """A profile and its compiled game, or None for a ProfileError (checked located)."""
    try:
        profile = load_profile(path, overrides)
        game = Game(profile)
    except ProfileError as e:
        located(e)
        count("refused, located")
        return None
    count("valid")
    explain_text(profile)
    range_notes(profile)
    return profile, game


# -- playing a valid profile -------------------------------------------------------------
# the run rows go to an SQLite file of their own, as simulate --db stores them
STORE = Store(Path(tempfile.mkdtemp(prefix="paiqi-fuzz-")) / "runs.db")
RUN = STORE.new_run(
    RunSpec("simulate", ("fuzz",), (), (), False, 0, 20, 20, 4), {"fuzz": load_profile("doujue")}
)
BATCHES = itertools.count()


def play(game: Game, seed: int) -> None:
    """20 games (stored as run rows), a session and, for rank points, a match."""
    started = time.perf_counter()
    name = f"fuzz-{next(BATCHES)}"
    rows = []
    for index in range(20):
        state = game.new_state(seed + index)
        assert state.rng is not None
        state.play_random(state.rng)
        result = state.result()
        assert sum(result.money) + result.house == 0 or not money_changes_hands(game)
        assert all(abs(m) < 2**53 for m in result.money)
        assert result.total is None or all(abs(t) < 10**5 for t in result.total)
        rows += game_rows(name, index, seed + index, ["random"] * game.players, state)
    STORE.add_batch(RUN, name, seed, encode_rows(name, rows))
    assert simulate_sessions(game, 1, seed).hands_played >= 1
    if game.rules.facts.objective == "points":
        assert simulate_matches(game, 1, seed).matches == 1
    assert time.perf_counter() - started < SECONDS_TO_PLAY


# -- the fuzzers -------------------------------------------------------------------------
FUZZ = settings(
    max_examples=TEXT_EXAMPLES,
    deadline=None,
    derandomize=not HUNTING,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# the built-in files as written (most extend another), and every rule of each written out
MATERIAL = {
    **TEXTS,
    **{f"{pid} resolved": dump(rules).encode("utf-8") for pid, rules in RESOLVED.items()},
}
NOISE = [
    b"\x00", b"\x01", b"\x1b", b"\x7f", b"\xc2\x85", b"\xe2\x80\xa8", b"\xff", b"\xfe\xff",
    b"\xc3", b"\t", b"\r", b"\r\n", b"\n", b"  ", b"[", b"]", b"{", b"}", b",", b": ",
    b"- ", b"? ", b"#", b"'", b'"', b"&a ", b"*a", b"<<: *a", b"!!float ", b"!!int ",
    b"!!binary ", b"!!timestamp ", b"!!set ", b"!!python/object/apply:os.system ", b"!x ",
    b"---\n", b"...\n", b"%YAML 1.1\n", b".nan", b"-.inf", b"4.0", b"1e3", b"0x1F", b"0o17",
    b"2001-02-30", b"9" * 5000, b"\\", b"\xef\xbb\xbf",
]  # fmt: skip


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for the written profiles."""
    return tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(data=st.data())
def test_any_profile_text_is_valid_or_located(folder: Path, data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(sorted(MATERIAL)), label="base")
    text = bytearray(MATERIAL[base])
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        at = data.draw(st.integers(0, len(text)), label="at")
        edit = data.draw(st.sampled_from(["insert", "insert", "bytes", "nest", "cut", "double"]))
        if edit == "insert":
            text[at:at] = data.draw(st.sampled_from(NOISE))
        elif edit == "bytes":
            text[at:at] = data.draw(st.binary(min_size=1, max_size=6))
        elif edit == "nest":
            depth = data.draw(st.integers(1, 600))
            text[at:at] = data.draw(st.sampled_from([b"[", b"{a: ", b"- "])) * depth
        elif edit == "cut":
            del text[at : at + data.draw(st.integers(1, 40))]
        else:
            end = at + data.draw(st.integers(1, 80))
            text[at:at] = text[at:end]
    path = folder / "fuzz.yaml"
    path.write_bytes(bytes(text))
    overrides = data.draw(
        st.lists(
            st.one_of(
                st.text(max_size=20),
                st.builds(
                    lambda key, value: f"{key}={value}",
                    st.sampled_from([".".join(p) for p in LEAVES] + ["", ".", "a..b", "extends"]),
                    st.one_of(
                        st.text(max_size=12), st.sampled_from([t.decode("latin-1") for t in NOISE])
                    ),
                ),
            ),
            max_size=2,
        ),
        label="overrides",
    )
    load(path, overrides)


@settings(FUZZ, max_examples=RULE_EXAMPLES)
@given(data=st.data())
def test_any_rules_are_valid_or_located_and_valid_ones_play(
    folder: Path, data: st.DataObject
) -> None:
    base = data.draw(st.sampled_from(sorted(BUILTINS)), label="base")
    hostile = data.draw(st.booleans(), label="hostile")
    written = data.draw(st.booleans(), label="as written")  # with extends:, or resolved
    doc = copy.deepcopy(WRITTEN[base] if written else RESOLVED[base])
    rules = RESOLVED[base]
    mutate(data, doc, rules, hostile)
    if not hostile:
        plausible(doc, rules)
    path = folder / "fuzz.yaml"
    if data.draw(st.booleans(), label="through a parent file"):
        (folder / "parent.yaml").write_text(dump(doc), encoding="utf-8")
        rules = {**rules, **doc}
        doc = {"id": "child", "extends": "parent.yaml"}
        mutate(data, doc, rules, hostile)
        if not hostile:
            plausible(doc, rules)
        if "extends" not in doc:
            doc["extends"] = "parent.yaml"
    path.write_text(dump(doc), encoding="utf-8")
    overrides: list[str] | dict[str, Any] = []
    for _ in range(data.draw(st.integers(0, 2), label="overrides")):
        if hostile:
            rule = data.draw(st.sampled_from(RULES))
            value = data.draw(st.one_of(valid_values(rule), weird_values(1)))
        else:
            rule = data.draw(st.sampled_from(sorted(set(RULES) - unread(doc, rules))))
            value = data.draw(valid_values(rule))
        overrides.append(override(rule, value))
    if overrides and data.draw(st.booleans(), label="as a mapping"):
        overrides = {k: yaml.safe_load(v) for k, _, v in (o.partition("=") for o in overrides)}
    loaded = load(path, overrides)
    if loaded is not None:
        play(loaded[1], data.draw(st.integers(0, 2**32), label="seed"))


@pytest.mark.parametrize("pid", sorted(BUILTINS))
def test_every_built_in_plays_as_the_fuzzer_plays(pid: str) -> None:
    game = Game(pid)
    play(game, 7)


# the numbers that need another rule's value: (section, key) -> (its section, key, value)
NEEDS = {tuple(rule.split(".")): (*need.split("."), value) for rule, _, need, value in RULE_NEEDS}


def test_a_profile_at_every_bound_plays(folder: Path) -> None:
    """The largest numbers the schema allows, at once, on the longest games and sessions."""
    for pid in ("doujue", "platform", "bicycle", "shichinarabe", "twstar", "hoyle"):
        doc = copy.deepcopy(load_profile(pid).resolved())
        for path, sub in LEAVES.items():
            need = NEEDS.get(path)
            if need is not None and doc[need[0]][need[1]] != need[2]:
                continue  # a number only another rule gives a meaning (twstar's totals)
            if "maximum" in sub:
                _set(doc, path, sub["maximum"])
            elif "maximum" in sub.get("items", {}):
                _set(doc, path, [sub["items"]["maximum"]] * sub.get("maxItems", 4))
        if doc["turn"]["must_play"]:  # Hoyle's penalties price passes made by choice
            doc["scoring"].update(able_pass_cost=0, held_seven_pay=0)
        else:  # the most rounds whose passes Hoyle's counters hold, with 53 cards
            doc["ending"]["stall"] = 1023 // 54
        doc = {**standalone(doc), "id": "every-bound", "players": 3, "deck": {"jokers": 1}}
        (folder / "bounds.yaml").write_text(dump(doc), encoding="utf-8")
        loaded = load(folder / "bounds.yaml")
        assert loaded is not None, pid
        play(loaded[1], 11)


# -- unicode edge cases and huge integers, everywhere -------------------------------------
UNICODE_EDGES = {
    "lone high surrogate": "\ud800",
    "lone low surrogate": "seven \udfff",
    "a byte that is not UTF-8 (surrogate escape)": "\udcff",
    "bidi override": "\u202eexe.txt",
    "bidi isolates": "\u2067七並べ\u2069 \u2066x\u2069",
    "combining marks alone": "\u0301\u0308\u20dd",
    "combining marks on letters": "e\u0301 a\u0308 \u1100\u1161",
    "NUL": "a\x00b",
    "zero width and BOM": "\u200b\u200d\ufeff",
    "line and paragraph separators": "a\u2028b\u2029c",
    "astral": "\U0001f0a1\U0001f0ae",
    "long": "7" * 100_000,
    "long CJK": "七" * 30_000,
    "over the size bound": "a" * (1 << 20),
}
TEXT_RULES = [("name",), ("description",), ("id",), ("opening", "card")]
HUGE = [2**63, 2**64, 10**30, -(10**30)]


def numeric(sub: Mapping[str, Any]) -> bool:
    types = sub.get("type", [])
    types = {types} if isinstance(types, str) else set(types)
    items = sub.get("items", {}).get("type")
    return bool(types & {"integer", "number"}) or items in ("integer", "number")


NUMERIC_RULES = [path for path, sub in LEAVES.items() if numeric(sub)]


def reads(path: tuple[str, ...]) -> str:
    """A built-in profile whose rules read ``path`` (doujue if none does)."""
    for pid in sorted(BUILTINS):
        if _get(RESOLVED[pid], path) is not None:
            return pid
    return "doujue"


def played_or_located(folder: Path, pid: str, path: tuple[str, ...], value: Any) -> None:
    """``value`` at ``path`` of a profile extending ``pid``, written in a file, given with
    --set as text and as a mapping, and given to the command line: each is a profile that
    plays or a located ProfileError; a valid one's text is Unicode (it can be written)."""
    doc: dict[str, Any] = {"id": "edge", "extends": pid}
    _set(doc, path, value)
    (folder / "edge.yaml").write_text(dump(doc), encoding="utf-8")
    dotted = ".".join(path)
    raw = f"{dotted}={value}" if isinstance(value, str) else None
    for how in ("file", "set", "raw set", "mapping"):
        if how == "file":
            loaded = load(folder / "edge.yaml")
        elif how == "set":
            loaded = load(pid, [override(path, value)])
        elif how == "raw set" and raw is not None:
            loaded = load(pid, [raw])
        elif how == "mapping":
            loaded = load(pid, {dotted: value})
        else:
            continue
        if loaded is not None:
            profile, game = loaded
            explain_text(profile).encode("utf-8")
            assert profile.fingerprint
            play(game, 5)


@pytest.mark.parametrize("name", sorted(UNICODE_EDGES))
def test_unicode_edge_cases_in_every_text_rule_play_or_are_located(folder: Path, name: str) -> None:
    for path in TEXT_RULES:
        pid = "platform" if path == ("opening", "card") else "doujue"
        played_or_located(folder, pid, path, UNICODE_EDGES[name])


@pytest.mark.parametrize("path", NUMERIC_RULES, ids=".".join)
def test_huge_integers_in_every_numeric_rule_play_or_are_located(
    folder: Path, path: tuple[str, ...]
) -> None:
    pid = reads(path)
    current = _get(RESOLVED[pid], path)
    for huge in HUGE:
        for value in (
            ([huge], [huge] * max(len(current), 1)) if isinstance(current, list) else [huge]
        ):
            played_or_located(folder, pid, path, value)


CLI_LOCATED = re.compile(r"^[^\s:][^:]*:\d+:\d+: \S+: .+$")


@pytest.mark.parametrize("command", ["validate", "explain"])
def test_every_numeric_rule_and_text_edge_on_the_command_line(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``paiqi validate|explain PROFILE --set RULE=VALUE`` with a huge integer in every
    numeric rule, and every text edge in every text rule: exit 0 with Unicode output, or
    exit 2 with located lines only."""
    cases = [(reads(p), f"{'.'.join(p)}={v}") for p in NUMERIC_RULES for v in HUGE]
    cases += [
        ("platform" if p == ("opening", "card") else "doujue", override(p, t))
        for p in TEXT_RULES
        for t in UNICODE_EDGES.values()
        if len(t) < 1000
    ]
    for pid, text in cases:
        status = main([command, pid, "--set", text])
        out, err = capsys.readouterr()
        assert status in (0, 2), text
        assert "Traceback" not in err
        out.encode("utf-8")
        if status:
            assert err and all(CLI_LOCATED.match(line) for line in err.splitlines()), err
