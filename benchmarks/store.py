"""What storing and reading a run's rows costs: as blocks of columns (how paiqi stores
them) against one SQLite row per game per seat (how it stored them before), the same rows.

The rows are those of ``paiqi compare``'s default profiles, played by the engine in use
(the compiled one with numba), in batches of 250 games. Each round writes every batch to a
fresh file both ways, alternating which goes first; the times are CPU seconds of this one
process (the writing side of a run: workers play, the parent stores), and the table gives
their medians and the file sizes.

- encode, from rows: each batch's rows (tuples) into its block, as a batch of the Python
  engine is encoded by its worker (the compiled engine encodes its arrays, with less work);
- store, blocks: ``Store.add_batch`` of each batch's block;
- store, rows: the same rows inserted into the ``seats`` table, as many to a statement as
  SQLite takes, each batch in one transaction with its mark (what paiqi did before);
- read, blocks: every rule set's rows into the report's arrays (``arrays.read``);
- read, rows: the same from the table (``arrays.read_table``: one scan per rule set, each
  column joined into one text that NumPy parses).

    python benchmarks/store.py --deals 20000 --rounds 3
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from itertools import chain
from pathlib import Path

from paiqi_core import fast
from paiqi_core.profile import load_profile
from paiqi_core.runs import arrays
from paiqi_core.runs.batch import COLUMNS, BatchSpec, run_batch
from paiqi_core.runs.block import encode_rows
from paiqi_core.runs.store import RunSpec, Store

PROFILES = ("doujue", "platform", "shichinarabe", "pagat")
BATCH = 250


def cpu(task: Callable[[], object]) -> float:
    """CPU seconds of ``task``."""
    t0 = time.process_time()
    task()
    return time.process_time() - t0


def store_rows(db: sqlite3.Connection, run: str, name: str, start: int, rows: list) -> None:
    """One batch as rows of the seats table and its mark, as paiqi stored them before."""
    marks = "(" + ", ".join(["?"] * (len(COLUMNS) + 1)) + ")"
    per = max(db.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // (len(COLUMNS) + 1), 1)
    with db:
        for i in range(0, len(rows), per):
            chunk = rows[i : i + per]
            db.execute(
                f"INSERT INTO seats VALUES {', '.join([marks] * len(chunk))}",
                list(chain.from_iterable((run, *r) for r in chunk)),
            )
        db.execute("INSERT INTO batches VALUES (?, ?, ?, NULL)", (run, name, start))


def one_way(
    path: Path, way: str, spec: RunSpec, rules: dict, batches: list
) -> tuple[float, float, int]:
    """CPU seconds to store ``batches`` in a new file at ``path`` as ``way`` (blocks or
    rows), and to read them back into arrays; the file's size."""
    with Store(path) as store:
        run = store.new_run(spec, rules)
        t0 = time.process_time()
        for p, s, block, rows in batches:
            if way == "blocks":
                store.add_batch(run, p, s, block)
            else:
                store_rows(store.db, run, p, s, rows)
        stored = time.process_time() - t0
    with Store.reader(path) as store:
        read = arrays.read if way == "blocks" else arrays.read_table
        t0 = time.process_time()
        for p in PROFILES:
            read(store, run, p, ("random",))
        loaded = time.process_time() - t0
    return stored, loaded, path.stat().st_size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000, help="deals per profile")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    fast.use("auto")
    spec = RunSpec("compare", PROFILES, (), (), False, 0, args.deals, BATCH, 4)
    rules = {p: load_profile(p, ()) for p in PROFILES}
    batches = []
    for p in PROFILES:
        for start in range(0, args.deals, BATCH):
            count = min(BATCH, args.deals - start)
            b = run_batch(BatchSpec(p, (), (), False, 0, start, count, rules=rules[p],
                                    engine="auto"))  # fmt: skip
            batches.append((p, start, b.block, b.rows))
    rows_count = sum(len(r) for *_, r in batches)
    encode = statistics.median(
        cpu(lambda: [encode_rows(p, rows) for p, _, _, rows in batches]) for _ in range(args.rounds)
    )
    times: dict[str, list[float]] = {k: [] for k in ("store, blocks", "store, rows",
                                                    "read, blocks", "read, rows")}  # fmt: skip
    sizes = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for way in ("blocks", "rows") if r % 2 == 0 else ("rows", "blocks"):
                path = Path(tmp) / f"{way}-{r}.db"
                stored, read, sizes[way] = one_way(path, way, spec, rules, batches)
                times[f"store, {way}"].append(stored)
                times[f"read, {way}"].append(read)
    engine = "compiled" if fast.available() else "Python"
    print(f"{rows_count:,} rows ({args.deals:,} deals of {len(PROFILES)} profiles, {engine} "
          f"engine), medians of {args.rounds} rounds, CPU:")  # fmt: skip
    print(f"  encode, from rows {encode:5.2f} s  {encode / rows_count * 1e6:5.2f} µs a row")
    for key, values in times.items():
        t = statistics.median(values)
        print(f"  {key:15}  {t:6.2f} s  {t / rows_count * 1e6:5.2f} µs a row")
    for way, size in sizes.items():
        print(f"  file, {way:9}  {size / 1e6:6.1f} MB  {size / rows_count:5.1f} bytes a row")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
