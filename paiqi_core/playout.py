"""Random play to the end of a game, specialised once per Game.

Random agents are what large simulations run, so their loop is generated here from the
game's rules (only the branches those rules need) and compiled once per Game, reading the
game's tables and holding the state's fields in local variables. It makes
exactly the choices that ``RandomAgent`` makes on observations with the same random stream
(a property test holds the two paths equal): uniform over the sorted legal actions, and no
random draw at all for a forced action.
"""

from __future__ import annotations

import linecache
import random
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING

from paiqi_core.actions import COVER, CUT, PASS
from paiqi_core.cards import SEVEN, SUIT_MASK
from paiqi_core.streams import Stream, draws

if TYPE_CHECKING:
    from paiqi_core.engine import Game, State

Playout = Callable[["State", random.Random], None]


def below(rng: random.Random, n: int) -> int:
    """A uniform index in ``range(n)``; a single option draws nothing."""
    if n <= 1:
        return 0
    k = n.bit_length()
    if type(rng) is Stream:  # its words at once, rather than through getrandbits
        word, drop = rng.next_word, 64 - k
        r = word() >> drop
        while r >= n:
            r = word() >> drop
        return r
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def generic_playout(state: State, rng: random.Random) -> None:
    """Any rules: list the legal actions and pick one."""
    while not state.over:
        acts = state.legal_actions()
        state.apply_unchecked(acts[below(rng, len(acts))])


# The loop of a simple game (must play; unlimited covers or passes; no joker; the game ends
# when every hand is empty or at the first player out), written once with a slot for each
# rule that changes it. ``compile_playout`` fills the slots for one game's rules and
# compiles the result, so the loop tests no rule while it runs.
_LOOP = """
def playout(state, rng):
    table, started, first = state.table, state.started, state.first_card
    if state.over:
        return
    if (first is not None and not started and not is_seven[first]) or (
        table and any((table >> 13 * s) & SUIT_MASK not in reachable for s in range(4))
    ):
        return generic_playout(state, rng)  # positions that play cannot build
    # Before the first card is down, only that card may be played; the first card is
    # always a 7, whose play adds the other suits' 7s.
    frontier = 1 << first if first is not None and not started else state.frontier
    word, width = draws(rng)  # word() >> (width - k) is rng.getrandbits(k), drawn quicker
    drop = drops[width]
    hands, covered, played, passes = state.hands, state.covered, state.played, state.passes
    opened, completions, last_play = state.opened, state.completions, state.last_play
    finished = state.finished
    append = state.log.append
    turn = state.turn
    held, passes_before = list(hands), list(passes)
    while True:
        hand = hands[turn]
        options = hand & frontier
        if options:
{draw_options}
            hand ^= bit
            hands[turn] = hand
            card = bit.bit_length() - 1
{update_frontier}
            append((turn, card))
            if is_seven[card]:
                opened.append(suit_of[card])
                if not started:
                    started = True
                    frontier |= empty_frontier & ~row_of[card]
            elif not frontier & row_of[card]:  # the row closed
                suit = suit_of[card]
                completions[turn].append(opened.index(suit) + 1)
{cut_event}
            if not hand:
                last_play[turn] = card
{finish}
{stuck}
        turn = following[turn]
{skip_empty_hands}
    actions = state.actions
    for seat in range(players):  # what left a hand without being covered went to the table
        gone = held[seat] & ~hands[seat]
        laid = gone & ~covered[seat]
        played[seat] += laid.bit_count()
        actions[seat] += gone.bit_count() + passes[seat] - passes_before[seat]
        table |= laid
    if started:
        state.frontier = frontier
    state.table, state.turn, state.started, state.over = table, turn, started, True
"""

