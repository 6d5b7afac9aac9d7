"""Search players and agent names: legal moves under every family, decisions from the
observation alone, reproducible games, the objectives, strengths and levels."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from functools import cache

import pytest

from paiqi_core import Game
from paiqi_core.actions import COVER, PASS
from paiqi_core.agents import AGENTS, make_agent, resolve
from paiqi_core.engine import Observation, State
from paiqi_core.outcome import Result
from paiqi_core.records import replay, state_record
from paiqi_core.resources import builtin_profiles
from paiqi_core.search import GuidedAgent, ISMCTSAgent, PIMCAgent
from paiqi_core.search.budget import Budget
from paiqi_core.search.objective import utilities
from paiqi_core.seeds import game_seed
from paiqi_core.simulate import play_game

from .conftest import ROOT
from .test_agents import _redeal

CONFIGS = [(p, ()) for p in sorted(builtin_profiles())] + [
    ("shichinarabe", ("deck.jokers=1",)),
    ("doujue-passes", ("deck.jokers=1",)),
]


@cache
def game(profile: str, overrides: tuple[str, ...] = ()) -> Game:
    return Game(profile, list(overrides))


@pytest.mark.parametrize(("profile", "overrides"), CONFIGS)
def test_search_players_play_whole_legal_games(profile: str, overrides: tuple[str, ...]) -> None:
    g = game(profile, overrides)
    names = ["pimc:3x1", "ismcts:25", "guided:2x1", *["random"] * (g.players - 3)]
    state = play_game(g, game_seed(3, 1), names)
    assert state.is_terminal()
    assert replay(state_record(state), g) == []  # every move was legal


@pytest.mark.parametrize("name", ["pimc:4x1", "ismcts:30", "guided:3x1"])
def test_search_games_are_reproducible_under_the_seed(name: str) -> None:
    g = game("doujue-passes", ("deck.jokers=1",))
    names = [name, "heuristic", name, "random"]
    first = [state_record(play_game(g, game_seed(5, i), names)) for i in range(2)]
    again = [state_record(play_game(g, game_seed(5, i), names)) for i in range(2)]
    assert first == again


@pytest.mark.parametrize(
    ("profile", "overrides"), [("doujue", ()), ("shichinarabe", ("deck.jokers=1",))]
)
def test_the_choice_depends_only_on_the_observation(
    profile: str, overrides: tuple[str, ...]
) -> None:
    g = game(profile, overrides)
    rnd = random.Random(profile)
    positions = 0
    for deal in range(12):
        state = g.new_state(seed=game_seed(8, deal))
        for _ in range(rnd.randrange(10, 40)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rnd.randrange(len(legal))])
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        seat = state.current_seat()
        obs = state.observation(seat)
        for player in (PIMCAgent, ISMCTSAgent, GuidedAgent):
            budget = "20" if player is ISMCTSAgent else "3x1"
            chosen = player(random.Random(deal), game=g, budget=budget).act(obs)
            alt = _redeal(state, seat, rnd)
            assert alt.observation(seat) == obs
            assert player(random.Random(deal), game=g, budget=budget).act(obs) == chosen
        positions += 1
    assert positions >= 5


def test_each_player_optimises_its_profiles_objective() -> None:
    assert PIMCAgent(random.Random(0), game=game("doujue")).objective == "money"
    assert PIMCAgent(random.Random(0), game=game("shichinarabe")).objective == "points"
    assert ISMCTSAgent(random.Random(0), game=game("pagat")).objective == "win"
    assert ISMCTSAgent(random.Random(0), game=game("pagat"), objective="money").objective == "money"
    with pytest.raises(ValueError, match="unknown objective 'glory'"):
        PIMCAgent(random.Random(0), game=game("pagat"), objective="glory")
    result = Result(rank=(1, 1, 3, 4), winners=(0, 1), money=(5, 5, -4, -6), total=(3, 3, 1, 0))
    assert utilities(result, "money") == [5, 5, -4, -6]
    assert utilities(result, "points") == [3, 3, 1, 0]
    assert utilities(result, "win") == [0.5, 0.5, 0.0, 0.0]


def test_strengths_and_levels() -> None:
    assert Budget.parse("2000") == Budget(iterations=2000)
    assert Budget.parse("64x8", pairs=True) == Budget(iterations=64, per_iteration=8)
    assert Budget.parse("50ms") == Budget(seconds=0.05)
    assert Budget.parse("1.5s") == Budget(seconds=1.5)
    for bad in ("0", "64x8", "fast", "-3", "0ms", "9999s"):
        with pytest.raises(ValueError):
            Budget.parse(bad)
    assert resolve("easy") == ("random", None)
    assert resolve("normal") == ("heuristic", None)
    assert resolve("hard") == ("guided", None)
    assert resolve("pimc:16x2") == ("pimc", "16x2")
    with pytest.raises(ValueError, match="unknown agent 'genius'"):
        resolve("genius")
    with pytest.raises(ValueError, match="agent 'heuristic' takes no strength"):
        resolve("heuristic:10")
    with pytest.raises(ValueError, match="'lots' is not a strength"):
        resolve("ismcts:lots")
    rng = random.Random(1)
    assert isinstance(make_agent("hard", rng, game("doujue")), GuidedAgent)
    assert {"random", "heuristic", "pimc", "ismcts"} <= set(AGENTS)


def test_a_time_budget_stops_the_search() -> None:
    import time

    g = game("doujue")
    state = g.new_state(seed=9)
    state.apply(state.legal_actions()[0])
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    obs = state.observation(state.current_seat())
    for player in (PIMCAgent, ISMCTSAgent):
        t0 = time.perf_counter()
        player(random.Random(0), game=g, budget="30ms").act(obs)
        assert time.perf_counter() - t0 < 1.0


def test_the_documented_example_runs() -> None:
    doc = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    exec(compile(code, "docs/players.md", "exec"), {})


# Games of search players, digested; run in fresh interpreters with different hash seeds.
_DIGEST = """
import hashlib
from paiqi_core import Game
from paiqi_core.seeds import game_seed
from paiqi_core.simulate import play_game
h = hashlib.sha256()
for profile in ("doujue", "pagat"):
    game = Game(profile)
    for deal in range(3):
        state = play_game(game, game_seed(11, deal), ["pimc:4x1", "random", "ismcts:40", "random"])
        h.update(repr(state.log).encode())
