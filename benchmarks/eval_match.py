"""Judge a candidate evaluation in games: SPRT of the candidate against the shipped one.

    .venv/bin/python benchmarks/eval_match.py VARIANT --candidate FILE.bin [--base FILE.bin]
        [--nodes 5000] [--games 400] [--seed 23] [--elo0 0] [--elo1 30] [--no-stop] [--odds F]

Both engines are this checkout's search (:class:`damiera.engine.search.Searcher`), in one
process, each with its own transposition table; they differ only in the evaluation: the
candidate adds the trained patterns of ``--candidate`` (a weights file written by
``tools/train_patterns.py``) to the hand-made terms, the base plays with ``--base``'s patterns
or, without it, the hand-made evaluation alone (either may also be ``hand`` or ``shipped``, as
the trainer's ``selfplay --weights`` takes them). Every move gets the same node budget
(``--nodes``, the search's node limit), so the games do not depend on the machine's load, and a slower
evaluation is not penalised: check its nodes per second separately (``--speed``).
``--odds F`` gives the candidate F times the base's budget (nodes or seconds): with the same
file on both sides it measures what more time is worth to the search.

Openings: random 6-ply openings (level material, no capture pending;
:func:`damiera.engine.match.random_openings`, seeded by ``--seed``), each played twice with the
colours swapped; the rules core referees every move; a game still going after 400 plies is
a draw.

Criterion: the sequential probability ratio test of H0 "the candidate is ``--elo0`` Elo
better" against H1 "``--elo1`` Elo better" (logistic Elo, the trinomial normal
approximation of the log-likelihood ratio used by Fishtest), error rates alpha = beta = 0.05:
it stops at LLR >= ln((1 - beta) / alpha) = 2.94 (H1 accepted: ship) or LLR <= ln(beta /
(1 - alpha)) = -2.94 (H0 accepted: do not ship), or after ``--games`` games (inconclusive:
do not ship); with ``--no-stop`` all ``--games`` games are played (a fixed-length match,
whose Elo interval is narrower than that of an SPRT stopped early). The result line gives W/D/L, the score and the Elo with its 95% interval
(:func:`damiera.engine.match.elo_stats`).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from pattern_games import budget_search, evaluator_for

from damiera.engine.evaluate import Evaluator
from damiera.engine.match import elo_stats, random_openings
from damiera.engine.search import Searcher
from damiera.rules.game import Game
from damiera.rules.variant import Color, Variant, variant

MAX_PLIES = 400


def llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0) for a W/D/L record: the normal
    approximation ``n (s1 - s0) (2 x - s0 - s1) / (2 var)``, x the mean score, var the
    per-game variance, s the expected scores of the two Elo differences. 0 before both a
    win or draw and a loss or draw are in (the variance would be 0)."""
    n = wins + draws + losses
    if n == 0:
        return 0.0
    x = (wins + 0.5 * draws) / n
    var = (wins * (1 - x) ** 2 + draws * (0.5 - x) ** 2 + losses * x**2) / n
    if var <= 0:
        return 0.0

    def expected(elo: float) -> float:
        return 1 / (1 + 10 ** (-elo / 400))

    s0, s1 = expected(elo0), expected(elo1)
    return n * (s1 - s0) * (2 * x - s0 - s1) / (2 * var)


def play(v: Variant, candidate: Searcher, base: Searcher, opening: Game, candidate_white: bool,
         nodes: int, movetime: float | None = None, odds: float = 1.0) -> float:
    """One game from ``opening`` (a copy is played); the candidate's score (1, 0.5, 0). The
    candidate's budget (``nodes`` or ``movetime``) is ``odds`` times the base's."""
    game = Game(v, opening.position)
    candidate.clear()
    base.clear()
    while not game.is_over() and len(game.moves) < MAX_PLIES:
        ours = (game.position.turn is Color.WHITE) == candidate_white
        mover, factor = (candidate, odds) if ours else (base, 1.0)
        if movetime is not None:
            res = mover.search(game.position, movetime=movetime * factor, history=game.positions)
        else:
            res = budget_search(mover, game.position, game.positions, 1,
                                max(1, round(nodes * factor)))
        assert res.move is not None
        game.play(res.move)
    winner = game.result.winner if game.result is not None else None
    if winner is None:
        return 0.5
    return 1.0 if (winner is Color.WHITE) == candidate_white else 0.0


