"""Keep numba's on-disk cache of the kernel consistent with its sources.

numba caches each compiled function (``cache=True``) beside its module and checks it
against that module's file only. The kernel's functions are compiled into one another
across modules (a step of the rules inside the loop that calls it), so a cached loop
could keep an older copy of a step that was changed in another module. The cache is
therefore stamped with a hash of every compiled module of this package (and numba's
version); when
the stamp differs, every kernel function's cache is emptied before anything is loaded,
and the next call compiles afresh (see docs/simulation.md for how long that takes).
"""

from __future__ import annotations

import hashlib
import os
import sys
from contextlib import suppress
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent


# what is compiled
COMPILED = (
    "bits",
    "layout",
    "rng",
    "kernel",
    "scoring",
    "course",
    "tables",
    "play",
    "steps",
    "heuristic",
    "inference",
)


def stamp() -> str:
    """A hash of the sources of the compiled modules and of numba's version."""
    import numba

    h = hashlib.sha256(numba.__version__.encode())
    for name in COMPILED:
        h.update(name.encode())
        h.update((HERE / f"{name}.py").read_bytes())
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
