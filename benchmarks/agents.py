"""Games per second of tables with rule-based agents, and where their time goes.

A table of four ``heuristic`` agents, and one heuristic seat against three ``random`` ones,
for each family. Every game is dealt from the same seeds, so two checkouts can be compared
on the same work: run this file from each and divide the medians.

    python benchmarks/agents.py --games 300 --rounds 5
    python benchmarks/agents.py --profile shichinarabe --set deck.jokers=1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from paiqi_core import Game
from paiqi_core.seeds import game_seed
from paiqi_core.simulate import play_game

TABLES = {
    "4 heuristic": ("heuristic",) * 4,
    "1 heuristic + 3 random": ("heuristic", "random", "random", "random"),
}


def rate(game: Game, agents: tuple[str, ...], games: int) -> float:
    """Games per second of ``games`` games of ``agents`` under ``game``."""
    t0 = time.perf_counter()
    for i in range(games):
        play_game(game, game_seed(0, i), agents)
    return games / (time.perf_counter() - t0)


def main() -> int:
    """Print the median games per second of each table and profile."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="append", help="profile (repeatable)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    profiles = args.profile or ["doujue", "platform", "shichinarabe", "pagat"]
    print(f"{'profile':14} {'table':24} {'games/s':>9}")
    for name in profiles:
        game = Game(name, args.set)
        for label, agents in TABLES.items():
            play_game(game, game_seed(0, 0), agents)  # warm the caches
            rates = [rate(game, agents, args.games) for _ in range(args.rounds)]
            print(f"{name:14} {label:24} {statistics.median(rates):9,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
