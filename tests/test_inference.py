"""Deals weighed by how well they explain the others' play (``search.inference``).

- In a game where every seat played as the rule-based player, the true deal explains every
  move: no disagreement, whatever the moment and the seat asking.
- The compiled count of choices and disagreements equals the one made by replaying the
  game in Python and asking ``HeuristicAgent.choices`` at every move, for sampled deals of
  games of random play (where disagreements are many).
- Systematic resampling gives each index its share of the draws, by hand.
- ``guided`` weighs deals at Fan Tan tables only, and plays the same moves whichever
  engine does the counting and the playouts.
"""

from __future__ import annotations

import random

import pytest

from paiqi_core import Game, fast
from paiqi_core.actions import EVENT, JOKER
from paiqi_core.agents import HeuristicAgent, RandomAgent
from paiqi_core.belief import Belief
from paiqi_core.engine import State
from paiqi_core.games import game_for
from paiqi_core.search import GuidedAgent
from paiqi_core.search.guided import default_rollout
from paiqi_core.search.inference import Weigher, resample, weighs_deals, worlds
from paiqi_core.seeds import game_seed
from paiqi_core.simulate import play_game

TABLES = [
    ("pagat", ()),
    ("bicycle", ()),
    ("shichinarabe", ("deck.jokers=1",)),
    ("doujue", ()),
    ("doujue-passes", ("deck.jokers=1",)),
]


