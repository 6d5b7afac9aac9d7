"""Run batches on local processes (or in this process, or on Dask) and hand each result
back as it finishes. At most two batches per worker are in flight, so memory stays flat
however many games a run has.

Local workers are plain processes, each with a pipe of its own each way: no queue, lock or
helper thread is shared, so a worker stopped at any moment cannot leave another process (or
this one, at exit) waiting for ever. Ctrl-C belongs to this process: workers ignore SIGINT
from the moment they start, and an interruption here terminates the workers at once (a
batch they were playing is not kept) and re-raises ``KeyboardInterrupt``. The ``done``
callback (which stores a finished batch) is never interrupted halfway: a Ctrl-C that
arrives meanwhile takes effect once it returns.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from itertools import chain, islice
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from paiqi_core.runs import install_hint
from paiqi_core.runs.batch import Batch, BatchSpec, packed_batch, play_batch

Done = Callable[[BatchSpec, Batch], None]
STOP_WAIT = 2.0  # seconds given to terminated workers before they are killed


class ExecutorError(RuntimeError):
    """The executor cannot be used (Dask missing, scheduler unreachable, a worker died)."""


def default_workers() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) that arrives inside the block, and raise it when the block
    ends: the block runs to its end. Outside the main thread, signals never arrive there
    and this does nothing."""
    if not _in_main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            if callable(previous):
                previous(signal.SIGINT, None)
            elif previous != signal.SIG_IGN:
                raise KeyboardInterrupt


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back (blocked) in this thread: processes started inside the block are
    born with it blocked, so a Ctrl-C cannot reach them before they ignore it; here it is
    delivered when the block ends."""
    if not (_in_main_thread() and hasattr(signal, "pthread_sigmask")):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _worker_start() -> None:
    """Workers ignore Ctrl-C: the parent handles it and stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class RemoteTraceback(Exception):
    """The traceback of an error raised in a worker process (attached as its cause)."""

    def __str__(self) -> str:
        return f"\n{self.args[0]}" if self.args else ""


def _worker(tasks: Connection, results: Connection, parent: int) -> None:
    """A worker process: play the batches sent on ``tasks`` one by one and send back
    ``("ok", batch)`` or ``("error", exception, traceback text)`` on ``results``; stop on
    None, or when the parent is gone."""
    _worker_start()
    while True:
        while not tasks.poll(1.0):
            if os.getppid() != parent:  # the parent died without stopping us
                return
        try:
            spec = tasks.recv()
        except (EOFError, OSError):  # the parent closed its end: nothing more to play
            return
        if spec is None:
            return
        try:
            message: tuple[Any, ...] = ("ok", play_batch(spec))
        except Exception as e:
            message = ("error", _portable(e), traceback.format_exc())
        results.send(message)


def _portable(e: Exception) -> Exception:
    """``e`` if it survives a pickle round trip, else an ExecutorError that says what it was."""
    try:
        pickle.loads(pickle.dumps(e))
    except Exception:
        return ExecutorError(f"{type(e).__name__}: {e}")
    return e


@dataclass
class _Process:
    """A worker process, its two pipes, and the batches sent to it, oldest first."""

    process: BaseProcess
    tasks: Connection  # to the worker
    results: Connection  # from the worker
    sent: list[BatchSpec] = field(default_factory=list)
    reading: bool = False  # a message from it is being read


def _start(workers: int) -> list[_Process]:
    """Start the worker processes, each with a pipe of its own each way (no lock shared
    between processes that a worker killed halfway could leave held)."""
    context = multiprocessing.get_context()
    started = []
    with _sigint_blocked():  # born blocking SIGINT, until they ignore it
        for _ in range(workers):
            task_out, task_in = context.Pipe(duplex=False)
            result_out, result_in = context.Pipe(duplex=False)
            process = context.Process(
                target=_worker, args=(task_out, result_in, os.getpid()), daemon=True
            )
            process.start()
            task_out.close()  # the worker's ends: a worker that dies closes the last copy,
            result_in.close()  # so reading its results ends (EOF) instead of waiting
            started.append(_Process(process, task_in, result_out))
    return started


