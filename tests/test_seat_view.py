"""What a stuck rule is shown (``slots.SeatView``): the seat to move, read only, with its
covers and passes counted and the public history; and stuck rules of the first form,
``actions(hand, passes_used)``, still work unchanged.

The house rule played here, written for these tests: a stuck player covers a card, but at
most two a game; a player who has covered two passes instead. The expected legal actions
follow from that rule and the hands given."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pytest

from paiqi_core import Game
from paiqi_core.actions import COVER, HIDDEN_COVER, PASS, action_text
from paiqi_core.cards import JOKER, bits, mask_of, parse_card
from paiqi_core.hooks import registry
from paiqi_core.hooks.registry import register
from paiqi_core.slots import GivenSeat, HandAndPasses, SeatView, Stuck


class TwoCoversThenPass(Stuck):
    """Cover any card while fewer than two are covered; then pass."""

    name = "cover"
    covers = True
    seen: ClassVar[list[tuple[int, int, int, int]]] = []  # seat, covers, passes, history

    def actions(self, seat: SeatView) -> Sequence[int]:
        TwoCoversThenPass.seen.append(
            (seat.seat, seat.covers_used, seat.passes_used, len(seat.history))
        )
        if seat.covers_used >= 2:
            return [PASS]
        return [COVER + c for c in bits(seat.hand) if c < JOKER]


class FirstForm(Stuck):
    """Written for the first form: cover the lowest card; a pass after one pass used is
    never offered (it sees the passes used)."""

    name = "cover"
    covers = True

    def actions(self, hand: int, passes_used: int) -> list[int]:  # type: ignore[override]
        return [COVER + min(c for c in bits(hand) if c < JOKER)]

    def voluntary(self, hand: int, passes_used: int) -> list[int]:  # type: ignore[override]
        return [PASS] if passes_used < 1 else []


@pytest.fixture
def hooks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(registry._REGISTRY, "stuck", dict(registry._REGISTRY["stuck"]))
    register("stuck", "two_covers_then_pass", summary="at most two covers, then passes")(
        lambda p: TwoCoversThenPass()
    )
    register("stuck", "first_form", summary="covers the lowest card")(lambda p: FirstForm())
    TwoCoversThenPass.seen.clear()
    yield


def texts(actions: Sequence[int]) -> list[str]:
    return [action_text(a) for a in actions]


def test_a_stuck_rule_counts_the_covers_its_seat_made(hooks: Any) -> None:
    game = Game("doujue", {"turn.stuck": "two_covers_then_pass"})
    # seat 1 holds nothing that fits the table (S7 alone) but for S8 at its third turn
    state = game.new_state(
        hands=[
            [parse_card(c) for c in ["S7", "H2", "H3", "H4"]],
            [parse_card(c) for c in ["HA", "D2", "D3", "S9"]],
            [parse_card(c) for c in ["C2", "C3", "C4", "S8"]],
            [parse_card(c) for c in ["CA", "DA", "SA", "SK"]],
        ]
    )
    state.apply("S7")
    assert state.turn == 1
    assert texts(state.legal_actions()) == ["cover S9", "cover HA", "cover D2", "cover D3"]
    state.apply("cover HA")
    state.apply("S8")  # seat 2
    state.apply("cover CA")  # seat 3: stuck too
    state.apply("cover H2")  # seat 0
    assert texts(state.legal_actions()) == ["S9"]  # seat 1 may play now
    state.apply("S9")
    state.apply("cover C2")
    state.apply("cover DA")
    state.apply("cover H3")
    # seat 1 stuck again, one cover made: it may cover again
    assert texts(state.legal_actions()) == ["cover D2", "cover D3"]
    state.apply("cover D2")
    state.apply("cover C3")
    assert texts(state.legal_actions()) == ["pass"]  # seat 3: two covers made, so it passes
    state.apply("pass")
    # seat 0 has covered two as well
    assert texts(state.legal_actions()) == ["pass"]
    # the rule was shown each seat's own counts and the whole public history
    seat, covers, passes, history = TwoCoversThenPass.seen[-1]
    assert (seat, covers, passes) == (0, 2, 0)
    assert history == len(state.log)


def test_the_view_is_read_only_and_hides_the_others_covers(hooks: Any) -> None:
    game = Game("doujue")
    state = game.new_state(
        hands=[[parse_card("S7"), parse_card("HK")], [parse_card("DK")], [parse_card("CK")], []]
    )
    state.apply("S7")
    state.apply("cover DK")
    view = state.seat_view(2)
    assert view.hand == mask_of([parse_card("CK")]) and view.covered == 0
    assert view.table == mask_of([parse_card("S7")])
    assert view.hand_counts == (1, 0, 1, 0)
    assert view.history == ((0, parse_card("S7")), (1, HIDDEN_COVER))
    assert state.seat_view(1).covers_used == 1
    with pytest.raises(AttributeError):
        view.hand = 0  # type: ignore[misc]


def test_a_stuck_rule_of_the_first_form_still_works(hooks: Any) -> None:
    game = Game("doujue", {"players": 3, "turn.stuck": "first_form", "turn.must_play": False})
    assert isinstance(game.rules.stuck, HandAndPasses)
    assert game.rules.stuck.name == "cover"  # what it declares is its own
    state = game.new_state(
        hands=[
            [parse_card(c) for c in ["S7", "S8"]],
            [parse_card(c) for c in ["H2", "D5"]],
            [parse_card(c) for c in ["HK", "DK"]],
        ]
    )
    state.apply("S7")
    assert texts(state.legal_actions()) == ["cover H2"]  # stuck: the lowest card
    state.apply("cover H2")
    state.apply("cover HK")
    # seat 0 may play S8, or pass by choice while no pass is used
    assert texts(state.legal_actions()) == ["S8", "pass"]
    state.apply("pass")
    assert texts(state.legal_actions()) == ["cover D5"]
    # asked outside a game, with the facts given
    assert texts(game.rules.stuck.voluntary(GivenSeat(passes_used=1))) == []
    assert texts(game.rules.stuck.actions(GivenSeat(mask_of([parse_card("D9")])))) == ["cover D9"]


class PlaysWhenStuck(Stuck):
    """Broken on purpose: answers a play, which no stuck rule may offer."""

    name = "cover"

    def actions(self, seat: SeatView) -> Sequence[int]:
        return [parse_card("SK")]


def test_a_stuck_rule_that_answers_a_play_is_named_in_the_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(registry._REGISTRY, "stuck", dict(registry._REGISTRY["stuck"]))
    register("stuck", "plays_when_stuck", summary="broken")(lambda p: PlaysWhenStuck())
    game = Game("doujue", {"turn.stuck": "plays_when_stuck"})
    hands = [["S7", "HK"], ["DK"], ["CK"], ["SK"]]
    state = game.new_state(hands=[[parse_card(c) for c in h] for h in hands])
    state.apply("S7")  # seat 1 is stuck: the rule is asked, and answers SK
    with pytest.raises(ValueError, match=r"the stuck rule 'plays_when_stuck' answered 12: "):
        state.legal_actions()
