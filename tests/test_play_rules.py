"""The rules of play declared in ``core.play_rules``: each declaration is whole (a slot of its
own, the schema's values, a sentence and a reading in every book language) and every layer
reads it from there."""

from __future__ import annotations

import pytest

from paiqi_core.core import layout as L
from paiqi_core.core.play_rules import PLAY_RULES, PlayRule
from paiqi_core.engine import Game
from paiqi_core.engine.reasons import CATEGORIES
from paiqi_core.resources import schema
from paiqi_core.rulebook import book, languages
from paiqi_core.rules import rules_of


def _schema_entry(key: str) -> dict:
    node = schema("profile")
    for part in key.split("."):
        node = node["properties"][part]
    return node


def test_each_rule_has_a_slot_of_its_own_among_the_rules_of_play() -> None:
    slots = [rule.slot for rule in PLAY_RULES]
    assert len(set(slots)) == len(slots)
    assert all(69 <= slot <= 79 for slot in slots)  # (layout: 69-79 are the rules of play)
    taken = {v for k, v in vars(L).items() if k.startswith("R_") and isinstance(v, int)}
    assert not taken & set(slots)  # no slot of layout's own
    # a refusal is worded in one of the categories documentation examples match on
    assert all(rule.refusal[0] in CATEGORIES for rule in PLAY_RULES if rule.refusal[0])


@pytest.mark.parametrize("rule", PLAY_RULES, ids=lambda r: r.key)
def test_the_schema_offers_exactly_the_declared_values_with_the_first_as_default(
    rule: PlayRule,
) -> None:
    entry = _schema_entry(rule.key)
    values = [False, True] if entry.get("type") == "boolean" else entry["enum"]
    assert sorted(map(str, values)) == sorted(map(str, rule.values))
    assert entry["default"] == rule.values[0]
    assert entry.get("x-fingerprint") == "omit-default"  # stored rules keep their fingerprint


@pytest.mark.parametrize("rule", PLAY_RULES, ids=lambda r: r.key)
@pytest.mark.parametrize("lang", languages.LANGS)
def test_every_value_that_does_something_has_a_sentence_and_a_reading(
    rule: PlayRule, lang: str
) -> None:
    said = languages.get(lang).rules[rule.key]
    assert isinstance(said, dict)
    shown = {"yes" if v is True else "no" if v is False else str(v) for v in rule.values[1:]}
    assert set(said) == shown and all(said.values())
    if rule.reading:
        assert languages.get(lang).readings[rule.reading]
    assert book.section_of(rule.key) == rule.section


def test_a_declared_rule_reaches_the_rules_vector_the_readings_and_the_book() -> None:
    on = rules_of("pagat", ["turn.sevens_first=true"])
    off = rules_of("pagat")
    rule = next(r for r in PLAY_RULES if r.key == "turn.sevens_first")
    assert Game(on.profile).vector[rule.slot] == 1 and Game(off.profile).vector[rule.slot] == 0
    assert rule.reading in {r.key for r in on.readings}
    assert rule.reading not in {r.key for r in off.readings}
    assert book.INERT[rule.key](off.profile, off) and not book.INERT[rule.key](on.profile, on)
    words = book.build(on.profile, "en").sections
    assert any(rule.key in line.rules for s in words for line in s.lines)


def test_a_rule_that_needs_another_does_nothing_without_it() -> None:
    """turn.joker_finish needs jokers: without them the book states it nowhere and its
    reading is not listed."""
    rule = next(r for r in PLAY_RULES if r.key == "turn.joker_finish")
    assert rule.needs == "deck.jokers"
    bare = rules_of("shichinarabe", ["turn.joker_finish=refused"])
    joker = rules_of("shichinarabe", ["turn.joker_finish=refused", "deck.jokers=1"])
    assert book.INERT[rule.key](bare.profile, bare)
    assert not book.INERT[rule.key](joker.profile, joker)
    assert rule.reading not in {r.key for r in bare.readings}
    assert rule.reading in {r.key for r in joker.readings}
