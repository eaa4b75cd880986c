"""Tactics puzzles: positions where one move wins material or the game by force.

:mod:`~damiera.puzzles.model` (the :class:`Puzzle` value and its JSON line),
:mod:`~damiera.puzzles.library` (the puzzles shipped in ``data/``, one gzip'd JSON-lines
file per rule set), :mod:`~damiera.puzzles.finder` (finding and verifying puzzles with the
engine), :mod:`~damiera.puzzles.themes` (the tags of a puzzle's line),
:mod:`damiera.cli.puzzles` (``damiera puzzles export``). ``tools/generate_puzzles.py``
makes more from self-play and from Damiera's own games.
"""

from damiera.puzzles.model import Puzzle

__all__ = ["Puzzle"]
