"""benchmarks/king_windows_fit.py: the windows that see kings are colour-symmetric as the
men's are, the script refuses impossible arguments at once, and it reports its fit."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from damiera.engine.evaluate import NO_MOVES, Evaluator
from damiera.engine.patterns import PatternSet
from damiera.rules.geometry import geometry
from damiera.rules.movegen import apply_move, generate
from damiera.rules.position import Position, start_position
from damiera.rules.variant import Color, variant
from tests.engine.test_patterns import _rotate

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "king_windows_fit.py"
TOOL = ROOT / "tools" / "train_patterns.py"


def _module():
    spec = importlib.util.spec_from_file_location("king_windows_fit", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _columns(positions: list[Position]) -> dict[str, np.ndarray]:
    return {key: np.array([getattr(p, key) for p in positions], dtype=np.int64)
            for key in ("white", "black", "kings")}


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
            if pos.kings:
                out.append(pos)
    return out[:count]


@pytest.mark.parametrize("name,rows,states", [("american", 2, 5), ("american", 3, 5),
                                              ("russian", 1, 5), ("american", 2, 3),
                                              ("international", 2, 5)])
def test_a_king_window_score_changes_sign_with_the_colours(name, rows, states):
    """With any table weights, the king windows' sum of a position is the exact opposite of
    that of the board turned half a turn with the colours swapped (the partner windows share
    one table, negated, and a window that is its own partner is antisymmetric)."""
    kwf = _module()
    v = variant(name)
    patterns = PatternSet(geometry(v), rows)
    positions = _positions_with_kings(v, 60, seed=11)
    rotated = [_rotate(v, p) for p in positions]
    at = np.arange(len(positions))
    matrix, n_params = kwf._design(_columns(positions), at, patterns, states)
    turned, _ = kwf._design(_columns(rotated), at, patterns, states)
    theta = np.random.default_rng(5).normal(0, 30, n_params)
    assert np.any(matrix @ theta != 0)
    assert np.allclose(matrix @ theta, -(turned @ theta))


def test_the_states_see_kings_only_with_five():
    """A white king and a white man on the same square give different patterns with 5
    states and the same one (the king read as empty, the man as a man) with 3."""
    kwf = _module()
    v = variant("american")
    geo = geometry(v)
    patterns = PatternSet(geo, 2)
    square = patterns.squares[0][0]
    man = Position(1 << square, 0, 0, start_position(v).turn)
    king = Position(1 << square, 0, 1 << square, start_position(v).turn)
    empty = Position(0, 0, 0, start_position(v).turn)
    at = np.arange(3)
    for states, king_reads_as in ((5, None), (3, "empty")):
        matrix, _ = kwf._design(_columns([man, king, empty]), at, patterns, states)
        rows = [tuple(matrix[i].indices) for i in range(3)]
        assert rows[0] != rows[1]
        assert (rows[1] == rows[2]) == (king_reads_as == "empty")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, check=False)


@pytest.mark.parametrize(("args", "message"), [
    (("american", "x.npz", "--rows", "4"), "--rows must be 1-3"),
    (("american", "x.npz", "--rows", "0"), "--rows must be 1-3"),
    (("american", "x.npz", "--states", "4"), "invalid choice: 4"),
    (("american", "x.npz", "--prior", "nan"), "--prior must be a number of centi-men above 0"),
    (("american", "x.npz", "--prior", "0"), "--prior must be a number of centi-men above 0"),
    (("american", "x.npz", "--iterations", "0"), "--iterations must be 1-10000"),
    (("american", "x.npz", "--tables", "/nonexistent"), "--tables /nonexistent: no such file"),
    (("bogus", "x.npz"), "unknown variant 'bogus'"),
    (("american", "/nonexistent.npz"), "/nonexistent.npz: no such file"),
])
def test_impossible_arguments_are_refused_before_any_fit(args, message):
    result = run(*args)
    assert result.returncode == 2 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_the_report_counts_the_positions_with_a_king(tmp_path):
    data = tmp_path / "games.npz"
    done = subprocess.run([sys.executable, str(TOOL), "selfplay", "american", "--games", "12",
                           "--depth", "2", "--seed", "3", "--out", str(data)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    stored = np.load(data)
    american, evaluator = variant("american"), Evaluator(variant("american"))
    with_king = sum(
        1 for w, b, k, turn in zip(stored["white"], stored["black"], stored["kings"],
                                   stored["turn"])
        if k and evaluator.evaluate(Position(int(w), int(b), int(k),
                                             Color.WHITE if turn else Color.BLACK)) != NO_MOVES)
    assert 0 < with_king < len(stored["kings"])
    result = run(american.id, str(data), "--rows", "1", "--iterations", "20")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"american: {len(stored['kings'])} positions, {with_king} with a "
                               f"king (")
    assert "1 rows, 5 states: " in lines[0]
    assert lines[1].startswith("held out, positions with a king, target: ")
    assert lines[2].startswith("held out, positions with a king, results: ")
