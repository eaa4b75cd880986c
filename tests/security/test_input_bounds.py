"""Every parser that sees user input is bounded in length and linear in it.

Linearity is shown by comparing, in one run, the time of one 1 MB input with that of a
thousand 1 KB inputs (the same number of characters): a linear reader takes about as long for
both, a quadratic one a thousand times longer for the big input. Best of three of each, so a
busy machine does not decide the result; no wall-clock bound.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from damiera.rules import notation
from damiera.rules.geometry import SquareError, geometry
from damiera.rules.notation import NotationError, parse_squares
from damiera.rules.position import FenError, parse_fen
from damiera.rules.variant import variant
from damiera.web import i18n

KB = 1024
MB = 1024 * 1024


def _best_of_three(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def _linear(make: Callable[[int], str], read: Callable[[str], object]) -> float:
    """Time of one 1 MB input over the time of 1,000 inputs of 1 KB (about 1 when linear)."""
    small, big = make(KB), make(MB)

    def many() -> None:
        for _ in range(1000):
            read(small)

    return _best_of_three(lambda: read(big)) / _best_of_three(many)


def _swallow(read: Callable[[str], object]) -> Callable[[str], object]:
    def run(text: str) -> object:
        try:
            return read(text)
        except (NotationError, FenError, SquareError, ValueError):
            return None
    return run


def test_move_text_of_1_mb_is_refused_before_it_is_read() -> None:
    text = "22" + " " * MB + "-18"
    with pytest.raises(NotationError) as err:
        parse_squares(variant("american"), text)
    assert err.value.code == "too_long"
    assert len(str(err.value)) < 200 and len(err.value.params["text"]) < 60


def test_move_separator_reader_is_linear_in_a_run_of_spaces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The old pattern ``\\s*[x:-]\\s*`` backtracked over every space: 6 KB took 5.7 s."""
    monkeypatch.setattr(notation, "MAX_MOVE_TEXT", 4 * MB)
    v = variant("american")
    ratio = _linear(lambda n: "22" + " " * n + "18", _swallow(lambda t: parse_squares(v, t)))
    assert ratio < 20, ratio


def test_fen_of_1_mb_is_refused_and_the_reader_is_linear() -> None:
    v = variant("international")
    with pytest.raises(FenError, match="too long"):
        parse_fen(v, "W:W" + "," * MB)
    ratio = _linear(lambda n: "W:W" + "31," * (n // 3), _swallow(lambda t: parse_fen(v, t)))
    assert ratio < 20, ratio


def test_1000_accept_language_tags_read_no_more_than_a_handful() -> None:
    header = ", ".join(f"x{i:03d}-YY;q=0.{i % 9 + 1}" for i in range(1000)) + ", it"
    assert len(header) > 6000
    assert len(i18n.parse_accept_language(header)) <= i18n.MAX_LANGUAGE_TAGS
    assert i18n.choose_locale(None, None, header) == "en"   # "it" is past the bound
    assert i18n.choose_locale(None, None, "xx, it-IT;q=0.5") == "it"
    ratio = _linear(lambda n: "fr-CA;q=0.5, " * (n // 13),
                    lambda t: i18n.choose_locale(None, None, t))
    assert ratio < 20, ratio


def test_accept_language_does_not_read_the_catalog_folder_per_tag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The old reader listed the catalog folder once for every tag (1,000 tags: 7.6 s)."""
    calls = []
    real = Path.glob

    def counting(self: Path, pattern: str) -> object:
        calls.append(pattern)
        return real(self, pattern)

    i18n.available_locales()
    monkeypatch.setattr(Path, "glob", counting)
    i18n.choose_locale(None, None, ", ".join(["de"] * 1000))
    assert calls == []


def test_square_labels_are_read_in_linear_time_with_a_short_error() -> None:
    geo = geometry(variant("russian"))
    with pytest.raises(SquareError) as err:
        geo.square("c" + "9" * MB)
    assert len(str(err.value)) < 120
    ratio = _linear(lambda n: " " * n + "c3", _swallow(geo.square))
    assert ratio < 20, ratio
