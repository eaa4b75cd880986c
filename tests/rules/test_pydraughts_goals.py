"""The goal options against an independent implementation: pydraughts' ``antidraughts`` and
``breakthrough`` (International rules, as lidraughts plays them) on 1,000 random positions
each, with no disagreement on the legal moves nor on whether and for whom the game is over.

Moves are compared as (start, end, captured squares): pydraughts lists every path of equal
captures, the rules core lists equal captures once. Positions are random International
positions (a seeded generator): men never on their own promotion row, at most one side
with kings under breakthrough (a king ends that game, so both sides never have one), now
and then a side to move without pieces.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from damiera.rules.geometry import geometry
from damiera.rules.movegen import game_end, legal_moves
from damiera.rules.position import Position, write_fen
from damiera.rules.variant import Color, Variant, variant

draughts: Any = pytest.importorskip("draughts")
if not hasattr(draughts, "Board") or not hasattr(draughts.Board, "legal_moves"):
    pytest.skip("the installed 'draughts' package is not pydraughts", allow_module_level=True)

POSITIONS = 1000
#: pydraughts' colour numbers.
PY_WHITE, PY_BLACK = 2, 1


def random_position(v: Variant, rng: random.Random, *, kings_one_side: bool) -> Position:
    geo = geometry(v)
    squares = list(geo.label_order)
    rng.shuffle(squares)
    turn = rng.choice((Color.WHITE, Color.BLACK))
    counts = {turn: 0 if rng.random() < 0.03 else rng.randint(1, 10),
              turn.opponent: rng.randint(1, 10)}
    king_side = rng.choice((Color.WHITE, Color.BLACK))
    white = black = kings = 0
    for color, count in counts.items():
        placed = 0
        while placed < count and squares:
            s = squares.pop()
            bit = 1 << s
            may_king = not kings_one_side or color is king_side
            king = may_king and rng.random() < 0.15
            own_row = geo.top_row if color is Color.WHITE else geo.bottom_row
            if not king and own_row & bit:
                continue  # a man never stands on its promotion row
            if king:
                kings |= bit
            if color is Color.WHITE:
                white |= bit
            else:
                black |= bit
            placed += 1
    return Position(white, black, kings, turn)


def _ours(v: Variant, pos: Position) -> tuple[set[tuple[int, int, frozenset[int]]], int | None]:
    geo = geometry(v)
    number = {s: int(geo.label(s)) for s in geo.label_order}
    moves = {(number[m.path[0]], number[m.path[-1]], frozenset(number[c] for c in m.captures))
             for m in legal_moves(v, pos)}
    ended = game_end(v, pos)
    winner = None if ended is None else PY_WHITE if ended[0] is Color.WHITE else PY_BLACK
    return moves, winner


def _theirs(name: str, fen: str) -> tuple[set[tuple[int, int, frozenset[int]]], int | None]:
    board = draughts.Board(variant=name, fen=fen)
    moves = {(m.steps_move[0], m.steps_move[-1], frozenset(m.captures or ()))
             for m in board.legal_moves()}
    return moves, board.winner()


@pytest.mark.parametrize(("option", "name", "seed"), [
    ("losing", "antidraughts", 33001),
    ("breakthrough", "breakthrough", 33002),
])
def test_goal_option_agrees_with_pydraughts_on_moves_and_game_end(
        option: str, name: str, seed: int) -> None:
    v = variant(f"international+{option}")
    rng = random.Random(seed)
    disagreements = []
    over = {None: 0, PY_WHITE: 0, PY_BLACK: 0}
    for _ in range(POSITIONS):
        pos = random_position(v, rng, kings_one_side=v.breakthrough)
        fen = write_fen(v, pos)
        ours = _ours(v, pos)
        theirs = _theirs(name, fen)
        over[ours[1]] += 1
        if ours != theirs:
            disagreements.append((fen, sorted(ours[0] ^ theirs[0]), ours[1], theirs[1]))
    assert disagreements == []
    # the sample reaches every answer: games going on and won by each side
    assert min(over.values()) > 0, over
