"""The kernel's result table read into the columns a run stores (``runs.kernel_rows``),
compiled: one pass over the table instead of one NumPy pass a field.

A batch's table is games x seats x ``layout.SEAT_FIELDS`` int64 (70 MB for 100,000 games of
four): reading it is bound by memory, so every column is taken from it in the same pass,
row after row. The functions only fill the arrays they are given (they allocate nothing); the
caller chooses the fields by their places in the table, so nothing of the layout is
compiled in. They call no compiled function of another module either, so numba's own
check of this file keeps their on-disk cache right (``fast.cache.ensure_fresh`` is for the
kernel, whose functions are compiled into one another across modules). Without numba they
run as plain Python, as the kernel's rules do."""

from __future__ import annotations

import numpy as np

from paiqi_core.core.bits import hot, step

HIGHEST, LOWEST = (1 << 63) - 1, -(1 << 63)  # int64's


@hot
def read_results(
    flat: np.ndarray,
    game: np.ndarray,
    seats: int,
    fields: np.ndarray,
    at: np.ndarray,
    num: int,
    den: int,
    narrow: np.ndarray,
    bounds: np.ndarray,
    ints: np.ndarray,
    floats: np.ndarray,
    events: np.ndarray,
    shares: np.ndarray,
    odd: np.ndarray,
) -> int:
    """Read the rows of ``flat`` (games x ``seats`` rows of the result table, in game
    order; ``game``: the games' own fields) into the columns, in one pass. Return the
    number of rows whose money is not a whole number (their places are the first ones of
    ``odd``), or -1 minus that if a field of ``fields`` does not fit in int16.

    - ``narrow[j]``: field ``fields[j]`` of each row, as int16 (cut short where it does not
      fit), with ``bounds[j]`` its lowest and highest value, 0 counted as one of them
      (where every field fits);
    - ``at``: the places of money, win, events, the three counted events (cuts, swaps,
      leaves) in a row, then of the denominator and the number of winners in ``game``;
    - ``ints``, ``floats``: each row's money times the stake ``num / den``, over the game's
      denominator, rounded down and as a float (``odd``: where that is not exact), when
      ``den`` is not 0; ``bounds[-2]``: the lowest and highest of ``ints``;
    - ``events``: the counted events in bits 48, 32 and 16 over the events' own bits,
      ``bounds[-1]`` their lowest and highest;
    - ``shares``: 1 / winners for a winner, else 0.

    The rows are read one after another, whole: a field at a time would read the table
    from memory once a field."""
    games = game.shape[0]
    k = len(fields)
    money, win, flags, cuts, swaps, leaves, den_at, winners_at = (
        at[0], at[1], at[2], at[3], at[4], at[5], at[6], at[7],
    )  # fmt: skip
    low_int = low_code = HIGHEST  # no rows: the caller reads neither
    high_int = high_code = LOWEST
    count = wide = 0
    for g in range(games):
        divisor = game[g, den_at] * den
        winners = game[g, winners_at]
        for r in range(g * seats, (g + 1) * seats):
            for j in range(k):
                v = flat[r, fields[j]]
                narrow[j, r] = v
                wide |= (v + 32768) >> 16  # not 0 outside int16
            if den:
                scaled = flat[r, money] * num
                whole = 0  # as NumPy divides by 0: 0, and nothing left over
                if divisor == 1:
                    whole = scaled
                elif divisor:
                    whole = scaled // divisor
                    if scaled % divisor:
                        odd[count] = r
                        count += 1
                ints[r] = whole
                floats[r] = whole
                low_int = min(low_int, whole)
                high_int = max(high_int, whole)
            code = (
                flat[r, flags] | flat[r, cuts] << 48 | flat[r, swaps] << 32
                | flat[r, leaves] << 16
            )  # fmt: skip
            events[r] = code
            low_code = min(low_code, code)
            high_code = max(high_code, code)
            if flat[r, win] != 1:
                shares[r] = 0.0
            else:  # as NumPy divides by 0 (no game has a winner and no winners)
                shares[r] = 1 / winners if winners else np.inf
    for j in range(k):  # from the narrow copy: contiguous, and a sixth of the bytes
        low = high = 0
        for r in range(games * seats):
            low = min(low, narrow[j, r])
            high = max(high, narrow[j, r])
        bounds[j, 0], bounds[j, 1] = low, high
    bounds[k, 0], bounds[k, 1] = low_int, high_int
    bounds[k + 1, 0], bounds[k + 1, 1] = low_code, high_code
    return -1 - count if wide else count


@hot
def number(
    values: np.ndarray, low: int, table: np.ndarray, kinds: np.ndarray, codes: np.ndarray
) -> int:
    """Number the distinct ``values`` in increasing order, through ``table`` (zeros, one
    place for each integer from ``low`` to the highest value): the values in order in
    ``kinds``, each value's number in ``codes`` (which may be ``values`` itself); return
    how many are distinct."""
    for v in values:
        table[v - low] = 1
    found = 0
    for i in range(len(table)):
        if table[i]:
            table[i] = found
            kinds[found] = i + low
            found += 1
    for r in range(len(values)):
        codes[r] = table[values[r] - low]
    return found


FIBONACCI = -7046029254386353131  # 2**64 / the golden ratio, as an int64: a hash multiplier


@step
def _slot(value: int, shift: int, mask: int) -> int:
    """The place of ``value`` in a hash table of ``mask + 1`` places (2 ** (64 - shift)):
    the top bits of its product with FIBONACCI, which every bit of the value moves."""
    return ((int(value) * FIBONACCI) >> shift) & mask


@hot
def hash_kinds(
    values: np.ndarray, keys: np.ndarray, ids: np.ndarray, shift: int, kinds: np.ndarray
) -> int:
    """Put the distinct ``values`` in a hash table (``keys``, and ``ids``: -1 where empty,
    else the number of the key, in order of first use; 2 ** (64 - ``shift``) places), the
    values in that order in ``kinds``; return how many are distinct, or -1 if more than
    ``kinds`` holds (then the table is left part filled)."""
    mask = len(keys) - 1
    found = 0
    for v in values:
        at = _slot(v, shift, mask)
        while ids[at] >= 0 and keys[at] != v:
            at = (at + 1) & mask
        if ids[at] < 0:
            if found == len(kinds):
                return -1
            keys[at] = v
            ids[at] = found
            kinds[found] = v
            found += 1
    return found


@hot
def hash_codes(
    values: np.ndarray,
    keys: np.ndarray,
    ids: np.ndarray,
    shift: int,
    rank: np.ndarray,
    codes: np.ndarray,
) -> None:
    """Each value's ``rank`` (by its number in the table ``hash_kinds`` filled with every
    value) in ``codes`` (which may be ``values`` itself)."""
    mask = len(keys) - 1
    for r in range(len(values)):
        v = values[r]
        at = _slot(v, shift, mask)
        while keys[at] != v:  # no empty place before it
            at = (at + 1) & mask
        codes[r] = rank[ids[at]]
