"""Hub engines as opponents on the site: ``damiera hub`` itself run as a
configured engine (a real subprocess), and small scripted fakes for an engine that dies and
one that answers only ``stop``."""

from __future__ import annotations

import re
import shlex
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from damiera.cli import main
from damiera.engine.hub_protocol import move_string
from damiera.rules.movegen import Move, legal_moves
from damiera.rules.position import start_position
from damiera.rules.variant import variant
from damiera.web import hub_engines, i18n
from damiera.web.app import create_app
from damiera.web.hub_engines import EngineFailed, HubPlayers, load_engines, parse_spec
from tests.conftest import free_port
from tests.web.conftest import ROOMY, new_game

DAMIERA_HUB = shlex.join([sys.executable, "-m", "damiera", "hub"])

#: A Hub engine for Italian only: "die" exits (status 3, a last word on stderr) when asked to
#: search; "wait MOVE FILE" creates FILE on ``go`` and answers only after ``stop``, with MOVE.
FAKE = r'''
import sys
mode = sys.argv[1]
for line in sys.stdin:
    cmd = line.split()[0] if line.split() else ""
    if cmd == "hub":
        print('id name=Fake version=1', flush=True)
        print('param name=variant value=italian type=enum values="italian"', flush=True)
        print("wait", flush=True)
    elif cmd == "init":
        print("ready", flush=True)
    elif cmd == "go" and mode == "die":
        print("fake engine crashed", file=sys.stderr, flush=True)
        sys.exit(3)
    elif cmd == "go" and mode == "wait":
        open(sys.argv[3], "w").close()
    elif cmd == "stop" and mode == "wait":
        print("done move=" + sys.argv[2], flush=True)
    elif cmd == "quit":
        break
'''


@pytest.fixture
def fake(tmp_path: Path) -> str:
    script = tmp_path / "fake_hub.py"
    script.write_text(FAKE)
    return shlex.join([sys.executable, str(script)])


@pytest.fixture
def site(tmp_db: str, fake: str) -> Iterator[TestClient]:
    engines = load_engines([f"Damiera Hub={DAMIERA_HUB}", f"Dying={fake} die"])
    app = create_app(tmp_db, computer_workers=1, computer_movetime=0.05, limits=ROOMY,
                     hub_engines=engines)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def test_a_hub_engine_declares_its_variants_at_start_up(fake: str) -> None:
    hub, dying = load_engines([f"Damiera Hub={DAMIERA_HUB}", f"Dying={fake} die"])
    assert hub.title == "Damiera" and "international" in hub.variants  # Scan's "normal"
    assert "italian" in hub.variants and "russian" in hub.variants
    assert dying.variants == ("italian",)


def test_bad_hub_engine_specs_get_one_line_errors() -> None:
    assert parse_spec("Scan=/opt/scan/scan 'hub'") == ("Scan", ("/opt/scan/scan", "hub"))
    for spec, why in [("scan", "NAME=COMMAND"), ("Scan=", "NAME=COMMAND"),
                      ("<b>=x", "name"), ("S='unclosed", "cannot read")]:
        with pytest.raises(ValueError, match=why):
            parse_spec(spec)
    with pytest.raises(ValueError, match="cannot start"):
        load_engines(["Nowhere=/nonexistent/engine hub"])
    with pytest.raises(ValueError, match="two Hub engines"):
        load_engines([f"A={DAMIERA_HUB}", f"A={DAMIERA_HUB}"])


def test_a_game_against_a_hub_engine_gets_its_replies(site: TestClient) -> None:
    # Black: the engine (White) opens as the game is created, then answers our move.
    game = new_game(site, variant="italian", opponent="computer", engine="Damiera Hub",
                    side="black")
    assert game["engine"] == "Damiera Hub" and game["level"] is None
    assert len(game["history"]) == 1 and game["turn"] == "black"
    r = site.post(f"/api/games/{game['id']}/moves", json={"move": game["legal_moves"][0]["move"]})
    assert r.status_code == 200, r.text
    assert len(r.json()["history"]) == 3 and r.json()["turn"] == "black"
    pdn = site.get(f"/api/games/{game['id']}/pdn").text
    assert '[White "Damiera Hub"]' in pdn


def test_a_hub_engine_that_dies_gives_503_and_your_move_stays(site: TestClient) -> None:
    game = new_game(site, variant="italian", opponent="computer", engine="Dying",
                    side="white")
    r = site.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"})
    assert r.status_code == 503, r.text
    body = r.json()
    assert body["move_stored"] is True
    assert "Hub engine Dying failed" in body["error"] and "exit status 3" in body["error"]
    assert "fake engine crashed" in body["error"] and "/reply" in body["error"]
    assert site.get(f"/api/games/{game['id']}").json()["history"] == ["22-19"]
    r = site.post(f"/api/games/{game['id']}/reply")   # it is started afresh, and dies again
    assert r.status_code == 503 and "Hub engine Dying failed" in r.json()["error"]
    # an engine that must open the game: 503, not 500
    r = site.post("/api/games", json={"variant": "italian", "opponent": "computer",
                                      "engine": "Dying", "side": "black"})
    assert r.status_code == 503 and "Hub engine Dying failed" in r.json()["error"]


