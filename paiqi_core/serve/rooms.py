"""Rooms: one table shared by several people and computer players, deal after deal.

A host opens a room for a profile and says, seat by seat, who sits there: a person, or a
computer player of a level. The room has a long random id (for its link) and a short code
(for saying across the table). A person joins an open seat and gets a secret token of
their own; every answer to them is drawn from their seat's observation by the same
``Table.view`` the one-person table uses, and a move is taken for a seat only with that
seat's token. A spectator (no token) sees the public table; every hand as dealt is shown
to all once the deal is over.

Each change (a join, a move, a new deal) raises the room's ``version`` and calls the
room's listeners, which tell every open page at once (see ``app``'s event stream); a page
then asks for its own view. Computer players move as soon as it is their turn, in the
request that made it so. The host may let a computer player move for a person who takes
too long (``stand_in``), and deal the next hand once a deal is over; the scoreboard adds
each deal's money, points and house fee up, under the profile's ``session``/``match``.

Bounds: at most ``MAX_ROOMS`` rooms (a room with no request for ``IDLE_SECONDS`` goes),
``MAX_LISTENERS`` open pages a room, and each seat's token at most ``MOVES_PER_SECOND``
requests a second (a burst of ``MOVES_BURST``).
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from paiqi_core.agents import LEVELS
from paiqi_core.cards import RANKS
from paiqi_core.engine import Game
from paiqi_core.games import with_centre
from paiqi_core.match import last_placed, next_lead, pick_centre, run_match
from paiqi_core.outcome import Result, money_json
from paiqi_core.pack import rank_index
from paiqi_core.profile.load import pack_ranks
from paiqi_core.records import state_record
from paiqi_core.serve.tables import Kept, Table, TableError, _duration
from paiqi_core.session import run_session

MAX_ROOMS = 500  # rooms kept at once; beyond, a new room is refused
IDLE_SECONDS = 6 * 3600.0  # a room with no request for this long is let go
MAX_LISTENERS = 64  # pages following one room at once
MAX_NAME = 24  # characters of a person's name
MAX_DEALS = 1000  # deals one room may play
MOVES_PER_SECOND = 20.0  # requests a seat's token may make a second, on average
MOVES_BURST = 40  # ... and at once
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud without doubt
CODE_LENGTH = 6
PERSON = "person"
SEAT_KINDS = (PERSON, *LEVELS)


class RoomError(TableError):
    """A request a room cannot take; ``status`` is the HTTP status that says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Bucket:
    """A token bucket: ``rate`` requests a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.at = clock()

    def take(self) -> bool:
        """Whether one more request is allowed now (and count it)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def new_code() -> str:
    """A short code for a room: ``CODE_LENGTH`` letters and digits easy to read out."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def clean_name(name: Any, seat: int) -> str:
    """A person's name as shown at the table: printable, at most ``MAX_NAME`` characters,
    ``seat N`` when none is given."""
    text = name if isinstance(name, str) else ""
    text = "".join(ch for ch in text if ch.isprintable()).strip()[:MAX_NAME]
    return text or f"seat {seat}"


class Room:
    """A table of people and computer players that plays deal after deal."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        seed: int,
        source: dict[str, Any],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        n = game.players
        if len(seats) != n:
            raise RoomError(f"seats: {len(seats)} given, this profile seats {n}")
        for kind in seats:
            if kind not in SEAT_KINDS:
                known = ", ".join(SEAT_KINDS)
                raise RoomError(f"seats: '{kind}' is neither a person nor a level ({known})")
        if PERSON not in seats:
            raise RoomError("seats: a room needs at least one person")
        self.id = secrets.token_urlsafe(9)
        self.code = new_code()
        self.host = secrets.token_urlsafe(18)
        self.game = game
        self.kinds = list(seats)
        self.seed = seed
        self.source = source  # the profile as given, for the record of the evening
        self.clock = clock
        self.names: list[str | None] = [None] * n  # the person's name once a seat is taken
        self.tokens: dict[str, int] = {}  # a person's secret token: their seat
        self.buckets: dict[str, Bucket] = {}
        self.results: list[Result] = []  # each finished deal's, in order
        self.records: list[dict[str, Any]] = []
        self.deal = 0
        # stores each finished deal (the results file's run: ``sessions``), if the server has one
        self.recorder: Callable[[Room], None] | None = None
        self.run: str | None = None  # the run of the results file holding the deals
        self.unstored: str | None = None  # why the last deal could not be stored
        self.picked: int | None = None  # the next deal's centre, as its picker chose it
        self.table = self._new_table()
        self.version = 0
        self.turn_since = clock()  # when the seat to move got the turn
        self.lock = threading.Lock()  # held while the room is read or changed
        self.listeners: list[Callable[[], None]] = []
        self._listening = threading.Lock()  # the listeners only (the event loop takes it)
        self.used = clock()

    # -- seats ---------------------------------------------------------------------------
    def _seed_of(self, deal: int) -> int:
        return (self.seed + deal) % (1 << 63)

    def _new_table(self, centre: int | None = None) -> Table:
        """The table of deal ``self.deal``: led by the last winner and played from the
        ``centre`` picked, where the match's rules say so."""
        levels = [None if kind == PERSON else kind for kind in self.kinds]
        match = self.game.rules.match
        lead = None
        if match.next_lead == "last_winner" and self.deal % match.games:  # not a match's first
            lead = next_lead(self.results[-1])
        game = self.game if centre is None else with_centre(self.game, centre)
        table = Table.seated(game, levels, self._seed_of(self.deal), lead)
        _computers(table)  # the computer players before the first person
        return table

    def seat_of(self, token: Any) -> int | None:
        """The seat of a person's token; None for no token (a spectator), RoomError (403)
        for a token this room never gave."""
        if token in (None, ""):
            return None
        if not isinstance(token, str) or token not in self.tokens:
            raise RoomError("this is not a token of this room's seats: join a seat", 403)
        bucket = self.buckets[token]
        if not bucket.take():
            raise RoomError("too many requests from this seat: wait a moment", 429)
        return self.tokens[token]

    def join(self, seat: int, name: Any) -> str:
        """Seat a person at an open person's seat; their secret token."""
        if not 0 <= seat < len(self.kinds) or self.kinds[seat] != PERSON:
            people = [str(s) for s, k in enumerate(self.kinds) if k == PERSON]
            raise RoomError(f"seat {seat}: a person may sit at seat {', '.join(people)}")
        if self.names[seat] is not None:
            raise RoomError(f"seat {seat} is taken (rejoin it with your own token)", 409)
        token = secrets.token_urlsafe(18)
        self.tokens[token] = seat
        self.buckets[token] = Bucket(MOVES_PER_SECOND, MOVES_BURST, self.clock)
        self.names[seat] = clean_name(name, seat)
        self.changed()
        return token

    def seat_names(self, viewer: int | None) -> list[str]:
        """Each seat's name as ``viewer`` sees it: a person's name (``(you)`` for the
        viewer's own), an open seat, or the computer player's level."""
        out = []
        for s, kind in enumerate(self.kinds):
            if kind != PERSON:
                out.append(f"seat {s} ({kind})")
            elif self.names[s] is None:
                out.append(f"seat {s} (open)")
            else:
                out.append(f"{self.names[s]} (you)" if s == viewer else str(self.names[s]))
        return out

    # -- moves ---------------------------------------------------------------------------
    def act(self, seat: int, action: int | str) -> str | None:
        """``seat``'s move (None when made, else the engine's reason), then the computer
        players' moves until a person is to move or the deal is over."""
        reason = self.table.act(action, seat)
        if reason is None:
            self._moved()
        return reason

    def stand_in(self, seat: int, level: str) -> None:
        """A computer player of ``level`` moves once for the person at ``seat``."""
        if level not in LEVELS:
            raise RoomError(f"level: one of {', '.join(LEVELS)}")
        if self.table.state.over or self.table.state.turn != seat:
            raise RoomError(f"seat {seat} is not to move", 409)
        self.table.stand_in(seat, level)
        self._moved()

    def _moved(self) -> None:
        table = self.table
        _computers(table)
        if table.state.over and len(self.results) == self.deal:
            outcomes = table.state.outcomes()
            self.results.append(table.state.result(outcomes))
            self.records.append(state_record(table.state))
            if self.recorder is not None:
                self.recorder(self)
        self.turn_since = self.clock()
        self.changed()

    def picker(self) -> int | None:
        """The seat that picks the next deal's centre (``match.next_centre: last_picks``:
        the last of this deal, once it is over, unless the next deal begins a match)."""
        match = self.game.rules.match
        if match.next_centre != "last_picks" or len(self.results) <= self.deal:
            return None
        if (self.deal + 1) % match.games == 0:  # the next deal is a new match's first
            return None
        return last_placed(self.results[-1])

    def centres(self) -> list[int]:
        """The ranks a picker may pick: every rank of the pack."""
        return pack_ranks(self.game.rules.profile.data)

    def pick(self, seat: int, rank: Any) -> None:
        """The person at ``seat`` picks the next deal's centre (a rank's text)."""
        picker = self.picker()
        if picker is None:
            raise RoomError("no centre is to be picked now", 409)
        if seat != picker:
            raise RoomError(f"{self.seat_names(None)[picker]} picks the next centre, not you", 403)
        ranks = self.centres()
        try:
            index = rank_index(str(rank))
        except ValueError:
            index = -1
        if index not in ranks:
            raise RoomError("rank: one of " + ", ".join(RANKS[r] for r in ranks))
        self.picked = index
        self.changed()

    def next_deal(self) -> None:
        """Deal the next hand (the host's, once this deal is over, and once a person who
        picks its centre has picked it; a computer picks its own)."""
        if not self.table.state.over:
            raise RoomError("the deal is not over yet", 409)
        if self.deal + 1 >= MAX_DEALS:
            raise RoomError(f"a room plays at most {MAX_DEALS} deals: open a new one", 409)
        picker, centre = self.picker(), None
        if picker is not None:
            if self.kinds[picker] != PERSON:
                centre = pick_centre(self.centres(), self._seed_of(self.deal + 1))
            elif self.picked is None:
                name = self.seat_names(None)[picker]
                raise RoomError(f"{name} picks the next deal's centre first", 409)
            else:
                centre = self.picked
        self.deal += 1
        self.picked = None
        self.table = self._new_table(centre)
        if self.table.state.over:  # computer players alone may finish a deal
            self._moved()
        self.turn_since = self.clock()
        self.changed()

    # -- what is seen --------------------------------------------------------------------
    def view(self, seat: int | None, host: bool = False) -> dict[str, Any]:
        """What ``seat`` sees (None: a spectator): the seat's view of the deal, the room's
        seats, its scoreboard, and every hand as dealt once the deal is over."""
        table = self.table
        out = table.view(-1 if seat is None else seat, self.seat_names(seat))
        out["table"] = None  # a room's deal is reached through the room only
        out["levels"] = list(table.levels)
        out["waiting"] = False  # the server moves the computer players itself
        out["room"] = {
            "id": self.id,
            "deal": self.deal + 1,
            "version": self.version,
            "kinds": self.kinds,
            "open": [s for s, k in enumerate(self.kinds) if k == PERSON and self.names[s] is None],
            "host": host,
            "code": self.code if host else None,
            "waited": round(self.clock() - self.turn_since, 1),
            "spectator": seat is None,
            "run": self.run,
            "unstored": self.unstored,
            "centre": RANKS[table.game.rules.topology.centre],
            "centre_change": self.game.rules.match.next_centre == "last_picks",
            "centre_pick": self._centre_pick(),
        }
        out["scoreboard"] = self.scoreboard()
        if table.state.over:
            out["dealt"] = state_record(table.state)["hands"]
        return out

    def _centre_pick(self) -> dict[str, Any] | None:
        """Who picks the next deal's centre, from which ranks, and what they picked."""
        picker = self.picker()
        if picker is None:
            return None
        return {
            "seat": picker,
            "person": self.kinds[picker] == PERSON,
            "ranks": [RANKS[r] for r in self.centres()],
            "picked": None if self.picked is None else RANKS[self.picked],
        }

    def scoreboard(self) -> dict[str, Any]:
        """The deals played so far: each deal's money, points and fee, and the running
        totals as the profile's session (money, with its bankroll) and match (points) add
        them up."""
        rules = self.game.rules
        n = self.game.players
        deals = [
            {
                "deal": i + 1,
                "money": [money_json(m) for m in r.money],
                "points": None if r.total is None else list(r.total),
                "house": money_json(r.house) if r.house else 0,
                "winners": list(r.winners),
            }
            for i, r in enumerate(self.results)
        ]
        session = run_session(self.results, n, max(len(self.results), 1), rules.session.bankroll)
        points = None
        if self.results and all(r.total is not None for r in self.results):
            points = [sum(r.total[s] for r in self.results if r.total) for s in range(n)]
        house = sum((Fraction(r.house) for r in self.results), Fraction(0))
        return {
            **self._ended(points is not None),
            "deals": deals,
            "money": [money_json(m) for m in session.money],
            "points": points,
            "house": money_json(house.numerator if house.denominator == 1 else house),
            "objective": rules.facts.objective,
            "session_hands": rules.session.hands,
            "bankroll": rules.session.bankroll,
            "match_games": rules.match.games,
            "match_limit": rules.match.limit,
            "broke": list(session.broke),
        }

    def _ended(self, by_points: bool) -> dict[str, Any]:
        """Whether the profile's own session (``session.hands``, or until a player with a
        ``session.bankroll`` cannot pay) or match (``match.games``, for a scoring by points,
        or sooner once a player's points reach ``match.limit``) is over, and its winners:
        ``ended`` (the deals it took) and ``winners``."""
        rules = self.game.rules
        played = len(self.results)
        objective = rules.facts.objective
        if by_points and objective != "money":
            games = rules.match.games
            if not self.results:
                return {"ended": None, "winners": []}
            match = run_match(self.results[:games], rules.match.limit)
            if match.games < games and not match.reached:
                return {"ended": None, "winners": []}
            return {"ended": match.games, "winners": list(match.winners)}
        hands = rules.session.hands
        session = run_session(self.results, self.game.players, hands, rules.session.bankroll)
        if played < hands and not session.broke:
            return {"ended": None, "winners": []}
        return {"ended": session.hands_played, "winners": list(session.winners)}

    # -- listeners -----------------------------------------------------------------------
    def changed(self) -> None:
        """A new version: every listening page is told."""
        self.version += 1
        with self._listening:
            listeners = list(self.listeners)
        for tell in listeners:
            tell()

    def listen(self, tell: Callable[[], None]) -> Callable[[], None]:
        """Call ``tell`` on each change (from the thread that made it) until the returned
        function is called; RoomError (503) when ``MAX_LISTENERS`` already listen."""
        with self._listening:
            if len(self.listeners) >= MAX_LISTENERS:
                raise RoomError(f"this room already has {MAX_LISTENERS} pages open", 503)
            self.listeners.append(tell)

        def stop() -> None:
            with self._listening:
                if tell in self.listeners:
                    self.listeners.remove(tell)

        return stop


