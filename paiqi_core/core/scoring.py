"""The built-in scorings: totals, ranks with every tie-break, labels, and money as an exact
fraction (an integer numerator per seat over one denominator per game). Written once, in the
core's subset: compiled for the compiled engine's batches, and run as plain Python
(``plain``) for every game the Python API scores (``results``: the scoring hooks of
``paiqi_core.hooks.scoring_*`` declare them and score through it).

``covering`` (鬥雀: bonuses minus covered points, ranks, heads, bust and winner multipliers;
the stake is applied outside, exactly), ``platform`` (斬龍/點差: closure, 脫手, 十三蓋 and
尾張七 scores minus covered points outside melds, labels, heads or point-difference
settlement, the house fee), ``placement`` (七並べ ranks and rank points), ``first_out``
and ``chips``. Each also marks, per seat, the special rules that fired as the Python result
tells them (``layout.E_*``): a bust (``Result.busts``), melds not counted (``exempt``), the
house fee (``house``), and for every scoring a clean hand where it earns a bonus and a joker
lost in a burst hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paiqi_core.core.bits import face_points, hot, lowest, popcount
from paiqi_core.core.kernel import held, tally
from paiqi_core.core.layout import (
    ACTIONS,
    BURSTED,
    CLOSED,
    COVERED,
    DEALT,
    E_BUST,
    E_CLEAN,
    E_FEE,
    E_JOKER_LOST,
    E_MELDS,
    FIELDS,
    FINISH,
    G_DEN,
    G_HAS_TOTAL,
    G_HOUSE,
    G_WINNERS,
    HAND,
    JOKERS,
    L_BIG,
    L_MIDDLE,
    L_SMALL,
    L_WINNER,
    LAST,
    LEFT,
    LOST,
    MAX_FINISHERS,
    MAX_SEATS,
    NCLOSED,
    NLEFT,
    PASSES,
    PLAYED,
    R_ABLE_PASS_COST,
    R_ALL_COVERED_BUSTS,
    R_ALL_COVERED_PAY,
    R_ALL_COVERED_TOTAL,
    R_ANTE,
    R_BASE,
    R_BIG,
    R_BUST_ABOVE,
    R_BUST_MULT,
    R_CARD_COST,
    R_CENTRE,
    R_CLEAN,
    R_CLEAN_EVENT,
    R_CLOSURE,
    R_COMPLETION,
    R_COUNT_CARDS,
    R_EXTRA_ANTE,
    R_EXTRA_ANTE_LONG,
    R_FEE_DEN,
    R_FEE_NUM,
    R_FINISHERS,
    R_HEAD_BIG,
    R_HEAD_MIDDLE,
    R_HEAD_SMALL,
    R_HELD_SEVEN_PAY,
    R_LAST_SEVEN,
    R_LOSERS,
    R_MELDS,
    R_MIDDLE,
    R_NPOINTS,
    R_PAIRS_CLEAN,
    R_PASS_COST,
    R_PAY,
    R_PENALTY,
    R_PLAYERS,
    R_POINTS,
    R_RATE,
    R_SCORING,
    R_SETTLEMENT,
    R_TOTALS_RULES,
    R_WM_ALL_COVERED,
    R_WM_CLEAN,
    R_WM_LAST_SEVEN,
    SIZE,
    SUITED,
    TALLY_SEATS,
    THRICE,
    TOTALS_COLLECT,
    TOTALS_SPARE,
    TWICE,
    X_ACTIONS,
    X_ALL_COVERED,
    X_BURST,
    X_CARDS_LEFT,
    X_CLOSURES,
    X_COVERS,
    X_EVENTS,
    X_EXEMPT,
    X_JOKERS,
    X_LABEL,
    X_LAST_SEVEN,
    X_MONEY,
    X_PASSES,
    X_RANK,
    X_TOTAL,
    X_WIN,
)

if TYPE_CHECKING:
    import numpy as np

KEY = 5  # fields of a rank key
# the scratch vector of a scoring (``work``): where each of its tables lies
W_KEYS = 0  # MAX_SEATS x KEY
W_POINTS = KEY * MAX_SEATS  # each a seat
W_MULT = W_POINTS + MAX_SEATS
W_COUNTED = W_MULT + MAX_SEATS
W_COLLECTED = W_COUNTED + MAX_SEATS
WORK = W_COLLECTED + MAX_SEATS


@hot
def card_points(mask: int) -> int:
    """Face points of the cards of ``mask`` (A=1 .. K=13; the joker 0)."""
    total = 0
    m = mask & SUITED
    while m:
        c = lowest(m)
        m &= m - 1
        total += face_points(c)
    return total


@hot
def _valued(mask: int, top: int) -> int:
    """The suited cards of ``mask`` valued A = 1, 2 … 10 their number, and J, Q, K 11 … 13
    each at most ``top``: 10 gives pip values, 13 the ranks' values."""
    total = 0
    m = mask & SUITED
    while m:
        c = lowest(m)
        m &= m - 1
        total += min(face_points(c), top)
    return total


