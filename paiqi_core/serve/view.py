"""What the browser draws, as JSON: the table, the seats, the history and the moves.

A live game is drawn from one seat's ``Observation`` only (``seat_view``): the player's own
hand, the table and the public counts, never another hand. A replay draws a record, whose
hands are all known (``replay_view`` adds them).

With several decks (``deck.decks``) a hand lists each copy of a card it holds, and each suit
is drawn as one row per deck, as the engine keeps them: the k-th copy of a card lies in the
k-th row, beside the other k-th copies (see ``core.kernel._row_frontier``).

Where the last card dealt names trumps (``layout.trumps``) the table holds places, not
cards: a place of another suit where a trump lies is drawn with that trump, and the trump
row's place of the same rank with the card the trump displaced (``_lying``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from paiqi_core.actions import (
    COVER,
    CUT,
    DRAW,
    DRAW_CARD,
    GIVE,
    HIDDEN_COVER,
    HIDDEN_GIVE,
    PASS,
    PLACE,
    SWAP,
    action_text,
    joker_parts,
    kind,
    trump_parts,
)
from paiqi_core.cards import RANKS, SUIT_MASK, SUITED, SUITS, bits, card_text, is_joker
from paiqi_core.core.plain import table_fits
from paiqi_core.observation import Observation
from paiqi_core.rules import Rules

if TYPE_CHECKING:
    from paiqi_core.engine import State

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")


def rules_summary(rules: Rules) -> dict[str, Any]:
    """The public facts of a table that the browser needs to draw and to label it."""
    topology = rules.topology
    stuck = rules.stuck
    return {
        "id": rules.id,
        "name": rules.name,
        "players": rules.players,
        "jokers": rules.jokers,
        # deck.decks: the decks shuffled together (each card that many times), and with them
        # the rows of each suit drawn
        "decks": rules.decks,
        "order": [RANKS[r] for r in topology.line],  # the pack's ranks along a row
        "centre": RANKS[topology.centre],
        "ace": "high" if topology.order[-1] == 0 else "low",
        "ace_king": topology.ace_king,
        "cut": topology.cut,
        "must_play": rules.must_play,
        "stuck": stuck.name,
        "covers": bool(stuck.covers),
        "pass_limit": stuck.pass_limit,
        # turn.pass_takes: a pass takes a card the previous player still holding cards hands on
        "pass_takes": rules.pass_takes,
        # deck.leftover: the cards dealt to no seat are dealt on (dealt), lie face up
        # (face_up) or face down in a stock (stock); deck.hand: the cards dealt to each seat
        "leftover": rules.leftover,
        "hand": rules.hand,
        # turn.draw: a stuck player draws one card from the stock (one), or passes (none)
        "draw": rules.draw,
        "objective": rules.facts.objective,
        "options": {k: v for k, v in rules.options.items()},
    }


def _planes(obs: Observation, decks: int) -> list[int]:
    """The table as its planes: the cards down at least once, twice, three times (one per
    deck in play)."""
    return [obs.table_mask, *obs.table_copies][:decks]


def _open_places(rules: Rules, planes: Sequence[int], first_card: int | None) -> int:
    """The places where a card may be laid now (public: read from the table alone). With
    several decks the rows of a suit lie stacked: the next copy of a card down k times
    goes beside the (k+1)-th copies of its neighbours, where k copies of it lie."""
    if first_card is not None:
        return 1 << first_card
    return table_fits(rules, planes)


def trump_suit(rules: Rules, obs: Observation) -> int | None:
    """The trump suit, named by the last card dealt (``layout.trumps``), else None."""
    if rules.profile.get("layout.trumps") != "last_dealt" or obs.door_card is None:
        return None
    return obs.door_card // 13


def _lying(rules: Rules, obs: Observation) -> dict[int, int]:
    """The places whose card is another's (``layout.trumps``), each with the card that lies
    there or goes there: a place a trump took holds the trump of its rank, and the trump
    row's place of that rank the card displaced from it."""
    trumps = trump_suit(rules, obs)
    out: dict[int, int] = {}
    if trumps is not None:
        for place in bits(obs.trumped):
            home = 13 * trumps + place % 13
            out[place], out[home] = home, place
    return out


