"""Positions to learn from: games played by named players, read at some of their decisions.

``positions(game, players, seeds, share)`` plays one game per seed, with ``players`` (agent
names, one per seat, or one for every seat) deciding, and at a ``share`` of the decisions
reads the observation of the seat to move as a learned belief does
(``paiqi_core.learn.features``), with the group each unseen card really is in. The rows of
every card of every position read are returned together (``Rows``), padded to the most
groups a table of that size can have, so that they stack.

``positions_and_choices(..., chooser)`` reads, in the same games, every decision with a choice
of the seats that ``chooser`` plays, with the action it took (``learn.policy.choice_rows``):
what a policy learns to imitate.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from paiqi_core.agents import Agent, make_agent
from paiqi_core.belief import Belief, InconsistentObservation
from paiqi_core.engine import Game, State
from paiqi_core.learn.features import FEATURES, read, truth
from paiqi_core.learn.model import NEVER, BeliefModel
from paiqi_core.learn.move_features import MOVE_FEATURES, Terms
from paiqi_core.learn.policy import MAX_ACTIONS, choice_rows


def max_groups(players: int) -> int:
    """The most groups a seat of a table of ``players`` may see: each other seat's hand and
    covers, and the stock."""
    return 2 * (players - 1) + 1


@dataclass
class Rows:
    """The rows of many cards: ``x`` ``(rows, groups, FEATURES)``, ``offset`` ``(rows,
    groups)``, the true group ``label`` and the ``game`` each row was read in (to hold out
    whole games)."""

    x: np.ndarray
    offset: np.ndarray
    label: np.ndarray
    game: np.ndarray

    @staticmethod
    def join(parts: Sequence[Rows]) -> Rows:
        """Many parts as one."""
        return Rows(
            np.concatenate([p.x for p in parts]),
            np.concatenate([p.offset for p in parts]),
            np.concatenate([p.label for p in parts]),
            np.concatenate([p.game for p in parts]),
        )

    def __len__(self) -> int:
        return len(self.label)

    def save(self, path: Path) -> None:
        """Write the rows to ``path`` (``.npz``)."""
        np.savez(path, x=self.x, offset=self.offset, label=self.label, game=self.game)

    @staticmethod
    def load(path: Path) -> Rows:
        """The rows ``save`` wrote to ``path``."""
        with np.load(path) as data:
            return Rows(data["x"], data["offset"], data["label"], data["game"])

    def take(self, mask: np.ndarray) -> Rows:
        """The rows where ``mask`` holds."""
        return Rows(self.x[mask], self.offset[mask], self.label[mask], self.game[mask])


def truths(state: State) -> tuple[list[int], list[int]]:
    """Every seat's hand and covered cards, as masks (what the labels are read from)."""
    views = [state.observation(s) for s in range(state.game.players)]
    return [v.hand_mask for v in views], [v.covered_mask for v in views]


def read_position(state: State, seat: int) -> Rows | None:
    """The rows of ``seat``'s unseen cards in ``state`` (game index 0), or None where the
    seat sees no card it cannot place (or its history cannot be read)."""
    game = state.game
    try:
        belief = Belief(game, state.observation(seat), moments=True)
    except InconsistentObservation:
        return None
    if not belief.hidden or len({p.seat for p in belief.places}) < 2:
        return None
    reading = read(belief)
    hands, covered = truths(state)
    label = truth(reading, belief, hands, covered)
    width = max_groups(game.players)
    k, g = reading.offset.shape
    x = np.zeros((k, width, FEATURES), np.float32)
    x[:, :g] = reading.x
    offset = np.full((k, width), NEVER, np.float32)
    offset[:, :g] = np.where(np.isfinite(reading.offset), reading.offset, NEVER)
    return Rows(x, offset, label, np.zeros(k, np.int64))


def _players(game: Game, players: Sequence[str], rng: random.Random) -> list[Agent]:
    """One agent a seat: the named players in turn round the table."""
    return [make_agent(players[seat % len(players)], rng, game) for seat in range(game.players)]


def positions(game: Game, players: Sequence[str], seeds: Sequence[int], share: float) -> Rows:
    """The rows read in the games of ``seeds`` (see the module's docstring); the seats take
    turns at each named player from one game to the next."""
    return positions_and_choices(game, players, seeds, share)[0]


def positions_and_choices(
    game: Game, players: Sequence[str], seeds: Sequence[int], share: float,
    chooser: str | None = None, belief_model: BeliefModel | None = None,
) -> tuple[Rows, Rows]:  # fmt: skip
    """The rows of ``positions``, and the decisions of the seats ``chooser`` plays (the
    unseen cards placed by ``belief_model``), each with the action taken (see the
    module)."""
    parts: list[Rows] = []
    chosen: list[tuple[np.ndarray, np.ndarray, int, int]] = []
    terms = Terms(game) if chooser is not None else None
    for seed in seeds:
        rng = random.Random(seed)
        agents = _players(game, players, rng)
        names = [players[seat % len(players)] for seat in range(game.players)]
        turn = seed % game.players
        agents = agents[turn:] + agents[:turn]
        names = names[turn:] + names[:turn]
        state = game.new_state(seed=seed)
        while not state.over:
            seat = state.turn
            if rng.random() < share:
                rows = read_position(state, seat)
                if rows is not None:
                    rows.game[:] = seed
                    parts.append(rows)
            observation = state.observation(seat)
            action = agents[seat].act(observation)
            if terms is not None and names[seat] == chooser:
                row = choice_rows(game, observation, action, terms, belief_model)
                if row is not None:
                    chosen.append((*row, seed))
            state.apply_unchecked(action)
    width = max_groups(game.players)
    cards = Rows.join(parts) if parts else _empty(width, FEATURES)
    if not chosen:
        return cards, _empty(MAX_ACTIONS, MOVE_FEATURES)
    choices = Rows(
        np.stack([c[0] for c in chosen]),
        np.stack([c[1] for c in chosen]),
        np.array([c[2] for c in chosen], np.int64),
        np.array([c[3] for c in chosen], np.int64),
    )
    return cards, choices


def _empty(width: int, features: int) -> Rows:
    return Rows(
        np.zeros((0, width, features), np.float32),
        np.zeros((0, width), np.float32),
        np.zeros(0, np.int64),
        np.zeros(0, np.int64),
    )
