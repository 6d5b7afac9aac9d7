"""Two players, each alone at a table of other players, on the same deals.

The issue a learned belief raises is whether it misleads its player against people who do
not play like the players it learned from. This measures it: on each deal, the first player
(``expert``) takes every seat in turn among ``--others`` players (``random``, ``eager``,
``normal``), then the second player (``hard``) does the same on the same cards, the others
drawing from the same streams (``learn.duel.table_edge``). The edge per deal is the first's
mean objective less the second's; the report gives its mean with a 95% interval.

    python benchmarks/tables.py --profile pagat --others random --deals 200
    python benchmarks/tables.py --others eager --deals 100 --out eager.jsonl

Each deal's edge is appended to ``--out`` as it finishes (one JSON line), and a rerun skips
the deals already there, so a long run can be stopped and resumed.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from paiqi_core import Game
from paiqi_core.learn.duel import edge_of, table_edge
from paiqi_core.profile import load_profile

TABLES = {
    "doujue": (),
    "platform": (),
    "shichinarabe": ("deck.jokers=1",),
    "pagat": (),
}


def _edge(job: tuple[str, str, str, str, int]) -> tuple[str, int, float]:
    profile, first, second, others, seed = job
    game = Game(load_profile(profile, list(TABLES[profile])))
    return profile, seed, table_edge(game, first, second, seed, others)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=sorted(TABLES), help="one family (default: all)")
    parser.add_argument("--first", default="expert")
    parser.add_argument("--second", default="hard")
    parser.add_argument("--others", default="random")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="tables.jsonl", help="the deals' edges (JSON lines)")
    args = parser.parse_args()
    out = Path(args.out)
    key = (args.first, args.second, args.others)
    done: dict[tuple[str, int], float] = {}
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            if tuple(row["players"]) == key:
                done[(row["profile"], row["seed"])] = row["edge"]
    profiles = [args.profile] if args.profile else list(TABLES)
    seeds = range(args.seed * 100_000, args.seed * 100_000 + args.deals)
    jobs = [
        (p, *key, s) for p in profiles for s in seeds if (p, s) not in done
    ]  # fmt: skip
    with ProcessPoolExecutor(args.workers) as pool, out.open("a") as f:
        for profile, seed, edge in pool.map(_edge, jobs):
            done[(profile, seed)] = edge
            f.write(json.dumps({"players": key, "profile": profile, "seed": seed, "edge": edge}))
            f.write("\n")
            f.flush()
    for profile in profiles:
        edge = edge_of([done[(profile, s)] for s in seeds])
        print(
            f"{profile} {' '.join(TABLES[profile])}: {args.first} over {args.second} among "
            f"{args.others} players {edge.mean:+.3f} ± {edge.half_width:.3f} a deal "
            f"({edge.deals} deals)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
