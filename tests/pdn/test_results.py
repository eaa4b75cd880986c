"""A game's result through reading and writing: the movetext's end marker, the ``Result``
tag when the marker says nothing (``*``), each variant's convention (``2-0`` on the 10x10
board, ``1-0`` on 8x8), and the same result after a round trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from damiera import pdn
from damiera.cli import main


def _round_trip(text: str, variant: str = "international") -> tuple[str, str, str]:
    """The result read, the result read back after writing, and the text written."""
    (game,) = pdn.read_games(text, variant)
    written = pdn.write_game(game)
    (back,) = pdn.read_games(written, variant)
    return game.result, back.result, written


def test_result_tag_fills_an_unknown_end_marker_and_survives_a_round_trip() -> None:
    text = '[Result "0-2"]\n1. 32-28 19-23 *\n'
    first, back, written = _round_trip(text)
    assert first == back == "0-2"
    assert '[Result "0-2"]' in written and written.rstrip().endswith("0-2")


def test_end_marker_wins_over_a_disagreeing_result_tag() -> None:
    first, back, written = _round_trip('[Result "2-0"]\n1. 32-28 19-23 0-2\n')
    assert first == back == "0-2"
    assert '[Result "0-2"]' in written


def test_unknown_marker_and_no_tag_stay_unknown() -> None:
    first, back, _ = _round_trip('[Result "?"]\n1. 32-28 *\n')
    assert first == back == "*"


@pytest.mark.parametrize(
    ("variant", "token", "canonical"),
    [("russian", "2-0", "1-0"), ("russian", "1-1", "1/2-1/2"), ("russian", "0-2", "0-1"),
     ("american", "2-0", "1-0"), ("international", "1-0", "2-0"),
     ("international", "1/2-1/2", "1-1"), ("international", "0-1", "0-2"),
     ("italian", "0-0", "0-0")],
)
def test_results_are_read_in_the_variants_convention_and_round_trip(
    variant: str, token: str, canonical: str
) -> None:
    (game,) = pdn.read_games(f"[Event \"x\"]\n{token}\n", variant)
    assert game.result == canonical
    assert game.result_text == token
    (back,) = pdn.read_games(pdn.write_game(game), variant)
    assert back.result == game.result


def test_russian_2_0_through_pdn_convert_compares_equal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "russian.pdn"
    source.write_text('[GameType "25"]\n[Result "2-0"]\n1. c3-d4 f6-g5 2-0\n\n'
                      '[GameType "25"]\n[Result "0-2"]\n1. c3-d4 *\n')
    out = tmp_path / "out.pdn"
    assert main(["pdn", "convert", str(source), "-o", str(out)]) == 0
    capsys.readouterr()
    before = [g.result for g in pdn.read_games(source.read_text())]
    after = [g.result for g in pdn.read_games(out.read_text())]
    assert before == after == ["1-0", "0-1"]


def test_a_second_result_after_the_games_result_is_an_error_with_line_and_column() -> None:
    """``1. 32-28 19-23 1-0 0-2``: the stray ``0-2`` was dropped without a word. It is a
    syntax error at its own line and column (the game before it is kept), on the same line
    or on a line of its own."""
    first, stray = pdn.read_games("1. 32-28 19-23 1-0 0-2\n", errors="collect")
    assert first.error is None and first.result_text == "1-0" and len(first.moves) == 2
    assert stray.error is not None
    assert (stray.error.line, stray.error.column, stray.error.rule) == (1, 20, "syntax")
    assert "second result 0-2 after the game's 1-0 (column 16)" in stray.error.message
    with pytest.raises(pdn.PdnError, match="line 2, column 1: a result 0-2 with no game"):
        list(pdn.read_games("1. 32-28 19-23 1-0\n0-2\n"))
