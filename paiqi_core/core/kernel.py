"""The rules of play: the start of a game, legal actions, moves and the events they set
off, on a game's state vector. Written once: compiled by numba for the compiled engine
(``paiqi_core.fast``), and run as plain Python by ``engine.State`` (``plain``).

Every function works on one game's state vector ``st`` (see ``layout``) under a rules
vector ``R`` with the rank topology's tables: ``ext`` (row mask -> playable ranks) and
``beyond`` (row mask * 13 + rank -> the rank a joker move plays beyond it, -1 for none).
Moves and automatic events are logged into ``log`` (seat, action) while it has room; its
count goes on in ``st[LOGLEN]`` so a caller can tell a log that ran out of room.

A slot whose rule is a plugin hook has the code ``PLUGIN`` in the rules vector; the core
then asks the hook at a slot point (``plugin_stuck``, ``plugin_over``). The compiled engine
plays no plugin, so compiled the slot points answer nothing; ``plain`` puts the calls of
the hooks in their place.

The random choices are those of ``RandomAgent`` (uniform over the sorted legal actions,
nothing drawn for a single one), and ``eager`` those of ``search.objective.finish``: a
card whenever one can be played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paiqi_core.core.bits import hot, lowest, nth_bit, popcount, step
from paiqi_core.core.layout import (
    ACTIONS,
    BARRED,
    BLOCK,
    BLOCK_DUE,
    BLOCK_HIGH,
    BLOCK_LOW,
    BLOCK_OPEN,
    BURST,
    BURSTED,
    BY_CHOICE,
    BY_DRAW,
    BY_EXTRA,
    BY_GIVE,
    BY_MUST_PLAY,
    BY_NO_PASSES,
    BY_OPENING,
    BY_PLUGIN,
    BY_STUCK,
    CLOSED,
    COVER,
    COVERED,
    CUT,
    DEALT,
    DEALT_THRICE,
    DEALT_TWICE,
    DOOR,
    DRAW,
    DRAW_CARD,
    DRAWING,
    DRAWS,
    DREW,
    EACH_SUIT,
    EXTRA,
    FACE_UP,
    FINISH,
    FIRST,
    FRONTIER,
    FULL_ROW,
    GIVE,
    GROWING,
    HAND,
    HAND_ON,
    IDLE,
    JOKER,
    JOKER_AT,
    JOKER_BIT,
    JOKER_BITS,
    JOKER_CARD,
    JOKERS,
    LAID,
    LAID_BY,
    LAST,
    LAYING,
    LEAD,
    LEAVE,
    LEFT,
    LEFTOVER,
    LOGLEN,
    LOST,
    MAX_JOKERS,
    MAY,
    NBURSTS,
    NCLOSED,
    NFINISHED,
    NLEFT,
    NOPENED,
    OFFER,
    OFFERED,
    OPENED,
    OVER,
    PASS,
    PASSES,
    PHASE,
    PLACE,
    PLAYED,
    PLUGIN,
    POOL,
    R_CENTRE,
    R_COVERABLE,
    R_DECK,
    R_DECKS,
    R_DOOR,
    R_DRAW,
    R_EMPTY_FRONTIER,
    R_ENDING,
    R_ENDS,
    R_EXTRA,
    R_HAND,
    R_JOKERS,
    R_LEFTOVER,
    R_MAY_BURST,
    R_MUST_PLAY,
    R_OPENING,
    R_OPENING_CARD,
    R_PASS_LIMIT,
    R_PLAYERS,
    R_ROW,
    R_STALL,
    R_STUCK,
    R_TAKE,
    R_TALLY,
    R_THEN_COVER,
    RUN,
    SIZE,
    STARTED,
    STOCK,
    STOCK_LEFT,
    SUITED,
    SWAP,
    TABLE,
    TABLE_THRICE,
    TABLE_TWICE,
    TAKER,
    TALLY,
    TALLY_BITS,
    TALLY_SEATS,
    TALLY_WORD,
    THRICE,
    TRUMP,
    TRUMPED,
    TURN,
    TWICE,
)
from paiqi_core.core.play_rules import (
    BY_HANDOVER,
    BY_LAYING,
    BY_SEVENS_FIRST,
    OPTIONAL,
    R_JOKER_FINISH,
    R_JOKER_HANDOVER,
    R_LAY,
    R_PASS_BARS,
    R_ROWS,
    R_SEVENS_FIRST,
    R_START,
    R_TRUMPS,
)
from paiqi_core.core.rng import below, randbelow

if TYPE_CHECKING:
    import numpy as np

RANDOM = 0  # uniform over the legal actions
EAGER = 1  # a card whenever one can be played


@step
def _log(st: np.ndarray, log: np.ndarray, seat: int, action: int) -> None:
    i = st[LOGLEN]
    if i < log.shape[0]:
        log[i, 0] = seat
        log[i, 1] = action
    st[LOGLEN] = i + 1


@hot
def _holder(st: np.ndarray, n: int, card: int) -> int:
    """The seat holding ``card`` (seat 0 if nobody does)."""
    for s in range(n):
        if (st[HAND + s] >> card) & 1:
            return s
    return 0


@step
def _order(st: np.ndarray, suit: int) -> int:
    """The order (1 for the first) in which ``suit`` was opened."""
    for i in range(st[NOPENED]):
        if st[OPENED + i] == suit:
            return i + 1
    return 0


@step
def _open(st: np.ndarray, suit: int) -> None:
    for i in range(st[NOPENED]):
        if st[OPENED + i] == suit:
            return
    st[OPENED + st[NOPENED]] = suit
    st[NOPENED] += 1


@step
def _credit(st: np.ndarray, seat: int, order: int) -> None:
    st[CLOSED + 4 * seat + st[NCLOSED + seat]] = order
    st[NCLOSED + seat] += 1


# -- several decks: a hand and the table hold each card up to R_DECKS times, as planes (the
# cards held once or more, twice or more, three times); with one deck only the first -----
@step
def _take(st: np.ndarray, seat: int, card: int) -> None:
    """One copy of ``card`` leaves ``seat``'s hand."""
    bit = 1 << card
    if st[TWICE + seat] & bit:
        if st[THRICE + seat] & bit:
            st[THRICE + seat] ^= bit
        else:
            st[TWICE + seat] ^= bit
    else:
        st[HAND + seat] &= ~bit


@step
def _give(st: np.ndarray, seat: int, card: int) -> None:
    """One copy of ``card`` joins ``seat``'s hand."""
    bit = 1 << card
    if st[HAND + seat] & bit:
        if st[TWICE + seat] & bit:
            st[THRICE + seat] |= bit
        else:
            st[TWICE + seat] |= bit
    else:
        st[HAND + seat] |= bit


@step
def held(st: np.ndarray, seat: int) -> int:
    """The cards ``seat`` holds, every copy counted."""
    return popcount(st[HAND + seat]) + popcount(st[TWICE + seat]) + popcount(st[THRICE + seat])


