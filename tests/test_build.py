"""The guard against stale mypyc-compiled modules (``damiera._build``)."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from damiera import _build

SO = EXTENSION_SUFFIXES[0]  # what mypyc writes, e.g. ".cpython-311-x86_64-linux-gnu.so"


def _search(root: Path, so_age: int) -> None:
    """``root/damiera/engine/search.py`` and a compiled search ``so_age`` seconds older."""
    rules = root / "damiera" / "engine"
    rules.mkdir(parents=True)
    source = rules / "search.py"
    source.write_text("", encoding="utf-8")
    ext = rules / f"search{SO}"
    ext.write_bytes(b"")
    then = source.stat().st_mtime_ns - so_age * 10**9
    os.utime(ext, ns=(then, then))


def test_a_compiled_module_older_than_its_source_is_stale(tmp_path: Path) -> None:
    _search(tmp_path, so_age=5)
    pairs = _build.stale(str(tmp_path))
    assert pairs == [(f"damiera/engine/search{SO}", "damiera/engine/search.py")]
    message = _build.stale_message(pairs)
    assert message.startswith(
        f"damiera: compiled module damiera/engine/search{SO} is older than search.py;"
    )
    assert "run `make compile` (or `make pure` to use the Python sources)" in message


def test_a_compiled_module_as_new_as_its_source_is_not_stale(tmp_path: Path) -> None:
    _search(tmp_path, so_age=0)
    assert _build.stale(str(tmp_path)) == []
    assert _build.stale(str(tmp_path / "nothing-here")) == []


def test_this_checkout_is_not_stale_and_compiled_tells_what_was_loaded() -> None:
    import damiera.engine.search

    assert _build.stale() == []
    assert _build.compiled() is damiera.engine.search.__file__.endswith(SO)


def _stale_package(root: Path) -> dict[str, str]:
    """A ``damiera`` package in ``root`` (its ``__init__`` and ``_build``) whose compiled
    movegen is stale; returns the environment that imports it."""
    _search(root, so_age=5)
    package = Path(_build.__file__).parent
    for name in ("__init__.py", "_build.py"):
        (root / "damiera" / name).write_bytes((package / name).read_bytes())
    return {**os.environ, "PYTHONPATH": str(root)}


def test_importing_damiera_warns_on_standard_error_when_stale(tmp_path: Path) -> None:
    env = _stale_package(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", "import damiera"], capture_output=True, text=True, check=True,
        env=env, cwd=tmp_path,
    )
    assert f"StaleBuildWarning: damiera: compiled module damiera/engine/search{SO}" in done.stderr
    assert done.stdout == ""


def test_pytest_refuses_to_run_on_stale_modules(tmp_path: Path) -> None:
    env = _stale_package(tmp_path)
    here = Path(__file__).resolve()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--co", str(here)],
        capture_output=True, text=True, check=False, env=env, cwd=here.parent.parent,
    )
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"damiera: compiled module damiera/engine/search{SO} is older" in done.stdout
    assert "test_build.py::" not in done.stdout  # stopped before collecting
