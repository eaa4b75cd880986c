"""``damiera match --jobs N`` on worker processes that die or are signalled apart from the
match: each worker has its own pipe, so a worker that dies (a signal to the whole process
group, a kill) neither hangs the match nor the other workers. With a process pool sharing
queue locks, a worker killed while it held one left the match waiting for ever."""

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


def test_a_match_on_workers_stopped_by_sigterm_to_its_process_group_ends(
        tmp_path: Path) -> None:
    """``kill -TERM -PGID`` (a service manager's stop): the workers get it as the match
    does; the match stops (143, the summary) and no engine is left running."""
    proc, pids = _match_against_deaf_engines(tmp_path)
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 143, err
        assert json.loads(out.splitlines()[-1])["played"] == 0
        assert "Traceback" not in err
        started = [int(p.name) for p in pids.iterdir()]
        assert [pid for pid in started if _running(pid)] == [], "engines left running"
    finally:
        _clean_up(proc, pids)


@pytest.mark.usefixtures("default_sighup")
def test_a_match_on_workers_stopped_by_sighup_to_its_process_group_ends(
        tmp_path: Path) -> None:
    """A closed terminal (SIGHUP to the process group): the match stops (129), the workers
    close their engines as on SIGTERM, and nothing prints a traceback."""
    proc, pids = _match_against_deaf_engines(tmp_path)
    try:
        os.killpg(proc.pid, signal.SIGHUP)
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 129, err
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
        assert re.fullmatch(r"damiera: error: a match worker ended during game [1-4] "
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
