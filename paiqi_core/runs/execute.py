"""Run batches on local processes (or in this process) and hand each result back as it
finishes. At most a few batches per worker are in flight, so memory stays flat however
many games a run has."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from paiqi_core.runs.batch import BatchSpec, Row, run_batch

Done = Callable[[BatchSpec, list[Row]], None]


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def execute(specs: Iterable[BatchSpec], workers: int, done: Done) -> None:
    """Run every batch; ``done`` is called in this process as each one finishes. On an
    interruption, batches not yet finished are cancelled and the interruption re-raised."""
    if workers <= 1:
        for spec in specs:
            done(spec, run_batch(spec))
        return
    pending: dict[Future[list[Row]], BatchSpec] = {}
    todo = iter(specs)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        try:
            while True:
                while len(pending) < 2 * workers:
                    nxt = next(todo, None)
                    if nxt is None:
                        break
                    pending[pool.submit(run_batch, nxt)] = nxt
                if not pending:
                    return
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    done(pending.pop(future), future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
