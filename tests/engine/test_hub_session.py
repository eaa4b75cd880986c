"""GUI-style Hub sessions against ``damiera hub`` as a real subprocess: ``ping`` and ``stop``
during a search, ``ponder-hit``, commands out of turn, Scan's variant names, bad input.

Only orders and counts are asserted (which answer comes before which, how many); the waits
are generous guards against a hung engine, never speed bounds. The stop latency is measured
in ``benchmarks/hub_bench.py``.
"""

from __future__ import annotations

import io
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from damiera.engine.hub import run
from damiera.engine.hub_protocol import MAX_LINE_BYTES, parse_line, read_lines
from damiera.engine.search import MAX_DEPTH

START_10 = "W" + "b" * 20 + "e" * 10 + "w" * 20
GUARD = 120.0  # seconds: only a hung engine takes this long


class Engine:
    """``damiera hub`` in a subprocess; lines read by a thread into a queue."""

    def __init__(self, env: dict[str, str] | None = None):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "damiera", "hub"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8").rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str | bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line if isinstance(line, bytes) else line.encode() + b"\n")
        self.proc.stdin.flush()

    def until(self, done: Callable[[str], bool]) -> list[str]:
        """Lines up to and including the first one ``done`` accepts."""
        got: list[str] = []
        while True:
            line = self.lines.get(timeout=GUARD)
            assert line is not None, f"the engine closed its output after {got}"
            got.append(line)
            self.seen.append(line)
            if done(line):
                return got

    def finish(self) -> tuple[int, str]:
        """Exit status and standard error after the input is closed."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(GUARD)
        assert self.proc.stderr is not None
        return code, self.proc.stderr.read().decode("utf-8", "replace")


@pytest.fixture
def engine() -> Iterator[Engine]:
    e = Engine()
    yield e
    if e.proc.poll() is None:
        e.proc.kill()
        e.proc.wait()


def _depth(line: str) -> int:
    return int(parse_line(line)[1]["depth"])


def test_analysis_answers_ping_while_searching_and_stop_with_done(engine: Engine) -> None:
    engine.send("hub")
    engine.until(lambda line: line == "wait")
    engine.send("init")
    engine.until(lambda line: line == "ready")
    engine.send(f"pos pos={START_10}")
    engine.send("level infinite")
    engine.send("go analyze")
    engine.until(lambda line: line.startswith("info depth=3 "))
    time.sleep(1.0)  # a GUI showing the analysis for a while (not a speed bound)
    engine.send("ping")
    # pong comes while the search goes on: no done before it.
    before_pong = engine.until(lambda line: line == "pong")
    assert not any(line.startswith("done") for line in before_pong)
    engine.send("stop")
    answer = engine.until(lambda line: line.startswith("done "))
    done = parse_line(answer[-1])[1]
    infos = [line for line in engine.seen if line.startswith("info ")]
    assert _depth(infos[-1]) < MAX_DEPTH  # stopped, not finished
    assert done["move"] == parse_line(infos[-1])[1]["pv"].split()[0]
    # The engine is ready for the next search, then leaves on quit.
    engine.send("level depth=2")
    engine.send("go think")
    engine.until(lambda line: line.startswith("done "))
    engine.send("ping")
    engine.until(lambda line: line == "pong")
    engine.send("quit")
    code, err = engine.finish()
    assert code == 0 and err == ""
    assert sum(line.startswith("done ") for line in engine.seen) == 2


def test_ponder_hit_turns_pondering_into_a_timed_search(engine: Engine) -> None:
    engine.send(f"pos pos={START_10}")
    engine.send("level move-time=0.3")
    engine.send("go ponder")
    engine.until(lambda line: line.startswith("info depth=2 "))
    engine.send("ping")  # still pondering: pong, no done
    assert not any(line.startswith("done") for line in engine.until(lambda x: x == "pong"))
    engine.send("ponder-hit")
    engine.until(lambda line: line.startswith("done move="))  # its clock ends it: no stop
    engine.send("quit")
    assert engine.finish() == (0, "")


def test_commands_out_of_turn_during_a_search_change_nothing(engine: Engine) -> None:
    engine.send(f"pos pos={START_10}")
    engine.send("level infinite")
    engine.send("go think")
    engine.until(lambda line: line.startswith("info depth=2 "))
    engine.send("set-param name=variant value=russian")
    error = engine.until(lambda line: line.startswith("error "))[-1]
    assert "during a search" in error
    engine.send("stop")
    engine.until(lambda line: line.startswith("done "))
    engine.send("level depth=1")
    engine.send("go think")  # still International: the refused set-param changed nothing
    done = engine.until(lambda line: line.startswith("done "))[-1]
    assert int(parse_line(done)[1]["move"].split("-")[0]) in range(31, 36)
    code, _ = engine.finish()
    assert code == 0


def test_end_of_input_during_a_search_stops_it_and_leaves(engine: Engine) -> None:
    engine.send(f"pos pos={START_10}")
    engine.send("level infinite")
    engine.send("go analyze")
    engine.until(lambda line: line.startswith("info depth=2 "))
    code, err = engine.finish()
    assert code == 0 and err == ""


def test_scan_variant_names_accepted_or_refused_by_name() -> None:
    out = io.StringIO()
    run(["hub", "set-param name=variant value=normal", "set-param name=variant value=killer",
         "set-param name=variant value=frisian", "set-param name=variant value=bt",
         "set-param name=variant value=losing", f"pos pos={START_10}", "quit"], out)
    lines = out.getvalue().splitlines()
    param = next(line for line in lines if line.startswith("param name=variant"))
    values = parse_line(param)[1]["values"].split()
    assert "normal" in values and "russian" in values and "killer" not in values
    assert "bt" in values and "losing" in values and "frisian" in values
    errors = [line for line in lines if line.startswith("error ")]
    assert len(errors) == 1  # killer; normal, bt, losing, frisian and the position are taken
    assert any("variant killer (Killer draughts" in e and "not supported" in e for e in errors)


@pytest.mark.parametrize(("name", "fen", "best"), [
    ("bt", "W:W6:B45", "6-1"),                  # the first king wins at once
    ("losing", "W:W28,33:B19,10", "28-23"),     # gives its men away
    ("russian+losing", "W:Wc3,g3:Bd6", None),   # any Damiera id with its options
    ("frisian", "W:W28:BK29,22", "28x30x29"),   # Frisian: the king is worth more
])
def test_scan_bt_and_losing_play_international_with_that_goal(
        name: str, fen: str, best: str | None) -> None:
    from damiera.engine.hub_protocol import SCAN_VARIANTS, position_string
    from damiera.rules.position import parse_fen
    from damiera.rules.variant import variant

    v = variant(SCAN_VARIANTS.get(name) or name)
    out = io.StringIO()
    run([f"set-param name=variant value={name}", f"pos pos={position_string(v, parse_fen(v, fen))}",
         "level depth=4", "go think", "quit"], out)
    lines = out.getvalue().splitlines()
    assert not [line for line in lines if line.startswith("error ")]
    done = next(line for line in lines if line.startswith("done "))
    if best is not None:
        assert parse_line(done)[1]["move"] == best


def test_end_of_input_in_process_stops_an_infinite_search_with_one_done() -> None:
    out = io.StringIO()
    run([f"pos pos={START_10}", "level infinite", "go analyze"], out)
    assert sum(line.startswith("done move=") for line in out.getvalue().splitlines()) == 1


def test_non_utf8_input_answers_an_error_and_the_engine_goes_on() -> None:
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict", LC_ALL="C.UTF-8")
    e = Engine(env)
    e.send(b"\xff\xfe ping \xc3\n")
    e.send("ping")
    got = e.until(lambda line: line == "pong")
    assert len(got) == 2 and got[0].startswith("error ") and "not UTF-8" in got[0]
    e.send("quit")
    assert e.finish() == (0, "")


def test_an_overlong_line_is_refused_whole_and_the_next_one_answered() -> None:
    e = Engine()
    e.send(b"pos pos=" + b" " * (3 * MAX_LINE_BYTES) + b"x\n")
    e.send("ping")
    got = e.until(lambda line: line == "pong")
    assert len(got) == 2 and "longer than" in got[0]
    e.send("quit")
    assert e.finish() == (0, "")


def test_line_reader_bounds_every_line() -> None:
    data = b"a" * (MAX_LINE_BYTES + 5) + b"\nping\r\n" + b"b" * MAX_LINE_BYTES + b"\n\xff\n"
    got = list(read_lines(io.BytesIO(data)))
    assert isinstance(got[0], ValueError) and "longer than" in str(got[0])
    assert got[1] == "ping" and got[2] == "b" * MAX_LINE_BYTES
    assert isinstance(got[3], ValueError) and "not UTF-8" in str(got[3])


def test_line_reader_counts_no_end_of_line_lf_or_crlf() -> None:
    longest, longer = b"c" * MAX_LINE_BYTES, b"d" * (MAX_LINE_BYTES + 1)
    for end in (b"\n", b"\r\n"):
        got = list(read_lines(io.BytesIO(longest + end + longer + end + b"ping" + end)))
        assert got[0] == "c" * MAX_LINE_BYTES, end
        assert isinstance(got[1], ValueError) and "longer than" in str(got[1])
        assert got[2] == "ping"
    # the last line without an end of line, at and over the bound
    assert list(read_lines(io.BytesIO(longest))) == ["c" * MAX_LINE_BYTES]
    over = list(read_lines(io.BytesIO(longer)))
    assert len(over) == 1 and isinstance(over[0], ValueError)


def _traced_lines(line: str) -> int:
    """Python lines run by parse_line (the scanning is in Python: a count of its work)."""
    count = 0

    def tracer(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        parse_line(line)
    finally:
        sys.settrace(None)
    return count


def test_line_parser_work_is_linear_in_the_line() -> None:
    # Runs of spaces, long words and long quoted values (the old shlex parser built each
    # token a character at a time: a 300 KB line took 4.4 s). Each word is cut out once.
    for filler in (" ", "W"):
        small = "pos pos=W" + filler * 1_000 + ' moves="' + "32-28 " * 10 + '"'
        large = "pos pos=W" + filler * 58_000 + ' moves="' + "32-28 " * 640 + '"'
        ratio = len(large) / len(small)
        assert _traced_lines(large) <= 1.5 * ratio * _traced_lines(small)
        assert parse_line(large)[1]["moves"].split() == ["32-28"] * 640


def test_pydraughts_hub_client_plays_against_damiera_hub() -> None:
    # An independent Hub client: pydraughts' HubEngine (it runs the command through a shell
    # after resolving its first word's real path, so the venv's console script is given).
    draughts = pytest.importorskip("draughts")
    if not hasattr(draughts, "Board"):
        pytest.skip("the installed 'draughts' package is not pydraughts")
    from draughts.engine import HubEngine, Limit  # type: ignore[import-untyped]

    script = os.path.join(os.path.dirname(sys.executable), "damiera")
    if not os.path.isfile(script):
        pytest.skip("no damiera console script beside the interpreter")
    engine = HubEngine([script, "hub"])
    try:
        assert engine.id["name"] == "Damiera" and "normal" in engine.variants
        engine.init()
        board = draughts.Board()
        while len(board.move_stack) < 8:
            if len(board.move_stack) % 2 == 0:
                limit = Limit(movetime=0.05) if len(board.move_stack) < 4 else Limit(depth=2)
                played = engine.play(board, limit, False).move
            else:
                played = board.legal_moves()[0]
            assert played.board_move in [m.board_move for m in board.legal_moves()]
            board.push(played)
            engine.ping()
        assert engine.info["depth"] == 2  # the last search: level depth=2
        engine.quit()
        assert engine.p.wait(GUARD) == 0
    finally:
        if engine.p.poll() is None:
            engine.kill_process()


def test_pydraughts_hub_client_plays_a_whole_game_at_a_node_budget() -> None:
    # pydraughts' HubEngine sends "level nodes=N" for Limit(nodes=N) and reads a score
    # beyond 90 men as a win in (10000 - 100 * score) plies: Damiera plays White to the end
    # against pydraughts' first legal move, and its last searches see the win coming.
    draughts = pytest.importorskip("draughts")
    if not hasattr(draughts, "Board"):
        pytest.skip("the installed 'draughts' package is not pydraughts")
    from draughts.engine import HubEngine, Limit

    script = os.path.join(os.path.dirname(sys.executable), "damiera")
    if not os.path.isfile(script):
        pytest.skip("no damiera console script beside the interpreter")
    budget = 2000
    engine = HubEngine([script, "hub"])
    try:
        engine.init()
        board = draughts.Board()
        scores = []
        while not board.is_over() and len(board.move_stack) < 400:
            if len(board.move_stack) % 2 == 0:
                played = engine.play(board, Limit(nodes=budget), False).move
                assert engine.info["nodes"] < budget + 256  # checked every 256 nodes
                scores.append(engine.info["score"])
            else:
                played = board.legal_moves()[0]
            assert played.board_move in [m.board_move for m in board.legal_moves()]
            board.push(played)
        assert board.is_over() and board.winner() == draughts.WHITE
        wins = [s["win"] for s in scores if "win" in s]
        assert wins and wins[-1] == 1  # the last move wins at once
        engine.quit()
        assert engine.p.wait(GUARD) == 0
    finally:
        if engine.p.poll() is None:
            engine.kill_process()
