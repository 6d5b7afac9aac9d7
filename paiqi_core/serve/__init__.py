"""``paiqi serve``: the browser table. Play a profile against computer players, edit a
profile with live checks and its explanation beside it, and replay recorded games.

The server is uvicorn (``server``) running a Starlette application (``app``): the page's
files and the JSON API, whose routes are in ``api``; live games in ``tables``, drawn from
the person's own observation by ``view``; rooms of several people, deal after deal, in
``rooms`` (their event stream in ``app``); profiles from the browser in ``profiles``;
replays in ``replays``; the settlement broken down in ``settlement``; the rules card of a
game or room (the rule book's text of its rules) in ``rulescard``. The page is plain
HTML, CSS and JavaScript in ``static/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from paiqi_core.serve.server import PaiqiServer


def make_server(
    host: str = "127.0.0.1",
    port: int = 8765,
    *,
    db: Path | None = None,
    verbose: bool = False,
    files: Sequence[Path] = (),
) -> PaiqiServer:
    """A server bound to ``host:port`` (port 0: any free port), not yet serving; ``files``:
    profile files offered beside the built-ins."""
    return PaiqiServer(host, port, db=db, verbose=verbose, files=files)


__all__ = ["PaiqiServer", "make_server"]
