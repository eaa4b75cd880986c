"""``python -m damiera``: the ``damiera`` command."""

import sys

from damiera.cli import main

sys.exit(main())
