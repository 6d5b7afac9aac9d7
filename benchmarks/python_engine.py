"""The Python API's speed, against another checkout of paiqi: what ``State`` costs per move
when the rules of play are the core's functions run as plain Python.

Five measures per profile, each on the same deals on both sides: a random game played
through the public API (``legal_actions`` and ``apply_unchecked``, what agents and the
adapters do), ``play_random`` from the deal (the search players' Python playouts), a
``clone`` and an ``observation`` (what search and belief sampling make most), and the
``result`` of a finished game (its scoring). The first two are per move, the others per
call. Each side
runs in a process of its own; the figures are medians of ``--rounds`` rounds, and the
ratio is this checkout's time over the other's (below 1: this checkout is faster).

    git worktree add /tmp/before <commit> --detach
    python benchmarks/python_engine.py --against /tmp/before [--games 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PROFILES = ("doujue", "platform", "shichinarabe", "pagat")

_SIDE = r"""
import json, sys, time
from paiqi_core import Game
from paiqi_core.streams import Stream
try:
    from paiqi_core.streams import below
except ImportError:  # versions before the rule core
    from paiqi_core.playout import below

profile, games, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = Game(profile)
deals = [game.new_state(seed=seed) for seed in range(games)]
out = {"api": [], "play_random": [], "clone": [], "observation": [], "result": [], "moves": 0}
for _ in range(rounds):
    states = [s.clone() for s in deals]
    moves = 0
    t = time.perf_counter()
    for i, state in enumerate(states):
        rng = Stream(i)
        while not state.over:
            acts = state.legal_actions()
            state.apply_unchecked(acts[below(rng, len(acts))])
            moves += 1
    out["api"].append((time.perf_counter() - t) / moves)
    out["moves"] = moves
    states = [s.clone() for s in deals]
    t = time.perf_counter()
    for i, state in enumerate(states):
        state.play_random(Stream(i))
    out["play_random"].append((time.perf_counter() - t) / moves)
    t = time.perf_counter()
    for state in states:
        state.result()
    out["result"].append((time.perf_counter() - t) / len(states))
    middle = []
    for i, state in enumerate(deals):
        s = state.clone()
        rng = Stream(i)
        for _ in range(12):
            if s.over:
                break
            acts = s.legal_actions()
            s.apply_unchecked(acts[below(rng, len(acts))])
        middle.append(s)
    t = time.perf_counter()
    for s in middle:
        s.clone()
    out["clone"].append((time.perf_counter() - t) / len(middle))
    t = time.perf_counter()
    for s in middle:
        s.observation(s.turn)
    out["observation"].append((time.perf_counter() - t) / len(middle))
print(json.dumps(out))
"""


def side(root: Path, profile: str, games: int, rounds: int) -> dict[str, list[float]]:
    env = dict(os.environ, PYTHONPATH=str(root))
    done = subprocess.run(
        [sys.executable, "-c", _SIDE, profile, str(games), str(rounds)],
        env=env, capture_output=True, text=True, check=True, cwd=root,
    )  # fmt: skip
    result: dict[str, list[float]] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, required=True, help="another checkout")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profiles", nargs="*", default=list(PROFILES))
    args = parser.parse_args()
    print(f"{'profile':14}{'measure':13}{'this µs':>10}{'other µs':>10}{'ratio':>8}")
    for profile in args.profiles:
        mine = side(HERE, profile, args.games, args.rounds)
        other = side(args.against.resolve(), profile, args.games, args.rounds)
        for measure in ("api", "play_random", "clone", "observation", "result"):
            a = statistics.median(mine[measure]) * 1e6
            b = statistics.median(other[measure]) * 1e6
            print(f"{profile:14}{measure:13}{a:10.2f}{b:10.2f}{a / b:8.2f}")


if __name__ == "__main__":
    main()
