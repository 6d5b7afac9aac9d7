"""What a belief is worth to the search: placement and decision regret, up to the real deal.

The perfect-information bound (``benchmarks/bound.py``) says what the search gains from
the real deal. This asks how much of that a *belief* can give, by giving the search
deals that are the real one but for ``k`` swaps of two unseen cards between other
hands (``oracle:k``; each deal drawn swaps anew, and agrees with all the seat saw), and
comparing them with the beliefs paiqi's players draw from:

``placement``
    The share of the unseen cards a drawn deal puts in the hand that really holds them,
    at positions of rule-based games: the uniform belief, ``hard``'s weighing of the
    others' moves, the learned belief of ``expert``, the same weighing with a pool of
    8,192 deals and a weight of 0.01 for each move the rule-based player would not make
    (close to the exact posterior where the others are rule-based players), and the real
    deal with 1, 2, 4, 8 and 16 swaps.
``regret``
    Each player's decision regret at those positions: the value of the best action less
    the value of the one it chose, the values those of the real deal finished by the
    rule-based playouts (64 a legal action, the same streams for every action). The
    difference with ``normal`` is paired position by position; ``oracle`` is ``hard``
    searching the real deal, ``oracle:k`` that deal with k swaps, ``posterior`` ``hard``
    over the near-exact posterior (``Posterior``), ``policy`` the learned policy alone,
    ``expert-rules`` ``expert`` with the rule-based player's action to beat.

    python benchmarks/information.py placement --profile pagat --games 30
    python benchmarks/information.py regret --profile pagat --games 160 \\
        --players normal,hard,expert,posterior,oracle,oracle:4,oracle:8

Swaps are drawn between hands only: tables where unseen cards lie in covers or a stock
(鬥雀, the platform) are refused for ``oracle:k`` (``oracle``, the real deal, plays there).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from paiqi_core import Game, State
from paiqi_core.agents import make_agent
from paiqi_core.belief import Belief
from paiqi_core.engine import Observation
from paiqi_core.learn.model import BELIEF, POLICY, model_for
from paiqi_core.learn.policy import LearnedPolicy
from paiqi_core.profile import load_profile
from paiqi_core.search import GuidedAgent
from paiqi_core.search.expert import ExpertAgent
from paiqi_core.search.inference import worlds
from paiqi_core.search.objective import check_objective, playout_values

SWAPS = (1, 2, 4, 8, 16)
Sampler = Callable[[State, random.Random], tuple[list[State], Sequence[int]]]
PLAYOUTS = 64


class Swapped:
    """Deals that are ``state``'s but for ``swaps`` swaps of two unseen cards between the
    hands of other seats, each agreeing with what the seat saw (redrawn where not)."""

    def __init__(self, state: State, observation: Observation, swaps: int) -> None:
        self.state = state
        self.swaps = swaps
        self.belief = Belief(state.game, observation)
        if not swaps:  # the real deal: nothing to swap, wherever the cards are hidden
            return
        places = self.belief.places
        if any(p.cover >= 0 or p.seat < 0 for p in places):
            raise ValueError("oracle:k swaps cards between hands: this table hides cards elsewhere")
        hand_place = {p.seat: i for i, p in enumerate(places)}
        holder = {c: s for s in range(state.players) for c in state.held(s)}
        self.true = [hand_place[holder[c]] for c in self.belief.hidden]

    def sample(self, rng: random.Random) -> State:
        """A deal ``swaps`` swaps away from the real one (the real one if none agrees)."""
        if not self.swaps or len(self.true) < 2:
            return self.state.clone()
        for _ in range(200):
            placement = list(self.true)
            for _ in range(self.swaps):
                i, j = rng.randrange(len(placement)), rng.randrange(len(placement))
                placement[i], placement[j] = placement[j], placement[i]
            deal = self.belief.state_of(placement)
            if deal is not None:
                return deal
        return self.state.clone()


class Oracle(GuidedAgent):
    """``hard`` searching the real deal (``swaps`` 0) or deals near it."""

    def __init__(self, rng: random.Random, game: Game, swaps: int) -> None:
        super().__init__(rng, game=game, weigh=False)
        self.swaps = swaps
        self.state: State | None = None

    def belief_of(self, observation: Observation) -> Belief:
        assert self.state is not None
        return Swapped(self.state, observation, self.swaps)  # type: ignore[return-value]


def positions(game: Game, games: int, seed: int, share: float = 0.3) -> list[State]:
    """Decisions with a choice, at ``share`` of them, of games of rule-based players."""
    pick = random.Random(seed)
    out = []
    for g in range(games):
        players = [
            make_agent("normal", random.Random(seed * 1000 + g * 10 + s), game)
            for s in range(game.players)
        ]
        state = game.new_state(seed=seed * 100_000 + g)
        while not state.over:
            seat = state.turn
            observation = state.observation(seat)
            if len(observation.legal) > 1 and pick.random() < share:
                out.append(state.clone())
            state.apply_unchecked(players[seat].act(observation))
    return out


def right_share(state: State, deal: State, hidden: Sequence[int]) -> float:
    """The share of ``hidden`` cards ``deal`` puts in the hand that holds them in ``state``."""
    me = state.turn
    held = [set(state.held(s)) for s in range(state.players)]
    dealt = [set(deal.held(s)) for s in range(state.players)]
    right = sum(
        1 for c in hidden for s in range(state.players) if s != me and c in held[s] & dealt[s]
    )
    return right / len(hidden)


def placement(game: Game, states: list[State], draws: int = 16) -> None:
    """Print the share of unseen cards placed right, by belief (``draws`` deals each)."""

    def pooled(slack: float, chunk: int) -> Sampler:
        def draw(state: State, rng: random.Random) -> tuple[list[State], Sequence[int]]:
            belief = Belief(game, state.observation(state.turn))
            deals = worlds(belief, rng, slack, chunk)
            return [next(deals)[1] for _ in range(draws)], belief.hidden

        return draw

    def uniform(state: State, rng: random.Random) -> tuple[list[State], Sequence[int]]:
        belief = Belief(game, state.observation(state.turn))
        return [belief.sample(rng) for _ in range(draws)], belief.hidden

    def learned(state: State, rng: random.Random) -> tuple[list[State], Sequence[int]]:
        agent = ExpertAgent(rng, game=game, model=model)
        belief = agent.belief_of(state.observation(state.turn))
        deals = worlds(belief, rng, None, agent.chunk())
        return [next(deals)[1] for _ in range(draws)], belief.hidden

    def near(k: int) -> Sampler:
        def draw(state: State, rng: random.Random) -> tuple[list[State], Sequence[int]]:
            swapped = Swapped(state, state.observation(state.turn), k)
            return [swapped.sample(rng) for _ in range(draws)], swapped.belief.hidden

        return draw

    model = model_for(game.rules.fingerprint)
    samplers: dict[str, Sampler] = {
        "uniform": uniform,
        "hard's weighing (pool 64, weight 0.25)": pooled(0.25, 8),
        "weighing, pool 8,192, weight 0.01": pooled(0.01, 1024),
    }
    if model is not None:
        samplers["expert (learned belief, weighed)"] = learned
    try:
        Swapped(states[0], states[0].observation(states[0].turn), 1)
    except ValueError as e:
        print(f"(no swapped deals: {e})")
    else:
        for k in SWAPS:
            samplers[f"real deal, {k} swaps"] = near(k)
    for name, sampler in samplers.items():
        shares = []
        for i, state in enumerate(states):
            deals, hidden = sampler(state, random.Random(i))
            if hidden:
                shares += [right_share(state, deal, hidden) for deal in deals]
        print(f"{name:40s} {statistics.mean(shares):.3f}", flush=True)


def regret(
    game: Game, states: list[State], players: list[str],
    make: Callable[[str, random.Random, Game], object] | None = None,
) -> None:  # fmt: skip
    """Print each player's mean decision regret, and its difference with the first's
    (the players made by ``make``, ``player`` by default)."""
    make = make or player
    objective = check_objective(str(game.rules.facts.objective))
    rng = random.Random(1)
    values = []
    for state in states:
        legal = state.legal_actions()
        lucks = [rng.getrandbits(64) for _ in range(PLAYOUTS)]
        rows = playout_values(state, legal, lucks, "heuristic", objective)
        values.append([statistics.fmean(r[i][state.turn] for r in rows) for i in range(len(legal))])
    print(f"{len(states)} positions; values of {PLAYOUTS} rule-based playouts of the real deal")
    first: list[float] | None = None
    for name in players:
        clock = time.process_time()
        regrets = []
        for i, (state, value) in enumerate(zip(states, values, strict=True)):
            agent: Any = make(name, random.Random(i), game)
            if isinstance(agent, Oracle):
                agent.state = state
            action = agent.act(state.observation(state.turn))
            regrets.append(max(value) - value[state.legal_actions().index(action)])
        line = f"{name:12s} regret {statistics.fmean(regrets):.4f}"
        if first is None:
            first = regrets
        else:
            d = [a - b for a, b in zip(regrets, first, strict=True)]
            half = 1.96 * statistics.stdev(d) / math.sqrt(len(d))
            line += f"  less {players[0]}'s {statistics.fmean(d):+.4f} ± {half:.4f}"
        ms = 1000 * (time.process_time() - clock) / len(states)
        print(f"{line}  ({ms:.0f} ms a decision)", flush=True)


class Posterior(GuidedAgent):
    """``hard`` over deals weighed as exactly as sampling can: a pool of 2,048 deals for
    the decision's 32, a weight of 0.01 for each move unlike the rule-based player's, each
    distinct deal one piece of evidence."""

    def __init__(self, rng: random.Random, game: Game) -> None:
        super().__init__(rng, game=game, weigh=True, slack=0.01, clustered=True)

    def chunk(self) -> int:
        return 256


def player(name: str, rng: random.Random, game: Game) -> object:
    """``oracle``, ``oracle:k``, ``posterior``, ``policy`` (the learned policy alone),
    ``expert-rules`` (``expert`` beating the rule-based player's action, not the learned
    policy's) or ``expert-guided`` (``expert`` without planning), else the named player."""
    if name == "oracle" or name.startswith("oracle:"):
        return Oracle(rng, game, int(name.partition(":")[2] or 0))
    if name == "posterior":
        return Posterior(rng, game)
    if name == "expert-guided":
        model = model_for(game.rules.fingerprint, BELIEF)
        if model is None:
            raise SystemExit(f"{name}: no trained belief for these rules (paiqi train)")
        return ExpertAgent(rng, game=game, model=model, plan=False)
    if name in ("policy", "expert-rules"):
        key = game.rules.fingerprint
        belief, policy = model_for(key, BELIEF), model_for(key, POLICY)
        if belief is None or policy is None:
            raise SystemExit(f"{name}: no trained models for these rules (paiqi train)")
        if name == "policy":
            return LearnedPolicy(rng, game=game, policy=policy, belief=belief)
        return ExpertAgent(rng, game=game, model=belief)
    return make_agent(name, rng, game)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("placement", "regret"))
    parser.add_argument("--profile", default="pagat")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", default="normal,hard,expert,oracle,oracle:4,oracle:8")
    args = parser.parse_args()
    game = Game(load_profile(args.profile, args.set))
    swapping = [p for p in args.players.split(",") if p.startswith("oracle:")]
    if args.what == "regret" and swapping and game.rules.stuck.covers:
        parser.error(f"{', '.join(swapping)}: swaps are drawn between hands, and this table covers")
    states = positions(game, args.games, args.seed)
    if args.what == "placement":
        placement(game, states)
    else:
        regret(game, states, args.players.split(","))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
