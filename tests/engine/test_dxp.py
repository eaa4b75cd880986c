"""DXP (DamExchange): the fixed-width messages, the bounded framing, and games on loopback
(ports chosen by the system) against our own initiator, a raw socket sending bad messages,
and pydraughts' independent DXP client.

No speed is asserted; waits are guards against a hung peer.
"""

from __future__ import annotations

import io
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import IO, Any

import pytest

from damiera.engine.dxp import connect
from damiera.engine.dxp_protocol import (
    MAX_MESSAGE_CHARS,
    BackAcc,
    BackReq,
    Chat,
    DxpError,
    GameAcc,
    GameEnd,
    GameReq,
    MessageReader,
    MoveMsg,
    board_string,
    decode,
    encode,
    find_move,
    move_message,
)
from damiera.rules.movegen import apply_move, generate
from damiera.rules.position import parse_fen, start_position
from damiera.rules.variant import Color, variant

V = variant("international")
GUARD = 120.0


# -- messages --------------------------------------------------------------------------------
def test_messages_have_their_fixed_widths_and_read_back() -> None:
    req = GameReq("Damiera", Color.BLACK, 10, 75, None)
    assert encode(V, req) == "R01" + "Damiera".ljust(32) + "Z010075A"
    acc = encode(V, GameAcc("Scan 3.1", "0"))
    assert acc == "A" + "Scan 3.1".ljust(32) + "0" and len(acc) == 34
    assert encode(V, MoveMsg(3, 32, 28, ())) == "M0003322800"
    assert encode(V, MoveMsg(12, 28, 19, (23,))) == "M0012281901" + "23"
    assert encode(V, GameEnd("2", "1")) == "E21"
    assert encode(V, BackReq(5, Color.WHITE)) == "B005W"
    assert encode(V, BackAcc("0")) == "K0"
    assert encode(V, Chat("good luck")) == "Cgood luck"
    for msg in (req, GameAcc("Scan 3.1", "0"), MoveMsg(12, 28, 19, (23,)), GameEnd("2", "1"),
                BackReq(5, Color.WHITE), BackAcc("0"), Chat("good luck")):
        assert decode(V, encode(V, msg)) == msg


def test_names_and_chat_from_the_opponent_are_made_printable() -> None:
    assert decode(V, "Chi\x1b[2Jthere\x07") == Chat("hi?[2Jthere?")
    acc = decode(V, "A" + "evil\x1b]0;x\x07".ljust(32) + "0")
    assert isinstance(acc, GameAcc) and acc.name == "evil?]0;x?"


def test_a_game_request_with_a_set_up_position_reads_back() -> None:
    pos = parse_fen(V, "B:W28,K46:B19,K5")
    req = GameReq("x", Color.WHITE, 1, 0, pos)
    text = encode(V, req)
    assert len(text) == 94 and text[43] == "Z" and board_string(V, pos) == text[44:]
    assert text[44:].count("e") == 46 and text[44 + 4] == "Z" and text[44 + 45] == "W"
    assert decode(V, text) == req


@pytest.mark.parametrize("text,words", [
    ("X123", "unknown message type 'X'"),
    ("", "empty message"),
    ("M00033228", "too short for its number captured field"),
    ("M000332280", "too short for its number captured field"),
    ("M0003322801", "too short for its captured square field"),
    ("M00033228002", "1 characters too many"),
    ("M00a3322800", "time must be 4 digits, not '00a3'"),
    ("M0003322821" + "11" * 21, "21 captured pieces: at most 20"),
    ("E4" + "1", "reason must be one of 0, 1, 2, 3, not '4'"),
    ("B005Q", "colour to move must be W or Z, not 'Q'"),
    ("R01" + "n" * 32 + "X010075A", "follower's colour must be W or Z"),
    ("R01" + "n" * 32 + "W010075C", "starting position must be one of A, B"),
    ("R01" + "n" * 32 + "W010075BW" + "e" * 49, "too short for its board field"),
    ("R01" + "n" * 32 + "W010075BW" + "q" * 50, "square character 'q'"),
    ("R01" + "n" * 32 + "W010075BW" + "w" * 50, "impossible position"),
    ("K7", "acceptance code must be one of 0, 1, 2"),
    ("C" + "x" * MAX_MESSAGE_CHARS, "longer than 127"),
])
def test_malformed_messages_are_refused_naming_the_field(text: str, words: str) -> None:
    with pytest.raises(DxpError, match=words.replace("(", r"\(").replace(")", r"\)")):
        decode(V, text)


