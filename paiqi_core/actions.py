"""Actions as small sorted integers, and their text form.

Actions a player chooses:

- ``c`` (0..51): play card ``c``. Text ``H7``.
- ``COVER + c``: cover card ``c`` face down. Text ``cover HK``.
- ``PASS``. Text ``pass``.
- ``JOKER + 64 * x + y``: put the joker in the place of ``x`` and play ``y``, the card just
  beyond it, in the same turn. Text ``joker H8 H9``.
- ``TRUMP + 64 * x + c``: lay the trump ``c`` in the place of ``x``, the card of its rank in
  another suit (``layout.trumps``); ``x`` then goes to the trump row when played. Text
  ``trump S9 H9``.
- ``GIVE + c``: hand card ``c`` to the player who just passed (``turn.pass_takes``), face
  down. Text ``give H5``.
- ``DRAW``: draw a card from the stock (``turn.draw``); which card is chance's. Text
  ``draw``. The log names the card drawn, ``DRAW_CARD + c`` (text ``draw H5``), and applying
  ``DRAW_CARD + c`` draws that very card (a replay, or chance chosen outside the game).

Automatic events share the game log with actions (``EVENT`` and above), each logged with the
seat it concerns:

- ``CUT + suit``: the card just played closed its suit at an end of the line (斬龍).
- ``PLACE + c``: the 7 ``c`` was put on the table before play.
- ``SWAP + x``: the holder of ``x`` played it onto the joker's place and took the joker.
- ``BURST``: out of passes and stuck: the hand is laid face up in place, a joker removed.
- ``LEAVE``: the hand is only the joker: the player leaves.

In what seats observe, a cover is ``HIDDEN_COVER`` (text ``cover``), a card handed on
``HIDDEN_GIVE`` (text ``give``) and a card drawn ``DRAW`` (text ``draw``): the card is not
shown.
"""

from __future__ import annotations

from paiqi_core.cards import SUITS, CardError, card_text, parse_card

COVER = 64
PASS = 128
DRAW = 129  # draw a card from the stock (chance picks it), as a player chooses and others see it
DRAW_CARD = 130  # + card: the card drawn
GIVE = 192  # + card
EVENT = 256
CUT = EVENT  # + suit
PLACE = EVENT + 64  # + card
SWAP = EVENT + 128  # + card
BURST = EVENT + 192
LEAVE = EVENT + 256
JOKER = 1024  # + 64 * x + y
TRUMP = JOKER + 4096  # + 64 * x + c: trump c laid in the place of x (layout.trumps)
HIDDEN_COVER = COVER + 63  # a cover as others see it
HIDDEN_GIVE = GIVE + 63  # a card handed on, as the table sees it

_EVENT_KINDS = {CUT: "cut", PLACE: "place", SWAP: "swap", BURST: "burst", LEAVE: "leave"}


class ActionError(ValueError):
    """Text that is not an action."""


def joker_action(at: int, card: int) -> int:
    """The joker move: the joker takes the place of ``at`` and ``card`` is played beyond."""
    return JOKER + 64 * at + card


def joker_parts(action: int) -> tuple[int, int]:
    """(the place the joker takes, the card played beyond it)."""
    return divmod(action - JOKER, 64)


def trump_action(card: int, at: int) -> int:
    """The trump move: the trump ``card`` laid in the place of ``at``."""
    return TRUMP + 64 * at + card


def trump_parts(action: int) -> tuple[int, int]:
    """(the place the trump takes, the trump card)."""
    return divmod(action - TRUMP, 64)


# the first action of each kind that names a card: + the card
_BASES = {"play": 0, "cover": COVER, "give": GIVE, "draw": DRAW_CARD, "place": PLACE, "swap": SWAP}
_EVENT_SIZES = {CUT: 4, PLACE: 52, SWAP: 52, BURST: 1, LEAVE: 1}


