"""The web application: the page's files and the JSON API, as a Starlette application.

- Static files come from ``static/`` beside this module only: a path is resolved and must
  stay inside that folder, and only known file types are served.
- A request body is at most ``MAX_BODY`` bytes, and must arrive in time (``body_seconds``
  plus a second for each MiB); a JSON request must say it is JSON (a page of another site
  cannot post one to this server without the browser asking first).
- Bound to a loopback address, the server answers only requests addressed to that address
  or to ``localhost`` (another site's name pointed at 127.0.0.1 gets nothing).
- A room's requests are bounded further (see ``rooms``): its moves and views carry at most
  ``MAX_ROOM_BODY`` bytes, and a client other than this machine makes at most
  ``CLIENT_RATE`` room requests a second (a burst of ``CLIENT_BURST``). A room's event
  stream (``GET /api/rooms/ID/events``) tells every open page of each change at once.
- The game work runs on worker threads, never on the event loop, so a slow request (a
  search player thinking, a large profile being checked) holds up no other request; an
  error in one game answers that request with a 500 and the message, and the server goes on.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from paiqi_core.serve.api import ACCEPT_LANGUAGE, Api, ApiError
from paiqi_core.serve.rooms import Bucket

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 8 << 20  # a record file of a few hundred games; a profile is at most 1 MiB
BODY_SECONDS = 5.0  # a request body must arrive within this, plus a second per MiB
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
}
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
}
MAX_ROOM_BODY = 4096  # a move, a join or a view of a room (opening one may carry a profile)
CLIENT_RATE = 20.0  # room requests a second from one client other than this machine
CLIENT_BURST = 60
MAX_CLIENTS = 10_000  # clients whose rate is followed (the quietest are forgotten first)
KEEP_ALIVE_SECONDS = 15.0  # an event stream sends a comment this often when nothing changes
EVENTS = re.compile(r"/api/rooms/([A-Za-z0-9_-]{1,40})/events")
MAX_ACCEPT_LANGUAGE = 200  # characters of an Accept-Language header read
MISDIRECTED = "this server answers only requests addressed to it by its address"


def static_file(url_path: str, root: Path = STATIC) -> Path | None:
    """The file of ``root`` that ``url_path`` names, or None: nothing outside ``root``,
    no hidden files, only the types of ``TYPES``."""
    path = unquote(url_path)
    if path in ("", "/"):
        path = "/index.html"
    if "\x00" in path or "\\" in path:
        return None
    parts = [p for p in path.split("/") if p]
    if any(p.startswith(".") for p in parts):
        return None
    base = root.resolve()
    try:
        candidate = base.joinpath(*parts).resolve()
    except (OSError, ValueError):
        return None
    if not candidate.is_relative_to(base) or not candidate.is_file():
        return None
    if candidate.suffix not in TYPES:
        return None
    return candidate


def _static(url_path: str, root: Path) -> tuple[Path, bytes] | None:
    found = static_file(url_path, root)
    return None if found is None else (found, found.read_bytes())


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 in brackets or not) is this machine
    only: ``localhost`` or a loopback address."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str, port: int) -> frozenset[str] | None:
    """The Host headers a server bound to ``host:port`` answers: None (any) unless it is
    bound to a loopback address; then the loopback names with the port, and also without
    it on port 80, since browsers leave the default port out of the Host header."""
    if not is_loopback(host):
        return None
    names = {host.strip("[]").lower(), "localhost", "127.0.0.1", "::1"}
    shown = {f"[{n}]" if ":" in n else n for n in names}
    allowed = {f"{n}:{port}" for n in shown}
    if port == 80:
        allowed |= shown
    return frozenset(allowed)


def host_allowed(header: str | None, allowed: frozenset[str] | None) -> bool:
    """Whether a request with this Host header is answered (``allowed`` as given by
    ``allowed_hosts``)."""
    if allowed is None:
        return True
    return (header or "").strip().lower() in allowed


def _json_response(status: int, data: Any, headers: Mapping[str, str] | None = None) -> Response:
    body = json.dumps(data, ensure_ascii=False, default=str).encode("utf-8")
    return _response(status, body, "application/json; charset=utf-8", headers=headers)


def _error(status: int, message: str, **extra: Any) -> Response:
    return _json_response(status, {"error": message, **extra})


def _response(
    status: int,
    body: bytes,
    content_type: str,
    cache: bool = False,
    headers: Mapping[str, str] | None = None,
) -> Response:
    head = {"Cache-Control": "no-cache" if cache else "no-store", **(headers or {})}
    return Response(body, status_code=status, media_type=content_type, headers=head)


class Clients:
    """The rate of room requests of each client address (a ``Bucket`` each); the clients
    followed are bounded, the least recent forgotten first."""

    def __init__(self, rate: float = CLIENT_RATE, burst: int = CLIENT_BURST) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, Bucket] = {}
        self._lock = threading.Lock()

    def allow(self, client: str) -> bool:
        """Whether ``client`` may make one more request now (loopback always may)."""
        if is_loopback(client):
            return True
        with self._lock:
            bucket = self._buckets.pop(client, None)
            if bucket is None:
                if len(self._buckets) >= MAX_CLIENTS:
                    del self._buckets[next(iter(self._buckets))]
                bucket = Bucket(self.rate, self.burst, time.monotonic)
            self._buckets[client] = bucket  # the most recent last
            return bucket.take()


@dataclass
class Settings:
    """What the application needs from its server."""

    api: Api
    static: Path
    verbose: bool
    allowed_hosts: frozenset[str] | None
    workers: anyio.CapacityLimiter
    body_seconds: float = BODY_SECONDS
    clients: Clients | None = None
    stopping: Callable[[], bool] = lambda: False


class Guard:
    """The checks every request passes first, whatever answers it: the Host check on a
    loopback address (421 otherwise), and the security headers on every answer."""

    def __init__(self, app: ASGIApp, settings: Callable[[], Settings]) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a misdirected request, or pass it on with the headers added."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for k, v in SECURITY_HEADERS.items():
                    if k.lower().encode() not in present:
                        headers.append((k.lower().encode(), v.encode()))
                message = {**message, "headers": headers}
            await send(message)

        host = None
        for name, value in scope["headers"]:
            if name == b"host":
                host = value.decode("latin-1")
                break
        if not host_allowed(host, self.settings().allowed_hosts):
            if scope["type"] == "http":
                await _error(421, MISDIRECTED)(scope, receive, with_headers)
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, with_headers)


def build_app(settings: Callable[[], Settings]) -> ASGIApp:
    """The application: the API under ``/api/``, the page's files everywhere else.
    ``settings`` is asked on each request (a test may change the server's state)."""

    async def endpoint(request: Request) -> Response:
        s = settings()
        method = "GET" if request.method == "HEAD" else request.method
        path = urlsplit(request.scope.get("raw_path", b"").decode("latin-1")).path
        path = path or request.url.path
        if path.startswith("/api/rooms"):
            client = request.client.host if request.client else ""
            if s.clients is not None and not s.clients.allow(client):
                return _error(429, "too many requests: wait a moment")
            if method == "GET" and (events := EVENTS.fullmatch(path)):
                return await _events(request, s, events.group(1))
            length = request.headers.get("content-length") or "0"
            if path.count("/") > 2 and path != "/api/rooms/find" and _over(length, MAX_ROOM_BODY):
                return _error(413, f"a room's request carries at most {MAX_ROOM_BODY:,} bytes")
        if path.startswith("/api/"):
            return await _api(request, s, method, path)
        if method != "GET":
            return _error(405, "method not allowed")
        found = await anyio.to_thread.run_sync(_static, path, s.static, limiter=s.workers)
        if found is None:
            return _error(404, "not found")
        return _response(200, found[1], TYPES[found[0].suffix], cache=True)

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
        return _error(status, str(detail).lower())

    app = Starlette(
        routes=[Route("/{path:path}", endpoint, methods=["GET", "HEAD", "POST"])],
        exception_handlers={HTTPException: http_error},
    )
    app.router.redirect_slashes = False
    return Guard(app, settings)


async def _api(request: Request, s: Settings, method: str, path: str) -> Response:
    raw = b""
    if method == "POST":
        body = await _read_body(request, s.body_seconds)
        if isinstance(body, Response):
            return body
        raw = body
    kind = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
    given = {
        **(dict(request.query_params) if method == "GET" else {}),
        ACCEPT_LANGUAGE: request.headers.get("accept-language", "")[:MAX_ACCEPT_LANGUAGE],
    }
    status, data = await anyio.to_thread.run_sync(
        _answer, s, method, path, raw, kind, given, limiter=s.workers
    )
    return _response(status, data, "application/json; charset=utf-8")


def _over(length: str, limit: int) -> bool:
    """Whether a Content-Length says more than ``limit`` bytes (or is no number)."""
    return not length.isdigit() or int(length) > limit


async def _events(request: Request, s: Settings, room_id: str) -> Response:
    """The room's event stream: a ``version`` event now and after each change (a page
    then asks for its own view), a comment every ``KEEP_ALIVE_SECONDS`` otherwise; it
    ends when the page goes or the server stops."""
    loop = asyncio.get_running_loop()
    changed = asyncio.Event()

    def tell() -> None:  # on the thread that changed the room
        loop.call_soon_threadsafe(changed.set)

    try:
        room, stop = s.api.listen(room_id, request.query_params.get("code", ""), tell)
    except ApiError as e:
        return _error(e.status, e.message)

    async def stream() -> Any:
        try:
            last = -1
            quiet = 0.0
            while not s.stopping():
                changed.clear()
                version = room.version
                if version != last:
                    last, quiet = version, 0.0
                    yield f"event: version\ndata: {json.dumps({'version': version})}\n\n"
                    continue
                with anyio.move_on_after(1.0):
                    await changed.wait()
                if changed.is_set():
                    continue
                if await request.is_disconnected():
                    return
                quiet += 1.0
                if quiet >= KEEP_ALIVE_SECONDS:
                    quiet = 0.0
                    yield ": still here\n\n"
        finally:
            stop()

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _read_body(request: Request, base_seconds: float) -> bytes | Response:
    """The request's body, or the error answer: chunked (411), over ``MAX_BODY`` (413,
    without reading it), or not all there in time (408, and the connection is closed)."""
    if request.headers.get("transfer-encoding"):
        return _error(411, "send a Content-Length, not a chunked body")
    try:
        length = int(request.headers.get("content-length") or 0)
    except ValueError:
        return _error(400, "bad Content-Length")
    if length < 0 or length > MAX_BODY:
        return _error(413, f"request body over {MAX_BODY:,} bytes")
    chunks: list[bytes] = []
    try:
        with anyio.fail_after(base_seconds + length / (1 << 20)):
            async for chunk in request.stream():
                chunks.append(chunk)
    except TimeoutError:
        return _json_response(
            408,
            {"error": f"the request body did not arrive within {base_seconds:g} seconds"},
            headers={"Connection": "close"},
        )
    except ClientDisconnect:
        return _error(400, "the request body was cut off")
    return b"".join(chunks)


def _answer(
    s: Settings, method: str, path: str, raw: bytes, kind: str, given: Mapping[str, str]
) -> tuple[int, bytes]:
    """The status and JSON text of an API request, on a worker thread."""
    status, data = _route(s, method, path, raw, kind, given)
    return status, json.dumps(data, ensure_ascii=False, default=str).encode("utf-8")


def _route(
    s: Settings, method: str, path: str, raw: bytes, kind: str, given: Mapping[str, str]
) -> tuple[int, Any]:
    """The status and JSON of an API request: the body's checks, the route, and the
    route's answer or error. ``given`` is added to the body: a GET's query parameters,
    and the request's Accept-Language (``api.ACCEPT_LANGUAGE``)."""
    route = s.api.route(method, path)
    body: dict[str, Any] = {}
    if method == "POST":
        if raw and kind != "application/json":
            return 415, {"error": "send JSON (Content-Type: application/json)"}
        if raw:
            try:
                data = json.loads(raw.decode("utf-8"))
            except (ValueError, RecursionError) as e:  # not UTF-8, not JSON, 5,000 digits
                return 400, {"error": f"not JSON: {e}"}
            if not isinstance(data, dict):
                return 400, {"error": "send a JSON object"}
            body = data
    body.update(given)
    if route is None:
        return 404, {"error": f"no route {method} {path}"}
    try:
        return 200, route(body)
    except ApiError as e:
        return e.status, {"error": e.message, **e.extra}
    except Exception as e:  # one game's failure answers this request only
        if s.verbose:
            traceback.print_exc(file=sys.stderr)
        return 500, {"error": f"internal error: {type(e).__name__}: {e}"}