@step
def _lay(st: np.ndarray, card: int) -> None:
    """One copy of ``card`` goes to the table."""
    bit = 1 << card
    if st[TABLE] & bit:
        if st[TABLE_TWICE] & bit:
            st[TABLE_THRICE] |= bit
        else:
            st[TABLE_TWICE] |= bit
    else:
        st[TABLE] |= bit


@step
def _row_frontier(st: np.ndarray, R: np.ndarray, ext: np.ndarray, suit: int) -> int:
    """The ranks that extend ``suit``'s row now. With several decks the row's copies lie
    stacked: the k-th copy of a card goes down only beside the k-th copies, and where k-1
    copies of it already lie (so each rank's copies, and each side's reach, come in
    order). For rows whose two sides grow apart from each other this is the game of one
    row of each suit per deck, with the rows' reaches on each side in order."""
    shift = 13 * suit
    row = (st[TABLE] >> shift) & FULL_ROW
    if R[R_START]:
        return from_first_card(ext, row, R[R_CENTRE])
    e = ext[row]
    if R[R_DECKS] > 1:
        twice = (st[TABLE_TWICE] >> shift) & FULL_ROW
        e |= ext[twice] & row
        if R[R_DECKS] > 2:
            e |= ext[(st[TABLE_THRICE] >> shift) & FULL_ROW] & twice
    return e


@step
def turned(row: int, k: int) -> int:
    """A row's 13 ranks turned ``k`` ranks up round the ring (K to A), ``0 <= k < 13``."""
    return ((row << k) | (row >> (13 - k))) & FULL_ROW


@step
def from_first_card(ext: np.ndarray, row: int, centre: int) -> int:
    """The ranks that extend ``row`` where any card may begin a row (``R_START``): an empty
    row takes any rank; else the row is turned round the ring until its first card, the
    lowest of its run round the corner, sits where the centre does, read in the rows'
    table, and turned back. A complete row takes nothing."""
    if row == 0:
        return FULL_ROW  # (rows that begin anywhere run round the corner: every rank)
    if row == FULL_ROW:
        return 0
    k = turn_to_centre(row, 0, centre)
    return turned(ext[turned(row, k)], (13 - k) % 13)


@step
def turn_to_centre(row: int, rank: int, centre: int) -> int:
    """How many ranks up round the ring a row begun with any card (``R_START``) is turned
    for its first card to sit at the ``centre``: the first card is the lowest of the row's
    run round the corner, or ``rank`` where the row is empty (the card that begins it)."""
    heads = row & ~turned(row, 1)  # the ranks laid whose rank below is not
    first = lowest(heads) if heads else rank
    return (centre - first + 13) % 13


@step
def open_frontier(st: np.ndarray, R: np.ndarray) -> int:
    """The places where a card may be laid now: every row's extensions (``st[FRONTIER]``),
    and where rows grow one at a time (``R_ROWS``) a begun row's only, while there is one."""
    if R[R_ROWS]:
        return begun_only(st[TABLE], st[FRONTIER])
    return st[FRONTIER]


@step
def begun_only(table: int, frontier: int) -> int:
    """Of the cards that fit ``frontier`` on ``table``, those of the rows begun and not
    finished, where there are any (rows grow one at a time: ``R_ROWS``)."""
    begun = 0
    for suit in range(4):
        shift = 13 * suit
        if (frontier >> shift) & FULL_ROW and (table >> shift) & FULL_ROW:
            begun |= FULL_ROW << shift
    return frontier & begun if begun else frontier


@hot
def set_table(st: np.ndarray, R: np.ndarray, ext: np.ndarray, table: int) -> None:
    """Put ``table`` down (with the copies in ``st[TABLE_TWICE]`` and ``st[TABLE_THRICE]``
    where there are several decks): every row's extensions, and any suit whose centre
    card is now on the table opened (in suit order); the cards of a burst hand laid in a
    row without it do not open the row."""
    st[TABLE] = table
    frontier = 0
    centre = ext[0]  # the centre's rank bit: all that an empty row extends
    if R[R_START]:
        centre = FULL_ROW  # any card begins a row
    for suit in range(4):
        if (table >> (13 * suit)) & centre:
            _open(st, suit)
        frontier |= _row_frontier(st, R, ext, suit) << (13 * suit)
    st[FRONTIER] = frontier


# -- slot points: a plugin hook is asked here (``plain``); compiled, nothing is ------------
@step
def plugin_over(st: np.ndarray, R: np.ndarray, log: np.ndarray) -> bool:
    """Whether a plugin ending ends the game now."""
    return False


@step
def plugin_stuck(st: np.ndarray, R: np.ndarray, log: np.ndarray, seat: int, stuck: bool) -> int:
    """What a plugin stuck rule lets ``seat`` do: when ``stuck``, its actions; else what
    it may do instead of playing. The cards it may cover, a mask, with ``MAY_PASS`` set
    when it may pass."""
    return 0


MAY_PASS = 1 << 60  # in what ``plugin_stuck`` answers: the seat may pass


@step
def is_over(st: np.ndarray, R: np.ndarray, log: np.ndarray) -> bool:
    """The ending rule."""
    n = R[R_PLAYERS]
    kind = R[R_ENDING]
    if kind == PLUGIN:
        return plugin_over(st, R, log)
    if kind == 1:  # first out
        return st[NFINISHED] > 0
    holding = 0
    for s in range(n):
        if st[HAND + s]:
            holding += 1
    if kind == 0:  # every hand empty
        return holding == 0
    return holding <= 1  # one left


@step
def stalled(st: np.ndarray, R: np.ndarray) -> bool:
    """The stall rule: every seat still holding cards passed ``R[R_STALL]`` times in a row."""
    rounds = R[R_STALL]
    if rounds < 0:
        return False
    holding = 0
    for s in range(R[R_PLAYERS]):
        if st[HAND + s]:
            holding += 1
    return st[IDLE] >= rounds * holding


