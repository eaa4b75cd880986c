"""Can a side still win? A cooperative ("helpmate") search over the positions reachable by
legal moves, for the draw rule of a flag fall (after the chess rule,
FIDE Laws of Chess article 6.9): when a player's time runs out the opponent wins, unless
the opponent could not win by any legal series of moves, the losing side helping; then the
game is drawn. RULES.md section 1 defines a win: no piece, or no legal move, on one's turn;
the goal options change it (the losing rule: having none wins; breakthrough: the first king
wins), and the rules core decides it (:func:`damiera.rules.movegen.game_end`).

:func:`can_win` answers with a :class:`WinProof`:

- ``WIN_POSSIBLE``: a legal line from the position to a win was found (``line``, the moves
  in order, starting with the side to move): the opponent of ``side`` has no piece, or no
  legal move, on its turn.
- ``NO_WIN``: every position reachable from this one by legal moves of either side was
  visited and none is a win for ``side``: a proof.
- ``UNKNOWN``: the node budget ran out first. A flag fall is a loss then: the draw needs
  the proof (conservative).

What is provable. The search is exhaustive over reachable positions (a transposition set
keyed on the whole :class:`~damiera.rules.position.Position`, side to move included), so it
ends: a variant's board has finitely many positions, and each is expanded once. In
practice ``NO_WIN`` is proved in small endings where every line soon ends in the side's
loss: the flagged side must take the last pieces (mandatory capture); the side's pieces are
shut in so that each of their moves runs into a forced capture (a lone king in the corner of
the main diagonal, held by two flying kings); its pieces are left without a move on its
turn; or a parity no move changes (lone king against lone king with short kings: they meet
only on the flagged side's turns). With many men, or kings on both sides of a large board,
the reachable space outgrows any reasonable budget and the answer is ``UNKNOWN`` unless a
win is found first; a depth-first search that tries first the moves leaving the loser fewer
pieces usually finds one within a few hundred positions (with the loser's help almost every
position is a possible win).

Draw rules. The search is over positions, not games. Threefold repetition never stops a
win that is reachable: the line returned is a path in the search tree and repeats no
position. The move limit without capture or promotion
(:attr:`~damiera.rules.variant.Variant.draw_moves_without_progress`) is not applied: it
only removes lines, so ``NO_WIN`` (no win even without it) stays a proof; a
``WIN_POSSIBLE`` line might in rare cases need more quiet moves than the limit leaves,
which errs towards the loss on time, the side the rule requires when in doubt.

Moves come from the one rules core (:func:`damiera.rules.movegen.legal_moves`), so every
variant's rules and the optional-capture house rule apply as they do in play.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from damiera.rules.movegen import Move, apply_move, game_end, has_capture, legal_moves
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant

#: Positions :func:`can_win` may reach (its transposition set: the root and every position
#: reached once) before it gives up with ``UNKNOWN``; the default used when a flag falls.
#: It bounds both the memory (one set entry per position) and the work (at most one move
#: generation per position).
DEFAULT_NODE_BUDGET: Final = 100_000


class WinStatus(Enum):
    """The answer of :func:`can_win`; ``value`` is a stable code."""

    WIN_POSSIBLE = "win-possible"
    NO_WIN = "no-win"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class WinProof:
    """``status``; ``line``: the moves of a win from the position searched (empty unless
    ``WIN_POSSIBLE``; empty too when the position is already won); ``nodes``: positions
    reached, the root included (at most the budget)."""

    status: WinStatus
    line: tuple[Move, ...]
    nodes: int


def _won_by(variant: Variant, position: Position, side: Color) -> bool:
    """The game has ended in ``position`` by the rules' goal, won by ``side``."""
    ended = game_end(variant, position)
    return ended is not None and ended[0] is side


def _order_key(variant: Variant, position: Position, side: Color) -> tuple[int, int, int, int]:
    """Children with a smaller key are searched first: fewer pieces left to the loser, a
    capture for ``side`` to play, more kings and pieces to ``side``."""
    return (position.pieces(side.opponent).bit_count(),
            0 if position.turn is side and has_capture(variant, position) else 1,
            -(position.kings_of(side).bit_count()),
            -(position.pieces(side).bit_count()))


def can_win(
    variant: Variant,
    position: Position,
    side: Color,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
) -> WinProof:
    """Whether ``side`` can win from ``position`` by some series of legal moves, both sides
    playing any legal moves (the loser cooperating); see the module text for the answers.

    ``position``: any position of ``variant`` (either side to move); ``node_budget``: the
    most positions the search may reach, the root included (a count, not a time). A win
    is the opponent of ``side`` having no piece, or no legal move, on its turn; ``side``
    without a legal move on its own turn has lost there, and that line is not followed.
    Raises ValueError for a budget below 1.
    """
    if node_budget < 1:
        raise ValueError(f"node budget must be at least 1, not {node_budget}")
    if _won_by(variant, position, side):
        return WinProof(WinStatus.WIN_POSSIBLE, (), 1)
    if game_end(variant, position) is not None:
        return WinProof(WinStatus.NO_WIN, (), 1)
    # parent[p] = (the position p was first reached from, the move): the search tree and
    # the transposition set; the budget bounds its size (memory) and the work.
    parent: dict[Position, tuple[Position, Move] | None] = {position: None}
    stack = [position]
    while stack:
        here = stack.pop()
        children = []
        for move in legal_moves(variant, here):
            child = apply_move(here, move)
            if child in parent:
                continue
            if len(parent) >= node_budget:
                return WinProof(WinStatus.UNKNOWN, (), len(parent))
            parent[child] = (here, move)
            ended = game_end(variant, child)
            if ended is not None:
                if ended[0] is side:
                    return WinProof(WinStatus.WIN_POSSIBLE, _line(parent, child), len(parent))
                continue  # a game over, lost by side: not followed
            children.append(child)
        # the most promising child last: it is searched first (depth first)
        children.sort(key=lambda p: _order_key(variant, p, side), reverse=True)
        stack.extend(children)
    return WinProof(WinStatus.NO_WIN, (), len(parent))


def _line(parent: dict[Position, tuple[Position, Move] | None], end: Position) -> tuple[Move, ...]:
    moves: list[Move] = []
    step = parent[end]
    while step is not None:
        before, move = step
        moves.append(move)
        step = parent[before]
    return tuple(reversed(moves))
