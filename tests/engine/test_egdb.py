"""Endgame databases (damiera.engine.egdb, csrc/egdb.c): exact values of small 8x8 and 10x10
endings, checked against known endings, a plain exhaustive search over legal_moves, the colour
symmetry of the rules, the no-progress draw rule, and the search that probes them."""

from __future__ import annotations

import random

import pytest

from damiera.engine import egdb_files
from damiera.engine.egdb import (
    Result,
    Value,
    endgame_database,
    probe,
    value_under_draw_rule,
)
from damiera.engine.search import MATE, MATE_BOUND, Searcher
from damiera.rules.geometry import geometry, iter_bits
from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import move_text
from damiera.rules.position import Position, parse_fen
from damiera.rules.variant import VARIANTS, Color, Variant, variant

#: Every rule set with databases: the dark squares of 8x8 and 10x10 (not Turkish, where every
#: square plays, nor Frisian's king-move limit), and the optional-capture house rule on two.
RULES_WITH_DATABASES: list[Variant] = [
    variant(v) for v in VARIANTS if egdb_files.unsupported(VARIANTS[v]) is None] + [
    variant("american", optional_capture=True),
    variant("russian", optional_capture=True),
]


def _value(vid: str, fen: str, pieces: int = 3) -> Value | None:
    v = variant(vid)
    return probe(v, parse_fen(v, fen), pieces)


# -- known endings -------------------------------------------------------------------------


def test_short_kings_two_kings_beat_one_king_american() -> None:
    value = _value("american", "W:WK1,K2:BK32")
    assert value is not None and value.result is Result.WIN and value.plies % 2 == 1
    lost = _value("american", "B:WK1,K2:BK32")
    assert lost is not None and lost.result is Result.LOSS and lost.plies % 2 == 0


def test_short_kings_one_king_against_one_king_draw_american() -> None:
    assert _value("american", "W:WK1:BK32") == Value(Result.DRAW, 0)


def test_flying_kings_one_king_against_one_king_draw_russian() -> None:
    assert _value("russian", "W:WKa3:BKh8") == Value(Result.DRAW, 0)


def test_flying_king_captures_lone_king_on_its_diagonal_russian() -> None:
    # Kd4 takes the king on f6 (landing g7 or h8): Black has no piece, one ply.
    assert _value("russian", "W:WKd4:BKf6") == Value(Result.WIN, 1)


def test_flying_kings_three_kings_against_king_on_main_diagonal_draw_russian() -> None:
    # RULES.md: flying kings; the lone king holding the long diagonal a1-h8 cannot be caught.
    v = variant("russian")
    assert probe(v, parse_fen(v, "W:WKc1,Ke1,Kg1:BKa1"), 4) == Value(Result.DRAW, 0)
    assert probe(v, parse_fen(v, "B:WKc1,Ke1,Kg1:BKa1"), 4) == Value(Result.DRAW, 0)
    # Off the long diagonal the three kings win.
    off = probe(v, parse_fen(v, "W:WKc1,Ke1,Kg1:BKb8"), 4)
    assert off is not None and off.result is Result.WIN


def test_man_runs_to_promotion_and_wins_men_capture_backward_russian() -> None:
    # White's man on c3 is too fast for the black man on h8 (Russian: men capture backward).
    value = _value("russian", "W:Wc3:Bh8")
    assert value is not None and value.result is Result.WIN


def test_no_legal_move_is_a_loss_in_zero_plies_american() -> None:
    # The white man on 29 (a1) is blocked: the black man on 25 (b2) is covered by the one on
    # 22 (c3), so it can neither move nor jump.
    v = variant("american")
    pos = parse_fen(v, "W:W29:B25,22")
    assert legal_moves(v, pos) == []
    assert probe(v, pos) == Value(Result.LOSS, 0)


def test_more_pieces_than_the_database_is_unknown() -> None:
    assert _value("american", "W:W21,22:B1,2") is None


def test_only_8x8_and_10x10_dark_squares_and_in_memory_up_to_four_and_three_pieces() -> None:
    with pytest.raises(ValueError, match="8x8 and 10x10 boards only"):
        endgame_database(variant("turkish"), 3)
    with pytest.raises(ValueError, match="8x8 and 10x10 boards only"):
        endgame_database(variant("canadian"), 3)
    with pytest.raises(ValueError, match="up to 4 pieces are solved in memory"):
        endgame_database(variant("american"), 5)
    with pytest.raises(ValueError, match="up to 3 pieces are solved in memory"):
        endgame_database(variant("international"), 4)
    with pytest.raises(ValueError, match="from 2 to 5 on 10x10 boards, not 6"):
        endgame_database(variant("international"), 6)


