"""A ``Game``: compiled rules plus the factory of their games (deals and states).

``Game`` reads ``Rules`` only. It pickles as its rules, and an unpickled game is the one
game of those rules in the receiving process, so states sent to other processes (Dask,
search workers, adapters) share their compiled tables there too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from paiqi_core.cards import CARDS, JOKER, hand_masks, planes
from paiqi_core.core import layout as L
from paiqi_core.core.plain import Beyond, RulesVector
from paiqi_core.engine.state import State
from paiqi_core.profile import Profile
from paiqi_core.rules import Rules, rules_of
from paiqi_core.seeds import shuffled
from paiqi_core.streams import GENERATOR, below, stream

BITS = tuple(1 << c for c in range(CARDS))


class Game:
    """The rules of one profile (with its overrides), compiled, and its games."""

    def __init__(
        self,
        rules: Rules | Profile | str,
        overrides: Sequence[str] | Mapping[str, Any] = (),
    ) -> None:
        if not isinstance(rules, Rules):
            rules = rules_of(rules, overrides)
        elif overrides:
            raise ValueError("pass overrides when loading the profile")
        self.rules = rules
        self.players = rules.players
        self.deck = rules.deck
        self.extensions = rules.topology.extensions
        # what the move loop asks, read once from the rules
        self.start = rules.opening.start
        self.is_over = rules.ending.over
        self.stuck = rules.stuck
        self.may_burst = rules.stuck.may_burst
        self.must_play = rules.must_play
        self.stall = rules.stall
        self.jokers = rules.jokers
        self.trumps = rules.profile.get("layout.trumps") == "last_dealt"  # the last card dealt
        # the cards dealt to the seats: all, so many each (deck.hand), or an even share
        # with the rest face up or in the stock
        self.dealt = len(self.deck)
        if rules.hand is not None:
            self.dealt = rules.hand * self.players
        elif rules.leftover != "dealt":
            self.dealt -= len(self.deck) % self.players
        self.score = rules.scoring.score
        # what the rule core reads: the rules vector, and the rows' extensions and joker
        # moves by row mask
        self.vector = RulesVector(rules)
        self.empty_frontier = int(self.vector[L.R_EMPTY_FRONTIER])  # what an empty table takes
        self.beyond = Beyond(rules)
        _GAMES.setdefault(id(rules), (rules, self))  # copies of its states come back to it

    @property
    def id(self) -> str:
        """The profile's id."""
        return self.rules.id

    def __repr__(self) -> str:
        return f"<Game {self.id}>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (game_of, (self.rules,))

    def deal(self, seed: int, generator: str = GENERATOR) -> list[list[int]]:
        """Shuffle with the stream of ``seed`` (under ``generator``, see
        ``paiqi_core.streams``) and deal round-robin from seat 0 (the dealer's left); with
        cards dealt to no seat, the last cards of the shuffled pack are nobody's
        (``leftover``)."""
        deck = shuffled(self.deck, stream(seed, generator))[: self.dealt]
        n = self.players
        return [sorted(deck[i::n]) for i in range(n)]

    def leftover(self, hands: Sequence[int]) -> int:
        """The cards dealt to no seat when the seats were dealt ``hands`` (masks): the rest
        of the pack (face up, or the stock, as ``deck.leftover`` says), or none."""
        if self.dealt == len(self.deck):
            return 0
        held = 0
        for hand in hands:
            held |= hand
        return sum(BITS[c] for c in self.deck) & ~held

    @property
    def uses_door_card(self) -> bool:
        """Whether a card is shown to everybody before play (``door_card``): a door card
        cut by the opening, or the last card dealt naming trumps (``layout.trumps``)."""
        return self.trumps or self.rules.opening.uses_door_card

    def _cut_door(self, deck: Sequence[int], rng: random.Random) -> int | None:
        """The door card, cut from the shuffled deck with the deal's stream, if used. A cut
        joker names no suit: the deck is cut again (the next draw of the same stream). Where
        the last card dealt names trumps it is that card (nothing is drawn)."""
        if self.trumps:
            return deck[self.dealt - 1]
        if not self.rules.opening.uses_door_card:
            return None
        card = deck[below(rng, len(deck))]
        while card >= JOKER:
            card = deck[below(rng, len(deck))]
        return card

    def door_card_of(self, seed: int, generator: str = GENERATOR) -> int | None:
        """The door card that the deal of ``seed`` cuts (None if this game cuts none)."""
        rng = stream(seed, generator)
        return self._cut_door(shuffled(self.deck, rng), rng)

    def new_state(
        self,
        seed: int | None = None,
        hands: Sequence[Sequence[int]] | None = None,
        door_card: int | None = None,
        generator: str = GENERATOR,
        lead: int | None = None,
    ) -> State:
        """A new game: dealt from ``seed``, or with the given hands (card numbers by seat;
        the rest of the pack lies face up or in the stock, as ``deck.leftover`` says).

        The deal's random stream is ``generator``'s (``paiqi_core.streams``: SplitMix64
        drawn in halves, or the generators of deals made before it). Profiles that cut a
        door card before play draw it from that stream, after the shuffle, unless
        ``door_card`` is given. A dealt
        state keeps the stream as ``state.rng``: the stream its simulated agents draw from."""
        n = self.players
        rng = None
        if hands is None:
            if seed is None:
                raise ValueError("give a seed or the hands")
            rng = stream(seed, generator)
            deck = shuffled(self.deck, rng)
            cut = self._cut_door(deck, rng)
            door_card = cut if door_card is None else door_card
            dealt = self.dealt
            if self.rules.decks > 1:  # every card dealt (deck.decks takes deck.leftover dealt)
                state = self._with_copies(
                    [deck[s:dealt:n] for s in range(n)], seed, door_card, lead
                )
            else:
                bit = BITS.__getitem__
                masks = [sum(map(bit, deck[s:dealt:n])) for s in range(n)]
                pool, stock = self._rest(sum(map(bit, deck[dealt:])))
                state = State(
                    self, masks, seed=seed, door_card=door_card, pool=pool, stock=stock, lead=lead
                )
        else:
            if len(hands) != n:
                raise ValueError(f"{self.id} is played by {n}, not {len(hands)}")
            if door_card is None and seed is not None:
                door_card = self.door_card_of(seed, generator)
            if door_card is None and self.trumps:
                door_card = last_dealt(hands, n)
            if self.rules.decks > 1:
                state = self._with_copies(hands, seed, door_card, lead)
            else:
                masks = hand_masks(hands)
                pool, stock = self._rest(self.leftover(masks))
                state = State(
                    self, masks, seed=seed, door_card=door_card, pool=pool, stock=stock, lead=lead
                )
        state.rng = rng  # a dealt state keeps the deal's stream (its players draw from it)
        state.generator = generator
        return state

    def _with_copies(
        self,
        hands: Sequence[Sequence[int]],
        seed: int | None,
        door_card: int | None,
        lead: int | None,
    ) -> State:
        """A game of several decks dealt ``hands`` (card numbers with their repeats)."""
        held = [planes(hand) for hand in hands]
        copies = [(twice, thrice) for _, twice, thrice in held]
        hand = [once for once, _, _ in held]
        return State(self, hand, seed=seed, door_card=door_card, copies=copies, lead=lead)

    def _rest(self, cards: int) -> tuple[int, int]:
        """Where the cards dealt to no seat lie: (face up, in the stock)."""
        return (0, cards) if self.rules.leftover == "stock" else (cards, 0)


def last_dealt(hands: Sequence[Sequence[int]], n: int) -> int:
    """The card that names trumps in a game set up from ``hands`` (card numbers by seat)
    with none given: the highest card of the seat that got the last card dealt round the
    table from seat 0."""
    total = sum(len(hand) for hand in hands)
    seat = (total - 1) % n
    if not hands[seat]:
        raise ValueError("no trump card: give door_card (the last card dealt)")
    return max(hands[seat])


_GAMES: dict[int, tuple[Rules, Game]] = {}


def game_of(rules: Rules) -> Game:
    """The one Game of ``rules`` in this process (rules are shared by fingerprint)."""
    entry = _GAMES.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _GAMES[id(rules)] = (rules, Game(rules))
    return entry[1]
