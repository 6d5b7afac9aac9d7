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
    topology = game.topology
    ext, successors, reachable = topology.extensions, topology.successors, topology.reachable
    local = successors is not None
    nxt = [(successors[c % 13] << 13 * (c // 13)) if successors else 0 for c in range(52)]
    n = game.players
    covers = game.stuck.name == "cover"
    coverable = game.stuck.coverable
    at_first_out = game.ending.at_first_out
    empty_frontier = game.empty_frontier
    full = SUIT_MASK
    shift_of = [13 * (c // 13) for c in range(52)]
    row_of = [full << 13 * (c // 13) for c in range(52)]
    suit_of = [c // 13 for c in range(52)]
    is_seven = [c % 13 == SEVEN for c in range(52)]
    following = [(seat + 1) % n for seat in range(n)]
    bit_length = [k.bit_length() for k in range(64)]

    def playout(state: State, rng: random.Random) -> None:
        table, started, first = state.table, state.started, state.first_card
        if (first is not None and not started and not is_seven[first]) or (
            local and table and any((table >> 13 * s) & full not in reachable for s in range(4))
        ):
            return generic_playout(state, rng)  # positions that play cannot build
        # Before the first card is down, only that card may be played; the first card is
        # always a 7, whose play adds the other suits' 7s.
        frontier = 1 << first if first is not None and not started else state.frontier
        getrandbits = rng.getrandbits
        hands, covered, played, passes = state.hands, state.covered, state.played, state.passes
        opened, completions, last_play = state.opened, state.completions, state.last_play
        finished = state.finished
        append = state.log.append
        turn, over = state.turn, state.over
        held, passes_before = list(hands), list(passes)
        while not over:
            hand = hands[turn]
            options = hand & frontier
            if options or covers:
                choose_from = options or hand & coverable or hand
                count = choose_from.bit_count()
                if count > 1:  # the r-th lowest card, r uniform as RandomAgent draws it
                    k = bit_length[count]
                    r = getrandbits(k)
                    while r >= count:
                        r = getrandbits(k)
                    while r:
                        choose_from &= choose_from - 1
                        r -= 1
                bit = choose_from & -choose_from
                card = bit.bit_length() - 1
                hand ^= bit
                hands[turn] = hand
                if options:
                    if local:
                        frontier = (frontier ^ bit) | nxt[card]
                    else:
                        table |= bit
                        shift = shift_of[card]
                        row = ext[(table >> shift) & full] << shift
                        frontier = (frontier & ~row_of[card]) | row
                    append((turn, card))
                    if is_seven[card]:
                        opened.append(suit_of[card])
                        if not started:
                            started = True
                            frontier |= empty_frontier & ~row_of[card]
                    elif not frontier & row_of[card]:  # closed: complete, or cut (斬龍)
                        suit = suit_of[card]
                        completions[turn].append(opened.index(suit) + 1)
                        if not local and table & row_of[card] != row_of[card]:
                            append((turn, CUT + suit))
                    if not hand:
                        last_play[turn] = card
                else:
                    covered[turn] |= bit
                    append((turn, COVER + card))
                if not hand:
                    finished.append(turn)
                    if at_first_out or len(finished) == n:
                        over = True
                        break
            else:
                passes[turn] += 1
                append((turn, PASS))
            turn = following[turn]  # someone still holds cards: the game is not over
            while not hands[turn]:
                turn = following[turn]
        actions = state.actions
        for seat in range(n):  # what left a hand without being covered went to the table
            gone = held[seat] & ~hands[seat]
            laid = gone & ~covered[seat]
            played[seat] += laid.bit_count()
            actions[seat] += gone.bit_count() + passes[seat] - passes_before[seat]
            table |= laid
        if started:
            state.frontier = frontier
        state.table, state.turn, state.started, state.over = table, turn, started, over

    return playout
