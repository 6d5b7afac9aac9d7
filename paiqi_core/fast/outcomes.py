"""Each seat's end-of-game facts (``PlayerOutcome``) read from a kernel state vector."""

from __future__ import annotations

import numpy as np

from paiqi_core.core.results import outcomes_of
from paiqi_core.outcome import PlayerOutcome


def outcomes(st: np.ndarray, players: int, centre: int) -> list[PlayerOutcome]:
    """Each seat's end-of-game facts from a kernel state vector, as ``State.outcomes``
    (``centre``: the rank every row starts from)."""
    return outcomes_of(st.tolist(), players, centre)
