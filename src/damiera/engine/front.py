"""The engine's public front, in the shape of python-chess: ``Engine(variant, level).play(game,
Limit(time=1.0))`` and ``.analyse(game, Limit(depth=6))``.

A thin layer over :class:`damiera.engine.levels.Player` (the playing levels, weaker moves
included) and its :class:`damiera.engine.search.Searcher` (the search itself); the game's
earlier positions are passed on so the search sees repetitions.

Scores are in centi-men (100 = one man) from the side to move's point of view; a won
position scores :data:`~damiera.engine.search.MATE` minus the plies to the win
(:attr:`Analysis.win_in` gives the plies).

>>> import damiera
>>> from damiera.engine import Engine, Limit
>>> game = damiera.Game("russian", fen="W:Wc3:Bd4,h8")
>>> Engine("russian", level=3).play(game, Limit(depth=2)).move
Move('c3:e5')
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from damiera.engine.levels import Player
from damiera.engine.search import MATE, MATE_BOUND, MAX_DEPTH, MAX_MOVETIME, Info, SearchResult
from damiera.game import Game, Move
from damiera.rules.game import GameOverError
from damiera.rules.variant import Variant
from damiera.rules.variant import variant as _variant


@dataclass(frozen=True)
class Limit:
    """How long to think: ``time`` (seconds for this move), ``depth`` (plies) and/or
    ``nodes`` (a node budget: the search stops once it has counted that many nodes, checked
    every 256 nodes, its first iteration always finished; the same search whatever the
    machine's speed).

    With none of them, the level's own time per move; ``nodes`` without ``time`` sets no
    clock but :data:`~damiera.engine.search.MAX_MOVETIME` (levels 1 and 2 keep their own
    shorter time). Raises ValueError for a time that is not above 0 or above
    :data:`~damiera.engine.search.MAX_MOVETIME`, a depth outside 1 ..
    :data:`~damiera.engine.search.MAX_DEPTH`, and a node budget below 1.
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"nodes must be at least 1, not {self.nodes!r}")
        if self.time is not None and not (
            math.isfinite(self.time) and 0 < self.time <= MAX_MOVETIME
        ):
            raise ValueError(f"time must be above 0 and at most {MAX_MOVETIME:g} seconds, "
                             f"not {self.time!r}")
        if self.depth is not None and not (1 <= self.depth <= MAX_DEPTH):
            raise ValueError(f"depth must be 1-{MAX_DEPTH} plies, not {self.depth!r}")


@dataclass
class Analysis:
    """A search's answer: ``move`` (None when the side to move has no legal move), ``score``
    (centi-men, side to move's view), ``pv`` (the expected line, ``move`` first), ``depth``
    (plies of the last finished iteration), ``nodes``, ``seconds``."""

    move: Move | None
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list[Move] = field(default_factory=list)

    @property
    def win_in(self) -> int | None:
        """Plies to a forced win (negative: to a forced loss), or None when the search
        found neither."""
        if self.score >= MATE_BOUND:
            return MATE - self.score
        if self.score <= -MATE_BOUND:
            return -(MATE + self.score)
        return None


#: What :meth:`Engine.play` returns (python-chess calls it ``PlayResult``).
PlayResult = Analysis


class Engine:
    """The computer opponent of one variant at one level (1 Beginner, 2 Club, 3 Master).

    It keeps its search tables between moves; use one engine per game thread. ``seed``
    makes the weaker-move choice of levels 1 and 2 reproducible. Raises
    :class:`~damiera.rules.variant.UnknownVariantError` for an unknown variant and
    ValueError for a level other than 1-3.
    """

    def __init__(self, variant: Variant | str, level: int = 3, *, seed: int | None = None):
        self.variant = _variant(variant) if isinstance(variant, str) else variant
        self.player = Player(self.variant, level, random.Random(seed))

    @property
    def level(self) -> int:
        return self.player.level.number

    def _check(self, game: Game) -> None:
        if game.variant != self.variant:
            raise ValueError(f"this engine plays {self.variant.name}, not {game.variant.name}")
        outcome = game.outcome()
        if outcome is not None:
            raise GameOverError(f"the game is over ({outcome.describe(game.variant)})")

    def _answer(self, result: SearchResult) -> Analysis:
        v = self.variant
        return Analysis(
            None if result.move is None else Move(v, result.move),
            result.score,
            result.depth,
            result.nodes,
            result.seconds,
            [Move(v, m) for m in result.pv],
        )

    def stop(self) -> None:
        """End the running :meth:`play` or :meth:`analyse` (if any) within milliseconds; it
        returns its best move so far. Safe to call from another thread (a Hub ``stop``); a
        search started later is not affected."""
        self.player.searcher.stop()

    def play(self, game: Game, limit: Limit | None = None, *,
             on_info: Callable[[Info], None] | None = None) -> Analysis:
        """The move this level plays in ``game`` (not played on it: call ``game.play``).

        Levels 1 and 2 sometimes choose a weaker move, as in a game on the site. ``on_info``
        is called after each finished iteration (:class:`~damiera.engine.search.Info`: depth,
        score, nodes, seconds, nps, and the PV as rules-core moves). Raises
        :class:`~damiera.rules.game.GameOverError` when the game is over and ValueError for
        a game of another variant.
        """
        self._check(game)
        lim = limit or Limit()
        rg = game.rules_game
        movetime = lim.time
        if movetime is None and lim.nodes is not None:
            movetime = MAX_MOVETIME
        return self._answer(
            self.player.choose(rg.position, rg.positions, movetime=movetime, depth=lim.depth,
                               on_info=on_info, nodes=lim.nodes)
        )

    def analyse(self, game: Game, limit: Limit | None = None, *,
                on_info: Callable[[Info], None] | None = None) -> Analysis:
        """The full-strength search of the position: best move, score and PV, whatever the
        level (the level only chooses the default time); even a single legal move is
        searched. ``on_info`` and errors as for :meth:`play`."""
        self._check(game)
        lim = limit or Limit()
        rg = game.rules_game
        movetime = lim.time
        if movetime is None and lim.depth is None:
            movetime = MAX_MOVETIME if lim.nodes is not None else self.player.level.movetime
        return self._answer(
            self.player.searcher.search(
                rg.position, depth=lim.depth, movetime=movetime, history=rg.positions,
                on_info=on_info, nodes=lim.nodes,
            )
        )