# -- known endings on 10x10 (International: flying kings on 50 squares) ------------------


def test_flying_kings_one_king_against_one_king_draw_international() -> None:
    assert _value("international", "W:WK1:BK50") == Value(Result.DRAW, 0)


def test_flying_king_captures_lone_king_on_its_diagonal_international() -> None:
    # K46 takes the king on 23 along the long diagonal 46-5 (landing 19, 14, 10 or 5).
    assert _value("international", "W:WK46:BK23") == Value(Result.WIN, 1)


def test_king_in_the_corner_must_step_into_capture_international() -> None:
    # The king on 46 moves only along the long diagonal, where the king on 5 takes it.
    assert _value("international", "W:WK46:BK5") == Value(Result.LOSS, 2)


def _solved_through(v: Variant, pieces: int, last: tuple[int, int, int, int]) -> object:
    """A database of ``pieces`` pieces whose classes are solved in order up to ``last``."""
    db = egdb_files.empty_database(v, pieces)
    for cls in db.classes:
        db.solve(cls)
        if cls == last:
            return db
    raise AssertionError(f"no class {last}")


def test_flying_kings_three_kings_do_not_beat_one_king_even_on_the_long_diagonal_international(
) -> None:
    # On 10x10 three kings against one win only by a shot, not by holding the long diagonal
    # 46-5 as on 8x8 (compare the Russian test above): White's king on 14 holds it here.
    v = variant("international")
    db = _solved_through(v, 4, (0, 3, 0, 1))
    assert db.probe(parse_fen(v, "W:WK14,K1,K2:BK50")) == (0, 0)
    assert db.probe(parse_fen(v, "B:WK14,K1,K2:BK50")) == (0, 0)
    # A shot: K46 takes 23 along the long diagonal at once.
    assert db.probe(parse_fen(v, "W:WK46,K1,K2:BK23")) == (1, 1)


# -- the no-progress rule (RULES.md section 1: 40 moves by each side) ----------------------


def test_forty_move_rule_cuts_a_win_longer_than_the_plies_left_american() -> None:
    v = variant("american")
    pos = parse_fen(v, "W:WK1,K2:BK32")
    value = probe(v, pos)
    assert value is not None and value.result is Result.WIN
    limit = 2 * v.draw_moves_without_progress
    assert value_under_draw_rule(v, pos, limit - value.plies - 1) == value
    assert value_under_draw_rule(v, pos, limit - value.plies) is None
    # A draw stays a draw whatever the counter.
    assert value_under_draw_rule(v, parse_fen(v, "W:WK1:BK32"), limit - 1) == Value(
        Result.DRAW, 0
    )


def _king_walk(v: Variant, pos: Position, plies: int, rng: random.Random) -> list[Position]:
    """``plies`` quiet king moves from pos, no position twice, never a capture on the board
    (material kept); a walk that gets stuck starts again."""
    while True:
        path = [pos]
        seen = {pos}
        while len(path) <= plies:
            moves = legal_moves(v, path[-1])
            rng.shuffle(moves)
            options = [apply_move(path[-1], m) for m in moves if not m.captured]
            options = [p for p in options if p not in seen and legal_moves(v, p)
                       and not legal_moves(v, p)[0].captured]
            if not options:
                break
            seen.add(options[0])
            path.append(options[0])
        else:
            return path


def test_forty_move_rule_search_claims_a_database_win_only_before_the_limit_american() -> None:
    v = variant("american")
    limit = 2 * v.draw_moves_without_progress
    history = _king_walk(v, parse_fen(v, "W:WK1,K2:BK32"), limit - 1, random.Random(3))
    searcher = Searcher(v, tt_entries=1 << 12, endgame_pieces=3)
    stands = cut = 0
    for quiet, pos in enumerate(history):
        value = probe(v, pos)
        assert value is not None and value.result is not Result.DRAW
        if value.plies < 3:
            continue  # a depth-2 search would see the end itself
        if {apply_move(pos, m) for m in legal_moves(v, pos)} & set(history[:quiet]):
            continue  # a move back to an earlier position: a repetition, scored 0
        searcher.clear()
        score = searcher.search(pos, depth=2, history=history[: quiet + 1]).score
        if quiet + value.plies < limit:
            exact = MATE - value.plies if value.result is Result.WIN else value.plies - MATE
            assert score == exact, (quiet, value)
            stands += 1
        else:
            assert abs(score) < MATE_BOUND, (quiet, value)
            cut += 1
    assert stands and cut


