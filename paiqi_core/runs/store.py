"""The results store: one SQLite file holding runs, the rules they are played with, and
their finished batches, each with its games' rows (one per game per seat).

A batch's rows are kept as one block of columns (``runs.block``) in the ``rows`` column of
the batch's own row of ``batches``: storing a batch is one insert, so an interrupted run
loses no finished batch and never keeps half of one, and 1.6 million rows are stored in the
time SQLite would take for a few thousand inserted one by one. ``expand`` unpacks them into
a ``seats`` table of the connection (in memory) for SQL; ``blocks`` hands them to NumPy.
Files of an earlier paiqi keep their rows in the file's ``seats`` table, one SQL row each:
they are read as they are, and runs added to them are stored as blocks.

A run stores the fully resolved rules of each of its profiles when it starts, and its
batches are played from those stored rules, so a resumed run plays exactly the rules it
started with whatever happened to the profile files since.

While a run writes, the file uses SQLite's write-ahead log (``-wal`` and ``-shm`` files
beside it), so it belongs on a local disk rather than a network share; a writer that closes
the file cleanly turns the log back into a plain file. Reading a store (reports, listings,
SQL) opens it read-only and never writes to it or beside it.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, replace
from itertools import repeat
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from paiqi_core.profile import Profile, load_profile
from paiqi_core.profile.load import load_resolved
from paiqi_core.runs.batch import COLUMNS, FIRST_COLUMNS
from paiqi_core.runs.block import Block, BlockError, decode
from paiqi_core.streams import GENERATOR, GENERATORS, LEGACY

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None  # type: ignore[assignment]

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY, created REAL, command TEXT, spec TEXT
);
CREATE TABLE IF NOT EXISTS rules (
    run TEXT, profile TEXT, fingerprint TEXT, rules TEXT, source TEXT, chain TEXT,
    overrides TEXT, PRIMARY KEY (run, profile)
);
CREATE TABLE IF NOT EXISTS batches (
    run TEXT, profile TEXT, start INTEGER, rows BLOB, PRIMARY KEY (run, profile, start)
);
CREATE TABLE IF NOT EXISTS seats (
    run TEXT, {", ".join(c + (" REAL" if c in ("win", "money_value") else "") for c in COLUMNS)},
    PRIMARY KEY (run, profile, game, seat)
) WITHOUT ROWID;
"""
# the columns of each table, in order: a file whose tables differ is not a results file
TABLES = {
    "runs": ("id", "created", "command", "spec"),
    "rules": ("run", "profile", "fingerprint", "rules", "source", "chain", "overrides"),
    "batches": ("run", "profile", "start", "rows"),
    "seats": ("run", *COLUMNS),
}
REQUIRED = ("runs", "batches", "seats")  # the rules table came later: older files lack it
# the seats table of an earlier paiqi has the first of its columns only: it is read as it
# is (the later columns are missing from its figures) and given them when written to
SEATS_SINCE = len(FIRST_COLUMNS) + 1
# a table that an earlier paiqi wrote with fewer columns (the first this many): read as it
# is, given the later columns when written to
SINCE = {"seats": SEATS_SINCE, "batches": 3}
SQLITE_HEADER = b"SQLite format 3\x00"


class StoreError(Exception):
    """A results file that cannot be used: the message names the file and says why."""


SKILL_SEPARATOR = " · "
REPLAYED = "deals replayed"  # the rule set of a profile's deal share: ``doujue · deals replayed``


def searching(agents: tuple[str, ...]) -> bool:
    """Whether any of ``agents`` is a search player (or a level that is one)."""
    from paiqi_core.agents import STRENGTHS, resolve

    return any(resolve(a)[0] in STRENGTHS for a in agents)


def lineup(a: str, b: str, players: int) -> tuple[str, ...]:
    """``a`` and ``b`` in alternate seats, ``a`` first."""
    return tuple(a if seat % 2 == 0 else b for seat in range(players))


def distinct_seatings(lineup: tuple[str, ...]) -> int:
    """How many different seatings rotating ``lineup`` round the table gives (A B A B: 2;
    A B B B: 4; no line-up: 1)."""
    n = len(lineup)
    for shift in range(1, n):
        if n % shift == 0 and lineup[shift:] + lineup[:shift] == lineup:
            return shift
    return max(n, 1)


