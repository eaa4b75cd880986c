"""Train the pattern weights of the evaluation (``damiera.engine.patterns``) from self-play.

Two steps, each its own subcommand (run from the project root, with the venv's Python):

``selfplay VARIANT --games N --depth D --out FILE.npz [--seed S]``
    Plays N games of the engine against itself at a fixed depth, from openings of 6-12 random
    plies, and keeps every quiet position (side to move has no capture) after the opening:
    bitboards, side to move, the search's score (White's view, centi-men) and the game's
    result (+1 White won, 0 draw, -1 Black won; a game still going after 300 plies counts as
    a draw). Run several at once with different seeds to use every core.

``fit VARIANT FILE.npz [FILE.npz ...] [--rows 3] [--epochs 300] [--mix 0.5] [--rate 2]
[--l2 0] [--out FILE]``
    Fits the pattern weights by logistic regression (the "Texel" method): the probability
    that White wins is ``sigmoid((hand-made evaluation + pattern sum) / K)``, K fitted first
    on the hand-made evaluation alone; the target mixes the game result and the search score.
    Each colour-swapped, rotated window shares its weights (so the evaluation stays symmetric).
    Writes the weights file that :func:`damiera.engine.patterns.weights_path` names for the
    variant's rule parameters, and prints the loss on a held-out tenth of the games (whose
    results decide the epoch kept: early stopping instead of a weight penalty).

Needs numpy (``pip install numpy``; only this tool uses it).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from damiera.engine.evaluate import NO_MOVES, Evaluator
from damiera.engine.patterns import PatternSet, save_weights, weights_path
from damiera.engine.search import Searcher
from damiera.rules.game import Game
from damiera.rules.geometry import geometry
from damiera.rules.movegen import has_capture
from damiera.rules.position import Position
from damiera.rules.variant import Color
from damiera.rules.variant import variant as get_variant

MAX_PLIES = 300


def selfplay(variant_id: str, games: int, depth: int, out: str, seed: int) -> None:
    """Play ``games`` self-play games and save their quiet positions to ``out`` (.npz)."""
    v = get_variant(variant_id)
    rng = random.Random(seed)
    searcher = Searcher(v, tt_entries=400_000)
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    t0 = time.perf_counter()
    for g in range(games):
        game = Game(v)
        for _ in range(rng.randint(6, 12)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        first = len(rows)
        while not game.is_over and len(game.moves) < MAX_PLIES:
            pos = game.position
            res = searcher.search(pos, depth=depth, history=game.positions)
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
            _save(out, rows)
    _save(out, rows)


def _save(out: str, rows: list[tuple[int, int, int, int, int, int, int]]) -> None:
    arr = np.array(rows, dtype=np.int64).reshape(-1, 7)
    np.savez_compressed(out, white=arr[:, 0], black=arr[:, 1], kings=arr[:, 2],
                        turn=arr[:, 3], score=arr[:, 4], game=arr[:, 5], result=arr[:, 6])


def _load(files: list[str]) -> dict[str, np.ndarray]:
    keys = ("white", "black", "kings", "turn", "score", "game", "result")
    parts = []
    for f in files:
        try:
            part = np.load(f)
            parts.append({k: part[k] for k in keys})
        except (OSError, EOFError, KeyError, ValueError) as exc:
            raise ValueError(f"{f}: not a file written by `selfplay` ({exc})") from None
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


def _columns(patterns: PatternSet, wm: np.ndarray, bm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Parameter column and sign of every (position, window): shape (positions, windows)."""
    canon = {w: i for i, w in enumerate(patterns.canonical())}
    mirror = np.array(patterns.mirror(), dtype=np.int64)
    cols = np.empty((len(wm), len(patterns.windows)), dtype=np.int64)
    signs = np.empty((len(wm), len(patterns.windows)), dtype=np.float64)
    for w, squares in enumerate(patterns.squares):
        p = np.zeros(len(wm), dtype=np.int64)
        for k, s in enumerate(squares):
            p += 3**k * (((wm >> s) & 1) + 2 * ((bm >> s) & 1))
        if patterns.partner[w] == w:
            # Its own mirror image: t[p] = -t[mirror[p]], one parameter per pair.
            m = mirror[p]
            cols[:, w] = canon[w] * patterns.size + np.minimum(p, m)
            signs[:, w] = np.sign(m - p).astype(np.float64)
        elif w in canon:
            cols[:, w] = canon[w] * patterns.size + p
            signs[:, w] = 1.0
        else:
            cols[:, w] = canon[patterns.partner[w]] * patterns.size + mirror[p]
            signs[:, w] = -1.0
    return cols, signs


def _sigmoid(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-x))
    return out


def _loss(logit: np.ndarray, target: np.ndarray) -> float:
    p = np.clip(_sigmoid(logit), 1e-9, 1 - 1e-9)
    return float(-np.mean(target * np.log(p) + (1 - target) * np.log(1 - p)))


