"""``damiera pdn check|convert|replay``: counts, errors with line and column, exit status
1 for broken games and 2 for unreadable input, canonical output, positions as FEN."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from damiera import pdn
from damiera.cli import main

GOOD = '[Event "a"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n[Event "b"]\n1. 31-27 *\n'
BROKEN = GOOD + '\n[Event "c"]\n1. 32-28 19-23 2. 28x18 *\n'


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_check_counts_games_and_plies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "good.pdn"
    path.write_text(GOOD)
    status, out, _ = run(capsys, "pdn", "check", str(path))
    assert status == 0
    assert out.strip() == (f"{path}: 2 games, 5 plies, 0 with errors "
                           "(no GameType; variant guessed: international 2)")


def test_check_reports_line_and_column_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.pdn"
    path.write_text(BROKEN)
    status, out, _ = run(capsys, "pdn", "check", str(path))
    assert status == 1
    first, last = out.strip().splitlines()
    assert first.startswith(f"{path}: game 3, line 8, column 19: move 2. 28x18:")
    assert last.startswith(f"{path}: 3 games, 7 plies, 1 with errors")


def test_check_unreadable_input_exits_2(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "pdn", "check", str(tmp_path / "missing.pdn"))
    assert status == 2
    assert err.startswith("damiera: error:") and "missing.pdn" in err
    status, _, err = run(capsys, "pdn", "check", str(tmp_path))  # a directory
    assert status == 2


@pytest.mark.parametrize("argv", [["check"], ["convert", "-o", "-"], ["replay"]])
def test_a_fifo_is_refused_without_blocking(tmp_path: Path, argv: list[str]) -> None:
    """A FIFO named as the PDN file blocked the reader (an open for reading waits for a
    writer): it is refused at once, by name, in one line, exit status 2. Run in a child
    process with a timeout, so that a regression fails instead of hanging the suite."""
    fifo = tmp_path / "games.pdn"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "damiera", "pdn", argv[0], str(fifo),
                           *argv[1:]], check=False, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"damiera: error: {fifo}: a FIFO, not a regular file\n"


def test_check_variant_for_files_without_gametype(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "russian.pdn"
    path.write_text("1. c3-d4 f6-g5 *\n")
    status, out, _ = run(capsys, "pdn", "check", str(path))
    assert status == 0 and "(no GameType; variant guessed: russian 1)" in out
    status, out, _ = run(capsys, "pdn", "check", "--variant", "international", str(path))
    assert status == 1 and "read as International draughts" in out
    status, out, _ = run(capsys, "pdn", "check", "--variant", "czech", str(path))
    assert status == 0 and "guessed" not in out
    status, _, err = run(capsys, "pdn", "check", "--variant", "klingon", str(path))
    assert status == 2 and "unknown variant" in err


def test_convert_writes_canonical_pdn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, out_path = tmp_path / "in.pdn", tmp_path / "out.pdn"
    src.write_text(BROKEN)
    status, _, err = run(capsys, "pdn", "convert", str(src), "-o", str(out_path))
    assert status == 1 and "game 3, line 8" in err
    text = out_path.read_text()
    games = list(pdn.read_games(text))
    assert [g.tags["Event"] for g in games] == ["a", "b"]
    assert text == pdn.write_games(games)
    assert '[Result "2-0"]' in text


def test_convert_leaves_no_half_written_file(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out_path = tmp_path / "out.pdn"
    status, _, _ = run(capsys, "pdn", "convert", str(tmp_path / "none.pdn"), "-o",
                       str(out_path))
    assert status == 2
    assert list(tmp_path.iterdir()) == []


def test_replay_prints_each_position_as_fen(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.pdn"
    path.write_text('[FEN "W:W28:B23"]\n1. 28x19 *\n\n' + GOOD)
    status, out, _ = run(capsys, "pdn", "replay", str(path), "--game", "1")
    assert status == 0
    assert out.splitlines() == ["0 - W:W28:B23", "1 28x19 B:W19:B"]
    status, _, err = run(capsys, "pdn", "replay", str(path), "--game", "9")
    assert status == 2 and "no game 9" in err


@pytest.mark.parametrize(("body", "reason"), [
    ("B:W" + "12," * 1666, "FEN of 5001 characters is too long (at most 1000)"),
    ("W:W" + "9" * 900 + ":B1", "does not exist"),
])
def test_check_shows_a_long_bad_fen_once_and_clipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, reason: str
) -> None:
    path = tmp_path / "fen.pdn"
    path.write_text(f'[GameType "21"]\n[FEN "{body}"]\n1. 22-18 *\n')
    status, out, _ = run(capsys, "pdn", "check", str(path))
    assert status == 1
    error = out.splitlines()[0]
    assert error.startswith(f"{path}: game 1, line 2, column 2: FEN '{body[:20]}")
    assert reason in error
    assert error.count(body[:20]) == 1
    assert len(error) - len(str(path)) < 200, error
