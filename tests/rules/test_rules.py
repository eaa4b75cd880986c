"""One test (at least) per rule of RULES.md, named after the rule.

Positions are FEN in each variant's official notation; expected moves are full-path notation.
"""

from __future__ import annotations

import dataclasses

import pytest

from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import move_text
from damiera.rules.position import parse_fen, write_fen
from damiera.rules.variant import CaptureChoice, variant
from tests.rules.helpers import moves_of

# --- Section 1: common rules ------------------------------------------------------------------


def test_man_moves_one_square_diagonally_forward() -> None:
    assert moves_of("american", "W:W22:B") == ["22-17", "22-18"]
    assert moves_of("american", "B:W:B10") == ["10-14", "10-15"]


def test_man_capture_jumps_adjacent_piece_to_empty_square_behind() -> None:
    assert moves_of("american", "W:W22:B18") == ["22x15"]
    # The square behind is occupied: no capture, so quiet moves.
    assert moves_of("american", "W:W22:B18,15") == ["22-17"]


def test_capture_is_mandatory_over_quiet_moves() -> None:
    assert moves_of("american", "W:W22,30:B18") == ["22x15"]


def test_mandatory_capture_covers_the_whole_position_not_one_piece() -> None:
    # The man on 32 could move quietly, but the man on 22 can capture: only the capture.
    assert moves_of("american", "W:W22,32:B18") == ["22x15"]


def test_multi_capture_must_be_completed() -> None:
    assert moves_of("russian", "W:Wc3:Bd4,f6") == ["c3:e5:g7"]


def test_multi_capture_may_change_direction_at_every_jump() -> None:
    # e3 (23) takes d4 (18) up-left to c5 (14), then d6 (10) up-right to e7 (7).
    assert moves_of("american", "W:W23:B18,10") == ["23x14x7"]


def test_men_capture_forward_only_where_the_variant_says_so() -> None:
    # A black man behind the white man on d4 (18): American men cannot take it.
    assert moves_of("american", "W:W18:B22") == ["18-14", "18-15"]


def test_men_capture_backward_in_russian() -> None:
    assert moves_of("russian", "W:Wd4:Bc3") == ["d4:b2"]


def test_short_king_moves_one_square_in_four_directions() -> None:
    assert moves_of("american", "W:WK18:B") == ["18-14", "18-15", "18-22", "18-23"]


def test_short_king_captures_backward() -> None:
    assert moves_of("american", "W:WK18:B22") == ["18x25"]


def test_flying_king_moves_any_distance() -> None:
    assert moves_of("russian", "W:WKa1:B") == [
        "a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8"
    ]


def test_flying_king_captures_at_a_distance_and_lands_on_any_empty_square_beyond() -> None:
    assert moves_of("russian", "W:WKa1:Bd4") == ["a1:e5", "a1:f6", "a1:g7", "a1:h8"]


def test_flying_king_must_land_where_the_capture_can_continue() -> None:
    # After taking c3 the king may land on d4..h8; only from f6 can it go on (over e7).
    assert moves_of("russian", "W:WKa1:Bc3,e7") == ["a1:f6:d8"]


def test_flying_king_cannot_jump_two_pieces_in_a_row() -> None:
    assert moves_of("russian", "W:WKa1:Bc3,d4") == sorted(["a1-b2"])


def test_turkish_strike_captured_pieces_block_until_the_move_ends() -> None:
    # a1 takes c3 (landing e5), d6 (landing c7), b6 (landing a5). From a5 the way to d2 runs
    # through c3, whose captured man still stands: the king stops on a5 with three pieces,
    # not four (as it would if pieces were lifted one by one).
    assert moves_of("brazilian", "W:WKa1:Bc3,d6,b6,d2") == ["a1xe5xc7xa5"]


