"""A batch of games and the rows it produces: one row per game per seat.

A batch is a pure function of its spec (rules, agents, seed, game indices), so any worker,
in any order, produces the same rows: results do not depend on how the work was split. A
run's batches carry the resolved rules stored with the run, so workers never read profile
files: a file edited while a run is played (or before it is resumed) changes nothing.
"""

from __future__ import annotations

import json
import pickle
import sysconfig
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from paiqi_core.actions import JOKER, TRUMP
from paiqi_core.cards import JOKERS
from paiqi_core.engine import Game, State, game_of
from paiqi_core.games import game_for
from paiqi_core.outcome import PlayerOutcome, Result
from paiqi_core.profile import Profile, ProfileError
from paiqi_core.rules import rules_of
from paiqi_core.runs.trace import Trace, trace
from paiqi_core.seeds import game_seed
from paiqi_core.streams import GENERATOR, KERNEL, prefetch

COLUMNS = (
    "profile",
    "game",
    "deal",
    "seat",
    "agent",
    "rank",
    "win",
    "total",
    "money",
    "money_value",
    "actions",
    "covers",
    "passes",
    "burst",
    "closures",
    "last_seven",
    "all_covered",
    "jokers",
    # added later: a results file of an earlier paiqi lacks these (NULL in its rows)
    "turn_order",  # place in turn order from the player who moved first (0: moved first)
    "leads",  # times this player took the lead in standing (see runs.trace)
    "deficit",  # the most this player trailed the best standing by (cards or points)
    "cards_left",  # cards held at the end
    "events",  # special rules that fired for this player: "bust swap:2" (see runs.trace)
)
# the columns every results file has; later ones may be missing in an earlier paiqi's file
FIRST_COLUMNS = COLUMNS[: COLUMNS.index("turn_order")]
Row = tuple[object, ...]


@dataclass(frozen=True)
class BatchSpec:
    """A slice of a run: which games of which profile, with which agents."""

    profile: str  # profile id or path, as given (the name of its rows)
    overrides: tuple[str, ...]
    agents: tuple[str, ...]  # by seat; empty: all random
    rotate: bool  # play each deal once per seat rotation of the agents
    seed: int
    start: int  # first game index
    count: int
    records: bool = False  # also return each game's record (a JSON line)
    # the resolved rules to play (a run's stored rules); None: load ``profile`` with
    # ``overrides`` where the batch is played
    rules: Profile | None = field(default=None, compare=False, repr=False)
    seatings: int = 0  # with rotation, games per deal (0: one per seat)
    # python, fast or auto: who plays all-random games (the kernel gives the same rows)
    engine: str = field(default="python", compare=False)
    # each deal replayed this many times, each time with the agents one seat further round
    # and a random stream of its own (the deal share); 0: games are dealt as usual
    replays: int = 0
    # the generator that deals the games (``paiqi_core.streams``): the compiled engine
    # deals with those of ``streams.KERNEL``; a run stored before them (mt19937) is
    # played in Python
    generator: str = GENERATOR

    @property
    def games(self) -> range:
        """The game indices of this batch."""
        return range(self.start, self.start + self.count)


def batch_game(spec: BatchSpec) -> Game:
    """The compiled game of a batch: from its rules when it carries them (compiled once per
    process), else loaded from its profile and overrides."""
    if spec.rules is not None:
        return game_of(rules_of(spec.rules))
    return game_for(spec.profile, spec.overrides)


def seating(spec: BatchSpec, players: int, index: int) -> tuple[int, list[str]]:
    """The deal and the agents by seat of game ``index``: with rotation, each deal is played
    ``spec.seatings`` times (``players`` times if not set), the agents moved one seat round
    each time; with replays, ``spec.replays`` times, the agents moved one seat round each
    time (``replay_of`` gives which replay)."""
    deals, agents = seatings(spec, players, (index,))
    return deals[0], list(agents[0])


