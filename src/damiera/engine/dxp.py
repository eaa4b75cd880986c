"""DXP play: Damiera's engine in International draughts matches over TCP (the messages are in
:mod:`damiera.engine.dxp_protocol`).

``damiera dxp --listen PORT`` serves opponents (*initiators*) until it is stopped (SIGINT or
SIGTERM), one connection after another (an initiator that connects meanwhile waits its
turn; clients such as pydraughts' open one connection per game); ``--once`` serves one
connection and leaves. On a connection it follows the initiator's game requests: it accepts
every GAMEREQ of protocol version 1 (the start position or a set-up one), plays its colour,
and ends the connection when the initiator ends with stop code 1 or hangs up.
``damiera dxp --connect HOST:PORT`` is the initiator: it asks for ``--games`` games, colours
alternating (``--color`` for the first), ``--time`` minutes for ``--moves`` moves each.

In a game: a MOVE is checked against the rules core (an illegal or malformed one is answered
with a CHAT ``error: ...`` and ignored); on its turn the engine searches at ``--level`` for
``--movetime`` seconds, or, by default, on a game clock: the request's thinking time less
the time its own moves took, for the moves left of the request's number (the rest of the
game when it gives none), shared out by the search (:class:`~damiera.engine.Limit`
``remaining``, ``moves_to_go``; :data:`DEFAULT_MOVE_SECONDS` a move when the request gives
no time), and sends its MOVE, unless a
GAMEEND or BACKREQ came during the search (then that is answered and the move dropped). The side
to move when the game ends by the rules (no piece or no legal move; the draws by repetition
and 40 moves without progress) sends GAMEEND with the result from its side, and so does the
side to move once both have played the request's number of moves (reason 0, unknown), as
Scan does; a GAMEEND received is answered with one (reason 0) unless it answers ours. When
the opponent's move ends the game, Damiera first looks for a GAMEEND sent with that move
(waiting up to :data:`END_GRACE` seconds), since many engines announce their own win: that
one is answered (reason 0) instead of crossing it with Damiera's own. A game's result is
the rules' when the game ended by them, else the reason of the GAMEEND.
BACKREQ is accepted when the move number and colour name a position of the game (BACKACC
0, and the engine moves if it is then to move), else refused (BACKACC 1). CHAT text goes to
the log. Every message read is bounded (127 characters) and read once (linear time).
An opponent silent for longer than it may be (``--idle-timeout``, :data:`IDLE_TIMEOUT` by
default, while it has nothing to think over; that plus the game's minutes while it is to move)
is told so in a CHAT and the connection closed (:class:`IdleTimeout`), so that one idle
connection cannot keep the listener from serving the next.
"""

from __future__ import annotations

import contextlib
import select
import socket
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

from damiera.engine.dxp_protocol import (
    BackAcc,
    BackReq,
    Chat,
    DxpError,
    GameAcc,
    GameEnd,
    GameReq,
    Message,
    MessageReader,
    MoveMsg,
    decode,
    encode,
    find_move,
    move_message,
    start_of,
)
from damiera.engine.front import Engine, Limit
from damiera.engine.search import MAX_CLOCK, MAX_MOVETIME
from damiera.rules.game import Game, GameOverError, NoMoveToUndoError
from damiera.rules.variant import VARIANTS, Color, Variant

#: Seconds a move when the game request gives no thinking time.
DEFAULT_MOVE_SECONDS = 1.0
#: Seconds to wait for a connection, and for the opponent's answer to a request or GAMEEND.
CONNECT_TIMEOUT = 30.0
#: Seconds to wait, after the opponent's move ended the game, for its own GAMEEND.
END_GRACE = 0.25
#: Default seconds of silence allowed from an opponent with nothing to think over (``damiera
#: dxp --idle-timeout``); while it is to move in a game, the game's thinking time is added.
IDLE_TIMEOUT = 60.0


class IdleTimeout(TimeoutError):
    """The opponent sent no complete message for longer than it was allowed."""


