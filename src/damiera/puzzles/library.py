"""The puzzles shipped with Damiera: ``data/<rule set>.jsonl.gz`` beside this file, one
gzip'd JSON line per puzzle (:meth:`damiera.puzzles.model.Puzzle.json_line`), sorted by id.

A rule set's file is named after :func:`variant_key` (``italian``, ``russian+optional`` for
a house-rule set); a rule set without a file has no puzzles yet (``tools/generate_puzzles.py``
makes them). Files are read once per process and kept (a few hundred kilobytes in all).
"""

from __future__ import annotations

import functools
import gzip
import io
from collections.abc import Iterable, Iterator
from pathlib import Path

from damiera.files import replace_regular
from damiera.puzzles.model import MAX_LINE, Puzzle, PuzzleError
from damiera.rules.variant import Variant

DATA = Path(__file__).resolve().parent / "data"


def variant_key(variant: Variant) -> str:
    """The name a rule set's puzzles are kept under: its id, plus ``+optional`` under the
    optional-capture house rule."""
    return variant.id + ("+optional" if variant.optional_capture else "")


def data_file(key: str, folder: Path = DATA) -> Path:
    """The data file of a rule set's key (see :func:`variant_key`)."""
    return folder / f"{key}.jsonl.gz"


def read_puzzles(path: Path) -> Iterator[Puzzle]:
    """Every puzzle of a data file (gzip'd JSON lines; several gzip members are read as
    one). Raises :class:`~damiera.puzzles.model.PuzzleError` naming the line of a bad
    one, OSError when the file cannot be read."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(_bounded_lines(handle), start=1):
            if not line.strip():
                continue
            try:
                yield Puzzle.from_json_line(line)
            except PuzzleError as exc:
                raise PuzzleError(f"{path.name} line {number}: {exc}") from None


def _bounded_lines(handle: io.TextIOBase) -> Iterator[str]:
    while True:
        line = handle.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith("\n"):
            raise PuzzleError(f"a puzzle line has at most {MAX_LINE} characters")
        yield line


def write_puzzles(path: Path, puzzles: Iterable[Puzzle]) -> int:
    """Write ``puzzles`` sorted by id as one gzip member, whole or not at all
    (:func:`damiera.files.replace_regular`: a reader never sees half a file); returns how
    many. Raises OSError (NotRegularFileError for a path that is not a regular file)."""
    ordered = sorted(puzzles, key=lambda p: p.id)
    with (replace_regular(path) as out,
          gzip.GzipFile(path.name, "wb", fileobj=out, mtime=0) as raw,
          io.TextIOWrapper(raw, "utf-8") as text):
        for p in ordered:
            text.write(p.json_line() + "\n")
    return len(ordered)


@functools.cache
def shipped(key: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of a rule set's key, sorted by id (empty when it has none)."""
    path = data_file(key)
    if not path.exists():
        return ()
    return tuple(read_puzzles(path))


@functools.cache
def _by_id() -> dict[str, Puzzle]:
    return {p.id: p for path in sorted(DATA.glob("*.jsonl.gz"))
            for p in shipped(path.name.removesuffix(".jsonl.gz"))}


def find(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle with this id, in any rule set, or None."""
    if len(puzzle_id) > 32:
        return None
    return _by_id().get(puzzle_id)


def keys() -> list[str]:
    """The rule-set keys that have shipped puzzles."""
    return sorted(p.name.removesuffix(".jsonl.gz") for p in DATA.glob("*.jsonl.gz"))
