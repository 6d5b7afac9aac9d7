"""Hand-written numba loops of three rule sets, the yardstick of paiqi's compiled engine.

Each loop is one function written for one rule set only, with nothing looked up from a
profile: 鬥雀 ``doujue``, the 斬龍/點差 ``platform`` (接龍 mode, heads settlement, door card,
meld exemption) and Pagat's ``pagat``. They deal and choose exactly as paiqi does (its
SplitMix64 stream from the same keys, drawn in 32-bit halves with Lemire's method, uniform
over the sorted legal actions), so their results can be checked game by game against
paiqi's; they share paiqi's meld search for the
platform, and write everything else out by hand, the generator included.

Each returns, per game and seat, the total (0 for pagat), the rank and the money's
numerator, with the money's denominator per game (the number of winners).

With ``cheap_generator`` they deal from a small xorshift generator seeded by the game
number instead: not paiqi's deals, but the cheapest stream a loop could draw from.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from paiqi_core.core.scoring import WORK, exempt_points
from paiqi_core.fast.cache import ensure_fresh

SEVEN = 6
SEVENS = (1 << 6) | (1 << 19) | (1 << 32) | (1 << 45)
# compiled as the engine's steps are: inlined by LLVM, without reference counting of arrays
tight = njit(cache=True, _nrt=False, forceinline=True)


@tight
def _popcount(x: int) -> int:
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@tight
def _low(x: int) -> int:
    i = 0
    while not (x >> i) & 1:
        i += 1
    return i


@njit(cache=True)
def _successors(ace_high: bool) -> np.ndarray:
    """Cards that become playable when card c is played, for A low (A..K) or A high."""
    out = np.zeros(52, np.int64)
    for c in range(52):
        r = c % 13
        m = 0
        if ace_high:
            if 1 < r <= SEVEN:
                m |= 1 << (c - 1)
            if SEVEN <= r < 12:
                m |= 1 << (c + 1)
            if r == 12:
                m |= 1 << (c - 12)
        else:
            if 0 < r <= SEVEN:
                m |= 1 << (c - 1)
            if SEVEN <= r < 12:
                m |= 1 << (c + 1)
        out[c] = m
    return out


# -- the random words of a game: paiqi's generator, or a cheaper one ---------------------------
@tight
def _half(key: np.ndarray, pos: np.ndarray) -> int:
    """Half pos[0] of the SplitMix64 stream of key[0] (paiqi's generator, written out):
    word t's top 32 bits, then its low 32 bits, kept in pos[1] until drawn."""
    t = pos[0]
    pos[0] = t + 1
    if t & 1:
        return pos[1]
    z = key[0] + np.uint64((t >> 1) + 1) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    pos[1] = np.int64(z & np.uint64(0xFFFFFFFF))
    return np.int64(z >> np.uint64(32))


@tight
def _below(key: np.ndarray, pos: np.ndarray, n: int) -> int:
    """A position in 0..n-1: Lemire's multiply-shift on the next half."""
    if n <= 1:
        return 0
    m = _half(key, pos) * n
    if (m & 0xFFFFFFFF) < n:
        floor = (1 << 32) % n
        while (m & 0xFFFFFFFF) < floor:
            m = _half(key, pos) * n
    return m >> 32


@tight
def _cheap_below(state: np.ndarray, n: int) -> int:
    if n <= 1:
        return 0
    x = state[0]
    x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 7
    x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
    state[0] = x
    return np.int64((x >> np.uint64(11)) % np.uint64(n))


# -- 鬥雀 --------------------------------------------------------------------------------------
@tight
def _doujue_game(
    hands: np.ndarray, nxt: np.ndarray, res: np.ndarray, g: int, den: np.ndarray,
    key: np.ndarray, pos: np.ndarray, cheap: np.ndarray,
    use_cheap: bool, scratch: np.ndarray, keys: np.ndarray,
) -> None:  # fmt: skip
    covered, played, bonus, last7, on_table = (
        scratch[0],
        scratch[1],
        scratch[2],
        scratch[3],
        scratch[4],
    )
    for p in range(4):
        covered[p] = played[p] = bonus[p] = last7[p] = on_table[p] = 0
    seat = 0
    while not (hands[seat] >> SEVEN) & 1:
        seat += 1
    hands[seat] ^= 1 << SEVEN  # the forced opening: no draw
    played[seat] += 1
    on_table[0] = 1
    playable = (SEVENS ^ (1 << SEVEN)) | nxt[SEVEN]
    left = 51
    while left:
        seat = (seat + 1) & 3
        h = hands[seat]
        if not h:
            continue
        m = h & playable
        if m:
            n = _popcount(m)
            r = _cheap_below(cheap, n) if use_cheap else _below(key, pos, n)
            while r:
                m &= m - 1
                r -= 1
            c = _low(m)
            h ^= 1 << c
            hands[seat] = h
            played[seat] += 1
            playable = (playable ^ (1 << c)) | nxt[c]
            s = c // 13
            on_table[s] += 1
            if on_table[s] == 13:
                bonus[seat] += 5
            if not h and c % 13 == SEVEN:
                bonus[seat] += 20
                last7[seat] = 1
        else:
            n = _popcount(h)
            r = _cheap_below(cheap, n) if use_cheap else _below(key, pos, n)
            m = h
            while r:
                m &= m - 1
                r -= 1
            c = _low(m)
            hands[seat] = h ^ (1 << c)
            covered[seat] |= 1 << c
        left -= 1
    # totals, and the rank keys: all covered first, total, fewer covered, nearer 7,
    # then 尾張7 > 全脫手 between players who covered nothing
    totals, points, mult = scratch[5], scratch[6], scratch[7]
    for p in range(4):
        mult[p] = 1
        for f in range(5):
            keys[p, f] = 0
    for p in range(4):
        cov = covered[p]
        nc = _popcount(cov)
        dev = 0
        pts = 0
        m = cov
        while m:
            c = _low(m)
            m &= m - 1
            pts += c % 13 + 1
            dev += abs(c % 13 - 6)
        points[p] = pts
        if nc == 13:
            totals[p] = 0
            keys[p, 2] = 13
            keys[p, 3] = dev
            mult[p] = 4
        elif nc:
            totals[p] = bonus[p] - pts
            keys[p, 0] = 1
            keys[p, 1] = -totals[p]
            keys[p, 2] = nc
            keys[p, 3] = dev
            if last7[p]:  # 尾張7 after covering: no 全脫手, but the winner's x8
                mult[p] = 8
        else:
            totals[p] = bonus[p] + 10
            keys[p, 0] = 1
            keys[p, 1] = -totals[p]
            keys[p, 4] = -3 if last7[p] else -2
            mult[p] = 8 if last7[p] else 2
    winners = 0
    for p in range(4):
        better = 0
        for q in range(4):
            for f in range(5):
                if keys[q, f] != keys[p, f]:
                    if keys[q, f] < keys[p, f]:
                        better += 1
                    break
        res[g, p, 0] = totals[p]
        res[g, p, 1] = better + 1
        res[g, p, 2] = 0
        if better == 0:
            winners += 1
    lowest = 1
    for p in range(4):
        if totals[p] < 0 and res[g, p, 1] != 1 and totals[p] < lowest:
            lowest = totals[p]
    shared = 0
    second = 1
    for p in range(4):
        t = totals[p]
        if t < 0 and res[g, p, 1] != 1:
            if t == lowest:
                shared += 1
            elif t < second:
                second = t
    seconds = 0
    for p in range(4):
        if totals[p] == second and second < 0 and res[g, p, 1] != 1:
            seconds += 1
    for p in range(4):
        t = totals[p]
        if t >= 0 or res[g, p, 1] == 1:
            continue
        head = 1
        if shared == 1:
            if t == lowest:
                head = 3
            elif t == second and seconds == 1:
                head = 2
        elif shared == 2 and t == lowest:
            head = 2
        base = -t * head * (2 if points[p] > 55 else 1)
        for w in range(4):
            if res[g, w, 1] == 1:
                res[g, w, 2] += base * mult[w]
                res[g, p, 2] -= base * mult[w]
    den[g] = winners


# -- the 斬龍/點差 platform (接龍, heads) ----------------------------------------------------------
@tight
def _platform_game(
    hands: np.ndarray, deck: np.ndarray, nxt: np.ndarray, res: np.ndarray, g: int,
    den: np.ndarray, key: np.ndarray, pos: np.ndarray,
    cheap: np.ndarray, use_cheap: bool, work: np.ndarray, scratch: np.ndarray,
) -> None:  # fmt: skip
    door = deck[_cheap_below(cheap, 52) if use_cheap else _below(key, pos, 52)]
    first = 13 * (door // 13) + SEVEN
    covered, played, bonus, last7, on_table = (
        scratch[0],
        scratch[1],
        scratch[2],
        scratch[3],
        scratch[4],
    )
    order = scratch[8]  # suit -> order in which its 7 was opened
    for p in range(4):
        covered[p] = played[p] = bonus[p] = last7[p] = on_table[p] = order[p] = 0
    opened = 1
    seat = 0
    while not (hands[seat] >> first) & 1:
        seat += 1
    hands[seat] ^= 1 << first
    played[seat] += 1
    on_table[first // 13] = 1
    order[first // 13] = 1
    playable = (SEVENS ^ (1 << first)) | nxt[first]
    coverable = ~SEVENS
    left = 51
    while left:
        seat = (seat + 1) & 3
        h = hands[seat]
        if not h:
            continue
        m = h & playable
        if m:
            n = _popcount(m)
            r = _cheap_below(cheap, n) if use_cheap else _below(key, pos, n)
            while r:
                m &= m - 1
                r -= 1
            c = _low(m)
            h ^= 1 << c
            hands[seat] = h
            played[seat] += 1
            playable = (playable ^ (1 << c)) | nxt[c]
            s = c // 13
            if c % 13 == SEVEN:
                opened += 1
                order[s] = opened
            on_table[s] += 1
            if on_table[s] == 13:  # the bonus of the suit's opening order: 4, 1, 2, 3
                bonus[seat] += (4, 1, 2, 3)[order[s] - 1]
            if not h and c % 13 == SEVEN:
                last7[seat] = 1
        else:
            m = h & coverable
            if not m:
                m = h
            n = _popcount(m)
            r = _cheap_below(cheap, n) if use_cheap else _below(key, pos, n)
            while r:
                m &= m - 1
                r -= 1
            c = _low(m)
            hands[seat] = h ^ (1 << c)
            covered[seat] |= 1 << c
        left -= 1
    totals, counted, mult = scratch[5], scratch[6], scratch[7]
    for p in range(4):
        counted[p] = 0
        mult[p] = 1
    for p in range(4):
        cov = covered[p]
        nc = _popcount(cov)
        pts = 0
        m = cov
        while m:
            c = _low(m)
            m &= m - 1
            pts += c % 13 + 1
        if nc >= 4:
            pts -= exempt_points(cov, work)
        if nc == 13:  # 十三蓋
            totals[p] = 13
            mult[p] = 3
        else:
            t = bonus[p] - pts
            if last7[p]:
                t += 15
                mult[p] = 5
            elif nc == 0:
                t += 10
                mult[p] = 2
            totals[p] = t
            counted[p] = pts
    bottom = 0
    winners = 0
    for p in range(4):
        better = 0
        for q in range(4):
            if totals[q] > totals[p] or (
                totals[q] == totals[p] and _popcount(covered[q]) < _popcount(covered[p])
            ):
                better += 1
        res[g, p, 0] = totals[p]
        res[g, p, 1] = better + 1
        res[g, p, 2] = 0
        bottom = max(bottom, better + 1)
        if better == 0:
            winners += 1
    for p in range(4):
        r = res[g, p, 1]
        if r == 1:
            continue
        base = 150 if r == bottom else 50 if r == 2 else 100 if r == 3 else 0
        if counted[p] > 50:
            base *= 2
        for w in range(4):
            if res[g, w, 1] == 1:
                res[g, w, 2] += base * mult[w]
                res[g, p, 2] -= base * mult[w]
    den[g] = winners


# -- Pagat's Fan Tan ------------------------------------------------------------------------------
@tight
def _pagat_game(
    hands: np.ndarray, nxt: np.ndarray, res: np.ndarray, g: int, den: np.ndarray,
    key: np.ndarray, pos: np.ndarray, cheap: np.ndarray,
    use_cheap: bool,
) -> None:  # fmt: skip
    playable = SEVENS
    seat = 0
    while True:
        h = hands[seat]
        m = h & playable
        if m:
            n = _popcount(m)
            r = _cheap_below(cheap, n) if use_cheap else _below(key, pos, n)
            while r:
                m &= m - 1
                r -= 1
            c = _low(m)
            h ^= 1 << c
            hands[seat] = h
            if not h:
                break
            playable = (playable ^ (1 << c)) | nxt[c]
        seat = (seat + 1) & 3  # a pass draws nothing: it is the only action
    for p in range(4):
        res[g, p, 0] = 0
        res[g, p, 1] = 1 if p == seat else 2
        res[g, p, 2] = 0
    den[g] = 1


# -- the driver: deal each game and play it ---------------------------------------------------
@njit(cache=True)
def play(
    rules: int, keys: np.ndarray, res: np.ndarray, den: np.ndarray, cheap_generator: bool
) -> None:
    """Play game g (dealt from the stream of ``keys[g]``) of ``rules`` (0 doujue, 1
    platform, 2 pagat) for every g; per seat: total, rank, money numerator; ``den``: the
    money's denominator."""
    count = keys.shape[0]
    nxt = _successors(rules == 2)
    deck = np.empty(52, np.int64)
    hands = np.zeros(4, np.int64)
    key = np.zeros(1, np.uint64)
    pos = np.zeros(2, np.int64)
    cheap = np.zeros(1, np.uint64)
    work = np.zeros(WORK, np.int64)
    scratch = np.zeros((9, 4), np.int64)
    keys5 = np.zeros((4, 5), np.int64)
    for g in range(count):
        key[0] = np.uint64(keys[g])
        pos[0] = 0
        cheap[0] = np.uint64(g) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(1)
        for c in range(52):
            deck[c] = c
        for i in range(51, 0, -1):
            r = _cheap_below(cheap, i + 1) if cheap_generator else _below(key, pos, i + 1)
            held = deck[i]
            deck[i] = deck[r]
            deck[r] = held
        for s in range(4):
            hands[s] = 0
        for j in range(52):
            hands[j & 3] |= 1 << deck[j]
        if rules == 0:
            _doujue_game(hands, nxt, res, g, den, key, pos, cheap, cheap_generator, scratch,
                         keys5)  # fmt: skip
        elif rules == 1:
            _platform_game(hands, deck, nxt, res, g, den, key, pos, cheap, cheap_generator,
                           work, scratch)  # fmt: skip
        else:
            _pagat_game(hands, nxt, res, g, den, key, pos, cheap, cheap_generator)


RULES = {"doujue": 0, "platform": 1, "pagat": 2}


# the loops inline paiqi's meld search, which numba's cache does not check: empty their
# cache whenever paiqi's compiled sources change, as the engine's own is
ensure_fresh([sys.modules[__name__]])
