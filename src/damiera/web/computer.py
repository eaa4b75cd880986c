"""The computer opponent for the web site, run outside the server's event loop.

:func:`choose_move` is the one function that picks the computer's move; it uses the engine's
levels (:mod:`damiera.engine.levels`, issue 3). :class:`ComputerPool` runs it in a
:class:`concurrent.futures.ProcessPoolExecutor`, so a search never blocks the site.

Worker processes keep one :class:`~damiera.engine.levels.Player` per (variant, level), so
the search tables carry over between moves.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from damiera.engine.levels import Player
from damiera.rules.movegen import Move, legal_moves
from damiera.rules.position import Position, start_position
from damiera.rules.variant import variant as get_variant

_players: dict[tuple[str, bool, int], Player] = {}


def choose_move(
    variant_id: str,
    optional_capture: bool,
    positions: Sequence[Position],
    level: int,
    movetime: float | None = None,
) -> Move:
    """The computer's move in ``positions[-1]`` at ``level`` (1, 2 or 3).

    ``positions``: the game's positions, oldest first, the current one last (the search uses
    them to see repetitions). ``movetime``: seconds allowed (None: the level's own time).
    Raises ValueError when the position has no legal move or the level is not 1-3.
    """
    v = get_variant(variant_id, optional_capture=optional_capture)
    position = positions[-1]
    moves = legal_moves(v, position)
    if not moves:
        raise ValueError("the computer has no legal move")
    if len(moves) == 1:
        return moves[0]
    key = (variant_id, optional_capture, level)
    player = _players.get(key)
    if player is None:
        player = _players[key] = Player(v, level)
    result = player.choose(position, history=list(positions), movetime=movetime)
    return result.move if result.move is not None else moves[0]


class ComputerPool:
    """Runs :func:`choose_move` in worker processes.

    ``workers``: number of processes (default: the CPU count, at most 4). ``movetime``: cap in
    seconds given to every search (None: each level's own time). The pool starts on first use;
    :meth:`close` stops it.
    """

    def __init__(self, workers: int | None = None, movetime: float | None = None):
        self.workers = workers or min(4, os.cpu_count() or 1)
        self.movetime = movetime
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._executor

    async def choose(
        self,
        variant_id: str,
        optional_capture: bool,
        positions: Sequence[Position],
        level: int,
    ) -> Move:
        """The computer's move (see :func:`choose_move`), computed in a worker process."""
        loop = asyncio.get_running_loop()
        args = (variant_id, optional_capture, list(positions), level, self.movetime)
        try:
            return await loop.run_in_executor(self._pool(), choose_move, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh once
            self._executor = None
            return await loop.run_in_executor(self._pool(), choose_move, *args)

    def warm(self) -> None:
        """Start the worker processes now (in the background), so the first move is quick."""
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(_warm)

    def close(self) -> None:
        """Stop the worker processes (searches under way are abandoned)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def _warm() -> None:
    """Import the engine in a worker process."""
    choose_move("italian", False, [start_position(get_variant("italian"))], 1, 0.01)
