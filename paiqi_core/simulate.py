"""Playing games with agents; whole sessions and matches with their per-seat summaries.

Plain games are played in batches by ``paiqi_core.runs`` (rows into a store, one summary
path for ``simulate`` and ``compare``); sessions and matches add up whole games here.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import IO, Any

from paiqi_core.agents import Agent, make_agent
from paiqi_core.engine import Game, State
from paiqi_core.games import with_centre
from paiqi_core.match import MatchResult, next_lead, pick_centre, run_match
from paiqi_core.outcome import Result
from paiqi_core.profile.load import pack_ranks
from paiqi_core.records import state_record
from paiqi_core.seeds import game_seed
from paiqi_core.session import SessionResult, run_session
from paiqi_core.streams import GENERATOR, LEGACY, STREAMS, derived_key, prefetch

ONLY_RANDOM = frozenset({"random", "easy"})


def play_game(
    game: Game,
    seed: int,
    agent_names: Sequence[str] = (),
    replay: int = 0,
    generator: str = GENERATOR,
    lead: int | None = None,
) -> State:
    """Deal from ``seed`` (with ``generator``'s stream) and play to the end; all-random
    tables take the fast path. The agents draw from the deal's random stream, so the same
    deal and agents give the same game; ``replay`` (1 and up) gives them a stream of their
    own instead, so the same deal is played differently (``replay_stream``). ``lead``: the
    seat that moves first in place of the opening's first mover (a match's last winner)."""
    state = game.new_state(seed, generator=generator, lead=lead)
    if replay:
        state.rng = replay_stream(seed, replay, generator)
    rng = state.rng
    assert rng is not None
    if ONLY_RANDOM.issuperset(agent_names):  # "random" and "easy": the core plays them to the end
        state.play_random(rng)
        return state
    names = list(agent_names) or ["random"] * game.players
    agents: list[Agent] = [make_agent(n, rng, game) for n in names]
    while not state.over:
        seat = state.turn
        state.apply_unchecked(agents[seat].act(state.observation(seat)))
    return state


def replay_stream(seed: int, replay: int, generator: str = GENERATOR) -> random.Random:
    """The agents' random stream of replay ``replay`` of the deal of ``seed``: a stream
    of its own, keyed by the deal's key and the replay (``streams.derived_key``), the same
    in every process and on every machine. Runs dealt with ``mt19937`` keep theirs: a
    ``random.Random`` seeded from text, which Python hashes with SHA-512."""
    if generator == LEGACY:
        return random.Random(f"paiqi replay {seed} {replay}")
    return STREAMS[generator].from_key(derived_key(seed, replay))


@dataclass
class SessionSummary:
    """Per-seat results of whole sessions (局)."""

    profile: str
    players: int
    hands: int
    bankroll: int | None
    sessions: int = 0
    hands_played: int = 0
    ended_early: int = 0
    target: int | None = None  # winnings or losses that end a session (session.target)
    reached: int = 0  # sessions ended by a player reaching the target
    _wins: list[Fraction] = field(default_factory=list)
    _money: list[Fraction] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._wins = [Fraction(0)] * self.players
        self._money = [Fraction(0)] * self.players

    def add(self, result: SessionResult) -> None:
        """Count one session."""
        self.sessions += 1
        self.hands_played += result.hands_played
        self.ended_early += bool(result.broke)
        self.reached += bool(result.reached)
        for w in result.winners:
            self._wins[w] += Fraction(1, len(result.winners))
        start = self.bankroll or 0
        self._money = [a + (m - start) for a, m in zip(self._money, result.money, strict=True)]

    def as_dict(self) -> dict[str, Any]:
        """The summary as data (rates and means per seat)."""
        n = max(self.sessions, 1)
        target = {} if self.target is None else {"target": self.target, "reached": self.reached}
        return {
            "profile": self.profile,
            "sessions": self.sessions,
            "hands_per_session": self.hands,
            "bankroll": self.bankroll,
            "mean_hands_played": round(self.hands_played / n, 3),
            "ended_early": self.ended_early,
            "session_win_rate": [round(float(w) / n, 4) for w in self._wins],
            "mean_session_money": [round(float(m) / n, 4) for m in self._money],
            **target,
        }


def _results(
    game: Game,
    seed: int,
    indices: Sequence[int],
    agents: Sequence[str],
    records: IO[str] | None,
    engine: str,
    lead: int | None = None,
) -> Iterator[Result]:
    """The results of games ``indices`` of a run seeded ``seed``, written as records if
    asked: all-random games in the compiled kernel unless ``engine`` is python or it cannot
    play the rules (the same games either way). ``lead`` moves first in each (None: the
    opening's first mover)."""
    from paiqi_core import fast

    if fast.plays(game.rules, agents, engine):
        from paiqi_core.runs.kernel_batch import results

        leads = [lead] * len(indices)
        for result, data in results(game, seed, indices, records=records is not None, leads=leads):
            if records is not None:
                records.write(json.dumps(data, ensure_ascii=False) + "\n")
            yield result
        return
    prefetch(game_seed(seed, index) for index in indices)  # the deals' streams made together
    for index in indices:
        state = play_game(game, game_seed(seed, index), agents, lead=lead)
        if records is not None:
            records.write(json.dumps(state_record(state), ensure_ascii=False) + "\n")
        yield state.result()


def _in_turn(
    game: Game,
    seed: int,
    indices: Sequence[int],
    agents: Sequence[str],
    records: IO[str] | None,
    engine: str,
) -> Iterator[Result]:
    """The results of a match's games ``indices`` played in turn, where a game depends on
    the one before: led by its winner (``match.next_lead: last_winner``), its centre
    picked by its last (``match.next_centre: last_picks``)."""
    rules = game.rules.match
    lead: int | None = None
    current = game
    ranks = pack_ranks(game.rules.profile.data)
    for k, index in enumerate(indices):
        (result,) = _results(current, seed, [index], agents, records, engine, lead)
        yield result
        if rules.next_lead == "last_winner":
            lead = next_lead(result)
        if rules.next_centre == "last_picks" and k + 1 < len(indices):
            current = with_centre(game, pick_centre(ranks, game_seed(seed, indices[k + 1])))


def simulate_sessions(
    game: Game,
    sessions: int,
    seed: int,
    *,
    agents: Sequence[str] = (),
    records: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
    engine: str = "python",
) -> SessionSummary:
    """Play ``sessions`` sessions; hand ``h`` of session ``j`` is dealt from game index
    ``j * hands + h`` of the run seed, so sessions and plain runs share deals."""
    hands, bankroll = game.rules.session.hands, game.rules.session.bankroll
    target = game.rules.session.target
    summary = SessionSummary(game.id, game.players, hands, bankroll, target=target)

    def results(j: int) -> Iterator[Result]:
        indices = range(j * hands, (j + 1) * hands)
        yield from _results(game, seed, indices, agents, records, engine)

    for j in range(sessions):
        summary.add(run_session(results(j), game.players, hands, bankroll, target))
        if progress is not None:
            progress(j + 1)
    return summary


@dataclass
class MatchSummary:
    """Per-seat results of whole matches (several games scored by rank points)."""

    profile: str
    players: int
    games: int
    matches: int = 0
    _wins: list[Fraction] = field(default_factory=list)
    _points: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._wins = [Fraction(0)] * self.players
        self._points = [0] * self.players

    def add(self, result: MatchResult) -> None:
        """Count one match."""
        self.matches += 1
        for w in result.winners:
            self._wins[w] += Fraction(1, len(result.winners))
        self._points = [a + b for a, b in zip(self._points, result.points, strict=True)]

    def as_dict(self) -> dict[str, Any]:
        """The summary as data (rates and means per seat)."""
        n = max(self.matches, 1)
        return {
            "profile": self.profile,
            "matches": self.matches,
            "games_per_match": self.games,
            "match_win_rate": [round(float(w) / n, 4) for w in self._wins],
            "mean_match_points": [round(p / n, 3) for p in self._points],
        }


def simulate_matches(
    game: Game,
    matches: int,
    seed: int,
    *,
    agents: Sequence[str] = (),
    records: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
    engine: str = "python",
) -> MatchSummary:
    """Play ``matches`` matches of ``match.games`` games; game ``g`` of match ``j`` is dealt
    from game index ``j * games + g`` of the run seed."""
    games = game.rules.match.games
    summary = MatchSummary(game.id, game.players, games)
    match = game.rules.match
    in_turn = match.next_lead != "opening" or match.next_centre != "fixed"
    for j in range(matches):
        indices = range(j * games, (j + 1) * games)
        if in_turn:  # each game depends on the one before
            results = _in_turn(game, seed, indices, agents, records, engine)
        else:
            results = _results(game, seed, indices, agents, records, engine)
        summary.add(run_match(results, game.rules.match.limit))
        if progress is not None:
            progress(j + 1)
    return summary
