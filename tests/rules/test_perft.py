"""Perft from each variant's start position against the published counts
(shared/reference/perft.json, and docs/reference/perft.json for the rule sets of docs/rules.md;
equal captures counted once)."""

from __future__ import annotations

import dataclasses

import pytest

from damiera.rules.movegen import perft
from damiera.rules.position import parse_fen, start_position
from damiera.rules.variant import VARIANTS, variant
from tests.conftest import perft_table

#: Deepest depth run by `make test` per variant (the whole suite stays well under 10 minutes);
#: deeper ones run with `make test-slow`.
FAST_DEPTH = {"international": 7, "canadian": 5, "malaysian": 5}
FAST_DEPTH_8X8 = 8
SLOW_DEPTH = {"international": 9, "thai": 9, "turkish": 9, "canadian": 9, "malaysian": 8}
SLOW_DEPTH_8X8 = 10


def _cases(slow: bool) -> list[tuple[str, int]]:
    out = []
    for vid in VARIANTS:
        fast = FAST_DEPTH.get(vid, FAST_DEPTH_8X8)
        deep = SLOW_DEPTH.get(vid, SLOW_DEPTH_8X8)
        depths = range(fast + 1, deep + 1) if slow else range(1, fast + 1)
        out += [(vid, d) for d in depths]
    return out


def _expected(vid: str, depth: int) -> tuple[str, int]:
    table = perft_table(vid)
    return table["fen"], table["nodes_by_depth"][depth - 1]


@pytest.mark.parametrize(("vid", "depth"), _cases(slow=False))
def test_perft_start_position(vid: str, depth: int) -> None:
    fen, expected = _expected(vid, depth)
    v = variant(vid)
    position = parse_fen(v, fen)
    assert position == start_position(v)
    assert perft(v, position, depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("vid", "depth"), _cases(slow=True))
def test_perft_start_position_deep(vid: str, depth: int) -> None:
    fen, expected = _expected(vid, depth)
    v = variant(vid)
    assert perft(v, parse_fen(v, fen), depth) == expected


def test_perft_depth_zero_is_one_node() -> None:
    v = variant("american")
    assert perft(v, start_position(v), 0) == 1


def test_perft_negative_depth_is_refused() -> None:
    v = variant("american")
    with pytest.raises(ValueError, match="depth"):
        perft(v, start_position(v), -1)


@pytest.mark.usefixtures("python_sigint")
def test_perft_stops_on_ctrl_c() -> None:
    """The native perft polls for signals: Ctrl-C (SIGINT, raised here from another thread
    while an International perft of depth 11 runs, minutes of work) ends it with
    KeyboardInterrupt."""
    import signal
    import threading

    v = variant("international")
    timer = threading.Timer(0.05, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            perft(v, start_position(v), 11)
    finally:
        timer.cancel()


@pytest.mark.parametrize("depth", range(1, 10))
def test_perft_thai_rules_from_three_rows_as_published(depth: int) -> None:
    """Thai capture rules (kings land right behind, pieces removed at once) against the one
    published Thai table, dctl's, whose start has three rows of men a side."""
    table = perft_table("thai-3rows")
    v = dataclasses.replace(variant(table["variant"]), man_rows=table["man_rows"])
    assert perft(v, parse_fen(v, table["fen"]), depth) == table["nodes_by_depth"][depth - 1]
