"""Game-tree search: iterative deepening negamax alpha-beta with principal-variation search.

The whole search runs in the native core (``csrc/root.c``: the deepening, the aspiration
windows, the clock, the node budget and the lines; ``csrc/search.c``: the tree), in one call
of :meth:`damiera._core.Engine.search` with the interpreter lock released; this module is its
Python face (:class:`Searcher`, :class:`Info`, :class:`SearchResult`). :meth:`Searcher.stop`
(from any thread) ends a running search within milliseconds, and Ctrl-C (KeyboardInterrupt)
too.

What it does:

- **Iterative deepening** from depth 1 up to a fixed depth and/or until a deadline; the best
  move of the last finished iteration is played (or the better move found so far by an
  unfinished one, once its first root move is searched). The root moves of an iteration are
  ordered by the scores of the previous one, its best first.
- **Principal variation**: every node of the principal variation passes its line up to its
  parent (a triangular table), so an iteration reports the line it searched, ``depth`` moves
  long. A PV node cut by the transposition table's exact entry takes the line its earlier
  search found from a table of such lines (else the transposition table's best moves); a
  line stops after a move that repeats one of its positions.
- **Negamax alpha-beta with PVS**: the first move of each node is searched with the full
  window, the others with a null window and re-searched only when they beat alpha.
- **Transposition table**: a fixed array indexed by a 64-bit **Zobrist hash** (one random
  number per piece kind and square, one for the side to move), updated incrementally move by
  move, in buckets of two entries: the first keeps the deepest search of the current search
  (an earlier search's entry gives way to any new one), the second takes the rest. Entries
  hold depth, bound type, score and the index of the best move in the generator's
  (deterministic) move order.
- **Move ordering**: hash move, then captures (most pieces, kings first), promotions, two killer
  moves per ply, then the history heuristic (start, end) counters.
- **Aspiration windows**: from depth 4 the root is searched in a window of +-0.2 men around
  the previous iteration's score, widened to the full window on the side it fails.
- **Late-move reductions** of quiet moves from the fourth on at depth >= 3 (not the killers),
  growing with the logarithm of the depth and of the move's rank: 1 ply at depth 3, 2-3 at
  depth 6-10, up to 5 from depth 12, one ply less in the principal variation, the child never
  below depth 1 (re-searched at full depth when they beat alpha; judged in self-play at equal
  nodes, ``benchmarks/core_results.md``). A move after which the opponent can capture (an
  exchange or a sacrifice) is reduced like any other (``reduce_sacrifices``; False spares it,
  as the search did until the reductions above, ProbCut and late-move pruning: in self-play
  at equal nodes, together with ProbCut's capture guard below, reducing them too plays at
  least as well and deeper, ``benchmarks/core_results.md``). A position with a single legal
  move (a forced capture) is searched one ply deeper (forced-move extension); at the root
  under a clock that move is played at once, scored by a one-ply search after it.
- **ProbCut-style cut**: at a node outside the principal variation, depth >= 3, a
  null-window search of the same position at 40% of the depth that beats beta by 0.1 man a
  ply is taken as a fail high. Not with a king on the board nor with fewer than 8 pieces
  (endings, where shallow searches miss the tempo fights and the kings' long lines), and only
  where one side or the other can capture (in the quiet opening it cut one try in four for a
  third of the nodes; ``probcut``: off for tests). It buys depth per node (judged in self-play
  at equal nodes, ``benchmarks/core_results.md``).
- **Late-move and futility pruning**: at a node outside the principal variation of depth
  <= 3 where neither side can capture and no mate score is at stake, a quiet move that is
  not a killer and leaves the opponent no capture is not searched from the 6th / 9th / 13th
  move on (depth 1 / 2 / 3), nor at depth <= 2 when the static score plus 1.2 men a ply is
  at most alpha. The first move is always searched (``prune_late_moves``: off for tests).
- **Quiescence**: at depth 0 a position where the side to move can capture is not evaluated;
  the captures are searched until a quiet position is reached, so no position is scored in the
  middle of an exchange. Under the optional-capture house rule the side may also stand pat.
- **The goal options** (``csrc/goal.h``): a side to move without a legal move scores a loss,
  or under the losing rule a win, ``MATE`` less the plies to it; under breakthrough a node
  whose opponent has a king (it crowned with its last move, a crowning capture included) is
  lost, and at the horizon a side with a quiet crowning move wins in one. The endgame
  database is not probed under either goal (it is solved for the usual one).
- **Draws inside the search**: a position that repeats one already on the path (or in the game
  history) since the last irreversible move is scored 0 (one repetition is enough: the player
  could repeat again), and so is a position reached after ``2 x draw_moves_without_progress``
  plies without capture or promotion (RULES.md section 1: 40 moves by each side).
- **Endgame database** (off unless asked, ``endgame_pieces``): at every interior node with at
  most that many pieces the exact value of :mod:`damiera.engine.egdb` is returned (a win or
  loss of ``d`` plies as a mate score ``d`` plies away, so shorter wins are preferred; a draw
  as 0), but a win or loss only when the plies already played without progress plus ``d``
  stay below the no-progress limit (RULES.md section 1); otherwise the search goes on.
- **Time control**: ``movetime`` seconds; the clock is read every 256 nodes. Depth 1 (every
  root move, with quiescence) is always finished whatever the time; after it the search stops
  at the deadline (an unfinished iteration still counts when it found a better move; no new
  iteration starts after 90% of the time), so the move comes within a few milliseconds of
  the deadline (the 10% bound is checked in
  ``benchmarks/search_bench.py``).
- **Game clock**: with ``remaining`` seconds on the clock (``increment`` added after each
  move, ``moves_to_go`` to play on it, else an estimate of the moves left from ``ply``, the
  plies played) the core shares the clock out itself (:func:`allocate_time`): a soft target
  and a hard bound, both under the clock less a safety share (5% and the 30 ms a move costs
  outside the search) so that a normal game is never lost on time. A single legal move is
  played at once; after each iteration no new one starts past the soft target (half the
  clock's even share a move), which is cut to 40% when the best move has stood for 6
  iterations 0.5 man clear of the other moves' bounds, and stretched (x1.8, x1.6, both x2.9)
  when the last iteration changed the best move or dropped the score by 0.3 man or more, up
  to the hard bound (4 even shares, at most 30% of the clock); an iteration is cut at twice
  that target, or at the hard bound.
- **CPU clock** (``cpu_time``): the movetime and the game clock are measured on the search
  thread's CPU time instead of the wall clock, so that on a loaded machine the search still
  computes for the time it was given (matches on a shared machine compare equal CPU). The
  reported ``seconds`` stay wall-clock.
- **Node limit**: ``nodes`` stops the search once it has counted that many nodes (checked
  every 256 nodes; depth 1 is finished whatever the limit): a budget independent of the
  machine's speed and load, for engine matches that judge a change of the search.

Legality comes only from the native rules core (:mod:`damiera.rules.movegen`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from damiera import _core
from damiera.engine.egdb import endgame_database
from damiera.engine.evaluate import Evaluator
from damiera.rules.king_moves import streaks_of, tired_king
from damiera.rules.movegen import CoreMove, core_of, native_rules
from damiera.rules.position import Position
from damiera.rules.variant import Variant

#: Score of a won position (the side to move wins), minus the plies to the win.
MATE: Final[int] = _core.MATE
#: Scores beyond this are wins/losses in a known number of plies.
MATE_BOUND: Final[int] = _core.MATE_BOUND
INF: Final[int] = _core.INF
MAX_PLY: Final[int] = _core.MAX_PLY
#: Longest search the front ends (CLI, hub) accept, in seconds; a fixed-depth search without
#: a clock is also stopped after this long (an hour).
MAX_MOVETIME: Final[float] = float(_core.MAX_MOVETIME)
#: Most seconds a game clock may hold (100 hours).
MAX_CLOCK: Final[float] = float(_core.MAX_CLOCK)
#: Most moves to go a game clock may be given.
MAX_MOVES_TO_GO: Final[int] = _core.MAX_MOVES_TO_GO
#: Most plies played that a game clock's search is told (the sharing out no longer changes
#: long before).
MAX_GAME_PLY: Final[int] = _core.MAX_GAME_PLY
#: Deepest fixed depth the front ends accept (plies).
MAX_DEPTH: Final = 30

#: Half-width of the root's aspiration window (centi-men) from ASPIRATION_DEPTH on.
ASPIRATION_WINDOW: Final[int] = _core.ASPIRATION_WINDOW
ASPIRATION_DEPTH: Final[int] = _core.ASPIRATION_DEPTH


@dataclass
class Info:
    """Progress of one finished iteration: ``depth`` (plies), ``score`` (centi-men, side to
    move's view; mates are beyond :data:`MATE_BOUND`), ``nodes``, ``seconds``, ``pv`` (moves).

    ``lines``: when the search scores every root move (``root_scores=True``) and the
    iteration finished, ``(score, pv)`` for every root move, best first (multi-PV analysis);
    empty otherwise."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: list[CoreMove]
    lines: list[tuple[int, list[CoreMove]]] = field(default_factory=list)

    @property
    def nps(self) -> int:
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


@dataclass
class SearchResult:
    """Outcome of :meth:`Searcher.search`.

    ``move`` is None only when the side to move has no legal move. ``depth`` is the last
    finished iteration (at least 1, except 0 for no legal move, for a search stopped before
    its first iteration ended, and for a single legal move played at once under a clock, whose
    ``score`` then comes from a depth-1 search of the position after it, or the table's exact
    score of it); ``root_scores`` (when asked for) holds ``(move, score)`` for every root move
    from that iteration, scored with a full window.
    """

    move: CoreMove | None
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list[CoreMove] = field(default_factory=list)
    root_scores: list[tuple[CoreMove, int]] = field(default_factory=list)


class Searcher:
    """Search engine for one variant. Keeps its transposition table (``tt_entries`` entries,
    rounded down to a power of two and at least 1024, 16 bytes each) between searches;
    ``evaluator``: the static evaluation to search with (default: ``Evaluator(variant)``, the
    engine's own). A ``tt_entries`` that is not an integer (an int or any ``__index__``, not
    a bool) raises TypeError, one outside 1-2**32 ValueError, and a table the machine cannot
    allocate MemoryError with its size.

    Not for two searches at once; :meth:`stop` may be called from any thread.
    """

    def __init__(self, variant: Variant, tt_entries: int = 1 << 20,
                 evaluator: Evaluator | None = None, endgame_pieces: int = 0):
        self.variant = variant
        self.evaluator = evaluator if evaluator is not None else Evaluator(variant)
        if self.evaluator.variant != variant:
            raise ValueError(f"the evaluator is for {self.evaluator.variant.name}, "
                             f"not {variant.name}")
        self.engine = core_of(variant).Engine(native_rules(variant), self.evaluator.native, tt_entries)
        self.nodes = 0
        #: One-ply threat extension at the horizon (see the module docstring).
        self.threat_extension = True
        #: Late-move reductions also for moves that leave the opponent a capture (False: an
        #: exchange or a sacrifice, the first move of most shots, is searched to full depth).
        self.reduce_sacrifices = True
        #: Late-move and futility pruning of quiet moves near the leaves (False: every move
        #: searched; see the module docstring).
        self.prune_late_moves = True
        #: The ProbCut-style cut (False: off; see the module docstring).
        self.probcut = True
        #: Most pieces of the endgame database the search probes (0: none).
        self.endgame_pieces = 0
        self.use_endgame_database(endgame_pieces)

    def use_endgame_database(self, pieces: int, directory: Path | None = None) -> None:
        """Probe the endgame database of positions with up to ``pieces`` pieces
        (:func:`damiera.engine.egdb.endgame_database`: read from ``directory``, default the
        databases' folder, when built there, else solved in memory on first use) at every
        interior node; 0 turns the probes off. Raises ValueError for ``pieces`` outside 0,
        2..6, more than :func:`~damiera.engine.egdb.memory_pieces` without their files on disk,
        or a board other than the dark squares of 8x8 or 10x10 (with ``pieces`` > 0);
        EgdbFileError for an unusable file."""
        if pieces == 0:
            self.engine.set_egdb(None)
        else:
            self.engine.set_egdb(endgame_database(self.variant, pieces, directory))
        self.endgame_pieces = pieces

    def hash(self, pos: Position) -> int:
        """64-bit Zobrist hash of a position (the native core's keys)."""
        h: int = native_rules(self.variant).hash(pos)
        return h

    def evaluate(self, pos: Position) -> int:
        """The native static evaluation of ``pos`` (the same terms as :class:`Evaluator`)."""
        return self.evaluator.evaluate(pos)

    def stop(self) -> None:
        """End the running search (if any) within milliseconds: it returns its best move so
        far. Safe to call from another thread; a search started later is not affected."""
        self.engine.stop()

    def clear(self) -> None:
        """Forget the transposition table and the history counters (a new game)."""
        self.engine.clear()

    # -- public -------------------------------------------------------------------------------
    def search(
        self,
        pos: Position,
        *,
        depth: int | None = None,
        movetime: float | None = None,
        history: Sequence[Position] = (),
        on_info: Callable[[Info], None] | None = None,
        root_scores: bool = False,
        nodes: int | None = None,
        cpu_time: bool = False,
        remaining: float | None = None,
        increment: float = 0.0,
        moves_to_go: int | None = None,
        ply: int = 0,
    ) -> SearchResult:
        """Search ``pos`` and return the best move found.

        ``depth``: maximum nominal depth in plies (None: no limit but the clock, capped at
        :data:`MAX_PLY`); ``movetime``: seconds for the whole search (None: no clock);
        ``nodes``: node limit of the whole search (None: none; if depth, movetime and nodes
        are all None, depth 6 is used); ``history``: the game's earlier positions, oldest first
        (the current one may be included last), for repetition and the 40-move rule;
        ``on_info``: called after every finished iteration, and once more when an unfinished
        one found a better move (with that iteration's depth), or once with depth 0 for a
        single legal move played at once under a clock; ``root_scores``: score every root
        move with a full window (slower; used by the weaker levels to choose a weaker move);
        ``cpu_time``: measure ``movetime`` and the game clock on the search thread's CPU time;
        ``remaining``: seconds on the side to move's game clock (None: no game clock), with
        ``increment`` (seconds added after each move), ``moves_to_go`` (None: the rest of
        the game) and ``ply`` (plies played so far), shared out by the core
        (:func:`allocate_time`; with ``movetime`` too, the lower bound applies).
        Raises ValueError for a depth below 1, a movetime that is not above 0 (NaN included)
        or above :data:`MAX_MOVETIME`, a node limit below 1, and a game clock out of the
        ranges of :func:`allocate_time`.
        """
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        if movetime is not None and not movetime > 0:  # also NaN, which would never stop
            raise ValueError(f"movetime must be a positive number of seconds, not {movetime}")
        if remaining is not None and not remaining > 0:
            raise ValueError(f"remaining must be a positive number of seconds, not {remaining}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"nodes must be at least 1, not {nodes}")
        if depth is None and movetime is None and nodes is None and remaining is None:
            depth = 6
        report = None
        if on_info is not None:
            tell = on_info

            def report(d: int, score: int, count: int, seconds: float, pv: list[CoreMove],
                       lines: list[tuple[int, list[CoreMove]]]) -> None:
                tell(Info(d, score, count, seconds, pv, lines))

        move, score, done, count, seconds, pv, scores = self.engine.search(
            pos, history, min(depth or 0, MAX_PLY - 10), movetime or 0.0, nodes or 0, root_scores,
            self.threat_extension, self.reduce_sacrifices, self.prune_late_moves, self.probcut,
            on_info=report, cpu_time=cpu_time, remaining=remaining or 0.0, increment=increment,
            moves_to_go=moves_to_go or 0, ply=ply,
            resting_king=_resting_king(self.variant, history, pos),
        )
        self.nodes = count
        return SearchResult(move, score, done, count, seconds, pv, scores)


def _resting_king(variant: Variant, history: Sequence[Position], pos: Position) -> int:
    """The square of the king that may make no quiet move in ``pos`` under the variant's
    king-move limit (damiera.rules.king_moves), or -1. Only the last moves can make the run,
    so only the end of ``history`` (which may end with ``pos``) is read; anything there that
    is not a Position is left to the core to refuse."""
    limit = variant.king_quiet_move_limit
    if not limit:
        return -1
    tail = list(history[-(2 * limit + 2):])
    if not tail or tail[-1] != pos:
        tail.append(pos)
    if not all(isinstance(p, Position) for p in tail):
        return -1
    return tired_king(variant, pos, streaks_of(tail))


def allocate_time(remaining: float, increment: float = 0.0, moves_to_go: int | None = None,
                  ply: int = 0) -> tuple[float, float]:
    """``(soft, hard)``: the seconds the core plans for one move under a game clock of
    ``remaining`` seconds (``increment`` added after each move, ``moves_to_go`` moves to play
    on it, None for the rest of the game, estimated from ``ply``, the plies played): no new
    iteration starts after ``soft`` in an ordinary move, the search is cut at ``hard``, which
    stays below ``remaining`` by a safety share (``csrc/root.c``, ``time_allocate``); when
    the increment does not cover a move's overhead (30 ms), that of the moves still to come
    (at most 30) is kept back too, so that a long sudden-death game is not lost on time. A
    remaining time of 0 plans the least (1 ms).
    Raises ValueError for a remaining time outside 0 .. :data:`MAX_CLOCK`, an increment
    outside 0 .. :data:`MAX_MOVETIME` (NaN included), moves to go outside 0 ..
    :data:`MAX_MOVES_TO_GO` or plies outside 0 .. :data:`MAX_GAME_PLY`; TypeError for a
    value of another type (a bool included)."""
    for name, value, most in (("remaining", remaining, MAX_CLOCK),
                              ("increment", increment, MAX_MOVETIME)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"allocate_time's {name} is seconds (a number), "
                            f"not {type(value).__name__}")
        if isinstance(value, int) and abs(value) > most:  # also beyond a float's range
            raise ValueError(f"{name} must be 0-{most:g} seconds, not {value}")
    for name, count, most in (("moves_to_go", moves_to_go, MAX_MOVES_TO_GO),
                              ("ply", ply, MAX_GAME_PLY)):
        if count is None and name == "moves_to_go":
            continue
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"allocate_time's {name} is an int, not {type(count).__name__}")
        if not 0 <= count <= most:  # before the core's C int could overflow
            raise ValueError(f"{name} must be 0-{most}, not {count}")
    soft, hard = _core.allocate_time(remaining, increment, moves_to_go or 0, ply)
    return float(soft), float(hard)
