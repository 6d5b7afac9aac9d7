"""The belief sampler: every sampled deal agrees with the seat's observation, under every
family and the joker; the constraints are those the rules prove; and on small positions the
samples are spread like the exact list of agreeing deals."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from paiqi_core import Game, State
from paiqi_core.actions import LEAVE, PASS, kind
from paiqi_core.belief import Belief
from paiqi_core.cards import JOKER, alike, bits, parse_card
from paiqi_core.core import layout as L
from paiqi_core.resources import builtin_profiles

from .conftest import DEVYATKA, SEVENS_FIRST_JOKER

CONFIGS = [(p, ()) for p in sorted(builtin_profiles())] + [
    ("shichinarabe", ("deck.jokers=1",)),
    ("shichinarabe-tunnel", ("deck.jokers=1", "players=3")),
    ("doujue-passes", ("deck.jokers=1",)),
    ("platform", ("deck.jokers=1",)),
    # a pass right after a card that ends its line may be a stop, which proves nothing
    ("pagat", ("turn.extra_after_end=may",)),
    ("shichinarabe", ("turn.extra_after_end=may", "deck.jokers=1")),
    ("doujue-passes", ("turn.extra_after_end=must",)),
    # rows begun anywhere: a row's last card, the one below its first, ends its line
    ("play-or-pay", ("turn.extra_after_end=may", "turn.must_play=false", "ending.stall=1")),
    ("play-or-pay", ("layout.rows=together", "layout.sides=either")),
    # sevens_out with a card that is no 7: its holder moved first, so it holds that card
    ("shichinarabe", ("opening.card=SA",)),
    # short packs from another centre: only the pack's cards are hidden
    ("pagat", ("players=3", *DEVYATKA)),
    ("shichinarabe", ("layout.ace=high", "deck.ranks=7-A", "layout.centre=8", "deck.jokers=1")),
    # several jokers, alike: how many are unseen, and dealt to whom, follows from the counts
    ("shichinarabe", ("deck.jokers=2",)),
    ("doujue", ("deck.jokers=2",)),
    ("shichinarabe-tunnel", ("deck.jokers=3", "players=3")),
    # leftovers face up: seen by all, and a play of one proves nothing of the hand
    ("pagat", ("players=5", "deck.leftover=face_up")),
    ("doujue", ("players=3", "deck.leftover=face_up")),
    ("shichinarabe", ("players=5", "deck.leftover=face_up", "turn.pass_limit=0")),
    # a pass takes a card the previous player chooses: unseen by the others, so the taker's
    # earlier proofs of what it lacks no longer hold; the deal is found by walking back
    ("pagat", ("turn.pass_takes=chosen",)),
    ("shichinarabe", ("turn.pass_takes=chosen", "players=3")),
    ("doujue-passes", ("turn.pass_takes=chosen",)),
    # a stock: a draw proves the drawer was stuck; a card drawn unseen may be any card the
    # stock held, but one kept that did not fit is not one that fitted; walked back to the deal
    # a turn's block of cards: a stop after a card proves nothing, and a card laid on a
    # block is the block's, whatever 7 fitted
    ("pagat", ("turn.lay=blocks",)),
    ("pagat", ("turn.lay=blocks", "turn.sevens_first=true")),
    ("doujue", ("turn.lay=blocks",)),
    ("pagat", ("deck.hand=7", "deck.leftover=stock", "turn.draw=one")),
    ("pagat", ("deck.hand=5", "deck.leftover=stock", "turn.draw=one", "turn.must_play=false")),
    ("shichinarabe", ("deck.hand=10", "deck.leftover=stock", "turn.draw=one")),
    ("pagat", ("players=5", "deck.leftover=stock", "turn.draw=one", "turn.pass_takes=chosen")),
    # a 7 that fits goes first: any other move proves the mover held no 7 that fitted
    ("pagat", ("turn.sevens_first=true", "turn.must_play=false", "ending.stall=2")),
    ("shichinarabe", SEVENS_FIRST_JOKER),
    # nobody may go out on a joker: a stuck seat holding the joker and one card may hold the
    # card beyond a free place
    ("shichinarabe", ("turn.joker_finish=refused", "deck.jokers=1", "turn.pass_limit=null")),
    ("doujue", ("turn.joker_finish=refused", "deck.jokers=1")),
    # the holder of a joker's place asked at once (it may keep the card under the joker), or
    # never taking it (anyone may hold the card under a joker)
    ("shichinarabe", ("deck.jokers=1", "turn.joker_handover=optional")),
    ("doujue", ("deck.jokers=1", "turn.joker_handover=optional")),
    ("shichinarabe", ("deck.jokers=2", "turn.joker_handover=never")),
    ("pagat", ("deck.jokers=1", "turn.joker_handover=never")),
    # draws that grow from stop to stop: a stop draws several cards, any of which may fit
    ("sevens-stock", ("turn.draw=increasing",)),
    ("sevens-stock", ("turn.draw=increasing_shared", "players=3")),
    ("sevens-stock", ("turn.draw=increasing_run",)),
    # a pass bars its player until another passes: the barred seat's turns are skipped
    ("sjuan", ("turn.pass_bars=true", "turn.pass_takes=none")),
    # the first player holding a 7 moves first: the seats before it were dealt none
    ("platform-zhanlong", ("opening.method=seven_holder",)),
    (
        "pagat",
        ("opening.method=seven_holder", "deck.hand=5", "deck.leftover=stock", "turn.draw=one"),
    ),
    # trumps: cards lie in other suits' places, a pass proves no trump could take a place,
    # and the card that named trumps is its dealt-last seat's
    ("trump-fan-tan", ()),
    ("sevens-stock", ("layout.trumps=last_dealt",)),
    ("doujue-passes", ("layout.trumps=last_dealt", "opening.method=seven_holder")),
]


@cache
def game(profile: str, overrides: tuple[str, ...]) -> Game:
    return Game(profile, list(overrides))


@pytest.mark.parametrize(("profile", "overrides"), CONFIGS)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), stop=st.floats(0.0, 1.0), watcher=st.integers(0, 3))
def test_every_sample_agrees_with_the_observation(
    profile: str, overrides: tuple[str, ...], seed: int, stop: float, watcher: int
) -> None:
    g = game(profile, overrides)
    state = g.new_state(seed)
    rng = random.Random(seed)
    moves = 0
    while not state.is_terminal() and rng.random() > stop / 8:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        moves += 1
    seat = watcher % g.players
    observation = state.observation(seat)
    belief = Belief(g, observation)
    truth = {(s, c) for s in range(g.players) if s != seat for c in bits(state.hands[s])}
    for sample in belief.samples(rng, 4):
        assert sample.observation(seat) == observation
        assert alike(sample.hands[seat]) == alike(state.hands[seat])  # jokers: how many
        # every proven void holds in the sample: no seat holds a card it was shown not to
        for t in range(g.players):
            assert not sample.hands[t] & belief._void[t] & ((1 << JOKER) - 1) or t == seat
        # cards are conserved: the unseen ones are all somewhere
        seen = {(s, c) for s in range(g.players) if s != seat for c in bits(sample.hands[s])}
        assert len(seen) == len(truth)


def _random_position(g: Game, seed: int, stop: float) -> State:
    state = g.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and rng.random() > stop / 8:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def _slots(state: State) -> dict[str, object]:
    state.public_log()  # the lazily kept public log and cover order, brought up to date
    return {k: v for k, v in state.__getstate__().items() if k != "rng"}


@pytest.mark.parametrize(("profile", "overrides"), CONFIGS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), stop=st.floats(0.0, 1.0), watcher=st.integers(0, 3))
# platform with the joker: an observation that few deals explain (the chain took over 200
# draws to find one, more than the sampler once allowed)
@example(seed=622847, stop=0.5, watcher=1)
# two jokers covered by one seat: a placement may number them either way, and the replay
# must cover "a joker" (they are alike) whichever it names
@example(seed=82501, stop=0.0, watcher=0)
# seven_holder before the first move: a placement leaving the seat to move no 7 would have
# given the first move to another seat (the replay refuses it; the rebuild must too)
@example(seed=1_162_127_763, stop=1.0, watcher=1)
def test_a_state_rebuilt_by_exchanging_hidden_cards_is_the_replayed_one(
    profile: str, overrides: tuple[str, ...], seed: int, stop: float, watcher: int
) -> None:
    """Samples after the first are made by putting the unseen cards in their new places;
    each must be the very state a replay of the game from its implied deal gives, in every
    slot, and the replay must accept every placement the chain draws (else the rebuild
    would make states that contradict the observation)."""
    g = game(profile, overrides)
    state = _random_position(g, seed, stop)
    seat = watcher % g.players
    belief = Belief(g, state.observation(seat))
    rng = random.Random(seed)
    belief.sample(rng)
    if belief._template is None:  # only where the joker is unseen, a pass may be a stop,
        rules = belief.game.rules  # cards were handed on, or a joker may not end a hand
        assert (
            (rules.jokers and JOKER in belief.hidden)
            or rules.extra_after_end != "none"
            or rules.pass_takes != "none"
            or rules.draw != "none"
            or rules.profile.get("turn.joker_finish") == "refused"
            or belief.game.vector[L.R_TALLY]  # passes when able counted (Hoyle's chips)
            # (or keep its place: who held the card under it, only a replay tells)
            or (rules.jokers and rules.profile.get("turn.joker_handover") != "forced")
            # (or a block's turn ended by itself: whether it could go on, only a replay tells)
            or rules.profile.get("turn.lay") == "blocks"
        )
        return
    draws = belief.placements(rng)
    for _ in range(8):
        placement = next(draws)
        replayed, rebuilt = belief.state_of(placement), belief._rebuilt(placement)
        assert (rebuilt is None) == (replayed is None)
        if replayed is not None and rebuilt is not None:
            assert _slots(rebuilt) == _slots(replayed)


def _small_position(profile: str, overrides: tuple[str, ...], seed: int) -> tuple[Game, State]:
    """Late in a game with covers: seat 0 to move, with at most 6 cards it cannot place,
    some of them covered by the others (whose covers prove voids)."""
    g = game(profile, overrides)
    state = g.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        unseen = sum(h.bit_count() for s, h in enumerate(state.hands) if s != 0)
        covers = sum(c.bit_count() for s, c in enumerate(state.covered) if s != 0)
        if state.turn == 0 and unseen + covers <= 6 and covers >= 1 and unseen >= 2:
            return g, state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no such position in this deal")


def _exact(belief: Belief) -> list[tuple[int, ...]]:
    """Every placement of the unseen cards (a place per card) that the engine accepts."""
    sizes = [p.size for p in belief.places]
    slots = [p for p, size in enumerate(sizes) for _ in range(size)]
    seen = set()
    out = []
    for perm in itertools.permutations(range(len(belief.hidden))):
        placement = [0] * len(perm)
        for slot, card in zip(slots, perm, strict=True):
            placement[card] = slot
        key = tuple(placement)
        if key not in seen:
            seen.add(key)
            if belief.state_of(placement) is not None:
                out.append(key)
    return out


def _chi_square_p(counts: list[int], expected: float) -> float:
    """Upper tail of the chi-square statistic (Wilson-Hilferty approximation)."""
    k = len(counts) - 1
    x = sum((c - expected) ** 2 / expected for c in counts)
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


@pytest.mark.parametrize(
    ("profile", "overrides", "seed"),
    [("doujue", (), 6), ("doujue-passes", ("deck.jokers=1",), 3), ("platform", (), 2)],
)
def test_samples_of_a_small_position_spread_like_the_exact_list(
    profile: str, overrides: tuple[str, ...], seed: int
) -> None:
    g, state = _small_position(profile, overrides, seed)
    belief = Belief(g, state.observation(0))
    exact = _exact(belief)
    assert 8 <= len(exact) <= 120, len(exact)
    draws = 40 * len(exact)
    rng = random.Random(5)
    chain = belief.placements(rng)
    counts: Counter[tuple[int, ...]] = Counter()
    while sum(counts.values()) < draws:
        placement = next(chain)
        if belief.state_of(placement) is not None:
            counts[tuple(placement)] += 1
    assert set(counts) <= set(exact), "a sample outside the exact list"
    assert set(counts) == set(exact), "some agreeing deal never drawn"
    p = _chi_square_p([counts[d] for d in exact], draws / len(exact))
    assert p > 0.001, p


def test_a_cover_proves_a_void_and_a_voluntary_pass_does_not() -> None:
    """doujue: 乙 covers with S6 and S8 playable (after S7) and every 7 but S7 unopened, so
    乙 holds none of S6, S8, H7, D7, C7; 七並べ: a pass made while passes are voluntary
    proves nothing."""
    g = game("doujue", ())
    cards = [parse_card(c) for c in ("S6", "S8", "H7", "D7", "C7")]
    s7 = parse_card("S7")
    seat1 = [c for c in range(52) if c not in (*cards, s7)][:13]
    rest = [c for c in range(52) if c != s7 and c not in seat1]
    hands = [[s7, *rest[:12]], seat1, rest[12:25], rest[25:38]]
    state = g.new_state(hands=hands)
    state.apply("S7")
    assert state.turn == 1 and all(a >= 64 for a in state.legal_actions())  # 乙 is stuck
    state.apply(state.legal_actions()[0])
    belief = Belief(g, state.observation(0))
    assert [c for c in cards if belief._void[1] >> c & 1] == cards
    assert belief._void[2] == belief._void[3] == 0
    for sample in belief.samples(random.Random(1), 20):
        assert not any(sample.hands[1] >> c & 1 for c in cards)
    japanese = game("shichinarabe", ())
    s = japanese.new_state(seed=3)
    mover = s.turn
    s.apply("pass")
    assert Belief(japanese, s.observation((mover + 1) % 4))._void[mover] == 0


def test_a_draw_proves_the_drawer_held_nothing_that_fitted() -> None:
    # 甲 opens with S7; 乙, holding H2 H3 H4, can play none of S6, S8 and the other 7s
    # (any 7 opens), so it draws: DK, which does not fit either, and the turn moves on
    g = game("pagat", ("deck.hand=3", "deck.leftover=stock", "turn.draw=one"))
    hands = [["S7", "C2", "C3"], ["H2", "H3", "H4"], ["D2", "D3", "D4"], ["C4", "C5", "C6"]]
    state = g.new_state(hands=[[parse_card(c) for c in h] for h in hands])
    state.apply("S7")
    state.apply("draw DK")
    assert state.turn == 2
    belief = Belief(g, state.observation(0))
    fitted = {parse_card(c) for c in ("S6", "S8", "H7", "D7", "C7")}
    assert all(belief._void[1] >> c & 1 for c in fitted)
    held = set()
    for sample in belief.samples(random.Random(5), 40):
        assert sample.hands[1].bit_count() == 4
        held |= set(bits(sample.hands[1]))
    assert held and not held & fitted
    # the stock (39 cards, one drawn) and the hands are sampled from the same unseen cards
    assert sum(p.size for p in belief.places) == 3 + 4 + 3 + 39


def test_a_stop_of_a_block_proves_nothing_and_a_card_laid_on_it_no_missing_seven() -> None:
    """Crazy Tan under Fan Tan, where a stuck player must pass: 甲 lays S7 and stops while
    still holding S8, which fits. A pass would prove 甲 held no S8 (nor H7, D7, C7); the
    stop proves nothing, so samples from 乙's seat give 甲 the S8 or a 7 as often as the
    other unseen cards. Under Badam Satti's 7 first, 甲's S8 laid on the block after S7
    proves no 7 missing from 甲's hand either."""
    hands = [
        ["S7", "S8", "H7", "C2", "C3", "C4", "C5", "C6", "C8", "C9", "C10", "CJ", "CQ"],
        ["SA", "S2", "S3", "S4", "S5", "S6", "HA", "H2", "H3", "H4", "H5", "H6", "CK"],
        ["S9", "S10", "SJ", "SQ", "SK", "H8", "H9", "H10", "HJ", "HQ", "HK", "DA", "D2"],
        ["D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "DJ", "DQ", "DK", "CA", "C7"],
    ]
    dealt = [[parse_card(c) for c in h] for h in hands]
    s8, h7 = parse_card("S8"), parse_card("H7")
    g = game("pagat", ("turn.lay=blocks",))
    state = g.new_state(hands=dealt)
    state.apply("S7")
    assert state.turn == 0 and set(state.legal_actions()) == {s8, h7, PASS}
    state.apply("pass")  # the stop
    assert state.turn == 1 and state.observation(1).pass_counts == (0, 0, 0, 0)
    belief = Belief(g, state.observation(1))
    assert belief._void[0] == 0
    held = Counter(c for x in belief.samples(random.Random(2), 60) for c in bits(x.hands[0]))
    assert held[s8] > 0 and held[h7] > 0
    first = game("pagat", ("turn.lay=blocks", "turn.sevens_first=true"))
    state = first.new_state(hands=dealt)
    state.apply("S7")
    state.apply("S8")  # laid on the block, with H7 in hand: no proof that 甲 holds no 7
    belief = Belief(first, state.observation(1))
    assert not belief._void[0] >> h7 & 1
    assert any(x.hands[0] >> h7 & 1 for x in belief.samples(random.Random(3), 40))


def test_cards_handed_on_with_jokers_are_not_read_yet_and_say_so() -> None:
    from paiqi_core.belief import UnreadHistory

    g = game("shichinarabe", ("turn.pass_takes=chosen", "deck.jokers=1"))
    state = g.new_state(0)
    rng = random.Random(0)
    while not any(kind(a) == "give" for _, a in state.log):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    with pytest.raises(UnreadHistory, match="cannot yet follow cards handed on"):
        Belief(g, state.observation((state.turn + 2) % g.players))


def test_the_seats_before_the_first_seven_holder_were_dealt_no_seven() -> None:
    """With seven_holder the first mover is the first seat holding a 7: a seat that watches
    seat 2 move first knows seats 0 and 1 hold no 7, and no sample gives them one."""
    g = game("platform-zhanlong", ("opening.method=seven_holder",))
    sevens = {parse_card(s + "7") for s in "SHDC"}
    seed = next(s for s in range(200) if g.new_state(s).turn == 2)
    state = g.new_state(seed)
    state.apply(state.legal_actions()[0])  # seat 2 opens with a 7
    belief = Belief(g, state.observation(3))
    rng = random.Random(seed)
    seen = set()
    for sample in belief.samples(rng, 40):
        for t in (0, 1):
            held = set(bits(sample.hands[t]))
            assert not held & sevens
        seen |= set(bits(sample.hands[2])) & sevens
    assert seen  # seat 2 may still hold another 7 (it opened with one of them)


def test_a_card_other_than_a_seven_proves_its_player_held_no_seven_that_fitted() -> None:
    """Where a 7 that can be played goes first (Badam Satti), a seat that plays any other
    card held no 7 then (every 7 fits a row it opens): no sample gives it one."""
    g = game("pagat", ("turn.sevens_first=true",))
    sevens = {parse_card(s + "7") for s in "SHDC"}
    for seed in range(50):
        state = g.new_state(seed)
        while not state.is_terminal():
            seat, action = state.turn, state.legal_actions()[0]
            state.apply(action)
            unseen = sevens - set(state.table_cards)
            if seat != 0 and action < 52 and action not in sevens and unseen:
                break  # seat played another card while a 7 was still out of sight
        else:
            continue
        belief = Belief(g, state.observation(0))
        for sample in belief.samples(random.Random(seed), 30):
            assert not set(bits(sample.hands[seat])) & unseen
        return
    raise AssertionError("no deal had a card other than a 7 played while a 7 was unseen")


def test_a_pass_holding_the_joker_proves_less_where_nobody_may_go_out_on_it() -> None:
    """Fan Tan with the joker where nobody may go out on it: 乙 opens S7, 丙 puts the joker
    on S8 (乙's, so 乙 lays S8 and takes the joker) with S9 beyond it; 乙, left with the
    joker and SJ, may not go out with the joker at S10 and SJ beyond it, and passes; after
    丙's S10, 乙 plays SJ and leaves with the joker. A pass made holding the joker proves the
    seat held no card beyond a free place (the joker would have taken the place), but not
    where that move would have gone out on the joker: SJ, beyond the free S10, was 乙's."""
    g = game("pagat", ("deck.jokers=1", "turn.joker_finish=refused"))
    named = ["S7", "S8", "SJ", "S9", "H7", "D7", "C7", "S6", "S10"]
    rest = [c for c in range(52) if c not in map(parse_card, named)]
    hands = [rest[:22], [parse_card(c) for c in named[:3]], [JOKER, *map(parse_card, named[3:])],
             rest[22:]]  # fmt: skip
    state = g.new_state(hands=hands)
    for action in ("pass", "S7", "joker S8 S9", "pass", "pass"):
        state.apply(action)
    assert state.turn == 1 and state.hands[1] == 1 << JOKER | 1 << parse_card("SJ")
    assert state.legal_actions() == [PASS]  # (the joker at S10 and SJ would go out on it)
    for action in ("pass", "S10", "pass", "pass", "SJ"):
        state.apply(action)
    assert state.observation(3).history[-1] == (1, LEAVE)
    belief = Belief(g, state.observation(3))
    assert not belief._void[1] >> parse_card("SJ") & 1
    for sample in belief.samples(random.Random(2), 20):
        assert sample.hands[1] == 0


def test_a_pass_where_one_row_grows_at_a_time_proves_only_its_next_card() -> None:
    """Play or Pay: 甲 begins spades with S5, and 乙 passes. Only spades may be played, so
    the pass proves that 乙 lacks the S6 and nothing of the other suits, although an empty
    row would take any of their cards once spades is finished."""
    g = game("play-or-pay", ())
    s5, s6 = parse_card("S5"), parse_card("S6")
    seat1 = [c for c in range(52) if c not in (s5, s6)][:13]
    rest = [c for c in range(52) if c not in seat1 and c != s5]
    hands = [[s5, *rest[:12]], seat1, rest[12:25], rest[25:38]]
    state = g.new_state(hands=hands)
    state.apply("S5")
    assert state.turn == 1 and state.legal_actions() == [PASS]
    state.apply("pass")
    belief = Belief(g, state.observation(0))
    assert belief._void[1] == 1 << s6
    for sample in belief.samples(random.Random(2), 20):
        assert not sample.hands[1] >> s6 & 1


def test_a_stop_after_the_card_that_completes_a_row_begun_anywhere_proves_nothing() -> None:
    """Play or Pay where the player of a row's thirteenth card may stop: 甲 begins spades
    with S2 and the row goes round to SA, its thirteenth card, laid by 乙, who then stops
    instead of beginning another suit. The stop is no pass: it proves nothing of 乙's hand
    (its passes before, while spades grew, proved only spades it lacked)."""
    g = game("play-or-pay", ("turn.extra_after_end=may",))
    spades = [13 * 0 + r for r in range(13)]  # SA, S2 .. SK
    others = list(range(13, 52))
    hands = [spades[1:12] + others[:2], [spades[12], spades[0], *others[2:13]], others[13:26]]
    hands.append(others[26:39])
    state = g.new_state(hands=hands)
    for card in spades[1:12]:  # 甲 lays S2 .. SQ, the others passing in between
        while state.turn != 0:
            state.apply("pass")
        state.apply(card)
    while state.turn != 1:
        state.apply("pass")
    state.apply(spades[12])  # SK
    while state.turn != 1:
        state.apply("pass")
    state.apply(spades[0])  # SA: the thirteenth, and 乙 may play on or stop
    assert state.turn == 1 and PASS in state.legal_actions()
    state.apply("pass")
    belief = Belief(g, state.observation(0))
    assert belief._void[1] >> 13 == 0  # no heart, diamond or club


def test_a_card_a_joker_keeps_the_place_of_is_held_only_by_the_seat_that_kept_it() -> None:
    """七並べ with the joker, its holder asked (turn.joker_handover optional): 甲, who held
    D7 and so moves first, lays the joker on S8 with S9 beyond it; 乙, who holds S8, keeps it
    (a pass that is no pass). What 丙 sees proves S8 is 乙's: in every sample 乙 holds it.
    Where nobody is asked (never), either other seat may hold it."""
    s8, s9, d7 = map(parse_card, ("S8", "S9", "D7"))
    rest = [c for c in range(52) if c not in (s8, s9, d7)]
    hands = [[JOKER, s9, d7, *rest[:10]], [s8, *rest[10:23]], rest[23:36], rest[36:]]
    for value, keepers in (("optional", {1}), ("never", {1, 3})):
        g = game("shichinarabe", ("deck.jokers=1", f"turn.joker_handover={value}"))
        state = g.new_state(hands=hands)
        assert state.turn == 0
        state.apply("joker S8 S9")
        if value == "optional":
            assert state.turn == 1 and state.legal_actions() == [s8, PASS]
            state.apply("pass")
        assert state.passes == [0, 0, 0, 0] and state.turn == 1
        belief = Belief(g, state.observation(2))
        holders = set()
        for sample in belief.samples(random.Random(3), 40):
            holders |= {t for t in range(4) if sample.hands[t] >> s8 & 1}
        assert holders == keepers


def test_a_pass_under_trumps_proves_no_trump_could_take_a_place() -> None:
    """Trump Fan Tan, spades trumps (the S2 named them, dealt last to 丁): 甲 opens hearts
    with H7 and 乙 passes. The places that fit are H6, H8 and every other 7; so 乙 holds
    none of those cards, and none of the trumps S6 and S8 either, which could have taken the
    H6 or H8 place. It may hold the S2 no more than any other card of 丁's: only 丁 holds it."""
    g = game("trump-fan-tan", ())
    named = parse_card("S2")
    h7 = parse_card("H7")
    proven = {parse_card(c) for c in ("H6", "H8", "S7", "D7", "C7", "S6", "S8")}
    seat1 = [c for c in range(52) if c not in proven and c not in (h7, named)][:13]
    rest = [c for c in range(52) if c not in seat1 and c not in (h7, named)]
    hands = [[h7, *rest[:12]], seat1, rest[12:25], [named, *rest[25:37]]]
    state = g.new_state(hands=hands, door_card=named)
    state.apply("H7")
    assert state.turn == 1 and state.legal_actions() == [PASS]
    state.apply("pass")
    belief = Belief(g, state.observation(0))
    assert {c for c in bits(belief._void[1]) if c < 52} >= proven - set(hands[0])
    for sample in belief.samples(random.Random(3), 20):
        assert sample.hands[3] >> named & 1  # the card that named trumps stays with 丁
        assert not sample.hands[1] & sum(1 << c for c in proven)
