"""The adapters with several decks (``deck.decks``), worked out by hand.

Each card may be in play up to three times. The ``hand`` and ``table`` sections of the
observation count the copies of each card (docs/adapters.md), the global state's hand rows
and the information state's ``dealt`` count them too, every seat's count of cards counts
every copy, and the texts list a card as often as it is held. The bounds grow with the pack:
104 or 156 cards. The conformance suites (PettingZoo's ``api_test``, Gymnasium's
``check_env``, OpenSpiel's ``random_sim_test``) and the comparison of the compiled path with
the Python engine run on several-decks profiles in their own test files.
"""

from __future__ import annotations

import pytest

from paiqi_core.cards import card_text
from paiqi_core.games import game_for

from .adapters_support import need

np = need("numpy")

SUIT = [list(range(13 * s, 13 * s + 13)) for s in range(4)]  # SA..SK, HA..HK, ...
S6, S7, S8, H7, D7, C7 = 5, 6, 7, 19, 32, 45
# pagat with two decks and four seats: seat s is dealt every card of suit s twice (26 each)
TWO_DECKS = {"deck.decks": 2}
HANDS = [[c for c in SUIT[s] for _ in range(2)] for s in range(4)]


def section(obs: np.ndarray, env: object, name: str, size: int) -> list[float]:
    at = env.layout.at[name]  # type: ignore[attr-defined]
    return obs[at : at + size].tolist()


def copies(counts: dict[int, int]) -> list[float]:
    """53 entries: ``counts[c]`` copies of card ``c``, none of the others."""
    return [float(counts.get(c, 0)) for c in range(53)]


@pytest.mark.parametrize("engine", ["fast", "python"])
def test_an_observation_counts_the_copies_of_each_card(engine: str) -> None:
    """Seat s holds both copies of every card of suit s. Pagat: seat 0 moves first and any 7
    opens a suit, so the openings are forced: S7, H7, D7, C7. Then seat 0 may lay its
    second S7 (one lies down) or S6 or S8 beside the first; it lays the second S7."""
    need("pettingzoo")
    from paiqi_core.adapters.pettingzoo import paiqi_env

    env = paiqi_env("pagat", TWO_DECKS, engine=engine, render_mode="ansi")
    assert env.compiled == (engine == "fast")
    env.reset(options={"hands": HANDS})
    obs = env.observe("player_0")["observation"]
    assert section(obs, env, "hand", 53) == copies(dict.fromkeys(SUIT[0], 2))
    assert section(obs, env, "table", 53) == [0.0] * 53
    assert section(obs, env, "hand_counts", 4) == [26, 26, 26, 26]
    assert env.legal_indices() == [S7]
    for card in (S7, H7, D7, C7):
        assert env.legal_indices() == [card]
        env.step(card)
    assert env.legal_indices() == [S6, S7, S8]
    env.step(S7)
    # seat 0 has laid both its S7 and holds two of every other spade
    spades = dict.fromkeys(SUIT[0], 2)
    del spades[S7]
    table = {S7: 2, H7: 1, D7: 1, C7: 1}
    obs = env.observe("player_0")["observation"]
    assert section(obs, env, "hand", 53) == copies(spades)
    assert section(obs, env, "table", 53) == copies(table)
    assert section(obs, env, "hand_counts", 4) == [24, 25, 25, 25]
    assert env.observation_space("player_0").contains(env.observe("player_0"))
    # seat 1 sees its hearts (H7 once) and the same table; counts from its own seat on
    obs = env.observe("player_1")["observation"]
    hearts = dict.fromkeys(SUIT[1], 2)
    hearts[H7] = 1
    assert section(obs, env, "hand", 53) == copies(hearts)
    assert section(obs, env, "table", 53) == copies(table)
    assert section(obs, env, "hand_counts", 4) == [25, 25, 25, 24]
    assert section(obs, env, "to_move", 4) == [1, 0, 0, 0]  # seat 1 moves next
    # the global state: the public part, then every hand's copies by seat
    state = env.state()
    size = env.layout.observation_size
    hands = state[size : size + 4 * 53].reshape(4, 53)
    assert hands[0].tolist() == copies(spades)
    assert hands[1].tolist() == copies(hearts)
    assert section(state, env, "table", 53) == copies(table)
    assert env.state_space.contains(state)
    # the table drawn with a row per copy, and hands listed copy by copy
    text = env.render()
    assert text is not None
    lines = text.splitlines()
    seven = ["."] * 13
    seven[5] = "7"  # ranks 2..K then A (ace high): the 7 is sixth
    row = " ".join(f"{c:>2}" for c in seven)
    assert lines[1:3] == ["S  " + row, "Sx2" + row]
    assert lines[3:5] == ["H  " + row, "Hx2" + " ".join(f"{c:>2}" for c in ["."] * 13)]
    shown = " ".join(card_text(c) for c in SUIT[0] for _ in range(2) if c != S7)
    assert lines[-4] == f"seat 0: 24 cards, 0 covered, 0 passes  {shown}"


