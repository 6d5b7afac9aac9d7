"""The compiled engine (paiqi_core.fast) against the Python engine, the reference.

- it draws from the seed's SplitMix64 stream (``paiqi_core.streams``) word for word, so a
  seed deals the same hands and door card;
- a kernel game is the Python engine's game: for 10,000 games of every built-in profile,
  and for option variants (the joker with each A-K option, 3 and 7 players, voluntary
  passes and covers, pass limits that end in covers or bursts, settlements and fees), the
  log of every move and event and every stored row, every column of it (the course of the
  game and the special rules that fired included), are the same, and every special rule
  the rows name fires in some of those games; game records written from kernel games
  replay without a disagreement; a game too long for the kernel's log gets its rows and
  record from the Python engine;
- its scoring gives the hand-worked results of every documented settlement example, and
  its meld exemption agrees with test_properties' brute-force model on random covered hands;
- playouts from states in the middle of games (``fast_finish``) give the utilities of
  ``search.objective.finish``;
- per-game statistics of kernel runs agree with Python runs on other deals within sampling
  error (a two-sample test, stated below);
- rules with a hook that declares no compiled form, or without numba, fall back to Python,
  saying why.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paiqi_core import Game
from paiqi_core import fast as fast_path
from paiqi_core.agents import RandomAgent
from paiqi_core.cards import parse_card
from paiqi_core.core import layout as L
from paiqi_core.core.scoring import WORK, exempt_points, score
from paiqi_core.fast.compiled import compiled_game
from paiqi_core.fast.finish import fast_finish, fast_finish_after
from paiqi_core.fast.tables import beyond_table
from paiqi_core.games import game_for
from paiqi_core.hooks import registry
from paiqi_core.outcome import PlayerOutcome, Result
from paiqi_core.records import replay
from paiqi_core.resources import builtin_profiles
from paiqi_core.runs.batch import COLUMNS, parse_events
from paiqi_core.runs.batch import game_rows as python_rows
from paiqi_core.runs.kernel_rows import game_rows, log_of, record
from paiqi_core.search.objective import finish, utilities
from paiqi_core.seeds import game_seed
from paiqi_core.simulate import play_game
from paiqi_core.streams import GAMMA, Stream, key_of, mix64, signed
from paiqi_core.topology import compile_topology
from paiqi_core.verify.check import _check_result
from paiqi_core.verify.extract import find_files, load_examples
from paiqi_core.verify.scenario import Seats, outcomes_from_facts

from .conftest import DEVYATKA, ROOT, ROWS_ANYWHERE, SEVENS_FIRST_JOKER
from .test_properties import exemption as model_exemption

PROFILES = sorted(builtin_profiles())
VARIANTS = [
    ("shichinarabe", ("deck.jokers=1",)),
    ("shichinarabe-wrap", ("deck.jokers=1",)),
    ("shichinarabe-tunnel", ("deck.jokers=1",)),
    ("shichinarabe", ("players=3", "deck.jokers=1")),
    ("shichinarabe", ("turn.must_play=true", "scoring.place_points=[5,3]")),
    ("doujue", ("deck.jokers=1",)),
    ("doujue", ("scoring.count=cards", "scoring.bust_above=3", "deck.jokers=1")),
    ("doujue", ("turn.must_play=false", "scoring.stake=0.5")),
    ("doujue", ("turn.stuck=pass", "turn.pass_limit=2")),
    ("doujue-passes", ("players=3", "deck.jokers=1")),
    ("platform", ("deck.jokers=1", "scoring.settlement=difference", "scoring.fee=0.15")),
    ("platform", ("scoring.fee=0.2", "scoring.bust_above=30")),
    ("platform", ("turn.cover_sevens=true", "scoring.all_covered_busts=true")),
    ("platform-zhanlong", ("deck.jokers=1",)),
    ("pagat", ("players=7",)),
    ("pagat", ("turn.must_play=false", "turn.pass_limit=2")),
    ("bicycle", ("players=5", "scoring.pass_cost=3")),
    ("pagat", ("scoring.penalty=cards", "players=5")),
    ("pagat", ("scoring.penalty=pips", "deck.decks=2", "players=8")),
    ("badam-satti", ("scoring.penalty=ranks", "players=3")),
    # the stall rule: a round of passes by choice ends the game (holders tied)
    ("pagat", ("turn.must_play=false", "ending.stall=1")),
    ("shichinarabe", ("turn.pass_limit=null", "ending.stall=2")),
    ("doujue-passes", ("turn.pass_limit=null", "ending.stall=1", "deck.jokers=1")),
    # several jokers, alike: each move uses one, leavers take all theirs
    ("shichinarabe", ("deck.jokers=2",)),
    ("shichinarabe-tunnel", ("players=3", "deck.jokers=2")),
    ("doujue", ("deck.jokers=2",)),
    ("platform", ("deck.jokers=3", "scoring.melds=true")),
    ("pagat", ("players=12", "deck.jokers=4")),
    # no passes at all: a stuck player bursts (or covers) at once
    ("shichinarabe", ("turn.pass_limit=0",)),
    ("shichinarabe", ("turn.pass_limit=0", "deck.jokers=1")),
    ("doujue-passes", ("turn.pass_limit=0",)),
    # another play after a card that ends its line: may (stop with a pass) or must
    ("pagat", ("turn.extra_after_end=may",)),
    ("pagat", ("turn.extra_after_end=must", "turn.must_play=false", "ending.stall=1")),
    ("doujue", ("turn.extra_after_end=may", "deck.jokers=1")),
    ("shichinarabe", ("turn.extra_after_end=may", "deck.jokers=1")),
    ("platform-zhanlong", ("turn.extra_after_end=must",)),
    # the order in which a row leaves its 7 (the joker's moves follow the same table)
    ("shichinarabe", ("layout.sides=high_first", "deck.jokers=1")),
    ("doujue", ("layout.sides=both_first", "deck.jokers=1")),
    ("pagat", ("layout.sides=low_first",)),
    *ROWS_ANYWHERE,
    # the cards an even share leaves lie face up; the player to move may play them
    ("pagat", ("players=5", "deck.leftover=face_up")),
    ("pagat", ("players=7", "deck.leftover=face_up", "turn.extra_after_end=may")),
    ("doujue", ("players=5", "deck.leftover=face_up")),
    ("platform", ("players=3", "deck.leftover=face_up", "scoring.melds=true")),
    ("shichinarabe", ("players=5", "deck.leftover=face_up", "turn.pass_limit=0")),
    ("shichinarabe", ("players=5", "deck.leftover=face_up", "deck.ranks=6-A", "layout.ace=high")),
    # short packs and other centres: Девятка's 36 cards from the 9, Karten-Domino's 32
    ("pagat", DEVYATKA),
    ("pagat", ("deck.ranks=7-A", "layout.centre=8", "layout.sides=both_first", "players=8")),
    ("doujue", ("layout.centre=9", "opening.card=H9", "deck.jokers=1")),
    (
        "doujue",
        ("deck.ranks=A-10", "layout.centre=5", "opening.card=C5", "turn.cover_sevens=false"),
    ),
    ("shichinarabe", ("layout.ace=high", "deck.ranks=7-A", "layout.centre=8", "deck.jokers=1")),
    ("platform-zhanlong", ("layout.centre=9", "turn.extra_after_end=may")),
    # a pass takes a card from the previous player, who chooses it (Ristiseiska, Sjuan)
    (
        "pagat",
        (
            "turn.pass_takes=chosen",
            "layout.ace=low",
            "opening.method=holder_leads",
            "opening.card=C7",
            "turn.extra_after_end=may",
        ),
    ),
    ("pagat", ("turn.pass_takes=chosen", "players=3")),
    ("doujue-passes", ("turn.pass_takes=chosen", "deck.jokers=1")),
    ("shichinarabe", ("turn.pass_takes=chosen", "deck.jokers=2", "turn.pass_limit=2")),
    ("pagat", ("turn.pass_takes=chosen", "turn.must_play=false", "ending.stall=1")),
    # a stock to draw from: a stuck player draws a card and may play it at once
    ("pagat", ("deck.hand=7", "deck.leftover=stock", "turn.draw=one")),
    ("pagat", ("players=5", "deck.leftover=stock", "turn.draw=one", "turn.must_play=false")),
    ("pagat", ("deck.hand=5", "deck.leftover=stock", "turn.draw=one", "turn.pass_limit=2")),
    ("shichinarabe", ("deck.hand=10", "deck.leftover=stock", "turn.draw=one")),
    (
        "doujue-passes",
        ("deck.hand=9", "deck.leftover=stock", "turn.draw=one", "opening.method=first_seat"),
    ),
    ("pagat", ("deck.hand=6", "deck.leftover=stock", "turn.draw=one", "turn.pass_takes=chosen")),
    ("pagat", ("deck.hand=6", "deck.leftover=stock")),
    # tables of more than eight
    ("pagat", ("players=12",)),
    ("doujue", ("players=10", "deck.jokers=1")),
    # several decks: each suit's copies in rows of their own
    ("pagat", ("deck.decks=2", "players=8")),
    ("pagat", ("deck.decks=3", "players=12", "layout.sides=high_first")),
    ("shichinarabe", ("deck.decks=2", "players=10", "turn.pass_limit=null")),
    ("shichinarabe", ("deck.decks=2", "players=9", "turn.pass_limit=1")),
    ("shichinarabe", ("deck.decks=3", "players=12", "turn.pass_limit=0")),
    ("pagat", ("deck.decks=2", "players=6", "turn.extra_after_end=may", "turn.pass_takes=chosen")),
    ("pagat", ("deck.decks=2", "players=9", "turn.must_play=false", "ending.stall=1")),
    ("pagat", ("deck.decks=2", "players=8", *DEVYATKA)),
    # a 7 that can be played goes first (Badam Satti)
    ("pagat", ("turn.sevens_first=true", "turn.must_play=false", "ending.stall=2")),
    ("shichinarabe", SEVENS_FIRST_JOKER),
    ("pagat", ("turn.sevens_first=true", "deck.decks=2", "players=8")),
    # the first player holding a 7 moves first (seven_holder)
    ("bicycle", ("deck.decks=2", "players=8", "opening.method=seven_holder")),
    ("platform-zhanlong", ("opening.method=seven_holder",)),
    (
        "doujue-passes",
        ("opening.method=seven_holder", "deck.hand=9", "deck.leftover=stock", "turn.draw=one"),
    ),
    ("bicycle", ("deck.decks=2", "players=8")),
    # nobody may go out on a joker (the ハマる preset's rules)
    ("shichinarabe", ("turn.joker_finish=refused", "deck.jokers=2", "turn.pass_limit=0")),
    # a pass bars its player until another passes (Sjuan's other penalty)
    ("sjuan", ("turn.pass_bars=true", "turn.pass_takes=none")),
    ("pagat", ("turn.pass_bars=true", "turn.must_play=false", "ending.stall=2")),
    # Hoyle's penalties: a pass when able, a 7 held back, an extra ante by hand size
    ("hoyle", ("players=3", "deck.jokers=1")),
    (
        "bicycle",
        (
            "players=6",
            "turn.must_play=false",
            "scoring.able_pass_cost=2",
            "scoring.held_seven_pay=1",
            "scoring.extra_ante_from=long",
        ),
    ),
    # the holder of a joker's place asked at once, or never taking it (WILD_RULES row 28)
    ("shichinarabe", ("deck.jokers=1", "turn.joker_handover=optional")),
    ("doujue", ("deck.jokers=2", "turn.joker_handover=never")),
    ("sjuan", ("deck.jokers=1", "turn.joker_handover=optional", "turn.pass_takes=none")),
    # draws that grow from stop to stop (1, 2, 3 ...), each player's own or the table's
    ("sevens-stock", ("turn.draw=increasing",)),
    ("sevens-stock", ("turn.draw=increasing_shared", "turn.must_play=false", "ending.stall=2")),
    ("sevens-stock", ("turn.draw=increasing_run",)),
    # trumps named by the last card dealt (WILD_RULES row 11)
    ("trump-fan-tan", ()),
    ("sevens-stock", ("layout.trumps=last_dealt", "turn.draw=increasing_run")),
    # a turn lays a block of cards, a run, parallels or parallel runs (Crazy Tan, row 11)
    ("pagat", ("turn.lay=blocks",)),
    ("doujue", ("turn.lay=blocks",)),
    ("sevens-stock", ("turn.lay=blocks", "turn.draw=increasing")),
    ("bicycle", ("turn.lay=blocks", "turn.must_play=false", "scoring.able_pass_cost=2")),
    ("sjuan", ("turn.lay=blocks", "turn.extra_after_end=none", "turn.pass_bars=true")),
]
GAMES_PER_PROFILE = 10_000  # compared with the Python engine's games, move for move
RECORDS_PER_PROFILE = 300  # of which also written as records, read back and replayed
CHUNK = 2_500


def workers() -> int:
    return max(1, min(2, len(os.sched_getaffinity(0))))


# -- the random stream and the deals ---------------------------------------------------------
@pytest.mark.parametrize(
    "seed", [0, 1, 5, -5, 2**32 - 1, 2**32, 2**32 + 7, 2**64 + 1, 3 * 2**200 + 11, 10**30]
)
def test_the_kernel_deals_from_the_seeds_splitmix64_stream(seed: int) -> None:
    compiled = compiled_game(Game("pagat").rules)
    # the deal's 51 draws written out: word t of the stream of key k is
    # mix64(k + (t + 1) * GAMMA), its top 32 bits then its low 32 bits are two halves, and a
    # position in 0..i is half * (i + 1) >> 32, drawn again while the product's low 32 bits
    # fall below 2**32 mod (i + 1)
    played = compiled.play_seeds([seed], keep=True)
    assert played.states is not None
    key = key_of(seed)
    halves = (
        x
        for t in range(10**6)
        for w in [mix64((key + (t + 1) * GAMMA) % 2**64)]
        for x in (w >> 32, w % 2**32)
    )
    deck = list(range(52))
    for i in range(51, 0, -1):
        m = next(halves) * (i + 1)
        while m % 2**32 < 2**32 % (i + 1):
            m = next(halves) * (i + 1)
        r = m >> 32
        deck[i], deck[r] = deck[r], deck[i]
    hands = [sum(1 << c for c in deck[s::4]) for s in range(4)]
    assert played.states[0][L.DEALT : L.DEALT + 4].tolist() == hands
    assert played.states[0][L.KEY] == signed(key)


@pytest.mark.parametrize(
    ("profile", "sets"),
    [(p, ()) for p in PROFILES]
    + [("shichinarabe", ("players=3", "deck.jokers=1")), ("pagat", ("players=8",))],
)
def test_the_same_seed_deals_the_same_hands_and_door_card(
    profile: str, sets: tuple[str, ...]
) -> None:
    game = game_for(profile, sets)
    seeds = list(range(1500)) + [game_seed(s, i) for s in (1, 99, -3) for i in range(150)]
    seeds += [2**64 + 5, 2**100, -1]
    played = compiled_game(game.rules).play_seeds(seeds, keep=True)
    assert played.states is not None
    n = game.players
    for seed, st in zip(seeds, played.states, strict=True):
        state = game.new_state(seed)
        assert st[L.DEALT : L.DEALT + n].tolist() == list(state.dealt), seed
        door = int(st[L.DOOR])
        assert (None if door < 0 else door) == state.door_card, seed


# -- the same games ---------------------------------------------------------------------------
def same_games(
    profile: str, sets: tuple[str, ...], run_seed: int, first: int, count: int
) -> list[str]:
    """Differences between the kernel's games ``first..first+count-1`` of a run and the
    Python engine's: logs and rows; the first RECORDS_PER_PROFILE games of the run are
    also written as records, read back and replayed."""
    game = game_for(profile, sets)
    compiled = compiled_game(game.rules)
    indices = list(range(first, first + count))
    played = compiled.play_run(run_seed, indices, keep=True, log=True)
    assert played.states is not None and played.logs is not None
    agents = [("random",) * game.players] * count
    rows = game_rows(compiled, played, profile, indices, indices, agents)
    n = game.players
    problems: list[str] = []
    for g, i in enumerate(indices):
        seed = game_seed(run_seed, i)
        state = play_game(game, seed)
        log = log_of(played.states[g], played.logs[g])
        if log is not None and log != state.log:
            problems.append(f"{profile} {sets} game {i}: logs differ")
        expected = python_rows(profile, i, i, agents[g], state)
        if rows[g * n : (g + 1) * n] != expected:
            problems.append(f"{profile} {sets} game {i}: {rows[g * n : (g + 1) * n]} != {expected}")
        if i < RECORDS_PER_PROFILE and log is not None:
            data = json.loads(json.dumps(record(compiled, played.states[g], log, seed)))
            found = replay(data, game)
            if found:
                problems.append(f"{profile} {sets} game {i}: replay: {found}")
        if len(problems) > 5:
            break
    return problems


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    with ProcessPoolExecutor(workers()) as executor:
        yield executor


@pytest.mark.parametrize("profile", PROFILES)
def test_kernel_games_are_the_python_engines_games(profile: str, pool: ProcessPoolExecutor) -> None:
    starts = range(0, GAMES_PER_PROFILE, CHUNK)
    jobs = [(profile, (), 11, start, CHUNK) for start in starts]
    found = list(pool.map(same_games, *zip(*jobs, strict=True)))
    assert [p for ps in found for p in ps] == []


@pytest.mark.parametrize(("profile", "sets"), VARIANTS)
def test_kernel_games_of_option_variants_are_the_python_engines_games(
    profile: str, sets: tuple[str, ...]
) -> None:
    assert same_games(profile, sets, 12, 0, 300) == []


def test_records_replay_from_the_command_line(tmp_path: Path, capsys: Any) -> None:
    from paiqi_core.cli import main

    out = tmp_path / "games.jsonl"
    args = ["simulate", "shichinarabe", "platform", "--games", "300", "--set", "deck.jokers=1"]
    assert main([*args, "--engine", "fast", "-q", "--records", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out)]) == 0
    assert "600 replayed exactly, 0 disagreed, 0 malformed" in capsys.readouterr().out


def test_a_game_too_long_for_the_log_gets_its_rows_and_record_from_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from paiqi_core.fast import compiled
    from paiqi_core.runs.batch import BatchSpec, run_batch
    from paiqi_core.runs.kernel_batch import play_batch

    monkeypatch.setattr(compiled, "LOG_ROOM", 60)  # pagat games log 52 to 100 or so
    spec = BatchSpec("pagat", (), (), False, 3, 0, 40, True)
    game = game_for("pagat")
    played = compiled_game(game.rules).play_run(3, range(40), keep=True, log=True)
    assert played.states is not None and played.logs is not None
    lengths = played.states[:, L.LOGLEN]
    assert (lengths > 60).any() and (lengths <= 60).any()
    missing = [log_of(st, log) is None for st, log in zip(played.states, played.logs, strict=True)]
    assert missing == [bool(n > 60) for n in lengths]
    # the kernel cannot read their course: it leaves it to the Python engine's game
    assert played.game[:, L.G_LOG_FULL].tolist() == [int(n > 60) for n in lengths]
    kernel, python = play_batch(spec, game), run_batch(spec)
    assert kernel.records == python.records
    assert kernel.rows == python.rows
    assert len(python.rows[0]) == len(COLUMNS)
    # without records, the kernel keeps a log of the same room for each game's course
    plain = replace(spec, records=False)
    assert play_batch(plain, game).rows == run_batch(plain).rows


# -- the events of the rows ---------------------------------------------------------------
EVENTS = ("cut", "swap", "leave", "joker_lost", "clean", "bust", "melds", "fee")


def test_every_special_rule_of_the_rows_fires_in_the_compared_games() -> None:
    # the games the tests above compare column by column include some where each special
    # rule named in the events column fired, so each is compared where it fires
    fired: dict[str, set[str]] = {name: set() for name in EVENTS}
    cases = [(p, (), 11, range(CHUNK)) for p in PROFILES]
    cases += [(p, sets, 12, range(300)) for p, sets in VARIANTS]
    for profile, sets, run_seed, games in cases:
        game = game_for(profile, sets)
        compiled = compiled_game(game.rules)
        indices = list(games)
        played = compiled.play_run(run_seed, indices)
        agents = [("random",) * game.players] * len(indices)
        for row in game_rows(compiled, played, profile, indices, indices, agents):
            for name in parse_events(row[-1]):
                fired[name].add(f"{profile} {' '.join(sets)}".strip())
    assert [name for name, where in fired.items() if not where] == []
    assert set(fired) == set(EVENTS)  # no word the Python engine does not write
    # where each is expected: the joker's moves, the cut rows of 斬龍, the busts and the
    # meld exemption of the platform, the fee where one is set
    assert "shichinarabe deck.jokers=1" in fired["joker_lost"]
    assert "platform-zhanlong" in fired["cut"]
    assert {"platform", "doujue"} <= fired["bust"]
    assert "platform" in fired["melds"]
    assert fired["fee"] == {
        "platform deck.jokers=1 scoring.settlement=difference scoring.fee=0.15",
        "platform scoring.fee=0.2 scoring.bust_above=30",
    }


# -- scoring ------------------------------------------------------------------------------------
def end_state(outcomes: list[PlayerOutcome]) -> np.ndarray:
    """A finished kernel state with these end-of-game facts."""
    st = np.zeros(L.STATE, dtype=np.int64)
    for s, o in enumerate(outcomes):
        st[L.COVERED + s] = sum(1 << c for c in o.covered)
        st[L.PLAYED + s] = o.played
        st[L.LAST + s] = -1 if o.last_play is None else o.last_play
        st[L.NCLOSED + s] = len(o.completions)
        for i, order in enumerate(o.completions):
            st[L.CLOSED + 4 * s + i] = order
        st[L.FINISH + s] = -1 if o.finish is None else o.finish
        st[L.BURSTED + s] = -1 if o.burst is None else o.burst
        if o.left_with_joker:  # in seat order
            st[L.NLEFT] += 1
            st[L.LEFT + s] = st[L.NLEFT]
        st[L.PASSES + s] = o.passes
        st[L.SIZE + s] = o.hand_size
        if o.held:  # the cards themselves, a second copy in the plane of copies held twice
            for c in o.held:
                plane = L.TWICE if st[L.HAND + s] >> c & 1 else L.HAND
                st[plane + s] |= 1 << c
        else:
            st[L.HAND + s] = (1 << o.hand_left) - 1  # any cards: only how many counts
        # Hoyle's penalties: the counters of passes when able and of the 7s held back (10
        # bits each, six a word), the 7s held back and their 6s and 8s in the hands dealt
        counts = [(s, o.able_passes)] + [(8 + x, k) for x, k in enumerate(o.held_back)]
        for counter, times in counts:
            st[L.TALLY + counter // 6] += times << (10 * (counter % 6))
            if counter >= 8 and times:
                st[L.DEALT + s] |= 1 << (13 * (counter - 8) + o.centre)
        for c in o.neighbours:
            st[L.DEALT + s] |= 1 << c
    return st


def kernel_result(game: Game, outcomes: list[PlayerOutcome]) -> Result:
    compiled = compiled_game(game.rules)
    n = game.players
    res = np.zeros((n, L.SEAT_FIELDS), dtype=np.int64)
    out = np.zeros(L.GAME_FIELDS, dtype=np.int64)
    score(end_state(outcomes), compiled.R, res, out, np.zeros(WORK, dtype=np.int64))
    from fractions import Fraction

    money = tuple(Fraction(int(m), int(out[L.G_DEN])) * compiled.stake for m in res[:, L.X_MONEY])
    rank = tuple(int(r) for r in res[:, L.X_RANK])
    total = tuple(int(t) for t in res[:, L.X_TOTAL]) if out[L.G_HAS_TOTAL] else None
    winners = tuple(s for s in range(n) if rank[s] == 1)
    return Result(rank=rank, winners=winners, money=money, total=total)


def settlement_examples() -> Iterator[Any]:
    for path in find_files([ROOT / "docs"]):
        for example in load_examples(path):
            if not isinstance(example, Exception) and "settlement" in example.data:
                yield example


SETTLEMENTS = list(settlement_examples())


def test_there_are_documented_settlements_of_the_scorings() -> None:
    from paiqi_core.fast.plan import forms_of

    kinds = set()
    for e in SETTLEMENTS:
        for name in [e.data["profile"]] if "profile" in e.data else e.data["profiles"]:
            rules = game_for(name, dict(e.data.get("set", {})), beside=e.file).rules
            kinds.add(getattr(forms_of(rules)["scoring"], "kind", None))
    assert len(SETTLEMENTS) >= 40
    assert kinds >= {"covering", "platform", "placement", "chips"}  # first_out: by hand below


def test_placement_first_out_and_chips_by_hand() -> None:
    # five at a 七並べ table: seat 0 went out; seat 2 still holds cards; seat 3 left with
    # the joker alone; seat 4 burst first and seat 1 later, so seat 4 ranks last
    outcomes = [
        PlayerOutcome(finish=0, played=10),
        PlayerOutcome(burst=1, played=4, hand_left=0),
        PlayerOutcome(played=6, hand_left=4),
        PlayerOutcome(left_with_joker=True, played=9),
        PlayerOutcome(burst=0, played=2),
    ]
    result = kernel_result(game_for("shichinarabe", ["players=5"]), outcomes)
    assert result.rank == (1, 4, 2, 3, 5)
    assert result.total == (4, 1, 3, 2, 0)  # rank points 4, 3, 2, 1, 0
    with_points = game_for("shichinarabe", ["players=5", "scoring.place_points=[10,5]"])
    assert kernel_result(with_points, outcomes).total == (10, 0, 5, 0, 0)
    # pagat: seat 1 went out first; nobody else is ranked
    outcomes = [PlayerOutcome(passes=p, hand_left=h) for p, h in ((3, 2), (0, 0), (1, 5), (2, 1))]
    outcomes[1] = outcomes[1]._replace(finish=0, played=13)
    result = kernel_result(Game("pagat"), outcomes)
    assert (result.rank, result.winners, result.total) == ((2, 1, 2, 2), (1,), None)
    # bicycle chips: each pays an ante of 1, 1 a pass and 1 a card still held: 1 + 3 + 2,
    # 1, 1 + 1 + 5 and 1 + 2 + 1 = 6, 1, 7, 4; seat 1 takes all 18
    result = kernel_result(Game("bicycle"), outcomes)
    assert result.money == (-6, 17, -7, -4)
    # without the card payment (scoring.card_cost 0): 4, 1, 2, 3 paid; seat 1 takes 10
    result = kernel_result(game_for("bicycle", ["scoring.card_cost=0"]), outcomes)
    assert result.money == (-4, 9, -2, -3)


def test_hoyles_chips_by_hand() -> None:
    # five at Hoyle's table: seats 0 and 1 were dealt 11 cards and ante 2, the others 1.
    # Seat 0 went out after a pass when able (3); seat 1 holds 3 and passed once when able,
    # holding D7 (3, and 5 each to seat 2, dealt D6, and seat 3, dealt D8); seats 2, 3 and
    # 4 hold 2, 4 and 1 and passed only when stuck (free). Into the pot: 2 + 3, 2 + 3 + 3,
    # 1 + 2, 1 + 4 and 1 + 1 = 5, 8, 3, 5 and 2, 23 in all, which seat 0 takes
    d6, d7, d8 = (parse_card(c) for c in ("D6", "D7", "D8"))
    outcomes = [
        PlayerOutcome(finish=0, played=11, passes=2, hand_size=11, able_passes=1),
        PlayerOutcome(hand_left=3, passes=1, hand_size=11, able_passes=1, held_back=(0, 0, 1, 0)),
        PlayerOutcome(hand_left=2, hand_size=10, neighbours=(d6,)),
        PlayerOutcome(hand_left=4, passes=3, hand_size=10, neighbours=(d8,)),
        PlayerOutcome(hand_left=1, hand_size=10),
    ]
    assert d7 == 13 * 2 + 6
    game = game_for("hoyle", ["players=5"])
    want = (18, -8 - 10, -3 + 5, -5 + 5, -2)
    assert kernel_result(game, outcomes).money == want
    assert game.rules.scoring.score(outcomes).money == want
    # Bicycle's reading: the short hands ante the extra chip, a pass costs 1 whenever made
    # (passes 2, 1, 0, 3, 0), and no price for a pass when able nor for a 7 held back
    plain = [o._replace(able_passes=0, held_back=(), neighbours=()) for o in outcomes]
    paid = (1 + 2, 1 + 1 + 3, 2 + 0 + 2, 2 + 3 + 4, 2 + 0 + 1)
    want = (sum(paid) - paid[0], *(-x for x in paid[1:]))
    assert kernel_result(game_for("bicycle", ["players=5"]), plain).money == want


@pytest.mark.parametrize("example", SETTLEMENTS, ids=[e.name for e in SETTLEMENTS])
def test_the_kernel_scores_every_documented_settlement(example: Any) -> None:
    data = example.data
    names = [data["profile"]] if "profile" in data else list(data["profiles"])
    for name in names:
        game = game_for(name, dict(data.get("set", {})), beside=example.file)
        if fast_path.why_not(game.rules) is not None:
            continue
        seats = Seats(data.get("players"), game.players)
        outcomes = outcomes_from_facts(game, seats, data["settlement"], data.get("opened"))
        if any(len(set(o.covered)) != len(o.covered) for o in outcomes):
            continue  # a card covered twice is no position of a game
        expect = {**data.get("expect", {}), **data.get("by_profile", {}).get(name, {})}
        kept = {k: v for k, v in expect.items() if k in ("money", "rank", "total", "winners")}
        failures: list[str] = []
        _check_result(kernel_result(game, outcomes), seats, kept, failures, "")
        assert failures == [], name


def test_the_worked_doujue_example_by_hand() -> None:
    # 甲 covered nothing (全脫手, +10, winner x2); 乙 completed hearts and covered S3 (+2);
    # 丙 covered S10 D10 (-20, 中頭: 20 x 2 x 2 = 80); 丁 covered SK SQ SJ DK DJ (-60,
    # 大頭 and bust: 60 x 3 x 2 x 2 = 720); 甲 receives 800
    def cover(*cards: int) -> tuple[int, ...]:
        return tuple(sorted(cards))

    s, d = 0, 26
    outcomes = [
        PlayerOutcome((), 13),
        PlayerOutcome(cover(s + 2), 12, completions=(2,)),
        PlayerOutcome(cover(s + 9, d + 9), 11),
        PlayerOutcome(cover(s + 12, s + 11, s + 10, d + 12, d + 10), 8),
    ]
    result = kernel_result(Game("doujue"), outcomes)
    assert result.total == (10, 2, -20, -60)
    assert result.rank == (1, 2, 3, 4)
    assert result.money == (800, 0, -80, -720)


def test_the_worked_doujue_example_counted_by_cards_by_hand() -> None:
    # the same game counted by cards (以蓋牌張數): 乙 +5 - 1 = 4; 丙 -2 (中頭: 2 x 2 x 2 = 8);
    # 丁 -5 (大頭: 5 x 3 x 2 = 30; five cards are no bust above 55); 甲 receives 38.
    # With the bust above 4 cards, 丁's five bust: 5 x 3 x 2 x 2 = 60, and 甲 receives 68
    s, d = 0, 26
    outcomes = [
        PlayerOutcome((), 13),
        PlayerOutcome((s + 2,), 12, completions=(2,)),
        PlayerOutcome((s + 9, d + 9), 11),
        PlayerOutcome((s + 10, s + 11, s + 12, d + 10, d + 12), 8),
    ]
    result = kernel_result(game_for("doujue", ["scoring.count=cards"]), outcomes)
    assert result.total == (10, 4, -2, -5)
    assert result.rank == (1, 2, 3, 4)
    assert result.money == (38, 0, -8, -30)
    busting = game_for("doujue", ["scoring.count=cards", "scoring.bust_above=4"])
    assert kernel_result(busting, outcomes).money == (68, 0, -8, -60)


def test_penalty_points_by_hand() -> None:
    # pagat with a penalty point a card (WILD_RULES row 8): seat 1 went out; the others
    # still hold 2, 5 and 1 cards: totals 0, -2, -5, -1 (seat 1 wins, nobody pays money)
    outcomes = [PlayerOutcome(hand_left=h) for h in (2, 0, 5, 1)]
    outcomes[1] = outcomes[1]._replace(finish=0, played=13)
    result = kernel_result(game_for("pagat", ["scoring.penalty=cards"]), outcomes)
    assert result.total == (-2, 0, -5, -1)
    assert result.winners == (1,)
    assert result.money == (0, 0, 0, 0)
    assert kernel_result(Game("pagat"), outcomes).total is None


def test_penalty_points_by_the_cards_values_by_hand() -> None:
    # the same game counted by the cards' values (WILD_RULES row 8). Seat 0 holds SK and
    # C2, seat 2 SA, HJ, HQ, D10 and C5, seat 3 CA. Pip values (Wikipedia's Sevens: court
    # cards 10): 10 + 2 = 12; 1 + 10 + 10 + 10 + 5 = 36; 1. The ranks' values
    # (2play1game.com: A 1 ... K 13): 13 + 2 = 15; 1 + 11 + 12 + 10 + 5 = 39; 1
    held = [["SK", "C2"], [], ["SA", "HJ", "HQ", "D10", "C5"], ["CA"]]
    outcomes = [PlayerOutcome(hand_left=len(h), held=tuple(map(parse_card, h))) for h in held]
    outcomes[1] = outcomes[1]._replace(finish=0, played=13)
    pips = game_for("pagat", ["scoring.penalty=pips"])
    ranks = game_for("pagat", ["scoring.penalty=ranks"])
    for game, total in ((pips, (-12, 0, -36, -1)), (ranks, (-15, 0, -39, -1))):
        for result in (kernel_result(game, outcomes), game.rules.scoring.score(outcomes)):
            assert result.total == total
            assert result.winners == (1,)
    # a joker still held counts as the dearest card: two and HA, 10 + 10 + 1 = 21 pips,
    # 13 + 13 + 1 = 27 by rank
    jokers = [PlayerOutcome(finish=0), PlayerOutcome(hand_left=3, held=(parse_card("HA"), 52, 53))]
    jokers += [PlayerOutcome(), PlayerOutcome()]
    for sets, total in (("scoring.penalty=pips", -21), ("scoring.penalty=ranks", -27)):
        game = game_for("pagat", [sets, "deck.jokers=2"])
        assert kernel_result(game, jokers).total == (0, total, 0, 0)
        assert game.rules.scoring.score(jokers).total == (0, total, 0, 0)
    # two decks: a card held twice counts twice (2 x 10 + 3 = 23 pips, 2 x 12 + 3 = 27)
    hq, c3 = parse_card("HQ"), parse_card("C3")
    twice = [
        PlayerOutcome(hand_left=3, held=(hq, hq, c3)),
        PlayerOutcome(finish=0),
        PlayerOutcome(),
    ]
    for sets, total in (("scoring.penalty=pips", -23), ("scoring.penalty=ranks", -27)):
        game = game_for("pagat", [sets, "deck.decks=2", "players=3"])
        assert kernel_result(game, twice).total == (total, 0, 0)
        assert game.rules.scoring.score(twice).total == (total, 0, 0)


def test_qq_pairs_by_hand() -> None:
    # QQ 排七 (2kk4.net): each scores the others' covered points less 3 times its own, and
    # every score doubles once a player has gone out clean. Covered points 0, 3, 20 and 13
    # (36 in all), 甲 clean: 甲 36 x 2 = 72; 乙 (33 - 9) x 2 = 48; 丙 (16 - 60) x 2 = -88;
    # 丁 (23 - 39) x 2 = -32; they add up to 0
    s, d = 0, 26
    outcomes = [
        PlayerOutcome((), 13),
        PlayerOutcome((s + 2,), 12),
        PlayerOutcome((s + 9, d + 9), 11),
        PlayerOutcome((d + 12,), 12),
    ]
    result = kernel_result(Game("qq"), outcomes)
    assert result.total == (0, -3, -20, -13)
    assert result.rank == (1, 2, 4, 3)
    assert result.money == (72, 48, -88, -32)
    # 甲 covered SA instead: 1, 3, 20, 13 (37), nobody clean, nothing doubles: 甲 36 - 3 = 33;
    # 乙 34 - 9 = 25; 丙 17 - 60 = -43; 丁 24 - 39 = -15
    outcomes[0] = PlayerOutcome((s + 0,), 12)
    assert kernel_result(Game("qq"), outcomes).money == (33, 25, -43, -15)


def test_twstar_and_poker7_totals_by_hand() -> None:
    # twstar 排7: base 50, covered A..K -1..-13, one player out: +100 to it, -10 to each
    # other. 甲 out; 乙 covered SK (13), 丙 H2 H3 (5), 丁 D5 (5): 150, 27, 35, 35
    s, h, d = 0, 13, 26
    outcomes = [
        PlayerOutcome((), 13),
        PlayerOutcome((s + 12,), 12),
        PlayerOutcome((h + 1, h + 2), 11),
        PlayerOutcome((d + 4,), 12),
    ]
    result = kernel_result(Game("twstar"), outcomes)
    assert result.total == (150, 27, 35, 35)
    assert result.money == (150, 27, 35, 35)
    assert result.rank == (1, 4, 3, 2)  # 丁 ahead of 丙: one card covered against two
    # the poker7 app: 甲 collects the 23 points the others covered; they lose theirs
    assert kernel_result(Game("poker7"), outcomes).money == (23, -13, -5, -5)
    # nobody out: 甲's SA is the fewest covered points, and costs nothing
    outcomes[0] = PlayerOutcome((s + 0,), 12)
    assert kernel_result(Game("poker7"), outcomes).money == (0, -13, -5, -5)
    # twstar with nobody out: the base less the covered points alone
    assert kernel_result(Game("twstar"), outcomes).money == (49, 37, 45, 45)


MELD_CASES = [
    ([0, 1, 2, 3, 4, 13, 26, 39], 15),  # SA-S5 straight flush; the three other aces count
    ([8, 21, 34, 47, 12], 36),  # four 9s (鐵支); SK counts
    ([11, 24, 37, 2, 15, 29], 12 * 3 + 3 * 2),  # QQQ + 33 (葫蘆); D4 counts
    ([9, 10, 11, 12, 0], 0),  # 10-J-Q-K-A of spades is no straight flush
    ([8, 9, 10, 11, 12, 0], 9 + 10 + 11 + 12 + 13),  # 9-10-J-Q-K is
]


@pytest.mark.parametrize(("cards", "exempt"), MELD_CASES)
def test_meld_exemption_by_hand(cards: list[int], exempt: int) -> None:
    assert exempt_points(sum(1 << c for c in cards)) == exempt
    assert model_exemption(cards) == exempt


def test_meld_exemption_agrees_with_the_brute_force_model_on_random_hands() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        size = rng.randint(4, 18)
        cards: set[int] = set()
        while len(cards) < size:  # lean towards runs and ranks, where melds lie
            kind = rng.random()
            c = rng.randrange(52)
            if kind < 0.3 and c % 13 < 12:
                cards.update(x for x in (c, c + 1) if x // 13 == c // 13)
            elif kind < 0.5:
                cards.update({c, (c + 13) % 52})
            else:
                cards.add(c)
        chosen = sorted(cards)[:size]
        mask = sum(1 << c for c in chosen)
        assert exempt_points(mask) == model_exemption(chosen), chosen


@pytest.mark.parametrize(
    ("ace", "ends", "ace_king"),
    [("low", "open", "none"), ("high", "open", "none"), ("low", "cut", "none"),
     ("low", "open", "wrap"), ("low", "open", "tunnel")],
)  # fmt: skip
def test_the_joker_table_is_topology_beyond(ace: str, ends: str, ace_king: str) -> None:
    topology = compile_topology(ace, ends, ace_king)
    table = beyond_table(topology)
    rng = random.Random(7)
    rows = sorted(topology.reachable) + [rng.randrange(1 << 13) for _ in range(1500)]
    for row in rows:
        for rank in range(13):
            want = topology.beyond(row, rank)
            assert table[row * 13 + rank] == (-1 if want is None else want), (row, rank)


# -- playouts for search --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("profile", "sets"),
    [("doujue", ()), ("platform", ()), ("pagat", ()), ("shichinarabe", ("deck.jokers=1",)),
     ("doujue-passes", ()), ("shichinarabe-tunnel", ())],
)  # fmt: skip
@pytest.mark.parametrize("policy", ["random", "eager"])
def test_fast_finish_gives_the_utilities_of_python_playouts(
    profile: str, sets: tuple[str, ...], policy: str
) -> None:
    game = game_for(profile, sets)
    rng = random.Random(3)
    states = []
    for seed in range(120):
        state = game.new_state(seed)
        agent = RandomAgent(random.Random(seed))
        for _ in range(rng.randrange(0, 40)):
            if state.over:
                break
            state.apply_unchecked(agent.act(state.observation(state.turn)))
        states.append(state)
    seeds = [rng.getrandbits(64) for _ in states]
    for objective in ("money", "points", "win"):
        got = fast_finish(states, policy, seeds, objective)
        for state, seed, row in zip(states, seeds, got, strict=True):
            copy = state.clone()
            finish(copy, Stream(seed), policy)
            assert row.tolist() == utilities(copy.result(), objective), (seed, objective)


def test_fast_finish_after_each_action_is_playing_it_then_finishing() -> None:
    game = game_for("shichinarabe", ["deck.jokers=1"])
    checked = 0
    for seed in range(60):
        state = game.new_state(seed)
        agent = RandomAgent(random.Random(seed))
        for _ in range(seed % 25):
            state.apply_unchecked(agent.act(state.observation(state.turn)))
        if state.over:
            continue
        legal = state.legal_actions()
        lucks = [seed * 7 + k for k in range(3)]
        got = fast_finish_after(state, legal, lucks, "random", "points")
        assert got.shape == (3, len(legal), game.players)
        for k, luck in enumerate(lucks):
            for i, action in enumerate(legal):
                copy = state.clone()
                copy.apply_unchecked(action)
                finish(copy, Stream(luck), "random")
                assert got[k, i].tolist() == utilities(copy.result(), "points")
                checked += 1
    assert checked > 300


# -- per-game statistics: kernel runs and Python runs, different deals -------------------------
STAT_COLUMNS = {
    "rank": 5, "win": 6, "total": 7, "money": 9, "actions": 10, "covers": 11,
    "passes": 12, "burst": 13, "closures": 14, "last_seven": 15, "all_covered": 16,
}  # fmt: skip
Z_LIMIT = 5.0  # standard errors; two samples of one distribution differ by more with
# probability below 6e-7 per statistic (normal approximation), about 3e-4 over this test


@pytest.mark.parametrize("profile", ["doujue", "platform", "shichinarabe", "pagat"])
def test_kernel_and_python_statistics_agree_within_sampling_error(profile: str) -> None:
    game = Game(profile)
    n = game.players
    compiled = compiled_game(game.rules)
    big = 40_000
    indices = list(range(big))
    agents = [("random",) * n] * big
    played = compiled.play_run(101, indices)
    kernel = game_rows(compiled, played, profile, indices, indices, agents)
    small = 2_500
    python = [
        row
        for i in range(small)
        for row in python_rows(profile, i, i, agents[i], play_game(game, game_seed(202, i)))
    ]
    checked = 0
    for name, col in STAT_COLUMNS.items():
        for seat in range(n):
            a = [float(r[col]) for r in kernel[seat::n] if r[col] is not None]
            b = [float(r[col]) for r in python[seat::n] if r[col] is not None]
            if not a or not b:
                continue
            va, vb = np.var(a, ddof=1), np.var(b, ddof=1)
            if va == vb == 0:
                assert a[0] == b[0], (name, seat)
                continue
            z = (np.mean(a) - np.mean(b)) / math.sqrt(va / len(a) + vb / len(b))
            assert abs(z) < Z_LIMIT, (name, seat, np.mean(a), np.mean(b), z)
            checked += 1
    assert checked >= 4 * n


# -- when the kernel does not play ----------------------------------------------------------------
@pytest.fixture
def plugin_ending(tmp_path: Path) -> Iterator[Path]:
    """An ending hook outside paiqi (it declares no compiled form), and a profile using it."""
    from paiqi_core.slots import Ending

    class TwoOut(Ending):
        def over(self, game: Any) -> bool:
            return len(game.finished) >= 2 or not any(game.hands)

    registry.register("ending", "test_two_out", summary="two players out")(lambda p: TwoOut())
    path = tmp_path / "two-out.yaml"
    path.write_text("id: two-out\nextends: pagat\nending:\n  method: test_two_out\n")
    yield path
    del registry._REGISTRY["ending"]["test_two_out"]


def test_a_plugin_hook_without_a_compiled_form_is_named(plugin_ending: Path) -> None:
    game = game_for(str(plugin_ending))
    reason = fast_path.why_not(game.rules)
    assert reason == "the ending 'test_two_out' of two-out has no compiled form"
    assert not fast_path.plays(game.rules, (), "fast")
    assert fast_path.why_not(Game("pagat").rules) is None
    assert "heuristic" in str(fast_path.why_not(Game("pagat").rules, ("heuristic",) * 4))


def test_engines_on_the_command_line(plugin_ending: Path, capsys: Any) -> None:
    from paiqi_core.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        status = main(list(args))
        out, err = capsys.readouterr()
        return status, out, err

    common = ("simulate", str(plugin_ending), "pagat", "--games", "50", "--json", "-q")
    common += ("--workers", "1")
    status, out, err = run(*common, "--engine", "fast")
    assert status == 2
    assert err.strip() == (
        "--engine fast: the ending 'test_two_out' of two-out has no compiled form"
    )
    status, auto, err = run(*common, "--engine", "auto")
    assert status == 0
    assert err.strip() == (
        f"playing {plugin_ending} with the Python engine: the ending 'test_two_out' of "
        "two-out has no compiled form"
    )
    status, python, err = run(*common, "--engine", "python")
    assert (status, err) == (0, "")
    assert json.loads(auto) == json.loads(python)
    status, out, err = run("bench", "pagat", "--games", "20", "--repeat", "1", "--json")
    assert (status, err) == (0, "")
    assert json.loads(out)[0]["engine"] == "fast"


def test_without_numba_auto_says_so_and_fast_refuses(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from paiqi_core.cli import main

    monkeypatch.setattr(fast_path, "installed", lambda: False)
    monkeypatch.setattr(fast_path, "available", lambda: False)
    assert "numba is not installed" in str(fast_path.why_not(Game("doujue").rules))
    assert main(["simulate", "doujue", "--games", "20", "-q", "--engine", "fast"]) == 2
    assert "--engine fast: numba is not installed (pip install" in capsys.readouterr().err
    assert main(["simulate", "doujue", "--games", "20", "-q", "--json"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("playing with the Python engine: numba is not installed")
    assert err.count("\n") == 1


def test_compare_rows_are_the_same_under_both_engines(tmp_path: Path, capsys: Any) -> None:
    from paiqi_core.cli import main
    from paiqi_core.runs.store import Store

    tables = []
    for engine in ("fast", "python"):
        db = tmp_path / f"{engine}.db"
        args = ["compare", "doujue", "shichinarabe", "--games", "300", "--batch", "70"]
        assert main([*args, "--db", str(db), "--engine", engine, "-q", "--workers", "1"]) == 0
        with Store.reader(db) as store:  # the rows of every block, unpacked
            sql = "SELECT * FROM seats ORDER BY profile, game, seat"
            tables.append(list(store.expand().query(sql)))
    capsys.readouterr()
    # the same rows, every column, but the run id
    assert len(tables[0]) == len(tables[1]) == 2 * 300 * 4
    assert [row[1:] for row in tables[0]] == [row[1:] for row in tables[1]]
    assert len(tables[0][0]) == len(COLUMNS) + 1
    assert all(None not in row[1:] for row in tables[0] if row[2] == "doujue")


def test_a_tournament_of_random_players_is_the_same_under_both_engines(
    tmp_path: Path, capsys: Any
) -> None:
    from paiqi_core.cli import main

    reports = []
    for engine in ("fast", "python"):
        args = ["tournament", "pagat", "--agents", "random,easy", "--games", "40", "--json"]
        db = str(tmp_path / f"{engine}.db")
        assert main([*args, "--db", db, "--engine", engine, "-q", "--workers", "1"]) == 0
        report = json.loads(capsys.readouterr().out)
        reports.append({k: v for k, v in report.items() if k not in ("run", "db")})
    assert reports[0] == reports[1]
    assert reports[0]["design"]["rule_sets"]["all pairings"]["recorded"]


# -- the same rules as plain Python ------------------------------------------------------------
_WITHOUT_NUMBA = r"""
import sys
sys.modules["numba"] = None
import numpy as np
from paiqi_core import Game
from paiqi_core.core import kernel, layout as L
from paiqi_core.core.bits import COMPILED
from paiqi_core.fast.plan import rules_vector
from paiqi_core.fast.tables import beyond_table, extensions
from paiqi_core.simulate import play_game
from paiqi_core.streams import key_of, signed

