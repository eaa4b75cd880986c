"""What a python-chess user tries first, on the one :class:`damiera.Game`: push/pop/peek,
move_stack, is_game_over(), move text in legal_moves, copy.copy, str(game), Outcome.result(),
variant aliases, read_games on a path, and TypeErrors that say what was expected."""
# Move text and other values are looked up in a list of Moves on purpose here.
# mypy: disable-error-code="comparison-overlap"

from __future__ import annotations

import copy
import io
from pathlib import Path

import pytest

import damiera
from damiera import pdn
from damiera.rules import game as rules_game

RECORD = '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 1-1\n'


def test_there_is_one_game_class_and_one_move_class() -> None:
    import damiera.game

    assert damiera.Game is rules_game.Game is damiera.game.Game
    assert damiera.Move is damiera.game.Move
    game = damiera.Game("international")
    assert type(game.play("32-28")) is damiera.Move
    assert not hasattr(game, "rules_game") and not hasattr(game, "pdn")


def test_push_pop_peek_and_move_stack() -> None:
    game = damiera.Game("american")
    assert game.push("11-15") == game.peek() == damiera.Move(game.variant,
                                                              game.move_stack[0].raw)
    game.push("23-19")
    assert [str(m) for m in game.move_stack] == ["11-15", "23-19"]
    game.move_stack.clear()                      # a copy: the game keeps its moves
    assert game.ply == 2
    assert str(game.pop()) == "23-19" and str(game.pop()) == "11-15"
    with pytest.raises(IndexError, match="0 played"):
        game.pop()
    with pytest.raises(IndexError):
        game.peek()


def test_undo_on_a_fresh_game_is_nothing_to_undo_not_a_game_over() -> None:
    with pytest.raises(damiera.NoMoveToUndoError) as caught:
        damiera.Game("italian").undo()
    assert not isinstance(caught.value, damiera.GameOverError)
    resigned = damiera.Game("italian")
    resigned.play("22-19")
    resigned.resign(damiera.Color.BLACK)
    with pytest.raises(damiera.GameOverError):   # a resignation cannot be taken back
        resigned.undo()


def test_move_text_in_legal_moves() -> None:
    game = damiera.Game("international")
    assert "32-28" in game.legal_moves and "32x28" in game.legal_moves   # as play() reads it
    assert "28-32" not in game.legal_moves and "hello" not in game.legal_moves
    assert "x" * 10_000 not in game.legal_moves
    assert game.legal_moves[0] in game.legal_moves and 3 not in game.legal_moves
    # a short capture that two moves fit names neither of them; the full text does
    two = damiera.Game("international", fen="W:WK9:B38,5,18,8,33,30")
    with pytest.raises(damiera.AmbiguousMoveError):
        two.play("9x25")
    assert "9x25" not in two.legal_moves and "9x27x43x25" in two.legal_moves
    assert "9x43x25" in two.legal_moves              # a short form that only one move fits
    over = damiera.Game("russian", fen="W:Wc3:Bd4,f6")
    over.play("c3xg7")
    assert over.is_game_over() and "g7-h8" not in over.legal_moves


def test_copy_copy_is_an_independent_game() -> None:
    game = damiera.Game("russian")
    game.play("c3-d4")
    for twin in (copy.copy(game), copy.deepcopy(game), game.copy()):
        twin.play("f6-e5")
        assert game.ply == 1 and twin.ply == 2
        assert game.position == game.positions[-1] != twin.position
        twin.undo(2)
        assert game.ply == 1 and twin.ply == 0


def test_str_is_a_board_diagram() -> None:
    lines = str(damiera.Game("international", fen="W:WK46,31:B5")).splitlines()
    assert len(lines) == 11 and lines[-1] == "White to move"
    assert lines[0].split() == [".", ".", ".", ".", "b"]     # 1-5 on the top rank
    assert lines[9].split() == ["W", ".", ".", ".", "."]     # 46 in the bottom left corner
    assert lines[6].split() == ["w", ".", ".", ".", "."]     # 31
    assert all(line == line.rstrip() for line in lines)


def test_outcome_result_is_the_pdn_result_string() -> None:
    game = damiera.Game("russian", fen="W:Wc3:Bd4,f6")
    game.play("c3xg7")
    outcome = game.outcome()
    assert outcome is not None and outcome.result() == "1-0"
    assert outcome.termination is damiera.ResultReason.NO_PIECES
    draw = damiera.Game("italian")
    assert draw.agree_draw().result() == "1/2-1/2"


