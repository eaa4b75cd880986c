"""``damiera match --jobs N`` on worker processes, stopped or signalled: a stop ends the
workers' games and closes their Hub engines; each worker has its own pipe, so a worker that
dies (a signal to the whole process group, a kill) neither hangs the match nor the other
workers (with a process pool sharing queue locks, a worker killed while it held one left the
match waiting for ever); a game's error is the match's; ``nohup`` is kept."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from damiera.engine import match_workers
from damiera.rules.position import FenError

#: A Hub engine that, once asked to search (``go``), hears nothing more: neither ``quit`` nor
#: the end of its input nor SIGTERM, SIGINT or SIGHUP (only SIGKILL ends it, or 300 s, so
#: that a failed test leaves nothing behind for long). When the search starts it writes a
#: file into the folder argv[1], named by its pid, holding its parent's (its worker's) pid.
_DEAF_ENGINE = """
import os, signal, sys, time
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, signal.SIG_IGN)
end = time.monotonic() + 300
for line in sys.stdin:
    cmd = line.split()[0] if line.split() else ''
    if cmd == 'hub':
        print('id name=Deaf', flush=True)
        print('wait', flush=True)
    elif cmd == 'init':
        print('ready', flush=True)
    elif cmd == 'go':
        with open(os.path.join(sys.argv[1], str(os.getpid())), 'w') as f:
            f.write(str(os.getppid()))
        break
while time.monotonic() < end:
    time.sleep(0.5)
"""


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, its parent not yet told) is not running
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _match_against_deaf_engines(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    """A 4-game match of two workers against the deaf engine, in its own session (its own
    process group), once both workers' engines are searching; and the engines' folder."""
    script = tmp_path / "deaf_engine.py"
    script.write_text(_DEAF_ENGINE)
    pids = tmp_path / "pids"
    pids.mkdir()
    engine = "hub:" + shlex.join([sys.executable, str(script), str(pids)])
    proc = subprocess.Popen(
        [sys.executable, "-m", "damiera", "match", "international", "--first", "random",
         "--second", engine, "--games", "4", "--jobs", "2", "--json", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 300  # a bound for a broken match, not a wait
    while len([p for p in pids.iterdir() if p.read_text()]) < 2:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the engines did not start searching"
        time.sleep(0.05)
    return proc, pids


def _clean_up(proc: subprocess.Popen[str], pids: Path) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
    for p in pids.iterdir():
        if _running(int(p.name)):
            os.kill(int(p.name), signal.SIGKILL)


@pytest.mark.parametrize(("to_group", "sig", "status"), [
    (False, signal.SIGTERM, 143), (True, signal.SIGTERM, 143), (True, signal.SIGHUP, 129)])
@pytest.mark.usefixtures("default_sighup")
def test_a_match_on_workers_stopped_by_a_signal_leaves_no_hub_engine_running(
        tmp_path: Path, to_group: bool, sig: int, status: int) -> None:
    """``damiera match --jobs 2`` stopped by SIGTERM (to the match, or ``kill -TERM -PGID``
    as a service manager stops it) or by SIGHUP to its process group (the terminal closed):
    the workers end their games and close their Hub engines before they exit, killing one
    that does not quit (the engines were left running, their worker gone); the match
    stops (the summary, 128 + the signal) without a traceback. With a process pool, a
    worker that got the group's signal while it held the pool's queue lock hung the match."""
    proc, pids = _match_against_deaf_engines(tmp_path)
    try:
        if to_group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == status, err
        assert json.loads(out.splitlines()[-1])["played"] == 0
        assert "Traceback" not in err
        started = [int(p.name) for p in pids.iterdir()]
        assert [pid for pid in started if _running(pid)] == [], "engines left running"
    finally:
        _clean_up(proc, pids)


def test_a_match_whose_worker_is_killed_during_a_game_stops_with_an_error(
        tmp_path: Path) -> None:
    """A worker killed during a game (SIGKILL: it closes nothing) takes its game with it:
    the match says which game and how the worker ended, exit status 1, instead of waiting
    for the game's result for ever; the other worker closes its engine."""
    proc, pids = _match_against_deaf_engines(tmp_path)
    try:
        engines = {int(p.name): int(p.read_text()) for p in pids.iterdir()}
        victim_engine, victim = next(iter(engines.items()))
        os.kill(victim, signal.SIGKILL)
        _out, err = proc.communicate(timeout=300)
        assert proc.returncode == 1, err
        assert re.fullmatch(r"damiera: error: a match worker ended with game [1-4] unfinished "
                            r"\(killed by SIGKILL\)\n", err), err
        others = [pid for pid in engines if pid != victim_engine]
        assert [pid for pid in others if _running(pid)] == [], "engines left running"
    finally:
        _clean_up(proc, pids)


def test_a_game_that_fails_in_a_worker_raises_its_error_in_the_match() -> None:
    """What a game raises in its worker (here: a position that is not a FEN) is raised by
    the match, the error's own type and message, and the workers are ended."""
    bad = match_workers._Task("american", "not a fen", "1", "1", None, 1, 1, False, None, 0.0)
    with pytest.raises(FenError, match="FEN must start with the side to move"):
        list(match_workers._on_workers([bad, bad, bad], 2))


def test_a_match_started_with_sighup_ignored_plays_on_when_its_terminal_closes(
        tmp_path: Path) -> None:
    """``nohup damiera match ...``: SIGHUP to the process group (the terminal closing) stops
    neither the match nor its workers; every game is played."""
    pdn = tmp_path / "games.pdn"
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup starts it
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "damiera", "match", "russian", "--first", "1", "--second",
             "1", "--games", "12", "--jobs", "2", "--movetime", "0.01", "--pdn", str(pdn),
             "--json", "--quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
    finally:
        signal.signal(signal.SIGHUP, previous)
    try:
        deadline = time.monotonic() + 300  # a bound for a broken match, not a wait
        while not pdn.exists() or "[Result" not in pdn.read_text():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no game ended"
            time.sleep(0.02)
        played_before = pdn.read_text().count("[Result")
        os.killpg(proc.pid, signal.SIGHUP)
        out, err = proc.communicate(timeout=600)
        assert played_before < 12  # the match was under way when the terminal closed
        assert proc.returncode == 0, err
        assert "stopped" not in json.loads(out.splitlines()[-1])  # a finished match
        assert pdn.read_text().count("[Result") == 12
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
