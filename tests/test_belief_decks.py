"""The belief sampler with several decks (``deck.decks``): the unseen cards are a multiset,
each card of the pack ``decks`` times less every copy the seat holds and every copy on the
table. Every sampled deal agrees with the observation, holds each card ``decks`` times in
all, gives each seat as many cards as it holds (copies counted) and the watching seat its
own hand; a pass proves the passer held no card that fitted any row of its suit, a second
copy's place included; a state rebuilt by exchanging hidden cards is the replayed one."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiqi_core import Game, State
from paiqi_core.actions import PASS
from paiqi_core.belief import Belief
from paiqi_core.cards import bits, parse_card

CONFIGS = [
    # Badam Satti's big table: eight players, two decks, 13 cards each
    ("pagat", ("deck.decks=2", "players=8")),
    # three decks at five players: some hands hold a card three times
    ("pagat", ("deck.decks=3", "players=5")),
    # a pass takes a card: the deal is found by walking the history back, copies and all
    ("pagat", ("deck.decks=2", "players=4", "turn.pass_takes=chosen")),
    # a pass limit: a stuck player with no passes left bursts, laying every copy it holds
    ("pagat", ("deck.decks=2", "players=6", "turn.pass_limit=1")),
    # the 7s go out before play, each copy from its holder; the holder of SA moves first
    ("pagat", ("deck.decks=2", "players=6", "opening.method=sevens_out", "opening.card=SA")),
    # the holder of D7 leads: no earlier seat holds a copy, later seats may
    ("pagat", ("deck.decks=2", "players=8", "opening.method=holder_leads", "opening.card=D7")),
    # a pass right after a card that ends its line may be a stop, which proves nothing
    ("pagat", ("deck.decks=2", "players=5", "turn.extra_after_end=may")),
]


@cache
def game(profile: str, overrides: tuple[str, ...]) -> Game:
    return Game(profile, list(overrides))


def _position(g: Game, seed: int, stop: float) -> State:
    state = g.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and rng.random() > stop / 12:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize(("profile", "overrides"), CONFIGS)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), stop=st.floats(0.0, 1.0), watcher=st.integers(0, 7))
def test_a_sampled_deal_of_several_decks_is_consistent(
    profile: str, overrides: tuple[str, ...], seed: int, stop: float, watcher: int
) -> None:
    g = game(profile, overrides)
    decks = g.rules.decks
    state = _position(g, seed, stop)
    seat = watcher % g.players
    observation = state.observation(seat)
    belief = Belief(g, observation)
    # the unseen cards: each card `decks` times, less this hand's copies and the table's
    unseen = Counter({c: decks for c in range(52)})
    unseen.subtract([*state.held(seat), *state.table_cards])
    assert Counter(belief.hidden) == +unseen
    for sample in belief.samples(random.Random(seed), 3):
        assert sample.observation(seat) == observation
        assert sample.held(seat) == state.held(seat)  # its own hand, each copy
        assert sample.hand_counts() == state.hand_counts()  # every other seat's count
        every = Counter(sample.table_cards)
        for t in range(g.players):
            every.update(sample.held(t))
            # no seat holds a card it was shown not to hold
            assert t == seat or not sample.hands[t] & belief._void[t]
        assert every == Counter({c: decks for c in range(52)})  # the pack x decks
        # the deal the sample was played from: each seat dealt as many as it was
        dealt = Counter(c for t in range(g.players) for c in sample.dealt_cards(t))
        assert dealt == Counter({c: decks for c in range(52)})
        assert [len(sample.dealt_cards(t)) for t in range(g.players)] == list(
            observation.dealt_counts
        )


def _slots(state: State) -> dict[str, object]:
    state.public_log()  # the lazily kept public log, brought up to date
    return {k: v for k, v in state.__getstate__().items() if k != "rng"}


@pytest.mark.parametrize(("profile", "overrides"), CONFIGS)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), stop=st.floats(0.0, 1.0), watcher=st.integers(0, 7))
def test_a_state_rebuilt_with_copies_is_the_replayed_one(
    profile: str, overrides: tuple[str, ...], seed: int, stop: float, watcher: int
) -> None:
    g = game(profile, overrides)
    state = _position(g, seed, stop)
    seat = watcher % g.players
    belief = Belief(g, state.observation(seat))
    rng = random.Random(seed)
    belief.sample(rng)
    if belief._template is None:  # only where a pass may be a stop, or cards were handed on
        rules = g.rules
        assert rules.extra_after_end != "none" or rules.pass_takes != "none"
        return
    draws = belief.placements(rng)
    for _ in range(6):
        placement = next(draws)
        replayed, rebuilt = belief.state_of(placement), belief._rebuilt(placement)
        assert (rebuilt is None) == (replayed is None)
        if replayed is not None and rebuilt is not None:
            assert _slots(rebuilt) == _slots(replayed)


def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_a_pass_proves_no_copy_fitted_a_second_copys_place_included() -> None:
    """Pagat with two decks, four players, 26 cards each, seat 0 first (any 7 opens). Seat 0
    lays H7, seat 1 H8 beside it, seat 2 the second H7, which starts the hearts' second
    row. Then H6 and H9 fit the first row, and H8 the second (beside the second H7, where
    one H8 lies), as do S7, D7 and C7: seat 3 passes, so it holds none of them, though an
    H8 is down; H5 and H10 fitted nowhere, so the pass says nothing of them."""
    g = game("pagat", ("deck.decks=2", "players=4"))
    fixed = [_cards("H7 H6 H6 S7 S7 D7 D7"), _cards("H8 H9 H9"), _cards("H7 C7 C7 H8"), []]
    rest = Counter({c: 2 for c in range(52)})
    rest.subtract(c for hand in fixed for c in hand)
    others = sorted(rest.elements())  # the 90 cards left, none of them a 7, H6, H8 or H9
    hands, at = [], 0
    for hand in fixed:
        take = 26 - len(hand)
        hands.append(sorted(hand + others[at : at + take]))
        at += take
    assert at == len(others) == 90
    state = g.new_state(hands=hands)
    for seat, card in ((0, "H7"), (1, "H8"), (2, "H7")):
        assert state.turn == seat
        state.apply(card)
    assert state.turn == 3 and state.legal_actions() == [PASS]
    state.apply("pass")
    belief = Belief(g, state.observation(0))
    fitted = _cards("H6 H8 H9 S7 D7 C7")
    assert [c for c in fitted if belief._void[3] >> c & 1] == fitted
    assert not belief._void[3] & sum(1 << c for c in _cards("H5 H10"))
    # one H8 is down and seat 0 holds none: the other is seat 1's or seat 2's, never seat 3's
    h8 = parse_card("H8")
    holders: Counter[int] = Counter()
    for sample in belief.samples(random.Random(2), 60):
        assert not sample.hands[3] >> h8 & 1
        holders.update(t for t in range(4) for c in sample.held(t) if c == h8)
        assert sum(sample.held(t).count(h8) for t in range(4)) == 1
    assert set(holders) == {1, 2}  # either may hold it: both are drawn


def test_the_holder_of_the_opening_card_is_the_first_seat_holding_a_copy() -> None:
    """Two decks, the holder of D7 leads: seat 2 holds one D7 and seat 3 the other, so
    seat 2 leads. Seen from seat 3, seats 0 and 1 hold no D7 and seat 2 holds one: every
    sample gives seat 2 its D7."""
    g = game(
        "pagat", ("deck.decks=2", "players=4", "opening.method=holder_leads", "opening.card=D7")
    )
    d7 = parse_card("D7")
    pack = sorted(Counter({c: 2 for c in range(52) if c != d7}).elements())
    hands = [pack[0:26], pack[26:52], [*pack[52:77], d7], [*pack[77:102], d7]]
    state = g.new_state(hands=hands)
    assert state.turn == 2
    belief = Belief(g, state.observation(3))
    for t in (0, 1):
        assert belief.allowed[[p.seat for p in belief.places].index(t)] >> d7 & 1 == 0
    for sample in belief.samples(random.Random(4), 20):
        assert sample.held(2).count(d7) == 1
        assert d7 not in bits(sample.hands[0] | sample.hands[1])
