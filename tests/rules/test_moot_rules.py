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
    if not v.all_squares:  # Turkish's fields are not offered to custom rule sets
        assert variant(write_custom(effective)).breakthrough
