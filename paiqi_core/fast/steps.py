"""One game stepped from Python, an action at a time: what the adapters (PettingZoo,
Gymnasium, OpenSpiel) drive when the kernel can play their rules.

A game is one int64 vector ``box`` (``layout.B_*``): the kernel's state vector, the rules
vector, and the legal actions of the seat to move as indices of the adapters' shared action
space (``paiqi_core.adapters.encoding``), with the joker moves they stand for. An ``int8``
``mask`` over the 212 indices is kept beside it. Each call applies what it is asked and
recomputes both, and answers with a ``code``: ``over + 2 * turn + 32 * count`` (the turn in
4 bits, for up to 12 seats; the count of legal actions below 256), plus ``8192 *`` the
actions played where it plays several; -1 for an index that is not legal (nothing changed).

The legal actions are those of ``State.legal_actions`` (plays, then a cover or the pass
where the rules allow one, then joker moves; or the draw from the stock, alone), and
``observe`` writes the observation tensor ``encoding.Layout`` writes from a ``State``: the
same numbers, from the kernel's state (with several decks, the copies of each card in the
hand and on the table, and hand counts of every copy). The draw (index 211) takes a card
from the game's random stream; ``draw_card`` draws a card that chance chose outside
(OpenSpiel's chance node).
"""

from __future__ import annotations

import numpy as np

from paiqi_core.core.bits import hot, lowest, popcount, step
from paiqi_core.core.kernel import RANDOM, apply, choose, deal, held, one_joker, options, start
from paiqi_core.core.layout import (
    ACTION_INDICES,
    B_COUNT,
    B_JOKERS,
    B_JX,
    B_JY,
    B_LEGAL,
    B_RULES,
    B_STATE,
    BURSTED,
    BY_DRAW,
    BY_GIVE,
    COVER,
    COVERED,
    DOOR,
    DRAW,
    DRAW_CARD,
    DRAWN,
    DREW,
    FINISH,
    GEN,
    GIVE,
    HAND,
    JOKER,
    JOKER_AT,
    KEY,
    LAID,
    LEFT,
    MAX_JOKERS,
    NOPENED,
    OPENED,
    OVER,
    PASS,
    PASSES,
    PHASE,
    POOL,
    R_PLAYERS,
    RULES,
    STATE,
    STOCK,
    TABLE,
    TABLE_THRICE,
    TABLE_TWICE,
    THRICE,
    TRUMPED,
    TURN,
    TWICE,
)

# the shared action space (paiqi_core.adapters.encoding)
COVER_BASE = 52
PASS_ACTION = 105
JOKER_BASE = 106
GIVE_BASE = 158
DRAW_ACTION = 211
TRUMP_BASE = 212
NUM_ACTIONS = 264  # the mask's size (the box holds ACTION_INDICES legal actions at most)
# the observation tensor (paiqi_core.adapters.encoding.Layout): card sections of 53 entries
# (the hand's and the table's count the copies of each card, with several decks), the suits
# opened (4 x 4), then per-seat sections of n entries each
O_HAND = 0
O_TABLE = 53
O_JOKER_PLACE = 106
O_LAID = 159
O_COVERED = 212
O_DOOR = 265
O_FACE_UP = 318
O_OPENED = 371
O_SEATS = 387  # seat, to_move, finished, burst, left, hand_counts, covered_counts, passes
# then the stock's count, at O_SEATS + 8 * n


@step
def _covers(legal: np.ndarray, k: int, cards: int, base: int) -> int:
    """Append the cover (or, from ``GIVE_BASE``, the handing on) of each card of ``cards``;
    the new count."""
    while cards:
        legal[k] = base + lowest(cards)
        k += 1
        cards &= cards - 1
    return k


@hot
def refill(box: np.ndarray, beyond: np.ndarray, mask: np.ndarray) -> int:
    """The legal actions of the seat to move into ``box`` and ``mask``; the code."""
    st = box[B_STATE : B_STATE + STATE]
    R = box[B_RULES : B_RULES + RULES]
    legal = box[B_LEGAL : B_LEGAL + ACTION_INDICES]
    jx = box[B_JX : B_JX + 16]
    jy = box[B_JY : B_JY + 16]
    for i in range(box[B_COUNT]):
        mask[legal[i]] = 0
    k = 0
    njokers = 0
    seat = st[TURN]
    over = st[OVER]
    if not over:  # the core's options, as the documented indices in ascending order
        # (the compiled engine plays no plugin hook, so nothing reads the log: given ``jx``)
        can, njokers, covers, may_pass, by = options(st, R, beyond, jx, jx, jy)
        while can:
            legal[k] = lowest(can)
            k += 1
            can &= can - 1
        k = _covers(legal, k, covers, GIVE_BASE if by == BY_GIVE else COVER_BASE)
        if may_pass:
            legal[k] = PASS_ACTION
            k += 1
        for i in range(njokers):  # joker moves by the place taken, then trumps (64 + place)
            legal[k] = JOKER_BASE + jx[i] if jx[i] < 64 else TRUMP_BASE + jx[i] - 64
            k += 1
        if by == BY_DRAW and st[PHASE] != DREW:  # stuck: it draws (its one action)
            legal[k] = DRAW_ACTION
            k += 1
    for i in range(k):
        mask[legal[i]] = 1
    box[B_COUNT] = k
    box[B_JOKERS] = njokers
    return over + 2 * seat + 32 * k