def kind(action: int) -> str:
    """``play``, ``cover``, ``pass``, ``joker``, an event kind, or ``unknown`` for a number
    that is no action."""
    if type(action) is not int:
        return "unknown"
    if 0 <= action <= 52:
        return "play"
    if COVER <= action <= COVER + 52 or action == HIDDEN_COVER:
        return "cover"
    if action == PASS:
        return "pass"
    if DRAW <= action <= DRAW_CARD + 52:
        return "draw"
    if GIVE <= action <= GIVE + 52 or action == HIDDEN_GIVE:
        return "give"
    if EVENT <= action < JOKER:
        base = EVENT + (action - EVENT) // 64 * 64
        size = _EVENT_SIZES.get(base, 0)
        return _EVENT_KINDS[base] if action - base < size else "unknown"
    if action >= TRUMP:
        at, card = trump_parts(action)
        return "trump" if at < 52 and card < 52 and at % 13 == card % 13 else "unknown"
    if action >= JOKER:
        at, card = joker_parts(action)
        return "joker" if at < 52 and card < 52 else "unknown"
    return "unknown"


def public_action(action: int) -> int:
    """``action`` as every seat sees it: the card of a cover, a card handed on or a card
    drawn is hidden."""
    if COVER <= action < PASS:
        return HIDDEN_COVER
    if DRAW_CARD <= action < GIVE:
        return DRAW
    if GIVE <= action < EVENT:
        return HIDDEN_GIVE
    return action


def is_event(action: int) -> bool:
    """An automatic event (cut, place, swap, burst, leave), not a player's action."""
    return kind(action) in _EVENT_KINDS.values()


def action_card(action: int) -> int | None:
    """The card an action or event names (the card played beyond the joker for ``joker``)."""
    k = kind(action)
    if k in ("pass", "burst", "leave", "cut", "unknown") or action in (
        HIDDEN_COVER,
        HIDDEN_GIVE,
        DRAW,
    ):
        return None
    if k == "joker":
        return joker_parts(action)[1]
    if k == "trump":
        return trump_parts(action)[1]
    if k == "play":
        return action
    return action - _BASES[k]


def action_text(action: int) -> str:
    """The text form: ``H7``, ``cover HK``, ``pass``, ``joker H8 H9``, ``cut H``, ..."""
    k = kind(action)
    if k == "unknown":
        return repr(action)
    if k == "play":
        return card_text(action)
    if k == "joker":
        at, card = joker_parts(action)
        return f"joker {card_text(at)} {card_text(card)}"
    if k == "trump":
        at, card = trump_parts(action)
        return f"trump {card_text(card)} {card_text(at)}"
    if k == "cut":
        return "cut " + SUITS[action - CUT]
    named = action_card(action)
    return k if named is None else f"{k} {card_text(named)}"


def parse_action(text: str) -> int:
    """The action of a text such as ``H7``, ``play H7``, ``cover HK``, ``pass``."""
    t = str(text).strip()
    words = t.split()
    low = words[0].lower() if words else ""
    try:
        if low == "pass" and len(words) == 1:
            return PASS
        if low == "draw" and len(words) <= 2:
            return DRAW if len(words) == 1 else DRAW_CARD + parse_card(words[1])
        if low == "cover" and len(words) == 2:
            return COVER + parse_card(words[1])
        if low == "give" and len(words) == 2:
            return GIVE + parse_card(words[1])
        if low == "joker" and len(words) == 3:
            return joker_action(parse_card(words[1]), parse_card(words[2]))
        if low == "trump" and len(words) == 3:
            action = trump_action(parse_card(words[1]), parse_card(words[2]))
            if kind(action) != "trump":
                raise CardError("a trump takes the place of a card of its own rank")
            return action
        if low == "play" and len(words) == 2:
            return parse_card(words[1])
        if len(words) == 1:
            return parse_card(t)
        raise CardError("")
    except CardError as e:
        detail = f": {e}" if str(e) else ""
        raise ActionError(
            f"'{text}' is not an action (write a card like H7, 'cover HK', 'pass', "
            f"'joker H8 H9', 'trump S9 H9' or 'give H5'){detail}"
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
    elif k == "trump":
        at, card = trump_parts(action)
        out["card"], out["at"] = card_text(card), card_text(at)
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
    if k == "draw" and card is None:
        return DRAW
    if k == "cut":
        return CUT + SUITS.index(str(entry["suit"]))
    if k in ("burst", "leave"):
        return BURST if k == "burst" else LEAVE
    if card is None:
        raise ActionError(f"a {k} entry names a card")
    if k == "joker":
        return joker_action(parse_card(str(entry["at"])), card)
    if k == "trump":
        return trump_action(card, parse_card(str(entry["at"])))
    return card + _BASES[str(k)]
