"""Several decks (``deck.decks``), played against a model of the rule as its sources state
it: each suit lies in one row per deck (scimas/badam-sat, aakashb95/badam-satti), a row
opens with its own centre card, and a card goes on any row of its suit where it fits.

The engine keeps each suit's copies stacked instead (the k-th copy of a card goes down only
beside k-th copies, where k-1 copies of it lie). ``Rows`` below is the literal reading: it
keeps every row apart and, when a card fits several rows, puts it on one chosen at random.
For every step of random games the cards the engine lets the player to move play, every
hand (copies counted) and the table's copies must be the model's, whatever rows the model
chose: the two readings are one game when a row's two sides grow apart from each other.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiqi_core import Game, State, card_text, parse_card
from paiqi_core.actions import BURST, PLACE
from paiqi_core.cards import planes, with_copies
from paiqi_core.profile import ProfileError, load_profile
from paiqi_core.records import replay, state_record
from paiqi_core.verify.scenario import Seats, SetupError, build_state

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


class Rows:
    """The table as rows of each suit per deck: for each row, None (not opened) or the
    positions (along the line of the rows' ranks) of its lowest and highest card."""

    def __init__(self, line: list[int], centre: int, decks: int, sides: str, rng: random.Random):
        self.line, self.decks, self.sides, self.rng = line, decks, sides, rng
        self.centre = line.index(centre)  # the centre's position on the line
        self.rows: dict[tuple[int, int], tuple[int, int] | None] = {
            (suit, d): None for suit in range(4) for d in range(decks)
        }

    def fits(self, card: int, row: tuple[int, int]) -> bool:
        rank = card % 13
        if rank not in self.line:
            return False
        at, c, span = self.line.index(rank), self.centre, self.rows[row]
        if span is None:
            return at == c
        low, high = span
        if at not in (low - 1, high + 1):
            return False
        if self.sides == "high_first" and at < c:
            return high > c  # no card below the centre before the one above it
        if self.sides == "low_first" and at > c:
            return low < c
        if self.sides == "both_first" and (at < c - 1 or at > c + 1):
            return low < c and high > c  # nothing beyond both neighbours of the centre
        return True

    def places(self, card: int) -> list[tuple[int, int]]:
        return [(card // 13, d) for d in range(self.decks) if self.fits(card, (card // 13, d))]

    def lay(self, card: int) -> None:
        rows = self.places(card)
        assert rows, f"{card_text(card)} fits no row"
        row = self.rng.choice(rows)  # any row where it fits: the readings are one game
        at, span = self.line.index(card % 13), self.rows[row]
        self.rows[row] = (at, at) if span is None else (min(span[0], at), max(span[1], at))

    def cards(self) -> Counter[int]:
        """How many copies of each card lie on the table."""
        down: Counter[int] = Counter()
        for (suit, _), span in self.rows.items():
            if span is not None:
                for at in range(span[0], span[1] + 1):
                    down[13 * suit + self.line[at]] += 1
        return down


class Counts:
    """The table as Board Game Arena states its two-deck Sevens: a count of each card down,
    and the k-th copy of a card may go down only where k copies of every card between it
    and the centre lie ("an equal number of cards all the way back to seven"); a hand laid
    face up by a burst lies in place, copies and all."""

    def __init__(self, line: list[int], centre: int) -> None:
        self.line, self.centre = line, line.index(centre)
        self.down: Counter[int] = Counter()

    def fits(self, card: int) -> bool:
        rank = card % 13
        if rank not in self.line:
            return False
        at, c, k = self.line.index(rank), self.centre, self.down[card] + 1
        between = range(at + 1, c + 1) if at < c else range(c, at)
        return all(self.down[13 * (card // 13) + self.line[i]] >= k for i in between)

    def lay(self, card: int) -> None:
        self.down[card] += 1


def line_of(ace: str, low: str | None = None, high: str | None = None) -> list[int]:
    line = list(range(13)) if ace == "low" else [*range(1, 13), 0]
    if low is not None and high is not None:
        line = line[line.index(RANKS.index(low)) : line.index(RANKS.index(high)) + 1]
    return line


HIGH, LOW = line_of("high"), line_of("low")
TABLES = [  # (profile, options, the rows' line of ranks)
    ("pagat", {"players": 8, "deck.decks": 2}, HIGH),
    ("pagat", {"players": 11, "deck.decks": 2, "layout.ace": "low"}, LOW),
    ("pagat", {"players": 12, "deck.decks": 3}, HIGH),
    ("pagat", {"players": 6, "deck.decks": 2, "layout.sides": "high_first", "turn.must_play": False,
               "ending.stall": 1}, HIGH),
    ("pagat", {"players": 9, "deck.decks": 2, "layout.sides": "low_first"}, HIGH),
    ("pagat", {"players": 10, "deck.decks": 3, "layout.sides": "high_first"}, HIGH),
    ("pagat", {"players": 12, "deck.decks": 3, "layout.sides": "low_first", "layout.ace": "low"},
     LOW),
    ("pagat", {"players": 8, "deck.decks": 2, "deck.ranks": "6-A", "layout.centre": "9"},
     line_of("high", "6", "A")),
    ("pagat", {"players": 7, "deck.decks": 2, "turn.extra_after_end": "may",
               "turn.pass_takes": "chosen"}, HIGH),
    ("shichinarabe", {"players": 8, "deck.decks": 2, "turn.pass_limit": None}, LOW),
    ("pagat", {"players": 5, "deck.decks": 2, "opening.method": "holder_leads",
               "opening.card": "H7"}, HIGH),
    # Board Game Arena's Sevens: two decks, the 7s out, passes limited, bursts
    ("shichinarabe", {"players": 6, "deck.decks": 2}, LOW),
    ("shichinarabe", {"players": 9, "deck.decks": 2, "turn.pass_limit": 1}, LOW),
    ("shichinarabe", {"players": 12, "deck.decks": 3, "turn.pass_limit": 0}, LOW),
    ("pagat", {"players": 8, "deck.decks": 2, "turn.pass_limit": 2}, HIGH),
    ("pagat", {"players": 10, "deck.decks": 2, "opening.method": "seven_holder"}, HIGH),
]  # fmt: skip


def check_game(profile: str, options: dict[str, Any], line: list[int], seed: int) -> None:
    game = Game(profile, options)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    decks = options["deck.decks"]
    centre = RANKS.index(options.get("layout.centre", "7"))
    sides = options.get("layout.sides", "either")
    rows = Rows(line, centre, decks, sides, rng)
    counts = Counts(line, centre)
    # a row of each deck holds no card laid by a burst: that model plays only without them
    models = {"rows": not game.rules.stuck.may_burst, "counts": sides == "either"}
    hands = [Counter(state.dealt_cards(s)) for s in range(game.players)]
    # the deal: every card of the pack ``decks`` times, round the table from seat 0
    pack = [c for c in range(52) if c % 13 in line]
    assert sum(hands, Counter()) == Counter(pack * decks)
    sizes = [sum(h.values()) for h in hands]
    assert sizes == [len(pack) * decks // game.players + (s < len(pack) * decks % game.players)
                     for s in range(game.players)]  # fmt: skip
    if options.get("opening.method") == "seven_holder":  # the first seat dealt a 7 moves first
        sevens = [s for s in range(game.players) if any(c % 13 == centre for c in hands[s])]
        assert state.turn == sevens[0]

    def follow(entries: list[tuple[int, int]]) -> None:
        """Cards played, or put out before play (every copy of each centre card), and
        hands laid face up by bursts, as the models have them."""
        for s, a in entries:
            if a < 52 or PLACE <= a < PLACE + 52:
                card = a % PLACE if a >= PLACE else a
                hands[s][card] -= 1
                if models["rows"]:
                    rows.lay(card)
                counts.lay(card)
            elif a == BURST:  # the hand lies face up in place, every copy
                for c in (+hands[s]).elements():
                    counts.lay(c)
                hands[s] = Counter()

    follow(state.log)
    while not state.over:
        seat = state.turn
        assert Counter(state.held(seat)) == +hands[seat]
        if models["rows"]:
            assert Counter(state.table_cards) == rows.cards()
        assert Counter(state.table_cards) == +counts.down
        playable = {c for c in +hands[seat] if rows.places(c)}
        if not models["rows"]:
            playable = {c for c in +hands[seat] if counts.fits(c)}
        elif models["counts"]:
            assert playable == {c for c in +hands[seat] if counts.fits(c)}
        if state.first_card is not None and not state.started:
            playable &= {state.first_card}
        if state.observation(seat).hand_on:  # it hands a card to the player who passed
            playable = set()
        legal = state.legal_actions()
        assert {a for a in legal if a < 52} == playable, (seat, legal)
        action = rng.choice(legal)
        before = len(state.log)
        state.apply(action)
        follow(state.log[before:])
        if game.rules.pass_takes == "chosen":  # a card handed on: the hands as the engine has them
            hands = [Counter(state.held(s)) for s in range(game.players)]
    record = json.loads(json.dumps(state_record(state)))
    assert replay(record, game) == []
    dealt = [card for hand in record["hands"] for card in hand]
    assert sorted(dealt) == sorted(map(card_text, pack * decks))
    left = state.hand_counts()
    assert left == [sum((+h).values()) for h in hands]
    result = state.result()
    assert [o.hand_left for o in state.outcomes()] == left
    assert len(result.rank) == game.players


@pytest.mark.parametrize(("profile", "options", "line"), TABLES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_games_of_several_decks_follow_the_rows_of_each_deck(
    profile: str, options: dict[str, Any], line: list[int], seed: int
) -> None:
    check_game(profile, options, line, seed)


def test_sevens_out_lays_every_copy_of_every_centre_card() -> None:
    game = Game("shichinarabe", {"players": 8, "deck.decks": 2, "turn.pass_limit": None})
    state = game.new_state(seed=3)
    placed = [a - PLACE for _, a in state.log]
    assert Counter(placed) == Counter({6: 2, 19: 2, 32: 2, 45: 2})  # two of each 7
    assert Counter(state.table_cards) == Counter(placed)
    # the 8s go on either row, the second copy beside the second 7
    assert state.frontier == sum(1 << (13 * s + r) for s in range(4) for r in (5, 7))


def test_the_first_holder_in_seat_order_opens_with_a_card_held_twice() -> None:
    game = Game(
        "pagat",
        {"players": 3, "deck.decks": 2, "opening.method": "holder_leads", "opening.card": "H7"},
    )
    h7 = 19
    rest = [c for c in range(52) if c != h7] * 2
    hands = [rest[0:34], [h7, *rest[34:67]], [h7, *rest[67:]]]
    state = game.new_state(hands=hands)
    assert state.turn == 1 and state.legal_actions() == [h7]
    state.apply("H7")
    # the second H7 opens the second heart row; H6 and H8 go on the first
    assert state.table_cards == [h7]
    assert state.frontier >> 18 & 1 and state.frontier >> 20 & 1 and state.frontier >> h7 & 1


def test_a_position_with_copies_plays_on_the_second_row() -> None:
    game = Game("pagat", {"players": 4, "deck.decks": 2})
    once, twice, _ = planes([19, 20, 21, 20, 19])  # H7 H8 H9 and a second H7, H8 down
    table = with_copies(once, twice)
    assert table == [19, 19, 20, 20, 21]
    h8, h9, h10 = 20, 21, 22
    hands = [[h9, h10, h9], [0], [1], [2]]
    h = [planes(x) for x in hands]

    state = State(
        game, [x[0] for x in h], table=once, turn=0, opened=(1,),
        copies=[(x[1], x[2]) for x in h], table_copies=(twice, 0),
    )  # fmt: skip
    assert state.held(0) == [h9, h9, h10]
    # H9 extends the second row (H7 H8 there), and H10 the first (H7..H9)
    assert sorted(a for a in state.legal_actions() if a < 52) == [h9, h10]
    state.apply("H9")
    assert state.table_cards == [19, 19, 20, 20, 21, 21]
    assert state.held(0) == [h9, h10]
    assert state.hand_counts() == [2, 1, 1, 1]
    # both rows run H7..H9: H6 and H10 go on either, a third H8 or H9 on neither
    assert state.turn == 1
    assert [c for c in range(13, 26) if state.frontier >> c & 1] == [18, h10]
    assert h8 not in state.legal_actions()


@pytest.mark.parametrize(
    ("sets", "named"),
    [
        ({"turn.stuck": "cover"}, "deck.decks: 2 needs turn.stuck: pass (this profile has cover)"),
        (
            {"turn.pass_limit": 3, "turn.out_of_passes": "cover"},
            "deck.decks: 2 needs turn.out_of_passes: burst (this profile has cover)",
        ),
        ({"deck.jokers": 1}, "needs deck.jokers: 0 (this profile has 1)"),
        ({"deck.leftover": "face_up"}, "needs deck.leftover: dealt (this profile has face_up)"),
        ({"layout.ends": "cut"}, "needs layout.ends: open (this profile has cut)"),
        ({"layout.ace_king": "wrap", "layout.ace": "low"}, "needs layout.ace_king: none"),
        ({"layout.sides": "both_first"}, "layout.sides both_first lets a row grow past"),
    ],
)
def test_several_decks_with_a_rule_that_needs_one_is_a_located_error(
    sets: dict[str, Any], named: str
) -> None:
    with pytest.raises(ProfileError) as e:
        load_profile("pagat", {"deck.decks": 2, **sets})
    assert named in str(e.value)


def test_a_fourth_deck_is_refused_by_the_schema() -> None:
    with pytest.raises(ProfileError) as e:
        load_profile("pagat", {"deck.decks": 4})
    assert "deck.decks" in str(e.value)


def test_a_hand_with_a_fourth_copy_is_refused() -> None:
    game = Game("pagat", {"players": 4, "deck.decks": 3})
    with pytest.raises(Exception, match="more than 3 copies of H7"):
        game.new_state(hands=[[19, 19, 19, 19], [0], [1], [2]])


def test_an_example_places_a_card_no_more_often_than_the_decks_hold_it() -> None:
    game = Game("pagat", {"deck.decks": 2})
    seats = Seats(None, 4)
    with pytest.raises(SetupError, match=r"D5 is placed 3 times, and the pack has 2"):
        build_state(game, seats, {"table": ["D7", "D6", "D5"], "hand": ["D5", "D5"]}, dealt=False)
    one = Game("pagat")
    with pytest.raises(SetupError, match="D5 is placed twice"):
        build_state(one, seats, {"table": ["D7", "D6", "D5"], "hand": ["D5"]}, dealt=False)
    # a position with copies: the rest of both decks goes to the seats not given
    state = build_state(game, seats, {"table": ["D7", "D7"], "hand": ["D8", "D8"]}, dealt=False)
    assert state.held(0) == [parse_card("D8")] * 2
    assert sum(state.hand_counts()) == 104 - 2