@hot
def penalty_points(st: np.ndarray, s: int, count: int) -> int:
    """The penalty points of the cards ``s`` still holds, every copy counted, by the
    count ``count`` (``R_PENALTY``): 1 a card; pip values (A = 1, 2 … 10, J, Q, K 10); or
    the ranks' values (A = 1 … K = 13). A joker counts as a card, or as the count's
    highest card (10, 13)."""
    if count == 1:
        return held(st, s)
    top = 10 if count == 2 else 13
    jokers = popcount(st[HAND + s] & ~SUITED)
    return (
        top * jokers
        + _valued(st[HAND + s], top)
        + _valued(st[TWICE + s], top)
        + _valued(st[THRICE + s], top)
    )


@hot
def _deviation(mask: int) -> int:
    """Sum over the cards of ``mask`` of |points - 7| (a covered joker, 0 points, is 7)."""
    total = 0
    m = mask & SUITED
    while m:
        c = lowest(m)
        m &= m - 1
        total += abs(face_points(c) - 7)
    return total + 7 * popcount(mask & ~SUITED)


@hot
def _best_houses(triples: int, pairs: int, houses: int) -> int:
    """The most points of ``houses`` full houses, every rank used once: ``houses`` ranks of
    ``triples`` (13-bit masks of the ranks holding three) as triples, and as pairs the
    ``houses`` highest of the other ranks that hold two or more. Every choice of triples is
    tried; given one, the highest pairs are the best."""
    best = -1
    chosen = triples
    while True:  # every subset of the triples, the whole mask first
        if popcount(chosen) == houses:
            points = 0
            m = chosen
            while m:
                points += 3 * (lowest(m) + 1)
                m &= m - 1
            left = (triples & ~chosen) | pairs
            for _ in range(houses):
                r = 12  # the highest rank left
                while not (left >> r) & 1:
                    r -= 1
                points += 2 * (r + 1)
                left &= ~(1 << r)
            if points > best:
                best = points
        if chosen == 0:
            break
        chosen = (chosen - 1) & triples
    return best


