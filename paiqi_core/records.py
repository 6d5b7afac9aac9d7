"""Game records (JSON Lines) and their replay.

One JSON object per game: profile, options (overrides), seed, players, hands as dealt,
door_card, every action and automatic event in order, and the result. ``replay`` re-runs a
record through the engine and lists every disagreement.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema

from paiqi_core import resources
from paiqi_core.actions import from_record, is_event, record_action
from paiqi_core.cards import bits, card_text, parse_card
from paiqi_core.engine import Game, State
from paiqi_core.games import game_for
from paiqi_core.profile import Location, Problem, ProfileError


def state_record(state: State) -> dict[str, Any]:
    """The record of a game (finished or not: ``result`` is None until it is over)."""
    game = state.game
    return {
        "profile": game.id,
        "options": dict(game.rules.options),
        "seed": state.seed,
        "players": game.players,
        "hands": [[card_text(c) for c in bits(h)] for h in state.dealt],
        "door_card": None if state.door_card is None else card_text(state.door_card),
        "actions": [record_action(s, a) for s, a in state.log],
        "result": state.result().as_record() if state.over else None,
    }


@dataclass(frozen=True)
class RecordLine:
    """One record of a file and its line number."""

    line: int
    data: dict[str, Any]


def read_records(path: Path) -> Iterator[RecordLine | ProfileError]:
    """Records of a JSON Lines file; a malformed line yields its located error."""
    validator = jsonschema.Draft202012Validator(resources.schema("record"))
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as e:
                yield ProfileError(
                    [Problem(Location(str(path), number, e.colno), (), f"not JSON: {e.msg}")]
                )
                continue
            errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
            if errors:
                yield ProfileError(
                    [
                        Problem(Location(str(path), number, 1), tuple(e.absolute_path), e.message)
                        for e in errors
                    ]
                )
                continue
            yield RecordLine(number, data)


def record_game(record: Mapping[str, Any]) -> Game:
    """The compiled game a record was played under (its profile and options)."""
    return game_for(record["profile"], dict(record.get("options", {})))


def replay(record: Mapping[str, Any], game: Game | None = None) -> list[str]:
    """Re-run a record (under ``game``, or the game its profile and options name); the
    list of disagreements (empty when it replays exactly)."""
    game = game or record_game(record)
    problems: list[str] = []
    if record["players"] != game.players:
        return [f"players: record has {record['players']}, profile {game.id} has {game.players}"]
    hands = [[parse_card(c) for c in hand] for hand in record["hands"]]
    seed = record.get("seed")
    if seed is not None and [sorted(h) for h in hands] != game.deal(seed):
        problems.append(f"hands: not the deal of seed {seed}")
    door = parse_card(record["door_card"]) if record.get("door_card") else None
    if seed is not None and door is not None and door != game.door_card_of(seed):
        cut = game.door_card_of(seed)
        problems.append(
            f"door_card: not the door card of seed {seed} "
            f"({card_text(cut) if cut is not None else 'none is cut'})"
        )
    state = game.new_state(seed=seed, hands=hands, door_card=door)
    for i, entry in enumerate(record["actions"]):
        action = from_record(entry)
        if is_event(action):
            if i >= len(state.log) or state.log[i] != (entry["seat"], action):
                problems.append(
                    f"actions[{i}]: the record has an event the engine did not "
                    f"produce here: {entry}"
                )
                return problems
            continue
        if len(state.log) != i:
            problems.append(
                f"actions[{i}]: the engine logged {record_action(*state.log[i])} "
                "here, which the record lacks"
            )
            return problems
        reason = state.why_illegal(action, entry["seat"])
        if reason is not None:
            problems.append(
                f"actions[{i}] ({entry['seat']} {entry['type']} "
                f"{entry.get('card', '')}): {reason}".replace(" )", ")")
            )
            return problems
        state.apply_unchecked(action)
    if len(state.log) > len(record["actions"]):
        extra = record_action(*state.log[len(record["actions"])])
        problems.append(
            f"actions[{len(record['actions'])}]: the engine logged {extra} here, "
            "which the record lacks"
        )
        return problems
    if not state.over:
        problems.append("the actions end before the game is over")
        return problems
    expected = record.get("result")
    if expected is not None:
        actual = state.result().as_record()
        for key, want in expected.items():
            got = actual.get(key)
            if key == "money":
                same = [Fraction(str(x)) for x in want] == [Fraction(str(x)) for x in got or []]
            else:
                same = want == got
            if not same:
                problems.append(f"result.{key}: record says {want}, the engine gives {got}")
    return problems
