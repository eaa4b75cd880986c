"""The site's PDN import and "download all my games": a file read with its
games listed and errors placed by line, bounded in size and work, replayed for the board,
continued from any position as a new game that only its creator may play, and every game of
a browser downloaded as one PDN file that reads back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from damiera import pdn
from damiera.rules.position import MAX_FEN_TEXT
from damiera.web import i18n, pdn_import
from damiera.web.app import create_app
from damiera.web.limits import Limits

PDN_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "pdn"
ROOMY = Limits(create_rate=1000.0, create_burst=1000, computer_per_client=100,
               max_import_bytes=64 * 1024, import_rate=1000.0, import_burst=1000,
               replay_rate=1000.0, replay_burst=1000)


@pytest.fixture(scope="module")
def app(db_url: str) -> FastAPI:
    """The site with this module's limits, on the session's store of each backend."""
    return create_app(db_url, computer_workers=1, computer_movetime=0.05, limits=ROOMY)


@pytest.fixture(scope="module")
def alice(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


@pytest.fixture
def bob(app: FastAPI, alice: TestClient) -> Iterator[TestClient]:
    """Another browser (no cookie yet) on the same site."""
    with TestClient(app) as c:
        yield c


def text_of(name: str) -> str:
    path = PDN_DIR / name
    if not path.exists():
        pytest.skip(f"{path} not found: the specification's shared/ folder is not beside the repo")
    return path.read_bytes().decode("utf-8")


def test_a_good_file_lists_every_game_with_tags_result_and_plies(alice: TestClient) -> None:
    r = alice.post("/api/pdn/import", json={"pdn": text_of("succeed/wk2003.pdn")})
    assert r.status_code == 200, r.text
    data = r.json()
    games = data["games"]
    assert data["truncated"] is False
    assert len(games) == 23 and sum(g["plies"] for g in games) == 2381
    first = games[0]
    assert first["tags"]["White"] == "Ndjofang, J.M." and first["tags"]["Black"] == "Heusdens, R."
    # the file's 1/2-1/2, in International's convention (damiera.pdn.results)
    assert first["result"] == "1-1" and first["variant"] == "international"
    assert first["error"] is None and first["plies"] == len(first["moves"]) == 80
    assert first["moves"][0] == "32-28" and first["line"] == 1


def test_a_broken_file_gives_each_error_with_its_line_and_column(alice: TestClient) -> None:
    r = alice.post("/api/pdn/import", json={"pdn": text_of("fail/delfts.pdn")})
    errors = [(g["number"], g["error"]["line"], g["error"]["rule"])
              for g in r.json()["games"] if g["error"]]
    assert errors == [(1, 26, "illegal-move"), (2, 53, "illegal-move")]
    text = '[GameType "20"]\n1. 32-28 19-23\n2. 28x19 14x23\n3. 37-32 99-98 *\n\n1. 33-29 *\n'
    games = alice.post("/api/pdn/import", json={"pdn": text}).json()["games"]
    assert len(games) == 2 and games[1]["error"] is None    # reading went on after the error
    error = games[0]["error"]
    assert (error["line"], error["column"], error["rule"]) == (4, 10, "illegal-move")
    assert "99-98" in error["message"]
    assert games[0]["moves"] == ["32-28", "19-23", "28x19", "14x23", "37-32"]


def test_over_size_text_or_body_is_refused_and_nothing_read(alice: TestClient) -> None:
    limit = ROOMY.max_import_bytes
    big = "{" + "x" * (limit - 1) + "}"                 # one byte over, as UTF-8
    r = alice.post("/api/pdn/import", json={"pdn": big + "é"})
    assert r.status_code == 413 and "too large" in r.json()["error"]
    assert alice.post("/api/pdn/import", json={"pdn": big[:-2] + "}"}).status_code == 200
    r = alice.post("/api/pdn/import", content=b'{"pdn": "' + b"x" * (3 * limit) + b'"}',
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    # the other routes keep the small bound
    r = alice.post("/api/games", content=b'{"variant": "' + b"x" * (3 * limit) + b'"}',
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert alice.post("/api/pdn/import", json={"text": "1. 32-28 *"}).status_code == 422


def test_import_is_same_site_json_only(alice: TestClient) -> None:
    r = alice.post("/api/pdn/import", json={"pdn": "1. 32-28 *"},
                   headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    r = alice.post("/api/pdn/import", content=b"pdn=1.+32-28",
                   headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415


def test_reading_is_bounded_in_games_and_moves(
    alice: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
    monkeypatch.setattr(pdn_import, "MAX_GAMES", 3)
    data = alice.post("/api/pdn/import", json={"pdn": one * 5}).json()
    assert len(data["games"]) == 3 and data["truncated"] is True
    monkeypatch.setattr(pdn_import, "MAX_GAMES", 100)
    monkeypatch.setattr(pdn_import, "MAX_MOVES", 6)
    data = alice.post("/api/pdn/import", json={"pdn": one * 5}).json()
    assert len(data["games"]) == 2 and data["truncated"] is True
    assert data["games"][1]["error"]["rule"] == "limit"


def test_pdn_files_and_replays_are_rate_limited_per_client(tmp_path: Path) -> None:
    """Reading a file and downloading one share a bucket; replays have their own: past the
    burst (and no refill) 429 with Retry-After, nothing read."""
    limits = Limits(import_rate=0.001, import_burst=2, replay_rate=0.001, replay_burst=3)
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", computer_workers=1,
                     limits=limits)
    with TestClient(app) as c:
        assert c.post("/api/pdn/import", json={"pdn": "1. 32-28 *"}).status_code == 200
        assert c.get("/api/pdn/my-games").status_code == 200
        for r in (c.post("/api/pdn/import", json={"pdn": "1. 32-28 *"}),
                  c.get("/api/pdn/my-games")):
            assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
            assert r.json() == {"error": "too many PDN files from this client; try again later"}
        body = {"variant": "international", "moves": ["32-28"]}
        codes = [c.post("/api/pdn/replay", json=body).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]


def test_replay_gives_every_position_of_a_listed_game(alice: TestClient) -> None:
    text = text_of("succeed/wk2003.pdn")
    game = alice.post("/api/pdn/import", json={"pdn": text}).json()["games"][3]
    r = alice.post("/api/pdn/replay", json={"variant": game["variant"],
                                            "fen": game["start_fen"], "moves": game["moves"]})
    assert r.status_code == 200, r.text
    data = r.json()
    read = list(pdn.read_games(text))[3]
    assert len(data["positions"]) == game["plies"] + 1
    assert data["positions"][-1] == read.game.fen
    assert [m["move"] for m in data["moves"]] == game["moves"]
    r = alice.post("/api/pdn/replay", json={"variant": "international", "moves": ["32-28", "32-28"]})
    assert r.status_code == 400 and "move 2" in r.json()["error"]


def test_replay_takes_a_start_fen_as_long_as_a_game_does(alice: TestClient) -> None:
    """The replay route capped its FEN at 600 characters while games and the analysis board
    take the rules core's MAX_FEN_TEXT: a long (spaced) FEN a game accepts replays too, and
    one character more is refused as everywhere."""
    fen = "W:W31,32,33,34,35:B1,2,3,4,5"
    long = fen + " " * (MAX_FEN_TEXT - len(fen))
    assert len(long) > 600
    assert alice.post("/api/games", json={"variant": "international", "opponent": "friend",
                                          "fen": long}).status_code == 201
    r = alice.post("/api/pdn/replay", json={"variant": "international", "fen": long,
                                            "moves": ["31-26"]})
    assert r.status_code == 200, r.text
    r = alice.post("/api/pdn/replay", json={"variant": "international", "fen": long + " ",
                                            "moves": []})
    assert r.status_code == 422


def test_import_and_replay_keep_a_lidraughts_fens_draw_count_and_move_number(
        alice: TestClient) -> None:
    """An imported game's start FEN lost lidraughts' H and F, so a game continued from a
    record that noted a forty-move draw went on: the import gives both back, the replay
    numbers from F, and the continued game is drawn as the record says."""
    text = '[GameType "21"]\n[FEN "W:WK1:BK32:H76:F30"]\n30... 1-6 31. 32-27 6-1 32. 27-32 *\n'
    (game,) = alice.post("/api/pdn/import", json={"pdn": text}).json()["games"]
    assert game["start_fen"] == "W:WK1:BK32:H76:F30" and game["noted_draw"] is not None
    replayed = alice.post("/api/pdn/replay", json={
        "variant": game["variant"], "fen": game["start_fen"], "moves": game["moves"]}).json()
    assert replayed["move_numbers"] == ["30…", "31.", "31…", "32."]
    continued = alice.post("/api/games", json={
        "variant": game["variant"], "opponent": "friend", "fen": game["start_fen"],
        "moves": game["moves"]})
    assert continued.status_code == 201, continued.text
    assert continued.json()["result"]["winner"] is None


def test_anyone_imports_and_continues_but_only_the_creator_plays_the_new_game(
    alice: TestClient, bob: TestClient
) -> None:
    text = text_of("succeed/wk2003.pdn")
    game = bob.post("/api/pdn/import", json={"pdn": text}).json()["games"][0]   # no cookie
    positions = alice.post("/api/pdn/replay", json={
        "variant": game["variant"], "fen": game["start_fen"], "moves": game["moves"]},
    ).json()["positions"]
    fen = positions[10]                       # after move 5 of both sides: White to move
    r = alice.post("/api/games", json={"variant": "international", "fen": fen,
                                       "opponent": "friend"})
    assert r.status_code == 201, r.text
    mine = r.json()
    assert mine["start_fen"] == fen and mine["history"] == [] and mine["turn"] == "white"
    assert sorted(mine["seats"]) == ["black", "white"]
    move = mine["legal_moves"][0]["move"]
    r = bob.post(f"/api/games/{mine['id']}/moves", json={"move": move})
    assert r.status_code == 403
    assert alice.post(f"/api/games/{mine['id']}/moves", json={"move": move}).status_code == 200


def test_download_all_my_games_is_one_pdn_file_that_reads_back(
    alice: TestClient, bob: TestClient
) -> None:
    fen = "W:W31,32,33:B1,2,3"
    made = set()
    for body in ({"variant": "international", "fen": fen}, {"variant": "italian"}):
        game = alice.post("/api/games", json={**body, "opponent": "friend"}).json()
        move = game["legal_moves"][0]["move"]
        assert alice.post(f"/api/games/{game['id']}/moves", json={"move": move}).is_success
        made.add(game["id"])
    # a game without a move is left out, as "my games" leaves it out
    empty = alice.post("/api/games", json={"variant": "russian", "opponent": "friend"}).json()
    r = alice.get("/api/pdn/my-games")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    games = list(pdn.read_games(r.text))
    sites = {g.tags["Site"].removeprefix("game ") for g in games}
    assert made <= sites and all(g.error is None for g in games)
    assert empty["id"] not in sites
    setup = next(g for g in games if g.tags.get("FEN") == fen)
    assert setup.variant.id == "international"
    assert bob.get("/api/pdn/my-games").text == ""      # bob made no game


def test_the_import_page_is_served_translated_without_inline_script(alice: TestClient) -> None:
    r = alice.get("/import", params={"lang": "it"})
    assert r.status_code == 200
    assert "Importa PDN" in r.text and "Incolla il testo PDN" in r.text
    assert '<script type="module" src="/static/pdn_import.js">' in r.text
    assert "<script>" not in r.text
    assert alice.get("/static/pdn_import.js").status_code == 200
    alice.cookies.clear()


def _import_msgids() -> set[str]:
    from babel.messages.extract import extract_from_file

    web = Path(pdn_import.__file__).parent
    found: set[str] = set()
    for method, path in [("python", web / "pdn_import.py"),
                         ("jinja2", web / "templates" / "pdn_import.html")]:
        options = {"extensions": "jinja2.ext.i18n"} if method == "jinja2" else {}
        for _l, message, _c, _x in extract_from_file(
            method, str(path), keywords={"_": None}, options=options
        ):
            found.add(message if isinstance(message, str) else message[0])
    return found


@pytest.mark.parametrize("code", ["ar", "cs", "es", "it", "pt_BR", "ru", "sk"])
def test_every_import_page_string_is_translated_with_the_same_fields(code: str) -> None:
    import re

    from babel.messages.pofile import read_po

    folder = Path(pdn_import.__file__).parent / "locales" / code / "LC_MESSAGES"
    catalog: dict[str, str] = {}
    for name in ("pdn_import.po", "messages.po", "analysis.po"):
        with (folder / name).open("rb") as fp:
            for m in read_po(fp):
                if isinstance(m.id, str) and m.id and m.string and m.id not in catalog:
                    catalog[m.id] = str(m.string)
    ids = _import_msgids()
    assert "Import PDN" in ids and "Continue the game" in ids
    assert sorted(ids - set(catalog)) == []
    fields = re.compile(r"\{(\w+)\}")
    for msgid in ids:
        assert set(fields.findall(catalog[msgid])) == set(fields.findall(msgid)), msgid


def test_a_refused_move_is_worded_in_the_request_language_with_its_parts_apart(
    alice: TestClient,
) -> None:
    """The rules core's reason and the sentence around it come from the catalogs; the move
    number and the move stay as the file writes them, each given apart for the page to set
    left to right. Other errors keep the reader's English message and give no parts."""
    text = ('[GameType "20"]\n1. 32-28 19-23 2. 28x17 *\n\n'
            '[GameType "20"]\n1. 32-28 [19-23 *\n')
    english = alice.post("/api/pdn/import", json={"pdn": text}).json()["games"]
    arabic = alice.post("/api/pdn/import?lang=ar", json={"pdn": text}).json()["games"]
    error, translated = english[0]["error"], arabic[0]["error"]
    assert error["message"] == "move 2. 28x17: " + error["move"]["reason"]
    assert error["move"]["number"] == "2." and error["move"]["text"] == "28x17"
    assert "28x17" in error["move"]["reason"] and "not" in error["move"]["reason"]
    assert (translated["line"], translated["column"]) == (error["line"], error["column"])
    assert translated["move"]["number"] == "2." and translated["move"]["text"] == "28x17"
    reason = translated["move"]["reason"]
    assert reason != error["move"]["reason"] and "28x17" in reason
    assert not any("a" <= c <= "z" for c in reason.replace("28x17", "").replace("28x19", ""))
    frame = i18n.translations("ar").ugettext("move {number} {move}: {reason}")
    assert frame != "move {number} {move}: {reason}"            # so the test can fail
    assert translated["message"] == frame.format(number="2.", move="28x17", reason=reason)
    # a syntax error: the reader's own words, in both languages, no parts
    assert english[1]["error"]["rule"] == "syntax" and english[1]["error"]["move"] is None
    assert arabic[1]["error"] == english[1]["error"]
    # in a variation inside a variation: the same parts, the framing once for each
    text = '[GameType "20"]\n1. 32-28 19-23 (19-24 2. 33-29 (2. 28x17) 24-30) 2. 28x19 *\n'
    error = alice.post("/api/pdn/import?lang=ar", json={"pdn": text}).json()["games"][0]["error"]
    move = error["move"]
    assert (move["number"], move["text"], move["variation"]) == ("2.", "28x17", 2)
    around = i18n.translations("ar").ugettext("in a variation: {message}")
    assert around != "in a variation: {message}"
    assert error["message"] == around.format(message=around.format(
        message=frame.format(number="2.", move="28x17", reason=move["reason"])))


def test_a_rule_of_the_games_history_broken_is_a_placed_error_not_a_500(
    alice: TestClient,
) -> None:
    # Frisian: the king's fourth quiet move in a row while its side has men; the second
    # game is good and is kept.
    text = ('[GameType "40"]\n[FEN "W:WK46,45:B1,2"]\n'
            "1. 46-41 1-7 2. 41-46 7-12\n3. 46-41 2-8 4. 41-46 *\n\n"
            '[GameType "40"]\n1. 31-26 20-24 *\n')
    r = alice.post("/api/pdn/import", json={"pdn": text})
    assert r.status_code == 200, r.text
    first, second = r.json()["games"]
    assert first["error"]["line"] == 4 and "41-46" in first["error"]["message"]
    assert second["error"] is None and second["plies"] == 2
