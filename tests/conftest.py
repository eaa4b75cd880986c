"""Shared test helpers: where the specification's reference data lives."""

from __future__ import annotations

import json
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
REFERENCE = SHARED / "reference"

# How long a test waits for something that only takes time (a server starting, a page
# answering) before it fails: generous, because a loaded machine is slow, and never a measure
# of speed. DAMIERA_TEST_WAIT (seconds) raises it on a very slow machine.
WAIT_SECONDS = float(os.environ.get("DAMIERA_TEST_WAIT", "120"))

#: The games table as the first release made it (no seats, clock, engine, pending move nor
#: alembic_version): the store such a site left behind, for the migration tests.
FIRST_RELEASE_GAMES_TABLE = (
    "CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, variant VARCHAR(32), "
    "optional_capture BOOLEAN, opponent VARCHAR(16), level INTEGER, side VARCHAR(8), "
    "start_fen VARCHAR(400), moves JSON, result_winner VARCHAR(8), "
    "result_reason VARCHAR(32), owner VARCHAR(64), created_at DATETIME, "
    "updated_at DATETIME, version INTEGER NOT NULL)")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that the OS says is free now (bound to port 0, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def hand_made_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search evaluates with the hand-made terms only (``DAMIERA_EVAL=hand``, which the
    processes a test starts inherit too), so a test that needs a stable search tree does
    not change when the shipped pattern weights are retrained. Tests of the learned
    evaluation itself set the switch again."""
    monkeypatch.setenv("DAMIERA_EVAL", "hand")


@pytest.fixture
def default_sighup() -> Iterator[None]:
    """SIGHUP at its default during the test, whatever pytest was started with: under
    ``nohup`` it is ignored, which a command (and the processes it starts) keeps, and a test
    that sends SIGHUP would then never see it."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, previous)


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """Python's own Ctrl-C handler (KeyboardInterrupt) during the test, whatever pytest was
    started with: a shell starts a background job with SIGINT ignored, and a test that
    raises SIGINT would then never see it."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def load_reference(name: str) -> dict[str, Any]:
    """Load ``shared/reference/<name>``; skips the calling test cleanly if shared/ is missing."""
    path = REFERENCE / name
    if not path.exists():
        pytest.skip(f"{path} not found: the specification's shared/ folder is not beside the repo")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


#: The project's own reference data, in the specification's formats, for the rule sets that
#: docs/rules.md adds to it (perft tables, rule positions).
PROJECT_REFERENCE = ROOT / "docs" / "reference"


def perft_table(vid: str) -> dict[str, Any]:
    """The perft table of ``vid`` (``{"fen", "nodes_by_depth"}``): the specification's
    (shared/reference/perft.json, skipping the test when missing) for its variants, else the
    project's (docs/reference/perft.json) for the rule sets docs/rules.md adds."""
    project: dict[str, Any] = json.loads(
        (PROJECT_REFERENCE / "perft.json").read_text(encoding="utf-8"))["variants"]
    if vid in project:
        return dict(project[vid])
    table: dict[str, Any] = load_reference("perft.json")["variants"][vid]
    return table


def project_cases(name: str) -> list[dict[str, Any]]:
    """The cases of one of the project's reference files (docs/reference/<name>)."""
    cases: list[dict[str, Any]] = json.loads(
        (PROJECT_REFERENCE / name).read_text(encoding="utf-8"))["cases"]
    return cases


def reference_cases(name: str) -> list[dict[str, Any]]:
    """The cases of a reference file for parametrisation (empty if shared/ is missing)."""
    path = REFERENCE / name
    if not path.exists():
        return []
    cases: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return cases


# Throw-away PostgreSQL and Redis servers, and the ``backend`` fixture (tests/services/).
pytest_plugins = ["tests.services.postgres", "tests.services.redis"]


def run_async(coro: Any) -> Any:
    """``asyncio.run(coro)`` in a thread of its own: Playwright's sync API (the browser tests)
    may hold this thread's event loop for the rest of the session."""
    import asyncio
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coro).result()
