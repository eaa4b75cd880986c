"""The native search and evaluation (damiera._core.Engine): the static scores are those of
the Python reference evaluation (tests/engine/reference_evaluate.py, the terms of
damiera.engine.evaluate) on many positions of every variant and the house rule, with and without
trained patterns; stop() and Ctrl-C end a search."""

from __future__ import annotations

import random
import signal
import threading

import pytest

from damiera.engine import patterns as pat
from damiera.engine.evaluate import Evaluator
from damiera.engine.search import Searcher
from damiera.rules.geometry import geometry
from damiera.rules.movegen import apply_move, generate
from damiera.rules.position import Position, start_position
from damiera.rules.variant import Color, Variant, variant
from tests.engine.reference_evaluate import ReferenceEvaluator
from tests.rules.test_native_vs_reference import ALL_RULES, random_position


def _positions(v: Variant, count: int, seed: int) -> list[Position]:
    """Random positions, and positions from random games (men, kings, endings)."""
    rng = random.Random(seed)
    out = [random_position(v, rng) for _ in range(count // 2)]
    while len(out) < count:
        pos = start_position(v)
        for _ in range(rng.randint(10, 120)):
            moves = generate(v, pos)
            if not moves:
                break
            pos = apply_move(pos, rng.choice(moves))
            out.append(pos)
    return out[:count]


@pytest.mark.parametrize("v", ALL_RULES, ids=lambda v: v.display_name)
def test_native_static_scores_equal_the_python_evaluation(v: Variant) -> None:
    evaluator = Evaluator(v)
    reference = ReferenceEvaluator(evaluator)
    scores = set()
    for pos in _positions(v, 1500, seed=7):
        expected = reference.evaluate(pos)
        assert evaluator.evaluate(pos) == expected, pos
        scores.add(expected)
    assert len(scores) > 100


@pytest.mark.parametrize("phases", [1, 2])
@pytest.mark.parametrize("vid", ["international", "russian", "italian"])
def test_native_static_scores_equal_with_trained_patterns(vid: str, phases: int) -> None:
    """With one set of tables, and with an opening's and an endgame's blended by the pieces
    left (two phases)."""
    v = variant(vid)
    pset = pat.PatternSet(geometry(v), 3)
    rng = random.Random(3)
    tables = [[rng.randint(-40, 40) for _ in range(pset.size)]
              for _ in range(phases * len(pset.windows))]
    evaluator = Evaluator(v, tables=(pset.rows, tables))
    assert evaluator.pattern_phases == phases
    assert evaluator.window_rows
    reference = ReferenceEvaluator(evaluator)
    for pos in _positions(v, 500, seed=11):
        assert evaluator.evaluate(pos) == reference.evaluate(pos), pos


@pytest.mark.parametrize("vid", ["international", "russian", "american"])
def test_native_static_scores_equal_in_small_endings_with_kings(vid: str) -> None:
    """Two to seven pieces, kings and men of both sides: the held-draw scaling of flying
    kings and the kings-only terms of short kings agree with the reference."""
    v = variant(vid)
    geo = geometry(v)
    evaluator = Evaluator(v)
    reference = ReferenceEvaluator(evaluator)
    rng = random.Random(9)
    squares = list(geo.squares)
    near_draw = 0  # scores within a man: the held draws among them
    for _ in range(2000):
        chosen = rng.sample(squares, rng.randint(2, 7))
        white = sum(1 << s for s in chosen[::2])
        black = sum(1 << s for s in chosen[1::2])
        # Kings at random, and every man on its own king row (it would have been crowned).
        kings = sum(1 << s for s in chosen if rng.random() < 0.6)
        kings |= (white & geo.top_row) | (black & geo.bottom_row)
        pos = Position(white, black, kings, rng.choice((Color.WHITE, Color.BLACK)))
        expected = reference.evaluate(pos)
        assert evaluator.evaluate(pos) == expected, pos
        near_draw += abs(expected) < 100
    assert near_draw > 100


@pytest.mark.parametrize("vid", ["international", "russian"])
def test_native_static_scores_equal_with_more_pieces_than_the_start(vid: str) -> None:
    """Set-up positions may hold more pieces than the start (a trade-down term below zero,
    the patterns' blend at its opening end): the native core and the reference still agree,
    with two-phase tables."""
    v = variant(vid)
    geo = geometry(v)
    pset = pat.PatternSet(geo, 3)
    rng = random.Random(5)
    tables = [[rng.randint(-40, 40) for _ in range(pset.size)]
              for _ in range(2 * len(pset.windows))]
    evaluator = Evaluator(v, tables=(pset.rows, tables))
    reference = ReferenceEvaluator(evaluator)
    squares = list(geo.coords)
    start = 2 * v.men_per_side
    checked = 0
    for _ in range(300):
        white = black = 0
        for s in rng.sample(squares, rng.randint(start + 1, len(squares))):
            if rng.random() < 0.5:
                white |= 1 << s
            else:
                black |= 1 << s
        pos = Position(white, black, 0, v.first_to_move)
        assert evaluator.evaluate(pos) == reference.evaluate(pos), pos
        checked += 1
    assert checked == 300


def test_stop_from_another_thread_ends_the_search_with_a_legal_move() -> None:
    v = variant("international")
    pos = start_position(v)
    searcher = Searcher(v)
    timer = threading.Timer(0.2, searcher.stop)
    timer.start()
    try:
        result = searcher.search(pos, depth=40)  # days of work without stop()
    finally:
        timer.cancel()
    assert result.move in generate(v, pos)
    assert 1 <= result.depth < 40
    # The next search is not stopped by the old request.
    assert searcher.search(pos, depth=3).depth == 3


@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_ends_the_search() -> None:
    v = variant("international")
    timer = threading.Timer(0.2, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            Searcher(v).search(start_position(v), depth=40)
    finally:
        timer.cancel()


def test_the_search_releases_the_gil() -> None:
    # A Python thread counts while a search runs: it gets the interpreter many times.
    v = variant("international")
    counter = [0]
    done = threading.Event()

    def count() -> None:
        while not done.is_set():
            counter[0] += 1

    thread = threading.Thread(target=count)
    thread.start()
    try:
        Searcher(v).search(start_position(v), depth=9)
    finally:
        done.set()
        thread.join()
    assert counter[0] > 1000
