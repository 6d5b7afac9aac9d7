"""Why an action is illegal, in words a player understands.

Every reason starts with one of the categories of ``CATEGORIES`` and a colon, then the
detail: ``not in hand: seat 0 does not hold H7``. Documentation examples match on the
category (``rejected: not in hand``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paiqi_core.actions import (
    COVER,
    DRAW,
    DRAW_CARD,
    GIVE,
    PASS,
    action_text,
    joker_parts,
    kind,
    trump_parts,
)
from paiqi_core.cards import CARDS, JOKERS, RANKS, SUITS, card_text, is_joker
from paiqi_core.core import layout as L
from paiqi_core.core.layout import (
    BY_DRAW,
    BY_EXTRA,
    BY_GIVE,
    BY_MUST_PLAY,
    BY_NO_PASSES,
    BY_OPENING,
)
from paiqi_core.core.plain import kernel
from paiqi_core.core.play_rules import BY_HANDOVER, BY_LAYING, PLAY_RULES

if TYPE_CHECKING:
    from paiqi_core.engine.state import State

GAME_OVER = "game over"
NOT_YOUR_TURN = "not your turn"
NOT_AN_ACTION = "not an action"
NOT_IN_HAND = "not in hand"
MUST_PLAY = "must play when able"
NOT_LEGAL = "not legal"
CATEGORIES = (GAME_OVER, NOT_YOUR_TURN, NOT_AN_ACTION, NOT_IN_HAND, MUST_PLAY, NOT_LEGAL)


def why_illegal(state: State, action: int, seat: int | None = None) -> str | None:
    """None when ``action`` is legal for the player to move, else the reason: the rule
    that decided the player's options in the core (``kernel.options``), in words."""
    if state.over:
        return f"{GAME_OVER}: no action can be taken"
    if seat is not None and seat != state.turn:
        return f"{NOT_YOUR_TURN}: seat {state.turn} is to move"
    k = kind(action)
    if k == "unknown":
        return f"{NOT_AN_ACTION}: {action!r} is no action's number"
    legal, by = state.decided()
    if action in legal:
        return None
    if k == "draw" or by == BY_DRAW:
        return _why_not_draw(state, action, legal, by)
    if k in ("cut", "place", "swap", "burst", "leave"):
        return f"{NOT_AN_ACTION}: {action_text(action)} happens by itself"
    if by == BY_GIVE or k == "give":
        return _why_not_give(state, action, by)
    if by == BY_HANDOVER:
        under = card_text(legal[0])
        return (
            f"{NOT_LEGAL}: seat {state.turn} is asked first whether to take back the joker "
            f"standing for {under}: play {under} (lay it and take the joker) or pass (keep it)"
        )
    if by == BY_LAYING and k == "pass":
        cards = ", ".join(action_text(a) for a in legal)
        return (
            f"{MUST_PLAY}: a suit begun in the block is laid at all the block's ranks before "
            f"the player stops ({cards})"
        )
    refused = _refused_by_a_declared_rule(state, action, legal)
    if refused:
        return refused
    if k == "joker":
        return _why_not_joker(state, action)
    if k == "trump":
        return _why_not_trump(state, action)
    hand = state.hands[state.turn]
    if k == "play":
        hand |= state.pool  # a card face up is played as if held
    card = action if k == "play" else action - COVER
    if k != "pass" and not (0 <= card < CARDS and _holds(hand, card)):
        shown = card_text(card) if 0 <= card < CARDS else str(card)
        return f"{NOT_IN_HAND}: seat {state.turn} does not hold {shown}"
    first = state.first_card
    if k == "play":
        if is_joker(card):
            return f"{NOT_LEGAL}: the joker is never played alone"
        if first is not None and not state.started:
            return f"{NOT_LEGAL}: the first card of the game must be {card_text(first)}"
        if state.trumped >> card & 1 and state.door_card is not None:
            home = kernel.trump_place(card, state.trumped, state.door_card)
            return (
                f"{NOT_LEGAL}: a trump took the place of {card_text(card)}, which goes to the "
                f"trump row in the place of {card_text(home)} once that place fits"
            )
        if state.jokers_at >> card & 1:  # (turn.joker_handover: optional or never)
            return (
                f"{NOT_LEGAL}: a joker keeps the place of {card_text(card)}, which can no "
                "longer be played"
            )
        copies = state.table_cards.count(card) if state.game.rules.decks > 1 else 0
        if copies:  # another copy goes down where as many of each card back to the centre lie
            return (
                f"{NOT_LEGAL}: {card_text(card)} does not extend a row: a "
                f"{('second', 'third')[copies - 1]} {card_text(card)} needs {copies + 1} of "
                "each card between it and the centre"
            )
        return f"{NOT_LEGAL}: {card_text(card)} does not extend a row"
    can = ", ".join(action_text(a) for a in legal if kind(a) in ("play", "joker", "trump"))
    if by == BY_EXTRA:
        stop = " or stop (pass)" if PASS in legal else ""
        return f"{MUST_PLAY}: after a card that ends its line, play another ({can}){stop}"
    if by == BY_NO_PASSES and k == "pass":
        if can:
            return f"{MUST_PLAY}: no passes left while {can} can be played"
        return f"{NOT_LEGAL}: no passes left ({state.game.rules.stuck.pass_limit} a game)"
    if by == BY_OPENING:
        assert first is not None
        return f"{MUST_PLAY}: the game opens with {card_text(first)}"
    if can and by in (BY_MUST_PLAY, BY_NO_PASSES):
        return f"{MUST_PLAY}: {action_text(action)} is not allowed while {can} can be played"
    same_kind = [action_text(a) for a in legal if kind(a) == k]
    if same_kind:
        return f"{NOT_LEGAL}: {action_text(action)} (allowed: {', '.join(same_kind)})"
    stuck = state.game.rules.stuck.name
    return f"{NOT_LEGAL}: {k} is not allowed in this game (a stuck player must {stuck})"


