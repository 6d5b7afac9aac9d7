"""Crazy Tan's blocks (``turn.lay: blocks``, WILD_RULES row 11): a turn lays a run of ranks
along the line in one suit or several, a card at a time. The expectations are worked out
by hand from the reading (``block-one-run-several-suits``): what lays on a block, where a
suit may be begun, when the turn ends by itself, and that a stop is no pass; then the
combinations a table would play (a covering family, a stock, chips, a pass that bars) and
the refusals of those the reading does not cover."""

from __future__ import annotations

import random

import pytest

from paiqi_core import Game, State
from paiqi_core.actions import PASS, action_text
from paiqi_core.cards import parse_card
from paiqi_core.cli import main
from paiqi_core.core import layout as L
from paiqi_core.engine.reasons import why_illegal
from paiqi_core.limits import limits
from paiqi_core.profile import ProfileError, load_profile

Capsys = pytest.CaptureFixture[str]


def mask(*cards: str) -> int:
    return sum(1 << parse_card(c) for c in cards)


def position(game: Game, table: tuple[str, ...], *hands: tuple[str, ...], **kw: int) -> State:
    """The game with ``table`` down and seat 0 (甲) to move holding ``hands[0]``."""
    return State(game, [mask(*h) for h in hands], table=mask(*table), turn=0, **kw)


def legal(state: State) -> set[str]:
    return {action_text(a) for a in state.legal_actions()}


def test_a_run_follows_the_line_so_q_k_a_is_one_where_the_ace_is_high() -> None:
    # Pagat's rows run 2..K then A: after SQ and SK the SA still lays on the run; with the
    # ace low the K ends the line, and the turn ends by itself after it
    high = Game("pagat", ("turn.lay=blocks",))
    table = ("S7", "S8", "S9", "S10", "SJ")
    others = (("D2",), ("D3",), ("D4",))
    state = position(high, table, ("SQ", "SK", "SA", "H2"), *others)
    state.apply("SQ")
    assert (state.turn, legal(state)) == (0, {"SK", "pass"})
    state.apply("SK")
    assert (state.turn, legal(state)) == (0, {"SA", "pass"})
    state.apply("SA")
    assert state.turn == 1 and state.st[L.BLOCK] == 0 and state.st[L.PHASE] == 0
    low = Game("pagat", ("turn.lay=blocks", "layout.ace=low"))
    state = position(low, table, ("SQ", "SK", "SA", "H2"), *others)
    state.apply("SQ")
    state.apply("SK")
    assert state.turn == 1


def test_parallels_and_a_second_suit_fix_the_run() -> None:
    # with S7 and H7 down, 甲 lays S8: the spade run may grow (S9), and hearts may be begun
    # at the 8 (甲 holds H8, which fits); after H8 the run is fixed at the 8, so S9 is no
    # longer offered, and diamonds (D8, its row empty and the run without the 7) never are
    game = Game("pagat", ("turn.lay=blocks",))
    state = position(game, ("S7", "H7"), ("S8", "S9", "H8", "D8"), ("C2",), ("C3",), ("C4",))
    state.apply("S8")
    assert legal(state) == {"S9", "H8", "pass"}
    state.apply("H8")
    assert state.turn == 1  # nothing lays on a run fixed at the 8: the turn ended by itself
    assert state.hands[0] == mask("S9", "D8")


def test_a_suit_is_begun_only_where_all_its_cards_at_the_run_can_be_laid_now() -> None:
    # Siebener raus: a row grows past its 6 and 8 only once its 6, 7 and 8 are down. With
    # spades at S6 S7, 甲 lays S8 and S9; hearts have only H7, so H8 fits but H9 could
    # not follow it: hearts may not be begun at the run 8-9, and the turn ends by itself
    game = Game("siebener-raus", ("turn.lay=blocks",))
    hand = ("S8", "S9", "H8", "H9", "C2")
    others = (("D2",), ("D3",), ("D4",))
    state = position(game, ("S6", "S7", "H7"), hand, *others)
    state.apply("S8")
    assert legal(state) == {"S9", "H8", "pass"}  # H8 alone is a whole suit at the run 8
    state.apply("S9")
    assert state.turn == 1
    # with H6 down too, H8 and H9 can both be laid, one after the other
    state = position(game, ("S6", "S7", "H6", "H7"), hand, *others)
    state.apply("S8")
    state.apply("S9")
    assert legal(state) == {"H8", "pass"}
    state.apply("H8")
    assert legal(state) == {"H9"}  # hearts are due at the 9: no stop
    reason = why_illegal(state, PASS)
    assert reason is not None and reason.startswith("must play when able: a suit begun")
    state.apply("H9")
    assert state.turn == 1 and state.hands[0] == mask("C2")


