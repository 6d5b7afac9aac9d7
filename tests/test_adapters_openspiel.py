"""The OpenSpiel games: OpenSpiel's own random simulation test (with serialization) on every
built-in profile, deals and moves against the engine, information states that hide what
they must, and paiqi's belief sampler behind ``resample_from_infostate``, used by
OpenSpiel's IS-MCTS bot."""

from __future__ import annotations

import pickle
import random

import pytest

from paiqi_core.actions import DRAW, DRAW_CARD, GIVE
from paiqi_core.cards import alike, bits, card_text
from paiqi_core.engine import Game
from paiqi_core.resources import builtin_profiles
from paiqi_core.search.objective import utilities

from .adapters_support import STOCK_VARIANTS, documented_index, need, options_string

np = need("numpy")
pyspiel = need("pyspiel")
from paiqi_core.adapters import openspiel as adapter  # noqa: E402

JOKER_VARIANTS = [
    ("shichinarabe", "deck.jokers:1"),
    ("shichinarabe-tunnel", "deck.jokers:1;players:3"),
    ("doujue-passes", "deck.jokers:1"),
    ("platform-zhanlong", "deck.jokers:1;players:5"),
    ("shichinarabe", "deck.jokers:1;turn.extra_after_end:may"),  # the same seat moves again
    # 32 cards from the 8: only the pack is dealt, and the door card chance (none here)
    ("shichinarabe", "deck.jokers:1;layout.ace:high;deck.ranks:7-A;layout.centre:8"),
    ("platform", "deck.ranks:A-10;layout.centre:5"),  # a door card cut from 40 cards
    # several jokers, alike: each is a chance outcome of its own, one entry in observations
    ("shichinarabe", "deck.jokers:2"),
    # the holder of a joker's place answers out of turn, or the joker keeps the place
    ("shichinarabe", "deck.jokers:1;turn.joker_handover:optional"),
    ("doujue", "deck.jokers:1;turn.joker_handover:never"),
    ("doujue", "deck.jokers:4;players:5"),
    # leftovers face up: the last cards of the deal's chance nodes lie face up
    ("pagat", "players:5;deck.leftover:face_up"),
    # a pass takes a card: the giver's move, its card seen by the giver and the taker only
    ("pagat", "turn.pass_takes:chosen"),
    # a stock: the seat's draw, then a chance node over the stock's cards
    *((pid, options_string(o)) for pid, o in STOCK_VARIANTS),
    # several decks: the deal draws among copies (a card left twice is twice as likely)
    ("pagat", "deck.decks:2;players:8"),
    ("pagat", "deck.decks:3;players:12"),
    ("shichinarabe", "deck.decks:2;players:6"),  # every 7 out; a burst lays its copies
    ("pagat", "deck.decks:2;players:5;turn.pass_takes:chosen"),
]


def players_of(options: str) -> int:
    """The players an options string sets (four, as the profiles here have, otherwise)."""
    pairs = dict(o.split(":", 1) for o in options.split(";") if o)
    return int(pairs.get("players", 4))


def deal(state: object, rng: random.Random) -> None:
    while state.is_chance_node():  # type: ignore[attr-defined]
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)  # type: ignore[attr-defined]
        assert abs(sum(probs) - 1) < 1e-9
        state.apply_action(rng.choice(outcomes))  # type: ignore[attr-defined]


@pytest.mark.parametrize("profile", sorted(builtin_profiles()))
def test_random_sim_test_with_serialization_for_every_builtin_profile(profile: str) -> None:
    game = pyspiel.load_game(adapter.short_name(profile))
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)
    assert str(game) == f"{adapter.short_name(profile)}(options=)"


