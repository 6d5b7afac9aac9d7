"""Start or resume a stored run: split it into batches, execute the ones not yet finished,
and store each as it completes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO

from paiqi_core.runs.batch import Batch, BatchSpec
from paiqi_core.runs.execute import execute, execute_dask
from paiqi_core.runs.store import RunSpec, Store


def batches(
    spec: RunSpec, skip: set[tuple[str, int]], *, records: bool = False
) -> Iterator[BatchSpec]:
    """The run's batches, profile by profile interleaved batch by batch, minus ``skip``."""
    total = total_games(spec)
    for start in range(0, total, spec.batch):
        for profile in spec.profiles:
            if (profile, start) not in skip:
                yield BatchSpec(
                    profile,
                    spec.overrides,
                    spec.agents,
                    spec.rotate,
                    spec.seed,
                    start,
                    min(spec.batch, total - start),
                    records,
                )


class InOrder:
    """Writes the records of batches that finish in any order, in the order of the
    batches: a batch's lines wait until every earlier batch's lines are written."""

    def __init__(self, out: IO[str], order: list[tuple[str, int]]) -> None:
        self.out = out
        self.order = order
        self.next = 0
        self.waiting: dict[tuple[str, int], list[str]] = {}

    def add(self, key: tuple[str, int], lines: list[str]) -> None:
        """Hold ``lines`` of batch ``key``; write every batch now due."""
        self.waiting[key] = lines
        while self.next < len(self.order) and self.order[self.next] in self.waiting:
            for line in self.waiting.pop(self.order[self.next]):
                self.out.write(line + "\n")
            self.next += 1


def run(
    store: Store,
    run_id: str,
    workers: int,
    progress: Callable[[int], None] | None = None,
    dask: str | None = None,
    records: IO[str] | None = None,
) -> None:
    """Execute every unfinished batch of ``run_id``; finished batches are skipped, so this
    both starts and resumes a run. With ``records``, every game's record is written to it,
    in game order."""
    spec = store.spec(run_id)
    if spec is None:
        raise KeyError(run_id)
    finished = store.finished(run_id)
    done_games = [0]
    for profile, start in finished:
        del profile
        done_games[0] += min(spec.batch, total_games(spec) - start)
    if progress:
        progress(done_games[0])
    todo = list(batches(spec, finished, records=records is not None))
    writer = InOrder(records, [(b.profile, b.start) for b in todo]) if records else None

    def done(batch: BatchSpec, result: Batch) -> None:
        store.add_batch(run_id, batch.profile, batch.start, result.rows)
        if writer is not None:
            writer.add((batch.profile, batch.start), result.records)
        done_games[0] += batch.count
        if progress:
            progress(done_games[0])

    if dask:
        execute_dask(iter(todo), dask, done, workers)
    else:
        execute(iter(todo), workers, done)


def total_games(spec: RunSpec) -> int:
    """Games a run plays for each profile: deals, times the seats with rotation."""
    return spec.games * (spec.players if spec.rotate else 1)
