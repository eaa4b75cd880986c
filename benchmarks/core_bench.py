"""Search speed of this checkout against another build of Damiera, same positions, same run.

Usage: ``.venv/bin/python benchmarks/core_bench.py --base /tmp/base/.venv/bin/python``
(the Python of another checkout's virtual environment, e.g. the engine at commit 0ded512 built
in a scratch worktree with ``git worktree add /tmp/base 0ded512 && make -C /tmp/base install``).

For each variant: the start position and ``--middlegames`` positions reached by this
checkout's level-2 play (depth 4) from random openings, 16 plies in (``--kings``: only
middlegames, played on until a king stands); each searched with a fresh
``Searcher`` for every movetime (default 0.3 s and 1 s), by both engines in turn, ``--runs``
times. Reported per row: the median depth reached and the median nodes per second of each
engine, by the clock and per second of the process's CPU time (what the machine's other work
does not change), and the ratio of the latter. ``--depth D`` searches every position to D plies
instead of for a time: two builds of the same search then walk the same tree, and the ratio
of their CPU seconds is that of their speeds. One JSON line with every number comes last.

``--match N`` plays N games instead (a sanity check, not a strength measurement: that needs
200 games or SPRT): level 3 of this checkout against level 3 of the other build, both given
``--match-time`` seconds a move, from random 4-ply openings, each opening played with both
colours (``--match-seed``: other openings, e.g. for two runs side by side); this checkout's
rules core referees every move. Prints wins/draws/losses and Elo with
its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from typing import Any

from damiera.engine import Engine, Limit
from damiera.engine.match import MAX_GAME_PLIES, elo_stats, random_openings
from damiera.engine.search import Searcher
from damiera.rules.game import Game
from damiera.rules.movegen import generate, has_capture
from damiera.rules.notation import parse_move
from damiera.rules.position import start_position, write_fen
from damiera.rules.variant import Color, variant

#: Run by each engine's Python; argv: JSON list of [variant, fen, movetime, depth] (depth 0:
#: for movetime seconds); prints JSON rows.
CHILD = r"""
import json, sys, time
from damiera.engine.search import Searcher
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant
out = []
for vid, fen, movetime, depth in json.loads(sys.argv[1]):
    v = variant(vid)
    pos = parse_fen(v, fen)
    s = Searcher(v)
    t0, c0 = time.perf_counter(), time.process_time()
    r = s.search(pos, depth=depth) if depth else s.search(pos, movetime=movetime)
    used, cpu = time.perf_counter() - t0, time.process_time() - c0
    out.append({"depth": r.depth, "nodes": r.nodes, "seconds": used, "cpu": cpu})
print(json.dumps(out))
"""


#: The other build's level-3 player, one move per input line: JSON ``[variant, [fen, ...],
#: movetime]`` (the game's positions, current last) -> the move's text.
PLAYER = r"""
import json, sys
from damiera.engine.levels import Player
from damiera.rules.notation import move_text
from damiera.rules.position import parse_fen
from damiera.rules.variant import variant
players = {}
for line in sys.stdin:
    vid, fens, movetime = json.loads(line)
    v = variant(vid)
    player = players.setdefault(vid, Player(v, 3))
    history = [parse_fen(v, f) for f in fens]
    result = player.choose(history[-1], history=history, movetime=movetime)
    print(move_text(v, result.move), flush=True)
