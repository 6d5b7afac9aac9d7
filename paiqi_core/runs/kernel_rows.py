"""Kernel results in the forms a run stores: the rows (``runs.batch``) and game records.
Storage reads the compiled engine here; the compiled engine imports no storage."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import repeat
from typing import TYPE_CHECKING, Any

import numpy as np

from paiqi_core.actions import record_action
from paiqi_core.cards import card_text, with_copies
from paiqi_core.core import layout as L
from paiqi_core.fast.columns import hash_codes, hash_kinds, number, read_results
from paiqi_core.fast.outcomes import outcomes
from paiqi_core.records import is_builtin
from paiqi_core.runs.block import Coded
from paiqi_core.streams import GENERATOR

SMALL_STAKE = 1 << 20  # a stake's numerator and denominator below this: money in int64

if TYPE_CHECKING:
    from paiqi_core.fast.compiled import CompiledGame, Played
    from paiqi_core.runs.batch import Row


def distinct(
    values: np.ndarray, low: int | None = None, high: int | None = None, *, spent: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` for a flat int64 array, without sorting
    where the values span a short range (a batch's amounts and events do); ``low`` and
    ``high``: the lowest and highest of the values, if known; ``spent``: the values are not
    needed after (their array may be given back as the numbers)."""
    if not len(values):
        return values[:0], values[:0]
    if low is None or high is None:
        low, high = int(values.min()), int(values.max())
    if high - low < max(1 << 16, len(values)):  # a table of the range
        values = np.ascontiguousarray(values, dtype=np.int64)
        kinds = np.empty(min(high - low + 1, len(values)), np.int64)
        codes = values if spent else np.empty(len(values), np.int64)
        found = number(values, low, np.zeros(high - low + 1, np.int64), kinds, codes)
        return kinds[:found], codes
    if len(values) >= HASHED:  # likely few kinds (events counting cuts); fewer sort quickly
        keys, ids = np.zeros(HASHED, np.int64), np.full(HASHED, -1, np.int64)
        shift = 64 - (HASHED.bit_length() - 1)
        values = np.ascontiguousarray(values, dtype=np.int64)
        met = np.empty(HASHED // 2, np.int64)  # the table half full at most
        found = hash_kinds(values, keys, ids, shift, met)
        if found >= 0:
            order = np.argsort(met[:found])
            rank = np.empty(found, np.int64)
            rank[order] = np.arange(found)
            codes = values if spent else np.empty(len(values), np.int64)
            hash_codes(values, keys, ids, shift, rank, codes)
            return met[:found][order], codes
    kinds, codes = np.unique(values, return_inverse=True)
    return kinds, codes.reshape(-1)


TYPES = (np.int8, np.int16, np.int32)
HASHED = 1 << 12  # places of the hash table of ``distinct``, for up to half as many kinds
# the columns of ``runs.batch.COLUMNS`` that are a field of the result table (total last)
NARROW = (("rank", L.X_RANK), ("actions", L.X_ACTIONS), ("covers", L.X_COVERS),
          ("passes", L.X_PASSES), ("burst", L.X_BURST), ("closures", L.X_CLOSURES),
          ("last_seven", L.X_LAST_SEVEN), ("all_covered", L.X_ALL_COVERED),
          ("jokers", L.X_JOKERS), ("turn_order", L.X_TURN_ORDER), ("leads", L.X_LEADS),
          ("deficit", L.X_DEFICIT), ("cards_left", L.X_CARDS_LEFT),
          ("total", L.X_TOTAL))  # fmt: skip
NARROW_AT = np.array([place for _, place in NARROW], dtype=np.int64)
# where ``fast.columns.read_results`` finds money, win and the events in a row of the
# result table, and the denominator of money and the number of winners in a game's fields
READ_AT = np.array([L.X_MONEY, L.X_WIN, L.X_EVENTS, L.X_CUTS, L.X_SWAPS, L.X_LEAVES,
                    L.G_DEN, L.G_WINNERS], dtype=np.int64)  # fmt: skip


def narrowest_type(low: int, high: int) -> type[np.signedinteger[Any]]:
    """The narrowest signed type that holds the integers from ``low`` to ``high`` (as
    ``runs.block`` stores them)."""
    fits = (t for t in TYPES if np.iinfo(t).min <= low and high <= np.iinfo(t).max)
    return next(fits, np.int64)


def game_columns(
    compiled: CompiledGame,
    played: Played,
    indices: Sequence[int],
    deals: Sequence[int],
    agents: Sequence[Sequence[str]],
) -> dict[str, Any]:
    """The rows of the batch's games, one per game per seat, as columns (by name of
    ``runs.batch.COLUMNS``, without ``profile``): NumPy arrays of numbers (the integers of
    the result table each in the narrowest type that holds them), lists of words.
    A game whose log outgrew the kernel's room (``played.game[:, G_LOG_FULL]``) has its
    course columns (``turn_order``, ``leads``, ``deficit``, ``cards_left``, ``events``)
    unread: ``runs.kernel_batch`` replaces its rows by the Python engine's.

    The result table is read in one compiled pass (``fast.columns.read_results``)."""
    n = compiled.players
    count = len(indices)
    rows = count * n
    flat = np.ascontiguousarray(played.res.reshape(rows, L.SEAT_FIELDS), dtype=np.int64)
    game = np.ascontiguousarray(played.game, dtype=np.int64)
    stake = compiled.stake
    exact = max(abs(stake.numerator), stake.denominator) > SMALL_STAKE  # kept exact in Python
    narrow = np.empty((len(NARROW), rows), np.int16)
    bounds = np.empty((len(NARROW) + 2, 2), np.int64)
    # the columns of 8 bytes in one allocation: NumPy asks the system for huge pages from
    # 4 MB on, where fresh memory for a column of its own (3.2 MB at 100,000 games of
    # four) takes a page fault every 4 KB, which can cost more than writing the column
    eights = np.empty((5, rows), np.int64)
    ints, codes, agent_codes = eights[0], eights[1], eights[2]
    floats, shares = eights[3].view(np.float64), eights[4].view(np.float64)
    odd = np.empty(rows, np.int64)  # its first few places only
    num, den = (0, 0) if exact else (stake.numerator, stake.denominator)  # 0: not read
    odds = read_results(
        flat, game, n, NARROW_AT, READ_AT, num, den, narrow, bounds, ints, floats, codes,
        shares, odd,
    )  # fmt: skip
    if odds < 0:  # a field beyond int16: the bounds read from the table
        odds = -1 - odds
        fields = flat[:, NARROW_AT]
        bounds[: len(NARROW), 0] = fields.min(axis=0, initial=0)
        bounds[: len(NARROW), 1] = fields.max(axis=0, initial=0)
    narrowed = []
    bytewise = np.empty((len(NARROW), rows), np.int8)  # one allocation, as ``eights``
    for j, (_, place) in enumerate(NARROW):
        kind = narrowest_type(int(bounds[j, 0]), int(bounds[j, 1]))
        if kind is np.int16:
            narrowed.append(narrow[j])
        elif kind is np.int8:
            bytewise[j] = narrow[j]
            narrowed.append(bytewise[j])
        else:  # beyond int16, which cut it short: read again
            narrowed.append(flat[:, place].astype(kind))
    columns: dict[str, Any] = {name: narrowed[j] for j, (name, _) in enumerate(NARROW[:-1])}
    has_total = bool(game[:, L.G_HAS_TOTAL].all())
    if exact:
        money, money_value = _exact_money(compiled, played)
    else:
        low, high = bounds[-2].tolist()
        money, money_value = _money(compiled, played, ints, low, high, floats, odd[:odds])
    low, high = bounds[-1].tolist()
    game_of = _narrowed(np.fromiter(indices, np.int64, count))
    same = deals is indices or (isinstance(deals, list) and deals == indices)
    columns.update(
        game=np.repeat(game_of, n),
        deal=np.repeat(game_of if same else _narrowed(np.fromiter(deals, np.int64, count)), n),
        seat=np.tile(np.arange(n, dtype=narrowest_type(0, n - 1)), count),
        agent=_agents(agents, agent_codes),
        win=shares,
        total=narrowed[-1] if has_total else None,  # None: NULL in every row
        money=money,
        money_value=money_value,
        events=_events(codes, low, high),
    )
    return columns


def _narrowed(values: np.ndarray) -> np.ndarray:
    """Integers in the narrowest signed type that holds them all."""
    if not len(values):
        return values.astype(np.int8)
    return values.astype(narrowest_type(int(values.min()), int(values.max())), copy=False)


def _exact_money(compiled: CompiledGame, played: Played) -> tuple[Coded, np.ndarray]:
    """Each seat's money of each game (games x seats, flattened), exactly, where the stake
    is too large for int64: as text, and as a float."""
    nums = played.res[:, :, L.X_MONEY].reshape(-1).tolist()
    dens = np.repeat(played.game[:, L.G_DEN], compiled.players).tolist()
    amounts = _amounts(compiled.stake, zip(nums, dens, strict=True))
    return Coded.of([text for text, _ in amounts]), np.array(
        [value for _, value in amounts], dtype=np.float64
    )


def _amounts(stake: Fraction, pairs: Iterable[tuple[int, int]]) -> list[tuple[str, float]]:
    """``str`` and ``float`` of ``Fraction(num, den) * stake`` for each ``(num, den)`` of
    ``pairs``, each distinct pair worked out once (a batch has few)."""
    known: dict[tuple[int, int], tuple[str, float]] = {}
    out = []
    for pair in pairs:
        amount = known.get(pair)
        if amount is None:
            money = Fraction(*pair) * stake
            amount = known[pair] = (str(money), float(money))
        out.append(amount)
    return out


def _money(
    compiled: CompiledGame,
    played: Played,
    ints: np.ndarray,
    low: int,
    high: int,
    floats: np.ndarray,
    odd: np.ndarray,
) -> tuple[Coded, np.ndarray]:
    """Each seat's money of each game (games x seats, flattened), exactly (as text: an
    integer or ``a/b``, each distinct amount written once) and as a float, as
    ``str(money)`` and ``float(money)`` give them in the Python path: from the amounts
    rounded down (``ints``, from ``low`` to ``high``; ``floats``: as floats) and the rows
    where that is not exact (``odd``), which are made exact here (a word a row)."""
    amounts, codes = distinct(ints, low, high, spent=True)
    words = [str(v) for v in amounts.tolist()]
    if len(odd):
        nums = played.res.reshape(-1, L.SEAT_FIELDS)[odd, L.X_MONEY].tolist()
        dens = played.game[odd // compiled.players, L.G_DEN].tolist()
        exact = _amounts(compiled.stake, zip(nums, dens, strict=True))
        codes[odd] = np.arange(len(words), len(words) + len(exact))
        words += [text for text, _ in exact]
        floats[odd] = [value for _, value in exact]
    return Coded(codes, words), floats


def _agents(agents: Sequence[Sequence[str]], into: np.ndarray) -> Coded:
    """The ``agent`` column: each seat's player by game, each name written once (in order
    of first use); the numbers written ``into`` an array of one for each seat of each
    game."""
    if not agents:
        return Coded.of([])
    first = agents[0]
    if agents.count(first) == len(agents):  # the same players in every game (no rotation)
        seatings, which = {tuple(first): 0}, None
    else:
        seatings = {}
        which = np.fromiter(
            (seatings.setdefault(tuple(a), len(seatings)) for a in agents), np.int64, len(agents)
        )
    if len({len(s) for s in seatings}) != 1:  # seatings of different sizes
        return Coded.of([name for names in agents for name in names])
    words = list(dict.fromkeys(name for names in seatings for name in names))
    index = {w: i for i, w in enumerate(words)}
    table = np.array([[index[a] for a in names] for names in seatings], dtype=np.int64)
    if table.shape[1] * len(agents) != len(into):  # not a name for each seat
        return Coded((table[0] if which is None else table[which]).reshape(-1), words)
    by_game = into.reshape(len(agents), table.shape[1])
    if which is None:
        by_game[:] = table[0]
    else:
        np.take(table, which, axis=0, out=by_game)
    return Coded(into, words)


COURSE = ("turn_order", "leads", "deficit", "cards_left", "events")


def game_rows(
    compiled: CompiledGame,
    played: Played,
    profile: str,
    indices: Sequence[int],
    deals: Sequence[int],
    agents: Sequence[Sequence[str]],
) -> list[Row]:
    """The rows of ``game_columns`` as tuples, as ``runs.batch.game_rows`` gives them; a
    game whose log outgrew the kernel's room has its course columns None."""
    from paiqi_core.runs.batch import COLUMNS

    n = compiled.players
    columns = game_columns(compiled, played, indices, deals, agents)
    unread = np.flatnonzero(np.repeat(played.game[:, L.G_LOG_FULL] != 0, n)).tolist()
    lists = {}
    for name in COLUMNS[1:]:
        values = columns[name]
        if values is None:
            values = [None] * (len(indices) * n)
        elif isinstance(values, Coded):
            values = values.values()
        values = values.tolist() if isinstance(values, np.ndarray) else list(values)
        if name in COURSE:
            for i in unread:
                values[i] = None
        lists[name] = values
    return list(zip(repeat(profile, len(indices) * n), *lists.values(), strict=True))


# the words of ``runs.batch.events_text``, in its order: counted from the log, then the
# bits of ``layout.X_EVENTS`` set by the scoring
COUNTED = ((L.X_CUTS, "cut"), (L.X_SWAPS, "swap"), (L.X_LEAVES, "leave"))
EVENT_BITS = (
    (L.E_JOKER_LOST, "joker_lost"),
    (L.E_CLEAN, "clean"),
    (L.E_BUST, "bust"),
    (L.E_MELDS, "melds"),
    (L.E_FEE, "fee"),
)


def events_text(counts: Sequence[int], flags: int) -> str:
    """An ``events`` cell from the counts of ``COUNTED`` and the bits of ``EVENT_BITS``, as
    ``runs.batch.events_text`` writes it: ``"cut swap:2 bust"``."""
    words = [
        name if k == 1 else f"{name}:{k}" for (_, name), k in zip(COUNTED, counts, strict=True) if k
    ]
    words += [name for bit, name in EVENT_BITS if flags & bit]
    return " ".join(words)


def _events(codes: np.ndarray, low: int, high: int) -> Coded:
    """The ``events`` cell of every row from its code (``fast.columns.read_results``: the
    counts of ``COUNTED`` in bits 48, 32 and 16 over the bits of ``EVENT_BITS``; from
    ``low`` to ``high``): each distinct code is written once and shared by the rows that have it."""
    kinds, numbers = distinct(codes, low, high, spent=True)
    words = [
        events_text([(c >> shift) & 0xFFFF for shift in (48, 32, 16)], c & 0xFFFF)
        for c in kinds.tolist()
    ]
    return Coded(numbers, words)


def log_of(st: np.ndarray, log: np.ndarray) -> list[tuple[int, int]] | None:
    """The game's log (seat, action), or None if it ran out of room."""
    length = int(st[L.LOGLEN])
    if length > len(log):
        return None
    return [(s, a) for s, a in log[:length].tolist()]


_DEALT = (L.DEALT, L.DEALT_TWICE, L.DEALT_THRICE)  # a hand as dealt, copies and all


def record(
    compiled: CompiledGame,
    st: np.ndarray,
    log: list[tuple[int, int]],
    seed: int | None,
    generator: str = GENERATOR,
) -> dict[str, Any]:
    """The game record of a finished kernel game, as ``records.state_record`` writes it."""
    rules = compiled.rules
    profile = rules.profile
    n = compiled.players
    door = int(st[L.DOOR])
    result = rules.scoring.score(outcomes(st, n, rules.topology.centre))
    out: dict[str, Any] = {
        "profile": rules.id,
        "options": dict(rules.options),
        "fingerprint": profile.fingerprint,
        "seed": seed,
        **({"generator": generator} if seed is not None else {}),
        "players": n,
        "hands": [
            [card_text(c) for c in with_copies(*(int(st[at + s]) for at in _DEALT))]
            for s in range(n)
        ],
        "door_card": None if door < 0 else card_text(door),
        **({"lead": int(st[L.LEAD]) - 1} if st[L.LEAD] else {}),
        "actions": [record_action(s, a) for s, a in log],
        "result": result.as_record(),
    }
    if not is_builtin(profile):
        out["rules"] = profile.resolved()
    return out
