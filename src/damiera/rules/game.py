"""A game: the start position, the moves played, undo, the result and its reason.

Source: RULES.md section 1 (end of game: no pieces or no legal move loses; draws by 40 moves
each without capture or promotion, threefold repetition, agreement; resignation), the goal
options of :class:`~damiera.rules.variant.Variant` (the losing rule: no pieces or no legal
move wins; breakthrough: the first king wins; decided by the rules core,
:func:`~damiera.rules.movegen.game_end`) and
section 4 (PDN: a game is written by :func:`damiera.pdn.write_game`, outside the rules
core). A flag fall (time used up, after FIDE Laws of Chess article 6.9) loses, unless the
opponent cannot win by any legal series of moves (:func:`flag_result`, proved by
:func:`damiera.rules.helpmate.can_win`): then it is a draw.

>>> import damiera
>>> game = damiera.Game(damiera.variant("italian"))
>>> len(game.legal_moves), "22-19" in game.legal_moves
(7, True)
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
from enum import Enum

from damiera.rules.geometry import geometry
from damiera.rules.helpmate import DEFAULT_NODE_BUDGET, WinStatus, can_win
from damiera.rules.king_moves import START, Streaks, allowed, king_ending_draw, next_streaks
from damiera.rules.king_moves import tired_king as _tired_king
from damiera.rules.move import LegalMoves, Move
from damiera.rules.movegen import CoreMove, apply_move, game_end, is_progress, legal_moves
from damiera.rules.notation import IllegalMoveError, explain_piece, move_text, parse_move
from damiera.rules.position import (
    FenClocks,
    Position,
    check_position,
    diagram,
    parse_fen_clocks,
    start_position,
    write_fen,
)
from damiera.rules.variant import Color, Variant
from damiera.rules.variant import variant as _variant


class ResultReason(Enum):
    """Why a game ended. ``value`` is the stable code used in JSON."""

    NO_PIECES = "no-pieces"
    NO_MOVES = "no-legal-move"
    #: The losing rule: the winner has no piece left.
    LOSING_NO_PIECES = "losing-no-pieces"
    #: The losing rule: the winner has no legal move on its turn.
    LOSING_NO_MOVES = "losing-no-legal-move"
    #: Breakthrough: the winner made the first king.
    BREAKTHROUGH = "breakthrough"
    NO_PROGRESS = "forty-moves"
    #: A king-only ending drawn after a few moves (Frisian: two kings against one after 7
    #: moves each, one king against one after 2; ``Variant.king_ending_draws``).
    KING_ENDING = "king-ending"
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

    def result(self) -> str:
        """The PDN result string, as python-chess's ``Outcome.result()``: ``1-0``, ``0-1``
        or ``1/2-1/2`` (the 8x8 form; :func:`damiera.pdn.result_token` writes a variant's
        own convention, ``2-0`` on 10x10)."""
        return self.pdn

    @property
    def termination(self) -> ResultReason:
        """Why the game ended: the same as ``reason``, as python-chess names it."""
        return self.reason

    def describe(self, variant: Variant | None = None) -> str:
        """One English sentence, e.g. ``"Black wins: White has no legal move"``."""
        if self.winner is None:
            loser_text = {
                ResultReason.NO_PROGRESS: "40 moves each without a capture or a promotion"
                if variant is None
                else f"{variant.draw_moves_without_progress} moves each without a capture "
                "or a promotion",
                ResultReason.REPETITION: "the same position occurred three times",
                ResultReason.KING_ENDING: "a king-only ending that cannot be won in time",
                ResultReason.AGREEMENT: "agreed by the players",
                ResultReason.TIME_NO_WIN: "a flag fell, but the other side cannot win",
            }.get(self.reason, self.reason.value)
            return f"Draw: {loser_text}"
        winner = self.winner.word.capitalize()
        loser = self.winner.opponent.word.capitalize()
        because = {
            ResultReason.NO_PIECES: f"{loser} has no pieces left",
            ResultReason.NO_MOVES: f"{loser} has no legal move",
            ResultReason.LOSING_NO_PIECES: f"{winner} has no pieces left (losing rule)",
            ResultReason.LOSING_NO_MOVES: f"{winner} has no legal move (losing rule)",
            ResultReason.BREAKTHROUGH: f"{winner} made the first king (breakthrough)",
            ResultReason.RESIGNATION: f"{loser} resigned",
            ResultReason.TIME: f"{loser} lost on time",
        }.get(self.reason, self.reason.value)
        return f"{winner} wins: {because}"


def position_result(variant: Variant, position: Position) -> Result | None:
    """How ``position`` ends by the rules' goal alone (no draw rule), as a :class:`Result`:
    the rules core's :func:`~damiera.rules.movegen.game_end` with the reason named for the
    goal (``LOSING_*`` under the losing rule, ``BREAKTHROUGH``); None while play goes on."""
    ended = game_end(variant, position)
    if ended is None:
        return None
    winner, reason = ended
    if reason == "king":
        return Result(winner, ResultReason.BREAKTHROUGH)
    if variant.losing:
        return Result(winner, ResultReason.LOSING_NO_PIECES if reason == "no-pieces"
                      else ResultReason.LOSING_NO_MOVES)
    return Result(winner, ResultReason.NO_PIECES if reason == "no-pieces"
                  else ResultReason.NO_MOVES)


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


class NoMoveToUndoError(IndexError):
    """An undo (or :meth:`Game.pop`) of more moves than were played (a game that has not
    ended, so not a :class:`GameOverError`): an IndexError, as popping an empty list is."""


#: The variant a :class:`Game` plays when none is named.
DEFAULT_VARIANT = "international"


class Game:
    """One game: a variant, a start position and the moves played, over immutable positions.

    ``Game(variant="international", fen=None)``: ``variant`` a
    :class:`~damiera.rules.variant.Variant` or its name (an id, an alias such as
    ``"english"`` or a PDN GameType number, :func:`~damiera.rules.variant.variant`); ``fen``
    a PDN FEN or a :class:`~damiera.rules.position.Position` to start from (default: the
    variant's start position). A FEN's lidraughts fields ``:H<n>:F<n>`` set the plies already
    played without a capture or a man move (counted by the draw rules,
    :attr:`plies_without_progress`) and :attr:`start_move_number`. Raises TypeError for
    arguments of another type, :class:`~damiera.rules.variant.UnknownVariantError` and
    :class:`~damiera.rules.position.FenError`.

    ``enforce_draws`` (default True): the draw rules (threefold repetition, the move limit)
    end the game. A record being replayed (a PDN file) passes False: the players may have
    played on, so a draw by rule is only noted (:meth:`draw_by_rule`) and play goes on.

    Moves are :class:`~damiera.rules.move.Move` values, written in the variant's notation;
    the habits of python-chess work: :meth:`push` / :meth:`pop` / :meth:`peek`,
    :attr:`move_stack`, :meth:`is_game_over`, ``"32-28" in game.legal_moves``,
    ``copy.copy(game)`` (an independent game), ``str(game)`` (a board diagram).
    :meth:`outcome` is the one place that decides how a game ends.
    """

    def __init__(
        self,
        variant: Variant | str = DEFAULT_VARIANT,
        fen: Position | str | None = None,
        *,
        enforce_draws: bool = True,
    ):
        if isinstance(variant, str):
            variant = _variant(variant)
        elif not isinstance(variant, Variant):
            raise TypeError("Game() takes a Variant or a variant name such as 'international' "
                            f"first, not {type(variant).__name__}")
        self.variant: Variant = variant
        self.enforce_draws = enforce_draws
        clocks = FenClocks()
        if fen is None:
            start = start_position(variant)
        elif isinstance(fen, str):
            start, clocks = parse_fen_clocks(variant, fen)
        elif isinstance(fen, Position):
            check_position(variant, fen)
            start = fen
        else:
            raise TypeError("Game() takes a FEN text or a Position to start from, not "
                            f"{type(fen).__name__}")
        #: The position the game started from.
        self.start: Position = start
        #: The number of the first move (a FEN's ``F`` field, else 1), as the PDN writer
        #: numbers the moves.
        self.start_move_number: int = clocks.fullmove or 1
        self._stack: list[Move] = []
        #: The start position, then the position after each move (one longer than the moves).
        self.positions: list[Position] = [start]
        # A FEN's H (plies without a capture or a man move) is a lower bound of the plies
        # without a capture or a promotion that the draw rules count: a promotion is a man move.
        self._quiet_plies: list[int] = [clocks.halfmove or 0]
        #: Each side's run of quiet moves by one king after each position (king_moves).
        self._streaks: list[Streaks] = [START]
        self._seen: dict[Position, int] = {start: 1}
        self._final: Result | None = None  # resignation, agreement or a flag fall
        #: How the game ended (None while it goes on): the same as :meth:`outcome`.
        self.result: Result | None = None
        self.result = self._positional_result()

    # -- state --------------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The current position (an immutable value)."""
        return self.positions[-1]

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self.position.turn

    @property
    def fen(self) -> str:
        """The current position in PDN FEN, written in full (``W:W21,22,...:B1,2,...``)."""
        return write_fen(self.variant, self.position)

    @property
    def start_fen(self) -> str:
        """The start position in PDN FEN, with lidraughts' ``:H<n>:F<n>`` where the game
        started with plies without progress or another move number (:attr:`start_clocks`)."""
        return write_fen(self.variant, self.start) + self.start_clocks.text

    @property
    def moves(self) -> list[Move]:
        """Every move played, first first (a new list)."""
        return list(self._stack)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played, first first, as python-chess names them (a new list)."""
        return list(self._stack)

    @property
    def ply(self) -> int:
        """Number of moves (plies) played."""
        return len(self._stack)

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves now, in the rules core's order (a list of
        :class:`~damiera.rules.move.Move` whose ``in`` also takes move text); empty once
        the game is over."""
        raw = [] if self.result is not None else self._allowed()
        return LegalMoves(self.variant, self.position, raw)

    def _allowed(self) -> list[CoreMove]:
        """The legal moves of the position under the rules of the game's history: without
        the quiet moves of a king that has made its side's limit of them in a row."""
        return allowed(self.variant, self.position, self._streaks[-1],
                       legal_moves(self.variant, self.position))

    def explain_piece(self, square: int) -> IllegalMoveError | None:
        """Why the piece on ``square`` (bit index) cannot move now, or None when it can: the
        position's reason (:func:`~damiera.rules.notation.explain_piece`), else the game's
        history's (a king that made its limit of quiet moves in a row, the message
        :meth:`play` refuses its moves with)."""
        if any(m.start == square for m in self._allowed()):
            return None
        refusal = explain_piece(self.variant, self.position, square)
        if refusal is not None:
            return refusal
        own = [m for m in legal_moves(self.variant, self.position) if m.start == square]
        if not own:
            return None
        return self._limit_error(own[0])

    def _limit_error(self, raw: CoreMove) -> IllegalMoveError:
        text = move_text(self.variant, raw)
        limit = self.variant.king_quiet_move_limit
        return IllegalMoveError(
            f"{text}: this king has made {limit} moves in a row without capturing; while "
            "its side has men, another piece must move",
            "king_move_limit", {"move": text, "count": str(limit)})

    def tired_king(self) -> str | None:
        """The square of the king that may not make another quiet move now (it made
        ``Variant.king_quiet_move_limit`` of them in a row and its side still has men), in
        the variant's notation, or None."""
        square = _tired_king(self.variant, self.position, self._streaks[-1])
        return None if square < 0 else geometry(self.variant).label(square)

    @property
    def start_clocks(self) -> FenClocks:
        """The lidraughts FEN fields of the start (:class:`~damiera.rules.position.FenClocks`):
        the plies without progress the game started with (``H``) and the number of its first
        move (``F``), each None when it is the default (0, 1), as the PDN writer writes them
        after the start's FEN."""
        return FenClocks(self._quiet_plies[0], self.start_move_number).significant()

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

        A side without pieces, or without a legal move on its turn, loses (under the losing
        rule it wins; under breakthrough the first side to make a king wins: the rules
        core's :func:`~damiera.rules.movegen.game_end`); a resignation,
        agreed draw or flag fall ends it; with ``enforce_draws``, so do 40 moves each (the
        variant's ``draw_moves_without_progress``) without capture or promotion, and a
        position seen for the third time with the same side to move (RULES.md section 1).
        """
        return self.result

    def is_over(self) -> bool:
        """True once the game has ended (:meth:`outcome` is not None)."""
        return self.result is not None

    def is_game_over(self) -> bool:
        """The same as :meth:`is_over`, as python-chess names it."""
        return self.result is not None

    def history(self) -> list[str]:
        """Every move played, in full notation."""
        return [str(m) for m in self._stack]

    def copy(self) -> Game:
        """An independent copy: moves played or taken back on one do not change the other
        (positions and moves are immutable values, so copying each container is enough)."""
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin._stack = list(self._stack)
        twin.positions = list(self.positions)
        twin._quiet_plies = list(self._quiet_plies)
        twin._streaks = list(self._streaks)
        twin._seen = dict(self._seen)
        return twin

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy()

    def __str__(self) -> str:
        """The current position as a board diagram
        (:func:`~damiera.rules.position.diagram`)."""
        return diagram(self.variant, self.position)

    def __repr__(self) -> str:
        return f"Game({self.variant.full_id!r}, fen={self.fen!r})"

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
            found = self._draw_rule(self._quiet_plies[ply], seen[position], position)
            if found is not None:
                return ply, found
        return None

    def _draw_rule(self, quiet_plies: int, occurrences: int,
                   position: Position | None = None) -> Result | None:
        """The draw rules of RULES.md section 1: the move limit, then threefold repetition;
        before them a variant's king-only endings (docs/rules.md) in ``position`` (default:
        the current one)."""
        if king_ending_draw(self.variant, position or self.position, quiet_plies):
            return Result(None, ResultReason.KING_ENDING)
        if quiet_plies >= 2 * self.variant.draw_moves_without_progress:
            return Result(None, ResultReason.NO_PROGRESS)
        if occurrences >= 3:
            return Result(None, ResultReason.REPETITION)
        return None

    # -- changes ------------------------------------------------------------------------------
    def play(self, move: Move | CoreMove | str) -> Move:
        """Play a legal move given as a :class:`~damiera.rules.move.Move`, as text (full
        notation ``26x17``, or the short form of a capture when only one legal move fits), or
        as the rules core's record (:class:`~damiera.rules.movegen.CoreMove`).

        Returns the Move played. Raises TypeError for anything else (None included),
        :class:`GameOverError` if the game has ended, and
        :class:`~damiera.rules.notation.IllegalMoveError` /
        :class:`~damiera.rules.notation.AmbiguousMoveError` (naming the rule or the
        candidates) for a move that is not legal here; the game is unchanged when it raises.
        """
        if isinstance(move, Move):
            if move.variant != self.variant:
                raise IllegalMoveError(
                    f"{move} is a move of {move.variant.name}, not of {self.variant.name}",
                    "not_legal", {"move": str(move)})
            raw: CoreMove | None = move.raw
        elif isinstance(move, CoreMove):
            raw = move
        elif isinstance(move, str):
            raw = None
        else:
            raise TypeError("play() takes a Move or a move's text such as '32-28', not "
                            f"{type(move).__name__}")
        if self.result is not None:
            raise GameOverError(f"the game is over ({self.result.describe(self.variant)})")
        if raw is None:
            raw = parse_move(self.variant, self.position, str(move))
        elif raw not in legal_moves(self.variant, self.position):
            text = move_text(self.variant, raw)
            raise IllegalMoveError(f"{text} is not a legal move in this position",
                                   "not_legal", {"move": text})
        if raw not in self._allowed():
            raise self._limit_error(raw)
        after = apply_move(self.position, raw)
        quiet = 0 if is_progress(raw) else self._quiet_plies[-1] + 1
        played = Move(self.variant, raw)
        self._stack.append(played)
        self.positions.append(after)
        self._quiet_plies.append(quiet)
        self._streaks.append(next_streaks(self._streaks[-1], self.positions[-2], after))
        self._seen[after] = self._seen.get(after, 0) + 1
        self.result = self._positional_result()
        return played

    def push(self, move: Move | CoreMove | str) -> Move:
        """The same as :meth:`play`, as python-chess names it."""
        return self.play(move)

    def undo(self, plies: int = 1) -> Move:
        """Take back the last ``plies`` moves (default one); returns the earliest of them,
        the move that led away from the position the game is now back at (with one ply: the
        last move played).

        Raises :class:`NoMoveToUndoError` (an IndexError) when fewer than ``plies`` moves
        were played, or ``plies`` is below 1 (the message says which), TypeError when
        ``plies`` is not an int, and :class:`GameOverError` after a resignation,
        agreed draw or flag fall; nothing is changed then.
        """
        if isinstance(plies, bool) or not isinstance(plies, int):
            raise TypeError(f"undo() takes a number of plies (int), not {type(plies).__name__}")
        if self._final is not None:
            raise GameOverError(
                f"the game ended by {self._final.reason.value}; it cannot be taken back"
            )
        if plies < 1:
            raise NoMoveToUndoError(f"undo() takes back at least 1 ply, not {plies}")
        if plies > len(self._stack):
            raise NoMoveToUndoError(
                f"cannot take back {plies} move(s): {len(self._stack)} played"
            )
        undone = self._stack[-1]
        for _ in range(plies):
            undone = self._stack.pop()
            gone = self.positions.pop()
            self._quiet_plies.pop()
            self._streaks.pop()
            if self._seen[gone] == 1:
                del self._seen[gone]
            else:
                self._seen[gone] -= 1
        self.result = self._positional_result()
        return undone

    def pop(self) -> Move:
        """Take back the last move and return it, as python-chess does; raises
        :class:`NoMoveToUndoError` (an IndexError) when no move was played."""
        return self.undo(1)

    def peek(self) -> Move:
        """The last move played; raises IndexError when no move was played."""
        if not self._stack:
            raise IndexError("no move has been played")
        return self._stack[-1]

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
        ended = position_result(self.variant, self.position)
        if ended is not None:
            return ended
        if not self._allowed():  # only the tired king could move: no legal move
            if self.variant.losing:
                return Result(self.turn, ResultReason.LOSING_NO_MOVES)
            return Result(self.turn.opponent, ResultReason.NO_MOVES)
        return self.draw_by_rule() if self.enforce_draws else None


#: How a game ended, as python-chess names it: the same class as :class:`Result`.
Outcome = Result