@dataclass
class GameOutcome:
    """One finished game seen from Damiera: ``color`` it played, ``result`` (``win``,
    ``draw``, ``loss`` or ``unknown``), ``plies``, ``opponent`` (its DXP name)."""

    color: Color
    result: str
    plies: int
    opponent: str

    def line(self, number: int) -> str:
        """The line ``damiera dxp`` prints for game ``number`` (1-based)."""
        return (f"game {number}: {self.result} for Damiera ({self.color.word}) against "
                f"{self.opponent}, {self.plies} plies")


#: Called with a game's number (1-based, counted over every connection) and its outcome
#: as soon as it ends.
OnGame = Callable[[int, GameOutcome], None]


class DxpSession:
    """Damiera on one DXP connection (``sock``), at ``level`` (1-3); ``movetime`` seconds a
    move (None: from the game request's time); ``log`` gets one line per event; ``on_game``
    is called as each game ends, numbered from ``first_game``. ``idle_timeout``: seconds the
    opponent may stay silent (no complete message) while it has nothing to think over: before
    its first message, between games, while Damiera is to move; while the opponent is to move
    in a game, that plus the game's minutes (its whole thinking time). Silence is counted from
    the last complete message either side sent, so a message dribbled a byte at a time does
    not prolong it; past it, :class:`IdleTimeout`."""

    def __init__(self, sock: socket.socket, *, level_number: int = 3,
                 movetime: float | None = None, name: str = "Damiera",
                 log: TextIO | None = None, on_game: OnGame | None = None,
                 first_game: int = 1, idle_timeout: float = IDLE_TIMEOUT):
        self.variant: Variant = VARIANTS["international"]
        self.sock = sock
        self.engine = Engine(self.variant, level_number)
        self.movetime = movetime
        self.name = name
        self.log = log if log is not None else sys.stderr
        self.reader = MessageReader()
        self.game: Game | None = None
        self.my_color = Color.WHITE
        self.minutes = 0
        self.moves_limit = 0
        self.seconds_used = 0.0
        self.opponent = "?"
        self.outcomes: list[GameOutcome] = []
        self.on_game = on_game
        self.first_game = first_game
        self._sent_end = False
        self._pending: list[str | DxpError] = []
        self.idle_timeout = idle_timeout
        self._last_message = time.monotonic()

    # -- plumbing ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        print(text, file=self.log, flush=True)

    def send(self, msg: Message) -> None:
        """Send ``msg``; an opponent that reads nothing for ``idle_timeout`` seconds while it
        is sent raises TimeoutError."""
        self.sock.settimeout(self.idle_timeout)
        self.sock.sendall(encode(self.variant, msg).encode("ascii") + b"\0")
        self._last_message = time.monotonic()

    def silence_allowed(self) -> float:
        """Seconds the opponent may now stay silent (see the class)."""
        game = self.game
        if game is None or self._sent_end or game.turn is self.my_color or game.is_over():
            return self.idle_timeout
        return self.idle_timeout + 60.0 * self.minutes

    def messages(self, timeout: float | None = None) -> Iterator[Message]:
        """Messages from the opponent until it hangs up; a malformed one is answered with a
        CHAT ``error: ...`` (and logged) and skipped. ``timeout``: seconds of silence
        allowed (else :meth:`silence_allowed`); :class:`IdleTimeout` after."""
        while True:
            while self._pending:
                item = self._pending.pop(0)
                try:
                    if isinstance(item, DxpError):
                        raise item
                    yield decode(self.variant, item)
                except DxpError as exc:
                    self._complain(str(exc))
            allowed = timeout if timeout is not None else self.silence_allowed()
            left = self._last_message + allowed - time.monotonic()
            if left <= 0:
                raise IdleTimeout(f"no message from the opponent for {allowed:g} s")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(4096)
            except TimeoutError:
                continue             # the deadline has passed: said above
            if not chunk:
                return
            self._take_in(chunk)

    def _take_in(self, chunk: bytes) -> None:
        """Feed bytes read from the socket to the reader and queue the messages (or errors)
        they complete; a completed message counts as the opponent's latest."""
        items = list(self.reader.feed(chunk))
        if items:
            self._last_message = time.monotonic()
        self._pending.extend(items)

    def _complain(self, text: str) -> None:
        self.say(f"error: {text}")
        try:
            self.send(Chat(f"error: {text}"))
        except OSError:
            pass

    # -- the game ----------------------------------------------------------------------------
    def start_game(self, req: GameReq, my_color: Color) -> None:
        self.game = Game(self.variant, start_of(self.variant, req))
        self.my_color = my_color
        self.minutes, self.moves_limit = req.minutes, req.moves
        self.seconds_used = 0.0
        self._sent_end = False
        self.say(f"game {self.first_game + len(self.outcomes)}: Damiera plays "
                 f"{my_color.word} against {self.opponent}")

    def handle(self, msg: Message) -> bool:
        """React to one message in a game; returns False when the connection should end
        (a GAMEEND with stop code 1)."""
        if isinstance(msg, Chat):
            self.say(f"chat: {msg.text}")
        elif isinstance(msg, MoveMsg):
            self._their_move(msg)
        elif isinstance(msg, GameEnd):
            return self._their_end(msg)
        elif isinstance(msg, BackReq):
            self._back(msg)
        elif isinstance(msg, BackAcc):
            pass  # Damiera never asks to go back
        elif isinstance(msg, GameAcc):
            self._complain("GAMEACC out of turn: no game request pending")
        return True

    def _their_move(self, msg: MoveMsg) -> None:
        game = self.game
        if game is None or self._sent_end:
            self._complain("MOVE out of turn: no game in progress")
            return
        if game.turn is self.my_color:
            self._complain("MOVE out of turn: it is Damiera's move")
            return
        if game.is_over():
            self._end_by_rules()
            return
        try:
            game.play(find_move(self.variant, game.position, msg))
        except DxpError as exc:
            self._complain(str(exc))
            return
        if game.is_over() and self._gameend_waiting(END_GRACE):
            return  # the opponent announced the end itself: answered next, with reason 0
        self.act()

    def act(self) -> None:
        """Damiera's turn: end the game if it is over, else search and send the move."""
        game = self.game
        if game is None or self._sent_end or game.turn is not self.my_color:
            return
        if game.is_over():
            self._end_by_rules()
            return
        if self.moves_limit and game.ply >= 2 * self.moves_limit:
            self._send_end("0", "unknown")
            return
        started = time.monotonic()
        result = self.engine.play(game, self._limit())
        assert result.move is not None  # the game is not over
        used = time.monotonic() - started
        if self._interrupted():
            return  # a GAMEEND or BACKREQ came during the search: answered next, move unsent
        self.seconds_used += used
        game.play(result.move)
        self.send(move_message(self.variant, result.move.raw, round(used)))
        if game.is_over():  # the opponent can do nothing more: say so now
            self._end_by_rules()

    def _arrived(self, heads: str, wait: float = 0.0) -> bool:
        """True when a message whose first character is in ``heads`` has arrived; reads what
        the socket holds, waiting up to ``wait`` seconds for such a message."""
        deadline = time.monotonic() + wait
        while True:
            if any(isinstance(item, str) and item[:1] in heads for item in self._pending):
                return True
            left = deadline - time.monotonic()
            if not select.select([self.sock], [], [], max(0.0, left))[0]:
                return False
            chunk = self.sock.recv(4096)
            if not chunk:
                return False
            self._take_in(chunk)

    def _interrupted(self) -> bool:
        """True when a GAMEEND or BACKREQ has arrived (read without waiting), which makes
        the move just searched moot."""
        return self._arrived("EB")

    def _gameend_waiting(self, wait: float) -> bool:
        """True when the opponent's GAMEEND has arrived or arrives within ``wait`` seconds."""
        return self._arrived("E", wait)

    def _limit(self) -> Limit:
        """This move's limit: ``--movetime``, else the game clock (the request's minutes
        less the seconds Damiera's moves took; at least a millisecond) with the moves left
        of the request's number."""
        if self.movetime is not None:
            return Limit(time=min(self.movetime, MAX_MOVETIME))
        if self.minutes <= 0:
            return Limit(time=DEFAULT_MOVE_SECONDS)
        assert self.game is not None
        played = self.game.ply // 2
        remaining = min(MAX_CLOCK, max(0.001, self.minutes * 60 - self.seconds_used))
        to_go = max(1, self.moves_limit - played) if self.moves_limit else None
        return Limit(remaining=remaining, moves_to_go=to_go)

    def _rules_result(self) -> tuple[str, str] | None:
        """``(GAMEEND reason, result)`` from Damiera's side when the rules ended the game."""
        if self.game is None or self.game.result is None:
            return None
        winner = self.game.result.winner
        if winner is None:
            return "2", "draw"
        return ("3", "win") if winner is self.my_color else ("1", "loss")

    def _end_by_rules(self) -> None:
        ended = self._rules_result()
        assert ended is not None
        self._send_end(*ended)

    def _send_end(self, reason: str, result: str) -> None:
        self._sent_end = True
        self.send(GameEnd(reason, self.stop_code()))
        self._record(result)

    def stop_code(self) -> str:
        """GAMEEND stop code: ``0`` (a next game is welcome) for the follower."""
        return "0"

    def _their_end(self, msg: GameEnd) -> bool:
        if self.game is not None and not self._sent_end:
            ended = self._rules_result()
            claimed = {"0": "unknown", "1": "win", "2": "draw", "3": "loss"}[msg.reason]
            self._record(ended[1] if ended is not None else claimed)
            self.send(GameEnd("0", msg.stop))
        self.game = None
        self._sent_end = False
        return msg.stop != "1"

    def _record(self, result: str) -> None:
        assert self.game is not None
        outcome = GameOutcome(self.my_color, result, self.game.ply, self.opponent)
        self.outcomes.append(outcome)
        number = self.first_game + len(self.outcomes) - 1
        self.say(f"game {number} over: {result} for Damiera ({self.my_color.word}) "
                 f"after {outcome.plies} plies")
        if self.on_game is not None:
            self.on_game(number, outcome)

    def _back(self, msg: BackReq) -> None:
        game = self.game
        if game is None or self._sent_end:
            self.send(BackAcc("1"))
            return
        # The ply at which move ``number`` is to be played by ``color``, counted from the
        # game's first move (a set-up position where Black moves first starts at ply 0 too).
        first = game.start.turn
        ply = 2 * (msg.move_number - 1) + (0 if msg.color is first else 1)
        if not 0 <= ply <= game.ply:
            self.send(BackAcc("1"))
            return
        try:
            if ply < game.ply:
                game.undo(game.ply - ply)
        except (GameOverError, NoMoveToUndoError):
            self.send(BackAcc("1"))
            return
        self.send(BackAcc("0"))
        self.say(f"went back to move {msg.move_number}, {msg.color.word} to move")
        self.act()


