"""King windows (csrc/eval.h, "King windows"; damiera.engine.patterns, version 5): windows whose
squares see men and kings, added by the evaluation only while a king is on the board; the
version 5 weights file that holds them; their fit (tools/king_window_fit.py,
``train_patterns.py fit --king-windows``) and benchmarks/king_windows_fit.py."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from damiera.engine import patterns as pat
from damiera.engine.evaluate import NO_MOVES, Evaluator
from damiera.engine.patterns import PatternSet
from damiera.rules.geometry import geometry
from damiera.rules.movegen import apply_move, generate
from damiera.rules.position import Position, start_position
from damiera.rules.variant import Color, variant
from tests.engine.test_patterns import _rotate

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "king_windows_fit.py"
TOOL = ROOT / "tools" / "train_patterns.py"
sys.path.insert(0, str(ROOT / "tools"))

from king_window_fit import canonical_tables, design


def _positions_with_kings(v, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = start_position(v)
        for _ in range(rng.randint(40, 140)):
            moves = generate(v, pos)
            if not moves:
                break
            pos = apply_move(pos, rng.choice(moves))
            if pos.kings and rng.random() < 0.3:
                out.append(pos)
    return out[:count]


def _columns(positions: list[Position]) -> dict[str, np.ndarray]:
    return {key: np.array([getattr(p, key) for p in positions], dtype=np.int64)
            for key in ("white", "black", "kings")}


def _random_king_tables(kings: PatternSet, seed: int) -> dict[int, list[int]]:
    """Random canonical tables the writer accepts (a window that is its own partner gets an
    antisymmetric one)."""
    rng = np.random.default_rng(seed)
    theta = rng.integers(-60, 61, len(kings.canonical()) * kings.size).astype(np.float64)
    return canonical_tables(kings, theta)


def _files(tmp_path, v, king_rows: int, seed: int = 1):
    """A version 4 file (zero men tables, one zero term) and the version 5 file that adds
    random king windows of ``king_rows`` rows to it; the king windows' canonical tables."""
    men = PatternSet(geometry(v), 2)
    zero = {w: [0] * men.size for w in men.canonical()}
    kings = PatternSet(geometry(v), king_rows, states=5)
    tables = _random_king_tables(kings, seed)
    plain, with_kings = tmp_path / "plain.bin", tmp_path / "kings.bin"
    pat.save_weights(plain, men, zero, key=pat.rules_key(v), terms=[0])
    pat.save_weights(with_kings, men, zero, key=pat.rules_key(v), terms=[0],
                     king_windows=(kings, tables))
    return plain, with_kings, kings, tables


def _reference(kings: PatternSet, tables: dict[int, list[int]], pos: Position) -> int:
    """The king windows' sum (White's view), window by window from the canonical tables."""
    mirror = kings.mirror()
    wk, bk = pos.white & pos.kings, pos.black & pos.kings
    wm, bm = pos.white & ~pos.kings, pos.black & ~pos.kings
    total = 0
    for w in range(len(kings.windows)):
        p = kings.pattern(w, wm, bm, wk, bk)
        partner = kings.partner[w]
        total += tables[w][p] if w <= partner else -tables[partner][mirror[p]]
    return total


def _may_hold_draw(v, pos: Position) -> bool:
    """Flying kings, a king's side against at most three pieces, or kings only: the score may
    then be divided as a whole (``holds_draw`` in csrc/eval.c), king windows with it."""
    white, black = pos.white.bit_count(), pos.black.bit_count()
    return v.flying_kings and (not (pos.white | pos.black) & ~pos.kings
            or (pos.white & pos.kings != 0 and black <= 3)
            or (pos.black & pos.kings != 0 and white <= 3))


@pytest.mark.parametrize("name,rows", [("american", 1), ("american", 2), ("american", 3),
                                       ("russian", 3), ("international", 2),
                                       ("international", 3)])
