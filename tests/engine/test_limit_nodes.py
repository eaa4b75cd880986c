"""``Limit(nodes=N)``: a node budget for :meth:`Engine.play` and :meth:`Engine.analyse`,
the same search whatever the machine's speed (what Hub's ``level nodes=N`` uses)."""

from __future__ import annotations

import pytest

import damiera
from damiera.engine import Engine, Limit


def test_play_and_analyse_stop_at_the_node_budget() -> None:
    game = damiera.Game("international")
    engine = Engine("international", level=3)
    for search in (engine.play, engine.analyse):
        result = search(game, Limit(nodes=3000))
        assert result.move is not None and result.depth > 1
        assert result.nodes < 3000 + 256  # counted every 256 nodes


def test_a_node_budget_gives_the_same_answer_twice() -> None:
    game = damiera.Game("italian")
    first = Engine("italian", level=3).analyse(game, Limit(nodes=5000))
    second = Engine("italian", level=3).analyse(game, Limit(nodes=5000))
    assert (first.move, first.pv, first.nodes) == (second.move, second.pv, second.nodes)


def test_a_node_budget_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="nodes must be at least 1"):
        Limit(nodes=0)
