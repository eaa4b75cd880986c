"""The rule options of any rule set: one canonical id, the losing rule (Antidraughts) and
breakthrough, each rule shown by a named position (FEN in the variant's notation).

The goal options change who wins, never which moves are legal: the positions check both.
"""

from __future__ import annotations

import pickle

import pytest

import damiera
from damiera.rules.game import Game, ResultReason
from damiera.rules.movegen import game_end, legal_moves, perft
from damiera.rules.position import FenError, parse_fen, start_position
from damiera.rules.variant import (
    VARIANTS,
    Color,
    RuleOption,
    UnknownVariantError,
    VariantOptionError,
    variant,
)
from tests.rules.helpers import moves_of

# --- One representation: the canonical id ------------------------------------------------


@pytest.mark.parametrize(("text", "full_id"), [
    ("international+losing", "international+losing"),
    ("American+Optional-Capture", "american+optional-capture"),
    ("english+breakthrough+optional-capture", "american+optional-capture+breakthrough"),
    ("20+losing", "international+losing"),
    ("russian+ breakthrough", "russian+breakthrough"),
    ("italian", "italian"),
])
def test_variant_id_with_options_reads_in_any_order_and_prints_canonically(
        text: str, full_id: str) -> None:
    v = variant(text)
    assert v.full_id == full_id
    assert variant(v.full_id) == v


def test_every_named_rule_set_takes_each_goal_option() -> None:
    for base in VARIANTS.values():
        for option in (RuleOption.LOSING, RuleOption.BREAKTHROUGH):
            v = variant(f"{base.id}+{option.value}")
            assert v.options == (option,)
            assert v.id == base.id  # the rule set's own id stays
            assert v.full_id == f"{base.id}+{option.value}"


def test_old_optional_capture_keyword_and_the_id_mean_the_same_variant() -> None:
    old = variant("american", optional_capture=True)
    assert old == variant("american+optional-capture")
    # a stored game with both the id and the old flag reads back once
    assert variant("american+optional-capture", optional_capture=True) == old
    assert old.optional_capture and not old.mandatory_capture


@pytest.mark.parametrize(("text", "reason"), [
    ("international+optional-capture", "8x8 variants only"),
    ("russian+losing+breakthrough", "two different goals"),
    ("italian+suicide", "unknown rule option 'suicide'"),
    ("italian+losing+losing", "given twice"),
    ("italian+", "unknown rule option ''"),
])
def test_impossible_or_unknown_options_are_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(VariantOptionError, match=reason):
        variant(text)


def test_an_unknown_rule_set_with_options_is_still_an_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError):
        variant("frieslan+losing")


def test_a_very_long_variant_text_is_refused_before_it_is_parsed() -> None:
    with pytest.raises(VariantOptionError, match="at most"):
        variant("international" + "+losing" * 100)


def test_display_name_and_rule_parameters_name_the_options() -> None:
    v = variant("international+losing")
    assert v.display_name == "International draughts (losing)"
    params = v.rule_parameters()
    assert params["losing"] is True and params["breakthrough"] is False
    assert params["full_id"] == "international+losing"


def test_a_variant_with_options_pickles_and_reads_back_equal() -> None:
    v = variant("brazilian+breakthrough")
    assert pickle.loads(pickle.dumps(v)) == v


# --- Moves are unchanged ----------------------------------------------------------------


@pytest.mark.parametrize("base", ["american", "russian", "brazilian", "international"])
@pytest.mark.parametrize("option", ["losing", "breakthrough"])
def test_goal_options_leave_perft_from_the_start_unchanged(base: str, option: str) -> None:
    plain = variant(base)
    depth = 4 if plain.board_size == 10 else 5
    assert perft(variant(f"{base}+{option}"), start_position(plain), depth) == perft(
        plain, start_position(plain), depth)


def test_losing_rule_keeps_captures_compulsory_with_the_capture_choice_rule() -> None:
    # International majority rule: the king must take three, not one, under the losing rule
    # as without it.
    fen = "W:WK46,50:B41,28,19,44"
    assert moves_of("international+losing", fen) == moves_of("international", fen)
    assert moves_of("international+losing", fen) == ["46x37x23x10", "46x37x23x14",
                                                     "46x37x23x5"]


# --- The losing rule -----------------------------------------------------------------------


def test_losing_rule_a_side_that_loses_its_last_piece_wins() -> None:
    game = Game("international+losing", fen="W:W32:B28")
    assert [str(m) for m in game.legal_moves] == ["32x23"]
    game.play("32x23")
    result = game.outcome()
    assert result is not None
    assert result.winner is Color.BLACK and result.reason is ResultReason.LOSING_NO_PIECES
    assert result.describe() == "Black wins: Black has no pieces left (losing rule)"
    # the same capture under the usual goal: White wins
    usual = Game("international", fen="W:W32:B28")
    usual.play("32x23")
    assert usual.outcome() is not None and usual.outcome().winner is Color.WHITE  # type: ignore[union-attr]