@hot
def exempt_points(covered: int) -> int:
    """Points of the covered cards that the meld exemption does not count (RULES.md section
    2): the choice of disjoint melds with the most 同花順,
    then 鐵支, then 葫蘆, then points. Every choice of straight flushes is tried; given one,
    every complete rank left is a four (most 鐵支), and the most full houses and their
    points follow from the counts of the ranks left."""
    present = 0  # the straight flushes held, bit 9 * suit + lowest rank
    for suit in range(4):
        for low in range(9):
            run = 0x1F << (13 * suit + low)
            if covered & run == run:
                present |= 1 << (9 * suit + low)
    nruns = popcount(present)
    best_s, best_f, best_h, best_p = -1, -1, -1, 0
    for chosen in range(1 << nruns):
        used = 0
        straights = 0
        points = 0
        disjoint = True
        m = present
        i = 0
        while m:
            at = lowest(m)
            m &= m - 1
            if (chosen >> i) & 1:
                run = 0x1F << (13 * (at // 9) + at % 9)
                if used & run:
                    disjoint = False
                    break
                used |= run
                straights += 1
                points += 5 * (at % 9) + 15
            i += 1
        if not disjoint or straights < best_s:
            continue
        rest = covered & ~used & SUITED
        fours = 0
        triples = 0  # ranks holding three, and two, as 13-bit masks
        pairs = 0
        for r in range(13):
            c = 0
            for suit in range(4):
                c += (rest >> (13 * suit + r)) & 1
            if c == 4:
                fours += 1
                points += 4 * (r + 1)
            elif c == 3:
                triples |= 1 << r
            elif c == 2:
                pairs |= 1 << r
        ntriples = popcount(triples)
        houses = min(ntriples, (ntriples + popcount(pairs)) // 2)
        if houses:
            points += _best_houses(triples, pairs, houses)
        key_better = (
            straights > best_s
            or (straights == best_s and fours > best_f)
            or (straights == best_s and fours == best_f and houses > best_h)
            or (straights == best_s and fours == best_f and houses == best_h and points > best_p)
        )
        if key_better:
            best_s, best_f, best_h, best_p = straights, fours, houses, points
    return best_p


@hot
def _ranks(work: np.ndarray, n: int, res: np.ndarray) -> None:
    """Standard competition ranks (1, 1, 3, 4) where a smaller key is better (the keys at
    ``work[W_KEYS..]``, KEY per seat)."""
    for s in range(n):
        better = 0
        for u in range(n):
            for f in range(KEY):
                mine = work[W_KEYS + KEY * s + f]
                theirs = work[W_KEYS + KEY * u + f]
                if theirs != mine:
                    if theirs < mine:
                        better += 1
                    break
        res[s, X_RANK] = better + 1


@hot
def _last_seven(st: np.ndarray, R: np.ndarray, s: int) -> bool:
    """The card whose play emptied the hand is a 7 (the centre rank)."""
    last = st[LAST + s]
    return last >= 0 and last < 52 and last % 13 == R[R_CENTRE]


@hot
def _common(st: np.ndarray, R: np.ndarray, n: int, res: np.ndarray) -> None:
    """The fields every game row has, whatever the scoring, and the events every scoring
    reads alike: a joker lost in a burst hand, a clean hand where the scoring rewards it."""
    for s in range(n):
        covered = st[COVERED + s]
        res[s, X_ACTIONS] = st[ACTIONS + s]
        res[s, X_COVERS] = popcount(covered)
        res[s, X_PASSES] = st[PASSES + s]
        res[s, X_BURST] = 1 if st[BURSTED + s] >= 0 else 0
        res[s, X_CLOSURES] = st[NCLOSED + s]
        res[s, X_LAST_SEVEN] = 1 if _last_seven(st, R, s) else 0
        res[s, X_ALL_COVERED] = (
            1 if st[PLAYED + s] == 0 and popcount(covered) == st[SIZE + s] else 0
        )
        res[s, X_JOKERS] = st[JOKERS + s]
        res[s, X_MONEY] = 0
        res[s, X_TOTAL] = 0
        res[s, X_CARDS_LEFT] = held(st, s)
        res[s, X_LABEL] = 0
        res[s, X_EXEMPT] = 0
        events = 0
        if (st[LOST] >> s) & 1:
            events |= E_JOKER_LOST
        if R[R_CLEAN_EVENT] and _clean(st, s):
            events |= E_CLEAN
        res[s, X_EVENTS] = events


@hot
def _clean(st: np.ndarray, s: int) -> bool:
    return st[COVERED + s] == 0 and st[HAND + s] == 0 and st[PLAYED + s] > 0


@hot
def _winners(res: np.ndarray, n: int) -> int:
    count = 0
    for s in range(n):
        res[s, X_WIN] = 1 if res[s, X_RANK] == 1 else 0
        count += res[s, X_WIN]
    return count


@hot
def _key(work: np.ndarray, s: int, a: int, b: int, c: int, d: int, e: int) -> None:
    at = W_KEYS + KEY * s
    work[at] = a
    work[at + 1] = b
    work[at + 2] = c
    work[at + 3] = d
    work[at + 4] = e


@hot
def field(slot: int, i: int) -> int:
    """The signed 16-bit field ``i`` of a packed slot of the rules vector
    (``vector.packed``)."""
    x = (slot >> (16 * i)) & 0xFFFF
    return x - 0x10000 if x >= 0x8000 else x


@hot
def _finishers(R: np.ndarray, k: int, other: int) -> int:
    """What the finishers table gives each of ``k`` players out without covering
    (``other`` 0) or each other player (``other`` 1): 0 for no one out or past the table."""
    if k < 1 or k > MAX_FINISHERS:
        return 0
    i = 2 * (k - 1) + other
    return field(R[R_FINISHERS + i // FIELDS], i % FIELDS)


@hot
def _totals_extra(st: np.ndarray, R: np.ndarray, n: int, res: np.ndarray, work: np.ndarray) -> None:
    """Where each player's money is its own total (pay totals): the base, the finishers
    table (a player out on a 7 takes the 尾張7 bonus in place of its finisher's amount),
    the others' covered cost collected by players out clean, 全蓋's amounts, and with
    nobody out, the fewest covered points spared; added to the totals ``res`` holds."""
    k = 0
    cost = 0
    least = -1
    for s in range(n):
        pts = work[W_POINTS + s]
        cost += pts
        if least < 0 or pts < least:
            least = pts
        if _clean(st, s):
            k += 1
    rules = R[R_TOTALS_RULES]
    for s in range(n):
        t = res[s, X_TOTAL] + R[R_BASE]
        if _clean(st, s):
            if not (R[R_LAST_SEVEN] and _last_seven(st, R, s)):
                t += _finishers(R, k, 0)
            if rules & TOTALS_COLLECT:
                t += cost - work[W_POINTS + s]
        else:
            t += _finishers(R, k, 1)
        if k == 0 and rules & TOTALS_SPARE and work[W_POINTS + s] == least:
            t += least
        for u in range(n):
            if res[u, X_ALL_COVERED] == 1:
                t += field(R[R_ALL_COVERED_PAY], 0 if u == s else 1)
        res[s, X_TOTAL] = t


@hot
def _covering(
    st: np.ndarray, R: np.ndarray, n: int, res: np.ndarray, game: np.ndarray, work: np.ndarray
) -> None:
    pay = R[R_PAY]
    for s in range(n):
        covered = st[COVERED + s]
        ncov = popcount(covered)
        pts = ncov if R[R_COUNT_CARDS] else card_points(covered)  # what the covered cards cost
        work[W_POINTS + s] = pts
        seven = _last_seven(st, R, s)
        clean = _clean(st, s)
        # 全蓋 (a total of 0, ranked first) where the winner collects; elsewhere its covered
        # cards count like anyone's
        all_covered = res[s, X_ALL_COVERED] == 1 and pay == 0
        if all_covered:
            t = 0
        else:
            t = R[R_COMPLETION] * st[NCLOSED + s] - pts
            if seven:
                t += R[R_LAST_SEVEN]
            if clean:
                t += R[R_CLEAN]
        res[s, X_TOTAL] = t
    if pay == 2:
        _totals_extra(st, R, n, res, work)
    for s in range(n):
        covered = st[COVERED + s]
        ncov = popcount(covered)
        seven = _last_seven(st, R, s)
        clean = _clean(st, s)
        all_covered = res[s, X_ALL_COVERED] == 1 and pay == 0
        t = res[s, X_TOTAL]
        if ncov:  # 全蓋 first; then by total, fewer covered cards, nearer 7
            _key(work, s, 0 if all_covered else 1, -t, ncov, _deviation(covered), 0)
        else:  # 尾張7 > 全脫手 > 接龍 > none, between players who covered nothing
            achievement = 3 if seven else 2 if clean else (1 if st[NCLOSED + s] else 0)
            _key(work, s, 1, -t, 0, 0, -achievement)
        if all_covered:
            work[W_MULT + s] = R[R_WM_ALL_COVERED]
        elif seven:
            work[W_MULT + s] = R[R_WM_LAST_SEVEN]
        elif clean:
            work[W_MULT + s] = R[R_WM_CLEAN]
        else:
            work[W_MULT + s] = 1
    _ranks(work, n, res)
    split = _winners(res, n)
    if pay == 1:
        _pairs(st, R, n, res, game)
        return
    if pay == 2:  # each player's money is its own total
        for s in range(n):
            res[s, X_LABEL] = L_WINNER if res[s, X_WIN] else 0
            res[s, X_MONEY] = res[s, X_TOTAL]
        game[G_DEN] = 1
        game[G_WINNERS] = split
        game[G_HAS_TOTAL] = 1
        return
    # heads among the payers (negative totals that did not win): the lowest unique is
    # 大頭 and a unique second lowest 中頭; the lowest shared by two are both 中頭
    lowest_total = 1
    for s in range(n):
        t = res[s, X_TOTAL]
        if t < 0 and not res[s, X_WIN] and t < lowest_total:
            lowest_total = t
    shared = 0
    second = 1
    for s in range(n):
        t = res[s, X_TOTAL]
        if t < 0 and not res[s, X_WIN]:
            if t == lowest_total:
                shared += 1
            elif t < second:
                second = t
    second_count = 0
    for s in range(n):
        if res[s, X_TOTAL] == second and second < 0 and not res[s, X_WIN]:
            second_count += 1
    for s in range(n):
        t = res[s, X_TOTAL]
        if res[s, X_WIN]:
            res[s, X_LABEL] = L_WINNER
        if t >= 0 or res[s, X_WIN]:
            continue
        label = 0
        if shared == 1:
            if t == lowest_total:
                label = L_BIG
            elif t == second and second_count == 1:
                label = L_MIDDLE
        elif shared == 2 and t == lowest_total:
            label = L_MIDDLE
        res[s, X_LABEL] = label
        head = R[R_BIG] if label == L_BIG else R[R_MIDDLE] if label == L_MIDDLE else 1
        bust = 1
        if work[W_POINTS + s] > R[R_BUST_ABOVE]:
            bust = R[R_BUST_MULT]
            res[s, X_EVENTS] |= E_BUST
        base = -t * head * bust
        for w in range(n):
            if res[w, X_WIN]:
                amount = base * work[W_MULT + w]
                res[w, X_MONEY] += amount
                res[s, X_MONEY] -= amount
    game[G_DEN] = split
    game[G_WINNERS] = split
    game[G_HAS_TOTAL] = 1


@hot
def _pairs(st: np.ndarray, R: np.ndarray, n: int, res: np.ndarray, game: np.ndarray) -> None:
    """Every two players settle the difference of their totals (QQ 排七: each collects the
    others' covered points less n - 1 times its own), every payment multiplied once a
    player went out clean."""
    mult = 1
    sum_t = 0
    for s in range(n):
        sum_t += res[s, X_TOTAL]
        if _clean(st, s):
            mult = R[R_PAIRS_CLEAN]
    for s in range(n):
        res[s, X_LABEL] = L_WINNER if res[s, X_WIN] else 0
        res[s, X_MONEY] = (n * res[s, X_TOTAL] - sum_t) * mult
    game[G_DEN] = 1
    game[G_WINNERS] = _winners(res, n)
    game[G_HAS_TOTAL] = 1


@hot
def _platform(
    st: np.ndarray, R: np.ndarray, n: int, res: np.ndarray, game: np.ndarray, work: np.ndarray
) -> None:
    for s in range(n):
        covered = st[COVERED + s]
        ncov = popcount(covered)
        free = 0
        if R[R_MELDS] and ncov >= 4:
            free = exempt_points(covered)
        points = card_points(covered) - free
        seven = _last_seven(st, R, s)
        clean = _clean(st, s)
        work[W_MULT + s] = 1
        if res[s, X_ALL_COVERED] == 1:  # 十三蓋: a fixed total
            t = R[R_ALL_COVERED_TOTAL]
            work[W_COUNTED + s] = points if R[R_ALL_COVERED_BUSTS] else 0
            work[W_MULT + s] = R[R_WM_ALL_COVERED]
        else:
            bonus = 0
            for i in range(st[NCLOSED + s]):
                bonus += R[R_CLOSURE + st[CLOSED + 4 * s + i] - 1]
            if seven:  # 尾張七 replaces 脫手
                bonus += R[R_LAST_SEVEN]
                work[W_MULT + s] = R[R_WM_LAST_SEVEN]
            elif clean:
                bonus += R[R_CLEAN]
                work[W_MULT + s] = R[R_WM_CLEAN]
            t = bonus - points
            work[W_COUNTED + s] = points
            res[s, X_EXEMPT] = free
            if free:
                res[s, X_EVENTS] |= E_MELDS
        res[s, X_TOTAL] = t
        _key(work, s, -t, ncov, 0, 0, 0)
    _ranks(work, n, res)
    bottom = 0
    for s in range(n):
        if res[s, X_RANK] > bottom:
            bottom = res[s, X_RANK]
    k = _winners(res, n)
    first_winner = 0
    for s in range(n):
        if res[s, X_WIN]:
            first_winner = s
            break
    for w in range(n):
        work[W_COLLECTED + w] = 0
    for s in range(n):
        r = res[s, X_RANK]
        if r == 1:
            res[s, X_LABEL] = L_WINNER
            continue
        # the labels by rank: the bottom 大頭, then rank 2 小頭 and rank 3 中頭
        label = L_BIG if r == bottom else L_SMALL if r == 2 else L_MIDDLE if r == 3 else 0
        res[s, X_LABEL] = label
        if R[R_SETTLEMENT] == 0:  # heads: the amount of the label
            if label == L_BIG:
                base = R[R_HEAD_BIG]
            elif label == L_SMALL:
                base = R[R_HEAD_SMALL]
            elif label == L_MIDDLE:
                base = R[R_HEAD_MIDDLE]
            else:
                base = 0
        else:  # point difference
            base = (res[first_winner, X_TOTAL] - res[s, X_TOTAL]) * R[R_RATE]
        if work[W_COUNTED + s] > R[R_BUST_ABOVE]:
            base *= R[R_BUST_MULT]
            res[s, X_EVENTS] |= E_BUST
        for w in range(n):
            if res[w, X_WIN]:
                amount = base * work[W_MULT + w]
                res[s, X_MONEY] -= amount * R[R_FEE_DEN]
                work[W_COLLECTED + w] += amount
    house = 0
    for w in range(n):  # the house keeps its fee of what a winner with a positive total collects
        if res[w, X_WIN]:
            if R[R_FEE_NUM] and res[w, X_TOTAL] > 0:
                res[w, X_MONEY] = work[W_COLLECTED + w] * (R[R_FEE_DEN] - R[R_FEE_NUM])
                house += work[W_COLLECTED + w] * R[R_FEE_NUM]
            else:
                res[w, X_MONEY] = work[W_COLLECTED + w] * R[R_FEE_DEN]
    if house:  # the fee fired: for every winner with a positive total, as the result says
        for w in range(n):
            if res[w, X_WIN] and res[w, X_TOTAL] > 0:
                res[w, X_EVENTS] |= E_FEE
    game[G_DEN] = k * R[R_FEE_DEN]
    game[G_WINNERS] = k
    game[G_HAS_TOTAL] = 1
    game[G_HOUSE] = house


@hot
def _placement(st: np.ndarray, R: np.ndarray, n: int, res: np.ndarray, game: np.ndarray) -> None:
    place = 1
    finishers = 0
    for s in range(n):
        if st[FINISH + s] >= 0:
            finishers += 1
    for order in range(finishers):  # finishers in the order they went out
        for s in range(n):
            if st[FINISH + s] == order:
                res[s, X_RANK] = place
                place += 1
    holders = 0
    for s in range(n):  # still holding cards: tied
        if st[FINISH + s] < 0 and st[BURSTED + s] < 0 and st[LEFT + s] == 0:
            res[s, X_RANK] = place
            holders += 1
    place += holders
    for order in range(1, st[NLEFT] + 1):  # left holding only jokers, the earliest highest
        for s in range(n):
            if st[LEFT + s] == order:
                res[s, X_RANK] = place
                place += 1
    bursts = 0
    for s in range(n):
        if st[BURSTED + s] >= 0:
            bursts += 1
    for order in range(bursts - 1, -1, -1):  # the earliest burst ranks lowest
        for s in range(n):
            if st[BURSTED + s] == order:
                res[s, X_RANK] = place
                place += 1
    given = R[R_NPOINTS]
    for s in range(n):
        r = res[s, X_RANK]
        if given < 0:
            res[s, X_TOTAL] = n - r
        elif r - 1 < given:
            res[s, X_TOTAL] = R[R_POINTS + r - 1]
        else:
            res[s, X_TOTAL] = 0
    game[G_WINNERS] = _winners(res, n)
    game[G_DEN] = 1
    game[G_HAS_TOTAL] = 1


@hot
def _first_out(st: np.ndarray, n: int, res: np.ndarray, game: np.ndarray) -> None:
    finishers = 0
    for s in range(n):
        if st[FINISH + s] >= 0:
            finishers += 1
    for s in range(n):
        f = st[FINISH + s]
        res[s, X_RANK] = f + 1 if f >= 0 else finishers + 1
    game[G_WINNERS] = _winners(res, n)
    game[G_DEN] = 1
    game[G_HAS_TOTAL] = 0


@hot
def _losers_by_penalty(st: np.ndarray, n: int, res: np.ndarray) -> None:
    """The players still holding cards placed behind those out by their penalty points
    (``X_TOTAL``, minus them), fewest first; equal points share a place."""
    for s in range(n):
        if st[FINISH + s] < 0:
            place = 1
            for t in range(n):
                if st[FINISH + t] >= 0 or res[t, X_TOTAL] > res[s, X_TOTAL]:
                    place += 1
            res[s, X_RANK] = place


@hot
def _ante(st: np.ndarray, R: np.ndarray, n: int, s: int) -> int:
    """What seat ``s`` antes: the ante, and where the deal came out uneven the extra ante of
    a short hand (or of a long one, ``R_EXTRA_ANTE_LONG``)."""
    lo = st[SIZE]
    hi = st[SIZE]
    for t in range(1, n):
        lo = min(lo, st[SIZE + t])
        hi = max(hi, st[SIZE + t])
    size = st[SIZE + s]
    extra = size > lo if R[R_EXTRA_ANTE_LONG] else size < hi
    return R[R_ANTE] + (R[R_EXTRA_ANTE] if extra else 0)


@hot
def _dealt_holder(st: np.ndarray, n: int, card: int) -> int:
    """The seat dealt ``card``, -1 for none."""
    for t in range(n):
        if (st[DEALT + t] >> card) & 1:
            return t
    return -1


@hot
def _chips(st: np.ndarray, R: np.ndarray, n: int, res: np.ndarray, game: np.ndarray) -> None:
    """Antes and pass chips into the pot (a pass made when able to play costs more), and a
    payment for each card still held (a winner holds none): all of it to the winners,
    shared (numerators over ``k``). A pass made holding a centre card that could have been
    played pays each holder of one of that suit's neighbours (the 6 and the 8) besides:
    as the cards cannot be played before the centre card, their holders then are the
    players dealt them."""
    _first_out(st, n, res, game)
    k = game[G_WINNERS]
    pot = 0
    for s in range(n):
        paid = _ante(st, R, n, s) + st[PASSES + s] * R[R_PASS_COST] + held(st, s) * R[R_CARD_COST]
        if R[R_ABLE_PASS_COST] and s < TALLY_SEATS:
            paid += tally(st, s) * R[R_ABLE_PASS_COST]
        pot += paid
        res[s, X_MONEY] = -paid * k
    for s in range(n):
        if res[s, X_WIN]:
            res[s, X_MONEY] += pot
    game[G_DEN] = k
    if not R[R_HELD_SEVEN_PAY]:
        return
    centre = R[R_CENTRE]
    for suit in range(4):
        times = tally(st, TALLY_SEATS + suit)
        if times == 0:
            continue
        payer = _dealt_holder(st, n, 13 * suit + centre)
        for rank in (centre - 1, centre + 1):
            if 0 <= rank < 13:
                t = _dealt_holder(st, n, 13 * suit + rank)
                if t >= 0 and t != payer and payer >= 0:
                    res[payer, X_MONEY] -= times * R[R_HELD_SEVEN_PAY] * k
                    res[t, X_MONEY] += times * R[R_HELD_SEVEN_PAY] * k


@hot
def score(
    st: np.ndarray, R: np.ndarray, res: np.ndarray, game: np.ndarray, work: np.ndarray
) -> None:
    """Score the finished game in ``st`` into ``res`` (seat x field) and ``game``, with
    ``work`` (WORK long) as scratch."""
    n = R[R_PLAYERS]
    _common(st, R, n, res)
    game[G_HOUSE] = 0
    kind = R[R_SCORING]
    if kind == 0:
        _covering(st, R, n, res, game, work)
    elif kind == 1:
        _platform(st, R, n, res, game, work)
    elif kind == 2:
        _placement(st, R, n, res, game)
    elif kind == 3:
        _first_out(st, n, res, game)
        if R[R_PENALTY]:  # penalty points: minus what the cards still held count
            for s in range(n):
                res[s, X_TOTAL] = -penalty_points(st, s, R[R_PENALTY])
            game[G_HAS_TOTAL] = 1
            if R[R_LOSERS]:  # (a stalled game without a finisher: the fewest points win)
                _losers_by_penalty(st, n, res)
                game[G_WINNERS] = _winners(res, n)
    else:
        _chips(st, R, n, res, game)