def _rows(rules: Rules, obs: Observation, first_card: int | None) -> list[dict[str, Any]]:
    """Each suit's row in the table's rank order: every place of the pack, what lies
    there; with several decks, one row of each suit per deck (``deck``: 1, 2, 3), the
    k-th row holding the cards down at least k times, and every cell says how many copies
    of its card are ``down``. A cell whose card is not its place's own (``layout.trumps``)
    names its ``place`` too: a trump in another row (state ``trump``), or the card it
    displaced, in the trump row (``displaced``); the trump row says it is ``trumps``."""
    decks = rules.decks
    planes = _planes(obs, decks)
    places = obs.jokers_at
    open_places = 0 if obs.terminal else _open_places(rules, planes, first_card)
    laid_by: dict[int, int] = {}
    for seat, hand in zip(obs.bursts, obs.laid, strict=False):
        for c in bits(hand & SUITED):
            laid_by[c] = seat
    lying = _lying(rules, obs)
    trumps = trump_suit(rules, obs)
    extensions = rules.topology.extensions
    rows = []
    for suit in range(4):
        for deck, table in enumerate(planes):
            below = planes[deck - 1] if deck else 0  # the row's cards down one time fewer
            row = (table >> (13 * suit)) & SUIT_MASK
            cells = []
            for r in rules.topology.line:
                p = suit * 13 + r  # the place
                c = lying.get(p, p) if not deck else p  # the card that lies or goes there
                down = sum(plane >> p & 1 for plane in planes)
                cell: dict[str, Any] = {"card": card_text(c), "rank": RANKS[r], "down": down}
                if c != p:
                    cell["place"] = card_text(p)
                    cell["displaced"] = suit == trumps
                if places >> p & 1:
                    cell["state"] = "joker"
                elif c in laid_by and table >> p & 1:
                    cell["state"] = "laid"
                    cell["by"] = laid_by[c]
                elif table >> p & 1:
                    cell["state"] = "trump" if obs.trumped >> p & 1 else "played"
                elif open_places >> p & 1 and (not deck or below >> p & 1):
                    cell["state"] = "open"
                else:
                    cell["state"] = "empty"
                cells.append(cell)
            if row == rules.topology.ranks:
                status = "complete"
            elif not row:
                status = "unopened"
            elif row >> rules.topology.centre & 1 and not extensions[row] and first_card is None:
                status = "cut" if rules.topology.cut else "closed"
            else:
                status = "open"
            opened = obs.opened.index(suit) + 1 if suit in obs.opened and not deck else None
            rows.append(
                {
                    "suit": SUITS[suit],
                    "name": SUIT_NAMES[suit],
                    "symbol": SUIT_SYMBOLS[suit],
                    "deck": deck + 1,
                    "status": status,
                    "opened": opened,
                    "trumps": suit == trumps,
                    "cells": cells,
                }
            )
    return rows


def history_entry(
    seat: int, action: int, own_cover: int | None = None, to: int | None = None
) -> dict[str, Any]:
    """One line of the move history: who, what (text), and the card it names if any. A
    card handed on (``give``) names the seat it went to (``to``, the seat that passed); a
    hidden cover, give or draw shows ``own_cover`` when given (the seat's own, the card it
    took, or the card it drew)."""
    k = kind(action)
    entry: dict[str, Any] = {"seat": seat, "kind": k, "text": action_text(action)}
    if k == "play":
        entry["card"] = card_text(action)
    elif k == "cover":
        if action == HIDDEN_COVER:
            entry["text"] = "cover" if own_cover is None else f"cover {card_text(own_cover)}"
            if own_cover is not None:
                entry["card"] = card_text(own_cover)
        else:
            entry["card"] = card_text(action - COVER)
    elif k == "give":
        card = own_cover if action == HIDDEN_GIVE else action - GIVE
        entry["text"] = "give" if card is None else f"give {card_text(card)}"
        if card is not None:
            entry["card"] = card_text(card)
        entry["to"] = to
    elif k == "draw":
        card = own_cover if action == DRAW else action - DRAW_CARD
        entry["text"] = "draw" if card is None else f"draw {card_text(card)}"
        if card is not None:
            entry["card"] = card_text(card)
    elif k in ("joker", "trump"):
        entry.update(laid_at(action))
    elif k in ("place", "swap"):
        entry["card"] = card_text(action - (PLACE if k == "place" else SWAP))
    elif k == "cut":
        entry["suit"] = SUITS[action - CUT]
    return entry


