"""``damiera serve --workers N --redis-url`` and ``damiera worker`` (issue 17): bad options
exit 2 with one line, before anything is created."""

from __future__ import annotations

from pathlib import Path

import pytest

from damiera.cli import main
from tests.conftest import free_port


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["serve", "--workers", "0"], "--workers must be between 1 and 64"),
        (["serve", "--workers", "65"], "--workers must be between 1 and 64"),
        (["serve", "--redis-url", "nosuch://host"], "bad Redis URL"),
        (["worker", "--processes", "0", "--redis-url", "redis://127.0.0.1:1/0"],
         "--processes must be between 1 and 64"),
        (["worker", "--redis-url", "unix:///nonexistent/redis.sock"],
         "cannot reach the job queue"),
    ],
)
def test_bad_options_exit_2_with_one_line(
    args: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("arq")
    if args[0] == "serve":
        args = [*args, "--port", str(free_port()), "--database-url",
                f"sqlite:///{tmp_path / 'games.sqlite3'}"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and err.startswith("damiera: error:")
    assert not (tmp_path / "games.sqlite3").exists()


def test_several_web_processes_on_sqlite_without_redis_are_refused_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """Their live boards would not cross processes (the in-process bus): a move made
    through one process never reached the pages connected to the others."""
    monkeypatch.delenv("DAMIERA_REDIS_URL", raising=False)
    database = tmp_path / "games.sqlite3"
    assert main(["serve", "--workers", "2", "--port", str(free_port()),
                 "--database-url", f"sqlite:///{database}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("damiera: error: --workers 2 needs a bus") and "\n" not in err
    assert "--redis-url" in err and "PostgreSQL" in err and "one process" in err
    assert not database.exists()


def test_worker_needs_a_redis_url(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DAMIERA_REDIS_URL", raising=False)
    assert main(["worker"]) == 2
    assert "--redis-url or $DAMIERA_REDIS_URL" in capsys.readouterr().err


def test_worker_never_prints_the_redis_password(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("arq")
    assert main(["worker", "--redis-url", "redis://:s3cret@127.0.0.1:1/0"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the job queue" in err and "s3cret" not in err and "***" in err


def test_serve_never_prints_the_password_of_a_malformed_redis_url(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("arq")
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    assert main(["serve", "--port", "0", "--database-url", database,
                 "--redis-url", "redis://:s3cret@127.0.0.1:notaport/0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("damiera: error: bad Redis URL") and err.count("\n") == 1
    assert "s3cret" not in err and "***" in err
