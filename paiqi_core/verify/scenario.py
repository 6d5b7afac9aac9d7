"""Build game states and outcomes from the setups that examples describe."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from paiqi_core.cards import (
    JOKER,
    SUITS,
    card_text,
    hand_masks,
    is_joker,
    mask_of,
    parse_card,
    parse_cards,
    planes,
    suit_of,
)
from paiqi_core.engine import Game, State
from paiqi_core.games import with_centre
from paiqi_core.outcome import PlayerOutcome
from paiqi_core.pack import rank_index
from paiqi_core.profile.load import pack_ranks


class SetupError(ValueError):
    """An example whose setup is impossible (duplicate cards, unknown seat, ...)."""


class Seats:
    """Seat names of an example: ``players: [甲, 乙, 丙, 丁]`` or plain numbers."""

    def __init__(self, names: Sequence[Any] | None, count: int) -> None:
        self.names = [str(n) for n in names] if names else [str(i) for i in range(count)]
        if len(self.names) != count:
            raise SetupError(f"players names {len(self.names)} seats, the profile has {count}")

    def index(self, seat: Any) -> int:
        """The seat number of a name or number."""
        text = str(seat)
        if text in self.names:
            return self.names.index(text)
        if isinstance(seat, int) or text.isdigit():
            i = int(text)
            if 0 <= i < len(self.names):
                return i
        raise SetupError(f"no seat '{seat}' (seats: {', '.join(self.names)})")

    def name(self, index: int) -> str:
        """The name of seat ``index``."""
        return self.names[index]


def _seat_cards(seats: Seats, mapping: Mapping[Any, Sequence[str]] | None) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for seat, cards in (mapping or {}).items():
        out[seats.index(seat)] = parse_cards(cards)
    return out


def _no_duplicates(groups: Sequence[Sequence[int]], decks: int = 1) -> None:
    """Check that no card is placed more often than the pack has it (once a deck)."""
    seen: Counter[int] = Counter()
    for group in groups:
        for c in group:
            seen[c] += 1
            if seen[c] > decks and c != JOKER:  # the jokers are alike: _in_the_pack counts them
                if decks == 1:
                    raise SetupError(f"{card_text(c)} is placed twice")
                raise SetupError(
                    f"{card_text(c)} is placed {seen[c]} times, and the pack has {decks} "
                    f"(deck.decks: {decks})"
                )


def _in_the_pack(game: Game, groups: Sequence[Sequence[int]]) -> int:
    """Check that every card placed is in the pack; the number of jokers placed."""
    pack = set(game.deck)
    dealt = game.rules.jokers
    jokers = 0
    for group in groups:
        for c in group:
            what = None
            if c == JOKER:
                jokers += 1
                if jokers > dealt:
                    what = f"only {dealt} joker{'s' if dealt > 1 else ''}" if dealt else "no joker"
            elif c not in pack:
                what = f"no {card_text(c)}"
            if what:
                ranks = game.rules.profile.get("deck.ranks")
                raise SetupError(
                    f"the pack has {what}" + (f" (deck.ranks: {ranks})" if ranks else "")
                )
    return jokers


def _picked_centre(game: Game, setup: Mapping[str, Any]) -> Game:
    """The game with the centre ``centre:`` names (a match's last player picked it)."""
    if "centre" not in setup:
        return game
    if game.rules.match.next_centre != "last_picks":
        raise SetupError(
            "'centre:' names the centre the last player picked for a game of a match: only "
            "match.next_centre: last_picks does that (or set layout.centre)"
        )
    text = str(setup["centre"])
    try:
        rank = rank_index(text)
    except ValueError as e:
        raise SetupError(f"centre: {e}") from None
    if rank not in pack_ranks(game.rules.profile.data):
        raise SetupError(f"centre: {text} is not a rank of this pack")
    return with_centre(game, rank)


def _lead(game: Game, seats: Seats, setup: Mapping[str, Any]) -> int | None:
    """The seat ``lead:`` names (a match's last winner, who moves first), None if none."""
    if "lead" not in setup:
        return None
    if game.rules.match.next_lead != "last_winner":
        raise SetupError(
            "'lead:' names the last winner, who moves first in the next game of a match: "
            "only match.next_lead: last_winner does that"
        )
    clash = sorted({"turn", "hand", "table"} & set(setup))
    if clash:
        raise SetupError(f"'lead:' sets who moves first in a new game: give no {', '.join(clash)}")
    return seats.index(setup["lead"])


def build_state(game: Game, seats: Seats, setup: Mapping[str, Any], *, dealt: bool) -> State:
    """A state from an example's ``position`` or ``game`` setup.

    With an empty table (``dealt``) the hands are completed to full deal sizes with the
    remaining cards, shuffled by ``fill_seed`` (with cards dealt to no seat, what is left
    lies face up or forms the stock, unless ``pool`` or ``stock`` says which); mid-game,
    unlisted cards are spread over the seats whose hands were not given (or, where every
    hand is given, form the stock of a game that has one), the cards ``pool`` names lie face
    up and those ``stock`` names lie in the stock, and the cards a seat
    was dealt but neither holds nor covered count as played before the position (a seat
    with an empty hand has finished).
    """
    game = _picked_centre(game, setup)
    lead = _lead(game, seats, setup)
    if "seed" in setup:
        given = {"table", "hand", "hands", "covered", "door_card", "turn", "pool", "stock"}
        others = sorted(set(setup) & given)
        if others:
            raise SetupError(f"a game dealt from 'seed' takes no {', '.join(others)}")
        return game.new_state(seed=int(setup["seed"]), lead=lead)
    n = game.players
    table = parse_cards(setup.get("table", []))
    hands = _seat_cards(seats, setup.get("hands"))
    turn = seats.index(setup["turn"]) if "turn" in setup else None
    if "hand" in setup:
        mover = turn if turn is not None else 0
        if mover in hands:
            raise SetupError(f"seat {seats.name(mover)} has both 'hand' and 'hands'")
        hands[mover] = parse_cards(setup["hand"])
        turn = mover
    covered = _seat_cards(seats, setup.get("covered"))
    pool = parse_cards(setup.get("pool", []))
    if pool and game.rules.leftover != "face_up":
        raise SetupError("'pool:' lays cards face up, which only deck.leftover: face_up does")
    stock = parse_cards(setup.get("stock", []))
    if "stock" in setup and game.rules.leftover != "stock":
        raise SetupError(
            "'stock:' lays cards face down to draw, which only deck.leftover: stock does"
        )
    groups = [table, pool, stock, *hands.values(), *covered.values()]
    _no_duplicates(groups, game.rules.decks)
    jokers = _in_the_pack(game, groups)
    unused = Counter(c for c in game.deck if not is_joker(c))  # each card once a deck
    unused.subtract(c for group in groups for c in group)
    rest = [c for c in sorted(unused.elements())]
    rest += [JOKER] * (game.rules.jokers - jokers)  # the jokers not placed
    full: list[list[int]] = [list(hands.get(s, [])) for s in range(n)]
    sizes = [game.dealt // n + (1 if s < game.dealt % n else 0) for s in range(n)]
    if dealt and not table:
        random.Random(int(setup.get("fill_seed", 0))).shuffle(rest)
        for s in range(n):
            need = sizes[s] - len(full[s]) - len(covered.get(s, []))
            if need < 0:
                raise SetupError(f"seat {seats.name(s)} holds more than {sizes[s]} cards")
            full[s] += rest[:need]
            rest = rest[need:]
        if game.dealt < len(game.deck) and not {"pool", "stock"} & set(setup):
            # the cards dealt to no seat lie face up, or form the stock
            if game.rules.leftover == "stock":
                stock, rest = rest, []
            else:
                pool, rest = rest, []
    else:
        open_seats = [s for s in range(n) if s not in hands]
        for i, c in enumerate(rest):
            if open_seats:
                full[open_seats[i % len(open_seats)]].append(c)
        if not open_seats and game.rules.leftover == "stock" and "stock" not in setup:
            stock = rest  # every hand given: the rest is the stock
    opened = suit_order(setup.get("opened"))
    door = parse_card(setup["door_card"]) if "door_card" in setup else None
    if door is None and game.trumps:
        raise SetupError(f"{game.id} names trumps by the last card dealt: give 'door_card:'")
    if door is None and game.rules.opening.uses_door_card:
        if not table:
            raise SetupError(f"{game.id} cuts a door card before play: give 'door_card:'")
        first_suit = (opened or [suit_of(min(table, key=lambda c: suit_of(c)))])[0]
        # mid-game: the door suit is the first one opened
        door = 13 * first_suit + game.rules.topology.centre
    passes = [0] * n
    for seat, count in (setup.get("passes") or {}).items():
        passes[seats.index(seat)] = int(count)
    # the alike jokers numbered over the hands, then the covered cards
    masks = hand_masks([*full, *(covered.get(s, []) for s in range(n))])
    copies = table_copies = None
    if game.rules.decks > 1:  # a card held (or down) twice or three times
        held = [planes(hand) for hand in full]
        masks[:n] = [once for once, _, _ in held]
        copies = [(twice, thrice) for _, twice, thrice in held]
        _, *down = planes(table)
        table_copies = (down[0], down[1])
    state = State(
        game,
        masks[:n],
        table=mask_of(table),
        copies=copies,
        table_copies=table_copies or (0, 0),
        turn=turn,
        lead=lead,
        door_card=door,
        opened=opened,
        covered=masks[n:],
        passes=passes,
        pool=mask_of(pool),
        stock=mask_of(stock),
        # mid-game, what a seat was dealt and no longer holds or covered, it played
        played=[max(0, sizes[s] - len(full[s]) - len(covered.get(s, []))) for s in range(n)]
        if table
        else None,
    )
    stuck = state.bursts[0] if state.bursts else state.turn
    # (at the deal, a first mover with nothing to do bursts on the game's own first turn)
    if (table and state.bursts) or (not state.over and not state.legal_actions()):
        raise SetupError(
            f"seat {seats.name(stuck)} to move has nothing to do here "
            "(they would burst before the position is reached)"
        )
    return state


def suit_order(letters: Sequence[str] | None) -> list[int]:
    """Suit numbers from letters such as ``[C, H, S]`` (an opening order)."""
    order = [SUITS.index(x) for x in (letters or [])]
    if len(set(order)) != len(order):
        raise SetupError(f"a suit is opened twice in {list(letters or [])}")
    return order


def outcomes_from_facts(
    game: Game,
    seats: Seats,
    facts: Mapping[Any, Any] | Sequence[Any],
    opened: Sequence[str] | None = None,
) -> list[PlayerOutcome]:
    """PlayerOutcomes from an example's ``settlement`` facts (by seat). A completed suit is
    an opening-order number (1 = the first suit opened) or a suit letter, placed by
    ``opened`` (default order S H D C)."""
    order = suit_order(opened) or [0, 1, 2, 3]
    n = game.players
    by_seat: dict[int, Mapping[str, Any]] = {}
    items = facts.items() if isinstance(facts, Mapping) else enumerate(facts)
    for seat, f in items:
        by_seat[seats.index(seat)] = f or {}
    # the uneven share of a deal gives the first seats a card more
    sizes = [game.dealt // n + (1 if s < game.dealt % n else 0) for s in range(n)]
    out = []
    finish_order = sorted(
        (s for s in range(n) if by_seat.get(s, {}).get("out")),
        key=lambda s: int(by_seat[s]["out"]),
    )
    for s in range(n):
        f = by_seat.get(s, {})
        hand_size = sizes[s]
        covered = tuple(parse_cards(f.get("covered", [])))
        last = parse_card(f["last"]) if "last" in f else None
        given = f.get("held", 0)
        # the cards themselves (scorings that count their values need them), or how many
        held_cards = tuple(parse_cards(given)) if isinstance(given, list) else ()
        held = len(held_cards) if isinstance(given, list) else int(given)
        if held + len(covered) > hand_size:
            raise SetupError(
                f"seat {seats.name(s)} holds {held} and covered {len(covered)} of the "
                f"{hand_size} cards dealt"
            )
        played = int(f.get("played", hand_size - len(covered) - held))
        left = max(0, hand_size - played - len(covered)) if "played" in f or "held" in f else 0
        if held_cards and left != len(held_cards):
            raise SetupError(
                f"seat {seats.name(s)} holds {len(held_cards)} cards, but played {played} of "
                f"the {hand_size} dealt"
            )
        if left and not held_cards and _counts_values(game):
            raise SetupError(
                f"seat {seats.name(s)}: give the cards still held as a list (held: [SK, C2]): "
                "the penalty points count their values"
            )
        suits = tuple(
            x if isinstance(x, int) else _opening_number(order, SUITS.index(x))
            for x in f.get("completed", [])
        )
        if last is not None and suit_of(last) > 3:
            raise SetupError("the last card must be a suited card")
        out.append(
            PlayerOutcome(
                covered=covered,
                played=played,
                last_play=last,
                completions=suits,
                finish=finish_order.index(s) if s in finish_order else None,
                passes=int(f.get("passes", 0)),
                burst=int(f["burst"]) - 1 if "burst" in f else None,
                left_with_joker=bool(f.get("joker_only", False)),
                hand_left=left,
                hand_size=hand_size,
                centre=game.rules.topology.centre,
                held=held_cards,
                **_hoyle_facts(game, seats.name(s), f),
            )
        )
    return out


def _hoyle_facts(game: Game, seat: str, f: Mapping[str, Any]) -> dict[str, Any]:
    """Hoyle's penalties among a seat's settlement facts: ``able_passes`` (passes made when
    able to play), ``held_back`` (the 7s held at such passes, one entry a 7 a pass) and
    ``dealt`` (cards it was dealt: the 6s and 8s that a 7 held back pays the holders of)."""
    out: dict[str, Any] = {}
    if "able_passes" in f:
        out["able_passes"] = int(f["able_passes"])
    centre = game.rules.topology.centre
    if "held_back" in f:
        counts = [0, 0, 0, 0]
        for c in parse_cards(f["held_back"]):
            if suit_of(c) > 3 or c % 13 != centre:
                raise SetupError(f"seat {seat} held back {card_text(c)}: only a centre card is")
            counts[suit_of(c)] += 1
        out["held_back"] = tuple(counts)
    if "dealt" in f:
        out["neighbours"] = tuple(parse_cards(f["dealt"]))
    return out


def _counts_values(game: Game) -> bool:
    """Whether the game's penalty points count the values of the cards still held."""
    return game.rules.profile.get("scoring.penalty") in ("pips", "ranks")


def _opening_number(order: Sequence[int], suit: int) -> int:
    if suit not in order:
        raise SetupError(f"suit {SUITS[suit]} is completed but not in 'opened'")
    return order.index(suit) + 1
