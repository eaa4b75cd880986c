"""Game review: the engine scores every position of a game and judges every move.

Each position of the game (the start and the position after every move) is searched for
``movetime`` seconds with one :class:`~damiera.engine.Engine` (its table carries
over from move to move). A move's **loss** is, in men from the mover's view, the score of the
best move minus the score of the move played (the search's score of the position before,
minus the score of the position after from the mover's side), both clipped to
+-:data:`CLIP` so that a won or lost game does not make every move a blunder. The played move
is never judged worse than the best when it *is* the search's best move.

========================  ============  ===
judgement                 loss at least NAG
========================  ============  ===
inaccuracy                0.5 men       ?!
mistake                   1.0 men       ?
blunder                   1.5 men       ??
========================  ============  ===

A move that gives away two men for nothing loses about two men: a blunder.
:func:`annotated_pdn` writes the game as PDN (through :func:`damiera.pdn.write_game`, the one
PDN writer) with the NAGs after the moves and a comment (``{score before -> after; best
MOVE}``) after every judged move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from damiera.engine.analysis import analyse, score_men
from damiera.engine.front import Engine
from damiera.engine.search import MATE
from damiera.pdn.reader import PdnGame, Ply
from damiera.pdn.writer import write_game
from damiera.rules.game import Game
from damiera.rules.movegen import Move, apply_move, legal_moves
from damiera.rules.notation import move_text
from damiera.rules.position import Position, start_position
from damiera.rules.variant import Color, Variant

#: Scores are clipped to +-10 men before losses are taken (centi-men).
CLIP = 1000
#: (least loss in centi-men, judgement, NAG), worst first.
THRESHOLDS: tuple[tuple[int, str, str], ...] = (
    (150, "blunder", "??"),
    (100, "mistake", "?"),
    (50, "inaccuracy", "?!"),
)
#: Longest game reviewed (plies): 0.3 s a position makes a 600-ply game a 3-minute review.
MAX_PLIES = 600


@dataclass
class PositionScore:
    """The engine's view of one position: ``score`` (centi-men, side to move's view; -MATE when
    it has lost), ``best`` (None when there is no move), ``pv`` (moves), ``depth``."""

    score: int
    best: Move | None
    pv: list[Move]
    depth: int


@dataclass
class MoveReview:
    """One move judged: ``ply`` (0-based), ``move``, ``mover``; ``before`` and ``after``:
    the scores (centi-men, **White's** view) of the positions before and after it; ``best``
    (the engine's best move, None when the played move is it) and ``best_pv``; ``loss``
    (centi-men, >= 0, the mover's view); ``judgement`` ("", "inaccuracy", "mistake",
    "blunder") and its ``nag`` ("", "?!", "?", "??")."""

    ply: int
    move: Move
    mover: Color
    before: int
    after: int
    best: Move | None
    best_pv: list[Move]
    loss: int
    judgement: str
    nag: str


def judge(loss: int) -> tuple[str, str]:
    """The judgement and NAG of a loss in centi-men (see the table above)."""
    for least, name, nag in THRESHOLDS:
        if loss >= least:
            return name, nag
    return "", ""


def _clip(score: int) -> int:
    return max(-CLIP, min(CLIP, score))


def score_position(
    variant: Variant, position: Position, movetime: float, engine: Engine,
    history: Sequence[Position] = (),
) -> PositionScore:
    """Search one position (see :class:`PositionScore`)."""
    white, black = position.piece_counts()
    if not white or not black or not legal_moves(variant, position):
        return PositionScore(-MATE, None, [], 0)
    lines = analyse(variant, position, movetime=movetime, history=history, engine=engine)
    line = lines[0]
    pv = [m.raw for m in line.pv]
    return PositionScore(line.score, pv[0], pv, line.depth)


def review_game(
    variant: Variant,
    moves: Sequence[Move],
    start: Position | None = None,
    *,
    movetime: float = 0.3,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[MoveReview]:
    """Judge every move of a game played from ``start`` (default: the start position).

    ``movetime``: seconds per position (the whole review takes about ``(len(moves) + 1) *
    movetime``); ``on_progress(done, total)`` after every position searched. Raises
    ValueError for an illegal move (naming its ply) or more than :data:`MAX_PLIES` moves.
    """
    if len(moves) > MAX_PLIES:
        raise ValueError(f"a game of at most {MAX_PLIES} plies can be reviewed, not {len(moves)}")
    position = start if start is not None else start_position(variant)
    positions = [position]
    for i, m in enumerate(moves):
        if m not in legal_moves(variant, positions[-1]):
            raise ValueError(f"move {i + 1} ({move_text(variant, m)}) is not legal there")
        positions.append(apply_move(positions[-1], m))
    total = len(positions)
    scores: list[PositionScore] = []
    with Engine(variant, 3) as engine:   # one engine: its table carries over move to move
        for i, pos in enumerate(positions):
            scores.append(score_position(variant, pos, movetime, engine, positions[:i]))
            if on_progress is not None:
                on_progress(i + 1, total)
    out: list[MoveReview] = []
    for i, m in enumerate(moves):
        before, after = scores[i], scores[i + 1]
        mover = positions[i].turn
        best_for_mover = _clip(before.score)
        played_for_mover = _clip(-after.score)
        loss = max(0, best_for_mover - played_for_mover)
        if before.best == m:
            loss = 0
        name, nag = judge(loss)
        sign = 1 if mover is Color.WHITE else -1
        out.append(
            MoveReview(
                ply=i,
                move=m,
                mover=mover,
                before=sign * before.score,
                after=sign * -after.score,
                best=None if before.best == m else before.best,
                best_pv=before.pv,
                loss=loss,
                judgement=name,
                nag=nag,
            )
        )
    return out


def _comment(variant: Variant, r: MoveReview) -> str:
    text = f"{score_men(r.before)} -> {score_men(r.after)}"
    if r.judgement and r.best is not None:
        text += f"; {r.judgement}, best {move_text(variant, r.best)}"
    return text


def annotated_pdn(
    variant: Variant,
    moves: Sequence[Move],
    reviews: Sequence[MoveReview],
    start: Position | None = None,
    tags: dict[str, str] | None = None,
    result: str = "*",
) -> str:
    """The reviewed game as PDN (RULES.md section 4), written by the one PDN writer
    (:func:`damiera.pdn.write_game`): its tags (``GameType``, ``FEN`` when not from the
    start, ``Result`` in the variant's convention, ``Annotator``, plus any given), movetext
    with the NAG written after each judged move (``22-18??``) and a comment with the scores
    (White's view, in men) and the better move after it. Raises ValueError for a move that
    is not legal where it is played."""
    game = Game(variant, start, enforce_draws=False)
    plies: list[Ply] = []
    for i, m in enumerate(moves):
        played = game.play(m)
        r = reviews[i] if i < len(reviews) else None
        judged = r is not None and bool(r.judgement)
        plies.append(Ply(played, nags=[r.nag] if r is not None and r.nag else [],
                         comment=_comment(variant, r) if r is not None and judged else ""))
    all_tags: dict[str, str] = {"Event": "Damiera review", "White": "?", "Black": "?"}
    all_tags.update(tags or {})
    all_tags["Annotator"] = "Damiera engine"
    return write_game(PdnGame(all_tags, variant, game, plies), result=result)
