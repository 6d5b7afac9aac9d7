"""What a learned policy reads: for each legal action of a seat, a row of numbers.

``move_rows(game, observation, belief, places, terms)`` gives ``(actions, MOVE_FEATURES)``
float32 rows, described by ``MOVE_NAMES``:

- what the rule-based player makes of the action (``agents.HeuristicAgent.worth``): its
  worth, how far below the best action's it is, whether the player would choose it, and
  the worth split into its terms (own cards brought closer, suits opened, unseen cards
  released, covers' costs, cards stranded, the joker kept, and the rest), each read as the
  worth under that weight alone (``Terms``);
- its kind: a card laid, a cover (or a card handed on), a pass, a joker move;
- where the cards it lets the others lay at once are: how many unseen cards newly fit the
  table once it is made, and how many of them each of the next three seats holds and the
  others hold together, as expected under the seat's belief (``places``: each unseen card's
  chance of lying in each group of ``learn.features.read``);
- the hands: this seat's, the next seat's and the shortest other one (in thirteenths).

A policy model scores every row; a softmax over the legal actions is its guess which one a
strong player takes.
"""

from __future__ import annotations

import random

import numpy as np

from paiqi_core.actions import COVER, GIVE, JOKER, PASS, TRUMP, joker_parts, trump_parts
from paiqi_core.agents import HeuristicAgent
from paiqi_core.belief import STOCK, Belief
from paiqi_core.cards import JOKER as JOKER_CARD
from paiqi_core.cards import bits
from paiqi_core.core.plain import table_fits
from paiqi_core.engine import Game, Observation
from paiqi_core.learn.features import HAND, Reading
from paiqi_core.observation import home

# the weights whose terms are read apart (HeuristicAgent's keyword arguments)
WEIGHTS = ("run_weight", "open_weight", "block_weight", "cover_cost_weight", "strand_weight",
           "joker_keep")  # fmt: skip
NEXT = 3  # the seats after this one read one by one
MOVE_NAMES: tuple[str, ...] = (
    "worth",
    "below_best",
    "chosen",
    *(f"term_{w}" for w in WEIGHTS),
    "term_rest",
    "play",
    "cover",
    "pass",
    "joker",
    "released",
    *(f"released_to_seat+{k}" for k in range(1, NEXT + 1)),
    "released_to_others",
    "hand",
    "next_hand",
    "shortest_hand",
)
MOVE_FEATURES = len(MOVE_NAMES)


class Terms:
    """The rule-based player of a game, and its twins that each keep one weight alone
    (and one that keeps none): the worth of an action under each tells its terms apart."""

    def __init__(self, game: Game) -> None:
        rng = random.Random(0)  # (worth draws nothing: ties are not broken)
        self.player = HeuristicAgent(rng, game=game)
        zero = dict.fromkeys(WEIGHTS, 0.0)
        self.none = HeuristicAgent(rng, game=game, **zero)  # type: ignore[arg-type]
        self.alone = [
            HeuristicAgent(rng, game=game, **{**zero, w: 1.0})  # type: ignore[arg-type]
            for w in WEIGHTS
        ]

    def read(self, observation: Observation) -> tuple[np.ndarray, list[int]]:
        """``(actions, 3 + len(WEIGHTS) + 1)``: worth, below the best, chosen, each term,
        the rest; and the actions the rule-based player would choose."""
        worth = np.array(self.player.worth(observation))
        rest = np.array(self.none.worth(observation))
        terms = [np.array(p.worth(observation)) - rest for p in self.alone]
        chosen = self.player.choices(observation)
        picked = np.array([a in chosen for a in observation.legal], np.float64)
        return np.stack([worth, worth - worth.max(), picked, *terms, rest], 1), chosen


def _placed(observation: Observation, action: int) -> int:
    """The cards a move puts on the table (a mask; 0 for a pass, cover or card handed on)."""
    if action >= TRUMP:
        return 1 << trump_parts(action)[0]
    if action >= JOKER:
        at, card = joker_parts(action)
        return 1 << at | 1 << card
    if action < COVER:
        return 1 << home(observation, action)
    return 0


def _kind(action: int) -> tuple[float, float, float, float]:
    """(play, cover, pass, joker) of an action."""
    if action >= JOKER:
        return (1.0, 0.0, 0.0, 1.0)
    if action < COVER:
        return (1.0, 0.0, 0.0, 0.0)
    if action == PASS:
        return (0.0, 0.0, 1.0, 0.0)
    if COVER <= action < PASS or action >= GIVE:
        return (0.0, 1.0, 0.0, 0.0)
    return (0.0, 0.0, 0.0, 0.0)


def move_rows(
    game: Game, observation: Observation, belief: Belief, reading: Reading,
    places: np.ndarray, terms: Terms,
) -> np.ndarray:  # fmt: skip
    """The rows of every legal action of ``observation`` (see the module's docstring);
    ``places`` is ``(unseen cards, groups)`` as ``reading`` orders them."""
    n = game.players
    me = observation.seat
    legal = observation.legal
    heuristic, _ = terms.read(observation)
    # the chance that each card lies in each of the next seats' hands, and the others'
    by_card = np.zeros((JOKER_CARD, NEXT + 1))
    for g, (seat, kind) in enumerate(reading.groups):
        if seat == STOCK or kind != HAND:
            continue
        k = (seat - me) % n
        for i, card in enumerate(belief.hidden):
            if card < JOKER_CARD:
                if k <= NEXT:
                    by_card[card, k - 1] += places[i, g]
                by_card[card, NEXT] += places[i, g]
    unseen = 0
    for card in belief.hidden:
        if card < JOKER_CARD:
            unseen |= 1 << card
    rules = game.rules
    table = observation.table_mask
    now = table_fits(rules, (table,))
    hands = observation.hand_counts
    others = [hands[s] for s in range(n) if s != me and hands[s]]
    context = (hands[me] / 13, hands[(me + 1) % n] / 13, (min(others) if others else 0) / 13)
    out = np.zeros((len(legal), MOVE_FEATURES), np.float32)
    width = heuristic.shape[1]
    out[:, :width] = heuristic
    for j, action in enumerate(legal):
        out[j, width : width + 4] = _kind(action)
        placed = _placed(observation, action)
        released = np.zeros(NEXT + 1)
        count = 0
        if placed:
            new = table_fits(rules, (table | placed,)) & ~now & ~placed & unseen
            for card in bits(new):
                count += 1
                released += by_card[card]
        out[j, width + 4] = count
        out[j, width + 5 : width + 6 + NEXT] = released
        out[j, width + 6 + NEXT :] = context
    return out
