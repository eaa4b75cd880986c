"""Game: history, undo, results with their reasons, draw rules, PDN (RULES.md section 1, 4)."""

from __future__ import annotations

import pytest

from damiera.pdn import read_game, write_game
from damiera.rules.game import Game, GameOverError, NoMoveToUndoError, Result, ResultReason
from damiera.rules.movegen import apply_move, has_capture
from damiera.rules.notation import IllegalMoveError
from damiera.rules.position import write_fen
from damiera.rules.variant import Color, variant


def test_end_of_game_no_pieces_loses() -> None:
    game = Game(variant("italian"), "W:W29:B11,19,26")
    game.play("29x6")
    assert game.result == Result(Color.WHITE, ResultReason.NO_PIECES)
    assert game.result.describe() == "White wins: Black has no pieces left"


def test_end_of_game_no_pieces_loses_also_when_the_game_starts_so() -> None:
    # Set up from a FEN with White to move and no black piece: White has already won.
    game = Game(variant("international"), "W:W46:B")
    assert game.result == Result(Color.WHITE, ResultReason.NO_PIECES)
    assert game.legal_moves == []
    with pytest.raises(GameOverError):
        game.play("46-41")


def test_end_of_game_no_legal_move_loses() -> None:
    game = Game(variant("italian"), "W:W32:BK28")
    assert game.result == Result(Color.BLACK, ResultReason.NO_MOVES)
    assert game.legal_moves == []
    with pytest.raises(GameOverError):
        game.play("32-27")


def test_draw_threefold_repetition() -> None:
    game = Game(variant("american"), "W:WK29:BK4")
    shuttle = ["29-25", "4-8", "25-29", "8-4"]
    for ply in range(7):
        game.play(shuttle[ply % 4])
        assert game.result is None, ply
    game.play(shuttle[7 % 4])
    assert game.result == Result(None, ResultReason.REPETITION)


def _play_quietly_without_repeating(game: Game, plies: int) -> None:
    """Play ``plies`` quiet king moves that never give a capture nor repeat a position twice."""
    for _ in range(plies):
        for move in game.legal_moves:
            after = apply_move(game.position, move.raw)
            if (
                not move.captures
                and not has_capture(game.variant, after)
                and game.positions.count(after) < 2
            ):
                game.play(move)
                break
        else:
            raise AssertionError("no quiet move found")


def test_draw_forty_moves_each_without_capture_or_promotion() -> None:
    game = Game(variant("international"), "W:WK46,K50:BK1,K5")
    _play_quietly_without_repeating(game, 79)
    assert game.result is None
    assert game.moves_without_progress == 39
    _play_quietly_without_repeating(game, 1)
    assert game.result == Result(None, ResultReason.NO_PROGRESS)


def test_forty_move_counter_resets_on_capture_and_promotion() -> None:
    game = Game(variant("american"), "W:WK29,6:BK4")
    game.play("29-25")
    game.play("4-8")
    assert game.plies_without_progress == 2
    game.play("6-2")  # promotion
    assert game.plies_without_progress == 0


def test_undo_restores_position_and_result() -> None:
    game = Game(variant("italian"), "W:W29:B11,19,26")
    before = game.fen
    game.play("29x6")
    assert game.is_over()
    undone = game.undo()
    assert str(undone) == "29x22x15x6" and game.fen == before and game.result is None
    with pytest.raises(NoMoveToUndoError):
        game.undo()


@pytest.mark.parametrize("plies", [0, -1])
def test_undo_of_fewer_than_one_ply_is_refused_as_such(plies: int) -> None:
    """undo(0) and undo(-1) with moves played said 'cannot take back 0 move(s): 2 played',
    as if too few moves had been played: the count is refused, the game left as it was."""
    game = Game(variant("international"))
    game.play("32-28")
    game.play("19-23")
    with pytest.raises(NoMoveToUndoError, match=f"takes back at least 1 ply, not {plies}$"):
        game.undo(plies)
    assert game.ply == 2
    with pytest.raises(NoMoveToUndoError, match="cannot take back 3 move"):
        game.undo(3)


