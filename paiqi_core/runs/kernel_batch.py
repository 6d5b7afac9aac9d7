"""Batches of a run, and the games of sessions and matches, played by the kernel.

A batch gives the rows (and records) that ``runs.batch.run_batch`` gives for the same spec
played by the Python engine: the same games, move for move. A game whose log outgrows the
kernel's room (``compiled.LOG_ROOM`` entries: only long runs of passes do) is played again
by the Python engine, which plays the same game, for its course and its record.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from paiqi_core.core import layout as L
from paiqi_core.fast.compiled import compiled_game
from paiqi_core.runs.block import Coded
from paiqi_core.runs.kernel_rows import game_columns, log_of, outcomes, record
from paiqi_core.seeds import game_seed
from paiqi_core.streams import GENERATOR

if TYPE_CHECKING:
    from paiqi_core.engine import Game
    from paiqi_core.outcome import Result
    from paiqi_core.runs.batch import Batch, BatchSpec


def play_batch(spec: BatchSpec, game: Game) -> Batch:
    """The rows (and records, if asked) of a batch of all-random games; a game whose log
    outgrew the kernel's room has the rows (and record) of the Python engine's game."""
    from paiqi_core.records import state_record
    from paiqi_core.runs.batch import COLUMNS, Batch, seatings
    from paiqi_core.runs.batch import game_rows as python_rows
    from paiqi_core.runs.block import encode
    from paiqi_core.simulate import play_game

    compiled = compiled_game(game.rules)
    n = game.players
    indices = list(spec.games)
    deals, agents = seatings(spec, n, indices)
    played = compiled.play_run(
        spec.seed, deals, keep=spec.records, log=spec.records, generator=spec.generator
    )
    columns = game_columns(compiled, played, indices, deals, agents)
    replayed = {}
    for g in np.flatnonzero(played.game[:, L.G_LOG_FULL]).tolist():
        seed = game_seed(spec.seed, deals[g])
        state = replayed[g] = play_game(game, seed, agents[g], generator=spec.generator)
        rows = python_rows(spec.profile, indices[g], deals[g], agents[g], state)
        for name, values in zip(COLUMNS[1:], list(zip(*rows, strict=True))[1:], strict=True):
            _patch(columns, name, g * n, values)
    records: list[str] = []
    if spec.records:
        assert played.states is not None and played.logs is not None
        for g, deal in enumerate(deals):
            if g in replayed:
                data = state_record(replayed[g])
            else:
                seed = game_seed(spec.seed, deal)
                data = _record(
                    game, played.states[g], played.logs[g], seed, agents[g], spec.generator
                )
            records.append(json.dumps(data, ensure_ascii=False))
    return Batch(encode(spec.profile, columns, len(indices) * n), records)


def _patch(columns: dict[str, Any], name: str, at: int, values: Sequence[Any]) -> None:
    """Put ``values`` in column ``name`` from row ``at`` on (a game's seats)."""
    column = columns[name]
    if column is None:  # NULL in every row: the Python engine's rows have None there too
        return
    if isinstance(column, Coded):
        for i, word in enumerate(values):
            column.codes[at + i] = len(column.words)
            column.words.append(word)
    else:
        if column.dtype.kind == "i" and values:  # narrowed to the batch's own games: widen
            info = np.iinfo(column.dtype)  # where a replayed game's values lie beyond it
            if not info.min <= min(values) <= max(values) <= info.max:
                column = columns[name] = column.astype(np.int64)
        column[at : at + len(values)] = values


def _record(
    game: Game, st: Any, log: Any, seed: int, agents: Sequence[str], generator: str = GENERATOR
) -> dict[str, Any]:
    compiled = compiled_game(game.rules)
    entries = log_of(st, log)
    if entries is not None:
        return record(compiled, st, entries, seed, generator)
    from paiqi_core.records import state_record
    from paiqi_core.simulate import play_game

    lead = int(st[L.LEAD]) - 1 if st[L.LEAD] else None
    return state_record(play_game(game, seed, agents, generator=generator, lead=lead))


def results(
    game: Game,
    run_seed: int,
    indices: Sequence[int],
    *,
    records: bool = False,
    leads: Sequence[int | None] | None = None,
) -> Iterator[tuple[Result, dict[str, Any] | None]]:
    """The scored result (exact, by the profile's own scoring) of game ``i`` of a run for
    each ``i`` of ``indices``, all seats random, with its record if asked; ``leads`` by
    game: the seat that moves first in place of the opening's first mover (None: none)."""
    compiled = compiled_game(game.rules)
    played = compiled.play_run(run_seed, indices, keep=True, log=records, leads=leads)
    assert played.states is not None
    score = game.rules.scoring.score
    for g, index in enumerate(indices):
        st = played.states[g]
        result = score(outcomes(st, game.players, game.rules.topology.centre))
        data = None
        if records:
            assert played.logs is not None
            seed = game_seed(run_seed, index)
            data = _record(game, st, played.logs[g], seed, ("random",) * game.players)
        yield result, data