@hot
def act(
    box: np.ndarray, ext: np.ndarray, beyond: np.ndarray, log: np.ndarray, mask: np.ndarray,
    index: int,
) -> int:  # fmt: skip
    """Apply action ``index`` of the shared space if it is legal now; the code (-1, and
    nothing changed, if it is not)."""
    if index < 0 or index >= NUM_ACTIONS or mask[index] == 0:
        return -1
    if index < COVER_BASE:
        action = index
    elif index < PASS_ACTION:
        action = COVER + index - COVER_BASE
    elif index == PASS_ACTION:
        action = PASS
    elif index == DRAW_ACTION:
        action = DRAW  # the card from the game's random stream
    elif index >= TRUMP_BASE:  # the trump of the place's rank, in that place
        x = index - TRUMP_BASE
        action = -1
        for i in range(box[B_JOKERS]):
            if box[B_JX + i] == 64 + x:
                action = JOKER + 64 * (64 + x) + box[B_JY + i]
        if action < 0:
            return -1
    elif index >= GIVE_BASE:
        action = GIVE + index - GIVE_BASE
    else:
        x = index - JOKER_BASE
        action = -1
        for i in range(box[B_JOKERS]):
            if box[B_JX + i] == x:
                action = JOKER + 64 * x + box[B_JY + i]
        if action < 0:
            return -1
    st = box[B_STATE : B_STATE + STATE]
    R = box[B_RULES : B_RULES + RULES]
    apply(st, R, ext, beyond, log, action)
    return refill(box, beyond, mask)


@hot
def draw_card(
    box: np.ndarray, ext: np.ndarray, beyond: np.ndarray, log: np.ndarray, mask: np.ndarray,
    card: int,
) -> int:  # fmt: skip
    """The seat to move draws ``card`` from the stock (``DRAW_CARD + card``: chance chose it
    outside the game) where the draw is legal now and the stock holds ``card``; the code
    (-1, and nothing changed, if not)."""
    st = box[B_STATE : B_STATE + STATE]
    if mask[DRAW_ACTION] == 0 or card < 0 or card >= 52 or not (st[STOCK] >> card) & 1:
        return -1
    R = box[B_RULES : B_RULES + RULES]
    apply(st, R, ext, beyond, log, DRAW_CARD + card)
    return refill(box, beyond, mask)


@hot
def begin(
    box: np.ndarray, ext: np.ndarray, beyond: np.ndarray, log: np.ndarray, mask: np.ndarray,
    door: int,
) -> int:  # fmt: skip
    """Start a game from the hands in the state vector (and ``door``, -1 for none)."""
    st = box[B_STATE : B_STATE + STATE]
    R = box[B_RULES : B_RULES + RULES]
    start(st, R, ext, beyond, log, door)
    return refill(box, beyond, mask)


@hot
def deal_seed(
    box: np.ndarray, ext: np.ndarray, beyond: np.ndarray, log: np.ndarray, mask: np.ndarray,
    key: int, deck: np.ndarray,
) -> int:  # fmt: skip
    """Deal and start the game of the stream of ``key`` (``paiqi_core.streams.key_of`` of a
    seed, as an int64), as ``Game.new_state(seed)`` does; the game keeps drawing from that
    stream in ``play_random_until``."""
    st = box[B_STATE : B_STATE + STATE]
    R = box[B_RULES : B_RULES + RULES]
    st[KEY] = key
    st[DRAWN] = 0
    st[GEN] = 0
    deal(st, R, ext, beyond, log, deck)
    return refill(box, beyond, mask)


@hot
def play_random_until(
    box: np.ndarray, ext: np.ndarray, beyond: np.ndarray, log: np.ndarray, mask: np.ndarray,
    seat: int, limit: int,
) -> int:  # fmt: skip
    """The other seats play as ``RandomAgent`` drawing from the game's stream, until
    ``seat`` is to move, the game is over or ``limit`` actions were played; the code."""
    st = box[B_STATE : B_STATE + STATE]
    R = box[B_RULES : B_RULES + RULES]
    jx = box[B_JX : B_JX + 16]
    jy = box[B_JY : B_JY + 16]
    played = 0
    while not st[OVER] and st[TURN] != seat and played < limit:
        action = choose(st, R, beyond, log, RANDOM, jx, jy)
        apply(st, R, ext, beyond, log, action)
        played += 1
    return refill(box, beyond, mask) + 8192 * played


