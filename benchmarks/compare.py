"""Random-play speed of paiqi against the hand-written reference simulator.

The two run alternately, so machine load hits both alike; the table gives the median games
per second of each over the rounds and their ratio (engine / reference; the goal is at
least 0.5). "engine" is what a worker of ``paiqi simulate`` does for a game: deal, random
play, outcomes, totals, ranks and money, and the game's rows for the run database (the
database itself is written by the parent process, beside the workers). The doujue
reference deals, plays and settles (totals, ranks, money); the pagat reference deals,
plays and names the winner.

    python benchmarks/compare.py --games 5000 --rounds 5
    python benchmarks/compare.py --check 5000   # reference and engine agree on settlement
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
from paiqi_core.cards import bits
from paiqi_core.outcome import PlayerOutcome
from paiqi_core.runs.batch import BatchSpec, run_batch


def rate(run: Callable[[], object], games: int) -> float:
    t0 = time.perf_counter()
    run()
    return games / (time.perf_counter() - t0)


def check(games: int) -> int:
    """Score each reference game's end facts with the engine's doujue scorer."""
    scorer = Game("doujue").rules.scoring.score
    disagreements = 0
    for seed in range(games):
        totals, covered, last7 = reference._play_doujue(seed)
        outcomes = []
        for p in range(4):
            cov = tuple(bits(covered[p]))
            points = sum(c % 13 + 1 for c in cov)
            clean = 10 if not cov else 0
            completions = 0 if len(cov) == 13 else (totals[p] + points - clean - 20 * last7[p]) // 5
            outcomes.append(
                PlayerOutcome(
                    covered=cov,
                    played=13 - len(cov),
                    last_play=6 if last7[p] else None,
                    completions=tuple(range(completions)),
                )
            )
        result = scorer(outcomes)
        money = reference.settle_doujue(totals, covered, last7)
        if list(result.total or ()) != totals or list(result.money) != money:
            disagreements += 1
            print(f"seed {seed}: reference {totals} {money}, engine {result}")
    print(f"{games} games, {disagreements} disagreements")
    return 1 if disagreements else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--check", type=int, metavar="GAMES", help="cross-check settlement")
    args = parser.parse_args()
    if args.check:
        return check(args.check)
    n = args.games
    cases = {
        "doujue": lambda: [reference.play_and_settle_doujue(s) for s in range(n)],
        "pagat": lambda: [reference.play_pagat(s) for s in range(n)],
    }
    print(f"{'profile':8} {'reference/s':>12} {'engine/s':>10} {'ratio':>6}")
    for profile, ref in cases.items():
        batch = BatchSpec(profile, (), (), False, seed=0, start=0, count=n)
        run_batch(BatchSpec(profile, (), (), False, seed=0, start=0, count=1))  # compile once
        refs, engs = [], []
        for _ in range(args.rounds):
            refs.append(rate(ref, n))
            engs.append(rate(lambda b=batch: run_batch(b), n))
        r, e = statistics.median(refs), statistics.median(engs)
        print(f"{profile:8} {r:12,.0f} {e:10,.0f} {e / r:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
