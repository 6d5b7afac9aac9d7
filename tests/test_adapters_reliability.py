"""The adapters where a learning library meets them: PettingZoo's global ``state()``, copies
and pickles of environments that go on with the same game, clear errors before ``reset()``,
and the OpenSpiel utility type each profile declares, checked against played games."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from paiqi_core.cards import bits, parse_cards
from paiqi_core.engine import Game, State
from paiqi_core.resources import builtin_profiles

from .adapters_support import STOCK_VARIANTS, need

np = need("numpy")
need("pettingzoo")
from pettingzoo.test.state_test import test_state_space as check_state_space  # noqa: E402

from paiqi_core.adapters.pettingzoo import paiqi_env  # noqa: E402

ENGINES = ("fast", "python")
CARDS = 53  # one entry per card number, the joker last (docs/adapters.md)
# several decks: each card up to two or three times, counted in the hand rows of the state
DECK_VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("pagat", {"deck.decks": 2, "players": 8}),
    ("pagat", {"deck.decks": 3, "players": 12}),
]


def roundtrip(env: Any) -> Any:
    return pickle.loads(pickle.dumps(env))


COPIES: list[Callable[[Any], Any]] = [copy.deepcopy, roundtrip]


# -- state() and state_space ---------------------------------------------------------------
def sections(env: Any) -> dict[str, np.ndarray]:
    """The state's parts as docs/adapters.md lays them out: the observation of seat 0 without
    its own cards, then every seat's hand, then every seat's covered cards."""
    state = env.state()
    n = len(env.possible_agents)
    size = env.observation_space("player_0")["observation"].shape[0]
    assert state.shape == (size + 2 * n * CARDS,)
    return {
        "public": state[:size],
        "hands": state[size : size + n * CARDS].reshape(n, CARDS),
        "covered": state[size + n * CARDS :].reshape(n, CARDS),
    }


@pytest.mark.parametrize("engine", ENGINES)
def test_state_is_pettingzoos_global_state_with_every_hand(engine: str) -> None:
    """``env.state()`` is PettingZoo's global state (a float32 array in ``state_space``):
    after dealing given hands, its hand rows are those hands, card for card, and the public
    part is what seat 0 sees without its own cards; paiqi's own state is ``paiqi_state``."""
    env = paiqi_env("doujue", engine=engine)
    assert env.compiled == (engine == "fast")
    texts = [
        "SA S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK",
        "HA H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK",
        "DA D2 D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK",
        "CA C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK",
    ]
    hands = [parse_cards(t) for t in texts]
    env.reset(options={"hands": [t.split() for t in texts]})
    state = env.state()
    assert state.dtype == np.float32
    assert env.state_space.contains(state)
    parts = sections(env)
    for seat, hand in enumerate(hands):
        assert sorted(np.flatnonzero(parts["hands"][seat]).tolist()) == sorted(hand)
    assert not parts["covered"].any()
    public = env.observe("player_0")["observation"].copy()
    own = env.layout.at["hand"]
    public[own : own + CARDS] = 0  # seat 0's own cards are left out of the public part
    assert (parts["public"] == public).all()
    assert isinstance(env.paiqi_state, State)
    assert env.paiqi_state.hands == [sum(1 << c for c in h) for h in hands]


@pytest.mark.parametrize("engine", ENGINES)
def test_state_follows_the_game_move_by_move(engine: str) -> None:
    """At every turn of random games the state's hand and cover rows are the engine's hands
    and covers, ``to_move`` marks the agent selected (by seat number), and both engines give
    the same array."""
    env = paiqi_env("doujue-passes", {"deck.jokers": 1}, engine=engine)
    other = paiqi_env("doujue-passes", {"deck.jokers": 1}, engine="python")
    for seed in range(4):
        env.reset(seed=seed)
        other.reset(seed=seed)
        pick = random.Random(seed)
        while env.agents:
            parts = sections(env)
            game = env.paiqi_state
            for seat in range(4):
                assert set(np.flatnonzero(parts["hands"][seat]).tolist()) == set(
                    bits(game.hands[seat])
                )
                assert set(np.flatnonzero(parts["covered"][seat]).tolist()) == set(
                    bits(game.covered[seat])
                )
            to_move = parts["public"][env.layout.at["to_move"] : env.layout.at["to_move"] + 4]
            if game.over:
                assert not to_move.any()
            else:
                assert to_move.tolist() == [
                    float(env.agent_selection == f"player_{s}") for s in range(4)
                ]
            assert (env.state() == other.state()).all()
            assert env.state_space.contains(env.state())
            obs, _, done, cut, _ = env.last()
            action = None if done or cut else pick.choice(np.flatnonzero(obs["action_mask"]))
            env.step(action)
            other.step(action)


