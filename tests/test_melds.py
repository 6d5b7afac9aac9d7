"""The meld exemption of the 斬龍/點差 platform (RULES.md section 2), by hand and by property.

Covered cards forming a 同花順 (five consecutive ranks of one suit, the ace below the 2:
A-2-3-4-5 yes, 10-J-Q-K-A no), a 鐵支 (four of a rank) or a 葫蘆 (three of a rank and a pair)
are not counted; a card serves one meld; the choice maximises (#同花順, #鐵支, #葫蘆,
exempted points) in that order. The rule core's scoring is the one implementation
(``core.scoring.exempt_points``, here as plain Python; the compiled copy is held to it in
test_fast); ``best_melds`` in test_properties is the brute-force model, which also says how
many melds of each kind the best choice holds.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiqi_core import parse_cards
from paiqi_core.core.plain import scoring

from .test_properties import SEVEN, points
from .test_properties import best_melds as model_best_melds

NOT_SEVENS = [c for c in range(52) if c % 13 != SEVEN]


def exempt_points(cards: Sequence[int]) -> int:
    """The covered points the rule core does not count."""
    return int(scoring.exempt_points(sum(1 << c for c in cards)))


def kind_counts(cards: Sequence[int]) -> tuple[int, int, int]:
    """How many 同花順, 鐵支 and 葫蘆 the best choice holds (the model's count)."""
    s, f, h, _ = model_best_melds(cards)
    return (s, f, h)


# -- by hand -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "exempt", "counted"),
    [
        # The seed's example: the straight flush A-5 is exempt, the three other aces count.
        ("SA S2 S3 S4 S5 HA DA CA", 15, 3),
        # 10-J-Q-K-A does not wrap: no straight flush, nothing exempt.
        ("S10 SJ SQ SK SA", 0, 10 + 11 + 12 + 13 + 1),
        # KKK + QQ (63) beats QQQ + KK (62); the odd Q counts.
        ("SK HK DK SQ HQ DQ", 39 + 24, 12),
        ("S6 H6 D6 C6", 24, 0),
        # Straight flush A-5 and four 6s (rather than 2-6, which would break the four).
        ("SA S2 S3 S4 S5 S6 H6 D6 C6", 39, 0),
        ("SA S2 S3 S4 S5 S6", 20, 1),  # one straight flush either way: 2-6 exempts more
        ("S9 S10 SJ SQ SK", 55, 0),  # 9-K is the highest straight flush
        ("H2 H3 H4 H5 S6", 0, 20),  # not one suit
        ("SA HA DA S2 H2", 7, 0),  # full house
        ("SA HA S2 H2 D3", 0, 9),  # two pairs are no meld
        ("", 0, 0),
    ],
)
def test_exemption_by_hand(cards: str, exempt: int, counted: int) -> None:
    covered = parse_cards(cards)
    assert exempt_points(covered) == exempt
    assert sum(map(points, covered)) - exempt == counted
    assert model_best_melds(covered)[3] == exempt


def test_a_straight_flush_takes_priority_over_a_four_of_a_kind() -> None:
    # S2-S6 with four 6s: the straight flush 2-6 uses S6, and the 6s are no longer four.
    cards = parse_cards("S2 S3 S4 S5 S6 H6 D6 C6")
    assert kind_counts(cards) == (1, 0, 0)
    assert exempt_points(cards) == 20


def test_a_four_of_a_kind_takes_priority_over_a_full_house() -> None:
    # Four 2s and a pair of kings: 鐵支 (8) rather than 葫蘆 222 + KK (32).
    cards = parse_cards("S2 H2 D2 C2 SK HK")
    assert kind_counts(cards) == (0, 1, 0)
    assert exempt_points(cards) == 8


