"""Train the pattern weights of the evaluation (``damiera.engine.patterns``) from self-play.

Play, (label,) fit: each step its own subcommand (run from the project root, with the
venv's Python):

``selfplay VARIANT --games N (--depth D | --nodes N) --out FILE.npz [--seed S]
[--opening 6-12]``
    Plays N games of the engine against itself at a fixed depth or a node budget a move
    (:func:`budget_search`), from openings of 6-12 (``--opening``) random plies, and keeps every quiet position (side to move has no capture) after the opening:
    bitboards, side to move, the search's score (White's view, centi-men) and the game's
    result (+1 White won, 0 draw, -1 Black won; a game still going after 300 plies counts as
    a draw), and the variant, which every step that reads the file checks. Run several at
    once with different seeds to use every core.

``label VARIANT IN.npz --out OUT.npz --depth D [--every K] [--part I/N]``
    Scores positions of a ``selfplay`` file again with a deeper search (a better teacher for
    ``fit-scores``): every K-th position, and of those the I-th of N parts (run the N parts
    at once to use every core). The game numbers and results are kept.

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
[--iterations 300] [--share none|edges|band] [--phases 1] [--out FILE]``
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
    table (:data:`SHARES`), fewer weights each seen more often. (An earlier version took Adam steps of a
    fixed size with early stopping: every pattern, however rarely seen, moved as fast as a
    common one, and the weights learned the games by heart.)

Both fits take ``--phases 2``: an opening's and an endgame's tables, which the evaluation
blends by the pieces left (``damiera.engine.patterns``, "Phases"); each position's row of
the fit holds every window twice, scaled by its share of each.

Needs numpy and scipy (the ``train`` extra; only this tool uses them).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from damiera.engine.evaluate import NO_MOVES, Evaluator
from damiera.engine.patterns import PatternSet, save_weights, weights_path
from damiera.engine.search import Searcher, SearchResult
from damiera.rules.game import Game
from damiera.rules.geometry import geometry
from damiera.rules.movegen import has_capture
from damiera.rules.position import Position
from damiera.rules.variant import Color, Variant
from damiera.rules.variant import variant as get_variant

MAX_PLIES = 300


def budget_search(searcher: Searcher, pos: Position, history: list[Position], depth: int,
                  nodes: int | None) -> SearchResult:
    """Search ``pos`` to ``depth`` plies or, with a node budget, until ``nodes`` nodes are
    searched (the core's node limit: the move of the last finished iteration, or a better
    one fully searched in the unfinished one). Counting nodes, not seconds, makes the games
    the same whatever the machine's load. (A soft budget, finishing the iteration that
    crosses it, was tried first: one search in a few hundred then took 100-600 times the
    budget, an iteration that explodes in a tactical position.)"""
    if nodes is None:
        return searcher.search(pos, depth=depth, history=history)
    return searcher.search(pos, nodes=nodes, history=history)


def selfplay(variant_id: str, games: int, depth: int, out: str, seed: int,
             nodes: int | None = None, opening: tuple[int, int] = (6, 12)) -> None:
    """Play ``games`` self-play games and save their quiet positions to ``out`` (.npz):
    at ``depth`` plies, or with a budget of ``nodes`` a move (:func:`budget_search`),
    from openings of ``opening`` (low, high) random plies."""
    v = get_variant(variant_id)
    rng = random.Random(seed)
    searcher = Searcher(v, tt_entries=1 << 19)
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    _save(out, rows, v)  # an unwritable --out fails now, not after the first games
    t0 = time.perf_counter()
    for g in range(games):
        game = Game(v)
        searcher.clear()
        for _ in range(rng.randint(*opening)):
            if game.is_over():
                break
            game.play(rng.choice(game.legal_moves))
        first = len(rows)
        while not game.is_over() and len(game.moves) < MAX_PLIES:
            pos = game.position
            res = budget_search(searcher, pos, game.positions, depth, nodes)
            assert res.move is not None
            if not has_capture(v, pos) and abs(res.score) < 5000:
                white_score = res.score if pos.turn is Color.WHITE else -res.score
                rows.append((pos.white, pos.black, pos.kings,
                             1 if pos.turn is Color.WHITE else 0, white_score, g, 0))
            game.play(res.move)
        winner = game.result.winner if game.result is not None else None
        result = 0 if winner is None else (1 if winner is Color.WHITE else -1)
        for i in range(first, len(rows)):
            rows[i] = rows[i][:6] + (result,)
        if (g + 1) % 20 == 0:
            rate = (g + 1) / (time.perf_counter() - t0)
            print(f"{g + 1} games, {len(rows)} positions, {rate:.2f} games/s", flush=True)
            _save(out, rows, v)
    _save(out, rows, v)
    print(f"{games} games, {len(rows)} positions: {out}")


def label(variant_id: str, src: str, out: str, depth: int, every: int,
          part: tuple[int, int]) -> None:
    """Search positions of ``src`` again at ``depth`` and save them with the new scores."""
    v = get_variant(variant_id)
    data = _load([src], v)
    index = np.arange(0, len(data["white"]), every)
    i, n = part
    index = index[i::n]
    if not len(index):
        raise ValueError(f"no position to label: {len(data['white'])} positions, every "
                         f"{every}, part {i}/{n}")
    searcher = Searcher(v, tt_entries=400_000)
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    _save(out, rows, v)  # an unwritable --out fails now, not after the first searches
    t0 = time.perf_counter()
    for count, j in enumerate(index, 1):
        pos = _position(data, int(j))
        res = searcher.search(pos, depth=depth)
        if res.move is not None and abs(res.score) < 5000:
            white_score = res.score if pos.turn is Color.WHITE else -res.score
            rows.append((pos.white, pos.black, pos.kings, int(data["turn"][j]), white_score,
                         int(data["game"][j]), int(data["result"][j])))
        if count % 500 == 0:
            rate = count / (time.perf_counter() - t0)
            print(f"{count}/{len(index)} positions, {rate:.1f} a second", flush=True)
            _save(out, rows, v)
    _save(out, rows, v)
    print(f"{len(rows)} positions labelled at depth {depth}: {out}")


def _save(out: str, rows: list[tuple[int, int, int, int, int, int, int]], v: Variant) -> None:
    arr = np.array(rows, dtype=np.int64).reshape(-1, 7)
    np.savez_compressed(out, variant=np.array(v.id), white=arr[:, 0], black=arr[:, 1],
                        kings=arr[:, 2],
                        turn=arr[:, 3], score=arr[:, 4], game=arr[:, 5], result=arr[:, 6])


def _load(files: list[str], v: Variant) -> dict[str, np.ndarray]:
    """The positions of ``files`` (``selfplay`` or ``label`` output) as one set of columns.
    Raises ValueError for a file that is missing, of another kind, or of another variant."""
    keys = ("white", "black", "kings", "turn", "score", "game", "result")
    parts = []
    board = geometry(v).mask
    resolved = [Path(f).resolve() for f in files]
    for f, r in zip(files, resolved):
        if resolved.count(r) > 1:
            raise ValueError(f"{f} is given twice: its games would be counted twice, and "
                             f"copies of training games held out")
    for f in files:
        if not Path(f).exists():
            raise ValueError(f"{f}: no such file")
        if not Path(f).is_file():
            raise ValueError(f"{f}: not a file")
        try:
            part = np.load(f, allow_pickle=False)
            parts.append({k: part[k] for k in keys})
        except (OSError, EOFError, KeyError, ValueError, AttributeError) as exc:
            why = exc if isinstance(exc, KeyError) else "not a NumPy .npz archive"
            raise ValueError(f"{f}: not a file written by `selfplay` ({why})") from None
        # Files of older versions say no variant: their squares must at least fit the board.
        stored = str(part["variant"]) if "variant" in part else None
        outside = int(np.bitwise_or.reduce(parts[-1]["white"] | parts[-1]["black"],
                                           initial=0)) & ~board
        if (stored is not None and stored != v.id) or outside:
            raise ValueError(f"{f}: positions of {stored or 'another board'}, not {v.id}")
    out: dict[str, np.ndarray] = {}
    offset = 0
    for k in keys:
        out[k] = np.concatenate([p[k] for p in parts])
    # Game numbers restart in every file: make them unique.
    games = []
    for p in parts:
        games.append(p["game"] + offset)
        offset += int(p["game"].max()) + 1 if len(p["game"]) else 0
    out["game"] = np.concatenate(games)
    return out


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
    occupied = (data["white"] | data["black"]).astype(np.uint64)
    pieces = np.unpackbits(occupied.view(np.uint8)).reshape(-1, 64).sum(axis=1)
    start = 2 * v.men_per_side
    share: np.ndarray = np.minimum(pieces, start).astype(np.float64) / start
    return share


def _sigmoid(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-x))
    return out


def _loss(logit: np.ndarray, target: np.ndarray) -> float:
    p = np.clip(_sigmoid(logit), 1e-9, 1 - 1e-9)
    return float(-np.mean(target * np.log(p) + (1 - target) * np.log(1 - p)))


def _position(data: dict[str, np.ndarray], i: int) -> Position:
    """Row ``i`` of a loaded file as a position."""
    turn = Color.WHITE if data["turn"][i] else Color.BLACK
    return Position(int(data["white"][i]), int(data["black"][i]), int(data["kings"][i]), turn)


def _hand_made(v: Variant, data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The hand-made evaluation of every position (White's view, centi-men) and a mask of
    the positions it scores (not the ones where the side to move is blocked)."""
    evaluator = Evaluator(v, patterns=False)
    base = np.zeros(len(data["white"]), dtype=np.float64)
    keep = np.ones(len(data["white"]), dtype=bool)
    for i in range(len(base)):
        pos = _position(data, i)
        e = evaluator.evaluate(pos)
        if e == NO_MOVES:
            keep[i] = False
            continue
        base[i] = e if pos.turn is Color.WHITE else -e
    return base, keep


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
           share: str = "none", phases: int = 1) -> Path:
    """Round the fitted parameters into the weights file (``out`` or the package's own):
    every canonical window's full table, whatever the sharing of the fit (with two phases,
    ``theta`` holds the opening's parameters, then the endgame's)."""
    column, sign, n_params = _param_map(patterns, share)
    # Symmetric bounds: a weight is stored negated too (a window's sign), and -(-32768)
    # does not fit 16 bits.
    weights = np.clip(np.round(theta), -32767, 32767)
    sets = [{w: (sign[w] * weights[k * n_params:][column[w]]).astype(np.int64).tolist()
             for w in patterns.canonical()} for k in range(phases)]
    path = _weights_out(v, out)
    save_weights(path, patterns, sets[0], sets[1] if phases == 2 else None)
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

    def matrix(self, mask: np.ndarray) -> Any:
        """The design matrix of the positions in ``mask`` (see :func:`_matrix`)."""
        return _matrix(self.cols, self.signs, mask, self.n_params, self.opening)

    @property
    def phases(self) -> int:
        return 1 if self.opening is None else 2


