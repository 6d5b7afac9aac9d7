"""Keep numba's on-disk cache of the kernel consistent with its sources.

numba caches each compiled function (``cache=True``) beside its module and checks it
against that module's file only. The kernel's functions are compiled into one another
across modules (a step of the rules inside the loop that calls it), so a cached loop
could keep an older copy of a step that was changed in another module. The cache is
therefore stamped with a hash of every compiled module of this package (and numba's
version); when
the stamp differs, every kernel function's cache is emptied before anything is loaded,
and the next call compiles afresh (see docs/simulation.md for how long that takes).

Compiling is slow and silent, so the first process that compiles says so, in one line on
stderr (``compile_notice``): that it is compiling, once, and how long it usually takes; on
a terminal the line ends with how long it took. ``PAIQI_QUIET=1`` (the commands' ``-q``)
keeps it quiet.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
CORE = HERE.parent / "core"  # the rules of play (``paiqi_core.core``), compiled here too


# what is compiled: the rule core's modules, then this package's
COMPILED = (
    CORE / "bits.py",
    CORE / "layout.py",
    CORE / "rng.py",
    CORE / "kernel.py",
    CORE / "scoring.py",
    "course",
    "tables",
    "play",
    "steps",
    "heuristic",
    "inference",
    "tree",
    "sampling",
)


def stamp() -> str:
    """A hash of the sources of the compiled modules and of numba's version."""
    import numba

    h = hashlib.sha256(numba.__version__.encode())
    for name in COMPILED:
        path = name if isinstance(name, Path) else HERE / f"{name}.py"
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _dispatchers(modules: list[ModuleType]) -> list[Any]:
    from numba.core.dispatcher import Dispatcher

    found = []
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and value.__module__ == module.__name__:
                found.append(value)
    return found


def ensure_fresh(modules: list[ModuleType]) -> None:
    """Empty the cache of every compiled function of ``modules`` if the kernel's sources
    changed since it was written (a stamp file beside the cache records them)."""
    caches = [d._cache for d in _dispatchers(modules) if getattr(d, "_cache", None) is not None]
    paths = sorted({str(c._cache_path) for c in caches if getattr(c, "_cache_path", None)})
    if not paths:
        return
    now = stamp()
    tag = f"paiqi-fast.py{sys.version_info.major}{sys.version_info.minor}.stamp"
    files = [Path(p) / tag for p in paths]
    try:
        if all(f.read_text(encoding="ascii") == now for f in files):
            return
    except OSError:
        pass
    for cache in caches:
        with suppress(OSError):
            cache.flush()
    for f in files:
        try:
            f.parent.mkdir(parents=True, exist_ok=True)
            tmp = f.with_name(f"{f.name}.{os.getpid()}")
            tmp.write_text(now, encoding="ascii")
            os.replace(tmp, f)
        except OSError:
            pass


QUIET = "PAIQI_QUIET"  # set to 1: no word on compiling (inherited by worker processes)
USUALLY = "usually 20 s to a minute"  # 20 s on 2 idle cores (docs/simulation.md), 53 s busy
STALE_NOTICE = 600.0  # seconds after which another process's notice is taken as abandoned


def uncompiled(functions: list[Any]) -> bool:
    """Whether one of the compiled ``functions`` has nothing in numba's cache that it can
    load (its first call compiles it)."""
    for d in functions:
        index = getattr(getattr(d, "_cache", None), "_cache_file", None)
        if index is None:
            return True  # no cache at all: every process compiles
        try:
            if not index._load_index():
                return True
        except Exception:  # an index numba cannot read is one it rebuilds: compiling
            return True
    return False


def _first_to_say(modules: list[ModuleType]) -> Path | bool:
    """Whether this process is the first to say it compiles (worker processes compile at
    the same moment): the marker file it created, True if there is nowhere to create one,
    or False if another process has said it."""
    caches = [getattr(d, "_cache", None) for d in _dispatchers(modules)]
    folders = sorted({str(getattr(c, "_cache_path", "")) for c in caches} - {""})
    if not folders:
        return True
    marker = Path(folders[0]) / f"paiqi-fast.{stamp()[:16]}.compiling"
    try:
        if time.time() - marker.stat().st_mtime > STALE_NOTICE:
            marker.unlink()
    except OSError:
        pass
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
    except FileExistsError:
        return False
    except OSError:
        return True
    return marker


@contextmanager
def compile_notice(modules: list[ModuleType]) -> Iterator[None]:
    """Say on stderr, in one line, that the block compiles the engine (once, and how long
    that usually takes); on a terminal the line ends with the time it took. Quiet with
    ``PAIQI_QUIET=1``, and in every process but the first to compile."""
    first = False if os.environ.get(QUIET) == "1" else _first_to_say(modules)
    terminal = bool(first) and sys.stderr.isatty()
    if first:
        text = f"compiling the fast engine, once ({USUALLY}; later runs load it in a second)"
        with suppress(OSError):
            sys.stderr.write(text + (" ..." if terminal else "\n"))
            sys.stderr.flush()
    started = time.perf_counter()
    try:
        yield
    finally:
        if terminal:
            with suppress(OSError):
                sys.stderr.write(f" done in {time.perf_counter() - started:.0f} s\n")
        if isinstance(first, Path):  # compiled: a later process that compiles says so again
            with suppress(OSError):
                first.unlink()
                sys.stderr.flush()
        if isinstance(first, Path):
            with suppress(OSError):
                first.unlink()