def laid_at(action: int) -> dict[str, str]:
    """The cards of a joker or trump move: ``at``, the place taken (the joker's, or the
    trump's in another row), and ``card``: the card played beyond the joker, or the trump."""
    at, card = (joker_parts if kind(action) == "joker" else trump_parts)(action)
    return {"at": card_text(at), "card": card_text(card)}


def _history(obs: Observation, blocks: bool = False) -> list[dict[str, Any]]:
    """The public history; this seat's own covers show their card, and so do a card
    handed on that this seat gave or took (``Observation.handed``, in order) and a card
    this seat drew (``Observation.drawn``, in order). A card is handed to the seat of the
    entry just before (the seat that passed). Where a turn lays a block of cards
    (``blocks``), a pass just after the same seat's card is the block's stop."""
    out = []
    history = list(obs.history)
    for i, (seat, action, mine, taker) in enumerate(obs.remembered()):
        if action == HIDDEN_GIVE:
            out.append(history_entry(seat, action, mine, to=taker if i else None))
        else:
            out.append(kept(history_entry(seat, action, mine), history, i, blocks))
    return out


def kept(
    entry: dict[str, Any], history: Sequence[tuple[int, int]], i: int, blocks: bool = False
) -> dict[str, Any]:
    """``entry`` (the ``i``-th of ``history``), marked ``kept`` where it is a pass just
    after the same seat drew a card that fitted (``turn.draw``): the player stopped,
    keeping the card drawn, which is not counted as a pass; marked ``stopped`` where it
    is a pass just after the same seat's card and turns lay blocks (``turn.lay``): the
    player ended its block, which is no pass either."""
    if entry["kind"] == "pass" and i:
        seat, before = history[i - 1]
        if seat == entry["seat"] and kind(before) == "draw":
            entry["kept"] = True
        elif blocks and seat == entry["seat"] and kind(before) == "play":
            entry["stopped"] = True
    return entry


def taker_of(obs: Observation) -> int | None:
    """The seat that passed and takes a card, while the seat to move is to hand it on."""
    if not obs.hand_on or not len(obs.history):
        return None
    seat, action = obs.history[-1]
    return seat if action == PASS else None


def drew_card(obs: Observation) -> str | None:
    """The card this seat has just drawn and may play now (``turn.draw``), else None."""
    if obs.drew and obs.turn == obs.seat and obs.drawn and not obs.terminal:
        return card_text(obs.drawn[-1])
    return None


def legal_moves(legal: Sequence[int]) -> list[dict[str, Any]]:
    """The legal actions, each with its number, text, kind and card."""
    out = []
    for a in legal:
        k = kind(a)
        move: dict[str, Any] = {"action": a, "text": action_text(a), "kind": k}
        if k == "play":
            move["card"] = card_text(a)
        elif k == "cover":
            move["card"] = card_text(a - COVER)
        elif k == "give":
            move["card"] = card_text(a - GIVE)
        elif k in ("joker", "trump"):
            move.update(laid_at(a))
        out.append(move)
    return out


