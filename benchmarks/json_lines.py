"""A child process spoken to in JSON lines: one request line in, one answer line out (the
benchmarks' engines in other builds or other packages: ``search_bench.py``'s py-draughts
bridge, ``sprt_match.py``'s players)."""

from __future__ import annotations

import json
import subprocess
from typing import Any


class JsonLinesProcess:
    """``argv`` started with pipes (``env``: its environment, default this one's); ``what``
    names it in the error raised when it ends without answering."""

    def __init__(self, argv: list[str], what: str, env: dict[str, str] | None = None):
        self.what = what
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1, env=env)

    def ask(self, request: Any) -> Any:
        """Send ``request`` as one JSON line; its answer, decoded. Raises RuntimeError if the
        process ended."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.what} ended")
        return json.loads(line)

    def close(self, at_once: bool = False) -> None:
        """Close its input (its end of work) and wait for it, at most 10 s; then, or at once
        with ``at_once`` (a stopped run, whose process may be deep in a long search), kill
        it: none outlives the benchmark."""
        if self.proc.stdin:
            try:
                self.proc.stdin.close()
            except OSError:  # a broken pipe: it has ended already
                pass
        if not at_once:
            try:
                self.proc.wait(timeout=10)
                return
            except subprocess.TimeoutExpired:
                pass
        self.proc.kill()
        self.proc.wait()