def _computers(table: Table) -> None:
    """The computer players move until a person is to move or the deal is over (however
    long a search player thinks: nothing else would move them)."""
    while table.waiting():
        table.advance()


class Rooms(Kept[Room]):
    """The rooms of a server, by id and by code (see ``Kept``)."""

    LIMIT = MAX_ROOMS
    IDLE = IDLE_SECONDS

    def __init__(
        self, limit: int | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__(limit, None, clock)
        self._codes: dict[str, str] = {}

    def full(self) -> str:
        """Every kept room was used recently."""
        return (
            f"this server already keeps {self.limit:,} rooms, each used in the last "
            f"{_duration(self.idle)}: try again later"
        )

    def missing(self) -> RoomError:
        """No such room."""
        return RoomError(
            f"no such room (a room goes after {_duration(self.idle)} unused): "
            "ask for its link again, or open a new one",
            404,
        )

    def find(self, code: str) -> Room:
        """The room of a short code (any case, spaces ignored); RoomError (404) if none."""
        wanted = "".join(code.split()).upper()
        with self._lock:
            room_id = self._codes.get(wanted)
        if room_id is None:
            raise RoomError(f"no room has the code {wanted[: CODE_LENGTH * 2]!r}", 404)
        return self.get(room_id)

    def _admit(self, room: Room) -> None:
        while room.code in self._codes:  # a code no other room has
            room.code = new_code()
        self._codes[room.code] = room.id

    def _dropped(self, room: Room) -> None:
        self._codes.pop(room.code, None)


def random_seed() -> int:
    """A deal number for a room opened without one."""
    return random.randrange(1 << 31)
