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

**Games against an anchor** (``FILES`` ending in ``.pdn``: the records ``damiera match ...
--pdn`` writes, every game replayed; the positions without a capture pending, games without
a result left out) with ``--anchor TEXT`` (the player whose ``White`` or ``Black`` tag holds
TEXT, e.g. ``hub:``): each band then fits, beside K, an offset for the anchor's side, the
stronger player's edge that no evaluation of the position can know. What is left measures
how well an evaluation foresees how games against the anchor go from the positions they
reached, which self-play's results cannot show when both players share a blind spot
(``eval_results.md``, "a screen on the games against Scan").
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
from pattern_games import evaluator_for
from pattern_positions import load_positions, pieces_on_board

from damiera.pdn import PdnError, read_games, result_winner
from damiera.rules.movegen import has_capture, legal_moves
from damiera.rules.variant import Color, Variant
from damiera.rules.variant import variant as get_variant

#: The scales tried for a band's K, centi-men.
SCALES = range(20, 2001, 10)


def band_losses(base: np.ndarray, keep: np.ndarray, result: np.ndarray, band: np.ndarray,
                game: np.ndarray, side: np.ndarray | None = None
                ) -> tuple[np.ndarray, dict[int, tuple[float, int, int]]]:
    """Each held-out position's log loss (NaN where not held out or not scored) and, by
    band, ``(loss, K, positions)``. With ``side`` (+1 where the anchor plays White, -1
    Black), each band's logit is ``evaluation / K + c x side``, K (on the same grid) and c
    fitted together on the even games."""
    loss = np.full(len(base), np.nan)
    report: dict[int, tuple[float, int, int]] = {}
    for b in np.unique(band):
        mine = keep & (band == b)
        fit, test = mine & (game % 2 == 0), mine & (game % 2 == 1)
        if not fit.any() or not test.any():
            continue
        if side is None:
            k = min(SCALES, key=lambda s: _loss(base[fit] / s, result[fit]))
            z = base[test] / k
        else:
            k, c = min(((s, _offset(base[fit] / s, side[fit], result[fit])) for s in SCALES),
                       key=lambda kc: _loss(base[fit] / kc[0] + kc[1] * side[fit],
                                            result[fit]))
            z = base[test] / k + c * side[test]
        loss[test] = np.logaddexp(0.0, z) - result[test] * z
        report[int(b)] = (float(loss[test].mean()), k, int(test.sum()))
    return loss, report


def _offset(z: np.ndarray, side: np.ndarray, result: np.ndarray) -> float:
    """The c that minimises the summed log loss of ``sigmoid(z + c x side)`` against
    ``result`` plus c^2 / 2 (Newton's method on a convex function of one variable)."""
    c = 0.0
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-(z + c * side)))
        # A prior of one position's weight (c ~ N(0, 1)) keeps c finite when the anchor won
        # every training game; on a match's thousands of positions it changes nothing.
        grad = float(np.sum((p - result) * side)) + c
        hess = float(np.sum(p * (1.0 - p) * side * side)) + 1.0
        c -= grad / hess
        if abs(grad / hess) < 1e-9:
            break
    return c


def pdn_positions(files: list[str], v: Variant, anchor: str | None
                  ) -> tuple[dict[str, np.ndarray], np.ndarray | None, int]:
    """The positions of the games of PDN ``files`` (every position without a capture pending
    and with a legal move), as the columns of a positions file (``score`` 0, games numbered
    across the files), the anchor's side of each (+1 White, -1 Black; None without
    ``anchor``) and how many games were left out: without a result, or without a position to
    score. Raises ValueError (the file named) for a game that cannot be read or replayed or
    is not of ``v``, and for a game where ``anchor`` names neither player or both."""
    rows: list[tuple[int, ...]] = []
    sides: list[int] = []
    number = skipped = 0
    for name in files:
        try:
            records = list(read_games(Path(name), v, errors="raise"))
        except PdnError as exc:
            raise ValueError(f"{name}: {exc}") from None
        for record in records:
            if record.variant.full_id != v.full_id:
                raise ValueError(f"{name}: game {record.number} is {record.variant.full_id}, "
                                 f"not {v.full_id}")
            winner = result_winner(record.result)
            if winner == "*":
                skipped += 1
                continue
            result = 0 if winner is None else (1 if winner is Color.WHITE else -1)
            side = 0
            if anchor is not None:
                white = anchor in record.tags.get("White", "")
                black = anchor in record.tags.get("Black", "")
                if white == black:
                    raise ValueError(f"{name}: game {record.number}: --anchor {anchor!r} names "
                                     f"{'both players' if white else 'neither player'}")
                side = 1 if white else -1
            kept = len(rows)
            for pos in record.game.positions:  # the reader replayed the game already
                if legal_moves(v, pos) and not has_capture(v, pos):
                    rows.append((pos.white, pos.black, pos.kings,
                                 1 if pos.turn is Color.WHITE else 0, 0, number, result))
                    sides.append(side)
            if len(rows) == kept:
                skipped += 1  # numbered only when it holds a position: the split stays even
                continue
            number += 1
    columns = np.array(rows, dtype=np.int64).reshape(-1, 7)
    data = {key: columns[:, i] for i, key in
            enumerate(("white", "black", "kings", "turn", "score", "game", "result"))}
    return data, (np.array(sides, dtype=np.float64) if anchor is not None else None), skipped


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("variant")
    p.add_argument("files", nargs="+", help="positions with results (.npz, from selfplay)")
    p.add_argument("--weights", nargs="+", required=True,
                   help="weights files (hand: the hand-made evaluation; shipped: the "
                        "package's); the first is the reference")
    p.add_argument("--band", type=int, default=5, help="pieces a band (1-20)")
    p.add_argument("--anchor", metavar="TEXT",
                   help="with .pdn files: the player whose White or Black tag holds TEXT is "
                        "the anchor, its side an offset fitted in each band")
    args = p.parse_args(argv)
    if not 1 <= args.band <= 20:
        p.error(f"--band must be 1-20 pieces, not {args.band}")
    records = [f.lower().endswith(".pdn") for f in args.files]
    if any(records) and not all(records):
        p.error("give position files (.npz) or match records (.pdn), not both")
    if args.anchor is not None and not all(records):
        p.error("--anchor goes with match records (.pdn)")
    if args.anchor == "":
        p.error("--anchor is empty: give text of the anchor's player tag, e.g. hub:")
    side = None
    try:
        v = get_variant(args.variant)
        if all(records):
            data, side, skipped = pdn_positions(args.files, v, args.anchor)
            if skipped:
                print(f"left out: {skipped} game(s) without a result or a position to score",
                      file=sys.stderr)
        else:
            data = load_positions(args.files, v)
        evaluators = [evaluator_for(v, name) for name in args.weights]
    except (OSError, ValueError) as exc:  # UnknownVariantError and PdnError are ValueErrors
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
          f"(K{' and the anchor side' if side is not None else ''} fitted on the even games, "
          f"the loss measured on the odd ones); bands of {args.band} pieces")
    reference: np.ndarray | None = None
    for name, evaluator in zip(args.weights, evaluators):
        base, keep, _ = _hand_made(v, data, False, evaluator)
        loss, report = band_losses(base, keep, result, band, game, side)
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
