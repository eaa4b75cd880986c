"""Board geometry and official square labels (RULES.md section 2, geometry)."""

from __future__ import annotations

import pytest

from damiera.rules.geometry import SquareError, geometry
from damiera.rules.position import start_position
from damiera.rules.variant import VARIANTS, variant


def _label_at(vid: str, square_name: str) -> str:
    """Official label of the dark square with algebraic name ``square_name``."""
    geo = geometry(variant(vid))
    file, rank = ord(square_name[0]) - ord("a"), int(square_name[1:]) - 1
    for s in geo.squares:
        if geo.file_rank(s) == (file, rank):
            return geo.label(s)
    raise AssertionError(f"{square_name} is not a dark square in {vid}")


@pytest.mark.parametrize(
    ("vid", "square", "label"),
    [
        ("american", "b8", "1"), ("american", "h8", "4"), ("american", "a7", "5"),
        ("american", "a1", "29"), ("american", "g1", "32"),
        ("italian", "a8", "1"), ("italian", "g8", "4"), ("italian", "b1", "29"),
        ("italian", "h1", "32"),
        ("spanish", "h1", "1"), ("spanish", "b1", "4"), ("spanish", "g2", "5"),
        ("spanish", "a8", "32"),
        ("international", "b10", "1"), ("international", "j10", "5"),
        ("international", "a1", "46"), ("international", "i1", "50"),
        ("russian", "a1", "a1"), ("czech", "h8", "h8"), ("brazilian", "c3", "c3"),
    ],
)
def test_official_square_labels(vid: str, square: str, label: str) -> None:
    assert _label_at(vid, square) == label


@pytest.mark.parametrize("vid", list(VARIANTS))
def test_label_and_square_are_inverse(vid: str) -> None:
    geo = geometry(variant(vid))
    assert len(geo.squares) == variant(vid).squares
    for s in geo.squares:
        assert geo.square(geo.label(s)) == s


@pytest.mark.parametrize("vid", list(VARIANTS))
def test_diagonal_neighbours_are_constant_bit_offsets(vid: str) -> None:
    """The bitboard shifts in move generation rely on this layout property. Where every
    square plays, a step off the board along a row lands on the next row's square: the core
    masks such steps (Rules.has_nb), so only the first half holds there."""
    geo = geometry(variant(vid))
    for d, offset in enumerate(geo.offsets):
        for s in geo.squares:
            n = geo.neighbour[d][s]
            if n >= 0:
                assert n == s + offset
            elif not geo.all_squares:
                assert not (geo.mask >> (s + offset) & 1) if s + offset >= 0 else True


def test_mirrored_boards_have_h1_dark() -> None:
    for vid in ("italian", "spanish"):
        assert _label_at(vid, "h1")
        with pytest.raises(AssertionError):
            _label_at(vid, "a1")


@pytest.mark.parametrize(
    ("vid", "white", "black"),
    [
        ("american", range(21, 33), range(1, 13)),
        ("italian", range(21, 33), range(1, 13)),
        ("spanish", range(1, 13), range(21, 33)),
        ("international", range(31, 51), range(1, 21)),
    ],
)
def test_start_position_numeric(vid: str, white: range, black: range) -> None:
    v = variant(vid)
    geo = geometry(v)
    p = start_position(v)
    assert sorted(int(x) for x in geo.labels(p.white)) == list(white)
    assert sorted(int(x) for x in geo.labels(p.black)) == list(black)
    assert p.turn is v.first_to_move


def test_start_position_algebraic_white_on_a1_to_h3() -> None:
    v = variant("russian")
    p = start_position(v)
    assert geometry(v).labels(p.white) == [
        "a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"
    ]


@pytest.mark.parametrize(
    ("vid", "label", "message"),
    [
        ("american", "33", "does not exist"),
        ("american", "0", "does not exist"),
        ("american", "x1", "not a square number"),
        ("russian", "a2", "light square"),
        ("russian", "i1", "not a square"),
        ("russian", "a9", "not a square"),
    ],
)
def test_bad_square_labels_are_refused_with_the_reason(vid: str, label: str, message: str) -> None:
    with pytest.raises(SquareError, match=message):
        geometry(variant(vid)).square(label)
