"""tools/generate_puzzles.py finds puzzles in Damiera's own games: a PDN file (what "Download
all my games" gives) and a site's store, as well as in self-play."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from damiera.puzzles.library import data_file, read_puzzles, write_puzzles
from damiera.puzzles.model import Puzzle, puzzle_id
from damiera.web.store import GameStore, StoredGame

ROOT = Path(__file__).resolve().parents[2]
#: Black to move; 6-10 lets White's shot 23-20 10x19 20x11x4 in (Italian draughts).
BEFORE_THE_SHOT = "B:W14,22,23,24,25,26,30:B1,5,6,7,13,15,17"
PDN = f"""[Event "A club game"]
[GameType "22"]
[FEN "{BEFORE_THE_SHOT}"]

1... 6-10 *
"""


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_puzzles",
                                                  ROOT / "tools" / "generate_puzzles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["generate_puzzles"] = module
    spec.loader.exec_module(module)
    return module


def _found(out: Path) -> list[tuple[str, ...]]:
    return [p.solution for p in read_puzzles(out / "italian.jsonl.gz")]


def test_puzzles_from_a_pdn_file(tmp_path: Path) -> None:
    games = tmp_path / "games.pdn"
    games.write_text(PDN, encoding="utf-8")
    out = tmp_path / "data"
    assert _tool().main(["italian", "--pdn", str(games), "--self-play", "0",
                         "--out", str(out)]) == 0
    assert ("23-20", "10x19", "20x11x4") in _found(out)


def test_puzzles_from_a_sites_store(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/site.sqlite3"
    store = GameStore(url)
    store.create(StoredGame(id="g1", variant="italian", optional_capture=False,
                            opponent="friend", level=None, side="white",
                            start_fen=BEFORE_THE_SHOT, moves=["6-10"]))
    store.close()
    out = tmp_path / "data"
    assert _tool().main(["italian", "--database-url", url, "--self-play", "0",
                         "--out", str(out)]) == 0
    assert ("23-20", "10x19", "20x11x4") in _found(out)


def test_self_play_adds_puzzles_until_the_count(tmp_path: Path) -> None:
    out = tmp_path / "data"
    assert _tool().main(["russian", "--count", "3", "--seed", "1", "--batch", "1",
                         "--out", str(out)]) == 0
    puzzles = list(read_puzzles(out / "russian.jsonl.gz"))
    assert len(puzzles) >= 3
    assert [p.id for p in puzzles] == sorted(p.id for p in puzzles)


def test_recheck_drops_a_puzzle_that_is_no_longer_the_only_win(tmp_path: Path) -> None:
    """After the engine changed, ``--recheck`` judges the file's puzzles again at the depth
    the tests do: the Italian shot stays; a 'puzzle' from the opening position (no move
    wins anything there) goes."""
    out = tmp_path / "data"
    out.mkdir()
    shot = "W:W14,22,23,24,25,26,30:B1,5,7,10,13,15,17"
    start = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    puzzles = [Puzzle(puzzle_id("italian", fen), "italian", fen, solution, 1000, ("win",))
               for fen, solution in [(shot, ("23-20", "10x19", "20x11x4")),
                                     (start, ("21-17",))]]
    write_puzzles(data_file("italian", out), puzzles)
    assert _tool().main(["italian", "--recheck", "--self-play", "0", "--count", "0",
                         "--out", str(out)]) == 0
    assert _found(out) == [("23-20", "10x19", "20x11x4")]


def test_all_names_the_rule_sets_that_have_a_file(tmp_path: Path) -> None:
    """'all' serves the rule sets whose file is in --out (it starts no file of its own) and
    is refused with a reason where there is none."""
    out = tmp_path / "data"
    out.mkdir()
    with pytest.raises(SystemExit) as stop:
        _tool().main(["all", "--self-play", "0", "--out", str(out)])
    assert stop.value.code == 2
    games = tmp_path / "games.pdn"
    games.write_text(PDN, encoding="utf-8")
    write_puzzles(data_file("italian", out), [])
    assert _tool().main(["all", "--pdn", str(games), "--self-play", "0", "--out", str(out)]) == 0
    assert ("23-20", "10x19", "20x11x4") in _found(out)
    assert [p.name for p in out.iterdir()] == ["italian.jsonl.gz"]


@pytest.mark.parametrize("args", [["checkers-on-mars"], ["international", "--optional-capture"],
                                  ["all", "--optional-capture"]])
def test_rule_sets_it_cannot_serve_are_refused_with_a_reason(
        args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        _tool().main([*args, "--self-play", "0", "--out", str(tmp_path)])
    assert stop.value.code == 2
    assert "error:" in capsys.readouterr().err