@pytest.mark.parametrize(("profile", "options"), JOKER_VARIANTS)
def test_random_sim_test_with_the_joker_and_other_table_sizes(profile: str, options: str) -> None:
    game = pyspiel.load_game("paiqi", {"profile": profile, "options": options})
    assert game.num_players() == players_of(options)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("profile", "options"),
    [("doujue", ""), ("platform", ""), ("shichinarabe", ""), ("bicycle", ""),
     ("pagat", "players:12"), *JOKER_VARIANTS],
)  # fmt: skip
def test_paiqis_deal_and_moves_give_the_engines_game(profile: str, options: str) -> None:
    """The chance outcomes of paiqi's deal ``seed`` deal the engine's hands (and door card);
    random moves then find the engine's legal actions (numbered as documented) at every
    turn, and the returns are the objective of the engine's result."""
    game = pyspiel.load_game("paiqi", {"profile": profile, "options": options})
    engine: Game = game.paiqi
    for seed in range(5):
        state = game.new_initial_state()
        for card in adapter.chance_outcomes_of_seed(engine, seed):
            assert state.is_chance_node()
            assert card in dict(state.chance_outcomes())
            state.apply_action(card)
        twin = engine.new_state(seed)
        # the same hands; which of the alike jokers a hand holds is no one's knowledge
        assert list(map(alike, state.paiqi_state.hands)) == list(map(alike, twin.hands))
        for s in range(engine.players):  # each card as often as dealt (several decks)
            assert [min(c, 52) for c in state.paiqi_state.held(s)] == [
                min(c, 52) for c in twin.held(s)
            ]
        assert state.paiqi_state.door_card == twin.door_card
        rng = random.Random(seed)
        while not twin.over:
            assert state.current_player() == twin.turn
            legal = twin.legal_actions()
            assert state.legal_actions() == [documented_index(a) for a in legal]
            action = legal[rng.randrange(len(legal))]
            stock = twin.stock
            twin.apply(action)
            state.apply_action(documented_index(action))
            if action == DRAW:  # chance draws the card: the one the engine drew
                card = [a for _, a in twin.log if DRAW_CARD <= a < GIVE][-1] - DRAW_CARD
                assert state.is_chance_node()
                cards = list(bits(stock))
                assert state.chance_outcomes() == [(c, 1 / len(cards)) for c in cards]
                state.apply_action(card)
        assert state.is_terminal()
        expected = utilities(twin.result(), engine.rules.facts.objective)
        assert state.returns() == expected
        low, high = game.min_utility(), game.max_utility()
        assert all(low <= r <= high for r in expected)
        assert len(state.history()) - game.max_chance_nodes_in_history() <= game.max_game_length()


@pytest.mark.parametrize(
    ("profile", "options"),
    [("doujue", ""), ("platform", ""), ("platform", "players:5"), *JOKER_VARIANTS],
)
def test_chance_outcomes_of_a_seed_are_pythons_shuffle_and_cut(profile: str, options: str) -> None:
    """The kernel deals the chance outcomes of a seed where it plays the game: the same cards
    as the shuffle and the door card's cut in Python (``seeds.shuffled`` and
    ``Game._cut_door``, from the seed's stream ``Stream(seed)``), for seeds of one and
    several 64-bit words, and negative ones."""
    from paiqi_core.seeds import shuffled
    from paiqi_core.streams import Stream

    game = pyspiel.load_game("paiqi", {"profile": profile, "options": options})
    engine: Game = game.paiqi
    assert game.stepper.fast
    for seed in [*range(12), 2**32 + 5, -77, 2**200 + 1, 2**300]:
        rng = Stream(seed)
        deck = shuffled(engine.deck, rng)
        door = engine._cut_door(deck, rng)
        alike_deck = [min(c, 52) for c in deck]  # a joker's outcome is 52, whichever it is
        expected = alike_deck + ([] if door is None else [door])
        assert adapter.chance_outcomes_of_seed(engine, seed) == expected
        assert (door is not None) == profile.startswith("platform")  # both cut one


