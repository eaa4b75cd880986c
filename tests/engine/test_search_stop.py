"""Searcher.stop(): a search ended from another thread returns its best move so far.

Counted, never timed: the depth reached and the move returned (the native search releases the
interpreter lock, so the stopping thread runs while it searches). The stop latency is measured in ``benchmarks/hub_bench.py``.
"""

from __future__ import annotations

import threading

from damiera.engine.search import MAX_DEPTH, Info, Searcher, SearchResult
from damiera.rules.movegen import generate
from damiera.rules.position import start_position
from damiera.rules.variant import variant


def test_stop_from_another_thread_ends_a_deep_search_within_one_clock_check() -> None:
    v = variant("international")
    pos = start_position(v)
    searcher = Searcher(v)
    reached = threading.Event()
    infos: list[Info] = []
    results: list[SearchResult] = []

    def on_info(info: Info) -> None:
        infos.append(info)
        if info.depth >= 3:
            reached.set()

    def run() -> None:
        # A depth the search would need hours for: only stop() can end it.
        results.append(searcher.search(pos, depth=MAX_DEPTH, on_info=on_info))

    worker = threading.Thread(target=run)
    worker.start()
    assert reached.wait(120)
    searcher.stop()
    worker.join(120)
    assert not worker.is_alive()
    (result,) = results
    assert 3 <= result.depth < MAX_DEPTH
    assert result.move in generate(v, pos)
    assert infos[-1].pv[0] == result.move  # the last info line shows the move returned


def test_stop_before_a_new_iteration_returns_the_last_finished_one() -> None:
    v = variant("italian")
    pos = start_position(v)
    searcher = Searcher(v)
    infos: list[Info] = []

    def on_info(info: Info) -> None:
        infos.append(info)
        searcher.stop()  # after depth 1: no second iteration starts

    result = searcher.search(pos, depth=8, on_info=on_info)
    assert [i.depth for i in infos] == [1]
    assert result.depth == 1 and result.move == infos[0].pv[0]


def test_a_stop_when_no_search_runs_is_forgotten_by_the_next_search() -> None:
    v = variant("russian")
    searcher = Searcher(v)
    searcher.stop()
    assert searcher.search(start_position(v), depth=3).depth == 3
