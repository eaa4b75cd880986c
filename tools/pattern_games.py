"""The games the pattern trainer learns from (``tools/train_patterns.py`` ``selfplay`` and
``label``): the engine playing itself (or one evaluation playing another: a league) at a fixed
depth or node budget, and the positions of those games searched again deeper; both written as
position files (``pattern_positions``)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np
from pattern_positions import load_positions, position_at, save_positions

from damiera.engine.evaluate import Evaluator
from damiera.engine.patterns import weights_path
from damiera.engine.search import Searcher, SearchResult
from damiera.rules.game import Game
from damiera.rules.movegen import has_capture
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant
from damiera.rules.variant import variant as get_variant

MAX_PLIES = 300


def evaluator_for(v: Variant, name: str) -> Evaluator:
    """The evaluation called ``name``: ``hand`` the hand-made one, ``shipped`` the package's
    weights file for ``v``'s rules, else the weights file at that path. Raises OSError or
    ValueError for a file that is missing, damaged or trained for other rules."""
    if name == "hand":
        return Evaluator(v, patterns=False)
    if not name:
        raise ValueError("an evaluation's name is empty: give hand, shipped or a weights file")
    if name == "shipped":
        if not weights_path(v).is_file():
            raise ValueError(f"{v.full_id}: no weights file ships for these rules (they are "
                             "played with the hand-made evaluation: give hand)")
        return Evaluator(v, weights=weights_path(v))
    return Evaluator(v, weights=Path(name))


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
             nodes: int | None = None, opening: tuple[int, int] = (6, 12),
             weights: str | None = None, opponent: str | None = None) -> None:
    """Play ``games`` games and save their quiet positions to ``out`` (.npz): at ``depth``
    plies, or with a budget of ``nodes`` a move (:func:`budget_search`), from openings of
    ``opening`` (low, high) random plies.

    ``weights`` names the evaluation that plays (:func:`evaluator_for`; default: the engine's
    own, as ``DAMIERA_EVAL`` chooses). With ``opponent``, a league: ``weights`` plays the
    evaluation ``opponent`` names, each opening twice with the colours swapped (game 2k:
    ``weights`` has White, game 2k+1: ``opponent``), and the progress lines give the first's
    score. Raises OSError or ValueError for an evaluation that cannot be loaded."""
    v = get_variant(variant_id)
    rng = random.Random(seed)
    first = Searcher(v, tt_entries=1 << 19,
                     evaluator=None if weights is None else evaluator_for(v, weights))
    second = first if opponent is None else Searcher(
        v, tt_entries=1 << 19, evaluator=evaluator_for(v, opponent))
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    save_positions(out, rows, v)  # an unwritable --out fails now, not after the first games
    t0 = time.perf_counter()
    score = 0.0
    start = Game(v)
    for g in range(games):
        if opponent is None or g % 2 == 0:
            start = Game(v)
            for _ in range(rng.randint(*opening)):
                if start.is_over():
                    break
                start.play(rng.choice(start.legal_moves))
        white, black = (first, second) if g % 2 == 0 else (second, first)
        first.clear()
        second.clear()
        game = start.copy()
        first_row = len(rows)
        while not game.is_over() and len(game.moves) < MAX_PLIES:
            pos = game.position
            searcher = white if pos.turn is Color.WHITE else black
            res = budget_search(searcher, pos, game.positions, depth, nodes)
            assert res.move is not None
            if not has_capture(v, pos) and abs(res.score) < 5000:
                white_score = res.score if pos.turn is Color.WHITE else -res.score
                rows.append((pos.white, pos.black, pos.kings,
                             1 if pos.turn is Color.WHITE else 0, white_score, g, 0))
            game.play(res.move)
        winner = game.result.winner if game.result is not None else None
        result = 0 if winner is None else (1 if winner is Color.WHITE else -1)
        for i in range(first_row, len(rows)):
            rows[i] = rows[i][:6] + (result,)
        score += (1 + (result if g % 2 == 0 else -result)) / 2
        league = f", first {score:g}/{g + 1}" if opponent is not None else ""
        if (g + 1) % 20 == 0:
            rate = (g + 1) / (time.perf_counter() - t0)
            print(f"{g + 1} games, {len(rows)} positions, {rate:.2f} games/s{league}",
                  flush=True)
            save_positions(out, rows, v)
    save_positions(out, rows, v)
    print(f"{games} games, {len(rows)} positions{league}: {out}")


def label(variant_id: str, src: str, out: str, depth: int, every: int,
          part: tuple[int, int], nodes: int | None = None,
          pieces: tuple[int, int] | None = None) -> None:
    """Search positions of ``src`` again, to ``depth`` plies or with a budget of ``nodes``
    (:func:`budget_search`), and save them with the new scores.

    Without ``pieces``: every ``every``-th position, of those the ones of part ``part`` (I, N),
    written alone. With ``pieces`` (low, high): the positions with low to high pieces on the
    board are searched again and every other position is written with its own score, so the
    output replaces ``src`` in a fit (the same games and positions, the deeper scores where
    they are wanted). A part is the games whose number is I modulo N, whole: positions of
    one game never land in two files, which a fit would count as two games and could hold
    one out while training on the other. Raises ValueError when nothing is left to label."""
    v = get_variant(variant_id)
    data = load_positions([src], v)
    i, n = part
    index = np.arange(0, len(data["white"]), 1 if pieces else every)
    index = index[data["game"][index] % n == i]
    counts = np.bitwise_count(data["white"][index]) + np.bitwise_count(data["black"][index])
    if pieces is None:
        wanted = np.ones(len(index), dtype=bool)
    else:
        wanted = (counts >= pieces[0]) & (counts <= pieces[1])
    if not wanted.any():
        within = "" if pieces is None else f", {pieces[0]}-{pieces[1]} pieces"
        raise ValueError(f"no position to label: {len(data['white'])} positions, every "
                         f"{every}, part {i}/{n}{within}")
    searcher = Searcher(v, tt_entries=400_000)
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    save_positions(out, rows, v)  # an unwritable --out fails now, not after the first searches
    t0 = time.perf_counter()
    searched = 0
    for j, deeper in zip(index, wanted):
        j = int(j)
        row = (int(data["white"][j]), int(data["black"][j]), int(data["kings"][j]),
               int(data["turn"][j]), int(data["score"][j]), int(data["game"][j]),
               int(data["result"][j]))
        if deeper:
            pos = position_at(data, j)
            res = budget_search(searcher, pos, [], depth, nodes)
            searched += 1
            if res.move is None or abs(res.score) >= 5000:
                continue
            row = row[:4] + (res.score if pos.turn is Color.WHITE else -res.score,) + row[5:]
            if searched % 500 == 0:
                rate = searched / (time.perf_counter() - t0)
                print(f"{searched}/{int(wanted.sum())} positions, {rate:.1f} a second",
                      flush=True)
                save_positions(out, rows, v)
        rows.append(row)
    save_positions(out, rows, v)
    budget = f"{nodes} nodes" if nodes is not None else f"depth {depth}"
    print(f"{searched} positions searched again at {budget}, {len(rows)} written: {out}")