@pytest.mark.parametrize(
    ("profile", "overrides"),
    [*((pid, None) for pid in sorted(builtin_profiles())), *STOCK_VARIANTS, *DECK_VARIANTS],
)
def test_pettingzoos_state_space_test_passes_for_every_builtin_profile(
    profile: str, overrides: dict[str, object] | None
) -> None:
    """PettingZoo's check of ``state_space``, and states in it through random games
    (PettingZoo's ``test_state`` draws actions without the mask, which paiqi refuses); and
    with a stock to draw from, and with several decks."""
    env = paiqi_env(profile, overrides)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_state_space(env)
    messages = {str(w.message) for w in caught}
    if env.game.rules.stuck.pass_limit is None and env.game.rules.stuck.loop != "cover":
        # passes without a limit: their count has no upper bound (as in the observation)
        messages.discard(
            "Environment's maximum state space value is infinity. This is probably too high"
        )
    assert messages == set()
    pick = random.Random(0)
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            env.step(None if done or cut else pick.choice(np.flatnonzero(obs["action_mask"])))
            state = env.state()
            assert state.dtype == np.float32 and env.state_space.contains(state), agent


# -- copies and pickles ----------------------------------------------------------------------
def trace(env: Any, pick: random.Random, resets: int = 2) -> list[Any]:
    """What the environment gives through the rest of its game and ``resets`` more games
    (dealt from its own stream of deals), played with actions drawn from ``pick``."""
    out: list[Any] = []
    for game in range(resets + 1):
        if game:
            env.reset()
        while env.agents:
            obs, reward, done, cut, info = env.last()
            out.append(
                (env.agent_selection, obs["observation"].tolist(), obs["action_mask"].tolist(),
                 reward, done, cut, info, env.state().tolist())
            )  # fmt: skip
            env.step(None if done or cut else pick.choice(np.flatnonzero(obs["action_mask"])))
        out.append(dict(env.rewards))
    return out


@pytest.mark.parametrize("make_copy", COPIES, ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("profile", "overrides"),
    [("shichinarabe", {"deck.jokers": 1}), STOCK_VARIANTS[2], DECK_VARIANTS[0]],
)
def test_a_copied_environment_goes_on_with_the_same_game(
    engine: str, make_copy: Callable[[Any], Any], profile: str, overrides: dict[str, object]
) -> None:
    """A copy taken mid-game (deep copy or pickle) plays on exactly as the original: the same
    observations, masks, states and rewards, and the same deals at the next resets; the two
    are independent (the copy is played to the end first). With a stock, the copy draws the
    same cards from the same stream."""
    env = paiqi_env(profile, overrides, engine=engine)
    assert env.compiled == (engine == "fast")
    env.reset(seed=7)
    pick = random.Random(1)
    for _ in range(12):  # into the game, a learner looking at every step
        obs = env.observe(env.agent_selection)
        env.step(pick.choice(np.flatnonzero(obs["action_mask"])))
    twin = make_copy(env)
    assert twin is not env and twin.compiled == env.compiled
    assert twin.paiqi_state.log == env.paiqi_state.log
    copied = trace(twin, random.Random(2))
    assert trace(env, random.Random(2)) == copied


@pytest.mark.parametrize("make_copy", COPIES, ids=["deepcopy", "pickle"])
def test_a_fresh_or_finished_environment_copies_too(make_copy: Callable[[Any], Any]) -> None:
    env = paiqi_env("pagat")
    make_copy(env).reset(seed=3)  # before any reset
    env.reset(seed=3)
    while env.agents:
        _, _, done, cut, _ = env.last()
        env.step(None if done or cut else env.legal_indices()[0])
    twin = make_copy(env)
    assert twin.rewards == env.rewards == {}
    twin.reset(seed=4)
    env.reset(seed=4)
    assert (twin.state() == env.state()).all()


