"""Every invalid profile gives exactly the located error we designed, exit status 2."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from paiqi_core import resources
from paiqi_core.cards import parse_card
from paiqi_core.cli import main
from paiqi_core.engine import Game
from paiqi_core.profile import ProfileError, load_profile
from paiqi_core.profile.explain import explain_text
from paiqi_core.profile.model import Described
from paiqi_core.profile.yamlsrc import load_located

from .conftest import ROOT

INVALID = ROOT / "tests" / "data" / "invalid"


def _expected() -> list[tuple[str, str]]:
    rows = []
    for line in (INVALID / "EXPECTED.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, message = line.partition(" | ")
            rows.append((name, message))
    return rows


def test_every_invalid_file_has_an_expected_message() -> None:
    named = {name for name, _ in _expected()}
    on_disk = {p.name for p in INVALID.glob("*.yaml")} - {"cycle_b.yaml"}
    assert named == on_disk


@pytest.mark.parametrize(("name", "message"), _expected())
def test_invalid_profile_message(
    in_repo: Path, name: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["validate", f"tests/data/invalid/{name}"])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.strip() == message
    assert "Traceback" not in captured.err


def test_bad_override_is_located(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        ["explain", "doujue", "--set", "scoring.stake=1", "--set", "scoring.bust_above=-1"]
    )
    assert status == 2
    assert capsys.readouterr().err.strip() == (
        "--set:2:20: scoring.bust_above: -1 is less than the minimum of 0"
    )


def test_override_of_unknown_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "pagat", "--set", "scoring.stak=2"]) == 2
    assert capsys.readouterr().err.strip() == (
        "--set:1:9: scoring.stak: unknown key; did you mean 'stake'?"
    )


def test_valid_house_profile(in_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "tests/data/valid/house_stake.yaml", "variants/bicycle.yaml"]) == 0
    out = capsys.readouterr().out
    assert "ok tests/data/valid/house_stake.yaml (house-stake" in out


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "no/such/profile.yaml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("no/such/profile.yaml:1:1: (root): no such profile file")


# -- --set: every problem of an override is located in --set, at its key or its value --------
@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("scoring.stake=.nan", "--set:1:15: scoring.stake: nan is not a finite number"),
        ("scoring.stake=-.inf", "--set:1:15: scoring.stake: -inf is not a finite number"),
        ("players=4.0", "--set:1:9: players: 4.0 is not an integer (write 4)"),
        ("deck.jokers=0.0", "--set:1:13: deck.jokers: 0.0 is not an integer (write 0)"),
        (
            "scoring.clean_bonus=10000000000000000000",
            "--set:1:21: scoring.clean_bonus: 10000000000000000000 is greater than the maximum "
            "of 1000",
        ),
        (
            "session.hands=2147483648",
            "--set:1:15: session.hands: 2147483648 is greater than the maximum of 1000",
        ),
        (
            "opening.card=HK",
            "--set:1:14: opening.card: 'HK' is not a 7 (S7, H7, D7 or C7): with opening method "
            "holder_leads the game opens with this card, and only a 7 starts a row",
        ),
        (
            "extends=pagat",
            "--set:1:1: extends: --set cannot change the profile a profile extends: name that "
            "profile instead (e.g. paiqi explain pagat --set ...)",
        ),
        (
            ".=1",
            "--set:1:1: (root): '.' has an empty part: a rule is a dotted key such as "
            "scoring.stake",
        ),
        (
            "scoring..stake=1",
            "--set:1:9: scoring: 'scoring..stake' has an empty part: a rule is a dotted key such "
            "as scoring.stake",
        ),
        (
            "house.stake=1",
            "--set:1:1: house: unknown key (known: id, name, description, extends, players, deck, "
            "layout, opening, turn, ending, scoring, session, match)",
        ),
        ("name=a\x00b", "--set:1:7: name: U+0000 (NUL) is not allowed in YAML text"),
        ("name=\udcff", "--set:1:6: name: U+DCFF is not allowed in YAML text"),
        (
            "scoring.closure_bonus=" + "[" * 40,
            # 32 levels inside the value: the 34th [ is too deep
            "--set:1:56: scoring.closure_bonus" + "[0]" * 33 + ": nested more than 32 levels deep",
        ),
    ],
)
def test_bad_override_is_located_in_set(
    override: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "doujue", "--set", override]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == message
    assert captured.out == ""


def test_the_nth_override_is_line_n_of_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "doujue", "--set", "players=3", "--set", "  scoring . stak =2"]) == 2
    assert capsys.readouterr().err.strip() == (
        "--set:2:13: scoring.stak: unknown key; did you mean 'stake'?"
    )


def test_an_override_that_is_not_yaml_is_text(capsys: pytest.CaptureFixture[str]) -> None:
    # 'a: b: c' is no YAML value: the text itself is the name
    assert main(["explain", "doujue", "--set", "name=a: b: c"]) == 0
    assert capsys.readouterr().out.startswith("a: b: c (doujue)\n")


# -- numbers: integers strictly, finite, inside the bounds that keep money exact -----------
def _leaves(schema: Mapping[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    for key, sub in schema.get("properties", {}).items():
        here = f"{path}.{key}" if path else key
        if "properties" in sub:
            yield from _leaves(sub, here)
        else:
            yield here, sub


def _numeric(sub: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The schema of a number: the key's own, or its items' (closure_bonus, place_points)."""
    types = sub.get("type", [])
    if {"integer", "number"} & set([types] if isinstance(types, str) else types):
        return sub
    items = sub.get("items", {})
    return items if items.get("type") in ("integer", "number") else None


