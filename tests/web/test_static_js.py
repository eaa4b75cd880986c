"""The site's scripts keep one API client and hold no FEN reader nor move replay: only
``api.js`` calls ``fetch``; every page draws the pieces the server sends (the play page each
ply's from the game's ``boards``, the analysis board each position's ``pieces``), and a FEN
typed in the position editor is read by the server."""

from __future__ import annotations

import re
from pathlib import Path

import damiera.web

STATIC = Path(damiera.web.__file__).parent / "static"


def _scripts() -> dict[str, str]:
    """Every page script: the shared ones and the feature folders' (web/<feature>/static)."""
    paths = sorted(STATIC.glob("*.js")) + sorted(STATIC.parent.glob("*/static/*.js"))
    return {p.name: p.read_text(encoding="utf-8") for p in paths}


def test_only_the_api_client_calls_fetch() -> None:
    callers = {name for name, text in _scripts().items() if re.search(r"\bfetch\(", text)}
    assert callers == {"api.js"}


def test_no_script_reads_fen_or_replays_moves() -> None:
    scripts = _scripts()
    assert "fen.js" not in scripts and "analysis.js" in scripts
    assert [n for n, text in scripts.items() if "parseFen" in text or "fen.js" in text] == []
    # the play page's past positions come from the server, not from its moves replayed
    assert "history_moves" not in scripts["play_state.js"]
    assert "/static/entry.js" not in scripts["play_state.js"]
    assert "g.boards" in scripts["play_state.js"]


def test_play_modules_import_no_cycle() -> None:
    scripts = _scripts()
    pattern = re.compile(r'^import [^;]*?"/static/([\w.]+)";', re.MULTILINE)
    imports = {name: set(pattern.findall(text)) for name, text in scripts.items()}
    assert "play_state.js" in imports["play.js"]

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in imports.get(start, set()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert [n for n in scripts if reaches(n, n, set())] == []
