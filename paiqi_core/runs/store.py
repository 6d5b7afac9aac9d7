"""The results store: one SQLite file holding runs, their finished batches and one row per
game per seat. A batch's rows and its 'finished' mark are written in one transaction, so an
interrupted run loses no finished batch and never keeps half of one. The file uses SQLite's
write-ahead log (a ``-wal`` file beside it while a run writes), so it belongs on a local
disk rather than a network share."""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from paiqi_core.runs.batch import COLUMNS, Row

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY, created REAL, command TEXT, spec TEXT
);
CREATE TABLE IF NOT EXISTS batches (
    run TEXT, profile TEXT, start INTEGER, PRIMARY KEY (run, profile, start)
);
CREATE TABLE IF NOT EXISTS seats (
    run TEXT, {", ".join(c + (" REAL" if c in ("win", "money_value") else "") for c in COLUMNS)},
    PRIMARY KEY (run, profile, game, seat)
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class RunSpec:
    """Everything that decides a run's results."""

    command: str  # "compare" or "simulate"
    profiles: tuple[str, ...]
    overrides: tuple[str, ...]
    agents: tuple[str, ...]
    rotate: bool
    seed: int
    games: int
    batch: int
    players: int

    def to_json(self) -> str:
        """The spec as JSON text (as stored)."""
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @staticmethod
    def from_json(text: str) -> RunSpec:
        """The spec stored as ``text``."""
        d = json.loads(text)
        for key in ("profiles", "overrides", "agents"):
            d[key] = tuple(d[key])
        return RunSpec(**d)


class Store:
    """An SQLite results file: runs, their finished batches, and their rows."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(path)
        # A write-ahead log commits a batch without waiting for the disk: a killed process
        # still keeps every committed batch, and the file is never left half-written.
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    def new_run(self, spec: RunSpec) -> str:
        """Record a new run; its id."""
        run = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        with self.db:
            self.db.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?)",
                (run, time.time(), spec.command, spec.to_json()),
            )
        return run

    def spec(self, run: str) -> RunSpec | None:
        """The spec of ``run`` (None if there is no such run)."""
        row = self.db.execute("SELECT spec FROM runs WHERE id = ?", (run,)).fetchone()
        return RunSpec.from_json(row[0]) if row else None

    def runs(self) -> list[tuple[str, float, str]]:
        """(id, creation time, command) of every run, oldest first."""
        return list(self.db.execute("SELECT id, created, command FROM runs ORDER BY created"))

    def finished(self, run: str) -> set[tuple[str, int]]:
        """(profile, first game) of every finished batch of ``run``."""
        rows = self.db.execute("SELECT profile, start FROM batches WHERE run = ?", (run,))
        return {(p, s) for p, s in rows}

    def add_batch(self, run: str, profile: str, start: int, rows: Sequence[Row]) -> None:
        """Store a batch's rows and mark it finished, in one transaction."""
        marks = ", ".join("?" * (len(COLUMNS) + 1))
        with self.db:
            self.db.executemany(f"INSERT INTO seats VALUES ({marks})", [(run, *r) for r in rows])
            self.db.execute("INSERT INTO batches VALUES (?, ?, ?)", (run, profile, start))

    def query(self, sql: str, *args: Any) -> Iterator[tuple[Any, ...]]:
        """Rows of a read-only SQL query."""
        yield from self.db.execute(sql, args)
