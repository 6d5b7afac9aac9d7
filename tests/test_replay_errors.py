"""``paiqi replay`` of bad input: every bad line gets a located message (exit 2) while the
other lines are still replayed; impossible deals are reported precisely (exit 1); hostile
files cost little; records of profile files replay without the file."""

from __future__ import annotations

import json
import os
import random
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiqi_core import resources
from paiqi_core.cli import main
from paiqi_core.engine import Game
from paiqi_core.hooks import registry
from paiqi_core.profile import Location, ProfileError
from paiqi_core.records import (
    MAX_LINE_BYTES,
    check_record,
    deal_problems,
    parse_line,
    read_records,
    record_game,
    replay,
    rules_fingerprint,
)

from .conftest import profiles_taking

Capsys = pytest.CaptureFixture[str]
Record = dict[str, Any]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def simulated(tmp_path: Path, capsys: Capsys, *args: str, games: int = 4) -> list[Record]:
    path = tmp_path / f"sim{len(list(tmp_path.glob('sim*')))}.jsonl"
    status, _, err = run(
        capsys, "simulate", *args, "--games", str(games), "--seed", "3", "--workers", "1",
        "--records", str(path), "-q",
    )  # fmt: skip
    assert status == 0, err
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def good(tmp_path: Path, capsys: Capsys) -> list[Record]:
    """Four records of doujue (4 players, 52 cards, no door card)."""
    return simulated(tmp_path, capsys, "doujue")


def write(path: Path, lines: list[str | bytes]) -> Path:
    raw = [line if isinstance(line, bytes) else line.encode("utf-8") for line in lines]
    path.write_bytes(b"\n".join(raw) + b"\n")
    return path


def dumps(record: Record) -> str:
    return json.dumps(record, ensure_ascii=False)


def with_bad_line(tmp_path: Path, good: list[Record], bad: str | bytes) -> Path:
    """Two good records, the bad line (line 3), two good records."""
    lines: list[str | bytes] = [dumps(r) for r in good]
    lines.insert(2, bad)
    return write(tmp_path / "mixed.jsonl", lines)


def edited(record: Record, change: Callable[[Record], None]) -> Record:
    copy: Record = json.loads(json.dumps(record))
    change(copy)
    return copy


# -- 1. a located exit-2 message per bad line, the other lines replayed ---------------------


def bad_line_cases(record: Record) -> dict[str, tuple[str | bytes, str]]:
    """name -> (the bad line, the message expected on stderr, column included)."""
    text = dumps(record)
    seed_at = text.index('"seed": ') + len('"seed": ') + 1  # column of the seed's value
    options_at = text.index('"options": {}') + len('"options": {') + 1
    huge = "7" * 4301
    nested = "[" * 500 + "]" * 500

    def with_options(value: str) -> str:
        return text.replace('"options": {}', '"options": {"scoring.stake": ' + value + "}")

    stake_at = options_at + len('"scoring.stake": ')

    def money(r: Record) -> None:
        r["result"]["money"][0] = "1/0"

    def three_hands(r: Record) -> None:
        r["hands"] = r["hands"][:3]

    return {
        "not UTF-8": (b'{"profile": "doujue\xff"}', ":3:20: (root): not UTF-8 text: byte 0xff"),
        "money 1/0": (
            dumps(edited(record, money)),
            ":3:1: result.money[0]: '1/0' is not an integer, or an exact fraction written \"a/b\"",
        ),
        "4301 digits": (
            text.replace(f'"seed": {record["seed"]}', f'"seed": {huge}'),
            f":3:{seed_at}: (root): an integer of 4,301 digits",
        ),
        "NaN": (with_options("NaN"), f":3:{stake_at}: (root): NaN is not a number a record may"),
        "Infinity": (with_options("Infinity"), f":3:{stake_at}: (root): Infinity is not a number"),
        "-Infinity": (with_options("-Infinity"), f":3:{stake_at}: (root): -Infinity is not"),
        "1e400": (with_options("1e400"), f":3:{stake_at}: (root): 1e400 is out of the range"),
        "float for an integer rule": (
            text.replace('"options": {}', '"options": {"players": 4.5}'),
            ":3:1: options.players: 4.5 is not of type 'integer'",
        ),
        "three hands for four players": (
            dumps(edited(record, three_hands)),
            ":3:1: hands: 3 hands for 4 players",
        ),
        "500 nested [": (nested, ":3:33: (root): nested more than 32 deep"),
        "nested in options": (
            text.replace('"options": {}', '"options": {"a": ' + nested + "}"),
            # the record and options are 2 levels: the 31st [ is the 33rd level
            f":3:{options_at + 5 + 30}: (root): nested more than 32 deep",  # 5: len('"a": ')
        ),
        "lone surrogate": (
            text.replace('"profile": "doujue"', '"profile": "\\ud800doujue"'),
            ":3:14: (root): a string holds half of a surrogate pair",
        ),
        "not JSON": ('{"profile": "doujue", ', ":3:23: (root): not JSON: Expecting property name"),
        "an array": ("[1, 2]", ":3:1: (root): a record is a JSON object {...}; this line holds an"),
        "a string": (
            '"doujue"',
            ":3:1: (root): a record is a JSON object {...}; this line holds a",
        ),
        "null": ("null", ":3:1: (root): a record is a JSON object {...}; this line holds null"),
        "result with an extra key": (
            text.replace('"result": {', '"result": {"bonus": 3, '),
            ":3:1: result.bonus: unknown key (known: total, rank, money, labels, house, exempt)",
        ),
        "no such profile": (
            text.replace('"profile": "doujue"', '"profile": "doujeu"'),
            ":3:1: profile: 'doujeu' is not a built-in profile (built-ins: badam-satti, bicycle,",
        ),
        "a pass that names a card": (
            text.replace('"type": "play"', '"type": "pass"', 1),
            ":3:1: actions[0].card: not allowed: a pass entry names no card",
        ),
    }


