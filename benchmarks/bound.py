"""The perfect-information bound: what knowing the real deal is worth to the search.

An *oracle* is the ``guided`` player (``hard``) whose every sampled deal is the real one:
it searches the true hands with the playouts ``hard`` uses. It plays each deal twice
against ``normal`` players, in alternate seats and then changed round (as
``learn.duel`` seats two players), and the edge per deal is its mean objective less
theirs. No player may see the real deal; this one exists only to measure how much of the
gap between ``hard`` and that bound a player closes (docs/players.md).

    python benchmarks/bound.py --deals 200               # every family's default table
    python benchmarks/bound.py --profile pagat --deals 300
"""

from __future__ import annotations

import argparse
import random

from paiqi_core import Game, State
from paiqi_core.agents import make_agent
from paiqi_core.learn.duel import edge_of
from paiqi_core.profile import load_profile
from paiqi_core.search import GuidedAgent
from paiqi_core.search.objective import check_objective, utilities

TABLES = {
    "doujue": (),
    "platform": (),
    "shichinarabe": ("deck.jokers=1",),
    "pagat": (),
}


class _Real:
    """A belief that knows: every sample is the real state."""

    def __init__(self, state: State) -> None:
        self.state = state

    def sample(self, rng: random.Random) -> State:
        return self.state.clone()


class Oracle(GuidedAgent):
    """``guided`` over the real deal (the harness sets ``state`` before each decision)."""

    state: State

    def belief_of(self, observation):  # type: ignore[no-untyped-def]
        return _Real(self.state)


def deal_edge(game: Game, seed: int) -> float:
    objective = check_objective(str(game.rules.facts.objective))
    mine, theirs = [], []
    for turn in range(2):
        rng = random.Random(seed * 2 + turn)
        oracle_seats = {s for s in range(game.players) if (s + turn) % 2 == 0}
        oracle = Oracle(rng, game=game, weigh=False)
        normal = [make_agent("normal", rng, game) for _ in range(game.players)]
        state = game.new_state(seed=seed)
        while not state.over:
            seat = state.turn
            obs = state.observation(seat)
            if seat in oracle_seats:
                oracle.state = state
                action = oracle.act(obs)
            else:
                action = normal[seat].act(obs)
            state.apply_unchecked(action)
        values = utilities(state.result(), objective)
        for seat in range(game.players):
            (mine if seat in oracle_seats else theirs).append(values[seat])
    return sum(mine) / len(mine) - sum(theirs) / len(theirs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=sorted(TABLES), help="one family (default: all)")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for name, overrides in TABLES.items():
        if args.profile and name != args.profile:
            continue
        game = Game(load_profile(name, list(overrides)))
        seeds = range(args.seed * 100_000, args.seed * 100_000 + args.deals)
        edge = edge_of([deal_edge(game, s) for s in seeds])
        print(
            f"{name} {' '.join(overrides)}: oracle over normal {edge.mean:+.3f} ± "
            f"{edge.half_width:.3f} a deal ({edge.deals} deals)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
