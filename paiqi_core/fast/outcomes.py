"""Each seat's end-of-game facts (``PlayerOutcome``) read from a kernel state vector."""

from __future__ import annotations

import numpy as np

from paiqi_core.cards import bits
from paiqi_core.core import layout as L
from paiqi_core.outcome import PlayerOutcome


def outcomes(st: np.ndarray, players: int, centre: int) -> list[PlayerOutcome]:
    """Each seat's end-of-game facts from a kernel state vector, as ``State.outcomes``
    (``centre``: the rank every row starts from)."""
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
                centre,
            )
        )
    return out
