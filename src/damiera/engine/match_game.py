"""One game of an engine match (:mod:`damiera.engine.match`): :func:`play_game` plays it
between two players, refereed by the rules core's :class:`~damiera.rules.game.Game` (its
``outcome()``), and returns a :class:`GameRecord` (result, PDN, each side's time).

A Hub engine (``hub:COMMAND``) is played through
:class:`~damiera.engine.hub_client.HubClient`: one engine process a game, started in its own
directory, ``movetime`` (default :data:`HUB_MOVETIME`) seconds a move. A game ends by the
rules, on time, or is adjudicated a draw after :data:`MAX_GAME_PLIES` plies. Time and CPU
time: see :mod:`damiera.engine.match`.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from damiera.engine.front import Engine, Limit
from damiera.engine.match_openings import hub_command
from damiera.engine.search import MAX_CLOCK
from damiera.pdn.writer import write_game
from damiera.rules.game import Game
from damiera.rules.movegen import CoreMove, generate
from damiera.rules.position import Position, write_fen
from damiera.rules.variant import Color, Variant

#: Plies after which an unfinished game is adjudicated a draw.
MAX_GAME_PLIES = 300
#: Seconds a move for a Hub engine when the match gives no ``movetime``.
HUB_MOVETIME = 1.0


@dataclass
class SideTime:
    """One side's time in a game: ``cpu`` (CPU seconds of each of its moves), and with a
    game clock ``left`` (seconds on its clock at the end), ``least`` (the fewest seconds it
    had left after a move, before its increment: how near it came to losing on time) and
    ``flag_fell``."""

    cpu: list[float] = field(default_factory=list)
    left: float | None = None
    least: float | None = None
    flag_fell: bool = False


@dataclass
class GameRecord:
    """One finished game: ``opening`` (FEN), ``white``/``black`` (player names), ``result``
    (+1 White won, 0 draw, -1 Black won), ``reason`` (code; ``time`` for a flag fall),
    ``plies``, and ``pdn``: the whole game as PDN text (:func:`damiera.pdn.writer.write_game`;
    an adjudicated game is a draw with ``[Termination "adjudicated"]``, a game on a clock has
    ``[TimeControl]`` and each move's ``[%clk h:mm:ss.s]``); ``white_time``/``black_time``:
    each side's :class:`SideTime`."""

    opening: str
    white: str
    black: str
    result: int
    reason: str
    plies: int
    pdn: str = ""
    white_time: SideTime = field(default_factory=SideTime)
    black_time: SideTime = field(default_factory=SideTime)


def _clk(seconds: float) -> str:
    """A clock reading as PDN's ``%clk`` writes it, to the tenth: ``0:00:01.8``."""
    tenths = max(0, int(seconds * 10))
    whole = tenths // 10
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}.{tenths % 10}"


