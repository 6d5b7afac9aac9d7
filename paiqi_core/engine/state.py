"""A game in progress: hands and the table as int bitmasks, and every transition.

Legal plays are one AND of the hand with the table's frontier (the playable extensions of
every row, from the compiled topology). What a stuck player may do, when the game ends and
how it is scored come from the slot objects of the game's ``Rules``. Why an action is
illegal is worked out in ``reasons``; what a seat may see, in ``observation``.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from paiqi_core.actions import (
    BURST,
    COVER,
    CUT,
    HIDDEN_COVER,
    JOKER,
    LEAVE,
    PASS,
    PLACE,
    SWAP,
    ActionError,
    joker_action,
    joker_parts,
    parse_action,
)
from paiqi_core.cards import JOKER as JOKER_CARD
from paiqi_core.cards import SEVEN, SUIT_MASK, bits, card_text
from paiqi_core.engine.reasons import NOT_AN_ACTION
from paiqi_core.observation import History, Observation
from paiqi_core.outcome import PlayerOutcome, Result
from paiqi_core.streams import GENERATOR

if TYPE_CHECKING:
    from paiqi_core.engine.game import Game

FULL_SUIT = SUIT_MASK
JOKER_BIT = 1 << JOKER_CARD
SUITED = JOKER_BIT - 1


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


class State:
    """A game in progress. Drive it with ``legal_actions()`` and ``apply()``."""

    __slots__ = (
        "_cover_order",
        "_public",
        "_views",
        "actions",
        "bursts",
        "completions",
        "covered",
        "dealt",
        "door_card",
        "finished",
        "first_card",
        "frontier",
        "game",
        "generator",
        "hand_sizes",
        "hands",
        "idle",
        "joker_at",
        "laid",
        "last_play",
        "left",
        "log",
        "opened",
        "over",
        "passes",
        "played",
        "rng",
        "seed",
        "started",
        "table",
        "turn",
    )

    def __init__(
        self,
        game: Game,
        hands: list[int],
        *,
        seed: int | None = None,
        table: int = 0,
        turn: int | None = None,
        door_card: int | None = None,
        opened: Sequence[int] = (),
        covered: Sequence[int] | None = None,
        passes: Sequence[int] | None = None,
        played: Sequence[int] | None = None,
    ) -> None:
        """A game dealt ``hands`` (card masks by seat), or a position in the middle of one:
        ``table`` (a mask), ``turn``, ``opened`` (suits in opening order) and, by seat, the
        ``covered`` card masks, ``passes`` used and number of cards ``played`` so far."""
        n = game.players
        self.game = game
        self.seed = seed
        self.generator = GENERATOR  # what dealt ``seed`` (``paiqi_core.streams``)
        self.rng: random.Random | None = None
        self.door_card = door_card
        self.hands = list(hands)
        self.dealt = tuple(hands)
        if covered is None and played is None:  # a new deal
            self.covered, self.played = [0] * n, [0] * n
            self.hand_sizes = [h.bit_count() for h in hands]
        else:
            self.covered = list(covered) if covered is not None else [0] * n
            self.played = list(played) if played is not None else [0] * n
            self.hand_sizes = [
                h.bit_count() + c.bit_count() + p
                for h, c, p in zip(self.hands, self.covered, self.played, strict=True)
            ]
        self.passes = list(passes) if passes is not None else [0] * n
        self.actions = [0] * n  # actions taken by seat: plays, covers, passes, joker plays
        self.last_play: list[int | None] = [None] * n
        self.completions: list[list[int]] = [[] for _ in range(n)]
        self.opened: list[int] = []
        self.finished: list[int] = []  # emptied their hands, in order
        self.bursts: list[int] = []  # burst, in order
        self.laid: list[int] = []  # the hand each burst laid face up (a joker in it included)
        self.left: list[int] = []  # left holding only the joker
        self.joker_at: int | None = None
        self.log: list[tuple[int, int]] = []
        self._public: list[tuple[int, int]] = []  # the log as everyone sees it, kept up lazily
        self._views: list[SeatOf] | None = None  # what stuck rules see of each seat
        self._cover_order: list[list[int]] = [[] for _ in range(n)]  # covered cards, in order
        self.over = False
        self.idle = 0  # passes in a row, with nothing else done in between (the stall rule)
        self.started = table != 0
        start = game.start(self.hands, door_card)
        self.first_card = start.first_card
        for seat, card in start.placed:
            self.hands[seat] &= ~(1 << card)
            table |= 1 << card
            self.log.append((seat, PLACE + card))
        if table:
            self.opened.extend(opened)
            self._set_table(table)
        else:
            self.table, self.frontier = 0, game.empty_frontier
        self.turn = start.seat if turn is None else turn
        if not all(self.hands):
            for seat in range(n):
                if not self.hands[seat] and self.hand_sizes[seat]:
                    self.finished.append(seat)  # every card went to the table before play
        if game.is_over(self):
            self.over = True
            return
        if not self.hands[self.turn] or self._bursts_now(self.turn):
            self._advance()

    def clone(self) -> State:
        """An independent copy that shares the compiled game: play on from either."""
        other = State.__new__(State)
        for name in (
            "game", "seed", "generator", "door_card", "dealt", "joker_at", "over", "started",
            "idle",
        ):  # fmt: skip
            setattr(other, name, getattr(self, name))
        for name in ("first_card", "table", "frontier", "turn"):
            setattr(other, name, getattr(self, name))
        for name in (
            "hands", "covered", "played", "passes", "hand_sizes", "actions", "last_play",
            "opened", "finished", "bursts", "laid", "left", "log", "_public",
        ):  # fmt: skip
            setattr(other, name, list(getattr(self, name)))
        other.completions = [list(c) for c in self.completions]
        other._cover_order = [list(c) for c in self._cover_order]
        other.rng = None if self.rng is None else _copy_rng(self.rng)
        other._views = None
        return other

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in State.__slots__ if name != "_views"}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.generator = GENERATOR
        self._views = None
        for name, value in state.items():
            setattr(self, name, value)

    def _set_table(self, table: int) -> None:
        self.table = table
        ext = self.game.extensions
        frontier = 0
        for suit in range(4):
            row = (table >> (13 * suit)) & FULL_SUIT
            if row and suit not in self.opened:
                self.opened.append(suit)
            frontier |= ext[row] << (13 * suit)
        self.frontier = frontier

    # -- queries -------------------------------------------------------------------
    def plays(self) -> int:
        """Mask of the cards the player to move may play."""
        hand = self.hands[self.turn]
        first = self.first_card
        if not self.started and first is not None:
            return hand & (1 << first)
        return hand & self.frontier

    def joker_plays(self) -> list[int]:
        """Joker actions of the player to move: the joker takes the place of a legal
        extension X that the player does not hold, and the card just beyond X (the next
        empty place in the same direction, across the A-K junction where rows run on) is
        played from the hand in the same turn."""
        hand = self.hands[self.turn]
        if not hand & JOKER_BIT or (not self.started and self.first_card is not None):
            return []
        beyond = self.game.rules.topology.beyond
        out = []
        for x in bits(self.frontier & ~hand):
            shift = 13 * (x // 13)
            y = beyond((self.table >> shift) & FULL_SUIT, x - shift)
            if y is not None and hand >> (shift + y) & 1:
                out.append(joker_action(x, shift + y))
        return out

    def legal_actions(self) -> list[int]:
        """The legal actions of the player to move, ascending (empty when the game is over):
        plays, then covers or a pass, then joker moves."""
        if self.over:
            return []
        game = self.game
        acts = list(bits(self.plays()))
        jokers = self.joker_plays() if game.jokers else []
        if not acts and not jokers:
            return list(game.stuck.actions(self.seat_view()))
        opening_card = not self.started and self.first_card is not None
        if not game.must_play and not opening_card:  # the opening card is compulsory
            acts += game.stuck.voluntary(self.seat_view())
        return acts + jokers if jokers else acts

    def seat_view(self, seat: int | None = None) -> SeatOf:
        """What a stuck rule is shown of ``seat`` (the seat to move by default): a
        read-only view of this state (``slots.SeatView``), made once a seat."""
        views = self._views
        if views is None:
            views = self._views = [SeatOf(self, s) for s in range(self.game.players)]
        return views[self.turn if seat is None else seat]

    def _bursts_now(self, seat: int) -> bool:
        """Whether ``seat``, to move, has nothing at all to do (out of passes and stuck)."""
        if not self.game.may_burst:
            return False
        if self.turn != seat:
            raise ValueError("only the player to move can burst")
        return not self.legal_actions()

    def why_illegal(self, action: int, seat: int | None = None) -> str | None:
        """None when ``action`` is legal for the player to move (or for ``seat``), else the
        reason in words."""
        from paiqi_core.engine.reasons import why_illegal

        return why_illegal(self, action, seat)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.over

    def current_seat(self) -> int:
        """The seat to move."""
        return self.turn

    def hand_counts(self) -> list[int]:
        """Cards held by seat."""
        return [h.bit_count() for h in self.hands]

    # -- moves ---------------------------------------------------------------------
    def apply(self, action: int | str, seat: int | None = None) -> None:
        """Apply a legal action (int or text like 'H7', 'cover HK', 'pass', 'joker H8 H9');
        anything else raises ``IllegalAction`` with the reason, changing nothing."""
        try:
            a = parse_action(action) if isinstance(action, str) else operator.index(action)
        except (TypeError, ActionError):
            hint = " (write a card like H7, 'cover HK', 'pass' or 'joker H8 H9')"
            shown = f"{action!r}" + (hint if isinstance(action, str) else "")
            raise IllegalAction(f"{NOT_AN_ACTION}: {shown}") from None
        reason = self.why_illegal(a, seat)
        if reason is not None:
            raise IllegalAction(reason)
        self.apply_unchecked(a)

    def apply_unchecked(self, action: int) -> None:
        """Apply an action known to be legal (no check: for agents' own legal choices)."""
        seat = self.turn
        self.log.append((seat, action))
        self.actions[seat] += 1
        self.idle = 0 if action != PASS else self.idle + 1
        if action == PASS:
            self.passes[seat] += 1
        elif action >= JOKER:
            self._joker(seat, action)
        elif action >= COVER:
            bit = 1 << (action - COVER)
            self.hands[seat] ^= bit
            self.covered[seat] |= bit
        else:
            self._play(seat, action)
        self._check_out(seat)
        if self.game.is_over(self) or self.stalled:
            self.over = True
        else:
            self._advance()

    @property
    def stalled(self) -> bool:
        """Whether the stall rule ends the game here: every player still holding cards has
        passed ``rules.stall`` times in a row, with nothing else done in between."""
        rounds = self.game.stall
        return rounds is not None and self.idle >= rounds * sum(1 for h in self.hands if h)

    def _play(self, seat: int, card: int) -> None:
        bit = 1 << card
        self.hands[seat] ^= bit
        self.table |= bit
        self.played[seat] += 1
        self.started = True
        suit = card // 13
        if card % 13 == SEVEN and suit not in self.opened:
            self.opened.append(suit)
        self._row_changed(seat, suit)
        if not self.hands[seat]:
            self.last_play[seat] = card

    def _row_changed(self, seat: int, suit: int) -> None:
        """Update a suit's extensions after ``seat`` added to its row; credit a closure:
        a row cut at an end of its line (斬龍), or complete with its 13 real cards (a joker
        standing in the row leaves it incomplete until its card is laid)."""
        shift = 13 * suit
        row = (self.table >> shift) & FULL_SUIT
        ext = self.game.extensions[row]
        self.frontier = (self.frontier & ~(FULL_SUIT << shift)) | (ext << shift)
        if ext:
            return
        if row != FULL_SUIT:  # cut at an end of its line
            self.completions[seat].append(self.opened.index(suit) + 1)
            self.log.append((seat, CUT + suit))
        elif self.joker_at is None or self.joker_at // 13 != suit:
            self.completions[seat].append(self.opened.index(suit) + 1)

    def _joker(self, seat: int, action: int) -> None:
        at, card = joker_parts(action)
        self.hands[seat] &= ~JOKER_BIT
        self.played[seat] += 1
        self.table |= 1 << at
        self.joker_at = at
        self._play(seat, card)  # the card beyond the joker, in the same turn
        owner = next((s for s, h in enumerate(self.hands) if h >> at & 1), None)
        if owner is not None:  # the holder of the replaced card plays it and takes the joker
            self.hands[owner] = (self.hands[owner] & ~(1 << at)) | JOKER_BIT
            self.played[owner] += 1
            self.joker_at = None
            self.log.append((owner, SWAP + at))
            suit = at // 13
            if (self.table >> 13 * suit) & FULL_SUIT == FULL_SUIT:  # the 13th real card
                self.completions[owner].append(self.opened.index(suit) + 1)
            self._check_out(owner)

    def _check_out(self, seat: int) -> None:
        """A hand that became empty finishes; a hand of only the joker leaves the game."""
        hand = self.hands[seat]
        if hand == JOKER_BIT:
            self.hands[seat] = 0
            self.left.append(seat)
            self.log.append((seat, LEAVE))
        elif not hand and seat not in self.finished and seat not in self.bursts:
            self.finished.append(seat)

    def _burst(self, seat: int) -> None:
        """Out of passes and stuck: the hand goes face up to the table, each card in its
        place (joined to nothing until the gaps fill); a joker in it is removed."""
        self.log.append((seat, BURST))
        self.idle = 0
        self.laid.append(self.hands[seat])
        laid = self.hands[seat] & SUITED
        self.hands[seat] = 0
        self.bursts.append(seat)
        self._set_table(self.table | laid)

    def _advance(self) -> None:
        """Pass the turn to the next seat that holds cards; a seat with nothing at all to
        do bursts on its turn, and the turn moves on."""
        n = self.game.players
        seat = self.turn
        for _ in range(2 * n):
            seat = (seat + 1) % n
            if not self.hands[seat]:
                continue
            self.turn = seat
            if not self._bursts_now(seat):
                return
            self._burst(seat)
            if self.game.is_over(self):
                self.over = True
                return
        self.over = True

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with every seat choosing uniformly among its sorted legal
        actions: the same choices as ``RandomAgent`` sharing ``rng``, only faster."""
        self.game.playout(self, rng)

    # -- what seats see --------------------------------------------------------------
    def public_log(self) -> list[tuple[int, int]]:
        """Every move and event so far as every seat sees it: covers are hidden. Kept up
        move by move (each entry is converted once)."""
        public, log = self._public, self.log
        for i in range(len(public), len(log)):
            seat, action = log[i]
            if COVER <= action < PASS:
                self._cover_order[seat].append(action - COVER)
                public.append((seat, HIDDEN_COVER))
            else:
                public.append((seat, action))
        return public

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now: its own hand, the table and public counts."""
        public = self.public_log()
        over = self.over
        return Observation(
            seat,
            self.hands[seat],
            self.table,
            self.turn,
            tuple([h.bit_count() for h in self.hands]),
            tuple([c.bit_count() for c in self.covered]),
            tuple(self.passes),
            self.covered[seat],
            tuple(self.opened),
            tuple(self.finished),
            tuple(self.bursts),
            tuple(self.laid),
            tuple(self.left),
            self.joker_at,
            History(public, len(public)),
            tuple(self.legal_actions()) if seat == self.turn and not over else (),
            over,
            self.door_card,
            tuple(self._cover_order[seat]),
        )

    # -- results -------------------------------------------------------------------
    def outcomes(self) -> list[PlayerOutcome]:
        """Each seat's end-of-game facts, as scoring reads them."""
        finished, bursts, left = self.finished, self.bursts, self.left
        return [
            PlayerOutcome(  # positional, in field order: keywords cost twice the time
                tuple(bits(covered)) if covered else (),  # covered
                played,
                last_play,
                tuple(completions),
                finished.index(s) if s in finished else None,  # finish
                passes,
                hand.bit_count(),  # hand_left
                hand_size,
                bursts.index(s) if s in bursts else None,  # burst
                s in left,  # left_with_joker
            )
            for s, (covered, played, last_play, completions, passes, hand, hand_size) in enumerate(
                zip(
                    self.covered,
                    self.played,
                    self.last_play,
                    self.completions,
                    self.passes,
                    self.hands,
                    self.hand_sizes,
                    strict=True,
                )
            )
        ]

    def result(self, outcomes: Sequence[PlayerOutcome] | None = None) -> Result:
        """The scored game; pass ``outcomes()`` if you already took them."""
        if not self.over:
            raise ValueError("the game is not over")
        return self.game.score(self.outcomes() if outcomes is None else outcomes)

    def __repr__(self) -> str:
        rows = " ".join(card_text(c) for c in bits(self.table))
        return f"<State {self.game.id} turn={self.turn} over={self.over} table=[{rows}]>"


def _copy_rng(rng: random.Random) -> random.Random:
    """An independent random stream in the same state as ``rng`` (of its own kind)."""
    other = type(rng).__new__(type(rng))
    other.setstate(rng.getstate())
    return other


class SeatOf:
    """A seat of a game in progress as a stuck rule sees it (``slots.SeatView``): read
    only, each fact read from the state when asked."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def hand(self) -> int:
        """Its hand, a card mask."""
        return self._state.hands[self.seat]

    @property
    def passes_used(self) -> int:
        """The passes it has made this game."""
        return self._state.passes[self.seat]

    @property
    def covered(self) -> int:
        """The cards it has covered, a mask."""
        return self._state.covered[self.seat]

    @property
    def covers_used(self) -> int:
        """How many cards it has covered."""
        return self._state.covered[self.seat].bit_count()

    @property
    def table(self) -> int:
        """The cards on the table, a mask."""
        return self._state.table

    @property
    def hand_counts(self) -> tuple[int, ...]:
        """Cards held, by seat."""
        return tuple(self._state.hand_counts())

    @property
    def history(self) -> tuple[tuple[int, int], ...]:
        """Every move and event so far as every seat sees it (covers hidden)."""
        return tuple(self._state.public_log())
