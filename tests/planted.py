"""A game with a planted blunder, for the review tests."""

from __future__ import annotations

from damiera.engine.search import Searcher
from damiera.rules.movegen import Move, apply_move, legal_moves
from damiera.rules.position import start_position
from damiera.rules.variant import Variant


def planted_game(v: Variant, plies: int, at: int) -> tuple[list[Move], int]:
    """A game played by a depth-3 search, except at ply ``at`` (or the first ply after it
    where there is one) a move that gives away about two men (a depth-4 search scores it
    1.8 to 4 men worse than the best move)."""
    s = Searcher(v)
    pos = start_position(v)
    moves: list[Move] = []
    positions = [pos]
    planted = -1
    for ply in range(plies):
        legal = legal_moves(v, pos)
        if not legal:
            break
        move = None
        if planted < 0 and ply >= at:
            best = s.search(pos, depth=4, history=positions).score
            losses = []
            for m in legal:
                after = apply_move(pos, m)
                loss = best + s.search(after, depth=4, history=positions + [after]).score
                if 180 <= loss < 400:
                    losses.append((loss, m))
            if losses:
                move = min(losses, key=lambda lm: lm[0])[1]
                planted = ply
        if move is None:
            move = s.search(pos, depth=3, history=positions).move
        assert move is not None
        moves.append(move)
        pos = apply_move(pos, move)
        positions.append(pos)
    assert planted >= 0
    return moves, planted
