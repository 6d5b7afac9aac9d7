"""Actions per second through each adapter, against paiqi's own random play.

Every loop plays whole random games from the same deals (seeds 0..games-1), so the time per
action includes dealing and scoring. The loops:

- ``paiqi random``: paiqi's random play, ``State.play_random`` (what ``paiqi simulate``
  runs for random players: a loop compiled for the profile's rules);
- ``paiqi step``: the engine one action at a time, ``legal_actions()`` then
  ``apply_unchecked()``: the least work an adapter that steps the engine has to do;
- ``kernel step``: paiqi's compiled kernel one action at a time, as the adapters drive it
  (``legal_indices()`` then ``step()`` of ``paiqi_core.adapters.steps``, the deal and the
  scoring included): the least work an adapter that steps the kernel has to do;
- ``pettingzoo``: an AEC loop as a learner writes it, ``env.last()`` (the observation tensor
  and the action mask) and ``env.step()`` with a random legal action from the mask;
- ``pettingzoo (no obs)``: the same without building observations (``env.last(observe=
  False)`` and ``env.legal_indices()``);
- ``learner's loop alone``: the ``pettingzoo`` loop over an environment that does nothing
  (the same two arrays every time, games of 52 actions): what the loop itself costs,
  whatever the game;
- ``learner's loop, kernel only``: the same loop over an environment that keeps the books
  as that one does and only plays the kernel's game (the deal, each step writing the
  observation and mask of the agent to move next, the scoring): what a PettingZoo
  environment over paiqi's kernel cannot go below;
- ``gymnasium``: one random learner (from its mask) against three ``random`` paiqi players,
  counting every seat's actions;
- ``openspiel``: the deal's chance nodes, then ``legal_actions()`` and ``apply_action()``;
  per player action, the chance nodes' time included;
- ``openspiel (moves)``: the same games with the deal left out of the time;
- ``openspiel's calls alone``: the ``openspiel`` loop over a Python game that does nothing
  (52 chance nodes, then 52 moves of three legal actions each): what OpenSpiel's calls
  into a Python game cost, whatever the game;
- ``openspiel, kernel only``: the ``openspiel`` loop over a Python game that only keeps the
  cards drawn and then plays the kernel's game (its legal actions, its steps, its scoring):
  what an OpenSpiel game over paiqi's kernel cannot go below.

The adapters play in paiqi's compiled kernel where it can play the profile (numba
installed); ``--engine python`` runs them on the Python engine instead.

Times are the process's CPU time (``time.process_time``), so that other work on a shared
machine counts less. The ratios are paiqi's time per action, in its random play and in its
engine stepped one action at a time, over the loop's (1/3: a third as fast). Rounds
alternate between the loops, and the median round is reported.

    python benchmarks/adapters.py --games 200 --rounds 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from pettingzoo import AECEnv

from paiqi_core import fast
from paiqi_core.adapters import openspiel as os_adapter
from paiqi_core.adapters.bounds import limits
from paiqi_core.adapters.encoding import NUM_ACTIONS, Layout
from paiqi_core.adapters.gymnasium import paiqi_gym_env
from paiqi_core.adapters.pettingzoo import paiqi_env
from paiqi_core.adapters.steps import Stepper
from paiqi_core.engine import Game
from paiqi_core.search.objective import utilities

Loop = Callable[[int], tuple[int, float]]  # plays ``games`` games: (actions, seconds timed)
clock = time.process_time


def paiqi_random(game: Game) -> Loop:
    """paiqi's random play to the end of each game."""

    def run(games: int) -> tuple[int, float]:
        actions = 0
        start = clock()
        for seed in range(games):
            state = game.new_state(seed)
            assert state.rng is not None
            state.play_random(state.rng)
            state.result()
            actions += sum(state.actions)
        return actions, clock() - start

    return run