def test_the_observation_space_bounds_the_copies() -> None:
    """The hand and table entries of the 52 cards go up to the decks (the joker's entry
    stays 0..1); a seat is dealt 104 / 4 = 26 cards, or 156 / 12 = 13; where a pass takes a
    card, a hand may grow to the whole pack of 104."""
    need("pettingzoo")
    from paiqi_core.adapters.pettingzoo import paiqi_env

    for overrides, decks, hand in [
        ({"deck.decks": 2}, 2, 26),
        ({"deck.decks": 3, "players": 12}, 3, 13),
        ({"deck.decks": 2, "turn.pass_takes": "chosen"}, 2, 104),
        ({}, 1, 13),
    ]:
        env = paiqi_env("pagat", overrides)
        n = len(env.possible_agents)
        space = env.observation_space("player_0")["observation"]
        for name in ("hand", "table"):
            assert section(space.high, env, name, 53) == [decks] * 52 + [1]
        for name in ("laid", "covered", "door_card", "face_up"):
            assert section(space.high, env, name, 53) == [1] * 53
        assert section(space.high, env, "hand_counts", n) == [hand] * n
        assert space.shape == (388 + 8 * n,)  # the same layout for every profile
        size = env.layout.observation_size
        high = env.state_space.high[size:].reshape(2, n, 53)
        assert (high[0, :, :52] == decks).all() and (high[0, :, 52] == 1).all()
        assert (high[1] == 1).all()  # covered cards


def test_a_game_of_bicycle_with_two_decks_pays_per_pass_of_the_longer_game() -> None:
    """Fan Tan with chips and 104 cards: a seat passes at most once between two cards and
    once before the first, 105 passes, antes 1 and pays a chip for each of the 26 cards it
    was dealt that it still holds: it loses at most 132 chips, and the winner collects from
    three seats at most 396."""
    from paiqi_core.adapters.bounds import limits, utility_bounds

    rules = game_for("bicycle", {"deck.decks": 2}).rules
    assert limits(rules).passes_per_seat == 105
    assert utility_bounds(rules) == (-132.0, 396.0)
    # three decks, twelve seats: 157 passes, the ante and 13 cards, eleven payers
    rules = game_for("bicycle", {"deck.decks": 3, "players": 12}).rules
    assert utility_bounds(rules) == (-171.0, 11 * 171.0)


