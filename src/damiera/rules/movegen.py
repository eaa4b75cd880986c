"""Legal moves for every variant, from the one rules core: the native generator ``damiera._core``.

The rules themselves (RULES.md sections 1 and 2: quiet moves, short and flying captures, the
Turkish strike, men that may not take kings, promotion during a capture, the capture-choice
rules, mandatory capture or the optional-capture house rule, equal captures listed once) are
implemented once, in C (``csrc/movegen.c``), on the same bit layout as
:mod:`damiera.rules.geometry`, and driven only by the :class:`Variant` rule parameters. This
module turns its output into values: :class:`CoreMove` records (bit indices; the public
:class:`~damiera.rules.move.Move` wraps one with its variant) and
:class:`~damiera.rules.position.Position` values. Labels only appear at the edges
(:mod:`damiera.rules.notation`, FEN, :mod:`damiera.rules.move`).
"""

from __future__ import annotations

from collections import OrderedDict
from types import ModuleType
from typing import Final, NamedTuple

from damiera import _core, _core_wide
from damiera.rules.geometry import geometry
from damiera.rules.position import Position
from damiera.rules.variant import CaptureChoice, Color, PromotionDuringCapture, Variant


class CoreMove(NamedTuple):
    """One legal move (one ply) as the generator writes it: the rules core's record, read by
    the search and the JSON writers (users see :class:`damiera.rules.move.Move`).

    ``start``/``end``: bit indices of the first and last square (equal for a king's capture that
    comes back to its start); ``path``: every square the piece stands on, start first, then each
    landing square in order; ``captures``: captured squares in capture order; ``captured``:
    bitboard of the captured squares; ``captured_kings``: bitboard of the captured kings;
    ``promotes``: a man that ends the move crowned; ``by_king``: the moving piece was a king.
    """

    start: int
    end: int
    path: tuple[int, ...]
    captures: tuple[int, ...]
    captured: int
    captured_kings: int
    promotes: bool
    by_king: bool

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    @property
    def captures_king(self) -> bool:
        return bool(self.captured_kings)

    @property
    def king_jumps(self) -> tuple[int, ...]:
        """0-based jump numbers at which a king is taken (Italian priority 4)."""
        ck = self.captured_kings
        return tuple(i for i, sq in enumerate(self.captures) if ck >> sq & 1)


#: The former name of :class:`CoreMove`, kept for one release so code written against it runs.
Move = CoreMove

#: The value types the native core reads and builds (given to every rule object).
VALUES = _core.Values(CoreMove, Position, Color.WHITE, Color.BLACK)
#: The same for the wide build (``damiera._core_wide``: the same C sources with 128-bit board
#: words, for boards of more than 64 bits). Its word holds every board's bits, so making a
#: move and the progress question, which do not know the variant, ask it for every board.
VALUES_WIDE = _core_wide.Values(CoreMove, Position, Color.WHITE, Color.BLACK)

#: Most bits the normal build's board word holds (csrc/position.h: a uint64_t).
NORMAL_BITS: Final = 64

#: Each native module's value types.
_VALUES_OF: Final = {_core: VALUES, _core_wide: VALUES_WIDE}


def core_of(variant: Variant) -> ModuleType:
    """The native module that plays ``variant``: ``damiera._core`` when its board's bit layout
    (:mod:`damiera.rules.geometry`) fits 64 bits (8x8, 10x10, the 64-square board), else
    ``damiera._core_wide`` (12x12: 77 bits). The one place the choice is made; the engine's
    evaluation, search and databases take their classes from the module of the rules."""
    return _core if geometry(variant).nbits <= NORMAL_BITS else _core_wide


#: The native core's numbers for the rule enums (csrc/movegen.h).
_CHOICE = {
    CaptureChoice.FREE: 0,
    CaptureChoice.MAJORITY: 1,
    CaptureChoice.ITALIAN_PRIORITIES: 2,
    CaptureChoice.MOST_PIECES_THEN_KINGS: 3,
    CaptureChoice.KING_PRECEDENCE: 4,
    CaptureChoice.VALUE: 5,
}
_PROMOTION = {
    PromotionDuringCapture.PROMOTE_AND_STOP: 0,
    PromotionDuringCapture.PROMOTE_AND_CONTINUE: 1,
    PromotionDuringCapture.PASS_THROUGH: 2,
}

_RULES: dict[int, tuple[Variant, _core.Rules]] = {}  # or _core_wide.Rules
#: Variant objects remembered by identity; past this the identity map starts afresh (equal
#: variants still share one rule object through ``_by_value``, keyed by the rule
#: parameters), so a new Variant object per game does not grow memory.
_MAX_IDENTITIES: Final = 256


def native_rules(variant: Variant) -> _core.Rules:
    """The native core's rule object for a variant (built once, cached by identity and by
    value: hashing a Variant on every call would cost more than generating the moves)."""
    entry = _RULES.get(id(variant))
    if entry is None or entry[0] is not variant:
        if len(_RULES) >= _MAX_IDENTITIES:
            _RULES.clear()
        entry = _RULES[id(variant)] = (variant, _by_value(variant))
    return entry[1]


#: Most rule objects kept by their parameters (least recently used dropped first).
_MAX_BY_VALUE: Final = 64
#: The core's rule objects by the parameters they are built from, so that rule sets that
#: differ only in their id or name (custom rule sets) share one.
_BY_VALUE: OrderedDict[tuple[object, ...], _core.Rules] = OrderedDict()