def test_utility_bounds_and_length_follow_from_the_rules() -> None:
    doujue = pyspiel.load_game("paiqi_doujue")
    # the most points 13 covered cards hold: four K, four Q, four J and a 10 = 154; a payer
    # pays at most 154 x 3 (大頭) x 2 (bust) x 8 (尾張7 winner) = 7392, a winner collects from
    # three payers at most
    assert (doujue.min_utility(), doujue.max_utility()) == (-7392, 3 * 7392)
    assert doujue.max_game_length() == 52  # every move plays or covers a card
    stake = pyspiel.load_game("paiqi_doujue", {"options": "scoring.stake:2"})
    assert stake.min_utility() == -2 * 7392
    pagat = pyspiel.load_game("paiqi_pagat")
    assert (pagat.min_utility(), pagat.max_utility()) == (0, 1)  # a share of the win
    japanese = pyspiel.load_game("paiqi_shichinarabe")
    assert (japanese.min_utility(), japanese.max_utility()) == (0, 3)  # rank points 3/2/1/0
    assert japanese.max_game_length() == 52 + 4 * 3  # cards and three passes a seat
    bicycle = pyspiel.load_game("paiqi_bicycle")
    # a seat passes at most once between two cards and once before the first: 53 passes,
    # 54 chips with the ante, and a chip to the winner for each of 13 cards still held: 67
    assert (bicycle.min_utility(), bicycle.max_utility()) == (-67, 3 * 67)
    # passes by choice without a limit: the stall rule (10 rounds) bounds the game, fewer
    # than 10 * 4 passes in a row before the first card and after each of the 52
    endless = pyspiel.load_game("paiqi", {"profile": "pagat", "options": "turn.must_play:false"})
    assert endless.max_game_length() == 52 + (10 * 4 - 1) * 53
    stalling = pyspiel.load_game(
        "paiqi", {"profile": "shichinarabe", "options": "turn.pass_limit:null; ending.stall:2"}
    )
    assert stalling.max_game_length() == 52 + (2 * 4 - 1) * 53
    # seats tied by a stall share a rank's points: no constant sum
    assert stalling.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_options_and_names() -> None:
    a = pyspiel.load_game("paiqi", {"profile": "doujue", "options": "scoring.stake=2; players:4"})
    assert str(a) == "paiqi(options=scoring.stake:2;players:4,profile=doujue)"
    again = pyspiel.load_game(str(a))
    assert again.paiqi is a.paiqi
    # the same rules without naming the default player count: the same rules, their own
    # options (which the records of its games carry)
    same = adapter.paiqi_game("doujue", {"scoring.stake": 2}).paiqi
    assert same.rules.fingerprint == a.paiqi.rules.fingerprint
    assert dict(same.rules.options) == {"scoring.stake": 2}
    assert adapter.paiqi_game("shichinarabe", ["players=3"]).num_players() == 3
    with pytest.raises(ValueError, match="cannot hold"):
        adapter.options_text({"scoring.closure_bonus": [4, 1, 2, 3]})


def play_some(game: object, seed: int, moves: int) -> object:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    deal(state, rng)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    ("profile", "options"),
    [("doujue", ""), ("platform", ""), ("shichinarabe", ""), ("pagat", ""), JOKER_VARIANTS[2],
     ("pagat", options_string(STOCK_VARIANTS[0][1])),
     # several decks: the sample deals copies, and its history deals them in order
     ("pagat", "deck.decks:2;players:5"), ("shichinarabe", "deck.decks:2;players:6")],
)  # fmt: skip
def test_resample_from_infostate_agrees_with_the_seat_and_varies_the_rest(
    profile: str, options: str
) -> None:
    game = pyspiel.load_game("paiqi", {"profile": profile, "options": options})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seed in range(3):
        state = play_some(game, seed, 12 + 7 * seed)
        seat = state.current_player()
        hidden = set()
        for _ in range(12):
            sample = state.resample_from_infostate(seat, sampler)
            assert sample.information_state_string(seat) == state.information_state_string(seat)
            assert sample.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert sample.observation_tensor(seat) == state.observation_tensor(seat)
            assert sample.legal_actions() == state.legal_actions()
            hidden.add(tuple(sample.paiqi_state.hands))
            # a valid OpenSpiel history: replayed from the start, it is the same state
            replay = game.new_initial_state()
            for action in sample.history():
                replay.apply_action(action)
            assert str(replay) == str(sample)
        assert len(hidden) > 1  # other seats' cards are drawn anew


