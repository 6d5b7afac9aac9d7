"""The game engine: an immutable Game (compiled rules) and a mutable State.

``Game`` is built once from a Profile: hook functions are picked from the registries and
the rank topology is compiled to a lookup table, so the move loop never consults the
profile. ``State`` holds hands and the table as int bitmasks; legal plays are one AND of
the hand with the table's frontier (the playable extensions of every row).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paiqi_core import hooks
from paiqi_core.actions import (
    BURST,
    COVER,
    CUT,
    JOKER,
    LEAVE,
    PASS,
    PLACE,
    SWAP,
    action_text,
    is_event,
    joker_action,
    joker_parts,
    kind,
    parse_action,
)
from paiqi_core.cards import JOKER as JOKER_CARD
from paiqi_core.cards import SEVEN, SUIT_MASK, bits, card_text, full_deck, mask_of
from paiqi_core.outcome import PlayerOutcome, Result
from paiqi_core.playout import below, compile_playout
from paiqi_core.profile import Profile, load_profile
from paiqi_core.seeds import shuffled
from paiqi_core.topology import compile_topology

FULL_SUIT = SUIT_MASK
BITS = tuple(1 << c for c in range(53))
JOKER_BIT = 1 << JOKER_CARD
SUITED = JOKER_BIT - 1


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


@dataclass(frozen=True)
class Observation:
    """What one seat may see: its own hand, the table, and public counts only."""

    seat: int
    hand: tuple[int, ...]
    table: tuple[int, ...]
    turn: int
    hand_counts: tuple[int, ...]
    covered_counts: tuple[int, ...]
    pass_counts: tuple[int, ...]
    own_covered: tuple[int, ...]
    opened: tuple[int, ...]  # suits in the order their 7 was played
    finished: tuple[int, ...]  # seats in the order they emptied their hands
    bursts: tuple[int, ...]  # seats in the order they burst (their hands lie on the table)
    joker_at: int | None  # the place the joker holds on the table, if it lies there
    history: tuple[tuple[int, str], ...]  # (seat, action text) with covered cards hidden
    legal: tuple[int, ...]  # legal actions if it is this seat's turn, else empty
    terminal: bool


class Game:
    """Compiled rules of one profile (with its overrides)."""

    def __init__(self, profile: Profile | str, overrides: Sequence[str] | Mapping[str, Any] = ()):
        if not isinstance(profile, Profile):
            profile = load_profile(profile, overrides)
        elif overrides:
            raise ValueError("pass overrides when loading the profile")
        self.profile = profile
        self.players: int = profile.get("players")
        self.deck: tuple[int, ...] = tuple(full_deck(profile.get("deck.jokers")))
        topo = compile_topology(
            profile.get("layout.ace"), profile.get("layout.ends"), profile.get("layout.ace_king")
        )
        self.topology = topo
        self.extensions = topo.extensions
        self.empty_frontier = sum(topo.extensions[0] << (13 * suit) for suit in range(4))
        self.opening = hooks.lookup("opening", profile.get("opening.method")).factory(
            profile.section("opening")
        )
        self.stuck = hooks.lookup("stuck", profile.get("turn.stuck")).factory(
            profile.section("turn")
        )
        self.must_play: bool = profile.get("turn.must_play")
        self.jokers: int = profile.get("deck.jokers")
        self.ending = hooks.lookup("ending", profile.get("ending.method")).factory(
            profile.section("ending")
        )
        self.playout = compile_playout(self)
        self.scorer = hooks.lookup("scoring", profile.get("scoring.method")).factory(
            profile.section("scoring")
        )

    @property
    def id(self) -> str:
        return self.profile.id

    def deal(self, seed: int) -> list[list[int]]:
        """Shuffle with ``seed`` and deal round-robin from seat 0 (the dealer's left)."""
        deck = shuffled(self.deck, random.Random(seed))
        n = self.players
        return [sorted(deck[i::n]) for i in range(n)]

    def _cut_door(self, deck: Sequence[int], rng: random.Random) -> int | None:
        """The door card, cut from the shuffled deck with the deal's stream, if used."""
        return deck[below(rng, len(deck))] if self.opening.uses_door_card else None

    def door_card_of(self, seed: int) -> int | None:
        """The door card that the deal of ``seed`` cuts (None if this game cuts none)."""
        rng = random.Random(seed)
        return self._cut_door(shuffled(self.deck, rng), rng)

    def new_state(
        self,
        seed: int | None = None,
        hands: Sequence[Sequence[int]] | None = None,
        door_card: int | None = None,
    ) -> State:
        """A new game: dealt from ``seed``, or with the given hands (card numbers by seat).

        Profiles that cut a door card before play draw it from the deal's stream, after the
        shuffle, unless ``door_card`` is given. A dealt state keeps that stream as
        ``state.rng``: the stream its simulated agents draw from."""
        n = self.players
        if hands is None:
            if seed is None:
                raise ValueError("give a seed or the hands")
            rng = random.Random(seed)
            deck = shuffled(self.deck, rng)
            cut = self._cut_door(deck, rng)
            door_card = cut if door_card is None else door_card
            bit = BITS.__getitem__
            masks = [sum(map(bit, deck[s::n])) for s in range(n)]
            state = State(self, masks, seed=seed, door_card=door_card)
            state.rng = rng
            return state
        if len(hands) != n:
            raise ValueError(f"{self.profile.id} is played by {n}, not {len(hands)}")
        if door_card is None and seed is not None:
            door_card = self.door_card_of(seed)
        return State(self, [mask_of(h) for h in hands], seed=seed, door_card=door_card)


class State:
    """A game in progress. Drive it with ``legal_actions()`` and ``apply()``."""

    __slots__ = (
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
        "hand_sizes",
        "hands",
        "joker_at",
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
    ) -> None:
        n = game.players
        self.game = game
        self.seed = seed
        self.rng: random.Random | None = None
        self.door_card = door_card
        self.hands = list(hands)
        self.dealt = tuple(hands)
        self.hand_sizes = [h.bit_count() for h in hands]
        self.covered = [0] * n
        self.played = [0] * n
        self.actions = [0] * n  # actions taken by seat: plays, covers, passes, joker plays
        self.passes = [0] * n
        self.last_play: list[int | None] = [None] * n
        self.completions: list[list[int]] = [[] for _ in range(n)]
        self.opened: list[int] = []
        self.finished: list[int] = []  # emptied their hands, in order
        self.bursts: list[int] = []  # burst, in order
        self.left: list[int] = []  # left holding only the joker
        self.joker_at: int | None = None
        self.log: list[tuple[int, int]] = []
        self.over = False
        self.started = table != 0
        start = game.opening.start(self.hands, door_card)
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
            if self._ended():  # every way to end a game needs an empty hand
                self.over = True
                return
        if not self.hands[self.turn] or self._bursts_now(self.turn):
            self._advance()

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
        extension in the same direction) is played from the hand in the same turn."""
        hand = self.hands[self.turn]
        if not hand & JOKER_BIT or (not self.started and self.first_card is not None):
            return []
        ext = self.game.extensions
        out = []
        for x in bits(self.frontier & ~hand):
            shift = 13 * (x // 13)
            row = (self.table >> shift) & FULL_SUIT
            xr = 1 << (x - shift)
            beyond = ext[row | xr] & ~ext[row] & ~xr
            if beyond and not beyond & (beyond - 1):  # exactly one card beyond X
                y = shift + beyond.bit_length() - 1
                if hand >> y & 1:
                    out.append(joker_action(x, y))
        return out

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        hand = self.hands[self.turn]
        used = self.passes[self.turn]
        stuck = self.game.stuck
        acts = list(bits(self.plays()))
        if self.game.jokers:
            acts += self.joker_plays()
        if not acts:
            return stuck.actions(hand, used)
        opening_card = not self.started and self.first_card is not None
        if not self.game.must_play and not opening_card:  # the opening card is compulsory
            acts += stuck.voluntary(hand, used)
        return acts

    def _bursts_now(self, seat: int) -> bool:
        """Whether ``seat``, to move, has nothing at all to do (out of passes and stuck)."""
        if not self.game.stuck.may_burst:
            return False
        if self.turn != seat:
            raise ValueError("only the player to move can burst")
        return not self.legal_actions()

    def why_illegal(self, action: int, seat: int | None = None) -> str | None:
        """None when ``action`` is legal for the player to move, else the reason."""
        if self.over:
            return "the game is over"
        if seat is not None and seat != self.turn:
            return f"not your turn: seat {self.turn} is to move"
        legal = self.legal_actions()
        if action in legal:
            return None
        if is_event(action):
            return f"{action_text(action)} is not an action: it happens by itself"
        hand = self.hands[self.turn]
        k = kind(action)
        if k == "joker":
            return self._why_not_joker(action)
        card = action if k == "play" else action - COVER
        if k != "pass" and not (0 <= card <= JOKER_CARD and hand >> card & 1):
            shown = card_text(card) if 0 <= card <= JOKER_CARD else str(card)
            return f"{shown} is not in seat {self.turn}'s hand"
        if k == "play":
            first = self.first_card
            if card == JOKER_CARD:
                return "not legal: the joker is never played alone"
            if not self.started and first is not None:
                return f"not legal: the first card of the game must be {card_text(first)}"
            return f"{card_text(card)} is not legal: it does not extend a row"
        can = ", ".join(action_text(a) for a in legal if kind(a) in ("play", "joker"))
        limit = self.game.stuck.limit
        out_of_passes = limit is not None and self.passes[self.turn] >= limit
        if k == "pass" and out_of_passes:
            if can:
                return f"must play when able: no passes left while {can} can be played"
            return f"no passes left ({limit} a game)"
        if can and not self.started and self.first_card is not None:
            return f"must play when able: the game opens with {card_text(self.first_card)}"
        if can and (self.game.must_play or out_of_passes):
            what = action_text(action)
            return f"must play when able: {what} is not allowed while {can} can be played"
        return f"{k} is not allowed in this game (a stuck player must {self.game.stuck.name})"

    def _why_not_joker(self, action: int) -> str:
        at, card = joker_parts(action)
        hand = self.hands[self.turn]
        if not hand & JOKER_BIT:
            return f"seat {self.turn} does not hold the joker"
        if not 0 <= card < JOKER_CARD or not hand >> card & 1:
            return f"not legal: {card_text(card)} is not in seat {self.turn}'s hand"
        if 0 <= at < JOKER_CARD and hand >> at & 1:
            return f"not legal: the joker may not take the place of {card_text(at)}, which you hold"
        if not (0 <= at < JOKER_CARD and self.frontier >> at & 1):
            return f"not legal: {card_text(at)} is not a legal extension for the joker"
        return (
            f"not legal: {card_text(card)} is not the card just beyond {card_text(at)} "
            "(nothing lies beyond the end of a row)"
        )

    def is_terminal(self) -> bool:
        return self.over

    def current_seat(self) -> int:
        return self.turn

    # -- moves ---------------------------------------------------------------------
    def apply(self, action: int | str, seat: int | None = None) -> None:
        """Apply a legal action (int or text like 'H7', 'cover HK', 'pass', 'joker H8 H9')."""
        a = parse_action(action) if isinstance(action, str) else action
        reason = self.why_illegal(a, seat)
        if reason is not None:
            raise IllegalAction(reason)
        self.apply_unchecked(a)

    def apply_unchecked(self, action: int) -> None:
        seat = self.turn
        self.log.append((seat, action))
        self.actions[seat] += 1
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
        if self._ended():
            self.over = True
        else:
            self._advance()

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
        """Update a suit's extensions after ``seat`` added to its row; credit a closure."""
        shift = 13 * suit
        row = (self.table >> shift) & FULL_SUIT
        ext = self.game.extensions[row]
        self.frontier = (self.frontier & ~(FULL_SUIT << shift)) | (ext << shift)
        if not ext:  # the suit is closed: complete, or cut at an end of its line (斬龍)
            self.completions[seat].append(self.opened.index(suit) + 1)
            if row != FULL_SUIT:
                self.log.append((seat, CUT + suit))

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
        laid = self.hands[seat] & SUITED
        self.hands[seat] = 0
        self.bursts.append(seat)
        self._set_table(self.table | laid)

    def _ended(self) -> bool:
        mode = self.game.ending.mode
        if mode == "first_out":
            return bool(self.finished)
        holders = sum(1 for h in self.hands if h)
        return holders <= 1 if mode == "one_left" else holders == 0

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
            if self._ended():
                self.over = True
                return
        self.over = True

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with every seat choosing uniformly among its sorted legal
        actions: the same choices as ``RandomAgent`` sharing ``rng``, only faster."""
        self.game.playout(self, rng)

    # -- results -------------------------------------------------------------------
    def outcomes(self) -> list[PlayerOutcome]:
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
        return self.game.scorer(self.outcomes() if outcomes is None else outcomes)

    def observation(self, seat: int) -> Observation:
        history = tuple(
            (s, "cover" if (COVER <= a < PASS and s != seat) else action_text(a))
            for s, a in self.log
        )
        return Observation(
            seat=seat,
            hand=tuple(bits(self.hands[seat])),
            table=tuple(bits(self.table)),
            turn=self.turn,
            hand_counts=tuple(h.bit_count() for h in self.hands),
            covered_counts=tuple(c.bit_count() for c in self.covered),
            pass_counts=tuple(self.passes),
            own_covered=tuple(bits(self.covered[seat])),
            opened=tuple(self.opened),
            finished=tuple(self.finished),
            bursts=tuple(self.bursts),
            joker_at=self.joker_at,
            history=history,
            legal=tuple(self.legal_actions()) if seat == self.turn and not self.over else (),
            terminal=self.over,
        )

    def hand_counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def __repr__(self) -> str:
        rows = " ".join(card_text(c) for c in bits(self.table))
        return f"<State {self.game.id} turn={self.turn} over={self.over} table=[{rows}]>"