def test_the_evaluation_adds_the_king_windows_only_while_a_king_stands(tmp_path, name, rows):
    """Against the same file without them, the evaluation of a position with a king moves by
    the king windows' sum (counted here square by square, the side to move's view), and a
    position without a king does not move; the colour-swapped position scores the exact
    opposite."""
    v = variant(name)
    plain, with_kings, kings, tables = _files(tmp_path, v, rows)
    base, ev = Evaluator(v, weights=plain), Evaluator(v, weights=with_kings)
    assert ev.king_rows == rows and base.king_rows == 0
    checked = 0
    for pos in _positions_with_kings(v, 120, seed=rows):
        score = base.evaluate(pos)
        if score == NO_MOVES or _may_hold_draw(v, pos):
            continue
        sign = 1 if pos.turn is Color.WHITE else -1
        assert ev.evaluate(pos) - score == sign * _reference(kings, tables, pos)
        assert ev.evaluate(pos) == ev.evaluate(_rotate(v, pos))
        checked += 1
    assert checked > 60
    no_king = start_position(v)
    assert ev.evaluate(no_king) == base.evaluate(no_king)


def test_a_version_5_file_reads_back_every_king_window(tmp_path):
    v = variant("american")
    _, with_kings, kings, tables = _files(tmp_path, v, 3)
    assert with_kings.read_bytes().startswith(
        f"damiera-patterns 5 2 21 1 1 3 18 {pat.rules_key(v)} ".encode())
    rows, full = pat.read_king_windows(v, with_kings)
    mirror = kings.mirror()
    assert rows == 3 and len(full) == len(kings.windows) == 18
    for w, table in enumerate(full):
        partner = kings.partner[w]
        want = tables[w] if w <= partner else [-tables[partner][mirror[p]]
                                               for p in range(kings.size)]
        assert table == want
    assert pat.read_king_windows(v, tmp_path / "plain.bin") is None
    assert Evaluator(v, weights=with_kings).terms == (0,)


def test_the_writer_refuses_king_windows_it_could_not_read_back(tmp_path):
    v = variant("american")
    men = PatternSet(geometry(v), 2)
    zero = {w: [0] * men.size for w in men.canonical()}
    kings = PatternSet(geometry(v), 2, states=5)
    tables = _random_king_tables(kings, 3)
    path = tmp_path / "w.bin"
    key = pat.rules_key(v)
    with pytest.raises(ValueError, match="king windows are written with the learned terms"):
        pat.save_weights(path, men, zero, key=key, king_windows=(kings, tables))
    blind = PatternSet(geometry(v), 2)
    with pytest.raises(ValueError, match="windows of 5 states and 1-3 rows on the same board"):
        pat.save_weights(path, men, zero, key=key, terms=[1], king_windows=(blind, zero))
    other = PatternSet(geometry(variant("international")), 2, states=5)
    with pytest.raises(ValueError, match="on the same board"):
        pat.save_weights(path, men, zero, key=key, terms=[1],
                         king_windows=(other, _random_king_tables(other, 1)))
    middle = next(w for w in kings.canonical() if kings.partner[w] == w)
    broken = dict(tables)
    broken[middle] = [5] * kings.size
    with pytest.raises(ValueError, match=f"window {middle} is its own mirror image, its king "
                                         f"table is not its negated mirror"):
        pat.save_weights(path, men, zero, key=key, terms=[1], king_windows=(kings, broken))
    # A numpy int16 -32768 is its own negation: the check is made on the weights as written.
    broken[middle] = np.zeros(kings.size, dtype=np.int16)
    broken[middle][0] = -32768  # pattern 0, the empty window, is its own mirror
    with pytest.raises(ValueError, match=f"window {middle} is its own mirror image"):
        pat.save_weights(path, men, zero, key=key, terms=[1], king_windows=(kings, broken))
    assert not path.exists()
    with pytest.raises(ValueError, match="3 or 5 states"):
        PatternSet(geometry(v), 2, states=4)


def _version_5(path: Path, v, king_rows_word: str, king_windows_word: str, king_weights: int,
               king_tables: list[int] | None = None) -> None:
    men = PatternSet(geometry(v), 2)
    body_words = [0] * (len(men.canonical()) * men.size) + [7]
    body_words += king_tables if king_tables is not None else [0] * king_weights
    body = b"".join(int(w).to_bytes(2, "little", signed=True) for w in body_words)
    header = (f"damiera-patterns 5 2 21 1 1 {king_rows_word} {king_windows_word} "
              f"{pat.rules_key(v)} {zlib.crc32(body):08x}\n")
    path.write_bytes(header.encode() + body)


