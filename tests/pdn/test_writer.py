"""Writing canonical PDN 3.0: tag order, results in the variant's convention, full capture
paths, move numbers for set-ups, and many games in one text."""

from __future__ import annotations

import io

import pytest

import damiera
from damiera import pdn
from damiera.pdn import write_game


def _tags(text: str) -> list[str]:
    return [line.split(" ", 1)[0][1:] for line in text.splitlines() if line.startswith("[")]


def test_tags_in_the_standard_order() -> None:
    text = '[Opening "x"]\n[Black "B"]\n[Result "2-0"]\n[Event "E"]\n[GameType "20"]\n1. 32-28 2-0'
    (game,) = pdn.read_games(text)
    written = pdn.write_game(game)
    assert _tags(written) == ["Event", "Site", "Date", "Round", "White", "Black", "Result",
                              "GameType", "Opening"]
    assert '[Site "?"]' in written and '[Black "B"]' in written


@pytest.mark.parametrize(
    ("variant", "token", "written"),
    [("international", "1-0", "2-0"), ("international", "1/2-1/2", "1-1"),
     ("international", "0-1", "0-2"), ("american", "2-0", "1-0"),
     ("american", "1-1", "1/2-1/2"), ("american", "0-2", "0-1"), ("russian", "*", "*")],
)
def test_results_in_the_variants_convention(variant: str, token: str, written: str) -> None:
    (game,) = pdn.read_games(f'[Event "x"]\n{token}', variant)
    text = pdn.write_game(game)
    assert f'[Result "{written}"]' in text
    assert text.rstrip().endswith(written)


def test_full_capture_paths_and_the_capture_separator() -> None:
    (game,) = pdn.read_games('[FEN "W:Wc3:Bd4,f6"]\n1. c3xg7 *', "russian")
    assert "1. c3:e5:g7 *" in pdn.write_game(game)


def test_setup_where_the_first_side_moves_is_numbered_1() -> None:
    (game,) = pdn.read_games('[FEN "B:WK29:BK4"]\n4-8 29-25 8-11 *', "american")
    text = pdn.write_game(game)
    assert '[FEN "B:WK29:BK4"]' in text
    assert "1. 4-8 29-25 2. 8-11 *" in text


def test_setup_where_the_second_side_moves_opens_with_dots() -> None:
    (game,) = pdn.read_games('[FEN "W:WK29:BK4"]\n29-25 4-8 25-22 *', "american")
    assert "1... 29-25 2. 4-8 25-22 *" in pdn.write_game(game)


def test_comments_nags_and_variations_are_written() -> None:
    (game,) = pdn.read_games("{start} 1. 32-28! {a} 19-23 (18-23 $2) 2. 28x19 *")
    text = pdn.write_game(game)
    assert "{start} 1. 32-28! {a} 1... 19-23 (1... 18-23 $2) 2. 28x19 *" in text


def test_a_library_game_is_written_with_its_outcome() -> None:
    game = damiera.Game("american", fen="B:W29:B18,25")
    game.play("18-22")  # White's man on 29 is blocked: White has no legal move
    text = write_game(game, {"Event": "Test"})
    assert '[Event "Test"]' in text and '[Result "0-1"]' in text
    assert '[FEN "B:W29:B18,25"]' in text


def test_many_games_to_a_handle_and_long_lines_wrapped() -> None:
    games = list(pdn.read_games("1. 32-28 19-23 2. 28x19 14x23 *\n" * 3))
    out = io.StringIO()
    assert pdn.write_games(games, out) == ""
    text = out.getvalue()
    assert text.count("[Event") == 3
    assert len(list(pdn.read_games(text))) == 3
    long = damiera.Game("international")
    for move in ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"] * 1:
        long.play(move)
    assert all(len(line) <= 79 for line in write_game(long).splitlines())
