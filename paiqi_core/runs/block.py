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
NULLs, the words of each word column) and the zlib-compressed columns, each followed by its
NULL marks (one byte a row) where it has any. Decoding gives back the rows exactly: the same
integers, the same floats to the last bit, the same words, None where there was None.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from paiqi_core.runs.batch import COLUMNS, Row

MAGIC = b"paiqi-rows/1\n"
STORED = COLUMNS[1:]  # the rule set's name is the batch's, kept once in the header
WORDS = ("agent", "money", "events")  # columns of text
FLOATS = ("win", "money_value")
INTS = tuple(c for c in STORED if c not in WORDS and c not in FLOATS)
LEVEL = 1  # zlib's fastest: most of the gain, a small share of the time


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


def _narrow(values: np.ndarray) -> np.ndarray:
    """Integers in the narrowest signed type that holds them all."""
    if not len(values):
        return values.astype(np.int8)
    low, high = int(values.min()), int(values.max())
    for dtype in (np.int8, np.int16, np.int32):
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return values.astype(dtype)
    return values.astype(np.int64)


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
    parts: list[bytes] = []
    for name in STORED:
        values = columns.get(name)
        if values is None and name in WORDS:
            values = Coded(np.zeros(count, np.int64), [None])
        if values is None:  # NULL in every row
            header["columns"].append([name, "|i1", True])
            parts += [bytes(count), b"\x01" * count]
            continue
        if len(values) != count:
            raise ValueError(f"column {name}: {len(values)} values for {count} rows")
        if name in WORDS:
            if not isinstance(values, Coded):
                values = Coded.of(values)
            data = _narrow(np.asarray(values.codes, dtype=np.int64))
            header["words"][name] = list(values.words)
            nulls = None
        else:
            nulls = _nulls(values, count)
            if nulls is not None:
                values = [0 if v is None else v for v in values]
            if name in FLOATS:
                data = np.asarray(values, dtype=np.float64)
            else:
                data = _narrow(np.asarray(values, dtype=np.int64))
        header["columns"].append([name, data.dtype.str, nulls is not None])
        parts.append(data.tobytes())
        if nulls is not None:
            parts.append(nulls.tobytes())
    head = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode()
    body = zlib.compress(b"".join(parts), LEVEL)
    return MAGIC + len(head).to_bytes(4, "little") + head + body


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
    if not blob.startswith(MAGIC):
        raise BlockError("not a block of rows (unknown format)")
    at = len(MAGIC)
    size = int.from_bytes(blob[at : at + 4], "little")
    try:
        header = json.loads(blob[at + 4 : at + 4 + size])
        body = zlib.decompress(blob[at + 4 + size :])
        count = int(header["rows"])
        columns: dict[str, np.ndarray] = {}
        nulls: dict[str, np.ndarray] = {}
        offset = 0
        for name, dtype, has_nulls in header["columns"]:
            kind = np.dtype(dtype)
            columns[name] = np.frombuffer(body, kind, count, offset)
            offset += kind.itemsize * count
            if has_nulls:
                nulls[name] = np.frombuffer(body, bool, count, offset)
                offset += count
        if offset != len(body):
            raise BlockError(f"{len(body) - offset} bytes left over")
        return Block(header["profile"], count, columns, nulls, header["words"])
    except (ValueError, KeyError, TypeError, zlib.error) as e:
        if isinstance(e, BlockError):
            raise
        raise BlockError(f"damaged block of rows ({e})") from None