# -- the search probes the database -------------------------------------------------------


@pytest.mark.parametrize("vid,fen", [("american", "W:WK1,K2:BK32"), ("russian", "W:Wc3:Bh8"),
                                     ("international", "W:WK28:B3,27")])
def test_search_with_database_scores_and_plays_the_shortest_win(vid: str, fen: str) -> None:
    v = variant(vid)
    pos = parse_fen(v, fen)
    value = probe(v, pos)
    assert value is not None and value.result is Result.WIN
    searcher = Searcher(v, tt_entries=1 << 12, endgame_pieces=3)
    plies = 0
    while legal_moves(v, pos):
        found = searcher.search(pos, depth=1)
        assert found.move is not None
        now = probe(v, pos)
        assert now is not None
        mate = MATE - value.plies + plies
        assert found.score == (mate if plies % 2 == 0 else -mate), move_text(v, found.move)
        pos = apply_move(pos, found.move)
        plies += 1
    # Both sides played the database's best moves: the game ended in exactly that many plies.
    assert plies == value.plies
    assert pos.turn is Color.BLACK


@pytest.mark.parametrize("vid,fen,decided", [
    ("american", "W:WK1:BK32", True),             # a drawn king against king
    ("international", "W:WK47:BK4", True),        # the same on 10x10, flying kings
    ("international", "W:WK46:BK5", True),        # a cornered king must walk into capture
    ("russian", "W:Wc3:Bh8", True),               # a database win, from the first iteration
    ("american", "W:WK1,K5:BK32,K28", False),     # 4 pieces past a 3-piece database
])
def test_search_stops_deepening_once_the_database_decides_every_root_move(
        vid: str, fen: str, decided: bool) -> None:
    """When every score of an iteration comes from the database, the end of the game or the
    draw rules (never the evaluation nor the table), a deeper iteration repeats it: the
    search ends there (a drawn ending went on to depth 190, one line a ply on Hub) and still
    plays the database's best move; a position past the database deepens as before."""
    v = variant(vid)
    pos = parse_fen(v, fen)
    found = Searcher(v, tt_entries=1 << 12, endgame_pieces=3).search(pos, nodes=200_000)
    assert found.move is not None
    if decided:
        assert found.depth == 1
        value = probe(v, pos)
        assert value is not None
        best = probe(v, apply_move(pos, found.move))
        assert best is not None
        if value.result is Result.DRAW:
            assert found.score == 0 and best.result is Result.DRAW
        else:
            sign = 1 if value.result is Result.WIN else -1
            assert found.score == sign * (MATE - value.plies)
            assert best.plies == value.plies - 1
    else:
        assert found.depth > 1


# -- agreement with a plain exhaustive search --------------------------------------------


def _horizon(v: Variant, pos: Position, k: int, memo: dict[tuple[Position, int], Value | None]
             ) -> Value | None:
    """Plain minimax over legal_moves: the exact value when the game ends within ``k`` plies
    with best play (shortest win, longest loss), else None."""
    key = (pos, k)
    if key in memo:
        return memo[key]
    moves = legal_moves(v, pos)
    out: Value | None
    if not moves:
        out = Value(Result.LOSS, 0)
    elif k == 0:
        out = None
    else:
        children = [_horizon(v, apply_move(pos, m), k - 1, memo) for m in moves]
        wins = [c.plies + 1 for c in children if c is not None and c.result is Result.LOSS]
        if wins:
            out = Value(Result.WIN, min(wins))
        elif all(c is not None and c.result is Result.WIN for c in children):
            out = Value(Result.LOSS, 1 + max(c.plies for c in children if c is not None))
        else:
            out = None
    memo[key] = out
    return out


