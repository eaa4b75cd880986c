"""Engine matches: games between two players (levels 1-3, ``random``, or a Hub engine given
as ``hub:COMMAND``), refereed by the rules core's :class:`~damiera.rules.game.Game` (its ``outcome()``), and the
Elo difference with its error bars.

``hub:COMMAND`` is an engine's path and its arguments, split as a shell would
(``"hub:/opt/scan/scan hub"``), played through :class:`~damiera.engine.hub_client.HubClient`:
one engine process a game, started in its own directory, ``--movetime`` (default
:data:`HUB_MOVETIME`) seconds a move.

Games come in pairs: each opening is played twice, once with each player on each colour, so
colours alternate and both players get the same openings. Openings are either FENs read from
a file (one per line, ``#`` comments allowed) or short random openings: a few random plies from
the start position, kept only when material is level and no capture is pending.

A game ends by the rules (no piece or no legal move loses; 40-move rule; threefold
repetition), or is adjudicated a draw after :data:`MAX_GAME_PLIES` plies.

Time: a fixed time a move (``movetime``), or a game clock (``clock`` seconds for the game
and ``increment`` seconds added after each move, ``--tc 60+0.5``): each side's clock runs
while it thinks, and a side whose clock runs out loses on time
(:meth:`damiera.Game.flag_fall`: a draw when the opponent could not win). With ``cpu_time``
both are measured on CPU time: Damiera's search times itself on its thread's CPU time
(:class:`~damiera.engine.Limit` ``cpu_time``) and its clock is charged the CPU time of the
move; a Hub engine keeps its own clock, and its clock here is charged its process's CPU time.
Each move's CPU time is recorded (the moving thread's for Damiera and ``random``, the
engine process's for a Hub engine, :meth:`~damiera.engine.hub_client.HubClient.cpu_seconds`)
and the match reports each player's mean and largest CPU seconds a move.
"""

from __future__ import annotations

import io
import math
import multiprocessing
import os
import random
import shlex
import shutil
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import NamedTuple

from damiera.engine.front import Engine, Limit
from damiera.pdn.writer import write_game
from damiera.rules.game import Game
from damiera.rules.movegen import CoreMove, apply_move, generate, has_capture, legal_moves
from damiera.rules.position import Position, parse_fen, start_position, write_fen
from damiera.rules.variant import Color, Variant

#: Plies after which an unfinished game is adjudicated a draw.
MAX_GAME_PLIES = 300

PLAYER_NAMES = ("1", "2", "3", "random")
#: Prefix of a Hub engine player: ``hub:`` then the engine's command line.
HUB_PREFIX = "hub:"
#: Seconds a move for a Hub engine when the match gives no ``movetime``.
HUB_MOVETIME = 1.0
#: Largest openings file read (bytes): 100,000 FENs of a full 10x10 board fit well within.
MAX_OPENINGS_BYTES = 32 * 1024 * 1024


def hub_command(name: str) -> list[str] | None:
    """The command line of a ``hub:COMMAND`` player (split as a shell would), None for
    another player; ValueError for an empty command or one that cannot be split."""
    if not name.startswith(HUB_PREFIX):
        return None
    try:
        argv = shlex.split(name[len(HUB_PREFIX):])
    except ValueError as exc:
        raise ValueError(f"cannot read the engine command {name!r}: {exc}") from None
    if not argv:
        raise ValueError("hub: needs an engine command, e.g. hub:/path/to/engine")
    return argv


def check_player(name: str) -> str:
    """Normalise a player name (``1``, ``2``, ``3``, ``random`` or ``hub:COMMAND``, whose
    program must be an executable file). ValueError for a name that is none of them (bad
    input); :class:`~damiera.engine.hub_client.HubClientError` when a Hub engine's program
    is not an executable file (an engine that cannot start, as one that fails later)."""
    text = str(name).strip()
    argv = hub_command(text)
    if argv is not None:
        program = argv[0] if os.sep in argv[0] else shutil.which(argv[0])
        if program is None or not (os.path.isfile(program) and os.access(program, os.X_OK)):
            from damiera.engine.hub_client import HubClientError

            raise HubClientError(f"no executable engine at {argv[0]!r}")
        return text
    key = text.lower()
    if key not in PLAYER_NAMES:
        raise ValueError(f"player must be 1, 2, 3, random or hub:COMMAND, not {name!r}")
    return key