@pytest.mark.parametrize(("board", "reason"), [
    ("w" + "e" * 49, "GAMEREQ: impossible position: a white man on 1, White's promotion row"),
    ("e" * 50, "GAMEREQ: impossible position: the board is empty"),
    ("e" * 5 + "w" * 21 + "e" * 24, "GAMEREQ: impossible position: white has 21 pieces"),
])
def test_an_impossible_gamereq_board_says_impossible_position_once(board: str,
                                                                   reason: str) -> None:
    """The reason read 'GAMEREQ: impossible position: impossible position: a white man on
    1, ...': the prefix was added to a reason that had it already."""
    with pytest.raises(DxpError) as caught:
        decode(V, "R01" + "n" * 32 + "W010075BW" + board)
    assert str(caught.value).startswith(reason)
    assert str(caught.value).count("impossible position") == 1


def test_moves_are_matched_against_the_rules_core() -> None:
    pos = start_position(V)
    for start, end in ((32, 28), (19, 23)):
        pos = apply_move(pos, find_move(V, pos, MoveMsg(0, start, end, ())))
    (capture,) = generate(V, pos)
    msg = move_message(V, capture, 1)
    assert (msg.start, msg.end, msg.captured) == (28, 19, (23,))
    assert find_move(V, pos, MoveMsg(0, 28, 19, (23,))) == capture
    with pytest.raises(DxpError, match="MOVE: 28-19 is not a legal move"):
        find_move(V, pos, MoveMsg(0, 28, 19, ()))


# -- framing ---------------------------------------------------------------------------------
def test_the_reader_cuts_messages_across_chunks_and_drops_long_ones_in_bounded_memory() -> None:
    reader = MessageReader()
    got: list[str | DxpError] = []
    got += reader.feed(b"E2")
    got += reader.feed(b"1\0K0\0Ch")
    assert got == ["E21", "K0"]
    got += reader.feed(b"i\0")
    assert got[-1] == "Chi"
    # A megabyte without a NUL: one error, and the buffer never grows past the limit.
    errors: list[str | DxpError] = []
    for _ in range(256):
        errors += reader.feed(b"C" + b"y" * 4095)
        assert len(reader._buffer) <= MAX_MESSAGE_CHARS
    assert len(errors) == 1 and isinstance(errors[0], DxpError)
    assert list(reader.feed(b"yyy\0E01\0")) == ["E01"]  # the long one is dropped whole
    bad = list(reader.feed(b"C\xff\0"))
    assert len(bad) == 1 and "not ASCII" in str(bad[0])


# -- games on loopback -----------------------------------------------------------------------
class Server:
    """``damiera dxp --listen 0`` in a subprocess; ``port`` read from its first line, the
    rest of its output read by threads (so that neither pipe can fill up)."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "damiera", "dxp", "--listen", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        first = self.proc.stdout.readline()
        assert first.startswith("listening on 127.0.0.1:"), first
        self.port = int(first.rsplit(":", 1)[1])
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.err: list[str] = []
        self.out: list[str] = []
        self.readers = [
            threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True),
            threading.Thread(target=self.err.extend, args=(self.proc.stderr,), daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next_line(self) -> str:
        """The next line on standard output (a game's line, printed as the game ends)."""
        line = self.lines.get(timeout=GUARD)
        assert line is not None, f"the server left: {''.join(self.err)}"
        self.out.append(line)
        return line

    def finish(self) -> tuple[int, str, str]:
        """Wait for the server to leave: its status, standard output and error."""
        code = self.proc.wait(GUARD)
        for reader in self.readers:
            reader.join(GUARD)
        while (line := self.lines.get(timeout=GUARD)) is not None:
            self.out.append(line)
        return code, "".join(f"{line}\n" for line in self.out), "".join(self.err)

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str, str]:
        """Stop the server with ``sig``, then :meth:`finish`."""
        self.proc.send_signal(sig)
        return self.finish()


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server("--movetime", "0.02", "--name", "Damiera server", "--once")
    yield s
    if s.proc.poll() is None:
        s.proc.kill()
        s.proc.communicate()


