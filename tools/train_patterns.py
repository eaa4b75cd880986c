"""Train the pattern weights of the evaluation (``damiera.engine.patterns``) from self-play.

Play, (label,) fit: each step its own subcommand (run from the project root, with the
venv's Python):

``selfplay VARIANT --games N (--depth D | --nodes N) --out FILE.npz [--seed S]
[--opening 6-12] [--weights NAME] [--opponent NAME]``
    Plays N games of the engine against itself at a fixed depth or a node budget a move
    (``pattern_games.budget_search``), from openings of 6-12 (``--opening``) random plies,
    and keeps every quiet position (side to move has no capture) after the opening:
    bitboards, side to move, the search's score (White's view, centi-men, by the side that
    moves) and the game's result (+1 White won, 0 draw, -1 Black won; a game still going
    after 300 plies counts as a draw), and the variant, which every step that reads the file
    checks. Run several at once with different seeds to use every core. ``--weights`` names
    the evaluation that plays (``hand``: the hand-made one, ``shipped``: the package's file,
    else a weights file; default: the engine's own). ``--opponent NAME``: a league instead,
    ``--weights`` against that evaluation, each opening twice with the colours swapped
    (even games: ``--weights`` has White), the progress lines giving the first's score;
    games between evaluations that differ punish mistakes that self-play, where both sides
    make them, does not.

``label VARIANT IN.npz --out OUT.npz (--depth D | --nodes N) [--every K] [--part I/N]
[--pieces LOW-HIGH]``
    Scores positions of a ``selfplay`` file again with a deeper search (a better teacher for
    ``fit-scores`` and ``fit --mix 0``), to D plies or with a budget of N nodes: every K-th
    position, of the games of part I of N (the games whose number is I modulo N; run the N
    parts at once to use every core). The game numbers and results are kept. With
    ``--pieces`` only the positions with LOW-HIGH pieces on the board are searched again and
    every other position is written with its own score, so that the N parts replace the
    input in a fit: deeper labels for the endings alone, at a fraction of the cost.

``fit-scores VARIANT FILE.npz [FILE.npz ...] [--rows 3] [--damp 1,3,10,30] [--clip 600]
[--phases 1] [--out FILE]``
    Fits the pattern weights by ridge least squares to what the labelling search adds to the
    hand-made evaluation (score minus evaluation, centi-men), leaving out decided positions
    (``--clip``); each damping is fitted on nine tenths of the games, and the fit that
    predicts the held-out tenth best is written (give one damping to choose it yourself).
    Scores, unlike game results, differ from position to position inside one game, so
    thousands of weights can be fitted without learning the games by heart (the
    result-based ``fit`` below played worse for exactly that).

``fit VARIANT FILE.npz [FILE.npz ...] [--rows 3] [--prior 5,10,20,40] [--mix 1]
[--iterations 300] [--share none|edges|band] [--phases 1] [--terms [--tables FILE]]
[--king-windows ROWS --tables FILE] [--out FILE]``
    Fits the pattern weights by logistic regression (the "Texel" method): the probability
    that White wins is ``sigmoid((hand-made evaluation + pattern sum) / K)``, K fitted first
    on the hand-made evaluation alone; the target mixes the game result and the search score
    (``--mix``: the result's share). Each weight has a normal prior of spread ``--prior``
    centi-men (an L2 penalty ``w^2 / 2 prior^2`` on the summed log loss), so a pattern seen in
    a few positions keeps a small weight; the posterior's best weights are found by L-BFGS,
    for each prior from the tightest up, and the fit with the lowest loss on a held-out tenth
    of the games is written (as the file :func:`damiera.engine.patterns.weights_path` names
    for the variant's rules, or ``--out``). Each colour-swapped, rotated window shares its
    weights (so the evaluation stays symmetric); ``--share`` lets more windows share one
    table (``pattern_fit.SHARES``), fewer weights each seen more often. (An earlier version took
    Adam steps of a fixed size with early stopping: every pattern, however rarely seen, moved as
    fast as a common one, and the weights learned the games by heart.)

``fit --terms`` fits the learned terms (``damiera.engine.evaluate.TERM_NAMES``: a king's
worth early and late, men beside kings, kings against men only, the ending's men and tempo)
with the patterns, each weight with the wide prior ``pattern_fit.TERM_PRIOR``, and writes a
version 4 weights file that holds them. With ``--tables FILE`` it keeps that file's tables
as they are and fits the eight terms alone on top of them (a few thousand games serve for
eight weights; ``--rows``, ``--phases``, ``--share`` and ``--prior`` are then the file's or
unused), writing the tables and the terms when the terms predict the held-out games better.

``fit --king-windows ROWS --tables FILE`` keeps that file's tables and learned terms and fits
king windows of ROWS rows (1-3) on top, in the positions with a king (``king_window_fit``:
windows whose squares have five states, kings seen), writing a version 5 file that holds all
three when they predict the held-out games better; one ``--prior``, ``--mix`` as above.

Both fits take ``--phases 2``: an opening's and an endgame's tables, which the evaluation
blends by the pieces left (``damiera.engine.patterns``, "Phases"); each position's row of
the fit holds every window twice, scaled by its share of each. Neither fit takes a rule set
with the losing rule, whose evaluation reads no patterns and no learned terms.

The steps live beside this file: ``pattern_games`` (selfplay, label), ``pattern_fit`` (both
fits, the weights file), ``king_window_fit`` (the king windows) and ``pattern_positions`` (the
.npz files they pass on).

Needs numpy and scipy (the ``train`` extra; only this tool uses them).
"""

