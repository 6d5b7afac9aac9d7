"""A profile's rules as a book: sections in the order players read rules, one sentence per
rule in effect, in one language.

Every rule ``paiqi explain`` lists (``profile.explain.rules_in_effect``) is either stated in
a section or set aside as doing nothing under this profile (``INERT``: no passes to take
when nobody passes, no stall rule where games always end). A behaviour this book has no
sentence for (a plugin's hook or parameter) is stated by its own description.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiqi_core.core.play_rules import PLAY_RULES, PlayRule
from paiqi_core.profile.explain import description_of, readings_of, rules_in_effect
from paiqi_core.profile.model import Profile
from paiqi_core.readings import keeps_totals, pays_by_pairs
from paiqi_core.rulebook import languages
from paiqi_core.rulebook.cards import shown_value
from paiqi_core.rules import Rules, rules_of

SECTIONS = ("players", "deal", "play", "stuck", "jokers", "end", "scoring", "session")

# the section of a rule: by its whole key, else by its first part
_PLACE = {
    "players": "players",
    "deck.jokers": "jokers",
    "deck.decks": "players",
    "deck.ranks": "players",
    "layout.centre": "players",
    "layout.ace": "players",
    "deck.hand": "deal",
    "deck.leftover": "deal",
    "opening": "deal",
    "layout": "play",
    "turn.must_play": "play",
    "turn.extra_after_end": "play",
    "turn": "stuck",
    "ending": "end",
    "scoring": "scoring",
    "session": "session",
    "match": "session",
    **{rule.key: rule.section for rule in PLAY_RULES},
}

# rules in effect that change nothing under the profile's other rules, with why
INERT: dict[str, Callable[[Profile, Rules], bool]] = {
    "deck.decks": lambda p, r: r.decks == 1,
    "deck.hand": lambda p, r: r.hand is None,
    "turn.extra_after_end": lambda p, r: r.extra_after_end == "none",
    "turn.pass_takes": lambda p, r: r.pass_takes == "none",
    "turn.draw": lambda p, r: r.draw == "none",
    "turn.out_of_passes": lambda p, r: p.get("turn.pass_limit") is None,
    "ending.stall": lambda p, r: r.stall is None,
    "session.bankroll": lambda p, r: p.get("session.bankroll") is None or not _money(r),
    "session.hands": lambda p, r: not _money(r),  # a session carries money from game to game
    "session.target": lambda p, r: p.get("session.target") is None or not _money(r),
    "layout.ace_king": lambda p, r: p.get("layout.ace") == "high",  # A and K lie at two ends
    "match.games": lambda p, r: p.get("match.games") == 1,
    "match.limit": lambda p, r: p.get("match.limit") is None or p.get("match.games") == 1,
    "match.next_lead": lambda p, r: p.get("match.next_lead") == "opening" or r.match.games == 1,
    "match.next_centre": lambda p, r: p.get("match.next_centre") == "fixed" or r.match.games == 1,
    "scoring.fee": lambda p, r: not p.get("scoring.fee"),
    "scoring.card_cost": lambda p, r: not p.get("scoring.card_cost"),
    # an extra ante by hand size (stated whatever the players: the book speaks of any deal)
    "scoring.extra_ante": lambda p, r: not p.get("scoring.extra_ante"),
    "scoring.extra_ante_from": lambda p, r: not p.get("scoring.extra_ante"),
    "scoring.able_pass_cost": lambda p, r: not p.get("scoring.able_pass_cost"),
    "scoring.held_seven_pay": lambda p, r: not p.get("scoring.held_seven_pay"),
    "scoring.count": lambda p, r: p.get("scoring.count") == "points",
    "scoring.pay": lambda p, r: p.get("scoring.pay") == "winner",
    "scoring.penalty": lambda p, r: p.get("scoring.penalty") == "none",
    "scoring.losers": lambda p, r: p.get("scoring.losers") == "unranked",
    "scoring.clean_multiplier": lambda p, r: p.get("scoring.pay") != "pairs",
    "scoring.base": lambda p, r: not p.get("scoring.base"),
    "scoring.finishers": lambda p, r: not p.get("scoring.finishers"),
    "scoring.finishers_collect": lambda p, r: not p.get("scoring.finishers_collect"),
    "scoring.spare_least": lambda p, r: not p.get("scoring.spare_least"),
    "scoring.all_covered_pay": lambda p, r: not any(p.get("scoring.all_covered_pay") or ()),
    # every two players settle, or each keeps its total: the sentence of scoring.pay gives
    # the totals too, and there are no heads, bust or winner's multipliers
    "scoring.method": lambda p, r: _no_payers(r),
    "scoring.last_seven_bonus": lambda p, r: p.get("scoring.last_seven_bonus") == 0,
    "scoring.completion_bonus": lambda p, r: p.get("scoring.completion_bonus") == 0,
    "scoring.clean_bonus": lambda p, r: p.get("scoring.clean_bonus") == 0,
    "scoring.big_head": lambda p, r: _no_payers(r),
    "scoring.middle_head": lambda p, r: _no_payers(r),
    "scoring.bust_above": lambda p, r: _no_payers(r),
    "scoring.bust_multiplier": lambda p, r: _no_payers(r),
    "scoring.winner_multiplier.last_seven": lambda p, r: _no_payers(r),
    "scoring.winner_multiplier.all_covered": lambda p, r: _no_payers(r),
    "scoring.winner_multiplier.clean": lambda p, r: _no_payers(r),
    "scoring.rate": lambda p, r: p.get("scoring.settlement") == "heads",
    "scoring.head_amounts.small": lambda p, r: p.get("scoring.settlement") == "difference",
    "scoring.head_amounts.middle": lambda p, r: p.get("scoring.settlement") == "difference",
    "scoring.head_amounts.big": lambda p, r: p.get("scoring.settlement") == "difference",
}


def _no_payers(rules: Rules) -> bool:
    """Whether no winner collects from payers: every two players settle, or each keeps its
    total (no heads, bust or winner's multipliers)."""
    return pays_by_pairs(rules) or keeps_totals(rules)


def _declared_inert(rule: PlayRule) -> Callable[[Profile, Rules], bool]:
    return lambda p, r: rule.inert_in(p.get)


INERT.update({rule.key: _declared_inert(rule) for rule in PLAY_RULES})  # (``core.play_rules``)


def _money(rules: Rules) -> bool:
    """Whether the scoring settles in money (a session carries it on)."""
    return rules.scoring.facts.objective == "money"


def section_of(rule: str) -> str:
    """The section a rule (dotted key) is stated in."""
    if rule in _PLACE:
        return _PLACE[rule]
    return _PLACE.get(rule.split(".")[0], "play")


@dataclass
class Line:
    """One sentence of the book: the rules it states, and whether the profile changed
    them from its parent (or --set from the profile)."""

    rules: tuple[str, ...]
    text: str
    house: bool = False


@dataclass
class Section:
    """A section: its key (``SECTIONS``), title, sentences and worked examples."""

    key: str
    title: str
    lines: list[Line] = field(default_factory=list)
    examples: list[Any] = field(default_factory=list)  # rulebook.examples.Worked


@dataclass
class Book:
    """A rule book of one profile in one language."""

    profile: Profile
    lang: str
    title: str
    intro: list[str]
    sections: list[Section]
    readings: list[tuple[str, str]]  # (key, statement)
    glossary: list[tuple[str, str]]
    inert: tuple[str, ...]  # rules in effect that do nothing here, so stated nowhere

    @property
    def stated(self) -> set[str]:
        """Every rule a sentence of the book states."""
        return {r for s in self.sections for line in s.lines for r in line.rules}


def built_in(profile: Profile) -> bool:
    """Whether the profile is one of paiqi's own (whose description is paiqi's, in English)."""
    return profile.source.endswith("(built-in)")


def is_house(profile: Profile, rule: str) -> bool:
    """Whether the profile (or --set) changed ``rule`` from its parent's rules."""
    kind = profile.origin(tuple(rule.split("."))).kind
    return kind == "set" or (kind == "profile" and len(profile.chain) > 1)


def _signed(points: int) -> str:
    """Points with their sign: +100, −10, 0."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def _context(profile: Profile, rules: Rules, lang: str) -> dict[str, Any]:
    """The fields a sentence may name: every rule by its last key, shown in ``lang``."""
    out: dict[str, Any] = {}

    def walk(node: Mapping[str, Any]) -> None:
        for key, value in node.items():
            if isinstance(value, Mapping):
                walk(value)
            else:
                out[key] = shown_value(value, lang)

    walk(profile.data)
    out["stall_rounds"] = rules.stall
    out["others"] = rules.players - 1  # each player's opponents
    table = profile.get("scoring.finishers") or ()  # by players out: each of them / each other
    out["finishers_table"] = "; ".join(
        f"{k}: {_signed(a)} / {_signed(b)}" for k, (a, b) in enumerate(table, 1)
    )
    gain, others = profile.get("scoring.all_covered_pay") or (0, 0)
    out["all_covered_gain"], out["all_covered_others"] = _signed(gain), _signed(others)
    return _Missing(out)


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def sentence(rule: str, value: Any, entry: Mapping[str, Any], ctx: Mapping[str, Any],
             lang: str, method: str = "",
             tags: Sequence[str] = ()) -> tuple[str, set[str]]:  # fmt: skip
    """The sentence stating ``rule`` = ``value`` in ``lang`` (the one for the first of
    ``tags`` that has one, else for the scoring ``method``, else the rule's own: rows
    begun with any card, ``start_any``, are told apart), and the fields it names (other
    rules it states too); a rule or value this book does not know (a plugin's) is stated
    by its own description."""
    table = languages.get(lang).rules
    template: str | None = None
    for key in (*(f"{rule}@{tag}" for tag in tags), f"{rule}@{method}", rule):
        said = table.get(key)
        if isinstance(said, Mapping):
            said = said.get(shown_value(value, "key"), said.get("*"))
        if said is not None:
            template = said
            break
    if template is None:
        own = f"{entry['means']} ({rule} = {shown_value(value, lang)})"
        template = own.replace("{", "{{").replace("}", "}}")  # words, not a template
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return template.format_map(ctx), names


def build(profile: Profile, lang: str = "en") -> Book:
    """The book of ``profile`` in ``lang`` (``languages.LANGS``), without examples."""
    words = languages.get(lang).words
    rules = rules_of(profile)
    ctx = _context(profile, rules, lang)
    # the scoring's own sentences: where each player keeps its covering total, those of
    # pay: totals
    method = "totals" if keeps_totals(rules) else str(profile.get("scoring.method"))
    tags = ("start_any",) if profile.get("layout.start") == "any" else ()
    sections = {key: Section(key, words[key]) for key in SECTIONS}
    inert = []
    lines: list[Line] = []
    named: dict[int, set[str]] = {}
    for entry in rules_in_effect(profile):
        rule = entry["rule"]
        if rule in INERT and INERT[rule](profile, rules):
            inert.append(rule)
            continue
        leaf = rule.split(".")[-1]
        said = next((line for line in lines if leaf in named[id(line)]), None)
        if said is not None:  # an earlier sentence gave its value: it states this rule too
            said.rules += (rule,)
            said.house = said.house or is_house(profile, rule)
            continue
        text, names = sentence(rule, entry["value"], entry, ctx, lang, method, tags)
        line = Line((rule,), text, is_house(profile, rule))
        named[id(line)] = names
        lines.append(line)
        sections[section_of(rule)].lines.append(line)
    if rules.jokers == 0:  # "no jokers" belongs with the cards
        sections["players"].lines += sections["jokers"].lines
        sections["jokers"].lines = []
    chain = ""
    if len(profile.chain) > 1:
        chain = words["extends"].format(parent=profile.chain[1])
    intro = [words["built_from"].format(id=profile.id, chain=chain)]
    about = description_of(profile)
    if about and about["of"] == profile.id and not about["differs"] and not built_in(profile):
        intro.append("> " + about["text"])  # a table's own words about its rules
    if any(line.house for s in sections.values() for line in s.lines):
        note = "changed_note" if len(profile.chain) > 1 else "changed_set"
        intro.append(words[note].format(parent=profile.chain[min(1, len(profile.chain) - 1)]))
    book_readings = [
        (r["key"], languages.get(lang).readings.get(r["key"], r["text"]))
        for r in readings_of(profile)
    ]
    return Book(
        profile=profile,
        lang=lang,
        title=words["title"].format(name=profile.name),
        intro=intro,
        sections=[s for s in sections.values() if s.lines],
        readings=book_readings,
        glossary=list(languages.get(lang).glossary),
        inert=tuple(inert),
    )
