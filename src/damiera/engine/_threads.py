"""A pause point for compiled code (this module is never compiled).

Code compiled with mypyc never enters the interpreter's evaluation loop, so it never gives
the interpreter lock to another thread that asks for it, nor runs signal handlers. Calling
:func:`let_threads_run` (an interpreted function) passes through that loop once: another
thread waiting for the lock gets it there (after its switch interval, 5 ms by default), and a
pending Ctrl-C is raised. It costs one Python call when nobody waits.
"""

from __future__ import annotations


def let_threads_run() -> None:
    """Do nothing, in interpreted code (see the module's text)."""
