"""The rows of a kernel batch read from its result table (``runs.kernel_rows``, compiled in
``fast.columns``), against the table read cell by cell in Python: tables of every width
of integer, amounts that are not whole, events that count cuts, and more distinct values
than the quick ways of numbering them take."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from paiqi_core.core import layout as L
from paiqi_core.engine import Game
from paiqi_core.fast.compiled import Played, compiled_game
from paiqi_core.runs.block import Coded, decode, encode
from paiqi_core.runs.kernel_rows import (
    COUNTED,
    HASHED,
    NARROW,
    distinct,
    events_text,
    game_columns,
    game_rows,
)


def cells(compiled: Any, played: Played, indices: list[int], agents: list[tuple[str, ...]]):
    """Each row's columns as ``runs.kernel_rows.game_columns`` gives them, read cell by
    cell: name -> list of values."""
    n = compiled.players
    out: dict[str, list[Any]] = {name: [] for name, _ in NARROW}
    for key in ("game", "deal", "seat", "agent", "win", "money", "money_value", "events"):
        out[key] = []
    has_total = all(int(g[L.G_HAS_TOTAL]) for g in played.game)
    for g, index in enumerate(indices):
        game = played.game[g]
        for seat in range(n):
            row = [int(v) for v in played.res[g, seat]]
            for name, place in NARROW:
                out[name].append(row[place])
            money = Fraction(row[L.X_MONEY], int(game[L.G_DEN])) * compiled.stake
            out["game"].append(index)
            out["deal"].append(index)
            out["seat"].append(seat)
            out["agent"].append(agents[g][seat])
            out["win"].append(1 / int(game[L.G_WINNERS]) if row[L.X_WIN] == 1 else 0.0)
            out["money"].append(str(money))
            out["money_value"].append(float(money))
            counts = [row[field] for field, _ in COUNTED]
            out["events"].append(events_text(counts, row[L.X_EVENTS]))
    if not has_total:
        out["total"] = [None] * len(out["game"])
    return out


def narrowest(values: list[int]) -> np.dtype[Any]:
    low, high = min([0, *values]), max([0, *values])
    for kind in (np.int8, np.int16, np.int32):
        if np.iinfo(kind).min <= low and high <= np.iinfo(kind).max:
            return np.dtype(kind)
    return np.dtype(np.int64)


def same_columns(columns: dict[str, Any], expected: dict[str, list[Any]]) -> None:
    for name, values in expected.items():
        column = columns[name]
        if column is None:
            assert values == [None] * len(values), name
        elif isinstance(column, Coded):
            assert column.values() == values, name
            if name != "money":  # an amount that is not whole is written for its row
                assert len(set(column.words)) == len(column.words), name  # each word once
        else:
            assert column.tolist() == values, name
            if name in dict(NARROW):
                assert column.dtype == narrowest(values), name


def table(
    profile: str, games: int, scale: int, *, totals: bool = True, seed: int = 0
) -> tuple[Any, Played]:
    """A result table of ``games`` games of ``profile`` filled at random, its integers
    up to ``scale`` either side of 0 (``totals``: whether the games keep totals)."""
    compiled = compiled_game(Game(profile).rules)
    n = compiled.players
    rng = np.random.default_rng(seed)
    res = rng.integers(-scale, scale + 1, size=(games, n, L.SEAT_FIELDS))
    for field, _ in COUNTED:
        res[:, :, field] = rng.integers(0, 3, size=(games, n))
    res[:, :, L.X_EVENTS] = rng.integers(0, 32, size=(games, n))
    res[:, :, L.X_WIN] = rng.integers(0, 2, size=(games, n))
    game = np.zeros((games, L.GAME_FIELDS), np.int64)
    game[:, L.G_DEN] = rng.integers(1, 7, size=games)
    game[:, L.G_WINNERS] = rng.integers(1, 4, size=games)
    game[:, L.G_HAS_TOTAL] = totals
    return compiled, Played(res, game, None, None)


@pytest.mark.parametrize(
    ("profile", "games", "scale", "totals"),
    [
        ("doujue", 1500, 100, True),  # int8 and int16; events counting cuts: hashed
        ("doujue", 300, 40_000, True),  # int32
        ("pagat", 700, 2**40, False),  # int64, no totals
        ("doujue", 1, 5, True),
        ("doujue", 0, 5, True),
    ],
)
def test_columns_are_the_table_read_cell_by_cell(
    profile: str, games: int, scale: int, totals: bool
) -> None:
    compiled, played = table(profile, games, scale, totals=totals, seed=games)
    indices = list(range(10, 10 + games))
    agents = [("random",) * compiled.players] * games
    columns = game_columns(compiled, played, indices, indices, agents)
    expected = cells(compiled, played, indices, agents)
    same_columns(columns, expected)
    # the block keeps them: decoded, the same rows as the rows of the cells
    rows = game_rows(compiled, played, profile, indices, indices, agents)
    assert decode(encode(profile, columns, len(rows))).as_rows() == rows


def test_amounts_of_a_real_batch_with_a_stake() -> None:
    game = Game("doujue", ("scoring.stake=0.5",))
    compiled = compiled_game(game.rules)
    indices = list(range(2000))
    played = compiled.play_run(5, indices)
    agents = [("random", "easy", "random", "easy")] * len(indices)
    columns = game_columns(compiled, played, indices, indices, agents)
    expected = cells(compiled, played, indices, agents)
    assert any("/" in m for m in expected["money"])  # amounts that are not whole
    same_columns(columns, expected)


def test_rotated_seatings_name_each_player_once() -> None:
    compiled, played = table("doujue", 50, 10)
    seatings = [("a", "b", "c", "d"), ("b", "c", "d", "a"), ("c", "d", "a", "b")]
    agents = [seatings[(g * 7) % 3] for g in range(50)]
    indices = list(range(50))
    column = game_columns(compiled, played, indices, [3 * i for i in indices], agents)["agent"]
    assert column.values() == [name for names in agents for name in names]
    assert column.words == ["a", "b", "c", "d"]  # in order of first use


@pytest.mark.parametrize("kinds", [3, HASHED // 2, HASHED // 2 + 1, 100_000])
@pytest.mark.parametrize("spread", [10, 1 << 48, 1 << 62])
def test_distinct_numbers_values_as_sorting_them_does(kinds: int, spread: int) -> None:
    rng = np.random.default_rng(kinds + spread)
    pool = np.unique(rng.integers(-spread, spread, size=kinds))
    values = rng.choice(pool, size=max(HASHED, 3 * kinds))
    expected = np.unique(values, return_inverse=True)
    for spent in (False, True):
        copy = values.copy()
        found = distinct(copy, spent=spent)
        assert found[0].tolist() == expected[0].tolist()
        assert found[1].tolist() == expected[1].reshape(-1).tolist()
        if not spent:
            assert copy.tolist() == values.tolist()
    assert [a.tolist() for a in distinct(values[:0])] == [[], []]


def test_a_replayed_games_values_beyond_a_narrowed_column_widen_it() -> None:
    from paiqi_core.runs.kernel_batch import _patch

    columns = {"leads": np.array([1, 2, 3, 4], np.int8), "total": None}
    _patch(columns, "leads", 2, [300, -5])
    assert columns["leads"].tolist() == [1, 2, 300, -5]
    _patch(columns, "total", 0, [None, None])  # NULL in every row stays NULL
    assert columns["total"] is None
    narrow = {"rank": np.array([1, 2], np.int8)}
    _patch(narrow, "rank", 0, [2, 1])  # values that fit keep the narrow column
    assert narrow["rank"].dtype == np.int8 and narrow["rank"].tolist() == [2, 1]
