"""The PettingZoo environment: PettingZoo's own API test on every built-in profile, masks
that are the engine's legal actions, deals that follow the seed, and rewards that are the
profile's objective, worked out by hand where a game is small enough."""

from __future__ import annotations

import random
import warnings
from fractions import Fraction

import pytest

from paiqi_core.actions import JOKER
from paiqi_core.belief import Belief
from paiqi_core.cards import bits, mask_of, one_joker, parse_cards
from paiqi_core.engine import Game, IllegalAction
from paiqi_core.resources import builtin_profiles
from paiqi_core.search.objective import utilities

from .adapters_support import STOCK_VARIANTS, documented_index, need

np = need("numpy")
need("pettingzoo")
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from paiqi_core.adapters.encoding import NUM_ACTIONS  # noqa: E402
from paiqi_core.adapters.pettingzoo import PaiqiEnv, paiqi_env  # noqa: E402

# PettingZoo warns about any dict observation outside its own list of environments; a dict
# with "observation" and "action_mask" is its documented convention for masks
DICT_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}

JOKER_VARIANTS = [
    ("shichinarabe", {"deck.jokers": 1}),
    ("shichinarabe-wrap", {"deck.jokers": 1, "players": 3}),
    ("doujue-passes", {"deck.jokers": 1}),
    ("platform-zhanlong", {"deck.jokers": 1, "players": 5}),
    # a seat that lays a card ending its line moves again (or stops with a pass)
    ("shichinarabe", {"deck.jokers": 1, "turn.extra_after_end": "may"}),
    # a short pack from another centre: 32 cards from the 8 (the action space is unchanged)
    (
        "shichinarabe",
        {"deck.jokers": 1, "layout.ace": "high", "deck.ranks": "7-A", "layout.centre": "8"},
    ),
    # several jokers, alike: one entry of the observation and one action space
    ("shichinarabe", {"deck.jokers": 2}),
    ("doujue", {"deck.jokers": 4, "players": 5}),
    # leftovers face up: a section of the observation, played with the play actions
    ("pagat", {"players": 5, "deck.leftover": "face_up"}),
    # a pass takes a card: the previous player hands it on with the give actions
    ("pagat", {"turn.pass_takes": "chosen"}),
    # a stock: a stuck player draws (action 211, the card from the deal's stream)
    *STOCK_VARIANTS,
    # several decks: each card up to two or three times (the observation counts copies);
    # with sevens out every copy of each 7 is placed, a burst lays every copy it holds, and
    # a card handed on may join its copy
    ("pagat", {"deck.decks": 2, "players": 8}),
    ("pagat", {"deck.decks": 3, "players": 12}),
    ("shichinarabe", {"deck.decks": 2, "players": 6}),
    ("pagat", {"deck.decks": 2, "players": 5, "turn.pass_takes": "chosen"}),
]


def run_api_test(env: object) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=300)
    assert {str(w.message) for w in caught} <= DICT_WARNINGS


@pytest.mark.parametrize("profile", sorted(builtin_profiles()))
def test_pettingzoo_api_test_passes_for_every_builtin_profile(profile: str) -> None:
    run_api_test(paiqi_env(profile))


@pytest.mark.parametrize(("profile", "overrides"), JOKER_VARIANTS)
def test_pettingzoo_api_test_passes_with_the_joker_and_other_table_sizes(
    profile: str, overrides: dict[str, int]
) -> None:
    run_api_test(paiqi_env(profile, overrides))


def masked(obs: dict[str, object]) -> list[int]:
    return [int(i) for i in np.flatnonzero(obs["action_mask"])]


