"""Properties of random games of every built-in profile, checked against the rules.

The checks use only the public API (observations, legal actions, results, records) and an
independent model of the rules written from RULES.md sections 1, 2 and 4: who opens (a fixed
card, seat 0, or the 7 of the door card's suit), the rank order of a row and its ends (open,
or cut by 斬龍), the legal actions of the player to move, which suits each player closed, when
a game ends, and how it is scored (鬥雀 covering, first out, chips, and the platform's totals,
meld exemption, labels and settlements).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from paiqi_core import Game, State, card_text, parse_card
from paiqi_core.actions import CUT, action_text, parse_action
from paiqi_core.agents import RandomAgent
from paiqi_core.engine import IllegalAction
from paiqi_core.records import replay, state_record
from paiqi_core.resources import builtin_profiles, schema

PROFILES = sorted(builtin_profiles())
SEEDS = st.integers(0, 2**32)
MAX_ACTIONS = 52 * 4

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_GAMES: dict[str, Game] = {}


def game(profile: str) -> Game:
    if profile not in _GAMES:
        _GAMES[profile] = Game(profile)
    return _GAMES[profile]


def test_the_built_in_profiles_are_known() -> None:
    assert {"doujue", "pagat", "bicycle", "platform", "platform-zhanlong"} <= set(PROFILES)


# -- a model of the rules ------------------------------------------------------------------

# Rank indices: 0 = A, 1 = 2, ..., 6 = 7, ..., 12 = K.
SEVEN = 6
RANK_ORDER = {
    "low": list(range(13)),  # A 2 3 ... K
    "high": [*range(1, 13), 0],  # 2 3 ... K A
}
RANK_TEXT = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CARD_TEXT = [s + r for s in "SHDC" for r in RANK_TEXT]
ALL_ACTIONS = [*CARD_TEXT, *("cover " + c for c in CARD_TEXT), "pass"]


@dataclass(frozen=True)
class Rules:
    """The rules in effect, read from the profile."""

    ace: str
    ends: str  # "open", or "cut": a row that reaches an end of the line is closed (斬龍)
    opening: str  # holder_leads, first_seat or door_card
    opening_card: int | None  # the card of holder_leads
    must_play: bool
    stuck: str
    cover_sevens: bool
    ends_at_first_out: bool
    scoring: str
    params: dict[str, Any]

    @staticmethod
    def of(profile: str | Game) -> Rules:
        p = (game(profile) if isinstance(profile, str) else profile).profile
        opening = p.get("opening.method")
        assert opening in ("holder_leads", "first_seat", "door_card")
        ending = p.get("ending.method")
        assert ending in ("all_empty", "first_out")
        stuck = p.get("turn.stuck")
        assert stuck in ("cover", "pass")
        ends = p.get("layout.ends")
        assert ends in ("open", "cut")
        assert p.get("players") == 4
        return Rules(
            ace=p.get("layout.ace"),
            ends=ends,
            opening=opening,
            opening_card=parse_card(p.get("opening.card")) if opening == "holder_leads" else None,
            must_play=p.get("turn.must_play"),
            stuck=stuck,
            cover_sevens=p.get("turn.cover_sevens"),
            ends_at_first_out=ending == "first_out",
            scoring=p.get("scoring.method"),
            params=dict(p.section("scoring")),
        )

    def first_card(self, door_card: int | None) -> int | None:
        """The card the first move must play: fixed, none, or the 7 of the door suit."""
        if self.opening == "holder_leads":
            return self.opening_card
        if self.opening == "door_card":
            assert door_card is not None and 0 <= door_card < 52, "no door card was cut"
            return 13 * (door_card // 13) + SEVEN
        return None


def row_positions(table: set[int], suit: int, ace: str) -> list[int]:
    order = RANK_ORDER[ace]
    return sorted(order.index(c % 13) for c in table if c // 13 == suit)


def closed(pos: list[int], ends: str) -> bool:
    """斬龍: a row holding a card at either end of the line takes nothing more."""
    return ends == "cut" and bool(pos) and (pos[0] == 0 or pos[-1] == 12)


def playable(table: set[int], ace: str, ends: str = "open") -> set[int]:
    """Cards that extend a row: the 7 of an empty row, else one past either end (none for
    a closed row)."""
    order = RANK_ORDER[ace]
    out = set()
    for suit in range(4):
        pos = row_positions(table, suit, ace)
        if not pos:
            out.add(13 * suit + SEVEN)
            continue
        if closed(pos, ends):
            continue
        if pos[0] > 0:
            out.add(13 * suit + order[pos[0] - 1])
        if pos[-1] < 12:
            out.add(13 * suit + order[pos[-1] + 1])
    return out


def closes(rules: Rules, table: set[int], card: int) -> bool:
    """Whether playing ``card`` onto ``table`` closes its suit: the suit is then complete
    (all 13 on the table), or, with 斬龍, the card sits at an end of the line."""
    suit = card // 13
    pos = row_positions(table | {card}, suit, rules.ace)
    return len(pos) == 13 or closed(pos, rules.ends)


def expected_legal(
    rules: Rules, table: set[int], hand: set[int], first: int | None = None
) -> set[str]:
    if not table and first is not None:
        plays = hand & {first}
    else:
        plays = hand & playable(table, rules.ace, rules.ends)
    if not plays:
        # A held 7 is always playable, so a stuck player never holds one.
        assert not any(c % 13 == SEVEN for c in hand), "stuck while holding a 7"
    coverable = {c for c in hand if rules.cover_sevens or c % 13 != SEVEN}
    stuck = {"cover " + card_text(c) for c in coverable} if rules.stuck == "cover" else {"pass"}
    if plays:
        texts = {card_text(c) for c in plays}
        return texts if rules.must_play else texts | stuck
    return stuck


def check_rows_contiguous(table: set[int], ace: str) -> None:
    order = RANK_ORDER[ace]
    for suit in range(4):
        pos = row_positions(table, suit, ace)
        if pos:
            assert order.index(SEVEN) in pos, f"suit {suit}: a row without its 7"
            assert pos == list(range(pos[0], pos[-1] + 1)), f"suit {suit}: gap in {pos}"


def holder_of(hands: list[set[int]], card: int) -> int:
    (seat,) = [s for s in range(4) if card in hands[s]]
    return seat


def check_opening(state: State, rules: Rules) -> None:
    """Before the first move: the door card is cut exactly when the rules cut one, the
    first player holds the first card (or is seat 0), and only that card is legal."""
    assert (state.door_card is not None) == (rules.opening == "door_card")
    hands = dealt(state)
    first = rules.first_card(state.door_card)
    assert state.first_card == first
    if first is None:
        assert state.current_seat() == 0
        return
    seat = holder_of(hands, first)
    assert state.current_seat() == seat
    assert state.legal_actions() == [first]
    assert state.observation(seat).legal == (first,)


# -- public snapshots ----------------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    hands: list[set[int]]
    covered: list[set[int]]
    table: set[int]
    hand_counts: tuple[int, ...]
    covered_counts: tuple[int, ...]
    pass_counts: tuple[int, ...]
    terminal: bool


def snapshot(state: State) -> Snapshot:
    obs = [state.observation(s) for s in range(4)]
    tables = {o.table for o in obs}
    assert len(tables) == 1, "seats see different tables"
    for o in obs[1:]:
        assert o.hand_counts == obs[0].hand_counts
        assert o.covered_counts == obs[0].covered_counts
        assert o.pass_counts == obs[0].pass_counts
        assert o.terminal == obs[0].terminal
    return Snapshot(
        hands=[set(o.hand) for o in obs],
        covered=[set(o.own_covered) for o in obs],
        table=set(obs[0].table),
        hand_counts=obs[0].hand_counts,
        covered_counts=obs[0].covered_counts,
        pass_counts=obs[0].pass_counts,
        terminal=obs[0].terminal,
    )


def check_state(state: State, rules: Rules) -> Snapshot:
    """Conservation, rows, legal actions and the end of the game, at any moment."""
    snap = snapshot(state)
    # Cards are conserved: hands + table + covered are the 52 cards, each once.
    everything = [c for h in snap.hands for c in h] + list(snap.table)
    everything += [c for cov in snap.covered for c in cov]
    assert sorted(everything) == list(range(52))
    assert snap.hand_counts == tuple(len(h) for h in snap.hands)
    assert snap.covered_counts == tuple(len(c) for c in snap.covered)
    if rules.stuck != "cover":
        assert snap.covered_counts == (0, 0, 0, 0)
    # Every row is contiguous from its 7 in the profile's rank order.
    check_rows_contiguous(snap.table, rules.ace)
    # When the game ends.
    empty = [s for s in range(4) if not snap.hands[s]]
    if rules.ends_at_first_out:
        assert snap.terminal == bool(empty)
        assert len(empty) <= 1
    else:
        assert snap.terminal == (len(empty) == 4)
    assert state.is_terminal() == snap.terminal
    if snap.terminal:
        assert state.legal_actions() == []
        return snap
    # The legal actions: from the mover's hand, and exactly what the rules allow.
    mover = state.current_seat()
    assert snap.hands[mover], "a player with an empty hand is to move"
    legal = state.legal_actions()
    assert len(set(legal)) == len(legal)
    assert legal == sorted(legal)
    texts = {action_text(a) for a in legal}
    for t in texts:
        if t != "pass":
            assert parse_card(t.removeprefix("cover ")) in snap.hands[mover]
    first = rules.first_card(state.door_card)
    assert texts == expected_legal(rules, snap.table, snap.hands[mover], first)
    assert set(state.observation(mover).legal) == set(legal)
    return snap


def next_mover(after: int, hands: list[set[int]]) -> int:
    for step in range(1, 5):
        seat = (after + step) % 4
        if hands[seat]:
            return seat
    raise AssertionError("nobody holds cards")


def check_step(
    rules: Rules, before: Snapshot, seat: int, action: str, after: Snapshot, state: State
) -> None:
    """One action changes exactly what it should, and the turn passes on in seat order."""
    if action == "pass":
        assert after.table == before.table
        assert after.hands == before.hands
        assert after.pass_counts[seat] == before.pass_counts[seat] + 1
    elif action.startswith("cover "):
        card = parse_card(action.removeprefix("cover "))
        assert after.hands[seat] == before.hands[seat] - {card}
        assert after.covered[seat] == before.covered[seat] | {card}
        assert after.table == before.table
    else:
        card = parse_card(action)
        assert after.hands[seat] == before.hands[seat] - {card}
        assert after.table == before.table | {card}
    for other in range(4):
        if other != seat:
            assert after.hands[other] == before.hands[other]
    obs = state.observation(seat)
    # Seats that emptied their hands, in order; suits in the order their 7 was played.
    if before.hands[seat] and not after.hands[seat]:
        assert obs.finished[-1] == seat
    assert len(obs.finished) == sum(1 for h in after.hands if not h)
    assert sorted(obs.opened) == sorted({c // 13 for c in after.table})
    if action in CARD_TEXT and action[1:] == "7":
        assert obs.opened[-1] == parse_card(action) // 13
    if (
        action in CARD_TEXT
        and rules.ends == "cut"
        and closes(rules, before.table, parse_card(action))
    ):
        # 斬龍: the cut is logged by itself, right after the play that made it.
        suit = "SHDC"[parse_card(action) // 13]
        assert obs.history[-2:] == ((seat, action), (seat, "cut " + suit))
    else:
        assert obs.history[-1] == (seat, action)
    if not after.terminal:
        assert state.current_seat() == next_mover(seat, after.hands)


def play(
    state: State,
    choose: Callable[[list[int]], int],
    rules: Rules | None = None,
) -> list[int]:
    """Play to the end with ``choose`` picking an index into the legal actions; with
    ``rules``, check the state and every step. Returns the chosen indices."""
    chosen: list[int] = []
    if rules and not state.log:
        check_opening(state, rules)
    snap = check_state(state, rules) if rules else None
    while not state.is_terminal():
        assert len(chosen) < MAX_ACTIONS, "the game did not end within 52*4 actions"
        legal = state.legal_actions()
        i = choose(legal)
        chosen.append(i)
        seat, action = state.current_seat(), legal[i]
        state.apply(action)
        if rules and snap:
            after = check_state(state, rules)
            check_step(rules, snap, seat, action_text(action), after, state)
            snap = after
    return chosen


def by_rng(rnd: random.Random) -> Callable[[list[int]], int]:
    return lambda legal: rnd.randrange(len(legal))


def replaying(chosen: list[int]) -> Callable[[list[int]], int]:
    """The same choices again, by index into the legal actions."""
    it = iter(chosen)
    return lambda legal: next(it)


# -- scoring, from the rules ---------------------------------------------------------------


def points(card: int) -> int:
    return card % 13 + 1


@dataclass
class Facts:
    covered: list[int]
    played: int
    last_seven: bool  # the card that emptied the hand is a 7 this player played
    closures: list[int]  # suits this player closed, each as the order its 7 was opened
    passes: int
    out: bool

    @property
    def all_covered(self) -> bool:
        return self.played == 0 and len(self.covered) == 13

    @property
    def clean(self) -> bool:
        return not self.covered and self.out


def facts_of(
    rules: Rules, hands: list[set[int]], actions: list[dict[str, Any]], first: int | None = None
) -> list[Facts]:
    """Per-player facts from a record's actions, checking the opening and the cut events on
    the way: the first action plays ``first`` (if any), and with 斬龍 a cut event follows
    each play that closes a suit, and nothing else is a cut event."""
    left = [set(h) for h in hands]
    table: set[int] = set()
    opened: list[int] = []
    facts = [Facts([], 0, False, [], 0, False) for _ in range(4)]
    pending_cut: dict[str, Any] | None = None
    if first is not None:
        assert actions[0] == {
            "seat": holder_of(hands, first),
            "type": "play",
            "card": card_text(first),
        }
    for i, a in enumerate(actions):
        seat, kind = a["seat"], a["type"]
        if pending_cut is not None:
            assert a == pending_cut, f"actions[{i}]: expected the cut event {pending_cut}"
            pending_cut = None
            continue
        assert kind != "cut", f"actions[{i}]: a cut event after no closing play"
        f = facts[seat]
        if kind == "pass":
            f.passes += 1
            continue
        card = parse_card(a["card"])
        left[seat].remove(card)
        if kind == "cover":
            f.covered.append(card)
        else:
            f.played += 1
            suit = card // 13
            if card % 13 == SEVEN:
                opened.append(suit)
            if closes(rules, table, card):
                f.closures.append(opened.index(suit) + 1)
                if rules.ends == "cut":
                    pending_cut = {"seat": seat, "type": "cut", "suit": "SHDC"[suit]}
            table.add(card)
        if not left[seat]:
            f.out = True
            f.last_seven = kind == "play" and card % 13 == SEVEN
    assert pending_cut is None, "the record ends without the cut event of its last play"
    return facts


def expected_covering(facts: list[Facts], p: dict[str, Any]) -> dict[str, list[Any]]:
    """鬥雀 scoring, RULES.md section 1."""
    stake = Fraction(str(p["stake"]))
    wm = p["winner_multiplier"]

    def total(f: Facts) -> int:
        if f.all_covered:
            return 0
        bonus = p["completion_bonus"] * len(f.closures)
        bonus += p["last_seven_bonus"] if f.last_seven else 0
        bonus += p["clean_bonus"] if f.clean else 0
        return bonus - sum(points(c) for c in f.covered)

    totals = [total(f) for f in facts]

    def key(s: int) -> tuple[Any, ...]:
        f = facts[s]
        achievement = 0
        if not f.covered:
            achievement = 3 if f.last_seven else 2 if f.clean else 1 if f.closures else 0
        distance = sum(abs(points(c) - 7) for c in f.covered)
        return (not f.all_covered, -totals[s], len(f.covered), distance, -achievement)

    rank = [1 + sum(1 for o in range(4) if key(o) < key(s)) for s in range(4)]
    winners = [s for s in range(4) if rank[s] == 1]
    payers = [s for s in range(4) if s not in winners and totals[s] < 0]
    values = sorted({totals[s] for s in payers})
    heads = {s: 1 for s in payers}
    labels = ["winner" if s in winners else "" for s in range(4)]
    if values:
        lowest = [s for s in payers if totals[s] == values[0]]
        if len(lowest) == 1:
            heads[lowest[0]] = p["big_head"]
            labels[lowest[0]] = "大頭"
            if len(values) > 1:
                second = [s for s in payers if totals[s] == values[1]]
                if len(second) == 1:
                    heads[second[0]] = p["middle_head"]
                    labels[second[0]] = "中頭"
        elif len(lowest) == 2:
            for s in lowest:
                heads[s] = p["middle_head"]
                labels[s] = "中頭"

    def winner_multiplier(f: Facts) -> int:
        if f.all_covered:
            return int(wm["all_covered"])
        if f.last_seven:
            return int(wm["last_seven"])
        return int(wm["clean"]) if f.clean else 1

    money = [Fraction(0)] * 4
    for s in payers:
        covered_points = sum(points(c) for c in facts[s].covered)
        bust = p["bust_multiplier"] if covered_points > p["bust_above"] else 1
        owed = Fraction(-totals[s]) * heads[s] * bust * stake
        for w in winners:
            amount = owed / len(winners) * winner_multiplier(facts[w])
            money[w] += amount
            money[s] -= amount
    return {
        "total": totals,
        "rank": rank,
        "winners": winners,
        "money": money,
        "labels": labels,
    }


def expected_first_out(facts: list[Facts], p: dict[str, Any], chips: bool) -> dict[str, Any]:
    winners = [s for s in range(4) if facts[s].out]
    assert len(winners) == 1
    money = [Fraction(0)] * 4
    if chips:
        paid = [Fraction(p["ante"] + f.passes * p["pass_cost"]) for f in facts]
        money = [-x for x in paid]
        money[winners[0]] += sum(paid)
    return {"winners": winners, "money": money}


# Melds among covered cards (RULES.md section 2): kinds in order of priority.
STRAIGHT_FLUSH, FOUR_OF_A_KIND, FULL_HOUSE = 0, 1, 2


def meld_options(cards: Collection[int]) -> list[tuple[int, frozenset[int]]]:
    """Every meld the cards hold, as (kind, cards): 同花順 five consecutive ranks of a suit
    with the ace below the 2 (A-2-3-4-5 yes, 10-J-Q-K-A no), 鐵支 four of a rank, 葫蘆 three
    of a rank and two of another."""
    have = set(cards)
    out: list[tuple[int, frozenset[int]]] = []
    for suit in range(4):
        for low in range(13 - 4):
            run = frozenset(13 * suit + r for r in range(low, low + 5))
            if run <= have:
                out.append((STRAIGHT_FLUSH, run))
    by_rank = {r: sorted(c for c in have if c % 13 == r) for r in range(13)}
    for group in by_rank.values():
        if len(group) == 4:
            out.append((FOUR_OF_A_KIND, frozenset(group)))
    for r3, g3 in by_rank.items():
        for r2, g2 in by_rank.items():
            if r2 != r3:
                for three in combinations(g3, 3):
                    for two in combinations(g2, 2):
                        out.append((FULL_HOUSE, frozenset(three + two)))
    return out


@cache
def _best_melds(cards: frozenset[int]) -> tuple[int, ...]:
    options = meld_options(cards)
    best: tuple[int, ...] = (0, 0, 0, 0)

    def walk(start: int, used: frozenset[int], counts: list[int], free: int) -> None:
        nonlocal best
        best = max(best, (*counts, free))
        for i in range(start, len(options)):
            kind, meld = options[i]
            if used.isdisjoint(meld):
                more = [n + (k == kind) for k, n in enumerate(counts)]
                walk(i + 1, used | meld, more, free + sum(map(points, meld)))

    walk(0, frozenset(), [0, 0, 0], 0)
    return best


def best_melds(cards: Collection[int]) -> tuple[int, ...]:
    """By brute force over every set of disjoint melds: the best (#同花順, #鐵支, #葫蘆,
    exempted points), compared in that order."""
    return _best_melds(frozenset(cards))


def exemption(cards: Collection[int]) -> int:
    """Covered points that the meld exemption does not count."""
    return best_melds(cards)[3]


HEADS = {"小頭": "small", "中頭": "middle", "大頭": "big"}


def expected_platform(facts: list[Facts], p: dict[str, Any]) -> dict[str, Any]:
    """斬龍/點差 platform scoring, RULES.md section 2."""
    wm = p["winner_multiplier"]
    totals: list[int] = []
    counted: list[int] = []
    exempt: list[int | None] = []
    multiplier: list[int] = []
    for f in facts:
        if f.all_covered:  # 十三蓋: a fixed total; the covered points are not counted
            totals.append(p["all_covered_total"])
            counted.append(0)
            exempt.append(None)
            multiplier.append(wm["all_covered"])
            continue
        free = exemption(f.covered) if p["melds"] else 0
        bonus = sum(p["closure_bonus"][k - 1] for k in f.closures)
        if f.last_seven:  # 尾張七, instead of 脫手
            bonus += p["last_seven_bonus"]
            multiplier.append(wm["last_seven"])
        elif f.clean:  # 脫手
            bonus += p["clean_bonus"]
            multiplier.append(wm["clean"])
        else:
            multiplier.append(1)
        points_left = sum(map(points, f.covered)) - free
        totals.append(bonus - points_left)
        counted.append(points_left)
        exempt.append(free)

    def key(s: int) -> tuple[int, int]:
        return (-totals[s], len(facts[s].covered))

    rank = [1 + sum(1 for o in range(4) if key(o) < key(s)) for s in range(4)]
    winners = [s for s in range(4) if rank[s] == 1]
    labels = []
    for s in range(4):
        if rank[s] == 1:
            labels.append("winner")
        elif rank[s] == max(rank):
            labels.append("大頭")
        else:
            labels.append({2: "小頭", 3: "中頭"}[rank[s]])
    taken = {w: Fraction(0) for w in winners}
    money = [Fraction(0)] * 4
    for s in range(4):
        if s in winners:
            continue
        if p["settlement"] == "heads":
            owed = Fraction(p["head_amounts"][HEADS[labels[s]]])
        else:
            assert p["settlement"] == "difference"
            owed = Fraction((totals[winners[0]] - totals[s]) * p["rate"])
        if counted[s] > p["bust_above"]:
            owed *= p["bust_multiplier"]
        for w in winners:
            amount = owed / len(winners) * multiplier[w]
            money[s] -= amount
            taken[w] += amount
    fee = Fraction(str(p["fee"]))
    house = Fraction(0)
    for w in winners:
        kept = taken[w] * fee if totals[w] > 0 else Fraction(0)
        money[w] = taken[w] - kept
        house += kept
    return {
        "total": totals,
        "rank": rank,
        "winners": winners,
        "money": money,
        "labels": labels,
        "exempt": exempt,
        "house": house,
    }


def check_result(state: State, rules: Rules, hands: list[set[int]]) -> None:
    result = state.result()
    assert sum(result.money, Fraction(0)) + result.house == 0
    # Exact money: ints or fractions, never floats.
    assert all(isinstance(m, int | Fraction) and not isinstance(m, bool) for m in result.money)
    record = state_record(state)
    door = state.door_card
    assert record["door_card"] == (None if door is None else card_text(door))
    facts = facts_of(rules, hands, record["actions"], rules.first_card(door))
    # Each player's closures, as the order of the suit's 7, are the engine's too.
    assert [tuple(f.closures) for f in facts] == [o.completions for o in state.outcomes()]
    if rules.scoring in ("covering", "platform"):
        expected = expected_covering if rules.scoring == "covering" else expected_platform
        want = expected(facts, rules.params)
        assert list(result.total or ()) == want["total"]
        assert list(result.rank) == want["rank"]
        assert list(result.labels or ()) == want["labels"]
        assert list(result.money) == want["money"]
        if rules.scoring == "platform":
            assert result.house == want["house"]
            assert result.exempt is not None
            for s, free in enumerate(want["exempt"]):
                if free is not None:  # a 十三蓋 total counts no covered card at all
                    assert result.exempt[s] == free, f"seat {s} covered {facts[s].covered}"
    else:
        assert rules.scoring in ("first_out", "chips")
        want = expected_first_out(facts, rules.params, chips=rules.scoring == "chips")
        assert list(result.money) == want["money"]
        assert result.rank[want["winners"][0]] == 1
        assert sorted(r for s, r in enumerate(result.rank) if s not in want["winners"])[0] > 1
    assert list(result.winners) == want["winners"]
    # Winners never pay.
    assert all(result.money[w] >= 0 for w in result.winners)


def dealt(state: State) -> list[set[int]]:
    return [set(state.observation(s).hand) for s in range(4)]


# -- properties ----------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_every_step_follows_the_rules(profile: str, seed: int, rnd: random.Random) -> None:
    """Cards conserved, rows contiguous from their 7, legal actions exactly those of the
    rules and drawn from the mover's hand, turn order, end within 52*4 actions."""
    rules = Rules.of(profile)
    state = game(profile).new_state(seed=seed)
    hands = dealt(state)
    assert [len(h) for h in hands] == [13] * 4
    play(state, by_rng(rnd), rules)
    check_result(state, rules, hands)


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=300, deadline=None)
@given(seed=SEEDS, rng_seed=st.integers(0, 2**64))
def test_results_follow_the_scoring_rules(profile: str, seed: int, rng_seed: int) -> None:
    """Many quick random games, each scored by the model of the rules: totals, ranks and
    their tie-breaks, heads, busts, winner multipliers, split shares, chips."""
    state = game(profile).new_state(seed=seed)
    hands = dealt(state)
    state.play_random(random.Random(rng_seed))
    check_result(state, Rules.of(profile), hands)


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_every_game_ends_within_52_times_4_actions(
    profile: str, seed: int, rnd: random.Random
) -> None:
    state = game(profile).new_state(seed=seed)
    chosen = play(state, by_rng(rnd))
    assert state.is_terminal()
    assert len(chosen) <= MAX_ACTIONS
    if not Rules.of(profile).ends_at_first_out:
        assert len(chosen) == 52  # every action plays or covers one card


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_money_sums_to_zero(profile: str, seed: int, rnd: random.Random) -> None:
    state = game(profile).new_state(seed=seed)
    play(state, by_rng(rnd))
    result = state.result()
    assert sum(result.money, Fraction(0)) == 0
    assert len(result.money) == 4
    assert result.winners and all(result.rank[w] == 1 for w in result.winners)


