"""How a child process ended, in words, for the messages of those that supervise processes
(the web's engine workers, a match's workers), and which stopping signals a process takes."""

from __future__ import annotations

import signal
from collections.abc import Iterable


def how_it_ended(exitcode: int | None) -> str:
    """``exitcode`` of a process in words: "killed by SIGKILL", "exited with status 1"."""
    if exitcode is None:
        return "still running"
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exited with status {exitcode}"


def signals_to_take(signums: Iterable[int]) -> tuple[int, ...]:
    """``signums`` less SIGHUP when this process started with it ignored (``nohup``: the
    terminal's closing is not a stop, for the process nor for the workers it starts)."""
    return tuple(s for s in signums
                 if not (s == signal.SIGHUP and signal.getsignal(s) == signal.SIG_IGN))
