"""The one move value users see: :class:`Move`, a move of the rules core together with its
variant, so that it answers in the variant's own labels (``22-19``, ``c3:e5``) and never in
internal square indices; and :class:`LegalMoves`, the legal moves of a position as a list
that also answers ``"32-28" in legal_moves``.

The move generator's own record (:class:`~damiera.rules.movegen.CoreMove`: bit indices and
bitboards) stays inside the rules core, the search and the web's JSON writers; ``Move.raw``
is that record.
"""

from __future__ import annotations

from dataclasses import dataclass

from damiera.rules.geometry import geometry
from damiera.rules.movegen import CoreMove
from damiera.rules.notation import NotationError, move_text, parse_move
from damiera.rules.position import Position
from damiera.rules.variant import Variant


@dataclass(frozen=True, slots=True)
class Move:
    """One move (one ply) of a variant, with its squares as the variant's labels.

    ``str(move)`` is its full notation (``29x22x15x6``, ``c3:e5:g7`` in Russian);
    ``from_square`` / ``to_square``: labels of the first and last square; ``path``: every
    square the piece stands on, start first; ``captures``: the captured squares in capture
    order; ``promotes``: a man crowned by this move. ``raw`` is the rules core's record
    (bit indices). Two moves are equal when their variant and record are.
    """

    variant: Variant
    raw: CoreMove

    def __str__(self) -> str:
        return move_text(self.variant, self.raw)

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    @property
    def from_square(self) -> str:
        return geometry(self.variant).label(self.raw.start)

    @property
    def to_square(self) -> str:
        return geometry(self.variant).label(self.raw.end)

    @property
    def path(self) -> tuple[str, ...]:
        geo = geometry(self.variant)
        return tuple(geo.label(s) for s in self.raw.path)

    @property
    def captures(self) -> tuple[str, ...]:
        geo = geometry(self.variant)
        return tuple(geo.label(s) for s in self.raw.captures)

    @property
    def is_capture(self) -> bool:
        return bool(self.raw.captures)

    @property
    def promotes(self) -> bool:
        return self.raw.promotes


class LegalMoves(list[Move]):
    """The legal moves of one position, in the rules core's order: a list of :class:`Move`
    (indexing, slicing, ``len``, iteration as a list) whose ``in`` also takes move text.

    ``"32-28" in moves`` is True when the text names exactly one of the moves (full
    notation, or a short form that only one fits, as :meth:`Game.play
    <damiera.rules.game.Game.play>` reads it); text that is not a legal move, cannot be read
    or fits several moves is not in. A :class:`Move` is in when it is equal to one of them;
    anything else is not in (as for any list).
    """

    def __init__(self, variant: Variant, position: Position, moves: list[CoreMove]):
        super().__init__(Move(variant, m) for m in moves)
        self._variant = variant
        self._position = position

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            if not self:
                return False
            try:
                parse_move(self._variant, self._position, item)
            except NotationError:
                return False
            return True
        return list.__contains__(self, item)
