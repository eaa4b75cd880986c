"""Engine matches: games between two players (levels 1-3, ``random``, or a Hub engine given
as ``hub:COMMAND``), refereed by the rules core's :class:`~damiera.rules.game.Game` (its ``outcome()``), and the
Elo difference with its error bars.

This module plays the match and scores it (:func:`run_match`, :class:`MatchResult`); the
players and openings are in :mod:`~damiera.engine.match_openings`, one game in
:mod:`~damiera.engine.match_game`, the worker processes of ``jobs`` > 1 in
:mod:`~damiera.engine.match_workers` and the Elo statistics in :mod:`~damiera.engine.elo`. Their
public names are importable from here as well.

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

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass

from damiera.engine.elo import elo_stats, pair_stats
from damiera.engine.front import Limit
from damiera.engine.match_game import (
    HUB_MOVETIME,
    MAX_GAME_PLIES,
    GameRecord,
    SideTime,
    play_game,
)
from damiera.engine.match_openings import (
    HUB_PREFIX,
    MAX_OPENINGS_BYTES,
    PLAYER_NAMES,
    check_player,
    hub_command,
    random_openings,
    read_openings,
)
from damiera.engine.match_workers import (
    MatchWorkerError,
    _game_job,
    _on_workers,
    _show_once,
    _Task,
    _Warned,
)
from damiera.rules.position import Position, write_fen
from damiera.rules.variant import Variant

__all__ = [
    "HUB_MOVETIME", "HUB_PREFIX", "MAX_GAME_PLIES", "MAX_OPENINGS_BYTES", "PLAYER_NAMES",
    "GameRecord", "MatchResult", "MatchStopped", "MatchWorkerError", "SideTime", "check_player", "elo_stats", "hub_command",
    "play_game", "random_openings", "read_openings", "run_match",
]


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
    it had left after a move, before its increment).

    Pairs (the two games of one opening, colours swapped; complete pairs only): ``pairs``,
    how many gave ``first`` 0, 0.5, 1, 1.5 and 2 points (None before a pair is complete), and
    ``pair_elo_low`` .. ``pair_elo_high``, the 95% interval of the Elo difference with the
    pair as the unit (:func:`~damiera.engine.elo.pair_stats`; None with too few pairs).

    A match stopped before its last game (:class:`MatchStopped`) has ``stopped`` True and
    ``played`` the games finished (``wins + draws + losses``; ``games`` stays the number
    asked for); with none finished ``score``, ``elo`` and ``elo_error`` are NaN and the
    interval is ``-inf .. +inf`` (all ``null`` in :meth:`as_dict`)."""

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
    pairs: list[int] | None = None
    pair_elo_low: float | None = None
    pair_elo_high: float | None = None
    stopped: bool = False
    played: int | None = None

    def as_dict(self) -> dict[str, object]:
        """The fields as a dict fit for JSON: numbers that are not finite become None;
        ``stopped`` and ``played`` only for a stopped match."""
        fields = asdict(self)
        if not self.stopped:
            del fields["stopped"], fields["played"]
        return {k: None if isinstance(v, float) and not math.isfinite(v) else v
                for k, v in fields.items()}

    def summary(self) -> str:
        """One line: the score and Elo, then the time lines (:meth:`time_lines`)."""
        games = (f"stopped after {self.played} of {self.games} games" if self.stopped
                 else f"{self.games} games")
        head = f"{self.first} vs {self.second} ({self.variant}, {games}): "
        if self.stopped and not self.played:
            return head + "no game finished, no score"
        score = (head + f"+{self.wins} ={self.draws} -{self.losses}, score "
                 f"{100 * self.score:.1f}%, Elo {self.elo:+.0f} (95% {self.elo_low:+.0f} .. "
                 f"{self.elo_high:+.0f})")
        pairs = self.pair_line()
        return "\n".join([score, *([pairs] if pairs else []), *self.time_lines()])

    def pair_line(self) -> str | None:
        """``pairs 50: 2-0 10, 1.5-0.5 20, 1-1 15, 0.5-1.5 5, 0-2 0; 95% interval from pairs
        +151 .. +262`` (points of ``first`` first; the interval only when there is one), or
        None before a pair is complete."""
        if not self.pairs or not sum(self.pairs):
            return None
        shown = ", ".join(f"{name} {self.pairs[k]}" for k, name in
                          ((4, "2-0"), (3, "1.5-0.5"), (2, "1-1"), (1, "0.5-1.5"), (0, "0-2")))
        line = f"pairs {sum(self.pairs)}: {shown}"
        if self.pair_elo_low is not None and self.pair_elo_high is not None:
            line += (f"; 95% interval from pairs {self.pair_elo_low:+.0f} .. "
                     f"{self.pair_elo_high:+.0f}")
        return line

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

