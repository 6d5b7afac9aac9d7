"""The engine's invariants, for authors of profiles and plugin hooks.

``check_game(game)`` plays random games under ``game`` and checks, at every step, what
must hold whatever the rules:

- every legal action applies, and leaves every card in exactly one place;
- every other action is refused with a reason, and refusing it changes nothing;
- an observation shows a seat nothing of the other hands or of covered cards: moving the
  other seats' cards between them leaves it unchanged;
- the game ends (within a bound), and its money (with the house's share) sums to zero,
  unless the scoring declares no fixed sum of money (each player keeping its own total);
- a clone and a pickled copy play on to the same end;
- the game's record replays exactly.

It raises ``GameCheckFailed`` (an ``AssertionError``) that says which game, which step and
what went wrong, so it reads well in a pytest run::

    from paiqi_core import Game
    from paiqi_core.testing import check_game

    def test_my_rules():
        check_game(Game("my_rules.yaml"))
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterable

from paiqi_core.actions import (
    BURST,
    COVER,
    CUT,
    JOKER,
    LEAVE,
    PASS,
    PLACE,
    SWAP,
    action_text,
    joker_action,
)
from paiqi_core.cards import CARDS, SUITED, bits, is_joker
from paiqi_core.core.plain import trump_cards_down
from paiqi_core.engine import Game, IllegalAction, State
from paiqi_core.limits import limits
from paiqi_core.records import replay, state_record
from paiqi_core.seeds import game_seed

MAX_ACTIONS = 2000  # no game under any sensible rules comes near this


class GameCheckFailed(AssertionError):
    """An invariant of the engine does not hold for a game."""


def check_game(game: Game, games: int = 20, seed: int = 0) -> None:
    """Play ``games`` random games of ``game`` and check the engine's invariants at every
    step; raises ``GameCheckFailed`` at the first one broken."""
    for index in range(games):
        deal = game_seed(seed, index)
        try:
            _check_one(game, deal)
        except GameCheckFailed as e:
            raise GameCheckFailed(f"{game.id}, deal {deal}: {e}") from None


def money_changes_hands(game: Game) -> bool:
    """Whether a game's money only changes hands, summing to zero with the house's share:
    unless the scoring settles money and declares no fixed sum of it (each player keeping
    its own total: twstar 排7, the poker7 app)."""
    scoring = game.rules.scoring
    utility_sum = getattr(scoring, "utility_sum", None)
    return not (
        scoring.facts.objective == "money"
        and callable(utility_sum)
        and utility_sum(limits(game.rules)) is None
    )


def _check_one(game: Game, deal: int) -> None:
    state = game.new_state(deal)
    rng = random.Random(deal)
    steps = 0
    _check_cards(state, "after the deal")
    while not state.is_terminal():
        steps += 1
        if steps > MAX_ACTIONS:
            raise GameCheckFailed(f"the game did not end within {MAX_ACTIONS} actions")
        where = f"step {steps} (seat {state.current_seat()} to move)"
        legal = state.legal_actions()
        if not legal:
            raise GameCheckFailed(f"{where}: the player to move has no legal action")
        if legal != sorted(set(legal)):
            raise GameCheckFailed(f"{where}: legal actions not sorted and distinct: {legal}")
        for action in legal:
            _check_legal(state, action, where)
        _check_refusals(state, legal, where)
        _check_hidden(state, rng, where)
        state.apply(legal[rng.randrange(len(legal))])
        _check_cards(state, f"after {where}")
    result = state.result()
    if sum(result.money) + result.house != 0 and money_changes_hands(game):
        raise GameCheckFailed(f"money {result.money} and house {result.house} do not sum to 0")
    _check_copies(game, deal)
    record = json.loads(json.dumps(state_record(state), ensure_ascii=False))
    problems = replay(record, game)
    if problems:
        raise GameCheckFailed("its record does not replay: " + "; ".join(problems))


def _check_legal(state: State, action: int, where: str) -> None:
    reason = state.why_illegal(action)
    if reason is not None:
        raise GameCheckFailed(f"{where}: legal {action_text(action)} is refused: {reason}")
    after = state.clone()
    try:
        after.apply(action)
    except Exception as e:  # anything at all: a legal action must apply
        raise GameCheckFailed(f"{where}: legal {action_text(action)} fails: {e!r}") from e
    _check_cards(after, f"{where}, after {action_text(action)}")


def _candidates(state: State) -> Iterable[int]:
    """Actions worth trying as illegal: every play and cover, a pass, events, joker moves
    on and beside the table, and numbers that are no action at all."""
    yield from range(CARDS)
    yield from (COVER + c for c in range(CARDS))
    yield PASS
    yield from (CUT, PLACE + 6, SWAP + 6, BURST, LEAVE, -1, 999, JOKER + 64 * 60)
    hand = state.hands[state.turn]
    for at in bits(state.frontier | (state.table & SUITED)):
        for card in bits(hand & SUITED):
            if card // 13 == at // 13:
                yield joker_action(at, card)


def _check_refusals(state: State, legal: list[int], where: str) -> None:
    allowed = set(legal)
    before = _snapshot(state)
    for action in _candidates(state):
        if action in allowed:
            continue
        reason = state.why_illegal(action)
        if not reason:
            raise GameCheckFailed(f"{where}: {action_text(action)} is not legal, yet no reason")
        try:
            state.apply(action)
        except IllegalAction:
            pass
        else:
            raise GameCheckFailed(f"{where}: illegal {action_text(action)} was applied")
        if _snapshot(state) != before:
            raise GameCheckFailed(f"{where}: refusing {action_text(action)} changed the game")
    other = (state.turn + 1) % state.game.players
    for action in legal[:1]:
        if other != state.turn and not state.why_illegal(action, seat=other):
            raise GameCheckFailed(f"{where}: seat {other} may move out of turn")


def _snapshot(state: State) -> tuple[object, ...]:
    return (
        tuple(state.hands),
        tuple(state.covered),
        state.table,
        state.turn,
        len(state.log),
        tuple(state.passes),
        state.over,
    )


def _check_hidden(state: State, rng: random.Random, where: str) -> None:
    """Dealing the other seats' held and covered cards anew among them (each keeping as
    many of each as it has) leaves a seat's observation as it was."""
    n = state.game.players
    for seat in range(n):
        others = [s for s in range(n) if s != seat]
        changed = state.clone()
        masks = [(s, kind) for s in others for kind in ("hands", "covered")]
        places = state.jokers_at  # the cards there are on the table too: they stay
        pool = [c for s, kind in masks for c in bits(getattr(changed, kind)[s] & ~places)]
        rng.shuffle(pool)
        for s, kind in masks:
            cards = getattr(changed, kind)
            keep = cards[s] & places
            size = cards[s].bit_count() - keep.bit_count()
            cards[s] = keep | sum(1 << c for c in pool[:size])
            pool = pool[size:]
        if changed.observation(seat) != state.observation(seat):
            raise GameCheckFailed(
                f"{where}: seat {seat}'s observation changes with the other seats' cards"
            )