def execute(specs: Iterable[BatchSpec], workers: int, done: Done) -> None:
    """Run every batch; ``done`` is called in this process as each one finishes. On an
    interruption (or an error), the workers are stopped at once, without waiting for them,
    and the interruption (or error) is re-raised: a batch not yet finished is not kept."""
    queue = iter(specs)  # read as batches are sent: a run's batches are never all listed
    first = list(islice(queue, workers))
    queue = chain(first, queue)
    if workers <= 1 or len(first) <= 1:
        for spec in queue:
            batch = play_batch(spec)
            with interrupts_deferred():
                done(spec, batch)
        return
    pool: list[_Process] = []
    try:
        pool = _start(len(first))
        while True:
            for w in pool:  # one batch playing and one waiting, per worker
                while len(w.sent) < 2 and (nxt := next(queue, None)) is not None:
                    w.tasks.send(nxt)
                    w.sent.append(nxt)
            busy = [w for w in pool if w.sent]
            if not busy:
                break
            ready = wait([w.results for w in busy])
            for w in busy:
                if w.results in ready:
                    _receive(w, done)
    except BaseException as e:
        try:
            if isinstance(e, KeyboardInterrupt):
                _drain(pool, done)
        finally:
            _stop(pool)
        raise
    _finish(pool)


def _receive(w: _Process, done: Done) -> None:
    """Take one message from a worker: store its batch, or raise its error."""
    spec = w.sent[0]
    w.reading = True
    try:
        message = w.results.recv()
    except (EOFError, OSError):
        raise ExecutorError(
            "a worker process died (killed, or out of memory?) while playing "
            f"{spec.profile}, games {spec.start}-{spec.start + spec.count - 1}"
        ) from None
    w.reading = False
    w.sent.pop(0)
    if message[0] == "error":
        error: Exception = message[1]
        raise error from RemoteTraceback(message[2])
    with interrupts_deferred():
        done(spec, message[1])


def _drain(pool: list[_Process], done: Done) -> None:
    """On an interruption, store the batches that workers have finished and begun to hand
    over: what is played and sent is kept. A pipe read halfway when the interruption came
    is left alone."""
    for w in pool:
        while w.sent and not w.reading and w.results.poll():
            try:
                _receive(w, done)
            except Exception:  # its error, or its death: the interruption comes first
                break


def _stop(pool: list[_Process]) -> None:
    """Stop the workers now: terminate them (they may be in the middle of a batch), and
    kill those still alive after ``STOP_WAIT`` seconds."""
    for w in pool:
        if w.process.is_alive():
            w.process.terminate()
    deadline = time.monotonic() + STOP_WAIT
    for w in pool:
        w.process.join(max(deadline - time.monotonic(), 0))
    for w in pool:
        if w.process.is_alive():
            w.process.kill()
            w.process.join(1)
        w.tasks.close()
        w.results.close()


def _finish(pool: list[_Process]) -> None:
    """Let idle workers end, then stop any that has not."""
    for w in pool:
        with suppress(OSError):  # a worker that died already
            w.tasks.send(None)
    deadline = time.monotonic() + STOP_WAIT
    for w in pool:
        w.process.join(max(deadline - time.monotonic(), 0))
    _stop(pool)


def check_dask(address: str) -> None:
    """Refuse ``--dask`` early (before any file is written) when Dask is not installed or
    the address names no known kind of scheduler; reaching it is tried when the run starts."""
    try:
        from distributed.comm.addressing import parse_address
        from distributed.comm.registry import get_backend
    except ImportError:
        raise ExecutorError(f"--dask needs Dask: {install_hint('dask')}") from None
    if address != "local":
        try:
            get_backend(parse_address(address)[0])
        except ValueError as e:
            raise ExecutorError(f"--dask {address}: cannot reach a Dask scheduler ({e})") from None


def execute_dask(specs: Iterable[BatchSpec], address: str, done: Done,
                 workers: int = 0) -> None:  # fmt: skip
    """Run every batch on a Dask cluster: ``local`` starts one on this machine's cores,
    otherwise ``address`` is an existing scheduler (``tcp://HOST:PORT``). Dask recomputes
    the batches of a worker that dies; results are the same, being pure functions."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ExecutorError(f"--dask needs Dask: {install_hint('dask')}") from None
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
            batch = pickle.loads(future.result())
            with interrupts_deferred():
                done(spec, batch)
            nxt = next(todo, None)
            if nxt is not None:
                new = client.submit(packed_batch, nxt, pure=False)
                pending[new] = nxt
                stream.add(new)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
