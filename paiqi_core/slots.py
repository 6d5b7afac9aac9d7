"""The four slots of a rule set as typed protocols, and what each slot object declares.

A profile names one hook for each slot: ``opening`` (who moves first), ``stuck`` (what a
player does instead of playing), ``ending`` (when the game is over) and ``scoring`` (what
the end of a game is worth). A hook's factory returns an object of its slot's protocol.
Besides the behaviour, each object *declares what it can do*: whether a stuck rule covers
or passes and with what limit, what a scorer optimises and which scoring facts are public.
The engine, the agents, the adapters and the runs read those declarations, never the name
of a hook, so a plugin hook is as good as a built-in one.

Every declaration has a safe default in the base classes below (``Opening``, ``Stuck``,
``Ending``, ``Scoring``): a plugin that declares nothing gets the general, exact path.

A slot object may also declare ``compiled``: the ``paiqi_core.forms.Form`` of a
behaviour the compiled fast path (``paiqi_core.fast``) implements. The built-in hooks
declare theirs; anything that declares none is played by the Python engine.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, runtime_checkable

if TYPE_CHECKING:
    from paiqi_core.limits import Limits
    from paiqi_core.outcome import PlayerOutcome, Result

SLOTS = ("opening", "stuck", "ending", "scoring")

Objective = Literal["money", "points", "win"]
StuckLoop = Literal["cover", "pass"]
OBJECTIVES: tuple[Objective, ...] = ("money", "points", "win")


# -- opening -------------------------------------------------------------------------------
class Start(NamedTuple):
    """How a game starts: who moves, what the first move must play, what is put out first."""

    seat: int  # the seat that moves first
    first_card: int | None = None  # the card the first move must play, if any
    placed: tuple[tuple[int, int], ...] = ()  # (seat, card) put on the table before play


@runtime_checkable
class OpeningRule(Protocol):
    """Who moves first, what they must play, and which cards go to the table before play."""

    @property
    def uses_door_card(self) -> bool:
        """Whether a door card is cut at random from the shuffled deck before play."""
        ...

    def start(self, hands: Sequence[int], door_card: int | None) -> Start:
        """The start of a game dealt ``hands`` (card masks by seat), given the door card."""
        ...


@dataclass(frozen=True)
class Opening:
    """An opening made from a function ``start(hands, door_card) -> Start``."""

    start: Callable[[Sequence[int], int | None], Start]
    uses_door_card: bool = False
    compiled: Any = None  # the Form of a built-in opening (paiqi_core.forms)
    # a card the first mover was dealt, where the opening says so and the table may not show
    # it (the player who held it moves first after the 7s went out): what a seat may infer
    first_mover_was_dealt: int | None = None
    # cards (a mask) none of which the seats before the first mover were dealt, where the
    # opening gives the first move to the first seat dealt one of them (seven_holder: a 7)
    none_before_first_mover: int = 0


# -- stuck -----------------------------------------------------------------------------------
class SeatView(Protocol):
    """What a stuck rule is shown of the seat to move, read only: its own cards and counts,
    the table, and what every seat may see of the game so far."""

    @property
    def seat(self) -> int:
        """The seat to move."""
        ...

    @property
    def hand(self) -> int:
        """Its hand, a card mask."""
        ...

    @property
    def passes_used(self) -> int:
        """The passes it has made this game."""
        ...

    @property
    def covered(self) -> int:
        """The cards it has covered, a mask (its own: the others see only their number)."""
        ...

    @property
    def covers_used(self) -> int:
        """How many cards it has covered."""
        ...

    @property
    def table(self) -> int:
        """The cards on the table, a mask."""
        ...

    @property
    def hand_counts(self) -> Sequence[int]:
        """Cards held, by seat."""
        ...

    @property
    def history(self) -> Sequence[tuple[int, int]]:
        """Every move and event so far as every seat sees it, (seat, action) in order: a
        cover shows as ``actions.HIDDEN_COVER``."""
        ...


@dataclass(frozen=True)
class GivenSeat:
    """A ``SeatView`` of given facts, for asking a stuck rule about a seat that is not in
    a game (``GivenSeat(hand=..., passes_used=...)``); what is not given is empty."""

    hand: int = 0
    passes_used: int = 0
    covered: int = 0
    seat: int = 0
    table: int = 0
    hand_counts: Sequence[int] = ()
    history: Sequence[tuple[int, int]] = ()

    @property
    def covers_used(self) -> int:
        """How many cards it has covered."""
        return self.covered.bit_count()


@runtime_checkable
class StuckRule(Protocol):
    """What a player may do instead of playing a card, and what that reveals."""

    @property
    def name(self) -> str:
        """One word for messages: a stuck player must ``cover``, ``pass``, ..."""
        ...

    @property
    def covers(self) -> bool:
        """Whether a player may ever have to cover a card (covered cards then count)."""
        ...

    @property
    def pass_limit(self) -> int | None:
        """Passes a player may make in a game; None when passes are unlimited or absent."""
        ...

    @property
    def may_burst(self) -> bool:
        """Whether ``actions`` can come back empty: the player is out (burst)."""
        ...

    @property
    def loop(self) -> StuckLoop | None:
        """``cover``: a stuck player always covers one card of ``coverable & hand`` (any
        card of the hand if none), and passes never happen; ``pass``: a stuck player always
        passes, without limit. None: neither, or not declared (what the limits of a game read:
        ``paiqi_core.limits``)."""
        ...

    @property
    def coverable(self) -> int:
        """Mask of the cards that may be covered (for ``loop == "cover"``)."""
        ...

    def actions(self, seat: SeatView) -> Sequence[int]:
        """The actions of the seat to move when it has no legal play; empty: a burst."""
        ...

    def voluntary(self, seat: SeatView) -> Sequence[int]:
        """What the seat to move may choose instead of a legal play, where playing is not
        compulsory."""
        ...


class Stuck:
    """A base for stuck rules: declares nothing special (no covers, no passes, no burst,
    no declared loop); subclasses override ``actions`` and what they do differently."""

    name = "stuck"
    covers = False
    pass_limit: int | None = None
    may_burst = False
    loop: StuckLoop | None = None
    coverable = 0
    compiled: Any = None  # no compiled form unless a subclass declares one

    def actions(self, seat: SeatView) -> Sequence[int]:
        """No action: the player bursts. Override this."""
        return ()

    def voluntary(self, seat: SeatView) -> Sequence[int]:
        """Nothing may be chosen instead of a legal play."""
        return ()


def _two_arguments(method: Any) -> bool:
    """Whether a stuck rule's method is of the first form, ``(hand, passes_used)``."""
    try:
        params = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) == 2