@step
def plays(st: np.ndarray, R: np.ndarray, seat: int) -> int:
    """Mask of the cards ``seat`` (to move) may play: of its hand, or lying face up."""
    hand = st[HAND + seat] | st[POOL]
    if st[STARTED] == 0 and st[FIRST] >= 0:
        return hand & (1 << st[FIRST])
    fits = open_frontier(st, R)
    if R[R_TRUMPS] and st[TRUMPED]:  # a card whose place a trump took fits the trump row
        trumps = (fits >> (13 * (st[DOOR] // 13))) & FULL_ROW
        for suit in range(4):
            fits |= ((st[TRUMPED] >> (13 * suit)) & trumps) << (13 * suit)
    return hand & fits


@step
def place_of(st: np.ndarray, R: np.ndarray, card: int) -> int:
    """The place ``card`` goes to: its own, or where a trump took it, the trump row's place
    of its rank (``layout.trumps``)."""
    return trump_place(card, st[TRUMPED], st[DOOR]) if R[R_TRUMPS] else card


@step
def trump_place(card: int, trumped: int, door: int) -> int:
    """The place ``card`` goes to where trumps took the places ``trumped`` (the last card
    dealt ``door`` naming trumps): its own, or the trump row's place of its rank."""
    if (trumped >> card) & 1:
        return 13 * (door // 13) + card % 13
    return card


@step
def homes(st: np.ndarray, R: np.ndarray, cards: int) -> int:
    """The places ``cards`` go to on the table (``trump_homes``)."""
    return trump_homes(cards, st[TRUMPED], st[DOOR]) if R[R_TRUMPS] else cards


@step
def trump_homes(cards: int, trumped: int, door: int) -> int:
    """The places ``cards`` go to: each its own, but a card whose place a trump took
    (``trumped``) goes to the trump row's place of its rank (``layout.trumps``, the last
    card dealt ``door`` naming trumps)."""
    moved = cards & trumped
    if moved == 0:
        return cards
    ranks = 0
    for suit in range(4):
        ranks |= (moved >> (13 * suit)) & FULL_ROW
    return (cards & ~moved) | (ranks << (13 * (door // 13)))


@hot  # (a call: the trump rule's code stays out of the common loop)
def trump_places(st: np.ndarray, R: np.ndarray, hand: int) -> int:
    """The places of other suits where a trump of ``hand`` may be laid now, a card mask
    (``layout.trumps``): a place that fits, of a rank whose trump ``hand`` holds, not the
    centre's and not the rank of the card that named trumps (those go to the trump row)."""
    if not R[R_TRUMPS] or (st[STARTED] == 0 and st[FIRST] >= 0):
        return 0
    door = st[DOOR]
    shift = 13 * (door // 13)
    ranks = (hand >> shift) & FULL_ROW & ~(1 << R[R_CENTRE]) & ~(1 << (door % 13))
    return open_frontier(st, R) & ~(FULL_ROW << shift) & (ranks * EACH_SUIT)


@hot  # (a call: the trump rule's code stays out of the common loop)
def trump_moves(
    st: np.ndarray, R: np.ndarray, hand: int, jx: np.ndarray, jy: np.ndarray, count: int
) -> int:
    """The trump moves of a player holding ``hand``, ascending, into ``jx`` (64 + the place
    the trump takes: the action is ``JOKER + 64 * jx + jy``, that is ``TRUMP + 64 * place +
    trump``) and ``jy`` (the trump), after the ``count`` moves already there; the new count."""
    m = trump_places(st, R, hand)
    shift = 13 * (st[DOOR] // 13)
    while m:
        x = lowest(m)
        m &= m - 1
        jx[count] = 64 + x
        jy[count] = shift + x % 13
        count += 1
    return count


@hot
def joker_moves(
    st: np.ndarray, R: np.ndarray, beyond: np.ndarray, hand: int, jx: np.ndarray, jy: np.ndarray
) -> int:
    """The joker moves of a player holding ``hand``, ascending, into ``jx`` (the place the
    joker takes) and ``jy`` (the card played beyond it); their number."""
    if not hand & JOKER_BITS or (st[STARTED] == 0 and st[FIRST] >= 0):
        return 0
    m = open_frontier(st, R) & ~hand
    count = 0
    table = st[TABLE]
    while m:
        x = lowest(m)
        m &= m - 1
        shift = 13 * (x // 13)
        y = beyond[((table >> shift) & FULL_ROW) * 13 + x - shift]
        if y >= 0 and (hand >> (shift + y)) & 1:
            jx[count] = x
            jy[count] = shift + y
            count += 1
    return count


@step
def _joker_hand(R: np.ndarray, hand: int) -> int:
    """``hand`` as the joker's moves see it: none where a joker move would empty it (the
    joker and one card) and a player may not go out on a joker (``R_JOKER_FINISH``)."""
    if R[R_JOKER_FINISH] and popcount(hand) == 2:
        return 0
    return hand


@hot
def _any_joker_move(st: np.ndarray, R: np.ndarray, beyond: np.ndarray, hand: int) -> bool:
    """Whether a player holding ``hand`` has a joker move."""
    if not hand & JOKER_BITS or (st[STARTED] == 0 and st[FIRST] >= 0):
        return False
    m = open_frontier(st, R) & ~hand
    table = st[TABLE]
    while m:
        x = lowest(m)
        m &= m - 1
        shift = 13 * (x // 13)
        y = beyond[((table >> shift) & FULL_ROW) * 13 + x - shift]
        if y >= 0 and (hand >> (shift + y)) & 1:
            return True
    return False


@step
def _any_other_move(st: np.ndarray, R: np.ndarray, beyond: np.ndarray, hand: int) -> bool:
    """Whether a player holding ``hand`` has a move other than a card in its place: a
    joker move, or a trump laid in another suit's place."""
    if R[R_JOKERS] and _any_joker_move(st, R, beyond, _joker_hand(R, hand)):
        return True
    return R[R_TRUMPS] != 0 and trump_places(st, R, hand) != 0


@step
def _bursts_now(
    st: np.ndarray, R: np.ndarray, beyond: np.ndarray, log: np.ndarray, seat: int
) -> bool:
    """Whether ``seat``, to move, has no legal action at all (out of passes, stuck)."""
    if not R[R_MAY_BURST]:
        return False
    if plays(st, R, seat) or _any_other_move(st, R, beyond, st[HAND + seat]):
        return False
    if R[R_STUCK] == PLUGIN:
        return plugin_stuck(st, R, log, seat, True) == 0
    if R[R_DRAW] and st[STOCK]:
        return False  # it draws
    limit = R[R_PASS_LIMIT]
    return limit >= 0 and st[PASSES + seat] >= limit


@hot
def _burst(st: np.ndarray, R: np.ndarray, ext: np.ndarray, log: np.ndarray, seat: int) -> None:
    """The hand goes face up to the table, each card in its place (with several decks,
    each copy: a card laid twice lies twice); jokers are removed."""
    _log(st, log, seat, BURST)
    st[IDLE] = 0
    st[LAID] |= st[HAND + seat]
    st[LAID_BY + seat] = st[HAND + seat]
    if st[HAND + seat] & JOKER_BITS:
        st[LOST] |= 1 << seat
    # (a card whose place a joker keeps, turn.joker_handover, is face up under the joker)
    _lay_all(st, homes(st, R, st[HAND + seat] & SUITED) & ~(st[TABLE] if R[R_DECKS] == 1 else 0))
    _lay_all(st, st[TWICE + seat])
    _lay_all(st, st[THRICE + seat])
    st[HAND + seat] = 0
    st[TWICE + seat] = 0
    st[THRICE + seat] = 0
    st[BURSTED + seat] = st[NBURSTS]
    st[NBURSTS] += 1
    set_table(st, R, ext, st[TABLE])


@step
def _lay_all(st: np.ndarray, cards: int) -> None:
    """A copy of each of ``cards`` goes to the table."""
    while cards:
        _lay(st, lowest(cards))
        cards &= cards - 1


@step
def advance(
    st: np.ndarray, R: np.ndarray, ext: np.ndarray, beyond: np.ndarray, log: np.ndarray
) -> None:
    """The turn passes to the next seat holding cards; a seat with nothing at all to do
    bursts on its turn and the turn moves on."""
    n = R[R_PLAYERS]
    seat = st[TURN]
    for _ in range(2 * n):
        seat += 1
        if seat == n:
            seat = 0
        if st[HAND + seat] == 0 or (seat + 1 == st[BARRED] and _another_holds(st, n, seat)):
            continue
        st[TURN] = seat
        if not R[R_MAY_BURST] or not _bursts_now(st, R, beyond, log, seat):
            return
        _burst(st, R, ext, log, seat)
        if is_over(st, R, log):
            st[OVER] = 1
            return
    st[OVER] = 1


@step
def _another_holds(st: np.ndarray, n: int, seat: int) -> bool:
    """Whether a seat other than ``seat`` holds cards."""
    for t in range(n):  # noqa: SIM110 - a loop the compiler takes
        if t != seat and st[HAND + t]:
            return True
    return False


@step
def opening(st: np.ndarray, R: np.ndarray, log: np.ndarray, door: int) -> int:
    """The opening rule on the hands in ``st[HAND..]``: the seat that moves first
    (``st[TURN]``) and the card it must play (``st[FIRST]``, -1 for none). The cards that
    go to the table before play (``sevens_out``: the centre cards) leave their hands, are
    logged under their holders, and are returned as a mask."""
    n = R[R_PLAYERS]
    kind = R[R_OPENING]
    first = -1
    table = 0
    if kind == 0:  # holder_leads
        first = R[R_OPENING_CARD]
        seat = _holder(st, n, first)
    elif kind == 1:  # first_seat
        seat = 0
    elif kind == 2:  # door_card: the centre card of its suit
        first = 13 * (door // 13) + R[R_CENTRE]
        seat = _holder(st, n, first)
    elif kind == 4:  # seven_holder: the first seat holding a centre card (seat 0 if none)
        seat = 0
        centres = EACH_SUIT << R[R_CENTRE]
        for s in range(n):
            if st[HAND + s] & centres:
                seat = s
                break
    else:  # sevens_out
        seat = _holder(st, n, R[R_OPENING_CARD])
        for suit in range(4):  # each copy of each centre card, from the seats holding them
            c = 13 * suit + R[R_CENTRE]
            for s in range(n):
                while (st[HAND + s] >> c) & 1:
                    _take(st, s, c)
                    _lay(st, c)
                    _log(st, log, s, PLACE + c)
        table = st[TABLE]
    st[FIRST] = first
    st[TURN] = seat
    return table


@hot
def start(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    door: int,
) -> None:
    """A new game from the hands in ``st[HAND..]``: who opens, what goes to the table first,
    and the first turn."""
    n = R[R_PLAYERS]
    st[TABLE_TWICE] = 0
    st[TABLE_THRICE] = 0
    for s in range(n):
        st[DEALT + s] = st[HAND + s]
        st[DEALT_TWICE + s] = st[TWICE + s]
        st[DEALT_THRICE + s] = st[THRICE + s]
        st[SIZE + s] = held(st, s)
        st[COVERED + s] = 0
        st[PLAYED + s] = 0
        st[PASSES + s] = 0
        st[ACTIONS + s] = 0
        st[LAST + s] = -1
        st[NCLOSED + s] = 0
        st[FINISH + s] = -1
        st[BURSTED + s] = -1
        st[LEFT + s] = 0
        st[JOKERS + s] = 0
        st[LAID_BY + s] = 0
    st[NOPENED] = 0
    st[TABLE] = 0
    for k in range(MAX_JOKERS):
        st[JOKER_AT + k] = -1
    st[STARTED] = 0
    st[OVER] = 0
    st[NFINISHED] = 0
    st[NBURSTS] = 0
    st[NLEFT] = 0
    st[DOOR] = door
    st[LOGLEN] = 0
    st[LAID] = 0
    st[LOST] = 0
    st[IDLE] = 0
    st[PHASE] = 0
    st[TAKER] = -1
    st[BARRED] = 0
    st[TALLY] = 0
    st[TALLY + 1] = 0
    st[OFFERED] = 0
    st[DRAWS] = 0
    st[TRUMPED] = 0
    st[BLOCK] = 0
    table = opening(st, R, log, door)
    if st[LEAD]:  # a match's last winner moves first (``match.next_lead``)
        st[TURN] = st[LEAD] - 1
    if table:
        set_table(st, R, ext, table)
    else:
        st[FRONTIER] = R[R_EMPTY_FRONTIER]
    for s in range(n):
        if st[HAND + s] == 0 and st[SIZE + s]:
            st[FINISH + s] = st[NFINISHED]
            st[NFINISHED] += 1
    first_turn(st, R, ext, beyond, log)


@step
def first_turn(
    st: np.ndarray, R: np.ndarray, ext: np.ndarray, beyond: np.ndarray, log: np.ndarray
) -> None:
    """The first turn of a game just set up: it may be over already; a first mover with
    nothing at all to do bursts on it, as on any turn, and one without cards is passed by."""
    if is_over(st, R, log):
        st[OVER] = 1
        return
    seat = st[TURN]
    if st[HAND + seat] and R[R_MAY_BURST] and _bursts_now(st, R, beyond, log, seat):
        _burst(st, R, ext, log, seat)
        if is_over(st, R, log):
            st[OVER] = 1
            return
    if st[HAND + seat] == 0:
        advance(st, R, ext, beyond, log)


@hot
def deal(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    deck: np.ndarray,
) -> None:
    """Shuffle and deal from the stream of ``st[KEY]`` as ``Game.new_state(seed)`` does
    (Fisher-Yates with ``below`` over the pack's cards in card order, each deck's in turn,
    then its jokers; round-robin from seat 0, all of them, an even share, or ``R_HAND``
    cards each; the rest lie face up or form the stock), cut the door card if the opening
    uses one, and start. ``deck`` is room for the cards (``DECK_ROOM``)."""
    size = R[R_DECK]
    n = R[R_PLAYERS]
    j = 0
    pack = R[R_ROW] * EACH_SUIT  # the pack's ranks in each suit
    for _ in range(R[R_DECKS]):
        m = pack
        while m:
            deck[j] = lowest(m)
            m &= m - 1
            j += 1
    for c in range(j, size):
        deck[c] = JOKER_CARD + c - j
    for i in range(size - 1, 0, -1):
        r = below(st, i + 1)
        held = deck[i]
        deck[i] = deck[r]
        deck[r] = held
    for s in range(n):
        st[HAND + s] = 0
        st[TWICE + s] = 0
        st[THRICE + s] = 0
    dealt = size
    if R[R_HAND]:
        dealt = R[R_HAND] * n
    elif R[R_LEFTOVER]:
        dealt = size - size % n
    rest = 0
    for j in range(dealt, size):  # the cards dealt to no seat
        rest |= 1 << deck[j]
    st[POOL] = rest if R[R_LEFTOVER] == FACE_UP else 0
    st[STOCK] = rest if R[R_LEFTOVER] == STOCK_LEFT else 0
    st[LEFTOVER] = st[POOL]
    s = 0
    if R[R_DECKS] == 1:  # (the common case, in short)
        for j in range(dealt):
            st[HAND + s] |= 1 << deck[j]
            s += 1
            if s == n:
                s = 0
    else:
        for j in range(dealt):
            _give(st, s, deck[j])
            s += 1
            if s == n:
                s = 0
    door = -1
    if R[R_DOOR]:
        door = deck[below(st, size)]
        while door >= 52:
            door = deck[below(st, size)]
    elif R[R_TRUMPS]:  # the last card dealt names trumps
        door = deck[dealt - 1]
    start(st, R, ext, beyond, log, door)


@step
def _row_changed(
    st: np.ndarray, R: np.ndarray, ext: np.ndarray, log: np.ndarray, seat: int, suit: int
) -> None:
    """A suit's extensions after ``seat`` added to its row; credit a closure: a row cut at
    an end of its line, or complete with every real card of the pack's ranks."""
    shift = 13 * suit
    e = _row_frontier(st, R, ext, suit)
    st[FRONTIER] = (st[FRONTIER] & ~(FULL_ROW << shift)) | (e << shift)
    if e:
        return
    if (st[TABLE] >> shift) & FULL_ROW != R[R_ROW]:
        _credit(st, seat, _order(st, suit))
        _log(st, log, seat, CUT + suit)
    elif not _joker_in(st, suit):
        _credit(st, seat, _order(st, suit))


@step
def _joker_in(st: np.ndarray, suit: int) -> bool:
    """Whether a joker stands in somewhere in ``suit``'s row."""
    for k in range(MAX_JOKERS):
        at = st[JOKER_AT + k]
        if at >= 0 and at // 13 == suit:
            return True
    return False


@step
def _play(
    st: np.ndarray, R: np.ndarray, ext: np.ndarray, log: np.ndarray, seat: int, card: int
) -> None:
    bit = 1 << card
    place = place_of(st, R, card)  # (a card whose place a trump took: the trump row)
    suit = place // 13
    # the row's centre card (or its first card: a joker may stand in for the centre)
    if card % 13 == R[R_CENTRE] or not (st[TABLE] >> (13 * suit)) & FULL_ROW:
        _open(st, suit)
    if R[R_DECKS] == 1 and not st[POOL]:  # (the common case, in short) its one copy, held
        st[HAND + seat] ^= bit
        st[TABLE] |= 1 << place
    else:
        if (st[HAND + seat] >> card) & 1:
            _take(st, seat, card)
        else:  # a card lying face up
            st[POOL] ^= bit
        _lay(st, place)
    st[PLAYED + seat] += 1
    st[STARTED] = 1
    _row_changed(st, R, ext, log, seat, suit)
    if st[HAND + seat] == 0:
        st[LAST + seat] = card


@step
def _check_out(st: np.ndarray, log: np.ndarray, seat: int) -> None:
    """A hand that became empty finishes; a hand of only jokers leaves the game."""
    hand = st[HAND + seat]
    if hand and not hand & SUITED:
        st[HAND + seat] = 0
        st[NLEFT] += 1
        st[LEFT + seat] = st[NLEFT]
        _log(st, log, seat, LEAVE)
    elif hand == 0 and st[FINISH + seat] < 0 and st[BURSTED + seat] < 0:
        st[FINISH + seat] = st[NFINISHED]
        st[NFINISHED] += 1


@hot
def _joker(
    st: np.ndarray, R: np.ndarray, ext: np.ndarray, log: np.ndarray, seat: int, action: int
) -> None:
    """A joker (the lowest the seat holds: they are alike) takes the place of ``at`` and
    the card beyond it is played; the holder of ``at`` plays it at once and takes the
    joker (``R_JOKER_HANDOVER`` forced), is asked whether to (OPTIONAL: ``PHASE`` OFFER,
    the holder to move), or keeps it, never to be played (NEVER)."""
    at = (action - JOKER) // 64
    card = (action - JOKER) % 64
    joker = lowest(st[HAND + seat] & JOKER_BITS)
    k = joker - JOKER_CARD
    st[HAND + seat] &= ~(1 << joker)
    st[PLAYED + seat] += 1
    st[JOKERS + seat] += 1
    st[TABLE] |= 1 << at
    st[JOKER_AT + k] = at
    _play(st, R, ext, log, seat, card)
    if R[R_JOKER_HANDOVER] > OPTIONAL:  # never: the joker keeps the place
        return
    n = R[R_PLAYERS]
    for owner in range(n):
        if (st[HAND + owner] >> at) & 1:
            if R[R_JOKER_HANDOVER] == OPTIONAL:  # asked: take the joker, or keep the card
                st[OFFERED] = 1 + action - JOKER + 4096 * seat
                st[PHASE] = OFFER
                st[TURN] = owner
            else:
                _take_joker(st, R, log, owner, k)
            break


@hot  # (a call: the trump rule's code stays out of the common loop)
def _trump(
    st: np.ndarray, R: np.ndarray, ext: np.ndarray, log: np.ndarray, seat: int, action: int
) -> None:
    """The trump of ``action`` takes the place of the card of its rank in another suit;
    that card's place is then on the trump row (``layout.trumps``)."""
    at = (action - TRUMP) // 64
    card = (action - TRUMP) % 64
    st[HAND + seat] ^= 1 << card
    st[TABLE] |= 1 << at
    st[TRUMPED] |= 1 << at
    st[PLAYED + seat] += 1
    st[STARTED] = 1
    _row_changed(st, R, ext, log, seat, at // 13)
    if st[HAND + seat] == 0:
        st[LAST + seat] = card


@step
def _take_joker(st: np.ndarray, R: np.ndarray, log: np.ndarray, owner: int, k: int) -> None:
    """``owner`` lays the card whose place joker ``k`` took and takes the joker."""
    at = st[JOKER_AT + k]
    st[HAND + owner] = (st[HAND + owner] & ~(1 << at)) | (1 << (JOKER_CARD + k))
    st[PLAYED + owner] += 1
    st[JOKER_AT + k] = -1
    _log(st, log, owner, SWAP + at)
    suit = at // 13  # a complete row of real cards: no other joker stands in it
    if (st[TABLE] >> (13 * suit)) & FULL_ROW == R[R_ROW] and not _joker_in(st, suit):
        _credit(st, owner, _order(st, suit))
    _check_out(st, log, owner)


@step
def apply(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    action: int,
) -> None:
    """Apply a legal action of the player to move, then the events it sets off."""
    seat = st[TURN]
    stop = False  # no extra card, or not the card just drawn: the turn ends, and it is no pass
    if st[PHASE]:  # a later step of the turn
        if st[PHASE] == HAND_ON:
            _hand_on(st, R, ext, beyond, log, seat, action)
            return
        if st[PHASE] == OFFER:
            _answer(st, R, ext, beyond, log, seat, action)
            return
        stop = action == PASS
        st[PHASE] = 0
    if action < COVER:  # a card (the common case, tested first)
        _log(st, log, seat, action)
        st[ACTIONS + seat] += 1
        st[IDLE] = 0
        _play(st, R, ext, log, seat, action)
    else:
        if DRAW <= action < GIVE:
            _draw(st, R, ext, beyond, log, seat, action)
            return
        _log(st, log, seat, action)
        st[ACTIONS + seat] += 1
        st[IDLE] = st[IDLE] + 1 if action == PASS and not stop else 0
        if action == PASS:
            if not stop:
                if R[R_TALLY]:  # (before the pass changes the turn's options)
                    _tally_pass(st, R, beyond, seat)
                st[PASSES + seat] += 1
                if R[R_PASS_BARS]:  # barred until another passes (which frees any other)
                    st[BARRED] = seat + 1
                if R[R_TAKE] and _ask_giver(st, R, seat):
                    return  # the previous player hands this seat a card, then the turn moves on
        elif action >= TRUMP:
            _trump(st, R, ext, log, seat, action)
        elif action >= JOKER:
            _joker(st, R, ext, log, seat, action)
            if st[PHASE] == OFFER:  # the holder of the joker's place answers first
                _check_out(st, log, seat)
                return
        else:
            card = action - COVER
            if card >= JOKER_CARD:  # a joker: the lowest held (they are alike)
                card = lowest(st[HAND + seat] & JOKER_BITS)
            _take(st, seat, card)
            st[COVERED + seat] |= 1 << card
    _check_out(st, log, seat)
    _moved_on(st, R, ext, beyond, log, seat, action)


@step
def _moved_on(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    seat: int,
    action: int,
) -> None:
    """After ``seat``'s ``action``: the game ends, the seat plays again, or the turn moves
    on."""
    # (the rules' switches are tested here before the calls: free compiled, and fewer
    # calls in the plain copy)
    if R[R_DRAW] == RUN and (action < COVER or action >= JOKER):  # a card laid: count anew
        st[DRAWS] &= ~(15 << 4)
    if is_over(st, R, log) or (R[R_STALL] >= 0 and stalled(st, R)):
        st[OVER] = 1
    elif R[R_EXTRA] and _earns_extra(st, R, beyond, seat, action):
        st[PHASE] = EXTRA  # the same seat plays again
    elif R[R_LAY] and action < COVER and _lays_on(st, R, ext, seat, action):
        st[PHASE] = LAYING  # the same seat lays on its block, or stops
        return
    else:
        advance(st, R, ext, beyond, log)
    st[BLOCK] = 0  # the turn is over: its block with it


# -- a turn's block of cards (R_LAY, ``turn.lay`` blocks): one run of ranks in one or more
# suits, laid a card at a time -----------------------------------------------------------
@step
def line_bottom(R: np.ndarray) -> int:
    """The rank a block's run counts its places from (the rank at the bottom of the line):
    the 2 where the ace is high, after the K (the line's ends are the A and a rank below
    it, with a K in the pack); else the A. Rows that run on round the corner count from
    the A, and a run does not go round it."""
    ends = R[R_ENDS]
    if ends & 1 and (R[R_ROW] >> 12) & 1 and not (ends >> 12) & 1:
        return 1
    return 0


@step
def _places(low: int, high: int) -> int:
    """The places ``low`` to ``high`` of the line, a mask."""
    return ((1 << (high + 1)) - 1) & ~((1 << low) - 1)


@step
def _run(R: np.ndarray, block: int) -> int:
    """The ranks of ``block``'s run (its places along the line), a row mask."""
    places = _places((block >> BLOCK_LOW) & 15, (block >> BLOCK_HIGH) & 15)
    return turned(places, line_bottom(R))


@step
def block_cards(st: np.ndarray, R: np.ndarray, seat: int) -> int:
    """The cards that lay on the block of ``seat``'s turn now (``PHASE`` LAYING): the rest
    of the suit being completed at the run's ranks; else the first suit's run at either end
    while it is the only suit, and a card of a suit that may be begun at the run's ranks."""
    block = st[BLOCK]
    can = plays(st, R, seat)
    run = _run(R, block)
    due = (block >> BLOCK_DUE) & 7
    if due:
        return can & (run << (13 * (due - 1)))
    suits = block & 15
    cards = 0
    if suits & (suits - 1) == 0:  # one suit: its run grows at either end of its places
        places = _places((block >> BLOCK_LOW) & 15, (block >> BLOCK_HIGH) & 15)
        ends = ((places << 1) | (places >> 1)) & ~places & FULL_ROW
        cards = can & (turned(ends, line_bottom(R)) << (13 * lowest(suits)))
    begin = (block >> BLOCK_OPEN) & 15
    for suit in range(4):
        if (begin >> suit) & 1:
            cards |= can & (run << (13 * suit))
    return cards


@step
def _layable(st: np.ndarray, ext: np.ndarray, suit: int, run: int) -> bool:
    """Whether ``suit``'s cards at the ranks of ``run`` can all be laid now, one after
    another, each where it fits when it is laid."""
    row = (st[TABLE] >> (13 * suit)) & FULL_ROW
    need = run
    while need:
        fits = ext[row] & need
        if fits == 0:
            return False
        rank = lowest(fits)
        row |= 1 << rank
        need ^= 1 << rank
    return True


@step
def _lays_on(st: np.ndarray, R: np.ndarray, ext: np.ndarray, seat: int, card: int) -> bool:
    """After ``seat`` laid ``card``: its turn's block with the card (``st[BLOCK]``), and
    whether it may lay on. A card of a suit not in the block begins that suit, which is
    then completed at the run's ranks; while the block has one suit its run grows. A suit
    may be begun where its holder holds every card of it at the run's ranks and can lay
    them all now. Where nothing can be laid on, the block is over (0)."""
    suit = card // 13
    place = (card % 13 - line_bottom(R) + 13) % 13  # its place along the line
    block = st[BLOCK]
    suits = block & 15
    low = (block >> BLOCK_LOW) & 15
    high = (block >> BLOCK_HIGH) & 15
    due = (block >> BLOCK_DUE) & 7
    if block == 0:  # the turn's first card
        suits = 1 << suit
        low = place
        high = place
    elif not (suits >> suit) & 1:  # a suit begun: its ranks are due
        suits |= 1 << suit
        due = suit + 1
    elif suits & (suits - 1) == 0:  # the one suit's run grows
        low = min(low, place)
        high = max(high, place)
    run = turned(_places(low, high), line_bottom(R))
    if due and (st[TABLE] >> (13 * (due - 1))) & run == run:
        due = 0  # that suit is complete at the run's ranks
    begin = 0
    if due == 0:
        held = st[HAND + seat] | st[POOL]
        for other in range(4):
            cards = run << (13 * other)
            if not (suits >> other) & 1 and held & cards == cards and _layable(st, ext, other, run):
                begin |= 1 << other
    st[BLOCK] = (
        suits
        | (low << BLOCK_LOW)
        | (high << BLOCK_HIGH)
        | (due << BLOCK_DUE)
        | (begin << BLOCK_OPEN)
    )
    if block_cards(st, R, seat):
        return True
    st[BLOCK] = 0
    return False


@step
def tally(st: np.ndarray, counter: int) -> int:
    """A counter of ``TALLY`` (``layout``): a seat's passes when able, or a suit's passes
    holding its centre card."""
    shift = TALLY_BITS * (counter % TALLY_WORD)
    return (st[TALLY + counter // TALLY_WORD] >> shift) & ((1 << TALLY_BITS) - 1)


@step
def _count(st: np.ndarray, counter: int) -> None:
    st[TALLY + counter // TALLY_WORD] += 1 << (TALLY_BITS * (counter % TALLY_WORD))


@step
def _tally_pass(st: np.ndarray, R: np.ndarray, beyond: np.ndarray, seat: int) -> None:
    """Count a pass of ``seat`` that it made although it could have played (a card, or a
    joker move), and for each centre card it held that could have been played, the suit's
    pass held back."""
    can = plays(st, R, seat)
    if can == 0 and not _any_other_move(st, R, beyond, st[HAND + seat]):
        return
    _count(st, seat)
    centre = R[R_CENTRE]
    held_back = can & st[HAND + seat] & (EACH_SUIT << centre)
    for suit in range(4):
        if (held_back >> (13 * suit + centre)) & 1:
            _count(st, TALLY_SEATS + suit)


@step
def _answer(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    holder: int,
    action: int,
) -> None:
    """The holder of a joker's place answers (``PHASE`` OFFER): the card itself (it lays
    it and takes the joker) or a pass (it keeps the card, and the joker keeps the place;
    no pass). Then the game goes on from the joker move."""
    moved = st[OFFERED] - 1
    mover = moved // 4096
    joker_action = JOKER + moved % 4096
    st[OFFERED] = 0
    st[PHASE] = 0
    _log(st, log, holder, action)
    st[ACTIONS + holder] += 1
    if action != PASS:
        for k in range(MAX_JOKERS):
            if st[JOKER_AT + k] == action:
                _take_joker(st, R, log, holder, k)
                break
    st[TURN] = mover
    _moved_on(st, R, ext, beyond, log, mover, joker_action)


@step
def _draw(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    seat: int,
    action: int,
) -> None:
    """``seat`` draws from the stock: the card of ``action`` (``DRAW_CARD + card``), or for
    ``DRAW`` one the game's random stream picks. Where the card drawn fits, the same seat
    plays on (``PHASE`` DREW: play it, or stop where it need not play); else the turn
    moves on."""
    card = action - DRAW_CARD
    if action == DRAW:
        stock = st[STOCK]
        card = nth_bit(stock, below(st, popcount(stock)))
    _log(st, log, seat, DRAW_CARD + card)
    st[ACTIONS + seat] += 1
    st[IDLE] = 0
    st[STOCK] ^= 1 << card
    _give(st, seat, card)
    st[PHASE] = 0
    if R[R_DRAW] >= GROWING and _draws_on(st, R, seat):
        st[PHASE] = DRAWING  # another card at this stop
        return
    if plays(st, R, seat) or (R[R_TRUMPS] and trump_places(st, R, st[HAND + seat])):
        st[PHASE] = DREW  # (a trump drawn may take another row's place)
    else:
        advance(st, R, ext, beyond, log)


@step
def _draws_on(st: np.ndarray, R: np.ndarray, seat: int) -> bool:
    """After a card drawn at a stop where draws grow (``R_DRAW`` GROWING: the player's n-th
    stop draws n cards; SHARED: the table's n-th stop draws n; RUN: the n-th stop in a row
    since a card was laid draws n): whether the same player
    draws another (the stock not empty). A stop's first card counts the stop."""
    shift = 4 if R[R_DRAW] > GROWING else 4 + 4 * seat
    drawn = st[DRAWS] & 15
    stops = (st[DRAWS] >> shift) & 15
    if drawn == 0 and stops < 15:  # the stop's first card: one stop more
        stops += 1
        st[DRAWS] += 1 << shift
    drawn += 1
    if drawn < stops and st[STOCK]:
        st[DRAWS] += 1
        return True
    st[DRAWS] -= st[DRAWS] & 15
    return False


@step
def _ask_giver(st: np.ndarray, R: np.ndarray, taker: int) -> bool:
    """After ``taker`` passed: the previous seat still holding cards is to hand it a card
    (``PHASE`` HAND_ON); False where no other seat holds any."""
    n = R[R_PLAYERS]
    for k in range(1, n):
        giver = (taker - k + n) % n
        if st[HAND + giver]:
            st[TAKER] = taker
            st[TURN] = giver
            st[PHASE] = HAND_ON
            return True
    return False


@step
def _hand_on(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    giver: int,
    action: int,
) -> None:
    """``giver`` hands the card of ``action`` (a joker: the lowest it holds) to the seat
    that passed, and the turn moves on from that seat; a giver left without cards has
    finished (or, holding only jokers, leaves)."""
    card = action - GIVE
    if card >= JOKER_CARD:
        card = lowest(st[HAND + giver] & JOKER_BITS)
    taker = st[TAKER]
    st[PHASE] = 0
    st[TAKER] = -1
    _log(st, log, giver, action)
    st[ACTIONS + giver] += 1
    _take(st, giver, card)
    _give(st, taker, card)
    _check_out(st, log, giver)
    st[TURN] = taker
    if is_over(st, R, log) or (R[R_STALL] >= 0 and stalled(st, R)):
        st[OVER] = 1
    else:
        advance(st, R, ext, beyond, log)


@step
def _earns_extra(st: np.ndarray, R: np.ndarray, beyond: np.ndarray, seat: int, action: int) -> bool:
    """Whether ``action`` of ``seat`` laid a card that ends its row's line, under a rule
    that gives another play for it, and ``seat`` has another card it can play."""
    if R[R_EXTRA] == 0 or COVER <= action < JOKER:  # no such rule, or no card laid
        return False
    card = action if action < COVER else (action - JOKER) % 64
    if R[R_START]:  # the line ends with the rank below the row's first card: the row's 13th
        if (st[TABLE] >> (13 * (card // 13))) & FULL_ROW != R[R_ROW]:
            return False
    elif not (R[R_ENDS] >> (card % 13)) & 1:
        return False
    if st[HAND + seat] == 0:
        return False
    return plays(st, R, seat) != 0 or _any_other_move(st, R, beyond, st[HAND + seat])


@step
def one_joker(cards: int) -> int:
    """``cards`` with their jokers as one: an action names a joker as the first (``JOKER``),
    whichever of the alike jokers it moves."""
    if cards & JOKER_BITS:
        return (cards & ~JOKER_BITS) | JOKER_BIT
    return cards


@step
def options(
    st: np.ndarray,
    R: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    jx: np.ndarray,
    jy: np.ndarray,
) -> tuple[int, int, int, bool, int]:
    """What the player to move may do, as the legal actions list it in ascending order:
    (the cards it may play; its joker moves, filled into ``jx`` and ``jy``; the cards it
    may cover, when stuck or by choice; whether it may pass; the rule that decided, one of
    ``BY_*``, which the words of a refusal read). A stuck player covers (or, out of passes
    where passes run into covers, covers any card) or passes."""
    seat = st[TURN]
    hand = st[HAND + seat]
    phase = st[PHASE]
    if phase == HAND_ON:  # the card to hand to the player who passed: any it holds
        return 0, 0, one_joker(hand), False, BY_GIVE
    if phase == OFFER:  # lay the card under the joker (and take it), or keep it (pass)
        return 1 << ((st[OFFERED] - 1) % 4096 // 64), 0, 0, True, BY_HANDOVER
    if phase == DRAWING:  # another card to draw at this stop
        return 0, 0, 0, False, BY_DRAW
    if phase == LAYING and R[R_LAY]:  # lay on the block, or stop where no suit is due
        return block_cards(st, R, seat), 0, 0, (st[BLOCK] >> BLOCK_DUE) & 7 == 0, BY_LAYING
    can = plays(st, R, seat)
    sevens = can & (EACH_SUIT << R[R_CENTRE]) if R[R_SEVENS_FIRST] else 0
    if sevens:  # a centre card that can be played goes before any other card
        can = sevens
    njokers = 0
    if R[R_JOKERS] and hand & JOKER_BITS and not sevens:
        njokers = joker_moves(st, R, beyond, _joker_hand(R, hand), jx, jy)
    if R[R_TRUMPS] and not sevens:  # (listed with the joker moves: ``trump_moves``)
        njokers = trump_moves(st, R, hand, jx, jy, njokers)
    if phase:  # a later step of the turn
        if phase == EXTRA:  # another card after one that ended its line; or stop, with MAY
            return can, njokers, 0, R[R_EXTRA] == MAY, BY_EXTRA
        return can, njokers, 0, R[R_MUST_PLAY] == 0, BY_DRAW  # the card just drawn fits
    opening = st[STARTED] == 0 and st[FIRST] >= 0
    if sevens and not opening:
        return can, 0, 0, False, BY_SEVENS_FIRST
    if R[R_STUCK] == PLUGIN:
        if (can or njokers) and (R[R_MUST_PLAY] or opening):
            return can, njokers, 0, False, BY_OPENING if opening else BY_MUST_PLAY
        other = plugin_stuck(st, R, log, seat, can == 0 and njokers == 0)
        covers = one_joker(other & (SUITED | JOKER_BITS))
        return can, njokers, covers, (other & MAY_PASS) != 0, BY_PLUGIN
    cover = R[R_STUCK] == 0
    limit = R[R_PASS_LIMIT]
    passes_left = limit < 0 or st[PASSES + seat] < limit
    if can == 0 and njokers == 0:  # stuck
        if R[R_DRAW] and st[STOCK]:  # it draws (its one action)
            return 0, 0, 0, False, BY_DRAW
        if cover:
            m = hand & R[R_COVERABLE]
            return 0, 0, one_joker(m if m else hand), False, BY_STUCK
        if passes_left:
            return 0, 0, 0, True, BY_STUCK
        if R[R_THEN_COVER]:  # out of passes, it covers any card
            return 0, 0, one_joker(hand), False, BY_NO_PASSES
        return 0, 0, 0, False, BY_NO_PASSES  # nothing (it bursts on its turn)
    if opening:
        return can, njokers, 0, False, BY_OPENING
    if R[R_MUST_PLAY]:
        return can, njokers, 0, False, BY_MUST_PLAY
    if cover:  # covers by choice (house rules)
        m = hand & R[R_COVERABLE]
        return can, njokers, one_joker(m if m else hand), False, BY_CHOICE
    return can, njokers, 0, passes_left, BY_CHOICE if passes_left else BY_NO_PASSES


@step
def choose(
    st: np.ndarray,
    R: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    policy: int,
    jx: np.ndarray,
    jy: np.ndarray,
) -> int:
    """The action the player to move picks under ``policy``, drawing as the Python players
    do: the legal actions in ascending order are the plays, then what may be done instead
    of playing (a cover or a pass), then the joker moves."""
    can, njokers, covers, may_pass, by = options(st, R, beyond, log, jx, jy)
    nplays = popcount(can)
    eager = policy == EAGER and not R[R_MUST_PLAY]
    if nplays == 0 and njokers == 0:  # stuck (or handing a card on)
        if covers:
            count = popcount(covers)
            r = randbelow(st, count) if eager else below(st, count)
            return (GIVE if by == BY_GIVE else COVER) + nth_bit(covers, r)
        if eager:
            randbelow(st, 1)
        return DRAW if by == BY_DRAW else PASS
    if eager:  # a card, whenever one can be played
        r = randbelow(st, nplays + njokers)
        if r < nplays:
            return nth_bit(can, r)
        r -= nplays
        return JOKER + 64 * jx[r] + jy[r]
    nvoluntary = popcount(covers) + int(may_pass)
    r = below(st, nplays + nvoluntary + njokers)
    if r < nplays:
        return nth_bit(can, r)
    r -= nplays
    if r < nvoluntary:
        return COVER + nth_bit(covers, r) if covers else PASS
    r -= nvoluntary
    return JOKER + 64 * jx[r] + jy[r]


@hot
def play_out(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    log: np.ndarray,
    policy: int,
    jx: np.ndarray,
    jy: np.ndarray,
) -> None:
    """Play the game in ``st`` to its end, every seat under ``policy``."""
    while not st[OVER]:
        action = choose(st, R, beyond, log, policy, jx, jy)
        apply(st, R, ext, beyond, log, action)
