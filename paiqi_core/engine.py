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
from paiqi_core.actions import COVER, CUT, PASS, action_text, is_event, kind, parse_action
from paiqi_core.cards import SEVEN, SUIT_MASK, bits, card_text, full_deck, mask_of
from paiqi_core.outcome import PlayerOutcome, Result
from paiqi_core.playout import below, compile_playout
from paiqi_core.profile import Profile, load_profile
from paiqi_core.seeds import shuffled
from paiqi_core.topology import compile_topology

FULL_SUIT = SUIT_MASK
BITS = tuple(1 << c for c in range(53))


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
        self.deck: tuple[int, ...] = tuple(full_deck())
        topo = compile_topology(profile.get("layout.ace"), profile.get("layout.ends"))
        self.extensions = topo.extensions
        self.empty_frontier = sum(topo.extensions[0] << (13 * suit) for suit in range(4))
        self.opening = hooks.lookup("opening", profile.get("opening.method")).factory(
            profile.section("opening")
        )
        self.stuck = hooks.lookup("stuck", profile.get("turn.stuck")).factory(
            profile.section("turn")
        )
        self.must_play: bool = profile.get("turn.must_play")
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
            if self.opening.uses_door_card and door_card is None:
                door_card = deck[below(rng, len(deck))]
            bit = BITS.__getitem__
            masks = [sum(map(bit, deck[s::n])) for s in range(n)]
            state = State(self, masks, seed=seed, door_card=door_card)
            state.rng = rng
            return state
        if len(hands) != n:
            raise ValueError(f"{self.profile.id} is played by {n}, not {len(hands)}")
        if self.opening.uses_door_card and door_card is None and seed is not None:
            rng = random.Random(seed)
            deck = shuffled(self.deck, rng)
            door_card = deck[below(rng, len(deck))]
        return State(self, [mask_of(h) for h in hands], seed=seed, door_card=door_card)


