"""DXP opponents that send nothing: the listener closes a connection whose opponent stays
silent while it has nothing to think over (``--idle-timeout``), counting from the last complete
message (a message dribbled a byte at a time does not keep it open), and then serves the next
one; while the opponent is to move, the game's thinking time is added.

No speed is asserted: the timeouts are the server's, and the test's waits are guards."""

from __future__ import annotations

import io
import socket
import time
from collections.abc import Iterator

import pytest

from damiera.engine.dxp import Follower, IdleTimeout, connect
from damiera.engine.dxp_protocol import GameReq, encode
from damiera.rules.variant import Color, variant
from tests.engine.test_dxp import GUARD, Server, _recv

V = variant("international")


@pytest.fixture
def serving() -> Iterator[Server]:
    """A server that serves until stopped, letting an opponent stay silent 5 s."""
    s = Server("--movetime", "0.02", "--name", "Damiera server", "--idle-timeout", "5")
    yield s
    if s.proc.poll() is None:
        s.proc.kill()
        s.proc.communicate()


def _closing(sock: socket.socket) -> str:
    """The server's last message before it closes ``sock``; fails if it stays open."""
    message = _recv(sock)
    assert sock.recv(1) == b"", "the connection stayed open"
    return message


def test_an_idle_connection_is_closed_and_the_next_opponent_served(serving: Server) -> None:
    with socket.create_connection(("127.0.0.1", serving.port), timeout=GUARD) as idle:
        # Served first, it says nothing: the initiator behind it waits its turn, then plays.
        outcomes = connect(f"127.0.0.1:{serving.port}", 1, Color.WHITE, 1, 2, movetime=0.02,
                           name="Damiera client", log=io.StringIO())
        assert [o.plies for o in outcomes] == [4]
        assert _closing(idle) == ("Cclosing the connection: no message from the opponent "
                                  "for 5 s")
    assert serving.next_line().startswith("game 1: unknown for Damiera (black)")
    code, _, err = serving.stop()
    assert code == 0 and "lost: no message from the opponent for 5 s" in err


def test_a_message_dribbled_a_byte_at_a_time_does_not_keep_the_connection() -> None:
    server = Server("--movetime", "0.02", "--idle-timeout", "1", "--once")
    with socket.create_connection(("127.0.0.1", server.port), timeout=GUARD) as sock:
        deadline = time.monotonic() + GUARD
        answered = False
        while not answered and time.monotonic() < deadline:
            try:
                sock.sendall(b"C")           # a CHAT that never ends
            except OSError:
                break                        # closed already
            time.sleep(0.2)
            sock.setblocking(False)
            try:
                answered = bool(sock.recv(1, socket.MSG_PEEK))
            except BlockingIOError:
                pass
            except OSError:
                answered = True
            finally:
                sock.setblocking(True)
        assert answered, "the connection stayed open"
    code, _, err = server.finish()
    assert code == 1 and "damiera: error: no message from the opponent for 1 s" in err


def test_an_opponent_silent_on_its_move_is_told_and_the_connection_closed() -> None:
    """The game gives no time (0 minutes): the opponent, to move, has the idle timeout."""
    server = Server("--movetime", "0.02", "--idle-timeout", "1", "--once")
    with socket.create_connection(("127.0.0.1", server.port), timeout=GUARD) as sock:
        sock.sendall(encode(V, GameReq("raw", Color.BLACK, 0, 0, None)).encode() + b"\0")
        assert _recv(sock).startswith("A")
        assert _closing(sock) == "Cclosing the connection: no message from the opponent for 1 s"
    code, _, err = server.finish()
    assert code == 1 and "no message from the opponent for 1 s" in err


def test_the_opponent_to_move_has_the_games_time_too() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        follower = Follower(ours, idle_timeout=60, log=io.StringIO())
        assert follower.silence_allowed() == 60          # no game yet
        follower.start_game(GameReq("raw", Color.BLACK, 3, 0, None), Color.BLACK)
        assert follower.silence_allowed() == 60 + 180    # White, the opponent, to move
        follower.start_game(GameReq("raw", Color.WHITE, 3, 0, None), Color.WHITE)
        assert follower.silence_allowed() == 60          # Damiera to move


def test_silence_past_the_allowance_raises_idle_timeout() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        follower = Follower(ours, idle_timeout=0.2, log=io.StringIO())
        with pytest.raises(IdleTimeout, match="no message from the opponent for 0.2 s"):
            next(follower.messages())


@pytest.mark.parametrize("value", ["0", "-1", "nan", "x", "100000"])
def test_idle_timeout_must_be_positive_and_at_most_a_day(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    from damiera.cli import main

    assert main(["dxp", "--listen", "0", "--idle-timeout", value]) == 2
    assert "idle-timeout must be" in capsys.readouterr().err
