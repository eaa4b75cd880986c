"""Analysis of a position: the engine's best lines as it thinks.

:func:`analyse` runs :meth:`damiera.engine.Engine.analyse_lines` on a position and reports,
after every finished iteration, the best ``multipv`` lines (1-3 on the site, any number here):
each an :class:`~damiera.engine.front.Analysis` with the depth, the score and the principal
variation, its moves in the variant's notation. One line is the
search's own principal variation; several use the search's ``root_scores`` mode (every root
move scored with a full window, so the second and third lines have exact scores too; slower
by the number of root moves searched in full). On 8x8 boards the search probes the endgame
database of up to 3 pieces (:mod:`damiera.engine.egdb`), so such endings get exact scores:
a win or loss in so many plies, or 0 for a draw.

``damiera analyse VARIANT --fen FEN [--multipv N] [--movetime S] [--depth D]`` prints these
lines (:mod:`damiera.cli.engine`).

Cancelling: ``should_stop`` is asked after every iteration; the search also ends at
``movetime``. A caller that must stop at once runs the analysis in a process of its own and
ends it (the web site does, :mod:`damiera.web.analysis.workers`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from damiera.engine.front import MAX_MULTIPV, Analysis, Engine, Limit
from damiera.engine.search import MATE, MATE_BOUND, MAX_DEPTH, MAX_MOVETIME
from damiera.rules.position import Position
from damiera.rules.variant import Variant

__all__ = ["MAX_MULTIPV", "Line", "Stopped", "analyse", "line_text", "score_men", "score_text"]

#: A line of analysis: an :class:`~damiera.engine.front.Analysis` (``rank``, ``depth``,
#: ``score``, ``nodes``, ``seconds``, ``pv`` as :class:`~damiera.rules.move.Move` values).
Line = Analysis


class Stopped(Exception):
    """Raised inside the search's callback to end an analysis early (caught by
    :func:`analyse`)."""


def score_text(score: int) -> str:
    """Score for info lines: centi-men, or ``win N`` / ``loss N`` (plies to the end)."""
    if score > MATE_BOUND:
        return f"win {MATE - score}"
    if score < -MATE_BOUND:
        return f"loss {MATE + score}"
    return str(score)


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


def analyse(
    variant: Variant,
    position: Position,
    *,
    multipv: int = 1,
    movetime: float | None = None,
    depth: int | None = None,
    history: Sequence[Position] = (),
    on_lines: Callable[[list[Analysis]], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    engine: Engine | None = None,
    cpu_time: bool = False,
) -> list[Analysis]:
    """Analyse ``position`` with :meth:`Engine.analyse_lines
    <damiera.engine.front.Engine.analyse_lines>` and return the last lines reported (best
    first; empty when the side to move has no legal move).

    ``multipv``: number of lines, 1 to :data:`MAX_MULTIPV` (at most the number of legal
    moves); ``movetime`` (seconds, at most 3600) and/or ``depth`` (plies, 1-30) bound the
    search (neither: depth 6); ``history``: the earlier positions, oldest first, for
    repetitions and the 40-move rule; ``on_lines``: called after every iteration with its
    lines; ``should_stop``: asked after every iteration, True ends the analysis there;
    ``engine``: reuse an engine of this variant (its tables carry over; default: a new
    level-3 one); ``cpu_time``: ``movetime`` is the search thread's CPU time, not wall
    time. Raises ValueError for a bad ``multipv``, ``movetime`` or ``depth``.
    """
    if not 1 <= multipv <= MAX_MULTIPV:
        raise ValueError(f"multipv must be between 1 and {MAX_MULTIPV}, not {multipv}")
    if movetime is not None and not 0 < movetime <= MAX_MOVETIME:
        raise ValueError(f"movetime must be above 0 and at most {MAX_MOVETIME:g} s, not {movetime}")
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be between 1 and {MAX_DEPTH}, not {depth}")
    if depth is None and movetime is None:
        depth = 6
    if engine is None:
        engine = Engine(variant, 3)
    last: list[Analysis] = []

    def lines(found: list[Analysis]) -> None:
        nonlocal last
        last = found
        if on_lines is not None:
            on_lines(found)
        if should_stop is not None and should_stop():
            raise Stopped

    try:
        last = engine.analyse_lines(
            [*history, position],
            Limit(time=movetime or MAX_MOVETIME, depth=depth, cpu_time=cpu_time),
            multipv=multipv, on_lines=lines)
    except Stopped:
        pass
    return last


def line_text(variant: Variant, line: Line, multipv: int = 1) -> str:
    """An info line as ``damiera bestmove`` writes it (``depth D score S nodes N nps X pv
    ...``), with ``multipv K`` after the depth when several lines are asked for."""
    pv = " ".join(str(m) for m in line.pv)
    rank = f" multipv {line.rank}" if multipv > 1 else ""
    return (f"depth {line.depth}{rank} score {score_text(line.score)} nodes {line.nodes} "
            f"nps {line.nps} pv {pv}")