@pytest.mark.parametrize("profile", PROFILES)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_same_seed_and_same_choices_give_the_same_game(
    profile: str, seed: int, rnd: random.Random
) -> None:
    first = game(profile).new_state(seed=seed)
    chosen = play(first, by_rng(rnd))
    for fresh in (game(profile), Game(profile)):
        again = fresh.new_state(seed=seed)
        again_chosen = play(again, replaying(chosen))
        assert again_chosen == chosen
        assert state_record(again) == state_record(first)
        assert again.result() == first.result()
        for s in range(4):
            assert again.observation(s) == first.observation(s)


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, rng_seed=st.integers(0, 2**64))
def test_play_random_makes_the_choices_of_random_agents(
    profile: str, seed: int, rng_seed: int
) -> None:
    fast = game(profile).new_state(seed=seed)
    fast_rng = random.Random(rng_seed)
    fast.play_random(fast_rng)

    slow = game(profile).new_state(seed=seed)
    slow_rng = random.Random(rng_seed)
    agents = [RandomAgent(slow_rng) for _ in range(4)]
    while not slow.is_terminal():
        seat = slow.current_seat()
        slow.apply(agents[seat].act(slow.observation(seat)), seat=seat)

    assert fast.is_terminal()
    assert state_record(fast) == state_record(slow)
    assert fast.result() == slow.result()
    # Both used the shared random stream alike.
    assert fast_rng.getstate() == slow_rng.getstate()


