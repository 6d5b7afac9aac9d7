"""The engine against the rules of RULES.md sections 1 (鬥雀 doujue), 2 (the 斬龍/點差
platform) and 4 (pagat Fan Tan).

Every expected value below is worked out by hand from the rules; positions are reached by
dealing chosen hands and playing legal moves through the public API.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

import pytest

from paiqi_core import Game, State, card_text, parse_card, parse_cards
from paiqi_core.actions import COVER, CUT, PASS, action_text, parse_action
from paiqi_core.cards import mask_of
from paiqi_core.engine import IllegalAction
from paiqi_core.seeds import shuffled
from paiqi_core.slots import GivenSeat
from paiqi_core.topology import compile_topology

from .conftest import ROOT

RANK_TEXT = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

_GAMES: dict[str, Game] = {}


def game(profile: str) -> Game:
    if profile not in _GAMES:
        _GAMES[profile] = Game(profile)
    return _GAMES[profile]


def cards(text: str) -> list[int]:
    return parse_cards(text)


def make_hands(spec: Mapping[int, str], exact: Iterable[int] = ()) -> list[list[int]]:
    """Hands for 4 seats: ``spec`` lists cards by seat; seats in ``exact`` hold exactly
    those cards, the other seats also share out every unlisted card (fewest cards first)."""
    exact = set(exact)
    hands = [cards(spec.get(s, "")) for s in range(4)]
    listed = [c for h in hands for c in h]
    assert len(listed) == len(set(listed)), "a card is listed twice"
    rest = sorted(set(range(52)) - set(listed))
    open_seats = [s for s in range(4) if s not in exact]
    for c in rest:
        seat = min(open_seats, key=lambda s: (len(hands[s]), s))
        hands[seat].append(c)
    return hands


def start(
    profile: str, hands: list[list[int]], moves: Iterable[str] = (), door: str | None = None
) -> State:
    """A new game from ``hands`` (and the door card ``door``, for profiles that cut one)
    after the moves "SEAT ACTION", each of which must be legal."""
    door_card = None if door is None else parse_card(door)
    state = game(profile).new_state(hands=hands, door_card=door_card)
    for move in moves:
        seat, _, action = move.partition(" ")
        state.apply(action, seat=int(seat))
    return state


def legal_text(state: State) -> set[str]:
    return {action_text(a) for a in state.legal_actions()}


def hand_of(state: State, seat: int) -> set[int]:
    return set(state.observation(seat).hand)


# -- cards ---------------------------------------------------------------------------------


def test_every_card_round_trips_through_its_text() -> None:
    texts = [s + r for s in "SHDC" for r in RANK_TEXT]
    numbers = [parse_card(t) for t in texts]
    assert len(set(numbers)) == 52
    assert [card_text(n) for n in numbers] == texts


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("S7", "S7"),
        ("H10", "H10"),
        ("DA", "DA"),
        ("CK", "CK"),
        ("HT", "H10"),
        ("ST", "S10"),
        ("s7", "S7"),
        (" dq ", "DQ"),
        ("♠7", "S7"),
        ("♥10", "H10"),
        ("♦A", "DA"),
        ("♣K", "CK"),
        ("黑桃7", "S7"),
        ("紅心10", "H10"),
        ("方塊A", "DA"),
        ("梅花J", "CJ"),
    ],
)
def test_card_aliases_are_read_and_written_in_s_h_d_c_form(text: str, canonical: str) -> None:
    assert card_text(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text", ["", "S", "7", "S0", "S11", "S14", "X7", "7S", "H 7 7", "SS7", "HKK", "10H"]
)
def test_bad_card_text_raises_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        parse_card(text)


def test_suits_and_ranks_are_distinct_cards() -> None:
    # S, H, D, C of one rank are four different cards, and A..K of one suit thirteen.
    assert len({parse_card(s + "7") for s in "SHDC"}) == 4
    assert len({parse_card("H" + r) for r in RANK_TEXT}) == 13


def test_range_expands_low_to_high_within_one_suit() -> None:
    assert [card_text(c) for c in parse_cards("H5-H8")] == ["H5", "H6", "H7", "H8"]
    assert [card_text(c) for c in parse_cards(["SA-S3", "DK"])] == ["SA", "S2", "S3", "DK"]
    assert [card_text(c) for c in parse_cards("S7, H9-HJ")] == ["S7", "H9", "H10", "HJ"]


@pytest.mark.parametrize("text", ["H8-H5", "H5-S8", "HK-HA", "H5-X8"])
def test_bad_range_raises_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        parse_cards(text)


# -- topology: legal extensions of a row ----------------------------------------------------

# Spades are opened by S7 in doujue; none of these hands holds a 7, S6 or S8, so the only
# possible plays are the heart extensions under test.
NON_PLAYABLE_DOUJUE = "SA S2 DA"


def test_ace_low_hearts_5_to_8_extend_only_to_h4_and_h9() -> None:
    hands = make_hands(
        {
            0: "S7 H5",
            1: f"H7 H4 H9 HA H2 H3 H10 HJ HQ HK {NON_PLAYABLE_DOUJUE}",
            2: "H8",
            3: "H6",
        },
        exact={1},
    )
    state = start("doujue", hands, ["0 S7", "1 H7", "2 H8", "3 H6", "0 H5"])
    assert set(state.observation(0).table) == set(cards("S7 H5-H8"))
    assert state.current_seat() == 1
    assert legal_text(state) == {"H4", "H9"}
    for far in ("HA", "H2", "H3", "H10", "HJ", "HQ", "HK"):
        reason = state.why_illegal(parse_card(far))
        assert reason is not None and "not legal" in reason


def test_ace_low_row_seven_to_king_gives_nothing_above_king() -> None:
    # Spades 7..K on the table; seat 3 holds SA and no other playable card: SA is not next
    # to SK when the ace is low, so seat 3 is stuck and must cover.
    stuck_hand = "S10 SA H2 H3 H4 H5 D2 D3 D4 D5 C2 C3 C4"
    hands = make_hands({0: "S7 SJ", 1: "S8 SQ", 2: "S9 SK", 3: stuck_hand}, exact={3})
    state = start("doujue", hands, ["0 S7", "1 S8", "2 S9", "3 S10", "0 SJ", "1 SQ", "2 SK"])
    assert state.current_seat() == 3
    assert "SA" not in legal_text(state)
    left = set(cards(stuck_hand)) - {parse_card("S10")}
    assert legal_text(state) == {"cover " + card_text(c) for c in left}
    reason = state.why_illegal(parse_card("SA"))
    assert reason is not None and "not legal" in reason


def test_ace_low_bicycle_row_seven_to_king_gives_nothing_above_king() -> None:
    hands = make_hands(
        {0: "S7 SJ", 1: "S8 SQ", 2: "S9 SK", 3: "S10 SA H2 H3 D2 D3 C2 C3 C4 H4 D4 C5 H5"},
        exact={3},
    )
    state = start("bicycle", hands, ["0 S7", "1 S8", "2 S9", "3 S10", "0 SJ", "1 SQ", "2 SK"])
    assert state.current_seat() == 3
    assert legal_text(state) == {"pass"}


def test_ace_low_row_two_to_seven_extends_to_the_ace() -> None:
    hands = make_hands(
        {0: "H7 H3", 1: "H6 H2", 2: "H5 HA C2 C3 C4 C5 C6 D3 D4 D5 D6 S2 S3", 3: "H4"},
        exact={2},
    )
    state = start("bicycle", hands, ["0 H7", "1 H6", "2 H5", "3 H4", "0 H3", "1 H2"])
    # Table: hearts 2..7; seat 2 holds HA, which fits below H2 when the ace is low.
    assert state.current_seat() == 2
    assert legal_text(state) == {"HA"}


def test_ace_high_hearts_seven_to_king_make_the_ace_playable() -> None:
    hands = make_hands(
        {
            0: "H7 HJ",
            1: "H8 HQ",
            2: "H9 HK",
            3: "H10 HA S2 S3 S4 S5 D2 D3 D4 D5 C2 C3 C4",
        },
        exact={3},
    )
    state = start("pagat", hands, ["0 H7", "1 H8", "2 H9", "3 H10", "0 HJ", "1 HQ", "2 HK"])
    assert set(state.observation(3).table) == set(cards("H7-HK"))
    assert state.current_seat() == 3
    assert legal_text(state) == {"HA"}


def test_ace_high_hearts_two_to_seven_do_not_make_the_ace_playable() -> None:
    hands = make_hands(
        {
            0: "H7 H3",
            1: "H6 H2",
            2: "H5 HA S2 S3 S4 S5 D2 D3 D4 D5 C2 C3 C4",
            3: "H4",
        },
        exact={2},
    )
    state = start("pagat", hands, ["0 H7", "1 H6", "2 H5", "3 H4", "0 H3", "1 H2"])
    assert set(state.observation(2).table) == set(cards("H2-H7"))
    assert state.current_seat() == 2
    # HA is beyond K when the ace is high, never below 2: seat 2 is stuck and passes.
    assert legal_text(state) == {"pass"}
    reason = state.why_illegal(parse_card("HA"))
    assert reason is not None and "not legal" in reason


def test_an_empty_row_offers_only_its_seven() -> None:
    # Pagat, empty table: seat 0 holds H6, H7, H8, D7, DA, SK: only the two 7s are legal.
    hands = make_hands({0: "H6 H7 H8 D7 DA SK S2 S3 S4 S5 C2 C3 C4"}, exact={0})
    state = start("pagat", hands)
    assert legal_text(state) == {"H7", "D7"}
    # Doujue after S7: seat 1 holds H6 and H8 around an unopened hearts row, and D7.
    hands = make_hands({0: "S7", 1: "H6 H8 D7 DA D2 D3 C2 C3 C4 C5 SA S2 S3"}, exact={1})
    state = start("doujue", hands, ["0 S7"])
    assert state.current_seat() == 1
    assert legal_text(state) == {"D7"}


def ranks(*names: str) -> int:
    return mask_of(parse_card("S" + n) for n in names)  # spades: card number = rank index


def test_the_rows_play_can_build() -> None:
    # the empty row and the 7 * 7 runs through the 7 (A..7 by 7..K); ace high: 2..7 by 7..A
    assert len(compile_topology("low").reachable) == 1 + 7 * 7
    assert len(compile_topology("high").reachable) == 1 + 6 * 8


def test_the_order_in_which_a_row_leaves_its_seven() -> None:
    # with the 7 alone: either side, only the 8, only the 6; 6-7-8 first: 6 and 8 only
    seven = ranks("7")
    sides = ("either", "high_first", "low_first", "both_first")
    found = {s: compile_topology("low", sides=s).extensions for s in sides}
    assert found["either"][seven] == ranks("6", "8")
    assert found["high_first"][seven] == ranks("8")
    assert found["low_first"][seven] == ranks("6")
    assert found["both_first"][seven] == ranks("6", "8")
    # once the 8 is down (the 8 first), the 6 and the 9 are both open
    assert found["high_first"][ranks("7", "8")] == ranks("6", "9")
    assert found["low_first"][ranks("6", "7")] == ranks("5", "8")
    # 6-7-8 first: 7-8 opens the 6 only; 6-7-8 opens the 5 and the 9
    assert found["both_first"][ranks("7", "8")] == ranks("6")
    assert found["both_first"][ranks("6", "7", "8")] == ranks("5", "9")
    # a 5 laid by a burst below a lone 7 joins nothing until the 6: the 6 still waits for the 8
    assert found["high_first"][ranks("5", "7")] == ranks("8")
    # rows play can build with the 8 first: the empty row, the 7 alone, and 1..6 cards above
    # it by 0..6 below
    assert len(compile_topology("low", sides="high_first").reachable) == 1 + 1 + 6 * 7
    with pytest.raises(ValueError, match="unknown order"):
        compile_topology("low", sides="sideways")


def test_both_ends_of_a_row_and_unopened_sevens_are_legal_together() -> None:
    hands = make_hands({0: "S7", 1: "S6 S8 H7 C7 HA H2 H3 D2 D3 D4 C2 C3 C4"}, exact={1})
    state = start("doujue", hands, ["0 S7"])
    assert legal_text(state) == {"S6", "S8", "H7", "C7"}


# -- dealing -------------------------------------------------------------------------------


def dealt_hands(profile: str, seed: int) -> list[tuple[int, ...]]:
    state = game(profile).new_state(seed=seed)
    return [state.observation(s).hand for s in range(4)]


@pytest.mark.parametrize("seed", [0, 1, 17, 2**32])
def test_same_seed_deals_the_same_hands_under_every_four_player_profile(seed: int) -> None:
    first = dealt_hands("doujue", seed)
    assert dealt_hands("doujue", seed) == first
    assert dealt_hands("pagat", seed) == first
    assert dealt_hands("bicycle", seed) == first


def test_different_seeds_deal_different_hands() -> None:
    deals = [tuple(dealt_hands("doujue", seed)) for seed in range(10)]
    assert len(set(deals)) == 10


@pytest.mark.parametrize("profile", ["doujue", "pagat", "bicycle"])
@pytest.mark.parametrize("seed", [0, 5, 99])
def test_a_deal_is_thirteen_cards_each_of_the_52_distinct_cards(profile: str, seed: int) -> None:
    hands = dealt_hands(profile, seed)
    assert [len(h) for h in hands] == [13, 13, 13, 13]
    everything = [c for h in hands for c in h]
    assert sorted(everything) == list(range(52))
    assert game(profile).new_state(seed=seed).observation(0).table == ()


# -- doujue play ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_doujue_the_s7_holder_moves_first_and_must_play_s7(seed: int) -> None:
    state = game("doujue").new_state(seed=seed)
    mover = state.current_seat()
    assert parse_card("S7") in hand_of(state, mover)
    assert legal_text(state) == {"S7"}


def test_doujue_s7_holder_with_every_seven_may_only_play_s7() -> None:
    hands = make_hands({2: "S7 H7 D7 C7"})
    state = start("doujue", hands)
    assert state.current_seat() == 2
    assert legal_text(state) == {"S7"}
    reason = state.why_illegal(parse_card("H7"))
    assert reason is not None and "S7" in reason
    with pytest.raises(IllegalAction):
        state.apply("H7")
    state.apply("S7")
    assert state.current_seat() == 3
    assert set(state.observation(3).table) == {parse_card("S7")}


def test_doujue_cover_is_refused_while_a_play_exists() -> None:
    hands = make_hands({0: "S7", 1: "S8 HA"})
    state = start("doujue", hands, ["0 S7"])
    reason = state.why_illegal(parse_action("cover HA"))
    assert reason is not None and "must play" in reason
    with pytest.raises(IllegalAction, match="must play"):
        state.apply("cover HA")
    # A pass does not exist in doujue either.
    assert "pass" not in legal_text(state)
    with pytest.raises(IllegalAction):
        state.apply("pass")


def test_doujue_stuck_player_may_cover_exactly_each_card_in_hand() -> None:
    stuck = "SA S2 S3 HA H2 H3 DA D2 D3 CA C2 C3 CK"
    hands = make_hands({0: "S7", 1: stuck}, exact={1})
    state = start("doujue", hands, ["0 S7"])
    assert state.current_seat() == 1
    assert legal_text(state) == {"cover " + c for c in stuck.split()}
    assert len(state.legal_actions()) == 13
    with pytest.raises(IllegalAction):
        state.apply("pass")
    state.apply("cover CK")
    obs = state.observation(1)
    assert parse_card("CK") not in obs.hand
    assert obs.own_covered == (parse_card("CK"),)
    assert obs.covered_counts == (0, 1, 0, 0)
    assert obs.hand_counts[1] == 12
    assert parse_card("CK") not in obs.table


def test_doujue_game_ends_only_when_every_hand_is_empty() -> None:
    for seed in range(5):
        state = game("doujue").new_state(seed=seed)
        rng = random.Random(seed)
        actions = 0
        while not state.is_terminal():
            counts = state.observation(0).hand_counts
            assert sum(counts) > 0
            assert counts[state.current_seat()] > 0
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            actions += 1
        assert state.observation(0).hand_counts == (0, 0, 0, 0)
        # Every action plays or covers one card: exactly 52 actions.
        assert actions == 52
        assert state.legal_actions() == []


def test_player_with_an_empty_hand_leaves_the_rotation() -> None:
    # Seat 1 holds only S8: after 0 S7, 1 S8 it is out and is skipped from then on.
    hands = make_hands({0: "S7", 1: "S8"}, exact={1})
    state = start("doujue", hands, ["0 S7", "1 S8"])
    assert not state.is_terminal()
    assert state.observation(0).hand_counts[1] == 0
    order = []
    rng = random.Random(3)
    while not state.is_terminal():
        order.append(state.current_seat())
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert 1 not in order
    assert order[:6] == [2, 3, 0, 2, 3, 0]
    assert state.observation(0).hand_counts == (0, 0, 0, 0)


def test_out_of_turn_action_is_refused() -> None:
    hands = make_hands({0: "S7", 1: "S8", 2: "S6"})
    state = start("doujue", hands, ["0 S7"])
    reason = state.why_illegal(parse_card("S6"), seat=2)
    assert reason is not None and "not your turn" in reason
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply("S6", seat=2)
    state.apply("S8", seat=1)


# -- pagat play ----------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["pagat", "bicycle"])
@pytest.mark.parametrize("seed", range(8))
def test_pagat_seat_zero_moves_first(profile: str, seed: int) -> None:
    state = game(profile).new_state(seed=seed)
    assert state.current_seat() == 0
    hand = hand_of(state, 0)
    sevens = {c for c in hand if card_text(c)[1:] == "7"}
    # Empty table: every 7 held is legal and nothing else; with no 7 seat 0 passes.
    expected = {card_text(c) for c in sevens} or {"pass"}
    assert legal_text(state) == expected


def test_pagat_any_seven_opens_an_empty_table() -> None:
    hands = make_hands({0: "S7 H7 D7 C7 SA S2 S3 S4 S5 S6 S8 S9 S10"}, exact={0})
    state = start("pagat", hands)
    assert legal_text(state) == {"S7", "H7", "D7", "C7"}
    state.apply("D7")
    assert set(state.observation(0).table) == {parse_card("D7")}


def test_pagat_stuck_player_may_only_pass() -> None:
    stuck = "SA S2 S3 HA H2 H3 DA D2 D3 CA C2 C3 CK"
    hands = make_hands({0: "H7", 1: stuck}, exact={1})
    state = start("pagat", hands, ["0 H7"])
    assert state.current_seat() == 1
    assert legal_text(state) == {"pass"}
    with pytest.raises(IllegalAction):
        state.apply("cover SA")
    state.apply("pass")
    obs = state.observation(2)
    assert obs.pass_counts == (0, 1, 0, 0)
    assert obs.hand_counts[1] == 13
    assert state.current_seat() == 2


def test_pagat_pass_is_refused_while_a_play_exists() -> None:
    hands = make_hands({0: "H7", 1: "H8"})
    state = start("pagat", hands, ["0 H7"])
    assert "pass" not in legal_text(state)
    reason = state.why_illegal(parse_action("pass"))
    assert reason is not None and "must play" in reason
    with pytest.raises(IllegalAction, match="must play"):
        state.apply("pass")


@pytest.mark.parametrize("profile", ["pagat", "bicycle"])
def test_pagat_game_ends_when_a_player_lays_the_last_card(profile: str) -> None:
    # Seat 1 holds only H8 and goes out on its first turn; everyone else still holds cards.
    hands = make_hands({0: "H7", 1: "H8"}, exact={1})
    state = start(profile, hands, ["0 H7"])
    assert not state.is_terminal()
    state.apply("H8")
    assert state.is_terminal()
    assert state.legal_actions() == []
    result = state.result()
    assert result.winners == (1,)
    assert result.rank[1] == 1
    assert all(result.rank[s] != 1 for s in (0, 2, 3))
    assert state.observation(0).hand_counts == (16, 0, 17, 17)
    with pytest.raises(IllegalAction):
        state.apply("H6")


def test_pagat_random_games_end_at_the_first_player_out() -> None:
    for seed in range(10):
        state = game("pagat").new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert 0 not in state.observation(0).hand_counts
            mover = state.current_seat()
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        counts = state.observation(0).hand_counts
        assert counts.count(0) == 1
        assert counts[mover] == 0
        result = state.result()
        assert result.winners == (mover,)
        assert result.rank[mover] == 1


def test_result_is_refused_before_the_end() -> None:
    state = game("pagat").new_state(seed=1)
    with pytest.raises(ValueError):
        state.result()


# -- observations --------------------------------------------------------------------------


def test_observation_hides_other_hands_and_covered_cards() -> None:
    stuck = "SA S2 S3 HA H2 H3 DA D2 D3 CA C2 C3 CK"
    hands = make_hands({0: "S7", 1: stuck}, exact={1})
    state = start("doujue", hands, ["0 S7", "1 cover CK"])
    ck = parse_card("CK")

    own = state.observation(1)
    assert set(own.hand) == set(cards(stuck)) - {ck}
    assert own.own_covered == (ck,)
    # every seat sees covers hidden in the history; its own covered cards are its own
    assert own.history.texts() == ((0, "S7"), (1, "cover"))

    for seat in (0, 2, 3):
        obs = state.observation(seat)
        assert set(obs.hand) == set(hands[seat]) - ({parse_card("S7")} if seat == 0 else set())
        assert obs.own_covered == ()
        assert obs.covered_counts == (0, 1, 0, 0)
        assert obs.hand_counts == state.observation(1).hand_counts == (12, 12, 13, 13)
        assert obs.history == own.history
        assert obs.history.texts() == ((0, "S7"), (1, "cover"))
        assert "CK" not in repr(obs.history)
        assert ck not in {a - COVER for _, a in obs.history}
        seen = set(obs.hand) | set(obs.table) | set(obs.own_covered)
        assert ck not in seen
        assert not seen & set(hands[1])

    # Only the player to move sees legal actions.
    assert state.current_seat() == 2
    assert state.observation(2).legal != ()
    assert state.observation(0).legal == ()
    assert state.observation(1).legal == ()


def test_observation_legal_matches_legal_actions() -> None:
    state = game("doujue").new_state(seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        seat = state.current_seat()
        obs = state.observation(seat)
        assert list(obs.legal) == state.legal_actions()
        assert obs.turn == seat
        state.apply(obs.legal[rng.randrange(len(obs.legal))])
    assert state.observation(0).terminal


# -- actions as text and illegal actions ---------------------------------------------------


def test_text_actions_apply() -> None:
    hands = make_hands({0: "H7", 1: "H8", 2: "HA S2 S3 S4 S5 S6 D2 D3 D4 D5 C2 C3 C4"}, exact={2})
    state = start("pagat", hands)
    state.apply("H7")
    state.apply("play H8")
    state.apply("pass")
    assert state.observation(0).history.texts() == ((0, "H7"), (1, "H8"), (2, "pass"))
    assert set(state.observation(0).table) == set(cards("H7 H8"))


def test_illegal_action_raises_with_a_reason_and_changes_nothing() -> None:
    hands = make_hands({0: "S7", 1: "S8 HK"})
    state = start("doujue", hands, ["0 S7"])
    before = state.observation(1)
    with pytest.raises(IllegalAction) as info:
        state.apply("HK")
    assert str(info.value)
    assert str(info.value) == state.why_illegal(parse_card("HK"))
    # A card that is not in the hand.
    with pytest.raises(IllegalAction, match="not in"):
        state.apply("S6")
    assert state.observation(1) == before
    assert issubclass(IllegalAction, ValueError)


def test_unparseable_action_text_raises_value_error() -> None:
    state = game("doujue").new_state(seed=0)
    with pytest.raises(ValueError):
        state.apply("play the seven")


# -- platform: the door card -----------------------------------------------------------------


def test_platform_door_card_c2_the_c7_holder_moves_first_and_only_c7_is_legal() -> None:
    hands = make_hands({2: "C7 S7 H7 D7", 0: "C6", 1: "C8"})
    state = game("platform").new_state(hands=hands, door_card=parse_card("C2"))
    assert state.door_card == parse_card("C2")
    assert state.first_card == parse_card("C7")
    assert state.current_seat() == 2
    assert legal_text(state) == {"C7"}
    for other in ("S7", "H7", "D7"):
        reason = state.why_illegal(parse_card(other))
        assert reason is not None and "C7" in reason
    with pytest.raises(IllegalAction):
        state.apply("C6", seat=0)
    state.apply("C7", seat=2)
    assert state.current_seat() == 3
    assert set(state.observation(3).table) == {parse_card("C7")}
    assert state.observation(3).opened == (3,)


@pytest.mark.parametrize(
    ("door", "seven"), [("SK", "S7"), ("HA", "H7"), ("D7", "D7"), ("C10", "C7")]
)
def test_platform_the_door_suit_decides_the_first_seven(door: str, seven: str) -> None:
    # Seat s holds the 7 of suit s.
    hands = make_hands({0: "S7", 1: "H7", 2: "D7", 3: "C7"})
    state = start("platform", hands, door=door)
    assert state.current_seat() == parse_card(seven) // 13
    assert legal_text(state) == {seven}


@pytest.mark.parametrize("seed", range(12))
def test_platform_a_dealt_game_cuts_a_door_card_from_its_seed(seed: int) -> None:
    state = game("platform").new_state(seed=seed)
    door = state.door_card
    assert door is not None and 0 <= door < 52
    seven = 13 * (door // 13) + 6
    assert seven in hand_of(state, state.current_seat())
    assert state.legal_actions() == [seven]
    # The same seed cuts the same door card, with or without the hands given.
    assert game("platform").new_state(seed=seed).door_card == door
    again = game("platform").new_state(seed=seed, hands=game("platform").deal(seed))
    assert again.door_card == door
    assert Game("platform-zhanlong").new_state(seed=seed).door_card == door


def test_platform_door_cards_vary_with_the_seed() -> None:
    doors = {game("platform").new_state(seed=seed).door_card for seed in range(40)}
    assert len(doors) > 10
    assert {d // 13 for d in doors if d is not None} == {0, 1, 2, 3}


def test_platform_without_a_door_card_or_seed_is_refused() -> None:
    with pytest.raises(ValueError, match="door card"):
        game("platform").new_state(hands=make_hands({}))


def test_doujue_has_no_door_card() -> None:
    state = game("doujue").new_state(seed=3)
    assert state.door_card is None
    assert state.first_card == parse_card("S7")


# -- platform: covering ----------------------------------------------------------------------


def test_platform_stuck_player_covers_any_card_of_the_hand() -> None:
    stuck = "SA S2 S3 HA H2 H3 DA D2 D3 CA C2 C3 CK"
    hands = make_hands({0: "S7", 1: stuck}, exact={1})
    state = start("platform", hands, ["0 S7"], door="S2")
    assert state.current_seat() == 1
    assert legal_text(state) == {"cover " + c for c in stuck.split()}
    state.apply("cover CK")
    assert state.observation(1).own_covered == (parse_card("CK"),)


def test_platform_cover_never_offers_a_seven() -> None:
    # A stuck player never holds a 7 (it would be playable), so the rule only shows in the
    # stuck hook itself: 7s are left out of the covers, unlike 鬥雀's.
    hand = mask_of(cards("S7 HK D2 C7"))
    platform_covers = game("platform").rules.stuck.actions(GivenSeat(hand))
    assert sorted(action_text(a) for a in platform_covers) == ["cover D2", "cover HK"]
    doujue_covers = game("doujue").rules.stuck.actions(GivenSeat(hand))
    assert sorted(action_text(a) for a in doujue_covers) == sorted(
        "cover " + c for c in ("S7", "HK", "D2", "C7")
    )
    assert all(a >= COVER for a in platform_covers)


# -- platform: 斬龍 and closures -------------------------------------------------------------

HEARTS_DOWN = ["0 H7", "1 H6", "2 H5", "3 H4", "0 H3", "1 H2", "2 HA"]


def hearts_down_hands() -> list[list[int]]:
    return make_hands({0: "H7 H3", 1: "H6 H2", 2: "H5 HA", 3: "H4 H8 H9"})


def test_zhanlong_an_ace_on_hearts_2_to_7_cuts_hearts() -> None:
    state = start("platform-zhanlong", hearts_down_hands(), HEARTS_DOWN, door="H2")
    assert set(state.observation(3).table) == set(cards("HA-H7"))
    assert state.current_seat() == 3
    assert "H8" not in legal_text(state)
    reason = state.why_illegal(parse_card("H8"))
    assert reason is not None and "not legal" in reason
    # The cut is logged by itself right after the play, by the seat that played the ace.
    assert state.log[-2:] == [(2, parse_card("HA")), (2, CUT + 1)]
    assert state.observation(0).history.texts()[-2:] == ((2, "HA"), (2, "cut H"))
    # Hearts were opened first: the closure is worth the door suit's order, 1.
    assert state.completions == [[], [], [1], []]
    with pytest.raises(IllegalAction):
        state.apply(CUT + 1, seat=3)


def test_jielong_the_same_ace_leaves_hearts_open_above() -> None:
    state = start("platform", hearts_down_hands(), HEARTS_DOWN, door="H2")
    assert "H8" in legal_text(state)
    assert state.log[-1] == (2, parse_card("HA"))
    assert all(a < CUT for _, a in state.log)
    assert state.completions == [[], [], [], []]


def test_zhanlong_a_king_cuts_the_row_below_too() -> None:
    # Spades 7..K: the K closes spades, so S6 no longer fits below S7.
    hands = make_hands({0: "S7 SJ", 1: "S8 SQ", 2: "S9 SK", 3: "S10 S6"})
    moves = ["0 S7", "1 S8", "2 S9", "3 S10", "0 SJ", "1 SQ", "2 SK"]
    state = start("platform-zhanlong", hands, moves, door="S3")
    assert state.current_seat() == 3
    assert "S6" not in legal_text(state)
    assert state.log[-1] == (2, CUT + 0)
    assert state.completions[2] == [1]


# Door suit clubs (order 1); hearts opened second, then completed by seat 1's HA.
HEARTS_FULL = {0: "C7 H9 HJ HK", 1: "H7 H5 H3 HA", 2: "H8 H10 HQ", 3: "H6 H4 H2"}
HEARTS_FULL_MOVES = [
    "0 C7", "1 H7", "2 H8", "3 H6", "0 H9", "1 H5", "2 H10",
    "3 H4", "0 HJ", "1 H3", "2 HQ", "3 H2", "0 HK", "1 HA",
]  # fmt: skip


def test_jielong_completion_gives_the_order_of_the_suits_seven() -> None:
    state = start("platform", make_hands(HEARTS_FULL), HEARTS_FULL_MOVES, door="C2")
    assert set(cards("HA-HK")) <= set(state.observation(0).table)
    assert state.observation(0).opened == (3, 1)
    assert state.completions == [[], [2], [], []]
    assert all(a < CUT for _, a in state.log)


def test_zhanlong_the_king_closes_hearts_before_the_ace() -> None:
    moves = HEARTS_FULL_MOVES[:-1]
    state = start("platform-zhanlong", make_hands(HEARTS_FULL), moves, door="C2")
    assert state.completions == [[2], [], [], []]
    assert state.log[-1] == (0, CUT + 1)
    assert state.current_seat() == 1
    assert "HA" not in legal_text(state)


@pytest.mark.parametrize("size", [52, 53])
def test_the_deal_shuffles_as_random_shuffle_does(size: int) -> None:
    for seed in (0, 1, 7, 2**32 + 5, 10**12):
        expected = list(range(size))
        random.Random(seed).shuffle(expected)
        rng = random.Random(seed)
        assert shuffled(range(size), rng) == expected
        # the stream is left where shuffle leaves it: agents draw next from it
        after = random.Random(seed)
        after.shuffle(list(range(size)))
        assert rng.getrandbits(32) == after.getrandbits(32)


def test_every_documented_refusal_category_is_what_the_engine_says() -> None:
    """docs/verifying.md lists the categories that refusals start with; each one is produced
    by the situation the table describes, and nothing else starts a reason."""
    import re

    from paiqi_core.engine.reasons import CATEGORIES

    doc = (ROOT / "docs" / "verifying.md").read_text(encoding="utf-8")
    table = doc.split("| Category | When |")[1].split("\n\n")[0]
    documented = re.findall(r"^\| `([a-z ]+)` \| ", table, flags=re.M)
    assert set(documented) == set(CATEGORIES)
    hands = make_hands({0: "S7 HK", 1: "S8 D2", 2: "S9"})
    state = start("doujue", hands)
    reasons = {
        "not your turn": state.why_illegal(parse_card("S8"), seat=1),
        "not in hand": state.why_illegal(parse_card("H7")),
        "must play when able": state.why_illegal(COVER + parse_card("HK")),
        "not an action": state.why_illegal(CUT + 1),
    }
    state.apply("S7")
    reasons["not legal"] = state.why_illegal(parse_card("D2"))
    finished = game("pagat").new_state(seed=1)
    finished.play_random(random.Random(1))
    reasons["game over"] = finished.why_illegal(PASS)
    for category, reason in reasons.items():
        assert reason is not None and reason.startswith(category + ": "), (category, reason)