class MatchStopped(KeyboardInterrupt):
    """:func:`run_match` was stopped by KeyboardInterrupt (Ctrl-C, or a signal such as
    SIGTERM that the caller turned into one) before its last game. ``result``: the
    :class:`MatchResult` of the games finished (``stopped`` True, ``played`` their number);
    ``finished``: those games' records by index (0-based; ``first`` has White in even
    games). Games under way were abandoned and are not counted. A KeyboardInterrupt, so
    code that stops on Ctrl-C still does."""

    def __init__(self, result: MatchResult, finished: dict[int, GameRecord]):
        super().__init__(f"match stopped after {result.played} of {result.games} games")
        self.result = result
        self.finished = dict(sorted(finished.items()))

    def __reduce__(self) -> tuple[type[MatchStopped], tuple[MatchResult, dict[int, GameRecord]]]:
        # An exception is pickled as its class and its args (here the message), which this
        # __init__ does not take; a process pool pickles what its worker raised.
        return type(self), (self.result, self.finished)


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
    :class:`~damiera.engine.Limit`'s ranges. A KeyboardInterrupt while the games are played
    (Ctrl-C) abandons the games under way and raises :class:`MatchStopped` with the score
    of the finished ones.
    """
    first, second = check_player(first), check_player(second)
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if clock is not None:
        if movetime is not None:
            raise ValueError("give a time a move or a game clock, not both")
        Limit(remaining=clock, increment=increment)  # the same ranges as the search's
    done: dict[int, GameRecord] = {}  # finished games by index
    try:
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
        _play(tasks, jobs, done, progress, on_game)
    except KeyboardInterrupt:
        # Ctrl-C, or a signal the caller turned into one: the games under way are abandoned
        # (their workers terminated), the finished ones scored.
        stopped = _score(variant, first, second, games, done, movetime, cpu_time, clock,
                         increment, stopped=True)
        raise MatchStopped(stopped, done) from None
    result = _score(variant, first, second, games, done, movetime, cpu_time, clock, increment)
    return result, [done[i] for i in range(games)]


def _play(
    tasks: Sequence[_Task],
    jobs: int,
    done: dict[int, GameRecord],
    progress: Callable[[Iterator[GameRecord], int], Iterator[GameRecord]] | None,
    on_game: Callable[[int, GameRecord], None] | None,
) -> None:
    """Play the tasks, in turn or on ``jobs`` worker processes, putting each finished game
    into ``done`` under its index before ``on_game`` is called."""

    def record_each(ended: Iterator[tuple[int, GameRecord]]) -> None:
        def recorded() -> Iterator[GameRecord]:
            for i, record in ended:
                done[i] = record
                if on_game is not None:
                    on_game(i, record)
                yield record

        it = recorded()
        if progress is not None:
            it = progress(it, len(tasks))
        for _record in it:
            pass

    if jobs > 1:
        shown: set[tuple[str, type[Warning]]] = set()

        def shown_once(ended: Iterator[tuple[int, GameRecord, list[_Warned]]],
                       ) -> Iterator[tuple[int, GameRecord]]:
            for i, record, warned in ended:
                _show_once(warned, shown)
                yield i, record

        record_each(shown_once(_on_workers(tasks, jobs)))
    else:
        record_each((i, _game_job(t)) for i, t in enumerate(tasks))


def _score(
    variant: Variant, first: str, second: str, games: int, done: dict[int, GameRecord],
    movetime: float | None, cpu_time: bool, clock: float | None, increment: float,
    stopped: bool = False,
) -> MatchResult:
    """The :class:`MatchResult` of the finished games ``done`` (by index: ``first`` has White
    in even games) of a match of ``games``; ``stopped``: the match ended before its last."""
    wins = draws = losses = 0
    points: dict[int, float] = {}  # first's points by game
    for i, r in done.items():
        outcome = r.result if i % 2 == 0 else -r.result
        if outcome > 0:
            wins += 1
        elif outcome < 0:
            losses += 1
        else:
            draws += 1
        points[i] = (outcome + 1) / 2
    pair_points = [points[i] + points[i + 1] for i in range(0, games - 1, 2)
                   if i in points and i + 1 in points]
    pairs, pair_low, pair_high = pair_stats(pair_points)
    if done:
        score, elo, lo, hi = elo_stats(wins, draws, losses)
        numbers = (round(score, 4), round(elo, 1), round(lo, 1), round(hi, 1),
                   round((hi - lo) / 2, 1))
    else:  # stopped before a game finished: nothing to score
        numbers = (math.nan, math.nan, -math.inf, math.inf, math.nan)
    # Each player's sides: first has White in even games.
    mine = [[r.white_time if (i % 2 == 0) == (who == 0) else r.black_time
             for i, r in sorted(done.items())] for who in (0, 1)]
    (first_mean, first_max), (second_mean, second_max) = (_cpu(sides) for sides in mine)
    first_least, second_least = (_least(sides) for sides in mine)
    return MatchResult(
        variant.full_id, first, second, games, wins, draws, losses, *numbers, movetime,
        cpu_time=cpu_time, clock=clock, increment=None if clock is None else increment,
        first_cpu_mean=first_mean, first_cpu_max=first_max, second_cpu_mean=second_mean,
        second_cpu_max=second_max,
        first_flag_falls=sum(side.flag_fell for side in mine[0]),
        second_flag_falls=sum(side.flag_fell for side in mine[1]),
        first_least_left=first_least, second_least_left=second_least,
        pairs=pairs if pair_points else None,
        pair_elo_low=None if pair_low is None else round(pair_low, 1),
        pair_elo_high=None if pair_high is None else round(pair_high, 1),
        stopped=stopped, played=len(done) if stopped else None,
    )


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
