"""Properties of random games of every built-in profile, checked against the rules.

The checks use only the public API (observations, legal actions, results, records) and an
independent model of the rules written from RULES.md: ``Model`` plays each game beside the
engine by the rules alone: who opens (a fixed card, seat 0, the 7 of the door card's suit, or
every 7 put out and the holder of D7 first), the rank order of a row and its ends (open, cut
by 斬龍, tunnel), the legal actions of the player to move (covers, passes and their limit,
voluntary passes), bursts, which suits each player closed, the events of the log, and when a
game ends; the scoring functions score its facts (鬥雀 covering, first out, chips, 七並べ
placement, and the platform's totals, meld exemption, labels and settlements). The model
plays jokers, one or several alike, on open rows (the joker's moves, swaps, leavers, the
jokers of a burst hand, rows not complete while a joker stands in them) and scores them (a
covered joker 0 points and in no meld, leavers ranked in the order they left); a 斬龍
table dealing one fails ``Rules.of``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from paiqi_core import Game, State, card_text, parse_card
from paiqi_core.actions import CUT, DRAW, PASS, action_text, is_event, kind, parse_action
from paiqi_core.agents import RandomAgent
from paiqi_core.cards import alike_card
from paiqi_core.engine import IllegalAction
from paiqi_core.records import replay, state_record
from paiqi_core.resources import builtin_profiles, schema

from .conftest import DEVYATKA, ROWS_ANYWHERE, SEVENS_FIRST_JOKER

PROFILES = sorted(builtin_profiles())
SEEDS = st.integers(0, 2**32)
MAX_ACTIONS = 52 * 4

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_GAMES: dict[str, Game] = {}


def game(profile: str) -> Game:
    if profile not in _GAMES:
        _GAMES[profile] = Game(profile)
    return _GAMES[profile]


def test_the_built_in_profiles_are_known() -> None:
    assert {"doujue", "pagat", "bicycle", "platform", "platform-zhanlong"} <= set(PROFILES)


# -- a model of the rules ------------------------------------------------------------------

# Rank indices: 0 = A, 1 = 2, ..., 6 = 7, ..., 12 = K.
SEVEN = 6
RANK_ORDER = {
    "low": list(range(13)),  # A 2 3 ... K
    "high": [*range(1, 13), 0],  # 2 3 ... K A
}
RANK_TEXT = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CARD_TEXT = [s + r for s in "SHDC" for r in RANK_TEXT]
ALL_ACTIONS = [*CARD_TEXT, *("cover " + c for c in CARD_TEXT), "pass"]


@dataclass(frozen=True)
class Rules:
    """The rules in effect, read from the profile."""

    players: int
    ace: str
    ends: str  # "open", or "cut": a row that reaches an end of the line is closed (斬龍)
    ace_king: str  # none, wrap (A and K joined) or tunnel
    opening: str  # holder_leads, first_seat, door_card, sevens_out or seven_holder
    opening_card: int | None  # the card of holder_leads and sevens_out
    must_play: bool
    stuck: str
    cover_sevens: bool
    pass_limit: int | None  # passes a player may make in a game (stuck: pass)
    out_of_passes: str | None  # cover or burst, when the passes are used up
    ending: str  # all_empty, first_out or one_left
    scoring: str
    params: dict[str, Any]
    # RULES.md section 5: rounds of passes in a row (by every holder) that end the game
    stall: int | None = None
    # Sjuan, Ristiseiska: who lays a card ending its row's line plays again (none, may, must)
    extra_after_end: str = "none"
    # the order in which a row leaves its 7: either, high_first, low_first or both_first
    sides: str = "either"
    # the rank every row starts from (rank index), and the pack's ranks: positions lo..hi
    # of the line A..K (2..A with the ace high); 0..12 for the whole pack
    centre: int = SEVEN
    lo: int = 0
    hi: int = 12
    # jokers, alike (RULES.md section 3; several: WILD_RULES row 30, reading jokers-alike)
    jokers: int = 0
    # the cards an even share leaves: dealt on, or face up for the player to move to play
    # (WILD_RULES row 7)
    leftover: str = "dealt"
    # what a pass costs: none, or a card the previous player holding cards chooses and hands
    # over (Ristiseiska's lappu, Sjuan; WILD_RULES row 17)
    pass_takes: str = "none"
    sevens_first: bool = False  # a 7 that can be played goes first (Badam Satti)
    # whether a player may go out on a joker (WILD_RULES row 29): allowed or refused
    joker_finish: str = "allowed"
    # a pass bars its player until another passes (Sjuan's other penalty, WILD_RULES row 17)
    pass_bars: bool = False
    # a stock to draw from (WILD_RULES row 10): the cards dealt to each (None: shared out),
    # and whether a stuck player draws one instead of passing
    hand: int | None = None
    draw: str = "none"
    # Play or Pay (WILD_RULES row 9): any card begins a row (start any), and one row grows at
    # a time until nothing more joins it (rows one_at_a_time)
    start: str = "centre"
    rows: str = "together"
    # what the holder of a joker's place does (WILD_RULES rows 27, 28): forced (lays it and
    # takes the joker), optional (asked at once: takes it, or passes to keep its card), never
    joker_handover: str = "forced"
    # Trump Fan Tan (WILD_RULES row 11): the last card dealt names trumps; a trump may take
    # the place of its rank in another row, whose card then goes to the trump row
    trumps: str = "none"
    # Crazy Tan (WILD_RULES row 11): single (a card a turn) or blocks (a run of ranks along
    # the line, in one suit or several, laid a card at a time)
    lay: str = "single"

    @staticmethod
    def of(profile: str | Game) -> Rules:
        p = (game(profile) if isinstance(profile, str) else profile).rules.profile
        opening = p.get("opening.method")
        assert opening in ("holder_leads", "first_seat", "door_card", "sevens_out", "seven_holder")
        ending = p.get("ending.method")
        assert ending in ("all_empty", "first_out", "one_left")
        stuck = p.get("turn.stuck")
        assert stuck in ("cover", "pass")
        ends = p.get("layout.ends")
        assert ends in ("open", "cut")
        ace_king = p.get("layout.ace_king")
        assert ace_king in ("none", "wrap", "tunnel")
        # the platform's heads (小頭, 中頭, 大頭) are for four players: its model is too
        assert p.get("players") == 4 or p.get("scoring.method") != "platform"
        jokers = p.get("deck.jokers")
        limit = p.get("turn.pass_limit") if stuck == "pass" else None
        ace = p.get("layout.ace")
        lo, hi = 0, 12
        if p.get("deck.ranks") is not None:  # LOW-HIGH, along the line
            low, high = p.get("deck.ranks").split("-")
            lo, hi = (RANK_ORDER[ace].index(RANK_TEXT.index(x)) for x in (low, high))
        return Rules(
            players=p.get("players"),
            ace=p.get("layout.ace"),
            ends=ends,
            ace_king=ace_king,
            opening=opening,
            opening_card=(
                parse_card(p.get("opening.card"))
                if opening in ("holder_leads", "sevens_out")
                else None
            ),
            must_play=p.get("turn.must_play"),
            stuck=stuck,
            cover_sevens=p.get("turn.cover_sevens"),
            pass_limit=limit,
            out_of_passes=p.get("turn.out_of_passes") if limit is not None else None,
            ending=ending,
            scoring=p.get("scoring.method"),
            params=dict(p.section("scoring")),
            stall=stall_of(
                p.get("ending.stall"),
                p.get("turn.must_play"),
                stuck,
                limit,
                p.get("turn.pass_takes") != "none",
                (p.get("deck.leftover") == "stock" and p.get("turn.draw") == "none")
                or (bool(jokers) and p.get("turn.joker_handover") != "forced"),
            ),
            extra_after_end=p.get("turn.extra_after_end"),
            sides=p.get("layout.sides"),
            centre=RANK_TEXT.index(str(p.get("layout.centre"))),
            lo=lo,
            hi=hi,
            jokers=jokers,
            leftover=p.get("deck.leftover"),
            pass_takes=p.get("turn.pass_takes"),
            sevens_first=p.get("turn.sevens_first"),
            joker_finish=p.get("turn.joker_finish"),
            pass_bars=p.get("turn.pass_bars"),
            hand=p.get("deck.hand"),
            draw=p.get("turn.draw"),
            start=p.get("layout.start"),
            rows=p.get("layout.rows"),
            joker_handover=p.get("turn.joker_handover"),
            trumps=p.get("layout.trumps"),
            lay=p.get("turn.lay"),
        )

    @property
    def pack(self) -> list[int]:
        """The cards of the pack: every suit's ranks from position lo to hi of the line."""
        ranks = {RANK_ORDER[self.ace][q] for q in range(self.lo, self.hi + 1)}
        return [c for c in range(52) if c % 13 in ranks]

    @property
    def hand_size(self) -> int:
        return self.hand or len(self.pack) // self.players

    def ends_line(self, card: int) -> bool:
        """Whether ``card`` ends its row's line: the A or the K where the ace is low, the 2
        or the A where it is high (a short pack's lowest and highest ranks); no card where
        the A and the K are joined."""
        if self.ace_king != "none":
            return False
        rank = card % 13  # A = 0, 2 = 1, ..., K = 12
        return POSITION[self.ace][rank] in (self.lo, self.hi)

    @property
    def ends_at_first_out(self) -> bool:
        return self.ending == "first_out"

    def first_card(self, door_card: int | None) -> int | None:
        """The card the first move must play: fixed, none, or the 7 (the centre card) of the
        door suit."""
        if self.opening == "holder_leads":
            return self.opening_card
        if self.opening == "door_card":
            assert door_card is not None and 0 <= door_card < 52, "no door card was cut"
            return 13 * (door_card // 13) + self.centre
        return None


POSITION = {ace: [order.index(r) for r in range(13)] for ace, order in RANK_ORDER.items()}
CARD_NUMBER = {text: number for number, text in enumerate(CARD_TEXT)}


def ring_fits(rules: Rules, table: set[int], suit: int, first: int | None) -> set[int]:
    """The cards of ``suit`` that may join its row where any card begins a row (start any,
    on a ring: A follows K): any card of the suit while the row is empty; else, going up
    from its ``first`` card's rank round the ring, the first rank not yet down (sides up)
    and, with sides either, the first going down too; nothing once all 13 are down."""
    cards = {13 * suit + r for r in range(13)}
    if first is None:
        return cards - table
    up = next((r for k in range(13) if (r := (first + k) % 13) + 13 * suit not in table), None)
    if up is None:
        return set()
    out = {13 * suit + up}
    if rules.sides == "either":
        down = next(r for k in range(13) if (r := (first - k) % 13) + 13 * suit not in table)
        out.add(13 * suit + down)
    return out


def row_positions(table: set[int], suit: int, ace: str) -> list[int]:
    """Positions of a suit's cards on the table in the rank order (0 = lowest)."""
    position = POSITION[ace]
    return sorted(position[c - 13 * suit] for c in table if c // 13 == suit)


@cache
def row_extensions(
    ace: str,
    ends: str,
    ace_king: str,
    positions: frozenset[int],
    centre: int = SEVEN,
    lo: int = 0,
    hi: int = 12,
) -> set[int]:
    """Playable positions (in the rank order) of a row holding ``positions``.

    The row grows one card at a time from its 7 (the ``centre`` rank) along the line A..K
    (or 2..A with the ace high; a ring with wrap), between positions ``lo`` and ``hi`` (a
    short pack). Cards laid on the table away from the 7 (a burst hand) extend nothing
    until the gap between is filled. 斬龍 (cut): a row holding either end of the line takes
    nothing more. Tunnel: once one side of the 7 is complete to its end, the other side is
    played from its far end (A upwards, or K downwards) up to the gap.
    """
    seven = RANK_ORDER[ace].index(centre)
    if ends == "cut" and positions & {lo, hi}:
        return set()
    if seven not in positions:  # (a burst laid cards of a row before its 7)
        return {seven}
    if ace_king == "tunnel":
        low_done = set(range(seven + 1)) <= positions
        high_done = set(range(seven, 13)) <= positions
        if high_done and not low_done:
            return {min(set(range(seven)) - positions)}
        if low_done and not high_done:
            return {max(set(range(seven + 1, 13)) - positions)}

    def neighbours(p: int) -> set[int]:
        near = {q for q in (p - 1, p + 1) if lo <= q <= hi}
        if ace_king == "wrap" and p in (0, 12):
            near.add(12 - p)
        return near

    joined, todo = {seven}, [seven]
    while todo:
        for q in neighbours(todo.pop()):
            if q in positions and q not in joined:
                joined.add(q)
                todo.append(q)
    return {q for p in joined for q in neighbours(p)} - positions


def playable(rules: Rules, table: set[int]) -> set[int]:
    """Cards that may be played onto ``table``: the extensions of every row."""
    order = RANK_ORDER[rules.ace]
    out = set()
    for suit in range(4):
        positions = frozenset(row_positions(table, suit, rules.ace))
        ext = row_extensions(
            rules.ace, rules.ends, rules.ace_king, positions, rules.centre, rules.lo, rules.hi
        )
        out |= allowed_by_sides(rules, table, suit, {13 * suit + order[p] for p in ext})
    return out


def allowed_by_sides(rules: Rules, table: set[int], suit: int, cards: set[int]) -> set[int]:
    """What the order of a row's sides leaves of ``cards``, the extensions of ``suit``:
    no 6 before the 8 (high_first), no 8 before the 6 (low_first), only the 6 and the 8
    until both are down (both_first). The 6 and the 8 are the centre's neighbours on the
    line; a side the pack does not have (the centre at its end) is not waited for."""
    sides, order = rules.sides, RANK_ORDER[rules.ace]
    at = order.index(rules.centre)
    seven = 13 * suit + rules.centre
    six = 13 * suit + order[at - 1] if at > rules.lo else None
    eight = 13 * suit + order[at + 1] if at < rules.hi else None
    if seven not in table:
        return cards
    if sides == "high_first" and eight is not None and eight not in table:
        return cards - {six}
    if sides == "low_first" and six is not None and six not in table:
        return cards - {eight}
    needed = {x for x in (six, eight) if x is not None}
    if sides == "both_first" and not needed <= table:
        return cards & needed
    if sides == "up":  # only the first place above the run up from the 7 (round, with wrap)
        above = sides_outward(rules)[0]
        nxt = next((q for q in above if 13 * suit + order[q] not in table), None)
        return cards & ({13 * suit + order[nxt]} if nxt is not None else set())
    return cards


def sides_outward(rules: Rules) -> tuple[list[int], list[int]]:
    """The places of each side of a row (positions in the rank order), outward from the 7;
    where the A and K are joined (wrap, tunnel), a side goes on past its end to the other
    end and back towards the 7."""
    seven = RANK_ORDER[rules.ace].index(rules.centre)
    up = list(range(seven + 1, rules.hi + 1))
    down = list(range(seven - 1, rules.lo - 1, -1))
    if rules.ace_king != "none":
        up += list(range(rules.lo, seven))
        down += list(range(rules.hi, seven, -1))
    return up, down


def joker_moves(rules: Rules, table: set[int], hand: set[int]) -> set[str]:
    """The joker moves of a player holding ``hand`` and a joker (RULES.md section 3): the
    joker takes the place X of a card that may be played now and that the player does not
    hold; the card Y played with it is the next empty place beyond X on the same side of
    the row (cards laid there by a burst are passed over), and must be playable once X is
    filled."""
    order = RANK_ORDER[rules.ace]
    now = playable(rules, table)
    moves = set()
    for suit in range(4):
        row = set(row_positions(table, suit, rules.ace))
        if not row:
            continue
        for side in sides_outward(rules):
            empty = [q for q in side if q not in row]
            if len(empty) < 2:
                continue
            x, y = (13 * suit + order[q] for q in empty[:2])
            if x in now and x not in hand and y in hand and y in playable(rules, table | {x}):
                moves.add(f"joker {card_text(x)} {card_text(y)}")
    return moves


def closes(rules: Rules, table: set[int], card: int) -> bool:
    """Whether playing ``card`` onto ``table`` closes its suit: the suit is then complete
    (all 13 on the table), or, with 斬龍, the card sits at an end of the line."""
    pos = row_positions(table | {card}, card // 13, rules.ace)
    complete = len(pos) == rules.hi - rules.lo + 1
    return complete or (rules.ends == "cut" and (pos[0] == rules.lo or pos[-1] == rules.hi))


def check_rows_contiguous(table: set[int], ace: str, centre: int = SEVEN) -> None:
    order = RANK_ORDER[ace]
    for suit in range(4):
        pos = row_positions(table, suit, ace)
        if pos:
            assert order.index(centre) in pos, f"suit {suit}: a row without its 7"
            assert pos == list(range(pos[0], pos[-1] + 1)), f"suit {suit}: gap in {pos}"


def holder_of(hands: list[set[int]], card: int) -> int:
    """The seat holding ``card``; seat 0, who moves first, where it lies face up."""
    seats = [s for s in range(len(hands)) if card in hands[s]]
    assert len(seats) <= 1
    return seats[0] if seats else 0


def stall_of(
    value: Any,
    must_play: bool,
    stuck: str,
    limit: int | None,
    takes: bool = False,
    dead: bool = False,
) -> int | None:
    """The stall rule as the schema states it: ``auto`` is 10 rounds exactly where a player
    may pass by choice without limit, a pass takes a card, or a stock nobody draws from
    keeps cards out of play (or a joker keeps the place of a card held), else none."""
    if value != "auto":
        return int(value)
    by_choice = not must_play and stuck == "pass" and limit is None
    return 10 if by_choice or takes or dead else None


@dataclass(frozen=True)
class Block:
    """The cards of a turn so far (turn.lay blocks): suits, the run's places, a due suit."""

    suits: frozenset[int] | set[int]
    low: int
    high: int
    due: int | None


class Model:
    """A game played by the rules alone, action by action, beside the engine.

    ``history`` lists (seat, text) of every action and automatic event, as the engine's
    observations show them: place (a 7 put out before play), cut (斬龍), burst.
    """

    def __init__(
        self,
        rules: Rules,
        hands: list[set[int]],
        door_card: int | None,
        jokers: list[int] | None = None,
    ) -> None:
        n = rules.players
        self.rules = rules
        # jokers, alike: how many each hand holds and covered, the places where one stands
        # in on the table (its card covered: nobody could take it), who left holding only
        # jokers (in order), and each seat's joker moves
        self.jokers = list(jokers) if jokers else [0] * n
        self.dealt_jokers = list(self.jokers)
        self.covered_jokers = [0] * n
        self.standing: set[int] = set()
        self.left: list[int] = []
        self.joker_moves = [0] * n
        self.barred: int | None = None  # the seat a pass barred (turn.pass_bars)
        # Hoyle's penalties: each seat's passes made when it could have played, and what it
        # owes each seat for the 7s it held back (a unit for each of their 6s and 8s held
        # at the moment of the pass)
        self.able = [0] * n
        self.owed = [[0] * n for _ in range(n)]
        # a joker move whose place's holder is asked (turn.joker_handover optional): the seat
        # that moved, the place, the card laid beyond it
        self.offer: tuple[int, int, int] | None = None
        self.buried: set[int] = set()  # cards a burst laid where a joker keeps the place
        self.dealt = [set(h) for h in hands]
        self.hands = [set(h) for h in hands]
        # with leftovers face up, the pack's cards that no hand was dealt lie face up
        self.face_up: set[int] = set()
        if rules.leftover == "face_up":
            self.face_up = set(rules.pack).difference(*hands)
            assert len(self.face_up) == len(rules.pack) % n
        # with a stock, the pack's cards that no hand was dealt lie face down
        self.stock: set[int] = set()
        if rules.leftover == "stock":
            self.stock = set(rules.pack).difference(*hands)
            dealt = rules.hand * n if rules.hand else len(rules.pack) - len(rules.pack) % n
            assert len(self.stock) == len(rules.pack) - dealt
        self.drew = False  # the player to move has just drawn a card that fits
        # where draws grow (turn.draw increasing): each seat's stops and the table's, and the
        # cards still to draw at the stop in progress
        self.stops = [0] * n
        self.table_stops = 0
        self.run_stops = 0  # the stops in a row since a card was last laid (increasing_run)
        self.to_draw = 0
        self.drawn: list[list[str]] = [[] for _ in range(n)]  # each seat's cards drawn
        self.table: set[int] = set()
        self.covered: list[set[int]] = [set() for _ in range(n)]
        self.passes = [0] * n
        self.played = [0] * n
        self.last_play: list[int | None] = [None] * n
        self.closures: list[list[int]] = [[] for _ in range(n)]
        self.opened: list[int] = []
        self.first_rank: dict[int, int] = {}  # suit -> the rank that began its row (start any)
        self.finished: list[int] = []
        self.bursts: list[int] = []
        self.history: list[tuple[int, str]] = []
        self.over = False
        self.idle = 0  # passes in a row
        self.extra = False  # the player to move plays again after a card that ended its line
        # the block of the turn in progress (turn.lay blocks): its suits, the run's first and
        # last places along the line, and the suit begun and not yet laid at all of them
        self.block: Block | None = None
        self.taker: int | None = None  # the seat that passed, to be handed a card
        self.handed: list[list[str]] = [[] for _ in range(n)]  # cards given or taken, in order
        self._legal: set[str] | None = None  # the legal actions, until the next change
        self.first = rules.first_card(door_card)
        # trumps: the card that named them (the last dealt), and the places of other suits
        # where a trump lies (their own cards go to the trump row)
        self.trump_card = door_card if rules.trumps == "last_dealt" else None
        self.trumped: set[int] = set()
        if rules.opening == "sevens_out":
            # Every 7 dealt goes to the table after the deal (one face up stays there); the
            # holder of the card moves first (seat 0 if it lies face up).
            assert rules.opening_card is not None
            self.turn = holder_of(self.hands, rules.opening_card)
            for suit in range(4):
                seven = 13 * suit + rules.centre
                if seven in self.face_up or seven in self.stock:
                    continue  # (a 7 in the stock is played when drawn)
                seat = holder_of(self.hands, seven)
                self.hands[seat].remove(seven)
                self.table.add(seven)
                self.opened.append(suit)
                self.history.append((seat, "place " + card_text(seven)))
        elif self.first is not None:
            self.turn = holder_of(self.hands, self.first)
        elif rules.opening == "seven_holder":
            # the first seat from the dealer's left holding a 7 (seat 0 where none does)
            holders = [s for s in range(n) if any(c % 13 == rules.centre for c in self.hands[s])]
            self.turn = holders[0] if holders else 0
        else:
            self.turn = 0
        if self.ended():  # (every card went out before play)
            self.over = True
        else:
            if self.hands[self.turn] and not self.legal():  # the first mover bursts at once
                self._burst(self.turn)
            if self.ended():
                self.over = True
            elif not self.hands[self.turn]:
                self._advance()

    def plays(self) -> set[int]:
        hand = self.hands[self.turn] | self.face_up  # a card face up, as if held
        if not self.table and self.first is not None:
            return hand & {self.first}
        fits = self.fits()
        return {c for c in hand if self.home(c) in fits}

    def home(self, card: int) -> int:
        """The place ``card`` goes to: its own, or, where a trump took it, the trump row's
        place of its rank."""
        if card in self.trumped:
            assert self.trump_card is not None
            return 13 * (self.trump_card // 13) + card % 13
        return card

    def cards_down(self) -> list[int]:
        """The cards lying in the table's places (a joker's place: none): a trump in the
        place it took, and in the trump row's place of its rank the card it displaced."""
        down = []
        for place in self.table - self.standing:
            card = place
            if place in self.trumped:
                assert self.trump_card is not None
                card = 13 * (self.trump_card // 13) + place % 13
            elif self.trump_card is not None and place // 13 == self.trump_card // 13:
                card = next((x for x in self.trumped if x % 13 == place % 13), place)
            down.append(card)
        return down

    def trump_moves(self) -> set[str]:
        """A trump of the hand laid in the place of its rank in another row, where that
        place fits: not the centre's rank, not the card that named trumps."""
        if self.trump_card is None or (not self.table and self.first is not None):
            return set()
        trump = self.trump_card // 13
        fits = self.fits()
        return {
            f"trump {card_text(c)} {card_text(13 * s + c % 13)}"
            for c in self.hands[self.turn]
            if c // 13 == trump and c != self.trump_card and c % 13 != self.rules.centre
            for s in range(4)
            if s != trump and 13 * s + c % 13 in fits
        }

    def fits(self) -> set[int]:
        """The cards that may join the rows now: from each row's first card where any card
        begins a row; where rows grow one at a time, a row's that is begun and can grow,
        while there is one."""
        r = self.rules
        if r.start == "any":
            by_suit = [ring_fits(r, self.table, s, self.first_rank.get(s)) for s in range(4)]
        else:
            fits = playable(r, self.table)
            by_suit = [{c for c in fits if c // 13 == s} for s in range(4)]
        if r.rows == "one_at_a_time":
            begun = [s for s in range(4) if by_suit[s] and any(c // 13 == s for c in self.table)]
            if begun:
                return set().union(*(by_suit[s] for s in begun))
        return set().union(*by_suit)

    def legal(self) -> set[str]:
        """The legal actions of the player to move, as text; empty: the player bursts."""
        if self._legal is None:
            self._legal = self._legal_now()
        return self._legal

    def _legal_now(self) -> set[str]:
        r = self.rules
        hand, used = self.hands[self.turn], self.passes[self.turn]
        if self.offer is not None:  # the holder of the joker's place: take it, or keep the card
            return {card_text(self.offer[1]), "pass"}
        if self.taker is not None:  # the card to hand on: any of the hand (jokers as one)
            return {"give " + card_text(c) for c in hand} | (
                {"give JOKER"} if self.jokers[self.turn] else set()
            )
        if self.to_draw:  # more cards to draw at this stop
            return {"draw"}
        if self.block is not None:  # the block of the turn: lay on, or stop when none is due
            return self._block_legal()
        plays = self.plays()
        opening_card = not self.table and self.first is not None  # compulsory
        jokers = self.jokers[self.turn] > 0
        moves = joker_moves(r, self.table, hand) if jokers and not opening_card else set()
        if r.joker_finish == "refused" and len(hand) + self.jokers[self.turn] == 2:
            moves = set()  # the joker and one card: that move would go out on the joker
        moves |= self.trump_moves()
        sevens = {c for c in plays if c % 13 == r.centre} if r.sevens_first else set()
        if sevens:  # Badam Satti: a 7 that can be played goes before anything else
            plays, moves = sevens, set()
            if not self.extra and not self.drew:
                return {card_text(c) for c in plays}
        if self.extra:  # another card, or (where it may) stop
            texts = {card_text(c) for c in plays} | moves
            return texts | {"pass"} if r.extra_after_end == "may" else texts
        if self.drew:  # the card just drawn fits: play it, or (where it may) keep it
            texts = {card_text(c) for c in plays} | self.trump_moves()
            return texts if r.must_play else texts | {"pass"}
        if not plays and not moves and r.draw != "none" and self.stock:
            return {"draw"}  # a stuck player draws, while the stock lasts
        if not plays and r.start == "centre" and r.rows == "together":
            # A held 7 is always playable, so a stuck player never holds one.
            assert not any(c % 13 == r.centre for c in hand), "stuck while holding a 7"
        joker = {"cover JOKER"} if jokers else set()  # the alike jokers: one cover
        coverable = {c for c in hand if r.cover_sevens or c % 13 != r.centre}
        covers = {"cover " + card_text(c) for c in coverable} | joker
        passes_left = r.pass_limit is None or used < r.pass_limit
        if r.stuck == "cover":
            stuck, voluntary = covers, covers
        elif passes_left:
            stuck, voluntary = {"pass"}, {"pass"}
        elif r.out_of_passes == "cover":  # out of passes: cover any card, or burst
            stuck, voluntary = {"cover " + card_text(c) for c in hand} | joker, set()
        else:
            stuck, voluntary = set(), set()
        if not plays and not moves:
            return stuck
        texts = {card_text(c) for c in plays} | moves
        return texts if r.must_play or opening_card else texts | voluntary

    def apply(self, text: str) -> None:
        assert not self.over
        seat = self.turn
        drawing = text.startswith("draw ")  # the card drawn, named (the engine's draw)
        assert ("draw" if drawing else text) in self.legal(), (
            f"{text} is not legal for seat {seat} by the rules"
        )
        self._legal = None
        self.history.append((seat, text))
        if self.taker is not None:
            self._hand_on(seat, text.removeprefix("give "))
            return
        if self.offer is not None:  # the holder answers; the game goes on from the joker move
            mover, x, laid = self.offer
            self.offer = None
            if text != "pass":
                self._swap(seat, x)
            self.turn = mover
            self._after(mover, laid)
            return
        if drawing:
            self._draw(seat, CARD_NUMBER[text.removeprefix("draw ")])
            return
        # no extra card, no card drawn or no more of the block: not a pass
        stop = text == "pass" and (self.extra or self.drew or self.block is not None)
        self.extra = self.drew = False
        if stop:
            self.block = None
        self.idle = self.idle + 1 if text == "pass" and not stop else 0
        laid = None  # the card laid on the table, if any
        if stop:
            pass
        elif text == "pass":
            self._held_back(seat)
            self.passes[seat] += 1
            if self.rules.pass_bars:
                self.barred = seat  # (and whoever was barred is free)
            n = self.rules.players
            givers = [(seat - k) % n for k in range(1, n) if self.hands[(seat - k) % n]]
            if self.rules.pass_takes == "chosen" and givers:
                self.taker, self.turn = seat, givers[0]  # the previous seat holding cards
                return
        elif text == "cover JOKER":
            self.jokers[seat] -= 1
            self.covered_jokers[seat] += 1
        elif text.startswith("cover "):
            card = CARD_NUMBER[text.removeprefix("cover ")]
            self.hands[seat].remove(card)
            self.covered[seat].add(card)
        elif text.startswith("trump "):  # the trump C in the place of X
            laid, x = (CARD_NUMBER[t] for t in text.split()[1:])
            self.hands[seat].remove(laid)
            self.played[seat] += 1
            closing = closes(self.rules, self.table, x)
            self.table.add(x)
            self.trumped.add(x)
            if closing and (self.rules.ends == "cut" or self._complete(x // 13)):
                self.closures[seat].append(self.opened.index(x // 13) + 1)
                if self.rules.ends == "cut":
                    self.history.append((seat, "cut " + "SHDC"[x // 13]))
            if not self.hands[seat] and not self.jokers[seat]:
                self.last_play[seat] = laid
        elif text.startswith("joker "):  # the joker at X, and Y beyond it
            x, laid = (CARD_NUMBER[t] for t in text.split()[1:])
            self.jokers[seat] -= 1
            self.joker_moves[seat] += 1
            self.played[seat] += 1
            self.table.add(x)
            self.standing.add(x)
            self._lay(seat, laid)
            holders = [s for s, h in enumerate(self.hands) if x in h]
            handover = self.rules.joker_handover
            if holders and handover == "forced":  # the holder of X lays it and takes the joker
                self._swap(holders[0], x)
            elif holders and handover == "optional":  # the holder of X is asked first
                self._check_out(seat)
                self.offer, self.turn = (seat, x, laid), holders[0]
                return
        else:
            laid = CARD_NUMBER[text]
            self._lay(seat, laid)
        self._check_out(seat)
        self._after(seat, laid)

    def _swap(self, taker: int, x: int) -> None:
        """``taker`` lays X on the joker's place and takes the joker."""
        self.standing.remove(x)
        self.hands[taker].remove(x)
        self.jokers[taker] += 1
        self.played[taker] += 1
        self.history.append((taker, "swap " + card_text(x)))
        if self._complete(x // 13):
            self.closures[taker].append(self.opened.index(x // 13) + 1)
        self._check_out(taker)

    def _after(self, seat: int, laid: int | None) -> None:
        """After ``seat``'s move that laid ``laid``: the game ends, an extra play, or the
        next seat."""
        if laid is not None:
            self.run_stops = 0  # a card laid: the stops in a row count anew
        holders = sum(1 for h in self.hands if h)
        stall = self.rules.stall
        if self.ended() or (stall is not None and self.idle >= stall * holders):
            self.over = True
        elif (
            self.rules.extra_after_end != "none"
            and laid is not None
            and self.ends_line(laid)
            and self.hands[seat]
            and (
                self.plays()
                or (self.jokers[seat] and joker_moves(self.rules, self.table, self.hands[seat]))
            )
        ):
            self.extra = True  # the same seat moves again
        elif self.rules.lay == "blocks" and laid is not None and self._lay_on(seat, laid):
            pass  # the same seat lays on its block, or stops
        else:
            self.block = None
            self._advance()

    def _place(self, card: int) -> int:
        """The place of ``card``'s rank along the line (A..K, or 2..A with the ace high)."""
        return POSITION[self.rules.ace][card % 13]

    def _run_cards(self, suit: int, block: Block) -> set[int]:
        """``suit``'s cards at the places of ``block``'s run."""
        return {
            c for c in range(13 * suit, 13 * suit + 13) if block.low <= self._place(c) <= block.high
        }

    def _lay_on(self, seat: int, card: int) -> bool:
        """After ``seat`` laid ``card``: the block with it, and whether any card lays on."""
        suit, place = card // 13, self._place(card)
        block = self.block
        if block is None:
            block = Block({suit}, place, place, None)
        elif suit not in block.suits:
            block = Block(block.suits | {suit}, block.low, block.high, suit)
        elif len(block.suits) == 1:
            block = Block(block.suits, min(block.low, place), max(block.high, place), None)
        if block.due is not None and self._run_cards(block.due, block) <= self.table:
            block = Block(block.suits, block.low, block.high, None)
        self.block = block
        self._legal = None
        if self.legal() - {"pass"}:
            return True
        self.block = None
        self._legal = None
        return False

    def _block_legal(self) -> set[str]:
        """The cards that lay on the block, and a stop where no suit begun is still due: the
        due suit's cards at the run's places; else, while the block has one suit, a card
        at either end of its run, and a card of another suit at the run's places whose
        every card there the player holds and could lay one after another now."""
        block = self.block
        assert block is not None
        plays = self.plays()
        if block.due is not None:
            return {card_text(c) for c in self._run_cards(block.due, block) & plays}
        cards = set()
        if len(block.suits) == 1:
            (suit,) = block.suits
            cards |= {
                c
                for c in plays
                if c // 13 == suit and self._place(c) in (block.low - 1, block.high + 1)
            }
        held = self.hands[self.turn] | self.face_up
        for other in set(range(4)) - block.suits:
            need = self._run_cards(other, block)
            if need <= held and self._layable(need):
                cards |= need & plays
        return {card_text(c) for c in cards} | {"pass"}

    def _layable(self, cards: set[int]) -> bool:
        """Whether ``cards`` can be laid one after another, each fitting when laid."""
        table, rest = set(self.table), set(cards)
        while rest:
            fits = playable(self.rules, table) & rest
            if not fits:
                return False
            card = min(fits)
            table.add(card)
            rest.remove(card)
        return True

    def _held_back(self, seat: int) -> None:
        """A pass of ``seat``: made when it could have played a card (or a joker move),
        and holding 7s that could have been played, whose suit's 6 and 8 their holders
        were kept from playing."""
        hand = self.hands[seat]
        plays = self.plays()
        if not plays and not (self.jokers[seat] and joker_moves(self.rules, self.table, hand)):
            return
        self.able[seat] += 1
        for seven in plays & hand:
            if seven % 13 != self.rules.centre:
                continue
            beside = {c for c in playable(self.rules, {seven}) if c // 13 == seven // 13}
            for t, other in enumerate(self.hands):
                if t != seat:
                    self.owed[seat][t] += len(beside & other)

    def ends_line(self, card: int) -> bool:
        """Whether ``card``, just laid, ends its row's line: where any card begins a row,
        the card that completes it (the rank below its first card, with sides up); else
        the line's ends (``Rules.ends_line``)."""
        if self.rules.start == "any":
            return sum(1 for c in self.table if c // 13 == card // 13) == 13
        return self.rules.ends_line(card)

    def _draw(self, seat: int, card: int) -> None:
        """``seat`` draws ``card`` from the stock: where it fits, the seat may play it now;
        else the turn moves on. A draw is no pass."""
        assert card in self.stock, f"draw {card_text(card)}: not in the stock"
        if not self.to_draw:  # a stop: one card, or as many as the stops so far (1, 2, 3 ...)
            self.stops[seat] += 1
            self.table_stops += 1
            self.run_stops += 1
            growing = {
                "increasing": self.stops[seat],
                "increasing_shared": self.table_stops,
                "increasing_run": self.run_stops,
            }
            self.to_draw = growing.get(self.rules.draw, 1)
        self.to_draw -= 1
        self.stock.remove(card)
        self.hands[seat].add(card)
        self.drawn[seat].append(card_text(card))
        self.idle = 0
        if self.to_draw and self.stock:
            return  # the same seat draws again
        self.to_draw = 0
        if self.plays() or self.trump_moves():
            self.drew = True
        else:
            self._advance()

    def _hand_on(self, giver: int, card_name: str) -> None:
        """``giver`` hands a card to the seat that passed; the turn moves on from that seat."""
        taker = self.taker
        assert taker is not None
        if card_name == "JOKER":
            self.jokers[giver] -= 1
            self.jokers[taker] += 1
            self.handed[giver].append(card_name)
            self.handed[taker].append(card_name)
        else:
            card = CARD_NUMBER[card_name]
            self.hands[giver].remove(card)
            self.hands[taker].add(card)
            self.handed[giver].append(card_name)
            self.handed[taker].append(card_name)
        self.taker = None
        self._check_out(giver)
        self.turn = taker
        holders = sum(1 for h in self.hands if h)
        stall = self.rules.stall
        if self.ended() or (stall is not None and self.idle >= stall * holders):
            self.over = True
        else:
            self._advance()

    def _lay(self, seat: int, card: int) -> None:
        """``seat`` plays ``card`` from its hand (or from the cards face up) onto the table:
        a suit opened, a row closed."""
        if card in self.face_up:
            self.face_up.remove(card)
        else:
            self.hands[seat].remove(card)
        self.played[seat] += 1
        last, card = card, self.home(card)  # (a card whose place a trump took: the trump row)
        suit = card // 13
        if self.rules.start == "any":
            if suit not in self.first_rank:  # the row's first card opens it
                self.first_rank[suit] = card % 13
                self.opened.append(suit)
        elif card % 13 == self.rules.centre:
            self.opened.append(suit)
        closing = closes(self.rules, self.table, card)
        self.table.add(card)
        if closing and (self.rules.ends == "cut" or self._complete(suit)):
            self.closures[seat].append(self.opened.index(suit) + 1)
            if self.rules.ends == "cut":  # 斬龍: the cut is logged right after the play
                self.history.append((seat, "cut " + "SHDC"[suit]))
        if not self.hands[seat] and not self.jokers[seat]:
            self.last_play[seat] = last

    def _complete(self, suit: int) -> bool:
        """A row is complete with every real card of the pack's ranks: a joker standing in
        for one leaves it incomplete (reading joker-real-completion)."""
        places = len(row_positions(self.table, suit, self.rules.ace))
        standing = any(x // 13 == suit for x in self.standing)
        return places == self.rules.hi - self.rules.lo + 1 and not standing

    def _check_out(self, seat: int) -> None:
        """A hand of only jokers leaves the game, with its jokers; an empty hand finishes."""
        if not self.hands[seat] and self.jokers[seat]:
            self.jokers[seat] = 0
            self.left.append(seat)
            self.history.append((seat, "leave"))
        elif not self.hands[seat] and seat not in self.finished + self.bursts + self.left:
            self.finished.append(seat)

    def _advance(self) -> None:
        """The next seat in order that holds cards moves; a seat out of passes with nothing
        to play bursts on its turn (its hand goes face up to the table) and is passed by."""
        n = self.rules.players
        seat = self.turn
        while True:
            holders = [s % n for s in range(seat + 1, seat + n + 1) if self.hands[s % n]]
            # a barred seat is skipped while another holds cards
            seat = next(s for s in holders if s != self.barred or len(holders) == 1)
            self.turn = seat
            self._legal = None
            if self.legal():
                return
            self._burst(seat)
            if self.ended():
                self.over = True
                return

    def _burst(self, seat: int) -> None:
        """``seat`` has nothing at all to do on its turn: its hand goes face up to the table."""
        self.history.append((seat, "burst"))
        self.idle = 0
        self.buried |= self.hands[seat] & self.standing  # face up, under the joker
        self.table |= {self.home(c) for c in self.hands[seat]}  # (each in its place)
        self.hands[seat] = set()
        self.jokers[seat] = 0  # a joker in a burst hand is removed from the game
        self.bursts.append(seat)
        self._legal = None

    def ended(self) -> bool:
        holders = sum(1 for h in self.hands if h)
        if self.rules.ending == "first_out":
            return bool(self.finished)
        return holders <= 1 if self.rules.ending == "one_left" else holders == 0

    def facts(self) -> list[Facts]:
        last_sevens = [c is not None and c % 13 == self.rules.centre for c in self.last_play]
        return [
            Facts(
                # a covered joker is a covered card of 0 points (and 7 from the 7)
                covered=sorted(self.covered[s]) + [52] * self.covered_jokers[s],
                played=self.played[s],
                last_seven=last_sevens[s],
                closures=list(self.closures[s]),
                passes=self.passes[s],
                out=s in self.finished,
                finish=self.finished.index(s) if s in self.finished else None,
                burst=self.bursts.index(s) if s in self.bursts else None,
                dealt=len(self.dealt[s]) + self.dealt_jokers[s],
                left=self.left.index(s) if s in self.left else None,
                held=len(self.hands[s]) + self.jokers[s],
                holding=sorted(self.hands[s]),
                able=self.able[s],
                owed=list(self.owed[s]),
            )
            for s in range(self.rules.players)
        ]


def hands_of(texts: list[list[str]]) -> tuple[list[set[int]], list[int]]:
    """Hands written as card texts: the suited cards of each, and how many jokers."""
    hands = [{CARD_NUMBER[c] for c in h if c != "JOKER"} for h in texts]
    return hands, [h.count("JOKER") for h in texts]


def model_of(state: State, rules: Rules) -> Model:
    """The model of a new game: the hands as dealt and the door card cut (or, with trumps,
    the last card dealt shown)."""
    shown = rules.opening == "door_card" or rules.trumps == "last_dealt"
    assert (state.door_card is not None) == shown
    hands, jokers = hands_of(state_record(state)["hands"])
    return Model(rules, hands, state.door_card, jokers)


# -- the engine beside the model -----------------------------------------------------------


def seen_by(history: list[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    """The history as every seat sees it: covered cards are hidden (a seat knows its own
    from its covered cards)."""
    hidden = ("cover ", "give ", "draw ")
    return tuple((s, t.split()[0] if t.startswith(hidden) else t) for s, t in history)


def check_state(state: State, model: Model) -> None:
    """The engine's public state equals the model's at any moment: hands, covered cards,
    table, counts, history with its events, the player to move and exactly the legal
    actions of the rules; cards are conserved."""
    rules = model.rules
    n = rules.players
    obs = [state.observation(s) for s in range(n)]
    for o in obs[1:]:
        assert o.table == obs[0].table, "seats see different tables"
        assert o.hand_counts == obs[0].hand_counts
        assert o.covered_counts == obs[0].covered_counts
        assert o.pass_counts == obs[0].pass_counts
        assert o.terminal == obs[0].terminal
        assert (o.finished, o.bursts, o.opened) == (obs[0].finished, obs[0].bursts, obs[0].opened)
    # Cards are conserved: hands + table + covered are the 52 cards, each once (a place
    # where a joker stands in is the table's; the card itself was covered)
    everything = [c for h in model.hands for c in h] + model.cards_down()
    everything += [c for cov in model.covered for c in cov] + list(model.face_up)
    everything += list(model.stock) + list(model.buried)
    assert sorted(everything) == rules.pack
    assert set(obs[0].table) == model.table
    assert all(set(o.pool) == model.face_up for o in obs)
    assert all(o.stock == len(model.stock) for o in obs)
    for s in range(n):  # the cards a seat drew, in order, as it saw them
        assert [card_text(c) for c in obs[s].drawn] == model.drawn[s]
    assert obs[0].jokers_at == sum(1 << x for x in model.standing)
    # a seat sees how many jokers it holds and covered (as the first joker numbers)
    alike = [set(range(52, 52 + k)) for k in model.jokers]
    assert [set(o.hand) for o in obs] == [h | j for h, j in zip(model.hands, alike, strict=True)]
    covered_alike = [set(range(52, 52 + k)) for k in model.covered_jokers]
    assert [set(o.own_covered) for o in obs] == [
        c | j for c, j in zip(model.covered, covered_alike, strict=True)
    ]
    assert obs[0].hand_counts == tuple(
        len(h) + k for h, k in zip(model.hands, model.jokers, strict=True)
    )
    assert obs[0].covered_counts == tuple(
        len(c) + k for c, k in zip(model.covered, model.covered_jokers, strict=True)
    )
    assert list(obs[0].left) == model.left
    for s in range(n):  # the cards a seat handed on or took, in order, as it saw them
        assert [card_text(c) for c in obs[s].handed] == model.handed[s]
    assert obs[0].pass_counts == tuple(model.passes)
    assert list(obs[0].finished) == model.finished
    assert list(obs[0].bursts) == model.bursts
    assert list(obs[0].opened) == model.opened
    for s in range(n):
        assert obs[s].history.texts() == seen_by(model.history)
    if rules.ace_king == "none" and rules.out_of_passes != "burst":
        # Every row is contiguous from its 7 in the profile's rank order.
        check_rows_contiguous(model.table, rules.ace, rules.centre)
    if rules.start == "any" and rules.sides == "up":
        # Every row runs up round the ring from its first card, with no gap.
        for suit, first in model.first_rank.items():
            down = sum(1 for c in model.table if c // 13 == suit)
            assert {13 * suit + (first + k) % 13 for k in range(down)} <= model.table
    # When the game ends.
    assert state.is_terminal() == obs[0].terminal == model.over
    if model.over:
        assert state.legal_actions() == []
        return
    # The legal actions: exactly what the rules allow the player to move.
    assert state.current_seat() == model.turn
    legal = state.legal_actions()
    assert len(set(legal)) == len(legal)
    assert legal == sorted(legal)
    assert {action_text(a) for a in legal} == model.legal()
    assert set(obs[model.turn].legal) == set(legal)


def play(
    state: State,
    choose: Callable[[list[int]], int],
    rules: Rules | None = None,
) -> list[int]:
    """Play to the end with ``choose`` picking an index into the legal actions; with
    ``rules``, follow the game with the model and check the state after every action.
    Returns the chosen indices."""
    chosen: list[int] = []
    model = model_of(state, rules) if rules else None
    if model:
        check_state(state, model)
    while not state.is_terminal():
        assert len(chosen) < MAX_ACTIONS, "the game did not end within 52*4 actions"
        legal = state.legal_actions()
        i = choose(legal)
        chosen.append(i)
        state.apply(legal[i])
        if model:
            model.apply(told(state, legal[i]))
            check_state(state, model)
    return chosen


def told(state: State, action: int) -> str:
    """The text of ``action``, just applied to ``state``, as the model is told it: a draw
    names the card drawn (chance's, which the engine's log names, before any events the
    draw set off)."""
    if action == DRAW:
        action = next(a for _, a in reversed(state.log) if kind(a) == "draw")
    return action_text(action)


def by_rng(rnd: random.Random) -> Callable[[list[int]], int]:
    return lambda legal: rnd.randrange(len(legal))


def replaying(chosen: list[int]) -> Callable[[list[int]], int]:
    """The same choices again, by index into the legal actions."""
    it = iter(chosen)
    return lambda legal: next(it)


def record_text(entry: dict[str, Any]) -> str:
    """A record's action or event as the text the observations show."""
    kind = entry["type"]
    if kind in ("pass", "burst", "leave"):
        return kind
    if kind == "cut":
        return "cut " + entry["suit"]
    if kind == "joker":
        return f"joker {entry['at']} {entry['card']}"
    if kind == "trump":
        return f"trump {entry['card']} {entry['at']}"
    return entry["card"] if kind == "play" else f"{kind} {entry['card']}"


def model_of_record(rules: Rules, record: dict[str, Any]) -> Model:
    """A record's actions played through the model: each must be legal by the rules, and
    its events (place, cut, burst) exactly those the rules make happen."""
    hands, jokers = hands_of(record["hands"])
    door = record["door_card"]
    model = Model(rules, hands, None if door is None else parse_card(door), jokers)
    entries = [(a["seat"], record_text(a)) for a in record["actions"]]
    while len(model.history) < len(entries):
        assert model.history == entries[: len(model.history)]
        seat, text = entries[len(model.history)]
        assert not model.over, f"{text} after the end of the game"
        assert model.turn == seat, f"{text} by seat {seat}, but seat {model.turn} is to move"
        model.apply(text)
    assert model.history == entries
    assert model.over
    return model


# -- scoring, from the rules ---------------------------------------------------------------


def points(card: int) -> int:
    return 0 if card >= 52 else card % 13 + 1  # a joker counts 0


@dataclass
class Facts:
    covered: list[int]
    played: int
    last_seven: bool  # the card that emptied the hand is a 7 this player played
    closures: list[int]  # suits this player closed, each as the order its 7 was opened
    passes: int
    out: bool  # emptied the hand by playing or covering
    finish: int | None = None  # 0 for the first player out, ...
    burst: int | None = None  # 0 for the first player to burst, ...
    dealt: int = 13  # cards dealt to this player
    left: int | None = None  # 0 for the first player to leave holding only jokers, ...
    held: int = 0  # cards still in the hand at the end (jokers included)
    holding: list[int] = field(default_factory=list)  # the suited cards of them
    # Hoyle's penalties (WILD_RULES row 4): passes made when able to play, and the chips'
    # units owed to each seat for the 7s held back at those passes (one a 6 or 8 held)
    able: int = 0
    owed: list[int] = field(default_factory=list)

    @property
    def all_covered(self) -> bool:
        return self.played == 0 and len(self.covered) == self.dealt

    @property
    def clean(self) -> bool:
        """Emptied the hand without covering: by playing out, or down to jokers alone (the
        jokers a leaver takes are not covered cards: reading joker-leaver-not-covered)."""
        return not self.covered and (self.out or self.left is not None)


def expected_covering(facts: list[Facts], p: dict[str, Any]) -> dict[str, list[Any]]:
    """鬥雀 scoring, RULES.md section 1."""
    stake = Fraction(str(p["stake"]))
    wm = p["winner_multiplier"]
    by_cards = p.get("count", "points") == "cards"  # 排七 counted by cards (WILD_RULES row 33)
    pairs = p.get("pay", "winner") == "pairs"  # QQ 排七: every two settle (row 36)
    own = p.get("pay", "winner") == "totals"  # twstar 排7, poker7: each keeps its total

    def cost(covered: list[int]) -> int:
        """What covered cards cost: 1 each by cards, else their face points."""
        return len(covered) if by_cards else sum(points(c) for c in covered)

    def special(f: Facts) -> bool:
        """全蓋, where the winner collects (in pairs or own totals, no special hand)."""
        return f.all_covered and not pairs and not own

    def total(f: Facts) -> int:
        if special(f):
            return 0
        bonus = p["completion_bonus"] * len(f.closures)
        bonus += p["last_seven_bonus"] if f.last_seven else 0
        bonus += p["clean_bonus"] if f.clean else 0
        return bonus - cost(f.covered)

    totals = [total(f) for f in facts]
    if own:  # rows 35 and 37: the base, the table by players out, collected covered points
        costs = [cost(f.covered) for f in facts]
        out = sum(1 for f in facts if f.clean)
        table = p.get("finishers") or []
        each, other = table[out - 1] if 1 <= out <= len(table) else (0, 0)
        mine, theirs = p.get("all_covered_pay") or (0, 0)
        for s, f in enumerate(facts):
            totals[s] += p.get("base", 0)
            if f.clean:  # a 7 last takes the 尾張7 bonus in place of its amount
                totals[s] += 0 if p["last_seven_bonus"] and f.last_seven else each
                totals[s] += sum(costs) if p.get("finishers_collect") else 0
            else:
                totals[s] += other
            if out == 0 and p.get("spare_least") and costs[s] == min(costs):
                totals[s] += costs[s]
            totals[s] += sum(
                mine if o == s else theirs for o, g in enumerate(facts) if g.all_covered
            )

    def key(s: int) -> tuple[Any, ...]:
        f = facts[s]
        achievement = 0
        if not f.covered:
            achievement = 3 if f.last_seven else 2 if f.clean else 1 if f.closures else 0
        distance = sum(abs(points(c) - 7) for c in f.covered)
        return (not special(f), -totals[s], len(f.covered), distance, -achievement)

    seats = range(len(facts))
    rank = [1 + sum(1 for o in seats if key(o) < key(s)) for s in seats]
    winners = [s for s in range(len(facts)) if rank[s] == 1]
    if own:  # nobody pays anybody: the total is the money
        return {
            "total": totals,
            "rank": rank,
            "winners": winners,
            "labels": ["winner" if s in winners else "" for s in seats],
            "money": [totals[s] * stake for s in seats],
        }
    if pairs:  # each pair settles the difference of its totals, doubled (QQ) after a clean out
        times = p.get("clean_multiplier", 1) if any(f.clean for f in facts) else 1
        return {
            "total": totals,
            "rank": rank,
            "winners": winners,
            "labels": ["winner" if s in winners else "" for s in seats],
            "money": [sum((totals[s] - totals[o]) * times * stake for o in seats) for s in seats],
        }
    payers = [s for s in range(len(facts)) if s not in winners and totals[s] < 0]
    values = sorted({totals[s] for s in payers})
    heads = {s: 1 for s in payers}
    labels = ["winner" if s in winners else "" for s in range(len(facts))]
    if values:
        lowest = [s for s in payers if totals[s] == values[0]]
        if len(lowest) == 1:
            heads[lowest[0]] = p["big_head"]
            labels[lowest[0]] = "大頭"
            if len(values) > 1:
                second = [s for s in payers if totals[s] == values[1]]
                if len(second) == 1:
                    heads[second[0]] = p["middle_head"]
                    labels[second[0]] = "中頭"
        elif len(lowest) == 2:
            for s in lowest:
                heads[s] = p["middle_head"]
                labels[s] = "中頭"

    def winner_multiplier(f: Facts) -> int:
        if f.all_covered:
            return int(wm["all_covered"])
        if f.last_seven:
            return int(wm["last_seven"])
        return int(wm["clean"]) if f.clean else 1

    money = [Fraction(0)] * len(facts)
    for s in payers:
        bust = p["bust_multiplier"] if cost(facts[s].covered) > p["bust_above"] else 1
        owed = Fraction(-totals[s]) * heads[s] * bust * stake
        for w in winners:
            amount = owed / len(winners) * winner_multiplier(facts[w])
            money[w] += amount
            money[s] -= amount
    return {
        "total": totals,
        "rank": rank,
        "winners": winners,
        "money": money,
        "labels": labels,
    }


def expected_first_out(facts: list[Facts], p: dict[str, Any], chips: bool) -> dict[str, Any]:
    winners = [s for s in range(len(facts)) if facts[s].out]
    # the first player out wins; a stalled game has nobody out, and the stall rule ties
    # every player (all still hold cards): they share the win and the pot
    assert len(winners) <= 1
    winners = winners or list(range(len(facts)))
    money = [Fraction(0)] * len(facts)
    if chips:
        # antes (and an extra one from the short hands, or the long ones, of an uneven
        # deal: Bicycle, Hoyle), passes (more when able to play: Hoyle), and (Bicycle) a
        # chip to the winner for each card still held
        card_cost = p.get("card_cost", 0)
        sizes = [f.dealt for f in facts]
        extra = [
            p.get("extra_ante", 0)
            if (
                f.dealt > min(sizes) if p.get("extra_ante_from") == "long" else f.dealt < max(sizes)
            )
            else 0
            for f in facts
        ]
        paid = [
            Fraction(
                p["ante"]
                + x
                + f.passes * p["pass_cost"]
                + f.able * p.get("able_pass_cost", 0)
                + f.held * card_cost
            )
            for f, x in zip(facts, extra, strict=True)
        ]
        money = [-x for x in paid]
        for w in winners:
            money[w] += sum(paid) / len(winners)
        # Hoyle: a 7 held back pays the holders of its 6 and 8, player to player
        for s, f in enumerate(facts):
            for t, units in enumerate(f.owed):
                money[s] -= units * p.get("held_seven_pay", 0)
                money[t] += units * p.get("held_seven_pay", 0)
    # penalty points (WILD_RULES row 8): minus what the cards still held count
    penalty = p.get("penalty", "none")
    total = None if penalty == "none" else [-penalty_points(f, penalty) for f in facts]
    return {"winners": winners, "money": money, "total": total}


def penalty_points(f: Facts, penalty: str) -> int:
    """What a player's cards still held count (WILD_RULES row 8): 1 a card; pip values
    (Wikipedia's Sevens: A 1, 2-10 their number, court cards 10); the ranks' values
    (2play1game.com: A 1 ... K 13). A joker counts as the highest card of the count."""
    if penalty == "cards":
        return f.held
    values = dict(pips=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10], ranks=list(range(1, 14)))
    value = values[penalty]
    jokers = f.held - len(f.holding)
    return sum(value[c % 13] for c in f.holding) + jokers * max(value)


# Melds among covered cards (RULES.md section 2): kinds in order of priority.
STRAIGHT_FLUSH, FOUR_OF_A_KIND, FULL_HOUSE = 0, 1, 2


def meld_options(cards: Collection[int]) -> list[tuple[int, frozenset[int]]]:
    """Every meld the cards hold, as (kind, cards): 同花順 five consecutive ranks of a suit
    with the ace below the 2 (A-2-3-4-5 yes, 10-J-Q-K-A no), 鐵支 four of a rank, 葫蘆 three
    of a rank and two of another."""
    have = set(cards)
    out: list[tuple[int, frozenset[int]]] = []
    for suit in range(4):
        for low in range(13 - 4):
            run = frozenset(13 * suit + r for r in range(low, low + 5))
            if run <= have:
                out.append((STRAIGHT_FLUSH, run))
    by_rank = {r: sorted(c for c in have if c % 13 == r) for r in range(13)}
    for group in by_rank.values():
        if len(group) == 4:
            out.append((FOUR_OF_A_KIND, frozenset(group)))
    for r3, g3 in by_rank.items():
        for r2, g2 in by_rank.items():
            if r2 != r3:
                for three in combinations(g3, 3):
                    for two in combinations(g2, 2):
                        out.append((FULL_HOUSE, frozenset(three + two)))
    return out


@cache
def _best_melds(cards: frozenset[int]) -> tuple[int, ...]:
    options = meld_options(cards)
    best: tuple[int, ...] = (0, 0, 0, 0)

    def walk(start: int, used: frozenset[int], counts: list[int], free: int) -> None:
        nonlocal best
        best = max(best, (*counts, free))
        for i in range(start, len(options)):
            kind, meld = options[i]
            if used.isdisjoint(meld):
                more = [n + (k == kind) for k, n in enumerate(counts)]
                walk(i + 1, used | meld, more, free + sum(map(points, meld)))

    walk(0, frozenset(), [0, 0, 0], 0)
    return best


def best_melds(cards: Collection[int]) -> tuple[int, ...]:
    """By brute force over every set of disjoint melds: the best (#同花順, #鐵支, #葫蘆,
    exempted points), compared in that order."""
    return _best_melds(frozenset(cards))


def exemption(cards: Collection[int]) -> int:
    """Covered points that the meld exemption does not count."""
    return best_melds(cards)[3]


HEADS = {"小頭": "small", "中頭": "middle", "大頭": "big"}


def expected_platform(facts: list[Facts], p: dict[str, Any]) -> dict[str, Any]:
    """斬龍/點差 platform scoring, RULES.md section 2."""
    wm = p["winner_multiplier"]
    totals: list[int] = []
    counted: list[int] = []
    exempt: list[int | None] = []
    multiplier: list[int] = []
    for f in facts:
        if f.all_covered:  # 十三蓋: a fixed total; the covered points are not counted
            totals.append(p["all_covered_total"])
            counted.append(0)
            exempt.append(None)
            multiplier.append(wm["all_covered"])
            continue
        # a joker is in no meld: melds are of real cards
        free = exemption([c for c in f.covered if c < 52]) if p["melds"] else 0
        bonus = sum(p["closure_bonus"][k - 1] for k in f.closures)
        if f.last_seven:  # 尾張七, instead of 脫手
            bonus += p["last_seven_bonus"]
            multiplier.append(wm["last_seven"])
        elif f.clean:  # 脫手
            bonus += p["clean_bonus"]
            multiplier.append(wm["clean"])
        else:
            multiplier.append(1)
        points_left = sum(map(points, f.covered)) - free
        totals.append(bonus - points_left)
        counted.append(points_left)
        exempt.append(free)

    def key(s: int) -> tuple[int, int]:
        return (-totals[s], len(facts[s].covered))

    rank = [1 + sum(1 for o in range(4) if key(o) < key(s)) for s in range(4)]
    winners = [s for s in range(4) if rank[s] == 1]
    labels = []
    for s in range(4):
        if rank[s] == 1:
            labels.append("winner")
        elif rank[s] == max(rank):
            labels.append("大頭")
        else:
            labels.append({2: "小頭", 3: "中頭"}[rank[s]])
    taken = {w: Fraction(0) for w in winners}
    money = [Fraction(0)] * 4
    for s in range(4):
        if s in winners:
            continue
        if p["settlement"] == "heads":
            owed = Fraction(p["head_amounts"][HEADS[labels[s]]])
        else:
            assert p["settlement"] == "difference"
            owed = Fraction((totals[winners[0]] - totals[s]) * p["rate"])
        if counted[s] > p["bust_above"]:
            owed *= p["bust_multiplier"]
        for w in winners:
            amount = owed / len(winners) * multiplier[w]
            money[s] -= amount
            taken[w] += amount
    fee = Fraction(str(p["fee"]))
    house = Fraction(0)
    for w in winners:
        kept = taken[w] * fee if totals[w] > 0 else Fraction(0)
        money[w] = taken[w] - kept
        house += kept
    return {
        "total": totals,
        "rank": rank,
        "winners": winners,
        "money": money,
        "labels": labels,
        "exempt": exempt,
        "house": house,
    }


def expected_placement(facts: list[Facts], p: dict[str, Any]) -> dict[str, list[Any]]:
    """七並べ ranks, RULES.md section 3: players who emptied their hands in the order they
    did, then the one still holding cards, then the bursts, the earliest burst lowest;
    rank points 3/2/1/0 (n - 1 down to 0) unless the table fixes others."""
    n = len(facts)
    groups = [[s] for _, s in sorted((f.finish, s) for s, f in enumerate(facts) if f.out)]
    holders = [s for s, f in enumerate(facts) if not f.out and f.burst is None and f.left is None]
    groups += [holders] if holders else []
    # then who left holding only jokers, the earliest highest (reading jokers-alike)
    groups += [
        [s] for _, s in sorted((f.left, s) for s, f in enumerate(facts) if f.left is not None)
    ]
    bursts = sorted(((f.burst, s) for s, f in enumerate(facts) if f.burst is not None))
    groups += [[s] for _, s in reversed(bursts)]
    rank = [0] * n
    place = 1
    for group in groups:
        for s in group:
            rank[s] = place
        place += len(group)
    points = list(p["place_points"] or range(n - 1, -1, -1))
    return {
        "rank": rank,
        "total": [points[r - 1] if r <= len(points) else 0 for r in rank],
        "winners": [s for s in range(n) if rank[s] == 1],
        "money": [0] * n,
    }


def check_result(state: State, rules: Rules) -> None:
    """The record of a finished game follows the rules (played through the model), and its
    result is the rules' scoring of it."""
    result = state.result()
    if rules.params.get("pay") != "totals":  # where each keeps its total, no fixed sum
        assert sum(result.money, Fraction(0)) + result.house == 0
    # Exact money: ints or fractions, never floats.
    assert all(isinstance(m, int | Fraction) and not isinstance(m, bool) for m in result.money)
    record = state_record(state)
    door = state.door_card
    assert record["door_card"] == (None if door is None else card_text(door))
    model = model_of_record(rules, record)
    facts = model.facts()
    # Each player's closures, as the order of the suit's 7, are the engine's too.
    assert [tuple(f.closures) for f in facts] == [o.completions for o in state.outcomes()]
    if rules.scoring in ("covering", "platform"):
        expected = expected_covering if rules.scoring == "covering" else expected_platform
        want = expected(facts, rules.params)
        assert list(result.total or ()) == want["total"]
        assert list(result.rank) == want["rank"]
        assert list(result.labels or ()) == want["labels"]
        assert list(result.money) == want["money"]
        if rules.scoring == "platform":
            assert result.house == want["house"]
            assert result.exempt is not None
            for s, free in enumerate(want["exempt"]):
                if free is not None:  # a 十三蓋 total counts no covered card at all
                    assert result.exempt[s] == free, f"seat {s} covered {facts[s].covered}"
    elif rules.scoring == "placement":
        want = expected_placement(facts, rules.params)
        assert list(result.rank) == want["rank"]
        assert list(result.total or ()) == want["total"]
        assert list(result.money) == want["money"]
    else:
        assert rules.scoring in ("first_out", "chips")
        want = expected_first_out(facts, rules.params, chips=rules.scoring == "chips")
        assert list(result.money) == want["money"]
        assert (None if result.total is None else list(result.total)) == want["total"]
        assert all(result.rank[w] == 1 for w in want["winners"])
        assert all(r > 1 for s, r in enumerate(result.rank) if s not in want["winners"])
    assert list(result.winners) == want["winners"]
    # Winners never pay; except that holders tied by a stall share a pot they paid into
    # unequally (RULES.md section 5), where each keeps its total (the best may be < 0), and
    # that a winner who held a 7 back paid the holders of its 6 and 8 (Hoyle)
    if (
        not state.stalled
        and rules.params.get("pay") != "totals"
        and not any(f.owed and any(f.owed) for f in facts)
    ):
        assert all(result.money[w] >= 0 for w in result.winners)


def dealt(state: State) -> list[set[int]]:
    """The hands as dealt (before any 7 was put out)."""
    return [{CARD_NUMBER[c] for c in h} for h in state_record(state)["hands"]]


# -- properties ----------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_every_step_follows_the_rules(profile: str, seed: int, rnd: random.Random) -> None:
    """Every state equals the model's: cards conserved, rows built by the rules, legal
    actions exactly those of the rules, events, turn order, end within 52*4 actions."""
    rules = Rules.of(profile)
    state = game(profile).new_state(seed=seed)
    if not rules.jokers:  # (a pack with jokers deals 54 cards round: 14, 14, 13, 13)
        # 13, 9 of 36; an uneven deal gives the first seats a card more (Hoyle, 5 players)
        more = (
            len(rules.pack) % rules.players if rules.leftover == "dealt" and not rules.hand else 0
        )
        sizes = [rules.hand_size + (s < more) for s in range(rules.players)]
        assert [len(h) for h in dealt(state)] == sizes
    play(state, by_rng(rnd), rules)
    check_result(state, rules)


def played_as_the_model(
    played: Game,
    rules: Rules,
    seed: int,
    rnd: random.Random,
    allowed: Callable[[list[int]], bool] = lambda legal: True,
    pick: Callable[[list[int], random.Random], int] | None = None,
) -> State:
    """A game of ``seed`` played at random to its end (or as ``pick`` chooses from the legal
    actions), every step checked against the model (and every list of legal actions against
    ``allowed``); the model ends it too."""
    state = played.new_state(seed=seed)
    model = model_of(state, rules)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert allowed(legal), legal
        action = pick(legal, rnd) if pick else legal[rnd.randrange(len(legal))]
        state.apply(action)
        model.apply(told(state, action))
        check_state(state, model)
    assert model.over
    return state


# covering scored by the number of covered cards (以蓋牌張數; WILD_RULES row 33), the bust
# threshold counting cards too; a covered joker is a card. And settled by pairs (row 36)
COUNTED = [
    ("doujue", ("scoring.count=cards",)),
    ("doujue", ("scoring.count=cards", "scoring.bust_above=3", "deck.jokers=1")),
    ("doujue-passes", ("scoring.count=cards", "scoring.bust_above=2")),
    # QQ 排七 (row 36): every two players settle the difference of their totals
    ("qq", ("deck.jokers=1",)),
    ("doujue", ("scoring.pay=pairs", "scoring.clean_multiplier=3", "scoring.stake=0.5")),
    ("qq", ("scoring.count=cards", "players=5")),
    # each player keeps its total (rows 35 and 37): the twstar table, poker7's collection
    ("twstar", ()),
    ("twstar", ("deck.jokers=1", "players=5", "scoring.stake=0.5")),
    ("poker7", ()),
    ("poker7", ("scoring.count=cards", "players=3")),
    (
        "doujue-passes",
        (
            "scoring.pay=totals",
            "scoring.finishers=[[5, -1], [2, -3]]",
            "scoring.all_covered_pay=[20, -2]",
            "scoring.finishers_collect=true",
        ),
    ),
]

# penalty points for the cards left when the first player goes out (WILD_RULES row 8)
PENALTIES = [
    ("pagat", ("scoring.penalty=cards",)),
    ("pagat", ("scoring.penalty=cards", "players=6", "turn.must_play=false", "ending.stall=1")),
    # the cards' values: pips (court cards 10) or ranks (A 1 ... K 13), short packs too
    ("pagat", ("scoring.penalty=pips",)),
    ("badam-satti", ("scoring.penalty=ranks", "players=3")),
    ("pagat", ("scoring.penalty=pips", "deck.ranks=7-A", "layout.centre=8", "players=3")),
    ("pagat", ("scoring.penalty=ranks", "turn.must_play=false", "ending.stall=1")),
]


@pytest.mark.parametrize(("profile", "sets"), ROWS_ANYWHERE)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_rows_begun_anywhere_upwards_or_one_at_a_time_follow_the_model(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of such a game is the model's: the cards that fit, the extra card after
    a row's thirteenth, the passes, and the result."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    state = played_as_the_model(played, rules, seed, rnd)
    check_result(state, rules)


@pytest.mark.parametrize(("profile", "sets"), PENALTIES)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_penalty_points_are_the_cards_left(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Each player's total is minus what the cards still held when the game ended count."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    state = played_as_the_model(played, rules, seed, rnd)
    check_result(state, rules)
    assert state.result().total is not None


@pytest.mark.parametrize(("profile", "sets"), COUNTED)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_covering_counted_by_cards_or_settled_by_pairs_follows_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Where covered cards are counted, each costs 1 in the totals, the ranks, the heads
    and the bust; where every two players settle, each pair pays the difference of its
    totals: as the model reckons them."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    assert rules.params["count"] == "cards" or rules.params["pay"] in ("pairs", "totals")
    state = played_as_the_model(played, rules, seed, rnd)
    check_result(state, rules)


# the order in which a row leaves its 7 (WILD_RULES rows 6 and 20; Ristiseiska on BGA)
ORDERED_SIDES = [
    ("pagat", ("layout.sides=high_first",)),
    ("doujue", ("layout.sides=low_first",)),
    ("shichinarabe", ("layout.sides=both_first",)),
    ("shichinarabe-tunnel", ("layout.sides=high_first",)),
    ("platform-zhanlong", ("layout.sides=both_first",)),
    ("pagat", ("layout.sides=low_first", "turn.extra_after_end=may", "layout.ace=low")),
]


@pytest.mark.parametrize(("profile", "sets"), ORDERED_SIDES)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_with_an_order_of_the_sides_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game where a row leaves its 7 in a set order equals the model's: no
    card is offered before the side it waits for, and the result follows the rules."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    assert rules.sides != "either"
    state = played_as_the_model(played, rules, seed, rnd)
    check_result(state, rules)


# an extra play after a card that ends its row's line (Sjuan, Ristiseiska; WILD_RULES rows
# 16 and 18): may (stop with a pass that is no pass) or must
EXTRA_PLAYS = [
    ("pagat", ("turn.extra_after_end=may",)),
    ("pagat", ("turn.extra_after_end=must", "layout.ace=low")),
    ("doujue", ("turn.extra_after_end=may",)),
    ("shichinarabe", ("turn.extra_after_end=may", "ending.stall=1", "turn.pass_limit=null")),
    ("platform-zhanlong", ("turn.extra_after_end=must",)),
    ("shichinarabe-wrap", ("turn.extra_after_end=may",)),
]


@pytest.mark.parametrize(("profile", "sets"), EXTRA_PLAYS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_with_an_extra_play_after_an_end_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game where a card ending its line gives another play equals the
    model's: the same seat moves again exactly when it should, a stop is no pass, and the
    result follows the rules."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    assert rules.extra_after_end != "none"
    state = played_as_the_model(played, rules, seed, rnd)
    check_result(state, rules)


# a turn's block of cards (Crazy Tan, WILD_RULES row 11): runs, parallels and parallel
# runs under Fan Tan, a covering family, draws, chips, 七並べ's passes, a 7 first, the
# order of the sides, cards face up and a pass that bars
BLOCKS = [
    ("pagat", ("turn.lay=blocks",)),
    ("doujue", ("turn.lay=blocks",)),
    ("platform", ("turn.lay=blocks",)),
    ("sevens-stock", ("turn.lay=blocks", "turn.draw=increasing")),
    ("bicycle", ("turn.lay=blocks", "turn.must_play=false", "scoring.able_pass_cost=2")),
    ("shichinarabe", ("turn.lay=blocks",)),
    ("pagat", ("turn.lay=blocks", "turn.sevens_first=true", "layout.sides=high_first")),
    ("pagat", ("turn.lay=blocks", "deck.leftover=face_up", "players=5", "layout.ace=low")),
    ("sjuan", ("turn.lay=blocks", "turn.extra_after_end=none", "turn.pass_bars=true")),
    # the 6-7-8 first: a suit whose first card fits may still not be layable to the end
    ("siebener-raus", ("turn.lay=blocks",)),
]


@pytest.mark.parametrize(("profile", "sets"), BLOCKS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_where_a_turn_lays_a_block_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game where a turn lays a block of cards equals the model's: the
    cards that lay on a block, the stop where no suit begun is due (no pass), the turn
    that ends by itself where nothing lays on, and the result."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    assert rules.lay == "blocks"
    state = played_as_the_model(played, rules, seed, rnd, pick=laying_on)
    check_result(state, rules)


def laying_on(legal: list[int], rnd: random.Random) -> int:
    """A card most of the time where one may be laid, so that blocks grow long and reach
    other suits; else any action."""
    cards = [a for a in legal if a < 52]
    if cards and rnd.random() < 0.9:
        return cards[rnd.randrange(len(cards))]
    return legal[rnd.randrange(len(legal))]


# short packs and centres other than the 7 (Девятка's 36 cards from the 9, Karten-Domino's
# 32, nines as centres; WILD_RULES rows 19, 21, 22)
PACKS = [
    ("pagat", DEVYATKA),
    ("pagat", ("deck.ranks=7-A", "layout.centre=8", "layout.sides=both_first")),
    ("pagat", ("layout.centre=2", "layout.sides=both_first")),
    ("doujue", ("layout.centre=9", "opening.card=S9")),
    ("doujue", ("deck.ranks=A-10", "layout.centre=5", "opening.card=C5",
                "turn.cover_sevens=false")),
    ("shichinarabe", ("layout.ace=high", "deck.ranks=7-A", "turn.extra_after_end=may")),
    ("platform-zhanlong", ("layout.centre=9",)),
    ("platform", ("deck.ranks=5-K", "layout.centre=J", "layout.sides=high_first")),
]  # fmt: skip


@pytest.mark.parametrize(("profile", "sets"), PACKS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_with_a_short_pack_or_another_centre_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game with a short pack or rows starting from another rank equals
    the model's: only the pack is dealt, rows start from the centre and stop at the pack's
    ends, and the result follows the rules (the last-seven bonus for the centre card)."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    assert (rules.centre, rules.lo, rules.hi) != (SEVEN, 0, 12)
    state = played_as_the_model(played, rules, seed, rnd)
    assert sum(len(h) for h in dealt(state)) == len(rules.pack)
    check_result(state, rules)


# the cards an even share leaves lie face up for the player to move (WILD_RULES row 7), under
# every opening, stuck rule and ending
LEFTOVERS = [
    ("pagat", ("players=5", "deck.leftover=face_up")),
    ("pagat", ("players=5", "deck.leftover=face_up", "opening.method=holder_leads",
               "opening.card=D7", "turn.extra_after_end=may")),
    ("doujue", ("players=3", "deck.leftover=face_up")),
    ("doujue-passes", ("players=5", "deck.leftover=face_up")),
    ("shichinarabe", ("players=5", "deck.leftover=face_up")),
    ("shichinarabe", ("players=3", "deck.leftover=face_up", "turn.pass_limit=0")),
    ("shichinarabe-tunnel", ("players=5", "deck.leftover=face_up")),
    ("bicycle", ("players=7", "deck.leftover=face_up")),
]  # fmt: skip


@pytest.mark.parametrize(("profile", "sets"), LEFTOVERS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_with_the_leftovers_face_up_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game with the leftovers of an even share face up equals the model's:
    every seat is dealt the same number, the rest lie face up and the player to move may
    play them as if held (an opening card face up by seat 0), and the result follows."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    state = played_as_the_model(played, rules, seed, rnd)
    sizes = {len(h) for h in dealt(state)}
    assert sizes == {len(rules.pack) // rules.players}
    check_result(state, rules)


# Hoyle's penalties (WILD_RULES row 4): an uneven deal's extra ante from the long hands or
# the short ones, a pass made when able, a 7 held back paying the holders of its 6 and 8;
# with a joker (its moves are plays a pass passes up), face-up leftovers (a 6 lying face
# up is nobody's), another centre and a short pack
HOYLE = [
    ("hoyle", ("players=5",)),
    ("hoyle", ("players=3", "deck.jokers=1")),
    ("hoyle", ("players=6", "deck.leftover=face_up", "ending.stall=3")),
    ("hoyle", ("players=7", "deck.ranks=6-K", "layout.centre=9", "scoring.pass_cost=1")),
    ("bicycle", ("players=5",)),
    ("bicycle", ("players=3", "turn.must_play=false", "scoring.able_pass_cost=2")),
]


@pytest.mark.parametrize(("profile", "sets"), HOYLE)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_with_hoyles_penalties_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game of Hoyle's chips equals the model's, and its result follows:
    each pass made when able costs its price, each 7 held back at a pass pays the holders
    of its 6 and 8 at that moment, and the extra ante comes from the hands its rule says."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    assert rules.scoring == "chips" and rules.params["extra_ante"] == 1
    state = played_as_the_model(played, rules, seed, rnd)
    sizes = list(state.hand_sizes)  # an uneven deal: a card more for some
    assert max(sizes) - min(sizes) == (played.dealt % rules.players > 0)
    check_result(state, rules)


# a stock to draw from (WILD_RULES row 10): a stuck player draws a card instead of passing,
# and may (or must) play it at once where it fits; with pass limits, extra plays, a
# card handed on, and a stock nobody draws from (the stall rule ends those games)
STOCKS = [
    ("pagat", ("deck.hand=7", "deck.leftover=stock", "turn.draw=one")),
    ("pagat", ("deck.hand=5", "deck.leftover=stock", "turn.draw=one", "turn.must_play=false",
               "ending.stall=2")),
    ("pagat", ("players=5", "deck.leftover=stock", "turn.draw=one", "turn.extra_after_end=may",
               "layout.ace=low")),
    ("shichinarabe", ("deck.hand=10", "deck.leftover=stock", "turn.draw=one")),
    ("doujue-passes", ("deck.hand=9", "deck.leftover=stock", "turn.draw=one",
                       "opening.method=first_seat")),
    ("pagat", ("deck.hand=6", "deck.leftover=stock", "turn.draw=one", "turn.pass_takes=chosen")),
    # draws that grow from stop to stop (1, 2, 3 ...): each player's own, or the table's
    ("sevens-stock", ("turn.draw=increasing",)),
    ("sevens-stock", ("turn.draw=increasing_shared", "players=3")),
    ("pagat", ("deck.hand=4", "deck.leftover=stock", "turn.draw=increasing",
               "turn.must_play=false", "ending.stall=1")),
    ("shichinarabe", ("deck.hand=8", "deck.leftover=stock", "turn.draw=increasing_shared")),
    # the stinia518 sequence: the stops in a row, counted anew once a card is laid
    ("sevens-stock", ("turn.draw=increasing_run",)),
    ("sevens-stock", ("turn.draw=increasing_run", "players=3", "turn.must_play=false",
                      "ending.stall=2")),
    ("sevens-stock", ("turn.draw=increasing_run", "layout.trumps=last_dealt")),
    ("doujue-passes", ("deck.hand=6", "deck.leftover=stock", "turn.draw=increasing",
                       "opening.method=first_seat", "turn.sevens_first=true")),
    ("pagat", ("deck.hand=8", "deck.leftover=stock")),
]  # fmt: skip


@pytest.mark.parametrize(("profile", "sets"), STOCKS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_with_a_stock_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game with a stock equals the model's: each seat is dealt its share,
    the rest lie face down, a stuck player draws while the stock lasts and may (or must)
    play the card drawn where it fits, a draw is no pass, only the drawer sees its card,
    and the result follows the rules."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    state = played_as_the_model(played, rules, seed, rnd)
    if rules.hand is not None:
        assert {len(h) for h in dealt(state)} == {rules.hand}
    check_result(state, rules)


# trumps named by the last card dealt (Trump Fan Tan, WILD_RULES row 11): with chips, a
# stock, passes by choice, bursts, covering and cut rows
TRUMPS = [
    ("trump-fan-tan", ()),
    ("trump-fan-tan", ("players=6",)),
    ("pagat", ("layout.trumps=last_dealt",)),
    ("sevens-stock", ("layout.trumps=last_dealt",)),
    ("pagat", ("layout.trumps=last_dealt", "turn.must_play=false", "ending.stall=1")),
    ("shichinarabe", ("layout.trumps=last_dealt", "deck.jokers=0")),
    ("doujue-passes", ("layout.trumps=last_dealt", "opening.method=seven_holder")),
    ("platform", ("layout.trumps=last_dealt", "opening.method=seven_holder")),
]


@pytest.mark.parametrize(("profile", "sets"), TRUMPS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_with_trumps_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game with trumps equals the model's: the last card dealt names
    them, a trump may take the place of its rank in another row (never the centre's, never
    the card that named trumps), the card displaced goes to the trump row, and the result
    follows the rules."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    state = played_as_the_model(played, rules, seed, rnd)
    deck = dealt(state)
    n = rules.players
    last = (sum(map(len, deck)) - 1) % n  # the seat dealt the last card holds it
    assert state.door_card in deck[last]
    check_result(state, rules)


# a pass takes a card that the previous player holding cards chooses and hands over
# (Ristiseiska's lappu, Sjuan; WILD_RULES row 17), with jokers, pass limits and extra plays
TAKES = [
    ("pagat", ("turn.pass_takes=chosen",)),
    ("pagat", ("turn.pass_takes=chosen", "layout.ace=low", "opening.method=holder_leads",
               "opening.card=C7", "turn.extra_after_end=may")),
    ("shichinarabe", ("turn.pass_takes=chosen", "players=3")),
    ("shichinarabe", ("turn.pass_takes=chosen", "deck.jokers=2")),
    ("doujue-passes", ("turn.pass_takes=chosen", "deck.jokers=1")),
    ("pagat", ("turn.pass_takes=chosen", "turn.must_play=false", "ending.stall=1")),
]  # fmt: skip


# a pass bars its player until another player passes (Sjuan's other penalty, WILD_RULES row
# 17): with passes by choice, extra plays, a stock, bursts, the other penalty, and all_empty
BARS = [
    ("sjuan", ("turn.pass_bars=true", "turn.pass_takes=none")),
    ("pagat", ("turn.pass_bars=true", "players=3")),
    ("pagat", ("turn.pass_bars=true", "turn.must_play=false", "ending.stall=2")),
    ("shichinarabe", ("turn.pass_bars=true", "deck.jokers=1")),
    ("shichinarabe", ("turn.pass_bars=true", "ending.method=all_empty", "players=5")),
    ("pagat", ("turn.pass_bars=true", "deck.hand=6", "deck.leftover=stock", "turn.draw=one")),
    ("sjuan", ("turn.pass_bars=true",)),
    ("doujue-passes", ("turn.pass_bars=true",)),
]  # fmt: skip


@pytest.mark.parametrize(("profile", "sets"), BARS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_where_a_pass_bars_its_player_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game where a pass bars its player equals the model's: the turn skips
    the barred seat until another seat has passed, unless it alone holds cards."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    state = played_as_the_model(played, rules, seed, rnd)
    check_result(state, rules)


@pytest.mark.parametrize(("profile", "sets"), TAKES)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_where_a_pass_takes_a_card_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game where a pass takes a card equals the model's: the previous seat
    holding cards is to hand one (any of its cards), the taker and the giver see which and
    nobody else does, the turn moves on from the taker, and a giver left without cards is
    out; the result follows the rules."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    state = played_as_the_model(played, rules, seed, rnd)
    check_result(state, rules)


# tables of more than eight (排七 with up to ten, WILD_RULES row 38; Fan Tan to twelve): the
# deal runs round from seat 0, so the first seats hold a card more
BIG_TABLES = [
    ("pagat", ("players=12",)),
    ("bicycle", ("players=11",)),
    ("doujue", ("players=10",)),
    ("shichinarabe", ("players=9",)),
]


@pytest.mark.parametrize(("profile", "sets"), BIG_TABLES)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_of_more_than_eight_players_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game at a big table equals the model's, and the result follows the
    rules: 52 cards dealt one at a time from seat 0 (with 10 players, 6 cards to seats 0
    and 1 and 5 to the others)."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    n = rules.players
    assert n > 8
    state = played_as_the_model(played, rules, seed, rnd)
    sizes = [len(h) for h in dealt(state)]
    assert sizes == [52 // n + (s < 52 % n) for s in range(n)]
    check_result(state, rules)
    assert replay(state_record(state)) == []  # its record is a valid one, and replays


# rule sets with the stall rule in effect: passes by choice, a round or two of them ends it
STALLING = [
    ("pagat", ("turn.must_play=false", "ending.stall=1")),
    ("bicycle", ("turn.must_play=false", "ending.stall=1")),
    ("shichinarabe", ("turn.pass_limit=null", "ending.stall=2")),
    ("doujue-passes", ("turn.pass_limit=null", "ending.stall=1")),
]


@pytest.mark.parametrize(("profile", "sets"), STALLING)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_stalled_games_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game under a stall rule equals the model's, the game ends when the
    model's stall rule says so, and the record and result follow the rules."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    assert rules.stall is not None
    state = played_as_the_model(played, rules, seed, rnd)
    check_result(state, rules)


# no passes at all (pass limit 0, RULES.md section 5): a stuck player bursts or covers at once
NO_PASSES = [
    ("shichinarabe", ("turn.pass_limit=0",)),
    ("shichinarabe", ("turn.pass_limit=0", "turn.out_of_passes=cover")),
    ("doujue-passes", ("turn.pass_limit=0",)),
    # any 7 opens: a player who bursts before a suit's 7 is down lays cards that wait for
    # it, and the 7 still opens that row
    ("pagat", ("turn.pass_limit=0",)),
    ("bicycle", ("turn.pass_limit=0", "players=5")),
]


# a 7 that can be played goes first (WILD_RULES row 14, Badam Satti), with passes by choice,
# an extra play, the joker, a stock, and another centre
SEVENS_FIRST = [
    ("pagat", ("turn.sevens_first=true",)),
    ("pagat", ("turn.sevens_first=true", "turn.must_play=false", "ending.stall=2")),
    ("pagat", ("turn.sevens_first=true", "turn.extra_after_end=may", "layout.ace=low")),
    ("shichinarabe", SEVENS_FIRST_JOKER),
    ("doujue", ("turn.sevens_first=true",)),
    ("pagat", ("turn.sevens_first=true", "deck.hand=5", "deck.leftover=stock", "turn.draw=one")),
    ("pagat", ("turn.sevens_first=true", *DEVYATKA)),
]  # fmt: skip


@pytest.mark.parametrize(("profile", "sets"), SEVENS_FIRST)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_where_sevens_go_first_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game where a 7 that can be played goes first equals the model's, and
    no seat ever plays another card, covers or passes while it holds a 7 it could play."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    state = played_as_the_model(played, rules, seed, rnd)
    check_result(state, rules)


# the first player holding a 7 moves first (WILD_RULES row 34: 斬龍 where any 7 holder opens),
# under covering, passes, another centre, a stock that may hold every 7, and six players
SEVEN_HOLDERS = [
    ("platform-zhanlong", ("opening.method=seven_holder",)),
    ("doujue-tunnel", ("opening.method=seven_holder", "players=5")),
    ("doujue-passes", ("opening.method=seven_holder",)),
    ("pagat", ("opening.method=seven_holder", "deck.ranks=6-A", "layout.centre=9")),
    ("pagat", ("opening.method=seven_holder", "deck.hand=3", "deck.leftover=stock",
               "turn.draw=one")),
    ("bicycle", ("opening.method=seven_holder", "players=6")),
]  # fmt: skip


@pytest.mark.parametrize(("profile", "sets"), SEVEN_HOLDERS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_opened_by_the_first_seven_holder_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game whose first move goes to the first seat holding a 7 equals the
    model's; the seats before it hold no 7, and the result follows the rules."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    state = played_as_the_model(played, rules, seed, rnd)
    hands = dealt(state)
    first = next((s for s, a in state.log if not is_event(a)), state.turn)
    assert not any(c % 13 == rules.centre for t in range(first) for c in hands[t])
    check_result(state, rules)


@pytest.mark.parametrize(("profile", "sets"), NO_PASSES)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_without_passes_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game with a pass limit of 0 equals the model's: no pass is ever
    legal, and the result follows the rules."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    assert rules.pass_limit == 0
    state = played_as_the_model(played, rules, seed, rnd, lambda legal: PASS not in legal)
    assert not any(state.passes)
    check_result(state, rules)


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, rng_seed=st.integers(0, 2**64))
def test_results_follow_the_scoring_rules(profile: str, seed: int, rng_seed: int) -> None:
    """Many quick random games, each scored by the model of the rules: totals, ranks and
    their tie-breaks, heads, busts, winner multipliers, split shares, chips."""
    state = game(profile).new_state(seed=seed)
    state.play_random(random.Random(rng_seed))
    check_result(state, Rules.of(profile))


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_every_game_ends_within_52_times_4_actions(
    profile: str, seed: int, rnd: random.Random
) -> None:
    state = game(profile).new_state(seed=seed)
    chosen = play(state, by_rng(rnd))
    assert state.is_terminal()
    assert len(chosen) <= MAX_ACTIONS
    rules = Rules.of(profile)
    passes = state.observation(0).pass_counts
    if rules.pass_limit is not None:
        assert max(passes) <= rules.pass_limit
    if rules.ending == "all_empty":
        assert len(chosen) - sum(passes) == 52  # every other action plays or covers a card


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_money_sums_to_zero(profile: str, seed: int, rnd: random.Random) -> None:
    state = game(profile).new_state(seed=seed)
    play(state, by_rng(rnd))
    result = state.result()
    if Rules.of(profile).params.get("pay") != "totals":  # each keeping its total: no fixed sum
        assert sum(result.money, Fraction(0)) == 0
    assert len(result.money) == 4
    assert result.winners and all(result.rank[w] == 1 for w in result.winners)


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_same_seed_and_same_choices_give_the_same_game(
    profile: str, seed: int, rnd: random.Random
) -> None:
    first = game(profile).new_state(seed=seed)
    chosen = play(first, by_rng(rnd))
    for fresh in (game(profile), Game(profile)):
        again = fresh.new_state(seed=seed)
        again_chosen = play(again, replaying(chosen))
        assert again_chosen == chosen
        assert state_record(again) == state_record(first)
        assert again.result() == first.result()
        for s in range(4):
            assert again.observation(s) == first.observation(s)


# Rule sets for the random playout beyond the built-in profiles: both of its frontier
# updates (per-card successors on a line, the row table on a ring or a tunnel), ace high.
PLAYOUT_RULES = [(p, ()) for p in PROFILES] + [
    ("doujue", ("layout.ace=high",)),
    ("doujue", ("layout.ace_king=wrap",)),
    ("pagat", ("layout.ace=low", "layout.ace_king=tunnel")),
    ("platform", ("opening.method=holder_leads", "opening.card=H7")),
]


@pytest.mark.parametrize(("profile", "overrides"), PLAYOUT_RULES)
@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, rng_seed=st.integers(0, 2**64))
def test_play_random_makes_the_choices_of_random_agents(
    profile: str, overrides: tuple[str, ...], seed: int, rng_seed: int
) -> None:
    rules = Game(profile, list(overrides)) if overrides else game(profile)
    fast = rules.new_state(seed=seed)
    fast_rng = random.Random(rng_seed)
    fast.play_random(fast_rng)

    slow = rules.new_state(seed=seed)
    slow_rng = random.Random(rng_seed)
    agents = [RandomAgent(slow_rng) for _ in range(4)]
    while not slow.is_terminal():
        seat = slow.current_seat()
        slow.apply(agents[seat].act(slow.observation(seat)), seat=seat)

    assert fast.is_terminal()
    assert state_record(fast) == state_record(slow)
    taken = [0] * rules.players  # every logged action that is not an event
    for seat, action in slow.log:
        taken[seat] += not is_event(action)
    assert fast.actions == slow.actions == taken
    assert (fast.table, fast.frontier, fast.played) == (slow.table, slow.frontier, slow.played)
    assert fast.result() == slow.result()
    # Both used the shared random stream alike.
    assert fast_rng.getstate() == slow_rng.getstate()


RECORD_SCHEMA = jsonschema.Draft202012Validator(schema("record"))


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_a_record_replays_exactly(profile: str, seed: int, rnd: random.Random) -> None:
    state = game(profile).new_state(seed=seed)
    play(state, by_rng(rnd))
    record = json.loads(json.dumps(state_record(state), ensure_ascii=False))
    RECORD_SCHEMA.validate(record)
    assert record["profile"] == profile
    assert record["seed"] == seed
    # (a record writes every joker JOKER: the jokers are alike)
    dealt_hands = [[alike_card(c) for c in h] for h in game(profile).deal(seed)]
    assert [[parse_card(c) for c in h] for h in record["hands"]] == dealt_hands
    assert len(record["actions"]) == len(state_record(state)["actions"])
    assert replay(record) == []


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), data=st.data())
def test_a_tampered_record_does_not_replay(
    profile: str, seed: int, rnd: random.Random, data: st.DataObject
) -> None:
    state = game(profile).new_state(seed=seed)
    play(state, by_rng(rnd))
    record = state_record(state)
    i = data.draw(st.integers(0, len(record["actions"]) - 1))
    # The same action claimed by the next seat is never a legal record.
    record["actions"][i] = {**record["actions"][i], "seat": (record["actions"][i]["seat"] + 1) % 4}
    problems = replay(record)
    assert problems and problems[0].startswith(f"actions[{i}]")


# -- a state machine -----------------------------------------------------------------------


class Machine(RuleBasedStateMachine):
    """Deal a game of any built-in profile and apply legal (and illegal) actions as rules."""

    state: State
    rules: Rules
    model: Model

    @initialize(profile=st.sampled_from(PROFILES), seed=SEEDS)
    def deal(self, profile: str, seed: int) -> None:
        event(f"dealt {profile}")
        self.rules = Rules.of(profile)
        self.state = game(profile).new_state(seed=seed)
        self.model = model_of(self.state, self.rules)
        check_state(self.state, self.model)
        self.actions = 0

    def _apply_legal(self, data: st.DataObject) -> None:
        legal = self.state.legal_actions()
        action = data.draw(st.sampled_from(legal))
        seat = self.state.current_seat()
        self.state.apply(action_text(action), seat=seat)
        self.actions += 1
        self.model.apply(action_text(action))
        check_state(self.state, self.model)

    @rule(data=st.data())
    def apply_a_legal_action(self, data: st.DataObject) -> None:
        if self.state.is_terminal():
            assert self.state.legal_actions() == []
            return
        self._apply_legal(data)

    @rule(data=st.data(), count=st.integers(1, 20))
    def apply_several_legal_actions(self, data: st.DataObject, count: int) -> None:
        for _ in range(count):
            if self.state.is_terminal():
                break
            self._apply_legal(data)

    @rule(data=st.data())
    def probe_an_action(self, data: st.DataObject) -> None:
        """Any action by any seat, at any time: refused with a reason and without effect
        unless it is legal for the seat to move; a legal one is left unplayed."""
        text = data.draw(st.sampled_from(ALL_ACTIONS), label="action")
        seat = data.draw(st.integers(0, 3), label="seat")
        action = parse_action(text)
        over = self.state.is_terminal()
        allowed = (
            not over and seat == self.state.current_seat() and action in self.state.legal_actions()
        )
        reason = self.state.why_illegal(action, seat=seat)
        assert (reason is None) == allowed
        if allowed:
            return
        assert reason
        if not over and seat != self.state.current_seat():
            assert "not your turn" in reason
        before = [self.state.observation(s) for s in range(4)]
        with pytest.raises(IllegalAction):
            self.state.apply(text, seat=seat)
        assert [self.state.observation(s) for s in range(4)] == before

    @rule(data=st.data())
    def probe_an_event(self, data: st.DataObject) -> None:
        """A cut (斬龍) happens by itself: nobody may apply one, and trying changes nothing."""
        suit = data.draw(st.integers(0, 3), label="suit")
        seat = self.state.current_seat()
        assert self.state.why_illegal(CUT + suit, seat=seat)
        before = [self.state.observation(s) for s in range(4)]
        with pytest.raises(IllegalAction):
            self.state.apply(CUT + suit, seat=seat)
        assert [self.state.observation(s) for s in range(4)] == before

    @invariant()
    def follows_the_rules(self) -> None:
        check_state(self.state, self.model)
        assert self.actions <= MAX_ACTIONS

    @invariant()
    def scored_by_the_rules_at_the_end(self) -> None:
        if self.state.is_terminal():
            check_result(self.state, self.rules)
            event(f"{self.rules.scoring} game played to the end")
        else:
            with pytest.raises(ValueError):
                self.state.result()


Machine.TestCase.settings = settings(
    max_examples=15,
    stateful_step_count=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestGameMachine = Machine.TestCase


# jokers (RULES.md section 3), one or several alike (WILD_RULES row 30), on every layout the
# model knows: A-K wrap and tunnel, the ace high, another centre, an order of the sides
JOKER_TABLES = [
    ("shichinarabe", ("deck.jokers=1",)),
    ("shichinarabe", ("deck.jokers=2",)),
    ("shichinarabe-wrap", ("deck.jokers=2", "players=3")),
    ("shichinarabe-tunnel", ("deck.jokers=3",)),
    ("shichinarabe", ("deck.jokers=2", "turn.pass_limit=0")),
    ("doujue", ("deck.jokers=1",)),
    ("doujue", ("deck.jokers=2",)),
    ("doujue-passes", ("deck.jokers=2", "layout.sides=high_first")),
    ("pagat", ("deck.jokers=2",)),
    ("bicycle", ("deck.jokers=4", "players=6")),
    ("shichinarabe", ("deck.jokers=2", "layout.ace=high", "deck.ranks=7-A", "layout.centre=8")),
    ("platform", ("deck.jokers=3",)),
    # 斬龍: a joker move whose card beyond ends the line cuts the row; the place's holder
    # still swaps into the cut row
    ("platform-zhanlong", ("deck.jokers=1",)),
    ("platform-zhanlong", ("deck.jokers=2", "turn.extra_after_end=may")),
    ("doujue", ("deck.jokers=2", "layout.ends=cut")),
    # nobody may go out on a joker (WILD_RULES row 29; the ハマる preset: no passes, two jokers)
    ("shichinarabe", ("turn.joker_finish=refused", "deck.jokers=1")),
    ("shichinarabe", ("turn.joker_finish=refused", "deck.jokers=2", "turn.pass_limit=0")),
    ("doujue", ("turn.joker_finish=refused", "deck.jokers=2")),
    ("pagat", ("turn.joker_finish=refused", "deck.jokers=1", "turn.sevens_first=true")),
    # the holder of a joker's place asked, or never taking it (WILD_RULES row 28): a card
    # under a joker is never played, a burst lays it under the joker, covers hide it
    ("shichinarabe", ("deck.jokers=1", "turn.joker_handover=optional")),
    ("shichinarabe", ("deck.jokers=2", "turn.joker_handover=never")),
    ("hamaru", ("turn.joker_handover=optional",)),
    ("doujue", ("deck.jokers=2", "turn.joker_handover=optional")),
    ("doujue-passes", ("deck.jokers=1", "turn.joker_handover=never")),
    ("pagat", ("deck.jokers=1", "turn.joker_handover=never")),
    ("pagat", ("deck.jokers=2", "turn.joker_handover=optional", "scoring.penalty=pips")),
    ("sjuan", ("deck.jokers=2", "turn.joker_handover=optional", "turn.pass_bars=true")),
    ("platform-zhanlong", ("deck.jokers=1", "turn.joker_handover=optional")),
]


@pytest.mark.parametrize(("profile", "sets"), JOKER_TABLES)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_games_with_jokers_follow_the_rules(
    profile: str, sets: tuple[str, ...], seed: int, rnd: random.Random
) -> None:
    """Every step of a game with jokers equals the model's: the joker moves are exactly the
    rules' (a place that fits and is not held, the next empty place beyond it played),
    the holder of the place swaps, a hand of jokers alone leaves, bursts remove jokers, a
    row with a joker standing in it is not complete; and the result is the rules' scoring
    of the game (a covered joker 0 points, leavers ranked in the order they left)."""
    played = Game(profile, sets)
    rules = Rules.of(played)
    assert rules.jokers
    state = played_as_the_model(played, rules, seed, rnd)
    check_result(state, rules)