def random_openings(
    variant: Variant, count: int, plies: int = 4, seed: int = 1
) -> list[Position]:
    """``count`` distinct short random openings: ``plies`` random legal plies from the start,
    kept when material is level and the side to move has no capture. Deterministic per seed.
    When the variant has fewer such openings than ``count`` (American has a few hundred of 4
    plies), the search stops once a long run of tries finds none new, and the openings found
    are repeated in order.
    """
    rng = random.Random(seed)
    seen: set[Position] = set()
    out: list[Position] = []
    attempts = 0
    last_new = 0
    while len(out) < count and attempts < count * 200:
        if attempts - last_new > max(2000, 20 * len(out)):
            break  # saturated: every further try would very likely find an opening seen
        attempts += 1
        pos = start_position(variant)
        ok = True
        for _ in range(plies):
            moves = legal_moves(variant, pos)
            if not moves:
                ok = False
                break
            pos = apply_move(pos, rng.choice(moves))
        if not ok or pos in seen:
            continue
        w, b = pos.piece_counts()
        if w != b or has_capture(variant, pos) or not generate(variant, pos):
            continue
        seen.add(pos)
        out.append(pos)
        last_new = attempts
    while len(out) < count:  # tiny variants of tiny depth: repeat what we have
        out.append(out[len(out) % max(1, len(seen))] if out else start_position(variant))
    return out


