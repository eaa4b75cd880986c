"""The fits of the pattern trainer (``tools/train_patterns.py`` ``fit-scores`` and ``fit``,
whose docstring describes both): the sparse design matrix of the windows' patterns, ridge
least squares to search scores, penalised logistic regression to game results, and the
weights file written from the fitted parameters."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from pattern_positions import load_positions, pieces_on_board, position_at

from damiera.engine.evaluate import NO_MOVES, TERM_NAMES, Evaluator
from damiera.engine.patterns import (
    PatternSet,
    read_king_windows,
    read_weights_file,
    rules_key,
    save_weights,
    weights_path,
)
from damiera.rules.geometry import geometry
from damiera.rules.variant import Color, Variant
from damiera.rules.variant import variant as get_variant

#: How windows share weights in a fit (``--share``): ``none``, one table a window (as many
#: weights as the file holds); ``edges``, one table for the windows of a band of rows that
#: touch no side of the board, one for the left-edge and one for the right-edge window;
#: ``band``, one table for all the windows of a band of rows (patterns judged alike
#: wherever they stand across the board: a quarter of the weights on 10x10, more data each).
SHARES = ("none", "edges", "band")


def _param_map(patterns: PatternSet, share: str) -> tuple[np.ndarray, np.ndarray, int]:
    """``(column, sign, n_params)``: ``column[w, p]`` is the fitted parameter that window
    ``w``'s weight for pattern ``p`` is, times ``sign[w, p]`` (shape (windows, patterns)).
    Windows of one ``share`` group use one table; a group and its image under the rotation
    with colours swapped share it negated and mirrored, and a group that is its own image
    has an antisymmetric table (``t[mirror[p]] == -t[p]``, one parameter per pair), so the
    evaluation stays colour-symmetric whatever the weights."""
    last = patterns.half - 2

    def key(w: int) -> tuple[int, int]:
        r0, j = patterns.windows[w]
        if share == "none":
            return (w, 0)
        if share == "band":
            return (r0, 0)
        return (r0, 0 if j == 0 else (2 if j == last else 1))

    keys = sorted({min(key(w), key(patterns.partner[w])) for w in range(len(patterns.windows))})
    group = {k: i for i, k in enumerate(keys)}
    mirror = np.array(patterns.mirror(), dtype=np.int64)
    p = np.arange(patterns.size, dtype=np.int64)
    column = np.empty((len(patterns.windows), patterns.size), dtype=np.int64)
    sign = np.empty((len(patterns.windows), patterns.size), dtype=np.float64)
    for w in range(len(patterns.windows)):
        mine, theirs = key(w), key(patterns.partner[w])
        if mine == theirs:
            column[w] = group[mine] * patterns.size + np.minimum(p, mirror)
            sign[w] = np.sign(mirror - p).astype(np.float64)
        elif mine < theirs:
            column[w] = group[mine] * patterns.size + p
            sign[w] = 1.0
        else:
            column[w] = group[theirs] * patterns.size + mirror
            sign[w] = -1.0
    return column, sign, len(keys) * patterns.size


def _columns(patterns: PatternSet, wm: np.ndarray, bm: np.ndarray,
             share: str = "none") -> tuple[np.ndarray, np.ndarray, int]:
    """Parameter column and sign of every (position, window), shape (positions, windows),
    and the number of parameters (see :func:`_param_map`)."""
    column, sign, n_params = _param_map(patterns, share)
    cols = np.empty((len(wm), len(patterns.windows)), dtype=np.int64)
    signs = np.empty((len(wm), len(patterns.windows)), dtype=np.float64)
    for w, squares in enumerate(patterns.squares):
        pat = np.zeros(len(wm), dtype=np.int64)
        for k, sq in enumerate(squares):
            pat += 3**k * (((wm >> sq) & 1) + 2 * ((bm >> sq) & 1))
        cols[:, w] = column[w][pat]
        signs[:, w] = sign[w][pat]
    return cols, signs, n_params


def _matrix(cols: np.ndarray, signs: np.ndarray, mask: np.ndarray, n_params: int,
            opening: np.ndarray | None = None) -> Any:
    """The sparse (positions in ``mask``) x (parameters) matrix of ``_columns``' output: the
    pattern sum of every position is this matrix times the parameters. With ``opening``
    (each position's share of the opening tables, 0..1: two phases), the parameters are the
    opening's ``n_params`` then the endgame's as many, and each window's weight enters
    twice, scaled by the share and by one minus it."""
    from scipy.sparse import csr_matrix

    # Every row holds one entry a window (two with phases): built as CSR arrays directly,
    # without the row-index copies a COO construction needs (a third of the memory).
    c, sg = cols[mask], signs[mask]
    if opening is not None:
        share = opening[mask][:, None]
        c = np.hstack([c, c + n_params])
        sg = np.hstack([sg * share, sg * (1 - share)])
        n_params *= 2
    per_row = c.shape[1]
    index = np.int32 if len(c) * per_row < 2**31 else np.int64
    indptr = np.arange(0, len(c) * per_row + 1, per_row, dtype=index)
    return csr_matrix((sg.ravel(), c.astype(index).ravel(), indptr), shape=(len(c), n_params))


def _opening_share(v: Variant, data: dict[str, np.ndarray]) -> np.ndarray:
    """Each position's weight of the opening tables in a two-phase evaluation: the pieces
    left over the pieces of the start, at most 1 (``damiera.engine.patterns``, "Phases")."""
    pieces = pieces_on_board(data)
    start = 2 * v.men_per_side
    share: np.ndarray = np.minimum(pieces, start).astype(np.float64) / start
    return share


def _sigmoid(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-x))
    return out


def _loss(logit: np.ndarray, target: np.ndarray) -> float:
    p = np.clip(_sigmoid(logit), 1e-9, 1 - 1e-9)
    return float(-np.mean(target * np.log(p) + (1 - target) * np.log(1 - p)))


def _scale_and_target(data: dict[str, np.ndarray], base: np.ndarray, result: np.ndarray,
                      train: np.ndarray, mix: float) -> tuple[float, float, np.ndarray]:
    """``(K, loss, target)``: K, the scale (centi-men, 40..590 by 10) that best turns
    ``base`` into the training games' results (``result``, 0..1), its training loss, and
    each position's target, ``mix`` of the result and the rest the search score over K."""
    best_k, best = 100.0, float("inf")
    for scale in range(40, 600, 10):
        loss = _loss(base[train] / scale, result[train])
        if loss < best:
            best_k, best = float(scale), loss
    target = mix * result + (1 - mix) * _sigmoid(data["score"].astype(np.float64) / best_k)
    return best_k, best, target


def logistic_fit(base: np.ndarray, design: Any, target: np.ndarray, k: float, prior: float,
                 iterations: int, gtol: float = 1e-5) -> np.ndarray:
    """The parameters ``theta`` that best predict ``target`` (0..1) as
    ``sigmoid((base + design @ theta) / k)`` under a Gaussian prior of spread ``prior`` on
    each (summed log loss plus ``theta^2 / 2 prior^2``; L-BFGS, at most ``iterations`` steps):
    the fit of the learned terms on fixed tables and of the king windows. ``design``: a dense
    or sparse matrix, one row a position."""
    from scipy.optimize import minimize

    penalty = 1.0 / (prior * prior)

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        logit = (base + design @ theta) / k
        loss = float(np.sum(np.logaddexp(0.0, logit) - target * logit))
        grad = design.T @ ((_sigmoid(logit) - target) / k)
        return loss + 0.5 * penalty * float(theta @ theta), grad + penalty * theta

    theta: np.ndarray = minimize(objective, np.zeros(design.shape[1]), jac=True,
                                 method="L-BFGS-B",
                                 options={"maxiter": iterations, "gtol": gtol}).x
    return theta


def _hand_made(v: Variant, data: dict[str, np.ndarray], terms: bool = False,
               evaluator: Evaluator | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The hand-made evaluation (or ``evaluator``'s) of every position (White's view,
    centi-men), a mask of the positions it scores (not the ones where the side to move is
    blocked) and, with ``terms``, the learned terms' features of every position (shape
    (positions, len(TERM_NAMES)), in units of one: the core's over ``start_pieces``), else
    None."""
    evaluator = evaluator or Evaluator(v, patterns=False)
    base = np.zeros(len(data["white"]), dtype=np.float64)
    keep = np.ones(len(data["white"]), dtype=bool)
    features = np.zeros((len(base), len(TERM_NAMES)), dtype=np.float64) if terms else None
    for i in range(len(base)):
        pos = position_at(data, i)
        e = evaluator.evaluate(pos)
        if e == NO_MOVES:
            keep[i] = False
            continue
        base[i] = e if pos.turn is Color.WHITE else -e
        if features is not None:
            features[i] = evaluator.term_features(pos)
    if features is not None:
        features /= evaluator.start_pieces
    return base, keep, features


def _weights_out(v: Variant, out: str | None) -> Path:
    """Where the weights will be written; ValueError now (not after the fit) when they cannot."""
    path = Path(out) if out else weights_path(v)
    if path.is_dir():
        raise ValueError(f"--out {path}: a folder, not a weights file")
    folder = next(p for p in path.absolute().parents if p.exists())
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"--out {path}: not writable")
    return path


def _write(v: Variant, patterns: PatternSet, theta: np.ndarray, out: str | None,
           share: str = "none", phases: int = 1, terms: bool = False) -> Path:
    """Round the fitted parameters into the weights file (``out`` or the package's own):
    every canonical window's full table, whatever the sharing of the fit (with two phases,
    ``theta`` holds the opening's parameters, then the endgame's), and with ``terms`` the
    learned terms' weights, the last ``len(TERM_NAMES)`` parameters (a version 4 file)."""
    column, sign, n_params = _param_map(patterns, share)
    # Symmetric bounds: a weight is stored negated too (a window's sign), and -(-32768)
    # does not fit 16 bits.
    weights = np.clip(np.round(theta), -32767, 32767)
    sets = [{w: (sign[w] * weights[k * n_params:][column[w]]).astype(np.int64).tolist()
             for w in patterns.canonical()} for k in range(phases)]
    term_weights = weights[phases * n_params:].astype(np.int64).tolist() if terms else None
    path = _weights_out(v, out)
    save_weights(path, patterns, sets[0], sets[1] if phases == 2 else None, key=rules_key(v),
                 terms=term_weights)
    return path


class _Inputs(NamedTuple):
    """What both fits start from: the positions, their hand-made scores, the windows."""

    v: Variant
    data: dict[str, np.ndarray]
    base: np.ndarray  # hand-made evaluation, White's view, centi-men
    keep: np.ndarray  # positions it scores (the side to move is not blocked)
    patterns: PatternSet
    cols: np.ndarray
    signs: np.ndarray
    n_params: int  # parameters of one set of tables
    held_out: np.ndarray  # every tenth game
    opening: np.ndarray | None  # two phases: each position's share of the opening tables
    features: np.ndarray | None  # the learned terms' features (--terms), else None

    def matrix(self, mask: np.ndarray) -> Any:
        """The design matrix of the positions in ``mask`` (see :func:`_matrix`), with the
        learned terms' features as its last columns when they are fitted."""
        a = _matrix(self.cols, self.signs, mask, self.n_params, self.opening)
        if self.features is None:
            return a
        from scipy.sparse import csr_matrix, hstack

        return hstack([a, csr_matrix(self.features[mask])], format="csr")

    @property
    def phases(self) -> int:
        return 1 if self.opening is None else 2


def _fit_inputs(variant_id: str, files: list[str], rows: int, out: str | None,
                share: str = "none", phases: int = 1, terms: bool = False) -> _Inputs:
    """Load ``files`` for a fit of ``rows``-row windows (one set of tables, or an opening's
    and an endgame's: ``phases``; with ``terms``, the learned terms too), checking ``--out``
    first."""
    v = get_variant(variant_id)
    _weights_out(v, out)
    data = load_positions(files, v)
    base, keep, features = _hand_made(v, data, terms)
    patterns = PatternSet(geometry(v), rows)
    cols, signs, n_params = _columns(patterns, data["white"] & ~data["kings"],
                                     data["black"] & ~data["kings"], share)
    return _Inputs(v, data, base, keep, patterns, cols, signs, n_params,
                   data["game"] % 10 == 0, _opening_share(v, data) if phases == 2 else None,
                   features)


def fit_scores(variant_id: str, files: list[str], rows: int, damps: list[float], clip: float,
               out: str | None, phases: int = 1) -> None:
    """Ridge least squares of (search score - hand-made evaluation) on the patterns: the
    weights that best predict, in centi-men, what the search that labelled the positions
    adds to the static evaluation. Positions whose score or evaluation is ``clip`` or more
    (decided ones) are left out. Each damping in ``damps`` is fitted on nine tenths of the
    games and measured on the rest; the best fit is written."""
    from scipy.sparse.linalg import lsqr

    inputs = _fit_inputs(variant_id, files, rows, out, phases=phases)
    v, data, base, keep, patterns, held_out = (inputs.v, inputs.data, inputs.base,
                                               inputs.keep, inputs.patterns, inputs.held_out)
    n_params = inputs.phases * inputs.n_params
    score = data["score"].astype(np.float64)
    keep &= (np.abs(score) < clip) & (np.abs(base) < clip)
    residual = score - base
    train, test = keep & ~held_out, keep & held_out
    if not train.any() or not test.any():
        raise ValueError(f"too few positions: every tenth game is held out, and both the "
                         f"training and the held-out games need positions (play at least 11 "
                         f"games); {int(keep.sum())} of {len(score)} are inside --clip {clip:g}")

    a_train = inputs.matrix(train)
    a_test = inputs.matrix(test)
    rmse0 = float(np.sqrt(np.mean(residual[test] ** 2)))
    print(f"{int(keep.sum())} positions of {len(score)} (|score| < {clip:g}), "
          f"{len(np.unique(data['game']))} games; held out {int(test.sum())}; "
          f"score - hand-made: rms {rmse0:.1f} centi-men (held out)")
    best_damp, best_rmse, best_theta = damps[0], float("inf"), np.zeros(n_params)
    for damp in damps:
        theta = lsqr(a_train, residual[train], damp=damp, iter_lim=500)[0]
        rmse = float(np.sqrt(np.mean((residual[test] - a_test @ theta) ** 2)))
        print(f"damp {damp:g}: held-out rms {rmse0:.1f} -> {rmse:.1f} "
              f"({1 - (rmse / rmse0) ** 2:.1%} of the variance), |w| max "
              f"{np.abs(theta).max():.0f}", flush=True)
        if rmse < best_rmse:
            best_damp, best_rmse, best_theta = damp, rmse, theta
    # The weights written are the ones measured on the held-out games (not refitted on all).
    path = _write(v, patterns, best_theta, out, phases=inputs.phases)
    print(f"damp {best_damp:g}: wrote {path} ({n_params} weights)")


#: The prior spread of a learned term's weight, centi-men (``fit --terms``): wide, since a
#: term counts whole pieces (a king's worth may move by a man or more) and each is fitted
#: on every position, not on the few that show one pattern.
TERM_PRIOR = 1000.0


def fit(variant_id: str, files: list[str], priors: list[float], mix: float, iterations: int,
        out: str | None, rows: int = 3, share: str = "none", phases: int = 1,
        terms: bool = False) -> None:
    """Fit the pattern weights (and with ``terms`` the learned terms' weights, each with
    the prior :data:`TERM_PRIOR`) by penalised logistic regression (see the module
    docstring) and write the fit that predicts the held-out games best."""
    from scipy.optimize import minimize

    inputs = _fit_inputs(variant_id, files, rows, out, share, phases, terms)
    v, data, base, keep, patterns, cols, held_out = (inputs.v, inputs.data, inputs.base,
                                                     inputs.keep, inputs.patterns, inputs.cols,
                                                     inputs.held_out)
    n_terms = len(TERM_NAMES) if terms else 0
    n_params = inputs.phases * inputs.n_params + n_terms
    result = (data["result"].astype(np.float64) + 1) / 2
    train, test = keep & ~held_out, keep & held_out
    print(f"{len(base)} positions, {len(np.unique(data['game']))} games; "
          f"train {int(train.sum())}, held out {int(test.sum())}")
    if not train.any() or not test.any():
        raise ValueError("too few games: every tenth game is held out, and both the training "
                         "and the held-out games need positions (play at least 11 games)")
    k, best, target = _scale_and_target(data, base, result, train, mix)
    # The held-out loss is measured against the training target (with --mix 0, the search
    # scores: a fit to scores must not be judged by the noise of game results).
    held0 = _loss(base[test] / k, target[test])
    print(f"K = {k:.0f} centi-men; hand-made evaluation: loss {best:.5f} (train, results), "
          f"{_loss(base[test] / k, result[test]):.5f} (held out, results), "
          f"{held0:.5f} (held out, target)")
    a_train = inputs.matrix(train)
    a_test = inputs.matrix(test)
    tr_base, tr_target = base[train], target[train]
    seen = np.concatenate([np.tile(np.bincount(cols[train].ravel(),
                                               minlength=inputs.n_params) > 0, inputs.phases),
                           np.zeros(n_terms, dtype=bool)])

    def objective(theta: np.ndarray, penalty: float) -> tuple[float, np.ndarray]:
        # Minus the log posterior: the summed log loss (log(1 + e^z) - y z, written stably)
        # and a normal prior of spread ``prior`` on every pattern weight (TERM_PRIOR on a
        # learned term's).
        logit = (tr_base + a_train @ theta) / k
        loss = float(np.sum(np.logaddexp(0.0, logit) - tr_target * logit))
        grad = a_train.T @ ((_sigmoid(logit) - tr_target) / k)
        scale = np.full(n_params, penalty)
        scale[n_params - n_terms:] = 1.0 / (TERM_PRIOR * TERM_PRIOR)
        return loss + 0.5 * float(theta @ (scale * theta)), grad + scale * theta

    best_held, best_prior, best_theta = held0, 0.0, np.zeros(n_params)
    theta = np.zeros(n_params)
    for prior in sorted(priors):  # tightest first: each fit starts from the one before
        theta = minimize(objective, theta, args=(1.0 / (prior * prior),), jac=True,
                         method="L-BFGS-B", options={"maxiter": iterations, "gtol": 1e-6}).x
        te_logit = (base[test] + a_test @ theta) / k
        held = _loss(te_logit, target[test])
        print(f"prior {prior:g} centi-men: held out {held0:.5f} -> {held:.5f} (target), "
              f"{_loss(te_logit, result[test]):.5f} (results), "
              f"|w| max {np.abs(theta).max():.0f}, mean {np.abs(theta[seen]).mean():.1f}",
              flush=True)
        if held < best_held:
            best_held, best_prior, best_theta = held, prior, theta.copy()
    if best_prior == 0.0:
        # All weights 0: a file would only slow the evaluation down.
        print("no fit beat the hand-made evaluation on the held-out games: nothing written")
        return
    print(f"kept prior {best_prior:g}: held out {best_held:.5f}")
    _report_terms(best_theta[n_params - n_terms:] if terms else None)
    path = _write(v, patterns, best_theta, out, share, inputs.phases, terms)
    print(f"wrote {path} ({n_params} weights, {int(seen.sum())} seen in training)")


def _report_terms(weights: np.ndarray | None) -> None:
    if weights is not None:
        print("learned terms: " + ", ".join(
            f"{name} {int(np.round(weight))}" for name, weight in zip(TERM_NAMES, weights)))


def fit_terms(variant_id: str, files: list[str], tables_file: str, mix: float,
              iterations: int, out: str | None) -> None:
    """Fit the learned terms alone on top of the tables of the weights file
    ``tables_file`` (kept as they are): the logistic fit of :func:`fit` whose base is the
    evaluation with those tables and whose parameters are the terms' weights (prior
    :data:`TERM_PRIOR`); the tables and the fitted terms are written as one version 4 file
    when the terms predict the held-out games better. Few parameters: a small set of games
    serves (a new generation of tables needs far more). Raises ValueError for a file that
    holds king windows (fitted on top of its terms, they would be lost or misfitted): fit the
    terms on the file they were fitted on, then the king windows again."""

    v = get_variant(variant_id)
    _weights_out(v, out)
    if read_king_windows(v, Path(tables_file)) is not None:
        raise ValueError(f"{tables_file} holds king windows, fitted on top of its terms: fit "
                         f"the terms on a file without them (then fit --king-windows again)")
    rows, window_tables = read_weights_file(v, Path(tables_file))
    data = load_positions(files, v)
    base, keep, features = _hand_made(v, data, True, Evaluator(v, tables=(rows, window_tables)))
    assert features is not None
    held_out = data["game"] % 10 == 0
    train, test = keep & ~held_out, keep & held_out
    if not train.any() or not test.any():
        raise ValueError("too few games: every tenth game is held out, and both the training "
                         "and the held-out games need positions (play at least 11 games)")
    result = (data["result"].astype(np.float64) + 1) / 2
    k, _, target = _scale_and_target(data, base, result, train, mix)
    held0 = _loss(base[test] / k, target[test])
    f_test = features[test]
    theta = logistic_fit(base[train], features[train], target[train], k, TERM_PRIOR,
                         iterations, gtol=1e-8)
    held = _loss((base[test] + f_test @ theta) / k, target[test])
    print(f"{len(base)} positions, {len(np.unique(data['game']))} games; train "
          f"{int(train.sum())}, held out {int(test.sum())}; K = {k:.0f} centi-men; the tables of "
          f"{tables_file}: held out {held0:.5f} -> {held:.5f} (target) with the terms")
    _report_terms(theta)
    if held >= held0:
        print("the terms did not beat the tables alone on the held-out games: nothing written")
        return
    patterns = PatternSet(geometry(v), rows)
    phases = len(window_tables) // len(patterns.windows)
    sets = [{w: window_tables[phase * len(patterns.windows) + w] for w in patterns.canonical()}
            for phase in range(phases)]
    path = _weights_out(v, out)
    save_weights(path, patterns, sets[0], sets[1] if phases == 2 else None, key=rules_key(v),
                 terms=np.clip(np.round(theta), -32767, 32767).astype(np.int64).tolist())
    print(f"wrote {path} (the tables of {tables_file} and {len(TERM_NAMES)} learned terms)")

