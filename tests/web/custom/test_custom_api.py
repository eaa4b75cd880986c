"""Custom rule sets on the site: ``POST /api/custom`` names a rule set or refuses it with the
reason (in the request's language), its page ``/custom/<code>`` states its rules in the eight
languages, and a game, its PDN, the analysis board and the PDN import take its id."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from damiera.rules.custom import FIELDS, MAX_CUSTOM_ID, write_custom
from damiera.rules.variant import VARIANTS, custom_fields, variant
from damiera.web import custom as custom_package
from damiera.web import i18n
from damiera.web.custom.strings import FIELD_LABELS, VALUE_LABELS
from damiera.web.custom.variant_body import KNOWN_KEYS
from damiera.web.store_tables import MAX_VARIANT_ID
from tests.web.conftest import new_game, play

pytestmark = pytest.mark.usefixtures("no_cookie_left")

RUSSIAN_RULES = custom_fields(VARIANTS["russian"])


def create(client: TestClient, rules: dict[str, Any], name: str = "",
           lang: str = "en") -> Any:
    return client.post("/api/custom", json={"rules": rules, "name": name},
                       headers={"Accept-Language": lang})


def test_a_rule_set_gets_its_canonical_id_and_address(client: TestClient) -> None:
    r = create(client, RUSSIAN_RULES, "  Club   rules ")
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["id"] == write_custom(RUSSIAN_RULES, "Club rules")
    assert data["name"] == "Club rules"
    assert data["url"] == "/custom/" + data["id"].removeprefix("custom:").replace(" ", "%20")
    assert data["variant"]["id"] == data["id"] and data["variant"]["board"]["size"] == 8
    assert len(data["id"]) <= MAX_CUSTOM_ID <= MAX_VARIANT_ID  # fits the store's column


def test_fields_left_out_take_their_default(client: TestClient) -> None:
    assert create(client, {}).json()["id"] == "custom:1"


@pytest.mark.parametrize(("rules", "name", "code", "english", "italian"), [
    ({"king_lands_behind": True}, "", "land-behind-short-king", "only when kings fly",
     "solo se le dame volano"),
    ({"board_size": 10, "man_rows": 4, "mandatory_capture": False}, "",
     "optional-capture-10x10", "8×8 boards only", "solo sulle damiere 8×8"),
    ({"losing": True, "breakthrough": True}, "", "losing-breakthrough",
     "two different goals", "due scopi diversi"),
    ({"man_rows": 4}, "", "rows", "at most 3 rows", "al massimo 3 file"),
    ({}, "<script>", "name", "at most 32 characters", "al massimo 32 caratteri"),
    ({"breakthrough": True, "men_capture_kings": False}, "", "breakthrough-kings",
     "“May men capture kings?” changes nothing", "«Le pedine possono prendere le dame?»"),
    ({"breakthrough": True, "capture_choice": "value"}, "", "breakthrough-choice",
     "the same as “the one that takes the most pieces”", "«quella che prende più pezzi»"),
    ({"breakthrough": True, "flying_kings": True}, "", "breakthrough-flying",
     "goes on capturing as a king", "continua a prendere come dama"),
])
def test_an_impossible_rule_set_is_refused_with_the_reason_in_the_pages_language(
        client: TestClient, rules: dict[str, Any], name: str, code: str, english: str,
        italian: str) -> None:
    r = create(client, rules, name)
    assert r.status_code == 400 and r.json()["code"] == code
    assert english in r.json()["error"]
    r = create(client, rules, name, lang="it")
    assert r.status_code == 400 and italian in r.json()["error"]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"rules": {"flying": True}}, 400, "unknown rule field 'flying'"),
    ({"rules": {"board_size": 9}}, 400, "“Board” cannot be 9."),
    ({"rules": {"flying_kings": 1}}, 400, "“Kings” cannot be 1."),
    ({"rules": {"capture_choice": "x" * 41}}, 400, "“Which capture must be chosen” cannot be"),
    ({"rules": {"capture_choice": "x" * 601}}, 422, ""),
    ({"rules": {f"f{i}": 1 for i in range(len(KNOWN_KEYS) + 1)}}, 422, ""),
    ({"rules": {"board": {"size": 8, "squares": [{"label": "a1", "file": 0, "rank": 0}] * 145}}},
     422, ""),
    ({"name": "x" * 200}, 422, ""),
])
def test_bad_input_is_refused_and_bounded(client: TestClient, body: dict[str, Any],
                                          status: int, words: str) -> None:
    r = client.post("/api/custom", json=body)
    assert r.status_code == status and words in r.json()["error"]


@pytest.mark.parametrize("lang", i18n.available_locales())
def test_the_rules_page_is_generated_in_every_language(client: TestClient, lang: str) -> None:
    url = create(client, {**RUSSIAN_RULES, "losing": True}, "Klub").json()["url"]
    r = client.get(url + f"?lang={lang}")
    assert r.status_code == 200
    html = r.text
    i18n.set_locale(lang)
    losing_rule = ("You win when, on your turn, you have no pieces left or none of your "
                   "pieces can move.")
    for sentence in ("Men capture forwards and backwards.", losing_rule, "Play the computer"):
        assert str(i18n.gettext(sentence)).replace("'", "&#39;") in html, (lang, sentence)
    assert html.count('class="diagram"') >= 6
    assert ('dir="rtl"' in html) == (lang == "ar")


def test_a_code_written_otherwise_is_sent_to_the_canonical_address(client: TestClient) -> None:
    r = client.get("/custom/10000:Klub", follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == "/custom/1:Klub"


def test_a_broken_address_gets_the_reason(client: TestClient) -> None:
    r = client.get("/custom/1000001")
    assert r.status_code == 400 and "only when kings fly" in r.text


def test_the_form_starts_from_a_given_rule_set(client: TestClient) -> None:
    code = write_custom(RUSSIAN_RULES, "Klub").removeprefix("custom:")
    html = client.get(f"/custom?rules={code}").text
    assert 'value="Klub"' in html
    assert re.search(r'data-field="flying_kings">\s*<option value="false">[^<]*</option>'
                     r'<option value="true" selected>', html)


def test_a_custom_game_is_played_stored_and_written_as_pdn(client: TestClient) -> None:
    custom_id = create(client, RUSSIAN_RULES, "Klub").json()["id"]
    game = new_game(client, variant=custom_id)
    assert game["variant"] == game["full_id"] == custom_id
    game = play(client, game["id"], "c3-d4")
    again = client.get(f"/api/games/{game['id']}").json()
    assert again["history"] == ["c3-d4"] and again["full_id"] == custom_id
    pdn = client.get(f"/api/games/{game['id']}/pdn").text
    assert f'[Variant "{custom_id}"]' in pdn and "GameType" not in pdn
    page = client.get(f"/game/{game['id']}").text
    assert "<title>Klub" in page
    imported = client.post("/api/pdn/import", json={"pdn": pdn},
                           headers={"Origin": str(client.base_url)}).json()["games"][0]
    assert imported["full_id"] == custom_id and imported["custom_variant"]["id"] == custom_id
    assert client.post("/api/pdn/replay", json={"variant": custom_id, "moves": ["c3-d4"]},
                       headers={"Origin": str(client.base_url)}).status_code == 200


def test_a_custom_rule_set_on_the_12x12_board_is_played(client: TestClient) -> None:
    # Canadian draughts' rules under a club's name: the 12x12 board, 30 men each.
    custom_id = create(client, custom_fields(VARIANTS["canadian"]), "Grand jeu").json()["id"]
    game = new_game(client, variant=custom_id)
    assert game["full_id"] == custom_id
    game = play(client, game["id"], "46-40")
    again = client.get(f"/api/games/{game['id']}").json()
    assert again["history"] == ["46-40"] and again["full_id"] == custom_id


def test_the_analysis_board_takes_a_custom_rule_set(client: TestClient) -> None:
    custom_id = create(client, RUSSIAN_RULES, "Klub").json()["id"]
    html = client.get("/analysis", params={"variant": custom_id}).text
    assert f'"id": "{custom_id}"' in html or f'"id":"{custom_id}"' in html
    r = client.get("/api/analysis/position", params={"variant": custom_id})
    assert r.status_code == 200, r.text


def test_the_new_game_form_and_the_rules_index_link_to_the_form(client: TestClient) -> None:
    assert 'href="/custom"' in client.get("/").text
    assert 'href="/custom"' in client.get("/en/rules").text


@pytest.mark.parametrize("code", [c for c in i18n.available_locales() if c != "en"])
def test_every_custom_string_is_translated_with_the_same_fields(code: str) -> None:
    folder = Path(custom_package.__file__).parent
    ids = set()
    for name in ("strings.py", "diagrams.py"):
        ids |= {m if isinstance(m, str) else m[0] for _l, m, _c, _x in
                extract_from_file("python", str(folder / name), keywords={"N_": None})}
    assert "Make your own rule set" in ids
    locales = folder.parent / "locales" / code / "LC_MESSAGES"
    catalog: dict[str, str] = {}
    for po in locales.glob("*.po"):
        with po.open("rb") as fp:
            catalog.update({m.id: str(m.string) for m in read_po(fp)
                            if isinstance(m.id, str) and m.id and m.string})
    assert sorted(ids - set(catalog)) == []
    fields = re.compile(r"%\((\w+)\)s")
    for msgid in ids:
        assert set(fields.findall(catalog[msgid])) == set(fields.findall(msgid)), msgid


def test_every_field_of_the_form_has_a_label_and_every_value_that_is_not_a_number_too() -> None:
    for field in FIELDS:
        assert field.name in FIELD_LABELS, field.name
        for value in field.values:
            if type(value) is not int:
                assert value in VALUE_LABELS.get(field.name, {}), (field.name, value)


def test_the_form_shows_frisian_rule_fields_in_words(client: TestClient) -> None:
    html = client.get("/custom", params={"lang": "it"}).text
    assert "Prese lungo righe e colonne" in html
    assert "orthogonal_captures</" not in html and "((2, 1, 7)" not in html


def test_address_of_the_page_is_the_one_to_share(client: TestClient) -> None:
    data = create(client, {}, "Å b").json()
    html = client.get(data["url"]).text
    value = re.search(r'id="custom-address" readonly dir="ltr" value="([^"]+)"', html)
    assert value and unquote(value.group(1)).endswith("/custom/1:Å b")


@pytest.mark.parametrize("rules", [
    {"board_size": "8"}, {"man_rows": "3"}, {"board_size": True}, {"man_rows": 3.0},
    {"flying_kings": 1}, {"flying_kings": "true"},
    {"king_ending_draws": [[2, 1, "7"], [1, 1, 2]]},
    {"king_ending_draws": [[2, 1, 7.0], [1, 1, 2]]},
    {"king_ending_draws": [[2, True, 7], [1, 1, 2]]},
])
def test_a_value_of_the_wrong_type_is_a_400_with_the_reason(
    client: TestClient, rules: dict[str, Any]
) -> None:
    r = create(client, rules)
    assert r.status_code == 400, r.text
    data = r.json()
    assert data["code"] == "value"
    (field,) = rules
    assert field in data["error"] or FIELD_LABELS[field] in data["error"], data["error"]


def test_the_menus_rules_link_of_a_custom_rule_set_goes_to_its_page(client: TestClient) -> None:
    data = create(client, RUSSIAN_RULES, "Klub & co").json()
    game = new_game(client, variant=data["id"])
    for page in (data["url"], f"/game/{game['id']}"):
        html = client.get(page).text
        menu = html[html.index('id="menu-rules"'):]
        menu = menu[:menu.index("</ul>")]
        assert "/rules/custom:" not in menu
        link = re.search(r'href="(/custom/[^"]*)"', menu)
        assert link is not None, menu
        assert link.group(1).replace("&amp;", "&") == data["url"]
        assert client.get(link.group(1).replace("&amp;", "&")).status_code == 200


@pytest.mark.parametrize(("lang", "label", "words"), [
    ("en", "Rows of men for each side", "stands for no choice of"),
    ("ru", "Рядов шашек у каждой стороны", "Этот адрес повреждён"),
    ("ar", None, "هذا العنوان تالف"),
])
def test_a_broken_code_gets_the_400_page_with_the_reason_translated(
    client: TestClient, lang: str, label: str | None, words: str
) -> None:
    r = client.get("/custom/1005", headers={"Accept-Language": lang})   # man_rows '5'
    assert r.status_code == 400 and r.headers["content-type"].startswith("text/html")
    assert words in r.text and "man_rows" not in r.text
    if label is not None:
        assert label in r.text


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("code", ["1:" + "N" * (MAX_CUSTOM_ID + 9), "1" * 114, "12:" + "a" * 120])
def test_a_code_with_a_name_too_long_gets_the_400_page_not_json(
    client: TestClient, lang: str, code: str
) -> None:
    # the last two pass variant()'s own 120-character limit before the custom reader sees them
    r = client.get("/custom/" + code, headers={"Accept-Language": lang})
    assert r.status_code == 400 and r.headers["content-type"].startswith("text/html")
    assert ("too long" if lang == "en" else "troppo lungo") in r.text


@pytest.mark.parametrize(("rules", "lang", "words"), [
    ("1zz", "en", "cannot be read, so the form starts from the defaults"),
    ("1zz", "ru", "Правила в этом адресе не читаются"),
    ("1:" + "N" * 80, "en", "too long"),
])
def test_a_form_address_with_broken_rules_says_why(
    client: TestClient, rules: str, lang: str, words: str
) -> None:
    r = client.get("/custom", params={"rules": rules}, headers={"Accept-Language": lang})
    assert r.status_code == 200 and 'id="custom-refused"' in r.text
    assert words in r.text
    assert 'id="custom-refused"' not in client.get("/custom", params={"rules": "1"}).text


@pytest.mark.parametrize("back", [False, True])
def test_the_orthogonal_capture_sentence_follows_what_the_core_lets_men_do(
    client: TestClient, back: bool
) -> None:
    from damiera.rules.game import Game

    rules = {"board_size": 10, "man_rows": 4, "orthogonal_captures": True,
             "men_capture_backward": back}
    custom_id = write_custom(rules)
    v = variant(custom_id)
    # A white man on 28 with a black man straight behind it (38) and 48 empty.
    backwards = [str(m) for m in Game(v, fen="W:W28:B38").legal_moves] == ["28x48"]
    assert backwards is back
    html = client.get("/custom/" + custom_id.removeprefix("custom:")).text
    both_ways = "or forwards and backwards across two rows" in html
    forward_only = "a man forwards only and a king forwards and backwards" in html
    assert (both_ways, forward_only) == (backwards, not backwards)


@pytest.mark.parametrize(("named", "lang", "words"), [
    ("russian", "en", "These are the rules of Russian draughts."),
    ("international+breakthrough", "en",
     "These are the rules of International draughts (breakthrough)."),
    ("american+optional-capture", "ru", "Это правила: "),
    ("frisian+losing", "it", "Queste sono le regole: "),
    ("pool+breakthrough", "pt_BR", "Estas são as regras de "),
])
def test_a_custom_rule_set_equal_to_a_named_one_says_so_with_a_link(
        client: TestClient, named: str, lang: str, words: str) -> None:
    from damiera.rules.moot_rules import effective_fields

    v = variant(named)
    data = create(client, effective_fields(custom_fields(v)), "Mine", lang=lang).json()
    same = data["same_as"]
    assert same["full_id"] == v.full_id and same["text"].startswith(words)
    assert same["url"] == f"/{lang}/rules/{v.id}" and same["name"] in same["text"]
    assert client.get(same["url"]).status_code == 200
    html = client.get(data["url"], headers={"Accept-Language": lang}).text
    assert f'id="custom-same">{same["before"]}<a href="{same["url"]}">' in html


def test_a_custom_rule_set_of_its_own_names_no_other(client: TestClient) -> None:
    data = create(client, {**RUSSIAN_RULES, "first_to_move": "B"}).json()
    assert data["same_as"] is None
    assert 'id="custom-same"' not in client.get(data["url"]).text


def test_a_rule_set_where_every_square_plays_gets_its_page_with_straight_diagrams(
        client: TestClient) -> None:
    rules = {**custom_fields(VARIANTS["turkish"]), "flying_kings": False}
    data = create(client, rules, "Dama").json()
    assert data["variant"]["all_squares"] and len(data["variant"]["board"]["squares"]) == 64
    assert data["same_as"] is None
    html = client.get(data["url"]).text
    assert 'id="diagram-custom-man-straight"' in html
    assert 'id="diagram-custom-man-sideways"' in html
    assert "custom-king-straight" not in html    # kings that move one square: not drawn
    turkish = create(client, custom_fields(VARIANTS["turkish"])).json()
    assert turkish["same_as"]["full_id"] == "turkish"
