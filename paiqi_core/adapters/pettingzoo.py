"""A PettingZoo AEC environment for every paiqi profile (extra ``[pettingzoo]``).

``paiqi_env("doujue", {"scoring.stake": 2})`` is a turn-based environment whose agents
``player_0`` .. ``player_{n-1}`` are the seats in turn order. Each agent observes a dict: a
``float32`` vector ``observation`` (its own seat's view, laid out as
``paiqi_core.adapters.encoding`` documents) and an ``int8`` ``action_mask`` over the 212
shared actions (plays, covers, the pass, joker moves, cards handed on, the draw), non-zero
only for the agent to move. A draw from the stock (``turn.draw``) takes its card from the
deal's random stream.
Rewards come at the end of the game and are the profile's own objective: money for a
money-settled profile, rank points for a ranked one, a share of the win otherwise (see
``paiqi_core.search.objective``). ``render()`` returns (``ansi``) or prints (``human``) the
table as text.

``reset(seed=s)`` deals paiqi's deal ``s`` (the deal of ``Game.new_state(s)``); a later
``reset()`` without a seed deals from a stream seeded by the last seed given, so a seeded
run of resets is the same every time. ``reset(options={"hands": [...], "door_card": "S4"})``
deals the given hands (card texts by seat) instead, and ``reset(options={"state": state})``
starts from a copy of a position of the same game.

Games are played in paiqi's compiled kernel where it can play the profile (numba installed,
no plugin hook without a compiled form; ``env.compiled`` says which), in the Python engine
otherwise; ``paiqi_env(..., engine="python")`` chooses the engine. Both give the same games.
``env.paiqi_state`` is the game as a paiqi ``State`` either way (rebuilt from the kernel's
game when asked for): read it, but set up positions with ``reset(options={"state": ...})``.
``env.state()`` is PettingZoo's global state, an array in ``env.state_space``: what seat 0
sees without its own cards, then every seat's hand and covered cards (laid out in
``paiqi_core.adapters.encoding``).

An environment deep-copies and pickles with either engine, mid-game too: the copy goes on
with the same game, and deals the same games at its next resets. Used before ``reset()``,
it says to call ``reset()`` first.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from paiqi_core.adapters.bounds import limits, stock_cards
from paiqi_core.adapters.encoding import NUM_ACTIONS, Layout
from paiqi_core.adapters.steps import Stepper, Steps, deepcopy_sharing_game
from paiqi_core.cards import RANKS, SUITS, card_text, parse_card
from paiqi_core.core import layout as L
from paiqi_core.engine import Game, State
from paiqi_core.games import game_for
from paiqi_core.rules import Rules
from paiqi_core.search.objective import utilities

UNBOUNDED_TURNS = 10_000  # a game of rules that may never end is cut (truncated) here
# what ``reset()`` sets: asked for before it, they say to call it (``PaiqiEnv.__getattr__``)
SET_BY_RESET = frozenset(
    ("agents", "num_agents", "agent_selection", "rewards", "terminations", "truncations",
     "infos", "_cumulative_rewards")
)  # fmt: skip


def load_game(
    profile: str | Game | Rules, overrides: Sequence[str] | Mapping[str, Any] | None = None
) -> Game:
    """The compiled game of a profile id or file with overrides (or a Game or Rules)."""
    if isinstance(profile, Game):
        if overrides:
            raise ValueError("pass overrides with a profile name, not with a compiled Game")
        return profile
    if isinstance(profile, Rules):
        if overrides:
            raise ValueError("pass overrides with a profile name, not with compiled Rules")
        return Game(profile)
    return game_for(profile, overrides or ())


def deal_state(game: Game, seed: int | None, options: Mapping[str, Any] | None) -> State:
    """A new game: a copy of ``options["state"]`` (a position of this game), the given hands
    (``options["hands"]``, card texts or numbers by seat, and ``options["door_card"]``), or
    paiqi's deal ``seed``."""
    if options and "state" in options:
        given = options["state"]
        if not isinstance(given, State) or given.game.rules.fingerprint != game.rules.fingerprint:
            raise ValueError("options['state'] must be a State of this environment's game")
        return given.clone()
    if options and "hands" in options:
        hands = [[c if isinstance(c, int) else parse_card(c) for c in h] for h in options["hands"]]
        door = options.get("door_card")
        door_card = None if door is None else door if isinstance(door, int) else parse_card(door)
        return game.new_state(hands=hands, door_card=door_card)
    assert seed is not None
    return game.new_state(seed)