@pytest.mark.parametrize("make_copy", COPIES, ids=["deepcopy", "pickle"])
@pytest.mark.parametrize(("opponents", "engine"), [("random", "fast"), ("heuristic", None)])
def test_a_copied_gymnasium_environment_goes_on_with_the_same_game(
    make_copy: Callable[[Any], Any], opponents: str, engine: str | None
) -> None:
    """The single-seat environment too: the opponents draw the same moves in the copy."""
    need("gymnasium")
    from paiqi_core.adapters.gymnasium import paiqi_gym_env

    env = paiqi_gym_env("doujue", seat=1, opponents=opponents, engine=engine)
    assert env.compiled == (engine == "fast")
    obs, _ = env.reset(seed=11)
    pick = random.Random(5)
    for _ in range(3):
        obs, *_ = env.step(pick.choice(np.flatnonzero(obs["action_mask"])))
    twin = make_copy(env)

    def play(e: Any, obs: dict[str, np.ndarray], pick: random.Random) -> list[Any]:
        out = []
        for _ in range(2):
            while True:
                action = pick.choice(np.flatnonzero(obs["action_mask"]))
                obs, reward, done, cut, info = e.step(action)
                out.append((obs["observation"].tolist(), obs["action_mask"].tolist(), reward,
                            done, cut, info))  # fmt: skip
                if done or cut:
                    break
            obs, _ = e.reset()
        return out

    assert play(twin, obs, random.Random(9)) == play(env, obs, random.Random(9))


# -- before reset() ---------------------------------------------------------------------------
def test_using_the_environment_before_reset_says_to_call_reset() -> None:
    """Every call that needs a game says to call reset() first (no AttributeError about an
    internal name); the environment then works as usual."""
    env = paiqi_env("doujue")
    calls: list[Callable[[], Any]] = [
        env.last,
        lambda: env.step(0),
        lambda: env.observe("player_0"),
        env.state,
        lambda: next(iter(env.agent_iter())),
        lambda: env.agent_selection,
        lambda: env.rewards,
        lambda: env.agents,
        lambda: env.num_agents,
    ]
    for call in calls:
        with pytest.raises((RuntimeError, AttributeError), match=r"reset\(\)"):
            call()
    with pytest.raises(AttributeError, match="no_such_thing"):
        env.no_such_thing  # noqa: B018 - other missing attributes stay plain AttributeErrors
    env.reset(seed=0)
    observation, reward, done, cut, _ = env.last()
    assert observation is not None and observation["action_mask"].any()
    assert (reward, done, cut) == (0.0, False, False)


# -- the utility type of each profile ---------------------------------------------------------
def expected_sums() -> dict[str, float | None]:
    """What the rules (rules/RULES and the profiles) say of the sum of the seats' utilities:
    money only changes hands in 鬥雀 covering, the platform without a fee, the chips pots of
    Bicycle, Hoyle (whose payments for a 7 held back go from player to
    player), Play or Pay and Девятка, and QQ's settlements between every two players (0); the
    first out takes the whole win in Pagat, Badam Satti, Karten-Domino, Nines and Sevens with a
    stock (1); the Japanese family (and `hamaru`) ranks every seat with 3/2/1/0 rank points and its
    games end with one holder at most (6); Sjuan's may stall with several holders tied,
    since a pass takes a card, and the penalty points of Ristiseiska (a point a card) and
    Siebener raus (pip values) count the cards still held, however many (no fixed sum); the
    twstar table and the poker7 app let each player keep its own total (no fixed sum)."""
    money = ["doujue", "doujue-passes", "doujue-tunnel", "platform", "platform-zhanlong", "bicycle",
             "hoyle", "devyatka", "qq", "play-or-pay", "trump-fan-tan"]  # fmt: skip
    ranks = ["shichinarabe", "shichinarabe-tunnel", "shichinarabe-wrap", "hamaru"]
    sums: dict[str, float | None] = dict.fromkeys(money, 0.0)
    sums.update(dict.fromkeys(ranks, 6.0))
    sums.update(
        dict.fromkeys(["pagat", "badam-satti", "karten-domino", "nines", "sevens-stock"], 1.0)
    )
    sums["sjuan"] = sums["ristiseiska"] = sums["siebener-raus"] = None
    sums["twstar"] = sums["poker7"] = None  # each player keeps its own total
    return sums


