"""Kernel results in the forms a run stores: the rows (``runs.batch``) and game records.
Storage reads the compiled engine here; the compiled engine imports no storage."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import repeat
from typing import TYPE_CHECKING, Any

import numpy as np

from paiqi_core.actions import record_action
from paiqi_core.cards import bits, card_text
from paiqi_core.core import layout as L
from paiqi_core.fast.outcomes import outcomes
from paiqi_core.records import is_builtin
from paiqi_core.runs.block import Coded
from paiqi_core.streams import GENERATOR

SMALL_STAKE = 1 << 20  # a stake's numerator and denominator below this: money in int64

if TYPE_CHECKING:
    from paiqi_core.fast.compiled import CompiledGame, Played
    from paiqi_core.runs.batch import Row


def distinct(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` for a flat int64 array, without sorting
    where the values that are not the most common one are few or span a short range (a
    batch's amounts and events are)."""
    if not len(values):
        return values[:0], values[:0]
    low, high = int(values.min()), int(values.max())
    if high - low < max(1 << 16, len(values)):  # a table of the range
        present = np.zeros(high - low + 1, np.int64)
        present[values - low] = 1
        kinds = np.flatnonzero(present)
        present[kinds] = np.arange(len(kinds))
        return kinds + low, present[values - low]
    kinds, codes = np.unique(values, return_inverse=True)
    return kinds, codes.reshape(-1)


TYPES = (np.int8, np.int16, np.int32)


def narrowest(table: np.ndarray, fields: Sequence[int]) -> list[np.ndarray]:
    """Columns ``fields`` of an int64 table, each in the narrowest signed type that holds
    its values (as ``runs.block`` stores them): one pass over the table, not one a column."""
    low, high = table.min(axis=0, initial=0), table.max(axis=0, initial=0)
    kinds = []
    for j in fields:
        fits = (t for t in TYPES if np.iinfo(t).min <= low[j] and high[j] <= np.iinfo(t).max)
        kinds.append(next(fits, np.int64))
    # a column of a row-major table is a strided read: the whole table is narrowed first,
    # once a type (a pass in memory order), and the columns are read from the narrow copy
    narrowed = {kind: table if kind is np.int64 else table.astype(kind) for kind in set(kinds)}
    return [
        np.ascontiguousarray(narrowed[kind][:, j]) for j, kind in zip(fields, kinds, strict=True)
    ]


