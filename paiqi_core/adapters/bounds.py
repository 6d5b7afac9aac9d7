"""How long a game can last and what a seat can win or lose in it, from the rules alone.

OpenSpiel asks every game for the most moves a game can take and the lowest and highest
utility a player can get; the environments use the same numbers for their spaces.

Length. Every play, cover or joker move takes at least one card out of the hands for good
(a swap gives the joker back but takes the swapped card out), so a game has at most as
many of them as there are cards. Passes are bounded by the pass limit of each seat; without
a limit, where a player may pass only when stuck and every row can grow to its ends, at most
``players - 1`` passes come between two cards (a whole round of passes would leave the
table as it was, so everybody would be stuck for ever, which cannot happen while the
frontier of the rows is held by somebody). Where players may pass by choice without a limit,
the stall rule (``rules.stall``, ``ending.stall``) bounds a game: fewer than ``stall *
players`` passes come between two other moves, and each seat passes at most ``stall`` times
among them. Rules that no bound is known for (a plugin's stuck rule) have an unbounded
length (None).

Utilities are the profile's own objective (``paiqi_core.search.objective.utilities``):
``win`` (a share of the win) lies in 0..1; ``points`` are rank points, between the least
and the most a rank gets. ``money`` is bounded for the built-in scorings from their
parameters, loosely but safely: no payer pays more than its largest possible covered points
(or fixed amount, or difference of totals, or chips) times the largest head, bust and winner
multipliers, and no winner collects more than all the others pay. A plugin scoring declares
its bounds with a method ``utility_bounds(limits) -> (low, high)`` on its scoring object;
without it, a money-scored plugin has no known bounds and the OpenSpiel adapter says so.

Sum. ``utility_sum`` says what every finished game's utilities add up to, where that is the
same in every game: 0 where money only changes hands (鬥雀 covering, the chips pot, the
platform without a house fee), 1 for a share of the win (the first out), and the rank points
of every rank for placement scoring whose games end with one seat at most still holding
cards (ending ``all_empty`` or ``one_left``, in a game of bounded length and without a
stall rule, which ends a game with several seats holding cards), since only seats still
holding cards share a rank. Elsewhere it is None: a house fee takes money off the
table, and seats that share a rank share its points. A plugin scoring declares its sum with
a method ``utility_sum(limits) -> float | None`` on its scoring object; without it, None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from paiqi_core import hooks
from paiqi_core.cards import CARD_POINTS
from paiqi_core.rules import Rules


@dataclass(frozen=True)
class Limits:
    """What bounds a game of some rules: seats, cards, and the most moves of each kind."""

    players: int
    cards: int  # cards dealt (the joker included)
    hand: int  # the most cards one seat is dealt
    card_moves: int  # the most plays, covers and joker moves in a game
    passes_per_seat: int | None  # the most passes one seat makes (None: unbounded)
    turns: int | None  # the most actions in a game (None: unbounded)
    events: int  # the most automatic events (placed 7s, cuts, swaps, bursts, leaves)

    @property
    def log(self) -> int | None:
        """The most entries of a game's log: actions and events."""
        return None if self.turns is None else self.turns + self.events


