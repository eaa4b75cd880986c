"""The draw rule of a flag fall (RULES.md section 1; FMJD and chess practice): the side whose
time ran out loses, unless its opponent cannot win by any legal series of moves, the loser
helping (damiera.rules.helpmate.can_win); then the game is drawn. Budgets are counts of
positions, never times."""

from __future__ import annotations

import random
from collections import deque

import pytest

import damiera
from damiera.pdn import write_game
from damiera.rules.game import Game, GameOverError, Result, ResultReason, flag_result
from damiera.rules.geometry import geometry
from damiera.rules.helpmate import WinStatus, can_win
from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import move_text
from damiera.rules.position import Position, parse_fen
from damiera.rules.variant import Color, Variant, variant

#: International: White's kings on 5 and 10 shut Black's lone king in the corner 46 of the
#: main diagonal; every move of it runs onto the diagonal where a white king must take it.
SHUT_IN = "W:WK5,K10:BK46"
#: American: lone king against lone king, Black to move: the kings meet only on Black's
#: turns (each move changes the sum of their rows by one), so White can never take.
OPPOSITION = "B:WK32:BK1"


def _line(v: Variant, fen: str, side: Color, budget: int = 100_000) -> list[str]:
    proof = can_win(v, parse_fen(v, fen), side, node_budget=budget)
    assert proof.status is WinStatus.WIN_POSSIBLE
    game = Game(v, fen)
    for move in proof.line:
        game.play(move)
    assert game.outcome() is not None and game.outcome().winner is side  # type: ignore[union-attr]
    return [move_text(v, m) for m in proof.line]


def test_flag_fall_loses_when_the_opponent_can_win_international() -> None:
    v = variant("international")
    assert _line(v, "W:WK46:BK5", Color.BLACK) == ["46-41", "5x46"]
    assert flag_result(v, parse_fen(v, "W:WK46:BK5")) == Result(Color.BLACK, ResultReason.TIME)


def test_flag_fall_loses_when_the_opponent_can_win_american_two_pieces_break_the_opposition(
) -> None:
    v = variant("american")
    line = _line(v, "B:WK32,K31:BK1", Color.WHITE)
    assert line[-1].count("x") == 1 and len(line) % 2 == 0   # White's capture ends it
    assert flag_result(v, parse_fen(v, "B:WK32,K31:BK1")).reason is ResultReason.TIME


def test_flag_fall_draws_when_the_opponent_cannot_win_lone_king_shut_in_the_corner() -> None:
    v = variant("international")
    proof = can_win(v, parse_fen(v, SHUT_IN), Color.BLACK)
    assert proof.status is WinStatus.NO_WIN and proof.line == ()
    assert proof.nodes == _reachable(v, parse_fen(v, SHUT_IN)) == 59   # all of them, once
    assert flag_result(v, parse_fen(v, SHUT_IN)) == Result(None, ResultReason.TIME_NO_WIN)
    # White, to move, could still win: the rule is about the side whose flag did not fall
    assert can_win(v, parse_fen(v, SHUT_IN), Color.WHITE).status is WinStatus.WIN_POSSIBLE


def test_flag_fall_draws_when_the_opponent_cannot_win_king_against_king_opposition() -> None:
    v = variant("american")
    proof = can_win(v, parse_fen(v, OPPOSITION), Color.WHITE)
    assert proof.status is WinStatus.NO_WIN
    assert proof.nodes == _reachable(v, parse_fen(v, OPPOSITION)) == 1004
    assert flag_result(v, parse_fen(v, OPPOSITION)).winner is None
    # the same kings with White to move: now White's flag falls and Black cannot win
    assert can_win(v, parse_fen(v, "W:WK32:BK1"), Color.BLACK).status is WinStatus.NO_WIN


