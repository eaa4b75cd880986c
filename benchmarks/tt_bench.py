"""Nodes to a fixed depth over whole games, the transposition table kept between the moves as
in play, for several table sizes: what the table's size and its replacement buy.

Usage: ``.venv/bin/python benchmarks/tt_bench.py [--variants american,russian,international]
[--depths american=19,russian=18,international=15] [--sizes 1048576,4194304] [--games 2]
[--plies 80]``

The games: ``--games`` random 4-ply openings per variant (``random_openings(seed=5)``), played
on for ``--plies`` plies (or to the end) by a depth-6 search with a fresh table of 2**20
entries each move, far more than such a search fills: the same games for every size
measured, and for two builds whose depth-6 searches agree. Then, per table size, one searcher
per game searches every position of it to the variant's depth in turn (the game's earlier
positions as its history, the table kept from move to move, as a level-3 player keeps it),
and the nodes are summed. Fixed depths: the same trees on any machine, so the node counts do
not depend on its load; the CPU seconds printed beside them do.

Prints one line per variant and size, and one JSON line with every number last.
"""

from __future__ import annotations

import argparse
import json
import time

from damiera.engine.match import random_openings
from damiera.engine.search import MAX_DEPTH, Searcher
from damiera.rules.game import Game
from damiera.rules.position import Position, write_fen
from damiera.rules.variant import Variant, variant

#: Depth of the search that plays the games.
GAME_DEPTH = 6


def game_positions(v: Variant, opening: Position, plies: int) -> list[Position]:
    """The positions of a game from ``opening``, at most ``plies`` moves played by a depth-6
    search that forgets its table before each move."""
    game = Game(v, write_fen(v, opening))
    player = Searcher(v, tt_entries=1 << 20)
    positions = [game.position]
    while len(positions) <= plies and not game.is_over():
        player.clear()
        move = player.search(game.position, depth=GAME_DEPTH, history=positions[:-1]).move
        if move is None:
            break
        game.play(move)
        positions.append(game.position)
    return positions


def nodes_over_game(v: Variant, positions: list[Position], depth: int, size: int) -> int:
    """Nodes of searches of each of ``positions`` to ``depth`` plies, in order, by one
    searcher of ``size`` table entries."""
    searcher = Searcher(v, tt_entries=size)
    return sum(searcher.search(p, depth=depth, history=positions[:i]).nodes
               for i, p in enumerate(positions))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="american,russian,international")
    parser.add_argument("--depths", default="american=19,russian=18,international=15",
                        help="variant=plies, comma-separated")
    parser.add_argument("--sizes", default="1048576,4194304", help="table entries")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--plies", type=int, default=80)
    args = parser.parse_args()
    try:
        depths = {k: int(d) for k, d in (item.split("=") for item in args.depths.split(","))}
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error("--depths must be variant=plies and --sizes whole numbers, "
                     "comma-separated")
    if not all(1 <= d <= MAX_DEPTH for d in depths.values()):
        parser.error(f"a depth must be 1-{MAX_DEPTH} plies")
    if not all(1 <= size <= 1 << 32 for size in sizes):
        parser.error("a size must be 1-2**32 entries")
    if args.games < 1 or args.plies < 1:
        parser.error("--games and --plies must be at least 1")
    missing = [vid for vid in args.variants.split(",") if vid not in depths]
    if missing:
        parser.error(f"no depth for {', '.join(missing)}: add it to --depths (variant=plies)")
    out: list[dict[str, object]] = []
    for vid in args.variants.split(","):
        v = variant(vid)
        games = [game_positions(v, o, args.plies)
                 for o in random_openings(v, args.games, plies=4, seed=5)]
        for size in sizes:
            start = time.process_time()
            total = sum(nodes_over_game(v, g, depths[vid], size) for g in games)
            seconds = time.process_time() - start
            positions = sum(len(g) for g in games)
            print(f"{vid:13} {size:>10,} entries: {total:>13,} nodes over {positions} "
                  f"positions to depth {depths[vid]} ({seconds:.1f} CPU s)", flush=True)
            out.append({"variant": vid, "entries": size, "depth": depths[vid],
                        "positions": positions, "nodes": total,
                        "cpu_seconds": round(seconds, 1)})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