def test_every_number_of_the_schema_has_both_bounds() -> None:
    numbers = {k: _numeric(s) for k, s in _leaves(resources.schema("profile"))}
    numbers = {k: s for k, s in numbers.items() if s is not None}
    # every number is found, nested ones too (at least the 33 of match.limit's day)
    assert len(numbers) >= 33 and {"deck.decks", "scoring.card_cost", "match.limit"} <= set(numbers)
    for key, sub in numbers.items():
        assert "maximum" in sub, key
        assert "minimum" in sub or "exclusiveMinimum" in sub, key


def test_the_largest_game_money_is_exact_and_far_inside_64_bits() -> None:
    """The largest money of a game: a covering payer can count 202 points at most (3
    players and the joker: 18 cards, four each of K, Q, J and 10 and two 9s), and pays it
    times the big head, the bust and the winner's multipliers and the stake, each at its
    bound; a winner collects from at most 7 payers."""
    schema = resources.schema("profile")["properties"]["scoring"]["properties"]
    stake = schema["stake"]["maximum"]
    head = schema["big_head"]["maximum"]
    bust = schema["bust_multiplier"]["maximum"]
    winner = max(s["maximum"] for s in schema["winner_multiplier"]["properties"].values())
    per_payer = 202 * head * bust * stake * winner
    assert per_payer == 202 * 10**10
    assert 7 * per_payer < 1.5e13 < 2**53  # exact even as a float
    # a session of the most hands stays a hundred times inside a signed 64-bit integer
    hands = resources.schema("profile")["properties"]["session"]["properties"]["hands"]
    assert hands["maximum"] * 7 * per_payer < 2**63 // 100


def test_numbers_at_their_bounds_play() -> None:
    """Every bound at once (the largest stakes, bonuses, multipliers) plays and scores."""
    game = Game(
        "doujue",
        [
            "scoring.stake=10000",
            "scoring.big_head=100",
            "scoring.middle_head=100",
            "scoring.bust_multiplier=100",
            "scoring.bust_above=0",
            "scoring.winner_multiplier={last_seven: 100, all_covered: 100, clean: 100}",
            "players=3",
            "deck.jokers=1",
        ],
    )
    state = game.new_state(4)  # a deal where covers are made, so money changes hands
    state.play_random(random.Random(3))
    money = state.result().money
    assert sum(money) == 0
    assert 0 < max(abs(m) for m in money) < 2**53


# -- opening cards ----------------------------------------------------------------------
def test_sevens_out_may_name_any_card(in_repo: Path) -> None:
    """With sevens_out the card names who moves first: the holder of HK, after every 7
    went to the table."""
    game = Game("tests/data/valid/king_moves_first.yaml")
    king = parse_card("HK")
    for seed in range(20):
        state = game.new_state(seed)
        holder = next(s for s, hand in enumerate(state.dealt) if hand >> king & 1)
        assert state.turn == holder
        assert state.table == sum(1 << (13 * suit + 6) for suit in range(4))
        state.play_random(random.Random(seed))
        assert state.over


@pytest.mark.parametrize("card", ["S7", "H7", "D7", "C7"])
def test_holder_leads_opens_with_any_seven(card: str) -> None:
    game = Game("doujue", [f"opening.card={card}"])
    state = game.new_state(1)
    assert state.legal_actions() == [parse_card(card)]
    state.play_random(random.Random(1))
    assert state.over


def test_an_inherited_opening_card_is_checked_where_it_was_written(in_repo: Path) -> None:
    """HK names who moves first with sevens_out; a child that opens with holder_leads
    would have to play it first: refused, at the card in the parent."""
    with pytest.raises(ProfileError) as e:
        load_profile("tests/data/valid/king_moves_first.yaml", ["opening.method=holder_leads"])
    (problem,) = e.value.problems
    assert str(problem.location) == "tests/data/valid/king_moves_first.yaml:5:9"
    assert problem.path == ("opening", "card")


