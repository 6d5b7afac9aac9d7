"""Start or resume a stored run: split it into batches, execute the ones not yet finished,
and store each as it completes. Every batch is played from the rules stored with the run,
and only one process plays a run at a time (a lock on the run)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO

from paiqi_core.profile import Profile
from paiqi_core.rules import rules_of
from paiqi_core.runs.batch import Batch, BatchSpec
from paiqi_core.runs.execute import execute, execute_dask
from paiqi_core.runs.store import RunSpec, Store


def batches(
    spec: RunSpec,
    skip: set[tuple[str, int]],
    *,
    records: bool = False,
    rules: Mapping[str, Profile] | None = None,
    engine: str = "python",
) -> Iterator[BatchSpec]:
    """The run's batches, profile by profile interleaved batch by batch, minus ``skip``;
    each carries its profile's ``rules`` when given, and the ``engine`` to play with."""
    starts = {n: range(0, spec.games_of(n), spec.batch_of(n)) for n in spec.rule_sets}
    for round_ in range(max(len(r) for r in starts.values())):
        for name in spec.rule_sets:
            start = starts[name][round_] if round_ < len(starts[name]) else None
            if start is not None and (name, start) not in skip:
                yield BatchSpec(
                    name,
                    spec.overrides,
                    spec.agents_of(name),
                    bool(spec.seatings_of(name)),
                    spec.seed,
                    start,
                    spec.batch_games(start, name),
                    records,
                    rules=rules[name] if rules is not None else None,
                    seatings=spec.seatings_of(name),
                    engine=engine,
                    replays=spec.replays_of(name),
                    generator=spec.generator,
                )


class InOrder:
    """Writes the records of batches that finish in any order, in the order of the
    batches: a batch's lines wait until every earlier batch's lines are written. The order
    is read as it is needed (a run's batches are never listed all at once)."""

    def __init__(self, out: IO[str], order: Iterable[tuple[str, int]]) -> None:
        self.out = out
        self.order = iter(order)
        self.next: tuple[str, int] | None = next(self.order, None)
        self.waiting: dict[tuple[str, int], list[str]] = {}

    def add(self, key: tuple[str, int], lines: list[str]) -> None:
        """Hold ``lines`` of batch ``key``; write every batch now due."""
        self.waiting[key] = lines
        while self.next is not None and self.next in self.waiting:
            for line in self.waiting.pop(self.next):
                self.out.write(line + "\n")
            self.next = next(self.order, None)


def stored_rules(store: Store, run_id: str) -> dict[str, Profile]:
    """The rules ``run_id`` is played with, loaded back from the store and compiled here
    (StoreError or ProfileError, with the reason, when they cannot be played)."""
    rules = store.rules(run_id)
    for profile in rules.values():
        rules_of(profile)  # a hook that fails to build is found here, not in a worker
    return rules


def run(
    store: Store,
    run_id: str,
    workers: int,
    progress: Callable[[int], None] | None = None,
    dask: str | None = None,
    records: IO[str] | None = None,
    engine: str = "python",
) -> None:
    """Execute every unfinished batch of ``run_id`` with the rules stored for it; finished
    batches are skipped, so this both starts and resumes a run. With ``records``, every
    game's record is written to it, in game order. ``engine`` (python, fast or auto) says
    who plays all-random games; it changes no row. StoreError if another process is
    playing the run, or its rules cannot be used."""
    spec = store.spec(run_id)
    if spec is None:
        raise KeyError(run_id)
    rules = stored_rules(store, run_id)
    with store.lock(run_id):
        finished = store.finished(run_id)
        done_games = [sum(spec.batch_games(start, name) for name, start in finished)]
        if progress:
            progress(done_games[0])
        # made as they are needed: memory stays flat however many batches a run has
        todo = batches(spec, finished, records=records is not None, rules=rules, engine=engine)
        writer = None
        if records is not None:
            keys = ((b.profile, b.start) for b in batches(spec, finished))
            writer = InOrder(records, keys)

        def done(batch: BatchSpec, result: Batch) -> None:
            store.add_batch(run_id, batch.profile, batch.start, result.block)
            if writer is not None:
                writer.add((batch.profile, batch.start), result.records)
            done_games[0] += batch.count
            if progress:
                progress(done_games[0])

        if dask:
            execute_dask(todo, dask, done, workers)
        else:
            execute(todo, workers, done)
