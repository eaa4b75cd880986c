"""The native rules core against the Python reference generator (tests/rules/reference_*.py):
the same legal moves (paths, captures, promotion, in the same order), the same capture test and
the same perft, on the published perft depths and on random positions of every variant and of
the optional-capture house rule."""

from __future__ import annotations

import random

import pytest

from damiera.rules import movegen
from damiera.rules.geometry import geometry
from damiera.rules.position import Position, parse_fen, start_position
from damiera.rules.variant import VARIANTS, Color, Variant, variant
from tests.conftest import perft_table
from tests.rules import reference_captures as ref_captures
from tests.rules import reference_movegen as ref
from tests.rules.reference_perft import perft as ref_perft
from tests.rules.reference_tables import tables as ref_tables

#: Every variant of the dark squares' layout and the house rule on each 8x8 one. The reference
#: generator is the former Python generator of that layout (bit shifts over ghost bits);
#: Turkish draughts, where every square plays, is checked against pydraughts instead
#: (tests/rules/test_pydraughts_turkish.py).
ALL_RULES: list[Variant] = [variant(v) for v in VARIANTS if not VARIANTS[v].all_squares] + [
    variant(v, optional_capture=True) for v in VARIANTS
    if VARIANTS[v].board_size == 8 and not VARIANTS[v].all_squares
]
#: Random positions per rule set: `make test` / `make test-slow` (100,000 in all).
FAST_POSITIONS = 300
SLOW_POSITIONS = 100_000 // len(ALL_RULES) + 1


def random_position(v: Variant, rng: random.Random) -> Position:
    """A position the rules allow: up to ``men_per_side`` pieces a side, men off their own
    promotion row, a random mix of kings (many captures, long flying-king sequences)."""
    geo = geometry(v)
    squares = list(geo.squares)
    rng.shuffle(squares)
    white = black = kings = 0
    n_white = rng.randint(1, v.men_per_side)
    n_black = rng.randint(1, v.men_per_side)
    king_share = rng.choice((0.0, 0.1, 0.3, 0.7))
    for i, s in enumerate(squares[: n_white + n_black]):
        bit = 1 << s
        is_white = i < n_white
        king = rng.random() < king_share
        if not king and (geo.top_row if is_white else geo.bottom_row) & bit:
            king = True
        if is_white:
            white |= bit
        else:
            black |= bit
        if king:
            kings |= bit
    return Position(white, black, kings, rng.choice((Color.WHITE, Color.BLACK)))


def _same(v: Variant, pos: Position) -> None:
    native = movegen.legal_moves(v, pos)
    expected = ref.legal_moves(v, pos)
    assert [tuple(m) for m in native] == [tuple(m) for m in expected], pos
    rank = {s: i for i, s in enumerate(geometry(v).label_order)}
    raw = ref_captures.all_captures(ref_tables(v), pos.pieces(pos.turn),
                                    pos.pieces(pos.turn.opponent), pos.kings,
                                    0 if pos.turn is Color.WHITE else 1)
    raw.sort(key=lambda m: [rank[s] for s in m.path])
    assert [tuple(m) for m in movegen.capture_sequences(v, pos)] == [tuple(m) for m in raw], pos
    for color in (Color.WHITE, Color.BLACK):
        assert movegen.has_capture(v, pos, color) == ref_captures.has_capture(v, pos, color), pos
    for m in native:
        assert movegen.apply_move(pos, m) == ref.apply_move(pos, movegen.Move(*m))
    assert movegen.perft(v, pos, 2) == ref_perft(v, pos, 2), pos


def _random_positions(v: Variant, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        pos = random_position(v, rng)
        _same(v, pos)
        # A few plies of random play from it, so that positions after captures are met too.
        for _ in range(3):
            moves = movegen.legal_moves(v, pos)
            if not moves:
                break
            pos = movegen.apply_move(pos, rng.choice(moves))
            _same(v, pos)


@pytest.mark.parametrize("v", ALL_RULES, ids=lambda v: v.display_name)
def test_native_generator_equals_reference_on_random_positions(v: Variant) -> None:
    _random_positions(v, FAST_POSITIONS, seed=19)


@pytest.mark.slow
@pytest.mark.parametrize("v", ALL_RULES, ids=lambda v: v.display_name)
def test_native_generator_equals_reference_on_many_random_positions(v: Variant) -> None:
    _random_positions(v, SLOW_POSITIONS, seed=1919)


def _perft_cases(slow: bool) -> list[tuple[str, int]]:
    out = []
    for vid in (v.id for v in ALL_RULES if v.mandatory_capture):
        last = 6 if vid == "international" else 7
        depths = range(last - 1, last + 1) if slow else range(1, last - 1)
        out += [(vid, d) for d in depths]
    return out


def _perft_both(vid: str, depth: int) -> None:
    table = perft_table(vid)
    v = variant(vid)
    pos = parse_fen(v, table["fen"])
    expected = table["nodes_by_depth"][depth - 1]
    assert ref_perft(v, pos, depth) == movegen.perft(v, pos, depth) == expected


@pytest.mark.parametrize(("vid", "depth"), _perft_cases(slow=False))
def test_native_and_reference_perft_agree(vid: str, depth: int) -> None:
    _perft_both(vid, depth)


@pytest.mark.slow
@pytest.mark.parametrize(("vid", "depth"), _perft_cases(slow=True))
def test_native_and_reference_perft_agree_deep(vid: str, depth: int) -> None:
    _perft_both(vid, depth)


def test_house_rule_perft_agrees() -> None:
    for v in ALL_RULES:
        if v.optional_capture:
            pos = start_position(v)
            assert movegen.perft(v, pos, 6) == ref_perft(v, pos, 6)