def fit(variant_id: str, files: list[str], epochs: int, l2: float, mix: float, rate: float,
        out: str | None, rows: int = 4) -> None:
    """Fit the pattern weights (see the module docstring) and write them."""
    v = get_variant(variant_id)
    data = _load(files)
    white, black, kings = data["white"], data["black"], data["kings"]
    evaluator = Evaluator(v, patterns=False)
    base = np.empty(len(white), dtype=np.float64)
    keep = np.ones(len(white), dtype=bool)
    for i in range(len(white)):
        turn = Color.WHITE if data["turn"][i] else Color.BLACK
        e = evaluator.evaluate(Position(int(white[i]), int(black[i]), int(kings[i]), turn))
        if e == NO_MOVES:
            keep[i] = False
            continue
        base[i] = e if turn is Color.WHITE else -e
    wm = white & ~kings
    bm = black & ~kings
    patterns = PatternSet(geometry(v), rows)
    cols, signs = _columns(patterns, wm, bm)
    result = (data["result"].astype(np.float64) + 1) / 2
    games = data["game"]
    held_out = games % 10 == 0
    train = keep & ~held_out
    test = keep & held_out
    print(f"{len(white)} positions, {len(np.unique(games))} games; "
          f"train {train.sum()}, held out {test.sum()}")
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
    print(f"K = {k:.0f} centi-men; hand-made evaluation: loss {best:.5f} (train), "
          f"{_loss(base[test] / k, result[test]):.5f} (held out, results)")
    n_params = len(patterns.canonical()) * patterns.size
    theta = np.zeros(n_params)
    m1 = np.zeros(n_params)
    m2 = np.zeros(n_params)
    tr_cols, tr_signs = cols[train], signs[train]
    tr_base, tr_target = base[train], target[train]
    te_cols, te_signs = cols[test], signs[test]
    counts = np.bincount(tr_cols.ravel(), minlength=n_params)
    # Early stopping: the weights with the lowest held-out loss are kept (epoch 0: none).
    best_held, best_epoch, best_theta = _loss(base[test] / k, result[test]), 0, theta.copy()
    for epoch in range(1, epochs + 1):
        logit = (tr_base + (theta[tr_cols] * tr_signs).sum(axis=1)) / k
        err = (_sigmoid(logit) - tr_target) / k
        grad = np.bincount(tr_cols.ravel(), weights=(tr_signs * err[:, None]).ravel(),
                           minlength=n_params) / len(tr_base) + l2 * theta
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        theta -= rate * (m1 / (1 - 0.9**epoch)) / (np.sqrt(m2 / (1 - 0.999**epoch)) + 1e-12)
        if epoch % 10 == 0 or epoch == epochs:
            te_logit = (base[test] + (theta[te_cols] * te_signs).sum(axis=1)) / k
            held = _loss(te_logit, result[test])
            if held < best_held:
                best_held, best_epoch, best_theta = held, epoch, theta.copy()
            if epoch % 50 == 0 or epoch == epochs:
                print(f"epoch {epoch}: train {_loss(logit, tr_target):.5f}, held out "
                      f"{held:.5f} (results), |w| max {np.abs(theta).max():.0f}, "
                      f"mean {np.abs(theta[counts > 0]).mean():.1f}", flush=True)
    print(f"kept epoch {best_epoch}: held out {best_held:.5f}"
          + (" (the patterns never beat the hand-made evaluation: all weights 0)"
             if best_epoch == 0 else ""))
    weights = np.clip(np.round(best_theta), -32768, 32767).astype(np.int64)
    tables = {w: weights[i * patterns.size:(i + 1) * patterns.size].tolist()
              for i, w in enumerate(patterns.canonical())}
    mirror = patterns.mirror()
    for w, t in tables.items():
        if patterns.partner[w] == w:
            tables[w] = [0 if mirror[q] == q else (t[q] if q < mirror[q] else -t[mirror[q]])
                         for q in range(patterns.size)]
    path = Path(out) if out else weights_path(v)
    save_weights(path, patterns, tables)
    print(f"wrote {path} ({n_params} weights, {int((counts > 0).sum())} seen in training)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("selfplay")
    sp.add_argument("variant")
    sp.add_argument("--games", type=int, default=1000)
    sp.add_argument("--depth", type=int, default=5)
    sp.add_argument("--out", required=True)
    sp.add_argument("--seed", type=int, default=1)
    fp = sub.add_parser("fit")
    fp.add_argument("variant")
    fp.add_argument("files", nargs="+")
    fp.add_argument("--epochs", type=int, default=300)
    fp.add_argument("--l2", type=float, default=0.0, help="weight penalty (0: early stopping)")
    fp.add_argument("--mix", type=float, default=0.5,
                    help="weight of the game result in the target (the rest: search score)")
    fp.add_argument("--rate", type=float, default=2.0, help="Adam step, centi-men")
    fp.add_argument("--rows", type=int, default=3, help="rows of a window (1-4)")
    fp.add_argument("--out", help="weights file (default: the package's file for the rules)")
    args = p.parse_args(argv)
    if args.cmd == "selfplay":
        if args.games < 1 or args.depth < 1:
            p.error("--games and --depth must be at least 1")
    elif not 1 <= args.rows <= 4 or args.epochs < 1 or not 0 <= args.mix <= 1:
        p.error("--rows must be 1-4, --epochs at least 1, --mix between 0 and 1")
    try:
        if args.cmd == "selfplay":
            selfplay(args.variant, args.games, args.depth, args.out, args.seed)
        else:
            fit(args.variant, args.files, args.epochs, args.l2, args.mix, args.rate, args.out,
                args.rows)
    except (OSError, ValueError) as exc:  # UnknownVariantError is a ValueError
        print(f"train_patterns: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
