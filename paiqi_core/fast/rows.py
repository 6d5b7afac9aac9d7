"""Kernel results in the Python path's forms: the rows a run stores (``runs.batch``), each
seat's end-of-game facts (``PlayerOutcome``), game records, and utilities for search."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from paiqi_core.actions import record_action
from paiqi_core.cards import bits, card_text
from paiqi_core.fast import layout as L
from paiqi_core.outcome import PlayerOutcome
from paiqi_core.records import is_builtin

if TYPE_CHECKING:
    from paiqi_core.fast.compiled import CompiledGame, Played
    from paiqi_core.runs.batch import Row


def money_values(
    compiled: CompiledGame, played: Played
) -> tuple[list[list[str]], list[list[float]]]:
    """Each seat's money of each game, exactly (as text: an integer or ``a/b``) and as a
    float, as ``str(money)`` and ``float(money)`` give them in the Python path."""
    nums = played.res[:, :, L.X_MONEY]
    dens = played.game[:, L.G_DEN]
    stake = compiled.stake
    texts: list[list[str]] = []
    floats: list[list[float]] = []
    whole = (nums % dens[:, None] == 0).all(axis=1)
    plain = stake.denominator == 1
    for num, den, is_whole in zip(nums.tolist(), dens.tolist(), whole.tolist(), strict=True):
        if is_whole and plain:
            ints = [n // den * stake.numerator for n in num]
            texts.append([str(v) for v in ints])
            floats.append([float(v) for v in ints])
        else:
            exact = [Fraction(n, den) * stake for n in num]
            texts.append([str(v) for v in exact])
            floats.append([float(v) for v in exact])
    return texts, floats


def game_rows(
    compiled: CompiledGame,
    played: Played,
    profile: str,
    indices: Sequence[int],
    deals: Sequence[int],
    agents: Sequence[Sequence[str]],
) -> list[Row]:
    """The rows of the batch's games, one per game per seat, as ``runs.batch.game_rows``."""
    res = played.res
    n = compiled.players
    texts, floats = money_values(compiled, played)
    winners = played.game[:, L.G_WINNERS].tolist()
    has_total = played.game[:, L.G_HAS_TOTAL].tolist()
    fields = res.tolist()
    rows: list[Row] = []
    append = rows.append
    for g, index in enumerate(indices):
        share = 1 / winners[g]
        kept = has_total[g]
        deal = deals[g]
        names = agents[g]
        seats = fields[g]
        money_text, money_float = texts[g], floats[g]
        for seat in range(n):
            f = seats[seat]
            append(
                (
                    profile,
                    index,
                    deal,
                    seat,
                    names[seat],
                    f[L.X_RANK],
                    share if f[L.X_WIN] else 0.0,
                    f[L.X_TOTAL] if kept else None,
                    money_text[seat],
                    money_float[seat],
                    f[L.X_ACTIONS],
                    f[L.X_COVERS],
                    f[L.X_PASSES],
                    f[L.X_BURST],
                    f[L.X_CLOSURES],
                    f[L.X_LAST_SEVEN],
                    f[L.X_ALL_COVERED],
                    f[L.X_JOKERS],
                )
            )
    return rows


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
