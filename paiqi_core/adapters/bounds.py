"""How long a game can last and what a seat can win or lose in it, from the rules alone.

OpenSpiel asks every game for the most moves a game can take and the lowest and highest
utility a player can get; the environments use the same numbers for their spaces. The
limits of a game (its length, passes, cards) come from ``paiqi_core.limits``; the utility
bounds and sums from the scoring itself, which describes them (``Scoring.utility_bounds``
and ``utility_sum``, given the limits): this module reads no hook name and no scoring
parameter.

Utilities are the profile's own objective (``paiqi_core.search.objective.utilities``):
``win`` (a share of the win) lies in 0..1; ``points`` are rank points, between the least
and the most a rank gets. ``money`` is bounded by the built-in scorings loosely but safely:
no payer pays more than its largest possible covered points (or fixed amount, or difference
of totals, or chips) times the largest head, bust and winner multipliers, and no winner
collects more than all the others pay. A plugin scoring declares its bounds with a method
``utility_bounds(limits) -> (low, high)`` on its scoring object; without it, a scoring of
``win`` or ``points`` gets the bounds above, and a money-scored plugin has no known bounds
(the OpenSpiel adapter says so).

Sum. ``utility_sum`` says what every finished game's utilities add up to, where that is the
same in every game: 0 where money only changes hands (鬥雀 covering, the chips pot, the
platform without a house fee), 1 for a share of the win (the first out), and the rank points
of every rank for placement scoring whose games end with one seat at most still holding
cards (ending ``all_empty`` or ``one_left``, in a game of bounded length and without a
stall rule, which ends a game with several seats holding cards), since only seats still
holding cards share a rank. Elsewhere it is None: a house fee takes money off the table,
and seats that share a rank share its points. A plugin scoring declares its sum with a
method ``utility_sum(limits) -> float | None`` on its scoring object; without it, None.
"""

from __future__ import annotations

from paiqi_core.limits import Limits, limits
from paiqi_core.rules import Rules

__all__ = ["Limits", "limits", "stock_cards", "utility_bounds", "utility_sum"]


def stock_cards(rules: Rules) -> int:
    """The cards the stock starts with (``deck.leftover: stock``): the pack's cards less
    those dealt to the seats (``deck.hand`` each, or an even share); 0 without a stock. The
    stock's count in an observation is at most this, and so are a game's draws."""
    if rules.leftover != "stock":
        return 0
    cards, n = len(rules.deck), rules.players
    dealt = rules.hand * n if rules.hand is not None else cards - cards % n
    return cards - dealt


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
    raise ValueError(
        f"the scoring of {rules.id} declares no utility bounds: give its scoring object a "
        "method utility_bounds(limits) -> (low, high) (see paiqi_core.adapters.bounds)"
    )


def utility_sum(rules: Rules) -> float | None:
    """What the utilities of all seats add up to in every finished game of ``rules``, or
    None where that varies or is not known (see the module's docstring)."""
    declared = getattr(rules.scoring, "utility_sum", None)
    if not callable(declared):
        return None
    value = declared(limits(rules))
    return None if value is None else float(value)