def test_turkish_strike_piece_jumped_once_and_start_square_may_be_crossed_again() -> None:
    # American king on c3 (22) goes round the four men on b4, d4, b6, d6 and comes back to
    # its own start square: both directions round are the same capture, listed once.
    v = variant("american")
    position = parse_fen(v, "W:WK22:B9,10,17,18")
    moves = legal_moves(v, position)
    assert len(moves) == 1
    (move,) = moves
    assert move.start == move.end and len(move.captures) == 4
    assert write_fen(v, apply_move(position, move)) == "B:WK22:B"


def test_equal_captures_are_listed_once_with_the_square_right_behind_each_piece() -> None:
    # The king can land on d4 or e5 after taking c3 and still take f6: same start, end and
    # captured pieces, so one move each for g7 and h8, written via d4 (PDN 3.0).
    assert moves_of("russian", "W:WKa1:Bc3,f6") == ["a1:d4:g7", "a1:d4:h8"]


def test_promotion_by_a_quiet_move_to_the_far_row() -> None:
    v = variant("american")
    position = parse_fen(v, "W:W6:B")
    moves = legal_moves(v, position)
    assert [move_text(v, m) for m in moves] == ["6-1", "6-2"]
    assert all(m.promotes for m in moves)
    assert write_fen(v, apply_move(position, moves[0])) == "B:WK1:B"


def test_no_legal_move_when_all_pieces_are_blocked() -> None:
    assert moves_of("italian", "W:W32:BK28") == []


# --- Section 2: per-variant rules -------------------------------------------------------------


def test_italian_men_cannot_take_kings_at_any_jump_of_a_sequence() -> None:
    # d3 (22) takes c4 (18) and lands on b5 (13); the next piece, on c6 (10), is a king:
    # the man's capture stops there.
    fen = "W:W22:B18,K10"
    assert moves_of("italian", fen) == ["22x13"]
    relaxed = dataclasses.replace(variant("italian"), men_capture_kings=True)
    assert moves_of(relaxed, fen) == ["22x13x6"]


def test_free_capture_choice_russian_may_take_fewer_pieces() -> None:
    assert moves_of("russian", "W:Wc3:Bb4,d4,f6") == ["c3:a5", "c3:e5:g7"]


def test_majority_capture_brazilian_must_take_the_most_pieces() -> None:
    assert moves_of("brazilian", "W:Wc3:Bb4,d4,f6") == ["c3xe5xg7"]


def test_majority_capture_counts_kings_and_men_alike() -> None:
    # One king or one man: both single captures stay legal.
    assert moves_of("brazilian", "W:Wc3:BKb4,d4") == ["c3xa5", "c3xe5"]


def test_spanish_most_pieces_first_even_over_kings() -> None:
    # d3 (11) takes two men via c4 (15) and c6 (23), or one king on e4 (14).
    assert moves_of("spanish", "W:W11:B15,23,K14") == ["11x20x27"]


def test_spanish_most_kings_among_equal_captures() -> None:
    # d3 (11): one man on c4 (15) or one king on e4 (14): the king must be taken.
    assert moves_of("spanish", "W:W11:B15,K14") == ["11x18"]


def test_czech_king_precedence_even_when_a_man_could_take_more() -> None:
    fen = "W:We3,Kh6:Bd4,b6,g7"
    assert moves_of("czech", fen) == ["h6xf8"]
    # Russian has no such rule: both captures are legal.
    assert moves_of("russian", fen) == ["e3:c5:a7", "h6:f8"]


def test_czech_free_choice_among_man_captures_when_no_king_can_capture() -> None:
    assert moves_of("czech", "W:We3,Kh2:Bd4,b6") == ["e3xc5xa7"]
    assert moves_of("czech", "W:Wc3,e3:Bd4,b6") == ["c3xe5", "e3xc5xa7"]


def test_italian_priority_king_captures_rather_than_man() -> None:
    assert moves_of("italian", "W:W22,K12:B15,18") == ["12x19"]


