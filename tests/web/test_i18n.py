"""Internationalisation: locale choice, catalogs compiled at run time,
``lang``/``dir`` on the page, every string of the site's pages in the English catalog."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from damiera.web import i18n
from damiera.web.app import create_app

WEB = Path(i18n.__file__).parent
#: The files of the play site (other pages keep their own checks).
SITE_FILES = [
    ("python", WEB / "app.py"),
    ("python", WEB / "games.py"),
    ("python", WEB / "game_records.py"),
    ("python", WEB / "computer_turn.py"),
    ("jinja2", WEB / "templates" / "base.html"),
    ("jinja2", WEB / "templates" / "play.html"),
    ("jinja2", WEB / "templates" / "entry_choices.html"),
    ("jinja2", WEB / "templates" / "type_move.html"),
    ("jinja2", WEB / "templates" / "games.html"),
    ("jinja2", WEB / "templates" / "error.html"),
]


def _msgids() -> set[str]:
    found: set[str] = set()
    for method, path in SITE_FILES:
        options = {"extensions": "jinja2.ext.i18n"} if method == "jinja2" else {}
        for _line, message, _comments, _context in extract_from_file(
            "jinja2" if method == "jinja2" else "python", str(path), options=options
        ):
            found.add(message if isinstance(message, str) else message[0])
    return found


def test_every_site_string_is_in_the_catalog_template_and_the_english_catalog():
    ids = _msgids()
    assert "New game" in ids and "The computer is thinking…" in ids
    with (WEB / "locales" / "messages.pot").open("rb") as fp:
        pot = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fp) if m.id}
    with (WEB / "locales" / "en" / "LC_MESSAGES" / "messages.po").open("rb") as fp:
        en = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fp) if m.id}
    assert ids - pot == set(), "run pybabel extract (see damiera/web/babel.cfg)"
    assert ids - en == set(), "run pybabel update (see damiera/web/babel.cfg)"


def test_accept_language_order():
    assert i18n.parse_accept_language("it;q=0.5, ar, en-GB;q=0.8") == ["ar", "en-GB", "it"]
    assert i18n.parse_accept_language("") == []
    assert i18n.parse_accept_language("*, fr;q=0") == []


@pytest.fixture
def catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Locales en, it and ar, with one translated message each (compiled at run time)."""
    for code, text in [("en", ""), ("it", "Nuova partita"), ("ar", "لعبة جديدة")]:
        folder = tmp_path / code / "LC_MESSAGES"
        folder.mkdir(parents=True)
        extra = ""
        if code == "it":
            extra = ('msgid "error:capture_mandatory"\n'
                     'msgstr "la presa è obbligatoria ({moves})"\n')
        (folder / "messages.po").write_text(
            f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            f'msgid "New game"\nmsgstr "{text}"\n\n{extra}',
            encoding="utf-8",
        )
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    return tmp_path


def test_locale_from_url_then_cookie_then_accept_language(catalogs: Path):
    assert i18n.available_locales() == ["en", "ar", "it"]
    assert i18n.choose_locale("it", "ar", "ar") == "it"
    assert i18n.choose_locale(None, "ar", "it") == "ar"
    assert i18n.choose_locale(None, None, "de, it-IT;q=0.9") == "it"
    assert i18n.choose_locale("xx", None, "de") == "en"


