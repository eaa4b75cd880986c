"""Custom rule sets on the command line: a ``custom:`` id is a rule set like any other
(perft, moves, bestmove, the option flags), and an impossible one is refused with the
reason."""

from __future__ import annotations

import pytest

from damiera.cli import main
from damiera.rules.custom import write_custom
from damiera.rules.variant import VARIANTS, custom_fields

RUSSIAN_AGAIN = write_custom(custom_fields(VARIANTS["russian"]), "Russian again")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_perft_of_a_custom_rule_set_with_russians_rules_counts_russians_nodes(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", RUSSIAN_AGAIN, "5")
    assert status == 0
    assert out.splitlines()[-1] == run(capsys, "perft", "russian", "5")[1].splitlines()[-1]


def test_the_option_flags_fold_into_the_custom_code(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", RUSSIAN_AGAIN, "--losing", "--fen", "W:Wc3:Bd4")
    assert status == 0 and out.split() == ["c3xe5"]


def test_bestmove_plays_a_custom_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "bestmove", "custom:1103110012:Ten", "--depth", "3")
    assert status == 0 and out.splitlines()[-1].startswith("bestmove ")


@pytest.mark.parametrize(("name", "words"), [
    ("custom:1000001", "only when kings fly"),
    ("custom:1:<x>", "not '<'"),
])
def test_an_impossible_custom_rule_set_is_refused_with_the_reason(
        capsys: pytest.CaptureFixture[str], name: str, words: str) -> None:
    status, _, err = run(capsys, "perft", name, "2")
    assert status == 2 and words in err


def test_a_custom_rule_set_on_the_12x12_board_plays(capsys: pytest.CaptureFixture[str]) -> None:
    # custom:12 is the defaults on the 12x12 board: three rows of six men each, men capturing
    # forward only, short kings; the front row's six men have eleven moves.
    status, out, _ = run(capsys, "perft", "custom:12", "1")
    assert status == 0 and out.splitlines()[-1] == "Nodes searched: 11"
    status, out, _ = run(capsys, "bestmove", "custom:12", "--depth", "3")
    assert status == 0 and out.splitlines()[-1].startswith("bestmove ")


def test_variants_says_how_to_name_a_custom_rule_set(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert "custom:<code>[:name]" in run(capsys, "variants")[1]