from __future__ import annotations

import argparse
import math
import sys

from king_window_fit import fit_king_windows
from pattern_fit import SHARES, fit, fit_scores, fit_terms
from pattern_games import label, selfplay

from damiera.engine.patterns import KING_ROWS
from damiera.rules.variant import variant as get_variant


def _numbers(parser: argparse.ArgumentParser, option: str, text: str, low: float,
             high: float, what: str) -> list[float]:
    """The comma-separated numbers of ``text``; a usage error naming ``option`` unless all
    are finite and in [low, high] (``what`` says which numbers are wanted)."""
    try:
        values = [float(x) for x in text.split(",")]
    except ValueError:
        values = []
    if not values or not all(math.isfinite(x) and low <= x <= high for x in values):
        parser.error(f"{option} must be comma-separated {what}, not {text!r}")
    return values


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("selfplay")
    sp.add_argument("variant")
    sp.add_argument("--games", type=int, default=1000)
    sp.add_argument("--depth", type=int, default=5)
    sp.add_argument("--out", required=True)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--nodes", type=int, help="node budget a move (instead of --depth)")
    sp.add_argument("--opening", default="6-12", help="random plies of an opening, LOW-HIGH")
    sp.add_argument("--weights", metavar="NAME",
                    help="evaluation that plays: hand, shipped or a weights file (default: "
                         "the engine's own)")
    sp.add_argument("--opponent", metavar="NAME",
                    help="a league: --weights against this evaluation, each opening with "
                         "both colours")
    lp = sub.add_parser("label")
    lp.add_argument("variant")
    lp.add_argument("src")
    lp.add_argument("--out", required=True)
    lp.add_argument("--depth", type=int, default=7)
    lp.add_argument("--nodes", type=int, help="node budget a position (instead of --depth)")
    lp.add_argument("--pieces", help="LOW-HIGH: search again only positions with that many "
                                     "pieces, and keep the others' scores")
    lp.add_argument("--every", type=int, default=1, help="keep every K-th position")
    lp.add_argument("--part", default="0/1", help="I/N: the I-th of N parts (0-based)")
    rp = sub.add_parser("fit-scores")
    rp.add_argument("variant")
    rp.add_argument("files", nargs="+")
    rp.add_argument("--rows", type=int, default=3, help="rows of a window (1-4)")
    rp.add_argument("--damp", default="1,3,10,30",
                    help="ridge dampings to try, comma-separated (the best held-out one wins)")
    rp.add_argument("--clip", type=float, default=600,
                    help="leave out positions scored this far from 0 (centi-men)")
    rp.add_argument("--out", help="weights file (default: the package's file for the rules)")
    rp.add_argument("--phases", type=int, choices=(1, 2), default=1,
                    help="2: an opening's and an endgame's tables, blended by the pieces left")
    fp = sub.add_parser("fit", formatter_class=argparse.ArgumentDefaultsHelpFormatter,
                        description="Logistic regression of game results on the patterns, on "
                        "top of the hand-made evaluation (see the module docstring).")
    fp.add_argument("variant", help="variant id, e.g. international")
    fp.add_argument("files", nargs="+", help="positions written by selfplay or label (.npz)")
    fp.add_argument("--prior", default="5,10,20,40",
                    help="prior spreads of a weight to try, centi-men, comma-separated "
                         "(the best held-out one wins)")
    fp.add_argument("--iterations", type=int, default=300, help="L-BFGS steps per fit")
    fp.add_argument("--mix", type=float, default=1.0,
                    help="weight of the game result in the target (the rest: search score)")
    fp.add_argument("--rows", type=int, default=3, help="rows of a window (1-4)")
    fp.add_argument("--share", choices=SHARES, default="none",
                    help="windows that share one table (see SHARES)")
    fp.add_argument("--out", help="weights file (default: the package's own file for the "
                    "rules, under src/, which the engine then plays with)")
    fp.add_argument("--phases", type=int, choices=(1, 2), default=1,
                    help="2: an opening's and an endgame's tables, blended by the pieces left")
    fp.add_argument("--terms", action="store_true",
                    help="fit the learned terms too (damiera.engine.evaluate.TERM_NAMES): a "
                         "version 4 weights file")
    fp.add_argument("--tables", metavar="FILE",
                    help="with --terms: keep this weights file's tables and fit the learned "
                         "terms alone on top of them; with --king-windows: keep its tables "
                         "and terms and fit king windows on top")
    fp.add_argument("--king-windows", type=int, metavar="ROWS",
                    help="fit king windows of ROWS rows (1-3) on top of --tables FILE: a "
                         "version 5 weights file (tools/king_window_fit.py)")
    args = p.parse_args(argv)
    try:
        rules = get_variant(args.variant)
    except ValueError as exc:  # UnknownVariantError is a ValueError
        p.error(str(exc))
    if rules.losing and args.cmd in ("fit", "fit-scores"):
        p.error(f"{args.variant}: under the losing rule the evaluation uses neither patterns "
                "nor learned terms (only material and mobility against their owner), so "
                "there is nothing to fit")
    if args.cmd in ("selfplay", "label") and not args.out.endswith(".npz"):
        p.error(f"--out must name a .npz file, not {args.out!r}")
    if args.cmd == "selfplay":
        if args.games < 1 or args.depth < 1 or (args.nodes is not None and args.nodes < 1):
            p.error("--games, --depth and --nodes must be at least 1")
        low, _, high = args.opening.partition("-")
        if not (low.isdigit() and high.isdigit() and int(low) <= int(high) <= 40):
            p.error(f"--opening must be LOW-HIGH plies (at most 40), not {args.opening!r}")
        opening = (int(low), int(high))
    elif args.cmd == "label":
        try:
            part = tuple(int(x) for x in args.part.split("/"))
            ok = len(part) == 2 and 0 <= part[0] < part[1]
        except ValueError:
            ok = False
        if not ok:
            p.error(f"--part must be I/N with 0 <= I < N, not {args.part!r}")
        if args.depth < 1 or args.every < 1 or (args.nodes is not None and args.nodes < 1):
            p.error("--depth, --nodes and --every must be at least 1")
        pieces = None
        if args.pieces is not None:
            low, _, high = args.pieces.partition("-")
            if not (low.isdigit() and high.isdigit() and 2 <= int(low) <= int(high) <= 100):
                p.error(f"--pieces must be LOW-HIGH pieces (2-100), not {args.pieces!r}")
            if args.every != 1:
                p.error("--pieces writes every position (the ones of LOW-HIGH pieces searched "
                        "again): it takes no --every")
            pieces = (int(low), int(high))
    elif not 1 <= args.rows <= 4:
        p.error(f"--rows must be 1-4, not {args.rows}")
    elif args.cmd == "fit-scores":
        damps = _numbers(p, "--damp", args.damp, 0, math.inf, "finite numbers >= 0")
        if not args.clip > 0:
            p.error(f"--clip must be above 0, not {args.clip}")
    else:
        priors = _numbers(fp, "--prior", args.prior, 0.1, 10_000,
                          "numbers of centi-men from 0.1 to 10000")
        if args.iterations < 1:
            fp.error(f"--iterations must be at least 1, not {args.iterations}")
        if not 0 <= args.mix <= 1:
            fp.error(f"--mix must be between 0 and 1, not {args.mix}")
        if args.king_windows is not None:
            if not 1 <= args.king_windows <= KING_ROWS:
                fp.error(f"--king-windows must be 1-{KING_ROWS} rows, not {args.king_windows}")
            if args.tables is None or args.terms:
                fp.error("--king-windows fits on top of a file's tables and terms: give "
                         "--tables FILE, without --terms")
            if len(priors) != 1:
                fp.error("--king-windows takes one --prior")
        elif args.tables is not None and not args.terms:
            fp.error("--tables keeps a file's tables to fit the learned terms: give --terms")
    try:
        if args.cmd == "selfplay":
            selfplay(args.variant, args.games, args.depth, args.out, args.seed, args.nodes,
                     opening, args.weights, args.opponent)
        elif args.cmd == "fit-scores":
            fit_scores(args.variant, args.files, args.rows, damps, args.clip, args.out,
                       args.phases)
        elif args.cmd == "label":
            label(args.variant, args.src, args.out, args.depth, args.every,
                  (part[0], part[1]), args.nodes, pieces)
        elif args.king_windows is not None:
            fit_king_windows(args.variant, args.files, args.tables, args.king_windows,
                             priors[0], args.mix, args.iterations, args.out)
        elif args.tables is not None:
            fit_terms(args.variant, args.files, args.tables, args.mix, args.iterations,
                      args.out)
        else:
            fit(args.variant, args.files, priors, args.mix, args.iterations, args.out,
                args.rows, args.share, args.phases, args.terms)
    except (OSError, ValueError) as exc:  # UnknownVariantError is a ValueError
        print(f"train_patterns: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