class UnknownGenerator(ValueError):
    """A stored run dealt by a generator this version does not know (a later version's)."""


@dataclass(frozen=True)
class RunSpec:
    """Everything that decides a run's results."""

    command: str  # "compare", "simulate", "tournament" or "sweep"
    # names of the rule sets played (a tournament: its pairings; a sweep: its values)
    profiles: tuple[str, ...]
    overrides: tuple[str, ...]
    agents: tuple[str, ...]
    rotate: bool
    seed: int
    games: int
    batch: int
    players: int
    # by profile, the agents by seat when they differ between profiles (tournaments)
    lineups: tuple[tuple[str, ...], ...] = ()
    # with rotation, play each distinct seating once (a line-up A B A B has two), rather
    # than once per seat (runs stored before this existed rotate once per seat)
    distinct: bool = False
    # the skill gap (compare): (strong, weak), each profile also played on ``skill_deals``
    # deals by these two in alternate seats, each distinct seating once
    skill: tuple[str, ...] = ()
    skill_deals: int = 0
    # games per batch of a rule set with a search player at the table (0: ``batch``): its
    # games take a second or more each, so its batches are kept short
    search_batch: int = 0

    def batch_of(self, name: str) -> int:
        """Games per batch of the rule set ``name``."""
        if self.search_batch and searching(self.agents_of(name)):
            return self.search_batch
        return self.batch

    # the deal share: each profile's rules also played on ``share_deals`` deals, each deal
    # ``replays`` times by ``share_agents`` (one seat further round each time, with a random
    # stream of their own); a tournament plays one such rule set for all its pairings
    share_deals: int = 0
    replays: int = 0
    share_agents: tuple[str, ...] = ()
    # a sweep: the profile, each rule varied with its values as given, and the rule set
    # the others are compared with (default: the first)
    sweep: str = ""
    vary: tuple[tuple[str, tuple[str, ...]], ...] = ()
    baseline: str = ""
    # the generator that deals its games (``paiqi_core.streams``); runs stored before it
    # was named were dealt by mt19937, and resume with it
    generator: str = GENERATOR

    @property
    def rule_sets(self) -> tuple[str, ...]:
        """The names of every rule set the run plays: its profiles, then (with a skill gap)
        each profile's skill pairing, then (with a deal share) its replayed deals."""
        skill = tuple(self.skill_name(p) for p in self.profiles if self.skill)
        return self.profiles + skill + self.share_names

    @property
    def base(self) -> str:
        """The rule set the others are compared with: the baseline, or the first."""
        return self.baseline or self.profiles[0]

    def skill_name(self, profile: str) -> str:
        """The rule set of ``profile``'s skill pairing: ``doujue · hard vs easy``."""
        strong, weak = self.skill
        return f"{profile}{SKILL_SEPARATOR}{strong} vs {weak}"

    @property
    def share_names(self) -> tuple[str, ...]:
        """The rule sets of the deal share: one per profile (``doujue · deals replayed``),
        or one for a tournament, whose pairings all play the same rules."""
        if not self.share_deals:
            return ()
        if self.command == "tournament":
            return (REPLAYED,)
        return tuple(self.share_name(p) for p in self.profiles)

    def share_name(self, profile: str) -> str:
        """The rule set of ``profile``'s deal share (a tournament's: ``deals replayed``)."""
        if self.command == "tournament":
            return REPLAYED
        return f"{profile}{SKILL_SEPARATOR}{REPLAYED}"

    def profile_of(self, name: str) -> str:
        """The profile whose rules the rule set ``name`` plays."""
        if name in self.profiles:
            return name
        for p in self.profiles:
            if self.skill and name == self.skill_name(p):
                return p
            if self.share_deals and name == self.share_name(p):
                return p
        raise KeyError(name)

    def _is_skill(self, name: str) -> bool:
        return bool(self.skill) and name not in self.profiles and name not in self.share_names

    def games_of(self, name: str) -> int:
        """Games the rule set ``name`` plays (deals times seatings, or times replays)."""
        if name in self.share_names:
            return self.share_deals * self.replays
        if self._is_skill(name):
            return self.skill_deals * distinct_seatings(self.agents_of(name))
        return self.total_games

    def seatings_of(self, name: str) -> int:
        """Games per deal of the rule set ``name`` with rotation, 0 without (replayed deals
        are not rotated: ``replays_of``)."""
        if name in self.share_names:
            return 0
        if self._is_skill(name):
            return distinct_seatings(self.agents_of(name))
        return self.seatings if self.rotate else 0

    def replays_of(self, name: str) -> int:
        """Games per deal of the rule set ``name`` when it replays deals, else 0."""
        return self.replays if name in self.share_names else 0

    @property
    def all_games(self) -> int:
        """Games of every rule set of the run."""
        return sum(self.games_of(name) for name in self.rule_sets)

    def agents_of(self, profile: str) -> tuple[str, ...]:
        """The agents by seat that play ``profile``'s games (empty: all random)."""
        if profile in self.share_names:
            return self.share_agents
        if profile not in self.profiles:  # a skill pairing
            strong, weak = self.skill
            return lineup(strong, weak, self.players)
        if self.lineups:
            return self.lineups[self.profiles.index(profile)]
        return self.agents

    def to_json(self) -> str:
        """The spec as JSON text (as stored)."""
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @staticmethod
    def from_json(text: str) -> RunSpec:
        """The spec stored as ``text``."""
        d = json.loads(text)
        for key in ("profiles", "overrides", "agents", "skill", "share_agents"):
            d[key] = tuple(d.get(key, ()))  # runs stored before these existed have none
        d["lineups"] = tuple(tuple(seats) for seats in d.get("lineups", ()))
        d["vary"] = tuple((key, tuple(values)) for key, values in d.get("vary", ()))
        d.setdefault("generator", LEGACY)
        if d["generator"] not in GENERATORS:
            raise UnknownGenerator(d["generator"])
        return RunSpec(**d)

    @property
    def seatings(self) -> int:
        """Games played on each deal: 1, or with rotation one per seat, or one per distinct
        seating of the line-ups (the largest number of any line-up)."""
        if not self.rotate:
            return 1
        if not self.distinct:
            return self.players
        return max(distinct_seatings(lineup) for lineup in self.lineups or (self.agents,))

    @property
    def total_games(self) -> int:
        """Games played under each profile: deals times seatings."""
        return self.games * self.seatings

    def batch_games(self, start: int, name: str | None = None) -> int:
        """The number of games of the batch of rule set ``name`` (default: a profile) that
        starts at game ``start``."""
        if name is None:
            return min(self.batch, self.total_games - start)
        return min(self.batch_of(name), self.games_of(name) - start)


