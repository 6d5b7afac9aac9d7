"""The rule-based player (``agents.HeuristicAgent``) compiled, as a playout policy.

``heuristic(st, R, ext, beyond, jx, jy)`` is the action the player to
move picks as ``HeuristicAgent`` with its default weights picks it from that seat's
observation: the same scores, computed in the same order (so the same floating-point
values and the same ties), and the same draw among equally good actions from the game's
random stream. Search players use it for playouts where passing is a choice, the tables
where random passes misjudge the game (see ``search.guided``); it is many times quicker
than the Python player.

What the player reads besides the state comes from the rules vector: the stuck rule and
pass limit, the deck's jokers and two scoring facts kept for it, the bust threshold and
the closure bonus by opening order (``layout.R_H_BUST``, ``R_H_CLOSURE``), and whether
covered melds are exempt (``R_MELDS``, the platform's rule: a cover then costs what it adds
to the seat's charged points, by the rule core's ``scoring.exempt_points``). With several
decks (``R_DECKS``) a card is weighed in the row its copy goes to, from the table's and the
hand's copy planes, as ``HeuristicAgent._row_of_copy`` weighs it.
"""

from __future__ import annotations

import numpy as np

from paiqi_core.core.bits import hot, lowest, nth_bit, popcount, step
from paiqi_core.core.kernel import held, options, place_of, turn_to_centre, turned
from paiqi_core.core.layout import (
    BY_DRAW,
    BY_GIVE,
    COVER,
    COVERED,
    DRAW,
    FULL_ROW,
    GIVE,
    HAND,
    HAND_ON,
    JOKER,
    JOKER_AT,
    JOKER_BITS,
    JOKER_CARD,
    LAYING,
    MAX_JOKERS,
    NLEFT,
    NOPENED,
    OPENED,
    PASS,
    PASSES,
    PHASE,
    R_CENTRE,
    R_COURSE_COVERS,
    R_DECKS,
    R_EXTRA,
    R_H_BUST,
    R_H_CLOSURE,
    R_JOKERS,
    R_MELDS,
    R_PASS_LIMIT,
    R_PLAYERS,
    R_ROW,
    SUITED,
    TABLE,
    TABLE_THRICE,
    TABLE_TWICE,
    THRICE,
    TURN,
    TWICE,
)
from paiqi_core.core.play_rules import R_START
from paiqi_core.core.rng import below
from paiqi_core.core.scoring import exempt_points
from paiqi_core.weights import (
    ASSUMED_PASS_LIMIT,
    BLOCK_WEIGHT,
    COVER_COST_WEIGHT,
    END_WEIGHT,
    FAR_RELEASE,
    HIGH_CARD_FIRST,
    JOKER_ENDGAME,
    JOKER_KEEP,
    JOKER_RELEASE_HAND,
    OPEN_WEIGHT,
    POINTS_PER_CARD,
    RESERVE_PASSES,
    RUN_WEIGHT,
    STRAND_WEIGHT,
)


@step
def reach(ext: np.ndarray, row: int, blocked: int) -> int:
    """Ranks that can still join a row, in some order, without the ``blocked`` ones
    (13-bit masks of one suit): ``HeuristicAgent._reach``."""
    start = row
    grow = ext[row] & ~blocked
    while grow:
        row |= grow
        grow = ext[row] & ~blocked
    return row & ~start


@step
def points(mask: int) -> int:
    """Face points of the suit-local ranks in ``mask`` (A=1 .. K=13)."""
    total = 0
    while mask:
        total += lowest(mask) + 1
        mask &= mask - 1
    return total


@step
def _row(mask: int, suit: int) -> int:
    return (mask >> (13 * suit)) & FULL_ROW


@step
def _out_of_passes(st: np.ndarray, R: np.ndarray, seat: int) -> bool:
    """An opponent still holding cards has used every pass it may."""
    limit = R[R_PASS_LIMIT]
    if limit < 0:
        return False
    for other in range(R[R_PLAYERS]):
        if other != seat and st[HAND + other] != 0 and st[PASSES + other] >= limit:
            return True
    return False