class HandAndPasses:
    """A stuck rule written for the first form of the protocol, ``actions(hand,
    passes_used)`` and ``voluntary(hand, passes_used)``, asked with a seat view: it is told
    the hand and the passes used, as it expects; everything else it declares is its own."""

    def __init__(self, rule: Any) -> None:
        self.rule = rule

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rule, name)

    def actions(self, seat: SeatView) -> Sequence[int]:
        """The rule's actions for the seat's hand and passes."""
        out: Sequence[int] = self.rule.actions(seat.hand, seat.passes_used)
        return out

    def voluntary(self, seat: SeatView) -> Sequence[int]:
        """The rule's choices instead of a play, for the seat's hand and passes (or for the
        seat, where only ``actions`` is of the first form)."""
        voluntary = getattr(self.rule, "voluntary", None)
        if voluntary is None:
            return ()
        if _two_arguments(voluntary):
            out: Sequence[int] = voluntary(seat.hand, seat.passes_used)
            return out
        chosen: Sequence[int] = voluntary(seat)
        return chosen


def seat_stuck(rule: Any) -> Any:
    """``rule`` as it is asked: with a seat view. A rule of the first form (methods of
    ``(hand, passes_used)``) is wrapped in ``HandAndPasses``; plugins written for it work
    unchanged."""
    if _two_arguments(getattr(rule, "actions", None)):
        return HandAndPasses(rule)
    return rule


# -- ending ----------------------------------------------------------------------------------
class Progress(Protocol):
    """What an ending may look at, read only: the hands and who has left the game, and
    how; the passes and covers made and the table."""

    @property
    def hands(self) -> Sequence[int]:
        """Card masks by seat (0 for a seat that has left)."""
        ...

    @property
    def finished(self) -> Sequence[int]:
        """Seats that emptied their hands by playing or covering, in order."""
        ...

    @property
    def bursts(self) -> Sequence[int]:
        """Seats that burst, in order."""
        ...

    @property
    def left(self) -> Sequence[int]:
        """Seats that left holding only the joker, in order."""
        ...

    @property
    def passes(self) -> Sequence[int]:
        """Passes made, by seat."""
        ...

    @property
    def covered(self) -> Sequence[int]:
        """Covered cards, a mask by seat."""
        ...

    @property
    def table(self) -> int:
        """The cards on the table, a mask."""
        ...