@pytest.mark.parametrize("rows_word,windows_word,weights,message", [
    ("4", "15", 0, "king windows of 4 rows, this engine reads 1 to 3"),
    ("0", "21", 0, "king windows of 0 rows, this engine reads 1 to 3"),
    ("x", "21", 0, "king windows of x rows, this engine reads 1 to 3"),
    ("2", "18", 11 * 625, "18 king windows do not fit this board (21 windows of 2 rows)"),
    ("2", "21", 11 * 625 - 1, "cut short"),
    ("2", "21", 11 * 625 + 1, "trailing data"),
])
def test_a_version_5_file_that_does_not_fit_is_refused_by_name(tmp_path, rows_word,
                                                                windows_word, weights, message):
    v = variant("american")
    path = tmp_path / "w.bin"
    _version_5(path, v, rows_word, windows_word, weights)
    with pytest.raises(ValueError, match=re.escape(message)):
        Evaluator(v, weights=path)
    _version_5(path, v, "2", "21", 11 * 625)
    assert Evaluator(v, weights=path).king_rows == 2


def test_a_version_5_file_with_a_broken_middle_king_window_or_damage_is_refused(tmp_path):
    v = variant("american")
    kings = PatternSet(geometry(v), 2, states=5)
    middle = kings.canonical().index(next(w for w in kings.canonical()
                                          if kings.partner[w] == w))
    flat = [0] * (len(kings.canonical()) * kings.size)
    flat[middle * kings.size + 1] = 9  # its mirror's entry stays 0, not -9
    path = tmp_path / "w.bin"
    _version_5(path, v, "2", "21", 0, flat)
    with pytest.raises(ValueError, match="is its own mirror image, its king table is not its "
                                         "negated mirror"):
        Evaluator(v, weights=path)
    _version_5(path, v, "2", "21", 11 * 625)
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="the file is damaged"):
        Evaluator(v, weights=path)


@pytest.mark.parametrize("name,rows,states", [("american", 2, 5), ("american", 3, 5),
                                              ("russian", 1, 5), ("american", 2, 3),
                                              ("international", 2, 5)])
def test_the_fit_s_design_changes_sign_with_the_colours(name, rows, states):
    """With any parameters, the design's sum for a position is the exact opposite of that of
    the board turned half a turn with the colours swapped, and with the tables the fit
    writes it is the evaluation's king-window sum."""
    v = variant(name)
    patterns = PatternSet(geometry(v), rows, states)
    positions = _positions_with_kings(v, 60, seed=11)
    rotated = [_rotate(v, p) for p in positions]
    at = np.arange(len(positions))
    matrix, n_params = design(_columns(positions), at, patterns)
    turned, _ = design(_columns(rotated), at, patterns)
    # Even whole weights: a middle window's written table, half its entry less half its
    # mirror's, is then whole too, so the design's sum and the tables' agree exactly.
    theta = 2 * np.random.default_rng(5).normal(0, 15, n_params).round()
    assert np.any(matrix @ theta != 0)
    assert np.allclose(matrix @ theta, -(turned @ theta))
    if states == 5:
        tables = canonical_tables(patterns, theta)
        assert np.allclose(matrix @ theta, [_reference(patterns, tables, p) for p in positions])


def test_only_five_states_see_the_kings():
    """A white king and a white man on the same square give different patterns with 5
    states, and with 3 the king reads as an empty square."""
    v = variant("american")
    turn = start_position(v).turn
    for states in (5, 3):
        patterns = PatternSet(geometry(v), 2, states)
        square = patterns.squares[0][0]
        man = Position(1 << square, 0, 0, turn)
        king = Position(1 << square, 0, 1 << square, turn)
        empty = Position(0, 0, 0, turn)
        matrix, _ = design(_columns([man, king, empty]), np.arange(3), patterns)
        rows = [tuple(matrix[i].indices) for i in range(3)]
        assert rows[0] != rows[1]
        assert (rows[1] == rows[2]) == (states == 3)


def _run(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), *args], capture_output=True,
                          text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("games") / "games.npz"
    done = _run(TOOL, "selfplay", "american", "--games", "40", "--depth", "2", "--seed", "3",
                "--out", str(data))
    assert done.returncode == 0, done.stderr
    return data


