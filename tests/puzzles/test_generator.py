"""tools/generate_puzzles.py finds puzzles in Damiera's own games: a PDN file (what "Download
all my games" gives) and a site's store, as well as in self-play."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from damiera.puzzles.library import read_puzzles
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
