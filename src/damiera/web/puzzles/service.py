"""The puzzles' service: choosing a puzzle, checking the solver's moves, the daily puzzle.

Puzzles are the shipped ones (:mod:`damiera.puzzles.library`), for any rule set that has a
data file; ratings live in the store (:mod:`damiera.web.puzzles.ratings`). The solver's moves
are checked on the server, by replaying them from the puzzle's position with the rules core:
a move is right when it is the solution's move (the same piece, end and captured pieces: the
other path of an equal capture is the same move) or when it wins the game at once.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from dataclasses import dataclass
from typing import Any

from damiera.puzzles import library
from damiera.puzzles.model import Puzzle
from damiera.rules.movegen import Move, apply_move, legal_moves
from damiera.rules.notation import NotationError, parse_move
from damiera.rules.position import Position, parse_fen, write_fen
from damiera.rules.variant import Variant
from damiera.web.errors import BadRequest, IllegalMove, rule_set
from damiera.web.i18n import error_message
from damiera.web.puzzles.ratings import Rating, RatingStore
from damiera.web.serialization import move_json, moves_with_paths_json, pieces_json

#: The next puzzle is drawn among the untried puzzles within this many rating points of the
#: player's rating (wider steps when none is that near).
WINDOWS = (100, 200, 400, 800, 10_000)
#: Most moves a solver may send at once, and the longest text of one (a capture of a 10x10
#: board's 20 pieces written out in full is under 80 characters).
MAX_MOVES = 20
MAX_MOVE_TEXT = 80


def key_variant(key: str) -> Variant:
    """The rule set a puzzle's ``variant`` field names (``italian``, ``russian+optional``)."""
    base, _, extra = key.partition("+")
    return rule_set(base, extra == "optional")


def _same(a: Move, b: Move) -> bool:
    return (a.start, a.end, a.captured) == (b.start, b.end, b.captured)


@dataclass
class Check:
    """The answer to the solver's moves: ``status`` (``"continue"``, ``"solved"`` or
    ``"failed"``), ``position`` now, the ``reply`` just played (None when none), how many
    of the solution's plies were played (``plies``), the solver's last move (``mine``)."""

    status: str
    position: Position
    reply: Move | None
    plies: int
    wrong: Move | None = None
    mine: Move | None = None


def check_moves(puzzle: Puzzle, moves: list[str]) -> Check:
    """Replay the solver's ``moves`` (texts, its moves only) against the puzzle's line.
    Raises :class:`~damiera.web.errors.BadRequest` for too many moves and
    :class:`~damiera.web.errors.IllegalMove` for a move the rules refuse (with the rules
    core's reason, in the request's language)."""
    v = key_variant(puzzle.variant)
    if not moves or len(moves) > min(MAX_MOVES, puzzle.solver_moves):
        raise BadRequest(f"send 1 to {puzzle.solver_moves} moves of yours")
    position = parse_fen(v, puzzle.fen)
    reply: Move | None = None
    plies = 0
    for i, text in enumerate(moves):
        if len(text) > MAX_MOVE_TEXT:
            raise BadRequest(f"a move is at most {MAX_MOVE_TEXT} characters")
        try:
            mine = parse_move(v, position, text)
        except NotationError as exc:
            raise IllegalMove(error_message(exc.code, exc.params, str(exc)), exc.code,
                              exc.params) from None
        expected = parse_move(v, position, puzzle.solution[2 * i])
        after = apply_move(position, mine)
        if not _same(mine, expected):
            if not legal_moves(v, after):
                return Check("solved", after, None, plies + 1, mine=mine)
            return Check("failed", position, reply, plies, wrong=mine)
        position = after
        plies += 1
        if plies >= len(puzzle.solution):
            return Check("solved", position, None, plies, mine=mine)
        reply = parse_move(v, position, puzzle.solution[plies])
        position = apply_move(position, reply)
        plies += 1
        if plies >= len(puzzle.solution):
            return Check("solved", position, reply, plies, mine=mine)
    return Check("continue", position, reply, plies, mine=mine)


