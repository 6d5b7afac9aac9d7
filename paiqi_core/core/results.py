"""A scored game for the Python API, by the rule core's scorings (``core/scoring.py``, run
as plain Python): each seat's outcome written into a state vector, scored, and read back
as an exact ``Result``. The compiled engine scores its batches with the very same functions,
compiled; the built-in scoring hooks (``paiqi_core.hooks.scoring_*``) score through here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from paiqi_core.cards import bits, mask_of
from paiqi_core.core import layout as L
from paiqi_core.core.plain import kernel, scoring
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


def outcomes_of(st: Sequence[int], players: int, centre: int) -> list[PlayerOutcome]:
    """Each seat's end-of-game facts read from a game's state vector (a list of Python
    ints: ``tolist()`` a kernel's), ``centre`` the rank every row starts from."""
    return [
        PlayerOutcome(  # positional, in field order: keywords cost twice the time
            tuple(bits(covered)) if (covered := st[L.COVERED + s]) else (),  # covered
            st[L.PLAYED + s],
            None if st[L.LAST + s] < 0 else st[L.LAST + s],  # last_play
            tuple(st[L.CLOSED + 4 * s : L.CLOSED + 4 * s + st[L.NCLOSED + s]]),
            None if st[L.FINISH + s] < 0 else st[L.FINISH + s],  # finish
            st[L.PASSES + s],
            st[L.HAND + s].bit_count()  # hand_left, every copy counted
            + st[L.TWICE + s].bit_count()
            + st[L.THRICE + s].bit_count(),
            st[L.SIZE + s],
            None if st[L.BURSTED + s] < 0 else st[L.BURSTED + s],  # burst
            st[L.LEFT + s] != 0,  # left_with_joker
            centre,
            st[L.LEFT + s] - 1 if st[L.LEFT + s] else None,  # left: its order
            _held(st, s) if st[L.HAND + s] else (),  # held
            *(_hoyle(st, s, centre) if st[L.TALLY] or st[L.TALLY + 1] else ()),
        )
        for s in range(players)
    ]


def _hoyle(st: Sequence[int], s: int, centre: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Seat ``s``'s facts for Hoyle's penalties (``PlayerOutcome.able_passes``, ``held_back``
    and ``neighbours``) from the core's counts (``layout.TALLY``) and the hands as dealt."""
    if s >= L.TALLY_SEATS:
        return 0, (), ()
    able = kernel.tally(st, s)
    dealt = st[L.DEALT + s]
    suits = [
        kernel.tally(st, L.TALLY_SEATS + x) if dealt >> (13 * x + centre) & 1 else 0
        for x in range(4)
    ]
    near = tuple(
        c
        for x in range(4)
        for c in (13 * x + centre - 1, 13 * x + centre + 1)
        if c // 13 == x and c % 13 >= 0 and dealt >> c & 1
    )
    return able, tuple(suits) if any(suits) else (), near


def _held(st: Sequence[int], s: int) -> tuple[int, ...]:
    """The cards seat ``s`` still holds in the state ``st``, every copy, in card order."""
    return tuple(sorted((*bits(st[L.HAND + s]), *bits(st[L.TWICE + s]), *bits(st[L.THRICE + s]))))


def _state(outcomes: Sequence[PlayerOutcome]) -> list[int]:
    """A finished game's state vector holding what the scorings read of ``outcomes``: the
    covered cards, plays, the last card, closures, finish and burst order, passes, the size
    of the hand dealt, the cards left (as that many cards where only their number is given),
    and who left holding only jokers (in the order they left; in seat order where the
    outcomes give none)."""
    st = [0] * L.STATE
    n = len(outcomes)
    leavers = sorted(
        (n + s if o.left is None else o.left, s)
        for s, o in enumerate(outcomes)
        if o.left_with_joker
    )
    for order, (_, s) in enumerate(leavers):
        st[L.LEFT + s] = order + 1
    st[L.NLEFT] = len(leavers)
    for s, o in enumerate(outcomes):
        st[L.COVERED + s] = mask_of(o.covered)
        st[L.PLAYED + s] = o.played
        st[L.LAST + s] = -1 if o.last_play is None else o.last_play
        if o.completions:
            st[L.NCLOSED + s] = len(o.completions)
            st[L.CLOSED + 4 * s : L.CLOSED + 4 * s + len(o.completions)] = o.completions
        st[L.FINISH + s] = -1 if o.finish is None else o.finish
        st[L.PASSES + s] = o.passes
        if o.held:  # the cards themselves: a copy of a card held again lies a plane up
            for c in o.held:
                while c >= L.JOKER_CARD and st[L.HAND + s] >> c & 1:  # jokers: the next one
                    c += 1
                plane = next(p for p in (L.HAND, L.TWICE, L.THRICE) if not st[p + s] >> c & 1)
                st[plane + s] |= 1 << c
        else:  # as that many cards, in the planes of several decks beyond 52
            left = o.hand_left
            for plane in (L.HAND, L.TWICE, L.THRICE):
                st[plane + s] = (1 << min(left, 52)) - 1
                left = max(left - 52, 0)
        st[L.SIZE + s] = o.hand_size
        st[L.BURSTED + s] = -1 if o.burst is None else o.burst
        _tally(st, s, o)
    return st


def _tally(st: list[int], s: int, o: PlayerOutcome) -> None:
    """Hoyle's penalties of ``o`` into the core's counts (``layout.TALLY``), and the centre
    cards it held back and their neighbours into its hand as dealt."""
    if not (o.able_passes or o.held_back or o.neighbours):
        return
    if s >= L.TALLY_SEATS:
        raise ValueError(f"passes when able are counted for {L.TALLY_SEATS} players at most")
    for counter, times in (
        (s, o.able_passes),
        *((L.TALLY_SEATS + x, k) for x, k in enumerate(o.held_back)),
    ):
        if times:
            if not 0 <= times <= L.TALLY_MOST:
                raise ValueError(f"{times} passes: counted up to {L.TALLY_MOST}")
            st[L.TALLY + counter // L.TALLY_WORD] += times << (
                L.TALLY_BITS * (counter % L.TALLY_WORD)
            )
            if counter >= L.TALLY_SEATS:
                st[L.DEALT + s] |= 1 << (13 * (counter - L.TALLY_SEATS) + o.centre)
    for c in o.neighbours:
        st[L.DEALT + s] |= 1 << c


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
