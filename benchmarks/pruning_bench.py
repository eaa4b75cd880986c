"""Tree sizes of the search's selectivity switches, measured (the tests assert only what the
switches must not lose: moves that offer a capture, forced wins).

Usage: ``.venv/bin/python benchmarks/pruning_bench.py [--variants international,russian]
[--evaluations hand,learned] [--depths 11,12] [--openings 5]``

Two measurements, each with every evaluation asked for (``hand``: the hand-made terms;
``learned``: with the shipped pattern weights, as the site plays):

- late-move and futility pruning (``Searcher.prune_late_moves``): the nodes of iterative
  deepenings to each of ``--depths`` (every iteration counted) with and without it, summed
  over the start position and ``--openings`` random 4-ply openings (the match's,
  ``random_openings(seed=1)``);
- late-move reductions of moves that offer a capture (``Searcher.reduce_sacrifices``), the
  late-move pruning off: the nodes of a search of the start position to ``--sacrifice-depth``
  with those moves reduced and spared.

Prints one line per figure and one JSON line with every number last. Fixed depths: the same
tree on any machine, so the numbers do not depend on its load.
"""

from __future__ import annotations

import argparse
import json
import os

from damiera.engine.match import random_openings
from damiera.engine.search import Searcher
from damiera.rules.position import Position, start_position
from damiera.rules.variant import Variant, variant


def nodes(v: Variant, pos: Position, depth: int, *, prune: bool = True,
          reduce_sacrifices: bool = True) -> int:
    """Nodes of a fresh search of ``pos`` to ``depth`` plies with the switches given."""
    searcher = Searcher(v)
    searcher.prune_late_moves = prune
    searcher.reduce_sacrifices = reduce_sacrifices
    return searcher.search(pos, depth=depth).nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="international,russian")
    parser.add_argument("--evaluations", default="hand,learned")
    parser.add_argument("--depths", default="11,12")
    parser.add_argument("--openings", type=int, default=5)
    parser.add_argument("--sacrifice-depth", type=int, default=9)
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    out: list[dict[str, object]] = []
    for evaluation in args.evaluations.split(","):
        os.environ["DAMIERA_EVAL"] = evaluation
        for vid in args.variants.split(","):
            v = variant(vid)
            positions = [start_position(v), *random_openings(v, args.openings, plies=4, seed=1)]
            for depth in depths:
                pruned = sum(nodes(v, p, depth, prune=True) for p in positions)
                full = sum(nodes(v, p, depth, prune=False) for p in positions)
                row = {"what": "late-move pruning", "evaluation": evaluation, "variant": vid,
                       "depth": depth, "positions": len(positions), "pruned": pruned,
                       "full": full, "ratio": round(pruned / full, 3)}
                print(f"{evaluation:7} {vid:13} pruning   depth {depth}: {pruned:>10,} / "
                      f"{full:>10,} nodes = {pruned / full:.3f}", flush=True)
                out.append(row)
            start = start_position(v)
            d = args.sacrifice_depth
            reduced = nodes(v, start, d, prune=False, reduce_sacrifices=True)
            spared = nodes(v, start, d, prune=False, reduce_sacrifices=False)
            print(f"{evaluation:7} {vid:13} sacrifices depth {d}: reduced {reduced:,}, spared "
                  f"{spared:,} nodes = {spared / reduced:.3f}", flush=True)
            out.append({"what": "reduce sacrifices", "evaluation": evaluation, "variant": vid,
                        "depth": d, "reduced": reduced, "spared": spared,
                        "ratio": round(spared / reduced, 3)})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
