"""The checkers literature's star (``22-17*``: the only move that wins or draws, as in the
Oldbury column files) inside a game, and errors that number moves as the file does and
point at a ``*`` that ended the game before."""

from __future__ import annotations

import pytest

from damiera import pdn
from damiera.pdn import PdnError

# American checkers: Black's 13x22 answers White's 22-17, starred in the book.
LINE = "1. 11-16 24-20 2. 9-13 20x11 3. 7x16 22-17* 4. 13x22 25x18"


def test_a_star_glued_to_a_move_marks_it_and_the_game_goes_on() -> None:
    (game,) = pdn.read_games(f'[GameType "21"]\n{LINE} 1/2-1/2\n')
    assert [str(m) for m in game.moves][-3:] == ["22-17", "13x22", "25x18"]
    assert game.plies[5].nags == ["*"]
    assert game.result == "1/2-1/2"


def test_the_star_is_written_back_and_read_again() -> None:
    (game,) = pdn.read_games(f'[GameType "21"]\n{LINE} *\n')
    text = pdn.write_game(game)
    assert "22-17* 4. 13x22" in text
    (back,) = pdn.read_games(text)
    assert back.plies[5].nags == ["*"] and len(back.plies) == len(game.plies)


def test_a_star_glued_to_the_last_move_still_ends_the_game() -> None:
    text = f'[GameType "21"]\n1. 11-16 24-20*\n\n[GameType "21"]\n{LINE} *\n'
    first, second = pdn.read_games(text)
    assert first.result == "*" and first.plies[-1].nags == [] and len(first.plies) == 2
    assert len(second.plies) == 8
    (last,) = pdn.read_games('[GameType "21"]\n1. 11-16 24-20*')
    assert last.plies[-1].nags == [] and last.error is None


def test_a_star_in_a_variation_is_a_mark() -> None:
    text = '[GameType "21"]\n1. 11-16 24-20 (22-18* 16-19) 2. 9-13 *\n'
    (game,) = pdn.read_games(text)
    assert game.plies[1].variations[0][0].nags == ["*"]


def test_an_error_numbers_the_move_as_the_file_does() -> None:
    # a set-up numbered from move 20, as a book writes a position from a game
    text = '[GameType "21"]\n[FEN "B:WK29:B1,4"]\n20. 4-8 29-25 21. 8-12 25x28 *\n'
    with pytest.raises(PdnError) as info:
        list(pdn.read_games(text))
    assert "move 21... 25x28" in info.value.message
    assert (info.value.line, info.value.column) == (3, 24)


def test_a_spaced_star_ends_the_game_and_the_next_ones_error_points_at_it() -> None:
    text = '[GameType "21"]\n' + LINE.replace("22-17*", "22-17 *") + " 1/2-1/2\n"
    first, second = pdn.read_games(text, "american", errors="collect")
    assert first.error is None and first.result == "*" and len(first.plies) == 6
    assert second.error is not None
    message = second.error.message
    assert message.startswith("move 4. 13x22:")
    assert "'*' at line 2, column 44" in message
