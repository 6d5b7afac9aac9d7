"""``paiqi serve`` under load and against slow, oversized and misaddressed requests.

Every connection goes to the loopback address only, every loop is bounded in count and
time, and the server is stopped at the end of the module.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.serve import make_server
from paiqi_core.serve.api import Api
from paiqi_core.serve.server import PaiqiServer
from paiqi_core.serve.tables import Table, Tables, TablesFull

from .serve_support import serving

HOST = "127.0.0.1"
FAMILIES = ("doujue", "platform", "shichinarabe", "pagat")
PLAYERS = 200
MOVES = 6  # requests of each player after dealing
THINK = (0.5, 1.5)  # seconds a player takes before each move (a quick player)
START_SPREAD = 1.0  # the players' first deals come within this many seconds
PROFILE_CALLS = 100  # GET /api/profiles, one every PROFILE_EVERY seconds meanwhile
PROFILE_EVERY = 0.05
CUT_OFF = 10.0  # a slow client is cut off within this many seconds


class Served:
    """A ``paiqi serve --port 0`` process, its port and what it wrote on stderr."""

    def __init__(self, proc: subprocess.Popen[str], port: int, stderr: Path) -> None:
        self.proc = proc
        self.port = port
        self.stderr = stderr


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("serve")
    stderr = folder / "stderr.txt"
    with stderr.open("w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "paiqi_core.cli", "serve", "--port", "0", "--host", HOST,
             "--db", str(folder / "none.db")],
            stdout=subprocess.PIPE, stderr=err, text=True, cwd=folder,
        )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(f"paiqi serve: http://{HOST}:"), line
        port = int(line.split(":")[3].split("/")[0])
        yield Served(proc, port, stderr)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # Ctrl-C: the server stops by itself
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                pytest.fail("paiqi serve did not stop within 20 s of Ctrl-C")
    assert proc.returncode == 0
    assert "Traceback" not in stderr.read_text()


@pytest.fixture
def server() -> Iterator[PaiqiServer]:
    with serving(HOST) as srv:
        yield srv


def request(
    port: int,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        data = json.dumps(body).encode() if body is not None else None
        head = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=data, headers={**head, **(headers or {})})
        response = conn.getresponse()
        raw = response.read()
    finally:
        conn.close()
    return response.status, json.loads(raw) if raw.startswith(b"{") else raw


# -- load ----------------------------------------------------------------------------------
class Client:
    """A browser tab's connection: kept open between requests (HTTP/1.1 keep-alive), and
    opened again if the server closed it while the player was thinking."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def connect(self) -> None:
        self.conn = await asyncio.open_connection(HOST, self.port)

    def close(self) -> None:
        if self.conn is not None:
            self.conn[1].close()
            self.conn = None

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        """One request: status, JSON and the seconds from sending to the whole answer."""
        start = time.monotonic()
        if self.conn is None or self.conn[0].at_eof():
            self.close()
            await self.connect()
        assert self.conn is not None
        reader, writer = self.conn
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        writer.write(head.encode() + b"\r\n" + data)
        await writer.drain()
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        length = next(
            int(line.split(":")[1]) for line in lines if line.lower().startswith("content-length:")
        )
        payload = await reader.readexactly(length)
        return int(lines[0].split()[1]), json.loads(payload), time.monotonic() - start


async def _player(port: int, n: int, times: list[float], errors: list[str]) -> None:
    """A player: connect (all players at the same moment), deal a game of their own (the
    deals spread over ``START_SPREAD``), then move or let the computers move, thinking
    ``THINK`` seconds before each request."""
    rng = random.Random(n)
    body = {"profile": FAMILIES[n % 4], "seat": n % 4, "levels": ["easy"], "seed": n}
    client = Client(port)
    try:
        await client.connect()
        await asyncio.sleep(START_SPREAD * n / PLAYERS)
        status, view, took = await client.call("POST", "/api/games", body)
        times.append(took)
        if status != 200:
            errors.append(f"player {n}: new game: {status} {view}")
            return
        table = view["table"]
        for _ in range(MOVES):
            if view["over"]:
                break
            await asyncio.sleep(rng.uniform(*THINK))
            if view["waiting"]:
                status, view, took = await client.call(
                    "POST", f"/api/games/{table}/advance", {"max_moves": 3}
                )
            else:
                action = rng.choice(view["legal"])["text"]
                status, view, took = await client.call(
                    "POST", f"/api/games/{table}/act", {"action": action}
                )
                if status == 200 and view["refused"] is not None:
                    errors.append(f"player {n}: a legal move was refused: {view['refused']}")
            times.append(took)
            if status != 200:
                errors.append(f"player {n}: {status} {view}")
                return
    except (OSError, asyncio.IncompleteReadError) as e:  # a reset or refused connection
        errors.append(f"player {n}: {type(e).__name__}: {e}")
    finally:
        client.close()


