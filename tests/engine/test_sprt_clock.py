"""``benchmarks/sprt_match.py --tc``: self-play of two builds on a game clock. The referee
charges each move's seconds to the mover's clock and ends the game on a flag fall by the
rules' flag result (:meth:`damiera.rules.game.Game.flag_fall`); a short real match records
each side's clock figures."""
from __future__ import annotations

import importlib
import json
import math
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

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
    # left after each move 0.5, 0.25, then 0.0: its time has run out on its third move, while
    # Black (who moves first in American and could still win) has time.
    score = sprt.play("american", write_fen(v, start_position(v)), slow, fast, 0, 0.0,
                      (1.0, 0.25))
    assert score == 0.0
    assert slow.flag_falls == 1 and fast.flag_falls == 0
    assert slow.seconds == [0.5] * 3 and len(fast.seconds) == 3
    assert slow.least_left == 0.0
    # Each move was asked with the mover's clock before it: seconds left and the increment.
    clocks = [r[4] for r in slow.requests if r[1]]
    assert clocks == [[1.0, 0.25], [0.75, 0.25], [0.5, 0.25]]


def test_a_clock_grown_past_the_engines_limit_is_offered_as_the_limit() -> None:
    sprt = _sprt_match()
    from damiera.engine.search import MAX_CLOCK
    from damiera.rules.position import start_position, write_fen
    from damiera.rules.variant import variant

    v = variant("american")
    white, black = ScriptedEngine(spent=0.01), ScriptedEngine(spent=0.01)
    sprt.play("american", write_fen(v, start_position(v)), white, black, 0, 0.0,
              (MAX_CLOCK, 10.0))
    offered = [r[4][0] for e in (white, black) for r in e.requests if r[1]]
    assert len(offered) > 4 and max(offered) == MAX_CLOCK  # grown by 9.99 s a move, capped
    assert white.flag_falls == black.flag_falls == 0


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
    assert summary["stopped"] is False


def test_an_infinite_elo_bound_is_written_as_null() -> None:
    sprt = _sprt_match()
    summary = sprt._finite({"elo_high": math.inf, "elo_low": -math.inf, "elo": math.nan,
                            "score": 1.0, "games": 2})
    assert summary == {"elo_high": None, "elo_low": None, "elo": None, "score": 1.0,
                       "games": 2}
    json.loads(json.dumps(summary), parse_constant=lambda name: pytest.fail(name))


def _children(pid: int) -> list[int]:
    found = []
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while listed
            continue
        if int(fields[1]) == pid:
            found.append(int(status.parent.name))
    return found


def test_sigterm_in_a_long_move_kills_the_engines_and_prints_the_summary() -> None:
    run = subprocess.Popen(
        [sys.executable, str(BENCHMARKS / "sprt_match.py"), "--new", SRC, "--base", SRC,
         "--variant", "international", "--tc", "3000", "--cpu-time", "--max-games", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while len(_children(run.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    engines = _children(run.pid)
    assert len(engines) == 2, "the engine processes did not start"
    time.sleep(1.0)  # the first move is being searched: a minute or more of a 3000 s clock
    run.send_signal(signal.SIGTERM)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    summary = json.loads(out.splitlines()[-1])
    assert summary["stopped"] is True and summary["games"] == 0
    assert "Traceback" not in err
    for pid in engines:  # killed and reaped: no orphan searching on
        assert not Path(f"/proc/{pid}").exists()