CASES = [
    "not UTF-8", "money 1/0", "4301 digits", "NaN", "Infinity", "-Infinity", "1e400",
    "float for an integer rule", "three hands for four players", "500 nested [",
    "nested in options", "lone surrogate", "not JSON", "an array", "a string", "null",
    "result with an extra key", "no such profile", "a pass that names a card",
]  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_a_bad_line_is_located_and_the_others_still_replay(
    tmp_path: Path, capsys: Capsys, good: list[Record], case: str
) -> None:
    cases = bad_line_cases(good[0])
    assert list(cases) == CASES
    bad, expected = cases[case]
    path = with_bad_line(tmp_path, good, bad)
    status, out, err = run(capsys, "replay", str(path))
    assert status == 2
    assert f"{path}{expected}" in err, err
    assert len(err.splitlines()) == 1  # one message for the line, no noise
    assert "4 replayed exactly, 0 disagreed, 1 malformed" in out


def test_a_finite_float_option_is_kept(tmp_path: Path, capsys: Capsys) -> None:
    # finite numbers are kept: stake 0.5 is a documented kind of rule
    records = simulated(tmp_path, capsys, "doujue", "--set", "scoring.stake=0.5")
    assert records[0]["options"] == {"scoring.stake": 0.5}
    path = write(tmp_path / "half.jsonl", [dumps(r) for r in records])
    status, out, _ = run(capsys, "replay", str(path))
    assert (status, out.splitlines()[-1]) == (0, "4 replayed exactly, 0 disagreed, 0 malformed")


def test_an_integer_is_a_json_integer(good: list[Record]) -> None:
    text = dumps(good[0]).replace('"players": 4', '"players": 4.0')
    problems = check_record(parse_line(text, "f.jsonl", 1), "f.jsonl", 1)
    assert [str(p) for p in problems] == ["f.jsonl:1:1: players: 4.0 is not of type 'integer'"]


@pytest.mark.parametrize(
    ("content", "why"),
    [(b"", "empty"), (b"\n   \n\t\n\n", "blank lines")],
)
def test_a_file_without_records_is_bad_input(
    tmp_path: Path, capsys: Capsys, content: bytes, why: str
) -> None:
    path = tmp_path / "none.jsonl"
    path.write_bytes(content)
    status, out, err = run(capsys, "replay", str(path))
    assert status == 2, why
    assert err == (f"{path}:1:1: (root): no records: the file is empty or holds only blank lines\n")
    assert "0 replayed exactly, 0 disagreed, 1 malformed" in out