print(h.hexdigest())
"""


def test_search_games_do_not_depend_on_the_processs_hash_seed() -> None:
    # Python salts the hashes of strings anew in every process: nothing a player chooses
    # may depend on the order of a set or a dict of such values
    import os
    import subprocess
    import sys

    digests = set()
    for salt in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": salt, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", _DIGEST], env=env, capture_output=True, text=True, check=True
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def _positions(g: Game, count: int, want: Callable[[State], bool]) -> list[State]:
    """Positions of random games, with several legal actions, that ``want`` accepts."""
    rnd = random.Random(count)
    out = []
    for deal in range(400):
        state = g.new_state(seed=game_seed(21, deal))
        stop = rnd.randrange(8, 40)
        while not state.is_terminal() and len(state.public_log()) < stop:
            legal = state.legal_actions()
            state.apply(legal[rnd.randrange(len(legal))])
        if not state.is_terminal() and len(state.legal_actions()) > 1 and want(state):
            out.append(state)
            if len(out) == count:
                break
    return out


def test_guided_without_evidence_plays_as_the_heuristic() -> None:
    # asked for an infinitely sure advantage, the search never overrules the rule-based
    # player: both draw their ties from the same stream first
    from paiqi_core.agents import HeuristicAgent

    for profile, overrides in (("doujue", ()), ("shichinarabe", ("deck.jokers=1",))):
        g = game(profile, overrides)
        for k, state in enumerate(_positions(g, 12, lambda s: True)):
            obs = state.observation(state.current_seat())
            sure = GuidedAgent(random.Random(k), game=g, budget="2x1", confidence=math.inf)
            assert sure.act(obs) == HeuristicAgent(random.Random(k), game=g).act(obs)


def test_guided_plays_the_heuristic_where_no_deal_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    # a position the sampler finds no agreeing deal for within its budget (rare: a joker
    # unseen behind covers and passes) must not stop the game: the rule-based move is played
    from paiqi_core.agents import HeuristicAgent
    from paiqi_core.belief import InconsistentObservation
    from paiqi_core.search import guided

    class NoDeal:
        def __init__(self, *args: object) -> None:
            raise InconsistentObservation("no agreeing deal found in 5000 draws")

    monkeypatch.setattr(guided, "Belief", NoDeal)
    g = game("platform", ("deck.jokers=1",))
    for k, state in enumerate(_positions(g, 6, lambda s: True)):
        obs = state.observation(state.current_seat())
        player = GuidedAgent(random.Random(k), game=g, budget="2x1")
        assert player.act(obs) == HeuristicAgent(random.Random(k), game=g).act(obs)


class _DearestCover:
    """A prior that covers the card worth most points: what no 鬥雀 player should do."""

    name = "dearest"

    def act(self, observation: Observation) -> int:
        return max(observation.legal, key=lambda a: (a - COVER) % 13)


def test_guided_overrules_a_prior_when_the_playouts_show_it_wrong() -> None:
    # 鬥雀: covered cards cost their points, so covering a K rather than an A or a 2 usually
    # throws away 11 points or more (not always: the K may be the card that could never be
    # played). The guided player, given a prior that always covers a K, covers a cheaper
    # card in most such positions.
    g = game("doujue")

    def choice_of_covers(state: State) -> bool:
        legal = state.legal_actions()
        if not all(COVER <= a < PASS for a in legal):
            return False
        ranks = [(a - COVER) % 13 for a in legal]
        return max(ranks) == 12 and min(ranks) <= 1 and len(state.public_log()) < 30

    positions = _positions(g, 6, choice_of_covers)
    assert len(positions) == 6
    overruled = 0
    for k, state in enumerate(positions):
        obs = state.observation(state.current_seat())
        player = GuidedAgent(random.Random(k), game=g, budget="24x2")
        player.prior = _DearestCover()
        chosen = player.act(obs)
        overruled += (chosen - COVER) % 13 < 12
    assert overruled >= 4


def test_playouts_by_the_compiled_engine_leave_every_choice_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the compiled engine plays the same playouts (same deals, same random streams), so
    # the search players choose exactly as they do with Python playouts, only sooner
    from paiqi_core import fast
    from paiqi_core.fast import finish as compiled

    calls = []
    real = compiled.fast_finish_after

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(compiled, "fast_finish_after", counted)
    names = ["pimc:4x2", "heuristic", "guided:4x2", "random"]
    for profile, overrides in (("doujue", ()), ("pagat", ()), ("platform", ())):
        g = game(profile, overrides)
        logs = {}
        for engine in ("python", "fast"):
            fast.use(engine)
            try:
                logs[engine] = [play_game(g, game_seed(6, d), names).log for d in range(2)]
            finally:
                fast.use("auto")
        assert logs["python"] == logs["fast"]
    assert calls  # the compiled engine did play the playouts


def test_a_deal_drawn_twice_is_one_piece_of_evidence() -> None:
    from paiqi_core.search.guided import mean_and_error

    # four playouts, each its own deal: the usual standard error, sqrt(var / n)
    row = [1.0, 3.0, 0.0, 0.0]  # mean 1, sample variance (0 + 4 + 1 + 1) / 3 = 2
    mean, error = mean_and_error(row, [0, 1, 2, 3])
    assert mean == 1.0 and error == pytest.approx(math.sqrt(2 / 4))
    # the same values from two deals drawn twice each: two pieces of evidence, of means
    # 2 and 0; cluster-robust error sqrt(k/(k-1) * sum((total - count * mean)^2)) / n
    # = sqrt(2 * ((4 - 2) ** 2 + (0 - 2) ** 2)) / 4 = 1, against 0.71 counted apart
    mean, error = mean_and_error(row, [7, 7, 9, 9])
    assert mean == 1.0 and error == pytest.approx(1.0)
    # one deal, however often drawn, is no evidence at all
    assert mean_and_error([2.0, 2.0, 2.0], [5, 5, 5]) == (2.0, math.inf)


def test_expert_counts_the_deals_it_draws_more_than_once_as_one() -> None:
    # a deal resampled from one pool comes back with the same number, and the expert player
    # reads the numbers: at a Fan Tan table its 32 deals come from fewer distinct ones
    from paiqi_core.learn.model import model_for
    from paiqi_core.search.expert import ExpertAgent

    g = game("pagat")
    model = model_for(g.rules.fingerprint)
    assert model is not None  # shipped
    state = _positions(g, 1, lambda s: len(s.public_log()) > 20 and len(s.legal_actions()) > 1)[0]
    obs = state.observation(state.current_seat())
    player = ExpertAgent(random.Random(0), game=g, model=model)
    assert player.clustered
    prior = player.prior.act(obs)
    rows, deals = player.advantages(obs, prior)
    assert len(deals) == len(rows[0]) == 32 * 2  # 32 deals, 2 playouts each
    assert len(set(deals)) < 32  # some deals drawn twice or more
    assert all(deals.count(d) % 2 == 0 for d in deals)  # both playouts of a deal go together
