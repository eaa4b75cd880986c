"""The damiera command line: a stable interface that other tools call."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from damiera.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_moves_start_position_one_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", "italian")
    assert status == 0
    assert out.split() == ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]


def test_moves_json_objects(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", "russian", "--fen", "W:Wc3:Bd4,f6", "--json")
    assert status == 0
    assert json.loads(out) == [
        {"move": "c3:e5:g7", "from": "c3", "to": "g7", "path": ["c3", "e5", "g7"],
         "captures": ["d4", "f6"], "promotes": False}
    ]


def test_moves_optional_capture(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "moves", "russian", "--fen", "W:Wc3,g3:Bd4", "--optional-capture")
    assert sorted(out.split()) == ["c3-b4", "c3:e5", "g3-f4", "g3-h4"]


def test_moves_fens_file_one_line_per_fen_with_errors_inline(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fens = tmp_path / "fens.txt"
    fens.write_text("W:W21-32:B1-12\nnot a fen\nW:W28:B\n", encoding="utf-8")
    status, out, _ = run(capsys, "moves", "italian", "--fens", str(fens), "--json")
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 3
    assert len(json.loads(lines[0])) == 7
    assert "error" in json.loads(lines[1])
    assert [m["move"] for m in json.loads(lines[2])] == ["28-23", "28-24"]


def test_perft_last_line_and_divide(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", "international", "3")
    assert status == 0 and out.splitlines()[-1] == "Nodes searched: 658"
    _, out, _ = run(capsys, "perft", "american", "2", "--divide")
    lines = out.splitlines()
    assert lines[0].startswith("9-13: ") and lines[-1] == "Nodes searched: 49"


def test_variants_lists_every_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "variants", "--json")
    assert status == 0
    listed = json.loads(out)
    ids = [v["id"] for v in listed]
    assert ids == ["american", "italian", "czech", "russian", "brazilian", "spanish",
                   "international", "pool", "thai", "frisian", "frysk", "turkish", "canadian",
                   "malaysian"]
    thai = listed[8]
    assert thai["king_lands_behind"] is True and thai["remove_captured_at_once"] is True
    assert thai["pdn_gametype"] == "31,B,8,8,N2,0" and listed[7]["pdn_gametype"].startswith("23,")
    frisian = listed[9]
    assert frisian["orthogonal_captures"] is True and frisian["capture_choice"] == "value"
    assert frisian["pdn_gametype"] == "40,W,10,10,N2,0" and listed[10]["man_rows"] == 1
    turkish = listed[11]
    assert turkish["all_squares"] is True and turkish["no_reverse_capture"] is True
    assert turkish["pdn_gametype"] == "30,W,8,8,A0,0" and turkish["back_rows_empty"] == 1


@pytest.mark.parametrize(("vid", "nodes"), [("pool", 37986), ("thai", 218695)])
def test_perft_of_the_added_rule_sets(capsys: pytest.CaptureFixture[str], vid: str,
                                      nodes: int) -> None:
    status, out, _ = run(capsys, "perft", vid, "6")
    assert status == 0 and out.strip().splitlines()[-1] == f"Nodes searched: {nodes}"


@pytest.mark.parametrize(("name", "vid"), [("Pool checkers", "pool"), ("american-pool", "pool"),
                                           ("23", "pool"), ("mak-hot", "thai"), ("Makhos", "thai"),
                                           ("31", "thai"), ("Thai draughts", "thai")])
def test_added_rule_sets_answer_to_their_other_names(name: str, vid: str) -> None:
    from damiera.rules.variant import variant

    assert variant(name).id == vid


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("moves", "checkers9"), "unknown variant"),
        (("moves", "italian", "--fen", "W:W99:B1"), "does not exist"),
        (("moves", "italian", "--fen", "W:W1:B9"), "promotion row"),
        (("moves", "russian", "--fen", "W:Wa2:Bh8"), "light square"),
        (("moves", "american", "--fen", "W:W1-20:B30"), "promotion row"),
        (("moves", "american", "--fen", "W:W5-17:B3"), "more than the 12"),
        (("perft", "american", "-1"), "depth"),
        (("perft", "american", "deep"), "depth"),
        (("moves", "international", "--optional-capture"), "8x8"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert "Traceback" not in err


def test_console_script_runs_without_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "damiera.cli", "moves", "nope"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_fens_answers_every_line_even_empty_bom_and_bad_bytes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fens = tmp_path / "fens.txt"
    fens.write_bytes(b"\xef\xbb\xbfW:Wc3:Bd4\n\nW:Wzz\r\n\xff\xfeW:We3\nW:We3:Bf4\r\n")
    status, out, _ = run(capsys, "moves", "russian", "--fens", str(fens), "--json")
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 5
    assert lines[0][0]["move"] == "c3:e5"
    assert "error" in lines[1] and "error" in lines[2] and "error" in lines[3]
    assert lines[4][0]["move"] == "e3:g5"


def test_huge_fen_is_one_short_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "moves", "american", "--fen", "W:W1-" + "9" * 5000 + ":B30")
    assert status == 2 and len(err.splitlines()) == 1 and len(err) < 300


#: Runs ``damiera`` (argv[2:]) with the engine's weights files looked up in argv[1].
_DAMIERA_WITH_WEIGHTS_IN = """
import sys
from pathlib import Path
from damiera.engine import patterns
patterns._DIR = Path(sys.argv[1])
from damiera.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_a_refused_weights_file_is_one_warning_line(tmp_path: Path) -> None:
    """The engine warns (warnings.warn, as a library does) when it plays without a weights
    file it refused; the command line shows that as one line of its own, not as Python's two
    lines pointing into the library."""
    from damiera.engine.patterns import weights_path
    from damiera.rules.variant import variant

    broken = tmp_path / weights_path(variant("russian")).name
    broken.write_bytes(b"damiera-patterns 3 3 18 1 mine 1234ABCD\n")
    done = subprocess.run(
        [sys.executable, "-c", _DAMIERA_WITH_WEIGHTS_IN, str(tmp_path), "bestmove", "russian",
         "--depth", "1"],
        check=False, capture_output=True, text=True, timeout=120,
        env={**os.environ, "DAMIERA_EVAL": "learned"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()  # the move, played without the patterns
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"damiera: warning: {broken}: bad checksum word in the header")
    assert line.endswith("; playing without the trained patterns")


def _run_into(stdout: int, argv: list[str], buffered: bool) -> subprocess.CompletedProcess[str]:
    """``damiera ARGV`` in a child process writing its standard output to the file descriptor
    ``stdout``, with Python's standard output block-buffered or not (PYTHONUNBUFFERED): the
    error surfaces at a write in one case, at the last flush in the other."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    return subprocess.run([sys.executable, "-m", "damiera", *argv], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=env, check=False, timeout=120)


FULL_DISK_COMMANDS = [
    ["variants"],
    ["openings", "russian", "--count", "3", "--nodes", "20000", "--quiet"],
    ["match", "american", "--first", "random", "--second", "random", "--games", "2",
     "--quiet"],
    ["moves", "american", "--fens", "FENS"],
    ["--help"],
    ["match", "--help"],
]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("argv", FULL_DISK_COMMANDS, ids=lambda a: "-".join(a[:2]))
def test_a_full_disk_for_standard_output_is_one_error_line_and_status_1(
    argv: list[str], buffered: bool, tmp_path: Path
) -> None:
    """Standard output on a full disk (``> /dev/full``) once ended in a Python traceback (or,
    for ``moves --fens``, blamed the input file): one line on stderr and exit status 1."""
    fens = tmp_path / "fens.txt"
    fens.write_text("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n")
    argv = [str(fens) if a == "FENS" else a for a in argv]
    fd = os.open("/dev/full", os.O_WRONLY)
    try:
        done = _run_into(fd, argv, buffered)
    finally:
        os.close(fd)
    assert done.stderr == "damiera: error: cannot write the output: No space left on device\n"
    assert done.returncode == 1


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("argv", [["variants"], ["moves", "american"], ["--help"],
                                  ["match", "--help"]], ids="-".join)
def test_a_closed_pipe_for_standard_output_ends_quietly_with_status_0(
    argv: list[str], buffered: bool
) -> None:
    """Standard output into a pipe whose reader has gone (``| head -1``): no message, status
    0 (with block buffering the interpreter's flush at exit once said 'Exception ignored ...
    BrokenPipeError', status 120)."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = _run_into(write, argv, buffered)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("argv", [["--help"], ["variants"], ["match", "--help"]],
                         ids="-".join)
def test_no_standard_output_at_all_is_one_error_line_and_status_1(argv: list[str]) -> None:
    """Standard output not open (``damiera --help >&-``): Python has no sys.stdout; '--help'
    ended in a traceback and other commands succeeded with their output lost."""
    done = subprocess.run(
        ["/bin/sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "damiera", *argv],
        stderr=subprocess.PIPE, text=True, check=False, timeout=120)
    assert done.stderr == ("damiera: error: cannot write the output: standard output is "
                           "closed\n")
    assert done.returncode == 1


def test_a_command_with_no_standard_output_says_so(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["variants"]) == 1
    assert capsys.readouterr().err == ("damiera: error: cannot write the output: standard "
                                       "output is closed\n")
    assert sys.stdout is None  # put back


class _FillsUp(io.StringIO):
    """Standard output on a disk that fills up after ``room`` writes."""

    def __init__(self, room: int):
        super().__init__()
        self.room = room

    def write(self, text: str) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= 1
        return super().write(text)


@pytest.mark.parametrize(
    "argv,room",
    [(["egdb", "build", "american", "--pieces", "2", "--dir", "DIR"], 2),  # after a print
     (["pdn", "convert", "GAMES", "-o", "-"], 1)],  # after a game
    ids=["egdb", "pdn"],
)
def test_output_that_fills_the_disk_midway_is_not_blamed_on_a_file(
    argv: list[str], room: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    """A command's own handler of its file errors once caught standard output's too: 'egdb
    build' said it could not write in its folder, 'pdn convert -o -' blamed '-'."""
    games = tmp_path / "games.pdn"
    games.write_text('[Event "a"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n[Event "b"]\n1. 31-27 *\n')
    argv = [str(tmp_path) if a == "DIR" else str(games) if a == "GAMES" else a for a in argv]
    monkeypatch.setattr(sys, "stdout", _FillsUp(room))
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == "damiera: error: cannot write the output: No space left on device"
