"""Search tests: tactics found at a fixed depth, legality everywhere, fixed depth, draws.

Positions are stated in FEN; expected moves in the variant's notation. Fixed depths only:
no wall-clock assertion (speed is measured in ``benchmarks/search_bench.py``).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from damiera.engine.search import MATE_BOUND, Info, Searcher
from damiera.rules.movegen import apply_move, generate
from damiera.rules.notation import move_text
from damiera.rules.position import parse_fen, start_position
from damiera.rules.variant import VARIANTS, variant

# -- tactics: a two-for-one shot ---------------------------------------------------------------
# White gives one man on c3 and takes two back: the man that takes lands where White's back
# man jumps it and goes on over the second black man. One case per family of rules: short
# kings (American, Italian on the mirrored board), flying kings with men capturing forward
# only (Czech, Spanish), backward-capturing men (Russian, Brazilian), and 10x10.
SHOTS = [
    ("american", "W:W26,30,31:B4,17,18", "26-22"),
    ("italian", "W:W27,30,31:B1,19,20", "27-23"),
    ("czech", "W:Wc1,e1,d2:Bb4,d4,h8", "d2-c3"),
    ("spanish", "W:W2,3,6:B13,14,32", "6-10"),
    ("russian", "W:Wc1,e1,d2:Bb4,d4,h8", "d2-c3"),
    ("brazilian", "W:Wc1,e1,d2:Bb4,d4,h8", "d2-c3"),
    ("international", "W:W42,47,48:B3,31,32", "42-37"),
]


@pytest.mark.parametrize("vid,fen,expected", SHOTS, ids=[s[0] for s in SHOTS])
def test_two_for_one_shot_is_found(vid: str, fen: str, expected: str) -> None:
    v = variant(vid)
    result = Searcher(v).search(parse_fen(v, fen), depth=4)
    assert result.move is not None
    assert move_text(v, result.move) == expected
    assert result.score >= 90  # a man up after the exchange


# -- tactics: a breakthrough to the king row ---------------------------------------------------
# White sacrifices a man so that the other one runs through to the king row; the forced wins
# end with Black having no piece or no move.
BREAKTHROUGHS = [
    # g5-f6 is forced out: 16-11 7x16 20x11 4-8 11x4 and Black has no piece left.
    ("american", "W:W16,20:B4,7", "16-11", True),
    ("czech", "W:Wh4,g5:Be7,h8", "g5-f6", True),
    ("spanish", "W:W16,20:B27,32", "20-23", True),
    # Three against three: 13-10 6x13 17x10 and the man on 10 crowns.
    ("italian", "W:W9,13,17:B1,2,6", "13-10", False),
    ("russian", "W:Wh4,g5:Be7,h8", "g5-f6", True),
    ("international", "W:W7,25,44:B15,19,45", "44-40", True),
]


@pytest.mark.parametrize("vid,fen,expected,forced_win", BREAKTHROUGHS,
                         ids=[b[0] for b in BREAKTHROUGHS])
def test_breakthrough_to_the_king_row_is_found(
    vid: str, fen: str, expected: str, forced_win: bool
) -> None:
    v = variant(vid)
    pos = parse_fen(v, fen)
    result = Searcher(v).search(pos, depth=9)
    assert result.move is not None
    assert move_text(v, result.move) == expected
    if forced_win:
        assert result.score > MATE_BOUND
    else:
        assert result.score >= 150
    # The principal variation crowns a white man.
    p = pos
    crowned = False
    for m in result.pv:
        crowned = crowned or (m.promotes and p.turn.value == "W")
        p = apply_move(p, m)
    assert crowned


# -- always a legal move -----------------------------------------------------------------------
ALL_RULES = [(vid, False) for vid in VARIANTS] + [
    (vid, True) for vid, v in VARIANTS.items() if v.board_size == 8
]


@pytest.mark.parametrize("vid,optional", ALL_RULES,
                         ids=[f"{v}{'-optional' if o else ''}" for v, o in ALL_RULES])
def test_search_always_returns_a_legal_move(vid: str, optional: bool) -> None:
    v = variant(vid, optional_capture=optional)
    rng = random.Random(7)
    searcher = Searcher(v)
    pos = start_position(v)
    for _ply in range(24):
        moves = generate(v, pos)
        if not moves:
            break
        result = searcher.search(pos, depth=2)
        assert result.move in moves
        # Alternate the engine's move with random ones to reach varied positions.
        pos = apply_move(pos, result.move if _ply % 2 else rng.choice(moves))


def test_optional_capture_engine_may_decline_a_capture() -> None:
    # White can take 22x15 (c3xe5 in American numbering: 22 over 18 to 15) but Black then
    # takes back two; with captures optional the engine is free to play a quiet move.
    v = variant("american", optional_capture=True)
    pos = parse_fen(v, "W:W22,31:B18,11,4")
    moves = generate(v, pos)
    assert any(m.captures for m in moves) and any(not m.captures for m in moves)
    result = Searcher(v).search(pos, depth=4)
    assert result.move in moves


def test_no_legal_move_gives_no_move() -> None:
    v = variant("american")
    result = Searcher(v).search(parse_fen(v, "B:W18:B"), depth=3)
    assert result.move is None


def test_short_movetime_still_returns_a_legal_move() -> None:
    v = variant("international")
    pos = start_position(v)
    result = Searcher(v).search(pos, movetime=0.05)
    assert result.move in generate(v, pos)


def test_tiny_movetime_still_finishes_depth_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # A deadline already passed when the search starts, and the clock read at every node:
    # depth 1 is still searched in full.
    for vid in ("international", "american", "russian"):
        v = variant(vid)
        pos = start_position(v)
        infos: list[Info] = []
        result = Searcher(v).search(pos, movetime=1e-9, on_info=infos.append,
                                    root_scores=True)
        assert result.depth >= 1 and infos and infos[0].depth == 1
        assert abs(result.score) < MATE_BOUND
        assert {m for m, _ in result.root_scores} == set(generate(v, pos))


def test_the_last_info_line_shows_the_move_played_under_a_clock() -> None:
    # An unfinished iteration may change the move played; it is then said in one more info
    # line, so that a GUI never sees a principal variation that does not start with it.
    # (Which searches end that way depends on the clock: over these 64, a few do.)
    rng = random.Random(7)
    for vid in ("international", "russian", "italian", "american"):
        v = variant(vid)
        later = start_position(v)
        for _ in range(12):
            later = apply_move(later, rng.choice(generate(v, later)))
        for pos in (start_position(v), later):
            for movetime in (0.003, 0.005, 0.008, 0.01, 0.015, 0.02, 0.03, 0.05):
                infos: list[Info] = []
                result = Searcher(v).search(pos, movetime=movetime, on_info=infos.append)
                if result.depth > 0:
                    assert infos[-1].pv[0] == result.move


def test_tiny_movetime_on_the_cli_prints_a_searched_score(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from damiera.cli import main

    assert main(["bestmove", "international", "--movetime", "0.000001", "--book", "off"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("depth 1 score ")
    assert not any(w in line for line in lines for w in ("depth 0", "loss", "win"))


# A single legal move is played at once under a clock; its score must still be a searched one
# (a depth-1 search of the position after it: what a fixed depth-1 search of the position
# gives, with its forced-move extension). Here White's only move is a capture that walks into
# Black's answer: the static score counts the men White has up the board, the exchange that
# follows loses material.
FORCED_INTO_LOSS = [
    ("W:W17,20,21,28:B22,23,25,43", "28x19"),
    ("W:W6,21,37,41:B2,11,22,36", "6x17x28"),
]


@pytest.mark.parametrize("fen,forced", FORCED_INTO_LOSS, ids=[f for _, f in FORCED_INTO_LOSS])
def test_forced_capture_played_at_once_is_scored_after_the_exchange(
    fen: str, forced: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The premise (the static score is wrong about the exchange) is the hand-made one's.
    monkeypatch.setenv("DAMIERA_EVAL", "hand")
    v = variant("international")
    pos = parse_fen(v, fen)
    searcher = Searcher(v)
    static = searcher.evaluator.evaluate(pos)
    result = searcher.search(pos, movetime=5.0)
    assert result.move is not None and move_text(v, result.move) == forced
    assert result.depth == 0 and result.seconds < 5.0
    assert result.score == Searcher(v).search(pos, depth=1).score
    infos: list[Info] = []
    again = Searcher(v).search(pos, movetime=5.0, on_info=infos.append)
    assert [(i.depth, i.score, i.pv) for i in infos] == [(0, again.score, [result.move])]
    deep = Searcher(v).search(pos, depth=6)
    assert static > 0 > deep.score + 100
    assert abs(result.score - deep.score) < 50


def test_forced_move_reports_the_score_an_earlier_search_stored() -> None:
    # Black must capture, 31x42 or 32x41, and either way White's recapture is then forced
    # (47x38x27 or 47x36x27), so the test holds whichever capture the evaluation prefers.
    # Searched after Black's search, the forced move's score comes from the table: the
    # score that search gave, from White's side, not a shallower one.
    v = variant("international")
    pos = parse_fen(v, "B:W37,47,49:B3,31,32")
    assert sorted(move_text(v, m) for m in generate(v, pos)) == ["31x42", "32x41"]
    assert all(len(generate(v, apply_move(pos, m))) == 1 for m in generate(v, pos))
    searcher = Searcher(v)
    first = searcher.search(pos, depth=8)
    assert first.move is not None
    after = apply_move(pos, first.move)
    result = searcher.search(after, movetime=5.0)
    assert result.depth == 0 and result.score == -first.score >= 200


# White's king on 4 has one move, 4-8, and two black kings win against it; here 4-8 repeats
# a position of the game (Black's kings went 15-11, 11-15, 15-11 while White's king went to 8
# and back), so it is a draw. The searcher first meets the position without the game, so its
# table holds the position after 4-8 as a win for Black: the draw rules come first.
FORCED_REPEAT = ["B:WK4:BK15,20", "W:WK4:BK11,20", "B:WK8:BK11,20", "W:WK8:BK15,20",
                 "B:WK4:BK15,20", "W:WK4:BK11,20"]


def test_forced_move_into_a_repetition_is_scored_as_a_draw() -> None:
    v = variant("american")
    game = [parse_fen(v, f) for f in FORCED_REPEAT]
    searcher = Searcher(v)
    alone = searcher.search(game[-1], movetime=5.0)
    assert alone.depth == 0 and alone.score < -MATE_BOUND
    result = searcher.search(game[-1], movetime=5.0, history=game)
    assert result.move is not None and move_text(v, result.move) == "4-8"
    assert result.depth == 0 and result.score == 0


def test_forced_move_that_reaches_the_forty_move_limit_is_scored_as_a_draw() -> None:
    # The last two positions of the game above (Black's 15-11, then White to move), under a
    # limit of one move each without capture or promotion: White's forced 4-8 is the second
    # such ply, so the game is drawn before Black's winning capture.
    v = dataclasses.replace(variant("american"), draw_moves_without_progress=1)
    game = [parse_fen(v, f) for f in FORCED_REPEAT[-2:]]
    searcher = Searcher(v)
    assert searcher.search(game[-1], movetime=5.0).score < -MATE_BOUND
    assert searcher.search(game[-1], movetime=5.0, history=game).score == 0


# -- fixed depth -------------------------------------------------------------------------------
@pytest.mark.parametrize("vid", ["american", "russian", "international"])
def test_fixed_depth_is_respected(vid: str) -> None:
    v = variant(vid)
    infos: list[Info] = []
    result = Searcher(v).search(start_position(v), depth=3, on_info=infos.append)
    assert result.depth == 3
    assert [i.depth for i in infos] == [1, 2, 3]
    assert len(result.pv) <= 3


@pytest.mark.parametrize("vid", ["american", "russian", "international"])
def test_every_iteration_reports_a_legal_line_as_long_as_its_depth(vid: str) -> None:
    # The line was read from the transposition table after the iteration, whose entries the
    # rest of the iteration had overwritten: with a small table the line of depth 7-9 from
    # the start shrank to one move (and `damiera analyse international --depth 14` printed
    # three moves with the full table). Each PV node now hands its line to its parent.
    v = variant(vid)
    infos: list[Info] = []
    result = Searcher(v, tt_entries=1024).search(start_position(v), depth=9,
                                                 on_info=infos.append)
    assert [len(i.pv) for i in infos] == [i.depth for i in infos] == list(range(1, 10))
    assert result.pv == infos[-1].pv and result.pv[0] == result.move
    pos = start_position(v)
    for move in result.pv:
        assert move in generate(v, pos)
        pos = apply_move(pos, move)


def test_bad_depth_and_movetime_are_refused() -> None:
    v = variant("american")
    with pytest.raises(ValueError, match="depth"):
        Searcher(v).search(start_position(v), depth=0)
    with pytest.raises(ValueError, match="movetime"):
        Searcher(v).search(start_position(v), movetime=-1)
    with pytest.raises(ValueError, match="movetime"):
        Searcher(v).search(start_position(v), movetime=float("nan"))
    with pytest.raises(ValueError, match="nodes"):
        Searcher(v).search(start_position(v), nodes=0)


# -- node limit --------------------------------------------------------------------------------
@pytest.mark.parametrize("vid", ["american", "international"])
def test_node_limit_stops_the_search_within_one_poll(vid: str) -> None:
    # The limit is read every 256 nodes, after depth 1 (always finished); a larger budget
    # searches at least as deep, and the same budget from a fresh table gives the same move.
    v = variant(vid)
    pos = start_position(v)
    small = Searcher(v).search(pos, nodes=5_000)
    again = Searcher(v).search(pos, nodes=5_000)
    large = Searcher(v).search(pos, nodes=50_000)
    assert 5_000 <= small.nodes < 5_000 + 256
    assert 50_000 <= large.nodes < 50_000 + 256
    assert (again.move, again.depth, again.nodes) == (small.move, small.depth, small.nodes)
    assert large.depth > small.depth >= 1


# -- draws inside the search -------------------------------------------------------------------
def test_draw_by_repetition_is_scored_as_a_draw() -> None:
    # Black is a man up. The game went: B:WK25:B3,K12 (Black to move), 12-16, 25-30, 16-12,
    # reaching W:WK30:B3,K12. White's 30-25 repeats the first position: a draw (score 0),
    # better than anything else White has.
    v = variant("american")
    fens = ["B:WK25:B3,K12", "W:WK25:B3,K16", "B:WK30:B3,K16", "W:WK30:B3,K12"]
    history = [parse_fen(v, f) for f in fens]
    pos = history[-1]
    without = Searcher(v).search(pos, depth=4)
    assert without.score < -50
    result = Searcher(v).search(pos, depth=4, history=history)
    assert result.move is not None
    assert move_text(v, result.move) == "30-25"
    assert result.score == 0


def test_draw_by_the_forty_move_rule_is_scored_as_a_draw() -> None:
    # White is a man up, but no capture or promotion can come in the next two plies; with the
    # no-progress limit set to one move each, every line is a draw.
    base = variant("american")
    pos = parse_fen(base, "W:W21,K30:BK3")
    assert Searcher(base).search(pos, depth=4).score > 50
    short = dataclasses.replace(base, draw_moves_without_progress=1)
    assert Searcher(short).search(pos, depth=4).score == 0


def test_forty_move_count_is_read_from_the_game_history() -> None:
    # 2 plies of king moves already played; with a limit of 2 moves each (4 plies) any line
    # of two more quiet plies is a draw.
    base = variant("american")
    v = dataclasses.replace(base, draw_moves_without_progress=2)
    fens = ["W:W21,K26:BK3", "B:W21,K30:BK3", "W:W21,K30:BK7"]
    history = [parse_fen(v, f) for f in fens]
    assert Searcher(v).search(history[-1], depth=3, history=history).score == 0
    assert Searcher(v).search(history[-1], depth=3).score > 50




def test_late_move_reductions_are_unchanged_where_no_capture_can_be_offered() -> None:
    # The men are too far apart to meet within the search: both trees are the same.
    v = variant("international")
    pos = parse_fen(v, "W:W41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10")
    spared_searcher = Searcher(v)
    spared_searcher.reduce_sacrifices = False
    spared = spared_searcher.search(pos, depth=5)
    reduced_searcher = Searcher(v)
    reduced_searcher.reduce_sacrifices = True
    reduced = reduced_searcher.search(pos, depth=5)
    assert (spared.nodes, spared.score, spared.move) == (reduced.nodes, reduced.score,
                                                          reduced.move)


def test_forced_move_score_is_searched_even_under_the_shortest_clock() -> None:
    # A king ending where the one-ply search after the only capture needs thousands of nodes
    # (newcomer finding): it once timed out at 0.001 s and reported the static score of the
    # position before the capture, -646 against 363 with a second.
    v = variant("international")
    pos = parse_fen(v, "W:WK2,6,11,K15,19,29,36,37,44,K45,K48:BK1,14,16,K17,K21,K28,K31,33,34,"
                       "39,43,K47")
    assert len(generate(v, pos)) == 1
    scores = {Searcher(v).search(pos, movetime=t).score for t in (1e-6, 0.001, 1.0)}
    assert scores == {Searcher(v).search(pos, depth=1).score}
