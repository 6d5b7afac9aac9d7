"""``paiqi serve``: the browser table (play, edit, replay) on a local web server."""

from __future__ import annotations

import argparse
import sys
import threading
import webbrowser
from pathlib import Path

from paiqi_core.cli.common import EXIT_OK, BadInput

SWITCH_SECONDS = 0.0005


def cmd_serve(args: argparse.Namespace) -> int:
    """``paiqi serve``: serve the page and its API until interrupted."""
    from paiqi_core.serve import make_server

    if not 0 <= args.port <= 65535:
        raise BadInput(f"--port: {args.port} is not a port (0 to 65535; 0 picks a free one)")
    db = Path(args.db) if args.db else None
    files = [Path(f) for f in args.profiles]
    names = [f.name for f in files]
    for f in files:
        if names.count(f.name) > 1:
            raise BadInput(f"{f}: two profile files named {f.name}: rename one")
        if not f.is_file():
            raise BadInput(f"{f}: no such profile file")
    try:
        server = make_server(args.host, args.port, db=db, verbose=args.verbose, files=files)
    except OSError as e:
        raise BadInput(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    # the event loop gets the interpreter back from the worker threads within half a
    # millisecond (not five), so a game being worked on delays the other requests little
    sys.setswitchinterval(SWITCH_SECONDS)
    for pid, path in server.api.files.items():  # a file with problems: said before serving
        found = server.api.check({"profile": pid})
        if not found["ok"]:
            first = found["problems"][0]
            server.server_close()
            raise BadInput(
                f"{path}:{first.get('line') or 1}:{first.get('col') or 1}: {first['message']}"
            )
    server.api.warm()  # the profiles and their engines: ready when the address is shown
    print(f"paiqi serve: {server.url}  (Ctrl-C stops it)", flush=True)
    if server.api.require_code:
        print(
            f"paiqi serve: serving the network ({server.network_url}): others join a room "
            "with its code; no accounts, no TLS: use it on a network you trust",
            flush=True,
        )
    if args.open:
        threading.Timer(0.3, webbrowser.open, (server.url,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return EXIT_OK
