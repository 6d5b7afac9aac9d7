"""Replays: game records (JSON Lines) and stored runs' games, step by step.

Records from the browser are read by the same reader as ``paiqi replay`` (line bound,
schema, consistency), from a file of their own in a private temporary folder. A record's
profile must be built in, or the record must carry its rules: a page in a browser does not
make the server read profile files by name. A stored run's game is played again from the
run's stored rules, deal and players, which gives exactly the game the run played.

A replay is a list of steps, one per player action, each the whole table with every hand
(a record shows them all), as ``view`` draws it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from paiqi_core import resources
from paiqi_core.actions import from_record, is_event
from paiqi_core.cards import card_text, parse_card
from paiqi_core.engine import Game, State
from paiqi_core.profile import Location, Problem, ProfileError
from paiqi_core.serve.profiles import problem_json, safe_name
from paiqi_core.serve.settlement import settlement
from paiqi_core.serve.view import (
    ended_by_stall,
    history_entry,
    rules_summary,
    seat_view,
    sort_cards,
    sort_hand,
)

MAX_GAMES = 500  # records listed from one file
MAX_STEPS = 2000  # actions replayed from one record


def read_jsonl(text: str, name: str | None) -> dict[str, Any]:
    """The records of a JSON Lines text: each game's line, profile, seed and players, and
    every line that is not a record with its located problems."""
    from paiqi_core.records import read_records

    shown = safe_name(name, (".jsonl", ".json", ".txt"), "records.jsonl")
    games: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="paiqi-serve-") as folder:
        path = Path(folder) / shown
        path.write_text(text, encoding="utf-8")
        for item in read_records(path):
            if isinstance(item, ProfileError):
                for p in item.problems:
                    moved = Problem(
                        Location(shown, p.location.line, p.location.col), p.path, p.message, p.note
                    )
                    problems.append(problem_json(moved))
                continue
            if len(games) >= MAX_GAMES:
                problems.append(
                    {
                        "line": item.line,
                        "col": 1,
                        "rule": "",
                        "message": f"only the first {MAX_GAMES} games of a file are listed",
                        "text": "",
                    }
                )
                break
            data = item.data
            games.append(
                {
                    "line": item.line,
                    "profile": data["profile"],
                    "seed": data.get("seed"),
                    "players": data["players"],
                    "record": data,
                }
            )
    return {"name": shown, "games": games, "problems": problems}


def _record_game(record: Mapping[str, Any], where: Location) -> Game:
    """The game of a record whose profile is built in or whose rules it carries."""
    from paiqi_core.records import record_game

    if record.get("rules") is None and str(record["profile"]) not in resources.builtin_profiles():
        raise ProfileError(
            [
                Problem(
                    where,
                    ("profile",),
                    f"'{record['profile']}' is not a built-in profile and the record carries "
                    "no rules (records of other profiles store them: paiqi simulate writes them)",
                )
            ]
        )
    return record_game(record, where)


def steps(
    record: Mapping[str, Any],
    name: str = "<record>",
    line: int = 1,
    agents: Sequence[str] = (),
) -> dict[str, Any]:
    """The record replayed: a view after the deal and after each player action, the
    disagreements with the engine if any (the steps stop there), and the settlement."""
    from paiqi_core.records import replay

    where = Location(name, line, 1)
    game = _record_game(record, where)
    problems = replay(record, game)
    hands = [[parse_card(c) for c in hand] for hand in record["hands"]]
    door = parse_card(record["door_card"]) if record.get("door_card") else None
    try:
        state = game.new_state(
            seed=record.get("seed"), hands=hands, door_card=door, lead=record.get("lead")
        )
    except ValueError as e:
        return {"rules": rules_summary(game.rules), "steps": [], "problems": [*problems, str(e)]}
    names = [
        f"seat {s}" + (f" ({agents[s]})" if s < len(agents) else "") for s in range(game.players)
    ]
    out = [_step(state, names, None)]
    for entry in list(record["actions"])[: MAX_STEPS * 2]:
        action = from_record(entry)
        if is_event(action):
            continue
        if state.over or state.why_illegal(action, entry["seat"]) is not None:
            break
        at = len(state.log)  # where the action stands in the history (events follow it)
        state.apply_unchecked(action)
        out.append(_step(state, names, entry, at))
        if len(out) > MAX_STEPS:
            break
    return {
        "rules": rules_summary(game.rules),
        "steps": out,
        "problems": problems,
        "seed": record.get("seed"),
    }


def _step(
    state: State, names: list[str], entry: Mapping[str, Any] | None, at: int = -1
) -> dict[str, Any]:
    """The whole table after one action (``entry``, at ``at`` in the history): the view of
    the seat to move, with every hand."""
    rules = state.game.rules
    seat = state.turn
    first = state.first_card if not state.started else None
    view = seat_view(rules, state.observation(seat), names, first, stalled=ended_by_stall(state))
    # every hand, each copy of a card held (several decks) listed
    view["hands"] = [
        [card_text(c) for c in sort_cards(rules, state.held(s))] for s in range(state.players)
    ]
    view["covered_cards"] = [[card_text(c) for c in sort_hand(rules, m)] for m in state.covered]
    view["history"] = [_full(h, state, i) for i, h in enumerate(view["history"])]
    for seat in view["seats"]:  # the seats' last moves, their covered cards shown too
        seat["last"] = next(
            (
                h
                for h in reversed(view["history"])
                if h["seat"] == seat["seat"] and h["kind"] != "cut"
            ),
            None,
        )
    del view["hand"], view["own_covered"]
    view["last"] = dict(entry) if entry else None
    # the move of this step in the history's form, its card shown (a record shows them all)
    view["move"] = None if entry is None else dict(view["history"][at])
    if state.over:
        outcomes = state.outcomes()
        view["settlement"] = settlement(rules, outcomes, state.result(outcomes))
    return view


def _full(entry: Mapping[str, Any], state: State, i: int) -> dict[str, Any]:
    """A history line with the covered card, the card handed on, or the card drawn shown
    (a record shows every card)."""
    if entry["kind"] not in ("cover", "give", "draw"):
        return dict(entry)
    return history_entry(int(entry["seat"]), state.log[i][1], to=entry.get("to"))


def run_games(db: Path) -> list[dict[str, Any]]:
    """The runs of a results file, each with its profiles and number of games."""
    from paiqi_core.runs.store import Store

    if not db.is_file():
        return []
    with Store.reader(db) as store:
        return [
            {
                "run": info.id,
                "command": info.command,
                "profiles": list(info.spec.profiles),
                "games": info.spec.total_games,
                "played": info.played,
                "agents": list(info.spec.agents),
                "created": info.created,
            }
            for info in store.runs()
        ]


def run_record(db: Path, run: str, profile: str, index: int) -> tuple[dict[str, Any], list[str]]:
    """The record of game ``index`` of ``profile`` in a stored run, played again from the
    run's stored rules, seed and players; and the players by seat."""
    import json

    from paiqi_core.runs.batch import BatchSpec, run_batch
    from paiqi_core.runs.store import Store
    from paiqi_core.serve.sessions import COMMAND as ROOM

    with Store.reader(db) as store:
        spec = store.spec(run)
        if spec is None:
            raise KeyError(f"no run '{run}' in {db.name}")
        if spec.command == ROOM:
            raise KeyError(
                f"run {run} holds a room's deals, played by people: they cannot be played "
                "again from the run (paiqi report and paiqi sql read their figures)"
            )
        if profile not in spec.profiles:
            raise KeyError(f"run {run} plays {', '.join(spec.profiles)}, not '{profile}'")
        if not 0 <= index < spec.total_games:
            raise KeyError(f"run {run} has games 0 to {spec.total_games - 1} of {profile}")
        rules = store.rules(run)
    batch = BatchSpec(
        profile,
        spec.overrides,
        spec.agents_of(profile),
        spec.rotate,
        spec.seed,
        index,
        1,
        records=True,
        rules=rules[profile],
        generator=spec.generator,
    )
    record: dict[str, Any] = json.loads(run_batch(batch).records[0])
    from paiqi_core.runs.batch import seating

    _, agents = seating(batch, record["players"], index)
    return record, agents
