"""``damiera serve --uds`` in a process of its own, for nginx to stand in front of."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import WAIT_SECONDS


@contextlib.contextmanager
def serving(folder: Path, *extra: str, command: list[str] | None = None,
            env: dict[str, str] | None = None) -> Iterator[str]:
    """The site on the Unix socket ``folder/web.sock`` (yielded), with its games in SQLite in
    ``folder``: ``damiera serve --uds`` with ``extra`` arguments, or ``command`` (which must
    name that socket) in the environment ``env``; stopped at the end."""
    sock = str(folder / "web.sock")
    if command is None:
        command = [sys.executable, "-m", "damiera", "serve", "--uds", sock, "--database-url",
                   f"sqlite:///{folder / 'games.sqlite3'}", *extra]
    app = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env={**(os.environ if env is None else env),
                                           "PYTHONUNBUFFERED": "1"})
    assert app.stdout is not None
    try:
        first = app.stdout.readline()
        assert f"http+unix:{sock}" in first, first
        yield sock
    finally:
        app.terminate()
        app.wait(WAIT_SECONDS)
        app.stdout.close()