assert not COMPILED
for profile, sets in [("doujue", ()), ("platform", ()), ("pagat", ()), ("shichinarabe", ()),
                      ("shichinarabe", ("deck.jokers=1",))]:
    game = Game(profile, list(sets))
    R = np.array(rules_vector(game.rules), dtype=np.int64)
    ext = extensions(game.rules.topology)
    beyond = beyond_table(game.rules.topology) if sets else np.full(1, -1, dtype=np.int8)
    for seed in range(8):
        st = np.zeros(L.STATE, np.int64)
        st[L.KEY] = signed(key_of(seed))
        log = np.zeros((512, 2), np.int32)
        kernel.deal(st, R, ext, beyond, log, np.empty(64, np.int64))
        jx, jy = np.empty(16, np.int64), np.empty(16, np.int64)
        kernel.play_out(st, R, ext, beyond, log, kernel.RANDOM, jx, jy)
        state = play_game(game, seed)
        assert [tuple(e) for e in log[: st[L.LOGLEN]].tolist()] == state.log, (profile, seed)
        assert st[L.HAND : L.HAND + game.players].tolist() == state.hands, (profile, seed)
print("ok")
"""


def test_the_kernels_rules_run_as_plain_python_without_numba() -> None:
    """Where numba cannot be imported, the kernel's functions run as written (plain Python)
    and play the Python engine's games move for move: one source of the rules, two speeds."""
    out = subprocess.run(
        [sys.executable, "-c", _WITHOUT_NUMBA], capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]
