"""Players and openings of engine matches (:mod:`damiera.engine.match`): the player names
(levels ``1``-``3``, ``random``, ``hub:COMMAND``) and the positions games start from, either
short random openings (:func:`random_openings`), those of them the engine judges level
(:func:`balanced_openings`), or FENs read from a file.

``hub:COMMAND`` is an engine's path and its arguments, split as a shell would
(``"hub:/opt/scan/scan hub"``).
"""

from __future__ import annotations

import io
import itertools
import os
import random
import shlex
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from damiera.files import open_regular
from damiera.rules.movegen import apply_move, generate, has_capture, legal_moves
from damiera.rules.position import Position, parse_fen, start_position
from damiera.rules.variant import Color, Variant

if TYPE_CHECKING:
    from damiera.engine.evaluate import Evaluator

PLAYER_NAMES = ("1", "2", "3", "random")
#: Prefix of a Hub engine player: ``hub:`` then the engine's command line.
HUB_PREFIX = "hub:"
#: Largest openings file read (bytes): 100,000 FENs of a full 10x10 board fit well within.
MAX_OPENINGS_BYTES = 32 * 1024 * 1024


def hub_command(name: str) -> list[str] | None:
    """The command line of a ``hub:COMMAND`` player (split as a shell would), None for
    another player; ValueError for an empty command or one that cannot be split."""
    if not name.startswith(HUB_PREFIX):
        return None
    try:
        argv = shlex.split(name[len(HUB_PREFIX):])
    except ValueError as exc:
        raise ValueError(f"cannot read the engine command {name!r}: {exc}") from None
    if not argv:
        raise ValueError("hub: needs an engine command, e.g. hub:/path/to/engine")
    return argv


def check_player(name: str) -> str:
    """Normalise a player name (``1``, ``2``, ``3``, ``random`` or ``hub:COMMAND``, whose
    program must be an executable file). ValueError for a name that is none of them (bad
    input); :class:`~damiera.engine.hub_client.HubClientError` when a Hub engine's program
    is not an executable file (an engine that cannot start, as one that fails later)."""
    text = str(name).strip()
    argv = hub_command(text)
    if argv is not None:
        program = argv[0] if os.sep in argv[0] else shutil.which(argv[0])
        if program is None or not (os.path.isfile(program) and os.access(program, os.X_OK)):
            from damiera.engine.hub_client import HubClientError

            raise HubClientError(f"no executable engine at {argv[0]!r}")
        return text
    key = text.lower()
    if key not in PLAYER_NAMES:
        raise ValueError(f"player must be 1, 2, 3, random or hub:COMMAND, not {name!r}")
    return key


def _distinct_openings(variant: Variant, plies: int, rng: random.Random,
                       most_tries: int) -> Iterator[Position]:
    """Distinct openings of ``plies`` random legal plies from the start, each with level
    material (as many men and as many kings each) and no capture for the side to move, drawn
    with ``rng``; ends after
    ``most_tries`` tries, or sooner once a long run of tries finds none new (the variant has
    no more of that length)."""
    seen: set[Position] = set()
    attempts = 0
    last_new = 0
    while attempts < most_tries:
        if attempts - last_new > max(2000, 20 * len(seen)):
            return  # saturated: every further try would very likely find an opening seen
        attempts += 1
        pos = start_position(variant)
        ok = True
        for _ in range(plies):
            moves = legal_moves(variant, pos)
            if not moves:
                ok = False
                break
            pos = apply_move(pos, rng.choice(moves))
        if not ok or pos in seen:
            continue
        if not _level(pos) or has_capture(variant, pos) or not generate(variant, pos):
            continue
        seen.add(pos)
        last_new = attempts
        yield pos


def _level(pos: Position) -> bool:
    """Each side has as many men and as many kings as the other."""
    return all(a.bit_count() == b.bit_count() for a, b in
               ((pos.men(Color.WHITE), pos.men(Color.BLACK)),
                (pos.kings_of(Color.WHITE), pos.kings_of(Color.BLACK))))


def random_openings(
    variant: Variant, count: int, plies: int = 4, seed: int = 1
) -> list[Position]:
    """``count`` distinct short random openings: ``plies`` random legal plies from the start,
    kept when material is level (as many men and as many kings each) and the side to move has
    no capture. Deterministic per seed.
    When the variant has fewer such openings than ``count`` (American has a few hundred of 4
    plies), the search stops once a long run of tries finds none new, and the openings found
    are repeated in order.
    """
    rng = random.Random(seed)
    out = list(itertools.islice(_distinct_openings(variant, plies, rng, count * 200), count))
    seen = len(out)
    while len(out) < count:  # tiny variants of tiny depth: repeat what we have
        out.append(out[len(out) % max(1, seen)] if out else start_position(variant))
    return out