def test_losing_rule_a_blocked_side_wins() -> None:
    # White's man on 46 is shut in: 41 is Black's and the square behind it, 37, is held too.
    game = Game("international+losing", fen="W:W46:B41,37")
    result = game.outcome()
    assert result is not None
    assert (result.winner, result.reason) == (Color.WHITE, ResultReason.LOSING_NO_MOVES)
    assert game.legal_moves == []
    usual = Game("international", fen="W:W46:B41,37").outcome()
    assert usual is not None and (usual.winner, usual.reason) == (Color.BLACK,
                                                                  ResultReason.NO_MOVES)


def test_losing_rule_on_8x8_gives_the_game_to_the_side_without_pieces() -> None:
    game = Game("russian+losing", fen="W:Wc3:Bd4")
    game.play("c3:e5")
    assert game.outcome() is not None
    assert game.outcome().winner is Color.BLACK  # type: ignore[union-attr]


# --- Breakthrough --------------------------------------------------------------------------


def test_breakthrough_the_first_king_wins_by_a_quiet_move() -> None:
    game = Game("international+breakthrough", fen="W:W6:B45")
    game.play("6-1")
    result = game.outcome()
    assert result is not None
    assert (result.winner, result.reason) == (Color.WHITE, ResultReason.BREAKTHROUGH)
    assert result.describe() == "White wins: White made the first king (breakthrough)"
    assert game.legal_moves == []


def test_breakthrough_a_capture_that_ends_on_the_far_row_wins() -> None:
    game = Game("international+breakthrough", fen="B:W44:B39")
    assert [str(m) for m in game.legal_moves] == ["39x50"]
    game.play("39x50")
    result = game.outcome()
    assert result is not None
    assert (result.winner, result.reason) == (Color.BLACK, ResultReason.BREAKTHROUGH)


def test_breakthrough_a_capture_passing_through_the_far_row_does_not_crown() -> None:
    # Brazilian (pass-through): the man lands on d8 and goes on as a man, so no king.
    game = Game("brazilian+breakthrough", fen="W:Wb6:Bc7,e7,a5")
    assert [str(m) for m in game.legal_moves] == ["b6xd8xf6"]
    game.play("b6xd8xf6")
    assert game.outcome() is None
    assert game.fen == "B:Wf6:Ba5"


def test_breakthrough_promotion_mid_capture_in_russian_wins_after_the_whole_capture() -> None:
    # Russian: the man crowned on d8 goes on capturing as a king; the move is unchanged by
    # breakthrough, and the king it made wins (a flying king: it may land on f6, g5 or h4).
    fen = "W:Wb6:Bc7,e7,a5"
    assert moves_of("russian+breakthrough", fen) == moves_of("russian", fen) == [
        "b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]
    game = Game("russian+breakthrough", fen=fen)
    game.play("b6:d8:f6")
    result = game.outcome()
    assert result is not None
    assert (result.winner, result.reason) == (Color.WHITE, ResultReason.BREAKTHROUGH)
    assert "Kf6" in game.fen


def test_breakthrough_without_a_king_a_blocked_side_still_loses() -> None:
    result = Game("international+breakthrough", fen="W:W46:B41,37").outcome()
    assert result is not None and (result.winner, result.reason) == (Color.BLACK,
                                                                     ResultReason.NO_MOVES)


def test_breakthrough_a_king_set_up_on_the_board_has_already_won() -> None:
    found = game_end(variant("american+breakthrough"), parse_fen(
        variant("american+breakthrough"), "B:WK1:B12"))
    assert found == (Color.WHITE, "king")


def test_breakthrough_refuses_a_position_with_a_king_on_each_side() -> None:
    with pytest.raises(FenError, match="both sides have a king"):
        Game("american+breakthrough", fen="W:WK1:BK32")
    # without the option the same position is an ordinary ending
    assert legal_moves(variant("american"), parse_fen(variant("american"), "W:WK1:BK32"))


def test_library_names_options_like_rule_sets() -> None:
    game = damiera.Game("italian+losing")
    assert game.variant.full_id == "italian+losing"
    assert repr(game).startswith("Game('italian+losing'")


# --- A flag fall: can the other side still win? ------------------------------------------


def test_losing_rule_a_flag_fall_loses_when_the_opponent_can_still_give_everything_away() -> None:
    # White's flag falls; its only move 32x23 would leave Black without pieces: under the
    # losing rule Black can still win, so the flag loses; under the usual goal Black could
    # never win, so it is a draw.
    losing = Game("international+losing", fen="W:W32:B28").flag_fall()
    assert (losing.winner, losing.reason) == (Color.BLACK, ResultReason.TIME)
    usual = Game("international", fen="W:W32:B28").flag_fall()
    assert (usual.winner, usual.reason) == (None, ResultReason.TIME_NO_WIN)

