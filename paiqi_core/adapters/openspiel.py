"""Every paiqi profile as an OpenSpiel game (extra ``[openspiel]``).

Importing this module registers the games with ``pyspiel``:

- ``paiqi``, with parameters ``profile`` (a built-in id or a profile file; default
  ``doujue``) and ``options`` (overrides, ``"scoring.stake:2;players:3"``);
- one game per built-in profile, ``paiqi_<id>`` (dashes become underscores:
  ``paiqi_doujue_passes``), with the parameter ``options``.

``pyspiel.load_game("paiqi", {"profile": "doujue", "options": "scoring.stake:2"})``. Options
are ``KEY:VALUE`` pairs separated by ``;`` (``KEY=VALUE`` is accepted too, and written with
``:`` in the game's string, whose syntax reserves ``=`` and ``,``): a value cannot hold a
comma, so a list-valued rule is changed in a profile file instead.

The game is sequential, with imperfect information and explicit chance. The deal is a
sequence of chance nodes, one per card: each draws a card uniformly from those not yet
dealt (the outcome is the card's number, 0..52; the jokers are alike: 52 is any of them,
as likely as the jokers left), and the ``i``-th card drawn goes to seat
``i mod n``, the way paiqi deals a shuffled deck; profiles that cut a door card (門牌) draw
it last, uniformly among the 52 suited cards. ``chance_outcomes_of_seed(game, seed)`` gives
the draws of paiqi's deal ``seed``, so OpenSpiel and paiqi can play the same deals. Cards are
dealt face down and picked up once the deal is complete: no seat observes anything before.
The cards dealt to no seat are the deal's last: face up, or the stock.

A draw from the stock (``turn.draw``) is the player's action ``draw`` (index 211), then a
chance node: its outcomes are the cards in the stock, each equally likely (the outcome is
the card's number), and the card drawn goes to the player, as paiqi's ``DRAW_CARD + card``.

Player actions are the 212 shared actions of ``paiqi_core.adapters.encoding`` (plays,
covers, the pass, joker moves, cards handed on, the draw), and so are the observation
tensor and the information-state tensor (the observation, the hand as dealt and every move
and event, with a seat's own covers and draws shown to it). Strings say the same in words.
Utilities are the profile's objective (money, rank points or a share of the win) at the end
of the game, between the bounds of ``paiqi_core.adapters.bounds``; the game length is
bounded there too (profiles whose games may never end are refused).

Once dealt, a state's moves are played in paiqi's compiled kernel where it can play the
profile (numba installed, and the engine in use, ``paiqi_core.fast.use``, not ``python``),
in the Python engine otherwise, with the same games. ``state.paiqi_state`` is the game as a
paiqi ``State`` (rebuilt from the kernel's game when asked for); strings, information-state
tensors, beliefs and pickles are made from it.

``resample_from_infostate`` draws a state that agrees with everything a seat has seen, from
paiqi's belief sampler (``paiqi_core.belief``), so OpenSpiel's IS-MCTS bot
(``open_spiel.python.algorithms.ismcts``) plays paiqi games.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

from paiqi_core.actions import DRAW_CARD, EVENT, GIVE, JOKER, action_text
from paiqi_core.adapters.bounds import limits, stock_cards, utility_bounds, utility_sum
from paiqi_core.adapters.encoding import (
    DRAW_ACTION,
    NUM_ACTIONS,
    Layout,
    engine_action,
    index_text,
    information_state_text,
    observation_text,
    public_only,
    state_text,
    to_dense,
)
from paiqi_core.adapters.steps import Stepper, Steps
from paiqi_core.belief import Belief
from paiqi_core.cards import alike_card, bits, card_text
from paiqi_core.core import layout as L
from paiqi_core.engine import Game, State
from paiqi_core.games import game_for
from paiqi_core.resources import builtin_profiles
from paiqi_core.search.objective import utilities

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


# -- options -----------------------------------------------------------------------------------
def parse_options(text: str) -> list[str]:
    """``"scoring.stake:2;players:3"`` as paiqi overrides ``["scoring.stake=2", "players=3"]``."""
    out = []
    for item in text.split(";"):
        item = item.strip()
        if not item:
            continue
        colon, equals = item.find(":"), item.find("=")
        cut = min(i for i in (colon, equals) if i >= 0) if max(colon, equals) >= 0 else -1
        if cut <= 0:
            raise ValueError(f"option '{item}' is not KEY:VALUE (e.g. scoring.stake:2)")
        out.append(f"{item[:cut].strip()}={item[cut + 1 :].strip()}")
    return out


def options_text(options: Any) -> str:
    """Overrides (a mapping, a list of ``KEY=VALUE`` or a string) as the ``options``
    parameter, ``KEY:VALUE`` pairs joined by ``;``."""
    if isinstance(options, str):
        pairs = [o.split("=", 1) for o in parse_options(options)]
    elif hasattr(options, "items"):
        pairs = [[str(k), _value_text(v)] for k, v in options.items()]
    else:
        pairs = [o.split("=", 1) for o in options]
    text = ";".join(f"{k}:{v}" for k, v in pairs)
    if "," in text or "=" in text:
        raise ValueError(
            f"options '{text}': a value cannot hold ',' or '=' in an OpenSpiel game string "
            "(change list-valued rules in a profile file)"
        )
    return text


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


# -- game types --------------------------------------------------------------------------------
def utility_kind(total: float | None) -> Any:
    """OpenSpiel's utility type of games whose utilities add up to ``total`` in every game
    (None: not always the same)."""
    Utility = pyspiel.GameType.Utility
    if total is None:
        return Utility.GENERAL_SUM
    return Utility.ZERO_SUM if total == 0 else Utility.CONSTANT_SUM


def _game_type(
    short_name: str, long_name: str, parameters: dict[str, Any], total: float | None = None
) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility_kind(total),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=L.MAX_SEATS,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=parameters,
    )


def short_name(profile_id: str) -> str:
    """The OpenSpiel name of a built-in profile's game: ``paiqi_doujue_passes``."""
    return "paiqi_" + profile_id.replace("-", "_")