def test_information_states_hide_other_hands_and_remember_the_past() -> None:
    game = pyspiel.load_game("paiqi_doujue")
    state = play_some(game, 5, 20)
    seat = state.current_player()
    other = (seat + 1) % 4
    sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    # the seat's own view is the same; another seat's private view generally is not
    assert sample.information_state_string(seat) == state.information_state_string(seat)
    hands_differ = sample.paiqi_state.hands[other] != state.paiqi_state.hands[other]
    assert hands_differ == (
        sample.information_state_string(other) != state.information_state_string(other)
    )
    # perfect recall: every move adds to the information state of every seat
    before = [state.information_state_string(s) for s in range(4)]
    state.apply_action(state.legal_actions()[0])
    after = [state.information_state_string(s) for s in range(4)]
    assert all(
        b != a and a.startswith(b.split("\n")[0]) for b, a in zip(before, after, strict=True)
    )
    size = game.information_state_tensor_size()
    assert len(state.information_state_tensor(0)) == size
    assert game.observation_tensor_size() == 7 * 53 + 16 + 8 * 4 + 1  # the stock's count last


def test_a_state_pickles_and_plays_on() -> None:
    game = pyspiel.load_game("paiqi", {"profile": "platform", "options": "scoring.rate:5"})
    state = play_some(game, 2, 10)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    assert copy.information_state_string(1) == state.information_state_string(1)
    clone = state.clone()
    action = state.legal_actions()[-1]
    for s in (state, copy, clone):
        s.apply_action(action)
    assert str(state) == str(copy) == str(clone)


