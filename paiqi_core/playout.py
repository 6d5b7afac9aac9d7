"""Random play to the end of a game, specialised once per Game.

Random agents are what large simulations run, so their loop is compiled here into a
closure over the game's tables, with the state's fields held in local variables. It makes
exactly the choices that ``RandomAgent`` makes on observations with the same random stream
(a property test holds the two paths equal): uniform over the sorted legal actions, and no
random draw at all for a forced action.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from paiqi_core.actions import COVER, CUT, PASS
from paiqi_core.cards import SEVEN, SUIT_MASK

if TYPE_CHECKING:
    from paiqi_core.engine import Game, State

Playout = Callable[["State", random.Random], None]


def below(rng: random.Random, n: int) -> int:
    """A uniform index in ``range(n)``; a single option draws nothing."""
    if n <= 1:
        return 0
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def generic_playout(state: State, rng: random.Random) -> None:
    """Any rules: list the legal actions and pick one."""
    while not state.over:
        acts = state.legal_actions()
        state.apply_unchecked(acts[below(rng, len(acts))])


def compile_playout(game: Game) -> Playout:
    """The fastest correct random playout for ``game``'s rules."""
    simple = (
        game.must_play
        and game.stuck.name in ("cover", "pass")
        and game.stuck.limit is None
        and game.jokers == 0
        and game.ending.mode in ("all_empty", "first_out")
    )
    if not simple:  # passes with a limit, bursts, the joker: list the legal actions
        return generic_playout
    ext = game.extensions
    n = game.players
    covers = game.stuck.name == "cover"
    coverable = game.stuck.coverable
    at_first_out = game.ending.at_first_out
    full = SUIT_MASK
    shift_of = [13 * (c // 13) for c in range(52)]
    is_seven = [c % 13 == SEVEN for c in range(52)]
    following = [(seat + 1) % n for seat in range(n)]

    def playout(state: State, rng: random.Random) -> None:
        getrandbits = rng.getrandbits
        first_bit = 0 if state.first_card is None else 1 << state.first_card
        hands, covered, played, passes = state.hands, state.covered, state.played, state.passes
        opened, completions, last_play = state.opened, state.completions, state.last_play
        finished = state.finished
        append = state.log.append
        table, frontier, turn, started = state.table, state.frontier, state.turn, state.started
        over = state.over
        while not over:
            seat = turn
            hand = hands[seat]
            options = hand & (frontier if started or not first_bit else first_bit)
            if options:
                choose_from, stuck = options, False
            elif covers:
                choose_from, stuck = hand & coverable or hand, True
            else:
                choose_from, stuck = 0, True
            if choose_from:
                count = choose_from.bit_count()
                if count > 1:
                    k = count.bit_length()
                    r = getrandbits(k)
                    while r >= count:
                        r = getrandbits(k)
                    while r:
                        choose_from &= choose_from - 1
                        r -= 1
                bit = choose_from & -choose_from
                card = bit.bit_length() - 1
                hand ^= bit
                hands[seat] = hand
                if stuck:
                    covered[seat] |= bit
                    append((seat, COVER + card))
                else:
                    table |= bit
                    played[seat] += 1
                    started = True
                    shift = shift_of[card]
                    row = (table >> shift) & full
                    if is_seven[card]:
                        opened.append(shift // 13)
                    e = ext[row]
                    frontier = (frontier & ~(full << shift)) | (e << shift)
                    append((seat, card))
                    if not e:  # closed: complete, or cut (斬龍)
                        completions[seat].append(opened.index(shift // 13) + 1)
                        if row != full:
                            append((seat, CUT + shift // 13))
                    if not hand:
                        last_play[seat] = card
            else:
                passes[seat] += 1
                append((seat, PASS))
            if not hand:
                finished.append(seat)
                if at_first_out or len(finished) == n:
                    over = True
                    break
            turn = following[seat]  # someone still holds cards: the game is not over
            while not hands[turn]:
                turn = following[turn]
        state.table, state.frontier, state.turn = table, frontier, turn
        state.started, state.over = started, over

    return playout
