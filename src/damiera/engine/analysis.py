"""Analysis of a position: the engine's best lines as it thinks (issue 18, point 4).

:func:`analyse` runs :meth:`damiera.engine.search.Searcher.search` on a position and reports,
after every finished iteration, the best ``multipv`` lines (1-3 on the site, any number here):
each a :class:`Line` with the depth, the score and the principal variation. One line is the
search's own principal variation; several use the search's ``root_scores`` mode (every root
move scored with a full window, so the second and third lines have exact scores too; slower
by the number of root moves searched in full). On 8x8 boards the search probes the endgame
database of up to 3 pieces (:mod:`damiera.engine.egdb`), so such endings get exact scores:
a win or loss in so many plies, or 0 for a draw.

``damiera analyse VARIANT --fen FEN [--multipv N] [--movetime S] [--depth D]`` prints these
lines (:mod:`damiera.engine.cli`).

Cancelling: ``should_stop`` is asked after every iteration; the search also ends at
``movetime``. A caller that must stop at once runs the analysis in a process of its own and
ends it (the web site does, :mod:`damiera.web.analysis.workers`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from damiera.engine.egdb import pieces_for
from damiera.engine.search import MATE, MATE_BOUND, MAX_DEPTH, MAX_MOVETIME, Info, Searcher
from damiera.rules.movegen import Move, generate
from damiera.rules.notation import move_text
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant

#: Most lines the analysis reports at once (every root move is searched in full anyway).
MAX_MULTIPV = 10


@dataclass
class Line:
    """One line of analysis: ``rank`` (1 = best), ``depth`` (plies), ``score`` (centi-men from
    the side to move's view; beyond :data:`~damiera.engine.search.MATE_BOUND` a win or loss),
    ``nodes`` and ``seconds`` of the whole search so far, ``pv`` (moves, the line's first move
    first)."""

    rank: int
    depth: int
    score: int
    nodes: int
    seconds: float
    pv: list[Move] = field(default_factory=list)

    @property
    def nps(self) -> int:
        """Nodes a second of the search so far."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0

    def white_score(self, turn: Color) -> int:
        """The score from White's view (``turn``: the side to move in the analysed position)."""
        return self.score if turn is Color.WHITE else -self.score


class Stopped(Exception):
    """Raised inside the search's callback to end an analysis early (caught by
    :func:`analyse`)."""


def score_men(score: int) -> str:
    """A score for people: men with a sign and two decimals (``+1.25``, ``-0.40``, ``0.00``),
    or ``win in N`` / ``loss in N`` plies beyond :data:`~damiera.engine.search.MATE_BOUND`."""
    if score > MATE_BOUND:
        return f"win in {MATE - score}"
    if score < -MATE_BOUND:
        return f"loss in {MATE + score}"
    if score == 0:
        return "0.00"
    return f"{score / 100:+.2f}"


def lines_of(info: Info, multipv: int) -> list[Line]:
    """The best ``multipv`` lines of one iteration's report (an unfinished iteration's report
    in multi-PV mode has only its best move: one line)."""
    if multipv > 1 and info.lines:
        return [
            Line(rank, info.depth, score, info.nodes, info.seconds, list(pv))
            for rank, (score, pv) in enumerate(info.lines[:multipv], start=1)
        ]
    return [Line(1, info.depth, info.score, info.nodes, info.seconds, list(info.pv))]


def analyse(
    variant: Variant,
    position: Position,
    *,
    multipv: int = 1,
    movetime: float | None = None,
    depth: int | None = None,
    history: Sequence[Position] = (),
    on_lines: Callable[[list[Line]], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    searcher: Searcher | None = None,
) -> list[Line]:
    """Analyse ``position`` and return the last lines reported (best first; empty when the side
    to move has no legal move).

    ``multipv``: number of lines, 1 to :data:`MAX_MULTIPV` (at most the number of legal
    moves); ``movetime`` (seconds, at most 3600) and/or ``depth`` (plies, 1-30) bound the
    search (neither: depth 6); ``history``: the earlier positions, oldest first, for
    repetitions and the 40-move rule; ``on_lines``: called after every iteration with its
    lines; ``should_stop``: asked after every iteration, True ends the analysis there;
    ``searcher``: reuse a searcher (its tables carry over). Raises ValueError for a bad
    ``multipv``, ``movetime`` or ``depth``.
    """
    if not 1 <= multipv <= MAX_MULTIPV:
        raise ValueError(f"multipv must be between 1 and {MAX_MULTIPV}, not {multipv}")
    if movetime is not None and not 0 < movetime <= MAX_MOVETIME:
        raise ValueError(f"movetime must be above 0 and at most {MAX_MOVETIME:g} s, not {movetime}")
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be between 1 and {MAX_DEPTH}, not {depth}")
    moves = generate(variant, position)
    if not moves:
        return []
    multipv = min(multipv, len(moves))
    if searcher is None:
        searcher = Searcher(variant, endgame_pieces=pieces_for(variant))
    if depth is None and movetime is None:
        depth = 6
    last: list[Line] = []

    def on_info(info: Info) -> None:
        nonlocal last
        lines = lines_of(info, multipv)
        if multipv > 1 and len(lines) < multipv and last:
            return  # an unfinished iteration: keep the finished one's lines
        last = lines
        if on_lines is not None:
            on_lines(lines)
        if should_stop is not None and should_stop():
            raise Stopped

    try:
        searcher.search(
            position,
            depth=depth,
            movetime=movetime if movetime is not None else MAX_MOVETIME,
            history=history,
            on_info=on_info,
            root_scores=multipv > 1,
        )
    except Stopped:
        pass
    return last


def line_text(variant: Variant, line: Line, multipv: int = 1) -> str:
    """An info line as ``damiera bestmove`` writes it (``depth D score S nodes N nps X pv
    ...``), with ``multipv K`` after the depth when several lines are asked for."""
    from damiera.engine.cli import score_text

    pv = " ".join(move_text(variant, m) for m in line.pv)
    rank = f" multipv {line.rank}" if multipv > 1 else ""
    return (f"depth {line.depth}{rank} score {score_text(line.score)} nodes {line.nodes} "
            f"nps {line.nps} pv {pv}")
