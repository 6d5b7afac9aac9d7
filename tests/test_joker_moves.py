"""Joker moves under every A-K option, against a slow model written from the rules.

RULES.md (section 3 and the readings of section 5): the joker takes the place of a legal
extension X that its player does not hold, and the card just beyond X is played from the
same hand in the same turn. "Just beyond" is the next empty place in the direction the row
grows at X, skipping cards laid there by a burst, and following the row's order across the
A-K junction where the row runs on (wrap, tunnel), including when X and that card are the
row's last two empty places.

The model writes each side of a row as the sequence of places it fills, counted outward
from the 7 (up: 8, 9, ... K, then A, 2, ... with wrap or tunnel; down: 6, 5, ... A, then
K, Q, ...). X is the first empty place of a side; the card beyond is the next empty place
of the same side, and must then be playable.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiqi_core import Game, State
from paiqi_core.actions import BURST, COVER, JOKER, LEAVE, SWAP, action_text, joker_action, kind
from paiqi_core.cards import JOKER as JOKER_CARD
from paiqi_core.cards import JOKERS, is_joker, mask_of

from .test_properties import row_extensions

SEVEN = 6
OPTIONS = ("none", "wrap", "tunnel")


@cache
def game(ace_king: str) -> Game:
    return Game("shichinarabe", [f"layout.ace_king={ace_king}", "deck.jokers=1"])


def sides(ace_king: str) -> tuple[list[int], list[int]]:
    """The places of each side of a row, outward from the 7."""
    up, down = list(range(SEVEN + 1, 13)), list(range(SEVEN - 1, -1, -1))
    if ace_king != "none":
        up += list(range(SEVEN))  # on past K: A, 2, ... 6
        down += list(range(12, SEVEN, -1))  # on past A: K, Q, ... 8
    return up, down


def model_beyond(ace_king: str, row: frozenset[int], x: int) -> set[int]:
    """The cards that may go beyond a joker placed at X (0 or 1 of them)."""
    found = set()
    for side in sides(ace_king):
        empty = [p for p in side if p not in row]
        if empty and empty[0] == x and len(empty) > 1:
            y = empty[1]
            if y in row_extensions("low", "open", ace_king, row | {x}):
                found.add(y)
    return found


def model_joker_moves(ace_king: str, table: set[int], hand: set[int]) -> set[int]:
    if JOKER_CARD not in hand:
        return set()
    moves = set()
    for suit in range(4):
        row = frozenset(c - 13 * suit for c in table if c // 13 == suit)
        for x in row_extensions("low", "open", ace_king, row):
            if 13 * suit + x in hand:
                continue
            for y in model_beyond(ace_king, row, x):
                if 13 * suit + y in hand:
                    moves.add(joker_action(13 * suit + x, 13 * suit + y))
    return moves


def engine_joker_moves(state: State) -> set[int]:
    return {a for a in state.legal_actions() if a >= JOKER}


def random_row(rng: random.Random, ace_king: str) -> set[int]:
    """A row grown by play from its 7, with maybe a few cards laid by a burst."""
    row = {SEVEN}
    for _ in range(rng.randrange(13)):
        ext = row_extensions("low", "open", ace_king, frozenset(row))
        if not ext:
            break
        row.add(rng.choice(sorted(ext)))
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        row.add(rng.randrange(13))  # laid face up by a burst, joined to nothing yet
    return row


def random_position(rng: random.Random, ace_king: str) -> State | None:
    """Seat 0 to move holding the joker and some cards; the rest dealt to three others."""
    table = {13 * suit + r for suit in range(4) for r in random_row(rng, ace_king)}
    rest = [c for c in range(52) if c not in table]
    if len(rest) < 4:
        return None
    rng.shuffle(rest)
    size = rng.randrange(1, min(13, len(rest) - 3) + 1)
    mine, others = rest[:size], rest[size:]
    hands = [mask_of([*mine, JOKER_CARD])] + [mask_of(others[i::3]) for i in range(3)]
    return State(game(ace_king), hands, table=mask_of(table), turn=0)


@settings(max_examples=400, deadline=None)
@given(ace_king=st.sampled_from(OPTIONS), seed=st.integers(0, 2**32))
def test_joker_moves_are_exactly_those_the_rules_allow(ace_king: str, seed: int) -> None:
    rng = random.Random(seed)
    state = random_position(rng, ace_king)
    if state is None or state.over or state.turn != 0:
        return
    hand = {c for c in range(53) if state.hands[0] >> c & 1}
    table = {c for c in range(52) if state.table >> c & 1}
    want = model_joker_moves(ace_king, table, hand)
    got = engine_joker_moves(state)
    shown = [sorted(map(action_text, moves)) for moves in (got, want)]
    assert got == want, f"{ace_king}: engine {shown[0]}, rules {shown[1]}"


@settings(max_examples=60, deadline=None)
@given(ace_king=st.sampled_from(OPTIONS), seed=st.integers(0, 2**32))
def test_joker_moves_in_played_games_follow_the_rules(ace_king: str, seed: int) -> None:
    state = game(ace_king).new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.hands[state.turn] >> JOKER_CARD & 1:
            hand = {c for c in range(53) if state.hands[state.turn] >> c & 1}
            table = {c for c in range(52) if state.table >> c & 1}
            assert engine_joker_moves(state) == model_joker_moves(ace_king, table, hand)
        legal = state.legal_actions()
        jokers = [a for a in legal if a >= JOKER]
        state.apply((jokers or legal)[rng.randrange(len(jokers or legal))])


@pytest.mark.parametrize(
    ("ace_king", "row", "move"),
    [
        # spades missing only S2 and S4 (S3 laid by a burst), wrap: each is beyond the other
        ("wrap", "SA S3 S5-SK", "joker S4 S2"),
        ("wrap", "SA S3 S5-SK", "joker S2 S4"),
        # missing only SK and SA, tunnel: past K comes A, past A comes K
        ("tunnel", "S2-SQ", "joker SK SA"),
        ("tunnel", "S2-SQ", "joker SA SK"),
        # wrap: the last two empty places side by side
        ("wrap", "S2-SQ", "joker SK SA"),
    ],
)
def test_the_last_two_empty_places_of_a_row(ace_king: str, row: str, move: str) -> None:
    from paiqi_core.actions import parse_action
    from paiqi_core.cards import parse_cards

    action = parse_action(move)
    table = parse_cards(row) + parse_cards("H7 D7 C7")
    beyond = action % 64
    rest = [c for c in range(52) if c not in table and c != beyond]
    hands = [mask_of([beyond, JOKER_CARD])] + [mask_of(rest[i::3]) for i in range(3)]
    state = State(game(ace_king), hands, table=mask_of(table), turn=0)
    assert action in state.legal_actions()
    assert state.why_illegal(action) is None


# -- several jokers: alike, each one accounted for --------------------------------------------
@cache
def several(profile: str, jokers: int, ace_king: str) -> Game:
    sets = [f"deck.jokers={jokers}", f"layout.ace_king={ace_king}"]
    return Game(profile, sets if profile == "shichinarabe" else sets[:1])


def joker_count(mask: int) -> int:
    return (mask & JOKERS).bit_count()


@settings(max_examples=80, deadline=None)
@given(
    profile=st.sampled_from(("shichinarabe", "doujue")),
    jokers=st.integers(2, 4),
    ace_king=st.sampled_from(OPTIONS),
    seed=st.integers(0, 2**32),
)
def test_several_jokers_are_alike_and_each_is_accounted_for(
    profile: str, jokers: int, ace_king: str, seed: int
) -> None:
    """RULES.md's joker, dealt several times over (WILD_RULES.md row 30, "one or two
    jokers"): a joker move uses one joker, whichever the player holds, and gives the same
    moves as a single joker would; the holder of the place it takes plays that card and
    takes that joker; a covered joker is one cover; a hand of only jokers leaves with all of
    them; a burst hand's jokers leave the game. The model counts the jokers of every hand,
    on the table, covered and gone, and the engine must agree after every action."""
    game_ = several(profile, jokers, ace_king)
    state = game_.new_state(seed)
    rng = random.Random(seed)
    n = game_.players
    held = [joker_count(h) for h in state.hands]
    assert sum(held) == jokers, "every joker is dealt"
    standing: set[int] = set()
    covered = gone = 0
    left: list[int] = []
    while not state.over:
        seat = state.turn
        legal = state.legal_actions()
        moves = {a for a in legal if a >= JOKER}
        if profile == "shichinarabe":  # the model's rows: 七並べ's (ace low, open ends)
            hand = {c for c in range(52) if state.hands[seat] >> c & 1}
            if held[seat]:
                hand.add(JOKER_CARD)
            table = {c for c in range(52) if state.table >> c & 1}
            assert moves == model_joker_moves(ace_king, table, hand)
        elif not held[seat]:
            assert not moves
        covers = [a for a in legal if kind(a) == "cover" and is_joker(a - COVER)]
        assert len(covers) <= (1 if held[seat] else 0), "the alike jokers are one cover"
        eager = sorted(moves) or covers  # favour the jokers
        action = rng.choice(eager if eager and rng.random() < 0.8 else legal)
        holders = list(state.hands)
        before = len(state.log)
        state.apply(action)
        if action >= JOKER:
            at, _ = divmod(action - JOKER, 64)
            held[seat] -= 1
            taker = next((s for s in range(n) if holders[s] >> at & 1), None)
            if taker is None:
                standing.add(at)
            else:
                held[taker] += 1
        elif kind(action) == "cover" and is_joker(action - COVER):
            held[seat] -= 1
            covered += 1
        for who, event in state.log[before + 1 :]:
            if event in (BURST, LEAVE):
                gone += held[who]
                held[who] = 0
                if event == LEAVE:
                    left.append(who)
        for s in range(n):
            assert joker_count(state.hands[s]) == held[s], f"seat {s}'s jokers"
            hand = state.hands[s]
            assert not hand or hand & ~JOKERS, "a hand of only jokers leaves the game"
        assert state.jokers_at.bit_count() == len(standing)
        assert sum(held) + len(standing) + covered + gone == jokers
    assert state.left == left
    result = state.result()
    if profile == "shichinarabe":  # leavers rank after the holders, the earliest highest
        holding = [s for s in range(n) if state.hands[s]]
        order = [*state.finished, *holding, *left, *state.bursts[::-1]]
        assert [result.rank[s] for s in order] == list(range(1, n + 1))


def test_a_swap_completes_no_row_where_another_joker_stands() -> None:
    """joker-real-completion with two jokers: a row is complete only with its real cards.
    One joker stands for H9, which 丁 covered; when the other joker's swap lays the last
    empty place of hearts, the row is full but not complete, and nobody is credited."""
    game_ = Game("doujue", ["deck.jokers=2"])
    hearts = {13 + r for r in range(8)} | {13 + 12}  # HA..H8 and HK
    table = {c for c in range(52) if c // 13 != 1 and c not in (11, 12)} | hearts
    H9, H10, HJ, HQ, SQ, SK = 13 + 8, 13 + 9, 13 + 10, 13 + 11, 11, 12
    hands = [mask_of([H10, JOKER_CARD]), mask_of([HQ]) | 1 << (JOKER_CARD + 1)]
    hands += [mask_of([HJ, SK]), mask_of([SQ])]
    covered = [0, 0, 0, mask_of([H9])]
    state = State(game_, hands, table=mask_of(table), covered=covered, turn=0)
    state.apply("joker H9 H10")  # nobody holds H9: the joker stands there
    assert state.jokers_at == 1 << H9
    state.apply("joker HJ HQ")
    assert state.log[-1] == (2, SWAP + HJ)  # 丙 lays HJ and takes that joker
    assert state.table >> 13 & 0x1FFF == 0x1FFF  # every place of hearts is filled
    assert state.jokers_at == 1 << H9
    assert state.completions == [[], [], [], []]
