"""A rule set's stored rows as NumPy arrays, and the report's figures computed from them.

A report reads every row of a run several times over: rates by game, by seat and by player,
differences paired with the base, the design measures. A run of the compiled engine holds
400,000 rows per profile. Here each rule set's rows are read once, into arrays of one row
per game and one column per seat: from the blocks of columns its batches keep
(``runs.block``), or, in a file of an earlier paiqi, with one query of its seats table
(SQLite joins each column into one text, ``group_concat``, which NumPy parses at once).
Every figure is then computed from those arrays.

The figures are the same, to the last bit, as the SQL queries and Python loops of
``runs.stats`` and ``runs.design`` give: sums of integers are exact in any order, and sums
of floats are made in the same order as there (games in order, seats in order within a
game, one after another: ``np.cumsum``, never NumPy's pairwise ``sum``), or exactly rounded
in both (``math.fsum``). Those modules compute their figures here; their own queries, over
the rows ``Store.expand`` unpacks, stay as the reference that ``tests/test_arrays.py``
checks these figures against (``available`` turned off).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from paiqi_core.runs.stats import GAME_METRICS, Z95, Estimate
from paiqi_core.runs.store import _literal

if TYPE_CHECKING:
    import numpy as np

    from paiqi_core.runs.block import Block
    from paiqi_core.runs.design import Setting
    from paiqi_core.runs.store import Store

SEPARATOR = "\x1f"  # between the texts of a column (agents, events): in no name or word
# the columns summed per game (the player's counts of a game), as read from the store
COUNTS = ("actions", "covers", "passes", "burst", "closures", "last_seven", "all_covered",
          "jokers")  # fmt: skip
LATER = ("turn_order", "leads", "deficit", "cards_left", "events")  # may be missing


def available() -> bool:
    """Whether reports are computed here: NumPy is installed (a dependency of paiqi; tests
    turn this off to compute the same figures with the SQL queries)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass
class Rows:
    """One rule set's rows: per game (in game order) the players' counts summed, and per
    game and seat what the figures need of each row (``present`` marks the rows that
    exist: every seat of every game, unless the file was written otherwise)."""

    name: str
    games: np.ndarray  # (games,) game numbers, ascending
    present: np.ndarray  # (games, seats) bool
    counts: dict[str, np.ndarray]  # COUNTS summed over the seats of each game: (games,)
    win: np.ndarray  # (games, seats) float
    money: np.ndarray  # money_value: (games, seats) float
    total: np.ndarray  # (games, seats) int, 0 where NULL
    has_total: np.ndarray  # (games, seats) bool: total not NULL
    agent: np.ndarray  # (games, seats) index into ``agents``
    agents: tuple[str, ...]
    # the later columns (``recorded``: the file has them and every row fills them)
    recorded: bool = False
    turn_order: np.ndarray | None = None  # -1 where NULL
    leads: np.ndarray | None = None
    deficit: np.ndarray | None = None
    cards_left: np.ndarray | None = None
    events: np.ndarray | None = None  # index into ``texts``
    texts: tuple[str, ...] = ("",)
    later: bool = field(default=False)  # the file has the later columns

    @property
    def seats(self) -> int:
        """Seats per game (the widest game's)."""
        return int(self.present.shape[1])


def read(store: Store, run: str, name: str, agents: Sequence[str] = ()) -> Rows:
    """The rows of rule set ``name`` of ``run``: from the blocks its batches keep, or from
    the seats table where an earlier paiqi wrote them there (``read_table``)."""
    if store.in_table(run, name):
        store.expand(run)  # a run it started and this one went on with: rows of both
        return read_table(store, run, name, agents)
    return from_blocks(name, store.blocks(run, name))


