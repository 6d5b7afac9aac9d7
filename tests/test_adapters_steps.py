"""The adapters' compiled path against the Python engine, the reference.

Where paiqi's numba kernel can play a profile, the adapters step their games in it
(``paiqi_core.adapters.steps``). For many random games of every built-in profile, and of
variants with the joker, other table sizes and pass limits: the legal actions, the mask,
every seat's observation (with and without its own cards) at every turn, the result and
the rebuilt ``State`` are the Python engine's, from paiqi's deals, from dealt hands and from
positions in the middle of a game. The PettingZoo, Gymnasium and OpenSpiel adapters give
the same observations, masks, rewards and results under both engines; a profile with a
plugin hook, or no numba, falls back to the Python engine. Several decks (``deck.decks``)
too: hands and the table hold copies, which the observations count.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiqi_core import fast
from paiqi_core.actions import DRAW_CARD, GIVE, JOKER
from paiqi_core.cards import bits
from paiqi_core.engine import IllegalAction
from paiqi_core.games import game_for
from paiqi_core.hooks import registry
from paiqi_core.resources import builtin_profiles

from .adapters_support import (
    STOCK_VARIANTS,
    documented_index,
    need,
    options_string,
    overrides_list,
)

np = need("numpy")
if not fast.available():  # pragma: no cover - numba is part of the test extras
    pytest.skip("numba is not installed", allow_module_level=True)

from paiqi_core.adapters.encoding import NUM_ACTIONS  # noqa: E402
from paiqi_core.adapters.steps import EngineSteps, KernelSteps, Stepper  # noqa: E402

VARIANTS: list[tuple[str, tuple[str, ...]]] = [
    *((pid, ()) for pid in sorted(builtin_profiles())),
    ("shichinarabe", ("deck.jokers=1",)),
    ("shichinarabe-wrap", ("deck.jokers=1", "players=3")),
    ("shichinarabe-tunnel", ("deck.jokers=1",)),
    ("doujue-passes", ("deck.jokers=1",)),
    ("doujue-passes", ("turn.pass_limit=1", "turn.out_of_passes=burst", "deck.jokers=1")),
    ("platform-zhanlong", ("deck.jokers=1", "players=5")),
    ("doujue", ("players=3", "turn.must_play=false")),
    ("bicycle", ("players=7",)),
    # leftovers face up: in the observation's face_up section, played with the play actions
    ("pagat", ("players=5", "deck.leftover=face_up")),
    ("doujue", ("players=3", "deck.leftover=face_up")),
    # a pass takes a card: the previous player's give actions (158..210)
    ("pagat", ("turn.pass_takes=chosen",)),
    ("doujue-passes", ("turn.pass_takes=chosen", "deck.jokers=1")),
    # a stock to draw from: the draw (211) takes its card from the deal's stream, or the
    # stream of the state given (from dealt hands: the state vector's)
    *((pid, overrides_list(o)) for pid, o in STOCK_VARIANTS),
    # several decks: each card up to two or three times, in hands and on the table; with
    # sevens out every copy of each 7 is placed, a burst lays every copy it holds, and a
    # card handed on may join its copy
    ("pagat", ("deck.decks=2", "players=8")),
    ("pagat", ("deck.decks=3", "players=12")),
    ("shichinarabe", ("deck.decks=2", "players=6")),
    ("shichinarabe", ("deck.decks=3", "players=9", "turn.pass_limit=1")),
    ("pagat", ("deck.decks=2", "players=5", "turn.pass_takes=chosen")),
]
GAMES = 40


def same_position(a: Any, b: Any, players: int) -> None:
    """Both engines agree on everything the adapters read of a position."""
    assert (a.over, a.turn) == (b.over, b.turn)
    assert a.legal_indices() == b.legal_indices()
    assert (a.mask() == b.mask()).all()
    for seat in range(players):
        for private in (True, False):
            assert (a.observation(seat, private) == b.observation(seat, private)).all()
        obs_a, mask_a = a.view(seat, seat == a.turn)
        obs_b, mask_b = b.view(seat, seat == b.turn)
        assert (obs_a == obs_b).all() and (mask_a == mask_b).all()
    if a.game.rules.decks > 1:  # the copies held, and every hand's row of the global state
        assert (a.global_state() == b.global_state()).all()
        assert a.state.hand_counts() == b.state.hand_counts()


def play_both(a: Any, b: Any, rng: random.Random, players: int) -> int:
    """Random legal moves in both to the end, comparing every position; joker moves made."""
    jokers = 0
    while True:
        same_position(a, b, players)
        if a.over:
            break
        index = rng.choice(a.legal_indices())
        jokers += index >= 106
        a.step(index)
        b.step(index)
    assert a.result() == b.result()
    assert a.state.log == b.state.log and a.state.hands == b.state.hands
    assert [a.state.held(s) for s in range(players)] == [b.state.held(s) for s in range(players)]
    assert a.state.result() == b.result()
    assert (a.global_state() == b.global_state()).all()
    return jokers


@pytest.mark.parametrize(("profile", "overrides"), VARIANTS)
def test_kernel_steps_play_the_engines_games(profile: str, overrides: tuple[str, ...]) -> None:
    game = game_for(profile, overrides)
    kernel = Stepper(game, "fast", 2000)
    python = Stepper(game, "python", 2000)
    assert kernel.fast and not python.fast
    n = game.players
    jokers = 0
    for seed in range(GAMES):
        a, b = kernel.from_seed(seed), python.from_seed(seed)
        assert isinstance(a, KernelSteps) and isinstance(b, EngineSteps)
        jokers += play_both(a, b, random.Random(seed), n)
    # from dealt hands (OpenSpiel's deal), and from a position in the middle of a game
    for seed in range(GAMES, GAMES + 10):
        dealt = game.new_state(seed)
        # (each card as often as dealt; one joker number stands for any)
        hands = [[c for c in dealt.dealt_cards(s) if c < 53] for s in range(n)]
        a = kernel.from_hands(hands, dealt.door_card)
        b = python.from_hands(hands, dealt.door_card)
        jokers += play_both(a, b, random.Random(seed), n)
        middle = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(40)):
            if middle.over:
                break
            legal = middle.legal_actions()
            middle.apply(legal[rng.randrange(len(legal))])
        before = list(middle.log)
        a, b = kernel.from_state(middle), python.from_state(middle)
        assert middle.log == before  # the given state is left as it was
        jokers += play_both(a, b, rng, n)
    if game.rules.jokers:
        assert jokers > 0  # joker moves were exercised


def test_an_illegal_index_raises_and_changes_nothing() -> None:
    game = game_for("doujue-passes", ("deck.jokers=1",))
    for engine in ("fast", "python"):
        steps = Stepper(game, engine, 200).from_seed(3)
        before = (steps.legal_indices(), steps.observation(steps.turn).tobytes())
        wrong = next(i for i in range(NUM_ACTIONS) if i not in before[0])
        for index in (wrong, -1, NUM_ACTIONS, 10**30):
            with pytest.raises(IllegalAction, match="not"):
                steps.step(index)
        assert (steps.legal_indices(), steps.observation(steps.turn).tobytes()) == before


def test_the_rebuilt_state_keeps_up_and_clones_play_on_apart() -> None:
    game = game_for("shichinarabe", ("deck.jokers=1",))
    stepper = Stepper(game, "fast", 200)
    steps = stepper.from_seed(11)
    twin = game.new_state(11)
    rng = random.Random(11)
    while not steps.over:
        assert steps.state.log == twin.log  # brought up to date at every request
        index = rng.choice(steps.legal_indices())
        action = next(a for a in twin.legal_actions() if documented_index(a) == index)
        if rng.random() < 0.2:  # a copy plays on alone; the original does not move
            copy, ahead = steps.clone(), twin.clone()
            copy.step(index)
            ahead.apply(action)
            assert copy.state.log == ahead.log
            expected = Stepper(game, "python").from_state(ahead).observation(0)
            assert (copy.observation(0) == expected).all()
            assert steps.state.log == twin.log
        steps.step(index)
        twin.apply(action)
    assert steps.result() == twin.result()


# -- the environments under both engines -----------------------------------------------------
ENV_VARIANTS = [
    ("doujue", None),
    ("platform", None),
    ("pagat", None),
    ("bicycle", None),
    ("shichinarabe", {"deck.jokers": 1}),
    ("doujue-passes", {"deck.jokers": 1}),
    ("pagat", {"players": 5, "deck.leftover": "face_up"}),
    ("pagat", {"turn.pass_takes": "chosen"}),
    *STOCK_VARIANTS,
    ("pagat", {"deck.decks": 2, "players": 8}),
    ("pagat", {"deck.decks": 3, "players": 12}),
]


@pytest.mark.parametrize(("profile", "overrides"), ENV_VARIANTS)
def test_pettingzoo_gives_the_same_under_both_engines(
    profile: str, overrides: dict[str, int] | None
) -> None:
    need("pettingzoo")
    from paiqi_core.adapters.pettingzoo import paiqi_env

    envs = [paiqi_env(profile, overrides, engine=e) for e in ("fast", "python")]
    assert [e.compiled for e in envs] == [True, False]
    for seed in [*range(12), None, None]:
        for env in envs:
            env.reset(seed=seed)
        pick = random.Random(seed)
        for agent in envs[0].agent_iter():
            steps = [env.last() for env in envs]
            assert envs[1].agent_selection == agent
            (obs, reward, terminated, truncated, info), other = steps
            assert (obs["observation"] == other[0]["observation"]).all()
            assert obs["observation"].dtype == other[0]["observation"].dtype
            assert (obs["action_mask"] == other[0]["action_mask"]).all()
            assert obs["action_mask"].dtype == other[0]["action_mask"].dtype
            assert (reward, terminated, truncated, info) == other[1:]
            for seat in envs[0].possible_agents:  # every agent's view, not only the mover's
                a, b = (env.observe(seat) for env in envs)
                assert (a["observation"] == b["observation"]).all()
                assert (a["action_mask"] == b["action_mask"]).all()
            action = (
                None
                if terminated or truncated
                else pick.choice(np.flatnonzero(obs["action_mask"]).tolist())
            )
            for env in envs:
                env.step(action)
        assert envs[0].rewards == envs[1].rewards
        assert envs[0].paiqi_state.log == envs[1].paiqi_state.log
        assert envs[0].render_mode is None


@pytest.mark.parametrize(("profile", "overrides"), ENV_VARIANTS)
def test_gymnasium_against_random_players_is_the_same_under_both_engines(
    profile: str, overrides: dict[str, int] | None
) -> None:
    """The kernel plays the random opponents with the deal's stream, as ``RandomAgent``
    draws from it: the same games, and the rebuilt state's stream is where theirs is."""
    need("gymnasium")
    from paiqi_core.adapters.gymnasium import paiqi_gym_env

    for seat in (0, 3):
        envs = [
            paiqi_gym_env(profile, overrides, seat=seat, opponents="random", engine=e)
            for e in ("fast", "python")
        ]
        assert [e.compiled for e in envs] == [True, False]
        for seed in [*range(8), None, 2**70, 2**300]:
            (obs, _), (other, _) = (env.reset(seed=seed) for env in envs)
            pick = random.Random(seed)
            while True:
                assert (obs["observation"] == other["observation"]).all()
                assert (obs["action_mask"] == other["action_mask"]).all()
                action = pick.choice(np.flatnonzero(obs["action_mask"]).tolist())
                (obs, *rest), (other, *more) = (env.step(action) for env in envs)
                assert rest == more
                if rest[1] or rest[2]:
                    break
            a, b = (env.paiqi_state for env in envs)
            assert a is not None and b is not None
            assert a.log == b.log
            assert a.rng is not None and b.rng is not None
            assert a.rng.getstate() == b.rng.getstate()


