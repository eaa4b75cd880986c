"""Endgame databases on disk (damiera.engine.egdb_files, csrc/egdb_file.c, ``damiera egdb``):
files read back equal to the in-memory solve, damaged or mismatched files refused with a
clear error and nothing loaded, the commands' output lines, an interrupted build resumed, and
the search reading the files. Builds stay at 3 pieces (a fraction of a second), in a
temporary folder."""

from __future__ import annotations

import _thread
import os
import re
import signal
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

import pytest

from damiera import _core
from damiera.cli import main
from damiera.engine import egdb, egdb_files
from damiera.engine.egdb import Result, endgame_database, pieces_for, probe
from damiera.engine.egdb_files import EgdbFileError, class_name
from damiera.engine.search import Searcher
from damiera.rules.movegen import native_rules
from damiera.rules.position import parse_fen
from damiera.rules.variant import VARIANTS, Variant, variant

RULES_WITH_DATABASES = [variant(v) for v in VARIANTS if egdb_files.unsupported(VARIANTS[v]) is None]


def _built(v: Variant, folder: Path, pieces: int = 3) -> Path:
    for _ in egdb_files.build(v, pieces, folder):
        pass
    return egdb_files.rules_dir(v, folder)


# -- read back: the same values as the in-memory solve -------------------------------------


@pytest.mark.parametrize("v", RULES_WITH_DATABASES, ids=lambda v: v.id)
def test_three_piece_files_read_back_equal_to_the_in_memory_solve_every_position(
    v: Variant, tmp_path: Path
) -> None:
    _built(v, tmp_path)
    disk = egdb_files.load(v, 3, tmp_path)
    memory = _core.Egdb(native_rules(v), 3)
    assert disk.classes == memory.classes
    for cls in memory.classes:
        assert disk.values(cls) == memory.values(cls), cls
    assert (disk.positions, disk.max_distance) == (memory.positions, memory.max_distance)


def test_four_piece_tables_written_and_read_back_unchanged_russian(tmp_path: Path) -> None:
    # The in-memory 4-piece solve (the one test_egdb.py checks, shared in the process) through
    # the files and back: every class's values, byte for byte; no second solve.
    v = variant("russian")
    memory = endgame_database(v, 4, tmp_path)
    for cls in memory.classes:
        memory.save(cls, tmp_path / class_name(cls))
    disk = _core.Egdb(native_rules(v), 4, solve=False)
    for cls in disk.classes:
        disk.load(cls, tmp_path / class_name(cls))
        assert disk.values(cls) == memory.values(cls), cls
    assert (disk.positions, disk.max_distance) == (memory.positions, memory.max_distance)
    assert disk.positions == 12_817_672


def test_probe_reads_the_files_in_the_default_folder(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    v = variant("american")
    monkeypatch.setenv(egdb_files.ENV_DIR, str(tmp_path))
    assert egdb_files.default_dir() == tmp_path
    _built(v, tmp_path)
    value = probe(v, parse_fen(v, "W:WK1,K2:BK32"))
    assert value is not None and value.result is Result.WIN
    # Read from the files: a class file that is damaged now is not read again (the database
    # is kept), but a new folder with a damaged file is refused when the memory cannot solve
    # that many pieces, and solved in memory with a warning when it can.
    other = tmp_path / "other"
    folder = _built(v, other)
    (folder / "0101.egdb").write_bytes(b"junk")
    with pytest.warns(UserWarning, match="not an endgame database file.*solving the 3-piece "
                                         "endgame database in memory"):
        assert endgame_database(v, 3, other) is endgame_database(v, 3, tmp_path / "empty")
    monkeypatch.setattr(egdb, "MEMORY_PIECES", {8: 2, 10: 2})
    with pytest.raises(EgdbFileError, match="not an endgame database file"):
        endgame_database(v, 3, tmp_path / "other" / ".." / "other")


def test_one_solve_in_memory_serves_every_folder_without_files(tmp_path: Path) -> None:
    v = variant("czech")
    assert endgame_database(v, 3, tmp_path / "a") is endgame_database(v, 3, tmp_path / "b")
    _built(v, tmp_path / "c")
    assert endgame_database(v, 3, tmp_path / "c") is not endgame_database(v, 3, tmp_path / "a")


def test_more_pieces_than_memory_solves_need_their_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="build it: damiera egdb build american --pieces 5"):
        endgame_database(variant("american"), 5, tmp_path)


