"""How the adapters play a game: in paiqi's compiled kernel wherever it can play the rules,
in the Python engine otherwise, with the same games, legal actions and observations.

``Stepper(game, engine, room)`` is made once per environment or OpenSpiel game. It chooses
the kernel (``paiqi_core.fast``: numba installed, the rules' hooks all compiled, and the
engine in use not ``python``) or the Python engine, and starts games: from paiqi's deal of
a seed, from given hands, or from a ``State``. A game is a ``Steps``:

- ``turn``, ``over``: the seat to move and whether the game is over (plain attributes);
- ``step(index)``: the seat to move takes action ``index`` of the shared action space
  (``encoding``); ``IllegalAction`` (nothing changed) when it is not legal now. The draw
  (``turn.draw``) takes its card from the game's random stream: the deal's stream
  (``State.rng``) where the game was dealt from a seed or started from a state that has one,
  else the stream in the state vector;
- ``draw(card)``: the seat to move draws ``card`` from the stock, a card chance chose
  outside the game (OpenSpiel's chance node); ``stock()``: the cards in the stock;
- ``legal_indices()``, ``mask()``: the legal actions of the seat to move, as indices and as
  the ``int8`` mask over the 212 actions;
- ``observation(seat)``, ``write_observation(out, seat)``: the observation tensor;
- ``view(seat, moving)``: new arrays of a seat's observation and mask, and
  ``step_view(index)``: a step, then the view of the seat to move next (one compiled call);
- ``hidden()``, ``copies()``, ``global_state()``: every seat's hand and covered cards (and,
  with several decks, the cards each holds twice and three times), and the whole table as
  one array (PettingZoo's ``state()``; laid out in ``encoding``);
- ``result()``: the scored game, once it is over;
- ``state``: the game as a Python ``State``, for everything else (text, beliefs, records,
  information states).

In the kernel (``KernelSteps``) a step is one compiled call that applies the action and
works out the next legal actions; observations are written from the kernel's state. Its
``state`` is rebuilt when asked for: the game's start, then the actions played since, each
applied once (it is kept and brought up to date at the next request). It is the engine's
own ``State`` of the same game: read it, clone it, but do not move it (the game goes on in
the kernel). The Python engine (``EngineSteps``) steps its ``State`` itself, as before.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import numpy as np

from paiqi_core.actions import DRAW, DRAW_CARD, GIVE
from paiqi_core.adapters.encoding import (
    CARD_SLOTS,
    NUM_ACTIONS,
    Layout,
    dense_legal,
    engine_action,
    index_text,
    legal_mask,
    unpack,
    unpack_copies,
)
from paiqi_core.cards import alike_card, card_text, hand_masks, planes
from paiqi_core.engine import IllegalAction, State
from paiqi_core.engine.game import last_dealt
from paiqi_core.streams import Stream, WordStream, below, key_of, signed

if TYPE_CHECKING:
    from paiqi_core.engine import Game
    from paiqi_core.outcome import Result

EVENTS = (256, 1024)  # automatic events are logged with actions in this range
_empty = np.empty  # the new arrays of every step, made with names looked up once
_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)


def undrawable(card: int) -> IllegalAction:
    """The error of a card that cannot be drawn now (``Steps.draw``)."""
    what = card_text(card) if 0 <= card < 52 else repr(card)
    return IllegalAction(f"draw {what} is not legal now (no draw to make, or not in the stock)")


def illegal(index: int) -> IllegalAction:
    """The error of an index that is not a legal action now (as ``engine_action`` says)."""
    if not 0 <= index < NUM_ACTIONS:
        return IllegalAction(f"{index} is not an action (the actions are 0..{NUM_ACTIONS - 1})")
    return IllegalAction(f"{index_text(index)} (action {index}) is not legal now")


class Steps:
    """One game, stepped an action at a time (see the module's docstring)."""

    game: Game
    layout: Layout
    fast: bool
    turn: int
    over: bool

    @property
    def state(self) -> State:
        """The game as a Python ``State`` (read it; do not move it)."""
        raise NotImplementedError

    def step(self, index: int) -> None:
        """The seat to move takes action ``index``; ``IllegalAction`` when it is not legal."""
        raise NotImplementedError

    def draw(self, card: int) -> None:
        """The seat to move draws ``card`` from the stock (chance chose it); ``IllegalAction``
        (nothing changed) unless the draw is legal now and the stock holds ``card``."""
        raise NotImplementedError

    def stock(self) -> int:
        """The cards in the stock, a card mask."""
        raise NotImplementedError

    def legal_indices(self) -> list[int]:
        """The legal actions of the seat to move, ascending indices (empty once over)."""
        raise NotImplementedError

    def mask(self) -> np.ndarray:
        """A new ``int8`` mask over the 212 actions: 1 for each legal action."""
        raise NotImplementedError

    def observation(self, seat: int, private: bool = True) -> np.ndarray:
        """A new observation tensor of ``seat`` (its own cards left out unless ``private``)."""
        raise NotImplementedError

    def write_observation(self, out: np.ndarray, seat: int, private: bool = True) -> None:
        """Write the observation of ``seat`` into the first entries of ``out``."""
        raise NotImplementedError

    def view(self, seat: int, moving: bool) -> tuple[np.ndarray, np.ndarray]:
        """New arrays of what an environment gives ``seat``: its observation and the mask
        of the legal actions (zeros unless ``moving``)."""
        raise NotImplementedError

    def step_view(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """``step(index)``, then ``view`` of the seat to move next (its mask zeros once
        the game is over): for a learner that looks after every step."""
        raise NotImplementedError

    def hidden(self) -> tuple[list[int], list[int]]:
        """Every seat's hand and its covered cards, as card masks by seat (each card once:
        ``copies`` has the copies beyond the first)."""
        raise NotImplementedError

    def copies(self) -> tuple[list[int], list[int]]:
        """With several decks, the cards each seat holds at least twice and three times, as
        card masks by seat (zeros with one deck)."""
        raise NotImplementedError

    def global_state(self) -> np.ndarray:
        """A new array of the whole table (``encoding`` lays it out): what seat 0 sees without
        its own cards, then every seat's hand (copies counted) and covered cards."""
        layout = self.layout
        n = layout.players
        out = np.empty(layout.state_size, np.float32)
        self.write_observation(out, 0, False)
        hands, covered = self.hidden()
        at = layout.observation_size
        twice, thrice = self.copies()
        out[at : at + n * CARD_SLOTS] = unpack_copies(hands, twice, thrice).ravel()
        out[at + n * CARD_SLOTS :] = unpack(covered).ravel()
        return out

    def result(self) -> Result:
        """The scored game (it must be over)."""
        raise NotImplementedError

    def clone(self) -> Steps:
        """An independent copy: play on from either."""
        raise NotImplementedError


class EngineSteps(Steps):
    """A game in the Python engine: a ``State`` stepped directly."""

    fast = False

    def __init__(self, state: State, layout: Layout) -> None:
        self.game = state.game
        self._state = state
        self.layout = layout
        self._legal: tuple[int, list[int], list[int] | None] = (-1, [], None)

    @property
    def state(self) -> State:
        """The live ``State``."""
        return self._state

    @property
    def turn(self) -> int:  # type: ignore[override]
        """The seat to move."""
        return self._state.turn

    @property
    def over(self) -> bool:  # type: ignore[override]
        """Whether the game is over."""
        return self._state.over

    def legal(self) -> list[int]:
        """The engine's legal actions now, computed once per position."""
        key = len(self._state.log)
        if self._legal[0] != key:
            self._legal = (key, self._state.legal_actions(), None)
        return self._legal[1]

    def step(self, index: int) -> None:
        """Apply action ``index`` (see ``Steps.step``)."""
        legal = self.legal()
        chosen = index if 0 <= index < 52 and index in legal else engine_action(legal, index)
        self._state.apply_unchecked(chosen)

    def draw(self, card: int) -> None:
        """Draw ``card`` from the stock (see ``Steps.draw``)."""
        if DRAW not in self.legal() or not 0 <= card < 52 or not self._state.stock >> card & 1:
            raise undrawable(card)
        self._state.apply_unchecked(DRAW_CARD + card)

    def stock(self) -> int:
        """The cards in the stock (see ``Steps.stock``)."""
        return self._state.stock

    def legal_indices(self) -> list[int]:
        """The legal action indices (see ``Steps.legal_indices``)."""
        legal = self.legal()
        key, _, dense = self._legal
        if dense is None:
            dense = dense_legal(legal)
            self._legal = (key, legal, dense)
        return list(dense)

    def mask(self) -> np.ndarray:
        """The mask of the legal actions (see ``Steps.mask``)."""
        return legal_mask(self.legal())

    def observation(self, seat: int, private: bool = True) -> np.ndarray:
        """A new observation tensor (see ``Steps.observation``)."""
        return self.layout.observation(self._state, seat, private)

    def write_observation(self, out: np.ndarray, seat: int, private: bool = True) -> None:
        """Write an observation (see ``Steps.write_observation``)."""
        self.layout.write_observation(out, self._state, seat, private)

    def view(self, seat: int, moving: bool) -> tuple[np.ndarray, np.ndarray]:
        """The observation and the mask (see ``Steps.view``)."""
        mask = self.mask() if moving else np.zeros(NUM_ACTIONS, np.int8)
        return self.observation(seat), mask

    def step_view(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """A step, then the view of the seat to move (see ``Steps.step_view``)."""
        self.step(index)
        return self.view(self._state.turn, not self._state.over)

    def hidden(self) -> tuple[list[int], list[int]]:
        """Every seat's hand and covered cards (see ``Steps.hidden``)."""
        return list(self._state.hands), list(self._state.covered)

    def copies(self) -> tuple[list[int], list[int]]:
        """The cards held twice and three times (see ``Steps.copies``)."""
        from paiqi_core.core import layout as L

        st, n = self._state.st, self.game.players
        return list(st[L.TWICE : L.TWICE + n]), list(st[L.THRICE : L.THRICE + n])

    def result(self) -> Result:
        """The scored game."""
        return self._state.result()

    def clone(self) -> EngineSteps:
        """A copy with a clone of the state."""
        return EngineSteps(self._state.clone(), self.layout)


def deepcopy_sharing_game(obj: object, game: Game, memo: dict[int, Any]) -> Any:
    """A deep copy of ``obj`` (an environment) that shares ``game``: compiled rules never
    change, and copying them would copy the whole profile."""
    memo[id(game)] = game
    cls: Any = type(obj)
    other = cls.__new__(cls)
    memo[id(obj)] = other
    for name, value in obj.__dict__.items():
        other.__dict__[name] = copy.deepcopy(value, memo)
    return other


def direct(function: Any, *examples: Any) -> Any:
    """The compiled code of ``function`` (one of the kernel's numba functions) for arguments
    of the types of ``examples``, to be called without numba's dispatch.

    Calling a numba function works out the numba type of every argument before it finds the
    code compiled for them: with eight arrays and numbers, about 0.8 µs a call, more than
    the game's step or observation itself. The steps always pass arrays of the same kinds
    (those made by ``Stepper``) and plain numbers, so each function's code is found once and
    called directly. It reads its arguments as those types without checking them: only
    arrays of the examples' dtype, dimensions and layout may be passed (numbers are
    converted as numba converts them, ``OverflowError`` included). Without numba's
    dispatcher (``NUMBA_DISABLE_JIT``), ``function`` itself."""
    compile_for = getattr(function, "compile", None)
    if compile_for is None:
        return function
    from numba import typeof

    return compile_for(tuple(typeof(x) for x in examples))


class Stepper:
    """Starts the games of one ``Game`` in the kernel or in the Python engine.

    ``engine``: ``python``, ``fast`` (ValueError when the kernel cannot play the rules) or
    ``auto``/None (the kernel where it can, as ``paiqi_core.fast.plays`` decides under the
    engine in use). ``room``: the most log entries (actions and events) a game from here
    can take."""

    def __init__(self, game: Game, engine: str | None = None, room: int = 0) -> None:
        from paiqi_core import fast

        self.game = game
        self.engine = engine
        self.layout = Layout(game.players, decks=game.rules.decks)
        if engine not in (None, *fast.ENGINES):
            raise ValueError(f"unknown engine '{engine}' (known: {', '.join(fast.ENGINES)})")
        if engine == "fast":
            reason = fast.why_not(game.rules)
            if reason is not None:
                raise ValueError(f"engine 'fast': {reason}")
        self.fast = engine != "python" and fast.plays(game.rules, (), engine)
        self.reason = None if self.fast else fast.why_not(game.rules) or "the Python engine"
        self.room = max(room, 1)
        if self.fast:
            from paiqi_core.core import layout as L
            from paiqi_core.fast.compiled import compiled_game
            from paiqi_core.fast.steps import (
                act,
                act_look,
                begin,
                deal_seed,
                draw_card,
                look,
                observe,
                play_random_until,
                refill,
                respond,
            )

            compiled = compiled_game(game.rules)
            self.size = self.layout.observation_size
            # arrays of the deals ``deal_of_seed`` makes (no game goes on from them)
            self._deal_scratch: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
            self.deck = np.empty(L.DECK_ROOM, np.int64)
            self.legal_at = L.B_LEGAL
            self.loglen_at = L.B_STATE + L.LOGLEN
            self.stock_at = L.B_STATE + L.STOCK
            self.state_at = L.B_STATE
            self.ext, self.beyond = compiled.ext, compiled.beyond
            self.box = np.zeros(L.BOX, np.int64)
            self.box[L.B_RULES : L.B_RULES + L.RULES] = compiled.R
            # the compiled code of each function for the arrays and numbers the steps pass
            # (``direct``); the examples have the types of those arrays
            box, ext, beyond = self.box, self.ext, self.beyond
            log = np.zeros((self.room, 2), np.int32)
            mask = np.zeros(NUM_ACTIONS, np.int8)
            out = np.zeros(self.layout.observation_size, np.float32)
            self.act = direct(act, box, ext, beyond, log, mask, 0)
            self.act_look = direct(act_look, box, ext, beyond, log, mask, 0, out, mask)
            self.draw_card = direct(draw_card, box, ext, beyond, log, mask, 0)
            self.look = direct(look, box, 0, True, mask, out, mask, True)
            self.observe = observe  # also given arrays from outside: numba checks them
            self.refill = direct(refill, box, beyond, mask)
            self.respond = direct(respond, box, ext, beyond, log, mask, 0, 0, 0, out, mask)
            self.play_random_until = direct(play_random_until, box, ext, beyond, log, mask, 0, 0)
            self.deal_seed = direct(deal_seed, box, ext, beyond, log, mask, 0, self.deck)
            self.begin = direct(begin, box, ext, beyond, log, mask, 0)

    # -- copies ----------------------------------------------------------------------------
    def __reduce__(self) -> tuple[type[Stepper], tuple[Game, str, int]]:
        """Pickled as the game, its engine and room (the compiled code is found again)."""
        return (Stepper, (self.game, "fast" if self.fast else "python", self.room))

    def __deepcopy__(self, memo: dict[int, Any]) -> Stepper:
        """A stepper of the same game and compiled code with arrays of its own for the
        deals (so that a copy is independent of the original, even in another thread)."""
        other = Stepper.__new__(Stepper)  # not copy.copy: that would build it anew
        other.__dict__.update(self.__dict__)
        if self.fast:
            other.deck = self.deck.copy()
            other._deal_scratch = None
        memo[id(self)] = other
        return other

    # -- new games -------------------------------------------------------------------------
    def from_seed(self, seed: int, stream: bool = False) -> Steps:
        """paiqi's deal of ``seed`` (``Game.new_state(seed)``). With ``stream``, a kernel
        game keeps the deal's random stream for ``play_random_until``."""
        if not self.fast:
            return EngineSteps(self.game.new_state(seed), self.layout)
        steps = KernelSteps(self, ("seed", seed))
        steps.stream = stream
        steps._code(
            self.deal_seed(
                steps.box, self.ext, self.beyond, steps.log, steps._mask, _key(seed), self.deck
            )
        )
        return steps

    def deal_of_seed(self, seed: int) -> list[int] | None:
        """The cards of paiqi's deal ``seed`` in the order its shuffle leaves them (the
        jokers as 52: they are alike), then the door card if the rules cut one, as the
        kernel deals them for ``from_seed``; None where the kernel does not deal it (the
        Python engine)."""
        if not self.fast:
            return None
        from paiqi_core.core import layout as L

        scratch = self._deal_scratch
        if scratch is None:
            scratch = self._deal_scratch = (
                self.box.copy(),
                np.zeros((self.room, 2), np.int32),
                np.zeros(NUM_ACTIONS, np.int8),
            )
        box, log, mask = scratch
        self.deal_seed(box, self.ext, self.beyond, log, mask, _key(seed), self.deck)
        cards = list(map(alike_card, self.deck[: len(self.game.deck)].tolist()))
        door = int(box[L.B_STATE + L.DOOR])
        if door >= 0:
            cards.append(door)
        return cards

    def from_hands(self, hands: list[list[int]], door_card: int | None) -> Steps:
        """The given hands (card numbers by seat) and door card (with trumps and none given:
        the engine's, ``engine.game.last_dealt``)."""
        if door_card is None and self.game.trumps and len(hands) == self.game.players:
            door_card = last_dealt(hands, self.game.players)
        if not self.fast:
            return EngineSteps(self.game.new_state(hands=hands, door_card=door_card), self.layout)
        door_missing = door_card is None or door_card >= 52
        if len(hands) != self.game.players or (
            self.game.rules.opening.uses_door_card and door_missing
        ):
            self.game.new_state(hands=hands, door_card=door_card)  # the engine's error
        steps = KernelSteps(self, ("hands", hands, door_card))
        steps._begin(hands, door_card)
        return steps

    def from_state(self, state: State) -> Steps:
        """Play on from ``state`` (kept as it is: the game goes on in a copy). Its draws
        come from its random stream (``state.rng``) if it has one: a state whose stream the
        kernel cannot take over (``mt19937``, deals made before paiqi's streams) goes on in
        the Python engine where its rules draw from a stock."""
        legacy = state.rng is not None and not isinstance(state.rng, Stream)
        if not self.fast or (legacy and self.game.rules.draw != "none"):
            return EngineSteps(state.clone(), self.layout)
        steps = KernelSteps(self, ("state", state.clone()))
        steps._resume(state)
        return steps


class KernelSteps(Steps):
    """A game in the kernel (see the module's docstring)."""

    fast = True

    def __init__(self, stepper: Stepper, origin: tuple[Any, ...]) -> None:
        self.stepper = stepper
        self.game = stepper.game
        self.layout = stepper.layout
        self.origin = origin  # how the game started: ("seed", s), ("hands", h, d), ("state", s)
        self.box = stepper.box.copy()
        self._legal = self.box[stepper.legal_at :]  # the legal actions' part of the box
        self.log = np.zeros((stepper.room, 2), np.int32)
        self._mask = np.zeros(NUM_ACTIONS, np.int8)
        self.turn = 0
        self.over = False
        self.count = 0
        self.stream = False  # the game's random stream is set for ``play_random_until``
        self.draws_for: int | None = None  # rebuild the stream of RandomAgents but this seat
        self._shadow: State | None = None
        self._synced = 0  # log entries the shadow has caught up with
        self._result: Result | None = None

    # -- starting --------------------------------------------------------------------------
    def _code(self, code: int) -> None:
        self.over = bool(code & 1)
        self.turn = (code >> 1) & 15
        self.count = (code >> 5) & 255

    def _acted(self, code: int, index: int) -> None:
        """The outcome of action ``index``: ``IllegalAction`` for a negative code (nothing
        changed), else the game's new turn, end and count of legal actions."""
        if code < 0:
            raise illegal(index)
        self._code(code)

    def _begin(self, hands: list[list[int]], door_card: int | None) -> None:
        from paiqi_core.core import layout as L

        if self.game.rules.decks > 1:  # a card may be dealt up to ``decks`` times
            held = [planes(hand) for hand in hands]
            masks = [once for once, _, _ in held]
            for seat, (once, twice, thrice) in enumerate(held):
                self.box[L.HAND + seat] = once
                self.box[L.TWICE + seat] = twice
                self.box[L.THRICE + seat] = thrice
        else:
            masks = hand_masks(hands)
            for seat, mask in enumerate(masks):
                self.box[L.HAND + seat] = mask
        rest = self.stepper.game.leftover(masks)  # the cards dealt to no seat
        if self.game.rules.leftover == "stock":
            self.box[L.STOCK] = rest
        else:
            self.box[L.POOL] = self.box[L.LEFTOVER] = rest
        s = self.stepper
        door = -1 if door_card is None else door_card
        self._code(s.begin(self.box, s.ext, s.beyond, self.log, self._mask, door))

    def _resume(self, state: State) -> None:
        from paiqi_core.core import layout as L
        from paiqi_core.fast.finish import encode

        self.box[L.B_STATE : L.B_STATE + L.STATE] = encode(state)
        rng = state.rng
        if isinstance(rng, Stream):  # its draws go on from the state's stream, as in Python
            from paiqi_core.core.rng import resume

            st = self.box[L.B_STATE : L.B_STATE + L.STATE]
            resume(st, L.WORDS if isinstance(rng, WordStream) else 0, rng.key, rng.drawn)
        self._code(self.stepper.refill(self.box, self.stepper.beyond, self._mask))

    def seed_stream(self, seed: int) -> bool:
        """Draw ``play_random_until``'s choices from the stream of ``seed``
        (``paiqi_core.streams.Stream(seed)``); True: the kernel takes any seed."""
        from paiqi_core.core import layout as L

        self.box[L.B_STATE + L.KEY] = _key(seed)
        self.box[L.B_STATE + L.DRAWN] = 0
        self.box[L.B_STATE + L.GEN] = 0
        self.stream = True
        return True

    # -- play ------------------------------------------------------------------------------
    def step(self, index: int) -> None:
        """Apply action ``index`` (see ``Steps.step``)."""
        s = self.stepper
        try:
            code = s.act(self.box, s.ext, s.beyond, self.log, self._mask, index)
        except OverflowError:
            code = -1
        self._acted(code, index)

    def draw(self, card: int) -> None:
        """Draw ``card`` from the stock (see ``Steps.draw``)."""
        s = self.stepper
        try:
            code = s.draw_card(self.box, s.ext, s.beyond, self.log, self._mask, card)
        except OverflowError:
            code = -1
        if code < 0:
            raise undrawable(card)
        self._code(code)

    def stock(self) -> int:
        """The cards in the stock, from the kernel's state (see ``Steps.stock``)."""
        return int(self.box[self.stepper.stock_at])

    def step_view(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """A step and the view of the seat to move, in one compiled call (see
        ``Steps.step_view``)."""
        s = self.stepper
        out = _empty(s.size, _FLOAT32)
        mask = _empty(NUM_ACTIONS, _INT8)
        try:
            code = s.act_look(self.box, s.ext, s.beyond, self.log, self._mask, index, out, mask)
        except OverflowError:
            code = -1
        self._acted(code, index)
        return out, mask

    def play_random_until(self, seat: int, limit: int) -> int:
        """The other seats play as ``RandomAgent`` from the game's stream until ``seat`` is
        to move, the game is over or ``limit`` actions were played; how many were."""
        assert self.stream
        s = self.stepper
        code = s.play_random_until(self.box, s.ext, s.beyond, self.log, self._mask, seat, limit)
        self._code(code & 4095)
        return code >> 13

    def respond(self, index: int, seat: int, limit: int) -> tuple[int, np.ndarray, np.ndarray]:
        """A turn of a single-seat environment in one compiled call: ``seat`` takes action
        ``index`` (``IllegalAction``, nothing changed, if it is not legal), the other seats
        play as in ``play_random_until`` (at most ``limit`` actions), and ``seat`` looks (as
        ``view``); how many actions the others played, the observation and the mask."""
        assert self.stream
        s = self.stepper
        out = _empty(s.size, _FLOAT32)
        mask = _empty(NUM_ACTIONS, _INT8)
        try:
            code = s.respond(
                self.box, s.ext, s.beyond, self.log, self._mask, index, seat, limit, out, mask
            )
        except OverflowError:
            code = -1
        self._acted(code & 4095 if code >= 0 else code, index)
        return code >> 13, out, mask

    def legal_indices(self) -> list[int]:
        """The legal action indices (see ``Steps.legal_indices``)."""
        return self._legal[: self.count].tolist()

    def mask(self) -> np.ndarray:
        """The mask of the legal actions (see ``Steps.mask``)."""
        return self._mask.copy()

    def observation(self, seat: int, private: bool = True) -> np.ndarray:
        """A new observation tensor (see ``Steps.observation``)."""
        s = self.stepper
        out = np.empty(s.layout.observation_size, np.float32)
        s.observe(self.box, seat, private, out)
        return out

    def write_observation(self, out: np.ndarray, seat: int, private: bool = True) -> None:
        """Write an observation (see ``Steps.write_observation``)."""
        self.stepper.observe(self.box, seat, private, out)

    def view(self, seat: int, moving: bool) -> tuple[np.ndarray, np.ndarray]:
        """The observation and the mask, written in one call (see ``Steps.view``)."""
        s = self.stepper
        out = _empty(s.size, _FLOAT32)
        mask = _empty(NUM_ACTIONS, _INT8)
        s.look(self.box, seat, True, self._mask, out, mask, bool(moving))
        return out, mask

    def hidden(self) -> tuple[list[int], list[int]]:
        """Every seat's hand and covered cards, from the kernel's state (see
        ``Steps.hidden``)."""
        from paiqi_core.core import layout as L

        return self._seats(L.HAND), self._seats(L.COVERED)

    def copies(self) -> tuple[list[int], list[int]]:
        """The cards held twice and three times, from the kernel's state (see
        ``Steps.copies``)."""
        from paiqi_core.core import layout as L

        return self._seats(L.TWICE), self._seats(L.THRICE)

    def _seats(self, slot: int) -> list[int]:
        """A per-seat slot of the kernel's state, by seat."""
        at = self.stepper.state_at + slot
        return self.box[at : at + self.game.players].tolist()

    def result(self) -> Result:
        """The scored game, from the kernel's end-of-game facts and the rules' scoring."""
        if self._result is None:
            if not self.over:
                raise ValueError("the game is not over")
            from paiqi_core.core import layout as L
            from paiqi_core.fast.outcomes import outcomes

            st = self.box[L.B_STATE : L.B_STATE + L.STATE]
            self._result = self.game.score(
                outcomes(st, self.game.players, self.game.rules.topology.centre)
            )
        return self._result

    def clone(self) -> KernelSteps:
        """A copy of the kernel's game (and of the Python ``State`` kept, if any)."""
        other = KernelSteps.__new__(KernelSteps)
        other.__dict__.update(self.__dict__)
        other.box = self.box.copy()
        other._legal = other.box[self.stepper.legal_at :]
        other.log = self.log.copy()
        other._mask = self._mask.copy()
        if self._shadow is not None:
            other._shadow = self._shadow.clone()
        return other

    # -- the Python State ------------------------------------------------------------------
    def _start_state(self) -> State:
        kind = self.origin[0]
        if kind == "seed":
            return self.game.new_state(self.origin[1])
        if kind == "hands":
            return self.game.new_state(hands=self.origin[1], door_card=self.origin[2])
        state: State = self.origin[1]
        return state.clone()

    @property
    def state(self) -> State:
        """The Python ``State`` of the game now (see the module's docstring)."""
        shadow = self._shadow
        if shadow is None:
            shadow = self._shadow = self._start_state()
            self._synced = 0
        length = int(self.box[self.stepper.loglen_at])
        if self._synced == length:
            return shadow
        if length > len(self.log):
            raise RuntimeError("the game's log ran out of room: its State cannot be rebuilt")
        low, high = EVENTS
        # a single-seat environment's kernel drew the choices of the RandomAgents of every
        # seat but ``draws_for`` from the State's stream, and the cards drawn from the stock
        # too: both are drawn again here, so that the stream ends where the kernel's is
        rng = shadow.rng if self.draws_for is not None else None
        for seat, action in self.log[self._synced : length].tolist():
            if low <= action < high:
                continue  # an event: the engine sets it off by itself
            drew = DRAW_CARD <= action < GIVE
            if rng is not None and seat != self.draws_for:  # a RandomAgent's choice
                legal = shadow.legal_actions()
                chosen = legal[below(rng, len(legal))]
                if chosen != (DRAW if drew else action):  # pragma: no cover - as RandomAgent
                    raise RuntimeError(f"the stream of seat {seat} drew {chosen}, not {action}")
            if drew and rng is not None:
                at = len(shadow.log)
                shadow.apply_unchecked(DRAW)  # the card from the State's stream
                if tuple(shadow.log[at]) != (seat, action):  # pragma: no cover - as the kernel
                    raise RuntimeError(f"the stream drew {shadow.log[at]}, not {action}")
                continue
            shadow.apply_unchecked(action)  # a card drawn: the very card the kernel drew
        if rng is None and isinstance(shadow.rng, Stream):
            self._follow_stream(shadow.rng)
        self._synced = length
        return shadow

    def _follow_stream(self, rng: Stream) -> None:
        """Bring the State's stream to where the kernel's is, where the kernel draws from it
        (the cards it drew from the stock for ``step``)."""
        from paiqi_core.core import layout as L

        st = self.stepper.state_at
        key, drawn = int(self.box[st + L.KEY]), int(self.box[st + L.DRAWN])
        if signed(rng.key) == key and rng.drawn != drawn:
            rng.setstate((rng.generator, rng.key, drawn))

    # -- copies ----------------------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> KernelSteps:
        """``clone()``, with the stepper as the copy being made has it."""
        other = self.clone()
        other.stepper = copy.deepcopy(self.stepper, memo)
        memo[id(self)] = other
        return other

    def __getstate__(self) -> dict[str, Any]:
        """The kernel's game as arrays (the view of the legal actions is made again)."""
        data = dict(self.__dict__)
        del data["_legal"]
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self._legal = self.box[self.stepper.legal_at :]


def _key(seed: int) -> int:
    """The key of the stream of ``seed`` as the kernel holds it (an int64)."""
    return signed(key_of(int(seed)))
