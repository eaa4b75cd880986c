"""Every file of the PDN 3.0 test set (``shared/reference/pdn``): the ``succeed/`` files
replay entirely except the few genuinely broken games, each reported at its game and line;
the ``fail/`` files give errors at the right game and line and never crash; every readable
game round-trips (written, then read back, gives the same game and the same text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from damiera import pdn
from damiera.pdn import PdnGame, Ply
from tests.conftest import REFERENCE

PDN_DIR = REFERENCE / "pdn"

#: Files without a GameType tag, by the variant their games are played in (the others are
#: International, the standard's default).
VARIANT_OF_FILE = {
    "Campionato Assoluto 2005.pdn": "italian",
    "OCA_2.0.pdn": "american",
    "Principles of Strategy.pdn": "american",
    "Tricks traps and shots.pdn": "american",
    "beginner.pdn": "american",
    "borderclassics.pdn": "american",
    "bridges.pdn": "american",
    "gem.pdn": "american",
    "goulds.pdn": "american",
    "inferno.pdn": "american",
    "lpc.pdn": "american",
    "alphanumeric.pdn": "russian",
    "ussr1947.pdn": "russian",
    "abatsiev.pdn": "russian",
    "mrcd2000kval.pdn": "czech",
    "mrcd2006.pdn": "czech",
    "mrcd2007.pdn": "czech",
    "mrdrcd07.pdn": "czech",
    "mrdrcd08.pdn": "czech",
}

#: (game number, line, rule) of every broken game, per file.
EXPECTED_ERRORS: dict[str, list[tuple[int, int, str]]] = {
    # succeed/: genuinely broken games inside files the grammar accepts
    "Campionato Assoluto 2005.pdn": [(46, 753, "ambiguous-move")],  # last move 3x26: two paths
    "beginner.pdn": [(10, 78, "fen")],  # a white man on its promotion row
    "bridges.pdn": [(14, 124, "fen")],  # "W::."
    "goulds.pdn": [(93, 837, "fen")],
    "lpc.pdn": [(36, 286, "fen"), (63, 502, "fen"), (65, 518, "fen"), (73, 582, "fen")],
    # fail/: what the grammar rejects
    "40Camp.DamaInternazionaleAssoluto.pdn": [(11, 228, "syntax")],  # no result
    "Cat.A1.pdn": [(30, 405, "syntax")],  # a lone "."
    "Cat.C1.pdn": [(43, 579, "syntax"), (46, 611, "illegal-move")],  # "6." then nothing
    "abatsiev.pdn": [(36, 595, "syntax")],  # "1. - -"
    "delfts.pdn": [(1, 26, "illegal-move"), (2, 53, "illegal-move")],  # "4-6" as a result
    "mrdrcd07.pdn": [(12, 198, "syntax"), (20, 326, "syntax"), (36, 583, "syntax")],
    "mrdrcd08.pdn": [(31, 499, "syntax")],  # "1. 0-2"
    "nested_comment.pdn": [(1, 1, "syntax")],
}


def _files(folder: str) -> list[Path]:
    path = PDN_DIR / folder
    return sorted(path.glob("*.pdn")) if path.exists() else []


def _read(path: Path) -> list[PdnGame]:
    with open(path, "rb") as handle:
        return list(pdn.read_games(handle, VARIANT_OF_FILE.get(path.name, "international"),
                                   errors="collect"))


def _errors(games: list[PdnGame]) -> list[tuple[int, int, str]]:
    return [(g.number, g.error.line, g.error.rule) for g in games if g.error is not None]


def test_the_reference_files_are_there() -> None:
    if not PDN_DIR.exists():
        pytest.skip(f"{PDN_DIR} not found: the specification's shared/ folder is not beside "
                    "the repo")
    assert len(_files("succeed")) >= 30
    assert len(_files("fail")) >= 8


@pytest.mark.parametrize("path", _files("succeed"), ids=lambda p: p.name)
def test_succeed_files_replay_every_legal_game(path: Path) -> None:
    games = _read(path)
    assert games
    assert _errors(games) == EXPECTED_ERRORS.get(path.name, [])
    for game in games:
        if game.error is None:
            assert len(game.game.moves) == len(game.plies)


@pytest.mark.parametrize("path", _files("fail"), ids=lambda p: p.name)
def test_fail_files_report_the_game_and_line(path: Path) -> None:
    games = _read(path)
    assert _errors(games) == EXPECTED_ERRORS[path.name]
    for game in games:
        if game.error is not None:
            assert str(game.error).startswith(
                f"game {game.number}, line {game.error.line}, column {game.error.column}: ")


def _shape(plies: list[Ply]) -> list[object]:
    return [(str(p.move), p.nags, p.comment_before, p.comment,
             [_shape(v) for v in p.variations]) for p in plies]


@pytest.mark.parametrize("path", _files("succeed"), ids=lambda p: p.name)
def test_round_trip_gives_the_same_games(path: Path) -> None:
    games = [g for g in _read(path) if g.error is None]
    text = pdn.write_games(games)
    variant = VARIANT_OF_FILE.get(path.name, "international")
    back = list(pdn.read_games(text, variant))
    assert len(back) == len(games)
    for before, after in zip(games, back, strict=True):
        assert after.variant == before.variant
        assert after.game.start_fen == before.game.start_fen
        assert _shape(after.plies) == _shape(before.plies)
        assert after.comment == before.comment
        assert after.result == before.result
        assert pdn.write_game(after) == pdn.write_game(before)


def test_short_captures_resolved_by_the_following_moves() -> None:
    """schildpad (line 52): 36x16 fits two legal captures (36x13x2x16 and 36x18x7x16);
    only one lets the game go on, and the game replays."""
    path = PDN_DIR / "succeed" / "schildpad.pdn"
    if not path.exists():
        pytest.skip("shared/ not found")
    games = _read(path)
    assert all(g.error is None for g in games)
    found = [str(p.move) for g in games for p in g.plies if p.text == "36x16"]
    assert found and set(found) <= {"36x13x2x16", "36x18x7x16"}


def test_numeric_fen_on_an_algebraic_board() -> None:
    """ussr1947 (Russian) sets up the start with numbers: 21-32 are c3's rows."""
    path = PDN_DIR / "succeed" / "ussr1947.pdn"
    if not path.exists():
        pytest.skip("shared/ not found")
    game = _read(path)[0]
    assert game.error is None
    assert game.game.start_fen == "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"


@pytest.mark.parametrize("path", _files("succeed") + _files("fail"), ids=lambda p: p.name)
def test_guessing_the_variant_finds_the_same_games_and_errors(path: Path) -> None:
    """With ``variant="guess"`` every file reads as with its variant given: the same broken
    games, and the games with moves in the file's variant (Czech files narrow from the
    Russian guess as soon as a game needs the Czech rules)."""
    with open(path, "rb") as handle:
        games = list(pdn.read_games(handle, "guess", errors="collect"))
    assert _errors(games) == EXPECTED_ERRORS.get(path.name, [])
    expected = VARIANT_OF_FILE.get(path.name, "international")
    wrong = [g.number for g in games
             if g.guessed and g.plies and g.error is None and g.variant.id != expected]
    assert len(wrong) <= 1  # at most the first game, read before the guess narrowed
