"""A batch's rows as one block of columns: the form in which a results file keeps its games.

A run of the compiled engine plays 400,000 games of a profile in seconds, and SQLite takes
several microseconds for each row a program inserts one value at a time: 1.6 million seat
rows cost more than playing their games. So a batch's rows travel from the worker and rest
in the file as one block: each column a run of fixed-width numbers (the narrowest integer
type that holds its values, or 64-bit floats), a column of words (agent, exact money,
events) as numbers into the list of its distinct words, all compressed together. Writing a
batch is then one insert, a report reads a profile's columns straight into arrays, and the
file is several times smaller than a table of rows.

A block is ``MAGIC``, the length of its header (4 bytes, little-endian), the header (JSON:
the rule set's name, the number of rows, each column's name and type and whether it has
NULLs, the words of each word column) and the Zstandard-compressed columns, each followed by
its NULL marks (one byte a row) where it has any. A column of floats that is the value of a
column of words (``money_value``: the float of each exact ``money``) is not stored: its
header entry names that column, and decoding computes it. Decoding gives back the rows
exactly: the same integers, the same floats to the last bit, the same words, None where
there was None. Blocks of the first form (``paiqi-rows/1``: zlib, every column stored) are
read as before.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import zstandard

from paiqi_core.runs.batch import COLUMNS, Row

MAGIC = b"paiqi-rows/2\n"
ZLIB_MAGIC = b"paiqi-rows/1\n"  # the first form: zlib, every column stored
STORED = COLUMNS[1:]  # the rule set's name is the batch's, kept once in the header
WORDS = ("agent", "money", "events")  # columns of text
FLOATS = ("win", "money_value")
INTS = tuple(c for c in STORED if c not in WORDS and c not in FLOATS)
LEVEL = 1  # Zstandard's fastest: smaller than zlib's fastest, at a quarter of its time
VALUE_OF = {"money_value": "money"}  # a float column that is the value of a word column


class Coded(NamedTuple):
    """A column of words given as each row's place in ``words``."""

    codes: np.ndarray
    words: list[Any]

    @classmethod
    def of(cls, values: Sequence[Any]) -> Coded:
        """The column of ``values``, each distinct word listed once, in order of first use."""
        words = list(dict.fromkeys(values))  # None too, if any: JSON keeps it
        index = {w: i for i, w in enumerate(words)}
        return cls(np.fromiter(map(index.__getitem__, values), np.int64, len(values)), words)

    def __len__(self) -> int:
        return len(self.codes)

    def values(self) -> list[Any]:
        """The words, row by row."""
        return list(map(self.words.__getitem__, self.codes.tolist()))


class BlockError(ValueError):
    """Bytes that are not a block of rows (damaged, or written by another program)."""


def _integers(values: Any) -> np.ndarray:
    """A column of integers as an array (kept in its type if it is one already)."""
    if isinstance(values, np.ndarray) and values.dtype.kind == "i":
        return values
    return np.asarray(values, dtype=np.int64)


def _narrow(values: np.ndarray) -> np.ndarray:
    """Integers in the narrowest signed type that holds them all (``values`` itself if it
    is of that type)."""
    if not len(values):
        return values.astype(np.int8)
    low, high = int(values.min()), int(values.max())
    for dtype in (np.int8, np.int16, np.int32):
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return values.astype(dtype, copy=False)
    return values.astype(np.int64, copy=False)


def _nulls(values: Any, count: int) -> np.ndarray | None:
    """The rows where ``values`` is None (None when there are none)."""
    if isinstance(values, np.ndarray) or None not in values:
        return None
    marks = np.fromiter((v is None for v in values), dtype=bool, count=count)
    return marks if marks.any() else None


def encode(profile: str, columns: Mapping[str, Any], count: int) -> bytes:
    """The block of ``count`` rows of rule set ``profile`` given as columns (by name of
    ``runs.batch.COLUMNS``: a list of Python values, None for NULL, or a NumPy array of
    numbers; a column of words may come as ``Coded``). A column left out (or None) is NULL
    in every row (a row of an earlier form lacks the
    later columns)."""
    header: dict[str, Any] = {"profile": profile, "rows": count, "columns": [], "words": {}}
    parts: list[np.ndarray] = []
    for name in STORED:
        values = columns.get(name)
        if values is None and name in WORDS:
            values = Coded(np.zeros(count, np.int64), [None])
        if values is None:  # NULL in every row
            header["columns"].append([name, "|i1", True])
            parts += [np.zeros(count, np.int8), np.ones(count, np.bool_)]
            continue
        if len(values) != count:
            raise ValueError(f"column {name}: {len(values)} values for {count} rows")
        if name in WORDS:
            if not isinstance(values, Coded):
                values = Coded.of(values)
            data = _narrow(_integers(values.codes))
            header["words"][name] = list(values.words)
            nulls = None
        else:
            nulls = _nulls(values, count)
            if nulls is not None:
                values = [0 if v is None else v for v in values]
            if name in FLOATS:
                data = np.asarray(values, dtype=np.float64)
            else:
                data = _narrow(_integers(values))
        source = VALUE_OF.get(name)
        if source and nulls is None and _same_floats(data, _values_of(columns.get(source))):
            header["columns"].append([name, data.dtype.str, False, source])
            continue
        header["columns"].append([name, data.dtype.str, nulls is not None])
        parts.append(data)
        if nulls is not None:
            parts.append(nulls)
    head = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode()
    body = zstandard.ZstdCompressor(level=LEVEL).compress(_joined(parts))
    return MAGIC + len(head).to_bytes(4, "little") + head + body


