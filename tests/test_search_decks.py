"""The search players at tables of several decks (``deck.decks``): deals weighed by the
others' play start as the engine deals them, copies and all, and count the same in the
compiled engine and in Python; every search player makes only legal moves to the end of a
game; and a tournament of the three levels runs at Badam Satti's eight-player table."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from paiqi_core import Game, State
from paiqi_core.agents import RandomAgent, make_agent
from paiqi_core.belief import Belief
from paiqi_core.cli import main
from paiqi_core.search.inference import Weigher

TABLES = [("deck.decks=2", "players=8"), ("deck.decks=3", "players=5", "turn.pass_limit=2")]


def stopped(game: Game, count: int, seed: int) -> list[State]:
    """Games of random play stopped at random points."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = game.new_state(seed * 100 + i)
        players = [RandomAgent(random.Random(i * 10 + s), game=game) for s in range(game.players)]
        for _ in range(rng.randrange(4, 70)):
            if state.over:
                break
            state.apply_unchecked(players[state.turn].act(state.observation(state.turn)))
        if not state.over:
            out.append(state)
    return out


@pytest.mark.parametrize("sets", TABLES)
def test_every_weighed_deal_starts_as_the_engine_deals_it(sets: tuple[str, ...]) -> None:
    from paiqi_core.fast.finish import encode

    game = Game("pagat", list(sets))
    rng = random.Random(1)
    for state in stopped(game, 6, 2):
        weigher = Weigher(Belief(game, state.observation(state.turn)))
        for deal in [state, *Belief(game, state.observation(state.turn)).samples(rng, 4)]:
            hands = [deal.dealt_cards(s) for s in range(game.players)]
            assert any(len(set(h)) < len(h) for h in hands)  # some hand holds a card twice
            fresh = game.new_state(hands=hands, door_card=deal.door_card)
            assert weigher._start(deal).tolist() == encode(fresh).tolist()


@pytest.mark.parametrize("sets", TABLES)
def test_compiled_counts_equal_the_python_replay(sets: tuple[str, ...]) -> None:
    game = Game("pagat", list(sets))
    rng = random.Random(9)
    disagreeing = 0
    for state in stopped(game, 8, 4):
        belief = Belief(game, state.observation(state.turn))
        weigher = Weigher(belief)
        assert weigher.compiled
        deals = [state, *belief.samples(rng, 4)]
        for deal, row in zip(deals, weigher.disagreements(deals), strict=True):
            assert row == weigher.replayed(deal)
            disagreeing += row[1] > 0
    assert disagreeing >= 10  # random players often move as the rule-based one would not


@pytest.mark.parametrize(
    "players",
    [
        ("hard", "normal", "easy", "normal", "easy", "normal", "easy", "normal"),
        ("pimc:4x1", "ismcts:40", "normal", "easy", "pimc:4x1", "ismcts:40", "normal", "easy"),
    ],
)
def test_search_players_make_legal_moves_to_the_end(players: tuple[str, ...]) -> None:
    game = Game("pagat", ["deck.decks=2", "players=8", "turn.pass_takes=chosen"])
    rng = random.Random(3)
    agents = [make_agent(name, rng, game) for name in players]
    state = game.new_state(5)
    moves = 0
    while not state.over:
        seat = state.turn
        observation = state.observation(seat)
        action = agents[seat].act(observation)
        assert action in observation.legal
        state.apply(action)
        moves += 1
    assert moves > 80  # 104 cards, and the first player out ends the game
    assert sum(state.hand_counts()) + len(state.table_cards) == 104


def test_a_tournament_of_the_levels_runs_at_eight_players_with_two_decks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "pagat", "--set", "deck.decks=2", "--set", "players=8",
            "--agents", "easy,normal,guided:4x1", "--games", "1", "--workers", "1",
            "--db", str(tmp_path / "runs.db"), "--json"]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    players = {p["agent"]: p for p in report["players"]}
    assert set(players) == {"easy", "normal", "guided:4x1"}
    # each pair plays the deal as A B A B ... and B A B A ...: 2 games of 8 seats, half each
    assert all(p["seat_games"] == 2 * 2 * 4 for p in players.values())
