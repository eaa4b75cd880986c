"""The benchmark scripts refuse impossible arguments at once, by argparse, before any game is
played (they run for hours: a traceback after the first game, or a result recorded with a
setting that was ignored, wastes the run)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(("args", "message"), [
    (("--movetime", "-1"), "--movetime must be 0 or more seconds"),
    (("--movetime", "nan"), "--movetime must be 0 or more seconds"),
    (("--nodes", "5000", "--cpu-time"), "--cpu-time times --movetime"),
    (("--nodes", "0"), "--nodes must be 1 or more"),
    (("--elo0", "5", "--elo1", "5"), "--elo0 below --elo1"),
    (("--alpha", "0"), "0 < --alpha"),
    (("--max-games", "1"), "--max-games >= 2"),
])
def test_sprt_match_refuses_impossible_limits_before_playing(args: tuple[str, ...],
                                                             message: str) -> None:
    result = run("sprt_match.py", "--new", "src", "--base", "src", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_tt_bench_refuses_a_variant_without_a_depth_before_playing() -> None:
    result = run("tt_bench.py", "--variants", "italian")
    assert result.returncode == 2
    assert "no depth for italian" in result.stderr