@pytest.fixture
def serving(python_sigint: None) -> Iterator[Server]:
    """A server that serves until stopped. Started under ``python_sigint``: a shell starts a
    background job (``make test &``) with SIGINT ignored, a child started from it inherits
    that and Python leaves it so, and the server could never be stopped by SIGINT; with a
    handler here, the child starts with SIGINT at its default, as from a terminal."""
    s = Server("--movetime", "0.02", "--name", "Damiera server")
    yield s
    if s.proc.poll() is None:
        s.proc.kill()
        s.proc.communicate()


def test_our_initiator_plays_two_games_against_our_follower(server: Server) -> None:
    outcomes = connect(f"127.0.0.1:{server.port}", 2, Color.BLACK, 1, 4, movetime=0.02,
                       name="Damiera client", log=io.StringIO())
    assert [o.color for o in outcomes] == [Color.BLACK, Color.WHITE]
    assert [o.plies for o in outcomes] == [8, 8]  # 4 moves each, then GAMEEND (unknown)
    assert {o.opponent for o in outcomes} == {"Damiera server"}
    code, out, _ = server.finish()
    assert code == 0
    assert out.splitlines() == [
        "game 1: unknown for Damiera (white) against Damiera client, 8 plies",
        "game 2: unknown for Damiera (black) against Damiera client, 8 plies"]


def _recv(sock: socket.socket) -> str:
    """One message (read a byte at a time, so that the next one stays in the socket)."""
    data = b""
    while not data.endswith(b"\0"):
        byte = sock.recv(1)
        assert byte, f"connection closed after {data!r}"
        data += byte
    return data[:-1].decode("ascii")


def test_bad_messages_get_an_error_chat_and_the_game_goes_on(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=GUARD) as sock:
        sock.sendall(b"R01" + b"n" * 32 + b"Q010075A\0")
        assert _recv(sock).startswith("Cerror: GAMEREQ: follower's colour must be W or Z")
        sock.sendall(b"C" + b"z" * 1_000_000 + b"\0")
        assert _recv(sock) == f"Cerror: message longer than {MAX_MESSAGE_CHARS} characters: dropped"
        sock.sendall(b"M0000322800\0")
        assert _recv(sock) == "Cerror: MOVE out of turn: no game in progress"
        # A proper request: the follower plays Black, White (this socket) moves first.
        sock.sendall(encode(V, GameReq("raw", Color.BLACK, 0, 0, None)).encode() + b"\0")
        assert _recv(sock).startswith("ADamiera server")
        sock.sendall(b"M0000322300\0")  # 32-23 is no move
        assert "32-23 is not a legal move" in _recv(sock)
        sock.sendall(b"M0000322800\0")
        reply = decode(V, _recv(sock))
        assert isinstance(reply, MoveMsg)
        pos = apply_move(start_position(V), find_move(V, start_position(V),
                                                      MoveMsg(0, 32, 28, ())))
        find_move(V, pos, reply)  # a legal answer
        sock.sendall(b"E01\0")  # unknown result, no next game
        assert _recv(sock) == "E01"
    code, out, _ = server.finish()
    assert code == 0 and "game 1: unknown for Damiera (black)" in out


def test_a_gameend_that_comes_during_the_search_drops_the_move(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=GUARD) as sock:
        # The follower plays White and searches at once; the GAMEEND is already waiting.
        sock.sendall(encode(V, GameReq("raw", Color.WHITE, 0, 0, None)).encode() + b"\0E01\0")
        assert _recv(sock).startswith("A")
        assert _recv(sock) == "E01"  # its answer to the GAMEEND, and no MOVE before it
    code, out, _ = server.finish()
    assert code == 0 and "game 1: unknown for Damiera (white)" in out and "0 plies" in out