@runtime_checkable
class EndingRule(Protocol):
    """When a game is over."""

    def over(self, game: Progress) -> bool:
        """Whether the game is over. Asked after every action and automatic event."""
        ...


class Ending:
    """A base for endings: ``over`` to override."""

    compiled: Any = None  # no compiled form unless a subclass declares one

    def over(self, game: Progress) -> bool:
        """Over when no hand holds a card. Override this."""
        return not any(game.hands)


# -- scoring ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScoringFacts:
    """What a scorer makes public about its rules: what a player should optimise and the
    numbers a player may plan with. Agents read these; defaults mean "nothing special"."""

    objective: Objective = "win"  # money, rank points, or being first
    closure_bonus: tuple[int, int, int, int] = (0, 0, 0, 0)  # for closing a suit, by opening order
    last_seven_bonus: int = 0  # for emptying the hand with a 7
    clean_bonus: int = 0  # for emptying the hand without covering
    covered_points_count: bool = False  # covered cards count their points against the player
    bust_above: int | None = None  # covered points above which a payer pays more
    melds_exempt: bool = False  # covered melds do not count (platform)
    place_points: tuple[int, ...] | None = None  # rank points by rank (None: n-1 .. 0)

    def __post_init__(self) -> None:
        if self.objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}")


@runtime_checkable
class ScoringRule(Protocol):
    """What the end of a game is worth."""

    @property
    def facts(self) -> ScoringFacts:
        """The public facts of this scoring (objective, bonuses, bust threshold, ...)."""
        ...

    def score(self, outcomes: Sequence[PlayerOutcome]) -> Result:
        """The scored game from each seat's end-of-game facts."""
        ...


class SeatSettlement(NamedTuple):
    """How a scoring settled one seat, for a person to follow (the browser's settlement):
    the parts of its total, what a winner collects with, what a payer pays before the split
    among the winners, and the covered points a bust looks at."""

    # the bonuses and deductions that make the total, each {"what", "points"} with "rule"
    # (the scoring rule it comes from) or "cards" (covered cards); empty: the total alone
    parts: tuple[dict[str, Any], ...] = ()
    made: int | None = None  # the parts' sum (None: the scoring does not spell it out)
    multiplier: tuple[int, str] = (1, "")  # a winner's multiplier and the reason for it
    # what this seat pays as a payer before the split among winners, and the factors in
    # words (None: the scoring does not spell it out)
    pays: tuple[Fraction, tuple[str, ...]] | None = None
    bust_points: int | None = None  # the covered points its bust looks at (None: no bust)
    # what this seat pays other seats directly, beside the pot: (seat, amount, why) each
    gives: tuple[tuple[int, Fraction, str], ...] = ()


Settle = Callable[["Sequence[PlayerOutcome]", "Result", bool], "list[SeatSettlement]"]


@dataclass(frozen=True)
class Scoring:
    """A scoring made from a function ``score(outcomes) -> Result`` and its public facts.

    It may also describe itself, from the limits of a game (``paiqi_core.limits``):
    ``utility_bounds(limits) -> (lowest, highest)``, what one seat can get in the
    scoring's objective, and ``utility_sum(limits)``, what every seat's utilities add up
    to in every game (0 where money only changes hands; None where that varies). The
    adapters read these, never the hook's name or its parameters. ``settle`` spells the
    settlement out seat by seat (``SeatSettlement``) for the browser."""

    score: Callable[[Sequence[PlayerOutcome]], Result]
    facts: ScoringFacts = field(default_factory=ScoringFacts)
    compiled: Any = None  # the Form of a built-in scoring (paiqi_core.forms)
    utility_bounds: Callable[[Limits], tuple[Fraction, Fraction]] | None = None
    utility_sum: Callable[[Limits], Fraction | None] | None = None
    # the settlement of a game seat by seat, from the outcomes, the result and whether the
    # rows are cut at their ends (斬龍): ``settle(outcomes, result, rows_cut)``
    settle: Settle | None = None


PROTOCOLS: dict[str, type] = {
    "opening": OpeningRule,
    "stuck": StuckRule,
    "ending": EndingRule,
    "scoring": ScoringRule,
}


def missing_members(slot: str, obj: object) -> list[str]:
    """The members of ``slot``'s protocol that ``obj`` lacks (empty: it conforms)."""
    proto = PROTOCOLS[slot]
    members = [
        name
        for name in vars(proto)
        if not name.startswith("_") and name not in ("mro",) and not name.startswith("__")
    ]
    return [name for name in members if not hasattr(obj, name)]