class PaiqiGame(pyspiel.Game):
    """A paiqi profile (with options) as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None, *, profile: str | None = None):
        params = dict(params or {})
        ref = profile or str(params.get("profile", "doujue"))
        options = str(params.get("options", ""))
        self.paiqi: Game = game_for(ref, parse_options(options))
        rules = self.paiqi.rules
        lim = limits(rules)
        if lim.turns is None or lim.log is None:
            raise ValueError(
                f"a game of {rules.id} with these options may never end (passes without a "
                "limit by choice, or rows cut while stuck players only pass): OpenSpiel "
                "needs a bounded game; set turn.pass_limit"
            )
        low, high = utility_bounds(rules)
        total = utility_sum(rules)
        self.players = rules.players
        self.cards = len(rules.deck)
        self.door = rules.opening.uses_door_card
        self.draws = stock_cards(rules) if rules.draw != "none" else 0  # at most one a card
        self.objective = rules.facts.objective
        self.limits = lim
        self.stepper = stepper_of(self.paiqi)  # the compiled kernel where it can play
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=53 if rules.jokers else 52,
            num_players=rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=lim.turns,
        )
        if profile is None:
            game_type, given = _PAIQI, {"profile": ref, "options": options_text(options)}
        else:
            game_type, given = _TYPES[short_name(profile)], {"options": options_text(options)}
        if game_type.utility != utility_kind(total):  # the sum of these rules' utilities
            game_type = _game_type(
                game_type.short_name, game_type.long_name, game_type.parameter_specification,
                total,
            )  # fmt: skip
        super().__init__(game_type, info, given)

    def max_chance_nodes_in_history(self) -> int:
        """One chance node per card dealt, one for the door card, and one per card drawn
        from the stock."""
        return self.cards + int(self.door) + self.draws

    def new_initial_state(self) -> PaiqiState:
        """The state before the deal."""
        return PaiqiState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PaiqiObserver:
        """An observer of one seat: the observation (default), or with perfect recall the
        information state; ``private_info`` NONE leaves out the seat's own cards."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is None:
            return PaiqiObserver(self, perfect_recall=False, private=True)
        if not iig_obs_type.public_info:
            raise ValueError("paiqi observers always include public information")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("paiqi observers show one seat's private cards, not all seats'")
        return PaiqiObserver(
            self,
            perfect_recall=bool(iig_obs_type.perfect_recall),
            private=private == pyspiel.PrivateInfoType.SINGLE_PLAYER,
        )


def _named_game(profile_id: str) -> type[PaiqiGame]:
    """The game class of one built-in profile (a class, not a closure: pyspiel keeps its
    creators until after the interpreter has shut down, when a closure could no longer be
    freed safely)."""

    def __init__(self: PaiqiGame, params: dict[str, Any] | None = None) -> None:
        PaiqiGame.__init__(self, params, profile=profile_id)

    name = "PaiqiGame_" + profile_id.replace("-", "_")
    return type(name, (PaiqiGame,), {"__init__": __init__, "__doc__": f"paiqi {profile_id}"})


