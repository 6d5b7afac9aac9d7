"""The action space and the observation tensors that every adapter shares.

Actions (212 for every profile; a profile simply never makes some of them legal):

=========  ============================================================================
index      action
=========  ============================================================================
0..51      play card ``c`` (``c = suit * 13 + rank``; suits S H D C, ranks A..K)
52..104    cover card ``c`` face down (index ``52 + c``; ``c = 52`` is the joker)
105        pass
106..157   the joker move at place ``x`` (index ``106 + x``): the joker takes the place of
           ``x`` and the card just beyond it is played in the same turn; the rules name
           that card, so ``x`` alone identifies the move
158..210   hand card ``c`` to the player who just passed (index ``158 + c``; ``c = 52``
           is the joker), where a pass takes a card (``turn.pass_takes``)
211        draw a card from the stock (``turn.draw``): the seat chooses to draw, chance
           (the game's random stream, or OpenSpiel's chance node) picks the card
=========  ============================================================================

The order is the engine's: the legal actions of a state, sorted in paiqi's numbering, are
sorted here too.

Observation tensor of one seat (``float32``, one dimension; ``n`` players). Seats in the
per-seat sections are *relative*: entry ``k`` is the seat ``k`` places after the observing
seat in turn order (``k = 0`` is the observing seat itself).

=================  ==========  ================================================================
section            size        content
=================  ==========  ================================================================
``hand``           53          own cards: entry ``c`` is how many copies of card ``c`` the seat
                               holds (0 or 1 with one deck; up to ``deck.decks``); 52: any joker
``table``          53          places filled on the table (laid-out burst hands and the place
                               the joker holds included): entry ``c`` is how many copies of
                               ``c`` lie there (0 or 1 with one deck); entry 52: the joker lies
                               on the table
``joker_place``    53          the places jokers hold on the table (one each), if any
``laid``           53          cards laid face up by players who burst; entry 52: a joker was
                               removed with a burst hand
``covered``        53          own covered cards
``door_card``      53          the door card cut before play (one-hot), if the profile cuts one
``face_up``        53          the cards dealt to no seat that still lie face up
                               (``deck.leftover: face_up``); anyone to move may play them
``opened``         4 x 4       ``[suit, k]`` = 1 when ``suit`` was the ``k+1``-th suit opened
``seat``           n           the observing seat's own number (one-hot; seat 0 is the
                               dealer's left)
``to_move``        n           the seat to move (relative, one-hot; zeros once the game is over)
``finished``       n           1 for a seat that emptied its hand
``burst``          n           1 for a seat that burst
``left``           n           1 for a seat that left holding only the joker
``hand_counts``    n           cards held, by relative seat (a count, every copy counted)
``covered_counts`` n           cards covered, by relative seat (a count)
``passes``         n           passes used, by relative seat (a count)
``stock``          1           cards left in the stock, face down (``deck.leftover: stock``;
                               a count, at most the pack's cards less those dealt; 0 without
                               a stock)
=================  ==========  ================================================================

An observation has ``388 + 8n`` entries, whatever the profile. With several decks
(``deck.decks``: each card up to three times) the ``hand`` and ``table`` entries of the 52
cards count copies, so they lie in ``0..decks``; every other card section stays 0 or 1
(``laid`` marks each card a burst laid, however many copies: the ``table`` counts them).
With one deck a count is 0 or 1, as it always was.

The global state (PettingZoo's ``state()``, ``float32``, one dimension) is the whole table,
as a centralised critic may see it: ``observation_size + 2 * n * 53`` entries
(``388 + 114n``).

=================  ==========  ================================================================
section            size        content
=================  ==========  ================================================================
(public)           as above    the observation tensor of seat 0 without its own cards: its
                               ``hand`` and ``covered`` sections are zeros, ``seat`` marks seat
                               0, and the per-seat sections are by seat number (relative to
                               seat 0)
``hands``          n x 53      every seat's hand, by seat number (one row per seat; copies
                               counted as in ``hand``)
``covered``        n x 53      every seat's covered cards, by seat number
=================  ==========  ================================================================

The information-state tensor (OpenSpiel) adds what a seat remembers: ``dealt`` (53, its hand
as dealt, copies counted as in ``hand``) and ``history`` (``rows x (n + 11 + 53 + 53)``): one
row per move or automatic event in order, each a relative seat (one-hot), a kind (play,
cover, pass, joker, place, swap, cut, burst, leave, give, draw) and two card fields: the card
played, covered (own covers only; another seat's cover shows no card), placed, swapped,
handed on (to the giver and the taker only) or drawn (own draws only: another seat's draw
shows no card), or the whole hand a burst laid face up; and the place the joker took. Rows
after the last move are zeros. (A move moves one copy of one card: its row shows that card
once, whatever the decks.)
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from paiqi_core.actions import (
    BURST,
    COVER,
    CUT,
    DRAW,
    DRAW_CARD,
    GIVE,
    HIDDEN_COVER,
    HIDDEN_GIVE,
    JOKER,
    LEAVE,
    PASS,
    PLACE,
    SWAP,
    TRUMP,
    action_text,
)
from paiqi_core.cards import CARDS, SUITS, bits, card_text, one_joker
from paiqi_core.cards import JOKER as JOKER_CARD
from paiqi_core.core import layout as L
from paiqi_core.engine import IllegalAction, Observation, State

CARD_SLOTS = 53  # one entry per card number, the joker last
COVER_BASE = 52
PASS_ACTION = 105
JOKER_BASE = 106
GIVE_BASE = 158
DRAW_ACTION = 211
TRUMP_BASE = 212
NUM_ACTIONS = 264
JOKER_BIT = 1 << JOKER_CARD

KINDS = (
    "play", "cover", "pass", "joker", "place", "swap", "cut", "burst", "leave", "give", "draw",
)  # fmt: skip
_KIND = {k: i for i, k in enumerate(KINDS)}


# -- actions ---------------------------------------------------------------------------------
def to_dense(action: int) -> int:
    """The index in the shared action space of a player's action in paiqi's numbering (a
    draw as the log names it, ``DRAW_CARD + c``, is the draw the player chose: the card is
    chance's)."""
    if 0 <= action < JOKER_CARD:
        return action
    if COVER <= action <= COVER + JOKER_CARD:
        return COVER_BASE + action - COVER
    if action == PASS:
        return PASS_ACTION
    if DRAW <= action < DRAW_CARD + JOKER_CARD:
        return DRAW_ACTION
    if GIVE <= action <= GIVE + JOKER_CARD:
        return GIVE_BASE + action - GIVE
    if action >= TRUMP:
        return TRUMP_BASE + (action - TRUMP) // 64
    if action >= JOKER:
        return JOKER_BASE + (action - JOKER) // 64
    raise ValueError(f"{action_text(action)} is not a player's action")


def dense_legal(legal: Sequence[int]) -> list[int]:
    """The shared-space indices of legal actions (sorted, as the engine's are)."""
    return [to_dense(a) for a in legal]


def engine_action(legal: Sequence[int], index: int) -> int:
    """The action in paiqi's numbering that index ``index`` names among ``legal`` (the legal
    actions of the state); IllegalAction when it names none of them."""
    if not 0 <= index < NUM_ACTIONS:
        raise IllegalAction(f"{index} is not an action (the actions are 0..{NUM_ACTIONS - 1})")
    if index < COVER_BASE:
        action = index
    elif index < PASS_ACTION:
        action = COVER + index - COVER_BASE
    elif index == PASS_ACTION:
        action = PASS
    elif index == DRAW_ACTION:
        action = DRAW
    elif index >= TRUMP_BASE:
        low = TRUMP + 64 * (index - TRUMP_BASE)
        action = next((a for a in legal if low <= a < low + 64), -1)
    elif index >= GIVE_BASE:
        action = GIVE + index - GIVE_BASE
    else:
        low = JOKER + 64 * (index - JOKER_BASE)
        action = next((a for a in legal if low <= a < low + 64), -1)
    if action not in legal:
        raise IllegalAction(f"{index_text(index)} (action {index}) is not legal now")
    return action


def index_text(index: int) -> str:
    """The text of an action index without a state: ``H7``, ``cover HK``, ``pass``,
    ``joker at H8`` (the card played beyond the joker depends on the table), ``give H5``,
    ``draw``, ``trump at H8`` (the trump of that rank laid in that place)."""
    if 0 <= index < COVER_BASE:
        return card_text(index)
    if index < PASS_ACTION:
        return "cover " + card_text(index - COVER_BASE)
    if index == PASS_ACTION:
        return "pass"
    if JOKER_BASE <= index < GIVE_BASE:
        return "joker at " + card_text(index - JOKER_BASE)
    if GIVE_BASE <= index < DRAW_ACTION:
        return "give " + card_text(index - GIVE_BASE)
    if index == DRAW_ACTION:
        return "draw"
    if TRUMP_BASE <= index < NUM_ACTIONS:
        return "trump at " + card_text(index - TRUMP_BASE)
    raise ValueError(f"{index} is not an action index")


# -- bit masks to arrays -----------------------------------------------------------------------
_BYTE_BITS = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)


