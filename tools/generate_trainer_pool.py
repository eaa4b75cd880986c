"""Make the trainer's pools of positions (``src/damiera/trainer/data/pool-<size>.txt.gz``).

    .venv/bin/python tools/generate_trainer_pool.py --games 400

For each board size, self-play games of every named rule set of that size (the engine's
level 1 against itself, after a few random opening moves) are read position by position;
a position is kept when it gives an exercise (:func:`damiera.trainer.exercises.exercises_at`)
of a kind and rule that some rule set (with and without the optional-capture house rule on
8x8) has fewer than ``--per-group`` of. So the pool holds real positions where each rule
decides, and every rule set of the board finds its exercises in it
(:func:`damiera.trainer.pool.catalogue`). Run it with ``nice -n 19``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

from damiera.engine import Engine, Limit
from damiera.rules.game import Game
from damiera.rules.position import Position
from damiera.rules.variant import VARIANTS, Variant, variant
from damiera.trainer.exercises import exercises_at
from damiera.trainer.pool import DATA, pool_file, write_pool


def family(board_size: int) -> list[Variant]:
    """The named rule sets of a board size, and their house-rule versions on 8x8."""
    out = [v for v in VARIANTS.values() if v.board_size == board_size]
    if board_size == 8:
        out += [variant(v.id, optional_capture=True) for v in list(out)]
    return out


def self_play(v: Variant, rng: random.Random) -> list[Position]:
    """One level-1 game of ``v`` after 2-6 random plies; every position."""
    game = Game(v)
    for _ in range(rng.randint(2, 6)):
        if game.outcome() is not None:
            break
        game.play(rng.choice(game.legal_moves))
    engine = Engine(v, level=1, seed=rng.randrange(1 << 30))
    while game.outcome() is None and game.ply < 200:
        game.play(engine.play(game, Limit(depth=2)).move)  # type: ignore[arg-type]
    return list(game.positions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per named rule set")
    parser.add_argument("--per-group", type=int, default=40,
                        help="exercises wanted per rule set, kind and rule")
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 10, 12])
    parser.add_argument("--out", type=Path, default=DATA)
    parser.add_argument("--seed", type=int, default=34)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    for size in args.sizes:
        rule_sets = family(size)
        players = [v for v in rule_sets if not v.optional_capture]
        counts: Counter[tuple[str, bool, str, str]] = Counter()
        kept: list[Position] = []
        seen: set[Position] = set()
        for game_number in range(args.games):
            for v in players:
                for position in self_play(v, rng):
                    if position in seen or not (position.white and position.black):
                        continue
                    seen.add(position)
                    index = len(kept)
                    wanted = False
                    found = []
                    for rs in rule_sets:
                        for e in exercises_at(rs, index, position):
                            key = (rs.id, rs.optional_capture, e.kind, e.param)
                            found.append(key)
                            wanted = wanted or counts[key] < args.per_group
                    if wanted:
                        kept.append(position)
                        counts.update(found)
            if game_number % 20 == 19:
                print(f"{size}x{size}: {game_number + 1} games each, {len(kept)} positions, "
                      f"{len(counts)} groups, the thinnest {min(counts.values(), default=0)}",
                      flush=True)
        n = write_pool(pool_file(size, args.out), kept)
        print(f"{size}x{size}: {n} positions; groups below {args.per_group}: "
              f"{sorted((k, c) for k, c in counts.items() if c < args.per_group)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