def _seats(
    rules: Rules, obs: Observation, names: Sequence[str], history: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each seat's public counts and status, and its last move (``last``: the history
    entry of the seat's latest action or event, a cover showing its card to its owner
    only), so that what every player did this round can be seen at the seat."""
    limit = rules.stuck.pass_limit
    last: dict[int, dict[str, Any]] = {}
    for entry in history:
        if entry["kind"] != "cut":  # a cut follows the play that made it: show the play
            last[entry["seat"]] = entry
    out = []
    for s in range(rules.players):
        if s in obs.finished:
            status = f"out {obs.finished.index(s) + 1}"
        elif s in obs.bursts:
            status = "burst"
        elif s in obs.left:
            status = "left with the joker"
        else:
            status = ""
        out.append(
            {
                "seat": s,
                "name": names[s] if s < len(names) else f"seat {s}",
                "hand": obs.hand_counts[s],
                "covered": obs.covered_counts[s],
                "passes": obs.pass_counts[s],
                "passes_left": None if limit is None else max(0, limit - obs.pass_counts[s]),
                "status": status,
                "to_move": not obs.terminal and obs.turn == s,
                "last": last.get(s),
            }
        )
    return out


def public_observation(obs: Observation) -> Observation:
    """What a spectator may see, from any seat's observation: the table and the public
    counts, with that seat's own cards (its hand, covers, cards handed on or drawn) and
    its legal moves left out. Its ``seat`` is -1, no seat's."""
    return obs._replace(
        seat=-1,
        hand_mask=0,
        covered_mask=0,
        cover_order=(),
        legal=(),
        handed=(),
        drawn=(),
        drew=False,
        hand_copies=(0, 0),
    )


def trumps_view(rules: Rules, obs: Observation) -> dict[str, str] | None:
    """The trump suit and ``card``, the last card dealt, which named it (shown to
    everybody; ``layout.trumps``), else None."""
    suit = trump_suit(rules, obs)
    if suit is None or obs.door_card is None:
        return None
    return {
        "suit": SUITS[suit],
        "name": SUIT_NAMES[suit],
        "symbol": SUIT_SYMBOLS[suit],
        "card": card_text(obs.door_card),
    }


def seat_view(
    rules: Rules,
    obs: Observation,
    names: Sequence[str],
    first_card: int | None,
    stalled: bool = False,
) -> dict[str, Any]:
    """Everything one seat may see, as the browser draws it. ``first_card`` is the card
    the game must open with while it is unplayed (public: the opening rule names it);
    ``stalled``, whether the stall rule ended the game (see ``ended_by_stall``)."""
    history = _history(obs, rules.profile.get("turn.lay") == "blocks")
    return {
        "seat": obs.seat,
        "turn": obs.turn,
        "over": obs.terminal,
        "door_card": None if obs.door_card is None else card_text(obs.door_card),
        # layout.trumps: the trump suit and the card that named it (the door card)
        "trumps": trumps_view(rules, obs),
        "first_card": None if first_card is None else card_text(first_card),
        "jokers_at": [card_text(c) for c in bits(obs.jokers_at)],
        # the cards dealt to no seat, lying face up (deck.leftover): anyone may play them
        "pool": [card_text(c) for c in obs.pool],
        "rows": _rows(rules, obs, first_card),
        "seats": _seats(rules, obs, names, history),
        # every copy of a card held (several decks): a card held twice is listed twice
        "hand": [card_text(c) for c in sort_cards(rules, obs.hand)],
        "own_covered": [card_text(c) for c in obs.cover_order],
        "history": history,
        "legal": legal_moves(obs.legal),
        # turn.pass_takes: the seat to move hands a card on to ``taker``, the seat that passed
        "hand_on": obs.hand_on,
        "taker": taker_of(obs),
        # the cards this seat gave or took, in order (each a give line of the history)
        "handed": [card_text(c) for c in obs.handed],
        # the seat to move plays again after a card that ended its line: its pass is a stop
        "extra_play": obs.extra_play,
        # the seat to move lays on the block of its turn (turn.lay blocks): its pass is a stop
        "laying": obs.laying,
        # deck.leftover: stock: the cards left in it, face down (None: the game has none)
        "stock": obs.stock if rules.leftover == "stock" else None,
        # turn.draw: the cards this seat drew, in order (each a draw line of the history)
        "drawn": [card_text(c) for c in obs.drawn],
        # the seat to move has just drawn a card that fits: it may play it now (its pass,
        # where legal, is a stop that keeps the card); ``drew_card``: that card, shown to
        # the seat that drew it only
        "drew": obs.drew,
        "drew_card": drew_card(obs),
        "ending": ending(rules, obs, names, stalled) if obs.terminal else None,
    }