def test_a_folder_or_a_missing_file_is_reported_and_the_next_file_replayed(
    tmp_path: Path, capsys: Capsys, good: list[Record]
) -> None:
    path = write(tmp_path / "ok.jsonl", [dumps(r) for r in good])
    status, out, err = run(capsys, "replay", str(tmp_path), str(tmp_path / "nope.jsonl"), str(path))
    assert status == 2
    assert err.splitlines() == [
        f"{tmp_path}:1:1: (root): a folder, not a file",
        f"{tmp_path / 'nope.jsonl'}:1:1: (root): no such file",
    ]
    assert "4 replayed exactly, 0 disagreed, 2 malformed" in out


def test_a_byte_order_mark_and_crlf_line_ends_are_read(
    tmp_path: Path, capsys: Capsys, good: list[Record]
) -> None:
    path = tmp_path / "windows.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"\r\n".join(dumps(r).encode() for r in good) + b"\r\n")
    status, out, _ = run(capsys, "replay", str(path))
    assert (status, out.splitlines()[-1]) == (0, "4 replayed exactly, 0 disagreed, 0 malformed")


def test_seats_and_results_for_another_number_of_players_are_bad_input(
    good: list[Record],
) -> None:
    def seat(r: Record) -> None:
        r["actions"][5]["seat"] = 4

    def ranks(r: Record) -> None:
        r["result"]["rank"].append(5)

    for change, expected in [
        (seat, "f:2:1: actions[5].seat: seat 4 in a game of 4 players (seats 0 to 3)"),
        (ranks, "f:2:1: result.rank: 5 entries for 4 players (one a seat)"),
    ]:
        record = edited(good[0], change)
        assert [str(p) for p in check_record(record, "f", 2)] == [expected]


# -- 2. hands: every card of the deck once, in the sizes dealt ------------------------------


def replay_one(tmp_path: Path, capsys: Capsys, record: Record) -> tuple[int, list[str]]:
    path = write(tmp_path / "one.jsonl", [dumps(record)])
    status, out, err = run(capsys, "replay", str(path))
    assert err == ""
    return status, out.splitlines()


def test_a_card_twice_in_one_hand_is_reported(
    tmp_path: Path, capsys: Capsys, good: list[Record]
) -> None:
    record = good[0]
    card = record["hands"][2][0]
    status, out = replay_one(tmp_path, capsys, edited(record, lambda r: r["hands"][2].append(card)))
    assert status == 1
    assert out[1:] == [
        f"    hands: {card} is dealt twice, to seat 2",
        "0 replayed exactly, 1 disagreed, 0 malformed",
    ]


def test_a_card_dealt_to_two_seats_is_reported(
    tmp_path: Path, capsys: Capsys, good: list[Record]
) -> None:
    record = good[1]
    card = record["hands"][0][3]

    def deal_twice(r: Record) -> None:
        r["hands"][1].append(card)
        r["seed"] = None  # not about the seed: the hands themselves

    status, out = replay_one(tmp_path, capsys, edited(record, deal_twice))
    assert status == 1
    assert out[1] == f"    hands: {card} is dealt twice, to seats 0 and 1"
    assert "actions end before the game is over" not in "\n".join(out)


def test_cards_missing_or_not_in_the_deck_are_named(
    tmp_path: Path, capsys: Capsys, good: list[Record]
) -> None:
    record = good[0]
    lost = record["hands"][3][-1]

    def swap_for_a_joker(r: Record) -> None:
        r["hands"][3][-1] = "JOKER"

    status, out = replay_one(tmp_path, capsys, edited(record, swap_for_a_joker))
    assert status == 1
    assert out[1:3] == [
        "    hands: JOKER not in the deck of doujue (52 cards, no joker)",
        f"    hands: {lost} of the deck (52 cards, no joker) dealt to no seat",
    ]


