"""Where are games lost? A move-by-move study of the games our engine lost.

Reads a PDN file of match games (``damiera match ... --pdn FILE``), keeps the games the
player named by ``--player`` (its White/Black tag, e.g. ``3``) lost, and for each one:

1. **Verdict pass.** Every position of the game is searched by our engine with
   ``--verdict-nodes`` nodes (one searcher kept through the game, the game's history given),
   the score turned to the loser's view (centi-men).
2. **The last chance.** The last position, with the loser to move and a choice of moves,
   whose verdict is at least ``-threshold``: after the move played there every verdict of
   the loser's turns is below it, so that move is where the loss became visible to our
   search (a game never at least ``-threshold`` has none: ``opening``).
3. **Deep search, walking back** (``--deep-nodes``): from that position back over the
   loser's earlier turns (at most ``--max-back``), until the deep search too scores the
   position at least ``-threshold``: the last position a deep search would have held. There:
   its best move, and the score of the move played (the position after it, searched as
   deeply, negated).
4. **Class of the loss:**

   - ``depth``: there the deep search plays another move and the move played scores below
     ``-threshold``: a deeper search than the game's avoids the loss.
   - ``shot``: the deep search plays the move played too (or still scores it as holding),
     and the loser lost two or more pieces net within ``--shot-plies`` plies: a combination
     that even the deep search did not see coming.
   - ``evaluation``: the same, with the material going slowly: the position was lost while
     even the deep search called it even (a positional misjudgement of the evaluation).
   - ``early``: the deep search scores every one of the ``--max-back`` turns as lost: the
     loss lies further back than the walk went.
   - ``opening``: no verdict of the loser's turns was at least ``-threshold``.

One JSON object per game on standard output (``--json``) or a table; a summary count of the
classes at the end. Node budgets make the study independent of the machine's load.

Usage::

    .venv/bin/python benchmarks/loss_analysis.py games.pdn --player 3 \\
        --verdict-nodes 1000000 --deep-nodes 20000000
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field

from damiera.engine.search import MATE_BOUND, Searcher
from damiera.pdn.reader import PdnGame, read_games
from damiera.rules.movegen import generate
from damiera.rules.notation import move_text
from damiera.rules.position import Position, write_fen
from damiera.rules.variant import Color

#: The largest PDN file read (bytes): the study is for match files, not databases.
MAX_BYTES = 20_000_000


@dataclass
class Loss:
    """The study of one lost game (see the module docstring for the fields' meaning)."""

    round: str
    loser: str
    plies: int
    kind: str
    last_chance_ply: int | None = None
    fen: str | None = None
    pieces: int | None = None
    played: str | None = None
    played_deep: int | None = None
    deep_move: str | None = None
    deep_score: int | None = None
    deep_depth: int | None = None
    verdict_before: list[int] = field(default_factory=list)
    net_pieces_lost: int | None = None
    verdict_last_chance_ply: int | None = None


def _clip(score: int) -> int:
    """Mates as +-10,000 centi-men, so that the JSON stays readable."""
    return max(-10_000, min(10_000, score)) if abs(score) > MATE_BOUND else score


def _net_loss(positions: list[Position], loser: Color, start: int, plies: int) -> int:
    """Pieces the loser lost minus pieces the winner lost between ``start`` and
    ``start + plies`` (kings count as one piece)."""
    end = min(len(positions) - 1, start + plies)

    def own_minus_other(p: Position) -> int:
        w, b = p.piece_counts()
        return w - b if loser is Color.WHITE else b - w

    return own_minus_other(positions[start]) - own_minus_other(positions[end])


def study(game: PdnGame, player: str, verdict_nodes: int, deep_nodes: int, threshold: int,
          shot_plies: int, max_back: int) -> Loss | None:
    """The study of ``game`` if ``player`` lost it, else None."""
    v = game.variant
    outcome = game.game.outcome()
    tags = game.tags
    if outcome is None or outcome.winner is None:
        return None
    loser = outcome.winner.opponent
    if tags.get("White" if loser is Color.WHITE else "Black") != player:
        return None
    positions = list(game.game.positions)
    searcher = Searcher(v)
    verdict: list[int] = []
    for i, pos in enumerate(positions[:-1]):
        r = searcher.search(pos, history=positions[: i + 1], nodes=verdict_nodes)
        verdict.append(_clip(r.score if pos.turn is loser else -r.score))
    loss = Loss(tags.get("Round", "?"), player, len(positions) - 1, "opening")
    # The loser's own turns with a choice (a forced capture is no chance), scored from the
    # loser's side to move only, so that the verdicts compare like with like.
    ours = [i for i in range(len(verdict))
            if positions[i].turn is loser and len(generate(v, positions[i])) > 1]
    holding = [i for i in ours if verdict[i] >= -threshold]
    if not holding:
        return loss
    # Walk back from the verdict's last chance with the deep search until it, too, says the
    # position holds: that is the last position a deep search would still have saved.
    deep_searcher = Searcher(v)
    back = [i for i in ours if i <= holding[-1]][-max_back:]
    c, deep = None, None
    for i in reversed(back):
        r = deep_searcher.search(positions[i], history=positions[: i + 1], nodes=deep_nodes)
        if _clip(r.score) >= -threshold:
            c, deep = i, r
            break
    if c is None or deep is None:
        loss.kind = "early"
        loss.last_chance_ply = back[0] + 1
        loss.verdict_before = [verdict[i] for i in back][-6:]
        return loss
    pos, played = positions[c], game.game.move_stack[c].raw
    after = Searcher(v).search(positions[c + 1], history=positions[: c + 2], nodes=deep_nodes)
    played_deep = _clip(-after.score)
    net = _net_loss(positions, loser, c, shot_plies)
    if deep.move is not None and deep.move != played and played_deep < -threshold:
        kind = "depth"
    else:
        kind = "shot" if net >= 2 else "evaluation"
    loss.kind = kind
    loss.last_chance_ply = c + 1
    loss.fen = write_fen(v, pos)
    w, b = pos.piece_counts()
    loss.pieces = w + b
    loss.played = move_text(v, played)
    loss.played_deep = played_deep
    loss.deep_move = move_text(v, deep.move) if deep.move is not None else None
    loss.deep_score = _clip(deep.score)
    loss.deep_depth = deep.depth
    loss.verdict_before = [verdict[i] for i in ours if i <= c][-6:]
    loss.verdict_last_chance_ply = holding[-1] + 1
    loss.net_pieces_lost = net
    return loss


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdn", help="PDN file of match games")
    parser.add_argument("--player", required=True, help="the player's name in White/Black")
    parser.add_argument("--verdict-nodes", type=int, default=1_000_000)
    parser.add_argument("--deep-nodes", type=int, default=20_000_000)
    parser.add_argument("--threshold", type=int, default=100, help="centi-men (default 100)")
    parser.add_argument("--shot-plies", type=int, default=8)
    parser.add_argument("--max-back", type=int, default=8,
                        help="the loser's moves the deep search walks back (default 8)")
    parser.add_argument("--json", action="store_true", help="one JSON object a game")
    a = parser.parse_args(argv)
    with open(a.pdn, "rb") as fh:
        data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        parser.error(f"{a.pdn} is larger than {MAX_BYTES} bytes")
    kinds: Counter[str] = Counter()
    for game in read_games(data):
        loss = study(game, a.player, a.verdict_nodes, a.deep_nodes, a.threshold, a.shot_plies,
                     a.max_back)
        if loss is None:
            continue
        kinds[loss.kind] += 1
        if a.json:
            print(json.dumps(asdict(loss)), flush=True)
        else:
            print(f"round {loss.round}: {loss.kind}, last chance at ply {loss.last_chance_ply} "
                  f"({loss.pieces} pieces): played {loss.played} ({loss.played_deep}), "
                  f"deep search {loss.deep_move} ({loss.deep_score}, depth {loss.deep_depth}); "
                  f"verdicts before {loss.verdict_before}, net pieces lost "
                  f"{loss.net_pieces_lost}", flush=True)
    total = sum(kinds.values())
    print(f"{total} lost games: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