def _random_small(v: Variant, rng: random.Random, pieces: int = 3) -> Position:
    """A random legal position of 2 to ``pieces`` pieces (each side at least one)."""
    geo = geometry(v)
    while True:
        n = rng.randint(2, pieces)
        squares = rng.sample(list(geo.squares), n)
        n_white = rng.randint(1, n - 1)
        white = black = kings = 0
        for i, s in enumerate(squares):
            if i < n_white:
                white |= 1 << s
            else:
                black |= 1 << s
            if rng.random() < 0.5:
                kings |= 1 << s
        pos = Position(white, black, kings, rng.choice((Color.WHITE, Color.BLACK)))
        # Men off their own promotion row (White promotes on the top row, Black the bottom).
        if any(geo.row(s) == 0 for s in iter_bits(white & ~kings)):
            continue
        if any(geo.row(s) == geo.size - 1 for s in iter_bits(black & ~kings)):
            continue
        return pos


#: Plies of the plain exhaustive search (positions decided within them are compared exactly).
HORIZON = 6


@pytest.mark.parametrize("v", RULES_WITH_DATABASES, ids=lambda v: v.display_name)
def test_database_agrees_with_exhaustive_search_on_random_three_piece_positions(
    v: Variant,
) -> None:
    rng = random.Random(20)
    memo: dict[tuple[Position, int], Value | None] = {}
    decided = 0
    for _ in range(100):
        pos = _random_small(v, rng)
        value = probe(v, pos)
        assert value is not None
        expected = _horizon(v, pos, HORIZON, memo)
        if value.result is not Result.DRAW and value.plies <= HORIZON:
            assert expected == value, (pos, value, expected)
            decided += 1
        else:
            assert expected is None, (pos, value, expected)
    assert decided > 0


def _consistent(v: Variant, pos: Position, pieces: int) -> None:
    """The value of pos follows from its children's values one move later (RULES.md: no legal
    move or no piece loses; the shortest win, the longest loss)."""
    value = probe(v, pos, pieces)
    assert value is not None
    children = [probe(v, apply_move(pos, m), pieces) or Value(Result.LOSS, 0)
                for m in legal_moves(v, pos)]
    lost = [c.plies + 1 for c in children if c.result is Result.LOSS]
    if not children:
        expected = Value(Result.LOSS, 0)
    elif lost:
        expected = Value(Result.WIN, min(lost))
    elif all(c.result is Result.WIN for c in children):
        expected = Value(Result.LOSS, 1 + max(c.plies for c in children))
    else:
        expected = Value(Result.DRAW, 0)
    assert value == expected, pos


@pytest.mark.parametrize("v", RULES_WITH_DATABASES, ids=lambda v: v.display_name)
def test_database_values_follow_from_the_values_one_move_later(v: Variant) -> None:
    rng = random.Random(11)
    for _ in range(5000):
        _consistent(v, _random_small(v, rng), 3)


def test_four_piece_values_follow_from_the_values_one_move_later_russian() -> None:
    v = variant("russian")
    rng = random.Random(12)
    for _ in range(3000):
        _consistent(v, _random_small(v, rng, 4), 4)


# -- colour symmetry -----------------------------------------------------------------------


def _rotated(v: Variant, pos: Position) -> Position:
    """The board turned half a turn with the colours swapped (White's pieces become Black's)."""
    squares = geometry(v).squares
    turn = {s: squares[len(squares) - 1 - i] for i, s in enumerate(squares)}

    def rot(bb: int) -> int:
        return sum(1 << turn[s] for s in iter_bits(bb))

    return Position(rot(pos.black), rot(pos.white), rot(pos.kings), pos.turn.opponent)


@pytest.mark.parametrize("v", RULES_WITH_DATABASES, ids=lambda v: v.display_name)
def test_database_values_are_colour_symmetric(v: Variant) -> None:
    rng = random.Random(7)
    for _ in range(300):
        pos = _random_small(v, rng)
        assert probe(v, pos) == probe(v, _rotated(v, pos)), pos


# -- levels ---------------------------------------------------------------------------------


def test_levels_two_and_three_probe_the_three_piece_database_on_8x8_boards_only() -> None:
    from damiera.engine import Engine

    assert Engine(variant("american"), 1).searcher.endgame_pieces == 0
    assert Engine(variant("russian"), 2).searcher.endgame_pieces == 3
    assert Engine(variant("italian"), 3).searcher.endgame_pieces == 3
    assert Engine(variant("international"), 3).searcher.endgame_pieces == 0