# -- states ------------------------------------------------------------------------------------
class Play:
    """The Python side of an OpenSpiel state: the cards drawn so far, the door card, and,
    once dealt, the game's ``Steps`` (``paiqi_core.adapters.steps``: the compiled kernel
    where it can play the rules), and whether the seat to move has chosen to draw from the
    stock (a chance node picks the card). Copies share the compiled game and copy the
    steps."""

    __slots__ = (
        "_beliefs", "cards", "door", "drawing", "drawn", "forward", "game", "stepper", "steps",
    )  # fmt: skip

    def __init__(self, game: Game, stepper: Stepper | None = None) -> None:
        self.game = game
        self.stepper = stepper or stepper_of(game)
        self.cards = len(game.deck)  # chance nodes before the door card
        self.drawn: list[int] = []
        self.door: int | None = None
        self.steps: Steps | None = None
        self.drawing = False  # the seat to move draws: the card is chance's, next
        self.forward = False  # replaying a known history: record draws and moves only
        self._beliefs: dict[tuple[int, int], Belief] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Play:
        other = Play(self.game, self.stepper)
        other.drawn = list(self.drawn)
        other.door = self.door
        other.drawing = self.drawing
        other.steps = None if self.steps is None else self.steps.clone()
        return other

    def __getstate__(self) -> dict[str, Any]:
        return {
            "game": self.game, "drawn": self.drawn, "door": self.door, "state": self.state,
            "drawing": self.drawing,
        }  # fmt: skip

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(data["game"])  # type: ignore[misc]
        self.drawn, self.door = data["drawn"], data["door"]
        self.drawing = bool(data.get("drawing", False))
        state = data["state"]
        self.steps = None if state is None else self.stepper.from_state(state)

    @property
    def state(self) -> State | None:
        """The paiqi ``State`` once the deal is complete (None before)."""
        return None if self.steps is None else self.steps.state

    def legal(self) -> list[int]:
        """The legal actions of the seat to move, in paiqi's numbering."""
        state = self.state
        assert state is not None
        return state.legal_actions()

    def belief(self, seat: int) -> Belief:
        """What ``seat`` can know of the hidden cards now (kept while the state stands)."""
        state = self.state
        assert state is not None
        key = (seat, len(state.log))
        belief = self._beliefs.get(key)
        if belief is None:
            belief = self._beliefs[key] = Belief(self.game, state.observation(seat))
        return belief


_STEPPERS: dict[tuple[int, str], tuple[Game, Stepper]] = {}


def stepper_of(game: Game) -> Stepper:
    """The ``Stepper`` of ``game``'s states under the engine in use (one per process)."""
    from paiqi_core.fast import engine_in_use

    key = (id(game), engine_in_use())
    entry = _STEPPERS.get(key)
    if entry is None or entry[0] is not game:
        room = limits(game.rules).log
        entry = _STEPPERS[key] = (game, Stepper(game, None, room or 0))
    return entry[1]