def paiqi_step(game: Game) -> Loop:
    """The engine stepped one random legal action at a time."""

    def run(games: int) -> tuple[int, float]:
        actions = 0
        start = clock()
        for seed in range(games):
            state = game.new_state(seed)
            pick = random.Random(seed).randrange
            while not state.over:
                legal = state.legal_actions()
                state.apply_unchecked(legal[pick(len(legal))])
                actions += 1
            state.result()
        return actions, clock() - start

    return run


def kernel_step(game: Game) -> Loop:
    """paiqi's kernel stepped one random legal action at a time, as the adapters step it
    (the Python engine where the kernel cannot play the rules)."""
    stepper = Stepper(game)

    def run(games: int) -> tuple[int, float]:
        actions = 0
        start = clock()
        for seed in range(games):
            steps = stepper.from_seed(seed)
            pick = random.Random(seed).randrange
            while not steps.over:
                legal = steps.legal_indices()
                steps.step(legal[pick(len(legal))])
                actions += 1
            steps.result()
        return actions, clock() - start

    return run


def learner_loop(env: Any, observe: bool) -> Loop:
    """The AEC loop of a learner drawing a random legal action."""

    def run(games: int) -> tuple[int, float]:
        actions = 0
        start = clock()
        for seed in range(games):
            env.reset(seed=seed)
            pick = random.Random(seed).randrange
            for _ in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last(observe)
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"]) if observe else env.legal_indices()
                env.step(int(legal[pick(len(legal))]))
                actions += 1
        return actions, clock() - start

    return run


def pettingzoo(profile: str, observe: bool, engine: str) -> Loop:
    """The learner's loop over the PettingZoo environment of ``profile``."""
    return learner_loop(paiqi_env(profile, engine=engine), observe)


class NothingEnv(AECEnv[str, dict[str, np.ndarray], int]):
    """Four agents taking turns for 52 actions with fixed observations: no game at all."""

    metadata: dict[str, Any] = {"name": "nothing_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(4)]
        mask = np.zeros(NUM_ACTIONS, np.int8)  # (the sizes of a real game of four)
        mask[[3, 9, 17]] = 1
        size = Layout(4).observation_size
        self._obs = {"observation": np.zeros(size, np.float32), "action_mask": mask}
        self._count = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game of 52 actions."""
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._count = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The same arrays every time."""
        return self._obs

    def step(self, action: int | None) -> None:
        """The next agent's turn, or the end after 52 actions."""
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self._count += 1
        if self._count == 52:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self._count % 4]


class KernelOnlyEnv(NothingEnv):
    """``NothingEnv``'s bookkeeping around paiqi's kernel and nothing else: the deal, each
    step writing the observation and mask of the agent to move next, the scoring."""

    def __init__(self, profile: str) -> None:
        super().__init__()
        self.game = Game(profile)
        self.possible_agents = [f"player_{i}" for i in range(self.game.players)]
        self.stepper = Stepper(self.game)
        self.objective = self.game.rules.facts.objective
        self.steps = self.stepper.from_seed(0)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """paiqi's deal ``seed``, and the view of the agent to move first."""
        super().reset(seed)
        self.steps = steps = self.stepper.from_seed(seed or 0)
        self.agent_selection = self.possible_agents[steps.turn]
        observation, mask = steps.view(steps.turn, True)
        self._obs = {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The kernel's step and the next view; the utilities at the end."""
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        steps = self.steps
        assert action is not None
        observation, mask = steps.step_view(action)
        self._obs = {"observation": observation, "action_mask": mask}
        if steps.over:
            values = utilities(steps.result(), self.objective)
            self.rewards = dict(zip(self.possible_agents, values, strict=True))
            self._accumulate_rewards()
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[steps.turn]


def gymnasium(profile: str, engine: str) -> Loop:
    """A random learner against three random paiqi players."""

    env = paiqi_gym_env(profile, opponents="random", engine=engine)

    def run(games: int) -> tuple[int, float]:
        actions = 0
        start = clock()
        for seed in range(games):
            obs, _ = env.reset(seed=seed)
            pick = random.Random(seed).randrange
            done = False
            while not done:
                legal = np.flatnonzero(obs["action_mask"])
                obs, _, terminated, truncated, _ = env.step(int(legal[pick(len(legal))]))
                done = terminated or truncated
            actions += env.turns
        return actions, clock() - start

    return run


def bench_type(short_name: str, long_name: str, players: tuple[int, int], parameters: dict) -> Any:
    """The type of a benchmark's own OpenSpiel game (no tensors or strings), dealt as
    paiqi's games are and scored at the end, for ``players`` (fewest, most)."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
        parameter_specification=parameters,
    )


NOTHING_TYPE = bench_type("paiqi_benchmark_nothing", "a game that does nothing", (4, 4), {})
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class NothingGame(pyspiel.Game):
    """52 chance nodes, then four players taking turns for 52 moves of three legal actions."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=4,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=52,
        )
        super().__init__(NOTHING_TYPE, info, params or {})

    def new_initial_state(self) -> NothingState:
        """A game before its deal."""
        return NothingState(self)