def test_hands_of_the_wrong_sizes_are_reported(
    tmp_path: Path, capsys: Capsys, good: list[Record]
) -> None:
    def move_one(r: Record) -> None:
        r["hands"][0].append(r["hands"][1].pop())
        r["seed"] = None

    status, out = replay_one(tmp_path, capsys, edited(good[0], move_one))
    assert status == 1
    assert out[1] == (
        "    hands: seat 0 holds 14, seat 1 holds 12; dealing 52 cards one at a time from "
        "seat 0 gives 13, 13, 13, 13"
    )


def test_deals_of_every_deck_and_table_size() -> None:
    three = Game("pagat", ["players=3"])
    hands = three.deal(5)
    assert [len(h) for h in hands] == [18, 17, 17]
    assert deal_problems(three, hands) == []
    joker = Game("shichinarabe", ["deck.jokers=1"])
    hands = joker.deal(5)
    assert [len(h) for h in hands] == [14, 13, 13, 13]
    assert deal_problems(joker, hands) == []
    without_joker = [[c for c in h if c != 52] for h in hands]
    assert deal_problems(joker, without_joker) == [
        "hands: JOKER of the deck (53 cards, 1 joker) dealt to no seat"
    ]
    # leftovers face up: 52 cards for five are ten each, and the two left are no seat's
    face_up = Game("pagat", ["players=5", "deck.leftover=face_up"])
    hands = face_up.deal(5)
    assert [len(h) for h in hands] == [10] * 5
    assert deal_problems(face_up, hands) == []
    state = face_up.new_state(hands=hands)
    assert state.pool.bit_count() == 2 and not state.pool & sum(1 << c for h in hands for c in h)
    hands[0].append(hands[1].pop())
    assert deal_problems(face_up, hands) == [
        "hands: seat 0 holds 11, seat 1 holds 9; dealing 50 cards one at a time from seat 0 "
        "gives 10, 10, 10, 10, 10 (the other 2 face up)"
    ]


def test_a_door_card_the_profile_does_not_cut_or_lacks_is_reported(
    tmp_path: Path, capsys: Capsys, good: list[Record]
) -> None:
    status, out = replay_one(tmp_path, capsys, edited(good[0], lambda r: r.update(door_card="H5")))
    assert (status, out[1]) == (1, "    door_card: the record has H5; doujue cuts no door card")
    platform = simulated(tmp_path, capsys, "platform", games=1)[0]

    def no_door(r: Record) -> None:
        r["door_card"], r["seed"] = None, None

    status, out = replay_one(tmp_path, capsys, edited(platform, no_door))
    assert (status, out[1]) == (
        1,
        "    door_card: the record has none; platform cuts a door card before play",
    )


# -- 3. bounded cost ------------------------------------------------------------------------


def test_a_line_over_the_bound_is_skipped_and_the_next_lines_read(
    tmp_path: Path, capsys: Capsys, good: list[Record]
) -> None:
    padded = dumps(good[0]).replace('"seed"', " " * 5000 + '"seed"')
    path = with_bad_line(tmp_path, good, padded)
    status, out, err = run(capsys, "replay", "--max-line-bytes", "4000", str(path))
    size = len(padded.encode()) + 1  # with its newline
    assert status == 2
    assert err == (
        f"{path}:3:1: (root): a line of {size:,} bytes: a record line is at most 4,000 (a "
        "game's record is far smaller; replay --max-line-bytes raises it)\n"
    )
    assert "4 replayed exactly, 0 disagreed, 1 malformed" in out
    status, out, err = run(capsys, "replay", "--max-line-bytes", str(size), str(path))
    assert (status, err) == (0, "")
    assert "5 replayed exactly" in out


def test_the_line_bound_must_be_positive(tmp_path: Path, capsys: Capsys) -> None:
    status, _, err = run(capsys, "replay", "--max-line-bytes", "0", str(tmp_path / "x.jsonl"))
    assert status == 2
    assert "--max-line-bytes: 0 is not a positive number of bytes" in err


