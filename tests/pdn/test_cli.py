"""``damiera pdn check|convert|replay``: counts, errors with line and column, exit status
1 for broken games and 2 for unreadable input, canonical output, positions as FEN."""

from __future__ import annotations

import os
import stat
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


def test_check_goes_on_after_a_file_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``check a.pdn /nonexistent b.pdn`` stopped at the missing file and never checked
    b.pdn: the missing file gets its error line, the others are checked, and the status is
    still 2 (a file could not be read) at the end, above a broken game's 1."""
    good, broken = tmp_path / "a.pdn", tmp_path / "b.pdn"
    good.write_text(GOOD)
    broken.write_text(BROKEN)
    missing = tmp_path / "missing.pdn"
    status, out, err = run(capsys, "pdn", "check", str(good), str(missing), str(broken))
    assert status == 2
    assert err == f"damiera: error: {missing}: No such file or directory\n"
    lines = out.strip().splitlines()
    assert lines[0].startswith(f"{good}: 2 games, 5 plies, 0 with errors")
    assert lines[1].startswith(f"{broken}: game 3, line 8, column 19:")
    assert lines[2].startswith(f"{broken}: 3 games, 7 plies, 1 with errors")


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


def test_convert_writes_through_a_symlink_and_keeps_the_file_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-o LINK`` replaced the symlink by a file of mode 0600: the file it points to is
    written, the link kept, and the file keeps its permissions."""
    src, target, link = tmp_path / "in.pdn", tmp_path / "target.pdn", tmp_path / "link.pdn"
    src.write_text(GOOD)
    target.write_text("old\n")
    target.chmod(0o640)
    link.symlink_to(target.name)
    status, _, err = run(capsys, "pdn", "convert", str(src), "-o", str(link))
    assert (status, err) == (0, "")
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text() == pdn.write_games(list(pdn.read_games(GOOD)))
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.pdn", "link.pdn", "target.pdn"]


def test_convert_gives_a_new_file_the_umask_mode(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Every output got mode 0600; a new file gets 0666 less the umask, as ``open``'s."""
    src, out_path = tmp_path / "in.pdn", tmp_path / "out.pdn"
    src.write_text(GOOD)
    old = os.umask(0o022)
    try:
        status, _, _ = run(capsys, "pdn", "convert", str(src), "-o", str(out_path))
    finally:
        os.umask(old)
    assert status == 0
    assert out_path.stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("kind", ["FIFO", "directory", "character device"])
def test_convert_refuses_an_output_that_is_not_a_regular_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """A FIFO (its reader got nothing), a directory or a device (``-o /dev/full`` as root
    left a regular file in the device's place) named as OUT is refused in one line, exit
    status 2, and left as it was."""
    src, out_path = tmp_path / "in.pdn", tmp_path / "out"
    src.write_text(GOOD)
    if kind == "FIFO":
        os.mkfifo(out_path)
    elif kind == "directory":
        out_path.mkdir()
    else:
        if os.geteuid() != 0:
            pytest.skip("making a device node takes root")
        os.mknod(out_path, 0o600 | stat.S_IFCHR, os.makedev(1, 7))  # /dev/full's numbers
    before = out_path.lstat()
    status, out, err = run(capsys, "pdn", "convert", str(src), "-o", str(out_path))
    assert (status, out) == (2, "")
    assert err == f"damiera: error: {out_path}: a {kind}, not a regular file\n"
    after = out_path.lstat()
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.pdn", "out"]


def test_convert_refuses_to_write_over_its_input(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``convert f.pdn -o f.pdn`` wrote the readable games over the file, so its games with
    errors were lost; the output naming the input (by any path) is refused, the file kept."""
    src = tmp_path / "in.pdn"
    src.write_text(GOOD + "\n" + GOOD.replace("32-28", "32-27"))
    before = src.read_bytes()
    (tmp_path / "link.pdn").symlink_to(src.name)
    for out_path in (src, tmp_path / "link.pdn", tmp_path / "." / "in.pdn"):
        status, out, err = run(capsys, "pdn", "convert", str(src), "-o", str(out_path))
        assert (status, out) == (2, "")
        assert err == (f"damiera: error: {out_path}: the output is the input file; write to "
                       "another file\n")
    assert src.read_bytes() == before


@pytest.mark.parametrize("name", ["new/", "", "in.pdn/"])
def test_convert_refuses_a_folder_name_or_an_empty_name_as_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """``-o yy/`` wrote a file ``yy`` (the path's slash was dropped) and ``-o ""`` said the
    current folder was a directory: both are refused in one line and nothing is written."""
    src = tmp_path / "in.pdn"
    src.write_text(GOOD)
    target = f"{tmp_path}/{name}" if name else ""
    status, out, err = run(capsys, "pdn", "convert", str(src), "-o", target)
    assert (status, out) == (2, "")
    reason = ("an empty file name" if not name
              else "a folder's name (it ends with /), not a file")
    assert err == f"damiera: error: {target}: {reason}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.pdn"]