def test_russian_man_crowned_during_capture_continues_as_flying_king() -> None:
    v = variant("russian")
    position = parse_fen(v, "W:Wf6:Be7,b6")
    (move,) = legal_moves(v, position)
    assert move_text(v, move) == "f6:d8:a5"
    assert move.promotes
    assert write_fen(v, apply_move(position, move)) == "B:WKa5:B"


def test_promotion_during_capture_ends_the_move_in_czech() -> None:
    v = variant("czech")
    position = parse_fen(v, "W:Wf6:Be7,b6")
    (move,) = legal_moves(v, position)
    assert move_text(v, move) == "f6xd8" and move.promotes
    assert write_fen(v, apply_move(position, move)) == "B:WKd8:Bb6"


def test_brazilian_man_passing_through_the_far_row_is_not_crowned() -> None:
    v = variant("brazilian")
    # f6 takes e7 and reaches d8, then takes c7 backwards as a man and ends on b6.
    position = parse_fen(v, "W:Wf6:Be7,c7")
    (move,) = legal_moves(v, position)
    assert move_text(v, move) == "f6xd8xb6"
    assert not move.promotes
    assert write_fen(v, apply_move(position, move)) == "B:Wb6:B"


def test_brazilian_man_ending_on_the_far_row_is_crowned() -> None:
    v = variant("brazilian")
    (move,) = legal_moves(v, parse_fen(v, "W:Wf6:Be7,b6"))
    assert move_text(v, move) == "f6xd8" and move.promotes


def test_russian_man_reaching_far_row_mid_capture_is_crowned_where_brazilian_is_not() -> None:
    v = variant("russian")
    moves = legal_moves(v, parse_fen(v, "W:Wf6:Be7,c7"))
    # Crowned on d8, it flies on as a king over c7 and may land on b6 or a5.
    assert [move_text(v, m) for m in moves] == ["f6:d8:a5", "f6:d8:b6"]
    assert all(m.promotes for m in moves)


def test_optional_capture_house_rule_allows_quiet_moves() -> None:
    v = variant("russian", optional_capture=True)
    assert moves_of(v, "W:Wc3,g3:Bd4") == ["c3-b4", "c3:e5", "g3-f4", "g3-h4"]
    assert moves_of("russian", "W:Wc3,g3:Bd4") == ["c3:e5"]


def test_optional_capture_house_rule_keeps_the_capture_choice_rule() -> None:
    v = variant("brazilian", optional_capture=True)
    assert moves_of(v, "W:Wc3,g3:Bb4,d4,f6") == ["c3xe5xg7", "g3-f4", "g3-h4"]


def test_optional_capture_house_rule_is_for_8x8_only() -> None:
    with pytest.raises(ValueError, match="8x8"):
        variant("international", optional_capture=True)


def test_every_variant_has_its_capture_choice_rule() -> None:
    expected = {
        "american": CaptureChoice.FREE,
        "italian": CaptureChoice.ITALIAN_PRIORITIES,
        "czech": CaptureChoice.KING_PRECEDENCE,
        "russian": CaptureChoice.FREE,
        "brazilian": CaptureChoice.MAJORITY,
        "spanish": CaptureChoice.MOST_PIECES_THEN_KINGS,
        "international": CaptureChoice.MAJORITY,
    }
    assert {k: variant(k).capture_choice for k in expected} == expected


def test_has_capture_for_the_side_not_to_move_tells_a_threatened_capture() -> None:
    from damiera.rules.movegen import has_capture
    from damiera.rules.variant import Color

    v = variant("international")
    # White to move, White man 28 stands before Black man 23 with 19 empty behind it: White
    # threatens 28x19; Black (not to move) cannot take 28 because 32 is occupied.
    pos = parse_fen(v, "W:W28,32:B23")
    assert has_capture(v, pos)
    assert has_capture(v, pos, Color.WHITE)
    assert not has_capture(v, pos, Color.BLACK)
    # Same men, Black's 23 backed by 19: neither side can capture.
    backed = parse_fen(v, "B:W28,32:B19,23")
    assert not has_capture(v, backed) and not has_capture(v, backed, Color.WHITE)