@step
def _cards(out: np.ndarray, at: int, cards: int) -> None:
    while cards:
        out[at + lowest(cards)] = 1
        cards &= cards - 1


@step
def _more(out: np.ndarray, at: int, cards: int) -> None:
    """One more copy of each card of ``cards`` (a plane of several decks)."""
    while cards:
        out[at + lowest(cards)] += 1
        cards &= cards - 1


@hot
def observe(box: np.ndarray, seat: int, private: bool, out: np.ndarray) -> None:
    """Write what ``seat`` sees into the first entries of ``out`` (float32), as
    ``Layout.write_observation``: its own cards only if ``private``."""
    st = box[B_STATE : B_STATE + STATE]
    n = box[B_RULES + R_PLAYERS]
    for i in range(O_SEATS + 8 * n + 1):
        out[i] = 0
    if private:
        _cards(out, O_HAND, one_joker(st[HAND + seat]))
        _more(out, O_HAND, st[TWICE + seat])
        _more(out, O_HAND, st[THRICE + seat])
        _cards(out, O_COVERED, one_joker(st[COVERED + seat]))
    _cards(out, O_TABLE, st[TABLE])
    _more(out, O_TABLE, st[TABLE_TWICE])
    _more(out, O_TABLE, st[TABLE_THRICE])
    for k in range(MAX_JOKERS):
        at = st[JOKER_AT + k]
        if at >= 0:
            out[O_TABLE + 52] = 1
            out[O_JOKER_PLACE + at] = 1
    _cards(out, O_JOKER_PLACE, st[TRUMPED])  # places held by a trump of another suit
    _cards(out, O_LAID, one_joker(st[LAID]))
    if st[DOOR] >= 0:
        out[O_DOOR + st[DOOR]] = 1
    _cards(out, O_FACE_UP, st[POOL])
    for k in range(st[NOPENED]):
        out[O_OPENED + 4 * st[OPENED + k] + k] = 1
    out[O_SEATS + seat] = 1
    if not st[OVER]:
        out[O_SEATS + n + (st[TURN] - seat + n) % n] = 1
    for s in range(n):
        rel = (s - seat + n) % n
        if st[FINISH + s] >= 0:
            out[O_SEATS + 2 * n + rel] = 1
        if st[BURSTED + s] >= 0:
            out[O_SEATS + 3 * n + rel] = 1
        if st[LEFT + s]:
            out[O_SEATS + 4 * n + rel] = 1
        out[O_SEATS + 5 * n + rel] = held(st, s)  # every copy counted
        out[O_SEATS + 6 * n + rel] = popcount(st[COVERED + s])
        out[O_SEATS + 7 * n + rel] = st[PASSES + s]
    out[O_SEATS + 8 * n] = popcount(st[STOCK])


@hot
def look(
    box: np.ndarray, seat: int, private: bool, mask: np.ndarray, out: np.ndarray,
    out_mask: np.ndarray, moving: bool,
) -> None:  # fmt: skip
    """``observe`` into ``out``, and the mask of the legal actions into ``out_mask`` (zeros
    unless ``moving``): what an environment gives an agent, in one call."""
    observe(box, seat, private, out)
    if moving:
        for i in range(NUM_ACTIONS):
            out_mask[i] = mask[i]
    else:
        for i in range(NUM_ACTIONS):
            out_mask[i] = 0


@hot
def respond(
    box: np.ndarray, ext: np.ndarray, beyond: np.ndarray, log: np.ndarray, mask: np.ndarray,
    index: int, seat: int, limit: int, out: np.ndarray, out_mask: np.ndarray,
) -> int:  # fmt: skip
    """One turn of a single-seat environment: ``seat`` takes action ``index`` (-1, and
    nothing changed, if it is not legal), the others play as ``play_random_until`` (at most
    ``limit`` actions), and what ``seat`` then sees goes to ``out`` and ``out_mask``
    (``look``); the code."""
    code = act(box, ext, beyond, log, mask, index)
    if code < 0:
        return code
    st = box[B_STATE : B_STATE + STATE]
    if not st[OVER] and st[TURN] != seat and limit > 0:
        code = play_random_until(box, ext, beyond, log, mask, seat, limit)
    look(box, seat, True, mask, out, out_mask, not st[OVER] and st[TURN] == seat)
    return code


@hot
def act_look(
    box: np.ndarray, ext: np.ndarray, beyond: np.ndarray, log: np.ndarray, mask: np.ndarray,
    index: int, out: np.ndarray, out_mask: np.ndarray,
) -> int:  # fmt: skip
    """``act``, then what the seat to move sees (``look``, its mask zeros once the game is
    over) into ``out`` and ``out_mask``: for a learner that looks after every step."""
    code = act(box, ext, beyond, log, mask, index)
    if code >= 0:
        st = box[B_STATE : B_STATE + STATE]
        look(box, st[TURN], True, mask, out, out_mask, not st[OVER])
    return code