@dataclass(frozen=True)
class RunInfo:
    """A stored run as listed: id, when and how it started, how far it got."""

    id: str
    created: float
    command: str
    spec: RunSpec
    played: int  # games played so far, over every profile

    @property
    def total(self) -> int:
        """Games the run plays when finished, over every profile."""
        return self.spec.all_games


class DamagedRun(Exception):
    """A run of a results file whose options cannot be read back: its id, and why."""

    def __init__(self, run: str, why: str) -> None:
        super().__init__(why)
        self.run = run


def _text(data: bytes | str | None) -> str:
    """A text column read as bytes, with anything that is not UTF-8 shown as ``�``."""
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return "" if data is None else str(data)


def check_path(path: Path, *, create: bool) -> None:
    """Refuse a path that cannot be a results file (a folder, a device, a file in a missing
    folder, a file that is not an SQLite database), before SQLite touches it."""
    if path.is_dir():
        raise StoreError(f"{path}: is a folder, not a results file")
    if not path.exists():
        if not create:
            raise StoreError(f"{path}: no such results file")
        if not path.parent.is_dir():
            raise StoreError(f"{path}: no such folder: {path.parent}")
        return
    if not path.is_file():
        raise StoreError(f"{path}: not a regular file, so not a results file")
    try:
        with open(path, "rb") as f:
            header = f.read(100)
    except OSError as e:
        raise StoreError(f"{path}: cannot read: {e.strerror}") from None
    if not header and create:
        return  # an empty file: a new store
    if len(header) < 100 or not header.startswith(SQLITE_HEADER):
        raise StoreError(f"{path}: not a results file (not an SQLite database)")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]  # the page count is current
    logged = path.with_name(path.name + "-wal").exists()  # a writer may be checkpointing
    if valid and pages and not logged and path.stat().st_size < pages * page_size:
        raise StoreError(
            f"{path}: damaged results file: cut short ({path.stat().st_size} bytes of "
            f"{pages * page_size})"
        )