def test_a_run_of_a_suit_not_begun_starts_with_its_seven() -> None:
    game = Game("pagat", ("turn.lay=blocks",))
    state = position(game, ("S7",), ("C6", "C7", "C8", "DK"), ("D2",), ("D3",), ("D4",))
    assert legal(state) == {"C7"}
    state.apply("C7")
    assert legal(state) == {"C6", "C8", "pass"}
    reason = why_illegal(state, parse_card("DK"))
    assert reason is not None and reason.startswith("not legal")


@pytest.mark.parametrize(
    "sets",
    [
        ("turn.pass_bars=true",),  # Sjuan's bar: a stop bars nobody
        ("turn.must_play=false", "ending.stall=1"),  # a stop is no pass of the stall rule
        ("turn.pass_limit=1",),
    ],
)
def test_a_stop_is_no_pass(sets: tuple[str, ...]) -> None:
    game = Game("pagat", ("turn.lay=blocks", *sets))
    state = position(game, ("S7",), ("S8", "S9", "H2"), ("D2", "D5"), ("D3",), ("D4",))
    state.apply("S8")
    state.apply("pass")
    assert state.turn == 1 and not state.is_terminal()
    assert state.observation(0).pass_counts == (0, 0, 0, 0)
    assert state.st[L.BARRED] == state.st[L.IDLE] == state.st[L.BLOCK] == 0


def test_a_stop_while_able_costs_none_of_hoyles_penalties() -> None:
    # Hoyle counts a pass made while the player could play (3 chips); a stop is no pass
    game = Game("hoyle", ("turn.lay=blocks",))
    state = position(game, ("S7",), ("S8", "S9", "H2"), ("D2",), ("D3",), ("D4",))
    state.apply("S8")
    state.apply("pass")
    assert state.st[L.TALLY] == state.st[L.TALLY + 1] == 0
    state = position(game, ("S7",), ("S8", "S9", "H2"), ("D2",), ("D3",), ("D4",))
    state.apply("pass")  # a pass by choice while S8 fits: counted
    assert state.st[L.TALLY] == 1


def test_a_card_drawn_that_fits_begins_a_block() -> None:
    # sevens-stock: 甲 holds S9 and H2, neither fits beside S7; it draws S8, must play it,
    # and may then lay S9 on it
    game = Game("sevens-stock", ("turn.lay=blocks",))
    stock = mask("S8", "CK", "DK")
    state = position(game, ("S7",), ("S9", "H2"), ("D2",), ("D3",), ("D4",), stock=stock)
    assert legal(state) == {"draw"}
    state.apply("draw S8")
    assert legal(state) == {"S8"}
    state.apply("S8")
    assert legal(state) == {"S9", "pass"}


def test_a_block_under_covering_offers_no_cover() -> None:
    # 鬥雀: a stuck player covers; in the middle of a block only its cards or a stop
    game = Game("doujue", ("turn.lay=blocks",))
    state = position(game, ("S7",), ("S8", "S9", "HK"), ("D2",), ("D3",), ("D4",))
    state.apply("S8")
    assert legal(state) == {"S9", "pass"}
    state.apply("S9")
    assert state.turn == 1 and legal(state) == {"cover D2"}