def random_returns(game: Any, games: int, seed: int) -> list[list[float]]:
    """The returns of ``games`` OpenSpiel games dealt and played at random."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [c for c, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        out.append(state.returns())
    return out


@pytest.mark.parametrize("profile", sorted(builtin_profiles()))
def test_each_builtin_profile_declares_its_utility_sum_and_games_keep_it(profile: str) -> None:
    pyspiel = need("pyspiel")
    from paiqi_core.adapters import openspiel as adapter

    Utility = pyspiel.GameType.Utility
    expected = expected_sums()
    assert set(expected) == set(builtin_profiles())
    total = expected[profile]
    for game in (pyspiel.load_game(adapter.short_name(profile)), adapter.paiqi_game(profile)):
        kind = game.get_type().utility
        if total is None:  # a game that may stall leaves several holders tied: sums vary
            assert kind == Utility.GENERAL_SUM
            continue
        assert kind == (Utility.ZERO_SUM if total == 0 else Utility.CONSTANT_SUM)
        assert game.utility_sum() == pytest.approx(total)
        for returns in random_returns(game, 150, seed=len(profile)):
            assert sum(returns) == pytest.approx(total, abs=1e-9)


@pytest.mark.parametrize(
    ("profile", "options"),
    [
        ("platform", "scoring.fee:0.1"),  # the house keeps a fee: money leaves the table
        # ended at the first out: the seats still holding cards share a rank, those who
        # burst do not, so the rank points given out depend on how many burst
        ("shichinarabe", "ending.method:first_out"),
    ],
)
def test_options_that_break_the_constant_sum_make_the_game_general_sum(
    profile: str, options: str
) -> None:
    pyspiel = need("pyspiel")
    need("paiqi_core.adapters.openspiel")  # registers the games

    game = pyspiel.load_game("paiqi", {"profile": profile, "options": options})
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    sums = {round(sum(r), 9) for r in random_returns(game, 60, seed=3)}
    assert len(sums) > 1  # the sum does vary: no constant could be declared


def test_utility_sum_of_a_plugin_scoring_is_what_it_declares() -> None:
    from paiqi_core.adapters.bounds import utility_sum

    rules = Game("doujue").rules

    class Declares:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

        def utility_sum(self, limits: Any) -> float:
            assert limits.players == 4
            return 2.5

    plugin = dataclasses.replace(rules, scoring=Declares(rules.scoring))
    assert utility_sum(plugin) == 2.5


def test_bounds_come_from_what_the_scoring_describes_not_from_its_name() -> None:
    # a money scoring that describes nothing has no bounds and no sum, even where the
    # profile still names the built-in covering scoring and holds its parameters
    from paiqi_core.adapters.bounds import utility_bounds, utility_sum
    from paiqi_core.slots import Scoring

    rules = Game("doujue").rules
    bare = dataclasses.replace(rules, scoring=Scoring(rules.scoring.score, rules.scoring.facts))
    with pytest.raises(ValueError, match="declares no utility bounds"):
        utility_bounds(bare)
    assert utility_sum(bare) is None
    # the built-in describes itself: 鬥雀's worst payer covers a hand's 13 highest cards
    # (4 kings, 4 queens, 4 jacks and a 10: 52 + 48 + 44 + 10 = 154 points) and pays them
    # x3 as 大頭, x2 for the bust, x8 to a winner out on a 7 (a stake of 1): 7392
    assert utility_bounds(rules) == (-7392.0, 3 * 7392.0)
    assert utility_sum(rules) == 0.0


# -- OpenSpiel's C++ IS-MCTS bot ----------------------------------------------------------------
CPP_ISMCTS = """
import pyspiel
import paiqi_core.adapters.openspiel
game = pyspiel.load_game("paiqi_pagat")
bot = pyspiel.ISMCTSBot(
    0, pyspiel.RandomRolloutEvaluator(1, 0), 0.7, 20, -1,
    pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False,
)
state = game.new_initial_state()
for card in paiqi_core.adapters.openspiel.chance_outcomes_of_seed(game.paiqi, 0):
    state.apply_action(card)
while state.current_player() != 0 or len(state.legal_actions()) < 2:  # a choice to search
    state.apply_action(state.legal_actions()[0])
print("stepping", flush=True)
bot.step(state)
print("stepped", flush=True)
"""


def test_openspiels_cpp_ismcts_bot_still_crashes_as_the_docs_warn() -> None:
    """docs/adapters.md warns that ``pyspiel.ISMCTSBot`` kills the process on a Python game
    that resamples, and points to the Python bot (which the OpenSpiel tests play with): the
    crash is checked here, in a process of its own, so that the page is corrected when a
    later OpenSpiel no longer crashes."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    need("pyspiel")
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", CPP_ISMCTS], capture_output=True, text=True, env=env, timeout=600
    )
    assert "stepping" in done.stdout and "stepped" not in done.stdout
    assert done.returncode == -signal.SIGSEGV
    doc = (root / "docs" / "adapters.md").read_text(encoding="utf-8")
    assert "`pyspiel.ISMCTSBot`, crashes the whole Python process" in doc
    assert "Use this Python bot, `open_spiel.python.algorithms.ismcts.ISMCTSBot`" in doc
