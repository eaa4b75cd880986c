"""A game: the start position, the moves played, undo, the result and its reason, and PDN.

Source: RULES.md section 1 (end of game: no pieces or no legal move loses; draws by 40 moves
each without capture or promotion, threefold repetition, agreement; resignation) and
section 4 (PDN with the ``GameType`` and ``FEN`` tags). A flag fall (time used up; issue 16,
after FIDE Laws of Chess article 6.9) loses, unless the opponent cannot win by any legal
series of moves (:func:`flag_result`, proved by :func:`damiera.rules.helpmate.can_win`):
then it is a draw.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from damiera.rules.helpmate import DEFAULT_NODE_BUDGET, WinStatus, can_win
from damiera.rules.movegen import Move, apply_move, is_progress, legal_moves
from damiera.rules.notation import IllegalMoveError, move_text, parse_move
from damiera.rules.position import Position, parse_fen, start_position, write_fen
from damiera.rules.variant import Color, Variant


class ResultReason(Enum):
    """Why a game ended. ``value`` is the stable code used in JSON."""

    NO_PIECES = "no-pieces"
    NO_MOVES = "no-legal-move"
    NO_PROGRESS = "forty-moves"
    REPETITION = "threefold-repetition"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    #: The side to move's time ran out: it loses.
    TIME = "time"
    #: The side to move's time ran out, but its opponent cannot win: a draw.
    TIME_NO_WIN = "time-opponent-cannot-win"


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: ``winner`` (None for a draw) and ``reason``."""

    winner: Color | None
    reason: ResultReason

    @property
    def pdn(self) -> str:
        """PDN result token: ``1-0`` (White won), ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Color.WHITE else "0-1"

    def describe(self, variant: Variant | None = None) -> str:
        """One English sentence, e.g. ``"Black wins: White has no legal move"``."""
        if self.winner is None:
            loser_text = {
                ResultReason.NO_PROGRESS: "40 moves each without a capture or a promotion"
                if variant is None
                else f"{variant.draw_moves_without_progress} moves each without a capture "
                "or a promotion",
                ResultReason.REPETITION: "the same position occurred three times",
                ResultReason.AGREEMENT: "agreed by the players",
                ResultReason.TIME_NO_WIN: "a flag fell, but the other side cannot win",
            }.get(self.reason, self.reason.value)
            return f"Draw: {loser_text}"
        winner = self.winner.word.capitalize()
        loser = self.winner.opponent.word.capitalize()
        because = {
            ResultReason.NO_PIECES: f"{loser} has no pieces left",
            ResultReason.NO_MOVES: f"{loser} has no legal move",
            ResultReason.RESIGNATION: f"{loser} resigned",
            ResultReason.TIME: f"{loser} lost on time",
        }.get(self.reason, self.reason.value)
        return f"{winner} wins: {because}"


def flag_result(
    variant: Variant, position: Position, *, node_budget: int = DEFAULT_NODE_BUDGET
) -> Result:
    """The result when the side to move in ``position`` runs out of time: a loss
    (``TIME``), or a draw (``TIME_NO_WIN``) when its opponent cannot win by any legal series
    of moves, proved by :func:`damiera.rules.helpmate.can_win` within ``node_budget``
    positions. Without a proof (the budget ran out) the flag loses: the draw needs the proof."""
    mover = position.turn
    proof = can_win(variant, position, mover.opponent, node_budget=node_budget)
    if proof.status is WinStatus.NO_WIN:
        return Result(None, ResultReason.TIME_NO_WIN)
    return Result(mover.opponent, ResultReason.TIME)


class GameOverError(ValueError):
    """A move, undo or offer on a game that has already ended (or cannot be undone)."""


class Game:
    """One game's mutable history over immutable positions.

    ``variant``; ``start`` (Position); ``moves`` (list of Move, one per ply);
    ``positions`` (start first, then the position after each move; always one longer than
    ``moves``); ``result`` (None while the game goes on; the same as :meth:`outcome`).

    ``enforce_draws`` (default True): the draw rules (threefold repetition, the move limit)
    end the game. A record being replayed (a PDN file) passes False: the players may have
    played on, so a draw by rule is only noted (:meth:`draw_by_rule`) and play goes on.
    """

    def __init__(
        self,
        variant: Variant,
        start: Position | str | None = None,
        *,
        enforce_draws: bool = True,
    ):
        self.variant = variant
        self.enforce_draws = enforce_draws
        if start is None:
            start = start_position(variant)
        elif isinstance(start, str):
            start = parse_fen(variant, start)
        self.start: Position = start
        self.moves: list[Move] = []
        self.positions: list[Position] = [start]
        self._quiet_plies: list[int] = [0]
        self._seen: dict[Position, int] = {start: 1}
        self._final: Result | None = None  # resignation or agreement
        self.result: Result | None = None
        self.result = self._positional_result()

    # -- state --------------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self.positions[-1]

    @property
    def turn(self) -> Color:
        return self.position.turn

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def plies_without_progress(self) -> int:
        """Plies in a row without a capture or a promotion (the draw rule counts 2 per move)."""
        return self._quiet_plies[-1]

    @property
    def moves_without_progress(self) -> int:
        """Moves by each side without capture or promotion: plies // 2."""
        return self._quiet_plies[-1] // 2

    def outcome(self) -> Result | None:
        """How the game ended, or None while it goes on: the one place that decides.

        A side without pieces, or without a legal move on its turn, loses; a resignation or
        agreed draw ends it; with ``enforce_draws``, so do 40 moves each (the variant's
        ``draw_moves_without_progress``) without capture or promotion, and a position seen
        for the third time with the same side to move (RULES.md section 1).
        """
        return self.result

    def copy(self) -> Game:
        """An independent copy: positions and moves are immutable values, so copying the
        object and each of its containers is enough."""
        twin = copy.copy(self)
        twin.moves = list(self.moves)
        twin.positions = list(self.positions)
        twin._quiet_plies = list(self._quiet_plies)
        twin._seen = dict(self._seen)
        return twin

    def draw_by_rule(self) -> Result | None:
        """The draw rule that applies to the current position (move limit first, then
        threefold repetition), or None; reported whether or not ``enforce_draws`` is on."""
        return self._draw_rule(self._quiet_plies[-1], self._seen.get(self.position, 0))

    def first_draw_by_rule(self) -> tuple[int, Result] | None:
        """``(ply, result)``: the first position of the game (0 = the start) where a draw
        rule applied, or None. For records that played on (``enforce_draws=False``)."""
        seen: dict[Position, int] = {}
        for ply, position in enumerate(self.positions):
            seen[position] = seen.get(position, 0) + 1
            found = self._draw_rule(self._quiet_plies[ply], seen[position])
            if found is not None:
                return ply, found
        return None

    def _draw_rule(self, quiet_plies: int, occurrences: int) -> Result | None:
        """The draw rules of RULES.md section 1: the move limit, then threefold repetition."""
        if quiet_plies >= 2 * self.variant.draw_moves_without_progress:
            return Result(None, ResultReason.NO_PROGRESS)
        if occurrences >= 3:
            return Result(None, ResultReason.REPETITION)
        return None

    def legal_moves(self) -> list[Move]:
        """Legal moves now; empty once the game is over."""
        if self.result is not None:
            return []
        return legal_moves(self.variant, self.position)

    def fen(self) -> str:
        return write_fen(self.variant, self.position)

    def history(self) -> list[str]:
        """Every move played, in full notation."""
        return [move_text(self.variant, m) for m in self.moves]

    # -- changes ------------------------------------------------------------------------------
    def play(self, move: Move | str) -> Move:
        """Play a legal move given as a Move or as text (full or short notation).

        Returns the Move played. Raises :class:`GameOverError` if the game has ended, and
        :class:`~damiera.rules.notation.NotationError` (or its subclasses) for text that is
        not a legal move; the game is unchanged when it raises.
        """
        if self.result is not None:
            raise GameOverError(f"the game is over ({self.result.describe(self.variant)})")
        if isinstance(move, str):
            move = parse_move(self.variant, self.position, move)
        elif move not in legal_moves(self.variant, self.position):
            raise IllegalMoveError(
                f"{move_text(self.variant, move)} is not a legal move in this position",
                "not_legal",
                {"move": move_text(self.variant, move)},
            )
        after = apply_move(self.position, move)
        quiet = 0 if is_progress(move) else self._quiet_plies[-1] + 1
        self.moves.append(move)
        self.positions.append(after)
        self._quiet_plies.append(quiet)
        self._seen[after] = self._seen.get(after, 0) + 1
        self.result = self._positional_result()
        return move

    def undo(self, plies: int = 1) -> list[Move]:
        """Take back the last ``plies`` moves; returns them, last first.

        Raises :class:`GameOverError` after a resignation or agreed draw, or when fewer than
        ``plies`` moves were played (nothing is changed then).
        """
        if self._final is not None:
            raise GameOverError(
                f"the game ended by {self._final.reason.value}; it cannot be taken back"
            )
        if plies < 1 or plies > len(self.moves):
            raise GameOverError(
                f"cannot take back {plies} move(s): {len(self.moves)} played"
            )
        undone = []
        for _ in range(plies):
            undone.append(self.moves.pop())
            gone = self.positions.pop()
            self._quiet_plies.pop()
            if self._seen[gone] == 1:
                del self._seen[gone]
            else:
                self._seen[gone] -= 1
        self.result = self._positional_result()
        return undone

    def resign(self, color: Color) -> Result:
        """``color`` resigns; the other side wins."""
        return self._end(Result(color.opponent, ResultReason.RESIGNATION))

    def agree_draw(self) -> Result:
        """Both players agree to a draw."""
        return self._end(Result(None, ResultReason.AGREEMENT))

    def flag_fall(self, *, node_budget: int = DEFAULT_NODE_BUDGET) -> Result:
        """The side to move's time ran out: it loses, or the game is drawn when the
        opponent cannot win (:func:`flag_result`). Raises :class:`GameOverError` once the
        game has ended; the result, like a resignation, cannot be taken back."""
        if self.result is not None:
            raise GameOverError(f"the game is over ({self.result.describe(self.variant)})")
        return self._end(flag_result(self.variant, self.position, node_budget=node_budget))

    def _end(self, result: Result) -> Result:
        if self.result is not None:
            raise GameOverError(f"the game is over ({self.result.describe(self.variant)})")
        self._final = self.result = result
        return result

    def _positional_result(self) -> Result | None:
        position = self.position
        mover = position.turn
        if not position.pieces(mover):
            return Result(mover.opponent, ResultReason.NO_PIECES)
        if not position.pieces(mover.opponent):
            # Only a game set up from a FEN starts like this: the opponent has already lost.
            return Result(mover, ResultReason.NO_PIECES)
        if not legal_moves(self.variant, position):
            return Result(mover.opponent, ResultReason.NO_MOVES)
        return self.draw_by_rule() if self.enforce_draws else None

    # -- PDN ----------------------------------------------------------------------------------
    def pdn(self, tags: dict[str, str] | None = None,
            comments: Sequence[str | None] | None = None, result: str | None = None) -> str:
        """This game as canonical PDN 3.0 text (:func:`damiera.pdn.write_game`): the seven
        tags, ``GameType``, ``[CaptureRule "optional"]`` under the house rule, ``FEN`` when
        not from the start, any tags given (``Event`` defaults to ``Damiera game``),
        numbered movetext ending with the result in the variant's convention.
        ``comments[i]`` (if given and not None) is written after move ``i`` as a comment
        (clock times, say); ``result``: the result token of a game decided outside the rules
        (a loss on time), used only when the game itself has none."""
        # The PDN writer sits above the rules core; imported here, when it is needed.
        from damiera.game import Game as PublicGame
        from damiera.pdn import write_game

        return write_game(PublicGame.from_rules(self), {"Event": "Damiera game", **(tags or {})},
                          result=None if self.outcome() else result, comments=comments)
