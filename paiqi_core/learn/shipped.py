"""The models that ship with paiqi, and the one command that makes them again.

``python -m paiqi_core.learn.shipped`` trains, for each family's default rules of
``SHIPPED``, the model ``paiqi train PROFILE --games GAMES --seed SEED`` makes, into the
package's model folder (``learn.model.shipped_dir``). A test holds each shipped model to the
rules as they are now (a change of the rules changes their fingerprint: the models are then
made again with this command). ``--plots DIR`` also draws each run's training curves there
(``train-PROFILE.png``: the figures of docs/players.md are drawn so, into ``docs``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

SHIPPED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("doujue", ()),
    ("platform", ()),
    ("shichinarabe", ("deck.jokers=1",)),
    ("pagat", ()),
)
GAMES = 400
SEED = 0


def main(argv: list[str] | None = None) -> int:
    """Train every shipped model again (see the module)."""
    parser = argparse.ArgumentParser(description="train the shipped models again")
    parser.add_argument("--plots", type=Path, metavar="DIR", help="draw the curves here")
    args = parser.parse_args(argv)
    from paiqi_core.cli import main as paiqi
    from paiqi_core.engine import Game
    from paiqi_core.learn.model import file_name, shipped_dir
    from paiqi_core.profile import load_profile

    for profile, overrides in SHIPPED:
        game = Game(load_profile(profile, list(overrides)))
        out = shipped_dir() / file_name(game.rules.fingerprint)
        sets = [f"--set={o}" for o in overrides]
        argv = ["train", profile, *sets, "--games", str(GAMES), "--seed", str(SEED)]
        if args.plots is not None:
            argv += ["--plot", str(args.plots / f"train-{profile}.png")]
        code = paiqi([*argv, "--out", str(out)])
        if code:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