def daily(v: Variant, day: dt.date) -> Puzzle | None:
    """The rule set's puzzle of the day (the same all day for everyone; None without
    puzzles): of the shipped ones, the puzzle whose id hashes highest with the date
    (rendezvous hashing), so that puzzles added to or dropped from the file change a day's
    puzzle only when the dropped one was that day's or an added one hashes higher."""
    key = library.variant_key(v)
    puzzles = library.shipped(key)
    if not puzzles:
        return None
    stem = f"{day.isoformat()}|{key}|".encode()
    return max(puzzles, key=lambda p: hashlib.sha256(stem + p.id.encode()).digest())


def choose(puzzles: tuple[Puzzle, ...], ratings: dict[str, Rating], tried: set[str],
           player: Rating, rng: random.Random) -> Puzzle | None:
    """A puzzle near the player's rating: an untried one within the narrowest window of
    :data:`WINDOWS` that has any (a tried one when all were tried; None when there are
    none)."""
    if not puzzles:
        return None

    def current(p: Puzzle) -> float:
        r = ratings.get(p.id)
        return r.rating if r is not None else float(p.rating)

    fresh = [p for p in puzzles if p.id not in tried] or list(puzzles)
    for width in WINDOWS:
        near = [p for p in fresh if abs(current(p) - player.rating) <= width]
        if near:
            return rng.choice(near)
    return rng.choice(fresh)


def puzzle_json(puzzle: Puzzle, rating: Rating, theme_names: dict[str, str]) -> dict[str, Any]:
    """A puzzle for the page: ``id``, ``variant`` (the rule set's id), ``optional_capture``,
    ``fen``, ``turn`` (the solver's side), ``pieces``, ``legal_moves`` (with every path),
    ``rating`` (its current rating), ``themes`` (``[{"id", "name"}]``), ``plies`` (the
    solution's length), ``solver_moves``, ``url`` (its share address)."""
    v = key_variant(puzzle.variant)
    position = parse_fen(v, puzzle.fen)
    return {
        "id": puzzle.id,
        "variant": v.id,
        "optional_capture": v.optional_capture,
        "fen": puzzle.fen,
        "turn": position.turn.word,
        "pieces": pieces_json(v, position),
        "legal_moves": moves_with_paths_json(v, position, legal_moves(v, position)),
        "rating": round(rating.rating),
        "themes": [{"id": t, "name": theme_names.get(t, t)} for t in puzzle.themes],
        "plies": len(puzzle.solution),
        "solver_moves": puzzle.solver_moves,
        "url": f"/puzzles/{puzzle.id}",
    }


def check_json(puzzle: Puzzle, check: Check) -> dict[str, Any]:
    """The answer to the solver's moves: ``status``, ``reply`` (the opponent's move just
    played, as the play page's moves, or null), ``last`` (the solver's last move played,
    or null after a wrong one), ``fen``, ``pieces``, ``legal_moves`` (the
    solver's moves now, while it goes on), and once it is over ``solution`` (the whole
    line)."""
    v = key_variant(puzzle.variant)
    solver = parse_fen(v, puzzle.fen).turn
    out: dict[str, Any] = {
        "status": check.status,
        "reply": (move_json(v, check.reply, solver.opponent)
                  if check.reply is not None else None),
        "last": (move_json(v, check.mine, solver) if check.mine is not None
                 and check.status != "failed" else None),
        "fen": write_fen(v, check.position),
        "pieces": pieces_json(v, check.position),
        "legal_moves": (moves_with_paths_json(v, check.position,
                                              legal_moves(v, check.position))
                        if check.status == "continue" else []),
        "solution": list(puzzle.solution) if check.status != "continue" else None,
    }
    return out


class PuzzleService:
    """Puzzles for the routes: choosing (near the player's rating), rating attempts."""

    def __init__(self, ratings: RatingStore):
        self.ratings = ratings
        self.rng = random.Random()

    def next_for(self, player: str | None, v: Variant) -> Puzzle | None:
        """The next puzzle for a player (by its seat key; None: a new player)."""
        key = library.variant_key(v)
        puzzles = library.shipped(key)
        if not puzzles:
            return None
        me = self.ratings.player(player, key) if player else Rating(1500.0, 350.0)
        tried = self.ratings.tried(player, key) if player else set()
        return choose(puzzles, self.ratings.puzzles(key), tried, me, self.rng)
