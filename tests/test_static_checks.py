"""The tree's static checks as tests: mypy (strict, pyproject.toml) on the package and ruff on
every Python file, so that a type or lint error fails ``make test`` as a failing test does.
The checkers' versions are pinned in pyproject.toml's ``dev`` extra."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=900, check=False)


def test_mypy_strict_finds_no_error_in_the_package(tmp_path: Path) -> None:
    done = _run("mypy", "--cache-dir", str(tmp_path / "cache"), "src")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_finds_nothing_in_the_tree() -> None:
    done = _run("ruff", "check", "--no-cache", "src", "tools", "benchmarks", "tests")
    assert done.returncode == 0, done.stdout + done.stderr
