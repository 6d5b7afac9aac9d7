"""Can one implementation of the rules serve both speeds? The compiled kernel's rule code
(``paiqi_core/fast/kernel.py``: legal options, the effect of a move, bursts, endings) run
as plain Python on a list, against the Python engine (``engine/state.py``), per move.

The kernel is written in the subset of Python that numba compiles; loaded with numba's
decorators as the identity and the bit operations in Python, the very same functions run
interpreted. If they are about as fast as the Python engine, one rule core can be run
compiled where numba is installed and interpreted elsewhere (plugins, ``--engine
python``), and the Python engine's second copy of the rules can go. Both sides play the
same random games (the same seeds and the same choices from ``random.Random``), and the
script first checks that every game ends in the same final state.

    python benchmarks/core_interpreted.py [--games 300] [--rounds 3]

The interpreted side runs in a process of its own, where ``numba`` cannot be imported:
``paiqi_core.fast.bits`` then leaves the kernel's functions as written and does the bit
operations in Python (numba need not be installed).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

_SHIM = r"""
import sys
sys.modules["numba"] = None  # paiqi_core.fast.bits then leaves the kernel's functions as written
from paiqi_core.fast.bits import COMPILED
assert not COMPILED
"""


def _encode(state):  # type: ignore[no-untyped-def]
    """The kernel's state vector of a Python State, as a list (``fast.finish.encode``)."""
    from paiqi_core.actions import JOKER
    from paiqi_core.fast import layout as L

    v = [0] * L.STATE
    n = state.game.players
    for s in range(n):
        v[L.HAND + s] = state.hands[s]
        v[L.PASSES + s] = state.passes[s]
        v[L.SIZE + s] = state.hand_sizes[s]
        v[L.LAST + s] = -1
        v[L.FINISH + s] = state.finished.index(s) if s in state.finished else -1
        v[L.BURSTED + s] = -1
        v[L.DEALT + s] = state.dealt[s]
        v[L.JOKERS + s] = sum(1 for seat, a in state.log if seat == s and a >= JOKER)
    for i, suit in enumerate(state.opened):
        v[L.OPENED + i] = suit
    v[L.NOPENED] = len(state.opened)
    v[L.TABLE] = state.table
    v[L.FRONTIER] = state.frontier
    v[L.JOKER_AT] = -1
    v[L.STARTED] = int(state.started)
    v[L.FIRST] = -1 if state.first_card is None else state.first_card
    v[L.TURN] = state.turn
    v[L.OVER] = int(state.over)
    v[L.NFINISHED] = len(state.finished)
    v[L.DOOR] = -1 if state.door_card is None else state.door_card
    return v


def play(side: str, profile: str, games: int) -> dict[str, object]:
    """Random games of ``profile`` on one side; per-move time and the final hands."""
    import random

    from paiqi_core import Game

    game = Game(profile)
    moves = 0
    finals = []
    if side == "engine":
        dealt = [game.new_state(seed=seed) for seed in range(games)]
        start = time.perf_counter()
        for seed, state in enumerate(dealt):
            rng = random.Random(seed)
            while not state.over:
                acts = state.legal_actions()
                state.apply_unchecked(acts[rng.randrange(len(acts))])
                moves += 1
            finals.append([state.table, *state.hands, *state.covered])
        seconds = time.perf_counter() - start
    else:
        import numpy as np

        from paiqi_core.fast import kernel as K
        from paiqi_core.fast import layout as L
        from paiqi_core.fast.plan import rules_vector
        from paiqi_core.fast.tables import beyond_table

        R = rules_vector(game.rules)
        ext = list(game.rules.topology.extensions)
        beyond = [int(x) for x in beyond_table(game.rules.topology)]
        jx, jy = [0] * 16, [0] * 16
        log = np.zeros((0, 2), np.int64)  # no room: only the count is kept
        states = [_encode(game.new_state(seed=seed)) for seed in range(games)]
        start = time.perf_counter()
        for seed, st in enumerate(states):
            rng = random.Random(seed)
            while not st[L.OVER]:
                can, _, covers, may_pass = K.options(st, R, beyond, jx, jy)
                acts = []
                while can:
                    low = can & -can
                    acts.append(low.bit_length() - 1)
                    can ^= low
                while covers:
                    low = covers & -covers
                    acts.append(L.COVER + low.bit_length() - 1)
                    covers ^= low
                if may_pass:
                    acts.append(L.PASS)
                K.apply(st, R, ext, beyond, log, acts[rng.randrange(len(acts))])
                moves += 1
        seconds = time.perf_counter() - start
        n = game.players
        finals = [
            [st[L.TABLE], *st[L.HAND : L.HAND + n], *st[L.COVERED : L.COVERED + n]] for st in states
        ]
    return {"seconds": seconds, "moves": moves, "finals": finals}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--side", choices=("engine", "kernel"), help=argparse.SUPPRESS)
    parser.add_argument("--profile", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        if args.side == "kernel":
            exec(_SHIM, {})
        print(json.dumps(play(args.side, args.profile, args.games)))
        return
    here = Path(__file__).resolve()
    print(f"{'profile':<14}{'engine us/move':>16}{'kernel as Python':>18}{'ratio':>8}")
    for profile in ("doujue", "platform", "shichinarabe", "pagat"):
        best: dict[str, float] = {}
        finals: dict[str, object] = {}
        for _ in range(args.rounds):  # alternate the sides: load hits both alike
            for side in ("engine", "kernel"):
                out = subprocess.run(
                    [sys.executable, str(here), "--side", side, "--profile", profile,
                     "--games", str(args.games)],
                    check=True, capture_output=True, text=True,
                )  # fmt: skip
                data = json.loads(out.stdout)
                per_move = data["seconds"] / data["moves"] * 1e6
                best[side] = min(best.get(side, per_move), per_move)
                finals[side] = data["finals"]
        if finals["engine"] != finals["kernel"]:
            raise SystemExit(f"{profile}: the two sides ended games differently")
        ratio = best["kernel"] / best["engine"]
        print(f"{profile:<14}{best['engine']:>16.2f}{best['kernel']:>18.2f}{ratio:>8.2f}")


if __name__ == "__main__":
    main()
