"""Sessions (局) of the platform: six hands of running money (RULES.md section 2).

A session is ``session.hands`` hands (6 for the platform). With a bankroll a player whose
money falls below zero cannot pay, and the session ends after that hand. The session's
winners have the most money. Hand-computed cases first, then ``paiqi simulate --sessions``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.cli import main
from paiqi_core.outcome import Money, Result
from paiqi_core.records import replay
from paiqi_core.seeds import game_seed
from paiqi_core.session import run_session

Capsys = pytest.CaptureFixture[str]


def hand(*money: Money, house: Money = 0) -> Result:
    """A hand's result that only carries its money (and the house's fee)."""
    best = max(money)
    winners = tuple(s for s, m in enumerate(money) if m == best)
    rank = tuple(1 if s in winners else 2 for s in range(len(money)))
    return Result(rank=rank, winners=winners, money=tuple(money), house=house)


SIX = [
    hand(300, -150, -50, -100),
    hand(-50, 450, -300, -100),
    hand(-100, -50, 300, -150),
    hand(590, -260, -110, -220),
    hand(0, 0, 0, 0),
    hand(-150, -50, -100, 300),
]


def test_six_hands_add_up() -> None:
    # Seat 0: 300 - 50 - 100 + 590 + 0 - 150 = 590; seat 1: -150 + 450 - 50 - 260 - 50 = -60;
    # seat 2: -50 - 300 + 300 - 110 - 100 = -260; seat 3: -100 - 100 - 150 - 220 + 300 = -270.
    result = run_session(SIX, players=4, hands=6, bankroll=None)
    assert result.money == (590, -60, -260, -270)
    assert sum(result.money) == 0
    assert result.hands_played == 6
    assert result.winners == (0,)
    assert result.broke == ()
    assert result.house == 0


def test_a_session_stops_after_its_hands() -> None:
    extra = [*SIX, hand(-1000, 1000, 0, 0), hand(-1000, 1000, 0, 0)]
    result = run_session(extra, players=4, hands=6, bankroll=None)
    assert result.hands_played == 6
    assert result.money == (590, -60, -260, -270)


def test_a_session_ends_once_winnings_or_losses_reach_the_target() -> None:
    # the poker7 app's ±1000 (WILD_RULES row 37). Running money after each of SIX's hands:
    # seat 0 300, 250, 150, 740; seat 1 -150, 300, 250, -10; seat 2 -50, -350, -50, -160;
    # seat 3 -100, -200, -350, -570. With a target of 700, seat 0's 740 after the fourth hand
    # ends it; of 300, seat 0's 300 after the first (exactly the target counts)
    result = run_session(SIX, players=4, hands=6, bankroll=None, target=700)
    assert (result.hands_played, result.reached) == (4, (0,))
    assert result.money == (740, -10, -160, -570)
    assert run_session(SIX, players=4, hands=6, bankroll=None, target=300).hands_played == 1
    # losses count too: seat 2's -350 after the second hand reaches 350 (seat 0 stands at 250)
    losing = run_session(SIX, players=4, hands=6, bankroll=None, target=350)
    assert (losing.hands_played, losing.reached, losing.winners) == (2, (2,), (1,))
    # counted from a bankroll of 1000: seat 0 at 1740 has won 740
    banked = run_session(SIX, players=4, hands=6, bankroll=1000, target=700)
    assert (banked.hands_played, banked.reached, banked.broke) == (4, (0,), ())
    # never reached: session.hands ends it, as without a target
    assert run_session(SIX, players=4, hands=6, bankroll=None, target=5000).reached == ()


def test_a_session_takes_its_hands_one_by_one() -> None:
    # Hands are played as the session asks for them: a player who cannot pay stops the
    # dealing, and no hand after the last one is needed.
    asked: list[int] = []

    def hands() -> Iterator[Result]:
        for i, result in enumerate(SIX):
            asked.append(i)
            yield result

    result = run_session(hands(), players=4, hands=6, bankroll=500)
    assert result.hands_played == 4
    assert asked == [0, 1, 2, 3]


def test_without_a_bankroll_negative_money_does_not_end_the_session() -> None:
    result = run_session([hand(-5000, 5000, 0, 0)] * 6, players=4, hands=6, bankroll=None)
    assert result.hands_played == 6
    assert result.money == (-30000, 30000, 0, 0)
    assert result.broke == ()


def test_a_player_below_zero_ends_the_session_after_that_hand() -> None:
    # Bankroll 500: seat 3 has 400, 300, 150, then -70 after the fourth hand.
    result = run_session(SIX, players=4, hands=6, bankroll=500)
    assert result.hands_played == 4
    assert result.broke == (3,)
    assert result.money == (1240, 490, 340, -70)
    assert result.winners == (0,)


def test_exactly_zero_can_still_pay() -> None:
    # Bankroll 100: seat 1 reaches 0 after hand 1 and plays on; -50 after hand 2 ends it.
    hands = [hand(100, -100, 0, 0), hand(-50, -50, 50, 50), hand(0, 0, 0, 0)]
    result = run_session(hands, players=4, hands=6, bankroll=100)
    assert result.hands_played == 2
    assert result.broke == (1,)
    assert result.money == (150, -50, 150, 150)
    assert result.winners == (0, 2, 3)  # tied for the most money: they share the win


def test_two_players_broke_in_the_same_hand() -> None:
    # Bankroll 150: seats 2 and 3 have 50 after hand 1 and -50 after hand 2.
    hands = [hand(150, 50, -100, -100)] * 3
    result = run_session(hands, players=4, hands=6, bankroll=150)
    assert result.hands_played == 2
    assert result.broke == (2, 3)
    assert result.money == (450, 250, -50, -50)
    assert result.winners == (0,)


def test_money_stays_exact_and_the_house_adds_up() -> None:
    # Two hands with a 15% fee: 382 1/2 + 67 1/2 collected by the house in hand 1, 45 in 2.
    hands = [
        hand(Fraction(765, 2), -300, -100, -50, house=Fraction(135, 2)),
        hand(-50, 405, -300, -100, house=45),
    ]
    result = run_session(hands, players=4, hands=6, bankroll=None)
    assert result.hands_played == 2
    assert result.money == (Fraction(665, 2), 105, -400, -150)
    assert result.house == Fraction(225, 2)
    assert sum(result.money) + result.house == 0
    whole = run_session([hand(Fraction(1, 2), Fraction(-1, 2), 0, 0)] * 2, 4, 6, None)
    assert whole.money == (1, -1, 0, 0)
    assert all(type(m) is int for m in whole.money)


def test_a_session_with_fewer_hands_than_asked() -> None:
    result = run_session(SIX[:3], players=4, hands=6, bankroll=None)
    assert result.hands_played == 3
    assert result.money == (150, 250, -50, -350)
    assert result.winners == (1,)


# -- paiqi simulate --sessions -------------------------------------------------------------


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def sessions_of(records: Sequence[dict[str, Any]], hands: int) -> list[list[Result]]:
    """Hand results of the records, cut into sessions of ``hands``."""
    results = [
        Result(
            rank=tuple(r["result"]["rank"]),
            winners=(),
            money=tuple(Fraction(str(m)) for m in r["result"]["money"]),
            house=Fraction(str(r["result"].get("house", 0))),
        )
        for r in records
    ]
    return [results[i : i + hands] for i in range(0, len(results), hands)]


@pytest.mark.parametrize("profile", ["platform", "platform-zhanlong"])
def test_simulate_sessions_adds_up_the_recorded_hands(
    profile: str, tmp_path: Path, capsys: Capsys
) -> None:
    path = tmp_path / "hands.jsonl"
    status, out, _ = run(
        capsys, "simulate", profile, "--sessions", "4", "--seed", "5", "--json", "-q",
        "--records", str(path),
    )  # fmt: skip
    assert status == 0
    (summary,) = json.loads(out)
    assert summary["profile"] == profile
    assert summary["sessions"] == 4
    assert summary["hands_per_session"] == 6
    assert summary["bankroll"] is None
    assert summary["mean_hands_played"] == 6
    assert summary["ended_early"] == 0
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 4 * 6
    # Hand h of session j is game j * 6 + h of the run seed, and every record replays.
    assert [r["seed"] for r in records] == [game_seed(5, i) for i in range(24)]
    assert all(replay(r) == [] for r in records)
    sessions = [run_session(s, 4, 6, None) for s in sessions_of(records, 6)]
    mean = [sum(Fraction(s.money[seat]) for s in sessions) / 4 for seat in range(4)]
    assert summary["mean_session_money"] == [round(float(m), 4) for m in mean]
    assert sum(mean) == 0
    wins = [Fraction(0)] * 4
    for s in sessions:
        for w in s.winners:
            wins[w] += Fraction(1, len(s.winners))
    assert summary["session_win_rate"] == [round(float(w) / 4, 4) for w in wins]


def simulated(
    tmp_path: Path, capsys: Capsys, *argv: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The JSON summary of ``paiqi simulate platform ARGV`` and the hands it recorded."""
    path = tmp_path / "hands.jsonl"
    status, out, _ = run(
        capsys, "simulate", "platform", *argv, "--json", "-q", "--records", str(path)
    )
    assert status == 0
    (summary,) = json.loads(out)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return summary, records


