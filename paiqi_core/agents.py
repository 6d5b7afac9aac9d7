"""Agents choose an action from their own seat's observation, never from the full state."""

from __future__ import annotations

import random
from typing import Protocol

from paiqi_core.engine import Observation
from paiqi_core.playout import below


class Agent(Protocol):
    name: str

    def act(self, observation: Observation) -> int: ...


class RandomAgent:
    """Uniform over the legal actions (sorted ascending) of its observation."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, observation: Observation) -> int:
        legal = observation.legal
        return legal[below(self.rng, len(legal))]


AGENTS = {"random": RandomAgent}
