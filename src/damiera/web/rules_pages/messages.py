"""Message marker for the rules pages' texts.

Texts in the content modules are English message ids marked with :func:`N_`; they are
translated only when a page is built for a language (see :mod:`damiera.web.rules_pages.content`).
Babel finds them through the ``N_`` keyword (``babel.cfg`` / ``pybabel extract -k N_``).
"""

from __future__ import annotations

from collections.abc import Callable

#: A gettext function: English message id in, translated text out.
Translate = Callable[[str], str]


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (it is translated later)."""
    return message


def identity(message: str) -> str:
    """The English "translation" (used when no catalog is given)."""
    return message
