"""Speed of paiqi's compiled engine, as ratios measured in one run.

1. Against hand-written numba loops of the same rules (``handwritten.py``: doujue, platform,
   pagat), which deal and choose exactly as paiqi does: both give per game the totals,
   ranks and money, and are first checked to agree game by game. The hand-written loop
   drawing from a cheaper xorshift stream (not the same deals) is the yardstick of the
   goals: the kernel alone at least 0.8 of its speed, a whole worker batch (play, rows,
   block) at least 0.5. The kernel is timed twice: doing what the hand-written loops do
   (``play``: deal, play and score, no log kept or read), which the first goal reads, and
   as a run uses it (``engine``: also each game's log kept and its course read from it, the
   source of the course columns of a run's rows, which the batch goal covers).
2. Against the Python engine, as ``paiqi bench`` measures a worker's work (deal, play,
   scoring and the rows a run stores), for profiles the Python engine plays on its general
   path (pass limits, bursts, the joker): shichinarabe with and without the joker, and
   doujue-passes (goal: 20 times the Python engine's speed), and the four families.
3. With ``--main-job``: the README's ``paiqi compare`` (four families) with the Python
   engine on 10,000 deals, and with the compiled engine on 100,000 deals, whole commands.

Rounds alternate between the two sides, so machine load hits both alike; the best of the
rounds counts.

    python benchmarks/fast.py
    python benchmarks/fast.py --games 200000 --rounds 5 --main-job
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handwritten

from paiqi_core import Game
from paiqi_core.core import layout as L
from paiqi_core.core.rng import run_keys
from paiqi_core.fast.compiled import CompiledGame, compiled_game
from paiqi_core.fast.play import play_deals
from paiqi_core.runs.batch import BatchSpec, run_batch


def best_rate(run: Callable[[], object], games: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return games / best


def check(profile: str, keys: np.ndarray) -> None:
    """The hand-written loop and the kernel give the same totals, ranks and money."""
    count = len(keys)
    res = np.zeros((count, 4, 3), np.int64)
    den = np.zeros(count, np.int64)
    handwritten.play(handwritten.RULES[profile], keys, res, den, False)
    played = compiled_game(Game(profile).rules).play_keys(keys)
    same_total = profile == "pagat" or (res[:, :, 0] == played.res[:, :, L.X_TOTAL]).all()
    same_rank = (res[:, :, 1] == played.res[:, :, L.X_RANK]).all()
    kernel_money = played.res[:, :, L.X_MONEY] * den[:, None]
    same_money = (res[:, :, 2] * played.game[:, L.G_DEN][:, None] == kernel_money).all()
    if not (same_total and same_rank and same_money):
        raise SystemExit(f"{profile}: the hand-written loop and the kernel disagree")


def play_only(compiled: CompiledGame, keys: np.ndarray) -> None:
    """Deal, play and score the games of ``keys`` as the hand-written loops do: no log kept,
    so no course read (every game is marked as having outgrown its log)."""
    count = len(keys)
    res, game = compiled._out(count)
    states = np.zeros((0, L.STATE), np.int64)
    logs = np.zeros((count, 0, 2), np.int32)
    no_leads = np.zeros(0, np.int64)  # every game begun by its opening's first mover
    play_deals(
        keys, compiled.R, compiled.ext, compiled.beyond, 0, res, game, states, logs, 0, 0, no_leads
    )


def versus_handwritten(games: int, rounds: int) -> None:
    keys = run_keys(0, range(games))
    res = np.zeros((games, 4, 3), np.int64)
    den = np.zeros(games, np.int64)
    print("compiled engine against a hand-written numba loop (same deals, same choices), and")
    print("against the hand-written loop dealing from a cheaper xorshift stream (other deals);")
    print("'batch' is a whole worker batch: play, the rows a run stores, their block")
    head = ("hand/s", "engine/s", "ratio", "cheap/s", "engine", "play", "batch/s", "batch")
    print(f"{'profile':9} {head[0]:>9} {head[1]:>9} {head[2]:>6} {head[3]:>9} "
          f"{head[4]:>7} {head[5]:>6} {head[6]:>9} {head[7]:>6}")  # fmt: skip
    for profile, rules in handwritten.RULES.items():
        check(profile, keys[:2000])
        compiled = compiled_game(Game(profile).rules)
        hand = partial(handwritten.play, rules, keys, res, den, False)
        cheap = partial(handwritten.play, rules, keys, res, den, True)
        engine = partial(compiled.play_keys, keys)
        play = partial(play_only, compiled, keys)
        spec = BatchSpec(profile, (), (), False, 0, 0, games, engine="fast")
        run_batch(replace(spec, count=5))
        batch = partial(run_batch, spec)
        h, e, c, p, b = [], [], [], [], []
        for _ in range(rounds):
            h.append(best_rate(hand, games, 1))
            e.append(best_rate(engine, games, 1))
            c.append(best_rate(cheap, games, 1))
            p.append(best_rate(play, games, 1))
            b.append(best_rate(batch, games, 1))
        hb, eb, cb, pb, bb = max(h), max(e), max(c), max(p), max(b)
        print(f"{profile:9} {hb:9,.0f} {eb:9,.0f} {eb / hb:6.2f} {cb:9,.0f} {eb / cb:7.2f} "
              f"{pb / cb:6.2f} {bb:9,.0f} {bb / cb:6.2f}")  # fmt: skip


def versus_python(games: int, rounds: int) -> None:
    cases = [
        ("shichinarabe", ()),
        ("shichinarabe", ("deck.jokers=1",)),
        ("doujue-passes", ()),
        ("doujue", ()),
        ("platform", ()),
        ("pagat", ()),
    ]
    print("\ncompiled engine against the Python engine (deal, play, scoring, rows)")
    print(f"{'profile':30} {'python/s':>10} {'engine/s':>10} {'ratio':>7}")
    for profile, sets in cases:
        rules = Game(profile, sets).rules.profile
        python_games = max(200, games // 100)
        python = BatchSpec(profile, sets, (), False, 0, 0, python_games, rules=rules)
        compiled = BatchSpec(profile, sets, (), False, 0, 0, games, rules=rules, engine="fast")
        run_batch(replace(python, count=5))
        run_batch(replace(compiled, count=5))  # compiled or loaded from the cache
        p, f = [], []
        for _ in range(rounds):
            p.append(best_rate(partial(run_batch, python), python_games, 1))
            f.append(best_rate(partial(run_batch, compiled), games, 1))
        name = profile + (f" ({', '.join(sets)})" if sets else "")
        print(f"{name:30} {max(p):10,.0f} {max(f):10,.0f} {max(f) / max(p):6.1f}x")


def main_job() -> None:
    print("\nthe README's main job: paiqi compare, four families, whole commands")
    times = {}
    for engine, deals in (("python", 10_000), ("fast", 100_000)):
        with tempfile.TemporaryDirectory() as folder:
            db = str(Path(folder) / "runs.db")
            command = [sys.executable, "-m", "paiqi_core.cli", "compare", "--games", str(deals)]
            t0 = time.perf_counter()
            subprocess.run([*command, "--engine", engine, "--db", db, "-q"], check=True,
                           capture_output=True)  # fmt: skip
            times[engine] = (deals, time.perf_counter() - t0)
            print(f"  --engine {engine:6} {deals:7,} deals: {times[engine][1]:6.1f} s")
    (pd, pt), (fd, ft) = times["python"], times["fast"]
    print(f"  deals per second: {fd / ft / (pd / pt):.1f} times as many with the compiled engine")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="kernel games per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--main-job", action="store_true", help="also time paiqi compare")
    args = parser.parse_args()
    versus_handwritten(args.games, args.rounds)
    versus_python(args.games // 2, args.rounds)
    if args.main_job:
        main_job()
    return 0


if __name__ == "__main__":
    sys.exit(main())