# -- damaged and mismatched files ----------------------------------------------------------


def _fresh(v: Variant) -> _core.Egdb:
    return _core.Egdb(native_rules(v), 3, solve=False)


def _header_fixed(data: bytearray) -> bytes:
    """The header's own checksum (its first 124 bytes, at 124) made right again."""
    data[124:128] = zlib.crc32(bytes(data[:124])).to_bytes(4, "little")
    return bytes(data)


@pytest.fixture(scope="module")
def american_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _built(variant("american"), tmp_path_factory.mktemp("egdb"))


CLASS = (1, 0, 1, 1)  # a white man against a black man and king


@pytest.mark.parametrize(
    "damage,message",
    [
        (lambda d: d[:60], "not an endgame database file"),
        (lambda d: b"PK\x03\x04" + d[4:], "not an endgame database file"),
        (lambda d: d[:-10], "cut short"),
        (lambda d: d + b"\0", "too long"),
        (lambda d: d[:200] + bytes([d[200] ^ 1]) + d[201:], r"damaged data \(checksum"),
        (lambda d: d[:100] + bytes([d[100] ^ 1]) + d[101:], r"damaged header \(checksum"),
        (lambda d: _header_fixed(bytearray(d[:16]) + (2).to_bytes(4, "little") + d[20:]),
         "format version 2, this program reads version 1"),
    ],
    ids=["short-header", "other-magic", "cut-short", "too-long", "payload-bit",
         "header-bit", "version"],
)
def test_damaged_file_is_refused_and_nothing_is_loaded(american_files: Path, tmp_path: Path,
                                                       damage: object, message: str) -> None:
    data = (american_files / class_name(CLASS)).read_bytes()
    bad = tmp_path / class_name(CLASS)
    bad.write_bytes(damage(data))  # type: ignore[operator]
    db = _fresh(variant("american"))
    with pytest.raises(ValueError, match=message):
        db.load(CLASS, bad)
    assert not db.ready(CLASS)
    assert db.positions == 0


def test_header_check_refuses_what_load_refuses_in_the_header_without_reading_values(
        american_files: Path, tmp_path: Path) -> None:
    """``Egdb.check`` (what ``egdb info`` uses) gives load's reason for every damage its
    128-byte header and the file's length show; a flipped bit among the values passes it
    (they are read only by load)."""
    data = (american_files / class_name(CLASS)).read_bytes()
    damages = {
        "not an endgame database file": data[:60],
        "cut short": data[:-10],
        "too long": data + b"\0",
        "damaged header (checksum": data[:100] + bytes([data[100] ^ 1]) + data[101:],
    }
    bad = tmp_path / class_name(CLASS)
    for message, damaged in damages.items():
        bad.write_bytes(damaged)
        db = _fresh(variant("american"))
        with pytest.raises(ValueError) as checked:
            db.check(CLASS, bad)
        with pytest.raises(ValueError) as loaded:
            db.load(CLASS, bad)
        assert message in str(checked.value)
        assert str(checked.value) == str(loaded.value)
    bad.write_bytes(data[:200] + bytes([data[200] ^ 1]) + data[201:])
    _fresh(variant("american")).check(CLASS, bad)
    with pytest.raises(ValueError, match="holds class 1010, not 1011"):
        _fresh(variant("american")).check(CLASS, american_files / "1010.egdb")
    with pytest.raises(FileNotFoundError):
        _fresh(variant("american")).check(CLASS, tmp_path / "nothing.egdb")


def test_file_of_other_rules_is_refused_with_both_rules_named(american_files: Path) -> None:
    db = _fresh(variant("russian"))
    with pytest.raises(ValueError, match=r"made for other rules \(8x8-f0-b0-k1-.*\), not these "
                                         r"\(8x8-f1-b1-"):
        db.load(CLASS, american_files / class_name(CLASS))
    assert not db.ready(CLASS)


def test_file_of_another_class_is_refused(american_files: Path) -> None:
    db = _fresh(variant("american"))
    with pytest.raises(ValueError, match="holds class 1010, not 1011"):
        db.load(CLASS, american_files / "1010.egdb")


