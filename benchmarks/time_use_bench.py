"""Time use of the search on a loaded machine: the CPU-time clock and the game clock. Run by
hand (results in ``benchmarks/time_use_results.md``):

    .venv/bin/python benchmarks/time_use_bench.py [--runs 3] [--positions 12] [--busy 2]
    .venv/bin/python benchmarks/time_use_bench.py --clock 10+0.1 [--games 2]

The first form starts ``--busy`` busy loops (processes spinning on the CPU, ended at the
end) and, in each of ``--runs`` runs, has a fresh level-3 International engine play one
move in each of ``--positions`` positions (random openings of 6 plies, then the positions
of a level-3 self-play game every 10 plies) at ``--movetime`` seconds (default 0.3), once
timed on the wall clock and once with ``Limit(cpu_time=True)`` (``--cpu-time``). It prints,
per mode, the median over the runs of the mean, the lowest and the highest CPU seconds a
move (the search thread's CPU time, ``time.thread_time``), the mean wall seconds a move,
the mean depth and the nodes a CPU second.

The second form plays ``damiera match international --first 3 --second 3 --games N --tc
CLOCK --cpu-time`` (the busy loops beside it) and prints its JSON result: CPU a move (mean
and max), flag falls and the least time left of each side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from damiera.engine import Engine, Limit
from damiera.engine.match import random_openings
from damiera.rules.game import Game
from damiera.rules.position import Position
from damiera.rules.variant import variant


def _positions(count: int) -> list[list[Position]]:
    """Histories (oldest first) ending in the positions to move in: openings, then the
    positions of one self-play game every 10 plies (a node budget: the same game each run)."""
    v = variant("international")
    openings = random_openings(v, max(1, count // 2), plies=6, seed=7)
    out = [[pos] for pos in openings]
    game = Game(v, openings[0])
    engine = Engine(v, 3)
    while len(out) < count and game.outcome() is None and game.ply < 200:
        move = engine.play(game, Limit(nodes=50_000)).move
        assert move is not None
        game.play(move)
        if game.ply % 10 == 0:
            out.append(list(game.positions))
    return out[:count]


def _one_run(histories: list[list[Position]], movetime: float,
             cpu: bool) -> tuple[list[float], list[float], list[int], list[int]]:
    cpus, walls, depths, nodes = [], [], [], []
    for history in histories:
        engine = Engine("international", 3)
        wall, used = time.monotonic(), time.thread_time()
        result = engine.choose(history, Limit(time=movetime, cpu_time=cpu))
        cpus.append(time.thread_time() - used)
        walls.append(time.monotonic() - wall)
        depths.append(result.depth)
        nodes.append(result.nodes)
    return cpus, walls, depths, nodes


def _busy(count: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--movetime", type=float, default=0.3)
    parser.add_argument("--busy", type=int, default=2, help="busy loops beside the search")
    parser.add_argument("--clock", help="play a --tc match instead, e.g. 10+0.1")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    histories = [] if args.clock else _positions(args.positions)
    loops = _busy(args.busy)
    try:
        if args.clock:
            damiera = str(Path(sys.executable).parent / "damiera")
            out = subprocess.run(
                [damiera, "match", "international", "--first", "3", "--second", "3", "--games",
                 str(args.games), "--tc", args.clock, "--cpu-time", "--json", "--quiet"],
                check=True, capture_output=True, text=True).stdout
            print(out.strip())
            print(json.dumps(json.loads(out.strip().splitlines()[-1]), indent=1))
            return
        print(f"{len(histories)} positions, {args.runs} runs, movetime {args.movetime} s, "
              f"{args.busy} busy loops beside the search")
        for cpu in (False, True):
            rows = [_one_run(histories, args.movetime, cpu) for _ in range(args.runs)]
            mean = statistics.median(statistics.fmean(r[0]) for r in rows)
            low = statistics.median(min(r[0]) for r in rows)
            high = statistics.median(max(r[0]) for r in rows)
            wall = statistics.median(statistics.fmean(r[1]) for r in rows)
            depth = statistics.median(statistics.fmean(r[2]) for r in rows)
            rate = statistics.median(sum(r[3]) / sum(r[0]) for r in rows)
            print(f"{'cpu' if cpu else 'wall'} clock: CPU a move mean {mean:.3f} s (lowest "
                  f"{low:.3f}, highest {high:.3f}), wall a move {wall:.3f} s, depth {depth:.1f}"
                  f", {rate / 1e6:.2f} M nodes a CPU second", flush=True)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


if __name__ == "__main__":
    main()