def _why_not_give(state: State, action: int, by: int) -> str:
    """Why ``action`` is refused where a card is handed on, or is a give out of turn."""
    seat = state.turn
    if by != BY_GIVE:
        return f"{NOT_LEGAL}: a card is handed on only to a player who has just passed"
    taker = state.st[L.TAKER]
    if kind(action) != "give":
        return f"{NOT_LEGAL}: seat {seat} hands seat {taker}, who passed, a card first (give)"
    card = action - GIVE
    return f"{NOT_IN_HAND}: seat {seat} does not hold {card_text(card)}"


def _why_not_draw(state: State, action: int, legal: list[int], by: int) -> str | None:
    """Why ``action`` is refused where the player to move draws, or has just drawn, or
    why a draw is refused; None for the draw of a named card the stock holds (how a
    replay says which card was drawn)."""
    can = ", ".join(action_text(a) for a in legal if kind(a) in ("play", "joker", "trump"))
    if kind(action) != "draw":  # the player to move draws, or has just drawn
        if state.st[L.PHASE] == L.DRAWING:  # more cards to draw at this stop
            return f"{NOT_LEGAL}: {_stop_words(state)}: draw the next card first (draw)"
        if by == BY_DRAW and can:
            return f"{MUST_PLAY}: the card just drawn fits: play it ({can})"
        if by == BY_DRAW:
            return f"{NOT_LEGAL}: a player with no card to play draws from the stock (draw)"
        return None  # (not reached: a draw is refused below)
    if DRAW in legal:
        card = action - DRAW_CARD
        if state.stock >> card & 1:
            return None
        return f"{NOT_LEGAL}: {card_text(card)} is not in the stock"
    if state.game.rules.draw == "none":
        return f"{NOT_LEGAL}: nobody draws in this game (turn.draw: none)"
    if by == BY_DRAW:
        return f"{NOT_LEGAL}: one card is drawn a turn: play it ({can}) or stop (pass)"
    if not state.stock:
        return f"{NOT_LEGAL}: the stock is empty"
    return f"{NOT_LEGAL}: a player draws only when it has no card to play ({can})"