class NothingState(pyspiel.State):
    """A count of the nodes played: nothing else."""

    def __init__(self, game: NothingGame) -> None:
        super().__init__(game)
        self.nodes = 0

    def current_player(self) -> int:
        """Chance for 52 nodes, then the players in turn, then the end."""
        nodes = self.nodes
        return CHANCE if nodes < 52 else TERMINAL if nodes >= 104 else nodes % 4

    def _apply_action(self, action: int) -> None:
        self.nodes += 1

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Three actions, always."""
        return [3, 9, 17]

    def _legal_actions(self, player: int) -> list[int]:
        return [3, 9, 17]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card, equally likely."""
        return [(c, 1 / 52) for c in range(52)]

    def is_terminal(self) -> bool:
        """After the 52 moves."""
        return self.nodes >= 104

    def returns(self) -> list[float]:
        """Nothing won."""
        return [0.0] * 4


KERNEL_TYPE = bench_type(
    "paiqi_benchmark_kernel", "paiqi's kernel and nothing else", (3, 8), {"profile": "doujue"}
)


class KernelOnlyGame(pyspiel.Game):
    """A profile's game in paiqi's kernel with only what OpenSpiel needs around it."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        self.paiqi = Game(str(params.get("profile", "doujue")))
        lim = limits(self.paiqi.rules)
        self.stepper = Stepper(self.paiqi, None, lim.log or 0)
        self.objective = self.paiqi.rules.facts.objective
        self.nodes = len(self.paiqi.deck) + int(self.paiqi.rules.opening.uses_door_card)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=53,
            num_players=self.paiqi.players,
            min_utility=-1e9,
            max_utility=1e9,
            utility_sum=None,
            max_game_length=lim.turns or 10_000,
        )
        super().__init__(KERNEL_TYPE, info, params)

    def new_initial_state(self) -> KernelOnlyState:
        """A game before its deal."""
        return KernelOnlyState(self)


class KernelOnlyState(pyspiel.State):
    """The cards drawn, then the kernel's game."""

    def __init__(self, game: KernelOnlyGame) -> None:
        super().__init__(game)
        self.game = game
        self.drawn: list[int] = []
        self.steps: Any = None

    def current_player(self) -> int:
        """Chance during the deal, then the seat to move, then the end."""
        steps = self.steps
        return CHANCE if steps is None else TERMINAL if steps.over else steps.turn

    def _apply_action(self, action: int) -> None:
        steps = self.steps
        if steps is not None:
            steps.step(action)
            return
        drawn = self.drawn
        drawn.append(action)
        game = self.game
        if len(drawn) == game.nodes:
            n = game.paiqi.players
            cards = len(game.paiqi.deck)
            door = drawn[cards] if len(drawn) > cards else None
            hands = [drawn[s:cards:n] for s in range(n)]
            self.steps = game.stepper.from_hands(hands, door)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The kernel's legal actions (moves only: the loop deals from a list)."""
        legal: list[int] = self.steps.legal_indices()
        return legal

    def is_terminal(self) -> bool:
        """Whether the kernel's game is over."""
        steps = self.steps
        return steps is not None and bool(steps.over)

    def returns(self) -> list[float]:
        """The profile's objective for every seat."""
        return utilities(self.steps.result(), self.game.objective)


