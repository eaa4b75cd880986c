"""When does the opponent see the edge it wins with? A per-position study of match games against
an outside Hub engine (the judge), beside our own search's view of the same positions.

Reads a PDN file of match games (``damiera match ... --pdn FILE``) and keeps the games the
player named by ``--player`` (its White/Black tag, e.g. ``3``) lost, or with ``--draws`` the
ones it drew. In each, every position from ``--from-ply`` on where the other side (the
opponent) is to move with a choice of moves is scored twice, both from the opponent's side
in centi-men: by the judge at ``--judge-depth`` plies (``level depth=N``, ``go think``) and by
our search at ``--nodes`` nodes (one searcher through the game, its history given). Fixed
depths and node budgets make the study independent of the machine's load. The scoring of a
game ends at the first position both call decided (``--decided`` or more): past it an
engine's bitbase probe or a forced line may report anything.

The *onset* of a series of scores is the first position where it reaches ``--onset`` and
stays at ``--hold`` or more in every later position of the game: the point from which that
engine saw the opponent's edge and never lost sight of it. For each game: the judge's onset
(ply, pieces on the board, its score), our score there, and our own onset. The summary
(standard error) gives medians and quartiles over the games, and how many plies our onset
lags the judge's. Two engines score the positions of their own games each in its own favour,
so read the lag against the same study of the drawn games (``--draws``), whose rows give each
engine's scores where neither side was winning.

Usage::

    .venv/bin/python benchmarks/onset_study.py games.pdn --player 3 \\
        --judge "/path/to/hub-engine" --judge-depth 16 --nodes 1000000
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
from dataclasses import asdict, dataclass, field

from damiera.engine.hub_client import HubClient, HubClientError
from damiera.engine.search import Searcher
from damiera.pdn.reader import PdnGame, read_games
from damiera.rules.movegen import generate
from damiera.rules.variant import Color

#: The largest PDN file read (bytes): the study is for match files, not databases.
MAX_BYTES = 20_000_000
#: PDN results that name a winner (both the draughts and the chess way of writing them).
_WINNER_BY_RESULT = {"2-0": Color.WHITE, "1-0": Color.WHITE, "0-2": Color.BLACK,
                     "0-1": Color.BLACK}
_DRAWN = ("1-1", "1/2-1/2")
#: Scores are clipped to +-CLIP centi-men (a won position's mate scores included).
CLIP = 999


@dataclass
class GameStudy:
    """One game: ``rows`` are (ply, pieces, judge's score or None, our score), the opponent's
    view, centi-men; the onsets are plies (None: never reached and held)."""

    round: str
    result: str
    rows: list[tuple[int, int, int | None, int]] = field(default_factory=list)
    judge_onset: int | None = None
    pieces_at_judge_onset: int | None = None
    judge_score_at_onset: int | None = None
    our_score_at_judge_onset: int | None = None
    our_onset: int | None = None


def _clip(score: int) -> int:
    return max(-CLIP, min(CLIP, score))  # a mate's score lies far beyond CLIP


def onset(scores: list[int | None], reach: int, hold: int) -> int | None:
    """Index of the first score at least ``reach`` after which every score is at least
    ``hold`` (None entries are skipped: an engine that gave no score there); None if none."""
    last_below = -1
    for i, s in enumerate(scores):
        if s is not None and s < hold:
            last_below = i
    for i in range(last_below + 1, len(scores)):
        s = scores[i]
        if s is not None and s >= reach:
            return i
    return None


def study(game: PdnGame, player: str, draws: bool, judge: list[str], judge_depth: int,
          nodes: int, from_ply: int, reach: int, hold: int,
          decided: int = 300) -> GameStudy | None:
    """The study of ``game`` if ``player`` lost it (``draws``: drew it), else None. Raises
    HubClientError if the judge cannot be started or fails."""
    tags = game.tags
    result = tags.get("Result", "*")
    if tags.get("White") == player:
        ours = Color.WHITE
    elif tags.get("Black") == player:
        ours = Color.BLACK
    else:
        return None
    # The Result tag first: a game lost on time or by resignation ends in no decided position.
    outcome = game.game.outcome()
    winner = _WINNER_BY_RESULT.get(result, outcome.winner if outcome is not None else None)
    drawn = result in _DRAWN or (result == "*" and outcome is not None and winner is None)
    lost = winner is ours.opponent
    if (draws and not drawn) or (not draws and not lost):
        return None
    v = game.variant
    positions = list(game.game.positions)
    moves = list(game.game.move_stack)
    searcher = Searcher(v)
    out = GameStudy(tags.get("Round", "?"), result)
    client = HubClient(judge, v, timeout=120)
    try:
        for i in range(from_ply, len(positions) - 1):
            pos = positions[i]
            if pos.turn is ours or len(generate(v, pos)) < 2:
                continue
            mine = _clip(searcher.search(pos, history=positions[: i + 1], nodes=nodes).score)
            theirs = client.play(positions[0], moves[:i], depth=judge_depth).score
            judged = None if theirs is None else _clip(round(100 * theirs))
            out.rows.append((i, (pos.white | pos.black).bit_count(), judged, mine))
            if judged is not None and judged >= decided and mine >= decided:
                break
    finally:
        client.close()
    j = onset([r[2] for r in out.rows], reach, hold)
    o = onset([r[3] for r in out.rows], reach, hold)
    if j is not None:
        ply, pieces, judged, mine = out.rows[j]
        out.judge_onset, out.pieces_at_judge_onset = ply, pieces
        out.judge_score_at_onset, out.our_score_at_judge_onset = judged, mine
    out.our_onset = None if o is None else out.rows[o][0]
    return out


def _spread(values: list[int]) -> str:
    if not values:
        return "none"
    if len(values) < 2:
        return f"{values[0]}"
    q = statistics.quantiles(values, n=4)
    return f"median {statistics.median(values):g} (quartiles {q[0]:g}, {q[2]:g})"


def summary(studies: list[GameStudy]) -> str:
    """Medians and quartiles over the games that have a judge's onset."""
    seen = [s for s in studies if s.judge_onset is not None]
    lags = [s.our_onset - s.judge_onset for s in seen if s.our_onset is not None]
    level = sum(1 for s in seen if (s.our_score_at_judge_onset or 0) <= 0)
    return (f"{len(studies)} games, {len(seen)} with the judge's onset; its ply "
            f"{_spread([s.judge_onset for s in seen])}; pieces "
            f"{_spread([s.pieces_at_judge_onset for s in seen])}; the judge's score "
            f"{_spread([s.judge_score_at_onset for s in seen])}; ours there "
            f"{_spread([s.our_score_at_judge_onset for s in seen])} ({level} at 0 or below); "
            f"our onset later by {_spread(lags)} plies ({len(lags)} games; "
            f"{len(seen) - len(lags)} never)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdn", help="PDN file of match games")
    parser.add_argument("--player", required=True, help="our player's name in White/Black")
    parser.add_argument("--judge", required=True,
                        help="the Hub engine's command line (as a shell would split it)")
    parser.add_argument("--judge-depth", type=int, default=16, help="plies (default 16)")
    parser.add_argument("--nodes", type=int, default=1_000_000,
                        help="our search's budget a position (default 1,000,000)")
    parser.add_argument("--from-ply", type=int, default=20, help="first ply scored (default 20)")
    parser.add_argument("--onset", type=int, default=30, help="centi-men reached (default 30)")
    parser.add_argument("--hold", type=int, default=20,
                        help="centi-men held after the onset (default 20)")
    parser.add_argument("--decided", type=int, default=300,
                        help="centi-men at which both engines call the game won: the scoring "
                             "of the game ends there (default 300)")
    parser.add_argument("--draws", action="store_true", help="study the drawn games instead")
    a = parser.parse_args(argv)
    if not 1 <= a.judge_depth <= 60:
        parser.error(f"--judge-depth must be 1-60 plies, not {a.judge_depth}")
    if a.nodes < 1 or a.from_ply < 0 or not a.hold <= a.onset < a.decided:
        parser.error("--nodes must be at least 1, --from-ply at least 0, and --hold <= --onset "
                     "< --decided")
    judge = shlex.split(a.judge)
    if not judge:
        parser.error("--judge is empty")
    with open(a.pdn, "rb") as fh:
        data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        parser.error(f"{a.pdn} is larger than {MAX_BYTES} bytes")
    studies = []
    for game in read_games(data):
        try:
            s = study(game, a.player, a.draws, judge, a.judge_depth, a.nodes, a.from_ply,
                      a.onset, a.hold, a.decided)
        except HubClientError as exc:
            print(f"onset_study.py: error: {exc}", file=sys.stderr)
            return 1
        if s is not None:
            studies.append(s)
            print(json.dumps(asdict(s)), flush=True)
    print(summary(studies), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