def from_blocks(name: str, blocks: Sequence[Block]) -> Rows:
    """The rows of rule set ``name`` from the blocks of its batches, in game order."""
    import numpy as np

    def joined(column: str) -> np.ndarray:
        parts = [b.columns[column] for b in blocks]
        return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64)

    def null(column: str) -> np.ndarray:
        parts = [b.nulls.get(column, np.zeros(b.rows, bool)) for b in blocks]
        return np.concatenate(parts) if parts else np.zeros(0, bool)

    def words(column: str, first: Sequence[str] = ()) -> tuple[np.ndarray, list[str]]:
        known = {w: i for i, w in enumerate(first)}
        parts = []
        for b in blocks:
            own = b.words[column]
            index = np.array([known.setdefault(w, len(known)) for w in own], dtype=np.int64)
            parts.append(index[b.columns[column]] if len(own) else np.zeros(b.rows, np.int64))
        return (np.concatenate(parts) if parts else np.zeros(0, np.int64)), list(known)

    def floats(column: str) -> np.ndarray:
        parts = [np.where(b.nulls[column], 0.0, b.columns[column]) if column in b.nulls
                 else b.columns[column] for b in blocks]  # fmt: skip
        return np.concatenate(parts) if parts else np.zeros(0, np.float64)

    at = {c: joined(c) for c in ("game", "seat", *COUNTS, "total", *LATER[:-1])}
    agent, names = words("agent")
    events, texts = words("events", [""])
    if None in texts:  # no events recorded (a row of an earlier form): none fired
        events[events == texts.index(None)] = 0  # type: ignore[arg-type]
    unrecorded = null("turn_order")
    return _assemble(
        name, at["game"], at["seat"], at, floats("win"), floats("money_value"),
        ~null("total"), agent, names, True, unrecorded, events, tuple(texts),
    )  # fmt: skip


def read_table(store: Store, run: str, name: str, agents: Sequence[str] = ()) -> Rows:
    """The rows of rule set ``name`` of ``run`` from the seats table, read with one scan
    of them (and one more for the few wins and amounts of money that are not whole numbers,
    read as they are). ``agents``: the names its players are expected to have (read as
    numbers, which SQLite gives faster than names; any other name is read as it is)."""
    import numpy as np

    later = all(c in store.columns("seats") for c in LATER)
    named = list(dict.fromkeys(agents))
    agent = " ".join(f"WHEN {_literal(a)} THEN {i}" for i, a in enumerate(named))
    ints = ["game", "seat", *COUNTS, "total", "CAST(win AS INTEGER)",
            "CAST(money_value AS INTEGER)", f"CASE agent {agent} ELSE -1 END" if named else "-1",
            "(total IS NULL) + 2 * (turn_order IS NULL)" if later else "total IS NULL"]  # fmt: skip
    if later:
        ints += ["turn_order", "leads", "deficit", "cards_left", "ifnull(events, '') != ''"]
    # NULLs are read as 0 (with a mark of their own where it matters): a text that left
    # them out would no longer line its values up with the other columns'
    parts = [f"group_concat(ifnull({c}, 0))" for c in ints]
    if later:  # the events of the rows that have any (most have none)
        parts.append("group_concat(nullif(events, ''), char(31))")  # SEPARATOR
    where = "WHERE run = ? AND profile = ?"
    row = next(store.query(f"SELECT COUNT(*), {', '.join(parts)} FROM seats {where}", run, name))
    count = row[0]
    at = dict(zip(ints, (_ints(text, count) for text in row[1 : 1 + len(ints)]), strict=True))
    texts: tuple[str, ...] = ("",)
    if later:  # each row's events as a number: its text's place in order of appearance
        fired = at.pop("ifnull(events, '') != ''").astype(bool)
        words = row[-1].split(SEPARATOR) if row[-1] is not None else []
        if len(words) != int(fired.sum()):
            raise ValueError(f"read {len(words)} events of {int(fired.sum())} rows")
        texts = tuple(dict.fromkeys(["", *words]))
        index = {t: i for i, t in enumerate(texts)}
        at["events"] = np.zeros(count, dtype=np.int64)
        at["events"][fired] = np.fromiter(map(index.__getitem__, words), np.int64, len(words))
    game, seat = at["game"], at["seat"]
    width = int(seat.max()) + 1 if count else 0
    key = game * width + seat
    order = np.argsort(key, kind="stable")
    win = at["CAST(win AS INTEGER)"].astype(np.float64)
    money = at["CAST(money_value AS INTEGER)"].astype(np.float64)
    for g, s, w, m in store.query(  # fractions (a win shared by three, a split pot), as stored
        f"SELECT game, seat, ifnull(win, 0.0), ifnull(money_value, 0.0) FROM seats {where} "
        "AND (win != CAST(win AS INTEGER) OR money_value != CAST(money_value AS INTEGER))",
        run,
        name,
    ):
        at_row = order[np.searchsorted(key[order], g * width + s)]
        win[at_row], money[at_row] = float(w), float(m)
    codes = at[ints[len(COUNTS) + 5]]
    names = named
    if (codes < 0).any():  # a player of another name than expected: read by name
        others = list(store.query(f"SELECT game, seat, agent FROM seats {where}", run, name))
        others.sort(key=lambda r: (r[0], r[1]))
        names = list(dict.fromkeys([*named, *(r[2] for r in others)]))
        index = {a: i for i, a in enumerate(names)}
        codes = np.empty(count, dtype=np.int64)
        codes[order] = [index[r[2]] for r in others]
    nulls = at[ints[len(COUNTS) + 6]]
    return _assemble(
        name, game, seat, at, win, money, nulls % 2 == 0, codes, names, later, nulls >= 2,
        at.get("events"), texts,
    )  # fmt: skip