@step
def _may_hold_joker(st: np.ndarray, R: np.ndarray, seat: int) -> bool:
    """The deck has more jokers than this hand holds, stand on the table or went with
    players who left holding only jokers (one each at least)."""
    if R[R_JOKERS] == 0:
        return False
    accounted = popcount(st[HAND + seat] & JOKER_BITS) + st[NLEFT]
    for k in range(MAX_JOKERS):
        if st[JOKER_AT + k] >= 0:
            accounted += 1
    return accounted < R[R_JOKERS]


@step
def play_score(
    st: np.ndarray, R: np.ndarray, ext: np.ndarray, seat: int, at: int, card: int, pressure: float
) -> float:
    """What playing ``card`` is worth (``at``: the place a joker takes for it, -1 for a
    plain play): ``HeuristicAgent._play_score``."""
    rank = card % 13
    suit = card // 13
    mine = 1 << rank
    placed = mine if at < 0 else (1 << (at % 13)) | mine
    t = _row(st[TABLE], suit)
    h = _row(st[HAND + seat], suit)
    d = _row(st[COVERED + seat], suit)
    u = R[R_ROW] & ~(t | h | d)
    extra = 0.0
    decks = R[R_DECKS]
    if decks > 1 and at < 0:  # the row its copy goes to: ``HeuristicAgent._row_of_copy``
        t1 = _row(st[TABLE_TWICE], suit)
        t2 = _row(st[TABLE_THRICE], suit) if decks > 2 else 0
        h1 = _row(st[TWICE + seat], suit)
        h2 = _row(st[THRICE + seat], suit)
        e0 = FULL_ROW & ~t  # down no time, once, twice
        e1 = t & ~t1
        e2 = t1 & ~t2
        p0 = e0 & h  # the ranks whose first, second, third copy would be this hand's
        p1 = (e0 & h1) | (e1 & h)
        p2 = (e0 & h2) | (e1 & h1) | (e2 & h)
        k = ((t >> rank) & 1) + ((t1 >> rank) & 1) + ((t2 >> rank) & 1)
        if k == 0:
            row, ours, row_next, ours_next = t, p0, t1, p1
        elif k == 1:
            row, ours, row_next, ours_next = t1, p1, t2, p2
        else:
            row, ours, row_next, ours_next = t2, p2, 0, 0
        if k + 1 < decks and (ext[row_next] >> rank) & 1:  # the next copy may follow
            if (ours_next >> rank) & 1:
                extra = RUN_WEIGHT
            elif ((R[R_ROW] & ~(row_next | ours_next | d)) >> rank) & 1:
                extra = -(BLOCK_WEIGHT * pressure)
        t, h = row, ours
        u = R[R_ROW] & ~(t | h | d)
    k = 0  # a row begun with any card is weighed turned for its first card to sit at the 7
    if R[R_START]:
        k = turn_to_centre(t, rank, R[R_CENTRE])
        t, h, d, u = turned(t, k), turned(h, k), turned(d, k), turned(u, k)
        mine, placed = turned(mine, k), turned(placed, k)
    base = t | (placed & ~mine)
    behind = reach(ext, base, d) & ~reach(ext, base, d | mine) & ~mine
    own = popcount(behind & h)
    after = t | placed
    kept = h & ~mine
    released = reach(ext, after, d | kept) & u & ~reach(ext, t, d | h)
    now = ext[after]
    given = popcount(released & now) + FAR_RELEASE * popcount(released & ~now)
    given += popcount(placed & ~mine & u)
    opening = (rank + k) % 13 == R[R_CENTRE] and t == 0
    score = (OPEN_WEIGHT if opening else RUN_WEIGHT) * own
    last = (R[R_CENTRE] + 12) % 13  # the last card of a row begun here
    if R[R_START] and R[R_EXTRA] and t == 0 and (h >> last) & 1:
        score += END_WEIGHT * RUN_WEIGHT  # its own: another play, the next row
    score -= BLOCK_WEIGHT * pressure * given
    if R[R_COURSE_COVERS]:
        lost = reach(ext, t, d) & ~reach(ext, after, d) & ~placed
        score -= COVER_COST_WEIGHT * points(turned(lost & h, (13 - k) % 13)) / POINTS_PER_CARD
        if now == 0:
            for i in range(st[NOPENED]):
                if st[OPENED + i] == suit:
                    score += R[R_H_CLOSURE + i] / POINTS_PER_CARD
                    break
        score += HIGH_CARD_FIRST * (rank + 1)
    if at >= 0:
        left = held(st, seat) - 2  # (every copy counted, as ``obs.hand_counts`` counts them)
        if left <= JOKER_ENDGAME:
            score += RUN_WEIGHT + JOKER_KEEP
        else:
            score += RUN_WEIGHT - (0.0 if own else JOKER_KEEP)
    return score + extra


