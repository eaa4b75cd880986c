"""Clear faults: a failing database gets 503 saying what was stored, the server refuses an
unwritable database in one line, and engine workers die with the server."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from damiera.web.store import GameStore, StorageError
from tests.security.conftest import new_game


def _read_only(db: str) -> GameStore:
    """The same SQLite file opened read-only (as a full disk or a read-only mount would
    refuse writes; root ignores file permissions, SQLite's mode=ro does not)."""
    path = db.split("///", 1)[1]
    return GameStore(f"sqlite:///file:{path}?mode=ro&uri=true")


def test_a_read_only_database_answers_503_and_nothing_is_half_stored(
    app: FastAPI, alice: TestClient, db: str
) -> None:
    game = new_game(alice)
    service = app.state.service
    writable = service.store
    service.store = _read_only(db)
    try:
        r = alice.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"})
        assert r.status_code == 503, r.text
        body = r.json()
        assert "not stored" in body["error"] and "readonly" in body["error"]
        assert body["move_stored"] is False
        r = alice.post("/api/games", json={"variant": "italian", "opponent": "friend"})
        assert r.status_code == 503 and "the game was not stored" in r.json()["error"]
        assert alice.get(f"/api/games/{game['id']}").json()["history"] == []
    finally:
        service.store = writable


def test_when_only_the_computers_reply_cannot_be_stored_the_move_is_kept(
    app: FastAPI, alice: TestClient
) -> None:
    game = new_game(alice, opponent="computer", side="white")
    store = app.state.service.store
    real = store.save
    calls = []

    def second_save_fails(stored: Any) -> Any:
        calls.append(stored)
        if len(calls) == 2:
            raise StorageError("the database failed: disk I/O error", why="disk I/O error")
        return real(stored)

    store.save = second_save_fails
    try:
        r = alice.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"})
    finally:
        store.save = real
    assert r.status_code == 503 and r.json()["move_stored"] is True
    assert "your move was stored" in r.json()["error"] and "/reply" in r.json()["error"]
    assert alice.get(f"/api/games/{game['id']}").json()["history"] == ["22-19"]
    r = alice.post(f"/api/games/{game['id']}/reply")
    assert r.status_code == 200 and len(r.json()["history"]) == 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_serve_refuses_an_unwritable_database_with_one_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    GameStore(db).close()
    ro = f"sqlite:///file:{tmp_path / 'games.sqlite3'}?mode=ro&uri=true"
    done = subprocess.run(
        [sys.executable, "-m", "damiera.cli", "serve", "--port", str(_free_port()),
         "--database-url", ro], check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write to the database" in lines[0], done.stderr


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_engine_workers_die_with_a_killed_server(tmp_path: Path) -> None:
    env = {**os.environ, "DAMIERA_DATABASE_URL": f"sqlite:///{tmp_path / 'g.sqlite3'}"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "damiera.cli", "serve", "--port", str(_free_port())],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        workers: set[int] = set()
        for _ in range(600):                 # the pool starts its workers at start-up
            workers = _children(proc.pid)
            if len(workers) >= 2:            # the resource tracker and a worker at least
                break
            time.sleep(0.05)
        assert len(workers) >= 2, workers
        time.sleep(0.5)
        workers = _children(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        for _ in range(200):
            if not any(_alive(p) for p in workers):
                break
            time.sleep(0.05)
        assert not any(_alive(p) for p in workers), workers
    finally:
        if proc.poll() is None:
            proc.kill()
