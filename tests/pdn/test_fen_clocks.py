"""PDN ``FEN`` tags in lidraughts' form, with ``:H<n>`` (halfmove clock) and ``:F<n>``
(move number) after the two sides' lists: read, the moves numbered from F, the draw rules'
count started at H; a malformed field is a FEN error with the tag's line and column."""

from __future__ import annotations

from damiera import pdn

LIDRAUGHTS = '[GameType "20"]\n[FEN "W:W31-50:B1-20:H0:F1"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'


def test_pdn_fen_tag_with_lidraughts_halfmove_and_move_number_is_read() -> None:
    (game,) = pdn.read_games(LIDRAUGHTS)
    assert game.error is None
    assert [str(m) for m in game.moves] == ["32-28", "19-23", "28x19", "14x23"]


def test_pdn_fen_move_number_numbers_the_written_moves_and_the_errors() -> None:
    text = '[GameType "20"]\n[FEN "B:WK47,33:BK4,18:H4:F31"]\n31... 4-10 32. 33-29 *\n'
    (game,) = pdn.read_games(text)
    assert game.error is None and game.game.start_move_number == 31
    written = pdn.write_game(game)
    assert '[FEN "B:W33,K47:BK4,18:H4:F31"]' in written
    assert "31... 4-10 32. 33-29 *" in written
    (again,) = pdn.read_games(written)
    assert [str(m) for m in again.moves] == ["4-10", "33-29"]
    (broken,) = pdn.read_games(text.replace("31... 4-10 32. 33-29", "4-10 33-27"),
                               errors="collect")
    assert broken.error is not None and "move 32. 33-27" in broken.error.message


def test_pdn_fen_halfmove_clock_starts_the_draw_rules_count() -> None:
    text = '[GameType "20"]\n[FEN "B:WK47,33:BK4,18:H6:F31"]\n31... 4-10 32. 47-41 *\n'
    (game,) = pdn.read_games(text)
    assert game.game.plies_without_progress == 8


def test_pdn_fen_malformed_lidraughts_field_is_an_error_with_line_and_column() -> None:
    text = '[GameType "20"]\n[FEN "W:W31-50:B1-20:F1:H0"]\n1. 32-28 *\n'
    (game,) = pdn.read_games(text, errors="collect")
    assert game.error is not None
    assert (game.error.line, game.error.column, game.error.rule) == (2, 2, "fen")
    assert "the H field (halfmove clock) comes before the F field" in game.error.message


def test_pdn_convert_keeps_the_halfmove_clock_and_move_number_so_a_round_trip_is_stable(
) -> None:
    """The writer dropped H and F from the FEN tag but numbered the moves from F: a second
    round renumbered them from 1, and a draw the record noted by the forty-move rule was
    gone. Now the tag keeps both (only where they differ from 0 and 1), and the text is a
    fixed point of read and write."""
    text = '[GameType "21"]\n[FEN "W:WK1:BK32:H76:F30"]\n30... 1-6 31. 32-27 6-1 32. 27-32 *\n'
    (game,) = pdn.read_games(text)
    assert game.noted_draw is not None
    once = pdn.write_game(game)
    assert '[FEN "W:WK1:BK32:H76:F30"]' in once and "30... 1-6 31. 32-27 6-1 32. 27-32 *" in once
    (again,) = pdn.read_games(once)
    assert again.noted_draw == game.noted_draw
    assert pdn.write_game(again) == once
    start = '[GameType "20"]\n[FEN "W:W31-50:B1-20:H0:F5"]\n5. 32-28 19-23 *\n'
    written = pdn.write_game(next(iter(pdn.read_games(start))))
    assert ':B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20:F5"]' in written
    assert "5. 32-28 19-23" in written
    assert pdn.write_game(next(iter(pdn.read_games(written)))) == written