class Store:
    """An SQLite results file: runs, their rules, their finished batches, and their rows.

    ``Store(path)`` opens the file for writing (creating it unless ``create`` is false);
    ``Store.reader(path)`` opens an existing one read-only."""

    def __init__(self, path: Path, *, create: bool = True, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._expanded: set[str] = set()  # runs whose blocks ``expand`` unpacked
        check_path(self.path, create=create and not readonly)
        if readonly:
            self.db = self._open_readonly()
        else:
            self.db = self._connect("rwc" if create else "rw")
        try:
            tables = self._tables()
            if readonly:
                missing = [t for t in REQUIRED if t not in tables]
                if missing:
                    raise StoreError(f"{self.path}: not a results file (it holds no paiqi runs)")
            else:
                others = set(tables) - set(TABLES)
                if others and not set(REQUIRED) & set(tables):
                    names = ", ".join(sorted(others))
                    raise StoreError(
                        f"{self.path}: an SQLite database of something else (tables {names}), "
                        "not a results file: name a new file"
                    )
                # A write-ahead log commits a batch without waiting for the disk: a killed
                # process still keeps every committed batch, and the file is never half
                # written.
                self.db.execute("PRAGMA journal_mode = WAL")
                self.db.execute("PRAGMA synchronous = NORMAL")
                self.db.executescript(SCHEMA)
                for table in SINCE:
                    self._add_columns(table, tables.get(table, TABLES[table]))
        except sqlite3.Error as e:
            self.db.close()
            raise self._error(e) from None
        except StoreError:
            self.db.close()
            raise

    def _add_columns(self, table: str, present: tuple[str, ...]) -> None:
        """Give an earlier paiqi's ``table`` the columns added since (NULL in its rows)."""
        with self.db:
            for column in TABLES[table][len(present) :]:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")

    def columns(self, table: str = "seats") -> tuple[str, ...]:
        """The columns of ``table`` in this file (an earlier paiqi's seats table lacks the
        later ones)."""
        return tuple(r[1] for r in self.db.execute(f"PRAGMA table_info('{table}')"))

    @classmethod
    def reader(cls, path: Path) -> Store:
        """An existing results file, opened read-only: nothing is written to it or beside it."""
        return cls(path, create=False, readonly=True)

    def _connect(self, mode: str, extra: str = "") -> sqlite3.Connection:
        uri = f"{self.path.resolve().as_uri()}?mode={mode}{extra}"
        try:
            return sqlite3.connect(uri, uri=True)
        except sqlite3.Error as e:
            raise self._error(e) from None

    def _open_readonly(self) -> sqlite3.Connection:
        """Open read-only, writing nothing to the file or beside it. A file at rest is a
        plain SQLite file, read with SQLite's usual locks. A file still marked for a
        write-ahead log but without one (closed while another process had it open, or
        written by an earlier paiqi) is read as it is (``immutable``), as SQLite would
        otherwise create a ``-shm`` file beside it. A file that a run is writing, or that a
        killed run left with its log, is read with the log."""
        wal = self.path.with_name(self.path.name + "-wal")
        with open(self.path, "rb") as f:
            logged = f.read(20)[18:20] == b"\x02\x02"  # the file format of WAL mode
        if logged and not wal.exists():
            db = self._connect("ro", "&immutable=1")
            if not wal.exists():  # else a run started writing meanwhile: read with its log
                return db
            db.close()
        db = self._connect("ro")
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as e:
            db.close()
            if isinstance(e, sqlite3.OperationalError) and wal.exists():
                raise StoreError(
                    f"{self.path}: cannot read it with its write-ahead log {wal.name} ({e}): "
                    "it needs a folder it can write to; copy both files to one"
                ) from None
            raise self._error(e) from None
        return db

    def _tables(self) -> dict[str, tuple[str, ...]]:
        """The tables of the file and their columns; refuses tables of the same names as
        the store's with other columns."""
        names = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        tables = {
            name: tuple(r[1] for r in self.db.execute(f"PRAGMA table_info('{name}')"))
            for name in names
            if "'" not in name
        }
        for name, columns in TABLES.items():
            if name in SINCE and name in tables and len(tables[name]) >= SINCE[name]:
                columns = columns[: len(tables[name])]  # an earlier paiqi's, or this one's
            if name in tables and tables[name] != columns:
                raise StoreError(
                    f"{self.path}: not a results file: its table '{name}' has columns "
                    f"{', '.join(tables[name])}, not paiqi's ({', '.join(columns)})"
                )
        return tables

    def _error(self, e: sqlite3.Error) -> StoreError:
        """A store error for an SQLite error on this file."""
        text = str(e)
        if isinstance(e, sqlite3.DatabaseError) and "malformed" in text:
            return StoreError(f"{self.path}: damaged results file ({text})")
        if "not a database" in text:
            return StoreError(f"{self.path}: not a results file (not an SQLite database)")
        if "readonly" in text or "read-only" in text:
            return StoreError(f"{self.path}: cannot write to it ({text})")
        return StoreError(f"{self.path}: {text}")

    @contextmanager
    def _sql(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as e:
            raise self._error(e) from None

    def close(self) -> None:
        """Close the file. A writer turns the write-ahead log back into a plain file when no
        one else has the file open, so it can later be read from a read-only place."""
        if not self.readonly:
            try:
                self.db.execute("PRAGMA busy_timeout = 0")
                self.db.execute("PRAGMA journal_mode = DELETE")
            except sqlite3.Error:
                pass  # another process has it open: the last one out does it
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------------ runs
    def new_run(self, spec: RunSpec, rules: Mapping[str, Profile] | None = None) -> str:
        """Record a new run with the resolved rules of each profile (by name, as in
        ``spec.profiles``; default: loaded now from the names and ``spec.overrides``); its id.
        A skill pairing stores its profile's rules under its own name."""
        if rules is None:
            rules = {p: load_profile(p, spec.overrides) for p in spec.profiles}
        missing = [p for p in spec.profiles if p not in rules]
        if missing:
            raise ValueError(f"no rules for {', '.join(missing)}")
        run = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        with self._sql(), self.db:
            self.db.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?)",
                (run, time.time(), spec.command, spec.to_json()),
            )
            self.db.executemany(
                "INSERT INTO rules VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(run, name, *_stored(rules[spec.profile_of(name)])) for name in spec.rule_sets],
            )
        return run

    def grow(self, run: str, games: int) -> None:
        """Let a run that grows as it is played (a room's session of ``paiqi serve``) hold
        ``games`` games: its spec says so from now on."""
        spec = self.spec(run)
        if spec is None:
            raise StoreError(f"{self.path}: no run {run}")
        grown = replace(spec, games=games)
        with self._sql(), self.db:
            self.db.execute("UPDATE runs SET spec = ? WHERE id = ?", (grown.to_json(), run))

    def spec(self, run: str) -> RunSpec | None:
        """The spec of ``run`` (None if there is no such run); StoreError naming the run and
        the file if its spec is damaged."""
        with self._sql():
            row = self.db.execute(
                "SELECT CAST(spec AS BLOB) FROM runs WHERE id = ?", (run,)
            ).fetchone()
        return self._spec_of(run, row[0]) if row else None

    def _spec_of(self, run: str, data: bytes | None) -> RunSpec:
        """The spec stored as ``data`` (the bytes of the ``spec`` column); StoreError naming
        the run and the file if it cannot be read back."""
        try:
            return RunSpec.from_json((data or b"null").decode("utf-8"))
        except (ValueError, TypeError, AttributeError, KeyError) as e:
            why = "not UTF-8 text" if isinstance(e, UnicodeDecodeError) else "not a run's options"
            if isinstance(e, UnknownGenerator):
                why = (
                    f"for a generator this version does not know ({e.args[0]!r}; it "
                    f"knows {', '.join(GENERATORS)})"
                )
            raise StoreError(
                f"{self.path}: run {run} is damaged: its options (runs.spec) are {why}; the "
                "other runs of the file can still be read"
            ) from None

    def rules(self, run: str) -> dict[str, Profile]:
        """The rules ``run`` plays, by profile name, loaded back from the store and checked
        against their fingerprints. StoreError if the run stored none (started by an earlier
        paiqi) or they now load differently; ProfileError if this installation cannot play
        them (a plugin hook no longer installed)."""
        spec = self.spec(run)
        if spec is None:
            raise StoreError(f"{self.path}: no run '{run}'")
        stored: dict[str, tuple[Any, ...]] = {}
        if "rules" in self._tables():
            with self._sql():
                for row in self.db.execute(
                    "SELECT profile, fingerprint, rules, source, chain, overrides FROM rules "
                    "WHERE run = ?",
                    (run,),
                ):
                    stored[row[0]] = row[1:]
        missing = [p for p in spec.rule_sets if p not in stored]
        if missing:
            raise StoreError(
                f"{self.path}: run {run} holds no rules for {', '.join(missing)}: it was "
                "started by an earlier version of paiqi, which did not store them, so what "
                "it was played with cannot be known; start a new run"
            )
        out = {}
        for name in spec.rule_sets:
            fingerprint, data, source, chain, overrides = stored[name]
            profile = load_resolved(
                json.loads(data),
                source=f"{source} (as stored in {self.path}, run {run})",
                chain=json.loads(chain),
                overrides=json.loads(overrides),
            )
            if profile.fingerprint != fingerprint:
                raise StoreError(
                    f"{self.path}: run {run}: the stored rules of {name} load differently in "
                    "this version of paiqi (new defaults or checks): playing on would mix two "
                    "rule sets in one run; start a new run"
                )
            out[name] = profile
        return out

    def runs(self) -> list[RunInfo]:
        """Every run that can be read, oldest first, with how many of its games are played
        (``damaged`` names the others)."""
        return [r for r in self._listed() if isinstance(r, RunInfo)]

    def damaged(self) -> dict[str, str]:
        """The runs whose options cannot be read back, each with the reason, oldest first."""
        return {r.run: str(r) for r in self._listed() if isinstance(r, DamagedRun)}

    def _listed(self) -> list[RunInfo | DamagedRun]:
        """Every run, oldest first: what can be read of it, or why it cannot."""
        with self._sql():
            rows = list(self.db.execute(
                "SELECT CAST(id AS BLOB), created, CAST(command AS BLOB), CAST(spec AS BLOB) "
                "FROM runs ORDER BY created"
            ))  # fmt: skip
            starts: dict[str, list[tuple[str, int]]] = {}
            for run, name, start in self.db.execute(
                "SELECT CAST(run AS BLOB), CAST(profile AS BLOB), start FROM batches"
            ):
                starts.setdefault(_text(run), []).append((_text(name), start))
        out: list[RunInfo | DamagedRun] = []
        for data, created, command, spec_data in rows:
            run = _text(data)
            try:
                spec = self._spec_of(run, spec_data)
                played = sum(spec.batch_games(s, name) for name, s in starts.get(run, []))
                out.append(RunInfo(run, float(created), _text(command), spec, played))
            except (StoreError, TypeError, ValueError) as e:
                out.append(DamagedRun(run, str(e)))
        return out

    def finished(self, run: str) -> set[tuple[str, int]]:
        """(profile, first game) of every finished batch of ``run``."""
        with self._sql():
            rows = self.db.execute("SELECT profile, start FROM batches WHERE run = ?", (run,))
            return {(p, s) for p, s in rows}

    def add_batch(self, run: str, profile: str, start: int, block: bytes) -> None:
        """Store a batch's rows (one block of columns: ``runs.block``) as the row that marks
        it finished: either the batch is stored whole or not at all."""
        try:
            with self.db:
                self.db.execute("INSERT INTO batches VALUES (?, ?, ?, ?)",
                                (run, profile, start, block))  # fmt: skip
        except sqlite3.IntegrityError:
            raise StoreError(
                f"{self.path}: run {run}: games {start}- of {profile} are already stored "
                "(is another process playing this run?)"
            ) from None
        except sqlite3.Error as e:
            raise self._error(e) from None
        self._forget(run)

    # ------------------------------------------------------------------------ rows
    def _blocked(self) -> bool:
        """Whether this file keeps batches' rows as blocks (an earlier paiqi's does not)."""
        return "rows" in self.columns("batches")

    def blocks(self, run: str, name: str) -> list[Block]:
        """The rows of rule set ``name`` of ``run`` kept as blocks, one per finished batch,
        in game order (batches whose rows an earlier paiqi wrote to the seats table have
        none)."""
        if not self._blocked():
            return []
        with self._sql():
            found = self.db.execute(
                "SELECT rows FROM batches WHERE run = ? AND profile = ? AND rows IS NOT NULL "
                "ORDER BY start",
                (run, name),
            ).fetchall()
        return [self._decoded(run, name, blob) for (blob,) in found]

    def _decoded(self, run: str, name: str, blob: bytes) -> Block:
        """A block of ``run``'s rule set ``name``; StoreError naming them if it is damaged."""
        try:
            return decode(blob)
        except BlockError as e:
            raise StoreError(f"{self.path}: run {run}, {name}: {e}") from None

    def in_table(self, run: str, name: str) -> bool:
        """Whether rows of rule set ``name`` of ``run`` are in the file's seats table (rows
        an earlier paiqi wrote one by one)."""
        with self._sql():
            return bool(self.db.execute(
                "SELECT 1 FROM main.seats WHERE run = ? AND profile = ? LIMIT 1", (run, name)
            ).fetchone())  # fmt: skip

    def expand(self, *runs: str, progress: Callable[[int, int], None] | None = None) -> Store:
        """Make the ``seats`` table that queries read hold every row of ``runs`` (default:
        of every run): the rows kept as blocks, unpacked into a table of this connection's
        own (in memory, never written to the file), beside the rows of the file's seats
        table. SQL then asks the same questions of any results file; unpacking costs a few
        microseconds a row, so queries of a large run are better asked of its arrays.
        ``progress(done, total)`` is told of each batch unpacked."""
        if not self._blocked():
            return self
        with self._sql():
            if not runs:
                runs = tuple(r for (r,) in self.db.execute("SELECT id FROM runs"))
            todo = [r for r in runs if r not in self._expanded]
            if not todo:
                return self
            if not self._expanded:
                self.db.execute("PRAGMA temp_store = MEMORY")
                self.db.execute("DROP TABLE IF EXISTS temp.seats")
                self.db.execute("CREATE TEMP TABLE seats AS SELECT * FROM main.seats WHERE 0")
            width = len(self.columns("seats"))
            insert = f"INSERT INTO temp.seats VALUES ({', '.join('?' * width)})"
            batches = [
                key
                for run in todo
                for key in self.db.execute(
                    "SELECT run, profile, start FROM batches WHERE run = ? AND rows IS NOT NULL "
                    "ORDER BY profile, start",
                    (run,),
                )
            ]
            for run in todo:
                self.db.execute(
                    "INSERT INTO temp.seats SELECT * FROM main.seats WHERE run = ?", (run,)
                )
            for done, (run, name, start) in enumerate(batches, 1):
                (blob,) = self.db.execute(
                    "SELECT rows FROM batches WHERE run = ? AND profile = ? AND start = ?",
                    (run, name, start),
                ).fetchone()
                block = self._decoded(run, name, blob)
                columns = [block.values(c) for c in COLUMNS[: width - 1]]
                self.db.executemany(insert, zip(repeat(run), *columns))
                if progress:
                    progress(done, len(batches))
            self._expanded.update(todo)
        return self

    def _forget(self, run: str) -> None:
        """Drop ``run``'s unpacked rows (its batches changed): unpacked again when asked."""
        if run in self._expanded:
            self._expanded.discard(run)
            with self._sql():
                self.db.execute("DELETE FROM temp.seats WHERE run = ?", (run,))

    def query(self, sql: str, *args: Any) -> Iterator[tuple[Any, ...]]:
        """Rows of a read-only SQL query (read at once: the figures of a report are few).
        The ``seats`` table holds the rows of the runs ``expand`` unpacked, and the rows
        an earlier paiqi wrote to the file one by one."""
        with self._sql():
            return iter(self.db.execute(sql, args).fetchall())

    def lock(self, run: str) -> RunLock:
        """A lock on ``run``: only one process plays a run at a time."""
        return RunLock(self.path, run)

    def each(self, tasks: Sequence[Callable[[Store], T]]) -> list[T]:
        """What each task returns, called with a store that reads this one's file: several
        at once, each on a read-only connection of its own, as many as there are cores
        (SQLite computes a query without holding Python's lock, so the queries of a report
        share the cores). In the order of ``tasks``; one at a time, on this store, where
        there is one core or one task."""
        from paiqi_core.runs.execute import default_workers

        workers = min(len(tasks), default_workers())
        if workers <= 1:
            return [task(self) for task in tasks]

        def run(task: Callable[[Store], T]) -> T:
            with Store.reader(self.path) as reader:
                return task(reader)

        with ThreadPoolExecutor(workers) as pool:
            return list(pool.map(run, tasks))


