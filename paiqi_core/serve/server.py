"""The HTTP server: uvicorn serving the application of ``app`` on a socket bound at once.

- The listening socket is bound when the server is made (so a port in use is reported
  before anything else) and listens with a queue of ``BACKLOG`` connections, so a crowd of
  players connecting at once is queued rather than reset.
- One event loop reads and writes every connection; the game work runs on worker threads
  (see ``app``). A connection must send a request's head within ``HEAD_SECONDS`` of
  connecting or of its previous answer, however slowly it trickles in; a request's body
  must arrive within ``app.BODY_SECONDS`` (plus a second per MiB). A silent or slow client
  is cut off then, and holds no thread meanwhile.
- At most ``MAX_CONNECTIONS`` connections are served at once; a request beyond that is
  answered 503 at once.
- ``shutdown`` (or Ctrl-C in ``paiqi serve``) stops taking connections, lets the requests
  under way finish (for at most ``SHUTDOWN_SECONDS``) and returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from paiqi_core.serve.api import Api
from paiqi_core.serve.app import (
    MAX_BODY,
    STATIC,
    Clients,
    Settings,
    allowed_hosts,
    build_app,
    is_loopback,
    static_file,
)

BACKLOG = 1024  # connections waiting to be accepted (the system may allow fewer)
HEAD_SECONDS = 5.0  # a request's head must arrive within this (also the keep-alive wait)
WORKERS = 8  # threads doing game work at once (few: they share one interpreter lock)
MAX_CONNECTIONS = 1000  # connections served at once; a request beyond gets a 503
SHUTDOWN_SECONDS = 5.0  # requests under way may finish within this when the server stops


class HeadDeadline(H11Protocol):
    """uvicorn's HTTP/1.1 connection with one more rule: the head of each request must
    arrive within ``timeout_keep_alive`` seconds of connecting or of the previous answer.
    (uvicorn alone waits for a first request for ever, and a byte now and then keeps an
    idle connection open for ever.)"""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Start waiting for the first request's head."""
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def handle_events(self) -> None:
        """Read what came; a new request's head stops the clock (the application bounds
        the time its body may take)."""
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:
            self._disarm()

    def on_response_complete(self) -> None:
        """After an answer, the next request's head (or the end of a body left unread,
        such as one refused as too large) must come within the deadline too."""
        self._arm()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.timeout_keep_alive, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        with contextlib.suppress(h11.LocalProtocolError):
            self.conn.send(h11.ConnectionClosed())
        self.transport.close()


class PaiqiServer:
    """The server of ``paiqi serve``: the API's state, the folder of the page, and the
    socket it listens on (bound when made; port 0 picks a free port)."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 8765,
        *,
        db: Path | None = None,
        static: Path = STATIC,
        verbose: bool = False,
        files: Sequence[Path] = (),
    ) -> None:
        # serving the network: a room is reached without a token only with its code
        given = {f"file:{path.name}": path for path in files}
        self.api = Api(db=db, require_code=not is_loopback(host), files=given)
        self.static = static
        self.verbose = verbose
        self.socket = _listen(host, port)
        self.server_address: tuple[Any, ...] = self.socket.getsockname()
        self.allowed_hosts = allowed_hosts(host, int(self.server_address[1]))
        self._uvicorn: uvicorn.Server | None = None
        self._stop = threading.Event()
        self._serving = threading.Lock()
        self._workers = anyio.CapacityLimiter(WORKERS)
        self._clients = Clients()

    def settings(self) -> Settings:
        """What the application reads on each request (a test may change the server's
        ``api`` or ``allowed_hosts`` while it runs)."""
        return Settings(
            self.api,
            self.static,
            self.verbose,
            self.allowed_hosts,
            self._workers,
            clients=self._clients,
            stopping=self._stop.is_set,
        )

    def serve_forever(self) -> None:
        """Answer requests until ``shutdown`` (or Ctrl-C, when run on the main thread:
        then KeyboardInterrupt is raised once the server has stopped)."""
        config = uvicorn.Config(
            build_app(self.settings),
            http=HeadDeadline,
            loop="auto",  # uvloop where it is installed
            ws="none",
            lifespan="off",
            timeout_keep_alive=int(HEAD_SECONDS),
            timeout_graceful_shutdown=int(SHUTDOWN_SECONDS),
            limit_concurrency=MAX_CONNECTIONS,
            backlog=BACKLOG,
            server_header=False,
            proxy_headers=False,  # no proxy in front: the client is who connected
            log_level="info" if self.verbose else "error",
            access_log=self.verbose,
        )
        with self._serving:
            if self._stop.is_set():
                return
            self.api.warm()  # (if not yet) before the first requests, which wait meanwhile
            self._uvicorn = uvicorn.Server(config)
            self._uvicorn.run(sockets=[self.socket])

    def shutdown(self) -> None:
        """Stop ``serve_forever`` (from another thread) and wait until it has returned."""
        self._stop.set()
        if self._uvicorn is not None:
            self._uvicorn.should_exit = True
        with self._serving:
            pass

    def server_close(self) -> None:
        """Close the listening socket."""
        self.socket.close()

    @property
    def url(self) -> str:
        """The address to open in a browser."""
        host, port = self.server_address[:2]
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else str(host)
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{port}/"

    @property
    def network_url(self) -> str:
        """The address others of the network open (the host's own, when bound to all)."""
        host, port = self.server_address[:2]
        if host in ("0.0.0.0", "", "::"):
            host = _this_machine() or host
        shown = f"[{host}]" if ":" in str(host) else str(host)
        return f"http://{shown}:{port}/"


def _this_machine() -> str | None:
    """This machine's address on its network (the one a route outwards leaves from; no
    packet is sent), or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (OSError if it cannot be), listening."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    name = host.strip("[]")
    if host.lower() == "localhost":
        family, name = socket.AF_INET, "127.0.0.1"
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((name, port))
        sock.listen(BACKLOG)
    except BaseException:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


__all__ = [
    "BACKLOG",
    "HEAD_SECONDS",
    "MAX_BODY",
    "STATIC",
    "HeadDeadline",
    "PaiqiServer",
    "is_loopback",
    "static_file",
]