def limits(rules: Rules) -> Limits:
    """The limits of a game of ``rules`` (see the module's docstring)."""
    n = rules.players
    cards = len(rules.deck)
    hand = -(-cards // n)
    stuck = rules.stuck
    limit = stuck.pass_limit
    per_seat: int | None
    passes: int | None
    if stuck.loop == "cover":
        per_seat, passes = 0, 0
    elif limit is not None:
        per_seat, passes = limit, n * limit
    elif rules.must_play and not rules.topology.cut:
        # between two passes of one seat some card moved: at most one pass per card, and
        # one before the first; at most players - 1 passes between two cards
        per_seat, passes = cards + 1, (n - 1) * (cards + 1)
    elif rules.stall is not None:
        # the stall rule: fewer than stall * holders passes in a row, before the first
        # other move and after each of at most ``cards`` others
        per_seat, passes = rules.stall * (cards + 1), (rules.stall * n - 1) * (cards + 1)
    else:
        per_seat = passes = None
    turns = None if passes is None else cards + passes
    events = 4 + 4 + (52 if rules.jokers else 0) + 2 * n  # placed 7s, cuts, swaps, bursts, leaves
    return Limits(n, cards, hand, cards, per_seat, turns, events)


def max_covered_points(rules: Rules, count: int) -> int:
    """The most points ``count`` covered cards of the deck can be worth."""
    return sum(sorted((CARD_POINTS[c] for c in rules.deck), reverse=True)[:count])


Bounds = tuple[Fraction, Fraction]


def _covering(rules: Rules, p: dict[str, Any], lim: Limits) -> Bounds:
    wm = p["winner_multiplier"]
    most = max(int(wm["last_seven"]), int(wm["all_covered"]), int(wm["clean"]), 1)
    head = max(int(p["big_head"]), int(p["middle_head"]), 1)
    bust = max(int(p["bust_multiplier"]), 1)
    pays = max_covered_points(rules, lim.hand) * head * bust * most * Fraction(str(p["stake"]))
    return -pays, (lim.players - 1) * pays


def _platform(rules: Rules, p: dict[str, Any], lim: Limits) -> Bounds:
    wm = p["winner_multiplier"]
    most = max(int(wm["last_seven"]), int(wm["all_covered"]), int(wm["clean"]), 1)
    bust = max(int(p["bust_multiplier"]), 1)
    all_covered = int(p["all_covered_total"])
    if p["settlement"] == "heads":
        base = max(int(v) for v in p["head_amounts"].values())
    else:
        best = max(
            all_covered,
            sum(int(b) for b in p["closure_bonus"])
            + max(int(p["last_seven_bonus"]), int(p["clean_bonus"])),
        )
        worst = min(all_covered, -max_covered_points(rules, lim.hand))
        base = (best - worst) * int(p["rate"])
    pays = Fraction(base * bust * most)
    return -pays, (lim.players - 1) * pays


def _chips(rules: Rules, p: dict[str, Any], lim: Limits) -> Bounds:
    passes = lim.passes_per_seat
    if passes is None:
        raise ValueError("passes are unbounded, so are the chips they cost")
    pays = Fraction(int(p["ante"]) + passes * int(p["pass_cost"]))
    return -pays, (lim.players - 1) * pays


def _none(rules: Rules, p: dict[str, Any], lim: Limits) -> Bounds:
    return Fraction(0), Fraction(0)


_MONEY: dict[str, Callable[[Rules, dict[str, Any], Limits], Bounds]] = {
    "covering": _covering,
    "platform": _platform,
    "chips": _chips,
    "first_out": _none,
    "placement": _none,
}


def _builtin_money(rules: Rules) -> Callable[[Rules, dict[str, Any], Limits], Bounds] | None:
    """The money bounds of a built-in scoring hook (identified by its factory, so a plugin
    registered under a built-in name is not mistaken for it)."""
    name = str(rules.profile.get("scoring.method"))
    bound = _MONEY.get(name)
    if bound is None:
        return None
    from paiqi_core.hooks import (
        scoring_covering,
        scoring_placement,
        scoring_platform,
        scoring_simple,
    )

    builtin = {
        "covering": scoring_covering.covering,
        "platform": scoring_platform.platform,
        "chips": scoring_simple.chips,
        "first_out": scoring_simple.first_out,
        "placement": scoring_placement.placement,
    }[name]
    return bound if hooks.lookup("scoring", name).factory is builtin else None


def utility_bounds(rules: Rules) -> tuple[float, float]:
    """The lowest and highest utility a seat can get in a game of ``rules``, under the
    profile's objective; ValueError when the rules give no bound."""
    declared = getattr(rules.scoring, "utility_bounds", None)
    lim = limits(rules)
    if callable(declared):
        low, high = declared(lim)
        return float(low), float(high)
    objective = rules.facts.objective
    if objective == "win":
        return 0.0, 1.0
    if objective == "points":
        fixed = rules.facts.place_points
        points = list(fixed) if fixed else list(range(rules.players - 1, -1, -1))
        if len(points) < rules.players:
            points.append(0)
        return float(min(points)), float(max(points))
    bound = _builtin_money(rules)
    if bound is None:
        raise ValueError(
            f"the scoring of {rules.id} declares no utility bounds: give its scoring object a "
            "method utility_bounds(limits) -> (low, high) (see paiqi_core.adapters.bounds)"
        )
    low, high = bound(rules, dict(rules.profile.section("scoring")), lim)
    return float(low), float(high)


def utility_sum(rules: Rules) -> float | None:
    """What the utilities of all seats add up to in every finished game of ``rules``, or
    None where that varies or is not known (see the module's docstring)."""
    declared = getattr(rules.scoring, "utility_sum", None)
    if callable(declared):
        value = declared(limits(rules))
        return None if value is None else float(value)
    name = str(rules.profile.get("scoring.method"))
    if name not in _MONEY or _builtin_money(rules) is None:
        return None  # a plugin registered under a built-in name may score otherwise
    if name in ("covering", "chips"):
        return 0.0
    if name == "platform":
        return 0.0 if Fraction(str(rules.profile.get("scoring.fee"))) == 0 else None
    if name == "first_out":
        return 1.0
    from paiqi_core.hooks.flow import AllEmpty, OneLeft

    if type(rules.ending) not in (AllEmpty, OneLeft) or limits(rules).turns is None:
        return None
    if rules.stall is not None:  # a stalled game ends with several seats tied
        return None
    fixed = rules.facts.place_points
    points = list(fixed) if fixed else list(range(rules.players - 1, -1, -1))
    return float(sum(points[: rules.players]))
