"""Engine commands of the ``damiera`` CLI: ``bestmove``, ``analyse``, ``match``, ``hub`` and
``dxp``, all searching through :class:`damiera.engine.Engine`.

``damiera bestmove VARIANT [--fen FEN] [--level 1|2|3] [--movetime S] [--depth N]
[--cpu-time] [--endgame-pieces N] [--optional-capture]`` prints one ``depth D score S nodes N nps X pv ...`` line per finished
iteration, then ``bestmove MOVE``; exit 1 when the game is over (the side to move has no
legal move, or a side has no pieces). ``--movetime`` is at most 3600 s
(:data:`~damiera.engine.search.MAX_MOVETIME`) and ``--depth`` at most 30
(:data:`~damiera.engine.search.MAX_DEPTH`: deeper fixed searches from a middlegame would run
for hours); ``--depth`` alone is searched in full, but stops after 3600 s all the same.
``--cpu-time`` measures the time on the search thread's CPU time instead of the wall clock
(on a loaded machine the search still computes for the time it was given).
``--endgame-pieces N`` probes the endgame database of up to N pieces on 8x8 and 10x10 boards
(0: none; more than 4 on 8x8 and 3 on 10x10 only from the files ``damiera egdb build`` wrote;
default: the level's, 3 on 8x8 at levels 2 and 3, none on 10x10).

``damiera analyse VARIANT [--fen FEN] [--multipv N] [--movetime S] [--depth D] [--cpu-time]``
prints,
after every finished iteration, one info line per line of play (``depth D [multipv K] score
S nodes N nps X pv ...``, ``multipv`` only when N > 1), then ``bestmove MOVE``
(:mod:`damiera.engine.analysis`); default 2 s, exit 1 when the game is over, as ``bestmove``.

``damiera match VARIANT --first PLAYER --second PLAYER --games N [--movetime S | --tc
SECONDS+INCREMENT] [--cpu-time] [--openings FILE] [--json]`` plays a match (levels 1-3,
``random``, or ``hub:COMMAND`` for a Hub engine by path, e.g. ``--second "hub:/opt/scan/scan
hub"``) with a progress bar on stderr and prints W/D/L and the Elo difference with its 95%
interval, the pairs of games (one opening, colours swapped: ``pairs 50: 2-0 10, 1.5-0.5 20,
1-1 15, 0.5-1.5 5, 0-2 0; 95% interval from pairs +151 .. +262``, the first player's points
first, the interval with the pair as the unit from 10 pairs on), each player's CPU seconds a
move (mean and max) and, with ``--tc`` (a game clock:
``60+0.5`` is 60 s a side and 0.5 s added after each move; a flag fall loses), each player's
flag falls and least time left; with ``--json`` the last line is one JSON object
(:class:`~damiera.engine.match.MatchResult`). ``--cpu-time`` times the moves and the clocks
on CPU time (:mod:`damiera.engine.match`). A Hub engine that fails (cannot start, exits, answers nothing in time,
plays an illegal move) ends the match with one line on stderr and exit status 1. A match
stopped by Ctrl-C, SIGTERM or SIGHUP prints the same summary of the games finished so far (the games
under way are abandoned), its first line saying ``stopped after K of N games`` (``--json``:
``"stopped": true, "played": K``; with no game finished, ``no game finished: no score`` and
nulls for the numbers), and exits with status 128 + the first signal's number: 130 (Ctrl-C),
143 (SIGTERM) or 129 (SIGHUP: a closed terminal; ignored by a match started with ``nohup``).
A ``--jobs`` worker that dies ends the match with one line on stderr and exit
status 1 (:class:`~damiera.engine.match.MatchWorkerError`).

``damiera hub`` serves the Hub protocol (see :mod:`damiera.engine.hub`); ``damiera dxp
--listen PORT [--once] | --connect HOST:PORT`` plays International draughts over DXP (see
:mod:`damiera.engine.dxp`): one line per game on stdout as it ends; ``--listen`` serves
until SIGINT or SIGTERM (then exit 0), or one connection with ``--once``; exit 1 when the
connection fails (``--once``, ``--connect``) or a game is refused.

Bad input exits with status 2 and one line on stderr (raised as the CLI's ``UsageError``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

from damiera.cli.common import OutputError, UsageError, add_rule_options, int_in
from damiera.engine.analysis import score_text
from damiera.engine.egdb_files import MAX_DISK_PIECES, EgdbFileError, unsupported
from damiera.engine.front import Info
from damiera.engine.search import MAX_CLOCK, MAX_DEPTH, MAX_MOVETIME
from damiera.processes import signals_to_take
from damiera.rules.position import Position
from damiera.rules.variant import Variant


def _positive_float(text: str, what: str, most: float = MAX_MOVETIME) -> float:
    """A positive number of seconds up to ``most``; a usage error if not."""
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"{what} must be a number of seconds, not {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise UsageError(f"{what} must be a positive number of seconds, not {text!r}")
    if value > most:
        raise UsageError(f"{what} must be at most {most:g} seconds, not {text!r}")
    return value


#: Longest ``damiera match --tc`` text read (characters).
MAX_TC_CHARS = 40
_TIME_CONTROL = re.compile(r"([0-9]+(?:\.[0-9]*)?)(?:\+([0-9]+(?:\.[0-9]*)?))?")


def time_control(text: str) -> tuple[float, float]:
    """``SECONDS+INCREMENT`` (``60+0.5``; ``60`` alone: no increment) as ``(seconds,
    increment)``; a usage error for another text, a clock not above 0 or above
    :data:`~damiera.engine.search.MAX_CLOCK`, or an increment above
    :data:`~damiera.engine.search.MAX_MOVETIME`."""
    found = _TIME_CONTROL.fullmatch(text.strip()) if len(text) <= MAX_TC_CHARS else None
    if found is None:
        raise UsageError(f"--tc must be seconds for the game and seconds added a move, such "
                         f"as 60+0.5, not {text[:MAX_TC_CHARS]!r}")
    base, inc = float(found.group(1)), float(found.group(2) or 0)
    if not 0 < base <= MAX_CLOCK:
        raise UsageError(f"--tc: the clock must be above 0 and at most {MAX_CLOCK:g} seconds, "
                         f"not {found.group(1)}")
    if inc > MAX_MOVETIME:
        raise UsageError(f"--tc: the increment must be at most {MAX_MOVETIME:g} seconds, "
                         f"not {found.group(2)}")
    return base, inc


#: Longest ``damiera dxp --idle-timeout``: a day.
MAX_IDLE_TIMEOUT = 86400.0


def _game_over(v: Variant, pos: Position) -> bool:
    """True, after one line on stderr saying why, when the game is over in ``pos`` (the side to
    move has no legal move, or a side has no pieces: :meth:`Game.outcome` decides)."""
    from damiera.rules.game import Game, ResultReason

    outcome = Game(v, pos).outcome()  # the one place that decides a game's end
    if outcome is None:
        return False
    if outcome.reason is ResultReason.NO_PIECES and outcome.winner is not None:
        loser = outcome.winner.opponent.word
        print(f"game over: {loser} has no pieces and has lost", file=sys.stderr)
    elif outcome.reason is not ResultReason.NO_MOVES:  # a goal option's end
        print(f"game over: {outcome.describe(v)}", file=sys.stderr)
    else:
        print(f"no legal move: {pos.turn.word} to move has lost", file=sys.stderr)
    return True


def _book_switch(text: str | None) -> bool | None:
    """``--book on|off`` as the Engine's ``book`` (None: the level's choice)."""
    return None if text is None else text == "on"


def _cmd_bestmove(args: argparse.Namespace) -> int:
    from damiera.cli.common import load_position, variant_of
    from damiera.engine.front import Engine, Limit
    from damiera.rules.game import Game

    v = variant_of(args)
    pos = load_position(v, args.fen)
    lv = int_in(args.level, "level", 1, 3)
    movetime = _positive_float(args.movetime, "movetime") if args.movetime is not None else None
    depth = int_in(args.depth, "depth", 1, MAX_DEPTH) if args.depth is not None else None
    cpu = args.cpu_time
    if _game_over(v, pos):
        return 1

    def info(i: Info) -> None:
        pv = " ".join(str(m) for m in i.pv)
        print(
            f"depth {i.depth} score {score_text(i.score)} nodes {i.nodes} nps {i.nps} pv {pv}",
            flush=True,
        )

    pieces = (int_in(args.endgame_pieces, "endgame-pieces", 0, MAX_DISK_PIECES)
              if args.endgame_pieces is not None else None)
    if pieces == 1:
        raise UsageError("endgame-pieces must be 0 (none) or from 2 to "
                         f"{MAX_DISK_PIECES}, not 1")
    if pieces and (reason := unsupported(v)) is not None:
        # Engine() quietly probes nothing here; asked for by name, the user hears why.
        raise UsageError(f"endgame-pieces: {reason}")
    try:
        engine = Engine(v, lv, endgame_pieces=pieces, book=_book_switch(args.book))
    except EgdbFileError as exc:
        raise UsageError(f"{exc} (delete the file and build it again with damiera egdb "
                         "build)") from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    with engine:
        limit = Limit(time=movetime, depth=depth, cpu_time=cpu)
        if depth is not None and movetime is None:
            # A fixed depth alone is searched in full (no clock but the MAX_MOVETIME safety
            # stop), whatever the level.
            result = engine.analyse(Game(v, pos),
                                    Limit(time=MAX_MOVETIME, depth=depth, cpu_time=cpu),
                                    on_info=info)
        else:
            result = engine.choose([pos], limit, on_info=info)
    assert result.move is not None
    print(f"bestmove {result.move}")
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    from damiera.cli.common import load_position, variant_of
    from damiera.engine.analysis import MAX_MULTIPV, Line, analyse, line_text

    v = variant_of(args)
    pos = load_position(v, args.fen)
    multipv = int_in(args.multipv, "multipv", 1, MAX_MULTIPV)
    movetime = _positive_float(args.movetime, "movetime") if args.movetime is not None else None
    depth = int_in(args.depth, "depth", 1, MAX_DEPTH) if args.depth is not None else None
    if movetime is None and depth is None:
        movetime = 2.0
    if _game_over(v, pos):
        return 1

    def show(lines: list[Line]) -> None:
        for line in lines:
            print(line_text(v, line, multipv), flush=True)

    lines = analyse(v, pos, multipv=multipv, movetime=movetime, depth=depth, on_lines=show,
                    cpu_time=args.cpu_time)
    assert lines, "a position that is not over has a legal move"
    print(f"bestmove {lines[0].pv[0]}")
    return 0


class _PdnWriteError(Exception):
    """Writing a game to ``match --pdn`` failed (disk full, pipe closed, ...)."""

    def __init__(self, exc: OSError):
        super().__init__(exc)
        self.reason = exc.strerror or str(exc)


def _same_file(a: str, b: str) -> bool:
    """True when the paths ``a`` and ``b`` both exist and name one file."""
    import os

    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _cmd_match(args: argparse.Namespace) -> int:
    from damiera.cli.common import variant_of
    from damiera.engine.hub_client import HubClientError
    from damiera.engine.match import (
        GameRecord,
        MatchStopped,
        MatchWorkerError,
        check_player,
        read_openings,
        run_match,
    )

    v = variant_of(args)
    players: list[str] = []
    cannot_start: HubClientError | None = None  # reported once the input is known good
    for name in (args.first, args.second):
        try:
            players.append(check_player(name))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        except HubClientError as exc:
            cannot_start = cannot_start or exc
            players.append(name)
    games = int_in(args.games, "games", 1, 100_000)
    jobs = int_in(args.jobs, "jobs", 1, 64)
    movetime = _positive_float(args.movetime, "movetime") if args.movetime is not None else None
    clock = time_control(args.tc) if args.tc is not None else None
    if clock is not None and movetime is not None:
        raise UsageError("--movetime and --tc: give a time a move or a game clock, not both")
    openings = None
    if args.openings is not None:
        try:
            openings = read_openings(v, args.openings)
        except OSError as exc:
            raise UsageError(f"cannot read {args.openings}: {exc.strerror}") from None
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if cannot_start is not None:  # an engine that cannot start fails the match (status 1)
        print(f"damiera: error: {cannot_start}", file=sys.stderr)
        return 1
    first, second = players

    def bar(it: Iterator[Any], total: int) -> Iterator[Any]:
        from tqdm import tqdm  # type: ignore[import-untyped]

        return iter(tqdm(it, total=total, desc=f"{first} vs {second}", unit="game",
                         file=sys.stderr, disable=args.quiet))

    pdn_file = None
    if args.pdn is not None:
        if args.openings is not None and _same_file(args.pdn, args.openings):
            raise UsageError(f"--pdn {args.pdn} is the openings file: writing the games "
                             "there would destroy it")
        try:
            pdn_file = open(args.pdn, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise UsageError(f"cannot write {args.pdn}: {exc.strerror}") from None
    written = 0

    def save(i: int, record: GameRecord) -> None:
        """Append a finished game to --pdn at once, so an interrupted match keeps its games
        (counted, not asked of the file: a pipe cannot tell its position)."""
        nonlocal written
        assert pdn_file is not None
        try:
            pdn_file.write(("\n" if written else "") + record.pdn)
            pdn_file.flush()
        except OSError as exc:
            raise _PdnWriteError(exc) from None
        written += 1

    stopped_by: list[int] = []  # the signal that stopped the match, if one did
    stopped = False
    try:
        try:
            with _signals_interrupt((signal.SIGINT, signal.SIGTERM, signal.SIGHUP),
                                   stopped_by):
                result, _records = run_match(
                    v, first, second, games, movetime=movetime, openings=openings,
                    jobs=jobs, seed=args.seed, progress=bar,
                    on_game=save if pdn_file is not None else None,
                    cpu_time=args.cpu_time, clock=None if clock is None else clock[0],
                    increment=0.0 if clock is None else clock[1],
                    books=(_book_switch(args.first_book), _book_switch(args.second_book)),
                )
        except MatchStopped as exc:
            result, stopped = exc.result, True
        finally:
            if pdn_file is not None:
                try:
                    pdn_file.close()
                except OSError as exc:
                    raise _PdnWriteError(exc) from None
    except (HubClientError, MatchWorkerError) as exc:
        print(f"damiera: error: {exc}", file=sys.stderr)
        return 1
    except _PdnWriteError as exc:
        print(f"damiera: error: cannot write {args.pdn}: {exc.reason}", file=sys.stderr)
        return 1
    timing = (f" at {movetime:g} s a move" if movetime else
              f" on a {clock[0]:g}+{clock[1]:g} clock" if clock else "")
    count = (f"stopped after {result.played} of {games} game{'' if games == 1 else 's'}"
             if stopped else f"{games} game{'' if games == 1 else 's'}")
    print(f"{first} vs {second} in {v.display_name}, {count}"
          + timing + (" (CPU time)" if args.cpu_time else ""))
    if stopped and not result.played:
        print("no game finished: no score")
    else:
        print(f"wins {result.wins}  draws {result.draws}  losses {result.losses}  "
              f"score {100 * result.score:.1f}%")
        # An interval open on one side (0% or 100%) has no half-width to show.
        half = f", +-{result.elo_error:.0f}" if math.isfinite(result.elo_error) else ""
        print(f"Elo difference {result.elo:+.0f} (95% interval {result.elo_low:+.0f} .. "
              f"{result.elo_high:+.0f}{half})")
        pairs = result.pair_line()
        for line in [*([pairs] if pairs else []), *result.time_lines()]:
            print(line)
    if args.json:
        print(json.dumps(result.as_dict()))
    if stopped:  # the shell's status for a process ended by the signal: 128 + its number
        return 128 + (stopped_by[0] if stopped_by else signal.SIGINT)
    return 0


@contextlib.contextmanager
def _signals_interrupt(signums: tuple[int, ...],
                       caught: list[int] | None = None) -> Iterator[None]:
    """The signals ``signums`` raise KeyboardInterrupt, as Ctrl-C does, while the block runs,
    so that a command stopped by any of them ends the same way (SIGTERM: a user's ``kill`` or a
    batch system's stop; SIGHUP: the terminal closed); each is noted in ``caught`` in the
    order they came (for a match, the first gives the exit status). Only the first raises:
    a later one, of the same signal or another, lands while the first is being handled (the
    command stopping, its workers or Hub engines being closed) and is only noted, so that
    the command still stops as the first asked. The order is the order of arrival, read from
    :func:`signal.set_wakeup_fd`'s bytes: signals that came during a C call (a wait for a
    game) have their handlers run after it in the order of their numbers (SIGINT before
    SIGTERM). Two signals pending at once (the process did not run between them) have no
    order: the kernel picks one (Linux: the higher-numbered). The old handlers are put back
    after. SIGHUP is left ignored where it was (a command started with ``nohup``). Left alone
    outside the main thread, where no handler can be set."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    taken: list[int] = []
    arrivals, wakeup = os.pipe()
    os.set_blocking(arrivals, False)
    os.set_blocking(wakeup, False)
    old_wakeup = signal.set_wakeup_fd(wakeup, warn_on_full_buffer=False)

    def stop(signum: int, _frame: object) -> None:
        try:
            came = [n for n in os.read(arrivals, 256) if n in signums]
        except BlockingIOError:  # its byte was read with an earlier signal's
            came = []
        if not came and signum not in taken:
            came = [signum]
        if caught is not None:
            caught.extend(came)
        taken.extend(came)
        if came and len(taken) == len(came):  # the first call with a signal of its own
            raise KeyboardInterrupt

    # SIGHUP ignored from the start (nohup) stays ignored: the terminal's closing is not a stop.
    old = {signum: signal.signal(signum, stop) for signum in signals_to_take(signums)}
    try:
        yield
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)
        signal.set_wakeup_fd(old_wakeup)
        os.close(arrivals)
        os.close(wakeup)


