"""The themes of a puzzle: the shape of its captures and the rules its line relies on.

Shapes (what the line does): ``sacrifice`` (a solver move after which the opponent must
capture), ``multi-capture`` (a solver capture of two pieces or more), ``shot`` (a sacrifice
followed by a multi-capture: the classic combination), ``breakthrough`` (a solver man is
crowned), ``king-capture`` (the solver takes a king), ``king`` (the solver moves a king),
``quiet-move`` (the first move is not a capture), ``endgame`` (eight pieces or fewer),
``win`` (the line ends the game).

Rules (``rule:`` tags, read off the rule parameters, never the rule set's name): a move of
the line that the rule decides: ``rule:mandatory-capture`` (the mover had quiet moves but
had to capture), ``rule:capture-choice-<choice>`` (the capture-choice rule took away some
of the mover's captures), ``rule:men-capture-backward`` (a man captures backwards),
``rule:flying-kings`` (a king captures from afar), ``rule:men-cannot-take-kings`` (a man
could not take a king), ``rule:promotion-<what happens>`` (a man reached the far row in the
middle of a capture).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from damiera.rules.geometry import geometry
from damiera.rules.movegen import Move, apply_move, capture_sequences, legal_moves, quiet_moves
from damiera.rules.position import Position
from damiera.rules.variant import CaptureChoice, Color, Variant

#: Every shape theme, in the order they are listed.
SHAPES = ("shot", "sacrifice", "multi-capture", "breakthrough", "king-capture", "king",
          "quiet-move", "endgame", "win")


def line_themes(variant: Variant, position: Position,
                line: Sequence[tuple[Position, Move]]) -> tuple[str, ...]:
    """The themes of a puzzle whose line is ``line`` (``(position before, move)`` pairs,
    the solver's first), sorted: shapes first in :data:`SHAPES` order, then the rules."""
    solver = position.turn
    shapes: set[str] = set()
    rules: set[str] = set()
    sacrificed = False
    for before, move in line:
        mine = before.turn is solver
        rules.update(rule_tags(variant, before, move))
        if not mine:
            continue
        after = apply_move(before, move)
        replies = legal_moves(variant, after)
        if replies and all(r.captures for r in replies):
            shapes.add("sacrifice")
            sacrificed = True
        if len(move.captures) >= 2:
            shapes.add("multi-capture")
            if sacrificed:
                shapes.add("shot")
        if move.promotes:
            shapes.add("breakthrough")
        if move.captured_kings:
            shapes.add("king-capture")
        if move.by_king:
            shapes.add("king")
    if not line[0][1].captures:
        shapes.add("quiet-move")
    if position.occupied.bit_count() <= 8:
        shapes.add("endgame")
    last_before, last_move = line[-1]
    end = apply_move(last_before, last_move)
    if not legal_moves(variant, end):
        shapes.add("win")
    return tuple(s for s in SHAPES if s in shapes) + tuple(sorted(rules))


def rule_tags(variant: Variant, before: Position, move: Move) -> set[str]:
    """The ``rule:`` tags of one move (see the module docstring), from the rule parameters."""
    tags: set[str] = set()
    if not move.captures:
        return tags
    legal = legal_moves(variant, before)
    if variant.mandatory_capture and quiet_moves(variant, before):
        tags.add("rule:mandatory-capture")
    if variant.capture_choice is not CaptureChoice.FREE:
        free = dataclasses.replace(variant, capture_choice=CaptureChoice.FREE)
        if len(legal_moves(free, before)) > len(legal):
            tags.add(f"rule:capture-choice-{variant.capture_choice.value}")
    geo = geometry(variant)
    if not move.by_king:
        forward = -1 if before.turn is Color.WHITE else 1
        rows = [geo.row(s) for s in move.path]
        if any((b - a) * forward < 0 for a, b in itertools.pairwise(rows)):
            tags.add("rule:men-capture-backward")
        top = geo.top_row if before.turn is Color.WHITE else geo.bottom_row
        if any(top >> s & 1 for s in move.path[1:-1]):
            tags.add(f"rule:promotion-{variant.promotion_during_capture.value}")
    elif any(abs(geo.row(a) - geo.row(b)) > 2 for a, b in itertools.pairwise(move.path)):
        tags.add("rule:flying-kings")
    if not variant.men_capture_kings:
        relaxed = dataclasses.replace(variant, men_capture_kings=True)
        if len(capture_sequences(relaxed, before)) > len(capture_sequences(variant, before)):
            tags.add("rule:men-cannot-take-kings")
    return tags