def test_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        _fresh(variant("american")).load(CLASS, tmp_path / "nothing.egdb")


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_class_path_that_is_not_a_regular_file_is_refused_without_blocking(
    tmp_path: Path, kind: str
) -> None:
    """A FIFO at a class file's path blocked the reader (an open for reading waits for a
    writer), and with it ``damiera egdb build``: a path that is not a regular file is refused
    at once, by name, in one line. Run in a child process with a timeout, so that a
    regression fails instead of hanging the suite."""
    v = variant("american")
    folder = egdb_files.rules_dir(v, tmp_path)
    folder.mkdir(parents=True)
    path = folder / class_name(egdb_files.empty_database(v, 2).classes[0])
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    done = subprocess.run([sys.executable, "-m", "damiera", "egdb", "build", "american",
                           "--pieces", "2", "--dir", str(tmp_path)],
                          check=False, capture_output=True, text=True, timeout=60)
    what = {"fifo": "a FIFO", "directory": "a directory"}[kind]
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"damiera: error: {path}: {what}, not a regular file: not an endgame database file "
        "(delete the file to build it again)")


def test_classes_are_solved_in_order_only() -> None:
    db = _fresh(variant("american"))
    with pytest.raises(ValueError, match="must be solved or loaded first"):
        db.solve(db.classes[-1])
    with pytest.raises(ValueError, match="not solved"):
        db.save(db.classes[0], "/nonexistent/x.egdb")


# -- the commands --------------------------------------------------------------------------