# the r-th lowest card of {mask}, r uniform as RandomAgent draws it; nothing drawn for one
_DRAW = """
count = {mask}.bit_count()
if count > 1:
    k = drop[count]
    r = word() >> k
    while r >= count:
        r = word() >> k
    while r:
        {mask} &= {mask} - 1
        r -= 1
bit = {mask} & -{mask}
"""
_LOCAL_FRONTIER = "frontier = (frontier ^ bit) | successors_of[card]"
_ROW_TABLE_FRONTIER = """
table |= bit
shift = shift_of[card]
frontier = (frontier & ~row_of[card]) | (extensions[(table >> shift) & SUIT_MASK] << shift)
"""
_CUT_EVENT = "if table & row_of[card] != row_of[card]:\n    append((turn, CUT + suit))"
_FINISH_FIRST_OUT = "finished.append(turn)\nbreak"
_FINISH_ALL_EMPTY = "finished.append(turn)\nif len(finished) == players:\n    break"
_PASS = """
else:
    passes[turn] += 1
    append((turn, PASS))
"""
_COVER = """
else:
    choose_from = hand & coverable or hand
{draw}
    hand ^= bit
    hands[turn] = hand
    covered[turn] |= bit
    append((turn, COVER + bit.bit_length() - 1))
    if not hand:
{finish}
"""
_SKIP_EMPTY_HANDS = "while not hands[turn]:\n    turn = following[turn]"


def _indent(code: str, level: int) -> str:
    return textwrap.indent(textwrap.dedent(code).strip("\n"), "    " * level)


def loop_source(game: Game) -> str | None:
    """The random-play loop for ``game``'s rules as Python source, or None when its rules
    need the generic path. The slot objects say whether the loop applies: a stuck rule that
    always covers or always passes (``loop``), an ending that is first-out or all-empty."""
    rules = game.rules
    stuck, ending = rules.stuck.loop, rules.ending.loop
    if not (rules.must_play and rules.jokers == 0 and stuck and ending):
        return None  # passes with a limit, bursts, the joker, plugin rules: the generic path
    local = rules.topology.successors is not None
    first_out = ending == "first_out"
    finish = _FINISH_FIRST_OUT if first_out else _FINISH_ALL_EMPTY
    if stuck == "cover":
        when_stuck = _COVER.format(
            draw=_indent(_DRAW.format(mask="choose_from"), 1), finish=_indent(finish, 2)
        )
    else:
        when_stuck = _PASS
    source = _LOOP.format(
        draw_options=_indent(_DRAW.format(mask="options"), 3),
        update_frontier=_indent(_LOCAL_FRONTIER if local else _ROW_TABLE_FRONTIER, 3),
        cut_event="" if local else _indent(_CUT_EVENT, 4),  # a line closes only when full
        finish=_indent(finish, 4),
        stuck=_indent(when_stuck, 2),
        skip_empty_hands="" if first_out else _indent(_SKIP_EMPTY_HANDS, 2),
    )
    return "\n".join(line for line in source.splitlines() if line.strip()) + "\n"


def compile_playout(game: Game) -> Playout:
    """The fastest correct random playout for ``game``'s rules."""
    source = loop_source(game)
    if source is None:
        return generic_playout
    topology = game.rules.topology
    successors = topology.successors or (0,) * 13
    n = game.players
    tables: dict[str, object] = {
        "players": n,
        "generic_playout": generic_playout,
        "SUIT_MASK": SUIT_MASK,
        "COVER": COVER,
        "CUT": CUT,
        "PASS": PASS,
        "extensions": topology.extensions,
        # rows that play builds: the per-card successors hold on these (all rows for the
        # row table, which is exact on any row)
        "reachable": topology.reachable if topology.successors else range(1 << 13),
        "successors_of": [successors[c % 13] << 13 * (c // 13) for c in range(52)],
        "coverable": game.rules.stuck.coverable,
        "empty_frontier": game.empty_frontier,
        "shift_of": [13 * (c // 13) for c in range(52)],
        "row_of": [SUIT_MASK << 13 * (c // 13) for c in range(52)],
        "suit_of": [c // 13 for c in range(52)],
        "is_seven": [c % 13 == SEVEN for c in range(52)],
        "following": [(seat + 1) % n for seat in range(n)],
        # by word width: what to drop of a word to draw below count (``streams.draws``)
        "drops": {w: [w - k.bit_length() for k in range(64)] for w in (32, 64)},
        "draws": draws,
    }
    name = f"<random playout of {game.id}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)  # tracebacks
    exec(compile(source, name, "exec"), tables)
    playout: Playout = tables["playout"]  # type: ignore[assignment]
    return playout