@pytest.mark.parametrize(("vid", "fen", "side", "budget"), [
    ("international", SHUT_IN, Color.BLACK, 58),
    ("american", OPPOSITION, Color.WHITE, 1003),
])
def test_flag_fall_loses_without_proof_when_the_node_budget_runs_out(
    vid: str, fen: str, side: Color, budget: int
) -> None:
    v = variant(vid)
    proof = can_win(v, parse_fen(v, fen), side, node_budget=budget)
    assert proof.status is WinStatus.UNKNOWN and proof.nodes == budget
    # one position short of the proof: the flag loses (the draw needs the proof)
    assert flag_result(v, parse_fen(v, fen), node_budget=budget) == Result(
        side, ResultReason.TIME)
    assert flag_result(v, parse_fen(v, fen), node_budget=budget + 1).winner is None


def test_flag_fall_ends_the_game_for_good_through_the_public_game() -> None:
    game = damiera.Game("international", SHUT_IN)
    outcome = game.flag_fall()
    assert game.outcome() == outcome == Result(None, ResultReason.TIME_NO_WIN)
    assert outcome.pdn == "1/2-1/2"
    assert outcome.describe() == "Draw: a flag fell, but the other side cannot win"
    assert game.legal_moves == []
    pdn = write_game(game)
    assert '[Result "1-1"]' in pdn and '[Termination "time forfeit"]' in pdn
    with pytest.raises(GameOverError):
        game.flag_fall()
    lost = damiera.Game("international", "W:WK46:BK5")
    assert lost.flag_fall().describe() == "Black wins: White lost on time"
    with pytest.raises(GameOverError):   # like a resignation, it cannot be taken back
        lost.undo()


def test_can_win_refuses_a_budget_below_one() -> None:
    v = variant("italian")
    with pytest.raises(ValueError, match="at least 1"):
        can_win(v, parse_fen(v, "W:W21:B12"), Color.WHITE, node_budget=0)


def _reachable(v: Variant, root: Position) -> int:
    """Positions reachable from ``root`` (breadth first, no ordering, no win test)."""
    seen = {root}
    todo = deque([root])
    while todo:
        here = todo.popleft()
        for move in legal_moves(v, here):
            child = apply_move(here, move)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return len(seen)


def _win_reachable(v: Variant, root: Position, side: Color, cap: int) -> bool | None:
    """A plain breadth-first answer to the same question (None past ``cap`` positions)."""
    loser = side.opponent
    seen = {root}
    todo = deque([root])
    while todo:
        here = todo.popleft()
        if here.turn is loser and (not here.pieces(loser) or not legal_moves(v, here)):
            return True
        for move in legal_moves(v, here):
            child = apply_move(here, move)
            if child not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(child)
                todo.append(child)
    return False


@pytest.mark.parametrize("vid", ["international", "russian", "italian", "american"])
def test_can_win_agrees_with_a_plain_breadth_first_search_on_small_endings(vid: str) -> None:
    """Random endings of 2 against 1 pieces: the depth-first search with its ordering and
    a plain breadth-first search find the same answer, and every line it gives is legal
    and wins."""
    v = variant(vid)
    geo = geometry(v)
    rng = random.Random(16)
    checked = {WinStatus.WIN_POSSIBLE: 0, WinStatus.NO_WIN: 0}
    while sum(checked.values()) < 40:
        squares = rng.sample(list(geo.squares), 3)
        white = (1 << squares[0]) | (1 << squares[1])
        black = 1 << squares[2]
        crowned = [s for s in squares[:2] if geo.row(s) == 0]
        crowned += [squares[2]] if geo.row(squares[2]) == v.board_size - 1 else []
        kings = sum(1 << s for s in squares if s in crowned or rng.random() < 0.5)
        root = Position(white, black, kings, rng.choice([Color.WHITE, Color.BLACK]))
        side = rng.choice([Color.WHITE, Color.BLACK])
        expected = _win_reachable(v, root, side, 20_000)
        if expected is None:
            continue
        proof = can_win(v, root, side, node_budget=20_000)
        assert proof.status is (WinStatus.WIN_POSSIBLE if expected else WinStatus.NO_WIN)
        checked[proof.status] += 1
        if proof.line:
            game = Game(v, root, enforce_draws=False)
            for move in proof.line:
                game.play(move)
            assert game.outcome() is not None and game.outcome().winner is side  # type: ignore[union-attr]
    assert checked[WinStatus.NO_WIN] > 0 and checked[WinStatus.WIN_POSSIBLE] > 0
