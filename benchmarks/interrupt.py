"""Ctrl-C stress: interrupt ``paiqi compare`` many times, as a terminal does (SIGINT to the
whole process group), and check every time that it exits with status 130 within a time
bound, keeps every finished batch whole, and that ``--resume`` then ends with exactly the
rows of an uninterrupted run.

Each try starts the command in its own session, waits until the run holds its lock (the
games have started), sleeps a random time within the games' span, and signals the group;
tries are made until ``--tries`` of them signalled a command still running. The table
counts the outcomes: exit 130 with the resume hint (the case under test); the signal
arriving once the games were over (the report was printing, or the interpreter was ending:
the run is complete, and the status is 130, or 0 if the interpreter had run its last
instruction); hangs (no exit within ``--bound`` seconds: the group is then killed); any
other exit. It also counts runs whose stored batches and rows disagree, and resumes whose
rows differ from the uninterrupted run's.

    python benchmarks/interrupt.py --tries 300
    python benchmarks/interrupt.py --tries 50 --workers 4 --games 4000
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from paiqi_core.runs.store import Store

COMMAND = [sys.executable, "-m", "paiqi_core.cli", "compare", "doujue", "pagat", "-q"]


def rows_digest(db: Path) -> tuple[str, int, int]:
    """A digest of the run's rows (without the run id), its row count and batch count."""
    with Store.reader(db) as store:
        store.expand()
        rows = list(store.query("SELECT * FROM seats ORDER BY profile, game, seat"))
        ((batches,),) = store.query("SELECT COUNT(*) FROM batches")
    digest = hashlib.sha256(repr([r[1:] for r in rows]).encode()).hexdigest()
    return digest, len(rows), batches


def start(command: list[str], db: Path) -> tuple[subprocess.Popen[bytes], float]:
    """Start the command in its own session; return it once its run holds the lock, with
    the time the lock appeared."""
    proc = subprocess.Popen(
        [*command, "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    while not list(db.parent.glob(f"{db.name}.*.lock")) and proc.poll() is None:
        time.sleep(0.002)
    return proc, time.perf_counter()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=300)
    parser.add_argument("--games", type=int, default=6000, help="deals per profile")
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bound", type=float, default=10.0, help="seconds allowed to exit")
    parser.add_argument("--seed", type=int, default=0, help="of the random delays")
    args = parser.parse_args()
    if args.games % args.batch:
        parser.error("--games must be a multiple of --batch (full batches only)")
    rng = random.Random(args.seed)
    command = [*COMMAND, "--games", str(args.games), "--batch", str(args.batch),
               "--workers", str(args.workers)]  # fmt: skip
    outcomes: Counter[str] = Counter()
    exits: list[float] = []
    torn = differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        spans = []
        for k in range(3):
            whole = folder / f"whole{k}.db"
            proc, began = start(command, whole)
            proc.wait()
            spans.append(time.perf_counter() - began)
        span = statistics.median(spans)
        expected, rows, batches = rows_digest(whole)
        per_batch = rows // batches
        print(f"uninterrupted: {rows} rows in {batches} batches, games over {span:.2f} s")
        signalled = i = 0
        while signalled < args.tries and i < 3 * args.tries:
            i += 1
            db = folder / f"try{i}.db"
            proc, _ = start(command, db)
            time.sleep(rng.uniform(0, 0.9 * span))
            if proc.poll() is not None:
                outcomes["finished before the signal (not counted)"] += 1
                continue
            signalled += 1
            os.killpg(proc.pid, signal.SIGINT)
            sent = time.perf_counter()
            try:
                proc.wait(timeout=args.bound)
            except subprocess.TimeoutExpired:
                outcomes["hang (killed)"] += 1
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                continue
            exits.append(time.perf_counter() - sent)
            stderr = proc.stderr.read().decode() if proc.stderr else ""
            digest, rows, batches = rows_digest(db)
            if rows != batches * per_batch:  # a batch stored in part
                torn += 1
            hint = [line.split()[-1] for line in stderr.splitlines() if "--resume" in line]
            if proc.returncode == 130 and hint and "Traceback" not in stderr:
                outcomes["exit 130, resume hint"] += 1
            elif proc.returncode in (0, 130, -signal.SIGINT) and digest == expected:
                outcomes["signal after the games (run complete)"] += 1
                continue
            else:
                outcomes[f"exit {proc.returncode} (unexpected)"] += 1
                print(f"try {i}: exit {proc.returncode}\n{stderr}")
                continue
            done = subprocess.run(
                [*COMMAND[:4], "-q", "--db", str(db), "--resume", hint[0]],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            if done.returncode != 0 or rows_digest(db)[0] != expected:
                differ += 1
            db.unlink()
    print(f"commands signalled while running: {signalled}")
    for outcome, count in sorted(outcomes.items()):
        print(f"  {outcome}: {count}")
    if exits:
        exits.sort()
        print(
            f"time from SIGINT to exit: median {statistics.median(exits):.2f} s, "
            f"95th percentile {exits[int(0.95 * (len(exits) - 1))]:.2f} s, max {exits[-1]:.2f} s"
        )
    print(f"runs with a batch stored in part: {torn}")
    print(f"resumes failing or differing from the uninterrupted run: {differ}")
    bad = torn + differ + sum(n for o, n in outcomes.items() if "hang" in o or "unexpected" in o)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
