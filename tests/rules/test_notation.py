"""Move text: writing full paths, reading full/short forms, and refusals that name the rule."""

from __future__ import annotations

import pickle

import pytest

from damiera.rules.geometry import geometry
from damiera.rules.notation import (
    AmbiguousMoveError,
    IllegalMoveError,
    NotationError,
    explain_piece,
    move_labels,
    move_text,
    parse_move,
)
from damiera.rules.position import parse_fen, start_position
from damiera.rules.variant import variant


def _parse(vid: str, fen: str, text: str) -> str:
    v = variant(vid)
    return move_text(v, parse_move(v, parse_fen(v, fen), text))


def _refusal(vid: str, fen: str, text: str) -> NotationError:
    v = variant(vid)
    with pytest.raises(NotationError) as info:
        parse_move(v, parse_fen(v, fen), text)
    return info.value


def test_full_path_and_short_form_and_colon_separator() -> None:
    fen = "W:W29:B11,19,26"
    assert _parse("italian", fen, "29x22x15x6") == "29x22x15x6"
    assert _parse("italian", fen, "29x6") == "29x22x15x6"
    assert _parse("italian", fen, "29:22:15:6") == "29x22x15x6"
    assert _parse("russian", "W:Wc3:Bd4,f6", "C3xG7") == "c3:e5:g7"


def test_russian_writes_captures_with_colon() -> None:
    assert _parse("russian", "W:Wc3:Bd4,f6", "c3xe5xg7") == "c3:e5:g7"


def test_refusals_survive_pickling_with_code_and_params() -> None:
    # A worker process sends its errors back pickled: every kind must come back whole.
    errors = [
        _refusal("american", "W:W30:B17,18,25,26", "30x14"),  # ambiguous
        _refusal("american", "W:W22,30:B18", "30-26"),  # illegal: a capture is mandatory
        _refusal("american", "W:W22,30:B18", "99-98"),  # unreadable square
    ]
    for err in errors:
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err)
        assert (str(back), back.code, back.params) == (str(err), err.code, err.params)
    assert pickle.loads(pickle.dumps(errors[0])).candidates == errors[0].candidates


def test_ambiguous_short_form_names_the_candidates() -> None:
    # The man on 30 reaches 14 over 26 and 18, or over 25 and 17.
    err = _refusal("american", "W:W30:B17,18,25,26", "30x14")
    assert isinstance(err, AmbiguousMoveError)
    assert sorted(err.candidates) == ["30x21x14", "30x23x14"]
    assert "30x21x14" in str(err) and "30x23x14" in str(err)
    assert _parse("american", "W:W30:B17,18,25,26", "30x21x14") == "30x21x14"


@pytest.mark.parametrize(
    ("vid", "fen", "text", "code", "message"),
    [
        ("american", "W:W22,30:B18", "30-26", "capture_mandatory", "a capture is mandatory"),
        ("italian", "W:W21,24:B10,18,20", "24x15", "most_pieces",
         "Italian draughts: you must take the most pieces; 21x14x5 takes two"),
        ("italian", "W:W22,32:BK18", "22x13", "man_takes_king", "a man cannot take a king"),
        ("czech", "W:We3,Kh6:Bd4,b6,g7", "e3xc5xa7", "king_must_capture",
         "Czech draughts: a king that can capture must capture"),
        ("italian", "W:W29:B11,19,26", "29x22", "capture_incomplete",
         "the capture must go on from 22"),
        ("italian", "W:W11:B5,6", "11x2x9", "promotion_ends_capture", "stops there"),
        ("italian", "W:W22,K12:B15,18", "22x13", "king_captures_first", "the king must capture"),
        ("italian", "W:WK14:B10,K19", "14x5", "most_kings", "most kings"),
        ("italian", "W:WK14:B12,18,K11,K26", "14x21x30", "king_first", "meets a king first"),
        ("spanish", "W:W11:B15,K14", "11x20", "most_kings", "most kings"),
        ("brazilian", "W:Wc3:Bb4,d4,f6", "c3xa5", "most_pieces", "most pieces"),
        ("american", "W:W22:B", "22-26", "man_moves_backward", "forward only"),
        ("american", "W:W18:B22", "18x25", "man_captures_backward", "cannot capture backwards"),
        ("american", "W:WK18:B", "18-9", "short_king", "one square"),
        ("american", "W:W22:B", "21-17", "no_piece", "no piece on 21"),
        ("american", "W:W22:B5", "5-9", "not_your_piece", "Black's"),
        ("american", "W:W22:B", "22-13", "not_legal_from_square", "22-17 or 22-18"),
        ("american", "W:W22:B", "22-99", "bad_square", "does not exist"),
        ("american", "W:W22:B", "hello", "unreadable", "cannot read"),
        ("american", "W:W22:B", "", "empty", "empty"),
    ],
)
def test_illegal_move_refusal_names_the_rule(
    vid: str, fen: str, text: str, code: str, message: str
) -> None:
    err = _refusal(vid, fen, text)
    assert err.code == code
    assert message in str(err)
    if code not in ("bad_square", "unreadable", "empty"):
        assert isinstance(err, IllegalMoveError)