def test_a_60_mb_record_is_refused_fast_in_little_memory(
    tmp_path: Path, good: list[Record]
) -> None:
    record = dict(good[0], actions=good[0]["actions"] + [{"seat": 0, "type": "pass"}] * 2_100_000)
    path = tmp_path / "huge.jsonl"
    path.write_text("\n".join([dumps(good[1]), dumps(record), dumps(good[2])]) + "\n")
    assert path.stat().st_size > 60_000_000
    tracemalloc.start()
    started = time.perf_counter()
    items = list(read_records(path))
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [getattr(i, "line", None) for i in items] == [1, None, 3]
    assert isinstance(items[1], ProfileError)
    assert "a record line is at most 1,048,576" in str(items[1])
    assert peak < 8 * MAX_LINE_BYTES  # the bound, not the file, sets the memory
    assert elapsed < 5


def test_lists_are_bounded_and_checked_by_their_length_alone(good: list[Record]) -> None:
    extra = 5000 - len(good[0]["actions"])
    record = dict(good[0], actions=good[0]["actions"] + [{"seat": "x"}] * extra)
    started = time.perf_counter()
    problems = check_record(record, "f", 1)
    assert time.perf_counter() - started < 0.5
    assert [str(p) for p in problems] == ["f:1:1: actions: 5,000 items: at most 4,096"]


def test_the_schema_bounds_hold_every_game() -> None:
    record = resources.schema("record")["properties"]
    players = resources.schema("profile")["properties"]["players"]["maximum"]
    assert record["players"]["maximum"] == players == record["hands"]["maxItems"]
    assert record["actions"]["items"]["properties"]["seat"]["maximum"] == players - 1
    assert record["hands"]["items"]["maxItems"] == 53
    # A game where passes are made only when stuck: every card leaves a hand once (53 with
    # the joker), each suit is cut once (4), each seat bursts or leaves once (12), and at
    # most players - 1 passes come between two cards (11 * 54 = 594).
    longest_must_play = 53 + 4 + 12 + (players - 1) * 54
    assert longest_must_play == 663
    assert record["actions"]["maxItems"] >= 4 * longest_must_play


def test_a_hostile_file_of_many_large_lines_costs_little(
    tmp_path: Path, good: list[Record]
) -> None:
    base = good[0]
    lines = [
        dumps(dict(base, actions=base["actions"] + [{"seat": 0, "type": "pass"}] * 25_000)),
        dumps(dict(base, options={f"k{i}": i for i in range(50_000)})),
        dumps(dict(base, hands=[["SA"] * 100_000])),
        "[" * 400_000 + "]" * 400_000,
        "[" * 40 + '"' + '\\"' * 400_000,  # an unclosed string: the scans stay linear
        "[" * 40 + '"\\""' * 200_000,
    ]
    path = write(tmp_path / "hostile.jsonl", lines * 4)  # about 20 MB
    started = time.perf_counter()
    items = list(read_records(path))
    assert time.perf_counter() - started < 10
    assert all(isinstance(i, ProfileError) for i in items) and len(items) == 24


# -- 4. records of profile files carry their rules ------------------------------------------

HOUSE = """\
id: house
extends: doujue
scoring:
  stake: 2
"""