# -- YAML text that cannot be read: located, from a file, --set, or a verified example -----
def test_verify_locates_unreadable_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "rules.md"
    doc.write_text(
        "# Rules\n\n```paiqi\nname: a NUL\x00\n```\n\n```paiqi\nname: deep\nexpect: "
        + "[" * 40
        + "\n```\n",
        encoding="utf-8",
    )
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text("name: esc\x1b\n", encoding="utf-8")
    assert main(["verify", str(doc), str(scenario)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"ERROR {doc}:4:12: (root): U+0000 (NUL) is not allowed in YAML text",
        # the block's mapping and 32 lists: the 33rd [ is too deep
        f"ERROR {doc}:9:41: expect" + "[0]" * 32 + ": nested more than 32 levels deep",
        f"ERROR {scenario}:1:10: (root): U+001B (ESC) is not allowed in YAML text",
    ]


def test_control_characters_are_located_on_their_line() -> None:
    # \r alone, \x85 and \u2028 break lines in YAML: the column restarts after each
    with pytest.raises(ProfileError) as e:
        load_located("a: 1\rb: 2\x85c: 3\u2028d: \x07", "f.yaml")
    assert (
        str(e.value) == "f.yaml:4:4: (root): U+0007 (control character) is not allowed in YAML text"
    )


def test_a_value_its_tag_cannot_build_is_located() -> None:
    with pytest.raises(ProfileError) as e:
        load_located("a:\n  b: !!float nope\n", "f.yaml")
    assert str(e.value) == (
        "f.yaml:2:6: a.b: malformed YAML: not a valid float: could not convert string to "
        "float: 'nope'"
    )


def test_a_value_that_breaks_its_tags_constructor_is_located() -> None:
    # PyYAML's timestamp constructor fails with an AttributeError on a non-date
    with pytest.raises(ProfileError) as e:
        load_located("players: !!timestamp four\n", "f.yaml")
    assert str(e.value) == "f.yaml:1:10: players: malformed YAML: not a valid timestamp"


def test_a_parent_name_too_long_for_the_system_is_no_profile(tmp_path: Path) -> None:
    f = tmp_path / "t.yaml"
    f.write_text("id: t\nextends: " + "x" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(ProfileError) as e:
        load_profile(f)
    (problem,) = e.value.problems
    assert (problem.location.line, problem.location.col) == (2, 10)
    assert problem.message.startswith("no profile 'xxx")


def test_extends_null_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "t.yaml"
    f.write_text("id: t\nextends:\n", encoding="utf-8")
    with pytest.raises(ProfileError) as e:
        load_profile(f)
    assert [p.message for p in e.value.problems] == [
        "null names no profile: extends takes a built-in id or a path to a profile file "
        "(e.g. extends: doujue)"
    ]
    assert (e.value.problems[0].location.line, e.value.problems[0].location.col) == (2, 9)


# -- descriptions never contradict the rules in effect -----------------------------------
DOUJUE = (
    "Four players, 13 cards each. The holder of S7 opens with it; a player who can play must "
    "play, otherwise covers a card face down. Bonuses for 尾張7, 接龍 and 全脫手, covered points "
    "count against you, and the winner collects from the negative totals."
)


def test_a_description_is_shown_as_written_while_its_rules_are_in_effect() -> None:
    lines = explain_text(load_profile("doujue")).splitlines()
    assert lines[:3] == ["鬥雀 Taiwan covering (排七) (doujue)", DOUJUE, ""]
    # the same rules set again change nothing
    lines = explain_text(load_profile("doujue", ["players=4", "scoring.stake=1"])).splitlines()
    assert lines[1] == DOUJUE


def test_an_inherited_description_is_the_parents_with_the_rules_that_differ(
    in_repo: Path,
) -> None:
    profile = load_profile("tests/data/valid/doujue_three.yaml", ["scoring.stake=2"])
    lines = explain_text(profile).splitlines()
    assert lines[:7] == [
        "鬥雀 Taiwan covering (排七) (doujue-three)",
        "extends: doujue-three -> doujue",
        f"Description of doujue: {DOUJUE}",
        "Rules in effect that differ from doujue:",
        "    players = 3 (from: this profile (tests/data/valid/doujue_three.yaml:4:10))",
        "    scoring.stake = 2 (from: --set on the command line)",
        "",
    ]
    assert profile.described == Described("doujue", ("players", "scoring.stake"))
    assert pickle.loads(pickle.dumps(profile)).described == profile.described


def test_a_description_changed_by_set_is_shown_with_the_changes() -> None:
    lines = explain_text(load_profile("shichinarabe", ["players=3"])).splitlines()
    assert lines[1].startswith("Description of shichinarabe: Three or four players;")
    assert lines[2:5] == [
        "Rules in effect that differ from shichinarabe:",
        "    players = 3 (from: --set on the command line)",
        "",
    ]


def test_a_profile_that_writes_its_own_description_shows_it(in_repo: Path) -> None:
    # bicycle extends pagat and says what it changes
    lines = explain_text(load_profile("bicycle")).splitlines()
    assert lines[2].startswith("Pagat's Fan Tan with the ace below the 2 and chips")
    assert lines[3] == ""


def test_the_id_follows_set() -> None:
    profile = load_profile("doujue", ["id=my-table"])
    assert (profile.id, profile.chain) == ("my-table", ("my-table",))
