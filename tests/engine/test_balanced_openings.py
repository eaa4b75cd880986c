"""Match openings the engine judges level: ``balanced_openings`` and ``damiera openings``.

The searches run on the hand-made evaluation (``Evaluator(v, patterns=False)``) where a test
needs a fixed judgement, so that retrained weights cannot change what these tests see.
"""

from __future__ import annotations

import pytest

from damiera.cli import main
from damiera.engine import match_openings
from damiera.engine.evaluate import Evaluator
from damiera.engine.match_openings import balanced_openings, random_openings, read_openings
from damiera.engine.search import Searcher
from damiera.rules.movegen import has_capture
from damiera.rules.position import parse_fen
from damiera.rules.variant import Color, variant

NODES = 60_000


def _judge(v, pos) -> int:  # type: ignore[no-untyped-def]
    """An independent judgement: a fresh searcher on the hand-made evaluation."""
    return Searcher(v, evaluator=Evaluator(v, patterns=False)).search(pos, nodes=NODES).score


def test_balanced_openings_keep_exactly_the_random_openings_searched_level() -> None:
    # Russian 4-ply random openings of seed 405 include openings a shot decides (a man or
    # more for one side): the filter must drop those and keep the others, in the order drawn.
    v = variant("russian")
    hand_made = Evaluator(v, patterns=False)
    kept = balanced_openings(v, 12, plies=4, seed=405, nodes=NODES, margin=30,
                             evaluator=hand_made)
    assert len(kept) == 12
    drawn = random_openings(v, 60, plies=4, seed=405)  # the same draw, further on
    expected = []
    refused = 0
    for pos in drawn:
        if len(expected) == 12:
            break
        score = _judge(v, pos)
        if abs(score) <= 30:
            expected.append((pos, score))
        else:
            refused += 1
    assert [(k.position, k.score) for k in kept] == expected
    assert refused > 0, "the filter refused nothing: the test shows nothing"
    for k in kept:
        white, black = k.position.piece_counts()
        assert white == black and not has_capture(v, k.position) and k.depth >= 1


def test_balanced_openings_report_every_judgement_and_stop_at_the_try_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    v = variant("american")
    monkeypatch.setattr(match_openings, "BALANCED_TRIES_EACH", 2)
    seen: list[tuple[int, bool]] = []
    # margin 0: only openings scored exactly level are kept; at most 2 x 3 are searched.
    kept = balanced_openings(v, 3, plies=4, seed=7, nodes=20_000, margin=0,
                             on_judged=lambda o, ok: seen.append((o.score, ok)),
                             evaluator=Evaluator(v, patterns=False))
    assert len(seen) <= 6
    assert [s for s, ok in seen if ok] == [k.score for k in kept]
    assert all(ok == (s == 0) for s, ok in seen)
    if len(kept) < 3:
        assert len(seen) == 6


def test_balanced_openings_return_fewer_when_the_variant_has_no_more() -> None:
    v = variant("american")  # seven first moves, so seven openings of one ply
    kept = balanced_openings(v, 10, plies=1, seed=1, nodes=5_000, margin=1000,
                             evaluator=Evaluator(v, patterns=False))
    assert len(kept) == 7
    assert len({k.position for k in kept}) == 7


@pytest.mark.parametrize("bad", [{"count": 0}, {"nodes": 0}, {"plies": -1}, {"margin": -1}])
def test_balanced_openings_refuse_bad_arguments(bad: dict[str, int]) -> None:
    args = {"count": 2, "plies": 4, "seed": 1, "nodes": 1000, "margin": 30} | bad
    with pytest.raises(ValueError):
        balanced_openings(variant("american"), **args)


def test_cli_openings_writes_a_file_match_reads(capsys: pytest.CaptureFixture[str],
                                                tmp_path: pytest.TempPathFactory) -> None:
    assert main(["openings", "russian", "--count", "4", "--nodes", "20000", "--seed", "3",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == ("# damiera openings russian: 4 wanted, 4 plies, |score| <= 30 at "
                        "20000 nodes, seed 3")
    assert len(lines) == 5
    v = variant("russian")
    for line in lines[1:]:
        fen, comment = line.split("  # ")
        parse_fen(v, fen)
        score = int(comment.split(",")[0].removeprefix("score "))
        assert abs(score) <= 30
    path = tmp_path / "level.txt"  # type: ignore[operator]
    path.write_text(out)
    assert len(read_openings(v, str(path))) == 4
    assert main(["match", "russian", "--first", "random", "--second", "random", "--games",
                 "2", "--openings", str(path), "--quiet"]) == 0


def test_cli_openings_says_how_many_it_found_when_short(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["openings", "american", "--count", "9", "--plies", "1", "--nodes", "1000",
                 "--margin", "1000", "--quiet"]) == 1
    captured = capsys.readouterr()
    assert len([x for x in captured.out.splitlines() if not x.startswith("#")]) == 7
    assert ("found 7 of 9 openings within 1000 (7 searched, american has no more distinct "
            "openings of 1 ply)") in captured.err


@pytest.mark.parametrize("args, message", [
    (["--count", "0"], "--count must be between 1 and 10000, not 0"),
    (["--count", "2", "--nodes", "10"], "--nodes must be between 1000"),
    (["--count", "2", "--plies", "41"], "--plies must be between 0 and 40, not 41"),
    (["--count", "2", "--margin", "-1"], "--margin must be between 0 and 1000, not -1"),
])
def test_cli_openings_refuses_bad_input(args: list[str], message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["openings", "american", *args, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["american", "frysk", "thai"])
def test_long_random_openings_have_as_many_men_and_as_many_kings_each(name: str) -> None:
    # 40 random plies crown men: a king and four men against five men is not level material,
    # though each side has five pieces.
    v = variant(name)
    for pos in random_openings(v, 20, plies=40, seed=11):
        assert pos.men(Color.WHITE).bit_count() == pos.men(Color.BLACK).bit_count()
        assert pos.kings_of(Color.WHITE).bit_count() == pos.kings_of(Color.BLACK).bit_count()


def test_cli_openings_header_names_the_rule_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["openings", "russian", "--losing", "--count", "1", "--nodes", "1000",
                 "--margin", "1000", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("# damiera openings russian+losing: 1 wanted")