@pytest.fixture
def house(tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Records of a profile file, replayed from a folder where the file is not."""
    table = tmp_path / "table"
    table.mkdir()
    (table / "house.yaml").write_text(HOUSE, encoding="utf-8")
    monkeypatch.chdir(table)
    records = simulated(table, capsys, "house.yaml", "doujue", games=3)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return write(elsewhere / "games.jsonl", [dumps(r) for r in records])


def read(path: Path) -> list[Record]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_record_of_a_profile_file_replays_without_the_file(house: Path, capsys: Capsys) -> None:
    records = read(house)
    assert [r["profile"] for r in records] == ["house"] * 3 + ["doujue"] * 3
    assert all("rules" in r for r in records[:3])
    assert all("rules" not in r for r in records[3:])  # built-ins stay small
    assert records[0]["rules"]["scoring"]["stake"] == 2
    assert records[0]["fingerprint"] == rules_fingerprint(records[0]["rules"])
    assert not (house.parent / "house.yaml").exists()
    status, out, err = run(capsys, "replay", str(house))
    assert (status, err) == (0, "")
    assert "6 replayed exactly, 0 disagreed, 0 malformed" in out


def test_a_built_in_with_options_needs_no_rules(tmp_path: Path, capsys: Capsys) -> None:
    records = simulated(tmp_path, capsys, "doujue", "--set", "scoring.stake=3", games=1)
    assert "rules" not in records[0] and records[0]["options"] == {"scoring.stake": 3}


def test_stored_rules_that_cannot_be_played_here_are_bad_input(house: Path, capsys: Capsys) -> None:
    first = read(house)[0]

    def unknown_hook(r: Record) -> None:
        r["rules"]["scoring"]["method"] = "lucky"
        r["fingerprint"] = rules_fingerprint(r["rules"])

    def edited_rules(r: Record) -> None:
        r["rules"]["scoring"]["stake"] = 5

    def other_id(r: Record) -> None:
        r["rules"]["id"] = "tavern"
        r["fingerprint"] = rules_fingerprint(r["rules"])

    lines = [dumps(edited(first, f)) for f in (unknown_hook, edited_rules, other_id)]
    path = write(house.with_name("bad.jsonl"), lines)
    status, out, err = run(capsys, "replay", str(path))
    assert status == 2
    errors = err.splitlines()
    assert errors[0].startswith(f"{path}:1:1: rules.scoring.method: unknown scoring hook 'lucky'")
    assert errors[1:] == [
        f"{path}:2:1: fingerprint: does not match the stored rules (were they edited after "
        "the game?)",
        f"{path}:3:1: rules.id: the stored rules are of profile 'tavern', the record names 'house'",
    ]
    assert "0 replayed exactly, 0 disagreed, 3 malformed" in out


def test_a_plugin_hook_no_longer_installed_is_bad_input(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lazy.yaml").write_text(
        "id: lazy\nextends: pagat\nturn:\n  stuck: lazy_pass\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    with monkeypatch.context() as m:
        m.setitem(registry._REGISTRY, "stuck", dict(registry._REGISTRY["stuck"]))
        pass_ = registry.hooks("stuck")["pass"]
        registry.register("stuck", "lazy_pass", params=pass_.params, summary="as pass")(
            pass_.factory
        )
        path = write(
            tmp_path / "lazy.jsonl",
            [dumps(r) for r in simulated(tmp_path, capsys, "lazy.yaml", games=2)],
        )
        assert run(capsys, "replay", str(path))[0] == 0
    status, out, err = run(capsys, "replay", str(path))
    assert status == 2
    assert err.splitlines()[0].startswith(
        f"{path}:1:1: rules.turn.stuck: unknown stuck hook 'lazy_pass'"
    )
    assert "0 replayed exactly, 0 disagreed, 2 malformed" in out


def test_records_of_another_profile_without_rules_are_refused(
    house: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = [edited(r, lambda r: [r.pop("rules", None), r.pop("fingerprint")]) for r in read(house)]
    path = write(house.with_name("old.jsonl"), [dumps(r) for r in old])
    (path.parent / "house.yaml").write_text(HOUSE, encoding="utf-8")  # never opened
    monkeypatch.chdir(path.parent)
    status, out, err = run(capsys, "replay", str(path))  # built-ins replay; house is unknown
    assert status == 2
    assert err.splitlines() == [
        f"{path}:{n}:1: profile: 'house' is not a built-in profile (built-ins: "
        f"{', '.join(resources.builtin_profiles())}), and the record carries no rules "
        "(records of other profiles store them)"
        for n in (1, 2, 3)
    ]
    assert "3 replayed exactly, 0 disagreed, 3 malformed" in out


def test_a_disagreement_names_a_built_in_whose_rules_changed(
    tmp_path: Path, capsys: Capsys, good: list[Record]
) -> None:
    def then(r: Record) -> None:
        r["fingerprint"] = "0" * 64
        r["result"]["money"][0] += 1

    status, out = replay_one(tmp_path, capsys, edited(good[0], then))
    now = Game("doujue").rules.fingerprint
    assert status == 1
    assert out[-2] == (
        f"    note: the rules of doujue have changed since this record was written "
        f"(fingerprint 000000000000 then, {now[:12]} now)"
    )
    status, _ = replay_one(
        tmp_path, capsys, edited(good[0], lambda r: r.update(fingerprint="1" * 64))
    )
    assert status == 0  # a changed fingerprint alone is no disagreement


# -- no input makes replay raise ------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CARDS = [s + r for s in "SHDC" for r in RANKS] + ["JOKER"]
KINDS = ["play", "cover", "pass", "joker", "cut", "place", "swap", "burst", "leave"]
SCALARS = st.one_of(
    st.sampled_from(CARDS + KINDS + list("SHDC")),
    st.integers(-3, 60),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
)
VALUES = st.recursive(
    SCALARS,
    lambda x: st.lists(x, max_size=3) | st.dictionaries(st.text(max_size=3), x, max_size=3),
    max_leaves=6,
)


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    """Records of every built-in profile, with and without the joker (where it takes one)."""
    folder = tmp_path_factory.mktemp("samples")
    out: list[Record] = []
    for extra in ([], ["--set", "deck.jokers=1"]):
        path = folder / f"s{len(extra)}.jsonl"
        main(
            [
                "simulate",
                *profiles_taking(*extra[1:]),
                "--games",
                "2",
                "--seed",
                "5",
                "--workers",
                "1",
                "--records",
                str(path),
                "-q",
                *extra,
            ]
        )
        out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return out


def mutate(record: Record, rnd: random.Random, value: Any) -> Record:
    r = json.loads(json.dumps(record))
    where = rnd.random()
    if where < 0.4 and r["actions"]:
        entry = r["actions"][rnd.randrange(len(r["actions"]))]
        entry[rnd.choice(["seat", "type", "card", "at", "suit"])] = value
    elif where < 0.55 and r["actions"]:
        i, j = rnd.randrange(len(r["actions"])), rnd.randrange(len(r["actions"]))
        r["actions"][i], r["actions"][j] = r["actions"][j], r["actions"][i]
    elif where < 0.7:
        hand = r["hands"][rnd.randrange(len(r["hands"]))]
        hand[rnd.randrange(len(hand))] = value
    elif where < 0.8 and isinstance(r.get("result"), dict) and r["result"]:
        r["result"][rnd.choice(list(r["result"]))] = value
    else:
        r[rnd.choice(["players", "seed", "door_card", "options", "profile", "result"])] = value
    return r


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32), value=VALUES)
def test_no_changed_record_makes_replay_raise(samples: list[Record], seed: int, value: Any) -> None:
    rnd = random.Random(seed)
    record = mutate(rnd.choice(samples), rnd, value)
    data = parse_line(json.dumps(record, ensure_ascii=False), "f", 1)
    if check_record(data, "f", 1):
        return
    try:
        game = record_game(data, Location("f", 1, 1))
    except ProfileError as e:
        assert str(e).startswith("f:1:1: ")
        return
    problems = replay(data, game)
    assert all(isinstance(p, str) and p for p in problems)


def test_a_line_at_the_bound_with_crlf_keeps_the_line_numbers(
    tmp_path: Path, good: list[Record]
) -> None:
    lines = [dumps(r).encode() for r in good[:3]]
    bound = max(map(len, lines))
    longest = 1 + [len(line) for line in lines].index(bound)
    path = tmp_path / "crlf.jsonl"
    path.write_bytes(b"\r\n".join([*lines, b"[1]"]) + b"\r\n")
    items = list(read_records(path, max_line_bytes=bound))
    assert [getattr(i, "line", None) for i in items] == [1, 2, 3, None]
    assert str(items[3]).startswith(f"{path}:4:1: (root): a record is a JSON object")
    items = list(read_records(path, max_line_bytes=bound - 1))
    assert [str(i).split(": ")[0] for i in items if isinstance(i, ProfileError)] == [
        f"{path}:{longest}:1",
        f"{path}:4:1",
    ]
    assert f"a line of {bound + 2:,} bytes" in str(items[longest - 1])


def test_records_are_read_from_a_pipe(tmp_path: Path, capsys: Capsys, good: list[Record]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w", encoding="utf-8") as f:
            f.write("".join(dumps(r) + "\n" for r in good))

    writer = threading.Thread(target=feed)
    writer.start()
    status, out, _ = run(capsys, "replay", str(fifo))
    writer.join()
    assert (status, out.splitlines()[-1]) == (0, "4 replayed exactly, 0 disagreed, 0 malformed")
