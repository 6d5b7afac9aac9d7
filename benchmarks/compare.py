"""Random-play speed of paiqi against the hand-written reference simulator.

Runs the two alternately (so machine load hits both alike) and prints the median games per
second of each and their ratio. "engine" is what ``paiqi simulate`` does per game (deal,
random play, full scoring with ranks and money, summary); "reference" deals, plays and
computes totals only.

    python benchmarks/compare.py --games 5000 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference

from paiqi_core import Game
from paiqi_core.simulate import simulate


def rate(run: Callable[[], object], games: int) -> float:
    t0 = time.perf_counter()
    run()
    return games / (time.perf_counter() - t0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    n = args.games
    cases = {
        "doujue": lambda: [reference.play_doujue(s) for s in range(n)],
        "pagat": lambda: [reference.play_pagat(s) for s in range(n)],
    }
    print(f"{'profile':8} {'reference/s':>12} {'engine/s':>10} {'ratio':>6}")
    for profile, ref in cases.items():
        game = Game(profile)
        refs, engs = [], []
        for _ in range(args.rounds):
            refs.append(rate(ref, n))
            engs.append(rate(lambda g=game: simulate(g, n, 0), n))
        r, e = statistics.median(refs), statistics.median(engs)
        print(f"{profile:8} {r:12,.0f} {e:10,.0f} {r / e:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