def _assemble(
    name: str,
    game: np.ndarray,
    seat: np.ndarray,
    at: dict[str, np.ndarray],
    win: np.ndarray,
    money: np.ndarray,
    has_total: np.ndarray,
    codes: np.ndarray,
    names: Sequence[str],
    later: bool,
    unrecorded: np.ndarray,
    events: np.ndarray | None,
    texts: tuple[str, ...],
) -> Rows:
    """Rows from one value per stored row (in any order) of each column: ``at`` holds the
    integer columns by name (``COUNTS``, ``total``, and with ``later`` the course columns),
    ``codes`` each row's agent as a place in ``names``, ``unrecorded`` the rows without
    course columns, ``events`` each row's place in ``texts``."""
    import numpy as np

    count = len(game)
    width = int(seat.max()) + 1 if count else 0
    if count and (seat.min() < 0 or width > 64):
        raise ValueError(f"{name}: seats numbered {int(seat.min())} to {width - 1}")
    key = game * width + seat
    columns = {**at, "win": win, "money": money, "has_total": has_total, "codes": codes,
               "unrecorded": unrecorded}  # fmt: skip
    if events is not None:
        columns["events"] = events
    if not np.all(key[1:] > key[:-1]):  # rows come in key order; this makes sure of it
        order = np.argsort(key, kind="stable")
        columns = {c: v[order] for c, v in columns.items()}
        game, seat = game[order], seat[order]
    games, g = np.unique(game, return_inverse=True)
    shape = (len(games), width)
    # every game with every seat (as runs write them): the columns are the grid already
    full = count == shape[0] * shape[1] and bool(np.all(seat == np.tile(np.arange(width),
                                                                        shape[0])))  # fmt: skip

    def grid(v: Any, fill: Any = 0, dtype: Any = np.int64) -> np.ndarray:
        if full:
            return np.broadcast_to(v, count).astype(dtype).reshape(shape)
        out = np.full(shape, fill, dtype=dtype)
        out[g, seat] = v
        return out

    counts = {c: grid(columns[c]).sum(axis=1) for c in COUNTS}  # integers: exact in any order
    # by name in sorted order, as SQL groups them
    rank = np.argsort(np.array(names, dtype=object)).argsort() if names else np.zeros(0, int)
    codes = columns["codes"]
    rows = Rows(
        name,
        games,
        grid(True, False, bool),
        counts,
        grid(columns["win"], 0, np.float64),
        grid(columns["money"], 0, np.float64),
        grid(columns["total"]),
        grid(columns["has_total"], False, bool),
        grid(rank[codes] if len(names) else codes, -1),
        tuple(sorted(names)),
        later=later,
    )
    if later:
        unrecorded = columns["unrecorded"]
        rows.recorded = count > 0 and not unrecorded.any()
        rows.turn_order = grid(np.where(unrecorded, -1, columns["turn_order"]), -1)
        rows.leads = grid(columns["leads"])
        rows.deficit = grid(columns["deficit"])
        rows.cards_left = grid(columns["cards_left"])
        rows.events = grid(columns["events"])
        rows.texts = texts
    return rows


