"""Start or resume a stored run: split it into batches, execute the ones not yet finished,
and store each as it completes."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from paiqi_core.runs.batch import BatchSpec
from paiqi_core.runs.execute import execute, execute_dask
from paiqi_core.runs.store import RunSpec, Store


def batches(spec: RunSpec, skip: set[tuple[str, int]]) -> Iterator[BatchSpec]:
    """The run's batches, profile by profile interleaved batch by batch, minus ``skip``."""
    total = spec.games * (spec.players if spec.rotate else 1)
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
                )


def run(
    store: Store,
    run_id: str,
    workers: int,
    progress: Callable[[int], None] | None = None,
    dask: str | None = None,
) -> None:
    """Execute every unfinished batch of ``run_id``; finished batches are skipped, so this
    both starts and resumes a run."""
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

    def done(batch: BatchSpec, rows: list[tuple[object, ...]]) -> None:
        store.add_batch(run_id, batch.profile, batch.start, rows)
        done_games[0] += batch.count
        if progress:
            progress(done_games[0])

    if dask:
        execute_dask(batches(spec, finished), dask, done, workers)
    else:
        execute(batches(spec, finished), workers, done)


def total_games(spec: RunSpec) -> int:
    return spec.games * (spec.players if spec.rotate else 1)