async def _profiles(port: int, n: int, times: list[float], errors: list[str]) -> None:
    await asyncio.sleep(PROFILE_EVERY * n)
    client = Client(port)
    try:
        status, data, took = await client.call("GET", "/api/profiles")
    except (OSError, asyncio.IncompleteReadError) as e:
        errors.append(f"profiles {n}: {type(e).__name__}: {e}")
        return
    finally:
        client.close()
    times.append(took)
    if status != 200 or len(data["profiles"]) < 4:
        errors.append(f"profiles {n}: {status}")


async def _crowd(port: int) -> tuple[list[float], list[str]]:
    times: list[float] = []
    errors: list[str] = []
    tasks = [_player(port, n, times, errors) for n in range(PLAYERS)]
    tasks += [_profiles(port, n, times, errors) for n in range(PROFILE_CALLS)]
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=120)
    return times, errors


def test_two_hundred_players_at_once(served: Served) -> None:
    """200 players connect at the same moment, deal and play, with profile lists asked
    meanwhile: no connection is refused or reset, every answer is right, and 99% of the
    answers come within a second."""
    start = time.monotonic()
    times, errors = asyncio.run(_crowd(served.port))
    elapsed = time.monotonic() - start
    assert errors == []
    assert len(times) >= PLAYERS * 2 + PROFILE_CALLS
    times.sort()
    p99 = times[int(len(times) * 0.99) - 1]
    assert p99 < 1.0, f"p99 {p99:.3f} s over {len(times)} requests in {elapsed:.1f} s"


ROOMS = 50  # rooms of four people, no computer player
ROOM_MOVES = 30  # moves made in each room
MOVE_EVERY = 0.2  # seconds each person takes before their move


async def _follow(port: int, room: str, seen: list[int]) -> None:
    """A page's event stream of ``room``: each version read is appended to ``seen``."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(
            f"GET /api/rooms/{room}/events HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode()
        )
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                seen.append(int(json.loads(line[6:])["version"]))
    finally:
        writer.close()


async def _room(port: int, n: int, times: list[float], errors: list[str]) -> None:
    """A room of four people: open it, seat four, four pages following its events; then
    whoever is to move looks at their view, takes ``MOVE_EVERY`` and moves. At the end
    every move is in the game's history and every page saw the last version."""
    client = Client(port)
    pages: list[asyncio.Task[None]] = []
    seen: list[list[int]] = [[] for _ in range(4)]
    try:
        await asyncio.sleep(START_SPREAD * n / ROOMS)
        body = {"profile": "doujue", "seats": ["person"] * 4, "seed": 1000 + n}
        status, made, _ = await client.call("POST", "/api/rooms", body)
        if status != 200:
            errors.append(f"room {n}: open: {status} {made}")
            return
        rid = made["room"]
        tokens = []
        for seat in range(4):
            status, joined, _ = await client.call("POST", f"/api/rooms/{rid}/join", {"seat": seat})
            tokens.append(joined["token"])
        pages = [asyncio.create_task(_follow(port, rid, seen[s])) for s in range(4)]
        status, view, _ = await client.call("POST", f"/api/rooms/{rid}", {"token": tokens[0]})
        made_moves = 0
        while made_moves < ROOM_MOVES and not view["over"]:
            turn = view["turn"]
            status, mine, _ = await client.call(
                "POST", f"/api/rooms/{rid}", {"token": tokens[turn]}
            )
            await asyncio.sleep(MOVE_EVERY)
            move = {"token": tokens[turn], "action": mine["legal"][0]["text"]}
            status, view, took = await client.call("POST", f"/api/rooms/{rid}/act", move)
            if status != 200 or view["refused"] is not None:
                errors.append(f"room {n}: move {made_moves}: {status} {view.get('refused')}")
                return
            times.append(took)
            made_moves += 1
        played = [h for h in view["history"] if h["kind"] in ("play", "cover", "pass")]
        if len(played) != made_moves:
            errors.append(f"room {n}: {made_moves} moves made, {len(played)} in the history")
        last = view["room"]["version"]
        for _ in range(50):  # the pages are told within a moment
            if all(s and s[-1] == last for s in seen):
                break
            await asyncio.sleep(0.1)
        else:
            errors.append(f"room {n}: pages saw {[s[-1:] for s in seen]}, the room is at {last}")
    except (OSError, asyncio.IncompleteReadError, KeyError) as e:
        errors.append(f"room {n}: {type(e).__name__}: {e}")
    finally:
        for page in pages:
            page.cancel()
        await asyncio.gather(*pages, return_exceptions=True)
        client.close()