RECORD_SCHEMA = jsonschema.Draft202012Validator(schema("record"))


@pytest.mark.parametrize("profile", PROFILES)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_a_record_replays_exactly(profile: str, seed: int, rnd: random.Random) -> None:
    state = game(profile).new_state(seed=seed)
    hands = dealt(state)
    play(state, by_rng(rnd))
    record = json.loads(json.dumps(state_record(state), ensure_ascii=False))
    RECORD_SCHEMA.validate(record)
    assert record["profile"] == profile
    assert record["seed"] == seed
    assert [set(parse_card(c) for c in h) for h in record["hands"]] == hands
    assert len(record["actions"]) == len(state_record(state)["actions"])
    assert replay(record) == []


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), data=st.data())
def test_a_tampered_record_does_not_replay(
    profile: str, seed: int, rnd: random.Random, data: st.DataObject
) -> None:
    state = game(profile).new_state(seed=seed)
    play(state, by_rng(rnd))
    record = state_record(state)
    i = data.draw(st.integers(0, len(record["actions"]) - 1))
    # The same action claimed by the next seat is never a legal record.
    record["actions"][i] = {**record["actions"][i], "seat": (record["actions"][i]["seat"] + 1) % 4}
    problems = replay(record)
    assert problems and problems[0].startswith(f"actions[{i}]")