def new_steps(
    stepper: Stepper, seed: int | None, options: Mapping[str, Any] | None, stream: bool = False
) -> Steps:
    """A new game, as ``deal_state`` starts it, played by ``stepper``'s engine (a dealt
    kernel game keeps its deal's random stream with ``stream``)."""
    game = stepper.game
    if options and "state" in options:
        given = options["state"]
        if not isinstance(given, State) or given.game.rules.fingerprint != game.rules.fingerprint:
            raise ValueError("options['state'] must be a State of this environment's game")
        return stepper.from_state(given)
    if options and "hands" in options:
        hands = [[c if isinstance(c, int) else parse_card(c) for c in h] for h in options["hands"]]
        door = options.get("door_card")
        door_card = None if door is None else door if isinstance(door, int) else parse_card(door)
        return stepper.from_hands(hands, door_card)
    assert seed is not None
    return stepper.from_seed(seed, stream)


def pass_bound(passes: int | None) -> float:
    """The highest pass count an observation can show: the most passes a seat can make,
    infinite when unbounded, and at least 1 (a box of [0, 0] is refused by some checkers)."""
    return np.inf if passes is None else max(passes, 1)


def stock_bound(rules: Rules) -> int:
    """The highest stock count an observation can show: the cards the stock starts with,
    and at least 1 (as ``pass_bound``)."""
    return max(stock_cards(rules), 1)


class DealStream:
    """The deals of successive resets: ``seed`` itself, then a stream seeded by it (made
    when a reset without a seed first asks for it)."""

    def __init__(self) -> None:
        self._rng: random.Random | None = None
        self._seed: Any = None

    def next(self, seed: int | None) -> int:
        """The deal of a reset given ``seed`` (or None)."""
        if seed is not None:
            self._rng, self._seed = None, seed
            return int(seed)
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng.getrandbits(63)


def table_text(state: State, show_hands: bool = True) -> str:
    """The table as text: each suit's row along its line, the joker's place as ``*`` (with
    several decks, a row per copy: ``Sx2`` shows the spades down twice), each seat's count
    of cards (every copy), covers and passes (and its hand, with ``show_hands``)."""
    game = state.game
    order = game.rules.topology.order
    lines = [f"{game.id}: " + ("game over" if state.over else f"seat {state.turn} to move")]
    laid = 0
    for hand in state.laid:
        laid |= hand
    st = state.st
    copies = (state.table, st[L.TABLE_TWICE], st[L.TABLE_THRICE])[: game.rules.decks]
    for suit in range(4):
        for k, table in enumerate(copies):
            cells = []
            for rank in order:
                card = 13 * suit + rank
                if not table >> card & 1:
                    cells.append(".")
                elif state.jokers_at >> card & 1:
                    cells.append("*")
                else:
                    cells.append(RANKS[rank].lower() if laid >> card & 1 else RANKS[rank])
            label = f"{SUITS[suit]}  " if k == 0 else f"{SUITS[suit]}x{k + 1}"
            lines.append(label + " ".join(f"{c:>2}" for c in cells))
    if state.door_card is not None:
        lines.append(f"door card {card_text(state.door_card)}")
    if state.stock:
        lines.append(f"stock: {state.stock.bit_count()} cards")
    for seat in range(state.players):
        held = state.held(seat)  # a card held twice, twice
        status = (
            " finished" if seat in state.finished
            else " burst" if seat in state.bursts
            else " left" if seat in state.left
            else ""
        )  # fmt: skip
        line = (
            f"seat {seat}: {len(held):2} cards, {state.covered[seat].bit_count()} covered,"
            f" {state.passes[seat]} passes{status}"
        )
        if show_hands and held:
            line += "  " + " ".join(map(card_text, held))
        lines.append(line)
    if state.over:
        result = state.result()
        lines.append("result: " + ", ".join(f"{k} {v}" for k, v in result.as_record().items()))
    return "\n".join(lines)


