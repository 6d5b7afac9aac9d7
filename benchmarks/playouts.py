"""Playouts per second for search players: Python ``finish`` against ``fast_finish``.

A search player values an action by playing the game on to its end many times from states
in the middle of a game. This plays the same playouts both ways, from states a few moves
into games of each profile: one ``search.objective.finish`` per clone (what the players do
today), and ``paiqi_core.fast.finish.fast_finish`` on batches of 1, 16 and 128 states (one
call per playout, as a tree search makes them, or many at once, as PIMC can: every action of
every sampled deal). The policies are ``random``, ``eager`` and ``heuristic`` (every seat
the rule-based player, compiled in ``fast.heuristic``). The utilities are checked to be the
same.

Then the decisions per second of a PIMC player (``hard``: 32 deals x 2 playouts of every
legal action) as it is today, and the same decisions with its playouts made by
``fast_finish_after``, one call per sampled deal (``pimc_values`` below: the player's own
loop, drawing the same numbers, so the values, and so the decisions, are the same).

    python benchmarks/playouts.py --states 2000 --decisions 40
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from paiqi_core import Game
from paiqi_core.agents import RandomAgent
from paiqi_core.belief import Belief
from paiqi_core.engine import Observation
from paiqi_core.fast.finish import fast_finish, fast_finish_after, finisher
from paiqi_core.search.budget import Budget
from paiqi_core.search.objective import finish, utilities
from paiqi_core.search.pimc import PIMCAgent
from paiqi_core.streams import Stream

HARD = Budget(iterations=32, per_iteration=2)


def pimc_values(agent: PIMCAgent, observation: Observation) -> list[float]:
    """``PIMCAgent.values`` with every sampled deal's playouts (each legal action, each
    playout) made by one ``fast_finish_after`` call; the same draws in the same order."""
    legal = observation.legal
    seat = observation.seat
    belief = Belief(agent.game, observation)
    totals = [0.0] * len(legal)
    counts = [0] * len(legal)
    clock = agent.budget.clock()
    rng = agent.rng
    while clock.more():
        world = belief.sample(rng)
        lucks = [rng.getrandbits(64) for _ in range(agent.budget.per_iteration)]
        values = fast_finish_after(world, legal, lucks, agent.rollout, agent.objective)
        for row in values[:, :, seat].tolist():
            for i, value in enumerate(row):
                totals[i] += value
                counts[i] += 1
        clock.tick()
    return [t / c for t, c in zip(totals, counts, strict=True)]


def decisions(profile: str, count: int) -> None:
    """A PIMC player's decisions per second, with Python playouts and with the kernel's."""
    game = Game(profile)
    observations = []
    for seed in range(count * 3):
        state = game.new_state(seed)
        agent = RandomAgent(random.Random(seed))
        for _ in range(random.Random(seed).randrange(0, 30)):
            state.apply_unchecked(agent.act(state.observation(state.turn)))
        if not state.over and len(state.legal_actions()) > 1:
            observations.append(state.observation(state.turn))
        if len(observations) == count:
            break
    rates = []
    results = []
    for values in (PIMCAgent.values, pimc_values):
        t0 = time.perf_counter()
        got = []
        for i, observation in enumerate(observations):
            agent = PIMCAgent(random.Random(i), game=game, budget=HARD)
            got.append(values(agent, observation))
        rates.append(len(observations) / (time.perf_counter() - t0))
        results.append(got)
    if results[0] != results[1]:
        raise SystemExit(f"{profile}: the values differ")
    print(f"{profile:14} {rates[0]:9.1f} {rates[1]:9.1f} {rates[1] / rates[0]:6.1f}x")


def states_of(profile: str, count: int) -> list:
    game = Game(profile)
    rng = random.Random(1)
    out = []
    for seed in range(count):
        state = game.new_state(seed)
        agent = RandomAgent(random.Random(seed))
        for _ in range(rng.randrange(4, 16)):
            state.apply_unchecked(agent.act(state.observation(state.turn)))
        out.append(state)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--decisions", type=int, default=30)
    args = parser.parse_args()
    print(f"{'profile':14} {'policy':7} {'python/s':>9} " + " ".join(
        f"{'batch ' + str(b) + '/s':>13}" for b in (1, 16, 128)))  # fmt: skip
    for profile in ("doujue", "platform", "shichinarabe", "pagat"):
        states = states_of(profile, args.states)
        seeds = [random.Random(i).getrandbits(64) for i in range(len(states))]
        objective = states[0].game.rules.facts.objective
        for policy in ("random", "eager", "heuristic"):
            if finisher(states[0].game) is None:
                continue  # the rules do not compile: playouts stay in Python
            fast_finish(states[:2], policy, seeds[:2])  # compiled, or loaded from the cache
            t0 = time.perf_counter()
            python = []
            for state, seed in zip(states, seeds, strict=True):
                copy = state.clone()
                finish(copy, Stream(seed), policy)
                python.append(utilities(copy.result(), objective))
            python_rate = len(states) / (time.perf_counter() - t0)
            rates = []
            for batch in (1, 16, 128):
                t0 = time.perf_counter()
                got = []
                for i in range(0, len(states), batch):
                    got.extend(fast_finish(states[i : i + batch], policy, seeds[i : i + batch]))
                rates.append(len(states) / (time.perf_counter() - t0))
                if [row.tolist() for row in got] != python:
                    raise SystemExit(f"{profile} {policy}: utilities differ")
            print(f"{profile:14} {policy:7} {python_rate:9,.0f} "
                  + " ".join(f"{r:13,.0f}" for r in rates))  # fmt: skip
    print("\nPIMC (hard: 32 deals x 2 playouts) decisions per second")
    print(f"{'profile':14} {'python':>9} {'kernel':>9} {'ratio':>6}")
    for profile in ("doujue", "platform", "shichinarabe", "pagat"):
        decisions(profile, args.decisions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
