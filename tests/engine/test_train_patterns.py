"""tools/train_patterns.py end to end on a tiny run: self-play, fit, a weights file that loads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from damiera.engine import patterns as pat
from damiera.engine.evaluate import Evaluator
from damiera.rules.position import start_position
from damiera.rules.variant import variant

pytest.importorskip("numpy")

TOOL = Path(__file__).resolve().parents[2] / "tools" / "train_patterns.py"


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          check=False,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_selfplay_then_fit_writes_weights_the_evaluator_loads(tmp_path, monkeypatch):
    data = tmp_path / "games.npz"
    _run("selfplay", "russian", "--games", "12", "--depth", "1", "--out", str(data))
    out = tmp_path / "w.bin"
    report = _run("fit", "russian", str(data), "--epochs", "5", "--out", str(out))
    assert "held out" in report and "wrote" in report
    russian = variant("russian")
    monkeypatch.setattr(pat, "_DIR", tmp_path)
    out.rename(pat.weights_path(russian))
    loaded = pat.load_weights(russian)
    assert loaded is not None
    rows, tables = loaded
    assert rows == 4 and len(tables) == 15
    assert any(any(t) for t in tables)  # five Adam steps move some weights off zero
    Evaluator(russian).evaluate(start_position(russian))
