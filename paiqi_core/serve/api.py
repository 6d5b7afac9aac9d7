"""The JSON API: one function per route, taking the request's JSON and returning JSON.

Routes (all answers are JSON objects; an error is ``{"error": "..."}`` with a 4xx status):

- ``GET  /api/profiles``: the built-in profiles and the computer players' levels.
- ``GET  /api/profiles/ID/source``: a built-in profile's YAML text.
- ``POST /api/check``: ``{profile | yaml, name, options}``: located problems, or the
  ``paiqi explain`` text.
- ``POST /api/games``: ``{profile | yaml, name, options, seat, levels, seed}``: deal a new
  game; the person's view.
- ``GET  /api/games/ID``: the person's view.
- ``POST /api/games/ID/act``: ``{action}`` (``"H7"``, ``"cover HK"``, ``"pass"``,
  ``"joker H8 H9"``, ``"trump S9 H9"``, ``"give H5"``, ``"draw"`` or the action's number):
  the move, or the engine's reason it is not legal (a draw naming its card is refused: the
  card is chance's).
- ``POST /api/games/ID/advance``: ``{max_moves}``: the computer players move (bounded).
- ``GET  /api/games/ID/record``: the game's record, once it is over.
- ``GET  /api/games/ID/rules?lang=``: the game's rules card (see ``rulescard``): the rules
  in play, in ``lang`` (zh-TW, ja or en) or else the language the request's
  Accept-Language prefers.
- ``POST /api/replays``: ``{jsonl, name}``: the records of a JSON Lines text.
- ``POST /api/replay``: ``{record}`` or ``{run, profile, game}``: a game step by step.
- ``GET  /api/runs``: the runs of the results file the server was started with.

Rooms (see ``rooms``; ``token`` is a person's, ``host`` the host's, ``code`` the room's short
code, needed without a token when the server serves the network):

- ``POST /api/rooms``: ``{profile | yaml, name, options, seats, seed}``: open a room;
  ``seats`` gives each seat's ``person`` or computer level. The room's id, code and the
  host's token.
- ``POST /api/rooms/find``: ``{code}``: the id of the room of a short code.
- ``POST /api/rooms/ID``: ``{token | host | code}``: what this seat (or a spectator) sees.
- ``POST /api/rooms/ID/join``: ``{seat, name, code}``: take an open seat; its token.
- ``POST /api/rooms/ID/act``: ``{token, action}``: a move for the token's seat only.
- ``POST /api/rooms/ID/stand-in``: ``{host, seat, level}``: a computer player moves once for
  a person who takes too long.
- ``POST /api/rooms/ID/centre``: ``{token, rank}``: the person placed last picks the next
  deal's centre (``match.next_centre: last_picks``).
- ``POST /api/rooms/ID/next``: ``{host}``: deal the next hand once this one is over.
- ``POST /api/rooms/ID/record``: ``{token | host | code}``: the record of the deal just
  played (every hand as dealt: only once it is over).
- ``POST /api/rooms/ID/rules``: ``{token | host | code, lang}``: the room's rules card.
- ``GET  /api/rooms/ID/events?code=``: a stream of the room's versions (server-sent events;
  see ``app``): each tells a page to ask for its view again.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paiqi_core.agents import LEVELS
from paiqi_core.engine import Game
from paiqi_core.engine.game import game_of
from paiqi_core.profile import ProfileError
from paiqi_core.rules import rules_of
from paiqi_core.serve import profiles, replays
from paiqi_core.serve.rooms import Room, RoomError, Rooms, random_seed
from paiqi_core.serve.tables import LEVEL_WORDS, Table, TableError, Tables, TablesFull

MAX_SEED = 2**63
GAME_CACHE = 32  # compiled rule sets kept for new deals


# The request's Accept-Language header, as the server hands it to a route in the request's
# JSON (a GET's query parameters are its JSON); whatever the page sent under it is replaced.
ACCEPT_LANGUAGE = "accept_language"


class ApiError(Exception):
    """A request the API refuses: the status and the message the browser shows."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