class PaiqiState(pyspiel.State):
    """A paiqi game in OpenSpiel: the deal's chance nodes, then the seats' moves."""

    def __init__(self, game: PaiqiGame) -> None:
        super().__init__(game)
        self._play = Play(game.paiqi, game.stepper)

    @property
    def paiqi_state(self) -> State | None:
        """The paiqi state once the deal is complete (None before). Read it, clone it, but
        do not move it: the game moves with ``apply_action``."""
        return self._play.state

    def _spiel_game(self) -> PaiqiGame:
        game: PaiqiGame = self.get_game()
        return game

    def current_player(self) -> int:
        """The seat to move, CHANCE during the deal and for a card drawn from the stock,
        TERMINAL at the end."""
        steps = self._play.steps
        if steps is None or self._play.drawing:
            return CHANCE
        return TERMINAL if steps.over else steps.turn

    def _legal_actions(self, player: int) -> list[int]:
        """The legal actions of the seat to move (indices of the shared action space)."""
        steps = self._play.steps
        assert steps is not None
        return steps.legal_indices()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions, as OpenSpiel's ``State.legal_actions`` answers (nothing at the
        end, the chance outcomes at a chance node, nothing for a seat not to move), without
        the round trip through C++ (which costs several times the answer's work). C++
        callers get the same answer from ``_legal_actions``."""
        steps = self._play.steps
        if steps is None or self._play.drawing:
            return [card for card, _ in self.chance_outcomes()]
        if steps.over:
            return []
        if player is None or player == steps.turn:
            return steps.legal_indices()
        if player < 0:
            raise ValueError(f"no legal actions for the pseudo-player {player}")
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet dealt, each equally likely (the alike jokers as one outcome,
        as likely as how many are left); then the door card, if cut; in play, the card drawn
        from the stock: any it holds, each equally likely."""
        play = self._play
        if play.drawing:
            assert play.steps is not None
            stock = list(bits(play.steps.stock()))
            return [(c, 1.0 / len(stock)) for c in stock]
        deck = play.game.deck
        if len(play.drawn) < len(deck):
            left = Counter(map(alike_card, deck))
            left.subtract(play.drawn)
            total = len(deck) - len(play.drawn)
            return [(c, k / total) for c, k in sorted(left.items()) if k]
        suited = sorted({c for c in deck if c < 52})  # a cut joker is cut again
        return [(c, 1.0 / len(suited)) for c in suited]

    def _apply_action(self, action: int) -> None:
        """A seat's move, or a card of the deal (the game starts once all are dealt)."""
        play = self._play
        steps = play.steps
        if steps is not None:
            if play.drawing:  # the card drawn from the stock
                if not play.forward:
                    steps.draw(action)
                play.drawing = False
            elif action == DRAW_ACTION:  # the seat draws: chance picks the card next
                if not play.forward and action not in steps.legal_indices():
                    steps.step(action)  # (not legal: the error)
                play.drawing = True
            elif not play.forward:
                steps.step(action)
            return
        drawn = play.drawn
        if len(drawn) < play.cards:
            drawn.append(action)
            if len(drawn) < play.cards:  # most of the deal: a card drawn, nothing else
                return
        else:
            play.door = action
        if play.forward:
            return
        game = play.game
        if play.door is not None or not _door(game):
            n, dealt = game.players, game.dealt  # (the cards after ``dealt`` lie face up)
            hands = [drawn[s:dealt:n] for s in range(n)]
            door = play.door
            if game.trumps:  # the last card dealt names trumps
                door = drawn[dealt - 1]
            play.steps = play.stepper.from_hands(hands, door)

    def _action_to_string(self, player: int, action: int) -> str:
        play = self._play
        if player == CHANCE:
            if play.steps is not None:
                return f"draw {card_text(action)}"
            if len(play.drawn) == len(play.game.deck):
                return f"door card {card_text(action)}"
            return f"deal {card_text(action)}"
        steps = play.steps
        if steps is not None and not steps.over and steps.turn == player:
            try:
                return action_text(engine_action(play.legal(), action))
            except ValueError:
                pass
        return index_text(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        steps = self._play.steps
        return steps is not None and steps.over

    def returns(self) -> list[float]:
        """The profile's objective for every seat at the end; zeros before."""
        steps = self._play.steps
        if steps is None or not steps.over:
            return [0.0] * self._play.game.players
        return utilities(steps.result(), self._play.game.rules.facts.objective)

    def __str__(self) -> str:
        play = self._play
        if play.steps is None:
            dealt = " ".join(card_text(c) for c in play.drawn)
            return f"dealing {len(play.drawn)}/{len(play.game.deck)}: {dealt}"
        text = state_text(play.steps.state)
        if play.drawing:
            text += f"\nseat {play.steps.turn} draws from the stock"
        return text

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PaiqiState:
        """A state that agrees with everything seat ``player_id`` has seen, drawn by paiqi's
        belief sampler (uniform over the deals that agree with it, closely)."""
        play = self._play
        game = self._spiel_game()
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        new = game.new_initial_state()
        if play.steps is None:  # nobody has seen a card yet: any cards, as many as drawn
            for card in rng.sample(list(play.game.deck), len(play.drawn)):
                new.apply_action(alike_card(card))  # the jokers are one outcome
            return new
        world = play.belief(player_id).sample(rng)
        n = play.game.players
        hands = [world.dealt_cards(s) for s in range(n)]  # (with several decks, copies too)
        order = [alike_card(hands[i % n][i // n]) for i in range(play.game.dealt)]
        # the cards dealt to no seat (face up, or the stock as dealt) come last
        rest = Counter(c for c in play.game.deck if c < 52)
        rest.subtract(c for hand in hands for c in hand)
        order += sorted(rest.elements())
        new._play.forward = True
        for card in order:
            new.apply_action(card)
        if play.door is not None:
            new.apply_action(play.door)
        for _, action in world.log:
            if EVENT <= action < JOKER:
                continue
            new.apply_action(to_dense(action))
            if DRAW_CARD <= action < GIVE:  # the draw, then chance's card
                new.apply_action(action - DRAW_CARD)
        if play.drawing:  # the seat has chosen to draw: the card is still to come
            new.apply_action(DRAW_ACTION)
        new._play.forward = False
        new._play.drawn, new._play.door = order, play.door
        new._play.steps = new._play.stepper.from_state(world)
        new._play.drawing = play.drawing
        return new


def _door(game: Game) -> bool:
    return bool(game.rules.opening.uses_door_card)


# -- observers -----------------------------------------------------------------------------------
class PaiqiObserver:
    """One seat's observation or information state, as a tensor (named pieces) and text."""

    def __init__(self, game: PaiqiGame, *, perfect_recall: bool, private: bool) -> None:
        rows = game.limits.log if perfect_recall else 0
        self.layout = Layout(game.players, history=rows or 0, decks=game.paiqi.rules.decks)
        self.perfect_recall = perfect_recall
        self.private = private
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = self.layout.views(self.tensor)

    def set_from(self, state: PaiqiState, player: int) -> None:
        """Write seat ``player``'s view of ``state`` into ``tensor``."""
        steps = state._play.steps
        if steps is None:  # the deal: nothing seen yet but one's own seat
            self.tensor.fill(0)
            self.dict["seat"][player] = 1
        elif self.perfect_recall:
            self.layout.write_information_state(self.tensor, steps.state, player, self.private)
        else:
            steps.write_observation(self.tensor, player, self.private)

    def string_from(self, state: PaiqiState, player: int) -> str:
        """Seat ``player``'s view of ``state`` in words."""
        game_state = state._play.state
        if game_state is None:
            return f"seat {player}; cards dealt: {len(state._play.drawn)}"
        obs = game_state.observation(player)
        dealt = game_state.dealt_cards(player)  # (with several decks, copies too)
        if not self.private:
            obs, dealt = public_only(obs), []
        if self.perfect_recall:
            return information_state_text(obs, dealt)
        return observation_text(obs)


# -- paiqi deals ---------------------------------------------------------------------------------
def chance_outcomes_of_seed(game: Game, seed: int) -> list[int]:
    """The chance outcomes that deal paiqi's deal ``seed`` (``Game.new_state(seed)``): the
    shuffled deck card by card, then the door card if the profile cuts one (shuffled in the
    kernel where it plays the game, as its deals are, else in Python)."""
    from paiqi_core.seeds import shuffled
    from paiqi_core.streams import stream

    cards = stepper_of(game).deal_of_seed(seed)
    if cards is not None:
        return cards
    rng = stream(seed)
    deck = shuffled(game.deck, rng)
    door = game._cut_door(deck, rng)  # the same stream goes on to cut it, as in new_state
    return [*map(alike_card, deck)] + ([] if door is None else [door])


def paiqi_game(profile: str = "doujue", overrides: Any = ()) -> PaiqiGame:
    """The OpenSpiel game of ``profile`` (an id or a file) with ``overrides`` (a mapping,
    ``KEY=VALUE`` texts or an options string), as ``pyspiel.load_game`` makes it."""
    game: PaiqiGame = pyspiel.load_game(
        "paiqi", {"profile": profile, "options": options_text(overrides or "")}
    )
    return game


# -- registration ----------------------------------------------------------------------------------
# registered as general-sum: options can change the sum (a house fee, another ending), and
# working it out for every profile here would compile them all at import; each game loaded
# carries the utility type of its own rules (``PaiqiGame.__init__``)
_PAIQI = _game_type(
    "paiqi", "paiqi (排七 / Sevens / Fan Tan)", {"profile": "doujue", "options": ""}
)
_TYPES = {
    short_name(pid): _game_type(short_name(pid), f"paiqi {pid}", {"options": ""})
    for pid in builtin_profiles()
}


def register() -> None:
    """Register ``paiqi`` and ``paiqi_<id>`` with pyspiel (done once, on import)."""
    known = set(pyspiel.registered_names())
    if _PAIQI.short_name not in known:
        pyspiel.register_game(_PAIQI, PaiqiGame)
    for pid in builtin_profiles():
        game_type = _TYPES[short_name(pid)]
        if game_type.short_name not in known:
            pyspiel.register_game(game_type, _named_game(pid))


register()