def reader(run: str, name: str, spec: Any) -> Callable[[Store], Rows]:
    """A task that reads rule set ``name`` of ``run`` from a store (for ``Store.each``),
    expecting the players the run's ``spec`` seats at its games."""
    agents = tuple(spec.agents_of(name)) or ("random",)
    return lambda store: read(store, run, name, agents)


def _ints(text: str | None, count: int) -> np.ndarray:
    """The integers of a ``group_concat`` text (None: no rows)."""
    import numpy as np

    if not count:
        return np.zeros(0, dtype=np.int64)
    values = np.fromstring(text or "", dtype=np.int64, sep=",")
    if len(values) != count:
        raise ValueError(f"read {len(values)} integers of {count} rows")
    return values


# ------------------------------------------------------------------------ sums
def sequential(values: np.ndarray) -> float:
    """``0.0 + v0 + v1 + ...`` one after another, as Python's loop and SQLite's ``SUM``
    add them (NumPy's ``sum`` adds pairwise, which rounds differently)."""
    import numpy as np

    if not len(values):
        return 0.0
    return float(np.cumsum(values, dtype=np.float64)[-1]) + 0.0  # -0.0 as 0.0 + -0.0 gives


def _seat_sum(values: np.ndarray) -> np.ndarray:
    """Per game, the seats' values added in seat order from 0.0 (SQLite's ``SUM`` over a
    game's rows, which it reads in seat order)."""
    import numpy as np

    out = np.zeros(values.shape[0], dtype=np.float64)
    for s in range(values.shape[1]):
        out = out + values[:, s]
    return out


def estimate(values: np.ndarray) -> Estimate:
    """``design.estimate``: the mean of ``values`` with its 95% interval, from sums made in
    its order."""
    import numpy as np

    if values.dtype.kind in "iub":
        squares = (values.astype(np.int64) ** 2).astype(np.float64)
    else:
        squares = values * values
    return Estimate.of(len(values), sequential(values), sequential(squares))


def _of_ints(n: int, total: np.ndarray, squares: np.ndarray) -> Estimate:
    """``Estimate.of`` from integer sums (exact, as SQLite sums integers)."""
    return Estimate.of(n, int(total), int(squares))


# ------------------------------------------------------------------------ runs.stats
def per_game(rows: Rows) -> dict[str, Estimate]:
    """``stats.per_game``: per-game means of length, stuck turns and special events."""
    sums = per_game_sums(rows)
    n = len(rows.games)
    return {k: _of_ints(n, v.sum(), (v * v).sum()) for k, v in sums.items()}


def by(rows: Rows, column: str) -> list[dict[str, Any]]:
    """``stats.per_seat`` (``column`` "seat") or ``stats.per_agent`` ("agent"): win rate,
    mean total and money for each value of ``column``, in its order."""
    import numpy as np

    if column == "seat":
        keys: Sequence[Any] = [s for s in range(rows.seats) if rows.present[:, s].any()]
        masks = [np.zeros(rows.present.shape, bool) for _ in keys]
        for mask, s in zip(masks, keys, strict=True):
            mask[:, s] = rows.present[:, s]
    else:
        keys = [a for i, a in enumerate(rows.agents) if (rows.agent == i).any()]
        masks = [rows.agent == rows.agents.index(a) for a in keys]
    out = []
    for key, mask in zip(keys, masks, strict=True):
        flat = mask.ravel()  # rows in game order, then seat order: SQLite's, grouped stably
        win, money = rows.win.ravel()[flat], rows.money.ravel()[flat]
        known = flat & rows.has_total.ravel()
        total = rows.total.ravel()[known]
        n = int(flat.sum())
        nt = int(known.sum())
        out.append(
            {
                column: key,
                "win": Estimate.of(n, sequential(win), sequential(win * win)),
                "total": _of_ints(nt, total.sum(), (total * total).sum()) if nt else None,
                "money": Estimate.of(n, sequential(money), sequential(money * money)),
            }
        )
    return out


