"""Kernel results in the Python path's forms: the rows a run stores (``runs.batch``), each
seat's end-of-game facts (``PlayerOutcome``), game records, and utilities for search."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import repeat
from typing import TYPE_CHECKING, Any

import numpy as np

from paiqi_core.actions import record_action
from paiqi_core.cards import bits, card_text
from paiqi_core.fast import layout as L
from paiqi_core.outcome import PlayerOutcome
from paiqi_core.records import is_builtin

SMALL_STAKE = 1 << 20  # a stake's numerator and denominator below this: money in int64

if TYPE_CHECKING:
    from paiqi_core.fast.compiled import CompiledGame, Played
    from paiqi_core.runs.batch import Row


def money_values(compiled: CompiledGame, played: Played) -> tuple[list[str], list[float]]:
    """Each seat's money of each game (games x seats, flattened), exactly (as text: an
    integer or ``a/b``) and as a float, as ``str(money)`` and ``float(money)`` give them in
    the Python path."""
    nums = played.res[:, :, L.X_MONEY]
    dens = played.game[:, L.G_DEN][:, None]
    stake = compiled.stake
    if max(abs(stake.numerator), stake.denominator) > SMALL_STAKE:  # kept exact in Python
        exact = [Fraction(n, d) * stake for row, d in zip(nums.tolist(), dens[:, 0].tolist(),
                 strict=True) for n in row]  # fmt: skip
        return [str(m) for m in exact], [float(m) for m in exact]
    whole = (nums * stake.numerator) % (dens * stake.denominator) == 0
    ints = (nums * stake.numerator) // (dens * stake.denominator)
    texts = [str(v) for v in ints.ravel().tolist()]
    floats = ints.ravel().astype(np.float64).tolist()
    if not whole.all():
        width = nums.shape[1]
        for flat in np.flatnonzero(~whole.ravel()).tolist():
            g, seat = divmod(flat, width)
            money = Fraction(int(nums[g, seat]), int(dens[g, 0])) * stake
            texts[flat] = str(money)
            floats[flat] = float(money)
    return texts, floats


def game_rows(
    compiled: CompiledGame,
    played: Played,
    profile: str,
    indices: Sequence[int],
    deals: Sequence[int],
    agents: Sequence[Sequence[str]],
) -> list[Row]:
    """The rows of the batch's games, one per game per seat, as ``runs.batch.game_rows``.
    A game whose log outgrew the kernel's room (``played.game[:, G_LOG_FULL]``) has its
    course columns (``turn_order``, ``leads``, ``deficit``, ``cards_left``, ``events``)
    None: ``fast.batch`` replaces its rows by the Python engine's."""
    res = played.res
    n = compiled.players
    count = len(indices)
    texts, floats = money_values(compiled, played)
    full = np.repeat(played.game[:, L.G_LOG_FULL] != 0, n)
    unread = np.flatnonzero(full).tolist()

    by_field = res.reshape(count * n, L.SEAT_FIELDS).T.tolist()  # one conversion for all

    def column(field: int) -> list[Any]:
        return by_field[field]

    def course(values: list[Any]) -> list[Any]:
        for flat in unread:
            values[flat] = None
        return values

    shares = np.where(res[:, :, L.X_WIN] == 1, 1 / played.game[:, L.G_WINNERS][:, None], 0.0)
    if played.game[:, L.G_HAS_TOTAL].all():
        totals: list[Any] = column(L.X_TOTAL)
    else:
        totals = [None] * (count * n)
    return list(
        zip(
            repeat(profile, count * n),
            np.repeat(np.asarray(indices, dtype=np.int64), n).tolist(),
            np.repeat(np.asarray(deals, dtype=np.int64), n).tolist(),
            list(range(n)) * count,
            [name for names in agents for name in names],
            column(L.X_RANK),
            shares.ravel().tolist(),
            totals,
            texts,
            floats,
            column(L.X_ACTIONS),
            column(L.X_COVERS),
            column(L.X_PASSES),
            column(L.X_BURST),
            column(L.X_CLOSURES),
            column(L.X_LAST_SEVEN),
            column(L.X_ALL_COVERED),
            column(L.X_JOKERS),
            course(column(L.X_TURN_ORDER)),
            course(column(L.X_LEADS)),
            course(column(L.X_DEFICIT)),
            course(column(L.X_CARDS_LEFT)),
            course(events_texts(res)),
            strict=True,
        )
    )


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


def events_texts(res: np.ndarray) -> list[str]:
    """The ``events`` cell of every game and seat of ``res`` (games x seats, flattened):
    each distinct set of counts is written once and shared by the seats that have it."""
    code = res[:, :, L.X_EVENTS].ravel().copy()  # counts and bits packed in one integer
    for shift, (field, _) in zip((48, 32, 16), COUNTED, strict=True):
        code |= res[:, :, field].ravel() << shift
    known = {0: ""}
    for c in np.unique(code).tolist():
        counts = [(c >> shift) & 0xFFFF for shift in (48, 32, 16)]
        known[c] = events_text(counts, c & 0xFFFF)
    return list(map(known.__getitem__, code.tolist()))


def outcomes(st: np.ndarray, players: int) -> list[PlayerOutcome]:
    """Each seat's end-of-game facts from a kernel state vector, as ``State.outcomes``."""
    v = st.tolist()
    out = []
    for s in range(players):
        last = v[L.LAST + s]
        finish = v[L.FINISH + s]
        burst = v[L.BURSTED + s]
        out.append(
            PlayerOutcome(
                tuple(bits(v[L.COVERED + s])),
                v[L.PLAYED + s],
                None if last < 0 else last,
                tuple(v[L.CLOSED + 4 * s : L.CLOSED + 4 * s + v[L.NCLOSED + s]]),
                None if finish < 0 else finish,
                v[L.PASSES + s],
                int(v[L.HAND + s]).bit_count(),
                v[L.SIZE + s],
                None if burst < 0 else burst,
                bool(v[L.LEFT + s]),
            )
        )
    return out


def log_of(st: np.ndarray, log: np.ndarray) -> list[tuple[int, int]] | None:
    """The game's log (seat, action), or None if it ran out of room."""
    length = int(st[L.LOGLEN])
    if length > len(log):
        return None
    return [(s, a) for s, a in log[:length].tolist()]


def record(
    compiled: CompiledGame, st: np.ndarray, log: list[tuple[int, int]], seed: int | None
) -> dict[str, Any]:
    """The game record of a finished kernel game, as ``records.state_record`` writes it."""
    rules = compiled.rules
    profile = rules.profile
    n = compiled.players
    door = int(st[L.DOOR])
    result = rules.scoring.score(outcomes(st, n))
    out: dict[str, Any] = {
        "profile": rules.id,
        "options": dict(rules.options),
        "fingerprint": profile.fingerprint,
        "seed": seed,
        "players": n,
        "hands": [[card_text(c) for c in bits(int(h))] for h in st[L.DEALT : L.DEALT + n]],
        "door_card": None if door < 0 else card_text(door),
        "actions": [record_action(s, a) for s, a in log],
        "result": result.as_record(),
    }
    if not is_builtin(profile):
        out["rules"] = profile.resolved()
    return out
