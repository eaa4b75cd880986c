"""The engine's environment switches: settings an operator gives a whole process through
environment variables (``DAMIERA_EVAL``: :func:`damiera.engine.evaluate.learned_enabled`), read
where they apply and checked before any command of the ``damiera`` CLI starts
(``damiera.cli.main``).

A switch that is unset or empty takes its default; any value outside its choices raises
:class:`SwitchError`, never silently the default, so that a mistyped setting is seen.
"""

from __future__ import annotations

import os
from collections.abc import Collection


class SwitchError(ValueError):
    """An environment switch holds a value outside its choices (the message names both)."""


def read_switch(name: str, choices: Collection[str], default: str) -> str:
    """The value of environment variable ``name``, stripped and lower-cased; ``default`` when it
    is unset or empty. Raises :class:`SwitchError` when it is none of ``choices``."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value not in choices:
        shown = ", ".join(sorted(choices))
        raise SwitchError(f"{name} must be one of {shown}, not {value[:20]!r}")
    return value