def _joined(parts: Sequence[np.ndarray]) -> memoryview:
    """The bytes of the arrays ``parts`` one after another (each copied once, into one
    buffer: not into bytes of its own, then joined)."""
    body = np.empty(sum(p.nbytes for p in parts), np.uint8)
    at = 0
    for p in parts:
        body[at : at + p.nbytes].view(p.dtype)[:] = p
        at += p.nbytes
    return body.data


def _floats(words: Sequence[Any]) -> np.ndarray | None:
    """The float of each exact amount in ``words`` ("12", "-5/3"); None if one is not."""
    try:
        return np.array([float(_amount(w)) for w in words], dtype=np.float64)
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def _amount(word: Any) -> int | Fraction:
    if isinstance(word, str) and word.lstrip("-").isdigit():
        return int(word)
    return Fraction(word)


def _values_of(column: Any) -> np.ndarray | None:
    """The float of each row's word of a word column (None if a word is not an amount)."""
    if column is None:
        return None
    coded = column if isinstance(column, Coded) else Coded.of(column)
    floats = _floats(coded.words)
    return None if floats is None else floats[np.asarray(coded.codes, dtype=np.int64)]


def _same_floats(a: np.ndarray, b: np.ndarray | None) -> bool:
    """The same floats to the last bit (-0.0 is not 0.0)."""
    return (
        b is not None and a.shape == b.shape and bool((a.view(np.int64) == b.view(np.int64)).all())
    )


def encode_rows(profile: str, rows: Sequence[Row]) -> bytes:
    """The block of ``rows`` (tuples in the order of ``runs.batch.COLUMNS``; a row of an
    earlier form may stop after the first columns)."""
    others = {r[0] for r in rows} - {profile}
    if others:
        raise ValueError(f"rows of {', '.join(map(str, others))} in a block of {profile}")
    width = max((len(r) for r in rows), default=len(COLUMNS))
    full = [r if len(r) == width else (*r, *(None,) * (width - len(r))) for r in rows]
    columns = dict(
        zip(COLUMNS[1:width], (list(c) for c in list(zip(*full, strict=True))[1:]), strict=False)
    )
    return encode(profile, columns, len(rows))


@dataclass(frozen=True)
class Block:
    """A decoded block: ``columns`` by name (integers, floats, or for a word column the
    number of each row's word in ``words[name]``), ``nulls`` by name for the columns that
    have NULLs (True where NULL; the value there is 0)."""

    profile: str
    rows: int
    columns: dict[str, np.ndarray]
    nulls: dict[str, np.ndarray]
    words: dict[str, list[Any]]

    def values(self, name: str) -> list[Any]:
        """Column ``name`` as Python values, as the row had them (None for NULL)."""
        if name == "profile":
            return [self.profile] * self.rows
        if name in WORDS:
            return list(map(self.words[name].__getitem__, self.columns[name].tolist()))
        out: list[Any] = self.columns[name].tolist()
        nulls = self.nulls.get(name)
        if nulls is not None:
            for i in np.flatnonzero(nulls).tolist():
                out[i] = None
        return out

    def as_rows(self) -> list[Row]:
        """The rows, as tuples in the order of ``runs.batch.COLUMNS``."""
        return list(zip(*(self.values(c) for c in COLUMNS), strict=True))


def decode(blob: bytes) -> Block:
    """The rows of a block; BlockError if ``blob`` is not one."""
    first = blob.startswith(ZLIB_MAGIC)
    if not first and not blob.startswith(MAGIC):
        raise BlockError("not a block of rows (unknown format)")
    at = len(MAGIC)
    size = int.from_bytes(blob[at : at + 4], "little")
    try:
        header = json.loads(blob[at + 4 : at + 4 + size])
        packed = blob[at + 4 + size :]
        body = zlib.decompress(packed) if first else _unpack(packed)
        count = int(header["rows"])
        words = header["words"]
        columns: dict[str, np.ndarray] = {}
        nulls: dict[str, np.ndarray] = {}
        offset = 0
        for name, dtype, has_nulls, *source in header["columns"]:
            if source:  # the value of each row's word of another column
                floats = _floats(words[source[0]])
                if floats is None:
                    raise BlockError(f"{source[0]} holds a word that is not an amount")
                columns[name] = floats[columns[source[0]]]
                continue
            kind = np.dtype(dtype)
            columns[name] = np.frombuffer(body, kind, count, offset)
            offset += kind.itemsize * count
            if has_nulls:
                nulls[name] = np.frombuffer(body, bool, count, offset)
                offset += count
        if offset != len(body):
            raise BlockError(f"{len(body) - offset} bytes left over")
        return Block(header["profile"], count, columns, nulls, words)
    except (ValueError, KeyError, TypeError, IndexError, zlib.error, zstandard.ZstdError) as e:
        if isinstance(e, BlockError):
            raise
        raise BlockError(f"damaged block of rows ({e})") from None


def _unpack(packed: bytes) -> bytes:
    """The columns of a block, decompressed."""
    return zstandard.ZstdDecompressor().decompress(packed)
