"""Another play after a card that ends its row's line (``turn.extra_after_end``, Sjuan and
Ristiseiska): what the documented examples in docs/variants/house.md leave out. Expected
values are worked out by hand from the positions."""

from __future__ import annotations

import pytest

from paiqi_core import Game
from paiqi_core.cards import parse_card
from paiqi_core.engine import IllegalAction, State

SEVENS = ("S7", "H7", "D7", "C7")


def position(game: Game, table: list[str], hands: list[list[str]], turn: int = 0) -> State:
    masks = [sum(1 << parse_card(c) for c in h) for h in hands]
    return State(game, masks, table=sum(1 << parse_card(c) for c in table), turn=turn)


SPADES_TO_QUEEN = ["S8", "S9", "S10", "SJ", "SQ", *SEVENS]
HANDS = [["SK", "H8", "CQ"], ["S6", "H9"], ["D8", "D9"], ["C8", "C9"]]


def test_a_stop_is_not_a_pass_for_the_stall_rule() -> None:
    # passes by choice, a stall after one round: 甲's stop after SK does not start the
    # count, so the game ends only after a full round of four real passes
    game = Game("pagat", ["turn.extra_after_end=may", "layout.ace=low",
                          "turn.must_play=false", "ending.stall=1"])  # fmt: skip
    state = position(game, SPADES_TO_QUEEN, HANDS)
    state.apply("SK")
    state.apply("pass")  # the stop
    assert state.idle == 0 and state.passes == [0, 0, 0, 0] and state.turn == 1
    for _ in range(3):  # 乙, 丙, 丁 pass
        state.apply("pass")
        assert not state.is_terminal()
    state.apply("pass")  # 甲: the fourth pass in a row
    assert state.is_terminal() and state.stalled
    assert state.passes == [1, 1, 1, 1]


def test_under_must_a_pass_is_refused_with_the_reason() -> None:
    game = Game("pagat", ["turn.extra_after_end=must", "layout.ace=low"])
    state = position(game, SPADES_TO_QUEEN, HANDS)
    state.apply("SK")
    assert state.extra_play and state.legal_actions() == [parse_card("H8")]
    with pytest.raises(IllegalAction, match=r"^must play when able: after a card that ends"):
        state.apply("pass")
    assert state.extra_play and state.turn == 0  # nothing changed


def test_no_extra_play_where_rows_wrap_or_the_rule_is_off() -> None:
    wrap = ["turn.extra_after_end=may", "layout.ace=low", "layout.ace_king=wrap"]
    for sets in (["layout.ace=low"], wrap):
        state = position(Game("pagat", sets), SPADES_TO_QUEEN, HANDS)
        state.apply("SK")
        assert not state.extra_play and state.turn == 1, sets


def test_the_ace_high_line_ends_at_the_two_and_the_ace() -> None:
    # Pagat's own rows (ace high): S2 ends the line downwards, SA upwards; SK does not
    game = Game("pagat", ["turn.extra_after_end=may"])
    down = position(game, ["S3", "S4", "S5", "S6", *SEVENS], [["S2", "H8"], ["H9"], ["D8"], ["C8"]])
    down.apply("S2")
    assert down.extra_play and down.turn == 0
    up = ["S8", "S9", "S10", "SJ", "SQ", *SEVENS]
    king = position(game, up, [["SK", "H8"], ["H9"], ["D8"], ["C8"]])
    king.apply("SK")
    assert not king.extra_play and king.turn == 1


def test_a_burst_rule_does_not_burst_a_player_who_stops() -> None:
    # 七並べ with a pass limit: 甲, out of passes, lays SK and stops; the stop uses no pass,
    # so 甲 is not out of the game for it and still holds H9 (no burst)
    game = Game("shichinarabe", ["turn.extra_after_end=may", "turn.pass_limit=1"])
    hands = [["SK", "H8", "H10"], ["S6", "H9"], ["D8", "D9"], ["C8", "C9"]]
    masks = [sum(1 << parse_card(c) for c in h) for h in hands]
    table = sum(1 << parse_card(c) for c in SPADES_TO_QUEEN)
    state = State(game, masks, table=table, turn=0, passes=[1, 0, 0, 0])
    state.apply("SK")
    state.apply("pass")
    assert state.passes == [1, 0, 0, 0] and state.bursts == [] and state.turn == 1
