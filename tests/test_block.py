"""A batch's rows as one block of columns (``runs.block``), and SQL over a results file's
rows (``paiqi sql``)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import zlib
from pathlib import Path

import numpy as np
import pytest

from paiqi_core.cli import main
from paiqi_core.runs.batch import COLUMNS, FIRST_COLUMNS
from paiqi_core.runs.block import (
    MAGIC,
    STORED,
    ZLIB_MAGIC,
    BlockError,
    Coded,
    decode,
    encode,
    encode_rows,
)
from paiqi_core.runs.store import RunSpec, Store, StoreError

Capsys = pytest.CaptureFixture[str]

# rows as runs write them, with the values that are hard to keep: a win shared by three,
# -0.0, a split pot as a fraction, a total that does not fit 32 bits, NULL totals, words
# in Chinese, an events word with a count
ROWS = [
    ("鬥雀", 7, 3, 0, "random", 1, 1 / 3, 2**40, "5/3", 5 / 3, 12, 0, 1, 0, 2, 0, 0, 1, 0, 2, 5,
     0, "swap:2 bust"),
    ("鬥雀", 7, 3, 1, "hard", 1, 1 / 3, None, "-10/3", -10 / 3, 11, 3, 0, 1, 0, 1, 1, 0, 1, 0,
     -7, 4, ""),
    ("鬥雀", 8, 4, 0, "random", 2, -0.0, -128, "0", 0.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13,
     "cut"),
]  # fmt: skip


def test_rows_come_back_exactly() -> None:
    back = decode(encode_rows("鬥雀", ROWS)).as_rows()
    assert back == ROWS
    # the same values of the same types, -0.0 included
    assert [type(v) for v in back[0]] == [type(v) for v in ROWS[0]]
    assert str(back[2][6]) == "-0.0"
    assert back[1][7] is None


def test_each_column_is_as_narrow_as_its_values() -> None:
    block = decode(encode_rows("鬥雀", ROWS))
    assert block.columns["seat"].dtype.itemsize == 1  # 0 and 1
    assert block.columns["total"].dtype.itemsize == 8  # 2**40
    assert block.columns["deficit"].dtype.itemsize == 1  # -7 to 5
    assert block.columns["win"].dtype.kind == "f"
    assert block.words["agent"] == ["random", "hard"]  # each name once, a number a row
    assert block.columns["agent"].tolist() == [0, 1, 0]
    assert block.nulls["total"].tolist() == [False, True, False]
    assert "seat" not in block.nulls


def test_money_value_is_not_stored_where_it_is_the_money_words_value() -> None:
    blob = encode_rows("鬥雀", ROWS)
    header = json.loads(
        blob[
            len(MAGIC) + 4 : len(MAGIC)
            + 4
            + int.from_bytes(blob[len(MAGIC) : len(MAGIC) + 4], "little")
        ]
    )
    entry = next(c for c in header["columns"] if c[0] == "money_value")
    assert entry[3:] == ["money"]  # computed from the words 5/3, -10/3, 0 when read
    assert decode(blob).columns["money_value"].tolist() == [5 / 3, -10 / 3, 0.0]
    # a money_value that is not the float of its money word is kept as given
    odd = [(*ROWS[0][:9], 1.5, *ROWS[0][10:])]
    assert decode(encode_rows("鬥雀", odd)).as_rows() == odd


def test_blocks_of_the_first_form_are_read() -> None:
    # the first form: zlib, every column stored (as results files written before keep it)
    count = 2
    header = {"profile": "p", "rows": count, "words": {"agent": ["random"], "money": ["3", "-3"],
              "events": [""]}, "columns": []}  # fmt: skip
    parts = []
    for name in STORED:
        if name in ("win", "money_value"):
            values = np.array([1.0, 0.0] if name == "win" else [3.0, -3.0])
        elif name == "money":
            values = np.array([0, 1], np.int8)
        elif name in ("agent", "events"):
            values = np.array([0, 0], np.int8)
        else:
            values = np.array([7, 8], np.int8)
        header["columns"].append([name, values.dtype.str, False])
        parts.append(values.tobytes())
    head = json.dumps(header).encode()
    blob = ZLIB_MAGIC + len(head).to_bytes(4, "little") + head + zlib.compress(b"".join(parts))
    rows = decode(blob).as_rows()
    assert rows[0][:10] == ("p", 7, 7, 7, "random", 7, 1.0, 7, "3", 3.0)
    assert rows[1][8:10] == ("-3", -3.0)


def test_rows_of_an_earlier_form_have_null_later_columns() -> None:
    short = [r[: len(FIRST_COLUMNS)] for r in ROWS]
    back = decode(encode_rows("鬥雀", short)).as_rows()
    later = len(COLUMNS) - len(FIRST_COLUMNS)
    assert back == [(*r, *(None,) * later) for r in short]


def test_no_rows() -> None:
    block = decode(encode_rows("x", []))
    assert block.rows == 0 and block.as_rows() == []
    with pytest.raises(ValueError, match="rows of 鬥雀 in a block of pagat"):
        encode_rows("pagat", ROWS)


def test_columns_given_as_arrays_and_coded_words() -> None:
    import numpy as np

    columns = {name: [row[i + 1] for row in ROWS] for i, name in enumerate(COLUMNS[1:])}
    columns["game"] = np.array([7, 7, 8])
    columns["agent"] = Coded(np.array([1, 0, 1]), ["hard", "random"])
    assert decode(encode("鬥雀", columns, 3)).as_rows() == ROWS
    columns["total"] = None  # NULL in every row
    assert [r[7] for r in decode(encode("鬥雀", columns, 3)).as_rows()] == [None] * 3
    with pytest.raises(ValueError, match="column game: 2 values for 3 rows"):
        encode("鬥雀", {**columns, "game": [7, 8]}, 3)


def test_what_is_not_a_block_is_refused() -> None:
    blob = encode_rows("鬥雀", ROWS)
    with pytest.raises(BlockError, match="not a block of rows"):
        decode(b"SQLite format 3\x00")
    with pytest.raises(BlockError, match="damaged"):
        decode(blob[:-5])  # cut short
    with pytest.raises(BlockError, match="damaged"):
        decode(blob[:20])


def test_a_damaged_block_is_named_with_its_file_and_run(tmp_path: Path) -> None:
    from paiqi_core.profile import load_profile

    store = Store(tmp_path / "r.db")
    spec = RunSpec("compare", ("A",), (), (), False, 0, 3, 3, 4)
    run = store.new_run(spec, {"A": load_profile("pagat", ())})
    store.add_batch(run, "A", 0, encode_rows("鬥雀", ROWS)[:-3])
    with pytest.raises(StoreError, match=rf"r\.db: run {run}, A: damaged block of rows"):
        store.blocks(run, "A")


def _run(tmp_path: Path, capsys: Capsys) -> tuple[str, str]:
    db = str(tmp_path / "r.db")
    argv = ["compare", "doujue", "pagat", "--games", "30", "--batch", "8", "--db", db]
    assert main([*argv, "-q", "--workers", "1", "--json"]) == 0
    return db, json.loads(capsys.readouterr().out)["run"]


def test_sql_sees_one_row_per_game_per_seat(tmp_path: Path, capsys: Capsys) -> None:
    db, run = _run(tmp_path, capsys)
    query = "SELECT profile, COUNT(*), COUNT(DISTINCT game), SUM(win) FROM seats GROUP BY 1"
    assert main(["sql", query, "--db", db, "--csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    # 30 deals of 4 seats each; a game's wins (shares of a tie included) add up to 1
    assert rows == [
        ["profile", "COUNT(*)", "COUNT(DISTINCT game)", "SUM(win)"],
        ["doujue", "120", "30", "30.0"],
        ["pagat", "120", "30", "30.0"],
    ]
    assert main(["sql", "SELECT DISTINCT run FROM seats", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"run": run}]
    # the file itself keeps no row of them: each batch is one block
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM seats").fetchone() == (0,)
        assert con.execute("SELECT COUNT(*) FROM batches WHERE rows IS NULL").fetchone() == (0,)
        assert con.execute("SELECT COUNT(*) FROM batches").fetchone() == (8,)  # 4 of 8 each


def test_sql_of_one_run(tmp_path: Path, capsys: Capsys) -> None:
    db, first = _run(tmp_path, capsys)
    argv = ["simulate", "pagat", "--games", "5", "--db", db, "-q", "--workers", "1", "--json"]
    assert main(argv) == 0
    capsys.readouterr()
    with Store.reader(Path(db)) as store:
        second = store.runs()[-1].id
    assert second != first
    count = "SELECT run, COUNT(*) FROM seats GROUP BY run ORDER BY 2 DESC"
    assert main(["sql", count, "--db", db, "--run", "last", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"run": second, "COUNT(*)": 20}]
    assert main(["sql", count, "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [
        {"run": first, "COUNT(*)": 240},
        {"run": second, "COUNT(*)": 20},
    ]
    assert main(["sql", "SELECT 1", "--db", db, "--run", "nope"]) == 2
    assert "no run 'nope'" in capsys.readouterr().err


def test_sql_reads_and_never_writes(tmp_path: Path, capsys: Capsys) -> None:
    db, _ = _run(tmp_path, capsys)
    before = Path(db).read_bytes()
    assert main(["sql", "DELETE FROM batches", "--db", db]) == 2
    assert "sql: this command only reads the file" in capsys.readouterr().err
    assert main(["sql", "SELECT nope FROM seats", "--db", db]) == 2
    assert "sql: no such column: nope" in capsys.readouterr().err
    assert Path(db).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.db"]
    assert main(["sql", "  ", "--db", db]) == 2
    assert "sql: an empty query" in capsys.readouterr().err
    empty = tmp_path / "e.db"
    Store(empty).close()
    assert main(["sql", "SELECT 1", "--db", str(empty)]) == 2
    assert "holds no run" in capsys.readouterr().err


def test_sql_prints_a_table(tmp_path: Path, capsys: Capsys) -> None:
    db, _ = _run(tmp_path, capsys)
    query = "SELECT profile, seat, COUNT(*) AS games FROM seats GROUP BY 1, 2 ORDER BY 1, 2"
    assert main(["sql", query, "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["profile", "seat", "games"]
    assert [line.split() for line in lines[2:]] == [
        [p, str(s), "30"] for p in ("doujue", "pagat") for s in range(4)
    ]


def test_sql_unpacks_rows_only_for_a_query_of_them(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, run = _run(tmp_path, capsys)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("rows unpacked")

    monkeypatch.setattr(Store, "expand", refuse)
    assert main(["sql", "SELECT id, command FROM runs", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"id": run, "command": "compare"}]
    with pytest.raises(AssertionError, match="rows unpacked"):
        main(["sql", "SELECT COUNT(*) FROM Seats", "--db", db])
