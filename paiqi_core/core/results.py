"""A scored game for the Python API, by the rule core's scorings (``core/scoring.py``, run
as plain Python): each seat's outcome written into a state vector, scored, and read back
as an exact ``Result``. The compiled engine scores its batches with the very same functions,
compiled; the built-in scoring hooks (``paiqi_core.hooks.scoring_*``) score through here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from paiqi_core.core import layout as L
from paiqi_core.core.plain import scoring
from paiqi_core.core.vector import fill_scoring
from paiqi_core.forms import Form
from paiqi_core.outcome import Money, PlayerOutcome, Result, exact
from paiqi_core.pack import Pack

Score = Callable[[Sequence[PlayerOutcome]], Result]


def core_score(f: Form, pack: Pack, stake: Fraction = Fraction(1)) -> Score:
    """The scoring of the built-in form ``f`` with cards of ``pack``, every payment times
    ``stake`` (the covering stake, which the core leaves out), as a function of the seats'
    outcomes."""
    R = [0] * L.RULES
    fill_scoring(R, f)
    R[L.R_CENTRE] = pack.centre

    def score(outcomes: Sequence[PlayerOutcome]) -> Result:
        n = len(outcomes)
        rules = R.copy()
        rules[L.R_PLAYERS] = n
        res = [[0] * L.SEAT_FIELDS for _ in range(n)]  # the plain copy's rows are lists
        game = [0] * L.GAME_FIELDS
        scoring.score(_state(outcomes), rules, res, game, [0] * scoring.WORK)
        return _result(res, game, stake, f.kind)

    return score


def _state(outcomes: Sequence[PlayerOutcome]) -> list[int]:
    """A finished game's state vector holding what the scorings read of ``outcomes``: the
    covered cards, plays, the last card, closures, finish and burst order, passes, the size
    of the hand dealt and left (as that many cards), and who left holding only the joker."""
    st = [0] * L.STATE
    for s, o in enumerate(outcomes):
        covered = 0
        for c in o.covered:
            covered |= 1 << c
        st[L.COVERED + s] = covered
        st[L.PLAYED + s] = o.played
        st[L.LAST + s] = -1 if o.last_play is None else o.last_play
        if o.completions:
            st[L.NCLOSED + s] = len(o.completions)
            st[L.CLOSED + 4 * s : L.CLOSED + 4 * s + len(o.completions)] = o.completions
        st[L.FINISH + s] = -1 if o.finish is None else o.finish
        st[L.PASSES + s] = o.passes
        st[L.HAND + s] = (1 << o.hand_left) - 1
        st[L.SIZE + s] = o.hand_size
        st[L.BURSTED + s] = -1 if o.burst is None else o.burst
        st[L.LEFT + s] = o.left_with_joker
    return st


def _result(res: list[list[int]], game: list[int], stake: Fraction, kind: str) -> Result:
    """The exact Result of a game scored by the scoring ``kind`` (``res``: a row of fields
    per seat, ``game``: its fields). The covering scorings label seats and mark busts; the platform
    also forgives melds."""
    den = game[L.G_DEN]
    whole = stake.numerator if stake.denominator == 1 else None

    def money(numerator: int) -> Money:
        if whole is not None and numerator % den == 0:  # most games: no fraction to make
            return numerator // den * whole
        return exact(Fraction(numerator, den) * stake)

    seats = range(len(res))
    has_total = bool(game[L.G_HAS_TOTAL])
    covering = kind in ("covering", "platform")
    return Result(
        rank=tuple(row[L.X_RANK] for row in res),
        winners=tuple(s for s in seats if res[s][L.X_WIN]),
        money=tuple(money(row[L.X_MONEY]) for row in res),
        total=tuple(row[L.X_TOTAL] for row in res) if has_total else None,
        labels=tuple(L.LABELS[row[L.X_LABEL]] for row in res) if covering else None,
        house=money(game[L.G_HOUSE]),
        exempt=tuple(row[L.X_EXEMPT] for row in res) if kind == "platform" else None,
        busts=tuple(bool(row[L.X_EVENTS] & L.E_BUST) for row in res) if covering else None,
    )
