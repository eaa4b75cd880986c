"""``damiera serve`` (issue 4, point 1): starts the site; bad options exit 2 with one line."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from damiera.cli import main


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["serve", "--port", "eighty"], "port must be a whole number"),
        (["serve", "--port", "70000"], "between 1 and 65535"),
        (["serve", "--database-url", "nosuchdb://x"], "database"),
    ],
)
def test_serve_bad_options_exit_2_with_one_line(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
):
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and err.startswith("damiera: error:")


def test_serve_starts_the_site_with_its_own_database(tmp_path: Path):
    port = _free_port()
    db = tmp_path / "sub" / "games.sqlite3"
    env = {**os.environ, "DAMIERA_DATABASE_URL": f"sqlite:///{db}"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "damiera.cli", "serve", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        data = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants") as r:
                    data = json.load(r)
                break
            except OSError:
                time.sleep(0.1)
        assert data is not None, proc.stderr.read() if proc.poll() is not None else "no answer"
        assert len(data) == 7
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as r:
            assert b"Damiera" in r.read()
        assert db.exists()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
