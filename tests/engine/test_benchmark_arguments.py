"""The benchmark scripts refuse impossible arguments at once, by argparse, before any game is
played (they run for hours: a traceback after the first game, or a result recorded with a
setting that was ignored, wastes the run)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SRC = str(BENCHMARKS.parent / "src")


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHMARKS / script), *args],
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(("args", "message"), [
    (("--movetime", "-1"), "--movetime must be 0-3600 seconds"),
    (("--movetime", "nan"), "--movetime must be 0-3600 seconds"),
    (("--movetime", "inf"), "--movetime must be 0-3600 seconds"),
    (("--nodes", "5000", "--cpu-time"), "--cpu-time times --movetime"),
    (("--nodes", "0"), "--nodes must be 1 or more"),
    (("--elo0", "5", "--elo1", "5"), "finite --elo0 below --elo1"),
    (("--elo1", "nan"), "finite --elo0 below --elo1"),
    (("--alpha", "0"), "0 < --alpha"),
    (("--alpha", "0.5", "--beta", "0.5"), "--alpha + --beta < 1"),  # decides at once
    (("--max-games", "1"), "--max-games must be 2-100000"),
    (("--max-games", "1000000000"), "--max-games must be 2-100000"),
    (("--max-minutes", "nan"), "--max-minutes must be a finite number above 0"),
    (("--opening-plies", "500"), "--opening-plies must be 1-40"),
    (("--variant", "bogus"), "unknown variant 'bogus'"),
    (("--new-endgame-pieces", "99"), "--new-endgame-pieces must be 0 or 2-"),
    (("--new", "/nonexistent"), "--new must be a src folder that holds the damiera package"),
    (("--tc", "12+0.1", "--movetime", "1"), "--tc and --movetime: give one of them"),
    (("--tc", "twelve"), "--tc must be seconds for the game and seconds added a move"),
    (("--tc", "0+0.1"), "--tc: the clock must be above 0"),
    (("--tc", "12+4000"), "--tc: the increment must be at most 3600"),
])
def test_sprt_match_refuses_impossible_limits_before_playing(args: tuple[str, ...],
                                                             message: str) -> None:
    result = run("sprt_match.py", "--new", SRC, "--base", SRC, *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (("--variants", "italian"), "no depth for italian"),
    (("--sizes", "0"), "a size must be 1-2**32 entries"),
    (("--sizes", "4294967297"), "a size must be 1-2**32 entries"),
    (("--sizes", "1e6"), "--sizes whole numbers"),
    (("--depths", "russian"), "--depths must be variant=plies"),
    (("--depths", "russian=0"), "a depth must be 1-"),
    (("--games", "0"), "--games and --plies must be at least 1"),
])
def test_tt_bench_refuses_impossible_arguments_before_playing(args: tuple[str, ...],
                                                              message: str) -> None:
    result = run("tt_bench.py", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
