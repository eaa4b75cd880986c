"""Every string of the games online, the live boards and the lobby is translated in every
language of the site, with the same ``{fields}`` as the English message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from damiera.web import i18n

WEB = Path(i18n.__file__).parent
FILES = [
    ("python", WEB / "live" / "strings.py"),
    ("python", WEB / "live" / "state.py"),
    ("python", WEB / "live" / "offers.py"),
    ("python", WEB / "live" / "routes.py"),
    ("python", WEB / "lobby" / "challenges.py"),
    ("python", WEB / "lobby" / "routes.py"),
    ("python", WEB / "results.py"),
    ("jinja2", WEB / "live" / "templates" / "live_menu.html"),
    ("jinja2", WEB / "live" / "templates" / "live_panel.html"),
    ("jinja2", WEB / "live" / "templates" / "join.html"),
    ("jinja2", WEB / "lobby" / "templates" / "lobby.html"),
]


def _msgids() -> set[str]:
    found: set[str] = set()
    for method, path in FILES:
        options = {"extensions": "jinja2.ext.i18n"} if method == "jinja2" else {}
        for _l, message, _c, _x in extract_from_file(method, str(path), options=options):
            found.add(message if isinstance(message, str) else message[0])
    return found


def _catalog(code: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in ("live.po", "messages.po"):
        with (WEB / "locales" / code / "LC_MESSAGES" / name).open("rb") as fp:
            for m in read_po(fp):
                if m.id and isinstance(m.id, str) and m.string and m.id not in out:
                    out[m.id] = str(m.string)
    return out


@pytest.mark.parametrize("code", [c for c in i18n.available_locales() if c != "en"])
def test_every_live_string_is_translated_with_the_same_fields(code: str) -> None:
    ids = _msgids()
    assert "Play a friend online (send a link)" in ids and "Lobby" in ids and len(ids) > 60
    catalog = _catalog(code)
    assert sorted(ids - set(catalog)) == []
    fields = re.compile(r"\{(\w+)\}")
    for msgid in ids:
        assert set(fields.findall(catalog[msgid])) <= set(fields.findall(msgid)), msgid


def test_the_english_catalog_lists_every_live_string() -> None:
    with (WEB / "locales" / "en" / "LC_MESSAGES" / "live.po").open("rb") as fp:
        english = {m.id for m in read_po(fp) if m.id}
    with (WEB / "locales" / "en" / "LC_MESSAGES" / "messages.po").open("rb") as fp:
        english |= {m.id for m in read_po(fp) if m.id}
    assert _msgids() - english == set()
