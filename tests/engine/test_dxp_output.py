"""``damiera dxp`` whose standard output is gone stops as every command does: a closed pipe
quietly with status 0, a full disk with ``damiera: error: cannot write the output: REASON``
and status 1; a listener serving on does not take its own output's error for a lost
connection and serve the next one. (A connection's own errors are tested in test_dxp.py.)

No speed is asserted; waits are guards against a server that carries on."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading

import pytest

from damiera.engine.dxp import GameOutcome, connect, listen
from damiera.rules.variant import Color
from tests.engine.test_dxp import GUARD


def _dxp_into(stdout: int) -> tuple[int, str]:
    """``damiera dxp --listen 0`` writing to the file descriptor ``stdout``: its status and
    standard error once it has left by itself."""
    done = subprocess.run([sys.executable, "-m", "damiera", "dxp", "--listen", "0"],
                          stdout=stdout, stderr=subprocess.PIPE, text=True, check=False,
                          timeout=GUARD)
    return done.returncode, done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
def test_a_full_disk_ends_the_listener_with_the_output_error_line() -> None:
    fd = os.open("/dev/full", os.O_WRONLY)
    try:
        code, err = _dxp_into(fd)
    finally:
        os.close(fd)
    assert err == "damiera: error: cannot write the output: No space left on device\n"
    assert code == 1


def test_a_closed_pipe_ends_the_listener_quietly() -> None:
    read, write = os.pipe()
    os.close(read)
    try:
        code, err = _dxp_into(write)
    finally:
        os.close(write)
    assert (code, err) == (0, "")


def test_a_listener_whose_reader_left_stops_after_the_game_quietly() -> None:
    """The listening line read, the reader of standard output goes: the game's line fails
    (a closed pipe) and the listener leaves with status 0 instead of logging a lost
    connection and serving on."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "damiera", "dxp", "--listen", "0", "--movetime", "0.02"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    try:
        first = proc.stdout.readline()
        port = int(first.rsplit(":", 1)[1])
        proc.stdout.close()
        outcomes = connect(f"127.0.0.1:{port}", 1, Color.WHITE, 1, 2, movetime=0.02,
                           log=io.StringIO())
        assert [o.plies for o in outcomes] == [4]
        try:
            code = proc.wait(GUARD)
        except subprocess.TimeoutExpired:
            pytest.fail("the listener served on with its output gone")
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert code == 0
    assert " lost" not in err and "Traceback" not in err


class _Listening(io.StringIO):
    """The listener's ``out``: ``port`` is set from its ``listening on`` line."""

    def __init__(self) -> None:
        super().__init__()
        self.port = 0
        self.ready = threading.Event()

    def write(self, text: str) -> int:
        if text.startswith("listening on "):
            self.port = int(text.rsplit(":", 1)[1])
            self.ready.set()
        return super().write(text)


def test_listen_raises_what_on_game_raises_rather_than_serving_on() -> None:
    out = _Listening()
    full = OSError(28, "No space left on device")
    raised: list[BaseException] = []

    def on_game(number: int, outcome: GameOutcome) -> None:
        raise full

    def serve() -> None:
        try:
            listen("0", "127.0.0.1", out, movetime=0.02, log=io.StringIO(), on_game=on_game)
        except BaseException as exc:  # noqa: BLE001 (handed to the test's thread)
            raised.append(exc)

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    assert out.ready.wait(GUARD)
    try:
        connect(f"127.0.0.1:{out.port}", 1, Color.WHITE, 1, 2, movetime=0.02,
                log=io.StringIO())
    except OSError:
        pass  # the listener may leave before the initiator has heard the game's end
    server.join(GUARD)
    assert not server.is_alive(), "the listener served on after on_game failed"
    assert raised == [full]
