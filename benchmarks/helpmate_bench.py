"""Cost of the flag-fall search (:func:`damiera.rules.helpmate.can_win`): positions reached
and time, to check that the default node budget keeps a flag fall quick on the server.

Run with ``.venv/bin/python benchmarks/helpmate_bench.py [--runs N]``. Three measurements:

1. the proofs of the tests (``NO_WIN``: every reachable position visited);
2. random endings, per variant, from 2 against 1 up to 6 against 3 pieces (kings at
   random): how many end in each answer, the most positions any needed, the total time;
3. the worst case, a search that spends the whole default budget: the start position with
   the win test switched off (no real position was found that needs the whole budget, so
   this is an upper bound of the cost, not a position that occurs).

Times are medians of ``--runs`` runs on this machine.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable
from unittest import mock

from damiera.rules import helpmate
from damiera.rules.geometry import geometry
from damiera.rules.helpmate import DEFAULT_NODE_BUDGET, WinStatus, can_win
from damiera.rules.movegen import legal_moves
from damiera.rules.position import Position, parse_fen, start_position
from damiera.rules.variant import Color, variant

PROOFS = [("international", "W:WK5,K10:BK46", Color.BLACK),
          ("american", "B:WK32:BK1", Color.WHITE)]
SIZES = [(2, 1), (3, 2), (4, 2), (6, 3)]


def _median_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _endings(vid: str, count: int, seed: int) -> list[Position]:
    v = variant(vid)
    geo = geometry(v)
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        nw, nb = rng.choice(SIZES)
        squares = rng.sample(list(geo.squares), nw + nb)
        white = sum(1 << s for s in squares[:nw])
        black = sum(1 << s for s in squares[nw:])
        kings = 0
        for i, s in enumerate(squares):
            crowned = geo.row(s) == (0 if i < nw else v.board_size - 1)
            if crowned or rng.random() < 0.3:
                kings |= 1 << s
        p = Position(white, black, kings, Color.WHITE)
        if legal_moves(v, p):
            out.append(p)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--endings", type=int, default=200)
    args = parser.parse_args()

    print("| proof | answer | positions | ms |")
    print("|---|---|---:|---:|")
    for vid, fen, side in PROOFS:
        v = variant(vid)
        p = parse_fen(v, fen)
        proof = can_win(v, p, side)
        ms = _median_ms(functools.partial(can_win, v, p, side), args.runs)
        print(f"| {vid} `{fen}`, {side.word} to win | {proof.status.value} | {proof.nodes} "
              f"| {ms:.1f} |")

    print("\n| random endings (white to move, black to win) | win-possible | no-win | unknown "
          "| most positions | total ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for vid in ("international", "russian", "italian", "american"):
        v = variant(vid)
        positions = _endings(vid, args.endings, 16)
        counts = dict.fromkeys(WinStatus, 0)
        most = 0
        start = time.perf_counter()
        for p in positions:
            proof = can_win(v, p, Color.BLACK)
            counts[proof.status] += 1
            most = max(most, proof.nodes)
        ms = (time.perf_counter() - start) * 1000
        print(f"| {vid}, {len(positions)} | {counts[WinStatus.WIN_POSSIBLE]} "
              f"| {counts[WinStatus.NO_WIN]} | {counts[WinStatus.UNKNOWN]} | {most} | {ms:.0f} |")

    print(f"\n| whole budget ({DEFAULT_NODE_BUDGET} positions), win test off | ms |")
    print("|---|---:|")
    for vid in ("international", "american"):
        v = variant(vid)
        p = start_position(v)
        with mock.patch.object(helpmate, "_won_by", lambda *_: False):
            assert can_win(v, p, Color.BLACK).status is WinStatus.UNKNOWN
            ms = _median_ms(functools.partial(can_win, v, p, Color.BLACK), args.runs)
        print(f"| {vid} start position | {ms:.0f} |")


if __name__ == "__main__":
    main()
