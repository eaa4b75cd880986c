"""Rules that live in a game's moves, not in its position (Frisian's limit of a king's
quiet moves in a row, its king-only endings' draws): a record that breaks them is a broken
game with its line and column in every error mode, never an exception out of the reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from damiera import pdn
from damiera.cli import main
from damiera.pdn import PdnError

#: White's king makes its fourth quiet move in a row while White still has a man.
TIRED = ('[GameType "40"]\n[FEN "W:WK46,45:B1,2"]\n'
         "1. 46-41 1-7 2. 41-46 7-12\n3. 46-41 2-8 4. 41-46 *\n")
GOOD = '[GameType "40"]\n1. 31-26 20-24 *\n'


def test_a_kings_fourth_quiet_move_is_a_placed_error_when_collected() -> None:
    games = list(pdn.read_games(TIRED + "\n" + GOOD, errors="collect"))
    assert len(games) == 2
    error = games[0].error
    assert error is not None and error.rule == "illegal-move"
    assert error.line == 4 and error.column == 17
    assert str(error).startswith("game 1, line 4, column 17: move 4. 41-46: this king ")
    assert "3 moves in a row" in str(error)
    assert len(games[0].moves) == 6  # the moves before the error are kept
    assert games[1].error is None and len(games[1].moves) == 2


def test_skip_drops_only_the_broken_game_and_raise_raises_pdn_error() -> None:
    games = list(pdn.read_games(TIRED + "\n" + GOOD, errors="skip"))
    assert [len(g.moves) for g in games] == [2]
    with pytest.raises(PdnError, match="move 4. 41-46"):
        list(pdn.read_games(TIRED))


def test_pdn_check_reports_it_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "k4.pdn"
    path.write_text(TIRED)
    status = main(["pdn", "check", str(path)])
    out, err = capsys.readouterr()
    assert status == 1 and "Traceback" not in err
    assert out.startswith(f"{path}: game 1, line 4, column 17: move 4. 41-46: this king ")


def test_a_record_that_plays_on_after_a_king_only_ending_draw_still_replays() -> None:
    # Two kings against one in Frisian: drawn by the king-only endings' rule after a few
    # moves; a record that plays on is read with the draw noted, as other draws by rule.
    text = ('[GameType "40"]\n[FEN "W:WK46,K36:BK5"]\n'
            "1. 36-4 5x1 2. 46-5 1-6 3. 5-10 6-1 4. 10-4 1x5 *\n")
    (game,) = pdn.read_games(text, errors="collect")
    assert game.error is None and len(game.moves) == 8
    assert game.noted_draw is not None and game.noted_draw[0] == 6
