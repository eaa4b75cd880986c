"""The endgame database: its build (time, memory, positions) and whether the search's probe
pays, played out from endgame positions.

Usage::

    .venv/bin/python benchmarks/egdb_bench.py build --variant american --pieces 4
    .venv/bin/python benchmarks/egdb_bench.py load --variant american --pieces 5 --dir DIR
    .venv/bin/python benchmarks/egdb_bench.py match --src /tmp/egdb/src --variant american \\
        --pieces 4 --nodes 20000 --positions 100 --max-minutes 10

``build`` solves the database in this process and prints the seconds, the peak resident memory
of the process, the positions solved and the longest win; then the nodes a second of a
fixed-depth search of random 5-7 piece positions without and with the probe.

``load`` reads the database of ``--pieces`` pieces that ``damiera egdb build`` wrote in
``--dir`` (every class's checks included) ``--runs`` times in this process and prints the
median, least and most seconds, the bytes on disk and in memory, and the peak resident memory
of the process (one database alive at a time).

``match`` plays the same build (``--src``, a scratch copy as for ``sprt_match.py``) with the
probe (``--pieces``) against itself without it (or with the probe of ``--base-pieces``), at
``--nodes`` nodes a move (or ``--movetime`` seconds: equal time, so the probe's cost per node
counts), from random positions of 5 to 7 pieces on the rule set's board, 8x8 or 10x10 (each
side 2 to 5, a random share of kings, men off their promotion row, the side to move without a
capture; seeded), each position played twice with the colours swapped; this checkout's rules
core referees, 300 plies is a draw. It prints the pairs, W/D/L, the score, Elo with its 95%
interval and the GSPRT LLR (0 against 15 Elo) as ``sprt_match.py`` does, how many pairs did
not end 1-1 (where the two engines' results from one position differ), then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time

from sprt_match import Engine, play_pairs  # this folder is sys.path[0]

from damiera.engine.match import elo_stats
from damiera.engine.search import Searcher
from damiera.rules.geometry import geometry, iter_bits
from damiera.rules.movegen import has_capture, legal_moves
from damiera.rules.position import Position, write_fen
from damiera.rules.variant import Color, Variant, variant


def endgame_positions(v: Variant, count: int, seed: int) -> list[Position]:
    """``count`` distinct random positions of 5-7 pieces (see the module docstring)."""
    rng = random.Random(seed)
    geo = geometry(v)
    out: list[Position] = []
    seen: set[Position] = set()
    while len(out) < count:
        total = rng.randint(5, 7)
        n_white = rng.randint(max(2, total - 5), min(5, total - 2))
        squares = rng.sample(list(geo.squares), total)
        king_share = rng.choice((0.0, 0.15, 0.3))
        white = black = kings = 0
        for i, s in enumerate(squares):
            if i < n_white:
                white |= 1 << s
            else:
                black |= 1 << s
            if rng.random() < king_share:
                kings |= 1 << s
        if any(geo.row(s) == 0 for s in iter_bits(white & ~kings)):
            continue
        if any(geo.row(s) == geo.size - 1 for s in iter_bits(black & ~kings)):
            continue
        pos = Position(white, black, kings, rng.choice((Color.WHITE, Color.BLACK)))
        if pos in seen or has_capture(v, pos) or not legal_moves(v, pos):
            continue
        seen.add(pos)
        out.append(pos)
    return out


def build(a: argparse.Namespace) -> None:
    from damiera.engine.egdb import endgame_database

    v = variant(a.variant)
    start = time.perf_counter()
    db = endgame_database(v, a.pieces)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    positions = endgame_positions(v, 40, a.seed)
    nps = {}
    for pieces in (0, a.pieces):
        searcher = Searcher(v, endgame_pieces=pieces)
        nodes = 0
        t = time.perf_counter()
        for pos in positions:
            searcher.clear()
            nodes += searcher.search(pos, depth=a.depth).nodes
        nps[pieces] = (nodes, nodes / (time.perf_counter() - t))
    print(f"{a.variant}, {a.pieces} pieces: built in {seconds:.2f} s, {db.positions} positions, "
          f"{db.bytes / 1e6:.1f} MB of tables, peak RSS {peak:.0f} MB, longest win "
          f"{db.max_distance} plies; depth-{a.depth} search of 40 positions of 5-7 pieces: "
          f"{nps[0][0]} nodes ({nps[0][1]:.0f}/s) without, {nps[a.pieces][0]} nodes "
          f"({nps[a.pieces][1]:.0f}/s) with the probe")
    print(json.dumps({"variant": a.variant, "pieces": a.pieces, "build_seconds": seconds,
                      "positions": db.positions, "table_bytes": db.bytes, "peak_rss_mb": peak,
                      "max_distance": db.max_distance, "depth": a.depth,
                      "nodes_without": nps[0][0], "nps_without": nps[0][1],
                      "nodes_with": nps[a.pieces][0], "nps_with": nps[a.pieces][1]}))


def load(a: argparse.Namespace) -> None:
    import gc
    import statistics
    from pathlib import Path

    from damiera.engine import egdb_files

    v = variant(a.variant)
    folder = Path(a.dir)
    on_disk = sum(c.bytes for c in egdb_files.info(v, folder) if c.pieces <= a.pieces)
    times = []
    memory = 0
    for _ in range(a.runs):
        start = time.perf_counter()
        db = egdb_files.load(v, a.pieces, folder)
        times.append(time.perf_counter() - start)
        memory = db.bytes
        del db
        gc.collect()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{a.variant}, {a.pieces} pieces: read in {statistics.median(times):.2f} s "
          f"(median of {a.runs}; {min(times):.2f}-{max(times):.2f}), {on_disk / 1e6:.1f} MB on "
          f"disk, {memory / 1e6:.1f} MB in memory, peak RSS {peak:.0f} MB")
    print(json.dumps({"variant": a.variant, "pieces": a.pieces, "seconds": times,
                      "disk_bytes": on_disk, "memory_bytes": memory, "peak_rss_mb": peak}))


def match(a: argparse.Namespace) -> None:
    v = variant(a.variant)
    positions = [write_fen(v, p) for p in endgame_positions(v, a.positions, a.seed)]
    new, base = Engine(a.src, a.pieces), Engine(a.src, a.base_pieces)
    start = time.monotonic()
    try:
        t = play_pairs(a.variant, positions, new, base, a.nodes, (0.0, 15.0), None,
                       a.max_minutes, a.movetime)
    finally:
        new.close()
        base.close()
    wins, draws, losses, pairs, ratio = t.wins, t.draws, t.losses, t.pairs, t.llr
    score, elo, elo_low, elo_high = elo_stats(wins, draws, losses)
    differ = sum(1 for p in pairs if p != 0.5)
    budget = f"{a.movetime} s" if a.movetime else f"{a.nodes} nodes"
    print(f"{a.variant}, endgames of 5-7 pieces, {budget} a move, probe of "
          f"{a.pieces} pieces against {a.base_pieces}: +{wins} ={draws} -{losses} "
          f"({100 * score:.1f}%), Elo {elo:+.1f} "
          f"[{elo_low:+.1f}, {elo_high:+.1f}], LLR {ratio:+.2f}; {differ} of {len(pairs)} pairs "
          f"not 1-1; {(time.monotonic() - start) / 60:.1f} min")
    print(json.dumps({"variant": a.variant, "nodes": a.nodes, "movetime": a.movetime,
                      "pieces": a.pieces, "base_pieces": a.base_pieces,
                      "pairs": len(pairs), "uneven_pairs": differ, "wins": wins,
                      "draws": draws, "losses": losses, "score": score, "elo": elo,
                      "elo_low": elo_low, "elo_high": elo_high, "llr": ratio, "seed": a.seed}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("build", "load", "match"))
    parser.add_argument("--variant", default="american")
    parser.add_argument("--pieces", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--depth", type=int, default=8, help="build: depth of the nps search")
    parser.add_argument("--src", help="match: src directory of the build")
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--max-minutes", type=float, default=10.0)
    parser.add_argument("--base-pieces", type=int, default=0,
                        help="match: pieces of the base's probe (0: none)")
    parser.add_argument("--movetime", type=float, default=0.0,
                        help="match: seconds a move instead of --nodes (equal time)")
    parser.add_argument("--dir", help="load: the databases' folder (damiera egdb build --dir)")
    parser.add_argument("--runs", type=int, default=5, help="load: reads to take the median of")
    a = parser.parse_args()
    if a.what == "build":
        build(a)
    elif a.what == "load":
        if not a.dir:
            parser.error("load needs --dir")
        load(a)
    else:
        if not a.src:
            parser.error("match needs --src")
        match(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
