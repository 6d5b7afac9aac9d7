"""Every module of the package imports first, on its own, in a fresh interpreter: no import
cycle depends on which module a program happens to import first."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import paiqi_core

from .conftest import ROOT


def test_every_module_imports_first_on_its_own() -> None:
    names = [
        m.name
        for m in pkgutil.walk_packages(paiqi_core.__path__, "paiqi_core.")
        if not m.name.endswith("__main__")  # runs the command line
    ]
    assert "paiqi_core.search.guided" in names
    # one interpreter per module would take long: one interpreter imports each module in
    # turn, forgetting every paiqi module between two imports
    code = (
        "import importlib, sys\n"
        "base = set(sys.modules)\n"
        "failed = []\n"
        "for name in sys.argv[1:]:\n"
        "    for m in [m for m in sys.modules if m.startswith('paiqi_core')]:\n"
        "        del sys.modules[m]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as e:\n"
        "        failed.append(f'{name}: {e}')\n"
        "print('\\n'.join(failed))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *names], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""