def _check_cards(state: State, where: str) -> None:
    """Each suited card is in exactly one place: a hand, covered, on the table, or dealt to
    no seat (face up, or in the stock) (the places jokers hold may also be cards that were
    covered)."""
    seen = 0
    table = state.table  # (places: with trumps, the cards lying in them)
    if state.trumped and state.door_card is not None:
        table = trump_cards_down(table, state.trumped, state.door_card)
    for mask in (*state.hands, *state.covered, table, state.pool, state.stock):
        overlap = seen & mask & SUITED
        if overlap & ~state.jokers_at:
            cards = ", ".join(action_text(c) for c in bits(overlap))
            raise GameCheckFailed(f"{where}: {cards} in two places at once")
        seen |= mask
    missing = [c for c in state.game.deck if not is_joker(c) and not seen >> c & 1]
    if missing:
        raise GameCheckFailed(f"{where}: {', '.join(map(action_text, missing))} went missing")


def _check_copies(game: Game, deal: int) -> None:
    """A clone taken mid-game and a pickled copy play on exactly as the original does."""
    original = game.new_state(deal)
    rng = random.Random(deal)
    for _ in range(len(game.deck) // 3):
        if original.is_terminal():
            break
        legal = original.legal_actions()
        original.apply(legal[rng.randrange(len(legal))])
    copies = [original.clone(), pickle.loads(pickle.dumps(original))]
    ends = []
    for state in (original, *copies):
        play = random.Random(deal + 1)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[play.randrange(len(legal))])
        ends.append((state.log, state.result()))
    if any(end != ends[0] for end in ends[1:]):
        raise GameCheckFailed("a clone or an unpickled copy plays on differently")