T = TypeVar("T")

# what a query of ``paiqi sql`` may do: read tables, call functions, recurse, and ask the
# pragmas that only describe the file; anything else (ATTACH, which VACUUM INTO also asks
# for, any write, a pragma that sets something) is refused by SQLite before it runs
_READ_ONLY_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION}
_READ_ONLY_ACTIONS.add(getattr(sqlite3, "SQLITE_RECURSIVE", 33))
_NAMING_PRAGMAS = {  # their argument names a table or an index
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
    "foreign_key_list",
}  # fmt: skip
_ASKING_PRAGMAS = {  # without an argument they only answer
    *_NAMING_PRAGMAS, "database_list", "collation_list", "function_list", "pragma_list",
    "page_count", "page_size", "user_version", "schema_version", "encoding",
}  # fmt: skip


def _only_reading(action: int, arg1: str | None, arg2: str | None, *_: str | None) -> int:
    """An SQLite authorizer that lets a statement read and nothing else."""
    if action in _READ_ONLY_ACTIONS:
        return sqlite3.SQLITE_OK
    pragma = (arg1 or "").lower()
    asking = pragma in _ASKING_PRAGMAS and (arg2 is None or pragma in _NAMING_PRAGMAS)
    return sqlite3.SQLITE_OK if action == sqlite3.SQLITE_PRAGMA and asking else sqlite3.SQLITE_DENY