def stopped(game: Game, players: str, count: int, seed: int) -> list[State]:
    """Games played by ``players`` (heuristic or random) stopped at random points."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = game.new_state(seed * 100 + i)
        make = HeuristicAgent if players == "heuristic" else RandomAgent
        agents = [make(random.Random(i * 10 + s), game=game) for s in range(game.players)]
        for _ in range(rng.randrange(4, 60)):
            if state.over:
                break
            state.apply_unchecked(agents[state.turn].act(state.observation(state.turn)))
        if not state.over:
            out.append(state)
    return out


def other_choices(state: State, me: int) -> int:
    """Moves of the other seats, so far, that had more than one legal action (replayed by
    hand from the deal)."""
    game = state.game
    replay = game.new_state(hands=[list(_bits(d)) for d in state.dealt], door_card=state.door_card)
    count = 0
    for seat, action in state.log:
        if EVENT <= action < JOKER:
            continue
        count += seat != me and len(replay.legal_actions()) > 1
        replay.apply_unchecked(action)
    return count


def _bits(mask: int) -> list[int]:
    return [c for c in range(64) if mask >> c & 1]


@pytest.mark.parametrize(("profile", "sets"), TABLES)
def test_the_true_deal_of_rule_based_play_explains_every_move(
    profile: str, sets: tuple[str, ...]
) -> None:
    game = game_for(profile, sets)
    checked = 0
    for state in stopped(game, "heuristic", 25, 3):
        me = state.turn
        weigher = Weigher(Belief(game, state.observation(me)))
        choices, disagreements = weigher.disagreements([state])[0]
        assert disagreements == 0
        assert choices == other_choices(state, me)
        assert weigher.replayed(state) == (choices, 0)
        checked += choices > 0
    assert checked >= 15


@pytest.mark.parametrize(("profile", "sets"), TABLES)
def test_compiled_counts_equal_the_python_replay(profile: str, sets: tuple[str, ...]) -> None:
    game = game_for(profile, sets)
    rng = random.Random(9)
    disagreeing = 0
    for state in stopped(game, "random", 20, 4):
        me = state.turn
        belief = Belief(game, state.observation(me))
        weigher = Weigher(belief)
        assert weigher.compiled
        deals = [state, *(belief.sample(rng) for _ in range(6))]
        counted = weigher.disagreements(deals)
        for deal, row in zip(deals, counted, strict=True):
            assert row == weigher.replayed(deal)
            disagreeing += row[1] > 0
    assert disagreeing >= 30  # random players often move as the rule-based one would not


def test_systematic_resampling_by_hand() -> None:
    # weights 0, 1, 0, 3 over four draws: pointers u, u+1, u+2, u+3 for a u in [0, 1);
    # the first falls in index 1's span (0, 1], the other three in index 3's (1, 4]
    for seed in range(20):
        assert resample([0.0, 1.0, 0.0, 3.0], 4, random.Random(seed)) == [1, 3, 3, 3]
    # equal weights: every index once
    assert resample([0.5] * 5, 5, random.Random(1)) == [0, 1, 2, 3, 4]


def test_weighed_deals_favour_the_ones_that_explain_the_play() -> None:
    game = game_for("pagat", ())
    rng = random.Random(2)
    states = [s for s in stopped(game, "heuristic", 24, 7) if len(s.log) > 24]
    better = 0
    for state in states:
        belief = Belief(game, state.observation(state.turn))
        weigher = Weigher(belief)
        uniform = weigher.disagreements([belief.sample(rng) for _ in range(64)])
        draws = worlds(belief, rng)
        weighed = weigher.disagreements([next(draws)[1] for _ in range(64)])
        better += sum(k for _, k in weighed) < sum(k for _, k in uniform)
        for _, deal in (next(draws) for _ in range(4)):  # every deal drawn agrees with it
            assert deal.observation(state.turn) == state.observation(state.turn)
    assert better == len(states) >= 6


def test_guided_weighs_deals_at_fan_tan_tables_only() -> None:
    rng = random.Random(0)
    for profile, weighs in (
        ("pagat", True),
        ("bicycle", True),
        ("shichinarabe", False),
        ("doujue", False),
        ("platform", False),
        ("doujue-passes", False),
    ):
        game = Game(profile)
        assert weighs_deals(game) is weighs
        assert GuidedAgent(rng, game=game).weigh is weighs
        if weighs:
            assert default_rollout(game) == "heuristic"
    assert not GuidedAgent(rng, game=Game("pagat"), weigh=False).weigh


def test_a_plain_install_weighs_deals_in_python() -> None:
    # without numba (pip install .), hard plays Fan Tan with the Python engine, and play
    # itself needs no numpy (only storing and reporting runs do)
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['numpy'] = None\n"
        "sys.modules['numba'] = None\n"
        "from paiqi_core import Game\n"
        "from paiqi_core.seeds import game_seed\n"
        "from paiqi_core.simulate import play_game\n"
        "state = play_game(Game('pagat'), game_seed(1, 0), ['guided:1x1', 'heuristic'] * 2)\n"
        "assert state.over and 'numpy' not in [m for m in sys.modules if sys.modules[m]]\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_guided_plays_the_same_moves_whichever_engine_counts() -> None:
    game = Game("pagat")
    names = ["guided:2x1", "heuristic", "random", "heuristic"]
    logs = {}
    for engine in ("python", "fast"):
        fast.use(engine)
        try:
            logs[engine] = [play_game(game, game_seed(4, d), names).log for d in range(2)]
        finally:
            fast.use("auto")
    assert logs["python"] == logs["fast"]


@pytest.mark.parametrize(("profile", "sets"), TABLES)
def test_every_sampled_game_starts_as_the_engine_deals_it(
    profile: str, sets: tuple[str, ...]
) -> None:
    from paiqi_core.fast.finish import encode

    game = game_for(profile, sets)
    rng = random.Random(1)
    for state in stopped(game, "random", 6, 2):
        belief = Belief(game, state.observation(state.turn))
        weigher = Weigher(belief)
        for deal in [belief.sample(rng) for _ in range(5)]:
            hands = [_bits(d) for d in deal.dealt]
            fresh = game.new_state(hands=hands, door_card=deal.door_card)
            assert weigher._start(deal).tolist() == encode(fresh).tolist()


def test_the_likeliest_rate_is_low_for_play_it_explains_and_high_for_play_it_does_not() -> None:
    from paiqi_core.search.inference import RATES, likeliest_rate, slack_of

    explained = [(20, 0), (20, 1), (20, 3), (20, 6)]  # one deal explains nearly every move
    unexplained = [(20, 9), (20, 10), (20, 11), (20, 12)]  # every deal: half unlike
    assert likeliest_rate(explained) == RATES[0]
    assert likeliest_rate(unexplained) >= 0.6
    # the weight of an unlike move: (r / 3) / (1 - r + r / 3); 1 at r = 1, flat weights
    assert slack_of(0.5) == pytest.approx((0.5 / 3) / (0.5 + 0.5 / 3))
    assert slack_of(1.0) == pytest.approx(1.0)
    assert slack_of(0.05) < 0.02