async def _rooms(port: int) -> tuple[list[float], list[str]]:
    times: list[float] = []
    errors: list[str] = []
    await asyncio.wait_for(
        asyncio.gather(*(_room(port, n, times, errors) for n in range(ROOMS))), timeout=180
    )
    return times, errors


def test_fifty_rooms_of_four_people(served: Served) -> None:
    """50 rooms of four people, each page following its room's events, each person moving
    ``MOVE_EVERY`` after their turn comes: no move is lost or refused, every page sees the
    last move, and 99% of the moves are answered within 300 ms."""
    start = time.monotonic()
    times, errors = asyncio.run(_rooms(served.port))
    elapsed = time.monotonic() - start
    assert errors == []
    assert len(times) == ROOMS * ROOM_MOVES
    times.sort()
    p99 = times[int(len(times) * 0.99) - 1]
    assert p99 < 0.3, f"p99 {p99:.3f} s over {len(times)} moves in {elapsed:.1f} s"


def test_profile_list_is_read_once() -> None:
    """Many first requests at once read the built-in profiles once, not once each."""
    from paiqi_core.serve import profiles

    calls = []
    real = profiles.builtins

    def counting() -> list[dict[str, Any]]:
        calls.append(1)
        return real()

    api = Api()
    original, profiles.builtins = profiles.builtins, counting
    try:
        threads = [threading.Thread(target=api.profiles, args=({},)) for _ in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        answer = api.profiles({})
    finally:
        profiles.builtins = original
    assert len(calls) == 1
    assert {"doujue", "pagat"} <= {p["id"] for p in answer["profiles"]}


# -- slow and oversized requests -----------------------------------------------------------
def _wait_closed(sock: socket.socket, limit: float, trickle: bytes = b"") -> tuple[float, bytes]:
    """Send ``trickle`` a byte every 0.2 s until the server answers or closes (or
    ``limit`` passes): seconds taken and what the server sent."""
    start = time.monotonic()
    got = b""
    sock.settimeout(0.2)
    i = 0
    while time.monotonic() - start < limit:
        try:
            chunk = sock.recv(65536)
            if not chunk:
                break
            got += chunk
        except TimeoutError:
            pass
        except ConnectionResetError:
            break
        if trickle:
            try:
                sock.sendall(trickle[i % len(trickle) : i % len(trickle) + 1])
            except OSError:
                break
            i += 1
    return time.monotonic() - start, got


def _others_are_served(port: int, errors: list[str], stop: threading.Event) -> None:
    while not stop.is_set():
        start = time.monotonic()
        status, _ = request(port, "GET", "/api/profiles")
        if status != 200 or time.monotonic() - start > 2:
            errors.append(f"{status} in {time.monotonic() - start:.2f} s")
        time.sleep(0.2)


def test_a_slow_body_is_cut_off_and_others_are_served(served: Served) -> None:
    errors: list[str] = []
    stop = threading.Event()
    other = threading.Thread(target=_others_are_served, args=(served.port, errors, stop))
    other.start()
    try:
        with socket.create_connection((HOST, served.port), timeout=5) as sock:
            sock.sendall(
                f"POST /api/check HTTP/1.1\r\nHost: {HOST}:{served.port}\r\n"
                "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n".encode()
            )
            took, got = _wait_closed(sock, 30, trickle=b" ")
    finally:
        stop.set()
        other.join(30)
    assert took < CUT_OFF, f"a body trickling in was allowed {took:.1f} s"
    assert got.startswith(b"HTTP/1.1 408"), got[:100]
    assert errors == []


@pytest.mark.parametrize("sent", [b"", b"GET /api/profiles HTTP/1.1\r\n"])
def test_a_silent_or_trickling_connection_is_closed(served: Served, sent: bytes) -> None:
    with socket.create_connection((HOST, served.port), timeout=5) as sock:
        sock.sendall(sent)
        took, got = _wait_closed(sock, 30, trickle=b"X-a: b\r\n" if sent else b"")
    assert took < CUT_OFF, f"a connection sending no whole request was kept {took:.1f} s"
    assert b"200" not in got


def test_a_too_large_body_is_refused_cleanly(served: Served) -> None:
    """10 MB: answered 413 (the body is read and dropped, so the answer is not lost to a
    reset), nothing on stderr, and the server goes on."""
    size = 10_000_000
    with socket.create_connection((HOST, served.port), timeout=30) as sock:
        sock.sendall(
            f"POST /api/replays HTTP/1.1\r\nHost: {HOST}:{served.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n".encode()
        )
        sock.sendall(b"{" + b" " * (size - 2) + b"}")  # read and dropped: no reset
        got = b""
        while b"\r\n\r\n" not in got:
            chunk = sock.recv(65536)
            if not chunk:
                break
            got += chunk
    assert got.startswith(b"HTTP/1.1 413"), got[:100]
    status, _ = request(served.port, "GET", "/api/profiles")
    assert status == 200
    time.sleep(0.5)
    assert served.stderr.read_text() == ""


# -- the Host header -----------------------------------------------------------------------
def test_port_80_takes_a_host_without_the_port() -> None:
    """Browsers leave ``:80`` out of the Host header: a server on port 80 takes it, and
    still refuses every other name."""
    try:
        srv = make_server(HOST, 80)
    except OSError:  # port 80 taken or not allowed here: the same check, given port 80
        srv = make_server(HOST, 0)
        from paiqi_core.serve.app import allowed_hosts

        srv.allowed_hosts = allowed_hosts(HOST, 80)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    port = int(srv.server_address[1])
    try:
        for host in ("127.0.0.1", "localhost", "LOCALHOST", "[::1]", "127.0.0.1:80"):
            status, _ = request(port, "GET", "/api/profiles", headers={"Host": host})
            assert status == 200, host
        for host in ("evil.example", "evil.example:80", "127.0.0.2", "localhost:8080", ""):
            status, data = request(port, "GET", "/api/profiles", headers={"Host": host})
            assert status == 421 and "addressed" in data["error"], host
    finally:
        srv.shutdown()
        srv.server_close()


def test_other_ports_still_need_the_port(server: PaiqiServer) -> None:
    port = int(server.server_address[1])
    for host in ("127.0.0.1", "localhost", "evil.example", f"evil.example:{port}"):
        status, _ = request(port, "GET", "/api/profiles", headers={"Host": host})
        assert status == 421, host
    status, _ = request(port, "GET", "/api/profiles", headers={"Host": f"localhost:{port}"})
    assert status == 200


# -- games kept while played ---------------------------------------------------------------
def test_a_game_outlives_a_hundred_newer_ones(server: PaiqiServer) -> None:
    port = int(server.server_address[1])
    status, first = request(port, "POST", "/api/games", {"profile": "pagat", "seat": 0, "seed": 1})
    assert status == 200
    for seed in range(100):
        status, _ = request(port, "POST", "/api/games", {"profile": "pagat", "seed": seed})
        assert status == 200
    status, view = request(port, "GET", f"/api/games/{first['table']}")
    assert status == 200 and view["history"] == first["history"]
    move = view["legal"][0]["text"] if not view["waiting"] else None
    if move is None:
        status, view = request(port, "POST", f"/api/games/{first['table']}/advance", {})
    else:
        status, view = request(port, "POST", f"/api/games/{first['table']}/act", {"action": move})
    assert status == 200 and len(view["history"]) > len(first["history"])


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _table(seed: int) -> Table:
    from paiqi_core.engine import Game

    return Table(Game("pagat"), 0, [], seed)


def test_games_go_after_an_idle_time_and_a_full_server_says_so() -> None:
    clock = Clock()
    tables = Tables(limit=3, idle=600, clock=clock)
    a, b, c = (tables.add(_table(s)) for s in range(3))
    with pytest.raises(TablesFull, match="3 games"):
        tables.add(_table(3))
    assert len(tables) == 3  # none was dropped to make room
    clock.now += 500
    tables.get(a.id)  # a is played; b and c are not
    clock.now += 200  # b and c idle 700 s, a 200 s
    d = tables.add(_table(4))
    assert tables.get(a.id) is a and tables.get(d.id) is d
    for gone in (b, c):
        with pytest.raises(ValueError, match="no such game"):
            tables.get(gone.id)


def test_a_full_server_answers_503(server: PaiqiServer) -> None:
    server.api.tables = Tables(limit=2)
    port = int(server.server_address[1])
    for seed in range(2):
        status, _ = request(port, "POST", "/api/games", {"profile": "pagat", "seed": seed})
        assert status == 200
    status, data = request(port, "POST", "/api/games", {"profile": "pagat", "seed": 9})
    assert status == 503 and "already keeps 2 games" in data["error"]


def test_the_page_keeps_its_game_alive() -> None:
    """While its tab is open the page asks for its game more often than games expire."""
    import re

    from paiqi_core.serve.server import STATIC
    from paiqi_core.serve.tables import IDLE_SECONDS

    script = (STATIC / "play.js").read_text(encoding="utf-8")
    found = re.search(r"KEEP_ALIVE_MS = (\d[\d_]*)", script)
    assert found is not None
    assert int(found.group(1).replace("_", "")) / 1000 < IDLE_SECONDS / 4
    assert "api.game(view.table)" in script


def test_interrupting_the_command_stops_it_cleanly(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "paiqi_core.cli", "serve", "--port", "0", "--db",
         str(tmp_path / "none.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    port = int(line.split(":")[3].split("/")[0])
    assert request(port, "GET", "/api/profiles")[0] == 200
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Traceback" not in err