def test_egdb_build_and_info_print_their_lines(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["egdb", "info", "checkers", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    key = "8x8-f0-b0-k1-c0-p0-l0-r0-o0-m1"
    assert lines[0] == f"rules {key} in {tmp_path}"
    assert lines[1:] == [
        "2 pieces: 0 of 4 classes", "3 pieces: 0 of 12 classes", "4 pieces: 0 of 25 classes",
        "5 pieces: 0 of 44 classes", "6 pieces: 0 of 70 classes", "usable: none"]

    assert main(["egdb", "build", "american", "--pieces", "3", "--dir", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0] == f"rules {key} in {tmp_path}"
    assert re.fullmatch(r"2 pieces: 4 classes, 4 solved, 0 on disk already, [\d,]+ bytes, "
                        r"\d+\.\d s", lines[1])
    assert re.fullmatch(r"3 pieces: 12 classes, 12 solved, 0 on disk already, [\d,]+ bytes, "
                        r"\d+\.\d s", lines[2])
    assert re.fullmatch(r"done: 2 to 3 pieces, 399,040 positions, longest win 61 plies, "
                        r"\d+\.\d s", lines[3])
    assert len(lines) == 4
    assert "class" in captured.err  # the progress bar

    assert main(["egdb", "info", "american", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"2 pieces: 4 of 4 classes, [\d,]+ bytes", lines[1])
    assert re.fullmatch(r"3 pieces: 12 of 12 classes, [\d,]+ bytes", lines[2])
    assert lines[3] == "4 pieces: 0 of 25 classes"
    assert lines[-1] == "usable: up to 3 pieces"


def test_egdb_build_international_solves_the_10x10_board(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["egdb", "build", "international", "--pieces", "3", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Flying kings, men capturing backward and taking kings, the majority capture, passing
    # through the far row during a capture, mandatory capture: 50 playing squares.
    assert lines[0] == f"rules 10x10-f1-b1-k1-c1-p2-l0-r0-o0-m1 in {tmp_path}"
    assert re.fullmatch(r"done: 2 to 3 pieces, 1,630,290 positions, longest win 33 plies, "
                        r"\d+\.\d s", lines[-1])
    v = variant("international")
    # Read back from the files: K46 takes the king on 23 along the long diagonal.
    assert egdb_files.load(v, 3, tmp_path).probe(parse_fen(v, "W:WK46:BK23")) == (1, 1)


@pytest.mark.parametrize(
    "argv,message",
    [
        (["egdb", "build", "canadian", "--pieces", "3"], "8x8 and 10x10 boards only"),
        (["egdb", "build", "frisian", "--pieces", "3"], "king-move limit"),
        (["egdb", "build", "american", "--losing", "--pieces", "3"], "losing rule"),
        (["egdb", "build", "american", "--pieces", "7"], "--pieces must be from 2 to 6, not 7"),
        (["egdb", "build", "international", "--pieces", "6"],
         "--pieces must be from 2 to 5 on 10x10 boards, not 6"),
        (["egdb", "info", "nosuch"], "nosuch"),
    ],
)
def test_egdb_commands_refuse_bad_input_in_one_line(argv: list[str], message: str,
                                                    tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("damiera: error: ") and message in err and err.count("\n") == 1


def test_egdb_build_refuses_a_damaged_file_on_disk(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder = _built(variant("american"), tmp_path, 2)
    (folder / "0110.egdb").write_bytes(b"DAMIERA-EGDB\n\0\0\0" + b"\0" * 200)
    assert main(["egdb", "build", "american", "--pieces", "3", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "0110.egdb: damaged header" in err and "delete the file" in err


# -- resuming ------------------------------------------------------------------------------


def test_a_class_is_written_through_a_temporary_file_of_its_own_process(tmp_path: Path) -> None:
    # Two builds of one folder at once: each writes its own temporary file and renames it,
    # never the other's (a shared name made one build fail with "No such file or directory").
    v = variant("american")
    db = egdb_files.empty_database(v, 2)
    cls = db.classes[0]
    db.solve(cls)
    path = tmp_path / class_name(cls)
    others = [tmp_path / (path.name + ".tmp"), tmp_path / (path.name + f".{os.getpid() + 1}.tmp")]
    for other in others:
        other.write_bytes(b"another writer's half")
    db.save(cls, str(path))
    assert all(other.read_bytes() == b"another writer's half" for other in others)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [path.name] + [other.name for other in others])
    assert egdb_files.empty_database(v, 2).load(cls, str(path)) is None


def _solve_class(db: _core.Egdb, cls: tuple[int, int, int, int]) -> None:
    db.solve(cls)


def test_ctrl_c_stops_a_class_while_it_is_solved_and_leaves_it_unsolved() -> None:
    # A 10x10 class of 5 pieces takes minutes: Ctrl-C must not wait for its end. The interrupt
    # comes once the main thread is in the solve (a frame of _solve_class); the core asks for
    # pending signals every EGDB_STOP_EVERY positions and stops with the handler's exception.
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Ctrl-C reaches the main thread only")
    v = variant("international")
    db = egdb_files.empty_database(v, 4)
    target = (0, 1, 0, 3)  # the first 4-piece class, 1.96 M indices
    for cls in db.classes[:db.classes.index(target)]:
        db.solve(cls)
    main_id = threading.main_thread().ident
    done = threading.Event()

    def interrupt_the_solve() -> None:
        while not done.is_set():
            frame = sys._current_frames().get(main_id)
            if frame is not None and frame.f_code is _solve_class.__code__:
                _thread.interrupt_main()
                return
            time.sleep(0.001)

    # Ctrl-C's own handler, whatever this process inherited (a background job's SIGINT is
    # ignored, and then the interrupt would do nothing).
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    helper = threading.Thread(target=interrupt_the_solve, daemon=True)
    helper.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            _solve_class(db, target)
    finally:
        done.set()
        try:
            helper.join()
        except KeyboardInterrupt:  # only when the solve ended before the interrupt came
            pass
        signal.signal(signal.SIGINT, inherited)
    assert not db.ready(target)
    _solve_class(db, target)  # and it solves whole afterwards
    assert db.ready(target)


def test_interrupted_build_resumes_with_the_classes_on_disk(tmp_path: Path) -> None:
    v = variant("italian")
    steps = egdb_files.build(v, 3, tmp_path)
    first = [next(steps) for _ in range(7)]
    del steps  # stopped between two classes, as a kill would
    assert all(step.solved for step in first)
    folder = egdb_files.rules_dir(v, tmp_path)
    # A kill while a file was written leaves only its temporary file, not a class file.
    (folder / (class_name(egdb_files.empty_database(v, 3).classes[7]) + ".4242.tmp")
     ).write_bytes(b"half")
    assert egdb_files.pieces_on_disk(v, tmp_path) == 2  # the 2-piece classes came first
    again = list(egdb_files.build(v, 3, tmp_path))
    assert [s.solved for s in again] == [False] * 7 + [True] * (len(again) - 7)
    assert [s.cls for s in again[:7]] == [s.cls for s in first]
    assert egdb_files.pieces_on_disk(v, tmp_path) == 3
    memory = _core.Egdb(native_rules(v), 3)
    disk = egdb_files.load(v, 3, tmp_path)
    assert all(disk.values(c) == memory.values(c) for c in memory.classes)


# -- the search ------------------------------------------------------------------------------


def test_search_probes_the_database_read_from_disk(tmp_path: Path) -> None:
    v = variant("american")
    _built(v, tmp_path)
    searcher = Searcher(v, tt_entries=1 << 12)
    searcher.use_endgame_database(3, tmp_path)
    pos = parse_fen(v, "W:WK1,K2:BK32")
    value = probe(v, pos)
    assert value is not None
    found = searcher.search(pos, depth=1)
    assert found.score == _core.MATE - value.plies


def test_engine_option_takes_the_five_piece_database_only_from_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from damiera.engine import Engine

    monkeypatch.setenv(egdb_files.ENV_DIR, str(tmp_path))
    with pytest.raises(ValueError, match="no 5-piece endgame database for american"):
        Engine("american", 3, endgame_pieces=5)
    _built(variant("american"), tmp_path)
    assert Engine("american", 3, endgame_pieces=3).searcher.endgame_pieces == 3
    assert Engine("american", 3, endgame_pieces=0).searcher.endgame_pieces == 0
    assert Engine("turkish", 3, endgame_pieces=5).searcher.endgame_pieces == 0


def test_bestmove_endgame_pieces_reads_the_files_or_says_how_to_build_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(egdb_files.ENV_DIR, str(tmp_path))
    argv = ["bestmove", "american", "--fen", "W:WK1,K2:BK32", "--depth", "1"]
    assert main([*argv, "--endgame-pieces", "5"]) == 2
    err = capsys.readouterr().err
    assert "damiera egdb build american --pieces 5" in err and err.count("\n") == 1
    _built(variant("american"), tmp_path)
    value = probe(variant("american"), parse_fen(variant("american"), "W:WK1,K2:BK32"))
    assert value is not None
    assert main([*argv, "--endgame-pieces", "3"]) == 0
    out = capsys.readouterr().out
    assert f"score win {value.plies} " in out
    assert main([*argv, "--endgame-pieces", "9"]) == 2
    assert "endgame-pieces" in capsys.readouterr().err
    assert main([*argv, "--endgame-pieces", "1"]) == 2
    assert "endgame-pieces must be 0 (none) or from 2 to 6, not 1" in capsys.readouterr().err


def test_build_hint_quotes_a_custom_rule_set_name_with_spaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The hint is a command to paste into a shell: the name's space must not split it.
    monkeypatch.setenv(egdb_files.ENV_DIR, str(tmp_path))
    name = "custom:1103110012000002:Board italian"
    assert main(["bestmove", name, "--depth", "1", "--endgame-pieces", "5"]) == 2
    assert f"damiera egdb build '{name}' --pieces 5" in capsys.readouterr().err


def test_info_of_a_10x10_rule_set_lists_two_to_five_pieces(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["egdb", "info", "international", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:] == ["2 pieces: 0 of 4 classes", "3 pieces: 0 of 12 classes",
                         "4 pieces: 0 of 25 classes", "5 pieces: 0 of 44 classes",
                         "usable: none"]


@pytest.mark.parametrize("rules", [
    "turkish",                        # all 64 squares
    "custom:100000000000000001:Lim",  # 8x8 with the king's quiet-move limit
])
def test_rules_beyond_the_tables_have_no_database(rules: str) -> None:
    """The tables hold what a position decides alone on the dark squares of 8x8 and 10x10: a
    board of 64 squares or a rule of the game's history (the king-move limit) gets none,
    neither from the probe's default nor on request."""
    v = variant(rules)
    assert pieces_for(v) == 0
    with pytest.raises(ValueError, match="endgame databases"):
        endgame_database(v, 3)


@pytest.mark.parametrize("rules,reason", [
    ("frisian", "king-move limit"),
    ("canadian", "8x8 and 10x10 boards only"),
    ("turkish", "8x8 and 10x10 boards only"),
])
def test_bestmove_endgame_pieces_names_why_a_rule_set_has_no_database(
        rules: str, reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Engine() probes nothing there (the level's default); asked for by name on the command
    # line, the request is refused with the rule that stops it instead of being ignored.
    assert main(["bestmove", rules, "--depth", "1", "--endgame-pieces", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("damiera: error: endgame-pieces: ") and reason in err
    assert main(["bestmove", rules, "--depth", "1", "--endgame-pieces", "0"]) == 0


def test_a_damaged_file_the_memory_can_replace_gives_a_warning_and_play_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Level 3 reads the 3-piece files by default on 8x8: one damaged file there must not
    # stop analyse (or a match, or the Hub) when the memory solves 3 pieces in a second.
    monkeypatch.setenv(egdb_files.ENV_DIR, str(tmp_path))
    folder = _built(variant("american"), tmp_path, 3)
    (folder / "0110.egdb").write_bytes(b"DAMIERA-EGDB\n\0\0\0" + b"\0" * 200)
    fen = ["--fen", "W:WK1,K2:BK32", "--depth", "1"]
    assert main(["analyse", "american", *fen]) == 0
    err = capsys.readouterr().err
    assert err.startswith("damiera: warning: ") and "0110.egdb: damaged header" in err
    assert "delete the file" in err and err.count("\n") == 1


def test_bestmove_says_to_delete_a_damaged_file_it_cannot_do_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(egdb_files.ENV_DIR, str(tmp_path))
    monkeypatch.setattr(egdb, "MEMORY_PIECES", {8: 2, 10: 2})
    folder = _built(variant("american"), tmp_path, 3)
    (folder / "0110.egdb").write_bytes(b"DAMIERA-EGDB\n\0\0\0" + b"\0" * 200)
    argv = ["bestmove", "american", "--fen", "W:WK1,K2:BK32", "--depth", "1"]
    assert main([*argv, "--endgame-pieces", "3"]) == 2
    err = capsys.readouterr().err
    assert "0110.egdb: damaged header" in err and "delete the file" in err
    assert err.count("\n") == 1


def test_a_home_folder_of_an_unknown_user_is_a_folder_name_not_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # As a shell leaves ~nosuchuser unexpanded, so do --dir and DAMIERA_EGDB_DIR.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(egdb_files.ENV_DIR, "~nosuchuser-damiera/x")
    assert egdb_files.default_dir() == Path("~nosuchuser-damiera/x")
    assert main(["egdb", "info", "american", "--dir", "~nosuchuser-damiera/y"]) == 0


@pytest.mark.parametrize("pieces,error", [(4.5, TypeError), ("4", TypeError), (True, TypeError),
                                          (1, ValueError), (7, ValueError)])
def test_engine_refuses_endgame_pieces_that_are_not_a_count_of_two_to_six(
        pieces: object, error: type[Exception]) -> None:
    from damiera.engine import Engine

    for rules in ("american", "frisian"):  # the same range where no database exists
        with pytest.raises(error, match="endgame_pieces is a whole number|endgame_pieces must "
                                        r"be 0 \(none\) or from 2 to 6"):
            Engine(rules, 3, endgame_pieces=pieces)  # type: ignore[arg-type]


@pytest.mark.parametrize("pieces", [0, 1, 7])
def test_probe_refuses_a_piece_count_outside_the_tables_for_any_position(pieces: int) -> None:
    # Before, 0 gave None for every position while 7 raised: one rule for both ends now.
    v = variant("american")
    for fen in ("W:WK1:BK32", "W:W21,22,23,24,25,26,27,28:B1,2,3,4,5,6,7,8"):
        with pytest.raises(ValueError, match="pieces must be from 2 to 6"):
            probe(v, parse_fen(v, fen), pieces)


@pytest.mark.parametrize("pieces", [3.5, 3.0, "3", None])
def test_probe_refuses_a_piece_count_that_is_not_a_whole_number(pieces: object) -> None:
    v = variant("american")
    for fen in ("W:WK1,K2:BK32", "W:W21,22,23,24,25,26,27,28:B1,2,3,4,5,6,7,8"):
        with pytest.raises(TypeError, match="pieces is a whole number"):
            probe(v, parse_fen(v, fen), pieces)  # type: ignore[arg-type]


def test_egdb_commands_refuse_an_empty_dir(capsys: pytest.CaptureFixture[str]) -> None:
    # An empty --dir is an unset shell variable, not a wish for the default folder.
    assert main(["egdb", "info", "american", "--dir", ""]) == 2
    err = capsys.readouterr().err
    assert "--dir is empty" in err and err.count("\n") == 1
