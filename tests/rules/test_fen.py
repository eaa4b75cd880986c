"""FEN reading and writing (RULES.md section 4)."""

from __future__ import annotations

import pytest

from damiera.rules.position import (
    FenClocks,
    FenError,
    parse_fen,
    parse_fen_clocks,
    start_position,
    write_fen,
)
from damiera.rules.variant import Color, variant


def test_fen_start_position_round_trip() -> None:
    v = variant("american")
    assert write_fen(v, start_position(v)) == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert parse_fen(v, "B:W21-32:B1-12") == start_position(v)


def test_fen_kings_and_canonical_order() -> None:
    v = variant("american")
    p = parse_fen(v, "B:W18,24,K10:BK22,12")
    assert write_fen(v, p) == "B:WK10,18,24:B12,K22"
    assert p.turn is Color.BLACK


def test_fen_black_list_first_and_empty_side() -> None:
    v = variant("italian")
    assert write_fen(v, parse_fen(v, "B:B12:W")) == "B:W:B12"
    assert write_fen(v, parse_fen(v, "B:W6:B")) == "B:W6:B"
    assert write_fen(v, parse_fen(v, "W:W28")) == "W:W28:B"


def test_fen_algebraic_squares_in_rank_then_file_order() -> None:
    v = variant("russian")
    p = parse_fen(v, "W:Wh2,Kd4,a1:Bh8")
    assert write_fen(v, p) == "W:Wa1,h2,Kd4:Bh8"


def test_canonical_fen_reads_and_writes_unchanged() -> None:
    for vid, fen in [
        ("international", "W:W31,32,K45:B1,K2,20"),
        ("czech", "B:Wa1,c1:Bd8,Kf8"),
        ("spanish", "W:W1,K12:B21,32"),
    ]:
        v = variant(vid)
        assert write_fen(v, parse_fen(v, fen)) == fen


def test_fen_tolerates_spaces_quotes_and_trailing_dot() -> None:
    v = variant("american")
    assert write_fen(v, parse_fen(v, ' "W:W 21, 22 :B 1 ." ')) == "W:W21,22:B1"


@pytest.mark.parametrize(
    ("vid", "fen", "message"),
    [
        ("american", "", "empty"),
        ("american", "X:W21:B1", "side to move"),
        ("american", "W:X21:B1", "starts with W or B"),
        ("american", "W:W21:W22", "given twice"),
        ("american", "W:W33:B1", "does not exist"),
        ("american", "W:W21,,22:B1", "empty square"),
        ("american", "W:W22-21:B1", "backwards"),
        ("american", "W:W21:B21", "both"),
        ("american", "W:W21,21:B1", "twice"),
        ("american", "W:W1:B", "promotion row"),
        ("american", "W:W21:B30", "promotion row"),
        ("american", "W:W5-17,K18:B", "more than the 12"),
        ("russian", "W:Wa2:Bh8", "light square"),
        ("russian", "W:Wz9:Bh8", "not a square"),
        ("international", "W:W51:B1", "does not exist"),
    ],
)
def test_bad_fen_is_refused_with_what_and_where(vid: str, fen: str, message: str) -> None:
    with pytest.raises(FenError, match=message):
        parse_fen(variant(vid), fen)


def test_kings_may_stand_on_any_row() -> None:
    v = variant("american")
    assert write_fen(v, parse_fen(v, "W:WK1:BK30")) == "W:WK1:BK30"


@pytest.mark.parametrize(
    ("vid", "fen", "message"),
    [
        ("american", "W:W5-30000000:B1", "not a range"),
        ("american", "W:W5-33:B1", "leaves the board"),
        ("russian", "W:Wa1-c3:Bh8", "numbered boards only"),
        ("american", "W:WK:B1", "no square after it"),
        ("american", "W:W" + "9" * 5000 + ":B1", "too long"),
        ("russian", "W:Wa" + "9" * 5000 + ":Bh8", "too long"),
        ("american", "W:W" + "9" * 900 + ":B1", "does not exist"),
        ("russian", "W:Wa" + "9" * 900 + ":Bh8", "not a square"),
    ],
)
def test_hostile_fen_is_refused_quickly_and_briefly(vid: str, fen: str, message: str) -> None:
    with pytest.raises(FenError, match=message) as info:
        parse_fen(variant(vid), fen)
    assert len(str(info.value)) < 200