def test_openspiels_ismcts_bot_plays_whole_games_of_each_family() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    stock = ("paiqi", {"profile": "pagat", "options": options_string(STOCK_VARIANTS[0][1])})
    names = [(f"paiqi_{f}", {}) for f in ("doujue", "platform", "shichinarabe", "pagat")]
    for name, params in [*names, stock]:  # with a stock: chance nodes in play too
        game = pyspiel.load_game(name, params)
        rs = np.random.RandomState(3)
        bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=8, random_state=rs
        )
        state = game.new_initial_state()
        deal(state, random.Random(3))
        rng = random.Random(4)
        while not state.is_terminal():
            if state.is_chance_node():
                deal(state, rng)
                continue
            if state.current_player() == 0:
                action = bot.step(state)
            else:
                action = rng.choice(state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
        assert len(state.returns()) == 4


@pytest.mark.parametrize(
    ("profile", "options"),
    [("platform", "deck.jokers:1"), ("pagat", options_string(STOCK_VARIANTS[0][1]))],
)
def test_legal_actions_answered_in_python_are_openspiels(profile: str, options: str) -> None:
    """The state answers ``legal_actions`` in Python for speed; OpenSpiel's own C++ answer,
    for every player, must be the same at every kind of node (a card drawn from the stock's
    chance node too)."""
    cpp = pyspiel.State.legal_actions
    game = pyspiel.load_game("paiqi", {"profile": profile, "options": options})
    rng = random.Random(9)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            assert state.legal_actions() == cpp(state)
            for player in range(game.num_players()):
                assert state.legal_actions(player) == cpp(state, player)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_profile_file_of_ones_own_is_a_game_too(tmp_path: object) -> None:
    path = tmp_path / "house.yaml"  # type: ignore[operator]
    path.write_text(
        "id: house\nname: five-seat covering\nextends: doujue\nplayers: 5\nscoring: {stake: 3}\n",
        encoding="utf-8",
    )
    game = pyspiel.load_game("paiqi", {"profile": str(path)})
    assert game.num_players() == 5
    assert game.paiqi.rules.id == "house"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_public_observer_leaves_out_the_seats_own_cards() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("paiqi_doujue")
    state = play_some(game, 8, 30)
    public_type = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    public = make_observation(game, public_type)
    for seat in range(4):
        private.set_from(state, seat)
        public.set_from(state, seat)
        assert private.dict["hand"].any() and not public.dict["hand"].any()
        assert not public.dict["covered"].any() and not public.dict["dealt"].any()
        assert (public.dict["table"] == private.dict["table"]).all()
        assert "dealt: -" in public.string_from(state, seat)


@pytest.mark.parametrize(("profile", "overrides"), STOCK_VARIANTS)
def test_a_draw_is_the_seats_action_then_chance_over_the_stock(
    profile: str, overrides: dict[str, object]
) -> None:
    """A stuck seat's one action is the draw (211); the state is then a chance node whose
    outcomes are the stock's cards, each as likely, and the outcome goes to that seat. Its
    own information state shows the card, the others' only that it drew; the stock's count
    is public. A state copies, pickles and resamples at that chance node, and the game
    declares a chance node per card the stock holds."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("paiqi", {"profile": profile, "options": options_string(overrides)})
    rules = game.paiqi.rules
    stock = len(rules.deck) - rules.hand * rules.players
    assert game.max_chance_nodes_in_history() == len(rules.deck) + stock
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    draws = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state()
        deal(state, rng)
        while not state.is_terminal():
            legal = state.legal_actions()
            if legal != [211]:
                assert 211 not in legal
                state.apply_action(rng.choice(legal))
                continue
            seat = state.current_player()
            left = state.paiqi_state.stock
            assert state.observation_tensor(seat)[-1] == left.bit_count()
            assert state.action_to_string(seat, 211) == "draw"
            state.apply_action(211)
            assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
            outcomes = state.chance_outcomes()
            assert [c for c, _ in outcomes] == list(bits(left)) == state.legal_actions()
            assert all(p == pytest.approx(1 / left.bit_count()) for _, p in outcomes)
            assert str(state).endswith(f"seat {seat} draws from the stock")
            for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
                assert copy.is_chance_node() and str(copy) == str(state)
                assert copy.history() == state.history()
            if draws < 3:
                sample = state.resample_from_infostate(seat, sampler)
                assert sample.is_chance_node()
                assert sample.information_state_string(seat) == state.information_state_string(seat)
            card = rng.choice([c for c, _ in outcomes])
            assert (
                state.action_to_string(pyspiel.PlayerId.CHANCE, card) == f"draw {card_text(card)}"
            )
            state.apply_action(card)
            draws += 1
            assert state.paiqi_state.stock == left & ~(1 << card)
            log = state.paiqi_state.log
            at = max(i for i, (_, a) in enumerate(log) if DRAW_CARD <= a < GIVE)
            assert log[at] == (seat, DRAW_CARD + card)
            other = (seat + 1) % rules.players
            # the draw's row of the information-state tensor: kind "draw" (the 11th) for
            # both, the card for the seat that drew it only
            n = rules.players
            for viewer, shown in ((seat, True), (other, False)):
                recall.set_from(state, viewer)
                row = recall.dict["history"][at]
                assert row[(seat - viewer) % n] == 1 and row[n + 10] == 1
                assert row[n + 11 : n + 11 + 53].tolist() == [
                    float(shown and c == card) for c in range(53)
                ]
            mine = state.information_state_string(seat).split("\n")[1].split()
            theirs = state.information_state_string(other).split("\n")[1].split()
            assert f"{seat}:draw" in theirs and f"{seat}:draw {card_text(card)}" not in " ".join(
                theirs
            )
            assert f"draw {card_text(card)}" in " ".join(mine)
        assert len(state.history()) - game.max_chance_nodes_in_history() <= game.max_game_length()
    assert draws > 10