def test_gymnasium_with_search_opponents_plays_in_python() -> None:
    need("gymnasium")
    from paiqi_core.adapters.gymnasium import paiqi_gym_env

    assert paiqi_gym_env("doujue", opponents="easy").compiled
    assert not paiqi_gym_env("doujue", opponents=["random", "heuristic", "random"]).compiled
    with pytest.raises(ValueError, match="random opponents only"):
        paiqi_gym_env("doujue", opponents="heuristic", engine="fast")


@pytest.mark.parametrize(
    ("profile", "options"),
    [("doujue", ""), ("shichinarabe", "deck.jokers:1"),
     # (a stock where a player need not play: long games, slow information states here;
     # its draws are compared above and in OpenSpiel's own test)
     *((pid, options_string(o)) for pid, o in STOCK_VARIANTS if "turn.must_play" not in o),
     # several decks: the deal's chance nodes draw copies; a smaller table keeps the
     # information-state tensors (a row per possible move) small enough to compare often
     ("pagat", "deck.decks:2;players:5"),
     ("shichinarabe", "deck.decks:2;players:6")],
)  # fmt: skip
def test_openspiel_gives_the_same_under_both_engines(profile: str, options: str) -> None:
    pyspiel = need("pyspiel")
    from paiqi_core.adapters import openspiel as adapter

    games = [pyspiel.load_game("paiqi", {"profile": profile, "options": options})]
    fast.use("python")
    try:
        games.append(pyspiel.load_game("paiqi", {"profile": profile, "options": options}))
    finally:
        fast.use("auto")
    assert [g.stepper.fast for g in games] == [True, False]
    for seed in range(6):
        states = [g.new_initial_state() for g in games]
        for card in adapter.chance_outcomes_of_seed(games[0].paiqi, seed):
            for s in states:
                s.apply_action(card)
        rng = random.Random(seed)
        while True:
            a, b = states
            assert a.current_player() == b.current_player()
            assert a.legal_actions() == b.legal_actions()
            for seat in range(games[0].num_players()):
                assert a.observation_tensor(seat) == b.observation_tensor(seat)
                assert a.observation_string(seat) == b.observation_string(seat)
                assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
            if a.is_terminal():
                break
            if a.is_chance_node():  # a card drawn from the stock
                assert a.chance_outcomes() == b.chance_outcomes()
            action = rng.choice(a.legal_actions())
            for s in states:
                s.apply_action(action)
        assert a.returns() == b.returns()
        assert str(a) == str(b)


