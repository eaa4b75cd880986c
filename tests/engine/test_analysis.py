"""Analysis (multi-PV lines), game review with NAGs, and ``damiera analyse``."""

from __future__ import annotations

import pytest

import damiera
from damiera.cli import main
from damiera.engine.analysis import analyse, score_men
from damiera.engine.review import annotated_pdn, judge, review_game
from damiera.engine.search import Searcher
from damiera.pdn import read_game
from damiera.rules.movegen import apply_move, legal_moves
from damiera.rules.notation import parse_move
from damiera.rules.position import Position, parse_fen, start_position
from damiera.rules.variant import Variant, variant
from tests.planted import planted_game


def _playable(v: Variant, pos: Position, line: list[damiera.Move]) -> bool:
    for m in (played.raw for played in line):
        if m not in legal_moves(v, pos):
            return False
        pos = apply_move(pos, m)
    return True


@pytest.mark.parametrize("vid", ["american", "italian", "international"])
def test_multipv_gives_distinct_legal_lines_best_first(vid: str) -> None:
    v = variant(vid)
    pos = start_position(v)
    reports: list[int] = []
    lines = analyse(v, pos, multipv=3, depth=4, on_lines=lambda ls: reports.append(len(ls)))
    assert [ln.rank for ln in lines] == [1, 2, 3]
    assert len({ln.pv[0] for ln in lines}) == 3
    assert lines[0].score >= lines[1].score >= lines[2].score
    assert all(_playable(v, pos, ln.pv) for ln in lines)
    assert reports == [3, 3, 3, 3]  # one report of three lines per iteration, depths 1-4


def test_multipv_first_line_agrees_with_the_search_scoring_every_root_move() -> None:
    v = variant("russian")
    pos = start_position(v)
    lines = analyse(v, pos, multipv=2, depth=3)
    result = Searcher(v).search(pos, depth=3, root_scores=True)
    assert (lines[0].pv[0].raw, lines[0].score) == result.root_scores[0]
    assert lines[1].score == result.root_scores[1][1]


def test_multipv_is_capped_by_the_number_of_legal_moves() -> None:
    v = variant("american")
    pos = parse_fen(v, "W:W22:B3")  # a lone man: two moves
    lines = analyse(v, pos, multipv=3, depth=2)
    assert len(lines) == len(legal_moves(v, pos)) == 2


def test_analysis_of_a_lost_position_is_empty_and_bad_options_are_refused() -> None:
    v = variant("american")
    assert analyse(v, parse_fen(v, "W:W5:B1"), depth=2) == []  # white man blocked: no move
    with pytest.raises(ValueError, match="multipv"):
        analyse(v, start_position(v), multipv=0)
    with pytest.raises(ValueError, match="depth"):
        analyse(v, start_position(v), depth=31)


def test_should_stop_ends_the_analysis_after_the_iteration() -> None:
    v = variant("italian")
    seen: list[int] = []
    lines = analyse(v, start_position(v), depth=8, on_lines=lambda ls: seen.append(ls[0].depth),
                    should_stop=lambda: len(seen) >= 2)
    assert seen == [1, 2] and lines[0].depth == 2


def test_score_men_has_a_sign_and_names_forced_results() -> None:
    assert (score_men(125), score_men(-40), score_men(0)) == ("+1.25", "-0.40", "0.00")
    assert score_men(1_000_000 - 7) == "win in 7"


def test_judgement_thresholds_give_the_pdn_nags() -> None:
    assert [judge(x)[1] for x in (0, 49, 50, 99, 100, 149, 150, 900)] == [
        "", "", "?!", "?!", "?", "?", "??", "??"]


@pytest.mark.parametrize("vid", ["american", "italian", "international"])
def test_review_marks_a_planted_two_man_blunder_with_double_question_mark(vid: str) -> None:
    v = variant(vid)
    moves, planted = planted_game(v, 40, 14)
    progress: list[tuple[int, int]] = []
    reviews = review_game(v, moves, movetime=0.05, on_progress=lambda d, t: progress.append((d, t)))
    assert len(reviews) == len(moves)
    assert progress[-1] == (len(moves) + 1, len(moves) + 1)
    blunder = reviews[planted]
    assert (blunder.judgement, blunder.nag) == ("blunder", "??")
    assert blunder.best is not None and blunder.best != moves[planted]
    pdn = annotated_pdn(v, moves, reviews, result="*")
    assert f'[GameType "{v.pdn_gametype}"]' in pdn
    from damiera.rules.notation import move_text
    assert move_text(v, moves[planted]) + "??" in pdn.split()
    assert "; blunder, best " in " ".join(pdn.split())
    # written by the one PDN writer, so the reader takes it back, NAGs and comments with it
    back = read_game(pdn)
    assert back is not None and [m.raw for m in back.moves] == list(moves)
    assert back.plies[planted].nags == ["??"] and "blunder, best" in back.plies[planted].comment
    assert back.tags["Annotator"] == "Damiera engine" and back.result == "*"


def test_review_refuses_an_illegal_move_naming_its_ply() -> None:
    v = variant("american")
    pos = start_position(v)
    m = parse_move(v, pos, "11-15")  # Black's move: Black moves first in American
    with pytest.raises(ValueError, match="move 2"):
        review_game(v, [m, m], movetime=0.01)


def test_cli_analyse_prints_one_info_line_per_pv(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "italian", "--multipv", "2", "--depth", "3"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert [ln.split()[:4] for ln in out[:-1]] == [
        ["depth", str(d), "multipv", str(k)] for d in (1, 2, 3) for k in (1, 2)]
    words = out[0].split()
    assert words[4] == "score" and words[6] == "nodes" and words[8] == "nps" and words[10] == "pv"
    assert out[-1].startswith("bestmove ")
    assert out[-1].split()[1] == out[-3].split()[11]


def test_cli_analyse_single_line_is_written_as_bestmove_writes_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["analyse", "russian", "--depth", "2"]) == 0
    first = capsys.readouterr().out.splitlines()[0].split()
    assert first[:3] == ["depth", "1", "score"] and first[8] == "pv"


@pytest.mark.parametrize(("args", "message"), [
    (["--multipv", "11"], "multipv must be between 1 and 10"),
    (["--fen", "W:W1:B"], "bad FEN"),
    (["--movetime", "0"], "movetime must be a positive number"),
])
def test_cli_analyse_bad_input_is_one_line_and_status_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", "american", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_analysis_of_a_three_piece_ending_gives_the_endgame_databases_exact_win() -> None:
    # American, two kings against one (RULES.md: the side with two kings wins by force): at a
    # depth far too shallow to see the end, the 3-piece endgame database gives the exact
    # result, a win in so many plies, as the level 3 player would see it.
    from damiera.engine.egdb import probe
    from damiera.engine.search import MATE

    v = variant("american")
    pos = parse_fen(v, "W:WK1,K2:BK32")
    lines = analyse(v, pos, depth=2)
    value = probe(v, pos)
    assert value is not None and value.result.name == "WIN" and value.plies > 2
    assert lines[0].score == MATE - value.plies
