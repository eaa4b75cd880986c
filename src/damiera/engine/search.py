"""Game-tree search: iterative deepening negamax alpha-beta with principal-variation search.

The search runs in the native core (``csrc/search.c``, :class:`damiera._core.Engine`), one
root iteration per call with the GIL released; this module keeps the iterative deepening,
the aspiration windows, the clock between iterations and the reporting (:class:`Info`,
:class:`SearchResult`). :meth:`Searcher.stop` (from any thread) ends a running search within
milliseconds, and Ctrl-C (KeyboardInterrupt) too.

What it does (issue 3, point 1):

- **Iterative deepening** from depth 1 up to a fixed depth and/or until a deadline; the best
  move of the last finished iteration is played (or the better move found so far by an
  unfinished one, once its first root move is searched).
- **Negamax alpha-beta with PVS**: the first move of each node is searched with the full
  window, the others with a null window and re-searched only when they beat alpha.
- **Transposition table**: a fixed array indexed by a 64-bit **Zobrist hash** (one random
  number per piece kind and square, one for the side to move), updated incrementally move by
  move; an entry is replaced by the newest. Entries hold depth, bound type, score and the
  index of the best move in the generator's (deterministic) move order.
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
- **Node limit**: ``nodes`` stops the search once it has counted that many nodes (checked
  every 256 nodes; depth 1 is finished whatever the limit): a budget independent of the
  machine's speed and load, for engine matches that judge a change of the search.

Legality comes only from the native rules core (:mod:`damiera.rules.movegen`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from damiera import _core
from damiera.engine.egdb import endgame_database
from damiera.engine.evaluate import Evaluator
from damiera.rules.geometry import popcount
from damiera.rules.movegen import Move, generate, native_rules
from damiera.rules.position import Position
from damiera.rules.variant import Variant

#: Score of a won position (the side to move wins), minus the plies to the win.
MATE: Final = 1_000_000
#: Scores beyond this are wins/losses in a known number of plies.
MATE_BOUND: Final = MATE - 10_000
INF: Final = MATE + 1
MAX_PLY: Final = 200
#: Longest search the front ends (CLI, hub) accept, in seconds; a fixed-depth search without
#: a clock is also stopped after this long (an hour).
MAX_MOVETIME: Final = 3600.0
#: Deepest fixed depth the front ends accept (plies).
MAX_DEPTH: Final = 30

#: Half-width of the root's aspiration window (centi-men) from depth ASPIRATION_DEPTH on.
ASPIRATION_WINDOW: Final = 20
ASPIRATION_DEPTH: Final = 4
#: Share of the movetime at which the search stops (the rest covers the last nodes and
#: returning the move).
_DEADLINE_SHARE: Final = 0.97
_NEVER: Final = float("inf")


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
    pv: list[Move]
    lines: list[tuple[int, list[Move]]] = field(default_factory=list)

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

    move: Move | None
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list[Move] = field(default_factory=list)
    root_scores: list[tuple[Move, int]] = field(default_factory=list)


def _history_state(positions: Sequence[Position]) -> tuple[int, int]:
    """From the game's positions (oldest first, the current one last), return
    ``(plies since the last irreversible move, plies since the last capture or promotion)``.

    A move is irreversible when it captures or moves a man; progress (for the 40-move rule) is
    a capture or a promotion. Both are read off consecutive positions.
    """
    rev = 0
    quiet = 0
    rev_done = False
    for i in range(len(positions) - 1, 0, -1):
        before, after = positions[i - 1], positions[i]
        mover = before.turn
        captured = popcount(before.white | before.black) > popcount(after.white | after.black)
        promoted = popcount(after.pieces(mover) & after.kings) > popcount(
            before.pieces(mover) & before.kings
        )
        men_moved = before.men(mover) != after.men(mover)
        if captured or promoted:
            break
        quiet += 1
        if not rev_done:
            if men_moved:
                rev_done = True
            else:
                rev += 1
    if not rev_done:
        rev = min(rev, quiet)
    return rev, quiet


class Searcher:
    """Search engine for one variant. Keeps its transposition table (``tt_entries`` entries,
    rounded down to a power of two, 16 bytes each) between searches; ``evaluator``: the
    static evaluation to search with (default: ``Evaluator(variant)``, the engine's own).

    Not for two searches at once; :meth:`stop` may be called from any thread.
    """

    def __init__(self, variant: Variant, tt_entries: int = 1 << 20,
                 evaluator: Evaluator | None = None, endgame_pieces: int = 0):
        self.variant = variant
        self.evaluator = evaluator if evaluator is not None else Evaluator(variant)
        self.engine = _core.Engine(
            native_rules(variant), self.evaluator, tt_entries,
            2 * variant.draw_moves_without_progress,
        )
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
        self._stopped = False
        #: Most pieces of the endgame database the search probes (0: none).
        self.endgame_pieces = 0
        self.use_endgame_database(endgame_pieces)

    def use_endgame_database(self, pieces: int) -> None:
        """Probe the endgame database of positions with up to ``pieces`` pieces
        (:func:`damiera.engine.egdb.endgame_database`, built on first use) at every interior
        node; 0 turns the probes off. Raises ValueError for ``pieces`` outside 0, 2..4 or a
        board other than 8x8 (with ``pieces`` > 0)."""
        if pieces == 0:
            self.engine.set_egdb(None)
        else:
            self.engine.set_egdb(endgame_database(self.variant, pieces))
        self.endgame_pieces = pieces

    def hash(self, pos: Position) -> int:
        """64-bit Zobrist hash of a position (the native core's keys)."""
        h: int = self.engine.hash(pos)
        return h

    def evaluate(self, pos: Position) -> int:
        """The native static evaluation of ``pos`` (the same terms as :class:`Evaluator`)."""
        score: int = self.engine.evaluate(pos)
        return score

    def stop(self) -> None:
        """End the running search (if any) within milliseconds: it returns its best move so
        far. Safe to call from another thread; a search started later is not affected."""
        self._stopped = True
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
        move with a full window (slower; used by the weaker levels to choose a weaker move).
        Raises ValueError for a depth below 1, a movetime that is not above 0 (NaN included)
        or a node limit below 1.
        """
        start = time.perf_counter()
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        if movetime is not None and not movetime > 0:  # also NaN, which would never stop
            raise ValueError(f"movetime must be a positive number of seconds, not {movetime}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"nodes must be at least 1, not {nodes}")
        if depth is None and movetime is None and nodes is None:
            depth = 6
        max_depth = depth if depth is not None else MAX_PLY - 10
        deadline = start + _DEADLINE_SHARE * movetime if movetime is not None else _NEVER
        positions = list(history)
        if not positions or positions[-1] != pos:
            positions.append(pos)
        rev, quiet = _history_state(positions)
        self._stopped = False
        self.engine.new_search(
            [self.hash(p) for p in positions[len(positions) - 1 - rev :]],
            self.threat_extension, self.reduce_sacrifices, self.prune_late_moves, self.probcut,
        )
        moves = generate(self.variant, pos)
        if not moves:
            return SearchResult(None, -MATE, 0, 0, time.perf_counter() - start)
        limited = movetime is not None or nodes is not None
        if len(moves) == 1 and limited and depth is None and not root_scores:
            score = self._root(pos, [0], 1, quiet, True, -INF, INF, _NEVER)[1]
            elapsed = time.perf_counter() - start
            if on_info is not None:
                on_info(Info(0, score, self.nodes, elapsed, [moves[0]]))
            return SearchResult(moves[0], score, 0, self.nodes, elapsed, [moves[0]])

        best = 0
        best_score = -INF
        best_pv: list[Move] = [moves[0]]
        done_depth = 0
        scores: list[tuple[int, int]] = []
        ordered = list(range(len(moves)))
        for d in range(1, max_depth + 1):
            # Depth 1 (every root move, with quiescence) is always finished, however short the
            # time (only stop() ends it): the move played and the score reported are searched.
            result = self._aspirate(pos, ordered, d, quiet, root_scores, best_score,
                                    _NEVER if d == 1 else deadline,
                                    0 if d == 1 or nodes is None else nodes)
            iter_best, iter_score, iter_scores, partial, partial_score, aborted = result
            if aborted:
                # Keep a better move from the unfinished iteration only if it was fully searched.
                # Every root move after the first is searched against the best so far, so a
                # move finished in the unfinished iteration is at least as good as the old one.
                if partial >= 0 and (done_depth > 0 or not scores) and partial != best:
                    best, best_score = partial, partial_score
                    best_pv = [moves[best]]
                    if on_info is not None:
                        # Said, so that the move played is the one the last info line shows.
                        on_info(Info(d, best_score, self.nodes, time.perf_counter() - start,
                                     best_pv))
                break
            best, best_score = iter_best, iter_score
            done_depth = d
            scores = iter_scores
            rank = {i: s for i, s in iter_scores}
            ordered.sort(key=lambda i: -rank.get(i, -INF))
            ordered.remove(iter_best)
            ordered.insert(0, iter_best)
            best_pv = self.engine.pv(pos, best, d)
            elapsed = time.perf_counter() - start
            if on_info is not None:
                info = Info(d, best_score, self.nodes, elapsed, best_pv)
                if root_scores:
                    # Multi-PV: every root move's line, from the table (exact scores).
                    info.lines = [
                        (sc, best_pv if i == best else self.engine.pv(pos, i, d))
                        for i, sc in sorted(iter_scores, key=lambda s: (-s[1], s[0] != best))
                    ]
                on_info(info)
            if abs(best_score) > MATE_BOUND and MATE - abs(best_score) <= d:
                break  # a forced result was found within the horizon
            if movetime is not None and elapsed > 0.9 * movetime:
                break
            if nodes is not None and self.nodes >= nodes:
                break
            if self._stopped:
                break
        return SearchResult(
            moves[best],
            best_score if best_score > -INF else 0,
            done_depth,
            self.nodes,
            time.perf_counter() - start,
            best_pv,
            sorted(((moves[i], s) for i, s in scores), key=lambda ms: -ms[1])
            if root_scores else [],
        )

    def _root(
        self,
        pos: Position,
        order: list[int],
        depth: int,
        quiet: int,
        full_window: bool,
        alpha: int,
        beta: int,
        deadline: float,
        max_nodes: int = 0,
    ) -> tuple[int, int, list[tuple[int, int]], int, int, bool]:
        """One root iteration in the native core; see :meth:`damiera._core.Engine.root`
        (``max_nodes``: node limit since :meth:`search` began, 0 for none)."""
        out: tuple[int, int, list[tuple[int, int]], int, int, bool] = self.engine.root(
            pos, order, depth, 0, quiet, full_window, alpha, beta,
            _monotonic_deadline(deadline), max_nodes,
        )
        self.nodes = self.engine.nodes
        return out

    def _aspirate(
        self,
        pos: Position,
        order: list[int],
        depth: int,
        quiet: int,
        full_window: bool,
        previous: int,
        deadline: float,
        max_nodes: int = 0,
    ) -> tuple[int, int, list[tuple[int, int]], int, int, bool]:
        """One root iteration inside an aspiration window around the ``previous`` iteration's
        score, widened to the full window on the side it fails (never when every root move
        needs an exact score, nor near a forced result)."""
        if full_window or depth < ASPIRATION_DEPTH or abs(previous) >= MATE_BOUND:
            return self._root(pos, order, depth, quiet, full_window, -INF, INF, deadline,
                              max_nodes)
        alpha = previous - ASPIRATION_WINDOW
        beta = previous + ASPIRATION_WINDOW
        while True:
            result = self._root(pos, order, depth, quiet, False, alpha, beta, deadline,
                                max_nodes)
            score = result[1]
            if result[5]:
                return result
            if score <= alpha:
                alpha = -INF
            elif score >= beta:
                beta = INF
            else:  # inside the window (always so once it is -INF .. INF)
                return result


def _monotonic_deadline(deadline: float) -> float:
    """A ``time.perf_counter`` deadline as CLOCK_MONOTONIC seconds (what the core reads)."""
    if deadline == _NEVER:
        return 1e300
    return deadline - time.perf_counter() + time.monotonic()
