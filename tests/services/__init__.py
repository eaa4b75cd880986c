"""Throw-away servers for the tests (pytest plugins loaded by tests/conftest.py): a PostgreSQL
cluster (:mod:`tests.services.postgres`) and a Redis server (:mod:`tests.services.redis`),
each started once per session from Debian's packages, listening on a Unix socket in a private
temporary folder only (no TCP port), and stopped at the end of the session, also when tests
fail."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import NoReturn

import pytest

#: ``DAMIERA_TEST_SERVICES=required`` (``make test`` sets it): a test that needs a server the
#: machine cannot start fails instead of being skipped.
REQUIRED = os.environ.get("DAMIERA_TEST_SERVICES") == "required"


def unavailable(reason: str) -> NoReturn:
    """Skip the calling test (fail it when the servers are required) saying why."""
    if REQUIRED:
        pytest.fail(f"{reason} (DAMIERA_TEST_SERVICES=required)", pytrace=False)
    pytest.skip(reason)


def server_user() -> pwd.struct_passwd | None:
    """The user to run servers as: None (ourselves) unless we are root, which PostgreSQL
    refuses; then Debian's ``postgres`` user, else ``nobody``."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("running as root and there is no 'postgres' or 'nobody' user")


TMP = Path("/tmp") if Path("/tmp").is_dir() else Path(tempfile.gettempdir())
OWNER = "owner.pid"


def private_folder(prefix: str, user: pwd.struct_passwd | None,
                   stop_stale: Callable[[Path], None]) -> Path:
    """A new folder under the system's temporary folder (short, for the Unix socket's path
    limit), readable only by ``user`` (None: ourselves), marked with this process's id. The
    caller removes it. First, folders of this ``prefix`` left by test sessions that died
    without their teardown (their process is gone) are given to ``stop_stale`` (which stops
    the server there) and removed."""
    for old in TMP.glob(f"{prefix}*"):
        try:
            owner = int((old / OWNER).read_text())
            os.kill(owner, 0)
        except ProcessLookupError:
            stop_stale(old)
            remove(old)
        except (OSError, ValueError):
            continue   # not ours, or its owner is alive
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=TMP))
    (folder / OWNER).write_text(str(os.getpid()))
    if user is not None:
        os.chown(folder, user.pw_uid, user.pw_gid)
    return folder


def remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


_MAIN = os.getpid()


def _terminated(signum: int, _frame: FrameType | None) -> None:
    """SIGTERM in the test session: interrupt it as Ctrl-C does, so that the fixtures'
    teardown stops the servers (in a forked child: die as by default)."""
    if os.getpid() != _MAIN:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    raise KeyboardInterrupt(f"signal {signum}")


def stop_servers_on_sigterm() -> None:
    """Let SIGTERM run the session's teardown (unless someone set a handler already)."""
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _terminated)