class Follower(DxpSession):
    """The listening side: accepts game requests and plays them."""

    def run(self) -> list[GameOutcome]:
        """Serve the connection until the initiator leaves; returns the games played."""
        for msg in self.messages():
            if isinstance(msg, GameReq):
                if self.game is not None and not self._sent_end:
                    self._complain("GAMEREQ during a game")
                    continue
                if msg.version != 1:
                    self.send(GameAcc(self.name, "1"))
                    continue
                self.opponent = msg.name or "?"
                self.send(GameAcc(self.name, "0"))
                self.start_game(msg, msg.follower_color)
                self.act()
            elif not self.handle(msg):
                break
        return self.outcomes


class Initiator(DxpSession):
    """The connecting side: asks for ``games`` games and plays them."""

    games = 1
    next_color = Color.WHITE

    def stop_code(self) -> str:
        """GAMEEND stop code: ``1`` after the last game."""
        return "1" if len(self.outcomes) + 1 >= self.games else "0"

    def run(self, games: int, color: Color, minutes: int, moves: int) -> list[GameOutcome]:
        """Play ``games`` games, Damiera's colour ``color`` first then alternating; returns
        them. Raises DxpError when the follower refuses a game request."""
        self.games = games
        for i in range(games):
            mine = color if i % 2 == 0 else color.opponent
            req = GameReq(self.name, mine.opponent, minutes, moves, None)
            self.send(req)
            acc = next((m for m in self.messages(CONNECT_TIMEOUT) if isinstance(m, GameAcc)),
                       None)
            if acc is None:
                raise DxpError("the follower hung up before accepting the game")
            if acc.code != "0":
                raise DxpError(f"the follower ({acc.name or '?'}) refused the game "
                               f"(acceptance code {acc.code})")
            self.opponent = acc.name or "?"
            self.start_game(req, mine)
            self.act()
            for msg in self.messages():
                self.handle(msg)
                if self.game is None:  # a GAMEEND came: the follower's, or its answer to ours
                    break
            else:
                break  # the follower hung up
        return self.outcomes


