"""The opening book: its file format (round trip and refusals), the engine playing from it
(a book move, variety, falling back to the search out of book, levels 1 and 2 without it),
the shipped books' moves against the rules core, and the CLI."""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from damiera.cli import main
from damiera.engine import Engine, Limit
from damiera.engine.book import (
    PACKAGE_DIR,
    Book,
    BookFileError,
    BookMove,
    book_json,
    read_book,
    write_book,
)
from damiera.engine.book_build import build_book, move_chances
from damiera.engine.hub import HubSession
from damiera.rules.game import Game
from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import move_text, parse_move
from damiera.rules.position import start_position
from damiera.rules.variant import variant

AMERICAN = variant("american")


@pytest.fixture(scope="module")
def tiny() -> Book:
    """A book of American checkers' start and its 7 first moves, searched to depth 2."""
    book = Book(AMERICAN)
    steps = list(build_book(AMERICAN, plies=1, full=1, depth=2, book=book))
    assert [s.ply for s in steps] == [0] + [1] * 7
    return book


def _write_json(path: Path, data: object) -> Path:
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    return path


def test_book_round_trip(tiny: Book, tmp_path: Path) -> None:
    path = tmp_path / "american.book"
    size = write_book(tiny, path)
    assert size == path.stat().st_size < 10_000
    again = read_book(AMERICAN, path)
    assert again.positions == tiny.positions
    assert again.settings["depth"] == 2 and again.settings["engine"] == "damiera"
    start = start_position(AMERICAN)
    assert {m.text for m in again.moves(start)} == {
        move_text(AMERICAN, m) for m in legal_moves(AMERICAN, start)}


def test_write_book_writes_through_a_symlink_and_keeps_the_file_mode(
    tiny: Book, tmp_path: Path
) -> None:
    """``book build --out LINK`` replaced the symlink by a file of the umask's mode: the file
    it points to is rewritten, the link kept, the file's permissions kept, no temporary file
    left; a directory named as the book is refused before anything is written."""
    target, link = tmp_path / "target.book", tmp_path / "link.book"
    target.write_bytes(b"old")
    target.chmod(0o600)
    link.symlink_to(target.name)
    write_book(tiny, link)
    assert link.is_symlink() and os.readlink(link) == target.name
    assert read_book(AMERICAN, target).positions == tiny.positions
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.book", "target.book"]
    (tmp_path / "folder.book").mkdir()
    with pytest.raises(OSError, match="a directory, not a regular file"):
        write_book(tiny, tmp_path / "folder.book")


