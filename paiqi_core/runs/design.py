"""Game-design measures of a stored run, each with a 95% interval, read from its rows.

For each rule set (or several pooled: a tournament's pairings all play one profile):

- seat advantage: the win rate of the player who moved first less an equal share (1/n),
  and that player's result in the profile's objective less the table's mean;
- decisiveness: the best player's final result less the worst's (money, or cards left
  where no money changes hands);
- drama: lead changes per game (``runs.trace``), and the share of games won by a player
  who trailed the best standing by a margin (3 cards, or 20 covered points);
- game length: actions per game, and their standard deviation;
- how often each special rule fires, per game, and the rules in effect that never fired;
- the deal share (from a rule set whose deals were replayed): the share of the variance of
  a player's result that the hand dealt (cards and seat) explains.

Per-game measures are paired game by game with a baseline rule set (the same deals); the
standard deviation and the deal share, which are not means of games, get their intervals
from a jackknife over games (deals). ``DEFINITIONS`` holds the one-line definition of each,
as the docs give them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import sub
from typing import Any

from paiqi_core.runs import arrays
from paiqi_core.runs.batch import parse_events
from paiqi_core.runs.stats import Z95, Estimate
from paiqi_core.runs.store import Store

# the column of the seats table that holds each objective
UTILITY = {"money": "money_value", "points": "total", "win": "win"}
# how far behind the best standing a winner must have been for a comeback, by unit
MARGIN = {"cards": 3, "covered points": 20}

DEFINITIONS = {
    "seat_advantage": "the first player's win rate less an equal share (1/players): above "
    "zero, moving first helps",
    "seat_advantage_objective": "the first player's mean result in the profile's objective "
    "(money or rank points) less the table's mean per player",
    "skill_gap": "the strong player's mean result less the weak one's on the same deals, in "
    "standard deviations of the objective",
    "deal_share": "of the variance of a player's result (the objective), the share that the "
    "hand dealt (cards and seat) explains when the deal is replayed",
    "deal_share_win": "the same, for the share of the win",
    "decisiveness": "the best player's result less the worst's at the end of a game (money; "
    "cards left where no money changes hands)",
    "lead_changes": "times per game the lead (the one player with the best standing) passes "
    "to another player",
    "comeback": "share of games won by a player who at some moment trailed the best standing "
    "by the margin (3 cards; 20 covered points in covering families)",
    "length": "actions per game (plays, covers, passes and joker moves)",
    "length_sd": "standard deviation of the game length: how much games differ in length",
}
LABELS = {
    "seat_advantage": "seat advantage (first player's win rate − 1/n)",
    "seat_advantage_objective": "seat advantage in the objective",
    "skill_gap": "skill gap (standard deviations)",
    "deal_share": "deal share (objective)",
    "deal_share_win": "deal share (win)",
    "decisiveness": "decisiveness (best − worst at the end)",
    "lead_changes": "lead changes per game",
    "comeback": "comebacks (share of games)",
    "length": "game length (actions)",
    "length_sd": "spread of game length (SD)",
}
# special rules: the word of the report, and what it counts (per game, over all players);
# plain words, as plots are drawn with fonts that may lack CJK (docs/design.md names them)
EVENTS = {
    "cover": "cards covered",
    "pass": "passes",
    "burst": "bursts (out of passes and stuck)",
    "complete": "suits completed (completion bonus)",
    "cut": "suits cut at an end of the line",
    "last_seven": "last-seven finishes (last card a 7)",
    "clean": "clean finishes (no card covered)",
    "all_covered": "all-covered hands (every card covered)",
    "bust": "busts (a payer pays more)",
    "melds": "covered melds exempted",
    "joker": "joker moves",
    "swap": "joker swaps (the holder takes the joker)",
    "leave": "players left holding only the joker",
    "joker_lost": "jokers removed with a burst hand",
    "fee": "house fees taken",
}
# columns of the seats table that count an event per player
EVENT_COLUMNS = {
    "cover": "covers",
    "pass": "passes",
    "burst": "burst",
    "last_seven": "last_seven",
    "all_covered": "all_covered",
    "joker": "jokers",
}
POOLED = "all pairings"  # a tournament's measures: every pairing's games together
# the events whose possibility the rules tell (``setting_of``); others are shown when seen
DECIDED = tuple(e for e in EVENTS if e != "fee")
# the measures read from the later columns
FROM_LATER = ("seat_advantage", "seat_advantage_objective", "decisiveness", "lead_changes",
              "comeback")  # fmt: skip
LATER = ("turn_order", "leads", "deficit", "cards_left", "events")  # may be missing


@dataclass(frozen=True)
class Setting:
    """What the measures need to know of a rule set's rules: what its scoring aims at,
    what a standing counts, and the special rules it can fire (None: not known)."""

    objective: str = "win"
    unit: str = "cards"  # of standings: cards, or covered points
    players: int = 4
    possible: tuple[str, ...] | None = None
    money: bool = False  # money changes hands


def setting_of(rules: Any) -> Setting:
    """The setting of compiled ``Rules``."""
    stuck, facts, topology = rules.stuck, rules.facts, rules.topology
    possible = []
    if stuck.covers:
        possible += ["cover", "all_covered"]
    if stuck.pass_limit is not None or stuck.loop == "pass":
        possible.append("pass")
    if stuck.may_burst:
        possible.append("burst")
    if topology.cut:
        possible.append("cut")
    elif any(facts.closure_bonus):
        possible.append("complete")
    if facts.last_seven_bonus:
        possible.append("last_seven")
    if facts.clean_bonus:
        possible.append("clean")
    if facts.bust_above is not None:
        possible.append("bust")
    if facts.melds_exempt:
        possible.append("melds")
    if rules.jokers:
        possible += ["joker", "swap", "leave"] + (["joker_lost"] if stuck.may_burst else [])
    return Setting(
        objective=facts.objective,
        unit="covered points" if stuck.covers else "cards",
        players=rules.players,
        possible=tuple(e for e in EVENTS if e in possible),
        money=facts.objective == "money",
    )


def settings(store: Store, run: str) -> dict[str, Setting]:
    """The setting of every rule set of ``run`` from its stored rules (empty when they
    cannot be read here: a run of an earlier paiqi, a plugin not installed)."""
    from paiqi_core.profile import ProfileError
    from paiqi_core.rules import rules_of
    from paiqi_core.runs.store import StoreError

    try:
        return {name: setting_of(rules_of(r)) for name, r in store.rules(run).items()}
    except (StoreError, ProfileError):
        return {}


@dataclass
class Games:
    """Per-game values of one rule set (or several pooled), keyed by (rule set, game), or
    as arrays when read by ``arrays`` (``arrays.Series``: game numbers and values)."""

    values: dict[str, Any] = field(default_factory=dict)
    events: dict[str, Any] = field(default_factory=dict)
    recorded: bool = True  # the rows hold the later columns (not an earlier paiqi's)
    games: int = 0
    _by_game: dict[tuple[str, str], Any] = field(default_factory=dict, repr=False)

    def by_game(self, kind: str, name: str) -> Any:
        """The per-game ``values`` (``kind``) or ``events`` of ``name`` keyed by game number
        alone (one rule set's games); made once, as every pairing with the base reads them.
        Arrays are keyed by game number already."""
        key = (kind, name)
        if key not in self._by_game:
            source = self.values if kind == "values" else self.events
            found = source.get(name, {})
            self._by_game[key] = found if isinstance(found, arrays.Series) else _by_index(found)
        return self._by_game[key]


def games_of(store: Store, run: str, names: Sequence[str], setting: Setting) -> Games:
    """The per-game values of the rule sets ``names`` (their rows pooled), summed by the
    store game by game."""
    present = set(store.columns("seats"))
    recorded = all(c in present for c in LATER)
    utility = UTILITY[setting.objective]
    sums = [
        "SUM(actions)",
        "SUM(closures)",
        *(f"SUM({c})" for c in EVENT_COLUMNS.values()),
    ]
    if recorded:
        sums += [
            "COUNT(turn_order)",  # 0 in rows of an earlier paiqi
            "SUM(CASE WHEN turn_order = 0 THEN win END)",
            f"SUM(CASE WHEN turn_order = 0 THEN {utility} END)",
            f"AVG({utility})",
            "MAX(money_value) - MIN(money_value)",
            "MAX(cards_left) - MIN(cards_left)",
            "SUM(leads)",
            "SUM(CASE WHEN win > 0 AND deficit >= ? THEN win ELSE 0 END)",
        ]
    marks = ", ".join("?" * len(names))
    where = f"WHERE run = ? AND profile IN ({marks})"
    margin = (MARGIN[setting.unit],) if recorded else ()
    rows = store.expand(run).query(
        f"SELECT profile, game, COUNT(*), {', '.join(sums)} FROM seats {where} "
        "GROUP BY profile, game ORDER BY profile, game",
        *margin,
        run,
        *names,
    )
    out = Games()
    values: dict[str, dict[tuple[str, int], float]] = defaultdict(dict)
    events: dict[str, dict[tuple[str, int], float]] = defaultdict(dict)
    n = setting.players
    counted = list(EVENT_COLUMNS)
    for row in rows:
        key = (row[0], row[1])
        out.games += 1
        values["length"][key] = row[3]
        closures = row[4] or 0
        for i, name in enumerate(counted):
            events[name][key] = row[5 + i] or 0
        events["complete"][key] = closures
        if not recorded:
            continue
        later = row[5 + len(counted) :]
        seats, first_win, first_utility, mean, money, left, leads, comeback = later
        if seats != row[2]:
            recorded = False  # rows of an earlier paiqi (a file written by two versions)
            continue
        if first_win is not None:
            values["seat_advantage"][key] = first_win - 1 / n
            values["seat_advantage_objective"][key] = (first_utility or 0.0) - (mean or 0.0)
        values["decisiveness"][key] = money if setting.money else left
        values["lead_changes"][key] = max(leads - 1, 0)
        values["comeback"][key] = comeback
    if recorded:
        for name in ("cut", "swap", "leave", "joker_lost", "clean", "bust", "melds", "fee"):
            events[name] = dict.fromkeys(values["length"], 0.0)
        for profile, game, text in store.expand(run).query(
            f"SELECT profile, game, events FROM seats {where} AND events != ''", run, *names
        ):
            for name, k in parse_events(text).items():
                if name not in events:  # a word of a later paiqi, or of a plugin
                    events[name] = dict.fromkeys(values["length"], 0.0)
                per_game = events[name]
                per_game[(profile, game)] = per_game.get((profile, game), 0.0) + k
        for key, cuts in events["cut"].items():
            events["complete"][key] -= cuts
    else:
        for name in FROM_LATER:
            values.pop(name, None)
    out.values = dict(values)
    out.events = dict(events)
    out.recorded = recorded and out.games > 0
    return out


def _mean(per_game: Any) -> Estimate:
    """``estimate`` of per-game values, keyed or in arrays."""
    if isinstance(per_game, arrays.Series):
        return arrays.estimate(per_game.data)
    return estimate(per_game.values())


def _fired(per_game: Any) -> bool:
    """Whether any per-game value is not zero."""
    if isinstance(per_game, arrays.Series):
        return per_game.any()
    return any(per_game.values())


def estimate(values: Iterable[float]) -> Estimate:
    """The mean of ``values`` with its 95% interval."""
    n = total = squares = 0.0
    for v in values:
        n += 1
        total += v
        squares += v * v
    return Estimate.of(int(n), total, squares)


def jackknife(groups: Sequence[Sequence[float]], statistic: Any, n: int | None = None) -> Estimate:
    """``statistic(sums)`` of additive per-group sums, with a jackknife 95% interval:
    ``groups`` holds each group's vector of sums; leaving each group out in turn."""
    if not groups:
        return Estimate(0, math.nan, math.nan)
    width = len(groups[0])
    total = [sum(g[i] for g in groups) for i in range(width)]
    value = statistic(total)
    k = len(groups)
    if k < 2 or value is None or math.isnan(value):
        return Estimate(n or k, math.nan if value is None else value, math.nan)
    left_out = [statistic([total[i] - g[i] for i in range(width)]) for g in groups]
    if any(v is None or math.isnan(v) for v in left_out):
        return Estimate(n or k, value, math.nan)
    mean = sum(left_out) / k
    var = (k - 1) / k * sum((v - mean) ** 2 for v in left_out)
    return Estimate(n or k, value, Z95 * math.sqrt(var))


def _sd(s: Sequence[float]) -> float:
    """The standard deviation from (count, sum, sum of squares)."""
    return _sd_of(s[0], s[1], s[2])


def _sd_of(n: float, total: float, squares: float) -> float:
    if n < 2:
        return math.nan
    return math.sqrt(max(squares - total * total / n, 0.0) / (n - 1))


def spread(values: Any) -> Estimate:
    """The standard deviation of ``values``, with a jackknife interval.

    ``jackknife`` of the groups ``(1, v, v²)`` under ``_sd``, with the same arithmetic in
    the same order (so the same figures), without a tuple and a call per left-out value:
    runs have a hundred thousand games. Arrays go to ``arrays.spread``."""
    if isinstance(values, arrays.Series):
        return arrays.spread(values)
    vs = list(values.values())
    k = len(vs)
    if not k:
        return Estimate(0, math.nan, math.nan)
    squares = [v * v for v in vs]
    n, total, sq = float(k), sum(vs), sum(squares)
    left = [_sd_of(n - 1.0, total - v, sq - q) for v, q in zip(vs, squares, strict=True)]
    return _jackknifed(k, _sd_of(n, total, sq), left)


def spread_difference(base: Any, other: Any) -> Estimate:
    """``other``'s standard deviation less ``base``'s over their common keys, with a
    jackknife interval leaving out one key (game) of both at a time (computed as
    ``spread`` is: the arithmetic of ``jackknife``, without its generality). Arrays go to
    ``arrays.spread_difference``."""
    if isinstance(base, arrays.Series) and isinstance(other, arrays.Series):
        return arrays.spread_difference(base, other)
    common = sorted(base.keys() & other.keys())
    k = len(common)
    if not k:
        return Estimate(0, math.nan, math.nan)
    bs, os_ = [base[c] for c in common], [other[c] for c in common]
    bq, oq = [v**2 for v in bs], [v**2 for v in os_]
    n, bt, bsq, ot, osq = float(k), sum(bs), sum(bq), sum(os_), sum(oq)
    value = _sd_of(n, ot, osq) - _sd_of(n, bt, bsq)
    left = [
        _sd_of(n - 1.0, ot - o, osq - o2) - _sd_of(n - 1.0, bt - b, bsq - b2)
        for b, b2, o, o2 in zip(bs, bq, os_, oq, strict=True)
    ]
    return _jackknifed(k, value, left)


def _jackknifed(k: int, value: float, left_out: list[float]) -> Estimate:
    """The estimate of ``jackknife`` from the statistic of all ``k`` groups and its value
    leaving out each in turn (``arrays.jackknifed`` computes the same from an array)."""
    if k < 2 or math.isnan(value):
        return Estimate(k, value, math.nan)
    if any(math.isnan(v) for v in left_out):
        return Estimate(k, value, math.nan)
    mean = math.fsum(left_out) / k
    var = (k - 1) / k * math.fsum((v - mean) * (v - mean) for v in left_out)
    return Estimate(k, value, Z95 * math.sqrt(var))


def paired_estimate(base: Any, other: Any) -> Estimate:
    """The mean of ``other − base`` over their common keys (the same games); arrays go to
    ``arrays.paired_estimate``."""
    if isinstance(base, arrays.Series) and isinstance(other, arrays.Series):
        return arrays.paired_estimate(base, other)
    common = sorted(base.keys() & other.keys())
    return estimate(list(map(sub, map(other.__getitem__, common), map(base.__getitem__, common))))


# ------------------------------------------------------------------------ deal share
def replayed(store: Store, run: str, name: str, column: str) -> dict[int, list[list[float]]]:
    """Per deal of the replayed rule set ``name``: by seat, ``column`` in every replay; only
    deals whose every seat has every replay (a run stopped halfway keeps some unfinished)."""
    by: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for deal, seat, value in store.expand(run).query(
        f"SELECT deal, seat, {column} FROM seats WHERE run = ? AND profile = ? "
        "ORDER BY deal, game, seat",
        run,
        name,
    ):
        by[deal][seat].append(float(value or 0.0))
    if not by:
        return {}
    replays = max(len(v) for seats in by.values() for v in seats.values())
    players = max(len(seats) for seats in by.values())
    return {
        deal: [seats[s] for s in sorted(seats)]
        for deal, seats in sorted(by.items())
        if len(seats) == players and all(len(v) == replays for v in seats.values())
    }


def _share_sums(hands: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    """A deal's additive sums for the variance decomposition: hands, the sum of hand means,
    the sum of squared hand means, and the sum of squared results."""
    means = [sum(v) / len(v) for v in hands]
    return (
        float(len(hands)),
        sum(means),
        sum(m * m for m in means),
        sum(x * x for v in hands for x in v),
    )


def share_from(sums: Sequence[float], replays: int) -> float:
    """The deal share from summed ``_share_sums``: one-way random-effects analysis of
    variance with hands as groups and ``replays`` results each; the between-hand variance
    component over the total. NaN when the results do not vary."""
    hands, s1, s2, s3 = sums[0], sums[1], sums[2], sums[3]
    r = replays
    if hands < 2 or r < 2:
        return math.nan
    between = r * (s2 - s1 * s1 / hands) / (hands - 1)
    within = (s3 - r * s2) / (hands * (r - 1))
    component = (between - within) / r
    total = component + within
    return component / total if total > 1e-12 else math.nan


def deal_share(deals: Mapping[int, Sequence[Sequence[float]]]) -> Estimate:
    """The deal share of replayed deals, with a jackknife interval over deals."""
    if not deals:
        return Estimate(0, math.nan, math.nan)
    replays = len(next(iter(deals.values()))[0])
    groups = [_share_sums(hands) for hands in deals.values()]
    return jackknife(groups, lambda s: share_from(s, replays), len(groups))


def deal_share_difference(
    base: Mapping[int, Sequence[Sequence[float]]], other: Mapping[int, Sequence[Sequence[float]]]
) -> Estimate:
    """``other``'s deal share less ``base``'s on their common deals, with a jackknife
    interval leaving out one deal of both at a time."""
    common = sorted(base.keys() & other.keys())
    if not common:
        return Estimate(0, math.nan, math.nan)
    rb, ro = len(base[common[0]][0]), len(other[common[0]][0])
    groups = [(*_share_sums(base[d]), *_share_sums(other[d])) for d in common]
    return jackknife(groups, lambda s: share_from(s[4:], ro) - share_from(s[:4], rb), len(common))


# ------------------------------------------------------------------------ reports
def summary(games: Games, setting: Setting) -> dict[str, Any]:
    """The measures of one rule set (or pooled rule sets) as data."""
    measures: dict[str, Any] = {}
    for name in (*FROM_LATER, "length"):
        if name in games.values:
            if name == "seat_advantage_objective" and setting.objective == "win":
                continue
            measures[name] = _mean(games.values[name]).as_dict()
    measures["length_sd"] = spread(games.values.get("length", {})).as_dict()
    known = setting.possible
    fired = {
        name: _mean(per_game).as_dict()
        for name, per_game in games.events.items()
        if (name in known if known is not None and name in DECIDED else _fired(per_game))
    }
    order = list(EVENTS)
    fired = dict(sorted(fired.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order
                        else len(order)))  # fmt: skip
    never = (
        None
        if known is None
        else [e for e in known if e in games.events and not _fired(games.events[e])]
    )
    if known is not None and not games.recorded:
        never = [e for e in never or [] if e in EVENT_COLUMNS or e == "complete"]
    return {
        "games": games.games,
        "recorded": games.recorded,
        "objective": setting.objective,
        "unit": setting.unit,
        "decisiveness_unit": "money" if setting.money else "cards left",
        "margin": MARGIN[setting.unit],
        "measures": measures,
        "events": fired,
        "never_fired": never,
        "possible": list(known) if known is not None else None,
    }


def paired(base: Games, other: Games) -> dict[str, Any]:
    """Each measure of ``other`` less ``base``'s, game by game on the same games."""
    out: dict[str, Any] = {}
    for name in other.values:
        if name in base.values:
            out[name] = paired_estimate(base.by_game("values", name),
                                        other.by_game("values", name)).as_dict()  # fmt: skip
    out["length_sd"] = spread_difference(
        base.by_game("values", "length"), other.by_game("values", "length")
    ).as_dict()
    events = {}
    order = list(EVENTS)
    names = sorted(other.events.keys() | base.events.keys(),
                   key=lambda e: (order.index(e) if e in order else len(order), e))  # fmt: skip
    for name in names:  # in the report's order of events (a set's order would vary)
        a, b = base.events.get(name), other.events.get(name)
        if a is not None and b is not None and (_fired(a) or _fired(b)):
            events[name] = paired_estimate(base.by_game("events", name),
                                           other.by_game("events", name)).as_dict()  # fmt: skip
    out["events"] = events
    return out


def _by_index(values: Mapping[tuple[str, int], float]) -> dict[int, float]:
    """Values keyed by game number alone (one rule set's games)."""
    return {game: v for (_, game), v in values.items()}


def share_report(
    store: Store, run: str, spec: Any, setting_by: Mapping[str, Setting]
) -> dict[str, Any] | None:
    """The deal share of every profile of a run that replayed deals (None otherwise): per
    profile, in its objective and in the win share; per profile, its difference from the
    base's on the same deals."""
    if not spec.share_deals:
        return None
    out: dict[str, Any] = {
        "deals": spec.share_deals,
        "replays": spec.replays,
        "agents": list(spec.share_agents),
        "profiles": {},
        "paired": {},
    }
    data: dict[str, dict[str, dict[int, list[list[float]]]]] = {}
    names = list(dict.fromkeys(spec.share_name(p) for p in spec.profiles))
    for name in names:
        setting = setting_by.get(name, Setting())
        column = UTILITY[setting.objective]
        data[name] = {"objective": replayed(store, run, name, column)}
        data[name]["win"] = (
            data[name]["objective"] if column == "win" else replayed(store, run, name, "win")
        )
        entry = {
            "rule_set": name,
            "objective": setting.objective,
            "deal_share": deal_share(data[name]["objective"]).as_dict(),
        }
        if setting.objective != "win":
            entry["deal_share_win"] = deal_share(data[name]["win"]).as_dict()
        out["profiles"][POOLED if spec.command == "tournament" else spec.profile_of(name)] = entry
    if spec.command != "tournament":
        base = spec.share_name(spec.base)
        for name in names:
            if name == base:
                continue
            diff = {
                "deal_share": deal_share_difference(
                    data[base]["objective"], data[name]["objective"]
                ).as_dict()
            }
            if "deal_share_win" in out["profiles"][spec.profile_of(name)]:
                diff["deal_share_win"] = deal_share_difference(
                    data[base]["win"], data[name]["win"]
                ).as_dict()
            out["paired"][spec.profile_of(name)] = diff
    return out


def design_report(
    store: Store, run: str, spec: Any, rows: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The design measures of a run: per rule set (a tournament's pairings pooled), paired
    differences with the base (compare, sweep), and the deal share when deals were
    replayed. With NumPy, from each rule set's ``arrays.Rows`` (``rows``: those read
    already, by name)."""
    setting_by = settings(store, run)
    if spec.command == "tournament":
        groups = {POOLED: list(spec.profiles)}
    else:
        groups = {p: [p] for p in spec.profiles}
    out: dict[str, Any] = {"rule_sets": {}, "paired": {}, "base": None}
    setting_of_group = {
        label: setting_by.get(names[0], Setting(players=spec.players))
        for label, names in groups.items()
    }

    games = _games_from_arrays(store, run, spec, groups, setting_of_group, rows)
    if games is None:

        def read(label: str) -> Callable[[Store], Games]:
            return lambda s: games_of(s, run, groups[label], setting_of_group[label])

        # every rule set's games read at once, on as many cores as there are
        games = dict(zip(groups, store.each([read(label) for label in groups]), strict=True))
    for label in groups:
        out["rule_sets"][label] = summary(games[label], setting_of_group[label])
    if spec.command != "tournament":
        base = spec.base
        out["base"] = base
        for p in spec.profiles:
            if p != base:
                out["paired"][p] = paired(games[base], games[p])
    share = share_report(store, run, spec, setting_by)
    if share is not None:
        out["deal_share"] = share
    if spec.games < 2:  # the games of one deal (its seatings) are not independent draws
        _drop_intervals(out)
    return out


def _drop_intervals(data: Any) -> None:
    """Every estimate in ``data`` (``{"n", "mean", "ci95"}``) without its interval: a run of
    one deal gives none, however many seatings of it were played."""
    if isinstance(data, dict):
        if {"n", "mean", "ci95"} <= data.keys():
            data["ci95"] = None
        for value in data.values():
            _drop_intervals(value)
    elif isinstance(data, list):
        for value in data:
            _drop_intervals(value)


def _games_from_arrays(
    store: Store,
    run: str,
    spec: Any,
    groups: Mapping[str, list[str]],
    setting_of_group: Mapping[str, Setting],
    rows: Mapping[str, Any] | None,
) -> dict[str, Games] | None:
    """Each group's games from the arrays of its rule sets' rows (read here unless given,
    at once on as many cores as there are); None without NumPy, or when a rule set has no
    rows yet (``games_of`` reports that case)."""
    if not arrays.available():
        return None
    have = dict(rows or {})
    names = [n for names in groups.values() for n in names if n not in have]
    names = list(dict.fromkeys(names))
    read = [arrays.reader(run, n, spec) for n in names]
    have.update(zip(names, store.each(read), strict=True))
    if any(not len(have[n].games) for names in groups.values() for n in names):
        return None
    return {
        label: arrays.design_games([have[n] for n in names], setting_of_group[label], Games())
        for label, names in groups.items()
    }


MEASURE_ORDER = (
    "seat_advantage",
    "seat_advantage_objective",
    "skill_gap",
    "deal_share",
    "deal_share_win",
    "decisiveness",
    "lead_changes",
    "comeback",
    "length",
    "length_sd",
)
OBJECTIVE_UNITS = {"money": "money per game", "points": "points", "win": "win share"}


def measure_rows(report: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Every measure of a report holding ``design`` (and ``skill`` if played) for the rule
    sets ``names``: key, label, unit, the estimate of each rule set, and each rule set's
    difference from the base (absent for the base, and for rule sets without one). Events
    follow the measures, as ``fires: ...`` rows."""
    design = report["design"]
    sets, paired = design["rule_sets"], design.get("paired", {})
    skill = report.get("skill") or {}
    share = design.get("deal_share") or {}
    rows: list[dict[str, Any]] = []
    for key in MEASURE_ORDER:
        by: dict[str, Any] = {}
        diff: dict[str, Any] = {}
        for name in names:
            if key == "skill_gap":
                entry = skill.get("profiles", {}).get(name)
                if entry is not None:
                    by[name] = entry["standardised"]
                if name in skill.get("paired", {}):
                    diff[name] = skill["paired"][name]
            elif key.startswith("deal_share"):
                entry = share.get("profiles", {}).get(name, {})
                if key in entry:
                    by[name] = entry[key]
                if key in share.get("paired", {}).get(name, {}):
                    diff[name] = share["paired"][name][key]
            else:
                if key in sets.get(name, {}).get("measures", {}):
                    by[name] = sets[name]["measures"][key]
                if key in paired.get(name, {}):
                    diff[name] = paired[name][key]
        if by:
            units = {name: _unit(key, sets.get(name, {})) for name in by}
            # a difference from a base without the measure, or in another unit (money
            # less cards left), means nothing
            base = units.get(names[0])
            diff = {name: d for name, d in diff.items() if base and units.get(name) == base}
            rows.append({"key": key, "label": LABELS[key], "unit": _units(units),
                         "by": by, "diff": diff})  # fmt: skip
    events: list[str] = []
    for name in names:
        events += [e for e in sets.get(name, {}).get("events", {}) if e not in events]
    order = list(EVENTS)
    for event in sorted(events, key=lambda e: order.index(e) if e in order else len(order)):
        by = {
            n: sets[n]["events"][event] for n in names if event in sets.get(n, {}).get("events", {})
        }
        diff = {
            n: paired[n]["events"][event]
            for n in names
            if event in paired.get(n, {}).get("events", {})
        }
        rows.append({"key": f"fires:{event}", "label": f"fires: {EVENTS.get(event, event)}",
                     "unit": "per game", "by": by, "diff": diff})  # fmt: skip
    return rows


def identical(row: Mapping[str, Any]) -> bool:
    """Whether a measure row's every difference from the base is exactly zero, game by game
    (a rule that changes only the settlement leaves the play as it was)."""
    diffs = list(row["diff"].values())
    return bool(diffs) and all(d["mean"] == 0 and d["ci95"] == 0 for d in diffs)


def _units(units: Mapping[str, str]) -> str:
    """One unit where every rule set measures in it; else each unit with its rule sets."""
    kinds = list(dict.fromkeys(units.values()))
    if len(kinds) == 1:
        return kinds[0]
    return "; ".join(
        f"{unit} ({', '.join(n for n, u in units.items() if u == unit)})" for unit in kinds
    )


def _unit(key: str, first: Mapping[str, Any]) -> str:
    """The unit of measure ``key`` for a rule set (``first``: its design measures)."""
    if key == "seat_advantage":
        return "win share"
    if key == "seat_advantage_objective":
        return OBJECTIVE_UNITS.get(first.get("objective", "win"), "")
    if key == "skill_gap":
        return "standard deviations"
    if key.startswith("deal_share"):
        return "share of variance"
    if key == "decisiveness":
        return str(first.get("decisiveness_unit", ""))
    if key == "lead_changes":
        return "per game"
    if key == "comeback":
        return "share of games"
    return "actions"
