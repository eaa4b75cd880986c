"""Turkish draughts (docs/rules.md): each named position of docs/reference/rule_positions.json
shown to depend on its rule where a rule parameter can be switched (the positions themselves
are checked by tests/rules/test_added_rule_sets.py), the start, the board where every square
plays, and the end of a game."""

from __future__ import annotations

import dataclasses

import pytest

from damiera import _core
from damiera.rules.game import Game
from damiera.rules.geometry import SquareError, geometry
from damiera.rules.movegen import VALUES, legal_moves
from damiera.rules.position import FenError, parse_fen, start_position, write_fen
from damiera.rules.variant import CaptureChoice, PromotionDuringCapture, variant
from tests.conftest import project_cases
from tests.rules.helpers import moves_of

CASES = project_cases("rule_positions.json")

#: The rule each position shows, as the change of rule parameters that would break it.
RULE_SWITCHED_OFF: dict[str, dict[str, object]] = {
    "turkish_man_never_captures_backward": {"men_capture_backward": True},
    "turkish_flying_king_captures_along_a_file": {"flying_kings": False},
    "turkish_king_flies_along_rows_and_columns": {"flying_kings": False},
    "turkish_majority_capture": {"capture_choice": CaptureChoice.FREE},
    "turkish_a_king_counts_as_one_piece": {
        "capture_choice": CaptureChoice.MOST_PIECES_THEN_KINGS},
    "turkish_captured_pieces_leave_at_once": {"remove_captured_at_once": False},
    "turkish_no_turning_back": {"no_reverse_capture": False},
    "turkish_man_crowned_at_the_end_of_the_capture": {
        "promotion_during_capture": PromotionDuringCapture.PROMOTE_AND_CONTINUE},
}


@pytest.mark.parametrize("case_id", sorted(RULE_SWITCHED_OFF))
def test_turkish_position_depends_on_its_rule(case_id: str) -> None:
    case = next(c for c in CASES if c["id"] == case_id)
    v = variant(case["variant"])
    other = dataclasses.replace(v, **RULE_SWITCHED_OFF[case_id])  # type: ignore[arg-type]
    assert moves_of(other, case["fen"]) != moves_of(v, case["fen"])


def test_turkish_start_every_square_of_rows_two_three_six_seven() -> None:
    v = variant("turkish")
    fen = write_fen(v, start_position(v))
    assert fen == ("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
                   ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7")
    assert v.squares == 64 and v.men_per_side == 16
    assert [str(m) for m in Game(v).legal_moves] == [f"{f}3-{f}4" for f in "abcdefgh"]


def test_every_square_plays_on_the_turkish_board_only() -> None:
    turkish, russian = variant("turkish"), variant("russian")
    geo = geometry(turkish)
    assert len(geo.squares) == 64 and geo.mask == (1 << 64) - 1
    assert geo.label(geo.square("a2")) == "a2"  # a light square elsewhere
    with pytest.raises(SquareError, match="light square"):
        geometry(russian).square("a2")
    with pytest.raises(FenError):
        parse_fen(russian, "W:Wa2:Bh8")
    assert parse_fen(turkish, "W:Wa2:Bh8").white == 1 << geo.square("a2")


@pytest.mark.parametrize("fen", [
    # a row's last square is the next row's first bit: no move or capture across the edge
    "W:Wh4:Bh8",
    "W:WKh4:Ba5,b5",
    "W:Wa4:Bh3",
    "W:WKa1:Bh2",
])
def test_nothing_wraps_around_the_board(fen: str) -> None:
    v = variant("turkish")
    geo = geometry(v)
    for move in legal_moves(v, parse_fen(v, fen)):
        for a, b in zip(move.path, move.path[1:]):
            (fa, ra), (fb, rb) = geo.file_rank(a), geo.file_rank(b)
            assert fa == fb or ra == rb, (fen, move)


def test_a_side_that_cannot_move_loses() -> None:
    game = Game("turkish", fen="W:Wa6:Ba7,a8,b6,c6")
    assert game.legal_moves == []
    outcome = game.outcome()
    assert outcome is not None and outcome.result() == "0-1"


def test_one_king_against_one_is_drawn_after_two_moves_each() -> None:
    game = Game("turkish", fen="W:WKa1:BKh8")
    for move in ("a1-b1", "h8-g8", "b1-a1", "g8-h8"):
        assert game.outcome() is None
        game.push(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.result() == "1/2-1/2"


def test_the_core_refuses_boards_that_cannot_be() -> None:
    base = {"size": 8, "flying": True, "men_back": False, "men_take_kings": True, "choice": 1,
            "promotion": 2, "mandatory": True, "label_order": list(range(64)), "man_rows": 2,
            "draw_plies": 80, "values": VALUES}
    _core.Rules(**base, all_squares=True, straight=True)  # type: ignore[arg-type]
    for bad in ({"all_squares": True}, {"straight": True},
                {"all_squares": True, "straight": True, "orthogonal": True}):
        with pytest.raises(ValueError):
            _core.Rules(**base, **bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        _core.Rules(**{**base, "size": 10}, all_squares=True, straight=True)  # type: ignore[arg-type]
