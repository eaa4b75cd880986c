"""Turkish draughts against an independent implementation: pydraughts' ``turkish`` on 1,000
random positions, with no disagreement on the legal moves, and its perft from the start.

Moves are compared as (start, end, captured squares): pydraughts lists every path of equal
captures, the rules core lists equal captures once. pydraughts numbers Turkish squares from
a1 (1) along each rank, a2 is 9; the positions go to it as FEN with algebraic squares, which
it reads. The positions come from the seeded generator of the goal options' test (men never
on their promotion row), with kings on both sides.

One difference is excused, and only it: pydraughts 0.6.7 lets a king's quiet move along a row
or column pass over pieces (``Piece.get_directional_orthogonal_multiple_squares_adjacent_``
``positions`` lists every square of the line and only the landing square is checked), which
no source allows (docs/rules.md). A move pydraughts lists and the rules core does not is
excused when it is a king's quiet move along a line with a piece between its two squares;
every other difference fails, and ``test_king_stops_at_a_piece`` shows the rule.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from damiera.rules.geometry import geometry
from damiera.rules.movegen import legal_moves
from damiera.rules.position import Position, start_position, write_fen
from damiera.rules.variant import Variant, variant
from tests.rules.test_pydraughts_goals import random_position

draughts: Any = pytest.importorskip("draughts")
if not hasattr(draughts, "Board") or not hasattr(draughts.Board, "legal_moves"):
    pytest.skip("the installed 'draughts' package is not pydraughts", allow_module_level=True)

POSITIONS = 1000

Key = tuple[int, int, frozenset[int]]


def _number(v: Variant, square: int) -> int:
    """pydraughts' number of a square: a1 is 1, b1 2, ..., a2 9."""
    geo = geometry(v)
    file, rank = geo.file_rank(square)
    return rank * geo.size + file + 1


def _jumps_a_piece(v: Variant, pos: Position, move: Key) -> bool:
    """True when move is a king's quiet move along a row or column over a piece."""
    start, end, taken = move
    at = {_number(v, s): s for s in geometry(v).squares}
    own = pos.pieces(pos.turn)
    if taken or not (own & pos.kings) >> at[start] & 1:
        return False
    (r0, c0), (r1, c1) = divmod(start - 1, 8), divmod(end - 1, 8)
    if r0 != r1 and c0 != c1:
        return False
    between = ([r0 * 8 + c + 1 for c in range(min(c0, c1) + 1, max(c0, c1))] if r0 == r1
               else [r * 8 + c0 + 1 for r in range(min(r0, r1) + 1, max(r0, r1))])
    return any(pos.occupied >> at[n] & 1 for n in between)


def _ours(v: Variant, pos: Position) -> set[Key]:
    def number(square: int) -> int:
        return _number(v, square)

    return {(number(m.path[0]), number(m.path[-1]), frozenset(number(c) for c in m.captures))
            for m in legal_moves(v, pos)}


def _theirs(board: Any) -> set[Key]:
    return {(m.steps_move[0], m.steps_move[-1], frozenset(m.captures or ()))
            for m in board.legal_moves()}


def test_turkish_agrees_with_pydraughts_on_legal_moves() -> None:
    v = variant("turkish")
    rng = random.Random(33501)
    disagreements = []
    captures = multi = kings = excused = 0
    for _ in range(POSITIONS):
        pos = random_position(v, rng, kings_one_side=False)
        fen = write_fen(v, pos)
        ours = _ours(v, pos)
        theirs = _theirs(draughts.Board(variant="turkish", fen=fen))
        captures += any(m[2] for m in ours)
        multi += any(len(m[2]) > 1 for m in ours)
        kings += bool(pos.kings)
        if ours == theirs:
            continue
        if ours < theirs and all(_jumps_a_piece(v, pos, m) for m in theirs - ours):
            excused += 1
            continue
        disagreements.append((fen, sorted(ours - theirs), sorted(theirs - ours)))
    assert disagreements == []
    assert excused < POSITIONS // 5
    # the sample reaches captures, multiple captures and kings often
    assert captures > POSITIONS // 2
    assert multi > POSITIONS // 10
    assert kings > POSITIONS // 2


def test_king_stops_at_a_piece() -> None:
    """The excused difference, by the rules core: a king's quiet move ends before a piece."""
    from damiera.rules.game import Game

    game = Game("turkish", fen="W:WKg1,g3:Be5")
    assert {str(m) for m in game.legal_moves if str(m).startswith("g1")} == {
        "g1-a1", "g1-b1", "g1-c1", "g1-d1", "g1-e1", "g1-f1", "g1-h1", "g1-g2"}


def _their_perft(board: Any, depth: int) -> int:
    seen: set[Key] = set()
    total = 0
    for move in board.legal_moves():
        key = (move.steps_move[0], move.steps_move[-1], frozenset(move.captures or ()))
        if key in seen:
            continue
        seen.add(key)
        if depth == 1:
            total += 1
            continue
        board.push(move)
        total += _their_perft(board, depth - 1)
        board.pop()
    return total


def test_turkish_perft_from_the_start_agrees_with_pydraughts() -> None:
    """Depth 3 here (pydraughts takes seconds); docs/rules.md records depth 6, checked once."""
    from damiera.rules.movegen import perft

    v = variant("turkish")
    board = draughts.Board(variant="turkish")
    for depth in (1, 2, 3):
        assert perft(v, start_position(v), depth) == _their_perft(board, depth)
