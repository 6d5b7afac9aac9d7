"""A game in progress: the state vector of the rule core (``paiqi_core.core``), played by
its functions as plain Python, and what players and tools read of it.

Hands and the table are int bitmasks in the vector's slots (``core.layout``); legal
actions, the effect of a move and the events it sets off (bursts, the joker's swap, the
end) are the core's, the same functions the compiled engine runs. A plugin hook without a
compiled form is asked by the core at its slot point. Why an action is illegal is worked
out in ``reasons``; what a seat may see, in ``observation``.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from paiqi_core.actions import (
    COVER,
    DRAW,
    DRAW_CARD,
    EVENT,
    GIVE,
    HIDDEN_COVER,
    HIDDEN_GIVE,
    JOKER,
    PASS,
    PLACE,
    ActionError,
    parse_action,
)
from paiqi_core.cards import alike, bits, card_text, with_copies
from paiqi_core.core import layout as L
from paiqi_core.core.plain import (
    ProgressOf,
    SeatOf,
    Seats,
    Slot,
    VectorView,
    kernel,
    resume,
    trump_cards_down,
)
from paiqi_core.core.results import outcomes_of
from paiqi_core.engine.reasons import NOT_AN_ACTION
from paiqi_core.observation import History, Observation
from paiqi_core.outcome import PlayerOutcome, Result
from paiqi_core.streams import GENERATOR, Stream, WordStream, below

if TYPE_CHECKING:
    from paiqi_core.engine.game import Game

_apply = kernel.apply
_options = kernel.options
_plays = kernel.plays
_NO_JOKERS: list[int] = []  # joker moves are written only where the game has a joker


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


class State(VectorView):
    """A game in progress. Drive it with ``legal_actions()`` and ``apply()``."""

    __slots__ = (
        "_cover_order", "_drawn", "_handed", "_public", "game", "generator", "log", "players",
        "rng", "seed", "st",
    )  # fmt: skip

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
        pool: int = 0,
        stock: int = 0,
        copies: Sequence[tuple[int, int]] | None = None,
        table_copies: tuple[int, int] = (0, 0),
        lead: int | None = None,
    ) -> None:
        """A game dealt ``hands`` (card masks by seat), or a position in the middle of one:
        ``table`` (a mask), ``turn``, ``opened`` (suits in opening order) and, by seat, the
        ``covered`` card masks, ``passes`` used and number of cards ``played`` so far;
        ``pool``, the cards dealt to no seat that lie face up, and ``stock``, those that
        lie face down (``deck.leftover``). With several decks, ``copies`` gives by seat the
        cards held twice and three times (masks), and ``table_copies`` those on the table
        twice and three times (``cards.planes``). ``lead`` is the seat that moves first in
        place of the opening's first mover (a match's last winner, ``match.next_lead``)."""
        self.players = n = game.players
        if lead is not None and not 0 <= lead < n:
            raise ValueError(f"no seat {lead} to move first: seats are 0 to {n - 1}")
        if game.trumps and (door_card is None or not 0 <= door_card < 52):
            raise ValueError("the last card dealt names trumps (layout.trumps): give door_card")
        self.game = game
        self.seed = seed
        self.generator = GENERATOR  # what dealt ``seed`` (``paiqi_core.streams``)
        self.rng: random.Random | None = None
        self.log: list[tuple[int, int]] = []
        self._public: list[tuple[int, int]] = []  # the log as everyone sees it, kept up lazily
        self._cover_order: list[list[int]] = [[] for _ in range(n)]  # covered cards, in order
        self._handed: list[list[int]] = [[] for _ in range(n)]  # cards given or taken, in order
        self._drawn: list[list[int]] = [[] for _ in range(n)]  # cards drawn, in order
        self.st = st = [0] * L.STATE
        covered = list(covered) if covered is not None else [0] * n
        played = list(played) if played is not None else [0] * n
        for s in range(n):
            st[L.HAND + s] = st[L.DEALT + s] = hands[s]
            if copies is not None:
                st[L.TWICE + s] = st[L.DEALT_TWICE + s] = copies[s][0]
                st[L.THRICE + s] = st[L.DEALT_THRICE + s] = copies[s][1]
            st[L.COVERED + s] = covered[s]
            st[L.PLAYED + s] = played[s]
            st[L.SIZE + s] = kernel.held(st, s) + covered[s].bit_count() + played[s]
            st[L.PASSES + s] = passes[s] if passes is not None else 0
            st[L.LAST + s] = st[L.FINISH + s] = st[L.BURSTED + s] = -1
        st[L.DOOR] = -1 if door_card is None else door_card
        st[L.POOL] = st[L.LEFTOVER] = pool
        st[L.STOCK] = stock
        st[L.TAKER] = -1
        st[L.JOKER_AT : L.JOKER_AT + L.MAX_JOKERS] = [-1] * L.MAX_JOKERS
        st[L.STARTED] = int(table != 0)
        start = game.start(hands, door_card)
        st[L.FIRST] = -1 if start.first_card is None else start.first_card
        st[L.TABLE], (st[L.TABLE_TWICE], st[L.TABLE_THRICE]) = table, table_copies
        for seat, card in start.placed:  # every copy the seat holds (the opening names one)
            while st[L.HAND + seat] >> card & 1:
                kernel._take(st, seat, card)
                kernel._lay(st, card)
                self.log.append((seat, PLACE + card))
        table = st[L.TABLE]
        st[L.LOGLEN] = len(self.log)
        if table:
            for i, suit in enumerate(opened):
                st[L.OPENED + i] = suit
            st[L.NOPENED] = len(opened)
            kernel.set_table(st, game.vector, game.extensions, table)
        else:
            st[L.FRONTIER] = game.empty_frontier
        if lead is not None:
            st[L.LEAD] = lead + 1
        st[L.TURN] = (start.seat if lead is None else lead) if turn is None else turn
        for s in range(n):
            if not st[L.HAND + s] and st[L.SIZE + s]:  # every card went to the table before play
                st[L.FINISH + s] = st[L.NFINISHED]
                st[L.NFINISHED] += 1
        kernel.first_turn(st, game.vector, game.extensions, game.beyond, self.log)

    def clone(self) -> State:
        """An independent copy that shares the compiled game: play on from either."""
        other = State.__new__(State)
        other.game, other.seed, other.generator = self.game, self.seed, self.generator
        other.players = self.players
        other.st = self.st[:]
        other.log = self.log[:]
        other._public = self._public[:]
        other._cover_order = [c[:] for c in self._cover_order]
        other._handed = [c[:] for c in self._handed]
        other._drawn = [c[:] for c in self._drawn]
        other.rng = None if self.rng is None else _copy_rng(self.rng)
        return other

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in State.__slots__}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.generator = GENERATOR
        for name, value in state.items():
            setattr(self, name, value)

    # -- the state, read from the vector (hands, covered, passes, finished, bursts, left
    # and table as every ``VectorView`` reads them) ---------------------------------------
    played = Seats(L.PLAYED, "Cards played, by seat (a joker and the card beyond it too).")
    actions = Seats(L.ACTIONS, "Actions taken, by seat: plays, covers, passes, joker moves.")
    hand_sizes = Seats(L.SIZE, "Cards dealt, by seat.")
    frontier = Slot(L.FRONTIER, "The cards that extend a row now, a mask.")
    turn = Slot(L.TURN, "The seat to move.")
    idle = Slot(L.IDLE, "Passes in a row, with nothing else done in between (the stall rule).")
    over = Slot(L.OVER, "Whether the game is over.", "flag")
    started = Slot(L.STARTED, "Whether a card has been played.", "flag")
    first_card = Slot(L.FIRST, "The card the first move must play (None: any).", "optional")
    door_card = Slot(L.DOOR, "The door card cut before play (None: none).", "optional")
    pool = Slot(L.POOL, "The cards dealt to no seat that lie face up, a mask (deck.leftover).")
    leftover = Slot(L.LEFTOVER, "The cards dealt to no seat, face up, as dealt (a mask).")
    stock = Slot(L.STOCK, "The cards of the stock, face down, a mask (deck.leftover: stock).")
    trumped = Slot(
        L.TRUMPED, "The places of other suits where a trump lies, a card mask (layout.trumps)."
    )

    @property
    def lead(self) -> int | None:
        """The seat that moved first in place of the opening's first mover (a match's last
        winner), None where the opening chose it."""
        return self.st[L.LEAD] - 1 if self.st[L.LEAD] else None

    @property
    def jokers_at(self) -> int:
        """The places where jokers stand in on the table, a card mask (0: none)."""
        return _places(self.st)

    @property
    def dealt(self) -> tuple[int, ...]:
        """The hands as dealt, card masks by seat (each card once: with several decks,
        ``dealt_cards`` has the copies)."""
        return tuple(self.st[L.DEALT : L.DEALT + self.players])

    def held(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, ascending, each as many times as it holds it (with
        several decks a card may be held twice or three times; ``hands`` has the masks of
        the cards held)."""
        st = self.st
        return with_copies(st[L.HAND + seat], st[L.TWICE + seat], st[L.THRICE + seat])

    def dealt_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` was dealt, ascending, copies and all."""
        st = self.st
        return with_copies(st[L.DEALT + seat], st[L.DEALT_TWICE + seat], st[L.DEALT_THRICE + seat])

    @property
    def table_cards(self) -> list[int]:
        """The cards on the table, ascending, each as many times as it lies there (with
        trumps, a trump lies in the place of another suit it took, and the card it displaced
        in the trump row's place of its rank once played)."""
        st = self.st
        table = st[L.TABLE]
        if st[L.TRUMPED]:
            table = trump_cards_down(table, st[L.TRUMPED], st[L.DOOR])
        return with_copies(table, st[L.TABLE_TWICE], st[L.TABLE_THRICE])

    @property
    def last_play(self) -> list[int | None]:
        """By seat, the card whose play emptied its hand (None: none did)."""
        return [None if c < 0 else c for c in self.st[L.LAST : L.LAST + self.players]]

    @property
    def completions(self) -> list[list[int]]:
        """By seat, the rows it closed, each as the order (1 for the first) in which its
        suit was opened."""
        st = self.st
        return [
            st[L.CLOSED + 4 * s : L.CLOSED + 4 * s + st[L.NCLOSED + s]] for s in range(self.players)
        ]

    @property
    def opened(self) -> list[int]:
        """Suits in the order they were opened."""
        return self.st[L.OPENED : L.OPENED + self.st[L.NOPENED]]

    @property
    def laid(self) -> list[int]:
        """The hand each burst laid face up (jokers in it included), in burst order."""
        return [self.st[L.LAID_BY + s] for s in self.bursts]

    @property
    def drew(self) -> bool:
        """Whether the player to move has just drawn a card that it may play
        (``turn.draw``)."""
        return self.st[L.PHASE] == L.DREW

    @property
    def extra_play(self) -> bool:
        """Whether the player to move plays again after a card that ended its line
        (``turn.extra_after_end``)."""
        return self.st[L.PHASE] == L.EXTRA

    def set_hidden(self, seat: int, hand: int, covered: int, dealt: int) -> None:
        """Put other cards in ``seat``'s hidden places: its hand, its covered cards and its
        hand as dealt (a deal sampled for a seat that cannot see them)."""
        st = self.st
        st[L.HAND + seat], st[L.COVERED + seat], st[L.DEALT + seat] = hand, covered, dealt

    # -- queries -------------------------------------------------------------------
    def plays(self) -> int:
        """Mask of the cards the player to move may play."""
        return _plays(self.st, self.game.vector, self.st[L.TURN])

    def legal_actions(self) -> list[int]:
        """The legal actions of the player to move, ascending (empty when the game is over):
        plays, then covers or a pass, then joker moves."""
        return self.decided()[0]

    def decided(self, vector: Any = None) -> tuple[list[int], int]:
        """The legal actions of the player to move (``legal_actions``) and the rule that
        decided them (one of ``layout.BY_*``, -1 when the game is over); under another rules
        vector where one is given (what another rule would allow, for a refusal's words)."""
        st = self.st
        if st[L.OVER]:
            return [], -1
        game = self.game
        if game.jokers or game.trumps:  # (trump moves are listed with the joker moves)
            jx, jy = [0] * 16, [0] * 16
        else:
            jx = jy = _NO_JOKERS
        R = game.vector if vector is None else vector
        can, njokers, covers, may_pass, by = _options(st, R, game.beyond, self.log, jx, jy)
        acts = list(bits(can)) if can else []
        if covers:
            base = GIVE if by == L.BY_GIVE else COVER
            acts += [base + c for c in bits(covers)]
        if may_pass:
            acts.append(PASS)
        elif by == L.BY_DRAW and st[L.PHASE] != L.DREW:  # stuck: it draws
            acts.append(DRAW)
        if njokers:
            acts += [JOKER + 64 * jx[i] + jy[i] for i in range(njokers)]
        return acts, by

    def seat_view(self, seat: int | None = None) -> SeatOf:
        """What a stuck rule is shown of ``seat`` (the seat to move by default): a
        read-only view of this state (``slots.SeatView``)."""
        return SeatOf(self.st, self.log, self.turn if seat is None else seat, self.players)

    def progress(self) -> ProgressOf:
        """What an ending is shown of this game (``slots.Progress``), read only."""
        return ProgressOf(self.st, self.players)

    def why_illegal(self, action: int, seat: int | None = None) -> str | None:
        """None when ``action`` is legal for the player to move (or for ``seat``), else the
        reason in words."""
        from paiqi_core.engine.reasons import why_illegal

        return why_illegal(self, action, seat)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.st[L.OVER] != 0

    def current_seat(self) -> int:
        """The seat to move."""
        return self.st[L.TURN]

    def hand_counts(self) -> list[int]:
        """Cards held by seat."""
        st = self.st
        return [kernel.held(st, s) for s in range(self.players)]

    # -- moves ---------------------------------------------------------------------
    def apply(self, action: int | str, seat: int | None = None) -> None:
        """Apply a legal action (int or text like 'H7', 'cover HK', 'pass', 'joker H8 H9',
        'give H5');
        anything else raises ``IllegalAction`` with the reason, changing nothing."""
        try:
            a = parse_action(action) if isinstance(action, str) else operator.index(action)
        except (TypeError, ActionError):
            hint = (
                " (write a card like H7, 'cover HK', 'pass', 'joker H8 H9', 'trump S9 H9' or "
                "'give H5')"
            )
            shown = f"{action!r}" + (hint if isinstance(action, str) else "")
            raise IllegalAction(f"{NOT_AN_ACTION}: {shown}") from None
        reason = self.why_illegal(a, seat)
        if reason is not None:
            raise IllegalAction(reason)
        self.apply_unchecked(a)

    def apply_unchecked(self, action: int) -> None:
        """Apply an action known to be legal (no check: for agents' own legal choices). A
        draw takes its card from ``rng``, the stream simulated players draw from, where the
        state has one (a dealt state), as the compiled engine does from the same stream."""
        game = self.game
        if action == DRAW and self.rng is not None:
            stock = self.st[L.STOCK]
            action = DRAW_CARD + nth_card(stock, below(self.rng, stock.bit_count()))
        _apply(self.st, game.vector, game.extensions, game.beyond, self.log, action)

    @property
    def stalled(self) -> bool:
        """Whether the stall rule ends the game here: every player still holding cards has
        passed ``rules.stall`` times in a row, with nothing else done in between."""
        return bool(kernel.stalled(self.st, self.game.vector))

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with every seat choosing uniformly among its sorted legal
        actions: the same choices as ``RandomAgent`` sharing ``rng``, only faster."""
        game = self.game
        if isinstance(rng, Stream):  # the core draws from the stream's key and count itself
            st = self.st
            kept = st[L.KEY], st[L.DRAWN], st[L.GEN], st[L.HALF]
            resume(st, L.WORDS if type(rng) is WordStream else 0, rng.key, rng.drawn)
            jx, jy = [0] * 16, [0] * 16
            kernel.play_out(
                st, game.vector, game.extensions, game.beyond, self.log, kernel.RANDOM, jx, jy
            )
            rng.setstate((rng.generator, rng.key, st[L.DRAWN]))
            st[L.KEY], st[L.DRAWN], st[L.GEN], st[L.HALF] = kept
            return
        while not self.st[L.OVER]:
            acts = self.legal_actions()
            self.apply_unchecked(acts[below(rng, len(acts))])

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
            elif GIVE <= action < EVENT:  # to the seat that passed just before
                self._handed[seat].append(action - GIVE)
                self._handed[log[i - 1][0]].append(action - GIVE)
                public.append((seat, HIDDEN_GIVE))
            elif DRAW_CARD <= action < GIVE:
                self._drawn[seat].append(action - DRAW_CARD)
                public.append((seat, DRAW))
            else:
                public.append((seat, action))
        return public

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now: its own hand, the table and public counts."""
        public = self.public_log()
        st, n = self.st, self.players
        over = st[L.OVER] != 0
        bursts = self.bursts
        door = st[L.DOOR]
        return Observation(  # which of the alike jokers a hand holds is no one's knowledge
            seat,
            alike(st[L.HAND + seat]),
            st[L.TABLE],
            st[L.TURN],
            tuple(self.hand_counts()),
            tuple(map(int.bit_count, st[L.COVERED : L.COVERED + n])),
            tuple(st[L.PASSES : L.PASSES + n]),
            alike(st[L.COVERED + seat]),
            tuple(st[L.OPENED : L.OPENED + st[L.NOPENED]]),
            tuple(self.finished),
            tuple(bursts),
            tuple([alike(st[L.LAID_BY + s]) for s in bursts]),
            tuple(self.left),
            _places(st),
            History(public, len(public)),
            tuple(self.legal_actions()) if seat == st[L.TURN] and not over else (),
            over,
            None if door < 0 else door,
            tuple(self._cover_order[seat]),
            st[L.PHASE] == L.EXTRA,
            tuple(st[L.SIZE : L.SIZE + n]),
            st[L.POOL],
            st[L.LEFTOVER],
            tuple(self._handed[seat]),
            st[L.PHASE] == L.HAND_ON,
            st[L.STOCK].bit_count(),
            tuple(self._drawn[seat]),
            st[L.PHASE] == L.DREW,
            (st[L.TWICE + seat], st[L.THRICE + seat]),
            (st[L.TABLE_TWICE], st[L.TABLE_THRICE]),
            st[L.TRUMPED],
            st[L.PHASE] == L.LAYING,
        )

    # -- results -------------------------------------------------------------------
    def outcomes(self) -> list[PlayerOutcome]:
        """Each seat's end-of-game facts, as scoring reads them."""
        return outcomes_of(self.st, self.players, self.game.rules.topology.centre)

    def result(self, outcomes: Sequence[PlayerOutcome] | None = None) -> Result:
        """The scored game; pass ``outcomes()`` if you already took them."""
        if not self.st[L.OVER]:
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


def nth_card(cards: int, n: int) -> int:
    """The ``n``-th card (from 0) of the mask ``cards``, in card order."""
    for card in bits(cards):
        if n == 0:
            return card
        n -= 1
    raise IndexError(n)


def _places(st: list[int]) -> int:
    """The places where jokers stand in, a card mask."""
    places = 0
    for at in st[L.JOKER_AT : L.JOKER_AT + L.MAX_JOKERS]:
        if at >= 0:
            places |= 1 << at
    return places