def unpack(masks: Sequence[int]) -> np.ndarray:
    """Card masks as rows of 53 zeros and ones (one row per mask; entry 52: any joker)."""
    raw = b"".join([one_joker(m).to_bytes(7, "little") for m in masks])
    return _BYTE_BITS[np.frombuffer(raw, np.uint8)].reshape(len(masks), 56)[:, :CARD_SLOTS]


def unpack_copies(masks: Sequence[int], twice: Sequence[int], thrice: Sequence[int]) -> np.ndarray:
    """Hands of several decks as rows of 53 counts: row ``i`` counts the copies of each card
    in the planes ``masks[i]`` (held at least once; entry 52: any joker), ``twice[i]`` and
    ``thrice[i]`` (held at least twice, three times), as ``unpack`` with one deck."""
    rows = unpack(masks)
    if any(twice):
        rows = rows + unpack(twice) + unpack(thrice)
    return rows


# -- layouts -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Section:
    """A named part of a tensor: where it starts, its shape and size."""

    name: str
    shape: tuple[int, ...]
    offset: int

    @property
    def size(self) -> int:
        """Entries in the section."""
        return int(np.prod(self.shape))


CARD_SECTIONS = ("hand", "table", "joker_place", "laid", "covered", "door_card", "face_up")
FLAG_SECTIONS = ("to_move", "finished", "burst", "left")
COUNT_SECTIONS = ("hand_counts", "covered_counts", "passes")  # n each, then the stock (1)
# a byte's eight bits, lowest first, as eight float32 (observations) or int8 (masks) values
_FLOAT_BYTES = [_BYTE_BITS[b].tobytes() for b in range(256)]
_MASK_BYTES = [_BYTE_BITS[b].astype(np.int8).tobytes() for b in range(256)]