def test_two_full_houses_beat_one_with_more_points() -> None:
    # 333 + AA and KKK + 22: two full houses, whatever pairs go with which three.
    cards = parse_cards("S3 H3 D3 SA HA SK HK DK S2 H2")
    assert kind_counts(cards) == (0, 0, 2)
    assert exempt_points(cards) == 9 + 2 + 39 + 4


def test_every_card_of_thirteen_can_be_exempt() -> None:
    # A-5 spades, four 8s, four 9s: 5 + 4 + 4 = 13 cards, all exempt.
    cards = parse_cards("SA-S5 S8 H8 D8 C8 S9 H9 D9 C9")
    assert kind_counts(cards) == (1, 2, 0)
    assert exempt_points(cards) == sum(map(points, cards))


# -- properties ----------------------------------------------------------------------------


def _run_and_its_rank(suit: int, low: int) -> list[int]:
    """Six cards in a row of one suit from ``low`` (skipping the 7), and the other three
    cards of the run's last rank: straight flushes and a four that compete."""
    run = [13 * suit + r for r in range(low, low + 6) if r != SEVEN]
    last = run[-1] % 13
    return run + [13 * s + last for s in range(4) if s != suit]


def _meld_rich() -> st.SearchStrategy[list[int]]:
    """Up to 13 non-7 cards, drawn from a few ranks or a run so that melds are common."""
    ranks = st.sets(st.sampled_from([r for r in range(13) if r != SEVEN]), min_size=1, max_size=4)
    few_ranks = ranks.map(lambda rs: [c for c in NOT_SEVENS if c % 13 in rs])
    runs = st.builds(_run_and_its_rank, st.integers(0, 3), st.sampled_from([0, 7]))
    pool = st.one_of(few_ranks, runs, st.just(NOT_SEVENS))
    return pool.flatmap(
        lambda cards: st.lists(st.sampled_from(cards), unique=True, max_size=min(13, len(cards)))
    )


COVERED = _meld_rich()


@settings(max_examples=300, deadline=None)
@given(cards=COVERED)
def test_the_exemption_is_the_best_choice_by_brute_force(cards: list[int]) -> None:
    assert exempt_points(cards) == model_best_melds(cards)[3]
    assert 0 <= exempt_points(cards) <= sum(map(points, cards))


def _without_melds(cards: list[int]) -> list[int]:
    """Keep the cards in order while no rank reaches 3 and no suit holds 5 in a row."""
    kept: list[int] = []
    for c in cards:
        trial = [*kept, c]
        if sum(1 for k in trial if k % 13 == c % 13) >= 3:
            continue
        ranks = {k % 13 for k in trial if k // 13 == c // 13}
        if any(all(r in ranks for r in range(low, low + 5)) for low in range(9)):
            continue
        kept = trial
    return kept


@settings(max_examples=200, deadline=None)
@given(cards=st.lists(st.sampled_from(NOT_SEVENS), unique=True, max_size=20).map(_without_melds))
def test_cards_without_a_meld_exempt_nothing(cards: list[int]) -> None:
    assert kind_counts(cards) == (0, 0, 0)
    assert exempt_points(cards) == 0


@settings(max_examples=200, deadline=None)
@given(cards=COVERED, extra=st.lists(st.sampled_from(NOT_SEVENS), unique=True, max_size=6))
def test_adding_cards_never_lowers_the_melds_chosen(cards: list[int], extra: list[int]) -> None:
    """More cards allow every choice the fewer cards allowed: the number of straight flushes
    never falls, nor (#同花順, #鐵支, #葫蘆) in the rules' order of priority."""
    more = sorted(set(cards) | set(extra))
    before, after = kind_counts(cards), kind_counts(more)
    assert after[0] >= before[0]
    assert after >= before
    if after[:3] == before[:3]:
        assert exempt_points(more) >= exempt_points(cards)


def test_the_order_of_the_cards_does_not_matter() -> None:
    cards = parse_cards("SK HK DK SQ HQ DQ S2 H2")
    assert exempt_points(cards) == exempt_points(list(reversed(cards)))
