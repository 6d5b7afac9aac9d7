"""Properties of 七並べ games under every A-K option, with no joker, one or two."""

from __future__ import annotations

import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from paiqi_core import Game, State
from paiqi_core.actions import BURST, LEAVE, SWAP, kind
from paiqi_core.cards import JOKERS, bits
from paiqi_core.records import replay, state_record

OPTIONS = [
    (players, ace_king, jokers)
    for players in (3, 4)
    for ace_king in ("none", "wrap", "tunnel")
    for jokers in (0, 1, 2)
]


@cache
def game(players: int, ace_king: str, jokers: int) -> Game:
    return Game(
        "shichinarabe",
        [f"players={players}", f"layout.ace_king={ace_king}", f"deck.jokers={jokers}"],
    )


def joker_places(state: State) -> list[str]:
    """Where the jokers are, one entry each: in a hand, or on the table (or gone)."""
    places = [
        f"hand {s}" for s, h in enumerate(state.hands) for _ in range((h & JOKERS).bit_count())
    ]
    return places + ["table"] * state.jokers_at.bit_count()


@settings(max_examples=60, deadline=None)
@given(option=st.sampled_from(OPTIONS), seed=st.integers(0, 2**32), choice=st.randoms())
def test_cards_joker_and_ranks_stay_consistent(
    option: tuple[int, str, int], seed: int, choice: random.Random
) -> None:
    g = game(*option)
    players, _, jokers = option
    state = g.new_state(seed)
    deck = (1 << 52) - 1
    gone = 0  # jokers removed from the game
    steps = 0
    while not state.over:
        legal = state.legal_actions()
        assert legal, "a player to move always has something to do (or has burst)"
        state.apply_unchecked(legal[choice.randrange(len(legal))])
        steps += 1
        assert steps < 53 * (players + 4), "a game with a pass limit ends"
        # every suited card is in exactly one hand or on the table
        held = 0
        for h in state.hands:
            assert not held & h & deck
            held |= h & deck
        assert held | state.table == deck and not held & state.table
        # each joker is in one hand, lies on the table, or has left the game for good
        places = joker_places(state)
        assert len(places) <= jokers - gone, "a removed joker never comes back"
        gone = jokers - len(places)
    result = state.result()
    holders = [s for s, h in enumerate(state.hands) if h]
    assert len(holders) <= 1
    ranks = sorted(result.rank)
    assert ranks == list(range(1, players + 1)), "one player per rank"
    assert sorted(result.total or ()) == list(range(players)), "rank points n-1 .. 0"
    # the players who left holding only jokers rank in the order they left
    order = state.finished + holders + state.left + state.bursts[::-1]
    assert [result.rank[s] for s in order] == list(range(1, players + 1))
    for s, a in state.log:
        if a == BURST:
            assert s in state.bursts
        elif a == LEAVE:
            assert s in state.left
        elif kind(a) == "swap":
            assert (a - SWAP) in set(bits(state.table))
    assert replay(state_record(state)) == []


@settings(max_examples=40, deadline=None)
@given(option=st.sampled_from(OPTIONS), seed=st.integers(0, 2**32))
def test_passes_never_exceed_the_limit_and_bursts_only_when_stuck(
    option: tuple[int, str, int], seed: int
) -> None:
    g = game(*option)
    state = g.new_state(seed)
    assert state.rng is not None
    state.play_random(state.rng)
    assert all(p <= 3 for p in state.passes)
    for s in state.bursts:
        assert state.passes[s] == 3, "only a player with no passes left bursts"
