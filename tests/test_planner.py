"""The planner: POMCP over sampled deals, walked in the kernel (``search.planner``,
``fast.tree``), and where ``expert`` uses it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from paiqi_core import Game
from paiqi_core.actions import PASS
from paiqi_core.agents import HeuristicAgent
from paiqi_core.belief import Belief
from paiqi_core.engine import State
from paiqi_core.learn.model import BELIEF, model_for
from paiqi_core.profile import load_profile
from paiqi_core.search.objective import utilities

pytest.importorskip("numba")

from paiqi_core.core.layout import GAME_FIELDS, SEAT_FIELDS
from paiqi_core.core.scoring import WORK
from paiqi_core.fast.compiled import compiled_game
from paiqi_core.fast.finish import encode
from paiqi_core.fast.tree import MONEY, POINTS, WIN, legal_into, value_of
from paiqi_core.search.expert import ExpertAgent
from paiqi_core.search.planner import Planner, overrule, plans

TABLES = [
    ("pagat", ()),
    ("doujue", ()),
    ("shichinarabe", ("deck.jokers=1",)),
    ("shichinarabe", ("deck.jokers=2",)),
    ("sevens-stock", ()),
    ("trump-fan-tan", ()),
]


def _game(profile: str, sets: tuple[str, ...] = ()) -> Game:
    return Game(load_profile(profile, list(sets)))


@pytest.mark.parametrize(("profile", "sets"), TABLES)
def test_the_kernel_lists_the_legal_actions_as_the_engine_does(
    profile: str, sets: tuple[str, ...]
) -> None:
    game = _game(profile, sets)
    c = compiled_game(game.rules)
    out = np.zeros(256, np.int64)
    jx, jy = np.zeros(16, np.int64), np.zeros(16, np.int64)
    log = np.empty((0, 2), np.int32)
    checked = 0
    for seed in range(12):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while True:
            legal = state.legal_actions()
            n = legal_into(encode(state), c.R, c.beyond, log, jx, jy, out)
            assert list(out[:n]) == legal
            if state.over:
                break
            checked += 1
            state.apply_unchecked(legal[rng.randrange(len(legal))])
    assert checked > 400


@pytest.mark.parametrize(
    ("profile", "sets", "aim", "objective"),
    [
        ("pagat", (), WIN, "win"),
        ("shichinarabe", (), POINTS, "points"),
        ("doujue", (), MONEY, "money"),
    ],
)
def test_a_finished_games_value_is_the_engines_utility(
    profile: str, sets: tuple[str, ...], aim: int, objective: str
) -> None:
    game = _game(profile, sets)
    c = compiled_game(game.rules)
    res = np.zeros((game.players, SEAT_FIELDS), np.int64)
    extra = np.zeros(GAME_FIELDS, np.int64)
    work = np.zeros(WORK, np.int64)
    for seed in range(20):
        state = game.new_state(seed=seed)
        state.play_random(random.Random(seed))
        expected = utilities(state.result(), objective)  # type: ignore[arg-type]
        for me in range(game.players):
            got = value_of(encode(state), c.R, me, aim, res, extra, work)
            # money before the covering stake, which scales every seat alike
            assert got * float(c.stake) == pytest.approx(expected[me])


def test_the_root_move_is_overruled_only_beyond_one_standard_error() -> None:
    # rows: (visits, sum, sum of squares). Prior: 4 visits of 0, 1, 0, 1 (mean 0.5,
    # variance 1/3). Move 7: 4 visits of 1 (mean 1, variance 0): gap 0.5, error
    # sqrt(0 + (1/3)/4) = 0.2887, bound 0.211 > 0: overruled.
    prior = (4, 2.0, 2.0)
    assert overrule({3: prior, 7: (4, 4.0, 4.0)}, 3) == 7
    # move 7 at 0.75 (1, 1, 1, 0: variance 1/4): gap 0.25, error sqrt(1/16 + 1/12) = 0.382
    assert overrule({3: prior, 7: (4, 3.0, 3.0)}, 3) == 3
    # the larger bound wins; a move seen once cannot overrule
    assert overrule({3: prior, 7: (4, 4.0, 4.0), 9: (1, 5.0, 25.0)}, 3) == 7
    # a prior not searched enough stays
    assert overrule({3: (1, 0.0, 0.0), 7: (4, 4.0, 4.0)}, 3) == 3


def _last_card_position(game: Game) -> State:
    """A 七並べ position where the player to move holds one card and may play it or pass."""
    for seed in range(200):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        players = [HeuristicAgent(rng, game=game) for _ in range(game.players)]
        while not state.over:
            seat = state.turn
            o = state.observation(seat)
            if o.hand_counts[seat] == 1 and PASS in o.legal and len(o.legal) == 2:
                return state
            state.apply_unchecked(players[seat].act(o))
    raise AssertionError("no such position in 200 deals")


@pytest.mark.parametrize("weigh", [True, False])
def test_the_planner_values_going_out_now_at_that_places_points(weigh: bool) -> None:
    game = _game("shichinarabe")
    state = _last_card_position(game)
    me = state.turn
    o = state.observation(me)
    card = next(a for a in o.legal if a != PASS)
    rng = random.Random(3)
    planner = Planner(
        rng,
        game,
        "points",
        lambda seen: Belief(game, seen),
        None,
        iterations=300,
        deals=8,
        weigh=weigh,
    )
    rows, favourite = planner.root(o)
    assert favourite in o.legal
    assert sum(v for v, _, _ in rows.values()) == 300  # every iteration passes the root
    assert set(rows) <= set(o.legal)
    visits, total, squares = rows[card]
    # rank points 3/2/1/0 (RULES.md): going out now takes the place after those already out
    # (a seat that burst laid its hand down and ranks last)
    points = 3 - len(o.finished)
    assert points > 0
    assert total == points * visits and squares == points * points * visits
    # nothing does better than going out, so the planner keeps it where it is the prior
    assert planner.act(o, card) == card


def test_expert_plans_where_a_pass_is_a_choice() -> None:
    assert plans(_game("shichinarabe", ("deck.jokers=1",)))
    assert not plans(_game("pagat"))  # players must play when they can
    assert not plans(_game("doujue"))
    game = _game("shichinarabe", ("deck.jokers=1",))
    model = model_for(game.rules.fingerprint, BELIEF)
    assert model is not None  # shipped
    expert = ExpertAgent(random.Random(0), game=game, model=model)
    assert expert.planner is not None and expert.planner.deals == 64
    named = ExpertAgent(random.Random(0), game=game, model=model, budget="8x1")
    assert named.planner is not None and named.planner.deals == 8  # expert:NxM: N deals
    assert ExpertAgent(random.Random(0), game=game, model=model, plan=False).planner is None
    # a whole game of expert at every seat: legal moves, to the end
    state = game.new_state(seed=11)
    while not state.over:
        o = state.observation(state.turn)
        action = expert.act(o)
        assert action in o.legal
        state.apply_unchecked(action)