def read_openings(variant: Variant, path: str) -> list[Position]:
    """FENs from a file, one per line (blank lines and ``#`` comments skipped).

    Raises OSError if the file cannot be read, and ValueError naming the file (and the line)
    for a file larger than :data:`MAX_OPENINGS_BYTES`, not UTF-8 text, a bad FEN, or a
    finished position (a side without pieces, or no legal move for the side to move): a game
    cannot start from it.
    """
    out = []
    with open(path, "rb") as fh:
        data = fh.read(MAX_OPENINGS_BYTES + 1)  # bounded: /dev/zero or a huge file is refused
    if len(data) > MAX_OPENINGS_BYTES:
        raise ValueError(f"{path} is larger than {MAX_OPENINGS_BYTES} bytes: not an openings "
                         "file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    lines = list(io.StringIO(text, newline=None))  # universal newlines, as open() in text mode
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            pos = parse_fen(variant, text)
        except ValueError as exc:
            raise ValueError(f"{path}, line {number}: {exc}") from None
        white, black = pos.piece_counts()
        if not white or not black:
            side = "White" if not white else "Black"
            raise ValueError(f"{path}, line {number}: the game is over ({side} has no pieces)")
        if not generate(variant, pos):
            raise ValueError(f"{path}, line {number}: the game is over "
                             f"({pos.turn.word.capitalize()} to move has no legal move)")
        out.append(pos)
    if not out:
        raise ValueError(f"{path} holds no FEN")
    return out


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
    each side with ``increment`` seconds added after each move (a flag fall ends the game);
    ``cpu_time``: both measured on CPU time (see the module's text); ``round_number``: the
    PDN Round tag; ``books``: White's and Black's Engine ``book`` (None, True, False). Raises :class:`~damiera.engine.hub_client.HubClientError` when a Hub
    engine fails."""
    from damiera.engine.hub_client import HubClient

    rng = random.Random(seed)
    players: dict[Color, Engine | HubClient | None] = {}
    times = {Color.WHITE: SideTime(), Color.BLACK: SideTime()}
    left = {Color.WHITE: clock, Color.BLACK: clock}
    comments: list[str | None] = []
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
                limit = (Limit(remaining=mine, increment=increment, cpu_time=cpu_time)
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
                if mine < 0:
                    side.flag_fell = True
                    left[pos.turn] = 0.0
                    game.flag_fall()
                    break
                left[pos.turn] = mine + increment
                comments.append(f"[%clk {_clk(mine + increment)}]")
            game.play(move)
    finally:
        for p in players.values():
            if isinstance(p, HubClient):
                p.close()
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


@dataclass
class MatchResult:
    """Score of ``first`` against ``second`` (see :func:`elo_stats` for the numbers).

    Fields (also the keys of :meth:`as_dict`, the ``--json`` line): ``variant``, ``first``,
    ``second``, ``games``; ``wins``/``draws``/``losses`` seen from ``first``; ``score``
    (0-1); ``elo`` (Elo difference, first minus second, point estimate); ``elo_low`` ..
    ``elo_high`` its 95% interval; ``elo_error`` half the interval width; ``movetime``.
    An open side of the interval (after a 0% or 100% score) is ``-inf``/``+inf`` here and in
    text, ``null`` in :meth:`as_dict` (and so in JSON), as is ``elo_error`` then.

    Time: ``cpu_time`` (moves timed on CPU time); ``clock`` and ``increment`` (the game
    clock, seconds; None without one); for each player (``first_...``, ``second_...``):
    ``cpu_mean`` and ``cpu_max``, CPU seconds a move over the match; with a game clock
    ``flag_falls`` (games it lost, or drew, on time) and ``least_left`` (the fewest seconds
    it had left after a move, before its increment)."""

    variant: str
    first: str
    second: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    elo: float
    elo_low: float
    elo_high: float
    elo_error: float
    movetime: float | None
    cpu_time: bool = False
    clock: float | None = None
    increment: float | None = None
    first_cpu_mean: float | None = None
    first_cpu_max: float | None = None
    second_cpu_mean: float | None = None
    second_cpu_max: float | None = None
    first_flag_falls: int = 0
    second_flag_falls: int = 0
    first_least_left: float | None = None
    second_least_left: float | None = None

    def as_dict(self) -> dict[str, object]:
        """The fields as a dict fit for JSON: infinite numbers become None."""
        return {k: None if isinstance(v, float) and not math.isfinite(v) else v
                for k, v in asdict(self).items()}

    def summary(self) -> str:
        """One line: the score and Elo, then the time lines (:meth:`time_lines`)."""
        score = (f"{self.first} vs {self.second} ({self.variant}, {self.games} games): "
                 f"+{self.wins} ={self.draws} -{self.losses}, score {100 * self.score:.1f}%, "
                 f"Elo {self.elo:+.0f} (95% {self.elo_low:+.0f} .. {self.elo_high:+.0f})")
        return "\n".join([score, *self.time_lines()])

    def time_lines(self) -> list[str]:
        """``CPU a move: 3 mean 0.291 s, max 0.300 s; random mean 0.000 s, max 0.000 s`` and,
        with a game clock, ``clock 60+0.5: flag falls 3 0, random 1; least left 3 12.3 s,
        random 0.0 s``."""
        def cpu(name: str, mean: float | None, most: float | None) -> str:
            if mean is None or most is None:
                return f"{name} none"
            return f"{name} mean {mean:.3f} s, max {most:.3f} s"

        kind = "CPU" if self.cpu_time else "wall"
        first = cpu(self.first, self.first_cpu_mean, self.first_cpu_max)
        lines = [f"CPU a move: {first}; "
                 + cpu(self.second, self.second_cpu_mean, self.second_cpu_max)]
        if self.clock is not None:
            def least(value: float | None) -> str:
                return "-" if value is None else f"{max(0.0, value):.1f} s"

            lines.append(
                f"clock {self.clock:g}+{self.increment or 0:g} ({kind} time): flag falls "
                f"{self.first} {self.first_flag_falls}, {self.second} {self.second_flag_falls}"
                f"; least left {self.first} {least(self.first_least_left)}, {self.second} "
                f"{least(self.second_least_left)}")
        return lines


def _elo(score: float) -> float:
    """Elo difference for a score fraction; -inf at 0 and +inf at 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no "-0" for an even score


def elo_stats(wins: int, draws: int, losses: int) -> tuple[float, float, float, float]:
    """``(score, elo, elo_low, elo_high)`` for a W/D/L record.

    ``score`` is the raw score fraction. ``elo`` is the point estimate; a score of 0% or 100%
    would be infinite, so for it alone the score is moved half a game in ``n + 1`` from the
    edge (``1 / (2n + 2)``): 1-0 gives +191, 40-0 gives +763.

    The 95% interval ``elo_low .. elo_high`` comes from the raw score, never from that clamp:
    it is the Wilson score interval of the score fraction (which stays honest at 0%, 100% and
    in small samples), widened to score +- 1.96 standard errors of the per-game scores (which
    count draws right) on each side where that normal bound stays strictly inside 0..1.
    Bounds are mapped to Elo; a bound at 0% or 100% is infinite (``-inf`` / ``+inf``): a
    100% result has ``elo_low < elo`` and ``elo_high == +inf``. Raises ValueError for no
    games."""
    n = wins + draws + losses
    if n == 0:
        raise ValueError("no games played")
    z = 1.96
    score = (wins + 0.5 * draws) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    se = math.sqrt(var / n)
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo_s = 0.0 if losses == n else centre - half
    hi_s = 1.0 if wins == n else centre + half
    if 0.0 < score - z * se < lo_s:
        lo_s = score - z * se
    if hi_s < score + z * se < 1.0:
        hi_s = score + z * se
    if lo_s < 1e-12:
        lo_s = 0.0
    if hi_s > 1.0 - 1e-12:
        hi_s = 1.0
    eps = 0.5 / (n + 1)
    mid = min(max(score, eps), 1 - eps)
    return score, _elo(mid), _elo(lo_s), _elo(hi_s)


class _Task(NamedTuple):
    """One game of a match, as sent to a worker process."""

    variant: str  # the canonical id: the rule set and its options
    fen: str
    white: str
    black: str
    movetime: float | None
    seed: int
    number: int
    cpu_time: bool
    clock: float | None
    increment: float
    books: tuple[bool | None, bool | None] = (None, None)


def _game_job(task: _Task) -> GameRecord:
    from damiera.rules.variant import variant as get_variant

    v = get_variant(task.variant)
    return play_game(v, parse_fen(v, task.fen), task.white, task.black, task.movetime,
                     task.seed, task.number, cpu_time=task.cpu_time, clock=task.clock,
                     increment=task.increment, books=task.books)


def _worker_ignores_ctrl_c() -> None:
    """A match worker leaves Ctrl-C to the match, which ends every worker at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _indexed_game_job(item: tuple[int, _Task]) -> tuple[int, GameRecord]:
    return item[0], _game_job(item[1])


def run_match(
    variant: Variant,
    first: str,
    second: str,
    games: int,
    movetime: float | None = None,
    openings: Sequence[Position] | None = None,
    jobs: int = 1,
    seed: int = 1,
    progress: Callable[[Iterator[GameRecord], int], Iterator[GameRecord]] | None = None,
    on_game: Callable[[int, GameRecord], None] | None = None,
    *,
    cpu_time: bool = False,
    clock: float | None = None,
    increment: float = 0.0,
    books: tuple[bool | None, bool | None] = (None, None),
) -> tuple[MatchResult, list[GameRecord]]:
    """Play ``games`` games of ``first`` against ``second`` and score them.

    Game ``i`` uses opening ``i // 2``; ``first`` has White in even games, Black in odd ones.
    ``openings``: FEN positions (default: random openings); ``jobs``: worker processes;
    ``progress``: wraps the iterator of finished games (e.g. a tqdm bar); ``on_game(i,
    record)`` is called as each game ends (in the order they end when ``jobs`` > 1).
    ``cpu_time``, ``clock`` (seconds for each side's game) and ``increment``: see
    :func:`play_game`; ``books``: ``first``'s and ``second``'s (as there). Raises ValueError for a bad player name, fewer than one game, a
    ``movetime`` and a ``clock`` together, or a clock or increment out of
    :class:`~damiera.engine.Limit`'s ranges.
    """
    first, second = check_player(first), check_player(second)
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if clock is not None:
        if movetime is not None:
            raise ValueError("give a time a move or a game clock, not both")
        Limit(remaining=clock, increment=increment)  # the same ranges as the search's
    pairs = (games + 1) // 2
    if openings is None:
        plies = 4 if variant.board_size == 8 else 6
        openings = random_openings(variant, pairs, plies=plies, seed=seed)
    tasks: list[_Task] = []
    for i in range(games):
        fen = write_fen(variant, openings[(i // 2) % len(openings)])
        white, black = (first, second) if i % 2 == 0 else (second, first)
        sides = books if i % 2 == 0 else (books[1], books[0])
        tasks.append(_Task(variant.full_id, fen, white, black, movetime,
                           seed * 100_003 + i, i + 1, cpu_time, clock, increment, sides))
    records: list[GameRecord] = []
    if jobs > 1:
        done: dict[int, GameRecord] = {}
        # Leaving the block terminates the workers: on Ctrl-C or a failed game or callback the
        # games under way end at once and the queued ones are never started. The workers are
        # spawned, not forked: a fork copies whatever lock another thread of this process held
        # at that instant, and a worker then waits on it for ever.
        spawn = multiprocessing.get_context("spawn")
        with spawn.Pool(jobs, initializer=_worker_ignores_ctrl_c) as pool:

            def finished() -> Iterator[GameRecord]:
                for i, record in pool.imap_unordered(_indexed_game_job, enumerate(tasks)):
                    done[i] = record
                    if on_game is not None:
                        on_game(i, record)
                    yield record

            it: Iterator[GameRecord] = finished()
            if progress is not None:
                it = progress(it, games)
            for _record in it:
                pass
        records = [done[i] for i in range(games)]
    else:
        def in_turn() -> Iterator[GameRecord]:
            for i, t in enumerate(tasks):
                record = _game_job(t)
                if on_game is not None:
                    on_game(i, record)
                yield record

        it = in_turn()
        if progress is not None:
            it = progress(it, games)
        records = list(it)
    wins = draws = losses = 0
    for i, r in enumerate(records):
        first_white = i % 2 == 0
        outcome = r.result if first_white else -r.result
        if outcome > 0:
            wins += 1
        elif outcome < 0:
            losses += 1
        else:
            draws += 1
    score, elo, lo, hi = elo_stats(wins, draws, losses)
    # Each player's sides: first has White in even games.
    mine = [[r.white_time if (i % 2 == 0) == (who == 0) else r.black_time
             for i, r in enumerate(records)] for who in (0, 1)]
    (first_mean, first_max), (second_mean, second_max) = (_cpu(sides) for sides in mine)
    first_least, second_least = (_least(sides) for sides in mine)
    result = MatchResult(
        variant.full_id, first, second, games, wins, draws, losses, round(score, 4),
        round(elo, 1),
        round(lo, 1), round(hi, 1), round((hi - lo) / 2, 1), movetime,
        cpu_time=cpu_time, clock=clock, increment=None if clock is None else increment,
        first_cpu_mean=first_mean, first_cpu_max=first_max, second_cpu_mean=second_mean,
        second_cpu_max=second_max,
        first_flag_falls=sum(side.flag_fell for side in mine[0]),
        second_flag_falls=sum(side.flag_fell for side in mine[1]),
        first_least_left=first_least, second_least_left=second_least,
    )
    return result, records


def _cpu(sides: Sequence[SideTime]) -> tuple[float | None, float | None]:
    """Mean and largest CPU seconds a move over a player's sides (None: it made no move)."""
    moves = [seconds for side in sides for seconds in side.cpu]
    if not moves:
        return None, None
    return round(sum(moves) / len(moves), 4), round(max(moves), 4)


def _least(sides: Sequence[SideTime]) -> float | None:
    """The fewest seconds left on a player's clock after a move (None: no clock)."""
    values = [side.least for side in sides if side.least is not None]
    return round(min(values), 3) if values else None