@pytest.mark.parametrize(("profile", "overrides"), STOCK_VARIANTS[:2])
def test_a_card_chance_chose_is_drawn_at_both_speeds(
    profile: str, overrides: dict[str, object]
) -> None:
    """``draw(card)`` (OpenSpiel's chance node) draws the very card named, where the draw is
    legal and the stock holds it, at both speeds alike; anything else is refused and changes
    nothing. The stock's count is the observation's last entry."""
    game = game_for(profile, overrides_list(overrides))
    drawn = 0
    for seed in range(8):
        both = [Stepper(game, e, 2000).from_seed(seed) for e in ("fast", "python")]
        rng = random.Random(seed)
        while not both[0].over:
            a, b = both
            assert a.stock() == b.stock() == a.state.stock
            assert a.observation(a.turn)[-1] == a.stock().bit_count()
            legal = a.legal_indices()
            if 211 not in legal:
                with pytest.raises(IllegalAction, match="draw"):
                    a.draw(next(iter(bits(a.stock())), 0))
                index = rng.choice(legal)
                for steps in both:
                    steps.step(index)
                continue
            assert legal == [211] and a.stock()
            held = next(c for c in range(52) if a.state.hands[a.turn] >> c & 1)
            for steps in both:
                for wrong in (held, -1, 52, 10**30):
                    with pytest.raises(IllegalAction, match="draw"):
                        steps.draw(wrong)
            card = rng.choice(list(bits(a.stock())))
            for steps in both:
                steps.draw(card)
                draws = [act for _, act in steps.state.log if DRAW_CARD <= act < GIVE]
                assert draws[-1] == DRAW_CARD + card
            drawn += 1
            same_position(a, b, game.players)
        assert a.state.log == b.state.log and a.result() == b.result()
    assert drawn > 20