class State:
    """A game in progress. Drive it with ``legal_actions()`` and ``apply()``."""

    __slots__ = (
        "completions", "covered", "dealt", "door_card", "finished", "first_card", "frontier",
        "game", "hand_sizes", "hands", "last_play", "log", "opened", "over", "passes",
        "played", "rng", "seed", "started", "table", "turn",
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
    ) -> None:
        n = game.players
        self.game = game
        self.seed = seed
        self.rng: random.Random | None = None
        self.door_card = door_card
        self.hands = list(hands)
        self.dealt = tuple(hands)
        self.hand_sizes = [h.bit_count() for h in hands]
        self.table = 0
        self.frontier = 0
        self.covered = [0] * n
        self.played = [0] * n
        self.passes = [0] * n
        self.last_play: list[int | None] = [None] * n
        self.completions: list[list[int]] = [[] for _ in range(n)]
        self.opened: list[int] = []
        self.finished: list[int] = []
        self.log: list[tuple[int, int]] = []
        self.over = False
        self.started = table != 0
        if table:
            self.opened.extend(opened)
            self._set_table(table)
        else:
            self.table, self.frontier = 0, game.empty_frontier
        first_seat, self.first_card = game.opening.start(self.hands, door_card)
        self.turn = first_seat if turn is None else turn
        if not self.hands[self.turn]:
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

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        plays = self.plays()
        if plays:
            acts = list(bits(plays))
            if not self.game.must_play:
                acts += self.game.stuck.actions(self.hands[self.turn])
            return acts
        return self.game.stuck.actions(self.hands[self.turn])

    def why_illegal(self, action: int, seat: int | None = None) -> str | None:
        """None when ``action`` is legal for the player to move, else the reason."""
        if self.over:
            return "the game is over"
        if seat is not None and seat != self.turn:
            return f"not your turn: seat {self.turn} is to move"
        if action in self.legal_actions():
            return None
        if is_event(action):
            return f"{action_text(action)} is not an action: it happens by itself"
        hand = self.hands[self.turn]
        k = kind(action)
        card = action if k == "play" else action - COVER
        if k != "pass" and not (0 <= card < 52 and hand >> card & 1):
            return (
                f"{card_text(card) if 0 <= card <= 52 else card} is not in seat {self.turn}'s hand"
            )
        plays = self.plays()
        if k == "play":
            first = self.first_card
            if not self.started and first is not None:
                return f"not legal: the first card of the game must be {card_text(first)}"
            return f"{card_text(card)} is not legal: it does not extend a row"
        can = ", ".join(card_text(c) for c in bits(plays))
        if plays and self.game.must_play:
            what = action_text(action)
            return f"must play when able: {what} is not allowed while {can} can be played"
        return f"{k} is not allowed in this game (a stuck player must {self.game.stuck.name})"

    def is_terminal(self) -> bool:
        return self.over

    def current_seat(self) -> int:
        return self.turn

    # -- moves ---------------------------------------------------------------------
    def apply(self, action: int | str, seat: int | None = None) -> None:
        """Apply a legal action (int or text like 'H7', 'cover HK', 'pass')."""
        a = parse_action(action) if isinstance(action, str) else action
        reason = self.why_illegal(a, seat)
        if reason is not None:
            raise IllegalAction(reason)
        self.apply_unchecked(a)

    def apply_unchecked(self, action: int) -> None:
        seat = self.turn
        self.log.append((seat, action))
        if action == PASS:
            self.passes[seat] += 1
        elif action >= COVER:
            bit = 1 << (action - COVER)
            self.hands[seat] ^= bit
            self.covered[seat] |= bit
        else:
            self._play(seat, action)
        if not self.hands[seat]:
            self.finished.append(seat)
            if self.game.ending.at_first_out or len(self.finished) == self.game.players:
                self.over = True
                return
        self._advance()

    def _play(self, seat: int, card: int) -> None:
        bit = 1 << card
        self.hands[seat] ^= bit
        self.table |= bit
        self.played[seat] += 1
        self.started = True
        suit = card // 13
        shift = 13 * suit
        row = (self.table >> shift) & FULL_SUIT
        if card % 13 == SEVEN and suit not in self.opened:
            self.opened.append(suit)
        ext = self.game.extensions[row]
        self.frontier = (self.frontier & ~(FULL_SUIT << shift)) | (ext << shift)
        if not ext:  # the suit is closed: complete, or cut at an end of its line (斬龍)
            self.completions[seat].append(self.opened.index(suit) + 1)
            if row != FULL_SUIT:
                self.log.append((seat, CUT + suit))
        if not self.hands[seat]:
            self.last_play[seat] = card

    def _advance(self) -> None:
        n = self.game.players
        seat = self.turn
        for _ in range(n):
            seat = (seat + 1) % n
            if self.hands[seat]:
                self.turn = seat
                return
        self.over = True

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with every seat choosing uniformly among its sorted legal
        actions: the same choices as ``RandomAgent`` sharing ``rng``, only faster."""
        self.game.playout(self, rng)

    # -- results -------------------------------------------------------------------
    def outcomes(self) -> list[PlayerOutcome]:
        finish = {seat: i for i, seat in enumerate(self.finished)}
        return [
            PlayerOutcome(
                covered=tuple(bits(self.covered[s])),
                played=self.played[s],
                last_play=self.last_play[s],
                completions=tuple(self.completions[s]),
                finish=finish.get(s),
                passes=self.passes[s],
                hand_left=self.hands[s].bit_count(),
                hand_size=self.hand_sizes[s],
            )
            for s in range(self.game.players)
        ]

    def result(self) -> Result:
        if not self.over:
            raise ValueError("the game is not over")
        return self.game.scorer(self.outcomes())

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
            history=history,
            legal=tuple(self.legal_actions()) if seat == self.turn and not self.over else (),
            terminal=self.over,
        )

    def hand_counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def __repr__(self) -> str:
        rows = " ".join(card_text(c) for c in bits(self.table))
        return f"<State {self.game.id} turn={self.turn} over={self.over} table=[{rows}]>"
