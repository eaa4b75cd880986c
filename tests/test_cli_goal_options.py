"""The goal options on the command line: ``--losing`` and ``--breakthrough`` on every
command that takes a rule set (as ``--optional-capture``), or ``+option`` in its name."""

from __future__ import annotations

import json

import pytest

from damiera.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("option", ["--losing", "--breakthrough"])
def test_perft_takes_the_goal_options_and_counts_the_same_moves(
        capsys: pytest.CaptureFixture[str], option: str) -> None:
    status, plain, _ = run(capsys, "perft", "international", "4")
    assert status == 0
    status, out, _ = run(capsys, "perft", "international", "4", option)
    assert status == 0
    assert out.splitlines()[-1] == plain.splitlines()[-1] == "Nodes searched: 4265"


def test_the_option_may_be_part_of_the_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "moves", "russian+losing", "--fen", "W:Wc3:Bd4")[1].split() == ["c3:e5"]


def test_both_goals_at_once_are_refused_with_the_reason(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "perft", "italian", "2", "--losing", "--breakthrough")
    assert status == 2
    assert "two different goals" in err


def test_bestmove_under_losing_gives_its_men_away(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "bestmove", "international", "--fen", "W:W28,33:B19,10",
                         "--losing", "--depth", "6")
    assert status == 0
    assert out.splitlines()[-1] == "bestmove 28-23"
    assert "score win" in out


def test_bestmove_after_a_breakthrough_says_the_game_is_over(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "bestmove", "international", "--fen", "B:WK1:B45",
                         "--breakthrough", "--depth", "2")
    assert status == 1
    assert err.strip() == "game over: White wins: White made the first king (breakthrough)"


def test_analyse_and_match_take_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyse", "international", "--fen", "W:W6:B45",
                         "--breakthrough", "--depth", "2")
    assert status == 0 and out.splitlines()[-1] == "bestmove 6-1"
    status, out, _ = run(capsys, "match", "american", "--losing", "--first", "random",
                         "--second", "1", "--games", "2", "--movetime", "0.05", "--quiet",
                         "--json")
    assert status == 0
    assert json.loads(out.splitlines()[-1])["variant"] == "american+losing"


def test_variants_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "variants")
    assert "  options: --losing, --breakthrough (or international+losing and the like)" in out
    assert "  options: --optional-capture, --losing, --breakthrough" in out
    _, out, _ = run(capsys, "variants", "--json")
    by_id = {v["id"]: v for v in json.loads(out)}
    assert by_id["international"]["options_available"] == ["losing", "breakthrough"]
    assert by_id["italian"]["options_available"] == ["optional-capture", "losing",
                                                     "breakthrough"]