def _stop_words(state: State) -> str:
    """How many cards the stop in progress draws, and how many it has drawn (turn.draw
    increasing)."""
    st, seat = state.st, state.turn
    draw = state.game.rules.draw
    shared = draw in ("increasing_shared", "increasing_run")
    count = st[L.DRAWS] >> (4 if shared else 4 + 4 * seat) & 15
    whose = {"increasing_shared": "the game's", "increasing_run": "the run's"}.get(
        draw, f"seat {seat}'s"
    )
    return f"{whose} stop number {count} draws {count} cards ({st[L.DRAWS] & 15} drawn so far)"


def _holds(hand: int, card: int) -> bool:
    """Whether ``hand`` holds ``card`` (for a joker: any of the alike jokers)."""
    return bool(hand & JOKERS) if is_joker(card) else bool(hand >> card & 1)


def _refused_by_a_declared_rule(state: State, action: int, legal: list[int]) -> str | None:
    """The words of the declared rule of play (``core.play_rules``) that alone refuses
    ``action``: the one in effect without which the action would be legal."""
    vector = state.game.vector
    for rule in PLAY_RULES:
        if vector[rule.slot] and rule.refusal[0]:
            lifted = vector.copy()
            lifted[rule.slot] = 0
            if action in state.decided(lifted)[0]:
                category, words = rule.refusal
                centre = RANKS[state.game.rules.topology.centre]
                allowed = ", ".join(action_text(a) for a in legal)
                return f"{category}: " + words.format(centre=centre, legal=allowed)
    return None


def _why_not_trump(state: State, action: int) -> str:
    """Why a trump move is refused (``layout.trumps``)."""
    at, card = trump_parts(action)
    seat = state.turn
    door = state.door_card
    if not state.game.trumps or door is None:
        return f"{NOT_LEGAL}: this game has no trumps"
    if not state.hands[seat] >> card & 1:
        return f"{NOT_IN_HAND}: seat {seat} does not hold {card_text(card)}"
    trumps = SUITS[door // 13]
    if card // 13 != door // 13:
        return f"{NOT_LEGAL}: {card_text(card)} is not a trump (trumps are {trumps})"
    if at // 13 == door // 13:
        return f"{NOT_LEGAL}: a trump takes the place of a card of another suit"
    if card == door:
        return f"{NOT_LEGAL}: {card_text(card)} named trumps and goes only to the trump row"
    if card % 13 == state.game.rules.topology.centre:
        return f"{NOT_LEGAL}: the trump {card_text(card)} begins its own row only"
    if not state.started and state.first_card is not None:
        return f"{NOT_LEGAL}: the first card of the game must be {card_text(state.first_card)}"
    return f"{NOT_LEGAL}: the place of {card_text(at)} does not fit now"


def _why_not_joker(state: State, action: int) -> str:
    at, card = joker_parts(action)
    seat = state.turn
    hand = state.hands[seat]
    if not hand & JOKERS:
        return f"{NOT_IN_HAND}: seat {seat} does not hold the joker"
    if not hand >> card & 1:
        return f"{NOT_IN_HAND}: seat {seat} does not hold {card_text(card)}"
    if hand >> at & 1:
        return f"{NOT_LEGAL}: the joker may not take the place of {card_text(at)}, which you hold"
    if not state.started and state.first_card is not None:
        return f"{NOT_LEGAL}: the first card of the game must be {card_text(state.first_card)}"
    if not state.frontier >> at & 1:
        return f"{NOT_LEGAL}: {card_text(at)} is not a place the joker can take now"
    return f"{NOT_LEGAL}: {card_text(card)} is not the card just beyond {card_text(at)}"
