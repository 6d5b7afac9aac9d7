"""Hand-written pure-Python random-play simulators used as a benchmark baseline.

Two single-purpose rule sets, standard library only:

* ``doujue`` -- Taiwanese covering Sevens (4 players): S7 holder opens with S7,
  a player with a legal play must play, otherwise covers (face down) any card.
  Totals = bonuses - covered points (A=1..K=13); +20 if the card that empties
  the hand is a played 7, +5 per suit completed by the player's play, +10 for
  covering nothing; a player who covered all 13 cards scores 0.
* ``pagat`` -- Fan Tan (4 players, A high): seat 0 opens, play if possible,
  otherwise pass; the first player to empty their hand wins.

Cards are ints ``suit * 13 + rank`` (rank 0=A, 1=2, ..., 6=7, ..., 12=K).  The
deal is ``rng = random.Random(seed); deck = list(range(52)); rng.shuffle(deck)``
and seat ``i`` receives ``deck[i::4]``.  The random agent then keeps using the
same ``rng``: at every decision it picks ``acts[rng.randrange(len(acts))]`` from
the legal actions sorted ascending.  A decision with a single legal action (the
forced opening S7, a forced pass in Fan Tan) is still a decision and still
draws ``rng.randrange(1)`` -- which consumes random bits in CPython.

Speed tricks (all bit-for-bit equivalent to the spec, verified by --selftest
against a deliberately naive list-based implementation that calls
``rng.shuffle``/``rng.randrange`` literally):

* hands are 52-bit masks; the table is a single "playable" mask holding the
  (at most 8) cards that may legally be played next, updated with one
  precomputed per-card successor mask;
* ``rng.shuffle`` and ``rng.randrange`` are inlined as the exact
  ``getrandbits`` rejection loop CPython uses (``Random._randbelow``);
* the k-th smallest legal card is found by clearing the k lowest set bits.

Usage::

    python benchmarks/reference.py                     # 20000 games, both
    python benchmarks/reference.py --games 5000 --profile pagat
    python benchmarks/reference.py --selftest
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from fractions import Fraction

N_CARDS = 52
N_RANKS = 13
SEVEN = 6  # rank index of the 7
S7 = SEVEN  # spades (suit 0) seven

_BIT = tuple(1 << c for c in range(N_CARDS))
_RANK = tuple(c % N_RANKS for c in range(N_CARDS))
_SUIT = tuple(c // N_RANKS for c in range(N_CARDS))
_POINTS = tuple(r + 1 for r in _RANK)
# _BITLEN[n] == n.bit_length(), the k used by Random._randbelow(n).
_BITLEN = tuple(n.bit_length() for n in range(N_CARDS + 1))
_SEVENS = sum(_BIT[s * N_RANKS + SEVEN] for s in range(4))
# (i, i + 1, (i + 1).bit_length()) for each step of Random.shuffle on 52 items.
_SHUFFLE_PLAN = tuple((i, i + 1, _BITLEN[i + 1]) for i in range(N_CARDS - 1, 0, -1))


def _successors_doujue() -> tuple[int, ...]:
    """Cards that become playable when card c is played (A low, K high)."""
    out = []
    for c in range(N_CARDS):
        r = c % N_RANKS
        m = 0
        if r <= SEVEN and r > 0:  # 7 or lower: extend downwards towards A
            m |= 1 << (c - 1)
        if r >= SEVEN and r < N_RANKS - 1:  # 7 or higher: extend towards K
            m |= 1 << (c + 1)
        out.append(m)
    return tuple(out)


def _successors_pagat() -> tuple[int, ...]:
    """Same for Fan Tan: order 2..K then A; A only follows K, never below 2."""
    out = []
    for c in range(N_CARDS):
        base = c - c % N_RANKS
        r = c % N_RANKS
        m = 0
        if 1 < r <= SEVEN:  # 3..7 extend down (2 is the bottom end)
            m |= 1 << (c - 1)
        if SEVEN <= r < N_RANKS - 1:  # 7..Q extend up
            m |= 1 << (c + 1)
        if r == N_RANKS - 1:  # K -> A
            m |= 1 << base
        out.append(m)
    return tuple(out)


_NEXT_DOUJUE = _successors_doujue()
_NEXT_PAGAT = _successors_pagat()


def _deal(rng: random.Random) -> tuple[int, int, int, int]:
    """Inlined ``rng.shuffle(list(range(52)))``; returns the four hand masks."""
    getrandbits = rng.getrandbits
    deck = list(range(N_CARDS))
    for i, n, k in _SHUFFLE_PLAN:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]
    bit = _BIT.__getitem__
    return (
        sum(map(bit, deck[0::4])),
        sum(map(bit, deck[1::4])),
        sum(map(bit, deck[2::4])),
        sum(map(bit, deck[3::4])),
    )


def play_doujue(seed: int) -> list[int]:
    """Play one random doujue game; return the four per-seat totals."""
    return _play_doujue(seed)[0]


def play_and_settle_doujue(seed: int) -> tuple[list[int], list[int | Fraction]]:
    """Play one random doujue game; return the totals and the money (stake 1)."""
    totals, covered, last7 = _play_doujue(seed)
    return totals, settle_doujue(totals, covered, last7)


def _play_doujue(seed: int) -> tuple[list[int], list[int], list[int]]:
    rng = random.Random(seed)
    getrandbits = rng.getrandbits
    bitlen = _BITLEN
    nxt = _NEXT_DOUJUE
    suit_of = _SUIT
    points = _POINTS
    hands = list(_deal(rng))
    penalty = [0, 0, 0, 0]
    n_covered = [0, 0, 0, 0]
    bonus = [0, 0, 0, 0]
    on_table = [0, 0, 0, 0]
    covered = [0, 0, 0, 0]
    last7 = [0, 0, 0, 0]

    # Forced opening: the S7 holder plays S7 (a one-action decision).
    seat = 0
    while not hands[seat] & 1 << S7:
        seat += 1
    while getrandbits(1):  # rng.randrange(1)
        pass
    hands[seat] ^= 1 << S7
    on_table[0] = 1
    playable = (_SEVENS ^ 1 << S7) | nxt[S7]

    left = N_CARDS - 1
    while left:
        seat = (seat + 1) & 3
        h = hands[seat]
        if not h:
            continue
        m = h & playable
        if m:
            n = m.bit_count()
            k = bitlen[n]
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            while r:
                m &= m - 1
                r -= 1
            b = m & -m
            c = b.bit_length() - 1
            h ^= b
            hands[seat] = h
            playable = (playable ^ b) | nxt[c]
            s = suit_of[c]
            t = on_table[s] + 1
            on_table[s] = t
            if t == 13:  # literals: globals are slower in the hot loop
                bonus[seat] += 5
            if not h and c % 13 == 6:  # emptied the hand with a played 7
                bonus[seat] += 20
                last7[seat] = 1
        else:
            m = h
            n = m.bit_count()
            k = bitlen[n]
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            while r:
                m &= m - 1
                r -= 1
            b = m & -m
            c = b.bit_length() - 1
            hands[seat] = h ^ b
            covered[seat] |= b
            penalty[seat] += points[c]
            n_covered[seat] += 1
        left -= 1

    totals = []
    for p in range(4):
        nc = n_covered[p]
        if nc == N_RANKS:
            totals.append(0)
        elif nc:
            totals.append(bonus[p] - penalty[p])
        else:
            totals.append(bonus[p] + 10)
    return totals, covered, last7


def settle_doujue(totals: list[int], covered: list[int], last7: list[int]) -> list[int | Fraction]:
    """Money of a doujue game (stake 1): ranks with every tie-break, 大頭/中頭, bust above
    55 and the winner multipliers. Between two players who covered nothing, the achievement
    tie-break can only be 尾張7 against 全脫手 (both have 全脫手)."""
    keys = []
    mult = []
    points = [0, 0, 0, 0]
    for p in range(4):
        cov = covered[p]
        n = cov.bit_count()
        dev = 0
        pts = 0
        while cov:
            b = cov & -cov
            r = (b.bit_length() - 1) % 13
            dev += abs(r - 6)
            pts += r + 1
            cov ^= b
        t = totals[p]
        if n == 13:
            keys.append((0, 0, 13, dev, 0))
            mult.append(4)
        elif n == 0:
            keys.append((1, -t, 0, 0, -3 if last7[p] else -2))
            mult.append(8 if last7[p] else 2)
        else:
            keys.append((1, -t, n, dev, 0))
            mult.append(1)
        points[p] = pts
    best = min(keys)
    winners = [p for p in range(4) if keys[p] == best]
    payers = [p for p in range(4) if totals[p] < 0 and keys[p] != best]
    money: list[int | Fraction] = [0, 0, 0, 0]
    if not payers:
        return money
    low = sorted(totals[p] for p in payers)
    lowest = low[0]
    n_low = low.count(lowest)
    for p in payers:
        t = totals[p]
        if n_low == 1:
            head = (
                3 if t == lowest else 2 if len(low) > 1 and t == low[1] and low.count(t) == 1 else 1
            )
        else:
            head = 2 if n_low == 2 and t == lowest else 1
        base = -t * head * (2 if points[p] > 55 else 1)
        for w in winners:
            share = base * mult[w] if len(winners) == 1 else Fraction(base * mult[w], len(winners))
            money[w] += share
            money[p] -= share
    return money


def play_pagat(seed: int) -> int:
    """Play one random Fan Tan game; return the winning seat."""
    rng = random.Random(seed)
    getrandbits = rng.getrandbits
    bitlen = _BITLEN
    nxt = _NEXT_PAGAT
    hands = list(_deal(rng))
    playable = _SEVENS
    seat = 0
    while True:
        h = hands[seat]
        m = h & playable
        if m:
            n = m.bit_count()
            k = bitlen[n]
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            while r:
                m &= m - 1
                r -= 1
            b = m & -m
            h ^= b
            if not h:
                return seat
            hands[seat] = h
            playable = (playable ^ b) | nxt[b.bit_length() - 1]
        else:
            while getrandbits(1):  # pass is the only action: rng.randrange(1)
                pass
        seat = (seat + 1) & 3


# ---------------------------------------------------------------------------
# Naive, literal implementations used only by --selftest.
# ---------------------------------------------------------------------------


def _naive_deal(rng: random.Random) -> list[list[int]]:
    deck = list(range(N_CARDS))
    rng.shuffle(deck)
    return [sorted(deck[i::4]) for i in range(4)]


def _naive_doujue(seed: int) -> tuple[list[int], dict[str, int]]:
    rng = random.Random(seed)
    hands = _naive_deal(rng)
    dealt = [list(h) for h in hands]
    lo: list[int | None] = [None] * 4
    hi: list[int | None] = [None] * 4
    table: list[list[int]] = [[] for _ in range(4)]
    played: list[list[int]] = [[] for _ in range(4)]
    covered: list[list[int]] = [[] for _ in range(4)]
    completed = [0] * 4
    last_was_played_seven = [False] * 4

    def legal(c: int) -> bool:
        s, r = divmod(c, N_RANKS)
        low, high = lo[s], hi[s]
        if low is None or high is None:
            return r == SEVEN
        return r == low - 1 or r == high + 1

    seat = next(i for i in range(4) if S7 in hands[i])
    first = True
    steps = 0
    while any(hands):
        steps += 1
        assert steps <= N_CARDS, "doujue did not terminate"
        hand = hands[seat]
        assert hand
        acts = [S7] if first else sorted(c for c in hand if legal(c))
        first = False
        if acts:
            c = acts[rng.randrange(len(acts))]
            s, r = divmod(c, N_RANKS)
            low, high = lo[s], hi[s]
            if low is None or high is None:
                lo[s] = hi[s] = r
            else:
                lo[s], hi[s] = min(low, r), max(high, r)
            table[s].append(r)
            played[seat].append(c)
            if len(table[s]) == N_RANKS:
                completed[seat] += 1
            hand.remove(c)
            if not hand and r == SEVEN:
                last_was_played_seven[seat] = True
        else:
            acts = sorted(hand)
            c = acts[rng.randrange(len(acts))]
            covered[seat].append(c)
            hand.remove(c)
        if any(hands):
            seat = (seat + 1) % 4
            while not hands[seat]:
                seat = (seat + 1) % 4

    totals = []
    for p in range(4):
        if len(covered[p]) == N_RANKS:
            totals.append(0)
            continue
        t = 5 * completed[p] - sum(c % N_RANKS + 1 for c in covered[p])
        if last_was_played_seven[p]:
            t += 20
        if not covered[p]:
            t += 10
        totals.append(t)

    # Invariants.
    all_played = [c for p in played for c in p]
    all_covered = [c for p in covered for c in p]
    assert len(all_played) + len(all_covered) == N_CARDS
    assert sorted(all_played + all_covered) == list(range(N_CARDS))
    for p in range(4):
        assert sorted(played[p] + covered[p]) == dealt[p], "card conservation"
    for s in range(4):
        ranks = sorted(table[s])
        low, high = lo[s], hi[s]
        if ranks:
            assert low is not None and high is not None
            assert ranks == list(range(low, high + 1)), "table row not contiguous"
            assert low <= SEVEN <= high
        assert ranks == sorted(c % N_RANKS for c in all_played if c // N_RANKS == s)
    assert S7 in all_played
    info: dict[str, int] = {
        "n_played": len(all_played),
        "n_covered": len(all_covered),
        "completed": sum(completed),
        "full_cover": sum(len(c) == N_RANKS for c in covered),
        "seven_finish": sum(last_was_played_seven),
    }
    return totals, info


_PAGAT_POS = tuple((r - 1) if r else N_RANKS - 1 for r in range(N_RANKS))  # 2..K, A


def _naive_pagat(seed: int) -> tuple[int, dict[str, int]]:
    rng = random.Random(seed)
    hands = _naive_deal(rng)
    lo: list[int | None] = [None] * 4  # positions in the 2..K,A order
    hi: list[int | None] = [None] * 4
    played: list[int] = []
    seven_pos = _PAGAT_POS[SEVEN]

    def legal(c: int) -> bool:
        s, r = divmod(c, N_RANKS)
        pos = _PAGAT_POS[r]
        low, high = lo[s], hi[s]
        if low is None or high is None:
            return pos == seven_pos
        return pos == low - 1 or pos == high + 1

    seat = 0
    turns = 0
    passes = 0
    while True:
        turns += 1
        assert turns <= 4 * N_CARDS * 2, "pagat did not terminate"
        hand = hands[seat]
        acts = sorted(c for c in hand if legal(c))
        if acts:
            c = acts[rng.randrange(len(acts))]
            s, r = divmod(c, N_RANKS)
            pos = _PAGAT_POS[r]
            low, high = lo[s], hi[s]
            if low is None or high is None:
                lo[s] = hi[s] = pos
            else:
                lo[s], hi[s] = min(low, pos), max(high, pos)
            hand.remove(c)
            played.append(c)
            if not hand:
                break
        else:
            acts = [-1]  # the only action: pass
            assert acts[rng.randrange(len(acts))] == -1
            passes += 1
        seat = (seat + 1) % 4

    assert not hands[seat]
    assert all(hands[p] for p in range(4) if p != seat)
    assert sorted(played + [c for h in hands for c in h]) == list(range(N_CARDS))
    assert len(played) >= N_RANKS
    for s in range(4):
        low, high = lo[s], hi[s]
        row = [c % N_RANKS for c in played if c // N_RANKS == s]
        pos_played = sorted(_PAGAT_POS[r] for r in row)
        if pos_played:
            assert low is not None and high is not None
            assert pos_played == list(range(low, high + 1))
            assert low <= seven_pos <= high
    return seat, {"turns": turns, "passes": passes, "n_played": len(played)}


def selftest(n_seeds: int = 3000) -> None:
    # The inlined shuffle / randrange must reproduce CPython's exactly.
    for seed in range(300):
        a = random.Random(seed)
        b = random.Random(seed)
        deck = list(range(N_CARDS))
        a.shuffle(deck)
        hands = _deal(b)
        for i in range(4):
            assert hands[i] == sum(1 << c for c in deck[i::4])
        assert a.getrandbits(64) == b.getrandbits(64), "rng stream diverged"
    for n in range(1, N_CARDS + 1):
        a = random.Random(n)
        b = random.Random(n)
        for _ in range(50):
            k = _BITLEN[n]
            r = b.getrandbits(k)
            while r >= n:
                r = b.getrandbits(k)
            assert a.randrange(n) == r
    # Successor tables.
    assert _NEXT_DOUJUE[S7] == (1 << 5) | (1 << 7)
    assert _NEXT_DOUJUE[0] == 0 and _NEXT_DOUJUE[12] == 0  # A and K are ends
    assert _NEXT_DOUJUE[13 + 1] == 1 << 13  # H2 -> HA
    assert _NEXT_PAGAT[1] == 0  # 2 is the bottom end
    assert _NEXT_PAGAT[12] == 1 << 0  # K -> A
    assert _NEXT_PAGAT[0] == 0  # A is the top end
    assert _NEXT_PAGAT[26 + 2] == 1 << (26 + 1)  # 3 -> 2

    stats = {"completed": 0, "full_cover": 0, "seven_finish": 0, "n_covered": 0}
    wins = [0, 0, 0, 0]
    for seed in range(n_seeds):
        fast = play_doujue(seed)
        slow, info = _naive_doujue(seed)
        assert fast == slow, (seed, fast, slow)
        assert info["n_played"] + info["n_covered"] == N_CARDS
        for key in stats:
            stats[key] += info[key]
        for t in fast:
            # worst: 12 covered cards = four K, Q and J; best: 20 + 4 * 5 + 10
            assert -(13 + 12 + 11) * 4 <= t <= 20 + 5 * 4 + 10
        w = play_pagat(seed)
        w2, _ = _naive_pagat(seed)
        assert w == w2, (seed, w, w2)
        assert 0 <= w < 4
        wins[w] += 1
    assert stats["completed"] > 0 and stats["seven_finish"] > 0
    print(f"selftest ok: {n_seeds} seeds, fast == naive for doujue and pagat")
    avg_cov = stats["n_covered"] / n_seeds
    print(
        f"  doujue: avg covered/game {avg_cov:.2f}, "
        f"suit completions {stats['completed']}, "
        f"7-finishes {stats['seven_finish']}, full covers {stats['full_cover']}"
    )
    print(f"  pagat: wins by seat {wins}")


def _bench(fn: Callable[[int], object], games: int, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for seed in range(games):
            fn(seed)
        best = min(best, time.perf_counter() - t0)
    return games / best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--profile", choices=["doujue", "pagat", "all"], default="all")
    ap.add_argument("--selftest", action="store_true", help="run correctness checks")
    args = ap.parse_args(argv)
    if args.selftest:
        selftest()
        return 0
    profiles: dict[str, Callable[[int], object]] = {
        "doujue": play_doujue,
        "pagat": play_pagat,
    }
    names = list(profiles) if args.profile == "all" else [args.profile]
    for name in names:
        rate = _bench(profiles[name], args.games)
        print(f"{name}: {rate:,.0f} games/s ({args.games} games, best of 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
