"""Self-play's search scores against the games' results: where the evaluation misjudges.

    .venv/bin/python tools/score_bands.py VARIANT FILE.npz [FILE.npz ...] [--fit]

Reads ``selfplay`` files (``pattern_positions``) and prints, as Markdown tables:

- by score band (centi-men, the side ahead by the search's score): positions, mean result
  for the side ahead (+1 it won, 0 drawn, -1 it lost) and the share drawn, won and lost;
- the endings where the weaker side (by score) has a king, by the pieces of each side
  (positions scored at 1 man or more): positions, median score in men, won / drawn / lost.

``--fit`` fits, for each cell of four to six pieces against a king and one or two pieces
(a hard-win scaling of the evaluation was tried with such a table and not kept:
``benchmarks/eval_results.md``), the share of the score (in sixteenths,
1-16) that predicts the results best: the calibration curve (mean result against score, in
bins of 25 centi-men, from every position outside those cells and outside the held-draw
endings of at most three pieces) read at the scaled score, squared error against each
position's result; the best sixteenth over every game (the table's), and, as a check, the
best over nine tenths of the games scored on the held-out tenth (every tenth game). Scaling the static score scales the search's score of
such endings about as much, which is what the fit assumes.

Needs numpy (the ``train`` extra).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from pattern_positions import load_positions

from damiera.rules.variant import variant as get_variant

BANDS = [(0, 50), (50, 100), (100, 200), (200, 300), (300, 500), (500, 1000), (1000, 3000)]
#: The cells fitted: (stronger side's pieces, weaker side's pieces with a king).
CELLS = [(s, w) for s in (4, 5, 6) for w in (2, 3)]


def _count(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x.astype(np.uint64)).astype(np.int64)


def columns(variant_id: str, files: list[str]) -> dict[str, np.ndarray]:
    """Per position: |score|, the result for the side ahead by score, each side's pieces and
    kings (``sp``, ``sk`` the side ahead; ``wp``, ``wk`` the other), the game, and whether
    the score is not 0. Raises ValueError as ``load_positions`` does."""
    d = load_positions(files, get_variant(variant_id))
    ahead_white = d["score"] > 0
    strong = np.where(ahead_white, d["white"], d["black"])
    weak = np.where(ahead_white, d["black"], d["white"])
    return {
        "score": np.abs(d["score"]),
        "res": np.where(ahead_white, d["result"], -d["result"]),
        "sp": _count(strong), "sk": _count(strong & d["kings"]),
        "wp": _count(weak), "wk": _count(weak & d["kings"]),
        "game": d["game"], "nonzero": d["score"] != 0,
    }


def print_bands(d: dict[str, np.ndarray]) -> None:
    print("| score band (centi-men) | positions | mean result | drawn | won | lost |")
    print("|---|---|---|---|---|---|")
    for lo, hi in BANDS:
        x = d["nonzero"] & (d["score"] >= lo) & (d["score"] < hi)
        if x.any():
            r = d["res"][x]
            print(f"| {lo} .. {hi} | {int(x.sum()):,} | {r.mean():+.2f} | {(r == 0).mean():.0%} "
                  f"| {(r == 1).mean():.0%} | {(r == -1).mean():.0%} |")


def print_endings(d: dict[str, np.ndarray], least: int = 200) -> None:
    m = d["nonzero"] & (d["wk"] > 0) & (d["score"] >= 100)
    print("| stronger side's pieces | weaker side's pieces (with a king) | positions "
          "| median score (men) | won | drawn | lost |")
    print("|---|---|---|---|---|---|---|")
    for sp in range(1, 13):
        for wp in range(1, 6):
            x = m & (d["sp"] == sp) & (d["wp"] == wp)
            if x.sum() >= least:
                r = d["res"][x]
                print(f"| {sp} | {wp} | {int(x.sum()):,} | {np.median(d['score'][x]) / 100:.1f} "
                      f"| {(r == 1).mean():.0%} | {(r == 0).mean():.0%} | {(r == -1).mean():.0%} |")


def _curve(d: dict[str, np.ndarray], use: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean result against score (bins of 25 centi-men with 50 positions or more)."""
    s, r = d["score"][use], d["res"][use]
    edges = np.arange(0, 3001, 25)
    idx = np.clip(np.digitize(s, edges) - 1, 0, len(edges) - 2)
    sums = np.bincount(idx, weights=r, minlength=len(edges) - 1)
    cnt = np.bincount(idx, minlength=len(edges) - 1)
    ok = cnt >= 50
    return ((edges[:-1] + edges[1:]) / 2)[ok], sums[ok] / cnt[ok]


def _error(d: dict[str, np.ndarray], sel: np.ndarray, curve: tuple[np.ndarray, np.ndarray],
           sixteenths: int) -> float:
    pred = np.interp(d["score"][sel] * sixteenths / 16, *curve)
    return float(((pred - d["res"][sel]) ** 2).sum())


def fit_cells(d: dict[str, np.ndarray]) -> dict[tuple[int, int], int]:
    """Print and return the best sixteenths of each cell (see the module text)."""
    cells = d["nonzero"] & (d["wk"] > 0)
    spot = cells & (d["sp"] >= 4) & (d["sp"] <= 6) & (d["wp"] >= 2) & (d["wp"] <= 3)
    held_draw = cells & (d["sp"] <= 3)
    test = d["game"] % 10 == 0
    curve = _curve(d, d["nonzero"] & ~spot & ~held_draw & ~test)
    print("| stronger | weaker | positions (train / held out) | median score (men) | mean result "
          "| best sixteenths: all games (nine tenths) | held-out squared error: plain -> "
          "scaled by the nine tenths' best |")
    print("|---|---|---|---|---|---|---|")
    table, plain, scaled, n = {}, 0.0, 0.0, 0
    for sp, wp in CELLS:
        cell = spot & (d["sp"] == sp) & (d["wp"] == wp)
        train, held = cell & ~test, cell & test
        if not train.any() or not held.any():
            continue
        best = min(range(1, 17), key=lambda f: _error(d, train, curve, f))
        table[sp, wp] = min(range(1, 17), key=lambda f: _error(d, cell, curve, f))
        e16, ef, k = _error(d, held, curve, 16), _error(d, held, curve, best), int(held.sum())
        plain, scaled, n = plain + e16, scaled + ef, n + k
        print(f"| {sp} | {wp} | {int(train.sum()):,} / {k:,} | {np.median(d['score'][cell]) / 100:.1f} "
              f"| {d['res'][cell].mean():+.2f} | {table[sp, wp]} ({best}) | {e16 / k:.3f} -> {ef / k:.3f} |")
    if n:
        print(f"\nheld out, every cell: {n:,} positions, {plain / n:.3f} -> {scaled / n:.3f}")
    return table


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("variant")
    p.add_argument("files", nargs="+")
    p.add_argument("--fit", action="store_true", help="fit each cell's sixteenths")
    args = p.parse_args(argv)
    try:
        d = columns(args.variant, args.files)
    except (ValueError, KeyError) as exc:
        p.error(str(exc))
    print(f"{len(d['score']):,} positions, {len(np.unique(d['game'])):,} games\n")
    print_bands(d)
    print()
    print_endings(d)
    if args.fit:
        print()
        fit_cells(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
