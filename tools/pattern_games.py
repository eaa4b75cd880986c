"""The games the pattern trainer learns from (``tools/train_patterns.py`` ``selfplay`` and
``label``): the engine playing itself at a fixed depth or node budget, and the positions of
those games searched again deeper; both written as position files (``pattern_positions``)."""

from __future__ import annotations

import random
import time

import numpy as np
from pattern_positions import load_positions, position_at, save_positions

from damiera.engine.search import Searcher, SearchResult
from damiera.rules.game import Game
from damiera.rules.movegen import has_capture
from damiera.rules.position import Position
from damiera.rules.variant import Color
from damiera.rules.variant import variant as get_variant

MAX_PLIES = 300


def budget_search(searcher: Searcher, pos: Position, history: list[Position], depth: int,
                  nodes: int | None) -> SearchResult:
    """Search ``pos`` to ``depth`` plies or, with a node budget, until ``nodes`` nodes are
    searched (the core's node limit: the move of the last finished iteration, or a better
    one fully searched in the unfinished one). Counting nodes, not seconds, makes the games
    the same whatever the machine's load. (A soft budget, finishing the iteration that
    crosses it, was tried first: one search in a few hundred then took 100-600 times the
    budget, an iteration that explodes in a tactical position.)"""
    if nodes is None:
        return searcher.search(pos, depth=depth, history=history)
    return searcher.search(pos, nodes=nodes, history=history)


def selfplay(variant_id: str, games: int, depth: int, out: str, seed: int,
             nodes: int | None = None, opening: tuple[int, int] = (6, 12)) -> None:
    """Play ``games`` self-play games and save their quiet positions to ``out`` (.npz):
    at ``depth`` plies, or with a budget of ``nodes`` a move (:func:`budget_search`),
    from openings of ``opening`` (low, high) random plies."""
    v = get_variant(variant_id)
    rng = random.Random(seed)
    searcher = Searcher(v, tt_entries=1 << 19)
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    save_positions(out, rows, v)  # an unwritable --out fails now, not after the first games
    t0 = time.perf_counter()
    for g in range(games):
        game = Game(v)
        searcher.clear()
        for _ in range(rng.randint(*opening)):
            if game.is_over():
                break
            game.play(rng.choice(game.legal_moves))
        first = len(rows)
        while not game.is_over() and len(game.moves) < MAX_PLIES:
            pos = game.position
            res = budget_search(searcher, pos, game.positions, depth, nodes)
            assert res.move is not None
            if not has_capture(v, pos) and abs(res.score) < 5000:
                white_score = res.score if pos.turn is Color.WHITE else -res.score
                rows.append((pos.white, pos.black, pos.kings,
                             1 if pos.turn is Color.WHITE else 0, white_score, g, 0))
            game.play(res.move)
        winner = game.result.winner if game.result is not None else None
        result = 0 if winner is None else (1 if winner is Color.WHITE else -1)
        for i in range(first, len(rows)):
            rows[i] = rows[i][:6] + (result,)
        if (g + 1) % 20 == 0:
            rate = (g + 1) / (time.perf_counter() - t0)
            print(f"{g + 1} games, {len(rows)} positions, {rate:.2f} games/s", flush=True)
            save_positions(out, rows, v)
    save_positions(out, rows, v)
    print(f"{games} games, {len(rows)} positions: {out}")


def label(variant_id: str, src: str, out: str, depth: int, every: int,
          part: tuple[int, int]) -> None:
    """Search positions of ``src`` again at ``depth`` and save them with the new scores."""
    v = get_variant(variant_id)
    data = load_positions([src], v)
    index = np.arange(0, len(data["white"]), every)
    i, n = part
    index = index[i::n]
    if not len(index):
        raise ValueError(f"no position to label: {len(data['white'])} positions, every "
                         f"{every}, part {i}/{n}")
    searcher = Searcher(v, tt_entries=400_000)
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    save_positions(out, rows, v)  # an unwritable --out fails now, not after the first searches
    t0 = time.perf_counter()
    for count, j in enumerate(index, 1):
        pos = position_at(data, int(j))
        res = searcher.search(pos, depth=depth)
        if res.move is not None and abs(res.score) < 5000:
            white_score = res.score if pos.turn is Color.WHITE else -res.score
            rows.append((pos.white, pos.black, pos.kings, int(data["turn"][j]), white_score,
                         int(data["game"][j]), int(data["result"][j])))
        if count % 500 == 0:
            rate = count / (time.perf_counter() - t0)
            print(f"{count}/{len(index)} positions, {rate:.1f} a second", flush=True)
            save_positions(out, rows, v)
    save_positions(out, rows, v)
    print(f"{len(rows)} positions labelled at depth {depth}: {out}")
