"""The ``paiqi`` command line.

Exit status: 0 success, 1 a check failed (verify, replay) or a file or the output could
not be written (a full disk), 130 interrupted (Ctrl-C), 2 bad input (with the located
error on stderr, never a traceback). Each command lives in a module of this package; this
one builds the parser and runs a command.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from paiqi_core.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    FAMILIES,
    BadInput,
    err,
)
from paiqi_core.cli.profiles import cmd_explain, cmd_list, cmd_validate
from paiqi_core.cli.replay import cmd_replay
from paiqi_core.cli.rulebook import add_arguments as rulebook_arguments
from paiqi_core.cli.rulebook import cmd_rulebook
from paiqi_core.cli.runs import (
    cmd_bench,
    cmd_compare,
    cmd_report,
    cmd_simulate,
    cmd_sql,
    cmd_sweep,
    cmd_tournament,
    sql_options,
)
from paiqi_core.cli.serve import cmd_serve
from paiqi_core.cli.train import add_arguments as train_arguments
from paiqi_core.cli.train import cmd_train
from paiqi_core.cli.verify import cmd_verify
from paiqi_core.fast.cache import QUIET
from paiqi_core.profile import ProfileError
from paiqi_core.profile.yamlsrc import YAMLWarning
from paiqi_core.records import MAX_LINE_BYTES, WRITE_ERRNOS, WriteFailed, write_failed
from paiqi_core.runs.execute import ExecutorError


# -- parser ------------------------------------------------------------------------
def _batch_options(p: argparse.ArgumentParser) -> None:
    """Options of the commands that run games in batches."""
    p.add_argument("--workers", type=int, help="processes (default: every core)")
    p.add_argument("--batch", type=int, help="games per batch (default 250)")
    p.add_argument(
        "--dask",
        metavar="local|tcp://HOST:PORT",
        help="run the batches on a Dask cluster (pip install 'paiqi[dask]')",
    )


def _engine_option(p: argparse.ArgumentParser) -> None:
    """``--engine``: who plays all-random games (and search players' playouts)."""
    p.add_argument(
        "--engine",
        choices=("python", "fast", "auto"),
        default="auto",
        help="fast: the compiled engine (pip install 'paiqi[fast]'), the same games and rows "
        "many times faster; python: the Python engine; auto (default): fast wherever it can "
        "play, saying in one line what is played in Python and why",
    )


def _table_options(p: argparse.ArgumentParser) -> None:
    """The seed, agents and rotation of a stored run (None marks an option left out, which
    --resume needs to tell)."""
    p.add_argument("--seed", type=int, help="run seed (default 0)")
    p.add_argument("--agents", help="agents by seat, e.g. heuristic,random,random,random")
    p.add_argument(
        "--rotate",
        action="store_true",
        default=None,
        help="play each deal once per seat rotation of the agents",
    )


def _stored_run_options(p: argparse.ArgumentParser, what: str) -> None:
    """Options of the commands whose runs are stored and can be resumed."""
    _batch_options(p)
    _engine_option(p)
    p.add_argument("--db", default="paiqi-runs.db", help="results file (default paiqi-runs.db)")
    p.add_argument(
        "--resume",
        metavar="RUN",
        help=f"finish an interrupted {what} of --db with the rules and options it started with",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _deal_share_options(p: argparse.ArgumentParser) -> None:
    """Options of the deal share (how much of the result the deal alone decides)."""
    p.add_argument(
        "--deal-share",
        type=int,
        metavar="DEALS",
        help="also measure how much of a player's result the deal alone decides: DEALS deals "
        "each replayed --replays times with the players' own random streams and the seats "
        "rotated, the variance split between the hand dealt and the rest",
    )
    p.add_argument(
        "--replays",
        type=int,
        metavar="N",
        help="games per deal of --deal-share (default 8, at least 2)",
    )


def _skill_options(p: argparse.ArgumentParser, what: str) -> None:
    """Options of the skill gap (compare, sweep)."""
    p.add_argument(
        "--skill",
        type=int,
        metavar="DEALS",
        help=f"also measure each {what}'s skill gap: a strong and a weak player in alternate "
        f"seats on DEALS deals (the same for every {what}), and which {what} rewards "
        "skill more",
    )
    p.add_argument(
        "--skill-agents",
        metavar="STRONG,WEAK",
        help="the two players of --skill (default hard,easy)",
    )
    p.add_argument(
        "--skill-player",
        metavar="NAME",
        help="the strong player of --skill, against easy: e.g. expert, the strongest paiqi has "
        "where a model is trained for the rules (paiqi train)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(
        prog="paiqi",
        description="Rule profiles for 排七 / Sevens / Fan Tan: explain, "
        "validate, verify documented examples, simulate and replay games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add(
        name: str,
        func: Callable[[argparse.Namespace], int],
        help_: str,
        *,
        json_: bool = True,
        sets: bool = True,
    ) -> argparse.ArgumentParser:
        # argparse formats help strings with %: a literal % must be doubled there
        p = sub.add_parser(name, help=help_.replace("%", "%%"), description=help_)
        p.set_defaults(func=func)
        if json_:
            p.add_argument("--json", action="store_true", help="print data as JSON")
        if sets:
            p.add_argument(
                "--set",
                action="append",
                default=[],
                metavar="KEY=VALUE",
                help="override a rule, e.g. --set scoring.stake=2 (repeatable)",
            )
        return p

    add("list", cmd_list, "list the built-in profiles", sets=False)
    p = add(
        "explain", cmd_explain, "every rule in effect, in plain language, and where it came from"
    )
    p.add_argument("profile", help="built-in profile id or a profile file")
    p = add(
        "validate", cmd_validate, "check profile files; located errors, exit 2 if any", json_=False
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    p = add(
        "rulebook",
        cmd_rulebook,
        "a profile's rule book for players, in zh-TW, ja or en, with examples the engine proves",
        json_=False,
    )
    rulebook_arguments(p)
    p = add(
        "verify", cmd_verify, "run the examples in Markdown files and scenario files", sets=False
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (.md, .yaml)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    p = add("simulate", cmd_simulate, "play games with agents and summarise them per seat")
    p.add_argument(
        "profiles",
        nargs="*",
        metavar="PROFILE",
        help="profile ids or files (default: every built-in profile)",
    )
    p.add_argument("--games", type=int, default=1000, help="games per profile (default 1000)")
    p.add_argument(
        "--sessions",
        type=int,
        metavar="N",
        help="play N whole sessions (session.hands hands each, running money) "
        "instead of single games",
    )
    p.add_argument(
        "--matches",
        type=int,
        metavar="N",
        help="play N whole matches (match.games games each, rank points) instead of single games",
    )
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--agents", default="", help="agents by seat, e.g. random,random,random,random")
    p.add_argument(
        "--records",
        metavar="FILE.jsonl",
        help="write every game as a record, in game order",
    )
    _batch_options(p)
    _engine_option(p)
    p.add_argument("--db", help="keep one row per game per seat in this SQLite file")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p = add(
        "compare",
        cmd_compare,
        "play the same deals under several profiles on all cores and compare them, "
        "paired game by game, with 95% confidence intervals",
    )
    p.add_argument(
        "profiles",
        nargs="*",
        metavar="PROFILE",
        help=f"profiles to compare (default: {' '.join(FAMILIES)})",
    )
    # None marks an option left out: --resume refuses the ones given beside it
    p.add_argument("--games", type=int, help="deals per profile (default 10000)")
    _table_options(p)
    _skill_options(p, "profile")
    _deal_share_options(p)
    _stored_run_options(p, "run")
    p = add(
        "sweep",
        cmd_sweep,
        "one profile under every value of a rule (or every point of a grid of rules), on the "
        "same deals: the design measures against the value with 95% intervals, and the "
        "differences from a baseline value, paired on the same deals",
    )
    p.add_argument("profiles", nargs="*", metavar="PROFILE", help="the profile to sweep")
    p.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KEY=V1,V2,...",
        help="a rule and its values, e.g. turn.pass_limit=1,2,3,4,5 (repeat for a grid)",
    )
    p.add_argument(
        "--baseline",
        metavar="VALUE",
        help="the value the others are compared with (default: the first; in a grid, one "
        "value per varied rule, in order: 3,0)",
    )
    p.add_argument("--games", type=int, help="deals per value (default 10000)")
    _table_options(p)
    _skill_options(p, "value")
    _deal_share_options(p)
    _stored_run_options(p, "sweep")
    p = add(
        "tournament",
        cmd_tournament,
        "every player against every other on the same deals, seats rotated: win rate and "
        "objective per player, head to head and ratings, with 95% intervals",
    )
    p.add_argument("profiles", nargs="*", metavar="PROFILE", help="the profile to play")
    p.add_argument(
        "--agents",
        help="the players, two or more, e.g. easy,normal,hard or random,heuristic,pimc:32x2",
    )
    p.add_argument("--games", type=int, help="deals per pair of players (default 200)")
    p.add_argument("--seed", type=int, help="run seed (default 0)")
    _deal_share_options(p)
    p.set_defaults(rotate=None)
    _stored_run_options(p, "tournament")
    p = add(
        "train",
        cmd_train,
        "train the expert player's belief for a rule set: where the unseen cards lie, learned "
        "from games played here (pip install 'paiqi[learn]')",
    )
    train_arguments(p)
    p = add(
        "report",
        cmd_report,
        "tables, PNG plots and a self-contained HTML page of a stored run",
        sets=False,
    )
    p.add_argument("run", nargs="?", help="run id, or 'last' (default: list the runs)")
    p.add_argument("--db", default="paiqi-runs.db", help="results file (default paiqi-runs.db)")
    p.add_argument("--out", metavar="FOLDER", help="where to write (default paiqi-report-RUN)")
    p = add(
        "sql",
        cmd_sql,
        "ask a results file a question in SQL: its seats table holds one row per game per "
        "seat (profile, game, deal, seat, agent, rank, win, total, money, ...)",
        sets=False,
    )
    p.add_argument("query", help='e.g. "SELECT profile, seat, AVG(win) FROM seats GROUP BY 1, 2"')
    p.add_argument("--db", default="paiqi-runs.db", help="results file (default paiqi-runs.db)")
    p.add_argument(
        "--run",
        action="append",
        metavar="RUN",
        help="the rows of this run only, or 'last' (repeatable; default: every run's)",
    )
    p.add_argument("--csv", action="store_true", help="print CSV (a header, then the rows)")
    sql_options(p)
    p = add(
        "replay",
        cmd_replay,
        "re-run game records and report any disagreement",
        json_=False,
        sets=False,
    )
    p.add_argument("files", nargs="+", metavar="FILE.jsonl")
    p.add_argument(
        "--max-line-bytes",
        type=int,
        default=MAX_LINE_BYTES,
        metavar="N",
        help=f"refuse record lines longer than N bytes (default {MAX_LINE_BYTES:,}; "
        "a game's record is far smaller)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p = add("bench", cmd_bench, "games per second of random play, per profile")
    p.add_argument("profiles", nargs="*", metavar="PROFILE")
    p.add_argument("--games", type=int, default=5000, help="games per repeat (default 5000)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--repeat", type=int, default=3, help="repeats; the best counts (default 3)")
    _engine_option(p)
    p = add(
        "serve",
        cmd_serve,
        "the browser table: play any profile against computer players, edit a profile "
        "with live checks, replay recorded games",
        json_=False,
        sets=False,
    )
    p.add_argument(
        "profiles",
        nargs="*",
        metavar="PROFILE",
        help="profile files to offer beside the built-ins (for a game or a room)",
    )
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any free one)")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.add_argument(
        "--db",
        default="paiqi-runs.db",
        help="results file whose stored runs' games can be replayed, and where rooms' deals "
        "are stored (default paiqi-runs.db)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="log every request")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status (0 ok, 1 a failed check or a file that could
    not be written, 2 bad input, 130 interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    quiet = os.environ.get(QUIET)
    try:
        if getattr(args, "quiet", False):
            os.environ[QUIET] = "1"  # no word on compiling the fast engine (nor in workers)
        with warnings.catch_warnings():
            _show_yaml_warnings()
            result: int = args.func(args)
        sys.stdout.flush()  # a full disk under the output shows here, not at exit
        return result
    except (ProfileError, BadInput, ExecutorError) as e:
        err(str(e))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except BrokenPipeError:
        _discard_output()
        return EXIT_OK
    except WriteFailed as e:
        err(str(e))
        return EXIT_FAILED
    except OSError as e:
        if e.errno not in WRITE_ERRNOS or e.filename is not None:
            raise
        _discard_output()  # a print() that failed: what it held cannot be written either
        err(str(write_failed(e, "the output")))
        return EXIT_FAILED
    finally:
        if quiet is None:
            os.environ.pop(QUIET, None)
        else:
            os.environ[QUIET] = quiet


def _show_yaml_warnings() -> None:
    """Show each YAMLWarning (a value YAML 1.1 reads unlike it looks) as its located line on
    stderr, once, however often its profile is loaded."""
    shown: set[str] = set()
    others = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], *rest: Any, **more: Any) -> None:
        if not issubclass(category, YAMLWarning):
            others(message, category, *rest, **more)
            return
        text = str(message)
        if text not in shown:
            shown.add(text)
            err(text)

    warnings.simplefilter("always", YAMLWarning)
    warnings.showwarning = show


def _discard_output() -> None:
    """Send what is left of stdout's buffer nowhere: Python's last flush at exit would
    otherwise fail again and print a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (stdout replaced, as tests do)
        pass
