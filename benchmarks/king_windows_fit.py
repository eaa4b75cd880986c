"""Would windows that see kings pay? A fit on top of an evaluation, before any engine code.

    .venv/bin/python benchmarks/king_windows_fit.py VARIANT FILES... [--rows 3] [--states 5]
        [--prior 40] [--tables FILE.bin] [--iterations 300]

The evaluation's windows (``damiera.engine.patterns``) hold men only: a king's square reads
as empty. This fits one more set of window tables (``--rows`` rows by four files, as the
men's windows) whose squares have ``--states`` states: 5 (empty, white man, black man, white
king, black king) or 3 (kings read as empty: the control, the same number of windows and
positions with the kings left out). They are fitted in the positions that hold a king (the
only ones they would score) on top of a fixed evaluation: the shipped one for the variant, or
that of ``--tables FILE`` (a weights file, its tables and learned terms). A window and its
image under the half turn with colours swapped share one table, negated, as the men's do.

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

import numpy as np

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
    ap.add_argument("--tables", help="weights file of the fixed evaluation (default: shipped)")
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
    if args.tables is not None and not Path(args.tables).is_file():
        ap.error(f"--tables {args.tables}: no such file")
    return args


def _mirror(states: int, digits: int) -> np.ndarray:
    """``mirror[p]``: the pattern the partner window shows on the rotated, colour-swapped
    board when this one shows ``p`` (digit k -> digits-1-k, each state's colour swapped)."""
    swap = (0, 2, 1, 4, 3)[:states]
    out = np.zeros(states**digits, dtype=np.int64)
    for p in range(states**digits):
        out[p] = sum(swap[p // states**k % states] * states ** (digits - 1 - k)
                     for k in range(digits))
    return out


def _design(data: dict[str, np.ndarray], rows_at: np.ndarray, patterns, states: int):
    """The sparse design matrix (positions ``rows_at`` x parameters) of the king windows and
    its number of parameters: each window adds its canonical table's entry, negated for a
    partner, halved twice (entry and negated mirror) for a window that is its own partner."""
    from scipy import sparse

    white, black, kings = (data[k].astype(np.uint64)[rows_at]
                           for k in ("white", "black", "kings"))
    digits = 2 * patterns.rows
    size = states**digits
    mirror = _mirror(states, digits)
    offset = {w: i * size for i, w in enumerate(patterns.canonical())}

    def state(square: int) -> np.ndarray:
        bit = np.uint64(1) << np.uint64(square)
        st = ((white & ~kings & bit) != 0) * 1 + ((black & ~kings & bit) != 0) * 2
        if states == 5:
            st = st + ((white & kings & bit) != 0) * 3 + ((black & kings & bit) != 0) * 4
        return st.astype(np.int64)

    at = np.arange(len(rows_at))
    r_parts, c_parts, d_parts = [], [], []
    for w, squares in enumerate(patterns.squares):
        pattern = sum(state(s) * states**k for k, s in enumerate(squares))
        partner = patterns.partner[w]
        if w == partner:
            r_parts += [at, at]
            c_parts += [offset[w] + pattern, offset[w] + mirror[pattern]]
            d_parts += [np.full(len(at), 0.5), np.full(len(at), -0.5)]
        elif w < partner:
            r_parts.append(at)
            c_parts.append(offset[w] + pattern)
            d_parts.append(np.ones(len(at)))
        else:
            r_parts.append(at)
            c_parts.append(offset[partner] + mirror[pattern])
            d_parts.append(-np.ones(len(at)))
    n_params = len(offset) * size
    matrix = sparse.csr_matrix(
        (np.concatenate(d_parts), (np.concatenate(r_parts), np.concatenate(c_parts))),
        shape=(len(at), n_params))
    return matrix, n_params


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    from pattern_fit import _hand_made, _loss, _scale_and_target, _sigmoid
    from pattern_positions import load_positions
    from scipy.optimize import minimize

    from damiera.engine.evaluate import Evaluator
    from damiera.engine.patterns import PatternSet
    from damiera.rules.geometry import geometry

    v = args.v
    try:
        data = load_positions(args.files, v)
    except ValueError as exc:
        print(f"king_windows_fit.py: error: {exc}", file=sys.stderr)
        return 2
    evaluator = Evaluator(v, weights=args.tables) if args.tables else Evaluator(v)
    started = time.monotonic()
    base, keep, _ = _hand_made(v, data, False, evaluator)
    held_out = data["game"] % 10 == 0
    result = (data["result"].astype(np.float64) + 1) / 2
    k, _, target = _scale_and_target(data, base, result, keep & ~held_out, 0.0)
    rows_at = np.nonzero(keep & (data["kings"] != 0))[0]
    patterns = PatternSet(geometry(v), args.rows)
    matrix, n_params = _design(data, rows_at, patterns, args.states)
    train, test = ~held_out[rows_at], held_out[rows_at]
    if not train.any() or not test.any():
        print("too few games with a king: every tenth game is held out", file=sys.stderr)
        return 2
    b, t, res = base[rows_at], target[rows_at], result[rows_at]
    m_train, m_test = matrix[train], matrix[test]
    penalty = 1.0 / (args.prior * args.prior)

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        logit = (b[train] + m_train @ theta) / k
        loss = float(np.sum(np.logaddexp(0.0, logit) - t[train] * logit))
        grad = m_train.T @ ((_sigmoid(logit) - t[train]) / k)
        return loss + 0.5 * penalty * float(theta @ theta), grad + penalty * theta

    theta = minimize(objective, np.zeros(n_params), jac=True, method="L-BFGS-B",
                     options={"maxiter": args.iterations}).x
    before, after = b[test] / k, (b[test] + m_test @ theta) / k
    losses = [(_loss(before, t[test]), _loss(after, t[test])),
              (_loss(before, res[test]), _loss(after, res[test]))]
    share = int(test.sum()) / int((keep & held_out).sum())
    seen = int((np.asarray(abs(m_train).sum(axis=0)).ravel() > 0).sum())
    print(f"{v.id}: {len(base)} positions, {len(rows_at)} with a king "
          f"({int(test.sum())} of them held out); {len(patterns.windows)} windows of "
          f"{args.rows} rows, {args.states} states: {n_params} weights, {seen} seen; "
          f"K = {k:.0f} centi-men, prior {args.prior:g}; {time.monotonic() - started:.0f} s")
    for name, (lo0, lo1) in zip(("target", "results"), losses):
        print(f"held out, positions with a king, {name}: {lo0:.5f} -> {lo1:.5f}; "
              f"over all held-out positions {(lo1 - lo0) * share:+.5f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