@pytest.mark.parametrize(("name", "variant_id"), [
    ("english", "american"), ("checkers", "american"), ("Standard", "international"),
    ("20", "international"), ("21", "american"), ("25", "russian"),
    ("22,W,8,8,N2,1", "italian"),
])
def test_variant_aliases(name: str, variant_id: str) -> None:
    assert damiera.variant(name).id == variant_id
    assert damiera.Game(name).variant.id == variant_id


@pytest.mark.parametrize(("typed", "meant"), [
    ("amercan", "american"), ("Internationl", "international"), ("russain", "russian"),
    ("chekers", "checkers"), ("english-draught", "english"), ("américan", "american"),
    # The game's word ("-checkers", "-draughts") is not what tells the rule sets apart: it
    # must not pull the guess to another game ("malaysian-checkers", "turkish-checkers").
    ("russian-checkers", "russian"), ("spanish-checkers", "spanish"), ("pool checker", "pool"),
    ("amercan+losing", "american"),
])
def test_a_misspelt_variant_names_the_nearest_one(typed: str, meant: str) -> None:
    with pytest.raises(damiera.UnknownVariantError, match=f"did you mean '{meant}'"):
        damiera.variant(typed)


@pytest.mark.parametrize(("name", "variant_id"), [
    ("Spanish draughts", "spanish"), ("Russian draughts", "russian"),
    ("italian-draughts", "italian"), ("American checkers", "american"),
    ("BRAZILIAN DRAUGHTS", "brazilian"), ("Canadian draughts+losing", "canadian"),
])
def test_a_variant_is_found_by_its_listed_name(name: str, variant_id: str) -> None:
    assert damiera.variant(name).id == variant_id


@pytest.mark.parametrize("name", ["dama", "dames", "xyz", "thai-draugths", "klingon" * 10])
def test_a_variant_name_near_none_gets_no_guess(name: str) -> None:
    # "dama" is Italian and Turkish draughts: no guess rather than "dam" (Malaysian).
    with pytest.raises(damiera.UnknownVariantError) as raised:
        damiera.variant(name)
    assert "did you mean" not in str(raised.value) and len(str(raised.value)) < 1000


def test_a_long_unknown_variant_is_quoted_short() -> None:
    with pytest.raises(damiera.UnknownVariantError) as raised:
        damiera.variant("klingon" * 10)  # 70 characters, the id's 40 shown
    assert "'" + ("klingon" * 10)[:40] + "'" in str(raised.value)


def test_unknown_variants_and_wrong_types_say_what_was_expected() -> None:
    for bad in ("klingon", "99", "21,W,10,10,N1,0"):
        with pytest.raises(damiera.UnknownVariantError, match="GameType number"):
            damiera.variant(bad)
    with pytest.raises(TypeError, match="variant is named by a str"):
        damiera.variant(20)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Variant or a variant name"):
        damiera.Game(20)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="FEN text or a Position"):
        damiera.Game("italian", 3)  # type: ignore[arg-type]
    game = damiera.Game("italian")
    for wrong in (None, 2219, ("22", "19")):
        with pytest.raises(TypeError, match=r"Move or a move's text such as '32-28'"):
            game.play(wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="number of plies"):
        game.undo("1")  # type: ignore[arg-type]
    assert game.ply == 0


def test_a_move_of_another_variant_is_refused() -> None:
    move = damiera.Game("italian").legal_moves[0]
    with pytest.raises(damiera.IllegalMoveError, match="move of Italian draughts, not of American"):
        damiera.Game("american", fen=None, enforce_draws=True).play(
            damiera.Move(damiera.variant("italian"), move.raw))


def test_read_games_takes_a_path_a_handle_or_text(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    path.write_text(RECORD, encoding="utf-8")
    from_path = [len(g.moves) for g in pdn.read_games(path)]
    with path.open("rb") as handle:
        from_handle = [len(g.moves) for g in pdn.read_games(handle)]
    from_text = [len(g.moves) for g in pdn.read_games(RECORD)]
    assert from_path == from_handle == from_text == [4]


def test_read_games_on_a_file_name_in_a_str_says_to_pass_a_path() -> None:
    with pytest.raises(pdn.PdnError, match=r"pass pathlib.Path\('games.pdn'\)"):
        next(pdn.read_games("games.pdn"))
    with pytest.raises(TypeError, match="a path \\(pathlib.Path\\), an open file"):
        next(pdn.read_games(42))  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        next(pdn.read_games(Path("/nonexistent/games.pdn")))


def test_pdn_is_written_outside_the_game() -> None:
    game = damiera.Game("international")
    game.play("32-28")
    text = pdn.write_game(game, {"Event": "Club"})
    assert '[Event "Club"]' in text and "1. 32-28 *" in text
    back = next(pdn.read_games(io.StringIO(text)))
    assert back.game.move_stack == game.move_stack
