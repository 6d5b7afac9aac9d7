"""paiqi's IS-MCTS player against OpenSpiel's IS-MCTS bot, at equal iteration budgets.

Both search the same information sets with the same number of iterations per decision and
random playouts; both draw their deals from paiqi's belief sampler (OpenSpiel's bot through
the adapter's ``resample_from_infostate``). Differences that remain are the algorithms':

- paiqi ``ismcts`` keeps one tree over the deciding seat's information, grows it from a pool
  of 24 sampled deals, scales utilities to 0..1 by the range met so far and explores with
  UCB1 (constant 0.7), counting each child's availability;
- OpenSpiel's ``ISMCTSBot`` keys its nodes by every seat's information-state string and
  explores with UCT on raw utilities; its constant is set to 0.7 times the mean spread
  (largest minus smallest seat utility) of random games of the profile, so that both
  explore alike relative to what a game is worth. It draws its deals into a pool of 24 too
  (``max_world_samples=24``), so both search over as many sampled deals.

Each deal is played twice, with paiqi at seats 0 and 2 and then at seats 1 and 3 (OpenSpiel
in the others), so both sides get the same cards. The figure per deal is paiqi's mean
utility minus OpenSpiel's, over the four seats of the two games; the report gives its mean
and a 95% confidence interval (Student's t over deals), in the profile's own units (money,
rank points, share of the win).

    python benchmarks/head_to_head.py --iterations 200 --deals 20 --out h2h.jsonl
    python benchmarks/head_to_head.py --report h2h.jsonl

Games are appended to ``--out`` as they finish (one JSON line each), and a rerun skips the
games already there, so a long run can be stopped and resumed.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from paiqi_core.adapters import openspiel as adapter
from paiqi_core.adapters.encoding import to_dense
from paiqi_core.search import ISMCTSAgent
from paiqi_core.search.objective import utilities
from paiqi_core.seeds import game_seed

FAMILIES = ("doujue", "platform", "shichinarabe", "pagat")
PAIQI_EXPLORATION = 0.7
WORLDS = 24  # deals sampled per decision: paiqi's pool (paiqi_core.search.ismcts.POOL)

# two-sided 95% Student t quantiles by degrees of freedom
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042,
        40: 2.021, 60: 2.000, 120: 1.980}  # fmt: skip


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    if df > 120:
        return 1.960
    known = max(k for k in _T95 if k <= df)
    return _T95[known]


def spread(profile: str, games: int = 300) -> float:
    """The mean spread (largest minus smallest seat utility) of random games."""
    game = adapter.paiqi_game(profile).paiqi
    total = 0.0
    for i in range(games):
        state = game.new_state(game_seed(7, i))
        state.play_random(random.Random(i))
        values = utilities(state.result(), game.rules.facts.objective)
        total += max(values) - min(values)
    return total / games


def play(
    profile: str, deal: int, paiqi_seats: tuple[int, ...], iterations: int, uct_c: float
) -> dict[str, Any]:
    """One game: paiqi's ismcts at ``paiqi_seats``, OpenSpiel's bot at the others."""
    game = adapter.paiqi_game(profile)
    engine = game.paiqi
    seed = game_seed(2026, deal)
    state = game.new_initial_state()
    for card in adapter.chance_outcomes_of_seed(engine, seed):
        state.apply_action(card)
    players: dict[int, Any] = {}
    for seat in range(game.num_players()):
        stream = seed * 16 + seat
        if seat in paiqi_seats:
            players[seat] = ISMCTSAgent(random.Random(stream), game=engine, budget=str(iterations))
        else:
            rs = np.random.RandomState(stream % (1 << 32))
            players[seat] = ismcts.ISMCTSBot(
                game,
                mcts.RandomRolloutEvaluator(1, rs),
                uct_c=uct_c,
                max_simulations=iterations,
                max_world_samples=WORLDS,
                random_state=rs,
            )
    spent = {"paiqi": 0.0, "openspiel": 0.0}
    decisions = {"paiqi": 0, "openspiel": 0}
    while not state.is_terminal():
        seat = state.current_player()
        side = "paiqi" if seat in paiqi_seats else "openspiel"
        start = time.perf_counter()
        if side == "paiqi":
            observation = state.paiqi_state.observation(seat)
            action = to_dense(players[seat].act(observation))
        else:
            action = int(players[seat].step(state))
        if len(state.legal_actions()) > 1:
            spent[side] += time.perf_counter() - start
            decisions[side] += 1
        state.apply_action(action)
    returns = state.returns()
    return {
        "profile": profile,
        "deal": deal,
        "paiqi_seats": list(paiqi_seats),
        "iterations": iterations,
        "uct_c": uct_c,
        "returns": returns,
        "seconds": spent,
        "decisions": decisions,
    }


def run(args: argparse.Namespace) -> None:
    out = Path(args.out)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            if row["iterations"] == args.iterations:
                done.add((row["profile"], row["deal"], tuple(row["paiqi_seats"])))
    for profile in args.families:
        uct_c = PAIQI_EXPLORATION * spread(profile)
        n = adapter.paiqi_game(profile).num_players()
        seatings = (tuple(range(0, n, 2)), tuple(range(1, n, 2)))
        for deal in range(args.deals):
            for seats in seatings:
                if (profile, deal, seats) in done:
                    continue
                row = play(profile, deal, seats, args.iterations, uct_c)
                with out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                print(f"{profile} deal {deal} paiqi at {seats}: {row['returns']}", flush=True)


def report(path: Path, iterations: int | None = None) -> str:
    """The results table (markdown) of the games in ``path``."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if iterations is not None:
        rows = [r for r in rows if r["iterations"] == iterations]
    lines = [
        "| profile | objective | deals | paiqi ismcts | OpenSpiel ISMCTSBot | difference "
        "(95% CI) | ms per decision (paiqi / OpenSpiel) |",
        "|---|---|---|---|---|---|---|",
    ]
    for profile in dict.fromkeys(r["profile"] for r in rows):
        games = [r for r in rows if r["profile"] == profile]
        by_deal: dict[int, list[dict[str, Any]]] = {}
        for r in games:
            by_deal.setdefault(r["deal"], []).append(r)
        diffs, ours, theirs = [], [], []
        for pair in by_deal.values():
            if len(pair) != 2:
                continue  # a deal not yet played in both seatings
            mine = [r["returns"][s] for r in pair for s in r["paiqi_seats"]]
            other = [
                r["returns"][s]
                for r in pair
                for s in range(len(r["returns"]))
                if s not in r["paiqi_seats"]
            ]
            ours.append(statistics.fmean(mine))
            theirs.append(statistics.fmean(other))
            diffs.append(ours[-1] - theirs[-1])
        if len(diffs) < 2:
            continue
        mean = statistics.fmean(diffs)
        half = t95(len(diffs) - 1) * statistics.stdev(diffs) / math.sqrt(len(diffs))
        ms = {
            side: 1000
            * sum(r["seconds"][side] for r in games)
            / max(1, sum(r["decisions"][side] for r in games))
            for side in ("paiqi", "openspiel")
        }
        objective = adapter.paiqi_game(profile).paiqi.rules.facts.objective
        lines.append(
            f"| {profile} | {objective} | {len(diffs)} | {statistics.fmean(ours):+.3f} | "
            f"{statistics.fmean(theirs):+.3f} | {mean:+.3f} ({mean - half:+.3f} to "
            f"{mean + half:+.3f}) | {ms['paiqi']:.0f} / {ms['openspiel']:.0f} |"
        )
    its = sorted({r["iterations"] for r in rows})
    return f"Iterations per decision: {', '.join(map(str, its))}\n\n" + "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--families", type=lambda s: s.split(","), default=list(FAMILIES))
    parser.add_argument("--out", default="head_to_head.jsonl")
    parser.add_argument("--report", metavar="FILE", help="print the table of a results file")
    args = parser.parse_args()
    if args.report:
        print(report(Path(args.report)))
        return 0
    run(args)
    print(report(Path(args.out), args.iterations))
    return 0


if __name__ == "__main__":
    assert pyspiel  # registered games need pyspiel imported
    sys.exit(main())
