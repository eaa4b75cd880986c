"""Game review timing: a 40-move game (80 plies) with a planted two-man blunder,
reviewed at a given time a position, in American, Italian and International draughts.

Run: ``.venv/bin/python benchmarks/review_bench.py [SECONDS]`` (default 0.3). Prints, per
variant, the review time, the planted ply and its judgement, and every judged move. Results:
``benchmarks/review_results.md``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from damiera.engine.review import review_game
from damiera.rules.variant import variant
from tests.planted import planted_game


def main() -> None:
    movetime = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
    for vid in ("american", "italian", "international"):
        v = variant(vid)
        moves, planted = planted_game(v, 80, 20)
        started = time.perf_counter()
        reviews = review_game(v, moves, movetime=movetime)
        elapsed = time.perf_counter() - started
        judged = [(r.ply, r.nag, r.loss) for r in reviews if r.nag]
        print(f"{vid}: {len(moves)} plies in {elapsed:.1f} s; planted ply {planted}: "
              f"{reviews[planted].judgement or 'not marked'} ({reviews[planted].loss} centi-men);"
              f" judged {judged}")


if __name__ == "__main__":
    main()
