"""One learning seat against paiqi players, as a Gymnasium environment (extra
``[pettingzoo]``, which brings Gymnasium).

``paiqi_gym_env("doujue", seat=0, opponents="heuristic")``: the learner plays ``seat``; every
other seat is a paiqi player (``random``, ``heuristic``, ``pimc:16x2``, ``ismcts:200``, a
level ``easy``/``normal``/``hard``, or one name per other seat), deciding from its own
observation only. Observations and actions are those of the PettingZoo environment (a dict
of the ``observation`` tensor and the ``action_mask``; 212 actions). The reward is 0 until
the game ends, then the learner's utility under the profile's objective.

``reset(seed=s)`` deals paiqi's deal ``s``, and the opponents draw from that deal's random
stream, as in ``paiqi simulate``; ``reset()`` deals from the environment's seeded stream.

Against ``random`` (or ``easy``) opponents the game is played in paiqi's compiled kernel
where it can play the profile: a learner's turn, the opponents' answers and the next
observation are one compiled call, with the same draws as paiqi's random players
(``env.compiled`` says so; ``engine="python"`` plays in the Python engine). Other opponents
decide from observations of a Python ``State``. ``env.paiqi_state`` is the game as a
``State`` either way (rebuilt from the kernel's game when asked for, its random stream where the
opponents left it); read it, do not move it.

An action that is not legal ends the episode as a loss by default (``illegal="lose"``): the
reward is the lowest utility the game can give (``paiqi_core.adapters.bounds``) and the info
says ``{"illegal_action": True}``; the observation's ``action_mask`` says what is legal.
``illegal="raise"`` raises ``IllegalAction`` instead.

The environment is registered with Gymnasium as ``paiqi/Sevens-v0``:
``gymnasium.make("paiqi/Sevens-v0", profile="pagat", opponents="random")``.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, SupportsInt

import gymnasium
import numpy as np

from paiqi_core.adapters.bounds import limits, utility_bounds
from paiqi_core.adapters.encoding import NUM_ACTIONS, Layout
from paiqi_core.adapters.pettingzoo import (
    UNBOUNDED_TURNS,
    load_game,
    new_steps,
    pass_bound,
    stock_bound,
    table_text,
)
from paiqi_core.adapters.steps import KernelSteps, Stepper, Steps, deepcopy_sharing_game
from paiqi_core.agents import Agent, make_agent, resolve
from paiqi_core.engine import Game, IllegalAction, State
from paiqi_core.rules import Rules
from paiqi_core.search.objective import utilities
from paiqi_core.streams import Stream

Obs = dict[str, Any]  # observation (float32) and action_mask (int8) arrays


_REDEALS = 1000  # deals tried for one where the learner has a turn


class PaiqiGymEnv(gymnasium.Env[Obs, SupportsInt]):
    """A paiqi game seen from one seat, the others played by paiqi players."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        profile: str | Game | Rules = "doujue",
        overrides: Sequence[str] | Mapping[str, Any] | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        illegal: str = "lose",
        render_mode: str | None = None,
        max_turns: int | None = None,
        engine: str | None = None,
    ) -> None:
        self.game = load_game(profile, overrides)
        rules = self.game.rules
        n = rules.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"give one opponent for each of the other {n - 1} seats")
        for name in names:  # unknown names fail now, not at the first reset
            make_agent(name, random.Random(0), self.game)
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.seat = seat
        self.opponent_names = names
        self.illegal = illegal
        self.render_mode = render_mode
        self.objective = rules.facts.objective
        self.layout = Layout(n, decks=rules.decks)  # with several decks, counts of copies
        lim = limits(rules)
        self.max_turns = max_turns or lim.turns or UNBOUNDED_TURNS
        self.lowest = utility_bounds(rules)[0] if illegal == "lose" else 0.0
        low, high = self.layout.bounds(
            lim.hand, lim.hand, pass_bound(lim.passes_per_seat), stock_bound(rules)
        )
        self.observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        # random opponents are played in the compiled kernel with the learner, where it
        # can play the rules; other players decide from observations of a Python State
        randoms = all(resolve(name) == ("random", None) for name in names)
        if not randoms and engine == "fast":
            raise ValueError("engine 'fast': the compiled engine plays random opponents only")
        self.stepper = Stepper(
            self.game, engine if randoms else "python", self.max_turns + lim.events
        )
        self._steps: Steps | None = None
        self._players: dict[int, Agent] = {}
        self._turns = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> PaiqiGymEnv:
        """A copy that goes on with the same game (the compiled rules are shared)."""
        other: PaiqiGymEnv = deepcopy_sharing_game(self, self.game, memo)
        return other

    @property
    def paiqi_state(self) -> State | None:
        """The game as a paiqi ``State`` (None before the first reset). Read it, clone it,
        but do not move it."""
        return None if self._steps is None else self._steps.state

    @property
    def state(self) -> State | None:
        """The former name of ``paiqi_state`` (deprecated: the PettingZoo environment's
        ``state()`` is PettingZoo's global state)."""
        warnings.warn(
            "env.state is deprecated: use env.paiqi_state", DeprecationWarning, stacklevel=2
        )
        return self.paiqi_state

    @property
    def compiled(self) -> bool:
        """Whether games are played by paiqi's compiled kernel (else by the Python engine)."""
        return self.stepper.fast

    @property
    def turns(self) -> int:
        """Actions taken in the game since the last reset, by every seat."""
        return self._turns

    def _observe(self) -> Obs:
        steps = self._steps
        assert steps is not None
        observation, mask = steps.view(self.seat, steps.turn == self.seat and not steps.over)
        return {"observation": observation, "action_mask": mask}

    def _others_play(self) -> None:
        """The paiqi players move until it is the learner's turn or the game is over."""
        steps = self._steps
        assert steps is not None
        if steps.over or steps.turn == self.seat or self._turns >= self.max_turns:
            return
        if isinstance(steps, KernelSteps):
            self._turns += steps.play_random_until(self.seat, self.max_turns - self._turns)
            return
        state = steps.state
        while not state.over and state.turn != self.seat and self._turns < self.max_turns:
            seat = state.turn
            state.apply_unchecked(self._players[seat].act(state.observation(seat)))
            self._turns += 1

    def _outcome(self) -> tuple[float, bool, bool, dict[str, Any]]:
        steps = self._steps
        assert steps is not None
        if steps.over:
            result = steps.result()
            reward = utilities(result, self.objective)[self.seat]
            return reward, True, False, {"result": result.as_record()}
        return 0.0, False, self._turns >= self.max_turns, {}

    def _start(self, deal: int, options: dict[str, Any] | None) -> Steps:
        """The new game, with the opponents' random stream: the deal's own, as in ``paiqi
        simulate`` (a dealt state keeps it), else one seeded by the deal."""
        steps = new_steps(self.stepper, deal, options, stream=True)
        if isinstance(steps, KernelSteps):
            kind = steps.origin[0]
            if kind == "seed" and steps.stream:
                steps.draws_for = self.seat  # the deal's stream: the State's own
                return steps
            state = steps.origin[1] if kind == "state" else None
            if (state is None or state.rng is None) and steps.seed_stream(deal):
                return steps
            # a stream the kernel cannot take over: the game is played in Python
            steps = Stepper(self.game, "python").from_state(steps.state)
        state = steps.state
        if state.rng is None:  # the players' stream draws from the stock too, as in the kernel
            state.rng = Stream(deal)
        rng = state.rng
        others = [s for s in range(self.game.players) if s != self.seat]
        self._players = {
            s: make_agent(name, rng, self.game)
            for s, name in zip(others, self.opponent_names, strict=True)
        }
        return steps

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal (paiqi's deal ``seed``, or the next of the seeded stream, or ``options``'
        ``hands``/``state`` as in the PettingZoo environment) and let the others play up to
        the learner's first turn. A deal in which the learner never has a turn (it is out
        before its first, as where nobody may pass) is followed by the next deal of the
        stream that ``seed`` began."""
        super().reset(seed=seed)
        deal = seed if seed is not None else int(self.np_random.integers(0, 2**63))
        for _ in range(_REDEALS):
            self._steps = steps = self._start(deal, options)
            self._turns = 0
            self._others_play()
            if not steps.over:
                return self._observe(), {}
            if options:  # the hands or the state were given: nothing to deal again
                break
            # the learner had no decision in this deal (out before its first turn, as where
            # nobody may pass): the next deal of the stream the seed began
            deal = int(self.np_random.integers(0, 2**63))
        raise RuntimeError("the game ended before the learner's first turn")

    def step(self, action: SupportsInt) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The learner plays ``action`` (an index of the action space); the others answer."""
        steps = self._steps
        if steps is None:
            raise RuntimeError("call reset() before step()")
        if steps.over:
            raise RuntimeError("the game is over: call reset()")
        kernel = isinstance(steps, KernelSteps)
        try:
            if isinstance(steps, KernelSteps):  # the whole turn in one compiled call
                limit = self.max_turns - self._turns - 1
                played, observation, mask = steps.respond(int(action), self.seat, limit)
            else:
                steps.step(int(action))
        except IllegalAction:
            if self.illegal == "raise":
                raise
            return self._observe(), self.lowest, True, False, {"illegal_action": True}
        if kernel:
            self._turns += 1 + played
            obs = {"observation": observation, "action_mask": mask}
        else:
            self._turns += 1
            self._others_play()
            obs = self._observe()
        reward, terminated, truncated, info = self._outcome()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def render(self) -> str | None:
        """The table as text, every hand shown: returned (``ansi``) or printed (``human``)."""
        state = self.paiqi_state
        if state is None or self.render_mode is None:
            return None
        text = table_text(state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


def paiqi_gym_env(
    profile: str | Game | Rules = "doujue",
    overrides: Sequence[str] | Mapping[str, Any] | None = None,
    **options: Any,
) -> PaiqiGymEnv:
    """The single-seat environment of ``profile`` with ``overrides``; keyword options as
    ``PaiqiGymEnv`` (``seat``, ``opponents``, ``illegal``, ``render_mode``, ``max_turns``,
    ``engine``)."""
    return PaiqiGymEnv(profile, overrides, **options)


gymnasium.register("paiqi/Sevens-v0", entry_point="paiqi_core.adapters.gymnasium:PaiqiGymEnv")