@pytest.mark.parametrize(
    ("sets", "other"),
    [
        (("deck.jokers=1",), "deck.jokers"),
        (("deck.decks=2", "players=8"), "deck.decks"),
        (("layout.rows=one_at_a_time",), "layout.rows"),
        (("turn.extra_after_end=may",), "turn.extra_after_end"),
    ],
)
def test_the_rules_a_block_cannot_go_with_are_refused_naming_both(
    sets: tuple[str, ...], other: str
) -> None:
    with pytest.raises(ProfileError) as refused:
        load_profile("pagat", ["turn.lay=blocks", *sets])
    text = str(refused.value)
    assert "turn.lay blocks lays several cards a turn" in text and other in text
    load_profile("pagat", list(sets))  # each is a rule of its own without blocks


def test_rows_begun_anywhere_refuse_blocks_at_the_command_line(capsys: Capsys) -> None:
    status = main(["validate", "play-or-pay", "--set", "turn.lay=blocks"])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert "Traceback" not in err
    lines = err.splitlines()
    assert any("layout.start any" in line and "turn.lay blocks" in line for line in lines)
    assert all(line.startswith("--set:") or ": " in line for line in lines)


def test_every_game_of_blocks_ends_within_the_bound_on_its_length() -> None:
    # a stop may follow each card: the bound counts one, and random games stay within it
    for sets in (("turn.lay=blocks",), ("turn.lay=blocks", "turn.pass_limit=2")):
        game = Game("pagat", sets)
        most = limits(game.rules).turns
        assert most is not None
        for seed in range(60):
            state = game.new_state(seed)
            rng = random.Random(seed)
            actions = 0
            while not state.is_terminal():
                options = state.legal_actions()
                cards = [a for a in options if a < 52]
                state.apply(rng.choice(cards if cards and rng.random() < 0.8 else options))
                actions += 1
            assert actions <= most


def test_a_plugin_stuck_rule_refuses_blocks_naming_both(monkeypatch: pytest.MonkeyPatch) -> None:
    # a stuck rule from a plugin is not asked between a block's cards
    from paiqi_core.hooks import registry
    from paiqi_core.slots import Stuck

    monkeypatch.setitem(registry._REGISTRY, "stuck", dict(registry._REGISTRY["stuck"]))
    registry.register("stuck", "pass_twice", summary="a plugin")(lambda p: Stuck())
    load_profile("pagat", ["turn.stuck=pass_twice"])
    with pytest.raises(ProfileError) as refused:
        load_profile("pagat", ["turn.stuck=pass_twice", "turn.lay=blocks"])
    text = str(refused.value)
    assert "turn.lay blocks lays several cards a turn" in text
    assert "the stuck rule 'pass_twice' is a plugin" in text


def test_the_rule_based_player_lays_on_a_block_to_go_out() -> None:
    # late in a deal 甲 holds D8 D9 D10 above the diamonds' A-7, and 乙 holds only S8, which
    # fits: a stop before D10 lets 乙 go out; the rule-based player lays D10 and goes out,
    # although D10 opens the J for the others
    from paiqi_core.agents import make_agent

    game = Game("pagat", ("turn.lay=blocks",))
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    table = [s + r for s in "HC" for r in ranks] + [s + r for s in "SD" for r in ranks[:7]]
    hands = (("D8", "D9", "D10"), ("S8",), ("S9", "S10", "SJ", "DJ"), ("SQ", "SK", "DQ", "DK"))
    state = State(
        game,
        [mask(*h) for h in hands],
        table=mask(*table),
        turn=0,
        played=[10, 12, 9, 9],
        opened=[0, 1, 2, 3],
    )
    agent = make_agent("normal", random.Random(1), game=game)
    while state.turn == 0 and not state.is_terminal():
        state.apply(agent.act(state.observation(0)))
    assert state.is_terminal() and state.result().winners == (0,)


@pytest.mark.parametrize("name", ["pimc:8x2", "ismcts:100", "guided:50"])
def test_the_search_players_play_games_of_blocks_to_their_end(name: str) -> None:
    # their belief reads a block's stops and cards, and their playouts lay blocks
    from paiqi_core.agents import make_agent

    game = Game("pagat", ("turn.lay=blocks",))
    state = game.new_state(1)
    agents = [make_agent(name, random.Random(1), game=game)]
    agents += [make_agent("easy", random.Random(k), game=game) for k in (2, 3, 4)]
    while not state.is_terminal():
        state.apply(agents[state.turn].act(state.observation(state.turn)))
    assert state.result().winners