def _common(base: Rows, other: Rows) -> tuple[np.ndarray, np.ndarray]:
    """The positions in ``base`` and in ``other`` of the games both played, in game order."""
    import numpy as np

    _, ib, io = np.intersect1d(base.games, other.games, assume_unique=True,
                               return_indices=True)  # fmt: skip
    return ib, io


def paired(base: Rows, other: Rows) -> dict[str, Estimate]:
    """``stats.paired``: mean differences other − base, game by game on the same deals."""
    ib, io = _common(base, other)
    n = len(ib)
    b, o = per_game_sums(base), per_game_sums(other)
    out = {}
    for m in GAME_METRICS:
        d = o[m][io] - b[m][ib]
        out[m] = _of_ints(n, d.sum(), (d * d).sum())
    for m, (bv, ov) in {
        "seat0_money": (_seat0(base, base.money), _seat0(other, other.money)),
        "seat0_win": (_seat0(base, base.win), _seat0(other, other.win)),
    }.items():
        d = ov[io] - bv[ib]
        out[m] = Estimate.of(n, sequential(d), sequential(d * d))
    return out


def per_game_sums(rows: Rows) -> dict[str, np.ndarray]:
    """The per-game sums of ``GAME_METRICS``, in its order."""
    c = rows.counts
    return {
        "actions": c["actions"],
        "stuck": c["covers"] + c["passes"],
        "covers": c["covers"],
        "passes": c["passes"],
        "bursts": c["burst"],
        "closures": c["closures"],
        "last_seven": c["last_seven"],
        "all_covered": c["all_covered"],
        "jokers": c["jokers"],
    }


def _seat0(rows: Rows, values: np.ndarray) -> np.ndarray:
    """Per game, seat 0's value (0 where the game has no seat 0)."""
    import numpy as np

    return np.where(rows.present[:, 0], values[:, 0] + 0.0, 0.0)


def winners_differ(base: Rows, other: Rows) -> Estimate:
    """``stats.winners_differ``: how often the same deal has a different set of winners."""
    ib, io = _common(base, other)
    wb = (base.win > 0) & base.present
    wo = (other.win > 0) & other.present
    both = wb[ib].any(axis=1) & wo[io].any(axis=1)
    width = max(wb.shape[1], wo.shape[1])
    sb, so = _widen(wb[ib][both], width), _widen(wo[io][both], width)
    differ = int((sb != so).any(axis=1).sum())
    return Estimate.of(int(both.sum()), differ, differ)


def _widen(a: np.ndarray, width: int) -> np.ndarray:
    """``a`` with columns of False added up to ``width``."""
    import numpy as np

    if a.shape[1] == width:
        return a
    return np.hstack([a, np.zeros((a.shape[0], width - a.shape[1]), bool)])


# ------------------------------------------------------------------------ runs.design
@dataclass
class Series:
    """Per-game values of one rule set (or several pooled): game numbers and values."""

    keys: np.ndarray
    data: np.ndarray

    def values(self) -> np.ndarray:
        """The values, in game order (as ``dict.values`` gives a mapping's)."""
        return self.data

    def any(self) -> bool:
        """Whether any value is not zero."""
        return bool(self.data.any())


