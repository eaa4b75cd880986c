"""``damiera serve``: starts the site; bad options exit 2 with one line."""

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
from tests.conftest import WAIT_SECONDS, free_port


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
) -> None:
    if "--port" not in args:  # never the default 8000: `make serve` may be running
        args = [*args, "--port", str(free_port())]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and err.startswith("damiera: error:")


@pytest.mark.parametrize("module", ["damiera", "damiera.cli"])
def test_python_dash_m_reports_usage_errors_like_the_command(module: str) -> None:
    """``python -m damiera.cli`` once raised the error as a traceback (a second copy of the
    module, with its own UsageError class)."""
    done = subprocess.run([sys.executable, "-m", module, "serve", "--port", "eighty"],
                          capture_output=True, text=True, timeout=WAIT_SECONDS, check=False)
    assert done.returncode == 2
    assert done.stderr.strip() == "damiera: error: port must be a whole number, not 'eighty'"


def test_serve_refuses_a_bad_host_or_a_busy_port_before_creating_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite3"
    url = f"sqlite:///{db}"
    assert main(["serve", "--host", "no-such-host.invalid", "--database-url", url]) == 2
    assert "unknown host" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        assert main(["serve", "--port", port, "--database-url", url]) == 2
    err = capsys.readouterr().err.strip()
    assert f"cannot serve on 127.0.0.1:{port}" in err and "\n" not in err
    assert not db.exists()


def test_serve_starts_the_site_with_its_own_database(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "sub" / "games.sqlite3"
    env = {**os.environ, "DAMIERA_DATABASE_URL": f"sqlite:///{db}"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "damiera.cli", "serve", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        # Wait until the server answers or exits; the limit (DAMIERA_TEST_WAIT, 120 s) is only
        # there so that a hung server cannot hang the suite, never a measure of speed.
        data = None
        deadline = time.monotonic() + WAIT_SECONDS
        while data is None and proc.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants",
                                            timeout=WAIT_SECONDS) as r:
                    data = json.load(r)
            except OSError:
                time.sleep(0.1)
        assert data is not None, (proc.communicate()[1] if proc.poll() is not None
                                  else f"no answer in {WAIT_SECONDS} s")
        assert len(data) == 14  # the specification's seven, Pool, Thai, Frisian, Frysk!, Turkish,
        # Canadian, Malaysian
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as r:
            assert b"Damiera" in r.read()
        assert db.exists()
    finally:
        proc.terminate()
        proc.wait(timeout=WAIT_SECONDS)


def test_serve_refuses_a_mistyped_engine_switch_before_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad DAMIERA_EVAL once let the site start and fail every computer move instead."""
    import damiera.cli.web as web_cli

    def no_bind(host: str, port: int) -> socket.socket:
        raise AssertionError("the server went on to bind its address")

    monkeypatch.setattr(web_cli, "_bind", no_bind)
    monkeypatch.setenv("DAMIERA_EVAL", "lerned")
    db = tmp_path / "games.sqlite3"
    assert main(["serve", "--port", "0", "--database-url", f"sqlite:///{db}"]) == 2
    err = capsys.readouterr().err.strip()
    assert "DAMIERA_EVAL" in err and "\n" not in err and err.startswith("damiera: error:")
    assert not db.exists()