def test_a_backreq_takes_the_game_back_and_the_follower_moves_again(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=GUARD) as sock:
        sock.sendall(encode(V, GameReq("raw", Color.WHITE, 0, 0, None)).encode() + b"\0")
        assert _recv(sock).startswith("A")
        first = decode(V, _recv(sock))  # the follower plays White: its first move
        assert isinstance(first, MoveMsg)
        sock.sendall(b"B009W\0")  # move 9 was never reached
        assert _recv(sock) == "K1"
        sock.sendall(b"B001W\0")  # back to the start, White to move: accepted, it moves again
        assert _recv(sock) == "K0"
        again = decode(V, _recv(sock))
        assert isinstance(again, MoveMsg)
        find_move(V, start_position(V), again)
        sock.sendall(b"E01\0")
        assert _recv(sock) == "E01"
    assert server.finish()[0] == 0


def _pydraughts(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """pydraughts' ``draughts`` module and its DXPEngine (skips when it is not installed),
    with two things of its socket changed that have nothing to do with the server: its 7 s
    sleep on closing (not needed on loopback), and its reading, which takes whatever one
    ``recv`` returns for one message (so a MOVE that arrives with the GAMEACC before its
    thread reads, as on a loaded machine, is lost and it waits forever): here it reads up
    to each NUL, as DXP frames messages."""
    draughts = pytest.importorskip("draughts")
    if not hasattr(draughts, "Board"):
        pytest.skip("the installed 'draughts' package is not pydraughts")
    from draughts.engine import DXPEngine  # type: ignore[import-untyped]
    from draughts.engines.dxp_communication import (  # type: ignore[import-untyped]
        dxp_classes,
    )

    def receive(self: Any) -> str:
        data = b""
        while not data.endswith(b"\0"):
            byte = self.sock.recv(1) if self.sock is not None else b""
            if not byte:
                raise ConnectionError("receive exception: socket connection broken")
            data += byte
        return data[:-1].decode("ascii").strip()

    monkeypatch.setattr(dxp_classes, "time", SimpleNamespace(sleep=lambda seconds: None))
    monkeypatch.setattr(dxp_classes.MySocket, "receive", receive)
    return draughts, DXPEngine


def test_pydraughts_dxp_client_plays_against_our_follower(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    draughts, engine_class = _pydraughts(monkeypatch)
    _guarded(lambda: _pydraughts_game(draughts, engine_class, server.port, True, 10))
    code, out, err = server.finish()
    assert code == 0, err
    assert "game 1: unknown for Damiera (white) against DXP Client, 9 plies" in out
    assert "error" not in err


def _pydraughts_game(draughts: Any, engine_class: Any, port: int, damiera_white: bool,
                     plies: int) -> None:
    """One game on its own connection, as pydraughts plays: ``plies`` plies, Damiera
    searching for its colour and pydraughts playing its first legal move, then GAMEEND."""
    engine = engine_class(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port,
                                 "max-moves": 0})
    board = draughts.Board()
    try:
        while len(board.move_stack) < plies:
            if (len(board.move_stack) % 2 == 0) == damiera_white:
                played = engine.play(board).move
                assert played is not None
            else:
                played = board.legal_moves()[0]
            board.push(played)
        assert engine.id["name"] == "Damiera server"
    finally:
        engine.quit()


def _guarded(target: Callable[[], None]) -> None:
    """Run ``target`` in a thread (pydraughts' client waits in busy loops, forever when the
    server has gone) and fail unless it ends within the guard, re-raising its error."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            target()
        except BaseException as exc:  # noqa: BLE001 (handed to the test's thread)
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(GUARD)
    assert not thread.is_alive(), "the client never finished: the server stopped serving"
    if errors:
        raise errors[0]


def test_a_pydraughts_client_plays_four_games_in_a_row_against_one_listener(
        serving: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    draughts, engine_class = _pydraughts(monkeypatch)

    def four_games() -> None:
        for game in range(4):
            _pydraughts_game(draughts, engine_class, serving.port, game % 2 == 0, 6)

    _guarded(four_games)
    lines = [serving.next_line() for _ in range(4)]
    # pydraughts sends its own last move only with its next request: Damiera sees 5 plies
    # of a game where it plays White.
    assert lines == [f"game {n}: unknown for Damiera ({color}) against DXP Client, {plies} plies"
                     for n, color, plies in zip((1, 2, 3, 4), ("white", "black") * 2,
                                                (5, 6) * 2)]
    code, _, err = serving.stop()
    assert code == 0 and "stopped after 4 games" in err
    assert "error" not in err and "Traceback" not in err


def test_the_listener_serves_our_initiators_until_stopped_by_sigint(serving: Server) -> None:
    for color in (Color.WHITE, Color.BLACK):
        outcomes = connect(f"127.0.0.1:{serving.port}", 1, color, 1, 2, movetime=0.02,
                           name="Damiera client", log=io.StringIO())
        assert [o.plies for o in outcomes] == [4]
    assert serving.next_line().startswith("game 1: unknown for Damiera (black)")
    assert serving.next_line().startswith("game 2: unknown for Damiera (white)")
    code, _, err = serving.stop(signal.SIGINT)
    assert code == 0 and "stopped after 2 games" in err and "Traceback" not in err


def test_once_goes_with_listen_only(capsys: pytest.CaptureFixture[str]) -> None:
    from damiera.cli import main

    assert main(["dxp", "--connect", "127.0.0.1:9", "--once"]) == 2
    assert "--once goes with --listen" in capsys.readouterr().err


def test_a_gameend_sent_with_the_winning_move_is_answered_with_reason_0(
        server: Server) -> None:
    # Damiera (the follower) plays Black's last man on 23; White's 28x19 takes it, and the
    # initiator announces its win in the same breath, as many engines do: Damiera answers
    # that GAMEEND (reason 0, unknown, as the protocol's reply) instead of sending its own.
    position = parse_fen(V, "W:W28:B23")
    with socket.create_connection(("127.0.0.1", server.port), timeout=GUARD) as sock:
        sock.sendall(encode(V, GameReq("raw", Color.BLACK, 0, 0, position)).encode() + b"\0")
        assert _recv(sock).startswith("A")
        (capture,) = generate(V, position)
        winning = encode(V, move_message(V, capture, 0))
        sock.sendall(f"{winning}\0E31\0".encode())
        assert _recv(sock) == "E01"
    code, out, _ = server.finish()
    assert code == 0 and "game 1: loss for Damiera (black) against raw, 1 plies" in out


@pytest.mark.parametrize("args,code,words", [
    (["--listen", "99999"], 2, "--listen needs a port number 0-65535"),
    (["--listen", "http"], 2, "--listen needs a port number"),
    (["--connect", "nohost"], 2, "--connect needs HOST:PORT"),
    (["--connect", "127.0.0.1:0"], 2, "port must be 1-65535"),
])
def test_dxp_cli_refuses_bad_addresses_in_one_line(args: list[str], code: int, words: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from damiera.cli import main

    assert main(["dxp", *args]) == code
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_dxp_cli_connect_to_a_closed_port_fails_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from damiera.cli import main

    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    # The port was free a moment ago and nobody listens on it now.
    assert main(["dxp", "--connect", f"127.0.0.1:{port}"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("damiera: error:")


def test_the_game_request_time_is_handed_to_the_search_as_a_game_clock() -> None:
    """The request's minutes, less the time Damiera's moves took, go to the search as a game
    clock with the moves left of the request's number (the core shares it out)."""
    from damiera.engine.dxp import DEFAULT_MOVE_SECONDS, DxpSession
    from damiera.engine.front import Limit
    from damiera.rules.game import Game

    ours, theirs = socket.socketpair()
    with ours, theirs:
        session = DxpSession(ours, level_number=1, log=io.StringIO())
        session.game = Game("international")
        for _ in range(20):  # ten moves each
            session.game.play(session.game.legal_moves[0])
        session.minutes, session.moves_limit, session.seconds_used = 2, 75, 30.0
        assert session._limit() == Limit(remaining=90.0, moves_to_go=65)
        session.moves_limit = 0  # no number of moves: the rest of the game
        assert session._limit() == Limit(remaining=90.0)
        session.seconds_used = 500.0  # past the time: the least think, never a negative clock
        assert session._limit() == Limit(remaining=0.001)
        session.minutes = 0
        assert session._limit() == Limit(time=DEFAULT_MOVE_SECONDS)
        session.movetime = 0.25
        assert session._limit() == Limit(time=0.25)
