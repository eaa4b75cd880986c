"""Real processes for the tests of several web processes and engine workers (issue 17):
``damiera serve`` on an OS-assigned port (the port read from its first line) and
``damiera worker``, each stopped by the test that started it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from tests.conftest import WAIT_SECONDS


def _start(args: Sequence[str], first_words: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "damiera", *args], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if first_words not in line:
        stop(proc)
        raise AssertionError(f"damiera {args[0]} did not start: {line}")
    return proc, line


def start_worker(redis_url: str, processes: int = 1) -> subprocess.Popen[str]:
    """``damiera worker``; returns once it has said it runs."""
    proc, _ = _start(["worker", "--redis-url", redis_url, "--processes", str(processes)],
                     "Damiera engine worker")
    return proc


def start_server(database_url: str, redis_url: str | None = None,
                 workers: int = 1) -> tuple[subprocess.Popen[str], str]:
    """``damiera serve --port 0`` (any free port); returns the process and its base URL,
    once it has said where it serves (the socket listens from then on)."""
    args = ["serve", "--port", "0", "--database-url", database_url, "--workers", str(workers),
            "--create-burst", "1000", "--computer-per-client", "100"]
    if redis_url:
        args += ["--redis-url", redis_url]
    proc, line = _start(args, "Damiera: http://")
    found = re.search(r"http://[^/\s]+", line)
    assert found is not None, line
    return proc, found.group(0)


def stop(proc: subprocess.Popen[str]) -> None:
    """SIGTERM, then SIGKILL if it has not ended within the tests' wait."""
    proc.terminate()
    try:
        proc.wait(timeout=WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def spawned_children(pid: int, marker: str | None = "spawn_main") -> set[int]:
    """The live child processes of ``pid`` whose command line holds ``marker`` (by default
    those started by multiprocessing's spawn: a web process's search pool; None: every
    child, e.g. a worker's forked engine processes), read from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_text()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z" and (marker is None or marker in cmdline):
            found.add(int(stat.parent.name))
    return found
