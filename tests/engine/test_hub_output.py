"""A Hub engine whose output is gone stops: ``damiera hub`` into a closed pipe leaves quietly
with status 0, into a full disk with one error line and status 1, without waiting for the
end of its input; a write of the search thread that fails stops the search.

The waits are generous guards against an engine that carries on, never speed bounds.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from damiera.engine.hub import HubSession, run
from damiera.engine.hub_protocol import ReadAhead

START_10 = "W" + "b" * 20 + "e" * 10 + "w" * 20
GUARD = 120.0  # seconds: only an engine that carries on takes this long


@contextlib.contextmanager
def _hub(stdout: int, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """``damiera hub`` writing to ``stdout`` (a file descriptor or ``subprocess.PIPE``), its
    input and standard error pipes; killed if still running when the block ends."""
    proc = subprocess.Popen([sys.executable, "-m", "damiera", "hub"], stdin=subprocess.PIPE,
                            stdout=stdout, stderr=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stderr is not None
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        proc.stderr.close()


def _left_by_itself(proc: subprocess.Popen[bytes], why: str) -> int:
    """The engine's exit status once it has left with no more input; a test failure saying
    ``why`` if it is still running after :data:`GUARD` seconds."""
    try:
        return proc.wait(GUARD)
    except subprocess.TimeoutExpired:
        pytest.fail(why)


def _hub_into(stdout: int, buffered: bool) -> tuple[int, str]:
    """``damiera hub`` writing to the file descriptor ``stdout``, sent ``hub`` on an input
    that stays open: exit status and standard error once it has left by itself."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    with _hub(stdout, env) as proc:
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.write(b"hub\n")
        proc.stdin.flush()
        code = _left_by_itself(proc, "the engine carried on with its output gone")
        return code, proc.stderr.read().decode("utf-8", "replace")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_a_full_disk_stops_the_engine_with_one_error_line(buffered: bool) -> None:
    fd = os.open("/dev/full", os.O_WRONLY)
    try:
        code, err = _hub_into(fd, buffered)
    finally:
        os.close(fd)
    assert err == "damiera: error: cannot write the output: No space left on device\n"
    assert code == 1


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_a_closed_pipe_stops_the_engine_quietly(buffered: bool) -> None:
    read, write = os.pipe()
    os.close(read)
    try:
        code, err = _hub_into(write, buffered)
    finally:
        os.close(write)
    assert (code, err) == (0, "")


class _FailingAfter(io.StringIO):
    """An output whose writes fail with ENOSPC once ``good`` lines have been written."""

    def __init__(self, good: int):
        super().__init__()
        self.good = good

    def write(self, text: str) -> int:
        if self.getvalue().count("\n") >= self.good:
            raise OSError(28, "No space left on device")
        return super().write(text)


def test_a_failed_info_line_stops_an_infinite_search_without_more_input() -> None:
    session = HubSession(_FailingAfter(0))  # the first info line of the search fails
    for line in (f"pos pos={START_10}", "level infinite", "go analyze"):
        session.handle(line)
    deadline = time.monotonic() + GUARD
    while session.searching and time.monotonic() < deadline:
        time.sleep(0.05)
    searching = session.searching
    session.close()
    assert not searching, "the search went on with its output gone"
    assert isinstance(session.output_error, OSError)


def test_run_reads_no_line_after_an_answer_failed() -> None:
    def lines() -> Iterator[str]:
        yield "hub"
        pytest.fail("a line was read after the output failed")

    with pytest.raises(OSError, match="No space left on device"):
        run(lines(), _FailingAfter(2))


def test_a_pipe_closed_during_a_search_stops_the_engine_without_more_input() -> None:
    """The GUI closes its end of the engine's output while a search runs and sends nothing
    more: the search's next ``info`` fails and the engine leaves (it stayed, blocked reading
    its input, until another line came)."""
    with _hub(subprocess.PIPE) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(f"hub\ninit\npos pos={START_10}\nlevel infinite\ngo analyze\n"
                         .encode())
        proc.stdin.flush()
        for line in proc.stdout:  # synchronised on the output: the search has started
            if line.startswith(b"info"):
                break
        else:
            pytest.fail("no info line")
        proc.stdout.close()  # the input stays open, silent
        code = _left_by_itself(proc, "the engine waited for input with its output gone")
        assert (code, proc.stderr.read()) == (0, b"")


def test_run_on_lines_read_ahead_leaves_when_a_search_write_fails() -> None:
    """:func:`run` over a :class:`ReadAhead` of an input that stays open and silent ends
    when the search's first ``info`` fails, raising that write's error."""
    read, write = os.pipe()
    stream = open(read, "rb")  # noqa: SIM115 (closed once its reading thread has left)
    try:
        os.write(write, f"pos pos={START_10}\nlevel infinite\ngo analyze\n".encode())
        lines = ReadAhead(stream)
        with pytest.raises(OSError, match="No space left on device"):
            run(lines, _FailingAfter(0), lines.wake)
    finally:
        os.close(write)  # the reading thread sees the end of its input and leaves
        for thread in threading.enumerate():
            if thread.name == "hub-input":
                thread.join(GUARD)
        stream.close()
