"""What the tests of ``paiqi serve`` share: a server running on a thread of the test."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from paiqi_core.serve import make_server
from paiqi_core.serve.server import PaiqiServer


@contextmanager
def serving(host: str = "127.0.0.1", port: int = 0, **options: Any) -> Iterator[PaiqiServer]:
    """A server on ``host`` (any free port by default), stopped and closed afterwards."""
    srv = make_server(host, port, **options)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