def _address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` -> ``(host, port)``; ValueError with the reason."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit() and len(port) <= 5):
        raise ValueError(f"--connect needs HOST:PORT, not {text[:60]!r}")
    number = int(port)
    if not 1 <= number <= 65535:
        raise ValueError(f"port must be 1-65535, not {number}")
    return host.strip("[]"), number


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or int(text) > 65535:
        raise ValueError(f"--listen needs a port number 0-65535 (0: any free port), "
                         f"not {text[:60]!r}")
    return int(text)


def listen(port_text: str, host: str, out: TextIO, *, once: bool = False,
           level_number: int = 3, movetime: float | None = None, name: str = "Damiera",
           log: TextIO | None = None, on_game: OnGame | None = None,
           idle_timeout: float = IDLE_TIMEOUT) -> list[GameOutcome]:
    """``damiera dxp --listen``: bind ``host:port`` (port 0: one the system picks), say
    ``listening on HOST:PORT`` on ``out``, then follow initiators one connection after
    another until interrupted (KeyboardInterrupt, which the CLI raises for SIGINT and
    SIGTERM, goes up to the caller), or only the first with ``once``. ``on_game`` is called
    as each game ends (numbered over every connection). Returns the games played (with
    ``once``; serving on, it keeps only their count). ValueError for a bad port, OSError
    when the address cannot be bound; a connection that fails (reset, broken pipe, an
    opponent silent past ``idle_timeout``: see :class:`DxpSession`, told so in a CHAT) is
    logged and closed, and the next one served, except with ``once``, where its OSError is
    raised. What ``on_game`` raises, and an OSError writing ``out``, is the caller's, not the
    connection's: it goes up to the caller (the CLI's standard output is gone: it stops)."""
    port = _port(port_text)
    count = 0  # games played over every connection
    say = log if log is not None else sys.stderr
    failed: list[BaseException] = []  # what on_game raised

    def game_over(number: int, outcome: GameOutcome) -> None:
        if on_game is not None:
            try:
                on_game(number, outcome)
            except BaseException as exc:
                failed.append(exc)
                raise

    with socket.create_server((host, port)) as server:
        bound = server.getsockname()
        print(f"listening on {bound[0]}:{bound[1]}", file=out, flush=True)
        while True:
            conn, peer = server.accept()
            with conn:
                follower = Follower(conn, level_number=level_number, movetime=movetime,
                                    name=name, log=log, on_game=game_over,
                                    first_game=count + 1, idle_timeout=idle_timeout)
                follower.say(f"connection from {peer[0]}:{peer[1]}")
                try:
                    follower.run()
                except OSError as exc:
                    if isinstance(exc, IdleTimeout):
                        with contextlib.suppress(OSError):
                            follower.send(Chat(f"closing the connection: {exc}"))
                    if once or failed:
                        raise
                    print(f"connection from {peer[0]}:{peer[1]} lost: "
                          f"{exc.strerror or exc}", file=say, flush=True)
                count += len(follower.outcomes)
            if once:
                return follower.outcomes


def connect(address: str, games: int, color: Color, minutes: int, moves: int, *,
            level_number: int = 3, movetime: float | None = None, name: str = "Damiera",
            log: TextIO | None = None, on_game: OnGame | None = None,
            idle_timeout: float = IDLE_TIMEOUT) -> list[GameOutcome]:
    """``damiera dxp --connect``: play ``games`` games as the initiator; ``on_game`` is
    called as each ends. ValueError for a bad address, OSError when the connection fails
    (:class:`IdleTimeout` when the follower stays silent too long, see
    :class:`DxpSession`), DxpError when a game is refused."""
    host, port = _address(address)
    with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT) as sock:
        initiator = Initiator(sock, level_number=level_number, movetime=movetime, name=name,
                              log=log, on_game=on_game, idle_timeout=idle_timeout)
        return initiator.run(games, color, minutes, moves)
