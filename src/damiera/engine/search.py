"""Game-tree search: iterative deepening negamax alpha-beta with principal-variation search.

What it does (issue 3, point 1):

- **Iterative deepening** from depth 1 up to a fixed depth and/or until a deadline; the best
  move of the last finished iteration is played (or the better move found so far by an
  unfinished one, once its first root move is searched).
- **Negamax alpha-beta with PVS**: the first move of each node is searched with the full
  window, the others with a null window and re-searched only when they beat alpha.
- **Transposition table** keyed by a 62-bit **Zobrist hash** (one random number per piece kind
  and square, one for the side to move), updated incrementally move by move. Entries hold
  depth, bound type, score and the index of the best move in the generator's (deterministic)
  move order.
- **Evaluation cache**: static scores by position, kept between iterations and searches
  (quiescence meets the same quiet leaves again at every iteration).
- **Move ordering**: hash move, then captures (most pieces, kings first), promotions, two killer
  moves per ply, then the history heuristic (start, end) counters.
- **Aspiration windows**: from depth 4 the root is searched in a window of +-0.2 men around
  the previous iteration's score, widened to the full window on the side it fails.
- **Late-move reductions** of one ply for late quiet moves at depth >= 3, two plies from the
  seventh move on at depth >= 6 outside the principal variation (re-searched at full depth
  when they beat alpha). A move after which the opponent can capture is never reduced: it
  is an exchange or a sacrifice, and the sacrifice that opens a shot is a quiet move that
  the history heuristic ranks late (against py-draughts on International, 0.3 s a move,
  three sets of 40 games: 82.5% instead of 77.7%). A position with a single legal
  move (a forced capture) is searched one ply deeper (forced-move extension); at the root
  under a clock that move is played at once, scored by a one-ply search after it.
- **Quiescence**: at depth 0 a position where the side to move can capture is not evaluated;
  the captures are searched until a quiet position is reached, so no position is scored in the
  middle of an exchange. Under the optional-capture house rule the side may also stand pat.
- **Draws inside the search**: a position that repeats one already on the path (or in the game
  history) since the last irreversible move is scored 0 (one repetition is enough: the player
  could repeat again), and so is a position reached after ``2 x draw_moves_without_progress``
  plies without capture or promotion (RULES.md section 1: 40 moves by each side).
- **Time control**: ``movetime`` seconds; the clock is read every 64 nodes. Depth 1 (every
  root move, with quiescence) is always finished whatever the time; after it the search stops
  at the deadline (an unfinished iteration still counts when it found a better move; no new
  iteration starts after 90% of the time), so the move comes within a few milliseconds of
  the deadline (the 10% bound is checked in
  ``benchmarks/search_bench.py``). :meth:`Searcher.stop`, from another thread, ends the
  search the same way at the next clock check; each clock check also lets other threads run
  (a front end reading its input while the search runs, as the Hub engine does).

Legality comes only from :func:`damiera.rules.movegen.generate` and
:func:`damiera.rules.movegen.has_capture`.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from damiera.engine._threads import let_threads_run
from damiera.engine.evaluate import NO_MOVES, Evaluator
from damiera.rules.geometry import popcount
from damiera.rules.movegen import Move, apply_move, generate, has_capture
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant

#: Score of a won position (the side to move wins), minus the plies to the win.
MATE: Final = 1_000_000
#: Scores beyond this are wins/losses in a known number of plies.
MATE_BOUND: Final = MATE - 10_000
INF: Final = MATE + 1
MAX_PLY: Final = 200
#: Longest search the front ends (CLI, hub) accept, in seconds; a fixed-depth search without
#: a clock is also stopped after this long (an hour).
MAX_MOVETIME: Final = 3600.0
#: Deepest fixed depth the front ends accept (plies). From the International start position
#: depth 13 takes about 45 s on the development machine and each ply costs 2-3 times more, so
#: deeper fixed searches would take hours; endgames reach it quickly.
MAX_DEPTH: Final = 30

_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2
#: Half-width of the root's aspiration window (centi-men) from depth ASPIRATION_DEPTH on.
ASPIRATION_WINDOW: Final = 20
ASPIRATION_DEPTH: Final = 4
#: Nodes between two reads of the clock. Not Final, so that tests can read the clock at every
#: node; it is only looked up once per that many nodes.
_CHECK_EVERY = 64
#: Share of the movetime at which the search stops (the rest covers the last nodes and
#: returning the move).
_DEADLINE_SHARE: Final = 0.97


class _Timeout(Exception):
    """Raised inside the search when the deadline has passed."""


def _zobrist_keys(nbits: int) -> tuple[list[list[int]], int]:
    """Random 62-bit keys: ``keys[kind][square]`` (kind 0 white man, 1 white king, 2 black man,
    3 black king) and the side-to-move key. Seeded, so hashes are the same in every run.
    62 bits keep every hash a short (unboxed) int when the search is compiled."""
    rng = random.Random(0xDA3E1A)
    keys = [[rng.getrandbits(62) for _ in range(nbits)] for _ in range(4)]
    return keys, rng.getrandbits(62)


def zobrist(keys: list[list[int]], side_key: int, pos: Position) -> int:
    """Full Zobrist hash of a position (the search updates it incrementally after that)."""
    h = side_key if pos.turn is Color.BLACK else 0
    for kind, bb in enumerate(
        (pos.white & ~pos.kings, pos.white & pos.kings, pos.black & ~pos.kings, pos.black & pos.kings)
    ):
        while bb:
            low = bb & -bb
            bb ^= low
            h ^= keys[kind][low.bit_length() - 1]
    return h


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
    finished iteration (at least 1, except 0 for no legal move and for a single legal move
    played at once under a clock, whose ``score`` then comes from a depth-1 search of the
    position after it, or the table's exact score of it); ``root_scores`` (when asked for)
    holds ``(move, score)`` for every root move from that iteration, scored with a full window.
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
    """Search engine for one variant. Keeps its transposition table between searches.

    ``tt_entries`` caps the table (entries; it is cleared when a search starts with more), and
    a quarter of it the evaluation cache (about 250 bytes an entry).
    """

    def __init__(self, variant: Variant, tt_entries: int = 1_000_000):
        self.variant = variant
        self.evaluator = Evaluator(variant)
        #: Static scores by position (bitboards and side to move): quiescence meets the same
        #: leaves again at every iteration. Cleared with the table.
        self.eval_cache: dict[tuple[int, int, int, bool], int] = {}
        from damiera.rules.geometry import geometry

        nbits = geometry(variant).nbits
        self.keys, self.side_key = _zobrist_keys(nbits)
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.tt_entries = tt_entries
        self.mandatory = variant.mandatory_capture
        self.draw_plies = 2 * variant.draw_moves_without_progress
        self.nodes = 0
        self._deadline = float("inf")
        self._next_check = _CHECK_EVERY
        #: Set by :meth:`stop` (from any thread); read at every clock check.
        self._stop_requested = False
        #: True while an iteration that is always finished runs (depth 1, a forced move's score).
        self._must_finish = False
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 8)]
        self.history: dict[tuple[int, int], int] = {}
        self.hashes: list[int] = []
        self._partial: tuple[Move, int] | None = None
        #: One-ply threat extension at the horizon (see :meth:`_quiesce`).
        self.threat_extension = True
        #: Late-move reductions also for moves that leave the opponent a capture (False: a
        #: sacrifice, the first move of most shots, is searched to full depth).
        self.reduce_sacrifices = False

    # -- hashing ------------------------------------------------------------------------------
    def hash(self, pos: Position) -> int:
        """Zobrist hash of a position (see :func:`zobrist`)."""
        return zobrist(self.keys, self.side_key, pos)

    def _child_hash(self, h: int, pos: Position, m: Move) -> int:
        keys = self.keys
        if pos.turn is Color.WHITE:
            own, opp = 0, 2
        else:
            own, opp = 2, 0
        h ^= keys[own + (1 if m.by_king else 0)][m.start]
        h ^= keys[own + (1 if (m.by_king or m.promotes) else 0)][m.end]
        if m.captures:
            ck = m.captured_kings
            okeys_man = keys[opp]
            okeys_king = keys[opp + 1]
            for c in m.captures:
                h ^= okeys_king[c] if ck >> c & 1 else okeys_man[c]
        return h ^ self.side_key

    # -- public -------------------------------------------------------------------------------
    def stop(self) -> None:
        """End the search running now, from any thread; :meth:`search` then returns its best
        move so far, as when its deadline passes (depth 1 is still finished first, so the move
        is always a searched one). The flag is read at every clock check (every
        ``_CHECK_EVERY`` nodes) and before each new iteration; a stop that comes when no
        search runs is forgotten when the next search starts."""
        self._stop_requested = True

    def _poll(self) -> None:
        """The clock check, every ``_CHECK_EVERY`` nodes: lets other threads run (compiled
        code never gives up the interpreter lock by itself, so a front end reading its input
        in another thread would wait for the whole search; see
        :mod:`damiera.engine._threads`), then raises :class:`_Timeout` after :meth:`stop` or
        past the deadline."""
        self._next_check = self.nodes + _CHECK_EVERY
        let_threads_run()
        if self._stop_requested and not self._must_finish:
            raise _Timeout
        if time.perf_counter() >= self._deadline:
            raise _Timeout

    def search(
        self,
        pos: Position,
        *,
        depth: int | None = None,
        movetime: float | None = None,
        history: Sequence[Position] = (),
        on_info: Callable[[Info], None] | None = None,
        root_scores: bool = False,
    ) -> SearchResult:
        """Search ``pos`` and return the best move found.

        ``depth``: maximum nominal depth in plies (None: no limit but the clock, capped at
        :data:`MAX_PLY`); ``movetime``: seconds for the whole search (None: no clock; if both
        are None, depth 6 is used); ``history``: the game's earlier positions, oldest first
        (the current one may be included last), for repetition and the 40-move rule;
        ``on_info``: called after every finished iteration, and once more when an unfinished
        one found a better move (with that iteration's depth), or once with depth 0 for a
        single legal move played at once under a clock; ``root_scores``: score every root
        move with a full window (slower; used by the weaker levels to choose a weaker move).
        Raises ValueError for a depth below 1 or a movetime that is not above 0 (NaN included).
        """
        start = time.perf_counter()
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        if movetime is not None and not movetime > 0:  # also NaN, which would never stop
            raise ValueError(f"movetime must be a positive number of seconds, not {movetime}")
        if depth is None and movetime is None:
            depth = 6
        max_depth = depth if depth is not None else MAX_PLY - 10
        self._deadline = start + _DEADLINE_SHARE * movetime if movetime is not None else float("inf")
        self.nodes = 0
        self._next_check = _CHECK_EVERY
        self._stop_requested = False
        self.history = {k: v // 8 for k, v in self.history.items()}
        self.killers = [[None, None] for _ in range(MAX_PLY + 8)]
        if len(self.tt) > self.tt_entries:
            self.tt.clear()
        if len(self.eval_cache) > self.tt_entries // 4:
            self.eval_cache.clear()

        # No reference cycles are made while searching: the cyclic garbage collector would only
        # pause the search (tens of ms over a large table), so it is off until we return.
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._search_root(pos, start, depth, movetime, max_depth, history, on_info,
                                     root_scores)
        finally:
            if gc_was_enabled:
                gc.enable()

    def _search_root(
        self,
        pos: Position,
        start: float,
        depth: int | None,
        movetime: float | None,
        max_depth: int,
        history: Sequence[Position],
        on_info: Callable[[Info], None] | None,
        root_scores: bool,
    ) -> SearchResult:
        positions = list(history)
        if not positions or positions[-1] != pos:
            positions.append(pos)
        rev, quiet = _history_state(positions)
        self.hashes = [self.hash(p) for p in positions[len(positions) - 1 - rev :]]
        root_hash = self.hashes[-1]
        rep_start = 0

        moves = generate(self.variant, pos)
        if not moves:
            return SearchResult(None, -MATE, 0, 0, time.perf_counter() - start)
        if len(moves) == 1 and movetime is not None and depth is None and not root_scores:
            score = self._forced_score(pos, root_hash, moves, quiet)
            elapsed = time.perf_counter() - start
            if on_info is not None:
                on_info(Info(0, score, self.nodes, elapsed, [moves[0]]))
            return SearchResult(moves[0], score, 0, self.nodes, elapsed, [moves[0]])

        best_move = moves[0]
        best_score = -INF
        best_pv: list[Move] = [best_move]
        done_depth = 0
        scores: list[tuple[Move, int]] = []
        ordered = list(moves)
        prev_scores: dict[int, int] = {}
        for d in range(1, max_depth + 1):
            # Depth 1 (every root move, with quiescence) is always finished, however short the
            # time: the move played and the score reported are always searched ones.
            if d > 1 and self._stop_requested:
                break
            deadline = self._deadline
            if d == 1:
                self._deadline = float("inf")
                self._must_finish = True
            timed_out = False
            try:
                iter_best, iter_score, iter_scores = self._aspirate(
                    pos, root_hash, ordered, d, rep_start, quiet, root_scores, best_score,
                )
            except _Timeout:
                timed_out = True
            finally:
                self._deadline = deadline
                self._must_finish = False
            # mypyc cannot compile a ``break`` inside try/finally: leave the loop out here.
            if timed_out:
                # Keep a better move from the unfinished iteration only if it was fully searched.
                # Every root move after the first is searched against the best so far, so a
                # move finished in the unfinished iteration is at least as good as the old one.
                partial = self._partial
                if partial is not None and done_depth > 0 and partial[0] != best_move:
                    best_move, best_score = partial
                    best_pv = [best_move]
                    if on_info is not None:
                        # Said, so that the move played is the one the last info line shows.
                        on_info(Info(d, best_score, self.nodes, time.perf_counter() - start,
                                     best_pv))
                break
            best_move, best_score = iter_best, iter_score
            done_depth = d
            scores = iter_scores
            prev_scores = {id(m): s for m, s in iter_scores}
            ordered.sort(key=lambda m: -prev_scores.get(id(m), -INF))
            ordered.remove(iter_best)
            ordered.insert(0, iter_best)
            best_pv = self._pv(pos, root_hash, best_move, d)
            elapsed = time.perf_counter() - start
            if on_info is not None:
                info = Info(d, best_score, self.nodes, elapsed, best_pv)
                if root_scores:
                    # Multi-PV: every root move's line, from the table (exact scores).
                    info.lines = [
                        (sc, best_pv if m is best_move else self._pv(pos, root_hash, m, d))
                        for m, sc in sorted(iter_scores,
                                            key=lambda ms: (-ms[1], ms[0] is not best_move))
                    ]
                on_info(info)
            if abs(best_score) > MATE_BOUND and MATE - abs(best_score) <= d:
                break  # a forced result was found within the horizon
            if movetime is not None and elapsed > 0.9 * movetime:
                break
        return SearchResult(
            best_move,
            best_score,
            done_depth,
            self.nodes,
            time.perf_counter() - start,
            best_pv,
            sorted(scores, key=lambda ms: -ms[1]) if root_scores else [],
        )

    def _forced_score(self, pos: Position, h: int, moves: list[Move], quiet: int) -> int:
        """Score of the only legal move, played at once: the root searched at depth 1, so
        that the move's position is searched one ply (forced-move extension; a few dozen
        nodes), the draw rules first, then an exact score from the table when an earlier
        search left one. So a forced capture in the middle of an exchange is not scored as
        the man up or down that the static evaluation sees for a moment. Like the first
        iteration of any search, it is finished whatever the clock (a static score as the
        fallback swung by ten men with the clock in a king ending, newcomer finding)."""
        deadline = self._deadline
        self._deadline = float("inf")
        self._must_finish = True
        try:
            return self._root(pos, h, moves, 1, 0, quiet, True, -INF, INF)[1]
        finally:
            self._deadline = deadline
            self._must_finish = False

    # -- root ---------------------------------------------------------------------------------
    def _aspirate(
        self,
        pos: Position,
        h: int,
        moves: list[Move],
        depth: int,
        rep_start: int,
        quiet: int,
        full_window: bool,
        previous: int,
    ) -> tuple[Move, int, list[tuple[Move, int]]]:
        """One root iteration inside an aspiration window around the ``previous`` iteration's
        score, widened to the full window on the side it fails (never when every root move
        needs an exact score, nor near a forced result)."""
        if full_window or depth < ASPIRATION_DEPTH or abs(previous) >= MATE_BOUND:
            return self._root(pos, h, moves, depth, rep_start, quiet, full_window, -INF, INF)
        alpha = previous - ASPIRATION_WINDOW
        beta = previous + ASPIRATION_WINDOW
        while True:
            best, score, scores = self._root(pos, h, moves, depth, rep_start, quiet, False,
                                             alpha, beta)
            if score <= alpha:
                alpha = -INF
            elif score >= beta:
                beta = INF
            else:  # inside the window (always so once it is -INF .. INF)
                return best, score, scores

    def _root(
        self,
        pos: Position,
        h: int,
        moves: list[Move],
        depth: int,
        rep_start: int,
        quiet: int,
        full_window: bool,
        alpha: int,
        beta: int,
    ) -> tuple[Move, int, list[tuple[Move, int]]]:
        """Search every root move (a fail-high stops early) in the window ``(alpha, beta)``;
        ``full_window`` scores every move exactly."""
        alpha0 = alpha
        best: Move = moves[0]
        best_score = -INF
        scores: list[tuple[Move, int]] = []
        self._partial = None
        hashes = self.hashes
        ext = 1 if len(moves) == 1 else 0
        for i, m in enumerate(moves):
            child = apply_move(pos, m)
            ch = self._child_hash(h, pos, m)
            progress = bool(m.captures) or m.promotes
            hashes.append(ch)
            child_rep = len(hashes) - 1 if (progress or not m.by_king) else rep_start
            child_quiet = 0 if progress else quiet + 1
            try:
                if i == 0 or full_window:
                    score = -self._search(child, ch, depth - 1 + ext, -beta, -alpha, 1,
                                          child_rep, child_quiet)
                else:
                    score = -self._search(child, ch, depth - 1 + ext, -alpha - 1, -alpha, 1,
                                          child_rep, child_quiet)
                    if score > alpha:
                        score = -self._search(child, ch, depth - 1 + ext, -beta, -alpha, 1,
                                              child_rep, child_quiet)
            finally:
                hashes.pop()
            scores.append((m, score))
            if score > best_score:
                best_score = score
                best = m
                if score > alpha0:
                    self._partial = (m, score)
                if score > alpha and not full_window:
                    alpha = score
                    if score >= beta:
                        break
        if alpha0 < best_score < beta or full_window:
            self.tt[h] = (depth, _EXACT, best_score, self._index_of(pos, best))
        return best, best_score, scores

    def _index_of(self, pos: Position, m: Move) -> int:
        for i, g in enumerate(generate(self.variant, pos)):
            if g == m:
                return i
        return -1

    def _pv(self, pos: Position, h: int, first: Move, depth: int) -> list[Move]:
        """Principal variation: the first move, then the hash moves (at most ``depth``)."""
        pv = [first]
        seen = {h}
        h = self._child_hash(h, pos, first)
        pos = apply_move(pos, first)
        while len(pv) < depth and h not in seen:
            seen.add(h)
            entry = self.tt.get(h)
            if entry is None or entry[3] < 0:
                break
            moves = generate(self.variant, pos)
            if entry[3] >= len(moves):
                break
            m = moves[entry[3]]
            pv.append(m)
            h = self._child_hash(h, pos, m)
            pos = apply_move(pos, m)
        return pv

    # -- interior nodes -----------------------------------------------------------------------
    def _search(
        self,
        pos: Position,
        h: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        rep_start: int,
        quiet: int,
    ) -> int:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._poll()
        # Draws: 40-move rule, repetition on the path or in the game history.
        if quiet >= self.draw_plies:
            return 0
        hashes = self.hashes
        i = len(hashes) - 3
        while i >= rep_start:
            if hashes[i] == h:
                return 0
            i -= 2
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(pos, h, alpha, beta, ply, self.threat_extension)

        # Transposition table.
        tt = self.tt
        entry = tt.get(h)
        hash_idx = -1
        if entry is not None:
            e_depth, e_flag, e_score, hash_idx = entry
            if e_depth >= depth:
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                if e_flag == _EXACT:
                    return e_score
                if e_flag == _LOWER:
                    if e_score >= beta:
                        return e_score
                elif e_score <= alpha:
                    return e_score

        pv_node = beta - alpha > 1
        moves = generate(self.variant, pos)
        n = len(moves)
        if n == 0:
            return -MATE + ply
        if n == 1:
            depth += 1  # forced move: does not count
            order = [0]
        else:
            order = self._order(moves, hash_idx, ply)

        alpha0 = alpha
        best_score = -INF
        best_idx = order[0]
        killers = self.killers[ply]
        variant = self.variant
        reduce_sacrifices = self.reduce_sacrifices
        turn_white = pos.turn is Color.WHITE
        keys = self.keys
        side_key = self.side_key
        own = 0 if turn_white else 2
        opp = 2 - own
        for k, idx in enumerate(order):
            m = moves[idx]
            child = apply_move(pos, m)
            # Incremental Zobrist hash.
            ch = h ^ side_key ^ keys[own + (1 if m.by_king else 0)][m.start] ^ keys[
                own + (1 if (m.by_king or m.promotes) else 0)
            ][m.end]
            caps = m.captures
            if caps:
                ck = m.captured_kings
                km = keys[opp]
                kk = keys[opp + 1]
                for c in caps:
                    ch ^= kk[c] if ck >> c & 1 else km[c]
                progress = True
            else:
                progress = m.promotes
            hashes.append(ch)
            child_rep = len(hashes) - 1 if (progress or not m.by_king) else rep_start
            child_quiet = 0 if progress else quiet + 1
            try:
                if k == 0:
                    score = -self._search(child, ch, depth - 1, -beta, -alpha, ply + 1, child_rep,
                                    child_quiet)
                else:
                    reduction = 0
                    if (
                        depth >= 3
                        and k >= 3
                        and not progress
                        and m != killers[0]
                        and m != killers[1]
                        and (reduce_sacrifices or not has_capture(variant, child))
                    ):
                        reduction = 2 if (depth >= 6 and k >= 6 and not pv_node) else 1
                    score = -self._search(child, ch, depth - 1 - reduction, -alpha - 1, -alpha,
                                    ply + 1, child_rep, child_quiet)
                    if score > alpha and reduction:
                        score = -self._search(child, ch, depth - 1, -alpha - 1, -alpha, ply + 1,
                                        child_rep, child_quiet)
                    if alpha < score < beta:
                        score = -self._search(child, ch, depth - 1, -beta, -alpha, ply + 1,
                                        child_rep, child_quiet)
            finally:
                hashes.pop()
            if score > best_score:
                best_score = score
                best_idx = idx
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if not caps:
                            if killers[0] is not m:
                                killers[1] = killers[0]
                                killers[0] = m
                            key = (m.start, m.end)
                            self.history[key] = self.history.get(key, 0) + depth * depth
                        break

        if best_score >= beta:
            flag = _LOWER
        elif best_score > alpha0:
            flag = _EXACT
        else:
            flag = _UPPER
        stored = best_score
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        tt[h] = (depth, flag, stored, best_idx)
        return best_score

    def _order(self, moves: list[Move], hash_idx: int, ply: int) -> list[int]:
        """Indices of ``moves`` best first: hash move, captures, promotions, killers, history."""
        killers = self.killers[ply]
        k0, k1 = killers
        hist = self.history
        keyed: list[tuple[int, int]] = []
        for i, m in enumerate(moves):
            if i == hash_idx:
                s = 1 << 40
            elif m.captures:
                s = (1 << 30) + (len(m.captures) << 10) + popcount(m.captured_kings)
            elif m.promotes:
                s = 1 << 29
            elif m == k0:
                s = 1 << 28
            elif m == k1:
                s = (1 << 28) - 1
            else:
                s = hist.get((m.start, m.end), 0)
            keyed.append((-s, i))
        keyed.sort()
        return [i for _, i in keyed]

    def _quiesce(
        self, pos: Position, h: int, alpha: int, beta: int, ply: int, threat: bool = False
    ) -> int:
        """Search captures only, until the side to move has none; then evaluate.

        With ``threat`` (at the horizon of the main search only), a quiet position in which
        the opponent could capture if it were to move is not evaluated either: every move of
        the side to move is tried for one ply, then captures are resolved (threat extension),
        so a man left en prise or a shot prepared at the horizon is seen.
        """
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._poll()
        variant = self.variant
        if not has_capture(variant, pos) or ply >= MAX_PLY:
            if threat and ply < MAX_PLY and has_capture(variant, pos, pos.turn.opponent):
                moves = generate(variant, pos)
                if not moves:
                    return -MATE + ply
                return self._quiesce_moves(pos, moves, -INF, alpha, beta, ply)
            score = self._static(pos)
            if score == NO_MOVES:
                return -MATE + ply
            return score
        moves = generate(variant, pos)
        if not self.mandatory:
            stand = self._static(pos)
            if stand == NO_MOVES:
                stand = -INF  # no quiet move: it must capture
            if stand >= beta:
                return stand
            alpha = max(alpha, stand)
            moves = [m for m in moves if m.captures]
        return self._quiesce_moves(pos, moves, -INF if self.mandatory else alpha, alpha, beta, ply)

    def _static(self, pos: Position) -> int:
        """The evaluator's score of ``pos``, through :attr:`eval_cache`."""
        key = (pos.white, pos.black, pos.kings, pos.turn is Color.WHITE)
        cached = self.eval_cache.get(key)
        if cached is None:
            cached = self.eval_cache[key] = self.evaluator.evaluate(pos)
        return cached

    def _quiesce_moves(
        self, pos: Position, moves: list[Move], best: int, alpha: int, beta: int, ply: int
    ) -> int:
        """Best quiescence score over ``moves`` (fail-soft, starting from ``best``)."""
        for m in moves:
            score = -self._quiesce(apply_move(pos, m), 0, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best
