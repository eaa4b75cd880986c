"""``benchmarks/sprt_match.py --tc``: self-play of two builds on a game clock. The referee
charges each move's seconds to the mover's clock and ends the game on a flag fall by the
rules' flag result (:meth:`damiera.rules.game.Game.flag_fall`); a short real match records
each side's clock figures."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SRC = str(BENCHMARKS.parent / "src")


def _sprt_match() -> Any:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))  # sprt_match imports json_lines by name
    return importlib.import_module("sprt_match")


class ScriptedEngine:
    """Stands in for a build's player process: plays the first legal move and says it
    took ``spent`` seconds; keeps the requests it was sent."""

    def __init__(self, spent: float) -> None:
        self.spent = spent
        self.requests: list[list[Any]] = []
        self.depths: list[int] = []
        self.seconds: list[float] = []
        self.flag_falls = 0
        self.least_left: float | None = None

    def ask(self, request: list[Any]) -> Any:
        from damiera.rules.movegen import generate
        from damiera.rules.notation import move_text
        from damiera.rules.position import parse_fen
        from damiera.rules.variant import variant

        self.requests.append(request)
        vid, fens = request[0], request[1]
        if not fens:
            return []
        v = variant(vid)
        move = generate(v, parse_fen(v, fens[-1]))[0]
        return [move_text(v, move), 1, self.spent]


def test_a_clock_running_out_loses_the_game_on_time() -> None:
    sprt = _sprt_match()
    from damiera.rules.position import start_position, write_fen
    from damiera.rules.variant import variant

    v = variant("american")
    slow, fast = ScriptedEngine(spent=0.5), ScriptedEngine(spent=0.01)
    # White spends 0.5 s a move on a 1 s clock with 0.25 s added (binary fractions: exact):
    # left after each move 0.5, 0.25, 0.0 (not yet fallen), then -0.25: its flag falls on its
    # fourth move, while Black (who moves first in American and could still win) has time.
    score = sprt.play("american", write_fen(v, start_position(v)), slow, fast, 0, 0.0,
                      (1.0, 0.25))
    assert score == 0.0
    assert slow.flag_falls == 1 and fast.flag_falls == 0
    assert slow.seconds == [0.5] * 4 and len(fast.seconds) == 4
    assert slow.least_left == -0.25
    # Each move was asked with the mover's clock before it: seconds left and the increment.
    clocks = [r[4] for r in slow.requests if r[1]]
    assert clocks == [[1.0, 0.25], [0.75, 0.25], [0.5, 0.25], [0.25, 0.25]]


def test_a_short_match_on_a_game_clock_reports_each_sides_time() -> None:
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "sprt_match.py"), "--new", SRC, "--base", SRC,
         "--variant", "american", "--tc", "1+0.01", "--cpu-time", "--max-games", "2",
         "--seed", "3"],
        capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.splitlines()[-1])
    assert summary["games"] == 2 and summary["nodes"] is None
    assert (summary["clock"], summary["increment"], summary["cpu_time"]) == (1.0, 0.01, True)
    for side in ("new", "base"):
        assert 0 < summary[f"seconds_{side}"] < 1.0
        assert summary[f"flag_falls_{side}"] in (0, 1)
        assert summary[f"least_left_{side}"] is not None
    assert "seconds a move new" in result.stdout
