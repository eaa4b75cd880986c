"""Breakthrough makes rules about kings change nothing, except for a man crowned during a
capture that goes on as a king: the facts behind the custom rule sets' refusals
(:mod:`damiera.rules.moot_rules`), shown on positions, and the combinations still accepted."""

from __future__ import annotations

import pytest

from damiera.rules.custom import default_fields, write_custom
from damiera.rules.game import Game
from damiera.rules.moot_rules import effective_fields, moot_fields
from damiera.rules.variant import VARIANTS, Color, custom_fields, variant


def _custom(**fields: object) -> Game:
    return Game(variant(write_custom({"board": "algebraic", **fields})), fen="W:Wb6:Bc7,f6")


def test_breakthrough_a_position_with_a_king_on_the_board_is_over() -> None:
    # So no king ever moves, captures or is captured in a game in progress.
    for fen, winner in (("W:WKa1,c3:Bh8", Color.WHITE), ("W:Wa1,c3:BKh8,g7", Color.BLACK)):
        game = Game(variant("russian+breakthrough"), fen=fen)
        result = game.outcome()
        assert game.is_game_over() and not game.legal_moves
        assert result is not None and result.winner is winner


def test_breakthrough_flying_kings_matter_to_a_man_crowned_that_goes_on_capturing() -> None:
    # b6xd8 crowns the man; going on as a king it can take f6 only if kings fly.
    continuing = {"men_capture_backward": True, "breakthrough": True,
                  "promotion_during_capture": "promote-and-continue"}
    flying = _custom(**continuing, flying_kings=True)
    short = _custom(**continuing)
    assert sorted(str(m) for m in flying.legal_moves) == ["b6xd8xg5", "b6xd8xh4"]
    assert [str(m) for m in short.legal_moves] == ["b6xd8"]
    assert moot_fields({**default_fields(), **continuing, "flying_kings": True}) == {}


def test_breakthrough_promote_and_stop_the_capture_ends_on_the_far_row_whatever_kings_do(
) -> None:
    game = _custom(men_capture_backward=True, breakthrough=True)
    assert [str(m) for m in game.legal_moves] == ["b6xd8"]
    assert moot_fields({**default_fields(), "breakthrough": True, "flying_kings": True}) == {
        "flying_kings": False}


def test_without_breakthrough_no_field_is_moot() -> None:
    for v in VARIANTS.values():
        assert moot_fields(custom_fields(v)) == {}


@pytest.mark.parametrize("named", list(VARIANTS))
def test_named_rule_sets_with_breakthrough_keep_their_fields(named: str) -> None:
    # A named rule set is its federation's rules; the option leaves them as they are, and
    # its effective fields are those a custom rule set with breakthrough may have.
    v = variant(named + "+breakthrough")
    assert v.breakthrough and v.flying_kings == VARIANTS[named].flying_kings
    effective = effective_fields(custom_fields(v))
    assert moot_fields(effective) == {}
    assert variant(write_custom(effective)).breakthrough


def test_pass_through_men_that_capture_sideways_go_on_along_the_far_row() -> None:
    # Every square playing, men capture forward and sideways: c6xc8 reaches the far row,
    # and the man goes on over d8 as a man (pass-through), or stops there crowned.
    fields = {"all_squares": True, "board": "algebraic", "man_rows": 2, "back_rows_empty": 1}
    through = Game(variant(write_custom({**fields, "promotion_during_capture": "pass-through"})),
                   fen="W:Wc6:Bc7,d8")
    stop = Game(variant(write_custom(fields)), fen="W:Wc6:Bc7,d8")
    assert [str(m) for m in through.legal_moves] == ["c6xc8xe8"]
    assert [str(m) for m in stop.legal_moves] == ["c6xc8"]


def test_no_turning_back_changes_nothing_while_the_piece_taken_stays() -> None:
    # A king between two men on its column: with the pieces removed at the end of the move,
    # turning straight back is blocked by the man just taken, with or without the ban.
    fields = {"all_squares": True, "board": "algebraic", "man_rows": 2, "back_rows_empty": 1,
              "flying_kings": True}
    fen = "W:WKd4:Bd3,d6"
    plain = Game(variant(write_custom(fields)), fen=fen)
    removed = Game(variant(write_custom({**fields, "remove_captured_at_once": True})), fen=fen)
    banned = Game(variant(write_custom({**fields, "remove_captured_at_once": True,
                                        "no_reverse_capture": True})), fen=fen)
    paths = {str(m) for m in plain.legal_moves}
    assert paths == {str(m) for m in banned.legal_moves} == {"d4xd1", "d4xd2", "d4xd7", "d4xd8"}
    # removed at once and allowed to turn back: the king goes on over the freed square
    assert {str(m) for m in removed.legal_moves} == {"d4xd2xd7", "d4xd2xd8", "d4xd7xd1",
                                                      "d4xd7xd2"}
    assert moot_fields({**default_fields(), **fields, "no_reverse_capture": True}) == {
        "no_reverse_capture": False}
