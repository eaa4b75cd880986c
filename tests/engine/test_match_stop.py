"""A match stopped before its last game (Ctrl-C, SIGTERM) scores the games finished so far:
:class:`~damiera.engine.match.MatchStopped` in the library, and in ``damiera match`` the
summary marked ``stopped after K of N games`` (``--json``: ``"stopped"``, ``"played"``) with
exit status 130 or 143."""

from __future__ import annotations

import json
import os
import pickle
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from damiera.cli import main
from damiera.engine import match
from damiera.engine.match import GameRecord, MatchStopped, run_match
from damiera.rules.variant import variant

#: The keys of a finished match's --json line: a contract, kept in a stopped one.
JSON_KEYS = [
    "variant", "first", "second", "games", "wins", "draws", "losses", "score", "elo",
    "elo_low", "elo_high", "elo_error", "movetime", "cpu_time", "clock", "increment",
    "first_cpu_mean", "first_cpu_max", "second_cpu_mean", "second_cpu_max",
    "first_flag_falls", "second_flag_falls", "first_least_left", "second_least_left",
    "pairs", "pair_elo_low", "pair_elo_high",
]


def _stop_after(monkeypatch: pytest.MonkeyPatch, results: list[int], stop: object) -> None:
    """Games end with White's ``results`` in turn (instantly, no search); the game after
    them calls ``stop()`` (which raises or sends a signal) instead of ending."""
    played = iter(results)

    def job(task: match._Task) -> GameRecord:
        for result in played:
            record = GameRecord(task.fen, task.white, task.black, result, "no legal move", 10)
            record.white_time.cpu.append(0.25)
            record.black_time.cpu.append(0.5)
            return record
        stop()  # type: ignore[operator]
        raise AssertionError("stop() returns only after the match was told to stop")

    monkeypatch.setattr(match, "_game_job", job)


def _interrupt() -> None:
    raise KeyboardInterrupt


def test_a_stopped_match_scores_the_games_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    # White wins twice, then a draw: first (White in even games) +1 =1 -1.
    _stop_after(monkeypatch, [1, 1, 0], _interrupt)
    with pytest.raises(MatchStopped) as stopped:
        run_match(variant("american"), "1", "random", 10, movetime=0.01)
    assert isinstance(stopped.value, KeyboardInterrupt)  # code stopping on Ctrl-C still does
    result = stopped.value.result
    assert (result.games, result.played, result.stopped) == (10, 3, True)
    assert (result.wins, result.draws, result.losses) == (1, 1, 1)
    assert result.score == 0.5 and result.elo == 0.0 and result.elo_low < 0 < result.elo_high
    assert result.first_cpu_mean == round((0.25 * 2 + 0.5) / 3, 4)  # White, Black, White
    assert list(stopped.value.finished) == [0, 1, 2]
    data = result.as_dict()
    assert list(data) == [*JSON_KEYS, "stopped", "played"]
    assert data["stopped"] is True and data["played"] == 3
    assert "stopped after 3 of 10 games" in result.summary()


def test_a_stopped_match_survives_pickling_as_a_process_pool_sends_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _stop_after(monkeypatch, [1, 0], _interrupt)
    with pytest.raises(MatchStopped) as stopped:
        run_match(variant("american"), "1", "random", 4, movetime=0.01)
    copy = pickle.loads(pickle.dumps(stopped.value))
    assert isinstance(copy, MatchStopped)
    assert copy.result == stopped.value.result and list(copy.finished) == [0, 1]
    assert str(copy) == str(stopped.value)