#: Candidates :func:`balanced_openings` searches for each opening asked for, at most.
BALANCED_TRIES_EACH = 20


@dataclass(frozen=True)
class JudgedOpening:
    """An opening and the engine's judgement of it: ``score`` in centi-men for the side to
    move (a man is 100) after a search of ``depth`` plies (its last finished iteration)."""

    position: Position
    score: int
    depth: int


def balanced_openings(
    variant: Variant, count: int, *, plies: int, seed: int, nodes: int, margin: int,
    on_judged: Callable[[JudgedOpening, bool], None] | None = None,
    evaluator: Evaluator | None = None,
) -> list[JudgedOpening]:
    """Up to ``count`` distinct random openings of ``plies`` plies (drawn as
    :func:`random_openings` draws them, per ``seed``) that Damiera's own search, ``nodes``
    nodes each from a cleared hash table, scores within ``margin`` centi-men of level
    (``abs(score) <= margin``), in the order drawn. Deterministic per arguments and engine.

    Random openings are often decided from the start (a shot a few plies away): a match
    pair from such an opening scores 1-1 whoever is stronger. This keeps only the openings
    the engine sees as level. ``on_judged(opening, kept)`` is called after every search;
    ``evaluator``: the evaluation searched with (default: the engine's own).

    Fewer than ``count`` come back when the variant has too few distinct openings of that
    length, or when :data:`BALANCED_TRIES_EACH` candidates per opening asked for were searched
    (a margin few openings meet). ValueError for ``count`` or ``nodes`` below 1, ``plies`` or
    ``margin`` below 0.
    """
    if count < 1 or nodes < 1 or plies < 0 or margin < 0:
        raise ValueError("count and nodes must be at least 1, plies and margin at least 0")
    from damiera.engine.search import Searcher  # the search only when openings are judged

    searcher = Searcher(variant, evaluator=evaluator)
    rng = random.Random(seed)
    candidates = _distinct_openings(variant, plies, rng, count * BALANCED_TRIES_EACH * 200)
    out: list[JudgedOpening] = []
    for pos in itertools.islice(candidates, count * BALANCED_TRIES_EACH):
        searcher.clear()  # each judgement its own: no table left from the one before
        r = searcher.search(pos, nodes=nodes)
        judged = JudgedOpening(pos, r.score, r.depth)
        kept = abs(r.score) <= margin
        if kept:
            out.append(judged)
        if on_judged is not None:
            on_judged(judged, kept)
        if len(out) == count:
            break
    return out


def read_openings(variant: Variant, path: str) -> list[Position]:
    """FENs from a file, one per line (blank lines and ``#`` comments skipped).

    Raises OSError if the file cannot be read or is not a regular file (a FIFO is refused at
    once, not waited on: :func:`damiera.files.open_regular`), and ValueError naming the file
    (and the line) for a file larger than :data:`MAX_OPENINGS_BYTES`, not UTF-8 text, a bad
    FEN, or a finished position (a side without pieces, or no legal move for the side to
    move): a game cannot start from it.
    """
    out = []
    with open_regular(path) as fh:  # a FIFO is refused, not waited on
        data = fh.read(MAX_OPENINGS_BYTES + 1)  # bounded: a huge file is refused
    if len(data) > MAX_OPENINGS_BYTES:
        raise ValueError(f"{path} is larger than {MAX_OPENINGS_BYTES} bytes: not an openings "
                         "file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    lines = list(io.StringIO(text, newline=None))  # universal newlines, as open() in text mode
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            pos = parse_fen(variant, text)
        except ValueError as exc:
            raise ValueError(f"{path}, line {number}: {exc}") from None
        white, black = pos.piece_counts()
        if not white or not black:
            side = "White" if not white else "Black"
            raise ValueError(f"{path}, line {number}: the game is over ({side} has no pieces)")
        if not generate(variant, pos):
            raise ValueError(f"{path}, line {number}: the game is over "
                             f"({pos.turn.word.capitalize()} to move has no legal move)")
        out.append(pos)
    if not out:
        raise ValueError(f"{path} holds no FEN")
    return out