def test_a_game_whose_hub_engine_is_gone_after_a_restart_gets_503(tmp_db: str) -> None:
    engines = load_engines([f"Damiera Hub={DAMIERA_HUB}"])
    with TestClient(create_app(tmp_db, computer_workers=1, computer_movetime=0.05,
                               limits=ROOMY, hub_engines=engines)) as c:
        game = new_game(c, variant="italian", opponent="computer", engine="Damiera Hub",
                        side="white")
        seat = c.cookies
    restarted = create_app(tmp_db, computer_workers=1, computer_movetime=0.05, limits=ROOMY)
    with TestClient(restarted, raise_server_exceptions=False, cookies=seat) as c:
        r = c.post(f"/api/games/{game['id']}/moves", json={"move": "22-19"})
        assert r.status_code == 503 and r.json()["move_stored"] is True, r.text
        assert "not offered by this server any more" in r.json()["error"]


def test_a_hub_engine_is_refused_for_rules_it_does_not_play(site: TestClient) -> None:
    for body, why in [
        ({"variant": "international", "engine": "Dying"}, "does not play international"),
        ({"variant": "italian", "engine": "Nobody"}, "no Hub engine called"),
        ({"variant": "american", "engine": "Damiera Hub", "optional_capture": True},
         "optional captures"),
        ({"variant": "italian", "engine": "Damiera Hub", "opponent": "friend"},
         "only as the computer"),
    ]:
        r = site.post("/api/games", json=body)
        assert r.status_code == 400 and why in r.json()["error"], r.text


def test_the_new_game_menu_lists_hub_engines_with_their_variants(site: TestClient) -> None:
    page = site.get("/").text
    assert 'value="hub:Dying" data-variants="italian"' in page
    assert 'value="hub:Damiera Hub" data-variants="american' in page
    assert "Damiera Hub (Hub engine)" in page
    assert "Dying (motore Hub)" in site.get("/?lang=it").text


def test_an_abandoned_hub_search_is_sent_stop(fake: str, tmp_path: Path) -> None:
    v = variant("italian")
    start = start_position(v)
    first = legal_moves(v, start)[0]
    going = tmp_path / "going"
    (engine,) = load_engines([f"Waiter={fake} wait {move_string(v, first)} {going}"])
    players = HubPlayers([engine], movetime=600.0, timeout=600.0)
    stop = threading.Event()
    found: list[Move | Exception] = []

    def search() -> None:
        try:
            found.append(players.search("Waiter", "italian", [start], None, stop))
        except EngineFailed as exc:
            found.append(exc)

    worker = threading.Thread(target=search)
    worker.start()
    for _ in range(100_000):   # until the engine has its go (bounded: never forever)
        if going.exists() or not worker.is_alive():
            break
        threading.Event().wait(0.01)
    stop.set()   # the engine answers only stop: without it this search would last 600 s
    worker.join(120)
    players.close()
    assert not worker.is_alive() and found == [first]


@pytest.mark.parametrize("code", [c for c in i18n.available_locales() if c != "en"])
def test_every_hub_string_is_translated_with_the_same_fields(code: str) -> None:
    source = Path(hub_engines.__file__)
    ids = {m if isinstance(m, str) else m[0]
           for _l, m, _c, _x in extract_from_file("python", str(source))}
    assert "{name} (Hub engine)" in ids
    with (source.parent / "locales" / code / "LC_MESSAGES" / "hub.po").open("rb") as fp:
        catalog = {m.id: str(m.string) for m in read_po(fp) if m.id and m.string}
    assert sorted(ids - set(catalog)) == []
    fields = re.compile(r"\{(\w+)\}")
    for msgid in ids:
        assert set(fields.findall(catalog[msgid])) == set(fields.findall(msgid)), msgid


@pytest.mark.parametrize(
    ("args", "env", "words"),
    [
        (["--hub-engine", "Scan"], "", "give a Hub engine as NAME=COMMAND"),
        (["--hub-engine", "X=/nonexistent/engine hub"], "", "Hub engine X: cannot start"),
        (["--hub-movetime", "0"], "", "--hub-movetime must be more than 0"),
        ([], "Scan\n", "give a Hub engine as NAME=COMMAND"),   # $DAMIERA_HUB_ENGINES
    ],
)
def test_serve_refuses_a_bad_hub_engine_with_one_line(
    args: list[str], env: str, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DAMIERA_HUB_ENGINES", env)
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    assert main(["serve", "--port", str(free_port()), "--database-url", url, *args]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and err.startswith("damiera: error:")