def test_a_match_stopped_before_any_game_ends_has_no_score(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _stop_after(monkeypatch, [], _interrupt)
    with pytest.raises(MatchStopped) as stopped:
        run_match(variant("american"), "1", "random", 4)
    result = stopped.value.result
    assert (result.played, result.wins, result.draws, result.losses) == (0, 0, 0, 0)
    data = result.as_dict()
    assert data["score"] is data["elo"] is data["elo_low"] is data["elo_high"] is None
    assert result.summary().endswith("stopped after 0 of 4 games): no game finished, no score")


def test_a_finished_match_has_no_stop_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    _stop_after(monkeypatch, [1, 1], _interrupt)
    result, records = run_match(variant("american"), "1", "random", 2)
    assert list(result.as_dict()) == JSON_KEYS and not result.stopped
    assert len(records) == 2 and "stopped" not in result.summary()


def test_cli_match_stopped_by_sigterm_prints_the_games_so_far(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    before, before_int = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    _stop_after(monkeypatch, [-1, 0], lambda: os.kill(os.getpid(), signal.SIGTERM))
    pdn = tmp_path / "games.pdn"
    code = main(["match", "american", "--first", "1", "--second", "random", "--games", "6",
                 "--movetime", "0.01", "--json", "--quiet", "--pdn", str(pdn)])
    assert code == 143
    assert signal.getsignal(signal.SIGTERM) == before  # put back
    assert signal.getsignal(signal.SIGINT) == before_int
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("1 vs random in American checkers, stopped after 2 of 6 games at "
                        "0.01 s a move")
    assert lines[1].startswith("wins 0  draws 1  losses 1  score 25.0%")
    data = json.loads(lines[-1])
    assert data["stopped"] is True and data["played"] == 2 and data["games"] == 6
    assert list(data)[:len(JSON_KEYS)] == JSON_KEYS


def test_cli_match_stopped_before_a_game_ends_says_so(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _stop_after(monkeypatch, [], _interrupt)
    code = main(["match", "american", "--first", "1", "--second", "random", "--games", "6",
                 "--json", "--quiet"])
    assert code == 130
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1 vs random in American checkers, stopped after 0 of 6 games"
    assert lines[1] == "no game finished: no score"
    data = json.loads(lines[2])
    assert data["played"] == 0 and data["wins"] == 0 and data["score"] is None


# -- a real match in a process of its own, stopped by a real signal ---------------------------
_GAME_ENDS = re.compile(r"(1-0|0-1|1/2-1/2)\s*$")


def _stop_a_running_match(tmp_path: Path, jobs: int, sig: int) -> tuple[int, str, str, int]:
    """Start ``damiera match`` of level 1 against random (far more games than it plays before
    the signal), wait until the PDN file holds a finished game, send ``sig``; its status,
    stdout, stderr, and the number of games in the PDN file."""
    pdn = tmp_path / "games.pdn"
    proc = subprocess.Popen(
        [sys.executable, "-m", "damiera", "match", "american", "--first", "1", "--second",
         "random", "--games", "100000", "--movetime", "0.01", "--jobs", str(jobs), "--json",
         "--quiet", "--pdn", str(pdn)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300  # a bound for a broken match, not a wait
        while not (pdn.exists() and _GAME_ENDS.search(pdn.read_text())):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no game finished"
            time.sleep(0.01)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err, pdn.read_text().count("[Event ")


@pytest.mark.parametrize(("jobs", "sig", "status"), [
    (1, signal.SIGINT, 130), (1, signal.SIGTERM, 143), (2, signal.SIGTERM, 143),
    (2, signal.SIGINT, 130), (1, signal.SIGHUP, 129)])
@pytest.mark.usefixtures("default_sighup")
def test_a_signalled_match_prints_the_games_in_its_pdn(
        tmp_path: Path, jobs: int, sig: int, status: int) -> None:
    code, out, err, in_pdn = _stop_a_running_match(tmp_path, jobs, sig)
    assert code == status, err
    assert "Traceback" not in err
    data = json.loads(out.splitlines()[-1])
    assert data["stopped"] is True and data["games"] == 100000
    assert 1 <= data["played"] == in_pdn < 100000  # the games finished, each written
    assert data["wins"] + data["draws"] + data["losses"] == in_pdn
    assert f"stopped after {in_pdn} of 100000 games" in out.splitlines()[0]


def _two_signals(first: int, second: int) -> None:
    """Send the main thread ``first`` and ``second`` so that both are pending together: the
    second handler runs while the first one's KeyboardInterrupt is being handled. (Which
    of two pending signals arrives first is the kernel's choice, not the sending order.)"""
    both = {first, second}
    signal.pthread_sigmask(signal.SIG_BLOCK, both)
    try:  # sent to this thread, which blocks them (another thread of the process would not)
        signal.pthread_kill(threading.get_ident(), second)
        signal.pthread_kill(threading.get_ident(), first)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, both)


@pytest.mark.parametrize(("first", "second"), [
    (signal.SIGINT, signal.SIGTERM), (signal.SIGHUP, signal.SIGTERM),
    (signal.SIGHUP, signal.SIGINT)])
@pytest.mark.usefixtures("default_sighup")
def test_cli_match_stopped_by_two_different_signals_ends_as_by_one(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        first: int, second: int) -> None:
    """The first stop signal wins; a second, different one landing while the match stops is
    only noted (it raised KeyboardInterrupt in the stop's own cleanup: a traceback, status 1
    and no summary)."""
    _stop_after(monkeypatch, [1, 0], lambda: _two_signals(first, second))
    code = main(["match", "american", "--first", "1", "--second", "random", "--games", "6",
                 "--movetime", "0.01", "--json", "--quiet"])
    assert code in (128 + first, 128 + second)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("1 vs random in American checkers, stopped after 2 of 6 games at "
                        "0.01 s a move")
    assert json.loads(lines[-1])["played"] == 2


def _two_signals_while_busy(first: int, second: int) -> None:
    """``first`` then ``second`` arrive while the main thread is in a C call (as the match's
    is, waiting for a game): a helper thread takes both, in that order, and the main thread
    runs their Python handlers after, in the order of their numbers, not of arrival. Each is
    sent to the helper itself (``pthread_kill``), so it lands before the next is sent: sent to
    the process, the kernel may hand one to another thread of pytest's (a Hub test's reader
    left blocked on its input), which takes it later, after the second."""
    def send() -> None:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {first, second})
        signal.pthread_kill(threading.get_ident(), first)
        signal.pthread_kill(threading.get_ident(), second)

    helper = threading.Thread(target=send)
    signal.pthread_sigmask(signal.SIG_BLOCK, {first, second})  # taken by the helper
    try:
        helper.start()
        helper.join()
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {first, second})


@pytest.mark.parametrize(("first", "second", "status"), [
    (signal.SIGTERM, signal.SIGINT, 143), (signal.SIGTERM, signal.SIGHUP, 143),
    (signal.SIGINT, signal.SIGHUP, 130)])
@pytest.mark.usefixtures("default_sighup")
def test_cli_match_status_is_the_signal_that_came_first(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        first: int, second: int, status: int) -> None:
    """``kill -TERM PID; kill -INT PID`` is a SIGTERM stop (143), though Python runs the
    handler of the lower-numbered SIGINT first when both came during a C call."""
    assert first > second  # the handlers would run the other way round
    _stop_after(monkeypatch, [1, 0], lambda: _two_signals_while_busy(first, second))
    code = main(["match", "american", "--first", "1", "--second", "random", "--games", "6",
                 "--movetime", "0.01", "--json", "--quiet"])
    assert code == status
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["played"] == 2