def test_openspiel_deals_copies_and_remembers_them() -> None:
    """The deal draws among the copies left (a card left twice is twice as likely); the
    i-th card goes to seat i mod 4. The information state's ``dealt`` counts copies, its
    text lists them, and the game's length and chance nodes follow from 104 cards: one
    chance node per card, and 104 cards with at most three passes between two of them and
    before the first (must play, no pass limit): 104 + 3 x 105 moves."""
    need("pyspiel")
    import pyspiel
    from open_spiel.python.observation import make_observation

    from paiqi_core.adapters import openspiel as adapter

    game = adapter.paiqi_game("pagat", TWO_DECKS)
    assert game.max_chance_nodes_in_history() == 104
    assert game.max_game_length() == 104 + 3 * 105
    assert (game.min_utility(), game.max_utility()) == (0, 1)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(c, 2 / 104) for c in range(52)]
    order = [HANDS[i % 4][i // 4] for i in range(104)]
    state.apply_action(order[0])  # one SA left: half as likely as any other card
    outcomes = dict(state.chance_outcomes())
    assert outcomes[0] == pytest.approx(1 / 103) and outcomes[1] == pytest.approx(2 / 103)
    for card in order[1:]:
        state.apply_action(card)
    assert [state.paiqi_state.held(s) for s in range(4)] == HANDS
    for card in (S7, H7, D7, C7, S7):
        state.apply_action(card)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    recall.set_from(state, 0)
    assert recall.dict["dealt"].tolist() == copies(dict.fromkeys(SUIT[0], 2))
    spades = dict.fromkeys(SUIT[0], 2)
    del spades[S7]
    assert recall.dict["hand"].tolist() == copies(spades)
    assert recall.dict["table"].tolist() == copies({S7: 2, H7: 1, D7: 1, C7: 1})
    # the fifth row: seat 0 (relative 0) played (kind 0) one S7
    row = recall.dict["history"][4]
    assert np.flatnonzero(row).tolist() == [0, 4, 4 + 11 + S7]
    text = state.information_state_string(0)
    dealt = " ".join(card_text(c) for c in HANDS[0])
    assert text.splitlines() == [f"seat 0; dealt: {dealt}", "0:S7 1:H7 2:D7 3:C7 0:S7"]
    lines = state.observation_string(1).splitlines()
    held = list(HANDS[1])
    held.remove(H7)  # one H7 laid, one held
    assert lines[1:3] == [f"hand: {' '.join(map(card_text, held))}", "table: S7 S7 H7 D7 C7"]
    assert "held: 24 25 25 25" in lines  # by seat number
    # a public observer shows none of the seat's cards, nor their copies
    public_type = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    public = make_observation(game, public_type)
    public.set_from(state, 1)
    assert not public.dict["hand"].any()
    assert public.dict["table"].tolist() == copies({S7: 2, H7: 1, D7: 1, C7: 1})
    assert public.string_from(state, 1).splitlines()[1:3] == ["hand: -", lines[2]]
    tensor = state.observation_tensor(1)
    assert tensor[:53] == copies({c: held.count(c) for c in held})
    assert tensor[53:106] == copies({S7: 2, H7: 1, D7: 1, C7: 1})


@pytest.mark.parametrize("engine", ["fast", "python"])
def test_other_seats_copies_do_not_show(engine: str) -> None:
    """Seat 0 holds the same cards in two deals whose other hands differ (the hearts,
    diamonds and clubs shuffled among seats 1 to 3, so that they hold copies of other cards
    and single cards): seat 0's observation is the same in both, before and after its S7."""
    need("pettingzoo")
    import random

    from paiqi_core.adapters.pettingzoo import paiqi_env

    rest = [c for hand in HANDS[1:] for c in hand]
    random.Random(5).shuffle(rest)
    other = [HANDS[0], rest[:26], rest[26:52], rest[52:]]
    assert other[1:] != HANDS[1:]
    envs = [paiqi_env("pagat", TWO_DECKS, engine=engine) for _ in range(2)]
    for env, hands in zip(envs, (HANDS, other), strict=True):
        env.reset(options={"hands": hands})
    for move in (S7, None):
        a, b = (env.observe("player_0")["observation"] for env in envs)
        assert (a == b).all()
        for env in envs:
            if move is not None:
                env.step(move)
