"""Perft from each variant's start position against the published counts
(shared/reference/perft.json; equal captures counted once)."""

from __future__ import annotations

import pytest

from damiera.rules.movegen import perft
from damiera.rules.position import parse_fen, start_position
from damiera.rules.variant import VARIANTS, variant
from tests.conftest import load_reference

#: Deepest depth run by `make test` per variant (the whole suite stays well under 10 minutes);
#: deeper ones run with `make test-slow`.
FAST_DEPTH = {"international": 7}
FAST_DEPTH_8X8 = 8
SLOW_DEPTH = {"international": 9}
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
    table = load_reference("perft.json")["variants"][vid]
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
