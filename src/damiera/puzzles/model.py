"""One tactics puzzle as a value, and its JSON line.

A puzzle is a position (``fen``, in its rule set's notation), the side to move being the
solver, and ``solution``: the whole line in the rule set's notation, the solver's moves and
the replies alternating, starting with the solver's first move (``["22-18", "13x22",
"26x17x10"]``). The JSON line is the contract of ``damiera puzzles export``:
``{"id", "variant", "fen", "solution", "rating", "themes"}``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

#: The longest line of a JSON-lines file read (a 10x10 puzzle is about 400 characters).
MAX_LINE = 4000
#: The longest solution read, in plies.
MAX_PLIES = 40


class PuzzleError(ValueError):
    """A puzzle line that cannot be read (the message names the field)."""


def puzzle_id(variant_key: str, fen: str) -> str:
    """The stable id of the puzzle of ``fen`` under the rule set ``variant_key``: 10
    lower-case hexadecimal characters of its BLAKE2s hash (the same puzzle always gets the
    same id, so a share address keeps working when the data is made again)."""
    return hashlib.blake2s(f"{variant_key}|{fen}".encode(), digest_size=5).hexdigest()


@dataclass(frozen=True, slots=True)
class Puzzle:
    """``id`` (see :func:`puzzle_id`), ``variant`` (the rule set's id, with ``+optional``
    for the optional-capture house rule), ``fen``, ``solution`` (move texts, solver first),
    ``rating`` (the starting Glicko-2 rating of the puzzle, from how deep the engine had to
    look to find it), ``themes`` (tags: :mod:`damiera.puzzles.themes`)."""

    id: str
    variant: str
    fen: str
    solution: tuple[str, ...]
    rating: int
    themes: tuple[str, ...]

    @property
    def solver_moves(self) -> int:
        """How many moves the solver plays (the replies come in between)."""
        return (len(self.solution) + 1) // 2

    def json(self) -> dict[str, Any]:
        """The contract's JSON object."""
        return {"id": self.id, "variant": self.variant, "fen": self.fen,
                "solution": list(self.solution), "rating": self.rating,
                "themes": list(self.themes)}

    def json_line(self) -> str:
        """One line of JSON (no newline), keys in the contract's order."""
        return json.dumps(self.json(), ensure_ascii=False, separators=(", ", ": "))

    @classmethod
    def from_json_line(cls, line: str) -> Puzzle:
        """Read one line written by :meth:`json_line`. Raises :class:`PuzzleError`
        naming what is wrong (bounded: a line longer than :data:`MAX_LINE` is refused
        before it is parsed)."""
        if len(line) > MAX_LINE:
            raise PuzzleError(f"a puzzle line has at most {MAX_LINE} characters")
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PuzzleError(f"not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise PuzzleError("a puzzle line is a JSON object")
        try:
            solution = data["solution"]
            themes = data["themes"]
            if not (isinstance(solution, list) and 0 < len(solution) <= MAX_PLIES
                    and all(isinstance(m, str) for m in solution)):
                raise PuzzleError(f"solution: a list of 1-{MAX_PLIES} move texts")
            if not (isinstance(themes, list) and all(isinstance(t, str) for t in themes)):
                raise PuzzleError("themes: a list of strings")
            puzzle = cls(str(data["id"]), str(data["variant"]), str(data["fen"]),
                         tuple(solution), int(data["rating"]), tuple(themes))
        except KeyError as exc:
            raise PuzzleError(f"missing field {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            if isinstance(exc, PuzzleError):
                raise
            raise PuzzleError(f"bad field: {exc}") from None
        return puzzle
