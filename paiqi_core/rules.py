"""Compile a profile into ``Rules``: the one frozen, typed rule set that every consumer reads.

``compile_rules`` is the only reader of a profile's dotted keys. It picks the four slot
objects from the hook registries (``paiqi_core.slots`` says what each must provide),
compiles the rank topology to its lookup tables, and gathers the session and match settings
and the public facts an agent may know. The engine, the agents, the
runs, the records and the verifier read ``Rules`` only.

``Rules`` pickle as their resolved profile and are rebuilt (once per process, cached by the
profile's fingerprint) when unpickled, so states and games travel to other processes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from paiqi_core import hooks
from paiqi_core.actions import PASS
from paiqi_core.cards import EVERY_CARD
from paiqi_core.hooks.registry import SectionParams
from paiqi_core.pack import ALL_RANKS, Pack, rank_index, rank_range
from paiqi_core.profile import Location, Problem, Profile, ProfileError, load_profile
from paiqi_core.profile.model import thaw
from paiqi_core.readings import Reading, applicable
from paiqi_core.slots import (
    EndingRule,
    GivenSeat,
    OpeningRule,
    Scoring,
    ScoringFacts,
    ScoringRule,
    StuckRule,
    missing_members,
    seat_stuck,
)
from paiqi_core.topology import Topology, compile_topology


@dataclass(frozen=True)
class SessionRules:
    """A session (局): how many hands, the money each player starts with, and the winnings
    or losses that end it (None: none)."""

    hands: int
    bankroll: int | None
    target: int | None = None


@dataclass(frozen=True)
class MatchRules:
    """A match: how many games, scored by rank (or penalty) points, and the points that
    end it early (None: none)."""

    games: int
    limit: int | None = None
    next_lead: str = "opening"  # who moves first in the games after the first (last_winner)
    next_centre: str = "fixed"  # their centre: fixed, or picked by the last (last_picks)


@dataclass(frozen=True, eq=False)
class Rules:
    """The compiled rules of one profile (with its overrides)."""

    profile: Profile  # where the rules came from: id, overrides, origins (for explain)
    players: int
    jokers: int
    deck: tuple[int, ...]  # what is shuffled and dealt: the pack's cards, then its jokers
    topology: Topology
    must_play: bool  # a player who can play must play
    # the stall rule: rounds of passes in a row (every holder passing) that end the game;
    # None: no stall rule (the game always ends by itself)
    stall: int | None
    opening: OpeningRule
    stuck: StuckRule
    ending: EndingRule
    scoring: ScoringRule
    session: SessionRules
    match: MatchRules
    declared_readings: tuple[str, ...] = ()  # readings the chosen hooks declare
    # after a card that ends its row's line, another play: none, may or must
    extra_after_end: str = "none"
    # the cards an even share leaves: dealt on round the seats, or face_up for anyone to play
    leftover: str = "dealt"
    # what a pass costs: none, or a card the previous player holding cards chooses and hands on
    pass_takes: str = "none"
    # the cards dealt to each seat (None: the pack shared out, as ``leftover`` says)
    hand: int | None = None
    # what a stuck player does while the stock holds cards: none (passes), or one (draws one)
    draw: str = "none"
    # the decks shuffled together: each suited card that many times
    decks: int = 1

    @property
    def readings(self) -> tuple[Reading, ...]:
        """How paiqi settles the points these rules leave open (see ``paiqi_core.readings``)."""
        return applicable(self, self.declared_readings)

    @property
    def pack(self) -> Pack:
        """The cards in play: the pack's ranks, its centre rank, its jokers, its decks."""
        return Pack(self.topology.ranks, self.topology.centre, self.jokers, self.decks)

    @property
    def id(self) -> str:
        """The profile's id."""
        return self.profile.id

    @property
    def name(self) -> str:
        """The profile's human name."""
        return self.profile.name

    @property
    def options(self) -> Mapping[str, Any]:
        """The overrides applied on top of the named profile (dotted key -> value)."""
        return self.profile.overrides

    @property
    def facts(self) -> ScoringFacts:
        """The public facts of the scoring: objective, bonuses, bust threshold, melds."""
        return self.scoring.facts

    def hook_name(self, slot: str) -> str:
        """The name of the hook that the profile names for ``slot`` (for messages)."""
        return str(self.profile.get(hooks.registry.SLOTS[slot]))

    @property
    def fingerprint(self) -> str:
        """A hash of every rule in effect: equal fingerprints, equal rules."""
        return self.profile.fingerprint

    def __reduce__(self) -> tuple[Any, ...]:
        return (rules_of, (self.profile,))

    def __repr__(self) -> str:
        return f"<Rules {self.id} {self.fingerprint[:12]}>"


def pack_of(profile: Profile) -> Pack:
    """The pack a validated profile plays with."""
    ranks = profile.get("deck.ranks")
    return Pack(
        ALL_RANKS if ranks is None else rank_range(ranks, profile.get("layout.ace")),
        rank_index(str(profile.get("layout.centre"))),
        int(profile.get("deck.jokers")),
        int(profile.get("deck.decks")),
    )


