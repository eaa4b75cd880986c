"""How sure are the shipped puzzles? Re-verify a sample of each rule set deeper than the
generator did, and time the checks (results in ``benchmarks/puzzles_results.md``).

    nice -n 10 .venv/bin/python benchmarks/puzzles_bench.py [--sample 60] [--extra 4]

For each rule set, ``--sample`` puzzles spread over the file (every n-th by id) are judged
(:func:`damiera.puzzles.finder.judge`: a fresh multi-PV search) at the generator's verify
depth, its confirm depth (+2) and ``--extra`` plies deeper than the confirm depth. For each
depth it prints how many are still unique under the generator's own rule (the best move
wins ``gain`` and beats the second by ``margin``), how many would be unique with a margin of
100 or 200 instead (how close to the line they sit), the median gap between the best and
the second move (centi-men; wins counted as 10 men), and the median seconds of one check.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

from damiera.engine.search import MATE_BOUND
from damiera.puzzles.finder import judge, material, settings_for, wins_alone
from damiera.puzzles.library import shipped
from damiera.rules.notation import parse_move
from damiera.rules.position import parse_fen
from damiera.rules.variant import VARIANTS, variant


def _gap(best: int, second: int) -> int:
    cap = 1000
    best = min(best, cap) if best < MATE_BOUND else cap
    second = min(second, cap) if second < MATE_BOUND else cap
    return best - second


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=60)
    parser.add_argument("--extra", type=int, default=2)
    parser.add_argument("variants", nargs="*", default=list(VARIANTS))
    args = parser.parse_args()
    print("| rule set | depth | unique (margin 150) | margin 100 | margin 200 | median gap | "
          "median s |")
    print("|---|---|---|---|---|---|---|")
    for vid in args.variants:
        v = variant(vid)
        base = settings_for(v)
        puzzles = shipped(vid)
        step = max(1, len(puzzles) // args.sample)
        sample = puzzles[::step][: args.sample]
        for depth in (base.verify_depth, base.confirm_depth, base.confirm_depth + args.extra):
            counts = {100: 0, 150: 0, 200: 0}
            gaps, seconds = [], []
            for p in sample:
                position = parse_fen(v, p.fen)
                first = parse_move(v, position, p.solution[0])
                started = time.perf_counter()
                verdict = judge(v, position, depth, base)
                seconds.append(time.perf_counter() - started)
                gaps.append(_gap(verdict.best, verdict.second))
                own = material(position, position.turn)
                for margin in counts:
                    counts[margin] += (verdict.move == first and wins_alone(
                        verdict.best, verdict.second, own, replace(base, margin=margin)))
            n = len(sample)
            print(f"| {vid} | {depth} | {counts[150]}/{n} | {counts[100]}/{n} | "
                  f"{counts[200]}/{n} | {statistics.median(gaps)} | "
                  f"{statistics.median(seconds):.3f} |", flush=True)


if __name__ == "__main__":
    main()