def seatings(
    spec: BatchSpec, players: int, indices: Sequence[int]
) -> tuple[list[int], list[tuple[str, ...]]]:
    """``seating`` of every game of ``indices``: their deals, and their agents by seat (one
    tuple for each distinct seating, shared by the games that have it)."""
    agents = tuple(spec.agents) or ("random",) * players
    per = spec.replays or (spec.seatings or players if spec.rotate else 0)
    if not per:
        return list(indices), [agents] * len(indices)
    turns = [
        tuple(agents[(seat - turn) % players] for seat in range(players)) for turn in range(per)
    ]
    return [i // per for i in indices], [turns[i % per] for i in indices]


def replay_of(spec: BatchSpec, index: int) -> int:
    """Which replay of its deal game ``index`` is (0 unless the batch replays deals)."""
    return index % spec.replays if spec.replays else 0


class Batch(NamedTuple):
    """What a batch produces: its rows, one per game per seat, as one block of columns
    (``runs.block``: what the store keeps, and what crosses from worker to writer in one
    piece), and the records if asked for."""

    block: bytes
    records: list[str]  # one JSON line per game, in game order (empty unless asked)

    @property
    def rows(self) -> list[Row]:
        """The rows as tuples, in the order of ``COLUMNS``."""
        from paiqi_core.runs.block import decode

        return decode(self.block).as_rows()


def run_batch(spec: BatchSpec) -> Batch:
    """Play the batch's games and return their rows (and records): with all seats random
    and an engine other than ``python``, in the compiled kernel when it can play the rules
    (the same games, so the same rows), else in Python.

    A batch of replayed deals (``spec.replays``) gives its players a random stream of their
    own in every replay (``simulate.replay_stream``): the kernel draws every choice from the
    deal's stream and would play every replay alike, so such a batch is played in Python."""
    from paiqi_core import fast
    from paiqi_core.records import state_record
    from paiqi_core.simulate import play_game

    game = batch_game(spec)
    fast.use(spec.engine)
    kernel_deals = spec.generator in KERNEL
    if not spec.replays and kernel_deals and fast.plays(game.rules, spec.agents):
        from paiqi_core.runs.kernel_batch import play_batch as play_in_kernel

        return play_in_kernel(spec, game)
    rows: list[Row] = []
    records: list[str] = []
    if spec.generator in KERNEL:  # the deals' streams made together
        prefetch(game_seed(spec.seed, deal) for deal in seatings(spec, game.players, spec.games)[0])
    for index in spec.games:
        deal, agents = seating(spec, game.players, index)
        seed = game_seed(spec.seed, deal)
        state = play_game(game, seed, agents, replay_of(spec, index), spec.generator)
        rows += game_rows(spec.profile, index, deal, agents, state)
        if spec.records:
            records.append(json.dumps(state_record(state), ensure_ascii=False))
    from paiqi_core.runs.block import encode_rows

    return Batch(encode_rows(spec.profile, rows), records)


class BatchError(Exception):
    """A batch failed in code outside paiqi (a plugin's hook): the message locates where,
    ``FILE:LINE: in FUNCTION: ERROR``, and names the games being played."""


def play_batch(spec: BatchSpec) -> Batch:
    """``run_batch`` as executors call it: an error raised by a plugin's hook comes back as
    a located BatchError (which always pickles); profile errors come back as they are, and
    an error inside paiqi itself keeps its traceback (a bug to report)."""
    try:
        return run_batch(spec)
    except ProfileError:
        raise
    except Exception as e:
        frame = _outside_frame(e)
        if frame is None:
            raise
        games = f"games {spec.start}-{spec.start + spec.count - 1}"
        raise BatchError(
            f"{frame.filename}:{frame.lineno}: in {frame.name}: {type(e).__name__}: {e} "
            f"(playing {spec.profile}, {games})"
        ) from None


_PAIQI = Path(__file__).resolve().parent.parent
_PATHS = sysconfig.get_paths()
_STDLIB = {Path(_PATHS[k]).resolve() for k in ("stdlib", "platstdlib")}
_INSTALLED = {Path(_PATHS[k]).resolve() for k in ("purelib", "platlib")}  # may lie inside


def _outside_frame(e: BaseException) -> traceback.FrameSummary | None:
    """The innermost frame of ``e`` in code outside paiqi and the standard library, if the
    error comes from there (rather than from paiqi, or from the library paiqi called)."""
    for frame in reversed(traceback.extract_tb(e.__traceback__)):
        if frame.filename.startswith("<"):  # generated code: the compiled play loop
            return None
        path = Path(frame.filename).resolve()
        if path.is_relative_to(_PAIQI):
            return None
        installed = any(path.is_relative_to(d) for d in _INSTALLED)
        if not installed and any(path.is_relative_to(d) for d in _STDLIB):
            continue
        return frame
    return None


def packed_batch(spec: BatchSpec) -> bytes:
    """``play_batch`` with its result pickled: Dask moves one bytes object several times
    faster than the thousand tuples of a batch, which it would inspect one by one."""
    return pickle.dumps(play_batch(spec), protocol=pickle.HIGHEST_PROTOCOL)


def game_rows(
    profile: str, index: int, deal: int, agents: Sequence[str], state: State
) -> list[Row]:
    """The rows of one finished game: one per seat."""
    outcomes = state.outcomes()
    result = state.result(outcomes)
    winners = result.winners
    jokers = [0] * len(agents)
    if state.game.jokers:
        for seat, action in state.log:
            if JOKER <= action < TRUMP:
                jokers[seat] += 1
    course = trace(state.log, state.hand_sizes, state.game.rules.stuck.covers)
    events = events_text(state, outcomes, result, course)
    share = 1 / len(winners)  # of a win, shared by tied winners
    total = (None,) * len(agents) if result.total is None else result.total
    return [
        (
            profile,
            index,
            deal,
            seat,
            agent,
            result.rank[seat],
            share if seat in winners else 0.0,
            total[seat],
            str(money),  # exact: an int, or a fraction such as 5/3 from a split pot
            float(money),
            state.actions[seat],
            len(o.covered),
            o.passes,
            int(o.burst is not None),
            len(o.completions),
            int(o.last_seven),
            int(o.all_covered),
            jokers[seat],
            course.turn_order[seat],
            course.leads[seat],
            course.deficit[seat],
            o.hand_left,
            events[seat],
        )
        for seat, (agent, o, money) in enumerate(zip(agents, outcomes, result.money, strict=True))
    ]


def events_text(
    state: State, outcomes: Sequence[PlayerOutcome], result: Result, course: Trace
) -> list[str]:
    """By seat, the special rules that fired for the player and are not columns of their
    own: ``cut`` (a suit closed at an end of its line, 斬龍), ``swap`` (the joker taken for
    the card it stood for), ``leave`` (left holding only the joker), ``joker_lost`` (a joker
    in a burst hand, removed), ``clean`` (emptied the hand without covering, where the
    scoring gives a bonus for it: 全脫手/脫手),
    ``bust`` (paid more for covered points above the threshold, 爆點), ``melds`` (covered
    melds not counted) and ``fee`` (the house kept a share of the winnings); a name with a
    count when it fired more than once: ``"bust swap:2"``."""
    n = len(outcomes)
    counts: list[dict[str, int]] = [{} for _ in range(n)]
    for name, by_seat in (("cut", course.cuts), ("swap", course.swaps), ("leave", course.leaves)):
        for seat, k in enumerate(by_seat):
            if k:
                counts[seat][name] = k
    for seat, laid in zip(state.bursts, state.laid, strict=True):
        if laid & JOKERS:
            counts[seat]["joker_lost"] = 1
    if state.game.rules.facts.clean_bonus:  # a bonus only where the scoring gives one
        for seat, o in enumerate(outcomes):
            if o.clean:
                counts[seat]["clean"] = 1
    if result.busts is not None:
        for seat, bust in enumerate(result.busts):
            if bust:
                counts[seat]["bust"] = 1
    if result.exempt is not None:
        for seat, free in enumerate(result.exempt):
            if free:
                counts[seat]["melds"] = 1
    if result.house and result.total is not None:
        for seat in result.winners:
            if result.total[seat] > 0:
                counts[seat]["fee"] = 1
    return [" ".join(name if k == 1 else f"{name}:{k}" for name, k in c.items()) for c in counts]


def parse_events(text: str | None) -> dict[str, int]:
    """The counts of an ``events`` cell (empty for NULL: a row of an earlier paiqi)."""
    out: dict[str, int] = {}
    for word in (text or "").split():
        name, _, k = word.partition(":")
        out[name] = out.get(name, 0) + (int(k) if k else 1)
    return out