def test_fit_king_windows_writes_a_version_5_file_that_keeps_the_tables_and_terms(
        tmp_path, games):
    v = variant("american")
    men = PatternSet(geometry(v), 2)
    tables = {w: [0] * men.size for w in men.canonical()}
    base = tmp_path / "base.bin"
    pat.save_weights(base, men, tables, key=pat.rules_key(v), terms=[11, 22])
    out = tmp_path / "kings.bin"
    done = _run(TOOL, "fit", "american", str(games), "--king-windows", "2", "--tables",
                str(base), "--prior", "40", "--mix", "0", "--iterations", "60", "--out",
                str(out))
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stdout
    ev = Evaluator(v, weights=out)
    assert ev.king_rows == 2 and ev.terms == (11, 22)
    assert pat.read_weights_file(v, out) == pat.read_weights_file(v, base)
    assert any(any(t) for t in pat.read_king_windows(v, out)[1])
    again = _run(TOOL, "fit", "american", str(games), "--king-windows", "2", "--tables",
                 str(out), "--prior", "40", "--out", str(tmp_path / "x.bin"))
    assert again.returncode == 2 and "holds king windows already" in again.stderr
    # Nor are the terms fitted again on top of king windows (which would drop them).
    terms = _run(TOOL, "fit", "american", str(games), "--terms", "--tables", str(out),
                 "--out", str(tmp_path / "y.bin"))
    assert terms.returncode == 2 and "holds king windows, fitted on top of its terms" in \
        terms.stderr
    assert not (tmp_path / "x.bin").exists() and not (tmp_path / "y.bin").exists()


@pytest.mark.parametrize(("args", "message"), [
    (("--king-windows", "4", "--tables", "t.bin"), "--king-windows must be 1-3 rows"),
    (("--king-windows", "2"), "give --tables FILE, without --terms"),
    (("--king-windows", "2", "--tables", "t.bin", "--terms"), "without --terms"),
    (("--king-windows", "2", "--tables", "t.bin", "--prior", "10,20"), "takes one --prior"),
])
def test_fit_king_windows_refuses_impossible_arguments(args, message):
    done = _run(TOOL, "fit", "american", "x.npz", *args)
    assert done.returncode == 2 and message in done.stderr


@pytest.mark.parametrize(("args", "message"), [
    (("american", "x.npz"), "the following arguments are required: --tables"),
    (("american", "x.npz", "--rows", "4"), "--rows must be 1-3"),
    (("american", "x.npz", "--rows", "0"), "--rows must be 1-3"),
    (("american", "x.npz", "--states", "4"), "invalid choice: 4"),
    (("american", "x.npz", "--prior", "nan"), "--prior must be a number of centi-men above 0"),
    (("american", "x.npz", "--prior", "0"), "--prior must be a number of centi-men above 0"),
    (("american", "x.npz", "--iterations", "0"), "--iterations must be 1-10000"),
    (("american", "x.npz", "--tables", "/nonexistent"), "--tables /nonexistent: no such file"),
    (("bogus", "x.npz", "--prior", "1"), "unknown variant 'bogus'"),
    (("american", "/nonexistent.npz", "--prior", "1"), "/nonexistent.npz: no such file"),
])
def test_the_benchmark_refuses_impossible_arguments_before_any_fit(args, message, tmp_path):
    if "--tables" not in args and len(args) > 2:
        base = tmp_path / "base.bin"
        v = variant("american")
        men = PatternSet(geometry(v), 2)
        pat.save_weights(base, men, {w: [0] * men.size for w in men.canonical()},
                         key=pat.rules_key(v), terms=[1])
        args = (*args, "--tables", str(base))
    result = _run(BENCH, *args)
    assert result.returncode == 2 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_the_benchmark_reports_the_positions_with_a_king(games):
    stored = np.load(games)
    v = variant("american")
    evaluator = Evaluator(v)
    with_king = sum(
        1 for w, b, k, turn in zip(stored["white"], stored["black"], stored["kings"],
                                   stored["turn"])
        if k and evaluator.evaluate(Position(int(w), int(b), int(k),
                                             Color.WHITE if turn else Color.BLACK)) != NO_MOVES)
    assert 0 < with_king < len(stored["kings"])
    men = PatternSet(geometry(v), 2)
    base = games.with_name("base.bin")
    pat.save_weights(base, men, {w: [0] * men.size for w in men.canonical()},
                     key=pat.rules_key(v), terms=[1])
    result = _run(BENCH, "american", str(games), "--rows", "1", "--iterations", "20",
                  "--states", "3", "--tables", str(base))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"american: {len(stored['kings'])} positions, {with_king} with a "
                               f"king (")
    assert "1 rows, 3 states: " in lines[0]
    assert lines[1].startswith("held out, positions with a king, target: ")
    assert lines[2].startswith("held out, positions with a king, results: ")
    assert "wrote" not in result.stdout
