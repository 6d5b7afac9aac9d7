"""Wall time of ``paiqi simulate`` on 1 and N local processes and on a local Dask cluster.

Each configuration runs as its own command, alternating round by round so that machine
load hits all alike; the table gives the median wall time over the rounds and the speed-up
against one process. The one-game runs measure the fixed cost of each executor (start-up,
imports, the final report), the long runs the throughput.

    python benchmarks/scaling.py --games 20000 --rounds 5
    python benchmarks/scaling.py --games 20000 --rounds 3 --dask   # also a local Dask cluster
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def wall(args: list[str], folder: Path) -> float:
    db = folder / "runs.db"
    db.unlink(missing_ok=True)
    command = [sys.executable, "-m", "paiqi_core.cli", *args, "--db", str(db)]
    t0 = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="doujue")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dask", action="store_true", help="also time --dask local")
    args = parser.parse_args()
    configs = {
        "1 process": ["--workers", "1"],
        f"{args.workers} processes": ["--workers", str(args.workers)],
    }
    if args.dask:
        configs["Dask local"] = ["--dask", "local", "--workers", str(args.workers)]
    times: dict[tuple[str, int], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            for name, extra in configs.items():
                for games in (1, args.games):
                    run = ["simulate", args.profile, "--games", str(games), *extra]
                    times.setdefault((name, games), []).append(wall(run, Path(tmp)))
    base = statistics.median(times[("1 process", args.games)])
    print(f"{args.profile}, median of {args.rounds} rounds (wall seconds)")
    print(f"{'executor':14} {'1 game':>8} {args.games:>8,} {'speed-up':>9}")
    for name in configs:
        one = statistics.median(times[(name, 1)])
        many = statistics.median(times[(name, args.games)])
        print(f"{name:14} {one:8.2f} {many:8.2f} {base / many:8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
