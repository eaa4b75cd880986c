"""Whether the hot modules run compiled with mypyc, and whether a compiled one is stale.

``make compile`` compiles :data:`HOT_MODULES` in place with mypyc: each gets an extension
module (``search.cpython-311-x86_64-linux-gnu.so``) beside its source, and Python imports
that in preference to the ``.py``. A ``.so`` older than its ``.py`` therefore runs old code:
:func:`stale` finds such modules from file times alone (a few ``os.stat`` calls, nothing
imported), ``damiera/__init__.py`` warns about them and ``tests/conftest.py`` refuses to run.
"""

from __future__ import annotations

import importlib
import os
from importlib.machinery import EXTENSION_SUFFIXES

#: The modules ``make compile`` compiles (keep in step with ``HOT_MODULES`` in the Makefile).
HOT_MODULES = (
    "damiera.rules.variant",
    "damiera.rules.geometry",
    "damiera.rules.position",
    "damiera.engine.evaluate",
    "damiera.engine.search",
)

#: The directory holding the ``damiera`` package (``src/`` in a checkout).
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class StaleBuildWarning(UserWarning):
    """A compiled hot module is older than its Python source, so it would run old code."""


def stale(root: str = _ROOT) -> list[tuple[str, str]]:
    """The compiled hot modules older than their source, as ``(extension, source)`` pairs.

    ``root``: the directory holding the ``damiera`` package (default: this one's, ``src/``).
    Both paths are relative to it, e.g.
    ``("damiera/engine/search.cpython-311-x86_64-linux-gnu.so", "damiera/engine/search.py")``.
    Empty when nothing is compiled or every compiled module is at least as new as its source.
    Compares modification times only; imports nothing.
    """
    out: list[tuple[str, str]] = []
    for name in HOT_MODULES:
        base = os.path.join(*name.split("."))
        source = base + ".py"
        try:
            source_time = os.stat(os.path.join(root, source)).st_mtime_ns
        except OSError:
            continue
        for suffix in EXTENSION_SUFFIXES:
            try:
                if os.stat(os.path.join(root, base + suffix)).st_mtime_ns < source_time:
                    out.append((base + suffix, source))
            except OSError:
                pass
    return out


def stale_message(pairs: list[tuple[str, str]]) -> str:
    """One line telling which compiled modules are stale (``pairs`` from :func:`stale`) and
    what to run."""
    olds = "; ".join(
        f"compiled module {ext} is older than {os.path.basename(src)}" for ext, src in pairs
    )
    return (
        f"damiera: {olds}; Python would run the old compiled code: run `make compile` "
        "(or `make pure` to use the Python sources)"
    )


def compiled() -> bool:
    """True when every module of :data:`HOT_MODULES` was loaded from its mypyc-compiled
    extension, False when any runs from its ``.py``. Imports them if not yet imported."""
    for name in HOT_MODULES:
        path = importlib.import_module(name).__file__ or ""
        if not path.endswith(tuple(EXTENSION_SUFFIXES)):
            return False
    return True
