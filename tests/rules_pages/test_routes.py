"""The rules pages over HTTP (FastAPI test client): every page in every language, the
generated comparison table, language URLs, the switcher, and translated rule refusals."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from damiera.rules.variant import VARIANTS
from damiera.web import i18n
from damiera.web.app import create_app
from damiera.web.limits import Limits
from damiera.web.rules_pages.comparison import comparison
from damiera.web.rules_pages.content import page_ids
from damiera.web.rules_pages.diagrams import DIAGRAMS


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("rules") / "games.sqlite3"
    roomy = Limits(create_rate=1000.0, create_burst=1000)
    with TestClient(create_app(f"sqlite:///{db}", computer_workers=1, limits=roomy)) as c:
        yield c


@pytest.fixture(autouse=True)
def fresh_visitor(client: TestClient) -> Iterator[None]:
    """Each test starts without cookies (a URL language is remembered in a cookie)."""
    client.cookies.clear()
    yield
    client.cookies.clear()


@pytest.mark.parametrize("lang", i18n.available_locales())
def test_every_page_renders_with_its_diagrams(client: TestClient, lang: str) -> None:
    r = client.get(f"/{lang}/rules")
    assert r.status_code == 200
    for page_id in page_ids():
        assert f'/{lang}/rules/{page_id}"' in r.text
        r = client.get(f"/{lang}/rules/{page_id}")
        assert r.status_code == 200, (lang, page_id)
        tag = lang.replace("_", "-")  # a BCP 47 tag: pt-BR
        assert f'<html lang="{tag}" dir="{"rtl" if lang == "ar" else "ltr"}">' in r.text
        for d in DIAGRAMS[page_id]:
            assert f'id="diagram-{d.id}"' in r.text
            # the caption in this language names exactly the moves the checked claims name
            figure = r.text.split(f'id="diagram-{d.id}"', 1)[1].split("</figure>", 1)[0]
            caption = figure.split("<figcaption>", 1)[1].split("</figcaption>", 1)[0]
            named = re.findall(r'<span class="mv">(.*?)</span>', caption)
            wanted = [m for key in ("move", "moves", "illegal", "captures")
                      for m in d.caption_params().get(key, "").split(", ")
                      if key in _fields(d.caption) and m]
            assert sorted(named) == sorted(wanted), (lang, d.id)
        assert r.text.count('<figure class="diagram"') == len(DIAGRAMS[page_id])
        assert "%(" not in r.text  # every caption field filled


def _fields(caption: str) -> set[str]:
    return set(re.findall(r"%\((\w+)\)s", caption))


def test_comparison_table_comes_from_the_rule_parameters(client: TestClient) -> None:
    r = client.get("/en/rules/czech")
    rows = re.findall(r"<tr( class=\"differs\")?>\s*<th scope=\"row\">(.*?)</th>\s*<td>(.*?)</td>"
                      r"\s*<td>(.*?)</td>", r.text)
    expected = comparison(VARIANTS["czech"], lambda s: s)
    assert [(bool(d), label, ref, val) for d, label, ref, val in rows] == [
        (row.differs, row.label, row.reference, row.value) for row in expected
    ]
    assert ("Flying kings", "No", "Yes") in [(r.label, r.reference, r.value) for r in expected]


def test_unknown_pages_and_languages_are_404(client: TestClient) -> None:
    assert client.get("/en/rules/checkers").status_code == 404
    assert client.get("/xx/rules").status_code == 404
    assert client.get("/xx/rules/italian").status_code == 404


def test_language_urls_are_normalised(client: TestClient) -> None:
    r = client.get("/pt-br/rules/brazilian", follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == "/pt_BR/rules/brazilian"
    r = client.get("/rules", headers={"accept-language": "cs,en;q=0.5"}, follow_redirects=False)
    assert r.headers["location"] == "/cs/rules"


def test_a_rule_set_page_without_a_language_redirects_like_the_index(client: TestClient) -> None:
    r = client.get("/rules/russian", headers={"accept-language": "ru"}, follow_redirects=False)
    assert r.status_code == 307 and r.headers["location"] == "/ru/rules/russian"
    r = client.get("/rules/italian?lang=it", follow_redirects=False)
    assert r.headers["location"] == "/it/rules/italian"
    assert client.get("/rules/russian").status_code == 200
    r = client.get("/rules/checkers", follow_redirects=False)
    assert r.status_code == 404 and "This page does not exist." in r.text


def test_language_switcher_keeps_the_rules_page(client: TestClient) -> None:
    r = client.get("/lang/ar?next=/it/rules/czech", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/ar/rules/czech"
    r = client.get("/lang/ar?next=/games", follow_redirects=False)
    assert r.headers["location"] == "/games"


def test_page_language_wins_over_cookie(client: TestClient) -> None:
    client.cookies.set(i18n.COOKIE, "it")
    try:
        r = client.get("/ru/rules/russian")
    finally:
        client.cookies.clear()
    assert "<h1>Русские шашки</h1>" in r.text


def test_rule_refusal_is_translated_with_the_variant_name(client: TestClient) -> None:
    game = client.post(
        "/api/games",
        json={"variant": "italian", "opponent": "friend", "fen": "W:W21,24:B10,18,20"},
    ).json()
    r = client.post(
        f"/api/games/{game['id']}/moves", json={"move": "24x15"},
        headers={"accept-language": "it"},
    )
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "most_pieces"
    assert body["error"] == "Dama italiana: devi prendere il maggior numero di pezzi (21x14x5)"


@pytest.mark.parametrize("page_id", page_ids())
def test_try_it_games_start_from_each_diagram(client: TestClient, page_id: str) -> None:
    """What "Try it" sends (POST /api/games with the diagram's FEN) gives a game whose legal
    moves are the ones the diagram claims."""
    for d in DIAGRAMS[page_id]:
        r = client.post("/api/games", json={
            "variant": d.variant, "opponent": "friend", "fen": d.fen,
            "optional_capture": d.optional_capture,
        })
        assert r.status_code == 201, (d.id, r.text)
        moves = sorted(m["move"] for m in r.json()["legal_moves"])
        for claim in d.claims:
            if claim.kind == "only_legal_moves":
                assert moves == sorted(claim.moves), d.id
