"""Warnings raised in the worker processes of ``damiera match --jobs 2`` are shown as the
match's own process shows them: in ``damiera``, one line ``damiera: warning: ...`` (the
workers showed Python's two lines pointing into the library)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

from damiera.engine import match
from damiera.engine.patterns import weights_path
from damiera.rules.variant import variant

#: ``damiera`` (argv[2:]) with the engine's weights files looked up in argv[1]. A script
#: file, not ``-c``: the spawned workers run its top level too (as ``__mp_main__``), so
#: that they look there as well.
_DAMIERA_WITH_WEIGHTS_IN = """
import sys
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
    assert lines, "no worker warned"
    for line in lines:
        assert line.startswith(f"damiera: warning: {broken}: bad checksum word"), lines
        assert line.endswith("; playing without the trained patterns")


def _shown(message: Warning | str, category: type[Warning], filename: str, lineno: int,
           file: object = None, line: str | None = None) -> None:
    """A module-level showwarning (picklable by name, as a worker needs it)."""


def test_workers_are_given_the_warning_display_of_the_match_process() -> None:
    with warnings.catch_warnings():
        warnings.showwarning = _shown
        assert match._worker_warnings() is _shown
        warnings.showwarning = lambda *args, **kwargs: None  # not picklable: left alone
        assert match._worker_warnings() is None
    with warnings.catch_warnings():
        match._init_worker(_shown)
        assert warnings.showwarning is _shown


#: A match worker whose SIGTERM lands while the interpreter is shutting down: the main thread
#: has ended and waits in threading's shutdown for a thread, which then sends the SIGTERM (as
#: the pool's close does when a worker is leaving on the pool's stop sentinel).
_SIGTERM_WHILE_LEAVING = """
import os, signal, threading, time
from damiera.engine import match
match._init_worker()
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
    assert done.returncode == 128 + 15
