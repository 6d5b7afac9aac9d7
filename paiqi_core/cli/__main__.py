"""``python -m paiqi_core.cli``: the ``paiqi`` command."""

import sys

from paiqi_core.entry import main

sys.exit(main())
