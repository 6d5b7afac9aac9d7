"""Live tables: one game between a person and computer players, kept in memory.

A table holds the engine's ``State``, the person's seat and the computer players (a room's
deal, ``Table.seated``, has several people's seats: see ``rooms``). Every answer to the
browser is drawn from one seat's own observation (``view``; a spectator's from the public
part of one), so the other hands never leave the engine. Computer players move in
``advance``, a bounded number of moves per request, so a slow player never holds a request
for long. Each table has its own lock; an error inside one game marks that table broken
and leaves the others alone.

A table is kept while its player is at it: it goes only after ``IDLE_SECONDS`` without
any request for it (the page asks for its game every few minutes while its tab is open).
At most ``MAX_TABLES`` are kept; beyond that a new game is refused with a clear message
rather than dropping a game someone is playing. ``Kept`` does this for tables and rooms.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from paiqi_core.actions import DRAW_CARD, GIVE, ActionError, parse_action
from paiqi_core.agents import LEVELS, Agent, make_agent
from paiqi_core.engine import Game, IllegalAction, State
from paiqi_core.engine.reasons import NOT_LEGAL
from paiqi_core.serve.settlement import settlement
from paiqi_core.serve.view import ended_by_stall, public_observation, rules_summary, seat_view

MAX_TABLES = 5000  # games kept at once (some 40 KB each); beyond, a new game is refused
IDLE_SECONDS = 2 * 3600.0  # a game with no request for this long is let go
ADVANCE_SECONDS = 0.5  # computer moves stop after this long in one request
LEVEL_WORDS = {
    "easy": "easy (random legal moves)",
    "normal": "normal (a rule-based player)",
    "hard": "hard (a search player)",
    "expert": "expert (search over a learned belief; as hard where none is trained)",
}


class Live(Protocol):
    """What a server keeps (see ``Kept``): an id, and when it was last used."""

    id: str
    used: float


K = TypeVar("K", bound=Live)


class TableError(ValueError):
    """A request a table cannot take: no such table, a bad seat or level."""


class TablesFull(TableError):
    """No room for another game: every kept game was used recently."""


class Table:
    """One game: the engine's state, the person's seat, the computer players."""

    def __init__(self, game: Game, seat: int, levels: Sequence[str], seed: int) -> None:
        n = game.players
        if not 0 <= seat < n:
            raise TableError(f"seat {seat}: this table seats 0 to {n - 1}")
        levels = list(levels) or ["normal"] * (n - 1)
        if len(levels) == 1 and n > 2:
            levels = levels * (n - 1)
        if len(levels) != n - 1:
            raise TableError(f"{len(levels)} levels for {n - 1} computer players")
        others = iter(levels)
        self._seat(game, [None if s == seat else next(others) for s in range(n)], seed)
        self.seat = seat
        self.names = [
            f"seat {s} (you)" if level is None else f"seat {s} ({level})"
            for s, level in enumerate(self.levels)
        ]

    @classmethod
    def seated(
        cls, game: Game, levels: Sequence[str | None], seed: int, lead: int | None = None
    ) -> Table:
        """A table of several people (a room's deal): ``levels`` gives each seat's
        computer player, None where a person sits."""
        if len(levels) != game.players:
            raise TableError(f"{len(levels)} seats given for a table of {game.players}")
        table = cls.__new__(cls)
        table._seat(game, levels, seed, lead)
        table.seat = next((s for s, level in enumerate(levels) if level is None), -1)
        table.names = [f"seat {s}" for s in range(game.players)]
        return table

    def _seat(
        self, game: Game, levels: Sequence[str | None], seed: int, lead: int | None = None
    ) -> None:
        """Deal ``seed`` and seat the computer players of ``levels`` (None: a person);
        ``lead`` moves first in place of the opening's first mover (a match's last winner)."""
        for level in levels:
            if level is not None and level not in LEVELS:
                raise TableError(f"unknown level '{level}' (known: {', '.join(LEVELS)})")
        self.id = secrets.token_urlsafe(12)
        self.game = game
        self.seed = seed
        self.state: State = game.new_state(seed=seed, lead=lead)
        rng = random.Random(seed)
        self.levels: list[str | None] = list(levels)
        self.agents: list[Agent | None] = [
            None if level is None else make_agent(level, rng, game) for level in self.levels
        ]
        self.lock = threading.Lock()
        self.broken: str | None = None
        self.used = time.monotonic()

    # -- what the person sees ----------------------------------------------------------
    def view(self, seat: int | None = None, names: Sequence[str] | None = None) -> dict[str, Any]:
        """What ``seat`` sees (the person's seat by default; -1 for a spectator, who sees
        the public table only), with the settlement once the game is over."""
        state = self.state
        first = state.first_card if not state.started else None
        seat = self.seat if seat is None else seat
        obs = state.observation(max(seat, 0))
        out = seat_view(
            self.game.rules,
            obs if seat >= 0 else public_observation(obs),
            self.names if names is None else names,
            first,
            stalled=ended_by_stall(state),
        )
        out["table"] = self.id
        out["rules"] = rules_summary(self.game.rules)
        out["levels"] = self.levels
        # the deal number gives every hand (the deal is a function of it): shown at the end
        out["seed"] = self.seed if state.over else None
        out["waiting"] = self.waiting()
        out["broken"] = self.broken
        if state.over:
            outcomes = state.outcomes()
            out["settlement"] = settlement(self.game.rules, outcomes, state.result(outcomes))
        return out

    def waiting(self) -> bool:
        """Whether computer players are to move (the browser asks ``advance``)."""
        state = self.state
        return not state.over and self.levels[state.turn] is not None and self.broken is None

    # -- moves ---------------------------------------------------------------------------
    def act(self, action: int | str, seat: int | None = None) -> str | None:
        """The move of the person at ``seat`` (the table's person by default); None when
        made, else the engine's reason it is not legal. A draw from the stock is ``draw``
        only: the card is chance's, so a draw naming its card (how a replay says which card
        was drawn) is refused, before the engine could say whether the stock holds it."""
        self._check()
        if self.state.over:
            return "game over: no action can be taken"
        if _names_a_drawn_card(action):
            return (
                f"{NOT_LEGAL}: the stock lies face down: draw without naming a card "
                "(draw); the card drawn is chance's"
            )
        try:
            self.state.apply(action, self.seat if seat is None else seat)
        except IllegalAction as e:
            return str(e)
        return None

    def advance(self, max_moves: int = 1000, seconds: float = ADVANCE_SECONDS) -> int:
        """Let the computer players move until it is the person's turn, the game is over,
        ``max_moves`` were made or ``seconds`` passed; the number of moves made."""
        self._check()
        made = 0
        until = time.monotonic() + seconds
        state = self.state
        while self.waiting() and made < max_moves:
            seat = state.turn
            agent = self.agents[seat]
            assert agent is not None
            self._computer_move(seat, agent, str(self.levels[seat]))
            made += 1
            if time.monotonic() >= until:
                break
        return made

    def stand_in(self, seat: int, level: str = "normal") -> None:
        """One move for the person at ``seat``, whose turn it is, chosen by a computer
        player of ``level`` (a room's host lets one move for a person who takes too long)."""
        self._check()
        state = self.state
        if state.over or state.turn != seat or self.levels[seat] is not None:
            raise TableError(f"seat {seat} is not a person to move")
        agent = make_agent(level, random.Random(self.seed + len(state.public_log())), self.game)
        self._computer_move(seat, agent, f"{level}, standing in")

    def _computer_move(self, seat: int, agent: Agent, who: str) -> None:
        """The move ``agent`` chooses for ``seat``; a failure marks the table broken."""
        state = self.state
        try:
            action = agent.act(state.observation(seat))
            reason = state.why_illegal(action, seat)
            if reason is not None:
                raise RuntimeError(f"the {who} player chose {action}: {reason}")
            state.apply_unchecked(action)
        except Exception as e:
            self.broken = f"seat {seat} ({who}) failed: {type(e).__name__}: {e}"
            raise

    def _check(self) -> None:
        if self.broken is not None:
            raise TableError(f"this game stopped: {self.broken}")


def _names_a_drawn_card(action: int | str) -> bool:
    """Whether ``action`` is a draw of a named card (``draw H5``, ``DRAW_CARD + c``)."""
    if isinstance(action, str):
        try:
            action = parse_action(action)
        except ActionError:
            return False  # the engine says why it is no action
    return isinstance(action, int) and DRAW_CARD <= action < GIVE


class Kept(Generic[K]):
    """Live things of a server (tables, rooms), each with its ``id`` and the time it was
    last ``used``: one goes after ``idle`` seconds without a request for it; at most
    ``limit`` are kept, and a new one beyond that is refused (``full``). Each kind gives
    its own ``LIMIT`` and ``IDLE`` by default."""

    LIMIT = MAX_TABLES
    IDLE = IDLE_SECONDS

    def __init__(
        self,
        limit: int | None = None,
        idle: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = self.LIMIT if limit is None else limit
        self.idle = self.IDLE if idle is None else idle
        self.clock = clock
        self._kept: OrderedDict[str, K] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()

    def add(self, item: K) -> K:
        """Keep a new one, after letting idle ones go; TablesFull when none is idle and
        ``limit`` are kept."""
        with self._lock:
            now = self.clock()
            self._expire(now)
            if len(self._kept) >= self.limit:
                raise TablesFull(self.full())
            item.used = now
            self._admit(item)
            self._kept[item.id] = item
        return item

    def get(self, item_id: str) -> K:
        """The one of ``item_id``; ``missing`` if there is none (or it was let go)."""
        with self._lock:
            now = self.clock()
            self._expire(now)
            item = self._kept.get(item_id)
            if item is None:
                raise self.missing()
            self._kept.move_to_end(item_id)
            item.used = now
            return item

    def full(self) -> str:
        """Why a new one is refused."""
        raise NotImplementedError

    def missing(self) -> TableError:
        """The error for an id kept by none."""
        raise NotImplementedError

    def _admit(self, item: K) -> None:
        """What a kind does as one is kept (under the lock)."""

    def _dropped(self, item: K) -> None:
        """What a kind does as one is let go (under the lock)."""

    def _expire(self, now: float) -> None:
        """Let go of those unused for ``idle`` seconds (the oldest are first)."""
        while self._kept:
            item = next(iter(self._kept.values()))
            if now - item.used < self.idle:
                break
            self._kept.popitem(last=False)
            self._dropped(item)

    def __len__(self) -> int:
        return len(self._kept)


class Tables(Kept[Table]):
    """The live tables of a server (see ``Kept``)."""

    def full(self) -> str:
        """Every kept game was played recently."""
        return (
            f"this server already keeps {self.limit:,} games, each played in the last "
            f"{_duration(self.idle)}: finish one, or try again later"
        )

    def missing(self) -> TableError:
        """No such game."""
        return TableError(
            f"no such game (a game is let go after {_duration(self.idle)} without a move): "
            "deal a new one"
        )


def _duration(seconds: float) -> str:
    """``2 hours``, ``30 minutes``, ``45 seconds``."""
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds:g} seconds"
