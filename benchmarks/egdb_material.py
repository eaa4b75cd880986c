"""Which endings with kings are won, by material: the share of wins, draws and losses of the
side ahead, over random positions of each material balance, read from an endgame database.

Usage::

    .venv/bin/python benchmarks/egdb_material.py --variant russian --pieces 4 --samples 300
    DAMIERA_EGDB_DIR=DIR .venv/bin/python benchmarks/egdb_material.py --variant russian \\
        --pieces 5

For every material balance of 3 to ``--pieces`` pieces in which the weaker side has a king and
the stronger side is ahead by the hand-made count (a man 1, a flying king 2.5), ``--samples``
random positions (seeded: the pieces on random dark squares, men off their promotion row,
either side to move, the side to move without a capture) are looked up in the database
(:func:`damiera.engine.egdb.probe`: solved in memory up to 4 pieces, read from
``DAMIERA_EGDB_DIR`` beyond) and counted as a win, draw or loss of the stronger side. One line
per balance (``1m2k v 0m1k``: one man and two kings against a king), then one JSON line.
The evaluation's held draws (``holds_draw`` in csrc/eval.c) rest on these shares.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random

from damiera.engine.egdb import Result, probe
from damiera.rules.geometry import geometry
from damiera.rules.movegen import generate, has_capture
from damiera.rules.position import Position
from damiera.rules.variant import Color, variant

#: Worth of a man and of a king in the count that says which side is ahead.
MAN, KING = 2, 5


def balances(pieces: int) -> list[tuple[int, int, int, int]]:
    """``(strong men, strong kings, weak men, weak kings)`` of 3 to ``pieces`` pieces, the
    weaker side with a king, the stronger ahead by the count."""
    out = []
    for total in range(3, pieces + 1):
        for sm, sk, wm, wk in itertools.product(range(total + 1), repeat=4):
            if (sm + sk + wm + wk == total and wk and sm + sk
                    and sm * MAN + sk * KING > wm * MAN + wk * KING):
                out.append((sm, sk, wm, wk))
    return out


def sample(v, balance: tuple[int, int, int, int], rng: random.Random):  # type: ignore[no-untyped-def]
    """A random position of ``balance`` and the stronger side's colour, or None when the draw
    broke a condition (a man on its promotion row, a capture for the side to move)."""
    geo = geometry(v)
    sm, sk, wm, wk = balance
    strong = rng.choice((Color.WHITE, Color.BLACK))
    squares = rng.sample(list(geo.squares), sum(balance))
    kinds = ([(strong, False)] * sm + [(strong, True)] * sk + [(strong.opponent, False)] * wm
             + [(strong.opponent, True)] * wk)
    white = black = kings = 0
    for s, (color, king) in zip(squares, kinds):
        # White's men are crowned on row 0, Black's on the last row.
        if not king and geo.row(s) == (0 if color is Color.WHITE else geo.size - 1):
            return None
        if color is Color.WHITE:
            white |= 1 << s
        else:
            black |= 1 << s
        if king:
            kings |= 1 << s
    pos = Position(white, black, kings, rng.choice((Color.WHITE, Color.BLACK)))
    if has_capture(v, pos) or not generate(v, pos):
        return None
    return pos, strong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--pieces", type=int, default=4, help="3 to 6 (more than 4: from disk)")
    parser.add_argument("--samples", type=int, default=300, help="positions a balance")
    parser.add_argument("--seed", type=int, default=5)
    a = parser.parse_args()
    v = variant(a.variant)
    rng = random.Random(a.seed)
    rows = []
    for balance in balances(a.pieces):
        counts = {"win": 0, "draw": 0, "loss": 0}
        tries = 0
        while sum(counts.values()) < a.samples and tries < 100 * a.samples:
            tries += 1
            drawn = sample(v, balance, rng)
            if drawn is None:
                continue
            pos, strong = drawn
            value = probe(v, pos, a.pieces)
            if value is None:
                continue
            if value.result is Result.DRAW:
                counts["draw"] += 1
            elif (value.result is Result.WIN) == (pos.turn is strong):
                counts["win"] += 1
            else:
                counts["loss"] += 1
        n = sum(counts.values())
        name = "{}m{}k v {}m{}k".format(*balance)
        share = {k: round(100 * c / n) if n else None for k, c in counts.items()}
        print(f"{name}: {n} positions, won {share['win']}%, drawn {share['draw']}%, "
              f"lost {share['loss']}%", flush=True)
        rows.append({"balance": name, "positions": n, **counts})
    print(json.dumps({"variant": v.full_id, "pieces": a.pieces, "samples": a.samples,
                      "seed": a.seed, "balances": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
