"""Every example in docs/ is verified against the engine, as `paiqi verify docs/` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from paiqi_core.cli import main
from paiqi_core.verify import verify_paths
from paiqi_core.verify.extract import load_examples

from .conftest import ROOT

DOCS = ROOT / "docs"


def test_paiqi_verify_docs_passes(in_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "docs"]) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out and "ERROR" not in out
    assert out.strip().splitlines()[-1].endswith("passed, 0 failed")


@pytest.mark.parametrize(
    ("doc", "at_least"),
    [
        ("variants/doujue.md", 30),
        ("variants/pagat.md", 15),
        ("variants/platform.md", 40),
        ("variants/shichinarabe.md", 35),
        ("variants/house.md", 8),
        ("variants/wild.md", 4),
        ("verifying.md", 5),
        ("authoring.md", 1),
    ],
)
def test_documents_hold_their_examples(doc: str, at_least: int) -> None:
    report = verify_paths([DOCS / doc])
    assert report.errors == []
    assert report.failed == 0
    assert report.passed >= at_least


def test_cross_variant_examples_name_several_profiles() -> None:
    examples = [
        e for e in load_examples(DOCS / "variants" / "pagat.md") if not isinstance(e, Exception)
    ]
    multi = [e for e in examples if len(e.data.get("profiles", [])) >= 3]
    assert len(multi) >= 2
    assert all("by_profile" in e.data for e in multi)


def test_platform_is_compared_with_doujue_on_the_same_facts() -> None:
    examples = [
        e for e in load_examples(DOCS / "variants" / "platform.md") if not isinstance(e, Exception)
    ]
    both = [e for e in examples if {"doujue", "platform"} <= set(e.data.get("profiles", []))]
    assert len(both) >= 5
    assert all("by_profile" in e.data for e in both)


def test_a_wrong_expectation_is_caught(tmp_path: Path) -> None:
    """The worked settlement with one figure changed must fail, with a diff."""
    text = (DOCS / "variants" / "doujue.md").read_text(encoding="utf-8")
    assert "money: [800, 0, -80, -720]" in text
    broken = tmp_path / "broken.md"
    broken.write_text(
        text.replace("money: [800, 0, -80, -720]", "money: [800, 0, -80, -700]"), encoding="utf-8"
    )
    report = verify_paths([broken])
    failing = [o for o in report.outcomes if not o.passed]
    assert len(failing) == 1
    (failure,) = failing[0].failures
    assert "- expected: [800, 0, -80, -700]" in failure
    assert "+ actual:   [800, 0, -80, -720]" in failure


def _tagged_examples() -> dict[str, list[str]]:
    """Reading key -> names of the passing examples in docs/ tagged with it."""
    from paiqi_core.verify.extract import readings_of

    report = verify_paths([DOCS])
    assert report.errors == [] and report.failed == 0
    tagged: dict[str, list[str]] = {}
    for outcome in report.outcomes:
        for key in readings_of(outcome.example.data):
            tagged.setdefault(key, []).append(outcome.example.name)
    return tagged


def test_every_reading_is_shown_by_a_verified_example() -> None:
    from paiqi_core.readings import READINGS

    tagged = _tagged_examples()
    assert sorted(set(READINGS) - set(tagged)) == []


def test_explain_lists_the_readings_of_combined_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "doujue-passes", "--set", "deck.jokers=1"]) == 0
    out = capsys.readouterr().out
    readings = out.split("Readings")[1]
    for key in ("joker-covered-points", "joker-real-completion", "joker-leaver-not-covered",
                "cover-after-passes-finishes", "opening-card-compulsory"):  # fmt: skip
        assert f"\n{key}\n" in readings
    assert "joker-across-junction" not in readings  # no ring on doujue's rows
    assert main(["explain", "doujue"]) == 0
    assert "Readings" not in capsys.readouterr().out  # plain 鬥雀 needs none
    assert main(["explain", "shichinarabe-tunnel", "--set", "deck.jokers=1", "--json"]) == 0
    import json

    keys = [r["key"] for r in json.loads(capsys.readouterr().out)["readings"]]
    assert {"joker-across-junction", "tunnel-closes-next-to-reach"} <= set(keys)


def test_an_unknown_reading_key_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "ex.yaml"
    path.write_text(
        "name: x\nprofile: doujue\nreading: joker-covered-point\nposition: {table: [S7], "
        "hand: [S8]}\nexpect: {legal: [S8]}\n",
        encoding="utf-8",
    )
    report = verify_paths([path])
    (error,) = report.errors
    assert str(error).endswith(
        "ex.yaml:3:10: reading: unknown reading 'joker-covered-point'; did you mean "
        "'joker-covered-points'?"
    )


MATCH_OF_PENALTIES = """```paiqi
name: a match of penalty points
profile: pagat
set: {{scoring.penalty: cards, match.games: 3, match.limit: {limit}}}
match:
  games:
    - [{{out: 1}}, {{held: 3}}, {{held: 1}}, {{held: 2}}]
    - [{{held: 2}}, {{held: 1}}, {{out: 1}}, {{held: 4}}]
    - [{{held: 1}}, {{out: 1}}, {{held: 2}}, {{held: 1}}]
expect:
  points: {points}
  games_played: {played}
```
"""


@pytest.mark.parametrize(
    ("limit", "points", "played", "passed"),
    [
        # no limit reached: 0 − 2 − 1, −3 − 1 − 0, −1 − 0 − 2, −2 − 4 − 1
        (100, [-3, -4, -3, -7], 3, True),
        # seat 3 reaches 6 after the second game (−2 − 4): the third is not played
        (6, [-2, -4, -1, -6], 2, True),
        (6, [-3, -4, -3, -7], 3, False),  # the whole match, where the limit ended it sooner
    ],
)
def test_a_match_of_penalty_points_is_scored_from_each_games_facts(
    tmp_path: Path, limit: int, points: list[int], played: int, passed: bool
) -> None:
    doc = tmp_path / "match.md"
    doc.write_text(
        MATCH_OF_PENALTIES.format(limit=limit, points=points, played=played), encoding="utf-8"
    )
    report = verify_paths([doc])
    assert report.errors == []
    assert [o.passed for o in report.outcomes] == [passed]


def test_a_match_takes_ranks_or_games_and_a_scoring_with_points(tmp_path: Path) -> None:
    both = "match:\n  ranks: [[1, 2, 3, 4]]\n  games: [[{out: 1}, {}, {}, {}]]\n"
    neither = "match: {}\n"
    head = "```paiqi\nname: x\nprofile: shichinarabe\n"
    tail = "expect:\n  points: [3, 2, 1, 0]\n```\n"
    for body in (both, neither):
        doc = tmp_path / "bad.md"
        doc.write_text(head + body + tail, encoding="utf-8")
        (error,) = verify_paths([doc]).errors
        assert "match: needs exactly one of ranks, games" in str(error), error
    doc = tmp_path / "first_out.md"
    doc.write_text(
        "```paiqi\nname: y\nprofile: pagat\nmatch:\n  games: [[{out: 1}, {}, {}, {}]]\n"
        "expect:\n  points: [0, 0, 0, 0]\n```\n",
        encoding="utf-8",
    )
    (outcome,) = verify_paths([doc]).outcomes
    assert outcome.failures == [
        "setup: a match adds up each game's points; this scoring gives none"
    ]


def test_a_settlement_counted_by_the_cards_values_needs_the_cards_held(tmp_path: Path) -> None:
    # penalty points by the cards' values (scoring.penalty: pips) cannot be scored from a
    # number of cards: the example is told to list them, not scored as if they were the
    # lowest cards
    path = tmp_path / "ex.yaml"
    path.write_text(
        "name: x\nprofile: pagat\nset: {scoring.penalty: pips}\n"
        "settlement: [{out: true}, {held: 2}]\n"
        "expect: {total: [0, -3, 0, 0]}\n",
        encoding="utf-8",
    )
    report = verify_paths([path])
    (outcome,) = report.outcomes
    assert not outcome.passed
    assert outcome.failures == [
        "setup: seat 1: give the cards still held as a list (held: [SK, C2]): the penalty "
        "points count their values"
    ]