def test_simulate_sessions_with_a_bankroll_ends_sessions_early(
    tmp_path: Path, capsys: Capsys
) -> None:
    summary, records = simulated(
        tmp_path, capsys, "--sessions", "6", "--seed", "2", "--set", "session.bankroll=200"
    )
    assert summary["bankroll"] == 200
    # Only the hands actually played are dealt and recorded.
    assert summary["mean_hands_played"] == round(len(records) / 6, 3)
    # Rebuild the sessions from the records: each ends at 6 hands or after a hand that
    # leaves a player below zero.
    results = iter(sessions_of(records, 1))
    ended_early = 0
    for _ in range(6):
        session = run_session((next(results)[0] for _ in range(6)), 4, 6, 200)
        ended_early += bool(session.broke)
        if session.broke:
            assert min(session.money) < 0
            assert session.hands_played <= 6
    assert next(results, None) is None
    assert summary["ended_early"] == ended_early
    assert ended_early > 0  # 200 does not last six platform hands at 50/100/150 a head


def test_simulate_sessions_to_a_target_end_when_a_player_reaches_it(
    tmp_path: Path, capsys: Capsys
) -> None:
    # the poker7 app's session to ±1000, here ±300 so that platform sessions of up to 50
    # hands reach it; the sessions rebuilt from the recorded hands end where the run's did
    summary, records = simulated(
        tmp_path, capsys, "--sessions", "5", "--seed", "3",
        "--set", "session.target=300", "--set", "session.hands=50",
    )  # fmt: skip
    assert summary["target"] == 300
    results = iter(sessions_of(records, 1))
    reached = 0
    for _ in range(5):
        session = run_session((next(results)[0] for _ in range(50)), 4, 50, None, 300)
        reached += bool(session.reached)
        for s in session.reached:
            assert abs(session.money[s]) >= 300
        if not session.reached:
            assert session.hands_played == 50
    assert next(results, None) is None
    assert summary["reached"] == reached == 5  # 150 a 大頭 reaches 300 well within 50 hands


def test_simulate_sessions_text(capsys: Capsys) -> None:
    status, out, _ = run(capsys, "simulate", "platform", "--sessions", "2", "--seed", "0", "-q")
    assert status == 0
    assert "platform: 2 sessions of 6 hands, seed 0" in out
    assert "session win rate" in out


def test_simulate_zero_sessions_is_bad_input(capsys: Capsys) -> None:
    status, _, err = run(capsys, "simulate", "platform", "--sessions", "0")
    assert status == 2
    assert "--sessions" in err