class AgentTurns:
    """``env.agent_iter()``: each iteration yields the agent selected, while the
    environment has agents and fewer than ``max_iter`` were yielded (what PettingZoo's
    ``AECIterable`` does, in a generator)."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: AECEnv[str, Any, Any], max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        """The agents in turn, from the environment's current selection."""
        env = self.env
        left = self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class PaiqiEnv(AECEnv[str, dict[str, np.ndarray], int]):
    """A paiqi game as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "paiqi_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        profile: str | Game | Rules = "doujue",
        overrides: Sequence[str] | Mapping[str, Any] | None = None,
        *,
        render_mode: str | None = None,
        max_turns: int | None = None,
        engine: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = load_game(profile, overrides)
        rules = self.game.rules
        n = rules.players
        self.render_mode = render_mode
        self.objective = rules.facts.objective
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.layout = Layout(n, decks=rules.decks)  # with several decks, counts of copies
        lim = limits(rules)
        self.max_turns = max_turns or lim.turns or UNBOUNDED_TURNS
        low, high = self.layout.bounds(
            lim.hand, lim.hand, pass_bound(lim.passes_per_seat), stock_bound(rules)
        )
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        low, high = self.layout.state_bounds(low, high)
        self.state_space = gymnasium.spaces.Box(low, high, dtype=np.float32)
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents
        }
        # the kernel plays the game where it can (``paiqi_core.adapters.steps``)
        self.stepper = Stepper(self.game, engine, self.max_turns + lim.events)
        self._steps: Steps | None = None
        self._deals = DealStream()
        self._turns = 0
        self._live = False  # a game in play: reset, neither over nor truncated
        # a learner that looks at the agent to move after every step: each step writes that
        # observation in the same compiled call, and ``last()`` hands it over
        self._watch = False
        self._ready: dict[str, np.ndarray] | None = None  # agent_selection's, not yet given
        self._skip_agent_selection: str | None = None  # as AECEnv._was_dead_step keeps it

    def __getattr__(self, name: str) -> Any:
        """Only called for an attribute not set: those that ``reset()`` sets say so."""
        if name in SET_BY_RESET:
            raise AttributeError(f"call reset() before using the environment ({name} is set by it)")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __deepcopy__(self, memo: dict[int, Any]) -> PaiqiEnv:
        """A copy that goes on with the same game (the compiled rules are shared)."""
        other: PaiqiEnv = deepcopy_sharing_game(self, self.game, memo)
        return other

    @property
    def paiqi_state(self) -> State | None:
        """The game as a paiqi ``State`` (None before the first reset). Read it, clone it,
        but do not move it: set up a position with ``reset(options={"state": ...})``."""
        return None if self._steps is None else self._steps.state

    def state(self) -> np.ndarray:
        """PettingZoo's global state: a new ``float32`` array in ``state_space``, what seat 0
        sees without its own cards, then every seat's hand and covered cards (laid out in
        ``paiqi_core.adapters.encoding``)."""
        steps = self._steps
        if steps is None:
            raise RuntimeError("call reset() before state()")
        return steps.global_state()

    @property
    def compiled(self) -> bool:
        """Whether games are played by paiqi's compiled kernel (else by the Python engine)."""
        return self.stepper.fast

    @property
    def turns(self) -> int:
        """Actions taken in the game since the last reset."""
        return self._turns

    # -- spaces ----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The 212 shared actions (``paiqi_core.adapters.encoding``)."""
        return self.action_spaces[agent]

    # -- the game ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: paiqi's deal ``seed``, the next deal of the seeded stream, or the
        ``hands`` or ``state`` in ``options`` (other keys of ``options`` are ignored)."""
        deal = self._deals.next(seed)
        self._steps = steps = new_steps(self.stepper, deal, options)
        self._turns = 0
        self._ready = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[steps.turn]
        self._live = not steps.over
        if steps.over:  # a finished position was given
            self._finish()
            self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its tensor and its action mask (non-zero only for the
        agent to move in a game in play)."""
        steps = self._steps
        if steps is None:
            raise RuntimeError("call reset() before observe()")
        ready = self._ready
        if ready is not None and agent == self.agent_selection:
            self._ready = None  # written by the last step: handed over once
            return ready
        seat = self._seat[agent]
        moving = self._live and seat == steps.turn
        if moving:  # the agent to move looks: have the next steps write its observation
            self._watch = True
        observation, mask = steps.view(seat, moving)
        return {"observation": observation, "action_mask": mask}

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """The agent to move's observation (None unless ``observe``), cumulative reward,
        termination, truncation and info: ``AECEnv.last`` without its assertion, which a
        learner's loop pays for at every action."""
        agent = self.agent_selection
        observation = self._ready
        if not observe:
            observation = None
        elif observation is None:
            observation = self.observe(agent)
        else:
            self._ready = None  # written by the last step: handed over once
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> AgentTurns:
        """The agent to act, until every agent is done or ``max_iter`` turns were given, as
        ``AECEnv.agent_iter`` (a generator in place of its iterator class: cheaper per
        turn)."""
        if self._steps is None:
            raise RuntimeError("call reset() before agent_iter()")
        return AgentTurns(self, max_iter)

    def _was_dead_step(self, action: int | None) -> None:
        """A finished agent's step (None): it leaves, and the next finished agent is
        selected, or, once none is left, the agent selected when the first left; rewards are
        cleared. ``AECEnv._was_dead_step`` does the same with more work per call."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        terminations, truncations = self.terminations, self.truncations
        assert terminations[agent] or truncations[agent], (
            "an agent that was not dead as attempted to be removed"
        )
        del terminations[agent]
        del truncations[agent]
        del self.rewards[agent]
        del self._cumulative_rewards[agent]
        del self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        skipped = self._skip_agent_selection
        for other in agents:
            if terminations[other] or truncations[other]:
                if skipped is None:
                    self._skip_agent_selection = agent
                self.agent_selection = other
                break
        else:
            if skipped is not None:
                self.agent_selection = skipped
            self._skip_agent_selection = None
        rewards = self.rewards
        for other in rewards:
            rewards[other] = 0

    def legal_indices(self) -> list[int]:
        """The legal actions of the agent to move, as indices of the action space."""
        steps = self._steps
        if steps is None or steps.over:
            return []
        return steps.legal_indices()

    def step(self, action: int | None) -> None:
        """The agent to move takes ``action`` (an index of the action space); an illegal
        action raises ``IllegalAction`` and changes nothing. A finished agent steps None."""
        if not self._live:  # every agent is terminated or truncated (or no reset yet)
            if self._steps is None:
                raise RuntimeError("call reset() before step()")
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
        steps = self._steps
        assert steps is not None
        if action is None:
            raise ValueError(f"{self.agent_selection} is to move: give an action, not None")
        view = None
        if not self._watch:
            steps.step(int(action))
        elif self._ready is None:
            view = steps.step_view(int(action))
        else:  # the observation the last step wrote went unused: stop writing them
            self._watch = False
            self._ready = None
            steps.step(int(action))
        self._turns += 1
        # rewards and cumulative rewards stay 0 until the game ends: nothing to clear
        if steps.over:
            self._live = False
            self._cumulative_rewards[self.agent_selection] = 0.0
            self._clear_rewards()
            self._finish()
            self._accumulate_rewards()
        elif self._turns >= self.max_turns:
            self._live = False
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[steps.turn]
            if view is not None:
                self._ready = {"observation": view[0], "action_mask": view[1]}
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        """The game is over: every agent gets its utility and is terminated."""
        steps = self._steps
        assert steps is not None
        result = steps.result()
        values = utilities(result, self.objective)
        record = result.as_record()
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = values[seat]
            self.infos[agent] = {"result": record}
        self.terminations = dict.fromkeys(self.agents, True)

    # -- text ------------------------------------------------------------------------------
    def render(self) -> str | None:
        """The table as text: returned (``ansi``) or printed (``human``); every hand shown."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
            return None
        state = self.paiqi_state
        if state is None:
            return None
        text = table_text(state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""


def paiqi_env(
    profile: str | Game | Rules = "doujue",
    overrides: Sequence[str] | Mapping[str, Any] | None = None,
    *,
    render_mode: str | None = None,
    max_turns: int | None = None,
    engine: str | None = None,
) -> PaiqiEnv:
    """The AEC environment of ``profile`` (a built-in id or a profile file) with
    ``overrides`` (``{"scoring.stake": 2}`` or ``["scoring.stake=2"]``). ``max_turns`` cuts
    (truncates) a game after that many actions; by default, the most a game of these rules
    can take (10,000 for rules under which a game may never end). ``engine``: ``auto``
    (None: the compiled kernel where it can play the rules, as ``paiqi_core.fast`` decides),
    ``fast`` or ``python``; both play the same games."""
    return PaiqiEnv(profile, overrides, render_mode=render_mode, max_turns=max_turns, engine=engine)


env = paiqi_env  # PettingZoo's conventional name
