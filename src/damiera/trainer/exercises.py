"""Trainer exercises: a position from self-play, a question, and an answer that one rule
decides. Every answer comes from the rules core (:mod:`damiera.rules.movegen`).

Kinds of question (:data:`KINDS`):

- ``capture``: "Which capture must you take?" The answer: the legal captures (any of them
  is right; two paths of one capture, taking the same pieces to the same square, are one
  move). Only captures are compared, so a rule set where capturing is optional gives the
  same answer: that rule is drilled by the ``legal`` question of a quiet move instead.
- ``promotion``: "What happens when this man reaches the last row during the capture?"
  Answered like ``capture``, for positions where the promotion rule decides.
- ``destinations``: "Where can this piece go?" The answer: the set of squares where the
  legal moves of the piece on ``focus`` end.
- ``legal``: "Is this move legal?" (``focus``: a move the pieces could make under some
  rule). The answer: yes or no; when no, the rules core says why.
- ``outcome``: "Who wins here?" The answer: the side that wins because the side to move has
  no legal move, or nobody yet.

An exercise drills rule ``param`` (:mod:`damiera.trainer.rules`) when that rule alone
decides its answer: the answer differs under the rule set without that rule
(:func:`~damiera.trainer.rules.contrasts`), and is the same with any *other* drilled rule
switched instead (so a wrong answer has one rule to blame, the one the page names).
:func:`exercises_at` keeps only those. An exercise is named by its id
(``kind:index:param:focus``; ``index`` is the position's place in the board's pool,
:mod:`damiera.trainer.pool`), so a server can check an answer from the id alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from damiera.rules.movegen import Move, capture_sequences, legal_moves, quiet_moves
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant
from damiera.trainer.rules import RULE_PARAMS, contrasts

KINDS: tuple[str, ...] = ("capture", "promotion", "destinations", "legal", "outcome")

#: A move as the answers compare it: start, end and the captured squares' bitboard (two
#: paths that take the same pieces to the same square are the same move).
MoveKey = tuple[int, int, int]
#: The longest exercise id read.
MAX_ID = 120


class ExerciseError(ValueError):
    """An exercise id that names no exercise of the rule set (the message says why)."""


def move_key(move: Move) -> MoveKey:
    """The key answers compare moves by (see :data:`MoveKey`)."""
    return (move.start, move.end, move.captured)


@dataclass(frozen=True, slots=True)
class Exercise:
    """One exercise: ``kind`` (:data:`KINDS`), ``index`` (the position's place in its
    pool), ``param`` (the rule drilled), ``position``, ``focus`` (the square of a
    ``destinations`` question, the path of a ``legal`` one, bit indices; else empty), and
    ``contrast`` (the rule set without the rule: its answer differs)."""

    kind: str
    index: int
    param: str
    position: Position
    focus: tuple[int, ...]
    variant: Variant
    contrast: Variant

    @property
    def id(self) -> str:
        """``kind:index:param:focus`` (focus squares joined by ``-``)."""
        return f"{self.kind}:{self.index}:{self.param}:{'-'.join(map(str, self.focus))}"

    def answer(self, variant: Variant | None = None) -> object:
        """The right answer under ``variant`` (default: the exercise's own rule set): a
        frozenset of :data:`MoveKey` of the legal captures (``capture``, ``promotion``), a
        frozenset of squares
        (``destinations``), a bool (``legal``) or ``"white"``/``"black"``/``"none"``
        (``outcome``)."""
        return answer(self.kind, variant or self.variant, self.position, self.focus)

    def candidates(self) -> list[Move]:
        """Every move the board lets the player enter: the moves legal under the rule set or
        its contrast, every capture sequence before the capture-choice rule, and every quiet
        move, each path once (sorted by path). The page gets no other hint of the rules."""
        seen: dict[tuple[int, ...], Move] = {}
        for v in (self.variant, self.contrast):
            for m in (*legal_moves(v, self.position), *capture_sequences(v, self.position),
                      *quiet_moves(v, self.position)):
                seen.setdefault(m.path, m)
        return [seen[p] for p in sorted(seen)]


def answer(kind: str, variant: Variant, position: Position, focus: tuple[int, ...]) -> object:
    """The answer of a ``kind`` question about ``position`` under ``variant`` (see
    :meth:`Exercise.answer`)."""
    legal = legal_moves(variant, position)
    if kind in ("capture", "promotion"):
        return frozenset(move_key(m) for m in legal if m.captures)
    if kind == "destinations":
        return frozenset(m.end for m in legal if m.start == focus[0])
    if kind == "legal":
        return any(m.path == focus for m in legal) or _equal_capture(variant, position, focus,
                                                                    legal)
    if kind == "outcome":
        if not position.pieces(position.turn) or not legal:
            return position.turn.opponent.word
        return "none"
    raise ExerciseError(f"unknown kind of exercise {kind!r}")


def _equal_capture(variant: Variant, position: Position, path: tuple[int, ...],
                   legal: list[Move]) -> bool:
    """True when ``path`` is another path of a legal capture (the same pieces taken, the
    same end: one move, RULES.md section 1)."""
    keys = {move_key(m) for m in legal if m.captures}
    return any(m.path == path and move_key(m) in keys
               for m in capture_sequences(variant, position))


def _promotion_matters(variant: Variant, position: Position) -> bool:
    """A man's capture reaches the far row before its end, under some promotion rule."""
    from damiera.rules.geometry import geometry

    geo = geometry(variant)
    row = geo.top_row if position.turn is Color.WHITE else geo.bottom_row
    for v in (variant, *contrasts(variant, "promotion_during_capture")):
        for m in capture_sequences(v, position):
            if m.promotes or (not m.by_king and any(row >> s & 1 for s in m.path[1:-1])):
                return True
    return False


def exercises_at(variant: Variant, index: int, position: Position) -> Iterator[Exercise]:
    """Every exercise of ``variant`` that ``position`` (the pool's ``index``-th) gives: for
    each kind and drilled rule, the question whose answer changes when the rule is switched
    off (at most one per kind and rule: for ``destinations`` the first piece, for ``legal``
    the first move, in square order)."""
    mover_moves = legal_moves(variant, position)
    for param in RULE_PARAMS:
        for contrast in contrasts(variant, param):
            for e in _of_rule(variant, contrast, param, index, position, mover_moves):
                if _decided_by_its_rule_alone(e):
                    yield e


def _decided_by_its_rule_alone(e: Exercise) -> bool:
    """No other drilled rule, switched, changes the exercise's answer."""
    here = e.answer()
    return all(e.answer(other) == here
               for param in RULE_PARAMS if param != e.param
               for other in contrasts(e.variant, param))


def _of_rule(variant: Variant, contrast: Variant, param: str, index: int, position: Position,
             legal: list[Move]) -> Iterator[Exercise]:
    other = legal_moves(contrast, position)
    mine_keys = frozenset(move_key(m) for m in legal)
    other_keys = frozenset(move_key(m) for m in other)

    def make(kind: str, focus: tuple[int, ...] = ()) -> Exercise:
        return Exercise(kind, index, param, position, focus, variant, contrast)

    captures = [m for m in legal if m.captures]
    capture_keys = {move_key(m) for m in captures}
    other_capture_keys = {move_key(m) for m in other if m.captures}
    if mine_keys != other_keys and legal and other:
        if capture_keys == other_capture_keys:
            pass    # the same captures either way: no capture question tells them apart
        elif param == "promotion_during_capture":
            if _promotion_matters(variant, position):
                yield make("promotion")
        elif variant.mandatory_capture and captures and len(
                {move_key(m) for m in capture_sequences(variant, position)}
                | other_capture_keys) >= 2:
            yield make("capture")
        ends_here = {(m.start, m.end) for m in legal}
        ends_there = {(m.start, m.end) for m in other}
        for square in sorted({m.start for m in (*legal, *other)}):
            if ({e for s, e in ends_here if s == square}
                    != {e for s, e in ends_there if s == square}):
                yield make("destinations", (square,))
                break
        differing = sorted(
            {m.path for m in legal if move_key(m) not in other_keys}
            | {m.path for m in other if move_key(m) not in mine_keys})
        if differing:
            yield make("legal", differing[0])
    if bool(legal) != bool(other) and position.pieces(position.turn):
        yield make("outcome")


def parse_id(exercise_id: str) -> tuple[str, int, str, tuple[int, ...]]:
    """``(kind, index, param, focus)`` of an exercise id. Raises :class:`ExerciseError`
    naming what is wrong (linear in the id, which is at most :data:`MAX_ID` characters)."""
    if len(exercise_id) > MAX_ID:
        raise ExerciseError(f"an exercise id has at most {MAX_ID} characters")
    parts = exercise_id.split(":")
    if len(parts) != 4:
        raise ExerciseError("an exercise id is kind:index:rule:focus")
    kind, index, param, focus = parts
    if kind not in KINDS:
        raise ExerciseError(f"unknown kind of exercise {kind[:20]!r}")
    if param not in RULE_PARAMS:
        raise ExerciseError(f"unknown rule {param[:30]!r}")
    if not index.isascii() or not index.isdigit() or len(index) > 7:
        raise ExerciseError("the position's index is a number")
    squares: tuple[int, ...] = ()
    if focus:
        pieces = focus.split("-")
        if len(pieces) > 30 or not all(p.isascii() and p.isdigit() and len(p) <= 3
                                       for p in pieces):
            raise ExerciseError("the focus is squares joined by -")
        squares = tuple(int(p) for p in pieces)
    return kind, int(index), param, squares
