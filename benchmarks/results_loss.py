"""How well weights files' static evaluations predict the results of a set of games, phase by
phase: a screen for candidate evaluations before they play matches.

    .venv/bin/python benchmarks/results_loss.py VARIANT FILES... --weights A.bin B.bin ...
        [--band 5]

``FILES``: positions with their games' results, as ``tools/train_patterns.py selfplay``
writes them (.npz). ``--weights``: weights files to compare (``hand``: the hand-made
evaluation; ``shipped``: the package's file for the rules); the first is the reference.

For each file, the positions are cut into bands of ``--band`` pieces on the board (from the
start position down), and each band gets its own logistic scale K (centi-men, the one that best
turns the evaluation into the results of the even-numbered games); the loss is the mean log
loss of ``sigmoid(evaluation / K)`` against the results (win 1, draw 1/2, loss 0) of the
odd-numbered games (numbered across the files in the order given, each file's games after
the last one's). One K for all phases would mix two questions: whether the evaluation
ranks positions of one phase right, and whether a centi-man means as much in every phase (it
need not: an ending a man up with kings is often a draw), and a fit to results with one K
mostly moves the scale between phases. With a K per band only the ranking within a phase
counts.

The report gives each band's loss and K and the loss over all held-out positions; for every
file after the first, the difference from the first and its 95% interval, the positions paired
(the same in both) and the games as the units (the per-game sums of the differences vary as
whole games do). Reads the position files whole (the trainer's own output); exits 2 with a
one-line error for a file that cannot be read or is not a weights or positions file of the
variant.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import numpy as np
from pattern_fit import _hand_made, _loss
from pattern_positions import load_positions, pieces_on_board

from damiera.engine.evaluate import Evaluator
from damiera.engine.patterns import weights_path
from damiera.rules.variant import Variant
from damiera.rules.variant import variant as get_variant

#: The scales tried for a band's K, centi-men.
SCALES = range(20, 2001, 10)


def evaluator_for(v: Variant, name: str) -> Evaluator:
    """``hand``: the hand-made evaluation; ``shipped``: the package's weights; else a file."""
    if name == "hand":
        return Evaluator(v, patterns=False)
    return Evaluator(v, weights=weights_path(v) if name == "shipped" else Path(name))


def band_losses(base: np.ndarray, keep: np.ndarray, result: np.ndarray, band: np.ndarray,
                game: np.ndarray) -> tuple[np.ndarray, dict[int, tuple[float, int, int]]]:
    """Each held-out position's log loss (NaN where not held out or not scored) and, by
    band, ``(loss, K, positions)``."""
    loss = np.full(len(base), np.nan)
    report: dict[int, tuple[float, int, int]] = {}
    for b in np.unique(band):
        mine = keep & (band == b)
        fit, test = mine & (game % 2 == 0), mine & (game % 2 == 1)
        if not fit.any() or not test.any():
            continue
        k = min(SCALES, key=lambda s: _loss(base[fit] / s, result[fit]))
        z = base[test] / k
        loss[test] = np.logaddexp(0.0, z) - result[test] * z
        report[int(b)] = (float(loss[test].mean()), k, int(test.sum()))
    return loss, report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("variant")
    p.add_argument("files", nargs="+", help="positions with results (.npz, from selfplay)")
    p.add_argument("--weights", nargs="+", required=True,
                   help="weights files (hand: the hand-made evaluation; shipped: the "
                        "package's); the first is the reference")
    p.add_argument("--band", type=int, default=5, help="pieces a band (1-20)")
    args = p.parse_args(argv)
    if not 1 <= args.band <= 20:
        p.error(f"--band must be 1-20 pieces, not {args.band}")
    try:
        v = get_variant(args.variant)
        data = load_positions(args.files, v)
        evaluators = [evaluator_for(v, name) for name in args.weights]
    except (OSError, ValueError) as exc:  # UnknownVariantError is a ValueError
        print(f"results_loss: error: {exc}", file=sys.stderr)
        return 2
    result = (data["result"].astype(np.float64) + 1) / 2
    game = data["game"]
    if not ((game % 2 == 0).any() and (game % 2 == 1).any()):
        print("results_loss: error: too few games: K is fitted on the even-numbered games and "
              "the loss measured on the odd ones (give at least two games)", file=sys.stderr)
        return 2
    start = 2 * v.men_per_side
    band = (start - np.minimum(pieces_on_board(data), start)) // args.band
    print(f"{v.id}: {len(result)} positions, {len(np.unique(game))} games "
          f"(K fitted on the even games, the loss measured on the odd ones); bands of "
          f"{args.band} pieces")
    reference: np.ndarray | None = None
    for name, evaluator in zip(args.weights, evaluators):
        base, keep, _ = _hand_made(v, data, False, evaluator)
        loss, report = band_losses(base, keep, result, band, game)
        held = ~np.isnan(loss)
        if not held.any():
            print("results_loss: error: no held-out position to measure: in every band either "
                  "the even or the odd games have no position the evaluation scores (the side "
                  "to move blocked)", file=sys.stderr)
            return 2
        parts = "  ".join(
            f"{start - b * args.band}-{max(start - b * args.band - args.band + 1, 0)}: "
            f"{lo:.4f} K {k}" for b, (lo, k, _n) in sorted(report.items()))
        line = f"{name}: {float(loss[held].mean()):.5f}"
        if reference is None:
            reference = loss
        else:
            both = held & ~np.isnan(reference)
            diff = np.where(both, loss - reference, 0.0)
            games = np.unique(game[both])
            per_game = np.bincount(np.searchsorted(games, game[both]), weights=diff[both])
            n = int(both.sum())
            mean = float(per_game.sum()) / n
            if len(games) < 2:
                line += f" (difference {mean:+.5f}; one held-out game: no interval)"
            else:
                half = 1.96 * float(per_game.std(ddof=1)) * math.sqrt(len(games)) / n
                line += f" (difference {mean:+.5f} +- {half:.5f})"
        print(f"{line}\n    {parts}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