def test_book_refuses_a_damaged_file(tiny: Book, tmp_path: Path) -> None:
    path = tmp_path / "a.book"
    write_book(tiny, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(BookFileError, match="cut short|damaged"):
        read_book(AMERICAN, path)
    path.write_bytes(b"not a book at all")
    with pytest.raises(BookFileError, match="not gzip"):
        read_book(AMERICAN, path)
    _write_json(path, [1, 2, 3])
    with pytest.raises(BookFileError, match="not a Damiera opening book"):
        read_book(AMERICAN, path)


def test_book_refuses_another_version_or_rule_set(tiny: Book, tmp_path: Path) -> None:
    data = book_json(tiny)
    path = _write_json(tmp_path / "v.book", dict(data, version=99))
    with pytest.raises(BookFileError, match="version 99"):
        read_book(AMERICAN, path)
    write_book(tiny, path)
    with pytest.raises(BookFileError, match="a book for 'american', not 'italian'"):
        read_book(variant("italian"), path)


def test_book_refuses_an_illegal_move_and_a_bad_position(tiny: Book, tmp_path: Path) -> None:
    data = book_json(tiny)
    rows = data["positions"]
    assert isinstance(rows, list)
    fen, moves = rows[0]
    bad = dict(data, positions=[[fen, [["1-5", 0, 2]]]])  # 1-5: no such move from the start
    with pytest.raises(BookFileError, match="'1-5' is not a legal move"):
        read_book(AMERICAN, _write_json(tmp_path / "m.book", bad))
    bad = dict(data, positions=[[fen, [[moves[0][0], "12", 2]]]])
    with pytest.raises(BookFileError, match=r"\[text, score, depth\]"):
        read_book(AMERICAN, _write_json(tmp_path / "s.book", bad))
    bad = dict(data, positions=[["B:W21-32:B1-12", moves]])  # a range: not canonical
    with pytest.raises(BookFileError, match="canonical"):
        read_book(AMERICAN, _write_json(tmp_path / "f.book", bad))
    bad = dict(data, positions=[rows[0], rows[0]])
    with pytest.raises(BookFileError, match="twice"):
        read_book(AMERICAN, _write_json(tmp_path / "d.book", bad))


def test_book_refuses_a_file_too_large(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import damiera.engine.book as book_module

    path = tmp_path / "big.book"
    path.write_bytes(b"\x1f\x8b" + b"\0" * 2000)
    monkeypatch.setattr(book_module, "MAX_BOOK_BYTES", 1000)
    with pytest.raises(BookFileError, match="larger than 1,000 bytes"):
        read_book(AMERICAN, path)


def test_engine_plays_a_book_move_from_a_book_position(tiny: Book) -> None:
    game = Game(AMERICAN)
    with Engine(AMERICAN, 3, book=tiny, seed=1) as engine:
        result = engine.play(game, Limit(time=1.0))
    assert result.move is not None and result.nodes == 0  # no search
    assert result.move.raw in [m.move for m in tiny.candidates(game.position)]


def test_book_variety_two_seeds_give_different_moves() -> None:
    start = start_position(AMERICAN)
    first, second = (parse_move(AMERICAN, start, t) for t in ("11-15", "9-13"))
    book = Book(AMERICAN, {start: [BookMove(first, "11-15", 10, 12),
                                   BookMove(second, "9-13", 10, 12)]})
    played = {seed: Engine(AMERICAN, 3, book=book, seed=seed).play(Game(AMERICAN)).move
              for seed in range(12)}
    assert {str(m) for m in played.values()} == {"11-15", "9-13"}
    chosen = {book.choose(start, random.Random(s)) for s in range(12)}
    assert {m.text for m in chosen if m is not None} == {"11-15", "9-13"}


def test_book_margin_keeps_moves_far_below_the_best_out(tiny: Book) -> None:
    start = start_position(AMERICAN)
    for seed in range(8):
        assert tiny.choose(start, random.Random(seed), margin=0) == tiny.moves(start)[0]
    chances = move_chances(tiny.moves(start), 20)
    assert abs(sum(chances) - 1) < 1e-9 and chances[0] == max(chances)


def test_book_margin_zero_plays_the_first_of_equal_best_moves() -> None:
    """Two moves tied for the best score: margin 0 always plays the first (the book's order,
    by text among equal scores), never a draw between them; a wider margin draws either."""
    start = start_position(AMERICAN)
    first, second = (parse_move(AMERICAN, start, t) for t in ("11-15", "11-16"))
    book = Book(AMERICAN, {start: [BookMove(second, "11-16", 3, 2),
                                   BookMove(first, "11-15", 3, 2)]})
    assert [m.text for m in book.moves(start)] == ["11-15", "11-16"]

    def texts(margin: int) -> set[str | None]:
        chosen = (book.choose(start, random.Random(s), margin=margin) for s in range(16))
        return {m.text if m is not None else None for m in chosen}

    assert texts(0) == {"11-15"}
    assert texts(20) == {"11-15", "11-16"}


def test_engine_falls_back_to_the_search_out_of_book(tiny: Book) -> None:
    game = Game(AMERICAN)
    for text in ("11-15", "23-19"):  # two plies: past the tiny book
        game.play(parse_move(AMERICAN, game.position, text))
    assert game.position not in tiny
    with Engine(AMERICAN, 3, book=tiny) as engine:
        result = engine.play(game, Limit(depth=3))
    assert result.nodes > 0 and result.move is not None
    assert result.move.raw in legal_moves(AMERICAN, game.position)


def test_fixed_depth_node_budget_and_analysis_always_search(tiny: Book) -> None:
    with Engine(AMERICAN, 3, book=tiny) as engine:
        assert engine.play(Game(AMERICAN), Limit(depth=2)).nodes > 0
        assert engine.play(Game(AMERICAN), Limit(nodes=2000)).nodes > 0
        assert engine.play(Game(AMERICAN), Limit(time=0.05), use_book=False).nodes > 0
        assert engine.analyse(Game(AMERICAN), Limit(depth=2)).nodes > 0


def test_levels_1_and_2_play_without_the_book(tiny: Book, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    write_book(tiny, tmp_path / "american.book")
    monkeypatch.setenv("DAMIERA_BOOK_DIR", str(tmp_path))
    assert Engine(AMERICAN, 3).book is not None
    assert Engine(AMERICAN, 3, book=False).book is None
    assert Engine(AMERICAN, 1).book is None and Engine(AMERICAN, 2).book is None
    assert Engine(AMERICAN, 1, book=True).book is not None


def test_engine_book_switch_errors(tiny: Book, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAMIERA_BOOK_DIR", str(tmp_path))
    with pytest.raises(ValueError, match="no opening book for frisian"):
        Engine("frisian", 3, book=True)
    with pytest.raises(ValueError, match="the book is for american"):
        Engine("italian", 3, book=tiny)
    with pytest.raises(TypeError):
        Engine(AMERICAN, 3, book="yes")  # type: ignore[arg-type]


def test_every_shipped_book_move_is_legal() -> None:
    """Every move of every book in the package is one the rules core generates there (also
    checked by read_book; here once more, move by move)."""
    files = sorted(PACKAGE_DIR.glob("*.book"))
    for path in files:
        v = variant(path.name.removesuffix(".book"))
        book = read_book(v, path)
        assert len(book) > 0 and path.stat().st_size < 1_000_000
        for pos, moves in book.positions.items():
            legal = legal_moves(v, pos)
            assert moves and all(m.move in legal for m in moves)
            assert apply_move(pos, moves[0].move) is not None


def test_cli_book_build_and_info(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "a.book"
    status = main(["book", "build", "american", "--plies", "2", "--full", "1", "--depth", "2",
                   "--positions", "12", "--out", str(out)])
    text = capsys.readouterr().out
    assert status == 0 and "done: 12 positions (12 searched)" in text
    status = main(["book", "build", "american", "--plies", "2", "--full", "1", "--depth", "2",
                   "--positions", "15", "--out", str(out)])  # goes on from the 12
    text = capsys.readouterr().out
    assert status == 0 and "going on from 12 positions" in text and "(3 searched)" in text
    assert main(["book", "info", "american", "--file", str(out)]) == 0
    assert "15 positions" in capsys.readouterr().out
    assert main(["book", "build", "american", "--plies", "0", "--depth", "2"]) == 2
    out.write_bytes(b"junk")
    assert main(["book", "info", "american", "--file", str(out)]) == 2
    assert "not gzip" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["info", "build"])
def test_cli_book_refuses_a_fifo_without_blocking(tmp_path: Path, command: str) -> None:
    """A FIFO named as the book blocked the reader (an open for reading waits for a writer):
    it is refused at once, by name, in one line. Run in a child process with a timeout, so
    that a regression fails instead of hanging the suite."""
    fifo = tmp_path / "a.book"
    os.mkfifo(fifo)
    argv = (["info", "american", "--file", str(fifo)] if command == "info" else
            ["build", "american", "--plies", "1", "--depth", "1", "--out", str(fifo)])
    done = subprocess.run([sys.executable, "-m", "damiera", "book", *argv], check=False,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"damiera: error: {fifo}: cannot read it (a FIFO, not a "
                                  "regular file)")
    assert done.stderr.count("\n") == 1


def test_cli_bestmove_plays_from_a_book(tiny: Book, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    write_book(tiny, tmp_path / "american.book")
    monkeypatch.setenv("DAMIERA_BOOK_DIR", str(tmp_path))
    assert main(["bestmove", "american", "--movetime", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "depth" not in out  # no search lines: a book move
    assert out.split()[-1] in {m.text for m in tiny.candidates(start_position(AMERICAN))}
    assert main(["bestmove", "american", "--movetime", "0.05", "--book", "off"]) == 0
    assert "depth 1 " in capsys.readouterr().out


def test_hub_book_parameter() -> None:
    import io

    out = io.StringIO()
    session = HubSession(out)
    session.handle("hub")
    assert "param name=book value=true type=bool" in out.getvalue()
    session.handle("set-param name=book value=false")
    assert session.book is False
    session.handle("set-param name=book value=maybe")
    assert "book is true or false" in out.getvalue()


def test_cli_match_takes_each_sides_book_switch(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["match", "american", "--first", "3", "--second", "3", "--games", "2",
                   "--movetime", "0.01", "--first-book", "off", "--second-book", "off",
                   "--quiet", "--cpu-time"])
    assert status == 0 and "2 games" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # argparse refuses a value other than on or off
        main(["match", "american", "--first", "3", "--second", "3", "--games", "2",
              "--first-book", "maybe"])


@pytest.mark.parametrize("margin, error", [(-5, ValueError), (1001, ValueError),
                                           ("x", TypeError), (2.5, TypeError),
                                           (True, TypeError)])
def test_engine_refuses_a_book_margin_that_is_not_centi_men_0_to_1000(margin, error) -> None:
    """A negative margin once switched the book off without a word, and a text failed only
    at the first move: both are refused when the engine is made."""
    with pytest.raises(error, match="book_margin"):
        Engine(AMERICAN, book_margin=margin)
