"""How a child process ended, in words, for the messages of those that supervise processes
(the web's engine workers, a match's workers)."""

from __future__ import annotations

import signal


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
