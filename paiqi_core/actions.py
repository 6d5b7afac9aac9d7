"""Actions as small sorted integers, and their text form.

Actions a player chooses:

- ``c`` (0..51): play card ``c``. Text ``H7``.
- ``COVER + c``: cover card ``c`` face down. Text ``cover HK``.
- ``PASS``. Text ``pass``.
- ``JOKER + 64 * x + y``: put the joker in the place of ``x`` and play ``y``, the card just
  beyond it, in the same turn. Text ``joker H8 H9``.

Automatic events share the game log with actions (``EVENT`` and above), each logged with the
seat it concerns:

- ``CUT + suit``: the card just played closed its suit at an end of the line (斬龍).
- ``PLACE + c``: the 7 ``c`` was put on the table before play.
- ``SWAP + x``: the holder of ``x`` played it onto the joker's place and took the joker.
- ``BURST``: out of passes and stuck: the hand is laid face up in place, a joker removed.
- ``LEAVE``: the hand is only the joker: the player leaves.
"""

from __future__ import annotations

from paiqi_core.cards import SUITS, CardError, card_text, parse_card

COVER = 64
PASS = 128
EVENT = 256
CUT = EVENT  # + suit
PLACE = EVENT + 64  # + card
SWAP = EVENT + 128  # + card
BURST = EVENT + 192
LEAVE = EVENT + 256
JOKER = 1024  # + 64 * x + y

_EVENT_KINDS = {CUT: "cut", PLACE: "place", SWAP: "swap", BURST: "burst", LEAVE: "leave"}


class ActionError(ValueError):
    """Text that is not an action."""


def joker_action(at: int, card: int) -> int:
    return JOKER + 64 * at + card


def joker_parts(action: int) -> tuple[int, int]:
    """(the place the joker takes, the card played beyond it)."""
    return divmod(action - JOKER, 64)


def kind(action: int) -> str:
    if action >= JOKER:
        return "joker"
    if action >= EVENT:
        return _EVENT_KINDS[EVENT + (action - EVENT) // 64 * 64]
    if action == PASS:
        return "pass"
    return "cover" if action >= COVER else "play"


def is_event(action: int) -> bool:
    return EVENT <= action < JOKER


def action_card(action: int) -> int | None:
    """The card an action or event names (the card played beyond the joker for ``joker``)."""
    k = kind(action)
    if k in ("pass", "burst", "leave", "cut"):
        return None
    if k == "joker":
        return joker_parts(action)[1]
    if k == "play":
        return action
    base = {"cover": COVER, "place": PLACE, "swap": SWAP}[k]
    return action - base


def action_text(action: int) -> str:
    k = kind(action)
    if k == "play":
        return card_text(action)
    if k == "joker":
        at, card = joker_parts(action)
        return f"joker {card_text(at)} {card_text(card)}"
    if k == "cut":
        return "cut " + SUITS[action - CUT]
    named = action_card(action)
    return k if named is None else f"{k} {card_text(named)}"


def parse_action(text: str) -> int:
    t = str(text).strip()
    words = t.split()
    low = words[0].lower() if words else ""
    try:
        if low == "pass" and len(words) == 1:
            return PASS
        if low == "cover" and len(words) == 2:
            return COVER + parse_card(words[1])
        if low == "joker" and len(words) == 3:
            return joker_action(parse_card(words[1]), parse_card(words[2]))
        if low == "play" and len(words) == 2:
            return parse_card(words[1])
        if len(words) == 1:
            return parse_card(t)
        raise CardError("")
    except CardError as e:
        detail = f": {e}" if str(e) else ""
        raise ActionError(
            f"'{text}' is not an action (write a card like H7, 'cover HK', 'pass' or "
            f"'joker H8 H9'){detail}"
        ) from None


def record_action(seat: int, action: int) -> dict[str, object]:
    """The JSON form of an action or event in a game record."""
    k = kind(action)
    out: dict[str, object] = {"seat": seat, "type": k}
    if k == "cut":
        out["suit"] = SUITS[action - CUT]
    elif k == "joker":
        at, card = joker_parts(action)
        out["at"], out["card"] = card_text(at), card_text(card)
    else:
        named = action_card(action)
        if named is not None:
            out["card"] = card_text(named)
    return out


def from_record(entry: dict[str, object]) -> int:
    """The action or event of a record entry (the inverse of ``record_action``)."""
    k = entry["type"]
    card = parse_card(str(entry["card"])) if "card" in entry else None
    if k == "pass":
        return PASS
    if k == "cut":
        return CUT + SUITS.index(str(entry["suit"]))
    if k in ("burst", "leave"):
        return BURST if k == "burst" else LEAVE
    if card is None:
        raise ActionError(f"a {k} entry names a card")
    if k == "joker":
        return joker_action(parse_card(str(entry["at"])), card)
    return card + {"play": 0, "cover": COVER, "place": PLACE, "swap": SWAP}[str(k)]
