"""``python -m damiera.cli``: the ``damiera`` command."""

import sys

from damiera.cli import main

sys.exit(main())
