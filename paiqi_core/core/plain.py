"""The rule core as plain Python, for ``engine.State``: the very functions the compiled
engine compiles (``kernel``, ``scoring``, ``rng``, ``bits``), loaded a second time as if
numba were not installed, on a state held in a Python list.

Three functions of that copy are put in the place of the compiled ones:

- ``_log`` appends each move and event to a Python list (the compiled engine fills an
  array with a fixed room);
- ``plugin_stuck`` and ``plugin_over``, the core's slot points, ask a plugin hook written
  in Python: the stuck rule is shown a ``SeatOf`` (``slots.SeatView``), the ending a
  ``ProgressOf`` (``slots.Progress``), both read-only views of the state vector.

The rules vector of the copy is a ``RulesVector``: the list of ``vector.play_vector`` that
also carries the game's ``Rules``, where the slot points find the hooks.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from paiqi_core.actions import COVER, PASS, public_action
from paiqi_core.cards import CARDS
from paiqi_core.cards import bits as iter_bits
from paiqi_core.core import layout
from paiqi_core.core.layout import (
    BURSTED,
    COVERED,
    FINISH,
    HAND,
    LEFT,
    LOGLEN,
    NBURSTS,
    NFINISHED,
    NLEFT,
    PASSES,
    TABLE,
)
from paiqi_core.core.vector import play_vector
from paiqi_core.topology import stacked_fits

if TYPE_CHECKING:
    from paiqi_core.rules import Rules


class _SlotsWrittenIn(ast.NodeTransformer):
    """Names of ``layout``'s integers read in a function become the integers themselves:
    what numba does when it compiles the functions, done for the plain copy (a constant
    is quicker to load than a global)."""

    def __init__(self, names: dict[str, int]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.names:
            return ast.copy_location(ast.Constant(self.names[node.id]), node)
        return node


class _RowsOfLists(ast.NodeTransformer):
    """``a[i, j]`` becomes ``a[i][j]``: a two-dimensional array of the compiled engine (a
    game's result, seat x field) is a list of lists in the plain copy, quicker to index in
    Python than an array."""

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        index = node.slice
        if isinstance(index, ast.Tuple) and len(index.elts) == 2:
            row = ast.Subscript(node.value, index.elts[0], ast.Load())
            return ast.copy_location(ast.Subscript(row, index.elts[1], node.ctx), node)
        return node


def _with_slots_written_in(tree: ast.Module) -> ast.Module:
    names: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == layout.__name__:
            for alias in node.names:
                value = getattr(layout, alias.name)
                if type(value) is int:
                    names[alias.asname or alias.name] = value
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    for function in functions:
        _SlotsWrittenIn(names).visit(function)
        _RowsOfLists().visit(function)
    return ast.fix_missing_locations(tree)


def _load(name: str, plain: dict[str, ModuleType]) -> ModuleType:
    """A fresh copy of module ``name`` run as if numba were not installed, its imports of
    the modules of ``plain`` answered by their plain copies. Only the copy's own imports
    are redirected (through its builtins): nothing of the process changes."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None and spec.origin is not None
    source = spec.loader.get_source(name)  # type: ignore[attr-defined]
    module = ModuleType(f"{name}[plain]")
    module.__file__ = spec.origin
    tree = _with_slots_written_in(ast.parse(source, spec.origin))

    def imports(wanted: str, *args: Any, **kwargs: Any) -> ModuleType:
        if wanted == "numba" or wanted.startswith("numba."):
            raise ImportError(f"{wanted} is not used by the plain copy of the rule core")
        if wanted in plain:
            return plain[wanted]
        found: ModuleType = builtins.__import__(wanted, *args, **kwargs)
        return found

    module.__dict__["__builtins__"] = {**vars(builtins), "__import__": imports}
    exec(compile(tree, spec.origin, "exec"), module.__dict__)
    return module


def _lowest(x: int) -> int:
    return (x & -x).bit_length() - 1 if x else 64


# The bit operations on Python ints, without the conversions that the copy as loaded makes
# for NumPy's scalars (the state of ``State`` holds Python ints only)
_INT_BITS = {"popcount": int.bit_count, "bit_length": int.bit_length, "lowest": _lowest}


def _copies() -> dict[str, ModuleType]:
    plain: dict[str, ModuleType] = {}
    for name in ("bits", "rng", "kernel", "scoring"):
        full = f"paiqi_core.core.{name}"
        plain[name] = plain[full] = module = _load(full, plain)
        for op, function in _INT_BITS.items():
            if op in vars(module):
                setattr(module, op, function)
    return plain


_PLAIN = _copies()
kernel = _PLAIN["kernel"]  # the rules of play as plain Python
scoring = _PLAIN["scoring"]  # the scorings as plain Python
resume = _PLAIN["rng"].resume  # put a Python stream in a state vector


def table_fits(rules: Rules, planes: Sequence[int]) -> int:
    """The cards that may be laid now on a table given as its planes (the cards down at
    least once, twice, three times), read from the table alone as the core reads it: each
    row's extensions (from its first card where any card begins a row, ``layout.start``
    any), and where rows grow one at a time (``layout.rows``) a begun row's only."""
    topology = rules.topology
    if rules.profile.get("layout.start") != "any":
        fits = stacked_fits(topology.extensions, planes)
    else:
        fits = 0
        for suit in range(4):
            row = (planes[0] >> 13 * suit) & layout.FULL_ROW
            fits |= kernel.from_first_card(topology.extensions, row, topology.centre) << 13 * suit
    if rules.profile.get("layout.rows") == "one_at_a_time":
        fits = kernel.begun_only(planes[0], fits)
    return fits


def trump_fits(fits: int, trumped: int, door: int, centre: int) -> int:
    """The cards a player could lay now, holding them, where the last card dealt (``door``)
    names trumps (``layout.trumps``) and the places ``fits`` fit: a card in its own place, a
    card displaced by a trump (``trumped``: the places trumps took) in the trump row's place
    of its rank, and a trump in the place of its rank in another row (not the trump of the
    centre's rank, nor the card that named trumps)."""
    shift = 13 * (door // 13)
    row = (fits >> shift) & layout.FULL_ROW
    others = 0
    cards = fits
    for suit in range(4):
        cards |= ((trumped >> 13 * suit) & row) << 13 * suit
        if 13 * suit != shift:
            others |= (fits >> 13 * suit) & layout.FULL_ROW
    others &= ~(1 << centre) & ~(1 << door % 13)
    return cards | others << shift


def trump_cards_down(places: int, trumped: int, door: int) -> int:
    """The cards lying in the table's ``places`` where trumps took the places ``trumped``:
    a trump lies in each of those, and the card it displaced, once played, in the trump
    row's place of its rank."""
    shift = 13 * (door // 13)
    cards = places
    for x in iter_bits(trumped):
        if not places >> (shift + x % 13) & 1:  # the displaced card is not down yet
            cards = cards & ~(1 << x) | 1 << (shift + x % 13)
    return cards


class RulesVector(list[int]):
    """The rules vector of a game (``vector.play_vector``), with its ``Rules``: where the
    slot points find the plugin hooks."""

    __slots__ = ("rules",)

    def __init__(self, rules: Rules) -> None:
        super().__init__(play_vector(rules))
        self.rules = rules


class Beyond:
    """``Topology.beyond`` as the core reads it: row mask * 13 + rank -> the rank a joker
    move in place of ``rank`` plays beyond it, -1 for none; worked out when first asked."""

    __slots__ = ("_found", "_topology")

    def __init__(self, rules: Rules) -> None:
        self._topology = rules.topology
        self._found: dict[int, int] = {}

    def __getitem__(self, index: int) -> int:
        found = self._found.get(index)
        if found is None:
            row, rank = divmod(int(index), 13)
            y = self._topology.beyond(row, rank)
            found = self._found[index] = -1 if y is None else y
        return found


# -- what plugin hooks are shown ---------------------------------------------------------
def public(log: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The moves and events of ``log`` as every seat sees them: the cards of covers, of
    cards handed on and of draws hidden."""
    return tuple((s, public_action(a)) for s, a in log)


class SeatOf:
    """A seat of a game in progress as a stuck rule sees it (``slots.SeatView``): read
    only, each fact read from the state vector when asked."""

    __slots__ = ("_log", "_n", "_st", "seat")

    def __init__(self, st: Sequence[int], log: Sequence[tuple[int, int]], seat: int, n: int):
        self._st, self._log, self.seat, self._n = st, log, seat, n

    @property
    def hand(self) -> int:
        """Its hand, a card mask."""
        return self._st[HAND + self.seat]

    @property
    def passes_used(self) -> int:
        """The passes it has made this game."""
        return self._st[PASSES + self.seat]

    @property
    def covered(self) -> int:
        """The cards it has covered, a mask."""
        return self._st[COVERED + self.seat]

    @property
    def covers_used(self) -> int:
        """How many cards it has covered."""
        return int(self._st[COVERED + self.seat]).bit_count()

    @property
    def table(self) -> int:
        """The cards on the table, a mask."""
        return self._st[TABLE]

    @property
    def hand_counts(self) -> tuple[int, ...]:
        """Cards held, by seat."""
        return tuple(kernel.held(self._st, s) for s in range(self._n))

    @property
    def history(self) -> tuple[tuple[int, int], ...]:
        """Every move and event so far as every seat sees it (covers hidden)."""
        return public(self._log)


class Seats:
    """A per-seat slot of the state vector, read as a list by seat (a descriptor of a
    ``VectorView``)."""

    def __init__(self, at: int, doc: str) -> None:
        self.at, self.__doc__ = at, doc

    def __get__(self, view: Any, owner: Any = None) -> list[int]:
        if view is None:  # asked of the class (help, documentation): the descriptor
            return self  # type: ignore[return-value]
        result: list[int] = view.st[self.at : self.at + view.players]
        return result


class InOrder:
    """The seats whose slot holds an order (from ``first``), in that order; ``count`` is the
    slot of how many do (a descriptor of a ``VectorView``)."""

    def __init__(self, at: int, count: int, doc: str, first: int = 0) -> None:
        self.at, self.count, self.first, self.__doc__ = at, count, first, doc

    def __get__(self, view: Any, owner: Any = None) -> list[int]:
        if view is None:
            return self  # type: ignore[return-value]
        st = view.st
        if not st[self.count]:
            return []
        at, first = self.at, self.first
        ranked = sorted((st[at + s], s) for s in range(view.players) if st[at + s] >= first)
        return [s for _, s in ranked]


class Slot:
    """One slot of the state vector: its number, or a flag (``flag``), or None where it is
    negative (``optional``)."""

    def __init__(self, at: int, doc: str, kind: str = "number") -> None:
        self.at, self.kind, self.__doc__ = at, kind, doc

    def __get__(self, view: Any, owner: Any = None) -> Any:
        if view is None:
            return self
        value = view.st[self.at]
        if self.kind == "flag":
            return value != 0
        if self.kind == "optional":
            return None if value < 0 else value
        return value


class VectorView:
    """What the vector of a game in progress says, read only: ``st`` (the vector) and
    ``players`` are the view's own."""

    __slots__ = ()
    st: list[int]
    players: int

    hands = Seats(HAND, "Card masks by seat (0 for a seat that has left).")
    covered = Seats(COVERED, "Covered cards, a mask by seat.")
    passes = Seats(PASSES, "Passes made, by seat.")
    finished = InOrder(FINISH, NFINISHED, "Seats that emptied their hands, in order.")
    bursts = InOrder(BURSTED, NBURSTS, "Seats that burst, in order.")
    left = InOrder(LEFT, NLEFT, "Seats that left holding only jokers, in order.", 1)
    table = Slot(TABLE, "The cards on the table, a mask.")


class ProgressOf(VectorView):
    """A game in progress as an ending sees it (``slots.Progress``): read only."""

    __slots__ = ("players", "st")

    def __init__(self, st: list[int], players: int) -> None:
        self.st, self.players = st, players


# -- the functions put in the copy ---------------------------------------------------------
def _log(st: list[int], log: list[tuple[int, int]], seat: int, action: int) -> None:
    log.append((seat, action))
    st[LOGLEN] += 1


def _plugin_over(st: list[int], R: RulesVector, log: Any) -> bool:
    return bool(R.rules.ending.over(ProgressOf(st, R.rules.players)))


MAY_PASS: int = kernel.MAY_PASS


def _plugin_stuck(st: list[int], R: RulesVector, log: Any, seat: int, stuck: bool) -> int:
    rule = R.rules.stuck
    view = SeatOf(st, log, seat, R.rules.players)
    answer = 0
    for action in rule.actions(view) if stuck else rule.voluntary(view):
        if action == PASS:
            answer |= MAY_PASS
        elif COVER <= action < PASS and action - COVER < CARDS:
            answer |= 1 << (action - COVER)
        else:
            hook = R.rules.hook_name("stuck")
            raise ValueError(f"the stuck rule '{hook}' answered {action!r}: not a cover or a pass")
    return answer


setattr(kernel, "_log", _log)  # noqa: B010 (the copy is a module made at run time)
setattr(kernel, "plugin_over", _plugin_over)  # noqa: B010
setattr(kernel, "plugin_stuck", _plugin_stuck)  # noqa: B010
