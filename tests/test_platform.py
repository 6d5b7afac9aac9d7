"""The 斬龍/點差 platform (RULES.md section 2): money, settlements, fee and records.

Settlements are checked by hand from the seed's tables and small constructed results, and by
property against the model of the rules in test_properties (``expected_platform``), both on
random games of every mode × settlement and on random end-of-game facts fed to the scorer.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from paiqi_core import Game, card_text, parse_card, parse_cards
from paiqi_core.outcome import PlayerOutcome, Result
from paiqi_core.records import replay, state_record

from .test_properties import (
    RECORD_SCHEMA,
    SEEDS,
    SEVEN,
    Facts,
    Rules,
    by_rng,
    check_result,
    expected_platform,
    play,
)

MODES = ["platform", "platform-zhanlong"]
SETTLEMENTS = ["heads", "difference"]

_GAMES: dict[tuple[str, tuple[str, ...]], Game] = {}


def game(profile: str, *overrides: str) -> Game:
    key = (profile, overrides)
    if key not in _GAMES:
        _GAMES[key] = Game(profile, list(overrides))
    return _GAMES[key]


def outcome(
    covered: str = "",
    *,
    last: str | None = None,
    closures: Sequence[int] = (),
) -> PlayerOutcome:
    """End-of-game facts of a seat that emptied its hand: the covered cards, the card whose
    play emptied it (None: a cover did), and the opening orders of the suits it closed."""
    cards = tuple(sorted(parse_cards(covered)))
    return PlayerOutcome(
        covered=cards,
        played=13 - len(cards),
        last_play=None if last is None else parse_card(last),
        completions=tuple(closures),
        finish=0,
        hand_left=0,
        hand_size=13,
    )


def all_covered(covered: str) -> PlayerOutcome:
    cards = tuple(sorted(parse_cards(covered)))
    assert len(cards) == 13
    return PlayerOutcome(covered=cards, played=0, last_play=None, hand_left=0, hand_size=13)


def score(outcomes: Sequence[PlayerOutcome], *overrides: str) -> Result:
    return game("platform", *overrides).rules.scoring.score(outcomes)


# -- the seed's settlement tables ----------------------------------------------------------

# Players A, B, C, D; covered cards as in the seed (suits chosen freely, no melds).
SEED_PLAIN = [
    outcome("SA S2", last="S3"),  # -3
    outcome("HA HQ H3 HK", last="S4"),  # -29
    outcome("DA DK", last="S5"),  # -14
    outcome("C2 CJ CQ", last="S6"),  # -25
]
SEED_BUST = [
    outcome("SA", last="S3", closures=[1]),  # -1 + 接龍 of the door suit (+4) = 3
    outcome("SJ SQ SK S3 HQ HK", last="S4"),  # -64, a bust
    outcome("DA DK D3 DQ", last="S5"),  # -29
    outcome("C2 H2 CJ", last="S6"),  # -15
]


@pytest.mark.parametrize(
    ("outcomes", "settlement", "totals", "labels", "money"),
    [
        (SEED_PLAIN, "heads", [-3, -29, -14, -25], ["winner", "大頭", "小頭", "中頭"],
         [300, -150, -50, -100]),
        (SEED_PLAIN, "difference", [-3, -29, -14, -25], ["winner", "大頭", "小頭", "中頭"],
         [590, -260, -110, -220]),
        (SEED_BUST, "heads", [3, -64, -29, -15], ["winner", "大頭", "中頭", "小頭"],
         [450, -300, -100, -50]),
        (SEED_BUST, "difference", [3, -64, -29, -15], ["winner", "大頭", "中頭", "小頭"],
         [1840, -1340, -320, -180]),
    ],
)  # fmt: skip
def test_the_seed_settlement_tables(
    outcomes: list[PlayerOutcome],
    settlement: str,
    totals: list[int],
    labels: list[str],
    money: list[int],
) -> None:
    result = score(outcomes, f"scoring.settlement={settlement}")
    assert list(result.total or ()) == totals
    assert list(result.labels or ()) == labels
    assert list(result.money) == money
    assert result.winners == (0,)
    assert result.house == 0


def test_the_seed_ranking_of_clean_all_covered_and_last_seven() -> None:
    # 脫手 +10, 十三蓋 +13, 尾張七 +15: the last seven wins, then 十三蓋, then 脫手.
    result = score(
        [
            outcome(last="S8"),
            all_covered("SA S2 S3 S4 S5 S6 S8 S9 S10 SJ SQ SK HA"),
            outcome(last="H7"),
            outcome("HK HQ", last="D8"),
        ]
    )
    assert list(result.total or ()) == [10, 13, 15, -25]
    assert list(result.labels or ()) == ["中頭", "小頭", "winner", "大頭"]
    # Heads × 5 for the 尾張七 winner: 100, 50, 150.
    assert list(result.money) == [-500, -250, 1500, -750]


def test_the_seed_ranking_of_clean_with_two_closures_over_last_seven() -> None:
    # 脫手 + 接龍 of the 1st and 3rd suits opened: 10 + 4 + 2 = 16 beats 尾張七 15.
    result = score(
        [
            outcome(last="S8", closures=[1, 3]),
            outcome(last="H7"),
            outcome("DA", last="D8"),
            outcome("DK", last="C8"),
        ]
    )
    assert list(result.total or ()) == [16, 15, -1, -13]
    assert list(result.labels or ()) == ["winner", "小頭", "中頭", "大頭"]
    assert list(result.money) == [600, -100, -200, -300]  # × 2 for the 脫手 winner


def test_closure_bonus_by_opening_order() -> None:
    # Suits opened 1st..4th are worth 4, 1, 2, 3.
    result = score(
        [
            outcome("SA", last="S8", closures=[2]),  # 1 - 1 = 0
            outcome("HA", last="H8", closures=[3]),  # 2 - 1 = 1
            outcome("DA", last="D8", closures=[4]),  # 3 - 1 = 2
            outcome("CA", last="C8", closures=[1]),  # 4 - 1 = 3
        ]
    )
    assert list(result.total or ()) == [0, 1, 2, 3]


def test_the_seed_tie_at_the_bottom_makes_two_big_heads() -> None:
    # -20 大頭, -20 大頭, -5 小頭, -1 winner (the two -20s covered two cards each).
    result = score(
        [
            outcome("SA", last="S8"),
            outcome("S9 SJ", last="H8"),
            outcome("H10 D10", last="D8"),
            outcome("S5", last="C8"),
        ]
    )
    assert list(result.total or ()) == [-1, -20, -20, -5]
    assert list(result.rank) == [1, 3, 3, 2]
    assert list(result.labels or ()) == ["winner", "大頭", "大頭", "小頭"]
    assert list(result.money) == [350, -150, -150, -50]


def test_fewer_covered_cards_break_a_tie_in_total() -> None:
    result = score(
        [
            outcome("S2 S3", last="S8"),  # -5 with two cards
            outcome("H5", last="H8"),  # -5 with one card: wins
            outcome("DK", last="D8"),
            outcome("CQ", last="C8"),
        ]
    )
    assert list(result.rank) == [2, 1, 4, 3]
    assert result.winners == (1,)


@pytest.mark.parametrize(
    ("settlement", "money"),
    [
        # 中頭 100 and 大頭 150, split in two: 50 + 75 to each winner.
        ("heads", [125, 125, -100, -150]),
        # (-1 - -14) * 10 = 130 and (-1 - -25) * 10 = 240, split in two.
        ("difference", [185, 185, -130, -240]),
    ],
)
def test_joint_winners_split_and_leave_small_head_unused(settlement: str, money: list[int]) -> None:
    result = score(
        [
            outcome("SA", last="S8"),
            outcome("HA", last="H8"),
            outcome("DA DK", last="D8"),
            outcome("C2 CJ CQ", last="C8"),
        ],
        f"scoring.settlement={settlement}",
    )
    assert result.winners == (0, 1)
    assert list(result.labels or ()) == ["winner", "winner", "中頭", "大頭"]
    assert list(result.money) == money


def test_each_joint_winner_share_takes_that_winners_multiplier() -> None:
    # 脫手 + closures of the 1st and 2nd suits (10 + 4 + 1) ties 尾張七 (15), no cards each.
    # 中頭 100 -> 50 × 2 + 50 × 5 = 350; 大頭 150 -> 75 × 2 + 75 × 5 = 525.
    result = score(
        [
            outcome(last="S8", closures=[1, 2]),
            outcome(last="H7"),
            outcome("DA DK", last="D8"),
            outcome("C2 CJ CQ", last="C8"),
        ]
    )
    assert list(result.total or ()) == [15, 15, -14, -25]
    assert result.winners == (0, 1)
    assert list(result.money) == [100 + 150, 250 + 375, -350, -525]


def test_an_odd_split_stays_exact() -> None:
    # Three joint winners share 大頭's 150: 50 each; with difference 25 * 10 / 3 each.
    tied = [outcome("SA", last="S8"), outcome("HA", last="H8"), outcome("DA", last="D8")]
    loser = outcome("CA C2 CJ CQ", last="C8")  # -26
    heads = score([*tied, loser])
    assert list(heads.labels or ()) == ["winner", "winner", "winner", "大頭"]
    assert list(heads.money) == [50, 50, 50, -150]
    diff = score([*tied, loser], "scoring.settlement=difference")
    third = Fraction(250, 3)
    assert list(diff.money) == [third, third, third, -250]


def test_all_covered_wins_thirteen_whatever_was_covered_and_takes_three_times() -> None:
    result = score(
        [
            all_covered("SK HK DK CK SQ HQ DQ CQ SJ HJ DJ CJ S10"),
            outcome("HA", last="H8"),
            outcome("DA DK", last="D8"),
            outcome("C2 CJ CQ", last="C8"),
        ]
    )
    assert list(result.total or ()) == [13, -1, -14, -25]
    assert list(result.money) == [900, -150, -300, -450]


def test_bust_counts_covered_points_after_the_melds() -> None:
    # 9-K of spades is a straight flush (55, exempt): HK alone counts, 13: no bust.
    cards = "S9 S10 SJ SQ SK HK"
    others = [outcome(last="S8"), outcome("DA", last="D8"), outcome("C2", last="C8")]
    result = score([outcome(cards, last="H8"), *others])
    assert list(result.total or ()) == [-13, 10, -1, -2]
    assert list(result.exempt or ()) == [55, 0, 0, 0]
    assert list(result.money) == [-300, 600, -100, -200]  # 大頭 150 × 2 (脫手)
    # Without melds all 68 count: a bust, paying twice.
    plain = score([outcome(cards, last="H8"), *others], "scoring.melds=false")
    assert list(plain.total or ()) == [-68, 10, -1, -2]
    assert list(plain.money) == [-600, 900, -100, -200]  # 大頭 150 × 2 (bust) × 2 (脫手)


@pytest.mark.parametrize(
    ("covered", "big_head"),
    [("SK HK DQ CQ", 150), ("SK HK CK DQ", 300)],  # 50 points: no bust; 51: a bust
)
def test_a_bust_is_above_50_points(covered: str, big_head: int) -> None:
    result = score(
        [
            outcome(covered, last="S8"),
            outcome("SA", last="H8"),
            outcome("H2", last="D8"),
            outcome("D3", last="C8"),
        ]
    )
    assert list(result.labels or ()) == ["大頭", "winner", "小頭", "中頭"]
    assert list(result.money) == [-big_head, big_head + 150, -50, -100]


def test_four_covered_cards_of_one_rank_are_exempt() -> None:
    """A 鐵支 is four cards: a player who covered exactly those four counts nothing.

    By hand: seat 0 脫手 +10 (× 2); seat 1 covered SK HK DK CK, exempt, total 0, counted 0;
    seat 2 -1; seat 3 -5. Ranks 1, 2, 3, 4: 小頭 50, 中頭 100, 大頭 150, each × 2.
    """
    result = score(
        [
            outcome(last="S5"),
            outcome("SK HK DK CK", last="S6"),
            outcome("HA", last="S8"),
            outcome("D2 D3", last="S9"),
        ]
    )
    assert list(result.exempt or ()) == [0, 52, 0, 0]
    assert list(result.total or ()) == [10, 0, -1, -5]
    assert list(result.labels or ()) == ["winner", "小頭", "中頭", "大頭"]
    assert list(result.money) == [600, -100, -200, -300]


# -- the house fee -------------------------------------------------------------------------


def test_the_fee_is_taken_from_a_winner_with_a_positive_total() -> None:
    # The seed's bust table (winner total 3) with a 15% fee: 450 collected, 67.5 kept.
    result = score(SEED_BUST, "scoring.fee=0.15")
    assert list(result.money) == [Fraction(765, 2), -300, -100, -50]
    assert result.house == Fraction(135, 2)
    assert sum(result.money) + result.house == 0


def test_no_fee_from_a_winner_with_a_negative_total() -> None:
    result = score(SEED_PLAIN, "scoring.fee=0.15")
    assert list(result.money) == [300, -150, -50, -100]
    assert result.house == 0


def test_the_vip_fee_of_ten_percent() -> None:
    result = score(SEED_BUST, "scoring.fee=0.1")
    assert list(result.money) == [405, -300, -100, -50]
    assert result.house == 45


# -- the scorer against the model, on random end-of-game facts -----------------------------

NOT_SEVENS = [c for c in range(52) if c % 13 != SEVEN]


@st.composite
def end_facts(draw: st.DrawFn) -> PlayerOutcome:
    """Facts of one seat: covered cards (often from a few ranks, so that melds occur), how
    the hand was emptied, and the suits it closed."""
    ranks = draw(st.sets(st.sampled_from([r for r in range(13) if r != SEVEN]), max_size=5))
    few = [c for c in NOT_SEVENS if c % 13 in ranks]
    pool = draw(st.sampled_from([NOT_SEVENS, few])) if few else NOT_SEVENS
    covered = draw(st.lists(st.sampled_from(pool), unique=True, max_size=min(13, len(pool))))
    if len(covered) == 13 and draw(st.booleans()):
        return PlayerOutcome(covered=tuple(sorted(covered)), played=0, hand_left=0)
    if len(covered) == 13:
        covered = covered[:12]
    last = draw(st.sampled_from([None, SEVEN, 8])) if covered else draw(st.sampled_from([6, 8]))
    closures = draw(st.lists(st.integers(1, 4), unique=True, max_size=2))
    return PlayerOutcome(
        covered=tuple(sorted(covered)),
        played=13 - len(covered),
        last_play=None if last is None else 13 * draw(st.integers(0, 3)) + last,
        completions=tuple(closures),
        hand_left=0,
    )


def facts_from(o: PlayerOutcome) -> Facts:
    last_seven = o.last_play is not None and o.last_play % 13 == SEVEN
    return Facts(list(o.covered), o.played, last_seven, list(o.completions), 0, True)


@pytest.mark.parametrize("settlement", SETTLEMENTS)
@settings(max_examples=300, deadline=None)
@given(
    outcomes=st.lists(end_facts(), min_size=4, max_size=4),
    fee=st.sampled_from(["0", "0.15", "0.1"]),
)
@example(  # exactly four covered cards, a 鐵支
    outcomes=[outcome(last="S7"), outcome("SA HA DA CA"), outcome(last="H7"), outcome(last="D7")],
    fee="0",
)
def test_the_scorer_follows_the_model(
    settlement: str, outcomes: list[PlayerOutcome], fee: str
) -> None:
    g = game("platform", f"scoring.settlement={settlement}", f"scoring.fee={fee}")
    result = g.rules.scoring.score(outcomes)
    want = expected_platform([facts_from(o) for o in outcomes], Rules.of(g).params)
    assert list(result.total or ()) == want["total"]
    assert list(result.rank) == want["rank"]
    assert list(result.labels or ()) == want["labels"]
    assert list(result.winners) == want["winners"]
    assert list(result.money) == want["money"]
    assert result.house == want["house"]
    assert sum(result.money) + result.house == 0


# -- random games --------------------------------------------------------------------------

OPTIONS = [(mode, settlement) for mode in MODES for settlement in SETTLEMENTS]


@pytest.mark.parametrize(("mode", "settlement"), OPTIONS)
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_money_of_a_hand_sums_to_zero(
    mode: str, settlement: str, seed: int, rnd: random.Random
) -> None:
    g = game(mode, f"scoring.settlement={settlement}")
    rules = Rules.of(g)
    state = g.new_state(seed=seed)
    play(state, by_rng(rnd))
    result = state.result()
    assert result.house == 0
    assert sum(result.money, Fraction(0)) == 0
    assert all(m <= 0 for s, m in enumerate(result.money) if s not in result.winners)
    check_result(state, rules)


@pytest.mark.parametrize(("mode", "settlement"), OPTIONS)
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, rng_seed=st.integers(0, 2**64), fee=st.sampled_from(["0.15", "0.1"]))
def test_with_a_fee_money_and_house_sum_to_zero(
    mode: str, settlement: str, seed: int, rng_seed: int, fee: str
) -> None:
    g = game(mode, f"scoring.settlement={settlement}", f"scoring.fee={fee}")
    state = g.new_state(seed=seed)
    state.play_random(random.Random(rng_seed))
    result = state.result()
    assert result.house >= 0
    assert sum(result.money, Fraction(0)) + result.house == 0
    # The fee is that share of what the winners with a positive total collected.
    totals = result.total or ()
    paid = -sum(m for s, m in enumerate(result.money) if s not in result.winners)
    taxed = [w for w in result.winners if totals[w] > 0]
    if not taxed:
        assert result.house == 0
    elif len(taxed) == len(result.winners):
        assert result.house == paid * Fraction(fee)
    check_result(state, Rules.of(g))


# -- records -------------------------------------------------------------------------------


def cuts_of(record: dict[str, Any]) -> list[int]:
    return [i for i, a in enumerate(record["actions"]) if a["type"] == "cut"]


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_a_platform_record_replays_exactly(mode: str, seed: int, rnd: random.Random) -> None:
    state = game(mode).new_state(seed=seed)
    play(state, by_rng(rnd))
    record = json.loads(json.dumps(state_record(state), ensure_ascii=False))
    RECORD_SCHEMA.validate(record)
    assert state.door_card is not None
    assert record["door_card"] == card_text(state.door_card)
    cuts = cuts_of(record)
    if mode == "platform":
        assert cuts == []  # 接龍: rows run to A and K, nothing is cut
    for i in cuts:
        # A cut follows the A or K its seat just played, of the same suit.
        before = record["actions"][i - 1]
        assert before["type"] == "play" and before["seat"] == record["actions"][i]["seat"]
        assert before["card"][0] == record["actions"][i]["suit"]
        assert before["card"][1:] in ("A", "K")
    assert replay(record) == []
    # Without the seed, the hands and door card are enough; without the door card, the seed.
    assert replay({**record, "seed": None}) == []
    assert replay({**record, "door_card": None}) == []


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), data=st.data())
def test_a_tampered_cut_event_does_not_replay(
    seed: int, rnd: random.Random, data: st.DataObject
) -> None:
    state = game("platform-zhanlong").new_state(seed=seed)
    play(state, by_rng(rnd))
    record = state_record(state)
    actions = record["actions"]
    cuts = cuts_of(record)
    if not cuts:
        return  # nobody played an A or K this game
    i = data.draw(st.sampled_from(cuts), label="cut")
    how = data.draw(st.sampled_from(["suit", "seat", "drop", "early", "extra"]), label="how")
    if how == "suit":
        suit = data.draw(st.sampled_from([s for s in "SHDC" if s != actions[i]["suit"]]))
        actions[i] = {**actions[i], "suit": suit}
    elif how == "seat":
        actions[i] = {**actions[i], "seat": (actions[i]["seat"] + 1) % 4}
    elif how == "drop":
        del actions[i]
    elif how == "early":
        # Moved before the play that made it.
        actions[i - 1], actions[i] = actions[i], actions[i - 1]
        i -= 1
    else:
        # A second cut of the same suit right after the first.
        actions.insert(i + 1, dict(actions[i]))
        i += 1
    problems = replay(record)
    assert problems and problems[0].startswith(f"actions[{i}]"), problems


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), data=st.data())
def test_a_record_with_another_door_suit_does_not_replay(
    seed: int, rnd: random.Random, data: st.DataObject
) -> None:
    state = game("platform").new_state(seed=seed)
    play(state, by_rng(rnd))
    record = state_record(state)
    assert state.door_card is not None
    suit = data.draw(st.sampled_from([s for s in range(4) if s != state.door_card // 13]))
    record["door_card"] = card_text(13 * suit + data.draw(st.integers(0, 12)))
    problems = replay(record)
    # the seed cuts another card, and the first move no longer opens the door suit
    assert problems[0].startswith("door_card: not the door card of seed"), problems
    assert any(p.startswith("actions[0]") for p in problems), problems


def test_a_record_names_its_cuts() -> None:
    # Door card S2: S7 opens; spades 7 down to A, the A cuts spades.
    g = game("platform-zhanlong")
    hands = [
        parse_cards("S7 S3 H2 H3 H4 H5 H6 H8 H9 H10 HJ HQ HK"),
        parse_cards("S6 S2 D2 D3 D4 D5 D6 D8 D9 D10 DJ DQ DK"),
        parse_cards("S5 SA C2 C3 C4 C5 C6 C8 C9 C10 CJ CQ CK"),
        parse_cards("S4 S8 S9 S10 SJ SQ SK HA DA CA H7 D7 C7"),
    ]
    state = g.new_state(hands=hands, door_card=parse_card("S2"))
    for seat, move in enumerate(["S7", "S6", "S5", "S4", "S3", "S2", "SA"]):
        state.apply(move, seat=seat % 4)
    record = state_record(state)
    assert record["door_card"] == "S2"
    assert record["actions"][-2:] == [
        {"seat": 2, "type": "play", "card": "SA"},
        {"seat": 2, "type": "cut", "suit": "S"},
    ]


def test_a_door_card_that_is_not_the_seeds_is_reported() -> None:
    """A record with a seed states the door card cut from it; another card, even of the same
    suit (so that every move stays legal), disagrees with the seed, as other hands would."""
    state = game("platform").new_state(seed=7)
    state.play_random(random.Random(7))
    record = state_record(state)
    assert replay(record) == []
    door = state.door_card
    assert door is not None
    same_suit = 13 * (door // 13) + (door % 13 + 1) % 13
    record["door_card"] = card_text(same_suit)
    problems = replay(record)
    assert problems and problems[0].startswith("door_card"), problems