def register(sub: Any) -> None:
    """Add the ``bestmove`` and ``match`` subcommands to the CLI's subparsers."""
    p = sub.add_parser("bestmove", help="search a position and print the best move")
    p.add_argument("variant")
    p.add_argument("--fen", help="position in FEN (default: the start position)")
    p.add_argument("--level", default="3", help="playing level 1, 2 or 3 (default 3)")
    p.add_argument("--movetime",
                   help="seconds for the search, at most 3600 (default: the level's)")
    p.add_argument("--depth", help="fixed depth in plies, 1-30 (alone: searched in full, "
                                   "stopped after 3600 s at most)")
    p.add_argument("--cpu-time", action="store_true",
                   help="measure the time on the search's CPU time, not the wall clock")
    p.add_argument("--book", choices=["on", "off"],
                   help="play from the opening book (default: level 3 when there is one)")
    p.add_argument("--endgame-pieces", metavar="N",
                   help=f"probe the endgame database of up to N pieces, 0-{MAX_DISK_PIECES} "
                        "(8x8 and 10x10; more than 4 on 8x8 and 3 on 10x10 read from the "
                        "files of 'damiera egdb build'; default: the level's, none on 10x10)")
    add_rule_options(p)
    p.set_defaults(func=_cmd_bestmove)

    p = sub.add_parser("analyse", help="the engine's best lines in a position, as it thinks")
    p.add_argument("variant")
    p.add_argument("--fen", help="position in FEN (default: the start position)")
    p.add_argument("--multipv", default="1", help="number of lines, 1-10 (default 1)")
    p.add_argument("--movetime", help="seconds for the search, at most 3600 (default 2, "
                                      "or none with --depth)")
    p.add_argument("--depth", help="fixed depth in plies, 1-30")
    p.add_argument("--cpu-time", action="store_true",
                   help="measure the time on the search's CPU time, not the wall clock")
    add_rule_options(p)
    p.set_defaults(func=_cmd_analyse)

    p = sub.add_parser("match", help="play games between levels and measure Elo")
    p.add_argument("variant")
    p.add_argument("--first", required=True,
                   help="1, 2, 3, random, or hub:COMMAND (a Hub engine: its path and arguments)")
    p.add_argument("--second", required=True, help="as --first")
    p.add_argument("--first-book", choices=["on", "off"],
                   help="--first plays from the opening book (default: level 3 when there is one)")
    p.add_argument("--second-book", choices=["on", "off"], help="as --first-book")
    p.add_argument("--games", required=True, help="number of games (colours alternate)")
    p.add_argument("--movetime", help="seconds a move, at most 3600 (default: each level's own)")
    p.add_argument("--tc", metavar="SECONDS+INCREMENT",
                   help="a game clock instead: seconds a side for the game and seconds added "
                        "after each move, e.g. 60+0.5 (a flag fall loses)")
    p.add_argument("--cpu-time", action="store_true",
                   help="time the moves and clocks on CPU time, not the wall clock")
    p.add_argument("--openings", metavar="FILE", help="FENs, one per line (default: random)")
    p.add_argument("--jobs", default="1", help="games played in parallel (processes)")
    p.add_argument("--seed", type=int, default=1, help="seed for openings and weaker moves")
    add_rule_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="last line: one JSON object")
    p.add_argument("--pdn", metavar="FILE",
                   help="write every game to FILE as PDN, each as it ends")
    p.set_defaults(func=_cmd_match)

    p = sub.add_parser("hub", help="serve the Hub protocol (version 2) on stdin/stdout")
    p.set_defaults(func=_cmd_hub)

    p = sub.add_parser("dxp", help="play International draughts over DXP (DamExchange)")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--listen", metavar="PORT",
                       help="serve opponents on this port until stopped (0: any free port)")
    where.add_argument("--connect", metavar="HOST:PORT", help="ask an opponent for games")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default "
                                                       "127.0.0.1)")
    p.add_argument("--once", action="store_true",
                   help="serve one connection, then leave (--listen)")
    p.add_argument("--level", default="3", help="playing level 1, 2 or 3 (default 3)")
    p.add_argument("--movetime", help="seconds a move (default: the game's time shared out)")
    p.add_argument("--games", default="1", help="games to ask for (--connect; default 1)")
    p.add_argument("--color", default="white", choices=["white", "black"],
                   help="Damiera's colour in the first game (--connect); then alternating")
    p.add_argument("--time", default="10", help="minutes of thinking time (--connect)")
    p.add_argument("--moves", default="75", help="moves for that time; the game ends after "
                                                 "them (--connect; 0: no limit)")
    p.add_argument("--name", default="Damiera", help="name sent to the opponent")
    p.add_argument("--idle-timeout", default=None, metavar="SECONDS",
                   help="seconds the opponent may send nothing while it has nothing to think "
                   "over (before its first message, between games), after which the "
                   "connection is closed; while it is to move in a game, the game's time is "
                   "added (default 60)")
    p.set_defaults(func=_cmd_dxp)


