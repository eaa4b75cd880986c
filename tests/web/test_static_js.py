"""The site's scripts keep one API client and compute no FEN (issue 17, item 6): only
``api.js`` calls ``fetch``, and the play, PDN import and rules pages draw the pieces the server
sends instead of parsing FEN (``fen.js`` serves the analysis page alone, whose position
editor reads and writes a FEN text box)."""

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


def test_pages_that_draw_server_positions_parse_no_fen() -> None:
    scripts = _scripts()
    pages = [n for n in scripts if n.startswith("play")] + ["pdn_import.js", "rules.js"]
    assert "play.js" in pages and "play_input.js" in pages
    assert [n for n in pages if "parseFen" in scripts[n]] == []
    assert [n for n, text in scripts.items() if '"/static/fen.js"' in text] == ["analysis.js"]


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
