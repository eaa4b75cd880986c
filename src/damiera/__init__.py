"""Damiera: multi-variant draughts (rules core, engine, web site).

:func:`compiled` tells whether the hot modules run compiled with mypyc (``make compile``).
Importing the package warns (:class:`~damiera._build.StaleBuildWarning`, on standard error)
when a compiled module is older than its source, since Python would run the old compiled code.
"""

import warnings

from damiera._build import StaleBuildWarning, compiled, stale, stale_message

__all__ = ["compiled"]

if _stale := stale():
    warnings.warn(stale_message(_stale), StaleBuildWarning, stacklevel=1)