def ended_by_stall(state: State) -> bool:
    """Whether the stall rule ended this finished game (every player still holding cards
    passed ``ending.stall`` times in a row) rather than the profile's ending rule."""
    return state.over and state.stalled and not state.game.is_over(state)


def ending(rules: Rules, obs: Observation, names: Sequence[str], stalled: bool) -> dict[str, Any]:
    """Why a finished game ended, in words: ``reason`` is ``stall``, ``all_out`` (every
    hand empty), ``cut`` (every hand empty, with suits closed by 斬龍), ``burst`` (a
    burst left one player holding cards), ``one_left``, ``first_out`` or ``rule``."""
    n = rules.players
    holders = [s for s in range(n) if obs.hand_counts[s]]
    name = [names[s] if s < len(names) else f"seat {s}" for s in range(n)]
    if stalled:
        rounds = rules.stall
        times = "in turn" if rounds == 1 else f"{rounds} times each"
        return {
            "reason": "stall",
            "text": f"the stall rule (ending.stall = {rounds}) ended the game: every player "
            f"still holding cards passed {times}, with no card played in between",
        }
    if not holders:
        cut = [
            SUIT_SYMBOLS[suit]
            for suit in range(4)
            if (obs.table_mask >> (13 * suit)) & SUIT_MASK != rules.topology.ranks
            and rules.topology.cut
            and _closed(rules, obs.table_mask, suit)
        ]
        if cut:
            return {
                "reason": "cut",
                "text": f"every hand is empty: 斬龍 closed {' '.join(cut)} at an end, so "
                "the rest of those suits could only be covered",
            }
        return {
            "reason": "all_out",
            "text": "every hand is empty: every card was played or covered",
        }
    most_holding = getattr(rules.ending, "most_holding", None)
    n = rules.players
    if obs.finished and most_holding is not None and most_holding(n) == n - 1:  # first out
        return {
            "reason": "first_out",
            "text": f"{name[obs.finished[0]]} laid their last card: the first player out "
            "ends the game",
        }
    if len(holders) == 1:
        who = name[holders[0]]
        gone = []
        for seats, what in (
            (obs.finished, "went out"),
            (obs.bursts, "burst (no passes left and nothing to play)"),
            (obs.left, "left holding only the joker"),
        ):
            if seats:
                gone.append(f"{_and([name[s] for s in seats])} {what}")
        last = obs.history[-1] if len(obs.history) else None
        burst = last is not None and kind(last[1]) == "burst"
        return {
            "reason": "burst" if burst else "one_left",
            "text": f"only {who} still holds cards" + (f": {'; '.join(gone)}" if gone else ""),
        }
    return {"reason": "rule", "text": "the profile's ending rule ended the game"}


def _and(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _closed(rules: Rules, table: int, suit: int) -> bool:
    """Whether a suit's row was closed at an end (斬龍): opened, with no place left."""
    row = (table >> (13 * suit)) & SUIT_MASK
    return bool(row >> rules.topology.centre & 1) and not rules.topology.extensions[row]


def sort_hand(rules: Rules, mask: int) -> list[int]:
    """A hand's cards by suit, each suit in the table's rank order; the joker last."""
    return sort_cards(rules, bits(mask))


def sort_cards(rules: Rules, cards: Iterable[int]) -> list[int]:
    """Cards (a card held twice given twice, with several decks) by suit, each suit in the
    table's rank order, the copies of a card side by side; the joker last."""
    place = {r: i for i, r in enumerate(rules.topology.order)}
    return sorted(cards, key=lambda c: (is_joker(c), c // 13, place.get(c % 13, 0)))
