"""The single-seat Gymnasium environment: Gymnasium's own checker on every built-in profile,
the same games as paiqi's simulations, and what an illegal action does."""

from __future__ import annotations

import random
import warnings

import pytest

from paiqi_core.agents import make_agent
from paiqi_core.engine import IllegalAction
from paiqi_core.resources import builtin_profiles
from paiqi_core.search.objective import utilities
from paiqi_core.simulate import play_game

from .adapters_support import STOCK_VARIANTS, documented_index, need

np = need("numpy")
gymnasium = need("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from paiqi_core.adapters.gymnasium import paiqi_gym_env  # noqa: E402


@pytest.mark.parametrize("profile", sorted(builtin_profiles()))
def test_gymnasium_check_env_passes_for_every_builtin_profile(
    profile: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make("paiqi/Sevens-v0", profile=profile, render_mode="ansi")
        check_env(env.unwrapped)  # also renders through the spec in every render mode
    assert [str(w.message) for w in caught] == []
    assert f"{profile}:" in capsys.readouterr().out  # the "human" mode printed the table


@pytest.mark.parametrize(("profile", "overrides"), STOCK_VARIANTS)
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_gymnasium_check_env_passes_with_a_stock(
    profile: str, overrides: dict[str, object], opponents: str
) -> None:
    """A stock to draw from: the learner's draw (211) and the stock's count, in the kernel
    (random opponents) and in Python; whole games end with the stock's count in bounds."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make(
            "paiqi/Sevens-v0", profile=profile, overrides=overrides, opponents=opponents
        )
        check_env(env.unwrapped, skip_render_check=True)
    assert [str(w.message) for w in caught] == []
    env = env.unwrapped
    drew = 0
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        pick = random.Random(seed)
        done = False
        while not done:
            assert env.observation_space.contains(obs)
            assert obs["observation"][-1] == env.paiqi_state.stock.bit_count()
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            assert 211 not in legal or legal == [211]
            drew += legal == [211]
            obs, _, terminated, truncated, _ = env.step(pick.choice(legal))
            done = terminated or truncated
        assert terminated
    assert drew > 0


# several decks: each card up to two or three times (the observation counts copies)
DECK_VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("pagat", {"deck.decks": 2, "players": 8}),
    ("pagat", {"deck.decks": 3, "players": 12}),
    ("shichinarabe", {"deck.decks": 2, "players": 6}),  # sevens out, bursts
]


@pytest.mark.parametrize(("profile", "overrides"), DECK_VARIANTS)
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_gymnasium_check_env_passes_with_several_decks(
    profile: str, overrides: dict[str, object], opponents: str
) -> None:
    """Several decks, in the kernel (random opponents) and in Python: Gymnasium's checker,
    then whole games whose observations lie in the space, with the learner's copies of each
    card and every seat's count of cards (copies counted) as the engine has them."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make(
            "paiqi/Sevens-v0", profile=profile, overrides=overrides, opponents=opponents, seat=1
        )
        check_env(env.unwrapped, skip_render_check=True)
    assert [str(w.message) for w in caught] == []
    env = env.unwrapped
    n = env.game.players
    high = env.observation_space["observation"].high
    assert high[:52].tolist() == [overrides["deck.decks"]] * 52  # copies of a card held
    twice = 0
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        pick = random.Random(seed)
        done = False
        while not done:
            state = env.paiqi_state
            assert env.observation_space.contains(obs)
            held = state.held(1)
            assert obs["observation"][:52].tolist() == [held.count(c) for c in range(52)]
            at = env.layout.at["hand_counts"]
            assert obs["observation"][at : at + n].tolist() == [
                len(state.held((1 + k) % n)) for k in range(n)
            ]
            twice += int((obs["observation"][:52] > 1).sum())
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            obs, _, terminated, truncated, _ = env.step(pick.choice(legal))
            done = terminated or truncated
        assert terminated
    assert twice > 0  # the learner held copies


@pytest.mark.parametrize(
    ("profile", "overrides", "seat"),
    [("doujue", None, 0), ("platform", None, 2), ("shichinarabe", None, 1), ("pagat", None, 3),
     (*STOCK_VARIANTS[0], 1), (*DECK_VARIANTS[0], 5)],
)  # fmt: skip
def test_the_learner_plays_the_game_paiqi_simulates(
    profile: str, overrides: dict[str, object] | None, seat: int
) -> None:
    """A learner that decides as paiqi's heuristic player would, drawing from the deal's
    stream like the others, plays exactly the game ``play_game`` plays with four heuristic
    players, and its reward is its utility in that game (with a stock, every seat's draws
    take their cards from that stream too)."""
    env = paiqi_gym_env(profile, overrides, seat=seat, opponents="heuristic")
    game = env.game
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        state = env.paiqi_state
        assert state is not None and state.rng is not None
        me = make_agent("heuristic", state.rng, game)
        total, terminated = 0.0, False
        while not terminated:
            action = me.act(state.observation(seat))
            assert obs["action_mask"][documented_index(action)] == 1
            obs, reward, terminated, truncated, info = env.step(documented_index(action))
            total += reward
            assert not truncated
        expected = play_game(game, seed, ["heuristic"] * game.players)
        assert state.log == expected.log
        assert total == utilities(expected.result(), game.rules.facts.objective)[seat]
        assert info["result"] == expected.result().as_record()


def test_an_illegal_action_loses_or_raises() -> None:
    env = paiqi_gym_env("doujue", opponents="random")
    obs, _ = env.reset(seed=4)
    wrong = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(wrong)
    assert (reward, terminated, truncated, info) == (-7392, True, False, {"illegal_action": True})
    strict = paiqi_gym_env("doujue", opponents="random", illegal="raise")
    strict.reset(seed=4)
    with pytest.raises(IllegalAction):
        strict.step(wrong)


def test_seeded_episodes_repeat_and_opponents_are_checked() -> None:
    def episode(env: object, seed: int | None) -> list[bytes]:
        obs, _ = env.reset(seed=seed)  # type: ignore[attr-defined]
        pick = random.Random(0)
        seen, done = [obs["observation"].tobytes()], False
        while not done:
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            obs, _, terminated, truncated, _ = env.step(pick.choice(legal))  # type: ignore[attr-defined]
            seen.append(obs["observation"].tobytes())
            done = terminated or truncated
        return seen

    names = ["random", "heuristic", "pimc:2x1"]
    a = paiqi_gym_env("platform", seat=1, opponents=names)
    b = paiqi_gym_env("platform", seat=1, opponents=names)
    assert episode(a, 11) == episode(b, 11)
    assert episode(a, None) == episode(b, None)  # the next deal of the stream seeded by 11
    assert episode(a, 11) != episode(a, 12)
    with pytest.raises(ValueError, match="one opponent for each"):
        paiqi_gym_env("platform", opponents=["random"])
    with pytest.raises(ValueError, match="unknown agent"):
        paiqi_gym_env("platform", opponents="grandmaster")


def test_a_deal_without_a_turn_for_the_learner_is_skipped() -> None:
    """Where nobody may pass (hamaru), a learner with nothing to play on its first turn is
    out at once and never decides: reset then deals the next deal of the seed's stream, and
    every episode starts at a decision of the learner's."""
    env = paiqi_gym_env("hamaru", opponents="random")
    game = env.game
    redealt = 0
    for seed in range(120):
        obs, _ = env.reset(seed=seed)
        state = env.paiqi_state
        assert state is not None and not state.is_terminal() and state.turn == 0
        assert obs["action_mask"].any()
        redealt += list(state.dealt) != list(game.new_state(seed).dealt)
    assert redealt  # some deals left the learner no turn
