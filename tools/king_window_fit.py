"""Fitting the king windows (``damiera.engine.patterns``, version 5): window tables whose
squares have five states (empty, white man, black man, white king, black king), which the
evaluation adds only while a king is on the board.

They are fitted on top of a fixed evaluation, the tables and learned terms of a weights file
(``train_patterns.py fit --king-windows ROWS --tables FILE``), in the positions that hold a
king: the logistic fit of ``fit`` (every tenth game held out, the scale K fitted to the
training games' results, the target ``mix`` of the result and the rest the search's score
over K, a Gaussian prior of ``prior`` centi-men a weight, L-BFGS). A window and its image
under the half turn with colours swapped share one table, negated (each position's row of
the design adds the canonical table's entry, negated and mirrored for a partner; a window
that is its own partner adds half its entry and half the negated mirror's, so that its
table comes out antisymmetric).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from pattern_fit import _hand_made, _loss, _scale_and_target, _weights_out, logistic_fit
from pattern_positions import load_positions

from damiera.engine.evaluate import Evaluator
from damiera.engine.patterns import (
    PatternSet,
    read_king_windows,
    read_weights_file,
    rules_key,
    save_weights,
)
from damiera.rules.geometry import geometry
from damiera.rules.variant import variant as get_variant


def design(data: dict[str, np.ndarray], rows_at: np.ndarray, patterns: PatternSet
           ) -> tuple[Any, int]:
    """The sparse design matrix (the positions ``rows_at`` of ``data`` x parameters) of the
    windows ``patterns`` (3 or 5 states), and its number of parameters: the canonical
    windows' tables one after the other."""
    from scipy import sparse

    white, black, kings = (data[k].astype(np.uint64)[rows_at]
                           for k in ("white", "black", "kings"))
    states, size = patterns.states, patterns.size
    mirror = np.array(patterns.mirror(), dtype=np.int64)
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


def canonical_tables(patterns: PatternSet, theta: np.ndarray) -> dict[int, list[int]]:
    """The canonical windows' tables of the fitted parameters ``theta`` (rounded to whole
    centi-men, within -32767..32767): a window that is its own partner gets the table the
    design scores it with, half its entry less half its mirror's."""
    mirror = np.array(patterns.mirror(), dtype=np.int64)
    out = {}
    for i, w in enumerate(patterns.canonical()):
        t = theta[i * patterns.size:(i + 1) * patterns.size]
        if patterns.partner[w] == w:
            t = 0.5 * (t - t[mirror])
        out[w] = np.clip(np.round(t), -32767, 32767).astype(np.int64).tolist()
    return out


def fit_king_windows(variant_id: str, files: list[str], tables_file: str, rows: int,
                     prior: float, mix: float, iterations: int, out: str | None,
                     states: int = 5, write: bool = True) -> tuple[float, float]:
    """Fit king windows of ``rows`` rows (``states`` 3: kings read as empty, the control of
    ``benchmarks/king_windows_fit.py``) on top of ``tables_file``'s evaluation and, with
    ``write``, write its tables, its learned terms and the king windows as one version 5 file
    (``out``, default the package's file for the rules) when they predict the held-out games
    better. Returns the held-out loss of the positions with a king against the target, before
    and after. Raises ValueError for a file that holds king windows already or weighs no
    learned terms, or too few games."""
    v = get_variant(variant_id)
    if write and states != 5:
        raise ValueError("a weights file holds king windows of 5 states")
    written = _weights_out(v, out) if write else None
    path = Path(tables_file)
    if read_king_windows(v, path) is not None:
        raise ValueError(f"{tables_file} holds king windows already: fit on top of a file "
                         f"without them")
    evaluator = Evaluator(v, weights=path)
    if write and not evaluator.terms:
        raise ValueError(f"{tables_file} weighs no learned terms: a file with king windows "
                         f"holds them (fit --terms first)")
    data = load_positions(files, v)
    base, keep, _ = _hand_made(v, data, False, evaluator)
    held_out = data["game"] % 10 == 0
    result = (data["result"].astype(np.float64) + 1) / 2
    k, _, target = _scale_and_target(data, base, result, keep & ~held_out, mix)
    rows_at = np.nonzero(keep & (data["kings"] != 0))[0]
    patterns = PatternSet(geometry(v), rows, states)
    matrix, n_params = design(data, rows_at, patterns)
    train, test = ~held_out[rows_at], held_out[rows_at]
    if not train.any() or not test.any():
        raise ValueError("too few games with a king: every tenth game is held out, and both "
                         "the training and the held-out games need positions with a king")
    b, t, res = base[rows_at], target[rows_at], result[rows_at]
    m_train, m_test = matrix[train], matrix[test]
    theta = logistic_fit(b[train], m_train, t[train], k, prior, iterations)
    before, after = b[test] / k, (b[test] + m_test @ theta) / k
    share = int(test.sum()) / int((keep & held_out).sum())
    seen = int((np.asarray(abs(m_train).sum(axis=0)).ravel() > 0).sum())
    print(f"{v.id}: {len(base)} positions, {len(rows_at)} with a king "
          f"({int(test.sum())} of them held out); {len(patterns.windows)} windows of {rows} "
          f"rows, {states} states: {n_params} weights, {seen} seen; K = {k:.0f} centi-men, "
          f"prior {prior:g}")
    losses = {}
    for name, goal in (("target", t[test]), ("results", res[test])):
        lo0, lo1 = _loss(before, goal), _loss(after, goal)
        losses[name] = (lo0, lo1)
        print(f"held out, positions with a king, {name}: {lo0:.5f} -> {lo1:.5f}; "
              f"over all held-out positions {(lo1 - lo0) * share:+.5f}")
    if written is None:
        return losses["target"]
    if losses["target"][1] >= losses["target"][0]:
        print("the king windows did not beat the file alone on the held-out games: nothing "
              "written")
        return losses["target"]
    file_rows, window_tables = read_weights_file(v, path)
    men = PatternSet(geometry(v), file_rows)
    phases = len(window_tables) // len(men.windows)
    sets = [{w: window_tables[phase * len(men.windows) + w] for w in men.canonical()}
            for phase in range(phases)]
    save_weights(written, men, sets[0], sets[1] if phases == 2 else None, key=rules_key(v),
                 terms=list(evaluator.terms),
                 king_windows=(patterns, canonical_tables(patterns, theta)))
    print(f"wrote {written} (the tables and terms of {tables_file} and king windows of "
          f"{rows} rows)")
    return losses["target"]