def _slot_object(profile: Profile, slot: str, pack: Pack) -> Any:
    """Build the slot object of the hook the profile names, checked against the protocol.
    Its factory is given its section of the rules, with the ``pack`` beside them."""
    dotted = hooks.registry.SLOTS[slot]
    section, key = dotted.split(".")
    name = profile.get(dotted)
    hook = hooks.lookup(slot, name)
    where = profile.origin((section, key)).location or Location(profile.source, 1, 1)
    try:
        made = hook.factory(SectionParams(profile.section(section), pack))
    except (ValueError, TypeError, KeyError) as e:
        raise ProfileError([Problem(where, (section, key), f"{slot} hook '{name}': {e}")]) from e
    if slot == "scoring" and callable(made) and not hasattr(made, "score"):
        made = Scoring(made)  # a bare scoring function: nothing declared
    if slot == "stuck":
        made = seat_stuck(made)  # a rule of the first form, (hand, passes_used), is wrapped
    missing = missing_members(slot, made)
    if missing:
        raise ProfileError(
            [
                Problem(
                    where,
                    (section, key),
                    f"{slot} hook '{name}' returned {type(made).__name__}, which lacks "
                    f"{', '.join(missing)} of the {slot} protocol (see docs/authoring.md)",
                )
            ]
        )
    return made


AUTO_STALL = 10  # rounds of passes in a row that end a game that could go on for ever
_MANY_PASSES = 1 << 30


def stall_rounds(
    value: Any, must_play: bool, stuck: StuckRule, takes: bool = False, dead: bool = False
) -> int | None:
    """The stall rule in effect: ``value`` when a number; for ``auto``, ``AUTO_STALL``
    where a player may pass by choice without limit (asked of the stuck rule itself, so a
    plugin's counts too), or a pass ``takes`` a card (which can then be handed round for
    ever, never reaching a turn of its holder's), or cards are ``dead`` (a stock nobody
    draws from, or a card a joker keeps the place of: a row can stop at one of them for
    good, or a hand never empty), the ways a game could otherwise
    never end; else None."""
    if value != "auto":
        return int(value)
    endless = not must_play and PASS in stuck.voluntary(GivenSeat(EVERY_CARD, _MANY_PASSES))
    return AUTO_STALL if endless or takes or dead else None


def dead_cards(profile: Profile) -> bool:
    """Whether some cards may never come into play: a stock nobody draws from, or a joker
    that keeps the place of a card held (turn.joker_handover optional or off)."""
    stock = profile.get("deck.leftover") == "stock" and profile.get("turn.draw") == "none"
    kept = bool(profile.get("deck.jokers")) and profile.get("turn.joker_handover") != "forced"
    return stock or kept


def _or_none(value: object) -> int | None:
    return None if value is None else int(str(value))


def compile_rules(profile: Profile) -> Rules:
    """Compile a validated profile; a hook that fails or breaks its protocol is a
    ProfileError located at the rule that names it."""
    pack = pack_of(profile)
    bankroll = profile.get("session.bankroll")
    target = profile.get("session.target")
    must_play = bool(profile.get("turn.must_play"))
    stuck = _slot_object(profile, "stuck", pack)
    return Rules(
        profile=profile,
        players=int(profile.get("players")),
        jokers=pack.jokers,
        deck=pack.cards,
        topology=compile_topology(
            profile.get("layout.ace"),
            profile.get("layout.ends"),
            profile.get("layout.ace_king"),
            profile.get("layout.sides"),
            pack.centre,
            pack.ranks,
        ),
        must_play=must_play,
        stall=stall_rounds(
            profile.get("ending.stall"),
            must_play,
            stuck,
            profile.get("turn.pass_takes") != "none",
            dead_cards(profile),
        ),
        opening=_slot_object(profile, "opening", pack),
        stuck=stuck,
        ending=_slot_object(profile, "ending", pack),
        scoring=_slot_object(profile, "scoring", pack),
        session=SessionRules(
            int(profile.get("session.hands")),
            None if bankroll is None else int(bankroll),
            None if target is None else int(target),
        ),
        match=MatchRules(
            int(profile.get("match.games")),
            _or_none(profile.get("match.limit")),
            str(profile.get("match.next_lead")),
            str(profile.get("match.next_centre")),
        ),
        extra_after_end=str(profile.get("turn.extra_after_end")),
        leftover=str(profile.get("deck.leftover")),
        pass_takes=str(profile.get("turn.pass_takes")),
        hand=None if profile.get("deck.hand") is None else int(profile.get("deck.hand")),
        draw=str(profile.get("turn.draw")),
        decks=pack.decks,
        declared_readings=tuple(
            key
            for slot, dotted in hooks.registry.SLOTS.items()
            for key in hooks.lookup(slot, profile.get(dotted)).readings
        ),
    )


_BY_FINGERPRINT: dict[tuple[str, str, str, tuple[int, ...]], Rules] = {}


def rules_of(profile: Profile | str, overrides: Any = ()) -> Rules:
    """The compiled rules of ``profile`` (a Profile, or a built-in id or file with
    overrides), shared by every caller in this process that has the same rules."""
    if not isinstance(profile, Profile):
        profile = load_profile(profile, overrides)
    elif overrides:
        raise ValueError("pass overrides when loading the profile")
    factories = tuple(
        id(hooks.lookup(slot, profile.get(dotted)).factory)
        for slot, dotted in hooks.registry.SLOTS.items()
    )
    # a hook registered anew compiles anew; the same rules reached another way (another
    # profile's id, an override naming a default) are rules of their own name and options,
    # which records and reports carry
    options = json.dumps(thaw(profile.overrides), sort_keys=True, ensure_ascii=False, default=str)
    key = (profile.fingerprint, profile.id, options, factories)
    rules = _BY_FINGERPRINT.get(key)
    if rules is None:
        rules = _BY_FINGERPRINT[key] = compile_rules(profile)
    return rules