@step
def cover_cost(st: np.ndarray, R: np.ndarray, ext: np.ndarray, seat: int, card: int) -> float:
    """What covering ``card`` costs, less what it strands in other hands:
    ``HeuristicAgent._cover_costs``. Where covered melds are exempt (the platform), a card
    counts the points it adds to what the seat's covers would be charged, and the bust is
    weighed on the charged points."""
    if card == JOKER_CARD:
        return -1.0
    rank = card % 13
    suit = card // 13
    bit = 1 << rank
    t = _row(st[TABLE], suit)
    h = _row(st[HAND + seat], suit)
    d = _row(st[COVERED + seat], suit)
    u = R[R_ROW] & ~(t | h | d)
    k = 0  # a row begun with any card is weighed turned for its first card to sit at the 7
    if R[R_START]:
        k = turn_to_centre(t, rank, R[R_CENTRE])
        t, h, d, u, bit = turned(t, k), turned(h, k), turned(d, k), turned(u, k), turned(bit, k)
    live = reach(ext, t, d)
    if not live & bit:
        return -0.5
    counted = rank + 1
    exempt = 0
    mine = st[COVERED + seat]
    if R[R_MELDS] and popcount(mine) >= 3:  # a meld takes four cards or more
        exempt = exempt_points(mine)
        counted -= exempt_points(mine | 1 << card) - exempt
    behind = live & ~reach(ext, t, d | bit) & ~bit
    if R[R_START] and t == 0:
        behind = 0  # any other card may begin the row: none needs this one
    back = (13 - k) % 13
    cost = COVER_COST_WEIGHT * (counted + points(turned(behind & h, back)))
    cost -= STRAND_WEIGHT * points(turned(behind & u, back))
    bust = R[R_H_BUST]
    if bust >= 0:
        covered = -exempt
        m = mine & SUITED
        while m:
            covered += lowest(m) % 13 + 1
            m &= m - 1
        if covered <= bust < covered + counted:
            cost += COVER_COST_WEIGHT * (covered + counted)
    return cost


@step
def _cheapest(st: np.ndarray, R: np.ndarray, ext: np.ndarray, seat: int, covers: int) -> int:
    """The cards of least cover cost among ``covers`` (a mask)."""
    low = np.inf
    ties = 0
    while covers:
        card = lowest(covers)
        covers &= covers - 1
        cost = cover_cost(st, R, ext, seat, card)
        if cost < low:
            low = cost
            ties = 1 << card
        elif cost == low:
            ties |= 1 << card
    return ties


@step
def _cheapest_cost(st: np.ndarray, R: np.ndarray, ext: np.ndarray, seat: int, covers: int) -> float:
    low = np.inf
    while covers:
        card = lowest(covers)
        covers &= covers - 1
        low = min(low, cover_cost(st, R, ext, seat, card))
    return low


