"""Is this checkout's search the same search as another build's? Fixed-depth searches of the
same positions by both, compared move by move: best move, score, depth, nodes, and with
``root_scores`` every root move's score.

Usage: ``.venv/bin/python benchmarks/same_search.py --base /work/scratch/base/.venv/bin/python``
(the Python of another checkout's virtual environment, e.g. commit 545f29c built with
``git clone /work/main /work/scratch/base && cd /work/scratch/base && git checkout 545f29c &&
make install``).

For every named variant and the optional-capture house rule on Brazilian: the start, and
``--positions`` positions of random games (this checkout's rules: ``random_openings``, then
10-120 random plies, so endings with kings come too), each with the game's earlier positions
as history. Each is searched by a fresh ``Searcher`` of both builds, with its default
evaluation (the shipped weights), in four ways: ``--depth`` plies (one less on 10x10), the
same with the endgame database of 3 pieces on 8x8 (as levels 2 and 3 play), every root move
scored (``root_scores``, two plies less), and a budget of ``--nodes`` nodes. Prints every
difference and a summary; one JSON line last. Exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from typing import Any

from damiera.engine.match import random_openings
from damiera.rules.movegen import apply_move, generate
from damiera.rules.position import start_position, write_fen
from damiera.rules.variant import VARIANTS, Variant, variant

#: Run by each build's Python; stdin: JSON list of jobs [variant, house rule, [fen, ...] (the
#: game, current last), mode, depth, nodes]; prints one JSON row a job.
CHILD = r"""
import json, sys
from damiera.engine.search import Searcher
from damiera.rules.notation import move_text
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant
out = []
for vid, house, fens, mode, depth, nodes in json.loads(sys.stdin.read()):
    v = variant(vid, optional_capture=True) if house else variant(vid)
    history = [parse_fen(v, f) for f in fens]
    searcher = Searcher(v, endgame_pieces=3 if mode == "egdb" else 0)
    if mode == "nodes":
        r = searcher.search(history[-1], history=history, nodes=nodes)
    else:
        r = searcher.search(history[-1], history=history, depth=depth,
                            root_scores=mode == "multipv")
    out.append({"move": move_text(v, r.move) if r.move else None, "score": r.score,
                "depth": r.depth, "nodes": r.nodes,
                "scores": [[move_text(v, m), s] for m, s in r.root_scores]})
print(json.dumps(out))
"""


def suite(v: Variant, count: int, seed: int) -> list[list[str]]:
    """The start and ``count`` games' positions (each as the game's FENs, current last)."""
    rng = random.Random(seed)
    games = [[start_position(v)]]
    for opening in random_openings(v, count, seed=seed):
        game = [opening]
        pos = opening
        for _ in range(rng.randint(10, 120)):
            moves = generate(v, pos)
            if len(moves) == 0 or len(game) > 150:
                break
            pos = apply_move(pos, rng.choice(moves))
            game.append(pos)
        if generate(v, game[-1]):
            games.append(game)
    return [[write_fen(v, p) for p in g] for g in games]


def run(python: str, jobs: list[list[Any]]) -> list[dict[str, Any]]:
    done = subprocess.run([python, "-c", CHILD], input=json.dumps(jobs), capture_output=True,
                          text=True, check=True)
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="Python of the build to compare with")
    parser.add_argument("--positions", type=int, default=6, help="random-game positions")
    parser.add_argument("--depth", type=int, default=8, help="plies on 8x8 (10x10: one less)")
    parser.add_argument("--nodes", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help="rule sets to compare (both builds must know them); default: all")
    a = parser.parse_args()
    rule_sets = [(vid, False) for vid in a.variants.split(",")] + [("brazilian", True)]
    jobs: list[list[Any]] = []
    for vid, house in rule_sets:
        v = variant(vid, optional_capture=True) if house else variant(vid)
        depth = a.depth - (v.board_size == 10)
        for fens in suite(v, a.positions, a.seed):
            jobs.append([vid, house, fens, "depth", depth, 0])
            if v.board_size == 8:
                jobs.append([vid, house, fens, "egdb", depth, 0])
            jobs.append([vid, house, fens, "multipv", depth - 2, 0])
            jobs.append([vid, house, fens, "nodes", 0, a.nodes])
    ours = run(sys.executable, jobs)
    base = run(a.base, jobs)
    differ = 0
    nodes_ours = nodes_base = 0
    for job, mine, theirs in zip(jobs, ours, base):
        nodes_ours += mine["nodes"]
        nodes_base += theirs["nodes"]
        if mine != theirs:
            differ += 1
            name = job[0] + (" (house rule)" if job[1] else "")
            print(f"DIFFERENT {name} {job[3]} {job[2][-1]}:\n  here {mine}\n  base {theirs}")
    print(f"{len(jobs)} searches of {len(rule_sets)} rule sets, {differ} different; nodes "
          f"{nodes_ours:,} here, {nodes_base:,} base")
    print(json.dumps({"searches": len(jobs), "different": differ, "nodes": nodes_ours,
                      "base_nodes": nodes_base, "depth": a.depth, "positions": a.positions,
                      "node_budget": a.nodes, "seed": a.seed}))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