def test_illegal_move_leaves_the_game_unchanged() -> None:
    game = Game(variant("american"))
    with pytest.raises(IllegalMoveError):
        game.play("22-18")  # Black moves first in American checkers
    assert game.moves == [] and game.fen == write_fen(game.variant, game.start)


def test_resignation_and_agreement() -> None:
    game = Game(variant("russian"))
    assert game.resign(Color.WHITE) == Result(Color.BLACK, ResultReason.RESIGNATION)
    with pytest.raises(GameOverError):
        game.agree_draw()
    with pytest.raises(GameOverError):
        game.undo()
    other = Game(variant("russian"))
    other.play("c3-d4")
    assert other.agree_draw() == Result(None, ResultReason.AGREEMENT)
    assert other.result and other.result.pdn == "1/2-1/2"


def test_pdn_of_one_game_has_gametype_and_numbered_moves() -> None:
    game = Game(variant("american"))
    for text in ["11-15", "23-19", "8-11", "22-17"]:
        game.play(text)
    pdn = write_game(game, {"White": "Ann", "Black": "Bob"})
    assert '[GameType "21,B,8,8,N1,0"]' in pdn
    assert "FEN" not in pdn
    assert '[Result "*"]' in pdn
    assert pdn.rstrip().endswith("1. 11-15 23-19 2. 8-11 22-17 *")


def test_pdn_from_a_position_has_fen_tag_and_result() -> None:
    game = Game(variant("italian"), "W:W29:B11,19,26")
    game.play("29x6")
    pdn = write_game(game)
    assert '[FEN "W:W29:B11,19,26"]' in pdn
    assert '[GameType "22,W,8,8,N2,1"]' in pdn
    assert pdn.rstrip().endswith("1. 29x22x15x6 1-0")


def test_pdn_black_to_move_first_in_a_white_first_variant() -> None:
    game = Game(variant("russian"), "B:Wa1:Bh8")
    game.play("h8-g7")
    assert "1... h8-g7 *" in write_game(game)


def test_pdn_tag_values_are_escaped() -> None:
    game = Game(variant("russian"))
    pdn = write_game(game, {"White": 'Ann "the hammer"', "Event": 'x]\n[Result "1-0"'})
    assert '[White "Ann \\"the hammer\\""]' in pdn
    assert [line for line in pdn.splitlines() if line.startswith("[Result")] == ['[Result "*"]']


def test_playing_a_move_object_from_another_position_is_an_illegal_move() -> None:
    game = Game(variant("american"))
    other = Game(variant("american"), "W:W22:B4")
    with pytest.raises(IllegalMoveError):
        game.play(other.legal_moves[0])
    assert game.moves == []


def test_pdn_of_a_house_rule_game_says_captures_were_optional() -> None:
    """Optional capture (house rule): 30-26 declines the capture 22x15, illegal under the
    GameType alone, so the PDN carries ``[CaptureRule "optional"]``; standard games do not."""
    game = Game(variant("american", optional_capture=True), "W:W22,30:B18")
    game.play("30-26")
    pdn = write_game(game)
    assert '[CaptureRule "optional"]' in pdn and '[GameType "21,B,8,8,N1,0"]' in pdn
    assert "CaptureRule" not in write_game(Game(variant("american")))
    back = read_game(pdn)       # the reader takes the tag back: the game replays as played
    assert back is not None and back.variant.optional_capture
    assert [str(m) for m in back.game.moves] == ["30-26"]


def test_pdn_comments_follow_their_moves() -> None:
    game = Game(variant("american"))
    for text in ["11-15", "23-19", "8-11"]:
        game.play(text)
    pdn = write_game(game, comments=["[%clk 0:04:58]", None, "a {brace}"])
    # the one PDN writer (damiera.pdn): after a comment the next move is numbered again,
    # and a brace inside a comment becomes a parenthesis (comments do not nest)
    assert pdn.rstrip().endswith("1. 11-15 {[%clk 0:04:58]} 1... 23-19 2. 8-11 {a (brace)} *")
