"""Deals of a belief drawn in the kernel (``search.kernel_deals``, ``fast.sampling``): the
same states as the Python belief's replays, the same spread, and only where they apply."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import numpy as np
import pytest

from paiqi_core import Game
from paiqi_core.agents import HeuristicAgent
from paiqi_core.belief import Belief
from paiqi_core.cards import JOKER
from paiqi_core.core import layout as L
from paiqi_core.engine import State
from paiqi_core.profile import load_profile

pytest.importorskip("numba")

from paiqi_core.fast.finish import encode
from paiqi_core.fast.sampling import placements
from paiqi_core.search.kernel_deals import KernelDeals, drawable, weighed_starts

TABLES = [
    ("shichinarabe", ("deck.jokers=1",)),
    ("shichinarabe", ("deck.jokers=2",)),
    ("shichinarabe", ()),
    ("pagat", ()),
    ("badam-satti", ()),
    ("shichinarabe-tunnel", ("deck.jokers=1",)),
]


def _game(profile: str, sets: tuple[str, ...] = ()) -> Game:
    return Game(load_profile(profile, list(sets)))


def _positions(game: Game, games: int, every: int) -> list[State]:
    """Every ``every``-th position of ``games`` games of rule-based players."""
    found = []
    for seed in range(games):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        players = [HeuristicAgent(rng, game=game) for _ in range(game.players)]
        while not state.over:
            if len(state.log) % every == 1:
                found.append(state.clone())
            state.apply_unchecked(players[state.turn].act(state.observation(state.turn)))
    return found


@pytest.mark.parametrize(("profile", "sets"), TABLES)
def test_the_kernel_makes_the_very_state_the_belief_replays(
    profile: str, sets: tuple[str, ...]
) -> None:
    """Each placement the Python chain draws gives, in the kernel, the state
    ``Belief.state_of`` replays in every slot; and the kernel refuses exactly the
    placements the replay refuses."""
    game = _game(profile, sets)
    rng = random.Random(7)
    compared = refused = 0
    for state in _positions(game, 3, 4):
        belief = Belief(game, state.observation(state.turn))
        if not belief.hidden:
            continue
        assert drawable(belief)
        deals = KernelDeals(belief, rng)
        draws = belief.placements(rng)
        chosen = [next(draws) for _ in range(12)]
        states, out = deals.states(np.array(chosen, dtype=np.int64))
        for placement, st, (agrees, _, _) in zip(chosen, states, out, strict=True):
            replayed = belief.state_of(placement)
            assert agrees == (replayed is not None)
            if replayed is not None:
                assert st.tolist() == encode(replayed).tolist()
                compared += 1
            else:
                refused += 1
    assert compared > 200
    if sets == ("deck.jokers=2",):  # two jokers: placements the masks allow, replays refuse
        assert refused > 20


def test_only_histories_without_unseen_moves_are_drawn_in_the_kernel() -> None:
    """Covers (鬥雀), a stock (sevens-stock): the Python belief keeps them."""
    for profile in ("doujue", "sevens-stock"):
        game = _game(profile)
        late = [s for s in _positions(game, 2, 5) if len(s.log) > 30]
        assert late
        for state in late:
            belief = Belief(game, state.observation(state.turn))
            assert not drawable(belief), profile


def _late_position(game: Game, seed: int) -> State:
    """Seat 0 to move with 3 to 6 cards it cannot see, in two hands or more."""
    state, rng = game.new_state(seed=seed), random.Random(seed)
    while not state.over:
        unseen = [state.hands[s].bit_count() for s in range(1, game.players)]
        if state.turn == 0 and 3 <= sum(unseen) <= 6 and sum(map(bool, unseen)) >= 2:
            return state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no such position in this deal")


def _agreeing(belief: Belief) -> list[tuple[int, ...]]:
    """Every placement of the unseen cards the engine's replay accepts."""
    slots = [p for p, place in enumerate(belief.places) for _ in range(place.size)]
    found = set()
    for perm in itertools.permutations(range(len(belief.hidden))):
        placement = [0] * len(perm)
        for slot, card in zip(slots, perm, strict=True):
            placement[card] = slot
        if tuple(placement) not in found and belief.state_of(placement) is not None:
            found.add(tuple(placement))
    return sorted(found)


