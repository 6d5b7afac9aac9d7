"""Run examples against the engine and report each difference."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from paiqi_core.actions import ActionError, action_text, is_event, parse_action
from paiqi_core.cards import CardError, bits, card_text, parse_card, parse_cards
from paiqi_core.engine import Game, State
from paiqi_core.games import game_for
from paiqi_core.hooks.scoring_placement import rank_points
from paiqi_core.match import run_match
from paiqi_core.outcome import Result
from paiqi_core.profile import Problem, ProfileError
from paiqi_core.session import run_session
from paiqi_core.verify.extract import Example
from paiqi_core.verify.scenario import Seats, SetupError, build_state, outcomes_from_facts

SETUPS = ("game", "position", "settlement", "session", "match")  # an example's one setup
RESULT_KEYS = ("total", "rank", "labels", "money", "winners", "house", "exempt")


@dataclass
class Outcome:
    """The verdict on one example: failures per profile (empty when it passed)."""

    example: Example
    profiles: list[str]
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Whether every check of the example held."""
        return not self.failures


def _fmt(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _money(value: Any) -> Fraction:
    return Fraction(str(value))


def _money_text(m: Fraction) -> str:
    return str(m.numerator) if m.denominator == 1 else f"{m.numerator}/{m.denominator}"


def _compare(key: str, expected: Any, actual: Any, failures: list[str], where: str) -> None:
    if expected != actual:
        failures.append(
            f"{where}{key}\n  - expected: {_fmt(expected)}\n  + actual:   {_fmt(actual)}"
        )


def _card_set(cards: Iterable[str]) -> list[str]:
    return [card_text(c) for c in sorted(set(parse_cards(list(cards))))]


def _card_list(cards: Iterable[str], decks: int) -> list[str]:
    """Cards as written, in card order; with several decks a card may be written again."""
    if decks == 1:
        return _card_set(cards)
    return [card_text(c) for c in sorted(parse_cards(list(cards)))]


def _seat_list(seats: Seats, items: Iterable[Any]) -> list[str]:
    return [seats.name(seats.index(x)) for x in items]


def _check_state(
    state: State,
    seats: Seats,
    expect: Mapping[str, Any],
    failures: list[str],
    where: str,
    since: int = 0,
) -> None:
    """Compare a state with expectations; ``events`` are those logged from ``since`` on."""
    decks = state.game.rules.decks
    for key, want in expect.items():
        if key == "hands":
            for seat, cards in want.items():
                s = seats.index(seat)
                _compare(
                    f"hands.{seats.name(s)}",
                    _card_list(cards, decks),
                    [card_text(c) for c in state.held(s)],
                    failures,
                    where,
                )
            continue
        if key == "events":
            logged = [
                f"{seats.name(s)} {action_text(a)}" for s, a in state.log[since:] if is_event(a)
            ]
            _compare(key, [str(w) for w in want], logged, failures, where)
            continue
        if key in ("finished", "bursts"):
            done = state.finished if key == "finished" else state.bursts
            _compare(key, _seat_list(seats, want), [seats.name(s) for s in done], failures, where)
            continue
        if key == "pass_counts":
            _compare(key, list(want), list(state.passes), failures, where)
            continue
        if key == "legal":
            want_acts = sorted({parse_action(a) for a in want})
            _compare(
                key,
                [action_text(a) for a in want_acts],
                [action_text(a) for a in sorted(state.legal_actions())],
                failures,
                where,
            )
        elif key == "counts":
            _compare(key, list(want), state.hand_counts(), failures, where)
        elif key == "covered_counts":
            _compare(key, list(want), [c.bit_count() for c in state.covered], failures, where)
        elif key == "table":
            down = [card_text(c) for c in state.table_cards]
            _compare(key, _card_list(want, decks), down, failures, where)
        elif key == "trumped":  # the places of other suits that trumps took
            places = [card_text(c) for c in bits(state.trumped)]
            _compare(key, _card_set(want), places, failures, where)
        elif key in ("pool", "stock"):
            mask = {"table": state.table, "pool": state.pool, "stock": state.stock}[key]
            _compare(key, _card_set(want), [card_text(c) for c in bits(mask)], failures, where)
        elif key == "turn":
            actual = seats.name(state.turn) if not state.over else "(game over)"
            _compare(key, seats.name(seats.index(want)), actual, failures, where)
        elif key == "terminal":
            _compare(key, bool(want), state.over, failures, where)
        elif key == "door_card":
            door = None if state.door_card is None else card_text(state.door_card)
            wanted = None if want is None else card_text(parse_card(str(want)))
            _compare(key, wanted, door, failures, where)
        elif key in RESULT_KEYS:
            if not state.over:
                failures.append(f"{where}{key}: the game is not over, so there is no result yet")
                continue
            _check_result(state.result(), seats, {key: want}, failures, where)


def _plain(seats: Seats, value: Any) -> Any:
    return list(value) if isinstance(value, list | tuple) else value


def _money_list(seats: Seats, value: Any) -> list[str]:
    return [_money_text(Fraction(str(m))) for m in value]


def _seat_names(seats: Seats, value: Any) -> list[str]:
    return sorted(seats.name(seats.index(w)) for w in value)


def _seats_in_order(seats: Seats, value: Any) -> list[str]:
    return [seats.name(seats.index(w)) for w in value]  # by game, in order


NORMALISE: dict[str, Callable[[Seats, Any], Any]] = {
    "money": _money_list,
    "house": lambda seats, v: _money_text(Fraction(str(v))),
    "winners": _seat_names,
    "reached": _seat_names,
    "leads": _seats_in_order,
    "pickers": _seats_in_order,
}


def _check_values(what: str, actual: Mapping[str, Any], seats: Seats,
                  expect: Mapping[str, Any], failures: list[str], where: str) -> None:  # fmt: skip
    """Compare expected values with ``actual`` ones, both put in one form first."""
    for key, want in expect.items():
        if key not in actual:
            failures.append(f"{where}{key}: not something a {what} has ({', '.join(actual)})")
            continue
        norm = NORMALISE.get(key, _plain)
        _compare(key, norm(seats, want), norm(seats, actual[key]), failures, where)


def _check_result(
    result: Result, seats: Seats, expect: Mapping[str, Any], failures: list[str], where: str
) -> None:
    actual = {
        "money": result.money, "winners": result.winners, "total": result.total,
        "rank": result.rank, "house": result.house, "exempt": result.exempt,
        "labels": result.labels,
    }  # fmt: skip
    _check_values("result", actual, seats, expect, failures, where)


def _run_moves(
    state: State, seats: Seats, moves: list[Any], failures: list[str], where: str
) -> int | None:
    """Apply the moves; the log index where the last move began, or None on a failure."""
    since = 0
    for i, move in enumerate(moves, start=1):
        if isinstance(move, Mapping) and "expect" in move:
            _check_state(
                state, seats, move["expect"], failures, f"{where}after move {i - 1}: ", since
            )
            continue
        text = move["move"] if isinstance(move, Mapping) else move
        seat_text, _, action_text_ = str(text).strip().partition(" ")
        seat = seats.index(seat_text)
        action = parse_action(action_text_)
        reason = state.why_illegal(action, seat)
        if isinstance(move, Mapping):
            want = str(move["rejected"])
            if reason is None:
                failures.append(
                    f"{where}move {i} ({text}): expected to be rejected ({want!r}) but it is legal"
                )
            elif want.lower() not in reason.lower():
                failures.append(
                    f"{where}move {i} ({text}): rejected for another reason\n"
                    f"  - expected: {want}\n  + actual:   {reason}"
                )
            continue
        if reason is not None:
            failures.append(f"{where}move {i} ({text}) was refused: {reason}")
            return None
        since = len(state.log)
        state.apply_unchecked(action)
    return since


def run_example(example: Example) -> Outcome:
    """Run one example against the engine, under each profile it names; a located
    ProfileError for a setup the engine refuses to start from (a joker as the door card),
    so that the other examples of its file still run."""
    data = example.data
    names = [data["profile"]] if "profile" in data else list(data["profiles"])
    outcome = Outcome(example, names)
    overrides = data.get("set", {})
    by_profile = data.get("by_profile", {})
    unknown = set(by_profile) - set(names)
    if unknown:
        outcome.failures.append(f"by_profile names profiles not in this example: {sorted(unknown)}")
    refused: list[Problem] = []
    for name in names:
        where = f"{name}: " if len(names) > 1 else ""
        expect = {**data.get("expect", {}), **by_profile.get(name, {})}
        try:
            game = game_for(name, dict(overrides), beside=example.file)
            seats = Seats(data.get("players"), game.players)
            _run_one(game, seats, data, expect, outcome.failures, where)
        except ProfileError as e:
            outcome.failures.append(f"{where}profile: {e}")
        except (SetupError, CardError, ActionError) as e:
            outcome.failures.append(f"{where}setup: {e}")
        except (ValueError, ArithmeticError) as e:  # the engine cannot start from this setup
            key = next((k for k in SETUPS if k in data), "game")
            message = f"{where}the engine cannot play this {key}: {e}"
            refused.append(Problem(example.location, (key,), message))
    if refused:
        raise ProfileError(refused)
    return outcome


def _run_one(
    game: Game,
    seats: Seats,
    data: Mapping[str, Any],
    expect: Mapping[str, Any],
    failures: list[str],
    where: str,
) -> None:
    if "settlement" in data:
        facts = outcomes_from_facts(game, seats, data["settlement"], data.get("opened"))
        _check_result(game.rules.scoring.score(facts), seats, expect, failures, where)
        return
    if "session" in data:
        _check_session(game, seats, data, expect, failures, where)
        return
    if "match" in data:
        _check_match(game, seats, data, expect, failures, where)
        return
    if not expect and "game" not in data:
        failures.append(f"{where}nothing to check: add 'expect:'")
        return
    if "position" in data:
        state = build_state(game, seats, data["position"], dealt=False)
        _check_state(state, seats, expect, failures, where)
        return
    setup = data["game"]
    state = build_state(game, seats, setup, dealt=True)
    since = _run_moves(state, seats, list(setup.get("moves", [])), failures, where)
    if since is not None:
        _check_state(state, seats, expect, failures, where, since)


def _check_session(
    game: Game,
    seats: Seats,
    data: Mapping[str, Any],
    expect: Mapping[str, Any],
    failures: list[str],
    where: str,
) -> None:
    hands = data["session"]["hands"]
    score = game.rules.scoring.score
    opened = data.get("opened")
    results = [score(outcomes_from_facts(game, seats, facts, opened)) for facts in hands]
    rules = game.rules.session
    session = run_session(results, game.players, rules.hands, rules.bankroll, rules.target)
    actual = {
        "money": session.money, "winners": session.winners,
        "hands_played": session.hands_played, "house": session.house,
        "reached": session.reached,
    }  # fmt: skip
    _check_values("session", actual, seats, expect, failures, where)


def _check_match(
    game: Game,
    seats: Seats,
    data: Mapping[str, Any],
    expect: Mapping[str, Any],
    failures: list[str],
    where: str,
) -> None:
    """A match from its games' ranks (rank points), or from each game's settlement facts."""
    spec = data["match"]
    if "ranks" in spec:  # the games' ranks, scored by rank points
        fixed = game.rules.facts.place_points
        games = [
            Result(rank=tuple(r), winners=(), money=(), total=rank_points(r, fixed))
            for r in spec["ranks"]
        ]
    else:  # each game's settlement facts, scored by the profile (penalty points, say)
        score, opened = game.rules.scoring.score, data.get("opened")
        games = [score(outcomes_from_facts(game, seats, f, opened)) for f in spec["games"]]
        if any(g.total is None for g in games):
            raise SetupError("a match adds up each game's points; this scoring gives none")
    rules = game.rules.match
    match = run_match(
        games, rules.limit, rules.next_lead == "last_winner", rules.next_centre == "last_picks"
    )
    actual = {
        "points": match.points, "winners": match.winners, "games_played": match.games,
        "reached": match.reached, "leads": match.leads, "pickers": match.pickers,
    }  # fmt: skip
    _check_values("match", actual, seats, expect, failures, where)