def design_games(groups: Sequence[Rows], setting: Setting, empty: Any) -> Any:
    """``design.games_of`` from the rows of rule sets ``groups`` (pooled in name order, as
    SQL orders them): ``empty`` is the ``Games`` to fill."""
    import numpy as np

    from paiqi_core.runs.batch import parse_events
    from paiqi_core.runs.design import EVENT_COLUMNS, MARGIN

    rows_list = sorted(groups, key=lambda r: r.name)
    out = empty
    out.games = sum(len(r.games) for r in rows_list)
    keys = np.concatenate([r.games for r in rows_list])
    recorded = all(r.later for r in rows_list)
    if recorded:
        recorded = all(r.recorded for r in rows_list)

    def cat(f: Callable[[Rows], np.ndarray]) -> np.ndarray:
        return np.concatenate([f(r) for r in rows_list])

    values: dict[str, Series] = {"length": Series(keys, cat(lambda r: r.counts["actions"]))}
    events: dict[str, Series] = {}
    for name, column in EVENT_COLUMNS.items():
        events[name] = Series(keys, cat(lambda r, c=column: r.counts[c]))  # type: ignore[misc]
    events["complete"] = Series(keys, cat(lambda r: r.counts["closures"]))
    if recorded:
        n = setting.players
        column = {"money": "money", "points": "total", "win": "win"}[setting.objective]
        margin = MARGIN[setting.unit]
        first_list, first_win, first_utility, mean = [], [], [], []
        decisive, leads, comeback = [], [], []
        for r in rows_list:
            assert r.turn_order is not None and r.leads is not None
            assert r.deficit is not None and r.cards_left is not None
            first = r.present & (r.turn_order == 0)
            first_list.append(first.any(axis=1))
            first_win.append(_seat_sum(np.where(first, r.win, 0.0)))
            if column == "total":
                known = r.present & r.has_total
                utility = r.total.astype(np.float64)
            else:
                known = r.present
                utility = r.money if column == "money" else r.win
            first_utility.append(_seat_sum(np.where(first & known, utility, 0.0)))
            counted = known.sum(axis=1)
            summed = _seat_sum(np.where(known, utility, 0.0))
            with np.errstate(invalid="ignore", divide="ignore"):
                mean.append(np.where(counted > 0, summed / np.maximum(counted, 1), 0.0))
            if setting.money:
                high = np.where(r.present, r.money, -np.inf).max(axis=1)
                low = np.where(r.present, r.money, np.inf).min(axis=1)
            else:
                high = np.where(r.present, r.cards_left, np.iinfo(np.int64).min).max(axis=1)
                low = np.where(r.present, r.cards_left, np.iinfo(np.int64).max).min(axis=1)
            decisive.append(high - low)
            leads.append(np.where(r.present, r.leads, 0).sum(axis=1))
            won = r.present & (r.win > 0) & (r.deficit >= margin)
            comeback.append(_seat_sum(np.where(won, r.win, 0.0)))
        has_first = np.concatenate(first_list)
        advantage = np.concatenate(first_win) - 1 / n
        objective = (np.concatenate(first_utility) + 0.0) - (np.concatenate(mean) + 0.0)
        if has_first.any():  # a game without a first mover has no seat advantage
            values["seat_advantage"] = Series(keys[has_first], advantage[has_first])
            values["seat_advantage_objective"] = Series(keys[has_first], objective[has_first])
        values["decisiveness"] = Series(keys, np.concatenate(decisive))
        values["lead_changes"] = Series(keys, np.maximum(np.concatenate(leads) - 1, 0))
        values["comeback"] = Series(keys, np.concatenate(comeback))
        for name in ("cut", "swap", "leave", "joker_lost", "clean", "bust", "melds", "fee"):
            events[name] = Series(keys, np.zeros(len(keys)))
        # every distinct events text is parsed once; its words counted per game
        per_text: list[tuple[Rows, dict[str, np.ndarray]]] = []
        for r in rows_list:
            counts: dict[str, np.ndarray] = {}
            for i, text in enumerate(r.texts):
                for word, k in parse_events(text).items():
                    counts.setdefault(word, np.zeros(len(r.texts), np.int64))[i] += k
            per_text.append((r, counts))
            for word in counts:
                if word not in events:  # a word of a later paiqi, or of a plugin
                    events[word] = Series(keys, np.zeros(len(keys)))
        start = 0
        for r, counts in per_text:
            end = start + len(r.games)
            assert r.events is not None
            for word, by_text in counts.items():
                fired = np.where(r.present, by_text[r.events], 0).sum(axis=1)
                events[word].data[start:end] += fired
            start = end
        events["complete"] = Series(keys, events["complete"].data - events["cut"].data)
    out.values = values
    out.events = events
    out.recorded = recorded and out.games > 0
    return out