def _fit_inputs(variant_id: str, files: list[str], rows: int, out: str | None,
                share: str = "none", phases: int = 1) -> _Inputs:
    """Load ``files`` for a fit of ``rows``-row windows (one set of tables, or an opening's
    and an endgame's: ``phases``), checking ``--out`` first."""
    v = get_variant(variant_id)
    _weights_out(v, out)
    data = _load(files, v)
    base, keep = _hand_made(v, data)
    patterns = PatternSet(geometry(v), rows)
    cols, signs, n_params = _columns(patterns, data["white"] & ~data["kings"],
                                     data["black"] & ~data["kings"], share)
    return _Inputs(v, data, base, keep, patterns, cols, signs, n_params,
                   data["game"] % 10 == 0, _opening_share(v, data) if phases == 2 else None)


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


def fit(variant_id: str, files: list[str], priors: list[float], mix: float, iterations: int,
        out: str | None, rows: int = 3, share: str = "none", phases: int = 1) -> None:
    """Fit the pattern weights by penalised logistic regression (see the module docstring)
    and write the fit that predicts the held-out games best."""
    from scipy.optimize import minimize

    inputs = _fit_inputs(variant_id, files, rows, out, share, phases)
    v, data, base, keep, patterns, cols, held_out = (inputs.v, inputs.data, inputs.base,
                                                     inputs.keep, inputs.patterns, inputs.cols,
                                                     inputs.held_out)
    n_params = inputs.phases * inputs.n_params
    result = (data["result"].astype(np.float64) + 1) / 2
    train, test = keep & ~held_out, keep & held_out
    print(f"{len(base)} positions, {len(np.unique(data['game']))} games; "
          f"train {int(train.sum())}, held out {int(test.sum())}")
    if not train.any() or not test.any():
        raise ValueError("too few games: every tenth game is held out, and both the training "
                         "and the held-out games need positions (play at least 11 games)")
    # K: the scale that best turns the hand-made evaluation into a result.
    best_k, best = 100.0, float("inf")
    for scale in range(40, 600, 10):
        loss = _loss(base[train] / scale, result[train])
        if loss < best:
            best_k, best = float(scale), loss
    k = best_k
    target = mix * result + (1 - mix) * _sigmoid(data["score"].astype(np.float64) / k)
    # The held-out loss is measured against the training target (with --mix 0, the search
    # scores: a fit to scores must not be judged by the noise of game results).
    held0 = _loss(base[test] / k, target[test])
    print(f"K = {k:.0f} centi-men; hand-made evaluation: loss {best:.5f} (train, results), "
          f"{_loss(base[test] / k, result[test]):.5f} (held out, results), "
          f"{held0:.5f} (held out, target)")
    a_train = inputs.matrix(train)
    a_test = inputs.matrix(test)
    tr_base, tr_target = base[train], target[train]
    seen = np.tile(np.bincount(cols[train].ravel(), minlength=inputs.n_params) > 0,
                   inputs.phases)

    def objective(theta: np.ndarray, penalty: float) -> tuple[float, np.ndarray]:
        # Minus the log posterior: the summed log loss (log(1 + e^z) - y z, written stably)
        # and a normal prior of spread ``prior`` on every weight.
        logit = (tr_base + a_train @ theta) / k
        loss = float(np.sum(np.logaddexp(0.0, logit) - tr_target * logit))
        grad = a_train.T @ ((_sigmoid(logit) - tr_target) / k)
        return loss + 0.5 * penalty * float(theta @ theta), grad + penalty * theta

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
    path = _write(v, patterns, best_theta, out, share, inputs.phases)
    print(f"wrote {path} ({n_params} weights, {int(seen.sum())} seen in training)")


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
    lp = sub.add_parser("label")
    lp.add_argument("variant")
    lp.add_argument("src")
    lp.add_argument("--out", required=True)
    lp.add_argument("--depth", type=int, default=7)
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
    args = p.parse_args(argv)
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
        if args.depth < 1 or args.every < 1:
            p.error("--depth and --every must be at least 1")
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
    try:
        if args.cmd == "selfplay":
            selfplay(args.variant, args.games, args.depth, args.out, args.seed, args.nodes,
                     opening)
        elif args.cmd == "fit-scores":
            fit_scores(args.variant, args.files, args.rows, damps, args.clip, args.out,
                       args.phases)
        elif args.cmd == "label":
            label(args.variant, args.src, args.out, args.depth, args.every,
                  (part[0], part[1]))
        else:
            fit(args.variant, args.files, priors, args.mix, args.iterations, args.out,
                args.rows, args.share, args.phases)
    except (OSError, ValueError) as exc:  # UnknownVariantError is a ValueError
        print(f"train_patterns: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
