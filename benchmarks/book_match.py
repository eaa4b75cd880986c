"""Level 3 with its opening book against level 3 without it, at equal CPU time.

Usage::

    .venv/bin/python benchmarks/book_match.py american --games 200 --movetime 0.1 \\
        --opening-plies 3 --jobs 2 --pdn /tmp/american_book.pdn

Both players are level 3 (:class:`damiera.engine.Engine`), one with ``book=True`` (the rule
set's book, :func:`damiera.engine.book.book_path`), one with ``book=False``; ``--movetime``
seconds a move on the CPU clock (``Limit(cpu_time=True)``), so the machine's load does not
change the result. Openings: ``--opening-plies`` random plies from the start (the match
tool's :func:`~damiera.engine.match.random_openings`, ``--seed``), each played twice with the
colours swapped. They are not chosen from the book: they are short enough that every one of
them lies in the book's full tree (``--full`` of ``damiera book build``), so the book plays
from the first move of each game on, and the game goes on out of book wherever either side
leaves it.

Prints the match (W/D/L of the book side, score, Elo with its 95% interval, CPU a move) and
how many moves a game the book side played from the book (its positions found in the book),
then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys

from tqdm import tqdm  # type: ignore[import-untyped]

from damiera.engine.book import book_path, read_book
from damiera.engine.match import GameRecord, random_openings, run_match
from damiera.pdn.reader import read_games
from damiera.rules.variant import Color, variant


def book_moves(vid: str, pdns: list[str], first_white: list[bool]) -> list[int]:
    """For each game, how many of the book side's positions were in the book."""
    v = variant(vid)
    path = book_path(v)
    assert path is not None, f"no book for {vid}"
    book = read_book(v, path)
    counts = []
    for text, white in zip(pdns, first_white, strict=True):
        game = next(read_games(text, v)).game
        side = Color.WHITE if white else Color.BLACK
        counts.append(sum(1 for pos in game.positions[:-1] if pos.turn is side and pos in book))
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--movetime", type=float, default=0.1)
    parser.add_argument("--opening-plies", type=int, default=3)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--pdn", help="write every game there")
    parser.add_argument("--log", help="append each game's result there as it ends (JSON lines: "
                                      "game number, the book side's score)")
    args = parser.parse_args()
    v = variant(args.variant)
    openings = random_openings(v, (args.games + 1) // 2, plies=args.opening_plies,
                               seed=args.seed)

    def bar(it, total):  # type: ignore[no-untyped-def]
        return iter(tqdm(it, total=total, desc=f"{v.id} book vs no book", file=sys.stderr))

    def log(i: int, record: GameRecord) -> None:
        if args.log:
            score = (record.result if i % 2 == 0 else -record.result) / 2 + 0.5
            with open(args.log, "a", encoding="utf-8") as fh:
                fh.write(json.dumps([i, score, record.plies, record.reason]) + "\n")

    result, records = run_match(v, "3", "3", args.games, movetime=args.movetime,
                                openings=openings, jobs=args.jobs, seed=args.seed,
                                progress=bar, on_game=log, cpu_time=True, books=(True, False))
    if args.pdn:
        with open(args.pdn, "w", encoding="utf-8") as fh:
            fh.write("\n".join(r.pdn for r in records))
    hits = book_moves(v.full_id, [r.pdn for r in records],
                      [i % 2 == 0 for i in range(len(records))])
    distinct = len(set(openings))
    print(f"{v.display_name}: level 3 with book vs without, {result.games} games, "
          f"{args.movetime:g} s a move (CPU), {distinct} distinct {args.opening_plies}-ply "
          "openings")
    print(result.summary())
    print(f"book moves a game (book side): mean {sum(hits) / len(hits):.1f}, "
          f"max {max(hits)}; games with none {sum(1 for h in hits if h == 0)}")
    print(json.dumps(dict(result.as_dict(), book_moves_mean=sum(hits) / len(hits),
                          openings=distinct, opening_plies=args.opening_plies)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