def jackknifed(k: int, value: float, left_out: np.ndarray) -> Estimate:
    """``design._jackknifed`` of the left-out values as an array: the same exactly rounded
    sums of the same squares."""
    import numpy as np

    if k < 2 or math.isnan(value) or np.isnan(left_out).any():
        return Estimate(k, value, math.nan)
    mean = math.fsum(left_out.tolist()) / k
    d = left_out - mean
    var = (k - 1) / k * math.fsum((d * d).tolist())
    return Estimate(k, value, Z95 * math.sqrt(var))


def spread(values: Series) -> Estimate:
    """``design.spread``: the standard deviation of per-game values, with its jackknife
    interval (the left-out values computed at once, then added in order)."""
    from paiqi_core.runs.design import _sd_of

    v = values.data
    k = len(v)
    if not k:
        return Estimate(0, math.nan, math.nan)
    n, total, squares = float(k), _exact_sum(v), _exact_sum(v * v)
    left = _sd_vector(n - 1.0, total - v, squares - v * v)
    return jackknifed(k, _sd_of(n, total, squares), left)


def spread_difference(base: Series, other: Series) -> Estimate:
    """``design.spread_difference``: ``other``'s standard deviation less ``base``'s over
    the games both played, with a jackknife interval."""
    import numpy as np

    from paiqi_core.runs.design import _sd_of

    _, ib, io = np.intersect1d(base.keys, other.keys, assume_unique=True, return_indices=True)
    k = len(ib)
    if not k:
        return Estimate(0, math.nan, math.nan)
    bs, os_ = base.data[ib], other.data[io]
    bq, oq = _squared(bs), _squared(os_)
    n = float(k)
    bt, bsq, ot, osq = _exact_sum(bs), _exact_sum(bq), _exact_sum(os_), _exact_sum(oq)
    value = _sd_of(n, ot, osq) - _sd_of(n, bt, bsq)
    left = _sd_vector(n - 1.0, ot - os_, osq - oq) - _sd_vector(n - 1.0, bt - bs, bsq - bq)
    return jackknifed(k, value, left)


def _squared(v: np.ndarray) -> np.ndarray:
    """``v ** 2`` as Python computes it: exact for integers, and for floats by the C
    library's ``pow``, which now and then rounds otherwise than ``v * v``."""
    import numpy as np

    if v.dtype.kind in "iub":
        return v.astype(np.int64) * v.astype(np.int64)
    return np.array([x**2 for x in v.tolist()], dtype=np.float64)


def _exact_sum(v: np.ndarray) -> Any:
    """Python's ``sum`` of ``v``: an exact integer for integers, else added in order."""
    if v.dtype.kind in "iub":
        return int(v.sum())
    return sequential(v)


def _sd_vector(n: float, total: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """``design._sd_of`` of every (total, squares) pair with count ``n``: each value as it
    computes it (the product of an integer total exact before it is divided)."""
    import numpy as np

    if n < 2:
        return np.full(len(total), math.nan)
    product = (total * total).astype(np.float64)
    x = squares.astype(np.float64) - product / n
    x = np.where(x < 0.0, 0.0, x)  # max(x, 0.0), which keeps x when neither is larger
    return np.sqrt(x / (n - 1))


def paired_estimate(base: Series, other: Series) -> Estimate:
    """``design.paired_estimate``: the mean of ``other − base`` over the games both
    played."""
    import numpy as np

    _, ib, io = np.intersect1d(base.keys, other.keys, assume_unique=True, return_indices=True)
    return estimate(other.data[io] - base.data[ib])
