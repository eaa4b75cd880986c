"""Positions from self-play for the trainer, and sessions of exercises chosen from them.

The pool of a board size is ``data/pool-<size>.txt.gz`` beside this file: one position a
line, ``<turn W|B> <white> <black> <kings>`` (bitboards in hexadecimal, over the internal
squares that every rule set on that board shares: :mod:`damiera.rules.geometry`). The
positions come from self-play games of every rule set on that board
(``tools/generate_trainer_pool.py``), kept where some rule decides an exercise, so one pool
serves every rule set of its size, a new one included: a rule set's exercises are found in
it by the rules core (:func:`catalogue`, once per rule set and process).
"""

from __future__ import annotations

import functools
import gzip
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from damiera.rules.position import FenError, Position, check_position
from damiera.rules.variant import Color, Variant
from damiera.trainer.exercises import Exercise, ExerciseError, exercises_at, parse_id

DATA = Path(__file__).resolve().parent / "data"
#: Exercises in a session.
SESSION = 10
#: At most this many exercises of a session drill the same rule with the same question.
PER_GROUP = 2


def pool_file(board_size: int, folder: Path = DATA) -> Path:
    """The pool file of a board size."""
    return folder / f"pool-{board_size}.txt.gz"


def position_line(position: Position) -> str:
    """A position as one pool line (see the module docstring)."""
    return (f"{position.turn.value} {position.white:x} {position.black:x} "
            f"{position.kings:x}")


def read_pool(path: Path) -> tuple[Position, ...]:
    """The positions of a pool file. Raises ValueError naming a bad line, OSError when it
    cannot be read."""
    out = []
    with gzip.open(path, "rt", encoding="ascii") as handle:
        for number, line in enumerate(handle, start=1):
            parts = line.split()
            if not parts:
                continue
            try:
                turn, white, black, kings = parts
                out.append(Position(int(white, 16), int(black, 16), int(kings, 16),
                                    Color(turn)))
            except ValueError:
                raise ValueError(f"{path.name} line {number}: not a pool position") from None
    return tuple(out)


def write_pool(path: Path, positions: Iterable[Position]) -> int:
    """Write a pool file (gzip'd, the order kept); returns how many positions."""
    lines = [position_line(p) for p in positions]
    with gzip.GzipFile(path, "wb", mtime=0) as handle:
        handle.write(("\n".join(lines) + "\n").encode("ascii"))
    return len(lines)


@functools.cache
def pool(board_size: int) -> tuple[Position, ...]:
    """The shipped positions of a board size (empty when there is no pool for it)."""
    path = pool_file(board_size)
    return read_pool(path) if path.exists() else ()


def _possible(variant: Variant, position: Position) -> bool:
    """Whether ``position`` can arise in ``variant`` (a pool is shared by every rule set of a
    board size, and one with fewer men, such as Thai draughts, cannot reach all of them)."""
    try:
        check_position(variant, position)
    except FenError:
        return False
    return True


@functools.lru_cache(maxsize=32)
def catalogue(variant: Variant) -> tuple[Exercise, ...]:
    """Every exercise of ``variant`` in its board's pool, in pool order (positions the rule
    set cannot reach left out)."""
    positions = pool(variant.board_size)
    return tuple(e for i, p in enumerate(positions) if _possible(variant, p)
                 for e in exercises_at(variant, i, p))


def find(variant: Variant, exercise_id: str) -> Exercise:
    """The exercise ``exercise_id`` of ``variant``, rebuilt from the pool by the rules core.
    Raises :class:`~damiera.trainer.exercises.ExerciseError` when the id names none (a
    position not in the pool, or a rule that does not decide it under this rule set)."""
    kind, index, param, focus = parse_id(exercise_id)
    positions = pool(variant.board_size)
    if index >= len(positions):
        raise ExerciseError(f"there is no position {index} in the trainer's pool")
    position = positions[index]
    if not _possible(variant, position):
        raise ExerciseError("this exercise does not exist in this rule set")
    for exercise in exercises_at(variant, index, position):
        if (exercise.kind, exercise.param, exercise.focus) == (kind, param, focus):
            return exercise
    raise ExerciseError("this exercise does not exist in this rule set")


def session(variant: Variant, rng: random.Random, again: Sequence[str] = (),
            size: int = SESSION) -> list[Exercise]:
    """``size`` exercises for one session: first (up to half the session) exercises of the
    rules in ``again`` (those the player keeps missing), then a mix of every kind of question
    and rule, at most :data:`PER_GROUP` of one kind and rule, no position twice. Fewer when
    the pool has fewer."""
    groups: dict[tuple[str, str], list[Exercise]] = defaultdict(list)
    for e in catalogue(variant):
        groups[(e.kind, e.param)].append(e)
    for items in groups.values():
        rng.shuffle(items)
    chosen: list[Exercise] = []
    used: set[int] = set()
    taken: dict[tuple[str, str], int] = defaultdict(int)

    def take(keys: list[tuple[str, str]], limit: int) -> None:
        while len(chosen) < limit:
            progress = False
            for key in keys:
                if len(chosen) >= limit:
                    break
                if taken[key] >= PER_GROUP:
                    continue
                found = next((e for e in groups[key] if e.index not in used), None)
                if found is None:
                    continue
                chosen.append(found)
                used.add(found.index)
                taken[key] += 1
                progress = True
            if not progress:
                return

    wanted = [k for k in groups if k[1] in set(again)]
    rng.shuffle(wanted)
    take(wanted, min(size, max(1, size // 2)) if wanted else 0)
    rest = list(groups)
    rng.shuffle(rest)
    take(rest, size)
    rng.shuffle(chosen)
    return chosen