# -- a state machine -----------------------------------------------------------------------


class Machine(RuleBasedStateMachine):
    """Deal a game of any built-in profile and apply legal (and illegal) actions as rules."""

    state: State
    rules: Rules
    hands: list[set[int]]
    snap: Snapshot

    @initialize(profile=st.sampled_from(PROFILES), seed=SEEDS)
    def deal(self, profile: str, seed: int) -> None:
        event(f"dealt {profile}")
        self.rules = Rules.of(profile)
        self.state = game(profile).new_state(seed=seed)
        self.hands = dealt(self.state)
        check_opening(self.state, self.rules)
        self.snap = snapshot(self.state)
        self.actions = 0

    def _apply_legal(self, data: st.DataObject) -> None:
        legal = self.state.legal_actions()
        action = data.draw(st.sampled_from(legal))
        seat = self.state.current_seat()
        self.state.apply(action_text(action), seat=seat)
        self.actions += 1
        after = check_state(self.state, self.rules)
        check_step(self.rules, self.snap, seat, action_text(action), after, self.state)
        self.snap = after

    @rule(data=st.data())
    def apply_a_legal_action(self, data: st.DataObject) -> None:
        if self.state.is_terminal():
            assert self.state.legal_actions() == []
            return
        self._apply_legal(data)

    @rule(data=st.data(), count=st.integers(1, 20))
    def apply_several_legal_actions(self, data: st.DataObject, count: int) -> None:
        for _ in range(count):
            if self.state.is_terminal():
                break
            self._apply_legal(data)

    @rule(data=st.data())
    def probe_an_action(self, data: st.DataObject) -> None:
        """Any action by any seat, at any time: refused with a reason and without effect
        unless it is legal for the seat to move; a legal one is left unplayed."""
        text = data.draw(st.sampled_from(ALL_ACTIONS), label="action")
        seat = data.draw(st.integers(0, 3), label="seat")
        action = parse_action(text)
        over = self.state.is_terminal()
        allowed = (
            not over and seat == self.state.current_seat() and action in self.state.legal_actions()
        )
        reason = self.state.why_illegal(action, seat=seat)
        assert (reason is None) == allowed
        if allowed:
            return
        assert reason
        if not over and seat != self.state.current_seat():
            assert "not your turn" in reason
        before = [self.state.observation(s) for s in range(4)]
        with pytest.raises(IllegalAction):
            self.state.apply(text, seat=seat)
        assert [self.state.observation(s) for s in range(4)] == before

    @rule(data=st.data())
    def probe_an_event(self, data: st.DataObject) -> None:
        """A cut (斬龍) happens by itself: nobody may apply one, and trying changes nothing."""
        suit = data.draw(st.integers(0, 3), label="suit")
        seat = self.state.current_seat()
        assert self.state.why_illegal(CUT + suit, seat=seat)
        before = [self.state.observation(s) for s in range(4)]
        with pytest.raises(IllegalAction):
            self.state.apply(CUT + suit, seat=seat)
        assert [self.state.observation(s) for s in range(4)] == before

    @invariant()
    def follows_the_rules(self) -> None:
        check_state(self.state, self.rules)
        assert self.actions <= MAX_ACTIONS

    @invariant()
    def scored_by_the_rules_at_the_end(self) -> None:
        if self.state.is_terminal():
            check_result(self.state, self.rules, self.hands)
            event(f"{self.rules.scoring} game played to the end")
        else:
            with pytest.raises(ValueError):
                self.state.result()


Machine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestGameMachine = Machine.TestCase
