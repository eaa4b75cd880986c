"""Three playing levels of the computer opponent.

Each level is a search budget (a depth limit and a time per move) and, for the two lower ones,
a controlled chance of playing a weaker move:

========  ==========  =======  ==========  ============  ======================================
level     name        depth    time/move   weaker move   how the weaker move is chosen
========  ==========  =======  ==========  ============  ======================================
1         Beginner    2 plies  0.5 s max   35% of moves  among the other moves that score at
                                                          most 1.5 men below the best, the
                                                          nearer the likelier
2         Club        4 plies  1 s max     10% of moves  the same, at most 0.4 men below
3         Master      no cap   2 s (the    never         --
                               time given)
========  ==========  =======  ==========  ============  ======================================

"Never absurd": the weaker move is always one the level's own search scores within the margin
of its best, so it never hangs a whole sequence of pieces and never misses a won ending it
sees; a forced capture (one legal move) is always played at once. Among those moves the
choice is weighted like a player's: a move ``d`` centi-men below the best has weight
``exp(-d / (margin / 3))``, so a near-equal alternative is often played and a move that
gives a man away (1 man below, at level 1) about 7 times less often than it; its other
mistakes are a shallow player's, the shots beyond its 2 plies.

On 8x8 boards levels 2 and 3 also probe the endgame database of positions with up to 3 pieces
(:mod:`damiera.engine.egdb`: exact results, read from the files of ``damiera egdb build`` when
they are there, else solved in about a third of a second on first use; measured in
``benchmarks/egdb_results.md``, where 5 pieces from disk did not show a gain at equal time);
level 1 plays its endings by search alone. On 10x10 boards no level probes one unless asked
(:func:`damiera.engine.egdb.level_pieces`). ``Engine(..., endgame_pieces=N)`` asks for
another size.

Level 3 plays from the rule set's opening book (:mod:`damiera.engine.book`: Damiera's own
deeper analysis of the first plies, a move drawn among those within 0.2 men of the book's
best, so its openings vary) when the rule set has one, and searches out of book; levels 1 and
2 never use it (``Level.book``): their variety is their weaker moves, and a book's deep moves
would make their openings stronger than the rest of their play. ``Engine(..., book=False)``
switches it off. The book's measured effect is in ``benchmarks/book_results.md``.

Level 3 searches until the time it is given runs out (default 2 s a move); levels 1 and 2 stop
at their depth limit or their time cap, whichever comes first. The one engine front,
:class:`damiera.engine.Engine`, plays by these levels. Their measured strength gaps
are in ``benchmarks/search_bench.py``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from damiera.engine.egdb import DEFAULT_PIECES
from damiera.engine.search import MATE_BOUND
from damiera.rules.movegen import Move


@dataclass(frozen=True)
class Level:
    """One playing level.

    ``number`` (1-3); ``name``; ``depth`` (max plies, None = no cap); ``movetime`` (seconds per
    move: the level's default, and its cap when a caller offers more, except level 3 which uses
    all it is given); ``weaker_chance`` (probability 0-1 of playing a weaker move);
    ``weaker_margin`` (centi-men: how far below the best a weaker move may score);
    ``endgame_pieces`` (the search probes the endgame database of positions with up to that
    many pieces on 8x8 boards; 0: none); ``book`` (the level plays from the variant's opening
    book, :mod:`damiera.engine.book`, when there is one).
    """

    number: int
    name: str
    depth: int | None
    movetime: float
    weaker_chance: float
    weaker_margin: int
    endgame_pieces: int = 0
    book: bool = False

    @property
    def uses_given_time(self) -> bool:
        """True when the level spends all the time it is given (no depth cap)."""
        return self.depth is None


LEVELS: dict[int, Level] = {
    1: Level(1, "Beginner", depth=2, movetime=0.5, weaker_chance=0.35, weaker_margin=150),
    2: Level(2, "Club", depth=4, movetime=1.0, weaker_chance=0.10, weaker_margin=40,
             endgame_pieces=DEFAULT_PIECES),
    3: Level(3, "Master", depth=None, movetime=2.0, weaker_chance=0.0, weaker_margin=0,
             endgame_pieces=DEFAULT_PIECES, book=True),
}


def level(number: int) -> Level:
    """The level with this number. Raises ValueError for anything but 1, 2 or 3."""
    try:
        return LEVELS[int(number)]
    except (KeyError, ValueError):
        raise ValueError(f"level must be 1, 2 or 3, not {number!r}") from None


def weaker_move(root_scores: Sequence[tuple[Move, int]], margin: int,
                rng: random.Random) -> tuple[Move, int] | None:
    """A weaker move and its score, from root moves scored best first (centi-men): one of the
    moves after the first that score at most ``margin`` below it, drawn with weight
    ``exp(-d / (margin / 3))`` for a move ``d`` centi-men below the best; None when there is
    no such move, or when the best move wins by force (a longer win scores only a few centi-men
    lower, and a few of them in a row let the draw rules take the win)."""
    if len(root_scores) < 2:
        return None
    best = root_scores[0][1]
    if best > MATE_BOUND:
        return None  # a won ending is played out: a longer win looks only a few centi-men worse
    others = [(m, s) for m, s in root_scores[1:] if s >= best - margin]
    if not others:
        return None
    temperature = max(1.0, margin / 3)
    return rng.choices(others, [math.exp(-(best - s) / temperature) for _m, s in others])[0]


def random_move(pos_moves: Sequence[Move], rng: random.Random) -> Move:
    """A uniformly random legal move (the ``random`` opponent of engine matches)."""
    return rng.choice(list(pos_moves))