@contextmanager
def reading_only(db: sqlite3.Connection, timeout: float | None = None) -> Iterator[None]:
    """Inside the block, statements on ``db`` may only read (``_only_reading``), and a
    statement running longer than ``timeout`` seconds is stopped (SQLite raises
    ``OperationalError: interrupted``, as ``db.interrupt()`` makes it). The check runs in
    Python every few thousand steps of a statement, which also lets a signal handler run
    (one that calls ``db.interrupt()`` stops the statement on Ctrl-C)."""
    db.set_authorizer(_only_reading)
    deadline = math.inf if timeout is None else time.monotonic() + timeout
    db.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        yield
    finally:
        db.set_authorizer(None)
        db.set_progress_handler(None, 0)


def _literal(text: str) -> str:
    """``text`` as an SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def _stored(profile: Profile) -> tuple[str, str, str, str, str]:
    """The columns of a profile's row in the rules table."""
    return (
        profile.fingerprint,
        json.dumps(profile.resolved(), ensure_ascii=False, sort_keys=True, default=str),
        profile.source,
        json.dumps(list(profile.chain), ensure_ascii=False),
        json.dumps(dict(profile.overrides), ensure_ascii=False, default=str),
    )


class RunLock:
    """An advisory lock on one run of a results file, held while the run is played: a
    second process that tries to play the same run is refused. The operating system drops
    the lock when its process ends, however it ends; the lock file (beside the results
    file) is removed by a holder that finishes, and reused if one was killed."""

    def __init__(self, db: Path, run: str) -> None:
        self.db, self.run = db, run
        name = run if re.fullmatch(r"[\w.-]+", run) else hashlib.sha256(run.encode()).hexdigest()
        self.path = db.with_name(f"{db.name}.{name}.lock")
        self.fd: int | None = None

    def __enter__(self) -> RunLock:
        if fcntl is None:  # pragma: no cover - no advisory locks on this system
            return self
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise StoreError(f"{self.path}: cannot lock run {self.run}: {e.strerror}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 32).decode("ascii", "replace").strip()
                os.close(fd)
                who = f" (process {holder})" if holder.isdigit() else ""
                raise StoreError(
                    f"{self.db}: run {self.run} is being played by another paiqi process"
                    f"{who}; let it finish, or stop it and resume then"
                ) from None
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:  # not a lock file that its last holder removed meanwhile
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode("ascii"))
        self.fd = fd
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.fd is None:
            return
        with suppress(OSError):
            os.unlink(self.path)
        os.close(self.fd)  # releases the lock
        self.fd = None
