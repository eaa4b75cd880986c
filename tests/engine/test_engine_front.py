"""The one engine front: Engine.play / analyse (with multipv) / choose, Limit, the context
manager, and the errors a user meets first."""

from __future__ import annotations

import random

import pytest

import damiera
import damiera.engine
import damiera.engine.levels
from damiera.engine import Engine, Limit
from damiera.engine.analysis import analyse
from damiera.rules.position import start_position


def test_levels_player_is_gone_and_engine_is_the_front() -> None:
    assert not hasattr(damiera.engine.levels, "Player")
    engine = Engine("italian", 2)
    assert engine.level == 2 and engine.variant.id == "italian"


def test_analyse_with_multipv_gives_lines_of_public_moves_best_first() -> None:
    game = damiera.Game("international")
    lines = Engine("international").analyse(game, Limit(depth=3), multipv=3)
    assert [line.rank for line in lines] == [1, 2, 3]
    assert len({str(line.move) for line in lines}) == 3
    assert all(line.move in game.legal_moves and line.pv[0] == line.move for line in lines)
    assert all(isinstance(m, damiera.Move) for line in lines for m in line.pv)
    assert lines[0].score >= lines[1].score >= lines[2].score
    # one line is the same answer as the plain analysis at the same depth
    one = Engine("international").analyse(game, Limit(depth=3), multipv=1)
    plain = Engine("international").analyse(game, Limit(depth=3))
    assert len(one) == 1 and (one[0].move, one[0].score) == (plain.move, plain.score)


def test_multipv_is_capped_by_the_legal_moves_and_checked() -> None:
    game = damiera.Game("american", fen="W:W22:B3")          # a lone man: two moves
    engine = Engine("american")
    assert len(engine.analyse(game, Limit(depth=2), multipv=5)) == 2
    for bad in (0, 11):
        with pytest.raises(ValueError, match="multipv must be between 1 and 10"):
            engine.analyse(game, Limit(depth=2), multipv=bad)
    with pytest.raises(TypeError, match="multipv is a number of lines"):
        engine.analyse(game, Limit(depth=2), multipv=2.0)  # type: ignore[call-overload]


def test_on_info_reports_moves_in_notation() -> None:
    game = damiera.Game("international")
    seen: list[damiera.engine.Info] = []
    Engine("international").analyse(game, Limit(depth=3), multipv=2, on_info=seen.append)
    Engine("international").play(game, Limit(depth=2), on_info=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3, 1, 2]
    assert all(isinstance(m, damiera.Move) for i in seen for m in i.pv)
    assert all(isinstance(m, damiera.Move) for i in seen for _s, pv in i.lines for m in pv)
    assert seen[2].lines and str(seen[2].pv[0]) in {str(m) for m in game.legal_moves}


def test_the_analysis_helper_gives_public_moves_not_square_indices() -> None:
    v = damiera.variant("international")
    lines = analyse(v, start_position(v), multipv=2, depth=2)
    assert all(isinstance(m, damiera.Move) for line in lines for m in line.pv)
    assert str(lines[0].pv[0]) in {str(m) for m in damiera.Game(v).legal_moves}


def test_context_manager_frees_the_tables() -> None:
    game = damiera.Game("russian")
    with Engine("russian") as engine:
        assert engine.play(game, Limit(depth=1)).move in game.legal_moves
    with pytest.raises(RuntimeError, match="closed"):
        engine.play(game, Limit(depth=1))
    engine.stop()                                            # harmless once closed


def test_wrong_types_say_what_was_expected() -> None:
    engine = Engine("international")
    with pytest.raises(TypeError, match="takes a damiera.Game"):
        engine.play("W:W31-50:B1-20")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Limit such as Limit\(time=1.0\)"):
        engine.play(damiera.Game("international"), 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Variant or a variant name"):
        Engine(10)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="level is a number"):
        Engine("italian", "3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level must be 1, 2 or 3"):
        Engine("italian", 4)
    for bad, words in (({"time": "1"}, "time is seconds"), ({"depth": 2.5}, "depth is plies"),
                       ({"nodes": True}, "nodes is a number of nodes")):
        with pytest.raises(TypeError, match=words):
            Limit(**bad)


def test_choose_plays_from_the_positions_of_a_game() -> None:
    game = damiera.Game("italian")
    game.play("22-19")
    engine = Engine("italian", 1, rng=random.Random(2))
    chosen = engine.choose(game.positions, Limit(depth=2))
    assert chosen.move in game.legal_moves
    with pytest.raises(ValueError, match="no legal move"):
        Engine("american").choose([damiera.Game("american", fen="W:W5:B1").position])
