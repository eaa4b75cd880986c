"""The one engine front, in the shape of python-chess: ``Engine(variant, level).play(game,
Limit(time=1.0))``, ``.analyse(game, Limit(depth=6), multipv=3)``; the web site, the CLI,
engine matches, Hub, DXP, the analysis board and game review all search through it.

An :class:`Engine` is one variant at one playing level (:mod:`damiera.engine.levels`: the
level's depth cap, time and weaker-move choice) over one :class:`~damiera.engine.search.
Searcher` (the C search, whose tables it keeps between moves). The game's earlier positions
are passed on so the search sees repetitions and the 40-move rule. Use it as a context
manager (``with Engine("italian") as engine:``) or call :meth:`Engine.close` to free its
tables at once.

Scores are in centi-men (100 = one man) from the side to move's point of view; a won
position scores :data:`~damiera.engine.search.MATE` minus the plies to the win
(:attr:`Analysis.win_in` gives the plies).

>>> import damiera
>>> from damiera.engine import Engine, Limit
>>> game = damiera.Game("russian", fen="W:Wc3:Bd4,h8")
>>> with Engine("russian", level=3) as engine:
...     engine.play(game, Limit(depth=2)).move
Move('c3:e5')
>>> lines = Engine("italian").analyse(damiera.Game("italian"), Limit(depth=4), multipv=3)
>>> len(lines), [line.pv[0] in damiera.Game("italian").legal_moves for line in lines]
(3, [True, True, True])
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Self, TypedDict, overload

from damiera.engine.arguments import whole_number
from damiera.engine.book import BOOK_MARGIN, MAX_BOOK_MARGIN, Book, default_book
from damiera.engine.egdb import level_pieces, pieces_for
from damiera.engine.egdb_files import MAX_DISK_PIECES
from damiera.engine.levels import Level, weaker_move
from damiera.engine.levels import level as level_of
from damiera.engine.search import (
    MATE,
    MATE_BOUND,
    MAX_CLOCK,
    MAX_DEPTH,
    MAX_GAME_PLY,
    MAX_MOVES_TO_GO,
    MAX_MOVETIME,
    Searcher,
    SearchResult,
)
from damiera.engine.search import Info as SearchInfo
from damiera.rules.game import Game, GameOverError
from damiera.rules.move import Move
from damiera.rules.movegen import CoreMove, generate
from damiera.rules.position import Position
from damiera.rules.variant import Variant
from damiera.rules.variant import variant as _variant

#: Most lines :meth:`Engine.analyse` gives at once (every root move is searched in full).
MAX_MULTIPV = 10


@dataclass(frozen=True)
class Limit:
    """How long to think: ``time`` (seconds for this move) or a game clock, ``depth``
    (plies) and/or ``nodes`` (a node budget: the search stops once it has counted that many
    nodes, checked every 256 nodes, its first iteration always finished; the same search
    whatever the machine's speed).

    A game clock: ``remaining`` (seconds left on the clock of the side to move), with
    ``increment`` (seconds added after each move; default none) and ``moves_to_go`` (moves
    to play on that time; default the rest of the game). The search shares it out itself
    (:func:`~damiera.engine.search.allocate_time`): at once with a single legal move, early
    when the best move stays clear, longer when it changes or the score drops, always within
    the clock less a safety share. ``cpu_time=True`` measures ``time`` and the game clock on
    the search thread's CPU time, not the wall clock (equal CPU on a loaded machine: a
    search given 0.3 s computes for 0.3 s however many programs share the processor).

    With no time, clock, depth or nodes, the level's own time per move; ``nodes`` without
    ``time`` sets no clock but :data:`~damiera.engine.search.MAX_MOVETIME` (levels 1 and 2
    keep their own shorter time, which also caps a game clock's share). Raises ValueError
    for a time that is not above 0 or above :data:`~damiera.engine.search.MAX_MOVETIME`, a
    depth outside 1 .. :data:`~damiera.engine.search.MAX_DEPTH`, a node budget below 1, a
    remaining time not above 0 or above :data:`~damiera.engine.search.MAX_CLOCK`, an
    increment below 0 or above :data:`~damiera.engine.search.MAX_MOVETIME`, moves to go
    outside 1 .. :data:`~damiera.engine.search.MAX_MOVES_TO_GO` (NaN and infinities are
    refused everywhere), ``time`` and ``remaining`` together, and an increment or moves to
    go without ``remaining``; TypeError for a value of another type (``Limit(time="1")``,
    ``Limit(cpu_time=1)``).
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    cpu_time: bool = False
    remaining: float | None = None
    increment: float | None = None
    moves_to_go: int | None = None

    def __post_init__(self) -> None:
        for name, kinds, what in (("time", (int, float), "seconds (a number)"),
                                  ("depth", (int,), "plies (an int)"),
                                  ("nodes", (int,), "a number of nodes (an int)"),
                                  ("remaining", (int, float), "seconds (a number)"),
                                  ("increment", (int, float), "seconds (a number)"),
                                  ("moves_to_go", (int,), "a number of moves (an int)")):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, kinds)):
                raise TypeError(f"Limit's {name} is {what}, not {type(value).__name__}")
        if not isinstance(self.cpu_time, bool):
            raise TypeError(f"Limit's cpu_time is True or False, not "
                            f"{type(self.cpu_time).__name__}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"nodes must be at least 1, not {self.nodes!r}")
        if self.time is not None and not (
            0 < self.time <= MAX_MOVETIME and math.isfinite(self.time)
        ):
            raise ValueError(f"time must be above 0 and at most {MAX_MOVETIME:g} seconds, "
                             f"not {self.time!r}")
        if self.depth is not None and not (1 <= self.depth <= MAX_DEPTH):
            raise ValueError(f"depth must be 1-{MAX_DEPTH} plies, not {self.depth!r}")
        self._check_clock()

    def _check_clock(self) -> None:
        if self.remaining is None:
            if self.increment is not None or self.moves_to_go is not None:
                raise ValueError("an increment or moves to go needs the clock's remaining "
                                 "time: Limit(remaining=60.0, increment=0.5)")
            return
        if self.time is not None:
            raise ValueError("give a time for the move or a game clock (remaining), not both")
        if not (0 < self.remaining <= MAX_CLOCK and math.isfinite(self.remaining)):
            raise ValueError(f"remaining must be above 0 and at most {MAX_CLOCK:g} seconds, "
                             f"not {self.remaining!r}")
        if self.increment is not None and not (
            0 <= self.increment <= MAX_MOVETIME and math.isfinite(self.increment)
        ):
            raise ValueError(f"increment must be 0 to {MAX_MOVETIME:g} seconds, "
                             f"not {self.increment!r}")
        if self.moves_to_go is not None and not 1 <= self.moves_to_go <= MAX_MOVES_TO_GO:
            raise ValueError(f"moves_to_go must be 1-{MAX_MOVES_TO_GO}, "
                             f"not {self.moves_to_go!r}")


@dataclass
class Analysis:
    """A search's answer: ``move`` (None when the side to move has no legal move), ``score``
    (centi-men, side to move's view), ``pv`` (the expected line, ``move`` first), ``depth``
    (plies of the last finished iteration), ``nodes``, ``seconds`` (of the whole search);
    ``rank``: 1 for the best line, 2, 3, ... for the other lines of a multi-PV analysis."""

    move: Move | None
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list[Move] = field(default_factory=list)
    rank: int = 1

    @property
    def win_in(self) -> int | None:
        """Plies to a forced win (negative: to a forced loss), or None when the search
        found neither."""
        if self.score >= MATE_BOUND:
            return MATE - self.score
        if self.score <= -MATE_BOUND:
            return -(MATE + self.score)
        return None

    @property
    def nps(self) -> int:
        """Nodes a second of the whole search."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


#: What :meth:`Engine.play` returns (python-chess calls it ``PlayResult``).
PlayResult = Analysis


@dataclass
class Info:
    """Progress of a search, as ``on_info`` gets it after each finished iteration:
    ``depth`` (plies), ``score`` (centi-men, side to move's view), ``nodes``, ``seconds``,
    ``pv`` (:class:`~damiera.rules.move.Move` values, in the variant's notation) and, in a
    multi-PV analysis, ``lines``: ``(score, pv)`` for every root move, best first."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: list[Move]
    lines: list[tuple[int, list[Move]]] = field(default_factory=list)

    @property
    def nps(self) -> int:
        """Nodes a second of the search so far."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


OnInfo = Callable[[Info], None]


class Engine:
    """The computer opponent of one variant at one level (1 Beginner, 2 Club, 3 Master).

    ``variant``: a :class:`~damiera.rules.variant.Variant` or its name. It keeps its search
    tables between moves; use one engine per game thread (:meth:`stop` may come from any
    thread). ``seed`` makes the weaker-move choice of levels 1 and 2 reproducible; ``rng``
    gives the random source itself. ``level`` may also be a
    :class:`~damiera.engine.levels.Level` of one's own. Raises TypeError for a variant or level of another type,
    :class:`~damiera.rules.variant.UnknownVariantError` for an unknown variant and
    ValueError for a level other than 1-3. ``endgame_pieces`` overrides the level's endgame
    database (on 8x8 boards levels 2 and 3 probe 3 pieces, on 10x10 none:
    :func:`damiera.engine.egdb.level_pieces`) on the boards with databases, 8x8 and 10x10
    (:mod:`damiera.engine.egdb`: up to that many pieces, read from the databases' folder when
    ``damiera egdb build`` wrote them, else solved in memory up to 4 on 8x8 and 3 on 10x10;
    0: none); TypeError for ``endgame_pieces`` that is not a whole number, ValueError for one
    that is neither 0 nor 2 to 6 (on any rule set) or when more are asked for than the board
    allows or than are on disk.

    ``book`` (:mod:`damiera.engine.book`): None, the level's choice (:attr:`~damiera.engine.
    levels.Level.book`: the variant's book file when there is one); False, none; True, the
    variant's book file (ValueError when it has none); or a :class:`~damiera.engine.book.Book`
    of the variant. In a book position :meth:`play` and :meth:`choose` play a book move at
    once, drawn among the moves at most ``book_margin`` centi-men below the book's best (the
    engine's random source: variety), except under a fixed depth or a node budget (limits
    that judge the search itself); :meth:`analyse` always searches. :class:`~damiera.engine.book.BookFileError` for an unusable book file;
    TypeError or ValueError for a ``book_margin`` that is not a whole number of centi-men from
    0 to :data:`MAX_BOOK_MARGIN`.
    """

    def __init__(self, variant: Variant | str = "international", level: int | Level = 3, *,
                 seed: int | None = None, rng: random.Random | None = None,
                 endgame_pieces: int | None = None, book: Book | bool | None = None,
                 book_margin: int = BOOK_MARGIN):
        if isinstance(variant, str):
            variant = _variant(variant)
        elif not isinstance(variant, Variant):
            raise TypeError("Engine() takes a Variant or a variant name such as "
                            f"'international', not {type(variant).__name__}")
        if isinstance(level, bool) or not isinstance(level, (int, Level)):
            raise TypeError(f"level is a number 1, 2 or 3, not {type(level).__name__}")
        self.variant: Variant = variant
        self.level_info: Level = level if isinstance(level, Level) else level_of(level)
        self.rng = rng or random.Random(seed)
        # Checked before the searcher is made (its hash table is the large allocation).
        book_margin = whole_number(book_margin, "book_margin", "centi-men")
        if not 0 <= book_margin <= MAX_BOOK_MARGIN:
            raise ValueError(f"book_margin must be 0-{MAX_BOOK_MARGIN} centi-men, not "
                             f"{book_margin}")
        if endgame_pieces is not None:
            endgame_pieces = whole_number(endgame_pieces, "endgame_pieces", "pieces or None")
            # The same range on every rule set, those without databases too (there: none).
            if endgame_pieces != 0 and not 2 <= endgame_pieces <= MAX_DISK_PIECES:
                raise ValueError(f"endgame_pieces must be 0 (none) or from 2 to "
                                 f"{MAX_DISK_PIECES}, not {endgame_pieces}")
        pieces = (level_pieces(variant, self.level_info.endgame_pieces)
                  if endgame_pieces is None else pieces_for(variant, endgame_pieces))
        self._searcher: Searcher | None = Searcher(variant, endgame_pieces=pieces)
        self.book: Book | None = self._book(book)
        self.book_margin = book_margin

    def _book(self, book: Book | bool | None) -> Book | None:
        if isinstance(book, Book):
            if book.variant != self.variant:
                raise ValueError(f"the book is for {book.variant.full_id}, not "
                                 f"{self.variant.full_id}")
            return book
        if book is None:
            return default_book(self.variant) if self.level_info.book else None
        if not isinstance(book, bool):
            raise TypeError(f"book is a Book, True, False or None, not {type(book).__name__}")
        found = default_book(self.variant) if book else None
        if book and found is None:
            raise ValueError(f"no opening book for {self.variant.full_id}: build one with "
                             "damiera book build")
        return found

    # -- life ---------------------------------------------------------------------------------
    @property
    def level(self) -> int:
        """The level's number (1-3)."""
        return self.level_info.number

    @property
    def searcher(self) -> Searcher:
        """The search underneath (its tables, switches and endgame database); raises
        RuntimeError once the engine is closed."""
        if self._searcher is None:
            raise RuntimeError("this engine is closed")
        return self._searcher

    def close(self) -> None:
        """Free the search tables now (the engine cannot search afterwards)."""
        self._searcher = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def stop(self) -> None:
        """End the running :meth:`play` or :meth:`analyse` (if any) within milliseconds; it
        returns its best move so far. Safe to call from another thread (a Hub ``stop``); a
        search started later is not affected."""
        if self._searcher is not None:
            self._searcher.stop()

    def clear(self) -> None:
        """Forget the search tables (a new game)."""
        self.searcher.clear()

    # -- playing ------------------------------------------------------------------------------
    def play(self, game: Game, limit: Limit | None = None, *,
             on_info: OnInfo | None = None, use_book: bool = True) -> Analysis:
        """The move this level plays in ``game`` (not played on it: call ``game.play``).

        Levels 1 and 2 sometimes choose a weaker move, as in a game on the site; a single
        legal move is played at once. ``on_info`` is called after each finished iteration
        (:class:`Info`: depth, score, nodes, seconds, nps, and the PV as Move values).
        Raises TypeError for a game or limit of another type,
        :class:`~damiera.rules.game.GameOverError` when the game is over and ValueError for
        a game of another variant. ``use_book=False`` searches even in a book position (a
        Hub's pondering and infinite search).
        """
        self._check(game, limit)
        return self._answer(self._choose(game.positions, limit or Limit(), self._relay(on_info),
                                         use_book))

    def choose(self, positions: Sequence[Position], limit: Limit | None = None, *,
               on_info: OnInfo | None = None) -> Analysis:
        """:meth:`play` for a game given by its positions (oldest first, the one to move in
        last), as the web site stores them; the position must have a legal move
        (ValueError otherwise)."""
        if not positions:
            raise ValueError("choose() needs at least the position to move in")
        if not generate(self.variant, positions[-1]):
            raise ValueError("the side to move has no legal move")
        return self._answer(self._choose(positions, limit or Limit(), self._relay(on_info)))

    def _choose(self, positions: Sequence[Position], lim: Limit,
                on_info: Callable[[SearchInfo], None] | None,
                use_book: bool = True) -> SearchResult:
        """The level's move: its depth cap and time (levels 1 and 2 never use more than
        their own time), a single legal move at once, sometimes a weaker move."""
        lv, searcher, pos = self.level_info, self.searcher, positions[-1]
        if use_book and self.book is not None and lim.depth is None and lim.nodes is None:
            found = self.book.choose(pos, self.rng, self.book_margin)
            if found is not None:  # a book move is played at once
                return SearchResult(found.move, found.score, found.depth, 0, 0.0, [found.move])
        budget: float | None
        if lim.remaining is not None:  # the core shares the clock out; a level's time caps it
            budget = None if lv.uses_given_time else lv.movetime
        else:
            movetime = lim.time
            if movetime is None and lim.nodes is not None:
                movetime = MAX_MOVETIME
            given = movetime if movetime is not None else lv.movetime
            budget = given if lv.uses_given_time else min(given, lv.movetime)
        if lim.depth is None and len(generate(self.variant, pos)) == 1:
            # A forced move is played at once, scored as the search scores one under a clock
            # (no depth cap, which would make the search go through the iterations).
            return searcher.search(pos, movetime=budget, history=positions, on_info=on_info,
                                   nodes=lim.nodes, **_clock(lim, positions))
        weaker = lv.weaker_chance > 0 and self.rng.random() < lv.weaker_chance
        result = searcher.search(
            pos, depth=lim.depth if lim.depth is not None else lv.depth, movetime=budget,
            history=positions, on_info=on_info, root_scores=weaker, nodes=lim.nodes,
            **_clock(lim, positions))
        if weaker and result.move is not None:
            choice = weaker_move(result.root_scores, lv.weaker_margin, self.rng)
            if choice is not None:
                result.move, result.score = choice
                result.pv = [choice[0]]
        return result

    # -- analysing ----------------------------------------------------------------------------
    @overload
    def analyse(self, game: Game, limit: Limit | None = None, *, multipv: None = None,
                on_info: OnInfo | None = None) -> Analysis: ...

    @overload
    def analyse(self, game: Game, limit: Limit | None = None, *, multipv: int,
                on_info: OnInfo | None = None) -> list[Analysis]: ...

    def analyse(self, game: Game, limit: Limit | None = None, *, multipv: int | None = None,
                on_info: OnInfo | None = None) -> Analysis | list[Analysis]:
        """The full-strength search of the position, whatever the level (the level only
        chooses the default time); even a single legal move is searched.

        Without ``multipv``: one :class:`Analysis` (best move, score, PV). With ``multipv=N``
        (1 to :data:`MAX_MULTIPV`): a list of the best N lines, best first, at most one per
        legal move (as python-chess returns a list when multipv is given); every root move is
        then searched with a full window, so each line's score is exact at its depth.
        ``on_info`` and errors as for :meth:`play`; ValueError for a bad ``multipv``.
        """
        self._check(game, limit)
        if multipv is None:
            return self._answer(self._search(game.positions, limit or Limit(),
                                             self._relay(on_info)))
        return self.analyse_lines(game.positions, limit, multipv=multipv, on_info=on_info)

    def analyse_lines(
        self, positions: Sequence[Position], limit: Limit | None = None, *, multipv: int = 1,
        on_info: OnInfo | None = None,
        on_lines: Callable[[list[Analysis]], None] | None = None,
    ) -> list[Analysis]:
        """The best ``multipv`` lines of the position ``positions[-1]`` (the earlier ones,
        oldest first, for repetitions), best first; empty when it has no legal move.
        ``on_lines`` gets each finished iteration's lines as they come (the analysis board's
        stream); an exception it raises ends the search and comes out of this call. Raises
        TypeError for a ``multipv`` that is not an int and ValueError outside 1 ..
        :data:`MAX_MULTIPV`."""
        if isinstance(multipv, bool) or not isinstance(multipv, int):
            raise TypeError(f"multipv is a number of lines (int), not {type(multipv).__name__}")
        if not 1 <= multipv <= MAX_MULTIPV:
            raise ValueError(f"multipv must be between 1 and {MAX_MULTIPV}, not {multipv}")
        if not positions:
            raise ValueError("analyse_lines() needs at least the position to analyse")
        count = len(generate(self.variant, positions[-1]))
        if count == 0:
            return []
        multipv = min(multipv, count)
        last: list[Analysis] = []

        relay = self._relay(on_info)

        def collect(info: SearchInfo) -> None:
            nonlocal last
            if relay is not None:
                relay(info)
            lines = self._lines(info, multipv)
            if multipv > 1 and len(lines) < multipv and last:
                return  # an unfinished iteration: keep the finished one's lines
            last = lines
            if on_lines is not None:
                on_lines(lines)

        result = self._search(positions, limit or Limit(), collect, root_scores=multipv > 1)
        if not last and result.move is not None:
            last = [self._answer(result)]
        return last

    def _search(self, positions: Sequence[Position], lim: Limit,
                on_info: Callable[[SearchInfo], None] | None, *,
                root_scores: bool = False) -> SearchResult:
        movetime = lim.time
        if movetime is None and lim.depth is None and lim.remaining is None:
            movetime = MAX_MOVETIME if lim.nodes is not None else self.level_info.movetime
        return self.searcher.search(
            positions[-1], depth=lim.depth, movetime=movetime, history=positions,
            on_info=on_info, nodes=lim.nodes, root_scores=root_scores, **_clock(lim, positions))

    # -- helpers ------------------------------------------------------------------------------
    def _check(self, game: Game, limit: Limit | None) -> None:
        if not isinstance(game, Game):
            raise TypeError(f"the engine takes a damiera.Game, not {type(game).__name__}")
        if limit is not None and not isinstance(limit, Limit):
            raise TypeError("the limit is a damiera.engine.Limit such as Limit(time=1.0), not "
                            f"{type(limit).__name__}")
        if game.variant != self.variant:
            raise ValueError(f"this engine plays {self.variant.name}, not {game.variant.name}")
        outcome = game.outcome()
        if outcome is not None:
            raise GameOverError(f"the game is over ({outcome.describe(game.variant)})")

    def _moves(self, raw: Sequence[CoreMove]) -> list[Move]:
        return [Move(self.variant, m) for m in raw]

    def _answer(self, result: SearchResult) -> Analysis:
        return Analysis(
            None if result.move is None else Move(self.variant, result.move),
            result.score, result.depth, result.nodes, result.seconds, self._moves(result.pv))

    def _relay(self, on_info: OnInfo | None) -> Callable[[SearchInfo], None] | None:
        """The search's callback that hands ``on_info`` each report with its moves as
        :class:`~damiera.rules.move.Move` values (None for None)."""
        if on_info is None:
            return None
        tell = on_info

        def relay(i: SearchInfo) -> None:
            tell(Info(i.depth, i.score, i.nodes, i.seconds, self._moves(i.pv),
                      [(score, self._moves(pv)) for score, pv in i.lines]))

        return relay

    def _lines(self, info: SearchInfo, multipv: int) -> list[Analysis]:
        """The best ``multipv`` lines of one iteration's report (an unfinished iteration's
        report in multi-PV mode has only its best move: one line)."""
        if multipv > 1 and info.lines:
            return [Analysis(Move(self.variant, pv[0]) if pv else None, score, info.depth,
                             info.nodes, info.seconds, self._moves(pv), rank)
                    for rank, (score, pv) in enumerate(info.lines[:multipv], start=1)]
        first = Move(self.variant, info.pv[0]) if info.pv else None
        return [Analysis(first, info.score, info.depth, info.nodes, info.seconds,
                         self._moves(info.pv))]


class _ClockArgs(TypedDict):
    cpu_time: bool
    remaining: float | None
    increment: float
    moves_to_go: int | None
    ply: int


def _clock(lim: Limit, positions: Sequence[Position]) -> _ClockArgs:
    """The search's clock arguments from a limit: the CPU clock, and the game clock with the
    plies played so far (the positions given, less the one to move in)."""
    return _ClockArgs(cpu_time=lim.cpu_time, remaining=lim.remaining,
                      increment=lim.increment or 0.0, moves_to_go=lim.moves_to_go,
                      ply=min(max(0, len(positions) - 1), MAX_GAME_PLY))