def _by_value(variant: Variant) -> _core.Rules:
    args = (
        variant.board_size,
        variant.flying_kings,
        variant.men_capture_backward,
        variant.men_capture_kings,
        _CHOICE[variant.capture_choice],
        _PROMOTION[variant.promotion_during_capture],
        variant.mandatory_capture,
        geometry(variant).label_order,
        variant.man_rows,
        2 * variant.draw_moves_without_progress,
    )
    key = (*args, variant.king_lands_behind, variant.remove_captured_at_once,
           variant.orthogonal_captures, variant.all_squares, variant.no_reverse_capture,
           variant.losing, variant.breakthrough)
    rules = _BY_VALUE.get(key)
    if rules is None:
        core = core_of(variant)
        rules = _BY_VALUE[key] = core.Rules(
            *args, _VALUES_OF[core], land_behind=variant.king_lands_behind,
            remove_at_once=variant.remove_captured_at_once,
            orthogonal=variant.orthogonal_captures,
            all_squares=variant.all_squares,
            straight=variant.all_squares,
            no_reverse=variant.no_reverse_capture,
            losing=variant.losing,
            breakthrough=variant.breakthrough,
        )
        while len(_BY_VALUE) > _MAX_BY_VALUE:
            _BY_VALUE.popitem(last=False)
    else:
        _BY_VALUE.move_to_end(key)
    return rules


def legal_moves(variant: Variant, position: Position) -> list[CoreMove]:
    """Every legal move, sorted by start square, then path, in notation order.

    The capture-choice rule is applied, equal captures are merged (the path PDN writes is kept),
    and quiet moves are included only when there is no capture or the optional-capture house
    rule is on. Shape: list of :class:`CoreMove`; empty when the side to move has no legal move
    (it has lost). Raises ValueError for bitboards off the variant's board, overlapping, or
    with more pieces a side than a capture may take (``MAX_CAPS`` of the variant's module:
    24, 30 in ``_core_wide``).
    """
    moves: list[CoreMove] = native_rules(variant).moves(position)
    return moves


#: The same list as :func:`legal_moves` (the engine's name for it; the order is deterministic).
generate = legal_moves


def capture_sequences(variant: Variant, position: Position) -> list[CoreMove]:
    """Every complete capture sequence of the side to move *before* the capture-choice rule,
    equal captures not merged (used to explain why a capture is refused)."""
    moves: list[CoreMove] = native_rules(variant).raw_captures(position)
    return moves


def quiet_moves(variant: Variant, position: Position) -> list[CoreMove]:
    """Every quiet move of the side to move, as if it had no capture (explanations)."""
    moves: list[CoreMove] = native_rules(variant).quiet_moves(position)
    return moves


def has_capture(variant: Variant, position: Position, color: Color | None = None) -> bool:
    """True when ``color`` (default: the side to move) has at least one capture in
    ``position`` (bitboard test, no sequences). Asking for the side not to move tells whether
    it threatens a capture."""
    white = (position.turn if color is None else color) is Color.WHITE
    found: bool = native_rules(variant).has_capture(position, white)
    return found


#: The native core's words for how a position ends (csrc/goal.h).
END_REASONS: Final = ("no-pieces", "no-moves", "king")


def game_end(variant: Variant, position: Position) -> tuple[Color, str] | None:
    """How ``position`` ends by the rules' goal, decided by the native core (``csrc/goal.h``,
    where the search asks the same): None while the game goes on, else ``(winner, reason)``
    with ``reason`` one of :data:`END_REASONS`.

    A side without pieces, or without a legal move on its turn, loses (``no-pieces`` /
    ``no-moves``), or wins under the losing rule; under breakthrough a side with a king has
    won (``king``). The draw rules belong to the game's history (:class:`damiera.Game`).
    """
    found: tuple[Color, str] | None = native_rules(variant).end(position)
    return found


def count_moves(variant: Variant, position: Position) -> int:
    """Number of legal moves, counted without building quiet moves (bulk counting)."""
    return perft(variant, position, 1)


def apply_move(position: Position, move: CoreMove) -> Position:
    """The position after ``move`` (which must be legal in ``position``): a new Position,
    made by the native core.

    Every captured piece is off the board after it (whether the rules took them off at the
    end, the Turkish strike, or one by one during the move); a man that ends on its
    promotion row is crowned when ``move.promotes`` says so.
    """
    after: Position = VALUES_WIDE.apply(position, move)
    return after


def is_progress(move: CoreMove) -> bool:
    """Whether ``move`` is progress for the no-progress draw rule (RULES.md section 1: 40 moves
    by each side "with no capture and no promotion"): a capture or a promotion. Decided by the
    native core, where the search asks the same question."""
    progress: bool = VALUES_WIDE.is_progress(move)
    return progress


def perft(variant: Variant, position: Position, depth: int) -> int:
    """Leaf nodes at ``depth`` plies (equal captures counted once; bulk counting at the
    last ply), counted by the native core; Ctrl-C (KeyboardInterrupt) stops it within a
    fraction of a second. Raises ValueError for a negative depth."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    nodes: int = native_rules(variant).perft(position, depth)
    return nodes
