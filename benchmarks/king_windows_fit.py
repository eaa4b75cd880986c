"""Would windows that see kings pay? A fit on top of an evaluation, before any engine code.

    .venv/bin/python benchmarks/king_windows_fit.py VARIANT FILES... --tables FILE.bin
        [--rows 3] [--states 5] [--prior 40] [--iterations 300]

The windows of men (``damiera.engine.patterns``) read a king's square as empty. This fits
(``tools/king_window_fit.py``, without writing a file) one more set of window tables
(``--rows`` rows by four files, as the men's windows) whose squares have ``--states`` states:
5 (empty, white man, black man, white king, black king) or 3 (kings read as empty: the
control, the same windows and positions with the kings left out). They are fitted in the
positions that hold a king (the only ones they would score) on top of a fixed evaluation,
that of ``--tables FILE`` (a weights file without king windows, its tables and learned terms;
American's before them was g5s). A window and its image under the half turn with colours
swapped share one table, negated, as the men's do.

Data and criterion as ``tools/train_patterns.py fit --mix 0``: the positions written by
``selfplay`` or ``label``, every tenth game held out, the logistic scale K fitted to the
training games' results, the target the search's score over K; L-BFGS with a Gaussian prior
of ``--prior`` centi-men a weight. The report gives the held-out loss against the target and
against the games' results, in the positions with a king and spread over all held-out
positions (where the fixed evaluation's loss is the baseline): the same units as ``fit``'s
reports, so a drop can be set beside the drops of steps that were measured in games
(``benchmarks/eval_results.md``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

#: Most rows of a window: 5 states on 2 x 4 squares are 390,625 patterns a window, far more
#: than the positions of a generation of self-play can fill.
MAX_ROWS = 3


def _args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant")
    ap.add_argument("files", nargs="+", help="positions written by selfplay or label (.npz)")
    ap.add_argument("--rows", type=int, default=3, help=f"rows of a window (1-{MAX_ROWS})")
    ap.add_argument("--states", type=int, default=5, choices=(3, 5),
                    help="5: kings seen; 3: kings read as empty (the control)")
    ap.add_argument("--prior", type=float, default=40.0, help="centi-men (above 0)")
    ap.add_argument("--tables", required=True,
                    help="weights file of the fixed evaluation (without king windows)")
    ap.add_argument("--iterations", type=int, default=300, help="L-BFGS steps (1-10000)")
    args = ap.parse_args(argv)
    if not 1 <= args.rows <= MAX_ROWS:
        ap.error(f"--rows must be 1-{MAX_ROWS}")
    if not 0 < args.prior < 1e6:  # also NaN
        ap.error("--prior must be a number of centi-men above 0")
    if not 1 <= args.iterations <= 10_000:
        ap.error("--iterations must be 1-10000")
    from damiera.rules.variant import variant
    try:
        args.v = variant(args.variant)
    except (KeyError, ValueError) as exc:
        ap.error(str(exc))
    if not Path(args.tables).is_file():
        ap.error(f"--tables {args.tables}: no such file")
    return args


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    from king_window_fit import fit_king_windows

    started = time.monotonic()
    try:
        fit_king_windows(args.v.id, args.files, args.tables,
                         args.rows, args.prior, 0.0, args.iterations, None, args.states,
                         write=False)
    except ValueError as exc:
        print(f"king_windows_fit.py: error: {exc}", file=sys.stderr)
        return 2
    print(f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
