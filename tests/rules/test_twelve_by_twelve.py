"""Canadian and Malaysian draughts on the 12x12 board (docs/rules.md): each named position of
docs/reference/rule_positions.json shown to depend on its rule where a rule parameter can be
switched (the positions themselves are checked by tests/rules/test_added_rule_sets.py), the
board's squares and notation, the wide build of the core that holds its 77 bits, and the
native generator against the Python reference generator on random positions."""

from __future__ import annotations

import dataclasses

import pytest

from damiera import _core, _core_wide
from damiera.engine.search import Searcher
from damiera.pdn import read_game, write_game
from damiera.rules.custom import default_fields, write_custom
from damiera.rules.game import Game
from damiera.rules.geometry import geometry
from damiera.rules.movegen import core_of, legal_moves, native_rules
from damiera.rules.notation import move_text
from damiera.rules.position import parse_fen, start_position, write_fen
from damiera.rules.variant import (
    GAME_TYPE_NUMBERS,
    CaptureChoice,
    PromotionDuringCapture,
    variant,
)
from tests.conftest import project_cases
from tests.rules.helpers import moves_of
from tests.rules.test_native_vs_reference import _random_positions

CASES = project_cases("rule_positions.json")

#: The rule each position shows, as the change of rule parameters that would break it.
RULE_SWITCHED_OFF: dict[str, dict[str, object]] = {
    "canadian_flying_king_crosses_the_whole_long_diagonal": {"flying_kings": False},
    "canadian_flying_king_captures_from_afar_and_lands_on_any_square_beyond": {
        "flying_kings": False},
    "canadian_man_captures_backward": {"men_capture_backward": False},
    "canadian_majority_capture": {"capture_choice": CaptureChoice.FREE},
    "canadian_man_passing_through_row_12_captures_on_and_stays_a_man": {
        "promotion_during_capture": PromotionDuringCapture.PROMOTE_AND_STOP},
    "malaysian_men_capture_forward_only": {"men_capture_backward": True},
    "malaysian_flying_king_captures_from_afar": {"flying_kings": False},
    "malaysian_majority_capture": {"capture_choice": CaptureChoice.FREE},
    "malaysian_man_crowned_on_row_12_at_the_end_of_its_capture": {
        "promotion_during_capture": PromotionDuringCapture.PROMOTE_AND_CONTINUE},
}


@pytest.mark.parametrize("case_id", sorted(RULE_SWITCHED_OFF))
def test_twelve_by_twelve_position_depends_on_its_rule(case_id: str) -> None:
    case = next(c for c in CASES if c["id"] == case_id)
    v = variant(case["variant"])
    other = dataclasses.replace(v, **RULE_SWITCHED_OFF[case_id])  # type: ignore[arg-type]
    assert moves_of(other, case["fen"]) != moves_of(v, case["fen"])


@pytest.mark.parametrize("vid", ["canadian", "malaysian"])
def test_twelve_by_twelve_start_thirty_men_each_white_first(vid: str) -> None:
    v = variant(vid)
    assert write_fen(v, start_position(v)) == write_fen(v, parse_fen(v, "W:W43-72:B1-30"))
    assert v.squares == 72 and v.men_per_side == 30
    assert len(Game(v).legal_moves) == 11


def test_twelve_by_twelve_squares_numbered_1_to_72_from_the_top_left() -> None:
    geo = geometry(variant("canadian"))
    assert len(geo.squares) == 72 and geo.nbits == 77
    # Square 1 is the first dark square of the top row (b12), 6 is l12, 67 is a1, 72 is k1.
    assert [geo.label(s) for s in (geo.by_coords[(0, 1)], geo.by_coords[(0, 11)],
                                   geo.by_coords[(11, 0)], geo.by_coords[(11, 10)])] == [
        "1", "6", "67", "72"]


def test_the_12x12_board_plays_in_the_wide_build_and_others_in_the_normal_one() -> None:
    assert core_of(variant("canadian")) is _core_wide and core_of(variant("malaysian")) is _core_wide
    assert core_of(variant("international")) is _core and core_of(variant("turkish")) is _core
    assert isinstance(native_rules(variant("canadian")), _core_wide.Rules)
    assert _core.MAX_CAPS == 24 and _core_wide.MAX_CAPS == 30
    # The normal build's 64-bit word cannot hold the 12x12 board: it refuses the rules.
    with pytest.raises(ValueError, match="12x12"):
        _core.Rules(12, True, True, True, 1, 2, True, geometry(variant("canadian")).label_order,
                    5, 80, _core.Values(tuple, tuple, 0, 1))


def test_twelve_by_twelve_pdn_game_types() -> None:
    assert variant("canadian").pdn_gametype == "27,W,12,12,N2,0"
    assert GAME_TYPE_NUMBERS["27"] == "canadian" and GAME_TYPE_NUMBERS["98"] == "malaysian"


@pytest.mark.parametrize("vid", ["canadian", "malaysian"])
def test_native_generator_equals_reference_on_random_12x12_positions(vid: str) -> None:
    _random_positions(variant(vid), 300, seed=12)


@pytest.mark.parametrize("vid", ["canadian", "malaysian"])
def test_the_engine_plays_a_legal_move_on_the_12x12_board(vid: str) -> None:
    # The hand-made evaluation and the search of the wide build; no databases or weights.
    v = variant(vid)
    pos = parse_fen(v, "W:W40,43-45,47-72:B1-26,28-30,34")
    result = Searcher(v).search(pos, depth=4)
    assert result.move is not None and move_text(v, result.move) == "40x27"
    start = start_position(v)
    opening = Searcher(v).search(start, depth=4).move
    assert opening is not None and opening in legal_moves(v, start)


@pytest.mark.parametrize(("vid", "game_type"), [("canadian", "27"), ("malaysian", "98")])
def test_a_12x12_game_is_written_and_read_back_as_pdn(vid: str, game_type: str) -> None:
    game = Game(variant(vid))
    for move in ("46-40", "27-34", "40x27"):
        game.play(move)
    text = write_game(game)
    assert f'[GameType "{game_type},W,12,12,N2,0"]' in text and "2. 40x27" in text
    back = read_game(text)
    assert back is not None and back.variant.id == vid


def test_fen_reads_column_k_of_the_algebraic_12x12_board_as_a_square_not_a_king() -> None:
    """On a 12x12 board with algebraic labels (a custom rule set) the columns run a-l, so
    ``k1`` is a man on k1 and ``Kk11`` the king on k11: the K before a square marks a king
    only when the token as a whole is not a square."""
    v = variant(write_custom({**default_fields(), "board_size": 12, "board": "algebraic"}))
    pos = parse_fen(v, "W:Wk1,Kk11:Bb12,l12")
    geo = geometry(v)
    assert pos.kings == 1 << geo.square("k11")
    assert pos.white == (1 << geo.square("k1")) | pos.kings
    assert parse_fen(v, write_fen(v, pos)) == pos
    with pytest.raises(Exception, match="not a square"):
        parse_fen(v, "W:Wm1:Bb12")


def test_fen_errors_on_the_algebraic_12x12_board_quote_the_square_as_written() -> None:
    v = variant(write_custom({**default_fields(), "board_size": 12, "board": "algebraic"}))
    with pytest.raises(Exception, match="'k01'"):
        parse_fen(v, "W:Wk01:Bb12")
    with pytest.raises(Exception, match="'k1-k11'"):
        parse_fen(v, "W:Wk1-k11:Bb12")
