"""The public library objects, in the shape of python-chess: :class:`Game` and :class:`Move`.

A :class:`Game` is a variant, a start position and the moves played; it answers in the
variant's own notation (``22-19``, ``c3:e5``), never in internal square indices. It is a thin
front on :class:`damiera.rules.game.Game`, whose :meth:`~damiera.rules.game.Game.outcome` is
the one place that decides how a game ends (the site, the CLI, the engine and matches use it
too).

>>> import damiera
>>> game = damiera.Game(damiera.variant("italian"))
>>> len(game.legal_moves)
7
>>> move = game.play("22-19")
>>> str(move), move.from_square, move.to_square
('22-19', '22', '19')
>>> game.fen
'B:W19,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12'
>>> game.undo()
Move('22-19')
>>> print(game.outcome())
None
"""

from __future__ import annotations

from dataclasses import dataclass

from damiera.rules import game as _rules
from damiera.rules.geometry import geometry
from damiera.rules.helpmate import DEFAULT_NODE_BUDGET
from damiera.rules.movegen import Move as _RawMove
from damiera.rules.notation import move_text
from damiera.rules.position import Position, write_fen
from damiera.rules.variant import Color, Variant
from damiera.rules.variant import variant as _variant

#: How a game ended: ``winner`` (a :class:`~damiera.rules.variant.Color`, None for a draw)
#: and ``reason`` (a :class:`~damiera.rules.game.ResultReason`).
Outcome = _rules.Result


@dataclass(frozen=True, slots=True)
class Move:
    """One move (one ply) of a variant, with its squares as the variant's labels.

    ``str(move)`` is its full notation (``29x22x15x6``, ``c3:e5:g7`` in Russian);
    ``from_square`` / ``to_square``: labels of the first and last square; ``path``: every
    square the piece stands on, start first; ``captures``: the captured squares in capture
    order; ``promotes``: a man crowned by this move. ``raw`` is the rules core's move.
    """

    variant: Variant
    raw: _RawMove

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


def variant(name: str, *, optional_capture: bool = False) -> Variant:
    """The named variant (``"international"``, ``"italian"``, ...); see
    :func:`damiera.rules.variant.variant` for the errors."""
    return _variant(name, optional_capture=optional_capture)


class Game:
    """A game of one variant: ``Game(variant, fen=None)`` starts from the variant's start
    position or from a PDN FEN.

    ``variant`` may be a :class:`~damiera.rules.variant.Variant` or its id. Raises
    :class:`~damiera.rules.variant.UnknownVariantError` for an unknown id and
    :class:`~damiera.rules.position.FenError` for a bad FEN. ``enforce_draws=False`` lets
    play go on past a draw by rule (repetition, move limit), as a replayed record does.
    """

    def __init__(
        self,
        variant: Variant | str = "international",
        fen: str | None = None,
        *,
        enforce_draws: bool = True,
    ):
        v = _variant(variant) if isinstance(variant, str) else variant
        self._game = _rules.Game(v, fen, enforce_draws=enforce_draws)

    @classmethod
    def from_rules(cls, game: _rules.Game) -> Game:
        """A public front on an existing rules-core game (shared, not copied)."""
        out = cls.__new__(cls)
        out._game = game
        return out

    @property
    def rules_game(self) -> _rules.Game:
        """The rules core's game underneath (its moves and positions)."""
        return self._game

    @property
    def variant(self) -> Variant:
        return self._game.variant

    @property
    def position(self) -> Position:
        """The current position (an immutable value)."""
        return self._game.position

    @property
    def turn(self) -> Color:
        return self._game.turn

    @property
    def fen(self) -> str:
        """The current position in PDN FEN, e.g. ``W:W21-32:B1-12`` written in full."""
        return self._game.fen()

    @property
    def start_fen(self) -> str:
        return write_fen(self.variant, self._game.start)

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves now, in the rules core's order; empty once the game is over."""
        v = self.variant
        return [Move(v, m) for m in self._game.legal_moves()]

    @property
    def moves(self) -> list[Move]:
        """Every move played, first first."""
        v = self.variant
        return [Move(v, m) for m in self._game.moves]

    @property
    def ply(self) -> int:
        """Number of moves (plies) played."""
        return len(self._game.moves)

    def play(self, move: Move | str) -> Move:
        """Play a legal move, given as a :class:`Move` or as text (``22-19``, ``26x17``,
        the short form of a capture when only one legal move fits).

        Returns the move played. Raises :class:`~damiera.rules.game.GameOverError` once the
        game has ended, :class:`~damiera.rules.notation.AmbiguousMoveError` (listing the
        candidates) or :class:`~damiera.rules.notation.IllegalMoveError` (naming the rule);
        the game is unchanged when it raises.
        """
        raw = self._game.play(move.raw if isinstance(move, Move) else move)
        return Move(self.variant, raw)

    def undo(self) -> Move:
        """Take back the last move and return it; raises
        :class:`~damiera.rules.game.GameOverError` when there is none (or after a
        resignation)."""
        return Move(self.variant, self._game.undo(1)[0])

    def flag_fall(self, *, node_budget: int = DEFAULT_NODE_BUDGET) -> Outcome:
        """The side to move ran out of time: it loses, unless the opponent cannot win by any
        legal series of moves (a draw, proved within ``node_budget`` positions; see
        :func:`damiera.rules.game.flag_result`). Raises
        :class:`~damiera.rules.game.GameOverError` once the game has ended."""
        return self._game.flag_fall(node_budget=node_budget)

    def outcome(self) -> Outcome | None:
        """How the game ended (:class:`Outcome`), or None while it goes on."""
        return self._game.outcome()

    def is_over(self) -> bool:
        return self._game.outcome() is not None

    def copy(self) -> Game:
        """An independent copy (moves played on one do not change the other)."""
        return Game.from_rules(self._game.copy())

    def pdn(self, tags: dict[str, str] | None = None) -> str:
        """This game as PDN text (see :func:`damiera.pdn.write_game`)."""
        from damiera.pdn import write_game

        return write_game(self, tags)

    def __repr__(self) -> str:
        return f"Game({self.variant.id!r}, fen={self.fen!r})"