def money_values(compiled: CompiledGame, played: Played) -> tuple[Coded, np.ndarray]:
    """Each seat's money of each game (games x seats, flattened), exactly (as text: an
    integer or ``a/b``, each distinct amount written once) and as a float, as
    ``str(money)`` and ``float(money)`` give them in the Python path."""
    nums = played.res[:, :, L.X_MONEY]
    dens = played.game[:, L.G_DEN][:, None]
    stake = compiled.stake
    if max(abs(stake.numerator), stake.denominator) > SMALL_STAKE:  # kept exact in Python
        exact = [Fraction(n, d) * stake for row, d in zip(nums.tolist(), dens[:, 0].tolist(),
                 strict=True) for n in row]  # fmt: skip
        texts = [str(m) for m in exact]
        return Coded.of(texts), np.array([float(m) for m in exact], dtype=np.float64)
    scaled = nums * stake.numerator
    whole = (scaled % (dens * stake.denominator) == 0).ravel()
    ints = (scaled // (dens * stake.denominator)).ravel()
    amounts, codes = distinct(ints)
    words = [str(v) for v in amounts.tolist()]
    floats = ints.astype(np.float64)
    if not whole.all():
        width = nums.shape[1]
        for flat in np.flatnonzero(~whole).tolist():
            g, seat = divmod(flat, width)
            money = Fraction(int(nums[g, seat]), int(dens[g, 0])) * stake
            codes[flat] = len(words)
            words.append(str(money))
            floats[flat] = float(money)
    return Coded(codes.reshape(-1), words), floats


def game_columns(
    compiled: CompiledGame,
    played: Played,
    indices: Sequence[int],
    deals: Sequence[int],
    agents: Sequence[Sequence[str]],
) -> dict[str, Any]:
    """The rows of the batch's games, one per game per seat, as columns (by name of
    ``runs.batch.COLUMNS``, without ``profile``): NumPy arrays of numbers, lists of words.
    A game whose log outgrew the kernel's room (``played.game[:, G_LOG_FULL]``) has its
    course columns (``turn_order``, ``leads``, ``deficit``, ``cards_left``, ``events``)
    unread: ``runs.kernel_batch`` replaces its rows by the Python engine's."""
    res = played.res
    n = compiled.players
    count = len(indices)
    money, money_value = money_values(compiled, played)
    flat = res.reshape(count * n, L.SEAT_FIELDS)
    shares = np.where(res[:, :, L.X_WIN] == 1, 1 / played.game[:, L.G_WINNERS][:, None], 0.0)
    has_total = bool(played.game[:, L.G_HAS_TOTAL].all())
    fields = (("rank", L.X_RANK), ("actions", L.X_ACTIONS), ("covers", L.X_COVERS),
              ("passes", L.X_PASSES), ("burst", L.X_BURST), ("closures", L.X_CLOSURES),
              ("last_seven", L.X_LAST_SEVEN), ("all_covered", L.X_ALL_COVERED),
              ("jokers", L.X_JOKERS), ("turn_order", L.X_TURN_ORDER), ("leads", L.X_LEADS),
              ("deficit", L.X_DEFICIT), ("cards_left", L.X_CARDS_LEFT))  # fmt: skip
    narrow = narrowest(flat, [field for _, field in fields] + [L.X_TOTAL])
    columns: dict[str, Any] = {name: narrow[i] for i, (name, _) in enumerate(fields)}
    columns.update(
        game=np.repeat(np.asarray(indices, dtype=np.int64), n),
        deal=np.repeat(np.asarray(deals, dtype=np.int64), n),
        seat=np.tile(np.arange(n, dtype=np.int64), count),
        agent=_agents(agents),
        win=shares.ravel(),
        total=narrow[-1] if has_total else None,  # None: NULL in every row
        money=money,
        money_value=money_value,
        events=events_texts(res),
    )
    return columns


def _agents(agents: Sequence[Sequence[str]]) -> Coded:
    """The ``agent`` column: each seat's player by game, each name written once."""
    seatings = list(dict.fromkeys(map(tuple, agents)))
    if len(seatings) == 1:  # the same players in every game (no rotation)
        words = list(dict.fromkeys(seatings[0]))
        row = np.array([words.index(a) for a in seatings[0]], dtype=np.int64)
        return Coded(np.tile(row, len(agents)), words)
    return Coded.of([name for names in agents for name in names])


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


def events_texts(res: np.ndarray) -> Coded:
    """The ``events`` cell of every game and seat of ``res`` (games x seats, flattened):
    each distinct set of counts is written once and shared by the seats that have it."""
    code = res[:, :, L.X_EVENTS].ravel().copy()  # counts and bits packed in one integer
    for shift, (field, _) in zip((48, 32, 16), COUNTED, strict=True):
        code |= res[:, :, field].ravel() << shift
    kinds, codes = distinct(code)
    words = [
        events_text([(c >> shift) & 0xFFFF for shift in (48, 32, 16)], c & 0xFFFF)
        for c in kinds.tolist()
    ]
    return Coded(codes.reshape(-1), words)


def log_of(st: np.ndarray, log: np.ndarray) -> list[tuple[int, int]] | None:
    """The game's log (seat, action), or None if it ran out of room."""
    length = int(st[L.LOGLEN])
    if length > len(log):
        return None
    return [(s, a) for s, a in log[:length].tolist()]


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
        "hands": [[card_text(c) for c in bits(int(h))] for h in st[L.DEALT : L.DEALT + n]],
        "door_card": None if door < 0 else card_text(door),
        "actions": [record_action(s, a) for s, a in log],
        "result": result.as_record(),
    }
    if not is_builtin(profile):
        out["rules"] = profile.resolved()
    return out
