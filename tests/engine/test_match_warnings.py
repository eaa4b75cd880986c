"""Warnings raised in the worker processes of ``damiera match --jobs 2`` are shown by the
match's own process, as it shows its own (in ``damiera``, one line ``damiera: warning: ...``;
the workers showed Python's two lines pointing into the library), and each once for the
match however many workers raised it. And how a worker meets signals: Ctrl-C while it starts,
SIGTERM while it leaves or waits between games."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from damiera.engine import match, match_workers
from damiera.engine.patterns import weights_path
from damiera.rules.variant import variant

#: ``damiera`` (argv[2:]) with the engine's weights files looked up in argv[1]. A script
#: file, not ``-c``: the spawned workers run its top level too (as ``__mp_main__``), so
#: that they look there as well.
_DAMIERA_WITH_WEIGHTS_IN = """
import sys
import time
from pathlib import Path
from damiera.engine import patterns
patterns._DIR = Path(sys.argv[1])
if __name__ == "__main__":
    from damiera.cli import main
    sys.exit(main(sys.argv[2:]))
"""


def test_a_warning_in_a_match_worker_is_one_damiera_line(tmp_path: Path) -> None:
    broken = tmp_path / weights_path(variant("russian")).name
    broken.write_bytes(b"damiera-patterns 3 3 18 1 mine 1234ABCD\n")
    script = tmp_path / "damiera_main.py"
    script.write_text(_DAMIERA_WITH_WEIGHTS_IN, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path), "match", "russian", "--first", "1",
         "--second", "1", "--games", "2", "--jobs", "2", "--quiet"],
        check=False, capture_output=True, text=True, timeout=300,
        env={**os.environ, "DAMIERA_EVAL": "learned"})
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    # Both workers refuse the file; the match says so once (each worker said it).
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"damiera: warning: {broken}: bad checksum word"), lines
    assert lines[0].endswith("; playing without the trained patterns")


def test_a_worker_keeps_its_warnings_for_the_match_which_shows_each_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Local(UserWarning):  # not picklable: sent as UserWarning
        pass

    def job(task: match_workers._Task) -> match.GameRecord:
        warnings.warn("bad weights", RuntimeWarning, stacklevel=1)
        warnings.warn("odd", Local, stacklevel=1)
        return match.GameRecord(task.fen, task.white, task.black, 0, "no legal move", 1)

    monkeypatch.setattr(match_workers, "_game_job", job)
    task = match_workers._Task("american", "W:W21:B1", "1", "1", None, 1, 1, False, None, 0.0)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            match_workers._init_worker()
            assert warnings.showwarning is match_workers._keep_warning
            sent = [match_workers._indexed_game_job((i, task)) for i in range(2)]
    finally:  # _init_worker set a worker's signal handlers
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    assert [i for i, _record, _warned in sent] == [0, 1]
    assert [(text, category) for text, category, _file, _line in sent[0][2]] == [
        ("bad weights", RuntimeWarning), ("odd", UserWarning)]
    assert match_workers._worker_warned == []  # sent, not sent again
    shown: list[str] = []
    seen: set[tuple[str, type[Warning]]] = set()
    with warnings.catch_warnings():
        warnings.showwarning = lambda message, *args, **kwargs: shown.append(str(message))
        for _i, _record, warned in sent:
            match_workers._show_once(warned, seen)
    assert shown == ["bad weights", "odd"]


#: A match worker whose SIGTERM lands while the interpreter is shutting down: the main thread
#: has ended and waits in threading's shutdown for a thread, which then sends the SIGTERM (as
#: the pool's close does when a worker is leaving on the pool's stop sentinel).
_SIGTERM_WHILE_LEAVING = """
import os, signal, threading, time
from damiera.engine import match_workers
match_workers._init_worker()
def late_stop():
    time.sleep(0.2)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)
