"""A room's deals in the results file (``paiqi serve --db FILE``): a run of its own.

The first finished deal of a room starts a run (command ``room``) of the room's profile,
its options and its deal number; each finished deal is stored as that run's next game,
with the same columns as a simulation's games (``runs.batch.game_rows``), so that
``paiqi report`` and ``paiqi sql`` read an evening's play as they read any run. A seat's
player is its computer level, or ``person``. The run grows deal by deal
(``Store.grow``): it is complete after every deal.

A room's game is played by people, so it cannot be played again from the run's seed and
players as a simulated game can: the Replay view and ``paiqi report`` use its stored
figures, not a replay.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from paiqi_core.engine import State
from paiqi_core.runs.batch import game_rows
from paiqi_core.runs.block import encode_rows
from paiqi_core.runs.store import RunSpec, Store, StoreError

COMMAND = "room"


def store_deal(
    db: Path,
    run: str | None,
    agents: Sequence[str],
    options: Sequence[str],
    seed: int,
    deal: int,
    state: State,
) -> str:
    """Store the finished deal ``deal`` (from 0; dealt from ``seed``) of a room whose seats
    are played by ``agents``: the run's id (a new run for the room's first deal stored).
    StoreError when the file cannot be written."""
    game = state.game
    name = game.id
    try:
        with Store(db) as store:
            if run is None:
                spec = RunSpec(
                    COMMAND, (name,), tuple(options), tuple(agents), False, seed, 0, 1,
                    game.players,
                )  # fmt: skip
                run = store.new_run(spec, {name: game.rules.profile})
            store.grow(run, deal + 1)
            rows = game_rows(name, deal, state.seed if state.seed is not None else seed + deal,
                             agents, state)  # fmt: skip
            store.add_batch(run, name, deal, encode_rows(name, rows))
    except sqlite3.Error as e:
        raise StoreError(f"{db}: {e}") from None
    return run