@dataclass
class Api:
    """The routes of one server: its live tables and its results file."""

    db: Path | None = None
    tables: Tables = field(default_factory=Tables)
    rooms: Rooms = field(default_factory=Rooms)
    # serving the network: a request about a room without a token of it needs its code
    require_code: bool = False
    # profile files given to ``paiqi serve``, offered beside the built-ins: by id (``file:``
    # and the file's name), read when asked for (an edit to the file counts at once)
    files: dict[str, Path] = field(default_factory=dict)
    _builtins: list[dict[str, Any]] | None = field(default=None, init=False, repr=False)
    _games: OrderedDict[tuple[Any, ...], Game] = field(
        default_factory=OrderedDict, init=False, repr=False
    )
    _loading: dict[tuple[Any, ...], threading.Lock] = field(
        default_factory=dict, init=False, repr=False
    )
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    # -- profiles ------------------------------------------------------------------------
    def profiles(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The built-in profiles and the levels of the computer players."""
        return {
            "profiles": self.builtins(),
            "levels": [{"id": k, "text": LEVEL_WORDS.get(k, k)} for k in LEVELS],
        }

    def builtins(self) -> list[dict[str, Any]]:
        """The list of built-in profiles, read once (they are files of the package, which
        do not change while the server runs); many first requests at once wait for one
        reading instead of each reading every profile."""
        with self._lock:
            if self._builtins is None:
                self._builtins = profiles.builtins()
        return [*self._builtins, *self._given()]

    def _given(self) -> list[dict[str, Any]]:
        """The profile files given to the server, as the list of profiles shows them."""
        out = []
        for pid, path in self.files.items():
            found = self.check({"profile": pid})
            out.append(
                {
                    "id": pid,
                    "name": found.get("name") or path.name,
                    "players": found.get("players"),
                    "extends": "",
                    "description": f"the file {path.name} given to paiqi serve",
                    "file": True,
                }
            )
        return out

    def _resolved(self, args: dict[str, Any]) -> dict[str, Any]:
        """A request's profile args with a file given to the server read as its text."""
        path = self.files.get(args["profile"] or "")
        if path is None or args["text"] is not None:
            return args
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ApiError(400, f"{path.name}: cannot be read: {e}") from None
        return {**args, "profile": None, "text": text, "name": path.name}

    def _game_of(self, args: Mapping[str, Any]) -> Game:
        """The compiled game of a request's profile and options. The last ``GAME_CACHE``
        asked for are kept, so a new deal of the same rules does not load them again, and
        many deals of new rules at once load them once (the others wait for it)."""
        args = self._resolved(dict(args))
        key = (args["profile"], args["text"], args["name"], tuple(args["options"]))
        with self._lock:
            game = self._games.get(key)
            if game is not None:
                self._games.move_to_end(key)
                return game
            loading = self._loading.setdefault(key, threading.Lock())
        with loading:
            with self._lock:
                game = self._games.get(key)
            if game is not None:
                return game
            try:
                profile, _ = profiles.load(**args)
                game = game_of(rules_of(profile))
            finally:
                with self._lock:
                    self._loading.pop(key, None)
            with self._lock:
                self._games[key] = game
                while len(self._games) > GAME_CACHE:
                    self._games.popitem(last=False)
        return game

    def warm(self) -> None:
        """Read what visitors ask first: the list of built-in profiles, and the compiled
        game of each (a fraction of a second in all; the first deals otherwise pay it)."""
        for p in self.builtins():
            if p.get("file"):
                continue
            self._game_of({"profile": p["id"], "text": None, "name": "", "options": []})

    def source(self, pid: str) -> dict[str, Any]:
        """A built-in profile's YAML text (or a file given to the server)."""
        if pid in self.files:
            return {"id": pid, "yaml": self._resolved(_profile_args({"profile": pid}))["text"]}
        try:
            return {"id": pid, "yaml": profiles.builtin_source(pid)}
        except KeyError:
            raise ApiError(404, f"no built-in profile '{pid}'") from None

    def check(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Every located problem of a profile and options, or its explain text."""
        return profiles.check(**self._resolved(_profile_args(body)))

    # -- games ---------------------------------------------------------------------------
    def _checked_game(self, args: Mapping[str, Any]) -> Game:
        """The compiled game of a request's profile, or its located problems (400)."""
        try:
            return self._game_of(args)
        except ProfileError as e:
            raise ApiError(
                400,
                "the profile or its options have problems",
                problems=[profiles.problem_json(p) for p in e.problems],
            ) from None

    def new_game(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Deal a new game for the person at ``seat`` against ``levels``."""
        game = self._checked_game(_profile_args(body))
        seat = _int(body.get("seat", 0), "seat", 0, 63)
        levels = body.get("levels") or []
        if not isinstance(levels, list) or not all(isinstance(x, str) for x in levels):
            raise ApiError(400, "levels: a list of level names")
        seed = _seed(body)
        try:
            table = self.tables.add(Table(game, seat, levels, seed))
        except TablesFull as e:
            raise ApiError(503, str(e)) from None
        except TableError as e:
            raise ApiError(400, str(e)) from None
        with table.lock:
            return table.view()

    def game(self, table_id: str) -> dict[str, Any]:
        """The person's view of a game."""
        table = self._table(table_id)
        with table.lock:
            return table.view()

    def act(self, table_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The person's move; when it is not legal, the engine's reason and nothing changes."""
        table = self._table(table_id)
        action = _action(body)
        with table.lock:
            try:
                reason = table.act(action)
            except TableError as e:
                raise ApiError(409, str(e)) from None
            view = table.view()
        view["refused"] = reason
        return view

    def advance(self, table_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """Let the computer players move (at most ``max_moves``, and briefly)."""
        table = self._table(table_id)
        max_moves = _int(body.get("max_moves", 1000), "max_moves", 1, 10_000)
        with table.lock:
            try:
                made = table.advance(max_moves)
            except TableError as e:
                raise ApiError(409, str(e)) from None
            except Exception:
                view = table.view()  # the table is marked broken: the browser says so
                view["moved"] = 0
                return view
            view = table.view()
        view["moved"] = made
        return view

    def record(self, table_id: str) -> dict[str, Any]:
        """The record of a finished game (every hand as dealt: only once it is over)."""
        from paiqi_core.records import state_record

        table = self._table(table_id)
        with table.lock:
            if not table.state.over:
                raise ApiError(409, "the record is given once the game is over")
            return state_record(table.state)

    def game_rules(self, table_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The rules card of a game (the rules it is dealt with)."""
        return _rules_card(self._table(table_id).game, body)

    def _table(self, table_id: str) -> Table:
        try:
            return self.tables.get(table_id)
        except TableError as e:
            raise ApiError(404, str(e)) from None

    # -- rooms ---------------------------------------------------------------------------
    def new_room(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Open a room: ``seats`` says who sits at each seat (``person`` or a level)."""
        args = _profile_args(body)
        game = self._checked_game(args)
        seats = body.get("seats")
        if not isinstance(seats, list) or not all(isinstance(x, str) for x in seats):
            raise ApiError(400, "seats: a list, each seat's 'person' or a computer level")
        try:
            room = Room(game, seats, _seed(body), args)
            if self.db is not None:
                room.recorder = self._store_deal
            room = self.rooms.add(room)
        except TablesFull as e:
            raise ApiError(503, str(e)) from None
        except RoomError as e:
            raise ApiError(e.status, str(e)) from None
        with room.lock:
            view = room.view(None, True)
            return {"room": room.id, "code": room.code, "host": room.host, "view": view}

    def _store_deal(self, room: Room) -> None:
        """Store the room's finished deal in the results file, as its run's next game; a
        file that cannot be written is said in the room, and play goes on."""
        from paiqi_core.runs.store import StoreError
        from paiqi_core.serve.sessions import store_deal

        assert self.db is not None
        try:
            room.run = store_deal(
                self.db,
                room.run,
                room.kinds,
                room.source["options"],
                room.seed,
                room.deal,
                room.table.state,
            )
            room.unstored = None
        except StoreError as e:
            room.unstored = f"deal {room.deal + 1} was not stored: {e}"

    def find_room(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The id of the room of a short code."""
        code = body.get("code")
        if not isinstance(code, str) or len(code) > 40:
            raise ApiError(400, "code: the room's short code")
        with _room_errors():
            return {"room": self.rooms.find(code).id}

    def room(self, room_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """What the token's seat sees, or the host or a spectator."""
        with _room_errors():
            room = self.rooms.get(room_id)
            with room.lock:
                seat, host = self._access(room, body)
                return room.view(seat, host)

    def join_room(self, room_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """Take an open seat: the person's token and their view."""
        seat = _int(body.get("seat"), "seat", 0, 63)
        with _room_errors():
            room = self.rooms.get(room_id)
            with room.lock:
                _, host = self._access(room, body)
                token = room.join(seat, body.get("name"))
                return {"token": token, "view": room.view(seat, host)}

    def room_act(self, room_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """A move for the seat of the request's token; another seat's move is refused by
        the engine's words (it is not that seat's turn), nothing changes."""
        action = _action(body)
        with _room_errors():
            room = self.rooms.get(room_id)
            with room.lock:
                seat, host = self._access(room, body)
                if seat is None:
                    raise ApiError(403, "a move needs the token of the seat that makes it")
                reason = room.act(seat, action)
                view = room.view(seat, host)
        view["refused"] = reason
        return view

    def stand_in(self, room_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The host lets a computer player move once for a person who takes too long."""
        seat = _int(body.get("seat"), "seat", 0, 63)
        with _room_errors():
            room = self.rooms.get(room_id)
            with room.lock:
                own, _ = self._access(room, body, host_only=True)
                room.stand_in(seat, _str(body.get("level")) or "normal")
                return room.view(own, True)

    def pick_centre(self, room_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The person placed last picks the next deal's centre."""
        rank = body.get("rank")
        if not isinstance(rank, str | int) or isinstance(rank, bool):
            raise ApiError(400, "rank: the centre's rank, such as 9, J or A")
        with _room_errors():
            room = self.rooms.get(room_id)
            with room.lock:
                seat, host = self._access(room, body)
                if seat is None:
                    raise ApiError(403, "a pick needs the token of the seat that makes it")
                room.pick(seat, rank)
                return room.view(seat, host)

    def next_deal(self, room_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The host deals the room's next hand."""
        with _room_errors():
            room = self.rooms.get(room_id)
            with room.lock:
                own, _ = self._access(room, body, host_only=True)
                room.next_deal()
                return room.view(own, True)

    def room_record(self, room_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The record of the room's deal, once it is over."""
        with _room_errors():
            room = self.rooms.get(room_id)
            with room.lock:
                self._access(room, body)
                if not room.table.state.over:
                    raise ApiError(409, "the record is given once the deal is over")
                return room.records[-1]

    def room_rules(self, room_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The rules card of a room, for whoever may see the room."""
        with _room_errors():
            room = self.rooms.get(room_id)
            with room.lock:
                self._access(room, body)
                game = room.game
        return _rules_card(game, body)

    def listen(
        self, room_id: str, code: str, tell: Callable[[], None]
    ) -> tuple[Room, Callable[[], None]]:
        """Follow a room's changes (for its event stream): the room and the function that
        stops following. With ``require_code`` the room's code must be given."""
        try:
            room = self.rooms.get(room_id)
            if self.require_code and not _same(code, room.code):
                raise RoomError("this room needs its code", 403)
            return room, room.listen(tell)
        except RoomError as e:
            raise ApiError(e.status, str(e)) from None

    def _access(
        self, room: Room, body: Mapping[str, Any], host_only: bool = False
    ) -> tuple[int | None, bool]:
        """The seat of the request's token (None: none given) and whether the request is
        the host's; with ``require_code``, a request with neither needs the room's code."""
        host = _same(body.get("host"), room.host)
        if host_only and not host:
            raise RoomError("only the room's host may do this", 403)
        seat = room.seat_of(body.get("token"))
        coded = _same(body.get("code"), room.code)
        if seat is None and not host and self.require_code and not coded:
            raise RoomError("this room needs its code: ask the host for it", 403)
        return seat, host

    # -- replays -------------------------------------------------------------------------
    def read_replays(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The records of a JSON Lines text, and the located problems of other lines."""
        text = body.get("jsonl")
        if not isinstance(text, str):
            raise ApiError(400, "jsonl: the text of a record file")
        return replays.read_jsonl(text, _str(body.get("name")))

    def replay(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """A record (or a stored run's game) step by step."""
        name = profiles.safe_name(_str(body.get("name")), (".jsonl", ".json"), "record.jsonl")
        record = body.get("record")
        line = _int(body.get("line", 1), "line", 1, 1 << 40)
        agents: list[str] = []
        if record is None and "run" in body:
            record, agents = self._run_record(body)
            name, line = f"run {body['run']}", 1
        if not isinstance(record, dict):
            raise ApiError(400, "record: a game record object")
        from paiqi_core.records import check_record

        problems = check_record(record, name, line)
        if problems:
            raise ApiError(
                400, "not a game record", problems=[profiles.problem_json(p) for p in problems]
            )
        try:
            out = replays.steps(record, name, line, agents)
        except ProfileError as e:
            raise ApiError(
                400,
                "cannot replay this record",
                problems=[profiles.problem_json(p) for p in e.problems],
            ) from None
        out["record"] = record
        return out

    def runs(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The runs of the server's results file."""
        from paiqi_core.runs.store import StoreError

        if self.db is None:
            return {"db": None, "runs": []}
        try:
            return {"db": self.db.name, "runs": replays.run_games(self.db)}
        except StoreError as e:
            raise ApiError(400, str(e)) from None

    def _run_record(self, body: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        from paiqi_core.runs.store import StoreError

        if self.db is None or not self.db.is_file():
            raise ApiError(404, "no results file: start paiqi serve with --db FILE")
        try:
            return replays.run_record(
                self.db,
                _str(body.get("run")),
                _str(body.get("profile")),
                _int(body.get("game", 0), "game", 0, 1 << 40),
            )
        except (KeyError, StoreError, ProfileError) as e:
            raise ApiError(400, str(e).strip("'\"")) from None

    # -- routing -------------------------------------------------------------------------
    def route(self, method: str, path: str) -> Callable[[Mapping[str, Any]], dict[str, Any]] | None:
        """The handler of a request, or None when no route matches."""
        parts = [p for p in path.split("/") if p]
        if len(parts) < 2 or parts[0] != "api":
            return None
        rest = parts[1:]
        get = method == "GET"
        post = method == "POST"
        if rest == ["profiles"] and get:
            return self.profiles
        if len(rest) == 3 and rest[0] == "profiles" and rest[2] == "source" and get:
            return lambda body: self.source(rest[1])
        if rest == ["check"] and post:
            return self.check
        if rest == ["games"] and post:
            return self.new_game
        if len(rest) == 2 and rest[0] == "games" and get:
            return lambda body: self.game(rest[1])
        if len(rest) == 3 and rest[0] == "games":
            table_id, what = rest[1], rest[2]
            if what == "act" and post:
                return lambda body: self.act(table_id, body)
            if what == "advance" and post:
                return lambda body: self.advance(table_id, body)
            if what == "record" and get:
                return lambda body: self.record(table_id)
            if what == "rules" and get:
                return lambda body: self.game_rules(table_id, body)
        if rest[0] == "rooms" and post:
            if rest == ["rooms"]:
                return self.new_room
            if rest == ["rooms", "find"]:
                return self.find_room
            room_id = rest[1]
            if len(rest) == 2:
                return lambda body: self.room(room_id, body)
            handler = {
                "join": self.join_room,
                "act": self.room_act,
                "stand-in": self.stand_in,
                "next": self.next_deal,
                "centre": self.pick_centre,
                "record": self.room_record,
                "rules": self.room_rules,
            }.get(rest[2] if len(rest) == 3 else "")
            if handler is not None:
                return lambda body: handler(room_id, body)
        if rest == ["replays"] and post:
            return self.read_replays
        if rest == ["replay"] and post:
            return self.replay
        if rest == ["runs"] and get:
            return self.runs
        return None


def _rules_card(game: Game, body: Mapping[str, Any]) -> dict[str, Any]:
    """The rules card of ``game``'s rules in the request's language."""
    from paiqi_core.serve import rulescard

    try:
        lang = rulescard.language(body.get("lang"), _str(body.get(ACCEPT_LANGUAGE)))
    except ValueError as e:
        raise ApiError(400, str(e)) from None
    return rulescard.card(game.rules.profile, lang)


def _seed(body: Mapping[str, Any]) -> int:
    """The request's deal number, or a random one."""
    seed = body.get("seed")
    return random_seed() if seed in (None, "") else _int(seed, "seed", 0, MAX_SEED)


def _action(body: Mapping[str, Any]) -> int | str:
    """The request's action: a text or a number, checked for its form only."""
    action = body.get("action")
    if isinstance(action, bool) or not isinstance(action, int | str):
        raise ApiError(400, "action: a text such as H7, 'cover HK', 'pass' or a number")
    if isinstance(action, str) and len(action) > 40:
        raise ApiError(400, "action: too long to be an action")
    return action


def _same(given: Any, secret: str) -> bool:
    """Whether ``given`` is ``secret``, compared in constant time."""
    return isinstance(given, str) and secrets.compare_digest(given.encode(), secret.encode())


@contextmanager
def _room_errors() -> Iterator[None]:
    """A room's refusal as the API's error, with its status."""
    try:
        yield
    except RoomError as e:
        raise ApiError(e.status, str(e)) from None
    except TableError as e:
        raise ApiError(409, str(e)) from None


def _profile_args(body: Mapping[str, Any]) -> dict[str, Any]:
    """The profile of a request: a built-in ``profile`` id, or ``yaml`` text and its
    ``name``; with ``options``, ``--set`` lines."""
    options = body.get("options") or []
    if isinstance(options, str):
        options = [line for line in options.splitlines() if line.strip()]
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise ApiError(400, "options: a list of KEY=VALUE texts")
    text = body.get("yaml")
    if text is not None and not isinstance(text, str):
        raise ApiError(400, "yaml: the text of a profile")
    profile = body.get("profile")
    if text is None and not isinstance(profile, str):
        raise ApiError(400, "profile: a built-in profile id (or give yaml)")
    return {"profile": profile, "text": text, "name": _str(body.get("name")), "options": options}


def _int(value: Any, what: str, low: int, high: int) -> int:
    try:
        number = int(value) if not isinstance(value, bool) else None
    except (TypeError, ValueError):
        number = None
    if number is None or not low <= number <= high or isinstance(value, float):
        raise ApiError(400, f"{what}: a whole number from {low} to {high}")
    return number


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
