"""Actions as small sorted integers, and their text form.

``0..52`` play that card (52 is the joker), ``64 + c`` cover card ``c`` face down,
``128`` pass. Text: ``H7``, ``cover HK``, ``pass``. Automatic events share the log with
actions, from ``256`` on: ``256 + suit`` the suit was cut (斬龍) by the card just played.
"""

from __future__ import annotations

from paiqi_core.cards import SUITS, CardError, card_text, parse_card

COVER = 64
PASS = 128
EVENT = 256
CUT = EVENT  # + suit


class ActionError(ValueError):
    """Text that is not an action."""


def kind(action: int) -> str:
    if action >= EVENT:
        return "cut"
    if action == PASS:
        return "pass"
    return "cover" if action >= COVER else "play"


def is_event(action: int) -> bool:
    return action >= EVENT


def action_card(action: int) -> int | None:
    if action >= PASS:
        return None
    return action - COVER if action >= COVER else action


def action_text(action: int) -> str:
    if action >= EVENT:
        return "cut " + SUITS[action - CUT]
    if action == PASS:
        return "pass"
    if action >= COVER:
        return "cover " + card_text(action - COVER)
    return card_text(action)


def parse_action(text: str) -> int:
    t = str(text).strip()
    low = t.lower()
    try:
        if low == "pass":
            return PASS
        if low.startswith("cover"):
            return COVER + parse_card(t[5:].strip())
        if low.startswith("play"):
            t = t[4:].strip()
        return parse_card(t)
    except CardError as e:
        raise ActionError(
            f"'{text}' is not an action (write a card like H7, 'cover HK' or 'pass'): {e}"
        ) from None


def record_action(seat: int, action: int) -> dict[str, object]:
    """The JSON form of an action in a game record."""
    k = kind(action)
    if k == "pass":
        return {"seat": seat, "type": "pass"}
    if k == "cut":
        return {"seat": seat, "type": "cut", "suit": SUITS[action - CUT]}
    c = action_card(action)
    assert c is not None
    return {"seat": seat, "type": k, "card": card_text(c)}