"""


def match(base: str, vid: str, games: int, movetime: float, seed: int = 19) -> dict[str, Any]:
    """Level 3 here against level 3 of ``base`` (see the module docstring)."""
    v = variant(vid)
    child = subprocess.Popen([base, "-c", PLAYER], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdin is not None and child.stdout is not None
    wins = draws = losses = 0
    try:
        openings = random_openings(v, (games + 1) // 2, seed=seed)
        for g in range(games):
            ours_white = g % 2 == 0
            game = Game(v, openings[g // 2])
            ours = Engine(v, 3)
            while not game.is_over() and len(game.moves) < MAX_GAME_PLIES:
                if (game.position.turn is Color.WHITE) == ours_white:
                    move = ours.play(game, Limit(time=movetime)).move
                    assert move is not None
                    game.play(move)
                else:
                    fens = [write_fen(v, p) for p in game.positions]
                    child.stdin.write(json.dumps([vid, fens, movetime]) + "\n")
                    child.stdin.flush()
                    game.play(parse_move(v, game.position, child.stdout.readline().strip()))
            winner = game.result.winner if game.result is not None else None
            if winner is None:
                draws += 1
            elif (winner is Color.WHITE) == ours_white:
                wins += 1
            else:
                losses += 1
            print(f"game {g + 1}: {'W' if ours_white else 'B'} "
                  f"{'draw' if winner is None else winner.word + ' won'} "
                  f"in {len(game.moves)} plies", flush=True)
    finally:
        child.stdin.close()
        child.wait()
    score, elo, low, high = elo_stats(wins, draws, losses)
    print(f"{vid}: level 3 here against level 3 of the other build, {movetime} s a move: "
          f"+{wins} ={draws} -{losses} ({100 * score:.1f}%), Elo {elo:+.0f} "
          f"[{low:+.0f}, {high:+.0f}]")
    return {"variant": vid, "games": games, "movetime": movetime, "wins": wins,
            "draws": draws, "losses": losses, "score": score, "elo": elo,
            "elo_low": low, "elo_high": high}


def positions(vid: str, count: int, kings: bool = False) -> list[tuple[str, str]]:
    """``(name, fen)``: the start and ``count`` middlegames of level-2 play (``kings``: played
    on until a king stands, and no start)."""
    v = variant(vid)
    out = [] if kings else [("start", write_fen(v, start_position(v)))]
    for i, opening in enumerate(random_openings(v, count, seed=11)):
        game = Game(v, opening)
        searcher = Searcher(v)
        while not game.is_over() and (
            len(game.moves) < 16
            or (kings and not game.position.kings)
            or has_capture(v, game.position)
            or len(generate(v, game.position)) < 2
        ):
            r = searcher.search(game.position, depth=4, history=game.positions)
            assert r.move is not None
            game.play(r.move)
        if not game.is_over():
            out.append((f"{'kings' if kings else 'middle'}{i + 1}", write_fen(v, game.position)))
    return out


def run(python: str, jobs: list[tuple[str, str, float, int]]) -> list[dict[str, Any]]:
    done = subprocess.run([python, "-c", CHILD, json.dumps(jobs)], capture_output=True,
                          text=True, check=True)
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="Python of the build to compare against")
    parser.add_argument("--variants", default="international,russian")
    parser.add_argument("--times", default="0.3,1.0", help="movetimes in seconds")
    parser.add_argument("--middlegames", type=int, default=2)
    parser.add_argument("--kings", action="store_true",
                        help="middlegames played on until a king stands (no start position)")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--depth", type=int, default=0,
                        help="search every position to this depth instead (0: --times)")
    parser.add_argument("--match", type=int, default=0, help="play this many games instead")
    parser.add_argument("--match-time", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--match-seed", type=int, default=19,
                        help="seed of the openings (two runs with other seeds: other openings)")
    a = parser.parse_args()
    if a.match:
        rows = [match(a.base, vid, a.match, a.match_time, a.match_seed)
                for vid in a.variants.split(",")]
        print(json.dumps({"match": rows}))
        return 0
    times = [0.0] if a.depth else [float(t) for t in a.times.split(",")]
    found = {vid: positions(vid, a.middlegames, a.kings) for vid in a.variants.split(",")}
    jobs = [(vid, fen, t, a.depth) for vid, ps in found.items() for _, fen in ps for t in times]
    names = [(vid, name, t) for vid, ps in found.items() for name, _ in ps for t in times]
    ours: list[list[dict[str, Any]]] = []
    base: list[list[dict[str, Any]]] = []
    for _ in range(a.runs):  # alternated, so that the machine's load falls on both alike
        ours.append(run(sys.executable, jobs))
        base.append(run(a.base, jobs))
    header = (f"{'variant':<14}{'position':<10}{'time':>5}{'depth':>6}{'base':>5}"
              f"{'nodes/s':>11}{'base':>11}{'n/CPU s':>11}{'base':>11}{'ratio':>7}")
    what = f"to depth {a.depth}" if a.depth else "for each time"
    print(f"search from the same positions {what}, fresh tables, median of {a.runs} runs")
    print(header)
    print("-" * len(header))
    rows = []
    for i, (vid, name, t) in enumerate(names):
        depth = statistics.median(r[i]["depth"] for r in ours)
        base_depth = statistics.median(r[i]["depth"] for r in base)
        nps = statistics.median(r[i]["nodes"] / r[i]["seconds"] for r in ours)
        base_nps = statistics.median(r[i]["nodes"] / r[i]["seconds"] for r in base)
        cpu = statistics.median(r[i]["nodes"] / r[i]["cpu"] for r in ours)
        base_cpu = statistics.median(r[i]["nodes"] / r[i]["cpu"] for r in base)
        rows.append({"variant": vid, "position": name, "fen": jobs[i][1], "movetime": t,
                     "depth": depth, "base_depth": base_depth, "nps": round(nps),
                     "base_nps": round(base_nps), "cpu_nps": round(cpu),
                     "base_cpu_nps": round(base_cpu),
                     "nodes": statistics.median(r[i]["nodes"] for r in ours),
                     "base_nodes": statistics.median(r[i]["nodes"] for r in base)})
        print(f"{vid:<14}{name:<10}{t:>5.1f}{depth:>6.1f}{base_depth:>5.1f}{nps:>11,.0f}"
              f"{base_nps:>11,.0f}{cpu:>11,.0f}{base_cpu:>11,.0f}{cpu / base_cpu:>7.3f}")
    print(json.dumps({"runs": a.runs, "results": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