for game_type, game_class in ((NOTHING_TYPE, NothingGame), (KERNEL_TYPE, KernelOnlyGame)):
    if game_type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, game_class)


def openspiel(profile: str | None, deal_timed: bool, kernel_only: bool = False) -> Loop:
    """The OpenSpiel game: the deal's chance nodes (timed or not), then random moves (the
    game that does nothing, dealt 0..51, without a profile; the kernel-only game of the
    profile with ``kernel_only``)."""

    if profile is None:
        game = pyspiel.load_game(NOTHING_TYPE.short_name)
        cards = list(range(52))
    else:
        name = KERNEL_TYPE.short_name if kernel_only else os_adapter.short_name(profile)
        game = pyspiel.load_game(name, {"profile": profile} if kernel_only else {})
        engine = game.paiqi

    def run(games: int) -> tuple[int, float]:
        actions = 0
        timed = 0.0
        for seed in range(games):
            start = clock()
            state = game.new_initial_state()
            deal = cards if profile is None else os_adapter.chance_outcomes_of_seed(engine, seed)
            for card in deal:
                state.apply_action(card)
            if not deal_timed:
                start = clock()
            pick = random.Random(seed).randrange
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[pick(len(legal))])
                actions += 1
            state.returns()
            timed += clock() - start
        return actions, timed

    return run


def measure(profile: str, games: int, rounds: int, engine: str) -> dict[str, float]:
    """Median microseconds per action of every loop for ``profile``."""
    game = Game(profile)
    loops = {
        "paiqi random": paiqi_random(game),
        "paiqi step": paiqi_step(game),
        "kernel step": kernel_step(game),
        "pettingzoo": pettingzoo(profile, True, engine),
        "pettingzoo (no obs)": pettingzoo(profile, False, engine),
        "learner's loop alone": learner_loop(NothingEnv(), True),
        "learner's loop, kernel only": learner_loop(KernelOnlyEnv(profile), True),
        "gymnasium": gymnasium(profile, engine),
        "openspiel": openspiel(profile, True),
        "openspiel (moves)": openspiel(profile, False),
        "openspiel's calls alone": openspiel(None, True),
        "openspiel, kernel only": openspiel(profile, True, kernel_only=True),
    }
    for loop in loops.values():
        loop(2)  # warm the caches
    times: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(rounds):
        for name, loop in loops.items():
            actions, seconds = loop(games)
            times[name].append(seconds / actions * 1e6)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> int:
    """Print the table of every profile's loops."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="append", help="profile (repeatable)")
    parser.add_argument("--engine", choices=("auto", "python"), default="auto")
    args = parser.parse_args()
    if args.engine == "python":
        fast.use("python")  # OpenSpiel's games follow the engine in use
    profiles = args.profile or ["doujue", "platform", "shichinarabe", "pagat"]
    print(
        "| profile | loop | µs per action | actions per second | to paiqi random | to paiqi step |"
    )
    print("|---|---|---|---|---|---|")
    for profile in profiles:
        result = measure(profile, args.games, args.rounds, args.engine)
        base, step = result["paiqi random"], result["paiqi step"]
        for name, us in result.items():
            print(
                f"| {profile} | {name} | {us:.1f} | {1e6 / us:,.0f} | {base / us:.2f} "
                f"| {step / us:.2f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
