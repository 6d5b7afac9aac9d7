"""How long a search player takes per decision, on one core, on each family's default table.

The player sits in seat 0 against three ``normal`` (rule-based) players; only decisions with
two legal actions or more are timed (a single legal action is played at once). Prints the
median, the 90th and the 99th percentile per profile, and over all of them. Times are the
process's CPU time (``time.process_time``): what a decision takes on a core of its own, and
steady on a machine that other work keeps busy (``--wall`` for wall-clock time).

    python benchmarks/decisions.py                      # the hard level, 20 games each
    python benchmarks/decisions.py --agent pimc:32x2 --games 40
"""

from __future__ import annotations

import argparse
import statistics
import time

from paiqi_core import Game
from paiqi_core.agents import make_agent
from paiqi_core.seeds import game_seed

TABLES = {
    "doujue": (),
    "platform": (),
    "shichinarabe + joker": ("deck.jokers=1",),
    "pagat": (),
}


def decision_times(game: Game, agent: str, games: int, wall: bool = False) -> list[float]:
    """Seconds of each timed decision of ``agent`` in seat 0 over ``games`` games."""
    clock = time.perf_counter if wall else time.process_time
    times = []
    for deal in range(games):
        state = game.new_state(game_seed(0, deal))
        assert state.rng is not None
        players = [make_agent(agent, state.rng, game)]
        players += [make_agent("normal", state.rng, game) for _ in range(game.players - 1)]
        while not state.over:
            seat = state.turn
            obs = state.observation(seat)
            t0 = clock()
            action = players[seat].act(obs)
            if seat == 0 and len(obs.legal) > 1:
                times.append(clock() - t0)
            state.apply_unchecked(action)
    return times


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    """Print decision times per profile."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="hard")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--wall", action="store_true", help="wall-clock time, not CPU time")
    args = parser.parse_args()
    every: list[float] = []
    print(f"{args.agent}: decision time in ms (seat 0 against three normal players)")
    print(f"{'profile':22} {'decisions':>9} {'median':>7} {'p90':>7} {'p99':>7}")
    for name, overrides in TABLES.items():
        game = Game(name.split(" ")[0], list(overrides))
        decision_times(game, args.agent, 1)  # untimed: loads the compiled engine, fills caches
        times = decision_times(game, args.agent, args.games, args.wall)
        every += times
        print(
            f"{name:22} {len(times):9d} {1000 * statistics.median(times):7.1f} "
            f"{1000 * percentile(times, 0.9):7.1f} {1000 * percentile(times, 0.99):7.1f}"
        )
    print(
        f"{'all':22} {len(every):9d} {1000 * statistics.median(every):7.1f} "
        f"{1000 * percentile(every, 0.9):7.1f} {1000 * percentile(every, 0.99):7.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
