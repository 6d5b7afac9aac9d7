"""Planning several moves deep against modelled opponents: does it beat one-step search?

``expert`` values each action by one move and then the rule-based player for everyone,
itself included (a one-step improvement of that player). ``plan:N`` searches its own later
moves too (POMCP, Silver and Veness 2010, with the others modelled): N times it draws a
deal from ``expert``'s belief (the learned tilt, weighed by the others' moves), plays the
others as the rule-based player, chooses its own moves in a tree keyed by what it has seen
(PUCT, the rule-based player's move given half the prior), adds one of its own decisions a
time, and values it with one compiled rule-based playout. Like ``guided`` it plays the
rule-based move unless another did better at the root by more than ``CONFIDENCE`` standard
errors. ``ucb:N`` is the plain search: UCB1 without the prior, the root move visited most.
Both walk the tree in the kernel (``search.planner``, which ``expert`` uses where a pass is
a choice), over ``plan:N:D`` D deals (``planner.DEALS``, 64, by default) drawn once for
the decision;
``pyplan:N`` is the same search in Python, a new deal each iteration (the reference it was
first measured with). ``expert-guided`` is ``expert`` without planning.

    python benchmarks/planning.py duel --profile pagat --deals 200 --first plan:128 \
        --second expert --out plan-expert.jsonl
    python benchmarks/planning.py regret --profile pagat --games 80 --players normal,expert,plan:128

    python benchmarks/planning.py draws --profile shichinarabe --set deck.jokers=1 --games 20

``draws`` times the planner's deals at positions of rule-based games: the 64 weighed deals
drawn in the kernel (``search.kernel_deals``) against the same drawn by the Python belief
and its replays (``inference.worlds``, the reference), CPU time, medians and their ratio.
``duel`` plays each deal twice with the two players in alternate seats (``learn.duel``),
on two processes, one JSON line a deal (a run stopped and started again goes on where it
was), and prints the first's edge per deal with its 95% interval. ``regret`` is decision
regret as ``benchmarks/information.py regret`` measures it: the real deal's values under
rule-based playouts, which credit one move and not a plan, so it is the duel that answers.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from information import player, positions, regret

from paiqi_core import Game
from paiqi_core.actions import COVER, PASS
from paiqi_core.agents import HeuristicAgent, make_agent
from paiqi_core.engine import Observation
from paiqi_core.learn.duel import edge_of
from paiqi_core.profile import load_profile
from paiqi_core.search.inference import compiled_player, worlds
from paiqi_core.search.kernel_deals import drawable, weighed_starts
from paiqi_core.search.objective import check_objective, playout_values, utilities
from paiqi_core.search.planner import DEALS, EXPLORATION, PRIOR, UCB, overrule
from paiqi_core.search.planner import Planner as TreePlanner


class Planner:
    """``plan:N`` (see the module); ``plain``: ``ucb:N``, UCB1 without the prior, the root
    move visited most."""

    def __init__(
        self,
        rng: random.Random,
        game: Game,
        iterations: int,
        plain: bool = False,
        compiled: bool = True,
        deals: int = 64,
        weigh: bool = True,
    ) -> None:
        self.plain = plain
        self.rng = rng
        self.game = game
        self.iterations = iterations
        self.expert: Any = make_agent("expert", rng, game)
        self.others = HeuristicAgent(rng, game=game)
        self.objective = check_objective(str(game.rules.facts.objective))
        self.planner: TreePlanner | None = None
        if compiled and compiled_player(game):
            self.planner = TreePlanner(
                rng,
                game,
                self.objective,
                self.expert.belief_of,
                self.expert.slack,
                iterations=iterations,
                deals=deals,
                plain=plain,
                weigh=weigh,
            )

    def act(self, observation: Observation) -> int:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        if self.planner is not None:
            return self.planner.act(observation, self.others.act(observation))
        rng, me = self.rng, observation.seat
        belief = self.expert.belief_of(observation)
        draws = worlds(belief, rng, self.expert.slack, 32)
        stats: dict[tuple[tuple[int, int], ...], dict[int, list[float]]] = {}
        favourites: dict[tuple[tuple[int, int], ...], int] = {}
        values: dict[int, list[float]] = {a: [] for a in legal}  # the root's, by move
        low, high = math.inf, -math.inf
        for _ in range(self.iterations):
            state = next(draws)[1].clone()
            history: tuple[tuple[int, int], ...] = ()
            path: list[tuple[tuple[tuple[int, int], ...], int]] = []
            value = 0.0
            while True:
                if state.over:
                    value = utilities(state.result(), self.objective)[me]
                    break
                seat = state.turn
                moves = state.legal_actions()
                if seat != me or len(moves) == 1:
                    if len(moves) == 1:
                        action = moves[0]
                    else:
                        action = self.others.act(state.observation(seat))
                    seen = PASS if COVER <= action < PASS and seat != me else action
                    history += ((seat, seen),)
                    state.apply_unchecked(action)
                    continue
                node = stats.setdefault(history, {})
                if history not in favourites:
                    favourites[history] = self.others.act(state.observation(me))
                untried = [a for a in moves if a not in node]
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    luck = rng.getrandbits(64)
                    rows = playout_values(state, [action], [luck], "heuristic", self.objective)
                    value = rows[0][0][me]
                    path.append((history, action))
                    break
                if self.plain:
                    action = _ucb(node, moves, low, high)
                else:
                    action = _puct(node, moves, favourites[history], low, high)
                path.append((history, action))
                history += ((seat, action),)
                state.apply_unchecked(action)
            low, high = min(low, value), max(high, value)
            for where, action in path:
                got = stats[where].setdefault(action, [0, 0.0])
                got[0] += 1
                got[1] += value
            if path and path[0][0] == ():
                values[path[0][1]].append(value)
        prior = favourites.get(())
        if prior is None:
            return int(self.others.act(observation))
        if self.plain:
            most = max(len(row) for row in values.values())
            return next(a for a in legal if len(values[a]) == most)
        rows = {a: (len(r), sum(r), sum(v * v for v in r)) for a, r in values.items() if r}
        return overrule(rows, prior)


def _puct(
    node: dict[int, list[float]], moves: list[int], favourite: int, low: float, high: float
) -> int:
    """The move of most value plus prior-weighted exploration (rewards scaled to 0..1 by the
    least and most met so far)."""
    span = (high - low) or 1.0
    root_n = math.sqrt(sum(node[a][0] for a in moves))
    rest = (1 - PRIOR) / max(len(moves) - 1, 1)

    def score(a: int) -> float:
        visits, reward = node[a][0], node[a][1]
        p = PRIOR if a == favourite else rest
        return (reward / visits - low) / span + EXPLORATION * p * root_n / (1 + visits)

    return max(moves, key=score)


def _ucb(node: dict[int, list[float]], moves: list[int], low: float, high: float) -> int:
    """UCB1 (rewards scaled to 0..1 by the least and most met so far)."""
    span = (high - low) or 1.0
    total = math.log(sum(node[a][0] for a in moves))

    def score(a: int) -> float:
        visits, reward = node[a][0], node[a][1]
        return (reward / visits - low) / span + UCB * math.sqrt(total / visits)

    return max(moves, key=score)


def make(name: str, rng: random.Random, game: Game) -> object:
    """``plan:N`` or ``ucb:N``, else as ``benchmarks/information.py`` makes players."""
    kind, _, rest = name.partition(":")
    count, _, deals = rest.partition(":")
    if kind in ("plan", "ucb", "pyplan", "uplan"):
        return Planner(
            rng,
            game,
            int(count or 256),
            plain=kind == "ucb",
            compiled=kind != "pyplan",
            deals=int(deals or DEALS),
            weigh=kind != "uplan",
        )
    return player(name, rng, game)


def deal_edge(profile: str, sets: list[str], first: str, second: str, seed: int) -> float:
    """The first player's edge on the deal of ``seed``: played twice, the two players in
    alternate seats and then changed round (as ``learn.duel.deal_edge``)."""
    game = Game(load_profile(profile, sets))
    objective = check_objective(str(game.rules.facts.objective))
    mine: list[float] = []
    theirs: list[float] = []
    for turn in range(2):
        names = [(first, second)[(seat + turn) % 2] for seat in range(game.players)]
        rng = random.Random(seed * 2 + turn)
        players: list[Any] = [make(name, rng, game) for name in names]
        state = game.new_state(seed=seed)
        while not state.over:
            seat = state.turn
            state.apply_unchecked(players[seat].act(state.observation(seat)))
        values = utilities(state.result(), objective)
        for seat, name in enumerate(names):
            (mine if name == first else theirs).append(values[seat])
    return sum(mine) / len(mine) - sum(theirs) / len(theirs)


def duel(args: argparse.Namespace) -> None:
    out = Path(args.out)
    done: dict[int, float] = {}
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done[row["seed"]] = row["edge"]
    seeds = [args.seed * 100_000 + i for i in range(args.deals)]
    todo = [s for s in seeds if s not in done]
    with ProcessPoolExecutor(args.workers) as pool, out.open("a") as f:
        jobs = {
            s: pool.submit(deal_edge, args.profile, args.set, args.first, args.second, s)
            for s in todo
        }
        for n, (s, job) in enumerate(jobs.items(), 1):
            done[s] = job.result()
            f.write(json.dumps({"seed": s, "edge": done[s]}) + "\n")
            f.flush()
            if n % 10 == 0:
                e = edge_of([done[x] for x in seeds if x in done])
                print(f"{len(done)} deals: {e.mean:+.4f} ± {e.half_width:.4f}", flush=True)
    e = edge_of([done[x] for x in seeds])
    print(f"{args.first} over {args.second}: {e.mean:+.4f} ± {e.half_width:.4f} a deal "
          f"({e.deals} deals)")  # fmt: skip


def draws(args: argparse.Namespace) -> None:
    """CPU time of the planner's weighed deals: the kernel's against the Python belief's."""
    from statistics import median
    from time import process_time

    import numpy as np

    from paiqi_core.fast.finish import encode

    game = Game(load_profile(args.profile, args.set))
    expert: Any = make_agent("expert", random.Random(0), game)
    rng = random.Random(args.seed)
    kernel: list[float] = []
    python: list[float] = []
    for state in positions(game, args.games, args.seed):
        observation = state.observation(state.turn)
        if not drawable(belief := expert.belief_of(observation)):
            continue
        t0 = process_time()
        weighed_starts(belief, rng, None, DEALS)
        t1 = process_time()
        pool = worlds(expert.belief_of(observation), rng, None, DEALS)
        np.stack([encode(next(pool)[1]) for _ in range(DEALS)])
        t2 = process_time()
        kernel.append(t1 - t0)
        python.append(t2 - t1)
    k, p = median(kernel), median(python)
    print(f"{len(kernel)} positions, {DEALS} weighed deals a position (median CPU time)")
    print(f"kernel: {1000 * k:.1f} ms, Python belief: {1000 * p:.1f} ms, ratio {p / k:.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("duel", "regret", "draws"))
    parser.add_argument("--profile", default="pagat")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", default="normal,expert,plan:128")
    parser.add_argument("--first", default="plan:128")
    parser.add_argument("--second", default="expert")
    parser.add_argument("--out", default="planning-duel.jsonl")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.what == "duel":
        duel(args)
        return 0
    if args.what == "draws":
        draws(args)
        return 0
    game = Game(load_profile(args.profile, args.set))
    states = positions(game, args.games, args.seed)
    regret(game, states, args.players.split(","), make)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
