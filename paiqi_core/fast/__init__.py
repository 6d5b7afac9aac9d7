"""The compiled fast path: games played by a numba kernel, with the same deals, the same
choices and the same results as the Python engine.

``paiqi_core.engine`` stays the reference. From a game's compiled ``Rules`` the kernel
takes the *forms* its slot objects declare (``forms``): every built-in opening, stuck rule,
ending and scoring has one, a plugin hook has none unless its author declares one, and
rules with a hook without a form are played in Python. Within a form the kernel follows
the engine step for step: it draws from the same counter-based stream
(``paiqi_core.streams``, made word for word in ``rng``), so a seed deals the same hands
and door card, and its random players draw the same numbers as ``RandomAgent``; a kernel
game is the Python game, action for action.

- ``available()``, ``why_not(rules, agents)``: whether the kernel can play, and why not;
- ``compiled.compiled_game(rules)``: batches of games from seeds, or from states;
- ``rows``: the rows a run stores, game records, end-of-game facts;
- ``finish.fast_finish(states, policy, seeds)`` and ``finish.fast_finish_after(state,
  actions, seeds)``: playouts for search players; ``finish.finisher(game)`` says whether to
  use them;
- ``steps``: one game stepped from Python an action at a time, with the legal actions and
  observations of the adapters (``paiqi_core.adapters.steps`` drives it).

Without numba, this module's functions and the rules themselves (``kernel``, ``rng``,
``bits``, ``layout``, ``tables``, ``plan``) still import and run, as plain Python
(``bits.COMPILED`` is False); the batches and steps need ``pip install 'paiqi[fast]'``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paiqi_core.rules import Rules

RANDOM_AGENTS = frozenset({"random", "easy"})  # the players the kernel plays
ENGINES = ("python", "fast", "auto")
_engine = "auto"  # what this process was asked to use (see ``use``)


def installed() -> bool:
    """Whether numba is installed (found without importing it: importing costs half a
    second, spent only where games are played)."""
    return importlib.util.find_spec("numba") is not None


@cache
def available() -> bool:
    """Whether numba can be imported here (it is imported, once per process)."""
    if not installed():
        return False
    try:
        import numba  # noqa: F401
    except Exception:
        return False
    return True


def why_not(rules: Rules, agents: Sequence[str] = ()) -> str | None:
    """Why the kernel cannot play games of ``rules`` with ``agents`` by seat (empty: all
    random); None when it can."""
    if not installed():
        from paiqi_core.resources import install_hint

        return f"numba is not installed ({install_hint('fast')})"
    from paiqi_core.fast.plan import why_not as rules_problem

    reason = rules_problem(rules)
    if reason is not None:
        return reason
    others = sorted({a for a in agents if a not in RANDOM_AGENTS})
    if others:
        return f"the compiled engine plays random seats only, not {', '.join(others)}"
    return None


def use(engine: str) -> None:
    """Choose the engine of this process: ``python`` (never the kernel), ``fast`` or
    ``auto`` (the kernel wherever it can play). Batches set it from their spec, so that
    the search players of a run follow ``--engine`` for their playouts too."""
    global _engine
    if engine not in ENGINES:
        raise ValueError(f"unknown engine '{engine}' (known: {', '.join(ENGINES)})")
    _engine = engine


def engine_in_use() -> str:
    """The engine chosen for this process (``auto`` unless ``use`` said otherwise)."""
    return _engine


def plays(rules: Rules, agents: Sequence[str] = (), engine: str | None = None) -> bool:
    """Whether games of ``rules`` with ``agents`` are played by the kernel under
    ``engine`` (default: the engine in use): not under ``python``, and only when
    ``why_not`` finds nothing against it."""
    if (engine or _engine) == "python":
        return False
    return why_not(rules, agents) is None and available()
