"""Building an opening book (:mod:`damiera.engine.book`) with Damiera's own search.

The book's positions are chosen in two parts:

1. **The full tree**: every position reached in the first ``full`` plies from the start
   position (every legal move of both sides), so that a game from any short opening of that
   many plies starts in book.
2. **The likely lines beyond**, up to ``plies`` plies from the start, best first by how
   likely a game reaches them: a position's weight is its parent's times the chance of the
   move, half the book's own choice (the moves within ``margin`` of the best, weighted as
   :meth:`~damiera.engine.book.Book.choose` weights them: the book side's good moves) and half
   an opponent who may play any reply (every move, weight ``exp(-d / 50)`` for a move ``d``
   centi-men below the best: all replies, the likely ones first). Both colours are covered:
   each position is the book side's for one colour and the opponent's for the other.

Every position is searched once (transpositions are one position, keyed by the position
itself) with every root move scored with a full window (``Searcher.search(root_scores=
True)``), to a fixed ``depth`` or for ``movetime`` seconds of CPU time (the search thread's
clock, so a loaded machine gives the same search), and stored with its moves' scores and the
depth reached. The building stops after ``max_positions`` positions or ``cpu_budget`` CPU
seconds of search, whichever comes first.

Restartable: given the book of an earlier run (``book``), its positions are taken as they are
(no search) and the building goes on from there in the same order.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from damiera.engine.book import BOOK_MARGIN, Book, BookMove
from damiera.engine.search import Searcher
from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import move_text
from damiera.rules.position import Position, start_position, write_fen
from damiera.rules.variant import Variant

#: Temperature (centi-men) of the opponent's replies in a position's weight.
OPPONENT_TEMPERATURE: Final = 50.0
#: Most plies a book may reach.
MAX_BOOK_PLIES: Final = 40


@dataclass(frozen=True)
class Step:
    """One position of the building: ``pos``, ``ply`` (plies from the start), ``weight`` (its
    chance of being reached, 1 in the full tree), ``searched`` (False: taken from the earlier
    book), ``depth`` reached, ``cpu`` (CPU seconds of its search) and ``done`` (positions in
    the book so far)."""

    pos: Position
    ply: int
    weight: float
    searched: bool
    depth: int
    cpu: float
    done: int


def move_chances(moves: tuple[BookMove, ...], margin: int) -> list[float]:
    """The chance of each of a position's book moves (best first) in a position's weight:
    half the book side's choice, half an opponent's reply (see the module's text)."""
    if not moves:
        return []
    best = moves[0].score
    own = [math.exp(-(best - m.score) / max(1.0, margin / 3)) if m.score >= best - margin
           else 0.0 for m in moves]
    other = [math.exp(-(best - m.score) / OPPONENT_TEMPERATURE) for m in moves]
    own_sum, other_sum = sum(own), sum(other)
    return [0.5 * a / own_sum + 0.5 * b / other_sum for a, b in zip(own, other, strict=True)]


def analyse(searcher: Searcher, pos: Position, movetime: float | None,
            depth: int | None) -> tuple[list[BookMove], int, float]:
    """Search ``pos`` with every root move scored: ``(moves, depth, cpu seconds)``."""
    v = searcher.variant
    cpu = time.thread_time()
    result = searcher.search(pos, depth=depth, movetime=movetime, cpu_time=movetime is not None,
                             root_scores=True)
    cpu = time.thread_time() - cpu
    scores = result.root_scores or ([(result.move, result.score)] if result.move else [])
    moves = [BookMove(m, move_text(v, m), s, result.depth) for m, s in scores]
    return moves, result.depth, cpu


def build_book(variant: Variant, *, plies: int, full: int, movetime: float | None = None,
               depth: int | None = None, margin: int = BOOK_MARGIN,
               max_positions: int = 100_000, cpu_budget: float | None = None,
               book: Book | None = None, searcher: Searcher | None = None) -> Iterator[Step]:
    """Fill ``book`` (a new one when None) for ``variant`` position by position (see the
    module's text), yielding a :class:`Step` for each; the book is complete when the iterator
    ends. ``plies``: the deepest position's plies from the start (0 ..
    :data:`MAX_BOOK_PLIES`); ``full``: the plies of the full tree (0 .. ``plies``);
    ``movetime`` (CPU seconds a position) and/or ``depth`` (plies); ``margin``: the book
    side's choice (centi-men). Raises ValueError for values out of range, neither a time nor a
    depth, or a book of another variant."""
    if not 0 <= plies <= MAX_BOOK_PLIES or not 0 <= full <= plies:
        raise ValueError(f"plies must be 0-{MAX_BOOK_PLIES} and the full tree 0 to plies, "
                         f"not {plies} and {full}")
    if movetime is None and depth is None:
        raise ValueError("give a time (seconds a position) or a depth to search to")
    if margin < 0 or max_positions < 1:
        raise ValueError("the margin must be at least 0 and the positions at least 1")
    if book is None:
        book = Book(variant)
    if book.variant != variant:
        raise ValueError(f"the book is for {book.variant.full_id}, not {variant.full_id}")
    book.settings.update({"plies": plies, "full": full, "time": movetime, "depth": depth,
                          "margin": margin, "engine": "damiera"})
    searcher = searcher or Searcher(variant)
    spent = 0.0
    seen: set[Position] = set()
    # Entries (-weight, ply, fen, position): the full tree first (weight above 1), then the
    # likeliest; the FEN orders ties, so a restarted build goes the same way.
    start = start_position(variant)
    queue = [(-2.0, 0, write_fen(variant, start), start)]
    while queue and len(seen) < max_positions:
        if cpu_budget is not None and spent >= cpu_budget:
            break
        key, ply, _fen, pos = heapq.heappop(queue)
        if pos in seen:
            continue
        seen.add(pos)
        weight = min(1.0, -key)
        moves = book.moves(pos)
        searched, reached, cpu = False, max((m.depth for m in moves), default=0), 0.0
        if not moves and legal_moves(variant, pos):
            found, reached, cpu = analyse(searcher, pos, movetime, depth)
            book.add(pos, found)
            moves, searched = book.moves(pos), True
            spent += cpu
        yield Step(pos, ply, weight, searched, reached, cpu, len(seen))
        if ply >= plies:
            continue
        chances = move_chances(moves, margin)
        for m, chance in zip(moves, chances, strict=True):
            child = apply_move(pos, m.move)
            if child in seen:
                continue
            if ply + 1 <= full:
                heapq.heappush(queue, (-2.0 - (full - ply), ply + 1, write_fen(variant, child),
                                       child))
            elif weight * chance > 0:
                heapq.heappush(queue, (-weight * chance, ply + 1, write_fen(variant, child),
                                       child))