@hot
def choices(
    st: np.ndarray, R: np.ndarray, ext: np.ndarray, beyond: np.ndarray, jx: np.ndarray,
    jy: np.ndarray,
) -> tuple[int, int, int, int, int]:  # fmt: skip
    """What ``HeuristicAgent.choices`` gives for the player to move, as (the action, if it
    has one legal action or its choice is a pass, else -1; the legal action count; the
    cards of equally best plays; the joker moves among them, by index into ``jx``/``jy``,
    which are filled; the equally cheap covers, as cards)."""
    seat = st[TURN]
    # the compiled player plays no plugin hook, so nothing reads the log (given ``jx``)
    can, njokers, covers, may_pass, by = options(st, R, beyond, jx, jx, jy)
    nplays = popcount(can)
    if nplays == 0 and njokers == 0:  # stuck: a cover, or a pass; or a card to hand on,
        if covers:  # the one it would cover
            count = popcount(covers)
            if count == 1:
                return (GIVE if by == BY_GIVE else COVER) + lowest(covers), 1, 0, 0, 0
            return -1, count, 0, 0, _cheapest(st, R, ext, seat, covers)
        return (DRAW if by == BY_DRAW else PASS), 1, 0, 0, 0
    count = nplays + njokers + popcount(covers) + int(may_pass)
    if count == 1:
        return (lowest(can) if nplays else JOKER + 64 * jx[0] + jy[0]), 1, 0, 0, 0
    out = _out_of_passes(st, R, seat)
    pressure = 1.0
    if held(st, seat) <= JOKER_RELEASE_HAND and _may_hold_joker(st, R, seat):
        pressure = 0.0
    elif out:
        pressure = 2.0
    best = -np.inf
    cards = 0  # the plays of best score: cards, and joker moves by index
    jokers = 0
    m = can
    while m:
        card = lowest(m)
        m &= m - 1
        # weighed in the place it goes to (with trumps, a displaced card's: the trump row)
        score = play_score(st, R, ext, seat, -1, place_of(st, R, card), pressure)
        if score > best:
            best = score
            cards = 1 << card
            jokers = 0
        elif score == best:
            cards |= 1 << card
    for j in range(njokers):
        if jx[j] >= 64:  # a trump, weighed as the card of the place it takes
            score = play_score(st, R, ext, seat, -1, jx[j] - 64, pressure)
        else:
            score = play_score(st, R, ext, seat, jx[j], jy[j], pressure)
        if score > best:
            best = score
            cards = 0
            jokers = 1 << j
        elif score == best:
            jokers |= 1 << j
    if may_pass and best < 0 and st[PHASE] == LAYING:
        if held(st, seat) > 1:  # (the last card goes out)
            return PASS, count, 0, 0, 0  # a block's stop costs nothing: stop where laying on hurts
    elif may_pass and best < 0:
        limit = R[R_PASS_LIMIT]
        left = (limit if limit >= 0 else ASSUMED_PASS_LIMIT) - st[PASSES + seat]
        if left > (0 if out else RESERVE_PASSES):
            return PASS, count, 0, 0, 0
    if covers:  # covers by choice (house rules)
        floor = _cheapest_cost(st, R, ext, seat, covers) / POINTS_PER_CARD + 2
        if best < -floor:
            return -1, count, 0, 0, _cheapest(st, R, ext, seat, covers)
    return -1, count, cards, jokers, 0


@hot
def heuristic(
    st: np.ndarray,
    R: np.ndarray,
    ext: np.ndarray,
    beyond: np.ndarray,
    jx: np.ndarray,
    jy: np.ndarray,
) -> int:
    """The action ``HeuristicAgent`` (default weights) picks for the player to move, drawing
    from the game's stream as it draws from its own."""
    action, _, cards, jokers, covers = choices(st, R, ext, beyond, jx, jy)
    if action >= 0:
        return action
    if covers:
        r = below(st, popcount(covers))
        return (GIVE if st[PHASE] == HAND_ON else COVER) + nth_bit(covers, r)
    ncards = popcount(cards)
    r = below(st, ncards + popcount(jokers))
    if r < ncards:
        return nth_bit(cards, r)
    j = nth_bit(jokers, r - ncards)
    return JOKER + 64 * jx[j] + jy[j]


@hot
def agrees(
    st: np.ndarray, R: np.ndarray, ext: np.ndarray, beyond: np.ndarray, jx: np.ndarray,
    jy: np.ndarray, action: int,
) -> int:  # fmt: skip
    """Whether ``action`` is one the rule-based player could have picked for the player to
    move: 1 if so, 0 if not, -1 if it had no choice (a single legal action)."""
    chosen, count, cards, jokers, covers = choices(st, R, ext, beyond, jx, jy)
    if count == 1:
        return -1
    if chosen >= 0:
        return int(action == chosen)
    if COVER <= action < PASS:
        return (covers >> (action - COVER)) & 1
    if GIVE <= action < GIVE + 64:
        return (covers >> (action - GIVE)) & 1
    if action < COVER:
        return (cards >> action) & 1
    if action >= JOKER:
        for j in range(16):
            if (jokers >> j) & 1 and JOKER + 64 * jx[j] + jy[j] == action:
                return 1
    return 0
