"""The shape of the native core (csrc/) and its one door: plain C units without an include
circle, and every value from Python checked before a unit sees it (that only the binding
file knows Python is tests/test_layout.py's)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from damiera import _core
from damiera.engine.evaluate import Evaluator
from damiera.engine.search import Searcher
from damiera.rules.geometry import geometry
from damiera.rules.movegen import VALUES, Move, apply_move, legal_moves, native_rules
from damiera.rules.position import Position, parse_fen, start_position
from damiera.rules.variant import Color, variant

CSRC = Path(__file__).resolve().parent.parent / "csrc"
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.MULTILINE)


def _includes(path: Path) -> list[tuple[str, str]]:
    return INCLUDE.findall(path.read_text())


def test_no_include_circle_in_csrc() -> None:
    local = {p.name: [name for kind, name in _includes(p) if kind == '"']
             for p in CSRC.glob("*.[ch]")}
    assert all(name in local for names in local.values() for name in names)
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, " -> ".join([*path, name])
        if name in done:
            return
        for child in local[name]:
            visit(child, [*path, name])
        done.add(name)

    for name in local:
        visit(name, [])


def test_a_position_with_more_pieces_a_side_than_a_capture_may_take_is_refused() -> None:
    # 25 men a side on 10x10: a capture could take more pieces than the core's move has room
    # for; the binding refuses the position for move generation, the search and perft.
    v = variant("international")
    squares = sorted(geometry(v).squares)
    white = sum(1 << s for s in squares[:_core.MAX_CAPS + 1])
    black = sum(1 << s for s in squares[_core.MAX_CAPS + 1:])
    crowded = Position(white, black, 0, Color.WHITE)
    with pytest.raises(ValueError, match="more than 24 pieces"):
        legal_moves(v, crowded)
    with pytest.raises(ValueError, match="more than 24 pieces"):
        Searcher(v).search(crowded, depth=1)
    with pytest.raises(ValueError, match="more than 24 pieces"):
        native_rules(v).perft(crowded, 1)
    # The evaluation generates no move: set-up positions of any count are scored.
    assert isinstance(Evaluator(v).evaluate(crowded), int)


@pytest.mark.parametrize("position, message", [
    (Position(1 << 8, 0, 0, Color.WHITE), "off the playing squares"),  # a ghost bit of 8x8
    (Position(1, 1, 0, Color.WHITE), "both sides"),
    (Position(1, 0, 2, Color.WHITE), "king stands on an empty square"),
])
def test_a_position_off_the_board_is_refused_with_the_reason(position: Position,
                                                             message: str) -> None:
    v = variant("american")
    with pytest.raises(ValueError, match=message):
        legal_moves(v, position)
    with pytest.raises(ValueError, match=message):
        Searcher(v).search(position, depth=1, history=[position])


def test_values_that_are_not_positions_or_moves_are_type_errors() -> None:
    v = variant("russian")
    pos = start_position(v)
    with pytest.raises(TypeError, match="Position"):
        legal_moves(v, (1, 2, 3))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Color"):
        legal_moves(v, Position(pos.white, pos.black, 0, "W"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Move"):
        apply_move(pos, (1, 2))  # type: ignore[arg-type]
    bad = Move(130, 1, (130, 1), (), 0, 0, False, False)  # past the wide build's 128 bits
    with pytest.raises(ValueError, match="off the board"):
        apply_move(pos, bad)
    with pytest.raises(TypeError, match="Values"):
        _core.Rules(8, True, True, True, 0, 1, True, list(range(32)), 3, 80,
                    object())  # type: ignore[arg-type]


def test_the_search_reads_only_the_end_of_a_long_history() -> None:
    # A game of thousands of plies costs no more than the draw rule's span: the search
    # reads back at most that many positions (and refuses a history that is not positions).
    v = variant("american")
    pos = parse_fen(v, "W:WK30:B3,K12")
    other = parse_fen(v, "B:WK25:B3,K12")
    long_history = [pos, other] * 5000 + [pos]
    result = Searcher(v).search(pos, depth=2, history=long_history)
    assert result.move is not None
    with pytest.raises(TypeError):
        Searcher(v).search(pos, depth=2, history=[pos, "not a position"])  # type: ignore[list-item]


def test_the_core_is_asked_whether_a_move_is_progress() -> None:
    v = variant("russian")
    capture = legal_moves(v, parse_fen(v, "W:Wc3:Bd4,f6"))[0]
    quiet = legal_moves(v, start_position(v))[0]
    assert VALUES.is_progress(capture) and not VALUES.is_progress(quiet)


def test_limits_sizes_and_weights_from_python_are_refused_with_the_reason(
        tmp_path: Path) -> None:
    # The binding hands these numbers to the core's boundary checks and raises their message.
    rules = native_rules(variant("american"))
    evaluation = _core.Evaluation(rules)
    engine = _core.Engine(rules, evaluation, 1024)
    start = start_position(variant("american"))
    deepest = f"depth must be 0-{_core.MAX_PLY - 10} plies"
    for limits, message in (({"depth": _core.MAX_PLY - 9}, deepest), ({"depth": -1}, deepest),
                            ({"movetime": float("nan")}, "movetime must be 0-3600 seconds"),
                            ({"nodes": -1}, "nodes must be 0 or more")):
        with pytest.raises(ValueError, match=message):
            engine.search(start, [], **limits)
    assert engine.search(start, [], depth=1)[0] is not None
    for entries in (0, -1, (1 << 32) + 1, 1 << 70, -(1 << 70)):
        with pytest.raises(ValueError, match="tt_entries must be from 1 to 2"):
            _core.Engine(rules, evaluation, entries)
    for not_whole in (True, 1024.0, "1024", None):
        with pytest.raises(TypeError, match="tt_entries must be an int"):
            _core.Engine(rules, evaluation, not_whole)  # type: ignore[arg-type]

    class Whole:  # an integer by __index__, as NumPy's are
        def __index__(self) -> int:
            return 2048

    assert _core.Engine(rules, evaluation, Whole()).search(start, [], depth=1)[0] is not None
    with pytest.raises(ValueError, match="8x8 and 10x10 boards only"):
        _core.Egdb(native_rules(variant("turkish")), 2)
    with pytest.raises(ValueError, match=f"from 2 to {_core.EGDB_MAX_PIECES}"):
        _core.Egdb(rules, _core.EGDB_MAX_PIECES + 1)
    with pytest.raises(ValueError, match="16-bit weights"):
        # the 24 one-row windows of 8x8, 9 weights each, and one byte more
        _core.Evaluation(rules, tables=(1, 1, bytes(24 * 9 * 2 + 1)))
    with pytest.raises(OSError):
        _core.Evaluation(rules, weights=str(tmp_path / "missing.bin"), key="8x8")
    (tmp_path / "bad.bin").write_bytes(b"not weights\n")
    with pytest.raises(ValueError, match="bad.bin"):
        _core.Evaluation(rules, weights=str(tmp_path / "bad.bin"), key="8x8")
    with pytest.raises(TypeError, match="key="):  # a file's rules are always checked
        _core.Evaluation(rules, weights=str(tmp_path / "bad.bin"))