def test_pages_set_lang_and_dir_and_translate(catalogs: Path, tmp_db: str):
    with TestClient(create_app(tmp_db, computer_workers=1)) as c:
        page = c.get("/", headers={"accept-language": "ar"})
        assert '<html lang="ar" dir="rtl">' in page.text
        assert "لعبة جديدة" in page.text
        page = c.get("/?lang=it", headers={"accept-language": "ar"})
        assert '<html lang="it" dir="ltr">' in page.text and "Nuova partita" in page.text
        # the language switcher sets a cookie and goes back
        r = c.get("/lang/it?next=/games", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/games"
        r = c.get("/lang/it?next=/games%3Flang%3Dar%26x%3D1", follow_redirects=False)
        assert r.headers["location"] == "/games?x=1"
        # the switcher's cookie (set for the site's host) is replaced, not shadowed
        c.cookies.delete(i18n.COOKIE)
        c.cookies.set(i18n.COOKIE, "it")
        assert "Nuova partita" in c.get("/games").text
        # rule refusals are translated by code when the catalog has them, else English
        game = c.post("/api/games", json={"variant": "american", "opponent": "friend",
                                          "fen": "W:W22,30:B18"}).json()
        r = c.post(f"/api/games/{game['id']}/moves", json={"move": "30-26"})
        assert r.json()["error"] == "la presa è obbligatoria (22x15)"
        c.cookies.set(i18n.COOKIE, "ar")
        r = c.post(f"/api/games/{game['id']}/moves", json={"move": "30-26"})
        assert r.json()["error"] == "a capture is mandatory (22x15)"


def test_catalog_is_recompiled_when_the_po_file_changes(catalogs: Path):
    i18n.set_locale("it")
    assert i18n.gettext("New game") == "Nuova partita"
    po = catalogs / "it" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8").replace("Nuova partita", "Partita nuova")
    po.write_text(text, encoding="utf-8")
    import os

    st = po.stat()
    os.utime(po, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert i18n.gettext("New game") == "Partita nuova"
    i18n.set_locale("en")


def test_language_names_and_directions():
    assert i18n.text_direction("ar") == "rtl"
    assert i18n.text_direction("it") == "ltr"
    assert i18n.language_name("it").lower() == "italiano"


def test_a_language_chosen_by_the_url_sticks_to_the_next_pages(tmp_db: str):
    with TestClient(create_app(tmp_db, computer_workers=1)) as c:
        game = c.post("/api/games", json={"variant": "american", "opponent": "friend",
                                          "fen": "W:W22,30:B18"}).json()
        # a rules page in Italian, then the game it opened: Italian without any ?lang=
        assert c.get("/it/rules/italian").status_code == 200
        assert c.cookies.get(i18n.COOKIE) == "it"
        assert '<html lang="it"' in c.get(f"/game/{game['id']}").text
        # ?lang= on a game page is remembered too, and wins over the cookie
        assert '<html lang="ar"' in c.get(f"/game/{game['id']}?lang=ar").text
        assert c.cookies.get(i18n.COOKIE) == "ar"
        # a language the site does not have is not remembered
        c.cookies.delete(i18n.COOKIE)
        c.get(f"/game/{game['id']}?lang=xx", headers={"accept-language": "ar"})
        assert c.cookies.get(i18n.COOKIE) is None
        # the page's API requests carry ?lang=: every route answers in that language
        r = c.post(f"/api/games/{game['id']}/moves?lang=ar", json={"move": "30-26"})
        assert r.json()["error"] == "الأسر إجباري (22x15)"
        r = c.get(f"/api/games/{game['id']}/explain?square=30&lang=it")
        assert r.json()["reason"].lower() == "la presa è obbligatoria (22x15)"


def test_every_api_message_is_translated_in_every_catalog():
    """The API's own messages (409s and results, from the game service's modules) exist in
    every language, using no ``{field}`` that the English text does not fill."""
    import re

    ids = set()
    for name in ("games.py", "game_records.py", "computer_turn.py"):
        for _line, message, _c, _ctx in extract_from_file("python", str(WEB / name)):
            ids.add(message if isinstance(message, str) else message[0])
    assert "there is no move of yours to take back" in ids
    fields = re.compile(r"\{(\w+)\}")
    for code in i18n.available_locales():
        if code == "en":
            continue
        with (WEB / "locales" / code / "LC_MESSAGES" / "messages.po").open("rb") as fp:
            catalog = read_po(fp, locale=code)
        for msgid in ids:
            message = catalog.get(msgid)
            assert message is not None and message.string, f"{code} lacks {msgid!r}"
            assert set(fields.findall(message.string)) <= set(fields.findall(msgid)), (
                code, msgid)


def test_conflicts_are_in_the_request_language(client: TestClient):
    game = client.post("/api/games", json={"variant": "italian", "opponent": "friend"}).json()
    r = client.post(f"/api/games/{game['id']}/undo?lang=it")
    assert r.status_code == 409 and r.json()["error"] == "non c'è nessuna mossa da ritirare"
    r = client.post(f"/api/games/{game['id']}/resign?lang=ru")
    r = client.post(f"/api/games/{game['id']}/undo?lang=ru")
    assert r.json()["error"] == "партия закончилась сдачей; её нельзя взять назад"
    r = client.post(f"/api/games/{game['id']}/moves?lang=es", json={"move": "22-18"})
    assert r.status_code == 409
    assert r.json()["error"] == "la partida ha terminado: Ganan las Negras: las Blancas abandonaron"
    game = client.post("/api/games", json={"variant": "american", "side": "white"}).json()
    r = client.post(f"/api/games/{game['id']}/undo?lang=pt_BR")
    assert r.json()["error"] == "não há lance seu para voltar"


def test_html_lang_is_a_language_tag(tmp_db: str):
    with TestClient(create_app(tmp_db, computer_workers=1)) as c:
        page = c.get("/?lang=pt_BR").text
        assert '<html lang="pt-BR" dir="ltr">' in page
        assert 'hreflang="pt-BR"' in page
        # the page sends its tag back as ?lang=: understood
        game = c.post("/api/games?lang=pt-BR", json={"variant": "italian",
                                                     "opponent": "friend"}).json()
        r = c.post(f"/api/games/{game['id']}/undo?lang=pt-BR")
        assert r.json()["error"] == "não há lance para voltar"


def test_capture_mandatory_refusal_has_no_english_or_in_any_language(client: TestClient):
    game = client.post("/api/games", json={"variant": "russian", "opponent": "friend",
                                           "fen": "W:Wc3,e3,g3:Bd4,a7"}).json()
    for code in i18n.available_locales():
        r = client.post(f"/api/games/{game['id']}/moves?lang={code}", json={"move": "c3-b4"})
        assert r.status_code == 400 and r.json()["code"] == "capture_mandatory"
        error = r.json()["error"]
        if code == "en":
            assert error == "a capture is mandatory (c3:e5 or e3:c5)"
        else:
            assert "(c3:e5, e3:c5)" in error and " or " not in error, (code, error)
    assert r.json()["params"]["moves"] == "c3:e5, e3:c5"
