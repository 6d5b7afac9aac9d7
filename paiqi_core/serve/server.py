"""The HTTP server: the standard library's threading server, the JSON API and the page.

- Static files come from ``static/`` beside this module only: a path is resolved and must
  stay inside that folder, and only known file types are served.
- A request body is at most ``MAX_BODY`` bytes; a JSON request must say it is JSON (a page
  of another site cannot post one to this server without the browser asking first).
- Bound to a loopback address, the server answers only requests addressed to that address
  or to ``localhost`` (another site's name pointed at 127.0.0.1 gets nothing).
- Every request is handled on its own thread; an error in one game answers that request
  with a 500 and the message, and the server goes on.
"""

from __future__ import annotations

import ipaddress
import json
import sys
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from paiqi_core.serve.api import Api, ApiError

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 8 << 20  # a record file of a few hundred games; a profile is at most 1 MiB
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


class Handler(BaseHTTPRequestHandler):
    """One request: a static file, or an API route answered with JSON."""

    server: PaiqiServer
    server_version = "paiqi"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = 60  # seconds a connection may stay silent (a stalled client frees its thread)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet unless the server was asked to log."""
        if self.server.verbose:
            super().log_message(format, *args)

    # -- answers --------------------------------------------------------------------------
    def _send(self, status: int, body: bytes, content_type: str, cache: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache" if cache else "no-store")
        for k, v in SECURITY_HEADERS.items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        body = json.dumps(data, ensure_ascii=False, default=str).encode("utf-8")
        self._send(status, body, "application/json; charset=utf-8")

    def _error(self, status: int, message: str, **extra: Any) -> None:
        self._json(status, {"error": message, **extra})

    # -- checks ---------------------------------------------------------------------------
    def _host_ok(self) -> bool:
        allowed = self.server.allowed_hosts
        if allowed is None:
            return True
        host = (self.headers.get("Host") or "").strip().lower()
        return host in allowed

    def _body(self) -> dict[str, Any] | None:
        """The request's JSON object, or None after answering with the error."""
        length_text = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding"):
            self._error(411, "send a Content-Length, not a chunked body")
            return None
        try:
            length = int(length_text or 0)
        except ValueError:
            self._error(400, "bad Content-Length")
            return None
        if length < 0 or length > MAX_BODY:
            self.close_connection = True
            self._error(413, f"request body over {MAX_BODY:,} bytes")
            return None
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        raw = self.rfile.read(length) if length else b""
        if length and kind != "application/json":
            self._error(415, "send JSON (Content-Type: application/json)")
            return None
        if not raw:
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError) as e:  # not UTF-8, not JSON, a 5,000-digit number
            self._error(400, f"not JSON: {e}")
            return None
        if not isinstance(data, dict):
            self._error(400, "send a JSON object")
            return None
        return data

    # -- methods --------------------------------------------------------------------------
    def do_GET(self) -> None:
        """A static file or an API route."""
        self._handle("GET")

    def do_HEAD(self) -> None:
        """As GET, without the body."""
        self._handle("GET")

    def do_POST(self) -> None:
        """An API route."""
        self._handle("POST")

    def _handle(self, method: str) -> None:
        if not self._host_ok():
            self._error(421, "this server answers only requests addressed to it by its address")
            return
        path = urlsplit(self.path).path
        if path.startswith("/api/"):
            self._api(method, path)
            return
        if method != "GET":
            self._error(405, "method not allowed")
            return
        found = static_file(path, self.server.static)
        if found is None:
            self._error(404, "not found")
            return
        self._send(200, found.read_bytes(), TYPES[found.suffix], cache=True)

    def _api(self, method: str, path: str) -> None:
        route = self.server.api.route(method, path)
        body: dict[str, Any] | None = {}
        if method == "POST":
            body = self._body()
            if body is None:
                return
        if route is None:
            self._error(404, f"no route {method} {path}")
            return
        try:
            result = route(body or {})
        except ApiError as e:
            self._error(e.status, e.message, **e.extra)
            return
        except Exception as e:  # one game's failure answers this request only
            if self.server.verbose:
                traceback.print_exc(file=sys.stderr)
            self._error(500, f"internal error: {type(e).__name__}: {e}")
            return
        self._json(200, result)


class PaiqiServer(ThreadingHTTPServer):
    """The server of ``paiqi serve``: the API's state and the folder of the page."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 8765,
        *,
        db: Path | None = None,
        static: Path = STATIC,
        verbose: bool = False,
    ) -> None:
        self.api = Api(db=db)
        self.static = static
        self.verbose = verbose
        self.allowed_hosts: set[str] | None = None
        super().__init__((host, port), Handler)
        port = self.server_address[1]
        if _is_loopback(host):
            names = {host.strip("[]").lower(), "localhost", "127.0.0.1", "[::1]", "::1"}
            self.allowed_hosts = {f"{n}:{port}" for n in names} | {
                f"[{n}]:{port}" for n in names if ":" in n
            }

    @property
    def url(self) -> str:
        """The address to open in a browser."""
        host, port = self.server_address[:2]
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else str(host)
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{port}/"


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


__all__ = ["MAX_BODY", "STATIC", "HTTPStatus", "Handler", "PaiqiServer", "static_file"]