def _cmd_hub(args: argparse.Namespace) -> int:
    from damiera.engine.hub import main as hub_main

    return hub_main()


def _cmd_dxp(args: argparse.Namespace) -> int:
    from damiera.engine.dxp import IDLE_TIMEOUT, GameOutcome, connect, listen
    from damiera.engine.dxp_protocol import DxpError
    from damiera.rules.variant import Color

    lv = int_in(args.level, "level", 1, 3)
    movetime = _positive_float(args.movetime, "movetime") if args.movetime is not None else None
    idle = (IDLE_TIMEOUT if args.idle_timeout is None
            else _positive_float(args.idle_timeout, "idle-timeout", MAX_IDLE_TIMEOUT))
    name = args.name
    if args.once and args.listen is None:
        raise UsageError("--once goes with --listen")
    played = 0

    def show(number: int, outcome: GameOutcome) -> None:
        nonlocal played
        played = number
        print(outcome.line(number), flush=True)

    try:
        if args.listen is not None:
            with _signals_interrupt((signal.SIGTERM,)):
                listen(args.listen, args.host, sys.stdout, once=args.once, level_number=lv,
                       movetime=movetime, name=name, on_game=show, idle_timeout=idle)
        else:
            color = Color.WHITE if args.color == "white" else Color.BLACK
            connect(args.connect, int_in(args.games, "games", 1, 1000), color,
                    int_in(args.time, "time", 0, 999), int_in(args.moves, "moves", 0, 999),
                    level_number=lv, movetime=movetime, name=name, on_game=show,
                    idle_timeout=idle)
    except KeyboardInterrupt:
        if args.listen is None:
            raise
        print(f"damiera: stopped after {played} game{'' if played == 1 else 's'}",
              file=sys.stderr)
        return 0
    except ValueError as exc:
        if isinstance(exc, DxpError):
            print(f"damiera: error: {exc}", file=sys.stderr)
            return 1
        raise UsageError(str(exc)) from None
    except OutputError:
        raise  # standard output is gone: ended as every command's (damiera.cli.main)
    except OSError as exc:
        print(f"damiera: error: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
