"""Small helpers for rules tests: legal moves of a FEN as notation."""

from __future__ import annotations

from damiera.rules.movegen import legal_moves
from damiera.rules.notation import move_text
from damiera.rules.position import parse_fen
from damiera.rules.variant import Variant, variant


def moves_of(v: Variant | str, fen: str) -> list[str]:
    """Sorted full-notation texts of every legal move in ``fen``."""
    var = variant(v) if isinstance(v, str) else v
    return sorted(move_text(var, m) for m in legal_moves(var, parse_fen(var, fen)))


def normalised(moves: list[str]) -> list[str]:
    """Reference data writes captures with 'x'; compare independent of the separator."""
    return sorted(m.replace(":", "x") for m in moves)