def test_fen_quoted_with_trailing_dot() -> None:
    v = variant("russian")
    assert write_fen(v, parse_fen(v, '"W:Wc3:Bd4".')) == "W:Wc3:Bd4"


def test_empty_board_is_an_impossible_position() -> None:
    for fen in ("W", "W:W:B", "B:B"):
        with pytest.raises(FenError, match="empty"):
            parse_fen(variant("italian"), fen)


def test_fen_lidraughts_halfmove_and_move_number_fields_are_read() -> None:
    """Lidraughts appends ``:H<n>`` (halfmove clock) and ``:F<n>`` (move number): they were
    refused as a field that does not start with W or B."""
    v = variant("international")
    plain = parse_fen(v, "W:W31-50:B1-20")
    assert parse_fen(v, "W:W31-50:B1-20:H0:F1") == plain
    assert parse_fen_clocks(v, "W:W31-50:B1-20:H0:F1") == (plain, FenClocks(0, 1))
    assert parse_fen_clocks(v, "W:W31-50:B1-20:H7") == (plain, FenClocks(7, None))
    assert parse_fen_clocks(v, "W:W31-50:B1-20:F12.") == (plain, FenClocks(None, 12))
    assert parse_fen_clocks(v, "W:W31-50:B1-20") == (plain, FenClocks())
    assert FenClocks(3, 20).text == ":H3:F20" and FenClocks().text == ""
    # Leading zeros count for nothing: H0000001 is 1 (it was refused as over 9999).
    assert parse_fen_clocks(v, "W:W31-50:B1-20:H0000001:F" + "0" * 500 + "12") == (
        plain, FenClocks(1, 12))


@pytest.mark.parametrize(("fen", "message"), [
    ("W:W31-50:B1-20:H", "H field .halfmove clock. takes digits only, as in H0, not 'H'"),
    ("W:W31-50:B1-20:H-1", "digits only"),
    ("W:W31-50:B1-20:Hx", "digits only"),
    ("W:W31-50:B1-20:F1.5", "F field .move number. takes digits only"),
    ("W:W31-50:B1-20:H\u0663", "digits only"),  # an Arabic-Indic digit
    ("W:W31-50:B1-20:H10000", "at most 9999"),
    ("W:W31-50:B1-20:F" + "9" * 500, "at most 9999"),
    ("W:W31-50:B1-20:F0", "counts from 1"),
    ("W:W31-50:B1-20:H1:H2", "H field .halfmove clock. is given twice"),
    ("W:W31-50:B1-20:F1:F2", "F field .move number. is given twice"),
    ("W:W31-50:B1-20:F1:H0", "H field .halfmove clock. comes before the F field"),
    ("W:W31-50:H0:B1-20", "come after both sides' lists"),
    ("W:W31-50:B1-20:X3", "starts with W or B"),
])
def test_fen_malformed_lidraughts_fields_are_refused_with_the_reason(fen: str,
                                                                     message: str) -> None:
    with pytest.raises(FenError, match=message):
        parse_fen(variant("international"), fen)


def test_game_from_a_lidraughts_fen_counts_its_halfmove_clock_and_move_number() -> None:
    """``Game(fen=...)`` took no lidraughts FEN; now H is plies already without progress (the
    draw rules' count) and F the number of the first move."""
    from damiera import Game

    game = Game("international", fen="W:W31-50:B1-20:H0:F1")
    assert game.fen == "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:" \
        "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    assert (game.plies_without_progress, game.start_move_number) == (0, 1)
    kings = Game("international", fen="B:WK46:BK5:H12:F30")
    assert (kings.plies_without_progress, kings.start_move_number) == (12, 30)
    kings.play("5-10")
    assert kings.plies_without_progress == 13
    # the move limit (25 moves each in International) reached by the clock alone
    limit = 2 * kings.variant.draw_moves_without_progress
    drawn = Game("international", fen=f"W:WK46:BK5:H{limit}")
    assert drawn.outcome() is not None and drawn.outcome().reason.value == "forty-moves"
    assert Game("international").start_move_number == 1