threading.Thread(target=late_stop).start()
"""


def test_an_idle_match_worker_stopped_while_leaving_exits_without_a_traceback() -> None:
    done = subprocess.run([sys.executable, "-c", _SIGTERM_WHILE_LEAVING], check=False,
                          capture_output=True, text=True, timeout=120)
    assert done.stderr == ""
    assert done.returncode == -signal.SIGTERM  # between games, SIGTERM's own action


def test_a_match_worker_turns_sigterm_into_systemexit_only_during_a_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    during: list[object] = []

    def job(task: match_workers._Task) -> match.GameRecord:
        during.append(signal.getsignal(signal.SIGTERM))
        return match.GameRecord(task.fen, task.white, task.black, 0, "no legal move", 1)

    monkeypatch.setattr(match_workers, "_game_job", job)
    task = match_workers._Task("american", "W:W21:B1", "1", "1", None, 1, 1, False, None, 0.0)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        signal.signal(signal.SIGTERM, lambda signum, frame: None)
        match_workers._init_worker()
        before = signal.getsignal(signal.SIGTERM)
        match_workers._indexed_game_job((0, task))
        after = signal.getsignal(signal.SIGTERM)
    finally:  # _init_worker set a worker's signal handlers
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    assert before == signal.SIG_DFL
    assert during == [match_workers._exit_on_sigterm]
    assert after == signal.SIG_DFL


#: An idle match worker waiting for its next game, when the match's SIGTERM is taken by the
#: process while its main thread is not looking (here: the main thread blocks SIGTERM, so that
#: another thread takes it; in a match, a SIGTERM that came just before the worker blocked in
#: its wait). A Python handler would wait for the main thread for ever, and the match with it.
_SIGTERM_WHILE_WAITING = """
import signal, sys, threading, time
from damiera.engine import match_workers
match_workers._init_worker()
threading.Thread(target=time.sleep, args=(300,), daemon=True).start()
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
held = threading.Lock()
held.acquire()
print("waiting", flush=True)
held.acquire()
"""


def test_an_idle_match_worker_ends_on_sigterm_while_it_waits_for_a_game() -> None:
    proc = subprocess.Popen([sys.executable, "-c", _SIGTERM_WHILE_WAITING],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "waiting\n"
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert err == ""
    assert proc.returncode == -signal.SIGTERM


#: ``damiera match`` (argv[2:]) whose spawned workers, while they start (running this
#: script's top level as ``__mp_main__``, before the pool's initializer), each write their
#: pid into the folder argv[1] and wait there for the file ``go``.
_WORKERS_WAIT_WHILE_STARTING = """
import os, sys, time
from pathlib import Path
folder = Path(sys.argv[1])
if __name__ == "__mp_main__":
    (folder / str(os.getpid())).touch()
    end = time.monotonic() + 300
    while not (folder / "go").exists() and time.monotonic() < end:
        time.sleep(0.01)
if __name__ == "__main__":
    from damiera.cli import main
    sys.exit(main(sys.argv[2:]))
"""


def test_a_match_worker_ignores_ctrl_c_while_it_starts(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group, the workers too, which leave Ctrl-C to the
    match only once the pool's initializer has run: a worker still starting (importing) was
    ended by it with a KeyboardInterrupt traceback. Here SIGINT goes to the starting
    workers alone: they carry on and the match ends normally."""
    script = tmp_path / "damiera_main.py"
    script.write_text(_WORKERS_WAIT_WHILE_STARTING, encoding="utf-8")
    folder = tmp_path / "workers"
    folder.mkdir()
    proc = subprocess.Popen(
        [sys.executable, str(script), str(folder), "match", "american", "--first", "random",
         "--second", "random", "--games", "2", "--jobs", "2", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300  # a bound for a broken start, not a wait
        while len(list(folder.iterdir())) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.01)
        for worker in folder.iterdir():
            os.kill(int(worker.name), signal.SIGINT)
        (folder / "go").touch()
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert proc.returncode == 0, err
    assert "2 games" in out.splitlines()[0]
