"""Run batches on local processes (or in this process) and hand each result back as it
finishes. At most a few batches per worker are in flight, so memory stays flat however
many games a run has."""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from paiqi_core.runs.batch import Batch, BatchSpec, packed_batch, run_batch

Done = Callable[[BatchSpec, Batch], None]


class ExecutorError(RuntimeError):
    """The executor cannot be used (Dask missing, scheduler unreachable)."""


def default_workers() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def execute(specs: Iterable[BatchSpec], workers: int, done: Done) -> None:
    """Run every batch; ``done`` is called in this process as each one finishes. On an
    interruption, batches not yet finished are cancelled and the interruption re-raised."""
    if workers <= 1:
        for spec in specs:
            done(spec, run_batch(spec))
        return
    pending: dict[Future[Batch], BatchSpec] = {}
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


def execute_dask(specs: Iterable[BatchSpec], address: str, done: Done,
                 workers: int = 0) -> None:  # fmt: skip
    """Run every batch on a Dask cluster: ``local`` starts one on this machine's cores,
    otherwise ``address`` is an existing scheduler (``tcp://HOST:PORT``). Dask recomputes
    the batches of a worker that dies; results are the same, being pure functions."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ExecutorError("--dask needs Dask: pip install 'paiqi[dask]'") from None
    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(
                n_workers=workers or default_workers(),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
            client = Client(cluster)
        else:
            client = Client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as e:
        raise ExecutorError(f"--dask {address}: cannot reach a Dask scheduler ({e})") from None
    try:
        todo = iter(specs)
        window = 4 * max(len(client.scheduler_info().get("workers", {})), 1)
        pending = {}
        for spec in todo:
            pending[client.submit(packed_batch, spec, pure=False)] = spec
            if len(pending) >= window:
                break
        stream = as_completed(list(pending))
        for future in stream:
            spec = pending.pop(future)
            done(spec, pickle.loads(future.result()))
            nxt = next(todo, None)
            if nxt is not None:
                new = client.submit(packed_batch, nxt, pure=False)
                pending[new] = nxt
                stream.add(new)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