def play_game(
    variant: Variant,
    opening: Position,
    white: str,
    black: str,
    movetime: float | None,
    seed: int,
    round_number: int | None = None,
    *,
    cpu_time: bool = False,
    clock: float | None = None,
    increment: float = 0.0,
    books: tuple[bool | None, bool | None] = (None, None),
) -> GameRecord:
    """Play one game from ``opening`` between two players (``1``/``2``/``3``/``random``/
    ``hub:COMMAND``); ``movetime`` seconds per move (None: each level's own time, and
    :data:`HUB_MOVETIME` for a Hub engine), or a game ``clock`` of that many seconds for
    each side with ``increment`` seconds added after each move (a flag fall, the clock at 0
    or below after a move, ends the game; a clock above :data:`MAX_CLOCK` is offered to the
    engine as that);
    ``cpu_time``: both measured on CPU time (see the module's text); ``round_number``: the
    PDN Round tag; ``books``: White's and Black's Engine ``book`` (None, True, False). Raises :class:`~damiera.engine.hub_client.HubClientError` when a Hub
    engine fails."""
    from damiera.engine.hub_client import HubClient

    rng = random.Random(seed)
    players: dict[Color, Engine | HubClient | None] = {}
    times = {Color.WHITE: SideTime(), Color.BLACK: SideTime()}
    left = {Color.WHITE: clock, Color.BLACK: clock}
    comments: list[str | None] = []
    ended: BaseException | None = None  # what ended the game early, if anything
    try:
        for color, name in ((Color.WHITE, white), (Color.BLACK, black)):
            argv = hub_command(name)
            if argv is not None:
                players[color] = HubClient(argv, variant)
            else:
                players[color] = None if name == "random" else Engine(
                    variant, int(name), rng=random.Random(rng.getrandbits(32)),
                    book=books[0 if color is Color.WHITE else 1])
        game = Game(variant, opening)
        while game.outcome() is None and game.ply < MAX_GAME_PLIES:
            pos = game.position
            player = players[pos.turn]
            mine = left[pos.turn]
            move: CoreMove | None
            wall, cpu = time.monotonic(), time.thread_time()
            engine_cpu = player.cpu_seconds() if isinstance(player, HubClient) else None
            if player is None:
                move = rng.choice(generate(variant, pos))
            elif isinstance(player, HubClient):
                if mine is not None:
                    move = player.play(opening, game.move_stack, clock=(mine, increment)).move
                else:
                    move = player.play(opening, game.move_stack, movetime=HUB_MOVETIME
                                       if movetime is None else movetime).move
            else:
                # A clock grown by increments past the search's limit is offered as it.
                limit = (Limit(remaining=min(mine, MAX_CLOCK), increment=increment,
                               cpu_time=cpu_time)
                         if mine is not None else Limit(time=movetime, cpu_time=cpu_time))
                chosen = player.play(game, limit).move
                move = None if chosen is None else chosen.raw
            wall, cpu = time.monotonic() - wall, time.thread_time() - cpu
            if isinstance(player, HubClient):
                after = player.cpu_seconds()
                cpu = after - engine_cpu if after is not None and engine_cpu is not None else wall
            side = times[pos.turn]
            side.cpu.append(cpu)
            assert move is not None  # the game is not over, so there is a legal move
            if mine is not None:
                mine -= cpu if cpu_time else wall
                side.least = mine if side.least is None else min(side.least, mine)
                if mine <= 0:  # time has run out (and no search takes a clock of 0)
                    side.flag_fell = True
                    left[pos.turn] = 0.0
                    game.flag_fall()
                    break
                left[pos.turn] = mine + increment
                comments.append(f"[%clk {_clk(mine + increment)}]")
            game.play(move)
    except BaseException as exc:
        # On a stop (Ctrl-C, or SIGTERM in a match's worker, as SystemExit) the engines are
        # given a moment to quit, then killed (HubClient.close_after): none outlives the match.
        ended = exc
        raise
    finally:
        for p in players.values():
            if isinstance(p, HubClient):
                p.close_after(ended)
    for color, side in times.items():
        side.left = left[color]
    outcome = game.outcome()
    tags = {"Event": "damiera match", "White": white, "Black": black}
    if clock is not None:
        tags["TimeControl"] = f"{clock:g}+{increment:g}"
    if round_number is not None:
        tags["Round"] = str(round_number)
    if outcome is None:
        tags["Termination"] = "adjudicated"
        return GameRecord(write_fen(variant, opening), white, black, 0, "adjudicated",
                          game.ply, write_game(game, tags, result="1/2-1/2",
                                               comments=comments or None),
                          times[Color.WHITE], times[Color.BLACK])
    winner = outcome.winner
    res = 0 if winner is None else (1 if winner is Color.WHITE else -1)
    return GameRecord(write_fen(variant, opening), white, black, res, outcome.reason.value,
                      game.ply, write_game(game, tags, comments=comments or None),
                      times[Color.WHITE], times[Color.BLACK])