# -- when the kernel does not play ----------------------------------------------------------------
@pytest.fixture
def plugin_ending(tmp_path: Path) -> Iterator[Path]:
    """An ending hook outside paiqi (it declares no compiled form), and a profile using it."""
    from paiqi_core.slots import Ending

    class TwoOut(Ending):
        def over(self, game: Any) -> bool:
            return len(game.finished) >= 2 or not any(game.hands)

    registry.register("ending", "test_two_out_adapters", summary="two players out")(
        lambda p: TwoOut()
    )
    path = tmp_path / "two-out.yaml"
    path.write_text("id: two-out\nextends: pagat\nending:\n  method: test_two_out_adapters\n")
    yield path
    del registry._REGISTRY["ending"]["test_two_out_adapters"]


def test_a_profile_the_kernel_cannot_play_falls_back_to_the_engine(plugin_ending: Path) -> None:
    need("pettingzoo")
    pyspiel = need("pyspiel")
    from pettingzoo.test import api_test

    from paiqi_core.adapters.gymnasium import paiqi_gym_env
    from paiqi_core.adapters.pettingzoo import paiqi_env

    env = paiqi_env(str(plugin_ending))
    assert not env.compiled
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=100)
    finished = 0
    for seed in range(5):
        env.reset(seed=seed)
        pick = random.Random(seed)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            env.step(None if terminated or truncated else pick.choice(legal))
        assert env.paiqi_state is not None and env.paiqi_state.over
        finished += len(env.paiqi_state.finished)
    assert finished >= 10  # the plugin's ending: two players out, not one
    with pytest.raises(ValueError, match="no compiled form"):
        paiqi_env(str(plugin_ending), engine="fast")
    assert not paiqi_gym_env(str(plugin_ending), opponents="random").compiled
    game = pyspiel.load_game("paiqi", {"profile": str(plugin_ending)})
    assert not game.stepper.fast
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_without_numba_the_adapters_play_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    need("pettingzoo")
    from paiqi_core.adapters.pettingzoo import paiqi_env

    monkeypatch.setattr(fast, "installed", lambda: False)
    monkeypatch.setattr(fast, "available", lambda: False)
    env = paiqi_env("doujue")
    assert not env.compiled
    env.reset(seed=1)
    assert env.legal_indices() == [
        documented_index(a) for a in env.game.new_state(1).legal_actions()
    ]
    with pytest.raises(ValueError, match="numba is not installed"):
        paiqi_env("doujue", engine="fast")


def test_joker_moves_are_stepped_by_index() -> None:
    """The joker move at place x names one engine action: the kernel finds its card."""
    game = game_for("shichinarabe", ("deck.jokers=1",))
    stepper = Stepper(game, "fast", 200)
    found = 0
    for seed in range(30):
        steps = stepper.from_seed(seed)
        twin = game.new_state(seed)
        rng = random.Random(seed)
        while not steps.over:
            legal = twin.legal_actions()
            jokers = [a for a in legal if a >= JOKER]
            action = jokers[0] if jokers else legal[rng.randrange(len(legal))]
            found += bool(jokers)
            steps.step(documented_index(action))
            twin.apply(action)
            assert steps.state.log == twin.log
    assert found > 10
