"""Actions per second through each adapter, against paiqi's own random play.

Every loop plays whole random games from the same deals (seeds 0..games-1), so the time per
action includes dealing and scoring. The loops:

- ``paiqi random``: paiqi's random play, ``State.play_random`` (what ``paiqi simulate``
  runs for random players: a loop compiled for the profile's rules);
- ``paiqi step``: the engine one action at a time, ``legal_actions()`` then
  ``apply_unchecked()``: the least work an adapter that steps the engine has to do;
- ``pettingzoo``: an AEC loop as a learner writes it, ``env.last()`` (the observation tensor
  and the action mask) and ``env.step()`` with a random legal action from the mask;
- ``pettingzoo (no obs)``: the same without building observations (``env.last(observe=
  False)`` and ``env.legal_indices()``);
- ``gymnasium``: one random learner (from its mask) against three ``random`` paiqi players,
  counting every seat's actions;
- ``openspiel``: the deal's chance nodes, then ``legal_actions()`` and ``apply_action()``.

The ratios are paiqi's time per action, in its random play and in its engine stepped one
action at a time, over the loop's (1/3: a third as fast). Rounds alternate between the
loops, and the median round is reported.

    python benchmarks/adapters.py --games 200 --rounds 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from paiqi_core.adapters import openspiel as os_adapter
from paiqi_core.adapters.gymnasium import paiqi_gym_env
from paiqi_core.adapters.pettingzoo import paiqi_env
from paiqi_core.engine import Game

Loop = Callable[[int], int]  # plays ``games`` games, returns the actions taken


def paiqi_random(game: Game) -> Loop:
    def run(games: int) -> int:
        actions = 0
        for seed in range(games):
            state = game.new_state(seed)
            assert state.rng is not None
            state.play_random(state.rng)
            state.result()
            actions += sum(state.actions)
        return actions

    return run


def paiqi_step(game: Game) -> Loop:
    def run(games: int) -> int:
        actions = 0
        for seed in range(games):
            state = game.new_state(seed)
            pick = random.Random(seed).randrange
            while not state.over:
                legal = state.legal_actions()
                state.apply_unchecked(legal[pick(len(legal))])
                actions += 1
            state.result()
        return actions

    return run


def pettingzoo(profile: str, observe: bool) -> Loop:
    env = paiqi_env(profile)

    def run(games: int) -> int:
        actions = 0
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
        return actions

    return run


def gymnasium(profile: str) -> Loop:
    env = paiqi_gym_env(profile, opponents="random")

    def run(games: int) -> int:
        actions = 0
        for seed in range(games):
            obs, _ = env.reset(seed=seed)
            pick = random.Random(seed).randrange
            done = False
            while not done:
                legal = np.flatnonzero(obs["action_mask"])
                obs, _, terminated, truncated, _ = env.step(int(legal[pick(len(legal))]))
                done = terminated or truncated
            assert env.state is not None
            actions += sum(env.state.actions)
        return actions

    return run


def openspiel(profile: str) -> Loop:
    game = pyspiel.load_game(os_adapter.short_name(profile))
    engine = game.paiqi

    def run(games: int) -> int:
        actions = 0
        for seed in range(games):
            state = game.new_initial_state()
            for card in os_adapter.chance_outcomes_of_seed(engine, seed):
                state.apply_action(card)
            pick = random.Random(seed).randrange
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[pick(len(legal))])
                actions += 1
            state.returns()
        return actions

    return run


def measure(profile: str, games: int, rounds: int) -> dict[str, float]:
    """Median microseconds per action of every loop for ``profile``."""
    game = Game(profile)
    loops = {
        "paiqi random": paiqi_random(game),
        "paiqi step": paiqi_step(game),
        "pettingzoo": pettingzoo(profile, True),
        "pettingzoo (no obs)": pettingzoo(profile, False),
        "gymnasium": gymnasium(profile),
        "openspiel": openspiel(profile),
    }
    for loop in loops.values():
        loop(2)  # warm the caches
    times: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(rounds):
        for name, loop in loops.items():
            start = time.perf_counter()
            actions = loop(games)
            times[name].append((time.perf_counter() - start) / actions * 1e6)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="append", help="profile (repeatable)")
    args = parser.parse_args()
    profiles = args.profile or ["doujue", "platform", "shichinarabe", "pagat"]
    print(
        "| profile | loop | µs per action | actions per second | to paiqi random | to paiqi step |"
    )
    print("|---|---|---|---|---|---|")
    for profile in profiles:
        result = measure(profile, args.games, args.rounds)
        base, step = result["paiqi random"], result["paiqi step"]
        for name, us in result.items():
            print(
                f"| {profile} | {name} | {us:.1f} | {1e6 / us:,.0f} | {base / us:.2f} "
                f"| {step / us:.2f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
