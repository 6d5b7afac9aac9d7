"""A game's rules in the kernel's arrays, and the calls that play batches of its games."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from paiqi_core.core import bits, kernel, rng, scoring
from paiqi_core.core import layout as L
from paiqi_core.core.kernel import EAGER, RANDOM
from paiqi_core.core.rng import keys_of, run_keys
from paiqi_core.fast import course, heuristic, inference, play, sampling, steps, tables, tree
from paiqi_core.fast.cache import compile_notice, ensure_fresh, uncompiled
from paiqi_core.fast.plan import rules_vector, stake, why_not
from paiqi_core.fast.play import HEURISTIC, play_deals, play_states
from paiqi_core.fast.tables import beyond_table, extensions
from paiqi_core.streams import GENERATOR, WORDS

if TYPE_CHECKING:
    from paiqi_core.rules import Rules

MODULES = [bits, rng, kernel, heuristic, inference, scoring, course, tables, play, steps, tree]
MODULES += [sampling]
ensure_fresh(MODULES)
_UNCOMPILED = [uncompiled([play_deals, play_states])]  # the kernel still to compile here

POLICIES = {"random": RANDOM, "eager": EAGER, "heuristic": HEURISTIC}
# log entries kept per game; a longer game's course and record are made by the Python engine
LOG_ROOM = 512


class Played(NamedTuple):
    """What a batch of kernel games gives back."""

    res: np.ndarray  # games x seats x layout.SEAT_FIELDS
    game: np.ndarray  # games x layout.GAME_FIELDS
    states: np.ndarray | None  # games x layout.STATE: the final states, when kept
    logs: np.ndarray | None  # games x LOG_ROOM x 2: (seat, action), when kept


class CompiledGame:
    """The rules of one game as kernel arrays (ValueError if the kernel cannot play them)."""

    def __init__(self, rules: Rules) -> None:
        reason = why_not(rules)
        if reason is not None:
            raise ValueError(reason)
        self.rules = rules
        self.players = rules.players
        self.R = np.array(rules_vector(rules), dtype=np.int64)
        self.ext = extensions(rules.topology)
        self.beyond = (
            beyond_table(rules.topology) if rules.jokers else np.full(1, -1, dtype=np.int8)
        )
        self.stake: Fraction = stake(rules)

    def _out(self, count: int) -> tuple[np.ndarray, np.ndarray]:
        return (
            np.zeros((count, self.players, L.SEAT_FIELDS), dtype=np.int64),
            np.zeros((count, L.GAME_FIELDS), dtype=np.int64),
        )

    def play_keys(
        self,
        keys: np.ndarray,
        policy: str = "random",
        *,
        keep: bool = False,
        log: bool = False,
        generator: str = GENERATOR,
        leads: Sequence[int | None] | None = None,
    ) -> Played:
        """Deal and play the games of the given streams' keys (int64, see
        ``paiqi_core.streams``) under ``generator`` (one of ``streams.KERNEL``), and read
        the course of each from its log (kept only if asked). ``leads`` gives by game the
        seat that moves first in place of the opening's first mover (None: the opening's)."""
        count = len(keys)
        res, game = self._out(count)
        states = np.zeros((count if keep else 0, L.STATE), dtype=np.int64)
        logs = np.zeros((count, LOG_ROOM if log else 0, 2), dtype=np.int32)
        play_deals(
            keys, self.R, self.ext, self.beyond, POLICIES[policy], res, game, states, logs,
            LOG_ROOM, L.WORDS if generator == WORDS else 0,
            np.array([0 if s is None else s + 1 for s in leads or ()], dtype=np.int64),
        )  # fmt: skip
        return Played(res, game, states if keep else None, logs if log else None)

    def play_seeds(
        self, seeds: Sequence[int], policy: str = "random", *, keep: bool = False,
        log: bool = False,
    ) -> Played:  # fmt: skip
        """Deal and play one game from each seed, as ``Game.new_state(seed)`` deals it."""
        return self.play_keys(keys_of(seeds), policy, keep=keep, log=log)

    def play_run(
        self, run_seed: int, indices: Sequence[int], policy: str = "random", *,
        keep: bool = False, log: bool = False, generator: str = GENERATOR,
        leads: Sequence[int | None] | None = None,
    ) -> Played:  # fmt: skip
        """Deal and play game ``i`` of a run seeded ``run_seed`` for each ``i`` of
        ``indices`` (dealt from ``game_seed(run_seed, i)`` under ``generator``), led as
        ``leads`` says (``play_keys``)."""
        keys = run_keys(run_seed, indices)
        return self.play_keys(keys, policy, keep=keep, log=log, generator=generator, leads=leads)

    def play_on(
        self, start: np.ndarray, seeds: Sequence[int], policy: str = "random", *,
        keep: bool = False, first: Sequence[int] | None = None,
    ) -> Played:  # fmt: skip
        """Play on from each state vector of ``start`` (after its action of ``first``, if
        given), drawing from the stream of its seed (``paiqi_core.streams.Stream``)."""
        keys = keys_of(seeds)
        count = len(seeds)
        res, game = self._out(count)
        states = np.zeros((count if keep else 0, L.STATE), dtype=np.int64)
        actions = np.full(count, -1, dtype=np.int64) if first is None else np.asarray(first)
        play_states(
            np.ascontiguousarray(start, dtype=np.int64), actions.astype(np.int64), keys,
            self.R, self.ext, self.beyond, POLICIES[policy], res, game, states,
        )  # fmt: skip
        return Played(res, game, states if keep else None, None)


_COMPILED: dict[int, tuple[Rules, CompiledGame]] = {}


def compiled_game(rules: Rules) -> CompiledGame:
    """The one CompiledGame of ``rules`` in this process."""
    entry = _COMPILED.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _COMPILED[id(rules)] = (rules, CompiledGame(rules))
        if _UNCOMPILED[0]:
            _UNCOMPILED[0] = False
            with compile_notice(MODULES):
                _compile(entry[1])
    return entry[1]


def _compile(compiled: CompiledGame) -> None:
    """Compile the kernel's entry points (numba compiles on a first call): one game dealt
    and played, and one played on from a finished state."""
    compiled.play_seeds([0])
    over = np.zeros((1, L.STATE), dtype=np.int64)
    over[0, L.OVER] = 1
    compiled.play_on(over, [0])