def _dense_bit(action: int) -> int:
    """``1 << to_dense(action)``, inlined for the masks."""
    if action < COVER:
        return 1 << action
    if action < PASS:
        return 1 << (action - COVER + COVER_BASE)
    if action == PASS:
        return 1 << PASS_ACTION
    if action < GIVE:
        return 1 << DRAW_ACTION
    if action < JOKER:
        return 1 << (action - GIVE + GIVE_BASE)
    if action >= TRUMP:
        return 1 << (TRUMP_BASE + (action - TRUMP) // 64)
    return 1 << (JOKER_BASE + (action - JOKER) // 64)


def legal_mask(legal: Sequence[int]) -> np.ndarray:
    """The ``int8`` mask over the shared actions of the legal actions (paiqi's numbering)."""
    bits_ = 0
    for action in legal:
        bits_ |= _dense_bit(action)
    raw = b"".join(map(_MASK_BYTES.__getitem__, bits_.to_bytes(-(-NUM_ACTIONS // 8), "little")))
    return np.frombuffer(bytearray(raw[:NUM_ACTIONS]), np.int8)


DEALT_PLANES = (L.DEALT, L.DEALT_TWICE, L.DEALT_THRICE)  # a hand as dealt, copies and all


class Layout:
    """The sections of the observation tensor of a game of ``players`` seats, and of the
    information-state tensor when ``history`` (rows of moves and events) is given; ``decks``
    (``deck.decks``) bounds the counts of copies in the ``hand`` and ``table`` sections.

    The zero-or-one sections come first and are written with one conversion of a bit
    string (with several decks, the copies beyond the first are added after); the counts
    follow."""

    def __init__(self, players: int, history: int = 0, decks: int = 1) -> None:
        n = self.players = players
        self.decks = decks
        shapes: list[tuple[str, tuple[int, ...]]] = [
            (name, (CARD_SLOTS,)) for name in CARD_SECTIONS
        ]
        shapes += [("opened", (4, 4)), ("seat", (n,))]
        shapes += [(name, (n,)) for name in FLAG_SECTIONS]
        self.flag_size = sum(int(np.prod(s)) for _, s in shapes)
        shapes += [(name, (n,)) for name in COUNT_SECTIONS]
        shapes += [("stock", (1,))]
        self.observation_size = sum(int(np.prod(s)) for _, s in shapes)
        self.history_rows = history
        self.row_width = n + len(KINDS) + 2 * CARD_SLOTS
        if history:
            shapes += [("dealt", (CARD_SLOTS,)), ("history", (history, self.row_width))]
        sections, offset = [], 0
        for name, shape in shapes:
            sections.append(Section(name, shape, offset))
            offset += int(np.prod(shape))
        self.sections: tuple[Section, ...] = tuple(sections)
        self.size = offset
        self.at = {s.name: s.offset for s in sections}
        self.state_size = self.observation_size + 2 * n * CARD_SLOTS  # the global state
        self._flag_bytes = -(-self.flag_size // 8)
        self._pack = struct.Struct(f"={3 * n + 1}f").pack

    def views(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Named views (reshaped, sharing memory) of the sections of ``tensor``."""
        return {
            s.name: tensor[s.offset : s.offset + s.size].reshape(s.shape) for s in self.sections
        }

    def bounds(
        self, hand: int, covers: int, passes: float, stock: int = 1
    ) -> tuple[np.ndarray, np.ndarray]:
        """Lowest and highest value of every entry of the observation: indicators 0..1, the
        copies of each card in the hand and on the table up to ``decks``, hand and cover
        counts up to ``hand`` and ``covers``, pass counts up to ``passes`` (may be
        infinite), the stock's count up to ``stock``."""
        low = np.zeros(self.observation_size, np.float32)
        high = np.ones(self.observation_size, np.float32)
        n = self.players
        for name in ("hand", "table"):
            high[self.at[name] : self.at[name] + 52] = self.decks
        high[self.at["hand_counts"] : self.at["hand_counts"] + n] = hand
        high[self.at["covered_counts"] : self.at["covered_counts"] + n] = covers
        high[self.at["passes"] : self.at["passes"] + n] = passes
        high[self.at["stock"]] = stock
        return low, high

    def state_bounds(self, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Lowest and highest value of every entry of the global state, from those of the
        observation (``bounds``): the copies of each card in every seat's hand up to
        ``decks``, 0..1 for the covered cards."""
        n = self.players
        hands = np.ones((n, CARD_SLOTS), np.float32)
        hands[:, :52] = self.decks
        return (
            np.concatenate([low, np.zeros(2 * n * CARD_SLOTS, np.float32)]),
            np.concatenate([high, hands.ravel(), np.ones(n * CARD_SLOTS, np.float32)]),
        )

    def __reduce__(self) -> tuple[type[Layout], tuple[int, int, int]]:
        """Made again from its size (its packer of counts is not picklable)."""
        return (Layout, (self.players, self.history_rows, self.decks))

    def __deepcopy__(self, memo: dict[int, object]) -> Layout:
        """Shared: a layout never changes."""
        return self

    # -- writing ------------------------------------------------------------------------------
    def observation(self, state: State, seat: int, private: bool = True) -> np.ndarray:
        """A new observation tensor of ``seat`` (without its own cards unless ``private``)."""
        out = np.frombuffer(bytearray(self._raw(state, seat, private)), np.float32)
        self._copies(out, state, seat, private)
        return out

    def write_observation(
        self, out: np.ndarray, state: State, seat: int, private: bool = True
    ) -> None:
        """Fill the first ``observation_size`` entries of ``out`` with what ``seat`` sees of
        ``state``: only public facts and the seat's own cards (left out unless ``private``)."""
        out[: self.observation_size] = np.frombuffer(self._raw(state, seat, private), np.float32)
        self._copies(out, state, seat, private)

    def _copies(self, out: np.ndarray, state: State, seat: int, private: bool) -> None:
        """Add the copies beyond the first (several decks) to the ``hand`` (if ``private``)
        and ``table`` sections of the observation in ``out``, which count them."""
        st = state.st
        if not st[L.TABLE_TWICE] and not (private and st[L.TWICE + seat]):
            return  # one copy of each card at most (always so with one deck)
        table, hand = self.at["table"], self.at["hand"]
        planes = [(table, st[L.TABLE_TWICE]), (table, st[L.TABLE_THRICE])]
        if private:
            planes += [(hand, st[L.TWICE + seat]), (hand, st[L.THRICE + seat])]
        np.add.at(out, [at + c for at, plane in planes for c in bits(plane)], 1)

    def _raw(self, state: State, seat: int, private: bool) -> bytes:
        """The observation as the bytes of its float32 entries: the zero-or-one sections as
        one bit string, expanded a byte at a time, then the counts."""
        n = self.players
        # the sections after the cards, as bits counted from the end of the cards
        tail = 0
        for k, suit in enumerate(state.opened):
            tail |= 1 << (4 * suit + k)
        tail |= 1 << (16 + seat)
        if not state.over:
            tail |= 1 << (16 + n + (state.turn - seat) % n)
        o = 16 + n
        for group in (state.finished, state.bursts, state.left):
            o += n
            for s in group:
                tail |= 1 << (o + (s - seat) % n)
        laid = 0
        for hand in state.laid:
            laid |= hand
        cards = state.table << 53 | one_joker(laid) << 159
        places = state.jokers_at
        if places:
            cards |= 1 << (53 + JOKER_CARD) | places << 106
        cards |= state.trumped << 106  # places held by a trump of another suit
        if private:
            cards |= one_joker(state.hands[seat]) | one_joker(state.covered[seat]) << 212
        if state.door_card is not None:
            cards |= 1 << (265 + state.door_card)
        cards |= state.pool << 318
        flags = cards | tail << 371
        held = state.hand_counts()  # every copy counted
        covered = [c.bit_count() for c in state.covered]
        passes = state.passes
        counts = self._pack(
            *held[seat:], *held[:seat], *covered[seat:], *covered[:seat], *passes[seat:],
            *passes[:seat], state.stock.bit_count(),
        )  # fmt: skip
        expanded = b"".join(
            map(_FLOAT_BYTES.__getitem__, flags.to_bytes(self._flag_bytes, "little"))
        )
        return expanded[: 4 * self.flag_size] + counts

    def write_information_state(
        self, out: np.ndarray, state: State, seat: int, private: bool = True
    ) -> None:
        """Fill ``out`` with the observation, the hand ``seat`` was dealt and the rows of its
        history (its own cards and covers left out unless ``private``)."""
        self.write_observation(out, state, seat, private)
        obs = state.observation(seat)
        if not private:
            obs = public_only(obs)
        o = self.at["dealt"]
        if private:
            st = state.st
            dealt = [[st[at + seat]] for at in DEALT_PLANES]
            out[o : o + CARD_SLOTS] = unpack_copies(*dealt)[0]
        else:
            out[o : o + CARD_SLOTS] = 0
        start = self.at["history"]
        out[start:] = 0
        rows = history_rows(obs)
        if len(rows) > self.history_rows:
            raise ValueError(
                f"{len(rows)} moves and events exceed the {self.history_rows} rows of the "
                "information-state tensor"
            )
        n, width = self.players, self.row_width
        kind0, card0, place0 = n, n + len(KINDS), n + len(KINDS) + CARD_SLOTS
        ones: list[int] = []
        for i, (s, kind, cards, place) in enumerate(rows):
            base = start + i * width
            ones.append(base + (s - seat) % n)
            ones.append(base + kind0 + kind)
            ones.extend(base + card0 + c for c in bits(one_joker(cards)))
            if place is not None:
                ones.append(base + place0 + place)
        out[ones] = 1


def public_only(obs: Observation) -> Observation:
    """``obs`` without the seat's own cards (what every seat knows of it)."""
    return obs._replace(
        hand_mask=0, hand_copies=(0, 0), covered_mask=0, cover_order=(), handed=(), drawn=(),
        legal=(),
    )  # fmt: skip


def history_rows(obs: Observation) -> list[tuple[int, int, int, int | None]]:
    """The history as ``obs.seat`` remembers it: (seat, kind index, card mask, joker place)
    per move or event; the seat's own covers and draws show their cards, cards handed on
    show theirs to the giver and the taker, bursts the hands laid."""
    laid = iter(obs.laid)
    rows: list[tuple[int, int, int, int | None]] = []
    for seat, a, card, _ in obs.remembered():
        known = 0 if card is None else 1 << card  # (a hidden card this seat knows)
        if GIVE <= a < GIVE + 64:
            rows.append((seat, 9, known, None))
        elif a < JOKER_CARD:
            rows.append((seat, 0, 1 << a, None))
        elif COVER <= a < PASS:
            rows.append((seat, 1, known, None))
        elif a == PASS:
            rows.append((seat, 2, 0, None))
        elif DRAW <= a < GIVE:
            rows.append((seat, 10, known, None))
        elif a >= TRUMP:  # a play, with the place of another suit that the trump took
            x, y = divmod(a - TRUMP, 64)
            rows.append((seat, 0, 1 << y, x))
        elif a >= JOKER:
            x, y = divmod(a - JOKER, 64)
            rows.append((seat, 3, 1 << y, x))
        elif PLACE <= a < PLACE + 52:
            rows.append((seat, 4, 1 << (a - PLACE), None))
        elif SWAP <= a < SWAP + 52:
            rows.append((seat, 5, 1 << (a - SWAP), None))
        elif CUT <= a < CUT + 4:
            rows.append((seat, 6, 0, None))
        elif a == BURST:
            rows.append((seat, 7, next(laid), None))
        elif a == LEAVE:
            rows.append((seat, 8, 0, None))
        else:  # pragma: no cover - every logged action is one of the above
            raise ValueError(f"unknown entry {a} in the history")
    return rows


# -- text --------------------------------------------------------------------------------------
_CARD_TEXT = [card_text(c) for c in range(CARDS)]


def _cards(mask: int) -> str:
    return " ".join([_CARD_TEXT[c] for c in bits(mask)]) or "-"


def _card_list(cards: Sequence[int]) -> str:
    """Cards given as numbers with their repeats (several decks): ``H7 H7 H8``."""
    return " ".join([_CARD_TEXT[c] for c in cards]) or "-"


def observation_text(obs: Observation) -> str:
    """What ``obs`` shows, in one line per part (no history)."""
    laid = 0
    for hand in obs.laid:
        laid |= hand
    to_move = f"seat {obs.turn} to move" + (", the card just drawn fits" if obs.drew else "")
    lines = [
        f"seat {obs.seat}; " + ("game over" if obs.terminal else to_move),
        "hand: " + _card_list(obs.hand),  # (a card held twice, twice)
        "table: " + _card_list([c for c in obs.table if not obs.jokers_at >> c & 1]),
    ]
    if obs.jokers_at:
        lines.append("joker at: " + _cards(obs.jokers_at))
    if obs.pool_mask:
        lines.append("face up: " + _cards(obs.pool_mask))
    if obs.stock:
        lines.append(f"stock: {obs.stock} cards")
    if laid:
        lines.append("laid by bursts: " + _cards(laid))
    if obs.covered_mask:
        lines.append("covered by me: " + _cards(obs.covered_mask))
    if obs.door_card is not None:
        lines.append("door card: " + card_text(obs.door_card))
    lines.append("opened: " + (" ".join(SUITS[s] for s in obs.opened) or "-"))
    lines.append("held: " + " ".join(map(str, obs.hand_counts)))
    lines.append("covered: " + " ".join(map(str, obs.covered_counts)))
    lines.append("passes: " + " ".join(map(str, obs.pass_counts)))
    for name, seats in (("finished", obs.finished), ("burst", obs.bursts), ("left", obs.left)):
        if seats:
            lines.append(f"{name}: " + " ".join(map(str, seats)))
    return "\n".join(lines)


def _move_texts() -> dict[int, str]:
    """The text of every action and event as the table sees it (joker moves are added as
    they are met)."""
    texts = {PASS: "pass", HIDDEN_COVER: "cover", HIDDEN_GIVE: "give", BURST: "burst"}
    texts[LEAVE] = "leave"
    texts[DRAW] = "draw"
    for c in range(52):
        texts[c] = card_text(c)
        texts[PLACE + c] = "place " + card_text(c)
        texts[SWAP + c] = "swap " + card_text(c)
    for suit in range(4):
        texts[CUT + suit] = "cut " + SUITS[suit]
    return texts


_MOVE_TEXT = _move_texts()


def information_state_text(obs: Observation, dealt: int | Sequence[int]) -> str:
    """What seat ``obs.seat`` knows: its hand as dealt (a card mask, or the cards with their
    repeats: ``State.dealt_cards``), the door card, and every move and event in order (its
    own covers and draws with their cards, the cards it handed on or took, bursts with the
    hands laid)."""
    shown = _cards(dealt) if isinstance(dealt, int) else _card_list(dealt)
    head = f"seat {obs.seat}; dealt: {shown}"
    if obs.door_card is not None:
        head += f"; door card: {card_text(obs.door_card)}"
    laid = iter(obs.laid)
    texts = _MOVE_TEXT
    moves = []
    for seat, a, card, _ in obs.remembered():
        text = texts.get(a)
        if text is None:  # a joker move: "joker H8 H9"
            text = texts[a] = action_text(a)
        elif card is not None:  # a hidden cover, give or draw whose card this seat knows
            text = f"{text} {_CARD_TEXT[card]}"
        elif a == BURST:
            text = "burst " + _cards(next(laid))
        moves.append(f"{seat}:{text}")
    return head + "\n" + " ".join(moves)


def state_text(state: State) -> str:
    """Every hand and the table: the whole state, for debugging (it shows hidden cards)."""
    lines = [repr(state)]
    for seat in range(state.players):
        covered = state.covered[seat]
        extra = f" | covered {_cards(covered)}" if covered else ""
        lines.append(f"seat {seat}: {_card_list(state.held(seat))}{extra}")
    if state.stock:
        lines.append("stock: " + _cards(state.stock))
    lines.append("moves: " + " ".join(f"{s}:{action_text(a)}" for s, a in state.log))
    return "\n".join(lines)


__all__ = [
    "COVER_BASE",
    "DRAW_ACTION",
    "GIVE_BASE",
    "JOKER_BASE",
    "NUM_ACTIONS",
    "PASS_ACTION",
    "TRUMP_BASE",
    "Layout",
    "dense_legal",
    "engine_action",
    "index_text",
    "information_state_text",
    "legal_mask",
    "observation_text",
    "public_only",
    "state_text",
    "to_dense",
]