@pytest.mark.parametrize(
    ("profile", "overrides"),
    [("doujue", {}), ("platform", {}), ("shichinarabe", {}), ("pagat", {}),
     ("doujue", {"players": 10}), *JOKER_VARIANTS],
)  # fmt: skip
def test_the_mask_is_the_engines_legal_actions_and_rewards_its_result(
    profile: str, overrides: dict[str, int]
) -> None:
    """Random games in the environment and, beside it, in the engine itself: at every turn
    the mask holds exactly the engine's legal actions (numbered as documented), each seat's
    observation shows its own hand (how many of each card: several decks deal copies) and
    every seat's count of cards, and the rewards are the objective of the engine's
    result."""
    env = paiqi_env(profile, overrides)
    game = env.game
    jokers_played = 0
    for seed in range(6):
        env.reset(seed=seed)
        state = game.new_state(seed)
        rng = random.Random(seed)
        rewards = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            rewards[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            seat = int(agent.split("_")[1])
            assert seat == state.turn
            legal = state.legal_actions()
            assert masked(obs) == sorted(documented_index(a) for a in legal)
            hand = np.flatnonzero(obs["observation"][:53]).tolist()
            assert hand == list(bits(one_joker(state.hands[seat])))  # entry 52: any joker
            held = state.held(seat)
            assert obs["observation"][:52].tolist() == [held.count(c) for c in range(52)]
            at, n = env.layout.at["hand_counts"], game.players
            counts = [len(state.held((seat + k) % n)) for k in range(n)]  # relative seats
            assert obs["observation"][at : at + n].tolist() == counts
            action = legal[rng.randrange(len(legal))]
            jokers_played += action >= JOKER
            env.step(documented_index(action))
            state.apply(action)
        assert state.over and not truncated
        expected = utilities(state.result(), game.rules.facts.objective)
        assert [rewards[a] for a in env.possible_agents] == expected
    if game.rules.jokers:
        assert jokers_played > 0  # the joker moves were exercised


def test_reset_with_a_seed_deals_paiqis_deal_and_replays_exactly() -> None:
    game = Game("platform")

    def run(seeds: list[int | None]) -> list[tuple[object, ...]]:
        env = paiqi_env("platform")
        out = []
        for seed in seeds:
            env.reset(seed=seed)
            pick = random.Random(99)
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, _ = env.last()
                out.append((agent, obs["observation"].tobytes(), reward))
                env.step(None if terminated or truncated else pick.choice(masked(obs)))
        return out

    first = run([7, None, None])
    assert first == run([7, None, None])
    assert first != run([8, None, None])
    env = paiqi_env("platform")
    for seed in (0, 7, 123456789):
        env.reset(seed=seed)
        state = game.new_state(seed)
        assert env.paiqi_state is not None
        assert env.paiqi_state.hands == state.hands and env.paiqi_state.door_card == state.door_card
        for seat, agent in enumerate(env.possible_agents):
            at = env.layout.at["door_card"]
            door = np.flatnonzero(env.observe(agent)["observation"][at : at + 53]).tolist()
            assert door == [state.door_card]
            assert np.flatnonzero(env.observe(agent)["observation"][:53]).tolist() == list(
                bits(state.hands[seat])
            )


def test_rewards_of_a_doujue_endgame_worked_out_by_hand() -> None:
    """Seat 0 holds H2, seat 1 HA (having covered CA); seats 2 and 3 are out, having covered
    SK SQ (25 points) and DK DQ DJ D10 CK CQ (71 points). Seat 0 plays H2: emptied by playing
    only, 全脫手 +10. Seat 1 plays HA and completes hearts: 接龍 +5 - 1 = 4. Totals 10, 4,
    -25, -71: seat 0 wins (x2 for 全脫手). Payers: seat 3 lowest (大頭 x3) and bust (71 > 55,
    x2): 71 x 3 x 2 x 2 = 852; seat 2 中頭 x2: 25 x 2 x 2 = 100. Seat 0 collects 952."""
    game = Game("doujue")
    hands = [mask_of(parse_cards("H2")), mask_of(parse_cards("HA")), 0, 0]
    covered = [0, *(mask_of(parse_cards(c)) for c in ("CA", "SK SQ", "DK DQ DJ D10 CK CQ"))]
    out = hands[0] | hands[1] | covered[1] | covered[2] | covered[3]
    table = mask_of(range(52)) & ~out
    from paiqi_core.engine import State

    position = State(game, hands, table=table, turn=0, covered=covered, played=[12, 11, 11, 7])
    env = paiqi_env("doujue")
    env.reset(options={"state": position})
    assert env.agent_selection == "player_0"
    assert masked(env.observe("player_0")) == [parse_cards("H2")[0]]
    env.step(parse_cards("H2")[0])
    assert env.agent_selection == "player_1"
    env.step(parse_cards("HA")[0])
    assert all(env.terminations.values())
    assert [env.rewards[a] for a in env.possible_agents] == [952, 0, -100, -852]
    assert env.infos["player_0"]["result"]["total"] == [10, 4, -25, -71]


def play_random(env: object, seed: int) -> tuple[dict[str, float], list[dict[str, object]]]:
    """Play a random game; the rewards and every observation of the agent to move."""
    env.reset(seed=seed)  # type: ignore[attr-defined]
    rng = random.Random(seed)
    rewards: dict[str, float] = {}
    seen = []
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
        rewards[agent] = rewards.get(agent, 0.0) + reward
        seen.append(obs)
        env.step(None if terminated or truncated else rng.choice(masked(obs)))  # type: ignore[attr-defined]
    return rewards, seen


def test_bicycle_rewards_are_the_chips_counted_from_what_the_table_saw() -> None:
    """Fan Tan with chips: everyone antes 1, each pass costs 1, the first player out takes
    the pot, and each other player pays the winner 1 for every card still held. The final
    observation shows the passes, the cards held and who finished."""
    env = paiqi_env("bicycle")
    for seed in range(8):
        rewards, _ = play_random(env, seed)
        final = env.observe("player_0")
        at = env.layout.at
        passes = final["observation"][at["passes"] : at["passes"] + 4].tolist()
        held = final["observation"][at["hand_counts"] : at["hand_counts"] + 4].tolist()
        finished = final["observation"][at["finished"] : at["finished"] + 4].tolist()
        assert finished.count(1) == 1  # the game ends at the first player out
        assert sum(held) > 0
        paid = [1 + p + h for p, h in zip(passes, held, strict=True)]
        winner = finished.index(1)
        expected = [-x for x in paid]
        expected[winner] += sum(paid)
        # seen from seat 0, relative seats are the seats themselves
        assert [rewards[f"player_{s}"] for s in range(4)] == expected


def test_shichinarabe_rewards_are_rank_points_in_finishing_order() -> None:
    """Rank points 3/2/1/0: finishers in the order they went out, then whoever still holds
    cards, then bursts (the earliest last)."""
    env = paiqi_env("shichinarabe")
    for seed in range(8):
        rewards, _ = play_random(env, seed)
        state = env.paiqi_state
        assert state is not None
        order = [*state.finished]
        holders = [s for s in range(4) if s not in state.finished and s not in state.bursts]
        order += holders + list(reversed(state.bursts))
        points = {seat: 3 - place for place, seat in enumerate(order)}
        assert len(holders) <= 1
        assert [rewards[f"player_{s}"] for s in range(4)] == [points[s] for s in range(4)]


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = paiqi_env("doujue")
    env.reset(seed=3)
    before = env.observe(env.agent_selection)["observation"].copy()
    agent = env.agent_selection
    legal = masked(env.observe(agent))
    wrong = next(i for i in range(NUM_ACTIONS) if i not in legal)
    with pytest.raises(IllegalAction):
        env.step(wrong)
    with pytest.raises(IllegalAction):
        env.step(999)
    assert env.agent_selection == agent
    assert (env.observe(agent)["observation"] == before).all()


@pytest.mark.parametrize(
    ("profile", "overrides"),
    [("doujue-passes", {"deck.jokers": 1}), ("pagat", {"deck.decks": 2, "players": 5})],
)
def test_an_observation_shows_nothing_of_the_hidden_cards(
    profile: str, overrides: dict[str, int]
) -> None:
    """Deals the hidden cards anew (paiqi's belief sampler keeps everything a seat saw) and
    checks that the seat's observation tensor does not change (with several decks, the
    copies other seats hold are dealt anew too)."""
    env = paiqi_env(profile, overrides)
    for seed in range(4):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(25):
            env.step(rng.choice(masked(env.observe(env.agent_selection))))
        state = env.paiqi_state
        assert state is not None
        for seat, agent in enumerate(env.possible_agents):
            mine = env.observe(agent)["observation"]
            other = Belief(env.game, state.observation(seat)).sample(rng)
            twin = paiqi_env(profile, overrides)
            twin.reset(options={"state": other})
            assert (twin.observe(agent)["observation"] == mine).all()


def test_render_shows_the_table_and_the_result() -> None:
    env = paiqi_env("pagat", render_mode="ansi")
    rewards, _ = play_random(env, 1)
    text = env.render()
    assert isinstance(text, str)
    assert text.splitlines()[0] == "pagat: game over"
    assert "result:" in text and "rank" in text
    assert sum(rewards.values()) == 1


def test_overrides_change_the_game() -> None:
    env = paiqi_env("doujue", {"scoring.stake": 2})
    base = paiqi_env("doujue")
    for seed in range(3):
        doubled, _ = play_random(env, seed)
        plain, _ = play_random(base, seed)
        assert {a: Fraction(v) for a, v in doubled.items()} == {
            a: 2 * Fraction(v) for a, v in plain.items()
        }
    assert paiqi_env("shichinarabe", ["players=3"]).possible_agents == [
        "player_0", "player_1", "player_2",
    ]  # fmt: skip


def test_masks_after_a_reset_are_the_new_games() -> None:
    """A new deal whose move count equals the old game's gets its own legal actions (a stale
    answer would let an illegal card through to the engine)."""
    env = paiqi_env("platform")
    for seed in range(30):
        env.reset(seed=seed)
        masked(env.observe(env.agent_selection))
        env.reset(seed=seed + 1000)
        state = env.paiqi_state
        assert state is not None
        expected = sorted(documented_index(a) for a in state.legal_actions())
        assert masked(env.observe(env.agent_selection)) == expected


def test_a_profile_file_of_ones_own_is_an_environment_too(tmp_path: object) -> None:
    path = tmp_path / "house.yaml"  # type: ignore[operator]
    path.write_text(
        "id: house\nname: Fan Tan for six\nextends: bicycle\nplayers: 6\n", encoding="utf-8"
    )
    env = paiqi_env(str(path), {"scoring.pass_cost": 2})
    assert len(env.possible_agents) == 6
    run_api_test(env)


def test_a_finished_position_gives_its_rewards_at_once() -> None:
    game = Game("pagat")
    state = game.new_state(4)
    state.play_random(random.Random(4))
    env = paiqi_env("pagat")
    env.reset(options={"state": state})
    winner = f"player_{state.finished[0]}"  # the first player out wins the whole share
    seen = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        seen[agent] = reward
        env.step(None)
    assert seen == {a: float(a == winner) for a in env.possible_agents}


class BaseMethodsEnv(PaiqiEnv):
    """The environment with PettingZoo's own ``last``, ``agent_iter`` and
    ``_was_dead_step``, and an ``observe`` that asks the game for the observation and the
    mask separately, the mask being the legal actions only for the agent to move while
    nobody is terminated or truncated: the reference for the environment's quicker ones."""

    last = AECEnv.last
    agent_iter = AECEnv.agent_iter
    _was_dead_step = AECEnv._was_dead_step

    def observe(self, agent: str) -> dict[str, object]:
        steps = self._steps
        assert steps is not None
        seat = self._seat[agent]
        moving = seat == steps.turn and not steps.over and not self.truncations.get(agent, True)
        mask = steps.mask() if moving else np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": steps.observation(seat), "action_mask": mask}


def env_facts(env: PaiqiEnv) -> tuple[object, ...]:
    """Everything PettingZoo's API shows between two calls."""
    return (
        list(env.agents),
        env.agent_selection,
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
        {a: dict(i) for a, i in env.infos.items()},
        env.num_agents,
    )


def same_obs(a: dict[str, object] | None, b: dict[str, object] | None) -> None:
    if a is None or b is None:
        assert a is b
        return
    for key in ("observation", "action_mask"):
        x, y = a[key], b[key]
        assert x.dtype == y.dtype and x.shape == y.shape and (x == y).all()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("profile", "overrides", "max_turns"),
    [
        ("doujue", {}, None),
        ("pagat", {}, None),
        ("shichinarabe", {"deck.jokers": 1}, None),
        ("platform", {}, 9),  # truncated: every agent steps None after the cut
    ],
)
@pytest.mark.parametrize("engine", ["auto", "python"])
def test_last_agent_iter_and_dead_steps_are_pettingzoos_own(
    profile: str, overrides: dict[str, int], max_turns: int | None, engine: str
) -> None:
    """Whole games side by side with the reference (PettingZoo's base methods), under
    learners that look at every step, at none, at some, and at other agents as well: the
    same agents in turn, the same ``last()`` and the same dicts after every step."""
    env = paiqi_env(profile, overrides, max_turns=max_turns, engine=engine)
    ref = BaseMethodsEnv(profile, overrides, max_turns=max_turns, engine=engine)
    for seed in range(8):
        style = seed % 4  # 0: last() every turn, 1: last(False), 2: alternate, 3: all views
        for e in (env, ref):
            e.reset(seed=seed)
        assert env_facts(env) == env_facts(ref)
        rng = random.Random(seed)
        turns = 0
        for agent, other in zip(env.agent_iter(), ref.agent_iter(), strict=True):
            assert agent == other
            look = style in (0, 3) or (style == 2 and turns % 2 == 0)
            if style == 3:
                for a in env.possible_agents:
                    same_obs(env.observe(a), ref.observe(a))
            got, want = env.last(look), ref.last(look)
            same_obs(got[0], want[0])
            assert got[1:] == want[1:]
            _, _, terminated, truncated, _ = want
            legal = masked(ref.observe(agent))
            action = None if terminated or truncated else rng.choice(legal)
            for e in (env, ref):
                e.step(action)
            assert env_facts(env) == env_facts(ref)
            turns += 1
        assert not env.agents and turns > env.num_agents
    limited = [list(e.agent_iter(5)) for e in (env, ref)]
    assert limited[0] == limited[1] == []  # nobody is left after a game


def test_agent_iter_stops_at_max_iter_and_can_be_iterated_again() -> None:
    env = paiqi_env("doujue")
    env.reset(seed=1)
    turns = env.agent_iter(3)
    assert list(turns) == ["player_" + env.agent_selection[-1]] * 3
    first = []
    for agent in turns:  # a new pass over the same iterable starts again
        first.append(agent)
        env.step(masked(env.observe(agent))[0])
    assert len(first) == 3 and first[0] != first[1]


def test_observations_handed_out_are_never_written_again() -> None:
    """A learner may keep every observation: those from ``last()`` (written by the step
    before it) and from ``observe()`` stay as they were when handed out."""
    env = paiqi_env("doujue")
    kept = []
    for seed in range(3):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            extra = env.observe(env.possible_agents[0])
            for o in (obs, extra):
                kept.append((o, o["observation"].copy(), o["action_mask"].copy()))
            env.step(None if terminated or truncated else rng.choice(masked(obs)))
    arrays = {id(o["observation"]) for o, _, _ in kept}
    assert len(arrays) == len(kept)  # new arrays every time
    for obs, observation, mask in kept:
        assert (obs["observation"] == observation).all()
        assert (obs["action_mask"] == mask).all()