def _chi_square_p(counts: list[int], expected: list[float]) -> float:
    """Upper tail of the chi-square statistic (Wilson-Hilferty approximation)."""
    k = len(counts) - 1
    x = sum((c - e) ** 2 / e for c, e in zip(counts, expected, strict=True))
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def _drawn(belief: Belief, draws: int) -> Counter[tuple[int, ...]]:
    """The placements of ``draws`` deals the kernel keeps, read back from their hands."""
    deals = KernelDeals(belief, random.Random(3))
    states, _ = deals.pool(random.Random(4), draws)
    where = {card: i for i, card in enumerate(belief.hidden) if card < JOKER}
    counts: Counter[tuple[int, ...]] = Counter()
    for st in states:
        placement = [-1] * len(belief.hidden)
        for p, place in enumerate(belief.places):
            hand = int(st[L.HAND + place.seat])
            for card, i in where.items():
                if hand >> card & 1:
                    placement[i] = p
            if hand >> JOKER & 1:  # (jokers are alike: one place each, in order)
                placement[placement.index(-1, len(where))] = p
        counts[tuple(placement)] += 1
    return counts


@pytest.mark.parametrize("seed", [2, 5, 7])
def test_kernel_deals_of_a_small_position_spread_evenly_over_the_agreeing_ones(
    seed: int,
) -> None:
    """Without a learned tilt every deal that agrees with what the seat saw is as likely."""
    game = _game("shichinarabe", ("deck.jokers=1",))
    belief = Belief(game, _late_position(game, seed).observation(0))
    exact = _agreeing(belief)
    assert 3 <= len(exact) <= 90, len(exact)
    counts = _drawn(belief, 60 * len(exact))
    assert set(counts) == set(exact)
    p = _chi_square_p([counts[d] for d in exact], [60.0] * len(exact))
    assert p > 0.001, p


def test_a_tilt_weighs_each_agreeing_deal_by_the_exp_of_its_cards_scores() -> None:
    """With ``tilt[card][place]`` a deal is drawn in proportion to exp of the sum of its
    cards' scores: here log 3 for the first unseen card in the first place, so the deals
    with it there are three times as likely as each other."""
    game = _game("shichinarabe", ("deck.jokers=1",))
    belief = Belief(game, _late_position(game, 7).observation(0))
    exact = _agreeing(belief)
    tilt = [[0.0] * len(belief.places) for _ in belief.hidden]
    tilt[0][0] = math.log(3)
    belief.tilt = tilt
    weight = {d: 3.0 if d[0] == 0 else 1.0 for d in exact}
    assert 1.0 in weight.values() and 3.0 in weight.values()
    draws = 4000
    counts = _drawn(belief, draws)
    total = sum(weight.values())
    expected = [draws * weight[d] / total for d in exact]
    assert _chi_square_p([counts[d] for d in exact], expected) > 0.001


def test_the_chain_swaps_only_where_every_card_may_go() -> None:
    """Four cards, two places of two; card 3 may not go to place 0: every placement keeps
    it in place 1 and the places' sizes, and the three such placements come alike."""
    hidden = np.array([0, 1, 2, 3], np.int64)
    allowed = np.array([0b0111, 0b1111], np.int64)
    chain = np.array([0, 0, 1, 1], np.int64)
    out = np.empty((30000, 4), np.int64)
    placements(chain, hidden, allowed, np.zeros((4, 2)), 20, 11, out)
    assert (out[:, 3] == 1).all() and (out.sum(axis=1) == 2).all()
    counts = Counter(map(tuple, out.tolist()))
    assert len(counts) == 3
    assert _chi_square_p(list(counts.values()), [10000.0] * 3) > 0.001


def test_weighed_starts_agree_with_the_observation() -> None:
    """The planner's deals: each keeps the seat's own hand, the others' hand sizes and every
    public slot of the state the seat saw."""
    game = _game("shichinarabe", ("deck.jokers=1",))
    rng = random.Random(5)
    for state in _positions(game, 2, 9):
        obs = state.observation(state.turn)
        belief = Belief(game, obs)
        if not belief.hidden:
            continue
        seen = encode(state)
        starts = weighed_starts(belief, rng, None, 16)
        assert starts.shape == (16, L.STATE)
        for st in starts:
            for t in range(game.players):
                assert int(st[L.HAND + t]).bit_count() == state.hands[t].bit_count()
            assert st[L.HAND + obs.seat] == seen[L.HAND + obs.seat]
            public = [k for k in range(L.STATE) if k % L.MAX_SEATS >= game.players
                      or k >= L.MAX_SEATS * 22 or k // L.MAX_SEATS not in (0, 16)]  # fmt: skip
            assert all(st[k] == seen[k] for k in public if k != L.LOGLEN)