def test_move_labels_json_shape() -> None:
    v = variant("italian")
    move = parse_move(v, parse_fen(v, "W:W11:B5,6"), "11x2")
    assert move_labels(v, move) == {
        "move": "11x2", "from": "11", "to": "2", "path": ["11", "2"], "captures": ["6"],
        "promotes": True,
    }


def test_another_path_of_an_equal_capture_names_the_same_move() -> None:
    # RULES.md section 1: equal captures are one legal move, whichever path is written.
    assert _parse("russian", "W:WKa1:Bc3,f6", "a1xe5xg7") == "a1:d4:g7"
    assert _parse("american", "W:WK22:B9,10,17,18", "22x15x6x13x22") == "22x13x6x15x22"


def test_man_takes_king_named_even_for_the_first_jump_only() -> None:
    err = _refusal("italian", "W:W21:BK18,11", "21x14")
    assert err.code == "man_takes_king"


def test_huge_numbers_in_move_text_are_a_clear_error() -> None:
    err = _refusal("russian", "W:Wc3:Bh8", "c3-a" + "9" * 5000)
    assert err.code == "too_long" and len(str(err)) < 200


@pytest.mark.parametrize(
    ("vid", "fen", "square", "code"),
    [
        ("czech", "W:We3,Kh6:Bd4,b6,g7", "e3", "king_must_capture"),
        ("brazilian", "W:Wc3,e1:Bd4,f6,f2", "e1", "most_pieces"),
        ("american", "W:W22,32:B18", "32", "capture_mandatory"),
        ("italian", "W:W19,22:BK18", "22", "man_takes_king"),
        ("american", "W:W22:B5", "5", "not_your_piece"),
        ("american", "W:W22:B5", "14", "no_piece"),
    ],
)
def test_explain_piece_names_the_most_specific_rule(
    vid: str, fen: str, square: str, code: str
) -> None:
    v = variant(vid)
    position = parse_fen(v, fen)
    err = explain_piece(v, position, geometry(v).square(square))
    assert err is not None and err.code == code


def test_explain_piece_is_none_for_a_piece_that_can_move() -> None:
    v = variant("american")
    assert explain_piece(v, parse_fen(v, "W:W22:B"), geometry(v).square("22")) is None


def test_man_takes_king_is_not_blamed_when_no_king_is_taken() -> None:
    # Italian: the man 23x14 would take a man; the king's 22x13x6x15x22 takes four.
    err = _refusal("italian", "W:WK22,23:B18,10,19,11", "23x14")
    assert err.code == "most_pieces"
    assert "22x13x6x15x22" in str(err)


def test_czech_king_precedence_refusal_lists_the_king_captures() -> None:
    err = _refusal("czech", "W:We3,Kh2:Bd4,b6,g3", "e3xc5xa7")
    assert err.code == "king_must_capture"
    assert str(err).count("h2x") == 3 and str(err).endswith("...)")


@pytest.mark.parametrize(
    ("vid", "fen", "text", "code", "field", "listed"),
    [
        ("russian", "W:Wc3,e3,g3:Bd4,a7", "c3-b4", "capture_mandatory", "moves",
         "c3:e5, e3:c5"),
        ("czech", "W:We3,Kh2:Bd4,b6,g3", "e3xc5xa7", "king_must_capture", "move",
         "h2xe5xa1, h2xe5xb2, h2xe5xc3 ..."),
    ],
)
def test_refusal_params_list_moves_with_commas_and_no_english_or(
    vid: str, fen: str, text: str, code: str, field: str, listed: str
) -> None:
    # A translation fills its message from params: an English "or" there would show in it.
    err = _refusal(vid, fen, text)
    assert err.code == code
    assert err.params[field] == listed
    assert " or " in str(err)  # the English sentence keeps its "a, b or c"


def test_piece_cannot_move_lists_every_legal_move_in_english_as_params_do() -> None:
    # International start: nine legal moves, none by the man on 45.
    v = variant("international")
    with pytest.raises(IllegalMoveError) as info:
        parse_move(v, start_position(v), "45-40")
    err = info.value
    assert err.code == "piece_cannot_move"
    assert str(err).endswith(
        "legal moves: 31-26, 31-27, 32-27, 32-28, 33-28, 33-29, 34-29, 34-30 or 35-30")
    assert err.params["moves"].split(", ")[-1] == "35-30"