def speed(v: Variant, cand: Evaluator, base: Evaluator, nodes: int) -> tuple[float, float]:
    """Median nodes per second of each evaluation's search over the first 40 plies of two
    self-play games, taken in turns (the same positions for both)."""
    ours: list[float] = []
    theirs: list[float] = []
    for opening in random_openings(v, 2, plies=6, seed=5):
        game = Game(v, opening)
        s_c, s_b = Searcher(v, 1 << 20, cand), Searcher(v, 1 << 20, base)
        while not game.is_over() and len(game.moves) < 40:
            for s, out in ((s_c, ours), (s_b, theirs)):
                s.clear()
                t = time.perf_counter()
                r = s.search(game.position, depth=7, history=game.positions)
                out.append(r.nodes / (time.perf_counter() - t))
            assert r.move is not None
            game.play(r.move)
    return statistics.median(ours), statistics.median(theirs)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("variant")
    p.add_argument("--candidate", required=True,
                   help="weights file of the candidate (or hand, shipped)")
    p.add_argument("--base", default="hand",
                   help="weights file of the base, or hand, shipped (default: hand, the "
                        "hand-made evaluation only)")
    p.add_argument("--nodes", type=int, default=5000, help="node budget a move")
    p.add_argument("--games", type=int, default=400, help="most games (even)")
    p.add_argument("--seed", type=int, default=23)
    p.add_argument("--elo0", type=float, default=0.0)
    p.add_argument("--elo1", type=float, default=30.0)
    p.add_argument("--movetime", type=float,
                   help="seconds a move instead of --nodes (equal time: a slower evaluation "
                        "pays for its speed; depends on the machine's load)")
    p.add_argument("--odds", type=float, default=1.0,
                   help="the candidate's budget as a multiple of the base's (default 1)")
    p.add_argument("--speed", action="store_true", help="only measure nodes per second")
    p.add_argument("--no-stop", action="store_true",
                   help="play all --games games whatever the LLR (a fixed-length match, for a "
                        "narrower Elo interval than an SPRT that stops early)")
    args = p.parse_args(argv)
    if not 0 < args.odds <= 100:
        p.error("--odds must be above 0 and at most 100")
    v = variant(args.variant)
    cand_eval, base_eval = evaluator_for(v, args.candidate), evaluator_for(v, args.base)
    if args.speed:
        ours, theirs = speed(v, cand_eval, base_eval, args.nodes)
        print(f"nodes/s, median: candidate {ours:,.0f}, base {theirs:,.0f} "
              f"({100 * ours / theirs:.0f}%)")
        return 0
    candidate = Searcher(v, 1 << 20, cand_eval)
    base = Searcher(v, 1 << 20, base_eval)
    upper = math.log((1 - 0.05) / 0.05)
    wins = draws = losses = 0
    t0 = time.perf_counter()
    openings = random_openings(v, (args.games + 1) // 2, plies=6, seed=args.seed)
    verdict = "fixed length" if args.no_stop else "inconclusive (game limit)"
    for g in range(args.games):
        score = play(v, candidate, base, Game(v, openings[g // 2]), g % 2 == 0, args.nodes,
                     args.movetime, args.odds)
        wins += score == 1.0
        draws += score == 0.5
        losses += score == 0.0
        ratio = llr(wins, draws, losses, args.elo0, args.elo1)
        print(f"game {g + 1}: {'W' if g % 2 == 0 else 'B'} {score} "
              f"+{wins} ={draws} -{losses} LLR {ratio:+.2f}", flush=True)
        if args.no_stop:
            continue
        if ratio >= upper:
            verdict = "H1 accepted (candidate better)"
            break
        if ratio <= -upper:
            verdict = "H0 accepted (candidate not better)"
            break
    score_f, elo, low, high = elo_stats(wins, draws, losses)
    budget = f"{args.movetime:g} s" if args.movetime is not None else f"{args.nodes} nodes"
    if args.odds != 1.0:
        budget += f" (the candidate {args.odds:g} times)"
    print(f"{args.variant}, {budget} a move: candidate +{wins} ={draws} -{losses} "
          f"in {wins + draws + losses} games, {100 * score_f:.1f}%, Elo {elo:+.0f} "
          f"[{low:+.0f}, {high:+.0f}], LLR {llr(wins, draws, losses, args.elo0, args.elo1):+.2f}"
          f" ({args.elo0:g}, {args.elo1:g}): {verdict}; {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
